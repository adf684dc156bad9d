// SPDX-License-Identifier: GPL-2.0
/* I/O statistics of a bio-based disk: bio_start_io_acct() returning the
 * start time, bio_end_io_acct(bio, start) (5.19+).
 */
#include <linux/blkdev.h>

void probe(struct bio *bio)
{
	unsigned long start = bio_start_io_acct(bio);

	bio_end_io_acct(bio, start);
}
