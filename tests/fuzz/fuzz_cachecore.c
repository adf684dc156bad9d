// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for the cache's arithmetic (driver/core/cachecore.c).
 *
 * Input layout: u8 mode, then by mode (taken mod 3):
 *
 *	0  window planner	u8 strips, u8 strip pages, u8 spans, u8 flags
 *				(bit 0: parity), then a mask byte per page
 *				(short input: zero).  Every window of the
 *				row is planned; the extents must cover
 *				exactly the dirty sectors, once, in maximal
 *				runs within one strip and the window, and
 *				full/partial must match a recount
 *	1  read-ahead		u64 size, u32 io_opt, u32 io_min, u64 pool,
 *				then reads of u64 sector, u16 sectors, u8
 *				in flight: windows stay within the VD and
 *				past the read, no larger than max_win
 *	2  thresholds		u64 pool pages, u64 ring blocks, u64 dirty, u64
 *				n: the limits' and bands' invariants
 *
 * Any broken invariant abort()s.
 */
#pragma GCC diagnostic ignored "-Wunused-function"
#include "core_types.h"
#include <linux/vraid.h>
#include "cachecore.h"

#include <stdarg.h>
#include <stdlib.h>

#define FUZZ_NAME "fuzz_cachecore"
#include "fuzz_check.h"
#include "dwin_check.h"

static u64 get_n(const u8 *p, size_t size, size_t off, u32 n)
{
	u64 v = 0;

	if (off < size)
		memcpy(&v, p + off, size - off < n ? size - off : n);
	return v;
}

static void fuzz_dwin(const u8 *d, size_t size)
{
	static u8 masks[VRAID_DWIN_MAX_STRIPS * 256];
	static u8 seen[VRAID_DWIN_MAX_STRIPS * 256];
	static struct vraid_dwin_ext ext[VRAID_DWIN_MAX_EXT(32)];
	struct vraid_dwin_geom g;
	struct vraid_dwin w;
	u32 i, from = 0, npages, windows = 0;
	u64 at;
	int ret;

	g.strips = 1 + get_n(d, size, 1, 1) % 32;
	g.strip_pages = 1 + (u32)get_n(d, size, 2, 1);
	g.spans = 1 + get_n(d, size, 3, 1) % 4;
	g.parity = get_n(d, size, 4, 1) & 1;
	if (g.strips % g.spans)
		g.spans = 1;
	if (vraid_dwin_check(&g))
		die("geometry %u/%u/%u refused", g.strips, g.strip_pages,
		    g.spans);
	npages = g.strips * g.strip_pages;
	for (i = 0; i < npages; i++)
		masks[i] = (u8)get_n(d, size, 5 + i, 1);
	memset(seen, 0, npages);
	while ((ret = vraid_dwin_plan(&g, masks, from, ext,
				      VRAID_DWIN_MAX_EXT(32), &w)) == 1) {
		const char *why = dwin_check(&g, masks, seen, from, ext, &w,
					     &at);

		if (why)
			die("%s (%llu): window %u+%u after %u, %u extents, counts %u/%u%s",
			    why, (unsigned long long)at, w.col, w.ncols, from,
			    w.next, w.full, w.partial,
			    w.full_stripe ? " full stripe" : "");
		if (++windows > 256)
			die("window %u+%u after %u: over 256 windows", w.col,
			    w.ncols, from);
		from = w.col + w.ncols;
	}
	if (ret)
		die("plan returned %d", ret);
	for (i = 0; i < npages; i++)
		if (seen[i] != masks[i])
			die("page %u: planned 0x%02x of 0x%02x", i, seen[i],
			    masks[i]);
}

static void fuzz_ra(const u8 *d, size_t size)
{
	struct vraid_ra_slot slots[VRAID_RA_SLOTS];
	struct vraid_ra_result r;
	struct vraid_ra_cfg c;
	size_t off = 25;
	u32 now = 0;
	int ret;

	memset(slots, 0, sizeof(slots));
	if (vraid_ra_init(&c, get_n(d, size, 1, 8), (u32)get_n(d, size, 9, 4),
			  (u32)get_n(d, size, 13, 4), get_n(d, size, 17, 8)))
		return;
	if (!c.unit || c.unit % 8 || c.min_win > c.max_win ||
	    c.max_win % c.unit || c.max_win > VRAID_RA_MAX ||
	    c.min_win % c.unit)
		die("config unit %u min %u max %u", c.unit, c.min_win,
		    c.max_win);
	for (; off + 11 <= size; off += 11) {
		u64 sector = get_n(d, size, off, 8);
		u32 sectors = (u32)get_n(d, size, off + 8, 2);
		u32 inflight = (u32)get_n(d, size, off + 10, 1) % 4;

		if (d[off + 10] & 0x80)		/* follow the last read */
			sector = slots[now % VRAID_RA_SLOTS].next;
		ret = vraid_ra_observe(&c, slots, sector, sectors, ++now,
				       inflight, &r);
		if (ret < 0) {
			if (sectors && sector < c.size_sectors &&
			    sectors <= c.size_sectors - sector)
				die("read %llu+%u refused",
				    (unsigned long long)sector, sectors);
			continue;
		}
		if (r.slot >= VRAID_RA_SLOTS ||
		    r.old_next != slots[r.slot].next ||
		    r.upd.next != sector + sectors)
			die("slot update");
		if (ret) {
			if (inflight >= VRAID_RA_INFLIGHT || !r.ra_sectors ||
			    r.ra_sector < sector + sectors ||
			    r.ra_sector >= c.size_sectors ||
			    r.ra_sectors > c.size_sectors - r.ra_sector ||
			    r.ra_sectors > c.max_win + c.unit)
				die("window %llu+%u for %llu+%u",
				    (unsigned long long)r.ra_sector,
				    r.ra_sectors, (unsigned long long)sector,
				    sectors);
		} else if (r.ra_sectors) {
			die("a window without 1");
		}
		slots[r.slot] = r.upd;
	}
}

static void fuzz_limits(const u8 *d, size_t size)
{
	struct vraid_cache_limits l;
	struct vraid_destage_band b;
	u64 pool = get_n(d, size, 1, 8), ring = get_n(d, size, 9, 8);
	u64 dirty = get_n(d, size, 17, 8), n = get_n(d, size, 25, 8);

	vraid_cache_limits(pool, ring, &l);
	if (l.dirty_high > pool || l.dirty_bg > l.dirty_high ||
	    (pool && !l.dirty_bg) || !l.write_max ||
	    (l.dirty_high && l.write_max > l.dirty_high))
		die("limits of %llu/%llu", (unsigned long long)pool,
		    (unsigned long long)ring);
	if (vraid_cache_may_dirty(&l, dirty, n, false) &&
	    (n > l.dirty_high || dirty + n > l.dirty_high))
		die("credits past dirty_high");
	vraid_destage_band(&l, dirty, &b);
	if (b.rows < VRAID_DESTAGE_ROWS_MIN || b.rows > VRAID_DESTAGE_ROWS_MAX ||
	    b.blocked != (dirty >= l.dirty_high))
		die("band of %llu: %u rows", (unsigned long long)dirty,
		    b.rows);
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	if (!size)
		return 0;
	switch (data[0] % 3) {
	case 0:
		fuzz_dwin(data, size);
		break;
	case 1:
		fuzz_ra(data, size);
		break;
	default:
		fuzz_limits(data, size);
		break;
	}
	return 0;
}
