// SPDX-License-Identifier: GPL-2.0
/* open(struct gendisk *, blk_mode_t), release(struct gendisk *) (6.5+). */
#include <linux/blkdev.h>

static int p_open(struct gendisk *disk, blk_mode_t mode)
{
	return 0;
}

static void p_release(struct gendisk *disk)
{
}

const struct block_device_operations probe_fops = {
	.open = p_open,
	.release = p_release,
};
