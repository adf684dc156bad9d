/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Geometry of the redundant levels (portable core): RAID1, RAID10, RAID5,
 * RAID6, RAID50 and RAID60, in the layouts Linux md uses by default, so
 * that stock mdadm can read a vraid VD.  Pure arithmetic on a struct
 * vraid_geom (geom.h); compiled into the module and the unit tests.
 *
 * Sectors are 512 bytes; member sectors are relative to the start of the
 * member's data area (the caller adds VRAID_DATA_OFFSET_SECTORS).  Member
 * numbers are roles in the VD, 0..nr_members-1.
 *
 * RAID1 (md raid1): every member holds the whole VD at the same sectors.
 *
 * RAID10 (md raid10 layout "n2", near 2 copies, mdadm's default 0x102),
 * with an even member count n: VD strip c is on the member pair
 * 2 * (c % (n/2)) and 2 * (c % (n/2)) + 1, at member strip c / (n/2),
 * the same sector on both.  Copy 0 is md's first copy (__raid10_find_phys).
 *
 * RAID5 (md raid5 ALGORITHM_LEFT_SYMMETRIC, mdadm's default) over w
 * members, d = w - 1 data strips per stripe row: VD strip c is data index
 * c % d of row c / d.  Row r has P on member w - 1 - r % w and data index
 * i on member (P + 1 + i) % w.
 *
 *	w = 5:   D0  D1  D2  D3  P
 *		 D5  D6  D7  P   D4
 *		 D10 D11 P   D8  D9
 *		 D15 P   D12 D13 D14
 *		 P   D16 D17 D18 D19
 *
 * RAID6 (md raid6 ALGORITHM_LEFT_SYMMETRIC, mdadm's default), d = w - 2:
 * row r has P on member w - 1 - r % w, Q on (P + 1) % w, and data index i
 * on member (P + 2 + i) % w.
 *
 *	w = 5:   Q   D0  D1  D2  P
 *		 D3  D4  D5  P   Q
 *		 D7  D8  P   Q   D6
 *		 D11 P   Q   D9  D10
 *		 P   Q   D12 D13 D14
 *
 * RAID50 / RAID60: md raid0 with the VD's strip as chunk over `spans`
 * spans of w = nr_members / spans members each (members s*w .. s*w+w-1
 * are span s); each span is a RAID5 / RAID6 of its w members with the
 * same strip.  VD strip c is strip c / spans of span c % spans.  In every
 * parity call, "stripe" (row) numbers count rows within one span.
 *
 * The Q syndrome.  Q is md's and lib/raid6's: over GF(2^8) with the
 * polynomial x^8 + x^4 + x^3 + x^2 + 1 (0x11d) and generator g = 2,
 *
 *	P = D_0 ^ D_1 ^ ... ^ D_{d-1}
 *	Q = g^0 * D_0 ^ g^1 * D_1 ^ ... ^ g^(d-1) * D_{d-1}
 *
 * where D_i is the strip of data index i in the row (the order of the
 * data in the VD, NOT the order of the members: md's set_syndrome_sources()
 * walks the members from the one after Q, which is data index 0).  So the
 * pointer array for raid6_call.gen_syndrome(d + 2, bytes, ptrs) and for
 * raid6_2data_recov() / raid6_datap_recov() is
 *
 *	ptrs[i] = strip of data index i (i < d), ptrs[d] = P, ptrs[d+1] = Q
 *
 * and the failed indices passed to the recovery routines are data
 * indices (or d for P).  vraid_layout_data_member() gives the member of
 * ptrs[i], vraid_layout_member_role() the index of a member.
 */
#ifndef VRAID_LAYOUT_H
#define VRAID_LAYOUT_H

#include "core_types.h"
#include "geom.h"

/* No member: the Q member of a RAID5/50 row. */
#define VRAID_NO_MEMBER		0xffffffffU

/* vraid_layout_member_role() of a P or Q member (data roles are < d). */
#define VRAID_ROLE_P		0xfffffffeU
#define VRAID_ROLE_Q		0xfffffffdU

/* Where a VD sector lives in a parity level. */
struct vraid_parity_loc {
	u32 span;	/* span (0 unless RAID50/60) */
	u32 data_idx;	/* data index in the row, 0..d-1: Q coefficient g^i */
	u32 member;	/* member holding the sector */
	u32 p_member;	/* member holding the row's P */
	u32 q_member;	/* member holding the row's Q; VRAID_NO_MEMBER */
	u32 offset;	/* sector within the strip */
	u64 stripe;	/* row within the span */
	u64 sector;	/* member sector: stripe * strip + offset */
	u64 len;	/* sectors from here to the end of the strip */
};

/* Where a VD sector lives in a mirrored level. */
struct vraid_mirror_loc {
	u32 first;	/* copy i is on member first + i */
	u32 copies;	/* number of copies: nr_members (RAID1) or 2 */
	u64 sector;	/* member sector, the same on every copy */
	u64 len;	/* sectors contiguous on every copy from here */
};

/* True for RAID1/10 (vraid_layout_mirror()) and RAID5/6/50/60. */
bool vraid_layout_is_mirror(u32 level);
bool vraid_layout_is_parity(u32 level);

/*
 * Check a level / member count / strip / span combination before any
 * device is touched; every level, JBOD and RAID0 through
 * vraid_geom_check().  strip_bytes 0 means the default; spans must be 0
 * except for RAID50/60.  Returns 0 or a negative errno and writes the
 * reason (what was wrong and what to do) to msg.
 */
int vraid_layout_check(u32 level, u32 nr_members, u32 strip_bytes, u32 spans,
		       char *msg, size_t msglen);

/*
 * Fill @g for any level (JBOD and RAID0 through vraid_geom_init()) for
 * members whose smallest data area is @min_data_sectors.  Every member
 * uses that size rounded down to a whole strip (RAID1: to 8 sectors).
 *
 *	level	spans	data_members		size_sectors
 *	RAID1	1	1			member_sectors
 *	RAID10	1	n / 2			member_sectors * n / 2
 *	RAID5	1	n - 1			member_sectors * (n - 1)
 *	RAID6	1	n - 2			member_sectors * (n - 2)
 *	RAID50	s	s * (n / s - 1)		member_sectors * data_members
 *	RAID60	s	s * (n / s - 2)		member_sectors * data_members
 *
 * data_members is the number of data strips in a full stripe (one row of
 * every span).  strip_sectors is set for RAID1 too (the VD's strip: its
 * io_min), though RAID1 maps without it.  Returns 0 or a negative errno
 * (-ENOSPC: members too small; -EFBIG: the VD would exceed 2^63 bytes).
 */
int vraid_layout_init(struct vraid_geom *g, u32 level, u32 nr_members,
		      u32 strip_bytes, u32 spans, u64 min_data_sectors,
		      char *msg, size_t msglen);

/* P and Q strips per row of a span: 1 (RAID5/50), 2 (RAID6/60), else 0. */
u32 vraid_layout_parity_strips(u32 level);

/* Members per span (nr_members unless RAID50/60). */
u32 vraid_layout_span_width(const struct vraid_geom *g);

/* Data strips per row of one span (d above), 0 unless a parity level. */
u32 vraid_layout_span_data(const struct vraid_geom *g);

/*
 * RAID1/10 only: the copies of VD sector @vsector (< size_sectors).
 * m->len runs to the end of the strip (RAID10) or of the VD (RAID1).
 * A member's sector s is copied at sector s on the other members of its
 * set: RAID1 all members, RAID10 the pair {2k, 2k + 1}.
 */
void vraid_layout_mirror(const struct vraid_geom *g, u64 vsector,
			 struct vraid_mirror_loc *m);

/*
 * RAID1/10/5/6/50/60: the member sector (from the start of the data area)
 * of VD sector @vsector (< size_sectors): where its copies lie (the same
 * sector on each), or its strip, the row's P and Q.
 */
u64 vraid_layout_member_sector(const struct vraid_geom *g, u64 vsector);

/*
 * The write-intent bitmap region of VD sector @vsector: its member sector
 * >> @shift, for a bitmap of @nbits regions of 2^@shift sectors
 * (vraid_bm_shift()); clamped to the last region, so that a geometry and
 * a bitmap that disagree cannot index past the bits.  A region is at
 * least a strip, so a piece of a bio cut at the level's unit has one.
 */
u32 vraid_layout_bm_region(const struct vraid_geom *g, u64 vsector,
			   u32 shift, u32 nbits);

/*
 * RAID5/6/50/60 only (so are the functions below): map VD sector
 * @vsector (< size_sectors).
 */
void vraid_layout_parity(const struct vraid_geom *g, u64 vsector,
			 struct vraid_parity_loc *loc);

/* Members of row @stripe of span @span: data index @data_idx, P and Q. */
u32 vraid_layout_data_member(const struct vraid_geom *g, u32 span,
			     u64 stripe, u32 data_idx);
u32 vraid_layout_p_member(const struct vraid_geom *g, u32 span, u64 stripe);
u32 vraid_layout_q_member(const struct vraid_geom *g, u32 span, u64 stripe);

/*
 * What @member holds in row @stripe of its span (span @member / w): its
 * data index, VRAID_ROLE_P or VRAID_ROLE_Q.
 */
u32 vraid_layout_member_role(const struct vraid_geom *g, u32 member,
			     u64 stripe);

/*
 * The inverse of vraid_layout_parity(): the VD sector at @offset in the
 * strip of data index @data_idx of row @stripe of span @span.
 */
u64 vraid_layout_vsector(const struct vraid_geom *g, u32 span, u64 stripe,
			 u32 data_idx, u32 offset);

#endif /* VRAID_LAYOUT_H */
