// SPDX-License-Identifier: GPL-2.0
/*
 * Writing the metadata blocks of a VD's members (the format itself is in
 * the portable core, metadata.c).  Process context, may sleep: the
 * ioctls (under vraid_ctl_mutex), job checkpoints and vraid_md_work;
 * vd->md_lock serialises the writers.
 *
 * Each member gets copy A, then copy B, each written with FUA and waited
 * for before the next, so a torn write can damage at most one copy.
 * Every member flushes its cache before the first copy is written, so
 * that what the record describes (a rebuild checkpoint, a clean stop) is
 * on every member's media before any member holds the record.
 */
#include <linux/blkdev.h>
#include <linux/bio.h>
#include <linux/slab.h>
#include <linux/delay.h>

#include "vraid.h"
#include "core/metadata.h"
#include "job.h"

/* Read or write one metadata block of @bdev, synchronously. */
int vraid_md_io(struct block_device *bdev, sector_t sector,
		struct page *page, blk_opf_t opf)
{
	struct bio_vec bvec;
	struct bio bio;
	int ret;

	bio_init(&bio, bdev, &bvec, 1, opf);
	bio.bi_iter.bi_sector = sector;
	__bio_add_page(&bio, page, VRAID_MD_BLOCK, 0);
	ret = submit_bio_wait(&bio);
	bio_uninit(&bio);
	return ret;
}

/*
 * Zero both metadata copies of @bdev, a device that leaves a VD while it
 * runs (a replaced member): its record would otherwise still say it is
 * the member of that role, and once the VD's own members are gone (a
 * delete), assembly would bring a stale VD back from it.  Best effort: a
 * failed device may take no write, and is then recognised as stale by
 * its older generation while the VD's members exist.
 */
int vraid_md_wipe_dev(struct block_device *bdev)
{
	static const sector_t copies[] = { VRAID_MD_COPY_A, VRAID_MD_COPY_B };
	struct page *page;
	int ret = 0;
	u32 c;

	page = alloc_page(GFP_KERNEL | __GFP_ZERO);
	if (!page)
		return -ENOMEM;
	for (c = 0; c < ARRAY_SIZE(copies) && !ret; c++)
		ret = vraid_md_io(bdev, copies[c], page,
				  REQ_OP_WRITE | REQ_SYNC | REQ_FUA);
	__free_page(page);
	return ret;
}

/*
 * Read both copies of @bdev's metadata and decode the newest valid one
 * into @md.  Returns 0, or -EINVAL with both copies' problems in @msg.
 */
int vraid_md_read(struct block_device *bdev, struct vraid_md *md, char *msg,
		  size_t msglen)
{
	static const sector_t copies[] = { VRAID_MD_COPY_A, VRAID_MD_COPY_B };
	char why[2][64];
	struct vraid_md *tmp;
	struct page *page;
	bool found = false;
	u32 c;
	int ret;

	tmp = kmalloc(sizeof(*tmp), GFP_KERNEL);
	page = alloc_page(GFP_KERNEL);
	if (!tmp || !page) {
		ret = -ENOMEM;
		snprintf(msg, msglen, "out of memory");
		goto out;
	}
	for (c = 0; c < ARRAY_SIZE(copies); c++) {
		ret = vraid_md_io(bdev, copies[c], page, REQ_OP_READ | REQ_SYNC);
		if (ret) {
			snprintf(why[c], sizeof(why[c]), "read error %d", ret);
			continue;
		}
		ret = vraid_md_decode(page_address(page), tmp, why[c],
				      sizeof(why[c]));
		if (ret)
			continue;
		if (!found || tmp->generation > md->generation)
			*md = *tmp;
		found = true;
	}
	ret = 0;
	if (!found) {
		snprintf(msg, msglen, "%pg: no valid vraid metadata (A: %s; B: %s)",
			 bdev, why[0], why[1]);
		ret = -EINVAL;
	}
out:
	if (page)
		__free_page(page);
	kfree(tmp);
	return ret;
}

/* Returns the failure count the member states filled in cover. */
static u32 vraid_md_fill(struct vraid_vd *vd, struct vraid_md *md)
{
	const struct vraid_geom *g = &vd->geom;
	unsigned long flags;
	u32 i, seq;

	memset(md, 0, sizeof(*md));
	md->generation = vd->generation;
	md->flags = vd->clean ? VRAID_MD_F_CLEAN : 0;
	md->created = vd->created;
	memcpy(md->vd_uuid, vd->uuid, sizeof(md->vd_uuid));
	memcpy(md->name, vd->name, sizeof(md->name));
	md->level = g->level;
	md->nr_members = g->nr_members;
	md->spans = g->spans;
	md->strip_bytes = g->strip_sectors << SECTOR_SHIFT;
	md->data_offset = VRAID_DATA_OFFSET_SECTORS;
	md->member_sectors = g->member_sectors;
	md->size_sectors = g->size_sectors;
	md->access_policy = vd->access_policy;
	md->disk_cache_policy = vd->disk_cache_policy;
	md->io_policy = vd->io_policy;
	md->read_policy = vd->read_policy;
	md->write_policy = vd->write_policy;
	md->job_type = READ_ONCE(vd->job.type);
	if (md->job_type == VRAID_JOB_NONE)
		md->job_type = vd->job.saved_type;
	md->job_flags = READ_ONCE(vd->job.paused) ? VRAID_MD_JOB_PAUSED : 0;
	md->job_rate_kib = READ_ONCE(vd->job.rate_kib);
	/*
	 * What vouches for a rebuilding member's rows is its own position
	 * (the member table, below); the job's is shown by examine and is
	 * at most the lowest of them (job.pos may still be the halted old
	 * rebuild's for a moment after a swap, which zeroes the new
	 * device's position before it publishes the device).
	 */
	if (md->job_type == VRAID_JOB_REBUILD)
		md->job_pos = min(READ_ONCE(vd->job.pos),
				  vraid_rebuild_from(vd));
	else
		md->job_pos = md->job_type ? READ_ONCE(vd->job.pos) : 0;
	md->init_pos = READ_ONCE(vd->init_pos);
	md->last_job = vd->job.last_type;
	md->last_result = vd->job.last_result;
	md->last_mismatches = vd->job.last_mismatches;
	memcpy(md->journal_uuid, vd->journal_uuid, sizeof(md->journal_uuid));
	md->journal_floor = vd->journal_floor;
	md->cache_flags = vd->cache_flags;
	spin_lock_irqsave(&vd->state_lock, flags);
	seq = atomic_read(&vd->fail_seq);
	for (i = 0; i < g->nr_members; i++) {
		struct vraid_member *m = &vd->members[i];

		memcpy(md->members[i].uuid, m->uuid, 16);
		md->members[i].state = m->state;
		md->members[i].dev_sectors = m->dev_sectors;
		/*
		 * Each rebuilding member's own position: read after its
		 * state (state_lock: a swap publishes a new device's 0
		 * before its state), and raised by the job only once the
		 * rows' writes completed: the flush that follows the fill
		 * makes them durable before any member holds the record.
		 */
		if (m->state == VRAID_MEMBER_REBUILDING)
			md->members[i].rebuilt_to = READ_ONCE(m->rebuilt_to);
		if (READ_ONCE(m->second_copy))
			md->members[i].flags |= VRAID_MD_MEMBER_SECOND_COPY;
	}
	spin_unlock_irqrestore(&vd->state_lock, flags);
	return seq;
}

/* The metadata records failures up to @seq: answer the writes held. */
static void vraid_md_release(struct vraid_vd *vd, u32 seq)
{
	struct bio_list list = BIO_EMPTY_LIST;
	struct bio *bio;

	spin_lock_irq(&vd->held_lock);
	WRITE_ONCE(vd->md_seq, seq);
	if (atomic_read(&vd->fail_seq) == seq)
		bio_list_merge(&list, &vd->held);
	if (!bio_list_empty(&list))
		bio_list_init(&vd->held);
	spin_unlock_irq(&vd->held_lock);
	while ((bio = bio_list_pop(&list))) {
		bio_endio(bio);
		percpu_ref_put(&vd->active);
	}
}

/*
 * Flush the cache of every member a record is written to.  On a redundant
 * VD a member whose flush fails is failed: what it holds may not be on
 * its media, and no record may vouch for it (vraid_members_flush_fail();
 * JBOD and RAID0 records vouch for no redundancy: the error is only
 * logged).  Returns true if a member failed since the record was filled
 * (@seq, vraid_md_fill()'s), in the flush or before it.
 */
static bool vraid_md_flush_members(struct vraid_vd *vd, u32 seq)
{
	vraid_members_flush_fail(vd);
	return (u32)atomic_read(&vd->fail_seq) != seq;
}

/*
 * Testing only (tests/vm/cases/100-md-swap-window.sh): a metadata write
 * sleeps this long after it filled its record and again after it wrote
 * it, holding md_lock, so that a test can replace a member inside the
 * write and look at the members meanwhile; 0 (the default) never waits.
 */
static unsigned int debug_md_write_delay_ms;
module_param(debug_md_write_delay_ms, uint, 0600);
MODULE_PARM_DESC(debug_md_write_delay_ms,
		 "testing only: a metadata write waits this long (at most 10000) after filling its record and after writing it (default 0)");

/*
 * Write both metadata copies on every online or rebuilding member with
 * the next generation, or with @wipe zero them on every member held (failed
 * ones too: a deleted VD must leave no member that could be assembled).
 * Every member is tried even after an error; returns 0 or the first
 * error, described in @msg.
 */
int vraid_md_write_all(struct vraid_vd *vd, bool wipe, char *msg,
		       size_t msglen)
{
	static const sector_t copies[] = { VRAID_MD_COPY_A, VRAID_MD_COPY_B };
	struct vraid_md *md;
	struct page *page;
	u32 i, c, seq, pass;
	int ret = 0, err;

	/*
	 * NOIO: after a member failure the VD's writes wait for this
	 * (vraid_md_work), so reclaim must not wait for them in turn.
	 */
	md = kmalloc(sizeof(*md), GFP_NOIO);
	page = alloc_page(GFP_NOIO);
	if (!md || !page) {
		ret = -ENOMEM;
		snprintf(msg, msglen, "out of memory");
		goto out;
	}
	/*
	 * md_lock also keeps a role's device from changing between the fill
	 * and the writes (vraid_vd_swap_in() changes it under md_lock): a
	 * record filled for the old device must never reach the new one.
	 */
	mutex_lock(&vd->md_lock);
	vd->generation++;
	seq = vraid_md_fill(vd, md);
	if (!wipe)
		vraid_debug_delay(READ_ONCE(debug_md_write_delay_ms));
	/*
	 * What the record says (a job's position, a member in sync, clean)
	 * was done before it was filled in; a record vouches for data on
	 * every member, and assembly believes the newest record on any
	 * member: so every member's cache is flushed now, after the fill
	 * and before the first copy is written, not each member's before
	 * its own (REQ_PREFLUSH), which would let member 0's "clean" reach
	 * its media while member 1 still holds the data in its cache.
	 *
	 * A member that failed since the fill (its flush, or before) must be
	 * in the record: it is filled again, and every member left flushed
	 * again, until a flush fails none.  The record then says only what
	 * was done before a flush that covered it; one refill that kept the
	 * first fill's positions but took the states anew could say a
	 * member is in sync (its rebuild ended meanwhile), or a copy good
	 * (the resync ended), for writes no flush covered.  Each pass fails
	 * one member more, so it ends.
	 */
	for (pass = 0; !wipe && pass < vd->geom.nr_members &&
	     vraid_md_flush_members(vd, seq); pass++)
		seq = vraid_md_fill(vd, md);
	for (i = 0; i < vd->geom.nr_members; i++) {
		struct vraid_member *m = &vd->members[i];

		/* a wipe: every member that has a device */
		if (!vraid_member_get(vd, i, wipe ? VRAID_MGET_ANY :
				      VRAID_MGET_WRITABLE, NULL))
			continue;
		if (!m->h.bdev) {
			vraid_member_put(vd, i);
			continue;
		}
		if (wipe) {
			memset(page_address(page), 0, VRAID_MD_BLOCK);
		} else {
			md->role = i;
			vraid_md_encode(md, page_address(page));
		}
		for (c = 0; c < ARRAY_SIZE(copies); c++) {
			err = vraid_md_io(m->h.bdev, copies[c], page,
					  REQ_OP_WRITE | REQ_SYNC | REQ_FUA);
			if (err && !ret) {
				ret = err;
				snprintf(msg, msglen,
					 "cannot write metadata to member %u (%s): error %d",
					 i, m->name, err);
			}
			if (err)
				break;
		}
		vraid_member_put(vd, i);
	}
	/* Written (or unwritable: then nothing better will come of waiting). */
	if (!wipe) {
		vraid_md_release(vd, seq);
		vraid_debug_delay(READ_ONCE(debug_md_write_delay_ms));
	}
	mutex_unlock(&vd->md_lock);
out:
	if (page)
		__free_page(page);
	kfree(md);
	return ret;
}

/* A member changed state: record it on the members that are left. */
void vraid_md_work(struct work_struct *work)
{
	struct vraid_vd *vd = container_of(work, struct vraid_vd, md_work);
	char msg[VRAID_MSG_LEN];
	int ret;

	ret = vraid_md_write_all(vd, false, msg, sizeof(msg));
	if (ret == -ENOMEM) {
		/* Writes are held until it is written: try again. */
		msleep(100);
		queue_work(vraid_wq, &vd->md_work);
	} else if (ret) {
		pr_warn("%s: metadata update failed: %s\n",
			vd->disk->disk_name, msg);
	}
}
