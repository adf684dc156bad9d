/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The controller cache's arithmetic (portable core): pool size and dirty
 * thresholds, throttle and destage-band decisions, the read-ahead
 * detector and the destage window planner.  Documentation/cache-design.rst
 * is the design ("The controller pool", "Read-ahead", "Interaction with
 * the parity stripe cache").  Pure functions on caller-provided state: no
 * allocation, no locks, no floating point.  The module uses the sizes and
 * the read-ahead detector (cache.c); the rest waits for write-back.
 *
 * Units: pages are 4 KiB (a journal block is one page too), sectors are
 * 512 bytes.
 */
#ifndef VRAID_CACHECORE_H
#define VRAID_CACHECORE_H

#include "core_types.h"

#define VRAID_CACHE_PAGE	4096U
#define VRAID_CACHE_MIB		(1ULL << 20)
#define VRAID_CACHE_DEF_MIN	(32ULL << 20)	/* default: RAM/16 at least.. */
#define VRAID_CACHE_DEF_MAX	(1ULL << 30)	/* ..and at most */
#define VRAID_CACHE_SET_MIN	(16ULL << 20)	/* cache-size=SIZE bounds */
#define VRAID_CACHE_SET_MAX	(1ULL << 40)	/* (and RAM/2) */

/* ---- pool size and thresholds ---- */

/*
 * The default pool size in bytes for @ram_bytes of RAM:
 * clamp(RAM / 16, 32 MiB, 1 GiB) rounded down to a MiB.
 */
u64 vraid_cache_default_bytes(u64 ram_bytes);

/*
 * Check a requested pool size: 0 (the default), or a MiB multiple within
 * 16 MiB..1 TiB and at most RAM / 2.  Returns 0, or -EINVAL with the
 * reason in @msg.
 */
int vraid_cache_check_bytes(u64 bytes, u64 ram_bytes, char *msg,
			    size_t msglen);

/* What the pool lets writers dirty, in pages. */
struct vraid_cache_limits {
	u64 size_pages;		/* the pool */
	u64 dirty_high;		/* writers block at it: 50 %, journal 40 % */
	u64 dirty_bg;		/* below it only aged lines and full rows */
	u64 write_max;		/* pages one write may take credits for */
};

/*
 * The limits of a pool of @size_pages with a journal ring of
 * @ring_blocks (0: no journal).  dirty_high is half the pool, and in
 * journal mode at most 40 % of the ring; dirty_bg is 10 % of the pool and
 * at most a fifth of dirty_high (the 10:50 ratio when the journal caps
 * it); write_max is a quarter of dirty_high, at least 1 (larger writes
 * are split).  All at least 1 page when @size_pages is.
 */
void vraid_cache_limits(u64 size_pages, u64 ring_blocks,
			struct vraid_cache_limits *l);

/*
 * Lower dirty_high to @cap pages if it is above (the journal's parity
 * records, jformat.h), with dirty_bg and write_max following as above.
 */
void vraid_cache_limits_cap(struct vraid_cache_limits *l, u64 cap);

/*
 * Whether a write of @n pages (1..write_max) may take its credits now,
 * with @dirty pages dirty or credited: dirty + n <= dirty_high, and no
 * writer already waiting (@waiters: the queue is FIFO).
 */
bool vraid_cache_may_dirty(const struct vraid_cache_limits *l, u64 dirty,
			   u64 n, bool waiters);

/* Destage works in bands of the dirty count. */
#define VRAID_DESTAGE_AGE_SECS	5	/* below dirty_bg: lines older.. */
#define VRAID_DESTAGE_ROWS_MIN	1	/* rows in flight per VD */
#define VRAID_DESTAGE_ROWS_MAX	16

struct vraid_destage_band {
	u32 rows;		/* rows in flight allowed per VD */
	bool all;		/* any dirty line; false: aged lines and full rows */
	bool blocked;		/* at dirty_high: writers wait */
};

/*
 * The band of @dirty pages: below dirty_bg one row in flight, of lines
 * dirty for more than VRAID_DESTAGE_AGE_SECS and full rows only; from
 * dirty_bg up to dirty_high 1 to 16 rows, rising linearly; at dirty_high
 * 16 rows and writers blocked.
 */
void vraid_destage_band(const struct vraid_cache_limits *l, u64 dirty,
			struct vraid_destage_band *b);

/*
 * Journal blocks kept back from user appends for parity records: 16
 * destage windows of 64 columns, each column a record of its own at
 * worst (a header and P, plus Q with @pq_pages 2).  0 for @pq_pages 0.
 */
u64 vraid_jspace_reserve(u32 pq_pages);

/* ---- the read-ahead detector ---- */

#define VRAID_RA_SLOTS		8	/* stream slots per VD */
#define VRAID_RA_STREAM		128	/* sectors: two reads totalling 64 KiB */
#define VRAID_RA_MIN		512	/* sectors: 256 KiB */
#define VRAID_RA_MAX		8192	/* sectors: 4 MiB */
#define VRAID_RA_INFLIGHT	2	/* windows in flight per VD */

/* A VD's read-ahead configuration (vraid_ra_init()). */
struct vraid_ra_cfg {
	u64 size_sectors;	/* the VD */
	u32 unit;		/* sectors: windows are multiples, aligned */
	u32 min_win, max_win;	/* sectors: first window, largest */
};

/*
 * Set up read-ahead for a VD of @size_sectors with full stripe @io_opt
 * and strip @io_min (sectors; 0: none), in a pool of @pool_pages.
 * Windows are whole full stripes, between 256 KiB and the smaller of
 * 4 MiB and 1/16 of the pool; when a full stripe is larger than that,
 * whole strips, and failing that whole pages.  Returns 0 or -EINVAL.
 */
int vraid_ra_init(struct vraid_ra_cfg *c, u64 size_sectors, u32 io_opt,
		  u32 io_min, u64 pool_pages);

/*
 * A stream slot.  In the kernel @next is the word updated with cmpxchg();
 * whoever wins writes the other fields (a lost race costs a missed or a
 * repeated read-ahead, nothing else).
 */
struct vraid_ra_slot {
	u64 next;		/* VD sector the stream reads next; 0: free */
	u64 ra_end;		/* read ahead up to here (0: nothing yet) */
	u64 trigger;		/* a read ending here issues the next window */
	u32 run;		/* sectors read in sequence, saturating */
	u32 win;		/* sectors of the last window (0: none) */
	u32 stamp;		/* @now of the stream's last read */
};

/* What vraid_ra_observe() decided. */
struct vraid_ra_result {
	u32 slot;		/* the slot to update */
	u64 old_next;		/* its @next as observed (cmpxchg's old) */
	struct vraid_ra_slot upd;	/* its new contents */
	u64 ra_sector;		/* a window to read ahead.. */
	u32 ra_sectors;		/* ..0: none */
};

/*
 * Observe a read of @sectors at @sector, given a snapshot of the VD's
 * @slots, the caller's clock @now (any wrapping counter, e.g. jiffies)
 * and the windows in flight. A read continuing a slot's stream extends
 * it; any other read takes a free slot or the least recently used one.
 * A stream is two or more consecutive reads totalling at least 64 KiB;
 * its first window starts where the read ended, the next one is issued
 * once the stream reaches the middle of the last one, each twice the last
 * up to max_win, and never more than VRAID_RA_INFLIGHT at once. Returns
 * 1 with a window in @r, 0 without one (the slot update is in @r
 * either way), or -EINVAL for a read outside the VD.
 */
int vraid_ra_observe(const struct vraid_ra_cfg *c,
		     const struct vraid_ra_slot *slots, u64 sector,
		     u32 sectors, u32 now, u32 inflight,
		     struct vraid_ra_result *r);

/* ---- the destage window planner ---- */

#define VRAID_DWIN_COLS		64	/* columns (pages of a strip) a window */

/*
 * A row of VD space as destage sees it: @strips data strips of
 * @strip_pages pages each, in VD order (the row's pages are
 * strip * strip_pages + page).  For RAID50/60, VD strip i of the row
 * belongs to span i % @spans, and a column's parity is per span; @parity
 * says whether columns count at all (RAID5/6/50/60).
 */
struct vraid_dwin_geom {
	u32 strips;		/* data strips of a row, 1..VRAID_DWIN_MAX_STRIPS */
	u32 strip_pages;	/* pages per strip, 1..256 */
	u32 spans;		/* 1, or the spans of RAID50/60 (divides strips) */
	bool parity;
};

#define VRAID_DWIN_MAX_STRIPS	256
/* Extents a window can produce at worst: every other sector dirty. */
#define VRAID_DWIN_MAX_EXT(strips)	((strips) * VRAID_DWIN_COLS * 4)

/* A contiguous run of dirty sectors within one strip. */
struct vraid_dwin_ext {
	u64 sector;		/* from the row's start */
	u32 sectors;
};

struct vraid_dwin {
	u32 col, ncols;		/* the window: columns col..col+ncols-1 */
	u32 next;		/* extents */
	u32 full;		/* (span, column)s wholly dirty: no reads */
	u32 partial;		/* the other (span, column)s with dirty data */
	bool full_stripe;	/* every (span, column) of the window is full */
};

/* Check a row geometry: 0 or -EINVAL. */
int vraid_dwin_check(const struct vraid_dwin_geom *g);

/*
 * Plan the next window of a row at or after column @from.  @masks holds
 * a byte per page of the row (bit i: sector i of the page is dirty).  The
 * window starts at the first column with a dirty page and ends at the
 * last dirty column within VRAID_DWIN_COLS.  @ext gets its extents in VD
 * order (one per contiguous dirty run within a strip).  Returns 1 with a
 * window in @w, 0 when no dirty page is left, -ENOSPC when @max_ext
 * extents do not suffice (VRAID_DWIN_MAX_EXT() always does) or -EINVAL.
 */
int vraid_dwin_plan(const struct vraid_dwin_geom *g, const u8 *masks,
		    u32 from, struct vraid_dwin_ext *ext, u32 max_ext,
		    struct vraid_dwin *w);

/* Whether every page of the row is wholly dirty (a full row). */
bool vraid_dwin_row_full(const struct vraid_dwin_geom *g, const u8 *masks);

#endif /* VRAID_CACHECORE_H */
