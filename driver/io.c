// SPDX-License-Identifier: GPL-2.0
/*
 * The I/O path's front door and the engine's core: what every VD bio
 * goes through before its level (level.h: stripe.c, mirror.c, parity.c)
 * takes it - the access policy, flushes, the controller cache's write
 * paths, the split to the queue limits - and the accounting every VD bio
 * gets.  Nothing here asks which level a VD is: it calls vd->ops.
 *
 * A flush (REQ_PREFLUSH) is handled before any split: a workqueue sends an
 * empty flush to every member and, once all are done, resubmits the bio
 * without the flag if it carries data: the data never reaches a member
 * before the flush of the writes that completed before it.  REQ_FUA
 * travels on each clone to the member that holds the data.
 */
#include <linux/module.h>
#include <linux/blkdev.h>
#include <linux/bio.h>

#include "vraid.h"
#include "level.h"
#include "cache.h"
#include "bitmap.h"

/* Context of one VD flush; from vd->flush_pool. */
struct vraid_flush {
	struct vraid_vd *vd;
	struct bio *bio;		/* the VD bio carrying REQ_PREFLUSH */
	atomic_t pending;		/* member flushes not yet completed */
	bool sent;			/* member flushes have been sent */
	blk_status_t status;
	struct work_struct work;
};

/*
 * A member failed and the metadata does not say so yet: a write may have
 * skipped that member (a flush did), so it is not answered before the
 * failure is durable (else, after a crash, the stale member could come
 * back as current).  Returns true if @bio is held, with its reference on
 * vd->active; md.c answers it.
 */
static bool vraid_io_hold(struct vraid_vd *vd, struct bio *bio)
{
	unsigned long flags;

	if (likely(atomic_read(&vd->fail_seq) == READ_ONCE(vd->md_seq)))
		return false;
	spin_lock_irqsave(&vd->held_lock, flags);
	if (atomic_read(&vd->fail_seq) == vd->md_seq) {
		spin_unlock_irqrestore(&vd->held_lock, flags);
		return false;
	}
	bio_list_add(&vd->held, bio);
	spin_unlock_irqrestore(&vd->held_lock, flags);
	return true;
}

/*
 * Every VD bio that a level's code takes (after the splits) starts here
 * and ends in vraid_io_done(), with its range unchanged in between: the
 * block layer's accounting, and for writes the cache's bookkeeping.
 * The cache's and the journal's own bios (@flags without VRAID_SUB_USER)
 * are not counted as the VD's I/O: a write-back write counts once, when the
 * cache takes it, not again when it is destaged.  Returns the start
 * time, never 0, or 0 when not counted.
 */
unsigned long vraid_io_start(struct vraid_vd *vd, struct bio *bio, u32 flags)
{
	/* disk cache policy "disabled": see vraid_io_dcache_off() */
	if (bio_op(bio) == REQ_OP_WRITE)
		bio->bi_opf |= vraid_member_fua(vd);
	if (op_is_write(bio_op(bio)))
		vraid_cache_write_start(vd, bio);
	if (!(flags & VRAID_SUB_USER))
		return 0;
	return vraid_acct_start(bio);
}

/*
 * Disk cache policy "disabled" (vraid_vd_set_policy()): from the change
 * on, vraid_io_start() marks every write FUA, the members are flushed
 * once, and then the VD says it has no volatile cache, so the block
 * layer drops the flushes users send.  A write that started before the
 * change and completes after it may sit in a member's volatile cache
 * that the change's flush did not cover (the member completed it after
 * that flush began): it is answered only after another flush of the
 * members.  Write-zeroes carry no FUA (vraid_member_fua() is for
 * REQ_OP_WRITE), so they always wait for one while the policy holds.
 * Returns true if @bio waits, with its reference on vd->active.
 *
 * The policy is read after the member completed the write (the read
 * barrier pairs with the full one in vraid_vd_set_policy() between the
 * store of the policy and its flush): a write answered here without a
 * flush completed before that flush was sent, which covers it.
 */
static bool vraid_io_dcache_off(struct vraid_vd *vd, struct bio *bio)
{
	unsigned long flags;

	smp_rmb();	/* completion before policy: see above */
	if (likely(READ_ONCE(vd->disk_cache_policy) !=
		   VRAID_DCACHE_DISABLED) ||
	    bio->bi_status || !bio_sectors(bio))
		return false;
	if (bio_op(bio) == REQ_OP_WRITE) {
		if (bio->bi_opf & REQ_FUA)
			return false;
	} else if (bio_op(bio) != REQ_OP_WRITE_ZEROES) {
		return false;
	}
	/*
	 * Queued under the lock: a run of the work that takes this bio and
	 * drops the VD's last reference then cannot end before this queues
	 * it (vraid_io_exit() flushes the work after that reference).
	 */
	spin_lock_irqsave(&vd->dcache_off_lock, flags);
	bio_list_add(&vd->dcache_off, bio);
	queue_work(vraid_dcache_wq, &vd->dcache_off_work);
	spin_unlock_irqrestore(&vd->dcache_off_lock, flags);
	return true;
}

/*
 * The writes vraid_io_dcache_off() keeps: flush the members (failing one
 * that cannot, on a redundant VD: vraid_members_flush_fail()), then
 * answer them, an error only if their data may be lost.  On
 * vraid_dcache_wq (vraid.h); blkdev_issue_flush() allocates nothing.
 */
static void vraid_io_dcache_off_work(struct work_struct *work)
{
	struct vraid_vd *vd = container_of(work, struct vraid_vd,
					   dcache_off_work);
	struct bio_list bios;
	struct bio *bio;
	int ret;

	spin_lock_irq(&vd->dcache_off_lock);
	bios = vd->dcache_off;
	bio_list_init(&vd->dcache_off);
	spin_unlock_irq(&vd->dcache_off_lock);
	if (bio_list_empty(&bios))
		return;
	ret = vraid_members_flush_fail(vd);
	while ((bio = bio_list_pop(&bios))) {
		if (ret)
			bio->bi_status = BLK_STS_IOERR;
		if (vraid_io_hold(vd, bio))
			continue;
		bio_endio(bio);
		percpu_ref_put(&vd->active);
	}
}

/* Complete a VD bio that went through vraid_io_start(). */
void vraid_io_done(struct vraid_vd *vd, struct bio *bio, unsigned long start)
{
	if (op_is_write(bio_op(bio)))
		vraid_cache_write_end(vd, bio);
	if (vd->bitmap && op_is_write(bio_op(bio)) && bio_sectors(bio))
		vraid_bitmap_end(vd, bio);
	if (start)
		bio_end_io_acct(bio, start);
	if (op_is_write(bio_op(bio)) &&
	    (vraid_io_dcache_off(vd, bio) || vraid_io_hold(vd, bio)))
		return;
	bio_endio(bio);
	percpu_ref_put(&vd->active);
}

static void vraid_flush_done(struct vraid_flush *fl)
{
	struct vraid_vd *vd = fl->vd;
	struct bio *bio = fl->bio;
	blk_status_t status = fl->status;

	mempool_free(fl, &vd->flush_pool);
	if (status) {
		bio->bi_status = status;
		bio_endio(bio);
	} else if (bio_sectors(bio)) {
		/* The data part of a PREFLUSH bio, now after the flush. */
		bio->bi_opf &= ~REQ_PREFLUSH;
		submit_bio_noacct(bio);
	} else {
		/* Held: md.c answers it and drops the reference. */
		if (vraid_io_hold(vd, bio))
			return;
		bio_endio(bio);
	}
	percpu_ref_put(&vd->active);
}

/* Front pad of a member flush: which member it went to, under which gen. */
struct vraid_fbio {
	u32 member;
	u32 gen;
	struct bio bio;		/* must be last */
};

static void vraid_flush_endio(struct bio *fbio)
{
	struct vraid_flush *fl = fbio->bi_private;
	struct vraid_vd *vd = fl->vd;
	struct vraid_fbio *fb = container_of(fbio, struct vraid_fbio, bio);
	u32 member = fb->member;

	/*
	 * An error of a device the role no longer holds: what it had was
	 * rebuilt elsewhere, and the device that took its place is not the
	 * one that failed.
	 */
	if (fbio->bi_status && vraid_member_current(vd, member, fb->gen)) {
		this_cpu_inc(vd->stats->member_errors[member]);
		/* A redundant VD drops the member and stays consistent. */
		if (vraid_vd_redundant(vd)) {
			vraid_member_fail_io(vd, member, fb->gen, "flush error");
			if (READ_ONCE(vd->state) == VRAID_VD_OFFLINE)
				fl->status = fbio->bi_status;
		} else {
			fl->status = fbio->bi_status;
		}
	}
	bio_put(fbio);
	vraid_member_put(vd, member);
	/* the second run resubmits the data part: see vraid_flush_wq */
	if (atomic_dec_and_test(&fl->pending))
		queue_work(vraid_flush_wq, &fl->work);
}

/*
 * Runs on vraid_wq twice per flush: first to fan the empty flushes out
 * (outside ->submit_bio, so allocating several bios from flush_set cannot
 * deadlock on the bios parked in current->bio_list), then to finish.
 */
static void vraid_flush_work(struct work_struct *work)
{
	struct vraid_flush *fl = container_of(work, struct vraid_flush, work);
	struct vraid_vd *vd = fl->vd;
	u32 i, n = vd->geom.nr_members;

	if (!fl->sent) {
		/*
		 * First run: what the controller cache holds dirty goes to
		 * the members (on vraid_cache_wq, which may wait for it),
		 * unless the journal holds it (every completed write of a
		 * bound VD, or of one whose unbind drains the cache, is in a
		 * durable record or went around), then send the flushes (a
		 * bias holds the count up).
		 */
		if (!READ_ONCE(vd->jbound) && !READ_ONCE(vd->jaround) &&
		    vraid_cache_drain(vd))
			fl->status = BLK_STS_IOERR;
		fl->sent = true;
		atomic_set(&fl->pending, 0);
		atomic_inc(&fl->pending);
		for (i = 0; i < n; i++) {
			struct vraid_fbio *fb;
			struct bio *fbio;
			u32 gen;

			if (!vraid_member_get(vd, i,
					      vraid_vd_redundant(vd) ?
					      VRAID_MGET_WRITABLE : VRAID_MGET_ANY,
					      &gen))
				continue;
			atomic_inc(&fl->pending);
			fbio = bio_alloc_bioset(vd->members[i].h.bdev, 0,
						REQ_OP_WRITE | REQ_PREFLUSH,
						GFP_NOIO, &vd->flush_set);
			fb = container_of(fbio, struct vraid_fbio, bio);
			fb->member = i;
			fb->gen = gen;
			fbio->bi_private = fl;
			fbio->bi_end_io = vraid_flush_endio;
			submit_bio_noacct(fbio);
		}
		/* Drop the bias; the last completion requeues us. */
		if (atomic_dec_and_test(&fl->pending))
			queue_work(vraid_flush_wq, &fl->work);
		return;
	}
	vraid_flush_done(fl);
}

static void vraid_start_flush(struct vraid_vd *vd, struct bio *bio)
{
	struct vraid_flush *fl;

	percpu_ref_get(&vd->active);
	this_cpu_inc(vd->stats->flushes);
	fl = mempool_alloc(&vd->flush_pool, GFP_NOIO);
	fl->vd = vd;
	fl->bio = bio;
	fl->status = BLK_STS_OK;
	fl->sent = false;
	INIT_WORK(&fl->work, vraid_flush_work);
	queue_work(vraid_cache_dirty(vd) ||
		   READ_ONCE(vd->write_policy) == VRAID_WRITE_BACK_ALWAYS ?
		   vraid_cache_wq : vraid_wq, &fl->work);
}

/*
 * io-policy cached, read-ahead or dirty data: a user read the cache holds
 * is answered here (NULL), and so is one held back for dirty data to
 * reach the members; a miss returns the bio to send on, whose completion
 * fills the cache if the io policy is cached.  Called for each piece
 * vraid_engine_cut() makes (within one unit).
 */
static struct bio *vraid_engine_read_cache(struct vraid_vd *vd,
					   struct bio *bio, u32 flags)
{
	bool cached;

	if (!(flags & VRAID_SUB_USER) || bio_op(bio) != REQ_OP_READ)
		return bio;
	cached = READ_ONCE(vd->io_policy) == VRAID_IO_CACHED;
	if (!cached && READ_ONCE(vd->read_policy) != VRAID_READ_AHEAD &&
	    !vraid_cache_dirty(vd))
		return bio;
	return vraid_cache_read(vd, bio, cached, flags & VRAID_SUB_CHECKED);
}

/* One piece, within one unit, into the level. */
static void vraid_engine_piece(struct vraid_vd *vd, struct bio *bio,
			       u32 flags)
{
	bio = vraid_engine_read_cache(vd, bio, flags);
	if (bio)
		vd->ops->submit(vd, bio, flags);
}

/*
 * What vraid_engine_cut() could not cut inside ->submit_bio without
 * waiting, and may not send back to the VD's queue: a user bio past the
 * controller cache (VRAID_SUB_CHECKED: a journal bypass clone), which the
 * front door would take for a new one.  Cut
 * on vraid_later_wq (vraid.h), where waiting for the split pool is safe:
 * the pieces cut before went to the members when their ->submit_bio
 * returned.  The bio holds a reference on vd->active until then, taken
 * inside ->submit_bio, where the disk cannot be deleted yet (the queue's
 * usage count is held), so never after vraid_io_exit() killed it.
 */
static void vraid_engine_later(struct vraid_vd *vd, struct bio *bio)
{
	unsigned long flags;

	percpu_ref_get(&vd->active);
	spin_lock_irqsave(&vd->later_lock, flags);
	bio_list_add(&vd->later, bio);
	queue_work(vraid_later_wq, &vd->later_work);
	spin_unlock_irqrestore(&vd->later_lock, flags);
}

/*
 * A read-ahead window the front door asked for: cut and sent on
 * vraid_later_wq, not inside ->submit_bio.  There every piece's member
 * bios would wait in current->bio_list until it returns, and a window
 * is cut into up to a strip per piece: the levels' pools (a clone set
 * of two, the mirror I/O pool) would run dry with nothing of theirs
 * sent, and the task would wait for itself.  On the work item the
 * member bios go out at once.  The window holds its own reference on
 * vd->active (vraid_ra_issue()) until its completion.
 */
static void vraid_engine_ahead(struct vraid_vd *vd, struct bio *bio)
{
	unsigned long flags;

	spin_lock_irqsave(&vd->later_lock, flags);
	bio_list_add(&vd->ahead, bio);
	queue_work(vraid_later_wq, &vd->later_work);
	spin_unlock_irqrestore(&vd->later_lock, flags);
}

/*
 * The rest of @bio, which vraid_engine_cut() could not cut inside
 * ->submit_bio without waiting: a new user bio's goes back to the front
 * door (md's way); a user bio past the cache is cut later.  The driver's
 * own bios (destage, row fill, replay, read-ahead windows) are cut on
 * work items only, never here: one that came would fail.
 */
static void vraid_engine_later_split(struct vraid_vd *vd, struct bio *bio,
				     u32 flags)
{
	if (!(flags & VRAID_SUB_USER)) {
		WARN_ON_ONCE(1);
		bio->bi_status = BLK_STS_RESOURCE;
		bio_endio(bio);
	} else if (!(flags & VRAID_SUB_CHECKED)) {
		submit_bio_noacct(bio);
	} else {
		vraid_engine_later(vd, bio);
	}
}

static void vraid_engine_cut(struct vraid_vd *vd, struct bio *bio, u32 flags,
			     gfp_t gfp);

static void vraid_engine_later_work(struct work_struct *work)
{
	struct vraid_vd *vd = container_of(work, struct vraid_vd, later_work);
	struct bio_list bios, windows;
	struct bio *bio;

	spin_lock_irq(&vd->later_lock);
	bios = vd->later;
	bio_list_init(&vd->later);
	windows = vd->ahead;
	bio_list_init(&vd->ahead);
	spin_unlock_irq(&vd->later_lock);
	while ((bio = bio_list_pop(&bios))) {
		vraid_engine_cut(vd, bio, VRAID_SUB_USER | VRAID_SUB_CHECKED,
				 GFP_NOIO);
		percpu_ref_put(&vd->active);
	}
	while ((bio = bio_list_pop(&windows)))
		vraid_engine_cut(vd, bio, 0, GFP_NOIO);
}

/*
 * Hand @bio to the level in pieces that lie in one unit each (a strip;
 * RAID1: 1 MiB, vraid_unit_shift(); JBOD: the whole bio), all under one
 * block plug, so that the strips of a full-stripe write reach their
 * stripe heads in one batch.  Reads and writes of a user bio already lie
 * in one unit on the levels whose queue has chunk_sectors; discards and
 * write-zeroes (split by size only), parity bios (no chunk_sectors: the
 * block layer would hand the strips over one by one, after ->submit_bio
 * returned, outside any plug) and internal bios are cut here.
 *
 * The cut never sends a piece back to the VD's queue, except the rest of
 * a new user bio (flags VRAID_SUB_USER alone) that cannot be cut now, or
 * that a level without row_writes takes one piece a call of: that is
 * the user's bio, and the front door takes it again as it takes the rest
 * of the block layer's own splits.  Inside ->submit_bio
 * (current->bio_list) the pieces' member bios are sent only once it
 * returns, so a split must not wait for the pool, none would come back:
 * only the first split of a call may wait (@gfp GFP_NOIO: the member
 * bios of the calls before went out when they returned, and give their
 * splits back), the others take GFP_NOWAIT and, when the pool is empty,
 * the rest goes on as vraid_engine_later_split() says.  Elsewhere (work
 * items) the member bios go out at once: it may always wait.
 */
/*
 * Testing only (tests/vm/cases/102-split-pool-empty.sh): every split the
 * cut asks of its pool without waiting (GFP_NOWAIT) is refused as if the
 * pool were empty, so that the fallbacks of vraid_engine_later_split()
 * run.  The refusals are counted by the fallback they lead to - the rest
 * of a new user bio back to the front door, or of a user bio already
 * checked (sent around the cache) to a work item - with racy increments:
 * only "none" or "some" matters.
 */
static bool debug_nowait_fail;
module_param(debug_nowait_fail, bool, 0600);
MODULE_PARM_DESC(debug_nowait_fail,
		 "testing only: refuse the engine's non-waiting splits as if the pool were empty (default off)");
static unsigned int debug_nowait_front;
module_param(debug_nowait_front, uint, 0444);
MODULE_PARM_DESC(debug_nowait_front,
		 "testing only: splits refused whose rest went back to the front door");
static unsigned int debug_nowait_later;
module_param(debug_nowait_later, uint, 0444);
MODULE_PARM_DESC(debug_nowait_later,
		 "testing only: splits refused whose rest went to a work item");

static struct bio *vraid_engine_split(struct vraid_vd *vd, struct bio *bio,
				      u32 sectors, gfp_t gfp, u32 flags)
{
	unsigned int *count;

	if (gfp == GFP_NOWAIT && unlikely(READ_ONCE(debug_nowait_fail))) {
		pr_warn_once("vraid: debug_nowait_fail is set: the engine refuses its own splits on purpose; set it to 0 outside tests\n");
		count = flags & VRAID_SUB_CHECKED ? &debug_nowait_later :
			&debug_nowait_front;
		WRITE_ONCE(*count, READ_ONCE(*count) + 1);
		return NULL;
	}
	return bio_split(bio, sectors, gfp, &vd->split_set);
}

static void vraid_engine_cut(struct vraid_vd *vd, struct bio *bio, u32 flags,
			     gfp_t gfp)
{
	u32 unit, left;
	struct blk_plug plug;

	blk_start_plug(&plug);
	if (vd->geom.strip_sectors) {
		unit = 1U << vraid_unit_shift(&vd->geom);
		left = unit - (bio->bi_iter.bi_sector & (unit - 1));
		while (bio_sectors(bio) > left) {
			struct bio *split;

			split = vraid_engine_split(vd, bio, left, gfp, flags);
			if (unlikely(!split)) {
				vraid_engine_later_split(vd, bio, flags);
				bio = NULL;
				break;
			}
			bio_chain(split, bio);
			/*
			 * A new user bio on a level that allocates per piece
			 * from small pools of its own (a discard or write-
			 * zeroes across a unit's end: reads and writes come
			 * within one, chunk_sectors): one piece a call, the
			 * rest back to the front door, so that no call holds
			 * two of a pool's elements unsent.  Parity cuts on:
			 * its strips batch into stripe heads under the plug.
			 */
			if (current->bio_list && !vd->ops->row_writes &&
			    (flags & VRAID_SUB_USER) &&
			    !(flags & VRAID_SUB_CHECKED)) {
				submit_bio_noacct(bio);
				bio = split;
				break;
			}
			if (current->bio_list)
				gfp = GFP_NOWAIT;
			vraid_engine_piece(vd, split, flags);
			left = unit;
		}
	}
	if (bio)
		vraid_engine_piece(vd, bio, flags);
	blk_finish_plug(&plug);
}

/*
 * The front door.  Every bio that comes here is a user's: a new one, the
 * rest of one that the block layer or vraid_engine_cut() split, or the
 * data part of a flush (vraid_flush_done()).  The driver's own I/O -
 * destage, read-ahead, row fill, the journal's replay and its writes
 * around the cache - enters the engine directly (vraid_engine_submit()),
 * and never comes back here: a VD being stopped has no queue to take it,
 * and nothing needs to tell it from a user's.
 */
void vraid_submit_bio(struct bio *bio)
{
	struct vraid_vd *vd = bio->bi_bdev->bd_disk->private_data;
	struct bio *ra = NULL;

	if (unlikely(READ_ONCE(vd->state) == VRAID_VD_OFFLINE)) {
		bio_io_error(bio);
		return;
	}
	/*
	 * Access policy: blocked fails every user bio, ro every user write,
	 * at once (the cache's own destage goes on: it does not come here).
	 */
	if (unlikely(READ_ONCE(vd->access_policy) != VRAID_ACCESS_RW) &&
	    (READ_ONCE(vd->access_policy) == VRAID_ACCESS_BLOCKED ||
	     (op_is_write(bio_op(bio)) &&
	      (bio_sectors(bio) || !(bio->bi_opf & REQ_PREFLUSH))))) {
		bio_io_error(bio);
		return;
	}
	/*
	 * Disk cache policy "disabled": the VD says it has no cache, so this
	 * write came without the flushes its user would send otherwise; it
	 * keeps FUA however long it waits (vraid_dcache_enable() in vd.c).
	 * Not with awb: that VD says it has a cache, and FUA would send the
	 * write around it.
	 */
	if (bio_op(bio) == REQ_OP_WRITE && unlikely(vraid_member_fua(vd)) &&
	    READ_ONCE(vd->write_policy) != VRAID_WRITE_BACK_ALWAYS)
		bio->bi_opf |= REQ_FUA;
	/* Flush first, whole: one member flush per VD flush, not per split. */
	if (unlikely(bio->bi_opf & REQ_PREFLUSH)) {
		vraid_start_flush(vd, bio);
		return;
	}
	bio = bio_split_to_limits(bio);
	if (!bio)
		return;
	/*
	 * A piece split off here carries REQ_NOMERGE, meant for this queue
	 * (which merges nothing anyway); on the members, neighbouring pieces
	 * of one member (a RAID0 row's strips) may merge again, as md lets
	 * them (md_submit_bio()).
	 */
	bio->bi_opf &= ~REQ_NOMERGE;
	if (unlikely(!bio_sectors(bio))) {
		bio_endio(bio);
		return;
	}
	if (unlikely(bio_end_sector(bio) > vd->geom.size_sectors)) {
		bio_io_error(bio);
		return;
	}
	if (bio_op(bio) == REQ_OP_READ) {
		vraid_cache_note_read(vd);
		if (READ_ONCE(vd->read_policy) == VRAID_READ_AHEAD)
			ra = vraid_cache_ra(vd, bio);
	}
	/* write-back takes it, or it waits for older dirty data */
	if (op_is_write(bio_op(bio)) && vraid_cache_write(vd, bio))
		return;
	vraid_engine_cut(vd, bio, VRAID_SUB_USER, GFP_NOIO);
	/* the window read ahead after the read that asked for it */
	if (ra)
		vraid_engine_ahead(vd, ra);
}

/*
 * Into the levels, past the front door and the controller cache: user
 * bios the cache held back or sends around itself (VRAID_SUB_USER |
 * VRAID_SUB_CHECKED), and the driver's own (destage, row fill, the
 * journal's replay).  Within the VD, and split to no limit but the
 * level's unit (vraid_engine_cut()).  Process context (a work item), or
 * ->submit_bio for a user bio the cache sends around itself; never a
 * completion handler: a level's submit may sleep in a mempool.
 */
void vraid_engine_submit(struct vraid_vd *vd, struct bio *bio, u32 flags)
{
	if (unlikely(bio_end_sector(bio) > vd->geom.size_sectors)) {
		bio_io_error(bio);
		return;
	}
	if (unlikely(!bio_sectors(bio))) {
		bio_endio(bio);
		return;
	}
	vraid_engine_cut(vd, bio, flags, GFP_NOIO);
}

/*
 * The levels and their families: a new level is one line here (and its
 * file).  A list, not an array indexed by VRAID_LEVEL_*: the level
 * numbers are sparse (JBOD is 255), and the table is read once per VD.
 */
static const struct vraid_level_entry {
	u32 level;
	const struct vraid_level_ops *ops;
} vraid_levels[] = {
	{ VRAID_LEVEL_JBOD,	&vraid_stripe_ops },
	{ VRAID_LEVEL_0,	&vraid_stripe_ops },
	{ VRAID_LEVEL_1,	&vraid_mirror_ops },
	{ VRAID_LEVEL_10,	&vraid_mirror_ops },
	{ VRAID_LEVEL_5,	&vraid_parity_ops },
	{ VRAID_LEVEL_6,	&vraid_parity_ops },
	{ VRAID_LEVEL_50,	&vraid_parity_ops },
	{ VRAID_LEVEL_60,	&vraid_parity_ops },
};

const struct vraid_level_ops *vraid_level_ops_of(u32 level)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(vraid_levels); i++)
		if (vraid_levels[i].level == level)
			return vraid_levels[i].ops;
	return NULL;
}

static void vraid_active_release(struct percpu_ref *ref)
{
	struct vraid_vd *vd = container_of(ref, struct vraid_vd, active);

	complete(&vd->active_done);
}

int vraid_io_init(struct vraid_vd *vd)
{
	u32 n = vd->geom.nr_members;
	int ret;

	vd->stats = alloc_percpu(struct vraid_stats);
	if (!vd->stats)
		return -ENOMEM;
	ret = bioset_init(&vd->flush_set, n, offsetof(struct vraid_fbio, bio),
			  0);
	if (ret)
		goto out_stats;
	ret = bioset_init(&vd->split_set, BIO_POOL_SIZE, 0, 0);
	if (ret)
		goto out_flush;
	ret = mempool_init_kmalloc_pool(&vd->flush_pool, 4,
					sizeof(struct vraid_flush));
	if (ret)
		goto out_split;
	spin_lock_init(&vd->dcache_off_lock);
	bio_list_init(&vd->dcache_off);
	INIT_WORK(&vd->dcache_off_work, vraid_io_dcache_off_work);
	spin_lock_init(&vd->later_lock);
	bio_list_init(&vd->later);
	bio_list_init(&vd->ahead);
	INIT_WORK(&vd->later_work, vraid_engine_later_work);
	init_completion(&vd->active_done);
	ret = percpu_ref_init(&vd->active, vraid_active_release, 0,
			      GFP_KERNEL);
	if (ret)
		goto out_pool;
	if (vd->ops->init) {
		ret = vd->ops->init(vd);
		if (ret)
			goto out_ref;
	}
	ret = vraid_bitmap_init(vd);
	if (ret)
		goto out_level;
	ret = vraid_cache_init(vd);
	if (ret)
		goto out_bitmap;
	return 0;

out_bitmap:
	vraid_bitmap_exit(vd);
out_level:
	if (vd->ops->exit)
		vd->ops->exit(vd);
out_ref:
	percpu_ref_exit(&vd->active);
out_pool:
	mempool_exit(&vd->flush_pool);
out_split:
	bioset_exit(&vd->split_set);
out_flush:
	bioset_exit(&vd->flush_set);
out_stats:
	free_percpu(vd->stats);
	vd->stats = NULL;
	return ret;
}

/* Wait for every VD bio in flight, then free the I/O resources. */
void vraid_io_exit(struct vraid_vd *vd)
{
	percpu_ref_kill(&vd->active);
	wait_for_completion(&vd->active_done);
	/* their last bio may have released vd->active before they returned */
	flush_work(&vd->dcache_off_work);
	flush_work(&vd->later_work);
	percpu_ref_exit(&vd->active);
	vraid_cache_exit(vd);
	vraid_bitmap_exit(vd);
	if (vd->ops->exit)
		vd->ops->exit(vd);
	mempool_exit(&vd->flush_pool);
	bioset_exit(&vd->split_set);
	bioset_exit(&vd->flush_set);
	free_percpu(vd->stats);
	vd->stats = NULL;
}
