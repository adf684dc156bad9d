/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one place where kernel API differences are absorbed.
 *
 * compat/probe compiles one tiny object per variant of each block-layer
 * API the driver uses against the kernel being built for, and the build
 * includes the result (VRAID_HAVE_* macros, -include in Kbuild).  Exactly
 * one variant of each API is defined, or the build has already stopped
 * naming the API it could not find.  No LINUX_VERSION_CODE anywhere.
 *
 *	member open		VRAID_HAVE_BDEV_FILE_OPEN_BY_DEV (6.10+)
 *				VRAID_HAVE_BLKDEV_GET_BY_DEV_FMODE (6.1)
 *	disk allocation		VRAID_HAVE_BLK_ALLOC_DISK_LIMITS (6.9+)
 *				VRAID_HAVE_BLK_ALLOC_DISK_NODE (6.1)
 *	limits stack/update	VRAID_HAVE_QUEUE_LIMITS_STACK_BDEV (6.9+)
 *				VRAID_HAVE_DISK_STACK_LIMITS (6.1)
 *	cache/FUA/rot features	VRAID_HAVE_BLK_FEAT_WRITE_CACHE (6.11+)
 *				VRAID_HAVE_BLK_QUEUE_WRITE_CACHE (6.1)
 *	fops open/release	VRAID_HAVE_BDOPS_OPEN_DISK (6.5+)
 *				VRAID_HAVE_BDOPS_OPEN_BDEV (6.1)
 *	I/O accounting		VRAID_HAVE_BIO_START_IO_ACCT (both)
 *	shrinkers		VRAID_HAVE_SHRINKER_ALLOC (6.7+)
 *				VRAID_HAVE_REGISTER_SHRINKER_NAME (6.1)
 *	bdev page cache		VRAID_HAVE_BDEV_BD_MAPPING (6.10+)
 *				VRAID_HAVE_BDEV_BD_INODE (6.1)
 */
#ifndef VRAID_COMPAT_H
#define VRAID_COMPAT_H

#include <linux/blkdev.h>
#include <linux/blk-mq.h>
#include <linux/file.h>
#include <linux/shrinker.h>

#ifndef VRAID_COMPAT_PROBES_H
#error "built without the kernel API probes (compat/probe, run by Kbuild)"
#endif
#ifndef VRAID_HAVE_BIO_START_IO_ACCT
#error "compat/probe found no bio_start_io_acct()"
#endif

/* --- member devices ------------------------------------------------------ */

/* Handle to an opened member device. */
struct vraid_bdev_handle {
	struct block_device *bdev;
#ifdef VRAID_HAVE_BDEV_FILE_OPEN_BY_DEV
	struct file *file;
#endif
};

#if defined(VRAID_HAVE_BDEV_FILE_OPEN_BY_DEV)
/* Opened read-write; a holder makes the open exclusive. */
static inline int vraid_bdev_open(struct vraid_bdev_handle *h, dev_t dev,
				  void *holder)
{
	struct file *f;

	f = bdev_file_open_by_dev(dev, BLK_OPEN_READ | BLK_OPEN_WRITE, holder,
				  NULL);
	if (IS_ERR(f))
		return PTR_ERR(f);
	h->file = f;
	h->bdev = file_bdev(f);
	return 0;
}

static inline void vraid_bdev_close(struct vraid_bdev_handle *h)
{
	if (h->file)
		bdev_fput(h->file);
	h->file = NULL;
	h->bdev = NULL;
}
#elif defined(VRAID_HAVE_BLKDEV_GET_BY_DEV_FMODE)
#define VRAID_MEMBER_FMODE	(FMODE_READ | FMODE_WRITE | FMODE_EXCL)

static inline int vraid_bdev_open(struct vraid_bdev_handle *h, dev_t dev,
				  void *holder)
{
	struct block_device *bdev;

	bdev = blkdev_get_by_dev(dev, VRAID_MEMBER_FMODE, holder);
	if (IS_ERR(bdev))
		return PTR_ERR(bdev);
	h->bdev = bdev;
	return 0;
}

static inline void vraid_bdev_close(struct vraid_bdev_handle *h)
{
	if (h->bdev)
		blkdev_put(h->bdev, VRAID_MEMBER_FMODE);
	h->bdev = NULL;
}
#else
#error "compat/probe found no member open API"
#endif

/* Hand an open member over from @src (left closed) to @dst. */
static inline void vraid_bdev_move(struct vraid_bdev_handle *dst,
				   struct vraid_bdev_handle *src)
{
	*dst = *src;
	memset(src, 0, sizeof(*src));
}

/* --- block_device_operations ------------------------------------------------ */

/* VRAID_OPEN_DISK() is the gendisk inside a VRAID_OPEN_PROTO function. */
#if defined(VRAID_HAVE_BDOPS_OPEN_DISK)
#define VRAID_OPEN_PROTO(name) \
	int name(struct gendisk *vraid_open_disk, blk_mode_t mode)
#define VRAID_OPEN_DISK()	(vraid_open_disk)
#define VRAID_RELEASE_PROTO(name) \
	void name(struct gendisk *disk)
#elif defined(VRAID_HAVE_BDOPS_OPEN_BDEV)
#define VRAID_OPEN_PROTO(name) \
	int name(struct block_device *vraid_open_bdev, fmode_t mode)
#define VRAID_OPEN_DISK()	(vraid_open_bdev->bd_disk)
#define VRAID_RELEASE_PROTO(name) \
	void name(struct gendisk *disk, fmode_t mode)
#else
#error "compat/probe found no block_device_operations open/release"
#endif

/* --- queue limits ------------------------------------------------------------- */

/*
 * A VD's limits are computed into a struct vraid_limits before its disk
 * exists (the newer API takes them at allocation), then applied with it.
 * The features that older kernels keep as queue flags travel beside.
 */
struct vraid_limits {
	struct queue_limits lim;
	bool write_cache;
	bool fua;
	bool nonrot;
};

static inline void vraid_limits_init(struct vraid_limits *l)
{
	memset(l, 0, sizeof(*l));
	blk_set_stacking_limits(&l->lim);
}

/* Stack a member's limits; its data starts @offset sectors in. */
static inline void vraid_limits_stack(struct vraid_limits *l,
				      struct block_device *bdev,
				      sector_t offset)
{
#if defined(VRAID_HAVE_QUEUE_LIMITS_STACK_BDEV)
	queue_limits_stack_bdev(&l->lim, bdev, offset, "vraid");
#elif defined(VRAID_HAVE_DISK_STACK_LIMITS)
	blk_stack_limits(&l->lim, &bdev_get_queue(bdev)->limits,
			 get_start_sect(bdev) + offset);
#else
#error "compat/probe found no queue limits stacking API"
#endif
}

#if defined(VRAID_HAVE_BLK_FEAT_WRITE_CACHE)
static inline void vraid_limits_features(struct queue_limits *lim,
					 bool wc, bool fua, bool nonrot)
{
	lim->features &= ~(BLK_FEAT_WRITE_CACHE | BLK_FEAT_FUA |
			   BLK_FEAT_ROTATIONAL);
	lim->features |= BLK_FEAT_IO_STAT;
	if (wc)
		lim->features |= BLK_FEAT_WRITE_CACHE;
	if (fua)
		lim->features |= BLK_FEAT_FUA;
	if (!nonrot)
		lim->features |= BLK_FEAT_ROTATIONAL;
}
#elif defined(VRAID_HAVE_BLK_QUEUE_WRITE_CACHE)
static inline void vraid_queue_features(struct request_queue *q,
					bool wc, bool fua, bool nonrot)
{
	blk_queue_write_cache(q, wc, fua);
	if (nonrot)
		blk_queue_flag_set(QUEUE_FLAG_NONROT, q);
	else
		blk_queue_flag_clear(QUEUE_FLAG_NONROT, q);
	blk_queue_flag_set(QUEUE_FLAG_IO_STAT, q);
}
#else
#error "compat/probe found no write cache / FUA feature API"
#endif

/* Allocate a bio-based disk with these limits; ERR_PTR on failure. */
static inline struct gendisk *vraid_alloc_disk(struct vraid_limits *l)
{
#if defined(VRAID_HAVE_BLK_ALLOC_DISK_LIMITS)
	vraid_limits_features(&l->lim, l->write_cache, l->fua, l->nonrot);
	return blk_alloc_disk(&l->lim, NUMA_NO_NODE);
#elif defined(VRAID_HAVE_BLK_ALLOC_DISK_NODE)
	struct gendisk *disk = blk_alloc_disk(NUMA_NO_NODE);

	if (!disk)
		return ERR_PTR(-ENOMEM);
	/* As dm does: the stacked limits replace the defaults whole. */
	disk->queue->limits = l->lim;
	vraid_queue_features(disk->queue, l->write_cache, l->fua, l->nonrot);
	return disk;
#else
#error "compat/probe found no gendisk allocation API"
#endif
}

/*
 * Change the write cache / FUA features of a live disk.  The newer API
 * commits limits with the queue frozen (no submit_bio in progress).
 */
static inline int vraid_set_cache_features(struct gendisk *disk, bool wc,
					   bool fua)
{
	struct request_queue *q = disk->queue;
#if defined(VRAID_HAVE_BLK_FEAT_WRITE_CACHE)
	struct queue_limits lim;
	int ret;

	blk_mq_freeze_queue(q);
	lim = queue_limits_start_update(q);
	vraid_limits_features(&lim, wc, fua,
			      !(lim.features & BLK_FEAT_ROTATIONAL));
	ret = queue_limits_commit_update(q, &lim);
	blk_mq_unfreeze_queue(q);
	return ret;
#else
	blk_queue_write_cache(q, wc, fua);
	return 0;
#endif
}

/* --- shrinkers ----------------------------------------------------------- */

typedef unsigned long (*vraid_shrink_fn)(struct shrinker *s,
					 struct shrink_control *sc);

/* A shrinker: allocated by the kernel (6.7+) or embedded here. */
struct vraid_shrinker {
#if defined(VRAID_HAVE_SHRINKER_ALLOC)
	struct shrinker *s;
#elif defined(VRAID_HAVE_REGISTER_SHRINKER_NAME)
	struct shrinker s;
#else
#error "compat/probe found no shrinker registration API"
#endif
};

static inline int vraid_shrinker_register(struct vraid_shrinker *vs,
					  vraid_shrink_fn count,
					  vraid_shrink_fn scan,
					  const char *name)
{
#if defined(VRAID_HAVE_SHRINKER_ALLOC)
	vs->s = shrinker_alloc(0, "%s", name);
	if (!vs->s)
		return -ENOMEM;
	vs->s->count_objects = count;
	vs->s->scan_objects = scan;
	shrinker_register(vs->s);
	return 0;
#else
	vs->s.count_objects = count;
	vs->s.scan_objects = scan;
	vs->s.seeks = DEFAULT_SEEKS;
	return register_shrinker(&vs->s, "%s", name);
#endif
}

static inline void vraid_shrinker_unregister(struct vraid_shrinker *vs)
{
#if defined(VRAID_HAVE_SHRINKER_ALLOC)
	shrinker_free(vs->s);
#else
	unregister_shrinker(&vs->s);
#endif
}

/* --- the block device's page cache -------------------------------------- */

/*
 * Its mapping, where a write-out error is recorded (mapping_set_error())
 * for every opener's next fsync() to report.
 */
static inline struct address_space *vraid_bdev_mapping(struct block_device *bdev)
{
#if defined(VRAID_HAVE_BDEV_BD_MAPPING)
	return bdev->bd_mapping;
#else
	return bdev->bd_inode->i_mapping;
#endif
}

#endif /* VRAID_COMPAT_H */
