// SPDX-License-Identifier: GPL-2.0
/* open(struct block_device *, fmode_t), release(struct gendisk *, fmode_t)
 * (up to 6.4).
 */
#include <linux/blkdev.h>

static int p_open(struct block_device *bdev, fmode_t mode)
{
	return 0;
}

static void p_release(struct gendisk *disk, fmode_t mode)
{
}

const struct block_device_operations probe_fops = {
	.open = p_open,
	.release = p_release,
};
