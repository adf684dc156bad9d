// SPDX-License-Identifier: GPL-2.0
/* blk_alloc_disk(node) returning NULL on failure (up to 6.8). */
#include <linux/blkdev.h>

struct gendisk *probe(void)
{
	return blk_alloc_disk(NUMA_NO_NODE);
}
