// SPDX-License-Identifier: GPL-2.0
/* blk_alloc_disk(struct queue_limits *, node) returning ERR_PTR (6.9+). */
#include <linux/blkdev.h>

struct gendisk *probe(struct queue_limits *lim)
{
	return blk_alloc_disk(lim, NUMA_NO_NODE);
}
