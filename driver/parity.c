// SPDX-License-Identifier: GPL-2.0
/*
 * The parity engine: RAID5, RAID6, RAID50 and RAID60.
 *
 * Reads of data on an online member go straight to it (a clone, no
 * copy).  Everything else - writes, reads of a failed member, reads that
 * failed - goes through the stripe cache: a bounded pool of stripe heads,
 * each one 4 KiB column of one stripe row of one span (a page per member,
 * md's stripe_head at PAGE_SIZE).  A VD bio is cut into pieces, one per
 * column it touches, queued on the column's head.  A head is handled by
 * one work item at a time, so overlapping writes to a column are
 * serialised and its parity stays consistent:
 *
 *  1. choose reconstruct-write (read the data blocks not fully
 *     overwritten) or read-modify-write (RAID5: read the old data being
 *     overwritten and P), whichever reads fewer blocks that the head does
 *     not hold already; with a failed member, or after a read error, read
 *     every surviving block and reconstruct the missing ones
 *     (xor_blocks(), raid6_2data_recov(), raid6_datap_recov());
 *  2. overlay the new data, compute P (and Q with raid6_call);
 *  3. write the changed data and the parity to the online members (FUA
 *     if any piece asked for it), rewrite blocks that returned a read
 *     error (repair), fail members whose writes fail;
 *  4. serve the read pieces from the head and complete the pieces.
 *
 * Heads started under a block plug are queued at the unplug, so that the
 * strips of a full-stripe write land in one batch and need no reads; the
 * heads of one plug are handled together by one work item, each stage
 * (reads, then writes) for all of them under a block plug of its own,
 * so that the 4 KiB member I/Os of neighbouring columns merge into large
 * requests, as md's raid5d submits under a plug (one head's work each
 * would send them one by one).  The work holds each run of neighbouring
 * columns' member I/Os and sends them member by member (struct
 * vraid_subq): on a member that takes one request at a time, a
 * submitter that sleeps for its tag between members would otherwise
 * send each column alone.  On a VD logging parity records the work
 * starts every head's record as it computes its row, and sends the
 * member writes once all are computed, each once its record is durable:
 * the records share journal writes, and no head waits for another's.
 *
 * Background jobs (job.c) send "sync" pieces through the same heads, one
 * per column, so they are serialised with user writes; a step's heads
 * start at one unplug and take the stages together, so its member I/Os
 * merge (a step reads 512 KiB of each member at most): rebuild
 * reconstructs the blocks of rebuilding members and writes them; check
 * reads the whole row and counts it if its parity does not match; init,
 * resync and repair also rewrite the parity of such a row.  Rebuilding
 * members are written like online ones, and read only in the rows their
 * own rebuild has passed (vraid_member.rebuilt_to): there they hold
 * their blocks, and after a power cut they may be the only good copy of
 * a flushed block whose row the cut tore on the other members, so a
 * rebuild writes only the members not rebuilt there yet.  Rows at or above
 * vd->init_pos (not initialised yet) are written by reconstruct-write
 * only, which leaves their parity correct whatever it was before.
 *
 * Locking: every head belongs to one hash bucket; the bucket's spinlock
 * protects the bucket's hash chains and idle list and, for its heads,
 * the pending list, busy and users.  No lock covers the whole VD.  A head
 * stays hashed while idle, so its pages remain valid for the next writes
 * of that column; an idle head is reused (and its pages invalidated) only
 * when its bucket has no free head left.
 */
#include <linux/blkdev.h>
#include <linux/bio.h>
#include <linux/hash.h>
#include <linux/highmem.h>
#include <linux/raid/xor.h>
#include <linux/raid/pq.h>
#include <linux/slab.h>

#include "vraid.h"
#include "level.h"
#include "journal.h"
#include "job.h"
#include "bitmap.h"

#define SH_SECTORS	(PAGE_SIZE >> SECTOR_SHIFT)
#define SC_BUCKETS	16		/* power of two */
#define SC_HASH		32		/* chains per bucket, power of two */
/*
 * Heads per VD: SC_HEAD_BYTES of pages, within [SC_HEADS_MIN,
 * SC_HEADS_MAX].  A full-stripe write needs a head per column of its
 * rows at once (a 1 MiB write on a 4-member RAID5: 86); a submitter that
 * finds none free sleeps, which flushes its plug and splits the batch
 * into reads.  So that several large writes in flight (and a row of 1 MiB
 * strips, 256 columns) find theirs: 1024 heads up to 8 members (16 MiB
 * of pages with 4, 32 MiB with 8), fewer on wider VDs, whose rows hold
 * more data per column (256 with 32 members).
 */
#define SC_HEAD_BYTES	(32U << 20)
#define SC_HEADS_MIN	256
#define SC_HEADS_MAX	1024

/* Flags of a column block (struct vraid_sdev.flags). */
#define SDEV_UPTODATE	BIT(0)		/* page holds the block's content */
#define SDEV_RERR	BIT(1)		/* the last read of it failed */
#define SDEV_DIRTY	BIT(2)		/* to be written */
#define SDEV_WERR	BIT(3)		/* the write failed */
/*
 * The read was not sent, the member having failed since the row was
 * looked at (vraid_row_init()): the block is to be reconstructed.
 */
#define SDEV_LOST	BIT(4)

struct vraid_sdev {
	struct page *page;
	struct bio bio;			/* embedded: no allocation for I/O */
	struct bio_vec vec;
	unsigned long flags;
	u32 gen;			/* of the bio: vraid_member_get() */
};

struct vraid_bucket {
	spinlock_t lock;		/* see the top of this file */
	struct hlist_head hash[SC_HASH];
	struct list_head idle;		/* heads with no work, LRU first */
	wait_queue_head_t wait;		/* for an idle head */
};

struct vraid_stripe_cache {
	struct vraid_vd *vd;
	u32 width;			/* members per span */
	u32 data;			/* data blocks per row */
	mempool_t piece_pool;
	mempool_t pio_pool;
	struct bio_set read_set;	/* direct reads */
	struct vraid_bucket buckets[SC_BUCKETS];
	struct vraid_stripe **heads;
	u32 nr_heads;
};

/* Everything a head needs to know about its row, computed per batch. */
struct vraid_row {
	u32 width, data, parity;	/* members, data blocks, 1 or 2 */
	u32 slot[VRAID_MAX_MEMBERS + 2];	/* ptr index -> slot */
	u32 p, q;			/* slots of P and Q (q: U32_MAX) */
	u8 written[VRAID_MAX_MEMBERS];	/* sectors written, per data idx */
	/* per data idx: the cache page the whole block was last written from */
	struct page *cpage[VRAID_MAX_MEMBERS];
	bool read[VRAID_MAX_MEMBERS];	/* data idx to serve reads from */
	bool failed[VRAID_MAX_MEMBERS];	/* per slot: not readable */
	bool nowrite[VRAID_MAX_MEMBERS];	/* per slot: not writable */
	void *ptr[VRAID_MAX_MEMBERS + 2];	/* data idx order, P, Q */
};

/* A head's batch between the stages of its handling (vraid_head_begin()). */
struct vraid_hstate {
	struct list_head batch;		/* the pieces being handled */
	struct list_head sync;		/* job pieces, handled after them */
	bool want[VRAID_MAX_MEMBERS];	/* per slot: block to read */
	bool any_write, fua;
	bool full;			/* read the whole row, rebuild it */
	bool rmw;			/* read-modify-write (else rcw) */
	bool ready;			/* the row's writes are to go out */
	bool wrote;			/* ... they went out */
	blk_status_t status;
	/* its parity record from vraid_log_row() until durable (logging) */
	bool logging;
	struct vraid_journal_column jp;
	struct page *jdata[VRAID_MAX_MEMBERS];
	u64 jdsec[VRAID_MAX_MEMBERS], jver[VRAID_MAX_MEMBERS];
	u32 jdidx[VRAID_MAX_MEMBERS];
	/* a job's piece taken in stages (vraid_sync_begin()) */
	struct vraid_piece *spc;
	u8 sstage;			/* VRAID_SSTAGE_* */
	bool sinval;			/* forget the row's blocks at the end */
	int serr;
};

/* What a job's piece has sent (struct vraid_hstate.sstage). */
#define VRAID_SSTAGE_NONE	0	/* nothing: complete it */
#define VRAID_SSTAGE_READ	1	/* the row's reads */
#define VRAID_SSTAGE_WRITE	2	/* its writes */

struct vraid_stripe {
	struct hlist_node hash;
	struct list_head idle;
	struct vraid_stripe_cache *sc;
	struct vraid_bucket *bucket;
	bool hashed;
	bool busy;			/* work queued or running */
	u32 users;			/* submitters attaching pieces */
	u32 span;
	u64 msector;			/* member sector of the column */
	struct list_head pending;	/* pieces not yet taken */
	struct list_head plugged;	/* on a vraid_plug, waiting to start */
	struct vraid_subq *subq;	/* its member I/Os wait there (heads work) */
	struct work_struct work;
	atomic_t io_pending;
	struct completion io_done;
	struct vraid_row row;		/* the batch being handled */
	struct vraid_hstate hs;		/* and what was decided for it */
	struct vraid_sdev *dev;		/* per member of the span */
};

/* A VD bio going through the stripe cache; from sc->pio_pool. */
struct vraid_pio {
	struct vraid_vd *vd;
	struct bio *bio;
	unsigned long start;
	atomic_t remaining;
	blk_status_t status;
	bool destage;			/* its pages are the cache's */
};

/* The part of a VD bio that falls in one column; from sc->piece_pool. */
struct vraid_piece {
	struct list_head list;
	struct vraid_pio *pio;
	struct bvec_iter iter;		/* its data within pio->bio */
	u32 data_idx;			/* data index in the row */
	u32 offset;			/* first sector within the column */
	u32 sectors;
	bool write;
	bool fua;
	bool repair;			/* a direct read of it failed */
	struct vraid_sync *sync;	/* a job's piece: no pio, no data */
	struct page *cpage;		/* a destage's whole block: its page */
};

/* Front pad of a direct read clone. */
struct vraid_dread {
	struct vraid_vd *vd;
	struct bio *bio;
	unsigned long start;
	u32 member;
	u32 gen;			/* vraid_member_get() */
	bool repair;			/* rewrite the block (a read error) */
	struct work_struct work;
	struct bio clone;		/* must be last */
};

static void vraid_pio_put(struct vraid_pio *pio)
{
	struct vraid_vd *vd = pio->vd;

	if (!atomic_dec_and_test(&pio->remaining))
		return;
	if (pio->status)
		pio->bio->bi_status = pio->status;
	vraid_io_done(vd, pio->bio, pio->start);
	mempool_free(pio, &vd->sc->pio_pool);
}

static struct vraid_bucket *vraid_bucket_of(struct vraid_stripe_cache *sc,
					    u32 span, u64 msector, u32 *chain)
{
	u64 key = (msector >> (PAGE_SHIFT - SECTOR_SHIFT)) ^
		  ((u64)span << 48);
	u32 h = hash_64(key, 16);

	*chain = (h / SC_BUCKETS) & (SC_HASH - 1);
	return &sc->buckets[h & (SC_BUCKETS - 1)];
}

/* Find or set up the head of a column and hold it (users++). */
static struct vraid_stripe *vraid_get_stripe(struct vraid_stripe_cache *sc,
					     u32 span, u64 msector)
{
	struct vraid_bucket *b;
	struct vraid_stripe *sh;
	u32 chain, i;

	b = vraid_bucket_of(sc, span, msector, &chain);
	spin_lock(&b->lock);
	for (;;) {
		hlist_for_each_entry(sh, &b->hash[chain], hash) {
			if (sh->span == span && sh->msector == msector) {
				if (!sh->busy && !sh->users)
					list_del_init(&sh->idle);
				sh->users++;
				spin_unlock(&b->lock);
				return sh;
			}
		}
		if (!list_empty(&b->idle))
			break;
		spin_unlock(&b->lock);
		wait_event(b->wait, !list_empty_careful(&b->idle));
		spin_lock(&b->lock);
	}
	/* Reuse the least recently used idle head of this bucket. */
	sh = list_first_entry(&b->idle, struct vraid_stripe, idle);
	list_del_init(&sh->idle);
	if (sh->hashed)
		hlist_del(&sh->hash);
	sh->span = span;
	sh->msector = msector;
	for (i = 0; i < sc->width; i++)
		sh->dev[i].flags = 0;
	hlist_add_head(&sh->hash, &b->hash[chain]);
	sh->hashed = true;
	sh->users = 1;
	spin_unlock(&b->lock);
	return sh;
}

/* Called with the bucket lock held. */
static void vraid_stripe_maybe_idle(struct vraid_stripe *sh)
{
	struct vraid_bucket *b = sh->bucket;

	if (sh->busy || sh->users)
		return;
	list_add_tail(&sh->idle, &b->idle);
	wake_up(&b->wait);
}

/*
 * The member I/Os of a run of neighbouring columns (one span), held by
 * vraid_heads_work() and sent member by member: each member's then merge
 * into one request, even where the member takes one request at a time
 * and the submitter sleeps for its tag between them.  Used by that work
 * alone.
 */
struct vraid_subq {
	struct bio_list m[VRAID_MAX_MEMBERS];	/* by slot in the span */
	u64 next;			/* the member sector the run goes on at */
	u32 span;
};

/*
 * Heads started while the submitter holds a block plug wait for the
 * unplug, so that the other strips of a full-stripe write (split into
 * one bio per strip) join the same batch and the head reads nothing.
 */
struct vraid_plug {
	struct blk_plug_cb cb;		/* must be first: freed as a whole */
	struct list_head heads;
	struct work_struct work;	/* vraid_heads_work() */
	bool user;			/* a head was started by a user's piece */
	struct vraid_subq subq;
};

static void vraid_heads_work(struct work_struct *work);

static void vraid_unplug(struct blk_plug_cb *cb, bool from_schedule)
{
	struct vraid_plug *plug = container_of(cb, struct vraid_plug, cb);
	struct vraid_stripe *sh, *tmp;

	if (!list_empty(&plug->heads) && !list_is_singular(&plug->heads)) {
		/* the heads belong to this plug until vraid_heads_work() */
		INIT_WORK(&plug->work, vraid_heads_work);
		queue_work(vraid_wq, &plug->work);
		return;
	}
	list_for_each_entry_safe(sh, tmp, &plug->heads, plugged) {
		list_del_init(&sh->plugged);
		queue_work(vraid_wq, &sh->work);
	}
	kfree(plug);
}

static void vraid_attach(struct vraid_stripe *sh, struct vraid_piece *pc)
{
	struct vraid_bucket *b = sh->bucket;
	bool user = !pc->sync;
	struct blk_plug_cb *cb;
	bool start;

	spin_lock(&b->lock);
	list_add_tail(&pc->list, &sh->pending);
	start = !sh->busy;
	sh->busy = true;
	sh->users--;
	spin_unlock(&b->lock);
	if (!start)
		return;
	/* Only this task can start @sh now: it owns sh->plugged. */
	cb = blk_check_plugged(vraid_unplug, sh->sc, sizeof(struct vraid_plug));
	if (cb) {
		struct vraid_plug *plug = container_of(cb, struct vraid_plug,
						       cb);

		if (!plug->heads.next)
			INIT_LIST_HEAD(&plug->heads);
		list_add_tail(&sh->plugged, &plug->heads);
		plug->user |= user;
		return;
	}
	queue_work(vraid_wq, &sh->work);
}

/* ---- member I/O of a head ---- */

static u32 vraid_sh_member(struct vraid_stripe *sh, u32 slot)
{
	return sh->span * sh->sc->width + slot;
}

/*
 * The member's count goes here, at the completion; what it says is
 * looked at later, by the head's work (vraid_read_end(),
 * vraid_write_end()), which compares the generation for that reason.
 */
static void vraid_sdev_endio(struct bio *bio)
{
	struct vraid_stripe *sh = bio->bi_private;
	struct vraid_sdev *dev = container_of(bio, struct vraid_sdev, bio);

	bio_uninit(bio);
	if (bio->bi_status) {
		if (op_is_write(bio_op(bio)))
			set_bit(SDEV_WERR, &dev->flags);
		else
			set_bit(SDEV_RERR, &dev->flags);
	}
	vraid_member_put(sh->sc->vd, vraid_sh_member(sh, dev - sh->dev));
	if (atomic_dec_and_test(&sh->io_pending))
		complete(&sh->io_done);
}

/*
 * Send block @slot's read or write, if the member takes it as its state
 * is now (not as the row saw it: a member may fail, and its role get a
 * new device, while the head waits).  False if it does not.
 */
static bool vraid_sdev_submit(struct vraid_stripe *sh, u32 slot,
			      blk_opf_t opf)
{
	struct vraid_vd *vd = sh->sc->vd;
	struct vraid_sdev *dev = &sh->dev[slot];
	u32 member = vraid_sh_member(sh, slot);

	if (!vraid_member_get(vd, member, VRAID_MGET_WRITABLE, &dev->gen))
		return false;
	/*
	 * A read only where the device the role holds now (held: no swap
	 * can change it until the put) has the row: Online, or rebuilt
	 * past it.  The row's guess (vraid_row_init()) may be older.
	 */
	if (!op_is_write(opf) &&
	    !vraid_member_in_sync(vd, member, sh->msector + SH_SECTORS)) {
		vraid_member_put(vd, member);
		return false;
	}
	bio_init(&dev->bio, vd->members[member].h.bdev, &dev->vec, 1, opf);
	__bio_add_page(&dev->bio, dev->page, PAGE_SIZE, 0);
	dev->bio.bi_iter.bi_sector = VRAID_DATA_OFFSET_SECTORS + sh->msector;
	dev->bio.bi_private = sh;
	dev->bio.bi_end_io = vraid_sdev_endio;
	if (op_is_write(opf))
		this_cpu_inc(vd->stats->member_writes[member]);
	else
		this_cpu_inc(vd->stats->member_reads[member]);
	atomic_inc(&sh->io_pending);
	if (sh->subq)
		bio_list_add(&sh->subq->m[slot], &dev->bio);
	else
		submit_bio_noacct(&dev->bio);
	return true;
}

/* Send what @q holds, member by member. */
static void vraid_subq_flush(struct vraid_subq *q)
{
	struct bio *bio;
	u32 slot;

	for (slot = 0; slot < VRAID_MAX_MEMBERS; slot++)
		while ((bio = bio_list_pop(&q->m[slot])))
			submit_bio_noacct(bio);
}

/* @sh's member I/Os go to @q, after the run's if @sh does not go on it. */
static void vraid_subq_join(struct vraid_subq *q, struct vraid_stripe *sh)
{
	if (sh->span != q->span || sh->msector != q->next)
		vraid_subq_flush(q);
	q->span = sh->span;
	q->next = sh->msector + SH_SECTORS;
	sh->subq = q;
}

static void vraid_sh_io_start(struct vraid_stripe *sh)
{
	atomic_set(&sh->io_pending, 1);
	reinit_completion(&sh->io_done);
}

static void vraid_sh_io_wait(struct vraid_stripe *sh)
{
	if (atomic_dec_and_test(&sh->io_pending))
		return;
	/* what it waits for may be held back (vraid_heads_work()) */
	if (sh->subq)
		vraid_subq_flush(sh->subq);
	wait_for_completion(&sh->io_done);
}

/* ---- parity arithmetic ---- */

static void vraid_xor(void *dest, void **srcs, u32 count)
{
	while (count) {
		u32 n = min_t(u32, count, MAX_XOR_BLOCKS);

		xor_blocks(n, PAGE_SIZE, dest, srcs);
		srcs += n;
		count -= n;
	}
}

static void vraid_row_init(struct vraid_stripe *sh, struct vraid_row *r)
{
	struct vraid_stripe_cache *sc = sh->sc;
	struct vraid_vd *vd = sc->vd;
	const struct vraid_geom *g = &vd->geom;
	u64 stripe = sh->msector >> g->strip_shift;
	u32 i, first = sh->span * sc->width;

	memset(r, 0, sizeof(*r));
	r->width = sc->width;
	r->data = sc->data;
	r->parity = r->width - r->data;
	for (i = 0; i < r->data; i++)
		r->slot[i] = vraid_layout_data_member(g, sh->span, stripe, i) -
			     first;
	r->p = vraid_layout_p_member(g, sh->span, stripe) - first;
	r->slot[r->data] = r->p;
	r->q = U32_MAX;
	if (r->parity == 2) {
		r->q = vraid_layout_q_member(g, sh->span, stripe) - first;
		r->slot[r->data + 1] = r->q;
	}
	for (i = 0; i < r->width; i++) {
		/* a member being rebuilt is read where it is rebuilt */
		r->failed[i] = !vraid_member_in_sync(vd, first + i,
						     sh->msector + SH_SECTORS);
		r->nowrite[i] = !vraid_member_writable(vd, first + i);
		r->ptr[i] = page_address(sh->dev[r->slot[i]].page);
	}
}

/* Mask of the sectors of a column a piece covers. */
static u8 vraid_piece_mask(struct vraid_piece *pc)
{
	return (u8)(((1U << pc->sectors) - 1) << pc->offset);
}

static bool vraid_dev_uptodate(struct vraid_stripe *sh, u32 slot)
{
	return test_bit(SDEV_UPTODATE, &sh->dev[slot].flags);
}

/* Send reads of the blocks in @want that are not up to date. */
static void vraid_read_submit(struct vraid_stripe *sh, struct vraid_row *r,
			      const bool *want)
{
	u32 slot;

	vraid_sh_io_start(sh);
	for (slot = 0; slot < r->width; slot++) {
		if (!want[slot] || r->failed[slot] ||
		    vraid_dev_uptodate(sh, slot))
			continue;
		clear_bit(SDEV_RERR, &sh->dev[slot].flags);
		if (!vraid_sdev_submit(sh, slot, REQ_OP_READ)) {
			/* failed since: reconstruct it (vraid_read_end()) */
			r->failed[slot] = true;
			set_bit(SDEV_LOST, &sh->dev[slot].flags);
		}
	}
}

/*
 * Wait for vraid_read_submit()'s reads; false on a read error, or if a
 * block wanted could not be read after all (SDEV_LOST): the row is then
 * to be reconstructed (r->failed says which blocks are missing).
 */
static bool vraid_read_end(struct vraid_stripe *sh, struct vraid_row *r,
			   const bool *want)
{
	struct vraid_vd *vd = sh->sc->vd;
	bool ok = true;
	u32 slot;

	vraid_sh_io_wait(sh);
	for (slot = 0; slot < r->width; slot++) {
		struct vraid_sdev *dev = &sh->dev[slot];
		u32 member = vraid_sh_member(sh, slot);

		if (test_and_clear_bit(SDEV_LOST, &dev->flags)) {
			ok = false;
			continue;
		}
		if (!want[slot] || r->failed[slot] ||
		    vraid_dev_uptodate(sh, slot))
			continue;
		if (!vraid_member_current(vd, member, dev->gen)) {
			/*
			 * Read from the device the role had before a replace
			 * (its count dropped at the completion, so the swap
			 * may have come since): neither its data nor its
			 * error is the role's now.
			 */
			r->failed[slot] = true;
			clear_bit(SDEV_RERR, &dev->flags);
			ok = false;
			continue;
		}
		if (test_bit(SDEV_RERR, &dev->flags)) {
			this_cpu_inc(vd->stats->member_errors[member]);
			pr_err_ratelimited("%s: read error on member %u (%s) at sector %llu, reconstructing\n",
					   vd->disk->disk_name, member,
					   vd->members[member].name,
					   (unsigned long long)sh->msector);
			ok = false;
		} else {
			set_bit(SDEV_UPTODATE, &dev->flags);
		}
	}
	return ok;
}

/* Read the blocks in @want that are not up to date; false on a read error. */
static bool vraid_read_blocks(struct vraid_stripe *sh, struct vraid_row *r,
			      const bool *want)
{
	vraid_read_submit(sh, r, want);
	return vraid_read_end(sh, r, want);
}

/*
 * Once every surviving block is read: reconstruct the missing ones
 * (failed members, read errors).  Returns false if more blocks are
 * missing than the level can rebuild.
 */
static bool vraid_rebuild_missing(struct vraid_stripe *sh, struct vraid_row *r)
{
	u32 miss[VRAID_MAX_MEMBERS + 2], nmiss = 0;
	u32 i;
	int a, b;

	/* Missing blocks by ptr index (data idx, then P, then Q). */
	for (i = 0; i < r->width; i++)
		if (!vraid_dev_uptodate(sh, r->slot[i]))
			miss[nmiss++] = i;
	if (nmiss > r->parity)
		return false;
	if (!nmiss)
		return true;

	if (r->parity == 1) {
		/* RAID5: the missing block is the XOR of the others. */
		void *srcs[VRAID_MAX_MEMBERS];
		u32 n = 0;

		for (i = 0; i < r->width; i++)
			if (i != miss[0])
				srcs[n++] = r->ptr[i];
		memset(r->ptr[miss[0]], 0, PAGE_SIZE);
		vraid_xor(r->ptr[miss[0]], srcs, n);
	} else {
		a = miss[0];
		b = nmiss > 1 ? miss[1] : -1;
		if (a >= r->data) {
			/* Only P and/or Q missing: recomputed below. */
			raid6_call.gen_syndrome(r->width, PAGE_SIZE, r->ptr);
		} else if (b < 0 || b == r->data) {
			/* One data block (and maybe P): use Q. */
			raid6_datap_recov(r->width, PAGE_SIZE, a, r->ptr);
		} else if (b == r->data + 1) {
			/* A data block and Q: the data from P, then Q. */
			void *srcs[VRAID_MAX_MEMBERS];
			u32 n = 0;

			for (i = 0; i <= r->data; i++)
				if (i != a)
					srcs[n++] = r->ptr[i];
			memset(r->ptr[a], 0, PAGE_SIZE);
			vraid_xor(r->ptr[a], srcs, n);
			raid6_call.gen_syndrome(r->width, PAGE_SIZE, r->ptr);
		} else {
			raid6_2data_recov(r->width, PAGE_SIZE, a, b, r->ptr);
		}
	}
	for (i = 0; i < nmiss; i++)
		set_bit(SDEV_UPTODATE, &sh->dev[r->slot[miss[i]]].flags);
	return true;
}

/* Read every surviving block of the row that is not up to date. */
static void vraid_read_row(struct vraid_stripe *sh, struct vraid_row *r)
{
	bool want[VRAID_MAX_MEMBERS];
	u32 slot;

	for (slot = 0; slot < r->width; slot++)
		want[slot] = true;
	vraid_read_blocks(sh, r, want);
}

/*
 * Make every block of the row up to date: read all the surviving blocks
 * and reconstruct the missing ones.  Returns false if more blocks are
 * missing than the level can rebuild.
 */
static bool vraid_reconstruct(struct vraid_stripe *sh, struct vraid_row *r)
{
	vraid_read_row(sh, r);
	return vraid_rebuild_missing(sh, r);
}

static void vraid_copy_piece(struct vraid_piece *pc, void *page, bool to_page)
{
	struct bio *bio = pc->pio->bio;
	char *p = (char *)page + (pc->offset << SECTOR_SHIFT);
	struct bvec_iter it;
	struct bio_vec bv;

	__bio_for_each_segment(bv, bio, it, pc->iter) {
		if (to_page)
			memcpy_from_bvec(p, &bv);
		else
			memcpy_to_bvec(&bv, p);
		p += bv.bv_len;
	}
}

/*
 * Send the blocks marked dirty, and those that failed to read (repair),
 * to every member that takes writes.
 */
static void vraid_write_submit(struct vraid_stripe *sh, struct vraid_row *r,
			       bool fua)
{
	struct vraid_vd *vd = sh->sc->vd;
	u32 slot;

	vraid_sh_io_start(sh);
	for (slot = 0; slot < r->width; slot++) {
		struct vraid_sdev *dev = &sh->dev[slot];

		if (r->nowrite[slot] || !vraid_dev_uptodate(sh, slot))
			continue;
		if (!test_bit(SDEV_DIRTY, &dev->flags) &&
		    !test_bit(SDEV_RERR, &dev->flags))
			continue;
		clear_bit(SDEV_WERR, &dev->flags);
		/* failed since the row was looked at: nothing to write to */
		if (!vraid_sdev_submit(sh, slot, REQ_OP_WRITE |
				       (fua ? REQ_FUA : vraid_member_fua(vd)) |
				       REQ_SYNC))
			r->nowrite[slot] = true;
	}
}

/* Wait for vraid_write_submit()'s writes; fail members whose writes fail. */
static void vraid_write_end(struct vraid_stripe *sh, struct vraid_row *r)
{
	struct vraid_vd *vd = sh->sc->vd;
	bool cur;
	u32 slot;

	vraid_sh_io_wait(sh);
	for (slot = 0; slot < r->width; slot++) {
		struct vraid_sdev *dev = &sh->dev[slot];
		u32 member = vraid_sh_member(sh, slot);
		bool was_dirty = test_and_clear_bit(SDEV_DIRTY, &dev->flags);
		bool was_rerr = test_and_clear_bit(SDEV_RERR, &dev->flags);

		if (r->nowrite[slot] || (!was_dirty && !was_rerr) ||
		    !vraid_dev_uptodate(sh, slot))
			continue;
		/*
		 * Written to the device the role had before a replace: its
		 * error fails nothing (vraid_member_fail_io()), its success
		 * repaired nothing; the new device is rebuilt anyway.
		 */
		cur = vraid_member_current(vd, member, dev->gen);
		if (test_bit(SDEV_WERR, &dev->flags)) {
			if (cur)
				this_cpu_inc(vd->stats->member_errors[member]);
			clear_bit(SDEV_UPTODATE, &dev->flags);
			vraid_member_fail_io(vd, member, dev->gen, was_dirty ?
					     "write error" :
					     "read error that a rewrite could not correct");
		} else if (was_rerr && cur) {
			this_cpu_inc(vd->stats->read_repairs);
			pr_warn_ratelimited("%s: read error on member %u (%s) at sector %llu corrected from parity\n",
					    vd->disk->disk_name, member,
					    vd->members[member].name,
					    (unsigned long long)sh->msector);
		}
	}
}

/*
 * A VD logging to the journal: before the column's writes go out, its new
 * data blocks and P/Q go to the journal (a parity record), so that a
 * replay makes the column consistent whatever the crash tore.  A block
 * wholly written from a cache page that a user record logged is named
 * there rather than logged again (vraid_journal_page_version()); one the cache
 * read from the members to complete the row (VRAID_JVER_MEMBERS) is left
 * out.  A column with no block left needs no record: it writes what the
 * members hold (vraid_journal_parity() takes none).
 */
static void vraid_log_row(struct vraid_stripe *sh, struct vraid_row *r)
{
	struct vraid_vd *vd = sh->sc->vd;
	const struct vraid_geom *g = &vd->geom;
	struct vraid_hstate *hs = &sh->hs;
	struct page **data = hs->jdata;
	u64 *dsec = hs->jdsec, *ver = hs->jver;
	u32 *didx = hs->jdidx, i, n = 0;
	u64 stripe = sh->msector >> g->strip_shift;
	u32 offset = sh->msector & (g->strip_sectors - 1);

	for (i = 0; i < r->data; i++) {
		if (!r->written[i])
			continue;
		ver[n] = r->cpage[i] ?
			 vraid_journal_page_version(r->cpage[i]) : 0;
		/* the members hold it: as a block a write does not change */
		if (ver[n] == VRAID_JVER_MEMBERS)
			continue;
		data[n] = sh->dev[r->slot[i]].page;
		didx[n] = i;
		dsec[n] = vraid_layout_vsector(g, sh->span, stripe, i, offset);
		n++;
	}
	hs->logging = vraid_journal_parity_start(&hs->jp, vd, sh->span,
						 sh->msector, data, didx, dsec,
						 ver, n, sh->dev[r->p].page,
						 r->q != U32_MAX ?
						 sh->dev[r->q].page : NULL);
}

/*
 * Stage 1 of a head's batch (hs->batch): choose how to compute the row
 * and send the reads that needs.
 */
static void vraid_batch_begin(struct vraid_stripe *sh)
{
	struct vraid_vd *vd = sh->sc->vd;
	struct vraid_row *r = &sh->row;
	struct vraid_hstate *hs = &sh->hs;
	struct vraid_piece *pc;
	u32 i, slot, rcw_reads = 0, rmw_reads = 0;
	bool rcw_ok = true, rmw_ok;

	memset(hs->want, 0, sizeof(hs->want));
	hs->any_write = false;
	hs->fua = false;
	hs->full = false;
	hs->rmw = false;
	hs->ready = false;
	hs->wrote = false;
	hs->logging = false;
	hs->status = BLK_STS_OK;
	vraid_row_init(sh, r);

	list_for_each_entry(pc, &hs->batch, list) {
		if (pc->write) {
			r->written[pc->data_idx] |= vraid_piece_mask(pc);
			/* the last write of a block decides what it holds */
			r->cpage[pc->data_idx] = pc->cpage;
			hs->any_write = true;
			hs->fua |= pc->fua;
		} else {
			r->read[pc->data_idx] = true;
			/* Rewrite it, from the head's copy or rebuilt. */
			if (pc->repair)
				set_bit(SDEV_RERR,
					&sh->dev[r->slot[pc->data_idx]].flags);
		}
	}

	/* Reads of a data block on a failed member need the whole row. */
	for (i = 0; i < r->data; i++) {
		if (r->read[i] && r->failed[r->slot[i]])
			hs->full = true;
		if (r->read[i])
			hs->want[r->slot[i]] = true;
	}

	if (hs->any_write && !hs->full) {
		/* Reconstruct-write: every data block not wholly rewritten. */
		for (i = 0; i < r->data; i++) {
			slot = r->slot[i];
			if (r->written[i] == 0xff)
				continue;
			if (r->failed[slot])
				rcw_ok = false;
			else if (!vraid_dev_uptodate(sh, slot))
				rcw_reads++;
		}
		/*
		 * Read-modify-write (RAID5): old data written over, and P;
		 * only where the parity is known to be right already.
		 */
		rmw_ok = r->parity == 1 && !r->failed[r->p] &&
			 sh->msector < READ_ONCE(vd->init_pos);
		for (i = 0; i < r->data && rmw_ok; i++) {
			slot = r->slot[i];
			if (!r->written[i])
				continue;
			if (r->failed[slot])
				rmw_ok = false;
			else if (!vraid_dev_uptodate(sh, slot))
				rmw_reads++;
		}
		if (rmw_ok && !vraid_dev_uptodate(sh, r->p))
			rmw_reads++;

		if (rmw_ok && (!rcw_ok || rmw_reads < rcw_reads)) {
			hs->rmw = true;
			for (i = 0; i < r->data; i++)
				if (r->written[i])
					hs->want[r->slot[i]] = true;
			hs->want[r->p] = true;
		} else if (rcw_ok) {
			for (i = 0; i < r->data; i++)
				if (r->written[i] != 0xff)
					hs->want[r->slot[i]] = true;
		} else {
			hs->full = true;
		}
	}

	/* the whole row: read every surviving block now (vraid_reconstruct()) */
	if (hs->full)
		for (slot = 0; slot < r->width; slot++)
			hs->want[slot] = true;
	vraid_read_submit(sh, r, hs->want);
}

/*
 * Stage 2: once the reads are in (or the row rebuilt), overlay the new
 * data, compute the parity and send the writes.
 */
static void vraid_batch_write(struct vraid_stripe *sh)
{
	struct vraid_vd *vd = sh->sc->vd;
	struct vraid_row *r = &sh->row;
	struct vraid_hstate *hs = &sh->hs;
	struct vraid_piece *pc;
	u32 i;

	if (!vraid_read_end(sh, r, hs->want) && !hs->full) {
		/* a read error: read the rest of the row, rebuild it instead */
		hs->full = true;
		hs->rmw = false;
		vraid_read_row(sh, r);
	}
	/* every surviving block is read: rebuild the missing ones */
	if (hs->full && !vraid_rebuild_missing(sh, r)) {
		hs->status = BLK_STS_IOERR;
		return;
	}

	if (hs->any_write) {
		void *p = r->ptr[r->data];

		/* RMW: P ^= old data; then the new data goes in; P ^= new. */
		if (hs->rmw)
			for (i = 0; i < r->data; i++)
				if (r->written[i])
					vraid_xor(p, &r->ptr[i], 1);
		list_for_each_entry(pc, &hs->batch, list)
			if (pc->write)
				vraid_copy_piece(pc, r->ptr[pc->data_idx], true);
		if (hs->rmw) {
			for (i = 0; i < r->data; i++)
				if (r->written[i])
					vraid_xor(p, &r->ptr[i], 1);
		} else if (r->parity == 1) {
			memcpy(p, r->ptr[0], PAGE_SIZE);
			vraid_xor(p, &r->ptr[1], r->data - 1);
		} else {
			raid6_call.gen_syndrome(r->width, PAGE_SIZE, r->ptr);
		}
		for (i = 0; i < r->data; i++) {
			if (!r->written[i])
				continue;
			/* Wholly rewritten blocks were not read: now valid. */
			set_bit(SDEV_UPTODATE, &sh->dev[r->slot[i]].flags);
			set_bit(SDEV_DIRTY, &sh->dev[r->slot[i]].flags);
		}
		set_bit(SDEV_DIRTY, &sh->dev[r->p].flags);
		set_bit(SDEV_UPTODATE, &sh->dev[r->p].flags);
		if (r->q != U32_MAX) {
			set_bit(SDEV_DIRTY, &sh->dev[r->q].flags);
			set_bit(SDEV_UPTODATE, &sh->dev[r->q].flags);
		}
	}

	/*
	 * while the VD's metadata names the journal (jparity), every column
	 * write is logged: also those of an unbind's drain, and writes sent
	 * around the cache while it drains (or in flight as it began)
	 */
	if (hs->any_write && READ_ONCE(vd->jparity))
		vraid_log_row(sh, r);
	hs->ready = true;
}

/*
 * Stage 2, the end: once its record is durable, send the row's writes
 * (nothing if vraid_batch_write() computed none: an error, a job's head).
 */
static void vraid_batch_send(struct vraid_stripe *sh)
{
	struct vraid_hstate *hs = &sh->hs;

	if (!hs->ready)
		return;
	if (hs->logging) {
		vraid_journal_parity_wait(&hs->jp);
		hs->logging = false;
	}
	vraid_write_submit(sh, &sh->row, hs->fua);
	hs->ready = false;
	hs->wrote = true;
}

/* Stage 3: once the writes are done, serve the reads, complete the pieces. */
static void vraid_batch_end(struct vraid_stripe *sh)
{
	struct vraid_stripe_cache *sc = sh->sc;
	struct vraid_row *r = &sh->row;
	struct vraid_hstate *hs = &sh->hs;
	struct vraid_piece *pc, *tmp;
	u32 slot;

	if (hs->wrote) {
		vraid_write_end(sh, r);
		if (READ_ONCE(sc->vd->state) == VRAID_VD_OFFLINE)
			hs->status = BLK_STS_IOERR;
	}
	if (!hs->status) {
		list_for_each_entry(pc, &hs->batch, list)
			if (!pc->write)
				vraid_copy_piece(pc, r->ptr[pc->data_idx],
						 false);
	} else {
		for (slot = 0; slot < sc->width; slot++)
			sh->dev[slot].flags = 0;
	}
	list_for_each_entry_safe(pc, tmp, &hs->batch, list) {
		struct vraid_pio *pio = pc->pio;

		if (hs->status)
			pio->status = hs->status;
		list_del(&pc->list);
		mempool_free(pc, &sc->piece_pool);
		vraid_pio_put(pio);
	}
}

static void vraid_sync_done(struct vraid_sync *sy, int error)
{
	if (error)
		sy->error = error;
	if (atomic_dec_and_test(&sy->remaining))
		complete(&sy->done);
}

/* Is the parity of the row (all blocks up to date) right? */
static bool vraid_parity_matches(struct vraid_row *r)
{
	void *p = r->ptr[r->data];
	bool ok;

	/* XOR the data into the parity read: all zero when it matches. */
	if (r->parity == 1) {
		vraid_xor(p, r->ptr, r->data);
		ok = !memchr_inv(p, 0, PAGE_SIZE);
	} else {
		raid6_call.xor_syndrome(r->width, 0, r->data - 1, PAGE_SIZE,
					r->ptr);
		ok = !memchr_inv(p, 0, PAGE_SIZE) &&
		     !memchr_inv(r->ptr[r->data + 1], 0, PAGE_SIZE);
	}
	/* Either way, P (and Q) now hold what they should. */
	if (r->parity == 1) {
		memcpy(p, r->ptr[0], PAGE_SIZE);
		vraid_xor(p, &r->ptr[1], r->data - 1);
	} else {
		raid6_call.gen_syndrome(r->width, PAGE_SIZE, r->ptr);
	}
	return ok;
}

/*
 * A job's piece: rebuild, check, repair or initialise one column, in
 * the stages of a head's handling, so that the heads of a job's step
 * send their member I/Os together (vraid_heads_work()) and they merge.
 * First read every surviving block (what is on the members, not what
 * the head holds).
 */
static void vraid_sync_begin(struct vraid_stripe *sh, struct vraid_piece *pc)
{
	struct vraid_hstate *hs = &sh->hs;
	struct vraid_row *r = &sh->row;
	u32 slot, missing = 0;

	hs->spc = pc;
	hs->sstage = VRAID_SSTAGE_NONE;
	hs->sinval = false;
	hs->serr = 0;
	vraid_row_init(sh, r);
	for (slot = 0; slot < r->width; slot++) {
		clear_bit(SDEV_UPTODATE, &sh->dev[slot].flags);
		hs->want[slot] = true;
		if (r->failed[slot])
			missing++;
	}
	/* Nothing to rebuild; or a degraded row, which cannot be checked. */
	if (pc->sync->type == VRAID_JOB_REBUILD ? !missing : missing) {
		hs->sinval = missing;
		return;
	}
	vraid_read_submit(sh, r, hs->want);
	hs->sstage = VRAID_SSTAGE_READ;
}

/* Once the reads are in: rebuild or check the row, send its writes. */
static void vraid_sync_write(struct vraid_stripe *sh)
{
	struct vraid_hstate *hs = &sh->hs;
	struct vraid_sync *sy = hs->spc->sync;
	struct vraid_vd *vd = sh->sc->vd;
	struct vraid_row *r = &sh->row;
	u32 slot;
	bool ok;

	if (hs->sstage != VRAID_SSTAGE_READ)
		return;
	hs->sstage = VRAID_SSTAGE_NONE;
	ok = vraid_read_end(sh, r, hs->want);
	if (sy->type == VRAID_JOB_REBUILD) {
		if (!vraid_rebuild_missing(sh, r))
			goto error;
		/*
		 * Only the blocks not read (r->failed): a member rebuilt
		 * past the row already holds its block, which after an
		 * unclean shutdown may be the only good copy of it.
		 */
		for (slot = 0; slot < r->width; slot++)
			if (r->failed[slot] &&
			    READ_ONCE(vd->members[vraid_sh_member(sh, slot)].state) ==
			    VRAID_MEMBER_REBUILDING)
				set_bit(SDEV_DIRTY, &sh->dev[slot].flags);
	} else {
		/* a read error: read it again, else rebuild it */
		if (!ok && !vraid_reconstruct(sh, r))
			goto error;
		if (!vraid_parity_matches(r)) {
			atomic64_inc(&sy->mismatches);
			if (sy->type == VRAID_JOB_CHECK) {
				/* Leave it as it is on the members. */
				clear_bit(SDEV_UPTODATE, &sh->dev[r->p].flags);
				if (r->q != U32_MAX)
					clear_bit(SDEV_UPTODATE,
						  &sh->dev[r->q].flags);
			} else {
				set_bit(SDEV_DIRTY, &sh->dev[r->p].flags);
				if (r->q != U32_MAX)
					set_bit(SDEV_DIRTY,
						&sh->dev[r->q].flags);
			}
		}
	}
	vraid_write_submit(sh, r, false);
	hs->sstage = VRAID_SSTAGE_WRITE;
	return;
error:
	hs->serr = -EIO;
	hs->sinval = true;
}

/* Once the writes are done: complete the piece. */
static void vraid_sync_end(struct vraid_stripe *sh)
{
	struct vraid_hstate *hs = &sh->hs;
	struct vraid_piece *pc = hs->spc;
	struct vraid_sync *sy = pc->sync;
	u32 slot;

	if (hs->sstage == VRAID_SSTAGE_WRITE) {
		vraid_write_end(sh, &sh->row);
		if (READ_ONCE(sh->sc->vd->state) == VRAID_VD_OFFLINE)
			hs->serr = -EIO;
	}
	if (hs->sinval)
		for (slot = 0; slot < sh->sc->width; slot++)
			sh->dev[slot].flags = 0;
	hs->spc = NULL;
	mempool_free(pc, &sh->sc->piece_pool);
	vraid_sync_done(sy, hs->serr);
}

/* A job's piece in one go (it came with user pieces). */
static void vraid_sync_column(struct vraid_stripe *sh, struct vraid_piece *pc)
{
	vraid_sync_begin(sh, pc);
	vraid_sync_write(sh);
	vraid_sync_end(sh);
}

/*
 * A head's handling, in stages so that the heads of one plug can take
 * each stage together (vraid_heads_work()): take what is pending and
 * send the reads; compute and send the writes; complete, then the job
 * pieces; then let the head go.
 */
static void vraid_head_begin(struct vraid_stripe *sh)
{
	struct vraid_hstate *hs = &sh->hs;
	struct vraid_bucket *b = sh->bucket;
	struct vraid_piece *pc, *tmp;

	INIT_LIST_HEAD(&hs->batch);
	INIT_LIST_HEAD(&hs->sync);
	spin_lock(&b->lock);
	list_splice_init(&sh->pending, &hs->batch);
	spin_unlock(&b->lock);

	list_for_each_entry_safe(pc, tmp, &hs->batch, list)
		if (pc->sync)
			list_move_tail(&pc->list, &hs->sync);
	hs->spc = NULL;
	if (!list_empty(&hs->batch)) {
		vraid_batch_begin(sh);
	} else if (list_is_singular(&hs->sync)) {
		/* a job's piece alone, as a job's step sends them */
		pc = list_first_entry(&hs->sync, struct vraid_piece, list);
		list_del(&pc->list);
		vraid_sync_begin(sh, pc);
	}
}

/* Stage 2: compute the row (its writes: vraid_batch_send()). */
static void vraid_head_write(struct vraid_stripe *sh)
{
	if (!list_empty(&sh->hs.batch))
		vraid_batch_write(sh);
	else if (sh->hs.spc)
		vraid_sync_write(sh);
}

static void vraid_head_end(struct vraid_stripe *sh)
{
	struct vraid_hstate *hs = &sh->hs;
	struct vraid_bucket *b = sh->bucket;
	struct vraid_piece *pc, *tmp;

	if (!list_empty(&hs->batch))
		vraid_batch_end(sh);
	if (hs->spc)
		vraid_sync_end(sh);
	list_for_each_entry_safe(pc, tmp, &hs->sync, list) {
		list_del(&pc->list);
		vraid_sync_column(sh, pc);
	}

	spin_lock(&b->lock);
	if (!list_empty(&sh->pending)) {
		/* More arrived meanwhile: go again (busy stays set). */
		spin_unlock(&b->lock);
		queue_work(vraid_wq, &sh->work);
		return;
	}
	sh->busy = false;
	vraid_stripe_maybe_idle(sh);
	spin_unlock(&b->lock);
}

static void vraid_stripe_work(struct work_struct *work)
{
	struct vraid_stripe *sh = container_of(work, struct vraid_stripe, work);

	vraid_head_begin(sh);
	vraid_head_write(sh);
	vraid_batch_send(sh);
	vraid_head_end(sh);
}

/*
 * The heads a plug started (vraid_unplug()), each stage for all of them
 * under a block plug, the member I/Os of a run of neighbouring columns
 * held and sent member by member (struct vraid_subq): they merge.  A
 * head that has to wait (its reads, a rebuilt row) sends what is held
 * and flushes the plug as it sleeps.  The rows' writes go out once all
 * are computed, so that their parity records (started as each is) share
 * journal writes, and the writes wait for them in turn.
 */
static void vraid_heads_work(struct work_struct *work)
{
	struct vraid_plug *plug = container_of(work, struct vraid_plug, work);
	struct vraid_subq *q = &plug->subq;
	struct vraid_stripe *sh, *tmp;
	struct blk_plug bp;

	blk_start_plug(&bp);
	list_for_each_entry(sh, &plug->heads, plugged) {
		vraid_subq_join(q, sh);
		vraid_head_begin(sh);
		sh->subq = NULL;
	}
	vraid_subq_flush(q);
	blk_finish_plug(&bp);
	blk_start_plug(&bp);
	list_for_each_entry(sh, &plug->heads, plugged) {
		vraid_subq_join(q, sh);
		vraid_head_write(sh);
		sh->subq = NULL;
	}
	vraid_subq_flush(q);
	list_for_each_entry(sh, &plug->heads, plugged) {
		vraid_subq_join(q, sh);
		vraid_batch_send(sh);
		sh->subq = NULL;
	}
	vraid_subq_flush(q);
	blk_finish_plug(&bp);
	list_for_each_entry_safe(sh, tmp, &plug->heads, plugged) {
		/* before it may be started again, by another plug */
		list_del_init(&sh->plugged);
		vraid_head_end(sh);
	}
	kfree(plug);
}

/* ---- the VD bio ---- */

/* Cut @bio (within one strip) into column pieces on their heads. */
static void vraid_parity_cache_bio(struct vraid_vd *vd, struct bio *bio,
				   struct vraid_pio *pio, bool repair)
{
	struct vraid_stripe_cache *sc = vd->sc;
	struct vraid_parity_loc loc;
	struct bvec_iter iter = bio->bi_iter;
	u64 msector;
	u32 left = bio_sectors(bio);

	vraid_layout_parity(&vd->geom, bio->bi_iter.bi_sector, &loc);
	msector = loc.sector;
	while (left) {
		u32 off = msector & (SH_SECTORS - 1);
		u32 n = min_t(u32, left, SH_SECTORS - off);
		struct vraid_stripe *sh;
		struct vraid_piece *pc;

		pc = mempool_alloc(&sc->piece_pool, GFP_NOIO);
		pc->pio = pio;
		pc->iter = iter;
		pc->iter.bi_size = n << SECTOR_SHIFT;
		pc->data_idx = loc.data_idx;
		pc->offset = off;
		pc->sectors = n;
		pc->write = op_is_write(bio_op(bio));
		pc->fua = bio->bi_opf & REQ_FUA;
		pc->repair = repair;
		pc->sync = NULL;
		pc->cpage = NULL;
		if (pio->destage && pc->write && n == SH_SECTORS) {
			struct bio_vec bv = bio_iter_iovec(bio, iter);

			if (!bv.bv_offset && bv.bv_len == PAGE_SIZE)
				pc->cpage = bv.bv_page;
		}
		atomic_inc(&pio->remaining);

		sh = vraid_get_stripe(sc, loc.span, msector - off);
		vraid_attach(sh, pc);

		bio_advance_iter(bio, &iter, n << SECTOR_SHIFT);
		msector += n;
		left -= n;
	}
}

static void vraid_parity_via_cache(struct vraid_vd *vd, struct bio *bio,
				   unsigned long start, bool repair,
				   bool destage)
{
	struct vraid_pio *pio;

	pio = mempool_alloc(&vd->sc->pio_pool, GFP_NOIO);
	pio->vd = vd;
	pio->bio = bio;
	pio->start = start;
	pio->status = BLK_STS_OK;
	pio->destage = destage;
	atomic_set(&pio->remaining, 1);
	vraid_parity_cache_bio(vd, bio, pio, repair);
	vraid_pio_put(pio);
}

static void vraid_dread_work(struct work_struct *work)
{
	struct vraid_dread *dr = container_of(work, struct vraid_dread, work);
	struct vraid_vd *vd = dr->vd;
	struct bio *bio = dr->bio;
	unsigned long start = dr->start;
	bool repair = dr->repair;

	bio_put(&dr->clone);
	/*
	 * The head reads the block again (or reconstructs it, the member
	 * having failed since), and after a read error rewrites it.  That
	 * rewrite is of the data the head holds for the block, right for
	 * whichever device the role has by then.
	 */
	vraid_parity_via_cache(vd, bio, start, repair, false);
}

static void vraid_dread_endio(struct bio *clone)
{
	struct vraid_dread *dr = container_of(clone, struct vraid_dread, clone);
	struct vraid_vd *vd = dr->vd;
	u32 member = dr->member;
	blk_status_t status = clone->bi_status;
	bool cur = vraid_member_current(vd, member, dr->gen);
	unsigned long start;
	struct bio *bio;

	/*
	 * From the device the role had before a replace (not while the
	 * drain waits for this; vraid.h): neither its data nor its error is
	 * the role's.  Through the stripe cache, as a failed read, without
	 * a rewrite (a read-ahead just fails).
	 */
	if (unlikely(!cur))
		status = BLK_STS_IOERR;
	else if (status)
		this_cpu_inc(vd->stats->member_errors[member]);
	if (status && !(dr->bio->bi_opf & REQ_RAHEAD)) {
		dr->repair = cur;
		INIT_WORK(&dr->work, vraid_dread_work);
		queue_work(vraid_wait_wq, &dr->work);
		vraid_member_put(vd, member);
		return;
	}
	bio = dr->bio;
	start = dr->start;
	bio->bi_status = status;
	bio_put(clone);		/* frees dr, the clone's front pad */
	vraid_member_put(vd, member);
	vraid_io_done(vd, bio, start);
}

/* @arg: non-NULL for a destage (vraid_parity_bio()) */
static void vraid_parity_resume(struct vraid_vd *vd, struct bio *bio,
				unsigned long start, void *arg)
{
	vraid_parity_via_cache(vd, bio, start, false, arg);
}

static void vraid_parity_bio(struct vraid_vd *vd, struct bio *bio,
			     u32 flags)
{
	struct vraid_parity_loc loc;
	unsigned long start;
	u32 gen;

	if (unlikely(bio_op(bio) != REQ_OP_READ &&
		     bio_op(bio) != REQ_OP_WRITE)) {
		bio->bi_status = BLK_STS_NOTSUPP;
		bio_endio(bio);
		return;
	}
	percpu_ref_get(&vd->active);
	start = vraid_io_start(vd, bio, flags);
	vraid_layout_parity(&vd->geom, bio->bi_iter.bi_sector, &loc);

	if (bio_op(bio) == REQ_OP_READ &&
	    vraid_member_get(vd, loc.member, VRAID_MGET_ONLINE, &gen)) {
		struct vraid_dread *dr;
		struct bio *clone;

		clone = bio_alloc_clone(vd->members[loc.member].h.bdev, bio,
					GFP_NOIO, &vd->sc->read_set);
		dr = container_of(clone, struct vraid_dread, clone);
		dr->vd = vd;
		dr->bio = bio;
		dr->start = start;
		dr->member = loc.member;
		dr->gen = gen;
		clone->bi_iter.bi_sector = VRAID_DATA_OFFSET_SECTORS +
					   loc.sector;
		clone->bi_end_io = vraid_dread_endio;
		this_cpu_inc(vd->stats->member_reads[loc.member]);
		submit_bio_noacct(clone);
		return;
	}
	/* A write waits for its region's bit in the write-intent bitmap. */
	if (op_is_write(bio_op(bio)) && vd->bitmap &&
	    !vraid_bitmap_start(vd, bio, start, vraid_parity_resume,
				(flags & VRAID_SUB_DESTAGE) ? vd : NULL))
		return;
	vraid_parity_via_cache(vd, bio, start, false,
			       flags & VRAID_SUB_DESTAGE);
}

/*
 * Member sectors of a job's step: up to VRAID_PSYNC_COLUMNS columns (512
 * KiB of each member, about what md's resync sends), a power of two, and
 * at most a quarter of the heads, so that user I/O finds heads too.
 */
static u32 vraid_parity_sync_step(struct vraid_vd *vd)
{
	u32 cols = vd->sc->nr_heads / (4 * vd->geom.spans);

	cols = rounddown_pow_of_two(clamp_t(u32, cols, 16,
					    VRAID_PSYNC_COLUMNS));
	return cols << (PAGE_SHIFT - SECTOR_SHIFT);
}

/*
 * One step of a job: every column of member sectors [@msector, +@len) of
 * every span.  Waits for them; returns 0 or a negative errno.  The heads
 * start at the unplug, together (vraid_unplug()): each stage's member
 * I/Os of neighbouring columns merge into large requests.
 */
static int vraid_parity_sync(struct vraid_vd *vd, struct vraid_sync *sy,
			     u64 msector, u32 len, void *run)
{
	struct vraid_stripe_cache *sc = vd->sc;
	struct blk_plug plug;
	u32 span, off;

	if (sy->type != VRAID_JOB_REBUILD && sc->width - sc->data == 2 &&
	    !raid6_call.xor_syndrome)
		return -EOPNOTSUPP;
	atomic_set(&sy->remaining, 1);
	init_completion(&sy->done);
	blk_start_plug(&plug);
	for (span = 0; span < vd->geom.spans; span++) {
		for (off = 0; off < len; off += SH_SECTORS) {
			struct vraid_piece *pc;
			struct vraid_stripe *sh;

			pc = mempool_alloc(&sc->piece_pool, GFP_NOIO);
			memset(pc, 0, sizeof(*pc));
			pc->sync = sy;
			pc->sectors = SH_SECTORS;
			atomic_inc(&sy->remaining);
			sh = vraid_get_stripe(sc, span, msector + off);
			vraid_attach(sh, pc);
		}
	}
	blk_finish_plug(&plug);
	vraid_sync_done(sy, 0);
	wait_for_completion(&sy->done);
	return sy->error;
}

/*
 * Forget every cached block (a member's device changed, or the journal's
 * replay wrote the members).  No I/O runs.
 */
static void vraid_parity_invalidate(struct vraid_vd *vd)
{
	struct vraid_stripe_cache *sc = vd->sc;
	u32 i, j;

	for (i = 0; i < sc->nr_heads; i++) {
		struct vraid_stripe *sh = sc->heads[i];
		struct vraid_bucket *b = sh->bucket;

		spin_lock(&b->lock);
		if (!sh->busy)
			for (j = 0; j < sc->width; j++)
				clear_bit(SDEV_UPTODATE, &sh->dev[j].flags);
		spin_unlock(&b->lock);
	}
}

static void vraid_free_heads(struct vraid_stripe_cache *sc)
{
	u32 i, j;

	for (i = 0; i < sc->nr_heads; i++) {
		struct vraid_stripe *sh = sc->heads[i];

		if (!sh)
			continue;
		for (j = 0; sh->dev && j < sc->width; j++)
			if (sh->dev[j].page)
				__free_page(sh->dev[j].page);
		kfree(sh->dev);
		kfree(sh);
	}
	kvfree(sc->heads);
}

static int vraid_parity_init(struct vraid_vd *vd)
{
	struct vraid_stripe_cache *sc;
	u32 i, j;
	int ret = -ENOMEM;

	sc = kzalloc(sizeof(*sc), GFP_KERNEL);
	if (!sc)
		return -ENOMEM;
	sc->vd = vd;
	sc->width = vraid_layout_span_width(&vd->geom);
	sc->data = vraid_layout_span_data(&vd->geom);
	sc->nr_heads = clamp_t(u32, SC_HEAD_BYTES / (sc->width * PAGE_SIZE),
			       SC_HEADS_MIN, SC_HEADS_MAX);
	for (i = 0; i < SC_BUCKETS; i++) {
		struct vraid_bucket *b = &sc->buckets[i];

		spin_lock_init(&b->lock);
		for (j = 0; j < SC_HASH; j++)
			INIT_HLIST_HEAD(&b->hash[j]);
		INIT_LIST_HEAD(&b->idle);
		init_waitqueue_head(&b->wait);
	}
	sc->heads = kvcalloc(sc->nr_heads, sizeof(*sc->heads), GFP_KERNEL);
	if (!sc->heads)
		goto out_sc;
	for (i = 0; i < sc->nr_heads; i++) {
		struct vraid_stripe *sh;

		sh = kzalloc(sizeof(*sh), GFP_KERNEL);
		if (!sh)
			goto out_heads;
		sc->heads[i] = sh;
		sh->dev = kcalloc(sc->width, sizeof(*sh->dev), GFP_KERNEL);
		if (!sh->dev)
			goto out_heads;
		for (j = 0; j < sc->width; j++) {
			sh->dev[j].page = alloc_page(GFP_KERNEL);
			if (!sh->dev[j].page)
				goto out_heads;
		}
		sh->sc = sc;
		sh->bucket = &sc->buckets[i % SC_BUCKETS];
		INIT_LIST_HEAD(&sh->pending);
		INIT_LIST_HEAD(&sh->plugged);
		INIT_WORK(&sh->work, vraid_stripe_work);
		init_completion(&sh->io_done);
		list_add_tail(&sh->idle, &sh->bucket->idle);
	}
	ret = mempool_init_kmalloc_pool(&sc->piece_pool, 64,
					sizeof(struct vraid_piece));
	if (ret)
		goto out_heads;
	ret = mempool_init_kmalloc_pool(&sc->pio_pool, 16,
					sizeof(struct vraid_pio));
	if (ret)
		goto out_piece;
	/*
	 * A rescuer: read clones wait in current->bio_list until
	 * ->submit_bio returns, so a read cut into many pieces there could
	 * otherwise wait for a clone of its own that is not sent yet.
	 */
	ret = bioset_init(&sc->read_set, BIO_POOL_SIZE,
			  offsetof(struct vraid_dread, clone),
			  BIOSET_NEED_RESCUER);
	if (ret)
		goto out_pio;
	vd->sc = sc;
	return 0;

out_pio:
	mempool_exit(&sc->pio_pool);
out_piece:
	mempool_exit(&sc->piece_pool);
out_heads:
	vraid_free_heads(sc);
out_sc:
	kfree(sc);
	return ret;
}

static void vraid_parity_exit(struct vraid_vd *vd)
{
	struct vraid_stripe_cache *sc = vd->sc;

	/* No I/O is in flight: vraid_io_exit() drained vd->active. */
	flush_workqueue(vraid_wait_wq);
	flush_workqueue(vraid_wq);
	bioset_exit(&sc->read_set);
	mempool_exit(&sc->pio_pool);
	mempool_exit(&sc->piece_pool);
	vraid_free_heads(sc);
	kfree(sc);
	vd->sc = NULL;
}

/* RAID5/6 and RAID50/60: P (and Q) may be missing in every span. */
static u32 vraid_parity_tolerance(const struct vraid_geom *g)
{
	return vraid_layout_parity_strips(g->level);
}

static u32 vraid_parity_group_width(const struct vraid_geom *g)
{
	return vraid_layout_span_width(g);
}

/*
 * No chunk_sectors: io.c cuts at strips itself, under a plug
 * (vraid_engine_cut()).  Parity
 * is computed over 4 KiB columns; discard and write zeroes are not
 * offered (a discarded block's content is not defined, so parity over
 * it would not be either).
 */
static void vraid_parity_limits(struct vraid_vd *vd, struct queue_limits *lim)
{
	lim->max_hw_discard_sectors = 0;
	lim->max_discard_sectors = 0;
	lim->max_write_zeroes_sectors = 0;
}

const struct vraid_level_ops vraid_parity_ops = {
	.init		= vraid_parity_init,
	.exit		= vraid_parity_exit,
	.submit		= vraid_parity_bio,
	.limits		= vraid_parity_limits,
	.tolerance	= vraid_parity_tolerance,
	.group_width	= vraid_parity_group_width,
	.sync_step	= vraid_parity_sync_step,
	.sync		= vraid_parity_sync,
	.invalidate	= vraid_parity_invalidate,
	.row_writes	= true,
};
