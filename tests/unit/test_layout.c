// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the redundant levels' geometry (driver/core/layout.c) against
 * reference models written from Linux md, not from layout.c:
 *
 *  - md_raid0(): raid0.c map_sector() for one zone (the RAID0 over the
 *    spans of RAID50/60);
 *  - md_raid56(): raid5.c raid5_compute_sector() for levels 5 and 6 with
 *    ALGORITHM_LEFT_SYMMETRIC, mdadm's default layout of both;
 *  - md_raid6_slots(): the Q syndrome slot of every device, from
 *    set_syndrome_sources(), raid6_d0() and raid6_idx_to_slot();
 *  - md_raid10_n2(): raid10.c __raid10_find_phys() with near_copies 2,
 *    far_copies 1 (mdadm's default raid10 layout 0x102);
 *  - literal tables of small arrays, as md's documentation draws them;
 *  - a walk that lays the VD out strip by strip with cursors (P moving one
 *    member to the left per row, data continuing after it), sharing no
 *    arithmetic with the code under test, and checks that every member
 *    strip is used exactly once (data, P or Q): the map is a bijection.
 *
 * The models use plain division and modulo, never shifts or masks.
 */
#include "core_types.h"
#include <linux/vraid.h>
#include "geom.h"
#include "layout.h"
#include "metadata.h"
#include "tap.h"

#include <inttypes.h>

#define KIB	1024u
#define MIB	(1024u * 1024u)

/* uapi VRAID_MIN_DATA_SECTORS, VRAID_STRIP_DEFAULT */
#define REF_MIN_DATA		2048ull
#define REF_DEFAULT_STRIP	(64u * KIB)
/* the largest VD: its size in bytes fits a loff_t */
#define REF_MAX_SECTORS		((1ull << 63) / 512)

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static char *msg;	/* VRAID_MSG_LEN bytes, like hdr.message */

/* ---- PRNG with a fixed seed (splitmix64): runs are reproducible -------- */

static u64 rng_state = 0x4c41594f5554ull;	/* "LAYOUT" */

static u64 rng(void)
{
	u64 z = (rng_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* ---- md, transliterated ------------------------------------------------ */

/* raid0.c map_sector(), one zone of @nb_dev devices */
static void md_raid0(u64 sector, u64 chunk, u32 nb_dev, u32 *dev,
		     u64 *dev_sector)
{
	u64 sect_in_chunk = sector % chunk;
	u64 c = sector / chunk;

	*dev = (u32)(c % nb_dev);
	*dev_sector = (c / nb_dev) * chunk + sect_in_chunk;
}

/*
 * raid5.c raid5_compute_sector(), ALGORITHM_LEFT_SYMMETRIC: the device of
 * the data (@dd_idx), P and Q (-1 for level 5) and the device sector.
 */
static u64 md_raid56(u32 level, u32 raid_disks, u64 chunk, u64 r_sector,
		     int *dd_idx, int *pd_idx, int *qd_idx)
{
	u32 max_degraded = level == 6 ? 2 : 1;
	u32 data_disks = raid_disks - max_degraded;
	u64 chunk_offset = r_sector % chunk;
	u64 chunk_number = r_sector / chunk;
	u64 stripe = chunk_number / data_disks;
	u64 stripe2 = stripe;

	*dd_idx = (int)(chunk_number % data_disks);
	if (level == 5) {
		*pd_idx = (int)(data_disks - stripe2 % raid_disks);
		*dd_idx = (*pd_idx + 1 + *dd_idx) % (int)raid_disks;
		*qd_idx = -1;
	} else {
		*pd_idx = (int)(raid_disks - 1 - stripe2 % raid_disks);
		*qd_idx = (*pd_idx + 1) % (int)raid_disks;
		*dd_idx = (*pd_idx + 2 + *dd_idx) % (int)raid_disks;
	}
	return stripe * chunk + chunk_offset;
}

/*
 * raid5.c set_syndrome_sources() (not DDF): walking the devices from
 * raid6_d0() = the one after Q, data take slots 0, 1, ... in turn; P is
 * slot disks - 2 and Q slot disks - 1 (raid6_idx_to_slot()).
 */
static void md_raid6_slots(u32 disks, u32 pd_idx, u32 qd_idx, u32 *slot)
{
	u32 d0 = qd_idx == disks - 1 ? 0 : qd_idx + 1;
	u32 count = 0, i = d0;

	do {
		if (i == pd_idx)
			slot[i] = disks - 2;
		else if (i == qd_idx)
			slot[i] = disks - 1;
		else
			slot[i] = count++;
		i = i + 1 < disks ? i + 1 : 0;
	} while (i != d0);
}

/* raid10.c __raid10_find_phys(), near_copies 2, far_copies 1 */
static void md_raid10_n2(u64 r_sector, u64 chunk_sects, u32 raid_disks,
			 u32 devnum[2], u64 addr[2])
{
	u64 chunk = r_sector / chunk_sects;
	u64 sector = r_sector % chunk_sects;
	u64 stripe;
	u32 dev, n;

	chunk *= 2;
	stripe = chunk / raid_disks;
	dev = (u32)(chunk % raid_disks);
	sector += stripe * chunk_sects;
	for (n = 0; n < 2; n++) {
		devnum[n] = dev;
		addr[n] = sector;
		dev++;
		if (dev >= raid_disks) {
			dev = 0;
			sector += chunk_sects;
		}
	}
}

/* ---- the reference geometry -------------------------------------------- */

struct ref {
	u32 level, n, spans;
	u32 w;		/* members per span */
	u32 np;		/* parity strips per row: 0, 1 or 2 */
	u32 nd;		/* data strips per row of a span */
	u64 strip;	/* sectors */
	u64 member;	/* sectors used on each member */
	u64 size;	/* sectors of the VD */
	u32 data_members;
};

static bool is_parity(u32 level)
{
	return level == 5 || level == 6 || level == 50 || level == 60;
}

static int ref_init(struct ref *r, u32 level, u32 n, u32 spans,
		    u32 strip_bytes, u64 min_data)
{
	memset(r, 0, sizeof(*r));
	r->level = level;
	r->n = n;
	r->spans = spans ? spans : 1;
	r->w = n / r->spans;
	r->strip = (strip_bytes ? strip_bytes : REF_DEFAULT_STRIP) / 512;
	if (level == 1) {
		r->member = min_data / 8 * 8;
		r->data_members = 1;
	} else {
		r->member = min_data / r->strip * r->strip;
		if (level == 10) {
			r->data_members = n / 2;
		} else {
			r->np = level == 6 || level == 60 ? 2 : 1;
			r->nd = r->w - r->np;
			r->data_members = r->spans * r->nd;
		}
	}
	/* md: each span has member * nd sectors, raid0 adds them up */
	if (r->member && r->data_members > REF_MAX_SECTORS / r->member)
		return -EFBIG;
	r->size = r->member * r->data_members;
	if (r->size >= REF_MAX_SECTORS)
		return -EFBIG;
	return r->member < REF_MIN_DATA ? -ENOSPC : 0;
}

/* Where md puts VD sector @v of a parity level. */
struct ref_ploc {
	u32 span, didx, member, p, q;
	u64 stripe, sector, len;
	u32 slot_of_member;	/* md's Q slot of the data's device */
	u32 slot_of_p, slot_of_q;
};

static void ref_parity(const struct ref *r, u64 v, struct ref_ploc *o)
{
	u32 span = 0, base, slot[VRAID_MAX_MEMBERS];
	int dd, pd, qd;
	u64 ss = v, chunk_number;

	if (r->spans > 1)
		md_raid0(v, r->strip, r->spans, &span, &ss);
	base = span * r->w;
	o->span = span;
	o->sector = md_raid56(r->np == 2 ? 6 : 5, r->w, r->strip, ss,
			      &dd, &pd, &qd);
	chunk_number = ss / r->strip;
	o->stripe = chunk_number / r->nd;
	o->didx = (u32)(chunk_number % r->nd);	/* the order in the VD */
	o->member = base + (u32)dd;
	o->p = base + (u32)pd;
	o->q = qd < 0 ? VRAID_NO_MEMBER : base + (u32)qd;
	o->len = r->strip - v % r->strip;
	o->slot_of_member = o->slot_of_p = o->slot_of_q = 0;
	if (qd >= 0) {
		md_raid6_slots(r->w, (u32)pd, (u32)qd, slot);
		o->slot_of_member = slot[dd];
		o->slot_of_p = slot[pd];
		o->slot_of_q = slot[qd];
	}
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

static const char *geo_str(u32 level, u32 n, u32 spans)
{
	static char buf[48];

	if (spans)
		snprintf(buf, sizeof(buf), "raid%u %ux%u", level, spans,
			 n / spans);
	else
		snprintf(buf, sizeof(buf), "raid%u n=%u", level, n);
	return buf;
}

static void check_geom(const struct vraid_geom *g, const struct ref *r)
{
	CHECK(g->level == r->level, "level %u, expected %u", g->level,
	      r->level);
	CHECK(g->nr_members == r->n, "nr_members %u, expected %u",
	      g->nr_members, r->n);
	CHECK(g->spans == r->spans, "spans %u, expected %u", g->spans,
	      r->spans);
	CHECK(g->strip_sectors == r->strip,
	      "strip_sectors %u, expected %" PRIu64, g->strip_sectors,
	      r->strip);
	CHECK((1ull << g->strip_shift) == r->strip,
	      "strip_shift %u for strip %" PRIu64, g->strip_shift, r->strip);
	CHECK(g->data_members == r->data_members,
	      "data_members %u, expected %u", g->data_members,
	      r->data_members);
	CHECK(g->member_sectors == r->member,
	      "member_sectors %" PRIu64 ", expected %" PRIu64,
	      g->member_sectors, r->member);
	CHECK(g->size_sectors == r->size,
	      "size_sectors %" PRIu64 ", expected %" PRIu64,
	      g->size_sectors, r->size);
	CHECK(vraid_layout_span_width(g) == r->w, "span width %u, expected %u",
	      vraid_layout_span_width(g), r->w);
	CHECK(vraid_layout_span_data(g) == r->nd, "span data %u, expected %u",
	      vraid_layout_span_data(g), r->nd);
}

/*
 * The member sector and the write-intent bitmap region of VD sector @v,
 * whose member sector md puts at @msector: the region of the VD's own
 * bitmap (vraid_bm_shift()), of a bitmap of 1 MiB regions that may be
 * too few (clamped to the last), and of a one-region bitmap.
 */
static void check_bm_region(const struct vraid_geom *g, const struct ref *r,
			    u64 v, u64 msector)
{
	u32 shift = vraid_bm_shift(r->member, g->strip_shift);
	u32 nbits = (u32)((r->member + (1ULL << shift) - 1) >> shift);
	u64 small = msector >> VRAID_BM_MIN_SHIFT;

	CHECK(vraid_layout_member_sector(g, v) == msector,
	      "vsector %" PRIu64 ": member sector %" PRIu64 ", md %" PRIu64,
	      v, vraid_layout_member_sector(g, v), msector);
	CHECK(vraid_layout_bm_region(g, v, shift, nbits) == msector >> shift &&
	      msector >> shift < nbits,
	      "vsector %" PRIu64 ": region %u of %u (shift %u), expected %"
	      PRIu64, v, vraid_layout_bm_region(g, v, shift, nbits), nbits,
	      shift, msector >> shift);
	CHECK(vraid_layout_bm_region(g, v, VRAID_BM_MIN_SHIFT, 7) ==
	      (small < 7 ? small : 6) &&
	      vraid_layout_bm_region(g, v, shift, 1) == 0,
	      "vsector %" PRIu64 ": region %u of 7 1 MiB regions, %u of one",
	      v, vraid_layout_bm_region(g, v, VRAID_BM_MIN_SHIFT, 7),
	      vraid_layout_bm_region(g, v, shift, 1));
}

/* One VD sector of a parity level against md, and the inverse maps. */
static void check_parity_sector(const struct vraid_geom *g,
				const struct ref *r, u64 v)
{
	struct vraid_parity_loc l;
	struct ref_ploc e;

	if (!CHECK(v < r->size, "test bug: vsector %" PRIu64 " >= size %"
		   PRIu64, v, r->size))
		return;
	memset(&l, 0xa5, sizeof(l));
	vraid_layout_parity(g, v, &l);
	ref_parity(r, v, &e);
	if (!CHECK(l.span == e.span && l.stripe == e.stripe &&
		   l.data_idx == e.didx && l.member == e.member &&
		   l.p_member == e.p && l.q_member == e.q &&
		   l.sector == e.sector && l.len == e.len &&
		   l.offset == v % r->strip,
		   "vsector %" PRIu64 " -> span %u stripe %" PRIu64
		   " idx %u member %u P %u Q %d sector %" PRIu64 " len %"
		   PRIu64 "; md: span %u stripe %" PRIu64 " idx %u member %u"
		   " P %u Q %d sector %" PRIu64 " len %" PRIu64, v, l.span,
		   l.stripe, l.data_idx, l.member, l.p_member, (int)l.q_member,
		   l.sector, l.len, e.span, e.stripe, e.didx, e.member, e.p,
		   (int)e.q, e.sector, e.len))
		return;
	check_bm_region(g, r, v, e.sector);
	CHECK(vraid_layout_vsector(g, l.span, l.stripe, l.data_idx,
				   l.offset) == v,
	      "vsector(span %u, stripe %" PRIu64 ", idx %u, off %u) = %"
	      PRIu64 ", expected %" PRIu64, l.span, l.stripe, l.data_idx,
	      l.offset, vraid_layout_vsector(g, l.span, l.stripe, l.data_idx,
					     l.offset), v);
	CHECK(vraid_layout_data_member(g, l.span, l.stripe, l.data_idx) ==
	      e.member && vraid_layout_p_member(g, l.span, l.stripe) == e.p &&
	      vraid_layout_q_member(g, l.span, l.stripe) == e.q,
	      "vsector %" PRIu64 ": data/P/Q member %u/%u/%d, md %u/%u/%d", v,
	      vraid_layout_data_member(g, l.span, l.stripe, l.data_idx),
	      vraid_layout_p_member(g, l.span, l.stripe),
	      (int)vraid_layout_q_member(g, l.span, l.stripe), e.member, e.p,
	      (int)e.q);
	CHECK(vraid_layout_member_role(g, e.member, l.stripe) == e.didx &&
	      vraid_layout_member_role(g, e.p, l.stripe) == VRAID_ROLE_P,
	      "vsector %" PRIu64 ": role of member %u is %u (want %u), of P %u"
	      " is %u", v, e.member,
	      vraid_layout_member_role(g, e.member, l.stripe), e.didx, e.p,
	      vraid_layout_member_role(g, e.p, l.stripe));
	if (r->np == 2) {
		/* the Q order: md's syndrome slot is the data index */
		CHECK(e.slot_of_member == l.data_idx &&
		      e.slot_of_p == r->nd && e.slot_of_q == r->nd + 1 &&
		      vraid_layout_member_role(g, e.q, l.stripe) ==
		      VRAID_ROLE_Q,
		      "vsector %" PRIu64 ": data idx %u but md's Q slot %u (P"
		      " slot %u, Q slot %u, Q role %u)", v, l.data_idx,
		      e.slot_of_member, e.slot_of_p, e.slot_of_q,
		      vraid_layout_member_role(g, e.q, l.stripe));
	}
}

/* One VD sector of a mirror level against md. */
static void check_mirror_sector(const struct vraid_geom *g,
				const struct ref *r, u64 v)
{
	struct vraid_mirror_loc m;
	u32 dev[2];
	u64 addr[2];

	if (!CHECK(v < r->size, "test bug: vsector %" PRIu64 " >= size %"
		   PRIu64, v, r->size))
		return;
	memset(&m, 0xa5, sizeof(m));
	vraid_layout_mirror(g, v, &m);
	if (r->level == 1) {
		CHECK(m.first == 0 && m.copies == r->n && m.sector == v &&
		      m.len == r->size - v,
		      "vsector %" PRIu64 " -> first %u copies %u sector %"
		      PRIu64 " len %" PRIu64, v, m.first, m.copies, m.sector,
		      m.len);
		check_bm_region(g, r, v, v);
		return;
	}
	md_raid10_n2(v, r->strip, r->n, dev, addr);
	CHECK(m.copies == 2 && m.first == dev[0] && m.first + 1 == dev[1] &&
	      m.sector == addr[0] && m.sector == addr[1] &&
	      m.len == r->strip - v % r->strip,
	      "vsector %" PRIu64 " -> members %u+%u sector %" PRIu64 " len %"
	      PRIu64 "; md: dev %u @%" PRIu64 ", dev %u @%" PRIu64, v,
	      m.first, m.copies, m.sector, m.len, dev[0], addr[0], dev[1],
	      addr[1]);
	check_bm_region(g, r, v, addr[0]);
}

static void check_sector(const struct vraid_geom *g, const struct ref *r,
			 u64 v)
{
	if (is_parity(r->level))
		check_parity_sector(g, r, v);
	else
		check_mirror_sector(g, r, v);
}

/* ---- the walk: an exhaustive, incremental model ------------------------ */

/*
 * Lay out the VD strip by strip.  Parity: VD strips go round-robin to the
 * spans (RAID0); in a span, row 0 has P on the last member, each next row
 * one member to the left (wrapping), Q (RAID6) just right of P, and the
 * data fill the members right of P (Q) in turn, wrapping around.  Mirror:
 * RAID10 strips go round-robin to the member pairs; RAID1 is the identity.
 * Checks the code against the walk at the first, second and last sector
 * of every strip, then that every member strip holds exactly one thing.
 */
static void walk(const struct vraid_geom *g, const struct ref *r)
{
	u64 rows = (r->member + r->strip - 1) / r->strip;
	u64 nstrips = (r->size + r->strip - 1) / r->strip;
	u32 *pdisk, *pos, *fill, span = 0;
	u64 *row, c, k;
	u8 *seen;
	u32 m;

	pdisk = calloc(r->spans, sizeof(*pdisk));
	pos = calloc(r->spans, sizeof(*pos));
	fill = calloc(r->spans, sizeof(*fill));
	row = calloc(r->n, sizeof(*row));
	seen = calloc((size_t)(r->n * rows), 1);
	if (!pdisk || !pos || !fill || !row || !seen) {
		perror("calloc");
		exit(2);
	}
	for (m = 0; m < r->spans; m++) {
		pdisk[m] = r->w - 1;
		pos[m] = (r->w - 1 + r->np) % r->w;
	}

	for (c = 0; c < nstrips && tap_errors() < TAP_MAX_DIAG; c++) {
		u64 v = c * r->strip;
		static const u64 offs[] = { 0, 1, ~0ull };
		size_t o;

		if (is_parity(r->level)) {
			u32 b = span * r->w;
			u32 em = b + pos[span];
			u64 er = row[span];

			for (o = 0; o < ARRAY_SIZE(offs); o++) {
				u64 off = offs[o] == ~0ull ? r->strip - 1 :
					  offs[o];
				struct vraid_parity_loc l;

				vraid_layout_parity(g, v + off, &l);
				CHECK(l.member == em && l.stripe == er &&
				      l.span == span &&
				      l.data_idx == fill[span] &&
				      l.sector == er * r->strip + off &&
				      l.len == r->strip - off &&
				      l.p_member == b + pdisk[span] &&
				      l.q_member == (r->np == 2 ?
						     b + (pdisk[span] + 1) %
						     r->w : VRAID_NO_MEMBER),
				      "vsector %" PRIu64 " -> member %u stripe %"
				      PRIu64 " span %u idx %u P %u; walk: member"
				      " %u stripe %" PRIu64 " span %u idx %u P"
				      " %u", v + off, l.member, l.stripe,
				      l.span, l.data_idx, l.p_member, em, er,
				      span, fill[span], b + pdisk[span]);
			}
			CHECK(!seen[em * rows + er], "member %u row %" PRIu64
			      " holds two strips", em, er);
			seen[em * rows + er] = 1;
			pos[span] = (pos[span] + 1) % r->w;
			if (++fill[span] == r->nd) {
				/* row done: P and Q, then the next row */
				k = vraid_layout_p_member(g, span, er);
				CHECK(k == b + pdisk[span] &&
				      !seen[k * rows + er],
				      "P of span %u row %" PRIu64 " on member %"
				      PRIu64 ", walk %u", span, er, k,
				      b + pdisk[span]);
				seen[k * rows + er] = 1;
				if (r->np == 2) {
					k = vraid_layout_q_member(g, span, er);
					CHECK(k < r->n && !seen[k * rows + er],
					      "Q of span %u row %" PRIu64
					      " on member %" PRIu64, span, er,
					      k);
					if (k < r->n)
						seen[k * rows + er] = 1;
				}
				fill[span] = 0;
				row[span]++;
				pdisk[span] = pdisk[span] ? pdisk[span] - 1 :
					      r->w - 1;
				pos[span] = (pdisk[span] + r->np) % r->w;
			}
			span = span + 1 == r->spans ? 0 : span + 1;
		} else if (r->level == 10) {
			u32 first = 2 * span;
			struct vraid_mirror_loc ml;

			vraid_layout_mirror(g, v + 1, &ml);
			CHECK(ml.first == first && ml.copies == 2 &&
			      ml.sector == row[span] * r->strip + 1 &&
			      ml.len == r->strip - 1,
			      "vsector %" PRIu64 " -> first %u sector %" PRIu64
			      "; walk: first %u sector %" PRIu64, v + 1,
			      ml.first, ml.sector, first,
			      row[span] * r->strip + 1);
			for (m = first; m < first + 2; m++) {
				CHECK(!seen[m * rows + row[span]],
				      "member %u row %" PRIu64 " twice", m,
				      row[span]);
				seen[m * rows + row[span]] = 1;
			}
			row[span]++;
			span = span + 1 == r->n / 2 ? 0 : span + 1;
		} else {
			struct vraid_mirror_loc ml;

			vraid_layout_mirror(g, v, &ml);
			CHECK(ml.first == 0 && ml.copies == r->n &&
			      ml.sector == v && ml.len == r->size - v,
			      "vsector %" PRIu64 " -> first %u copies %u"
			      " sector %" PRIu64, v, ml.first, ml.copies,
			      ml.sector);
			for (m = 0; m < r->n; m++)
				seen[m * rows + c] = 1;
		}
	}
	/* every member strip used once: data, P or Q */
	for (k = 0; k < r->n * rows && !tap_errors(); k++)
		CHECK(seen[k], "member %" PRIu64 " strip %" PRIu64
		      " holds nothing", k / rows, k % rows);
	/* and each span's rows were filled exactly */
	if (is_parity(r->level))
		for (m = 0; m < r->spans; m++)
			CHECK(row[m] == rows && fill[m] == 0,
			      "span %u filled %" PRIu64 " rows + %u strips, "
			      "member has %" PRIu64 " rows", m, row[m],
			      fill[m], rows);
	free(seen);
	free(row);
	free(fill);
	free(pos);
	free(pdisk);
}

/* ---- every geometry ------------------------------------------------------ */

/* The roles in every row of a span agree with the data/P/Q members. */
static void check_roles(const struct vraid_geom *g, const struct ref *r,
			u64 stripe)
{
	u32 s, i, m, seen;

	for (s = 0; s < r->spans; s++) {
		seen = 0;
		for (i = 0; i < r->nd; i++) {
			m = vraid_layout_data_member(g, s, stripe, i);
			CHECK(m / r->w == s &&
			      vraid_layout_member_role(g, m, stripe) == i,
			      "span %u stripe %" PRIu64 " data %u on member %u,"
			      " whose role is %u", s, stripe, i, m,
			      vraid_layout_member_role(g, m, stripe));
			seen |= 1u << (m % r->w);
		}
		m = vraid_layout_p_member(g, s, stripe);
		seen |= 1u << (m % r->w);
		if (r->np == 2) {
			m = vraid_layout_q_member(g, s, stripe);
			seen |= 1u << (m % r->w);
		}
		CHECK(seen == (r->w == 32 ? ~0u : (1u << r->w) - 1),
		      "span %u stripe %" PRIu64 ": members used %#x", s,
		      stripe, seen);
	}
}

static void one_geometry(u32 level, u32 n, u32 spans, u32 sb)
{
	u64 strip = sb / 512;
	const u64 sizes[] = {
		REF_MIN_DATA + strip - 1,	/* the minimum, rounded */
		1000000007ull,			/* odd: rounds for all */
		7501476528ull - 16384,		/* 3.84 TB NVMe - 8 MiB */
		(1ull << 40) + 4097,		/* 512 TiB: rows > 2^32 */
	};
	struct vraid_geom g;
	struct ref r;
	size_t k;
	u64 c, v, full;
	int ret, want, i;

	tap_begin("%s strip=%s: init, map as md, walk", geo_str(level, n, spans),
		  strip_str(sb));
	for (k = 0; k < ARRAY_SIZE(sizes) && !tap_errors(); k++) {
		want = ref_init(&r, level, n, spans, sb, sizes[k]);
		memset(&g, 0x5a, sizeof(g));
		msg_reset(msg, VRAID_MSG_LEN);
		ret = vraid_layout_init(&g, level, n, sb, spans, sizes[k], msg,
					VRAID_MSG_LEN);
		if (!CHECK(ret == want, "data %" PRIu64 ": init returned %d"
			   " (%.*s), expected %d", sizes[k], ret,
			   VRAID_MSG_LEN, msg, want) || ret)
			continue;
		check_geom(&g, &r);
		if (tap_errors())
			break;
		/*
		 * every strip of the first 2 rotations (of the first full
		 * stripe for the other sizes), 3 sectors each
		 */
		full = (u64)r.data_members;
		for (c = 0; c < (k == 1 ? 2 * r.w : 1) * full &&
			    c * r.strip < r.size; c++) {
			check_sector(&g, &r, c * r.strip);
			check_sector(&g, &r, c * r.strip + 1);
			/* RAID1 may end inside a strip */
			if ((c + 1) * r.strip <= r.size)
				check_sector(&g, &r, c * r.strip + r.strip - 1);
		}
		/* the last two full stripes, the last sector, the middle */
		for (c = 1; c <= 2 * full && c * r.strip <= r.size; c++)
			check_sector(&g, &r, r.size - c * r.strip);
		check_sector(&g, &r, r.size - 1);
		check_sector(&g, &r, r.size / 2);
		for (i = 0; i < 40; i++) {
			v = rng() % r.size;
			check_sector(&g, &r, v);
		}
		if (is_parity(level)) {
			u64 rows = r.member / r.strip;

			for (c = 0; c < (k == 1 ? 2 * r.w : 1); c++)
				check_roles(&g, &r, c);
			check_roles(&g, &r, rows - 1);
			check_roles(&g, &r, rng() % rows);
		}
	}

	/* exhaustive on small members: 2048 sectors and 2 strips and a bit */
	v = REF_MIN_DATA + 2 * strip + 5;
	if (!tap_errors() && ref_init(&r, level, n, spans, sb, v) == 0 &&
	    CHECK(vraid_layout_init(&g, level, n, sb, spans, v, msg,
				    VRAID_MSG_LEN) == 0, "small init failed"))
		walk(&g, &r);
	tap_end();
}

static void test_geometries(void)
{
	u32 sb, n, s, w;

	for (sb = 4 * KIB; sb <= MIB; sb *= 2) {
		for (n = 2; n <= VRAID_MAX_MEMBERS; n++)
			one_geometry(VRAID_LEVEL_1, n, 0, sb);
		for (n = 4; n <= VRAID_MAX_MEMBERS; n += 2)
			one_geometry(VRAID_LEVEL_10, n, 0, sb);
		for (n = 3; n <= VRAID_MAX_MEMBERS; n++)
			one_geometry(VRAID_LEVEL_5, n, 0, sb);
		for (n = 4; n <= VRAID_MAX_MEMBERS; n++)
			one_geometry(VRAID_LEVEL_6, n, 0, sb);
		for (s = 2; s <= 8; s++)
			for (w = 3; w <= 16 && s * w <= VRAID_MAX_MEMBERS; w++)
				one_geometry(VRAID_LEVEL_50, s * w, s, sb);
		for (s = 2; s <= 8; s++)
			for (w = 4; w <= 16 && s * w <= VRAID_MAX_MEMBERS; w++)
				one_geometry(VRAID_LEVEL_60, s * w, s, sb);
	}
}

/* ---- literal layouts ----------------------------------------------------- */

#define P	(-1)
#define Q	(-2)

/*
 * What each member holds in the first rows: the VD strip number, P or Q.
 * RAID5/6 are md's left-symmetric drawings; RAID50 2x3 is raid0 over two
 * of them (VD strip c is strip c / 2 of span c % 2); RAID10 pairs.
 */
static const struct literal {
	u32 level, n, spans, rows;
	int cell[6][8];
} literals[] = {
	{ 5, 3, 0, 3, {
		{ 0, 1, P },
		{ 3, P, 2 },
		{ P, 4, 5 } } },
	{ 5, 5, 0, 6, {
		{ 0, 1, 2, 3, P },
		{ 5, 6, 7, P, 4 },
		{ 10, 11, P, 8, 9 },
		{ 15, P, 12, 13, 14 },
		{ P, 16, 17, 18, 19 },
		{ 20, 21, 22, 23, P } } },
	{ 6, 4, 0, 5, {
		{ Q, 0, 1, P },
		{ 2, 3, P, Q },
		{ 5, P, Q, 4 },
		{ P, Q, 6, 7 },
		{ Q, 8, 9, P } } },
	{ 6, 5, 0, 6, {
		{ Q, 0, 1, 2, P },
		{ 3, 4, 5, P, Q },
		{ 7, 8, P, Q, 6 },
		{ 11, P, Q, 9, 10 },
		{ P, Q, 12, 13, 14 },
		{ Q, 15, 16, 17, P } } },
	{ 50, 6, 2, 4, {
		{ 0, 2, P, 1, 3, P },
		{ 6, P, 4, 7, P, 5 },
		{ P, 8, 10, P, 9, 11 },
		{ 12, 14, P, 13, 15, P } } },
	{ 60, 8, 2, 4, {
		{ Q, 0, 2, P, Q, 1, 3, P },
		{ 4, 6, P, Q, 5, 7, P, Q },
		{ 10, P, Q, 8, 11, P, Q, 9 },
		{ P, Q, 12, 14, P, Q, 13, 15 } } },
	{ 10, 4, 0, 3, {
		{ 0, 0, 1, 1 },
		{ 2, 2, 3, 3 },
		{ 4, 4, 5, 5 } } },
	{ 10, 6, 0, 2, {
		{ 0, 0, 1, 1, 2, 2 },
		{ 3, 3, 4, 4, 5, 5 } } },
};

static void test_literals(void)
{
	size_t t;

	for (t = 0; t < ARRAY_SIZE(literals); t++) {
		const struct literal *e = &literals[t];
		int cell[6][8];
		struct vraid_geom g;
		u32 x, y, w = e->spans ? e->n / e->spans : e->n;
		u64 c;
		int ret;

		tap_begin("%s: md's drawing of the first %u rows",
			  geo_str(e->level, e->n, e->spans), e->rows);
		ret = vraid_layout_init(&g, e->level, e->n, 4096, e->spans,
					REF_MIN_DATA, msg, VRAID_MSG_LEN);
		if (!CHECK(ret == 0, "init returned %d", ret)) {
			tap_end();
			continue;
		}
		memset(cell, 0x7f, sizeof(cell));
		for (c = 0; c < 64; c++) {
			if (is_parity(e->level)) {
				struct vraid_parity_loc l;

				vraid_layout_parity(&g, c * 8, &l);
				if (l.stripe >= e->rows)
					continue;
				cell[l.stripe][l.member] = (int)c;
				cell[l.stripe][l.p_member] = P;
				if (l.q_member != VRAID_NO_MEMBER)
					cell[l.stripe][l.q_member] = Q;
			} else {
				struct vraid_mirror_loc m;

				vraid_layout_mirror(&g, c * 8, &m);
				if (m.sector / 8 >= e->rows)
					continue;
				for (x = 0; x < m.copies; x++)
					cell[m.sector / 8][m.first + x] = (int)c;
			}
		}
		for (y = 0; y < e->rows; y++)
			for (x = 0; x < e->n; x++)
				CHECK(cell[y][x] == e->cell[y][x],
				      "row %u member %u holds %d, md draws %d "
				      "(P = -1, Q = -2)", y, x, cell[y][x],
				      e->cell[y][x]);
		/* P rotates left by one member per row, Q follows it */
		for (y = 0; y < 3 * w && is_parity(e->level); y++) {
			u32 p = vraid_layout_p_member(&g, 0, y);

			CHECK(p == w - 1 - y % w, "row %u: P on %u, want %u",
			      y, p, w - 1 - y % w);
			if (e->level == 6 || e->level == 60)
				CHECK(vraid_layout_q_member(&g, 0, y) ==
				      (p + 1) % w, "row %u: Q on %u", y,
				      vraid_layout_q_member(&g, 0, y));
			else
				CHECK(vraid_layout_q_member(&g, 0, y) ==
				      VRAID_NO_MEMBER, "RAID5 has a Q");
		}
		tap_end();
	}
}

#undef P
#undef Q

/* ---- refusals ------------------------------------------------------------ */

static void expect_refusal(u32 level, u32 n, u32 sb, u32 spans, u64 data,
			   int err, const char *needle)
{
	struct vraid_geom g;
	char big[1024];
	int ret;

	msg_reset(msg, VRAID_MSG_LEN);
	ret = vraid_layout_init(&g, level, n, sb, spans, data, msg,
				VRAID_MSG_LEN);
	CHECK(ret == err, "vraid_layout_init returned %d, expected %d", ret,
	      err);
	if (ret)
		CHECK_MSG(msg, VRAID_MSG_LEN, needle);
	memset(big, 'X', sizeof(big));
	ret = vraid_layout_init(&g, level, n, sb, spans, data, big,
				sizeof(big));
	if (ret && memchr(big, '\0', sizeof(big)))
		CHECK(strlen(big) < VRAID_MSG_LEN,
		      "message of %zu chars is truncated in %u bytes: \"%s\"",
		      strlen(big), VRAID_MSG_LEN, big);
	if (err != -ENOSPC && err != -EFBIG) {
		msg_reset(msg, VRAID_MSG_LEN);
		ret = vraid_layout_check(level, n, sb, spans, msg,
					 VRAID_MSG_LEN);
		CHECK(ret == err, "vraid_layout_check returned %d, expected %d",
		      ret, err);
		if (ret)
			CHECK_MSG(msg, VRAID_MSG_LEN, needle);
	}
}

static void test_refusals(void)
{
	static const struct {
		u32 level, n, spans;
		const char *needle;
	} bad[] = {
		{ 1, 0, 0, "no members" },
		{ 1, 1, 0, "1 given" },
		{ 1, 33, 0, "33" },
		{ 1, 0xffffffff, 0, "4294967295" },
		{ 10, 2, 0, "RAID1" },
		{ 10, 3, 0, "3 given" },
		{ 10, 5, 0, "even" },
		{ 10, 31, 0, "31 given" },
		{ 10, 34, 0, "34" },
		{ 5, 1, 0, "1 given" },
		{ 5, 2, 0, "RAID1" },
		{ 5, 33, 0, "33" },
		{ 6, 3, 0, "3 given" },
		{ 6, 2, 0, "4 to 32" },
		{ 50, 6, 0, "spans" },
		{ 50, 6, 1, "use RAID5 for one span" },
		{ 50, 7, 2, "7 members" },
		{ 50, 5, 2, "6 or more" },
		{ 50, 32, 11, "33 or more" },
		{ 50, 30, 4, "equal spans" },
		{ 50, 6, 0xffffffff, "4294967295" },
		{ 50, 0, 2, "no members" },
		{ 50, 34, 2, "34" },
		{ 60, 8, 1, "use RAID6 for one span" },
		{ 60, 6, 2, "8 or more" },
		{ 60, 9, 2, "equal spans" },
		{ 60, 30, 8, "32 or more" },
		{ 60, 8, 0, "spans" },
	};
	static const u32 lv[] = { 1, 10, 5, 6 };
	static const u32 lvn[] = { 2, 4, 3, 4 };
	static const u32 bad_spans[] = { 1, 2, 0xffffffff };
	static const u32 bad_strip[] = {
		1, 512, 2048, 4 * KIB - 1, 4 * KIB + 512, 6 * KIB, 96 * KIB,
		MIB + 4096, 2 * MIB, 0x80000000u, 0xffffffffu,
	};
	size_t i, j;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		tap_begin("%s refused (-EINVAL, \"%s\")",
			  geo_str(bad[i].level, bad[i].n, 0), bad[i].needle);
		expect_refusal(bad[i].level, bad[i].n, 0, bad[i].spans,
			       2097152, -EINVAL, bad[i].needle);
		tap_end();
	}
	for (i = 0; i < ARRAY_SIZE(lv); i++) {
		tap_begin("raid%u with spans refused (-EINVAL)", lv[i]);
		for (j = 0; j < ARRAY_SIZE(bad_spans); j++)
			expect_refusal(lv[i], lvn[i], 0, bad_spans[j], 2097152,
				       -EINVAL, "spans");
		tap_end();
		tap_begin("raid%u bad strip sizes refused (-EINVAL)", lv[i]);
		for (j = 0; j < ARRAY_SIZE(bad_strip); j++) {
			char needle[16];

			snprintf(needle, sizeof(needle), "%u", bad_strip[j]);
			expect_refusal(lv[i], lvn[i], bad_strip[j], 0, 2097152,
				       -EINVAL, needle);
		}
		expect_refusal(60, 8, 3 * KIB, 2, 2097152, -EINVAL, "3072");
		tap_end();
	}
	tap_begin("raid0 / jbod / unknown levels go to vraid_geom_check");
	expect_refusal(0, 2, 0, 2, 2097152, -EINVAL, "spans");
	expect_refusal(0, 1, 0, 0, 2097152, -EINVAL, "1 given");
	expect_refusal(VRAID_LEVEL_JBOD, 2, 0, 0, 2097152, -EINVAL, "2 given");
	expect_refusal(7, 4, 0, 0, 2097152, -EINVAL, "level 7");
	expect_refusal(4, 4, 0, 0, 2097152, -EINVAL, "level 4");
	tap_end();
}

/* The rules of the brief, over a grid, against vraid_layout_check(). */
static void test_rule_grid(void)
{
	static const u32 lv[] = { 1, 10, 5, 6, 50, 60 };
	static const u32 spans[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
				     16, 17, 32, 33, 0x80000000u,
				     0xffffffffu };
	size_t i, j;
	u32 n;

	for (i = 0; i < ARRAY_SIZE(lv); i++) {
		u32 l = lv[i];

		tap_begin("raid%u: member/span rules over n 0..40 and %zu span counts",
			  l, ARRAY_SIZE(spans));
		for (n = 0; n <= 40; n++) {
			for (j = 0; j < ARRAY_SIZE(spans); j++) {
				u32 s = spans[j], w;
				bool ok;
				int ret;

				if (l == 50 || l == 60) {
					u32 minw = l == 50 ? 3 : 4;

					w = s ? n / s : 0;
					ok = n <= 32 && s >= 2 && n % s == 0 &&
					     w >= minw;
				} else {
					ok = s == 0 && n <= 32 &&
					     (l == 1 ? n >= 2 :
					      l == 10 ? n >= 4 && n % 2 == 0 :
					      l == 5 ? n >= 3 : n >= 4);
				}
				msg_reset(msg, VRAID_MSG_LEN);
				ret = vraid_layout_check(l, n, 0, s, msg,
							 VRAID_MSG_LEN);
				if (!CHECK(ret == (ok ? 0 : -EINVAL),
					   "n %u spans %u: returned %d (%.*s)",
					   n, s, ret, VRAID_MSG_LEN, msg))
					continue;
				if (ret)
					CHECK_MSG(msg, VRAID_MSG_LEN, NULL);
			}
		}
		tap_end();
	}
}

static void test_sizes(void)
{
	static const u32 lv[] = { 1, 10, 5, 6, 50, 60 };
	static const u32 ln[] = { 2, 4, 3, 4, 6, 8 };
	static const u32 ls[] = { 0, 0, 0, 0, 2, 2 };
	struct vraid_geom g;
	struct ref r;
	size_t i;
	u32 sb;
	int ret;

	for (i = 0; i < ARRAY_SIZE(lv); i++) {
		tap_begin("%s: too small members refused (-ENOSPC), 2048 sectors accepted",
			  geo_str(lv[i], ln[i], ls[i]));
		for (sb = 4 * KIB; sb <= MIB; sb *= 2) {
			u64 strip = sb / 512;

			expect_refusal(lv[i], ln[i], sb, ls[i],
				       REF_MIN_DATA - 1, -ENOSPC, "1023 KiB");
			expect_refusal(lv[i], ln[i], sb, ls[i], 0, -ENOSPC,
				       "0 KiB");
			ret = vraid_layout_init(&g, lv[i], ln[i], sb, ls[i],
						REF_MIN_DATA + strip - 1, msg,
						VRAID_MSG_LEN);
			CHECK(ret == 0 && g.member_sectors == (lv[i] == 1 ?
				REF_MIN_DATA + strip - 8 : REF_MIN_DATA),
			      "strip %s: ret %d member_sectors %" PRIu64,
			      strip_str(sb), ret, g.member_sectors);
		}
		/* strip 0 is the default, 64 KiB */
		ret = vraid_layout_init(&g, lv[i], ln[i], 0, ls[i], 1000000007,
					msg, VRAID_MSG_LEN);
		ref_init(&r, lv[i], ln[i], ls[i], 0, 1000000007);
		if (CHECK(ret == 0, "strip 0: ret %d", ret)) {
			CHECK(g.strip_sectors == 128, "strip_sectors %u",
			      g.strip_sectors);
			check_geom(&g, &r);
		}
		/* RAID1 rounds to 4 KiB only */
		if (lv[i] == 1) {
			ret = vraid_layout_init(&g, 1, 2, MIB, 0, 2055, msg,
						VRAID_MSG_LEN);
			CHECK(ret == 0 && g.member_sectors == 2048 &&
			      g.size_sectors == 2048,
			      "2055 sectors: ret %d member %" PRIu64, ret,
			      g.member_sectors);
			ret = vraid_layout_init(&g, 1, 2, MIB, 0, 4095, msg,
						VRAID_MSG_LEN);
			CHECK(ret == 0 && g.member_sectors == 4088,
			      "4095 sectors: ret %d member %" PRIu64, ret,
			      g.member_sectors);
		}
		tap_end();
	}
}

/*
 * Huge members: refused with -EFBIG, or accepted with a size that fits a
 * loff_t and equals member_sectors * data_members.
 */
static void test_huge(void)
{
	static const struct {
		u32 level, n, spans;
		u64 data;
	} t[] = {
		{ 1, 32, 0, 1ull << 60 },
		{ 1, 2, 0, (1ull << 54) - 1 },
		{ 1, 2, 0, 1ull << 54 },
		{ 10, 32, 0, 1ull << 59 },
		{ 10, 4, 0, 1ull << 53 },
		{ 10, 4, 0, (1ull << 53) - 128 },
		{ 5, 3, 0, 1ull << 53 },
		{ 5, 3, 0, (1ull << 53) - 128 },
		{ 6, 32, 0, ~0ull },
		{ 6, 32, 0, (1ull << 54) / 30 },
		{ 50, 32, 2, 1ull << 50 },
		{ 60, 32, 8, (1ull << 54) / 16 + 128 },
		{ 60, 32, 8, (1ull << 54) / 16 - 128 },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		struct vraid_geom g;
		struct ref r;
		int ret, want;

		tap_begin("%s data=%" PRIu64 ": -EFBIG or a size that fits a loff_t",
			  geo_str(t[i].level, t[i].n, t[i].spans), t[i].data);
		want = ref_init(&r, t[i].level, t[i].n, t[i].spans, 0,
				t[i].data);
		msg_reset(msg, VRAID_MSG_LEN);
		ret = vraid_layout_init(&g, t[i].level, t[i].n, 0, t[i].spans,
					t[i].data, msg, VRAID_MSG_LEN);
		CHECK(ret == want, "returned %d, expected %d", ret, want);
		if (ret)
			CHECK_MSG(msg, VRAID_MSG_LEN,
				  ret == -EFBIG ? "too large" : NULL);
		else
			check_geom(&g, &r);
		if (!ret)
			check_sector(&g, &r, r.size - 1);
		tap_end();
	}
}

static void test_misc(void)
{
	static const char * const names[] = { "RAID1", "RAID10", "RAID5", "RAID6",
				       "RAID50", "RAID60" };
	static const u32 lv[] = { 1, 10, 5, 6, 50, 60 };
	static const size_t lens[] = { 1, 2, 16 };
	struct vraid_geom g, h;
	size_t i;
	int ret;

	tap_begin("level classes and names");
	for (i = 0; i < ARRAY_SIZE(lv); i++) {
		CHECK(vraid_layout_is_mirror(lv[i]) == (lv[i] == 1 ||
							lv[i] == 10),
		      "is_mirror(%u)", lv[i]);
		CHECK(vraid_layout_is_parity(lv[i]) == (lv[i] != 1 &&
							lv[i] != 10),
		      "is_parity(%u)", lv[i]);
		CHECK(vraid_level_name(lv[i]) &&
		      !strcmp(vraid_level_name(lv[i]), names[i]),
		      "name of %u", lv[i]);
	}
	CHECK(!vraid_layout_is_mirror(0) && !vraid_layout_is_parity(0) &&
	      !vraid_layout_is_mirror(VRAID_LEVEL_JBOD) &&
	      !vraid_layout_is_parity(VRAID_LEVEL_JBOD) &&
	      !vraid_layout_is_parity(4) && !vraid_layout_is_mirror(2),
	      "RAID0/JBOD/unknown levels are neither");
	tap_end();

	tap_begin("raid0 and jbod through vraid_layout_init equal vraid_geom_init");
	memset(&g, 1, sizeof(g));
	memset(&h, 2, sizeof(h));
	ret = vraid_layout_init(&g, 0, 5, 8192, 0, 1000000007, msg,
				VRAID_MSG_LEN);
	CHECK(ret == 0 && vraid_geom_init(&h, 0, 5, 8192, 0, 1000000007, msg,
					  VRAID_MSG_LEN) == 0 &&
	      !memcmp(&g, &h, sizeof(g)), "raid0 differs (ret %d)", ret);
	ret = vraid_layout_init(&g, VRAID_LEVEL_JBOD, 1, 0, 0, 1000000007,
				msg, VRAID_MSG_LEN);
	CHECK(ret == 0 && vraid_geom_init(&h, VRAID_LEVEL_JBOD, 1, 0, 0,
					  1000000007, msg,
					  VRAID_MSG_LEN) == 0 &&
	      !memcmp(&g, &h, sizeof(g)), "jbod differs (ret %d)", ret);
	CHECK(vraid_layout_check(0, 4, 0, 0, msg, VRAID_MSG_LEN) == 0,
	      "raid0 n=4 refused: %.*s", VRAID_MSG_LEN, msg);
	tap_end();

	tap_begin("refusal messages into 1, 2 and 16 byte buffers stay inside");
	for (i = 0; i < ARRAY_SIZE(lens); i++) {
		char *m = msg_buf(lens[i]);

		ret = vraid_layout_init(&g, 60, 9, 0, 2, 2097152, m, lens[i]);
		CHECK(ret == -EINVAL && memchr(m, 0, lens[i]),
		      "len %zu: ret %d", lens[i], ret);
		msg_reset(m, lens[i]);
		ret = vraid_layout_init(&g, 6, 5, 0, 0, 5, m, lens[i]);
		CHECK(ret == -ENOSPC && memchr(m, 0, lens[i]),
		      "len %zu: ret %d", lens[i], ret);
		free(m);
	}
	tap_end();
}

int main(void)
{
	int ret;

	msg = msg_buf(VRAID_MSG_LEN);
	test_misc();
	test_refusals();
	test_rule_grid();
	test_sizes();
	test_huge();
	test_literals();
	test_geometries();
	free(msg);
	ret = tap_done();
	printf("test_layout: %u passed, %u failed\n", tap_n - tap_failed,
	       tap_failed);
	return ret;
}
