// SPDX-License-Identifier: GPL-2.0
/*
 * crashio - a writer whose acknowledged writes can be checked after a
 * power cut (the crash tests, tests/vm/crash-test).
 *
 *   crashio write DEV LOGDEV BLOCKS [SEED [SYNC [BIG [SUB]]]]
 *	Forever (until killed): pick a 4 KiB block of the first BLOCKS of
 *	DEV, write it (O_DIRECT) with a new generation of it, and once the
 *	write has completed append a record "sectors M of block B reached
 *	generation G" to LOGDEV (O_DIRECT|O_DSYNC, one 512-byte sector per
 *	record).  Every 512-byte sector written is self-describing (magic,
 *	block, sector, generation, CRC), so a write torn between sectors
 *	is still a set of valid sectors.  A record exists only for a write
 *	DEV acknowledged.  With SYNC > 0, for a device with a volatile
 *	cache: SYNC writes, then fsync(DEV) (a flush), then their records,
 *	so that a record exists only for a write a flush covered.  With
 *	BIG > 0 (and SYNC 0), one write in BIG on average is a run of
 *	BIG_RUN blocks in one write (132 KiB, over blocks whose earlier
 *	small writes a journal may still hold; the VD splits it to its
 *	limits, and a journal logs the pieces as records of several
 *	blocks), a record per block after it.  With SUB > 0 (and SYNC 0),
 *	one write in SUB on average covers 1 to 7 sectors of one block,
 *	never the whole block: a write-back VD sends such a write around
 *	its cache, and a journal logs an INVALIDATE of those sectors
 *	instead of their data.
 *	Prints "crashio: running" once started.
 *
 *   crashio verify DEV LOGDEV BLOCKS [RECORDS]
 *	Read the log up to its first invalid record (or its first RECORDS
 *	records: those that existed at a crash state's cut, which `count`
 *	gave) and check every sector
 *	it names: the sector must hold a valid content of generation >= the
 *	last one logged for it (an unlogged later write may have landed
 *	too); a lower generation is an acknowledged write lost.  Sectors
 *	never logged are not checked.  Exit 0 when all is well.
 *	CRASHIO_SKIP="FIRST-LAST ..." (4 KiB blocks, inclusive): blocks not
 *	checked (a VD assembled with --force after an unclean shutdown
 *	while degraded: the rows it named may hold a missing member's
 *	blocks reconstructed wrongly); how many is printed.
 *
 *   crashio count LOGDEV
 *	Print the number of valid records in the log (up to its first
 *	invalid one).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BS	4096
#define SS	512		/* a sector */
#define SPB	(BS / SS)	/* sectors per block */
#define ALL	((1U << SPB) - 1)	/* the mask of a whole block */
#define BIG_RUN	33		/* blocks of a big write */
#define MAGIC	0x43524153484f3032ULL	/* "CRASHO02" */

struct rec {
	uint64_t magic;
	uint64_t seq;
	uint64_t block;
	uint64_t gen;
	uint32_t mask;		/* the sectors of the block written */
	uint32_t crc;
};

static uint32_t crc32c(uint32_t crc, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	crc = ~crc;
	while (len--) {
		crc ^= *p++;
		for (int j = 0; j < 8; j++)
			crc = (crc >> 1) ^ ((crc & 1) ? 0x82f63b78U : 0);
	}
	return ~crc;
}

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* The CRC of sector content @buf: all but its CRC field (bytes 28-31). */
static uint32_t sector_crc(const uint8_t *buf)
{
	return crc32c(crc32c(0, buf, 28), buf + 32, SS - 32);
}

/* Content of sector @idx of @block at generation @gen. */
static void fill_sector(uint8_t *buf, uint64_t block, uint32_t idx,
			uint64_t gen)
{
	uint64_t s = block * 0x9e3779b97f4a7c15ULL ^ gen ^ 0x1234567 ^
		     (uint64_t)idx << 56;
	uint64_t hdr[3] = { MAGIC, block, gen };
	uint32_t crc;

	if (!s)
		s = 1;
	for (size_t i = 0; i < SS; i += 8) {
		uint64_t v = rnd(&s);

		memcpy(buf + i, &v, 8);
	}
	memcpy(buf, hdr, sizeof(hdr));
	memcpy(buf + 24, &idx, 4);
	crc = sector_crc(buf);
	memcpy(buf + 28, &crc, 4);
}

/* Sectors @first.. (@n of them) of @block at generation @gen into @buf. */
static void fill(uint8_t *buf, uint64_t block, uint32_t first, uint32_t n,
		 uint64_t gen)
{
	for (uint32_t i = 0; i < n; i++)
		fill_sector(buf + i * SS, block, first + i, gen);
}

static int die(const char *what)
{
	fprintf(stderr, "crashio: %s: %s\n", what, strerror(errno));
	return 2;
}

/* Append records @rs[0..@n) to the log at slot *@seq on: -1 on failure. */
static int log_recs(int lfd, uint8_t *rb, const struct rec *rs, uint64_t n,
		    uint64_t *seq)
{
	for (uint64_t k = 0; k < n; k++) {
		memset(rb, 0, 512);
		memcpy(rb, &rs[k], sizeof(rs[k]));
		/* The next slot is invalid already (zero). */
		if (pwrite(lfd, rb, 512, (off_t)*seq * 512) != 512)
			return -1;
		(*seq)++;
	}
	return 0;
}

static int do_write(const char *dev, const char *logdev, uint64_t blocks,
		    uint64_t seed, uint64_t sync, uint64_t big, uint64_t sub)
{
	uint8_t *buf, *rb;
	uint64_t *gens, seq = 0, k, n = sync ? sync : 1;
	struct rec *rs;
	int fd, lfd;

	fd = open(dev, O_RDWR | O_DIRECT);
	lfd = open(logdev, O_RDWR | O_DIRECT | O_DSYNC);
	if (fd < 0 || lfd < 0)
		return die("open");
	gens = calloc(blocks, sizeof(*gens));
	if (sync || blocks < BIG_RUN)
		big = 0;
	if (sync)
		sub = 0;
	rs = calloc(n > BIG_RUN ? n : BIG_RUN, sizeof(*rs));
	if (posix_memalign((void **)&buf, BS, BIG_RUN * BS) ||
	    posix_memalign((void **)&rb, BS, 512) || !gens || !rs)
		return die("memory");
	/* An empty log: the first record slot invalid. */
	memset(rb, 0, 512);
	if (pwrite(lfd, rb, 512, 0) != 512)
		return die("log");
	printf("crashio: running\n");
	fflush(stdout);
	for (;;) {
		if (big && rnd(&seed) % big == 0) {
			uint64_t b0 = rnd(&seed) % (blocks - BIG_RUN + 1);

			for (k = 0; k < BIG_RUN; k++) {
				struct rec r = { MAGIC, seq + k, b0 + k,
						 ++gens[b0 + k], ALL, 0 };

				fill(buf + k * BS, b0 + k, 0, SPB, r.gen);
				r.crc = crc32c(0, &r, offsetof(struct rec, crc));
				rs[k] = r;
			}
			if (pwrite(fd, buf, BIG_RUN * BS, (off_t)b0 * BS) !=
			    BIG_RUN * BS)
				return die("big write");
			if (log_recs(lfd, rb, rs, BIG_RUN, &seq))
				return die("log write");
			continue;
		}
		if (sub && rnd(&seed) % sub == 0) {
			/* 1 to 7 sectors of one block, not all of it */
			uint64_t b = rnd(&seed) % blocks;
			uint32_t first = rnd(&seed) % SPB;
			uint32_t len = 1 + rnd(&seed) % (SPB - first -
							 (first == 0));
			struct rec r = { MAGIC, seq, b, ++gens[b],
					 ((1U << len) - 1) << first, 0 };

			fill(buf, b, first, len, r.gen);
			if (pwrite(fd, buf, len * SS,
				   (off_t)b * BS + first * SS) !=
			    (ssize_t)(len * SS))
				return die("sub-block write");
			r.crc = crc32c(0, &r, offsetof(struct rec, crc));
			if (log_recs(lfd, rb, &r, 1, &seq))
				return die("log write");
			continue;
		}
		for (k = 0; k < n; k++) {
			uint64_t b = rnd(&seed) % blocks;
			struct rec r = { MAGIC, seq + k, b, ++gens[b], ALL, 0 };

			fill(buf, b, 0, SPB, r.gen);
			if (pwrite(fd, buf, BS, (off_t)b * BS) != BS)
				return die("write");
			r.crc = crc32c(0, &r, offsetof(struct rec, crc));
			rs[k] = r;
		}
		if (sync && fsync(fd))
			return die("fsync");
		if (log_recs(lfd, rb, rs, n, &seq))
			return die("log write");
	}
}

/* Is slot @seq of the log, in @rb, a valid record?  Copies it to @r. */
static bool rec_ok(const uint8_t *rb, uint64_t seq, uint64_t blocks,
		   struct rec *r)
{
	memcpy(r, rb, sizeof(*r));
	return r->magic == MAGIC && r->seq == seq && r->block < blocks &&
	       r->mask && r->mask <= ALL &&
	       r->crc == crc32c(0, r, offsetof(struct rec, crc));
}

static int do_count(const char *logdev)
{
	uint8_t *rb;
	uint64_t seq;
	struct rec r;
	int lfd;

	lfd = open(logdev, O_RDONLY | O_DIRECT);
	if (lfd < 0)
		return die("open");
	if (posix_memalign((void **)&rb, BS, 512))
		return die("memory");
	for (seq = 0; pread(lfd, rb, 512, (off_t)seq * 512) == 512 &&
		      rec_ok(rb, seq, UINT64_MAX, &r); seq++)
		;
	printf("%" PRIu64 "\n", seq);
	return 0;
}

/* Is block @b in one of the ranges of CRASHIO_SKIP? */
static bool skipped(uint64_t b)
{
	const char *p = getenv("CRASHIO_SKIP");
	char *end;

	while (p && *p) {
		uint64_t first, last;

		while (*p == ' ')
			p++;
		if (!*p)
			break;
		first = strtoull(p, &end, 0);
		last = *end == '-' ? strtoull(end + 1, &end, 0) : first;
		if (end == p) {
			fprintf(stderr, "crashio: CRASHIO_SKIP: bad range at '%s'\n", p);
			exit(2);
		}
		if (b >= first && b <= last)
			return true;
		p = end;
	}
	return false;
}

static int do_verify(const char *dev, const char *logdev, uint64_t blocks,
		     uint64_t limit)
{
	uint8_t *buf, *rb;
	uint64_t *gens, seq, checked = 0, sectors = 0, newer = 0, bad = 0;
	uint64_t skip = 0;
	int fd, lfd;

	fd = open(dev, O_RDONLY | O_DIRECT);
	lfd = open(logdev, O_RDONLY | O_DIRECT);
	if (fd < 0 || lfd < 0)
		return die("open");
	/* per sector: the last generation logged for it (0: none) */
	gens = calloc(blocks * SPB, sizeof(*gens));
	if (posix_memalign((void **)&buf, BS, BS) ||
	    posix_memalign((void **)&rb, BS, 512) || !gens)
		return die("memory");
	for (seq = 0; seq < limit; seq++) {
		struct rec r;

		if (pread(lfd, rb, 512, (off_t)seq * 512) != 512)
			break;
		if (!rec_ok(rb, seq, blocks, &r))
			break;
		for (uint32_t i = 0; i < SPB; i++)
			if (r.mask & (1U << i))
				gens[r.block * SPB + i] = r.gen;
	}
	for (uint64_t b = 0; b < blocks; b++) {
		const uint64_t *want = gens + b * SPB;
		bool any = false;

		for (uint32_t i = 0; i < SPB; i++)
			any |= want[i] != 0;
		if (!any)
			continue;
		if (skipped(b)) {
			skip++;
			continue;
		}
		checked++;
		if (pread(fd, buf, BS, (off_t)b * BS) != BS)
			return die("read");
		for (uint32_t i = 0; i < SPB; i++) {
			const uint8_t *sp = buf + i * SS;
			uint64_t hdr[3];
			uint32_t idx, crc;

			if (!want[i])
				continue;
			sectors++;
			memcpy(hdr, sp, sizeof(hdr));
			memcpy(&idx, sp + 24, 4);
			memcpy(&crc, sp + 28, 4);
			if (hdr[0] != MAGIC || hdr[1] != b || idx != i ||
			    crc != sector_crc(sp)) {
				printf("crashio: block %" PRIu64 " sector %u: not a valid sector (gen %" PRIu64 " acknowledged)\n",
				       b, i, want[i]);
				bad++;
			} else if (hdr[2] < want[i]) {
				printf("crashio: block %" PRIu64 " sector %u: generation %" PRIu64 ", but %" PRIu64 " was acknowledged\n",
				       b, i, hdr[2], want[i]);
				bad++;
			} else if (hdr[2] > want[i]) {
				newer++;
			}
		}
	}
	printf("crashio: %" PRIu64 " log records, %" PRIu64 " blocks (%" PRIu64 " sectors) checked, %" PRIu64 " sectors newer than logged, %" PRIu64 " bad",
	       seq, checked, sectors, newer, bad);
	if (skip)
		printf(", %" PRIu64 " blocks not checked (CRASHIO_SKIP)", skip);
	putchar('\n');
	return bad || !seq ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc >= 5 && !strcmp(argv[1], "write"))
		return do_write(argv[2], argv[3], strtoull(argv[4], NULL, 0),
				argc > 5 ? strtoull(argv[5], NULL, 0) | 1 : 88172645463325252ULL,
				argc > 6 ? strtoull(argv[6], NULL, 0) : 0,
				argc > 7 ? strtoull(argv[7], NULL, 0) : 0,
				argc > 8 ? strtoull(argv[8], NULL, 0) : 0);
	if ((argc == 5 || argc == 6) && !strcmp(argv[1], "verify"))
		return do_verify(argv[2], argv[3], strtoull(argv[4], NULL, 0),
				 argc > 5 ? strtoull(argv[5], NULL, 0) : UINT64_MAX);
	if (argc == 3 && !strcmp(argv[1], "count"))
		return do_count(argv[2]);
	fprintf(stderr, "usage: crashio write DEV LOGDEV BLOCKS [SEED [SYNC [BIG [SUB]]]] | verify DEV LOGDEV BLOCKS [RECORDS] | count LOGDEV\n");
	return 2;
}
