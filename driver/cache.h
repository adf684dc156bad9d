/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The controller cache (cache.c; design: Documentation/cache-design.rst;
 * its arithmetic: cachecore.h): cached reads, read-ahead and write-back
 * in one pool for all VDs, and what the front door, the journal, the
 * VD's life cycle and the control device ask of it.
 */
#ifndef VRAID_CACHE_H
#define VRAID_CACHE_H

#include <linux/types.h>

struct bio;
struct vraid_vd;
struct vraid_controller;
struct workqueue_struct;

int vraid_cache_module_init(void);
void vraid_cache_module_exit(void);
int vraid_cache_init(struct vraid_vd *vd);
void vraid_cache_exit(struct vraid_vd *vd);
struct bio *vraid_cache_read(struct vraid_vd *vd, struct bio *bio, bool fill,
			     bool checked);
bool vraid_cache_write(struct vraid_vd *vd, struct bio *bio);
bool vraid_cache_dirty(struct vraid_vd *vd);
unsigned long vraid_cache_dirty_pages(struct vraid_vd *vd);
int vraid_cache_drain(struct vraid_vd *vd);
int vraid_cache_write_out(struct vraid_vd *vd);
void vraid_cache_drain_progress(struct vraid_vd *vd, unsigned long *left,
				unsigned long *from);
void vraid_cache_drain_note(char *buf, size_t len);
void vraid_cache_draining_note(char *buf, size_t len);
bool vraid_cache_writing_out(struct vraid_vd *vd);
int vraid_cache_stop(struct vraid_vd *vd);
extern struct workqueue_struct *vraid_cache_wq;
int vraid_cache_set_size(u64 bytes, char *msg, size_t len);
void vraid_cache_show(struct vraid_controller *ctl);
struct bio *vraid_cache_ra(struct vraid_vd *vd, struct bio *bio);
void vraid_cache_note_read(struct vraid_vd *vd);
void vraid_cache_write_start(struct vraid_vd *vd, struct bio *bio);
void vraid_cache_write_end(struct vraid_vd *vd, struct bio *bio);
void vraid_cache_drop_all(struct vraid_vd *vd, bool dirty);
unsigned long vraid_cache_pages(struct vraid_vd *vd);
#endif /* VRAID_CACHE_H */
