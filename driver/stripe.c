// SPDX-License-Identifier: GPL-2.0
/*
 * The striping levels: JBOD and RAID0 (md raid0's layout, dm-stripe's
 * way of mapping).  No redundancy: a VD bio lies on one member (the
 * queue's chunk_sectors is the strip; JBOD has one member), is cloned
 * (no data copy) from vd->clone_set, remapped to the member's data area
 * and sent there.  A member error fails the VD bio; a failed member takes
 * the VD offline (tolerance 0).  The level's whole state is the clone set.
 */
#include <linux/blkdev.h>
#include <linux/bio.h>

#include "vraid.h"
#include "level.h"

/* Front pad of every member clone (vd->clone_set). */
struct vraid_io {
	struct vraid_vd *vd;
	unsigned long start;		/* bio_start_io_acct() of the VD bio */
	u32 member;
	u32 gen;			/* vraid_member_get() */
	struct bio clone;		/* must be last */
};

static void vraid_stripe_endio(struct bio *clone)
{
	struct vraid_io *io = container_of(clone, struct vraid_io, clone);
	struct bio *bio = clone->bi_private;
	struct vraid_vd *vd = io->vd;
	u32 member = io->member;
	unsigned long start;

	/* (no redundancy: its members never change device, nor generation) */
	if (unlikely(clone->bi_status)) {
		struct vraid_member *m = &vd->members[member];

		this_cpu_inc(vd->stats->member_errors[member]);
		pr_err_ratelimited("%s: I/O error %d on member %u (%s), %s sector %llu\n",
				   vd->disk->disk_name,
				   blk_status_to_errno(clone->bi_status),
				   member, m->name,
				   op_is_write(bio_op(clone)) ? "write" : "read",
				   (unsigned long long)clone->bi_iter.bi_sector);
		bio->bi_status = clone->bi_status;
	}
	start = io->start;
	bio_put(clone);		/* frees io, the clone's front pad */
	vraid_member_put(vd, member);
	vraid_io_done(vd, bio, start);
}

/* Map a bio that lies on one member and send it there. */
static void vraid_stripe_submit(struct vraid_vd *vd, struct bio *bio, u32 flags)
{
	struct vraid_map map;
	struct vraid_io *io;
	struct bio *clone;
	sector_t sector = bio->bi_iter.bi_sector;
	unsigned long start;
	u32 gen = 0;

	if (unlikely(sector + bio_sectors(bio) > vd->geom.size_sectors)) {
		bio_io_error(bio);
		return;
	}
	vraid_geom_map(&vd->geom, sector, &map);
	/* vraid_engine_cut() keeps every bio within one strip. */
	if (WARN_ON_ONCE(bio_sectors(bio) > map.len)) {
		bio_io_error(bio);
		return;
	}

	percpu_ref_get(&vd->active);
	/* any state: a failed member of these levels takes the VD offline */
	vraid_member_get(vd, map.member, VRAID_MGET_ANY, &gen);
	start = vraid_io_start(vd, bio, flags);
	clone = bio_alloc_clone(vd->members[map.member].h.bdev, bio, GFP_NOIO,
				&vd->clone_set);
	io = container_of(clone, struct vraid_io, clone);
	io->vd = vd;
	io->member = map.member;
	io->gen = gen;
	io->start = start;
	clone->bi_iter.bi_sector = VRAID_DATA_OFFSET_SECTORS + map.sector;
	clone->bi_private = bio;
	clone->bi_end_io = vraid_stripe_endio;
	/* (a write's FUA, vraid_io_start()'s included, came with the clone) */
	if (op_is_write(bio_op(bio)))
		this_cpu_inc(vd->stats->member_writes[map.member]);
	else
		this_cpu_inc(vd->stats->member_reads[map.member]);
	submit_bio_noacct(clone);
}

static int vraid_stripe_init(struct vraid_vd *vd)
{
	return bioset_init(&vd->clone_set, BIO_POOL_SIZE,
			   offsetof(struct vraid_io, clone), 0);
}

static void vraid_stripe_exit(struct vraid_vd *vd)
{
	bioset_exit(&vd->clone_set);
}

/* Every bio the block layer hands over lies in one strip. */
static void vraid_stripe_limits(struct vraid_vd *vd, struct queue_limits *lim)
{
	if (vd->geom.strip_sectors)
		lim->chunk_sectors = 1U << vraid_unit_shift(&vd->geom);
}

static u32 vraid_stripe_tolerance(const struct vraid_geom *g)
{
	return 0;
}

static u32 vraid_stripe_group_width(const struct vraid_geom *g)
{
	return g->nr_members;
}

const struct vraid_level_ops vraid_stripe_ops = {
	.init		= vraid_stripe_init,
	.exit		= vraid_stripe_exit,
	.submit		= vraid_stripe_submit,
	.limits		= vraid_stripe_limits,
	.tolerance	= vraid_stripe_tolerance,
	.group_width	= vraid_stripe_group_width,
};
