// SPDX-License-Identifier: GPL-2.0
/*
 * pqref - an oracle for vraid's redundancy that shares no parity code with
 * the module: it reads the members' raw data areas and checks that every
 * P block is the XOR of its row's data, every Q block the RAID-6 syndrome
 * computed here with a naive GF(2^8), every mirror copy equal to the
 * others, and (with --vd) every data block equal to the bytes that were
 * written to the VD.  Where the blocks are comes from driver/core/layout.c (md
 * is the oracle for that); what they must contain is computed here.
 *
 *	pqref check --level 1|10|5|6|50|60 --strip BYTES [--spans N]
 *		    [--rows R] [--vd FILE] [--data-offset SECTORS]
 *		    [--max-report N] [-q] MEMBER...
 *
 * MEMBERs are block devices or image files, in role order.  The data area
 * of each starts at --data-offset sectors (default VRAID_DATA_OFFSET_SECTORS);
 * the geometry is vraid's for the smallest member.  --rows limits the check
 * to the first R stripe rows (per span; strips of the members for RAID1/10),
 * 0 or absent means all.  --vd FILE holds the data written to the VD from
 * its sector 0; data blocks past its end are not compared.
 *
 * Prints each mismatch (span, stripe, member, first differing byte) and a
 * summary.  Exit status: 0 all match, 1 a mismatch, 2 usage or I/O error.
 *
 * The GF(2^8) part (gf_*) is also compiled into tests/unit/test_gf.c with
 * PQREF_NO_MAIN defined.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE		/* O_DIRECT */
#endif
#include "core_types.h"
#include <linux/vraid.h>
#include "geom.h"
#include "layout.h"

/* ---- naive GF(2^8): polynomial 0x11d, generator 2, as lib/raid6 -------- */

#define GF_POLY		0x11d

/* Shift-and-add multiplication, reducing by the polynomial. */
static u8 gf_mul(u8 a, u8 b)
{
	unsigned int x = a, r = 0;

	while (b) {
		if (b & 1)
			r ^= x;
		b >>= 1;
		x <<= 1;
		if (x & 0x100)
			x ^= GF_POLY;
	}
	return (u8)r;
}

/* a^e by repeated multiplication (a^0 = 1) */
static u8 gf_pow(u8 a, unsigned int e)
{
	u8 r = 1;

	while (e--)
		r = gf_mul(r, a);
	return r;
}

/* Multiplicative inverse by search; 0 has none and gives 0. */
static u8 gf_inv(u8 a)
{
	unsigned int b;

	for (b = 1; b < 256; b++)
		if (gf_mul(a, (u8)b) == 1)
			return (u8)b;
	return 0;
}

/* tab[x] = c * x */
static void gf_mul_table(u8 c, u8 tab[256])
{
	unsigned int x;

	for (x = 0; x < 256; x++)
		tab[x] = gf_mul(c, (u8)x);
}

/*
 * P and Q of @ndata blocks of @len bytes, data[i] having coefficient 2^i:
 * P = sum D_i, Q = sum 2^i * D_i.  A NULL data[i] counts as zeros; @p or
 * @q may be NULL.
 */
static void gf_syndrome(const u8 *const *data, unsigned int ndata, size_t len,
			u8 *p, u8 *q)
{
	u8 tab[256];
	unsigned int i;
	size_t j;

	if (p)
		memset(p, 0, len);
	if (q)
		memset(q, 0, len);
	for (i = 0; i < ndata; i++) {
		if (!data[i])
			continue;
		gf_mul_table(gf_pow(2, i), tab);
		for (j = 0; j < len; j++) {
			if (p)
				p[j] ^= data[i][j];
			if (q)
				q[j] ^= tab[data[i][j]];
		}
	}
}

/*
 * Rebuild data blocks @x != @y of @ndata from the others, P and Q:
 * with Pxy = Dx ^ Dy and Qxy = 2^x Dx ^ 2^y Dy (the syndromes without
 * them), Dx = (Qxy ^ 2^y Pxy) / (2^x ^ 2^y) and Dy = Pxy ^ Dx.  The old
 * contents of data[x] and data[y] are ignored.
 */
static void gf_recover2(u8 **data, unsigned int ndata, size_t len,
			unsigned int x, unsigned int y, const u8 *p,
			const u8 *q)
{
	u8 gy[256], den[256];
	u8 gx2 = gf_pow(2, x), gy2 = gf_pow(2, y);
	u8 *dx = data[x], *dy = data[y];
	size_t j;

	data[x] = NULL;
	data[y] = NULL;
	gf_syndrome((const u8 *const *)data, ndata, len, dx, dy);
	data[x] = dx;
	data[y] = dy;
	gf_mul_table(gy2, gy);
	gf_mul_table(gf_inv(gx2 ^ gy2), den);
	for (j = 0; j < len; j++) {
		u8 pxy = dx[j] ^ p[j];
		u8 qxy = dy[j] ^ q[j];

		dx[j] = den[qxy ^ gy[pxy]];
		dy[j] = pxy ^ dx[j];
	}
}

/*
 * Rebuild data block @x (and P, if @p is not NULL) from the others and Q:
 * Dx = (Q ^ Qx) / 2^x, Qx being the syndrome without it.
 */
static void gf_recover_data_p(u8 **data, unsigned int ndata, size_t len,
			      unsigned int x, u8 *p, const u8 *q)
{
	u8 inv[256];
	u8 *dx = data[x];
	size_t j;

	data[x] = NULL;
	gf_syndrome((const u8 *const *)data, ndata, len, NULL, dx);
	data[x] = dx;
	gf_mul_table(gf_inv(gf_pow(2, x)), inv);
	for (j = 0; j < len; j++)
		dx[j] = inv[dx[j] ^ q[j]];
	if (p)
		gf_syndrome((const u8 *const *)data, ndata, len, p, NULL);
}

#ifndef PQREF_NO_MAIN

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/fs.h>

struct member {
	const char *path;
	int fd;
	u64 sectors;		/* whole device or file */
};

static struct {
	u32 level, strip_bytes, spans;
	u64 rows;
	u64 data_offset;	/* sectors */
	const char *vd_path;
	unsigned long max_report;
	bool quiet;
} opt = {
	.data_offset = VRAID_DATA_OFFSET_SECTORS,
	.max_report = 20,
};

static struct vraid_geom g;
static struct member *mem;
static u32 nr_mem;
static int vd_fd = -1;
static u64 vd_bytes;
static unsigned long mismatches, reported;
static u64 blocks_checked, data_checked;

static void __attribute__((noreturn, format(printf, 1, 2)))
die(const char *fmt, ...)
{
	va_list ap;

	fputs("pqref: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

static void __attribute__((format(printf, 1, 2)))
mismatch(const char *fmt, ...)
{
	va_list ap;

	mismatches++;
	if (reported >= opt.max_report)
		return;
	if (++reported == opt.max_report)
		printf("pqref: (not reporting more than %lu mismatches)\n",
		       opt.max_report);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

static void usage(void)
{
	fprintf(stderr,
		"usage: pqref selftest\n"
		"       pqref check --level 1|10|5|6|50|60 --strip BYTES [--spans N]\n"
		"                         [--rows R] [--vd FILE] [--data-offset SECTORS]\n"
		"                         [--max-report N] [-q] MEMBER...\n"
		"Checks the parity (P, Q) or the mirror copies in the members' data\n"
		"areas, and with --vd the data blocks against FILE, the data written\n"
		"to the VD from sector 0.  Exit 0 if all match, 1 if not, 2 on errors.\n");
	exit(2);
}

static u64 parse_u64(const char *what, const char *s)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *end || *s == '-')
		die("%s: '%s' is not a number", what, s);
	return v;
}

static u32 parse_u32(const char *what, const char *s)
{
	u64 v = parse_u64(what, s);

	if (v > 0xffffffffULL)
		die("%s: %s is too large", what, s);
	return (u32)v;
}

static u32 parse_level(const char *s)
{
	if (!strncmp(s, "raid", 4))
		s += 4;
	return parse_u32("--level", s);
}

static void *xalloc(size_t len)
{
	void *p;

	if (posix_memalign(&p, 4096, len))
		die("out of memory for %zu bytes", len);
	return p;
}

/* O_DIRECT, so the page cache of the members cannot hide what is on them */
static int open_member(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECT);

	if (fd < 0 && errno == EINVAL)
		fd = open(path, O_RDONLY);
	if (fd < 0)
		die("cannot open %s: %s", path, strerror(errno));
	return fd;
}

static u64 size_bytes(int fd, const char *path)
{
	struct stat st;
	u64 bytes;

	if (fstat(fd, &st))
		die("cannot stat %s: %s", path, strerror(errno));
	if (S_ISBLK(st.st_mode)) {
		if (ioctl(fd, BLKGETSIZE64, &bytes))
			die("cannot get the size of %s: %s", path,
			    strerror(errno));
		return bytes;
	}
	return (u64)st.st_size;
}

static void read_full(int fd, const char *path, void *buf, size_t len,
		      u64 off)
{
	size_t done = 0;

	while (done < len) {
		ssize_t r = pread(fd, (char *)buf + done, len - done,
				  (off_t)(off + done));

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			die("read of %zu bytes at byte %llu of %s failed: %s",
			    len - done, (unsigned long long)(off + done), path,
			    strerror(errno));
		if (r == 0)
			die("%s ends at byte %llu, %zu bytes short", path,
			    (unsigned long long)(off + done), len - done);
		done += (size_t)r;
	}
}

/* @len bytes at member sector @sector of member @m's data area */
static void read_member(u32 m, u64 sector, void *buf, size_t len)
{
	read_full(mem[m].fd, mem[m].path, buf, len,
		  (opt.data_offset + sector) * 512);
}

/* first byte where @a and @b differ, or @len */
static size_t first_diff(const u8 *a, const u8 *b, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (a[i] != b[i])
			break;
	return i;
}

/*
 * Compare @len bytes of @block, at VD sector @vsector, with the VD file
 * (as far as it goes).  Returns 1 if compared.
 */
static unsigned long check_vd(const u8 *block, size_t len, u64 vsector,
			      u8 *vbuf, const char *where)
{
	u64 off = vsector * 512;
	size_t n, i;

	if (vd_fd < 0 || off >= vd_bytes)
		return 0;
	n = vd_bytes - off < len ? (size_t)(vd_bytes - off) : len;
	read_full(vd_fd, opt.vd_path, vbuf, n, off);
	i = first_diff(block, vbuf, n);
	if (i < n)
		mismatch("%s differs from the VD file at block byte %zu (VD sector %llu): has 0x%02x, want 0x%02x\n",
			 where, i, (unsigned long long)(vsector + i / 512),
			 block[i], vbuf[i]);
	return 1;
}

static void check_parity(void)
{
	u32 width = vraid_layout_span_width(&g);
	u32 nd = vraid_layout_span_data(&g);
	size_t strip = (size_t)g.strip_sectors * 512;
	u64 r;
	u8 **buf = calloc(width, sizeof(*buf));
	const u8 **data = calloc(nd, sizeof(*data));
	u8 *p = xalloc(strip), *q = xalloc(strip), *vbuf = xalloc(strip);
	char where[160];
	u32 s, m, i;

	if (!buf || !data)
		die("out of memory");
	for (m = 0; m < width; m++)
		buf[m] = xalloc(strip);

	for (r = 0; r < opt.rows; r++) {
		for (s = 0; s < g.spans; s++) {
			u32 pm = vraid_layout_p_member(&g, s, r);
			u32 qm = vraid_layout_q_member(&g, s, r);
			size_t at;

			for (m = 0; m < width; m++)
				read_member(s * width + m, r * g.strip_sectors,
					    buf[m], strip);
			for (i = 0; i < nd; i++)
				data[i] = buf[vraid_layout_data_member(&g, s, r,
								       i) -
					      s * width];
			gf_syndrome(data, nd, strip, p,
				    qm == VRAID_NO_MEMBER ? NULL : q);

			at = first_diff(buf[pm - s * width], p, strip);
			if (at < strip)
				mismatch("span %u stripe %llu: P on member %u (%s) differs at strip byte %zu: has 0x%02x, want 0x%02x\n",
					 s, (unsigned long long)r, pm,
					 mem[pm].path, at,
					 buf[pm - s * width][at], p[at]);
			blocks_checked++;
			if (qm != VRAID_NO_MEMBER) {
				at = first_diff(buf[qm - s * width], q, strip);
				if (at < strip)
					mismatch("span %u stripe %llu: Q on member %u (%s) differs at strip byte %zu: has 0x%02x, want 0x%02x\n",
						 s, (unsigned long long)r, qm,
						 mem[qm].path, at,
						 buf[qm - s * width][at],
						 q[at]);
				blocks_checked++;
			}
			for (i = 0; i < nd; i++) {
				m = vraid_layout_data_member(&g, s, r, i);
				snprintf(where, sizeof(where),
					 "span %u stripe %llu: data %u on member %u (%s)",
					 s, (unsigned long long)r, i, m,
					 mem[m].path);
				data_checked += check_vd(data[i], strip,
						vraid_layout_vsector(&g, s, r,
								     i, 0),
						vbuf, where);
			}
		}
	}
	for (m = 0; m < width; m++)
		free(buf[m]);
	free(buf);
	free(data);
	free(p);
	free(q);
	free(vbuf);
}

static void check_mirror(void)
{
	size_t strip = (size_t)g.strip_sectors * 512;
	u32 copies = g.level == VRAID_LEVEL_1 ? g.nr_members : 2;
	u32 sets = g.nr_members / copies;
	u8 *ref = xalloc(strip), *buf = xalloc(strip), *vbuf = xalloc(strip);
	char where[160];
	u64 r;
	u32 k, c;

	for (r = 0; r < opt.rows; r++) {
		u64 sector = r * g.strip_sectors;
		size_t len = strip;

		if (g.member_sectors - sector < g.strip_sectors)
			len = (size_t)(g.member_sectors - sector) * 512;
		for (k = 0; k < sets; k++) {
			u32 first = k * copies;
			struct vraid_mirror_loc loc;
			u64 v;

			/* the VD sector of this block (RAID1: the same) */
			v = g.level == VRAID_LEVEL_1 ? sector :
			    (r * sets + k) * g.strip_sectors;
			vraid_layout_mirror(&g, v, &loc);
			if (loc.first != first || loc.sector != sector)
				die("layout: VD sector %llu maps to member %u sector %llu, expected member %u sector %llu",
				    (unsigned long long)v, loc.first,
				    (unsigned long long)loc.sector, first,
				    (unsigned long long)sector);

			read_member(first, sector, ref, len);
			for (c = 1; c < copies; c++) {
				size_t at;

				read_member(first + c, sector, buf, len);
				at = first_diff(ref, buf, len);
				if (at < len)
					mismatch("strip %llu: member %u (%s) differs from member %u (%s) at strip byte %zu: has 0x%02x where the other has 0x%02x\n",
						 (unsigned long long)r,
						 first + c, mem[first + c].path,
						 first, mem[first].path, at,
						 buf[at], ref[at]);
				blocks_checked++;
			}
			snprintf(where, sizeof(where),
				 "strip %llu: member %u (%s)",
				 (unsigned long long)r, first,
				 mem[first].path);
			data_checked += check_vd(ref, len, v, vbuf, where);
		}
	}
	free(ref);
	free(buf);
	free(vbuf);
}

/*
 * pqref selftest: rebuild every pair of blocks of random rows from the
 * rest, so a broken build of the GF code shows before it judges a VD.
 */
static int selftest(void)
{
	enum { ND = 30, LEN = 64 };
	static u8 blk[ND + 2][LEN], save[ND][LEN];
	u8 *data[ND];
	unsigned int nd, x, y, fails = 0;
	size_t j;

	srand(1);
	for (nd = 2; nd <= ND; nd++) {
		for (x = 0; x < nd; x++) {
			data[x] = blk[x];
			for (j = 0; j < LEN; j++)
				blk[x][j] = save[x][j] = (u8)rand();
		}
		gf_syndrome((const u8 *const *)data, nd, LEN, blk[ND],
			    blk[ND + 1]);
		for (x = 0; x < nd; x++) {
			for (y = x + 1; y < nd; y++) {
				memset(blk[x], 0xee, LEN);
				memset(blk[y], 0xee, LEN);
				gf_recover2(data, nd, LEN, x, y, blk[ND],
					    blk[ND + 1]);
				fails += memcmp(blk[x], save[x], LEN) ||
					 memcmp(blk[y], save[y], LEN);
			}
			memset(blk[x], 0xee, LEN);
			gf_recover_data_p(data, nd, LEN, x, NULL, blk[ND + 1]);
			fails += !!memcmp(blk[x], save[x], LEN);
		}
	}
	printf("pqref selftest: %s\n", fails ? "FAILED" : "ok");
	return fails ? 1 : 0;
}

int main(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "level", required_argument, NULL, 'l' },
		{ "strip", required_argument, NULL, 's' },
		{ "spans", required_argument, NULL, 'S' },
		{ "rows", required_argument, NULL, 'r' },
		{ "vd", required_argument, NULL, 'v' },
		{ "data-offset", required_argument, NULL, 'o' },
		{ "max-report", required_argument, NULL, 'm' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	char msg[VRAID_MSG_LEN];
	bool have_level = false;
	u64 min_data = ~0ULL, rows;
	u32 i;
	int c, ret;

	if (argc == 2 && !strcmp(argv[1], "selftest"))
		return selftest();
	if (argc < 2 || strcmp(argv[1], "check"))
		usage();
	optind = 2;
	while ((c = getopt_long(argc, argv, "qh", lopts, NULL)) != -1) {
		switch (c) {
		case 'l':
			opt.level = parse_level(optarg);
			have_level = true;
			break;
		case 's':
			opt.strip_bytes = parse_u32("--strip", optarg);
			break;
		case 'S':
			opt.spans = parse_u32("--spans", optarg);
			break;
		case 'r':
			opt.rows = parse_u64("--rows", optarg);
			break;
		case 'v':
			opt.vd_path = optarg;
			break;
		case 'o':
			opt.data_offset = parse_u64("--data-offset", optarg);
			break;
		case 'm':
			opt.max_report = parse_u32("--max-report", optarg);
			break;
		case 'q':
			opt.quiet = true;
			break;
		default:
			usage();
		}
	}
	if (!have_level || (!vraid_layout_is_mirror(opt.level) &&
			    !vraid_layout_is_parity(opt.level)))
		die("--level must be 1, 10, 5, 6, 50 or 60");
	if (opt.level == VRAID_LEVEL_1 && !opt.strip_bytes)
		opt.strip_bytes = VRAID_STRIP_DEFAULT;
	if (!opt.strip_bytes)
		die("--strip is required (bytes, as given to vraidctl)");
	nr_mem = (u32)(argc - optind);
	if (!nr_mem)
		die("no members given");

	mem = calloc(nr_mem, sizeof(*mem));
	if (!mem)
		die("out of memory");
	for (i = 0; i < nr_mem; i++) {
		u64 sectors;

		mem[i].path = argv[optind + i];
		mem[i].fd = open_member(mem[i].path);
		sectors = size_bytes(mem[i].fd, mem[i].path) / 512;
		if (sectors <= opt.data_offset)
			die("%s has no data area (%llu sectors, data at %llu)",
			    mem[i].path, (unsigned long long)sectors,
			    (unsigned long long)opt.data_offset);
		mem[i].sectors = sectors;
		if (sectors - opt.data_offset < min_data)
			min_data = sectors - opt.data_offset;
	}
	ret = vraid_layout_init(&g, opt.level, nr_mem, opt.strip_bytes,
				opt.spans, min_data, msg, sizeof(msg));
	if (ret)
		die("%s", msg);

	rows = (g.member_sectors + g.strip_sectors - 1) / g.strip_sectors;
	if (!opt.rows)
		opt.rows = rows;
	if (opt.rows > rows)
		die("--rows %llu: the members hold only %llu rows",
		    (unsigned long long)opt.rows, (unsigned long long)rows);

	if (opt.vd_path) {
		vd_fd = open(opt.vd_path, O_RDONLY);
		if (vd_fd < 0)
			die("cannot open %s: %s", opt.vd_path,
			    strerror(errno));
		vd_bytes = size_bytes(vd_fd, opt.vd_path);
	}

	if (vraid_layout_is_parity(g.level))
		check_parity();
	else
		check_mirror();
	if (!opt.quiet || mismatches)
		printf("pqref: %s, %u members, strip %u, VD of %llu sectors, %llu %s: %llu %s and %llu data blocks checked, %lu mismatch%s\n",
		       vraid_level_name(g.level), g.nr_members,
		       g.strip_sectors * 512,
		       (unsigned long long)g.size_sectors,
		       (unsigned long long)opt.rows,
		       vraid_layout_is_parity(g.level) ? "rows" : "strips",
		       (unsigned long long)blocks_checked,
		       vraid_layout_is_parity(g.level) ? "parity" : "copies",
		       (unsigned long long)data_checked, mismatches,
		       mismatches == 1 ? "" : "es");
	return mismatches ? 1 : 0;
}

#endif /* PQREF_NO_MAIN */
