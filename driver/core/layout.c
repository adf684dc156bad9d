// SPDX-License-Identifier: GPL-2.0
/*
 * Geometry of the redundant levels (portable core).  See layout.h for the
 * layouts; they are md's defaults:
 *
 *  - RAID5/6: raid5_compute_sector() in drivers/md/raid5.c with
 *    ALGORITHM_LEFT_SYMMETRIC (mdadm's "default" of r5layout/r6layout);
 *  - the Q data order: set_syndrome_sources() and raid6_d0() there;
 *  - RAID10: __raid10_find_phys() in drivers/md/raid10.c with near_copies
 *    2, far_copies 1 (mdadm's default layout 0x102);
 *  - RAID50/60: raid0's map_sector() over the spans, one zone.
 */
#include "core_types.h"
#include <linux/vraid.h>
#include "geom.h"
#include "layout.h"

bool vraid_layout_is_mirror(u32 level)
{
	return level == VRAID_LEVEL_1 || level == VRAID_LEVEL_10;
}

bool vraid_layout_is_parity(u32 level)
{
	return level == VRAID_LEVEL_5 || level == VRAID_LEVEL_6 ||
	       level == VRAID_LEVEL_50 || level == VRAID_LEVEL_60;
}

/* P and Q strips per row of a span (0 for other levels). */
u32 vraid_layout_parity_strips(u32 level)
{
	switch (level) {
	case VRAID_LEVEL_5:
	case VRAID_LEVEL_50:
		return 1;
	case VRAID_LEVEL_6:
	case VRAID_LEVEL_60:
		return 2;
	}
	return 0;
}

static u32 ilog2_u32(u32 v)
{
	u32 r = 0;

	while (v >>= 1)
		r++;
	return r;
}

/* Member counts of RAID1/10/5/6; @name is the level's name. */
static int check_members(u32 level, const char *name, u32 n,
			 char *msg, size_t msglen)
{
	switch (level) {
	case VRAID_LEVEL_1:
		if (n >= 2)
			return 0;
		snprintf(msg, msglen,
			 "RAID1 needs 2 to %u members, %u given (use jbod for one disk)",
			 VRAID_MAX_MEMBERS, n);
		return -EINVAL;
	case VRAID_LEVEL_10:
		if (n >= 4 && !(n & 1))
			return 0;
		snprintf(msg, msglen,
			 "RAID10 needs an even number of members from 4 to %u, %u given (%s)",
			 VRAID_MAX_MEMBERS, n,
			 n < 4 ? "use RAID1 for 2 or 3 disks" :
				 "add or leave out one disk");
		return -EINVAL;
	case VRAID_LEVEL_5:
	case VRAID_LEVEL_6:
		if (n >= 2 + vraid_layout_parity_strips(level))
			return 0;
		snprintf(msg, msglen,
			 "%s needs %u to %u members, %u given (use RAID1 for fewer disks)",
			 name, 2 + vraid_layout_parity_strips(level), VRAID_MAX_MEMBERS, n);
		return -EINVAL;
	}
	return 0;
}

/* Span rules of RAID50/60. */
static int check_spans(u32 level, const char *name, u32 n, u32 spans,
		       char *msg, size_t msglen)
{
	u32 min_width = 2 + vraid_layout_parity_strips(level);

	if (spans < 2) {
		snprintf(msg, msglen,
			 "%s needs 2 or more spans, %u given (use RAID%u for one span)",
			 name, spans, level / 10);
		return -EINVAL;
	}
	if (n < (u64)spans * min_width) {
		snprintf(msg, msglen,
			 "%s: %u spans need %llu or more members (%u per span), %u given",
			 name, spans, (unsigned long long)spans * min_width,
			 min_width, n);
		return -EINVAL;
	}
	if (n % spans) {
		snprintf(msg, msglen,
			 "%s: %u members do not split into %u equal spans (give a multiple of %u)",
			 name, n, spans, spans);
		return -EINVAL;
	}
	return 0;
}

int vraid_layout_check(u32 level, u32 nr_members, u32 strip_bytes, u32 spans,
		       char *msg, size_t msglen)
{
	const char *name = vraid_level_name(level);
	bool spanned = level == VRAID_LEVEL_50 || level == VRAID_LEVEL_60;
	int ret;

	if (!vraid_layout_is_mirror(level) && !vraid_layout_is_parity(level))
		return vraid_geom_check(level, nr_members, strip_bytes, spans,
					msg, msglen);
	if (spans && !spanned) {
		snprintf(msg, msglen,
			 "spans (%u given) apply to RAID50/60 only, not %s",
			 spans, name);
		return -EINVAL;
	}
	ret = vraid_check_members_strip(nr_members, strip_bytes, msg, msglen);
	if (ret)
		return ret;
	if (spanned)
		return check_spans(level, name, nr_members, spans,
				   msg, msglen);
	return check_members(level, name, nr_members, msg, msglen);
}

int vraid_layout_init(struct vraid_geom *g, u32 level, u32 nr_members,
		      u32 strip_bytes, u32 spans, u64 min_data_sectors,
		      char *msg, size_t msglen)
{
	u32 width;
	int ret;

	if (!vraid_layout_is_mirror(level) && !vraid_layout_is_parity(level))
		return vraid_geom_init(g, level, nr_members, strip_bytes, spans,
				       min_data_sectors, msg, msglen);
	ret = vraid_layout_check(level, nr_members, strip_bytes, spans,
				 msg, msglen);
	if (ret)
		return ret;

	memset(g, 0, sizeof(*g));
	g->level = level;
	g->nr_members = nr_members;
	g->spans = spans ? spans : 1;
	if (!strip_bytes)
		strip_bytes = VRAID_STRIP_DEFAULT;
	g->strip_sectors = strip_bytes >> 9;
	g->strip_shift = ilog2_u32(g->strip_sectors);
	width = nr_members / g->spans;

	if (level == VRAID_LEVEL_1) {
		/* md raid1 has no chunk: whole 4 KiB blocks only. */
		g->member_sectors = min_data_sectors & ~7ULL;
		g->data_members = 1;
	} else {
		g->member_sectors = min_data_sectors &
				    ~((u64)g->strip_sectors - 1);
		if (level == VRAID_LEVEL_10)
			g->data_members = nr_members / 2;
		else
			g->data_members = g->spans *
					  (width - vraid_layout_parity_strips(level));
	}
	g->size_sectors = g->member_sectors * g->data_members;

	return vraid_geom_check_size(g, min_data_sectors, msg, msglen);
}

u32 vraid_layout_span_width(const struct vraid_geom *g)
{
	return g->spans > 1 ? g->nr_members / g->spans : g->nr_members;
}

u32 vraid_layout_span_data(const struct vraid_geom *g)
{
	return vraid_layout_is_parity(g->level) ?
	       vraid_layout_span_width(g) - vraid_layout_parity_strips(g->level) : 0;
}

void vraid_layout_mirror(const struct vraid_geom *g, u64 vsector,
			 struct vraid_mirror_loc *m)
{
	u64 chunk, row;
	u32 off, pair;

	if (g->level == VRAID_LEVEL_1) {
		m->first = 0;
		m->copies = g->nr_members;
		m->sector = vsector;
		m->len = g->size_sectors - vsector;
		return;
	}
	/*
	 * RAID10 near 2: md numbers the 2 * chunk copies across the members,
	 * which for an even count is a RAID0 over the mirror pairs.
	 */
	chunk = vsector >> g->strip_shift;
	off = (u32)(vsector & (g->strip_sectors - 1));
	row = div_u64_rem(chunk, g->nr_members / 2, &pair);
	m->first = 2 * pair;
	m->copies = 2;
	m->sector = (row << g->strip_shift) + off;
	m->len = g->strip_sectors - off;
}

/*
 * Member (within its span) of P in row @stripe of a span of @width
 * members: left-symmetric rotates P from the last member backwards.
 */
static u32 p_index(u64 stripe, u32 width)
{
	u32 r;

	div_u64_rem(stripe, width, &r);
	return width - 1 - r;
}

void vraid_layout_parity(const struct vraid_geom *g, u64 vsector,
			 struct vraid_parity_loc *loc)
{
	u32 width = vraid_layout_span_width(g);
	u32 np = vraid_layout_parity_strips(g->level);
	u32 span = 0, idx, pd, base;
	u64 chunk, stripe;

	chunk = vsector >> g->strip_shift;
	loc->offset = (u32)(vsector & (g->strip_sectors - 1));
	if (g->spans > 1)
		chunk = div_u64_rem(chunk, g->spans, &span);
	stripe = div_u64_rem(chunk, width - np, &idx);
	pd = p_index(stripe, width);
	base = span * width;

	loc->span = span;
	loc->stripe = stripe;
	loc->data_idx = idx;
	loc->member = base + (pd + np + idx) % width;
	loc->p_member = base + pd;
	loc->q_member = np == 2 ? base + (pd + 1) % width : VRAID_NO_MEMBER;
	loc->sector = (stripe << g->strip_shift) + loc->offset;
	loc->len = g->strip_sectors - loc->offset;
}

u64 vraid_layout_member_sector(const struct vraid_geom *g, u64 vsector)
{
	struct vraid_parity_loc parity;
	struct vraid_mirror_loc mirror;

	if (vraid_layout_is_parity(g->level)) {
		vraid_layout_parity(g, vsector, &parity);
		return parity.sector;
	}
	vraid_layout_mirror(g, vsector, &mirror);
	return mirror.sector;
}

u32 vraid_layout_bm_region(const struct vraid_geom *g, u64 vsector,
			   u32 shift, u32 nbits)
{
	u64 region = vraid_layout_member_sector(g, vsector) >> shift;

	return region < nbits ? (u32)region : nbits - 1;
}

u32 vraid_layout_data_member(const struct vraid_geom *g, u32 span,
			     u64 stripe, u32 data_idx)
{
	u32 width = vraid_layout_span_width(g);

	return span * width + (p_index(stripe, width) +
			       vraid_layout_parity_strips(g->level) + data_idx) % width;
}

u32 vraid_layout_p_member(const struct vraid_geom *g, u32 span, u64 stripe)
{
	u32 width = vraid_layout_span_width(g);

	return span * width + p_index(stripe, width);
}

u32 vraid_layout_q_member(const struct vraid_geom *g, u32 span, u64 stripe)
{
	u32 width = vraid_layout_span_width(g);

	if (vraid_layout_parity_strips(g->level) != 2)
		return VRAID_NO_MEMBER;
	return span * width + (p_index(stripe, width) + 1) % width;
}

u32 vraid_layout_member_role(const struct vraid_geom *g, u32 member,
			     u64 stripe)
{
	u32 width = vraid_layout_span_width(g);
	u32 np = vraid_layout_parity_strips(g->level);
	u32 m = member % width;
	u32 pd = p_index(stripe, width);

	if (m == pd)
		return VRAID_ROLE_P;
	if (np == 2 && m == (pd + 1) % width)
		return VRAID_ROLE_Q;
	/* data index i is on (pd + np + i) % width */
	return (m + 2 * width - pd - np) % width;
}

u64 vraid_layout_vsector(const struct vraid_geom *g, u32 span, u64 stripe,
			 u32 data_idx, u32 offset)
{
	u64 chunk = stripe * vraid_layout_span_data(g) + data_idx;

	return ((chunk * g->spans + span) << g->strip_shift) + offset;
}
