// SPDX-License-Identifier: GPL-2.0
/*
 * The controller cache's arithmetic (driver/core/cachecore.c): the default
 * pool size and the size check, dirty thresholds with and without a
 * journal, throttle and destage-band decisions against a plain model,
 * the read-ahead detector driven by simulated readers (streams, ramps,
 * alignment, the in-flight cap, slot eviction, the VD's end), and the
 * destage window planner against a sector-by-sector model.
 */
#pragma GCC diagnostic ignored "-Wunused-function"
#include <stdlib.h>
#include "tap.h"
#include <linux/vraid.h>
#include "cachecore.h"
#include "dwin_check.h"

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

#define MIB (1ULL << 20)
#define GIB (1ULL << 30)

static u64 rng_state = 0x2545f4914f6cdd1dULL;

static u64 rnd(void)
{
	return tap_xorshift(&rng_state);
}

/* ---- pool size and thresholds ---- */

static void test_size(void)
{
	static const struct { u64 ram, want; } t[] = {
		{ 2 * GIB, 128 * MIB }, { GIB, 64 * MIB }, { 0, 32 * MIB },
		{ 256 * MIB, 32 * MIB }, { 512 * MIB, 32 * MIB },
		{ 1024 * MIB - 4096, 63 * MIB }, { 2 * GIB - 4096, 127 * MIB },
		{ 16 * GIB, GIB }, { 64 * GIB, GIB }, { ~0ULL, GIB },
		{ 17 * GIB / 2, 544 * MIB },
	};
	char *msg = msg_buf(VRAID_MSG_LEN);
	u32 i;
	int ret;

	tap_begin("pool size: clamp(RAM/16, 32 MiB, 1 GiB) rounded to a MiB");
	for (i = 0; i < ARRAY_SIZE(t); i++)
		CHECK(vraid_cache_default_bytes(t[i].ram) == t[i].want,
		      "RAM %llu: %llu, expected %llu",
		      (unsigned long long)t[i].ram,
		      (unsigned long long)vraid_cache_default_bytes(t[i].ram),
		      (unsigned long long)t[i].want);
	tap_end();

	tap_begin("pool size: cache-size=SIZE within 16 MiB..min(1 TiB, RAM/2)");
	CHECK(vraid_cache_check_bytes(0, 0, msg, VRAID_MSG_LEN) == 0,
	      "0 is the default");
	CHECK(vraid_cache_check_bytes(16 * MIB, 32 * MIB, msg,
				      VRAID_MSG_LEN) == 0, "16 MiB of 32");
	CHECK(vraid_cache_check_bytes(GIB << 10, ~0ULL, msg,
				      VRAID_MSG_LEN) == 0, "1 TiB");
	ret = vraid_cache_check_bytes(15 * MIB, 4 * GIB, msg, VRAID_MSG_LEN);
	CHECK(ret == -EINVAL, "15 MiB: %d", ret);
	CHECK_MSG(msg, VRAID_MSG_LEN, "16 MiB..1 TiB");
	msg_reset(msg, VRAID_MSG_LEN);
	ret = vraid_cache_check_bytes((GIB << 10) + MIB, ~0ULL, msg,
				      VRAID_MSG_LEN);
	CHECK(ret == -EINVAL, "1 TiB + 1 MiB: %d", ret);
	CHECK_MSG(msg, VRAID_MSG_LEN, "16 MiB..1 TiB");
	msg_reset(msg, VRAID_MSG_LEN);
	ret = vraid_cache_check_bytes(64 * MIB + 4096, 4 * GIB, msg,
				      VRAID_MSG_LEN);
	CHECK(ret == -EINVAL, "not a MiB multiple: %d", ret);
	CHECK_MSG(msg, VRAID_MSG_LEN, "multiple of 1 MiB");
	msg_reset(msg, VRAID_MSG_LEN);
	ret = vraid_cache_check_bytes(1025 * MIB, 2 * GIB, msg, VRAID_MSG_LEN);
	CHECK(ret == -EINVAL, "over RAM/2: %d", ret);
	CHECK_MSG(msg, VRAID_MSG_LEN, "half the RAM");
	CHECK(vraid_cache_check_bytes(GIB, 2 * GIB, msg, VRAID_MSG_LEN) == 0,
	      "exactly RAM/2");
	tap_end();
	free(msg);
}

static void test_limits(void)
{
	struct vraid_cache_limits l;
	u64 size, ring, ring_min = (64ULL << 20 >> 12) - 256;
	u32 bad = 0, i;

	tap_begin("thresholds: 50 %% and 10 %%, journal cap 40 %% of the ring");
	vraid_cache_limits(32768, 0, &l);
	CHECK(l.size_pages == 32768 && l.dirty_high == 16384 &&
	      l.dirty_bg == 3276 && l.write_max == 4096,
	      "128 MiB: high %llu bg %llu max %llu",
	      (unsigned long long)l.dirty_high,
	      (unsigned long long)l.dirty_bg,
	      (unsigned long long)l.write_max);
	vraid_cache_limits(32768, ring_min, &l);
	CHECK(l.dirty_high == 6451 && l.dirty_bg == 1290,
	      "128 MiB, smallest journal: high %llu bg %llu",
	      (unsigned long long)l.dirty_high,
	      (unsigned long long)l.dirty_bg);
	vraid_cache_limits(32768, 1ULL << 20, &l);
	CHECK(l.dirty_high == 16384 && l.dirty_bg == 3276,
	      "a large journal does not cap");
	vraid_cache_limits(0, 0, &l);
	CHECK(!l.dirty_high && !l.dirty_bg && l.write_max == 1, "empty pool");
	vraid_cache_limits(1, 0, &l);
	CHECK(l.dirty_high == 1 && l.dirty_bg == 1, "one page");
	vraid_cache_limits(~0ULL, ~0ULL, &l);
	CHECK(l.dirty_high == ~0ULL / 5 * 2 && l.dirty_bg == l.dirty_high / 5,
	      "no overflow: high %llu", (unsigned long long)l.dirty_high);
	tap_end();

	tap_begin("thresholds: invariants over 100000 random pools and rings");
	for (i = 0; i < 100000; i++) {
		size = rnd() >> (rnd() % 64);
		ring = i % 3 ? rnd() >> (rnd() % 64) : 0;
		vraid_cache_limits(size, ring, &l);
		if (l.dirty_high > (size / 2 ? size / 2 : size) ||
		    (ring && l.dirty_high > ring / 5 * 2 + 2 && l.dirty_high > 1) ||
		    l.dirty_bg > l.dirty_high ||
		    (l.dirty_high >= 5 && l.dirty_bg > l.dirty_high / 5) ||
		    l.dirty_bg > (size / 10 ? size / 10 : 1) ||
		    (size && (!l.dirty_high || !l.dirty_bg)) ||
		    !l.write_max || l.write_max > (l.dirty_high ? l.dirty_high : 1))
			bad++;
	}
	CHECK(bad == 0, "%u pools break an invariant", bad);
	tap_end();
}

static void test_throttle(void)
{
	struct vraid_cache_limits l;
	struct vraid_destage_band b;
	u64 d, model;
	u32 bad = 0, prev, i;

	vraid_cache_limits(1000, 0, &l);	/* high 500, bg 100 */
	tap_begin("throttle: credits up to dirty_high, FIFO behind waiters");
	CHECK(vraid_cache_may_dirty(&l, 0, 1, false), "empty");
	CHECK(vraid_cache_may_dirty(&l, 499, 1, false), "to the limit");
	CHECK(!vraid_cache_may_dirty(&l, 500, 1, false), "at the limit");
	CHECK(vraid_cache_may_dirty(&l, 375, 125, false), "exactly");
	CHECK(!vraid_cache_may_dirty(&l, 376, 125, false), "one over");
	CHECK(!vraid_cache_may_dirty(&l, 0, 1, true), "someone waits");
	CHECK(!vraid_cache_may_dirty(&l, 0, 501, false), "larger than high");
	CHECK(!vraid_cache_may_dirty(&l, ~0ULL, 2, false), "no wrap");
	tap_end();

	tap_begin("destage bands: aged/full below bg, 1..16 rows, blocked at high");
	vraid_destage_band(&l, 0, &b);
	CHECK(b.rows == 1 && !b.all && !b.blocked, "empty: %u", b.rows);
	vraid_destage_band(&l, 99, &b);
	CHECK(b.rows == 1 && !b.all, "just below bg");
	vraid_destage_band(&l, 100, &b);
	CHECK(b.rows == 1 && b.all && !b.blocked, "at bg");
	vraid_destage_band(&l, 499, &b);
	CHECK(b.rows == 15 && b.all && !b.blocked, "below high: %u", b.rows);
	vraid_destage_band(&l, 500, &b);
	CHECK(b.rows == 16 && b.blocked, "at high");
	for (i = 0; i < 200; i++) {
		vraid_cache_limits(1 + rnd() % 100000, i % 2 ? rnd() % 50000 : 0,
				   &l);
		prev = 0;
		for (d = 0; d <= l.dirty_high + 1; d++) {
			vraid_destage_band(&l, d, &b);
			if (d < l.dirty_bg)
				model = 1;
			else if (d >= l.dirty_high)
				model = 16;
			else
				model = 1 + 15 * (d - l.dirty_bg) /
					(l.dirty_high - l.dirty_bg);
			if (b.rows != model || b.rows < prev ||
			    b.all != (d >= l.dirty_bg) ||
			    b.blocked != (d >= l.dirty_high))
				bad++;
			prev = b.rows;
		}
	}
	CHECK(bad == 0, "%u dirty counts in the wrong band", bad);
	l.dirty_high = ~0ULL;
	l.dirty_bg = 1;
	vraid_destage_band(&l, ~0ULL - 1, &b);
	CHECK(b.rows == 15 || b.rows == 16, "huge: %u", b.rows);
	vraid_destage_band(&l, ~0ULL / 2, &b);
	CHECK(b.rows == 8, "huge, half way: %u", b.rows);
	tap_end();

	tap_begin("journal reserve: 16 windows of parity records");
	CHECK(vraid_jspace_reserve(1) == 2048 && vraid_jspace_reserve(2) == 3072 &&
	      !vraid_jspace_reserve(0) && !vraid_jspace_reserve(3), "P, P+Q");
	tap_end();
}

/* ---- read-ahead ---- */

static void test_ra_init(void)
{
	struct vraid_ra_cfg c;

	tap_begin("read-ahead windows: whole stripes, 256 KiB..4 MiB, pool/16");
	memset(&c, 0, sizeof(c));
	/* RAID5, 4 x 64 KiB: a 192 KiB full stripe */
	CHECK(!vraid_ra_init(&c, 1 << 30, 384, 128, 32768) && c.unit == 384 &&
	      c.min_win == 768 && c.max_win == 8064, "RAID5 4x64K: %u %u %u",
	      c.unit, c.min_win, c.max_win);
	CHECK(!vraid_ra_init(&c, 1 << 30, 256, 128, 32768) && c.unit == 256 &&
	      c.min_win == 512 && c.max_win == 8192, "RAID0 2x64K");
	/* a 15 MiB full stripe: whole strips */
	CHECK(!vraid_ra_init(&c, 1 << 30, 30720, 2048, 32768) &&
	      c.unit == 2048 && c.min_win == 2048 && c.max_win == 8192,
	      "RAID6 17x1M: %u %u %u", c.unit, c.min_win, c.max_win);
	/* a 16 MiB pool: at most 1 MiB */
	CHECK(!vraid_ra_init(&c, 1 << 30, 384, 128, 4096) &&
	      c.min_win == 768 && c.max_win == 1920, "small pool: %u %u",
	      c.min_win, c.max_win);
	/* a tiny pool: whole pages */
	CHECK(!vraid_ra_init(&c, 1 << 30, 384, 128, 160) && c.unit == 8 &&
	      c.min_win == 80 && c.max_win == 80, "tiny pool: %u %u %u",
	      c.unit, c.min_win, c.max_win);
	CHECK(!vraid_ra_init(&c, 1 << 30, 0, 0, 32768) && c.unit == 8 &&
	      c.min_win == 512, "JBOD");
	CHECK(vraid_ra_init(&c, 0, 8, 8, 1) == -EINVAL &&
	      vraid_ra_init(&c, 8, 8, 8, 0) == -EINVAL, "refusals");
	tap_end();
}

struct ra_sim {
	struct vraid_ra_cfg c;
	struct vraid_ra_slot slots[VRAID_RA_SLOTS];
	u32 now, inflight, windows, bad;
	bool hold;			/* windows stay in flight */
	u64 ra_lo[64], ra_hi[64];	/* windows issued, by stream */
	u64 last_end[64];
};

/* One read of stream @st through the detector; the result applied. */
static int ra_read(struct ra_sim *s, u32 st, u64 sector, u32 sectors)
{
	struct vraid_ra_result r;
	int ret = vraid_ra_observe(&s->c, s->slots, sector, sectors, ++s->now,
				   s->inflight, &r);

	if (ret < 0)
		return ret;
	if (r.slot >= VRAID_RA_SLOTS || r.old_next != s->slots[r.slot].next)
		s->bad++;
	s->slots[r.slot] = r.upd;
	if (ret) {
		s->windows++;
		s->inflight++;
		if (!r.ra_sectors || r.ra_sector + r.ra_sectors > s->c.size_sectors ||
		    r.ra_sectors > s->c.max_win + s->c.unit ||
		    r.ra_sector < sector + sectors)
			s->bad++;
		/* windows of a stream follow each other */
		if (s->ra_hi[st] && r.ra_sector != s->ra_hi[st] &&
		    r.ra_sector != sector + sectors)
			s->bad++;
		if (!s->ra_lo[st])
			s->ra_lo[st] = r.ra_sector;
		s->ra_hi[st] = r.ra_sector + r.ra_sectors;
		s->last_end[st] = r.ra_sectors;
	}
	if (!s->hold)
		s->inflight = 0;	/* done before the reader gets there */
	return ret;
}

static void ra_reset(struct ra_sim *s, u64 size, u32 io_opt, u32 io_min,
		     u64 pool)
{
	memset(s, 0, sizeof(*s));
	vraid_ra_init(&s->c, size, io_opt, io_min, pool);
}

static void test_ra(void)
{
	static struct ra_sim s;
	struct vraid_ra_result r;
	u64 pos, total;
	u32 i, st, wins[8], nw;
	int ret;

	tap_begin("read-ahead: 64 KiB reads make a stream at the second read");
	ra_reset(&s, 1ULL << 24, 384, 128, 32768);
	CHECK(ra_read(&s, 0, 1000, 128) == 0, "first read");
	ret = ra_read(&s, 0, 1128, 128);
	CHECK(ret == 1 && s.ra_lo[0] == 1256 && s.ra_hi[0] == 1920,
	      "second: %d [%llu, %llu)", ret, (unsigned long long)s.ra_lo[0],
	      (unsigned long long)s.ra_hi[0]);
	CHECK(s.ra_hi[0] % 384 == 0, "the window ends on a full stripe");
	tap_end();

	tap_begin("read-ahead: 4 KiB reads make a stream at 64 KiB, not before");
	ra_reset(&s, 1ULL << 24, 256, 128, 32768);
	for (i = 0; i < 15; i++)
		CHECK(ra_read(&s, 0, 4096 + 8 * i, 8) == 0, "read %u", i);
	CHECK(ra_read(&s, 0, 4096 + 120, 8) == 1 && s.ra_lo[0] == 4224,
	      "read 16: window at %llu", (unsigned long long)s.ra_lo[0]);
	tap_end();

	tap_begin("read-ahead: one large read, random reads: no window");
	ra_reset(&s, 1ULL << 24, 256, 128, 32768);
	CHECK(ra_read(&s, 0, 0, 2048) == 0, "1 MiB read alone");
	for (i = 0; i < 10000; i++)
		ra_read(&s, 0, (rnd() % ((1 << 24) / 8 - 1)) * 8, 8);
	CHECK(s.windows == 0 && s.bad == 0, "%u windows", s.windows);
	tap_end();

	tap_begin("read-ahead: a stream ramps up to 4 MiB, windows back to back");
	ra_reset(&s, 1ULL << 26, 256, 128, 32768);
	nw = 0;
	for (pos = 0; pos < (1ULL << 25); pos += 128) {
		u32 before = s.windows;

		ra_read(&s, 0, pos, 128);
		if (s.windows != before && nw < 8)
			wins[nw++] = (u32)s.last_end[0];
	}
	CHECK(s.bad == 0, "%u bad windows", s.bad);
	CHECK(nw == 8 && wins[0] == 512 && wins[1] == 1024 &&
	      wins[2] == 2048 && wins[3] == 4096 && wins[4] == 8192 &&
	      wins[5] == 8192, "ramp %u %u %u %u %u %u", wins[0], wins[1],
	      wins[2], wins[3], wins[4], wins[5]);
	total = s.ra_hi[0] - s.ra_lo[0];
	CHECK(total >= (1ULL << 25) - 8192 - 256, "read ahead %llu sectors of %llu",
	      (unsigned long long)total, 1ULL << 25);
	tap_end();

	tap_begin("read-ahead: the in-flight cap holds back, the reader overtakes");
	ra_reset(&s, 1ULL << 24, 256, 128, 32768);
	s.inflight = VRAID_RA_INFLIGHT;
	s.hold = true;
	for (pos = 0; pos < 4096; pos += 128)
		ra_read(&s, 0, pos, 128);
	CHECK(s.windows == 0, "capped: %u windows", s.windows);
	s.inflight = 0;
	ra_read(&s, 0, 4096, 128);
	CHECK(s.windows == 1 && s.ra_lo[0] == 4224,
	      "starts where the reader is: %llu", (unsigned long long)s.ra_lo[0]);
	for (pos = 4224; pos < 8192; pos += 128)
		ra_read(&s, 0, pos, 128);
	CHECK(s.windows == 2 && s.inflight == 2, "then two: %u", s.windows);
	tap_end();

	tap_begin("read-ahead: eight interleaved streams, a ninth evicts");
	ra_reset(&s, 1ULL << 30, 256, 128, 32768);
	for (i = 0; i < 4; i++)
		for (st = 0; st < 8; st++)
			ra_read(&s, st, (u64)st * (1 << 24) + i * 128, 128);
	for (st = 0; st < 8; st++)
		CHECK(s.ra_lo[st] == (u64)st * (1 << 24) + 256,
		      "stream %u: %llu", st, (unsigned long long)s.ra_lo[st]);
	ra_reset(&s, 1ULL << 30, 256, 128, 32768);
	for (i = 0; i < 20; i++)
		for (st = 0; st < 9; st++)
			ra_read(&s, st, (u64)st * (1 << 24) + i * 128, 128);
	CHECK(s.windows == 0, "nine round robin: %u windows", s.windows);
	tap_end();

	tap_begin("read-ahead: the VD's end, reads outside it");
	ra_reset(&s, 10000, 256, 128, 32768);
	for (pos = 8000; pos + 128 <= 10000; pos += 128)
		ra_read(&s, 0, pos, 128);
	CHECK(s.bad == 0 && s.ra_hi[0] == 10000, "ends at %llu",
	      (unsigned long long)s.ra_hi[0]);
	CHECK(vraid_ra_observe(&s.c, s.slots, 10000, 8, 0, 0, &r) == -EINVAL &&
	      vraid_ra_observe(&s.c, s.slots, 9999, 2, 0, 0, &r) == -EINVAL &&
	      vraid_ra_observe(&s.c, s.slots, 5, 0, 0, 0, &r) == -EINVAL &&
	      vraid_ra_observe(&s.c, s.slots, ~0ULL - 1, 8, 0, 0, &r) == -EINVAL,
	      "refused");
	tap_end();
}

/* ---- the destage window planner ---- */

static void test_dwin(void)
{
	static u8 masks[8 * 256];
	static struct vraid_dwin_ext ext[VRAID_DWIN_MAX_EXT(8)];
	struct vraid_dwin_geom g = { 3, 16, 1, true };
	struct vraid_dwin w;
	u32 round, bad = 0, i, from, cover;
	int ret;

	tap_begin("windows: a full RAID5 row is one full-stripe window");
	memset(masks, 0xff, 3 * 16);
	CHECK(vraid_dwin_row_full(&g, masks), "row full");
	ret = vraid_dwin_plan(&g, masks, 0, ext, 3, &w);
	CHECK(ret == 1 && w.col == 0 && w.ncols == 16 && w.next == 3 &&
	      w.full == 16 && !w.partial && w.full_stripe,
	      "%d: col %u ncols %u ext %u full %u partial %u", ret, w.col,
	      w.ncols, w.next, w.full, w.partial);
	CHECK(ext[1].sector == 128 && ext[1].sectors == 128, "strip 1");
	CHECK(vraid_dwin_plan(&g, masks, 16, ext, 3, &w) == 0, "no more");
	masks[17] = 0x7f;
	CHECK(!vraid_dwin_row_full(&g, masks), "not full");
	ret = vraid_dwin_plan(&g, masks, 0, ext, 8, &w);
	CHECK(ret == 1 && w.next == 4 && w.full == 15 && w.partial == 1 &&
	      !w.full_stripe, "%d: ext %u full %u partial %u", ret, w.next,
	      w.full, w.partial);
	CHECK(vraid_dwin_plan(&g, masks, 0, ext, 3, &w) == -ENOSPC, "ENOSPC");
	tap_end();

	tap_begin("windows: 1 MiB strips go in windows of 64 columns");
	g = (struct vraid_dwin_geom){ 4, 256, 1, true };
	memset(masks, 0xff, 4 * 256);
	for (from = 0, i = 0; (ret = vraid_dwin_plan(&g, masks, from, ext, 4,
						     &w)) == 1; i++) {
		CHECK(w.col == i * 64 && w.ncols == 64 && w.full_stripe &&
		      w.next == 4 && ext[0].sectors == 512,
		      "window %u at %u", i, w.col);
		from = w.col + w.ncols;
	}
	CHECK(i == 4 && ret == 0, "%u windows", i);
	tap_end();

	tap_begin("windows: refusals");
	g = (struct vraid_dwin_geom){ 0, 16, 1, true };
	CHECK(vraid_dwin_plan(&g, masks, 0, ext, 8, &w) == -EINVAL, "no strips");
	g = (struct vraid_dwin_geom){ 3, 16, 2, true };
	CHECK(vraid_dwin_check(&g) == -EINVAL, "spans do not divide");
	g = (struct vraid_dwin_geom){ 3, 257, 1, true };
	CHECK(vraid_dwin_check(&g) == -EINVAL, "strip too large");
	tap_end();

	tap_begin("windows against a sector model: 20000 random rows");
	for (round = 0; round < 20000; round++) {
		static u8 seen[8 * 256];
		u32 dens = rnd() % 4;

		g.spans = 1 + rnd() % 2;
		g.strips = g.spans * (1 + rnd() % (8 / g.spans));
		g.strip_pages = 1 + rnd() % (round % 2 ? 16 : 200);
		g.parity = rnd() % 4;
		for (i = 0; i < g.strips * g.strip_pages; i++) {
			u64 x = rnd();

			masks[i] = dens == 0 ? (x % 8 ? 0 : 0xff) :
				   dens == 1 ? (u8)x :
				   dens == 2 ? (x % 3 ? 0xff : 0) :
				   (x % 5 ? 0 : (u8)(x >> 8));
		}
		memset(seen, 0, sizeof(seen));
		from = 0;
		cover = 0;
		while ((ret = vraid_dwin_plan(&g, masks, from, ext,
					      VRAID_DWIN_MAX_EXT(8), &w)) == 1) {
			if (dwin_check(&g, masks, seen, from, ext, &w, NULL))
				bad++;
			from = w.col + w.ncols;
			cover++;
		}
		if (ret != 0)
			bad++;
		for (i = 0; i < g.strips * g.strip_pages; i++)
			if (seen[i] != masks[i])
				bad++;
	}
	CHECK(bad == 0, "%u mistakes", bad);
	tap_end();
}

int main(void)
{
	test_size();
	test_limits();
	test_throttle();
	test_ra_init();
	test_ra();
	test_dwin();
	return tap_done();
}
