// SPDX-License-Identifier: GPL-2.0
/*
 * Virtual drive lifecycle: create (open members, build the gendisk and its
 * queue limits), delete (refuse while open, drain, release members) and
 * the block_device_operations of /dev/vraidN.
 */
#include <linux/module.h>
#include <linux/blkdev.h>
#include <linux/slab.h>
#include <linux/idr.h>
#include <linux/uuid.h>
#include <linux/timekeeping.h>
#include <linux/delay.h>
#include <linux/sched/signal.h>

#include "vraid.h"
#include "level.h"
#include "cache.h"
#include "journal.h"
#include "job.h"
#include "bitmap.h"
#include "events.h"
#include "core/metadata.h"

int vraid_major;

static VRAID_OPEN_PROTO(vraid_open)
{
	struct vraid_vd *vd = VRAID_OPEN_DISK()->private_data;
	int ret = 0;

	mutex_lock(&vd->lock);
	if (vd->deleting)
		ret = -ENXIO;
	else
		vd->open_count++;
	mutex_unlock(&vd->lock);
	return ret;
}

static VRAID_RELEASE_PROTO(vraid_release)
{
	struct vraid_vd *vd = disk->private_data;

	mutex_lock(&vd->lock);
	vd->open_count--;
	mutex_unlock(&vd->lock);
}

const struct block_device_operations vraid_fops = {
	.owner		= THIS_MODULE,
	.submit_bio	= vraid_submit_bio,
	.open		= vraid_open,
	.release	= vraid_release,
};

static void vraid_vd_free(struct vraid_vd *vd);

static void vraid_unlink_holders(struct vraid_vd *vd)
{
	u32 i;

	for (i = 0; i < VRAID_MAX_MEMBERS; i++) {
		struct vraid_member *m = &vd->members[i];

		if (m->holder_linked)
			bd_unlink_disk_holder(m->h.bdev, vd->disk);
		m->holder_linked = false;
	}
}

static void vraid_close_members(struct vraid_vd *vd)
{
	u32 i;

	vraid_unlink_holders(vd);
	for (i = 0; i < VRAID_MAX_MEMBERS; i++) {
		/* the I/O is over: a count left is a get without its put */
		WARN_ON_ONCE(atomic_read(&vd->members[i].nr_pending));
		vraid_bdev_close(&vd->members[i].h);
	}
}

static bool vraid_overlaps(struct block_device *a, struct block_device *b)
{
	/* A whole disk and one of its partitions share sectors. */
	return bdev_whole(a) == b || bdev_whole(b) == a;
}

/* Open every member exclusively and check it; reasons go to c->hdr. */
static int vraid_open_members(struct vraid_vd *vd, struct vraid_create *c,
			      u64 *min_data)
{
	char *msg = c->hdr.message;
	size_t len = sizeof(c->hdr.message);
	u64 need = VRAID_DATA_OFFSET_SECTORS + VRAID_MIN_DATA_SECTORS;
	u32 i, j;
	int ret;

	*min_data = U64_MAX;
	for (i = 0; i < c->nr_members; i++) {
		struct vraid_member *m = &vd->members[i];
		struct block_device *bdev;

		m->dev = MKDEV(c->members[i].major, c->members[i].minor);
		m->role = i;
		ret = vraid_bdev_open(&m->h, m->dev, vd);
		if (ret == -EBUSY) {
			snprintf(msg, len,
				 "member %u (%u:%u) is in use: mounted, in an md/dm array or in another virtual drive",
				 i, MAJOR(m->dev), MINOR(m->dev));
			return ret;
		} else if (ret) {
			snprintf(msg, len,
				 "member %u (%u:%u) cannot be opened (error %d): no such block device?",
				 i, MAJOR(m->dev), MINOR(m->dev), ret);
			return ret == -ENODEV ? -ENXIO : ret;
		}
		bdev = m->h.bdev;
		snprintf(m->name, sizeof(m->name), "%pg", bdev);
		m->dev_sectors = bdev_nr_sectors(bdev);
		m->state = VRAID_MEMBER_ONLINE;

		if (bdev_read_only(bdev)) {
			snprintf(msg, len, "member %u (%s) is read-only", i,
				 m->name);
			return -EROFS;
		}
		if (bdev_is_zoned(bdev)) {
			snprintf(msg, len,
				 "member %u (%s) is a zoned device: members must take random writes",
				 i, m->name);
			return -EINVAL;
		}
		if (m->dev_sectors < need) {
			snprintf(msg, len,
				 "member %u (%s) is too small: %llu KiB, needs at least %llu KiB (8 MiB reserved + 1 MiB data)",
				 i, m->name, m->dev_sectors >> 1, need >> 1);
			return -ENOSPC;
		}
		for (j = 0; j < i; j++) {
			if (vraid_overlaps(bdev, vd->members[j].h.bdev)) {
				snprintf(msg, len,
					 "members %u (%s) and %u (%s) overlap: one is a partition of the other",
					 j, vd->members[j].name, i, m->name);
				return -EINVAL;
			}
		}
		*min_data = min(*min_data,
				m->dev_sectors - VRAID_DATA_OFFSET_SECTORS);
	}
	return 0;
}

/*
 * Members handle FUA themselves (the block layer emulates it with a flush
 * where the device lacks it), so FUA is offered with a cache.  Disk cache
 * policy "disabled": every member write is FUA, so the VD has no
 * volatile cache to flush.
 */
static void vraid_write_cache_for(struct vraid_vd *vd, u32 dcache, bool *wc,
				  bool *fua)
{
	u32 i;

	*wc = false;
	*fua = false;
	for (i = 0; i < vd->geom.nr_members; i++) {
		struct block_device *bdev = vd->members[i].h.bdev;

		if (!bdev)
			continue;
		*wc |= bdev_write_cache(bdev);
		*fua |= bdev_fua(bdev);
	}
	if (dcache == VRAID_DCACHE_DISABLED)
		*wc = *fua = false;
	/* always write-back: the controller cache itself is volatile */
	if (READ_ONCE(vd->write_policy) == VRAID_WRITE_BACK_ALWAYS)
		*wc = true;
	*fua |= *wc;
}

static void vraid_write_cache(struct vraid_vd *vd, bool *wc, bool *fua)
{
	vraid_write_cache_for(vd, READ_ONCE(vd->disk_cache_policy), wc, fua);
}

/*
 * Flush every writable member's cache (process context).  With @fail, for
 * writes that are answered once it is done: a member whose flush fails
 * may not have on its media what it completed, so on a redundant VD it is
 * failed (the others hold that data; the writes then wait for the failure
 * to be recorded, vraid_io_hold()).  Returns -EIO if what the members hold
 * may not be on their media: a member could not flush (with @fail: a
 * member of a VD without redundancy, or the VD is offline after the
 * failures).
 */
static int vraid_members_flush_each(struct vraid_vd *vd, bool fail)
{
	bool redundant = fail && vraid_vd_redundant(vd);
	int ret = 0, err;
	u32 i, gen;

	for (i = 0; i < vd->geom.nr_members; i++) {
		if (!vraid_member_get(vd, i, VRAID_MGET_WRITABLE, &gen))
			continue;
		WRITE_ONCE(vd->flushing, i + 1);
		err = blkdev_issue_flush(vd->members[i].h.bdev);
		WRITE_ONCE(vd->flushing, 0);
		if (err) {
			if (fail)
				this_cpu_inc(vd->stats->member_errors[i]);
			pr_warn("%s: member %u (%s): flush failed\n",
				vd->disk->disk_name, i, vd->members[i].name);
			if (redundant)
				vraid_member_fail_io(vd, i, gen, "flush error");
			else
				ret = -EIO;
		}
		vraid_member_put(vd, i);
	}
	if (fail && READ_ONCE(vd->state) == VRAID_VD_OFFLINE)
		ret = -EIO;
	return ret;
}

int vraid_members_flush(struct vraid_vd *vd)
{
	return vraid_members_flush_each(vd, false);
}

int vraid_members_flush_fail(struct vraid_vd *vd)
{
	return vraid_members_flush_each(vd, true);
}

/*
 * The write cache the VD advertises, after a policy or member change;
 * @awb: as if the write policy were always write-back already.
 */
static void vraid_set_write_cache_awb(struct vraid_vd *vd, bool awb)
{
	bool wc, fua;
	int ret;

	vraid_write_cache(vd, &wc, &fua);
	if (awb)
		wc = fua = true;
	ret = vraid_set_cache_features(vd->disk, wc, fua);
	if (ret)
		pr_warn("%s: cannot change the write cache features (error %d)\n",
			vd->disk->disk_name, ret);
}

static void vraid_set_write_cache(struct vraid_vd *vd)
{
	vraid_set_write_cache_awb(vd, false);
}

/*
 * Disk cache policy "disabled" -> @dcache: the VD says it has the
 * members' cache before its writes stop carrying FUA, so that users send
 * flushes for what goes into that cache.  A write that entered while it
 * said it had none (the block layer dropped its flush flags then) was
 * marked FUA at the front door (vraid_submit_bio()); the freeze waits
 * for those in ->submit_bio now.  Returns an error if the VD cannot say
 * it has a cache: the policy stays "disabled" then.
 */
static int vraid_dcache_enable(struct vraid_vd *vd, u32 dcache)
{
	struct request_queue *q = vd->disk->queue;
	bool wc, fua;
	int ret;

	vraid_write_cache_for(vd, dcache, &wc, &fua);
	ret = vraid_set_cache_features(vd->disk, wc, fua);
	if (ret)
		return ret;
	blk_mq_freeze_queue(q);
	blk_mq_unfreeze_queue(q);
	WRITE_ONCE(vd->disk_cache_policy, dcache);
	return 0;
}

/* The limits of a VD's disk, from its members and geometry. */
static void vraid_limits(struct vraid_vd *vd, struct vraid_limits *l)
{
	struct queue_limits *lim = &l->lim;
	const struct vraid_geom *g = &vd->geom;
	bool discard = true;
	unsigned int max_discard = UINT_MAX;
	u32 i, strip = g->strip_sectors;

	vraid_limits_init(l);
	l->nonrot = true;
	for (i = 0; i < g->nr_members; i++) {
		struct block_device *bdev = vd->members[i].h.bdev;

		if (!bdev)
			continue;
		vraid_limits_stack(l, bdev, VRAID_DATA_OFFSET_SECTORS);
		l->nonrot &= bdev_nonrot(bdev);
		if (!bdev_max_discard_sectors(bdev))
			discard = false;
		else
			max_discard = min(max_discard,
					  bdev_max_discard_sectors(bdev));
	}
	if (strip) {
		lim->io_min = strip << SECTOR_SHIFT;
		lim->io_opt = (strip << SECTOR_SHIFT) * g->data_members;
		max_discard = min(max_discard, strip);
		lim->max_write_zeroes_sectors =
			min(lim->max_write_zeroes_sectors, strip);
	}
	if (!discard)
		max_discard = 0;
	lim->max_hw_discard_sectors = max_discard;
	lim->max_discard_sectors = max_discard;
	/* chunk_sectors, and what the level does not offer */
	vd->ops->limits(vd, lim);
	vraid_write_cache(vd, &l->write_cache, &l->fua);
}

static void vraid_vd_free(struct vraid_vd *vd)
{
	vraid_sysfs_notify_exit(vd);
	kfree(vd);
}

static struct vraid_vd *vraid_vd_alloc(void)
{
	struct vraid_vd *vd;

	vd = kzalloc(sizeof(*vd), GFP_KERNEL);
	if (!vd)
		return NULL;
	mutex_init(&vd->lock);
	mutex_init(&vd->md_lock);
	INIT_WORK(&vd->md_work, vraid_md_work);
	spin_lock_init(&vd->state_lock);
	spin_lock_init(&vd->held_lock);
	bio_list_init(&vd->held);
	INIT_LIST_HEAD(&vd->jnode);
	init_waitqueue_head(&vd->jwait);
	vd->state = VRAID_VD_OPTIMAL;
	vd->access_policy = VRAID_ACCESS_RW;
	vd->disk_cache_policy = VRAID_DCACHE_DEFAULT;
	vd->io_policy = VRAID_IO_DIRECT;
	vd->read_policy = VRAID_READ_NORA;
	vd->write_policy = VRAID_WRITE_THROUGH;
	vraid_job_init(vd);
	return vd;
}

/* What assembly knows before the VD goes live (the journal's replay). */
struct vraid_asm_ctx {
	bool clean;			/* the metadata says stopped cleanly */
	bool no_journal;		/* VRAID_ASM_NO_JOURNAL */
	bool force;			/* VRAID_ASM_FORCE */
	struct vraid_journal_replayed replayed;	/* out */
	bool resync;			/* out: regions marked for resync */
	bool no_bitmap;			/* out: no valid bitmap (all of it) */
	u32 regions;			/* out: how many */
};

/*
 * A parity VD not shut down cleanly: the rows being written at the crash
 * may be torn (data and parity of different generations: the write
 * hole).  Where every member holds its blocks the resync makes parity
 * match the data again; where a member is missing, or is being rebuilt
 * and not rebuilt there yet (above its own rebuilt_to), its blocks can only
 * be reconstructed from the torn row, and come out wrong: old data the
 * VD had acknowledged is lost, without a read error.  md refuses to
 * start such an array (start_dirty_degraded); so do we, unless @force,
 * or a journal replay rewrote those rows whole (its records carry the
 * parity columns).  The count is of write-intent regions dirty at the
 * crash (all of them without a valid bitmap) above the position that
 * holds for every member.  Returns 0 or -EUCLEAN with @msg.
 */
static int vraid_vd_dirty_degraded(struct vraid_vd *vd,
				   struct vraid_asm_ctx *ac, bool journalled,
				   char *msg, size_t len)
{
	u64 from = vd->geom.member_sectors;
	u32 i, n;

	if (ac->clean || !vd->ops->row_writes || journalled)
		return 0;
	for (i = 0; i < vd->geom.nr_members; i++) {
		switch (vd->members[i].state) {
		case VRAID_MEMBER_REBUILDING:
			from = min(from, vd->members[i].rebuilt_to);
			break;
		case VRAID_MEMBER_ONLINE:
			break;
		default:
			from = 0;
		}
	}
	n = vraid_bitmap_dirty_above(vd, from, ac->no_bitmap, ac->force);
	if (!n)
		return 0;
	if (!ac->force) {
		/* the VD by its name, else its UUID (it has no disk yet) */
		if (vd->name[0])
			snprintf(msg, len,
				 "VD %s: unclean shutdown while degraded: %u dirty region%s may reconstruct wrongly",
				 vd->name, n, n == 1 ? "" : "s");
		else
			snprintf(msg, len,
				 "VD %pUb: unclean shutdown while degraded: %u dirty region%s may reconstruct wrongly",
				 vd->uuid, n, n == 1 ? "" : "s");
		pr_warn("vraid: VD %s%s%pUb not assembled: not shut down cleanly while degraded (a member missing, or not rebuilt there): rows written at the crash in %u write-intent region%s may reconstruct that member's blocks wrongly; assemble with --force to accept that, a journal closes this hole\n",
			vd->name[0] ? vd->name : "", vd->name[0] ? " " : "",
			vd->uuid, n, n == 1 ? "" : "s");
		return -EUCLEAN;
	}
	pr_warn("%s: assembled with --force although not shut down cleanly while degraded: %u region%s (above) may hold blocks of the missing or unrebuilt member that reconstruct wrongly\n",
		vd->disk->disk_name, n, n == 1 ? "" : "s");
	return 0;
}

/*
 * Assembly, before its metadata is written and its disk goes live:
 * after an unclean shutdown, or a stop in the middle of a resync, take
 * the write-intent bits of the members (only read: a refused assembly
 * leaves the members as they were, so a missing member brought back is
 * not stale), and refuse a dirty degraded parity VD (above).
 */
static int vraid_vd_asm_bitmap(struct vraid_vd *vd, struct vraid_asm_ctx *ac,
			       bool journalled, char *msg, size_t len)
{
	int dirty;
	u32 i;

	if (!vraid_vd_redundant(vd) ||
	    (ac->clean && vd->job.saved_type != VRAID_JOB_RESYNC))
		return 0;
	/* (-ENOMEM as no bitmap: every region counts as dirty) */
	dirty = vraid_bitmap_load(vd);
	ac->no_bitmap = dirty < 0;
	ac->resync = true;
	/*
	 * A member rebuilt across the crash is not the copy a mirror reads
	 * or resyncs from where the copies may differ: reads went to a
	 * member in sync until now (vraid_member.second_copy).  Added to
	 * what the record says (an earlier crash's, its resync not done
	 * yet); the metadata write below records it before the disk goes
	 * live, so that a crash before the resync ends keeps it, whether
	 * the member is still Rebuilding then or Online.
	 */
	if (!ac->clean)
		for (i = 0; i < vd->geom.nr_members; i++)
			if (vd->members[i].state == VRAID_MEMBER_REBUILDING)
				vd->members[i].second_copy = true;
	return vraid_vd_dirty_degraded(vd, ac, journalled, msg, len);
}

/*
 * Testing only (tests/vm/cases/101-asm-resync-window.sh): an assembly
 * waits this long, holding vraid_ctl_mutex, right after its disk went
 * live and before the jobs start, so that a test can read the VD in that
 * window; 0 (the default) never waits.
 */
static unsigned int debug_asm_live_delay_ms;
module_param(debug_asm_live_delay_ms, uint, 0600);
MODULE_PARM_DESC(debug_asm_live_delay_ms,
		 "testing only: an assembly waits this long (at most 10000) after its disk went live (default 0)");

/*
 * Bring up the disk of a VD whose members are open and whose geometry and
 * metadata are set: index, I/O resources, gendisk; for an assembly (@ac),
 * the journal's replay before the disk goes live.  On failure undoes its
 * own steps only.  Called with vraid_ctl_mutex held.
 */
static int vraid_vd_start(struct vraid_vd *vd, const char *verb,
			  struct vraid_asm_ctx *ac, char *msg, size_t len)
{
	struct vraid_limits *lim;
	struct gendisk *disk;
	u32 i;
	int ret, idx;

	idx = vraid_idr_alloc(vd);
	if (idx < 0) {
		snprintf(msg, len, "all %u virtual drive slots are in use",
			 VRAID_MAX_VDS);
		return idx;
	}
	vd->index = idx;

	ret = vraid_io_init(vd);
	if (ret) {
		snprintf(msg, len, "out of memory");
		goto out_idr;
	}

	lim = kmalloc(sizeof(*lim), GFP_KERNEL);
	if (!lim) {
		ret = -ENOMEM;
		snprintf(msg, len, "out of memory");
		goto out_io;
	}
	vraid_limits(vd, lim);
	disk = vraid_alloc_disk(lim);
	kfree(lim);
	if (IS_ERR(disk)) {
		ret = PTR_ERR(disk);
		snprintf(msg, len, "cannot allocate the disk (error %d)", ret);
		goto out_io;
	}
	vd->disk = disk;
	disk->major = vraid_major;
	disk->first_minor = idx * VRAID_MINORS;
	disk->minors = VRAID_MINORS;
	disk->fops = &vraid_fops;
	disk->private_data = vd;
	snprintf(disk->disk_name, sizeof(disk->disk_name),
		 VRAID_DISK_PREFIX "%d", idx);
	set_capacity(disk, vd->geom.size_sectors);
	set_disk_ro(disk, vd->access_policy != VRAID_ACCESS_RW);
	if (ac) {
		ret = vraid_journal_assemble(vd, ac->clean, ac->no_journal,
					     &ac->replayed, msg, len);
		if (ret)
			goto out_disk;
		/* (without the journal its writes are lost: not covered) */
		ret = vraid_vd_asm_bitmap(vd, ac, ac->replayed.ran, msg, len);
		if (ret)
			goto out_disk;
		/* generation + 1, clean cleared, missing roles recorded */
		ret = vraid_md_write_all(vd, false, msg, len);
		if (ret)
			goto out_disk;
		/* (the metadata names no journal now) */
		vraid_journal_assembled(vd);
		/*
		 * The regions to resync, on every member's bitmap before
		 * anything may read the VD or a job write a row.
		 */
		if (ac->resync) {
			ac->regions = vraid_bitmap_mark(vd, vd->init_pos,
							ac->no_bitmap);
			/*
			 * Nothing is known consistent until the resync has
			 * been there: from the first I/O the disk takes (udev
			 * reads it at once), a mirror reads one fixed copy and
			 * a parity row is written whole, never by
			 * read-modify-write from a parity the crash may have
			 * left wrong.  The metadata just written keeps the
			 * older position; the marks cover what lies below it.
			 */
			WRITE_ONCE(vd->init_pos, 0);	/* md_work reads it */
		}
	}

	ret = device_add_disk(NULL, disk, vraid_disk_groups);
	if (ret) {
		snprintf(msg, len, "cannot add the disk (error %d)", ret);
		goto out_disk;
	}
	if (ac)
		vraid_debug_delay(READ_ONCE(debug_asm_live_delay_ms));
	vraid_sysfs_notify_init(vd);
	for (i = 0; i < vd->geom.nr_members; i++) {
		struct vraid_member *m = &vd->members[i];

		/* Only cosmetic (holders/ and slaves/ links): not fatal. */
		if (m->h.bdev && !bd_link_disk_holder(m->h.bdev, disk))
			m->holder_linked = true;
	}
	/* Each VD pins the module: rmmod is refused while VDs exist. */
	__module_get(THIS_MODULE);

	pr_info("%s: %s %s%s%s, %u member%s, strip %u KiB, %llu MiB, %s\n",
		disk->disk_name, verb, vraid_level_name(vd->geom.level),
		vd->name[0] ? " " : "", vd->name, vd->geom.nr_members,
		vd->geom.nr_members == 1 ? "" : "s",
		vd->geom.strip_sectors >> 1,
		(unsigned long long)(vd->geom.size_sectors >> 11),
		vraid_state_name(vd->state));
	vraid_event(vd, ac ? VRAID_EV_ASSEMBLED : VRAID_EV_CREATED,
		    VRAID_EV_NONE, "%s %s, %u member%s, %llu MiB, %s", verb,
		    vraid_level_name(vd->geom.level), vd->geom.nr_members,
		    vd->geom.nr_members == 1 ? "" : "s",
		    (unsigned long long)(vd->geom.size_sectors >> 11),
		    vraid_state_name(vd->state));
	vraid_journal_bind(vd);		/* wb and a healthy journal */
	if (vd->write_policy != VRAID_WRITE_THROUGH)
		vraid_note_write_policy(vd);
	if (vd->io_policy == VRAID_IO_CACHED)
		pr_info("%s: io policy cached\n", vd->disk->disk_name);
	if (vd->read_policy == VRAID_READ_AHEAD)
		pr_info("%s: read policy read-ahead\n", vd->disk->disk_name);
	return 0;

out_disk:
	flush_work(&vd->md_work);
	put_disk(disk);
	vd->disk = NULL;
out_io:
	vraid_io_exit(vd);
out_idr:
	vraid_idr_remove(idx);
	return ret;
}

/* Called with vraid_ctl_mutex held. */
int vraid_vd_create(struct vraid_create *c)
{
	char *msg = c->hdr.message;
	size_t len = sizeof(c->hdr.message);
	struct vraid_vd *vd;
	bool md_written = false;
	u64 min_data;
	u32 i;
	int ret;

	vd = vraid_vd_alloc();
	if (!vd)
		return -ENOMEM;
	memcpy(vd->name, c->name, sizeof(vd->name));
	vd->access_policy = c->access_policy;
	vd->disk_cache_policy = c->disk_cache_policy;
	vd->io_policy = c->io_policy;
	vd->read_policy = c->read_policy;
	vd->write_policy = c->write_policy;
	if (vd->write_policy == VRAID_WRITE_BACK_ALWAYS)
		vd->cache_flags |= VRAID_MD_CF_VOLATILE;

	ret = vraid_open_members(vd, c, &min_data);
	if (ret)
		goto out_members;
	ret = vraid_layout_init(&vd->geom, c->level, c->nr_members,
				c->strip_bytes, c->spans, min_data, msg, len);
	if (ret)
		goto out_members;
	/* (vraid_layout_init() checked the level: the table has it) */
	vd->ops = vraid_level_ops_of(vd->geom.level);
	/* Not initialised yet: the init job makes it so, from sector 0. */
	vd->init_pos = c->init == VRAID_INIT_FAST ? vd->geom.member_sectors : 0;

	/* Identities, and the metadata on every member before going live. */
	generate_random_uuid(vd->uuid);
	vd->created = ktime_get_real_seconds();
	for (i = 0; i < c->nr_members; i++)
		generate_random_uuid(vd->members[i].uuid);
	md_written = true;
	ret = vraid_md_write_all(vd, false, msg, len);
	if (ret)
		goto out_members;

	ret = vraid_vd_start(vd, "created", NULL, msg, len);
	if (ret)
		goto out_members;
	if (vd->bitmap)
		vraid_bitmap_flush(vd);
	if (c->init != VRAID_INIT_FAST &&
	    vraid_job_start(vd, VRAID_JOB_INIT, 0, msg, len))
		pr_warn("%s: initialisation not started: %s\n",
			vd->disk->disk_name, msg);
	msg[0] = '\0';
	c->index = vd->index;
	strscpy(c->disk_name, vd->disk->disk_name, sizeof(c->disk_name));
	return 0;

out_members:
	if (md_written) {
		char scratch[VRAID_MSG_LEN];

		/* No VD came of it: leave no metadata describing one. */
		vraid_md_write_all(vd, true, scratch, sizeof(scratch));
	}
	vraid_close_members(vd);
	vraid_vd_free(vd);
	return ret;
}

/* Metadata cache flag VOLATILE: an awb cache is in use; the next md write. */
static void vraid_set_volatile(struct vraid_vd *vd, bool on)
{
	mutex_lock(&vd->md_lock);
	if (on)
		vd->cache_flags |= VRAID_MD_CF_VOLATILE;
	else
		vd->cache_flags &= ~VRAID_MD_CF_VOLATILE;
	mutex_unlock(&vd->md_lock);
}

/*
 * A VD just assembled: after an unclean shutdown make its redundancy
 * consistent again (resync), else go on with what was under way; take a
 * hot spare for members that are missing.
 */
static void vraid_vd_after_assembly(struct vraid_vd *vd,
				    const struct vraid_asm_ctx *ac)
{
	bool clean = ac->clean;
	char msg[VRAID_MSG_LEN];
	u32 regions = ac->regions;

	if (!clean && (vd->cache_flags & VRAID_MD_CF_VOLATILE))
		pr_warn("%s: not shut down cleanly while write policy awb kept a volatile cache: writes acknowledged but not flushed before then may be lost\n",
			vd->disk->disk_name);

	if (ac->resync) {
		/*
		 * Not shut down cleanly, or stopped in the middle of a
		 * resync: resync the regions the bitmaps say were being
		 * written (or still wait for it), and everything not
		 * initialised yet; all of it without a bitmap (marked, and
		 * init_pos lowered to 0, by vraid_vd_start() before the disk
		 * went live).
		 */
		vd->job.saved_type = VRAID_JOB_RESYNC;
		if (vd->state != VRAID_VD_OPTIMAL) {
			/* After the rebuild (job.c), with these regions. */
			pr_warn("%s: %s while %s: %u region%s to resync once it is rebuilt; until then blocks written at the crash may be inconsistent\n",
				vd->disk->disk_name,
				clean ? "stopped during a resync" :
				"not shut down cleanly",
				vraid_state_name(vd->state), regions,
				regions == 1 ? "" : "s");
		} else {
			pr_warn("%s: %s: resyncing %u region%s%s\n",
				vd->disk->disk_name,
				clean ? "stopped during a resync" :
				"not shut down cleanly", regions,
				regions == 1 ? "" : "s",
				ac->no_bitmap ? " (no valid write-intent bitmap: all)" :
				"");
			vd->job.pos = 0;
			if (vraid_job_start(vd, VRAID_JOB_RESYNC, 0, msg,
					    sizeof(msg)))
				pr_warn("%s: resync not started: %s\n",
					vd->disk->disk_name, msg);
			return;
		}
	} else if (vd->bitmap) {
		/* Clean: whatever bits the members still carry are stale. */
		vraid_bitmap_flush(vd);
	}
	vraid_job_resume_pending(vd);
	if (vd->state != VRAID_VD_OPTIMAL)
		vraid_spare_kick();
}

/* Can @bdev take a role in @vd (a replacement, a spare)? */
int vraid_vd_swap_check(struct vraid_vd *vd, struct block_device *bdev,
			char *msg, size_t len)
{
	u64 need = VRAID_DATA_OFFSET_SECTORS + vd->geom.member_sectors;

	if (bdev_read_only(bdev)) {
		snprintf(msg, len, "%pg is read-only", bdev);
		return -EROFS;
	}
	if (bdev_is_zoned(bdev)) {
		snprintf(msg, len,
			 "%pg is a zoned device: members must take random writes",
			 bdev);
		return -EINVAL;
	}
	if (vraid_is_vd(bdev)) {
		snprintf(msg, len,
			 "%pg is a vraid virtual drive: a VD cannot be a spare or a replacement member",
			 bdev);
		return -EINVAL;
	}
	/* The VD's block size was fixed by its members: I/O comes in it. */
	if (bdev_logical_block_size(bdev) >
	    queue_logical_block_size(vd->disk->queue)) {
		snprintf(msg, len,
			 "%pg has %u-byte logical blocks and %s %u-byte ones: a member's blocks cannot be larger than its VD's",
			 bdev, bdev_logical_block_size(bdev),
			 vd->disk->disk_name,
			 queue_logical_block_size(vd->disk->queue));
		return -EINVAL;
	}
	if (bdev_nr_sectors(bdev) < need) {
		snprintf(msg, len,
			 "%pg is too small: %llu KiB, %s needs %llu KiB per member",
			 bdev, bdev_nr_sectors(bdev) >> 1, vd->disk->disk_name,
			 need >> 1);
		return -ENOSPC;
	}
	return 0;
}

/*
 * Before member @role's role is given to another device: make sure no
 * I/O is in flight to the device it holds, or can go there.  A Rebuilding
 * member takes writes, so it is failed first (its rebuild ends; the
 * writes that skip it wait for the metadata to say so, as after any
 * failure).  A Failed or Missing one takes no new I/O (vraid_member_get()
 * refuses it), but bios sent before it failed may still be in flight on
 * a slow or stalled device: wait up to @timeout for them to end.  If they
 * do not, returns -EBUSY with the reason in @msg and the role keeps its
 * device; nothing else has changed (except the failure of a Rebuilding
 * member).  Called with vraid_ctl_mutex held; the member stays failed
 * until vraid_vd_swap_in(), so the count stays at zero once it is.
 */
int vraid_vd_swap_drain(struct vraid_vd *vd, u32 role, unsigned long timeout,
			char *msg, size_t len)
{
	struct vraid_member *m = &vd->members[role];
	unsigned long deadline = jiffies + timeout, flags;
	bool said = false;
	u32 state;

	if (READ_ONCE(m->state) == VRAID_MEMBER_REBUILDING)
		vraid_member_fail(vd, role, "being replaced");
	spin_lock_irqsave(&vd->state_lock, flags);
	state = m->state;
	spin_unlock_irqrestore(&vd->state_lock, flags);
	if (state != VRAID_MEMBER_FAILED && state != VRAID_MEMBER_MISSING) {
		snprintf(msg, len, "member %u (%s) is %s", role, m->name,
			 vraid_member_state_name(state));
		return -EBUSY;
	}
	/*
	 * The failure (read under state_lock above, whoever wrote it) before
	 * the count: pairs with smp_mb__after_atomic() in vraid_member_get(),
	 * which orders them the other way round.  A get that this misses
	 * sees the member failed and drops its count at once.
	 */
	smp_mb();
	while (atomic_read(&m->nr_pending)) {
		if (!said && timeout > VRAID_DRAIN_TIMEOUT_SPARE)
			pr_info("%s: member %u (%s): waiting for %d I/O%s in flight to it\n",
				vd->disk->disk_name, role, m->name,
				atomic_read(&m->nr_pending),
				atomic_read(&m->nr_pending) == 1 ? "" : "s");
		said = true;
		if (time_after(jiffies, deadline)) {
			snprintf(msg, len,
				 "member %u (%s) still has I/O in flight: try again when it completes or the device is gone",
				 role, m->name);
			return -EBUSY;
		}
		if (fatal_signal_pending(current)) {
			snprintf(msg, len,
				 "interrupted while member %u (%s) still had I/O in flight",
				 role, m->name);
			return -EINTR;
		}
		/*
		 * Polled, as md polls rdev->nr_pending: the completions need
		 * not look for a waiter, and a long wait is no hung task.
		 */
		msleep(20);
	}
	/*
	 * The completions' last reads of the member come before the slot
	 * changes: pairs with smp_mb__before_atomic() in vraid_member_put().
	 */
	smp_mb();
	return 0;
}

/*
 * Put the device @h in the place of member @role (failed, missing or
 * rebuilding) and rebuild onto it; takes @h over, unless it fails.  The
 * old device's I/O in flight drains first (vraid_vd_swap_drain(): EBUSY
 * if it does not, and nothing changes).  The job under way is stopped;
 * the rebuild starts again at the new device's position, 0, and leaves
 * the rows below another rebuilding member's own position to it.
 * Called with vraid_ctl_mutex held.
 */
int vraid_vd_swap_in(struct vraid_vd *vd, u32 role,
		     struct vraid_bdev_handle *h, char *msg, size_t len)
{
	struct vraid_member *m = &vd->members[role];
	struct block_device *bdev = h->bdev;
	struct vraid_bdev_handle old;
	unsigned long flags;
	int ret;

	ret = vraid_vd_swap_check(vd, bdev, msg, len);
	if (ret)
		return ret;
	if (READ_ONCE(vd->state) == VRAID_VD_OFFLINE) {
		snprintf(msg, len,
			 "%s is offline: too few members are left to rebuild from",
			 vd->disk->disk_name);
		return -EIO;
	}
	if (READ_ONCE(m->state) == VRAID_MEMBER_ONLINE) {
		snprintf(msg, len, "member %u (%s) is online", role, m->name);
		return -EBUSY;
	}
	/* (the callers drained it already: then this returns at once) */
	ret = vraid_vd_swap_drain(vd, role, VRAID_DRAIN_TIMEOUT, msg, len);
	if (ret)
		return ret;
	vraid_job_halt(vd);
	if (m->holder_linked)
		bd_unlink_disk_holder(m->h.bdev, vd->disk);
	m->holder_linked = false;
	old = m->h;
	/*
	 * The role's device changes under md_lock: a metadata write running
	 * now (vraid_md_work() after another member's failure) filled its
	 * record for the old device, and would write it onto the new one
	 * once it is published, naming it as the old device was, rebuilt to
	 * the old position: if the power failed before this swap's own
	 * record, assembly would trust the new device's blocks below that
	 * position.  Under md_lock that write either ends before the change
	 * (the old device, failed, gets nothing) or fills after it.
	 */
	mutex_lock(&vd->md_lock);
	/*
	 * A completion of the old device that is still to be looked at (a
	 * stripe head's block) is stale from here on: it fails nothing
	 * (vraid_member_fail_io() compares under state_lock) and its data
	 * is not taken.
	 */
	spin_lock_irqsave(&vd->state_lock, flags);
	WRITE_ONCE(m->gen, m->gen + 1);
	spin_unlock_irqrestore(&vd->state_lock, flags);
	vraid_member_stats_reset(vd, role);
	vraid_bdev_move(&m->h, h);
	m->dev = bdev->bd_dev;
	m->dev_sectors = bdev_nr_sectors(bdev);
	generate_random_uuid(m->uuid);
	snprintf(m->name, sizeof(m->name), "%pg", bdev);
	m->spare_waits = false;
	WRITE_ONCE(m->second_copy, false);
	/*
	 * Nothing of the new device is rebuilt (the job is halted: it
	 * cannot move this on); the records from here on give the role no
	 * position until its rebuild records one.  Only this role's: the
	 * other rebuilding members keep theirs, which may be the only good
	 * copy of rows an unclean shutdown tore, until the resync.
	 */
	WRITE_ONCE(m->rebuilt_to, 0);
	if (vd->job.saved_type == VRAID_JOB_REBUILD)
		vd->job.saved_type = VRAID_JOB_NONE;
	spin_lock_irqsave(&vd->state_lock, flags);
	/*
	 * Publish: the device, the generation and the rebuilt position
	 * before the state that lets I/O reach them; the release pairs with
	 * the acquire of the state in vraid_member_get() and
	 * vraid_member_in_sync().
	 */
	smp_store_release(&m->state, VRAID_MEMBER_REBUILDING);
	spin_unlock_irqrestore(&vd->state_lock, flags);
	mutex_unlock(&vd->md_lock);
	vraid_event(vd, VRAID_EV_REBUILD_START, role,
		    "member %u is now %s: rebuilding", role, m->name);
	vraid_sysfs_notify(READ_ONCE(vd->kn_members));
	vraid_vd_update_state(vd);
	/*
	 * Drained, and failed since: the old device has no I/O but this
	 * erase (through our own handle, not the role's), then let it go.
	 */
	if (old.bdev && vraid_md_wipe_dev(old.bdev))
		pr_info("%s: %pg: its vraid metadata could not be erased: it is stale (older generation)\n",
			vd->disk->disk_name, old.bdev);
	vraid_bdev_close(&old);
	if (!bd_link_disk_holder(bdev, vd->disk))
		m->holder_linked = true;
	if (vd->ops->invalidate)
		vd->ops->invalidate(vd);
	pr_info("%s: member %u is now %s: rebuilding\n", vd->disk->disk_name,
		role, m->name);
	/*
	 * The write-intent bitmap on the new device too, before a record
	 * lets assembly read it: once a rebuild position vouches for its
	 * rows, a region is clean only if its copy says so as well
	 * (vraid_bitmap_load()).
	 */
	if (vd->bitmap)
		vraid_bitmap_flush(vd);
	if (vraid_md_write_all(vd, false, msg, len))
		pr_warn("%s: %s\n", vd->disk->disk_name, msg);
	/* An interrupted init or resync goes on after the rebuild. */
	vraid_job_unhalt(vd);
	if (vraid_job_start(vd, VRAID_JOB_REBUILD, 0, msg, len))
		pr_warn("%s: rebuild not started: %s\n", vd->disk->disk_name,
			msg);
	msg[0] = '\0';
	return 0;
}

/*
 * Assemble: bring a VD up again from the metadata on the devices offered.
 * The newest generation wins; devices with an older one are stale and
 * not used; roles nobody offers are missing.  A VD that would be offline
 * is not started.  Called with vraid_ctl_mutex held; @name_taken says
 * whether a VD of that name exists (then the name gets a suffix).
 */
int vraid_vd_assemble(struct vraid_assemble *a,
		      bool (*name_taken)(const char *name))
{
	char *msg = a->hdr.message;
	size_t len = sizeof(a->hdr.message);
	struct vraid_md *mds, *best = NULL;
	struct vraid_bdev_handle *h;
	struct vraid_vd *vd = NULL, *twin;
	struct vraid_asm_ctx ac = {};
	int *role_of, ret, stale = 0;
	u32 i, j, n = a->nr_devices, used = 0;

	mds = kcalloc(n, sizeof(*mds), GFP_KERNEL);
	h = kcalloc(n, sizeof(*h), GFP_KERNEL);
	role_of = kcalloc(n, sizeof(*role_of), GFP_KERNEL);
	vd = vraid_vd_alloc();
	if (!mds || !h || !role_of || !vd) {
		ret = -ENOMEM;
		goto out;
	}
	/* Open every device and read its metadata. */
	for (i = 0; i < n; i++) {
		dev_t dev = MKDEV(a->devices[i].major, a->devices[i].minor);

		role_of[i] = -1;
		ret = vraid_bdev_open(&h[i], dev, vd);
		if (ret) {
			snprintf(msg, len, "device %u:%u cannot be opened (error %d)%s",
				 MAJOR(dev), MINOR(dev), ret,
				 ret == -EBUSY ? ": in use" : "");
			goto out;
		}
		ret = vraid_md_read(h[i].bdev, &mds[i], msg, len);
		if (ret)
			goto out;
		if (!best || mds[i].generation > best->generation)
			best = &mds[i];
	}
	for (i = 0; i < n; i++) {
		if (memcmp(mds[i].vd_uuid, best->vd_uuid, 16)) {
			snprintf(msg, len,
				 "%pg belongs to another virtual drive than %pg",
				 h[i].bdev, h[best - mds].bdev);
			ret = -EINVAL;
			goto out;
		}
		if (mds[i].generation < best->generation) {
			stale++;
			continue;
		}
		/* Two at the newest generation must agree on everything. */
		if (mds[i].role != best->role &&
		    memcmp(mds[i].members, best->members,
			   sizeof(best->members))) {
			snprintf(msg, len,
				 "split brain: %pg and %pg both claim generation %llu but disagree; assemble them separately",
				 h[i].bdev, h[best - mds].bdev,
				 (unsigned long long)best->generation);
			ret = -EINVAL;
			goto out;
		}
		for (j = 0; j < i; j++) {
			if (role_of[j] == (int)mds[i].role) {
				snprintf(msg, len, "%pg and %pg both claim role %u",
					 h[j].bdev, h[i].bdev, mds[i].role);
				ret = -EINVAL;
				goto out;
			}
		}
		role_of[i] = mds[i].role;
	}

	/*
	 * One VD per UUID: the journal keys its records by it.  A second
	 * set of members that says it is a VD which runs already is a copy
	 * (a cloned disk, a replaced member's old metadata).
	 */
	twin = vraid_find_uuid(best->vd_uuid);
	if (twin) {
		snprintf(msg, len,
			 "%pg belongs to %s, which runs already (a copy of its members?): not assembled",
			 h[best - mds].bdev, twin->disk->disk_name);
		ret = -EEXIST;
		goto out;
	}
	/* The VD as the newest metadata describes it. */
	ret = vraid_layout_init(&vd->geom, best->level, best->nr_members,
				best->level == VRAID_LEVEL_JBOD ? 0 :
				best->strip_bytes,
				best->level == VRAID_LEVEL_50 ||
				best->level == VRAID_LEVEL_60 ? best->spans : 0,
				best->member_sectors, msg, len);
	if (ret)
		goto out;
	vd->ops = vraid_level_ops_of(vd->geom.level);
	memcpy(vd->uuid, best->vd_uuid, 16);
	/* (a name pinned in vraid.conf: validated, NUL-terminated) */
	memcpy(vd->name, a->asm_flags & VRAID_ASM_NAME ? a->name : best->name,
	       sizeof(vd->name));
	vd->generation = best->generation;
	vd->created = best->created;
	vd->access_policy = best->access_policy;
	vd->disk_cache_policy = best->disk_cache_policy;
	vd->io_policy = best->io_policy;
	vd->read_policy = best->read_policy;
	vd->write_policy = best->write_policy;
	memcpy(vd->journal_uuid, best->journal_uuid, sizeof(vd->journal_uuid));
	vd->journal_floor = best->journal_floor;
	vd->cache_flags = best->cache_flags;
	if (vd->write_policy == VRAID_WRITE_BACK_ALWAYS)	/* older metadata */
		vd->cache_flags |= VRAID_MD_CF_VOLATILE;
	vd->init_pos = vraid_vd_redundant(vd) ? best->init_pos :
		       vd->geom.member_sectors;
	vd->job.saved_type = best->job_type;
	vd->job.pos = best->job_pos;
	vd->job.paused = best->job_flags & VRAID_MD_JOB_PAUSED;
	vd->job.rate_kib = best->job_rate_kib;
	vd->job.last_type = best->last_job;
	vd->job.last_result = best->last_result;
	vd->job.last_mismatches = best->last_mismatches;
	for (i = 0; i < best->nr_members; i++) {
		struct vraid_member *m = &vd->members[i];

		m->role = i;
		memcpy(m->uuid, best->members[i].uuid, 16);
		m->dev_sectors = best->members[i].dev_sectors;
		m->state = best->members[i].state == VRAID_MEMBER_FAILED ?
			   VRAID_MEMBER_FAILED : VRAID_MEMBER_MISSING;
		snprintf(m->name, sizeof(m->name), "%s",
			 m->state == VRAID_MEMBER_FAILED ? "(failed)" :
			 "(missing)");
	}
	/* Hand the fresh devices to their roles. */
	for (i = 0; i < n; i++) {
		struct vraid_member *m;

		if (role_of[i] < 0)
			continue;
		m = &vd->members[role_of[i]];
		if (m->state == VRAID_MEMBER_FAILED)
			continue;
		if (bdev_nr_sectors(h[i].bdev) < VRAID_DATA_OFFSET_SECTORS +
		    vd->geom.member_sectors) {
			snprintf(msg, len, "%pg is smaller than its VD needs",
				 h[i].bdev);
			ret = -ENOSPC;
			goto out;
		}
		vraid_bdev_move(&m->h, &h[i]);
		m->dev = m->h.bdev->bd_dev;
		m->dev_sectors = bdev_nr_sectors(m->h.bdev);
		m->state = best->members[role_of[i]].state ==
			   VRAID_MEMBER_REBUILDING ? VRAID_MEMBER_REBUILDING :
			   VRAID_MEMBER_ONLINE;
		/*
		 * The record vouches for a rebuilding member's own position
		 * (flushed before it was written; a version 1 record's job
		 * position, decoded as every rebuilding member's), and says
		 * which member is a second copy until a resync ends.
		 */
		if (m->state == VRAID_MEMBER_REBUILDING)
			m->rebuilt_to = best->members[role_of[i]].rebuilt_to;
		m->second_copy = best->members[role_of[i]].flags &
				 VRAID_MD_MEMBER_SECOND_COPY;
		snprintf(m->name, sizeof(m->name), "%pg", m->h.bdev);
		used++;
	}
	vraid_vd_update_state(vd);
	if (vd->state == VRAID_VD_OFFLINE) {
		snprintf(msg, len,
			 "%u of %u members present (%d stale): too few for %s; not started",
			 used, vd->geom.nr_members, stale,
			 vraid_level_name(vd->geom.level));
		ret = -ENODEV;
		goto out;
	}
	if (vd->name[0] && name_taken(vd->name)) {
		char old[VRAID_NAME_LEN];

		memcpy(old, vd->name, sizeof(old));
		for (i = 2; i < 100 && name_taken(vd->name); i++)
			snprintf(vd->name, sizeof(vd->name), "%.24s-%u", old, i);
		pr_warn("vraid: name %s is taken: assembling as %s\n", old,
			vd->name);
	}
	/* the metadata is written by vraid_vd_start(), once it is decided */
	ac.clean = best->flags & VRAID_MD_F_CLEAN;
	ac.no_journal = a->asm_flags & VRAID_ASM_NO_JOURNAL;
	ac.force = a->asm_flags & VRAID_ASM_FORCE;
	ret = vraid_vd_start(vd, "assembled", &ac, msg, len);
	/*
	 * wb VDs assembled while the journal waited for this one's replay
	 * bind now.  Also when the start failed: it may have failed after
	 * the replay and the metadata write that ends the wait (the disk
	 * not added), and the others would stay write-through until some
	 * later command binds them.  Binding needs a healthy journal, so a
	 * start that failed before that binds nothing.
	 */
	vraid_bind_all();
	if (ret)
		goto out;
	/*
	 * The replay is done: unless binding just wrote it anew, the
	 * metadata must no longer name the journal.
	 */
	if ((best->cache_flags & VRAID_MD_CF_JOURNAL) && !vd->jbound)
		vraid_md_write_all(vd, false, msg, len);
	msg[0] = '\0';
	vraid_vd_after_assembly(vd, &ac);
	a->index = vd->index;
	a->nr_used = used;
	a->nr_stale = stale;
	a->replayed = ac.replayed.writes;
	a->replay_parity = ac.replayed.columns;
	a->replay_superseded = ac.replayed.superseded;
	strscpy(a->disk_name, vd->disk->disk_name, sizeof(a->disk_name));
	memcpy(a->name, vd->name, sizeof(a->name));
	vd = NULL;
out:
	for (i = 0; h && i < n; i++)
		vraid_bdev_close(&h[i]);
	if (vd) {
		vraid_close_members(vd);
		vraid_vd_free(vd);
	}
	kfree(role_of);
	kfree(h);
	kfree(mds);
	return ret;
}

/*
 * Before a stop or delete takes the disk away: the controller cache's
 * dirty data goes to the members, which flush, while the VD is whole (its
 * queue, its journal).  If that fails the data stays in the cache and,
 * unless @discard, the VD stays as it is and the request fails; with
 * @discard what is left counts in *@discarded and goes with the VD.
 */
static int vraid_vd_write_out(struct vraid_vd *vd, bool discard,
			      u64 *discarded, char *msg, size_t msglen)
{
	const char *dn = vd->disk->disk_name;
	unsigned long left;

	if (!vd->cache)
		return 0;
	/*
	 * A member that cannot flush now will not later either: keeping the
	 * VD would save nothing (the metadata write fails it, on redundant
	 * levels); only data the cache still holds is worth refusing for.
	 */
	if (!vraid_cache_write_out(vd)) {
		vraid_members_flush(vd);
		return 0;
	}
	left = vraid_cache_dirty_pages(vd);
	if (!left)
		return 0;
	if (!discard) {
		snprintf(msg, msglen,
			 "%s: %lu KiB of cached writes cannot be written to the members: the VD keeps them",
			 dn, left << (PAGE_SHIFT - 10));
		return -EIO;
	}
	pr_warn("%s: discarding %lu KiB of cached writes the members did not take\n",
		dn, left << (PAGE_SHIFT - 10));
	*discarded = (u64)left << PAGE_SHIFT;
	return 0;
}

/*
 * Called with vraid_ctl_mutex held and @vd still in the idr.  Refuses an
 * open VD, and one whose cached writes cannot be written out (unless
 * @discard: see vraid_vd_write_out()); otherwise removes the disk, waits
 * for I/O in flight and releases the members.
 */
int vraid_vd_delete(struct vraid_vd *vd, bool stop, bool discard,
		    u64 *discarded, char *msg, size_t msglen)
{
	struct gendisk *disk = vd->disk;
	int ret;

	*discarded = 0;
	mutex_lock(&vd->lock);
	if (vd->open_count) {
		snprintf(msg, msglen,
			 "%s is open (%u opener%s): unmount it or stop its users first",
			 disk->disk_name, vd->open_count,
			 vd->open_count == 1 ? "" : "s");
		mutex_unlock(&vd->lock);
		return -EBUSY;
	}
	vd->deleting = true;
	mutex_unlock(&vd->lock);

	/*
	 * No opener, and none can come: what the cache holds goes out now,
	 * while the VD is still whole (its destage enters the engine
	 * directly, never the VD's queue), before del_gendisk().
	 */
	ret = vraid_vd_write_out(vd, discard, discarded, msg, msglen);
	if (ret) {
		mutex_lock(&vd->lock);
		vd->deleting = false;
		mutex_unlock(&vd->lock);
		return ret;
	}
	/* A stopped init, rebuild or resync resumes at the next assembly. */
	vraid_job_halt(vd);
	vraid_idr_remove(vd->index);
	pr_info("%s: %s\n", disk->disk_name, stop ? "stopped" : "deleted");
	vraid_event(vd, stop ? VRAID_EV_STOPPED : VRAID_EV_DELETED,
		    VRAID_EV_NONE, "%s%s", stop ? "stopped" : "deleted",
		    *discarded ? ", cached writes discarded" : "");
	vraid_unlink_holders(vd);
	del_gendisk(disk);
	/* nothing dirty is left, unless discarded: the journal lets it go */
	vraid_journal_unbind(vd, false, false);
	if (vraid_cache_stop(vd) && !discard)
		pr_warn("%s: writing out the controller cache failed: data written since the last flush may be lost\n",
			disk->disk_name);
	else if (vd->write_policy == VRAID_WRITE_BACK_ALWAYS)
		vraid_members_flush(vd);
	vraid_io_exit(vd);
	/*
	 * Every write it could answer is done; it may have queued itself
	 * again (ENOMEM), which flush_work() would not wait for.
	 */
	cancel_work_sync(&vd->md_work);
	/*
	 * Stopped: the metadata says so (clean) and `assemble` brings the
	 * VD back.  Deleted: its members no longer describe a VD.
	 */
	vd->clean = stop;
	if (vraid_md_write_all(vd, !stop, msg, msglen))
		pr_warn("%s: %s\n", disk->disk_name, msg);
	msg[0] = '\0';
	vraid_close_members(vd);
	put_disk(disk);
	vraid_vd_free(vd);
	module_put(THIS_MODULE);
	return 0;
}

static const char *const vraid_access_names[] = { "rw", "ro", "blocked" };
static const char *const vraid_dcache_names[] = { "default", "on", "off" };
static const char *const vraid_read_names[] = { "no read-ahead",
						 "read-ahead" };

/*
 * Change policies while the VD runs (validated: only the ones this vraid
 * implements) and record them.  Called with vraid_ctl_mutex held.
 */
int vraid_vd_set_policy(struct vraid_vd *vd, const struct vraid_set_policy *p,
			char *msg, size_t len)
{
	const char *dn = vd->disk->disk_name;
	u32 old_write = vd->write_policy;
	bool wchange = p->set_mask & VRAID_SET_WRITE &&
		       p->write_policy != old_write;
	bool drop = false;
	int ret;

	/*
	 * From wb or awb to a policy that keeps no cache of its own (wt, or
	 * wb from awb, which logs only new writes), the cache's dirty data
	 * (and, from wb, the journal's copy of it) is let go once it is
	 * out.  Writes stop going in (a VD that logs goes on logging until
	 * its unbind), then it goes out; if it cannot be written, the
	 * policy goes back and the request fails, nothing else changed.
	 */
	if (wchange && old_write != VRAID_WRITE_THROUGH &&
	    p->write_policy != VRAID_WRITE_BACK_ALWAYS && vd->cache) {
		WRITE_ONCE(vd->write_policy, p->write_policy);
		/* writes that saw awb are in the cache after this */
		if (old_write == VRAID_WRITE_BACK_ALWAYS)
			synchronize_rcu();
		/* (a member that cannot flush: see vraid_vd_write_out()) */
		if (vraid_cache_write_out(vd) &&
		    vraid_cache_dirty_pages(vd)) {
			WRITE_ONCE(vd->write_policy, old_write);
			snprintf(msg, len,
				 "%s: %lu KiB of cached writes cannot be written to the members: the write policy stays as it is",
				 dn, vraid_cache_dirty_pages(vd) <<
				 (PAGE_SHIFT - 10));
			return -EIO;
		}
	}
	if (p->set_mask & VRAID_SET_DISK_CACHE &&
	    p->disk_cache_policy != vd->disk_cache_policy) {
		u32 old_dcache = vd->disk_cache_policy;

		/*
		 * To "disabled": new member writes carry FUA from here on;
		 * then what the members' caches hold goes to media; only
		 * then does the VD stop asking for flushes.  Writes in
		 * flight across the change wait for a flush of their own
		 * (vraid_io_dcache_off(), whose read barrier pairs with this
		 * full one).  If the members cannot flush, what they hold
		 * may not be on their media: the policies stay as they were
		 * (the write policy too: the cache is out, going back is
		 * safe).  Away from "disabled": vraid_dcache_enable().
		 */
		if (old_dcache == VRAID_DCACHE_DISABLED) {
			ret = vraid_dcache_enable(vd, p->disk_cache_policy);
			if (ret) {
				if (wchange)
					WRITE_ONCE(vd->write_policy, old_write);
				snprintf(msg, len,
					 "%s: cannot say the VD has a write cache (error %d): the disk cache policy stays off",
					 dn, ret);
				return ret;
			}
		} else {
			WRITE_ONCE(vd->disk_cache_policy, p->disk_cache_policy);
			/* policy before flush: vraid_io_dcache_off() */
			smp_mb();
		}
		if (p->disk_cache_policy == VRAID_DCACHE_DISABLED &&
		    vraid_members_flush(vd)) {
			WRITE_ONCE(vd->disk_cache_policy, old_dcache);
			if (wchange)
				WRITE_ONCE(vd->write_policy, old_write);
			snprintf(msg, len,
				 "%s: a member's cache flush failed: the disk cache policy stays %s%s",
				 dn, vraid_dcache_names[old_dcache],
				 wchange ? ", the write policy as it was" : "");
			return -EIO;
		}
		vraid_set_write_cache(vd);
		pr_info("%s: disk cache policy %s\n", dn,
			vraid_dcache_names[p->disk_cache_policy]);
	}
	if (p->set_mask & VRAID_SET_ACCESS &&
	    p->access_policy != vd->access_policy) {
		WRITE_ONCE(vd->access_policy, p->access_policy);
		set_disk_ro(vd->disk, p->access_policy != VRAID_ACCESS_RW);
		pr_info("%s: access policy %s\n", dn,
			vraid_access_names[p->access_policy]);
	}
	/*
	 * Reads stop looking the cache up (direct), or stop reading ahead,
	 * then what the cache holds goes: it is clean, and writes keep what
	 * is left right anyway.  Direct with read-ahead starts afresh too.
	 */
	if (p->set_mask & VRAID_SET_IO && p->io_policy != vd->io_policy) {
		WRITE_ONCE(vd->io_policy, p->io_policy);
		drop = p->io_policy == VRAID_IO_DIRECT;
		pr_info("%s: io policy %s\n", dn,
			p->io_policy == VRAID_IO_CACHED ? "cached" : "direct");
	}
	if (p->set_mask & VRAID_SET_READ && p->read_policy != vd->read_policy) {
		WRITE_ONCE(vd->read_policy, p->read_policy);
		drop |= vd->io_policy == VRAID_IO_DIRECT &&
			p->read_policy == VRAID_READ_NORA;
		pr_info("%s: read policy %s\n", dn,
			vraid_read_names[p->read_policy]);
	}
	if (drop) {
		synchronize_rcu();	/* fills in progress: cache.c */
		vraid_cache_drop_all(vd, false);
	}
	if (wchange) {
		bool was_awb = old_write == VRAID_WRITE_BACK_ALWAYS;
		bool to_awb = p->write_policy == VRAID_WRITE_BACK_ALWAYS;

		/*
		 * To write-back: the VD says it has a volatile cache, and its
		 * metadata that one is in use, before writes go into it.
		 * Away from it: writes stop going in, what is dirty goes out
		 * and the members flush, then the VD stops asking for
		 * flushes (unless its members want them).
		 */
		if (to_awb) {
			vraid_set_write_cache_awb(vd, true);
			vraid_set_volatile(vd, true);
			if (vraid_md_write_all(vd, false, msg, len))
				pr_warn("%s: cannot record the volatile cache: %s\n",
					dn, msg);
		}
		WRITE_ONCE(vd->write_policy, p->write_policy);
		/*
		 * From wb: its records done, its data out.  If that cannot
		 * be written (to awb nothing drained it above, and to wt data
		 * may have failed since), the VD stays bound and wb, its
		 * journal holding the data; the other policies stay changed.
		 */
		if (p->write_policy != VRAID_WRITE_BACK &&
		    vraid_journal_unbind(vd, true, true)) {
			char md_msg[VRAID_MSG_LEN];

			WRITE_ONCE(vd->write_policy, old_write);
			if (to_awb) {
				vraid_set_volatile(vd, false);
				vraid_set_write_cache(vd);
			}
			if (vraid_md_write_all(vd, false, md_msg,
					       sizeof(md_msg)))
				pr_warn("%s: policies changed but not recorded: %s\n",
					dn, md_msg);
			if (vraid_cache_dirty_pages(vd))
				snprintf(msg, len,
					 "%s: %lu KiB of cached writes cannot be written to the members: the write policy stays wb, bound to the journal",
					 dn, vraid_cache_dirty_pages(vd) <<
					 (PAGE_SHIFT - 10));
			else
				snprintf(msg, len,
					 "%s: the members did not flush the cached writes: the write policy stays wb, bound to the journal",
					 dn);
			return -EIO;
		}
		if (was_awb) {
			/* writes that saw awb are in the cache after this */
			synchronize_rcu();
			/*
			 * (Out already, unless it failed since: then the VD
			 * keeps asking for flushes, which fail until it is.)
			 */
			if (vraid_cache_write_out(vd) ||
			    vraid_members_flush(vd)) {
				pr_warn("%s: writing out the controller cache failed\n",
					dn);
			} else {
				vraid_set_write_cache(vd);
				vraid_set_volatile(vd, false);
			}
		}
		/*
		 * To wb: logging starts once awb's unlogged dirty data is out
		 * (a bound VD's flush does not drain the cache).
		 */
		if (p->write_policy == VRAID_WRITE_BACK)
			vraid_journal_bind(vd);
		vraid_note_write_policy(vd);
	}
	ret = vraid_md_write_all(vd, false, msg, len);
	if (ret)
		pr_warn("%s: policies changed but not recorded: %s\n", dn, msg);
	return ret;
}

/*
 * The write policy in effect, and why it differs from the one set.
 * Write-back logs to a healthy journal; without one (none, replay
 * pending, failed) it writes through, as a controller's write-back does
 * with a bad battery.  Always write-back keeps a volatile cache anyway.
 * While a request writes the cache out (a change away from write-back,
 * an unbind from the journal) a VD not set to awb is "draining".
 */
u32 vraid_write_effective(struct vraid_vd *vd, u32 *cache_flags)
{
	u32 js = vraid_journal_state();

	*cache_flags = 0;
	if (vd->write_policy == VRAID_WRITE_BACK_ALWAYS)
		return VRAID_WEFF_BACK_VOLATILE;
	if (vd->write_policy == VRAID_WRITE_BACK) {
		if (READ_ONCE(vd->jbound) && js == VRAID_JOURNAL_HEALTHY)
			return VRAID_WEFF_BACK;
		*cache_flags = js == VRAID_JOURNAL_FAILED ?
			       VRAID_CACHE_JOURNAL_FAILED :
			       VRAID_CACHE_NO_JOURNAL;
	}
	/* the cache being written out, towards less caching */
	return vraid_cache_writing_out(vd) ? VRAID_WEFF_DRAINING :
					     VRAID_WEFF_THROUGH;
}

/* Say in the log what a write policy just set means. */
void vraid_note_write_policy(struct vraid_vd *vd)
{
	u32 flags;

	if (vraid_write_effective(vd, &flags) == VRAID_WEFF_BACK)
		pr_info("%s: write policy write-back, journalled\n",
			vd->disk->disk_name);
	else if (flags & VRAID_CACHE_JOURNAL_FAILED)
		pr_warn("%s: write policy write-back: writing through, as the journal failed\n",
			vd->disk->disk_name);
	else if (flags & VRAID_CACHE_NO_JOURNAL)
		pr_info("%s: write policy write-back: writing through, as there is no journal%s\n",
			vd->disk->disk_name,
			vraid_journal_state() == VRAID_JOURNAL_REPLAY_PENDING ?
			" ready (it waits for other VDs' replay)" : "");
	else if (vd->write_policy == VRAID_WRITE_BACK_ALWAYS)
		pr_warn("%s: write policy always-write-back: a volatile cache, a power loss loses writes not yet flushed\n",
			vd->disk->disk_name);
	else
		pr_info("%s: write policy write-through\n",
			vd->disk->disk_name);
}

void vraid_vd_fill_info(struct vraid_vd *vd, struct vraid_info *info)
{
	struct vraid_stats sum;
	u32 i;

	vraid_stats_sum(vd, &sum);
	info->level = vd->geom.level;
	info->state = READ_ONCE(vd->state);
	info->strip_bytes = vd->geom.strip_sectors << SECTOR_SHIFT;
	info->nr_members = vd->geom.nr_members;
	info->spans = vd->geom.spans > 1 ? vd->geom.spans : 0;
	mutex_lock(&vd->lock);
	info->open_count = vd->open_count;
	mutex_unlock(&vd->lock);
	info->logical_block_size = queue_logical_block_size(vd->disk->queue);
	info->size_sectors = vd->geom.size_sectors;
	info->data_offset_sectors = VRAID_DATA_OFFSET_SECTORS;
	info->member_data_sectors = vd->geom.member_sectors;
	memcpy(info->name, vd->name, sizeof(info->name));
	strscpy(info->disk_name, vd->disk->disk_name, sizeof(info->disk_name));
	info->access_policy = vd->access_policy;
	info->disk_cache_policy = vd->disk_cache_policy;
	info->io_policy = vd->io_policy;
	info->read_policy = vd->read_policy;
	info->write_policy = vd->write_policy;
	info->write_policy_effective = vraid_write_effective(vd,
							     &info->cache_flags);
	info->full_stripe_bytes = (vd->geom.strip_sectors << SECTOR_SHIFT) *
				  vd->geom.data_members;
	vraid_job_fill_info(vd, info);
	for (i = 0; i < vd->geom.nr_members; i++) {
		struct vraid_member *m = &vd->members[i];
		struct vraid_member_info *mi = &info->members[i];

		mi->major = MAJOR(m->dev);
		mi->minor = MINOR(m->dev);
		mi->state = m->state;
		mi->role = m->role;
		mi->dev_sectors = m->dev_sectors;
		mi->data_sectors = vd->geom.member_sectors;
		strscpy(mi->dev_name, m->name, sizeof(mi->dev_name));
		mi->read_ios = sum.member_reads[i];
		mi->write_ios = sum.member_writes[i];
		mi->errors = sum.member_errors[i];
	}
}
