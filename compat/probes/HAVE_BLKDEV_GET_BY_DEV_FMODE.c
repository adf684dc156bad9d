// SPDX-License-Identifier: GPL-2.0
/* Members opened with blkdev_get_by_dev(dev, fmode_t, holder) (up to 6.4). */
#include <linux/blkdev.h>

struct block_device *probe(dev_t dev, void *holder)
{
	struct block_device *b = blkdev_get_by_dev(dev, FMODE_READ |
						   FMODE_EXCL, holder);
	blkdev_put(b, FMODE_READ | FMODE_EXCL);
	return b;
}
