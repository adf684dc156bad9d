// SPDX-License-Identifier: GPL-2.0
/*
 * The write-intent bitmap of redundant VDs (format: metadata.h).
 *
 * Every region of member sectors has a count of writes in flight and a
 * bit "set on the members".  A write to a region whose bit is set goes
 * ahead at once; otherwise it is parked and a work item writes the
 * bitmap with the bit (FUA) to every member that takes writes, and only
 * then sets the bit and lets the parked writes go (a bitmap write cannot
 * be waited for in ->submit_bio: the block layer holds back bios
 * submitted from there).  The bit is set in memory only once the write
 * has completed: a write that comes meanwhile parks too, behind the ones
 * already parked, rather than go ahead of a bit its region does not yet
 * have on the media.
 * A delayed work clears the bits of regions that have had no write in
 * flight since its last pass (so 3 to 6 seconds after a region's last
 * write ends, as md's two daemon passes) and writes the bitmap again;
 * a region that has only just gone idle is marked idle and waits for
 * the next pass, which then comes by itself.  After an unclean shutdown
 * the regions whose bits are set on any member are resynced, nothing
 * else.
 *
 * Volatile member caches: a bitmap write that clears bits says "the
 * data of these regions is on the media", so it carries REQ_PREFLUSH as
 * well as REQ_FUA: the flush makes the region's writes, which all
 * completed before it was sent, durable first; FUA alone would let the
 * clean bit reach the media before them (the write hole, reached after
 * a power cut).  Each member's flush covers only its own writes, and
 * that is enough: assembly resyncs a region whose bit is set on any
 * member, so a region is skipped only once every member's copy of the
 * clear, each behind its own flush, is durable.  A write that only sets
 * bits vouches for nothing and needs no flush: FUA makes it durable
 * before the parked writes go.
 *
 * Ordering: a writer increments the count and then reads the bit; the
 * clearer clears the bit and then reads the count, putting the bit back
 * if a writer came; full barriers on both sides make one of them see
 * the other.  bitmap.lock serialises bitmap writes and every change of
 * the bits; the counts are atomics; parked writes are on a list under
 * a spinlock.
 */
#include <linux/blkdev.h>
#include <linux/bio.h>
#include <linux/delay.h>
#include <linux/slab.h>
#include <linux/mm.h>

#include "vraid.h"
#include "bitmap.h"
#include "core/metadata.h"

#define VRAID_BM_CLEAR_DELAY	(3 * HZ)

/* A write parked until its region's bit is on the members. */
struct vraid_bm_park {
	struct list_head list;
	struct bio *bio;
	unsigned long start;
	void *arg;
	vraid_bm_resume_fn fn;
};

struct vraid_bitmap {
	struct vraid_vd *vd;
	u32 shift, nbits;
	unsigned long *ondisk;		/* set on the members */
	unsigned long *setting;		/* in the bitmap write in flight */
	unsigned long *pending;		/* to resync; kept set until done */
	unsigned long *idle;		/* idle at the last clear pass */
	atomic_t *count;		/* writes in flight per region */
	struct mutex lock;		/* see the top of this file */
	struct page *pages[2];		/* the 8 KiB image, under lock */
	u8 *img;			/* encode buffer, under lock */
	/* One bitmap write, to every member at once; under lock. */
	struct vraid_bm_io {
		struct bio bio;
		struct bio_vec bvec[2];
		u32 gen;		/* vraid_member_get() */
	} *io;
	atomic_t io_left;		/* bios of it not yet ended */
	struct completion io_done;	/* the last one ended */
	spinlock_t park_lock;		/* parked */
	struct list_head parked;
	struct work_struct set_work;
	struct delayed_work clear_work;
	mempool_t park_pool;
};

static u32 vraid_bm_region(struct vraid_vd *vd, struct bio *bio)
{
	return vraid_layout_bm_region(&vd->geom, bio->bi_iter.bi_sector,
				      vd->bitmap->shift, vd->bitmap->nbits);
}

static void vraid_bm_end_io(struct bio *bio)
{
	struct vraid_bitmap *bm = bio->bi_private;

	if (atomic_dec_and_test(&bm->io_left))
		complete(&bm->io_done);
}

/*
 * Write the bitmap as it is to every member that takes writes, to all
 * of them at once (a writer waits for this: one member's latency, not
 * the sum of them).  @clears: the image clears bits that are set on the
 * members, so it must follow the data it vouches for (top of the file).
 */
static int vraid_bm_write(struct vraid_vd *vd, bool clears)
{
	struct vraid_bitmap *bm = vd->bitmap;
	u8 *bits = page_address(bm->pages[1]);
	u32 i, n = vd->geom.nr_members, sent = 0;
	int ret = 0;

	/*
	 * Nothing is allocated here: parked writes wait for this, so it
	 * must not wait for memory that their completion would free.
	 */
	lockdep_assert_held(&bm->lock);
	memset(bits, 0, PAGE_SIZE);
	for (i = 0; i < bm->nbits; i++)
		if (test_bit(i, bm->ondisk) || test_bit(i, bm->setting))
			bits[i / 8] |= 1U << (i % 8);
	vraid_bm_encode(vd->uuid, bm->shift, bm->nbits, bits, bm->img);
	memcpy(page_address(bm->pages[0]), bm->img, PAGE_SIZE);
	memcpy(page_address(bm->pages[1]), bm->img + PAGE_SIZE, PAGE_SIZE);
	BUILD_BUG_ON(VRAID_MAX_MEMBERS > 32);	/* @sent is a u32 mask */
	/* One reference held here, so no bio can complete the whole. */
	atomic_set(&bm->io_left, 1);
	reinit_completion(&bm->io_done);
	for (i = 0; i < n; i++) {
		struct bio *bio = &bm->io[i].bio;

		/* its count is held until the result is looked at, below */
		if (!vraid_member_get(vd, i, VRAID_MGET_WRITABLE,
				      &bm->io[i].gen))
			continue;
		bio_init(bio, vd->members[i].h.bdev, bm->io[i].bvec, 2,
			 REQ_OP_WRITE | REQ_SYNC | REQ_FUA |
			 (clears ? REQ_PREFLUSH : 0));
		bio->bi_iter.bi_sector = VRAID_BM_SECTOR;
		bio->bi_private = bm;
		bio->bi_end_io = vraid_bm_end_io;
		__bio_add_page(bio, bm->pages[0], PAGE_SIZE, 0);
		__bio_add_page(bio, bm->pages[1], PAGE_SIZE, 0);
		atomic_inc(&bm->io_left);
		sent |= 1U << i;
		submit_bio(bio);
	}
	if (!atomic_dec_and_test(&bm->io_left))
		wait_for_completion_io(&bm->io_done);
	for (i = 0; i < n; i++) {
		struct bio *bio = &bm->io[i].bio;
		int err;

		if (!(sent & (1U << i)))
			continue;
		err = blk_status_to_errno(bio->bi_status);
		bio_uninit(bio);
		if (err) {
			this_cpu_inc(vd->stats->member_errors[i]);
			vraid_member_fail_io(vd, i, bm->io[i].gen,
					     "bitmap write error");
			ret = err;
		}
		vraid_member_put(vd, i);
	}
	return ret;
}

/*
 * Testing only (tests/vm/cases/96-bitmap-set-window.sh): milliseconds a
 * bitmap write that sets bits waits before it is sent, to hold open the
 * window in which the bits are not yet on the members; 0 (the default)
 * never waits.
 */
static unsigned int debug_bm_set_delay_ms;
module_param(debug_bm_set_delay_ms, uint, 0600);
MODULE_PARM_DESC(debug_bm_set_delay_ms,
		 "testing only: wait this long (at most 10000) before a bitmap write that sets bits (default 0)");

/*
 * Set the bits of the parked writes' regions on the members, then let
 * the writes go, in the order they parked.  Writes that park meanwhile
 * queue this work again, and they go after these: a work item never
 * runs twice at once, and they wait behind a bit not in ondisk yet.
 */
static void vraid_bm_set_work(struct work_struct *work)
{
	struct vraid_bitmap *bm = container_of(work, struct vraid_bitmap,
					       set_work);
	struct vraid_vd *vd = bm->vd;
	struct vraid_bm_park *p, *tmp;
	struct blk_plug plug;
	bool dirty = false;
	LIST_HEAD(list);
	u32 r;

	spin_lock_irq(&bm->park_lock);
	list_splice_init(&bm->parked, &list);
	spin_unlock_irq(&bm->park_lock);

	mutex_lock(&bm->lock);
	list_for_each_entry(p, &list, list) {
		r = vraid_bm_region(vd, p->bio);
		if (!test_bit(r, bm->ondisk) &&
		    !__test_and_set_bit(r, bm->setting))
			dirty = true;
	}
	if (dirty) {
		vraid_debug_delay(READ_ONCE(debug_bm_set_delay_ms));
		/*
		 * Its result may be ignored: a member it failed on is failed
		 * before it returns, and the writes resumed skip it.
		 */
		vraid_bm_write(vd, false);
		/*
		 * Only now may a write of these regions go ahead unparked:
		 * the image with their bits has completed on the members.
		 */
		for_each_set_bit(r, bm->setting, bm->nbits)
			set_bit(r, bm->ondisk);
		bitmap_zero(bm->setting, bm->nbits);
	}
	mutex_unlock(&bm->lock);

	/*
	 * under a plug, as they were submitted: the strips of a full-stripe
	 * write parked here reach their stripe heads in one batch again
	 */
	blk_start_plug(&plug);
	list_for_each_entry_safe(p, tmp, &list, list) {
		list_del(&p->list);
		p->fn(vd, p->bio, p->start, p->arg);
		mempool_free(p, &bm->park_pool);
	}
	blk_finish_plug(&plug);
}

static void vraid_bm_clear_work(struct work_struct *work)
{
	struct vraid_bitmap *bm = container_of(to_delayed_work(work),
					       struct vraid_bitmap, clear_work);
	bool changed = false, again = false;
	u32 i;

	mutex_lock(&bm->lock);
	for (i = 0; i < bm->nbits; i++) {
		if (!test_bit(i, bm->ondisk) || test_bit(i, bm->pending) ||
		    atomic_read(&bm->count[i]))
			continue;
		/* A region that has just gone idle gets one more pass. */
		if (!test_and_set_bit(i, bm->idle)) {
			again = true;
			continue;
		}
		clear_bit(i, bm->ondisk);
		smp_mb__after_atomic();	/* pairs with vraid_bitmap_start() */
		if (atomic_read(&bm->count[i]))
			set_bit(i, bm->ondisk);
		else
			changed = true;
	}
	if (changed)
		vraid_bm_write(bm->vd, true);
	mutex_unlock(&bm->lock);
	if (again)
		queue_delayed_work(vraid_wq, &bm->clear_work,
				   VRAID_BM_CLEAR_DELAY);
}

/*
 * A VD write is about to start.  Returns true if it may go ahead; false
 * if it was parked (then @fn(vd, bio, start, arg) runs later, from a
 * work item).
 */
bool vraid_bitmap_start(struct vraid_vd *vd, struct bio *bio,
			unsigned long start, vraid_bm_resume_fn fn, void *arg)
{
	struct vraid_bitmap *bm = vd->bitmap;
	u32 r = vraid_bm_region(vd, bio);
	struct vraid_bm_park *p;
	unsigned long flags;

	atomic_inc(&bm->count[r]);
	smp_mb__after_atomic();	/* pairs with vraid_bm_clear_work() */
	if (test_bit(r, bm->ondisk))
		return true;
	p = mempool_alloc(&bm->park_pool, GFP_NOIO);
	p->bio = bio;
	p->start = start;
	p->fn = fn;
	p->arg = arg;
	spin_lock_irqsave(&bm->park_lock, flags);
	list_add_tail(&p->list, &bm->parked);
	spin_unlock_irqrestore(&bm->park_lock, flags);
	queue_work(vraid_wait_wq, &bm->set_work);
	return false;
}

/* A VD write that went through vraid_bitmap_start() has ended.  Any context. */
void vraid_bitmap_end(struct vraid_vd *vd, struct bio *bio)
{
	struct vraid_bitmap *bm = vd->bitmap;
	u32 r = vraid_bm_region(vd, bio);

	if (atomic_dec_and_test(&bm->count[r])) {
		/* Not idle since the last pass (a hint: no ordering needed). */
		if (test_bit(r, bm->idle))
			clear_bit(r, bm->idle);
		queue_delayed_work(vraid_wq, &bm->clear_work,
				   VRAID_BM_CLEAR_DELAY);
	}
}

/* Is the region of member sector @msector waiting for a resync? */
bool vraid_bitmap_pending(struct vraid_vd *vd, u64 msector)
{
	struct vraid_bitmap *bm = vd->bitmap;

	return !bm || test_bit(min_t(u64, msector >> bm->shift, bm->nbits - 1),
			       bm->pending);
}

/* First member sector of the region after the one of @msector. */
u64 vraid_bitmap_next(struct vraid_vd *vd, u64 msector)
{
	u32 shift = vd->bitmap->shift;

	return ((msector >> shift) + 1) << shift;
}

/* The resync of the regions below @msector is done. */
void vraid_bitmap_synced(struct vraid_vd *vd, u64 msector)
{
	struct vraid_bitmap *bm = vd->bitmap;
	u32 i, end;

	if (!bm)
		return;
	end = min_t(u64, msector >> bm->shift, bm->nbits);
	for (i = 0; i < end; i++)
		if (test_and_clear_bit(i, bm->pending) &&
		    !atomic_read(&bm->count[i]))
			queue_delayed_work(vraid_wq, &bm->clear_work,
					   VRAID_BM_CLEAR_DELAY);
}

/*
 * Mark every region from member sector @from on for resync (with @all:
 * every region), then write the bitmap.  Returns the regions marked.
 */
u32 vraid_bitmap_mark(struct vraid_vd *vd, u64 from, bool all)
{
	struct vraid_bitmap *bm = vd->bitmap;
	u32 i, n = 0;

	mutex_lock(&bm->lock);
	for (i = 0; i < bm->nbits; i++) {
		if (all || (from < vd->geom.member_sectors &&
			    ((u64)(i + 1) << bm->shift) > from)) {
			set_bit(i, bm->ondisk);
			set_bit(i, bm->pending);
		}
		if (test_bit(i, bm->pending))
			n++;
	}
	vraid_bm_write(vd, false);
	mutex_unlock(&bm->lock);
	return n;
}

/*
 * A rebuilding member whose bitmap cannot be read: a region its copy
 * would have kept dirty (its data lost from its cache, the others'
 * clears durable) could look clean.  Its rows below its own position
 * (vraid_member.rebuilt_to) stay trusted (lowering it would rebuild them
 * from rows the crash may have torn), but every region counts as dirty:
 * the resync after the rebuild goes over all of them.  Only in memory:
 * vraid_bitmap_mark() writes it to every member before anything relies
 * on it.  Called with bm->lock held.
 */
static void vraid_bm_distrust(struct vraid_vd *vd, u32 member, const char *why)
{
	struct vraid_bitmap *bm = vd->bitmap;

	/* (at 0 nothing of it is read: its bitmap says nothing) */
	if (!vd->members[member].rebuilt_to)
		return;
	pr_warn("%s: member %u (%s), being rebuilt: %s; every region is resynced\n",
		vd->disk->disk_name, member, vd->members[member].name, why);
	bitmap_fill(bm->pending, bm->nbits);
	bitmap_fill(bm->ondisk, bm->nbits);
}

/*
 * Assembly after an unclean shutdown, once vraid_bitmap_load() ran: the
 * regions dirty at the crash that end above member sector @from (with
 * @all: every region, the bitmap being unknown).  With @log, each run of
 * them is named in the kernel log (member sectors; at most 16 runs).
 */
u32 vraid_bitmap_dirty_above(struct vraid_vd *vd, u64 from, bool all,
			     bool log)
{
	struct vraid_bitmap *bm = vd->bitmap;
	u32 i, n = 0, runs = 0, start = 0;
	bool in_run = false;

	if (!bm || from >= vd->geom.member_sectors)
		return 0;
	mutex_lock(&bm->lock);
	for (i = 0; i <= bm->nbits; i++) {
		bool dirty = i < bm->nbits &&
			     ((u64)(i + 1) << bm->shift) > from &&
			     (all || test_bit(i, bm->pending));

		if (dirty) {
			n++;
			if (!in_run)
				start = i;
			in_run = true;
			continue;
		}
		if (in_run && log && runs++ < 16)
			pr_warn("%s: rows at member sectors %llu-%llu were being written at the crash with a member missing or not rebuilt there\n",
				vd->disk->disk_name,
				(unsigned long long)max_t(u64, from,
						(u64)start << bm->shift),
				(unsigned long long)min_t(u64,
						vd->geom.member_sectors,
						(u64)i << bm->shift) - 1);
		in_run = false;
	}
	mutex_unlock(&bm->lock);
	return n;
}

/*
 * Assembly: OR the bitmaps on the online and rebuilding members into
 * pending and ondisk (a rebuilding member's rows below its own position
 * are trusted, so its copy counts too).  Returns the regions found
 * dirty, or -ENODATA if no member had a valid bitmap of this geometry.
 */
int vraid_bitmap_load(struct vraid_vd *vd)
{
	struct vraid_bitmap *bm = vd->bitmap;
	u8 *img;
	char why[64];
	int found = 0, dirty = 0, err;
	u32 i, r, shift, nbits;

	img = kmalloc(VRAID_BM_BYTES, GFP_KERNEL);
	if (!img)
		return -ENOMEM;
	/* (the pages are the write buffer too: under the lock) */
	mutex_lock(&bm->lock);
	for (i = 0; i < vd->geom.nr_members; i++) {
		struct vraid_member *m = &vd->members[i];
		struct bio_vec bvec[2];
		struct bio bio;

		bool rebuilding;

		if (!vraid_member_get(vd, i, VRAID_MGET_WRITABLE, NULL))
			continue;
		rebuilding = READ_ONCE(m->state) == VRAID_MEMBER_REBUILDING;
		bio_init(&bio, m->h.bdev, bvec, 2, REQ_OP_READ | REQ_SYNC);
		bio.bi_iter.bi_sector = VRAID_BM_SECTOR;
		__bio_add_page(&bio, bm->pages[0], PAGE_SIZE, 0);
		__bio_add_page(&bio, bm->pages[1], PAGE_SIZE, 0);
		err = submit_bio_wait(&bio);
		bio_uninit(&bio);
		vraid_member_put(vd, i);
		if (err) {
			if (rebuilding)
				vraid_bm_distrust(vd, i, "its bitmap cannot be read");
			continue;
		}
		memcpy(img, page_address(bm->pages[0]), PAGE_SIZE);
		memcpy(img + PAGE_SIZE, page_address(bm->pages[1]), PAGE_SIZE);
		if (vraid_bm_decode(img, vd->uuid, &shift, &nbits, why,
				    sizeof(why))) {
			if (rebuilding)
				vraid_bm_distrust(vd, i, why);
			else
				pr_warn("%s: member %u (%s): %s\n",
					vd->disk->disk_name, i, m->name, why);
			continue;
		}
		if (shift != bm->shift || nbits != bm->nbits) {
			if (rebuilding)
				vraid_bm_distrust(vd, i, "bitmap geometry differs");
			else
				pr_warn("%s: member %u (%s): bitmap geometry differs\n",
					vd->disk->disk_name, i, m->name);
			continue;
		}
		found++;
		for (r = 0; r < nbits; r++) {
			if (!(img[PAGE_SIZE + r / 8] & (1U << (r % 8))))
				continue;
			if (!test_and_set_bit(r, bm->pending))
				dirty++;
			set_bit(r, bm->ondisk);
		}
	}
	mutex_unlock(&bm->lock);
	kfree(img);
	return found ? dirty : -ENODATA;
}

/*
 * Write the bitmap as it stands (create: all clear; as a clear, since
 * the members may hold an older image with bits set).
 */
int vraid_bitmap_flush(struct vraid_vd *vd)
{
	int ret;

	mutex_lock(&vd->bitmap->lock);
	ret = vraid_bm_write(vd, true);
	mutex_unlock(&vd->bitmap->lock);
	return ret;
}

int vraid_bitmap_init(struct vraid_vd *vd)
{
	struct vraid_bitmap *bm;
	int ret = -ENOMEM;

	/* A RAID1 bio (one unit) never crosses a region, nor a strip a unit. */
	BUILD_BUG_ON(VRAID_MIRROR1_UNIT_SHIFT > VRAID_BM_MIN_SHIFT);
	BUILD_BUG_ON(VRAID_STRIP_MAX >> SECTOR_SHIFT >
		     1U << VRAID_MIRROR1_UNIT_SHIFT);
	/* The image is read and written as two pages. */
	BUILD_BUG_ON(VRAID_BM_BYTES != 2 * PAGE_SIZE);
	if (!vraid_vd_redundant(vd))
		return 0;
	bm = kzalloc(sizeof(*bm), GFP_KERNEL);
	if (!bm)
		return -ENOMEM;
	bm->vd = vd;
	/* (first: vraid_bitmap_exit() may flush the works on a failure) */
	mutex_init(&bm->lock);
	init_completion(&bm->io_done);
	spin_lock_init(&bm->park_lock);
	INIT_LIST_HEAD(&bm->parked);
	INIT_WORK(&bm->set_work, vraid_bm_set_work);
	INIT_DELAYED_WORK(&bm->clear_work, vraid_bm_clear_work);
	bm->shift = vraid_bm_shift(vd->geom.member_sectors,
				   vd->geom.strip_shift);
	bm->nbits = (vd->geom.member_sectors + (1ULL << bm->shift) - 1) >>
		    bm->shift;
	bm->ondisk = bitmap_zalloc(bm->nbits, GFP_KERNEL);
	bm->setting = bitmap_zalloc(bm->nbits, GFP_KERNEL);
	bm->pending = bitmap_zalloc(bm->nbits, GFP_KERNEL);
	bm->idle = bitmap_zalloc(bm->nbits, GFP_KERNEL);
	bm->count = kvcalloc(bm->nbits, sizeof(*bm->count), GFP_KERNEL);
	bm->pages[0] = alloc_page(GFP_KERNEL);
	bm->pages[1] = alloc_page(GFP_KERNEL);
	bm->img = kmalloc(VRAID_BM_BYTES, GFP_KERNEL);
	bm->io = kcalloc(VRAID_MAX_MEMBERS, sizeof(*bm->io), GFP_KERNEL);
	if (!bm->ondisk || !bm->setting || !bm->pending || !bm->idle ||
	    !bm->count || !bm->pages[0] || !bm->pages[1] || !bm->img ||
	    !bm->io)
		goto out;
	ret = mempool_init_kmalloc_pool(&bm->park_pool, 16,
					sizeof(struct vraid_bm_park));
	if (ret)
		goto out;
	vd->bitmap = bm;
	return 0;
out:
	vd->bitmap = bm;
	vraid_bitmap_exit(vd);
	return ret;
}

/* No VD I/O is in flight any more. */
void vraid_bitmap_exit(struct vraid_vd *vd)
{
	struct vraid_bitmap *bm = vd->bitmap;

	if (!bm)
		return;
	if (bm->park_pool.pool_data) {
		flush_work(&bm->set_work);
		cancel_delayed_work_sync(&bm->clear_work);
		mempool_exit(&bm->park_pool);
	}
	if (bm->pages[0])
		__free_page(bm->pages[0]);
	if (bm->pages[1])
		__free_page(bm->pages[1]);
	kfree(bm->img);
	kfree(bm->io);
	kvfree(bm->count);
	bitmap_free(bm->pending);
	bitmap_free(bm->idle);
	bitmap_free(bm->ondisk);
	bitmap_free(bm->setting);
	kfree(bm);
	vd->bitmap = NULL;
}
