// SPDX-License-Identifier: GPL-2.0
/* The page cache mapping of a block device: bdev->bd_mapping (6.10+). */
#include <linux/blkdev.h>
#include <linux/fs.h>

struct address_space *probe(struct block_device *bdev)
{
	return bdev->bd_mapping;
}
