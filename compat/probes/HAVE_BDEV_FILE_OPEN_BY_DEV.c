// SPDX-License-Identifier: GPL-2.0
/* Members opened as files: bdev_file_open_by_dev(), bdev_fput() (6.10+). */
#include <linux/blkdev.h>
#include <linux/file.h>

struct file *probe(dev_t dev, void *holder)
{
	struct file *f = bdev_file_open_by_dev(dev, BLK_OPEN_READ |
					       BLK_OPEN_WRITE, holder, NULL);
	struct block_device *bdev = file_bdev(f);

	(void)bdev;
	bdev_fput(f);
	return f;
}
