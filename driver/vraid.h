/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vraid internal definitions shared by the driver's files.
 *
 * Locking:
 *  - vraid_ctl_mutex (ctl.c) serialises the control plane: create, delete,
 *    list and info, and protects vraid_idr.  Never taken on the I/O path.
 *  - vraid_vd.lock protects open_count and deleting (open/release against
 *    delete).  Never taken on the I/O path.
 *  - vraid_vd.state_lock (spinlock, irq-safe) serialises changes of member
 *    states and of the VD state: taken on error paths and by the control
 *    plane, never on the normal I/O path, which reads states with
 *    READ_ONCE().
 *  - vraid_vd.md_lock (mutex) serialises metadata writes and the
 *    generation counter; taken by the control plane and md_work only.
 *  - The stripe cache of parity levels (parity.c) has one spinlock per
 *    hash bucket and one per stripe head; no lock covers the whole VD.
 *  - The I/O path takes no lock: the geometry and member table are
 *    immutable while the VD exists, statistics are per-CPU, in-flight
 *    bios are counted by a percpu_ref.
 */
#ifndef VRAID_H
#define VRAID_H

#include <linux/blkdev.h>
#include <linux/bio.h>
#include <linux/mutex.h>
#include <linux/mempool.h>
#include <linux/percpu-refcount.h>
#include <linux/completion.h>
#include <linux/workqueue.h>
#include <linux/vraid.h>

#include "compat.h"
#include "geom.h"
#include "layout.h"

#define VRAID_MINORS	16	/* per VD: the disk and 15 partitions */

struct vraid_member {
	struct vraid_bdev_handle h;	/* NULL bdev once closed */
	dev_t dev;
	u32 role;
	u32 state;			/* VRAID_MEMBER_* */
	u64 dev_sectors;		/* size of the whole device */
	bool holder_linked;
	u8 uuid[16];			/* member UUID in the metadata */
	atomic_t inflight;		/* reads in flight, for read balancing */
	sector_t next_seq;		/* end of the last read sent here */
	char name[BDEVNAME_SIZE];
};

/* Per-CPU statistics, summed on read. */
struct vraid_stats {
	u64 member_reads[VRAID_MAX_MEMBERS];
	u64 member_writes[VRAID_MAX_MEMBERS];
	u64 member_errors[VRAID_MAX_MEMBERS];
	u64 flushes;
	u64 read_repairs;		/* read errors corrected from redundancy */
};

struct vraid_stripe_cache;
struct vraid_wl;

struct vraid_vd {
	int index;
	struct gendisk *disk;
	struct vraid_geom geom;
	char name[VRAID_NAME_LEN];
	u8 uuid[16];			/* VD UUID in the metadata */
	struct mutex md_lock;		/* generation, metadata writes */
	struct work_struct md_work;	/* rewrite metadata after a change */
	u64 generation;			/* metadata generation */
	u64 created;			/* seconds since the epoch */
	bool clean;			/* stopped cleanly (metadata flag) */
	u32 state;			/* VRAID_VD_* */
	u32 access_policy;
	u32 disk_cache_policy;
	u32 io_policy;
	u32 read_policy;
	u32 write_policy;

	spinlock_t state_lock;		/* member states, state */
	struct bio_set clone_set;	/* member clones, one per VD bio */
	struct bio_set mirror_set;	/* mirror clones, one per copy */
	mempool_t mio_pool;		/* struct vraid_mio */
	struct vraid_wl *wl;		/* mirror writes in flight */
	struct vraid_stripe_cache *sc;	/* parity levels only */
	struct bio_set flush_set;	/* empty member flushes, from wq only */
	struct bio_set split_set;	/* discards cut at strip ends */
	mempool_t flush_pool;		/* struct vraid_flush */
	struct vraid_stats __percpu *stats;

	struct percpu_ref active;	/* VD bios in flight */
	struct completion active_done;

	struct mutex lock;		/* open_count, deleting */
	unsigned int open_count;
	bool deleting;

	struct vraid_member members[VRAID_MAX_MEMBERS];
};

/* ctl.c */
extern struct workqueue_struct *vraid_wq;
int vraid_idr_alloc(struct vraid_vd *vd);
void vraid_idr_remove(int index);

/* vd.c */
int vraid_vd_create(struct vraid_create *c);
int vraid_vd_assemble(struct vraid_assemble *a,
		      bool (*name_taken)(const char *name));
int vraid_vd_delete(struct vraid_vd *vd, bool stop, char *msg,
		    size_t msglen);
void vraid_vd_fill_info(struct vraid_vd *vd, struct vraid_info *info);
extern const struct block_device_operations vraid_fops;
extern int vraid_major;

/* md.c */
int vraid_md_write_all(struct vraid_vd *vd, bool wipe, char *msg,
		       size_t msglen);
void vraid_md_work(struct work_struct *work);
struct vraid_md;
int vraid_md_read(struct block_device *bdev, struct vraid_md *md, char *msg,
		  size_t msglen);

/* io.c */
void vraid_submit_bio(struct bio *bio);
int vraid_io_init(struct vraid_vd *vd);
void vraid_io_exit(struct vraid_vd *vd);
void vraid_io_done(struct vraid_vd *vd, struct bio *bio, unsigned long start);

/* member.c */
bool vraid_member_fail(struct vraid_vd *vd, u32 member, const char *why);
int vraid_member_fail_admin(struct vraid_vd *vd, u32 member, bool force,
			    char *msg, size_t msglen);
void vraid_vd_update_state(struct vraid_vd *vd);
u32 vraid_tolerance(const struct vraid_geom *g);
bool vraid_level_redundant(u32 level);

static inline bool vraid_member_ok(struct vraid_vd *vd, u32 member)
{
	return READ_ONCE(vd->members[member].state) == VRAID_MEMBER_ONLINE;
}

/* mirror.c */
void vraid_mirror_bio(struct vraid_vd *vd, struct bio *bio);
int vraid_mirror_init(struct vraid_vd *vd);
void vraid_mirror_exit(struct vraid_vd *vd);

/* parity.c */
void vraid_parity_bio(struct vraid_vd *vd, struct bio *bio);
int vraid_parity_init(struct vraid_vd *vd);
void vraid_parity_exit(struct vraid_vd *vd);

/* sysfs.c */
extern const struct attribute_group *vraid_disk_groups[];
void vraid_stats_sum(struct vraid_vd *vd, struct vraid_stats *sum);
const char *vraid_state_name(u32 state);
const char *vraid_member_state_name(u32 state);

#endif /* VRAID_H */
