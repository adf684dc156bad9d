/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one place where kernel API differences are absorbed.  Feature tests
 * only (VRAID_HAVE_* set by the build or derived from the headers); no
 * LINUX_VERSION_CODE checks anywhere in the driver.
 *
 * Today the driver targets Debian's 6.1 kernel: member devices are opened
 * with blkdev_get_by_dev()/blkdev_put() and the block_device_operations
 * open/release callbacks take an fmode_t.
 */
#ifndef VRAID_COMPAT_H
#define VRAID_COMPAT_H

#include <linux/blkdev.h>

/* Handle to an opened member device. */
struct vraid_bdev_handle {
	struct block_device *bdev;
};

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

/* block_device_operations callbacks. */
#define VRAID_OPEN_PROTO(name) \
	int name(struct block_device *bdev, fmode_t mode)
#define VRAID_OPEN_DISK(bdev)	((bdev)->bd_disk)
#define VRAID_RELEASE_PROTO(name) \
	void name(struct gendisk *disk, fmode_t mode)

#endif /* VRAID_COMPAT_H */
