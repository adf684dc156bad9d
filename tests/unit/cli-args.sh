#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Host-side tests of vraidctl (tools/vraidctl/): argument parsing, error messages,
# exit codes, and the table / JSON output against a mock kernel.  Needs no
# vraid module.  Prints TAP-style "ok N - ..." / "not ok N - ..." lines and
# exits non-zero if any test failed.
#
# The mock: tools/vraidctl/*.c are compiled a second time with
# "-include mock.h", which renames its ioctl() calls to mock_ioctl()
# (defined in mock.c below).  The mock checks every request header the tool
# sends (magic, size, version, zeroed fields; job, spare, replace, info and
# set also through the module's own validators in driver/core/validate.c, and
# create's policies through vraid_validate_policies(), which since ABI 1.8
# takes every known value) and answers from canned VDs:
#   MOCK_VRAID=none|three|vanish|dupname|badreply|jobs   which VDs exist;
#                                    "jobs" has VDs with background jobs
#                                    (see jobs_info() in mock.c), some of
#                                    which end after a few INFO requests
#   MOCK_FAIL=CMD:ERRNAME:MESSAGE    make CMD (create, delete, list, info,
#                                    set, job, spare, replace or any) fail;
#                                    MESSAGE "-" = no reply copied
#   MOCK_LOG=FILE                    create, delete, set, job, spare
#                                    add/remove and replace requests are
#                                    logged there (create and set before
#                                    the policy validator runs)
#   MOCK_ABI_MINOR=N                 replies say the module speaks 1.N;
#                                    below 8, create and set refuse the
#                                    write policy always write-back with
#                                    EOPNOTSUPP, as modules before ABI 1.8
#   MOCK_SET_IGNORE=1                SET_POLICY succeeds but changes nothing
#   MOCK_DRAIN=FILE                  SET_POLICY lasts 2.5 s, and meanwhile
#                                    (while FILE exists) LIST fails with
#                                    EBUSY, REPLY_BUSY and a cache
#                                    write-out's progress in the message
#   MOCK_BUSY=N                      the first N requests fail with EBUSY
#                                    and VRAID_IOC_REPLY_BUSY: another
#                                    request holds the controller
#   MOCK_POLL=quiet                  poll(2) reports nothing readable and
#                                    sleeps its timeout (a module of ABI
#                                    1.13 whose log gets no new event);
#                                    without it the control device,
#                                    /dev/null, is always readable
#   MOCK_RA=1                        every VD's read policy is read-ahead
#   MOCK_AWB=1                       every VD's write policy is always
#                                    write-back (in effect: volatile)
#   MOCK_WB=1                        every VD's write policy is write-back
#                                    (in effect: as MOCK_JOURNAL says)
#   MOCK_DIRTY=BYTES                 CONTROLLER's dirty bytes (default 0)
#   MOCK_NOT_ROOT=1                  the caller lacks CAP_SYS_ADMIN: the
#                                    CONTROLLER actions other than SHOW
#                                    fail with EPERM, as the module's do
#   MOCK_JOURNAL=none|healthy|pending|failed
#                                    the controller's journal (ABI 1.9;
#                                    default none): CONTROLLER reports it
#                                    (7:0, "pending" with 2 VDs awaiting
#                                    replay), and INFO's write-back VDs
#                                    write back journalled (healthy) or
#                                    through with NO_JOURNAL (none,
#                                    pending) or JOURNAL_FAILED (failed)
#   MOCK_DIRTY_STUCK=BYTES           the VD's dirty cache data cannot be
#                                    written out (ABI 1.11): DELETE fails
#                                    with EIO unless VRAID_DELETE_DISCARD,
#                                    which reports BYTES discarded
#   MOCK_IMG_BLK=1                   a file named *N.img stats as the block
#                                    device 7:(100 + N) (7:99 without N):
#                                    image files stand in for devices
#   MOCK_DEVDIR=DIR                  opening /dev/NAME opens DIR/NAME if
#                                    it exists (a running VD's members);
#                                    the test's nodes 7:N are DIR/loopN,
#                                    else /dev/null (the host's loop
#                                    devices are never read)
#   MOCK_EXCL_BUSY=PATH              an O_EXCL open of PATH fails with
#                                    EBUSY (another opener holds it)
#   MOCK_DEVDIR_ONLY=1               with MOCK_DEVDIR: a block device
#                                    /dev/NAME not in DIR fails with
#                                    ENOENT (the host's disks are never
#                                    read)
# DELETE goes through the module's validator (before ABI 1.11: unknown
# flags are refused) and is logged with its flags.
# A SET_POLICY that succeeds changes the VD's policies for the INFO
# requests that follow in the same process; a CREATE that succeeds (it
# makes vraid4) sets vraid4's.
# SPARE LIST answers two spares (none in scenario "none"; with
# MOCK_IMG_BLK a third, global, 7:110).
# CONTROLLER (checked by vraid_validate_controller()) answers as the module
# on a machine with 2 GiB of RAM: a 128 MiB cache (the default), at most
# 1 GiB, 12 MiB held by the scenario's VDs (none: 0 B, 0 VDs).
# SET_CACHE_SIZE goes through vraid_cache_check_bytes() (cachecore.c) and
# changes the size for its reply.  JOURNAL_ATTACH fails with EBUSY while a
# journal is attached, else attaches major:minor, healthy; JOURNAL_DETACH
# fails with ENOENT without one; JOURNAL_DISCARD with EINVAL unless it is
# pending.  With MOCK_ABI_MINOR below 9 the JOURNAL actions fail as
# before ABI 1.9 (ATTACH, DETACH: EOPNOTSUPP; DISCARD, FORCE: EINVAL from
# the old validator); below 7 CONTROLLER is an unknown command (ENOTTY),
# as on a module before it.  CONTROLLER requests other than SHOW are
# logged to MOCK_LOG.
# ASSEMBLE (checked by vraid_validate_assemble()) is logged to MOCK_LOG
# and brings up vraid0 from all the devices given; MOCK_REPLAYED="W P S"
# says the journal's replay wrote W writes and P parity records and left
# S blocks to later writes around the cache (ABI 1.10).
#
# Environment: CC (default cc), SANITIZE=0 to skip the ASan/UBSan pass.
set -u

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
CC=${CC:-cc}
CFLAGS="-O2 -Wall -Wextra -Werror -I $root/uapi"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

n=0
failed=0
variant=plain

say_ok()     { n=$((n + 1)); echo "ok $n - $variant: $1"; }
say_not_ok() { n=$((n + 1)); echo "not ok $n - $variant: $1"; failed=$((failed + 1)); }
say_skip()   { n=$((n + 1)); echo "ok $n - $variant: $1 # skip $2"; }

# check DESC WANT_RC STDOUT_SUBSTR STDERR_SUBSTR CMD...
# Empty substrings are not checked.  Sanitizer reports always fail.
check() {
	desc=$1 want_rc=$2 want_out=$3 want_err=$4
	shift 4
	"$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	why=
	[ "$rc" = "$want_rc" ] || why="exit $rc, want $want_rc"
	if [ -n "$want_out" ] && ! grep -qF -- "$want_out" "$tmp/out"; then
		why="$why; stdout lacks '$want_out'"
	fi
	if [ -n "$want_err" ] && ! grep -qF -- "$want_err" "$tmp/err"; then
		why="$why; stderr lacks '$want_err'"
	fi
	if grep -qE 'runtime error:|AddressSanitizer|LeakSanitizer' "$tmp/err"; then
		why="$why; sanitizer report"
	fi
	if [ -z "$why" ]; then
		say_ok "$desc"
	else
		say_not_ok "$desc (${why#; })"
		sed 's/^/#   stdout: /' "$tmp/out"
		sed 's/^/#   stderr: /' "$tmp/err"
	fi
}

# out_has DESC GREP-OPTS PATTERN: the last check's stdout matches.
out_has() {
	if grep "$2" -- "$3" "$tmp/out"; then say_ok "$1"; else say_not_ok "$1"; fi
}

# out_lacks DESC GREP-OPTS PATTERN: the last check's stdout does not match.
out_lacks() {
	if grep "$2" -- "$3" "$tmp/out"; then say_not_ok "$1"; else say_ok "$1"; fi
}

# err_lacks DESC FIXED-STRING: the last check's stderr does not have it.
err_lacks() {
	if grep -qF -- "$2" "$tmp/err"; then say_not_ok "$1"; else say_ok "$1"; fi
}

# out_is DESC TEXT: the last check's stdout is exactly TEXT (one line).
out_is() {
	if [ "$(cat "$tmp/out")" = "$2" ]; then
		say_ok "$1"
	else
		say_not_ok "$1 (got '$(cat "$tmp/out")')"
	fi
}

# expect_log DESC LINE: the mock logged exactly LINE last.
expect_log() {
	last=$(tail -n 1 "$tmp/log" 2>/dev/null)
	if [ "$last" = "$2" ]; then
		say_ok "$1"
	else
		say_not_ok "$1 (mock got '$last', want '$2')"
	fi
}

# ---- the mock kernel ------------------------------------------------------

cat >"$tmp/mock.h" <<'EOF'
#define ioctl mock_ioctl
#define open(...) mock_open(__VA_ARGS__)
#define stat(p, s) mock_stat(p, s)
#define poll mock_poll
EOF

cat >"$tmp/mock.c" <<'EOF'
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <linux/vraid.h>
#include "validate.h"
#include "cachecore.h"

int mock_ioctl(int fd, unsigned long req, ...);
int mock_open(const char *path, int flags, ...);
int mock_stat(const char *path, struct stat *st);
struct pollfd;
int mock_poll(struct pollfd *fds, unsigned long nfds, int timeout);

/* the real ones, which mock.h renamed in the headers */
#undef open
#undef stat
#undef poll
int open(const char *path, int flags, ...);
int stat(const char *restrict path, struct stat *restrict st);
int poll(struct pollfd *fds, unsigned long nfds, int timeout);

/*
 * poll(2) on the control device (/dev/null here, which is always
 * readable, as a module before ABI 1.13 is): with MOCK_POLL=quiet, as a
 * module of ABI 1.13 whose log gets no new event: nothing readable
 * before the timeout, which it sleeps.
 */
int mock_poll(struct pollfd *fds, unsigned long nfds, int timeout)
{
	const char *q = getenv("MOCK_POLL");

	if (!q || strcmp(q, "quiet"))
		return poll(fds, nfds, timeout);
	if (timeout > 0)
		usleep((useconds_t)timeout * 1000);
	return 0;
}

/*
 * Devices on the host: with MOCK_IMG_BLK=1, a regular file named *N.img
 * stats as the block device 7:(100 + N) (7:99 without a number), so
 * that create, replace, spare and controller journal take image files,
 * and vraidctl reads them as it would the device; /dev/NAME.img is
 * $MOCK_DEVDIR/NAME.img if that exists (a device a scan of
 * VRAIDCTL_SYSFS's class/block finds).
 */
int mock_stat(const char *path, struct stat *st)
{
	const char *dir = getenv("MOCK_DEVDIR");
	char alt[4096];
	size_t l = strlen(path), d;
	int r;

	/* /dev/NAME.img: $MOCK_DEVDIR/NAME.img, as mock_open() opens it */
	if (dir && !strncmp(path, "/dev/", 5) && l > 4 &&
	    !strcmp(path + l - 4, ".img")) {
		snprintf(alt, sizeof(alt), "%s/%s", dir, path + 5);
		if (!stat(alt, st))
			path = alt;
	}
	l = strlen(path);
	r = stat(path, st);

	if (r || !S_ISREG(st->st_mode) || !getenv("MOCK_IMG_BLK") ||
	    l < 4 || strcmp(path + l - 4, ".img"))
		return r;
	for (d = l - 4; d > 0 && path[d - 1] >= '0' && path[d - 1] <= '9'; d--)
		;
	st->st_mode = S_IFBLK | 0600;
	st->st_rdev = makedev(7, d < l - 4 ? 100 + atoi(path + d) : 99);
	return 0;
}

/*
 * Opening a device: "/dev/NAME" (a member the kernel names) is
 * $MOCK_DEVDIR/NAME if that exists; the test's block device nodes 7:N
 * are $MOCK_DEVDIR/loopN, else /dev/null (the host's loop devices are
 * never read); MOCK_EXCL_BUSY=PATH: an O_EXCL open of PATH fails with
 * EBUSY (another opener holds it); MOCK_DEVDIR_ONLY=1: a block device
 * /dev/NAME not in $MOCK_DEVDIR fails with ENOENT.
 */
int mock_open(const char *path, int flags, ...)
{
	const char *dir = getenv("MOCK_DEVDIR"), *busy = getenv("MOCK_EXCL_BUSY");
	char alt[4096];
	struct stat st;
	va_list ap;
	int mode;

	va_start(ap, flags);
	mode = (flags & O_CREAT) ? va_arg(ap, int) : 0;
	va_end(ap);
	if (busy && (flags & O_EXCL) && !(flags & O_CREAT) && !strcmp(path, busy)) {
		errno = EBUSY;
		return -1;
	}
	if (dir && !strncmp(path, "/dev/", 5)) {
		snprintf(alt, sizeof(alt), "%s/%s", dir, path + 5);
		if (!stat(alt, &st))
			return open(alt, flags, mode);
		if (getenv("MOCK_DEVDIR_ONLY") &&
		    (stat(path, &st) || S_ISBLK(st.st_mode))) {
			errno = ENOENT;
			return -1;
		}
	}
	if (!stat(path, &st) && S_ISBLK(st.st_mode) && major(st.st_rdev) == 7) {
		snprintf(alt, sizeof(alt), "%s/loop%u", dir ? dir : "/nonexistent",
			 minor(st.st_rdev));
		if (stat(alt, &st))
			snprintf(alt, sizeof(alt), "/dev/null");
		return open(alt, flags & ~O_EXCL, mode);
	}
	return open(path, flags, mode);
}

/* What a module before ABI 1.8 said of always write-back. */
#define OLD_AWB_MSG "always write-back needs the controller cache, which vraid does not have yet: use write-through or write-back"

/* MOCK_ABI_MINOR, or -1 without it (the tool's own ABI). */
static int abi_minor(void)
{
	const char *m = getenv("MOCK_ABI_MINOR");

	return m ? atoi(m) : -1;
}

#define MOCK_RAM	(2ULL << 30)	/* the machine the module runs on */

static const struct { const char *n; int e; } names[] = {
	{ "EPERM", EPERM }, { "ENOENT", ENOENT }, { "EBUSY", EBUSY },
	{ "EEXIST", EEXIST }, { "EINVAL", EINVAL }, { "ENOSPC", ENOSPC },
	{ "EPROTO", EPROTO }, { "EOPNOTSUPP", EOPNOTSUPP }, { "ENXIO", ENXIO },
	{ "ENOTTY", ENOTTY }, { "ENODEV", ENODEV }, { "EALREADY", EALREADY },
	{ "EIO", EIO }, { "EUCLEAN", EUCLEAN },
};

/* Policies set by SET_POLICY in this process, by VD index. */
static struct {
	uint32_t mask, access, dcache, io, read, write;
} pols[VRAID_MAX_VDS];

static void logit(const char *fmt, ...)
{
	const char *p = getenv("MOCK_LOG");
	va_list ap;
	FILE *f;

	if (!p || !(f = fopen(p, "a")))
		return;
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fclose(f);
}

static int fail(struct vraid_ioc_hdr *h, int e, const char *msg)
{
	if (strcmp(msg, "-")) {
		h->status = -e;
		if (abi_minor() >= 0)	/* an older module */
			h->version_minor = (uint16_t)abi_minor();
		if (e == EPROTO) {
			h->version_major = 2;
			h->version_minor = 0;
		}
		snprintf(h->message, sizeof(h->message), "%s", msg);
	}
	errno = e;
	return -1;
}

/* A refusal of the module's own validator means the tool sent junk. */
static int refused(struct vraid_ioc_hdr *h, int ret, const char *msg)
{
	char m[VRAID_MSG_LEN + 32];

	snprintf(m, sizeof(m), "mock: validator: %s", msg);
	return fail(h, -ret, m);
}

/* MOCK_JOURNAL as a journal state */
static uint32_t journal_env(void)
{
	const char *j = getenv("MOCK_JOURNAL");

	if (!j || !strcmp(j, "none"))
		return VRAID_JOURNAL_NONE;
	if (!strcmp(j, "healthy"))
		return VRAID_JOURNAL_HEALTHY;
	if (!strcmp(j, "pending"))
		return VRAID_JOURNAL_REPLAY_PENDING;
	return VRAID_JOURNAL_FAILED;
}

static const char *scenario(void)
{
	const char *s = getenv("MOCK_VRAID");

	return s ? s : "none";
}

/* The VDs of a scenario: fills the list, returns how many. */
static unsigned vd_list(uint32_t *idx)
{
	const char *s = scenario();
	unsigned n = 0;

	if (!strcmp(s, "three")) {
		idx[n++] = 3; idx[n++] = 0; idx[n++] = 1; idx[n++] = 7;
	} else if (!strcmp(s, "vanish")) {
		idx[n++] = 0; idx[n++] = 5;
	} else if (!strcmp(s, "dupname")) {
		idx[n++] = 0; idx[n++] = 2;
	} else if (!strcmp(s, "badreply")) {
		idx[n++] = 0;
	} else if (!strcmp(s, "jobs")) {
		idx[n++] = 0; idx[n++] = 1; idx[n++] = 2; idx[n++] = 3;
		idx[n++] = 4; idx[n++] = 5; idx[n++] = 6; idx[n++] = 8;
		idx[n++] = 10;
	}
	return n;
}

static void member(struct vraid_member_info *m, unsigned role, unsigned maj,
		   unsigned min, const char *name, unsigned state)
{
	m->major = maj;
	m->minor = min;
	m->role = role;
	m->state = state;
	m->dev_sectors = 4194304;		/* 2 GiB */
	m->data_sectors = 786432;		/* 384 MiB */
	if (name)
		memcpy(m->dev_name, name, strlen(name));
	m->read_ios = 1000 + role;
	m->write_ios = 2000 + role;
	m->errors = role == 2 ? 3 : 0;
}

static void job(struct vraid_info *in, unsigned type, unsigned state,
		unsigned percent)
{
	in->job_type = type;
	in->job_state = state;
	in->job_total = 786432;
	in->job_done = 786432ULL * percent / 100;
}

/*
 * "jobs": background jobs.  0 raid1 rebuild 25% (never ends), 1 raid5
 * check paused at 50%, 2 raid6 idle (last: check, 3 mismatches), 3 raid0,
 * 4 raid5 init ending at the 3rd INFO, 5 raid1 idle (last: rebuild
 * failed, EIO), 6 raid10 check ending at the 2nd INFO with 3 mismatches,
 * 8 raid6 repair failing at the 2nd INFO, 10 raid1 idle (last: rebuild
 * stopped, ECANCELED; with MOCK_INIT_STOPPED=degraded|offline a RAID5,
 * member 1 failed, whose init that stopped).  Members are 7:N (the
 * test's block device nodes)
 * for 0, 8:16*N elsewhere.
 */
static void jobs_info(struct vraid_info *in, uint32_t ix)
{
	static unsigned calls[16];
	unsigned i, n = ++calls[ix & 15];

	in->size_sectors = 2 * 786432;
	switch (ix) {
	case 0:
		in->level = VRAID_LEVEL_1;
		in->state = VRAID_VD_REBUILDING;
		in->nr_members = 2;
		in->size_sectors = 786432;
		member(&in->members[0], 0, 7, 0, "loop0", VRAID_MEMBER_ONLINE);
		member(&in->members[1], 1, 7, 1, "loop1", VRAID_MEMBER_REBUILDING);
		job(in, VRAID_JOB_REBUILD, VRAID_JOB_RUNNING, 25);
		in->job_eta_sec = 80;
		in->last_job = VRAID_JOB_INIT;
		return;
	case 1:
		in->level = VRAID_LEVEL_5;
		in->nr_members = 3;
		job(in, VRAID_JOB_CHECK, VRAID_JOB_PAUSED, 50);
		in->job_mismatches = 2;
		in->job_rate_kib = 51200;
		break;
	case 2:
		in->level = VRAID_LEVEL_6;
		in->nr_members = 4;
		in->last_job = VRAID_JOB_CHECK;
		in->last_mismatches = 3;
		in->job_rate_kib = 1024;
		break;
	case 3:
		in->level = VRAID_LEVEL_0;
		in->nr_members = 2;
		break;
	case 4:
		in->level = VRAID_LEVEL_5;
		in->nr_members = 3;
		if (n < 3) {
			job(in, VRAID_JOB_INIT, VRAID_JOB_RUNNING, 50 * n - 25);
			in->job_eta_sec = 7200 / n;
		} else {
			in->last_job = VRAID_JOB_INIT;
		}
		break;
	case 5:
		in->level = VRAID_LEVEL_1;
		in->state = VRAID_VD_DEGRADED;
		in->nr_members = 2;
		in->size_sectors = 786432;
		in->last_job = VRAID_JOB_REBUILD;
		in->last_result = EIO;
		break;
	case 6:
		in->level = VRAID_LEVEL_10;
		in->nr_members = 4;
		if (n < 2) {
			job(in, VRAID_JOB_CHECK, VRAID_JOB_RUNNING, 50);
			in->job_mismatches = 1;
			in->job_eta_sec = 5;
		} else {
			in->last_job = VRAID_JOB_CHECK;
			in->last_mismatches = 3;
		}
		break;
	case 10:
		if (getenv("MOCK_INIT_STOPPED")) {
			/* a RAID5 whose init a member failure stopped */
			in->level = VRAID_LEVEL_5;
			in->state = strcmp(getenv("MOCK_INIT_STOPPED"), "offline") ?
				    VRAID_VD_DEGRADED : VRAID_VD_OFFLINE;
			in->nr_members = 3;
			in->last_job = VRAID_JOB_INIT;
			in->last_result = ECANCELED;
			break;
		}
		in->level = VRAID_LEVEL_1;
		in->state = VRAID_VD_REBUILDING;
		in->nr_members = 2;
		in->size_sectors = 786432;
		in->last_job = VRAID_JOB_REBUILD;
		in->last_result = ECANCELED;
		break;
	case 8:
		in->level = VRAID_LEVEL_6;
		in->nr_members = 4;
		if (n < 2) {
			job(in, VRAID_JOB_REPAIR, VRAID_JOB_RUNNING, 10);
		} else {
			in->last_job = VRAID_JOB_REPAIR;
			in->last_mismatches = 7;
			in->last_result = EIO;
		}
		break;
	}
	for (i = 0; i < in->nr_members; i++)
		member(&in->members[i], i, 8, 16 * i, NULL, VRAID_MEMBER_ONLINE);
	if (ix == 10 && getenv("MOCK_INIT_STOPPED"))
		in->members[1].state = VRAID_MEMBER_FAILED;
}

static void vd_info_canned(struct vraid_info *in);

static int vd_info(struct vraid_info *in)
{
	const char *s = scenario();
	uint32_t idx[16], i, k = vd_list(idx), ix = in->index;

	for (i = 0; i < k && idx[i] != ix; i++)
		;
	if (i == k || (!strcmp(s, "vanish") && ix == 5))
		return ENOENT;
	vd_info_canned(in);
	if (getenv("MOCK_RA"))
		in->read_policy = VRAID_READ_AHEAD;
	if (getenv("MOCK_AWB"))
		in->write_policy = VRAID_WRITE_BACK_ALWAYS;
	if (getenv("MOCK_WB"))
		in->write_policy = VRAID_WRITE_BACK;
	if (pols[ix].mask & VRAID_SET_ACCESS)
		in->access_policy = pols[ix].access;
	if (pols[ix].mask & VRAID_SET_DISK_CACHE)
		in->disk_cache_policy = pols[ix].dcache;
	if (pols[ix].mask & VRAID_SET_IO)
		in->io_policy = pols[ix].io;
	if (pols[ix].mask & VRAID_SET_READ)
		in->read_policy = pols[ix].read;
	if (pols[ix].mask & VRAID_SET_WRITE)
		in->write_policy = pols[ix].write;
	/*
	 * as the module: write-back writes through for want of a journal;
	 * always write-back writes into the volatile cache (ABI 1.8)
	 */
	in->write_policy_effective =
		in->write_policy == VRAID_WRITE_BACK_ALWAYS ?
		VRAID_WEFF_BACK_VOLATILE : VRAID_WEFF_THROUGH;
	in->cache_flags = 0;
	if (in->write_policy == VRAID_WRITE_BACK) {
		/* journalled while the journal is healthy (ABI 1.9) */
		uint32_t js = journal_env();

		if (js == VRAID_JOURNAL_HEALTHY)
			in->write_policy_effective = VRAID_WEFF_BACK;
		else
			in->cache_flags = js == VRAID_JOURNAL_FAILED ?
					  VRAID_CACHE_JOURNAL_FAILED :
					  VRAID_CACHE_NO_JOURNAL;
	}
	return 0;
}

static void vd_info_canned(struct vraid_info *in)
{
	const char *s = scenario();
	uint32_t i, ix = in->index;

	in->state = VRAID_VD_OPTIMAL;
	in->strip_bytes = 65536;
	in->logical_block_size = 512;
	in->data_offset_sectors = VRAID_DATA_OFFSET_SECTORS;
	in->member_data_sectors = 786432;
	snprintf(in->disk_name, sizeof(in->disk_name), "vraid%u", ix);
	if (!strcmp(s, "jobs")) {
		jobs_info(in, ix);
		return;
	}
	switch (ix) {
	case 0:
	case 2:
		in->level = VRAID_LEVEL_0;
		in->nr_members = 2;
		in->size_sectors = 2 * 786432;
		in->open_count = 1;
		strcpy(in->name, "fast");
		member(&in->members[0], 0, 259, 0, "nvme0n1", VRAID_MEMBER_ONLINE);
		member(&in->members[1], 1, 259, 1, "nvme1n1", VRAID_MEMBER_ONLINE);
		if (!strcmp(s, "badreply"))
			in->nr_members = 99;
		break;
	case 1:
		in->level = VRAID_LEVEL_5;
		in->state = VRAID_VD_REBUILDING;
		in->nr_members = 3;
		in->size_sectors = 2 * 786432;
		strcpy(in->name, "we\"ird\\name\x01\xc3\xa9\xff");
		in->access_policy = VRAID_ACCESS_RO;
		in->disk_cache_policy = VRAID_DCACHE_ENABLED;
		in->io_policy = VRAID_IO_CACHED;
		in->read_policy = VRAID_READ_AHEAD;
		in->write_policy = VRAID_WRITE_BACK_ALWAYS;
		member(&in->members[0], 0, 8, 0, "sda", VRAID_MEMBER_ONLINE);
		member(&in->members[1], 1, 8, 16, "sdb", VRAID_MEMBER_ONLINE);
		member(&in->members[2], 2, 8, 33, "sdc1", VRAID_MEMBER_REBUILDING);
		job(in, VRAID_JOB_REBUILD, VRAID_JOB_RUNNING, 25);
		in->job_eta_sec = 80;
		in->last_job = VRAID_JOB_INIT;
		break;
	case 3:
		in->level = VRAID_LEVEL_JBOD;
		in->state = VRAID_VD_OFFLINE;
		in->nr_members = 1;
		in->size_sectors = 786432;
		memset(in->name, 'x', sizeof(in->name));	/* unterminated */
		member(&in->members[0], 0, 8, 48, NULL, VRAID_MEMBER_MISSING);
		break;
	case 7:
		in->level = VRAID_LEVEL_60;
		in->state = VRAID_VD_DEGRADED;
		in->strip_bytes = 131072;
		in->spans = 2;
		in->nr_members = 8;
		in->size_sectors = 4 * 786432;
		for (i = 0; i < 8; i++) {
			char nm[VRAID_DEVNAME_LEN];

			snprintf(nm, sizeof(nm), "nvme%un1", i);
			member(&in->members[i], i, 259, i, nm,
			       i == 5 ? VRAID_MEMBER_FAILED : VRAID_MEMBER_ONLINE);
		}
		memset(in->members[7].dev_name, 'd', VRAID_DEVNAME_LEN);
		in->disk_cache_policy = VRAID_DCACHE_DISABLED;
		break;
	}
}

static int vd_exists(uint32_t index)
{
	struct vraid_info tmp;

	memset(&tmp, 0, sizeof(tmp));
	tmp.index = index;
	return !vd_info(&tmp);
}

static int all_zero(const void *p, size_t n)
{
	const unsigned char *b = p;

	while (n--)
		if (*b++)
			return 0;
	return 1;
}

static int redundant(uint32_t level)
{
	return level == 1 || level == 5 || level == 6 || level == 10 ||
	       level == 50 || level == 60;
}

static int mock_answer(struct vraid_ioc_hdr *h, unsigned long req);

static int busy_count;	/* requests MOCK_BUSY answered */

int mock_ioctl(int fd, unsigned long req, ...)
{
	struct vraid_ioc_hdr *h;
	va_list ap;
	int ret;

	(void)fd;
	va_start(ap, req);
	h = va_arg(ap, struct vraid_ioc_hdr *);
	va_end(ap);
	/* MOCK_DRAIN=FILE: while it exists, LIST finds a write-out */
	if (getenv("MOCK_DRAIN") && _IOC_NR(req) == 0x02 &&
	    access(getenv("MOCK_DRAIN"), F_OK) == 0) {
		h->flags = VRAID_IOC_REPLY_BUSY;
		return fail(h, EBUSY, "the controller is busy with a policy change, for 2 s now: vraid0 cache write-out: 12.0 of 48.0 MiB left");
	}
	/* MOCK_BUSY=N: the first N requests find the controller busy */
	if (getenv("MOCK_BUSY") && busy_count++ < atoi(getenv("MOCK_BUSY"))) {
		if (h->flags || h->status || h->message[0])
			return fail(h, EINVAL, "a request asked again kept the reply's header");
		h->flags = VRAID_IOC_REPLY_BUSY;
		return fail(h, EBUSY, "the controller is busy with a policy change, for 3 s now");
	}
	ret = mock_answer(h, req);
	/* the module's version goes back in every reply */
	if (!ret && abi_minor() >= 0)
		h->version_minor = (uint16_t)abi_minor();
	return ret;
}

static int mock_answer(struct vraid_ioc_hdr *h, unsigned long req)
{
	static const struct { const char *name; unsigned nr; size_t size; } cmds[] = {
		{ "create", 0x00, sizeof(struct vraid_create) },
		{ "delete", 0x01, sizeof(struct vraid_delete) },
		{ "list", 0x02, sizeof(struct vraid_list) },
		{ "info", 0x03, sizeof(struct vraid_info) },
		{ "set", 0x04, sizeof(struct vraid_set_policy) },
		{ "spare", 0x06, sizeof(struct vraid_spare) },
		{ "replace", 0x07, sizeof(struct vraid_replace) },
		{ "job", 0x08, sizeof(struct vraid_job) },
		{ "controller", 0x09, sizeof(struct vraid_controller) },
		{ "assemble", 0x0b, sizeof(struct vraid_assemble) },
		{ "events", 0x0c, sizeof(struct vraid_events) },
	};
	const char *f = getenv("MOCK_FAIL");
	unsigned nr = _IOC_NR(req), i, k;
	char msg[VRAID_MSG_LEN];
	int ret;

	for (k = 0; k < sizeof(cmds) / sizeof(cmds[0]) && cmds[k].nr != nr; k++)
		;
	if (_IOC_TYPE(req) != VRAID_IOC_TYPE || k == sizeof(cmds) / sizeof(cmds[0]) ||
	    req != _IOWR(VRAID_IOC_TYPE, nr, struct vraid_ioc_hdr)) {
		errno = ENOTTY;
		return -1;
	}
	/* What the tool must send. */
	if (h->magic != VRAID_IOC_MAGIC)
		return fail(h, EINVAL, "mock: bad magic");
	if (h->size != cmds[k].size)
		return fail(h, EINVAL, "mock: bad size");
	if (h->version_major != VRAID_ABI_MAJOR || h->version_minor != VRAID_ABI_MINOR)
		return fail(h, EINVAL, "mock: bad version");
	if (h->status || h->flags || h->reserved ||
	    !all_zero(h->message, sizeof(h->message)))
		return fail(h, EINVAL, "mock: header fields not zeroed");
	if ((ret = vraid_validate_hdr(h, nr, msg, sizeof(msg))))
		return refused(h, ret, msg);
	if (f) {
		size_t l = strcspn(f, ":");

		if ((l == 3 && !strncmp(f, "any", 3)) ||
		    (strlen(cmds[k].name) == l && !strncmp(f, cmds[k].name, l))) {
			const char *e = f + l + (f[l] == ':');
			size_t el = strcspn(e, ":");

			for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
				if (strlen(names[i].n) == el && !strncmp(e, names[i].n, el))
					return fail(h, names[i].e, e[el] ? e + el + 1 : "");
			return fail(h, EIO, "mock: unknown errno in MOCK_FAIL");
		}
	}
	switch (nr) {
	case 0x00: {
		struct vraid_create *c = (void *)h;
		char m[400] = "";

		if (c->index || c->disk_name[0] || c->reserved1 ||
		    !all_zero(c->reserved2, sizeof(c->reserved2)) ||
		    !all_zero(&c->members[c->nr_members],
			      (VRAID_MAX_MEMBERS - c->nr_members) * sizeof(c->members[0])))
			return fail(h, EINVAL, "mock: create fields not zeroed");
		if (c->init > VRAID_INIT_FULL || (c->init && !redundant(c->level)))
			return fail(h, EINVAL, "mock: bad init");
		for (i = 0; i < c->nr_members; i++)
			snprintf(m + strlen(m), sizeof(m) - strlen(m), "%s%u:%u",
				 i ? "," : "", c->members[i].major, c->members[i].minor);
		logit("create level=%u strip=%u nr=%u spans=%u name=%.32s members=%s init=%u access=%u dcache=%u io=%u read=%u write=%u\n",
		      c->level, c->strip_bytes, c->nr_members, c->spans, c->name, m,
		      c->init, c->access_policy, c->disk_cache_policy,
		      c->io_policy, c->read_policy, c->write_policy);
		ret = vraid_validate_policies(VRAID_SET_ACCESS | VRAID_SET_DISK_CACHE |
					      VRAID_SET_IO | VRAID_SET_READ |
					      VRAID_SET_WRITE, c->access_policy,
					      c->disk_cache_policy, c->io_policy,
					      c->read_policy, c->write_policy,
					      msg, sizeof(msg));
		if (ret)
			return refused(h, ret, msg);
		if (c->write_policy == VRAID_WRITE_BACK_ALWAYS &&
		    abi_minor() >= 0 && abi_minor() < 8)
			return fail(h, EOPNOTSUPP, OLD_AWB_MSG);
		c->index = 4;
		strcpy(c->disk_name, "vraid4");
		/* INFO of vraid4 (scenario "jobs" has one) reports them */
		pols[4].mask = VRAID_SET_ACCESS | VRAID_SET_DISK_CACHE |
			       VRAID_SET_IO | VRAID_SET_READ | VRAID_SET_WRITE;
		pols[4].access = c->access_policy;
		pols[4].dcache = c->disk_cache_policy;
		pols[4].io = c->io_policy;
		pols[4].read = c->read_policy;
		pols[4].write = c->write_policy;
		return 0;
	}
	case 0x01: {
		struct vraid_delete *d = (void *)h;

		const char *stuck = getenv("MOCK_DIRTY_STUCK");

		if (d->discarded_bytes)
			return fail(h, EINVAL, "mock: discarded_bytes is out only");
		/* the validator of a module before ABI 1.11 */
		if (abi_minor() >= 0 && abi_minor() < 11 &&
		    (d->del_flags & ~VRAID_DELETE_STOP)) {
			snprintf(msg, sizeof(msg), "unknown delete flags 0x%x",
				 d->del_flags);
			return fail(h, EINVAL, msg);
		}
		if ((ret = vraid_validate_delete(d, msg, sizeof(msg))))
			return refused(h, ret, msg);
		logit("delete index=%u flags=%u\n", d->index, d->del_flags);
		if (!vd_exists(d->index))
			return fail(h, ENOENT, "no virtual drive");
		/*
		 * MOCK_DIRTY_STUCK=BYTES: the VD's dirty cache data, which
		 * the members cannot take (ABI 1.11: EIO unless DISCARD)
		 */
		if (stuck && (abi_minor() < 0 || abi_minor() >= 11)) {
			if (!(d->del_flags & VRAID_DELETE_DISCARD)) {
				snprintf(msg, sizeof(msg), "vraid%u: cache write-out failed, %s bytes dirty: the virtual drive keeps running",
					 d->index, stuck);
				return fail(h, EIO, msg);
			}
			d->discarded_bytes = strtoull(stuck, NULL, 0);
		}
		return 0;
	}
	case 0x02: {
		struct vraid_list *l = (void *)h;

		if (l->nr_vds || l->reserved1 || !all_zero(l->index, sizeof(l->index)))
			return fail(h, EINVAL, "mock: list fields not zeroed");
		l->nr_vds = vd_list(l->index);
		return 0;
	}
	case 0x03: {
		struct vraid_info *in = (void *)h;
		uint32_t ix = in->index;

		in->index = 0;
		if (!all_zero((char *)in + sizeof(*h), sizeof(*in) - sizeof(*h)))
			return fail(h, EINVAL, "mock: info fields not zeroed");
		in->index = ix;
		if ((ret = vraid_validate_info(in, msg, sizeof(msg))))
			return refused(h, ret, msg);
		if (vd_info(in))
			return fail(h, ENOENT, "no virtual drive");
		return 0;
	}
	case 0x06: {
		struct vraid_spare *s = (void *)h;

		if (s->nr_spares || !all_zero(s->reserved2, sizeof(s->reserved2)) ||
		    !all_zero(s->spares, sizeof(s->spares)))
			return fail(h, EINVAL, "mock: spare fields not zeroed");
		if ((ret = vraid_validate_spare(s, msg, sizeof(msg))))
			return refused(h, ret, msg);
		if (s->action == VRAID_SPARE_LIST) {
			if (!strcmp(scenario(), "none"))
				return 0;
			s->nr_spares = 2;
			s->spares[0].major = 8;
			s->spares[0].minor = 64;
			s->spares[0].dev_sectors = 4194304;
			s->spares[0].vd_index = -1;
			strcpy(s->spares[0].dev_name, "sde");
			s->spares[1].major = 8;
			s->spares[1].minor = 80;
			s->spares[1].dev_sectors = 8388608;
			s->spares[1].vd_index = 1;
			s->spares[1].info_flags = VRAID_SPARE_INFO_DEDICATED;
			memset(s->spares[1].vd_uuid, 0x11, 16);
			strcpy(s->spares[1].dev_name, "sdf");
			if (!strcmp(scenario(), "spareuuid")) {
				/* dedicated to a VD not running (yet) */
				s->spares[1].vd_index = -1;
				memset(s->spares[1].vd_uuid, 0x22, 16);
			}
			if (getenv("MOCK_IMG_BLK")) {	/* d10.img */
				s->nr_spares = 3;
				s->spares[2].major = 7;
				s->spares[2].minor = 110;
				s->spares[2].dev_sectors = 131072;
				s->spares[2].vd_index = -1;
				strcpy(s->spares[2].dev_name, "loop110");
			}
			return 0;
		}
		logit("spare action=%u flags=%u index=%u dev=%u:%u\n", s->action,
		      s->spare_flags, s->index, s->major, s->minor);
		if ((s->spare_flags & VRAID_SPARE_DEDICATED) && !vd_exists(s->index))
			return fail(h, ENOENT, "no virtual drive");
		return 0;
	}
	case 0x07: {
		struct vraid_replace *r = (void *)h;

		if (!all_zero(r->reserved2, sizeof(r->reserved2)))
			return fail(h, EINVAL, "mock: replace fields not zeroed");
		if ((ret = vraid_validate_replace(r, msg, sizeof(msg))))
			return refused(h, ret, msg);
		logit("replace index=%u old=%u:%u new=%u:%u flags=%u\n", r->index,
		      r->old_major, r->old_minor, r->new_major, r->new_minor,
		      r->rep_flags);
		if (!vd_exists(r->index))
			return fail(h, ENOENT, "no virtual drive");
		return 0;
	}
	case 0x04: {
		struct vraid_set_policy *p = (void *)h;

		if (p->reserved1 || !all_zero(p->reserved2, sizeof(p->reserved2)))
			return fail(h, EINVAL, "mock: set fields not zeroed");
		logit("set index=%u mask=0x%x access=%u dcache=%u io=%u read=%u write=%u\n",
		      p->index, p->set_mask, p->access_policy,
		      p->disk_cache_policy, p->io_policy, p->read_policy,
		      p->write_policy);
		ret = vraid_validate_set_policy(p, msg, sizeof(msg));
		if (ret)
			return refused(h, ret, msg);
		if ((p->set_mask & VRAID_SET_WRITE) &&
		    p->write_policy == VRAID_WRITE_BACK_ALWAYS &&
		    abi_minor() >= 0 && abi_minor() < 8)
			return fail(h, EOPNOTSUPP, OLD_AWB_MSG);
		if (!vd_exists(p->index))
			return fail(h, ENOENT, "no virtual drive");
		if (getenv("MOCK_DRAIN")) {
			/* a write-out that lasts 2.5 s */
			FILE *d = fopen(getenv("MOCK_DRAIN"), "w");

			if (d)
				fclose(d);
			usleep(2500000);
			unlink(getenv("MOCK_DRAIN"));
		}
		if (getenv("MOCK_SET_IGNORE"))
			return 0;
		pols[p->index].mask |= p->set_mask;
		if (p->set_mask & VRAID_SET_ACCESS)
			pols[p->index].access = p->access_policy;
		if (p->set_mask & VRAID_SET_DISK_CACHE)
			pols[p->index].dcache = p->disk_cache_policy;
		if (p->set_mask & VRAID_SET_IO)
			pols[p->index].io = p->io_policy;
		if (p->set_mask & VRAID_SET_READ)
			pols[p->index].read = p->read_policy;
		if (p->set_mask & VRAID_SET_WRITE)
			pols[p->index].write = p->write_policy;
		return 0;
	}
	case 0x0c: {
		/*
		 * The event log: three events (a create, a member failure,
		 * the state it left), the oldest kept #1 unless
		 * MOCK_EVENTS_FIRST says later (events dropped)
		 */
		static const struct vraid_event evs[] = {
			{ 1, 1796644800000000000ULL, VRAID_EV_CREATED, 0, VRAID_EV_NONE,
			  VRAID_VD_OPTIMAL, "db", "", "created RAID1, 2 members, 1024 MiB, optimal" },
			{ 2, 1796644861000000000ULL, VRAID_EV_MEMBER_FAILED, 0, 1,
			  VRAID_VD_DEGRADED, "db", "sdb", "member 1 (sdb) failed: \"I/O error\"" },
			{ 3, 1796644861000000000ULL, VRAID_EV_STATE, 0, VRAID_EV_NONE,
			  VRAID_VD_DEGRADED, "db", "", "virtual drive is degraded (was optimal)" },
		};
		struct vraid_events *e = (void *)h;
		uint64_t first = 1, seq;

		if (abi_minor() >= 0 && abi_minor() < 12)
			return fail(h, ENOTTY, "unknown command 12: module and vraidctl differ?");
		if ((ret = vraid_validate_events(e, msg, sizeof(msg))))
			return refused(h, ret, msg);
		if (getenv("MOCK_EVENTS_FIRST"))
			first = strtoull(getenv("MOCK_EVENTS_FIRST"), NULL, 10);
		logit("events since=%llu\n", (unsigned long long)e->since);
		e->first = first;
		e->next = 4;
		for (seq = e->since > first ? e->since : first; seq < 4; seq++)
			e->events[e->count++] = evs[seq - 1];
		return 0;
	}
	case 0x09: {
		static uint64_t cache_bytes;	/* SET_CACHE_SIZE's, 0: default */
		static uint32_t jstate, jmaj = 7, jmin;	/* the journal */
		static bool jinit;
		struct vraid_controller *c = (void *)h;
		struct vraid_cache_limits l;
		uint32_t idx[16];
		unsigned nvd;

		if (abi_minor() >= 0 && abi_minor() < 7)
			return fail(h, ENOTTY, "unknown command 9: module and vraidctl differ?");
		if ((ret = vraid_validate_controller(c, msg, sizeof(msg))))
			return refused(h, ret, msg);
		if (c->action != VRAID_CTRL_SHOW)
			logit("controller action=%u flags=%u cache=%llu dev=%u:%u\n",
			      c->action, c->ctrl_flags,
			      (unsigned long long)c->cache_bytes, c->major, c->minor);
		/* the validator of a module before ABI 1.9 */
		if (abi_minor() >= 0 && abi_minor() < 9 && c->ctrl_flags) {
			snprintf(msg, sizeof(msg), "unknown controller flags 0x%x",
				 c->ctrl_flags);
			return fail(h, EINVAL, msg);
		}
		if (abi_minor() >= 0 && abi_minor() < 9 &&
		    c->action > VRAID_CTRL_JOURNAL_DETACH) {
			snprintf(msg, sizeof(msg), "unknown controller action %u",
				 c->action);
			return fail(h, EINVAL, msg);
		}
		if (c->action != VRAID_CTRL_SHOW && getenv("MOCK_NOT_ROOT"))
			return fail(h, EPERM, "changing the controller needs CAP_SYS_ADMIN (run as root)");
		if (!jinit) {
			jstate = journal_env();
			jinit = true;
		}
		switch (c->action) {
		case VRAID_CTRL_SET_CACHE_SIZE:
			if ((ret = vraid_cache_check_bytes(c->cache_bytes, MOCK_RAM,
							   msg, sizeof(msg))))
				return fail(h, -ret, msg);
			cache_bytes = c->cache_bytes;
			break;
		case VRAID_CTRL_JOURNAL_ATTACH:
		case VRAID_CTRL_JOURNAL_DETACH:
			if (abi_minor() >= 0 && abi_minor() < 9)
				return fail(h, EOPNOTSUPP, "the controller cache has no journal yet: write-back writes through");
			if (c->action == VRAID_CTRL_JOURNAL_DETACH) {
				if (jstate == VRAID_JOURNAL_NONE)
					return fail(h, ENOENT, "no journal is attached");
				jstate = VRAID_JOURNAL_NONE;
				break;
			}
			if (jstate != VRAID_JOURNAL_NONE)
				return fail(h, EBUSY, "a journal is attached already: detach it first");
			jstate = VRAID_JOURNAL_HEALTHY;
			jmaj = c->major;
			jmin = c->minor;
			c->major = c->minor = 0;	/* outputs only */
			c->ctrl_flags = 0;
			break;
		case VRAID_CTRL_JOURNAL_DISCARD:
			if (jstate != VRAID_JOURNAL_REPLAY_PENDING)
				return fail(h, EINVAL, "the journal holds no writes awaiting replay");
			jstate = VRAID_JOURNAL_HEALTHY;
			break;
		}
		nvd = vd_list(idx);
		c->cache_bytes = cache_bytes ? cache_bytes :
				 vraid_cache_default_bytes(MOCK_RAM);
		c->cache_default_bytes = vraid_cache_default_bytes(MOCK_RAM);
		c->cache_max_bytes = MOCK_RAM / 2;
		c->cache_used_bytes = nvd ? 12ULL << 20 : 0;
		if (c->cache_used_bytes > c->cache_bytes)
			c->cache_used_bytes = c->cache_bytes;
		vraid_cache_limits(c->cache_bytes / VRAID_CACHE_PAGE, 0, &l);
		c->cache_dirty_high_bytes = l.dirty_high * VRAID_CACHE_PAGE;
		if (getenv("MOCK_DIRTY"))
			c->cache_dirty_bytes = strtoull(getenv("MOCK_DIRTY"), NULL, 0);
		c->nr_vds = nvd;
		c->journal_state = jstate;
		if (jstate != VRAID_JOURNAL_NONE) {
			static const uint8_t u[16] = {
				0x8c, 0x1d, 0x0f, 0x3e, 0x52, 0x44, 0x4a, 0x1b,
				0x9e, 0x07, 0x6d, 0x21, 0xc3, 0x55, 0xa0, 0x19,
			};

			c->journal_major = jmaj;
			c->journal_minor = jmin;
			c->journal_bytes = getenv("MOCK_JOURNAL_BYTES") ?
				strtoull(getenv("MOCK_JOURNAL_BYTES"), NULL, 0) :
				1023ULL << 20;
			c->journal_used_bytes = 12ULL << 20;
			memcpy(c->journal_uuid, u, sizeof(u));
			c->journal_head_seq = 1234;
			c->journal_tail_seq = 1000;
			c->journal_pending = jstate == VRAID_JOURNAL_REPLAY_PENDING ? 2 : 0;
			c->journal_vds = jstate == VRAID_JOURNAL_HEALTHY ? 1 : 0;
		}
		return 0;
	}
	case 0x0b: {
		struct vraid_assemble *a = (void *)h;
		char m[400] = "";

		if (a->index || a->nr_used || a->nr_stale || a->disk_name[0] ||
		    (a->name[0] && !(a->asm_flags & VRAID_ASM_NAME)) ||
		    a->replayed || a->replay_parity ||
		    a->replay_superseded)
			return fail(h, EINVAL, "mock: assemble fields not zeroed");
		if ((ret = vraid_validate_assemble(a, msg, sizeof(msg))))
			return refused(h, ret, msg);
		for (i = 0; i < a->nr_devices; i++)
			snprintf(m + strlen(m), sizeof(m) - strlen(m), "%s%u:%u",
				 i ? "," : "", a->devices[i].major, a->devices[i].minor);
		if (a->asm_flags & VRAID_ASM_NAME)
			snprintf(m + strlen(m), sizeof(m) - strlen(m),
				 " name=%.31s", a->name);
		logit("assemble nr=%u flags=%u devices=%s\n", a->nr_devices,
		      a->asm_flags, m);
		a->index = 0;
		a->nr_used = a->nr_devices;
		strcpy(a->disk_name, "vraid0");
		strcpy(a->name, "fast");
		if (getenv("MOCK_REPLAYED") &&
		    sscanf(getenv("MOCK_REPLAYED"), "%u %u %u", &a->replayed,
			   &a->replay_parity, &a->replay_superseded) != 3)
			return fail(h, EINVAL, "mock: MOCK_REPLAYED is W P S");
		return 0;
	}
	default: {
		struct vraid_job *j = (void *)h;

		if (j->reserved1 || !all_zero(j->reserved2, sizeof(j->reserved2)))
			return fail(h, EINVAL, "mock: job fields not zeroed");
		if ((ret = vraid_validate_job(j, msg, sizeof(msg))))
			return refused(h, ret, msg);
		logit("job index=%u action=%u rate=%u\n", j->index, j->action,
		      j->rate_kib);
		if (!vd_exists(j->index))
			return fail(h, ENOENT, "no virtual drive");
		return 0;
	}
	}
}
EOF

# mkjsb IMG SLOT GEN FLAGS [UUID]: a journal superblock in slot SLOT (0 or
# 1) of the image IMG (sized beforehand; the ring fills it), as the
# module's format writes it: generation GEN, flags FLAGS, tail seq 42 at
# block 7, created 1764500000, UUID (32 hex digits, dashes allowed;
# default 8c1d0f3e-5244-4a1b-9e07-6d21c355a019, the mock's journal).
cat >"$tmp/mkjsb.c" <<'EOF'
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core_types.h"
#include "jformat.h"

int main(int argc, char **argv)
{
	static u8 blk[VRAID_J_BLOCK];
	const char *u = argc > 5 ? argv[5] : "8c1d0f3e52444a1b9e076d21c355a019";
	struct vraid_jsb sb;
	unsigned int b;
	off_t end;
	int fd, i;

	if (argc < 5)
		return 2;
	memset(&sb, 0, sizeof(sb));
	for (i = 0; i < VRAID_J_UUID_LEN; i++) {
		while (*u == '-')
			u++;
		if (sscanf(u, "%2x", &b) != 1)
			return 2;
		sb.uuid[i] = (u8)b;
		u += 2;
	}
	fd = open(argv[1], O_RDWR);
	if (fd < 0)
		return 1;
	end = lseek(fd, 0, SEEK_END);
	sb.generation = strtoull(argv[3], NULL, 0);
	sb.flags = (u32)strtoul(argv[4], NULL, 0);
	sb.created = 1764500000;
	sb.ring_start = VRAID_J_RING_START;
	sb.ring_blocks = vraid_jring_blocks((u64)end / 512);
	sb.tail_block = 7;
	sb.tail_seq = 42;
	vraid_jsb_encode(&sb, blk);
	if (pwrite(fd, blk, sizeof(blk), atoi(argv[2]) ? 8192 : 4096) != sizeof(blk))
		return 1;
	return close(fd) ? 1 : 0;
}
EOF

# mkmd IMG ROLE NR GEN [NAME [UUID [LEVEL [JUUID]]]]: vraid metadata in
# both copies of the image IMG (sized beforehand), as create writes it:
# role ROLE of NR members, generation GEN, name NAME (default "db"), VD
# UUID (32 hex digits, dashes allowed; default 11111111-2222-3333-4444-
# 555555555555), level LEVEL (a VRAID_LEVEL_* number, default 1); with
# JUUID the metadata names that journal (VRAID_MD_CF_JOURNAL: writes of
# the VD may wait there for replay).
cat >"$tmp/mkmd.c" <<'EOF'
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core_types.h"
#include "metadata.h"
#include "layout.h"

int main(int argc, char **argv)
{
	static u8 blk[VRAID_MD_BLOCK];
	const char *u = argc > 6 ? argv[6] : "11111111222233334444555555555555";
	struct vraid_md md;
	struct vraid_geom g;
	char msg[200];
	unsigned int b, i;
	off_t end;
	int fd;

	if (argc < 5)
		return 2;
	memset(&md, 0, sizeof(md));
	for (i = 0; i < VRAID_MD_UUID_LEN; i++) {
		while (*u == '-')
			u++;
		if (sscanf(u, "%2x", &b) != 1)
			return 2;
		md.vd_uuid[i] = (u8)b;
		u += 2;
	}
	fd = open(argv[1], O_RDWR);
	if (fd < 0)
		return 1;
	end = lseek(fd, 0, SEEK_END);
	md.version = VRAID_MD_VERSION;
	md.role = (u32)atoi(argv[2]);
	md.nr_members = (u32)atoi(argv[3]);
	md.generation = strtoull(argv[4], NULL, 0);
	md.created = 1764500000;
	snprintf(md.name, sizeof(md.name), "%s", argc > 5 ? argv[5] : "db");
	md.level = argc > 7 ? (u32)atoi(argv[7]) : 1;
	if (vraid_layout_init(&g, md.level, md.nr_members, 0, 0,
			      (u64)end / 512 - 16384, msg, sizeof(msg))) {
		fprintf(stderr, "mkmd: %s\n", msg);
		return 1;
	}
	md.strip_bytes = md.level == 255 ? 0 : g.strip_sectors * 512;
	md.data_offset = 16384;
	md.member_sectors = g.member_sectors;
	md.size_sectors = g.size_sectors;
	md.flags = VRAID_MD_F_CLEAN;
	md.init_pos = g.member_sectors;
	if (argc > 8) {
		u = argv[8];
		for (i = 0; i < VRAID_MD_UUID_LEN; i++) {
			while (*u == '-')
				u++;
			if (sscanf(u, "%2x", &b) != 1)
				return 2;
			md.journal_uuid[i] = (u8)b;
			u += 2;
		}
		md.cache_flags |= VRAID_MD_CF_JOURNAL;
	}
	for (i = 0; i < md.nr_members; i++) {
		md.members[i].uuid[0] = (u8)(i + 1);
		md.members[i].state = 1;	/* VRAID_MEMBER_ONLINE */
		md.members[i].dev_sectors = (u64)end / 512;
	}
	vraid_md_encode(&md, blk);
	if (pwrite(fd, blk, sizeof(blk), 4096) != sizeof(blk) ||
	    pwrite(fd, blk, sizeof(blk), 1 << 20) != sizeof(blk))
		return 1;
	return close(fd) ? 1 : 0;
}
EOF

# ---- build ------------------------------------------------------------------

# build VARIANT EXTRA_CFLAGS: vraidctl, vraid-raw, ioctlfuzz and the mock vraidctl
# into $tmp/VARIANT/
build() {
	# the portable core, as driver/core/core.mk lists it
	local core
	core=$(sed -n 's/^VRAID_CORE := //p' "$root/driver/core/core.mk" |
		tr ' ' '\n' | sed "s|.*|$root/driver/core/&.c|" | tr '\n' ' ')
	local common="-I$root/tools/common $root/tools/common/vraid_common.c"
	local cli="$root/tools/vraidctl/*.c"
	mkdir -p "$tmp/$1"
	# shellcheck disable=SC2086
	$CC $CFLAGS $2 -I"$root/driver/core" -I"$root/driver" -o "$tmp/$1/vraidctl" $cli $common $core &&
	$CC $CFLAGS $2 -I"$root/driver/core" -o "$tmp/$1/mkjsb" "$tmp/mkjsb.c" $core &&
	$CC $CFLAGS $2 -I"$root/driver/core" -o "$tmp/$1/mkmd" "$tmp/mkmd.c" $core &&
	$CC $CFLAGS $2 -o "$tmp/$1/vraid-raw" "$root/tests/helpers/vraid-raw.c" $common &&
	$CC $CFLAGS $2 -o "$tmp/$1/ioctlfuzz" "$root/tests/vm/ioctlfuzz.c" $common &&
	$CC $CFLAGS $2 -I"$root/driver/core" -I"$root/driver" -include "$tmp/mock.h" -o "$tmp/$1/vraidctl-mock" \
		$cli $common "$tmp/mock.c" $core
}

# ---- the tests --------------------------------------------------------------

# put IMG OFFSET PRINTF-BYTES: write bytes into an image at OFFSET
put() {
	printf "$3" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}

# log_empty DESC: the mock got no logged request since `: >"$tmp/log"`
log_empty() {
	if [ -s "$tmp/log" ]; then
		say_not_ok "$1 (mock got '$(tail -n 1 "$tmp/log")')"
	else
		say_ok "$1"
	fi
}

# cache_is DESC TEXT: the last check's stdout has the "Cache:" line and
# the indented lines after it (stats), exactly TEXT
cache_is() {
	local got
	got=$(sed -n '/^Cache:/,/^$/p' "$tmp/out" | sed '/^$/d')
	if [ "$got" = "$2" ]; then
		say_ok "$1"
	else
		say_not_ok "$1 (got '$got', want '$2')"
	fi
}

# log_has DESC LINE: the mock logged LINE since `: >"$tmp/log"`
log_has() {
	if grep -qxF -- "$2" "$tmp/log" 2>/dev/null; then
		say_ok "$1"
	else
		say_not_ok "$1 (mock got '$(cat "$tmp/log" 2>/dev/null)')"
	fi
}

# fresh IMG...: empty 64 MiB images (sparse)
fresh() {
	for f; do rm -f "$f" && truncate -s 64M "$f"; done
}

# The destructive commands against the mock, with image files standing
# in for block devices (MOCK_IMG_BLK: $D/dN.img is 7:(100 + N)).
destructive_tests() {
	D="$tmp/dev"
	mkdir -p "$D" "$tmp/devdir"
	d0=$D/d0.img d1=$D/d1.img d2=$D/d2.img d3=$D/d3.img d4=$D/d4.img
	d5=$D/d5.img
	MK="$tmp/$variant/mkmd"
	K="$tmp/$variant/mkjsb"
	uuid=11111111-2222-3333-4444-555555555555
	export MOCK_IMG_BLK=1 MOCK_DEVDIR="$tmp/devdir"
	fresh "$d0" "$d1" "$d2" "$d3" "$d4" "$d5"

	# create: a device that holds nothing known goes ahead, silently
	: >"$tmp/log"
	check "create over empty devices" 0 "vraid4" "" env MOCK_VRAID=none "$M" create --level 0 "$d0" "$d1"
	expect_log "create over empty devices, sent" "create level=0 strip=0 nr=2 spans=0 name= members=7:100,7:101 init=0 access=0 dcache=0 io=0 read=0 write=0"
	if [ -s "$tmp/err" ]; then say_not_ok "create over empty devices, empty stderr"; else say_ok "create over empty devices, empty stderr"; fi

	# an ext4 file system: refused, nothing sent; --force overwrites it
	put "$d0" 1080 '\123\357'
	put "$d0" 1120 '\100\002'
	put "$d0" 1144 'data'
	: >"$tmp/log"
	check "create over ext4 refused" 1 "" "vraidctl: create: $d0 holds an ext4 file system (label \"data\"); \`vraidctl create ... --force\` overwrites it" env MOCK_VRAID=none "$M" create --level 0 "$d0" "$d1"
	log_empty "create over ext4: nothing sent"
	err_lacks "create over ext4: the empty device is not named" "$d1"
	check "create over ext4, hint" 1 "" "vraidctl: hint: \`vraidctl create ... --dry-run\` shows what each device holds; with --force what they hold is lost" env MOCK_VRAID=none "$M" create --level 0 "$d0" "$d1"
	check "create over ext4 --force" 0 "vraid4" "create: overwriting what $d0 holds (--force): an ext4 file system (label \"data\")" env MOCK_VRAID=none "$M" create --level 0 --force "$d0" "$d1"
	out_is "create --force, stdout is the name alone" vraid4
	expect_log "create over ext4 --force, sent" "create level=0 strip=0 nr=2 spans=0 name= members=7:100,7:101 init=0 access=0 dcache=0 io=0 read=0 write=0"
	check "create --force after the devices" 0 "vraid4" "" env MOCK_VRAID=none "$M" create --level 0 "$d0" "$d1" --force
	check "create -- --force is a device" 1 "" "--force: no such file" env MOCK_VRAID=none "$M" create --level 0 "$d0" -- --force

	# create --dry-run: the VD, each member and what it holds; nothing sent
	: >"$tmp/log"
	check "create --dry-run" 1 "create --dry-run: nothing is changed" "" env MOCK_VRAID=none "$M" create --dry-run --level 0 --name scratch "$d0" "$d1"
	out_has "create --dry-run, the VD" -qxF "Virtual drive:  RAID0, name \"scratch\", 2 members, strip 64 KiB, 112 MiB"
	out_has "create --dry-run, each member" -qF "Each member:    vraid's metadata in its first 8 MiB, then 56 MiB of the VD's data; what it holds there is overwritten"
	out_has "create --dry-run, what is lost" -qxF "  role 0  $d0  64 MiB  holds an ext4 file system (label \"data\"): lost"
	out_has "create --dry-run, an empty member" -qxF "  role 1  $d1  64 MiB  no known signature (its contents are overwritten all the same)"
	out_has "create --dry-run, refused" -qxF "Result:         refused without --force: what the devices hold would be lost"
	log_empty "create --dry-run: nothing sent"
	check "create --dry-run --force" 0 "Result:         it would be created, overwriting what the devices hold (--force)" "" env MOCK_VRAID=none "$M" create --level 0 --dry-run --force "$d0" "$d1"
	log_empty "create --dry-run --force: nothing sent"
	check "create --dry-run, level needs more members" 1 "Virtual drive:  RAID5, 2 members: refused by the module's checks:" "" env MOCK_VRAID=none "$M" create --level 5 --dry-run "$d0" "$d1"
	check "create --dry-run, no module" 1 "Result:         refused without --force" "" env VRAIDCTL_CONTROL="$nope" "$M" create --level 0 --dry-run "$d0" "$d1"
	if [ -n "$blk0" ]; then
		check "create --dry-run over a running VD's member" 1 "  role 0  $blk0  0 B  is in use: a member of the running virtual drive /dev/vraid0, role 0 (refused)" "" env MOCK_VRAID=jobs "$M" create --level 1 --dry-run --force "$blk0" "$d1"
		out_has "create --dry-run over a running VD's member, result" -qxF "Result:         refused: a device is in use (--force does not override that)"
	fi
	log_empty "create --dry-run: still nothing sent"

	# every signature of the table, one device each
	# NAME|OFFSET|BYTES[|OFFSET|BYTES...]|WHAT IS SAID
	while IFS='|' read -r name o1 b1 o2 b2 o3 b3 says; do
		[ -n "$name" ] || continue
		fresh "$d2"
		put "$d2" "$o1" "$b1"
		[ -n "$o2" ] && put "$d2" "$o2" "$b2"
		[ -n "$o3" ] && put "$d2" "$o3" "$b3"
		check "create over $name refused" 1 "" "create: $d2 holds $says; \`vraidctl create" env MOCK_VRAID=none "$M" create --level jbod "$d2"
	done <<'SIGS'
ext2|1080|\123\357|||||an ext2 file system
ext3|1080|\123\357|1116|\004|1144|j3|an ext3 file system (label "j3")
xfs|0|XFSB|108|xfslabel|||an XFS file system (label "xfslabel")
btrfs|65600|_BHRfS_M|65835|bt|||a Btrfs file system (label "bt")
swap|4086|SWAPSPACE2|1052|swp|||a swap area (label "swp")
lvm|512|LABELONE|536|LVM2 001|||an LVM2 physical volume
luks|0|LUKS\272\276\000\002|24|secret|||a LUKS2 encrypted volume (label "secret")
md 1.2|4096|\374\116\053\251\001|4128|host:0|4224|\010|an md RAID superblock (metadata 1.2, name "host:0")
md 1.1|0|\374\116\053\251\001|32|h:1|||an md RAID superblock (metadata 1.1, name "h:1")
md 1.0|67100672|\374\116\053\251\001|67100800|\360\377\001|||an md RAID superblock (metadata 1.0)
md 0.90|67043328|\374\116\053\251|||||an md RAID superblock (metadata 0.90)
mbr|446|\200\000\000\000\203|510|\125\252|||an MBR (DOS) partition table (1 partition)
gpt|512|EFI PART|||||a GPT partition table
gpt backup|67108352|EFI PART|||||a GPT partition table (its backup header, at the end)
fat|0|\353|71|MYFAT      FAT32   |510|\125\252|a FAT file system (label "MYFAT")
ntfs|3|NTFS    |510|\125\252|||an NTFS file system
SIGS
	# several things on one device, said in one line
	fresh "$d2"
	put "$d2" 446 '\000\000\000\000\203'
	put "$d2" 510 '\125\252'
	put "$d2" 1080 '\123\357'
	check "create over a partition table and ext2" 1 "" "create: $d2 holds an MBR (DOS) partition table (1 partition) and an ext2 file system;" env MOCK_VRAID=none "$M" create --level jbod "$d2"
	# a label is made safe for a terminal
	fresh "$d2"
	put "$d2" 0 'XFSB'
	put "$d2" 108 'a\033[2Jb'
	check "create over xfs, label sanitised" 1 "" "an XFS file system (label \"a?[2Jb\")" env MOCK_VRAID=none "$M" create --level jbod "$d2"
	if command -v mkfs.ext4 >/dev/null 2>&1; then
		fresh "$d2"
		mkfs.ext4 -q -F -L realfs "$d2" >/dev/null 2>&1
		check "create over mkfs.ext4's file system" 1 "" "create: $d2 holds an ext4 file system (label \"realfs\")" env MOCK_VRAID=none "$M" create --level jbod "$d2"
	else
		say_skip "create over mkfs.ext4's file system" "no mkfs.ext4"
	fi
	if command -v sfdisk >/dev/null 2>&1; then
		fresh "$d2"
		printf 'label: gpt\n,10M\n,10M\n' | sfdisk -q "$d2" >/dev/null 2>&1
		check "create over sfdisk's GPT" 1 "" "create: $d2 holds a GPT partition table (2 partitions)" env MOCK_VRAID=none "$M" create --level jbod "$d2"
		fresh "$d2"
		printf 'label: dos\n,10M\n' | sfdisk -q "$d2" >/dev/null 2>&1
		check "create over sfdisk's MBR" 1 "" "create: $d2 holds an MBR (DOS) partition table (1 partition)" env MOCK_VRAID=none "$M" create --level jbod "$d2"
	else
		say_skip "create over sfdisk's partition tables" "no sfdisk"
	fi

	# vraid metadata: a member of a stopped VD, named with its UUID
	fresh "$d2"
	"$MK" "$d2" 1 2 5 db
	check "create over a stopped VD's member" 1 "" "create: $d2 holds the vraid metadata of the stopped virtual drive \"db\" (UUID $uuid, RAID1, role 1 of 2, 56 MiB);" env MOCK_VRAID=none "$M" create --level jbod "$d2"
	check "create over a stopped VD's member, hint" 1 "" "vraidctl: hint: to bring a stopped virtual drive back instead: vraidctl assemble --scan; to erase its metadata: vraidctl wipe DEV --force" env MOCK_VRAID=none "$M" create --level jbod "$d2"
	check "create over a stopped VD's member --force" 0 "vraid4" "overwriting what $d2 holds (--force): the vraid metadata of the stopped virtual drive \"db\"" env MOCK_VRAID=none "$M" create --level jbod "$d2" --force
	# copy A gone (md's 1.2 superblock there, as md-compat does): copy B says it
	dd if=/dev/zero of="$d2" bs=4096 seek=1 count=1 conv=notrunc 2>/dev/null
	check "create over a member, copy B only" 1 "" "the vraid metadata of the stopped virtual drive \"db\"" env MOCK_VRAID=none "$M" create --level jbod "$d2"
	# damaged
	fresh "$d2"
	"$MK" "$d2" 0 2 5 db
	put "$d2" 4200 X
	put "$d2" 1048680 X
	check "create over damaged vraid metadata" 1 "" "create: $d2 holds damaged vraid metadata (copy A: metadata checksum mismatch" env MOCK_VRAID=none "$M" create --level jbod "$d2"
	# a stale member of a running VD: vraid0 of "jobs" runs on loop0 and
	# loop1, whose metadata (read from /dev/loop0) names the same UUID
	fresh "$tmp/devdir/loop0" "$d3"
	"$MK" "$tmp/devdir/loop0" 0 2 9
	"$MK" "$d3" 1 2 5
	check "create over a stale member of a running VD" 1 "" "create: $d3 holds stale vraid metadata of the running virtual drive /dev/vraid0 (role 1, generation 5: a member replaced or left out);" env MOCK_VRAID=jobs "$M" create --level jbod "$d3"
	rm -f "$tmp/devdir/loop0"
	check "create over a member, its VD's members unreadable: stopped" 1 "" "the vraid metadata of the stopped virtual drive \"db\"" env MOCK_VRAID=jobs "$M" create --level jbod "$d3"
	# a vraid journal
	fresh "$d3"
	"$K" "$d3" 0 4 1
	check "create over a vraid journal" 1 "" "create: $d3 holds a vraid controller journal (UUID 8c1d0f3e-5244-4a1b-9e07-6d21c355a019);" env MOCK_VRAID=none "$M" create --level jbod "$d3"
	"$K" "$d3" 0 4 0
	check "create over a journal not detached" 1 "" "(UUID 8c1d0f3e-5244-4a1b-9e07-6d21c355a019; not detached cleanly: it may hold acknowledged writes still to replay)" env MOCK_VRAID=none "$M" create --level jbod "$d3"

	# in use: refused whatever --force says, nothing sent
	if [ -n "$blk0" ]; then
		: >"$tmp/log"
		check "create over a running VD's member" 1 "" "vraidctl: create: $blk0 is in use: a member of the running virtual drive /dev/vraid0, role 0" env MOCK_VRAID=jobs "$M" create --level 1 --force "$blk0" "$d4"
		log_empty "create over a running VD's member: nothing sent"
		check "create over a running VD's member, hint" 1 "" "vraidctl: hint: stop or delete vraid0 first (\`vraidctl stop vraid0\`), or take the member out of it (\`vraidctl replace\`); --force does not override this" env MOCK_VRAID=jobs "$M" create --level 1 "$blk0" "$d4"
		check "create over the journal" 1 "" "create: $blk0 is in use: it is the controller's journal (healthy)" env MOCK_VRAID=none MOCK_JOURNAL=healthy "$M" create --level jbod --force "$blk0"
		check "create over the journal, hint" 1 "" "vraidctl: hint: detach the journal first: vraidctl controller journal none" env MOCK_VRAID=none MOCK_JOURNAL=healthy "$M" create --level jbod "$blk0"
	fi
	fresh "$D/d10.img"
	check "create over a hot spare" 1 "" "create: $D/d10.img is in use: a global hot spare" env MOCK_VRAID=three "$M" create --level jbod --force "$D/d10.img"
	check "create over a hot spare, hint" 1 "" "vraidctl: hint: remove the spare first: vraidctl spare remove $D/d10.img" env MOCK_VRAID=three "$M" create --level jbod "$D/d10.img"
	check "create over a device held by another" 1 "" "create: $d4 is in use: another opener holds it exclusively (mounted, or held by md, dm or LVM)" env MOCK_VRAID=none MOCK_EXCL_BUSY="$d4" "$M" create --level jbod --force "$d4"

	# controller journal DEV: what it holds is overwritten, unless a journal
	fresh "$d4"
	put "$d4" 1080 '\123\357'
	: >"$tmp/log"
	check "journal over ext2 refused" 1 "" "vraidctl: controller journal $d4: $d4 holds an ext2 file system; \`vraidctl controller journal $d4 --force\` overwrites it" env MOCK_VRAID=none "$M" controller journal "$d4"
	log_empty "journal over ext2: nothing sent"
	check "journal over ext2, hint" 1 "" "vraidctl: hint: a journal device is formatted: whatever it holds is lost (\`vraidctl controller journal $d4 --dry-run\` shows it)" env MOCK_VRAID=none "$M" controller journal "$d4"
	check "journal over ext2 --force" 0 "Journal:" "controller journal: overwriting what $d4 holds (--force): an ext2 file system" env MOCK_VRAID=none "$M" controller journal "$d4" --force
	expect_log "journal over ext2 --force sends FORCE" "controller action=2 flags=1 cache=0 dev=7:104"
	fresh "$d4"
	"$MK" "$d4" 0 1 3 solo 22222222-2222-2222-2222-222222222222 255
	check "journal over a stopped VD's member refused" 1 "" "$d4 holds the vraid metadata of the stopped virtual drive \"solo\" (UUID 22222222-2222-2222-2222-222222222222, JBOD, role 0 of 1, 56 MiB)" env MOCK_VRAID=none "$M" controller journal "$d4"
	fresh "$d4"
	"$K" "$d4" 0 4 3
	: >"$tmp/log"
	check "journal over a vraid journal: attached as it is" 0 "Journal:" "" env MOCK_VRAID=none "$M" controller journal "$d4"
	expect_log "journal over a vraid journal: no FORCE" "controller action=2 flags=0 cache=0 dev=7:104"
	if [ -n "$blk0" ]; then
		check "journal over the journal attached" 1 "" "controller journal $blk0: $blk0 is in use: it is the controller's journal (healthy)" env MOCK_VRAID=none MOCK_JOURNAL=healthy "$M" controller journal "$blk0" --force
		check "journal over a running VD's member" 1 "" "controller journal $blk1: $blk1 is in use: a member of the running virtual drive /dev/vraid0, role 1" env MOCK_VRAID=jobs "$M" controller journal "$blk1"
	fi
	# controller journal DEV --dry-run
	fresh "$d4"
	put "$d4" 1080 '\123\357'
	: >"$tmp/log"
	check "journal --dry-run over ext2" 1 "Holds:          an ext2 file system" "" env MOCK_VRAID=none "$M" controller journal "$d4" --dry-run
	out_has "journal --dry-run over ext2, refused" -qxF "Result:         refused without --force: formatting it would lose what it holds"
	check "journal --dry-run --force over ext2" 0 "Result:         it would be formatted as a new journal, its ring 63 MiB: what it holds is lost" "" env MOCK_VRAID=none "$M" controller journal "$d4" --dry-run --force
	fresh "$d4"
	check "journal --dry-run over an empty device" 0 "Result:         it would be formatted as a new journal, its ring 63 MiB" "" env MOCK_VRAID=none "$M" controller journal "$d4" --dry-run
	"$K" "$d4" 0 4 3
	check "journal --dry-run over a vraid journal" 0 "Result:         it would be attached as it is" "" env MOCK_VRAID=none "$M" controller journal "$d4" --dry-run
	out_has "journal --dry-run over a vraid journal, its UUID" -qxF "Holds:          a vraid journal (UUID 8c1d0f3e-5244-4a1b-9e07-6d21c355a019)"
	check "journal --dry-run, one attached" 1 "Result:         refused: a journal is attached already" "" env MOCK_VRAID=none MOCK_JOURNAL=healthy "$M" controller journal "$d4" --dry-run
	log_empty "journal --dry-run: nothing sent"
	check "journal none --dry-run" 2 "" "--dry-run is only for controller journal DEV" "$M" controller journal none --dry-run
	check "controller --dry-run" 2 "" "--dry-run is only for controller journal DEV" "$M" controller --dry-run
	check "journal --dry-run --json" 2 "" "--dry-run prints no JSON: leave --json out" "$M" controller journal "$d4" --dry-run --json
	# delete needs --force; without it, it says what it would destroy
	: >"$tmp/log"
	check "delete without --force" 1 "" "vraidctl: delete vraid0: refused without --force: it destroys the virtual drive /dev/vraid0 (\"fast\") (RAID0, 768 MiB, Optimal) and erases the vraid metadata of its members, /dev/nvme0n1 (role 0), /dev/nvme1n1 (role 1): it cannot be assembled again" env MOCK_VRAID=three "$M" delete fast
	log_empty "delete without --force: nothing sent"
	check "delete without --force, hint" 1 "" "vraidctl: hint: to delete it: vraidctl delete fast --force; to take it down and keep it: vraidctl stop fast" env MOCK_VRAID=three "$M" delete fast
	check "delete without --force, open" 1 "" "vraidctl: delete vraid0: it is open (1 opener): even with --force it is refused until it is closed" env MOCK_VRAID=three "$M" delete fast
	check "delete without --force, by number" 1 "" "its members, /dev/nvme0n1 (role 0), /dev/nvme1n1 (role 1), /dev/nvme2n1 (role 2), /dev/nvme3n1 (role 3), /dev/nvme4n1 (role 4), /dev/nvme5n1 (role 5, failed), /dev/nvme6n1 (role 6), /dev/dddddddddddddddddddddddddddddddd (role 7)" env MOCK_VRAID=three "$M" delete 7
	check "delete without --force, missing member" 1 "" "(JBOD, 384 MiB, Offline) and erases the vraid metadata of its members, role 0 (missing)" env MOCK_VRAID=three "$M" delete vraid3
	log_empty "delete without --force: still nothing sent"
	mkdir -p "$tmp/sysd/block/vraid0/vraid"
	echo 12582912 >"$tmp/sysd/block/vraid0/vraid/cache_dirty_bytes"
	check "delete without --force, dirty data" 1 "" "delete vraid0: it holds 12 MiB of dirty data in the controller cache, written to the members first (--force discards what they cannot take)" env MOCK_VRAID=three VRAIDCTL_SYSFS="$tmp/sysd" "$M" delete 0
	check "delete --dry-run" 1 "delete --dry-run: nothing is changed" "" env MOCK_VRAID=three VRAIDCTL_SYSFS="$tmp/sysd" "$M" delete --dry-run fast
	out_has "delete --dry-run, the VD" -qxF "Virtual drive:  /dev/vraid0 (\"fast\"): RAID0, 768 MiB, Optimal"
	out_has "delete --dry-run, the members" -qxF "Members:        /dev/nvme0n1 (role 0), /dev/nvme1n1 (role 1): their vraid metadata is erased"
	out_has "delete --dry-run, what is lost" -qF "Lost:           the virtual drive: it cannot be assembled again"
	out_has "delete --dry-run, dirty data" -qF "Dirty data:     12 MiB in the controller cache, written to the members first"
	out_has "delete --dry-run, open" -qxF "Result:         refused: it is open (1 opener): unmount it and stop its users first"
	check "delete --dry-run, not forced" 1 "Result:         refused without --force" "" env MOCK_VRAID=three "$M" delete --dry-run 7
	check "delete --dry-run --force" 0 "Result:         it would be deleted" "" env MOCK_VRAID=three "$M" delete --dry-run --force 7
	log_empty "delete --dry-run: nothing sent"
	check "delete --dry-run, no VD" 1 "" "delete vraid9: no virtual drive (ENOENT" env MOCK_VRAID=three "$M" delete --dry-run vraid9
	check "delete -h --force" 0 "--force    needed: without it delete only says what it would destroy" "" "$V" delete -h
	check "stop -h --force" 0 "--force    discard the dirty cache data the members cannot take" "" "$V" stop -h
	check "stop --dry-run" 2 "" "unknown option '--dry-run'" "$V" stop vraid0 --dry-run

	# stop and delete and the controller cache (ABI 1.11)
	check "stop" 0 "" "" env MOCK_VRAID=three "$M" stop fast
	expect_log "stop sends STOP" "delete index=0 flags=1"
	check "stop --force" 0 "" "" env MOCK_VRAID=three "$M" stop fast --force
	expect_log "stop --force sends DISCARD" "delete index=0 flags=3"
	check "delete --force" 0 "" "" env MOCK_VRAID=three "$M" delete --force 7
	expect_log "delete --force sends DISCARD" "delete index=7 flags=2"
	check "stop, cache cannot be written out" 1 "" "vraidctl: stop vraid0: vraid0: cache write-out failed, 12582912 bytes dirty: the virtual drive keeps running (EIO: Input/output error)" env MOCK_VRAID=three MOCK_DIRTY_STUCK=12582912 "$M" stop fast
	check "stop, cache cannot be written out, hint" 1 "" "vraidctl: hint: vraid0 keeps running with its dirty cache data (nothing is lost): fix the member (see \`vraidctl show fast\` and the kernel log) and stop it again, or \`vraidctl stop fast --force\` discards the dirty data (those writes are lost)" env MOCK_VRAID=three MOCK_DIRTY_STUCK=12582912 "$M" stop fast
	check "stop --force, dirty data discarded" 0 "" "vraidctl: warning: stop vraid0: 12 MiB of dirty cache data discarded, as --force asked (the members could not take it): those writes are lost" env MOCK_VRAID=three MOCK_DIRTY_STUCK=12582912 "$M" stop fast --force
	expect_log "stop --force, dirty data discarded, request" "delete index=0 flags=3"
	# stop --all: every VD, STOP only; one that cannot stop does not keep
	# the others running
	: >"$tmp/log"
	check "stop --all" 0 "" "" env MOCK_VRAID=three "$M" stop --all
	if [ "$(tr '\n' ';' <"$tmp/log")" = "delete index=0 flags=1;delete index=1 flags=1;delete index=3 flags=1;delete index=7 flags=1;" ]; then
		say_ok "stop --all sends STOP for each VD"
	else
		say_not_ok "stop --all sends STOP for each VD (mock got '$(tr '\n' ';' <"$tmp/log")')"
	fi
	: >"$tmp/log"
	check "stop --all, caches cannot be written out" 1 "" "vraidctl: stop vraid7: vraid7: cache write-out failed" env MOCK_VRAID=three MOCK_DIRTY_STUCK=12582912 "$M" stop --all
	if [ "$(grep -c '^delete' "$tmp/log")" = 4 ]; then
		say_ok "stop --all tries every VD after a failure"
	else
		say_not_ok "stop --all tries every VD after a failure (mock got $(grep -c '^delete' "$tmp/log") requests)"
	fi
	check "stop --all --force" 2 "" "--all never discards" "$M" stop --all --force
	check "stop --all VD" 2 "" "--all stops every virtual drive: name none" "$M" stop --all fast
	check "stop --all, no module" 1 "" "vraid module not loaded" env VRAIDCTL_CONTROL="$nope" "$V" stop --all
	check "delete --force, dirty data discarded" 0 "" "vraidctl: warning: delete vraid7: 12 MiB of dirty cache data discarded" env MOCK_VRAID=three MOCK_DIRTY_STUCK=12582912 "$M" delete 7 --force
	check "stop --force, nothing dirty: silent" 0 "" "" env MOCK_VRAID=three "$M" stop fast --force
	if [ -s "$tmp/err" ]; then say_not_ok "stop --force, nothing dirty: empty stderr"; else say_ok "stop --force, nothing dirty: empty stderr"; fi
	# a module before ABI 1.11: no DISCARD sent, no word of it
	check "stop --force, module 1.10" 0 "" "vraidctl: warning: stop vraid0: the vraid module speaks ABI 1.10, which cannot discard dirty cache data: --force has no effect, this is a plain stop" env MOCK_VRAID=three MOCK_ABI_MINOR=10 "$M" stop fast --force
	expect_log "stop --force, module 1.10, no DISCARD" "delete index=0 flags=1"
	check "delete --force, module 1.10" 0 "" "" env MOCK_VRAID=three MOCK_ABI_MINOR=10 "$M" delete --force fast
	expect_log "delete --force, module 1.10, no DISCARD" "delete index=0 flags=0"
	check "stop EIO, module 1.10" 1 "" "stop vraid0: a member write failed (EIO" env MOCK_VRAID=three MOCK_ABI_MINOR=10 MOCK_FAIL="delete:EIO:a member write failed" "$M" stop 0
	err_lacks "stop EIO, module 1.10: no discard hint" "--force"
	# wipe: vraid's blocks only, with --force; images stand in for devices
	check "wipe -h" 0 "usage: vraidctl wipe DEV [--force] [--dry-run]" "" "$V" wipe -h
	out_has "wipe -h says what it zeroes" -qF "journal's two superblock slots (byte 4096 and 8192)"
	check "help lists wipe" 0 "  vraidctl wipe DEV [--force] [--dry-run]" "" "$V" help
	check "wipe, no DEV" 2 "" "name the device to erase vraid's metadata from (e.g. /dev/sdc)" "$V" wipe
	check "wipe, two DEVs" 2 "" "name one device only" "$V" wipe "$d0" "$d1"
	check "wipe --json" 2 "" "unknown option '--json'" "$V" wipe "$d0" --json
	check "wipe, missing DEV" 1 "" "/dev/xyz-no-such: no such file" "$V" wipe /dev/xyz-no-such --force
	check "wipe, char device" 1 "" "/dev/null is a character device, not a block device" "$V" wipe /dev/null --force
	check "wipe, directory" 1 "" "is a directory, not a block device" "$V" wipe "$tmp" --force
	fresh "$d5"
	"$MK" "$d5" 1 2 5 db
	put "$d5" 2097152 'VRBM'
	check "examine, created as a date in UTC" 0 "" "" env VRAIDCTL_CONTROL="$nope" "$V" examine "$d5"
	out_has "examine, created as a date in UTC, the line" -qxF "Created:         2025-11-30 10:53:20 UTC"
	check "examine --json, created still seconds" 0 '"generation":5,"created":1764500000,"clean":' "" env VRAIDCTL_CONTROL="$nope" "$V" examine --json "$d5"
	# --export: KEY=VALUE for udev (64-vraid-members.rules)
	check "examine --export" 0 "ID_FS_TYPE=vraid_member" "" "$V" examine --export "$d5"
	out_is "examine --export, the keys" "$(printf 'ID_FS_TYPE=vraid_member\nID_FS_USAGE=raid\nID_FS_UUID=%s\nID_FS_UUID_ENC=%s\nID_FS_LABEL=db\nID_FS_LABEL_ENC=db\nVRAID_UUID=%s\nVRAID_NAME=db\nVRAID_LEVEL=raid1\nVRAID_MEMBERS=2\nVRAID_ROLE=1\nVRAID_MEMBER_UUID=%s\nVRAID_GENERATION=5\nVRAID_CLEAN=1' "$uuid" "$uuid" "$uuid" "$("$V" examine --json "$d5" | sed -n 's/.*"role":1,"uuid":"\([^"]*\)".*/\1/p')")"
	check "examine --export --json" 2 "" "--export and --json: choose one" "$V" examine --export --json "$d5"
	# assemble --incremental DEV with a member image (role 1 of 2 of "db"):
	# the scan of a sysfs with no other block device finds nothing more
	incsys=$tmp/incsys
	mkdir -p "$incsys/class/block" "$incsys/block/vraid0/vraid"
	check "mock: assemble --incremental, waiting" 0 "VD db ($uuid): 1 of 2 members present, waiting for 1 more (role 0): not assembled yet" "" env MOCK_VRAID=none VRAIDCTL_SYSFS="$incsys" "$M" assemble --incremental "$d5"
	: >"$tmp/log"
	check "mock: assemble --incremental, waiting, nothing sent" 0 "" "" env MOCK_VRAID=none VRAIDCTL_SYSFS="$incsys" "$M" assemble --incremental "$d5"
	log_empty "mock: assemble --incremental, waiting: no ASSEMBLE"
	check "mock: assemble --incremental --run" 0 "vraid0: assembled" "" env MOCK_VRAID=none VRAIDCTL_SYSFS="$incsys" "$M" assemble --incremental --run "$d5"
	out_has "mock: assemble --incremental --run says what is missing" -qF "VD db ($uuid): 1 of 2 members present (role 0 missing): --run starts it without it, Degraded if its level allows it"
	expect_log "mock: assemble --incremental --run sends DEV" "assemble nr=1 flags=0 devices=7:105"
	check "mock: assemble --incremental --run --uuid, no member" 1 "VD 0a0b0c0d-1111-2222-3333-444455556666: no member found among the block devices: nothing assembled" "" env MOCK_VRAID=none VRAIDCTL_SYSFS="$incsys" "$M" assemble --incremental --run --uuid 0a0b0c0d-1111-2222-3333-444455556666
	# vraid.conf (--config FILE): AUTO -all refuses a VD without a VD
	# line, auto=no one with; a pinned name goes with the ASSEMBLE
	cf=$tmp/vraid.conf
	printf '# only the VDs listed\nAUTO -all\n' >"$cf"
	: >"$tmp/log"
	check "mock: vraid.conf AUTO -all refuses a foreign VD" 0 "VD db ($uuid): not assembled: $cf:2 says AUTO -all and no VD line names it" "" env MOCK_VRAID=none VRAIDCTL_SYSFS="$incsys" "$M" --config "$cf" assemble --incremental --run "$d5"
	log_empty "mock: vraid.conf AUTO -all: no ASSEMBLE"
	check "mock: vraid.conf AUTO -all, --config=FILE" 0 "not assembled: $cf:2 says AUTO -all" "" env MOCK_VRAID=none VRAIDCTL_SYSFS="$incsys" "$M" --config="$cf" assemble --incremental "$d5"
	printf 'VD %s auto=no   # not here\n' "$uuid" >"$cf"
	check "mock: vraid.conf auto=no refuses it" 0 "VD db ($uuid): not assembled: $cf:1 says auto=no for it" "" env MOCK_VRAID=none VRAIDCTL_SYSFS="$incsys" "$M" --config "$cf" assemble --incremental --run "$d5"
	printf 'AUTO -all\nvd %s name=pinned.db auto=yes\n' "$(echo "$uuid" | tr a-f A-F)" >"$cf"
	check "mock: vraid.conf pins the name" 0 "vraid0: assembled" "" env MOCK_VRAID=none VRAIDCTL_SYSFS="$incsys" "$M" --config "$cf" assemble --incremental --run "$d5"
	expect_log "mock: vraid.conf pins the name: ASSEMBLE carries it" "assemble nr=1 flags=4 devices=7:105 name=pinned.db"
	check "mock: assemble by hand ignores vraid.conf's AUTO" 0 "vraid0: assembled" "" env MOCK_VRAID=none "$M" --config "$cf" assemble "$d5"
	expect_log "mock: assemble by hand: no pinned name" "assemble nr=1 flags=0 devices=7:105"
	# bad lines: FILE:LINE and what is wrong; nothing done
	conf_bad() { # DESC LINE... (the last line is the bad one) -- NEEDLE
		local d=$1 ln=$2 want=$3
		shift 3
		printf '%s\n' "$@" >"$cf"
		: >"$tmp/log"
		check "vraid.conf: $d" 1 "" "vraidctl: $cf:$ln: $want" env MOCK_VRAID=none VRAIDCTL_SYSFS="$incsys" "$M" --config "$cf" assemble --incremental --run "$d5"
		log_empty "vraid.conf: $d: nothing sent"
	}
	conf_bad "unknown keyword" 2 "unknown keyword 'ARRAY' (expected VD, SPARE, AUTO, MAILADDR or PROGRAM)" "# mdadm's" "ARRAY /dev/md0"
	conf_bad "bad UUID" 1 "'xyz' is not a VD UUID" "VD xyz name=a"
	conf_bad "VD without UUID" 1 "VD needs the VD's UUID" "VD"
	conf_bad "VD line, unknown option" 1 "'level=5': a VD line takes name=NAME and auto=yes|no" "VD $uuid level=5"
	conf_bad "bad name" 1 "name 'vraid3' is not a VD name" "VD $uuid name=vraid3"
	conf_bad "VD listed twice" 3 "VD $uuid is listed already, at line 1" "VD $uuid" "" "VD $uuid auto=no"
	conf_bad "name pinned twice" 2 "name db is pinned already, at line 1" "VD $uuid name=db" "VD 0a0b0c0d-1111-2222-3333-444455556666 name=db"
	conf_bad "AUTO bogus" 1 "AUTO takes +all" "AUTO yes"
	conf_bad "AUTO twice" 2 "AUTO is set already, at line 1" "AUTO -all" "AUTO +all"
	conf_bad "SPARE without UUID" 1 "SPARE takes one hot spare's UUID" "SPARE"
	conf_bad "MAILADDR two addresses" 1 "MAILADDR takes one mail address" "MAILADDR a b"
	conf_bad "PROGRAM relative" 1 "PROGRAM takes the absolute path of one program" "PROGRAM notify.sh"
	check "vraid.conf: --config, no such file" 1 "" "cannot read the configuration $tmp/none.conf: No such file or directory" env MOCK_VRAID=none "$M" --config "$tmp/none.conf" assemble --incremental --run "$d5"
	check "vraid.conf: --config without a file" 2 "" "--config needs a file" "$V" --config
	check "vraid.conf: --config= empty" 2 "" "--config needs a file" "$V" --config= list
	check "vraid.conf: the default file absent is fine" 0 "vraid0: assembled" "" env MOCK_VRAID=none VRAIDCTL_SYSFS="$incsys" "$M" assemble --incremental --run "$d5"
	echo "$uuid" >"$incsys/block/vraid0/vraid/uuid"
	check "mock: assemble --incremental, VD runs" 0 "$d5: a member of VD $uuid, which runs already as vraid0: nothing to do" "" env MOCK_VRAID=three VRAIDCTL_SYSFS="$incsys" "$M" assemble --incremental "$d5"
	check "mock: assemble --incremental --run --uuid, VD runs" 0 "VD $uuid runs already as vraid0: nothing to do" "" env MOCK_VRAID=three VRAIDCTL_SYSFS="$incsys" "$M" assemble --incremental --run --uuid "$uuid"
	incj=$tmp/incj.img
	rm -f "$incj" && truncate -s 64M "$incj" && "$K" "$incj" 0 4 0
	check "assemble --incremental, a journal, no module" 1 "" "vraid module not loaded" env VRAIDCTL_CONTROL="$tmp/no-such-control" "$V" assemble --incremental "$incj"
	# a journal and a wb VD (RAID1 "jdb", 2 members) whose metadata names
	# it, as the scan finds them: $tmp/devdir/NAME stands for /dev/NAME
	ju=8c1d0f3e-5244-4a1b-9e07-6d21c355a019
	vu=22222222-3333-4444-5555-666666666666
	jm0=$tmp/devdir/incm6.img jm1=$tmp/devdir/incm7.img jj=$tmp/devdir/incj8.img
	fresh "$jm0" "$jm1" "$jj"
	"$MK" "$jm0" 0 2 9 jdb "$vu" 1 "$ju"
	"$MK" "$jm1" 1 2 9 jdb "$vu" 1 "$ju"
	"$K" "$jj" 0 4 0
	jsys=$tmp/jsys
	mkdir -p "$jsys/class/block/incm6.img" "$jsys/class/block/incm7.img" "$jsys/block/vraid0/vraid"
	: >"$tmp/log"
	check "mock: assemble --incremental, the journal missing" 0 "VD jdb ($vu): 2 of 2 members present, waiting for its journal $ju (the writes it acknowledged wait there, to replay at assembly): not assembled yet" "" env MOCK_VRAID=none VRAIDCTL_SYSFS="$jsys" "$M" assemble --incremental /dev/incm7.img
	log_empty "mock: assemble --incremental, the journal missing: nothing sent"
	check "mock: assemble --incremental --no-journal, the journal missing" 0 "vraid0: assembled fast, 2 of 2 devices used" "" env MOCK_VRAID=none VRAIDCTL_SYSFS="$jsys" "$M" assemble --incremental --no-journal /dev/incm7.img
	check "mock: assemble --incremental --run, the journal missing" 0 "vraid0: assembled fast" "" env MOCK_VRAID=none VRAIDCTL_SYSFS="$jsys" "$M" assemble --incremental --run --uuid "$vu"
	ju2=99999999-8888-7777-6666-555555555555
	"$MK" "$jm0" 0 2 9 jdb "$vu" 1 "$ju2"
	"$MK" "$jm1" 1 2 9 jdb "$vu" 1 "$ju2"
	: >"$tmp/log"
	check "mock: assemble --incremental, another journal attached" 0 "VD jdb ($vu): 2 of 2 members present, but its writes wait in journal $ju2 and the controller's journal is $ju: not assembled" "" env MOCK_VRAID=none MOCK_JOURNAL=healthy VRAIDCTL_SYSFS="$jsys" "$M" assemble --incremental /dev/incm6.img
	check "mock: assemble --incremental, another journal attached, hint" 0 "" "vraidctl: hint: \`vraidctl controller\` shows the journal attached; detach it (\`vraidctl controller journal none\`) and attach $ju2, or assemble with --no-journal (the writes in $ju2 are lost)" env MOCK_VRAID=none MOCK_JOURNAL=healthy VRAIDCTL_SYSFS="$jsys" "$M" assemble --incremental /dev/incm6.img
	log_empty "mock: assemble --incremental, another journal attached: nothing sent"
	"$MK" "$jm0" 0 2 9 jdb "$vu" 1 "$ju"
	"$MK" "$jm1" 1 2 9 jdb "$vu" 1 "$ju"
	: >"$tmp/log"
	check "mock: assemble --incremental, its journal attached" 0 "vraid0: assembled fast, 2 of 2 devices used" "" env MOCK_VRAID=none MOCK_JOURNAL=healthy VRAIDCTL_SYSFS="$jsys" "$M" assemble --incremental /dev/incm6.img
	expect_log "mock: assemble --incremental, its journal attached: sent" "assemble nr=2 flags=0 devices=7:106,7:107"
	# the journal present too: attached first, then the VD
	mkdir -p "$jsys/class/block/incj8.img"
	: >"$tmp/log"
	check "mock: assemble --incremental member, the journal present" 0 "/dev/incj8.img: journal $ju attached: the metadata of VD jdb (/dev/incm6.img) says it may hold writes of that VD, to replay at assembly" "" env MOCK_VRAID=none VRAIDCTL_SYSFS="$jsys" "$M" assemble --incremental /dev/incm7.img
	out_has "mock: assemble --incremental member, the journal present: assembled" -qF "vraid0: assembled fast, 2 of 2 devices used"
	log_has "mock: assemble --incremental member, the journal present: attach sent" "controller action=2 flags=0 cache=0 dev=7:108"
	expect_log "mock: assemble --incremental member, the journal present: assemble after" "assemble nr=2 flags=0 devices=7:106,7:107"
	# the journal appears last: attached, and the VD assembled
	: >"$tmp/log"
	check "mock: assemble --incremental journal, members present" 0 "/dev/incj8.img: journal $ju attached: the metadata of VD jdb" "" env MOCK_VRAID=none VRAIDCTL_SYSFS="$jsys" "$M" assemble --incremental /dev/incj8.img
	out_has "mock: assemble --incremental journal, members present: assembled" -qF "vraid0: assembled fast, 2 of 2 devices used"
	expect_log "mock: assemble --incremental journal, members present: assemble after" "assemble nr=2 flags=0 devices=7:106,7:107"
	check "mock: assemble --incremental journal, attached already" 0 "/dev/incj8.img: vraid journal $ju, the controller's journal already" "" env MOCK_VRAID=none MOCK_JOURNAL=healthy VRAIDCTL_SYSFS="$jsys" "$M" assemble --incremental /dev/incj8.img
	out_has "mock: assemble --incremental journal, attached already: the VD" -qF "vraid0: assembled fast"
	echo "$vu" >"$jsys/block/vraid0/vraid/uuid"
	: >"$tmp/log"
	check "mock: assemble --incremental journal, the VD runs" 0 "/dev/incj8.img: vraid journal $ju, the controller's journal already" "" env MOCK_VRAID=three MOCK_JOURNAL=healthy VRAIDCTL_SYSFS="$jsys" "$M" assemble --incremental /dev/incj8.img
	out_lacks "mock: assemble --incremental journal, the VD runs: not assembled again" -qF "assembled"
	log_empty "mock: assemble --incremental journal, the VD runs: nothing sent"
	rm -f "$jsys/block/vraid0/vraid/uuid"
	check "mock: assemble --incremental journal --no-journal" 0 "/dev/incj8.img: vraid journal $ju: not attached (--no-journal)" "" env MOCK_VRAID=none VRAIDCTL_SYSFS="$jsys" "$M" assemble --incremental --no-journal /dev/incj8.img
	# the journal first, alone: attached again (it was attached before)
	rmdir "$jsys/class/block/incm6.img" "$jsys/class/block/incm7.img"
	: >"$tmp/log"
	check "mock: assemble --incremental journal first" 0 "/dev/incj8.img: journal $ju attached again: it was attached before the module was unloaded or the machine stopped" "" env MOCK_VRAID=none VRAIDCTL_SYSFS="$jsys" "$M" assemble --incremental /dev/incj8.img
	expect_log "mock: assemble --incremental journal first: attach sent" "controller action=2 flags=0 cache=0 dev=7:108"
	fresh "$jj" && "$K" "$jj" 0 4 0 "$ju2"
	check "mock: assemble --incremental journal, another attached" 0 "/dev/incj8.img: vraid journal $ju2; the controller's journal is $ju: this one is left alone" "" env MOCK_VRAID=none MOCK_JOURNAL=healthy VRAIDCTL_SYSFS="$jsys" "$M" assemble --incremental /dev/incj8.img
	# released by `journal none`: left detached, nothing sent
	fresh "$jj" && "$K" "$jj" 0 4 2
	: >"$tmp/log"
	check "mock: assemble --incremental journal, released" 0 "/dev/incj8.img: vraid journal $ju, released by \`vraidctl controller journal none\`: left detached" "" env MOCK_VRAID=none VRAIDCTL_SYSFS="$jsys" "$M" assemble --incremental /dev/incj8.img
	log_empty "mock: assemble --incremental journal, released: nothing sent"
	fresh "$jj" && "$K" "$jj" 0 4 0 && put "$jj" 4400 'garbage'
	check "assemble --incremental, a damaged journal" 1 "" "assemble --incremental $jj: damaged vraid journal superblock: not attached" env VRAIDCTL_CONTROL="$tmp/no-such-control" "$V" assemble --incremental "$jj"
	rm -rf "$jsys" "$jm0" "$jm1" "$jj"
	check "examine --export, no such device: silent" 1 "" "" "$V" examine --export /dev/xyz-no-such
	[ -s "$tmp/err" ] && say_not_ok "examine --export, no such device: nothing on stderr (got '$(cat "$tmp/err")')" ||
		say_ok "examine --export, no such device: nothing on stderr"
	before=$(sha256sum "$d5" | cut -c1-64)
	check "wipe without --force" 1 "" "vraidctl: wipe $d5: refused without --force: it holds the vraid metadata of the stopped virtual drive \"db\" (UUID $uuid, RAID1, role 1 of 2, 56 MiB); \`vraidctl wipe $d5 --force\` erases it: metadata copy A (byte 4096), metadata copy B (byte 1 MiB) and write-intent bitmap (byte 2 MiB)" env VRAIDCTL_CONTROL="$nope" "$V" wipe "$d5"
	check "wipe without --force, hint" 1 "" "vraidctl: hint: that virtual drive can then no longer be assembled from $d5; to bring it back instead: vraidctl assemble --scan" env VRAIDCTL_CONTROL="$nope" "$V" wipe "$d5"
	check "wipe --dry-run" 1 "wipe --dry-run: nothing is changed" "" env VRAIDCTL_CONTROL="$nope" "$V" wipe "$d5" --dry-run
	out_has "wipe --dry-run, what it holds" -qxF "Holds:          the vraid metadata of the stopped virtual drive \"db\" (UUID $uuid, RAID1, role 1 of 2, 56 MiB)"
	out_has "wipe --dry-run, what it erases" -qxF "Erases:         metadata copy A (byte 4096), metadata copy B (byte 1 MiB) and write-intent bitmap (byte 2 MiB) (zeroed)"
	out_has "wipe --dry-run, refused" -qxF "Result:         refused without --force"
	check "wipe --dry-run --force" 0 "Result:         it would be erased" "" env VRAIDCTL_CONTROL="$nope" "$V" wipe --dry-run --force "$d5"
	after=$(sha256sum "$d5" | cut -c1-64)
	[ "$before" = "$after" ] && say_ok "wipe refused and --dry-run: the device unchanged" || say_not_ok "wipe refused and --dry-run: the device unchanged"
	put "$d5" 9000000 'keep'
	check "wipe --force" 0 "$d5: vraid metadata erased: metadata copy A (byte 4096), metadata copy B (byte 1 MiB) and write-intent bitmap (byte 2 MiB) zeroed" "" env VRAIDCTL_CONTROL="$nope" "$V" wipe "$d5" --force
	check "examine after wipe" 1 "Copy B:          none" "vraidctl: $d5: no valid vraid metadata (and no vraid journal superblock)" "$V" examine "$d5"
	check "examine --export after wipe: nothing" 1 "" "" "$V" examine --export "$d5"
	out_is "examine --export after wipe, no keys" ""
	check "examine --json after wipe" 1 "" "" "$V" examine --json "$d5"
	out_is "examine --json after wipe, no copy" "{\"device\":\"$d5\",\"copies\":[{\"copy\":\"A\",\"offset_bytes\":4096,\"status\":\"none\"},{\"copy\":\"B\",\"offset_bytes\":1048576,\"status\":\"none\"}]}"
	[ "$(dd if="$d5" bs=1 skip=9000000 count=4 2>/dev/null)" = keep ] && say_ok "wipe leaves the rest of the device" || say_not_ok "wipe leaves the rest of the device"
	[ "$(dd if="$d5" bs=4096 skip=1 count=1 2>/dev/null | tr -d '\0' | wc -c)" = 0 ] && say_ok "wipe zeroed copy A" || say_not_ok "wipe zeroed copy A"
	check "wipe again: nothing to erase" 0 "$d5: no vraid metadata: nothing to erase" "" env VRAIDCTL_CONTROL="$nope" "$V" wipe "$d5"
	check "wipe --dry-run, nothing" 0 "Result:         nothing to erase" "" env VRAIDCTL_CONTROL="$nope" "$V" wipe "$d5" --dry-run
	# a journal: both slots; its ring's old copy B goes too
	fresh "$d5"
	"$MK" "$d5" 0 2 5 db
	"$K" "$d5" 0 4 0
	"$K" "$d5" 1 5 0
	check "examine --export, a journal" 0 "ID_FS_TYPE=vraid_journal" "" "$V" examine --export "$d5"
	out_has "examine --export, a journal's UUID" -qxF "VRAID_JOURNAL_UUID=8c1d0f3e-5244-4a1b-9e07-6d21c355a019"
	check "wipe a journal, refused" 1 "" "it holds a vraid controller journal (UUID 8c1d0f3e-5244-4a1b-9e07-6d21c355a019; not detached cleanly: it may hold acknowledged writes still to replay); \`vraidctl wipe $d5 --force\` erases it: journal superblock slot 0 (byte 4096), journal superblock slot 1 (byte 8192) and metadata copy B (byte 1 MiB)" env VRAIDCTL_CONTROL="$nope" "$V" wipe "$d5"
	check "wipe a journal --force" 0 "vraid metadata erased: journal superblock slot 0 (byte 4096), journal superblock slot 1 (byte 8192) and metadata copy B (byte 1 MiB) zeroed" "" env VRAIDCTL_CONTROL="$nope" "$V" wipe "$d5" --force
	check "examine after wiping a journal" 1 "" "no valid vraid metadata (and no vraid journal superblock)" "$V" examine "$d5"
	# damaged metadata; a device with only another format
	fresh "$d5"
	"$MK" "$d5" 0 2 5 db
	put "$d5" 4200 X
	check "examine --json, copy A damaged" 0 '{"copy":"A","offset_bytes":4096,"status":"bad","error":"metadata checksum mismatch (0x' "" env VRAIDCTL_CONTROL="$nope" "$V" examine --json "$d5"
	out_has "examine --json, copy A damaged, copy B taken" -qF '{"copy":"B","offset_bytes":1048576,"status":"valid","generation":5}],"vd_uuid":"11111111-2222-3333-4444-555555555555","name":"db","level":"raid1",'
	out_has "examine --json, copy A damaged, the end" -qF '"job":{"type":"none","paused":false,"done_bytes":0,"rate_kib":0},"last_job":{"type":"none","result":0,"mismatches":0,"outcome":"none","error":null},"volatile_cache":false,"journal":null}'
	check "wipe damaged metadata" 0 "metadata copy A (byte 4096) and metadata copy B (byte 1 MiB) zeroed" "" env VRAIDCTL_CONTROL="$nope" "$V" wipe "$d5" --force
	fresh "$d5"
	put "$d5" 1080 '\123\357'
	check "wipe leaves other formats alone" 0 "$d5: no vraid metadata: nothing to erase" "" env VRAIDCTL_CONTROL="$nope" "$V" wipe "$d5" --force
	[ "$(od -An -tx1 -j1080 -N2 "$d5" | tr -d ' ')" = 53ef ] && say_ok "wipe left the ext2 superblock" || say_not_ok "wipe left the ext2 superblock"
	# a stale member of a running VD may be wiped; a live one may not
	fresh "$tmp/devdir/loop0" "$d3"
	"$MK" "$tmp/devdir/loop0" 0 2 9
	"$MK" "$d3" 1 2 5
	check "wipe a stale member of a running VD" 0 "$d3: vraid metadata erased" "" env MOCK_VRAID=jobs "$M" wipe "$d3" --force
	rm -f "$tmp/devdir/loop0"
	if [ -n "$blk0" ]; then
		check "wipe a running VD's member" 1 "" "vraidctl: wipe $blk0: $blk0 is in use: a member of the running virtual drive /dev/vraid0, role 0" env MOCK_VRAID=jobs "$M" wipe "$blk0" --force
		check "wipe a running VD's member, hint" 1 "" "vraidctl: hint: stop or delete vraid0 first" env MOCK_VRAID=jobs "$M" wipe "$blk0" --force
		check "wipe --dry-run, a running VD's member" 1 "Result:         refused: it is in use: a member of the running virtual drive /dev/vraid0, role 0" "" env MOCK_VRAID=jobs "$M" wipe "$blk0" --dry-run
		check "wipe the attached journal" 1 "" "wipe $blk0: $blk0 is in use: it is the controller's journal (healthy)" env MOCK_VRAID=none MOCK_JOURNAL=healthy "$M" wipe "$blk0" --force
	fi
	fresh "$d5"
	"$MK" "$d5" 0 2 5 db
	before=$(sha256sum "$d5" | cut -c1-64)
	check "wipe a device held by another" 1 "" "wipe $d5: $d5 is in use: another opener holds it exclusively" env MOCK_VRAID=none MOCK_EXCL_BUSY="$d5" "$M" wipe "$d5" --force
	check "wipe a hot spare" 1 "" "is in use: a global hot spare" env MOCK_VRAID=three "$M" wipe "$D/d10.img" --force
	[ "$before" = "$(sha256sum "$d5" | cut -c1-64)" ] && say_ok "wipe refused: the device unchanged" || say_not_ok "wipe refused: the device unchanged"
	# replace and spare add --dry-run: what NEW holds, nothing sent
	d6=$D/d6.img
	rm -f "$d6" && truncate -s 512M "$d6"
	put "$d6" 1080 '\123\357'
	fresh "$d4"
	if [ -n "$blk0" ]; then
		: >"$tmp/log"
		check "replace --dry-run" 0 "replace --dry-run: nothing is changed" "" env MOCK_VRAID=jobs "$M" replace vraid0 "$blk0" "$d6" --dry-run
		out_has "replace --dry-run, the VD" -qxF "Virtual drive:  /dev/vraid0: RAID1, 384 MiB, Rebuilding"
		out_has "replace --dry-run, OLD" -qF "Old member:     role 0, $blk0 (Online): failed first and released, the VD runs without it until the rebuild is done (refused if that takes the VD offline, unless --force); its vraid metadata stays on it"
		out_has "replace --dry-run, NEW" -qxF "New member:     $d6, 512 MiB: takes role 0 and is rebuilt; it holds an ext2 file system: lost"
		out_has "replace --dry-run, result" -qxF "Result:         it would be rebuilt onto $d6"
		check "replace --dry-run, NEW too small" 1 "Result:         refused: $d4 is too small: it needs 411041792 bytes (the data offset and 384 MiB of data)" "" env MOCK_VRAID=jobs "$M" replace vraid0 "$blk0" "$d4" --dry-run
		out_has "replace --dry-run, an empty NEW" -qF "no known signature on it (its contents are overwritten all the same)"
		check "replace --dry-run, NEW in use" 1 "Result:         refused: $d6 is in use: another opener holds it exclusively" "" env MOCK_VRAID=jobs MOCK_EXCL_BUSY="$d6" "$M" replace vraid0 "$blk0" "$d6" --dry-run
		check "replace --dry-run, OLD not a member" 1 "" "is not a member of vraid0" env MOCK_VRAID=jobs "$M" replace vraid0 "$blk2" "$d6" --dry-run
		log_empty "replace --dry-run: nothing sent"
	fi
	check "replace -h --dry-run" 0 "--dry-run  show the VD, OLD, and NEW with what it holds" "" "$V" replace -h
	: >"$tmp/log"
	check "spare add --dry-run" 0 "spare add --dry-run: nothing is changed" "" env MOCK_VRAID=none "$M" spare add "$d6" --dry-run
	out_has "spare add --dry-run, what it holds" -qxF "Holds:          an ext2 file system"
	out_has "spare add --dry-run, global" -qxF "Becomes:        a global hot spare (for any virtual drive): a rebuild that takes it overwrites what it holds"
	out_has "spare add --dry-run, result" -qxF "Result:         it would be added"
	check "spare add --dry-run --vd" 0 "Becomes:        a hot spare dedicated to vraid1: a rebuild that takes it overwrites what it holds" "" env MOCK_VRAID=jobs "$M" spare add --dry-run "$d4" --vd 1
	check "spare add --dry-run, a spare already" 1 "Result:         refused: it is in use: a global hot spare" "" env MOCK_VRAID=three "$M" spare add "$D/d10.img" --dry-run
	log_empty "spare add --dry-run: nothing sent"
	check "spare remove --dry-run" 2 "" "--dry-run is only for spare add" "$V" spare remove "$d4" --dry-run
	check "spare -h --dry-run" 0 "(add) show DEV, what it holds" "" "$V" spare -h
	unset MOCK_IMG_BLK MOCK_DEVDIR
}

run_tests() {
	V="$tmp/$variant/vraidctl"
	M="$tmp/$variant/vraidctl-mock"
	R="$tmp/$variant/vraid-raw"
	nope="$tmp/no-such-control"

	# help, version, command errors
	check "help" 0 "usage: vraidctl [--config FILE] COMMAND" "" "$V" help
	check "--help" 0 "vraidctl create --level jbod|0|1|5|6|10|50|60" "" "$V" --help
	check "-h" 0 "vraidctl list [--json]" "" "$V" -h
	check "help create" 0 "--strip SIZE" "" "$V" help create
	check "create -h" 0 "--spans N" "" "$V" create -h
	check "list --help" 0 "usage: vraidctl list" "" "$V" list --help
	check "show -h" 0 "usage: vraidctl show VD" "" "$V" show -h
	check "delete -h" 0 "usage: vraidctl delete VD" "" "$V" delete -h
	check "version -h" 0 "usage: vraidctl version" "" "$V" version -h
	check "help help" 0 "usage: vraidctl help" "" "$V" help help
	check "help nosuch" 2 "" "vraidctl: unknown command 'nosuch'" "$V" help nosuch
	err_lacks "help nosuch: no guess at a word unlike any command" "did you mean"
	check "help creat: a suggestion" 2 "" "vraidctl: unknown command 'creat'; did you mean 'create'?" "$V" help creat
	check "help exmaine: swapped letters" 2 "" "vraidctl: unknown command 'exmaine'; did you mean 'examine'?" "$V" help exmaine
	check "help contr: a command it begins" 2 "" "vraidctl: unknown command 'contr'; did you mean 'controller'?" "$V" help contr

	check "help shop: two as close" 2 "" "vraidctl: unknown command 'shop'; did you mean 'stop' or 'show'?" "$V" help shop
	check "unknown command creat: a suggestion" 2 "" "vraidctl: unknown command 'creat'; did you mean 'create'?" "$V" creat /dev/sdb
	check "no arguments" 2 "" "usage: vraidctl [--config FILE] COMMAND" "$V"
	check "unknown command" 2 "" "vraidctl: unknown command 'frobnicate'" "$V" frobnicate
	check "--version" 0 "vraidctl 0.1.0 (ABI $abi)" "" env VRAIDCTL_CONTROL="$nope" "$V" --version
	check "version, no module" 0 "module ABI: unknown" "" env VRAIDCTL_CONTROL="$nope" "$V" version
	check "version, /dev/null" 0 "not the vraid control device" "" env VRAIDCTL_CONTROL=/dev/null "$V" version
	check "version extra arg" 2 "" "unexpected argument" "$V" version x

	# create: options
	check "create without --level" 2 "" "vraidctl: --level is required" "$V" create "$blk0"
	check "create bad level" 2 "" "unknown RAID level '7'" "$V" create --level 7 "$blk0"
	check "create bad level word" 2 "" "unknown RAID level 'raid9'" "$V" create --level raid9 "$blk0"
	check "create --level without value" 2 "" "--level needs a value" "$V" create --level
	check "create --level twice" 2 "" "--level given twice" "$V" create --level 0 --level=1 "$blk0"
	check "create unknown option" 2 "" "unknown option '--bogus'" "$V" create --level 0 --bogus "$blk0"
	check "create strip 3K" 2 "" "strip size '3K' (3072 bytes) is too small" "$V" create --level 0 --strip 3K "$blk0" "$blk1"
	check "create strip 3K hint" 2 "" "power of two from 4K to 1M" "$V" create --level 0 --strip 3K "$blk0" "$blk1"
	check "create strip 2M" 2 "" "strip size '2M' (2097152 bytes) is too large: the maximum is 1 MiB" "$V" create --level 0 --strip 2M "$blk0" "$blk1"
	check "create strip 0" 2 "" "strip size '0' (0 bytes) is too small" "$V" create --level 0 --strip 0 "$blk0" "$blk1"
	check "create strip 64KB: decimal unit refused" 2 "" "vraidctl: '64KB': vraidctl sizes are binary: write 64K or 64KiB" "$V" create --level 0 --strip 64KB "$blk0" "$blk1"
	check "create strip 1mb: decimal unit refused" 2 "" "vraidctl: '1mb': vraidctl sizes are binary: write 1M or 1MiB" "$V" create --level 0 --strip 1mb "$blk0" "$blk1"
	check "job rate 50MB: decimal unit refused" 2 "" "vraidctl: '50MB': vraidctl sizes are binary: write 50M or 50MiB" "$V" job vraid0 rate 50MB
	check "job rate 200KB: decimal unit refused" 2 "" "vraidctl: '200KB': vraidctl sizes are binary: write 200K or 200KiB" "$V" job vraid0 rate 200KB
	check "controller set cache-size=1GB: decimal unit refused" 2 "" "vraidctl: '1GB': vraidctl sizes are binary: write 1G or 1GiB" "$V" controller set cache-size=1GB
	check "controller set cache-size=1TB: decimal unit refused" 2 "" "vraidctl: '1TB': vraidctl sizes are binary: write 1T or 1TiB" "$V" controller set cache-size=1TB
	check "create strip 48K" 2 "" "is not a power of two" "$V" create --level 0 --strip 48K "$blk0" "$blk1"
	check "create strip 5000" 2 "" "is not a power of two" "$V" create --level 0 --strip 5000 "$blk0" "$blk1"
	check "create strip 64X" 2 "" "invalid strip size '64X'" "$V" create --level 0 --strip 64X "$blk0" "$blk1"
	check "create strip empty" 2 "" "invalid strip size ''" "$V" create --level 0 --strip= "$blk0" "$blk1"
	check "create strip -64K" 2 "" "invalid strip size '-64K'" "$V" create --level 0 --strip -64K "$blk0" "$blk1"
	check "create strip overflow" 2 "" "invalid strip size" "$V" create --level 0 --strip 99999999999999999999999K "$blk0" "$blk1"
	check "create strip huge" 2 "" "too large" "$V" create --level 0 --strip 1024G "$blk0" "$blk1"
	check "create jbod --strip" 2 "" "--strip has no meaning for --level jbod" "$V" create --level jbod --strip 64K "$blk0"
	check "create --spans on raid0" 2 "" "--spans applies to --level 50 and 60 only" "$V" create --level 0 --spans 2 "$blk0" "$blk1"
	check "create --spans 0" 2 "" "invalid span count '0'" "$V" create --level 50 --spans 0 "$blk0" "$blk1"
	check "create --spans uneven" 2 "" "3 members cannot be split evenly into 2 spans" "$V" create --level 50 --spans 2 "$blk0" "$blk1" "$blk2"
	check "create name too long" 2 "" "is too long: at most 31 characters" "$V" create --level 0 --name aaaaaaaaaabbbbbbbbbbccccccccccdd "$blk0" "$blk1"
	check "create name with space" 2 "" "has a character other than" "$V" create --level 0 --name "a b" "$blk0" "$blk1"
	check "create name with quote" 2 "" "has a character other than" "$V" create --level 0 --name 'a"b' "$blk0" "$blk1"
	check "create name like a VD" 2 "" "looks like a virtual drive number" "$V" create --level 0 --name vraid3 "$blk0" "$blk1"
	check "create name all digits" 2 "" "looks like a virtual drive number" "$V" create --level 0 --name 12 "$blk0" "$blk1"
	check "create name starting with -" 2 "" "must start with" "$V" create --level 0 --name=-x "$blk0" "$blk1"
	check "create empty name" 2 "" "empty --name" "$V" create --level 0 --name= "$blk0" "$blk1"

	# create: members
	check "create without DEV" 2 "" "name at least one member device" "$V" create --level 0
	check "create missing path" 1 "" "vraidctl: /dev/xyz-no-such: no such file: name an existing block device (see lsblk)" "$V" create --level 0 /dev/xyz-no-such "$blk0"
	check "create path under a file" 1 "" "no such file" "$V" create --level 0 /etc/passwd/x
	check "create regular file" 1 "" "vraidctl: /etc/passwd is a regular file, not a block device" "$V" create --level 0 /etc/passwd
	check "create regular file hint" 1 "" "losetup --find --show /etc/passwd" "$V" create --level 0 /etc/passwd
	check "create directory" 1 "" "/tmp is a directory, not a block device" "$V" create --level 0 /tmp
	check "create char device" 1 "" "/dev/null is a character device, not a block device" "$V" create --level 0 /dev/null
	# shellcheck disable=SC2086 # $many is 33 words
	check "create 33 members" 2 "" "33 member devices given: at most 32" "$V" create --level 0 $many
	check "create -- DEV" 1 "" "-odd: no such file" "$V" create --level 0 -- -odd
	if [ -n "$blk0" ]; then
		check "create same device twice" 1 "" "are the same device (7:0)" "$V" create --level 0 "$blk0" "$tmp/blk0-link"
	else
		say_skip "create same device twice" "no block device node"
	fi

	# the control device
	check "list, no module" 1 "" "vraidctl: $nope: no such file: vraid module not loaded (insmod vraid.ko / modprobe vraid)" env VRAIDCTL_CONTROL="$nope" "$V" list
	check "list, no module, env hint" 1 "" "VRAIDCTL_CONTROL is set" env VRAIDCTL_CONTROL="$nope" "$V" list
	check "show, no module" 1 "" "vraid module not loaded" env VRAIDCTL_CONTROL="$nope" "$V" show vraid0
	check "delete, no module" 1 "" "vraid module not loaded" env VRAIDCTL_CONTROL="$nope" "$V" delete vraid0
	if [ -n "$blk0" ]; then
		for s in 64K 64k 64KiB 1M 1MiB 65536 4096; do
			check "create --strip $s parses" 1 "" "vraid module not loaded" env VRAIDCTL_CONTROL="$nope" "$V" create --level 0 --strip "$s" "$blk0" "$blk1"
		done
		check "create --level 5 goes to the kernel" 1 "" "vraid module not loaded" env VRAIDCTL_CONTROL="$nope" "$V" create --level 5 "$blk0" "$blk1" "$blk2"
		check "create, /dev/null" 1 "" "vraidctl: create: /dev/null does not answer vraid requests (ENOTTY" env VRAIDCTL_CONTROL=/dev/null "$V" create --level 0 "$blk0" "$blk1"
	else
		say_skip "create parses valid input" "no block device node"
	fi
	check "list, /dev/null" 1 "" "/dev/null does not answer vraid requests (ENOTTY: Inappropriate ioctl for device)" env VRAIDCTL_CONTROL=/dev/null "$V" list
	check "list, /dev/null hint" 1 "" "it is not the vraid control device: unset VRAIDCTL_CONTROL" env VRAIDCTL_CONTROL=/dev/null "$V" list
	check "list --json, /dev/null: no stdout" 1 "" "ENOTTY" env VRAIDCTL_CONTROL=/dev/null "$V" list --json
	out_lacks "list --json prints nothing on error" -q .
	check "show, /dev/null" 1 "" "vraid0: /dev/null does not answer" env VRAIDCTL_CONTROL=/dev/null "$V" show vraid0
	check "show by name, /dev/null" 1 "" "list: /dev/null does not answer" env VRAIDCTL_CONTROL=/dev/null "$V" show scratch
	check "delete, /dev/null" 1 "" "delete vraid0: /dev/null does not answer" env VRAIDCTL_CONTROL=/dev/null "$V" delete 0
	: >"$tmp/regular"
	check "list, regular file" 1 "" "does not answer vraid requests" env VRAIDCTL_CONTROL="$tmp/regular" "$V" list
	check "list, directory" 1 "" "cannot open $tmp" env VRAIDCTL_CONTROL="$tmp" "$V" list
	check "show, not a vraid path" 1 "" "/etc/passwd is not a vraid virtual drive" env VRAIDCTL_CONTROL=/dev/null "$V" show /etc/passwd
	check "show, partition path" 1 "" "/dev/vraid0p1 is not a vraid virtual drive" env VRAIDCTL_CONTROL=/dev/null "$V" show /dev/vraid0p1
	check "show, no VD" 2 "" "name the virtual drive to show" "$V" show
	check "show, two VDs" 2 "" "name one virtual drive only" "$V" show a b
	check "delete, no VD" 2 "" "name the virtual drive to delete" "$V" delete
	check "list extra arg" 2 "" "unexpected argument 'x'" "$V" list x
	check "list bad option" 2 "" "unknown option '--jsn'" "$V" list --jsn

	# ABI 1.3: init, jobs, spares, replace -- the command line alone
	check "help lists the new commands" 0 "vraidctl job VD pause|resume|stop|rate RATE" "" "$V" help
	check "help check" 0 "usage: vraidctl check VD [--repair] [--wait]" "" "$V" help check
	check "init -h" 0 "usage: vraidctl init VD [--wait]" "" "$V" init -h
	check "job -h" 0 "at least 1K, at most 16G" "" "$V" job -h
	check "wait -h" 0 "--timeout SECONDS" "" "$V" wait -h
	check "spare -h" 0 "vraidctl spare add DEV [--vd VD] [--dry-run] | spare remove DEV | spare list [--json]" "" "$V" spare -h
	check "replace -h" 0 "usage: vraidctl replace VD OLD NEW [--force]" "" "$V" replace -h
	check "create -h --init" 0 "--init MODE" "" "$V" create -h
	check "create --init on raid0" 2 "" "--init has no meaning for --level raid0: it has no redundancy to initialise; leave it out" "$V" create --level 0 --init background /dev/x /dev/y
	check "create --init fast on raid0" 2 "" "--init has no meaning for --level raid0" "$V" create --level 0 --init fast /dev/x /dev/y
	check "create --init on jbod" 2 "" "--init has no meaning for --level jbod" "$V" create --level jbod --init full /dev/x
	check "create --init bogus" 2 "" "unknown --init 'bogus' (choose fast, background or full)" "$V" create --level 5 --init bogus /dev/x /dev/y /dev/z
	check "create --init without value" 2 "" "--init needs a value" "$V" create --level 5 --init
	check "create --init twice" 2 "" "--init given twice" "$V" create --level 5 --init fast --init=full /dev/x
	check "check, no VD" 2 "" "name the virtual drive to check (e.g. vraid0)" "$V" check
	check "check, two VDs" 2 "" "name one virtual drive only" "$V" check a b
	check "check bad option" 2 "" "unknown option '--bogus'" "$V" check --bogus vraid0
	check "init --repair" 2 "" "unknown option '--repair'" "$V" init --repair vraid0
	check "init, no VD" 2 "" "name the virtual drive to initialise" "$V" init --wait
	check "job, nothing" 2 "" "name the virtual drive and the action" "$V" job
	check "job, no action" 2 "" "name the action: pause, resume, stop or rate RATE" "$V" job vraid0
	check "job unknown action" 2 "" "unknown job action 'frob' (choose pause, resume, stop or rate)" "$V" job vraid0 frob
	check "job unknown action usage" 2 "" "usage: vraidctl job VD" "$V" job vraid0 frob
	check "job pause extra" 2 "" "unexpected argument 'now'" "$V" job vraid0 pause now
	check "job rate, no value" 2 "" "rate needs a value" "$V" job vraid0 rate
	check "job rate, two values" 2 "" "too many arguments" "$V" job vraid0 rate 1M 2M
	check "job rate 12Q" 2 "" "invalid rate '12Q': give a whole number of bytes per second" "$V" job vraid0 rate 12Q
	check "job rate 0.5K" 2 "" "invalid rate '0.5K'" "$V" job vraid0 rate 0.5K
	check "job rate -1M" 2 "" "invalid rate '-1M'" "$V" job vraid0 rate -- -1M
	check "job rate 512" 2 "" "rate '512' is too small: the minimum is 1K (1 KiB/s)" "$V" job vraid0 rate 512
	check "job rate 17G" 2 "" "rate '17G' is too large: the maximum is 16G (16777216 KiB/s)" "$V" job vraid0 rate 17G
	check "job rate huge" 2 "" "invalid rate" "$V" job vraid0 rate 99999999999999999999G
	check "wait, no VD" 2 "" "name the virtual drive to wait for" "$V" wait

	# ABI 1.4: policies at create, set -- the command line alone
	check "help lists set" 0 "vraidctl set VD KEY=VALUE..." "" "$V" help
	check "help set" 0 "usage: vraidctl set VD KEY=VALUE..." "" "$V" help set
	check "set -h" 0 "write-policy=wt|wb|awb" "" "$V" set -h
	out_has "set -h example" -qF "vraidctl set vraid0 access=ro"
	out_has "set -h says awb is taken" -qF "awb is taken: writes go into the controller cache"
	out_has "set -h says the cache is volatile" -qF "the cache is volatile, so a power loss loses"
	out_lacks "set -h no longer refuses awb" -qF "awb needs the part of the controller cache"
	out_has "set -h says ra is taken" -qF "ra is taken: sequential reads"
	out_lacks "set -h no longer refuses ra" -qF "awb and ra need"
	out_has "set -h says wb writes through without a journal" -qF "a controller's write-back with a bad battery, it writes through while"
	out_has "set -h says wb logs to the journal" -qF "complete once they are in the journal and reach the members later"
	out_lacks "set -h no longer says the journal cannot be attached" -qF "cannot"
	check "create -h policies" 0 "--write-policy wt|wb|awb" "" "$V" create -h
	out_has "create -h --disk-cache" -qF "--disk-cache default|on|off"
	out_has "create -h says what awb does" -qF "awb completes writes once they are in the controller cache, which is"
	out_has "create -h says older modules refuse awb" -qF "a module before ABI 1.8 refuses it"
	out_lacks "create -h no longer refuses awb" -qF "awb needs the part of the controller cache"
	out_has "create -h says what ra does" -qF "ra reads ahead of sequential reads into it (stats: read-ahead)"
	out_has "create synopsis has the policies" -qF "[--access rw|ro|blocked] [--disk-cache on|off|default] [--read-policy ra|nora] [--write-policy wt|wb|awb] [--io-policy direct|cached] [--force] [--dry-run] DEV..."
	check "set, nothing" 2 "" "name the virtual drive and the policies to set (e.g. vraid0 access=ro)" "$V" set
	check "set, nothing, usage" 2 "" "usage: vraidctl set VD KEY=VALUE..." "$V" set
	check "set, no KEY=VALUE" 2 "" "name at least one policy to set as KEY=VALUE" "$V" set vraid0
	check "set, KEY=VALUE first" 2 "" "name the virtual drive first, then KEY=VALUE (e.g. vraidctl set vraid0 access=ro)" "$V" set access=ro vraid0
	check "set, two VDs" 2 "" "'vraid1' is not KEY=VALUE (e.g. access=ro); name one virtual drive only" "$V" set vraid0 vraid1 access=ro
	check "set unknown key" 2 "" "unknown policy 'cache' (choose access, disk-cache, read-policy, write-policy or io-policy)" "$V" set vraid0 cache=on
	check "set unknown key, usage" 2 "" "usage: vraidctl set VD KEY=VALUE..." "$V" set vraid0 cache=on
	check "set empty key" 2 "" "unknown policy ''" "$V" set vraid0 =ro
	check "set key with wrong case" 2 "" "unknown policy 'Access'" "$V" set vraid0 Access=ro
	check "set option-style key" 2 "" "unknown policy '--access'" "$V" set vraid0 -- --access=ro
	# KEY:A GOOD VALUE:THE CHOICES
	for kv in "access:ro:rw, ro or blocked" "disk-cache:off:on, off or default" \
		  "read-policy:nora:ra or nora" "write-policy:wt:wt, wb or awb" \
		  "io-policy:direct:direct or cached"; do
		k=${kv%%:*} good=${kv#*:} choices=${kv#*:*:}
		good=${good%%:*}
		check "set bad $k" 2 "" "unknown $k 'bogus' (choose $choices)" "$V" set vraid0 "$k=bogus"
		check "set empty $k" 2 "" "unknown $k '' (choose $choices)" "$V" set vraid0 "$k="
		check "set $k twice" 2 "" "$k given twice" "$V" set vraid0 "$k=$good" "$k=$good"
		check "set $k twice, second bad" 2 "" "$k given twice" "$V" set vraid0 "$k=$good" "$k=bogus"
		check "create bad --$k" 2 "" "unknown --$k 'bogus' (choose $choices)" "$V" create --level 1 "--$k" bogus /dev/x /dev/y
		check "create --$k twice" 2 "" "--$k given twice" "$V" create --level 1 "--$k=x" "--$k" y /dev/x /dev/y
		check "create --$k without value" 2 "" "--$k needs a value" "$V" create --level 1 "--$k"
	done
	check "set wrong value for the key" 2 "" "unknown access 'off' (choose rw, ro or blocked)" "$V" set vraid0 access=off
	check "set access twice, apart" 2 "" "access given twice" "$V" set vraid0 access=ro disk-cache=off access=ro
	check "set eleven keys" 2 "" "access given twice" "$V" set vraid0 access=ro access=ro access=ro access=ro access=ro access=ro access=ro access=ro access=ro access=ro access=ro
	check "set bad option" 2 "" "unknown option '--bogus'" "$V" set vraid0 --bogus access=ro
	check "set --json" 2 "" "unknown option '--json'" "$V" set vraid0 access=ro --json
	check "set, no module" 1 "" "vraid module not loaded" env VRAIDCTL_CONTROL="$nope" "$V" set vraid0 access=ro
	check "set, /dev/null" 1 "" "vraid0: /dev/null does not answer vraid requests" env VRAIDCTL_CONTROL=/dev/null "$V" set vraid0 write-policy=wt

	# the controller (ABI 1.7) -- the command line alone
	ctlsyn="vraidctl controller [show] [--json] | controller set cache-size=SIZE|default | controller journal DEV [--force] [--dry-run]|none|discard"
	sizehint="vraidctl: hint: give a whole number of MiB from 16M up to half the RAM (at most 1T), e.g. cache-size=256M or cache-size=2G, or cache-size=default"
	check "help lists controller" 0 "  $ctlsyn" "" "$V" help
	check "help controller" 0 "usage: $ctlsyn" "" "$V" help controller
	check "controller -h" 0 "set cache-size=SIZE|default" "" "$V" controller -h
	out_has "controller -h says awb shares the cache" -qF "write-back (write-policy=awb, and wb with a journal)"
	out_has "controller -h journal none" -qF "journal none  detach the journal: write-back VDs write their dirty"
	out_has "controller -h journal discard" -qF "drop the writes the journal holds for VDs not assembled"
	out_has "controller -h says DEV is overwritten" -qF "OTHER DEV IS FORMATTED: WHAT IT HOLDS IS OVERWRITTEN"
	out_has "controller -h says what is refused" -qF "is refused without --force; ANY"
	out_has "controller -h --force" -qF "format DEV whatever it holds, a vraid"
	out_has "controller -h --dry-run" -qF "--dry-run     (journal DEV) show what DEV holds"
	out_has "controller -h says 64 MiB" -qF "64 MiB, outside every virtual drive"
	out_has "controller -h says the order after a crash" -qF "journal, then assemble (vraidctl controller journal DEV; vraidctl"
	out_lacks "controller -h no longer says not available" -qF "not available"
	out_has "controller -h --json journal keys" -qF '"uuid":"...","head_seq":N,"tail_seq":N,"pending":N,'
	out_has "controller -h says how to keep a size" -qF "options vraid cache_mib=N"
	out_has "controller -h says shrinking drops cached data" -qF "Shrinking"
	out_has "controller -h --json keys" -qF '"dirty_high_bytes":N,"vds":N,"journal":{"state":"none"|'
	check "help assemble" 0 "usage: vraidctl assemble [--no-journal] [--force] --scan | DEV..." "" "$V" help assemble
	out_has "assemble -h --force" -qF "--force       assemble a parity VD not shut down cleanly while degraded,"
	out_has "assemble -h --no-journal" -qF "--no-journal  assemble even though the journal holding writes of the"
	out_has "assemble -h says the writes are lost" -qF "writes are LOST"
	out_has "assemble -h says what to run after a crash" -qF "vraidctl assemble --scan (it finds and attaches the journal), or with"
	out_has "assemble -h says the order with named devices" -qF "named devices: vraidctl controller journal DEV, then vraidctl assemble"
	check "create -h says what wb does" 0 "controller's journal (\`vraidctl controller journal DEV\`), which keeps" "" "$V" help create
	out_lacks "create -h no longer says wb waits for a journal" -qF "until there is"
	check "controller --help" 0 "usage: vraidctl controller" "" "$V" controller --help
	check "controller set -h" 0 "usage: vraidctl controller" "" "$V" controller set -h
	check "controller unknown action" 2 "" "unknown controller action 'frob' (choose show, set or journal)" "$V" controller frob
	check "controller unknown action, usage" 2 "" "usage: $ctlsyn" "$V" controller frob
	check "controller show extra" 2 "" "unexpected argument 'x'" "$V" controller show x
	check "controller bad option" 2 "" "unknown option '--bogus'" "$V" controller --bogus
	check "controller set, nothing" 2 "" "name what to set: cache-size=SIZE (e.g. cache-size=256M) or cache-size=default" "$V" controller set
	check "controller set, missing =" 2 "" "cache-size needs a value: cache-size=SIZE (e.g. cache-size=256M) or cache-size=default" "$V" controller set cache-size
	check "controller set, missing =, usage" 2 "" "usage: $ctlsyn" "$V" controller set cache-size 256M
	check "controller set unknown key" 2 "" "unknown controller setting 'size' (the one setting is cache-size)" "$V" controller set size=1G
	check "controller set empty key" 2 "" "unknown controller setting ''" "$V" controller set =1G
	check "controller set key with wrong case" 2 "" "unknown controller setting 'Cache-Size'" "$V" controller set Cache-Size=1G
	check "controller set twice" 2 "" "cache-size given twice" "$V" controller set cache-size=64M cache-size=128M
	check "controller set twice, second bad" 2 "" "cache-size given twice" "$V" controller set cache-size=64M cache-size=x
	# SIZE:WHAT IS SAID OF IT
	for s in "0:cache size '0' is zero: give cache-size=default for the module's default size" \
		 "0M:cache size '0M' is zero" \
		 "15M:cache size '15M' (15 MiB) is too small: the minimum is 16 MiB" \
		 "1M:cache size '1M' (1 MiB) is too small" \
		 "1.5M:invalid cache size '1.5M': give a whole number with a K, M, G or T suffix (binary units), or default" \
		 "x:invalid cache size 'x'" \
		 ":invalid cache size ''" \
		 "-1M:invalid cache size '-1M'" \
		 "64X:invalid cache size '64X'" \
		 "99999999999999999999G:invalid cache size '99999999999999999999G'" \
		 "1536K:cache size '1536K' (1572864 bytes) is not a whole number of MiB" \
		 "16777217:cache size '16777217' (16777217 bytes) is not a whole number of MiB" \
		 "2T:cache size '2T' (2097152 MiB) is too large: the maximum is 1 TiB, and half the RAM" \
		 "defaults:invalid cache size 'defaults'"; do
		check "controller set cache-size=${s%%:*}" 2 "" "vraidctl: ${s#*:}" "$V" controller set "cache-size=${s%%:*}"
		out_lacks "controller set cache-size=${s%%:*} prints nothing" -q .
	done
	check "controller set bad size hint" 2 "" "$sizehint" "$V" controller set cache-size=15M
	check "controller journal, no DEV" 2 "" "name the journal device (e.g. /dev/nvme2n1), none to detach the journal, or discard to drop the writes it holds for VDs not assembled yet" "$V" controller journal
	check "controller journal, two DEVs" 2 "" "name one journal device only" "$V" controller journal /dev/x /dev/y
	check "controller journal none --json goes to the kernel" 1 "" "vraid module not loaded" env VRAIDCTL_CONTROL="$nope" "$V" controller journal none --json
	check "controller journal discard, no module" 1 "" "vraid module not loaded" env VRAIDCTL_CONTROL="$nope" "$V" controller journal discard
	check "controller journal, three words" 2 "" "name one journal device only" "$V" controller journal none discard
	check "controller journal --force, no DEV" 2 "" "name the journal device (e.g. /dev/nvme2n1), none to detach the journal, or discard" "$V" controller journal --force
	check "controller journal none --force" 2 "" "--force is only for controller journal DEV (format DEV whatever it holds, a vraid journal included) and controller journal discard" "$V" controller journal none --force
	check "controller journal discard --force, no module" 1 "" "vraid module not loaded" env VRAIDCTL_CONTROL="$nope" "$V" controller journal --force discard
	check "controller journal discard --dry-run" 2 "" "--dry-run is only for controller journal DEV" "$V" controller journal discard --dry-run
	check "controller show --force" 2 "" "--force is only for controller journal DEV" "$V" controller --force
	check "controller set --force" 2 "" "--force is only for controller journal DEV" "$V" controller set cache-size=64M --force
	check "controller journal --force twice" 1 "" "/dev/xyz-no-such: no such file" "$V" controller journal --force /dev/xyz-no-such --force
	check "controller journal --forced" 2 "" "unknown option '--forced'" "$V" controller journal /dev/x --forced
	check "controller journal, directory" 1 "" "/tmp is a directory, not a block device" "$V" controller journal /tmp
	check "controller journal, regular file hint" 1 "" "losetup --find --show /etc/passwd" "$V" controller journal /etc/passwd
	check "controller journal -- --force" 1 "" "--force: no such file" "$V" controller journal -- --force
	check "assemble --no-journal, nothing" 2 "" "give either --scan or the member devices of one VD" "$V" assemble --no-journal
	check "assemble --no-journal, nothing, no warning" 2 "" "" "$V" assemble --no-journal
	err_lacks "assemble usage error before the warning" "warning"
	check "assemble --no-journal --scan, no module" 1 "" "vraidctl: warning: --no-journal: a VD whose acknowledged writes are in a journal that is not attached is assembled without them: those writes are lost" env VRAIDCTL_CONTROL="$nope" "$V" assemble --no-journal --scan
	check "assemble --scan --no-journal, no module" 1 "" "vraid module not loaded" env VRAIDCTL_CONTROL="$nope" "$V" assemble --scan --no-journal
	check "assemble --no-journal=1" 2 "" "unknown option '--no-journal=1'" "$V" assemble --scan --no-journal=1
	# assemble --incremental: the argument errors, before anything is read
	check "assemble --incremental, no DEV" 2 "" "--incremental takes one member device (the one that appeared), or --uuid UUID; name it, e.g. vraidctl assemble --incremental /dev/nvme0n1" "$V" assemble --incremental
	check "assemble --incremental, two DEVs" 2 "" "--incremental takes one member device (the one that appeared), or --uuid UUID; for several devices of one VD leave --incremental out" "$V" assemble --incremental /dev/sda /dev/sdb
	check "assemble --incremental --scan" 2 "" "--incremental and --scan: choose one" "$V" assemble --incremental --scan
	check "assemble --run without --incremental" 2 "" "--run goes with --incremental (e.g. vraidctl assemble --incremental --run --uuid UUID)" "$V" assemble --run /dev/sda
	check "assemble --uuid without --incremental" 2 "" "--uuid goes with --incremental" "$V" assemble --uuid 11111111-2222-3333-4444-555555555555
	check "assemble --incremental DEV --uuid" 2 "" "--incremental: give either the member device DEV or --uuid UUID, not both" "$V" assemble --incremental --uuid 11111111-2222-3333-4444-555555555555 /dev/sda
	check "assemble --incremental --uuid, bad" 2 "" "--uuid 'xyz': not a VD UUID (32 hex digits" "$V" assemble --incremental --uuid xyz
	check "assemble --incremental --uuid, short" 2 "" "--uuid '1111': not a VD UUID" "$V" assemble --incremental --uuid=1111
	check "assemble --incremental --uuid, no value" 2 "" "--uuid needs the VD's UUID" "$V" assemble --incremental --uuid
	check "assemble --incremental, missing DEV" 1 "" "vraidctl: assemble --incremental /dev/xyz-no-such: no such device" "$V" assemble --incremental /dev/xyz-no-such
	check "assemble --incremental, not a member" 1 "" "vraidctl: assemble --incremental /etc/passwd: no valid vraid member metadata or hot spare record on it: not a member of a virtual drive" env VRAIDCTL_CONTROL="$nope" "$V" assemble --incremental /etc/passwd
	check "assemble --incremental, not a member, hint" 1 "" "vraidctl: hint: \`vraidctl examine /etc/passwd\` shows what it holds" env VRAIDCTL_CONTROL="$nope" "$V" assemble --incremental /etc/passwd
	check "help assemble --incremental" 0 "       --incremental [--run] DEV | --incremental [--run] --uuid UUID" "" "$V" help assemble
	out_has "assemble -h --run" -qF "  --run         with --incremental: start it with the members present"

	# examine of a device that is not there: what was wrong, what to give
	check "examine, no such device" 1 "" "vraidctl: cannot open /dev/nosuch: no such device; give a block device, e.g. /dev/sdb" "$V" examine /dev/nosuch
	err_lacks "examine, no such device: no bare strerror" "No such file or directory"
	check "examine, no such device, as typed" 1 "" "vraidctl: cannot open nosuch-dev: no such device;" "$V" examine nosuch-dev
	# examine of a journal device (an image file: examine reads files too)
	K="$tmp/$variant/mkjsb"
	jimg="$tmp/journal.img"
	juuid=8c1d0f3e-5244-4a1b-9e07-6d21c355a019
	rm -f "$jimg" && truncate -s 64M "$jimg" && "$K" "$jimg" 0 4 0 && "$K" "$jimg" 1 5 3
	check "examine journal" 0 "Type:            vraid journal (the controller's battery)" "" env VRAIDCTL_CONTROL="$nope" "$V" examine "$jimg"
	out_has "examine journal, UUID" -qxF "Journal UUID:    $juuid"
	out_has "examine journal, slots" -qxF "Slot 1:          valid (generation 5)"
	out_has "examine journal, the newer slot" -qxF "Generation:      5 (slot 1)"
	out_has "examine journal, ring" -qxF "Ring:            63 MiB (16128 blocks of 4 KiB from byte 1 MiB)"
	out_has "examine journal, tail" -qxF "Tail:            seq 42 at block 7"
	out_has "examine journal, created, a date in UTC" -qxF "Created:         2025-11-30 10:53:20 UTC"
	out_has "examine journal, RELEASED" -qF "Flags:           DETACHED, RELEASED: detached by \`vraidctl controller journal none\`"
	out_has "examine journal, no module" -qxF "Attached:        unknown: the vraid module is not loaded"
	out_lacks "examine journal, no metadata copies" -qF "Copy A"
	check "examine journal --json" 0 "{\"device\":\"$jimg\",\"type\":\"journal\",\"slots\":[{\"slot\":0,\"offset_bytes\":4096,\"status\":\"valid\",\"generation\":4},{\"slot\":1,\"offset_bytes\":8192,\"status\":\"valid\",\"generation\":5}],\"uuid\":\"$juuid\",\"generation\":5,\"created\":1764500000,\"ring_bytes\":66060288,\"ring_blocks\":16128,\"tail_block\":7,\"tail_seq\":42,\"flags\":[\"detached\",\"released\"],\"detached\":true,\"released\":true,\"attached\":null,\"attached_device\":\"\",\"journal_state\":null}" "" env VRAIDCTL_CONTROL="$nope" "$V" examine --json "$jimg"
	"$K" "$jimg" 1 5 1
	check "examine journal, DETACHED" 0 "Flags:           DETACHED: detached cleanly (module unloaded), no live records; \`assemble --scan\` attaches it again" "" env VRAIDCTL_CONTROL="$nope" "$V" examine "$jimg"
	check "examine journal --json, DETACHED" 0 '"flags":["detached"],"detached":true,"released":false,' "" env VRAIDCTL_CONTROL="$nope" "$V" examine "$jimg" --json
	"$K" "$jimg" 1 5 0
	check "examine journal, no flags" 0 "Flags:           none: attached now, or it was when the machine went down" "" env VRAIDCTL_CONTROL="$nope" "$V" examine "$jimg"
	check "examine journal --json, no flags" 0 '"flags":[],"detached":false,"released":false,' "" env VRAIDCTL_CONTROL="$nope" "$V" examine "$jimg" --json
	printf X | dd of="$jimg" bs=1 seek=8292 conv=notrunc 2>/dev/null
	check "examine journal, slot 1 bad" 0 "Slot 1:          bad: journal superblock checksum mismatch" "" env VRAIDCTL_CONTROL="$nope" "$V" examine "$jimg"
	out_has "examine journal, slot 0 used" -qxF "Generation:      4 (slot 0)"
	printf X | dd of="$jimg" bs=1 seek=4196 conv=notrunc 2>/dev/null
	check "examine journal, both slots bad" 1 "Slot 0:          bad: journal superblock checksum mismatch" "vraidctl: $jimg: damaged vraid journal superblock: no slot (byte 4096, byte 8192) is valid" env VRAIDCTL_CONTROL="$nope" "$V" examine "$jimg"
	check "examine journal, both slots bad, hint" 1 "" "vraidctl: hint: the module does not take it as a journal: attaching it (\`vraidctl controller journal $jimg\`) formats it anew, and whatever writes it held are lost" env VRAIDCTL_CONTROL="$nope" "$V" examine "$jimg"
	out_lacks "examine journal, both slots bad, no journal lines" -qF "Journal UUID"
	check "examine journal --json, both slots bad" 1 '"status":"bad","error":"journal superblock checksum mismatch' "" env VRAIDCTL_CONTROL="$nope" "$V" examine --json "$jimg"
	out_has "examine journal --json, both slots bad, error" -qF ',"error":"no valid journal superblock"}'
	"$K" "$jimg" 0 4 0 && "$K" "$jimg" 1 5 0 11111111-2222-3333-4444-555555555555
	check "examine journal, two journals" 1 "" "vraidctl: $jimg: damaged vraid journal superblock: the two journal superblocks belong to different journals" env VRAIDCTL_CONTROL="$nope" "$V" examine "$jimg"
	check "examine journal, two journals, hint" 1 "" "\`vraidctl controller journal $jimg --force\` formats it anew" env VRAIDCTL_CONTROL="$nope" "$V" examine "$jimg"
	rm -f "$jimg" && truncate -s 64M "$jimg"
	check "examine, nothing" 1 "Copy A:          none" "vraidctl: $jimg: no valid vraid metadata (and no vraid journal superblock)" env VRAIDCTL_CONTROL="$nope" "$V" examine "$jimg"
	"$K" "$jimg" 1 1 1
	check "examine journal, slot 1 only" 0 "Slot 0:          none: no journal superblock (magic 0x00000000)" "" env VRAIDCTL_CONTROL="$nope" "$V" examine "$jimg"
	out_has "examine journal, slot 1 only, used" -qxF "Generation:      1 (slot 1)"
	check "examine journal, too small for its ring" 1 "Slot 1:          bad: journal ring of 16128 blocks does not fit a device of 65536 sectors" "damaged vraid journal superblock" env VRAIDCTL_CONTROL="$nope" sh -c "truncate -s 32M '$jimg' && '$V' examine '$jimg'"
	rm -f "$jimg"
	check "controller journal, missing DEV" 1 "" "/dev/xyz-no-such: no such file: name an existing block device" "$V" controller journal /dev/xyz-no-such
	check "controller journal, regular file" 1 "" "/etc/passwd is a regular file, not a block device" "$V" controller journal /etc/passwd
	check "controller journal, char device" 1 "" "/dev/null is a character device, not a block device" "$V" controller journal /dev/null
	check "controller, no module" 1 "" "vraid module not loaded" env VRAIDCTL_CONTROL="$nope" "$V" controller
	check "controller set, no module" 1 "" "vraid module not loaded" env VRAIDCTL_CONTROL="$nope" "$V" controller set cache-size=256M
	for s in 16M 256M 256MiB 262144K 1G 1g 1GiB 1T 16777216 default DEFAULT; do
		check "controller set cache-size=$s parses" 1 "" "vraid module not loaded" env VRAIDCTL_CONTROL="$nope" "$V" controller set "cache-size=$s"
	done
	check "controller journal none, no module" 1 "" "vraid module not loaded" env VRAIDCTL_CONTROL="$nope" "$V" controller journal none
	check "controller, /dev/null" 1 "" "vraidctl: controller show: /dev/null does not answer vraid requests (ENOTTY" env VRAIDCTL_CONTROL=/dev/null "$V" controller
	check "controller --json, /dev/null: no stdout" 1 "" "ENOTTY" env VRAIDCTL_CONTROL=/dev/null "$V" controller --json
	out_lacks "controller --json prints nothing on error" -q .
	check "controller set, /dev/null" 1 "" "controller set cache-size=64M: /dev/null does not answer" env VRAIDCTL_CONTROL=/dev/null "$V" controller set cache-size=64M
	check "wait --timeout x" 2 "" "invalid --timeout 'x': give seconds" "$V" wait vraid0 --timeout x
	check "wait --timeout -1" 2 "" "invalid --timeout '-1'" "$V" wait vraid0 --timeout -1
	check "wait --timeout 1." 2 "" "invalid --timeout '1.'" "$V" wait vraid0 --timeout 1.
	check "spare, no action" 2 "" "name the action: add, remove or list" "$V" spare
	check "spare unknown action" 2 "" "unknown spare action 'frob' (choose add, remove or list)" "$V" spare frob
	check "spare add, no DEV" 2 "" "name the device to add (e.g. /dev/sde)" "$V" spare add
	check "spare remove, no DEV" 2 "" "name the device to remove" "$V" spare remove
	check "spare add, two DEVs" 2 "" "name one device only" "$V" spare add /dev/x /dev/y
	check "spare remove --vd" 2 "" "--vd is only for spare add" "$V" spare remove /dev/x --vd vraid0
	check "spare list --vd" 2 "" "--vd is only for spare add" "$V" spare list --vd 0
	check "spare add --json" 2 "" "--json is only for spare list" "$V" spare add /dev/x --json
	check "spare list extra" 2 "" "unexpected argument 'x'" "$V" spare list x
	check "spare add, missing DEV" 1 "" "/dev/xyz-no-such: no such file" "$V" spare add /dev/xyz-no-such
	check "spare add, regular file" 1 "" "/etc/passwd is a regular file, not a block device" "$V" spare add /etc/passwd
	check "replace, too few" 2 "" "name the virtual drive, the member to replace and the new device" "$V" replace vraid0 /dev/x
	check "replace, too many" 2 "" "name the virtual drive, the member to replace" "$V" replace vraid0 /dev/x /dev/y /dev/z
	check "replace, missing NEW" 1 "" "/dev/xyz-no-such: no such file" "$V" replace vraid0 7:1 /dev/xyz-no-such
	if [ -n "$blk0" ]; then
		check "replace with the same device" 1 "" "$blk0 and $tmp/blk0-link are the same device (7:0)" "$V" replace vraid0 "$blk0" "$tmp/blk0-link"
		check "replace with the same MAJ:MIN" 1 "" "7:0 and $blk0 are the same device (7:0)" "$V" replace vraid0 7:0 "$blk0"
		check "replace, no module" 1 "" "vraid module not loaded" env VRAIDCTL_CONTROL="$nope" "$V" replace vraid0 "$blk0" "$blk1"
		check "spare add, no module" 1 "" "vraid module not loaded" env VRAIDCTL_CONTROL="$nope" "$V" spare add "$blk0"
	else
		say_skip "replace with the same device" "no block device node"
	fi
	check "check, no module" 1 "" "vraid module not loaded" env VRAIDCTL_CONTROL="$nope" "$V" check vraid0
	check "wait, no module" 1 "" "vraid module not loaded" env VRAIDCTL_CONTROL="$nope" "$V" wait vraid0
	check "job, /dev/null" 1 "" "vraid0: /dev/null does not answer" env VRAIDCTL_CONTROL=/dev/null "$V" job vraid0 pause
	check "spare list, /dev/null" 1 "" "spare list: /dev/null does not answer vraid requests" env VRAIDCTL_CONTROL=/dev/null "$V" spare list
	if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1; then
		chmod 755 "$tmp" "$tmp/$variant"
		: >"$tmp/ctl-0600"
		chmod 600 "$tmp/ctl-0600"
		check "list as nobody" 1 "" "permission denied" env VRAIDCTL_CONTROL="$tmp/ctl-0600" setpriv --reuid=65534 --regid=65534 --clear-groups "$V" list
		check "list as nobody hint" 1 "" "run as root" env VRAIDCTL_CONTROL="$tmp/ctl-0600" setpriv --reuid=65534 --regid=65534 --clear-groups "$V" list
		check "controller as nobody" 1 "" "$tmp/ctl-0600: permission denied" env VRAIDCTL_CONTROL="$tmp/ctl-0600" setpriv --reuid=65534 --regid=65534 --clear-groups "$V" controller
		check "controller set as nobody" 1 "" "run as root" env VRAIDCTL_CONTROL="$tmp/ctl-0600" setpriv --reuid=65534 --regid=65534 --clear-groups "$V" controller set cache-size=64M
	else
		say_skip "list as nobody" "needs root and setpriv"
	fi

	# against the mock kernel
	export VRAIDCTL_CONTROL=/dev/null MOCK_LOG="$tmp/log"
	check "mock: list, none" 0 "no virtual drives" "" env MOCK_VRAID=none "$M" list
	# another request holds the controller: vraidctl says so once, asks again
	check "mock: list, controller busy twice" 0 "VD      NAME" "vraidctl: waiting: the controller is busy with a policy change, for 3 s now" env MOCK_VRAID=three MOCK_BUSY=2 "$M" list
	[ "$(grep -c waiting "$tmp/err")" = 1 ] && say_ok "mock: busy controller: one waiting line" ||
		say_not_ok "mock: busy controller: one waiting line: $(cat "$tmp/err")"
	check "mock: set, controller busy" 0 "" "vraidctl: waiting: the controller is busy" env MOCK_VRAID=three MOCK_BUSY=1 "$M" set 0 read-policy=ra
	# a request that writes a cache out shows how far it got (on stderr)
	check "mock: set shows a cache write-out" 0 "" "vraidctl: vraid0 cache write-out: 12.0 of 48.0 MiB left" env MOCK_VRAID=three MOCK_DRAIN="$tmp/drain" "$M" set 0 write-policy=wt
	[ "$(grep -c "write-out" "$tmp/err")" = 1 ] && say_ok "mock: a write-out of 2.5 s: one progress line" ||
		say_not_ok "mock: a write-out of 2.5 s: one progress line: $(cat "$tmp/err")"
	# its watcher ends with it, also when only it is killed (kill -9 PID)
	MOCK_VRAID=three MOCK_DRAIN="$tmp/drain2" "$M" set 0 write-policy=wt >/dev/null 2>&1 &
	sleep 1.5
	kill -KILL $!
	wait $! 2>/dev/null
	sleep 3
	if pgrep -f "$M" >/dev/null; then
		say_not_ok "mock: the write-out watcher ends with its vraidctl"
		pkill -f "$M"
	else
		say_ok "mock: the write-out watcher ends with its vraidctl"
	fi
	# wait --timeout: a controller busy past it is an error
	check "mock: wait --timeout, controller busy" 1 "" "the controller is busy with a policy change" env MOCK_VRAID=three MOCK_BUSY=100000000 "$M" wait 0 --timeout 0.3
	# an EBUSY of the command itself (no REPLY_BUSY) is an error, not a wait
	check "mock: list, EBUSY without the busy flag" 1 "" "device busy here" env MOCK_VRAID=three MOCK_FAIL=list:EBUSY:"device busy here" "$M" list
	err_lacks "mock: EBUSY without the busy flag: no waiting" "waiting"
	check "mock: list --json, none" 0 '{"vds":[]}' "" env MOCK_VRAID=none "$M" list --json
	# events: the log, once, as JSON, from N on, a program per event
	check "events" 0 "2026-12-07 12:01:01  #2  vraid0 (db)  member-failed: member 1 (sdb) failed: \"I/O error\"" "" env TZ=UTC env MOCK_VRAID=three "$M" events
	out_has "events: the create first" -q "2026-12-07 12:00:00  #1  vraid0 (db)  created: created RAID1, 2 members, 1024 MiB, optimal"
	out_has "events: the state change last" -q "#3  vraid0 (db)  state: virtual drive is degraded (was optimal)"
	check "events --json" 0 '{"seq":2,"time":"2026-12-07T12:01:01Z","time_ns":1796644861000000000,"type":"member-failed","vd":"vraid0","name":"db","state":"degraded","member":1,"device":"/dev/sdb","text":"member 1 (sdb) failed: \"I/O error\""}' "" env MOCK_VRAID=three "$M" events --json
	check "events --since 3" 0 "#3  vraid0 (db)  state: virtual drive is degraded (was optimal)" "" env MOCK_VRAID=three "$M" events --since 3
	out_lacks "events --since 3: not #2" -q "#2 "
	check "events: dropped ones said" 0 "#2" "vraidctl: events #1 to #1 were dropped (the log keeps the last 1024)" env MOCK_EVENTS_FIRST=2 env MOCK_VRAID=three "$M" events --since 1
	check "events --since 0" 2 "" "--since takes an event number from 1 up, got '0'" env MOCK_VRAID=three "$M" events --since 0
	check "events --since x" 2 "" "--since takes an event number from 1 up, got 'x'" env MOCK_VRAID=three "$M" events --since x
	check "events extra argument" 2 "" "unexpected argument 'vraid0'" env MOCK_VRAID=three "$M" events vraid0
	check "events, old module" 1 "" "the vraid module has no event log (it needs ABI 1.12 or later)" env MOCK_ABI_MINOR=11 env MOCK_VRAID=three "$M" events
	printf '#!/bin/sh\necho "$VRAID_SEQ $VRAID_EVENT $VRAID_VD $VRAID_NAME $VRAID_STATE ${VRAID_MEMBER-} ${VRAID_DEVICE-}: $1" >>"%s"\n' "$tmp/exec.log" >"$tmp/exec.sh"
	chmod +x "$tmp/exec.sh"
	rm -f "$tmp/exec.log"
	check "events --exec" 0 "#3" "" env MOCK_VRAID=three "$M" events --exec "$tmp/exec.sh"
	if [ "$(sed -n 2p "$tmp/exec.log")" = '2 member-failed vraid0 db degraded 1 sdb: member 1 (sdb) failed: "I/O error"' ] &&
	   [ "$(wc -l <"$tmp/exec.log")" = 3 ]; then
		say_ok "events --exec: the program ran per event with its environment"
	else
		say_not_ok "events --exec: the program's log: $(cat "$tmp/exec.log" 2>/dev/null)"
	fi
	check "events --exec failing" 0 "#1" "vraidctl: false failed for event #1 (exit status not 0)" env MOCK_VRAID=three "$M" events --exec false
	# monitor: the log handed on; a mail for what needs the administrator
	printf '#!/bin/sh\n[ "$1 $2" = "-t -i" ] || exit 3\ncat >>"%s"\necho "-- end" >>"%s"\n' "$tmp/mail.log" "$tmp/mail.log" >"$tmp/sendmail.sh"
	chmod +x "$tmp/sendmail.sh"
	rm -f "$tmp/mail.log" "$tmp/exec.log"
	check "monitor --oneshot --mail" 0 "#3  vraid0 (db)  state: virtual drive is degraded (was optimal)" "" env VRAIDCTL_SENDMAIL="$tmp/sendmail.sh" MOCK_VRAID=three "$M" monitor --since 1 --oneshot --mail ops@example.org --syslog --exec "$tmp/exec.sh"
	if [ "$(grep -c '^-- end' "$tmp/mail.log" 2>/dev/null)" = 2 ] &&
	   grep -qx 'To: ops@example.org' "$tmp/mail.log" &&
	   grep -q '^Subject: vraid on .*: member-failed vraid0 (db)$' "$tmp/mail.log" &&
	   grep -q '^Subject: vraid on .*: state vraid0 (db)$' "$tmp/mail.log" &&
	   ! grep -q 'created' "$tmp/mail.log"; then
		say_ok "monitor --mail: one mail each for the member failure and Degraded, none for the create"
	else
		say_not_ok "monitor --mail: the mails: $(cat "$tmp/mail.log" 2>/dev/null)"
	fi
	if [ "$(wc -l <"$tmp/exec.log" 2>/dev/null)" = 3 ]; then
		say_ok "monitor --exec: the program ran per event"
	else
		say_not_ok "monitor --exec: the program's log: $(cat "$tmp/exec.log" 2>/dev/null)"
	fi
	check "monitor, mail program failing" 0 "#2" "vraidctl: /bin/false failed to send the mail for event #2" env VRAIDCTL_SENDMAIL=/bin/false MOCK_VRAID=three "$M" monitor --since 1 --oneshot --mail root
	# vraid.conf's MAILADDR and PROGRAM when the command line names none
	printf 'MAILADDR conf@example.org\nPROGRAM %s\n' "$tmp/exec.sh" >"$tmp/mon.conf"
	rm -f "$tmp/mail.log" "$tmp/exec.log"
	check "monitor, MAILADDR and PROGRAM from vraid.conf" 0 "#3" "" env VRAIDCTL_SENDMAIL="$tmp/sendmail.sh" MOCK_VRAID=three "$M" --config "$tmp/mon.conf" monitor --since 1 --oneshot
	if grep -qx 'To: conf@example.org' "$tmp/mail.log" 2>/dev/null &&
	   [ "$(wc -l <"$tmp/exec.log" 2>/dev/null)" = 3 ]; then
		say_ok "monitor: vraid.conf's address got the mails, its program ran per event"
	else
		say_not_ok "monitor: vraid.conf: mails '$(cat "$tmp/mail.log" 2>/dev/null)', program log '$(cat "$tmp/exec.log" 2>/dev/null)'"
	fi
	rm -f "$tmp/mail.log"
	check "monitor --mail wins over MAILADDR" 0 "#3" "" env VRAIDCTL_SENDMAIL="$tmp/sendmail.sh" MOCK_VRAID=three "$M" --config "$tmp/mon.conf" monitor --since 1 --oneshot --mail cli@example.org
	grep -qx 'To: cli@example.org' "$tmp/mail.log" 2>/dev/null && ! grep -q conf@ "$tmp/mail.log" &&
		say_ok "monitor --mail wins: the mails go to the command line's address" ||
		say_not_ok "monitor --mail wins: $(cat "$tmp/mail.log" 2>/dev/null)"
	printf 'MAILADDR\n' >"$tmp/mon.conf"
	check "monitor, bad vraid.conf" 1 "" "vraidctl: $tmp/mon.conf:1: MAILADDR takes one mail address" env MOCK_VRAID=three "$M" --config "$tmp/mon.conf" monitor --since 1 --oneshot
	check "monitor --mail, no mail transfer agent" 1 "" "--mail needs a mail transfer agent: $tmp/none: No such file or directory" env VRAIDCTL_SENDMAIL="$tmp/none" MOCK_VRAID=three "$M" monitor --mail root
	check "monitor --mail, two addresses" 2 "" "--mail takes one mail address (root, or user@host), got 'a b'" env MOCK_VRAID=three "$M" monitor --mail "a b"
	check "monitor --oneshot alone" 2 "" "--oneshot needs --since N" env MOCK_VRAID=three "$M" monitor --oneshot
	check "monitor --since 0" 2 "" "--since takes an event number from 1 up, got '0'" env MOCK_VRAID=three "$M" monitor --since 0
	check "monitor, old module" 1 "" "the vraid module has no event log (it needs ABI 1.12 or later)" env MOCK_ABI_MINOR=11 env MOCK_VRAID=three "$M" monitor --since 1 --oneshot
	# --follow: with ABI 1.13 it waits in poll(2), asking nothing more
	# while no event comes; an older module (always readable, no poll) is
	# asked every 0.5 s; a device always readable that has nothing new
	# (/dev/null stands in) makes it sleep too, not spin
	: >"$tmp/log"
	check "events --follow, ABI 1.13: waits in poll" 124 "#3" "" env MOCK_POLL=quiet MOCK_VRAID=three timeout 2 "$M" events --follow --since 1
	reqs=$(grep -c '^events since=' "$tmp/log")
	[ "$reqs" = 1 ] && say_ok "events --follow, ABI 1.13: one request in 2 s" ||
		say_not_ok "events --follow, ABI 1.13: one request in 2 s (got $reqs)"
	: >"$tmp/log"
	check "events --follow, ABI 1.12: asks every 0.5 s" 124 "#3" "" env MOCK_ABI_MINOR=12 MOCK_POLL=quiet MOCK_VRAID=three timeout 2 "$M" events --follow --since 1
	reqs=$(grep -c '^events since=' "$tmp/log")
	[ "$reqs" -ge 2 ] && [ "$reqs" -le 6 ] && say_ok "events --follow, ABI 1.12: no poll, 2 to 6 requests in 2 s" ||
		say_not_ok "events --follow, ABI 1.12: no poll, 2 to 6 requests in 2 s (got $reqs)"
	: >"$tmp/log"
	check "monitor, always readable" 124 "#3" "" env MOCK_VRAID=three timeout 2 "$M" monitor --since 1
	reqs=$(grep -c '^events since=' "$tmp/log")
	[ "$reqs" -ge 2 ] && [ "$reqs" -le 12 ] && say_ok "monitor, always readable: no spin, 2 to 12 requests in 2 s" ||
		say_not_ok "monitor, always readable: no spin, 2 to 12 requests in 2 s (got $reqs)"
	check "mock: list" 0 "VD      NAME" "" env MOCK_VRAID=three "$M" list
	order=$(awk 'NR > 1 { printf "%s ", $1 }' "$tmp/out")
	if [ "$order" = "vraid0 vraid1 vraid3 vraid7 " ]; then say_ok "mock: list sorted by index"; else say_not_ok "mock: list sorted by index (got '$order')"; fi
	check "mock: list row raid0" 0 "vraid0  fast" "" env MOCK_VRAID=three "$M" list
	out_has "mock: list raid0 columns" -q 'vraid0 .* RAID0 .* Optimal .* 768 MiB .* 64 KiB .* 2  -$'
	out_has "mock: list jbod strip -" -q 'vraid3 .* JBOD .* Offline .* 384 MiB .* - .* 1  -$'
	out_has "mock: list JOB column" -q '^VD .* MEMBERS  JOB$'
	out_has "mock: list rebuild 25%" -q 'vraid1 .* RAID5 .* Rebuilding .* 3  rebuild 25%$'
	out_has "mock: list sanitises names" -qF 'we"ird\name?é?'
	out_has "mock: list unterminated name" -qF 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx '
	check "mock: list --json" 0 '{"vds":[{"vd":"vraid0","index":0,"name":"fast","level":"raid0","state":"optimal","size_bytes":805306368,"strip_bytes":65536,"members":2,"job":"none","job_percent":0.0},' "" env MOCK_VRAID=three "$M" list --json
	check "mock: list --json escapes" 0 '"name":"we\"ird\\name\u0001é\u00ff"' "" env MOCK_VRAID=three "$M" list --json
	check "mock: list --json jbod strip 0" 0 '"level":"jbod","state":"offline","size_bytes":402653184,"strip_bytes":0,"members":1,"job":"none","job_percent":0.0}' "" env MOCK_VRAID=three "$M" list --json
	check "mock: list --json job" 0 '"members":3,"job":"rebuild","job_percent":25.0}' "" env MOCK_VRAID=three "$M" list --json
	cp "$tmp/out" "$tmp/list.json"
	check "mock: list, VD vanished" 0 "vraid0" "" env MOCK_VRAID=vanish "$M" list
	out_lacks "mock: vanished VD not listed" -q vraid5
	check "mock: list, malformed reply" 1 "" "malformed reply from the vraid module: nr_members 99 > 32" env MOCK_VRAID=badreply "$M" list
	# shellcheck disable=SC2016 # $1 is expanded by the inner sh
	check "mock: list > /dev/full" 1 "" "cannot write the output" sh -c 'MOCK_VRAID=three "$1" list >/dev/full' sh "$M"

	# show reads identities from a stand-in sysfs (VRAIDCTL_SYSFS), laid
	# out as the kernel's: /sys/dev/block/MAJ:MIN links into /sys/devices,
	# model and serial under the disk's device, a partition below its disk
	ids=$tmp/ids
	dv=$ids/devices
	mkdir -p "$ids/dev/block" "$ids/block/vraid0/vraid" \
		"$dv/pci0000:00/0000:00:04.0/nvme/nvme0/nvme0n1" \
		"$dv/virtual/nvme-subsystem/nvme-subsys1/nvme1n1" \
		"$dv/ata1/host0/target0:0:0/0:0:0:0/block/sda" \
		"$dv/sas/host1/target1:0:0/1:0:0:0/block/sdb" \
		"$dv/ata3/host2/target2:0:0/2:0:0:0/block/sdc/sdc1" \
		"$dv/ata4/host3/target3:0:0/3:0:0:0/block/sdd" \
		"$dv/virtual/block/loop0" "$dv/ata5/host4/target4:0:0/4:0:0:0/block/sdz"
	echo 3a577491-aecb-e805-223f-5c7996b3d0ed >"$ids/block/vraid0/vraid/uuid"
	# vraid1 has none (a module before it); vraid7's is not a UUID
	mkdir -p "$ids/block/vraid7/vraid"
	echo 3A577491-aecb >"$ids/block/vraid7/vraid/uuid"
	# NVMe: the controller's (nvme0n1), or the subsystem's with native
	# multipath (nvme1n1); the nvme driver cuts the padding itself
	n0=$dv/pci0000:00/0000:00:04.0/nvme/nvme0
	echo "QEMU NVMe Ctrl" >"$n0/model"
	echo "vraid-nvme0" >"$n0/serial"
	ln -sfn ../../nvme0 "$n0/nvme0n1/device"
	ln -sfn "../../devices/pci0000:00/0000:00:04.0/nvme/nvme0/nvme0n1" "$ids/dev/block/259:0"
	n1=$dv/virtual/nvme-subsystem/nvme-subsys1
	echo "Samsung SSD 980 PRO 1TB" >"$n1/model"
	echo "S5GXNF0R123456" >"$n1/serial"
	ln -sfn ../../nvme-subsys1 "$n1/nvme1n1/device"
	ln -sfn ../../devices/virtual/nvme-subsystem/nvme-subsys1/nvme1n1 "$ids/dev/block/259:1"
	# SATA behind libata: the model padded to 16, the serial in VPD page
	# 0x80 (20 bytes, padded); sdc1 a partition; a SAS disk without a
	# serial; 8:48 (the missing member of vraid3) and 7:1 now other disks
	for d in "ata1/host0/target0:0:0/0:0:0:0:sda:QM00001" \
		"sas/host1/target1:0:0/1:0:0:0:sdb:" \
		"ata3/host2/target2:0:0/2:0:0:0:sdc:ZC1234AB" \
		"ata4/host3/target3:0:0/3:0:0:0:sdd:WD-OTHER" \
		"ata5/host4/target4:0:0/4:0:0:0:sdz:OTHER"; do
		serial=${d##*:} d=${d%:*}
		name=${d##*:} d=${d%:*}
		printf 'QEMU HARDDISK   \n' >"$dv/$d/model"
		[ -z "$serial" ] || printf '\000\200\000\024%-20s' "$serial" >"$dv/$d/vpd_pg80"
		ln -sfn ../../../"${d##*/}" "$dv/$d/block/$name/device"
	done
	echo 1 >"$dv/ata3/host2/target2:0:0/2:0:0:0/block/sdc/sdc1/partition"
	ln -sfn ../../devices/ata1/host0/target0:0:0/0:0:0:0/block/sda "$ids/dev/block/8:0"
	ln -sfn ../../devices/sas/host1/target1:0:0/1:0:0:0/block/sdb "$ids/dev/block/8:16"
	ln -sfn ../../devices/ata3/host2/target2:0:0/2:0:0:0/block/sdc/sdc1 "$ids/dev/block/8:33"
	ln -sfn ../../devices/ata4/host3/target3:0:0/3:0:0:0/block/sdd "$ids/dev/block/8:48"
	ln -sfn ../../devices/virtual/block/loop0 "$ids/dev/block/7:0"
	ln -sfn ../../devices/ata5/host4/target4:0:0/4:0:0:0/block/sdz "$ids/dev/block/7:1"

	check "mock: show 0" 0 "Name:               fast" "" env VRAIDCTL_SYSFS="$ids" MOCK_VRAID=three "$M" show 0
	check "mock: show vraid0 device" 0 "Device:             /dev/vraid0" "" env VRAIDCTL_SYSFS="$ids" MOCK_VRAID=three "$M" show vraid0
	check "mock: show by name" 0 "Virtual drive:      vraid0" "" env VRAIDCTL_SYSFS="$ids" MOCK_VRAID=three "$M" show fast
	check "mock: show /dev/vraid0" 0 "Size:               768 MiB (805306368 bytes)" "" env VRAIDCTL_SYSFS="$ids" MOCK_VRAID=three "$M" show /dev/vraid0
	check "mock: show full stripe" 0 "Full stripe:        128 KiB" "" env VRAIDCTL_SYSFS="$ids" MOCK_VRAID=three "$M" show 0
	check "mock: show data offset" 0 "Data offset:        8 MiB (sector 16384) on each member" "" env VRAIDCTL_SYSFS="$ids" MOCK_VRAID=three "$M" show 0
	check "mock: show policies" 0 "Policies:           Access: RW, Disk cache: Default, I/O: Direct, Read: No Read Ahead, Write: Write Through" "" env VRAIDCTL_SYSFS="$ids" MOCK_VRAID=three "$M" show 0
	check "mock: show member table" 0 "ROLE  DEVICE        MAJ:MIN  STATE    SIZE     USED  READS  WRITES  ERRORS" "" env VRAIDCTL_SYSFS="$ids" MOCK_VRAID=three "$M" show 0
	out_has "mock: show member row" -qxF '   0  /dev/nvme0n1  259:0    Online  2 GiB  384 MiB   1000    2000       0'
	# the VD's UUID and each member's model and serial number, from sysfs
	out_has "mock: show UUID" -qxF "UUID:               3a577491-aecb-e805-223f-5c7996b3d0ed"
	out_has "mock: show identity table" -qxF "ROLE  DEVICE        MODEL                    SERIAL"
	out_has "mock: show NVMe model, serial" -qxF "   0  /dev/nvme0n1  QEMU NVMe Ctrl           vraid-nvme0"
	out_has "mock: show NVMe multipath model, serial" -qxF "   1  /dev/nvme1n1  Samsung SSD 980 PRO 1TB  S5GXNF0R123456"
	check "mock: show SATA, serial from VPD page 0x80" 0 "   0  /dev/sda   QEMU HARDDISK  QM00001" "" env VRAIDCTL_SYSFS="$ids" MOCK_VRAID=three "$M" show 1
	out_has "mock: show no UUID in sysfs" -qxF "UUID:               -"
	out_has "mock: show disk without a serial" -qxF "   1  /dev/sdb   QEMU HARDDISK  -"
	out_has "mock: show partition: its disk's" -qxF "   2  /dev/sdc1  QEMU HARDDISK  ZC1234AB"
	check "mock: show missing member: no identity" 0 "   0  -       -      -" "" env VRAIDCTL_SYSFS="$ids" MOCK_VRAID=three "$M" show 3
	out_lacks "mock: show missing member: not the disk now at its number" -qF "WD-OTHER"
	check "mock: show loop device: none" 0 "   0  /dev/loop0  -      -" "" env VRAIDCTL_SYSFS="$ids" MOCK_VRAID=jobs "$M" show 0
	out_has "mock: show another disk at the number: none" -qxF "   1  /dev/loop1  -      -"
	check "mock: show malformed UUID" 0 "UUID:               -" "" env VRAIDCTL_SYSFS="$ids" MOCK_VRAID=three "$M" show 7
	check "mock: show, no sysfs" 0 "UUID:               -" "" env VRAIDCTL_SYSFS="$tmp/nosys" MOCK_VRAID=three "$M" show 0
	out_has "mock: show, no sysfs: no identity" -qxF "   0  /dev/nvme0n1  -      -"
	check "mock: show --json, no identity" 0 '"errors":0,"model":null,"serial":null}' "" env VRAIDCTL_SYSFS="$ids" MOCK_VRAID=jobs "$M" show 0 --json
	out_has "mock: show --json, another disk at the number" -qF '"device":"/dev/loop1","major":7,"minor":1,"state":"rebuilding","size_bytes":2147483648,"data_bytes":402653184,"read_ios":1001,"write_ios":2001,"errors":0,"model":null,"serial":null}'
	check "mock: show --json, no UUID" 0 '"why":""},"uuid":null}' "" env VRAIDCTL_SYSFS="$ids" MOCK_VRAID=three "$M" show 7 --json
	check "mock: show raid5 policies" 0 "Access: RO, Disk cache: On, I/O: Cached, Read: Read Ahead, Write: Always Write Back" "" env VRAIDCTL_SYSFS="$ids" MOCK_VRAID=three "$M" show vraid1
	check "mock: show write in effect" 0 "Write in effect:    Write Through" "" env VRAIDCTL_SYSFS="$ids" MOCK_VRAID=three "$M" show vraid0
	out_has "mock: show write in effect, nothing more" -qxF "Write in effect:    Write Through"
	# always write-back (ABI 1.8): the controller cache, volatile
	check "mock: show awb, write in effect" 0 "Write in effect:    Write Back (volatile cache): a power loss loses writes not yet flushed" "" env VRAIDCTL_SYSFS="$ids" MOCK_VRAID=three "$M" show vraid1
	out_has "mock: show awb, write in effect line" -qxF "Write in effect:    Write Back (volatile cache): a power loss loses writes not yet flushed"
	check "mock: show awb, policies" 0 "Access: RW, Disk cache: Default, I/O: Direct, Read: No Read Ahead, Write: Always Write Back" "" env VRAIDCTL_SYSFS="$ids" MOCK_VRAID=three MOCK_AWB=1 "$M" show vraid0
	out_has "mock: show awb, in effect" -qxF "Write in effect:    Write Back (volatile cache): a power loss loses writes not yet flushed"
	check "mock: show --json awb" 0 '"policies":{"access":"rw","disk_cache":"default","io":"direct","read":"no_read_ahead","write":"always_write_back"}' "" env VRAIDCTL_SYSFS="$ids" MOCK_VRAID=three MOCK_AWB=1 "$M" show vraid0 --json
	out_has "mock: show --json awb, write in effect" -qF '"write_in_effect":{"mode":"write_back_volatile","why":""},"uuid":"3a577491-aecb-e805-223f-5c7996b3d0ed"}'
	check "mock: show raid5 full stripe" 0 "Full stripe:        128 KiB" "" env VRAIDCTL_SYSFS="$ids" MOCK_VRAID=three "$M" show vraid1
	check "mock: show rebuilding member" 0 "Rebuilding" "" env VRAIDCTL_SYSFS="$ids" MOCK_VRAID=three "$M" show vraid1
	check "mock: show raid60" 0 "Spans:              2" "" env VRAIDCTL_SYSFS="$ids" MOCK_VRAID=three "$M" show 7
	check "mock: show raid60 full stripe" 0 "Full stripe:        512 KiB" "" env VRAIDCTL_SYSFS="$ids" MOCK_VRAID=three "$M" show 7
	check "mock: show jbod" 0 "Strip:              -" "" env VRAIDCTL_SYSFS="$ids" MOCK_VRAID=three "$M" show 3
	check "mock: show missing member" 0 "-       8:48     Missing" "" env VRAIDCTL_SYSFS="$ids" MOCK_VRAID=three "$M" show 3
	check "mock: show job" 0 "Job:                rebuild  25.0%  [#####...............]  96 MiB of 384 MiB per member, ETA 1m20s, rate unlimited" "" env VRAIDCTL_SYSFS="$ids" MOCK_VRAID=three "$M" show 1
	out_has "mock: show last job done" -qxF "Last job:           init, done"
	check "mock: show no job" 0 "Job:                none" "" env VRAIDCTL_SYSFS="$ids" MOCK_VRAID=three "$M" show 0
	out_has "mock: show no last job" -qxF "Last job:           none"
	check "mock: show paused job" 0 "Job:                check  50.0%  [##########..........]  192 MiB of 384 MiB per member, paused, 2 mismatches so far, rate 50 MiB/s" "" env VRAIDCTL_SYSFS="$ids" MOCK_VRAID=jobs "$M" show 1
	check "mock: show idle, rate set" 0 "Job:                none (rate limit 1 MiB/s per member)" "" env VRAIDCTL_SYSFS="$ids" MOCK_VRAID=jobs "$M" show 2
	out_has "mock: show last check" -qxF "Last job:           check, 3 mismatches"
	check "mock: show last job failed" 0 "Last job:           rebuild failed: Input/output error" "" env VRAIDCTL_SYSFS="$ids" MOCK_VRAID=jobs "$M" show 5
	check "mock: show last job stopped" 0 "Last job:           rebuild, stopped" "" env VRAIDCTL_SYSFS="$ids" MOCK_VRAID=jobs "$M" show 10
	check "mock: show init ETA in hours" 0 "init  25.0%  [#####...............]  96 MiB of 384 MiB per member, ETA 2h00m, rate unlimited" "" env VRAIDCTL_SYSFS="$ids" MOCK_VRAID=jobs "$M" show 4
	check "mock: list jobs" 0 "JOB" "" env MOCK_VRAID=jobs "$M" list
	out_has "mock: list rebuild" -q '^vraid0 .* RAID1 .* Rebuilding .* 2  rebuild 25%$'
	out_has "mock: list paused check" -q '^vraid1 .* RAID5 .* 3  check 50% paused$'
	out_has "mock: list idle" -q '^vraid2 .* RAID6 .* 4  -$'
	check "mock: list --json jobs" 0 '"job":"check","job_percent":50.0}' "" env MOCK_VRAID=jobs "$M" list --json
	check "mock: show no such VD" 1 "" "vraid9: no virtual drive (ENOENT: No such file or directory)" env VRAIDCTL_SYSFS="$ids" MOCK_VRAID=three "$M" show 9
	check "mock: show no such VD hint" 1 "" "no such virtual drive (see \`vraidctl list\`)" env VRAIDCTL_SYSFS="$ids" MOCK_VRAID=three "$M" show /dev/vraid9
	check "mock: show no such name" 1 "" "nosuch: no such virtual drive (see \`vraidctl list\`)" env VRAIDCTL_SYSFS="$ids" MOCK_VRAID=three "$M" show nosuch
	check "mock: show ambiguous name" 1 "" "fast: 2 virtual drives carry this name" env VRAIDCTL_SYSFS="$ids" MOCK_VRAID=dupname "$M" show fast
	check "mock: show --json" 0 '{"vd":"vraid0","index":0,"device":"/dev/vraid0","name":"fast","level":"raid0","state":"optimal","size_bytes":805306368,"strip_bytes":65536,"spans":0,"full_stripe_bytes":131072,"data_offset_bytes":8388608,"member_data_bytes":402653184,"logical_block_size":512,"open_count":1,"policies":{"access":"rw","disk_cache":"default","io":"direct","read":"no_read_ahead","write":"write_through"},"members":[{"role":0,"device":"/dev/nvme0n1","major":259,"minor":0,"state":"online","size_bytes":2147483648,"data_bytes":402653184,"read_ios":1000,"write_ios":2000,"errors":0,"model":"QEMU NVMe Ctrl","serial":"vraid-nvme0"},' "" env VRAIDCTL_SYSFS="$ids" MOCK_VRAID=three "$M" show --json fast
	cp "$tmp/out" "$tmp/show0.json"
	check "mock: show --json raid5" 0 '"policies":{"access":"ro","disk_cache":"enabled","io":"cached","read":"read_ahead","write":"always_write_back"}' "" env VRAIDCTL_SYSFS="$ids" MOCK_VRAID=three "$M" show 1 --json
	cp "$tmp/out" "$tmp/show1.json"
	check "mock: show --json jbod" 0 '"members":[{"role":0,"device":"","major":8,"minor":48,"state":"missing"' "" env VRAIDCTL_SYSFS="$ids" MOCK_VRAID=three "$M" show 3 --json
	cp "$tmp/out" "$tmp/show3.json"
	check "mock: show --json raid60" 0 '"device":"/dev/dddddddddddddddddddddddddddddddd"' "" env VRAIDCTL_SYSFS="$ids" MOCK_VRAID=three "$M" show 7 --json
	cp "$tmp/out" "$tmp/show7.json"
	check "mock: show --json job" 0 '"errors":3,"model":"QEMU HARDDISK","serial":"ZC1234AB"}],"job":{"type":"rebuild","state":"running","done_bytes":100663296,"total_bytes":402653184,"percent":25.0,"eta_seconds":80,"rate_kib":0,"mismatches":0},"last_job":{"type":"init","result":0,"mismatches":0,"outcome":"done","error":null},"write_in_effect":{"mode":"write_back_volatile","why":""},"uuid":null}' "" env VRAIDCTL_SYSFS="$ids" MOCK_VRAID=three "$M" show 1 --json
	check "mock: show --json no job" 0 '"errors":0,"model":"Samsung SSD 980 PRO 1TB","serial":"S5GXNF0R123456"}],"job":{"type":"none","state":"none","done_bytes":0,"total_bytes":0,"percent":0.0,"eta_seconds":0,"rate_kib":0,"mismatches":0},"last_job":{"type":"none","result":0,"mismatches":0,"outcome":"none","error":null},"write_in_effect":{"mode":"write_through","why":""},"uuid":"3a577491-aecb-e805-223f-5c7996b3d0ed"}' "" env VRAIDCTL_SYSFS="$ids" MOCK_VRAID=three "$M" show 0 --json
	check "mock: show --json paused job" 0 '"job":{"type":"check","state":"paused","done_bytes":201326592,"total_bytes":402653184,"percent":50.0,"eta_seconds":0,"rate_kib":51200,"mismatches":2},"last_job":{"type":"none","result":0,"mismatches":0,"outcome":"none","error":null},"write_in_effect":{"mode":"write_through","why":""},"uuid":null}' "" env VRAIDCTL_SYSFS="$ids" MOCK_VRAID=jobs "$M" show 1 --json
	cp "$tmp/out" "$tmp/jobs1.json"
	check "mock: show --json failed last job" 0 '"last_job":{"type":"rebuild","result":5,"mismatches":0,"outcome":"failed","error":"EIO"},"write_in_effect":{"mode":"write_through","why":""},"uuid":null}' "" env VRAIDCTL_SYSFS="$ids" MOCK_VRAID=jobs "$M" show 5 --json
	cp "$tmp/out" "$tmp/jobs5.json"
	check "mock: show --json stopped last job" 0 '"last_job":{"type":"rebuild","result":125,"mismatches":0,"outcome":"stopped","error":null}' "" env VRAIDCTL_SYSFS="$ids" MOCK_VRAID=jobs "$M" show 10 --json
	check "mock: spare list --json" 0 '{"spares":[{"device":"/dev/sde","major":8,"minor":64,"size_bytes":2147483648,"vd":"","vd_uuid":""},{"device":"/dev/sdf","major":8,"minor":80,"size_bytes":4294967296,"vd":"vraid1","vd_uuid":"11111111-1111-1111-1111-111111111111"}]}' "" env MOCK_VRAID=jobs "$M" spare list --json
	cp "$tmp/out" "$tmp/spares.json"
	check "mock: spare list --json, none" 0 '{"spares":[]}' "" env MOCK_VRAID=none "$M" spare list --json
	cp "$tmp/out" "$tmp/spares-none.json"

	# stats: the counters come from a stand-in sysfs (VRAIDCTL_SYSFS)
	sys=$tmp/sys
	mkdir -p "$sys/block/vraid0/vraid" "$sys/class/block/vraid0" \
		"$sys/class/block/nvme0n1" "$sys/class/block/nvme1n1"
	echo 7 >"$sys/block/vraid0/vraid/flushes"
	echo 2 >"$sys/block/vraid0/vraid/read_repairs"
	echo 300 >"$sys/block/vraid0/vraid/cache_read_hits"
	echo 100 >"$sys/block/vraid0/vraid/cache_read_misses"
	echo 2097152 >"$sys/block/vraid0/vraid/cache_bytes"
	echo 40 >"$sys/block/vraid0/vraid/cache_ra_hits"
	echo 64 >"$sys/block/vraid0/vraid/cache_ra_pages"
	# write-back counters (ABI 1.8): nothing written into the cache
	echo 0 >"$sys/block/vraid0/vraid/cache_dirty_bytes"
	echo 0 >"$sys/block/vraid0/vraid/cache_write_pages"
	echo 0 >"$sys/block/vraid0/vraid/cache_destaged"
	echo "100 0 2048 5 300 0 8192 9 3 20 30 0 0 0 0 7 1" >"$sys/class/block/vraid0/stat"
	echo "60 0 1024 5 150 0 4096 9 0 20 30 0 0 0 0 0 0" >"$sys/class/block/nvme0n1/stat"
	echo "40 0 1024 5 150 0 4096 9 0 20 30" >"$sys/class/block/nvme1n1/stat"
	check "stats -h" 0 "usage: vraidctl stats VD" "" "$V" stats -h
	check "stats, no VD" 2 "" "name the virtual drive whose counters to show" "$V" stats
	check "stats, two VDs" 2 "" "name one virtual drive only" "$V" stats a b
	check "stats --count without --watch" 2 "" "--count goes with --watch" "$V" stats vraid0 --count 2
	check "stats --interval without --watch" 2 "" "--interval goes with --watch" "$V" stats vraid0 --interval 1
	check "stats --interval 0" 2 "" "invalid --interval '0': give seconds from 0.1 to 86400" "$V" stats vraid0 --watch --interval 0
	check "stats --interval x" 2 "" "invalid --interval 'x'" "$V" stats vraid0 --watch --interval x
	check "stats --count 0" 2 "" "invalid --count '0': give the number of reports, 1 or more" "$V" stats vraid0 --watch --count 0
	check "stats, unknown option" 2 "" "unknown option '--bogus'" "$V" stats vraid0 --bogus
	check "mock: stats" 0 "vraid0 (RAID0, Optimal): counted since it was created or assembled" "" env MOCK_VRAID=three VRAIDCTL_SYSFS="$sys" "$M" stats fast
	out_has "mock: stats reads" -qxF "Reads:         100 I/Os, 1 MiB"
	out_has "mock: stats writes" -qxF "Writes:        300 I/Os, 4 MiB"
	out_has "mock: stats flushes" -qxF "Flushes:       7"
	out_has "mock: stats in flight" -qxF "In flight:     3"
	out_has "mock: stats read repairs" -qxF "Read repairs:  2"
	cache_is "mock: stats cache lines" "$(printf '%s\n' "Cache:         300 read hits, 100 misses (75.0 % hits), 2 MiB held (io policy direct: reads do not use it)" "  Read-ahead:  40 hits of 64 pages read ahead")"
	out_has "mock: stats member row" -qxF '   0  /dev/nvme0n1  Online   1000    2000  512 KiB    2 MiB       0'
	check "mock: stats --json" 0 '{"vd":"vraid0","index":0,"level":"raid0","state":"optimal","reads":100,"read_bytes":1048576,"writes":300,"write_bytes":4194304,"flushes":7,"in_flight":3,"read_repairs":2,"cache":{"read_hits":300,"read_misses":100,"cached_bytes":2097152,"ra_hits":40,"ra_pages":64,"dirty_bytes":0,"write_pages":0,"destaged_pages":0,"journal_writes":null,"journal_pages":null,"journal_refs":null,"fill_pages":null,"dirty_waits":null,"journal_waits":null},"members":[{"role":0,"device":"/dev/nvme0n1","state":"online","reads":1000,"writes":2000,"read_bytes":524288,"write_bytes":2097152,"errors":0},' "" env MOCK_VRAID=three VRAIDCTL_SYSFS="$sys" "$M" stats 0 --json
	cp "$tmp/out" "$tmp/stats.json"
	check "mock: stats --watch --count 2" 0 "TIME      VD/ROLE" "" env MOCK_VRAID=three VRAIDCTL_SYSFS="$sys" "$M" stats 0 --watch --interval 0.1 --count 2
	[ "$(grep -c '  vraid0 ' "$tmp/out")" = 2 ] && say_ok "mock: stats --watch prints 2 reports" ||
		say_not_ok "mock: stats --watch prints 2 reports: $(cat "$tmp/out")"
	out_has "mock: stats --watch idle rates" -q '^[0-9:]*  vraid0 *0.0 *0.0 *0.00 *0.00 *0.0 .*Optimal$'
	check "mock: stats --watch --json" 0 '"reads_per_s":0.0,"writes_per_s":0.0,"read_bytes_per_s":0,"write_bytes_per_s":0,"flushes_per_s":0.0,"in_flight":3,"read_repairs":2,"cache":{"read_hits_per_s":0.0,"read_misses_per_s":0.0,"cached_bytes":2097152,"ra_hits_per_s":0.0,"ra_pages_per_s":0.0,"dirty_bytes":0,"write_pages_per_s":0.0,"destaged_pages_per_s":0.0,"journal_writes_per_s":null,"journal_pages_per_s":null,"journal_refs_per_s":null,"fill_pages_per_s":null,"dirty_waits_per_s":null,"journal_waits_per_s":null},"members":[{"role":0,"device":"/dev/nvme0n1"' "" env MOCK_VRAID=three VRAIDCTL_SYSFS="$sys" "$M" stats 0 --watch --interval 0.1 --count 1 --json
	head -n 1 "$tmp/out" >"$tmp/stats-watch.json"
	# read-ahead with io-policy direct: reads look the cache up, misses do not fill it
	check "mock: stats, read-ahead, io direct" 0 "Cache:         300 read hits, 100 misses (75.0 % hits), 2 MiB held (io policy direct: only read-ahead fills it)" "" env MOCK_VRAID=three MOCK_RA=1 VRAIDCTL_SYSFS="$sys" "$M" stats 0
	cache_is "mock: stats, read-ahead, io direct: the lines" "$(printf '%s\n' "Cache:         300 read hits, 100 misses (75.0 % hits), 2 MiB held (io policy direct: only read-ahead fills it)" "  Read-ahead:  40 hits of 64 pages read ahead")"
	# nothing read ahead and read-ahead off: the line says nothing of it
	echo 0 >"$sys/block/vraid0/vraid/cache_ra_pages"
	check "mock: stats, nora, nothing read ahead" 0 "Cache:         300 read hits, 100 misses (75.0 % hits), 2 MiB held (io policy direct: reads do not use it)" "" env MOCK_VRAID=three VRAIDCTL_SYSFS="$sys" "$M" stats 0
	echo 64 >"$sys/block/vraid0/vraid/cache_ra_pages"
	# io-policy cached (vraid1): nothing said of the io policy
	mkdir -p "$sys/block/vraid1" "$sys/class/block/vraid1" &&
		cp -r "$sys/block/vraid0/vraid" "$sys/block/vraid1/" &&
		cp "$sys/class/block/vraid0/stat" "$sys/class/block/vraid1/stat"
	# ... and always write-back, with dirty data: the write-back part
	echo 1572864 >"$sys/block/vraid1/vraid/cache_dirty_bytes"
	echo 300 >"$sys/block/vraid1/vraid/cache_write_pages"
	echo 280 >"$sys/block/vraid1/vraid/cache_destaged"
	check "mock: stats, io cached" 0 "vraid1 (RAID5, Rebuilding)" "" env MOCK_VRAID=three VRAIDCTL_SYSFS="$sys" "$M" stats 1
	cache_is "mock: stats, io cached, awb, cache lines" "$(printf '%s\n' "Cache:         300 read hits, 100 misses (75.0 % hits), 2 MiB held" "  Read-ahead:  40 hits of 64 pages read ahead" "  Write-back:  1.5 MiB dirty, 300 pages written in, 280 destaged")"
	check "mock: stats --json, awb" 0 '"cache":{"read_hits":300,"read_misses":100,"cached_bytes":2097152,"ra_hits":40,"ra_pages":64,"dirty_bytes":1572864,"write_pages":300,"destaged_pages":280,"journal_writes":null,"journal_pages":null,"journal_refs":null,"fill_pages":null,"dirty_waits":null,"journal_waits":null},"members"' "" env MOCK_VRAID=three VRAIDCTL_SYSFS="$sys" "$M" stats 1 --json
	cp "$tmp/out" "$tmp/stats-awb.json"
	check "mock: stats --watch --json, awb" 0 '"ra_pages_per_s":0.0,"dirty_bytes":1572864,"write_pages_per_s":0.0,"destaged_pages_per_s":0.0,"journal_writes_per_s":null,"journal_pages_per_s":null,"journal_refs_per_s":null,"fill_pages_per_s":null,"dirty_waits_per_s":null,"journal_waits_per_s":null},"members"' "" env MOCK_VRAID=three VRAIDCTL_SYSFS="$sys" "$M" stats 1 --watch --interval 0.1 --count 1 --json
	# journalled write-back: the journal's counters, and the pages that
	# parity records named rather than logged again (journal_refs)
	rm -rf "$tmp/sysj" && cp -r "$sys" "$tmp/sysj"
	echo 300 >"$tmp/sysj/block/vraid1/vraid/journal_writes"
	echo 420 >"$tmp/sysj/block/vraid1/vraid/journal_pages"
	echo 250 >"$tmp/sysj/block/vraid1/vraid/journal_refs"
	check "mock: stats, wb journalled" 0 "  Journal:     300 writes logged, 420 pages (250 destaged pages named, not logged again)" "" env MOCK_VRAID=three MOCK_WB=1 MOCK_JOURNAL=healthy VRAIDCTL_SYSFS="$tmp/sysj" "$M" stats 1
	cache_is "mock: stats, wb journalled: the lines" "$(printf '%s\n' "Cache:         300 read hits, 100 misses (75.0 % hits), 2 MiB held" "  Read-ahead:  40 hits of 64 pages read ahead" "  Write-back:  1.5 MiB dirty, 300 pages written in, 280 destaged" "  Journal:     300 writes logged, 420 pages (250 destaged pages named, not logged again)")"
	check "mock: stats --json, wb journalled" 0 '"destaged_pages":280,"journal_writes":300,"journal_pages":420,"journal_refs":250,"fill_pages":null,"dirty_waits":null,"journal_waits":null},"members"' "" env MOCK_VRAID=three MOCK_WB=1 MOCK_JOURNAL=healthy VRAIDCTL_SYSFS="$tmp/sysj" "$M" stats 1 --json
	check "mock: stats --watch --json, wb journalled" 0 '"journal_writes_per_s":0.0,"journal_pages_per_s":0.0,"journal_refs_per_s":0.0,"fill_pages_per_s":null,"dirty_waits_per_s":null,"journal_waits_per_s":null},"members"' "" env MOCK_VRAID=three MOCK_WB=1 MOCK_JOURNAL=healthy VRAIDCTL_SYSFS="$tmp/sysj" "$M" stats 1 --watch --interval 0.1 --count 1 --json
	# a module without journal_refs: the rest is said, refs are null
	rm "$tmp/sysj/block/vraid1/vraid/journal_refs"
	check "mock: stats --json, no journal_refs" 0 '"journal_writes":300,"journal_pages":420,"journal_refs":null,"fill_pages":null,"dirty_waits":null,"journal_waits":null},"members"' "" env MOCK_VRAID=three MOCK_WB=1 MOCK_JOURNAL=healthy VRAIDCTL_SYSFS="$tmp/sysj" "$M" stats 1 --json
	check "mock: stats, no journal_refs" 0 "  Journal:     300 writes logged, 420 pages" "" env MOCK_VRAID=three MOCK_WB=1 MOCK_JOURNAL=healthy VRAIDCTL_SYSFS="$tmp/sysj" "$M" stats 1
	cache_is "mock: stats, no journal_refs: the lines" "$(printf '%s\n' "Cache:         300 read hits, 100 misses (75.0 % hits), 2 MiB held" "  Read-ahead:  40 hits of 64 pages read ahead" "  Write-back:  1.5 MiB dirty, 300 pages written in, 280 destaged" "  Journal:     300 writes logged, 420 pages")"
	# writers held up by the dirty bound, then by the journal's unlogged bound
	echo 12 >"$tmp/sysj/block/vraid1/vraid/cache_dirty_waits"
	echo 0 >"$tmp/sysj/block/vraid1/vraid/journal_waits"
	check "mock: stats, writes waited for destage" 0 "  Waits:       12 writes waited for destage (dirty bound)" "" env MOCK_VRAID=three MOCK_WB=1 MOCK_JOURNAL=healthy VRAIDCTL_SYSFS="$tmp/sysj" "$M" stats 1
	cache_is "mock: stats, writes waited for destage: the lines" "$(printf '%s\n' "Cache:         300 read hits, 100 misses (75.0 % hits), 2 MiB held" "  Read-ahead:  40 hits of 64 pages read ahead" "  Write-back:  1.5 MiB dirty, 300 pages written in, 280 destaged" "  Journal:     300 writes logged, 420 pages" "  Waits:       12 writes waited for destage (dirty bound)")"
	echo 3 >"$tmp/sysj/block/vraid1/vraid/journal_waits"
	check "mock: stats, writes waited for destage and the journal" 0 "Cache:         300 read hits, 100 misses (75.0 % hits), 2 MiB held" "" env MOCK_VRAID=three MOCK_WB=1 MOCK_JOURNAL=healthy VRAIDCTL_SYSFS="$tmp/sysj" "$M" stats 1
	cache_is "mock: stats, writes waited for destage and the journal: the lines" "$(printf '%s\n' "Cache:         300 read hits, 100 misses (75.0 % hits), 2 MiB held" "  Read-ahead:  40 hits of 64 pages read ahead" "  Write-back:  1.5 MiB dirty, 300 pages written in, 280 destaged" "  Journal:     300 writes logged, 420 pages" "  Waits:       12 writes waited for destage (dirty bound), 3 writes waited for the journal (unlogged bound)")"
	check "mock: stats --json, wait counters" 0 '"journal_refs":null,"fill_pages":null,"dirty_waits":12,"journal_waits":3},"members"' "" env MOCK_VRAID=three MOCK_WB=1 MOCK_JOURNAL=healthy VRAIDCTL_SYSFS="$tmp/sysj" "$M" stats 1 --json
	check "mock: stats --watch --json, wait counters" 0 '"fill_pages_per_s":null,"dirty_waits_per_s":0.0,"journal_waits_per_s":0.0},"members"' "" env MOCK_VRAID=three MOCK_WB=1 MOCK_JOURNAL=healthy VRAIDCTL_SYSFS="$tmp/sysj" "$M" stats 1 --watch --json --interval 0.1 --count 1
	# a module with one of the two: neither is said
	rm "$tmp/sysj/block/vraid1/vraid/journal_waits"
	check "mock: stats, one wait counter, left out" 0 "  Journal:     300 writes logged, 420 pages" "" env MOCK_VRAID=three MOCK_WB=1 MOCK_JOURNAL=healthy VRAIDCTL_SYSFS="$tmp/sysj" "$M" stats 1
	cache_is "mock: stats, one wait counter, left out: the lines" "$(printf '%s\n' "Cache:         300 read hits, 100 misses (75.0 % hits), 2 MiB held" "  Read-ahead:  40 hits of 64 pages read ahead" "  Write-back:  1.5 MiB dirty, 300 pages written in, 280 destaged" "  Journal:     300 writes logged, 420 pages")"
	# always write-back with nothing written yet: said all the same
	check "mock: stats, awb, nothing written" 0 "Cache:         300 read hits, 100 misses (75.0 % hits), 2 MiB held (io policy direct: only writes fill it)" "" env MOCK_VRAID=three MOCK_AWB=1 VRAIDCTL_SYSFS="$sys" "$M" stats 0
	cache_is "mock: stats, awb, nothing written: the lines" "$(printf '%s\n' "Cache:         300 read hits, 100 misses (75.0 % hits), 2 MiB held (io policy direct: only writes fill it)" "  Read-ahead:  40 hits of 64 pages read ahead" "  Write-back:  0 B dirty, 0 pages written in, 0 destaged")"
	check "mock: stats, wb journalled, nothing written" 0 "Cache:         300 read hits, 100 misses (75.0 % hits), 2 MiB held (io policy direct: only writes fill it)" "" env MOCK_VRAID=three MOCK_WB=1 MOCK_JOURNAL=healthy VRAIDCTL_SYSFS="$sys" "$M" stats 0
	cache_is "mock: stats, wb journalled, nothing written: the lines" "$(printf '%s\n' "Cache:         300 read hits, 100 misses (75.0 % hits), 2 MiB held (io policy direct: only writes fill it)" "  Read-ahead:  40 hits of 64 pages read ahead" "  Write-back:  0 B dirty, 0 pages written in, 0 destaged")"
	check "mock: stats, wb without a journal, nothing written" 0 "Cache:         300 read hits, 100 misses (75.0 % hits), 2 MiB held (io policy direct: reads do not use it)" "" env MOCK_VRAID=three MOCK_WB=1 VRAIDCTL_SYSFS="$sys" "$M" stats 0
	cache_is "mock: stats, wb without a journal, nothing written: the lines" "$(printf '%s\n' "Cache:         300 read hits, 100 misses (75.0 % hits), 2 MiB held (io policy direct: reads do not use it)" "  Read-ahead:  40 hits of 64 pages read ahead")"
	out_lacks "mock: stats, wb without a journal, no write-back part" -qiF "write-back:"
	check "mock: stats, awb, read-ahead, io direct" 0 "Cache:         300 read hits, 100 misses (75.0 % hits), 2 MiB held (io policy direct: only read-ahead and writes fill it)" "" env MOCK_VRAID=three MOCK_AWB=1 MOCK_RA=1 VRAIDCTL_SYSFS="$sys" "$M" stats 0
	cache_is "mock: stats, awb, read-ahead, io direct: the lines" "$(printf '%s\n' "Cache:         300 read hits, 100 misses (75.0 % hits), 2 MiB held (io policy direct: only read-ahead and writes fill it)" "  Read-ahead:  40 hits of 64 pages read ahead" "  Write-back:  0 B dirty, 0 pages written in, 0 destaged")"
	# write-through again, after write-back: the counters are still said
	echo 512 >"$sys/block/vraid0/vraid/cache_write_pages"
	echo 512 >"$sys/block/vraid0/vraid/cache_destaged"
	check "mock: stats, wt after awb" 0 "Cache:         300 read hits, 100 misses (75.0 % hits), 2 MiB held (io policy direct: reads do not use it)" "" env MOCK_VRAID=three VRAIDCTL_SYSFS="$sys" "$M" stats 0
	cache_is "mock: stats, wt after awb: the lines" "$(printf '%s\n' "Cache:         300 read hits, 100 misses (75.0 % hits), 2 MiB held (io policy direct: reads do not use it)" "  Read-ahead:  40 hits of 64 pages read ahead" "  Write-back:  0 B dirty, 512 pages written in, 512 destaged")"
	echo 0 >"$sys/block/vraid0/vraid/cache_write_pages"
	echo 0 >"$sys/block/vraid0/vraid/cache_destaged"
	# a module without the write-back counters (ABI 1.7): left out, null
	mkdir -p "$tmp/sysnowb/block" && cp -r "$sys/class" "$tmp/sysnowb/" &&
		cp -r "$sys/block/vraid1" "$tmp/sysnowb/block/" &&
		rm "$tmp/sysnowb/block/vraid1/vraid/cache_dirty_bytes" \
		   "$tmp/sysnowb/block/vraid1/vraid/cache_write_pages" \
		   "$tmp/sysnowb/block/vraid1/vraid/cache_destaged"
	check "mock: stats, no write-back counters" 0 "Cache:         300 read hits, 100 misses (75.0 % hits), 2 MiB held" "" env MOCK_VRAID=three VRAIDCTL_SYSFS="$tmp/sysnowb" "$M" stats 1
	cache_is "mock: stats, no write-back counters: the lines" "$(printf '%s\n' "Cache:         300 read hits, 100 misses (75.0 % hits), 2 MiB held" "  Read-ahead:  40 hits of 64 pages read ahead")"
	out_lacks "mock: stats, no write-back counters, no write-back" -qi "write-back"
	check "mock: stats --json, no write-back counters" 0 '"ra_hits":40,"ra_pages":64,"dirty_bytes":null,"write_pages":null,"destaged_pages":null,"journal_writes":null,"journal_pages":null,"journal_refs":null,"fill_pages":null,"dirty_waits":null,"journal_waits":null},"members"' "" env MOCK_VRAID=three VRAIDCTL_SYSFS="$tmp/sysnowb" "$M" stats 1 --json
	check "mock: stats --watch --json, no write-back counters" 0 '"ra_pages_per_s":0.0,"dirty_bytes":null,"write_pages_per_s":null,"destaged_pages_per_s":null,"journal_writes_per_s":null,"journal_pages_per_s":null,"journal_refs_per_s":null,"fill_pages_per_s":null,"dirty_waits_per_s":null,"journal_waits_per_s":null},"members"' "" env MOCK_VRAID=three VRAIDCTL_SYSFS="$tmp/sysnowb" "$M" stats 1 --watch --interval 0.1 --count 1 --json
	echo 5 >"$tmp/sysnowb/block/vraid1/vraid/cache_write_pages"
	check "mock: stats, one write-back counter" 0 "Cache:         300 read hits, 100 misses (75.0 % hits), 2 MiB held" "" env MOCK_VRAID=three VRAIDCTL_SYSFS="$tmp/sysnowb" "$M" stats 1
	cache_is "mock: stats, one write-back counter: the lines" "$(printf '%s\n' "Cache:         300 read hits, 100 misses (75.0 % hits), 2 MiB held" "  Read-ahead:  40 hits of 64 pages read ahead")"
	out_lacks "mock: stats, one write-back counter, left out" -qi "write-back"
	# a module without the read-ahead counters (ABI 1.6): they are left out
	mkdir -p "$tmp/sysnora/block/vraid0" && cp -r "$sys/class" "$tmp/sysnora/" &&
		cp -r "$sys/block/vraid0/vraid" "$tmp/sysnora/block/vraid0/" &&
		rm "$tmp/sysnora/block/vraid0/vraid/cache_ra_hits" "$tmp/sysnora/block/vraid0/vraid/cache_ra_pages" \
		   "$tmp/sysnora/block/vraid0/vraid/cache_dirty_bytes" "$tmp/sysnora/block/vraid0/vraid/cache_write_pages" \
		   "$tmp/sysnora/block/vraid0/vraid/cache_destaged"
	check "mock: stats, no read-ahead counters" 0 "" "" env MOCK_VRAID=three VRAIDCTL_SYSFS="$tmp/sysnora" "$M" stats 0
	out_has "mock: stats, no read-ahead counters, cache line" -qxF "Cache:         300 read hits, 100 misses (75.0 % hits), 2 MiB held (io policy direct: reads do not use it)"
	out_lacks "mock: stats, no read-ahead counters, no read-ahead" -qi "read-ahead"
	check "mock: stats --json, no read-ahead counters" 0 '"read_repairs":2,"cache":{"read_hits":300,"read_misses":100,"cached_bytes":2097152,"ra_hits":null,"ra_pages":null,"dirty_bytes":null,"write_pages":null,"destaged_pages":null,"journal_writes":null,"journal_pages":null,"journal_refs":null,"fill_pages":null,"dirty_waits":null,"journal_waits":null},"members"' "" env MOCK_VRAID=three VRAIDCTL_SYSFS="$tmp/sysnora" "$M" stats 0 --json
	cp "$tmp/out" "$tmp/stats-nora.json"
	check "mock: stats --watch --json, no read-ahead counters" 0 '"cache":{"read_hits_per_s":0.0,"read_misses_per_s":0.0,"cached_bytes":2097152,"ra_hits_per_s":null,"ra_pages_per_s":null,"dirty_bytes":null,"write_pages_per_s":null,"destaged_pages_per_s":null,"journal_writes_per_s":null,"journal_pages_per_s":null,"journal_refs_per_s":null,"fill_pages_per_s":null,"dirty_waits_per_s":null,"journal_waits_per_s":null},"members"' "" env MOCK_VRAID=three VRAIDCTL_SYSFS="$tmp/sysnora" "$M" stats 0 --watch --interval 0.1 --count 1 --json
	echo 5 >"$tmp/sysnora/block/vraid0/vraid/cache_ra_hits"
	check "mock: stats, one read-ahead counter" 0 "Cache:         300 read hits, 100 misses (75.0 % hits), 2 MiB held" "" env MOCK_VRAID=three VRAIDCTL_SYSFS="$tmp/sysnora" "$M" stats 0
	out_lacks "mock: stats, one read-ahead counter, left out" -qi "read-ahead"
	# a module without the cache counters: the cache is null
	mkdir -p "$tmp/sys0/block/vraid0" && cp -r "$sys/class" "$tmp/sys0/" &&
		cp -r "$sys/block/vraid0/vraid" "$tmp/sys0/block/vraid0/" &&
		rm "$tmp/sys0/block/vraid0/vraid/cache_bytes"
	check "mock: stats --json, no cache counters" 0 '"read_repairs":2,"cache":null,"members"' "" env MOCK_VRAID=three VRAIDCTL_SYSFS="$tmp/sys0" "$M" stats 0 --json
	check "mock: stats, no cache counters" 0 "Cache:         none: this module has no cache counters" "" env MOCK_VRAID=three VRAIDCTL_SYSFS="$tmp/sys0" "$M" stats 0
	out_lacks "mock: stats, no cache counters, no read-ahead" -qi "read-ahead"
	check "mock: stats, no sysfs" 1 "" "cannot read the counters of vraid0 under $tmp/nosys/block/vraid0" env MOCK_VRAID=three VRAIDCTL_SYSFS="$tmp/nosys" "$M" stats 0
	if grep -qF "hint: stats needs sysfs mounted at /sys" "$tmp/err"; then
		say_ok "mock: stats, no sysfs: hint"
	else
		say_not_ok "mock: stats, no sysfs: hint"
	fi
	check "mock: stats no such VD" 1 "" "vraid9: no virtual drive" env MOCK_VRAID=three VRAIDCTL_SYSFS="$sys" "$M" stats 9

	# stats --prometheus: every VD (and the controller), or those named;
	# the VDs' sysfs as above, vraid3 and vraid7 with vraid0's counters
	psys=$tmp/sysprom
	rm -rf "$psys" && cp -r "$sys" "$psys"
	for x in 3 7; do
		mkdir -p "$psys/block/vraid$x" "$psys/class/block/vraid$x" &&
			cp -r "$sys/block/vraid0/vraid" "$psys/block/vraid$x/" &&
			cp "$sys/class/block/vraid0/stat" "$psys/class/block/vraid$x/stat"
	done
	# vraid0's first member holds metadata (its UUID); no other member
	# device is opened (MOCK_DEVDIR_ONLY)
	pdev=$tmp/promdev
	mkdir -p "$pdev" && rm -f "$pdev/nvme0n1" && truncate -s 64M "$pdev/nvme0n1" &&
		"$tmp/$variant/mkmd" "$pdev/nvme0n1" 0 2 5 fast 0a0b0c0d-1111-2222-3333-444455556666 0
	penv="MOCK_VRAID=three VRAIDCTL_SYSFS=$psys MOCK_DEVDIR=$pdev MOCK_DEVDIR_ONLY=1"
	# shellcheck disable=SC2086 # $penv: the environment's words
	check "mock: stats --prometheus" 0 "# TYPE vraid_vd_write_bytes_total counter" "" env $penv "$M" stats --prometheus
	cp "$tmp/out" "$tmp/prom-all.txt"
	l0='vd="vraid0",name="fast",uuid="0a0b0c0d-1111-2222-3333-444455556666"'
	out_has "mock: stats --prometheus, VD bytes written, with the UUID" -qxF "vraid_vd_write_bytes_total{$l0} 4194304"
	out_has "mock: stats --prometheus, VD reads" -qxF "vraid_vd_reads_total{$l0} 100"
	out_has "mock: stats --prometheus, flushes" -qxF "vraid_vd_flushes_total{$l0} 7"
	out_has "mock: stats --prometheus, info" -qxF "vraid_vd_info{$l0,level=\"raid0\"} 1"
	out_has "mock: stats --prometheus, state 1" -qxF "vraid_vd_state{$l0,state=\"optimal\"} 1"
	out_has "mock: stats --prometheus, other states 0" -qxF "vraid_vd_state{$l0,state=\"degraded\"} 0"
	out_has "mock: stats --prometheus, offline VD" -qxF "vraid_vd_state{vd=\"vraid3\",name=\"$(printf '%032d' 0 | tr 0 x)\",state=\"offline\"} 1"
	out_has "mock: stats --prometheus, odd name escaped, no UUID" -qxF 'vraid_vd_size_bytes{vd="vraid1",name="we\"ird\\name?é?"} 805306368'
	out_has "mock: stats --prometheus, member I/Os" -qxF "vraid_member_writes_total{$l0,member=\"0\",device=\"nvme0n1\"} 2000"
	out_has "mock: stats --prometheus, member bytes" -qxF "vraid_member_read_bytes_total{$l0,member=\"0\",device=\"nvme0n1\"} 524288"
	out_has "mock: stats --prometheus, member errors" -qxF 'vraid_member_errors_total{vd="vraid1",name="we\"ird\\name?é?",member="2",device="sdc1"} 3'
	# (vraid7's first member is nvme0n1 too: the same UUID)
	out_has "mock: stats --prometheus, failed member" -qxF 'vraid_member_state{vd="vraid7",name="",uuid="0a0b0c0d-1111-2222-3333-444455556666",member="5",device="nvme5n1",state="failed"} 1'
	out_has "mock: stats --prometheus, missing member, no device" -qxF "vraid_member_state{vd=\"vraid3\",name=\"$(printf '%032d' 0 | tr 0 x)\",member=\"0\",device=\"\",state=\"missing\"} 1"
	out_lacks "mock: stats --prometheus, no member bytes without the device's counters" -qF 'vraid_member_read_bytes_total{vd="vraid7",name="",member="2"'
	out_has "mock: stats --prometheus, job" -qxF 'vraid_vd_job{vd="vraid1",name="we\"ird\\name?é?",job="rebuild"} 1'
	out_lacks "mock: stats --prometheus, no job none" -qF 'job="none"'
	out_has "mock: stats --prometheus, job progress" -qxF 'vraid_vd_job_progress_ratio{vd="vraid1",name="we\"ird\\name?é?"} 0.25'
	out_has "mock: stats --prometheus, job ETA" -qxF 'vraid_vd_job_eta_seconds{vd="vraid1",name="we\"ird\\name?é?"} 80'
	out_has "mock: stats --prometheus, no job: progress 0" -qxF "vraid_vd_job_progress_ratio{$l0} 0"
	out_has "mock: stats --prometheus, write mode" -qxF 'vraid_vd_write_mode{vd="vraid1",name="we\"ird\\name?é?",mode="write_back_volatile"} 1'
	out_has "mock: stats --prometheus, cache hits in bytes" -qxF "vraid_vd_cache_read_hit_bytes_total{$l0} 1228800"
	out_has "mock: stats --prometheus, destaged bytes" -qxF 'vraid_vd_cache_destaged_bytes_total{vd="vraid1",name="we\"ird\\name?é?"} 1146880'
	out_has "mock: stats --prometheus, dirty bytes" -qxF 'vraid_vd_cache_dirty_bytes{vd="vraid1",name="we\"ird\\name?é?"} 1572864'
	out_lacks "mock: stats --prometheus, no journal counters without them" -qF "vraid_vd_journal_writes_total"
	out_has "mock: stats --prometheus, controller cache" -qxF "vraid_controller_cache_size_bytes 134217728"
	out_has "mock: stats --prometheus, no journal" -qxF 'vraid_journal_state{state="none"} 1'
	out_lacks "mock: stats --prometheus, no journal size without one" -qF "vraid_journal_size_bytes"
	[ -s "$tmp/err" ] && say_not_ok "mock: stats --prometheus, stderr empty: $(cat "$tmp/err")" ||
		say_ok "mock: stats --prometheus, stderr empty"
	# a journal, and a VD that logs to it (vraid1: wb, healthy journal)
	cp -r "$tmp/sysj/block/vraid1/vraid/." "$psys/block/vraid1/vraid/"
	echo 3 >"$psys/block/vraid1/vraid/journal_waits"
	echo 250 >"$psys/block/vraid1/vraid/journal_refs"
	echo 9 >"$psys/block/vraid1/vraid/cache_fill_pages"
	# shellcheck disable=SC2086
	check "mock: stats --prometheus, journal" 0 'vraid_journal_state{state="healthy"} 1' "" env $penv MOCK_WB=1 MOCK_JOURNAL=healthy "$M" stats --prometheus
	cp "$tmp/out" "$tmp/prom-journal.txt"
	out_has "mock: stats --prometheus, journal size" -qx "vraid_journal_size_bytes [1-9][0-9]*"
	out_has "mock: stats --prometheus, VD's journal writes" -qxF 'vraid_vd_journal_writes_total{vd="vraid1",name="we\"ird\\name?é?"} 300'
	out_has "mock: stats --prometheus, VD's journal waits" -qxF 'vraid_vd_journal_waits_total{vd="vraid1",name="we\"ird\\name?é?"} 3'
	out_has "mock: stats --prometheus, journal refs in bytes" -qxF 'vraid_vd_journal_referenced_bytes_total{vd="vraid1",name="we\"ird\\name?é?"} 1024000'
	out_has "mock: stats --prometheus, row fill reads in bytes" -qxF 'vraid_vd_cache_fill_read_bytes_total{vd="vraid1",name="we\"ird\\name?é?"} 36864'
	out_has "mock: stats --prometheus, journalled write-back" -qxF 'vraid_vd_write_mode{vd="vraid1",name="we\"ird\\name?é?",mode="write_back"} 1'
	# the VDs named: theirs only, once each, and no controller
	# shellcheck disable=SC2086
	check "mock: stats --prometheus VD" 0 "vraid_vd_reads_total{$l0} 100" "" env $penv "$M" stats --prometheus fast vraid0 0
	cp "$tmp/out" "$tmp/prom-one.txt"
	out_lacks "mock: stats --prometheus VD, no other VD" -qF 'vd="vraid1"'
	out_lacks "mock: stats --prometheus VD, no controller" -qF "vraid_controller_"
	[ "$(grep -c '^vraid_vd_reads_total' "$tmp/out")" = 1 ] && say_ok "mock: stats --prometheus VD named thrice, said once" ||
		say_not_ok "mock: stats --prometheus VD named thrice, said once: $(grep '^vraid_vd_reads_total' "$tmp/out")"
	# shellcheck disable=SC2086
	check "mock: stats --prometheus, no such VD" 1 "" "nosuch: no such virtual drive" env $penv "$M" stats --prometheus nosuch
	check "mock: stats --prometheus, no VDs" 0 "vraid_controller_cache_size_bytes 134217728" "" env MOCK_VRAID=none "$M" stats --prometheus
	out_lacks "mock: stats --prometheus, no VDs, no VD series" -q "^vraid_vd_\|^# TYPE vraid_vd_"
	# standard output that cannot be written (a full disk): exit 1, so
	# that "> F.$$ && mv F.$$ F" renames nothing
	# shellcheck disable=SC2016 # $1 is expanded by the inner sh
	check "mock: stats --prometheus > /dev/full" 1 "" "cannot write the output" sh -c 'MOCK_VRAID=none "$1" stats --prometheus >/dev/full' sh "$M"
	check "mock: stats --prometheus, no sysfs" 1 "" "cannot read the counters of vraid0" env MOCK_VRAID=three VRAIDCTL_SYSFS="$tmp/nosys" "$M" stats --prometheus
	# --output: the file whole, readable by the collector, no temporary left
	pd=$tmp/textfile
	rm -rf "$pd" && mkdir -p "$pd"
	# shellcheck disable=SC2086
	check "mock: stats --prometheus --output" 0 "" "" env $penv "$M" stats --prometheus --output "$pd/vraid.prom"
	out_is "mock: stats --prometheus --output, nothing on stdout" ""
	# shellcheck disable=SC2086
	env $penv "$M" stats --prometheus >"$tmp/prom-stdout.txt" 2>&1
	cmp -s "$pd/vraid.prom" "$tmp/prom-stdout.txt" && say_ok "mock: --output FILE holds what stdout gets" ||
		say_not_ok "mock: --output FILE holds what stdout gets"
	[ "$(ls "$pd")" = vraid.prom ] && say_ok "mock: --output leaves no temporary file" ||
		say_not_ok "mock: --output leaves no temporary file: $(ls "$pd")"
	[ "$(umask 022 && env $penv "$M" stats --prometheus --output "$pd/m.prom" && stat -c %a "$pd/m.prom")" = 644 ] &&
		say_ok "mock: --output FILE is 0644 under umask 022" ||
		say_not_ok "mock: --output FILE is 0644 under umask 022: $(stat -c %a "$pd/m.prom")"
	rm -f "$pd/m.prom"
	ino=$(stat -c %i "$pd/vraid.prom")
	# shellcheck disable=SC2086
	check "mock: stats --prometheus --output=FILE again" 0 "" "" env $penv "$M" stats --prometheus --output="$pd/vraid.prom"
	[ "$(stat -c %i "$pd/vraid.prom")" != "$ino" ] && say_ok "mock: --output replaces the file (rename), does not rewrite it" ||
		say_not_ok "mock: --output replaces the file (rename), does not rewrite it"
	cp "$pd/vraid.prom" "$tmp/prom-before"
	check "mock: --output, a failure leaves the file" 1 "" "cannot read the counters" env MOCK_VRAID=three VRAIDCTL_SYSFS="$tmp/nosys" "$M" stats --prometheus --output "$pd/vraid.prom"
	cmp -s "$pd/vraid.prom" "$tmp/prom-before" && [ "$(ls "$pd")" = vraid.prom ] &&
		say_ok "mock: --output, a failure leaves the file as it was" ||
		say_not_ok "mock: --output, a failure leaves the file as it was: $(ls "$pd")"
	check "mock: --output, no such directory" 1 "" "stats: cannot create a temporary file next to $tmp/nodir/vraid.prom" env MOCK_VRAID=none "$M" stats --prometheus --output "$tmp/nodir/vraid.prom"
	[ -e "$tmp/nodir" ] && say_not_ok "mock: --output, no such directory: nothing made" || say_ok "mock: --output, no such directory: nothing made"
	check "mock: --output, not *.prom: said, written" 0 "" "node_exporter's textfile collector reads only files named *.prom: $pd/vraid.txt is not one" env MOCK_VRAID=none "$M" stats --prometheus --output "$pd/vraid.txt"
	[ -s "$pd/vraid.txt" ] && say_ok "mock: --output, not *.prom: written" || say_not_ok "mock: --output, not *.prom: written"
	# bad combinations
	check "stats --prometheus --json" 2 "" "--prometheus does not go with --json" "$V" stats --prometheus --json
	check "stats --prometheus --watch" 2 "" "--prometheus does not go with --watch" "$V" stats vraid0 --watch --prometheus
	check "stats --prometheus --interval" 2 "" "--interval goes with --watch, not --prometheus" "$V" stats --prometheus --interval 1
	check "stats --output without --prometheus" 2 "" "--output goes with --prometheus" "$V" stats vraid0 --output /tmp/x.prom
	check "stats --prometheus --output ''" 2 "" "invalid --output '': name a file" "$V" stats --prometheus --output ''
	check "stats --prometheus --output DIR/" 2 "" "invalid --output '/tmp/': name a file" "$V" stats --prometheus --output /tmp/
	check "stats --prometheus --output twice" 2 "" "--output given twice" "$V" stats --prometheus --output a.prom --output b.prom
	check "stats --prometheus --output, no value" 2 "" "--output needs a value" "$V" stats --prometheus --output
	# every family said is in admin-guide.rst's list ("Metrics")
	undoc=
	for f in $(sed -n 's/^# TYPE \([a-z_]*\) .*/\1/p' "$tmp/prom-all.txt" "$tmp/prom-journal.txt" | sort -u); do
		grep -qF "\`\`$f\`\`" "$root/Documentation/admin-guide.rst" ||
			grep -qF "\`\`$f{" "$root/Documentation/admin-guide.rst" || undoc="$undoc $f"
	done
	[ -z "$undoc" ] && say_ok "mock: stats --prometheus, every family documented" ||
		say_not_ok "mock: stats --prometheus, families not in admin-guide.rst \"Metrics\":$undoc"
	# the format: every sample of a family declared by # TYPE (HELP too),
	# a family's samples together, no series twice, labels well escaped,
	# counters named *_total and never negative
	if command -v python3 >/dev/null 2>&1; then
		check "mock: stats --prometheus, exposition format" 0 "format ok" "" python3 - "$tmp/prom-all.txt" "$tmp/prom-journal.txt" "$tmp/prom-one.txt" "$pd/vraid.prom" <<'PYEOF'
import re, sys
name_re = r'[a-zA-Z_:][a-zA-Z0-9_:]*'
lab_re = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"')
for path in sys.argv[1:]:
    types, helps, done, seen = {}, {}, set(), set()
    cur = None
    for n, line in enumerate(open(path, encoding="utf-8"), 1):
        line = line.rstrip("\n")
        where = "%s:%d: %r" % (path, n, line)
        m = re.fullmatch(r'# (HELP|TYPE) (' + name_re + r') (.+)', line)
        if m:
            kind, fam, rest = m.groups()
            d = helps if kind == "HELP" else types
            assert fam not in d, "second " + kind + " " + where
            d[fam] = rest
            if kind == "TYPE":
                assert rest in ("counter", "gauge"), where
                assert fam in helps, "TYPE before HELP " + where
                assert fam not in done, "family split " + where
                if cur:
                    done.add(cur)
                cur = fam
                assert fam.startswith("vraid_"), where
                assert (rest == "counter") == fam.endswith("_total"), where
            continue
        assert not line.startswith("#") and line, where
        m = re.fullmatch(r'(' + name_re + r')(?:\{(.*)\})? (\S+)', line)
        assert m, "not a sample " + where
        fam, labels, value = m.groups()
        assert fam == cur, "sample outside its family's block " + where
        v = float(value)
        assert v >= 0, where
        if types[fam] == "counter":
            assert v == int(v), where
        pairs = []
        rest = labels or ""
        while rest:
            lm = lab_re.match(rest)
            assert lm, "bad labels " + where
            pairs.append(lm.groups())
            rest = rest[lm.end():]
            if rest:
                assert rest[0] == ",", "bad labels " + where
                rest = rest[1:]
        keys = [k for k, _ in pairs]
        assert len(keys) == len(set(keys)), "label twice " + where
        if fam.startswith("vraid_vd_") or fam.startswith("vraid_member_"):
            assert keys[:2] == ["vd", "name"], where
        if fam.startswith("vraid_member_"):
            assert "member" in keys and "device" in keys, where
        series = (fam, tuple(sorted(pairs)))
        assert series not in seen, "series twice " + where
        seen.add(series)
    assert set(types) == set(helps), path
    assert seen, path
print("format ok")
PYEOF
	else
		say_skip "mock: stats --prometheus, exposition format" "no python3"
	fi
	if command -v python3 >/dev/null 2>&1; then
		check "mock: JSON parses, schema" 0 "json ok" "" python3 - "$tmp" <<'EOF'
import json, sys
d = sys.argv[1]
lst = json.load(open(d + "/list.json"))
assert list(lst) == ["vds"]
keys = ["vd", "index", "name", "level", "state", "size_bytes", "strip_bytes", "members",
        "job", "job_percent"]
for v in lst["vds"]:
    assert list(v) == keys, list(v)
assert [v["vd"] for v in lst["vds"]] == ["vraid0", "vraid1", "vraid3", "vraid7"]
assert lst["vds"][1]["name"] == 'we"ird\\name\x01\u00e9\u00ff', repr(lst["vds"][1]["name"])
assert lst["vds"][2]["name"] == "x" * 32
skeys = ["vd", "index", "device", "name", "level", "state", "size_bytes",
         "strip_bytes", "spans", "full_stripe_bytes", "data_offset_bytes",
         "member_data_bytes", "logical_block_size", "open_count", "policies",
         "members", "job", "last_job", "write_in_effect", "uuid"]
jkeys = ["type", "state", "done_bytes", "total_bytes", "percent", "eta_seconds",
         "rate_kib", "mismatches"]
lkeys = ["type", "result", "mismatches", "outcome", "error"]
mkeys = ["role", "device", "major", "minor", "state", "size_bytes",
         "data_bytes", "read_ios", "write_ios", "errors", "model", "serial"]
st = json.load(open(d + "/stats.json"))
assert list(st) == ["vd", "index", "level", "state", "reads", "read_bytes", "writes",
                    "write_bytes", "flushes", "in_flight", "read_repairs", "cache",
                    "members"], list(st)
assert st["cache"] == {"read_hits": 300, "read_misses": 100, "cached_bytes": 2097152,
                       "ra_hits": 40, "ra_pages": 64, "dirty_bytes": 0,
                       "write_pages": 0, "destaged_pages": 0,
                       "journal_writes": None, "journal_pages": None,
                       "journal_refs": None, "fill_pages": None, "dirty_waits": None,
                       "journal_waits": None}, st["cache"]
sa = json.load(open(d + "/stats-awb.json"))
assert list(sa) == list(st), list(sa)
assert sa["cache"] == {"read_hits": 300, "read_misses": 100, "cached_bytes": 2097152,
                       "ra_hits": 40, "ra_pages": 64, "dirty_bytes": 1572864,
                       "write_pages": 300, "destaged_pages": 280,
                       "journal_writes": None, "journal_pages": None,
                       "journal_refs": None, "fill_pages": None, "dirty_waits": None,
                       "journal_waits": None}, sa["cache"]
sn = json.load(open(d + "/stats-nora.json"))
assert sn["cache"] == {"read_hits": 300, "read_misses": 100, "cached_bytes": 2097152,
                       "ra_hits": None, "ra_pages": None, "dirty_bytes": None,
                       "write_pages": None, "destaged_pages": None,
                       "journal_writes": None, "journal_pages": None,
                       "journal_refs": None, "fill_pages": None, "dirty_waits": None,
                       "journal_waits": None}, sn["cache"]
assert len(st["members"]) == 2
assert list(st["members"][0]) == ["role", "device", "state", "reads", "writes",
                                  "read_bytes", "write_bytes", "errors"]
sw = json.load(open(d + "/stats-watch.json"))
assert list(sw) == ["vd", "time", "interval", "state", "reads_per_s", "writes_per_s",
                    "read_bytes_per_s", "write_bytes_per_s", "flushes_per_s",
                    "in_flight", "read_repairs", "cache", "members"], list(sw)
assert sw["cache"] == {"read_hits_per_s": 0.0, "read_misses_per_s": 0.0,
                       "cached_bytes": 2097152, "ra_hits_per_s": 0.0,
                       "ra_pages_per_s": 0.0, "dirty_bytes": 0,
                       "write_pages_per_s": 0.0,
                       "destaged_pages_per_s": 0.0,
                       "journal_writes_per_s": None, "journal_pages_per_s": None,
                       "journal_refs_per_s": None,
                       "fill_pages_per_s": None,
                       "dirty_waits_per_s": None,
                       "journal_waits_per_s": None}, sw["cache"]
assert list(sw["members"][0]) == ["role", "device", "state", "reads_per_s",
                                  "writes_per_s", "read_bytes_per_s",
                                  "write_bytes_per_s", "errors"]
for f in ("show0", "show1", "show3", "show7"):
    s = json.load(open(d + "/" + f + ".json"))
    assert list(s) == skeys, (f, list(s))
    assert list(s["policies"]) == ["access", "disk_cache", "io", "read", "write"]
    for m in s["members"]:
        assert list(m) == mkeys, (f, list(m))
    assert list(s["job"]) == jkeys, (f, list(s["job"]))
    assert list(s["last_job"]) == lkeys, (f, list(s["last_job"]))
s = json.load(open(d + "/show7.json"))
assert s["level"] == "raid60" and s["spans"] == 2 and s["state"] == "degraded"
assert s["full_stripe_bytes"] == 131072 * 4
assert [m["state"] for m in s["members"]].count("failed") == 1
s = json.load(open(d + "/show1.json"))
assert s["full_stripe_bytes"] == 65536 * 2 and s["members"][2]["errors"] == 3
assert s["job"] == {"type": "rebuild", "state": "running", "done_bytes": 100663296,
                    "total_bytes": 402653184, "percent": 25.0, "eta_seconds": 80,
                    "rate_kib": 0, "mismatches": 0}, s["job"]
assert s["last_job"] == {"type": "init", "result": 0, "mismatches": 0, "outcome": "done", "error": None}
assert s["policies"]["write"] == "always_write_back"
assert s["write_in_effect"] == {"mode": "write_back_volatile", "why": ""}, s["write_in_effect"]
assert s["uuid"] is None
assert [(m["model"], m["serial"]) for m in s["members"]] == [
    ("QEMU HARDDISK", "QM00001"), ("QEMU HARDDISK", None),
    ("QEMU HARDDISK", "ZC1234AB")], s["members"]
s = json.load(open(d + "/show3.json"))
assert s["members"][0]["model"] is None and s["members"][0]["serial"] is None
s = json.load(open(d + "/show0.json"))
assert s["uuid"] == "3a577491-aecb-e805-223f-5c7996b3d0ed"
assert s["members"][1]["model"] == "Samsung SSD 980 PRO 1TB"
assert s["job"]["type"] == "none" and s["job"]["state"] == "none"
assert s["last_job"]["type"] == "none"
assert s["write_in_effect"] == {"mode": "write_through", "why": ""}
assert lst["vds"][1]["job"] == "rebuild" and lst["vds"][1]["job_percent"] == 25.0
assert lst["vds"][0]["job"] == "none" and lst["vds"][0]["job_percent"] == 0
sp = json.load(open(d + "/spares.json"))
assert list(sp) == ["spares"]
for x in sp["spares"]:
    assert list(x) == ["device", "major", "minor", "size_bytes", "vd", "vd_uuid"], list(x)
assert [x["vd"] for x in sp["spares"]] == ["", "vraid1"]
assert json.load(open(d + "/spares-none.json")) == {"spares": []}
for f in ("jobs1", "jobs5"):
    s = json.load(open(d + "/" + f + ".json"))
    assert list(s) == skeys, (f, list(s))
    assert list(s["job"]) == jkeys and list(s["last_job"]) == lkeys
s = json.load(open(d + "/jobs1.json"))
assert s["job"]["state"] == "paused" and s["job"]["percent"] == 50.0
assert s["job"]["rate_kib"] == 51200 and s["job"]["mismatches"] == 2
s = json.load(open(d + "/jobs5.json"))
assert s["job"]["type"] == "none" and s["last_job"] == {"type": "rebuild", "result": 5, "mismatches": 0, "outcome": "failed", "error": "EIO"}
print("json ok")
EOF
	else
		say_skip "mock: JSON parses, schema" "no python3"
	fi

	rm -f "$tmp/log"
	if [ -n "$blk0" ]; then
		check "mock: create prints the name" 0 "vraid4" "" env MOCK_VRAID=none "$M" create --level 0 --strip 128K --name scratch "$blk0" "$blk1"
		expect_log "mock: create request" "create level=0 strip=131072 nr=2 spans=0 name=scratch members=7:0,7:1 init=0 access=0 dcache=0 io=0 read=0 write=0"
		for s in 64K:65536 64k:65536 64KiB:65536 1M:1048576 1MiB:1048576 65536:65536 4096:4096 4k:4096; do
			check "mock: create --strip ${s%%:*}" 0 "vraid4" "" env MOCK_VRAID=none "$M" create --level=0 --strip="${s%%:*}" "$blk0" "$blk1"
			expect_log "mock: create --strip ${s%%:*} sends ${s#*:}" "create level=0 strip=${s#*:} nr=2 spans=0 name= members=7:0,7:1 init=0 access=0 dcache=0 io=0 read=0 write=0"
		done
		check "mock: create jbod" 0 "vraid4" "" env MOCK_VRAID=none "$M" create --level JBOD "$blk0"
		expect_log "mock: create jbod request" "create level=255 strip=0 nr=1 spans=0 name= members=7:0 init=0 access=0 dcache=0 io=0 read=0 write=0"
		check "mock: create raid60" 0 "vraid4" "" env MOCK_VRAID=none "$M" create --level raid60 --spans 2 --name x.y_z-1 "$blk0" "$blk1" "$blk2" "$blk3"
		expect_log "mock: create raid60 request" "create level=60 strip=0 nr=4 spans=2 name=x.y_z-1 members=7:0,7:1,7:2,7:3 init=1 access=0 dcache=0 io=0 read=0 write=0"
		check "mock: create options after DEVs" 0 "vraid4" "" env MOCK_VRAID=none "$M" create "$blk1" "$blk0" --level 1
		expect_log "mock: create member order" "create level=1 strip=0 nr=2 spans=0 name= members=7:1,7:0 init=1 access=0 dcache=0 io=0 read=0 write=0"
		check "mock: create EOPNOTSUPP" 1 "" "vraidctl: create: RAID5 is not supported yet (EOPNOTSUPP: Operation not supported)" env MOCK_FAIL="create:EOPNOTSUPP:RAID5 is not supported yet" "$M" create --level 5 "$blk0" "$blk1" "$blk2"
		check "mock: create EBUSY" 1 "" "a member is in use: mounted, in an md array, or in another virtual drive" env MOCK_FAIL="create:EBUSY:member 7:1 is in use" "$M" create --level 0 "$blk0" "$blk1"
		check "mock: create EBUSY message, the member as typed" 1 "" "create: member $blk1 is in use (EBUSY: Device or resource busy)" env MOCK_FAIL="create:EBUSY:member 7:1 is in use" "$M" create --level 0 "$blk0" "$blk1"
		check "mock: create EEXIST" 1 "" "choose another --name" env MOCK_FAIL="create:EEXIST:name scratch is taken" "$M" create --level 0 --name scratch "$blk0" "$blk1"
		check "mock: create EPERM" 1 "" "run as root" env MOCK_FAIL="create:EPERM:changing virtual drives needs CAP_SYS_ADMIN (run as root)" "$M" create --level 0 "$blk0" "$blk1"
	else
		say_skip "mock: create" "no block device node"
	fi
	check "mock: list EPERM" 1 "" "vraidctl: hint: run as root" env MOCK_FAIL="any:EPERM:not allowed" "$M" list
	check "mock: list EPERM, no reply" 1 "" "vraidctl: list: Operation not permitted (EPERM)" env MOCK_FAIL="any:EPERM:-" "$M" list
	check "mock: list EPROTO" 1 "" "module and tool versions differ (module ABI 2.0, vraidctl ABI $abi)" env MOCK_FAIL="any:EPROTO:ABI version 1.0 not supported" "$M" list
	check "mock: version" 0 "module ABI: $abi" "" env MOCK_VRAID=none "$M" version
	check "mock: version EPROTO" 0 "module ABI: 2.0 (differs from vraidctl's" "" env MOCK_FAIL="any:EPROTO:x" "$M" version
	rm -f "$tmp/log"
	check "mock: delete by name" 0 "" "" env MOCK_VRAID=three "$M" delete fast --force
	expect_log "mock: delete by name request" "delete index=0 flags=2"
	check "mock: delete /dev/vraid7" 0 "" "" env MOCK_VRAID=three "$M" delete --force /dev/vraid7
	expect_log "mock: delete /dev/vraid7 request" "delete index=7 flags=2"
	check "mock: delete 3" 0 "" "" env MOCK_VRAID=three "$M" delete 3 --force
	expect_log "mock: delete 3 request" "delete index=3 flags=2"
	check "mock: delete missing" 1 "" "delete vraid9: no virtual drive (ENOENT" env MOCK_VRAID=three "$M" delete vraid9 --force
	check "mock: delete missing hint" 1 "" "no such virtual drive (see \`vraidctl list\`)" env MOCK_VRAID=three "$M" delete vraid9
	check "mock: delete EBUSY" 1 "" "the virtual drive is in use: unmount it" env MOCK_VRAID=three MOCK_FAIL="delete:EBUSY:vraid0 is open" "$M" delete vraid0 --force

	# create --init
	rm -f "$tmp/log"
	if [ -n "$blk0" ]; then
		check "mock: create raid5, default init" 0 "vraid4" "vraid4: initialising in the background; follow with: vraidctl show vraid4" env MOCK_VRAID=none "$M" create --level 5 "$blk0" "$blk1" "$blk2"
		expect_log "mock: create raid5 sends init=1" "create level=5 strip=0 nr=3 spans=0 name= members=7:0,7:1,7:2 init=1 access=0 dcache=0 io=0 read=0 write=0"
		if [ "$(cat "$tmp/out")" = vraid4 ]; then say_ok "mock: create stdout is the name alone"; else say_not_ok "mock: create stdout is the name alone (got '$(cat "$tmp/out")')"; fi
		check "mock: create --init fast" 0 "vraid4" "vraid4: not initialised (--init fast)" env MOCK_VRAID=none "$M" create --level 1 --init fast "$blk0" "$blk1"
		expect_log "mock: create --init fast sends init=0" "create level=1 strip=0 nr=2 spans=0 name= members=7:0,7:1 init=0 access=0 dcache=0 io=0 read=0 write=0"
		check "mock: create --init Background" 0 "vraid4" "initialising in the background" env MOCK_VRAID=none "$M" create --level 6 --init Background "$blk0" "$blk1" "$blk2" "$blk3"
		expect_log "mock: create --init background sends init=1" "create level=6 strip=0 nr=4 spans=0 name= members=7:0,7:1,7:2,7:3 init=1 access=0 dcache=0 io=0 read=0 write=0"
		check "mock: create raid0 says nothing of init" 0 "vraid4" "" env MOCK_VRAID=none "$M" create --level 0 "$blk0" "$blk1"
		if [ -s "$tmp/err" ]; then say_not_ok "mock: create raid0, empty stderr"; else say_ok "mock: create raid0, empty stderr"; fi
		check "mock: create --init full" 0 "vraid4" "vraid4: init done" env MOCK_VRAID=jobs "$M" create --level 5 --init full "$blk2" "$blk3" "$blk4"
		expect_log "mock: create --init full sends init=2" "create level=5 strip=0 nr=3 spans=0 name= members=7:2,7:3,7:4 init=2 access=0 dcache=0 io=0 read=0 write=0"
		# (vraid4 of "jobs" advances at every INFO: create's look at the running VDs asked once)
		check "mock: create --init full progress" 0 "" "vraid4: init  75.0%  [###############.....]" env MOCK_VRAID=jobs "$M" create --level 5 --init full "$blk2" "$blk3" "$blk4"
		if [ "$(cat "$tmp/out")" = vraid4 ]; then say_ok "mock: create --init full stdout is the name alone"; else say_not_ok "mock: create --init full stdout is the name alone"; fi
		check "mock: create --init full, VD gone" 1 "vraid4" "vraid4: no virtual drive" env MOCK_VRAID=none "$M" create --level 5 --init full "$blk0" "$blk1" "$blk2"
		check "mock: create --init, older module" 1 "" "the vraid module speaks ABI 1.2, which has no --init: give --init fast" env MOCK_ABI_MINOR=2 MOCK_FAIL="create:EINVAL:reserved fields are not zero" "$M" create --level 5 "$blk0" "$blk1" "$blk2"
	else
		say_skip "mock: create --init" "no block device node"
	fi

	# wait
	check "mock: wait, idle VD" 0 "vraid2: no job is running; the last one: check done, 3 mismatches" "" env MOCK_VRAID=jobs "$M" wait vraid2
	check "mock: wait, idle VD, no job ever" 0 "vraid3: no job is running" "" env MOCK_VRAID=jobs "$M" wait 3
	check "mock: wait, idle VD, last job failed" 1 "" "vraid5: no job is running; the last one: rebuild failed: Input/output error" env MOCK_VRAID=jobs "$M" wait vraid5
	check "mock: wait, idle VD, last job stopped" 1 "" "vraid10: no job is running; the last one: rebuild stopped" env MOCK_VRAID=jobs "$M" wait vraid10
	check "mock: wait, idle VD, last job stopped, hint" 1 "" "go on with: vraidctl job vraid10 resume" env MOCK_VRAID=jobs "$M" wait vraid10
	# an init stopped by a member failure: resume is refused while the VD
	# is Degraded, so the hint is the replace
	check "mock: wait, init stopped on a Degraded VD" 1 "" "vraid10: no job is running; the last one: init stopped" env MOCK_VRAID=jobs MOCK_INIT_STOPPED=degraded "$M" wait vraid10
	check "mock: wait, init stopped on a Degraded VD, hint" 1 "" "vraidctl: hint: vraid10 is Degraded: the init goes on by itself once the failed member is replaced and rebuilt: vraidctl replace vraid10 MEMBER NEWDEV (\`vraidctl show vraid10\` names it)" env MOCK_VRAID=jobs MOCK_INIT_STOPPED=degraded "$M" wait vraid10
	err_lacks "mock: wait, init stopped on a Degraded VD, no resume hint" "job vraid10 resume"
	check "mock: wait, init stopped on an Offline VD, hint" 1 "" "vraidctl: hint: vraid10 is offline: too few members are left for the init to go on" env MOCK_VRAID=jobs MOCK_INIT_STOPPED=offline "$M" wait vraid10
	check "mock: wait for a check" 0 "vraid6: check done, 3 mismatches" "" env MOCK_VRAID=jobs "$M" wait vraid6
	out_has "mock: wait shows progress" -qF "vraid6: check  50.0%  [##########..........]  192 MiB of 384 MiB per member, ETA 5s, 1 mismatch so far, rate unlimited"
	check "mock: wait for an init" 0 "vraid4: init done" "" env MOCK_VRAID=jobs "$M" wait /dev/vraid4
	lines=$(grep -c 'vraid4: init ' "$tmp/out")
	if [ "$lines" = 2 ]; then say_ok "mock: wait, no tty: one progress line per 10 s"; else say_not_ok "mock: wait, no tty: one progress line per 10 s (got $lines lines)"; fi
	check "mock: wait, job fails" 1 "" "vraid8: repair failed: Input/output error" env MOCK_VRAID=jobs "$M" wait vraid8
	check "mock: wait, job fails, hint" 1 "" "see \`vraidctl show vraid8\` and the kernel log" env MOCK_VRAID=jobs "$M" wait vraid8
	check "mock: wait --timeout, job never ends" 1 "vraid0: rebuild  25.0%" "vraid0: timed out after 1 s: the rebuild is still running (25.0%)" env MOCK_VRAID=jobs "$M" wait vraid0 --timeout 1
	check "mock: wait --timeout, paused" 1 "vraid1: check  50.0%  [##########..........]  192 MiB of 384 MiB per member, paused" "the check is still paused (50.0%)" env MOCK_VRAID=jobs "$M" wait vraid1 --timeout=0.2
	check "mock: wait --timeout 0" 1 "" "timed out after 0 s" env MOCK_VRAID=jobs "$M" wait vraid0 --timeout 0
	check "mock: wait --timeout, job ends first" 0 "vraid6: check done" "" env MOCK_VRAID=jobs "$M" wait vraid6 --timeout 30
	check "mock: wait, no such VD" 1 "" "vraid9: no virtual drive" env MOCK_VRAID=jobs "$M" wait vraid9
	if command -v script >/dev/null 2>&1 && script -qec true /dev/null >/dev/null 2>&1; then
		check "mock: wait on a tty" 0 "vraid4: init done" "" script -qec "env MOCK_VRAID=jobs '$M' wait vraid4" /dev/null
		out_has "mock: wait on a tty redraws the line" -qF "$(printf '\r')vraid4: init  75.0%"
		out_has "mock: wait on a tty clears the line" -qF "$(printf '\033[K')"
	else
		say_skip "mock: wait on a tty" "no script(1)"
	fi

	# check, init, job
	rm -f "$tmp/log"
	check "mock: check" 0 "vraid2: check started; follow with: vraidctl wait vraid2" "" env MOCK_VRAID=jobs "$M" check vraid2
	expect_log "mock: check request" "job index=2 action=1 rate=0"
	check "mock: check --repair" 0 "vraid2: repair started; follow with: vraidctl wait vraid2" "" env MOCK_VRAID=jobs "$M" check --repair 2
	expect_log "mock: check --repair request" "job index=2 action=2 rate=0"
	check "mock: init" 0 "vraid2: init started; follow with: vraidctl wait vraid2" "" env MOCK_VRAID=jobs "$M" init vraid2
	expect_log "mock: init request" "job index=2 action=3 rate=0"
	# the mock's vraid2 stays idle: a job started and found done at once
	check "mock: init --wait" 0 "vraid2: init started" "" env MOCK_VRAID=jobs "$M" init vraid2 --wait
	out_has "mock: init --wait, outcome" -qxF "vraid2: check done, 3 mismatches"
	check "mock: check --wait" 0 "vraid2: check done, 3 mismatches" "" env MOCK_VRAID=jobs "$M" check --wait vraid2
	check "mock: check on raid0" 1 "" "vraid3 is RAID0: it has no redundancy to check" env MOCK_VRAID=jobs "$M" check vraid3
	check "mock: init on raid0" 1 "" "vraid3 is RAID0: it has no redundancy to initialise" env MOCK_VRAID=jobs "$M" init vraid3
	check "mock: check while a job runs" 1 "" "vraid0: busy with a rebuild at 25.0%; one job runs at a time" env MOCK_VRAID=jobs "$M" check vraid0
	check "mock: check while paused" 1 "" "vraid1: busy with a check at 50.0% (paused)" env MOCK_VRAID=jobs "$M" check vraid1
	check "mock: check EBUSY" 1 "" "another job runs on the virtual drive" env MOCK_VRAID=jobs MOCK_FAIL="job:EBUSY:a job is running" "$M" check vraid2
	check "mock: check EBUSY message" 1 "" "vraidctl: check vraid2: a job is running (EBUSY: Device or resource busy)" env MOCK_VRAID=jobs MOCK_FAIL="job:EBUSY:a job is running" "$M" check vraid2
	check "mock: check, older module" 1 "" "the vraid module speaks ABI 1.2, older than vraidctl's $abi, and lacks this request" env MOCK_VRAID=jobs MOCK_ABI_MINOR=2 MOCK_FAIL="job:ENOTTY:unknown command 8" "$M" check vraid2
	check "mock: check, no such VD" 1 "" "vraid9: no virtual drive" env MOCK_VRAID=jobs "$M" check vraid9
	check "mock: job pause" 0 "vraid0: rebuild paused; resume it with: vraidctl job vraid0 resume" "" env MOCK_VRAID=jobs "$M" job vraid0 pause
	expect_log "mock: job pause request" "job index=0 action=4 rate=0"
	check "mock: job resume" 0 "vraid1: check resumed" "" env MOCK_VRAID=jobs "$M" job 1 resume
	expect_log "mock: job resume request" "job index=1 action=5 rate=0"
	check "mock: job stop" 0 "vraid0: rebuild stopped; go on with: vraidctl job vraid0 resume (or it goes on when the VD is next assembled)" "" env MOCK_VRAID=jobs "$M" job vraid0 stop
	expect_log "mock: job stop request" "job index=0 action=6 rate=0"
	check "mock: job stop check" 0 "vraid1: check stopped" "" env MOCK_VRAID=jobs "$M" job vraid1 stop
	check "mock: job pause, idle VD" 1 "" "vraid2: no job is running: nothing to pause" env MOCK_VRAID=jobs "$M" job vraid2 pause
	check "mock: job stop, idle VD" 1 "" "vraid3: no job is running: nothing to stop" env MOCK_VRAID=jobs "$M" job vraid3 stop
	check "mock: job resume, idle VD goes to the module" 0 "vraid10: job resumed" "" env MOCK_VRAID=jobs "$M" job vraid10 resume
	expect_log "mock: job resume, idle VD request" "job index=10 action=5 rate=0"
	check "mock: job resume, nothing to resume" 1 "" "job vraid2 resume: vraid2 has no job running (ENOENT" env MOCK_VRAID=jobs MOCK_FAIL="job:ENOENT:vraid2 has no job running" "$M" job vraid2 resume
	check "mock: job resume, nothing to resume, hint" 1 "" "resume goes on with a paused job, or with an init or rebuild that was stopped" env MOCK_VRAID=jobs MOCK_FAIL="job:ENOENT:vraid2 has no job running" "$M" job vraid2 resume
	check "mock: job pause EALREADY" 1 "" "the check of vraid1 is paused already (EALREADY" env MOCK_VRAID=jobs MOCK_FAIL="job:EALREADY:the check of vraid1 is paused already" "$M" job vraid1 pause
	for r in 50M:51200 200K:200 1G:1048576 16G:16777216 1K:1 1536:1 4MiB:4096 none:0 0:0 unlimited:0; do
		check "mock: job rate ${r%%:*}" 0 "vraid2: job rate" "" env MOCK_VRAID=jobs "$M" job vraid2 rate "${r%%:*}"
		expect_log "mock: job rate ${r%%:*} sends ${r#*:} KiB/s" "job index=2 action=7 rate=${r#*:}"
	done
	check "mock: job rate message" 0 "vraid0: job rate limit 50 MiB/s per member" "" env MOCK_VRAID=jobs "$M" job vraid0 rate 50M
	check "mock: job rate 50MiB" 0 "vraid0: job rate limit 50 MiB/s per member" "" env MOCK_VRAID=jobs "$M" job vraid0 rate 50MiB
	check "mock: job rate none message" 0 "vraid0: job rate unlimited" "" env MOCK_VRAID=jobs "$M" job vraid0 rate none
	check "mock: job, no such VD" 1 "" "vraid9: no virtual drive" env MOCK_VRAID=jobs "$M" job vraid9 pause

	# spare
	rm -f "$tmp/log"
	check "mock: spare list" 0 "DEVICE    MAJ:MIN   SIZE  FOR" "" env MOCK_VRAID=jobs "$M" spare list
	out_has "mock: spare list global" -qxF "/dev/sde  8:64     2 GiB  global"
	out_has "mock: spare list dedicated" -qxF "/dev/sdf  8:80     4 GiB  vraid1"
	check "mock: spare list, dedicated to a VD not running" 0 "VD 22222222-2222-2222-2222-222222222222 (not running)" "" env MOCK_VRAID=spareuuid "$M" spare list
	check "mock: spare list, none" 0 "no hot spares" "" env MOCK_VRAID=none "$M" spare list
	check "mock: spare list EPERM" 1 "" "run as root" env MOCK_FAIL="spare:EPERM:not allowed" "$M" spare list
	if [ -n "$blk0" ]; then
		check "mock: spare add" 0 "$blk2: global hot spare (for any virtual drive)" "" env MOCK_VRAID=jobs "$M" spare add "$blk2"
		expect_log "mock: spare add request" "spare action=1 flags=0 index=0 dev=7:2"
		check "mock: spare add --vd" 0 "$blk2: hot spare dedicated to vraid2" "" env MOCK_VRAID=jobs "$M" spare add "$blk2" --vd vraid2
		expect_log "mock: spare add --vd request" "spare action=1 flags=1 index=2 dev=7:2"
		check "mock: spare add --vd 0" 0 "hot spare dedicated to vraid0" "" env MOCK_VRAID=jobs "$M" spare add --vd=0 "$blk3"
		expect_log "mock: spare add --vd 0 request" "spare action=1 flags=1 index=0 dev=7:3"
		check "mock: spare add --vd raid0" 1 "" "vraid3 is RAID0: it has no redundancy" env MOCK_VRAID=jobs "$M" spare add "$blk2" --vd vraid3
		check "mock: spare add --vd no such VD" 1 "" "vraid9: no virtual drive" env MOCK_VRAID=jobs "$M" spare add "$blk2" --vd vraid9
		check "mock: spare remove" 0 "$blk2: hot spare removed" "" env MOCK_VRAID=jobs "$M" spare remove "$blk2"
		expect_log "mock: spare remove request" "spare action=2 flags=0 index=0 dev=7:2"
		check "mock: spare add EBUSY" 1 "" "the device is in use: a member of a virtual drive" env MOCK_FAIL="spare:EBUSY:7:2 is a member of vraid0" "$M" spare add "$blk2"
		check "mock: spare add EBUSY, the device as typed" 1 "" "vraidctl: spare add $blk2: $blk2 is a member of vraid0 (EBUSY" env MOCK_FAIL="spare:EBUSY:7:2 is a member of vraid0" "$M" spare add "$blk2"
		check "mock: spare add EEXIST" 1 "" "it is a hot spare already" env MOCK_FAIL="spare:EEXIST:7:2 is a spare already" "$M" spare add "$blk2"
		check "mock: spare remove ENODEV, the device as typed" 1 "" "spare remove $blk2: $blk2 is not a hot spare (ENODEV" env MOCK_FAIL="spare:ENODEV:7:2 is not a hot spare" "$M" spare remove "$blk2"
		check "mock: spare remove ENODEV hint" 1 "" "see the hot spares with \`vraidctl spare list\`" env MOCK_FAIL="spare:ENODEV:7:2 is not a hot spare" "$M" spare remove "$blk2"
	else
		say_skip "mock: spare add/remove" "no block device node"
	fi

	# replace
	rm -f "$tmp/log"
	if [ -n "$blk0" ]; then
		check "mock: replace" 0 "vraid0: rebuilding onto $blk2 (replacing $blk1); follow with: vraidctl wait vraid0" "" env MOCK_VRAID=jobs "$M" replace vraid0 "$blk1" "$blk2"
		expect_log "mock: replace request" "replace index=0 old=7:1 new=7:2 flags=0"
		check "mock: replace --force" 0 "rebuilding onto $blk3" "" env MOCK_VRAID=jobs "$M" replace --force 0 "$blk0" "$blk3"
		expect_log "mock: replace --force request" "replace index=0 old=7:0 new=7:3 flags=1"
		check "mock: replace MAJ:MIN" 0 "(replacing 7:1)" "" env MOCK_VRAID=jobs "$M" replace vraid0 7:1 "$blk3"
		expect_log "mock: replace MAJ:MIN request" "replace index=0 old=7:1 new=7:3 flags=0"
		check "mock: replace, not a member" 1 "" "$blk2 (7:2) is not a member of vraid0" env MOCK_VRAID=jobs "$M" replace vraid0 "$blk2" "$blk3"
		check "mock: replace, not a member hint" 1 "" "see the members and their MAJ:MIN with \`vraidctl show vraid0\`" env MOCK_VRAID=jobs "$M" replace vraid0 "$blk2" "$blk3"
		check "mock: replace onto a member" 1 "" "$blk0 is already a member of vraid0 (role 0)" env MOCK_VRAID=jobs "$M" replace vraid0 "$blk1" "$blk0"
		check "mock: replace EBUSY" 1 "" "the new device is in use" env MOCK_VRAID=jobs MOCK_FAIL="replace:EBUSY:7:2 is in use" "$M" replace vraid0 "$blk1" "$blk2"
		# failing the Online member would take the VD Offline: the hint
		# says so, not that the new device is in use
		check "mock: replace EBUSY, would go offline" 1 "" "vraidctl: hint: replace fails an online member before rebuilding onto the new device, and the members left could not serve every block: replace the failed members first" env MOCK_VRAID=jobs MOCK_FAIL="replace:EBUSY:failing loop1 would take vraid0 offline (RAID1 tolerates 1 failed member); add --force to do it anyway" "$M" replace vraid0 "$blk1" "$blk2"
		err_lacks "mock: replace EBUSY, would go offline: not 'in use'" "the new device is in use"
		check "mock: replace EBUSY, a rebuild to end" 1 "" "vraidctl: hint: wait for that rebuild to end (\`vraidctl wait\`), then replace" env MOCK_VRAID=jobs MOCK_FAIL="replace:EBUSY:member 0 (loop0) is rebuilt after an unclean shutdown: its rebuild must end first" "$M" replace vraid0 "$blk1" "$blk2"
		check "mock: replace no such VD" 1 "" "vraid9: no virtual drive" env MOCK_VRAID=jobs "$M" replace vraid9 "$blk1" "$blk2"
		check "mock: replace on raid0" 1 "" "vraid3 is RAID0: it has no redundancy to rebuild a member from" env MOCK_VRAID=jobs "$M" replace vraid3 "$blk1" "$blk2"
		check "mock: replace ENODEV" 1 "" "see the virtual drive and its members" env MOCK_VRAID=jobs MOCK_FAIL="replace:ENODEV:7:1 is not a member of vraid0" "$M" replace vraid0 "$blk1" "$blk2"
		check "mock: replace ENODEV, the member as typed" 1 "" "vraidctl: replace vraid0 $blk1: $blk1 is not a member of vraid0 (ENODEV" env MOCK_VRAID=jobs MOCK_FAIL="replace:ENODEV:7:1 is not a member of vraid0" "$M" replace vraid0 "$blk1" "$blk2"
		check "mock: replace EBUSY, the new device as typed" 1 "" ": $blk2 is in use (EBUSY" env MOCK_VRAID=jobs MOCK_FAIL="replace:EBUSY:7:2 is in use" "$M" replace vraid0 "$blk1" "$blk2"
		check "mock: replace, MAJ:MIN typed stays" 1 "" ": 7:1 is not a member of vraid0 (ENODEV" env MOCK_VRAID=jobs MOCK_FAIL="replace:ENODEV:7:1 is not a member of vraid0" "$M" replace vraid0 7:1 "$blk2"
		check "mock: replace, other numbers untouched" 1 "" ": 17:1 and 7:10 and 1.7:1 differ (ENODEV" env MOCK_VRAID=jobs MOCK_FAIL="replace:ENODEV:17:1 and 7:10 and 1.7:1 differ" "$M" replace vraid0 "$blk1" "$blk2"
	else
		say_skip "mock: replace" "no block device node"
	fi

	# set (ABI 1.4): one SET_POLICY with the keys given, then INFO
	# what modules before ABI 1.8 said of always write-back, and the hint
	oldawb="always write-back needs the controller cache, which vraid does not have yet: use write-through or write-back"
	awbhint="vraidctl: hint: the vraid module speaks ABI 1.7, which has no always write-back: use write-policy wt or wb, or load the module built with this vraidctl"
	awbnote="vraid0: always write-back: the controller cache is volatile, a power loss loses writes not yet flushed"
	rahint="vraidctl: hint: the vraid module speaks ABI 1.6, which has no read-ahead: use read-policy nora, or load the module built with this vraidctl"
	# what ABI 1.6's validator said of read-ahead
	oldra="read-ahead needs the controller cache, which this vraid does not have yet: use no read-ahead"
	rm -f "$tmp/log"
	check "mock: set one key" 0 "" "" env MOCK_VRAID=three "$M" set vraid0 access=ro
	out_is "mock: set one key, in effect" "vraid0: access ro, disk cache default, read no-read-ahead, write write-through, io direct"
	expect_log "mock: set one key request" "set index=0 mask=0x1 access=1 dcache=0 io=0 read=0 write=0"
	if [ -s "$tmp/err" ]; then say_not_ok "mock: set, empty stderr"; else say_ok "mock: set, empty stderr"; fi
	check "mock: set by name" 0 "vraid0: access rw, disk cache off, read no-read-ahead, write write-through, io direct" "" env MOCK_VRAID=three "$M" set fast disk-cache=off
	expect_log "mock: set by name request" "set index=0 mask=0x2 access=0 dcache=2 io=0 read=0 write=0"
	check "mock: set /dev/vraid3 access=blocked" 0 "vraid3: access blocked," "" env MOCK_VRAID=three "$M" set /dev/vraid3 access=blocked
	expect_log "mock: set access=blocked request" "set index=3 mask=0x1 access=2 dcache=0 io=0 read=0 write=0"
	check "mock: set disk-cache=on" 0 "vraid0: access rw, disk cache on," "" env MOCK_VRAID=three "$M" set 0 disk-cache=on
	expect_log "mock: set disk-cache=on request" "set index=0 mask=0x2 access=0 dcache=1 io=0 read=0 write=0"
	check "mock: set values ignore case" 0 "vraid0: access ro, disk cache off," "" env MOCK_VRAID=three "$M" set 0 access=RO disk-cache=Off
	expect_log "mock: set values ignore case request" "set index=0 mask=0x3 access=1 dcache=2 io=0 read=0 write=0"
	check "mock: set all five" 0 "" "" env MOCK_VRAID=three "$M" set vraid0 io-policy=direct write-policy=wt read-policy=nora disk-cache=default access=rw
	out_is "mock: set all five, in effect" "vraid0: access rw, disk cache default, read no-read-ahead, write write-through, io direct"
	expect_log "mock: set all five request" "set index=0 mask=0x1f access=0 dcache=0 io=0 read=0 write=0"
	check "mock: set several keys" 0 "" "" env MOCK_VRAID=three "$M" set vraid0 access=ro disk-cache=off write-policy=wt
	out_is "mock: set several keys, in effect" "vraid0: access ro, disk cache off, read no-read-ahead, write write-through, io direct"
	expect_log "mock: set several keys request" "set index=0 mask=0x13 access=1 dcache=2 io=0 read=0 write=0"
	# vraid1 runs with every policy changed: set leaves the others alone
	check "mock: set keeps the other policies" 0 "" "" env MOCK_VRAID=three "$M" set vraid1 access=rw
	out_is "mock: set keeps the other policies, in effect" "vraid1: access rw, disk cache on, read read-ahead, write always-write-back, io cached"
	expect_log "mock: set keeps the others request" "set index=1 mask=0x1 access=0 dcache=0 io=0 read=0 write=0"
	check "mock: set back to the defaults" 0 "vraid1: access ro, disk cache default, read no-read-ahead, write write-through, io direct" "" env MOCK_VRAID=three "$M" set vraid1 disk-cache=default read-policy=nora write-policy=wt io-policy=direct
	expect_log "mock: set back to the defaults request" "set index=1 mask=0x1e access=0 dcache=0 io=0 read=0 write=0"
	# always write-back is taken (ABI 1.8): the volatile cache, said on stderr
	check "mock: set write-policy=awb" 0 "" "$awbnote" env MOCK_VRAID=three "$M" set vraid0 write-policy=awb
	out_is "mock: set write-policy=awb, in effect" "vraid0: access rw, disk cache default, read no-read-ahead, write always-write-back, io direct"
	expect_log "mock: set write-policy=awb request" "set index=0 mask=0x10 access=0 dcache=0 io=0 read=0 write=2"
	if [ "$(wc -l <"$tmp/err")" = 1 ]; then say_ok "mock: set write-policy=awb, the note alone"; else say_not_ok "mock: set write-policy=awb, the note alone: $(cat "$tmp/err")"; fi
	check "mock: set read-policy=ra write-policy=awb" 0 "vraid0: access rw, disk cache default, read read-ahead, write always-write-back, io direct" "$awbnote" env MOCK_VRAID=three "$M" set vraid0 read-policy=ra write-policy=awb
	expect_log "mock: set read-policy=ra write-policy=awb request" "set index=0 mask=0x18 access=0 dcache=0 io=0 read=1 write=2"
	check "mock: set access=ro on an awb VD, no note" 0 "vraid1: access ro," "" env MOCK_VRAID=three "$M" set vraid1 access=ro
	if [ -s "$tmp/err" ]; then say_not_ok "mock: set access=ro on an awb VD, empty stderr"; else say_ok "mock: set access=ro on an awb VD, empty stderr"; fi
	# a module before ABI 1.8 refuses it: sent as asked, and a hint
	for w in "write-policy=awb:mask=0x10 access=0 dcache=0 io=0 read=0 write=2" \
		 "access=ro write-policy=awb:mask=0x11 access=1 dcache=0 io=0 read=0 write=2"; do
		kv=${w%%:*} sent=${w#*:}
		# shellcheck disable=SC2086
		check "mock: set $kv, module 1.7, refused" 1 "" "vraidctl: set vraid0: $oldawb (EOPNOTSUPP: Operation not supported)" env MOCK_VRAID=three MOCK_ABI_MINOR=7 "$M" set vraid0 $kv
		expect_log "mock: set $kv, module 1.7, sent as asked" "set index=0 $sent"
		out_lacks "mock: set $kv, module 1.7, prints nothing" -q .
		# shellcheck disable=SC2086
		check "mock: set $kv, module 1.7, hint" 1 "" "$awbhint" env MOCK_VRAID=three MOCK_ABI_MINOR=7 "$M" set vraid0 $kv
		err_lacks "mock: set $kv, module 1.7, no old general hint" "no always-write-back yet"
	done
	check "mock: set read-policy=ra write-policy=awb, module 1.6, hint" 1 "" "vraidctl: hint: the vraid module speaks ABI 1.6, which has no read-ahead and no always write-back: use read-policy nora and write-policy wt or wb, or load the module built with this vraidctl" env MOCK_VRAID=three MOCK_ABI_MINOR=6 "$M" set vraid0 read-policy=ra write-policy=awb
	check "mock: set all three, module 1.5, hint" 1 "" "vraidctl: hint: the vraid module speaks ABI 1.5, which has no cached I/O, no read-ahead and no always write-back: use io-policy direct, read-policy nora and write-policy wt or wb, or load the module built with this vraidctl" env MOCK_VRAID=three MOCK_ABI_MINOR=5 "$M" set vraid0 io-policy=cached read-policy=ra write-policy=awb
	check "mock: set write-policy=awb, module 1.8 refuses" 1 "" "set vraid0: not today (EOPNOTSUPP" env MOCK_VRAID=three MOCK_FAIL="set:EOPNOTSUPP:not today" "$M" set vraid0 write-policy=awb
	err_lacks "mock: set write-policy=awb, module 1.8 refuses, no ABI hint" "speaks ABI"
	err_lacks "mock: set write-policy=awb, module 1.8 refuses, no hint" "hint:"
	check "mock: set write-policy=wt, module 1.7" 0 "write write-through" "" env MOCK_VRAID=three MOCK_ABI_MINOR=7 "$M" set vraid0 write-policy=wt
	# read-ahead is taken (ABI 1.7); a module older than 1.7 refuses it
	check "mock: set read-policy=ra" 0 "" "" env MOCK_VRAID=three "$M" set vraid0 read-policy=ra
	out_is "mock: set read-policy=ra, in effect" "vraid0: access rw, disk cache default, read read-ahead, write write-through, io direct"
	expect_log "mock: set read-policy=ra request" "set index=0 mask=0x8 access=0 dcache=0 io=0 read=1 write=0"
	if [ -s "$tmp/err" ]; then say_not_ok "mock: set read-policy=ra, empty stderr"; else say_ok "mock: set read-policy=ra, empty stderr"; fi
	check "mock: set read-policy=ra io-policy=cached" 0 "vraid0: access rw, disk cache default, read read-ahead, write write-through, io cached" "" env MOCK_VRAID=three "$M" set vraid0 read-policy=ra io-policy=cached
	expect_log "mock: set read-policy=ra io-policy=cached request" "set index=0 mask=0xc access=0 dcache=0 io=1 read=1 write=0"
	check "mock: set read-policy=ra, module 1.6" 1 "" "vraidctl: set vraid0: $oldra (EOPNOTSUPP: Operation not supported)" env MOCK_VRAID=three MOCK_ABI_MINOR=6 MOCK_FAIL="set:EOPNOTSUPP:$oldra" "$M" set vraid0 read-policy=ra
	check "mock: set read-policy=ra, module 1.6, hint" 1 "" "$rahint" env MOCK_VRAID=three MOCK_ABI_MINOR=6 MOCK_FAIL="set:EOPNOTSUPP:$oldra" "$M" set vraid0 read-policy=ra
	err_lacks "mock: set read-policy=ra, module 1.6, no awb hint" "always write-back"
	out_lacks "mock: set read-policy=ra, module 1.6, prints nothing" -q .
	check "mock: set read-policy=ra io-policy=cached, module 1.5" 1 "" "vraidctl: hint: the vraid module speaks ABI 1.5, which has no cached I/O and no read-ahead: use io-policy direct and read-policy nora, or load the module built with this vraidctl" env MOCK_VRAID=three MOCK_ABI_MINOR=5 MOCK_FAIL="set:EOPNOTSUPP:cached I/O needs the controller cache" "$M" set vraid0 read-policy=ra io-policy=cached
	check "mock: set read-policy=ra, module 1.7 refuses" 1 "" "set vraid0: not today (EOPNOTSUPP" env MOCK_VRAID=three MOCK_FAIL="set:EOPNOTSUPP:not today" "$M" set vraid0 read-policy=ra
	err_lacks "mock: set read-policy=ra, module 1.7 refuses, no ABI hint" "speaks ABI"
	err_lacks "mock: set read-policy=ra, module 1.7 refuses, no cache hint" "controller cache"
	check "mock: set io-policy=cached" 0 "vraid0: access rw, disk cache default, read no-read-ahead, write write-through, io cached" "" env MOCK_VRAID=three "$M" set vraid0 io-policy=cached
	expect_log "mock: set io-policy=cached request" "set index=0 mask=0x4 access=0 dcache=0 io=1 read=0 write=0"
	check "mock: set io-policy=cached, older module" 1 "" "vraidctl: hint: the vraid module speaks ABI 1.5, which has no cached I/O: use io-policy direct, or load the module built with this vraidctl" env MOCK_VRAID=three MOCK_ABI_MINOR=5 MOCK_FAIL="set:EOPNOTSUPP:cached I/O needs the controller cache" "$M" set vraid0 io-policy=cached
	err_lacks "mock: set io-policy=cached, older module, no awb hint" "always write-back"
	err_lacks "mock: set io-policy=cached, older module, no read-ahead hint" "no read-ahead"
	# write-back is taken, and writes through for want of a journal
	wbnone="vraid0: write-back writes through for now: write-back needs a healthy journal (the controller's battery): none is attached, or it awaits replay (see \`vraidctl controller\`); \`vraidctl controller journal DEV\` attaches one"
	check "mock: set write-policy=wb" 0 "vraid0: access rw, disk cache default, read no-read-ahead, write write-back, io direct" "$wbnone" env MOCK_VRAID=three "$M" set vraid0 write-policy=wb
	expect_log "mock: set write-policy=wb request" "set index=0 mask=0x10 access=0 dcache=0 io=0 read=0 write=1"
	check "mock: set write-policy=wb, journal pending" 0 "write write-back" "$wbnone" env MOCK_VRAID=three MOCK_JOURNAL=pending "$M" set vraid0 write-policy=wb
	check "mock: set write-policy=wb, journal healthy" 0 "vraid0: access rw, disk cache default, read no-read-ahead, write write-back, io direct" "" env MOCK_VRAID=three MOCK_JOURNAL=healthy "$M" set vraid0 write-policy=wb
	if [ -s "$tmp/err" ]; then say_not_ok "mock: set wb, journal healthy, empty stderr"; else say_ok "mock: set wb, journal healthy, empty stderr"; fi
	check "mock: set write-policy=wb, journal failed" 0 "write write-back" "vraid0: write-back writes through for now: the journal (the controller's battery) failed with an I/O error: see \`vraidctl controller\`; detach it (\`vraidctl controller journal none\`) and attach another" env MOCK_VRAID=three MOCK_JOURNAL=failed "$M" set vraid0 write-policy=wb
	# show: the write policy in effect with and without the journal
	check "mock: show wb, journalled" 0 "Write in effect:    Write Back (journalled): a write completes once it is in the journal, which keeps it through a power loss" "" env MOCK_VRAID=three MOCK_WB=1 MOCK_JOURNAL=healthy "$M" show vraid0
	out_has "mock: show wb, policy" -qF "Write: Write Back"
	check "mock: show wb --json, journalled" 0 '"write_in_effect":{"mode":"write_back","why":""},"uuid":' "" env MOCK_VRAID=three MOCK_WB=1 MOCK_JOURNAL=healthy "$M" show vraid0 --json
	check "mock: show wb, no journal" 0 "Write in effect:    Write Through, because write-back needs a healthy journal (the controller's battery): none is attached, or it awaits replay" "" env MOCK_VRAID=three MOCK_WB=1 "$M" show vraid0
	check "mock: show wb --json, no journal" 0 '"write_in_effect":{"mode":"write_through","why":"no_journal"},"uuid":' "" env MOCK_VRAID=three MOCK_WB=1 "$M" show vraid0 --json
	check "mock: show wb, journal failed" 0 "Write in effect:    Write Through, because the journal (the controller's battery) failed with an I/O error" "" env MOCK_VRAID=three MOCK_WB=1 MOCK_JOURNAL=failed "$M" show vraid0
	check "mock: show wb --json, journal failed" 0 '"write_in_effect":{"mode":"write_through","why":"journal_failed"},"uuid":' "" env MOCK_VRAID=three MOCK_WB=1 MOCK_JOURNAL=failed "$M" show vraid0 --json
	check "mock: set write-policy=wt, no note" 0 "write write-through" "" env MOCK_VRAID=three "$M" set vraid0 write-policy=wt
	if [ -s "$tmp/err" ]; then say_not_ok "mock: set wt, empty stderr"; else say_ok "mock: set wt, empty stderr"; fi
	check "mock: set EOPNOTSUPP not about the cache" 1 "" "set vraid0: not today (EOPNOTSUPP" env MOCK_VRAID=three MOCK_FAIL="set:EOPNOTSUPP:not today" "$M" set vraid0 access=ro
	err_lacks "mock: set EOPNOTSUPP not about the cache, no cache hint" "controller cache"
	check "mock: set no such VD" 1 "" "vraid9: no virtual drive (ENOENT" env MOCK_VRAID=three "$M" set vraid9 access=ro
	check "mock: set no such VD hint" 1 "" "no such virtual drive (see \`vraidctl list\`)" env MOCK_VRAID=three "$M" set vraid9 access=ro
	check "mock: set no such name" 1 "" "nosuch: no such virtual drive" env MOCK_VRAID=three "$M" set nosuch access=ro
	check "mock: set ENOENT from SET_POLICY" 1 "" "set vraid0: vraid0 is gone (ENOENT" env MOCK_VRAID=three MOCK_FAIL="set:ENOENT:vraid0 is gone" "$M" set vraid0 access=ro
	check "mock: set ENOENT from SET_POLICY hint" 1 "" "no such virtual drive (see \`vraidctl list\`)" env MOCK_VRAID=three MOCK_FAIL="set:ENOENT:vraid0 is gone" "$M" set vraid0 access=ro
	check "mock: set EPERM" 1 "" "vraidctl: hint: run as root" env MOCK_VRAID=three MOCK_FAIL="set:EPERM:changing virtual drives needs CAP_SYS_ADMIN (run as root)" "$M" set vraid0 access=ro
	check "mock: set EIO" 1 "" "set vraid0: cannot write the metadata (EIO" env MOCK_VRAID=three MOCK_FAIL="set:EIO:cannot write the metadata" "$M" set vraid0 access=ro
	check "mock: set EIO hint" 1 "" "the change may be in effect but not recorded on the members: see \`vraidctl show vraid0\`" env MOCK_VRAID=three MOCK_FAIL="set:EIO:cannot write the metadata" "$M" set vraid0 access=ro
	check "mock: set EIO, cache not written out" 1 "" "nothing is lost: vraid0 keeps its cached writes (and the journal its copy)" env MOCK_VRAID=three MOCK_FAIL="set:EIO:vraid0: 704 KiB of cached writes cannot be written to the members: the write policy stays wb, bound to the journal" "$M" set vraid0 write-policy=awb
	err_lacks "mock: set EIO, cache not written out, no metadata hint" "may be in effect"
	check "mock: set, older module" 1 "" "the vraid module speaks ABI 1.3, older than vraidctl's $abi, and lacks this request" env MOCK_VRAID=three MOCK_ABI_MINOR=3 MOCK_FAIL="set:ENOTTY:unknown command 4" "$M" set vraid0 access=ro
	check "mock: set, module changes nothing" 1 "vraid0: access rw, disk cache default," "vraid0: the module accepted access ro, but reports rw" env MOCK_VRAID=three MOCK_SET_IGNORE=1 "$M" set vraid0 access=ro disk-cache=default
	err_lacks "mock: set, module changes nothing, only what differs" "disk cache"
	check "mock: set on a VD with a job" 0 "vraid0: access ro," "" env MOCK_VRAID=jobs "$M" set vraid0 access=ro
	check "mock: show disk cache off" 0 "Access: RW, Disk cache: Off, I/O: Direct" "" env MOCK_VRAID=three "$M" show vraid7
	check "mock: show --json disk cache off" 0 '"policies":{"access":"rw","disk_cache":"disabled","io":"direct","read":"no_read_ahead","write":"write_through"}' "" env MOCK_VRAID=three "$M" show vraid7 --json

	# the controller (ABI 1.7): CONTROLLER against the mock
	rm -f "$tmp/log"
	check "mock: controller" 0 "Controller cache: 128 MiB (default 128 MiB, up to 1 GiB on this machine)" "" env MOCK_VRAID=dupname "$M" controller
	out_has "mock: controller, used" -qxF "Used:             12 MiB, shared by 2 virtual drives"
	out_has "mock: controller, dirty" -qxF "Dirty:            0 B (writers would wait at 64 MiB)"
	out_has "mock: controller, journal" -qxF "Journal:          none (write-back writes through)"
	if [ "$(wc -l <"$tmp/out")" = 4 ]; then say_ok "mock: controller, four lines"; else say_not_ok "mock: controller, four lines"; fi
	if [ -s "$tmp/err" ]; then say_not_ok "mock: controller, empty stderr"; else say_ok "mock: controller, empty stderr"; fi
	cp "$tmp/out" "$tmp/ctl-show.txt"
	check "mock: controller show" 0 "Controller cache: 128 MiB" "" env MOCK_VRAID=dupname "$M" controller show
	if cmp -s "$tmp/out" "$tmp/ctl-show.txt"; then say_ok "mock: controller show is controller"; else say_not_ok "mock: controller show is controller"; fi
	check "mock: controller, one VD" 0 "Used:             12 MiB, shared by 1 virtual drive" "" env MOCK_VRAID=badreply "$M" controller
	check "mock: controller, no VDs" 0 "Used:             0 B (no virtual drives)" "" env MOCK_VRAID=none "$M" controller show
	check "mock: controller --json" 0 "" "" env MOCK_VRAID=dupname "$M" controller --json
	out_is "mock: controller --json, the object" '{"cache_bytes":134217728,"cache_default_bytes":134217728,"cache_max_bytes":1073741824,"used_bytes":12582912,"dirty_bytes":0,"dirty_high_bytes":67108864,"vds":2,"journal":{"state":"none","major":0,"minor":0,"size_bytes":0,"used_bytes":0,"device":"","uuid":"","head_seq":0,"tail_seq":0,"pending":0,"vds":0}}'
	cp "$tmp/out" "$tmp/ctl.json"
	check "mock: controller show --json" 0 '{"cache_bytes":134217728,' "" env MOCK_VRAID=dupname "$M" controller show --json
	check "mock: controller --json show" 0 '"vds":2,' "" env MOCK_VRAID=dupname "$M" controller --json show
	# always write-back (ABI 1.8): the dirty data of all VDs
	check "mock: controller, dirty data" 0 "Dirty:            1.5 MiB (writers would wait at 64 MiB)" "" env MOCK_VRAID=dupname MOCK_DIRTY=1572864 "$M" controller
	check "mock: controller --json, dirty data" 0 '"used_bytes":12582912,"dirty_bytes":1572864,"dirty_high_bytes":67108864,' "" env MOCK_VRAID=dupname MOCK_DIRTY=1572864 "$M" controller --json
	# a module before it did not write back into the cache
	check "mock: controller, module 1.7" 0 "Controller cache: 128 MiB" "" env MOCK_VRAID=dupname MOCK_ABI_MINOR=7 "$M" controller
	out_has "mock: controller, module 1.7, dirty" -qxF "Dirty:            0 B (writers would wait at 64 MiB; write-back into the cache: not yet)"
	check "mock: controller, module 1.8, no not yet" 0 "Dirty:            0 B (writers would wait at 64 MiB)" "" env MOCK_VRAID=dupname MOCK_ABI_MINOR=8 "$M" controller
	out_lacks "mock: controller, module 1.8, says nothing of not yet" -qF "not yet"
	check "mock: controller, not root" 0 "Controller cache: 128 MiB" "" env MOCK_VRAID=dupname MOCK_NOT_ROOT=1 "$M" controller
	# SIZE:BYTES SENT:THE SIZE NOW
	for s in "128M:134217728:128 MiB" "1G:1073741824:1 GiB" "16M:16777216:16 MiB" \
		 "256MiB:268435456:256 MiB" "262144K:268435456:256 MiB" "1g:1073741824:1 GiB" \
		 "1024M:1073741824:1 GiB" "536870912:536870912:512 MiB"; do
		sz=${s%%:*} sent=${s#*:} now=${s#*:*:}
		sent=${sent%%:*}
		check "mock: controller set cache-size=$sz" 0 "" "" env MOCK_VRAID=dupname "$M" controller set "cache-size=$sz"
		out_is "mock: controller set cache-size=$sz, the size now" "Controller cache: $now (default 128 MiB, up to 1 GiB on this machine)"
		expect_log "mock: controller set cache-size=$sz sends $sent" "controller action=1 flags=0 cache=$sent dev=0:0"
	done
	check "mock: controller set, kept until unloaded" 0 "" "controller cache: 128 MiB until the vraid module is unloaded; to keep it, put \`options vraid cache_mib=128\` in a file of /etc/modprobe.d/" env MOCK_VRAID=dupname "$M" controller set cache-size=128M
	check "mock: controller set default" 0 "" "" env MOCK_VRAID=dupname "$M" controller set cache-size=default
	out_is "mock: controller set default, the size now" "Controller cache: 128 MiB (default 128 MiB, up to 1 GiB on this machine)"
	expect_log "mock: controller set default sends 0" "controller action=1 flags=0 cache=0 dev=0:0"
	if [ -s "$tmp/err" ]; then say_not_ok "mock: controller set default, empty stderr"; else say_ok "mock: controller set default, empty stderr"; fi
	check "mock: controller set DEFAULT" 0 "Controller cache: 128 MiB" "" env MOCK_VRAID=dupname "$M" controller set cache-size=DEFAULT
	expect_log "mock: controller set DEFAULT sends 0" "controller action=1 flags=0 cache=0 dev=0:0"
	check "mock: controller set cache-size=128MiB" 0 "Controller cache: 128 MiB" "" env MOCK_VRAID=dupname "$M" controller set cache-size=128MiB
	expect_log "mock: controller set cache-size=128MiB sends 128 MiB" "controller action=1 flags=0 cache=134217728 dev=0:0"
	check "mock: controller set --json" 0 "" "" env MOCK_VRAID=dupname "$M" controller set cache-size=256M --json
	out_is "mock: controller set --json, the object" '{"cache_bytes":268435456,"cache_default_bytes":134217728,"cache_max_bytes":1073741824,"used_bytes":12582912,"dirty_bytes":0,"dirty_high_bytes":134217728,"vds":2,"journal":{"state":"none","major":0,"minor":0,"size_bytes":0,"used_bytes":0,"device":"","uuid":"","head_seq":0,"tail_seq":0,"pending":0,"vds":0}}'
	cp "$tmp/out" "$tmp/ctl-set.json"
	check "mock: controller set, more than half the RAM" 1 "" "vraidctl: controller set cache-size=2G: cache size 2048 MiB is more than half the RAM (2048 MiB) (EINVAL: Invalid argument)" env MOCK_VRAID=dupname "$M" controller set cache-size=2G
	out_lacks "mock: controller set, more than half the RAM, prints nothing" -q .
	expect_log "mock: controller set cache-size=2G sent" "controller action=1 flags=0 cache=2147483648 dev=0:0"
	check "mock: controller set, more than half the RAM, hint" 1 "" "vraidctl: hint: give a size from 16M to 1024M in whole MiB, or default (128 MiB on this machine)" env MOCK_VRAID=dupname "$M" controller set cache-size=2G
	check "mock: controller set 1T, more than half the RAM" 1 "" "cache size 1048576 MiB is more than half the RAM (2048 MiB)" env MOCK_VRAID=dupname "$M" controller set cache-size=1T
	check "mock: controller set EINVAL, no show" 1 "" "controller set cache-size=8G: cache size 8192 MiB: nope (EINVAL" env MOCK_FAIL="controller:EINVAL:cache size 8192 MiB: nope" "$M" controller set cache-size=8G
	check "mock: controller set EINVAL, no show, hint" 1 "" "$sizehint" env MOCK_FAIL="controller:EINVAL:cache size 8192 MiB: nope" "$M" controller set cache-size=8G
	check "mock: controller set, not root" 1 "" "vraidctl: controller set cache-size=64M: changing the controller needs CAP_SYS_ADMIN (run as root) (EPERM: Operation not permitted)" env MOCK_VRAID=dupname MOCK_NOT_ROOT=1 "$M" controller set cache-size=64M
	check "mock: controller set, not root, hint" 1 "" "vraidctl: hint: run as root (vraid control requests need CAP_SYS_ADMIN)" env MOCK_VRAID=dupname MOCK_NOT_ROOT=1 "$M" controller set cache-size=64M
	out_lacks "mock: controller set, not root, prints nothing" -q .
	check "mock: controller EPERM, no reply" 1 "" "vraidctl: controller show: Operation not permitted (EPERM)" env MOCK_FAIL="controller:EPERM:-" "$M" controller
	# the journal (ABI 1.9); sysfs names 7:0 loop0 and nothing else
	jsys=$tmp/jsys
	mkdir -p "$jsys/dev/block" "$jsys/devices/virtual/block/loop0"
	ln -sfn ../../devices/virtual/block/loop0 "$jsys/dev/block/7:0"
	jhdr="Journal:          healthy, /dev/loop0 (7:0)"
	check "mock: controller, journal healthy" 0 "$jhdr" "" env MOCK_VRAID=dupname MOCK_JOURNAL=healthy VRAIDCTL_SYSFS="$jsys" "$M" controller
	out_has "mock: controller, journal UUID" -qxF "  UUID:           8c1d0f3e-5244-4a1b-9e07-6d21c355a019"
	out_has "mock: controller, journal ring" -qxF "  Ring:           1023 MiB, 12 MiB used (1.2 %)"
	out_has "mock: controller, journal sequence" -qxF "  Sequence:       head 1234, tail 1000"
	out_has "mock: controller, journal VDs" -qxF "  Logging:        1 virtual drive logging to it"
	if [ "$(wc -l <"$tmp/out")" = 8 ]; then say_ok "mock: controller, journal healthy, eight lines"; else say_not_ok "mock: controller, journal healthy, eight lines"; fi
	check "mock: controller, journal without a sysfs name" 0 "Journal:          healthy, 7:0" "" env MOCK_VRAID=dupname MOCK_JOURNAL=healthy VRAIDCTL_SYSFS="$tmp/no-sysfs" "$M" controller
	check "mock: controller, journal pending" 0 "Journal:          replay pending (2 VDs), /dev/loop0 (7:0)" "" env MOCK_VRAID=dupname MOCK_JOURNAL=pending VRAIDCTL_SYSFS="$jsys" "$M" controller
	out_has "mock: controller, journal pending, what to do" -qF '`vraidctl assemble --scan` replays them; write-back'
	out_has "mock: controller, journal pending, no VDs logging" -qxF "  Logging:        0 virtual drives logging to it"
	check "mock: controller, journal failed" 0 "Journal:          failed, /dev/loop0 (7:0)" "" env MOCK_VRAID=dupname MOCK_JOURNAL=failed VRAIDCTL_SYSFS="$jsys" "$M" controller
	out_has "mock: controller, journal failed, what to do" -qF "an I/O error: write-back writes through (nothing"
	check "mock: controller --json, journal healthy" 0 "" "" env MOCK_VRAID=dupname MOCK_JOURNAL=healthy VRAIDCTL_SYSFS="$jsys" "$M" controller --json
	out_is "mock: controller --json, journal healthy, the object" '{"cache_bytes":134217728,"cache_default_bytes":134217728,"cache_max_bytes":1073741824,"used_bytes":12582912,"dirty_bytes":0,"dirty_high_bytes":67108864,"vds":2,"journal":{"state":"healthy","major":7,"minor":0,"size_bytes":1072693248,"used_bytes":12582912,"device":"/dev/loop0","uuid":"8c1d0f3e-5244-4a1b-9e07-6d21c355a019","head_seq":1234,"tail_seq":1000,"pending":0,"vds":1}}'
	cp "$tmp/out" "$tmp/ctl-journal.json"
	check "mock: controller --json, journal pending" 0 '"journal":{"state":"replay_pending","major":7,"minor":0,' "" env MOCK_VRAID=dupname MOCK_JOURNAL=pending VRAIDCTL_SYSFS="$jsys" "$M" controller --json
	out_has "mock: controller --json, journal pending, counts" -qF '"head_seq":1234,"tail_seq":1000,"pending":2,"vds":0}}'
	check "mock: controller --json, journal failed" 0 '"journal":{"state":"failed",' "" env MOCK_VRAID=dupname MOCK_JOURNAL=failed VRAIDCTL_SYSFS="$jsys" "$M" controller --json
	check "mock: controller --json, journal without a sysfs name" 0 '"device":"","uuid":"8c1d0f3e-' "" env MOCK_VRAID=dupname MOCK_JOURNAL=healthy VRAIDCTL_SYSFS="$tmp/no-sysfs" "$M" controller --json
	# journal none: detach
	check "mock: controller journal none" 0 "Journal:          none (write-back writes through)" "controller journal: detached; write-back VDs (write-policy=wb) write through until \`vraidctl controller journal DEV\` attaches one" env MOCK_VRAID=dupname MOCK_JOURNAL=healthy "$M" controller journal none
	expect_log "mock: controller journal none sends DETACH" "controller action=3 flags=0 cache=0 dev=0:0"
	if [ "$(wc -l <"$tmp/out")" = 1 ]; then say_ok "mock: controller journal none, the journal line alone"; else say_not_ok "mock: controller journal none, the journal line alone"; fi
	check "mock: controller journal none --json" 0 '"journal":{"state":"none","major":0,"minor":0,"size_bytes":0,"used_bytes":0,"device":"","uuid":"","head_seq":0,"tail_seq":0,"pending":0,"vds":0}}' "" env MOCK_VRAID=dupname MOCK_JOURNAL=failed "$M" controller journal none --json
	check "mock: controller journal none, none attached" 1 "" "vraidctl: controller journal none: no journal is attached (ENOENT: No such file or directory)" env MOCK_VRAID=dupname "$M" controller journal none
	check "mock: controller journal none, none attached, hint" 1 "" "vraidctl: hint: no journal is attached (see \`vraidctl controller\`)" env MOCK_VRAID=dupname "$M" controller journal none
	out_lacks "mock: controller journal none, refused, prints nothing" -q .
	check "mock: controller journal none, not root" 1 "" "changing the controller needs CAP_SYS_ADMIN (run as root) (EPERM" env MOCK_VRAID=dupname MOCK_JOURNAL=healthy MOCK_NOT_ROOT=1 "$M" controller journal none
	# journal discard
	# without --force: what it would drop, nothing sent
	: >"$tmp/log"
	check "mock: controller journal discard without --force" 1 "" "vraidctl: controller journal discard: the journal (" env MOCK_VRAID=dupname MOCK_JOURNAL=pending "$M" controller journal discard
	if grep -q "action=4" "$tmp/log"; then say_not_ok "mock: controller journal discard without --force sends no DISCARD"; else say_ok "mock: controller journal discard without --force sends no DISCARD"; fi
	check "mock: controller journal discard without --force, what is lost" 1 "" "holds acknowledged writes of 2 virtual drives not assembled yet, from before a crash or power loss: discarding them loses those writes" env MOCK_VRAID=dupname MOCK_JOURNAL=pending "$M" controller journal discard
	check "mock: controller journal discard without --force, hint" 1 "" "vraidctl: hint: assemble them instead: \`vraidctl assemble --scan\` with every member present replays the writes" env MOCK_VRAID=dupname MOCK_JOURNAL=pending "$M" controller journal discard
	check "mock: controller journal discard without --force, failed replay" 1 "" "a VD whose assembly replayed its writes and then failed must be assembled again, not discarded" env MOCK_VRAID=dupname MOCK_JOURNAL=pending "$M" controller journal discard
	check "mock: controller journal discard without --force, the way" 1 "" "vraidctl: hint: \`vraidctl controller journal discard --force\` drops them if those VDs are gone for good" env MOCK_VRAID=dupname MOCK_JOURNAL=pending "$M" controller journal discard
	check "mock: controller journal discard" 0 "Journal:          healthy, " "controller journal: the writes it held for virtual drives not assembled yet are dropped (lost)" env MOCK_VRAID=dupname MOCK_JOURNAL=pending "$M" controller journal discard --force
	expect_log "mock: controller journal discard sends DISCARD" "controller action=4 flags=0 cache=0 dev=0:0"
	check "mock: controller journal discard, healthy" 1 "" "vraidctl: controller journal discard: the journal holds no writes awaiting replay (EINVAL: Invalid argument)" env MOCK_VRAID=dupname MOCK_JOURNAL=healthy "$M" controller journal discard
	check "mock: controller journal discard, healthy, hint" 1 "" "vraidctl: hint: discard only drops the writes a journal holds for virtual drives not assembled yet (state replay pending); the journal is healthy (see \`vraidctl controller\`)" env MOCK_VRAID=dupname MOCK_JOURNAL=healthy "$M" controller journal discard
	check "mock: controller journal discard, none" 1 "" "the journal is none (see" env MOCK_VRAID=dupname "$M" controller journal discard
	# a module before the journal
	oldj="vraidctl: hint: the vraid module speaks ABI 1.8, which has no journal: load the module built with this vraidctl (ABI $abi)"
	check "mock: controller journal none, module 1.8" 1 "" "vraidctl: controller journal none: the controller cache has no journal yet: write-back writes through (EOPNOTSUPP" env MOCK_VRAID=dupname MOCK_ABI_MINOR=8 "$M" controller journal none
	check "mock: controller journal none, module 1.8, hint" 1 "" "$oldj" env MOCK_VRAID=dupname MOCK_ABI_MINOR=8 "$M" controller journal none
	check "mock: controller journal discard, module 1.8" 1 "" "unknown controller action 4 (EINVAL" env MOCK_VRAID=dupname MOCK_ABI_MINOR=8 "$M" controller journal discard
	check "mock: controller journal discard, module 1.8, hint" 1 "" "$oldj" env MOCK_VRAID=dupname MOCK_ABI_MINOR=8 "$M" controller journal discard
	# examine of a journal: attached or not, as CONTROLLER says
	jimg="$tmp/journal.img"
	rm -f "$jimg" && truncate -s 64M "$jimg" && "$tmp/$variant/mkjsb" "$jimg" 0 2 0
	check "mock: examine journal, attached" 0 "Attached:        yes, healthy, as /dev/loop0 (7:0) (the same journal UUID)" "" env MOCK_JOURNAL=healthy VRAIDCTL_SYSFS="$jsys" "$M" examine "$jimg"
	out_has "mock: examine journal, attached, the live state" -qF "\`vraidctl controller\` has its live state"
	check "mock: examine journal --json, attached" 0 '"attached":true,"attached_device":"/dev/loop0","journal_state":"healthy"}' "" env MOCK_JOURNAL=healthy VRAIDCTL_SYSFS="$jsys" "$M" examine "$jimg" --json
	check "mock: examine journal, pending" 0 "Attached:        yes, replay pending, as /dev/loop0 (7:0)" "" env MOCK_JOURNAL=pending VRAIDCTL_SYSFS="$jsys" "$M" examine "$jimg"
	check "mock: examine journal, none attached" 0 "Attached:        no (no journal is attached)" "" env MOCK_JOURNAL=none "$M" examine "$jimg"
	check "mock: examine journal --json, none attached" 0 '"attached":false,"attached_device":"","journal_state":"none"}' "" env MOCK_JOURNAL=none "$M" examine "$jimg" --json
	"$tmp/$variant/mkjsb" "$jimg" 0 2 0 11111111-2222-3333-4444-555555555555
	check "mock: examine journal, another attached" 0 "Attached:        no (the journal attached is /dev/loop0 (7:0), UUID 8c1d0f3e-5244-4a1b-9e07-6d21c355a019)" "" env MOCK_JOURNAL=healthy VRAIDCTL_SYSFS="$jsys" "$M" examine "$jimg"
	check "mock: examine journal, module 1.8" 0 "Attached:        unknown: the vraid module has no journal (ABI before 1.9)" "" env MOCK_JOURNAL=healthy MOCK_ABI_MINOR=8 "$M" examine "$jimg"
	check "mock: examine journal, CONTROLLER fails" 0 "Attached:        unknown: cannot ask the vraid module (" "" env MOCK_FAIL="controller:EIO:-" "$M" examine "$jimg"
	rm -f "$jimg"
	if [ -n "$blk0" ]; then
		check "mock: controller journal DEV" 0 "$jhdr" "(UUID 8c1d0f3e-5244-4a1b-9e07-6d21c355a019)" env MOCK_VRAID=dupname VRAIDCTL_SYSFS="$jsys" "$M" controller journal "$blk0"
		expect_log "mock: controller journal DEV sends ATTACH" "controller action=2 flags=0 cache=0 dev=7:0"
		out_has "mock: controller journal DEV, the journal lines" -qxF "  Logging:        1 virtual drive logging to it"
		out_lacks "mock: controller journal DEV, not the cache lines" -qF "Controller cache:"
		check "mock: controller journal DEV --force" 0 "$jhdr" "controller journal: $blk0 formatted as a new journal (UUID 8c1d0f3e-5244-4a1b-9e07-6d21c355a019); write-back VDs (write-policy=wb) log to it" env MOCK_VRAID=dupname VRAIDCTL_SYSFS="$jsys" "$M" controller journal "$blk0" --force
		expect_log "mock: controller journal DEV --force sends FORCE" "controller action=2 flags=1 cache=0 dev=7:0"
		err_lacks "mock: controller journal DEV --force, a ring under the cap: no note" "its ring takes"
		check "mock: controller journal DEV --force, a ring at the cap" 0 "$jhdr" "controller journal: its ring takes 4 GiB, the most a new journal takes: the rest of $blk0 stays unused" env MOCK_VRAID=dupname MOCK_JOURNAL_BYTES=$((4 << 30)) VRAIDCTL_SYSFS="$jsys" "$M" controller journal "$blk0" --force
		err_lacks "mock: controller journal DEV, a 4 GiB ring: no small-ring note" "caps the cache's dirty data"
		check "mock: controller journal DEV, a 127 MiB ring: what it caps dirty data at" 0 "$jhdr" "controller journal: its ring of 127 MiB caps the cache's dirty data at 5.9 MiB while a RAID5/50 VD writes back through it, 2 MiB with RAID6/60, 5.4 MiB with mirrors only (writers wait for destage beyond it); a journal of 256 MiB or more suits parity VDs, of 1 GiB or more parity VDs on disks" env MOCK_VRAID=dupname MOCK_JOURNAL_BYTES=133169152 VRAIDCTL_SYSFS="$jsys" "$M" controller journal "$blk0"
		check "mock: controller journal DEV, the smallest ring" 0 "$jhdr" "controller journal: its ring of 64 MiB caps the cache's dirty data at 1020 KiB while a RAID5/50 VD writes back through it, 256 KiB with RAID6/60, 2 MiB with mirrors only" env MOCK_VRAID=dupname MOCK_JOURNAL_BYTES=$((64 << 20)) VRAIDCTL_SYSFS="$jsys" "$M" controller journal "$blk0"
		check "mock: controller journal DEV, a 255 MiB ring: no note" 0 "$jhdr" "" env MOCK_VRAID=dupname MOCK_JOURNAL_BYTES=$((255 << 20)) VRAIDCTL_SYSFS="$jsys" "$M" controller journal "$blk0"
		err_lacks "mock: controller journal DEV, a 255 MiB ring: no small-ring note" "caps the cache's dirty data"
		check "mock: controller journal --force DEV" 0 "$jhdr" "" env MOCK_VRAID=dupname VRAIDCTL_SYSFS="$jsys" "$M" controller journal --force "$blk0"
		expect_log "mock: controller journal --force DEV sends FORCE" "controller action=2 flags=1 cache=0 dev=7:0"
		check "mock: controller --force journal DEV" 0 "$jhdr" "" env MOCK_VRAID=dupname VRAIDCTL_SYSFS="$jsys" "$M" controller --force journal "$blk0"
		check "mock: controller journal DEV --json" 0 '"journal":{"state":"healthy","major":7,"minor":0,' "" env MOCK_VRAID=dupname VRAIDCTL_SYSFS="$jsys" "$M" controller journal "$blk0" --json
		check "mock: controller journal DEV, one attached" 1 "" "vraidctl: controller journal $blk1: a journal is attached already: detach it first (EBUSY: Device or resource busy)" env MOCK_VRAID=dupname MOCK_JOURNAL=healthy VRAIDCTL_SYSFS="$jsys" "$M" controller journal "$blk1"
		check "mock: controller journal DEV, one attached, hint" 1 "" "vraidctl: hint: a journal is attached already (/dev/loop0, 7:0, healthy): detach it first with \`vraidctl controller journal none\`" env MOCK_VRAID=dupname MOCK_JOURNAL=healthy VRAIDCTL_SYSFS="$jsys" "$M" controller journal "$blk1"
		out_lacks "mock: controller journal DEV, refused, prints nothing" -q .
		check "mock: controller journal DEV, in use" 1 "" "vraidctl: controller journal $blk0: 7:0 is a member of vraid0 (EBUSY" env MOCK_VRAID=dupname MOCK_FAIL="controller:EBUSY:7:0 is a member of vraid0" "$M" controller journal "$blk0"
		check "mock: controller journal DEV, in use, hint" 1 "" "vraidctl: hint: the device is in use: a virtual drive, a member or hot spare of one, mounted, or in md/dm" env MOCK_VRAID=dupname MOCK_FAIL="controller:EBUSY:7:0 is a member of vraid0" "$M" controller journal "$blk0"
		jdev="vraidctl: hint: a journal needs a writable block device of its own, at least 64 MiB, with logical blocks of at most 4 KiB: an NVMe namespace or a partition outside every virtual drive (see lsblk)"
		check "mock: controller journal DEV, too small" 1 "" "7:0 is 16 MiB: a journal needs at least 64 MiB (ENOSPC" env MOCK_VRAID=dupname MOCK_FAIL="controller:ENOSPC:7:0 is 16 MiB: a journal needs at least 64 MiB" "$M" controller journal "$blk0"
		check "mock: controller journal DEV, too small, hint" 1 "" "$jdev" env MOCK_VRAID=dupname MOCK_FAIL="controller:ENOSPC:7:0 is 16 MiB: a journal needs at least 64 MiB" "$M" controller journal "$blk0"
		check "mock: controller journal DEV, a VD, hint" 1 "" "$jdev" env MOCK_VRAID=dupname MOCK_FAIL="controller:EINVAL:7:0 is a vraid virtual drive" "$M" controller journal "$blk0"
		check "mock: controller journal DEV, damaged journal, hint" 1 "" "vraidctl: hint: \`vraidctl controller journal DEV --force\` formats it anew" env MOCK_VRAID=dupname MOCK_FAIL="controller:EINVAL:7:0 holds a damaged vraid journal: --force formats it" "$M" controller journal "$blk0"
		check "mock: controller journal DEV, not root" 1 "" "changing the controller needs CAP_SYS_ADMIN (run as root) (EPERM" env MOCK_VRAID=dupname MOCK_NOT_ROOT=1 "$M" controller journal "$blk0"
		err_lacks "mock: controller journal DEV, not root, no journal hint" "a journal needs"
		check "mock: controller journal DEV, module 1.8" 1 "" "$oldj" env MOCK_VRAID=dupname MOCK_ABI_MINOR=8 "$M" controller journal "$blk0"
		check "mock: controller journal DEV --force, module 1.8" 1 "" "unknown controller flags 0x1 (EINVAL" env MOCK_VRAID=dupname MOCK_ABI_MINOR=8 "$M" controller journal "$blk0" --force
		check "mock: controller journal DEV --force, module 1.8, hint" 1 "" "$oldj" env MOCK_VRAID=dupname MOCK_ABI_MINOR=8 "$M" controller journal "$blk0" --force
		# assemble --no-journal
		check "mock: assemble" 0 "vraid0: assembled fast, 2 of 2 devices used" "" env MOCK_VRAID=none "$M" assemble "$blk0" "$blk1"
		expect_log "mock: assemble sends no flags" "assemble nr=2 flags=0 devices=7:0,7:1"
		check "mock: assemble --no-journal" 0 "vraid0: assembled fast, 2 of 2 devices used" "vraidctl: warning: --no-journal: a VD whose acknowledged writes are in a journal that is not attached is assembled without them: those writes are lost" env MOCK_VRAID=none "$M" assemble --no-journal "$blk0" "$blk1"
		expect_log "mock: assemble --no-journal sends NO_JOURNAL" "assemble nr=2 flags=1 devices=7:0,7:1"
		check "mock: assemble --force" 0 "vraid0: assembled fast, 2 of 2 devices used" "" env MOCK_VRAID=none "$M" assemble --force "$blk0" "$blk1"
		expect_log "mock: assemble --force sends FORCE" "assemble nr=2 flags=2 devices=7:0,7:1"
		check "mock: assemble --no-journal --force" 0 "vraid0: assembled" "" env MOCK_VRAID=none "$M" assemble --no-journal --force "$blk0" "$blk1"
		expect_log "mock: assemble --no-journal --force sends both" "assemble nr=2 flags=3 devices=7:0,7:1"
		dd="VD 1b4e28ba-2fa1-4d2b-883f-0016d3cca427: unclean shutdown while degraded: 3 dirty regions may reconstruct wrongly"
		check "mock: assemble, dirty degraded" 1 "" "vraidctl: assemble $blk0 ...: $dd (EUCLEAN" env MOCK_VRAID=none MOCK_FAIL="assemble:EUCLEAN:$dd" "$M" assemble "$blk0" "$blk1"
		check "mock: assemble, dirty degraded, hint" 1 "" "\`vraidctl assemble --force\` assembles anyway, accepting possible loss in those regions" env MOCK_VRAID=none MOCK_FAIL="assemble:EUCLEAN:$dd" "$M" assemble "$blk0" "$blk1"
		check "mock: assemble DEV --no-journal DEV" 0 "vraid0: assembled" "" env MOCK_VRAID=none "$M" assemble "$blk0" --no-journal "$blk1"
		expect_log "mock: assemble DEV --no-journal DEV sends NO_JOURNAL" "assemble nr=2 flags=1 devices=7:0,7:1"
		# ABI 1.10: what the journal's replay did
		check "mock: assemble, nothing replayed" 0 "vraid0: assembled fast" "" env MOCK_VRAID=none "$M" assemble "$blk0" "$blk1"
		out_lacks "mock: assemble, nothing replayed: no replay line" -q "replayed"
		check "mock: assemble, replayed" 0 "vraid0: replayed 202 writes and 3 parity records from the controller journal (5 logged 4 KiB blocks superseded by later writes around the cache, not replayed there)" "" env MOCK_VRAID=none MOCK_REPLAYED="202 3 5" "$M" assemble "$blk0" "$blk1"
		check "mock: assemble, replayed one, none superseded" 0 "vraid0: replayed 1 write and 0 parity records from the controller journal" "" env MOCK_VRAID=none MOCK_REPLAYED="1 0 0" "$M" assemble "$blk0" "$blk1"
		out_lacks "mock: assemble, none superseded: not said" -q "superseded"
		check "mock: assemble, module 1.9: no replay line" 0 "vraid0: assembled fast" "" env MOCK_VRAID=none MOCK_ABI_MINOR=9 MOCK_REPLAYED="7 1 0" "$M" assemble "$blk0" "$blk1"
		out_lacks "mock: assemble, module 1.9: its counts not read" -q "replayed"
		jheld="writes wait in journal 8c1d0f3e-5244-4a1b-9e07-6d21c355a019: attach it (vraidctl controller journal DEV) or --no-journal"
		# (133 bytes: the reply cuts it at VRAID_MSG_LEN - 1, as the module's)
		check "mock: assemble, journal missing" 1 "" "vraidctl: assemble $blk0 ...: writes wait in journal 8c1d0f3e-5244-4a1b-9e07-6d21c355a019: attach it" env MOCK_VRAID=none MOCK_FAIL="assemble:ENOENT:$jheld" "$M" assemble "$blk0" "$blk1"
		check "mock: assemble, journal missing, hint" 1 "" "vraidctl: hint: attach the journal first (\`vraidctl controller journal DEV\`; \`vraidctl controller\` shows the one attached), then assemble again: the writes are replayed; --no-journal assembles without them (they are lost)" env MOCK_VRAID=none MOCK_FAIL="assemble:ENOENT:$jheld" "$M" assemble "$blk0" "$blk1"
		check "mock: assemble --no-journal, module 1.8" 1 "" "flags or reserved fields are not zero (EINVAL" env MOCK_VRAID=none MOCK_ABI_MINOR=8 MOCK_FAIL="assemble:EINVAL:flags or reserved fields are not zero" "$M" assemble --no-journal "$blk0" "$blk1"
		check "mock: assemble --no-journal, module 1.8, hint" 1 "" "vraidctl: hint: the vraid module speaks ABI 1.8, which has no journal and no --no-journal: leave --no-journal out, or load the module built with this vraidctl" env MOCK_VRAID=none MOCK_ABI_MINOR=8 MOCK_FAIL="assemble:EINVAL:flags or reserved fields are not zero" "$M" assemble --no-journal "$blk0" "$blk1"
		check "mock: assemble -- --no-journal" 1 "" "--no-journal: no such file" env MOCK_VRAID=none "$M" assemble "$blk0" -- --no-journal
	else
		say_skip "mock: controller journal DEV" "no block device node"
	fi
	# a module without CONTROLLER
	oldctl="vraidctl: hint: the vraid module speaks ABI 1.6, which has no controller command: load the module built with this vraidctl"
	check "mock: controller, module 1.6" 1 "" "vraidctl: controller show: unknown command 9: module and vraidctl differ? (ENOTTY: Inappropriate ioctl for device)" env MOCK_VRAID=dupname MOCK_ABI_MINOR=6 "$M" controller
	check "mock: controller, module 1.6, hint" 1 "" "$oldctl" env MOCK_VRAID=dupname MOCK_ABI_MINOR=6 "$M" controller
	err_lacks "mock: controller, module 1.6, one hint" "lacks this request"
	out_lacks "mock: controller, module 1.6, prints nothing" -q .
	check "mock: controller --json, module 1.6" 1 "" "$oldctl" env MOCK_VRAID=dupname MOCK_ABI_MINOR=6 "$M" controller --json
	out_lacks "mock: controller --json, module 1.6, prints nothing" -q .
	check "mock: controller set, module 1.3" 1 "" "the vraid module speaks ABI 1.3, which has no controller command" env MOCK_VRAID=dupname MOCK_ABI_MINOR=3 "$M" controller set cache-size=64M
	check "mock: controller journal none, module 1.6" 1 "" "$oldctl" env MOCK_VRAID=dupname MOCK_ABI_MINOR=6 "$M" controller journal none
	check "mock: controller, module 1.7 without it" 1 "" "vraidctl: hint: the vraid module (ABI 1.7) predates the controller command: load the module built with this vraidctl" env MOCK_ABI_MINOR=7 MOCK_FAIL="controller:ENOTTY:unknown command 9: module and vraidctl differ?" "$M" controller
	check "mock: controller, other commands still work on 1.6" 0 "vraid0" "" env MOCK_VRAID=dupname MOCK_ABI_MINOR=6 "$M" list
	if command -v python3 >/dev/null 2>&1; then
		check "mock: controller JSON parses, schema" 0 "json ok" "" python3 - "$tmp" <<'PY'
import json, sys
d = sys.argv[1]
keys = ["cache_bytes", "cache_default_bytes", "cache_max_bytes", "used_bytes",
        "dirty_bytes", "dirty_high_bytes", "vds", "journal"]
jkeys = ["state", "major", "minor", "size_bytes", "used_bytes", "device", "uuid",
         "head_seq", "tail_seq", "pending", "vds"]
for f, size in (("ctl.json", 128 << 20), ("ctl-set.json", 256 << 20)):
    c = json.load(open(d + "/" + f))
    assert list(c) == keys, (f, list(c))
    assert list(c["journal"]) == jkeys, (f, list(c["journal"]))
    assert c["cache_bytes"] == size and c["dirty_high_bytes"] == size // 2, (f, c)
    assert c["cache_default_bytes"] == 128 << 20 and c["cache_max_bytes"] == 1 << 30
    assert c["used_bytes"] == 12 << 20 and c["dirty_bytes"] == 0 and c["vds"] == 2
    assert c["journal"] == {"state": "none", "major": 0, "minor": 0, "size_bytes": 0,
                            "used_bytes": 0, "device": "", "uuid": "", "head_seq": 0,
                            "tail_seq": 0, "pending": 0, "vds": 0}, c["journal"]
c = json.load(open(d + "/ctl-journal.json"))
assert list(c) == keys and list(c["journal"]) == jkeys, c
assert c["journal"] == {"state": "healthy", "major": 7, "minor": 0,
                        "size_bytes": 1023 << 20, "used_bytes": 12 << 20,
                        "device": "/dev/loop0",
                        "uuid": "8c1d0f3e-5244-4a1b-9e07-6d21c355a019",
                        "head_seq": 1234, "tail_seq": 1000, "pending": 0,
                        "vds": 1}, c["journal"]
print("json ok")
PY
	else
		say_skip "mock: controller JSON parses, schema" "no python3"
	fi

	# create: the policy options, sent as asked
	rm -f "$tmp/log"
	if [ -n "$blk0" ]; then
		for f in "access ro:access=1 dcache=0 io=0 read=0 write=0" \
			 "access blocked:access=2 dcache=0 io=0 read=0 write=0" \
			 "access rw:access=0 dcache=0 io=0 read=0 write=0" \
			 "disk-cache on:access=0 dcache=1 io=0 read=0 write=0" \
			 "disk-cache off:access=0 dcache=2 io=0 read=0 write=0" \
			 "disk-cache default:access=0 dcache=0 io=0 read=0 write=0" \
			 "read-policy nora:access=0 dcache=0 io=0 read=0 write=0" \
			 "read-policy ra:access=0 dcache=0 io=0 read=1 write=0" \
			 "write-policy wt:access=0 dcache=0 io=0 read=0 write=0" \
			 "write-policy awb:access=0 dcache=0 io=0 read=0 write=2" \
			 "io-policy direct:access=0 dcache=0 io=0 read=0 write=0" \
			 "io-policy cached:access=0 dcache=0 io=1 read=0 write=0"; do
			o=${f%%:*}
			check "mock: create --$o" 0 "vraid4" "" env MOCK_VRAID=none "$M" create --level 1 "--${o% *}" "${o#* }" "$blk0" "$blk1"
			expect_log "mock: create --$o sends ${f#*:}" "create level=1 strip=0 nr=2 spans=0 name= members=7:0,7:1 init=1 ${f#*:}"
		done
		check "mock: create --disk-cache=OFF --access=ro" 0 "vraid4" "" env MOCK_VRAID=none "$M" create --level 0 --disk-cache=OFF --access=ro "$blk0" "$blk1"
		expect_log "mock: create --disk-cache=OFF --access=ro request" "create level=0 strip=0 nr=2 spans=0 name= members=7:0,7:1 init=0 access=1 dcache=2 io=0 read=0 write=0"
		check "mock: create with all five" 0 "vraid4" "" env MOCK_VRAID=none "$M" create --level 5 --init fast --access blocked --disk-cache on --read-policy nora --write-policy wt --io-policy direct "$blk0" "$blk1" "$blk2"
		expect_log "mock: create with all five request" "create level=5 strip=0 nr=3 spans=0 name= members=7:0,7:1,7:2 init=0 access=2 dcache=1 io=0 read=0 write=0"
		out_is "mock: create with policies, stdout is the name alone" vraid4
		check "mock: create --write-policy wb" 0 "vraid4" "" env MOCK_VRAID=none "$M" create --level 0 --write-policy wb "$blk0" "$blk1"
		expect_log "mock: create --write-policy wb sends it" "create level=0 strip=0 nr=2 spans=0 name= members=7:0,7:1 init=0 access=0 dcache=0 io=0 read=0 write=1"
		out_is "mock: create --write-policy wb, stdout is the name alone" vraid4
		# always write-back (ABI 1.8): taken, and said on stderr
		check "mock: create --write-policy awb" 0 "" "vraid4: always write-back: the controller cache is volatile, a power loss loses writes not yet flushed" env MOCK_VRAID=jobs "$M" create --level 0 --write-policy awb "$blk2" "$blk3"
		out_is "mock: create --write-policy awb, stdout is the name alone" vraid4
		expect_log "mock: create --write-policy awb sends it" "create level=0 strip=0 nr=2 spans=0 name= members=7:2,7:3 init=0 access=0 dcache=0 io=0 read=0 write=2"
		# a module before it refuses it
		check "mock: create --write-policy awb, module 1.7, refused" 1 "" "vraidctl: create: $oldawb (EOPNOTSUPP: Operation not supported)" env MOCK_VRAID=none MOCK_ABI_MINOR=7 "$M" create --level 0 --write-policy awb "$blk0" "$blk1"
		expect_log "mock: create --write-policy awb, module 1.7, sent as asked" "create level=0 strip=0 nr=2 spans=0 name= members=7:0,7:1 init=0 access=0 dcache=0 io=0 read=0 write=2"
		out_lacks "mock: create --write-policy awb, module 1.7, prints no name" -q .
		check "mock: create --write-policy awb, module 1.7, hint" 1 "" "$awbhint" env MOCK_VRAID=none MOCK_ABI_MINOR=7 "$M" create --level 0 --write-policy awb "$blk0" "$blk1"
		check "mock: create --io-policy cached, older module" 1 "" "the vraid module speaks ABI 1.5, which has no cached I/O" env MOCK_VRAID=none MOCK_ABI_MINOR=5 MOCK_FAIL="create:EOPNOTSUPP:cached I/O needs the controller cache" "$M" create --level 0 --io-policy cached "$blk0" "$blk1"
		check "mock: create --read-policy ra --io-policy cached" 0 "vraid4" "" env MOCK_VRAID=none "$M" create --level 0 --read-policy ra --io-policy cached "$blk0" "$blk1"
		expect_log "mock: create --read-policy ra --io-policy cached sends both" "create level=0 strip=0 nr=2 spans=0 name= members=7:0,7:1 init=0 access=0 dcache=0 io=1 read=1 write=0"
		check "mock: create --read-policy ra, module 1.6" 1 "" "vraidctl: create: $oldra (EOPNOTSUPP" env MOCK_VRAID=none MOCK_ABI_MINOR=6 MOCK_FAIL="create:EOPNOTSUPP:$oldra" "$M" create --level 0 --read-policy ra "$blk0" "$blk1"
		check "mock: create --read-policy ra, module 1.6, hint" 1 "" "$rahint" env MOCK_VRAID=none MOCK_ABI_MINOR=6 MOCK_FAIL="create:EOPNOTSUPP:$oldra" "$M" create --level 0 --read-policy ra "$blk0" "$blk1"
		err_lacks "mock: create --read-policy ra, module 1.6, no awb hint" "always write-back"
		out_lacks "mock: create --read-policy ra, module 1.6, prints no name" -q .
		check "mock: create --read-policy ra --write-policy awb" 0 "vraid4" "" env MOCK_VRAID=jobs "$M" create --level 0 --read-policy ra --write-policy awb "$blk2" "$blk3"
		expect_log "mock: create --read-policy ra --write-policy awb sends both" "create level=0 strip=0 nr=2 spans=0 name= members=7:2,7:3 init=0 access=0 dcache=0 io=0 read=1 write=2"
		if [ "$(cat "$tmp/err")" = "vraid4: always write-back: the controller cache is volatile, a power loss loses writes not yet flushed" ]; then
			say_ok "mock: create --read-policy ra --write-policy awb, the note alone"
		else
			say_not_ok "mock: create --read-policy ra --write-policy awb, the note alone: $(cat "$tmp/err")"
		fi
		check "mock: create --write-policy wb, its note" 0 "vraid4" "vraid4: write-back writes through for now: write-back needs a healthy journal (the controller's battery)" env MOCK_VRAID=jobs "$M" create --level 0 --write-policy wb "$blk2" "$blk3"
		err_lacks "mock: create --write-policy wb, no volatile note" "volatile"
		check "mock: create --write-policy wt, no note" 0 "vraid4" "" env MOCK_VRAID=jobs "$M" create --level 0 --write-policy wt "$blk2" "$blk3"
		if [ -s "$tmp/err" ]; then say_not_ok "mock: create --write-policy wt, empty stderr"; else say_ok "mock: create --write-policy wt, empty stderr"; fi
		check "mock: create --read-policy ra --write-policy awb, module 1.6" 1 "" "$oldawb" env MOCK_VRAID=none MOCK_ABI_MINOR=6 "$M" create --level 0 --read-policy ra --write-policy awb "$blk0" "$blk1"
		check "mock: create --read-policy ra --write-policy awb, module 1.6, hint" 1 "" "vraidctl: hint: the vraid module speaks ABI 1.6, which has no read-ahead and no always write-back: use read-policy nora and write-policy wt or wb, or load the module built with this vraidctl" env MOCK_VRAID=none MOCK_ABI_MINOR=6 "$M" create --level 0 --read-policy ra --write-policy awb "$blk0" "$blk1"
		check "mock: create EOPNOTSUPP not about the cache" 1 "" "RAID5 is not supported yet" env MOCK_FAIL="create:EOPNOTSUPP:RAID5 is not supported yet" "$M" create --level 5 --access ro "$blk0" "$blk1" "$blk2"
		err_lacks "mock: create EOPNOTSUPP not about the cache, no cache hint" "controller cache"
		check "mock: create policies, older module" 1 "" "the vraid module speaks ABI 1.3, which takes no policies at create: leave the policy options out" env MOCK_ABI_MINOR=3 MOCK_FAIL="create:EINVAL:reserved fields are not zero" "$M" create --level 0 --disk-cache off "$blk0" "$blk1"
		check "mock: create default policies, older module" 1 "" "reserved fields are not zero" env MOCK_ABI_MINOR=3 MOCK_FAIL="create:EINVAL:reserved fields are not zero" "$M" create --level 0 --access rw "$blk0" "$blk1"
		err_lacks "mock: create default policies, older module, no policy hint" "takes no policies"
	else
		say_skip "mock: create with policies" "no block device node"
	fi
	destructive_tests
	unset VRAIDCTL_CONTROL MOCK_LOG

	# vraid-raw: its own argument handling (the kernel side runs in the VM)
	check "raw: --help" 0 "usage: vraid-raw" "" "$R" --help
	check "raw: no arguments" 2 "" "usage: vraid-raw" "$R"
	check "raw: unknown check" 2 "" "unknown request or check 'bogus'" "$R" bogus
	check "raw: bad --expect" 2 "" "unknown errno name 'EFOO'" "$R" --expect EFOO bad-magic
	check "raw: info needs INDEX" 2 "" "INDEX: expected a number" "$R" bad-magic info
	check "raw: reserved info" 0 "vraid-raw: reserved info 0: got ENOTTY" "" env VRAIDCTL_CONTROL=/dev/null "$R" --expect ENOTTY reserved cmd info 0
	check "raw: no control device" 2 "" "cannot open $nope" env VRAIDCTL_CONTROL="$nope" "$R" bad-magic
	check "raw: /dev/null is not as expected" 1 "vraid-raw: bad-magic list: got ENOTTY (Inappropriate ioctl for device), no reply header; want EINVAL: FAIL" "" env VRAIDCTL_CONTROL=/dev/null "$R" bad-magic
	check "raw: --expect" 0 "want ENOTTY: ok" "" env VRAIDCTL_CONTROL=/dev/null "$R" --expect ENOTTY hdr-size 100 delete vraid3
	check "raw: --want-message" 1 "want ENOTTY with a message: FAIL" "" env VRAIDCTL_CONTROL=/dev/null "$R" --want-message wrong-type
	check "raw: garbage" 0 "garbage list: 40 rounds (seed 5): ENOTTY 40; want any error every round: ok" "" env VRAIDCTL_CONTROL=/dev/null "$R" garbage 40 5
	check "raw: create MAJ:MIN" 0 "send create (level 255, 2 members)" "" env VRAIDCTL_CONTROL=/dev/null "$R" --expect ENOTTY create --level jbod --name-fill 8:0 8:16
	check "raw: create --init" 0 "send create (level 0, 2 members)" "" env VRAIDCTL_CONTROL=/dev/null "$R" --expect ENOTTY create --init 1 8:0 8:16
	check "raw: job" 0 "send job 3 action 7: got ENOTTY" "" env VRAIDCTL_CONTROL=/dev/null "$R" --expect ENOTTY job vraid3 rate 100
	check "raw: job default EINVAL" 1 "bad-action job 0 action 1: got ENOTTY (Inappropriate ioctl for device), no reply header; want EINVAL: FAIL" "" env VRAIDCTL_CONTROL=/dev/null "$R" bad-action job 0 check
	# ioctlfuzz (a VM helper) opens the control device vraidctl would:
	# $VRAIDCTL_CONTROL, not always /dev/vraid-control
	printf 'cmd 0x%x len 8\n' 0 >"$tmp/replay"
	check "ioctlfuzz: VRAIDCTL_CONTROL, missing" 2 "" "ioctlfuzz: $nope: No such file or directory" env VRAIDCTL_CONTROL="$nope" "$tmp/$variant/ioctlfuzz" --replay "$tmp/replay"
	check "ioctlfuzz: VRAIDCTL_CONTROL=/dev/null" 0 "ioctlfuzz: replay: ENOTTY" "" env VRAIDCTL_CONTROL=/dev/null "$tmp/$variant/ioctlfuzz" --replay "$tmp/replay"
	check "raw: job bad action" 2 "" "job ACTION: expected a number, got 'frob'" "$R" job 0 frob
	check "raw: job bad-rate" 1 "want EINVAL: FAIL" "" env VRAIDCTL_CONTROL=/dev/null "$R" bad-rate job 0 rate
	check "raw: job reserved" 1 "want EINVAL: FAIL" "" env VRAIDCTL_CONTROL=/dev/null "$R" reserved cmd job 0 pause
	check "raw: small job" 1 "small job 0 action 1" "" env VRAIDCTL_CONTROL=/dev/null "$R" small job 0 check
	check "raw: spare" 0 "send spare action 1 8:64: got ENOTTY" "" env VRAIDCTL_CONTROL=/dev/null "$R" --expect ENOTTY spare add 8:64 --vd 2
	check "raw: spare list" 0 "send spare action 3 0:0" "" env VRAIDCTL_CONTROL=/dev/null "$R" --expect ENOTTY spare list
	check "raw: spare bad-flags" 1 "bad-flags spare action 1 8:64" "" env VRAIDCTL_CONTROL=/dev/null "$R" bad-flags spare add 8:64
	check "raw: spare bad-dev" 1 "bad-dev spare action 2 8:64" "" env VRAIDCTL_CONTROL=/dev/null "$R" bad-dev 4096:1 spare remove 8:64
	check "raw: spare two devices" 2 "" "spare: one device only" "$R" spare add 8:64 8:80
	check "raw: replace" 0 "send replace 1 8:16 8:32: got ENOTTY" "" env VRAIDCTL_CONTROL=/dev/null "$R" --expect ENOTTY replace 1 8:16 8:32 --force
	check "raw: replace bad-dev same" 1 "bad-dev replace 1 8:16 8:32" "" env VRAIDCTL_CONTROL=/dev/null "$R" bad-dev same replace 1 8:16 8:32
	check "raw: replace needs NEW" 2 "" "replace NEW: name a device" "$R" replace 1 8:16
	check "raw: bad-action on list" 2 "" "bad-action: only job and spare have an action" env VRAIDCTL_CONTROL=/dev/null "$R" bad-action list
	check "raw: bad-flags on job" 2 "" "bad-flags: job has no flags of its own" env VRAIDCTL_CONTROL=/dev/null "$R" bad-flags job 0 stop
	check "raw: bad-dev same on spare" 2 "" "bad-dev same: only for replace" env VRAIDCTL_CONTROL=/dev/null "$R" bad-dev same spare add 8:64
	check "raw: garbage job" 0 "garbage job 0 action 4: 20 rounds" "" env VRAIDCTL_CONTROL=/dev/null "$R" garbage 20 3 job 0 pause
	check "raw: set" 0 "send set 0 mask 0x1 access 1 dcache 0 io 0 read 0 write 0: got ENOTTY" "" env VRAIDCTL_CONTROL=/dev/null "$R" --expect ENOTTY set 0 access=1
	check "raw: set all keys" 0 "send set 3 mask 0x1f access 1 dcache 2 io 3 read 4 write 5: got ENOTTY" "" env VRAIDCTL_CONTROL=/dev/null "$R" --expect ENOTTY set vraid3 write=5 read=4 io=3 disk-cache=2 access=1
	check "raw: set mask=" 0 "send set 0 mask 0x1 access 0 dcache 2 io 0 read 0 write 0" "" env VRAIDCTL_CONTROL=/dev/null "$R" --expect ENOTTY set 0 mask=1 disk-cache=2
	check "raw: set no key, mask 0" 0 "send set 0 mask 0x0 access 0" "" env VRAIDCTL_CONTROL=/dev/null "$R" --expect ENOTTY set 0
	check "raw: set default ok" 1 "want ok: FAIL" "" env VRAIDCTL_CONTROL=/dev/null "$R" set 0 access=1
	check "raw: set reserved" 1 "reserved set 0 mask 0x1 access 1 dcache 0 io 0 read 0 write 0: got ENOTTY (Inappropriate ioctl for device), no reply header; want EINVAL: FAIL" "" env VRAIDCTL_CONTROL=/dev/null "$R" reserved cmd set 0 access=1
	check "raw: set reserved tail" 1 "want EINVAL: FAIL" "" env VRAIDCTL_CONTROL=/dev/null "$R" reserved tail set 0 access=1
	check "raw: small set" 1 "small set 0 mask 0x2" "" env VRAIDCTL_CONTROL=/dev/null "$R" small set 0 disk-cache=2
	check "raw: set bad-flags" 1 "bad-flags set 0 mask 0x1 access 1 dcache 0 io 0 read 0 write 0: got ENOTTY (Inappropriate ioctl for device), no reply header; want EINVAL: FAIL" "" env VRAIDCTL_CONTROL=/dev/null "$R" bad-flags set 0 access=1
	check "raw: set unknown key" 2 "" "set: 'foo=1' is not KEY=N with KEY access, disk-cache, io, read, write or mask" "$R" set 0 foo=1
	check "raw: set not KEY=N" 2 "" "set: 'access' is not KEY=N" "$R" set 0 access
	check "raw: set bad value" 2 "" "access=x: expected a number, got 'x'" "$R" set 0 access=x
	check "raw: set needs INDEX" 2 "" "INDEX: expected a number" "$R" set
	check "raw: bad-action on set" 2 "" "bad-action: only job and spare have an action" "$R" bad-action set 0 access=1
	check "raw: create policies" 0 "send create (level 0, 2 members): got ENOTTY" "" env VRAIDCTL_CONTROL=/dev/null "$R" --expect ENOTTY create --access 1 --disk-cache 2 --io 0 --read 0 --write 1 8:0 8:16
	check "raw: create policy needs a number" 2 "" "--write: expected a number, got 'wb'" "$R" create --write wb 8:0 8:16
	check "raw: create reserved cmd" 1 "reserved create (level 0, 2 members)" "" env VRAIDCTL_CONTROL=/dev/null "$R" reserved cmd create 8:0 8:16
	check "raw: --help set" 0 "set INDEX [KEY=N...]" "" "$R" --help
	if [ "$(id -u)" = 0 ]; then
		check "raw: --drop-privs" 0 "want ENOTTY: ok" "" env VRAIDCTL_CONTROL=/dev/null "$R" --drop-privs --expect ENOTTY create 8:0 8:16
		check "raw: --drop-privs default EPERM" 1 "want EPERM: FAIL" "" env VRAIDCTL_CONTROL=/dev/null "$R" --drop-privs delete 0
		check "raw: --drop-privs set default EPERM" 1 "send set 0 mask 0x1 access 1 dcache 0 io 0 read 0 write 0: got ENOTTY (Inappropriate ioctl for device), no reply header; want EPERM: FAIL" "" env VRAIDCTL_CONTROL=/dev/null "$R" --drop-privs set 0 access=1
		check "raw: --drop-privs set --expect" 0 "want ENOTTY: ok" "" env VRAIDCTL_CONTROL=/dev/null "$R" --drop-privs --expect ENOTTY set 0 write=1
	else
		check "raw: --drop-privs needs root" 2 "" "must start as root" env VRAIDCTL_CONTROL=/dev/null "$R" --drop-privs create 8:0
	fi
}

# ---- main -------------------------------------------------------------------

abi=$(sed -n 's/^#define VRAID_ABI_MAJOR[[:space:]]*\([0-9]*\).*/\1/p' "$root/uapi/linux/vraid.h").$(sed -n 's/^#define VRAID_ABI_MINOR[[:space:]]*\([0-9]*\).*/\1/p' "$root/uapi/linux/vraid.h")
blk0='' blk1='' blk2='' blk3='' blk4=''
if mknod "$tmp/blk0" b 7 0 2>/dev/null; then
	for i in 1 2 3 4; do mknod "$tmp/blk$i" b 7 "$i"; done
	blk0=$tmp/blk0 blk1=$tmp/blk1 blk2=$tmp/blk2 blk3=$tmp/blk3 blk4=$tmp/blk4
	ln -s "$tmp/blk0" "$tmp/blk0-link"
else
	echo "# mknod failed (not root?): tests that need block device nodes are skipped"
fi
many=
for i in $(seq 1 33); do many="$many $tmp/blk-many-$i"; done

if build plain ""; then
	say_ok "build -Wall -Wextra -Werror"
	run_tests
else
	say_not_ok "build -Wall -Wextra -Werror"
fi

if [ "${SANITIZE:-1}" != 0 ] && build asan "-g -fsanitize=address,undefined -fno-sanitize-recover=all" 2>"$tmp/asan-build.log" &&
   "$tmp/asan/vraidctl" --help >/dev/null 2>&1; then
	variant=asan
	export ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
	run_tests
else
	variant=asan
	say_skip "sanitizer build" "compiler or runtime without -fsanitize=address,undefined"
fi

echo "1..$n"
echo "cli-args: $((n - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
