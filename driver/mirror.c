// SPDX-License-Identifier: GPL-2.0
/*
 * The mirror engine: RAID1 and RAID10 (md raid10 "near 2").
 *
 * A VD bio lies within one unit (a strip on RAID10, 1 MiB on RAID1,
 * vraid_unit_shift(): chunk_sectors, and io.c cuts the rest at the same
 * boundaries); layout.c gives its copies.  Writes are cloned (no data copy)
 * to every online copy; the VD bio succeeds when at least one copy was
 * written, and a copy whose write fails is failed.  Reads go to one copy,
 * chosen to keep a sequential stream on the member that served its last
 * part, otherwise the copy with the fewest reads in flight.  A read error
 * retries on another copy and, once a copy has delivered the data,
 * rewrites it onto the copies that failed to read (md's read-error
 * correction); a copy whose rewrite fails is failed.
 *
 * Writes that overlap a write in flight wait for it (and rewrites of a
 * bad block are skipped when a write will cover it anyway), so the copies
 * of a block never end up holding different generations: every write
 * registers its range in a hash bucket of in-flight writes, keyed by the
 * unit it lies in (bios never cross a unit: chunk_sectors).
 *
 * Writes also go to rebuilding members; reads never do.  Background jobs
 * (job.c) work through vraid_mirror_sync(): each step registers its VD
 * range like a write (waiting for the writes it overlaps, holding back
 * the ones that come after), reads one good copy and writes it where it
 * is needed.  Above vd->init_pos (copies not known to agree yet, after
 * creation or an unclean shutdown) reads use the first online copy only,
 * so that a block reads the same every time until the job reaches it.
 */
#include <linux/blkdev.h>
#include <linux/bio.h>
#include <linux/hash.h>
#include <linux/slab.h>

#include "vraid.h"
#include "level.h"
#include "job.h"
#include "bitmap.h"

/* One VD bio on a mirror set; from vd->mio_pool. */
struct vraid_mio {
	struct vraid_vd *vd;
	struct bio *bio;
	unsigned long start;
	struct vraid_mirror_loc loc;
	atomic_t remaining;
	blk_status_t status;	/* last copy error */
	bool written;		/* a write reached at least one copy */
	u32 copy;		/* read: copy being read */
	u32 tried;		/* read: bitmask of copies tried */
	u32 bad;		/* read: copies that returned an error */
	bool registered;	/* on a write-range bucket's active list */
	struct list_head wl;	/* in a bucket's active or waiting list */
	sector_t wl_sector;	/* VD range registered */
	u32 wl_len;
	struct completion *wl_ready;	/* a job's step: wake it, no write */
	struct work_struct work;
};

#define VRAID_WL_BUCKETS	64	/* power of two */

/* In-flight writes of the units that hash here. */
struct vraid_wl_bucket {
	spinlock_t lock;		/* active, waiting */
	struct list_head active;	/* writes in flight */
	struct list_head waiting;	/* writes held back, in arrival order */
};

struct vraid_wl {
	struct vraid_wl_bucket b[VRAID_WL_BUCKETS];
};

static struct vraid_wl_bucket *vraid_wl_bucket(struct vraid_mio *mio)
{
	struct vraid_vd *vd = mio->vd;
	u64 unit = mio->wl_sector >> vraid_unit_shift(&vd->geom);

	return &vd->wl->b[hash_64(unit, 6) & (VRAID_WL_BUCKETS - 1)];
}

static bool vraid_wl_overlap(struct vraid_mio *a, struct vraid_mio *b)
{
	return a->wl_sector < b->wl_sector + b->wl_len &&
	       b->wl_sector < a->wl_sector + a->wl_len;
}

/* Does @mio overlap a write in @list (up to @stop, exclusive)? */
static bool vraid_wl_conflict(struct vraid_mio *mio, struct list_head *list,
			      struct vraid_mio *stop)
{
	struct vraid_mio *o;

	list_for_each_entry(o, list, wl) {
		if (o == stop)
			break;
		if (vraid_wl_overlap(mio, o))
			return true;
	}
	return false;
}

/*
 * Register a write.  Returns false if it must wait (it is then queued
 * and started by vraid_wl_release() of the write it overlaps).
 */
static bool vraid_wl_acquire(struct vraid_mio *mio, bool may_wait)
{
	struct vraid_wl_bucket *b = vraid_wl_bucket(mio);
	bool ok;

	spin_lock_irq(&b->lock);
	ok = !vraid_wl_conflict(mio, &b->active, NULL) &&
	     !vraid_wl_conflict(mio, &b->waiting, NULL);
	if (ok) {
		list_add_tail(&mio->wl, &b->active);
		mio->registered = true;
	} else if (may_wait) {
		list_add_tail(&mio->wl, &b->waiting);
	}
	spin_unlock_irq(&b->lock);
	return ok;
}

static void vraid_mirror_write(struct vraid_mio *mio);

static void vraid_wl_start_work(struct work_struct *work)
{
	vraid_mirror_write(container_of(work, struct vraid_mio, work));
}

/* A write is done: start the waiting writes it was holding back. */
static void vraid_wl_release(struct vraid_mio *mio)
{
	struct vraid_wl_bucket *b = vraid_wl_bucket(mio);
	struct vraid_mio *w, *tmp;
	unsigned long flags;
	LIST_HEAD(start);

	spin_lock_irqsave(&b->lock, flags);
	list_del(&mio->wl);
	mio->registered = false;
	list_for_each_entry_safe(w, tmp, &b->waiting, wl) {
		/* (those moved to @start are as good as active) */
		if (vraid_wl_conflict(w, &b->active, NULL) ||
		    vraid_wl_conflict(w, &start, NULL) ||
		    vraid_wl_conflict(w, &b->waiting, w))
			continue;
		list_move_tail(&w->wl, &start);
	}
	list_for_each_entry_safe(w, tmp, &start, wl) {
		list_move_tail(&w->wl, &b->active);
		w->registered = true;
		if (w->wl_ready) {
			complete(w->wl_ready);
			continue;
		}
		INIT_WORK(&w->work, vraid_wl_start_work);
		queue_work(vraid_wq, &w->work);
	}
	spin_unlock_irqrestore(&b->lock, flags);
}

/* Front pad of a mirror clone. */
struct vraid_mclone {
	struct vraid_mio *mio;
	u32 member;
	u32 gen;		/* vraid_member_get() */
	struct bio clone;	/* must be last */
};

static void vraid_mio_finish(struct vraid_mio *mio)
{
	struct vraid_vd *vd = mio->vd;

	if (mio->registered)
		vraid_wl_release(mio);
	vraid_io_done(vd, mio->bio, mio->start);
	mempool_free(mio, &vd->mio_pool);
}

/* A clone of @mio's bio for @member, taken (vraid_member_get()) under @gen. */
static struct bio *vraid_mclone(struct vraid_mio *mio, u32 member, u32 gen,
				bio_end_io_t *end_io)
{
	struct vraid_vd *vd = mio->vd;
	struct vraid_mclone *mc;
	struct bio *clone;

	clone = bio_alloc_clone(vd->members[member].h.bdev, mio->bio, GFP_NOIO,
				&vd->mirror_set);
	mc = container_of(clone, struct vraid_mclone, clone);
	mc->mio = mio;
	mc->member = member;
	mc->gen = gen;
	clone->bi_iter.bi_sector = VRAID_DATA_OFFSET_SECTORS + mio->loc.sector;
	clone->bi_private = mio;
	clone->bi_end_io = end_io;
	return clone;
}

static void vraid_mio_put_write(struct vraid_mio *mio)
{
	if (!atomic_dec_and_test(&mio->remaining))
		return;
	if (!READ_ONCE(mio->written))
		mio->bio->bi_status = mio->status ? mio->status : BLK_STS_IOERR;
	vraid_mio_finish(mio);
}

static void vraid_mirror_write_endio(struct bio *clone)
{
	struct vraid_mclone *mc = container_of(clone, struct vraid_mclone,
					       clone);
	struct vraid_mio *mio = mc->mio;
	struct vraid_vd *vd = mio->vd;
	u32 member = mc->member;

	/*
	 * A completion of a device the role no longer holds (cannot happen
	 * while the drain waits for it; vraid.h) counts for nothing: its
	 * error is not the new device's, and a write it took is not on the
	 * role's device (the VD bio fails unless another copy takes it).
	 */
	if (likely(vraid_member_current(vd, member, mc->gen))) {
		if (clone->bi_status) {
			this_cpu_inc(vd->stats->member_errors[member]);
			mio->status = clone->bi_status;
			vraid_member_fail_io(vd, member, mc->gen,
					     "write error");
		} else {
			WRITE_ONCE(mio->written, true);
		}
	}
	bio_put(clone);
	vraid_member_put(vd, member);
	vraid_mio_put_write(mio);
}

static void vraid_mirror_write(struct vraid_mio *mio)
{
	struct vraid_vd *vd = mio->vd;
	u32 i, member, gen;

	atomic_set(&mio->remaining, 1);
	for (i = 0; i < mio->loc.copies; i++) {
		struct bio *clone;

		member = mio->loc.first + i;
		if (!vraid_member_get(vd, member, VRAID_MGET_WRITABLE, &gen))
			continue;
		atomic_inc(&mio->remaining);
		clone = vraid_mclone(mio, member, gen, vraid_mirror_write_endio);
		if (bio_op(clone) == REQ_OP_WRITE)
			clone->bi_opf |= vraid_member_fua(vd);
		this_cpu_inc(vd->stats->member_writes[member]);
		submit_bio_noacct(clone);
	}
	vraid_mio_put_write(mio);
}

/*
 * The copy of a mirror set (members @first, @copies of them) that counts
 * where the copies may differ (not initialised, or not resynced since an
 * unclean shutdown): the first online one, not one rebuilt across the
 * crash (vraid_member.second_copy) while another is online.  @skip: the
 * copies not to take (tried, or unreadable).  U32_MAX if none is online.
 */
static u32 vraid_first_copy(struct vraid_vd *vd, u32 first, u32 copies,
			    u32 skip)
{
	u32 i, late = U32_MAX;

	for (i = 0; i < copies; i++) {
		if (skip & (1U << i) || !vraid_member_ok(vd, first + i))
			continue;
		if (!READ_ONCE(vd->members[first + i].second_copy))
			return i;
		if (late == U32_MAX)
			late = i;
	}
	return late;
}

/* The copy to read from, or U32_MAX if none is left. */
static u32 vraid_pick_copy(struct vraid_mio *mio)
{
	struct vraid_vd *vd = mio->vd;
	u32 i, best = U32_MAX, best_load = U32_MAX;

	/* Not initialised: always the same copy while it works. */
	if (mio->loc.sector >= READ_ONCE(vd->init_pos))
		return vraid_first_copy(vd, mio->loc.first, mio->loc.copies,
					mio->tried);
	for (i = 0; i < mio->loc.copies; i++) {
		struct vraid_member *m = &vd->members[mio->loc.first + i];
		u32 load;

		if (mio->tried & (1U << i) ||
		    !vraid_member_ok(vd, mio->loc.first + i))
			continue;
		/* Keep a sequential stream where it is. */
		if (READ_ONCE(m->next_seq) == mio->loc.sector)
			return i;
		load = atomic_read(&m->inflight);
		if (load < best_load) {
			best = i;
			best_load = load;
		}
	}
	return best;
}

static void vraid_mirror_read_endio(struct bio *clone);

/*
 * Send the read to @copy; false if it failed since vraid_pick_copy()
 * chose it (or its role has a new device, Rebuilding, not to be read).
 */
static bool vraid_mirror_read_copy(struct vraid_mio *mio, u32 copy)
{
	struct vraid_vd *vd = mio->vd;
	u32 member = mio->loc.first + copy;
	struct vraid_member *m = &vd->members[member];
	struct bio *clone;
	u32 gen;

	mio->tried |= 1U << copy;
	if (!vraid_member_get(vd, member, VRAID_MGET_ONLINE, &gen))
		return false;
	mio->copy = copy;
	clone = vraid_mclone(mio, member, gen, vraid_mirror_read_endio);
	atomic_inc(&m->inflight);
	WRITE_ONCE(m->next_seq, mio->loc.sector + bio_sectors(mio->bio));
	this_cpu_inc(vd->stats->member_reads[member]);
	submit_bio_noacct(clone);
	return true;
}

/* Read from the best copy not tried yet; false if none is left. */
static bool vraid_mirror_read_any(struct vraid_mio *mio)
{
	u32 copy;

	while ((copy = vraid_pick_copy(mio)) != U32_MAX)
		if (vraid_mirror_read_copy(mio, copy))
			return true;
	return false;
}

static void vraid_rewrite_endio(struct bio *clone)
{
	struct vraid_mclone *mc = container_of(clone, struct vraid_mclone,
					       clone);
	struct vraid_mio *mio = mc->mio;
	struct vraid_vd *vd = mio->vd;
	u32 member = mc->member;

	if (!vraid_member_current(vd, member, mc->gen)) {
		/* not the role's device any more: nothing to say of it */
	} else if (clone->bi_status) {
		this_cpu_inc(vd->stats->member_errors[member]);
		vraid_member_fail_io(vd, member, mc->gen,
				     "read error that a rewrite could not correct");
	} else {
		this_cpu_inc(vd->stats->read_repairs);
		pr_warn_ratelimited("%s: read error on member %u (%s) at sector %llu corrected from member %u\n",
				    vd->disk->disk_name, member,
				    vd->members[member].name,
				    (unsigned long long)mio->loc.sector,
				    mio->loc.first + mio->copy);
	}
	bio_put(clone);
	vraid_member_put(vd, member);
	if (atomic_dec_and_test(&mio->remaining))
		vraid_mio_finish(mio);
}

/* Process context: retry a failed read, or rewrite the bad copies. */
static void vraid_mirror_work(struct work_struct *work)
{
	struct vraid_mio *mio = container_of(work, struct vraid_mio, work);
	struct vraid_vd *vd = mio->vd;
	u32 i, gen;

	if (mio->status) {
		/*
		 * The read of mio->copy failed: try another copy, as the
		 * states are now (vraid_mirror_read_copy() takes it).
		 */
		mio->status = BLK_STS_OK;
		if (!vraid_mirror_read_any(mio)) {
			mio->bio->bi_status = BLK_STS_IOERR;
			vraid_mio_finish(mio);
		}
		return;
	}
	/*
	 * The data is in the VD bio's pages: put it back where it failed,
	 * unless a write to these sectors is in flight (it rewrites them,
	 * with newer data).  Online copies only: a role whose device changed
	 * since its read failed is Rebuilding (skipped), or rebuilt, and the
	 * data is right for whichever device holds it.
	 */
	if (!vraid_wl_acquire(mio, false)) {
		vraid_mio_finish(mio);
		return;
	}
	atomic_set(&mio->remaining, 1);
	for (i = 0; i < mio->loc.copies; i++) {
		u32 member = mio->loc.first + i;
		struct bio *clone;

		if (!(mio->bad & (1U << i)) ||
		    !vraid_member_get(vd, member, VRAID_MGET_ONLINE, &gen))
			continue;
		atomic_inc(&mio->remaining);
		clone = vraid_mclone(mio, member, gen, vraid_rewrite_endio);
		clone->bi_opf = REQ_OP_WRITE | REQ_SYNC | vraid_member_fua(vd);
		this_cpu_inc(vd->stats->member_writes[member]);
		submit_bio_noacct(clone);
	}
	if (atomic_dec_and_test(&mio->remaining))
		vraid_mio_finish(mio);
}

static void vraid_mirror_read_endio(struct bio *clone)
{
	struct vraid_mclone *mc = container_of(clone, struct vraid_mclone,
					       clone);
	struct vraid_mio *mio = mc->mio;
	struct vraid_vd *vd = mio->vd;
	blk_status_t status = clone->bi_status;
	u32 member = mc->member;
	bool cur = vraid_member_current(vd, member, mc->gen);

	atomic_dec(&vd->members[member].inflight);
	bio_put(clone);
	if (unlikely(!cur)) {
		/*
		 * From a device the role no longer holds: its data is not
		 * the role's, nor is its error (no rewrite, no count).  Read
		 * another copy.
		 */
		vraid_member_put(vd, member);
		mio->status = BLK_STS_IOERR;
		queue_work(vraid_wq, &mio->work);
		return;
	}
	if (status) {
		this_cpu_inc(vd->stats->member_errors[member]);
		pr_err_ratelimited("%s: read error %d on member %u (%s) at sector %llu, trying another copy\n",
				   vd->disk->disk_name,
				   blk_status_to_errno(status), member,
				   vd->members[member].name,
				   (unsigned long long)mio->loc.sector);
		vraid_member_put(vd, member);
		mio->bad |= 1U << mio->copy;
		mio->status = status;
		queue_work(vraid_wq, &mio->work);
		return;
	}
	vraid_member_put(vd, member);
	if (mio->bad && !(mio->bio->bi_opf & REQ_RAHEAD)) {
		queue_work(vraid_wq, &mio->work);
		return;
	}
	vraid_mio_finish(mio);
}

static void vraid_mirror_resume(struct vraid_vd *vd, struct bio *bio,
				unsigned long start, void *arg)
{
	struct vraid_mio *mio = arg;

	if (vraid_wl_acquire(mio, true))
		vraid_mirror_write(mio);
}

static void vraid_mirror_bio(struct vraid_vd *vd, struct bio *bio, u32 flags)
{
	struct vraid_mio *mio;

	mio = mempool_alloc(&vd->mio_pool, GFP_NOIO);
	mio->vd = vd;
	mio->bio = bio;
	mio->status = BLK_STS_OK;
	mio->written = false;
	mio->registered = false;
	mio->tried = 0;
	mio->bad = 0;
	mio->wl_sector = bio->bi_iter.bi_sector;
	mio->wl_len = bio_sectors(bio);
	mio->wl_ready = NULL;
	INIT_WORK(&mio->work, vraid_mirror_work);
	vraid_layout_mirror(&vd->geom, bio->bi_iter.bi_sector, &mio->loc);
	if (WARN_ON_ONCE(bio_sectors(bio) > mio->loc.len)) {
		mempool_free(mio, &vd->mio_pool);
		bio_io_error(bio);
		return;
	}
	percpu_ref_get(&vd->active);
	mio->start = vraid_io_start(vd, bio, flags);

	if (op_is_write(bio_op(bio))) {
		/* First its region's bit in the write-intent bitmap. */
		if (vd->bitmap && !vraid_bitmap_start(vd, bio, mio->start,
						      vraid_mirror_resume, mio))
			return;
		if (vraid_wl_acquire(mio, true))
			vraid_mirror_write(mio);
		return;
	}
	if (!vraid_mirror_read_any(mio)) {
		bio->bi_status = BLK_STS_IOERR;
		vraid_mio_finish(mio);
	}
}

/*
 * What a mirror job's steps use, allocated when the job starts: the
 * pages a step reads into (a source copy, and one to compare), the bio's
 * vectors, and a write-range claim per unit of the step.
 */
struct vraid_msync {
	struct page *src[VRAID_SYNC_PAGES];
	struct page *cmp[VRAID_SYNC_PAGES];
	struct bio_vec bvec[VRAID_SYNC_PAGES];
	struct vraid_mio mio[VRAID_MSYNC_UNITS];
	struct completion ready[VRAID_MSYNC_UNITS];
};

static void vraid_mirror_sync_end(struct vraid_vd *vd, void *run);

static int vraid_mirror_sync_begin(struct vraid_vd *vd, void **run)
{
	struct vraid_msync *ms = kzalloc(sizeof(*ms), GFP_KERNEL);
	u32 i;

	if (!ms)
		return -ENOMEM;
	for (i = 0; i < VRAID_SYNC_PAGES; i++) {
		ms->src[i] = alloc_page(GFP_KERNEL);
		ms->cmp[i] = alloc_page(GFP_KERNEL);
		if (!ms->src[i] || !ms->cmp[i]) {
			vraid_mirror_sync_end(vd, ms);
			return -ENOMEM;
		}
	}
	*run = ms;
	return 0;
}

static void vraid_mirror_sync_end(struct vraid_vd *vd, void *run)
{
	struct vraid_msync *ms = run;
	u32 i;

	if (!ms)
		return;
	for (i = 0; i < VRAID_SYNC_PAGES; i++) {
		if (ms->src[i])
			__free_page(ms->src[i]);
		if (ms->cmp[i])
			__free_page(ms->cmp[i]);
	}
	kfree(ms);
}

/* Synchronous I/O of a job on one member, through @pages. */
static int vraid_sync_rw(struct vraid_vd *vd, struct vraid_msync *ms,
			 u32 member, u64 msector, u32 len, struct page **pages,
			 blk_opf_t opf)
{
	struct bio bio;
	u32 i, n = len >> (PAGE_SHIFT - SECTOR_SHIFT);
	int ret;

	/*
	 * As the states are now: the member may have failed since the
	 * caller looked.  No generation to keep: a swap halts the job
	 * (vraid_vd_swap_in()), so its I/O never outlives a device.
	 */
	if (!vraid_member_get(vd, member, op_is_write(opf) ?
			      VRAID_MGET_WRITABLE : VRAID_MGET_ONLINE, NULL))
		return -ENODEV;
	bio_init(&bio, vd->members[member].h.bdev, ms->bvec, n, opf);
	bio.bi_iter.bi_sector = VRAID_DATA_OFFSET_SECTORS + msector;
	for (i = 0; i < n; i++)
		__bio_add_page(&bio, pages[i], PAGE_SIZE, 0);
	if (op_is_write(opf))
		this_cpu_inc(vd->stats->member_writes[member]);
	else
		this_cpu_inc(vd->stats->member_reads[member]);
	ret = submit_bio_wait(&bio);
	bio_uninit(&bio);
	if (ret) {
		this_cpu_inc(vd->stats->member_errors[member]);
		pr_err_ratelimited("%s: %s error %d on member %u (%s) at sector %llu during %s\n",
				   vd->disk->disk_name,
				   op_is_write(opf) ? "write" : "read", ret,
				   member, vd->members[member].name,
				   (unsigned long long)msector,
				   vraid_job_name(READ_ONCE(vd->job.type)));
	}
	vraid_member_put(vd, member);
	return ret;
}

/* Rewrite a copy that failed to read with the good data (repair). */
static void vraid_sync_repair(struct vraid_vd *vd, struct vraid_msync *ms,
			      u32 member, u64 msector, u32 len, blk_opf_t wr)
{
	if (vraid_sync_rw(vd, ms, member, msector, len, ms->src, wr))
		vraid_member_fail(vd, member,
				  "read error that a rewrite could not correct");
	else
		this_cpu_inc(vd->stats->read_repairs);
}

static bool vraid_pages_equal(struct page **a, struct page **b, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		if (memcmp(page_address(a[i]), page_address(b[i]), PAGE_SIZE))
			return false;
	return true;
}

/* One mirror set (all of RAID1, a RAID10 pair) over one range. */
static int vraid_mirror_sync_set(struct vraid_vd *vd, struct vraid_sync *sy,
				 u32 first, u32 copies, u64 msector, u32 len,
				 struct vraid_msync *ms)
{
	u32 n = len >> (PAGE_SHIFT - SECTOR_SHIFT);
	struct page **src = ms->src, **cmp = ms->cmp;
	u32 i, from = U32_MAX, bad = 0;
	blk_opf_t wr = REQ_OP_WRITE | REQ_SYNC | vraid_member_fua(vd);

	/*
	 * The source: the first copy that reads, as reads take it where
	 * the copies may differ (vraid_first_copy()).
	 */
	for (;;) {
		i = vraid_first_copy(vd, first, copies, bad);
		if (i == U32_MAX)
			break;
		if (!vraid_sync_rw(vd, ms, first + i, msector, len, src,
				   REQ_OP_READ | REQ_SYNC)) {
			from = i;
			break;
		}
		bad |= 1U << i;
	}
	if (from == U32_MAX)
		return -EIO;	/* no copy of these sectors reads */
	for (i = 0; i < copies; i++) {
		u32 member = first + i;
		u32 state = READ_ONCE(vd->members[member].state);

		if (i == from)
			continue;
		if (bad & (1U << i)) {
			/* It did not read: put the good data back. */
			vraid_sync_repair(vd, ms, member, msector, len, wr);
			continue;
		}
		if (sy->type == VRAID_JOB_REBUILD) {
			/* (not where it is rebuilt already: vraid_job_rebuilt()) */
			if (vraid_member_needs_rebuild(vd, member,
						       msector + len) &&
			    vraid_sync_rw(vd, ms, member, msector, len, src, wr))
				vraid_member_fail(vd, member,
						  "write error while rebuilding");
			continue;
		}
		if (state != VRAID_MEMBER_ONLINE)
			continue;
		if (vraid_sync_rw(vd, ms, member, msector, len, cmp,
				  REQ_OP_READ | REQ_SYNC)) {
			/* Unreadable: put the good data back. */
			vraid_sync_repair(vd, ms, member, msector, len, wr);
			continue;
		}
		if (vraid_pages_equal(src, cmp, n))
			continue;
		atomic64_inc(&sy->mismatches);
		if (sy->type != VRAID_JOB_CHECK &&
		    vraid_sync_rw(vd, ms, member, msector, len, src, wr))
			vraid_member_fail(vd, member, "write error");
	}
	return READ_ONCE(vd->state) == VRAID_VD_OFFLINE ? -EIO : 0;
}

/* Is a copy of the set still to be rebuilt below member sector @end? */
static bool vraid_set_rebuilding(struct vraid_vd *vd, u32 first, u32 copies,
				 u64 end)
{
	u32 i;

	for (i = 0; i < copies; i++)
		if (vraid_member_needs_rebuild(vd, first + i, end))
			return true;
	return false;
}

/*
 * One step of a job: member sectors [@msector, +@len) of every mirror
 * set, in one read and one write per member (up to VRAID_SYNC_PAGES
 * pages).  User writes to the range wait: it holds a write-range claim
 * per unit it touches, at most VRAID_MSYNC_UNITS since steps are aligned
 * to their size (vraid_mirror_sync_step(), a power of two).
 */
static int vraid_mirror_sync(struct vraid_vd *vd, struct vraid_sync *sy,
			     u64 msector, u32 len, void *run)
{
	const struct vraid_geom *g = &vd->geom;
	struct vraid_msync *ms = run;
	u32 set, sets = g->level == VRAID_LEVEL_1 ? 1 : g->nr_members / 2;
	u32 copies = g->level == VRAID_LEVEL_1 ? g->nr_members : 2;
	u32 unit = 1U << vraid_unit_shift(g);
	int ret = 0;

	for (set = 0; set < sets && !ret; set++) {
		u32 off, clen, i, n = 0;

		/* A rebuild reads only the sets it writes. */
		if (sy->type == VRAID_JOB_REBUILD &&
		    !vraid_set_rebuilding(vd, set * copies, copies,
					  msector + len))
			continue;
		for (off = 0; off < len; off += clen) {
			u64 sec = msector + off;
			struct vraid_mio *mio = &ms->mio[n];

			clen = min(len - off, unit - (u32)(sec & (unit - 1)));
			memset(mio, 0, sizeof(*mio));
			init_completion(&ms->ready[n]);
			mio->vd = vd;
			mio->wl_ready = &ms->ready[n];
			/* The VD range of these member sectors (layout.h). */
			if (g->level == VRAID_LEVEL_1) {
				mio->wl_sector = sec;
			} else {
				u64 row = sec >> g->strip_shift;

				mio->wl_sector = ((row * sets + set) <<
						  g->strip_shift) +
						 (sec & (g->strip_sectors - 1));
			}
			mio->wl_len = clen;
			if (!vraid_wl_acquire(mio, true))
				wait_for_completion(&ms->ready[n]);
			n++;
		}
		ret = vraid_mirror_sync_set(vd, sy, set * copies, copies,
					    msector, len, ms);
		for (i = 0; i < n; i++)
			vraid_wl_release(&ms->mio[i]);
	}
	return ret;
}

/*
 * Member sectors of a mirror job's step: VRAID_SYNC_PAGES pages, or
 * VRAID_MSYNC_UNITS units (strips; 1 MiB on RAID1) if that is less.
 */
static u32 vraid_mirror_sync_step(struct vraid_vd *vd)
{
	return min_t(u32, VRAID_SYNC_PAGES << (PAGE_SHIFT - SECTOR_SHIFT),
		     VRAID_MSYNC_UNITS << vraid_unit_shift(&vd->geom));
}

static int vraid_mirror_init(struct vraid_vd *vd)
{
	u32 i, n = vd->geom.nr_members;
	int ret;

	vd->wl = kzalloc(sizeof(*vd->wl), GFP_KERNEL);
	if (!vd->wl)
		return -ENOMEM;
	for (i = 0; i < VRAID_WL_BUCKETS; i++) {
		spin_lock_init(&vd->wl->b[i].lock);
		INIT_LIST_HEAD(&vd->wl->b[i].active);
		INIT_LIST_HEAD(&vd->wl->b[i].waiting);
	}
	ret = bioset_init(&vd->mirror_set, 2 * n,
			  offsetof(struct vraid_mclone, clone),
			  BIOSET_NEED_RESCUER);
	if (ret)
		goto out_wl;
	ret = mempool_init_kmalloc_pool(&vd->mio_pool, 16,
					sizeof(struct vraid_mio));
	if (ret)
		goto out_set;
	return 0;

out_set:
	bioset_exit(&vd->mirror_set);
out_wl:
	kfree(vd->wl);
	vd->wl = NULL;
	return ret;
}

static void vraid_mirror_exit(struct vraid_vd *vd)
{
	mempool_exit(&vd->mio_pool);
	bioset_exit(&vd->mirror_set);
	kfree(vd->wl);
	vd->wl = NULL;
}

/* Every bio the block layer hands over lies in one unit. */
static void vraid_mirror_limits(struct vraid_vd *vd, struct queue_limits *lim)
{
	lim->chunk_sectors = 1U << vraid_unit_shift(&vd->geom);
}

/* RAID1: every copy but one; RAID10: one of each pair. */
static u32 vraid_mirror_tolerance(const struct vraid_geom *g)
{
	return g->level == VRAID_LEVEL_1 ? g->nr_members - 1 : 1;
}

static u32 vraid_mirror_group_width(const struct vraid_geom *g)
{
	return g->level == VRAID_LEVEL_1 ? g->nr_members : 2;
}

const struct vraid_level_ops vraid_mirror_ops = {
	.init		= vraid_mirror_init,
	.exit		= vraid_mirror_exit,
	.submit		= vraid_mirror_bio,
	.limits		= vraid_mirror_limits,
	.tolerance	= vraid_mirror_tolerance,
	.group_width	= vraid_mirror_group_width,
	.sync_step	= vraid_mirror_sync_step,
	.sync_begin	= vraid_mirror_sync_begin,
	.sync_end	= vraid_mirror_sync_end,
	.sync		= vraid_mirror_sync,
};
