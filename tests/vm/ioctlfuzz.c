// SPDX-License-Identifier: GPL-2.0
/*
 * ioctlfuzz - a fuzzer for the ioctls of /dev/vraid-control.  A VM test
 * helper (installed as tests/vm/bin/ioctlfuzz, run by
 * tests/vm/cases/61-ioctl-fuzz.sh); run with --help for usage.
 *
 * Each iteration builds a valid request for a command (from the fuzzer's
 * own picture of the machine: a RAID5 "fixture" VD, a stopped RAID1 for
 * ASSEMBLE, free devices, a partition), then mutates one to a few fields
 * (header, command fields, device numbers, names, ioctl number encoding,
 * buffer length), or sends random bytes.  An independent model of
 * Documentation/ioctl.rst then classifies the request: every rule it
 * breaks is an "invalid class" with the errno the documentation gives.
 * A request that breaks a rule must fail, with that errno when it breaks
 * exactly one; a request the model knows to be valid must succeed;
 * requests whose outcome the model cannot tell (a device of unknown
 * content, say) may do either.  Whatever succeeds is undone at once
 * (delete what was created, stop what was assembled, remove the spare,
 * re-create the fixture, set the controller cache back to the size it had
 * at the start, detach a journal it attached), so nothing leaks.  A
 * journal attach formats its device: the fuzzer only ever names its own
 * devices there (or numbers no block device has), never another one.
 * Replies are checked too: status = -errno, a message on failure,
 * nothing written past the header on failure, nothing at all when the
 * ioctl number is wrong.
 *
 * Deterministic for a seed: iteration I draws from its own generator,
 * seeded from (seed, I), so "--seed S --count N" replays a run, and a
 * failure is reported with the seed, the iteration and the request in
 * hex (the --replay format).  The fuzzing runs in a child process; the
 * parent reports a call that does not return within --hang seconds, or
 * kills the child (an oops), with the request in flight.
 *
 * Exit status: 0 no failure; 1 failures (invalid request accepted, valid
 * refused, wrong errno or reply, leftovers after the run); 2 usage or
 * setup error; 3 a hang or a crash in a call.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <linux/fs.h>

#include <linux/vraid.h>

#include "vraid_common.h"

#define HDR_SIZE	((uint32_t)sizeof(struct vraid_ioc_hdr))
#define BUF_MAX		(VRAID_IOC_MAX_SIZE + 8192)
#define PAGE		4096
#define MAX_DEVS	64
#define MAX_FAIL_SHOWN	20
#define FIX_NAME	"fzfix"
#define STOP_NAME	"fzstop"

/* the command numbers, from uapi/linux/vraid.h through vraid_common.h */
#define NR_CREATE	VRAID_NR_CREATE
#define NR_DELETE	VRAID_NR_DELETE
#define NR_LIST		VRAID_NR_LIST
#define NR_INFO		VRAID_NR_INFO
#define NR_SET_POLICY	VRAID_NR_SET_POLICY
#define NR_FAIL_MEMBER	VRAID_NR_FAIL_MEMBER
#define NR_SPARE	VRAID_NR_SPARE
#define NR_REPLACE	VRAID_NR_REPLACE
#define NR_JOB		VRAID_NR_JOB
#define NR_CONTROLLER	VRAID_NR_CONTROLLER
#define NR_ASSEMBLE	VRAID_NR_ASSEMBLE
#define NR_EVENTS	VRAID_NR_EVENTS

static const char usage_text[] =
"usage: ioctlfuzz [OPTIONS] DEV...\n"
"       ioctlfuzz --replay FILE\n"
"\n"
"Fuzz the ioctls of /dev/vraid-control with valid requests mutated a few\n"
"fields at a time and random bytes; check that every request the fuzzer\n"
"knows to be invalid fails (with the documented errno), that valid ones\n"
"succeed, undo whatever succeeded, and check for leftovers at the end.\n"
"\n"
"DEV...  at least 6 block devices of 16 MiB or more, all free; their\n"
"        contents are destroyed.  The first 3 carry the fixture (a RAID5\n"
"        VD named " FIX_NAME "), the next 2 a stopped RAID1 for ASSEMBLE\n"
"        (named " STOP_NAME "), the rest are free devices for new VDs,\n"
"        spares and replacements.\n"
"\n"
"CONTROLLER requests change the controller cache size of the whole\n"
"machine: after each one that does, the size the cache had at the start\n"
"is set again (checked at the end too).  JOURNAL_ATTACH requests name\n"
"DEV... (and numbers no block device has), never another device: one\n"
"that succeeds formats its device as a journal, and the journal is\n"
"detached at once.  There must be no journal attached at the start (nor\n"
"VDs not the fuzzer's, if any journal attach is to be sent).  Run as\n"
"root.\n"
"\n"
"  --seed N        seed (default: from the clock; always printed)\n"
"  --count N       iterations (default 1000000)\n"
"  --start N       first iteration (default 0): --start I --count 1 sends\n"
"                  iteration I of a seed again (same state permitting)\n"
"  --time SECS     stop fuzzing after SECS seconds (default 60)\n"
"  --hang SECS     a call that takes longer is a hang (default 30)\n"
"  --partition P   a partition of 16 MiB or more whose disk is not in\n"
"                  DEV... (used as a free device, and with its disk)\n"
"  --max-fail N    stop after N failures (default 50)\n"
"  --settle MS     after a successful FAIL_MEMBER, REPLACE, SPARE or\n"
"                  ASSEMBLE, wait MS milliseconds, so the spare worker\n"
"                  they queue runs before the next request (default 0: a\n"
"                  DELETE right after can deadlock, see the case)\n"
"  -v, --verbose   print every request and its result\n"
"  --replay FILE   send the request in FILE (the hex dump a failure\n"
"                  prints: a 'cmd 0x... len N' line, then 'OFFSET: bytes'\n"
"                  lines; missing lines are zero) once and print the reply\n"
"\n"
"The environment variable VRAIDCTL_CONTROL names another control device,\n"
"as for vraidctl.\n";

/* ---- random numbers: splitmix64, one stream per iteration ---- */

static uint64_t rng;

static uint64_t rnd64(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint32_t rn(uint32_t n)
{
	return n ? (uint32_t)(rnd64() % n) : 0;
}

static uint32_t rnd32(void)
{
	return (uint32_t)rnd64();
}

static bool chance(uint32_t pct)
{
	return rn(100) < pct;
}

static void seed_iteration(uint64_t seed, uint64_t iter)
{
	rng = seed ^ (iter * 0xd1b54a32d192ed03ULL);
	rnd64();
}

/* ---- classes of invalid requests ---- */

enum {
	CL_IOC_ENCODING, CL_SHORT_BUF, CL_CMD_UNKNOWN, CL_HDR_MAGIC,
	CL_HDR_VERSION, CL_HDR_SIZE, CL_HDR_FLAGS, CL_HDR_RESERVED, CL_TAIL,
	CL_RESERVED, CL_LEVEL, CL_COUNT, CL_GEOMETRY, CL_STRIP, CL_NAME,
	CL_POLICY, CL_INIT, CL_DEVNUM, CL_DEV_DUP, CL_SLOT, CL_FLAGS,
	CL_ACTION, CL_RATE, CL_MASK, CL_ARGS, CL_SAME_DEV, CL_INDEX_RANGE,
	/* from the state of the machine, checked after the fields */
	CL_NO_VD, CL_NAME_TAKEN, CL_DEV_NOEXIST, CL_DEV_BUSY, CL_DEV_OVERLAP,
	CL_DEV_SELF, CL_DEV_SMALL, CL_NOT_MEMBER, CL_IS_MEMBER, CL_NOT_SPARE,
	CL_NO_JOB, CL_CACHE_SIZE, CL_NO_JOURNAL, CL_JOURNAL_DEV,
	NR_CLASSES
};

#define ANY_ERRNO	(-1)

struct fz_class {
	const char *name;
	const char *what;
	int err[3];		/* allowed errnos; ANY_ERRNO: any */
};

static const struct fz_class classes[NR_CLASSES] = {
	[CL_IOC_ENCODING] = { "ioc-encoding", "ioctl number: wrong type, direction, size or unknown bits", { ENOTTY } },
	[CL_SHORT_BUF]	= { "short-buffer", "fewer bytes mapped than the kernel must read", { EFAULT } },
	[CL_CMD_UNKNOWN] = { "cmd-unknown", "command number unknown or reserved (0x0a, 0x0d...)", { ENOTTY } },
	[CL_HDR_MAGIC]	= { "hdr-magic", "hdr.magic wrong", { EINVAL } },
	[CL_HDR_VERSION] = { "hdr-version", "hdr.version_major not 1", { EPROTO } },
	[CL_HDR_SIZE]	= { "hdr-size", "hdr.size below the v1 size or above 65536", { EINVAL } },
	[CL_HDR_FLAGS]	= { "hdr-flags", "hdr.flags not zero", { EINVAL } },
	[CL_HDR_RESERVED] = { "hdr-reserved", "hdr.reserved not zero", { EINVAL } },
	[CL_TAIL]	= { "tail", "non-zero bytes past the struct (hdr.size larger)", { E2BIG } },
	[CL_RESERVED]	= { "reserved", "reserved or output-only input field not zero", { EINVAL } },
	[CL_LEVEL]	= { "level", "unknown RAID level", { EINVAL } },
	[CL_COUNT]	= { "count", "member/device count 0 or above 32", { EINVAL } },
	[CL_GEOMETRY]	= { "geometry", "member count or spans wrong for the level", { EINVAL } },
	[CL_STRIP]	= { "strip", "strip size not 0 or a power of two in 4K..1M; strip for JBOD", { EINVAL } },
	[CL_NAME]	= { "name", "bad VD name (no NUL, bad bytes, digits, vraidN, leading -)", { EINVAL } },
	[CL_POLICY]	= { "policy", "unknown policy value", { EINVAL } },
	[CL_INIT]	= { "init", "init above FULL, or not FAST for JBOD/RAID0", { EINVAL } },
	[CL_DEVNUM]	= { "devnum", "device number 0:0, major >= 4096 or minor >= 2^20", { EINVAL } },
	[CL_DEV_DUP]	= { "dev-dup", "the same device twice", { EINVAL } },
	[CL_SLOT]	= { "slot", "member/device slot set past the count", { EINVAL } },
	[CL_FLAGS]	= { "flags", "unknown command flag bits", { EINVAL } },
	[CL_ACTION]	= { "action", "unknown job, spare or controller action", { EINVAL } },
	[CL_RATE]	= { "rate", "rate_kib above the maximum, or given without SET_RATE", { EINVAL } },
	[CL_MASK]	= { "set-mask", "set_mask 0 or unknown bits; policy not in the mask non-zero", { EINVAL } },
	[CL_ARGS]	= { "args", "field not allowed with this action/flag (index, device, role, cache size)", { EINVAL } },
	[CL_SAME_DEV]	= { "same-dev", "replace: new device is the old one", { EINVAL } },
	[CL_INDEX_RANGE] = { "index-range", "VD index 256 or above", { ENOENT } },
	[CL_NO_VD]	= { "no-vd", "no VD with this index", { ENOENT } },
	[CL_NAME_TAKEN]	= { "name-taken", "another VD has this name", { EEXIST } },
	[CL_DEV_NOEXIST] = { "dev-noexist", "no block device with this number", { ENXIO, ENODEV } },
	[CL_DEV_BUSY]	= { "dev-busy", "device held by a VD (a member of the fixture)", { EBUSY } },
	[CL_DEV_OVERLAP] = { "dev-overlap", "a disk and its partition in one VD", { EINVAL, EBUSY } },
	[CL_DEV_SELF]	= { "dev-self", "the VD's own device as its member or its spare", { ANY_ERRNO } },
	[CL_DEV_SMALL]	= { "dev-small", "device smaller than the VD needs", { ENOSPC } },
	[CL_NOT_MEMBER]	= { "not-member", "old device/role not a member of the VD", { ENODEV } },
	[CL_IS_MEMBER]	= { "is-member", "replace: new device is a member already", { EINVAL } },
	[CL_NOT_SPARE]	= { "not-spare", "spare remove: device is not a spare", { ENODEV } },
	[CL_NO_JOB]	= { "no-job", "job pause/stop with no job running", { ENOENT } },
	[CL_CACHE_SIZE]	= { "cache-size", "controller cache size not 0 or a MiB multiple in 16 MiB..min(RAM/2, 1 TiB)", { EINVAL } },
	[CL_NO_JOURNAL]	= { "no-journal", "controller journal detach/discard: no journal is attached", { ENOENT } },
	[CL_JOURNAL_DEV] = { "journal-dev", "controller journal attach: a VD, or a device under 64 MiB", { EINVAL } },
};

/* ---- devices the fuzzer knows ---- */

enum {
	DK_FREE,	/* free: valid member, spare, replacement */
	DK_PART,	/* the partition (free) */
	DK_WHOLE,	/* the partition's disk (free, overlaps DK_PART) */
	DK_STOPPED,	/* carries the stopped RAID1 */
	DK_FIXMEM,	/* a member of the fixture: held */
	DK_SELF,	/* the fixture VD's own device */
	DK_NOEXIST,	/* no block device has this number */
	DK_CHAR,	/* a character device's number (maybe a block one too) */
	DK_BADNUM,	/* refused by the field checks (0:0, too large) */
	DK_OTHER,	/* anything else: outcome unknown */
};

struct fz_dev {
	char label[64];
	char path[64];		/* block devices: their node */
	uint32_t major, minor;
	int kind;
	uint64_t sectors;
};

static struct fz_dev devs[MAX_DEVS];
static unsigned int nr_devs;

/* indexes into devs[] */
static unsigned int fix_devs[3], stop_devs[2], free_devs[MAX_DEVS];
static unsigned int nr_free;
static int part_dev = -1, whole_dev = -1, self_dev = -1;

/* ---- state ---- */

static int ctl_fd = -1;
static bool verbose;
static uint64_t seed, start_iter, count = 1000000;
static double time_limit = 60, hang_secs = 30;
static unsigned int max_fail = 50;
static unsigned int settle_ms;

static int fix_index = -1;		/* the fixture's index */
static uint64_t fix_member_sectors;	/* data area per member */
static bool fix_dirty, stop_dirty;
static bool preexisting[VRAID_MAX_VDS];
static unsigned int nr_preexisting;

/*
 * The controller cache as SHOW reported it at the start: a successful
 * SET_CACHE_SIZE sets ctrl_dirty, and the next iteration (or the
 * teardown) sets the size back to ctrl_orig_bytes.
 */
static uint64_t ctrl_orig_bytes, ctrl_default_bytes, ctrl_max_bytes;
static bool ctrl_dirty;
/*
 * The controller's journal: there is none at the start, and a successful
 * JOURNAL_ATTACH is detached again at once (undo()); journal_dirty: a
 * detach failed or a request of unknown effect succeeded, so the next
 * iteration (or the teardown) detaches whatever SHOW reports.
 */
static bool journal_dirty;

/*
 * What JOURNAL_ATTACH takes (driver/core/jformat.h, not a uapi header): at
 * least 64 MiB; the ring from 1 MiB to the end, in 4 KiB blocks.
 */
#define J_MIN_SECTORS	((64ULL << 20) >> 9)
#define J_RING_START	2048ULL
#define J_BLOCK		4096ULL

/* the request being built */
struct fz_req {
	uint32_t cmd;
	size_t len;			/* bytes mapped for the kernel */
	char what[512];			/* the mutations, for the report */
	size_t what_len;
	unsigned char b[BUF_MAX];	/* zero past len */
};

static struct fz_req req;

/* what the model says about a request */
struct fz_verdict {
	uint64_t viol;			/* CL_* bits */
	int nviol;
	bool maybe;			/* parts of unknown outcome */
	bool want_ok;			/* known valid, must succeed */
	bool no_reply;			/* the kernel writes nothing back */
	int allow[16];
	int nallow;
	bool any_errno;
};

/* shared with the watchdog parent */
struct fz_shared {
	volatile uint64_t iter;
	volatile int in_call;
	volatile int done;
	struct timespec call_start;
	uint32_t cmd;
	size_t len;
	char what[512];
	unsigned char b[BUF_MAX];
};

static struct fz_shared *shm;
static unsigned char *mapbuf;		/* BUF_MAX + a guard page after */

/* ---- statistics ---- */

#define MAX_ERRS	8

struct fz_stat {
	uint64_t calls;
	int err[MAX_ERRS];
	uint64_t n[MAX_ERRS];
};

static struct fz_stat cls_stat[NR_CLASSES];	/* single-class requests */
static struct fz_stat multi_stat;		/* several classes */
static struct fz_stat maybe_stat[256];		/* unknown outcome, by nr */
static uint64_t ok_by_nr[256], valid_by_nr[256];
static uint64_t nr_iter, nr_failures, nr_accepted_invalid, nr_refused_valid;
static uint64_t nr_bad_errno, nr_bad_reply, nr_random;
static uint64_t nr_journal_attached;	/* JOURNAL_ATTACHes that succeeded */

static void stat_add(struct fz_stat *s, int err)
{
	int i;

	s->calls++;
	for (i = 0; i < MAX_ERRS; i++) {
		if (s->n[i] && s->err[i] == err) {
			s->n[i]++;
			return;
		}
		if (!s->n[i]) {
			s->err[i] = err;
			s->n[i] = 1;
			return;
		}
	}
}

/* ---- small helpers ---- */

static const char *errname(int err)
{
	static char buf[24];
	const char *name = vraid_errname(err);

	if (!err)
		return "ok";
	if (name)
		return name;
	snprintf(buf, sizeof(buf), "errno%d", err);
	return buf;
}

static const char *cmd_name(uint32_t nr)
{
	const struct vraid_ioc_cmd *c = vraid_ioc_cmd(nr);

	return c ? c->name : "unknown";
}

static uint32_t cmd_size(uint32_t nr)
{
	const struct vraid_ioc_cmd *c = vraid_ioc_cmd(nr);

	return c ? c->size_v1 : 0;
}

static uint32_t valid_cmd(uint32_t nr)
{
	return _IOWR(VRAID_IOC_TYPE, nr, struct vraid_ioc_hdr);
}

static double now_sec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static bool all_zero(const void *p, size_t len)
{
	const unsigned char *b = p;
	size_t i;

	for (i = 0; i < len; i++)
		if (b[i])
			return false;
	return true;
}

static void __attribute__((format(printf, 1, 2))) what(const char *fmt, ...)
{
	va_list ap;
	int n;

	if (req.what_len >= sizeof(req.what) - 1)
		return;
	if (req.what_len)
		req.what[req.what_len++] = ';';
	va_start(ap, fmt);
	n = vsnprintf(req.what + req.what_len, sizeof(req.what) - req.what_len,
		      fmt, ap);
	va_end(ap);
	if (n > 0)
		req.what_len += (size_t)n;
	if (req.what_len >= sizeof(req.what))
		req.what_len = sizeof(req.what) - 1;
}

static void __attribute__((format(printf, 1, 2), noreturn)) die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "ioctlfuzz: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

/* The request in the --replay format: only lines with a non-zero byte. */
static void hexdump(FILE *f, uint32_t cmd, const unsigned char *b, size_t len)
{
	size_t off, i;

	fprintf(f, "  cmd 0x%08x len %zu\n", cmd, len);
	for (off = 0; off < len; off += 16) {
		size_t n = len - off < 16 ? len - off : 16;

		if (all_zero(b + off, n) && off + 16 < len)
			continue;
		fprintf(f, "  %04zx:", off);
		for (i = 0; i < n; i++)
			fprintf(f, " %02x", b[off + i]);
		fputc('\n', f);
	}
}

/* ---- the control device, for the fuzzer's own requests ---- */

static void hdr_init(void *p, uint32_t size)
{
	struct vraid_ioc_hdr *h = p;

	memset(p, 0, size);
	h->magic = VRAID_IOC_MAGIC;
	h->size = size;
	h->version_major = VRAID_ABI_MAJOR;
	h->version_minor = VRAID_ABI_MINOR;
}

static const char *cmd_name(uint32_t nr);

/*
 * Every call goes through here: the watchdog parent sees which request
 * is in flight, and since when.
 */
static int tracked_ioctl(uint32_t cmd, void *p, size_t len, const char *desc)
{
	int ret, err;

	if (!shm)
		return ioctl(ctl_fd, cmd, p);
	shm->cmd = cmd;
	shm->len = len > BUF_MAX ? BUF_MAX : len;
	snprintf(shm->what, sizeof(shm->what), "%s", desc);
	memcpy(shm->b, p, shm->len);
	clock_gettime(CLOCK_MONOTONIC, &shm->call_start);
	__atomic_store_n(&shm->in_call, 1, __ATOMIC_SEQ_CST);
	ret = ioctl(ctl_fd, cmd, p);
	err = errno;
	__atomic_store_n(&shm->in_call, 0, __ATOMIC_SEQ_CST);
	errno = err;
	return ret;
}

/* Send one of our own requests; returns 0 or -errno, message in @p. */
static int ctl(uint32_t nr, void *p)
{
	char desc[64];

	snprintf(desc, sizeof(desc), "(the fuzzer's own %s, setup or undo)",
		 cmd_name(nr));
	return tracked_ioctl(valid_cmd(nr), p,
			     ((struct vraid_ioc_hdr *)p)->size, desc) < 0 ?
	       -errno : 0;
}

static int vd_list(bool present[VRAID_MAX_VDS])
{
	static struct vraid_list l;
	uint32_t i;
	int ret;

	hdr_init(&l, sizeof(l));
	ret = ctl(NR_LIST, &l);
	if (ret)
		return ret;
	memset(present, 0, VRAID_MAX_VDS * sizeof(bool));
	for (i = 0; i < l.nr_vds && i < VRAID_MAX_VDS; i++)
		if (l.index[i] < VRAID_MAX_VDS)
			present[l.index[i]] = true;
	return 0;
}

static int nr_spares(void)
{
	static struct vraid_spare s;

	hdr_init(&s, sizeof(s));
	s.action = VRAID_SPARE_LIST;
	if (ctl(NR_SPARE, &s))
		return -1;
	return (int)s.nr_spares;
}

/* Delete or stop VD @index, waiting out a short-lived opener. */
static int vd_delete(uint32_t index, bool stop)
{
	struct vraid_delete d;
	int i, ret = 0;

	for (i = 0; i < 100; i++) {
		hdr_init(&d, sizeof(d));
		d.index = index;
		d.del_flags = stop ? VRAID_DELETE_STOP : 0;
		ret = ctl(NR_DELETE, &d);
		if (ret != -EBUSY)
			break;
		usleep(20000);
	}
	if (ret && ret != -ENOENT)
		fprintf(stderr, "ioctlfuzz: cannot %s vraid%u: %s: %s\n",
			stop ? "stop" : "delete", index, errname(-ret),
			d.hdr.message);
	return ret;
}

static int vd_create(uint32_t level, const unsigned int *idx, uint32_t n,
		     const char *name, char *msg, size_t msglen)
{
	static struct vraid_create c;
	uint32_t i;
	int ret;

	hdr_init(&c, sizeof(c));
	c.level = level;
	c.nr_members = n;
	snprintf(c.name, sizeof(c.name), "%s", name);
	for (i = 0; i < n; i++) {
		c.members[i].major = devs[idx[i]].major;
		c.members[i].minor = devs[idx[i]].minor;
	}
	ret = ctl(NR_CREATE, &c);
	if (ret) {
		snprintf(msg, msglen, "%s: %s", errname(-ret), c.hdr.message);
		return ret;
	}
	return (int)c.index;
}

static bool read_devnum(const char *path, uint32_t *maj, uint32_t *min)
{
	unsigned int a, b;
	FILE *f = fopen(path, "r");
	bool ok;

	if (!f)
		return false;
	ok = fscanf(f, "%u:%u", &a, &b) == 2;
	fclose(f);
	if (ok) {
		*maj = a;
		*min = b;
	}
	return ok;
}

static bool blockdev_exists(uint32_t maj, uint32_t min)
{
	char p[64];

	snprintf(p, sizeof(p), "/sys/dev/block/%u:%u", maj, min);
	return access(p, F_OK) == 0;
}

/* (Re)create the fixture: RAID5 over fix_devs, named FIX_NAME. */
static void fixture_make(void)
{
	static struct vraid_info info;
	char msg[256], p[96];
	int ret;

	if (fix_index >= 0)
		vd_delete((uint32_t)fix_index, false);
	fix_index = -1;
	ret = vd_create(VRAID_LEVEL_5, fix_devs, 3, FIX_NAME, msg, sizeof(msg));
	if (ret < 0)
		die("cannot create the fixture RAID5: %s", msg);
	fix_index = ret;
	hdr_init(&info, sizeof(info));
	info.index = (uint32_t)fix_index;
	if (ctl(NR_INFO, &info))
		die("INFO of the fixture vraid%d failed: %s", fix_index,
		    info.hdr.message);
	fix_member_sectors = info.member_data_sectors;
	snprintf(p, sizeof(p), "/sys/block/%.32s/dev", info.disk_name);
	if (!read_devnum(p, &devs[self_dev].major, &devs[self_dev].minor))
		die("cannot read %s", p);
	devs[self_dev].sectors = info.size_sectors;
	snprintf(devs[self_dev].label, sizeof(devs[self_dev].label),
		 "%.32s (the fixture itself)", info.disk_name);
	snprintf(devs[self_dev].path, sizeof(devs[self_dev].path),
		 "/dev/%.32s", info.disk_name);
	fix_dirty = false;
}

/* (Re)make the stopped RAID1 that ASSEMBLE requests bring up. */
static void stopped_make(void)
{
	char msg[256];
	int ret;

	ret = vd_create(VRAID_LEVEL_1, stop_devs, 2, STOP_NAME, msg,
			sizeof(msg));
	if (ret < 0)
		die("cannot create the RAID1 to stop: %s", msg);
	if (vd_delete((uint32_t)ret, true))
		die("cannot stop vraid%d", ret);
	stop_dirty = false;
}

/* CONTROLLER SHOW into @c; returns 0 or -errno. */
static int ctrl_show(struct vraid_controller *c)
{
	hdr_init(c, sizeof(*c));
	c->action = VRAID_CTRL_SHOW;
	return ctl(NR_CONTROLLER, c);
}

/* What the controller cache looks like before the fuzzing starts. */
static void ctrl_init(void)
{
	static struct vraid_controller c;
	int ret = ctrl_show(&c);

	if (ret)
		die("CONTROLLER SHOW failed: %s: %.*s", errname(-ret),
		    VRAID_MSG_LEN, c.hdr.message);
	ctrl_orig_bytes = (uint64_t)c.cache_bytes;
	ctrl_default_bytes = (uint64_t)c.cache_default_bytes;
	ctrl_max_bytes = (uint64_t)c.cache_max_bytes;
	if (!ctrl_orig_bytes || !ctrl_default_bytes || !ctrl_max_bytes)
		die("CONTROLLER SHOW: cache %" PRIu64 ", default %" PRIu64
		    ", max %" PRIu64 " bytes", ctrl_orig_bytes,
		    ctrl_default_bytes, ctrl_max_bytes);
	if (c.journal_state != VRAID_JOURNAL_NONE)
		die("a journal is attached (%u:%u, state %u): the fuzzer needs none (it would detach it)",
		    c.journal_major, c.journal_minor, c.journal_state);
}

/* Set the controller cache back to its size at the start. */
static void ctrl_restore(void)
{
	static struct vraid_controller c;
	int ret;

	hdr_init(&c, sizeof(c));
	c.action = VRAID_CTRL_SET_CACHE_SIZE;
	/* 0 is "the default", which also works when it is over RAM / 2 */
	c.cache_bytes = ctrl_orig_bytes == ctrl_default_bytes ? 0 :
			ctrl_orig_bytes;
	ret = ctl(NR_CONTROLLER, &c);
	if (ret) {
		nr_failures++;
		printf("ioctlfuzz: FAIL cannot set the controller cache back to %" PRIu64
		       " MiB: %s: %.*s\n", ctrl_orig_bytes >> 20,
		       errname(-ret), VRAID_MSG_LEN, c.hdr.message);
	}
	ctrl_dirty = false;
}

/* A device of @sectors is large enough for a journal. */
static bool journal_fits(uint64_t sectors)
{
	return sectors >= J_MIN_SECTORS && sectors >= J_RING_START + 8;
}

/* The ring a journal formatted on a device of @sectors has, in bytes. */
static uint64_t journal_ring_bytes(uint64_t sectors)
{
	return (sectors - J_RING_START) / 8 * J_BLOCK;
}

/* NULL if CONTROLLER's reply @c reports no journal, else what is wrong. */
static const char *journal_none(const struct vraid_controller *c)
{
	if (c->journal_state != VRAID_JOURNAL_NONE || c->journal_major ||
	    c->journal_minor || c->journal_bytes || c->journal_used_bytes ||
	    !all_zero(c->journal_uuid, sizeof(c->journal_uuid)) ||
	    c->journal_head_seq || c->journal_tail_seq ||
	    c->journal_pending || c->journal_vds)
		return "CONTROLLER reports journal fields with no journal attached";
	return NULL;
}

static void __attribute__((format(printf, 1, 2))) journal_fail(const char *fmt, ...)
{
	va_list ap;

	nr_failures++;
	printf("ioctlfuzz: FAIL (iteration %" PRIu64 ", seed %" PRIu64 ") journal: ",
	       shm ? (uint64_t)shm->iter : 0, seed);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

/* Detach the journal (one must be attached): it must succeed. */
static void journal_detach(void)
{
	static struct vraid_controller c;
	const char *bad;
	int ret;

	hdr_init(&c, sizeof(c));
	c.action = VRAID_CTRL_JOURNAL_DETACH;
	ret = ctl(NR_CONTROLLER, &c);
	if (ret) {
		journal_fail("cannot detach the journal: %s: %.*s",
			     errname(-ret), VRAID_MSG_LEN, c.hdr.message);
		journal_dirty = true;
		return;
	}
	if ((bad = journal_none(&c)) != NULL)
		journal_fail("DETACH succeeded, but: %s", bad);
	journal_dirty = false;
}

/* Detach whatever journal SHOW reports. */
static void journal_cleanup(void)
{
	static struct vraid_controller c;
	int ret = ctrl_show(&c);

	if (ret) {
		journal_fail("CONTROLLER SHOW failed: %s: %.*s", errname(-ret),
			     VRAID_MSG_LEN, c.hdr.message);
		return;
	}
	journal_dirty = false;
	if (c.journal_state != VRAID_JOURNAL_NONE)
		journal_detach();
}

/* ---- the model: which rules does a request break? ---- */

static void allow(struct fz_verdict *v, int err)
{
	int i;

	for (i = 0; i < v->nallow; i++)
		if (v->allow[i] == err)
			return;
	if (v->nallow < (int)ARRAY_SIZE(v->allow))
		v->allow[v->nallow++] = err;
}

static void viol(struct fz_verdict *v, int cl)
{
	int i;

	if (v->viol & (1ULL << cl))
		return;
	v->viol |= 1ULL << cl;
	v->nviol++;
	for (i = 0; i < 3 && classes[cl].err[i]; i++) {
		if (classes[cl].err[i] == ANY_ERRNO)
			v->any_errno = true;
		else
			allow(v, classes[cl].err[i]);
	}
}

static int dev_kind(uint32_t maj, uint32_t min, int *idx)
{
	unsigned int i;

	*idx = -1;
	if ((maj == 0 && min == 0) || maj >= 4096 || min >= (1U << 20))
		return DK_BADNUM;
	for (i = 0; i < nr_devs; i++) {
		if (devs[i].major == maj && devs[i].minor == min) {
			*idx = (int)i;
			return devs[i].kind;
		}
	}
	return DK_OTHER;
}

static bool bad_devnum(uint32_t maj, uint32_t min)
{
	return (maj == 0 && min == 0) || maj >= 4096 || min >= (1U << 20);
}

static bool vd_exists(uint32_t index)
{
	return index < VRAID_MAX_VDS &&
	       ((int)index == fix_index || preexisting[index]);
}

static bool is_fix_member(uint32_t maj, uint32_t min)
{
	int i;

	for (i = 0; i < 3; i++)
		if (devs[fix_devs[i]].major == maj &&
		    devs[fix_devs[i]].minor == min)
			return true;
	return false;
}

static bool name_ok(const char *name)
{
	const char *end = memchr(name, '\0', VRAID_NAME_LEN);
	const char *p;
	bool digits = true;

	if (!end)
		return false;
	if (end == name)
		return true;
	if (name[0] == '-')
		return false;
	for (p = name; p < end; p++) {
		unsigned char c = (unsigned char)*p;

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '.' || c == '_' ||
		      c == '-'))
			return false;
		if (c < '0' || c > '9')
			digits = false;
	}
	if (digits)
		return false;
	if (end - name > 5 && !memcmp(name, "vraid", 5)) {
		for (p = name + 5; p < end; p++)
			if (*p < '0' || *p > '9')
				return true;
		return false;
	}
	return true;
}

static bool level_known(uint32_t l)
{
	return l == 0 || l == 1 || l == 5 || l == 6 || l == 10 || l == 50 ||
	       l == 60 || l == VRAID_LEVEL_JBOD;
}

/*
 * Policies: unknown values EINVAL; every known value is taken (write-back
 * writes through while no journal is attached, which is always but for
 * the moment between a successful JOURNAL_ATTACH and its undo; always
 * write-back since ABI 1.8, a volatile write-back cache; cached I/O and
 * read-ahead).
 */
static void model_policies(struct fz_verdict *v, uint32_t mask, uint32_t acc,
			   uint32_t dc, uint32_t io, uint32_t rd, uint32_t wr)
{
	if (((mask & VRAID_SET_ACCESS) && acc > VRAID_ACCESS_BLOCKED) ||
	    ((mask & VRAID_SET_DISK_CACHE) && dc > VRAID_DCACHE_DISABLED) ||
	    ((mask & VRAID_SET_IO) && io > VRAID_IO_CACHED) ||
	    ((mask & VRAID_SET_READ) && rd > VRAID_READ_AHEAD) ||
	    ((mask & VRAID_SET_WRITE) && wr > VRAID_WRITE_BACK_ALWAYS))
		viol(v, CL_POLICY);
}

/* A device given as a member, spare or replacement: what happens to it. */
static void model_dev_open(struct fz_verdict *v, uint32_t maj, uint32_t min,
			   uint64_t need, bool allow_self)
{
	int idx, k = dev_kind(maj, min, &idx);

	switch (k) {
	case DK_FIXMEM:
		viol(v, CL_DEV_BUSY);
		break;
	case DK_NOEXIST:
		viol(v, CL_DEV_NOEXIST);
		break;
	case DK_SELF:
		if (!allow_self)
			viol(v, CL_DEV_SELF);
		else if (need && devs[idx].sectors < need)
			viol(v, CL_DEV_SMALL);
		break;
	case DK_CHAR:
	case DK_OTHER:
		v->maybe = true;
		break;
	case DK_FREE:
	case DK_PART:
	case DK_WHOLE:
	case DK_STOPPED:
		if (need && devs[idx].sectors < need)
			viol(v, CL_DEV_SMALL);
		break;
	}
}

static void model_create(struct fz_verdict *v, const struct vraid_create *c,
			 bool state)
{
	uint32_t l = c->level, n = c->nr_members, s = c->spans, st = c->strip_bytes;
	uint32_t i, j, lim;
	bool part = false, whole = false;

	if (!level_known(l)) {
		viol(v, CL_LEVEL);
	} else if (!n || n > VRAID_MAX_MEMBERS) {
		viol(v, CL_COUNT);
	} else {
		bool spanned = l == 50 || l == 60;
		bool bad;

		if (s && !spanned)
			bad = true;
		else if (spanned)
			bad = s < 2 || n % s || n / s < (l == 50 ? 3U : 4U);
		else if (l == VRAID_LEVEL_JBOD)
			bad = n != 1;
		else if (l == 0 || l == 1)
			bad = n < 2;
		else if (l == 10)
			bad = n < 4 || n % 2;
		else if (l == 5)
			bad = n < 3;
		else
			bad = n < 4;
		if (bad)
			viol(v, CL_GEOMETRY);
	}
	if (level_known(l)) {
		if (l == VRAID_LEVEL_JBOD ? st != 0 :
		    st && ((st & (st - 1)) || st < VRAID_STRIP_MIN ||
			   st > VRAID_STRIP_MAX))
			viol(v, CL_STRIP);
	}
	if (!name_ok(c->name))
		viol(v, CL_NAME);
	if (c->reserved1 || !all_zero(c->reserved2, sizeof(c->reserved2)))
		viol(v, CL_RESERVED);
	model_policies(v, 0x1f, c->access_policy, c->disk_cache_policy,
		       c->io_policy, c->read_policy, c->write_policy);
	if (c->init > VRAID_INIT_FULL ||
	    (c->init && (l == 0 || l == VRAID_LEVEL_JBOD)))
		viol(v, CL_INIT);
	lim = n > VRAID_MAX_MEMBERS ? VRAID_MAX_MEMBERS : n;
	for (i = 0; i < lim; i++) {
		if (bad_devnum(c->members[i].major, c->members[i].minor))
			viol(v, CL_DEVNUM);
		for (j = 0; j < i; j++)
			if (c->members[j].major == c->members[i].major &&
			    c->members[j].minor == c->members[i].minor)
				viol(v, CL_DEV_DUP);
	}
	if (n <= VRAID_MAX_MEMBERS)
		for (i = n; i < VRAID_MAX_MEMBERS; i++)
			if (c->members[i].major || c->members[i].minor)
				viol(v, CL_SLOT);
	if (v->viol || !state)
		return;

	if (c->name[0] && !strncmp(c->name, FIX_NAME, VRAID_NAME_LEN))
		viol(v, CL_NAME_TAKEN);
	for (i = 0; i < n; i++) {
		int idx, k = dev_kind(c->members[i].major, c->members[i].minor,
				      &idx);

		part |= k == DK_PART;
		whole |= k == DK_WHOLE;
		model_dev_open(v, c->members[i].major, c->members[i].minor, 0,
			       true);
	}
	if (part && whole)
		viol(v, CL_DEV_OVERLAP);
}

static void model_index(struct fz_verdict *v, uint32_t index)
{
	if (index >= VRAID_MAX_VDS)
		viol(v, CL_INDEX_RANGE);
}

static void model_delete(struct fz_verdict *v, const struct vraid_delete *d,
			 bool state)
{
	if (d->del_flags & ~(VRAID_DELETE_STOP | VRAID_DELETE_DISCARD))
		viol(v, CL_FLAGS);
	if (!all_zero(d->reserved2, sizeof(d->reserved2)))
		viol(v, CL_RESERVED);
	model_index(v, d->index);
	if (!v->viol && state && !vd_exists(d->index))
		viol(v, CL_NO_VD);
}

static void model_info(struct fz_verdict *v, const struct vraid_info *in,
		       bool state)
{
	if (!all_zero(&in->job_type, offsetof(struct vraid_info, members) -
		      offsetof(struct vraid_info, job_type)))
		viol(v, CL_RESERVED);
	model_index(v, in->index);
	if (!v->viol && state && !vd_exists(in->index))
		viol(v, CL_NO_VD);
}

static void model_set_policy(struct fz_verdict *v,
			     const struct vraid_set_policy *p, bool state)
{
	uint32_t m = p->set_mask;

	if (p->reserved1 || !all_zero(p->reserved2, sizeof(p->reserved2)))
		viol(v, CL_RESERVED);
	if (!m || (m & ~0x1fU))
		viol(v, CL_MASK);
	else if ((!(m & VRAID_SET_ACCESS) && p->access_policy) ||
		 (!(m & VRAID_SET_DISK_CACHE) && p->disk_cache_policy) ||
		 (!(m & VRAID_SET_IO) && p->io_policy) ||
		 (!(m & VRAID_SET_READ) && p->read_policy) ||
		 (!(m & VRAID_SET_WRITE) && p->write_policy))
		viol(v, CL_MASK);
	else
		model_policies(v, m, p->access_policy, p->disk_cache_policy,
			       p->io_policy, p->read_policy, p->write_policy);
	model_index(v, p->index);
	if (!v->viol && state && !vd_exists(p->index))
		viol(v, CL_NO_VD);
}

static void model_fail(struct fz_verdict *v, const struct vraid_fail_member *f,
		       bool state)
{
	if (!all_zero(f->reserved2, sizeof(f->reserved2)))
		viol(v, CL_RESERVED);
	if (f->fail_flags & ~VRAID_FAIL_FORCE)
		viol(v, CL_FLAGS);
	if (bad_devnum(f->major, f->minor))
		viol(v, CL_DEVNUM);
	model_index(v, f->index);
	if (v->viol || !state)
		return;
	if (!vd_exists(f->index))
		viol(v, CL_NO_VD);
	else if ((int)f->index != fix_index)
		v->maybe = true;
	else if (!is_fix_member(f->major, f->minor))
		viol(v, CL_NOT_MEMBER);
}

static void model_assemble(struct fz_verdict *v,
			   const struct vraid_assemble *a, bool state)
{
	uint32_t i, j, n = a->nr_devices, stopped = 0;

	/*
	 * NO_JOURNAL (ABI 1.9): no VD the fuzzer assembles names a journal;
	 * the replay's counts (ABI 1.10) are out only; FORCE (ABI 1.12)
	 * changes nothing for the fixture's RAID1 (it refuses parity VDs
	 * only)
	 */
	if ((a->asm_flags & ~(VRAID_ASM_NO_JOURNAL | VRAID_ASM_FORCE |
			      VRAID_ASM_NAME)) ||
	    a->reserved1 ||
	    a->reserved3 || !all_zero(a->reserved2, sizeof(a->reserved2)))
		viol(v, CL_RESERVED);
	/* NAME (ABI 1.14): an empty name is refused; another may be invalid */
	if ((a->asm_flags & VRAID_ASM_NAME) && !a->name[0])
		viol(v, CL_RESERVED);
	else if (a->asm_flags & VRAID_ASM_NAME)
		v->maybe = true;
	if (!n || n > VRAID_MAX_MEMBERS) {
		viol(v, CL_COUNT);
		return;
	}
	for (i = 0; i < VRAID_MAX_MEMBERS; i++) {
		const struct vraid_member_ref *d = &a->devices[i];

		if (i >= n) {
			if (d->major || d->minor)
				viol(v, CL_SLOT);
			continue;
		}
		if (bad_devnum(d->major, d->minor))
			viol(v, CL_DEVNUM);
		for (j = 0; j < i; j++)
			if (a->devices[j].major == d->major &&
			    a->devices[j].minor == d->minor)
				viol(v, CL_DEV_DUP);
	}
	if (v->viol || !state)
		return;
	for (i = 0; i < n; i++) {
		int idx, k = dev_kind(a->devices[i].major, a->devices[i].minor,
				      &idx);

		if (k == DK_FIXMEM)
			viol(v, CL_DEV_BUSY);
		else if (k == DK_NOEXIST)
			viol(v, CL_DEV_NOEXIST);
		else if (k == DK_STOPPED)
			stopped++;
	}
	/* Devices without our metadata, or read before a busy one: unknown. */
	if (stopped != n)
		v->maybe = true;
}

static void model_job(struct fz_verdict *v, const struct vraid_job *j,
		      bool state)
{
	if (j->reserved1 || !all_zero(j->reserved2, sizeof(j->reserved2)))
		viol(v, CL_RESERVED);
	if (j->action < VRAID_JOB_START_CHECK || j->action > VRAID_JOB_SET_RATE)
		viol(v, CL_ACTION);
	else if ((j->action != VRAID_JOB_SET_RATE && j->rate_kib) ||
		 j->rate_kib > VRAID_JOB_RATE_MAX)
		viol(v, CL_RATE);
	if (j->rate_kib > VRAID_JOB_RATE_MAX)
		viol(v, CL_RATE);
	model_index(v, j->index);
	if (v->viol || !state)
		return;
	if (!vd_exists(j->index))
		viol(v, CL_NO_VD);
	else if ((int)j->index != fix_index || j->action == VRAID_JOB_RESUME)
		v->maybe = true;
	else if (j->action == VRAID_JOB_PAUSE || j->action == VRAID_JOB_STOP)
		viol(v, CL_NO_JOB);
}

static void model_spare(struct fz_verdict *v, const struct vraid_spare *s,
			bool state)
{
	bool ded = s->spare_flags & VRAID_SPARE_DEDICATED;
	bool by_uuid = s->spare_flags & VRAID_SPARE_VD_UUID;
	bool uuid_set = !all_zero(s->vd_uuid, sizeof(s->vd_uuid));

	if (!all_zero(s->reserved2, sizeof(s->reserved2)) || s->nr_spares ||
	    !all_zero(s->spares, sizeof(s->spares)) ||
	    (s->action != VRAID_SPARE_ADD && uuid_set))
		viol(v, CL_RESERVED);
	switch (s->action) {
	case VRAID_SPARE_LIST:
		if (s->spare_flags || s->index || s->major || s->minor)
			viol(v, CL_ARGS);
		return;
	case VRAID_SPARE_ADD:
		if (s->spare_flags & ~(VRAID_SPARE_DEDICATED |
				       VRAID_SPARE_VD_UUID))
			viol(v, CL_FLAGS);
		else if (!ded && s->index)
			viol(v, CL_ARGS);
		else if (by_uuid ? ded || !uuid_set : uuid_set)
			viol(v, CL_ARGS);
		break;
	case VRAID_SPARE_REMOVE:
		if (s->spare_flags || s->index)
			viol(v, CL_ARGS);
		break;
	default:
		viol(v, CL_ACTION);
		return;
	}
	if (bad_devnum(s->major, s->minor))
		viol(v, CL_DEVNUM);
	model_index(v, s->index);
	if (v->viol || !state)
		return;
	if (s->action == VRAID_SPARE_REMOVE) {
		/* The fuzzer removes every spare it adds at once. */
		viol(v, CL_NOT_SPARE);
		return;
	}
	if (ded && !vd_exists(s->index)) {
		viol(v, CL_NO_VD);
		return;
	}
	if ((ded && (int)s->index != fix_index) || by_uuid) {
		/* (by UUID: the fixture's VD, or one not running) */
		v->maybe = true;
		return;
	}
	/* A VD must not be its own dedicated spare; a global one: unknown. */
	if (!ded && dev_kind(s->major, s->minor, &(int){ 0 }) == DK_SELF) {
		v->maybe = true;
		return;
	}
	model_dev_open(v, s->major, s->minor,
		       VRAID_DATA_OFFSET_SECTORS +
		       (ded ? fix_member_sectors : VRAID_MIN_DATA_SECTORS),
		       false);
}

static void model_replace(struct fz_verdict *v, const struct vraid_replace *r,
			  bool state)
{
	bool role = r->rep_flags & VRAID_REPLACE_ROLE;

	if (r->reserved1 || !all_zero(r->reserved2, sizeof(r->reserved2)))
		viol(v, CL_RESERVED);
	if (r->rep_flags & ~(VRAID_REPLACE_FORCE | VRAID_REPLACE_ROLE)) {
		viol(v, CL_FLAGS);
	} else if (role) {
		if (r->old_major || r->old_minor ||
		    r->old_role >= VRAID_MAX_MEMBERS)
			viol(v, CL_ARGS);
		if (bad_devnum(r->new_major, r->new_minor))
			viol(v, CL_DEVNUM);
	} else {
		if (r->old_role)
			viol(v, CL_ARGS);
		if (bad_devnum(r->old_major, r->old_minor) ||
		    bad_devnum(r->new_major, r->new_minor))
			viol(v, CL_DEVNUM);
		else if (r->old_major == r->new_major &&
			 r->old_minor == r->new_minor)
			viol(v, CL_SAME_DEV);
	}
	model_index(v, r->index);
	if (v->viol || !state)
		return;
	if (!vd_exists(r->index)) {
		viol(v, CL_NO_VD);
		return;
	}
	if ((int)r->index != fix_index) {
		v->maybe = true;
		return;
	}
	if (is_fix_member(r->new_major, r->new_minor))
		viol(v, CL_IS_MEMBER);
	if (role ? r->old_role >= 3 : !is_fix_member(r->old_major, r->old_minor))
		viol(v, CL_NOT_MEMBER);
	model_dev_open(v, r->new_major, r->new_minor,
		       VRAID_DATA_OFFSET_SECTORS + fix_member_sectors, false);
}

/* A cache size SET_CACHE_SIZE takes (vraid_cache_check_bytes()). */
static bool cache_bytes_ok(uint64_t b)
{
	const uint64_t mib = 1ULL << 20;

	/* ctrl_max_bytes: min(RAM / 2 rounded down to a MiB, 1 TiB) */
	return !b || (!(b & (mib - 1)) && b >= 16 * mib &&
		      b <= (1ULL << 40) && b <= ctrl_max_bytes);
}

/*
 * JOURNAL_ATTACH of device @maj:@min with no journal attached
 * (vraid_journal_attach()): a member of the fixture is held (EBUSY), a
 * number without a device ENXIO, a VD or a device under 64 MiB EINVAL;
 * any other device of the fuzzer's is free and large enough, and is
 * formatted (or attached as it is: a journal the fuzzer formatted there
 * before, detached cleanly): it must succeed.  Devices not the fuzzer's
 * never get here (guard()) but as numbers no block device had when the
 * request was built: unknown.
 */
static void model_journal_dev(struct fz_verdict *v, uint32_t maj, uint32_t min)
{
	int idx, k = dev_kind(maj, min, &idx);

	switch (k) {
	case DK_FIXMEM:
		viol(v, CL_DEV_BUSY);
		break;
	case DK_NOEXIST:
		viol(v, CL_DEV_NOEXIST);
		break;
	case DK_SELF:
		viol(v, CL_JOURNAL_DEV);
		break;
	case DK_FREE:
	case DK_PART:
	case DK_WHOLE:
	case DK_STOPPED:
		if (!journal_fits(devs[idx].sectors))
			viol(v, CL_JOURNAL_DEV);
		break;
	default:
		v->maybe = true;
		break;
	}
}

/*
 * CONTROLLER: the fields as validate.c checks them (ctrl_flags: FORCE,
 * with JOURNAL_ATTACH only); then, as root, what the handler does:
 * SET_CACHE_SIZE refuses a size the machine does not take and otherwise
 * succeeds (undo() sets the size back); JOURNAL_ATTACH as
 * model_journal_dev() says (undo() detaches what it attached); there is
 * never a journal when a request is sent, so JOURNAL_DETACH and
 * JOURNAL_DISCARD fail with ENOENT (undo() checks DISCARD of a healthy
 * journal, EINVAL, and a second ATTACH, EBUSY); SHOW succeeds.
 */
static void model_controller(struct fz_verdict *v,
			     const struct vraid_controller *c, bool state)
{
	const size_t out = offsetof(struct vraid_controller,
				    cache_default_bytes);

	if (c->ctrl_flags & ~VRAID_CTRL_FORCE)
		viol(v, CL_FLAGS);
	else if (c->ctrl_flags && c->action != VRAID_CTRL_JOURNAL_ATTACH)
		viol(v, CL_ARGS);
	/* every out field, and the reserved words */
	if (!all_zero((const unsigned char *)c + out, sizeof(*c) - out))
		viol(v, CL_RESERVED);
	if (c->action > VRAID_CTRL_JOURNAL_DISCARD)
		viol(v, CL_ACTION);
	if ((c->action != VRAID_CTRL_SET_CACHE_SIZE && c->cache_bytes) ||
	    (c->action != VRAID_CTRL_JOURNAL_ATTACH && (c->major || c->minor)))
		viol(v, CL_ARGS);
	else if (c->action == VRAID_CTRL_JOURNAL_ATTACH &&
		 bad_devnum(c->major, c->minor))
		viol(v, CL_DEVNUM);
	if (v->viol || !state)
		return;
	switch (c->action) {
	case VRAID_CTRL_SET_CACHE_SIZE:
		if (!cache_bytes_ok(c->cache_bytes))
			viol(v, CL_CACHE_SIZE);
		break;
	case VRAID_CTRL_JOURNAL_ATTACH:
		model_journal_dev(v, c->major, c->minor);
		break;
	case VRAID_CTRL_JOURNAL_DETACH:
	case VRAID_CTRL_JOURNAL_DISCARD:
		viol(v, CL_NO_JOURNAL);
		break;
	}
}

static bool model_cmd(struct fz_verdict *v, uint32_t nr, const void *b,
		      bool state)
{
	switch (nr) {
	case NR_CREATE:		model_create(v, b, state); break;
	case NR_DELETE:		model_delete(v, b, state); break;
	case NR_LIST: {
		const struct vraid_list *l = b;

		if (l->reserved1 || !all_zero(l->reserved2, sizeof(l->reserved2)))
			viol(v, CL_RESERVED);
		break;
	}
	case NR_INFO:		model_info(v, b, state); break;
	case NR_SET_POLICY:	model_set_policy(v, b, state); break;
	case NR_FAIL_MEMBER:	model_fail(v, b, state); break;
	case NR_ASSEMBLE:	model_assemble(v, b, state); break;
	case NR_JOB:		model_job(v, b, state); break;
	case NR_SPARE:		model_spare(v, b, state); break;
	case NR_REPLACE:	model_replace(v, b, state); break;
	case NR_CONTROLLER:	model_controller(v, b, state); break;
	case NR_EVENTS: {
		const struct vraid_events *e = b;

		/* since is the only input: any value reads from there */
		if (e->first || e->next || e->count || e->reserved ||
		    !all_zero(e->events, sizeof(e->events)))
			viol(v, CL_RESERVED);
		break;
	}
	default:
		return false;
	}
	return true;
}

/* Classify req: what must the kernel answer? */
static void classify(struct fz_verdict *v)
{
	const struct vraid_ioc_hdr *h = (const void *)req.b;
	uint32_t nr = _IOC_NR(req.cmd), min = cmd_size(nr);

	memset(v, 0, sizeof(*v));
	if (req.cmd != valid_cmd(nr)) {
		viol(v, CL_IOC_ENCODING);
		v->no_reply = true;
		return;
	}
	if (req.len < HDR_SIZE) {
		viol(v, CL_SHORT_BUF);
		v->no_reply = true;
		return;
	}
	if (!min) {
		viol(v, CL_CMD_UNKNOWN);
		return;
	}
	/* The header, in the kernel's order: the first broken rule counts. */
	if (h->magic != VRAID_IOC_MAGIC) {
		viol(v, CL_HDR_MAGIC);
		return;
	}
	if (h->version_major != VRAID_ABI_MAJOR) {
		viol(v, CL_HDR_VERSION);
		return;
	}
	if (h->size < min || h->size > VRAID_IOC_MAX_SIZE) {
		viol(v, CL_HDR_SIZE);
		return;
	}
	if (h->flags) {
		viol(v, CL_HDR_FLAGS);
		return;
	}
	if (h->reserved) {
		viol(v, CL_HDR_RESERVED);
		return;
	}
	if (req.len < h->size) {
		viol(v, CL_SHORT_BUF);
		/* The tail check may meet a non-zero byte before the fault. */
		if (!all_zero(req.b + min, req.len > min ? req.len - min : 0))
			allow(v, E2BIG);
		return;
	}
	if (h->size > min && !all_zero(req.b + min, h->size - min)) {
		viol(v, CL_TAIL);
		return;
	}
	model_cmd(v, nr, req.b, true);
	if (!v->viol && !v->maybe)
		v->want_ok = true;
}

/* ---- building requests ---- */

struct field {
	const char *name;
	uint32_t off, size;
	int kind;
};

enum {
	K_RES32, K_RES64, K_OUT, K_LEVEL, K_STRIP, K_COUNT, K_SPANS, K_NAME,
	K_DEV, K_SLOTS, K_POLICY, K_INIT, K_FLAGS, K_ACTION, K_RATE, K_MASK,
	K_INDEX, K_ROLE, K_CACHE,
};

#define F(st, fld, k)	{ #fld, offsetof(struct st, fld), \
			  sizeof(((struct st *)0)->fld), k }

static const struct field f_create[] = {
	F(vraid_create, level, K_LEVEL), F(vraid_create, strip_bytes, K_STRIP),
	F(vraid_create, nr_members, K_COUNT), F(vraid_create, spans, K_SPANS),
	F(vraid_create, name, K_NAME), F(vraid_create, index, K_OUT),
	F(vraid_create, init, K_INIT), F(vraid_create, disk_name, K_OUT),
	F(vraid_create, access_policy, K_POLICY),
	F(vraid_create, disk_cache_policy, K_POLICY),
	F(vraid_create, io_policy, K_POLICY),
	F(vraid_create, read_policy, K_POLICY),
	F(vraid_create, write_policy, K_POLICY),
	F(vraid_create, reserved1, K_RES32), F(vraid_create, reserved2, K_RES64),
	F(vraid_create, members, K_SLOTS), F(vraid_create, members, K_SLOTS),
	F(vraid_create, members, K_SLOTS),
};

static const struct field f_delete[] = {
	F(vraid_delete, index, K_INDEX), F(vraid_delete, del_flags, K_FLAGS),
	F(vraid_delete, reserved2, K_RES64),
};

static const struct field f_list[] = {
	F(vraid_list, nr_vds, K_OUT), F(vraid_list, reserved1, K_RES32),
	F(vraid_list, reserved2, K_RES64), F(vraid_list, index, K_OUT),
};

static const struct field f_info[] = {
	F(vraid_info, index, K_INDEX), F(vraid_info, level, K_OUT),
	F(vraid_info, size_sectors, K_OUT), F(vraid_info, name, K_OUT),
	F(vraid_info, full_stripe_bytes, K_OUT),
	F(vraid_info, job_type, K_RES32), F(vraid_info, job_done, K_RES64),
	F(vraid_info, last_result, K_RES32),
	F(vraid_info, write_policy_effective, K_RES32),
	F(vraid_info, cache_flags, K_RES32),
	F(vraid_info, members, K_OUT),
};

static const struct field f_set[] = {
	F(vraid_set_policy, index, K_INDEX), F(vraid_set_policy, set_mask, K_MASK),
	F(vraid_set_policy, access_policy, K_POLICY),
	F(vraid_set_policy, disk_cache_policy, K_POLICY),
	F(vraid_set_policy, io_policy, K_POLICY),
	F(vraid_set_policy, read_policy, K_POLICY),
	F(vraid_set_policy, write_policy, K_POLICY),
	F(vraid_set_policy, reserved1, K_RES32),
	F(vraid_set_policy, reserved2, K_RES64),
};

static const struct field f_fail[] = {
	F(vraid_fail_member, index, K_INDEX), F(vraid_fail_member, major, K_DEV),
	F(vraid_fail_member, fail_flags, K_FLAGS),
	F(vraid_fail_member, reserved2, K_RES64),
};

static const struct field f_assemble[] = {
	F(vraid_assemble, nr_devices, K_COUNT),
	F(vraid_assemble, asm_flags, K_FLAGS), F(vraid_assemble, index, K_OUT),
	F(vraid_assemble, nr_stale, K_OUT), F(vraid_assemble, reserved1, K_RES32),
	F(vraid_assemble, disk_name, K_OUT), F(vraid_assemble, name, K_OUT),
	F(vraid_assemble, replayed, K_OUT),
	F(vraid_assemble, replay_parity, K_OUT),
	F(vraid_assemble, replay_superseded, K_OUT),
	F(vraid_assemble, reserved3, K_RES32),
	F(vraid_assemble, reserved2, K_RES64),
	F(vraid_assemble, devices, K_SLOTS), F(vraid_assemble, devices, K_SLOTS),
};

static const struct field f_job[] = {
	F(vraid_job, index, K_INDEX), F(vraid_job, action, K_ACTION),
	F(vraid_job, rate_kib, K_RATE), F(vraid_job, reserved1, K_RES32),
	F(vraid_job, reserved2, K_RES64),
};

static const struct field f_spare[] = {
	F(vraid_spare, action, K_ACTION), F(vraid_spare, spare_flags, K_FLAGS),
	F(vraid_spare, index, K_INDEX), F(vraid_spare, major, K_DEV),
	F(vraid_spare, major, K_DEV), F(vraid_spare, nr_spares, K_RES32),
	F(vraid_spare, reserved2, K_RES64), F(vraid_spare, spares, K_OUT),
};

static const struct field f_replace[] = {
	F(vraid_replace, index, K_INDEX), F(vraid_replace, old_major, K_DEV),
	F(vraid_replace, new_major, K_DEV), F(vraid_replace, new_major, K_DEV),
	F(vraid_replace, rep_flags, K_FLAGS), F(vraid_replace, old_role, K_ROLE),
	F(vraid_replace, reserved1, K_RES32), F(vraid_replace, reserved2, K_RES64),
};

/* The out fields and reserved words as one: all must be zero on input. */
static const struct field f_ctrl[] = {
	F(vraid_controller, action, K_ACTION),
	F(vraid_controller, action, K_ACTION),
	F(vraid_controller, ctrl_flags, K_FLAGS),
	F(vraid_controller, cache_bytes, K_CACHE),
	F(vraid_controller, cache_bytes, K_CACHE),
	F(vraid_controller, cache_bytes, K_CACHE),
	F(vraid_controller, major, K_DEV), F(vraid_controller, major, K_DEV),
	{ "cache_default_bytes",
	  offsetof(struct vraid_controller, cache_default_bytes),
	  sizeof(struct vraid_controller) -
	  offsetof(struct vraid_controller, cache_default_bytes), K_RES64 },
	F(vraid_controller, reserved, K_RES64),
};

static const struct field f_events[] = {
	F(vraid_events, since, K_OUT), F(vraid_events, first, K_RES64),
	F(vraid_events, next, K_RES64), F(vraid_events, count, K_RES32),
	F(vraid_events, reserved, K_RES32), F(vraid_events, events, K_RES64),
};

static const struct field *fields(uint32_t nr, size_t *n)
{
#define R(a)	do { *n = ARRAY_SIZE(a); return a; } while (0)
	switch (nr) {
	case NR_CREATE:		R(f_create);
	case NR_DELETE:		R(f_delete);
	case NR_LIST:		R(f_list);
	case NR_INFO:		R(f_info);
	case NR_SET_POLICY:	R(f_set);
	case NR_FAIL_MEMBER:	R(f_fail);
	case NR_ASSEMBLE:	R(f_assemble);
	case NR_JOB:		R(f_job);
	case NR_SPARE:		R(f_spare);
	case NR_REPLACE:	R(f_replace);
	case NR_CONTROLLER:	R(f_ctrl);
	case NR_EVENTS:		R(f_events);
	}
#undef R
	*n = 0;
	return NULL;
}

static uint32_t pick(const uint32_t *vals, size_t n)
{
	return vals[rn((uint32_t)n)];
}

#define PICK(...)	({ const uint32_t _v[] = { __VA_ARGS__ }; \
			   pick(_v, ARRAY_SIZE(_v)); })

static void put32(uint32_t off, uint32_t val)
{
	memcpy(req.b + off, &val, 4);
}

static void put64(uint32_t off, uint64_t val)
{
	memcpy(req.b + off, &val, 8);
}

static uint32_t get32(uint32_t off)
{
	uint32_t v;

	memcpy(&v, req.b + off, 4);
	return v;
}

/* A device from the pool: mostly ones the fuzzer knows. */
static const struct fz_dev *pick_dev(void)
{
	static struct fz_dev rnd_dev;

	if (chance(3)) {
		rnd_dev.major = chance(50) ? rnd32() : rn(4096);
		rnd_dev.minor = chance(50) ? rnd32() : rn(1U << 20);
		rnd_dev.kind = DK_OTHER;
		snprintf(rnd_dev.label, sizeof(rnd_dev.label), "random");
		return &rnd_dev;
	}
	return &devs[rn(nr_devs)];
}

static void put_dev(uint32_t off, const struct fz_dev *d)
{
	put32(off, d->major);
	put32(off + 4, d->minor);
}

/* A usable member/spare/replacement: free, partition, stopped, self. */
static const struct fz_dev *pick_usable(bool self)
{
	uint32_t r = rn(100);

	if (r < 55 && nr_free)
		return &devs[free_devs[rn(nr_free)]];
	if (r < 70 && part_dev >= 0)
		return &devs[part_dev];
	if (r < 80 && whole_dev >= 0)
		return &devs[whole_dev];
	if (r < 90 || !self)
		return &devs[stop_devs[rn(2)]];
	return &devs[self_dev];
}

static const char *const names[] = {
	"", "a", "fz1", "x.y_z-W", "vraid", "vraidx", "vraid1a", "0a", "..",
	"-", "-a", "12", "0", "vraid7", "vraid00", "a b", "a/b", "/", "a\tb",
	"\x01", "\x7f", "caf\xc3\xa9", "\xe6\x97\xa5\xe6\x9c\xac", "\xff",
	"a\nb", "a:b", "a*", FIX_NAME, STOP_NAME,
	"abcdefghijklmnopqrstuvwxyz01234",
};

static void mutate_name(uint32_t off)
{
	char *p = (char *)req.b + off;
	uint32_t r = rn(10);

	memset(p, 0, VRAID_NAME_LEN);
	if (r < 6) {
		const char *n = names[rn(ARRAY_SIZE(names))];

		memcpy(p, n, strlen(n));
		what("name \"%.31s\"", n);
	} else if (r < 7) {
		memset(p, 'A' + (int)rn(26), VRAID_NAME_LEN);	/* no NUL */
		what("name without NUL");
	} else if (r < 8) {
		/* valid up to the NUL, garbage after it */
		memcpy(p, "ok", 2);
		for (r = 3; r < VRAID_NAME_LEN; r++)
			p[r] = (char)rnd32();
		what("name \"ok\" + garbage after NUL");
	} else {
		uint32_t n = 1 + rn(VRAID_NAME_LEN), i;

		for (i = 0; i < n && i < VRAID_NAME_LEN; i++)
			p[i] = chance(70) ? "abcXYZ019._-"[rn(12)] : (char)rnd32();
		what("name of %u random bytes", n);
	}
}

/*
 * A controller cache size: one SET_CACHE_SIZE takes (@valid), or from the
 * whole pool (invalid ones too).  Valid sizes are any the machine takes,
 * up to RAM / 2: the size in effect changes for a moment, and is set
 * back after the request.
 */
static uint64_t cache_value(bool valid)
{
	const uint64_t mib = 1ULL << 20, max = ctrl_max_bytes;
	uint64_t any = max >= 16 * mib ?
		       16 * mib + mib * (rnd64() % ((max - 16 * mib) / mib + 1)) :
		       0;
	const uint64_t good[] = {
		0, 0, 16 * mib, 64 * mib, ctrl_orig_bytes, ctrl_default_bytes,
		max & ~(mib - 1), any, any,
	};
	const uint64_t bad[] = {
		1, 4096, mib, 15 * mib, 16 * mib - 1, 16 * mib + 1,
		16 * mib + 4096, 64 * mib + 512, max + mib, max + 1,
		(1ULL << 40) + mib, 1ULL << 41, 1ULL << 63, ~0ULL, rnd64(),
		rnd64() & ~(mib - 1), rnd32(), (uint64_t)rnd32() << 20,
	};

	if (valid || chance(40))
		return good[rn(ARRAY_SIZE(good))];
	return bad[rn(ARRAY_SIZE(bad))];
}

static uint32_t index_value(void)
{
	if (chance(40) && fix_index >= 0)
		return (uint32_t)fix_index;
	return PICK(0, 1, 2, 7, 128, 254, 255, 256, 257, 1024, 0x7fffffff,
		    0x80000000, 0xffffffff, rnd32(), rn(256));
}

/* Set field @f of the request to a value from its pool. */
static void mutate_field(const struct field *f)
{
	uint32_t off = f->off, val;

	switch (f->kind) {
	case K_RES32:
	case K_RES64:
		off += f->kind == K_RES64 ? 4 * rn(f->size / 4) : 0;
		val = PICK(1, 0x80000000, 0xffffffff, rnd32() | 1);
		put32(off, val);
		what("%s+%u = 0x%x", f->name, off - f->off, val);
		return;
	case K_OUT:
		off += 4 * rn(f->size / 4);
		val = rnd32();
		put32(off, val);
		what("out %s+%u = 0x%x", f->name, off - f->off, val);
		return;
	case K_LEVEL:
		val = PICK(0, 1, 5, 6, 10, 50, 60, 255, 2, 3, 4, 7, 9, 11, 49,
			   61, 100, 254, 256, 0xffffffff, rnd32());
		break;
	case K_STRIP:
		val = PICK(0, 4096, 8192, 65536, 1048576, 1, 512, 2048, 3072,
			   4095, 4097, 49152, 2097152, 0x80000000, 0xffffffff,
			   rnd32());
		break;
	case K_COUNT:
		val = PICK(0, 1, 2, 3, 4, 5, 6, 8, 16, 31, 32, 33, 64, 255,
			   0xffffffff, rnd32());
		break;
	case K_SPANS:
		val = PICK(0, 1, 2, 3, 4, 8, 32, 0xffffffff);
		break;
	case K_NAME:
		mutate_name(off);
		return;
	case K_DEV: {
		const struct fz_dev *d = pick_dev();

		put_dev(off, d);
		what("%s = %u:%u (%s)", f->name, d->major, d->minor, d->label);
		return;
	}
	case K_SLOTS: {
		uint32_t slot = chance(70) ? rn(8) : rn(VRAID_MAX_MEMBERS);
		const struct fz_dev *d = pick_dev();

		if (chance(15)) {
			put32(off + 8 * slot, 0);
			put32(off + 8 * slot + 4, 0);
			what("%s[%u] = 0:0", f->name, slot);
			return;
		}
		put_dev(off + 8 * slot, d);
		what("%s[%u] = %u:%u (%s)", f->name, slot, d->major, d->minor,
		     d->label);
		return;
	}
	case K_POLICY:
		val = PICK(0, 1, 2, 3, 4, 0xffffffff, rnd32());
		break;
	case K_INIT:
		val = PICK(0, 1, 2, 3, 0xffffffff);
		break;
	case K_FLAGS:
		val = PICK(0, 1, 2, 3, 4, 0x80000000, 0xffffffff, 1U << rn(32));
		break;
	case K_ACTION:
		val = PICK(0, 1, 2, 3, 4, 5, 6, 7, 8, 0xff, 0xffffffff);
		break;
	case K_RATE:
		val = PICK(0, 1, 1024, VRAID_JOB_RATE_MAX, VRAID_JOB_RATE_MAX + 1,
			   0xffffffff, rnd32());
		break;
	case K_MASK:
		val = PICK(0, 1, 2, 4, 8, 16, 3, 0x1f, 0x20, 0x3f, 0xffffffff,
			   rn(32));
		break;
	case K_INDEX:
		val = index_value();
		break;
	case K_ROLE:
		val = PICK(0, 1, 2, 3, 31, 32, 0xffffffff);
		break;
	case K_CACHE: {
		uint64_t v = cache_value(false);

		put64(off, v);
		what("%s = %" PRIu64 " (%" PRIu64 " MiB%s)", f->name, v,
		     v >> 20, v & ((1ULL << 20) - 1) ? " + a part" : "");
		return;
	}
	default:
		return;
	}
	put32(off, val);
	what("%s = %u", f->name, val);
}

/* Valid requests (as far as the fuzzer can make them). */
static void base_create(struct vraid_create *c)
{
	static const uint32_t lv[] = { 0, 1, 5, 6, 10, 50, 60, 255 };
	const struct fz_dev *used[VRAID_MAX_MEMBERS];
	uint32_t i, j, n;

	c->level = lv[rn(ARRAY_SIZE(lv))];
	switch (c->level) {
	case 255:	n = 1; break;
	case 0:
	case 1:		n = 2 + rn(2); break;
	case 5:		n = 3 + rn(2); break;
	case 6:		n = 4 + rn(2); break;
	case 10:	n = 4; break;
	case 50:	n = 6; c->spans = 2; break;
	default:	n = 8; c->spans = 2; break;
	}
	c->nr_members = n;
	if (c->level != 255 && chance(50))
		c->strip_bytes = 4096U << rn(9);
	if (chance(50))
		snprintf(c->name, sizeof(c->name), "fz%u", rn(1000));
	if (c->level != 0 && c->level != 255 && chance(30))
		c->init = 1 + rn(2);
	if (chance(20))
		c->access_policy = rn(3);
	if (chance(20))
		c->disk_cache_policy = rn(3);
	/* distinct devices while there are any */
	for (i = 0; i < n; i++) {
		int tries = 0;
again:
		used[i] = pick_usable(chance(10));
		for (j = 0; j < i; j++)
			if (used[j] == used[i] && tries++ < 20)
				goto again;
		c->members[i].major = used[i]->major;
		c->members[i].minor = used[i]->minor;
	}
	what("CREATE RAID%u x%u", c->level, n);
}

static void base_request(uint32_t nr)
{
	void *b = req.b;
	uint32_t i;

	hdr_init(b, cmd_size(nr));
	req.cmd = valid_cmd(nr);
	req.len = cmd_size(nr);
	switch (nr) {
	case NR_CREATE:
		base_create(b);
		break;
	case NR_DELETE: {
		struct vraid_delete *d = b;

		d->index = chance(25) ? (uint32_t)fix_index : index_value();
		if (chance(30))
			d->del_flags = VRAID_DELETE_STOP;
		what("DELETE %u", d->index);
		break;
	}
	case NR_LIST:
		what("LIST");
		break;
	case NR_EVENTS: {
		struct vraid_events *e = b;

		e->since = PICK(0, 1, 2, 1000, 0x7fffffff, 0xffffffff);
		what("EVENTS since %llu", (unsigned long long)e->since);
		break;
	}
	case NR_INFO: {
		struct vraid_info *in = b;

		in->index = chance(80) ? (uint32_t)fix_index : index_value();
		what("INFO %u", in->index);
		break;
	}
	case NR_SET_POLICY: {
		struct vraid_set_policy *p = b;

		p->index = (uint32_t)fix_index;
		p->set_mask = 1 + rn(0x1f);
		if (p->set_mask & VRAID_SET_ACCESS)
			p->access_policy = rn(3);
		if (p->set_mask & VRAID_SET_DISK_CACHE)
			p->disk_cache_policy = rn(3);
		what("SET_POLICY mask 0x%x", p->set_mask);
		break;
	}
	case NR_FAIL_MEMBER: {
		struct vraid_fail_member *f = b;
		const struct fz_dev *d = &devs[fix_devs[rn(3)]];

		f->index = (uint32_t)fix_index;
		f->major = d->major;
		f->minor = d->minor;
		if (chance(30))
			f->fail_flags = VRAID_FAIL_FORCE;
		what("FAIL_MEMBER %s", d->label);
		break;
	}
	case NR_ASSEMBLE: {
		struct vraid_assemble *a = b;
		bool swap = chance(50);

		a->nr_devices = chance(80) ? 2 : 1;
		for (i = 0; i < a->nr_devices; i++) {
			const struct fz_dev *d = &devs[stop_devs[i ^ swap]];

			a->devices[i].major = d->major;
			a->devices[i].minor = d->minor;
		}
		if (chance(20))
			a->asm_flags = VRAID_ASM_NO_JOURNAL;
		if (chance(20))
			a->asm_flags |= VRAID_ASM_FORCE;
		what("ASSEMBLE x%u%s%s", a->nr_devices,
		     a->asm_flags & VRAID_ASM_NO_JOURNAL ? " NO_JOURNAL" : "",
		     a->asm_flags & VRAID_ASM_FORCE ? " FORCE" : "");
		break;
	}
	case NR_JOB: {
		struct vraid_job *j = b;

		j->index = (uint32_t)fix_index;
		j->action = 1 + rn(7);
		if (j->action == VRAID_JOB_SET_RATE)
			j->rate_kib = PICK(0, 1, 1024, VRAID_JOB_RATE_MAX);
		what("JOB %u", j->action);
		break;
	}
	case NR_SPARE: {
		struct vraid_spare *s = b;
		const struct fz_dev *d = pick_usable(chance(10));

		s->action = 1 + rn(3);
		if (s->action != VRAID_SPARE_LIST) {
			s->major = d->major;
			s->minor = d->minor;
		}
		if (s->action == VRAID_SPARE_ADD && chance(40)) {
			s->spare_flags = VRAID_SPARE_DEDICATED;
			s->index = (uint32_t)fix_index;
		}
		what("SPARE %u %s", s->action, s->action == 3 ? "" : d->label);
		break;
	}
	case NR_REPLACE: {
		struct vraid_replace *r = b;
		const struct fz_dev *d = pick_usable(chance(10));
		uint32_t role = rn(3);

		r->index = (uint32_t)fix_index;
		if (chance(25)) {
			r->rep_flags = VRAID_REPLACE_ROLE;
			r->old_role = role;
		} else {
			r->old_major = devs[fix_devs[role]].major;
			r->old_minor = devs[fix_devs[role]].minor;
		}
		if (chance(30))
			r->rep_flags |= VRAID_REPLACE_FORCE;
		r->new_major = d->major;
		r->new_minor = d->minor;
		what("REPLACE role %u by %s", role, d->label);
		break;
	}
	case NR_CONTROLLER: {
		struct vraid_controller *c = b;
		uint32_t r = rn(100);

		if (r < 40) {
			c->action = VRAID_CTRL_SHOW;
			what("CONTROLLER SHOW");
		} else if (r < 70) {
			c->action = VRAID_CTRL_SET_CACHE_SIZE;
			c->cache_bytes = cache_value(true);
			what("CONTROLLER SET_CACHE_SIZE %" PRIu64 " MiB",
			     (uint64_t)c->cache_bytes >> 20);
		} else if (r < 88) {
			/* half of them a device it formats (a free one) */
			const struct fz_dev *d = chance(50) ? pick_usable(false) :
						 pick_dev();

			c->action = VRAID_CTRL_JOURNAL_ATTACH;
			c->major = d->major;
			c->minor = d->minor;
			if (chance(30))
				c->ctrl_flags = VRAID_CTRL_FORCE;
			what("CONTROLLER JOURNAL_ATTACH %u:%u (%s)%s", d->major,
			     d->minor, d->label, c->ctrl_flags ? " FORCE" : "");
		} else if (r < 94) {
			c->action = VRAID_CTRL_JOURNAL_DETACH;
			what("CONTROLLER JOURNAL_DETACH");
		} else {
			c->action = VRAID_CTRL_JOURNAL_DISCARD;
			what("CONTROLLER JOURNAL_DISCARD");
		}
		break;
	}
	default:
		what("command 0x%02x", nr);
		break;
	}
}

/* One mutation of the request. */
static void mutate(void)
{
	struct vraid_ioc_hdr *h = (void *)req.b;
	uint32_t nr = _IOC_NR(req.cmd), min = cmd_size(nr), r = rn(100);
	const struct field *f;
	size_t nf;

	if (r < 58 && (f = fields(nr, &nf)) != NULL) {
		mutate_field(&f[rn((uint32_t)nf)]);
	} else if (r < 72) {
		switch (rn(9)) {
		case 0:
			h->magic = PICK(0, 0x49415256, VRAID_IOC_MAGIC + 1,
					0xffffffff, rnd32());
			what("hdr.magic = 0x%x", h->magic);
			break;
		case 1:
			h->version_major = (uint16_t)PICK(0, 2, 0x100, 0xffff,
							  rnd32());
			what("hdr.version_major = %u", h->version_major);
			break;
		case 2:
			h->version_minor = (uint16_t)rnd32();
			what("hdr.version_minor = %u", h->version_minor);
			break;
		case 3:
		case 4:
			h->size = PICK(0, 1, HDR_SIZE - 1, HDR_SIZE, min - 1,
				       min - 8, min + 1, min + 4096,
				       VRAID_IOC_MAX_SIZE, VRAID_IOC_MAX_SIZE + 1,
				       0x80000000, 0xffffffff, rnd32());
			if (h->size > req.len && h->size <= VRAID_IOC_MAX_SIZE)
				req.len = h->size;
			what("hdr.size = %u", h->size);
			break;
		case 5:
			h->flags = PICK(1, 0x80000000, 0xffffffff, 1U << rn(32));
			what("hdr.flags = 0x%x", h->flags);
			break;
		case 6:
			h->reserved = PICK(1, 0x80000000, 0xffffffff, rnd32());
			what("hdr.reserved = 0x%x", h->reserved);
			break;
		default:	/* output fields: ignored by the kernel */
			h->status = (int32_t)rnd32();
			for (nf = 0; nf < sizeof(h->message); nf++)
				h->message[nf] = (char)rnd32();
			what("hdr.status, hdr.message garbage");
			break;
		}
	} else if (r < 78) {
		/* a longer request from a newer tool: zero tail, or not */
		uint32_t extra = chance(80) ? 1 + rn(256) :
				 1 + rn(VRAID_IOC_MAX_SIZE - min);

		h->size = min + extra;
		req.len = h->size;
		if (chance(50)) {
			uint32_t at = min + rn(extra);

			req.b[at] = (unsigned char)(1 + rn(255));
			what("hdr.size = %u, tail byte %u = 0x%02x", h->size,
			     at, req.b[at]);
		} else {
			what("hdr.size = %u, zero tail", h->size);
		}
	} else if (r < 88) {
		uint32_t at = rn((uint32_t)req.len);

		req.b[at] ^= (unsigned char)(1U << rn(8));
		what("bit flip at byte %u", at);
	} else if (r < 91) {
		uint32_t at = rn((uint32_t)req.len), n = 1 + rn(64), i;

		for (i = 0; i < n && at + i < req.len; i++)
			req.b[at + i] = (unsigned char)rnd32();
		what("random bytes %u..%u", at, at + n - 1);
	} else if (r < 94) {
		switch (rn(5)) {
		case 0:
			req.cmd = _IOC(_IOC_DIR(req.cmd), PICK(0xf6, 0xf8, 0xff),
				       nr, HDR_SIZE);
			break;
		case 1:
			req.cmd = _IOC(PICK(_IOC_NONE, _IOC_READ, _IOC_WRITE),
				       VRAID_IOC_TYPE, nr, HDR_SIZE);
			break;
		case 2:
			req.cmd = _IOC(_IOC_READ | _IOC_WRITE, VRAID_IOC_TYPE, nr,
				       PICK(0, 1, 8, 151, 153, min, 0x3fff,
					    rn(0x4000)));
			break;
		case 3:
			req.cmd = valid_cmd(PICK(NR_CONTROLLER, 0x0a, 0x11,
						 0x0d, 0x10, 0x7f, 0xff,
						 rn(256)));
			break;
		default:
			req.cmd = (uint32_t)(0xc098f700 + rn(0x100)) ^
				  (1U << rn(32));
			/* keep away from other drivers' and the VFS's numbers */
			if (_IOC_TYPE(req.cmd) != VRAID_IOC_TYPE)
				req.cmd = _IOC(_IOC_DIR(req.cmd), 0xf8,
					       _IOC_NR(req.cmd),
					       _IOC_SIZE(req.cmd));
			break;
		}
		what("ioctl number 0x%08x", req.cmd);
	} else {
		uint32_t want = h->size > min && h->size <= VRAID_IOC_MAX_SIZE ?
				h->size : min;

		req.len = rn(want);
		what("only %zu bytes mapped", req.len);
	}
}

/* Random bytes, with a plausible header now and then. */
static void random_request(void)
{
	struct vraid_ioc_hdr *h = (void *)req.b;
	uint32_t nr = chance(85) ? rn(16) : rn(256);
	size_t i;

	req.len = chance(70) ? rn(8192) : rn(VRAID_IOC_MAX_SIZE + 1);
	for (i = 0; i < req.len; i++)
		req.b[i] = (unsigned char)rnd32();
	req.cmd = valid_cmd(nr);
	if (chance(10))
		req.cmd = _IOC(_IOC_READ | _IOC_WRITE, VRAID_IOC_TYPE, nr,
			       rn(0x4000));
	if (req.len >= HDR_SIZE && chance(70)) {
		h->magic = VRAID_IOC_MAGIC;
		if (chance(80))
			h->version_major = VRAID_ABI_MAJOR;
		if (chance(70)) {
			h->size = (uint32_t)req.len;
			h->flags = 0;
			h->reserved = 0;
		}
	}
	what("random %zu bytes, command 0x%02x", req.len, nr);
	nr_random++;
}

/*
 * A JOURNAL_ATTACH formats its device: it may only name the fuzzer's own
 * devices, or numbers no block device has (as far as one can tell before
 * the call: one may appear on demand, brd's or loop's, nobody's data).
 * Any other block device's number becomes one no device has.  With VDs
 * not the fuzzer's there is no attach at all: it would bind those with
 * write-back to the journal, which changes their metadata.
 */
static void guard_journal(void)
{
	const uint32_t off = offsetof(struct vraid_controller, action);
	const uint32_t moff = offsetof(struct vraid_controller, major);
	uint32_t maj, min;
	int idx, k;

	if (_IOC_NR(req.cmd) != NR_CONTROLLER ||
	    req.len < offsetof(struct vraid_controller, minor) + 4 ||
	    get32(off) != VRAID_CTRL_JOURNAL_ATTACH)
		return;
	maj = get32(moff);
	min = get32(moff + 4);
	k = dev_kind(maj, min, &idx);
	if (nr_preexisting) {
		put32(off, VRAID_CTRL_SHOW);
		what("(JOURNAL_ATTACH with VDs not ours: SHOW instead)");
	} else if ((k == DK_OTHER || k == DK_CHAR) && blockdev_exists(maj, min)) {
		put32(moff, 3000);
		put32(moff + 4, 1);
		what("(JOURNAL_ATTACH of %u:%u, a block device not ours: 3000:1 instead)",
		     maj, min);
	}
}

/* Never touch VDs that were there before the fuzzer started. */
static void guard(void)
{
	uint32_t nr = _IOC_NR(req.cmd), off;

	guard_journal();
	switch (nr) {
	case NR_DELETE:		off = offsetof(struct vraid_delete, index); break;
	case NR_SET_POLICY:	off = offsetof(struct vraid_set_policy, index); break;
	case NR_FAIL_MEMBER:	off = offsetof(struct vraid_fail_member, index); break;
	case NR_JOB:		off = offsetof(struct vraid_job, index); break;
	case NR_SPARE:		off = offsetof(struct vraid_spare, index); break;
	case NR_REPLACE:	off = offsetof(struct vraid_replace, index); break;
	default:
		return;
	}
	if (off + 4 <= req.len && get32(off) < VRAID_MAX_VDS &&
	    preexisting[get32(off)]) {
		put32(off, (uint32_t)fix_index);
		what("(index of a VD not ours: the fixture's instead)");
	}
}

static void build(uint64_t iter)
{
	uint32_t nr, k, i;

	seed_iteration(seed, iter);
	memset(req.b, 0, sizeof(req.b));
	req.what_len = 0;
	req.what[0] = '\0';
	if (chance(5)) {
		random_request();
		guard();
		return;
	}
	nr = PICK(NR_CREATE, NR_CREATE, NR_CREATE, NR_CREATE, NR_DELETE,
		  NR_DELETE, NR_LIST, NR_INFO, NR_INFO, NR_SET_POLICY,
		  NR_SET_POLICY, NR_FAIL_MEMBER, NR_FAIL_MEMBER, NR_SPARE,
		  NR_SPARE, NR_REPLACE, NR_REPLACE, NR_JOB, NR_JOB,
		  NR_ASSEMBLE, NR_ASSEMBLE, NR_CONTROLLER, NR_CONTROLLER,
		  NR_EVENTS);
	if (chance(2))
		nr = PICK(0x0a, 0x11, 0x0d, 0x0e, 0x0f, 0x10, 0x80, 0xff);
	base_request(nr);
	k = rn(100);
	k = k < 10 ? 0 : k < 65 ? 1 : k < 85 ? 2 : 3;
	for (i = 0; i < k; i++)
		mutate();
	guard();
}

/* ---- after a call ---- */

static void fail_report(uint64_t iter, const char *why, const struct fz_verdict *v,
			int ret, int err, const unsigned char *reply)
{
	const struct vraid_ioc_hdr *h = (const void *)reply;
	int cl;

	nr_failures++;
	if (nr_failures > MAX_FAIL_SHOWN) {
		printf("ioctlfuzz: FAIL iteration %" PRIu64 ": %s (details not shown)\n",
		       iter, why);
		return;
	}
	printf("ioctlfuzz: FAIL iteration %" PRIu64 " (seed %" PRIu64 "): %s\n",
	       iter, seed, why);
	printf("  request: %s %s\n", cmd_name(_IOC_NR(req.cmd)), req.what);
	printf("  classes:");
	for (cl = 0; cl < NR_CLASSES; cl++)
		if (v->viol & (1ULL << cl))
			printf(" %s", classes[cl].name);
	printf("%s%s\n", v->viol ? "" : " none (valid)", v->maybe ? " (+unknown parts)" : "");
	if (ret < 0)
		printf("  result: %s, status %d, message \"%.*s\"\n", errname(err),
		       req.len >= HDR_SIZE ? h->status : 0,
		       req.len >= HDR_SIZE ? VRAID_MSG_LEN : 0,
		       req.len >= HDR_SIZE ? h->message : "");
	else
		printf("  result: success\n");
	hexdump(stdout, req.cmd, req.b, req.len);
	fflush(stdout);
}

/*
 * After a successful JOURNAL_ATTACH (@c its reply): the journal is
 * healthy, so DISCARD has nothing to drop (EINVAL) and a second ATTACH
 * finds it (EBUSY), neither changing it; then it is detached.  A device
 * of the stopped RAID1 lost its metadata copy A to the superblock.
 */
static void journal_undo(const struct vraid_controller *c)
{
	static struct vraid_controller r;
	int idx, ret;

	nr_journal_attached++;
	hdr_init(&r, sizeof(r));
	r.action = VRAID_CTRL_JOURNAL_DISCARD;
	ret = ctl(NR_CONTROLLER, &r);
	if (ret != -EINVAL)
		journal_fail("DISCARD of a healthy journal: %s, want EINVAL: %.*s",
			     errname(-ret), VRAID_MSG_LEN, r.hdr.message);
	hdr_init(&r, sizeof(r));
	r.action = VRAID_CTRL_JOURNAL_ATTACH;
	r.major = c->journal_major;
	r.minor = c->journal_minor;
	ret = ctl(NR_CONTROLLER, &r);
	if (ret != -EBUSY)
		journal_fail("a second ATTACH (%u:%u): %s, want EBUSY: %.*s",
			     c->journal_major, c->journal_minor, errname(-ret),
			     VRAID_MSG_LEN, r.hdr.message);
	journal_detach();
	if (dev_kind(c->journal_major, c->journal_minor, &idx) == DK_STOPPED)
		stop_dirty = true;
}

/* Undo what a successful request did. */
static void undo(uint32_t nr, const unsigned char *reply)
{
	switch (nr) {
	case NR_CREATE: {
		const struct vraid_create *c = (const void *)reply;
		uint32_t i;

		vd_delete(c->index, false);
		for (i = 0; i < c->nr_members && i < VRAID_MAX_MEMBERS; i++) {
			int idx;

			if (dev_kind(c->members[i].major, c->members[i].minor,
				     &idx) == DK_STOPPED)
				stop_dirty = true;
		}
		break;
	}
	case NR_DELETE:
	case NR_FAIL_MEMBER:
		fix_dirty = true;
		break;
	case NR_REPLACE:
		/* the new device may have been one of the stopped RAID1 */
		fix_dirty = true;
		stop_dirty = true;
		break;
	case NR_ASSEMBLE: {
		const struct vraid_assemble *a = (const void *)reply;

		vd_delete(a->index, true);
		if (a->nr_devices != 2 || a->nr_used != 2 || a->nr_stale)
			stop_dirty = true;
		break;
	}
	case NR_SET_POLICY: {
		struct vraid_set_policy p;

		hdr_init(&p, sizeof(p));
		p.index = (uint32_t)fix_index;
		p.set_mask = 0x1f;
		if (ctl(NR_SET_POLICY, &p))
			fix_dirty = true;
		break;
	}
	case NR_JOB: {
		const struct vraid_job *j = (const void *)reply;

		if (j->action == VRAID_JOB_SET_RATE) {
			struct vraid_job r;

			hdr_init(&r, sizeof(r));
			r.index = (uint32_t)fix_index;
			r.action = VRAID_JOB_SET_RATE;
			if (ctl(NR_JOB, &r))
				fix_dirty = true;
		} else {
			fix_dirty = true;
		}
		break;
	}
	case NR_SPARE: {
		const struct vraid_spare *s = (const void *)reply;
		struct vraid_spare r;
		int idx;

		if (s->action != VRAID_SPARE_ADD)
			break;
		/*
		 * ADD wrote a hot spare record over the metadata (ABI 1.14),
		 * REMOVE erases it: a device of the stopped RAID1 lost it
		 */
		if (dev_kind(s->major, s->minor, &idx) == DK_STOPPED)
			stop_dirty = true;
		hdr_init(&r, sizeof(r));
		r.action = VRAID_SPARE_REMOVE;
		r.major = s->major;
		r.minor = s->minor;
		if (ctl(NR_SPARE, &r)) {
			/* taken by a VD already: start from scratch */
			fix_dirty = true;
			stop_dirty = true;
		}
		break;
	}
	case NR_CONTROLLER: {
		const struct vraid_controller *c = (const void *)reply;

		/* SHOW changes nothing; DETACH and DISCARD cannot succeed */
		if (c->action == VRAID_CTRL_JOURNAL_ATTACH)
			journal_undo(c);
		else if (c->action != VRAID_CTRL_SHOW)
			ctrl_dirty = true;
		break;
	}
	}
}

/*
 * The journal a successful JOURNAL_ATTACH (@q) reports in @c: healthy (a
 * device the fuzzer formatted, or formatted and detached cleanly before),
 * on the device named, its ring the device's from 1 MiB on, nothing
 * logged yet and nothing waiting for replay.
 */
static const char *check_journal_reply(const struct vraid_controller *c,
				       const struct vraid_controller *q)
{
	int idx, k = dev_kind(q->major, q->minor, &idx);

	if (c->journal_state != VRAID_JOURNAL_HEALTHY)
		return "JOURNAL_ATTACH succeeded, but the journal is not healthy";
	if (c->journal_major != q->major || c->journal_minor != q->minor)
		return "JOURNAL_ATTACH reports another journal device";
	if (k != DK_OTHER && k != DK_CHAR ?
	    c->journal_bytes != journal_ring_bytes(devs[idx].sectors) :
	    c->journal_bytes < (J_MIN_SECTORS - J_RING_START) * 512)
		return "JOURNAL_ATTACH: the ring is not the device from 1 MiB on";
	if (c->journal_used_bytes > c->journal_bytes)
		return "JOURNAL_ATTACH: more of the ring used than there is";
	if (all_zero(c->journal_uuid, sizeof(c->journal_uuid)))
		return "JOURNAL_ATTACH: the journal's UUID is zero";
	if (!c->journal_tail_seq || c->journal_head_seq < c->journal_tail_seq)
		return "JOURNAL_ATTACH: sequence numbers: tail 0 or head before tail";
	if (c->journal_pending)
		return "JOURNAL_ATTACH: VDs awaiting replay in a healthy journal";
	/* no VD the fuzzer keeps has write policy wb when it attaches */
	if (c->journal_vds)
		return "JOURNAL_ATTACH: VDs log to the journal, none has write-back";
	return NULL;
}

/*
 * A successful CONTROLLER: the size in effect is the one just set, or
 * (SHOW) the one of the start, set back after every change; RAM does not
 * change, so neither do the default and the largest size; every running
 * VD shares the cache; there is no journal, but the one a JOURNAL_ATTACH
 * just attached.
 */
static const char *check_ctrl_reply(const struct vraid_controller *c,
				    const struct vraid_controller *q)
{
	uint64_t want = ctrl_orig_bytes;
	bool now[VRAID_MAX_VDS];
	const char *bad;
	uint32_t i, n = 0;

	if (q->action == VRAID_CTRL_SET_CACHE_SIZE)
		want = q->cache_bytes ? q->cache_bytes : ctrl_default_bytes;
	if (c->action != q->action || c->ctrl_flags || c->major || c->minor)
		return "CONTROLLER reply changed action, flags or device";
	if (c->cache_bytes != want)
		return "CONTROLLER cache_bytes is not the size in effect";
	if (c->cache_default_bytes != ctrl_default_bytes ||
	    c->cache_max_bytes != ctrl_max_bytes)
		return "CONTROLLER default or largest size changed";
	if (c->cache_dirty_high_bytes > c->cache_bytes ||
	    c->cache_dirty_bytes > c->cache_bytes)
		return "CONTROLLER dirty bytes or their limit above the size";
	bad = q->action == VRAID_CTRL_JOURNAL_ATTACH ?
	      check_journal_reply(c, q) : journal_none(c);
	if (bad)
		return bad;
	if (!all_zero(c->reserved, sizeof(c->reserved)))
		return "CONTROLLER reply has reserved words set";
	if (vd_list(now))
		return "LIST after CONTROLLER failed";
	for (i = 0; i < VRAID_MAX_VDS; i++)
		n += now[i];
	if (c->nr_vds != n)
		return "CONTROLLER nr_vds is not the number of VDs LIST has";
	return NULL;
}

/* Check the reply of a successful call: header, and what it says. */
static const char *check_ok_reply(uint32_t nr, const unsigned char *reply)
{
	const struct vraid_ioc_hdr *h = (const void *)reply;
	uint32_t min = cmd_size(nr);

	if (h->status != 0)
		return "success but hdr.status is not 0";
	if (h->message[0])
		return "success but hdr.message is not empty";
	if (h->version_major != VRAID_ABI_MAJOR)
		return "success but hdr.version_major is not the module's";
	if (req.len > min && memcmp(reply + min, req.b + min, req.len - min))
		return "success wrote past the struct (into the tail)";
	if (nr == NR_CREATE) {
		const struct vraid_create *c = (const void *)reply;
		char dn[VRAID_DEVNAME_LEN];

		if (c->index >= VRAID_MAX_VDS)
			return "CREATE returned an index >= 256";
		snprintf(dn, sizeof(dn), "vraid%u", c->index);
		if (strncmp(dn, c->disk_name, sizeof(dn)))
			return "CREATE disk_name is not vraid<index>";
	}
	if (nr == NR_EVENTS) {
		const struct vraid_events *e = (const void *)reply;
		uint32_t i;

		if (e->count > VRAID_EVENTS_MAX)
			return "EVENTS count above VRAID_EVENTS_MAX";
		if (!e->first || e->first > e->next)
			return "EVENTS first is 0 or after next";
		for (i = 0; i < e->count; i++)
			if (e->events[i].seq < e->first ||
			    e->events[i].seq >= e->next ||
			    (i && e->events[i].seq != e->events[i - 1].seq + 1))
				return "EVENTS entries out of first..next or not consecutive";
		return NULL;
	}
	if (nr == NR_LIST) {
		const struct vraid_list *l = (const void *)reply;
		uint32_t i;

		if (l->nr_vds > VRAID_MAX_VDS)
			return "LIST nr_vds above 256";
		for (i = 0; i < l->nr_vds; i++)
			if ((int)l->index[i] == fix_index)
				return NULL;
		return "LIST does not have the fixture";
	}
	if (nr == NR_INFO) {
		const struct vraid_info *in = (const void *)reply;

		if ((int)in->index == fix_index &&
		    (in->level != VRAID_LEVEL_5 || in->nr_members != 3 ||
		     strncmp(in->name, FIX_NAME, VRAID_NAME_LEN)))
			return "INFO of the fixture does not describe it";
	}
	if (nr == NR_CONTROLLER)
		return check_ctrl_reply((const void *)reply,
					(const void *)req.b);
	return NULL;
}

static bool errno_allowed(const struct fz_verdict *v, int err)
{
	int i;

	if (v->any_errno)
		return true;
	for (i = 0; i < v->nallow; i++)
		if (v->allow[i] == err)
			return true;
	return false;
}

static void run_one(uint64_t iter)
{
	unsigned char *p = mapbuf + BUF_MAX - req.len;
	uint32_t nr = _IOC_NR(req.cmd);
	const struct vraid_ioc_hdr *h = (const void *)p;
	struct fz_verdict v;
	const char *bad;
	int ret, err = 0, cl;

	classify(&v);
	/* The request ends where the guard page begins. */
	memcpy(p, req.b, req.len);
	shm->iter = iter;
	ret = tracked_ioctl(req.cmd, p, req.len, req.what);
	if (ret < 0)
		err = errno;

	if (verbose)
		printf("%" PRIu64 ": %s %s -> %s%s%.*s\n", iter, cmd_name(nr),
		       req.what, ret < 0 ? errname(err) : "ok",
		       ret < 0 && req.len >= HDR_SIZE ? ": " : "",
		       ret < 0 && req.len >= HDR_SIZE ? VRAID_MSG_LEN : 0,
		       ret < 0 && req.len >= HDR_SIZE ? h->message : "");

	if (v.nviol == 1 && !v.maybe) {
		for (cl = 0; cl < NR_CLASSES; cl++)
			if (v.viol & (1ULL << cl))
				stat_add(&cls_stat[cl], ret < 0 ? err : 0);
	} else if (v.nviol) {
		stat_add(&multi_stat, ret < 0 ? err : 0);
	} else if (!v.want_ok && nr < 256) {
		stat_add(&maybe_stat[nr], ret < 0 ? err : 0);
	}
	if (v.want_ok)
		valid_by_nr[nr & 0xff]++;

	if (ret == 0) {
		ok_by_nr[nr & 0xff]++;
		if (v.viol) {
			nr_accepted_invalid++;
			fail_report(iter, "an invalid request succeeded", &v, ret,
				    0, p);
		} else if (req.len >= HDR_SIZE && cmd_size(nr) &&
			   (bad = check_ok_reply(nr, p)) != NULL) {
			nr_bad_reply++;
			fail_report(iter, bad, &v, ret, 0, p);
		}
		/*
		 * A member failure, a replacement, a new spare or a degraded
		 * assembly queues the spare worker; --settle gives it time to
		 * run before the next request (see the usage).
		 */
		if (settle_ms && (nr == NR_FAIL_MEMBER || nr == NR_REPLACE ||
				  nr == NR_SPARE || nr == NR_ASSEMBLE))
			usleep(settle_ms * 1000);
		if (cmd_size(nr) && req.len >= cmd_size(nr))
			undo(nr, p);
		else
			fix_dirty = stop_dirty = ctrl_dirty = journal_dirty = true;
		return;
	}

	if (v.want_ok) {
		nr_refused_valid++;
		fail_report(iter, "a valid request was refused", &v, ret, err, p);
		return;
	}
	if (err == EFAULT && !(v.viol & (1ULL << CL_SHORT_BUF))) {
		nr_bad_errno++;
		fail_report(iter, "EFAULT with the whole request mapped", &v,
			    ret, err, p);
		return;
	}
	if (err == ENOMEM || err == EPERM) {
		nr_bad_errno++;
		fail_report(iter, "unexpected errno", &v, ret, err, p);
		return;
	}
	if (v.viol && !v.maybe && !errno_allowed(&v, err)) {
		nr_bad_errno++;
		fail_report(iter, "wrong errno for the invalid class", &v, ret,
			    err, p);
		return;
	}
	/* The reply: nothing at all, or the header only. */
	if (v.no_reply) {
		if (memcmp(p, req.b, req.len)) {
			nr_bad_reply++;
			fail_report(iter, "the kernel wrote into a request it did not take",
				    &v, ret, err, p);
		}
		return;
	}
	if (err == EFAULT)
		return;
	if (h->status != -err || !h->message[0] ||
	    !memchr(h->message, '\0', VRAID_MSG_LEN) ||
	    h->version_major != VRAID_ABI_MAJOR ||
	    h->version_minor != VRAID_ABI_MINOR) {
		nr_bad_reply++;
		fail_report(iter, "reply header: status, message or version wrong",
			    &v, ret, err, p);
		return;
	}
	if (req.len > HDR_SIZE &&
	    memcmp(p + HDR_SIZE, req.b + HDR_SIZE, req.len - HDR_SIZE)) {
		nr_bad_reply++;
		fail_report(iter, "a failed request changed bytes past the header",
			    &v, ret, err, p);
	}
}

/* ---- setup, teardown ---- */

static void add_dev(const char *label, uint32_t maj, uint32_t min, int kind,
		    uint64_t sectors)
{
	struct fz_dev *d;

	if (nr_devs >= MAX_DEVS)
		die("too many devices");
	d = &devs[nr_devs++];
	snprintf(d->label, sizeof(d->label), "%s", label);
	d->major = maj;
	d->minor = min;
	d->kind = kind;
	d->sectors = sectors;
}

static unsigned int add_blockdev(const char *path, int kind)
{
	struct stat st;
	uint64_t bytes = 0;
	const char *base = strrchr(path, '/');
	int fd;

	if (stat(path, &st) || !S_ISBLK(st.st_mode))
		die("%s is not a block device", path);
	fd = open(path, O_RDONLY | O_EXCL | O_CLOEXEC);
	if (fd < 0)
		die("%s cannot be opened exclusively: %s", path, strerror(errno));
	if (ioctl(fd, BLKGETSIZE64, &bytes))
		die("%s: BLKGETSIZE64: %s", path, strerror(errno));
	close(fd);
	if (bytes < (16ULL << 20))
		die("%s is smaller than 16 MiB", path);
	add_dev(base ? base + 1 : path, major(st.st_rdev), minor(st.st_rdev),
		kind, bytes >> 9);
	snprintf(devs[nr_devs - 1].path, sizeof(devs[0].path), "%s", path);
	return nr_devs - 1;
}

/* Device numbers that are not (or need not be) block devices. */
static void add_special_devs(void)
{
	static const struct {
		const char *label;
		uint32_t maj, min;
	} none[] = {
		{ "3000:1 (nonexistent)", 3000, 1 },
		{ "4095:1048575 (nonexistent)", 4095, 1048575 },
		{ "0:1 (nonexistent)", 0, 1 },
		{ "259:99999 (nonexistent)", 259, 99999 },
	};
	static const char *const chars[] = { "/dev/null", "/dev/zero",
					     "/dev/vraid-control", "/dev/tty" };
	struct stat st;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(none); i++)
		if (!blockdev_exists(none[i].maj, none[i].min))
			add_dev(none[i].label, none[i].maj, none[i].min,
				DK_NOEXIST, 0);
	/* A character device's number may name a block device (1:3 is ram3). */
	for (i = 0; i < ARRAY_SIZE(chars); i++)
		if (!stat(chars[i], &st) && S_ISCHR(st.st_mode))
			add_dev(chars[i], major(st.st_rdev), minor(st.st_rdev),
				DK_CHAR, 0);
	/* st_rdev of things that are no devices at all is 0:0 */
	add_dev("/etc/passwd (0:0)", 0, 0, DK_BADNUM, 0);
	add_dev("4096:0", 4096, 0, DK_BADNUM, 0);
	add_dev("0:1048576", 0, 1048576, DK_BADNUM, 0);
	add_dev("ffffffff:ffffffff", 0xffffffff, 0xffffffff, DK_BADNUM, 0);
}

static void add_partition(const char *path)
{
	char p[96], line[128], node[64] = "";
	uint32_t wmaj, wmin;
	unsigned int i = add_blockdev(path, DK_PART);
	uint64_t sectors = 0;
	FILE *f;

	part_dev = (int)i;
	snprintf(p, sizeof(p), "/sys/dev/block/%u:%u/partition", devs[i].major,
		 devs[i].minor);
	if (access(p, F_OK))
		die("%s is not a partition", path);
	snprintf(p, sizeof(p), "/sys/dev/block/%u:%u/../dev", devs[i].major,
		 devs[i].minor);
	if (!read_devnum(p, &wmaj, &wmin))
		die("cannot find the disk of %s", path);
	snprintf(p, sizeof(p), "/sys/dev/block/%u:%u/size", wmaj, wmin);
	f = fopen(p, "r");
	if (!f || fscanf(f, "%" SCNu64, &sectors) != 1)
		die("cannot read %s", p);
	fclose(f);
	snprintf(p, sizeof(p), "/sys/dev/block/%u:%u/uevent", wmaj, wmin);
	f = fopen(p, "r");
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "DEVNAME=", 8))
			snprintf(node, sizeof(node), "/dev/%.50s",
				 strtok(line + 8, "\n"));
	if (f)
		fclose(f);
	if (!node[0])
		die("cannot find the node of %u:%u", wmaj, wmin);
	snprintf(p, sizeof(p), "%.40s (disk of %s)", node + 5, devs[i].label);
	add_dev(p, wmaj, wmin, DK_WHOLE, sectors);
	whole_dev = (int)nr_devs - 1;
	snprintf(devs[whole_dev].path, sizeof(devs[0].path), "%s", node);
}

/* Every device can be opened exclusively again: nothing holds it. */
static int check_devs_free(void)
{
	unsigned int i;
	int bad = 0, fd;

	for (i = 0; i < nr_devs; i++) {
		int k = devs[i].kind;

		if (k != DK_FREE && k != DK_PART && k != DK_WHOLE &&
		    k != DK_STOPPED && k != DK_FIXMEM)
			continue;
		fd = open(devs[i].path, O_RDONLY | O_EXCL | O_CLOEXEC);
		if (fd < 0) {
			printf("ioctlfuzz: FAIL %s cannot be opened exclusively after the run: %s\n",
			       devs[i].label, strerror(errno));
			bad++;
			continue;
		}
		close(fd);
	}
	return bad;
}

static void print_stat(const char *name, const struct fz_stat *s,
		       const char *expect)
{
	char buf[256];
	size_t n = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < MAX_ERRS && s->n[i]; i++)
		n += (size_t)snprintf(buf + n, n < sizeof(buf) ? sizeof(buf) - n : 0,
				      "%s%s:%" PRIu64, i ? " " : "",
				      errname(s->err[i]), s->n[i]);
	printf("  %-14s %7" PRIu64 "  %-40s %s\n", name, s->calls, buf, expect);
}

static void summary(double secs)
{
	char exp[64];
	int cl, i;

	printf("ioctlfuzz: errnos by invalid class (requests breaking exactly one rule):\n");
	printf("  %-14s %7s  %-40s %s\n", "class", "calls", "results", "documented");
	for (cl = 0; cl < NR_CLASSES; cl++) {
		size_t n = 0;

		exp[0] = '\0';
		for (i = 0; i < 3 && classes[cl].err[i]; i++)
			n += (size_t)snprintf(exp + n, sizeof(exp) - n, "%s%s",
					      i ? "," : "",
					      classes[cl].err[i] == ANY_ERRNO ?
					      "any error" : errname(classes[cl].err[i]));
		print_stat(classes[cl].name, &cls_stat[cl], exp);
	}
	print_stat("(several)", &multi_stat, "one of theirs");
	printf("ioctlfuzz: valid requests (must succeed) and others of unknown outcome, by command:\n");
	for (i = 0; i < 256; i++) {
		if (!valid_by_nr[i] && !maybe_stat[i].calls && !ok_by_nr[i])
			continue;
		snprintf(exp, sizeof(exp), "%s: %" PRIu64 " ok, %" PRIu64 " valid",
			 cmd_name((uint32_t)i), ok_by_nr[i], valid_by_nr[i]);
		print_stat(cmd_name((uint32_t)i), &maybe_stat[i], exp);
	}
	printf("ioctlfuzz: %" PRIu64 " journal(s) attached (formatting the device, or as it was), each then refused a DISCARD and a second ATTACH, and detached\n",
	       nr_journal_attached);
	printf("ioctlfuzz: %" PRIu64 " calls (%" PRIu64 " random) in %.1fs, seed %" PRIu64
	       ": %" PRIu64 " failures (%" PRIu64 " invalid accepted, %" PRIu64
	       " valid refused, %" PRIu64 " wrong errno, %" PRIu64 " bad replies)\n",
	       nr_iter, nr_random, secs, seed, nr_failures, nr_accepted_invalid,
	       nr_refused_valid, nr_bad_errno, nr_bad_reply);
}

static int teardown(void)
{
	static struct vraid_controller c;
	bool now[VRAID_MAX_VDS];
	char msg[256];
	int i, bad = 0, sp;

	if (ctrl_dirty)
		ctrl_restore();
	if (journal_dirty)
		journal_cleanup();
	i = ctrl_show(&c);
	if (i) {
		printf("ioctlfuzz: FAIL CONTROLLER SHOW after the run: %s: %.*s\n",
		       errname(-i), VRAID_MSG_LEN, c.hdr.message);
		bad++;
	} else {
		if (c.cache_bytes != ctrl_orig_bytes) {
			printf("ioctlfuzz: FAIL the controller cache is %" PRIu64
			       " MiB after the run, %" PRIu64 " MiB before\n",
			       (uint64_t)c.cache_bytes >> 20, ctrl_orig_bytes >> 20);
			bad++;
		}
		if (journal_none(&c)) {
			printf("ioctlfuzz: FAIL a journal is left attached (%u:%u, state %u)\n",
			       c.journal_major, c.journal_minor, c.journal_state);
			journal_cleanup();
			bad++;
		}
	}

	if (fix_index >= 0)
		vd_delete((uint32_t)fix_index, false);
	fix_index = -1;
	/* Create a RAID1 over the stopped one and delete it: no metadata left. */
	i = vd_create(VRAID_LEVEL_1, stop_devs, 2, "", msg, sizeof(msg));
	if (i >= 0)
		vd_delete((uint32_t)i, false);
	else
		printf("ioctlfuzz: note: cannot wipe the stopped RAID1: %s\n", msg);

	if (vd_list(now)) {
		printf("ioctlfuzz: FAIL LIST after the run failed\n");
		return 1;
	}
	for (i = 0; i < VRAID_MAX_VDS; i++) {
		if (now[i] && !preexisting[i]) {
			printf("ioctlfuzz: FAIL vraid%d is left over\n", i);
			bad++;
		} else if (!now[i] && preexisting[i]) {
			printf("ioctlfuzz: FAIL vraid%d (not ours) is gone\n", i);
			bad++;
		}
	}
	sp = nr_spares();
	if (sp != 0) {
		printf("ioctlfuzz: FAIL %d spare(s) left over\n", sp);
		bad++;
	}
	bad += check_devs_free();
	return bad;
}

/* ---- the child: fuzz ---- */

static int fuzz(void)
{
	double t0 = now_sec(), secs, shown = t0;
	uint64_t iter, end = start_iter + count;
	int bad;

	for (iter = start_iter; iter < end; iter++) {
		if (now_sec() - t0 > time_limit)
			break;
		if (fix_dirty)
			fixture_make();
		if (stop_dirty)
			stopped_make();
		if (ctrl_dirty)
			ctrl_restore();
		if (journal_dirty)
			journal_cleanup();
		build(iter);
		run_one(iter);
		nr_iter++;
		if (nr_failures >= max_fail) {
			printf("ioctlfuzz: stopping after %" PRIu64 " failures\n",
			       nr_failures);
			break;
		}
		if (now_sec() - shown >= 10) {
			shown = now_sec();
			printf("ioctlfuzz: %" PRIu64 " calls, %" PRIu64 " failures, %.0fs\n",
			       nr_iter, nr_failures, shown - t0);
		}
	}
	secs = now_sec() - t0;
	bad = teardown();
	summary(secs);
	if (bad)
		printf("ioctlfuzz: FAIL %d leftover(s) after the run\n", bad);
	fflush(stdout);
	return nr_failures || bad ? 1 : 0;
}

/* ---- the parent: watch for hangs and crashes ---- */

static void report_in_flight(const char *what_happened)
{
	printf("ioctlfuzz: %s in iteration %" PRIu64 " (seed %" PRIu64 ")\n",
	       what_happened, shm->iter, seed);
	printf("  request: %s %s\n", cmd_name(_IOC_NR(shm->cmd)), shm->what);
	hexdump(stdout, shm->cmd, shm->b, shm->len);
	printf("  reproduce: ioctlfuzz --seed %" PRIu64 " --count %" PRIu64
	       " (same devices), or --replay with the dump above\n",
	       seed, shm->iter + 1);
	fflush(stdout);
}

static int watch(pid_t child)
{
	int status;

	for (;;) {
		pid_t r = waitpid(child, &status, WNOHANG);

		if (r == child) {
			if (WIFEXITED(status))
				return WEXITSTATUS(status);
			if (shm->in_call)
				report_in_flight("CRASH: the fuzzer was killed during a call");
			printf("ioctlfuzz: FAIL the fuzzer died of signal %d\n",
			       WTERMSIG(status));
			return 3;
		}
		if (__atomic_load_n(&shm->in_call, __ATOMIC_SEQ_CST)) {
			struct timespec ts;
			double d;

			clock_gettime(CLOCK_MONOTONIC, &ts);
			d = (double)(ts.tv_sec - shm->call_start.tv_sec) +
			    (ts.tv_nsec - shm->call_start.tv_nsec) / 1e9;
			if (d > hang_secs && shm->in_call) {
				int fd;

				report_in_flight("HANG: a call did not return");
				printf("ioctlfuzz: FAIL call blocked for %.0fs; blocked tasks go to the kernel log\n",
				       d);
				fflush(stdout);
				fd = open("/proc/sysrq-trigger", O_WRONLY);
				if (fd >= 0) {
					if (write(fd, "w", 1) < 0)
						perror("sysrq");
					close(fd);
				}
				sleep(2);
				printf("ioctlfuzz: the kernel log's last lines:\n");
				fflush(stdout);
				if (system("dmesg | tail -n 120") < 0)
					perror("dmesg");
				kill(child, SIGKILL);
				return 3;
			}
		}
		usleep(100000);
	}
}

/* ---- replay ---- */

static int replay(const char *file)
{
	FILE *f = fopen(file, "r");
	char line[512];
	unsigned int cmd = 0;
	size_t len = 0;
	bool have = false;
	unsigned char *p;
	int ret;

	if (!f)
		die("%s: %s", file, strerror(errno));
	memset(req.b, 0, sizeof(req.b));
	while (fgets(line, sizeof(line), f)) {
		char *s = line, *e;
		unsigned long off;

		while (*s == ' ' || *s == '\t')
			s++;
		if (sscanf(s, "cmd %x len %zu", &cmd, &len) == 2) {
			if (len > BUF_MAX)
				die("len %zu too large", len);
			have = true;
			continue;
		}
		off = strtoul(s, &e, 16);
		if (e == s || *e != ':' || !have)
			continue;
		for (s = e + 1; off < len;) {
			unsigned long v = strtoul(s, &e, 16);

			if (e == s)
				break;
			req.b[off++] = (unsigned char)v;
			s = e;
		}
	}
	fclose(f);
	if (!have)
		die("%s: no 'cmd 0x... len N' line", file);
	p = mapbuf + BUF_MAX - len;
	memcpy(p, req.b, len);
	ret = ioctl(ctl_fd, cmd, p);
	if (ret < 0) {
		int err = errno;
		const struct vraid_ioc_hdr *h = (const void *)p;

		printf("ioctlfuzz: replay: %s", errname(err));
		if (len >= HDR_SIZE)
			printf(", status %d, message \"%.*s\"", h->status,
			       VRAID_MSG_LEN, h->message);
		printf("\n");
	} else {
		printf("ioctlfuzz: replay: success\n");
	}
	return 0;
}

static uint64_t num_arg(const char *opt, const char *s)
{
	char *e;
	unsigned long long v;

	if (!s)
		die("%s needs a value", opt);
	errno = 0;
	v = strtoull(s, &e, 0);
	if (errno || e == s || *e)
		die("%s: bad number '%s'", opt, s);
	return v;
}

int main(int argc, char **argv)
{
	const char *partition = NULL, *replay_file = NULL;
	bool have_seed = false;
	const char *paths[MAX_DEVS];
	unsigned int npaths = 0, i;
	unsigned char *map;
	pid_t child;
	int a;

	for (a = 1; a < argc; a++) {
		const char *o = argv[a], *val = a + 1 < argc ? argv[a + 1] : NULL;

		if (!strcmp(o, "--seed")) {
			seed = num_arg(o, val);
			have_seed = true;
			a++;
		} else if (!strcmp(o, "--count")) {
			count = num_arg(o, val);
			a++;
		} else if (!strcmp(o, "--start")) {
			start_iter = num_arg(o, val);
			a++;
		} else if (!strcmp(o, "--time")) {
			time_limit = (double)num_arg(o, val);
			a++;
		} else if (!strcmp(o, "--hang")) {
			hang_secs = (double)num_arg(o, val);
			a++;
		} else if (!strcmp(o, "--max-fail")) {
			max_fail = (unsigned int)num_arg(o, val);
			a++;
		} else if (!strcmp(o, "--settle")) {
			settle_ms = (unsigned int)num_arg(o, val);
			a++;
		} else if (!strcmp(o, "--partition")) {
			partition = val;
			a++;
		} else if (!strcmp(o, "--replay")) {
			replay_file = val;
			a++;
		} else if (!strcmp(o, "-v") || !strcmp(o, "--verbose")) {
			verbose = true;
		} else if (!strcmp(o, "-h") || !strcmp(o, "--help")) {
			fputs(usage_text, stdout);
			return 0;
		} else if (o[0] == '-') {
			fprintf(stderr, "ioctlfuzz: unknown option %s\n", o);
			fputs(usage_text, stderr);
			return 2;
		} else if (npaths < MAX_DEVS - 16) {
			paths[npaths++] = o;
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);

	/* The request buffer, followed by a guard page. */
	map = mmap(NULL, BUF_MAX + PAGE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED || mprotect(map + BUF_MAX, PAGE, PROT_NONE))
		die("mmap: %s", strerror(errno));
	mapbuf = map;

	/* the same path as vraidctl's: $VRAIDCTL_CONTROL overrides */
	ctl_fd = vraid_control_open(vraid_control_path(NULL), true);
	if (ctl_fd < 0)
		die("%s: %s", vraid_control_path(NULL), strerror(errno));
	if (replay_file)
		return replay(replay_file);
	if (npaths < 6) {
		fputs(usage_text, stderr);
		return 2;
	}
	if (!have_seed)
		seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);

	for (i = 0; i < npaths; i++) {
		unsigned int d = add_blockdev(paths[i], i < 3 ? DK_FIXMEM :
					      i < 5 ? DK_STOPPED : DK_FREE);

		if (i < 3)
			fix_devs[i] = d;
		else if (i < 5)
			stop_devs[i - 3] = d;
		else
			free_devs[nr_free++] = d;
	}
	if (partition)
		add_partition(partition);
	add_dev("fixture", 0, 0, DK_SELF, 0);
	self_dev = (int)nr_devs - 1;
	add_special_devs();

	if (vd_list(preexisting))
		die("LIST failed: %s", strerror(errno));
	for (i = 0; i < VRAID_MAX_VDS; i++)
		nr_preexisting += preexisting[i];
	if (nr_spares() != 0)
		die("there are hot spares already: the fuzzer needs none");
	ctrl_init();

	fixture_make();
	stopped_make();
	printf("ioctlfuzz: seed %" PRIu64 ", iterations %" PRIu64 "..%" PRIu64
	       ", at most %.0fs; fixture vraid%d (RAID5: %s %s %s), stopped RAID1: %s %s, %u free%s%s, %u VD(s) not ours\n",
	       seed, start_iter, start_iter + count - 1, time_limit, fix_index,
	       devs[fix_devs[0]].label, devs[fix_devs[1]].label,
	       devs[fix_devs[2]].label, devs[stop_devs[0]].label,
	       devs[stop_devs[1]].label, nr_free,
	       partition ? ", partition " : "", partition ? partition : "",
	       nr_preexisting);
	printf("ioctlfuzz: controller cache %" PRIu64 " MiB (default %" PRIu64
	       " MiB, at most %" PRIu64 " MiB): set back after every change\n",
	       ctrl_orig_bytes >> 20, ctrl_default_bytes >> 20,
	       ctrl_max_bytes >> 20);

	shm = mmap(NULL, sizeof(*shm), PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shm == MAP_FAILED)
		die("mmap: %s", strerror(errno));
	fflush(stdout);
	child = fork();
	if (child < 0)
		die("fork: %s", strerror(errno));
	if (!child)
		_exit(fuzz());
	return watch(child);
}
