// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the geometry (driver/core/geom.c) against a naive reference
 * model.
 *
 * The model is written from md's raid0 documentation, not from geom.c:
 * the array is cut into chunks ("strips") of strip_sectors; strip c of the
 * array lives on member c % n, as that member's strip number c / n (md's
 * single-zone raid0, which is what `mdadm --build --level=0` gives over
 * equally sized members).  Every member is used up to the smallest
 * member's size rounded down to a whole strip.  JBOD is the identity onto
 * its one member, in whole 4 KiB blocks.  The model uses plain division
 * and modulo (never shifts or masks), and the exhaustive test walks the
 * array strip by strip with a cursor per member, so it shares no
 * arithmetic with the code under test.
 */
#include "core_types.h"
#include <linux/vraid.h>
#include "geom.h"
#include "tap.h"

#include <inttypes.h>

#define KIB	1024u
#define MIB	(1024u * 1024u)

/* 1 MiB of data area per member, in sectors (uapi VRAID_MIN_DATA_SECTORS) */
#define REF_MIN_DATA	2048ull
/* default strip when the request says 0 (uapi VRAID_STRIP_DEFAULT) */
#define REF_DEFAULT_STRIP	(64u * KIB)

static char *msg;	/* VRAID_MSG_LEN bytes, like hdr.message */

/* ---- PRNG with a fixed seed (splitmix64): runs are reproducible -------- */

static u64 rng_state = 0x5652414944ull;	/* "VRAID" */

static u64 rng(void)
{
	u64 z = (rng_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* ---- reference model ---------------------------------------------------- */

struct ref_geom {
	u32 n;		/* members */
	u64 strip;	/* sectors per strip; 0 for JBOD */
	u64 member;	/* sectors used on each member */
	u64 size;	/* sectors of the virtual drive */
};

/* RAID0 over members whose smallest data area is @min_data sectors. */
static int ref_raid0(struct ref_geom *r, u32 n, u32 strip_bytes, u64 min_data)
{
	r->n = n;
	r->strip = (strip_bytes ? strip_bytes : REF_DEFAULT_STRIP) / 512;
	r->member = (min_data / r->strip) * r->strip;
	r->size = r->member * n;
	return r->member < REF_MIN_DATA ? -ENOSPC : 0;
}

static int ref_jbod(struct ref_geom *r, u64 min_data)
{
	r->n = 1;
	r->strip = 0;
	r->member = (min_data / 8) * 8;
	r->size = r->member;
	return r->member < REF_MIN_DATA ? -ENOSPC : 0;
}

static void ref_map(const struct ref_geom *r, u64 v, u32 *member, u64 *sector,
		    u64 *len)
{
	u64 c, off;

	if (!r->strip) {		/* JBOD */
		*member = 0;
		*sector = v;
		*len = r->size - v;
		return;
	}
	c = v / r->strip;
	off = v % r->strip;
	*member = (u32)(c % r->n);
	*sector = (c / r->n) * r->strip + off;
	*len = r->strip - off;
}

/* log2 by repeated doubling; -1 if @v is not a power of two */
static int ref_log2(u64 v)
{
	int s = 0;
	u64 p = 1;

	while (p < v) {
		p *= 2;
		s++;
	}
	return p == v ? s : -1;
}

/* ---- helpers ------------------------------------------------------------ */

static const char *strip_str(u32 strip_bytes)
{
	static char buf[32];

	if (!strip_bytes)
		return "default";
	if (strip_bytes % MIB == 0)
		snprintf(buf, sizeof(buf), "%uM", strip_bytes / MIB);
	else if (strip_bytes % KIB == 0)
		snprintf(buf, sizeof(buf), "%uK", strip_bytes / KIB);
	else
		snprintf(buf, sizeof(buf), "%u", strip_bytes);
	return buf;
}

/* Compare every field that vraid_geom_init() fills with the model. */
static void check_geom(const struct vraid_geom *g, u32 level,
		       const struct ref_geom *r)
{
	CHECK(g->level == level, "level %u, expected %u", g->level, level);
	CHECK(g->nr_members == r->n, "nr_members %u, expected %u",
	      g->nr_members, r->n);
	CHECK(g->spans == 1, "spans %u, expected 1", g->spans);
	CHECK(g->data_members == r->n, "data_members %u, expected %u",
	      g->data_members, r->n);
	CHECK(g->strip_sectors == r->strip, "strip_sectors %u, expected %" PRIu64,
	      g->strip_sectors, r->strip);
	if (r->strip)
		CHECK((int)g->strip_shift == ref_log2(r->strip),
		      "strip_shift %u, expected %d", g->strip_shift,
		      ref_log2(r->strip));
	CHECK(g->member_sectors == r->member,
	      "member_sectors %" PRIu64 ", expected %" PRIu64,
	      g->member_sectors, r->member);
	CHECK(g->size_sectors == r->size,
	      "size_sectors %" PRIu64 ", expected %" PRIu64,
	      g->size_sectors, r->size);
}

static void check_map(const struct vraid_geom *g, const struct ref_geom *r,
		      u64 v)
{
	struct vraid_map m;
	u32 em;
	u64 es, el;

	if (!CHECK(v < r->size, "test bug: vsector %" PRIu64 " >= size %" PRIu64,
		   v, r->size))
		return;
	memset(&m, 0xa5, sizeof(m));
	vraid_geom_map(g, v, &m);
	ref_map(r, v, &em, &es, &el);
	CHECK(m.member == em && m.sector == es && m.len == el,
	      "vsector %" PRIu64 " -> member %u sector %" PRIu64 " len %" PRIu64
	      ", expected member %u sector %" PRIu64 " len %" PRIu64,
	      v, m.member, m.sector, m.len, em, es, el);
}

/* Init must refuse with @err; the message must mention @needle. */
static void expect_refusal(u32 level, u32 n, u32 strip_bytes, u32 spans,
			   u64 min_data, int err, const char *needle)
{
	struct vraid_geom g;
	char big[1024];
	int ret;

	msg_reset(msg, VRAID_MSG_LEN);
	ret = vraid_geom_init(&g, level, n, strip_bytes, spans, min_data,
			      msg, VRAID_MSG_LEN);
	CHECK(ret == err, "vraid_geom_init returned %d, expected %d", ret, err);
	if (ret)
		CHECK_MSG(msg, VRAID_MSG_LEN, needle);

	/* the full message fits hdr.message (no truncation) */
	memset(big, 'X', sizeof(big));
	ret = vraid_geom_init(&g, level, n, strip_bytes, spans, min_data,
			      big, sizeof(big));
	if (ret && memchr(big, '\0', sizeof(big)))
		CHECK(strlen(big) < VRAID_MSG_LEN,
		      "message of %zu chars is truncated in %u bytes: \"%s\"",
		      strlen(big), VRAID_MSG_LEN, big);

	/* vraid_geom_check() agrees unless the refusal is about the size */
	if (err != -ENOSPC) {
		msg_reset(msg, VRAID_MSG_LEN);
		ret = vraid_geom_check(level, n, strip_bytes, spans, msg,
				       VRAID_MSG_LEN);
		CHECK(ret == err, "vraid_geom_check returned %d, expected %d",
		      ret, err);
		if (ret)
			CHECK_MSG(msg, VRAID_MSG_LEN, needle);
	}
}

/* ---- the table of levels ----------------------------------------------- */

/*
 * One row per level value: what vraid_geom_init() says to a typical valid
 * request of that level (64 KiB strips, 1 GiB members).  When a level
 * lands, change its `ret` to 0 here; the span test below then covers it
 * too.
 */
static const struct level_expect {
	u32 level;
	const char *name;	/* vraid_level_name(), NULL if unknown */
	u32 nr_members;		/* a valid member count for the level */
	u32 spans;		/* a valid span count (RAID50/60) */
	int ret;		/* expected result */
} levels[] = {
	{ VRAID_LEVEL_JBOD, "JBOD",   1, 0, 0 },
	{ VRAID_LEVEL_0,    "RAID0",  4, 0, 0 },
	{ VRAID_LEVEL_1,    "RAID1",  2, 0, -EOPNOTSUPP },
	{ VRAID_LEVEL_5,    "RAID5",  3, 0, -EOPNOTSUPP },
	{ VRAID_LEVEL_6,    "RAID6",  4, 0, -EOPNOTSUPP },
	{ VRAID_LEVEL_10,   "RAID10", 4, 0, -EOPNOTSUPP },
	{ VRAID_LEVEL_50,   "RAID50", 6, 2, -EOPNOTSUPP },
	{ VRAID_LEVEL_60,   "RAID60", 8, 2, -EOPNOTSUPP },
	/* unknown levels */
	{ 2,          NULL, 2, 0, -EINVAL },
	{ 3,          NULL, 2, 0, -EINVAL },
	{ 4,          NULL, 2, 0, -EINVAL },
	{ 7,          NULL, 2, 0, -EINVAL },
	{ 254,        NULL, 2, 0, -EINVAL },
	{ 0xffffffff, NULL, 2, 0, -EINVAL },
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static void test_levels(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(levels); i++) {
		const struct level_expect *e = &levels[i];
		const u64 data = 2097152 + 77;	/* 1 GiB + change */
		const char *name = vraid_level_name(e->level);
		char needle[48];

		tap_begin("level %u (%s): %s", e->level,
			  e->name ? e->name : "unknown",
			  e->ret == 0 ? "accepted" :
			  e->ret == -EOPNOTSUPP ? "not supported yet (-EOPNOTSUPP)" :
			  "refused (-EINVAL)");
		if (e->name)
			CHECK(name && !strcmp(name, e->name),
			      "vraid_level_name(%u) is \"%s\", expected \"%s\"",
			      e->level, name ? name : "(null)", e->name);
		else
			CHECK(!name, "vraid_level_name(%u) is \"%s\", expected NULL",
			      e->level, name);

		if (e->ret == 0) {
			struct vraid_geom g;
			int ret;

			msg_reset(msg, VRAID_MSG_LEN);
			ret = vraid_geom_init(&g, e->level, e->nr_members, 0,
					      e->spans, data, msg, VRAID_MSG_LEN);
			CHECK(ret == 0, "vraid_geom_init returned %d (%.*s)",
			      ret, VRAID_MSG_LEN, msg);
			if (!ret)
				CHECK(g.level == e->level &&
				      g.nr_members == e->nr_members &&
				      g.size_sectors > 0,
				      "level %u members %u size %" PRIu64,
				      g.level, g.nr_members, g.size_sectors);
		} else {
			if (e->name)
				snprintf(needle, sizeof(needle), "%s", e->name);
			else
				snprintf(needle, sizeof(needle), "level %u",
					 e->level);
			expect_refusal(e->level, e->nr_members, 0, e->spans,
				       data, e->ret, needle);
		}
		tap_end();
	}
}

/* spans are for RAID50/60 only: refused for every other level that works */
static void test_spans(void)
{
	static const u32 bad_spans[] = { 1, 2, 0xffffffff };
	size_t i, j;

	for (i = 0; i < ARRAY_SIZE(levels); i++) {
		const struct level_expect *e = &levels[i];

		if (e->ret != 0 || e->level == VRAID_LEVEL_50 ||
		    e->level == VRAID_LEVEL_60)
			continue;
		for (j = 0; j < ARRAY_SIZE(bad_spans); j++) {
			tap_begin("%s with spans=%u refused (-EINVAL)", e->name,
				  bad_spans[j]);
			expect_refusal(e->level, e->nr_members, 0, bad_spans[j],
				       2097152, -EINVAL, "spans");
			tap_end();
		}
	}
}

/* ---- member counts ----------------------------------------------------- */

static void test_member_counts(void)
{
	static const struct {
		u32 level, n;
		const char *needle;
	} bad[] = {
		{ VRAID_LEVEL_0,    0,          "no members" },
		{ VRAID_LEVEL_0,    1,          "1 given" },
		{ VRAID_LEVEL_0,    33,         "33" },
		{ VRAID_LEVEL_0,    0xffffffff, "4294967295" },
		{ VRAID_LEVEL_JBOD, 0,          "no members" },
		{ VRAID_LEVEL_JBOD, 2,          "2 given" },
		{ VRAID_LEVEL_JBOD, 32,         "32 given" },
		{ VRAID_LEVEL_JBOD, 33,         "33" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		tap_begin("%s with %u members refused (-EINVAL)",
			  vraid_level_name(bad[i].level), bad[i].n);
		expect_refusal(bad[i].level, bad[i].n, 0, 0, 2097152, -EINVAL,
			       bad[i].needle);
		tap_end();
	}
}

/* ---- strip sizes -------------------------------------------------------- */

static void test_strip_sizes(void)
{
	static const u32 bad[] = {
		1, 512, 2048, 3 * KIB, 4 * KIB - 1, 4 * KIB + 512, 6 * KIB,
		96 * KIB, MIB - 4096, MIB + 4096, 2 * MIB, 0x80000000u,
		0xfffff000u, 0xffffffffu,
	};
	static const u32 lv[] = { VRAID_LEVEL_0, VRAID_LEVEL_JBOD };
	size_t i, k;

	for (k = 0; k < ARRAY_SIZE(lv); k++) {
		u32 n = lv[k] == VRAID_LEVEL_JBOD ? 1 : 3;

		for (i = 0; i < ARRAY_SIZE(bad); i++) {
			char needle[16];

			snprintf(needle, sizeof(needle), "%u", bad[i]);
			tap_begin("%s strip %u bytes refused (-EINVAL)",
				  vraid_level_name(lv[k]), bad[i]);
			expect_refusal(lv[k], n, bad[i], 0, 2097152, -EINVAL,
				       needle);
			tap_end();
		}
	}

	/* strip 0 means the default, 64 KiB */
	for (k = 2; k <= 32; k *= 2) {
		struct vraid_geom g;
		struct ref_geom r;
		u64 data = 1000000007ull;
		int ret;

		tap_begin("raid0 n=%zu strip=0 means the default 64K", k);
		ref_raid0(&r, k, 0, data);
		ret = vraid_geom_init(&g, VRAID_LEVEL_0, k, 0, 0, data, msg,
				      VRAID_MSG_LEN);
		if (CHECK(ret == 0, "vraid_geom_init returned %d", ret)) {
			CHECK(g.strip_sectors == 128, "strip_sectors %u",
			      g.strip_sectors);
			check_geom(&g, VRAID_LEVEL_0, &r);
			check_map(&g, &r, 0);
			check_map(&g, &r, 127);
			check_map(&g, &r, 128);
			check_map(&g, &r, r.size - 1);
		}
		tap_end();
	}
}

/* ---- too small members -------------------------------------------------- */

static void test_too_small(void)
{
	u32 s;
	struct vraid_geom g;
	int ret;

	for (s = 4 * KIB; s <= MIB; s *= 2) {
		u64 strip = s / 512;

		tap_begin("raid0 strip=%s: members of 2047 sectors refused (-ENOSPC), 2048 accepted",
			  strip_str(s));
		expect_refusal(VRAID_LEVEL_0, 2, s, 0, REF_MIN_DATA - 1,
			       -ENOSPC, "1023 KiB");
		expect_refusal(VRAID_LEVEL_0, 32, s, 0, 0, -ENOSPC, "0 KiB");
		expect_refusal(VRAID_LEVEL_0, 2, s, 0, strip - 1, -ENOSPC, NULL);
		ret = vraid_geom_init(&g, VRAID_LEVEL_0, 2, s, 0, REF_MIN_DATA,
				      msg, VRAID_MSG_LEN);
		CHECK(ret == 0, "2048 sectors: vraid_geom_init returned %d", ret);
		ret = vraid_geom_init(&g, VRAID_LEVEL_0, 2, s, 0,
				      REF_MIN_DATA + strip - 1, msg,
				      VRAID_MSG_LEN);
		CHECK(ret == 0 && g.member_sectors == REF_MIN_DATA,
		      "%" PRIu64 " sectors: ret %d member_sectors %" PRIu64,
		      (u64)(REF_MIN_DATA + strip - 1), ret, g.member_sectors);
		tap_end();
	}

	tap_begin("jbod: members of 2047 sectors refused (-ENOSPC), 2048 accepted");
	expect_refusal(VRAID_LEVEL_JBOD, 1, 0, 0, REF_MIN_DATA - 1, -ENOSPC,
		       "1023 KiB");
	expect_refusal(VRAID_LEVEL_JBOD, 1, 0, 0, 0, -ENOSPC, "0 KiB");
	expect_refusal(VRAID_LEVEL_JBOD, 1, 0, 0, 7, -ENOSPC, NULL);
	ret = vraid_geom_init(&g, VRAID_LEVEL_JBOD, 1, 0, 0, REF_MIN_DATA, msg,
			      VRAID_MSG_LEN);
	CHECK(ret == 0, "2048 sectors: vraid_geom_init returned %d", ret);
	tap_end();

	tap_begin("uapi VRAID_MIN_DATA_SECTORS is 1 MiB");
	CHECK(VRAID_MIN_DATA_SECTORS == REF_MIN_DATA, "%llu",
	      (unsigned long long)VRAID_MIN_DATA_SECTORS);
	tap_end();
}

/* Short message buffers: the core truncates and terminates, never overruns. */
static void test_short_msg(void)
{
	static const size_t lens[] = { 1, 2, 16 };
	struct vraid_geom g;
	size_t i;

	tap_begin("refusal messages into 1, 2 and 16 byte buffers stay inside");
	for (i = 0; i < ARRAY_SIZE(lens); i++) {
		char *m = msg_buf(lens[i]);
		int ret;

		ret = vraid_geom_init(&g, 7, 2, 0, 0, 2097152, m, lens[i]);
		CHECK(ret == -EINVAL && memchr(m, 0, lens[i]),
		      "len %zu: ret %d", lens[i], ret);
		msg_reset(m, lens[i]);
		ret = vraid_geom_init(&g, VRAID_LEVEL_0, 2, 0, 0, 5, m, lens[i]);
		CHECK(ret == -ENOSPC && memchr(m, 0, lens[i]),
		      "len %zu: ret %d", lens[i], ret);
		free(m);
	}
	tap_end();
}

/* ---- RAID0 against the model ------------------------------------------- */

/* Data area sizes (sectors) of the smallest member, for strip @s sectors. */
static void data_sizes(u64 s, u64 out[5])
{
	out[0] = REF_MIN_DATA;			/* the minimum */
	out[1] = REF_MIN_DATA + s - 1;		/* rounds down to the minimum */
	out[2] = 1000000007ull;			/* odd: rounds for every strip */
	out[3] = 7501476528ull - 16384;		/* 3.84 TB NVMe minus 8 MiB */
	out[4] = (1ull << 40) + 4097;		/* 512 TiB and a bit */
}

static void test_raid0_model(void)
{
	u32 s, n;
	int k;

	for (s = 4 * KIB; s <= MIB; s *= 2) {
		u64 strip = s / 512;
		u64 sizes[5];

		data_sizes(strip, sizes);
		for (n = 2; n <= VRAID_MAX_MEMBERS; n++) {
			for (k = 0; k < 5; k++) {
				struct vraid_geom g;
				struct ref_geom r;
				u64 c, v;
				int ret, i;

				tap_begin("raid0 n=%u strip=%s data=%" PRIu64 ": init and map",
					  n, strip_str(s), sizes[k]);
				ref_raid0(&r, n, s, sizes[k]);
				memset(&g, 0x5a, sizeof(g));
				msg_reset(msg, VRAID_MSG_LEN);
				ret = vraid_geom_init(&g, VRAID_LEVEL_0, n, s, 0,
						      sizes[k], msg,
						      VRAID_MSG_LEN);
				if (!CHECK(ret == 0, "vraid_geom_init returned %d (%.*s)",
					   ret, VRAID_MSG_LEN, msg)) {
					tap_end();
					continue;
				}
				check_geom(&g, VRAID_LEVEL_0, &r);
				if (tap_errors()) {
					tap_end();
					continue;
				}
				/* first and last sector of every strip, 3 rows */
				for (c = 0; c < 3ull * n && c * r.strip < r.size; c++) {
					check_map(&g, &r, c * r.strip);
					check_map(&g, &r, c * r.strip + 1);
					check_map(&g, &r, c * r.strip + r.strip - 1);
				}
				/* the last row, and the very last sector */
				for (c = 0; c < n; c++)
					check_map(&g, &r, r.size - (c + 1) * r.strip);
				check_map(&g, &r, r.size - 1);
				check_map(&g, &r, r.size / 2);
				/* random sectors */
				for (i = 0; i < 64; i++) {
					v = rng() % r.size;
					check_map(&g, &r, v);
				}
				tap_end();
			}
		}
	}
}

/*
 * Exhaustive: walk the VD strip by strip, handing each strip to the next
 * member in turn and placing it at that member's cursor.  Every virtual
 * sector must map where the walk put it, every member sector must be hit
 * exactly once, and each member must be filled exactly to member_sectors.
 */
static void exhaustive(u32 n, u32 strip_bytes, u64 min_data)
{
	struct vraid_geom g;
	struct ref_geom r;
	u64 *cursor;
	u8 *seen;
	u64 v = 0, c = 0, k, strip;
	u32 i;
	int ret;

	tap_begin("raid0 n=%u strip=%s data=%" PRIu64 ": exhaustive, a bijection onto the members",
		  n, strip_str(strip_bytes), min_data);
	ref_raid0(&r, n, strip_bytes, min_data);
	ret = vraid_geom_init(&g, VRAID_LEVEL_0, n, strip_bytes, 0, min_data,
			      msg, VRAID_MSG_LEN);
	if (!CHECK(ret == 0, "vraid_geom_init returned %d", ret) ||
	    !CHECK(g.size_sectors == r.size && g.member_sectors == r.member,
		   "size %" PRIu64 " member %" PRIu64, g.size_sectors,
		   g.member_sectors)) {
		tap_end();
		return;
	}
	strip = r.strip;
	cursor = calloc(n, sizeof(*cursor));
	seen = calloc(n * r.member, 1);
	if (!cursor || !seen) {
		perror("calloc");
		exit(2);
	}
	while (v < r.size && tap_errors() < TAP_MAX_DIAG) {
		u32 mem = (u32)(c % n);

		for (k = 0; k < strip; k++) {
			struct vraid_map m;
			u64 want = cursor[mem] + k;

			vraid_geom_map(&g, v + k, &m);
			if (!CHECK(m.member == mem && m.sector == want &&
				   m.len == strip - k,
				   "vsector %" PRIu64 " -> member %u sector %" PRIu64
				   " len %" PRIu64 ", walk says member %u sector %"
				   PRIu64 " len %" PRIu64, v + k, m.member,
				   m.sector, m.len, mem, want, strip - k))
				continue;
			if (!CHECK(m.sector < r.member, "sector %" PRIu64
				   " beyond member_sectors", m.sector))
				continue;
			CHECK(!seen[m.member * r.member + m.sector],
			      "member %u sector %" PRIu64 " hit twice (vsector %"
			      PRIu64 ")", m.member, m.sector, v + k);
			seen[m.member * r.member + m.sector] = 1;
		}
		cursor[mem] += strip;
		v += strip;
		c++;
	}
	for (i = 0; i < n; i++)
		CHECK(cursor[i] == r.member, "member %u filled to %" PRIu64
		      ", member_sectors %" PRIu64, i, cursor[i], r.member);
	for (k = 0; k < n * r.member && !tap_errors(); k++)
		CHECK(seen[k], "member %" PRIu64 " sector %" PRIu64
		      " never mapped", k / r.member, k % r.member);
	free(seen);
	free(cursor);
	tap_end();
}

static void test_exhaustive(void)
{
	u32 n;

	exhaustive(3, 4 * KIB, REF_MIN_DATA + 5);
	for (n = 2; n <= VRAID_MAX_MEMBERS; n++)
		exhaustive(n, 4 * KIB, REF_MIN_DATA);
	exhaustive(5, 64 * KIB, 2 * REF_MIN_DATA + 100);
	exhaustive(7, MIB, 2 * REF_MIN_DATA + 2047);
	exhaustive(32, MIB, REF_MIN_DATA);
	exhaustive(13, 0, 3 * REF_MIN_DATA + 127);
}

/* ---- JBOD --------------------------------------------------------------- */

static void test_jbod(void)
{
	static const u64 sizes[] = {
		2048, 2049, 2055, 2056, 2057, 4095, 1000000007ull,
		7501476528ull - 16384, (1ull << 40) + 3,
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		struct vraid_geom g;
		struct ref_geom r;
		int ret, j;

		tap_begin("jbod data=%" PRIu64 ": one member, identity, size %" PRIu64,
			  sizes[i], sizes[i] / 8 * 8);
		ref_jbod(&r, sizes[i]);
		memset(&g, 0x5a, sizeof(g));
		ret = vraid_geom_init(&g, VRAID_LEVEL_JBOD, 1, 0, 0, sizes[i],
				      msg, VRAID_MSG_LEN);
		if (CHECK(ret == 0, "vraid_geom_init returned %d", ret)) {
			check_geom(&g, VRAID_LEVEL_JBOD, &r);
			check_map(&g, &r, 0);
			check_map(&g, &r, 1);
			check_map(&g, &r, 7);
			check_map(&g, &r, 8);
			check_map(&g, &r, r.size / 2);
			check_map(&g, &r, r.size - 8);
			check_map(&g, &r, r.size - 1);
			for (j = 0; j < 64; j++)
				check_map(&g, &r, rng() % r.size);
		}
		tap_end();
	}
}

/*
 * Huge members (found by this test, fixed): vraid_geom_init() must bound
 * size_sectors.  Members of 2^59 sectors x 32 used to wrap it to 0; 2 x
 * 2^53 sectors (dm-zero can be that big) gave a capacity whose size in
 * bytes does not fit a loff_t.  The property is: accepted => size_sectors == n * member_sectors and
 * size_sectors << 9 fits in a loff_t (MAX_LFS_FILESIZE, 2^63 - 1 bytes).
 */
static void test_huge(void)
{
	static const struct {
		u32 n;
		u64 data;
	} t[] = {
		{ 32, 1ull << 59 },
		{ 3, (1ull << 63) / 3 * 2 },
		{ 2, 1ull << 53 },
		{ 32, 1ull << 49 },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		struct vraid_geom g;
		int ret;

		tap_begin("raid0 n=%u data=%" PRIu64 ": refused, or a size that fits a loff_t",
			  t[i].n, t[i].data);
		msg_reset(msg, VRAID_MSG_LEN);
		ret = vraid_geom_init(&g, VRAID_LEVEL_0, t[i].n, 0, 0, t[i].data,
				      msg, VRAID_MSG_LEN);
		if (ret)
			CHECK_MSG(msg, VRAID_MSG_LEN, NULL);
		else
			CHECK(g.size_sectors / t[i].n == g.member_sectors &&
			      g.size_sectors <= (~0ull >> 10),
			      "accepted: member_sectors %" PRIu64
			      " size_sectors %" PRIu64, g.member_sectors,
			      g.size_sectors);
		tap_end();
	}
}

int main(void)
{
	msg = msg_buf(VRAID_MSG_LEN);
	test_levels();
	test_spans();
	test_member_counts();
	test_strip_sizes();
	test_too_small();
	test_short_msg();
	test_jbod();
	test_raid0_model();
	test_exhaustive();
	test_huge();
	free(msg);
	return tap_done();
}
