/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Geometry of a virtual drive: virtual sector -> (member, member sector).
 * Part of the portable core: pure arithmetic, compiled into the module and
 * into the userspace unit tests.
 *
 * Sectors are 512 bytes.  Member sectors are relative to the start of the
 * member's data area (VRAID_DATA_OFFSET_SECTORS is added by the caller).
 */
#ifndef VRAID_GEOM_H
#define VRAID_GEOM_H

#include "core_types.h"

struct vraid_geom {
	u32 level;		/* VRAID_LEVEL_* */
	u32 nr_members;		/* members in the VD */
	u32 spans;		/* 1, or the span count of RAID50/60 */
	u32 strip_sectors;	/* strip (chunk) size; 0 for JBOD */
	u32 strip_shift;	/* log2(strip_sectors) */
	u32 data_members;	/* strips of data per stripe row */
	u64 member_sectors;	/* data area used on every member */
	u64 size_sectors;	/* capacity of the VD */
};

struct vraid_map {
	u32 member;		/* role of the member holding the sector */
	u64 sector;		/* sector within that member's data area */
	u64 len;		/* sectors contiguous on that member from here */
};

/* Checks every level shares: 1..32 members, strip 0 or 4 KiB..1 MiB. */
int vraid_check_members_strip(u32 nr_members, u32 strip_bytes, char *msg,
			      size_t msglen);

/*
 * Size checks shared by every level, on a filled @g: the VD fits a loff_t
 * (-EFBIG) and each member has VRAID_MIN_DATA_SECTORS (-ENOSPC).
 */
int vraid_geom_check_size(const struct vraid_geom *g, u64 min_data_sectors,
			  char *msg, size_t msglen);

/* Human name of a level ("RAID0", "JBOD"), or NULL if unknown. */
const char *vraid_level_name(u32 level);

/*
 * Check a level / member count / strip / span combination before any
 * device is touched.  strip_bytes 0 means the default.  Returns 0 or a
 * negative errno and writes the reason to msg.
 */
int vraid_geom_check(u32 level, u32 nr_members, u32 strip_bytes, u32 spans,
		     char *msg, size_t msglen);

/*
 * Fill @g for members whose smallest data area is @min_data_sectors.
 * Calls vraid_geom_check() first.  Returns 0 or a negative errno.
 */
int vraid_geom_init(struct vraid_geom *g, u32 level, u32 nr_members,
		    u32 strip_bytes, u32 spans, u64 min_data_sectors,
		    char *msg, size_t msglen);

/*
 * Map virtual sector @vsector (< g->size_sectors) to a member.  m->len is
 * the number of sectors that stay on that member contiguously (to the end
 * of the strip, or of the VD for JBOD).
 */
void vraid_geom_map(const struct vraid_geom *g, u64 vsector,
		    struct vraid_map *m);

#endif /* VRAID_GEOM_H */
