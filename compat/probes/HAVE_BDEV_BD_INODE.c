// SPDX-License-Identifier: GPL-2.0
/* The page cache mapping of a block device: bdev->bd_inode->i_mapping (6.1). */
#include <linux/blkdev.h>
#include <linux/fs.h>

struct address_space *probe(struct block_device *bdev)
{
	return bdev->bd_inode->i_mapping;
}
