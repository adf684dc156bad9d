// SPDX-License-Identifier: GPL-2.0
/*
 * The controller cache: cached reads (io-policy=cached), read-ahead
 * (read-policy=ra) and write-back (write-policy=awb, and wb while the VD
 * logs to the journal, journal.c).  Documentation/cache-design.rst is the
 * plan and its history; this is how the code works.
 *
 * The pool
 * --------
 * One controller-wide bound on cached pages (module parameter cache_mib,
 * CONTROLLER SET_CACHE_SIZE), shared by every VD.  Per VD, a hash of
 * buckets of 64 KiB cache lines of 4 KiB pages (struct vraid_cache_line).
 *
 * Clean pages hold only what the members hold, so dropping them loses
 * nothing: eviction (oldest lines first, from the VD holding the most
 * clean pages) and the shrinker take only those.  Dirty pages are written
 * out first ("Write-back").
 *
 * States of a page
 * ----------------
 * A page of a line is in one of these states, given by its bits in the
 * line's masks (valid, read_ahead, dirty, busy, stale, filled, failed):
 *
 *   Absent      !valid
 *   Clean       valid, !dirty: the members hold the same data
 *   Read-ahead  Clean and read_ahead: read ahead, no user read took it yet
 *   Dirty       valid, dirty, !busy: data the members do not hold yet
 *   Filled      Dirty and filled: made dirty by a row fill, the members
 *               hold it; not counted in the dirty bounds
 *   Failed      Dirty and failed: its destage failed ("Write-out errors"
 *               above vraid_destage_endio()); not counted in the bounds
 *   Busy        dirty and busy: a destage bio writes it (holds a reference)
 *   Stale       Busy and stale: a write to the members went around it
 *
 * The transitions, every one under the bucket's lock:
 *
 *   Absent     -> Clean       a read's fill completes (vraid_fill_endio())
 *   Absent     -> Read-ahead  a read-ahead window completes (vraid_ra_endio())
 *   Absent     -> Filled      a row fill completes (vraid_row_fill_done())
 *   Read-ahead -> Clean       a user read takes it (vraid_cache_get())
 *   Clean      -> Filled      its row is filled or goes out whole
 *                             (vraid_row_fill_make_dirty())
 *   any        -> Dirty       a cached write (vraid_cache_write()) puts a
 *                             new page in; a Busy page stays with its bio,
 *                             and its slot is Busy until that bio is done
 *   Dirty      -> Busy        a destage takes the line (vraid_destage_take())
 *   Busy       -> Stale       a write to the members starts over it
 *                             (vraid_cache_write_start(); destage's own too)
 *   Busy       -> Clean       its destage bio succeeds (vraid_destage_endio())
 *   Stale      -> Absent      the same, for a stale page
 *   Busy/Stale -> Failed      its destage bio fails; a page replaced
 *                             meanwhile is simply Dirty
 *   Clean      -> Absent      eviction, the shrinker, a smaller pool, a write
 *                             to the members over it, a switch to direct
 *                             (all through vraid_line_drop())
 *   Dirty      -> Absent      a write to the members over it that the
 *                             conflict check missed (a concurrent one,
 *                             vraid_cache_write()); teardown
 *
 * A Failed page leaves that state once written, rewritten (new data
 * supersedes it) or dropped.  A line goes once it holds no valid page.
 *
 * States of a line
 * ----------------
 * A line is dirty while it has a Dirty page (its bucket counts it in
 * dirty_lines).  It is being destaged while it has a Busy page: a line is
 * destaged by one destage at a time, and the destage skips it until every
 * bio of the one in flight is done, so a page never has two destages in
 * flight.
 *
 * epoch and dirty_since: a line turning dirty takes the VD's flush epoch
 * and the time (a cached write, a row fill).  Once the last bio of a
 * destage is done, a line still dirty takes that destage's epoch and time
 * if later, unless it has Failed pages: then it keeps its epoch and its
 * age restarts.  Rewriting a dirty line changes neither.
 *
 * fill_mark (with fill_generation), for row fills ("Row fill"):
 *
 *   none    -> RUNNING  vraid_row_fill_consider() sends its row's read
 *   none    -> LATER    a write was in progress in the row's buckets
 *   none    -> DONE     considered and not filled, or whole in the cache
 *   LATER   -> RUNNING  considered again, once: filled,
 *   LATER   -> DONE     or left as it is, whatever it finds
 *   RUNNING -> DONE     the fill inserts; a write to the members over the
 *                       line starts (vraid_cache_write_start()); its row is
 *                       considered again through another line
 *   any     -> none     a destage takes the line (vraid_destage_take())
 *
 * Marks change only on lines not Busy.  While the VD fills rows, the
 * destage skips a RUNNING line: it goes out once its fill is done.
 *
 * Reads
 * -----
 * Reads of a VD whose io policy is cached look the cache up first, and so
 * do those of a VD that reads ahead or holds dirty data.  A read whose
 * every 4 KiB page is cached is answered from the cache (a hit).
 *
 * Any other read goes to the members through a clone, and at its
 * completion the data is copied into the cache (a fill).
 *
 * Only reads of whole, aligned 4 KiB pages are looked up and counted, and
 * those up to 128 KiB fill the cache.
 *
 * Read-ahead
 * ----------
 * With read policy ra each VD read feeds a detector of sequential streams
 * (vraid_ra_observe(), cachecore.c), which asks for the next window of a
 * stream: whole full stripes, 1 MiB at most, read into the cache.
 *
 * The window's bio enters the engine from a work item (io.c's
 * vraid_engine_ahead()), never the VD's own queue; it neither looks the
 * cache up nor is observed.
 *
 * With io policy direct and read-ahead, reads look the cache up (for what
 * was read ahead) but do not fill it.
 *
 * Pages read ahead keep their mark until a read takes them, which counts
 * them as read-ahead hits.
 *
 * Write-back
 * ----------
 * With write policy awb, writes of whole aligned pages up to 128 KiB
 * without FUA are copied into the cache (dirty) and completed.  A VD
 * bound to the journal (wb) logs them first, FUA or not
 * (vraid_cache_write()).
 *
 * Destage writes the dirty pages out later, through the engine: the
 * background destage (vraid_destage_work()) takes lines dirty for
 * VRAID_DESTAGE_AGE, those a flush or a held-back bio asked for, and every
 * dirty line above the background band or once the VD no longer writes
 * back.
 *
 * A page rewritten while its line is destaged is replaced (copy on write)
 * and stays dirty.
 *
 * Flush epochs
 * ------------
 * A flush (vraid_cache_drain()) opens a new epoch, waits for every line of
 * an older epoch and writes out only those: taking aged lines too, it
 * would never end under a sustained load, since a line rewritten while it
 * is destaged keeps its age.  The VD's background destage waits
 * meanwhile.
 *
 * A write or read the cache does not take whole waits (vraid_defer_work())
 * for the older dirty data it touches to reach the members, and only for
 * that data, not the whole cache.
 *
 * The throttle
 * ------------
 * The dirty pages of all VDs stay under dirty_high (cachecore.c): a
 * cached write above it kicks the destage and waits.  Above the
 * background band the destage takes every dirty line.  While a VD is
 * bound to the journal the cap is lower (vraid_journal_dirty_cap()), so
 * that parity records fit and a checkpoint's drain ends in time.
 *
 * Row fill
 * --------
 * On rotational members a request costs its seek, whatever its size, and a
 * parity row destaged column by column costs a read-modify-write per
 * column that holds dirty data.
 *
 * So the destage of a parity VD whose disk is rotational
 * (vraid_row_fill_enabled(); background passes and drains alike) first
 * reads a row whose dirty data lies in enough columns
 * (vraid_row_fill_min_columns(): 2 on a RAID5 of 4, 4 in a drain) and
 * which the cache does not hold whole (vraid_row_fill_consider(): one
 * read per data member).
 *
 * It inserts the pages it lacks as Filled (dirty, but not counted so: the
 * members hold them; their version is VRAID_JVER_MEMBERS, which a parity
 * record leaves out), makes the clean pages it holds of the row Filled
 * the same way, and then destages the row as a full-stripe write, one
 * request per member.  A row the cache holds whole needs no read: its
 * clean pages are made Filled.
 *
 * The fill is a read like a read-ahead window's, so the same rule
 * (writes_started, "Writes around the cache") keeps it from inserting data
 * a write changed meanwhile.  Once inserted, its pages are dirty data like
 * any other: a write around them waits for their destage.
 *
 * On a VD that logs parity records the row's stripe heads start their
 * records together and merge their member writes (parity.c).
 *
 * The row's lines are marked while the fill runs, and considered once per
 * dirty period.  A line marked RUNNING belongs to its fill
 * (fill_generation): a write to the members over it and its destage take
 * the mark off, so a line still marked when the read is done takes the
 * pages whatever else its bucket saw meanwhile (a bucket holds many lines,
 * and the destage writes to some of them all the time).
 *
 * A row with a write in progress in one of its buckets at the start is
 * looked at again when the pass comes round to it (LATER, once).
 *
 * At most VRAID_ROW_FILL_MAX fills are in flight: a pass that finds a row
 * to fill and no slot ends there, rather than write that row column by
 * column, and a row whose fill is done goes out at the next pass's start
 * (filled_rows).
 *
 * Writes around the cache
 * -----------------------
 * Other writes do not go through the cache, but whatever the policy they
 * keep it right: every write piece, from vraid_io_start() to
 * vraid_io_done(), counts in the buckets of its lines (writes_in_progress;
 * writes_started counts the writes begun) and drops the cached pages it
 * covers as it starts.
 *
 * A fill inserts pages only if no write of their buckets started since
 * its read began and none is in progress, so data read from the members
 * before or while a write changed them is never cached after it.
 *
 * A page a destage is writing is not dropped but marked stale, and
 * dropped when that destage is done (its own writes mark it so too).
 *
 * Locking
 * -------
 * struct vraid_cache_bucket.lock (spinlock, irq-safe: fills insert at read
 * completion) protects its chain, its LRU, its dirty_lines and the lines'
 * pages, masks, marks and epochs; one bucket lock at a time, never nested.
 *
 * defer_lock protects the bios held back, filled_rows_lock (irq-safe too)
 * the rows filled and not yet destaged; neither nests with another lock.
 *
 * writes_started and writes_in_progress are atomics, updated without the
 * lock; so are the VD's epoch and destage_below.
 *
 * vraid_cache_vds_lock protects the list of VDs (for eviction across VDs,
 * which walks it under RCU).
 *
 * No lock covers a whole VD or the controller on the I/O path.
 */
#include <linux/module.h>
#include <linux/blkdev.h>
#include <linux/bio.h>
#include <linux/hash.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/pagemap.h>
#include <linux/rculist.h>
#include <linux/slab.h>

#include "vraid.h"
#include "level.h"
#include "cache.h"
#include "journal.h"
#include "core/cachecore.h"

#define VRAID_LINE_SHIFT	7	/* sectors per line: 128, 64 KiB */
#define VRAID_LINE_PAGES	16
#define VRAID_CACHE_MAX_PAGES	32	/* the largest read filled: 128 KiB */
#define VRAID_CACHE_MAX_LINES	3	/* lines 128 KiB can touch */
#define VRAID_CACHE_HIT_PAGES	256	/* the largest read looked up: 1 MiB */
#define VRAID_CACHE_BATCH	32	/* pages looked up at once */
#define VRAID_RA_PAGES		256	/* the largest read-ahead window */
#define VRAID_RA_LINES		(VRAID_RA_PAGES / 16 + 1)
#define VRAID_EVICT_SCAN	64	/* buckets looked at per eviction */
#define VRAID_ROW_FILL_MAX	8	/* row fills in flight per VD */

static_assert(PAGE_SIZE == 4096, "cache lines are 16 pages of 4 KiB");

/* struct vraid_cache_line.fill_mark: see "Row fill" at the top */
#define VRAID_ROW_FILL_RUNNING	1	/* its row is being read */
#define VRAID_ROW_FILL_DONE	2	/* considered since it became dirty */
#define VRAID_ROW_FILL_LATER	3	/* to consider again, once */

/* How vraid_cache_insert() inserts. */
#define VRAID_INSERT_READ_AHEAD	1	/* pages read ahead: marked so */
#define VRAID_INSERT_ROW_FILL	2	/* a row fill's: dirty, filled */

/*
 * 64 KiB of VD: which 4 KiB pages of it are cached.  The masks hold a bit
 * per page: see "States of a page" at the top.
 */
struct vraid_cache_line {
	struct hlist_node node;		/* bucket chain */
	struct list_head lru;		/* bucket LRU, oldest first */
	u64 line_nr;		/* VD sector >> VRAID_LINE_SHIFT */
	u16 valid;			/* a bit per page */
	u16 read_ahead;		/* valid pages read ahead, not read yet */
	u16 dirty;			/* valid pages not on the members yet */
	u16 busy;			/* dirty pages a destage is writing */
	u16 stale;			/* busy pages a later write went around */
	u16 filled;			/* dirty pages a row fill made dirty */
	u16 failed;			/* dirty pages whose destage failed */
	u8 fill_mark;		/* VRAID_ROW_FILL_*, "States of a line" */
	u16 fill_generation;	/* the fill RUNNING on it */
	u32 epoch;			/* see "States of a line" */
	unsigned long dirty_since;	/* jiffies; see "States of a line" */
	struct page *page[VRAID_LINE_PAGES];
};

struct vraid_cache_bucket {
	spinlock_t lock;		/* see the top of this file */
	struct hlist_head chain;
	struct list_head lru;
	atomic_t writes_started;	/* writes started */
	atomic_t writes_in_progress;	/* writes in progress */
	u32 dirty_lines;	/* lines with dirty pages (lock; read racily) */
};

struct vraid_cache {
	struct vraid_vd *vd;
	struct list_head node;		/* vraid_cache_vds */
	u32 bits;			/* log2 of the number of buckets */
	atomic_long_t pages;		/* cached pages of this VD */
	atomic_t evict_clock;	/* next bucket to evict from */
	struct bio_set fill_set;	/* clones of reads to fill from */
	struct vraid_cache_bucket *buckets;
	/* read-ahead: slots' next words change by cmpxchg64(), see cachecore.h */
	struct vraid_ra_cfg ra_cfg;
	struct vraid_ra_slot ra_slot[VRAID_RA_SLOTS];
	atomic_t ra_inflight;		/* windows being read */
	struct bio_set ra_set;		/* window bios */
	/* write-back (awb): see "Write-back" at the top */
	atomic_long_t dirty;		/* dirty pages */
	atomic_long_t filled;		/* ... of them row fills inserted */
	atomic_t epoch;			/* the flush epoch */
	atomic_t destage_below;	/* destage lines of epochs below it */
	atomic_t destaging;		/* destage bios in flight */
	atomic_t row_fills;	/* row fills in flight */
	atomic_t fill_generation;	/* the last row fill's generation */
	spinlock_t filled_rows_lock;	/* protects the two below */
	/* rows filled, not destaged yet: their first sector */
	u64 filled_rows[2 * VRAID_ROW_FILL_MAX];
	u32 nr_filled_rows;
	atomic_t draining;		/* vraid_cache_drain()s running */
	atomic_long_t drain_from;	/* dirty pages as a write-out began */
	unsigned long last_read;	/* jiffies: the last user read; racy */
	/* see "Write-out errors" above vraid_destage_endio() */
	atomic_t destage_failures;	/* destage bios that failed, ever */
	atomic_t destage_failing;	/* dirty data failed, not out yet */
	u32 destage_clock;	/* next bucket to destage (destage_work only) */
	struct work_struct destage_work;	/* destage, on vraid_cache_wq */
	struct delayed_work age_work;	/* destage of aged lines */
	struct work_struct defer_work;	/* bios waiting for older dirty data */
	spinlock_t defer_lock;	/* protects deferred_bios */
	struct bio_list deferred_bios;
	wait_queue_head_t destage_wait;	/* destage completions */
	struct bio_set destage_set;
};

/* Front pad of a fill clone. */
struct vraid_fill {
	struct vraid_vd *vd;
	struct bio *bio;		/* the VD read */
	u32 seq[VRAID_CACHE_MAX_LINES];	/* of its lines' buckets, at start */
	bool may_fill;		/* no write was in progress then */
	struct bio clone;		/* must be last */
};

/* Front pad of a destage bio: a run of dirty pages of one line. */
struct vraid_destage {
	struct vraid_vd *vd;
	u64 line_nr;
	u16 mask;			/* its pages in the line */
	u32 epoch;			/* the VD's epoch when it started */
	unsigned long taken;		/* jiffies when its pages were taken */
	struct page *page[VRAID_LINE_PAGES];	/* by index in the line */
	struct bio bio;			/* must be last */
};

/* Front pad of a read-ahead window's bio. */
struct vraid_ra {
	struct vraid_vd *vd;
	u64 sector;
	u32 nr_pages;		/* pages */
	bool may_fill;		/* no write was in progress at start */
	u16 fill_generation;	/* a row fill's generation; 0: a window */
	u32 seq[VRAID_RA_LINES];
	struct page *page[VRAID_RA_PAGES];
	struct bio bio;			/* must be last */
};

static unsigned int cache_mib;
module_param(cache_mib, uint, 0444);
MODULE_PARM_DESC(cache_mib,
		 "controller cache size in MiB, 16..RAM/2 (default: RAM/16 within 32..1024)");

static unsigned long vraid_cache_limit;		/* pages */
static atomic_long_t vraid_dirty_all;		/* dirty pages, all VDs */
/*
 * ... of them, pages whose destage failed (struct vraid_cache_line.failed, not
 * filled): they stay until they can be written, and do not count
 * towards the dirty bounds, so that one failing VD cannot hold every
 * other VD's writers at the bound ("Write-out errors").
 */
static atomic_long_t vraid_dirty_failed;

/* Dirty pages that count towards the bounds: all, but the failed. */
static long vraid_dirty_bound(void)
{
	return atomic_long_read(&vraid_dirty_all) -
	       atomic_long_read(&vraid_dirty_failed);
}
static DECLARE_WAIT_QUEUE_HEAD(vraid_cache_wwait);	/* writers at the limit */
static struct vraid_shrinker vraid_cache_shrinker;
/*
 * Cache work that waits for destage (flushes over dirty data, bios held
 * back) and destage itself: not on vraid_wq or vraid_wait_wq, whose work
 * the destage writes may need to complete.
 */
struct workqueue_struct *vraid_cache_wq;
static atomic_long_t vraid_cache_used;		/* pages, all VDs */
static struct kmem_cache *vraid_line_slab;
static LIST_HEAD(vraid_cache_vds);
static DEFINE_SPINLOCK(vraid_cache_vds_lock);

static struct vraid_cache_bucket *vraid_bucket_of(struct vraid_cache *c,
						  u64 line_nr)
{
	return &c->buckets[hash_64(line_nr, c->bits)];
}

/* Page @i of a read from VD sector @sector: its sector, line and index. */
static u64 vraid_page_sector(u64 sector, u32 i)
{
	return sector + ((u64)i << (PAGE_SHIFT - SECTOR_SHIFT));
}

static u64 vraid_line_number(u64 sector)
{
	return sector >> VRAID_LINE_SHIFT;
}

static u32 vraid_page_index(u64 sector)
{
	return (sector >> (PAGE_SHIFT - SECTOR_SHIFT)) &
	       (VRAID_LINE_PAGES - 1);
}

/* The line @line_nr in bucket @b (locked), or NULL. */
static struct vraid_cache_line *vraid_line_find(struct vraid_cache_bucket *b,
						u64 line_nr)
{
	struct vraid_cache_line *l;

	hlist_for_each_entry(l, &b->chain, node)
		if (l->line_nr == line_nr)
			return l;
	return NULL;
}

/*
 * @n dirty pages of @c are clean or gone, @nf of them a row fill's (not
 * in vraid_dirty_all: the members hold them).
 */
static void vraid_dirty_uncount(struct vraid_cache *c, long n, long nf)
{
	if (!n)
		return;
	atomic_long_sub(n, &c->dirty);
	if (nf)
		atomic_long_sub(nf, &c->filled);
	if (n == nf)
		return;
	atomic_long_sub(n - nf, &vraid_dirty_all);
	wake_up(&vraid_cache_wwait);
}

/*
 * Drop pages @mask of line @l (bucket @b locked; never busy pages); the
 * line too once it holds none.  Readers that took a page hold their own
 * reference.  Returns the number of pages dropped.
 */
static u32 vraid_line_drop(struct vraid_cache *c, struct vraid_cache_bucket *b,
			   struct vraid_cache_line *l, u16 mask)
{
	u16 d;
	u32 i, n = 0;

	mask &= l->valid & ~l->busy;
	d = mask & l->dirty;
	if (d) {
		u16 f = d & l->failed & ~l->filled;

		/* a write went around dirty data (only a concurrent one) */
		if (f)
			atomic_long_sub(hweight16(f), &vraid_dirty_failed);
		l->failed &= ~d;
		l->dirty &= ~d;
		if (!l->dirty)
			b->dirty_lines--;
		vraid_dirty_uncount(c, hweight16(d), hweight16(d & l->filled));
		l->filled &= ~d;
	}
	for (i = 0; mask; i++, mask >>= 1) {
		if (!(mask & 1))
			continue;
		put_page(l->page[i]);
		l->page[i] = NULL;
		l->valid &= ~(1U << i);
		l->read_ahead &= ~(1U << i);
		n++;
	}
	if (!l->valid) {
		hlist_del(&l->node);
		list_del(&l->lru);
		kmem_cache_free(vraid_line_slab, l);
	}
	if (n) {
		atomic_long_sub(n, &c->pages);
		atomic_long_sub(n, &vraid_cache_used);
	}
	return n;
}

/*
 * Evict at least @want pages, oldest lines first, from the buckets of
 * @c after its clock hand; looks at VRAID_EVICT_SCAN buckets at most.
 */
static unsigned long vraid_cache_evict(struct vraid_cache *c,
				       unsigned long want)
{
	unsigned long freed = 0;
	u32 i, nb = 1U << c->bits;

	for (i = 0; i < VRAID_EVICT_SCAN && i < nb && freed < want; i++) {
		u32 k = (u32)atomic_inc_return(&c->evict_clock) & (nb - 1);
		struct vraid_cache_bucket *b = &c->buckets[k];
		struct vraid_cache_line *l, *t;
		unsigned long flags;

		if (list_empty_careful(&b->lru))
			continue;
		spin_lock_irqsave(&b->lock, flags);
		list_for_each_entry_safe(l, t, &b->lru, lru) {
			if (freed >= want)
				break;
			/* clean pages only: dirty ones wait for destage */
			freed += vraid_line_drop(c, b, l, l->valid & ~l->dirty);
		}
		spin_unlock_irqrestore(&b->lock, flags);
	}
	return freed;
}

/* Clean pages of @c: what eviction can take. */
static long vraid_cache_clean(struct vraid_cache *c)
{
	return atomic_long_read(&c->pages) - atomic_long_read(&c->dirty);
}

/* Evict at least @want pages from the VD that holds the most clean ones. */
static unsigned long vraid_cache_evict_largest(unsigned long want)
{
	struct vraid_cache *c, *victim = NULL;
	unsigned long freed = 0;

	rcu_read_lock();
	list_for_each_entry_rcu(c, &vraid_cache_vds, node)
		if (!victim || vraid_cache_clean(c) > vraid_cache_clean(victim))
			victim = c;
	if (victim)
		freed = vraid_cache_evict(victim, want);
	rcu_read_unlock();
	return freed;
}

/*
 * Make room for @n pages in the controller's pool: evict from the VD that
 * holds the most.  Returns false (and takes nothing) if the pool stays full.
 */
static bool vraid_cache_reserve(unsigned long n)
{
	int tries;

	for (tries = 0; tries < 4; tries++) {
		if (atomic_long_add_return(n, &vraid_cache_used) <=
		    READ_ONCE(vraid_cache_limit))
			return true;
		atomic_long_sub(n, &vraid_cache_used);
		vraid_cache_evict_largest(max(n, 16UL));
	}
	return false;
}

/*
 * Copy @n pages between @pages and the data of @bio from its byte @skip
 * on: into the bio (@to_bio) or out of it.
 */
static void vraid_cache_copy(struct bio *bio, size_t skip, struct page **pages,
			     u32 n, bool to_bio)
{
	size_t pos = 0, end = skip + ((size_t)n << PAGE_SHIFT);
	struct bvec_iter iter;
	struct bio_vec bv;

	bio_for_each_segment(bv, bio, iter) {
		u32 done = pos < skip ? min_t(size_t, skip - pos, bv.bv_len) : 0;

		if (pos >= end)
			break;
		while (done < bv.bv_len && pos + done < end) {
			size_t off = pos + done - skip;
			u32 po = offset_in_page(off);
			u32 len = min_t(u32, bv.bv_len - done, PAGE_SIZE - po);
			char *c = kmap_local_page(pages[off >> PAGE_SHIFT]);
			char *u = kmap_local_page(bv.bv_page);

			if (to_bio)
				memcpy(u + bv.bv_offset + done, c + po, len);
			else
				memcpy(c + po, u + bv.bv_offset + done, len);
			kunmap_local(u);
			kunmap_local(c);
			done += len;
		}
		if (to_bio)
			flush_dcache_page(bv.bv_page);
		pos += bv.bv_len;
	}
}

/* A read the cache can look up: whole aligned pages, 1 MiB at most. */
static bool vraid_cacheable(struct bio *bio)
{
	return !((bio->bi_iter.bi_sector | bio->bi_iter.bi_size >>
		  SECTOR_SHIFT) & (PAGE_SECTORS - 1)) &&
	       bio->bi_iter.bi_size <= VRAID_CACHE_HIT_PAGES * PAGE_SIZE;
}

/*
 * The line @line_nr of bucket @b (locked), made the most recently used; a new
 * one if it has none: @spare if given, else allocated without waiting.
 * NULL if there is no memory for it.
 */
static struct vraid_cache_line *vraid_line_get(struct vraid_cache_bucket *b,
					       u64 line_nr,
					       struct vraid_cache_line **spare)
{
	struct vraid_cache_line *l = vraid_line_find(b, line_nr);

	if (l) {
		list_move_tail(&l->lru, &b->lru);
		return l;
	}
	if (spare) {
		l = *spare;
		*spare = NULL;
	} else {
		l = kmem_cache_alloc(vraid_line_slab,
				     GFP_NOWAIT | __GFP_NOWARN);
	}
	if (!l)
		return NULL;
	memset(l, 0, sizeof(*l));
	l->line_nr = line_nr;
	hlist_add_head(&l->node, &b->chain);
	list_add_tail(&l->lru, &b->lru);
	return l;
}

/* The pages of line @line_nr that sectors @sector..@end - 1 touch. */
static u16 vraid_line_mask(u64 line_nr, u64 sector, u64 end)
{
	return GENMASK(line_nr == vraid_line_number(end - 1) ?
		       vraid_page_index(end - 1) : VRAID_LINE_PAGES - 1,
		       line_nr == vraid_line_number(sector) ?
		       vraid_page_index(sector) : 0);
}

/*
 * Make pages @mask of line @l (bucket @b locked), valid and clean (read,
 * or just inserted by a row fill), dirty data a row fill adds: the
 * members hold them (filled, VRAID_JVER_MEMBERS; counted in c->dirty and
 * c->filled, not in vraid_dirty_all), so that the row goes out whole.
 */
static void vraid_row_fill_make_dirty(struct vraid_cache *c,
				      struct vraid_cache_bucket *b,
				      struct vraid_cache_line *l, u16 mask)
{
	u32 i;

	if (!mask)
		return;
	if (!l->dirty) {
		l->epoch = atomic_read(&c->epoch);
		l->dirty_since = jiffies;
		b->dirty_lines++;
	}
	for (i = 0; i < VRAID_LINE_PAGES; i++)
		if (mask & (1U << i))
			set_page_private(l->page[i], VRAID_JVER_MEMBERS);
	l->dirty |= mask;
	l->filled |= mask;
	atomic_long_add(hweight16(mask), &c->filled);
	atomic_long_add(hweight16(mask), &c->dirty);
}

/* Pages of line @l valid and clean, that a fill may make dirty. */
static u16 vraid_line_clean_pages(struct vraid_cache_line *l)
{
	return l->valid & ~(l->dirty | l->busy | l->stale);
}

/*
 * Insert @n pages of VD data from @sector (page aligned) into their lines,
 * unless @seq is NULL or a write of a line's bucket started since @seq was read
 * or is in progress; @how: VRAID_INSERT_READ_AHEAD marks them read ahead,
 * VRAID_INSERT_ROW_FILL makes them row fill @fill_generation's (dirty pages the
 * members hold, vraid_row_fill_make_dirty(), as the clean pages those lines
 * hold in the range become too; their lines' fill mark ends either way).  A row
 * fill's line still marked RUNNING by it takes them whatever its bucket's seq:
 * no destage and no write to the members touched it since the fill began ("Row
 * fill" at the top).  The pool has room for them (vraid_cache_reserve()).
 * Pages taken are set to NULL in @pages.  Returns the number taken.
 */
static u32 vraid_cache_insert(struct vraid_cache *c, u64 sector,
			      struct page **pages, u32 n, const u32 *seq,
			      u32 how, u16 fill_generation)
{
	u64 first = vraid_line_number(sector);
	u32 nr_lines = vraid_line_number(vraid_page_sector(sector, n) - 1) -
		       first + 1;
	u32 i, j, used = 0;

	/*
	 * Count the pages before reading seq; a write bumps seq before it
	 * reads the count.  So either the write sees pages and drops them
	 * under the bucket lock, or this sees seq moved and inserts nothing.
	 */
	atomic_long_add(n, &c->pages);
	smp_mb__after_atomic();	/* pages before seq, pairs with the write's */
	for (i = 0, j = 0; j < nr_lines; j++) {
		u64 line_nr = first + j;
		struct vraid_cache_bucket *b = vraid_bucket_of(c, line_nr);
		struct vraid_cache_line *l = NULL;
		unsigned long flags;

		spin_lock_irqsave(&b->lock, flags);
		if (how & VRAID_INSERT_ROW_FILL) {
			struct vraid_cache_line *own;

			own = vraid_line_find(b, line_nr);

			if (own && own->fill_mark == VRAID_ROW_FILL_RUNNING &&
			    own->fill_generation == fill_generation) {
				own->fill_mark = VRAID_ROW_FILL_DONE;
				l = seq ? own : NULL;
			}
		}
		if (!l && seq && atomic_read(&b->writes_started) == seq[j] &&
		    !atomic_read(&b->writes_in_progress))
			l = vraid_line_get(b, line_nr, NULL);
		for (; i < n &&
		     vraid_line_number(vraid_page_sector(sector, i)) == line_nr;
		     i++) {
			u32 p = vraid_page_index(vraid_page_sector(sector, i));

			/* not allowed, or the same data cached already */
			if (!l || l->valid & (1U << p))
				continue;
			l->page[p] = pages[i];
			l->valid |= 1U << p;
			if (how & VRAID_INSERT_READ_AHEAD)
				l->read_ahead |= 1U << p;
			pages[i] = NULL;
			used++;
		}
		/* what it inserted, and the clean pages: the row goes out whole */
		if (l && (how & VRAID_INSERT_ROW_FILL))
			vraid_row_fill_make_dirty(c, b, l,
				vraid_line_clean_pages(l) &
				vraid_line_mask(line_nr, sector,
						vraid_page_sector(sector, n)));
		spin_unlock_irqrestore(&b->lock, flags);
	}
	atomic_long_sub(n - used, &c->pages);
	return used;
}

/*
 * Note the seq of the buckets of @nr_lines lines from @first; false if a write
 * of one is in progress.
 */
static bool vraid_note_writes_started(struct vraid_cache *c, u64 first,
				      u32 nr_lines, u32 *seq)
{
	bool ok = true;
	u32 j;

	for (j = 0; j < nr_lines; j++) {
		struct vraid_cache_bucket *b = vraid_bucket_of(c, first + j);

		seq[j] = atomic_read(&b->writes_started);
		smp_rmb();	/* seq before wip: see vraid_cache_write_start */
		if (atomic_read(&b->writes_in_progress))
			ok = false;
	}
	return ok;
}

/* Whether reads of @vd look the cache up and what it reads ahead is kept. */
static bool vraid_cache_on(struct vraid_vd *vd)
{
	return READ_ONCE(vd->io_policy) == VRAID_IO_CACHED ||
	       READ_ONCE(vd->read_policy) == VRAID_READ_AHEAD;
}

/*
 * Insert the data of the VD read @bio, just completed, unless a write of
 * its buckets started since @seq was taken or is in progress.
 */
static void vraid_cache_fill(struct vraid_vd *vd, struct bio *bio,
			     const u32 *seq)
{
	struct page *pages[VRAID_CACHE_MAX_PAGES];
	u32 want = bio->bi_iter.bi_size >> PAGE_SHIFT;
	u32 i, n, used = 0;

	if (!vraid_cache_reserve(want))
		return;
	for (n = 0; n < want; n++) {
		pages[n] = alloc_page(GFP_NOWAIT | __GFP_NOWARN);
		if (!pages[n])
			break;
	}
	if (n == want) {
		vraid_cache_copy(bio, 0, pages, n, false);
		used = vraid_cache_insert(vd->cache, bio->bi_iter.bi_sector,
					  pages, n, seq, 0, 0);
	}
	atomic_long_sub(want - used, &vraid_cache_used);
	for (i = 0; i < n; i++)
		if (pages[i])
			__free_page(pages[i]);
}

static void vraid_fill_endio(struct bio *clone)
{
	struct vraid_fill *f = container_of(clone, struct vraid_fill, clone);
	struct bio *bio = f->bio;

	/*
	 * Not after a switch to direct, which empties the cache after a
	 * grace period: a fill that saw cached has inserted by then.
	 */
	rcu_read_lock();
	if (!clone->bi_status && f->may_fill &&
	    READ_ONCE(f->vd->io_policy) == VRAID_IO_CACHED)
		vraid_cache_fill(f->vd, bio, f->seq);
	rcu_read_unlock();
	bio->bi_status = clone->bi_status;
	bio_put(clone);
	bio_endio(bio);
}

/*
 * Take a reference on each of @n cached pages from VD sector @sector, in
 * order, up to the first one missing.  Pages read ahead count in @nra and
 * lose their mark.  Returns the number taken.
 */
static u32 vraid_cache_get(struct vraid_cache *c, u64 sector, u32 n,
			   struct page **pages, u32 *nra)
{
	u32 i = 0;

	while (i < n && atomic_long_read(&c->pages)) {
		u64 line_nr = vraid_line_number(vraid_page_sector(sector, i));
		struct vraid_cache_bucket *b = vraid_bucket_of(c, line_nr);
		struct vraid_cache_line *l;
		unsigned long flags;
		u32 was = i;

		spin_lock_irqsave(&b->lock, flags);
		l = vraid_line_find(b, line_nr);
		for (; l && i < n &&
		     vraid_line_number(vraid_page_sector(sector, i)) == line_nr;
		     i++) {
			u16 bit = 1U << vraid_page_index(vraid_page_sector(sector, i));

			if (!(l->valid & bit))
				break;
			pages[i] = l->page[ilog2(bit)];
			get_page(pages[i]);
			if (l->read_ahead & bit) {
				l->read_ahead &= ~bit;
				(*nra)++;
			}
		}
		if (i > was)
			list_move_tail(&l->lru, &b->lru);
		spin_unlock_irqrestore(&b->lock, flags);
		if (i < n &&
		    vraid_line_number(vraid_page_sector(sector, i)) == line_nr)
			break;		/* a page of this line is missing */
	}
	return i;
}

/*
 * Copy what the cache holds of @bio into it, a batch of pages at a time;
 * false at the first page missing (the bio then holds partial data, which
 * the read from the members overwrites).
 */
static bool vraid_cache_hit(struct vraid_cache *c, struct bio *bio, u32 *nra)
{
	struct page *pages[VRAID_CACHE_BATCH];
	u64 sector = bio->bi_iter.bi_sector;
	u32 n = bio->bi_iter.bi_size >> PAGE_SHIFT;
	u32 done, i, k, want;

	for (done = 0; done < n; done += k) {
		want = min_t(u32, n - done, VRAID_CACHE_BATCH);
		k = vraid_cache_get(c, vraid_page_sector(sector, done), want,
				    pages, nra);
		if (k == want)
			vraid_cache_copy(bio, (size_t)done << PAGE_SHIFT, pages,
					 k, true);
		for (i = 0; i < k; i++)
			put_page(pages[i]);
		if (k < want)
			return false;
	}
	return true;
}

static bool vraid_cache_conflict(struct vraid_cache *c, struct bio *bio);
static void vraid_cache_defer(struct vraid_cache *c, struct bio *bio);

/*
 * A read of a VD whose io policy is cached (@fill), that reads ahead or has
 * dirty data, in ->submit_bio.  A miss on lines with dirty data waits for it to
 * reach the members, unless @checked (it waited already).  Returns NULL if the
 * cache answered it, else the bio to send to the members: @bio itself, or with
 * @fill a clone whose completion fills the cache.
 */
struct bio *vraid_cache_read(struct vraid_vd *vd, struct bio *bio, bool fill,
			     bool checked)
{
	struct vraid_cache *c = vd->cache;
	u32 n = bio->bi_iter.bi_size >> PAGE_SHIFT;
	u64 first = vraid_line_number(bio->bi_iter.bi_sector);
	struct vraid_fill *f;
	struct bio *clone;
	unsigned long start;
	u32 nra = 0;

	if (!vraid_cacheable(bio)) {
		/* a read of part of a page, or a large one: no lookup */
		if (!checked && vraid_cache_conflict(c, bio)) {
			vraid_cache_defer(c, bio);
			return NULL;
		}
		return bio;
	}
	if (vraid_cache_hit(c, bio, &nra)) {
		/* (a miss is accounted where the members' read starts) */
		start = bio_start_io_acct(bio);
		this_cpu_add(vd->stats->cache_read_hits, n);
		this_cpu_add(vd->stats->cache_ra_hits, nra);
		bio_end_io_acct(bio, start);
		bio_endio(bio);
		return NULL;
	}
	/* the members may not have what the cache holds dirty yet */
	if (!checked && vraid_cache_conflict(c, bio)) {
		vraid_cache_defer(c, bio);
		return NULL;
	}
	/* (pages read ahead that a miss took lose their mark uncounted) */
	this_cpu_add(vd->stats->cache_read_misses, n);
	if (!fill || n > VRAID_CACHE_MAX_PAGES)
		return bio;

	/*
	 * Never wait for a fill clone: the caller may have taken others from
	 * this bio_set in this ->submit_bio (the strips of a parity bio), and
	 * they complete only after it returns.  Without one the read goes on
	 * uncached.
	 */
	clone = bio_alloc_clone(bio->bi_bdev, bio, GFP_NOWAIT, &c->fill_set);
	if (!clone)
		return bio;
	f = container_of(clone, struct vraid_fill, clone);
	f->vd = vd;
	f->bio = bio;
	f->may_fill = vraid_note_writes_started(c, first,
			vraid_line_number(bio_end_sector(bio) - 1) - first + 1,
			f->seq);
	clone->bi_end_io = vraid_fill_endio;
	return clone;
}

static u32 vraid_row_fill_done(struct vraid_cache *c, struct vraid_ra *ra,
			       bool ok);

static void vraid_ra_endio(struct bio *bio)
{
	struct vraid_ra *ra = container_of(bio, struct vraid_ra, bio);
	struct vraid_vd *vd = ra->vd;
	struct vraid_cache *c = vd->cache;
	u32 i, used = 0;

	if (ra->fill_generation) {
		used = vraid_row_fill_done(c, ra,
					   !bio->bi_status && ra->may_fill);
		goto out;
	}
	/* as vraid_fill_endio(): not once read-ahead and cached are off */
	rcu_read_lock();
	if (!bio->bi_status && ra->may_fill && vraid_cache_on(vd))
		used = vraid_cache_insert(c, ra->sector, ra->page, ra->nr_pages,
					  ra->seq, VRAID_INSERT_READ_AHEAD, 0);
	rcu_read_unlock();
	atomic_dec(&c->ra_inflight);
out:
	atomic_long_sub(ra->nr_pages - used, &vraid_cache_used);
	for (i = 0; i < ra->nr_pages; i++)
		if (ra->page[i])
			__free_page(ra->page[i]);
	bio_put(bio);
	percpu_ref_put(&vd->active);
}

static void vraid_destage_endio(struct bio *bio);

/*
 * A read of @sectors from VD sector @sector ahead into the cache, if the pool
 * and memory have room now (it never waits): the bio to send into the engine
 * (its caller does), or NULL.  Its sectors are the whole disk's (remapped
 * already).  With @fill_generation (not 0), row fill @fill_generation for
 * destage (vraid_row_fill_consider()).
 */
static struct bio *vraid_ra_issue(struct vraid_vd *vd, u64 sector,
				  u32 sectors, u16 fill_generation)
{
	struct vraid_cache *c = vd->cache;
	u64 end = round_down(sector + sectors, PAGE_SECTORS);
	struct vraid_ra *ra;
	struct bio *bio;
	u32 i, n;

	sector = round_up(sector, PAGE_SECTORS);
	if (end <= sector)
		return NULL;
	n = min_t(u64, (end - sector) >> (PAGE_SHIFT - SECTOR_SHIFT),
		  VRAID_RA_PAGES);
	/* The VD lives while the window does (vraid_io_exit() waits). */
	if (!percpu_ref_tryget_live(&vd->active))
		return NULL;
	if (!vraid_cache_reserve(n))
		goto out_ref;
	bio = bio_alloc_bioset(vd->disk->part0, n, REQ_OP_READ,
			       GFP_NOWAIT | __GFP_NOWARN, &c->ra_set);
	if (!bio)
		goto out;
	ra = container_of(bio, struct vraid_ra, bio);
	for (i = 0; i < n; i++) {
		ra->page[i] = alloc_page(GFP_NOWAIT | __GFP_NOWARN);
		if (!ra->page[i])
			break;
		__bio_add_page(bio, ra->page[i], PAGE_SIZE, 0);
	}
	if (i < n) {
		while (i--)
			__free_page(ra->page[i]);
		bio_put(bio);
		goto out;
	}
	ra->vd = vd;
	ra->sector = sector;
	ra->nr_pages = n;
	ra->fill_generation = fill_generation;
	ra->may_fill = vraid_note_writes_started(c, vraid_line_number(sector),
			vraid_line_number(vraid_page_sector(sector, n) - 1) -
			vraid_line_number(sector) + 1, ra->seq);
	bio->bi_iter.bi_sector = sector;
	bio->bi_end_io = vraid_ra_endio;
	if (fill_generation) {
		atomic_inc(&c->row_fills);
	} else {
		atomic_inc(&c->ra_inflight);
		this_cpu_add(vd->stats->cache_ra_pages, n);
	}
	return bio;
out:
	atomic_long_sub(n, &vraid_cache_used);
out_ref:
	percpu_ref_put(&vd->active);
	return NULL;
}

/*
 * A user read of a VD that reads ahead (after the split to the limits):
 * feed the detector, and return the window it asks for (NULL: none), a
 * read the caller hands to vraid_engine_ahead() after @bio.  The slot update is
 * lost if another CPU changed the slot meanwhile (cachecore.h).
 */
struct bio *vraid_cache_ra(struct vraid_vd *vd, struct bio *bio)
{
	struct vraid_cache *c = vd->cache;
	struct vraid_ra_slot snap[VRAID_RA_SLOTS];
	struct vraid_ra_result r;
	struct vraid_ra_slot *s;
	int ret;

	memcpy(snap, c->ra_slot, sizeof(snap));
	ret = vraid_ra_observe(&c->ra_cfg, snap, bio->bi_iter.bi_sector,
			       bio_sectors(bio), (u32)jiffies,
			       atomic_read(&c->ra_inflight), &r);
	if (ret < 0)
		return NULL;
	s = &c->ra_slot[r.slot];
	if (cmpxchg64(&s->next, r.old_next, r.upd.next) != r.old_next)
		return NULL;
	WRITE_ONCE(s->ra_end, r.upd.ra_end);
	WRITE_ONCE(s->trigger, r.upd.trigger);
	WRITE_ONCE(s->run, r.upd.run);
	WRITE_ONCE(s->win, r.upd.win);
	WRITE_ONCE(s->stamp, r.upd.stamp);
	if (!ret)
		return NULL;
	return vraid_ra_issue(vd, r.ra_sector, r.ra_sectors, 0);
}


/* ---- write-back (write policy awb) ---- */

/*
 * A user read of @vd: background destage yields to reads for a while
 * (vraid_destage_work()).  A store at most once a jiffy.
 */
void vraid_cache_note_read(struct vraid_vd *vd)
{
	struct vraid_cache *c = vd->cache;
	unsigned long now = jiffies;

	if (c && READ_ONCE(c->last_read) != now)
		WRITE_ONCE(c->last_read, now);
}

#define VRAID_DESTAGE_MAX	64	/* destage bios in flight per VD */
/*
 * While the VD is read (a user read in the last VRAID_DESTAGE_READ_WINDOW),
 * background destage keeps at most one bio per member in flight: each
 * read waits behind what is queued on its member, and on disks 64
 * destage I/Os ahead of a read are a third of a second.  Flushes and
 * checkpoints (vraid_cache_drain()) keep to the same limits.
 */
#define VRAID_DESTAGE_READ_WINDOW	(HZ / 10)
#define VRAID_DESTAGE_AGE	(2 * HZ)	/* dirty this long: destage */
#define VRAID_DESTAGE_ROW_LINES	64	/* rows gathered up to 4 MiB */

/*
 * Unlogged writes go into the cache: write policy awb, and the kernel is
 * not going down (vraid_going_down: then they go around it, as after a
 * change to wt, and the reboot notifier's write-out finds them all).
 */
static bool vraid_always_writes_back(struct vraid_vd *vd)
{
	return READ_ONCE(vd->write_policy) == VRAID_WRITE_BACK_ALWAYS &&
	       !READ_ONCE(vraid_going_down);
}

/* Whether writes go into the cache: awb, or wb logging to the journal. */
static bool vraid_writes_back(struct vraid_vd *vd)
{
	return vraid_always_writes_back(vd) || READ_ONCE(vd->jbound);
}

/* Hold @bio back until older dirty data is on the members. */
static void vraid_cache_defer(struct vraid_cache *c, struct bio *bio)
{
	unsigned long flags;

	spin_lock_irqsave(&c->defer_lock, flags);
	bio_list_add(&c->deferred_bios, bio);
	spin_unlock_irqrestore(&c->defer_lock, flags);
	queue_work(vraid_cache_wq, &c->defer_work);
}

static void vraid_destage_kick(struct vraid_cache *c)
{
	queue_work(vraid_cache_wq, &c->destage_work);
}

/* Raise @a to @v at least. */
static void vraid_atomic_max(atomic_t *a, int v)
{
	int old = atomic_read(a);

	while (old - v < 0 && !atomic_try_cmpxchg(a, &old, v))
		;
}

/*
 * Record a write-out error for the next fsync() of every opener of the
 * VD or of any of its partitions (a failed page cannot be told to one of
 * them).  Any context.
 */
static void vraid_cache_report_error(struct gendisk *disk)
{
	struct block_device *part;
	unsigned long idx;

	xa_for_each(&disk->part_tbl, idx, part)
		mapping_set_error(vraid_bdev_mapping(part), -EIO);
}

/*
 * Write-out errors.
 *
 * A destage write that fails leaves its pages dirty in the cache, marked
 * failed (struct vraid_cache_line.failed): the cache is then the only holder
 * of data the VD acknowledged, and dropping it would lose that write
 * silently.  Its pages are stale by its own write; no write that came
 * after they were dirty went around them: vraid_cache_conflict() held it
 * back for their destage, and vraid_defer_work() fails it now.
 *
 * A line with failed pages keeps its epoch, so every flush and every
 * held-back bio still waits for its old data, and restarts its age: the
 * background destage tries it again after VRAID_DESTAGE_AGE, a drain at
 * once.  A page is no longer failed once it is written, rewritten (new
 * data supersedes it) or dropped.  Failed pages do not count towards the
 * dirty bounds (vraid_dirty_bound()): they occupy cache memory, but the
 * writers of other VDs do not wait for them.
 *
 * From the first failure until a drain gets every old page out
 * (destage_failing), new writes go around the cache, and every drain (a flush,
 * a stop, a checkpoint, a policy change) tries the failed pages once more
 * and fails with -EIO if one fails again: a flush completes without error
 * only once every write before it is on the members, however many
 * flushes failed before it (the error is sticky, not consumed by the
 * first one to see it); a stop or a policy change refuses to go on.
 *
 * The block devices' mappings record the error too, so that each
 * opener's next fsync() of the VD or a partition reports it once
 * (errseq_t, as the page cache reports writeback errors); not for a VD
 * bound to the journal, whose records hold the data (its flush does not
 * drain the cache, and no checkpoint moves the tail past them while the
 * data fails): nothing is lost, fsync has nothing to report.
 */
static void vraid_destage_endio(struct bio *bio)
{
	struct vraid_destage *d = container_of(bio, struct vraid_destage, bio);
	struct vraid_cache *c = d->vd->cache;
	struct vraid_cache_bucket *b = vraid_bucket_of(c, d->line_nr);
	struct vraid_cache_line *l;
	unsigned long flags;
	u32 clean = 0, filled = 0, i;
	long nfailed = 0;
	u16 drop = 0;
	bool failed = bio->bi_status != BLK_STS_OK;

	spin_lock_irqsave(&b->lock, flags);
	l = vraid_line_find(b, d->line_nr);	/* busy pages keep it */
	for (i = 0; i < VRAID_LINE_PAGES; i++) {
		u16 bit = 1U << i;

		if (!(d->mask & bit))
			continue;
		/* (a page rewritten meanwhile is the new data's, not failed) */
		if (l->page[i] == d->page[i] &&
		    failed != !!(l->failed & bit)) {
			l->failed ^= bit;
			if (!(l->filled & bit))
				nfailed += failed ? 1 : -1;
		}
		/* not rewritten while it was written out */
		if (l->page[i] == d->page[i] && !failed) {
			l->dirty &= ~bit;
			clean++;
			if (l->filled & bit)
				filled++;
			l->filled &= ~bit;
			if (l->stale & bit)
				drop |= bit;
		}
		l->busy &= ~bit;
		l->stale &= ~bit;
	}
	/*
	 * Once the last bio of this destage of the line is done, what the
	 * line held when it started is on the members: a flush of an epoch
	 * up to that one no longer waits for pages rewritten since, and
	 * what is dirty now became dirty since it was taken (else the age
	 * rule would take a line written over and over at every pass).
	 * Not while a page of it failed (another bio of the same destage
	 * may succeed after it): the line keeps its epoch, so every flush
	 * and every write held back for it still waits for its old data,
	 * and its age restarts.
	 */
	if (l->dirty & l->failed)
		l->dirty_since = jiffies;
	else if (l->dirty && !l->busy) {
		if ((int)(d->epoch - l->epoch) > 0)
			l->epoch = d->epoch;
		if (time_before(l->dirty_since, d->taken))
			l->dirty_since = d->taken;
	}
	if (!l->dirty && clean)
		b->dirty_lines--;
	vraid_dirty_uncount(c, clean, filled);
	vraid_line_drop(c, b, l, drop);
	spin_unlock_irqrestore(&b->lock, flags);

	for (i = 0; i < VRAID_LINE_PAGES; i++)
		if (d->mask & (1U << i))
			put_page(d->page[i]);
	if (nfailed)
		atomic_long_add(nfailed, &vraid_dirty_failed);
	if (failed) {
		atomic_set(&c->destage_failing, 1);
		/* destage_failing before the count */
		smp_mb__before_atomic();
		atomic_inc(&c->destage_failures);
		/* a bound VD's journal holds the data: nothing is lost yet */
		if (!READ_ONCE(d->vd->jbound))
			vraid_cache_report_error(d->vd->disk);
	}
	this_cpu_add(d->vd->stats->cache_destaged, clean - filled);
	bio_put(bio);
	atomic_dec(&c->destaging);
	wake_up(&c->destage_wait);
	/* after a failure, not at once: the age pass tries it again */
	if (atomic_long_read(&c->dirty) && !failed)
		vraid_destage_kick(c);
}

/*
 * Write the pages @mask of line @line_nr (taken, marked busy) to the members:
 * a bio per run of consecutive pages, into the engine as internal writes.
 * Process context (the destage work, a flush, a stop).
 */
static void vraid_destage_line(struct vraid_vd *vd, u64 line_nr, u16 mask,
			       struct page **pages, u32 epoch)
{
	struct vraid_cache *c = vd->cache;
	struct block_device *bdev = vd->disk->part0;
	unsigned long taken = jiffies;
	u32 i = 0;

	while (i < VRAID_LINE_PAGES) {
		struct vraid_destage *d;
		struct bio *bio;
		u32 j;

		if (!(mask & (1U << i))) {
			i++;
			continue;
		}
		for (j = i; j < VRAID_LINE_PAGES && (mask & (1U << j)); j++)
			;
		bio = bio_alloc_bioset(bdev, j - i, REQ_OP_WRITE, GFP_NOIO,
				       &c->destage_set);
		d = container_of(bio, struct vraid_destage, bio);
		d->vd = vd;
		d->line_nr = line_nr;
		d->mask = GENMASK(j - 1, i);
		d->epoch = epoch;
		d->taken = taken;
		bio->bi_iter.bi_sector = (line_nr << VRAID_LINE_SHIFT) +
					 ((u64)i << (PAGE_SHIFT - SECTOR_SHIFT));
		for (; i < j; i++) {
			d->page[i] = pages[i];
			__bio_add_page(bio, pages[i], PAGE_SIZE, 0);
		}
		bio->bi_end_io = vraid_destage_endio;
		atomic_inc(&c->destaging);
		vraid_engine_submit(vd, bio, VRAID_SUB_DESTAGE);
	}
}

/*
 * What a destage pass takes: lines of epochs below @below, or aged, or all;
 * a drain's (@old): only lines of epochs below @below.
 */
struct vraid_destage_scope {
	u32 below;
	bool all;
	bool drain;
	bool row_fill;	/* rows may be filled (vraid_row_fill_enabled()) */
	bool wait_for_slot;	/* a row to fill waits for a fill slot */
	u32 max;		/* lines to start at most */
	u32 started;
};

/*
 * Take the dirty pages of line @l (bucket lock held, no destage of it in
 * flight) for a destage: mark them busy, a reference on each into
 * @pages.  Returns their mask.
 */
static u16 vraid_destage_take(struct vraid_cache_line *l, struct page **pages)
{
	u32 i;

	l->busy = l->dirty;
	l->fill_mark = 0;
	for (i = 0; i < VRAID_LINE_PAGES; i++)
		if (l->busy & (1U << i)) {
			pages[i] = l->page[i];
			get_page(pages[i]);
		}
	return l->busy;
}

/*
 * Parity levels: the lines of the full stripe (row) of VD sector @sector
 * with dirty pages, but line @skip (U64_MAX: none), go out in the same
 * plug, so that the stripe heads see whole rows where the cache holds them
 * (a full-stripe write, no reads) rather than one read-modify-write per
 * line.
 */
static void vraid_destage_row(struct vraid_vd *vd, u64 sector, u64 skip,
			      struct vraid_destage_scope *p)
{
	struct vraid_cache *c = vd->cache;
	u64 row = (u64)vd->geom.strip_sectors * vd->geom.data_members;
	u64 first, last, row_line;
	struct page *pages[VRAID_LINE_PAGES];

	if (!vd->ops->row_writes ||
	    row <= (1U << VRAID_LINE_SHIFT) ||
	    row > (u64)VRAID_DESTAGE_ROW_LINES << VRAID_LINE_SHIFT)
		return;
	first = div64_u64(sector, row) * row;
	last = min_t(u64, first + row, vd->geom.size_sectors);
	first >>= VRAID_LINE_SHIFT;
	last = (last - 1) >> VRAID_LINE_SHIFT;
	for (row_line = first; row_line <= last; row_line++) {
		struct vraid_cache_bucket *b = vraid_bucket_of(c, row_line);
		struct vraid_cache_line *l;
		unsigned long flags;
		u16 mask = 0;
		u32 epoch;

		if (row_line == skip || !READ_ONCE(b->dirty_lines))
			continue;
		epoch = atomic_read(&c->epoch);
		spin_lock_irqsave(&b->lock, flags);
		l = vraid_line_find(b, row_line);
		if (l && l->dirty && !l->busy &&
		    !(p->row_fill && l->fill_mark == VRAID_ROW_FILL_RUNNING))
			mask = vraid_destage_take(l, pages);
		spin_unlock_irqrestore(&b->lock, flags);
		if (!mask)
			continue;
		p->started++;
		vraid_destage_line(vd, row_line, mask, pages, epoch);
	}
}

/* Whether the destage of @vd fills rows ("Row fill"). */
static bool vraid_row_fill_enabled(struct vraid_vd *vd)
{
	const struct vraid_geom *g = &vd->geom;
	u64 row = (u64)g->strip_sectors * g->data_members;

	return vd->ops->row_writes &&
	       row > (1U << VRAID_LINE_SHIFT) &&
	       row <= VRAID_RA_PAGES * PAGE_SECTORS &&
	       !bdev_nonrot(vd->disk->part0);
}

/*
 * Mark the lines of VD sectors @first..@end - 1 not being destaged: fill @mark
 * (RUNNING: of row fill @fill_generation).  (DONE over a fill still RUNNING
 * lets its lines be destaged before it lands: the destage takes the mark off
 * and its writes move seq, so the fill inserts nothing there.)  With @clean,
 * their clean pages there become dirty data the members hold: the row, whole in
 * the cache, goes out whole.
 */
static void vraid_row_fill_mark(struct vraid_cache *c, u64 first, u64 end,
				u8 mark, u16 fill_generation, bool clean)
{
	u64 row_line;

	for (row_line = vraid_line_number(first);
	     row_line <= vraid_line_number(end - 1); row_line++) {
		struct vraid_cache_bucket *b = vraid_bucket_of(c, row_line);
		struct vraid_cache_line *l;
		unsigned long flags;

		spin_lock_irqsave(&b->lock, flags);
		l = vraid_line_find(b, row_line);
		if (l && !l->busy) {
			l->fill_mark = mark;
			l->fill_generation = fill_generation;
			if (clean)
				vraid_row_fill_make_dirty(c, b, l,
					vraid_line_clean_pages(l) &
					vraid_line_mask(row_line, first, end));
		}
		spin_unlock_irqrestore(&b->lock, flags);
	}
}

/*
 * The columns (4 KiB of each strip of a row: a stripe head each) with
 * dirty data that a row needs to be filled.  A fill reads each data
 * member once and the row's destage writes every member once; destaged
 * as it is, each such column reads and writes a data block and the
 * parity at least: 2 (1 + parity) requests.  A row is filled when that
 * costs the members at least as many requests as the fill; in a drain
 * (@drain: a flush, a checkpoint) at least twice as many: the drain
 * waits for every row, and fills of rows with little dirty data there
 * made a journalled VD under a sustained load slower
 * (Documentation/admin-guide.rst, "Row fill").
 */
static u32 vraid_row_fill_min_columns(const struct vraid_geom *g, bool drain)
{
	u32 parity = vraid_layout_parity_strips(g->level);

	return DIV_ROUND_UP((g->data_members + g->nr_members) * (drain ? 2 : 1),
			    2 * (1 + parity));
}

enum vraid_row_fill_outcome {
	VRAID_ROW_AS_IS,	/* not to fill: destage the line as it is */
	VRAID_ROW_READING,	/* the row is being read */
	VRAID_ROW_WAIT_SLOT,	/* to fill once a fill slot is free */
	VRAID_ROW_LATER,	/* to fill once writes to the row are done */
};

/*
 * The destage found line @line_nr dirty, on a VD that fills rows: if its
 * row, whole in the VD, holds dirty data in vraid_row_fill_min_columns()
 * columns or more and none of its lines is being written or filled, read
 * the row (vraid_ra_issue()) and mark its lines, or if the cache holds it
 * whole make its clean pages dirty; else mark them considered.  With
 * VRAID_ROW_FILL_MAX fills in flight, a row to read is left as it is
 * (VRAID_ROW_WAIT_SLOT): the pass ends, and the next one, when a fill is done,
 * looks at it again; a read-modify-write per column would cost the
 * members more than the wait.  Process context.
 */
static enum vraid_row_fill_outcome
vraid_row_fill_consider(struct vraid_vd *vd, u64 line_nr, bool later,
			bool drain)
{
	struct vraid_cache *c = vd->cache;
	const struct vraid_geom *g = &vd->geom;
	u64 row = (u64)g->strip_sectors * g->data_members;
	u32 spages = g->strip_sectors >> (PAGE_SHIFT - SECTOR_SHIFT);
	u64 first = div64_u64(line_nr << VRAID_LINE_SHIFT, row) * row;
	u64 end = first + row, row_line;
	DECLARE_BITMAP(cols, VRAID_RA_PAGES);
	bool whole = true, fill = end <= g->size_sectors, wip = false;
	struct bio *fbio;
	u16 fill_generation;

	bitmap_zero(cols, VRAID_RA_PAGES);
	for (row_line = vraid_line_number(first);
	     fill && row_line <= vraid_line_number(end - 1); row_line++) {
		struct vraid_cache_bucket *b = vraid_bucket_of(c, row_line);
		u16 m = vraid_line_mask(row_line, first, end), d;
		struct vraid_cache_line *l;
		unsigned long flags;

		spin_lock_irqsave(&b->lock, flags);
		l = vraid_line_find(b, row_line);
		if (!l || (l->valid & m) != m)
			whole = false;
		if (l && (l->busy || (l->fill_mark &&
				      l->fill_mark != VRAID_ROW_FILL_LATER)))
			fill = false;
		d = l ? l->dirty & m : 0;
		spin_unlock_irqrestore(&b->lock, flags);
		wip = wip || atomic_read(&b->writes_in_progress);
		for (; d; d &= d - 1) {
			u64 sec = (row_line << VRAID_LINE_SHIFT) +
				  ((u64)__ffs(d) << (PAGE_SHIFT - SECTOR_SHIFT));

			__set_bit((u32)((sec - first) >>
					(PAGE_SHIFT - SECTOR_SHIFT)) &
				  (spages - 1), cols);
		}
	}
	fill = fill && bitmap_weight(cols, VRAID_RA_PAGES) >=
		      vraid_row_fill_min_columns(g, drain);
	if (fill && whole) {
		/* nothing to read: its clean pages go out with it */
		vraid_row_fill_mark(c, first, end, VRAID_ROW_FILL_DONE, 0,
				    true);
		return VRAID_ROW_AS_IS;
	}
	if (fill && atomic_read(&c->row_fills) >= VRAID_ROW_FILL_MAX)
		return VRAID_ROW_WAIT_SLOT;
	/*
	 * A write in progress in one of its buckets (often a destage this pass
	 * just started there) would keep the fill from inserting anything
	 * (vraid_note_writes_started()): look at the row again when the destage
	 * comes round to it, once.
	 */
	if (fill && wip) {
		if (later) {
			vraid_row_fill_mark(c, first, end, VRAID_ROW_FILL_LATER,
					    0, false);
			return VRAID_ROW_LATER;
		}
		fill = false;	/* the second time: as it is */
	}
	if (!fill) {
		vraid_row_fill_mark(c, first, end, VRAID_ROW_FILL_DONE, 0,
				    false);
		return VRAID_ROW_AS_IS;
	}
	do {
		fill_generation = atomic_inc_return(&c->fill_generation);
	} while (!fill_generation);
	vraid_row_fill_mark(c, first, end, VRAID_ROW_FILL_RUNNING,
			    fill_generation, false);
	fbio = vraid_ra_issue(vd, first, row, fill_generation);
	if (fbio) {
		/* (process context: see vraid_engine_submit()) */
		vraid_engine_submit(vd, fbio, 0);
		return VRAID_ROW_READING;
	}
	/* no room for it now: the row goes out as it is */
	vraid_row_fill_mark(c, first, end, VRAID_ROW_FILL_DONE, 0, false);
	return VRAID_ROW_AS_IS;
}

/*
 * A row fill is done (vraid_ra_endio()): unless the VD no longer writes
 * back, insert the pages of its row the cache lacks as dirty data the
 * members hold (@ok: read, and no write of their bucket started since
 * it was sent or was in progress then); its lines may be destaged now,
 * and the next destage work starts with them (filled_rows), so that the pages
 * read do not wait in the cache for the pass to come round to them.
 * Any context.  Returns the number of pages taken.
 */
static u32 vraid_row_fill_done(struct vraid_cache *c, struct vraid_ra *ra,
			       bool ok)
{
	unsigned long flags;
	u32 used;

	used = vraid_cache_insert(c, ra->sector, ra->page, ra->nr_pages,
				  ok && vraid_writes_back(c->vd) ?
				  ra->seq : NULL,
				  VRAID_INSERT_ROW_FILL, ra->fill_generation);
	spin_lock_irqsave(&c->filled_rows_lock, flags);
	if (c->nr_filled_rows < ARRAY_SIZE(c->filled_rows))
		c->filled_rows[c->nr_filled_rows++] = ra->sector;
	spin_unlock_irqrestore(&c->filled_rows_lock, flags);
	this_cpu_add(c->vd->stats->cache_fill_pages, used);
	atomic_dec(&c->row_fills);
	wake_up(&c->destage_wait);
	vraid_destage_kick(c);
	return used;
}

/*
 * Start destaging the eligible lines of bucket @b, one at a time, each
 * with the rest of its row (vraid_destage_row()).  Lines with a destage
 * in flight wait for it (never two of one page at once).
 */
static void vraid_destage_bucket(struct vraid_vd *vd,
				 struct vraid_cache_bucket *b,
				 struct vraid_destage_scope *p)
{
	struct vraid_cache *c = vd->cache;
	struct page *pages[VRAID_LINE_PAGES];
	struct vraid_cache_line *l;
	unsigned long flags;
	u32 epoch;
	u16 mask;
	bool fill, later = false;
	u64 line_nr = 0;
	struct blk_plug plug;

	while (READ_ONCE(b->dirty_lines) && p->started < p->max) {
		mask = 0;
		fill = false;
		epoch = atomic_read(&c->epoch);
		spin_lock_irqsave(&b->lock, flags);
		hlist_for_each_entry(l, &b->chain, node) {
			if (!l->dirty || l->busy ||
			    (p->row_fill &&
			     l->fill_mark == VRAID_ROW_FILL_RUNNING))
				continue;
			/* failed: again once it aged, or in a drain */
			if ((l->dirty & l->failed) && !p->drain &&
			    time_before(jiffies,
					l->dirty_since + VRAID_DESTAGE_AGE))
				continue;
			if (!p->all && (int)(l->epoch - p->below) >= 0 &&
			    (p->drain ||
			     time_before(jiffies,
					 l->dirty_since + VRAID_DESTAGE_AGE)))
				continue;
			line_nr = l->line_nr;
			/* its row first: filled, or marked considered */
			if (p->row_fill &&
			    (!l->fill_mark ||
			     l->fill_mark == VRAID_ROW_FILL_LATER)) {
				fill = true;
				later = !l->fill_mark;
				break;
			}
			mask = vraid_destage_take(l, pages);
			break;
		}
		spin_unlock_irqrestore(&b->lock, flags);
		if (fill) {
			switch (vraid_row_fill_consider(vd, line_nr, later,
							p->drain)) {
			case VRAID_ROW_READING:
				p->started++;
				break;
			case VRAID_ROW_WAIT_SLOT:
				p->wait_for_slot = true;
				return;
			case VRAID_ROW_LATER:
				return;
			case VRAID_ROW_AS_IS:
				break;
			}
			continue;
		}
		if (!mask)
			return;
		p->started++;
		blk_start_plug(&plug);
		vraid_destage_line(vd, line_nr, mask, pages, epoch);
		vraid_destage_row(vd, line_nr << VRAID_LINE_SHIFT, line_nr, p);
		blk_finish_plug(&plug);
	}
}

/* The rows whose fills are done (filled_rows): their lines go out now. */
static void vraid_destage_filled_rows(struct vraid_vd *vd,
				      struct vraid_destage_scope *p)
{
	struct vraid_cache *c = vd->cache;
	u64 rows[ARRAY_SIZE(c->filled_rows)];
	struct blk_plug plug;
	unsigned long flags;
	u32 i, n;

	spin_lock_irqsave(&c->filled_rows_lock, flags);
	n = c->nr_filled_rows;
	memcpy(rows, c->filled_rows, n * sizeof(rows[0]));
	c->nr_filled_rows = 0;
	spin_unlock_irqrestore(&c->filled_rows_lock, flags);
	for (i = 0; i < n; i++) {
		blk_start_plug(&plug);
		vraid_destage_row(vd, rows[i], U64_MAX, p);
		blk_finish_plug(&plug);
	}
}

/* A pass over the buckets from @from; returns the buckets looked at. */
static u32 vraid_destage_pass(struct vraid_vd *vd, u32 from,
			      struct vraid_destage_scope *p)
{
	struct vraid_cache *c = vd->cache;
	bool nonrot = bdev_nonrot(vd->disk->part0);
	u32 k, nb = 1U << c->bits;
	struct blk_plug plug;

	/*
	 * Non-rotational members: one plug for the pass, so that its heads
	 * go as one batch (the CPU is what a request costs there).  On disks
	 * each line with its row has its own (vraid_destage_bucket()), and
	 * rows reach the members as they are taken: one lockstep batch of a
	 * pass's rows left the disks idle about half the time.
	 */
	if (nonrot)
		blk_start_plug(&plug);
	p->row_fill = vraid_row_fill_enabled(vd);
	if (p->row_fill)
		vraid_destage_filled_rows(vd, p);
	for (k = 0; k < nb && p->started < p->max; k++) {
		vraid_destage_bucket(vd, &c->buckets[(from + k) & (nb - 1)], p);
		/* the next pass starts with the row left waiting */
		if (p->wait_for_slot)
			break;
		if (!(k & 255))
			cond_resched();
	}
	if (nonrot)
		blk_finish_plug(&plug);
	return k;
}

/* Whether a line dirty since an epoch below @below is left. */
static bool vraid_cache_old_dirty(struct vraid_cache *c, u32 below)
{
	u32 k, nb = 1U << c->bits;
	bool old = false;

	for (k = 0; k < nb && !old; k++) {
		struct vraid_cache_bucket *b = &c->buckets[k];
		struct vraid_cache_line *l;
		unsigned long flags;

		if (!READ_ONCE(b->dirty_lines))
			continue;
		spin_lock_irqsave(&b->lock, flags);
		hlist_for_each_entry(l, &b->chain, node)
			if (l->dirty && (int)(l->epoch - below) < 0)
				old = true;
		spin_unlock_irqrestore(&b->lock, flags);
	}
	return old;
}

/*
 * The limits of a cache of @limit pages now: with a parity VD logging to
 * the journal, dirty data is capped so that its parity records fit.
 */
static void vraid_cache_limits_now(unsigned long limit,
				   struct vraid_cache_limits *l)
{
	vraid_cache_limits(limit, 0, l);
	vraid_cache_limits_cap(l, vraid_journal_dirty_cap());
}

/* How many more destage bios may start now (see VRAID_DESTAGE_MAX). */
static int vraid_destage_room(struct vraid_cache *c)
{
	int max = VRAID_DESTAGE_MAX;

	if (time_before(jiffies, READ_ONCE(c->last_read) +
			VRAID_DESTAGE_READ_WINDOW))
		max = c->vd->geom.nr_members;
	return max - atomic_read(&c->destaging);
}

/*
 * Background destage (vraid_cache_wq): above the background band every
 * dirty line, else lines dirty for VRAID_DESTAGE_AGE and lines a flush or
 * a waiting bio asked for; VRAID_DESTAGE_MAX bios in flight at most,
 * one per member while the VD is being read.  vraid_cache_drain()
 * keeps to the same limits.
 */
static void vraid_destage_work(struct work_struct *w)
{
	struct vraid_cache *c = container_of(w, struct vraid_cache,
					     destage_work);
	struct vraid_vd *vd = c->vd;
	struct vraid_cache_limits lim;
	struct vraid_destage_scope p = { 0 };
	int room = vraid_destage_room(c);

	/*
	 * While a drain runs its passes have the destage slots: what it
	 * waits for (a flush, a checkpoint) goes first, and its completions
	 * clean pages for the writers just as well.
	 */
	if (room <= 0 || !atomic_long_read(&c->dirty) ||
	    atomic_read(&c->draining))
		return;
	vraid_cache_limits_now(READ_ONCE(vraid_cache_limit), &lim);
	p.below = atomic_read(&c->destage_below);
	p.all = vraid_dirty_bound() > lim.dirty_bg ||
		!vraid_writes_back(vd);
	p.max = room;
	c->destage_clock += vraid_destage_pass(vd, c->destage_clock, &p);
}

/* Every second while there is dirty data: the aged lines. */
static void vraid_destage_age(struct work_struct *w)
{
	struct vraid_cache *c = container_of(to_delayed_work(w),
					     struct vraid_cache, age_work);

	if (!atomic_long_read(&c->dirty))
		return;
	vraid_destage_kick(c);
	queue_delayed_work(vraid_cache_wq, &c->age_work, HZ);
}

/*
 * Get every line dirty before now onto the members and wait for it
 * (a flush, a bio held back, a policy change, a stop).  Process context.
 * Returns -EIO if some of it could not be written: it stays dirty (see
 * "Write-out errors" above vraid_destage_endio()).
 */
int vraid_cache_drain(struct vraid_vd *vd)
{
	struct vraid_cache *c = vd->cache;
	u32 e, from = 0;
	int fails;

	if (!c)
		return 0;
	if (!atomic_long_read(&c->dirty)) {
		/* what failed before is gone: superseded, or dropped */
		atomic_set(&c->destage_failing, 0);
		return 0;
	}
	/*
	 * The background destage starts nothing more now; what it has in
	 * flight ends first, so that a failure this drain counts is one of
	 * the writes it tried itself.  A second at most: held-back bios and
	 * other drains may keep destages in flight, and a failure of one of
	 * theirs only makes this drain report an error a little early.
	 */
	atomic_inc(&c->draining);
	wait_event_timeout(c->destage_wait, !atomic_read(&c->destaging), HZ);
	fails = atomic_read(&c->destage_failures);
	e = atomic_inc_return(&c->epoch);
	vraid_atomic_max(&c->destage_below, e);
	for (;;) {
		struct vraid_destage_scope p = { .below = e, .drain = true };
		int room = vraid_destage_room(c), busy;
		bool failed = atomic_read(&c->destage_failures) != fails;

		/* a page failed again: no more passes, report it */
		if (room > 0 && !failed) {
			p.max = room;
			from += vraid_destage_pass(vd, from, &p);
		}
		/*
		 * what it started is old and dirty until it completes; a
		 * row fill may still add to it
		 */
		if (!p.started && !atomic_read(&c->row_fills) &&
		    (failed ? !atomic_read(&c->destaging) :
			      !vraid_cache_old_dirty(c, e)))
			break;
		/* a completion makes room, or lines busy come free */
		busy = atomic_read(&c->destaging) + atomic_read(&c->row_fills);
		if (busy)
			wait_event_timeout(c->destage_wait,
					   atomic_read(&c->destaging) +
					   atomic_read(&c->row_fills) < busy,
					   HZ / 10);
		else
			cond_resched();
	}
	/* what the destage work left meanwhile */
	if (atomic_dec_and_test(&c->draining))
		vraid_destage_kick(c);
	if (atomic_read(&c->destage_failures) != fails)
		return -EIO;
	/* every page dirty before it began is out, the failed ones too */
	atomic_set(&c->destage_failing, 0);
	return 0;
}

/*
 * Whether pages @bio touches are dirty (@any), or dirty since an epoch
 * below @below; with @start (process context), their lines not being
 * destaged are destaged now (whole), else it stops at the first.
 */
static bool vraid_cache_dirty_range(struct vraid_cache *c, struct bio *bio,
				    bool any, u32 below, bool start)
{
	u64 sector = bio->bi_iter.bi_sector, end = bio_end_sector(bio), line_nr;
	struct page *pages[VRAID_LINE_PAGES];
	bool hit = false;

	if (end <= sector)
		return false;
	for (line_nr = vraid_line_number(sector);
	     line_nr <= vraid_line_number(end - 1) && (start || !hit);
	     line_nr++) {
		struct vraid_cache_bucket *b = vraid_bucket_of(c, line_nr);
		struct vraid_cache_line *l;
		unsigned long flags;
		u32 epoch;
		u16 mask = 0;

		if (!READ_ONCE(b->dirty_lines))
			continue;
		epoch = atomic_read(&c->epoch);
		spin_lock_irqsave(&b->lock, flags);
		l = vraid_line_find(b, line_nr);
		if (l && (l->dirty & vraid_line_mask(line_nr, sector, end)) &&
		    (any || (int)(l->epoch - below) < 0)) {
			hit = true;
			if (start && !l->busy)
				mask = vraid_destage_take(l, pages);
		}
		spin_unlock_irqrestore(&b->lock, flags);
		if (mask)
			vraid_destage_line(c->vd, line_nr, mask, pages, epoch);
	}
	return hit;
}

/*
 * Whether @bio, which the cache does not take or answer whole, meets dirty
 * data (not on the members yet) in the pages it touches.
 */
static bool vraid_cache_conflict(struct vraid_cache *c, struct bio *bio)
{
	return atomic_long_read(&c->dirty) &&
	       vraid_cache_dirty_range(c, bio, true, 0, false);
}

/* Whether pages @bio touches are dirty since an epoch below @below. */
static bool vraid_cache_old_range(struct vraid_cache *c, struct bio *bio,
				  u32 below, bool start)
{
	return vraid_cache_dirty_range(c, bio, false, below, start);
}

/*
 * The bios held back: once the dirty data each touches (dirty when it
 * came) is on the members, into the engine.  Only their lines are
 * destaged and waited for, not the whole cache: a write sent around a
 * cache that is being drained (a policy change), or a partial write over
 * a hot line, waits for a line's destage, not for every dirty page.
 */
static void vraid_defer_work(struct work_struct *w)
{
	struct vraid_cache *c = container_of(w, struct vraid_cache, defer_work);
	struct vraid_vd *vd = c->vd;
	struct bio_list bios;
	struct bio *bio;
	unsigned long flags;
	int fails;
	u32 e;

	for (;;) {
		spin_lock_irqsave(&c->defer_lock, flags);
		bios = c->deferred_bios;
		bio_list_init(&c->deferred_bios);
		spin_unlock_irqrestore(&c->defer_lock, flags);
		if (bio_list_empty(&bios))
			return;
		/* lines dirtied from now on are of a later epoch */
		e = atomic_inc_return(&c->epoch);
		fails = atomic_read(&c->destage_failures);
		bio_list_for_each(bio, &bios)
			vraid_cache_old_range(c, bio, e, true);
		while ((bio = bio_list_pop(&bios))) {
			bool failed = false;

			/*
			 * Dirty data that cannot be written stays dirty
			 * ("Write-out errors"): a bio that waits for it
			 * while write-outs fail fails, rather than wait for
			 * ever or go around it.
			 */
			while (vraid_cache_old_range(c, bio, e, true)) {
				failed = atomic_read(&c->destage_failures) !=
					 fails;
				if (failed)
					break;
				wait_event_timeout(c->destage_wait,
						   !vraid_cache_old_range(c, bio,
									  e, false),
						   HZ / 10);
			}
			if (failed) {
				/* (a bound VD's: no INVALIDATE for it) */
				if (!vraid_journal_bypass_abort(bio))
					bio_io_error(bio);
				continue;
			}
			vraid_engine_submit(vd, bio,
					    VRAID_SUB_USER | VRAID_SUB_CHECKED);
		}
	}
}

/*
 * A user write of a VD (after the split to the limits, before the
 * engine).  Write-back takes whole aligned pages, VRAID_CACHE_MAX_PAGES at
 * most, into the cache: awb (not FUA) completes them at once, a VD bound
 * to the journal (wb) logs them first (journal.c), FUA or not.  With awb
 * any other write over dirty data waits for it to reach the members
 * first; a bound VD's other writes, and all of them while its unbind
 * drains the cache, go to the members with FUA and log an INVALIDATE.
 * Returns true if the bio is taken care of.  May sleep (->submit_bio):
 * for the dirty limit, memory and journal space, and, for a write the
 * journal cannot log while the VD may be bound, for its unbind to send
 * writes around or to end (vraid_journal_wait_unbind()).
 */
bool vraid_cache_write(struct vraid_vd *vd, struct bio *bio)
{
	struct vraid_cache *c = vd->cache;
	struct page *pages[VRAID_CACHE_MAX_PAGES];
	struct vraid_cache_line *spare[VRAID_CACHE_MAX_LINES] = { NULL };
	struct vraid_journal_write *jdata = NULL;
	struct vraid_cache_limits lim;
	u64 sector = bio->bi_iter.bi_sector, first = vraid_line_number(sector);
	u32 n = bio->bi_iter.bi_size >> PAGE_SHIFT;
	u32 i, j, nr_lines, got, newdirty = 0, unfilled = 0, replaced = 0;
	u32 unfailed = 0;
	unsigned long start;
	bool logged, logged_around = false, ok, admit_waited = false;

	/*
	 * A bound VD logs its writes, also once its write policy is no longer
	 * wb, until the unbind begins (a checkpoint may hold it up); while the
	 * unbind drains the cache they go around it and log INVALIDATEs
	 * (logged_around).  Never unlogged while the VD may be bound (the
	 * journal failed, the unbind waits for the VD's records): a replay
	 * would write the older versions the journal holds over it.
	 */
again:
	for (;;) {
		/* (a VD not bound takes no reference: no shared atomic) */
		logged = READ_ONCE(vd->jbound) && vraid_journal_get(vd);
		if (logged || likely(!vraid_journal_binds(vd)) ||
		    !bio_sectors(bio))
			break;
		logged_around = vraid_journal_get_around(vd);
		if (logged_around)
			break;
		vraid_journal_wait_unbind(vd);
	}
	/* (destage_failing: see "Write-out errors") */
	if (logged_around || !(logged || vraid_always_writes_back(vd)) ||
	    bio_op(bio) != REQ_OP_WRITE ||
	    atomic_read(&c->destage_failing) ||
	    (bio->bi_opf & REQ_PREFLUSH) ||
	    (!logged && (bio->bi_opf & REQ_FUA)) || !bio_sectors(bio) ||
	    ((sector | bio_sectors(bio)) & (PAGE_SECTORS - 1)) ||
	    n > VRAID_CACHE_MAX_PAGES)
		goto around;
	/* pages not logged yet are bounded, for the parity records' room */
	if (logged && !vraid_journal_admit(n)) {
		vraid_journal_put(vd);
		/* counted once per write, however long it waits */
		if (!admit_waited)
			this_cpu_inc(vd->stats->journal_waits);
		admit_waited = true;
		vraid_journal_admit_wait(vd, n);
		goto again;
	}
	nr_lines = vraid_line_number(vraid_page_sector(sector, n) - 1) -
		   first + 1;
	vraid_cache_limits_now(READ_ONCE(vraid_cache_limit), &lim);
	if (vraid_dirty_bound() + n > lim.dirty_high) {
		this_cpu_inc(vd->stats->cache_dirty_waits);
		do {
			vraid_destage_kick(c);
			wait_event_timeout(vraid_cache_wwait,
					   vraid_dirty_bound() + n <=
					   lim.dirty_high, HZ / 10);
		} while (vraid_dirty_bound() + n > lim.dirty_high);
	}
	if (!vraid_cache_reserve(n)) {
		if (logged)
			vraid_journal_unadmit(n);
		goto around;
	}
	for (got = 0; got < n; got++) {
		pages[got] = alloc_page(GFP_NOIO | __GFP_NOWARN);
		if (!pages[got])
			break;
	}
	ok = got == n;
	for (j = 0; j < nr_lines && ok; j++) {
		spare[j] = kmem_cache_alloc(vraid_line_slab,
					    GFP_NOIO | __GFP_NOWARN);
		ok = !!spare[j];
	}
	/*
	 * A logged write's DATA entry, allocated (it may sleep) before the
	 * pages are dirty: see below where it is queued.  Nothing after
	 * this fails for a logged write (ok stays true).
	 */
	if (ok && logged)
		jdata = vraid_journal_data_alloc(vd, sector, pages, n);
	/*
	 * Unlogged writes go in only while the VD is awb: a change away
	 * from it waits for a grace period, then writes the cache out
	 * (vraid_vd_set_policy()), which must find them all; to wb, they
	 * would be dirty pages no record holds (and the journal's room for
	 * parity records counts on that: vraid_journal_admit()).
	 */
	rcu_read_lock();
	if (ok && !logged)
		ok = vraid_always_writes_back(vd);
	if (!ok) {
		rcu_read_unlock();
		for (i = 0; i < got; i++)
			__free_page(pages[i]);
		for (j = 0; j < nr_lines; j++)
			if (spare[j])
				kmem_cache_free(vraid_line_slab, spare[j]);
		atomic_long_sub(n, &vraid_cache_used);
		if (logged)
			vraid_journal_unadmit(n);
		goto around;
	}
	start = vraid_acct_start(bio);	/* the journal keeps it */
	vraid_cache_copy(bio, 0, pages, n, false);
	/* the journal's references: a rewrite may replace them in the line */
	for (i = 0; logged && i < n; i++)
		get_page(pages[i]);
	/*
	 * The DATA entry takes its place in the log before any of its pages is
	 * dirty in a line, so that every INVALIDATE over them comes after it.
	 * Records are built from the journal's open list in its order, one
	 * leader at a time (journal.c, vraid_record_lead()), so an entry queued
	 * after this one is later in the log.  A write around the cache that
	 * meets these pages dirty waits for their destage
	 * (vraid_cache_conflict(), vraid_defer_work()), which finds them under
	 * their bucket's lock, so after the unlock below that follows this
	 * queueing; its INVALIDATE is queued only once its own member write is
	 * done (vraid_bypass_invalidate_work()): after this entry, and the
	 * replay voids this older DATA rather than write it over the newer
	 * data.  Queued while the pages were already dirty (the entry allocated
	 * after them, which may sleep), it could come after that INVALIDATE
	 * (tests/vm/cases/91-journal-data-order).  The record may be written
	 * before the pages are in the lines; its completion waits for
	 * vraid_journal_data_go(), so that neither the user bio nor a fallback
	 * drain (journal failed) goes ahead of them, and a checkpoint waits for
	 * a grace period of the RCU section this runs in before it drains
	 * (vraid_checkpoint_locked()).
	 *
	 * Not covered: a write around the cache whose conflict check runs
	 * between this queueing and the insertion finds nothing dirty and
	 * goes to the members; its INVALIDATE follows this DATA, so the
	 * replay gives this data with the other write's sectors in it,
	 * while the cache destages this data whole over them.  Both writes
	 * overlap in flight; there is no range interlock between cached
	 * writes and writes around the cache yet.
	 */
	if (logged)
		vraid_journal_data_queue(jdata, bio, start);
	atomic_long_add(n, &c->pages);
	for (i = 0, j = 0; j < nr_lines; j++) {
		u64 line_nr = first + j;
		struct vraid_cache_bucket *b = vraid_bucket_of(c, line_nr);
		struct vraid_cache_line *l;
		unsigned long flags;

		spin_lock_irqsave(&b->lock, flags);
		/* reads started before fill nothing */
		atomic_inc(&b->writes_started);
		l = vraid_line_get(b, line_nr, &spare[j]);
		if (!l->dirty) {
			l->epoch = atomic_read(&c->epoch);
			l->dirty_since = jiffies;
			b->dirty_lines++;
		}
		for (; i < n &&
		     vraid_line_number(vraid_page_sector(sector, i)) == line_nr;
		     i++) {
			u32 p = vraid_page_index(vraid_page_sector(sector, i));
			u16 bit = 1U << p;

			/* a page being destaged stays with its bio (CoW) */
			if (l->valid & bit) {
				put_page(l->page[p]);
				replaced++;
			}
			/* new data: what failed to go out is superseded */
			if (l->failed & bit) {
				l->failed &= ~bit;
				if (!(l->filled & bit))
					unfailed++;
			}
			l->page[p] = pages[i];
			l->valid |= bit;
			l->read_ahead &= ~bit;
			if (!(l->dirty & bit)) {
				l->dirty |= bit;
				newdirty++;
			} else if (l->filled & bit) {
				/* the user's data now, no longer the members' */
				l->filled &= ~bit;
				unfilled++;
			}
		}
		spin_unlock_irqrestore(&b->lock, flags);
	}
	rcu_read_unlock();
	for (j = 0; j < nr_lines; j++)
		if (spare[j])
			kmem_cache_free(vraid_line_slab, spare[j]);
	atomic_long_sub(replaced, &c->pages);
	atomic_long_sub(replaced, &vraid_cache_used);
	if (unfailed)
		atomic_long_sub(unfailed, &vraid_dirty_failed);
	atomic_long_add(newdirty, &c->dirty);
	atomic_long_sub(unfilled, &c->filled);
	atomic_long_add(newdirty + unfilled, &vraid_dirty_all);
	this_cpu_add(vd->stats->cache_write_pages, n);
	if (vraid_dirty_bound() > lim.dirty_bg)
		vraid_destage_kick(c);
	queue_delayed_work(vraid_cache_wq, &c->age_work, HZ);
	if (logged) {
		vraid_journal_data_go(jdata);
		return true;
	}
	bio_end_io_acct(bio, start);
	bio_endio(bio);
	return true;

around:
	if ((logged || logged_around) && bio_sectors(bio)) {
		bio = vraid_journal_bypass(vd, bio);
		if (vraid_cache_conflict(c, bio))
			vraid_cache_defer(c, bio);
		else
			vraid_engine_submit(vd, bio, VRAID_SUB_USER |
					    VRAID_SUB_CHECKED);
		return true;
	}
	if (logged)
		vraid_journal_put(vd);
	if (!vraid_cache_conflict(c, bio))
		return false;
	vraid_cache_defer(c, bio);
	return true;
}

/* Whether reads of @vd must look the cache up for data it holds dirty. */
bool vraid_cache_dirty(struct vraid_vd *vd)
{
	return atomic_long_read(&vd->cache->dirty) > 0;
}

/* Dirty pages of @vd not on the members (row fills' left out). */
unsigned long vraid_cache_dirty_pages(struct vraid_vd *vd)
{
	return max(atomic_long_read(&vd->cache->dirty) -
		   atomic_long_read(&vd->cache->filled), 0L);
}

/*
 * vraid_cache_drain() for a request that waits for it (a policy change
 * away from write-back, a stop, an unbind from the journal), which can
 * take minutes on slow disks: its progress shows in sysfs (cache_drain)
 * and to the requests that wait for the controller meanwhile
 * (vraid_cache_drain_note()).  Not for checkpoints: they are the
 * journal's own business, and short.
 */
int vraid_cache_write_out(struct vraid_vd *vd)
{
	struct vraid_cache *c = vd->cache;
	int ret;

	if (!c)
		return 0;
	atomic_long_set(&c->drain_from, atomic_long_read(&c->dirty));
	ret = vraid_cache_drain(vd);
	atomic_long_set(&c->drain_from, 0);
	return ret;
}

/*
 * The write-out under way: pages left and pages dirty as it began (both
 * 0 if none runs).  Writes that come in meanwhile do not count.
 */
void vraid_cache_drain_progress(struct vraid_vd *vd, unsigned long *left,
				unsigned long *from)
{
	struct vraid_cache *c = vd->cache;
	long f = c ? atomic_long_read(&c->drain_from) : 0;

	*from = max(f, 0L);
	*left = c ? clamp(atomic_long_read(&c->dirty), 0L, (long)*from) : 0;
}

/* Whether a write-out of @vd's cache a request waits for runs. */
bool vraid_cache_writing_out(struct vraid_vd *vd)
{
	return vd->cache && atomic_long_read(&vd->cache->drain_from) > 0;
}

/* @pages as MiB with one decimal, into @buf. */
static void vraid_format_mib(char *buf, size_t len, unsigned long pages)
{
	u64 tenths = ((u64)pages * 10 + 128) >> 8;

	snprintf(buf, len, "%llu.%llu", tenths / 10, tenths % 10);
}

/*
 * The first write-out under way, for the message to requests that wait
 * for the controller (": vraid0 cache write-out: 35.7 of 48.0 MiB
 * left"): into @buf (empty if none runs), cut to @len.
 */
void vraid_cache_drain_note(char *buf, size_t len)
{
	struct vraid_cache *c;
	char l[24], f[24];

	if (len)
		buf[0] = '\0';
	rcu_read_lock();
	list_for_each_entry_rcu(c, &vraid_cache_vds, node) {
		unsigned long left, from;

		vraid_cache_drain_progress(c->vd, &left, &from);
		if (!from)
			continue;
		vraid_format_mib(l, sizeof(l), left);
		vraid_format_mib(f, sizeof(f), from);
		scnprintf(buf, len, ": %s cache write-out: %s of %s MiB left",
			  c->vd->disk->disk_name, l, f);
		break;
	}
	rcu_read_unlock();
}

/*
 * The first cache being drained (a flush, a checkpoint), for the message
 * to requests that wait for the controller while a journal checkpoint
 * holds it up (vraid_journal_busy_note()): ": vraid0 cache 1.0 MiB
 * dirty" into @buf (empty if no drain runs), cut to @len.
 */
void vraid_cache_draining_note(char *buf, size_t len)
{
	struct vraid_cache *c;
	char d[24];

	if (len)
		buf[0] = '\0';
	rcu_read_lock();
	list_for_each_entry_rcu(c, &vraid_cache_vds, node) {
		if (!atomic_read(&c->draining))
			continue;
		vraid_format_mib(d, sizeof(d),
				 max(atomic_long_read(&c->dirty), 0L));
		scnprintf(buf, len, ": %s cache %s MiB dirty",
			  c->vd->disk->disk_name, d);
		break;
	}
	rcu_read_unlock();
}

/*
 * Before the VD's I/O goes (its disk is gone, no new bio comes): the bios
 * held back go on, dirty data goes to the members.  Returns -EIO if some
 * could not be written.
 */
int vraid_cache_stop(struct vraid_vd *vd)
{
	struct vraid_cache *c = vd->cache;
	int ret;

	flush_work(&c->defer_work);
	ret = vraid_cache_write_out(vd);
	cancel_delayed_work_sync(&c->age_work);
	cancel_work_sync(&c->destage_work);
	wait_event(c->destage_wait, !atomic_read(&c->destaging));
	return ret;
}

/* A write piece starts (vraid_io_start()): "Writes around the cache". */
void vraid_cache_write_start(struct vraid_vd *vd, struct bio *bio)
{
	struct vraid_cache *c = vd->cache;
	u64 sector = bio->bi_iter.bi_sector, end = bio_end_sector(bio);
	u64 line_nr, last;

	if (!bio_sectors(bio))
		return;
	last = vraid_line_number(end - 1);
	for (line_nr = vraid_line_number(sector); line_nr <= last; line_nr++) {
		struct vraid_cache_bucket *b = vraid_bucket_of(c, line_nr);
		struct vraid_cache_line *l;
		unsigned long flags;
		u16 mask;

		atomic_inc(&b->writes_in_progress);
		smp_mb__after_atomic();	/* wip before seq: a fill reads seq, wip */
		atomic_inc(&b->writes_started);
		smp_mb__after_atomic();	/* seq before pages: see the fill */
		if (!atomic_long_read(&c->pages))
			continue;
		/* the pages of this line the write touches, partly or whole */
		mask = GENMASK(line_nr == last ? vraid_page_index(end - 1) :
			       VRAID_LINE_PAGES - 1,
			       line_nr == vraid_line_number(sector) ?
			       vraid_page_index(sector) : 0);
		spin_lock_irqsave(&b->lock, flags);
		l = vraid_line_find(b, line_nr);
		if (l) {
			/*
			 * A destage writing a page: it drops the page when it
			 * is done, unless a cached write replaced it meanwhile
			 * (destage's own writes mark their pages so too).  A
			 * row fill reading the line no longer owns it.
			 */
			l->stale |= mask & l->busy;
			if (l->fill_mark == VRAID_ROW_FILL_RUNNING)
				l->fill_mark = VRAID_ROW_FILL_DONE;
			vraid_line_drop(c, b, l, mask);
		}
		spin_unlock_irqrestore(&b->lock, flags);
	}
}

/* The write piece is done (vraid_io_done()). */
void vraid_cache_write_end(struct vraid_vd *vd, struct bio *bio)
{
	struct vraid_cache *c = vd->cache;
	u64 line_nr, last;

	if (!bio_sectors(bio))
		return;
	last = vraid_line_number(bio_end_sector(bio) - 1);
	smp_mb__before_atomic();	/* the write is done, then wip drops */
	for (line_nr = vraid_line_number(bio->bi_iter.bi_sector);
	     line_nr <= last; line_nr++)
		atomic_dec(&vraid_bucket_of(c, line_nr)->writes_in_progress);
}

/*
 * Drop what this VD has cached (switch to direct, teardown): its clean
 * pages, or with @dirty everything (teardown, no destage in flight).
 */
void vraid_cache_drop_all(struct vraid_vd *vd, bool dirty)
{
	struct vraid_cache *c = vd->cache;
	u32 k, nb = 1U << c->bits;

	for (k = 0; k < nb; k++) {
		struct vraid_cache_bucket *b = &c->buckets[k];
		struct vraid_cache_line *l, *t;
		unsigned long flags;

		spin_lock_irqsave(&b->lock, flags);
		list_for_each_entry_safe(l, t, &b->lru, lru)
			vraid_line_drop(c, b, l, dirty ? l->valid :
					l->valid & ~l->dirty);
		spin_unlock_irqrestore(&b->lock, flags);
		cond_resched();
	}
}

unsigned long vraid_cache_pages(struct vraid_vd *vd)
{
	return atomic_long_read(&vd->cache->pages);
}

int vraid_cache_init(struct vraid_vd *vd)
{
	unsigned long nb = clamp(roundup_pow_of_two(vraid_cache_limit / 16),
				 256UL, 65536UL);
	struct vraid_cache *c;
	unsigned long k;
	int ret;

	c = kzalloc(sizeof(*c), GFP_KERNEL);
	if (!c)
		return -ENOMEM;
	c->last_read = jiffies - VRAID_DESTAGE_READ_WINDOW;
	c->buckets = kvcalloc(nb, sizeof(*c->buckets), GFP_KERNEL);
	if (!c->buckets) {
		ret = -ENOMEM;
		goto out_free;
	}
	c->bits = ilog2(nb);
	for (k = 0; k < nb; k++) {
		spin_lock_init(&c->buckets[k].lock);
		INIT_HLIST_HEAD(&c->buckets[k].chain);
		INIT_LIST_HEAD(&c->buckets[k].lru);
	}
	ret = bioset_init(&c->fill_set, BIO_POOL_SIZE,
			  offsetof(struct vraid_fill, clone), 0);
	if (ret)
		goto out_b;
	ret = bioset_init(&c->ra_set, VRAID_RA_INFLIGHT,
			  offsetof(struct vraid_ra, bio), BIOSET_NEED_BVECS);
	if (ret)
		goto out_fill;
	ret = bioset_init(&c->destage_set, 16,
			  offsetof(struct vraid_destage, bio), BIOSET_NEED_BVECS);
	if (ret)
		goto out_ra;
	spin_lock_init(&c->defer_lock);
	spin_lock_init(&c->filled_rows_lock);
	bio_list_init(&c->deferred_bios);
	INIT_WORK(&c->destage_work, vraid_destage_work);
	INIT_WORK(&c->defer_work, vraid_defer_work);
	INIT_DELAYED_WORK(&c->age_work, vraid_destage_age);
	init_waitqueue_head(&c->destage_wait);
	/* windows of at most 1 MiB: pretend the pool is no larger than 16 */
	ret = vraid_ra_init(&c->ra_cfg, vd->geom.size_sectors,
			    vd->geom.strip_sectors * vd->geom.data_members,
			    vd->geom.strip_sectors,
			    min_t(u64, vraid_cache_limit, 16 * VRAID_RA_PAGES));
	if (ret)
		goto out_ds;
	c->vd = vd;
	vd->cache = c;
	spin_lock(&vraid_cache_vds_lock);
	list_add_tail_rcu(&c->node, &vraid_cache_vds);
	spin_unlock(&vraid_cache_vds_lock);
	return 0;

out_ds:
	bioset_exit(&c->destage_set);
out_ra:
	bioset_exit(&c->ra_set);
out_fill:
	bioset_exit(&c->fill_set);
out_b:
	kvfree(c->buckets);
out_free:
	kfree(c);
	return ret;
}

/* After every VD bio is done (vraid_io_exit()). */
void vraid_cache_exit(struct vraid_vd *vd)
{
	struct vraid_cache *c = vd->cache;

	if (!c)
		return;
	spin_lock(&vraid_cache_vds_lock);
	list_del_rcu(&c->node);
	spin_unlock(&vraid_cache_vds_lock);
	synchronize_rcu();	/* no eviction looks at it any more */
	/* vraid_cache_stop() ran, or the VD never had I/O */
	cancel_delayed_work_sync(&c->age_work);
	cancel_work_sync(&c->destage_work);
	cancel_work_sync(&c->defer_work);
	WARN_ON(atomic_read(&c->destaging) ||
		!bio_list_empty(&c->deferred_bios));
	vraid_cache_drop_all(vd, true);
	bioset_exit(&c->destage_set);
	bioset_exit(&c->ra_set);
	bioset_exit(&c->fill_set);
	kvfree(c->buckets);
	kfree(c);
	vd->cache = NULL;
}

/*
 * CONTROLLER SET_CACHE_SIZE: resize the pool to @bytes (0: the default).
 * Shrinking evicts, from the VDs holding the most, until the pages held
 * fit (pages of reads completing meanwhile may stay over it briefly: a
 * fill that finds the pool full evicts or caches nothing).  Called with
 * vraid_ctl_mutex held.
 */
int vraid_cache_set_size(u64 bytes, char *msg, size_t len)
{
	u64 ram = (u64)totalram_pages() << PAGE_SHIFT;
	unsigned long limit, over, idle = 0;
	int ret;

	ret = vraid_cache_check_bytes(bytes, ram, msg, len);
	if (ret)
		return ret;
	if (!bytes)
		bytes = vraid_cache_default_bytes(ram);
	limit = bytes >> PAGE_SHIFT;
	WRITE_ONCE(vraid_cache_limit, limit);
	cache_mib = bytes >> 20;
	while ((over = atomic_long_read(&vraid_cache_used)) > limit &&
	       idle < 4096) {
		if (!vraid_cache_evict_largest(over - limit))
			idle++;
		cond_resched();
	}
	pr_info("vraid: controller cache %u MiB\n", cache_mib);
	return 0;
}

/* CONTROLLER: what the controller cache looks like now. */
void vraid_cache_show(struct vraid_controller *ctl)
{
	u64 ram = (u64)totalram_pages() << PAGE_SHIFT;
	unsigned long limit = READ_ONCE(vraid_cache_limit);
	struct vraid_cache_limits l;
	struct vraid_cache *c;

	vraid_cache_limits_now(limit, &l);
	ctl->cache_bytes = (u64)limit << PAGE_SHIFT;
	ctl->cache_default_bytes = vraid_cache_default_bytes(ram);
	ctl->cache_max_bytes = min_t(u64, rounddown(ram / 2, SZ_1M),
				     VRAID_CACHE_SET_MAX);
	ctl->cache_used_bytes = (u64)max(atomic_long_read(&vraid_cache_used),
					 0L) << PAGE_SHIFT;
	ctl->cache_dirty_bytes = (u64)max(atomic_long_read(&vraid_dirty_all),
					  0L) << PAGE_SHIFT;
	ctl->cache_dirty_high_bytes = l.dirty_high << PAGE_SHIFT;
	ctl->nr_vds = 0;
	rcu_read_lock();
	list_for_each_entry_rcu(c, &vraid_cache_vds, node)
		ctl->nr_vds++;
	rcu_read_unlock();
	ctl->journal_state = VRAID_JOURNAL_NONE;
}

/*
 * Under memory pressure the cache gives its clean pages back (what they
 * hold is on the members), so reclaim only costs later hits; dirty pages
 * wait for destage, bounded by dirty_high.
 * Eviction takes bucket locks (irq-safe spinlocks) and allocates nothing;
 * the cache allocates under them only with GFP_NOWAIT, which does not
 * enter reclaim.
 */
static unsigned long vraid_cache_count(struct shrinker *s,
				       struct shrink_control *sc)
{
	long clean = atomic_long_read(&vraid_cache_used) -
		     atomic_long_read(&vraid_dirty_all);

	return clean > 0 ? clean : SHRINK_EMPTY;
}

static unsigned long vraid_cache_scan(struct shrinker *s,
				      struct shrink_control *sc)
{
	unsigned long freed = 0, got;

	while (freed < sc->nr_to_scan) {
		got = vraid_cache_evict_largest(sc->nr_to_scan - freed);
		if (!got)
			break;
		freed += got;
	}
	return freed ? freed : SHRINK_STOP;
}

int __init vraid_cache_module_init(void)
{
	u64 ram = (u64)totalram_pages() << PAGE_SHIFT;
	char msg[96];

	if (vraid_cache_check_bytes((u64)cache_mib << 20, ram, msg,
				    sizeof(msg))) {
		pr_err("vraid: cache_mib=%u refused: %s\n", cache_mib, msg);
		return -EINVAL;
	}
	if (!cache_mib)
		cache_mib = vraid_cache_default_bytes(ram) >> 20;
	vraid_cache_limit = (unsigned long)cache_mib << (20 - PAGE_SHIFT);
	vraid_line_slab = KMEM_CACHE(vraid_cache_line, 0);
	if (!vraid_line_slab)
		return -ENOMEM;
	vraid_cache_wq = alloc_workqueue("vraid_cache", WQ_MEM_RECLAIM, 0);
	if (!vraid_cache_wq)
		goto out_slab;
	if (vraid_shrinker_register(&vraid_cache_shrinker, vraid_cache_count,
				    vraid_cache_scan, "vraid-cache"))
		goto out_wq;
	return 0;

out_wq:
	destroy_workqueue(vraid_cache_wq);
out_slab:
	kmem_cache_destroy(vraid_line_slab);
	return -ENOMEM;
}

void vraid_cache_module_exit(void)
{
	vraid_shrinker_unregister(&vraid_cache_shrinker);
	destroy_workqueue(vraid_cache_wq);
	kmem_cache_destroy(vraid_line_slab);
}
