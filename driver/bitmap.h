/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The write-intent bitmap of redundant VDs (bitmap.c; format:
 * metadata.h): a write waits for its region's bit on the members, the
 * bits of idle regions are cleared, and an assembly after an unclean
 * shutdown resyncs the regions whose bits are set.
 */
#ifndef VRAID_BITMAP_H
#define VRAID_BITMAP_H

#include <linux/types.h>

struct bio;
struct vraid_vd;

typedef void (*vraid_bm_resume_fn)(struct vraid_vd *vd, struct bio *bio,
				   unsigned long start, void *arg);
int vraid_bitmap_init(struct vraid_vd *vd);
void vraid_bitmap_exit(struct vraid_vd *vd);
bool vraid_bitmap_start(struct vraid_vd *vd, struct bio *bio,
			unsigned long start, vraid_bm_resume_fn fn, void *arg);
void vraid_bitmap_end(struct vraid_vd *vd, struct bio *bio);
bool vraid_bitmap_pending(struct vraid_vd *vd, u64 msector);
u64 vraid_bitmap_next(struct vraid_vd *vd, u64 msector);
void vraid_bitmap_synced(struct vraid_vd *vd, u64 msector);
u32 vraid_bitmap_mark(struct vraid_vd *vd, u64 from, bool all);
int vraid_bitmap_load(struct vraid_vd *vd);
u32 vraid_bitmap_dirty_above(struct vraid_vd *vd, u64 from, bool all,
			     bool log);
int vraid_bitmap_flush(struct vraid_vd *vd);

#endif /* VRAID_BITMAP_H */
