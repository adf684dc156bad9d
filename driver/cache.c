// SPDX-License-Identifier: GPL-2.0
/*
 * The controller cache, first part: cached reads (io-policy=cached).
 *
 * Documentation/cache-design.rst is the whole plan.  This file carries its
 * step 4 without the shrinker: one controller-wide bound on cached pages
 * (module parameter cache_mib), and per VD a hash of 64 KiB cache lines of
 * 4 KiB pages.  The cache holds only what the members hold (it is clean:
 * write-back still writes through), so dropping any of it loses nothing.
 *
 * Reads of a VD whose io policy is cached look it up first.  A read whose
 * every 4 KiB page is cached is answered from the cache (a hit).  Any
 * other read goes to the members through a clone, and at its completion
 * the data is copied into the cache (a fill).  Only reads of whole,
 * aligned 4 KiB pages, up to 128 KiB, are cached and counted.
 *
 * Writes never go through the cache, but whatever the policy they keep it
 * right: every write piece, from vraid_io_start() to vraid_io_done(),
 * counts in the buckets of its lines (wip: writes in progress; seq:
 * writes started) and drops the cached pages it covers as it starts.  A
 * fill inserts pages only if no write of their buckets started since the
 * read began and none is in progress, so data read from the members
 * before or while a write changed them is never cached after it.
 *
 * Locking: struct vraid_cbucket.lock (spinlock, irq-safe: fills insert at
 * read completion) protects its chain, its LRU and the lines' pages and
 * valid masks; one bucket lock at a time, never nested.  seq and wip are
 * atomics, updated without it.  vraid_cache_vds_lock protects the list of
 * VDs (for eviction across VDs, which walks it under RCU).  No lock covers
 * a whole VD or the controller on the I/O path.
 */
#include <linux/module.h>
#include <linux/blkdev.h>
#include <linux/bio.h>
#include <linux/hash.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/rculist.h>
#include <linux/slab.h>

#include "vraid.h"
#include "cachecore.h"

#define VRAID_CLINE_SHIFT	7	/* sectors per line: 128, 64 KiB */
#define VRAID_CLINE_PAGES	16
#define VRAID_CACHE_MAX_PAGES	32	/* the largest read cached: 128 KiB */
#define VRAID_CACHE_MAX_LINES	3	/* lines 128 KiB can touch */
#define VRAID_EVICT_SCAN	64	/* buckets looked at per eviction */

static_assert(PAGE_SIZE == 4096, "cache lines are 16 pages of 4 KiB");

/* 64 KiB of VD: which 4 KiB pages of it are cached. */
struct vraid_cline {
	struct hlist_node node;		/* bucket chain */
	struct list_head lru;		/* bucket LRU, oldest first */
	u64 lno;			/* VD sector >> VRAID_CLINE_SHIFT */
	u16 valid;			/* a bit per page */
	struct page *page[VRAID_CLINE_PAGES];
};

struct vraid_cbucket {
	spinlock_t lock;		/* see the top of this file */
	struct hlist_head chain;
	struct list_head lru;
	atomic_t seq;			/* writes started */
	atomic_t wip;			/* writes in progress */
};

struct vraid_cache {
	struct vraid_vd *vd;
	struct list_head node;		/* vraid_cache_vds */
	u32 bits;			/* log2 of the number of buckets */
	atomic_long_t pages;		/* cached pages of this VD */
	atomic_t clock;			/* next bucket to evict from */
	struct bio_set fill_set;	/* clones of reads to fill from */
	struct vraid_cbucket *b;
};

/* Front pad of a fill clone. */
struct vraid_fill {
	struct vraid_vd *vd;
	struct bio *bio;		/* the VD read */
	u32 seq[VRAID_CACHE_MAX_LINES];	/* of its lines' buckets, at start */
	bool fill;			/* no write was in progress then */
	struct bio clone;		/* must be last */
};

static unsigned int cache_mib;
module_param(cache_mib, uint, 0444);
MODULE_PARM_DESC(cache_mib,
		 "controller cache size in MiB, 16..RAM/2 (default: RAM/16 within 32..1024)");

static unsigned long vraid_cache_limit;		/* pages */
static atomic_long_t vraid_cache_used;		/* pages, all VDs */
static struct kmem_cache *vraid_cline_slab;
static LIST_HEAD(vraid_cache_vds);
static DEFINE_SPINLOCK(vraid_cache_vds_lock);

static struct vraid_cbucket *vraid_cbucket_of(struct vraid_cache *c, u64 lno)
{
	return &c->b[hash_64(lno, c->bits)];
}

/* Page @i of a read from VD sector @sector: its sector, line and index. */
static u64 vraid_psec(u64 sector, u32 i)
{
	return sector + ((u64)i << (PAGE_SHIFT - SECTOR_SHIFT));
}

static u64 vraid_lno(u64 sector)
{
	return sector >> VRAID_CLINE_SHIFT;
}

static u32 vraid_pidx(u64 sector)
{
	return (sector >> (PAGE_SHIFT - SECTOR_SHIFT)) &
	       (VRAID_CLINE_PAGES - 1);
}

/* The line @lno in bucket @b (locked), or NULL. */
static struct vraid_cline *vraid_cline_find(struct vraid_cbucket *b, u64 lno)
{
	struct vraid_cline *l;

	hlist_for_each_entry(l, &b->chain, node)
		if (l->lno == lno)
			return l;
	return NULL;
}

/*
 * Drop pages @mask of line @l (its bucket locked); the line too once it
 * holds none.  Readers that took a page hold their own reference.
 * Returns the number of pages dropped.
 */
static u32 vraid_cline_drop(struct vraid_cache *c, struct vraid_cline *l,
			    u16 mask)
{
	u32 i, n = 0;

	mask &= l->valid;
	for (i = 0; mask; i++, mask >>= 1) {
		if (!(mask & 1))
			continue;
		put_page(l->page[i]);
		l->page[i] = NULL;
		l->valid &= ~(1U << i);
		n++;
	}
	if (!l->valid) {
		hlist_del(&l->node);
		list_del(&l->lru);
		kmem_cache_free(vraid_cline_slab, l);
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
		u32 k = (u32)atomic_inc_return(&c->clock) & (nb - 1);
		struct vraid_cbucket *b = &c->b[k];
		unsigned long flags;

		if (list_empty_careful(&b->lru))
			continue;
		spin_lock_irqsave(&b->lock, flags);
		while (freed < want && !list_empty(&b->lru)) {
			struct vraid_cline *l;

			l = list_first_entry(&b->lru, struct vraid_cline, lru);
			freed += vraid_cline_drop(c, l, l->valid);
		}
		spin_unlock_irqrestore(&b->lock, flags);
	}
	return freed;
}

/*
 * Make room for @n pages in the controller's pool: evict from the VD that
 * holds the most.  Returns false (and takes nothing) if the pool stays full.
 */
static bool vraid_cache_reserve(unsigned long n)
{
	struct vraid_cache *c, *victim;
	int tries;

	for (tries = 0; tries < 4; tries++) {
		if (atomic_long_add_return(n, &vraid_cache_used) <=
		    vraid_cache_limit)
			return true;
		atomic_long_sub(n, &vraid_cache_used);
		victim = NULL;
		rcu_read_lock();
		list_for_each_entry_rcu(c, &vraid_cache_vds, node)
			if (!victim || atomic_long_read(&c->pages) >
				       atomic_long_read(&victim->pages))
				victim = c;
		if (victim)
			vraid_cache_evict(victim, max(n, 16UL));
		rcu_read_unlock();
	}
	return false;
}

/* Copy the data of @bio to (@to_bio false) or from @pages, in order. */
static void vraid_cache_copy(struct bio *bio, struct page **pages,
			     bool to_bio)
{
	struct bvec_iter iter;
	struct bio_vec bv;
	size_t off = 0;

	bio_for_each_segment(bv, bio, iter) {
		u32 done = 0;

		while (done < bv.bv_len) {
			u32 po = offset_in_page(off);
			u32 n = min_t(u32, bv.bv_len - done, PAGE_SIZE - po);
			char *c = kmap_local_page(pages[off >> PAGE_SHIFT]);
			char *u = kmap_local_page(bv.bv_page);

			if (to_bio)
				memcpy(u + bv.bv_offset + done, c + po, n);
			else
				memcpy(c + po, u + bv.bv_offset + done, n);
			kunmap_local(u);
			kunmap_local(c);
			done += n;
			off += n;
		}
		if (to_bio)
			flush_dcache_page(bv.bv_page);
	}
}

/* A read the cache can take: whole aligned pages, 128 KiB at most. */
static bool vraid_cacheable(struct bio *bio)
{
	return !((bio->bi_iter.bi_sector | bio->bi_iter.bi_size >>
		  SECTOR_SHIFT) & (PAGE_SECTORS - 1)) &&
	       bio->bi_iter.bi_size <= VRAID_CACHE_MAX_PAGES * PAGE_SIZE;
}

/*
 * Insert the data of the VD read @bio, just completed, unless a write of
 * its buckets started since @seq was taken or is in progress.
 */
static void vraid_cache_fill(struct vraid_vd *vd, struct bio *bio,
			     const u32 *seq)
{
	struct vraid_cache *c = vd->cache;
	struct page *pages[VRAID_CACHE_MAX_PAGES];
	struct vraid_cline *spare[VRAID_CACHE_MAX_LINES];
	u64 sector = bio->bi_iter.bi_sector;
	u32 want = bio->bi_iter.bi_size >> PAGE_SHIFT;
	u64 first = vraid_lno(sector);
	u32 i, j, n, nl, used = 0;

	nl = vraid_lno(vraid_psec(sector, want) - 1) - first + 1;
	if (!vraid_cache_reserve(want))
		return;
	for (j = 0; j < nl; j++)
		spare[j] = kmem_cache_alloc(vraid_cline_slab,
					    GFP_NOWAIT | __GFP_NOWARN);
	for (n = 0; n < want; n++) {
		pages[n] = alloc_page(GFP_NOWAIT | __GFP_NOWARN);
		if (!pages[n])
			break;
	}
	if (n < want)
		goto out;
	vraid_cache_copy(bio, pages, false);

	/*
	 * Count the pages before reading seq; a write bumps seq before it
	 * reads the count.  So either the write sees pages and drops them
	 * under the bucket lock, or this sees seq moved and inserts nothing.
	 */
	atomic_long_add(n, &c->pages);
	smp_mb__after_atomic();	/* pages before seq, pairs with the write's */
	for (i = 0, j = 0; j < nl; j++) {
		u64 lno = first + j;
		struct vraid_cbucket *b = vraid_cbucket_of(c, lno);
		struct vraid_cline *l = NULL;
		unsigned long flags;

		spin_lock_irqsave(&b->lock, flags);
		if (atomic_read(&b->seq) == seq[j] && !atomic_read(&b->wip)) {
			l = vraid_cline_find(b, lno);
			if (!l && spare[j]) {
				l = spare[j];
				spare[j] = NULL;
				l->lno = lno;
				l->valid = 0;
				hlist_add_head(&l->node, &b->chain);
				list_add_tail(&l->lru, &b->lru);
			} else if (l) {
				list_move_tail(&l->lru, &b->lru);
			}
		}
		for (; i < n && vraid_lno(vraid_psec(sector, i)) == lno; i++) {
			u32 p = vraid_pidx(vraid_psec(sector, i));

			/* not allowed, or the same data cached already */
			if (!l || l->valid & (1U << p))
				continue;
			l->page[p] = pages[i];
			l->valid |= 1U << p;
			pages[i] = NULL;
			used++;
		}
		spin_unlock_irqrestore(&b->lock, flags);
	}
	atomic_long_sub(n - used, &c->pages);
out:
	atomic_long_sub(want - used, &vraid_cache_used);
	for (i = 0; i < n; i++)
		if (pages[i])
			__free_page(pages[i]);
	for (j = 0; j < nl; j++)
		if (spare[j])
			kmem_cache_free(vraid_cline_slab, spare[j]);
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
	if (!clone->bi_status && f->fill &&
	    READ_ONCE(f->vd->io_policy) == VRAID_IO_CACHED)
		vraid_cache_fill(f->vd, bio, f->seq);
	rcu_read_unlock();
	bio->bi_status = clone->bi_status;
	bio_put(clone);
	bio_endio(bio);
}

/*
 * A read of a VD whose io policy is cached, in ->submit_bio.  Returns
 * NULL if the cache answered it, else the bio to send to the members:
 * @bio itself if the cache cannot take it, or a clone whose completion
 * fills the cache.
 */
struct bio *vraid_cache_read(struct vraid_vd *vd, struct bio *bio)
{
	struct vraid_cache *c = vd->cache;
	struct page *pages[VRAID_CACHE_MAX_PAGES];
	u64 sector = bio->bi_iter.bi_sector;
	u32 n = bio->bi_iter.bi_size >> PAGE_SHIFT;
	u64 first = vraid_lno(sector);
	u64 last = vraid_lno(bio_end_sector(bio) - 1);
	struct vraid_fill *f;
	struct bio *clone;
	unsigned long start;
	u32 i = 0, j;

	if (!vraid_cacheable(bio))
		return bio;
	/* Take a reference on each page, line by line, up to a missing one. */
	while (i < n && atomic_long_read(&c->pages)) {
		u64 lno = vraid_lno(vraid_psec(sector, i));
		struct vraid_cbucket *b = vraid_cbucket_of(c, lno);
		struct vraid_cline *l;
		unsigned long flags;
		u32 was = i;

		spin_lock_irqsave(&b->lock, flags);
		l = vraid_cline_find(b, lno);
		for (; l && i < n && vraid_lno(vraid_psec(sector, i)) == lno;
		     i++) {
			u32 p = vraid_pidx(vraid_psec(sector, i));

			if (!(l->valid & (1U << p)))
				break;
			pages[i] = l->page[p];
			get_page(pages[i]);
		}
		if (i > was)
			list_move_tail(&l->lru, &b->lru);
		spin_unlock_irqrestore(&b->lock, flags);
		if (i < n && vraid_lno(vraid_psec(sector, i)) == lno)
			break;		/* a page of this line is missing */
	}
	if (i == n) {
		start = bio_start_io_acct(bio);
		vraid_cache_copy(bio, pages, true);
		for (i = 0; i < n; i++)
			put_page(pages[i]);
		this_cpu_add(vd->stats->cache_read_hits, n);
		bio_end_io_acct(bio, start);
		bio_endio(bio);
		return NULL;
	}
	for (j = 0; j < i; j++)
		put_page(pages[j]);

	/*
	 * Never wait for a fill clone: the caller may have taken others from
	 * this bio_set in this ->submit_bio (the strips of a parity bio), and
	 * they complete only after it returns.  Without one the read goes on
	 * uncached.
	 */
	clone = bio_alloc_clone(bio->bi_bdev, bio, GFP_NOWAIT, &c->fill_set);
	if (!clone)
		return bio;
	this_cpu_add(vd->stats->cache_read_misses, n);
	f = container_of(clone, struct vraid_fill, clone);
	f->vd = vd;
	f->bio = bio;
	f->fill = true;
	for (j = 0; first + j <= last; j++) {
		struct vraid_cbucket *b = vraid_cbucket_of(c, first + j);

		f->seq[j] = atomic_read(&b->seq);
		smp_rmb();	/* seq before wip: see vraid_cache_write_start */
		if (atomic_read(&b->wip))
			f->fill = false;
	}
	clone->bi_end_io = vraid_fill_endio;
	return clone;
}

/* A write piece starts (vraid_io_start()): see the top of this file. */
void vraid_cache_write_start(struct vraid_vd *vd, struct bio *bio)
{
	struct vraid_cache *c = vd->cache;
	u64 sector = bio->bi_iter.bi_sector, end = bio_end_sector(bio);
	u64 lno, last;

	if (!bio_sectors(bio))
		return;
	last = vraid_lno(end - 1);
	for (lno = vraid_lno(sector); lno <= last; lno++) {
		struct vraid_cbucket *b = vraid_cbucket_of(c, lno);
		struct vraid_cline *l;
		unsigned long flags;
		u16 mask;

		atomic_inc(&b->wip);
		smp_mb__after_atomic();	/* wip before seq: a fill reads seq, wip */
		atomic_inc(&b->seq);
		smp_mb__after_atomic();	/* seq before pages: see the fill */
		if (!atomic_long_read(&c->pages))
			continue;
		/* the pages of this line the write touches, partly or whole */
		mask = GENMASK(lno == last ? vraid_pidx(end - 1) :
			       VRAID_CLINE_PAGES - 1,
			       lno == vraid_lno(sector) ? vraid_pidx(sector) : 0);
		spin_lock_irqsave(&b->lock, flags);
		l = vraid_cline_find(b, lno);
		if (l)
			vraid_cline_drop(c, l, mask);
		spin_unlock_irqrestore(&b->lock, flags);
	}
}

/* The write piece is done (vraid_io_done()). */
void vraid_cache_write_end(struct vraid_vd *vd, struct bio *bio)
{
	struct vraid_cache *c = vd->cache;
	u64 lno, last;

	if (!bio_sectors(bio))
		return;
	last = vraid_lno(bio_end_sector(bio) - 1);
	smp_mb__before_atomic();	/* the write is done, then wip drops */
	for (lno = vraid_lno(bio->bi_iter.bi_sector); lno <= last; lno++)
		atomic_dec(&vraid_cbucket_of(c, lno)->wip);
}

/* Drop everything this VD has cached (switch to direct, teardown). */
void vraid_cache_drop_all(struct vraid_vd *vd)
{
	struct vraid_cache *c = vd->cache;
	u32 k, nb = 1U << c->bits;

	for (k = 0; k < nb; k++) {
		struct vraid_cbucket *b = &c->b[k];
		unsigned long flags;

		spin_lock_irqsave(&b->lock, flags);
		while (!list_empty(&b->lru)) {
			struct vraid_cline *l;

			l = list_first_entry(&b->lru, struct vraid_cline, lru);
			vraid_cline_drop(c, l, l->valid);
		}
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
	c->b = kvcalloc(nb, sizeof(*c->b), GFP_KERNEL);
	if (!c->b) {
		ret = -ENOMEM;
		goto out_free;
	}
	c->bits = ilog2(nb);
	for (k = 0; k < nb; k++) {
		spin_lock_init(&c->b[k].lock);
		INIT_HLIST_HEAD(&c->b[k].chain);
		INIT_LIST_HEAD(&c->b[k].lru);
	}
	ret = bioset_init(&c->fill_set, BIO_POOL_SIZE,
			  offsetof(struct vraid_fill, clone), 0);
	if (ret)
		goto out_b;
	c->vd = vd;
	vd->cache = c;
	spin_lock(&vraid_cache_vds_lock);
	list_add_tail_rcu(&c->node, &vraid_cache_vds);
	spin_unlock(&vraid_cache_vds_lock);
	return 0;

out_b:
	kvfree(c->b);
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
	vraid_cache_drop_all(vd);
	bioset_exit(&c->fill_set);
	kvfree(c->b);
	kfree(c);
	vd->cache = NULL;
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
	vraid_cline_slab = KMEM_CACHE(vraid_cline, 0);
	if (!vraid_cline_slab)
		return -ENOMEM;
	return 0;
}

void vraid_cache_module_exit(void)
{
	kmem_cache_destroy(vraid_cline_slab);
}
