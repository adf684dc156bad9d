// SPDX-License-Identifier: GPL-2.0
/*
 * logreplay - crash states of a member with a volatile write cache, from
 * the logs of the kit's recorder vraid-record (tests/vm/kmod/
 * vraid-record.c) or of the kernel's dm-log-writes (tests/vm/crash/
 * states.sh, Documentation/testing.rst "Crash states").
 *
 * Either target passes writes to its data device and records each one,
 * with its data, on a log device, in dm-log-writes' format
 * (Documentation/admin-guide/device-mapper/log-writes.rst).  The log is a super block in the first
 * sector, then per entry one sector of header (sector, count, flags, the
 * text of a MARK) followed by the count sectors of data written (none for
 * a DISCARD, a FLUSH without data or a MARK).  Sectors are the data
 * device's logical blocks (the super says how large).
 *
 * The order of vraid-record's log (its top comment argues it): a write
 * (FUA or not, or a discard) is logged when it completes, before it
 * completes upward; a flush's FLUSH entry comes after the writes that
 * completed before the flush was sent and before those that completed
 * while it was in flight (they are held until it completed); a mark
 * comes after the writes completed before the message.  So every entry
 * before a FLUSH entry was durable once that flush completed, a FUA
 * write from its entry on, and a mark taken while nothing is in flight
 * is a consistent cut.  The table's destructor logs the mark
 * "vraid-record-end".
 *
 * The order of the log, as drivers/md/dm-log-writes.c (6.1) makes it:
 *  - a write without FUA is logged only when a flush covers it: when it
 *    completes it goes on a list of unflushed writes; a flush (PREFLUSH)
 *    takes that list when it is *submitted*, and when the flush
 *    *completes* the list is logged and then the FLUSH entry.  So a
 *    FLUSH entry comes right after the writes it covers (those that
 *    completed before it was sent), and every entry before a FLUSH entry
 *    was durable once that flush completed.  A write that completed
 *    while the flush was in flight is logged after the FLUSH entry, with
 *    the next one.
 *  - a FUA write (without PREFLUSH) is logged when it completes: durable
 *    from there on, but it does not make earlier entries durable.  So a
 *    plain write that completed before a FUA write of the same sectors
 *    was sent comes after it in the log, and "log order" below writes
 *    the older data over the newer (testing.rst, "Crash states": why
 *    the 5j and 6j kinds fail on it and the crash states record with
 *    vraid-record).
 *  - a MARK (`dmsetup message DEV 0 mark NAME`) is logged when the
 *    message comes: writes that had completed by then but that no flush
 *    covered yet are *not* before it; they are logged after it, with the
 *    next flush.  A mark is therefore not a consistent cut of a member
 *    that holds unflushed writes.  The table's destructor (a reload or
 *    remove) logs the unflushed writes and then the mark
 *    "dm-log-writes-end": the end of a log so ended is a consistent cut
 *    (states.sh cuts that way: suspend every member, reload each with a
 *    new log device, resume).
 *  - a DISCARD is logged as a write without FUA; a PREFLUSH write with
 *    data is logged after the writes its flush covers, and its own data
 *    is durable only if it has FUA too (else it is taken as covered by
 *    the next FLUSH entry: the log cannot say whether that flush was sent
 *    after it completed).
 *  - the super's entry count is written after FUA and MARK entries only,
 *    so it is exact for a log whose table was destroyed.
 *
 * The crash state at a cut (the first N entries; a named mark; the end of
 * the logs): everything up to and including the last FLUSH entry before
 * the cut is on the media; after it, FUA writes are on the media (each
 * completed); each other write after it was in the volatile cache, which
 * may have written back any subset of them: none, all, or a subset
 * chosen from a seed.  Kept writes are applied in log order, each whole.
 * Several logs are read as one stream, in the order given (the segments
 * of a member between cuts).  A cut by entry index inside a log of a
 * running target is approximate (writes completed but not flushed are
 * not in the log yet and count as lost; a flush that completed before an
 * earlier-sent one may make writes logged after it durable): exact cuts
 * are log ends and marks taken while nothing is in flight and nothing is
 * unflushed.
 *
 * usage: logreplay info LOG...
 *        logreplay list [--marks|--flushes] LOG...
 *        logreplay cut [--cut CUT] LOG...
 *        logreplay replay --target DEV [--cut CUT] [--keep none|all|SEED]
 *                         [-v] LOG...
 * CUT: end (the default), mark:NAME (the first mark NAME), entry:N (the
 * first N entries).  Exit status: 0 done, 1 the logs are not valid
 * dm-log-writes logs or the cut is not in them, 2 usage, 3 an I/O error on
 * the target.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/fs.h>

#define LW_MAGIC	0x6a736677736872ULL
#define LW_VERSION	1ULL

#define F_FLUSH		(1U << 0)
#define F_FUA		(1U << 1)
#define F_DISCARD	(1U << 2)
#define F_MARK		(1U << 3)
#define F_META		(1U << 4)

#define EX_LOG		1
#define EX_USAGE	2
#define EX_TARGET	3

/* On the log, little-endian (the VM and the host are x86). */
struct lw_super {
	uint64_t magic;
	uint64_t version;
	uint64_t nr_entries;
	uint32_t sectorsize;
} __attribute__((packed));

struct lw_entry_hdr {
	uint64_t sector;
	uint64_t nr_sectors;
	uint64_t flags;
	uint64_t data_len;
};

/* One entry, as read from the logs. */
struct entry {
	uint64_t sector;	/* data device sectors (ss bytes) */
	uint64_t nr;
	uint32_t flags;
	int log;		/* index into logs[] */
	uint64_t pos;		/* byte offset of its data on that log */
	char *mark;		/* MARK text, else NULL */
};

static const char *prog = "logreplay";
static int nlogs;
static const char **lognames;
static int *logfds;
static uint32_t ss;		/* sector size of every log */
static struct entry *ents;
static uint64_t nents;

static void usage(void)
{
	fprintf(stderr,
		"usage: logreplay info LOG...\n"
		"       logreplay list [--marks|--flushes] LOG...\n"
		"       logreplay cut [--cut CUT] LOG...\n"
		"       logreplay replay --target DEV [--cut CUT] [--keep none|all|SEED] [-v] LOG...\n"
		"CUT: end (default), mark:NAME, entry:N\n");
	exit(EX_USAGE);
}

static void die(int code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));

static void die(int code, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(code);
}

static uint64_t file_size(int fd)
{
	struct stat st;
	uint64_t sz;

	if (fstat(fd, &st))
		return 0;
	if (S_ISBLK(st.st_mode)) {
		if (ioctl(fd, BLKGETSIZE64, &sz))
			return 0;
		return sz;
	}
	return st.st_size;
}

static void read_exact(int l, void *buf, size_t len, uint64_t off)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = pread(logfds[l], (char *)buf + done, len - done,
				  off + done);

		if (n < 0)
			die(EX_LOG, "%s: read at byte %" PRIu64 ": %s",
			    lognames[l], off + done, strerror(errno));
		if (n == 0)
			die(EX_LOG, "%s: truncated: nothing at byte %" PRIu64
			    " (the log says there is more)",
			    lognames[l], off + done);
		done += n;
	}
}

static void load_logs(int argc, char **argv)
{
	uint64_t cap = 0;
	char *hdr;
	int l;

	if (argc < 1)
		usage();
	nlogs = argc;
	lognames = (const char **)argv;
	logfds = calloc(nlogs, sizeof(*logfds));
	if (!logfds)
		die(EX_LOG, "out of memory");
	for (l = 0; l < nlogs; l++) {
		struct lw_super sb;
		uint64_t pos, size, i;

		logfds[l] = open(argv[l], O_RDONLY);
		if (logfds[l] < 0)
			die(EX_LOG, "%s: %s", argv[l], strerror(errno));
		/* a log device read earlier may have changed under its cache */
		posix_fadvise(logfds[l], 0, 0, POSIX_FADV_DONTNEED);
		size = file_size(logfds[l]);
		read_exact(l, &sb, sizeof(sb), 0);
		if (sb.magic != LW_MAGIC)
			die(EX_LOG, "%s: not a dm-log-writes log (magic %#" PRIx64
			    "; a log gets its super block with its first FUA write or mark, or when its table goes)",
			    argv[l], sb.magic);
		if (sb.version != LW_VERSION)
			die(EX_LOG, "%s: log version %" PRIu64 ", only %llu is known",
			    argv[l], sb.version, LW_VERSION);
		if (sb.sectorsize < 512 || sb.sectorsize > 65536 ||
		    (sb.sectorsize & (sb.sectorsize - 1)))
			die(EX_LOG, "%s: sector size %u", argv[l], sb.sectorsize);
		if (ss && sb.sectorsize != ss)
			die(EX_LOG, "%s: sector size %u, the logs before it %u",
			    argv[l], sb.sectorsize, ss);
		ss = sb.sectorsize;
		hdr = malloc(ss);
		if (!hdr)
			die(EX_LOG, "out of memory");
		pos = ss;
		for (i = 0; i < sb.nr_entries; i++) {
			struct lw_entry_hdr h;
			struct entry *e;

			read_exact(l, hdr, ss, pos);
			memcpy(&h, hdr, sizeof(h));
			if (h.flags & ~(uint64_t)(F_FLUSH | F_FUA | F_DISCARD |
						  F_MARK | F_META))
				die(EX_LOG, "%s: entry %" PRIu64 " (byte %" PRIu64
				    "): unknown flags %#" PRIx64,
				    argv[l], i, pos, h.flags);
			if ((h.flags & F_MARK) &&
			    (h.nr_sectors || h.data_len > ss - sizeof(h)))
				die(EX_LOG, "%s: entry %" PRIu64 ": a mark with %" PRIu64
				    " sectors and %" PRIu64 " bytes of text",
				    argv[l], i, h.nr_sectors, h.data_len);
			if (nents == cap) {
				cap = cap ? cap * 2 : 4096;
				ents = realloc(ents, cap * sizeof(*ents));
				if (!ents)
					die(EX_LOG, "out of memory");
			}
			e = &ents[nents++];
			e->sector = h.sector;
			e->nr = h.nr_sectors;
			e->flags = h.flags;
			e->log = l;
			e->mark = NULL;
			pos += ss;
			e->pos = pos;
			if (h.flags & F_MARK) {
				e->mark = strndup(hdr + sizeof(h), h.data_len);
				if (!e->mark)
					die(EX_LOG, "out of memory");
			} else if (!(h.flags & F_DISCARD)) {
				pos += h.nr_sectors * ss;
			}
			if (size && pos > size)
				die(EX_LOG, "%s: entry %" PRIu64 " ends at byte %" PRIu64
				    ", past the log's end (%" PRIu64 ")",
				    argv[l], i, pos, size);
		}
		free(hdr);
	}
}

/* A write: an entry that changes the data device. */
static bool is_write(const struct entry *e)
{
	return !(e->flags & F_MARK) && e->nr;
}

static const char *flagstr(uint32_t f)
{
	static char buf[64];

	buf[0] = 0;
	if (f & F_FLUSH)
		strcat(buf, "FLUSH|");
	if (f & F_FUA)
		strcat(buf, "FUA|");
	if (f & F_DISCARD)
		strcat(buf, "DISCARD|");
	if (f & F_MARK)
		strcat(buf, "MARK|");
	if (f & F_META)
		strcat(buf, "META|");
	if (!buf[0])
		strcpy(buf, "WRITE|");
	buf[strlen(buf) - 1] = 0;
	return buf;
}

/* The cut: how many entries happened before it. */
static uint64_t parse_cut(const char *cut)
{
	uint64_t i;
	char *end;

	if (!strcmp(cut, "end"))
		return nents;
	if (!strncmp(cut, "mark:", 5)) {
		for (i = 0; i < nents; i++)
			if (ents[i].mark && !strcmp(ents[i].mark, cut + 5))
				return i;
		die(EX_LOG, "no mark '%s' in the logs", cut + 5);
	}
	if (!strncmp(cut, "entry:", 6)) {
		errno = 0;
		i = strtoull(cut + 6, &end, 10);
		if (errno || end == cut + 6 || *end)
			die(EX_USAGE, "bad cut '%s' (entry:N)", cut);
		if (i > nents)
			die(EX_LOG, "cut at entry %" PRIu64 ", the logs have %" PRIu64,
			    i, nents);
		return i;
	}
	die(EX_USAGE, "bad cut '%s': end, mark:NAME or entry:N", cut);
}

/* What the state at cut @c is made of. */
struct plan {
	uint64_t cut;		/* entries [0, cut) happened */
	int64_t flush;		/* the last FLUSH entry before the cut, or -1 */
	uint64_t durable;	/* writes durable through that flush */
	uint64_t fua;		/* FUA writes after it, kept */
	uint64_t vol;		/* other writes after it: volatile */
};

static bool volatile_at(const struct plan *p, uint64_t i)
{
	const struct entry *e = &ents[i];

	if (!is_write(e))
		return false;
	if ((int64_t)i < p->flush)
		return false;
	if ((int64_t)i == p->flush)	/* the flush's own data */
		return !(e->flags & F_FUA);
	return !(e->flags & F_FUA);
}

static void make_plan(struct plan *p, uint64_t cut)
{
	uint64_t i;

	memset(p, 0, sizeof(*p));
	p->cut = cut;
	p->flush = -1;
	for (i = 0; i < cut; i++)
		if (ents[i].flags & F_FLUSH)
			p->flush = i;
	for (i = 0; i < cut; i++) {
		if (!is_write(&ents[i]))
			continue;
		if (volatile_at(p, i))
			p->vol++;
		else if ((int64_t)i > p->flush)
			p->fua++;
		else
			p->durable++;
	}
}

static int cmd_info(int argc, char **argv)
{
	uint64_t i, w = 0, fua = 0, fl = 0, d = 0, m = 0, bytes = 0;

	load_logs(argc, argv);
	for (i = 0; i < nents; i++) {
		const struct entry *e = &ents[i];

		if (e->flags & F_MARK)
			m++;
		if (e->flags & F_FLUSH)
			fl++;
		if (e->flags & F_DISCARD)
			d++;
		else if (is_write(e))
			bytes += e->nr * ss;
		if (is_write(e))
			w++;
		if (is_write(e) && (e->flags & F_FUA))
			fua++;
	}
	printf("logs %d sectorsize %u entries %" PRIu64 " writes %" PRIu64
	       " fua %" PRIu64 " flushes %" PRIu64 " discards %" PRIu64
	       " marks %" PRIu64 " bytes %" PRIu64 "\n",
	       nlogs, ss, nents, w, fua, fl, d, m, bytes);
	return 0;
}

static int cmd_list(int argc, char **argv)
{
	int what = 0;	/* 1 marks, 2 flushes */
	uint64_t i;

	if (argc && !strcmp(argv[0], "--marks"))
		what = 1;
	else if (argc && !strcmp(argv[0], "--flushes"))
		what = 2;
	if (what) {
		argc--;
		argv++;
	}
	load_logs(argc, argv);
	for (i = 0; i < nents; i++) {
		const struct entry *e = &ents[i];

		if (what == 1 && !e->mark)
			continue;
		if (what == 2 && !(e->flags & F_FLUSH))
			continue;
		if (what == 1) {
			printf("%" PRIu64 " %s\n", i, e->mark);
			continue;
		}
		printf("%" PRIu64 " %s %" PRIu64 "+%" PRIu64 "%s%s\n", i,
		       flagstr(e->flags), e->sector, e->nr,
		       e->mark ? " " : "", e->mark ? e->mark : "");
	}
	return 0;
}

static int cmd_cut(int argc, char **argv)
{
	const char *cut = "end";
	struct plan p;

	if (argc >= 2 && !strcmp(argv[0], "--cut")) {
		cut = argv[1];
		argc -= 2;
		argv += 2;
	}
	load_logs(argc, argv);
	make_plan(&p, parse_cut(cut));
	printf("cut %" PRIu64 " flush %" PRId64 " durable %" PRIu64
	       " fua %" PRIu64 " volatile %" PRIu64 "\n",
	       p.cut, p.flush, p.durable, p.fua, p.vol);
	return 0;
}

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s * 0x2545f4914f6cdd1dULL;
}

static void write_exact(int fd, const char *name, const void *buf, size_t len,
			uint64_t off)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = pwrite(fd, (const char *)buf + done, len - done,
				   off + done);

		if (n <= 0)
			die(EX_TARGET, "%s: write at byte %" PRIu64 ": %s", name,
			    off + done, n < 0 ? strerror(errno) : "no space");
		done += n;
	}
}

static int cmd_replay(int argc, char **argv)
{
	const char *cut = "end", *keep = "none", *target = NULL;
	uint64_t i, seed = 0, p1000 = 0, kept = 0, tsize;
	bool verbose = false, random = false;
	size_t buflen = 1 << 20;
	struct plan p;
	char *buf;
	int fd;

	while (argc && argv[0][0] == '-') {
		if (!strcmp(argv[0], "-v")) {
			verbose = true;
			argc--;
			argv++;
			continue;
		}
		if (argc < 2)
			usage();
		if (!strcmp(argv[0], "--cut"))
			cut = argv[1];
		else if (!strcmp(argv[0], "--keep"))
			keep = argv[1];
		else if (!strcmp(argv[0], "--target"))
			target = argv[1];
		else
			usage();
		argc -= 2;
		argv += 2;
	}
	if (!target)
		die(EX_USAGE, "replay needs --target DEV");
	if (strcmp(keep, "none") && strcmp(keep, "all")) {
		char *end;

		errno = 0;
		seed = strtoull(keep, &end, 0);
		if (errno || end == keep || *end)
			die(EX_USAGE, "--keep none, all or a seed (a number), not '%s'",
			    keep);
		random = true;
		/* the seed picks the odds too: subsets near none and near all */
		seed = seed * 0x9e3779b97f4a7c15ULL + 0x632be59bd9b4e019ULL;
		if (!seed)
			seed = 1;
		p1000 = rnd(&seed) % 1001;
	}
	load_logs(argc, argv);
	make_plan(&p, parse_cut(cut));

	fd = open(target, O_RDWR);
	if (fd < 0)
		die(EX_TARGET, "%s: %s", target, strerror(errno));
	tsize = file_size(fd);
	buf = malloc(buflen);
	if (!buf)
		die(EX_TARGET, "out of memory");
	for (i = 0; i < p.cut; i++) {
		const struct entry *e = &ents[i];
		uint64_t off, left, src;
		bool take = true;

		if (!is_write(e))
			continue;
		if (volatile_at(&p, i)) {
			if (random)
				take = rnd(&seed) % 1000 < p1000;
			else
				take = !strcmp(keep, "all");
			if (take)
				kept++;
			if (verbose)
				printf("%s entry %" PRIu64 " %s %" PRIu64 "+%" PRIu64 "\n",
				       take ? "keep" : "drop", i, flagstr(e->flags),
				       e->sector, e->nr);
		}
		if (!take)
			continue;
		off = e->sector * ss;
		left = e->nr * ss;
		if (tsize && off + left > tsize)
			die(EX_TARGET, "%s: entry %" PRIu64 " writes bytes %" PRIu64
			    "-%" PRIu64 ", past its end (%" PRIu64
			    "): a target as large as the logged device is needed",
			    target, i, off, off + left, tsize);
		src = e->pos;
		if (e->flags & F_DISCARD)
			memset(buf, 0, buflen);	/* a discard reads zeros */
		while (left) {
			size_t n = left < buflen ? left : buflen;

			if (!(e->flags & F_DISCARD))
				read_exact(e->log, buf, n, src);
			write_exact(fd, target, buf, n, off);
			off += n;
			src += n;
			left -= n;
		}
	}
	if (fsync(fd))
		die(EX_TARGET, "%s: fsync: %s", target, strerror(errno));
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	close(fd);
	printf("logreplay: %s: cut at entry %" PRIu64 " (%s): %" PRIu64
	       " writes durable through FLUSH entry %" PRId64 ", %" PRIu64
	       " FUA writes after it, %" PRIu64 " of %" PRIu64
	       " volatile writes kept (%s)\n",
	       target, p.cut, cut, p.durable, p.flush, p.fua, kept, p.vol, keep);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		usage();
	if (!strcmp(argv[1], "info"))
		return cmd_info(argc - 2, argv + 2);
	if (!strcmp(argv[1], "list"))
		return cmd_list(argc - 2, argv + 2);
	if (!strcmp(argv[1], "cut"))
		return cmd_cut(argc - 2, argv + 2);
	if (!strcmp(argv[1], "replay"))
		return cmd_replay(argc - 2, argv + 2);
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))
		usage();
	die(EX_USAGE, "unknown command '%s' (info, list, cut, replay)", argv[1]);
}
