// SPDX-License-Identifier: GPL-2.0
/* Write cache and FUA via blk_queue_write_cache(), rotational and I/O
 * statistics as queue flags (up to 6.10).
 */
#include <linux/blkdev.h>

void probe(struct request_queue *q)
{
	blk_queue_write_cache(q, true, true);
	blk_queue_flag_set(QUEUE_FLAG_NONROT, q);
	blk_queue_flag_set(QUEUE_FLAG_IO_STAT, q);
}
