// SPDX-License-Identifier: GPL-2.0
/* Limits stacked into the live queue with disk_stack_limits() (up to 6.9). */
#include <linux/blkdev.h>

void probe(struct gendisk *disk, struct block_device *b)
{
	blk_set_stacking_limits(&disk->queue->limits);
	disk_stack_limits(disk, b, 0);
	blk_queue_io_min(disk->queue, 4096);
}
