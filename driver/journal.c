// SPDX-License-Identifier: GPL-2.0
/*
 * The controller's journal (its "battery"), a first form of the plan in
 * Documentation/cache-design.rst ("The journal"); the format is
 * jformat.c's.
 *
 * Binding
 * -------
 * One journal device for the controller.  While it is healthy, a VD with
 * write policy wb is bound to it: the VD's metadata names the journal
 * (cache flag JOURNAL, the journal's UUID, a floor: its records below are
 * void) before its first record.
 *
 * Records
 * -------
 * Every write the cache takes of a bound VD is logged before it completes:
 * a record is a header block and the data, one FUA write.  The writes that
 * queue while VRAID_RECORDS_IN_FLIGHT records are in flight share the next
 * one (group commit).
 *
 * Writes the cache does not take go to the members with FUA, then log an
 * INVALIDATE, so that a replay never writes an older logged version over
 * them.
 *
 * Records complete strictly in sequence order, so no completed record ever
 * follows a torn one: the scan at attach stops at the first bad record.
 *
 * A logged write (struct vraid_journal_write) goes through these states:
 *
 *   open       on j->open, waiting for a record; a DATA write is held
 *              until its pages are all in the cache (vraid_journal_data_go())
 *   recorded   on its record's list, the record in flight
 *   done       the record is durable: the user bio completes
 *   fallback   the record failed (DATA): the VD's cache drains to the
 *              members, which flush (vraid_fallback_work()), then it parks
 *   parked     not journalled, its data on the members: it completes once
 *              the VD's metadata no longer names the journal (the unbind)
 *
 * open -> recorded -> done is the rule.  A write whose record failed or
 * found no room, or that a VD being unbound takes off the open list
 * (vraid_open_writes_evict()), goes to fallback (DATA) or parked
 * (INVALIDATE).  The lists j->open, fallback and parked change under
 * j->lock.
 *
 * Parity records
 * --------------
 * Before a RAID5/6/50/60 VD bound to the journal writes a column (destage,
 * or a write sent around the cache), its new data blocks and P (and Q) are
 * logged, and the member writes wait until that record and every earlier
 * one are durable (vraid_journal_parity_wait()).
 *
 * A data block a destage writes whole from a cache page that a user record
 * logged is not logged again: the parity record names that record's DATA
 * entry (vraid_journal_page_version()), which is durable before it.
 *
 * The columns that queue while VRAID_PARITY_IN_FLIGHT parity records are
 * in flight share the next one (group commit, as user records do): a
 * header and a journal write per batch, not per 4 KiB row.
 *
 * Replay writes them straight to the members, so a column torn by the
 * crash is consistent again even on a Degraded VD (the write hole).
 *
 * The tail: checkpoints
 * ---------------------
 * Reclaim is a checkpoint: with the head noted, every bound VD's dirty
 * data goes to the members, which flush; then the tail moves to the noted
 * head in the superblock, and only then is the space reused.
 *
 * A checkpoint waits for destages, which wait for their parity records,
 * so those never wait for ring space: one that does not fit fails the
 * journal.
 *
 * So, with a parity VD bound: user records leave room for parity records
 * (vraid_jparity_reserve()), a checkpoint starts earlier, writes around the
 * cache wait while one runs, dirty data is capped
 * (vraid_journal_dirty_cap()), and so are the pages writers put in the
 * cache before their record reserves (vraid_journal_admit()).  That keeps
 * the parity records fitting (Documentation/cache-design.rst, "Parity
 * records and the write hole").
 *
 * With only mirrors bound, dirty data is capped too, by the same rule with
 * no parity: that bounds how long a checkpoint's drain takes.
 *
 * Replay
 * ------
 * A VD whose metadata names the journal has its records from the floor on
 * written again before its disk goes live, in order: parity records
 * straight to the members, then the DATA entries through the engine,
 * minus what a later INVALIDATE covers.
 *
 * After a crash the journal holds records of VDs not assembled yet
 * (replay pending): until each has been assembled (or the records are
 * discarded) nothing is logged, the tail stays, and wb writes through.
 *
 * The journal's state (j->state, changed under j->lock):
 *
 *   attach          -> HEALTHY, or REPLAY_PENDING if it holds records of
 *                      VDs not assembled (vraid_journal_scan())
 *   REPLAY_PENDING  -> HEALTHY: the last such VD assembled, or discard;
 *                      the tail jumps to the head
 *   HEALTHY         -> FAILED: a record write failed, or a parity record
 *                      did not fit (vraid_journal_fail_locked())
 *   HEALTHY         -> NONE: detach, after a last checkpoint; a detach
 *                      frees the journal whatever its state
 *
 * Unbind
 * ------
 * On a policy change or a stop the VD stops logging, its writes in flight
 * end (those whose record did not start park), its cache drains to the
 * members, which flush, and its metadata stops naming the journal.
 *
 * While the cache drains, writes go around it as a bound VD's writes the
 * cache does not take do (to the members, then an INVALIDATE; on parity
 * VDs their columns log parity records), so that none waits for the drain
 * unless it overlaps dirty data.
 *
 * Failure
 * -------
 * The first failed record write fails the journal.  The writes of that
 * and every later record complete once their VD is drained to the members
 * and flushed, and its metadata no longer names the journal (as do the
 * writes of a VD being unbound that find no record: parked).
 *
 * Every VD is then unbound, and writes through.
 *
 * Locking
 * -------
 * vraid_journal.lock (spinlock, irq-safe) protects the head, the tail, the
 * records in flight, the writes and columns waiting for one and the
 * state, for O(1) work (a batch's take: a header's worth).
 *
 * vraid_journal.vds_mutex protects the bound VDs' list, binding, the
 * pending set and tail moves (checkpoint, replay, discard); taken by the
 * control plane, the checkpoint and the failure work, never on the I/O
 * path.
 *
 * vraid_ctl_mutex covers attach and detach.  The I/O path reaches the
 * journal only through a bound VD, and a VD is unbound (its records all
 * done) before the journal goes.
 */
#include <linux/module.h>
#include <linux/blkdev.h>
#include <linux/bio.h>
#include <linux/delay.h>
#include <linux/highmem.h>
#include <linux/interval_tree_generic.h>
#include <linux/mempool.h>
#include <linux/random.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "vraid.h"
#include "level.h"
#include "cache.h"
#include "journal.h"
#include "bitmap.h"
#include "core/jformat.h"
#include "core/metadata.h"
#include "core/layout.h"

#define VRAID_WRITE_MAX_PAGES	32	/* data pages of a write at most */
#define VRAID_JOURNAL_POOL	16	/* records the pools guarantee */
#define VRAID_PENDING_MAX	16	/* VD UUIDs awaiting replay, tracked */

/* A write to log (DATA) or whose INVALIDATE to log, until its record is done. */
struct vraid_journal_write {
	struct list_head node;		/* the open list, then its record's */
	struct vraid_vd *vd;
	struct bio *user;		/* completed with the record */
	unsigned long start;		/* user's accounting, 0: none */
	u64 sector, sectors;		/* INVALIDATE: sectors */
	u32 type;			/* VRAID_JE_DATA or _INVALIDATE */
	u32 n;				/* DATA: pages */
	bool unlogged;		/* n pages in vraid_unlogged_pages */
	/*
	 * (j->lock) held: queued, its pages not all in the cache yet
	 * (vraid_journal_data_queue()); record_done, record_ok: its record was
	 * done meanwhile, journalled or not, and vraid_journal_data_go()
	 * completes it.
	 */
	bool held, record_done, record_ok;
	struct page *pages[VRAID_WRITE_MAX_PAGES];
};

/* A record in flight; front pad of its bio. */
struct vraid_record {
	struct list_head node;		/* vraid_journal.inflight, by seq */
	struct list_head writes;	/* the writes it logs */
	struct list_head columns;	/* or the columns; neither: a PAD */
	u64 seq;
	bool done;
	bool ok;			/* done, and journalled */
	blk_status_t status;
	struct page *hdr;
	struct bio bio;			/* must be last */
};

struct vraid_journal {
	struct vraid_bdev_handle h;
	char name[BDEVNAME_SIZE];
	u8 uuid[VRAID_J_UUID_LEN];
	u64 ring;		/* blocks */
	u64 generation;		/* superblock generation */
	u64 created;

	spinlock_t lock;		/* see the top of this file */
	u32 state;			/* VRAID_JOURNAL_* */
	u64 head_block, head_seq;	/* where the next record goes */
	u64 tail_block, tail_seq;	/* the superblock's tail */
	u64 acked_seq;			/* records up to it are done */
	struct list_head inflight;	/* records by seq */
	struct list_head fallback;	/* writes done, not journalled */
	struct list_head parked;	/* the same, out: wait for the unbind */
	struct list_head open;		/* writes waiting for a record */
	u32 records_in_flight;	/* records (not PADs) in flight */
	bool leader;			/* someone builds records of open */
	struct list_head open_columns;	/* columns waiting for a record */
	u32 parity_in_flight;	/* parity records in flight */
	bool parity_leader;	/* someone builds records of open_columns */
	bool checkpoint_queued;	/* a checkpoint is queued or runs */
	bool checkpoint_running;	/* a checkpoint waits for destage */
	unsigned long checkpoint_start;	/* jiffies | 1 it began; 0: none */
	/* the VD whose members the checkpoint flushes (lock) */
	struct vraid_vd *checkpoint_flush_vd;
	u32 parity_blocks;	/* P/Q blocks of bound VDs, at most */
	u64 parity_reserve;	/* blocks user records leave free */
	u32 bypass_pages;	/* of writes sent around (parity) */
	wait_queue_head_t wait;		/* space, records done */
	atomic_t record_ios;	/* record bios not fully completed */

	struct mutex vds_mutex;		/* see the top of this file */
	struct list_head vds;		/* bound VDs (vraid_vd.jnode) */
	u32 nr_vds;
	u8 pending[VRAID_PENDING_MAX][VRAID_J_UUID_LEN];
	u32 nr_pending;
	bool pending_overflow;		/* more VDs than tracked */

	struct work_struct checkpoint_work;	/* checkpoint */
	struct work_struct fail_work;	/* unbind every VD */
	struct work_struct fallback_work;	/* complete fallback writes */
	struct work_struct pump_work;	/* build records of open writes */
	struct work_struct parity_pump_work;	/* and of open columns */
	mempool_t header_pool;	/* header pages */
	mempool_t write_pool;	/* struct vraid_journal_write */
	struct bio_set rec_set;		/* records */
	struct bio_set bypass_set;	/* clones of writes sent around */
};

/* vraid_ctl_mutex; freed after a grace period (vraid_journal_state()) */
static struct vraid_journal *vraid_attached_journal;
/* dirty pages allowed, for the parity records to fit (vds_mutex) */
static unsigned long vraid_dirty_cap_pages = ULONG_MAX;
/*
 * Pages writers of bound VDs put in the cache that no user record has
 * reserved yet (so a destage would log them again), and those of writes
 * that ended unlogged (a VD being unbound, the journal failing) until a
 * tail move puts their parity records behind it: writers wait before
 * they put more in while the two reach vraid_unlogged_max
 * (vraid_journal_admit(); vraid_jparity_unlogged_max()).  Outside the
 * journal, for the writers that wait without a reference; zeroed when
 * the journal detaches (its writes have all ended).
 */
static atomic_long_t vraid_unlogged_pages = ATOMIC_LONG_INIT(0);
static atomic_long_t vraid_unlogged_spent = ATOMIC_LONG_INIT(0);
static unsigned long vraid_unlogged_max = ULONG_MAX;
static DECLARE_WAIT_QUEUE_HEAD(vraid_admit_wait);
/* vraid_journal.record_ios reaching zero: outside the journal, which then goes */
static DECLARE_WAIT_QUEUE_HEAD(vraid_journal_idle);
/*
 * Checkpoints and the failure work: they wait for destage (on
 * vraid_cache_wq) and write metadata, so neither may run there.
 */
static struct workqueue_struct *vraid_journal_wq;
/*
 * Building and sending records (group commit) and logging the
 * INVALIDATEs of writes sent around the cache: they wait for ring space,
 * that is for a checkpoint on vraid_journal_wq.
 */
static struct workqueue_struct *vraid_journal_submit_wq;
/*
 * Building and sending parity records: never waits for ring space, and
 * what waits for ring space (above) waits for it.
 */
static struct workqueue_struct *vraid_journal_parity_wq;

#define VRAID_RECORDS_IN_FLIGHT	2	/* records in flight before batching */
#define VRAID_PARITY_IN_FLIGHT	2	/* the same, of parity records */
#define VRAID_RECORD_MAX_PAGES	128	/* data pages of one record at most */
#define VRAID_RECORD_MAX_ENTRIES	((VRAID_J_BLOCK - VRAID_J_HDR_SIZE) / \
				 VRAID_JE_DATA_SIZE)
static_assert(BIT(VRAID_JVER_ENTRY_BITS) >= VRAID_RECORD_MAX_ENTRIES,
	      "a cache page's version holds its entry's index");
static_assert(VRAID_J_MAX_SEQ < (~0UL >> VRAID_JVER_ENTRY_BITS) / 2,
	      "a version of the largest sequence is below VRAID_JVER_MEMBERS");

/* A cache page's version (vraid_journal_page_version()) and back. */
static u64 vraid_version_of(u64 seq, u32 entry)
{
	return seq << VRAID_JVER_ENTRY_BITS | entry;
}

static u64 vraid_version_seq(u64 ver)
{
	return ver >> VRAID_JVER_ENTRY_BITS;
}

static void vraid_record_endio(struct bio *bio);
static bool vraid_journal_resume_locked(struct vraid_journal *j);

/* P/Q blocks per row of @vd's level: 0 for the levels without parity. */
static u32 vraid_parity_blocks(struct vraid_vd *vd)
{
	return vraid_layout_parity_strips(vd->geom.level);
}

static u64 vraid_journal_sector(struct vraid_journal *j, u64 block)
{
	return VRAID_J_RING_START + block * (VRAID_J_BLOCK >> SECTOR_SHIFT);
}

/* Read or write @n pages at @sector of the journal device, waiting. */
static int vraid_journal_io(struct vraid_journal *j, u64 sector,
			    struct page **pages, u32 n, blk_opf_t opf)
{
	struct bio *bio;
	u32 i;
	int ret;

	bio = bio_alloc(j->h.bdev, n, opf, GFP_NOIO);
	bio->bi_iter.bi_sector = sector;
	for (i = 0; i < n; i++)
		__bio_add_page(bio, pages[i], PAGE_SIZE, 0);
	ret = submit_bio_wait(bio);
	bio_put(bio);
	return ret;
}

/* Write the superblock (generation + 1, tail as given, @flags). */
static int vraid_journal_write_super(struct vraid_journal *j, u64 tail_block,
				     u64 tail_seq, u32 flags)
{
	struct vraid_jsb sb = { 0 };
	struct page *page;
	int ret;

	page = alloc_page(GFP_NOIO);
	if (!page)
		return -ENOMEM;
	sb.generation = ++j->generation;
	sb.created = j->created;
	memcpy(sb.uuid, j->uuid, sizeof(sb.uuid));
	sb.ring_start = VRAID_J_RING_START;
	sb.ring_blocks = j->ring;
	sb.tail_block = tail_block;
	sb.tail_seq = tail_seq;
	sb.flags = flags;
	vraid_jsb_encode(&sb, page_address(page));
	ret = vraid_journal_io(j, sb.generation % 2 ? VRAID_J_SB_SECTOR1 :
			       VRAID_J_SB_SECTOR0, &page, 1,
			       REQ_OP_WRITE | REQ_SYNC | REQ_FUA);
	__free_page(page);
	return ret;
}

/* ---- the pending set: VDs with records that are not replayed yet ---- */

static bool vraid_pending_find(struct vraid_journal *j, const u8 *uuid,
			       u32 *at)
{
	u32 i;

	for (i = 0; i < j->nr_pending; i++)
		if (!memcmp(j->pending[i], uuid, VRAID_J_UUID_LEN)) {
			*at = i;
			return true;
		}
	return false;
}

static void vraid_pending_add(struct vraid_journal *j, const u8 *uuid)
{
	u32 i;

	if (vraid_pending_find(j, uuid, &i))
		return;
	if (j->nr_pending == VRAID_PENDING_MAX) {
		j->pending_overflow = true;
		return;
	}
	memcpy(j->pending[j->nr_pending++], uuid, VRAID_J_UUID_LEN);
}

/* ---- walking the records from the tail ---- */

/* What a walk sees of one record. */
struct vraid_walk {
	u64 block, seq;
	struct vraid_jhdr hdr;
	u8 *blk;			/* the header block */
	struct page **pages;		/* its payload: VRAID_J_MAX_PAYLOAD */
};

/*
 * Read and check the record at @w->block with seq @w->seq: 0, or
 * -ENODATA where the log ends (no record, an older one, a torn one).
 */
/*
 * Read into @hpage and check the header of the record at ring block
 * @block with seq @seq: 0, -EIO, or -ENODATA (no such record there).
 */
static int vraid_record_header_read(struct vraid_journal *j, u64 block, u64 seq,
				    struct page *hpage, struct vraid_jhdr *hdr)
{
	char why[96];

	if (vraid_journal_io(j, vraid_journal_sector(j, block), &hpage, 1,
			     REQ_OP_READ | REQ_SYNC))
		return -EIO;
	if (vraid_jhdr_decode(page_address(hpage), hdr, why, sizeof(why)) ||
	    vraid_jhdr_expect(hdr, j->uuid, seq, block, j->ring, why,
			      sizeof(why)))
		return -ENODATA;
	return 0;
}

static int vraid_walk_read(struct vraid_journal *j, struct vraid_walk *w,
			   struct page *hpage)
{
	u32 crc = 0, i;
	int ret;

	ret = vraid_record_header_read(j, w->block, w->seq, hpage, &w->hdr);
	if (ret)
		return ret;
	w->blk = page_address(hpage);
	if (w->hdr.flags & VRAID_J_REC_PAD)
		return 0;
	for (i = 0; i < w->hdr.payload_blocks; i += VRAID_WRITE_MAX_PAGES) {
		u32 n = min_t(u32, VRAID_WRITE_MAX_PAGES,
			      w->hdr.payload_blocks - i);

		if (vraid_journal_io(j,
				     vraid_journal_sector(j, w->block + 1 + i),
				     w->pages + i, n, REQ_OP_READ | REQ_SYNC))
			return -EIO;
	}
	for (i = 0; i < w->hdr.payload_blocks; i++)
		crc = vraid_crc32c(crc, page_address(w->pages[i]), PAGE_SIZE);
	return crc == w->hdr.payload_crc ? 0 : -ENODATA;
}

static void vraid_walk_next(struct vraid_journal *j, struct vraid_walk *w)
{
	w->block = vraid_jring_advance(j->ring, w->block,
				       1 + w->hdr.payload_blocks);
	w->seq++;
}

static void vraid_payload_pages_free(struct page **pages, struct page *hpage)
{
	u32 i;

	for (i = 0; i < VRAID_J_MAX_PAYLOAD; i++)
		if (pages[i])
			__free_page(pages[i]);
	kvfree(pages);
	if (hpage)
		__free_page(hpage);
}

static struct page **vraid_payload_pages_alloc(struct page **hpage)
{
	struct page **pages;
	u32 i;

	pages = kvcalloc(VRAID_J_MAX_PAYLOAD, sizeof(*pages), GFP_KERNEL);
	*hpage = alloc_page(GFP_KERNEL);
	if (!pages || !*hpage)
		goto fail;
	for (i = 0; i < VRAID_J_MAX_PAYLOAD; i++) {
		pages[i] = alloc_page(GFP_KERNEL);
		if (!pages[i])
			goto fail;
	}
	return pages;
fail:
	if (pages)
		vraid_payload_pages_free(pages, *hpage);
	else if (*hpage)
		__free_page(*hpage);
	*hpage = NULL;
	return NULL;
}

/*
 * At attach: find the head from the tail, and the VDs with records.
 * Returns the records found, or an error.
 */
static long vraid_journal_scan(struct vraid_journal *j)
{
	struct vraid_walk w = { .block = j->tail_block, .seq = j->tail_seq };
	struct page *hpage;
	long found = 0;
	int ret;

	w.pages = vraid_payload_pages_alloc(&hpage);
	if (!w.pages)
		return -ENOMEM;
	while (found < (long)j->ring) {
		struct vraid_jiter it;
		struct vraid_jentry e;
		char why[96];

		ret = vraid_walk_read(j, &w, hpage);
		if (ret == -ENODATA)
			break;
		if (ret) {
			vraid_payload_pages_free(w.pages, hpage);
			return ret;
		}
		vraid_jiter_init(&it, w.blk, &w.hdr);
		while (vraid_jiter_next(&it, &e, why, sizeof(why)) > 0)
			if (e.type == VRAID_JE_DATA ||
			    e.type == VRAID_JE_INVALIDATE)
				vraid_pending_add(j, e.vd_uuid);
		vraid_walk_next(j, &w);
		found++;
	}
	vraid_payload_pages_free(w.pages, hpage);
	j->head_block = w.block;
	j->head_seq = w.seq;
	j->acked_seq = w.seq - 1;
	return found;
}

/* ---- logging ---- */

/* With j->lock held: whether the caller is to queue a checkpoint. */
static bool vraid_checkpoint_kick_locked(struct vraid_journal *j)
{
	bool kick = !j->checkpoint_queued;

	j->checkpoint_queued = true;
	return kick;
}

/*
 * Whether writes around the cache wait: a checkpoint is queued or runs
 * while a parity VD is bound (j->lock, or a hint without).
 */
static bool vraid_checkpoint_holds_bypass(struct vraid_journal *j)
{
	return READ_ONCE(j->parity_blocks) &&
	       (READ_ONCE(j->checkpoint_queued) ||
		READ_ONCE(j->checkpoint_running));
}

static void vraid_checkpoint_kick(struct vraid_journal *j)
{
	unsigned long flags;
	bool kick;

	spin_lock_irqsave(&j->lock, flags);
	kick = vraid_checkpoint_kick_locked(j);
	spin_unlock_irqrestore(&j->lock, flags);
	if (kick)
		queue_work(vraid_journal_wq, &j->checkpoint_work);
}

static struct vraid_record *vraid_record_alloc(struct vraid_journal *j, u32 n)
{
	struct vraid_record *r;
	struct bio *bio;

	bio = bio_alloc_bioset(j->h.bdev, 1 + n,
			       REQ_OP_WRITE | REQ_SYNC | REQ_FUA, GFP_NOIO,
			       &j->rec_set);
	r = container_of(bio, struct vraid_record, bio);
	INIT_LIST_HEAD(&r->writes);
	INIT_LIST_HEAD(&r->columns);
	r->done = false;
	r->ok = false;
	r->status = BLK_STS_OK;
	r->hdr = mempool_alloc(&j->header_pool, GFP_NOIO);
	bio->bi_end_io = vraid_record_endio;
	return r;
}

static void vraid_record_free(struct vraid_journal *j, struct vraid_record *r)
{
	mempool_free(r->hdr, &j->header_pool);
	bio_put(&r->bio);
}

/* A VD's logged write is over: the VD may be unbound once none is left. */
static void vraid_journal_vd_put(struct vraid_vd *vd)
{
	if (atomic_dec_and_test(&vd->jrefs))
		wake_up_all(&vd->jwait);
}

/* Its user bio completes; the VD's reference is the caller's. */
static void vraid_write_finish(struct vraid_journal *j,
			       struct vraid_journal_write *w)
{
	struct bio *user = w->user;
	u32 i;

	if (w->unlogged) {
		/* its parity records count until the tail passes them */
		atomic_long_add(w->n, &vraid_unlogged_spent);
		atomic_long_sub(w->n, &vraid_unlogged_pages);
	}
	for (i = 0; i < w->n; i++)
		put_page(w->pages[i]);
	if (w->start)
		bio_end_io_acct(user, w->start);
	mempool_free(w, &j->write_pool);
	bio_endio(user);
}

/* The end of a logged write: its user bio completes. */
static void vraid_write_end(struct vraid_journal *j,
			    struct vraid_journal_write *w)
{
	struct vraid_vd *vd = w->vd;

	vraid_write_finish(j, w);
	vraid_journal_vd_put(vd);
}

/*
 * A write not journalled, its data on the members: it completes only once
 * its VD's metadata no longer names the journal (vraid_unbind_locked()),
 * else a replay could write an older logged version over it.  Its VD is
 * bound (it held a reference) and is being unbound or will be, by the
 * failure work.  Any context.
 */
static void vraid_write_park(struct vraid_journal *j,
			     struct vraid_journal_write *w)
{
	struct vraid_vd *vd = w->vd;
	unsigned long flags;

	spin_lock_irqsave(&j->lock, flags);
	list_add_tail(&w->node, &j->parked);
	spin_unlock_irqrestore(&j->lock, flags);
	vraid_journal_vd_put(vd);	/* the unbind may take @w from now on */
}

/*
 * Complete the writes of @list, journalled (@ok) or not: then a DATA
 * write's data is in the cache only and goes to the members first
 * (vraid_fallback_work()), and every such write waits
 * (vraid_write_park()).  Any context.
 */
static void vraid_writes_complete(struct vraid_journal *j,
				  struct list_head *list, bool ok)
{
	struct vraid_journal_write *w, *tmp;
	unsigned long flags;
	bool fb = false, held;

	list_for_each_entry_safe(w, tmp, list, node) {
		list_del(&w->node);
		/*
		 * Its pages are not all in the cache yet: neither its user
		 * nor the fallback's drain may go ahead of them.  (Racy
		 * read: held is set before the write is queued and cleared
		 * under j->lock, so false is final.)
		 */
		if (READ_ONCE(w->held)) {
			spin_lock_irqsave(&j->lock, flags);
			held = w->held;
			if (held) {
				w->record_done = true;
				w->record_ok = ok;
			}
			spin_unlock_irqrestore(&j->lock, flags);
			if (held)
				continue;
		}
		if (!ok && w->type == VRAID_JE_DATA) {
			spin_lock_irqsave(&j->lock, flags);
			list_add_tail(&w->node, &j->fallback);
			spin_unlock_irqrestore(&j->lock, flags);
			fb = true;
			continue;
		}
		if (!ok)
			vraid_write_park(j, w);
		else
			vraid_write_end(j, w);
	}
	if (fb)
		queue_work(vraid_cache_wq, &j->fallback_work);
}

static void vraid_record_endio(struct bio *bio)
{
	struct vraid_record *r = container_of(bio, struct vraid_record, bio);
	struct vraid_journal *j = READ_ONCE(vraid_attached_journal);
	struct vraid_record *f, *tmp;
	unsigned long flags;
	struct vraid_journal_column *jp, *jtmp;
	LIST_HEAD(done);
	bool failed = false, pump = false, ppump = false;

	spin_lock_irqsave(&j->lock, flags);
	r->done = true;
	r->status = bio->bi_status;
	while ((f = list_first_entry_or_null(&j->inflight, struct vraid_record,
					     node)) && f->done) {
		list_move_tail(&f->node, &done);
		if (f->status && j->state == VRAID_JOURNAL_HEALTHY) {
			j->state = VRAID_JOURNAL_FAILED;
			failed = true;
		}
		/* after a failure nothing counts as journalled */
		f->ok = !f->status && j->state == VRAID_JOURNAL_HEALTHY;
		j->acked_seq = f->seq;
		if (!list_empty(&f->writes))
			j->records_in_flight--;
		if (!list_empty(&f->columns))
			j->parity_in_flight--;
	}
	/* the writes that queued meanwhile go as one record */
	if (!list_empty(&j->open) && !j->leader &&
	    j->records_in_flight < VRAID_RECORDS_IN_FLIGHT) {
		j->leader = true;
		pump = true;
	}
	/* and so do the columns */
	if (!list_empty(&j->open_columns) && !j->parity_leader &&
	    j->parity_in_flight < VRAID_PARITY_IN_FLIGHT) {
		j->parity_leader = true;
		ppump = true;
	}
	spin_unlock_irqrestore(&j->lock, flags);
	if (failed) {
		pr_err("vraid: journal %s: write error %d: write-back VDs write through from now on\n",
		       j->name, blk_status_to_errno(r->status));
		queue_work(vraid_journal_wq, &j->fail_work);
	}
	if (pump)
		queue_work(vraid_journal_submit_wq, &j->pump_work);
	if (ppump)
		queue_work(vraid_journal_parity_wq, &j->parity_pump_work);
	list_for_each_entry_safe(f, tmp, &done, node) {
		list_del(&f->node);
		vraid_writes_complete(j, &f->writes, f->ok);
		list_for_each_entry_safe(jp, jtmp, &f->columns, node) {
			jp->ok = f->ok;
			complete(&jp->done);	/* @jp is gone now */
		}
		vraid_record_free(j, f);
	}
	wake_up_all(&j->wait);
	/* the last touch of the journal: a detach may free it now */
	if (atomic_dec_and_test(&j->record_ios))
		wake_up_all(&vraid_journal_idle);
}

/*
 * Whether every VD with a write in @r still logs: it is bound, or (with
 * @unbinding) being unbound.  A write holds a reference on its VD until
 * its record is done, which keeps junbinding set: the unbind's first
 * wait ends once the records of the writes the cache took are, and
 * writes sent around while it drains log their INVALIDATEs.
 */
static bool vraid_record_vds_bound(struct vraid_record *r, bool unbinding)
{
	struct vraid_journal_write *w;

	list_for_each_entry(w, &r->writes, node)
		if (!READ_ONCE(w->vd->jbound) &&
		    !(unbinding && READ_ONCE(w->vd->junbinding)))
			return false;
	return true;
}

/* Whether a user record of @blocks may try to reserve (or must give up). */
static bool vraid_record_may_reserve(struct vraid_journal *j, u32 blocks)
{
	if (READ_ONCE(j->state) != VRAID_JOURNAL_HEALTHY)
		return true;
	return vraid_jring_free(j->ring, READ_ONCE(j->tail_block),
				READ_ONCE(j->head_block)) >
	       blocks + VRAID_J_MAX_PAYLOAD + READ_ONCE(j->parity_reserve);
}

/*
 * With j->lock held: whether a record of @blocks fits at the head, given
 * its place (*@start, *@padn: a PAD before it); a user record must leave
 * j->parity_reserve blocks free for parity records.
 */
static bool vraid_record_fits_locked(struct vraid_journal *j, u32 blocks,
				     u64 *start, u64 *padn, bool parity)
{
	u64 free = vraid_jring_free(j->ring, j->tail_block, j->head_block);

	if (vraid_jring_reserve(j->ring, j->tail_block, j->head_block, blocks,
				start, padn))
		return false;
	return parity || free - *padn - blocks >= j->parity_reserve;
}

/* The journal fails (with j->lock held): the failure work unbinds VDs. */
static void vraid_journal_fail_locked(struct vraid_journal *j)
{
	if (j->state == VRAID_JOURNAL_HEALTHY) {
		j->state = VRAID_JOURNAL_FAILED;
		queue_work(vraid_journal_wq, &j->fail_work);
	}
}

/*
 * Reserve ring space for @r (@blocks: header and payload) and give it
 * (and a PAD before it, if the ring's end is near) a seq.  A user record
 * may sleep for space, and with a parity VD bound it leaves j->parity_reserve
 * blocks free; a parity record (@parity) never waits: if it does not fit,
 * the journal fails.  Returns false if the journal takes no records
 * (not healthy) or no longer those of a VD in @r (being unbound).
 */
static bool vraid_record_reserve(struct vraid_journal *j,
				 struct vraid_record *r, u32 blocks, u64 *start,
				 bool parity)
{
	struct vraid_record *pad = NULL;
	unsigned long flags;
	u64 padn, used;
	bool full = false, kick;

	for (;;) {
		spin_lock_irqsave(&j->lock, flags);
		if (j->state != VRAID_JOURNAL_HEALTHY ||
		    !vraid_record_vds_bound(r, true))
			break;
		if (vraid_record_fits_locked(j, blocks, start, &padn, parity)) {
			if (padn && !pad) {
				spin_unlock_irqrestore(&j->lock, flags);
				pad = vraid_record_alloc(j, 0);
				continue;
			}
			if (padn) {
				pad->seq = j->head_seq++;
				vraid_jrec_pad(page_address(pad->hdr), pad->seq,
					       j->head_block, j->uuid,
					       padn - 1);
				__bio_add_page(&pad->bio, pad->hdr, PAGE_SIZE,
					       0);
				pad->bio.bi_iter.bi_sector =
					vraid_journal_sector(j, j->head_block);
				list_add_tail(&pad->node, &j->inflight);
			}
			r->seq = j->head_seq++;
			list_add_tail(&r->node, &j->inflight);
			j->head_block = vraid_jring_advance(j->ring, *start,
							    blocks);
			used = vraid_jring_used(j->ring, j->tail_block,
						j->head_block);
			/* at once: the next record sees it queued */
			kick = used > j->ring / VRAID_J_CP_PARITY &&
			       vraid_checkpoint_kick_locked(j);
			spin_unlock_irqrestore(&j->lock, flags);
			if (padn) {
				atomic_inc(&j->record_ios);
				submit_bio(&pad->bio);
			} else if (pad) {
				vraid_record_free(j, pad);
			}
			if (kick)
				queue_work(vraid_journal_wq,
					   &j->checkpoint_work);
			return true;
		}
		if (parity) {
			vraid_journal_fail_locked(j);
			full = true;
			break;
		}
		/*
		 * A VD being unbound holds vds_mutex, so no checkpoint makes
		 * room until its unbind ends, which waits for this record.
		 */
		if (!vraid_record_vds_bound(r, false))
			break;
		spin_unlock_irqrestore(&j->lock, flags);
		vraid_checkpoint_kick(j);
		wait_event_timeout(j->wait, vraid_record_may_reserve(j, blocks),
				   HZ / 10);
	}
	spin_unlock_irqrestore(&j->lock, flags);
	if (full)
		pr_err("vraid: journal %s: no room for a parity record: write-back VDs write through from now on\n",
		       j->name);
	if (pad)
		vraid_record_free(j, pad);
	return false;
}

/*
 * Take a batch of open writes (up to a header's worth of entries and
 * VRAID_RECORD_MAX_PAGES pages) into @batch, counting a record in flight.
 * Returns the pages, or -1 (leader given up) if there is nothing to take
 * or enough in flight.  Caller holds j->lock.
 */
static int vraid_writes_take(struct vraid_journal *j, struct list_head *batch)
{
	struct vraid_journal_write *w, *tmp;
	u32 pages = 0, entries = 0;

	if (list_empty(&j->open) ||
	    j->records_in_flight >= VRAID_RECORDS_IN_FLIGHT) {
		j->leader = false;
		return -1;
	}
	list_for_each_entry_safe(w, tmp, &j->open, node) {
		if (entries == VRAID_RECORD_MAX_ENTRIES ||
		    (entries && pages + w->n > VRAID_RECORD_MAX_PAGES))
			break;
		list_move_tail(&w->node, batch);
		pages += w->n;
		entries++;
	}
	j->records_in_flight++;
	return pages;
}

/*
 * Build the record of the writes of @batch (@pages data pages), reserve
 * its place and send it; if the journal takes no record, complete the
 * writes unjournalled.  Process context.
 */
static void vraid_record_send(struct vraid_journal *j, struct list_head *batch,
			      u32 pages)
{
	struct vraid_jbuild b;
	struct vraid_record *r;
	struct vraid_journal_write *w;
	u64 start;
	u32 crc = 0, i, entry, named = 0;

	r = vraid_record_alloc(j, pages);
	list_splice_init(batch, &r->writes);
	vraid_jrec_init(&b, page_address(r->hdr), 0);
	list_for_each_entry(w, &r->writes, node) {
		if (w->type == VRAID_JE_DATA)
			vraid_jrec_add_data(&b, w->vd->uuid, w->sector, 0xff,
					    0xff, w->n);
		else
			vraid_jrec_add_invalidate(&b, w->vd->uuid, w->sector,
						  w->sectors);
		for (i = 0; i < w->n; i++)
			crc = vraid_crc32c(crc, page_address(w->pages[i]),
					   PAGE_SIZE);
	}
	if (!vraid_record_reserve(j, r, 1 + pages, &start, false)) {
		struct vraid_journal_write *tmp;
		unsigned long flags;

		/*
		 * The writes of VDs still bound to a healthy journal go back
		 * to the head of the open ones, for the next record: only a
		 * VD being unbound, with no room now, made this one fail.
		 */
		spin_lock_irqsave(&j->lock, flags);
		j->records_in_flight--;
		list_for_each_entry_safe_reverse(w, tmp, &r->writes, node)
			if (j->state == VRAID_JOURNAL_HEALTHY &&
			    READ_ONCE(w->vd->jbound))
				list_move(&w->node, &j->open);
		spin_unlock_irqrestore(&j->lock, flags);
		vraid_writes_complete(j, &r->writes, false);
		vraid_record_free(j, r);
		return;
	}
	b.seq = r->seq;
	vraid_jrec_finish(&b, start, j->uuid, crc);
	r->bio.bi_iter.bi_sector = vraid_journal_sector(j, start);
	__bio_add_page(&r->bio, r->hdr, PAGE_SIZE, 0);
	entry = 0;
	list_for_each_entry(w, &r->writes, node) {
		/* the cache's pages: a destage's parity record may name them */
		u64 ver = vraid_version_of(r->seq, entry++);

		this_cpu_inc(w->vd->stats->journal_writes);
		this_cpu_add(w->vd->stats->journal_pages, w->n);
		for (i = 0; i < w->n; i++) {
			WRITE_ONCE(w->pages[i]->private, ver);
			__bio_add_page(&r->bio, w->pages[i], PAGE_SIZE, 0);
		}
		if (w->unlogged)
			named += w->n;
		w->unlogged = false;
	}
	vraid_journal_unadmit(named);	/* named from now on */
	atomic_inc(&j->record_ios);
	submit_bio(&r->bio);
}

/* Records of the open writes, while few are in flight (group commit). */
static void vraid_record_pump_work(struct work_struct *work)
{
	struct vraid_journal *j = container_of(work, struct vraid_journal,
					       pump_work);
	LIST_HEAD(batch);
	int pages;

	for (;;) {
		spin_lock_irq(&j->lock);
		pages = vraid_writes_take(j, &batch);
		spin_unlock_irq(&j->lock);
		if (pages < 0)
			return;
		vraid_record_send(j, &batch, pages);
	}
}

/*
 * Send a record of what is open if no one else does (vraid_write_queue());
 * a leader that is already at work takes what was queued before it
 * gives up (it looks at j->open under j->lock), or the completion of a
 * record in flight does.
 */
static void vraid_record_lead(struct vraid_journal *j)
{
	LIST_HEAD(batch);
	int pages = -1;
	bool pump;

	spin_lock_irq(&j->lock);
	if (!j->leader) {
		j->leader = true;
		pages = vraid_writes_take(j, &batch);
	}
	spin_unlock_irq(&j->lock);
	if (pages < 0)
		return;
	vraid_record_send(j, &batch, pages);
	spin_lock_irq(&j->lock);
	pump = !list_empty(&j->open) &&
	       j->records_in_flight < VRAID_RECORDS_IN_FLIGHT;
	if (!pump)
		j->leader = false;
	spin_unlock_irq(&j->lock);
	if (pump)
		queue_work(vraid_journal_submit_wq, &j->pump_work);
}

/*
 * Queue @w for a record.  With few records in flight the caller sends one
 * itself, of what is open (itself and whoever queued meanwhile); else
 * the completion of one in flight sends what gathered (group commit).
 * In ->submit_bio one record at most: its bio goes out only once that
 * returns, so the caller must not wait for ring space after it; more
 * goes to the pump work.
 */
static void vraid_write_queue(struct vraid_journal *j,
			      struct vraid_journal_write *w)
{
	spin_lock_irq(&j->lock);
	list_add_tail(&w->node, &j->open);
	spin_unlock_irq(&j->lock);
	vraid_record_lead(j);
}

/*
 * Testing only (tests/vm/cases/91-journal-data-order.sh): milliseconds
 * the allocation of a DATA entry sleeps, as mempool_alloc() may when
 * memory is short and the pool empty; 0 (the default) never sleeps.
 */
static unsigned int debug_jdata_delay_ms;
module_param(debug_jdata_delay_ms, uint, 0600);
MODULE_PARM_DESC(debug_jdata_delay_ms,
		 "testing only: sleep this long allocating a journal DATA entry (default 0)");

static struct vraid_journal_write *vraid_write_alloc(struct vraid_journal *j,
						     struct vraid_vd *vd,
						     struct bio *user,
						     u32 type)
{
	unsigned int delay = READ_ONCE(debug_jdata_delay_ms);
	struct vraid_journal_write *w;

	if (unlikely(delay) && type == VRAID_JE_DATA)
		msleep(delay);
	w = mempool_alloc(&j->write_pool, GFP_NOIO);

	w->vd = vd;
	w->user = user;
	w->start = 0;
	w->type = type;
	w->n = 0;
	w->unlogged = false;
	w->held = false;
	w->record_done = false;
	w->record_ok = false;
	w->sectors = 0;
	return w;
}

/*
 * A reference on @vd's use of the journal if *@on (vd->jbound: its
 * writes are logged; vd->jparity: its column writes log parity records;
 * vd->jaround: its writes go around the cache and log INVALIDATEs) and
 * the journal is healthy; vraid_journal_put() drops it.
 */
static bool vraid_journal_get_if(struct vraid_vd *vd, const bool *on)
{
	atomic_inc(&vd->jrefs);
	smp_mb__after_atomic();		/* against the unbind's check */
	if (READ_ONCE(*on) &&
	    READ_ONCE(vraid_attached_journal->state) == VRAID_JOURNAL_HEALTHY)
		return true;
	vraid_journal_vd_put(vd);
	return false;
}

/*
 * Whether writes of @vd are journalled now; if so, the caller holds a
 * reference that vraid_journal_data() or vraid_journal_bypass() hands
 * to a logged write, or vraid_journal_put() drops.
 */
bool vraid_journal_get(struct vraid_vd *vd)
{
	return vraid_journal_get_if(vd, &vd->jbound);
}

/*
 * Whether a write of @vd, which is being unbound, may go around the cache
 * now (vraid_journal_bypass(): to the members with FUA, then an
 * INVALIDATE): while the unbind drains the cache (vd->jaround), with a
 * reference as vraid_journal_get() gives.
 */
bool vraid_journal_get_around(struct vraid_vd *vd)
{
	return vraid_journal_get_if(vd, &vd->jaround);
}

void vraid_journal_put(struct vraid_vd *vd)
{
	vraid_journal_vd_put(vd);
}

/*
 * Whether @n more unlogged pages, with @used counted (never below 0: a
 * page is counted before it is uncounted), keep within
 * vraid_unlogged_max; one write alone always does.
 */
static bool vraid_admit_room(long used, u32 n)
{
	return !used ||
	       (unsigned long)used + n <= READ_ONCE(vraid_unlogged_max);
}

static bool vraid_admit_fits(u32 n)
{
	return vraid_admit_room(atomic_long_read(&vraid_unlogged_pages) +
				atomic_long_read(&vraid_unlogged_spent), n);
}

/*
 * Count @n pages that a write of a bound VD (the caller holds a
 * vraid_journal_get()) is about to put in the cache unlogged, if they
 * keep within the bound (vraid_admit_room()); the count drops
 * once its record reserves (vraid_record_send()) or, if the write ends
 * unlogged, once the tail moves after it.  Returns false if the caller
 * is to drop its reference, wait (vraid_journal_admit_wait()) and try
 * again.
 */
bool vraid_journal_admit(u32 n)
{
	long cur, spent;

	cur = atomic_long_read(&vraid_unlogged_pages);
	do {
		spent = atomic_long_read(&vraid_unlogged_spent);
		if (!vraid_admit_room(cur + spent, n)) {
			/* what ended unlogged waits for a tail move */
			if (spent)
				vraid_checkpoint_kick(vraid_attached_journal);
			return false;
		}
	} while (!atomic_long_try_cmpxchg(&vraid_unlogged_pages, &cur,
					  cur + n));
	return true;
}

/*
 * Wait, holding no reference (an unbind waits for those), until @n
 * pages may fit or @vd is no longer bound; a tenth of a second at most.
 */
void vraid_journal_admit_wait(struct vraid_vd *vd, u32 n)
{
	wait_event_timeout(vraid_admit_wait, vraid_admit_fits(n) ||
			   !READ_ONCE(vd->jbound), HZ / 10);
}

/* @n pages counted by vraid_journal_admit() are logged, or not cached. */
void vraid_journal_unadmit(u32 n)
{
	if (!n)
		return;
	atomic_long_sub(n, &vraid_unlogged_pages);
	if (wq_has_sleeper(&vraid_admit_wait))
		wake_up_all(&vraid_admit_wait);
}

/*
 * A user write of @vd that the journal does not log while @vd is bound
 * or being unbound, in ->submit_bio: the journal failed, or the unbind
 * has begun but does not yet send writes around the cache (it waits for
 * the VD's records in flight).  Until the unbind ends the metadata names
 * the journal, and a replay after a crash would write the older versions
 * it holds over this write; so it waits, a tenth of a second at a time:
 * the caller looks again (writes may go around by then, or the VD be
 * bound anew).  After a journal failure that lasts until the cache is
 * written out, which on slow members can take seconds.
 */
void vraid_journal_wait_unbind(struct vraid_vd *vd)
{
	wait_event_timeout(vd->jwait, !vraid_journal_binds(vd), HZ / 10);
}

/*
 * Logging a write the cache takes, in three steps (vraid_cache_write()
 * says why): the DATA entry of the @n pages at @pages (the cache's,
 * references handed over) of a write of @vd at VD sector @sector is
 * allocated (vraid_journal_data_alloc(): may sleep, for memory), queued
 * (vraid_journal_data_queue(): before any of the pages is dirty in the
 * cache; atomic) and let go (vraid_journal_data_go(): once they all are;
 * may sleep, for ring space).  The user bio completes when the record is
 * durable, not before the last step.  The caller holds a
 * vraid_journal_get(), which the entry keeps; once allocated, the entry
 * must be queued and let go.
 */
struct vraid_journal_write *
vraid_journal_data_alloc(struct vraid_vd *vd, u64 sector, struct page **pages,
			 u32 n)
{
	struct vraid_journal_write *w;

	w = vraid_write_alloc(vraid_attached_journal, vd, NULL, VRAID_JE_DATA);

	w->sector = sector;
	w->n = n;
	w->unlogged = true;		/* vraid_journal_admit() counted them */
	memcpy(w->pages, pages, n * sizeof(*pages));
	return w;
}

/*
 * @w goes on the open list, held: a record may take it from now on (its
 * place in the log is set: records are built from that list in its
 * order), but its completion waits for vraid_journal_data_go().  @user
 * completes with it, accounted from @start.  The pages hold the data.
 */
void vraid_journal_data_queue(struct vraid_journal_write *w, struct bio *user,
			      unsigned long start)
{
	struct vraid_journal *j = vraid_attached_journal;
	unsigned long flags;

	w->user = user;
	w->start = start;
	spin_lock_irqsave(&j->lock, flags);
	/* read unlocked: vraid_writes_complete() */
	WRITE_ONCE(w->held, true);
	list_add_tail(&w->node, &j->open);
	spin_unlock_irqrestore(&j->lock, flags);
}

/* The pages of @w are all in the cache: its record may complete it. */
void vraid_journal_data_go(struct vraid_journal_write *w)
{
	struct vraid_journal *j = vraid_attached_journal;
	LIST_HEAD(done);
	bool record_done, record_ok;

	spin_lock_irq(&j->lock);
	WRITE_ONCE(w->held, false);
	record_done = w->record_done;
	record_ok = w->record_ok;
	if (record_done)
		list_add(&w->node, &done);
	spin_unlock_irq(&j->lock);
	if (record_done)
		vraid_writes_complete(j, &done, record_ok);
	else
		vraid_record_lead(j);
}

/*
 * Which data blocks of column @jp its record names in the user record
 * that logged them rather than logging them again: those whose version
 * is at or after the tail and the VD's floor.  (One before either cannot
 * be: a checkpoint moves the tail only once every page logged before its
 * head is destaged, and an unbind destages every page before a bind sets
 * a new floor.  The check keeps such a page logged all the same.)  Caller
 * holds j->lock.
 */
static void vraid_column_choose_named(struct vraid_journal *j,
				      struct vraid_journal_column *jp)
{
	u64 from = max(j->tail_seq, READ_ONCE(jp->vd->journal_floor));
	u32 i;

	jp->named = 0;
	jp->nr_logged = jp->n;
	for (i = 0; i < jp->n; i++)
		if (jp->version[i] &&
		    vraid_version_seq(jp->version[i]) >= from) {
			jp->named |= 1U << i;
			jp->nr_logged--;
		}
}

/*
 * Take a batch of open columns (what a header holds, VRAID_RECORD_MAX_PAGES
 * payload blocks at most) into @batch, counting a record in flight.
 * Returns the payload blocks, or -1 (leader given up) if there is
 * nothing to take or enough in flight.  Caller holds j->lock.
 */
static int vraid_columns_take(struct vraid_journal *j, struct list_head *batch)
{
	struct vraid_journal_column *jp, *tmp;
	struct vraid_jsize size;

	if (list_empty(&j->open_columns) ||
	    j->parity_in_flight >= VRAID_PARITY_IN_FLIGHT) {
		j->parity_leader = false;
		return -1;
	}
	vraid_jsize_init(&size);
	list_for_each_entry_safe(jp, tmp, &j->open_columns, node) {
		vraid_column_choose_named(j, jp);
		/* the first always fits: n <= VRAID_J_MAX_REFS, checked */
		if (!vraid_jsize_column(&size, jp->n, jp->nr_logged,
					jp->q ? 2 : 1, VRAID_RECORD_MAX_PAGES))
			break;
		list_move_tail(&jp->node, batch);
	}
	j->parity_in_flight++;
	return size.pages;
}

/*
 * Build the parity record of the columns of @batch (@pages payload
 * blocks), reserve its place and send it; if the journal takes none,
 * their writers go on unjournalled.  Never waits for ring space (a
 * checkpoint may be waiting for these columns): a record that does not
 * fit fails the journal.  Process context.
 */
static void vraid_parity_record_send(struct vraid_journal *j,
				     struct list_head *batch, u32 pages)
{
	struct vraid_jref refs[VRAID_J_MAX_REFS];
	struct vraid_journal_column *jp, *tmp;
	struct vraid_jbuild b;
	struct vraid_record *r;
	u32 crc = 0, i;
	u64 start;

	/* the payload's checksum first: from its seq on, later records wait */
	list_for_each_entry(jp, batch, node) {
		for (i = 0; i < jp->n; i++)
			if (!(jp->named & (1U << i)))
				crc = vraid_crc32c(crc,
						   page_address(jp->data[i]),
						   PAGE_SIZE);
		crc = vraid_crc32c(crc, page_address(jp->p), PAGE_SIZE);
		if (jp->q)
			crc = vraid_crc32c(crc, page_address(jp->q), PAGE_SIZE);
	}
	r = vraid_record_alloc(j, pages);
	list_splice_init(batch, &r->columns);
	if (!vraid_record_reserve(j, r, 1 + pages, &start, true)) {
		spin_lock_irq(&j->lock);
		j->parity_in_flight--;
		spin_unlock_irq(&j->lock);
		list_for_each_entry_safe(jp, tmp, &r->columns, node) {
			jp->ok = false;
			complete(&jp->done);
		}
		vraid_record_free(j, r);
		return;
	}
	/* cannot fail: vraid_columns_take() took what fits */
	vraid_jrec_init(&b, page_address(r->hdr), r->seq);
	__bio_add_page(&r->bio, r->hdr, PAGE_SIZE, 0);
	list_for_each_entry(jp, &r->columns, node) {
		struct vraid_vd *vd = jp->vd;
		u32 npq = jp->q ? 2 : 1;

		for (i = 0; i < jp->n; i++) {
			refs[i].data_index = (u16)jp->data_index[i];
			if (jp->named & (1U << i)) {
				refs[i].seq = vraid_version_seq(jp->version[i]);
				refs[i].entry = (u16)(jp->version[i] -
					vraid_version_of(refs[i].seq, 0));
				continue;
			}
			refs[i].seq = r->seq;
			refs[i].entry = b.entries;
			vraid_jrec_add_pdata(&b, vd->uuid, jp->data_sector[i]);
			__bio_add_page(&r->bio, jp->data[i], PAGE_SIZE, 0);
		}
		vraid_jrec_add_parity(&b, vd->uuid,
				      VRAID_DATA_OFFSET_SECTORS +
				      jp->member_sector,
				      jp->span, refs, jp->n, npq);
		__bio_add_page(&r->bio, jp->p, PAGE_SIZE, 0);
		if (jp->q)
			__bio_add_page(&r->bio, jp->q, PAGE_SIZE, 0);
		this_cpu_add(vd->stats->journal_pages, jp->nr_logged + npq);
		this_cpu_add(vd->stats->journal_refs, jp->n - jp->nr_logged);
	}
	vraid_jrec_finish(&b, start, j->uuid, crc);
	r->bio.bi_iter.bi_sector = vraid_journal_sector(j, start);
	atomic_inc(&j->record_ios);
	submit_bio(&r->bio);
}

/*
 * Parity records of the open columns, while few are in flight; the
 * caller leads (j->parity_leader), and vraid_columns_take() gives the lead up.
 */
static void vraid_parity_records_send_open(struct vraid_journal *j)
{
	LIST_HEAD(batch);
	int pages;

	for (;;) {
		spin_lock_irq(&j->lock);
		pages = vraid_columns_take(j, &batch);
		spin_unlock_irq(&j->lock);
		if (pages < 0)
			return;
		vraid_parity_record_send(j, &batch, pages);
	}
}

static void vraid_parity_pump_work(struct work_struct *work)
{
	vraid_parity_records_send_open(container_of(work, struct vraid_journal,
						    parity_pump_work));
}

/*
 * Start the parity record of a column @vd is about to write: its @n data
 * blocks @data (data index @data_index[i], at VD sector @data_sector[i],
 * vraid_journal_page_version() @ver[i] or 0) and @p (and @q) at member sector
 * @member_sector (data area) of span @span, described by @jp, which the caller
 * keeps until vraid_journal_parity_wait().  Returns false if the journal
 * takes none (or failed): then there is nothing to wait for.  The
 * columns that queue while parity records are in flight share one (group
 * commit), as user writes do (vraid_write_queue()).  Process context.
 */
bool vraid_journal_parity_start(struct vraid_journal_column *jp,
				struct vraid_vd *vd,
				u32 span, u64 member_sector, struct page **data,
				const u32 *data_index, const u64 *data_sector,
				const u64 *ver, u32 n, struct page *p,
				struct page *q)
{
	struct vraid_journal *j = vraid_attached_journal;
	bool lead;

	if (!n || n > VRAID_J_MAX_REFS ||
	    !vraid_journal_get_if(vd, &vd->jparity))
		return false;
	*jp = (struct vraid_journal_column) {
		.vd = vd, .span = span, .member_sector = member_sector,
		.data = data, .data_index = data_index,
		.data_sector = data_sector, .version = ver, .n = n, .p = p,
		.q = q,
	};
	init_completion(&jp->done);
	spin_lock_irq(&j->lock);
	list_add_tail(&jp->node, &j->open_columns);
	lead = !j->parity_leader;
	j->parity_leader = true;
	spin_unlock_irq(&j->lock);
	if (lead)
		vraid_parity_records_send_open(j);
	return true;
}

/*
 * Wait until the record vraid_journal_parity_start() started (it returned
 * true) and every earlier one are durable: true if journalled.
 */
bool vraid_journal_parity_wait(struct vraid_journal_column *jp)
{
	wait_for_completion_io(&jp->done);
	vraid_journal_put(jp->vd);
	return jp->ok;
}

/* Front pad of a write the cache did not take, sent on with FUA. */
struct vraid_bypass_write {
	struct vraid_vd *vd;
	struct bio *user;
	u32 pages;			/* counted in vraid_journal.bypass_pages */
	struct work_struct work;	/* logs its INVALIDATE */
	struct bio clone;		/* must be last */
};

/* A bypass write is done: log its INVALIDATE (process context). */
static void vraid_bypass_invalidate_work(struct work_struct *work)
{
	struct vraid_bypass_write *p = container_of(work,
						    struct vraid_bypass_write,
						    work);
	struct vraid_journal *j = vraid_attached_journal;
	struct bio *user = p->user;
	struct vraid_journal_write *w;

	/* A failed write changed what it changed: void older versions. */
	user->bi_status = p->clone.bi_status;
	/*
	 * A write-zeroes carries no FUA (defined for REQ_OP_WRITE only): its
	 * zeroes reach the media through a flush before the INVALIDATE
	 * voids the older versions the journal holds.
	 */
	if (bio_op(user) == REQ_OP_WRITE_ZEROES && !user->bi_status &&
	    vraid_members_flush_fail(p->vd))
		user->bi_status = BLK_STS_IOERR;
	w = vraid_write_alloc(j, p->vd, user, VRAID_JE_INVALIDATE);
	w->sector = user->bi_iter.bi_sector;
	w->sectors = bio_sectors(user);
	bio_put(&p->clone);
	vraid_write_queue(j, w);
}

static void vraid_bypass_endio(struct bio *clone)
{
	struct vraid_bypass_write *p = container_of(clone,
						    struct vraid_bypass_write,
						    clone);
	struct vraid_journal *j = vraid_attached_journal;
	unsigned long flags;

	if (p->pages) {
		spin_lock_irqsave(&j->lock, flags);
		j->bypass_pages -= p->pages;
		spin_unlock_irqrestore(&j->lock, flags);
		wake_up_all(&j->wait);
	}

	INIT_WORK(&p->work, vraid_bypass_invalidate_work);
	queue_work(vraid_journal_submit_wq, &p->work);
}

/*
 * A write around the cache that fails before it is sent (it waited for
 * older dirty data the cache cannot write out: cache.c, "Write-out
 * errors"): its user gets EIO and no INVALIDATE is logged — nothing
 * changed on the members, and the records it would void are the only
 * copy of that older data.  Returns false if @bio is no such write.
 */
bool vraid_journal_bypass_abort(struct bio *bio)
{
	struct vraid_journal *j = vraid_attached_journal;
	struct vraid_bypass_write *p;
	unsigned long flags;

	if (bio->bi_end_io != vraid_bypass_endio)
		return false;
	p = container_of(bio, struct vraid_bypass_write, clone);
	if (p->pages) {
		spin_lock_irqsave(&j->lock, flags);
		j->bypass_pages -= p->pages;
		spin_unlock_irqrestore(&j->lock, flags);
		wake_up_all(&j->wait);
	}
	p->user->bi_status = BLK_STS_IOERR;
	bio_endio(p->user);
	vraid_journal_vd_put(p->vd);
	bio_put(bio);
	return true;
}

/*
 * Whether a write around the cache of @pages may go to a parity VD now,
 * counted if so: not while a checkpoint is queued or runs, and with at
 * most ring / VRAID_J_BYPASS pages of them in flight (one alone whatever
 * its size), since each column it writes logs a parity record.  While
 * @vd's unbind drains its cache (jaround) only the second rule holds: no
 * checkpoint runs until the unbind ends, and that waits for these
 * writes.  Always once the journal fails, or @vd's unbind no longer
 * sends writes around (they do not log).
 */
static bool vraid_bypass_may_go(struct vraid_journal *j, struct vraid_vd *vd,
				u32 pages)
{
	u32 inflight = READ_ONCE(j->bypass_pages);
	bool around = READ_ONCE(vd->jaround);

	return !(READ_ONCE(vd->jbound) || around) ||
	       READ_ONCE(j->state) != VRAID_JOURNAL_HEALTHY ||
	       ((around || !vraid_checkpoint_holds_bypass(j)) &&
		(!inflight || inflight + pages <= j->ring / VRAID_J_BYPASS));
}

static bool vraid_bypass_admit(struct vraid_journal *j, struct vraid_vd *vd,
			       u32 pages)
{
	unsigned long flags;
	bool may;

	spin_lock_irqsave(&j->lock, flags);
	may = vraid_bypass_may_go(j, vd, pages);
	if (may)
		j->bypass_pages += pages;
	spin_unlock_irqrestore(&j->lock, flags);
	return may;
}

/*
 * A write of a journalled VD that the cache does not take: it goes to the
 * members with FUA (a clone; a write-zeroes is followed by a flush
 * instead, vraid_bypass_invalidate_work()), then an INVALIDATE is logged before
 * @user completes.  Returns the clone to send on (the caller's conflict rules
 * apply to it).  Holds a vraid_journal_get().  On a parity VD it may wait
 * for a checkpoint (vraid_bypass_admit()).
 */
struct bio *vraid_journal_bypass(struct vraid_vd *vd, struct bio *user)
{
	struct vraid_journal *j = vraid_attached_journal;
	struct vraid_bypass_write *p;
	struct bio *clone;
	u32 pages = 0;

	if (vraid_parity_blocks(vd)) {
		pages = DIV_ROUND_UP((user->bi_iter.bi_sector & 7) +
				     bio_sectors(user), 8);
		while (!vraid_bypass_admit(j, vd, pages))
			wait_event_timeout(j->wait,
					   vraid_bypass_may_go(j, vd, pages),
					   HZ / 10);
	}
	clone = bio_alloc_clone(user->bi_bdev, user, GFP_NOIO,
				&j->bypass_set);
	p = container_of(clone, struct vraid_bypass_write, clone);
	p->vd = vd;
	p->user = user;
	p->pages = pages;
	if (bio_op(user) == REQ_OP_WRITE)
		clone->bi_opf |= REQ_FUA;
	clone->bi_end_io = vraid_bypass_endio;
	return clone;
}

/* Writes not journalled: their data out, then they wait for the unbind. */
static void vraid_fallback_work(struct work_struct *work)
{
	struct vraid_journal *j = container_of(work, struct vraid_journal,
					       fallback_work);
	unsigned int noio = memalloc_noio_save();
	struct vraid_journal_write *w;

	for (;;) {
		spin_lock_irq(&j->lock);
		w = list_first_entry_or_null(&j->fallback,
					     struct vraid_journal_write, node);
		if (w)
			list_del(&w->node);
		spin_unlock_irq(&j->lock);
		if (!w)
			break;
		if (vraid_cache_drain(w->vd))
			w->user->bi_status = BLK_STS_IOERR;
		vraid_members_flush(w->vd);
		vraid_write_park(j, w);
	}
	memalloc_noio_restore(noio);
}

/* ---- binding VDs ---- */

/*
 * Record in @vd's metadata that the journal may hold its writes (or, with
 * @bind false, that it does not), and write it.
 */
static int vraid_journal_metadata_write(struct vraid_vd *vd,
					struct vraid_journal *j, bool bind)
{
	char msg[VRAID_MSG_LEN];
	unsigned int noio;
	int ret;

	mutex_lock(&vd->md_lock);
	if (bind) {
		memcpy(vd->journal_uuid, j->uuid, sizeof(vd->journal_uuid));
		spin_lock_irq(&j->lock);
		vd->journal_floor = j->head_seq;
		spin_unlock_irq(&j->lock);
		vd->cache_flags |= VRAID_MD_CF_JOURNAL;
	} else {
		memset(vd->journal_uuid, 0, sizeof(vd->journal_uuid));
		vd->journal_floor = 0;
		vd->cache_flags &= ~VRAID_MD_CF_JOURNAL;
	}
	mutex_unlock(&vd->md_lock);
	noio = memalloc_noio_save();
	ret = vraid_md_write_all(vd, false, msg, sizeof(msg));
	memalloc_noio_restore(noio);
	if (ret)
		pr_warn("%s: %s the journal: %s\n", vd->disk->disk_name,
			bind ? "cannot bind to" : "unbinding from", msg);
	return ret;
}

/*
 * With vds_mutex held: the bound VDs changed; while one has parity,
 * parity records must fit between two tail moves (see the top of this
 * file).  While any VD is bound, dirty data is capped (for mirrors by
 * the same rule with no parity): a checkpoint writes every dirty page
 * out before the tail moves, and without a cap, on slow members, that
 * took longer than the ring took to fill, so writers stopped for room.
 */
static void vraid_journal_bound_vds_changed(struct vraid_journal *j)
{
	struct vraid_vd *vd;
	u32 npar = 0;

	list_for_each_entry(vd, &j->vds, jnode)
		npar = max(npar, vraid_parity_blocks(vd));
	spin_lock_irq(&j->lock);
	j->parity_blocks = npar;
	j->parity_reserve = npar ? vraid_jparity_reserve(j->ring, npar) : 0;
	spin_unlock_irq(&j->lock);
	WRITE_ONCE(vraid_dirty_cap_pages, j->nr_vds ?
		   (unsigned long)vraid_jparity_dirty_cap(j->ring, npar) :
		   ULONG_MAX);
	WRITE_ONCE(vraid_unlogged_max, j->nr_vds ?
		   (unsigned long)vraid_jparity_unlogged_max(j->ring) :
		   ULONG_MAX);
	wake_up_all(&vraid_admit_wait);
}

/* Dirty pages the controller cache may hold now (ULONG_MAX: no cap). */
unsigned long vraid_journal_dirty_cap(void)
{
	return READ_ONCE(vraid_dirty_cap_pages);
}

/*
 * A VD with write policy wb starts logging to a healthy journal: its
 * metadata says so before the first record.  Control plane.
 */
void vraid_journal_bind(struct vraid_vd *vd)
{
	struct vraid_journal *j = vraid_attached_journal;

	if (!j || READ_ONCE(vd->write_policy) != VRAID_WRITE_BACK ||
	    READ_ONCE(j->state) != VRAID_JOURNAL_HEALTHY)
		return;
	mutex_lock(&j->vds_mutex);
	if (!vd->jbound && j->state == VRAID_JOURNAL_HEALTHY &&
	    !vraid_journal_metadata_write(vd, j, true)) {
		list_add_tail(&vd->jnode, &j->vds);
		j->nr_vds++;
		vraid_journal_bound_vds_changed(j);
		WRITE_ONCE(vd->jparity, true);
		WRITE_ONCE(vd->jbound, true);
		pr_info("%s: write-back logs to journal %s\n",
			vd->disk->disk_name, j->name);
	}
	mutex_unlock(&j->vds_mutex);
}

/* Take @vd's parked writes (all, with @vd NULL) into @list. */
static bool vraid_parked_take(struct vraid_journal *j, struct vraid_vd *vd,
			      struct list_head *list)
{
	struct vraid_journal_write *w, *tmp;

	spin_lock_irq(&j->lock);
	list_for_each_entry_safe(w, tmp, &j->parked, node)
		if (!vd || w->vd == vd)
			list_move_tail(&w->node, list);
	spin_unlock_irq(&j->lock);
	return !list_empty(list);
}

static void vraid_parked_end(struct vraid_journal *j, struct list_head *list)
{
	struct vraid_journal_write *w, *tmp;

	list_for_each_entry_safe(w, tmp, list, node) {
		list_del(&w->node);
		vraid_write_finish(j, w);
	}
}

/*
 * The writes of @vd, being unbound, that wait for a record (open) complete
 * unjournalled (as if their record had found no room; writes sent around
 * the cache park until the unbind ends): with the ring full, a record of
 * another VD that waits for room ahead of them would hold them back until
 * a checkpoint, which cannot run before this unbind ends, and that waits
 * for them.
 */
static void vraid_open_writes_evict(struct vraid_journal *j,
				    struct vraid_vd *vd)
{
	struct vraid_journal_write *w, *tmp;
	LIST_HEAD(out);

	spin_lock_irq(&j->lock);
	list_for_each_entry_safe(w, tmp, &j->open, node)
		if (w->vd == vd)
			list_move_tail(&w->node, &out);
	spin_unlock_irq(&j->lock);
	vraid_writes_complete(j, &out, false);
}

/* The unbind of @vd waits for its references (records, writes around). */
static void vraid_unbind_wait(struct vraid_journal *j, struct vraid_vd *vd)
{
	while (!wait_event_timeout(vd->jwait, !atomic_read(&vd->jrefs),
				   HZ / 10))
		if (!vraid_record_may_reserve(j, VRAID_J_MAX_PAYLOAD))
			vraid_open_writes_evict(j, vd);
}

/*
 * With vds_mutex held: the unbind of @vd could not get its cache out (a member
 * fails writes) or its members did not flush, and undoes itself rather than let
 * the journal's copy of data the members lack go.  Nothing has changed on disk
 * yet: the metadata names the journal, and the tail has not moved (a checkpoint
 * needs vds_mutex, and drains the VD's cache before it moves the tail, which
 * keeps failing while that data does).  Writes sent around the cache meanwhile
 * end first (their INVALIDATEs are logged: the VD still counts as being
 * unbound), then the VD logs again.  Its writes that ended unlogged meanwhile
 * (parked: the ring was full, vraid_open_writes_evict()) fail: their data is on
 * the members, but an older version the journal holds may be written over it at
 * a replay, and no INVALIDATE says otherwise.
 */
static void vraid_unbind_undo(struct vraid_journal *j, struct vraid_vd *vd)
{
	LIST_HEAD(parked);
	struct vraid_journal_write *w;

	WRITE_ONCE(vd->jaround, false);
	smp_mb();		/* against vraid_journal_get_if() */
	vraid_unbind_wait(j, vd);
	if (vraid_parked_take(j, vd, &parked)) {
		pr_warn("%s: writes not logged while the unbind ran fail: an older version in the journal may be replayed over them\n",
			vd->disk->disk_name);
		list_for_each_entry(w, &parked, node)
			w->user->bi_status = BLK_STS_IOERR;
		vraid_parked_end(j, &parked);
	}
	WRITE_ONCE(vd->jbound, true);
	smp_wmb();			/* bound before no longer unbinding */
	WRITE_ONCE(vd->junbinding, false);
	wake_up_all(&vd->jwait);	/* vraid_journal_wait_unbind() */
}

/*
 * With vds_mutex held: stop logging, get the VD's data out; the writes that
 * were not journalled complete once the metadata says so.  Until then the
 * metadata names the journal, and the drain's member writes (the destages: the
 * dirty cap bounds them) still log parity records, so that a crash in between
 * finds a row it tore in the records (the write hole); the VD counts as bound
 * for their room (j->parity_blocks) until the end.  If the cache cannot be
 * written out or the members do not flush, and @may_fail (a command asked for
 * the unbind), the unbind is undone (vraid_unbind_undo()) and returns -EIO;
 * otherwise (a stop that discards, the journal failed) it goes on, and what the
 * cache still holds is in memory only.
 */
static int vraid_unbind_locked(struct vraid_journal *j, struct vraid_vd *vd,
			       bool write_md, bool may_fail)
{
	LIST_HEAD(parked);
	bool md;

	WRITE_ONCE(vd->junbinding, true);
	smp_wmb();			/* a write not logged sees it */
	WRITE_ONCE(vd->jbound, false);
	smp_mb();			/* against vraid_journal_get() */
	vraid_unbind_wait(j, vd);
	/*
	 * Every write the cache took is logged (or parked).  While the cache
	 * drains, writes go around it and log INVALIDATEs rather than wait:
	 * a write over dirty data waits for it (vraid_cache_defer()), and
	 * the records that logged older versions of the rest are older than
	 * their INVALIDATEs.
	 */
	WRITE_ONCE(vd->jaround, true);
	wake_up_all(&vd->jwait);	/* vraid_journal_wait_unbind() */
	if (vraid_cache_write_out(vd)) {
		/* (a member that cannot flush: see vraid_vd_write_out()) */
		if (may_fail && vraid_cache_dirty_pages(vd)) {
			pr_warn("%s: writing out the controller cache failed: the VD stays bound to the journal\n",
				vd->disk->disk_name);
			vraid_unbind_undo(j, vd);
			return -EIO;
		}
		pr_warn("%s: writing out the controller cache failed\n",
			vd->disk->disk_name);
	}
	/*
	 * The records go only once the members' media hold what they
	 * logged: a member whose flush fails may still hold it only in its
	 * volatile cache (a checkpoint keeps its records for that too).
	 */
	if (vraid_members_flush(vd) && may_fail) {
		pr_warn("%s: the members did not flush: the VD stays bound to the journal\n",
			vd->disk->disk_name);
		vraid_unbind_undo(j, vd);
		return -EIO;
	}
	md = vraid_parked_take(j, vd, &parked) || write_md;
	if (md)
		vraid_journal_metadata_write(vd, j, false);
	else
		vd->cache_flags &= ~VRAID_MD_CF_JOURNAL;
	WRITE_ONCE(vd->jaround, false);
	WRITE_ONCE(vd->jparity, false);
	smp_mb();		/* against vraid_journal_get_if() */
	vraid_unbind_wait(j, vd);
	/* writes sent around whose INVALIDATE the journal did not take */
	if (vraid_parked_take(j, vd, &parked) && !md)
		vraid_journal_metadata_write(vd, j, false);
	list_del_init(&vd->jnode);
	j->nr_vds--;
	vraid_journal_bound_vds_changed(j);
	vraid_parked_end(j, &parked);
	WRITE_ONCE(vd->junbinding, false);
	wake_up_all(&vd->jwait);
	return 0;
}

/*
 * The VD stops logging (policy change, stop, delete): its records all
 * done, its dirty data on the members and flushed; with @write_md its
 * metadata says so now (else the caller's next write does).  With
 * @may_fail (a policy change) it returns -EIO, the VD still bound, if
 * the cache cannot be written out; without (a stop, which wrote the
 * cache out before or discards it) it goes on.
 */
int vraid_journal_unbind(struct vraid_vd *vd, bool write_md, bool may_fail)
{
	struct vraid_journal *j = vraid_attached_journal;
	int ret = 0;

	if (!j)
		return 0;
	mutex_lock(&j->vds_mutex);
	if (vd->jbound)
		ret = vraid_unbind_locked(j, vd, write_md, may_fail);
	if (!write_md && !ret) {
		memset(vd->journal_uuid, 0, sizeof(vd->journal_uuid));
		vd->journal_floor = 0;
	}
	mutex_unlock(&j->vds_mutex);
	return ret;
}

static void vraid_journal_fail_work(struct work_struct *w)
{
	struct vraid_journal *j = container_of(w, struct vraid_journal,
					       fail_work);
	struct vraid_vd *vd;
	unsigned int noio = memalloc_noio_save();

	mutex_lock(&j->vds_mutex);
	while ((vd = list_first_entry_or_null(&j->vds, struct vraid_vd,
					      jnode))) {
		vraid_unbind_locked(j, vd, true, false);
		pr_warn("%s: journal failed: write-back writes through\n",
			vd->disk->disk_name);
	}
	mutex_unlock(&j->vds_mutex);
	memalloc_noio_restore(noio);
}

/* ---- checkpoint ---- */

/*
 * Move the tail to where the head is now: every bound VD's dirty data
 * goes to the members, which flush, then the superblock records the new
 * tail.  With vds_mutex held.  Returns 0 or an error (the tail stays).
 */
static int vraid_checkpoint_locked(struct vraid_journal *j, u32 sb_flags)
{
	struct vraid_vd *vd;
	u64 block, seq;
	long spent;
	int ret;

	/* writes that ended unlogged before now: their records are older */
	spent = atomic_long_read(&vraid_unlogged_spent);
	spin_lock_irq(&j->lock);
	/* writes around the cache wait (parity VDs) */
	j->checkpoint_running = true;
	block = j->head_block;
	seq = j->head_seq;
	spin_unlock_irq(&j->lock);
	WRITE_ONCE(j->checkpoint_start, jiffies | 1);
	/* records reserved before now are done */
	wait_event(j->wait, READ_ONCE(j->acked_seq) + 1 >= seq);
	/*
	 * and their data is in the cache: a record can be written and done
	 * while a writer still puts its pages into their lines (its DATA
	 * entry is queued first, vraid_cache_write()); queue and insertion
	 * are one RCU read-side section that began before the record was
	 * reserved, so after a grace period the pages are in, dirty with an
	 * epoch the drains below write out.
	 */
	synchronize_rcu();
	/*
	 * and the writes around the cache of parity VDs (none start now)
	 * are on the members: their parity records may be behind the tail
	 */
	wait_event(j->wait, !READ_ONCE(j->bypass_pages));
	if (j->nr_pending || j->pending_overflow ||
	    READ_ONCE(j->state) != VRAID_JOURNAL_HEALTHY) {
		ret = -EBUSY;
		goto out;
	}
	/*
	 * The tail moves only past records whose data every member holds on
	 * its media: a VD whose cache could not be written out, or whose
	 * members did not flush, keeps the records (and everyone's after
	 * them) until a later checkpoint gets its data out.
	 */
	ret = 0;
	list_for_each_entry(vd, &j->vds, jnode) {
		int err = vraid_cache_drain(vd);

		/* (named while it waits: vraid_journal_busy_note()) */
		if (!err) {
			spin_lock_irq(&j->lock);
			j->checkpoint_flush_vd = vd;
			spin_unlock_irq(&j->lock);
			err = vraid_members_flush(vd);
			spin_lock_irq(&j->lock);
			j->checkpoint_flush_vd = NULL;
			spin_unlock_irq(&j->lock);
		}
		if (err) {
			pr_warn("%s: writing out the controller cache failed: the journal keeps its records\n",
				vd->disk->disk_name);
			ret = -EIO;
		}
	}
	if (ret)
		goto out;
	ret = vraid_journal_write_super(j, block, seq, sb_flags);
	if (ret)
		pr_err("vraid: journal %s: superblock write failed (%d)\n",
		       j->name, ret);
out:
	spin_lock_irq(&j->lock);
	if (!ret) {
		j->tail_block = block;
		j->tail_seq = seq;
	}
	j->checkpoint_running = false;
	spin_unlock_irq(&j->lock);
	WRITE_ONCE(j->checkpoint_start, 0);
	wake_up_all(&j->wait);
	if (!ret && spent) {
		atomic_long_sub(spent, &vraid_unlogged_spent);
		wake_up_all(&vraid_admit_wait);
	}
	return ret;
}

/*
 * A checkpoint that has run for a second or more, for the message to
 * requests that wait for the controller (": journal checkpoint for 12 s:
 * vraid0 cache 1.0 MiB dirty", or once the cache is out ": journal
 * checkpoint for 12 s: vraid0 member 1 (nvme1n1) flush"): it holds
 * vds_mutex, which a policy change, a stop or a detach waits for, for as
 * long as the members take to write its VDs' dirty data and flush
 * (slow or stuck members: minutes).  Into @buf (empty if none runs), cut
 * to @len.  The VD named stays while j->lock is held: the checkpoint
 * clears checkpoint_flush_vd under it before it lets vds_mutex go, and no VD is
 * unbound (or freed) without that mutex.
 */
void vraid_journal_busy_note(char *buf, size_t len)
{
	struct vraid_journal *j;
	unsigned long since = 0;
	struct vraid_vd *vd;
	u32 m;
	int n;

	if (len)
		buf[0] = '\0';
	rcu_read_lock();		/* the journal is freed after a grace period */
	j = READ_ONCE(vraid_attached_journal);
	if (j)
		since = READ_ONCE(j->checkpoint_start);
	if (!since || time_before(jiffies, since + HZ)) {
		rcu_read_unlock();
		return;
	}
	n = scnprintf(buf, len, ": journal checkpoint for %lu s",
		      (jiffies - since) / HZ);
	spin_lock_irq(&j->lock);
	vd = j->checkpoint_flush_vd;
	m = vd ? READ_ONCE(vd->flushing) : 0;
	if (m && m <= vd->geom.nr_members)
		n += scnprintf(buf + n, len - n,
			       ": %s member %u (%.*s) flush",
			       vd->disk->disk_name, m - 1,
			       (int)sizeof(vd->members[m - 1].name),
			       vd->members[m - 1].name);
	spin_unlock_irq(&j->lock);
	rcu_read_unlock();
	if (!m)
		vraid_cache_draining_note(buf + n, len - n);
}

static void vraid_checkpoint_work(struct work_struct *w)
{
	struct vraid_journal *j = container_of(w, struct vraid_journal,
					       checkpoint_work);
	unsigned int noio = memalloc_noio_save();

	mutex_lock(&j->vds_mutex);
	spin_lock_irq(&j->lock);
	j->checkpoint_queued = false;
	/* no gap: see vraid_checkpoint_holds_bypass() */
	j->checkpoint_running = true;
	spin_unlock_irq(&j->lock);
	vraid_checkpoint_locked(j, 0);
	mutex_unlock(&j->vds_mutex);
	memalloc_noio_restore(noio);
}

/* ---- replay ---- */

static void vraid_replay_endio(struct bio *bio)
{
	complete(bio->bi_private);
}

/* Write @n pages (@mask: their sectors to write) at VD sector @sector. */
static int vraid_replay_write(struct vraid_vd *vd, u64 sector,
			      struct page **pages, u32 n, const u8 *mask)
{
	u32 s, e, total = n * 8;
	int ret = 0;

	for (s = 0; s < total; s = e) {
		DECLARE_COMPLETION_ONSTACK(done);
		struct bio *bio;
		u32 k;

		if (!(mask[s / 8] & (1U << (s % 8)))) {
			e = s + 1;
			continue;
		}
		for (e = s; e < total && (mask[e / 8] & (1U << (e % 8))); e++)
			;
		bio = bio_alloc(vd->disk->part0, DIV_ROUND_UP(e, 8) - s / 8,
				REQ_OP_WRITE, GFP_NOIO);
		bio->bi_iter.bi_sector = sector + s;
		for (k = s; k < e; ) {
			u32 off = (k % 8) << 9;
			u32 len = min_t(u32, e - k, 8 - k % 8) << 9;

			__bio_add_page(bio, pages[k / 8], len, off);
			k += len >> 9;
		}
		bio->bi_private = &done;
		bio->bi_end_io = vraid_replay_endio;
		vraid_engine_submit(vd, bio, 0);
		wait_for_completion_io(&done);
		if (bio->bi_status)
			ret = -EIO;
		bio_put(bio);
	}
	return ret;
}

/* Write @page to @member of @vd at @sector (from the device's start). */
static void vraid_replay_member_write(struct vraid_vd *vd, u32 member,
				      u64 sector, struct page *page)
{
	struct bio *bio;

	if (!vraid_member_get(vd, member, VRAID_MGET_WRITABLE, NULL))
		return;
	bio = bio_alloc(vd->members[member].h.bdev, 1, REQ_OP_WRITE,
			GFP_NOIO);
	bio->bi_iter.bi_sector = sector;
	__bio_add_page(bio, page, PAGE_SIZE, 0);
	this_cpu_inc(vd->stats->member_writes[member]);
	if (submit_bio_wait(bio)) {
		this_cpu_inc(vd->stats->member_errors[member]);
		vraid_member_fail(vd, member, "write error");
	}
	bio_put(bio);
	vraid_member_put(vd, member);
}

/* What a replay knows of the records walked, for PARITY references. */
struct vraid_replay_context {
	u64 first;			/* seq of pos[0]: the tail's */
	u64 floor;			/* the VD's: records before are void */
	u64 *pos;			/* ring block of each record, by seq */
	struct page *hpage;		/* a referenced record's header */
	struct page *dpage;		/* a referenced data block */
};

/*
 * The ring block of the data block at VD sector @data_sector that DATA entry
 * @ref->entry of the earlier record @ref->seq logged, into @blk: 0, -EIO,
 * or -ENOENT where the reference names no such block of @vd (a corrupt
 * journal: the caller skips the entry).
 */
static int vraid_replay_reference(struct vraid_journal *j, struct vraid_vd *vd,
				  struct vraid_replay_context *rc,
				  const struct vraid_jref *ref, u64 data_sector,
				  u64 *blk)
{
	u64 block = rc->pos[ref->seq - rc->first];
	struct vraid_jhdr hdr;
	struct vraid_jiter it;
	struct vraid_jentry e;
	char why[96];
	u32 k;
	int ret;

	ret = vraid_record_header_read(j, block, ref->seq, rc->hpage, &hdr);
	if (ret)
		return ret == -ENODATA ? -ENOENT : ret;
	vraid_jiter_init(&it, page_address(rc->hpage), &hdr);
	do {
		ret = vraid_jiter_next(&it, &e, why, sizeof(why));
	} while (ret > 0 && e.index < ref->entry);
	if (ret <= 0 || e.index != ref->entry || e.type != VRAID_JE_DATA ||
	    (e.flags & VRAID_JE_F_PARITY_DATA) ||
	    memcmp(e.vd_uuid, vd->uuid, VRAID_J_UUID_LEN) ||
	    data_sector < e.sector ||
	    data_sector >= e.sector + 8ULL * e.pages ||
	    (data_sector - e.sector) % 8)
		return -ENOENT;
	k = (data_sector - e.sector) / 8;
	if ((!k && e.first_mask != 0xff) ||
	    (k == e.pages - 1 && e.last_mask != 0xff))
		return -ENOENT;
	/* a record never wraps */
	*blk = block + 1 + e.page_off + k;
	return 0;
}

/*
 * Replay PARITY entry @e of the record read into @w (its entries' first
 * payload blocks in @poff; @pdata: those flagged PARITY_DATA): its data
 * blocks, from this record or named in earlier ones, and P (and Q)
 * straight to the members, which makes the column consistent whatever
 * the crash left.  A column that names a record before the tail or the
 * floor was settled before the crash (cache-design.rst, "Parity records
 * that name the user's version"): skipped.  Returns 1 if written, 0 if
 * skipped (or it does not fit the VD: logged), or -EIO.
 */
static int vraid_replay_parity(struct vraid_journal *j, struct vraid_vd *vd,
			       struct vraid_walk *w,
			       struct vraid_replay_context *rc,
			       const struct vraid_jentry *e, const u32 *poff,
			       const unsigned long *pdata)
{
	const struct vraid_geom *g = &vd->geom;
	u32 width = g->nr_members / g->spans, npar = e->pages, i, m;
	u64 rel = e->sector - VRAID_DATA_OFFSET_SECTORS, stripe, data_sector;
	u64 jblk[VRAID_J_MAX_REFS];
	struct vraid_jref ref;
	int ret;

	if (e->span >= g->spans || rel + 8 > g->member_sectors ||
	    npar != vraid_parity_blocks(vd))
		goto skip;
	stripe = rel >> g->strip_shift;
	for (i = 0; i < e->nrefs; i++) {
		vraid_jentry_ref(e, i, &ref);
		if (ref.data_index >= width - npar)
			goto skip;
		if (ref.seq == w->seq) {
			if (!test_bit(ref.entry, pdata))
				goto skip;
			continue;
		}
		if (ref.seq < rc->first || ref.seq < rc->floor)
			return 0;	/* settled */
		data_sector = vraid_layout_vsector(g, e->span, stripe,
				ref.data_index, rel & (g->strip_sectors - 1));
		ret = vraid_replay_reference(j, vd, rc, &ref, data_sector,
					     &jblk[i]);
		if (ret == -ENOENT)
			goto skip;
		if (ret)
			return ret;
	}
	for (i = 0; i < e->nrefs; i++) {
		struct page *page = rc->dpage;

		vraid_jentry_ref(e, i, &ref);
		if (ref.seq == w->seq)
			page = w->pages[poff[ref.entry]];
		else if (vraid_journal_io(j, vraid_journal_sector(j, jblk[i]),
					  &page, 1,
					  REQ_OP_READ | REQ_SYNC))
			return -EIO;
		m = vraid_layout_data_member(g, e->span, stripe,
					     ref.data_index);
		vraid_replay_member_write(vd, m, e->sector, page);
	}
	m = vraid_layout_p_member(g, e->span, stripe);
	vraid_replay_member_write(vd, m, e->sector, w->pages[e->page_off]);
	if (npar == 2) {
		m = vraid_layout_q_member(g, e->span, stripe);
		vraid_replay_member_write(vd, m, e->sector,
					  w->pages[e->page_off + 1]);
	}
	return 1;
skip:
	pr_warn("%s: journal record %llu: a PARITY entry that does not fit this VD or names no block of it (member sector %llu, span %u): skipped\n",
		vd->disk->disk_name, (unsigned long long)w->seq,
		(unsigned long long)e->sector, e->span);
	return 0;
}

/*
 * An INVALIDATE of a replay: sectors @start to @last, entry @index of
 * record @seq.
 */
struct vraid_replay_invalidate {
	struct rb_node rb;
	u64 seq, start, last;
	u64 subtree_last;		/* the interval tree's */
	u32 index;
};

#define VRAID_INVALIDATE_START(v)	((v)->start)
#define VRAID_INVALIDATE_LAST(v)	((v)->last)
INTERVAL_TREE_DEFINE(struct vraid_replay_invalidate, rb, u64, subtree_last,
		     VRAID_INVALIDATE_START, VRAID_INVALIDATE_LAST, static,
		     vraid_invalidate_tree)

/*
 * The INVALIDATEs of a replay, in log order (seq, then index in the record): a
 * growing array (pass 0), then (pass 2, vraid_replay_invalidates_index()) also
 * an interval tree of those later than the entry being replayed.  @later: the
 * first one past that entry, which only moves on, as pass 2 goes in log order
 * too; those it passes leave the tree.
 */
struct vraid_replay_invalidates {
	struct vraid_replay_invalidate *v;
	u32 n, max, later;
	struct rb_root_cached root;
};

static int vraid_invalidate_add(struct vraid_replay_invalidates *iv, u64 seq,
				const struct vraid_jentry *e)
{
	if (iv->n == iv->max) {
		u32 max = iv->max ? 2 * iv->max : 64;
		struct vraid_replay_invalidate *v;

		/* kvrealloc() changed its arguments in 6.12: copy by hand */
		v = kvmalloc_array(max, sizeof(*v), GFP_KERNEL);
		if (!v)
			return -ENOMEM;
		if (iv->n)
			memcpy(v, iv->v, iv->n * sizeof(*v));
		kvfree(iv->v);
		iv->v = v;
		iv->max = max;
	}
	iv->v[iv->n].seq = seq;
	iv->v[iv->n].index = e->index;
	iv->v[iv->n].start = e->sector;
	iv->v[iv->n].last = e->sector + e->sectors - 1;
	iv->n++;
	return 0;
}

/* Once pass 0 has them all (the array no longer moves): the tree. */
static void vraid_replay_invalidates_index(struct vraid_replay_invalidates *iv)
{
	u32 i;

	for (i = 0; i < iv->n; i++)
		vraid_invalidate_tree_insert(&iv->v[i], &iv->root);
}

/*
 * @mask: the sectors of DATA entry @e (of record @seq) no later INVALIDATE
 * voids.  Entries come in log order: the INVALIDATEs before @e leave the
 * tree for good, and a lookup finds only later ones that overlap the
 * entry, O(log n) each; only those walk their sectors.  Later means
 * later in log order, that is by (seq, index): one record may log a
 * cached write and, after it, the INVALIDATE of a write sent around the
 * cache once that cached data was destaged (both waited on the open list
 * for the same record), and that INVALIDATE voids it as one of a later
 * record would.  Returns the entry's blocks with a sector voided.
 */
static u32 vraid_replay_mask(struct vraid_replay_invalidates *iv, u64 seq,
			     const struct vraid_jentry *e, u8 *mask)
{
	u64 start = e->sector, end = e->sector + (u64)e->pages * 8;
	struct vraid_replay_invalidate *v;
	u32 i, voided = 0;

	memset(mask, 0xff, e->pages);
	while (iv->later < iv->n &&
	       (iv->v[iv->later].seq < seq ||
		(iv->v[iv->later].seq == seq &&
		 iv->v[iv->later].index < e->index)))
		vraid_invalidate_tree_remove(&iv->v[iv->later++], &iv->root);
	for (v = vraid_invalidate_tree_iter_first(&iv->root, start, end - 1); v;
	     v = vraid_invalidate_tree_iter_next(v, start, end - 1)) {
		u64 p, to = min(v->last + 1, end) - start;

		for (p = max(v->start, start) - start; p < to; p++)
			mask[p / 8] &= ~(1U << (p % 8));
	}
	for (i = 0; i < e->pages; i++)
		voided += mask[i] != 0xff;
	return voided;
}

/*
 * Write @vd's records from @floor on again (assembly, before the disk is
 * live), in log order: pass 0 finds the INVALIDATEs and where each
 * record is; pass 1 writes every parity record's data and P/Q straight
 * to the members (each one: a later record's P assumes an earlier one's
 * data); pass 2 every DATA version through the engine, minus sectors a
 * later INVALIDATE covers.  With vds_mutex held: the tail stays.
 */
static int vraid_replay_locked(struct vraid_journal *j, struct vraid_vd *vd,
			       u64 floor, u32 *writes, u32 *columns,
			       u32 *voided)
{
	struct vraid_replay_invalidates iv = { NULL, 0, 0, 0, RB_ROOT_CACHED };
	struct vraid_replay_context rc = {
		.first = j->tail_seq, .floor = floor
	};
	struct vraid_walk w;
	struct page *hpage;
	u64 end_seq = j->head_seq;
	DECLARE_BITMAP(pdata, VRAID_J_MAX_ENTRIES);
	u32 pass, *poff;
	int ret = 0;

	bitmap_zero(pdata, VRAID_J_MAX_ENTRIES);
	poff = kmalloc_array(VRAID_J_MAX_ENTRIES, sizeof(*poff), GFP_KERNEL);
	/* 8 bytes a record: 8 MiB at most for a ring of 4 GiB */
	rc.pos = kvmalloc_array(max_t(u64, end_seq - rc.first, 1),
				sizeof(*rc.pos), GFP_KERNEL);
	rc.hpage = alloc_page(GFP_KERNEL);
	rc.dpage = alloc_page(GFP_KERNEL);
	w.pages = vraid_payload_pages_alloc(&hpage);
	if (!w.pages || !poff || !rc.pos || !rc.hpage || !rc.dpage) {
		ret = -ENOMEM;
		goto out;
	}
	*writes = 0;
	*columns = 0;
	*voided = 0;
	for (pass = 0; pass < 3 && !ret; pass++) {
		/* the engine reads what pass 1 wrote */
		if (pass == 2 && vd->ops->invalidate)
			vd->ops->invalidate(vd);
		if (pass == 2)
			vraid_replay_invalidates_index(&iv);
		w.block = j->tail_block;
		w.seq = j->tail_seq;
		for (; w.seq < end_seq && !ret; vraid_walk_next(j, &w)) {
			struct vraid_jiter it;
			struct vraid_jentry e;
			u8 mask[VRAID_WRITE_MAX_PAGES];
			char why[96];

			ret = vraid_walk_read(j, &w, hpage);
			if (ret) {
				pr_err("%s: journal record %llu unreadable on replay (%d)\n",
				       vd->disk->disk_name,
				       (unsigned long long)w.seq, ret);
				break;
			}
			if (!pass)
				rc.pos[w.seq - rc.first] = w.block;
			if (w.seq < floor)
				continue;
			vraid_jiter_init(&it, w.blk, &w.hdr);
			while (!ret &&
			       vraid_jiter_next(&it, &e, why, sizeof(why)) > 0) {
				poff[e.index] = e.page_off;
				assign_bit(e.index, pdata,
					   e.type == VRAID_JE_DATA &&
					   (e.flags & VRAID_JE_F_PARITY_DATA));
				if (memcmp(e.vd_uuid, vd->uuid, 16))
					continue;
				if (pass == 0 && e.type == VRAID_JE_INVALIDATE)
					ret = vraid_invalidate_add(&iv, w.seq,
								   &e);
				if (pass == 1 && e.type == VRAID_JE_PARITY) {
					ret = vraid_replay_parity(j, vd, &w,
								  &rc, &e,
								  poff,
								  pdata);
					if (ret > 0)
						*columns += ret;
					ret = min(ret, 0);
				}
				if (pass != 2 || e.type != VRAID_JE_DATA ||
				    (e.flags & VRAID_JE_F_PARITY_DATA) ||
				    e.pages > VRAID_WRITE_MAX_PAGES)
					continue;
				*voided += vraid_replay_mask(&iv, w.seq, &e,
							      mask);
				ret = vraid_replay_write(vd, e.sector,
							 w.pages + e.page_off,
							 e.pages, mask);
				(*writes)++;
			}
		}
	}
out:
	kvfree(iv.v);
	if (w.pages)
		vraid_payload_pages_free(w.pages, hpage);
	kfree(poff);
	kvfree(rc.pos);
	if (rc.hpage)
		__free_page(rc.hpage);
	if (rc.dpage)
		__free_page(rc.dpage);
	/* the records are let go once what they replayed is on the media */
	if (!ret)
		ret = vraid_members_flush(vd);
	return ret;
}

/* Whether @uuid is the attached journal's. */
static bool vraid_journal_is(struct vraid_journal *j, const u8 *uuid)
{
	return j && !memcmp(j->uuid, uuid, VRAID_J_UUID_LEN);
}

/*
 * Assembly of @vd, before its disk goes live (vraid_ctl_mutex held):
 * its metadata's journal fields are in vd.  If they name a journal, that
 * journal must be attached (@no_journal: go on without, losing those
 * writes); its records are replayed (@done: what that did).  Either way
 * the VD no longer awaits replay.  Returns 0 or an error with @msg.
 */
/*
 * @vd's writes wait in @j no more: drop its pending entry, and take
 * records again once no VD waits.  j->vds_mutex held.
 */
static void vraid_pending_drop_locked(struct vraid_journal *j,
				      struct vraid_vd *vd)
{
	u32 i;

	if (vraid_pending_find(j, vd->uuid, &i)) {
		memmove(j->pending[i], j->pending[i + 1],
			(j->nr_pending - i - 1) * VRAID_J_UUID_LEN);
		j->nr_pending--;
	}
	vraid_journal_resume_locked(j);
}

int vraid_journal_assemble(struct vraid_vd *vd, bool clean, bool no_journal,
			   struct vraid_journal_replayed *done, char *msg,
			   size_t len)
{
	struct vraid_journal *j = vraid_attached_journal;
	bool need = vd->cache_flags & VRAID_MD_CF_JOURNAL;
	u64 init_pos = vd->init_pos;
	int ret = 0;

	memset(done, 0, sizeof(*done));
	if (need && !vraid_journal_is(j, vd->journal_uuid)) {
		if (!no_journal) {
			snprintf(msg, len,
				 "writes wait in journal %pUb: attach it (vraidctl controller journal DEV) or --no-journal",
				 vd->journal_uuid);
			return -ENOENT;
		}
		pr_warn("vraid: VD %pUb assembled without its journal %pUb: writes only the journal held are lost\n",
			vd->uuid, vd->journal_uuid);
		need = false;
	}
	if (!j)
		goto out;
	mutex_lock(&j->vds_mutex);
	if (need) {
		/* the crash's write-intent bits before the replay's */
		if (vd->bitmap && !clean)
			vraid_bitmap_load(vd);
		/* reconstruct-writes: parity may be torn where it was written */
		vd->init_pos = 0;
		ret = vraid_replay_locked(j, vd, vd->journal_floor,
					  &done->writes, &done->columns,
					  &done->superseded);
		vd->init_pos = init_pos;
		if (ret) {
			snprintf(msg, len,
				 "replaying the journal failed (error %d): not started",
				 ret);
			mutex_unlock(&j->vds_mutex);
			return ret;
		}
		done->ran = true;
		pr_info("%s: replayed %u write%s and %u parity record%s from journal %s\n",
			vd->disk->disk_name, done->writes,
			done->writes == 1 ? "" : "s", done->columns,
			done->columns == 1 ? "" : "s", j->name);
		if (done->superseded)
			pr_info("%s: %u logged 4 KiB block%s superseded by later writes around the cache: not replayed there\n",
				vd->disk->disk_name, done->superseded,
				done->superseded == 1 ? "" : "s");
	}
	/*
	 * A VD replayed stays pending until its metadata says it needs the
	 * journal no more (vraid_journal_assembled()): should the assembly
	 * fail before, the next one replays again, onto members missing
	 * at this one too.  Records its metadata does not name (it was
	 * unbound before the crash) are let go now, as they always were:
	 * nothing replays them, and other VDs should not write through
	 * while this one waits.
	 */
	if (!done->ran)
		vraid_pending_drop_locked(j, vd);
	mutex_unlock(&j->vds_mutex);
out:
	/* nothing of the VD needs a journal now; bind anew if healthy */
	memset(vd->journal_uuid, 0, sizeof(vd->journal_uuid));
	vd->journal_floor = 0;
	vd->cache_flags &= ~VRAID_MD_CF_JOURNAL;
	return 0;
}

/*
 * The assembly of @vd has written its metadata, which no longer names
 * the journal: the journal forgets the VD's records, and takes records
 * again once no VD waits for a replay.  Called with vraid_ctl_mutex held.
 */
void vraid_journal_assembled(struct vraid_vd *vd)
{
	struct vraid_journal *j = vraid_attached_journal;

	if (!j)
		return;
	mutex_lock(&j->vds_mutex);
	vraid_pending_drop_locked(j, vd);
	mutex_unlock(&j->vds_mutex);
}

/* ---- attach, detach, show ---- */

/* Replay pending resolved (or discarded): the journal takes records. */
static bool vraid_journal_resume_locked(struct vraid_journal *j)
{
	if (j->state != VRAID_JOURNAL_REPLAY_PENDING || j->nr_pending ||
	    j->pending_overflow)
		return false;
	if (vraid_journal_write_super(j, j->head_block, j->head_seq, 0))
		return false;
	spin_lock_irq(&j->lock);
	j->tail_block = j->head_block;
	j->tail_seq = j->head_seq;
	j->state = VRAID_JOURNAL_HEALTHY;
	spin_unlock_irq(&j->lock);
	pr_info("vraid: journal %s: every VD replayed: healthy\n", j->name);
	return true;
}

static int vraid_journal_format(struct vraid_journal *j, u64 old_gen)
{
	int ret;

	get_random_bytes(j->uuid, sizeof(j->uuid));
	j->created = ktime_get_real_seconds();
	j->generation = old_gen;
	/* both slots, so that no older superblock wins */
	ret = vraid_journal_write_super(j, 0, 1, 0);
	if (!ret)
		ret = vraid_journal_write_super(j, 0, 1, 0);
	j->tail_block = 0;
	j->tail_seq = 1;
	j->head_block = 0;
	j->head_seq = 1;
	j->acked_seq = 0;
	return ret;
}

/* Read both superblocks: 0 (j set up), -ENODATA (none) or an error. */
static int vraid_journal_read_super(struct vraid_journal *j, u64 dev_sectors,
				    u64 *max_gen, char *msg, size_t len)
{
	struct vraid_jsb sb[2];
	struct page *page;
	int r[2], ret, s;
	u32 i;

	page = alloc_page(GFP_KERNEL);
	if (!page)
		return -ENOMEM;
	*max_gen = 0;
	for (i = 0; i < 2; i++) {
		ret = vraid_journal_io(j, i ? VRAID_J_SB_SECTOR1 :
				       VRAID_J_SB_SECTOR0,
				       &page, 1, REQ_OP_READ | REQ_SYNC);
		if (ret) {
			snprintf(msg, len, "cannot read the journal's superblock (error %d)",
				 ret);
			__free_page(page);
			return ret;
		}
		r[i] = vraid_jsb_decode(page_address(page), i, dev_sectors,
					&sb[i], msg, len);
		if (!r[i] && sb[i].generation > *max_gen)
			*max_gen = sb[i].generation;
	}
	__free_page(page);
	s = vraid_jsb_choose(&sb[0], r[0], &sb[1], r[1], msg, len);
	/* a journal's magic, but neither slot valid: never format silently */
	if (s == -ENODATA && (r[0] != -ENODATA || r[1] != -ENODATA)) {
		snprintf(msg, len,
			 "%s has a damaged journal superblock (no valid slot): it may hold acknowledged writes; to format it anew give --force",
			 j->name);
		return -EUCLEAN;
	}
	if (s < 0)
		return s;
	memcpy(j->uuid, sb[s].uuid, sizeof(j->uuid));
	j->generation = sb[s].generation;
	j->created = sb[s].created;
	j->ring = sb[s].ring_blocks;
	j->tail_block = sb[s].tail_block;
	j->tail_seq = sb[s].tail_seq;
	return 0;
}

static void vraid_journal_free(struct vraid_journal *j)
{
	bioset_exit(&j->bypass_set);
	bioset_exit(&j->rec_set);
	mempool_exit(&j->write_pool);
	mempool_exit(&j->header_pool);
	vraid_bdev_close(&j->h);
	kfree(j);
}

/*
 * JOURNAL_ATTACH (vraid_ctl_mutex held).  @force: format even a vraid
 * journal.  Returns 0 (then the caller binds the wb VDs) or an error
 * with @msg.
 */
int vraid_journal_attach(dev_t dev, bool force, char *msg, size_t len)
{
	struct vraid_journal *j;
	u64 sectors, max_gen;
	long found = 0;
	bool formatted = false;
	int ret;
	u32 i;

	if (vraid_attached_journal) {
		snprintf(msg, len,
			 "journal %s is attached: detach it first (vraidctl controller journal none)",
			 vraid_attached_journal->name);
		return -EBUSY;
	}
	j = kzalloc(sizeof(*j), GFP_KERNEL);
	if (!j)
		return -ENOMEM;
	ret = vraid_bdev_open(&j->h, dev, j);
	if (ret) {
		snprintf(msg, len, "device %u:%u cannot be opened (error %d)%s",
			 MAJOR(dev), MINOR(dev), ret,
			 ret == -EBUSY ? ": in use (a member, mounted, or held by another driver)" : "");
		kfree(j);
		return ret;
	}
	snprintf(j->name, sizeof(j->name), "%pg", j->h.bdev);
	sectors = bdev_nr_sectors(j->h.bdev);
	ret = -EINVAL;
	if (vraid_is_vd(j->h.bdev)) {
		snprintf(msg, len, "%s is a vraid virtual drive: a journal needs a device of its own",
			 j->name);
		goto out_close;
	}
	if (bdev_read_only(j->h.bdev)) {
		snprintf(msg, len, "%s is read-only", j->name);
		goto out_close;
	}
	if (bdev_logical_block_size(j->h.bdev) > VRAID_J_BLOCK) {
		snprintf(msg, len, "%s has %u-byte blocks: a journal needs 4 KiB or less",
			 j->name, bdev_logical_block_size(j->h.bdev));
		goto out_close;
	}
	if (bdev_is_zoned(j->h.bdev)) {
		snprintf(msg, len, "%s is zoned: a journal needs a conventional device",
			 j->name);
		goto out_close;
	}
	if (sectors < VRAID_J_MIN_BYTES >> 9 || !vraid_jring_blocks(sectors)) {
		snprintf(msg, len, "%s has %llu MiB: a journal needs at least %llu MiB",
			 j->name, (unsigned long long)(sectors >> 11),
			 VRAID_J_MIN_BYTES >> 20);
		goto out_close;
	}
	ret = mempool_init_page_pool(&j->header_pool, 2 * VRAID_JOURNAL_POOL,
				     0);
	if (!ret)
		ret = mempool_init_kmalloc_pool(&j->write_pool,
				4 * VRAID_JOURNAL_POOL,
				sizeof(struct vraid_journal_write));
	if (!ret)
		ret = bioset_init(&j->rec_set, VRAID_JOURNAL_POOL,
				  offsetof(struct vraid_record, bio),
				  BIOSET_NEED_BVECS);
	if (!ret)
		ret = bioset_init(&j->bypass_set, VRAID_JOURNAL_POOL,
				  offsetof(struct vraid_bypass_write, clone),
				  0);
	if (ret) {
		snprintf(msg, len, "out of memory");
		goto out_pools;
	}
	spin_lock_init(&j->lock);
	INIT_LIST_HEAD(&j->inflight);
	INIT_LIST_HEAD(&j->fallback);
	INIT_LIST_HEAD(&j->parked);
	INIT_LIST_HEAD(&j->open);
	INIT_LIST_HEAD(&j->open_columns);
	init_waitqueue_head(&j->wait);
	mutex_init(&j->vds_mutex);
	INIT_LIST_HEAD(&j->vds);
	INIT_WORK(&j->checkpoint_work, vraid_checkpoint_work);
	INIT_WORK(&j->fail_work, vraid_journal_fail_work);
	INIT_WORK(&j->fallback_work, vraid_fallback_work);
	INIT_WORK(&j->pump_work, vraid_record_pump_work);
	INIT_WORK(&j->parity_pump_work, vraid_parity_pump_work);

	ret = vraid_journal_read_super(j, sectors, &max_gen, msg, len);
	/* --force formats whatever superblocks could be read */
	if (force && (!ret || ret == -EUCLEAN || ret == -EINVAL))
		ret = -ENODATA;
	if (ret == -ENODATA) {
		j->ring = vraid_jring_blocks(sectors);
		ret = vraid_journal_format(j, max_gen);
		if (ret) {
			snprintf(msg, len, "cannot write the journal's superblock (error %d)",
				 ret);
			goto out_pools;
		}
		formatted = true;
	} else if (ret) {
		/* msg says why (another version, two journals' slots) */
		goto out_pools;
	} else {
		found = vraid_journal_scan(j);
		if (found < 0) {
			ret = found;
			snprintf(msg, len, "cannot read the journal (error %d)",
				 ret);
			goto out_pools;
		}
	}
	j->state = j->nr_pending || j->pending_overflow ?
		   VRAID_JOURNAL_REPLAY_PENDING : VRAID_JOURNAL_HEALTHY;
	/* in use again: neither DETACHED nor RELEASED (assemble --scan) */
	if (j->state == VRAID_JOURNAL_HEALTHY && !formatted &&
	    vraid_journal_write_super(j, j->head_block, j->head_seq, 0)) {
		snprintf(msg, len, "cannot write the journal's superblock");
		ret = -EIO;
		goto out_pools;
	}
	if (j->state == VRAID_JOURNAL_HEALTHY && found) {
		j->tail_block = j->head_block;
		j->tail_seq = j->head_seq;
	}
	WRITE_ONCE(vraid_attached_journal, j);
	pr_info("vraid: journal %s attached (%pUb, %llu MiB%s): %s\n", j->name,
		j->uuid, (unsigned long long)(j->ring >> 8),
		formatted ? ", formatted" : "",
		j->state == VRAID_JOURNAL_HEALTHY ? "healthy" :
		"writes of VDs not assembled yet wait for replay");
	for (i = 0; i < j->nr_pending; i++)
		pr_warn("vraid: journal %s holds writes of VD %pUb: assemble it, or discard them (vraidctl controller journal discard --force)\n",
			j->name, j->pending[i]);
	if (j->pending_overflow)
		pr_warn("vraid: journal %s holds writes of more VDs than these %u\n",
			j->name, j->nr_pending);
	return 0;

out_pools:
	bioset_exit(&j->bypass_set);
	bioset_exit(&j->rec_set);
	mempool_exit(&j->write_pool);
	mempool_exit(&j->header_pool);
out_close:
	vraid_bdev_close(&j->h);
	kfree(j);
	return ret;
}

/*
 * JOURNAL_DETACH (vraid_ctl_mutex held; also at module exit): every VD
 * writes through, its data on the members; a healthy journal is left
 * empty and marked detached, and with @released (the command's, not the
 * unload's) marked so that assemble --scan does not attach it again.
 */
int vraid_journal_detach(bool released, char *msg, size_t len)
{
	struct vraid_journal *j = vraid_attached_journal;
	struct vraid_vd *vd;
	LIST_HEAD(left);
	unsigned long flags;
	u32 unbound = 0;

	if (!j) {
		snprintf(msg, len, "no journal is attached");
		return -ENOENT;
	}
	mutex_lock(&j->vds_mutex);
	/*
	 * The unbinds let the records go once each VD's data is out: if a
	 * VD's cannot be written now, the journal stays as it is.
	 */
	list_for_each_entry(vd, &j->vds, jnode) {
		if (vraid_cache_write_out(vd) &&
		    vraid_cache_dirty_pages(vd)) {
			mutex_unlock(&j->vds_mutex);
			snprintf(msg, len,
				 "%s: %lu KiB of cached writes cannot be written to the members: the journal stays attached",
				 vd->disk->disk_name,
				 vraid_cache_dirty_pages(vd) <<
				 (PAGE_SHIFT - 10));
			return -EIO;
		}
	}
	while ((vd = list_first_entry_or_null(&j->vds, struct vraid_vd,
					      jnode))) {
		/*
		 * Data that failed since the write-out above, or members that
		 * did not flush: stay.  The VDs unbound before it write
		 * through (nothing rebinds them but a change of their write
		 * policy to wb): the message counts them.
		 */
		if (vraid_unbind_locked(j, vd, true, true)) {
			mutex_unlock(&j->vds_mutex);
			snprintf(msg, len,
				 "%s: %lu KiB of cached writes not on the members' media: the journal stays attached (%u VD%s detached before it)",
				 vd->disk->disk_name,
				 vraid_cache_dirty_pages(vd) <<
				 (PAGE_SHIFT - 10), unbound,
				 unbound == 1 ? "" : "s");
			return -EIO;
		}
		unbound++;
	}
	if (READ_ONCE(j->state) == VRAID_JOURNAL_HEALTHY)
		vraid_checkpoint_locked(j, VRAID_J_SB_DETACHED |
					(released ? VRAID_J_SB_RELEASED : 0));
	spin_lock_irqsave(&j->lock, flags);
	if (j->state == VRAID_JOURNAL_HEALTHY)
		j->state = VRAID_JOURNAL_NONE;
	spin_unlock_irqrestore(&j->lock, flags);
	mutex_unlock(&j->vds_mutex);
	wake_up_all(&j->wait);
	/* every record's completion is over, not just its bio's */
	wait_event(vraid_journal_idle, !atomic_read(&j->record_ios));
	cancel_work_sync(&j->checkpoint_work);
	cancel_work_sync(&j->fail_work);
	flush_work(&j->pump_work);
	flush_work(&j->parity_pump_work);
	flush_work(&j->fallback_work);
	/* none: each VD's unbind took its own */
	if (WARN_ON_ONCE(vraid_parked_take(j, NULL, &left)))
		vraid_parked_end(j, &left);
	/* every write ended: what ended unlogged is in no ring now */
	WARN_ON_ONCE(atomic_long_read(&vraid_unlogged_pages));
	atomic_long_set(&vraid_unlogged_pages, 0);
	atomic_long_set(&vraid_unlogged_spent, 0);
	WRITE_ONCE(vraid_attached_journal, NULL);
	pr_info("vraid: journal %s detached\n", j->name);
	synchronize_rcu();		/* vraid_journal_state() */
	vraid_journal_free(j);
	return 0;
}

/* JOURNAL_DISCARD (vraid_ctl_mutex held): forget writes not replayed. */
int vraid_journal_discard(char *msg, size_t len)
{
	struct vraid_journal *j = vraid_attached_journal;
	int ret = 0;

	if (!j) {
		snprintf(msg, len, "no journal is attached");
		return -ENOENT;
	}
	mutex_lock(&j->vds_mutex);
	if (j->state != VRAID_JOURNAL_REPLAY_PENDING) {
		snprintf(msg, len, "journal %s holds no writes waiting for replay: nothing to discard",
			 j->name);
		ret = -EINVAL;
	} else {
		pr_warn("vraid: journal %s: discarding the writes of %u VD%s not assembled\n",
			j->name, j->nr_pending, j->nr_pending == 1 ? "" : "s");
		j->nr_pending = 0;
		j->pending_overflow = false;
		if (!vraid_journal_resume_locked(j)) {
			snprintf(msg, len, "cannot write the journal's superblock");
			ret = -EIO;
		}
	}
	mutex_unlock(&j->vds_mutex);
	return ret;
}

void vraid_journal_show(struct vraid_controller *c)
{
	struct vraid_journal *j = vraid_attached_journal;

	if (!j)
		return;
	spin_lock_irq(&j->lock);
	c->journal_state = j->state;
	c->journal_head_seq = j->head_seq;
	c->journal_tail_seq = j->tail_seq;
	c->journal_used_bytes = vraid_jring_used(j->ring, j->tail_block,
						 j->head_block) * VRAID_J_BLOCK;
	spin_unlock_irq(&j->lock);
	c->journal_major = MAJOR(j->h.bdev->bd_dev);
	c->journal_minor = MINOR(j->h.bdev->bd_dev);
	c->journal_bytes = j->ring * VRAID_J_BLOCK;
	memcpy(c->journal_uuid, j->uuid, sizeof(c->journal_uuid));
	c->journal_pending = j->nr_pending;
	c->journal_vds = j->nr_vds;
}

/*
 * The journal's state for a VD's write policy in effect; also without
 * vraid_ctl_mutex (sysfs): a detach frees the journal after a grace period.
 */
u32 vraid_journal_state(void)
{
	struct vraid_journal *j;
	u32 state = VRAID_JOURNAL_NONE;

	rcu_read_lock();
	j = READ_ONCE(vraid_attached_journal);
	if (j)
		state = READ_ONCE(j->state);
	rcu_read_unlock();
	return state;
}

int __init vraid_journal_module_init(void)
{
	vraid_journal_wq = alloc_workqueue("vraid_journal",
					   WQ_MEM_RECLAIM | WQ_UNBOUND, 0);
	if (!vraid_journal_wq)
		return -ENOMEM;
	vraid_journal_submit_wq = alloc_workqueue("vraid_jsubmit",
						  WQ_MEM_RECLAIM |
						  WQ_UNBOUND, 0);
	if (!vraid_journal_submit_wq)
		goto out_journal;
	vraid_journal_parity_wq = alloc_workqueue("vraid_jparity",
						  WQ_MEM_RECLAIM | WQ_UNBOUND |
						  WQ_HIGHPRI, 0);
	if (!vraid_journal_parity_wq)
		goto out_submit;
	return 0;
out_submit:
	destroy_workqueue(vraid_journal_submit_wq);
out_journal:
	destroy_workqueue(vraid_journal_wq);
	return -ENOMEM;
}

void vraid_journal_module_exit(void)
{
	char msg[VRAID_MSG_LEN];

	if (vraid_attached_journal)
		vraid_journal_detach(false, msg, sizeof(msg));
	destroy_workqueue(vraid_journal_parity_wq);
	destroy_workqueue(vraid_journal_submit_wq);
	destroy_workqueue(vraid_journal_wq);
}
