// SPDX-License-Identifier: GPL-2.0
/*
 * The controller cache's arithmetic (portable core): see cachecore.h and
 * Documentation/cache-design.rst.  Divisions by anything but a power of
 * two go through div_u64_rem(), the one 64-by-32 division the core has.
 */
#include "core_types.h"
#include <linux/vraid.h>
#include "cachecore.h"

#define U64_MAX_	(~0ULL)
#define U32_MAX_	(~0U)

static u64 div32(u64 x, u32 d)
{
	u32 rem;

	return div_u64_rem(x, d, &rem);
}

/* x * num / den for num <= den, without overflow (den fits 32 bits). */
static u64 frac(u64 x, u32 num, u32 den)
{
	u32 rem;
	u64 q = div_u64_rem(x, den, &rem);

	return q * num + div32((u64)rem * num, den);
}

/* ---- pool size and thresholds ---- */

u64 vraid_cache_default_bytes(u64 ram_bytes)
{
	u64 b = ram_bytes / 16;

	if (b < VRAID_CACHE_DEF_MIN)
		b = VRAID_CACHE_DEF_MIN;
	if (b > VRAID_CACHE_DEF_MAX)
		b = VRAID_CACHE_DEF_MAX;
	return b & ~(VRAID_CACHE_MIB - 1);
}

int vraid_cache_check_bytes(u64 bytes, u64 ram_bytes, char *msg,
			    size_t msglen)
{
	if (!bytes)
		return 0;
	if (bytes & (VRAID_CACHE_MIB - 1)) {
		snprintf(msg, msglen,
			 "cache size %llu bytes is not a multiple of 1 MiB",
			 (unsigned long long)bytes);
		return -EINVAL;
	}
	if (bytes < VRAID_CACHE_SET_MIN || bytes > VRAID_CACHE_SET_MAX) {
		snprintf(msg, msglen,
			 "cache size %llu MiB: use 16 MiB..1 TiB, or default",
			 (unsigned long long)(bytes >> 20));
		return -EINVAL;
	}
	if (bytes > ram_bytes / 2) {
		snprintf(msg, msglen,
			 "cache size %llu MiB is more than half the RAM (%llu MiB)",
			 (unsigned long long)(bytes >> 20),
			 (unsigned long long)(ram_bytes >> 20));
		return -EINVAL;
	}
	return 0;
}

/* dirty_high and what follows from it (vraid_cache_limits()) */
static void limits_from_high(u64 size_pages, u64 high,
			     struct vraid_cache_limits *l)
{
	u64 bg;

	if (!high && size_pages)
		high = 1;
	bg = div32(size_pages, 10);
	if (bg > high / 5)
		bg = high / 5;
	if (!bg && high)
		bg = 1;
	l->size_pages = size_pages;
	l->dirty_high = high;
	l->dirty_bg = bg;
	l->write_max = high / 4 ? high / 4 : 1;
}

void vraid_cache_limits(u64 size_pages, u64 ring_blocks,
			struct vraid_cache_limits *l)
{
	u64 high = size_pages / 2;

	if (ring_blocks) {
		u64 cap = frac(ring_blocks, 2, 5);

		if (high > cap)
			high = cap;
	}
	limits_from_high(size_pages, high, l);
}

void vraid_cache_limits_cap(struct vraid_cache_limits *l, u64 cap)
{
	if (l->dirty_high > cap)
		limits_from_high(l->size_pages, cap, l);
}

bool vraid_cache_may_dirty(const struct vraid_cache_limits *l, u64 dirty,
			   u64 n, bool waiters)
{
	if (waiters || n > l->dirty_high)
		return false;
	return dirty <= l->dirty_high - n;
}

void vraid_destage_band(const struct vraid_cache_limits *l, u64 dirty,
			struct vraid_destage_band *b)
{
	u64 span, over;
	u32 k, steps = VRAID_DESTAGE_ROWS_MAX - VRAID_DESTAGE_ROWS_MIN;

	b->all = true;
	b->blocked = false;
	if (dirty >= l->dirty_high) {
		b->rows = VRAID_DESTAGE_ROWS_MAX;
		b->blocked = true;
		return;
	}
	if (dirty < l->dirty_bg) {
		b->rows = VRAID_DESTAGE_ROWS_MIN;
		b->all = false;
		return;
	}
	/* rows = 1 + 15 * (dirty - bg) / (high - bg), without a division */
	span = l->dirty_high - l->dirty_bg;
	over = dirty - l->dirty_bg;
	while (span > U64_MAX_ / 16) {
		span >>= 4;
		over >>= 4;
	}
	for (k = steps; k > 0; k--)
		if (over * steps >= k * span)
			break;
	b->rows = VRAID_DESTAGE_ROWS_MIN + k;
}

u64 vraid_jspace_reserve(u32 pq_pages)
{
	if (!pq_pages || pq_pages > 2)
		return 0;
	return 16ULL * VRAID_DWIN_COLS * (1 + pq_pages);
}

/* ---- the read-ahead detector ---- */

static u64 round_down_to(u64 x, u32 unit)
{
	u32 rem;

	div_u64_rem(x, unit, &rem);
	return x - rem;
}

int vraid_ra_init(struct vraid_ra_cfg *c, u64 size_sectors, u32 io_opt,
		  u32 io_min, u64 pool_pages)
{
	u64 max = VRAID_RA_MAX, min = VRAID_RA_MIN;
	u64 pool16 = pool_pages / 16 * 8;	/* sectors */
	u32 unit;

	if (!size_sectors || !pool_pages)
		return -EINVAL;
	if (max > pool16)
		max = pool16;
	if (max < 8)
		max = 8;
	if (min > max)
		min = max;
	if (io_opt && io_opt % 8 == 0 && io_opt <= max)
		unit = io_opt;
	else if (io_min && io_min % 8 == 0 && io_min <= max)
		unit = io_min;
	else
		unit = 8;
	c->size_sectors = size_sectors;
	c->unit = unit;
	c->max_win = (u32)round_down_to(max, unit);
	/* the smallest multiple of the unit >= 256 KiB, if it fits */
	min = round_down_to(min + unit - 1, unit);
	c->min_win = min < c->max_win ? (u32)min : c->max_win;
	return 0;
}

/* The window after @start: @len sectors, ending on a unit boundary. */
static u32 ra_window(const struct vraid_ra_cfg *c, u64 start, u32 len)
{
	u64 end;

	if (len > c->size_sectors - start)
		end = c->size_sectors;
	else
		end = round_down_to(start + len, c->unit);
	if (end <= start) {
		/* shorter than what is left of the unit: to its end */
		end = round_down_to(start, c->unit) + c->unit;
		if (end > c->size_sectors || end < start)
			end = c->size_sectors;
	}
	return (u32)(end - start);
}

int vraid_ra_observe(const struct vraid_ra_cfg *c,
		     const struct vraid_ra_slot *slots, u64 sector,
		     u32 sectors, u32 now, u32 inflight,
		     struct vraid_ra_result *r)
{
	struct vraid_ra_slot *s = &r->upd;
	u64 end;
	u32 i, pick = VRAID_RA_SLOTS, age, oldest = 0, len;

	memset(r, 0, sizeof(*r));
	if (!sectors || sector >= c->size_sectors ||
	    sectors > c->size_sectors - sector)
		return -EINVAL;
	end = sector + sectors;
	for (i = 0; i < VRAID_RA_SLOTS; i++)
		if (slots[i].next && slots[i].next == sector)
			break;
	if (i == VRAID_RA_SLOTS) {
		/* a new stream: a free slot, else the least recently used */
		for (i = 0; i < VRAID_RA_SLOTS; i++) {
			if (!slots[i].next) {
				pick = i;
				break;
			}
			age = now - slots[i].stamp;
			if (pick == VRAID_RA_SLOTS || age > oldest) {
				pick = i;
				oldest = age;
			}
		}
		r->slot = pick;
		r->old_next = slots[pick].next;
		s->next = end;
		s->run = sectors;
		s->stamp = now;
		return 0;
	}
	r->slot = i;
	r->old_next = slots[i].next;
	*s = slots[i];
	s->next = end;
	s->run = s->run > U32_MAX_ - sectors ? U32_MAX_ : s->run + sectors;
	s->stamp = now;
	if (s->run < VRAID_RA_STREAM)
		return 0;
	if (s->ra_end < end) {
		/* the first window, or the reader overtook read-ahead */
		s->ra_end = end;
		s->trigger = 0;
		s->win = 0;
	}
	if (end < s->trigger || inflight >= VRAID_RA_INFLIGHT ||
	    s->ra_end >= c->size_sectors)
		return 0;
	if (!s->win)
		s->win = c->min_win;
	else
		s->win = s->win > c->max_win / 2 ? c->max_win : 2 * s->win;
	len = ra_window(c, s->ra_end, s->win);
	r->ra_sector = s->ra_end;
	r->ra_sectors = len;
	s->trigger = s->ra_end + len / 2;
	s->ra_end += len;
	return 1;
}

/* ---- the destage window planner ---- */

int vraid_dwin_check(const struct vraid_dwin_geom *g)
{
	if (!g->strips || g->strips > VRAID_DWIN_MAX_STRIPS ||
	    !g->strip_pages || g->strip_pages > 256 || !g->spans ||
	    g->strips % g->spans)
		return -EINVAL;
	return 0;
}

static bool col_dirty(const struct vraid_dwin_geom *g, const u8 *masks,
		      u32 col)
{
	u32 s;

	for (s = 0; s < g->strips; s++)
		if (masks[s * g->strip_pages + col])
			return true;
	return false;
}

int vraid_dwin_plan(const struct vraid_dwin_geom *g, const u8 *masks,
		    u32 from, struct vraid_dwin_ext *ext, u32 max_ext,
		    struct vraid_dwin *w)
{
	u32 col, last, end, s, p, k, sp;

	memset(w, 0, sizeof(*w));
	if (vraid_dwin_check(g))
		return -EINVAL;
	for (col = from; col < g->strip_pages; col++)
		if (col_dirty(g, masks, col))
			break;
	if (col >= g->strip_pages)
		return 0;
	end = g->strip_pages - col > VRAID_DWIN_COLS ?
	      col + VRAID_DWIN_COLS : g->strip_pages;
	for (last = end - 1; !col_dirty(g, masks, last); last--)
		;
	w->col = col;
	w->ncols = last + 1 - col;

	/* extents: runs of dirty sectors within each strip */
	for (s = 0; s < g->strips; s++) {
		const u8 *m = masks + s * g->strip_pages;
		u64 base = (u64)s * g->strip_pages * 8;
		bool open = false;

		for (p = col; p <= last; p++) {
			for (k = 0; k < 8; k++) {
				if (!(m[p] & (1U << k))) {
					open = false;
					continue;
				}
				if (open) {
					ext[w->next - 1].sectors++;
					continue;
				}
				if (w->next >= max_ext)
					return -ENOSPC;
				ext[w->next].sector = base + p * 8 + k;
				ext[w->next++].sectors = 1;
				open = true;
			}
		}
	}

	/* columns: a (span, column) is full when its data pages all are */
	if (!g->parity)
		return 1;
	for (p = col; p <= last; p++) {
		for (sp = 0; sp < g->spans; sp++) {
			u32 full = 0, any = 0, n = g->strips / g->spans;

			for (s = sp; s < g->strips; s += g->spans) {
				u8 m = masks[s * g->strip_pages + p];

				full += m == 0xff;
				any += m != 0;
			}
			if (full == n)
				w->full++;
			else if (any)
				w->partial++;
		}
	}
	w->full_stripe = w->full == w->ncols * g->spans;
	return 1;
}

bool vraid_dwin_row_full(const struct vraid_dwin_geom *g, const u8 *masks)
{
	u32 i, n;

	if (vraid_dwin_check(g))
		return false;
	n = g->strips * g->strip_pages;
	for (i = 0; i < n; i++)
		if (masks[i] != 0xff)
			return false;
	return true;
}
