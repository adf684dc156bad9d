// SPDX-License-Identifier: GPL-2.0
/* Limits stacked into a queue_limits and committed atomically (6.9+). */
#include <linux/blkdev.h>

int probe(struct request_queue *q, struct block_device *b)
{
	struct queue_limits lim = queue_limits_start_update(q);

	queue_limits_stack_bdev(&lim, b, 0, "probe");
	return queue_limits_commit_update(q, &lim);
}
