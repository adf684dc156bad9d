// SPDX-License-Identifier: GPL-2.0
/*
 * Geometry of virtual drives (portable core).
 *
 * RAID0 is md's raid0 layout for equally sized members (one zone): strip
 * c of the VD lives on member c % n at member strip c / n.  Members larger
 * than the smallest are used only up to the smallest's size, rounded down
 * to a whole strip, so `mdadm --build --level=0` over the data areas reads
 * the same bytes.  JBOD maps the VD 1:1 onto its single member's data area.
 */
#include "core_types.h"
#include <linux/vraid.h>
#include "geom.h"

const char *vraid_level_name(u32 level)
{
	switch (level) {
	case VRAID_LEVEL_JBOD:	return "JBOD";
	case VRAID_LEVEL_0:	return "RAID0";
	case VRAID_LEVEL_1:	return "RAID1";
	case VRAID_LEVEL_5:	return "RAID5";
	case VRAID_LEVEL_6:	return "RAID6";
	case VRAID_LEVEL_10:	return "RAID10";
	case VRAID_LEVEL_50:	return "RAID50";
	case VRAID_LEVEL_60:	return "RAID60";
	}
	return NULL;
}

static bool is_pow2(u32 v)
{
	return v && !(v & (v - 1));
}

static u32 ilog2_u32(u32 v)
{
	u32 r = 0;

	while (v >>= 1)
		r++;
	return r;
}

int vraid_check_members_strip(u32 nr_members, u32 strip_bytes, char *msg,
			      size_t msglen)
{
	if (nr_members == 0) {
		snprintf(msg, msglen, "no members given");
		return -EINVAL;
	}
	if (nr_members > VRAID_MAX_MEMBERS) {
		snprintf(msg, msglen, "%u members given, at most %u allowed",
			 nr_members, VRAID_MAX_MEMBERS);
		return -EINVAL;
	}
	if (strip_bytes && (!is_pow2(strip_bytes) ||
			    strip_bytes < VRAID_STRIP_MIN ||
			    strip_bytes > VRAID_STRIP_MAX)) {
		snprintf(msg, msglen,
			 "bad strip size %u bytes: use a power of two from 4 KiB to 1 MiB",
			 strip_bytes);
		return -EINVAL;
	}
	return 0;
}

int vraid_geom_check_size(const struct vraid_geom *g, u64 min_data_sectors,
			  char *msg, size_t msglen)
{
	u32 rem;

	/* The VD's size in bytes must fit a loff_t (2^63 - 1). */
	if (g->member_sectors > div_u64_rem((1ULL << 54) - 1, g->data_members,
					    &rem)) {
		snprintf(msg, msglen,
			 "members too large: %llu sectors each makes the VD exceed 2^63 bytes",
			 (unsigned long long)min_data_sectors);
		return -EFBIG;
	}
	if (g->member_sectors < VRAID_MIN_DATA_SECTORS) {
		snprintf(msg, msglen,
			 "members too small: %llu KiB of data area each, at least %llu KiB needed",
			 (unsigned long long)(min_data_sectors >> 1),
			 (unsigned long long)(VRAID_MIN_DATA_SECTORS >> 1));
		return -ENOSPC;
	}
	return 0;
}

int vraid_geom_check(u32 level, u32 nr_members, u32 strip_bytes, u32 spans,
		     char *msg, size_t msglen)
{
	int ret;

	const char *name = vraid_level_name(level);

	if (!name) {
		snprintf(msg, msglen,
			 "unknown RAID level %u (use jbod, 0, 1, 5, 6, 10, 50 or 60)",
			 level);
		return -EINVAL;
	}
	if (level != VRAID_LEVEL_JBOD && level != VRAID_LEVEL_0) {
		snprintf(msg, msglen, "%s is not supported yet", name);
		return -EOPNOTSUPP;
	}
	if (spans) {
		snprintf(msg, msglen,
			 "spans (%u given) apply to RAID50/60 only, not %s",
			 spans, name);
		return -EINVAL;
	}
	ret = vraid_check_members_strip(nr_members, strip_bytes, msg, msglen);
	if (ret)
		return ret;
	if (level == VRAID_LEVEL_JBOD && nr_members != 1) {
		snprintf(msg, msglen,
			 "JBOD takes exactly one member, %u given (use one JBOD per disk)",
			 nr_members);
		return -EINVAL;
	}
	if (level == VRAID_LEVEL_0 && nr_members < 2) {
		snprintf(msg, msglen,
			 "RAID0 needs 2 to %u members, %u given (use jbod for one disk)",
			 VRAID_MAX_MEMBERS, nr_members);
		return -EINVAL;
	}
	return 0;
}

int vraid_geom_init(struct vraid_geom *g, u32 level, u32 nr_members,
		    u32 strip_bytes, u32 spans, u64 min_data_sectors,
		    char *msg, size_t msglen)
{
	int ret;

	ret = vraid_geom_check(level, nr_members, strip_bytes, spans,
			       msg, msglen);
	if (ret)
		return ret;

	memset(g, 0, sizeof(*g));
	g->level = level;
	g->nr_members = nr_members;
	g->spans = 1;

	if (level == VRAID_LEVEL_JBOD) {
		/* Whole 4 KiB blocks only, so any logical block size fits. */
		g->member_sectors = min_data_sectors & ~7ULL;
		g->data_members = 1;
		g->size_sectors = g->member_sectors;
	} else {
		if (!strip_bytes)
			strip_bytes = VRAID_STRIP_DEFAULT;
		g->strip_sectors = strip_bytes >> 9;
		g->strip_shift = ilog2_u32(g->strip_sectors);
		g->member_sectors = min_data_sectors &
				    ~((u64)g->strip_sectors - 1);
		g->data_members = nr_members;
		g->size_sectors = g->member_sectors * nr_members;
	}
	return vraid_geom_check_size(g, min_data_sectors, msg, msglen);
}

void vraid_geom_map(const struct vraid_geom *g, u64 vsector,
		    struct vraid_map *m)
{
	u64 chunk, row;
	u32 off, member;

	if (g->level == VRAID_LEVEL_JBOD) {
		m->member = 0;
		m->sector = vsector;
		m->len = g->size_sectors - vsector;
		return;
	}
	/* RAID0 */
	chunk = vsector >> g->strip_shift;
	off = (u32)(vsector & (g->strip_sectors - 1));
	row = div_u64_rem(chunk, g->nr_members, &member);
	m->member = member;
	m->sector = (row << g->strip_shift) + off;
	m->len = g->strip_sectors - off;
}
