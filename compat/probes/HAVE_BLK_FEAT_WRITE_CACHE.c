// SPDX-License-Identifier: GPL-2.0
/* Write cache, FUA, rotational and I/O statistics are queue_limits
 * features (6.11+).
 */
#include <linux/blkdev.h>

void probe(struct queue_limits *lim)
{
	lim->features |= BLK_FEAT_WRITE_CACHE | BLK_FEAT_FUA |
			 BLK_FEAT_IO_STAT;
	lim->features &= ~BLK_FEAT_ROTATIONAL;
}
