// SPDX-License-Identifier: GPL-2.0
/*
 * vraidctl - create, delete, inspect and maintain vraid virtual drives (VDs):
 * background jobs (init, rebuild, check, repair), hot spares, replacement,
 * policies (access, disk cache, read, write, I/O), and the controller (its
 * cache, shared by all VDs, and its journal, the "battery" of write-back).
 *
 * Talks to the vraid module through ioctls on /dev/vraid-control (the
 * environment variable VRAIDCTL_CONTROL names another file, for tests).
 * Depends on nothing but libc and uapi/linux/vraid.h.
 *
 * Exit status: 0 success; 1 the system or the kernel refused (missing
 * device, module not loaded, kernel error); 2 bad command line.
 * Errors go to stderr as "vraidctl: <what was wrong>", optionally followed
 * by "vraidctl: hint: <what to do>".
 *
 * JSON output (--json)
 * ====================
 * One line of compact JSON (no whitespace between tokens) followed by a
 * newline, keys always present and always in the order below, so scripts
 * may parse it with a JSON parser or match it with grep.  Strings are valid
 * UTF-8; '"', '\', control characters and bytes that are not valid UTF-8
 * are written as JSON escapes (an invalid byte 0xNN becomes \u00NN).
 * Sizes are in bytes (integers); counters are integers.  Unknown enum
 * values (from a newer module) are written as "unknown".  New keys may be
 * added at the end of an object in later versions; existing keys keep
 * their names, types and meanings.
 *
 * vraidctl list --json
 *   {"vds":[VD_SUMMARY,...]}          ("vds":[] when there are none)
 *   VD_SUMMARY:
 *     "vd"           string  kernel name, "vraid0"
 *     "index"        int     N of /dev/vraidN
 *     "name"         string  label given with --name, "" if none
 *     "level"        string  "jbod" "raid0" "raid1" "raid5" "raid6"
 *                            "raid10" "raid50" "raid60"
 *     "state"        string  "optimal" "degraded" "rebuilding" "offline"
 *     "size_bytes"   int     capacity of the VD
 *     "strip_bytes"  int     strip (chunk) size, 0 when the level has none
 *     "members"      int     number of member devices
 *     "job"          string  the running (or paused) background job: "none"
 *                            "init" "rebuild" "check" "repair" "resync"
 *     "job_percent"  number  its progress, one decimal (42.0); 0.0 if none
 *
 * vraidctl show VD --json
 *   {"vd":..,"index":..,"device":..,"name":..,"level":..,"state":..,
 *    "size_bytes":..,"strip_bytes":..,"spans":..,"full_stripe_bytes":..,
 *    "data_offset_bytes":..,"member_data_bytes":..,"logical_block_size":..,
 *    "open_count":..,"policies":{..},"members":[MEMBER,...],"job":{..},
 *    "last_job":{..},"write_in_effect":{..}}
 *     "vd" "index" "name" "level" "state" "size_bytes" "strip_bytes"
 *                            as in VD_SUMMARY
 *     "device"             string  "/dev/vraid0"
 *     "spans"              int     RAID50/60 span count, else 0
 *     "full_stripe_bytes"  int     strip_bytes x data members (RAID0: x n,
 *                                  RAID1: x 1, RAID10: x n/2, RAID5: x n-1,
 *                                  RAID6: x n-2, RAID50/60: x (n - spans x
 *                                  parity)); 0 for jbod
 *     "data_offset_bytes"  int     where the data area starts on each member
 *     "member_data_bytes"  int     data area used on each member
 *     "logical_block_size" int     bytes
 *     "open_count"         int     openers of /dev/vraidN
 *     "policies"  object  {"access":"rw"|"ro"|"blocked",
 *                          "disk_cache":"default"|"enabled"|"disabled",
 *                          "io":"direct"|"cached",
 *                          "read":"no_read_ahead"|"read_ahead",
 *                          "write":"write_through"|"write_back"|
 *                                  "always_write_back"}
 *     "members"   array   MEMBER objects in the kernel's order:
 *       "role"        int     position in the VD, 0-based
 *       "device"      string  "/dev/nvme0n1", "" if the kernel has no name
 *       "major"       int
 *       "minor"       int
 *       "state"       string  "online" "failed" "rebuilding" "missing"
 *       "size_bytes"  int     size of the whole member device
 *       "data_bytes"  int     data area of the member used by the VD
 *       "read_ios"    int     member I/Os issued by the VD
 *       "write_ios"   int
 *       "errors"      int     I/O errors seen on the member
 *     "job"       object  the background job running (or paused) now:
 *       "type"          string  "none" "init" "rebuild" "check" "repair"
 *                               "resync"
 *       "state"         string  "running" "paused", "none" if no job
 *       "done_bytes"    int     done on each member
 *       "total_bytes"   int     to do on each member
 *       "percent"       number  done_bytes / total_bytes, one decimal (42.0)
 *       "eta_seconds"   int     estimated time left, 0 if unknown
 *       "rate_kib"      int     rate limit in KiB/s per member, 0 = none
 *                               (set with `vraidctl job VD rate`, kept
 *                               while no job runs)
 *       "mismatches"    int     inconsistent blocks found so far (check,
 *                               repair)
 *     "last_job"  object  the last job that finished:
 *       "type"          string  as job.type ("none" if none has finished)
 *       "result"        int     0 done, else the errno it failed with
 *       "mismatches"    int     inconsistent blocks it found (check,
 *                               repair)
 *     "write_in_effect" object  how writes are handled now (ABI 1.5):
 *       "mode"          string  "write_through" "write_back" (journalled:
 *                               write-back with a healthy journal, ABI
 *                               1.9) "write_back_volatile" (always
 *                               write-back: the controller cache is
 *                               volatile, ABI 1.8) "draining"
 *       "why"           string  why it differs from policies.write:
 *                               "no_journal" (write-back without a
 *                               healthy journal: none attached, or it
 *                               awaits replay), "journal_failed" (the
 *                               journal had an I/O error), or ""
 *
 * vraidctl stats VD --json
 *   {"vd":..,"index":..,"level":..,"state":..,"reads":..,"read_bytes":..,
 *    "writes":..,"write_bytes":..,"flushes":..,"in_flight":..,
 *    "read_repairs":..,"cache":{..},"members":[MSTAT,...]}
 *     "vd" "index" "level" "state"   as in VD_SUMMARY
 *     "reads" "writes"       int     I/Os the block layer counted for
 *                                    /dev/vraidN since create/assembly
 *     "read_bytes" "write_bytes" int
 *     "flushes"      int     flushes vraid received
 *     "in_flight"    int     I/Os in flight now
 *     "read_repairs" int     read errors corrected from redundancy
 *     "cache"        object  the controller cache's counters, or null from
 *                            a module without them (before ABI 1.6):
 *       "read_hits"    int   4 KiB pages of reads answered from the cache
 *       "read_misses"  int   4 KiB pages of reads that looked the cache up
 *                            and were not answered from it
 *       "cached_bytes" int   what the VD holds in the cache now
 *       "ra_hits"      int   4 KiB pages of reads answered from pages that
 *                            read-ahead brought in (counted in read_hits
 *                            too); null from a module without read-ahead
 *                            counters (before ABI 1.7)
 *       "ra_pages"     int   4 KiB pages read ahead into the cache; null
 *                            as ra_hits
 *       "dirty_bytes"  int   what the VD wrote into the cache that is not
 *                            on its members yet (always write-back); null
 *                            from a module without write-back counters
 *                            (before ABI 1.8)
 *       "write_pages"  int   4 KiB pages written into the cache; null as
 *                            dirty_bytes
 *       "destaged_pages" int 4 KiB pages written from the cache to the
 *                            members; null as dirty_bytes
 *       "journal_writes" int writes logged to the journal (write-back
 *                            with a journal); null from a module without
 *                            journal counters (before ABI 1.9)
 *       "journal_pages" int  4 KiB pages of data logged; null as
 *                            journal_writes
 *       "journal_refs" int   4 KiB pages destaged that parity records
 *                            named (in the record that logged them)
 *                            instead of logging them again; null from
 *                            a module without the counter
 *       "fill_pages"   int   4 KiB pages read from the members to
 *                            complete rows for their destage (row fill,
 *                            rotational parity VDs); null from a module
 *                            without the counter
 *       "dirty_waits"  int   writes into the cache that waited for the
 *                            dirty data of all VDs to drop under the
 *                            cache's high-water mark; null from a module
 *                            without the counter
 *       "journal_waits" int  writes that waited because the journal's
 *                            bound on pages cached but not logged yet
 *                            was reached; null as dirty_waits
 *     MSTAT: "role" "device" "state" as in MEMBER; "reads" "writes" (I/Os
 *            vraid sent it), "read_bytes" "write_bytes" (as the member
 *            device counted them), "errors"
 * vraidctl stats VD --watch --json: one line per report
 *   {"vd":..,"time":"HH:MM:SS","interval":SECONDS,"state":..,
 *    "reads_per_s":..,"writes_per_s":..,"read_bytes_per_s":..,
 *    "write_bytes_per_s":..,"flushes_per_s":..,"in_flight":..,
 *    "read_repairs":..,"cache":{..},"members":[{"role":..,"device":..,
 *    "state":..,"reads_per_s":..,"writes_per_s":..,"read_bytes_per_s":..,
 *    "write_bytes_per_s":..,"errors":..},...]}
 *     rates are numbers (I/Os: one decimal; bytes: whole) over the interval
 *     "cache"  {"read_hits_per_s":..,"read_misses_per_s":..,
 *              "cached_bytes":..,"ra_hits_per_s":..,"ra_pages_per_s":..,
 *              "dirty_bytes":..,"write_pages_per_s":..,
 *              "destaged_pages_per_s":..,"journal_writes_per_s":..,
 *              "journal_pages_per_s":..,"journal_refs_per_s":..,
 *              "fill_pages_per_s":..,"dirty_waits_per_s":..,
 *              "journal_waits_per_s":..}:
 *              the rates of the counters above (pages, one decimal), what
 *              the VD holds now and what of it is dirty; null, and the ra_
 *              and write-back ones null, as without --watch
 *
 * vraidctl spare list --json
 *   {"spares":[SPARE,...]}            ("spares":[] when there are none)
 *   SPARE:
 *     "device"       string  "/dev/sde", "" if the kernel has no name
 *     "major"        int
 *     "minor"        int
 *     "size_bytes"   int     size of the whole device
 *     "vd"           string  "vraid0" for a spare dedicated to that VD,
 *                            "" for a global spare (any VD may use it)
 *
 * vraidctl controller [show] --json, vraidctl controller set ... --json,
 * vraidctl controller journal ... --json
 *   {"cache_bytes":..,"cache_default_bytes":..,"cache_max_bytes":..,
 *    "used_bytes":..,"dirty_bytes":..,"dirty_high_bytes":..,"vds":..,
 *    "journal":{..}}                  (set, journal: the state after it)
 *     "cache_bytes"          int     the controller cache's size now
 *     "cache_default_bytes"  int     what cache-size=default gives here
 *     "cache_max_bytes"      int     the largest size this machine takes
 *                                    (half the RAM, at most 1 TiB)
 *     "used_bytes"           int     what all VDs hold in the cache now
 *     "dirty_bytes"          int     written data not on the members yet,
 *                                    all VDs (always write-back; always 0
 *                                    from a module before ABI 1.8)
 *     "dirty_high_bytes"     int     where writers would wait for destage
 *     "vds"                  int     virtual drives sharing the cache
 *     "journal"   object  the controller's journal (ABI 1.9; the keys
 *                         after "used_bytes" are 0 or "" with an older
 *                         module):
 *       "state"       string  "none" "healthy" "replay_pending" (it holds
 *                             writes of VDs not assembled yet) "failed"
 *                             (an I/O error); write-back VDs write
 *                             through unless it is "healthy"
 *       "major"       int     its device number, 0 with none
 *       "minor"       int
 *       "size_bytes"  int     its ring, 0 with none
 *       "used_bytes"  int     what the ring holds, 0 with none
 *       "device"      string  "/dev/nvme2n1", "" with none or if sysfs
 *                             does not name it
 *       "uuid"        string  its UUID, "8c1d0f3e-...", "" with none
 *       "head_seq"    int     the next record's sequence number
 *       "tail_seq"    int     the oldest record still needed
 *       "pending"     int     VDs whose writes await replay (assemble
 *                             them, or discard the writes)
 *       "vds"         int     VDs logging to it now (write-back in effect)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <dirent.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/vraid.h>

/* The on-disk format, shared with the module (driver/metadata.c). */
#include "metadata.h"
/* The controller cache's size bounds (macros only: driver/cachecore.h). */
#include "cachecore.h"
/* The journal's superblock magic and slots (macros only: driver/jformat.h). */
#include "jformat.h"
/* A VD's geometry from its members' size, as the module computes it. */
#include "layout.h"
/* The release (VRAID_VERSION), shared with the module and the packages. */
#include "version.h"

#define VRAIDCTL_VERSION	VRAID_VERSION
#define CONTROL_DEFAULT		"/dev/" VRAID_CONTROL_NAME
#define SECTOR_BYTES		512ULL
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))

enum { RC_OK = 0, RC_FAIL = 1, RC_USAGE = 2 };

/* ---- messages ---------------------------------------------------------- */

static void vmsg(const char *prefix, const char *fmt, va_list ap)
{
	fputs(prefix, stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

#define MSG_FN(fn, prefix)						\
static void __attribute__((format(printf, 1, 2))) fn(const char *fmt, ...) \
{									\
	va_list ap;							\
									\
	va_start(ap, fmt);						\
	vmsg(prefix, fmt, ap);						\
	va_end(ap);							\
}
MSG_FN(errmsg, "vraidctl: ")
MSG_FN(hintmsg, "vraidctl: hint: ")

static const struct { int e; const char *name; } errnames[] = {
#define E(x) { x, #x }
	E(EPERM), E(ENOENT), E(ESRCH), E(EINTR), E(EIO), E(ENXIO), E(E2BIG),
	E(EBADF), E(EAGAIN), E(ENOMEM), E(EACCES), E(EFAULT), E(ENOTBLK),
	E(EBUSY), E(EEXIST), E(EXDEV), E(ENODEV), E(ENOTDIR), E(EISDIR),
	E(EINVAL), E(ENFILE), E(EMFILE), E(ENOTTY), E(EFBIG), E(ENOSPC),
	E(EROFS), E(ERANGE), E(ENAMETOOLONG), E(ENOSYS), E(ENODATA),
	E(EPROTO), E(EOVERFLOW), E(EMSGSIZE), E(EOPNOTSUPP), E(ETIMEDOUT),
	E(EALREADY), E(EINPROGRESS), E(ESTALE), E(EDQUOT), E(ECANCELED),
#undef E
	{ 515, "ENOIOCTLCMD" },	/* kernel-internal values: a bug if seen */
	{ 524, "ENOTSUPP" },
};

static const char *errname(int e)
{
	static char buf[24];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(errnames); i++)
		if (errnames[i].e == e)
			return errnames[i].name;
	snprintf(buf, sizeof(buf), "errno %d", e);
	return buf;
}

/* ---- strings from the kernel -------------------------------------------- */

/* Length of the valid UTF-8 sequence at @s (@n bytes left), 0 if invalid. */
static size_t utf8_seq(const unsigned char *s, size_t n)
{
	unsigned char c = s[0], lo = 0x80, hi = 0xBF;
	size_t len, i;

	if (c < 0x80)
		return 1;
	if (c >= 0xC2 && c <= 0xDF) {
		len = 2;
	} else if (c >= 0xE0 && c <= 0xEF) {
		len = 3;
		lo = c == 0xE0 ? 0xA0 : 0x80;
		hi = c == 0xED ? 0x9F : 0xBF;
	} else if (c >= 0xF0 && c <= 0xF4) {
		len = 4;
		lo = c == 0xF0 ? 0x90 : 0x80;
		hi = c == 0xF4 ? 0x8F : 0xBF;
	} else {
		return 0;
	}
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xBF)
			return 0;
	return len;
}

/*
 * Copy the fixed-size, possibly unterminated kernel string @src (array of
 * @srcsz bytes) into @dst for a terminal: control characters, C1 controls
 * and invalid UTF-8 become '?'.  Returns @dst.
 */
static char *tty_str(char *dst, size_t dstsz, const char *src, size_t srcsz)
{
	const unsigned char *s = (const unsigned char *)src;
	size_t n = strnlen(src, srcsz), i = 0, o = 0, l;

	while (i < n) {
		l = utf8_seq(s + i, n - i);
		if (l == 0 || s[i] < 0x20 || s[i] == 0x7f ||
		    (l == 2 && s[i] == 0xC2 && s[i + 1] < 0xA0)) {
			if (o + 2 > dstsz)
				break;
			dst[o++] = '?';
			i += l ? l : 1;
			continue;
		}
		if (o + l + 1 > dstsz)
			break;
		memcpy(dst + o, s + i, l);
		o += l;
		i += l;
	}
	dst[o] = '\0';
	return dst;
}

/* Write @src (at most @srcsz bytes, NUL-terminated or not) as a JSON string. */
static void json_str(const char *src, size_t srcsz)
{
	const unsigned char *s = (const unsigned char *)src;
	size_t n = strnlen(src, srcsz), i = 0, l;

	putchar('"');
	while (i < n) {
		unsigned char c = s[i];

		l = utf8_seq(s + i, n - i);
		if (c == '"' || c == '\\') {
			printf("\\%c", c);
		} else if (c == '\n') {
			fputs("\\n", stdout);
		} else if (c == '\t') {
			fputs("\\t", stdout);
		} else if (c < 0x20 || c == 0x7f || l == 0) {
			printf("\\u%04x", c);
		} else {
			fwrite(s + i, 1, l, stdout);
			i += l;
			continue;
		}
		i++;
	}
	putchar('"');
}

/* ---- sizes -------------------------------------------------------------- */

/* "1.5 GiB", "64 KiB", "512 B": binary units, at most one decimal. */
static char *human_size(char *buf, size_t bufsz, uint64_t bytes)
{
	static const char *const unit[] = {
		"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"
	};
	unsigned int u = 0;
	uint64_t tenths;
	double v = (double)bytes;

	while (v >= 1024.0 && u + 1 < ARRAY_SIZE(unit)) {
		v /= 1024.0;
		u++;
	}
	tenths = (uint64_t)(v * 10.0 + 0.5);
	if (tenths >= 10240 && u + 1 < ARRAY_SIZE(unit)) {
		u++;
		tenths = (uint64_t)(v / 1024.0 * 10.0 + 0.5);
	}
	if (u == 0 || tenths % 10 == 0)
		snprintf(buf, bufsz, "%llu %s",
			 (unsigned long long)(u ? tenths / 10 : bytes), unit[u]);
	else
		snprintf(buf, bufsz, "%llu.%llu %s",
			 (unsigned long long)(tenths / 10),
			 (unsigned long long)(tenths % 10), unit[u]);
	return buf;
}

/* Parse "65536", "64K", "64k", "64KiB", "64KB", "1M", "1MiB", "1G", "1T". */
static bool parse_size(const char *s, uint64_t *out)
{
	static const struct { const char *sfx; unsigned int shift; } sfx[] = {
		{ "", 0 }, { "b", 0 },
		{ "k", 10 }, { "kb", 10 }, { "kib", 10 },
		{ "m", 20 }, { "mb", 20 }, { "mib", 20 },
		{ "g", 30 }, { "gb", 30 }, { "gib", 30 },
		{ "t", 40 }, { "tb", 40 }, { "tib", 40 },
	};
	uint64_t v = 0;
	size_t i;

	if (*s < '0' || *s > '9')
		return false;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (v > (UINT64_MAX - 9) / 10)
			return false;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	for (i = 0; i < ARRAY_SIZE(sfx); i++) {
		if (strcasecmp(s, sfx[i].sfx))
			continue;
		if (v > (UINT64_MAX >> sfx[i].shift))
			return false;
		*out = v << sfx[i].shift;
		return true;
	}
	return false;
}

/* A plain decimal number up to UINT32_MAX. */
static bool parse_u32(const char *s, uint32_t *out)
{
	uint64_t v;

	if (s[strspn(s, "0123456789")] || !parse_size(s, &v) || v > UINT32_MAX)
		return false;
	*out = (uint32_t)v;
	return true;
}

/* ---- names of ABI values ------------------------------------------------- */

struct vname { uint32_t v; const char *human, *json; };

static const struct vname levels[] = {
	{ VRAID_LEVEL_JBOD, "JBOD", "jbod" }, { VRAID_LEVEL_0, "RAID0", "raid0" },
	{ VRAID_LEVEL_1, "RAID1", "raid1" }, { VRAID_LEVEL_5, "RAID5", "raid5" },
	{ VRAID_LEVEL_6, "RAID6", "raid6" }, { VRAID_LEVEL_10, "RAID10", "raid10" },
	{ VRAID_LEVEL_50, "RAID50", "raid50" }, { VRAID_LEVEL_60, "RAID60", "raid60" },
};
static const struct vname vd_states[] = {
	{ VRAID_VD_OPTIMAL, "Optimal", "optimal" }, { VRAID_VD_DEGRADED, "Degraded", "degraded" },
	{ VRAID_VD_REBUILDING, "Rebuilding", "rebuilding" }, { VRAID_VD_OFFLINE, "Offline", "offline" },
};
static const struct vname member_states[] = {
	{ VRAID_MEMBER_ONLINE, "Online", "online" }, { VRAID_MEMBER_FAILED, "Failed", "failed" },
	{ VRAID_MEMBER_REBUILDING, "Rebuilding", "rebuilding" },
	{ VRAID_MEMBER_MISSING, "Missing", "missing" },
};
static const struct vname access_pols[] = {
	{ VRAID_ACCESS_RW, "RW", "rw" }, { VRAID_ACCESS_RO, "RO", "ro" },
	{ VRAID_ACCESS_BLOCKED, "Blocked", "blocked" },
};
static const struct vname dcache_pols[] = {
	/* "On"/"Off" as `create --disk-cache` and `set disk-cache=` say it */
	{ VRAID_DCACHE_DEFAULT, "Default", "default" }, { VRAID_DCACHE_ENABLED, "On", "enabled" },
	{ VRAID_DCACHE_DISABLED, "Off", "disabled" },
};
static const struct vname io_pols[] = {
	{ VRAID_IO_DIRECT, "Direct", "direct" }, { VRAID_IO_CACHED, "Cached", "cached" },
};
static const struct vname read_pols[] = {
	{ VRAID_READ_NORA, "No Read Ahead", "no_read_ahead" },
	{ VRAID_READ_AHEAD, "Read Ahead", "read_ahead" },
};
static const struct vname write_pols[] = {
	{ VRAID_WRITE_THROUGH, "Write Through", "write_through" },
	{ VRAID_WRITE_BACK, "Write Back", "write_back" },
	{ VRAID_WRITE_BACK_ALWAYS, "Always Write Back", "always_write_back" },
};
static const struct vname job_types[] = {
	{ VRAID_JOB_NONE, "none", "none" }, { VRAID_JOB_INIT, "init", "init" },
	{ VRAID_JOB_REBUILD, "rebuild", "rebuild" },
	{ VRAID_JOB_CHECK, "check", "check" },
	{ VRAID_JOB_REPAIR, "repair", "repair" },
	{ VRAID_JOB_RESYNC, "resync", "resync" },
};
static const struct vname job_states[] = {
	{ VRAID_JOB_RUNNING, "running", "running" },
	{ VRAID_JOB_PAUSED, "paused", "paused" },
};
static const struct vname init_modes[] = {
	{ VRAID_INIT_FAST, "fast", "fast" },
	{ VRAID_INIT_BACKGROUND, "background", "background" },
	{ VRAID_INIT_FULL, "full", "full" },
};

static const char *vname_of(const struct vname *t, size_t n, uint32_t v,
			    bool json)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (t[i].v == v)
			return json ? t[i].json : t[i].human;
	return json ? "unknown" : "Unknown";
}
#define VNAME(t, v, json) vname_of(t, ARRAY_SIZE(t), v, json)

/* ---- policies: the words of create's options and of `set` --------------- */

struct pol_word {
	const char *word;	/* on the command line: "wt" */
	uint32_t v;		/* VRAID_WRITE_THROUGH */
	const char *says;	/* in set's output: "write-through" */
};

static const struct pol_word access_words[] = {
	{ "rw", VRAID_ACCESS_RW, "rw" }, { "ro", VRAID_ACCESS_RO, "ro" },
	{ "blocked", VRAID_ACCESS_BLOCKED, "blocked" },
};
static const struct pol_word dcache_words[] = {
	{ "on", VRAID_DCACHE_ENABLED, "on" }, { "off", VRAID_DCACHE_DISABLED, "off" },
	{ "default", VRAID_DCACHE_DEFAULT, "default" },
};
static const struct pol_word read_words[] = {
	{ "ra", VRAID_READ_AHEAD, "read-ahead" },
	{ "nora", VRAID_READ_NORA, "no-read-ahead" },
};
/*
 * wb: write-back while the journal (the "battery") is healthy, writing
 * through while there is none, it awaits replay or it failed; awb: always
 * write-back, into the controller cache, which is volatile (ABI 1.8; an
 * older module refuses it, EOPNOTSUPP).
 */
static const struct pol_word write_words[] = {
	{ "wt", VRAID_WRITE_THROUGH, "write-through" },
	{ "wb", VRAID_WRITE_BACK, "write-back" },
	{ "awb", VRAID_WRITE_BACK_ALWAYS, "always-write-back" },
};
static const struct pol_word io_words[] = {
	{ "direct", VRAID_IO_DIRECT, "direct" }, { "cached", VRAID_IO_CACHED, "cached" },
};

/* The policies, in the order `set` prints them. */
enum { POL_ACCESS, POL_DCACHE, POL_READ, POL_WRITE, POL_IO, NR_POL };

static const struct policy {
	const char *key;	/* set's KEY; create's option is --KEY */
	const char *label;	/* in set's output: "disk cache off" */
	uint32_t bit;		/* VRAID_SET_* */
	const struct pol_word *words;
	size_t nwords;
	const char *choices;
} policies[NR_POL] = {
	[POL_ACCESS] = { "access", "access", VRAID_SET_ACCESS, access_words,
			 ARRAY_SIZE(access_words), "rw, ro or blocked" },
	[POL_DCACHE] = { "disk-cache", "disk cache", VRAID_SET_DISK_CACHE,
			 dcache_words, ARRAY_SIZE(dcache_words),
			 "on, off or default" },
	[POL_READ] = { "read-policy", "read", VRAID_SET_READ, read_words,
		       ARRAY_SIZE(read_words), "ra or nora" },
	[POL_WRITE] = { "write-policy", "write", VRAID_SET_WRITE, write_words,
			ARRAY_SIZE(write_words), "wt, wb or awb" },
	[POL_IO] = { "io-policy", "io", VRAID_SET_IO, io_words,
		     ARRAY_SIZE(io_words), "direct or cached" },
};

#define POL_ALL	(VRAID_SET_ACCESS | VRAID_SET_DISK_CACHE | VRAID_SET_READ | \
		 VRAID_SET_WRITE | VRAID_SET_IO)

static bool pol_parse(const struct policy *p, const char *s, uint32_t *v)
{
	size_t i;

	for (i = 0; i < p->nwords; i++) {
		if (!strcasecmp(s, p->words[i].word)) {
			*v = p->words[i].v;
			return true;
		}
	}
	return false;
}

/* "write-through"; "unknown (7)" for a value of a newer module. */
static const char *pol_says(size_t k, uint32_t v)
{
	static char unk[NR_POL][24];
	const struct policy *p = &policies[k];
	size_t i;

	for (i = 0; i < p->nwords; i++)
		if (p->words[i].v == v)
			return p->words[i].says;
	snprintf(unk[k], sizeof(unk[k]), "unknown (%u)", v);
	return unk[k];
}

/* The first module ABI that takes always write-back (write-policy awb). */
#define ABI_MINOR_AWB		8

/*
 * Values of the policies in @mask that need the controller cache: cached
 * I/O, read-ahead and always write-back, which modules older than ABI
 * 1.6, 1.7 and 1.8 lack.
 */
static bool pol_needs_cache(uint32_t mask, const uint32_t *v)
{
	return ((mask & VRAID_SET_WRITE) && v[POL_WRITE] == VRAID_WRITE_BACK_ALWAYS) ||
	       ((mask & VRAID_SET_READ) && v[POL_READ] != VRAID_READ_NORA) ||
	       ((mask & VRAID_SET_IO) && v[POL_IO] != VRAID_IO_DIRECT);
}

/*
 * After EOPNOTSUPP for a request with pol_needs_cache(): a module older
 * than ABI 1.6 has no cached I/O, one older than 1.7 no read-ahead, one
 * older than 1.8 no always write-back.  A module that has them all says
 * itself why it refused: no hint then.
 */
static void cache_hint(const struct vraid_ioc_hdr *h, uint32_t mask,
		       const uint32_t *v)
{
	bool old = h->version_major == VRAID_ABI_MAJOR;
	const char *no[3], *use[3];
	char lacks[96] = "", instead[96] = "";
	size_t n = 0, i;

	if (old && h->version_minor < 6 && (mask & VRAID_SET_IO) &&
	    v[POL_IO] == VRAID_IO_CACHED) {
		no[n] = "cached I/O";
		use[n++] = "io-policy direct";
	}
	if (old && h->version_minor < 7 && (mask & VRAID_SET_READ) &&
	    v[POL_READ] == VRAID_READ_AHEAD) {
		no[n] = "read-ahead";
		use[n++] = "read-policy nora";
	}
	if (old && h->version_minor < ABI_MINOR_AWB &&
	    (mask & VRAID_SET_WRITE) &&
	    v[POL_WRITE] == VRAID_WRITE_BACK_ALWAYS) {
		no[n] = "always write-back";
		use[n++] = "write-policy wt or wb";
	}
	if (!n)
		return;
	/* "no A", "no A and no B", "no A, no B and no C"; the same for use */
	for (i = 0; i < n; i++) {
		const char *sep = !i ? "" : i + 1 == n ? " and " : ", ";

		snprintf(lacks + strlen(lacks), sizeof(lacks) - strlen(lacks),
			 "%sno %s", sep, no[i]);
		snprintf(instead + strlen(instead),
			 sizeof(instead) - strlen(instead), "%s%s", sep, use[i]);
	}
	hintmsg("the vraid module speaks ABI %d.%d, which has %s: use %s, or load the module built with this vraidctl",
		h->version_major, h->version_minor, lacks, instead);
}

static const struct vname write_effs[] = {
	{ VRAID_WEFF_THROUGH, "Write Through", "write_through" },
	{ VRAID_WEFF_BACK, "Write Back (journalled)", "write_back" },
	{ VRAID_WEFF_BACK_VOLATILE, "Write Back (volatile cache)",
	  "write_back_volatile" },
	{ VRAID_WEFF_DRAINING, "Draining", "draining" },
};

/*
 * Why the write policy in effect differs from the one set ("" if it does
 * not): the words after "because" in show, a JSON word in json.
 */
static const char *write_why(const struct vraid_info *in, bool json)
{
	if (in->cache_flags & VRAID_CACHE_JOURNAL_FAILED)
		return json ? "journal_failed" :
		       "the journal (the controller's battery) failed with an I/O error: see `vraidctl controller`; detach it (`vraidctl controller journal none`) and attach another";
	if (in->cache_flags & VRAID_CACHE_NO_JOURNAL)
		return json ? "no_journal" :
		       "write-back needs a healthy journal (the controller's battery): none is attached, or it awaits replay (see `vraidctl controller`); `vraidctl controller journal DEV` attaches one";
	return "";
}

/* What a volatile write-back cache means, after "Write Back (volatile cache)". */
#define VOLATILE_NOTE	"a power loss loses writes not yet flushed"
/* ... and the journal, after "Write Back (journalled)". */
#define JOURNALLED_NOTE	"a write completes once it is in the journal, which keeps it through a power loss"

/*
 * After a create or set of the write policy: write-back without its
 * journal, or always write-back into the volatile cache.
 */
static void write_note(const struct vraid_info *in, const char *name)
{
	if (in->cache_flags & (VRAID_CACHE_NO_JOURNAL | VRAID_CACHE_JOURNAL_FAILED))
		fprintf(stderr, "%s: write-back writes through for now: %s\n",
			name, write_why(in, false));
	else if (in->write_policy_effective == VRAID_WEFF_BACK_VOLATILE)
		fprintf(stderr, "%s: always write-back: the controller cache is volatile, %s\n",
			name, VOLATILE_NOTE);
}

/* "jbod", "0".."60", "raid5", "RAID5": returns false if unknown. */
static bool parse_level(const char *s, uint32_t *level)
{
	size_t i;

	if (!strcasecmp(s, "jbod")) {
		*level = VRAID_LEVEL_JBOD;
		return true;
	}
	if (!strncasecmp(s, "raid", 4))
		s += 4;
	if (!parse_u32(s, level) || (s[0] == '0' && s[1]))
		return false;	/* not a number, or a leading zero */
	for (i = 0; i < ARRAY_SIZE(levels); i++)
		if (levels[i].v == *level && *level != VRAID_LEVEL_JBOD)
			return true;
	return false;
}

/* Strips of data in one full stripe (see full_stripe_bytes above). */
static uint64_t data_members(const struct vraid_info *in)
{
	uint64_t n = in->nr_members, s = in->spans ? in->spans : 1;

	switch (in->level) {
	case VRAID_LEVEL_0:	return n;
	case VRAID_LEVEL_1:	return n ? 1 : 0;
	case VRAID_LEVEL_10:	return n / 2;
	case VRAID_LEVEL_5:	return n > 1 ? n - 1 : 0;
	case VRAID_LEVEL_6:	return n > 2 ? n - 2 : 0;
	case VRAID_LEVEL_50:	return n > s ? n - s : 0;
	case VRAID_LEVEL_60:	return n > 2 * s ? n - 2 * s : 0;
	}
	return 0;
}

static uint32_t strip_of(const struct vraid_info *in)
{
	return in->level == VRAID_LEVEL_JBOD ? 0 : in->strip_bytes;
}

/* Levels with copies or parity: they have something to init or check. */
static bool redundant(uint32_t level)
{
	return level == VRAID_LEVEL_1 || level == VRAID_LEVEL_5 ||
	       level == VRAID_LEVEL_6 || level == VRAID_LEVEL_10 ||
	       level == VRAID_LEVEL_50 || level == VRAID_LEVEL_60;
}

/* ---- background jobs ------------------------------------------------------ */

/* Progress of the running job in tenths of a percent, 0..1000, rounded down. */
static unsigned int job_permille(const struct vraid_info *in)
{
	uint64_t d = in->job_done, t = in->job_total, p;

	if (!t)
		return 0;
	if (d >= t)
		return 1000;
	if (d <= UINT64_MAX / 1000)
		p = d * 1000 / t;
	else
		p = d / (t / 1000);
	return p > 999 ? 999 : (unsigned int)p;
}

/* "45s", "1m20s", "2h05m" */
static char *fmt_eta(char *buf, size_t bufsz, uint32_t s)
{
	if (s >= 3600)
		snprintf(buf, bufsz, "%uh%02um", s / 3600, s % 3600 / 60);
	else if (s >= 60)
		snprintf(buf, bufsz, "%um%02us", s / 60, s % 60);
	else
		snprintf(buf, bufsz, "%us", s);
	return buf;
}

/* "unlimited", "50 MiB/s" */
static char *fmt_rate(char *buf, size_t bufsz, uint32_t kib)
{
	char sz[32];

	if (!kib)
		snprintf(buf, bufsz, "unlimited");
	else
		snprintf(buf, bufsz, "%s/s",
			 human_size(sz, sizeof(sz), (uint64_t)kib * 1024));
	return buf;
}

static bool job_counts_mismatches(uint32_t type)
{
	return type == VRAID_JOB_CHECK || type == VRAID_JOB_REPAIR;
}

#define BAR_WIDTH	20

/*
 * The running job in one line: "rebuild  42.0%  [########............]
 * 215 MiB of 512 MiB per member, ETA 1m20s, rate unlimited"; "paused"
 * instead of the ETA while it is paused.  @compact (a progress line on a
 * terminal, which must fit its width) leaves out "per member", "so far"
 * and an unlimited rate.
 */
static char *job_progress(char *buf, size_t bufsz, const struct vraid_info *in,
			  bool compact)
{
	unsigned int p = job_permille(in), fill = p * BAR_WIDTH / 1000, i;
	char bar[BAR_WIDTH + 1], done[32], total[32], eta[48], rate[48];
	char t[32], mism[48] = "";

	for (i = 0; i < BAR_WIDTH; i++)
		bar[i] = i < fill ? '#' : '.';
	bar[BAR_WIDTH] = '\0';
	if (in->job_state == VRAID_JOB_PAUSED)
		snprintf(eta, sizeof(eta), "paused");
	else if (in->job_eta_sec)
		snprintf(eta, sizeof(eta), "ETA %s",
			 fmt_eta(t, sizeof(t), in->job_eta_sec));
	else
		snprintf(eta, sizeof(eta), "ETA unknown");
	if (job_counts_mismatches(in->job_type))
		snprintf(mism, sizeof(mism), ", %llu mismatch%s%s",
			 (unsigned long long)in->job_mismatches,
			 in->job_mismatches == 1 ? "" : "es",
			 compact ? "" : " so far");
	if (compact && !in->job_rate_kib)
		rate[0] = '\0';
	else
		snprintf(rate, sizeof(rate), ", rate %s",
			 fmt_rate(t, sizeof(t), in->job_rate_kib));
	snprintf(buf, bufsz, "%s  %u.%u%%  [%s]  %s of %s%s, %s%s%s",
		 VNAME(job_types, in->job_type, false), p / 10, p % 10, bar,
		 human_size(done, sizeof(done), in->job_done * SECTOR_BYTES),
		 human_size(total, sizeof(total), in->job_total * SECTOR_BYTES),
		 compact ? "" : " per member", eta, mism, rate);
	return buf;
}

/*
 * How the last job ended: "check done, 3 mismatches", "rebuild done",
 * "rebuild stopped" (the module reports a stopped job as ECANCELED),
 * "rebuild failed: Input/output error"; with @terse (for show) "check,
 * 3 mismatches", "rebuild, done" and "rebuild, stopped".
 */
static char *job_outcome(char *buf, size_t bufsz, const struct vraid_info *in,
			 bool terse)
{
	const char *type = VNAME(job_types, in->last_job, false);
	char mism[48] = "";

	if (job_counts_mismatches(in->last_job))
		snprintf(mism, sizeof(mism), " (%llu mismatch%s found)",
			 (unsigned long long)in->last_mismatches,
			 in->last_mismatches == 1 ? "" : "es");
	if (in->last_job == VRAID_JOB_NONE)
		snprintf(buf, bufsz, "none");
	else if (in->last_result == ECANCELED)
		snprintf(buf, bufsz, "%s%sstopped%s", type, terse ? ", " : " ",
			 mism);
	else if (in->last_result)
		snprintf(buf, bufsz, "%s failed: %s", type,
			 strerror((int)in->last_result));
	else if (job_counts_mismatches(in->last_job))
		snprintf(buf, bufsz, "%s%s, %llu mismatch%s", type,
			 terse ? "" : " done",
			 (unsigned long long)in->last_mismatches,
			 in->last_mismatches == 1 ? "" : "es");
	else
		snprintf(buf, bufsz, "%s%s", type, terse ? ", done" : " done");
	return buf;
}

/* ---- the control device --------------------------------------------------- */

static double now_sec(void);
static void sleep_sec(double s);

#define POLL_SEC	0.5	/* INFO this often while waiting */

struct ctl {
	int fd;
	const char *path;
	bool overridden;	/* VRAIDCTL_CONTROL is set */
	bool replied;		/* the last failed request carries a reply */
	double deadline;	/* now_sec() after which a busy controller is
				 * an error, not a wait; 0: none */
};

static void ctl_path(struct ctl *c)
{
	const char *env = getenv("VRAIDCTL_CONTROL");

	c->overridden = env && *env;
	c->path = c->overridden ? env : CONTROL_DEFAULT;
}

/* Open the control device; on failure say why and return false. */
static bool ctl_open(struct ctl *c, bool write)
{
	int e;

	ctl_path(c);
	c->deadline = 0;
	c->fd = open(c->path, O_RDWR | O_CLOEXEC);
	if (c->fd < 0 && !write && (errno == EACCES || errno == EROFS))
		c->fd = open(c->path, O_RDONLY | O_CLOEXEC);
	if (c->fd >= 0)
		return true;
	e = errno;
	if (e == ENOENT && !c->overridden &&
	    access("/sys/class/misc/" VRAID_CONTROL_NAME "/dev", F_OK) == 0) {
		errmsg("%s is missing, although the vraid module is loaded",
		       c->path);
		hintmsg("create it: mknod %s c $(tr : ' ' < /sys/class/misc/%s/dev)",
			c->path, VRAID_CONTROL_NAME);
	} else if (e == ENOENT || e == ENXIO || e == ENODEV) {
		errmsg("%s: %s: vraid module not loaded (insmod vraid.ko / modprobe vraid)",
		       c->path, e == ENOENT ? "no such file" : "no driver behind it");
		if (c->overridden)
			hintmsg("VRAIDCTL_CONTROL is set; unset it to use %s",
				CONTROL_DEFAULT);
	} else if (e == EACCES || e == EPERM) {
		errmsg("%s: permission denied", c->path);
		hintmsg("run as root (vraid control requests need CAP_SYS_ADMIN)");
	} else {
		errmsg("cannot open %s: %s", c->path, strerror(e));
	}
	return false;
}

#define PROGRESS_EVERY	10.0	/* seconds between progress lines, no tty */

/* A request's header as the module wants it sent, for @size bytes. */
static void ctl_hdr(struct vraid_ioc_hdr *h, size_t size)
{
	h->magic = VRAID_IOC_MAGIC;
	h->size = (uint32_t)size;
	h->version_major = VRAID_ABI_MAJOR;
	h->version_minor = VRAID_ABI_MINOR;
	h->status = 0;
	h->flags = 0;
	h->reserved = 0;
	memset(h->message, 0, sizeof(h->message));
}

/*
 * The module's message to a request that waits for the controller ends
 * in ": vraid0 cache write-out: 35.7 of 48.0 MiB left" while a request
 * writes a VD's cache out (ABI 1.10 modules from the twenty-fifth
 * session on), or in ": journal checkpoint for 12 s: vraid0 cache 1.0
 * MiB dirty" while a request waits for a journal checkpoint (from the
 * twenty-eighth session on): that part, or NULL.
 */
static const char *busy_note(const char *msg)
{
	const char *n = strstr(msg, " now: ");

	return n && (strstr(n, " cache write-out: ") ||
		     !strncmp(n + 6, "journal checkpoint for ", 23)) ?
	       n + 6 : NULL;
}

static volatile sig_atomic_t watch_drawn;

static void watch_term(int sig)
{
	(void)sig;
	if (watch_drawn)
		(void)!write(STDERR_FILENO, "\n", 1);
	_exit(0);
}

/*
 * The child of watch_start(): while the parent's request holds the
 * controller, ask for it (LIST), and show what the busy reply says of a
 * cache write-out on standard error: redrawn in place on a terminal, else
 * a line at most every PROGRESS_EVERY seconds.  The module waits a second
 * before it answers busy, so this asks about once a second.
 */
static void watch_run(int fd, pid_t parent)
{
	bool tty = isatty(STDERR_FILENO);
	double last = -PROGRESS_EVERY;
	struct vraid_list l;
	const char *n;

	signal(SIGTERM, watch_term);
	sleep_sec(1);
	/* ends with its parent, also one killed alone (kill -9 PID) */
	while (getppid() == parent) {
		memset(&l, 0, sizeof(l));
		ctl_hdr(&l.hdr, sizeof(l));
		if (!ioctl(fd, VRAID_IOC_LIST, &l) ||
		    !(n = busy_note(l.hdr.message))) {
			sleep_sec(POLL_SEC);
			continue;
		}
		sleep_sec(POLL_SEC);
		if (tty) {
			fprintf(stderr, "\rvraidctl: %s\033[K", n);
			watch_drawn = 1;
		} else if (now_sec() - last >= PROGRESS_EVERY) {
			fprintf(stderr, "vraidctl: %s\n", n);
			last = now_sec();
		}
		fflush(stderr);
	}
}

/*
 * Before a request that may write a cache out (a policy change, a stop or
 * delete, a controller change), which on slow disks takes minutes: a
 * child that shows its progress meanwhile (watch_run(), from 2 s on).
 * Returns its pid, or 0 (none: the request goes on without).
 */
static pid_t watch_start(struct ctl *c, unsigned long req, const void *buf)
{
	const struct vraid_controller *r = buf;
	pid_t pid, parent = getpid();

	if (req != VRAID_IOC_SET_POLICY && req != VRAID_IOC_DELETE &&
	    (req != VRAID_IOC_CONTROLLER || r->action == VRAID_CTRL_SHOW))
		return 0;
	fflush(stderr);
	pid = fork();
	if (pid == 0) {
		watch_run(c->fd, parent);
		watch_term(0);
	}
	return pid > 0 ? pid : 0;
}

static void watch_stop(pid_t pid)
{
	if (!pid)
		return;
	kill(pid, SIGTERM);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}

/*
 * Send one request: fill the header, issue the ioctl.  Returns 0 or a
 * positive errno; c->replied tells whether the kernel wrote the header
 * (status and message) back.
 */
static int ctl_ioctl(struct ctl *c, unsigned long req, void *buf, size_t size)
{
	struct vraid_ioc_hdr *h = buf;
	bool said = false;
	double last = 0;
	const char *n;
	pid_t watch;
	int rc, e;

	for (;;) {
		ctl_hdr(h, size);
		/*
		 * A watcher per attempt: one that waits for another request
		 * ends within a second or so, before its watcher says
		 * anything (the waiting lines below say it instead).
		 */
		watch = watch_start(c, req, buf);
		rc = ioctl(c->fd, req, buf);
		e = errno;
		watch_stop(watch);
		h->message[sizeof(h->message) - 1] = '\0';
		/*
		 * Another request holds the controller (a policy change or a
		 * stop writing a cache out can take minutes): say so once and
		 * ask again; the module waited a second each time.  Nothing
		 * was done, so an interrupt loses nothing.
		 */
		if (rc && e == EBUSY && h->status == -EBUSY &&
		    (h->flags & VRAID_IOC_REPLY_BUSY) &&
		    (!c->deadline || now_sec() < c->deadline)) {
			/* then how a cache write-out it waits for goes on */
			n = busy_note(h->message);
			if (!said || (n && now_sec() - last >= PROGRESS_EVERY)) {
				fprintf(stderr, "vraidctl: waiting: %s\n",
					said ? n : h->message);
				last = now_sec();
			}
			said = true;
			continue;
		}
		break;
	}
	if (rc == 0 && h->status >= 0)
		return 0;
	if (rc == 0)
		e = -h->status;
	c->replied = h->status == -e;
	return e ? e : EIO;
}

enum ctx {
	CTX_CREATE, CTX_VD, CTX_FAIL, CTX_OTHER, CTX_JOB, CTX_SPARE,
	CTX_REPLACE, CTX_POLICY, CTX_CONTROLLER,
};

/* The first module ABI with VRAID_IOC_CONTROLLER. */
#define ABI_MINOR_CONTROLLER	7

/*
 * Report a failed request: "vraidctl: WHAT: <kernel message> (ENAME: text)"
 * and a hint for well-known errnos.
 */
static void report(struct ctl *c, const char *what, int e,
		   const struct vraid_ioc_hdr *h, enum ctx ctx)
{
	char msg[VRAID_MSG_LEN * 4];

	if (e == ENOTTY && !(c->replied && h->message[0])) {
		errmsg("%s: %s does not answer vraid requests (ENOTTY: %s)",
		       what, c->path, strerror(e));
		if (c->overridden)
			hintmsg("it is not the vraid control device: unset VRAIDCTL_CONTROL or point it at %s",
				CONTROL_DEFAULT);
		else
			hintmsg("it is not the vraid control device: check `ls -l %s` and /sys/class/misc/%s/dev",
				c->path, VRAID_CONTROL_NAME);
		return;
	}
	if (c->replied && h->message[0])
		errmsg("%s: %s (%s: %s)", what,
		       tty_str(msg, sizeof(msg), h->message, sizeof(h->message)),
		       errname(e), strerror(e));
	else
		errmsg("%s: %s (%s)", what, strerror(e), errname(e));

	switch (e) {
	case EPERM:
	case EACCES:
		hintmsg("run as root (vraid control requests need CAP_SYS_ADMIN)");
		break;
	case EBUSY:
		if (ctx == CTX_CREATE)
			hintmsg("a member is in use: mounted, in an md array, or in another virtual drive (check lsblk, /proc/mdstat, `vraidctl list`)");
		else if (ctx == CTX_VD)
			hintmsg("the virtual drive is in use: unmount it and stop what holds it open (see the open count in `vraidctl show`)");
		else if (ctx == CTX_JOB)
			hintmsg("another job runs on the virtual drive: see `vraidctl show`; wait for it (`vraidctl wait`) or stop it (`vraidctl job VD stop`)");
		else if (ctx == CTX_SPARE)
			hintmsg("the device is in use: a member of a virtual drive, mounted, or in an md array (check lsblk, /proc/mdstat, `vraidctl list`)");
		else if (ctx == CTX_REPLACE && c->replied &&
			 strstr(h->message, "in flight"))
			hintmsg("the old member's disk has not answered I/O sent to it before it failed: try again once it does, or once it is gone (pulled, or its driver gave up)");
		else if (ctx == CTX_REPLACE)
			hintmsg("the new device is in use (mounted, in an md array or a virtual drive), or the virtual drive is busy with another job (see `vraidctl show`)");
		break;
	case ENOENT:
	case ENXIO:
		if (ctx == CTX_VD || ctx == CTX_FAIL || ctx == CTX_POLICY)
			hintmsg("no such virtual drive (see `vraidctl list`)");
		else if (ctx == CTX_CREATE)
			hintmsg("a member device is gone: check the device names (lsblk)");
		else if (ctx == CTX_SPARE)
			hintmsg("see the hot spares with `vraidctl spare list` and the virtual drives with `vraidctl list`");
		else if (ctx == CTX_REPLACE)
			hintmsg("see the virtual drive and its members with `vraidctl show`");
		break;
	case ENOTTY:
		/* a reply with a message: the module does not know the command */
		if (ctx == CTX_CONTROLLER && h->version_major == VRAID_ABI_MAJOR &&
		    h->version_minor < ABI_MINOR_CONTROLLER)
			hintmsg("the vraid module speaks ABI %d.%d, which has no controller command: load the module built with this vraidctl",
				h->version_major, h->version_minor);
		else if (ctx == CTX_CONTROLLER &&
			 h->version_major == VRAID_ABI_MAJOR)
			/* a 1.7 module built before the command came */
			hintmsg("the vraid module (ABI %d.%d) predates the controller command: load the module built with this vraidctl",
				h->version_major, h->version_minor);
		else if (h->version_major == VRAID_ABI_MAJOR &&
			 h->version_minor < VRAID_ABI_MINOR)
			hintmsg("the vraid module speaks ABI %d.%d, older than vraidctl's %d.%d, and lacks this request: load the module built with this vraidctl",
				h->version_major, h->version_minor,
				VRAID_ABI_MAJOR, VRAID_ABI_MINOR);
		break;
	case EPROTO:
		if (c->replied)
			hintmsg("module and tool versions differ (module ABI %d.%d, vraidctl ABI %d.%d): use the vraidctl built with the module",
				h->version_major, h->version_minor,
				VRAID_ABI_MAJOR, VRAID_ABI_MINOR);
		else
			hintmsg("module and tool versions differ: use the vraidctl built with the module");
		break;
	case EEXIST:
		if (ctx == CTX_CREATE)
			hintmsg("choose another --name (see `vraidctl list`)");
		else if (ctx == CTX_SPARE)
			hintmsg("it is a hot spare already (see `vraidctl spare list`)");
		break;
	case ENOTBLK:
	case ENODEV:
		if (ctx == CTX_CREATE)
			hintmsg("members must be block devices (see lsblk)");
		else if (ctx == CTX_SPARE && e == ENODEV)
			hintmsg("see the hot spares with `vraidctl spare list`");
		else if (ctx == CTX_REPLACE && e == ENODEV)
			hintmsg("see the virtual drive and its members with `vraidctl show`");
		break;
	default:
		break;
	}
}

static bool reply_sane(uint32_t n, uint32_t max, const char *field)
{
	if (n <= max)
		return true;
	errmsg("malformed reply from the vraid module: %s %u > %u", field, n, max);
	hintmsg("module and tool versions differ? see `vraidctl version`");
	return false;
}

/*
 * INFO for @index.  Returns 0 or a positive errno, reported unless it is
 * ENOENT/ENXIO and @quiet_gone (the VD was deleted since a LIST).
 */
static int get_info(struct ctl *c, uint32_t index, struct vraid_info *in,
		    bool quiet_gone)
{
	char what[40];
	int e;

	memset(in, 0, sizeof(*in));
	in->index = index;
	e = ctl_ioctl(c, VRAID_IOC_INFO, in, sizeof(*in));
	if (e) {
		if (!(quiet_gone && (e == ENOENT || e == ENXIO))) {
			snprintf(what, sizeof(what), "%s%u", VRAID_DISK_PREFIX, index);
			report(c, what, e, &in->hdr, CTX_VD);
		}
		return e;
	}
	if (!reply_sane(in->nr_members, VRAID_MAX_MEMBERS, "nr_members"))
		return EPROTO;
	return 0;
}

static int get_list(struct ctl *c, struct vraid_list *l)
{
	int e;

	memset(l, 0, sizeof(*l));
	e = ctl_ioctl(c, VRAID_IOC_LIST, l, sizeof(*l));
	if (e) {
		report(c, "list", e, &l->hdr, CTX_OTHER);
		return e;
	}
	if (!reply_sane(l->nr_vds, VRAID_MAX_VDS, "nr_vds"))
		return EPROTO;
	return 0;
}

static int cmp_info(const void *a, const void *b)
{
	const struct vraid_info *x = a, *y = b;

	return x->index < y->index ? -1 : x->index > y->index;
}

/* LIST, then INFO for each VD (skipping those gone meanwhile), by index. */
static int get_all(struct ctl *c, struct vraid_info **out, size_t *nout)
{
	struct vraid_list l;
	struct vraid_info *v;
	size_t n = 0;
	uint32_t i;
	int e;

	*out = NULL;
	*nout = 0;
	if (get_list(c, &l))
		return RC_FAIL;
	v = calloc(l.nr_vds ? l.nr_vds : 1, sizeof(*v));
	if (!v) {
		errmsg("out of memory");
		return RC_FAIL;
	}
	for (i = 0; i < l.nr_vds; i++) {
		e = get_info(c, l.index[i], &v[n], true);
		if (e == ENOENT || e == ENXIO)
			continue;	/* deleted since LIST */
		if (e) {
			free(v);
			return RC_FAIL;
		}
		n++;
	}
	qsort(v, n, sizeof(*v), cmp_info);
	*out = v;
	*nout = n;
	return RC_OK;
}

/* "vraidN" -> N */
static bool parse_vraidN(const char *s, uint32_t *idx)
{
	size_t l = strlen(VRAID_DISK_PREFIX);

	return !strncmp(s, VRAID_DISK_PREFIX, l) && parse_u32(s + l, idx);
}

/* "0", "vraid0", "/dev/vraid0" -> 0 */
static bool vd_number(const char *arg, uint32_t *idx)
{
	return (!strncmp(arg, "/dev/", 5) && parse_vraidN(arg + 5, idx)) ||
	       parse_u32(arg, idx) || parse_vraidN(arg, idx);
}

/* Find the VD named by @arg (vraid0, /dev/vraid0, 0 or its label); INFO it. */
static int resolve_vd(struct ctl *c, const char *arg, struct vraid_info *in)
{
	struct vraid_info *all;
	size_t n, i, found = 0;
	uint32_t idx;

	if (vd_number(arg, &idx))
		return get_info(c, idx, in, false) ? RC_FAIL : RC_OK;
	if (strchr(arg, '/')) {
		errmsg("%s is not a vraid virtual drive (expected /dev/vraidN)", arg);
		hintmsg("name a virtual drive as vraid0, /dev/vraid0, 0 or by its name (see `vraidctl list`)");
		return RC_FAIL;
	}
	if (get_all(c, &all, &n))
		return RC_FAIL;
	for (i = 0; i < n; i++) {
		if (strnlen(all[i].name, sizeof(all[i].name)) == strlen(arg) &&
		    !strncmp(all[i].name, arg, sizeof(all[i].name))) {
			if (!found++)
				*in = all[i];
		}
	}
	free(all);
	if (found == 1)
		return RC_OK;
	if (found == 0)
		errmsg("%s: no such virtual drive (see `vraidctl list`)", arg);
	else
		errmsg("%s: %zu virtual drives carry this name; name one as vraidN (see `vraidctl list`)",
		       arg, found);
	return RC_FAIL;
}

/* ---- waiting for a job ---------------------------------------------------- */


/* Columns of the terminal @f, 80 if it does not say. */
static size_t tty_cols(FILE *f)
{
	struct winsize ws;

	if (ioctl(fileno(f), TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20)
		return ws.ws_col;
	return 80;
}

static double now_sec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void sleep_sec(double s)
{
	struct timespec ts;

	if (s <= 0)
		return;
	ts.tv_sec = (time_t)s;
	ts.tv_nsec = (long)((s - (double)ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/*
 * Wait until the VD of @in (as INFO just returned it) runs no job: INFO
 * every 0.5 s, the progress shown on @out (redrawn in place on a terminal,
 * else a line at most every 10 s and whenever the job or its state
 * changes), then how the job ended.  @timeout < 0 waits for ever.
 * @started: the caller has just started the job (so a VD found idle has
 * finished it already).  Returns an exit code: RC_FAIL if the (last) job
 * failed, on a timeout, or when INFO fails.
 */
static int wait_job(struct ctl *c, struct vraid_info *in, double timeout,
		    FILE *out, bool started)
{
	bool tty = isatty(fileno(out)), drawn = false, waited = started;
	bool shown = false;
	uint32_t type = VRAID_JOB_NONE, state = 0;
	double start = now_sec(), last = 0, t, left;
	char name[32], line[256], o[160];
	unsigned int p;
	size_t cols;

	snprintf(name, sizeof(name), "%s%u", VRAID_DISK_PREFIX, in->index);
	while (in->job_type != VRAID_JOB_NONE) {
		t = now_sec();
		if (tty) {
			/* one line that fits, or \r cannot redraw it */
			job_progress(line, sizeof(line), in, true);
			cols = tty_cols(out) - 1 - strlen(name) - 2;
			if (strlen(line) > cols)
				line[cols] = '\0';
			fprintf(out, "\r%s: %s\033[K", name, line);
			drawn = true;
		} else if (!shown || in->job_type != type ||
			   in->job_state != state || t - last >= PROGRESS_EVERY) {
			fprintf(out, "%s: %s\n", name,
				job_progress(line, sizeof(line), in, false));
			last = t;
		}
		fflush(out);
		waited = shown = true;
		type = in->job_type;
		state = in->job_state;
		left = timeout - (t - start);
		if (timeout >= 0 && left <= 0) {
			if (drawn)
				fputc('\n', out);
			fflush(out);
			p = job_permille(in);
			errmsg("%s: timed out after %g s: the %s is still %s (%u.%u%%)",
			       name, timeout, VNAME(job_types, in->job_type, false),
			       in->job_state == VRAID_JOB_PAUSED ? "paused" : "running",
			       p / 10, p % 10);
			hintmsg("wait longer (--timeout SECONDS), or follow it with `vraidctl show %s`",
				name);
			return RC_FAIL;
		}
		sleep_sec(timeout >= 0 && left < POLL_SEC ? left : POLL_SEC);
		if (get_info(c, in->index, in, false)) {
			if (drawn)
				fputc('\n', out);
			return RC_FAIL;
		}
	}
	if (drawn)
		fputs("\r\033[K", out);
	job_outcome(o, sizeof(o), in, false);
	if (in->last_job != VRAID_JOB_NONE && in->last_result) {
		fflush(out);
		if (waited)
			errmsg("%s: %s", name, o);
		else
			errmsg("%s: no job is running; the last one: %s", name, o);
		if (in->last_result != ECANCELED)
			hintmsg("see `vraidctl show %s` and the kernel log (dmesg)",
				name);
		else if (job_counts_mismatches(in->last_job))
			hintmsg("start it again with: vraidctl check %s%s", name,
				in->last_job == VRAID_JOB_REPAIR ? " --repair" : "");
		else
			hintmsg("go on with: vraidctl job %s resume (or it goes on when the VD is next assembled)",
				name);
		return RC_FAIL;
	}
	if (waited && in->last_job != VRAID_JOB_NONE)
		fprintf(out, "%s: %s\n", name, o);
	else if (waited)
		fprintf(out, "%s: the job has ended\n", name);
	else if (in->last_job != VRAID_JOB_NONE)
		fprintf(out, "%s: no job is running; the last one: %s\n", name, o);
	else
		fprintf(out, "%s: no job is running\n", name);
	return RC_OK;
}

/* ---- tables ------------------------------------------------------------- */

#define TMAXCOL	9
#define TCELL	80

struct table {
	size_t ncol, nrow;
	const char *head[TMAXCOL];
	bool right[TMAXCOL];
	char (*row)[TMAXCOL][TCELL];
};

/* Start a new row; returns its cells or NULL (out of memory). */
static char (*table_row(struct table *t))[TCELL]
{
	char (*r)[TMAXCOL][TCELL] = realloc(t->row, (t->nrow + 1) * sizeof(*r));

	if (!r)
		return NULL;
	t->row = r;
	memset(r[t->nrow], 0, sizeof(r[t->nrow]));
	return r[t->nrow++];
}

/* Terminal columns of a UTF-8 string (one per code point). */
static size_t width(const char *s)
{
	size_t w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xC0) != 0x80;
	return w;
}

static void table_print(const struct table *t)
{
	size_t w[TMAXCOL] = { 0 }, r, i, pad;

	for (i = 0; i < t->ncol; i++) {
		w[i] = width(t->head[i]);
		for (r = 0; r < t->nrow; r++)
			if (width(t->row[r][i]) > w[i])
				w[i] = width(t->row[r][i]);
	}
	for (r = 0; r <= t->nrow; r++) {
		for (i = 0; i < t->ncol; i++) {
			const char *s = r ? t->row[r - 1][i] : t->head[i];

			pad = w[i] - width(s);
			if (t->right[i])
				printf("%*s%s", (int)pad, "", s);
			else if (i + 1 < t->ncol)
				printf("%s%*s", s, (int)pad, "");
			else
				fputs(s, stdout);
			fputs(i + 1 < t->ncol ? "  " : "\n", stdout);
		}
	}
}

/* ---- commands ----------------------------------------------------------- */

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *synopsis;
	const char *help;
};

static const struct command *find_command(const char *name);

static int __attribute__((format(printf, 2, 3)))
usage_error(const char *cmd, const char *fmt, ...)
{
	const struct command *c = find_command(cmd);
	va_list ap;

	fputs("vraidctl: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	if (c)
		fprintf(stderr, "usage: %s\n(see `vraidctl help %s`)\n",
			c->synopsis, c->name);
	return RC_USAGE;
}

static bool is_help(const char *a)
{
	return !strcmp(a, "-h") || !strcmp(a, "--help");
}

static int print_help(const char *name)
{
	const struct command *c = find_command(name);

	printf("usage: %s\n\n%s", c->synopsis, c->help);
	return RC_OK;
}

/*
 * Match option @name at argv[*i], as "--name VALUE" or "--name=VALUE".
 * Returns 1 (and *val), 0 for no match, -1 after a usage error.
 */
static int opt_value(const char *cmd, int argc, char **argv, int *i,
		     const char *name, const char **val, const char **slot)
{
	const char *a = argv[*i];
	size_t l = strlen(name);

	if (strncmp(a, name, l) || (a[l] && a[l] != '='))
		return 0;
	if (a[l] == '=') {
		*val = a + l + 1;
	} else if (*i + 1 < argc) {
		*val = argv[++*i];
	} else {
		usage_error(cmd, "%s needs a value", name);
		return -1;
	}
	if (*slot) {
		usage_error(cmd, "%s given twice", name);
		return -1;
	}
	*slot = *val;
	return 1;
}

/*
 * Common parser: options with values (NULL-terminated @names, results in
 * @vals), optional --json, and positional arguments collected in @pos (at
 * most @maxpos; *npos counts all given).  Returns -1 to go on, else an
 * exit code (help printed or usage error).
 */
static int parse_args(const char *cmd, int argc, char **argv,
		      const char *const *names, const char **vals, bool *json,
		      const char **pos, size_t maxpos, size_t *npos)
{
	bool only_pos = false;
	const char *v;
	int i, m;
	size_t k;

	*npos = 0;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (only_pos || a[0] != '-' || !a[1]) {
			if (*npos < maxpos)
				pos[*npos] = a;
			++*npos;
			continue;
		}
		if (!strcmp(a, "--")) {
			only_pos = true;
			continue;
		}
		if (is_help(a))
			return print_help(cmd);
		if (json && !strcmp(a, "--json")) {
			*json = true;
			continue;
		}
		for (k = 0, m = 0; names && names[k] && !m; k++)
			m = opt_value(cmd, argc, argv, &i, names[k], &v, &vals[k]);
		if (m < 0)
			return RC_USAGE;
		if (!m)
			return usage_error(cmd, "unknown option '%s'", a);
	}
	return -1;
}

static const char *strip_hint =
	"use a power of two from 4K to 1M, e.g. --strip 64K (the default)";

static int check_strip(const char *s, uint32_t *strip)
{
	uint64_t v;

	if (!parse_size(s, &v)) {
		errmsg("invalid strip size '%s': give bytes or a K/KiB/M/MiB suffix", s);
		hintmsg("%s", strip_hint);
		return RC_USAGE;
	}
	if (v < VRAID_STRIP_MIN)
		errmsg("strip size '%s' (%llu bytes) is too small: the minimum is 4 KiB",
		       s, (unsigned long long)v);
	else if (v > VRAID_STRIP_MAX)
		errmsg("strip size '%s' (%llu bytes) is too large: the maximum is 1 MiB",
		       s, (unsigned long long)v);
	else if (v & (v - 1))
		errmsg("strip size '%s' (%llu bytes) is not a power of two",
		       s, (unsigned long long)v);
	else {
		*strip = (uint32_t)v;
		return RC_OK;
	}
	hintmsg("%s", strip_hint);
	return RC_USAGE;
}

static int check_name(const char *name)
{
	uint32_t dummy;
	const char *p;

	if (!*name)
		return usage_error("create", "empty --name: leave --name out for no label");
	if (strlen(name) >= VRAID_NAME_LEN)
		return usage_error("create", "name '%s' is too long: at most %u characters",
				   name, VRAID_NAME_LEN - 1);
	if (name[0] == '-' || name[0] == '.')
		return usage_error("create", "name '%s' must start with a letter, a digit or '_'",
				   name);
	for (p = name; *p; p++) {
		char ch = *p;

		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		      (ch >= '0' && ch <= '9') || ch == '.' || ch == '_' || ch == '-'))
			return usage_error("create", "name '%s' has a character other than letters, digits, '.', '_' and '-'",
					   name);
	}
	if (parse_u32(name, &dummy) || parse_vraidN(name, &dummy))
		return usage_error("create", "name '%s' looks like a virtual drive number; choose another",
				   name);
	return RC_OK;
}

/* stat() a member and fill @ref; on failure say why. */
static int member_ref(const char *path, struct vraid_member_ref *ref)
{
	struct stat st;
	const char *kind;

	if (stat(path, &st) < 0) {
		if (errno == ENOENT || errno == ENOTDIR)
			errmsg("%s: no such file: name an existing block device (see lsblk)", path);
		else if (errno == EACCES)
			errmsg("%s: permission denied (run as root)", path);
		else
			errmsg("%s: %s", path, strerror(errno));
		return RC_FAIL;
	}
	if (S_ISBLK(st.st_mode)) {
		ref->major = major(st.st_rdev);
		ref->minor = minor(st.st_rdev);
		return RC_OK;
	}
	kind = S_ISREG(st.st_mode) ? "a regular file" :
	       S_ISDIR(st.st_mode) ? "a directory" :
	       S_ISCHR(st.st_mode) ? "a character device" : "not a regular file";
	errmsg("%s is %s, not a block device", path, kind);
	if (S_ISREG(st.st_mode))
		hintmsg("to use a file, attach it to a loop device: losetup --find --show %s", path);
	else
		hintmsg("name a block device such as /dev/nvme0n1 or /dev/sdb (see lsblk)");
	return RC_FAIL;
}

/* --init fast|background|full */
static bool parse_init(const char *s, uint32_t *init)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(init_modes); i++) {
		if (!strcasecmp(s, init_modes[i].json)) {
			*init = init_modes[i].v;
			return true;
		}
	}
	return false;
}

/* After a create: say which initialisation runs; wait for a full one. */
static int create_init(struct ctl *c, uint32_t index, uint32_t init)
{
	struct vraid_info in;
	char name[32];
	int rc;

	snprintf(name, sizeof(name), "%s%u", VRAID_DISK_PREFIX, index);
	switch (init) {
	case VRAID_INIT_FAST:
		fprintf(stderr, "%s: not initialised (--init fast): parity or copies are as the members left them; to make them consistent run: vraidctl init %s\n",
			name, name);
		return RC_OK;
	case VRAID_INIT_BACKGROUND:
		fprintf(stderr, "%s: initialising in the background; follow with: vraidctl show %s\n",
			name, name);
		return RC_OK;
	}
	fprintf(stderr, "%s: initialising (--init full); waiting for it to finish\n",
		name);
	if (get_info(c, index, &in, false))
		return RC_FAIL;
	rc = wait_job(c, &in, -1, stderr, true);
	if (rc)
		hintmsg("%s was created; start its initialisation again with: vraidctl init %s",
			name, name);
	return rc;
}

static bool take_flag(int *argc, char **argv, const char *flag);
static int create_guard(const char *const *devs, size_t n,
			const struct vraid_create *req, bool force, bool dry);

static int cmd_create(int argc, char **argv)
{
	/* vals[NOPT + POL_*]: the policy options, --KEY of policies[] */
	enum { NOPT = 5 };
	static const char *const names[] = {
		"--level", "--strip", "--spans", "--name", "--init",
		"--access", "--disk-cache", "--read-policy", "--write-policy",
		"--io-policy", NULL
	};
	const char *vals[NOPT + NR_POL] = { NULL }, *devs[VRAID_MAX_MEMBERS];
	struct vraid_create req;
	char out[VRAID_DEVNAME_LEN * 4];
	uint32_t level, strip = 0, spans = 0, init = VRAID_INIT_FAST;
	uint32_t pol[NR_POL] = { 0 };	/* zero: each one's default */
	size_t ndev, i, j;
	struct ctl c;
	bool force, dry;
	int rc, e;

	force = take_flag(&argc, argv, "--force");
	dry = take_flag(&argc, argv, "--dry-run");
	rc = parse_args("create", argc, argv, names, vals, NULL, devs,
			ARRAY_SIZE(devs), &ndev);
	if (rc >= 0)
		return rc;
	if (!vals[0])
		return usage_error("create", "--level is required");
	if (!parse_level(vals[0], &level))
		return usage_error("create", "unknown RAID level '%s' (choose jbod, 0, 1, 5, 6, 10, 50 or 60)",
				   vals[0]);
	if (vals[1] && level == VRAID_LEVEL_JBOD)
		return usage_error("create", "--strip has no meaning for --level jbod; leave it out");
	if (vals[1] && (rc = check_strip(vals[1], &strip)))
		return rc;
	if (vals[2]) {
		if (level != VRAID_LEVEL_50 && level != VRAID_LEVEL_60)
			return usage_error("create", "--spans applies to --level 50 and 60 only");
		if (!parse_u32(vals[2], &spans) || spans < 1 || spans > VRAID_MAX_MEMBERS)
			return usage_error("create", "invalid span count '%s': give a number from 1 to %u",
					   vals[2], VRAID_MAX_MEMBERS);
	}
	if (vals[3] && (rc = check_name(vals[3])))
		return rc;
	if (vals[4] && !parse_init(vals[4], &init))
		return usage_error("create", "unknown --init '%s' (choose fast, background or full)",
				   vals[4]);
	if (vals[4] && !redundant(level))
		return usage_error("create", "--init has no meaning for --level %s: it has no redundancy to initialise; leave it out",
				   VNAME(levels, level, true));
	if (!vals[4] && redundant(level))
		init = VRAID_INIT_BACKGROUND;
	for (i = 0; i < NR_POL; i++) {
		const char *v = vals[NOPT + i];

		if (!v)
			continue;
		if (!pol_parse(&policies[i], v, &pol[i]))
			return usage_error("create", "unknown --%s '%s' (choose %s)",
					   policies[i].key, v,
					   policies[i].choices);
	}
	if (ndev == 0)
		return usage_error("create", "name at least one member device (DEV...)");
	if (ndev > VRAID_MAX_MEMBERS)
		return usage_error("create", "%zu member devices given: at most %u",
				   ndev, VRAID_MAX_MEMBERS);
	if (spans && ndev % spans)
		return usage_error("create", "%zu members cannot be split evenly into %u spans",
				   ndev, spans);

	memset(&req, 0, sizeof(req));
	req.level = level;
	req.strip_bytes = strip;
	req.spans = spans;
	req.nr_members = (uint32_t)ndev;
	req.init = init;
	/* as asked: the module refuses what it cannot do (EOPNOTSUPP) */
	req.access_policy = pol[POL_ACCESS];
	req.disk_cache_policy = pol[POL_DCACHE];
	req.io_policy = pol[POL_IO];
	req.read_policy = pol[POL_READ];
	req.write_policy = pol[POL_WRITE];
	if (vals[3])
		memcpy(req.name, vals[3], strlen(vals[3]));
	for (i = 0; i < ndev; i++) {
		if (member_ref(devs[i], &req.members[i]))
			return RC_FAIL;
		for (j = 0; j < i; j++) {
			if (req.members[j].major == req.members[i].major &&
			    req.members[j].minor == req.members[i].minor) {
				errmsg("%s and %s are the same device (%u:%u)",
				       devs[j], devs[i], req.members[i].major,
				       req.members[i].minor);
				hintmsg("name each member once");
				return RC_FAIL;
			}
		}
	}
	rc = create_guard(devs, ndev, &req, force, dry);
	if (rc >= 0)
		return rc;

	if (!ctl_open(&c, true))
		return RC_FAIL;
	e = ctl_ioctl(&c, VRAID_IOC_CREATE, &req, sizeof(req));
	if (e) {
		close(c.fd);
		report(&c, "create", e, &req.hdr, CTX_CREATE);
		if (e == EINVAL && c.replied && req.init &&
		    req.hdr.version_major == VRAID_ABI_MAJOR &&
		    req.hdr.version_minor < 3)
			hintmsg("the vraid module speaks ABI %d.%d, which has no --init: give --init fast, or load the module built with this vraidctl",
				req.hdr.version_major, req.hdr.version_minor);
		if (e == EINVAL && c.replied &&
		    (pol[POL_ACCESS] | pol[POL_DCACHE] | pol[POL_READ] |
		     pol[POL_WRITE] | pol[POL_IO]) &&
		    req.hdr.version_major == VRAID_ABI_MAJOR &&
		    req.hdr.version_minor < 4)
			hintmsg("the vraid module speaks ABI %d.%d, which takes no policies at create: leave the policy options out (or give their defaults), or load the module built with this vraidctl",
				req.hdr.version_major, req.hdr.version_minor);
		if (e == EOPNOTSUPP && pol_needs_cache(POL_ALL, pol))
			cache_hint(&req.hdr, POL_ALL, pol);
		return RC_FAIL;
	}
	if (req.disk_name[0])
		tty_str(out, sizeof(out), req.disk_name, sizeof(req.disk_name));
	else
		snprintf(out, sizeof(out), "%s%u", VRAID_DISK_PREFIX, req.index);
	/* stdout carries the name alone, for vd=$(vraidctl create ...) */
	printf("%s\n", out);
	fflush(stdout);
	if (pol[POL_WRITE] == VRAID_WRITE_BACK ||
	    pol[POL_WRITE] == VRAID_WRITE_BACK_ALWAYS) {
		struct vraid_info in;

		if (!get_info(&c, req.index, &in, true))
			write_note(&in, out);
	}
	rc = redundant(level) ? create_init(&c, req.index, init) : RC_OK;
	close(c.fd);
	return rc;
}

/* The first module ABI whose DELETE writes the controller cache out before
 * the disk goes, fails with EIO when it cannot, and takes
 * VRAID_DELETE_DISCARD. */
#define ABI_MINOR_DISCARD	11

static char *vd_says(char *buf, size_t bufsz, const struct vraid_info *in);
static bool read_vd_attr(uint32_t index, const char *attr, uint64_t *val);

/* "/dev/sdb (role 0), role 1 (missing), ..." of the members of @in. */
static char *members_says(char *buf, size_t bufsz, const struct vraid_info *in)
{
	char dev[VRAID_DEVNAME_LEN * 4];
	size_t o = 0;
	uint32_t i;

	buf[0] = '\0';
	for (i = 0; i < in->nr_members && o < bufsz; i++) {
		const struct vraid_member_info *m = &in->members[i];

		tty_str(dev, sizeof(dev), m->dev_name, sizeof(m->dev_name));
		if (dev[0])
			o += (size_t)snprintf(buf + o, bufsz - o, "%s/dev/%s (role %u%s%s)",
					      i ? ", " : "", dev, m->role,
					      m->state == VRAID_MEMBER_ONLINE ? "" : ", ",
					      m->state == VRAID_MEMBER_ONLINE ? "" :
					      VNAME(member_states, m->state, true));
		else
			o += (size_t)snprintf(buf + o, bufsz - o, "%srole %u (%s)",
					      i ? ", " : "", m->role,
					      VNAME(member_states, m->state, true));
	}
	return buf;
}

/*
 * delete without --force, or with --dry-run: what it would destroy, on
 * standard error as the refusal (@dry false) or on standard output.
 * @arg is the VD as the user named it.  Returns the exit code.
 */
static int delete_says(const struct vraid_info *in, const char *arg,
		       bool force, bool dry)
{
	char vd[160], sz[32], mem[VRAID_MAX_MEMBERS * 48], w[40];
	uint64_t dirty = 0;

	vd_says(vd, sizeof(vd), in);
	human_size(sz, sizeof(sz), in->size_sectors * SECTOR_BYTES);
	members_says(mem, sizeof(mem), in);
	read_vd_attr(in->index, "cache_dirty_bytes", &dirty);
	if (!dry) {
		snprintf(w, sizeof(w), "delete %s%u", VRAID_DISK_PREFIX, in->index);
		errmsg("%s: refused without --force: it destroys the virtual drive %s (%s, %s, %s) and erases the vraid metadata of its members, %s: it cannot be assembled again",
		       w, vd, VNAME(levels, in->level, false), sz,
		       VNAME(vd_states, in->state, false), mem);
		if (dirty)
			errmsg("%s: it holds %s of dirty data in the controller cache, written to the members first (--force discards what they cannot take)",
			       w, human_size(sz, sizeof(sz), dirty));
		if (in->open_count)
			errmsg("%s: it is open (%u opener%s): even with --force it is refused until it is closed",
			       w, in->open_count, in->open_count == 1 ? "" : "s");
		hintmsg("to delete it: vraidctl delete %s --force; to take it down and keep it: vraidctl stop %s",
			arg, arg);
		return RC_FAIL;
	}
	printf("delete --dry-run: nothing is changed\n");
	printf("Virtual drive:  %s: %s, %s, %s\n", vd,
	       VNAME(levels, in->level, false), sz,
	       VNAME(vd_states, in->state, false));
	printf("Members:        %s: their vraid metadata is erased\n", mem);
	printf("Lost:           the virtual drive: it cannot be assembled again (the data areas are left as they are; only a create the same way reads them again)\n");
	if (dirty)
		printf("Dirty data:     %s in the controller cache, written to the members first (--force discards what they cannot take: it is lost)\n",
		       human_size(sz, sizeof(sz), dirty));
	if (in->open_count)
		printf("Result:         refused: it is open (%u opener%s): unmount it and stop its users first\n",
		       in->open_count, in->open_count == 1 ? "" : "s");
	else if (!force)
		printf("Result:         refused without --force\n");
	else
		printf("Result:         it would be deleted\n");
	return in->open_count || !force ? RC_FAIL : RC_OK;
}

/*
 * delete VD [--force] [--dry-run] | stop VD [--force]: one DELETE request
 * (ABI 1.11: with VRAID_DELETE_DISCARD on --force).
 */
static int delete_or_stop(int argc, char **argv, bool stop)
{
	const char *cmd = stop ? "stop" : "delete";
	const char *pos[1];
	struct vraid_delete req;
	struct vraid_info in;
	char what[48], sz[32];
	bool force, dry = false, discard;
	size_t npos;
	uint32_t idx;
	struct ctl c;
	int rc, e;

	force = take_flag(&argc, argv, "--force");
	if (!stop)
		dry = take_flag(&argc, argv, "--dry-run");
	rc = parse_args(cmd, argc, argv, NULL, NULL, NULL, pos, 1, &npos);
	if (rc >= 0)
		return rc;
	if (npos != 1)
		return usage_error(cmd, npos ? "name one virtual drive only" :
				   "name the virtual drive to %s (e.g. vraid0)", cmd);
	if (!ctl_open(&c, !dry))
		return RC_FAIL;
	if (vd_number(pos[0], &idx)) {
		memset(&in, 0, sizeof(in));
		in.index = idx;
		e = ctl_ioctl(&c, VRAID_IOC_INFO, &in, sizeof(in));
		if (!e && !reply_sane(in.nr_members, VRAID_MAX_MEMBERS, "nr_members"))
			e = EPROTO;
		if (e) {
			close(c.fd);
			snprintf(what, sizeof(what), "%s %s%u", cmd, VRAID_DISK_PREFIX, idx);
			report(&c, what, e, &in.hdr, CTX_VD);
			return RC_FAIL;
		}
	} else if (resolve_vd(&c, pos[0], &in)) {
		close(c.fd);
		return RC_FAIL;
	}
	snprintf(what, sizeof(what), "%s %s%u", cmd, VRAID_DISK_PREFIX, in.index);
	if (!stop && (dry || !force)) {
		close(c.fd);
		return delete_says(&in, pos[0], force, dry);
	}
	/* a module before ABI 1.11 knows no DISCARD: an unknown flag to it */
	discard = force && (in.hdr.version_major != VRAID_ABI_MAJOR ||
			    in.hdr.version_minor >= ABI_MINOR_DISCARD);
	if (stop && force && !discard)
		errmsg("warning: %s: the vraid module speaks ABI %u.%u, which cannot discard dirty cache data: --force has no effect, this is a plain stop",
		       what, in.hdr.version_major, in.hdr.version_minor);
	memset(&req, 0, sizeof(req));
	req.index = in.index;
	req.del_flags = (stop ? VRAID_DELETE_STOP : 0) |
			(discard ? VRAID_DELETE_DISCARD : 0);
	e = ctl_ioctl(&c, VRAID_IOC_DELETE, &req, sizeof(req));
	close(c.fd);
	if (e) {
		report(&c, what, e, &req.hdr, CTX_VD);
		/* ABI 1.11: the cache could not be written out; nothing changed */
		if (e == EIO && c.replied && !discard &&
		    (req.hdr.version_major != VRAID_ABI_MAJOR ||
		     req.hdr.version_minor >= ABI_MINOR_DISCARD))
			hintmsg("%s%u keeps running with its dirty cache data (nothing is lost): fix the member (see `vraidctl show %s` and the kernel log) and %s it again, or `vraidctl %s %s --force` discards the dirty data (those writes are lost)",
				VRAID_DISK_PREFIX, in.index, pos[0], cmd, cmd,
				pos[0]);
		return RC_FAIL;
	}
	if (discard && req.discarded_bytes)
		errmsg("warning: %s: %s of dirty cache data discarded, as --force asked (the members could not take it): those writes are lost",
		       what, human_size(sz, sizeof(sz), req.discarded_bytes));
	return RC_OK;
}

static int cmd_delete(int argc, char **argv)
{
	return delete_or_stop(argc, argv, false);
}

static int cmd_stop(int argc, char **argv)
{
	return delete_or_stop(argc, argv, true);
}

static void list_json(const struct vraid_info *v, size_t n)
{
	unsigned int p;
	size_t i;

	fputs("{\"vds\":[", stdout);
	for (i = 0; i < n; i++) {
		printf("%s{\"vd\":\"%s%u\",\"index\":%u,\"name\":", i ? "," : "",
		       VRAID_DISK_PREFIX, v[i].index, v[i].index);
		json_str(v[i].name, sizeof(v[i].name));
		p = v[i].job_type == VRAID_JOB_NONE ? 0 : job_permille(&v[i]);
		printf(",\"level\":\"%s\",\"state\":\"%s\",\"size_bytes\":%llu,"
		       "\"strip_bytes\":%u,\"members\":%u,\"job\":\"%s\","
		       "\"job_percent\":%u.%u}",
		       VNAME(levels, v[i].level, true),
		       VNAME(vd_states, v[i].state, true),
		       (unsigned long long)(v[i].size_sectors * SECTOR_BYTES),
		       strip_of(&v[i]), v[i].nr_members,
		       VNAME(job_types, v[i].job_type, true), p / 10, p % 10);
	}
	fputs("]}\n", stdout);
}

static int list_human(const struct vraid_info *v, size_t n)
{
	struct table t = {
		.ncol = 8,
		.head = { "VD", "NAME", "LEVEL", "STATE", "SIZE", "STRIP", "MEMBERS",
			  "JOB" },
		.right = { [4] = true, [5] = true, [6] = true },
	};
	char (*r)[TCELL];
	size_t i;

	if (n == 0) {
		printf("no virtual drives\n");
		return RC_OK;
	}
	for (i = 0; i < n; i++) {
		if (!(r = table_row(&t))) {
			free(t.row);
			errmsg("out of memory");
			return RC_FAIL;
		}
		snprintf(r[0], TCELL, "%s%u", VRAID_DISK_PREFIX, v[i].index);
		tty_str(r[1], TCELL, v[i].name, sizeof(v[i].name));
		if (!r[1][0])
			strcpy(r[1], "-");
		snprintf(r[2], TCELL, "%s", VNAME(levels, v[i].level, false));
		snprintf(r[3], TCELL, "%s", VNAME(vd_states, v[i].state, false));
		human_size(r[4], TCELL, v[i].size_sectors * SECTOR_BYTES);
		if (strip_of(&v[i]))
			human_size(r[5], TCELL, strip_of(&v[i]));
		else
			strcpy(r[5], "-");
		snprintf(r[6], TCELL, "%u", v[i].nr_members);
		if (v[i].job_type == VRAID_JOB_NONE)
			strcpy(r[7], "-");
		else
			snprintf(r[7], TCELL, "%s %u%%%s",
				 VNAME(job_types, v[i].job_type, false),
				 job_permille(&v[i]) / 10,
				 v[i].job_state == VRAID_JOB_PAUSED ? " paused" : "");
	}
	table_print(&t);
	free(t.row);
	return RC_OK;
}

static int cmd_list(int argc, char **argv)
{
	struct vraid_info *v;
	bool json = false;
	const char *pos[1];
	size_t n, npos;
	struct ctl c;
	int rc;

	rc = parse_args("list", argc, argv, NULL, NULL, &json, pos, 1, &npos);
	if (rc >= 0)
		return rc;
	if (npos)
		return usage_error("list", "unexpected argument '%s'", pos[0]);
	if (!ctl_open(&c, false))
		return RC_FAIL;
	rc = get_all(&c, &v, &n);
	close(c.fd);
	if (rc)
		return rc;
	if (json)
		list_json(v, n);
	else
		rc = list_human(v, n);
	free(v);
	return rc;
}

static void show_json(const struct vraid_info *in)
{
	const struct vraid_member_info *m;
	unsigned int p;
	uint32_t i;

	printf("{\"vd\":\"%s%u\",\"index\":%u,\"device\":\"/dev/%s%u\",\"name\":",
	       VRAID_DISK_PREFIX, in->index, in->index, VRAID_DISK_PREFIX, in->index);
	json_str(in->name, sizeof(in->name));
	printf(",\"level\":\"%s\",\"state\":\"%s\",\"size_bytes\":%llu,"
	       "\"strip_bytes\":%u,\"spans\":%u,\"full_stripe_bytes\":%llu,"
	       "\"data_offset_bytes\":%llu,\"member_data_bytes\":%llu,"
	       "\"logical_block_size\":%u,\"open_count\":%u,",
	       VNAME(levels, in->level, true), VNAME(vd_states, in->state, true),
	       (unsigned long long)(in->size_sectors * SECTOR_BYTES),
	       strip_of(in), in->spans,
	       (unsigned long long)(strip_of(in) * data_members(in)),
	       (unsigned long long)(in->data_offset_sectors * SECTOR_BYTES),
	       (unsigned long long)(in->member_data_sectors * SECTOR_BYTES),
	       in->logical_block_size, in->open_count);
	printf("\"policies\":{\"access\":\"%s\",\"disk_cache\":\"%s\",\"io\":\"%s\","
	       "\"read\":\"%s\",\"write\":\"%s\"},\"members\":[",
	       VNAME(access_pols, in->access_policy, true),
	       VNAME(dcache_pols, in->disk_cache_policy, true),
	       VNAME(io_pols, in->io_policy, true),
	       VNAME(read_pols, in->read_policy, true),
	       VNAME(write_pols, in->write_policy, true));
	for (i = 0; i < in->nr_members; i++) {
		m = &in->members[i];
		printf("%s{\"role\":%u,\"device\":", i ? "," : "", m->role);
		if (strnlen(m->dev_name, sizeof(m->dev_name))) {
			char dev[5 + VRAID_DEVNAME_LEN + 1];

			snprintf(dev, sizeof(dev), "/dev/%.*s",
				 (int)strnlen(m->dev_name, sizeof(m->dev_name)),
				 m->dev_name);
			json_str(dev, sizeof(dev));
		} else {
			fputs("\"\"", stdout);
		}
		printf(",\"major\":%u,\"minor\":%u,\"state\":\"%s\",\"size_bytes\":%llu,"
		       "\"data_bytes\":%llu,\"read_ios\":%llu,\"write_ios\":%llu,"
		       "\"errors\":%llu}",
		       m->major, m->minor, VNAME(member_states, m->state, true),
		       (unsigned long long)(m->dev_sectors * SECTOR_BYTES),
		       (unsigned long long)(m->data_sectors * SECTOR_BYTES),
		       (unsigned long long)m->read_ios,
		       (unsigned long long)m->write_ios,
		       (unsigned long long)m->errors);
	}
	p = in->job_type == VRAID_JOB_NONE ? 0 : job_permille(in);
	printf("],\"job\":{\"type\":\"%s\",\"state\":\"%s\",\"done_bytes\":%llu,"
	       "\"total_bytes\":%llu,\"percent\":%u.%u,\"eta_seconds\":%u,"
	       "\"rate_kib\":%u,\"mismatches\":%llu},",
	       VNAME(job_types, in->job_type, true),
	       in->job_type == VRAID_JOB_NONE ? "none" :
	       VNAME(job_states, in->job_state, true),
	       (unsigned long long)(in->job_done * SECTOR_BYTES),
	       (unsigned long long)(in->job_total * SECTOR_BYTES),
	       p / 10, p % 10, in->job_eta_sec, in->job_rate_kib,
	       (unsigned long long)in->job_mismatches);
	printf("\"last_job\":{\"type\":\"%s\",\"result\":%u,\"mismatches\":%llu},",
	       VNAME(job_types, in->last_job, true), in->last_result,
	       (unsigned long long)in->last_mismatches);
	printf("\"write_in_effect\":{\"mode\":\"%s\",\"why\":\"%s\"}}\n",
	       VNAME(write_effs, in->write_policy_effective, true),
	       write_why(in, true));
}

static int show_human(const struct vraid_info *in)
{
	struct table t = {
		.ncol = 9,
		.head = { "ROLE", "DEVICE", "MAJ:MIN", "STATE", "SIZE", "USED",
			  "READS", "WRITES", "ERRORS" },
		.right = { [0] = true, [4] = true, [5] = true, [6] = true,
			   [7] = true, [8] = true },
	};
	char a[TCELL], b[VRAID_DEVNAME_LEN + 1], j[256];
	char (*r)[TCELL];
	uint64_t full = strip_of(in) * data_members(in);
	uint32_t i;

#define FIELD "%-20s"
	printf(FIELD "%s%u\n", "Virtual drive:", VRAID_DISK_PREFIX, in->index);
	tty_str(a, sizeof(a), in->name, sizeof(in->name));
	printf(FIELD "%s\n", "Name:", a[0] ? a : "-");
	printf(FIELD "/dev/%s%u\n", "Device:", VRAID_DISK_PREFIX, in->index);
	printf(FIELD "%s\n", "Level:", VNAME(levels, in->level, false));
	printf(FIELD "%s\n", "State:", VNAME(vd_states, in->state, false));
	printf(FIELD "%s (%llu bytes)\n", "Size:",
	       human_size(a, sizeof(a), in->size_sectors * SECTOR_BYTES),
	       (unsigned long long)(in->size_sectors * SECTOR_BYTES));
	printf(FIELD "%s\n", "Strip:",
	       strip_of(in) ? human_size(a, sizeof(a), strip_of(in)) : "-");
	if (in->spans)
		printf(FIELD "%u\n", "Spans:", in->spans);
	printf(FIELD "%s\n", "Full stripe:", full ? human_size(a, sizeof(a), full) : "-");
	printf(FIELD "%s (sector %llu) on each member\n", "Data offset:",
	       human_size(a, sizeof(a), in->data_offset_sectors * SECTOR_BYTES),
	       (unsigned long long)in->data_offset_sectors);
	printf(FIELD "%s per member\n", "Member data:",
	       human_size(a, sizeof(a), in->member_data_sectors * SECTOR_BYTES));
	printf(FIELD "%u bytes\n", "Logical block size:", in->logical_block_size);
	printf(FIELD "%u\n", "Open count:", in->open_count);
	printf(FIELD "Access: %s, Disk cache: %s, I/O: %s, Read: %s, Write: %s\n",
	       "Policies:",
	       VNAME(access_pols, in->access_policy, false),
	       VNAME(dcache_pols, in->disk_cache_policy, false),
	       VNAME(io_pols, in->io_policy, false),
	       VNAME(read_pols, in->read_policy, false),
	       VNAME(write_pols, in->write_policy, false));
	if (*write_why(in, false))
		printf(FIELD "%s, because %s\n", "Write in effect:",
		       VNAME(write_effs, in->write_policy_effective, false),
		       write_why(in, false));
	else if (in->write_policy_effective == VRAID_WEFF_BACK_VOLATILE)
		printf(FIELD "%s: %s\n", "Write in effect:",
		       VNAME(write_effs, in->write_policy_effective, false),
		       VOLATILE_NOTE);
	else if (in->write_policy_effective == VRAID_WEFF_BACK)
		printf(FIELD "%s: %s\n", "Write in effect:",
		       VNAME(write_effs, in->write_policy_effective, false),
		       JOURNALLED_NOTE);
	else
		printf(FIELD "%s\n", "Write in effect:",
		       VNAME(write_effs, in->write_policy_effective, false));
	if (in->job_type != VRAID_JOB_NONE)
		printf(FIELD "%s\n", "Job:", job_progress(j, sizeof(j), in, false));
	else if (in->job_rate_kib)
		printf(FIELD "none (rate limit %s per member)\n", "Job:",
		       fmt_rate(a, sizeof(a), in->job_rate_kib));
	else
		printf(FIELD "none\n", "Job:");
	printf(FIELD "%s\n", "Last job:", job_outcome(j, sizeof(j), in, true));
#undef FIELD
	printf("\n");
	for (i = 0; i < in->nr_members; i++) {
		const struct vraid_member_info *m = &in->members[i];

		if (!(r = table_row(&t))) {
			free(t.row);
			errmsg("out of memory");
			return RC_FAIL;
		}
		snprintf(r[0], TCELL, "%u", m->role);
		tty_str(b, sizeof(b), m->dev_name, sizeof(m->dev_name));
		snprintf(r[1], TCELL, "%s%s", b[0] ? "/dev/" : "-", b);
		snprintf(r[2], TCELL, "%u:%u", m->major, m->minor);
		snprintf(r[3], TCELL, "%s", VNAME(member_states, m->state, false));
		human_size(r[4], TCELL, m->dev_sectors * SECTOR_BYTES);
		human_size(r[5], TCELL, m->data_sectors * SECTOR_BYTES);
		snprintf(r[6], TCELL, "%llu", (unsigned long long)m->read_ios);
		snprintf(r[7], TCELL, "%llu", (unsigned long long)m->write_ios);
		snprintf(r[8], TCELL, "%llu", (unsigned long long)m->errors);
	}
	table_print(&t);
	free(t.row);
	return RC_OK;
}

static int cmd_show(int argc, char **argv)
{
	struct vraid_info in;
	const char *pos[1];
	bool json = false;
	size_t npos;
	struct ctl c;
	int rc;

	rc = parse_args("show", argc, argv, NULL, NULL, &json, pos, 1, &npos);
	if (rc >= 0)
		return rc;
	if (npos != 1)
		return usage_error("show", npos ? "name one virtual drive only" :
				   "name the virtual drive to show (e.g. vraid0)");
	if (!ctl_open(&c, false))
		return RC_FAIL;
	rc = resolve_vd(&c, pos[0], &in);
	close(c.fd);
	if (rc)
		return rc;
	if (json) {
		show_json(&in);
		return RC_OK;
	}
	return show_human(&in);
}

/* set VD KEY=VALUE...: one SET_POLICY with the keys given, then INFO. */
static int cmd_set(int argc, char **argv)
{
	const char *pos[1 + 2 * NR_POL];	/* more means a key twice */
	struct vraid_set_policy req;
	struct vraid_info in;
	uint32_t val[NR_POL] = { 0 }, got[NR_POL], mask = 0;
	char name[32], w[48];
	size_t npos, i, k, kl;
	bool differs = false;
	struct ctl c;
	int rc, e;

	rc = parse_args("set", argc, argv, NULL, NULL, NULL, pos,
			ARRAY_SIZE(pos), &npos);
	if (rc >= 0)
		return rc;
	if (!npos)
		return usage_error("set", "name the virtual drive and the policies to set (e.g. vraid0 access=ro)");
	if (strchr(pos[0], '='))
		return usage_error("set", "name the virtual drive first, then KEY=VALUE (e.g. vraidctl set vraid0 %s)",
				   pos[0]);
	if (npos == 1)
		return usage_error("set", "name at least one policy to set as KEY=VALUE (KEY: access, disk-cache, read-policy, write-policy or io-policy)");
	for (i = 1; i < npos && i < ARRAY_SIZE(pos); i++) {
		const char *a = pos[i], *eq = strchr(a, '=');

		if (!eq)
			return usage_error("set", "'%s' is not KEY=VALUE (e.g. access=ro); name one virtual drive only",
					   a);
		kl = (size_t)(eq - a);
		for (k = 0; k < NR_POL; k++)
			if (strlen(policies[k].key) == kl &&
			    !strncmp(a, policies[k].key, kl))
				break;
		if (k == NR_POL)
			return usage_error("set", "unknown policy '%.*s' (choose access, disk-cache, read-policy, write-policy or io-policy)",
					   (int)kl, a);
		if (mask & policies[k].bit)
			return usage_error("set", "%s given twice", policies[k].key);
		if (!pol_parse(&policies[k], eq + 1, &val[k]))
			return usage_error("set", "unknown %s '%s' (choose %s)",
					   policies[k].key, eq + 1,
					   policies[k].choices);
		mask |= policies[k].bit;
	}
	if (npos > ARRAY_SIZE(pos))	/* not reached: a key came twice */
		return usage_error("set", "too many arguments");

	if (!ctl_open(&c, true))
		return RC_FAIL;
	if (resolve_vd(&c, pos[0], &in)) {
		close(c.fd);
		return RC_FAIL;
	}
	snprintf(name, sizeof(name), "%s%u", VRAID_DISK_PREFIX, in.index);
	memset(&req, 0, sizeof(req));
	req.index = in.index;
	req.set_mask = mask;
	req.access_policy = val[POL_ACCESS];
	req.disk_cache_policy = val[POL_DCACHE];
	req.io_policy = val[POL_IO];
	req.read_policy = val[POL_READ];
	req.write_policy = val[POL_WRITE];
	e = ctl_ioctl(&c, VRAID_IOC_SET_POLICY, &req, sizeof(req));
	if (e) {
		close(c.fd);
		snprintf(w, sizeof(w), "set %s", name);
		report(&c, w, e, &req.hdr, CTX_POLICY);
		if (e == EOPNOTSUPP && pol_needs_cache(mask, val))
			cache_hint(&req.hdr, mask, val);
		else if (e == EIO)
			hintmsg("the change may be in effect but not recorded on the members: see `vraidctl show %s` and the kernel log (dmesg)",
				name);
		return RC_FAIL;
	}
	rc = get_info(&c, in.index, &in, false);
	close(c.fd);
	if (rc) {
		hintmsg("the module accepted the change; see the policies with `vraidctl show %s`",
			name);
		return RC_FAIL;
	}
	got[POL_ACCESS] = in.access_policy;
	got[POL_DCACHE] = in.disk_cache_policy;
	got[POL_READ] = in.read_policy;
	got[POL_WRITE] = in.write_policy;
	got[POL_IO] = in.io_policy;
	printf("%s: %s %s, %s %s, %s %s, %s %s, %s %s\n", name,
	       policies[0].label, pol_says(0, got[0]),
	       policies[1].label, pol_says(1, got[1]),
	       policies[2].label, pol_says(2, got[2]),
	       policies[3].label, pol_says(3, got[3]),
	       policies[4].label, pol_says(4, got[4]));
	fflush(stdout);
	if (mask & VRAID_SET_WRITE)
		write_note(&in, name);
	for (k = 0; k < NR_POL; k++) {
		if ((mask & policies[k].bit) && got[k] != val[k]) {
			errmsg("%s: the module accepted %s %s, but reports %s",
			       name, policies[k].label, pol_says(k, val[k]),
			       pol_says(k, got[k]));
			differs = true;
		}
	}
	if (differs)
		hintmsg("see `vraidctl show %s` and the kernel log (dmesg)", name);
	return differs ? RC_FAIL : RC_OK;
}

static int cmd_version(int argc, char **argv)
{
	struct vraid_list l;
	const char *pos[1];
	size_t npos;
	struct ctl c;
	int rc, e;

	rc = parse_args("version", argc, argv, NULL, NULL, NULL, pos, 1, &npos);
	if (rc >= 0)
		return rc;
	if (npos)
		return usage_error("version", "unexpected argument '%s'", pos[0]);
	printf("vraidctl %s (ABI %d.%d)\n", VRAIDCTL_VERSION,
	       VRAID_ABI_MAJOR, VRAID_ABI_MINOR);

	ctl_path(&c);
	c.fd = open(c.path, O_RDONLY | O_CLOEXEC);
	if (c.fd < 0) {
		e = errno;
		printf("module ABI: unknown (%s: %s)\n", c.path,
		       e == ENOENT ? "not found, vraid module not loaded" : strerror(e));
	} else {
		memset(&l, 0, sizeof(l));
		e = ctl_ioctl(&c, VRAID_IOC_LIST, &l, sizeof(l));
		close(c.fd);
		if (!e || c.replied)
			printf("module ABI: %d.%d%s\n", l.hdr.version_major,
			       l.hdr.version_minor,
			       l.hdr.version_major != VRAID_ABI_MAJOR ?
			       " (differs from vraidctl's: use the vraidctl built with the module)" : "");
		else
			printf("module ABI: unknown (%s: %s)\n", c.path,
			       e == ENOTTY ? "not the vraid control device" : strerror(e));
	}
	return RC_OK;
}


static int cmd_fail(int argc, char **argv)
{
	const char *pos[2];
	struct vraid_fail_member req;
	struct vraid_member_ref ref;
	struct vraid_info in;
	char what[64];
	bool force = false;
	size_t npos;
	struct ctl c;
	int i, j, rc, e;

	/* --force is a plain flag: take it out before the common parser. */
	for (i = j = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--force"))
			force = true;
		else
			argv[j++] = argv[i];
	}
	argc = j;
	rc = parse_args("fail", argc, argv, NULL, NULL, NULL, pos, 2, &npos);
	if (rc >= 0)
		return rc;
	if (npos != 2)
		return usage_error("fail", "name the virtual drive and the member to fail (e.g. vraid0 /dev/sdc)");
	if (member_ref(pos[1], &ref))
		return RC_FAIL;
	if (!ctl_open(&c, true))
		return RC_FAIL;
	if (resolve_vd(&c, pos[0], &in)) {
		close(c.fd);
		return RC_FAIL;
	}
	memset(&req, 0, sizeof(req));
	req.index = in.index;
	req.major = ref.major;
	req.minor = ref.minor;
	req.fail_flags = force ? VRAID_FAIL_FORCE : 0;
	e = ctl_ioctl(&c, VRAID_IOC_FAIL_MEMBER, &req, sizeof(req));
	close(c.fd);
	if (e) {
		snprintf(what, sizeof(what), "fail %s%u %s", VRAID_DISK_PREFIX,
			 in.index, pos[1]);
		report(&c, what, e, &req.hdr, CTX_FAIL);
		return RC_FAIL;
	}
	return RC_OK;
}


/* ---- jobs, spares, replacement ------------------------------------------- */

/* Take every plain flag @flag out of argv (up to "--"); true if given. */
static bool take_flag(int *argc, char **argv, const char *flag)
{
	bool found = false, only_pos = false;
	int i, j;

	for (i = j = 1; i < *argc; i++) {
		if (!strcmp(argv[i], "--"))
			only_pos = true;
		if (!only_pos && !strcmp(argv[i], flag))
			found = true;
		else
			argv[j++] = argv[i];
	}
	*argc = j;
	return found;
}

/* "600", "2.5": seconds */
static bool parse_seconds(const char *s, double *out)
{
	size_t n = strspn(s, "0123456789"), f;
	char *end;

	if (!n)
		return false;
	if (s[n] == '.') {
		f = strspn(s + n + 1, "0123456789");
		if (!f || s[n + 1 + f])
			return false;
	} else if (s[n]) {
		return false;
	}
	*out = strtod(s, &end);
	return !*end && *out <= 1e9;
}

static int cmd_wait(int argc, char **argv)
{
	static const char *const names[] = { "--timeout", NULL };
	const char *vals[1] = { NULL }, *pos[1];
	struct vraid_info in;
	double timeout = -1;
	size_t npos;
	struct ctl c;
	int rc;

	rc = parse_args("wait", argc, argv, names, vals, NULL, pos, 1, &npos);
	if (rc >= 0)
		return rc;
	if (npos != 1)
		return usage_error("wait", npos ? "name one virtual drive only" :
				   "name the virtual drive to wait for (e.g. vraid0)");
	if (vals[0] && !parse_seconds(vals[0], &timeout))
		return usage_error("wait", "invalid --timeout '%s': give seconds, e.g. 600 or 2.5",
				   vals[0]);
	if (!ctl_open(&c, false))
		return RC_FAIL;
	/* a busy controller counts against --timeout too */
	if (timeout >= 0)
		c.deadline = now_sec() + timeout;
	rc = resolve_vd(&c, pos[0], &in);
	if (!rc)
		rc = wait_job(&c, &in, timeout, stdout, false);
	close(c.fd);
	return rc;
}

/* ---- stats -------------------------------------------------------------- */

/*
 * What the block layer counts for a disk (/sys/class/block/NAME/stat,
 * Documentation/block/stat.rst): I/Os and sectors per direction, I/Os in
 * flight, flushes.
 */
struct blk_stat {
	bool ok;
	uint64_t rios, rsect, wios, wsect, inflight, fios;
};

/* One look at a VD: INFO, its own block counters and its members'. */
struct stats_sample {
	double t;
	struct vraid_info in;
	struct blk_stat vd;
	struct blk_stat m[VRAID_MAX_MEMBERS];
	uint64_t flushes, read_repairs;
	bool cache;			/* the module has cache counters */
	uint64_t chits, cmisses, cbytes;
	bool ra;			/* ... and read-ahead ones (ABI 1.7) */
	uint64_t rahits, rapages;
	bool wb;			/* ... and write-back ones (ABI 1.8) */
	uint64_t dirty, wpages, destaged;
	bool jl;			/* ... and journal ones (ABI 1.9) */
	uint64_t jwrites, jpages;
	bool jr;			/* ... and journal_refs */
	uint64_t jrefs;
	bool fl;			/* ... and cache_fill_pages */
	uint64_t fpages;
	bool wt;			/* ... and the two wait counters */
	uint64_t dwaits, jwaits;
};

/* sysfs, or a tree standing in for it (VRAIDCTL_SYSFS, for tests) */
static const char *sysfs_root(void)
{
	const char *e = getenv("VRAIDCTL_SYSFS");

	return e && *e ? e : "/sys";
}

static bool read_blk_stat(const char *name, struct blk_stat *s)
{
	unsigned long long v[17] = { 0 };
	char path[512];
	FILE *f;
	int n;

	memset(s, 0, sizeof(*s));
	snprintf(path, sizeof(path), "%s/class/block/%s/stat", sysfs_root(),
		 name);
	f = fopen(path, "r");
	if (!f)
		return false;
	n = fscanf(f, "%llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu",
		   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7],
		   &v[8], &v[9], &v[10], &v[11], &v[12], &v[13], &v[14],
		   &v[15], &v[16]);
	fclose(f);
	if (n < 11)
		return false;
	s->rios = v[0];
	s->rsect = v[2];
	s->wios = v[4];
	s->wsect = v[6];
	s->inflight = v[8];
	s->fios = n >= 16 ? v[15] : 0;
	s->ok = true;
	return true;
}

/* /sys/block/vraidN/vraid/ATTR as a number */
static bool read_vd_attr(uint32_t index, const char *attr, uint64_t *val)
{
	unsigned long long v;
	char path[512];
	FILE *f;
	int n;

	snprintf(path, sizeof(path), "%s/block/%s%u/vraid/%s", sysfs_root(),
		 VRAID_DISK_PREFIX, index, attr);
	f = fopen(path, "r");
	if (!f)
		return false;
	n = fscanf(f, "%llu", &v);
	fclose(f);
	*val = v;
	return n == 1;
}

static int take_sample(struct ctl *c, uint32_t index, struct stats_sample *s)
{
	char name[VRAID_DEVNAME_LEN + 16], dev[VRAID_DEVNAME_LEN + 1];
	uint32_t i;
	int e;

	e = get_info(c, index, &s->in, false);
	if (e)
		return RC_FAIL;
	s->t = now_sec();
	snprintf(name, sizeof(name), "%s%u", VRAID_DISK_PREFIX, index);
	if (!read_blk_stat(name, &s->vd) ||
	    !read_vd_attr(index, "flushes", &s->flushes) ||
	    !read_vd_attr(index, "read_repairs", &s->read_repairs)) {
		errmsg("cannot read the counters of %s under %s/block/%s: %s",
		       name, sysfs_root(), name, strerror(errno));
		hintmsg("stats needs sysfs mounted at /sys (mount -t sysfs sysfs /sys)");
		return RC_FAIL;
	}
	s->cache = read_vd_attr(index, "cache_read_hits", &s->chits) &&
		   read_vd_attr(index, "cache_read_misses", &s->cmisses) &&
		   read_vd_attr(index, "cache_bytes", &s->cbytes);
	s->ra = s->cache &&
		read_vd_attr(index, "cache_ra_hits", &s->rahits) &&
		read_vd_attr(index, "cache_ra_pages", &s->rapages);
	s->wb = s->cache &&
		read_vd_attr(index, "cache_dirty_bytes", &s->dirty) &&
		read_vd_attr(index, "cache_write_pages", &s->wpages) &&
		read_vd_attr(index, "cache_destaged", &s->destaged);
	s->jl = s->wb &&
		read_vd_attr(index, "journal_writes", &s->jwrites) &&
		read_vd_attr(index, "journal_pages", &s->jpages);
	s->jr = s->jl && read_vd_attr(index, "journal_refs", &s->jrefs);
	s->fl = s->wb && read_vd_attr(index, "cache_fill_pages", &s->fpages);
	s->wt = s->wb &&
		read_vd_attr(index, "cache_dirty_waits", &s->dwaits) &&
		read_vd_attr(index, "journal_waits", &s->jwaits);
	for (i = 0; i < s->in.nr_members; i++) {
		const struct vraid_member_info *m = &s->in.members[i];

		memset(&s->m[i], 0, sizeof(s->m[i]));
		tty_str(dev, sizeof(dev), m->dev_name, sizeof(m->dev_name));
		if (dev[0] && !strchr(dev, '/'))
			read_blk_stat(dev, &s->m[i]);
	}
	return RC_OK;
}

/* counter growth per second; a counter that went back (reset) counts 0 */
static double rate(uint64_t now, uint64_t then, double dt)
{
	return now > then && dt > 0 ? (double)(now - then) / dt : 0.0;
}

/* The "Cache:" line of stats. */
static void stats_cache_line(const struct stats_sample *s)
{
	uint64_t all = s->chits + s->cmisses;
	bool rapol = s->in.read_policy == VRAID_READ_AHEAD;
	/* writes fill the cache: always write-back, or journalled write-back */
	bool awb = s->in.write_policy == VRAID_WRITE_BACK_ALWAYS ||
		   s->in.write_policy_effective == VRAID_WEFF_BACK;
	char a[TCELL];

	if (!s->cache) {
		printf("none: this module has no cache counters\n");
		return;
	}
	printf("%llu read hits, %llu misses",
	       (unsigned long long)s->chits, (unsigned long long)s->cmisses);
	if (all)
		printf(" (%.1f %% hits)", 100.0 * (double)s->chits / (double)all);
	/* the read-ahead part once there is anything to say about it */
	if (s->ra && (s->rapages || rapol))
		printf(", read-ahead: %llu hits of %llu pages read ahead",
		       (unsigned long long)s->rahits,
		       (unsigned long long)s->rapages);
	/* the write-back part likewise (always write-back, ABI 1.8; wb 1.9) */
	if (s->wb && (s->dirty || s->wpages || s->destaged || awb))
		printf(", write-back: %s dirty, %llu pages written in, %llu destaged",
		       human_size(a, sizeof(a), s->dirty),
		       (unsigned long long)s->wpages,
		       (unsigned long long)s->destaged);
	/* pages read to complete rows for their destage (disks) */
	if (s->fl && s->fpages)
		printf(" (%llu pages read to fill rows)",
		       (unsigned long long)s->fpages);
	if (s->jl && (s->jwrites ||
		      s->in.write_policy_effective == VRAID_WEFF_BACK))
		printf(", journal: %llu writes logged, %llu pages",
		       (unsigned long long)s->jwrites,
		       (unsigned long long)s->jpages);
	/* destaged blocks that parity records named instead of logging */
	if (s->jr && s->jrefs)
		printf(" (%llu destaged pages named, not logged again)",
		       (unsigned long long)s->jrefs);
	/* writers held up by the cache's bounds, once there were any */
	if (s->wt && s->dwaits)
		printf(", %llu writes waited for destage (dirty bound)",
		       (unsigned long long)s->dwaits);
	if (s->wt && s->jwaits)
		printf(", %llu writes waited for the journal (unlogged bound)",
		       (unsigned long long)s->jwaits);
	printf(", %s held", human_size(a, sizeof(a), s->cbytes));
	/*
	 * direct: reads find what read-ahead and writes (always write-back)
	 * put in, but their misses fill nothing
	 */
	if (s->in.io_policy != VRAID_IO_CACHED) {
		if (rapol && awb)
			fputs(" (io policy direct: only read-ahead and writes fill it)", stdout);
		else if (rapol)
			fputs(" (io policy direct: only read-ahead fills it)", stdout);
		else if (awb)
			fputs(" (io policy direct: only writes fill it)", stdout);
		else
			fputs(" (io policy direct: reads do not use it)", stdout);
	}
	printf("\n");
}

/* ,"KEY":V of stats --json, or ,"KEY":null if the module has no such counter */
static void json_count(const char *key, bool have, uint64_t v)
{
	if (have)
		printf(",\"%s\":%llu", key, (unsigned long long)v);
	else
		printf(",\"%s\":null", key);
}

/* ,"KEY_per_s":R over the interval, or null as json_count() */
static void json_rate(const char *key, bool have, uint64_t now,
		      uint64_t then, double dt)
{
	if (have)
		printf(",\"%s_per_s\":%.1f", key, rate(now, then, dt));
	else
		printf(",\"%s_per_s\":null", key);
}

/* The "cache" value of stats --json: an object, or null. */
static void stats_cache_json(const struct stats_sample *a,
			     const struct stats_sample *b, double dt)
{
	if (!b->cache) {
		printf("null");
		return;
	}
	if (!a) {
		printf("{\"read_hits\":%llu,\"read_misses\":%llu,\"cached_bytes\":%llu",
		       (unsigned long long)b->chits,
		       (unsigned long long)b->cmisses,
		       (unsigned long long)b->cbytes);
		json_count("ra_hits", b->ra, b->rahits);
		json_count("ra_pages", b->ra, b->rapages);
		json_count("dirty_bytes", b->wb, b->dirty);
		json_count("write_pages", b->wb, b->wpages);
		json_count("destaged_pages", b->wb, b->destaged);
		json_count("journal_writes", b->jl, b->jwrites);
		json_count("journal_pages", b->jl, b->jpages);
		json_count("journal_refs", b->jr, b->jrefs);
		json_count("fill_pages", b->fl, b->fpages);
		json_count("dirty_waits", b->wt, b->dwaits);
		json_count("journal_waits", b->wt, b->jwaits);
		printf("}");
		return;
	}
	printf("{\"read_hits_per_s\":%.1f,\"read_misses_per_s\":%.1f,\"cached_bytes\":%llu",
	       rate(b->chits, a->chits, dt), rate(b->cmisses, a->cmisses, dt),
	       (unsigned long long)b->cbytes);
	json_rate("ra_hits", a->ra && b->ra, b->rahits, a->rahits, dt);
	json_rate("ra_pages", a->ra && b->ra, b->rapages, a->rapages, dt);
	/* what is dirty at the interval's end, not a rate */
	json_count("dirty_bytes", a->wb && b->wb, b->dirty);
	json_rate("write_pages", a->wb && b->wb, b->wpages, a->wpages, dt);
	json_rate("destaged_pages", a->wb && b->wb, b->destaged, a->destaged,
		  dt);
	json_rate("journal_writes", a->jl && b->jl, b->jwrites, a->jwrites, dt);
	json_rate("journal_pages", a->jl && b->jl, b->jpages, a->jpages, dt);
	json_rate("journal_refs", a->jr && b->jr, b->jrefs, a->jrefs, dt);
	json_rate("fill_pages", a->fl && b->fl, b->fpages, a->fpages, dt);
	json_rate("dirty_waits", a->wt && b->wt, b->dwaits, a->dwaits, dt);
	json_rate("journal_waits", a->wt && b->wt, b->jwaits, a->jwaits, dt);
	printf("}");
}

static void stats_member_dev(char *buf, size_t bufsz,
			     const struct vraid_member_info *m)
{
	char b[VRAID_DEVNAME_LEN + 1];

	tty_str(b, sizeof(b), m->dev_name, sizeof(m->dev_name));
	snprintf(buf, bufsz, "%s%s", b[0] ? "/dev/" : "-", b);
}

static int stats_human(const struct stats_sample *s)
{
	struct table t = {
		.ncol = 8,
		.head = { "ROLE", "DEVICE", "STATE", "READS", "WRITES", "READ",
			  "WRITTEN", "ERRORS" },
		.right = { [0] = true, [3] = true, [4] = true, [5] = true,
			   [6] = true, [7] = true },
	};
	const struct vraid_info *in = &s->in;
	char a[TCELL], b[TCELL];
	char (*r)[TCELL];
	uint32_t i;

#define FIELD "%-15s"
	printf("%s%u (%s, %s): counted since it was created or assembled\n",
	       VRAID_DISK_PREFIX, in->index, VNAME(levels, in->level, false),
	       VNAME(vd_states, in->state, false));
	printf(FIELD "%llu I/Os, %s\n", "Reads:",
	       (unsigned long long)s->vd.rios,
	       human_size(a, sizeof(a), s->vd.rsect * SECTOR_BYTES));
	printf(FIELD "%llu I/Os, %s\n", "Writes:",
	       (unsigned long long)s->vd.wios,
	       human_size(b, sizeof(b), s->vd.wsect * SECTOR_BYTES));
	printf(FIELD "%llu\n", "Flushes:", (unsigned long long)s->flushes);
	printf(FIELD "%llu\n", "In flight:", (unsigned long long)s->vd.inflight);
	printf(FIELD "%llu\n", "Read repairs:",
	       (unsigned long long)s->read_repairs);
	printf(FIELD, "Cache:");
	stats_cache_line(s);
#undef FIELD
	printf("\n");
	for (i = 0; i < in->nr_members; i++) {
		const struct vraid_member_info *m = &in->members[i];

		r = table_row(&t);
		if (!r) {
			free(t.row);
			errmsg("out of memory");
			return RC_FAIL;
		}
		snprintf(r[0], TCELL, "%u", m->role);
		stats_member_dev(r[1], TCELL, m);
		snprintf(r[2], TCELL, "%s", VNAME(member_states, m->state, false));
		snprintf(r[3], TCELL, "%llu", (unsigned long long)m->read_ios);
		snprintf(r[4], TCELL, "%llu", (unsigned long long)m->write_ios);
		if (s->m[i].ok) {
			human_size(r[5], TCELL, s->m[i].rsect * SECTOR_BYTES);
			human_size(r[6], TCELL, s->m[i].wsect * SECTOR_BYTES);
		} else {
			snprintf(r[5], TCELL, "-");
			snprintf(r[6], TCELL, "-");
		}
		snprintf(r[7], TCELL, "%llu", (unsigned long long)m->errors);
	}
	table_print(&t);
	free(t.row);
	printf("\nREADS and WRITES are the I/Os vraid sent to each member; READ and WRITTEN\n"
	       "are the bytes the member device counted (vraid's metadata included).\n");
	return RC_OK;
}

static void stats_json(const struct stats_sample *s)
{
	const struct vraid_info *in = &s->in;
	char dev[TCELL];
	uint32_t i;

	printf("{\"vd\":\"%s%u\",\"index\":%u,\"level\":\"%s\",\"state\":\"%s\","
	       "\"reads\":%llu,\"read_bytes\":%llu,\"writes\":%llu,"
	       "\"write_bytes\":%llu,\"flushes\":%llu,\"in_flight\":%llu,"
	       "\"read_repairs\":%llu,\"cache\":",
	       VRAID_DISK_PREFIX, in->index, in->index,
	       VNAME(levels, in->level, true), VNAME(vd_states, in->state, true),
	       (unsigned long long)s->vd.rios,
	       (unsigned long long)(s->vd.rsect * SECTOR_BYTES),
	       (unsigned long long)s->vd.wios,
	       (unsigned long long)(s->vd.wsect * SECTOR_BYTES),
	       (unsigned long long)s->flushes,
	       (unsigned long long)s->vd.inflight,
	       (unsigned long long)s->read_repairs);
	stats_cache_json(NULL, s, 0);
	printf(",\"members\":[");
	for (i = 0; i < in->nr_members; i++) {
		const struct vraid_member_info *m = &in->members[i];

		stats_member_dev(dev, sizeof(dev), m);
		printf("%s{\"role\":%u,\"device\":", i ? "," : "", m->role);
		json_str(dev, sizeof(dev));
		printf(",\"state\":\"%s\",\"reads\":%llu,\"writes\":%llu,"
		       "\"read_bytes\":%llu,\"write_bytes\":%llu,\"errors\":%llu}",
		       VNAME(member_states, m->state, true),
		       (unsigned long long)m->read_ios,
		       (unsigned long long)m->write_ios,
		       (unsigned long long)(s->m[i].rsect * SECTOR_BYTES),
		       (unsigned long long)(s->m[i].wsect * SECTOR_BYTES),
		       (unsigned long long)m->errors);
	}
	printf("]}\n");
}

/* One --watch report: what happened between @a and @b. */
static void stats_watch_report(const struct stats_sample *a,
			       const struct stats_sample *b, bool json,
			       unsigned int nr)
{
	const struct vraid_info *in = &b->in;
	double dt = b->t - a->t;
	char ts[16], dev[TCELL];
	time_t now = time(NULL);
	struct tm tm;
	uint32_t i;

	localtime_r(&now, &tm);
	strftime(ts, sizeof(ts), "%H:%M:%S", &tm);
	if (json) {
		printf("{\"vd\":\"%s%u\",\"time\":\"%s\",\"interval\":%.3f,"
		       "\"state\":\"%s\",\"reads_per_s\":%.1f,\"writes_per_s\":%.1f,"
		       "\"read_bytes_per_s\":%.0f,\"write_bytes_per_s\":%.0f,"
		       "\"flushes_per_s\":%.1f,\"in_flight\":%llu,"
		       "\"read_repairs\":%llu,\"cache\":",
		       VRAID_DISK_PREFIX, in->index, ts, dt,
		       VNAME(vd_states, in->state, true),
		       rate(b->vd.rios, a->vd.rios, dt),
		       rate(b->vd.wios, a->vd.wios, dt),
		       rate(b->vd.rsect, a->vd.rsect, dt) * SECTOR_BYTES,
		       rate(b->vd.wsect, a->vd.wsect, dt) * SECTOR_BYTES,
		       rate(b->flushes, a->flushes, dt),
		       (unsigned long long)b->vd.inflight,
		       (unsigned long long)b->read_repairs);
		stats_cache_json(a, b, dt);
		printf(",\"members\":[");
	} else {
		if (nr % 10 == 0)
			printf("%-8s  %-8s  %9s  %9s  %8s  %8s  %8s  %8s\n",
			       "TIME", "VD/ROLE", "READS/s", "WRITES/s",
			       "RMB/s", "WMB/s", "FLUSH/s", "ERRORS");
		printf("%-8s  %s%-3u  %9.1f  %9.1f  %8.2f  %8.2f  %8.1f  %8s  %s\n",
		       ts, VRAID_DISK_PREFIX, in->index,
		       rate(b->vd.rios, a->vd.rios, dt),
		       rate(b->vd.wios, a->vd.wios, dt),
		       rate(b->vd.rsect, a->vd.rsect, dt) * SECTOR_BYTES / 1e6,
		       rate(b->vd.wsect, a->vd.wsect, dt) * SECTOR_BYTES / 1e6,
		       rate(b->flushes, a->flushes, dt), "",
		       VNAME(vd_states, in->state, false));
	}
	for (i = 0; i < in->nr_members; i++) {
		const struct vraid_member_info *m = &in->members[i];
		const struct vraid_member_info *o = &a->in.members[i];
		/* a replaced member starts from its own zero */
		bool same = o->major == m->major && o->minor == m->minor;
		uint64_t or = same ? o->read_ios : 0, ow = same ? o->write_ios : 0;
		uint64_t ors = same ? a->m[i].rsect : 0;
		uint64_t ows = same ? a->m[i].wsect : 0;

		stats_member_dev(dev, sizeof(dev), m);
		if (json) {
			printf("%s{\"role\":%u,\"device\":", i ? "," : "", m->role);
			json_str(dev, sizeof(dev));
			printf(",\"state\":\"%s\",\"reads_per_s\":%.1f,"
			       "\"writes_per_s\":%.1f,\"read_bytes_per_s\":%.0f,"
			       "\"write_bytes_per_s\":%.0f,\"errors\":%llu}",
			       VNAME(member_states, m->state, true),
			       rate(m->read_ios, or, dt), rate(m->write_ios, ow, dt),
			       rate(b->m[i].rsect, ors, dt) * SECTOR_BYTES,
			       rate(b->m[i].wsect, ows, dt) * SECTOR_BYTES,
			       (unsigned long long)m->errors);
			continue;
		}
		printf("%-8s  %5u %-2s  %9.1f  %9.1f  %8.2f  %8.2f  %8s  %8llu  %s %s\n",
		       "", m->role, "", rate(m->read_ios, or, dt),
		       rate(m->write_ios, ow, dt),
		       rate(b->m[i].rsect, ors, dt) * SECTOR_BYTES / 1e6,
		       rate(b->m[i].wsect, ows, dt) * SECTOR_BYTES / 1e6, "",
		       (unsigned long long)m->errors, dev,
		       VNAME(member_states, m->state, false));
	}
	if (json)
		printf("]}\n");
	fflush(stdout);
}

/* stats VD [--json] [--watch [--interval SECS] [--count N]] */
static int cmd_stats(int argc, char **argv)
{
	static const char *const names[] = { "--interval", "--count", NULL };
	const char *vals[2] = { NULL, NULL }, *pos[1];
	bool watch = take_flag(&argc, argv, "--watch"), json = false;
	struct stats_sample *s;
	double interval = 2;
	uint32_t count = 0, i;
	size_t npos;
	struct ctl c;
	int rc;

	rc = parse_args("stats", argc, argv, names, vals, &json, pos, 1, &npos);
	if (rc >= 0)
		return rc;
	if (npos != 1)
		return usage_error("stats", npos ? "name one virtual drive only" :
				   "name the virtual drive whose counters to show (e.g. vraid0)");
	if (!watch && (vals[0] || vals[1]))
		return usage_error("stats", "%s goes with --watch",
				   vals[0] ? "--interval" : "--count");
	if (vals[0] && (!parse_seconds(vals[0], &interval) ||
			interval < 0.1 || interval > 86400))
		return usage_error("stats", "invalid --interval '%s': give seconds from 0.1 to 86400, e.g. 1 or 0.5",
				   vals[0]);
	if (vals[1] && (!parse_u32(vals[1], &count) || !count))
		return usage_error("stats", "invalid --count '%s': give the number of reports, 1 or more",
				   vals[1]);
	s = calloc(2, sizeof(*s));
	if (!s) {
		errmsg("out of memory");
		return RC_FAIL;
	}
	if (!ctl_open(&c, false)) {
		free(s);
		return RC_FAIL;
	}
	rc = resolve_vd(&c, pos[0], &s[0].in);
	if (!rc)
		rc = take_sample(&c, s[0].in.index, &s[0]);
	if (rc || !watch) {
		if (!rc && json)
			stats_json(&s[0]);
		else if (!rc)
			rc = stats_human(&s[0]);
		goto out;
	}
	for (i = 0; !count || i < count; i++) {
		sleep_sec(interval);
		rc = take_sample(&c, s[0].in.index, &s[(i + 1) % 2]);
		if (rc)
			break;
		stats_watch_report(&s[i % 2], &s[(i + 1) % 2], json, i);
	}
out:
	close(c.fd);
	free(s);
	return rc;
}

/* check VD [--repair] [--wait], init VD [--wait] */
static int start_job(const char *cmd, int argc, char **argv)
{
	bool check = !strcmp(cmd, "check");
	bool repair = check && take_flag(&argc, argv, "--repair");
	bool wait = take_flag(&argc, argv, "--wait");
	const char *what = !check ? "init" : repair ? "repair" : "check";
	const char *verb = check ? "check" : "initialise";
	const char *pos[1];
	struct vraid_job req;
	struct vraid_info in;
	char name[32], w[64];
	unsigned int p;
	size_t npos;
	struct ctl c;
	int rc, e;

	rc = parse_args(cmd, argc, argv, NULL, NULL, NULL, pos, 1, &npos);
	if (rc >= 0)
		return rc;
	if (npos != 1)
		return usage_error(cmd, npos ? "name one virtual drive only" :
				   "name the virtual drive to %s (e.g. vraid0)", verb);
	if (!ctl_open(&c, true))
		return RC_FAIL;
	if (resolve_vd(&c, pos[0], &in)) {
		close(c.fd);
		return RC_FAIL;
	}
	snprintf(name, sizeof(name), "%s%u", VRAID_DISK_PREFIX, in.index);
	rc = RC_FAIL;
	if (!redundant(in.level)) {
		errmsg("%s is %s: it has no redundancy to %s", name,
		       VNAME(levels, in.level, false), verb);
		hintmsg("check, repair and init apply to RAID1, 5, 6, 10, 50 and 60");
		goto out;
	}
	if (in.job_type != VRAID_JOB_NONE) {
		p = job_permille(&in);
		errmsg("%s: busy with a %s at %u.%u%%%s; one job runs at a time",
		       name, VNAME(job_types, in.job_type, false), p / 10, p % 10,
		       in.job_state == VRAID_JOB_PAUSED ? " (paused)" : "");
		hintmsg("wait for it with `vraidctl wait %s`, or stop it with `vraidctl job %s stop`",
			name, name);
		goto out;
	}
	memset(&req, 0, sizeof(req));
	req.index = in.index;
	req.action = !check ? VRAID_JOB_START_INIT :
		     repair ? VRAID_JOB_START_REPAIR : VRAID_JOB_START_CHECK;
	e = ctl_ioctl(&c, VRAID_IOC_JOB, &req, sizeof(req));
	if (e) {
		snprintf(w, sizeof(w), "%s %s", what, name);
		report(&c, w, e, &req.hdr, CTX_JOB);
		goto out;
	}
	if (!wait) {
		printf("%s: %s started; follow with: vraidctl wait %s\n", name,
		       what, name);
		rc = RC_OK;
		goto out;
	}
	printf("%s: %s started\n", name, what);
	fflush(stdout);
	if (!get_info(&c, in.index, &in, false))
		rc = wait_job(&c, &in, -1, stdout, true);
out:
	close(c.fd);
	return rc;
}

static int cmd_check(int argc, char **argv)
{
	return start_job("check", argc, argv);
}

static int cmd_init(int argc, char **argv)
{
	return start_job("init", argc, argv);
}

/*
 * RATE: bytes per second, a whole number with an optional K, M or G
 * suffix (binary), or none / 0; to KiB/s.
 */
static int parse_rate(const char *s, uint32_t *kib)
{
	uint64_t v;

	if (!strcasecmp(s, "none") || !strcasecmp(s, "unlimited")) {
		*kib = 0;
		return RC_OK;
	}
	if (!parse_size(s, &v))
		return usage_error("job", "invalid rate '%s': give a whole number of bytes per second with an optional K, M or G suffix (e.g. 512K, 50M, 1G), or none for no limit",
				   s);
	if (v && v < 1024)
		return usage_error("job", "rate '%s' is too small: the minimum is 1K (1 KiB/s); 0 or none means no limit",
				   s);
	if (v / 1024 > VRAID_JOB_RATE_MAX)
		return usage_error("job", "rate '%s' is too large: the maximum is %uG (%u KiB/s)",
				   s, VRAID_JOB_RATE_MAX >> 20, VRAID_JOB_RATE_MAX);
	*kib = (uint32_t)(v / 1024);
	return RC_OK;
}

static const struct {
	const char *name;
	uint32_t action;
	const char *done;
} job_actions[] = {
	{ "pause", VRAID_JOB_PAUSE, "paused" },
	{ "resume", VRAID_JOB_RESUME, "resumed" },
	{ "stop", VRAID_JOB_STOP, "stopped" },
	{ "rate", VRAID_JOB_SET_RATE, NULL },
};

static int cmd_job(int argc, char **argv)
{
	const char *pos[3], *type;
	struct vraid_job req;
	struct vraid_info in;
	char name[32], w[64], r[32];
	uint32_t kib = 0;
	size_t npos, k;
	struct ctl c;
	int rc, e;

	rc = parse_args("job", argc, argv, NULL, NULL, NULL, pos, 3, &npos);
	if (rc >= 0)
		return rc;
	if (npos == 0)
		return usage_error("job", "name the virtual drive and the action (e.g. vraid0 pause)");
	if (npos == 1)
		return usage_error("job", "name the action: pause, resume, stop or rate RATE");
	for (k = 0; k < ARRAY_SIZE(job_actions); k++)
		if (!strcmp(pos[1], job_actions[k].name))
			break;
	if (k == ARRAY_SIZE(job_actions))
		return usage_error("job", "unknown job action '%s' (choose pause, resume, stop or rate)",
				   pos[1]);
	if (job_actions[k].action == VRAID_JOB_SET_RATE) {
		if (npos == 2)
			return usage_error("job", "rate needs a value: bytes per second with a K, M or G suffix (e.g. 50M), or none");
		if (npos > 3)
			return usage_error("job", "too many arguments: rate takes one value");
		if ((rc = parse_rate(pos[2], &kib)))
			return rc;
	} else if (npos > 2) {
		return usage_error("job", "unexpected argument '%s'", pos[2]);
	}

	if (!ctl_open(&c, true))
		return RC_FAIL;
	if (resolve_vd(&c, pos[0], &in)) {
		close(c.fd);
		return RC_FAIL;
	}
	snprintf(name, sizeof(name), "%s%u", VRAID_DISK_PREFIX, in.index);
	type = VNAME(job_types, in.job_type, false);
	/* RESUME with no job goes on with a stopped init or rebuild. */
	if ((job_actions[k].action == VRAID_JOB_PAUSE ||
	     job_actions[k].action == VRAID_JOB_STOP) &&
	    in.job_type == VRAID_JOB_NONE) {
		close(c.fd);
		errmsg("%s: no job is running: nothing to %s", name,
		       job_actions[k].name);
		hintmsg("see `vraidctl show %s`", name);
		return RC_FAIL;
	}
	memset(&req, 0, sizeof(req));
	req.index = in.index;
	req.action = job_actions[k].action;
	req.rate_kib = kib;
	e = ctl_ioctl(&c, VRAID_IOC_JOB, &req, sizeof(req));
	if (!e && req.action == VRAID_JOB_RESUME &&
	    in.job_type == VRAID_JOB_NONE) {
		/* which job went on? */
		if (get_info(&c, in.index, &in, true))
			in.job_type = VRAID_JOB_NONE;
		type = in.job_type != VRAID_JOB_NONE ?
		       VNAME(job_types, in.job_type, false) : "job";
	}
	close(c.fd);
	if (e) {
		snprintf(w, sizeof(w), "job %s %s", name, job_actions[k].name);
		report(&c, w, e, &req.hdr, CTX_JOB);
		if (e == ENOENT && req.action == VRAID_JOB_RESUME &&
		    in.job_type == VRAID_JOB_NONE)
			hintmsg("resume goes on with a paused job, or with an init or rebuild that was stopped");
		return RC_FAIL;
	}
	switch (req.action) {
	case VRAID_JOB_SET_RATE:
		if (kib)
			printf("%s: job rate limit %s per member\n", name,
			       fmt_rate(r, sizeof(r), kib));
		else
			printf("%s: job rate unlimited\n", name);
		break;
	case VRAID_JOB_PAUSE:
		printf("%s: %s paused; resume it with: vraidctl job %s resume\n",
		       name, type, name);
		break;
	case VRAID_JOB_STOP:
		if (job_counts_mismatches(in.job_type))
			printf("%s: %s stopped\n", name, type);
		else
			printf("%s: %s stopped; go on with: vraidctl job %s resume (or it goes on when the VD is next assembled)\n",
			       name, type, name);
		break;
	default:
		printf("%s: %s %s\n", name, type, job_actions[k].done);
		break;
	}
	return RC_OK;
}

static void spare_dev(char *buf, size_t bufsz, const struct vraid_spare_info *s)
{
	char b[VRAID_DEVNAME_LEN + 1];

	tty_str(b, sizeof(b), s->dev_name, sizeof(s->dev_name));
	snprintf(buf, bufsz, "%s%s", b[0] ? "/dev/" : "", b[0] ? b : "-");
}

static int spare_list(bool json)
{
	struct vraid_spare req;
	struct table t = {
		.ncol = 4,
		.head = { "DEVICE", "MAJ:MIN", "SIZE", "FOR" },
		.right = { [2] = true },
	};
	char (*r)[TCELL];
	struct ctl c;
	uint32_t i;
	int e;

	if (!ctl_open(&c, false))
		return RC_FAIL;
	memset(&req, 0, sizeof(req));
	req.action = VRAID_SPARE_LIST;
	e = ctl_ioctl(&c, VRAID_IOC_SPARE, &req, sizeof(req));
	close(c.fd);
	if (e) {
		report(&c, "spare list", e, &req.hdr, CTX_SPARE);
		return RC_FAIL;
	}
	if (!reply_sane(req.nr_spares, VRAID_MAX_SPARES, "nr_spares"))
		return RC_FAIL;
	if (json) {
		fputs("{\"spares\":[", stdout);
		for (i = 0; i < req.nr_spares; i++) {
			const struct vraid_spare_info *s = &req.spares[i];

			printf("%s{\"device\":", i ? "," : "");
			if (strnlen(s->dev_name, sizeof(s->dev_name))) {
				char dev[5 + VRAID_DEVNAME_LEN + 1];

				snprintf(dev, sizeof(dev), "/dev/%.*s",
					 (int)strnlen(s->dev_name, sizeof(s->dev_name)),
					 s->dev_name);
				json_str(dev, sizeof(dev));
			} else {
				fputs("\"\"", stdout);
			}
			printf(",\"major\":%u,\"minor\":%u,\"size_bytes\":%llu,\"vd\":",
			       s->major, s->minor,
			       (unsigned long long)(s->dev_sectors * SECTOR_BYTES));
			if (s->vd_index >= 0)
				printf("\"%s%d\"}", VRAID_DISK_PREFIX, s->vd_index);
			else
				fputs("\"\"}", stdout);
		}
		fputs("]}\n", stdout);
		return RC_OK;
	}
	if (!req.nr_spares) {
		printf("no hot spares\n");
		return RC_OK;
	}
	for (i = 0; i < req.nr_spares; i++) {
		const struct vraid_spare_info *s = &req.spares[i];

		if (!(r = table_row(&t))) {
			free(t.row);
			errmsg("out of memory");
			return RC_FAIL;
		}
		spare_dev(r[0], TCELL, s);
		snprintf(r[1], TCELL, "%u:%u", s->major, s->minor);
		human_size(r[2], TCELL, s->dev_sectors * SECTOR_BYTES);
		if (s->vd_index >= 0)
			snprintf(r[3], TCELL, "%s%d", VRAID_DISK_PREFIX, s->vd_index);
		else
			strcpy(r[3], "global");
	}
	table_print(&t);
	free(t.row);
	return RC_OK;
}

static int spare_dry(const char *dev, const char *vd);
static int replace_dry(const struct vraid_info *in,
		       const struct vraid_member_info *m, const char *old,
		       const char *new, bool force);

static int cmd_spare(int argc, char **argv)
{
	static const char *const names[] = { "--vd", NULL };
	const char *vals[1] = { NULL }, *pos[2];
	struct vraid_member_ref dev;
	struct vraid_spare req;
	struct vraid_info in;
	bool json = false, add, dry;
	char w[80], vd[32] = "";
	size_t npos;
	struct ctl c;
	int rc, e;

	dry = take_flag(&argc, argv, "--dry-run");
	rc = parse_args("spare", argc, argv, names, vals, &json, pos, 2, &npos);
	if (rc >= 0)
		return rc;
	if (!npos)
		return usage_error("spare", "name the action: add, remove or list");
	if (strcmp(pos[0], "add") && strcmp(pos[0], "remove") &&
	    strcmp(pos[0], "list"))
		return usage_error("spare", "unknown spare action '%s' (choose add, remove or list)",
				   pos[0]);
	if (vals[0] && strcmp(pos[0], "add"))
		return usage_error("spare", "--vd is only for spare add");
	if (dry && strcmp(pos[0], "add"))
		return usage_error("spare", "--dry-run is only for spare add");
	if (!strcmp(pos[0], "list")) {
		if (npos > 1)
			return usage_error("spare", "unexpected argument '%s'", pos[1]);
		return spare_list(json);
	}
	if (json)
		return usage_error("spare", "--json is only for spare list");
	if (npos < 2)
		return usage_error("spare", "name the device to %s (e.g. /dev/sde)",
				   pos[0]);
	if (npos > 2)
		return usage_error("spare", "name one device only");
	add = !strcmp(pos[0], "add");

	if (member_ref(pos[1], &dev))
		return RC_FAIL;
	memset(&req, 0, sizeof(req));
	req.action = add ? VRAID_SPARE_ADD : VRAID_SPARE_REMOVE;
	req.major = dev.major;
	req.minor = dev.minor;
	if (!ctl_open(&c, !dry))
		return RC_FAIL;
	if (vals[0]) {
		if (resolve_vd(&c, vals[0], &in)) {
			close(c.fd);
			return RC_FAIL;
		}
		snprintf(vd, sizeof(vd), "%s%u", VRAID_DISK_PREFIX, in.index);
		if (!redundant(in.level)) {
			close(c.fd);
			errmsg("%s is %s: it has no redundancy, so a spare could not rebuild anything on it",
			       vd, VNAME(levels, in.level, false));
			hintmsg("dedicate spares to RAID1, 5, 6, 10, 50 or 60 virtual drives, or leave --vd out for a global spare");
			return RC_FAIL;
		}
		req.spare_flags = VRAID_SPARE_DEDICATED;
		req.index = in.index;
	}
	if (dry) {
		close(c.fd);
		return spare_dry(pos[1], vd);
	}
	e = ctl_ioctl(&c, VRAID_IOC_SPARE, &req, sizeof(req));
	close(c.fd);
	if (e) {
		snprintf(w, sizeof(w), "spare %s %s", pos[0], pos[1]);
		report(&c, w, e, &req.hdr, CTX_SPARE);
		return RC_FAIL;
	}
	if (!add)
		printf("%s: hot spare removed\n", pos[1]);
	else if (vd[0])
		printf("%s: hot spare dedicated to %s\n", pos[1], vd);
	else
		printf("%s: global hot spare (for any virtual drive)\n", pos[1]);
	return RC_OK;
}

/* The member to replace: a device path, or MAJ:MIN for a device gone. */
static int old_member_ref(const char *arg, struct vraid_member_ref *ref)
{
	unsigned int maj, min;
	struct stat st;
	char extra;

	if (stat(arg, &st) < 0 && arg[0] >= '0' && arg[0] <= '9' &&
	    sscanf(arg, "%u:%u%c", &maj, &min, &extra) == 2) {
		ref->major = maj;
		ref->minor = min;
		return RC_OK;
	}
	return member_ref(arg, ref);
}

static int cmd_replace(int argc, char **argv)
{
	bool force = take_flag(&argc, argv, "--force");
	bool dry = take_flag(&argc, argv, "--dry-run");
	struct vraid_member_ref old, new;
	const struct vraid_member_info *m;
	struct vraid_replace req;
	struct vraid_info in;
	const char *pos[3];
	char name[32], w[96];
	size_t npos;
	uint32_t i;
	struct ctl c;
	bool by_role = false;
	uint32_t role = 0;
	int rc, e;

	rc = parse_args("replace", argc, argv, NULL, NULL, NULL, pos, 3, &npos);
	if (rc >= 0)
		return rc;
	if (npos != 3)
		return usage_error("replace", "name the virtual drive, the member to replace and the new device (e.g. vraid0 /dev/sdc /dev/sdf)");
	/* "role:N": a member without a device (missing after assembly). */
	if (!strncmp(pos[1], "role:", 5)) {
		char *end;
		unsigned long r = strtoul(pos[1] + 5, &end, 10);

		if (!pos[1][5] || *end || r >= VRAID_MAX_MEMBERS)
			return usage_error("replace", "role:N needs a role number 0-31 (see the ROLE column of `vraidctl show`)");
		by_role = true;
		role = (uint32_t)r;
		memset(&old, 0, sizeof(old));
	} else if (old_member_ref(pos[1], &old)) {
		return RC_FAIL;
	}
	if (member_ref(pos[2], &new))
		return RC_FAIL;
	if (!by_role && old.major == new.major && old.minor == new.minor) {
		errmsg("%s and %s are the same device (%u:%u)", pos[1], pos[2],
		       old.major, old.minor);
		hintmsg("name the member to replace, then the new device that takes its place");
		return RC_FAIL;
	}
	if (!ctl_open(&c, !dry))
		return RC_FAIL;
	if (resolve_vd(&c, pos[0], &in)) {
		close(c.fd);
		return RC_FAIL;
	}
	snprintf(name, sizeof(name), "%s%u", VRAID_DISK_PREFIX, in.index);
	if (!redundant(in.level)) {
		close(c.fd);
		errmsg("%s is %s: it has no redundancy to rebuild a member from",
		       name, VNAME(levels, in.level, false));
		hintmsg("replace applies to RAID1, 5, 6, 10, 50 and 60");
		return RC_FAIL;
	}
	for (i = 0, m = NULL; i < in.nr_members; i++)
		if (in.members[i].major == new.major &&
		    in.members[i].minor == new.minor)
			m = &in.members[i];
	if (m) {
		close(c.fd);
		errmsg("%s is already a member of %s (role %u)", pos[2], name,
		       m->role);
		hintmsg("the new device must not be a member yet (see `vraidctl show %s`)",
			name);
		return RC_FAIL;
	}
	for (i = 0, m = NULL; i < in.nr_members; i++)
		if (by_role ? in.members[i].role == role :
		    (in.members[i].major == old.major &&
		     in.members[i].minor == old.minor))
			m = &in.members[i];
	if (!m && by_role) {
		close(c.fd);
		errmsg("%s has no role %u (roles 0-%u)", name, role,
		       in.nr_members - 1);
		return RC_FAIL;
	}
	if (!m) {
		close(c.fd);
		errmsg("%s (%u:%u) is not a member of %s", pos[1], old.major,
		       old.minor, name);
		hintmsg("see the members and their MAJ:MIN with `vraidctl show %s`",
			name);
		return RC_FAIL;
	}
	if (dry) {
		close(c.fd);
		return replace_dry(&in, m, pos[1], pos[2], force);
	}
	memset(&req, 0, sizeof(req));
	req.index = in.index;
	req.old_major = old.major;
	req.old_minor = old.minor;
	req.new_major = new.major;
	req.new_minor = new.minor;
	req.rep_flags = force ? VRAID_REPLACE_FORCE : 0;
	if (by_role) {
		req.rep_flags |= VRAID_REPLACE_ROLE;
		req.old_role = role;
	}
	e = ctl_ioctl(&c, VRAID_IOC_REPLACE, &req, sizeof(req));
	close(c.fd);
	if (e) {
		snprintf(w, sizeof(w), "replace %s %s", name, pos[1]);
		report(&c, w, e, &req.hdr, CTX_REPLACE);
		return RC_FAIL;
	}
	printf("%s: rebuilding onto %s (replacing %s); follow with: vraidctl wait %s\n",
	       name, pos[2], pos[1], name);
	return RC_OK;
}


/* ---- the controller: its cache and its journal ---------------------------- */

/* "8c1d0f3e-...": @out has room for 37 bytes. */
static void uuid_str(char *out, const uint8_t *u)
{
	sprintf(out, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9],
		u[10], u[11], u[12], u[13], u[14], u[15]);
}

/* The first module ABI with the journal (ATTACH, DETACH, DISCARD). */
#define ABI_MINOR_JOURNAL	9
/* ASSEMBLE says what the journal's replay did (replayed, ...) */
#define ABI_MINOR_REPLAY_COUNTS	10

static const struct vname journal_states[] = {
	{ VRAID_JOURNAL_NONE, "none", "none" },
	{ VRAID_JOURNAL_HEALTHY, "healthy", "healthy" },
	{ VRAID_JOURNAL_REPLAY_PENDING, "replay pending", "replay_pending" },
	{ VRAID_JOURNAL_FAILED, "failed", "failed" },
};

/*
 * "/dev/NAME" of the block device @maj:@min from sysfs's dev/block links
 * (VRAIDCTL_SYSFS stands in for /sys); "" if sysfs does not name it.
 */
static char *blk_dev_name(char *buf, size_t bufsz, uint32_t maj, uint32_t min)
{
	char path[512], link[512], name[VRAID_DEVNAME_LEN + 1];
	const char *base;
	ssize_t n;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "%s/dev/block/%u:%u", sysfs_root(), maj, min);
	n = readlink(path, link, sizeof(link) - 1);
	if (n <= 0)
		return buf;
	link[n] = '\0';
	base = strrchr(link, '/');
	base = base ? base + 1 : link;
	if (!*base)
		return buf;
	tty_str(name, sizeof(name), base, strlen(base));
	snprintf(buf, bufsz, "/dev/%s", name);
	return buf;
}

/* Whether the module fills the journal fields of ABI 1.9. */
static bool journal_abi(const struct vraid_controller *r)
{
	return r->hdr.version_major != VRAID_ABI_MAJOR ||
	       r->hdr.version_minor >= ABI_MINOR_JOURNAL;
}

/* The Journal lines of controller show. */
static void journal_human(const struct vraid_controller *r)
{
	char a[32], b[32], dev[64], u[40];
	unsigned int permille = 0;

#define FIELD "%-18s"
	if (r->journal_state == VRAID_JOURNAL_NONE) {
		printf(FIELD "none (write-back writes through)\n", "Journal:");
		return;
	}
	blk_dev_name(dev, sizeof(dev), r->journal_major, r->journal_minor);
	if (r->journal_state == VRAID_JOURNAL_REPLAY_PENDING)
		printf(FIELD "replay pending (%u VD%s), %s%s%u:%u%s\n", "Journal:",
		       r->journal_pending, r->journal_pending == 1 ? "" : "s",
		       dev, dev[0] ? " (" : "", r->journal_major,
		       r->journal_minor, dev[0] ? ")" : "");
	else
		printf(FIELD "%s, %s%s%u:%u%s\n", "Journal:",
		       VNAME(journal_states, r->journal_state, false),
		       dev, dev[0] ? " (" : "", r->journal_major,
		       r->journal_minor, dev[0] ? ")" : "");
	if (!journal_abi(r)) {
		printf(FIELD "%s of %s used\n", "  Ring:",
		       human_size(a, sizeof(a), r->journal_used_bytes),
		       human_size(b, sizeof(b), r->journal_bytes));
		return;
	}
	uuid_str(u, r->journal_uuid);
	printf(FIELD "%s\n", "  UUID:", u);
	if (r->journal_bytes)
		permille = (unsigned int)(r->journal_used_bytes * 1000.0 /
					  (double)r->journal_bytes + 0.5);
	printf(FIELD "%s, %s used (%u.%u %%)\n", "  Ring:",
	       human_size(a, sizeof(a), r->journal_bytes),
	       human_size(b, sizeof(b), r->journal_used_bytes),
	       permille / 10, permille % 10);
	printf(FIELD "head %llu, tail %llu\n", "  Sequence:",
	       (unsigned long long)r->journal_head_seq,
	       (unsigned long long)r->journal_tail_seq);
	printf(FIELD "%u virtual drive%s logging to it\n", "  Logging:",
	       r->journal_vds, r->journal_vds == 1 ? "" : "s");
	if (r->journal_state == VRAID_JOURNAL_REPLAY_PENDING)
		printf("                  it holds acknowledged writes of VDs not assembled yet:\n"
		       "                  `vraidctl assemble --scan` replays them; write-back\n"
		       "                  writes through until then (`vraidctl controller journal\n"
		       "                  discard` drops them: they are lost)\n");
	else if (r->journal_state == VRAID_JOURNAL_FAILED)
		printf("                  an I/O error: write-back writes through (nothing\n"
		       "                  acknowledged was lost); `vraidctl controller journal\n"
		       "                  none` detaches it, then attach another\n");
#undef FIELD
}

/*
 * A CONTROLLER reply: all of it (show), or only its first line (what set
 * prints).  "Controller cache: 128 MiB (default 128 MiB, up to 1 GiB on
 * this machine)", then what the VDs hold in it, dirty data and the journal.
 */
static void controller_human(const struct vraid_controller *r, bool all)
{
	/* a module before ABI 1.8 does not write back into the cache */
	bool no_wb = r->hdr.version_major == VRAID_ABI_MAJOR &&
		     r->hdr.version_minor < ABI_MINOR_AWB;
	char a[32], b[32], d[32];

#define FIELD "%-18s"
	printf(FIELD "%s (default %s, up to %s on this machine)\n",
	       "Controller cache:",
	       human_size(a, sizeof(a), r->cache_bytes),
	       human_size(b, sizeof(b), r->cache_default_bytes),
	       human_size(d, sizeof(d), r->cache_max_bytes));
	if (!all)
		return;
	human_size(a, sizeof(a), r->cache_used_bytes);
	if (r->nr_vds)
		printf(FIELD "%s, shared by %u virtual drive%s\n", "Used:", a,
		       r->nr_vds, r->nr_vds == 1 ? "" : "s");
	else
		printf(FIELD "%s (no virtual drives)\n", "Used:", a);
	printf(FIELD "%s (writers would wait at %s%s)\n", "Dirty:",
	       human_size(a, sizeof(a), r->cache_dirty_bytes),
	       human_size(b, sizeof(b), r->cache_dirty_high_bytes),
	       no_wb && !r->cache_dirty_bytes ?
	       "; write-back into the cache: not yet" : "");
#undef FIELD
	journal_human(r);
}

static void controller_json(const struct vraid_controller *r)
{
	bool none = r->journal_state == VRAID_JOURNAL_NONE;
	char dev[64], u[40] = "";

	blk_dev_name(dev, sizeof(dev), r->journal_major, r->journal_minor);
	if (none)
		dev[0] = '\0';
	if (!none && journal_abi(r))
		uuid_str(u, r->journal_uuid);
	printf("{\"cache_bytes\":%llu,\"cache_default_bytes\":%llu,"
	       "\"cache_max_bytes\":%llu,\"used_bytes\":%llu,\"dirty_bytes\":%llu,"
	       "\"dirty_high_bytes\":%llu,\"vds\":%u,\"journal\":{\"state\":\"%s\","
	       "\"major\":%u,\"minor\":%u,\"size_bytes\":%llu,\"used_bytes\":%llu,"
	       "\"device\":",
	       (unsigned long long)r->cache_bytes,
	       (unsigned long long)r->cache_default_bytes,
	       (unsigned long long)r->cache_max_bytes,
	       (unsigned long long)r->cache_used_bytes,
	       (unsigned long long)r->cache_dirty_bytes,
	       (unsigned long long)r->cache_dirty_high_bytes, r->nr_vds,
	       VNAME(journal_states, r->journal_state, true),
	       r->journal_major, r->journal_minor,
	       (unsigned long long)r->journal_bytes,
	       (unsigned long long)r->journal_used_bytes);
	json_str(dev, sizeof(dev));
	printf(",\"uuid\":\"%s\",\"head_seq\":%llu,\"tail_seq\":%llu,"
	       "\"pending\":%u,\"vds\":%u}}\n", u,
	       (unsigned long long)r->journal_head_seq,
	       (unsigned long long)r->journal_tail_seq,
	       r->journal_pending, r->journal_vds);
}

static const char *cache_size_hint =
	"give a whole number of MiB from 16M up to half the RAM (at most 1T), e.g. cache-size=256M or cache-size=2G, or cache-size=default; `vraidctl controller` shows the largest size this machine takes";

/* cache-size=VALUE: "default" (0), or bytes within the fixed bounds. */
static int parse_cache_size(const char *s, uint64_t *bytes)
{
	uint64_t v;

	if (!strcasecmp(s, "default")) {
		*bytes = 0;
		return RC_OK;
	}
	if (!parse_size(s, &v)) {
		errmsg("invalid cache size '%s': give a whole number with a K, M, G or T suffix (binary units), or default",
		       s);
		hintmsg("%s", cache_size_hint);
		return RC_USAGE;
	}
	if (!v)
		errmsg("cache size '%s' is zero: give cache-size=default for the module's default size",
		       s);
	else if (v % VRAID_CACHE_MIB)
		errmsg("cache size '%s' (%llu bytes) is not a whole number of MiB",
		       s, (unsigned long long)v);
	else if (v < VRAID_CACHE_SET_MIN)
		errmsg("cache size '%s' (%llu MiB) is too small: the minimum is %llu MiB",
		       s, (unsigned long long)(v >> 20),
		       (unsigned long long)(VRAID_CACHE_SET_MIN >> 20));
	else if (v > VRAID_CACHE_SET_MAX)
		errmsg("cache size '%s' (%llu MiB) is too large: the maximum is 1 TiB, and half the RAM",
		       s, (unsigned long long)(v >> 20));
	else {
		*bytes = v;
		return RC_OK;
	}
	hintmsg("%s", cache_size_hint);
	return RC_USAGE;
}

/* After the module refused a size: ask it which sizes this machine takes. */
static void cache_size_refused(struct ctl *c)
{
	struct vraid_controller r;
	char d[32];

	memset(&r, 0, sizeof(r));
	r.action = VRAID_CTRL_SHOW;
	if (ctl_ioctl(c, VRAID_IOC_CONTROLLER, &r, sizeof(r)) ||
	    r.cache_max_bytes < VRAID_CACHE_SET_MIN) {
		hintmsg("%s", cache_size_hint);
		return;
	}
	hintmsg("give a size from %lluM to %lluM in whole MiB, or default (%s on this machine)",
		(unsigned long long)(VRAID_CACHE_SET_MIN >> 20),
		(unsigned long long)(r.cache_max_bytes >> 20),
		human_size(d, sizeof(d), r.cache_default_bytes));
}

/* ---- journal devices: the superblock a device holds ---------------------- */

/* Both superblock slots of a device, decoded, and the one the module takes. */
struct jsb_slots {
	int r[2];		/* vraid_jsb_decode(): 0, -ENODATA no magic, else bad */
	char why[2][VRAID_MSG_LEN];
	struct vraid_jsb sb[2];
	int pick;		/* vraid_jsb_choose(): 0, 1 or a negative errno */
	char pick_why[VRAID_MSG_LEN];
};

/* Whether either slot has the journal magic (valid or not). */
static bool jsb_magic(const struct jsb_slots *j)
{
	return j->r[0] != -ENODATA || j->r[1] != -ENODATA;
}

/*
 * Read and decode both slots from @fd (a block device or an image file),
 * as the module does when it attaches (driver/journal.c, vraid_jsb_read()).
 */
static void jsb_read(int fd, const char *dev, struct jsb_slots *j)
{
	static const uint64_t at[2] = { VRAID_J_SB_SECTOR0, VRAID_J_SB_SECTOR1 };
	off_t end = lseek(fd, 0, SEEK_END);
	uint64_t sectors = end > 0 ? (uint64_t)end / SECTOR_BYTES : 0;
	void *buf = NULL;
	ssize_t n;
	int i;

	memset(j, 0, sizeof(*j));
	if (posix_memalign(&buf, VRAID_J_BLOCK, VRAID_J_BLOCK))
		buf = NULL;
	for (i = 0; i < 2; i++) {
		n = buf ? pread(fd, buf, VRAID_J_BLOCK,
				(off_t)(at[i] * SECTOR_BYTES)) : -1;
		if (n == VRAID_J_BLOCK) {
			j->r[i] = vraid_jsb_decode(buf, (uint32_t)i, sectors,
						   &j->sb[i], j->why[i],
						   sizeof(j->why[i]));
			continue;
		}
		/* unreadable: no magic known, so no journal known either */
		j->r[i] = -ENODATA;
		snprintf(j->why[i], sizeof(j->why[i]), "cannot read %s at byte %llu: %s",
			 dev, (unsigned long long)(at[i] * SECTOR_BYTES),
			 n < 0 ? strerror(errno) : "short read");
	}
	free(buf);
	j->pick = vraid_jsb_choose(&j->sb[0], j->r[0], &j->sb[1], j->r[1],
				   j->pick_why, sizeof(j->pick_why));
}

/*
 * The UUID of the journal the module would attach as it is from the block
 * device @path (zero if none: it formats the device): true if it could be
 * opened.  The UUID the module reports back tells which it did.
 */
static bool journal_probe(const char *path, uint8_t uuid[VRAID_J_UUID_LEN])
{
	struct jsb_slots j;
	int fd;

	memset(uuid, 0, VRAID_J_UUID_LEN);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	jsb_read(fd, path, &j);
	close(fd);
	if (j.pick >= 0)
		memcpy(uuid, j.sb[j.pick].uuid, VRAID_J_UUID_LEN);
	return true;
}

static const char *journal_dev_hint =
	"a journal needs a writable block device of its own, at least 64 MiB, with logical blocks of at most 4 KiB: an NVMe namespace or a partition outside every virtual drive (see lsblk)";

/*
 * After the module refused a journal action: ask it for the controller's
 * state and say what to do.
 */
static void journal_refused(struct ctl *c, const struct vraid_controller *req,
			    int e)
{
	const struct vraid_ioc_hdr *h = &req->hdr;
	struct vraid_controller r;
	char dev[64];
	bool known;

	if (e == EPERM || e == EACCES || e == ENOTTY || e == EPROTO)
		return;		/* report() said it */
	if (c->replied && h->version_major == VRAID_ABI_MAJOR &&
	    h->version_minor < ABI_MINOR_JOURNAL &&
	    (e == EOPNOTSUPP || e == EINVAL)) {
		hintmsg("the vraid module speaks ABI %d.%d, which has no journal: load the module built with this vraidctl (ABI %d.%d)",
			h->version_major, h->version_minor, VRAID_ABI_MAJOR,
			VRAID_ABI_MINOR);
		return;
	}
	memset(&r, 0, sizeof(r));
	r.action = VRAID_CTRL_SHOW;
	known = !ctl_ioctl(c, VRAID_IOC_CONTROLLER, &r, sizeof(r));
	if (known && r.journal_state != VRAID_JOURNAL_NONE)
		blk_dev_name(dev, sizeof(dev), r.journal_major, r.journal_minor);
	switch (req->action) {
	case VRAID_CTRL_JOURNAL_ATTACH:
		if (known && r.journal_state != VRAID_JOURNAL_NONE) {
			hintmsg("a journal is attached already (%s%s%u:%u, %s): detach it first with `vraidctl controller journal none`",
				dev, dev[0] ? ", " : "", r.journal_major,
				r.journal_minor,
				VNAME(journal_states, r.journal_state, false));
		} else if (e == EEXIST || (c->replied && strstr(h->message, "force"))) {
			hintmsg("`vraidctl controller journal DEV --force` formats it anew: whatever it holds, journalled writes included, is lost");
		} else if (e == EBUSY) {
			hintmsg("the device is in use: a virtual drive, a member or hot spare of one, mounted, or in md/dm (check lsblk, /proc/mdstat, `vraidctl list`, `vraidctl spare list`)");
			hintmsg("%s", journal_dev_hint);
		} else if (e == EINVAL || e == ENOSPC || e == EROFS ||
			   e == EOPNOTSUPP || e == EFBIG || e == ENOTBLK) {
			hintmsg("%s", journal_dev_hint);
		}
		break;
	case VRAID_CTRL_JOURNAL_DETACH:
		if (known && r.journal_state == VRAID_JOURNAL_NONE)
			hintmsg("no journal is attached (see `vraidctl controller`)");
		break;
	case VRAID_CTRL_JOURNAL_DISCARD:
		if (known && r.journal_state != VRAID_JOURNAL_REPLAY_PENDING)
			hintmsg("discard only drops the writes a journal holds for virtual drives not assembled yet (state replay pending); the journal is %s (see `vraidctl controller`)",
				VNAME(journal_states, r.journal_state, false));
		break;
	default:
		break;
	}
}

/* What vraidctl knows of the device before an attach. */
enum { JN_UNKNOWN, JN_PROBED, JN_FORCED };

/* A journal formatted on @arg (UUID @u): what it takes of the device. */
static void journal_formatted(const struct vraid_controller *r,
			      const char *arg, const char *u)
{
	char rs[32];

	fprintf(stderr, "controller journal: %s formatted as a new journal (UUID %s); write-back VDs (write-policy=wb) log to it\n",
		arg, u);
	if (r->journal_bytes >= VRAID_J_NEW_RING_MAX * VRAID_J_BLOCK)
		fprintf(stderr, "controller journal: its ring takes %s, the most a new journal takes: the rest of %s stays unused\n",
			human_size(rs, sizeof(rs), r->journal_bytes), arg);
}

/*
 * A ring under 255 MiB: the dirty data of write-back VDs bound to it is
 * capped low (so that their parity records always fit the ring,
 * vraid_jparity_dirty_cap()), and write-back gains little over
 * write-through: say how low, and what size suits, on a line that begins
 * with @who.
 */
static void journal_small(const struct vraid_controller *r, const char *who)
{
	uint64_t ring = r->journal_bytes / VRAID_J_BLOCK;
	char rs[32], c1[32], c2[32], c0[32];

	if (!ring || r->journal_bytes >= (255ULL << 20))
		return;
	fprintf(stderr, "%s: its ring of %s caps the cache's dirty data at %s while a RAID5/50 VD writes back through it, %s with RAID6/60, %s with mirrors only (writers wait for destage beyond it); a journal of 256 MiB or more suits parity VDs, of 1 GiB or more parity VDs on disks\n",
		who, human_size(rs, sizeof(rs), r->journal_bytes),
		human_size(c1, sizeof(c1),
			   vraid_jparity_dirty_cap(ring, 1) * VRAID_J_BLOCK),
		human_size(c2, sizeof(c2),
			   vraid_jparity_dirty_cap(ring, 2) * VRAID_J_BLOCK),
		human_size(c0, sizeof(c0),
			   vraid_jparity_dirty_cap(ring, 0) * VRAID_J_BLOCK));
}

/*
 * What a journal action did, on standard error (stdout has the state);
 * @how JN_PROBED: @old holds the UUID of the journal on the device before
 * an attach (zero: none).
 */
static void journal_note(const struct vraid_controller *r, const char *arg,
			 int how, const uint8_t old[VRAID_J_UUID_LEN])
{
	char u[40];

	switch (r->action) {
	case VRAID_CTRL_JOURNAL_ATTACH:
		uuid_str(u, r->journal_uuid);
		if (how == JN_UNKNOWN)
			fprintf(stderr, "controller journal: %s attached (UUID %s)\n",
				arg, u);
		else if (how == JN_FORCED ||
			 memcmp(r->journal_uuid, old, VRAID_J_UUID_LEN))
			journal_formatted(r, arg, u);
		else
			fprintf(stderr, "controller journal: attached the vraid journal %s held (UUID %s), as it was\n",
				arg, u);
		if (r->journal_state == VRAID_JOURNAL_REPLAY_PENDING)
			fprintf(stderr, "controller journal: it holds acknowledged writes of %u virtual drive%s from before a crash or power loss: `vraidctl assemble --scan` replays them; write-back writes through until then; `vraidctl controller journal discard` drops them (they are lost)\n",
				r->journal_pending,
				r->journal_pending == 1 ? "" : "s");
		journal_small(r, "controller journal");
		break;
	case VRAID_CTRL_JOURNAL_DETACH:
		fprintf(stderr, "controller journal: detached; write-back VDs (write-policy=wb) write through until `vraidctl controller journal DEV` attaches one\n");
		break;
	case VRAID_CTRL_JOURNAL_DISCARD:
		fprintf(stderr, "controller journal: the writes it held for virtual drives not assembled yet are dropped (lost); assembling those VDs replays nothing\n");
		break;
	default:
		break;
	}
}

/*
 * controller [show] [--json] | controller set cache-size=SIZE|default
 * [--json] | controller journal DEV [--force]|none|discard [--json]: one
 * CONTROLLER request.
 */
static int journal_guard(const char *arg, bool force, bool dry);

static int cmd_controller(int argc, char **argv)
{
	const char *pos[4], *sub, *arg = "";
	struct vraid_controller req;
	struct vraid_member_ref ref;
	bool json = false, got = false, force, dry;
	uint64_t bytes = 0;
	char what[128];
	size_t npos, i;
	uint8_t old[VRAID_J_UUID_LEN];
	int how = JN_UNKNOWN;
	struct ctl c;
	int rc, e;

	force = take_flag(&argc, argv, "--force");
	dry = take_flag(&argc, argv, "--dry-run");
	rc = parse_args("controller", argc, argv, NULL, NULL, &json, pos,
			ARRAY_SIZE(pos), &npos);
	if (rc >= 0)
		return rc;
	sub = npos ? pos[0] : "show";
	memset(&req, 0, sizeof(req));
	if (force && (strcmp(sub, "journal") ||
		      (npos >= 2 && (!strcmp(pos[1], "none") ||
				     !strcmp(pos[1], "discard")))))
		return usage_error("controller", "--force is only for controller journal DEV (format DEV whatever it holds, a vraid journal included)");
	if (dry && (strcmp(sub, "journal") ||
		    (npos >= 2 && (!strcmp(pos[1], "none") ||
				   !strcmp(pos[1], "discard")))))
		return usage_error("controller", "--dry-run is only for controller journal DEV (show what attaching DEV would do)");
	if (dry && json)
		return usage_error("controller", "--dry-run prints no JSON: leave --json out");
	if (!strcmp(sub, "show")) {
		if (npos > 1)
			return usage_error("controller", "unexpected argument '%s'",
					   pos[1]);
		req.action = VRAID_CTRL_SHOW;
	} else if (!strcmp(sub, "set")) {
		if (npos == 1)
			return usage_error("controller", "name what to set: cache-size=SIZE (e.g. cache-size=256M) or cache-size=default");
		for (i = 1; i < npos && i < ARRAY_SIZE(pos); i++) {
			const char *a = pos[i], *eq = strchr(a, '=');
			size_t kl = eq ? (size_t)(eq - a) : strlen(a);

			if (kl != strlen("cache-size") ||
			    strncmp(a, "cache-size", kl))
				return usage_error("controller", "unknown controller setting '%.*s' (the one setting is cache-size)",
						   (int)kl, a);
			if (!eq)
				return usage_error("controller", "cache-size needs a value: cache-size=SIZE (e.g. cache-size=256M) or cache-size=default");
			if (got)
				return usage_error("controller", "cache-size given twice");
			rc = parse_cache_size(eq + 1, &bytes);
			if (rc)
				return rc;
			got = true;
			arg = a;
		}
		if (npos > ARRAY_SIZE(pos))	/* not reached: a key came twice */
			return usage_error("controller", "too many arguments");
		req.action = VRAID_CTRL_SET_CACHE_SIZE;
		req.cache_bytes = bytes;
	} else if (!strcmp(sub, "journal")) {
		if (npos < 2)
			return usage_error("controller", "name the journal device (e.g. /dev/nvme2n1), none to detach the journal, or discard to drop the writes it holds for VDs not assembled yet");
		if (npos > 2)
			return usage_error("controller", "name one journal device only");
		arg = pos[1];
		if (!strcmp(arg, "none")) {
			req.action = VRAID_CTRL_JOURNAL_DETACH;
		} else if (!strcmp(arg, "discard")) {
			req.action = VRAID_CTRL_JOURNAL_DISCARD;
		} else {
			if (member_ref(arg, &ref))
				return RC_FAIL;
			rc = journal_guard(arg, force, dry);
			if (rc >= 0)
				return rc;
			req.action = VRAID_CTRL_JOURNAL_ATTACH;
			req.ctrl_flags = force ? VRAID_CTRL_FORCE : 0;
			req.major = ref.major;
			req.minor = ref.minor;
			if (force)
				how = JN_FORCED;
			else if (journal_probe(arg, old))
				how = JN_PROBED;
		}
	} else {
		return usage_error("controller", "unknown controller action '%s' (choose show, set or journal)",
				   sub);
	}

	if (!ctl_open(&c, req.action != VRAID_CTRL_SHOW))
		return RC_FAIL;
	e = ctl_ioctl(&c, VRAID_IOC_CONTROLLER, &req, sizeof(req));
	if (e) {
		snprintf(what, sizeof(what), "controller %s%s%s%s", sub,
			 *arg ? " " : "", arg, force ? " --force" : "");
		report(&c, what, e, &req.hdr, CTX_CONTROLLER);
		if (e == EINVAL && c.replied &&
		    req.action == VRAID_CTRL_SET_CACHE_SIZE)
			cache_size_refused(&c);
		else if (req.action >= VRAID_CTRL_JOURNAL_ATTACH)
			journal_refused(&c, &req, e);
		close(c.fd);
		return RC_FAIL;
	}
	close(c.fd);
	if (json)
		controller_json(&req);
	else if (req.action >= VRAID_CTRL_JOURNAL_ATTACH)
		journal_human(&req);
	else
		controller_human(&req, req.action != VRAID_CTRL_SET_CACHE_SIZE);
	fflush(stdout);
	if (req.action == VRAID_CTRL_SET_CACHE_SIZE && bytes)
		fprintf(stderr, "controller cache: %llu MiB until the vraid module is unloaded; to keep it, put `options vraid cache_mib=%llu` in a file of /etc/modprobe.d/\n",
			(unsigned long long)(req.cache_bytes >> 20),
			(unsigned long long)(req.cache_bytes >> 20));
	journal_note(&req, arg, how, old);
	return RC_OK;
}


/* What the superblock flags mean, for people. */
static const char *jsb_flags_says(uint32_t flags)
{
	if (flags & VRAID_J_SB_RELEASED)
		return "DETACHED, RELEASED: detached by `vraidctl controller journal none`, no live records; `assemble --scan` leaves it alone";
	if (flags & VRAID_J_SB_DETACHED)
		return "DETACHED: detached cleanly (module unloaded), no live records; `assemble --scan` attaches it again";
	return "none: attached now, or it was when the machine went down (it may hold writes to replay); `assemble --scan` attaches it again";
}

/*
 * The controller's state without a word on failure: 0, or an errno
 * (ENOENT when the module is not loaded, EOPNOTSUPP for a module without
 * the journal fields of ABI 1.9).
 */
static int controller_quiet(struct vraid_controller *r)
{
	struct ctl c;
	int e;

	ctl_path(&c);
	c.fd = open(c.path, O_RDWR | O_CLOEXEC);
	if (c.fd < 0 && (errno == EACCES || errno == EROFS))
		c.fd = open(c.path, O_RDONLY | O_CLOEXEC);
	if (c.fd < 0)
		return errno;
	memset(r, 0, sizeof(*r));
	r->action = VRAID_CTRL_SHOW;
	e = ctl_ioctl(&c, VRAID_IOC_CONTROLLER, r, sizeof(*r));
	close(c.fd);
	if (!e && !journal_abi(r))
		e = EOPNOTSUPP;
	return e;
}

/* Whether the device or file open as @fd is the block device @maj:@min. */
static bool fd_is_dev(int fd, uint32_t maj, uint32_t min)
{
	struct stat st;

	return !fstat(fd, &st) && S_ISBLK(st.st_mode) &&
	       major(st.st_rdev) == maj && minor(st.st_rdev) == min;
}

/* examine of a device with the journal magic, its slots @j; closes @fd. */
static int examine_journal(const char *dev, int fd, const struct jsb_slots *j,
			   bool json)
{
	const struct vraid_jsb *sb = NULL;
	struct vraid_controller r;
	char u[40], au[40], sz[32], adev[64] = "", what[160];
	bool same_dev = false;
	int e, i, attached = -1;	/* -1: unknown */

	if (j->pick >= 0)
		sb = &j->sb[j->pick];
	e = controller_quiet(&r);
	if (!e && sb) {
		attached = r.journal_state != VRAID_JOURNAL_NONE &&
			   !memcmp(r.journal_uuid, sb->uuid, VRAID_J_UUID_LEN);
		if (r.journal_state != VRAID_JOURNAL_NONE) {
			blk_dev_name(adev, sizeof(adev), r.journal_major,
				     r.journal_minor);
			same_dev = fd_is_dev(fd, r.journal_major, r.journal_minor);
		}
	}
	close(fd);

	if (json) {
		printf("{\"device\":");
		json_str(dev, strlen(dev) + 1);
		printf(",\"type\":\"journal\",\"slots\":[");
		for (i = 0; i < 2; i++) {
			printf("%s{\"slot\":%d,\"offset_bytes\":%llu,\"status\":\"%s\"",
			       i ? "," : "", i,
			       (unsigned long long)((i ? VRAID_J_SB_SECTOR1 :
						     VRAID_J_SB_SECTOR0) * SECTOR_BYTES),
			       !j->r[i] ? "valid" : j->r[i] == -ENODATA ? "none" : "bad");
			if (!j->r[i])
				printf(",\"generation\":%llu",
				       (unsigned long long)j->sb[i].generation);
			else {
				printf(",\"error\":");
				json_str(j->why[i], sizeof(j->why[i]));
			}
			putchar('}');
		}
		putchar(']');
		if (!sb) {
			printf(",\"error\":");
			json_str(j->pick_why, sizeof(j->pick_why));
			printf("}\n");
			return RC_FAIL;
		}
		uuid_str(u, sb->uuid);
		printf(",\"uuid\":\"%s\",\"generation\":%llu,\"created\":%llu,"
		       "\"ring_bytes\":%llu,\"ring_blocks\":%llu,\"tail_block\":%llu,"
		       "\"tail_seq\":%llu,\"flags\":[%s%s%s],\"detached\":%s,"
		       "\"released\":%s,\"attached\":%s,\"attached_device\":",
		       u, (unsigned long long)sb->generation,
		       (unsigned long long)sb->created,
		       (unsigned long long)sb->ring_blocks * VRAID_J_BLOCK,
		       (unsigned long long)sb->ring_blocks,
		       (unsigned long long)sb->tail_block,
		       (unsigned long long)sb->tail_seq,
		       sb->flags & VRAID_J_SB_DETACHED ? "\"detached\"" : "",
		       (sb->flags & VRAID_J_SB_DETACHED) &&
		       (sb->flags & VRAID_J_SB_RELEASED) ? "," : "",
		       sb->flags & VRAID_J_SB_RELEASED ? "\"released\"" : "",
		       sb->flags & VRAID_J_SB_DETACHED ? "true" : "false",
		       sb->flags & VRAID_J_SB_RELEASED ? "true" : "false",
		       attached < 0 ? "null" : attached ? "true" : "false");
		json_str(attached > 0 ? adev : "", attached > 0 ? sizeof(adev) : 1);
		printf(",\"journal_state\":");
		if (e)
			printf("null}\n");
		else
			printf("\"%s\"}\n",
			       VNAME(journal_states, r.journal_state, true));
		return RC_OK;
	}

	printf("Device:          %s\n", dev);
	for (i = 0; i < 2; i++) {
		printf("Slot %d:          %s", i,
		       !j->r[i] ? "valid" : j->r[i] == -ENODATA ? "none" : "bad");
		if (!j->r[i])
			printf(" (generation %llu)",
			       (unsigned long long)j->sb[i].generation);
		else
			printf(": %s", j->why[i]);
		putchar('\n');
	}
	if (!sb) {
		errmsg("%s: damaged vraid journal superblock: %s",
		       dev, j->pick == -ENODATA ?
		       "no slot (byte 4096, byte 8192) is valid" : j->pick_why);
		if (j->pick == -ENODATA)
			hintmsg("the module does not take it as a journal: attaching it (`vraidctl controller journal %s`) formats it anew, and whatever writes it held are lost",
				dev);
		else
			hintmsg("the module refuses to attach it as it is: `vraidctl controller journal %s --force` formats it anew, and whatever writes it held are lost",
				dev);
		return RC_FAIL;
	}
	uuid_str(u, sb->uuid);
	printf("Type:            vraid journal (the controller's battery)\n");
	printf("Journal UUID:    %s\n", u);
	printf("Ring:            %s (%llu blocks of 4 KiB from byte 1 MiB)\n",
	       human_size(sz, sizeof(sz), sb->ring_blocks * VRAID_J_BLOCK),
	       (unsigned long long)sb->ring_blocks);
	printf("Generation:      %llu (slot %d)\n",
	       (unsigned long long)sb->generation, j->pick);
	printf("Created:         %llu (seconds since the epoch)\n",
	       (unsigned long long)sb->created);
	printf("Tail:            seq %llu at block %llu\n",
	       (unsigned long long)sb->tail_seq,
	       (unsigned long long)sb->tail_block);
	printf("Flags:           %s\n", jsb_flags_says(sb->flags));
	if (e == ENOENT || e == ENXIO || e == ENODEV)
		snprintf(what, sizeof(what), "unknown: the vraid module is not loaded");
	else if (e == EOPNOTSUPP)
		snprintf(what, sizeof(what), "unknown: the vraid module has no journal (ABI before 1.9)");
	else if (e)
		snprintf(what, sizeof(what), "unknown: cannot ask the vraid module (%s)",
			 strerror(e));
	else if (attached && same_dev)
		snprintf(what, sizeof(what), "yes, %s", VNAME(journal_states, r.journal_state, false));
	else if (attached)
		snprintf(what, sizeof(what), "yes, %s, as %s%s%u:%u%s (the same journal UUID)",
			 VNAME(journal_states, r.journal_state, false), adev,
			 adev[0] ? " (" : "", r.journal_major, r.journal_minor,
			 adev[0] ? ")" : "");
	else if (r.journal_state == VRAID_JOURNAL_NONE)
		snprintf(what, sizeof(what), "no (no journal is attached)");
	else {
		uuid_str(au, r.journal_uuid);
		snprintf(what, sizeof(what), "no (the journal attached is %s%s%u:%u%s, UUID %s)",
			 adev, adev[0] ? " (" : "", r.journal_major,
			 r.journal_minor, adev[0] ? ")" : "", au);
	}
	printf("Attached:        %s\n", what);
	if (attached > 0)
		printf("                 (while attached, `vraidctl controller` has its live state: the superblock moves at checkpoints only)\n");
	return RC_OK;
}


/* ---- examine: what the metadata on a device says ------------------------- */

struct md_copy {
	const char *label;
	uint64_t sector;
	int status;			/* 0 valid, -ENODATA none, else bad */
	char why[VRAID_MSG_LEN];
	struct vraid_md md;
};

static int read_copy(int fd, const char *dev, struct md_copy *c)
{
	void *buf;
	ssize_t n;

	if (posix_memalign(&buf, VRAID_MD_BLOCK, VRAID_MD_BLOCK))
		return -ENOMEM;
	n = pread(fd, buf, VRAID_MD_BLOCK, (off_t)(c->sector * 512));
	if (n != VRAID_MD_BLOCK) {
		snprintf(c->why, sizeof(c->why), "cannot read %s at byte %llu: %s",
			 dev, (unsigned long long)(c->sector * 512),
			 n < 0 ? strerror(errno) : "short read");
		c->status = -EIO;
	} else {
		c->status = vraid_md_decode(buf, &c->md, c->why, sizeof(c->why));
	}
	free(buf);
	return 0;
}

static const char *copy_status(const struct md_copy *c)
{
	return !c->status ? "valid" : c->status == -ENODATA ? "none" : "bad";
}

static int cmd_examine(int argc, char **argv)
{
	struct md_copy copies[2] = {
		{ .label = "A", .sector = VRAID_MD_COPY_A },
		{ .label = "B", .sector = VRAID_MD_COPY_B },
	};
	const struct md_copy *best = NULL;
	const struct vraid_md *md;
	const char *pos[1];
	char u[40], sz[32], sz2[32];
	struct jsb_slots js;
	bool json = false;
	size_t npos, i;
	int rc, fd;

	rc = parse_args("examine", argc, argv, NULL, NULL, &json, pos, 1, &npos);
	if (rc >= 0)
		return rc;
	if (npos != 1)
		return usage_error("examine", "name one device (e.g. /dev/nvme0n1)");
	fd = open(pos[0], O_RDONLY | O_DIRECT);
	if (fd < 0 && errno == EINVAL)
		fd = open(pos[0], O_RDONLY);
	if (fd < 0) {
		errmsg("%s: %s", pos[0], strerror(errno));
		return RC_FAIL;
	}
	for (i = 0; i < 2; i++) {
		read_copy(fd, pos[0], &copies[i]);
		if (!copies[i].status &&
		    (!best || copies[i].md.generation > best->md.generation))
			best = &copies[i];
	}
	/*
	 * Copy A and the journal's slot 0 share byte 4096: without a valid
	 * copy A, the journal magic in a slot makes DEV a journal (whose
	 * ring, at byte 1 MiB, may hold an old copy B).
	 */
	if (copies[0].status) {
		jsb_read(fd, pos[0], &js);
		if (jsb_magic(&js))
			return examine_journal(pos[0], fd, &js, json);
	}
	close(fd);

	if (json) {
		printf("{\"device\":");
		json_str(pos[0], strlen(pos[0]) + 1);
		printf(",\"copies\":[");
		for (i = 0; i < 2; i++) {
			printf("%s{\"copy\":\"%s\",\"offset_bytes\":%llu,\"status\":\"%s\"",
			       i ? "," : "", copies[i].label,
			       (unsigned long long)(copies[i].sector * 512),
			       copy_status(&copies[i]));
			if (!copies[i].status)
				printf(",\"generation\":%llu",
				       (unsigned long long)copies[i].md.generation);
			else if (copies[i].status != -ENODATA) {
				printf(",\"error\":");
				json_str(copies[i].why, sizeof(copies[i].why));
			}
			putchar('}');
		}
		putchar(']');
		if (best) {
			md = &best->md;
			uuid_str(u, md->vd_uuid);
			printf(",\"vd_uuid\":\"%s\",\"name\":", u);
			json_str(md->name, sizeof(md->name));
			printf(",\"level\":\"%s\",\"nr_members\":%u,\"role\":%u,"
			       "\"strip_bytes\":%u,\"spans\":%u,\"size_bytes\":%llu,"
			       "\"member_data_bytes\":%llu,\"data_offset_bytes\":%llu,"
			       "\"generation\":%llu,\"created\":%llu,\"clean\":%s,\"members\":[",
			       VNAME(levels, md->level, true), md->nr_members,
			       md->role, md->level == VRAID_LEVEL_JBOD ? 0 : md->strip_bytes,
			       md->level == VRAID_LEVEL_50 || md->level == VRAID_LEVEL_60 ? md->spans : 0,
			       (unsigned long long)md->size_sectors * 512,
			       (unsigned long long)md->member_sectors * 512,
			       (unsigned long long)md->data_offset * 512,
			       (unsigned long long)md->generation,
			       (unsigned long long)md->created,
			       md->flags & VRAID_MD_F_CLEAN ? "true" : "false");
			for (i = 0; i < md->nr_members; i++) {
				uuid_str(u, md->members[i].uuid);
				printf("%s{\"role\":%zu,\"uuid\":\"%s\",\"state\":\"%s\",\"size_bytes\":%llu}",
				       i ? "," : "", i, u,
				       VNAME(member_states, md->members[i].state, true),
				       (unsigned long long)md->members[i].dev_sectors * 512);
			}
			printf("],\"init_done_bytes\":%llu,\"job\":{\"type\":\"%s\","
			       "\"paused\":%s,\"done_bytes\":%llu,\"rate_kib\":%u},"
			       "\"last_job\":{\"type\":\"%s\",\"result\":%u,"
			       "\"mismatches\":%llu},\"volatile_cache\":%s",
			       (unsigned long long)md->init_pos * 512,
			       VNAME(job_types, md->job_type, true),
			       md->job_flags & VRAID_MD_JOB_PAUSED ? "true" : "false",
			       (unsigned long long)md->job_pos * 512,
			       md->job_rate_kib,
			       VNAME(job_types, md->last_job, true),
			       md->last_result,
			       (unsigned long long)md->last_mismatches,
			       md->cache_flags & VRAID_MD_CF_VOLATILE ? "true" : "false");
			if (md->cache_flags & VRAID_MD_CF_JOURNAL) {
				uuid_str(u, md->journal_uuid);
				printf(",\"journal\":{\"uuid\":\"%s\",\"floor\":%llu}",
				       u, (unsigned long long)md->journal_floor);
			} else {
				printf(",\"journal\":null");
			}
		}
		printf("}\n");
		return best ? RC_OK : RC_FAIL;
	}

	printf("Device:          %s\n", pos[0]);
	for (i = 0; i < 2; i++) {
		printf("Copy %s:          %s", copies[i].label, copy_status(&copies[i]));
		if (!copies[i].status)
			printf(" (generation %llu)",
			       (unsigned long long)copies[i].md.generation);
		else if (copies[i].status != -ENODATA)
			printf(": %s", copies[i].why);
		putchar('\n');
	}
	if (!best) {
		errmsg("%s: no valid vraid metadata (and no vraid journal superblock)",
		       pos[0]);
		return RC_FAIL;
	}
	md = &best->md;
	uuid_str(u, md->vd_uuid);
	printf("VD UUID:         %s\n", u);
	printf("Name:            %s\n", md->name[0] ? md->name : "-");
	printf("Level:           %s\n", VNAME(levels, md->level, false));
	printf("Members:         %u (this device is role %u)\n", md->nr_members, md->role);
	if (md->level != VRAID_LEVEL_JBOD)
		printf("Strip:           %s\n", human_size(sz, sizeof(sz), md->strip_bytes));
	if (md->level == VRAID_LEVEL_50 || md->level == VRAID_LEVEL_60)
		printf("Spans:           %u\n", md->spans);
	printf("Size:            %s (%llu bytes)\n",
	       human_size(sz, sizeof(sz), md->size_sectors * 512),
	       (unsigned long long)md->size_sectors * 512);
	printf("Member data:     %s from %s (sector %llu)\n",
	       human_size(sz, sizeof(sz), md->member_sectors * 512),
	       human_size(sz2, sizeof(sz2), md->data_offset * 512),
	       (unsigned long long)md->data_offset);
	printf("Generation:      %llu\n", (unsigned long long)md->generation);
	printf("Created:         %llu (seconds since the epoch)\n",
	       (unsigned long long)md->created);
	printf("Policies:        Access: %s, Disk cache: %s, I/O: %s, Read: %s, Write: %s\n",
	       VNAME(access_pols, md->access_policy, false),
	       VNAME(dcache_pols, md->disk_cache_policy, false),
	       VNAME(io_pols, md->io_policy, false),
	       VNAME(read_pols, md->read_policy, false),
	       VNAME(write_pols, md->write_policy, false));
	printf("Shutdown:        %s\n", md->flags & VRAID_MD_F_CLEAN ?
	       "clean (stopped)" : "not clean (running, or it crashed)");
	if (md->cache_flags & VRAID_MD_CF_JOURNAL) {
		uuid_str(u, md->journal_uuid);
		printf("Journal:         %s, from seq %llu: it may hold acknowledged writes of this VD, replayed at assembly\n",
		       u, (unsigned long long)md->journal_floor);
	}
	if (md->cache_flags & VRAID_MD_CF_VOLATILE)
		printf("Write cache:     volatile (write policy awb)%s\n",
		       md->flags & VRAID_MD_F_CLEAN ? "" :
		       ": if it crashed, writes not flushed may be lost");
	if (md->level == VRAID_LEVEL_JBOD || md->level == VRAID_LEVEL_0)
		;
	else if (md->init_pos >= md->member_sectors)
		printf("Initialised:     yes\n");
	else
		printf("Initialised:     %.1f%% (init checkpoint at sector %llu of %llu)\n",
		       md->member_sectors ? 100.0 * md->init_pos / md->member_sectors : 0.0,
		       (unsigned long long)md->init_pos,
		       (unsigned long long)md->member_sectors);
	if (md->job_type != VRAID_JOB_NONE)
		printf("Job checkpoint:  %s at sector %llu of %llu%s%s\n",
		       VNAME(job_types, md->job_type, false),
		       (unsigned long long)md->job_pos,
		       (unsigned long long)md->member_sectors,
		       md->job_flags & VRAID_MD_JOB_PAUSED ? ", paused" : "",
		       md->job_type == VRAID_JOB_CHECK ||
		       md->job_type == VRAID_JOB_REPAIR ? "" :
		       " (resumes at assembly)");
	if (md->job_rate_kib)
		printf("Job rate limit:  %u KiB/s per member\n", md->job_rate_kib);
	if (md->last_job != VRAID_JOB_NONE)
		printf("Last job:        %s, %s%s, %llu mismatch%s\n",
		       VNAME(job_types, md->last_job, false),
		       md->last_result ? "ended: " : "done",
		       md->last_result ? strerror((int)md->last_result) : "",
		       (unsigned long long)md->last_mismatches,
		       md->last_mismatches == 1 ? "" : "es");
	printf("\nROLE  MEMBER UUID                           STATE   SIZE\n");
	for (i = 0; i < md->nr_members; i++) {
		uuid_str(u, md->members[i].uuid);
		printf("%4zu  %s  %-7s %s%s\n", i, u,
		       VNAME(member_states, md->members[i].state, false),
		       human_size(sz, sizeof(sz), md->members[i].dev_sectors * 512),
		       i == md->role ? "  (this device)" : "");
	}
	return RC_OK;
}


/* ---- assemble: bring VDs up from their members' metadata ---------------- */

/*
 * What vraid format a device holds: for --scan, and for the commands that
 * look at a device before they overwrite it (PROBE_BAD_MEMBER: vraid's
 * magic, but no copy is valid).
 */
enum { PROBE_NONE, PROBE_MEMBER, PROBE_JOURNAL, PROBE_BAD_JOURNAL,
       PROBE_BAD_MEMBER };

/* A copy with vraid's magic that does not decode (not absent, not unread). */
static bool copy_bad(const struct md_copy *c)
{
	return c->status && c->status != -ENODATA && c->status != -EIO;
}

/*
 * The kind, from both metadata copies @c and, when copy A is not valid,
 * the journal's slots @js.  Copy A and journal slot 0 share byte 4096: a
 * valid copy A makes a member whatever an old slot 1 says, else the
 * journal magic in either slot makes a journal, whose ring may hold an
 * old copy B (or data that looks like one) at byte 1 MiB: never a member.
 */
static int vraid_kind(const struct md_copy *c, const struct jsb_slots *js)
{
	if (!c[0].status)
		return PROBE_MEMBER;
	if (js->pick >= 0)
		return PROBE_JOURNAL;
	if (jsb_magic(js))
		return PROBE_BAD_JOURNAL;
	if (!c[1].status)
		return PROBE_MEMBER;
	if (copy_bad(&c[0]) || copy_bad(&c[1]))
		return PROBE_BAD_MEMBER;
	return PROBE_NONE;
}

/*
 * Probe @path: vraid metadata (the newest valid copy into @md) or a
 * journal superblock (the one the module would take into @sb), as
 * vraid_kind() tells them apart.
 */
static int scan_probe(const char *path, struct vraid_md *md,
		      struct vraid_jsb *sb)
{
	struct md_copy copies[2] = {
		{ .label = "A", .sector = VRAID_MD_COPY_A },
		{ .label = "B", .sector = VRAID_MD_COPY_B },
	};
	struct jsb_slots js;
	bool found = false;
	int fd, i, kind = PROBE_NONE;

	fd = open(path, O_RDONLY | O_DIRECT | O_CLOEXEC);
	if (fd < 0 && errno == EINVAL)
		fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return PROBE_NONE;
	for (i = 0; i < 2; i++) {
		read_copy(fd, path, &copies[i]);
		if (!copies[i].status &&
		    (!found || copies[i].md.generation > md->generation)) {
			*md = copies[i].md;
			found = true;
		}
	}
	if (copies[0].status)
		jsb_read(fd, path, &js);
	kind = vraid_kind(copies, &js);
	if (kind == PROBE_JOURNAL)
		*sb = js.sb[js.pick];
	else if (kind == PROBE_BAD_MEMBER || (kind == PROBE_MEMBER && !found))
		kind = PROBE_NONE;	/* no valid copy: nothing to assemble */
	close(fd);
	return kind;
}

/* Whether /sys/class/block/@name has holders (dm, md): use those instead. */
/*
 * Whether block device @name has holders (dm, md, a VD), other than VDs
 * with @but_vds.
 */
static bool has_holders_but(const char *name, bool but_vds)
{
	char path[256];
	struct dirent *de;
	bool any = false;
	DIR *d;

	snprintf(path, sizeof(path), "/sys/class/block/%s/holders", name);
	d = opendir(path);
	if (!d)
		return false;
	while (!any && (de = readdir(d)))
		any = de->d_name[0] != '.' &&
		      !(but_vds && !strncmp(de->d_name, VRAID_DISK_PREFIX,
					    strlen(VRAID_DISK_PREFIX)));
	closedir(d);
	return any;
}

static bool has_holders(const char *name)
{
	return has_holders_but(name, false);
}

/* ---- what a device holds, before a command overwrites it ----------------- */

/*
 * create, controller journal DEV, replace, spare add and wipe look at a
 * device before they write to it: vraid's own metadata (decoded by the
 * module's portable core, as examine does: vraid_kind()), what the module
 * uses it for now (a member of a running VD, the journal, a hot spare:
 * LIST, INFO, SPARE LIST and CONTROLLER replies), and the signatures of
 * other formats (the table below).  Reads only, O_DIRECT where the device
 * takes it (the module writes around the page cache), O_EXCL on a block
 * device to learn whether another opener holds it (mounted, md, dm, the
 * module): the open is closed again before any request is sent.
 */

#define PROBE_HEAD	(128U << 10)	/* bytes read at the start of a device */
#define PROBE_TAIL	(128U << 10)	/* and at its end */

/* What was read of a device: its first and last PROBE_* bytes. */
struct probe_buf {
	const uint8_t *head, *tail;
	size_t nhead, ntail;		/* bytes read */
	uint64_t tail_off;		/* device offset of tail[0] */
	uint64_t size;			/* device size in bytes */
};

/* Bytes [@off, @off + @len) of the device if they were read, else NULL. */
static const uint8_t *pb_at(const struct probe_buf *b, uint64_t off,
			    size_t len)
{
	if (off + len <= b->nhead)
		return b->head + off;
	if (b->ntail && off >= b->tail_off &&
	    off + len <= b->tail_off + b->ntail)
		return b->tail + (off - b->tail_off);
	return NULL;
}

static uint16_t rd_le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t rd_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static uint32_t rd_be32(const uint8_t *p)
{
	return (uint32_t)p[3] | (uint32_t)p[2] << 8 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[0] << 24;
}

static uint64_t rd_le64(const uint8_t *p)
{
	return (uint64_t)rd_le32(p) | (uint64_t)rd_le32(p + 4) << 32;
}

/* A signature of another format found on a device. */
struct sig_hit {
	const char *what;		/* "an ext4 file system" */
	char detail[64];		/* "metadata 1.2", "2 partitions", "" */
	const char *lkind;		/* "label", "name" */
	char label[64];			/* its label or name, "" if none */
	uint64_t offset;		/* where the signature is, bytes */
};

/* The label at @p (at most @n bytes, NUL-padded or blank-padded). */
static void sig_label(struct sig_hit *h, const char *kind, const uint8_t *p,
		      size_t n)
{
	size_t l = strnlen((const char *)p, n);

	while (l && p[l - 1] == ' ')
		l--;
	h->lkind = kind;
	tty_str(h->label, sizeof(h->label), (const char *)p, l);
}

static bool sig_gpt(const struct probe_buf *b, int arg, struct sig_hit *h)
{
	static const unsigned int lbs[] = { 512, 4096 };
	const uint8_t *p, *e;
	uint32_t n, esz, i, j, used;
	uint64_t at;
	size_t k;

	(void)arg;
	for (k = 0; k < ARRAY_SIZE(lbs); k++) {
		p = pb_at(b, lbs[k], 92);
		if (!p || memcmp(p, "EFI PART", 8))
			continue;
		h->what = "a GPT partition table";
		h->offset = lbs[k];
		n = rd_le32(p + 80);
		esz = rd_le32(p + 84);
		at = rd_le64(p + 72) * lbs[k];
		if (esz < 128 || esz > 4096 || n > 1024)
			return true;
		for (i = used = 0; i < n; i++) {
			e = pb_at(b, at + (uint64_t)i * esz, 16);
			if (!e)
				break;
			for (j = 0; j < 16 && !e[j]; j++)
				;
			used += j < 16;
		}
		snprintf(h->detail, sizeof(h->detail), "%u partition%s", used,
			 used == 1 ? "" : "s");
		return true;
	}
	for (k = 0; k < ARRAY_SIZE(lbs); k++) {
		if (b->size < 2 * lbs[k])
			continue;
		p = pb_at(b, b->size - lbs[k], 8);
		if (p && !memcmp(p, "EFI PART", 8)) {
			h->what = "a GPT partition table";
			h->offset = b->size - lbs[k];
			snprintf(h->detail, sizeof(h->detail),
				 "its backup header, at the end");
			return true;
		}
	}
	return false;
}

/* A FAT boot sector at @p (512 bytes): the label's offset, else 0. */
static size_t fat_label_at(const uint8_t *p)
{
	if (p[510] != 0x55 || p[511] != 0xAA || (p[0] != 0xEB && p[0] != 0xE9))
		return 0;
	if (!memcmp(p + 82, "FAT32   ", 8))
		return 71;
	if (!memcmp(p + 54, "FAT", 3))
		return 43;
	return 0;
}

static bool sig_mbr(const struct probe_buf *b, int arg, struct sig_hit *h)
{
	const uint8_t *p = pb_at(b, 0, 512), *e, *g;
	unsigned int i, used = 0;
	bool protective = false;

	(void)arg;
	if (!p || p[510] != 0x55 || p[511] != 0xAA ||
	    !memcmp(p + 3, "NTFS    ", 8) || fat_label_at(p))
		return false;	/* a file system's boot sector: its own entry */
	for (i = 0; i < 4; i++) {
		e = p + 446 + 16 * i;
		if (e[0] != 0 && e[0] != 0x80)
			return false;
		if (e[4]) {
			used++;
			protective |= e[4] == 0xEE;
		}
	}
	if (!used)
		return false;
	g = pb_at(b, 512, 8);
	if (protective && g && !memcmp(g, "EFI PART", 8))
		return false;	/* the GPT's entry says it */
	h->what = protective ? "a protective MBR (of a GPT partition table)" :
		  "an MBR (DOS) partition table";
	if (!protective)
		snprintf(h->detail, sizeof(h->detail), "%u partition%s", used,
			 used == 1 ? "" : "s");
	h->offset = 510;
	return true;
}

static bool sig_ext(const struct probe_buf *b, int arg, struct sig_hit *h)
{
	const uint8_t *p = pb_at(b, 1024, 256);
	uint32_t compat, incompat, ro;

	(void)arg;
	if (!p || rd_le16(p + 56) != 0xEF53)
		return false;
	compat = rd_le32(p + 92);
	incompat = rd_le32(p + 96);
	ro = rd_le32(p + 100);
	if (incompat & 0x8)		/* JOURNAL_DEV */
		h->what = "an ext3/ext4 external journal";
	/* beyond ext3's FILETYPE, RECOVER, META_BG; SPARSE_SUPER, LARGE_FILE, BTREE_DIR */
	else if ((incompat & ~0x16U) || (ro & ~0x7U))
		h->what = "an ext4 file system";
	else if (compat & 0x4)		/* HAS_JOURNAL */
		h->what = "an ext3 file system";
	else
		h->what = "an ext2 file system";
	sig_label(h, "label", p + 120, 16);
	h->offset = 1080;
	return true;
}

static bool sig_xfs(const struct probe_buf *b, int arg, struct sig_hit *h)
{
	const uint8_t *p = pb_at(b, 0, 120);

	(void)arg;
	if (!p || memcmp(p, "XFSB", 4))
		return false;
	h->what = "an XFS file system";
	sig_label(h, "label", p + 108, 12);
	return true;
}

static bool sig_btrfs(const struct probe_buf *b, int arg, struct sig_hit *h)
{
	const uint8_t *p = pb_at(b, 65536, 299 + 256);

	(void)arg;
	if (!p || memcmp(p + 64, "_BHRfS_M", 8))
		return false;
	h->what = "a Btrfs file system";
	sig_label(h, "label", p + 299, 256);
	h->offset = 65536 + 64;
	return true;
}

static bool sig_swap(const struct probe_buf *b, int arg, struct sig_hit *h)
{
	static const unsigned int pages[] = { 4096, 8192, 16384, 65536 };
	const uint8_t *p, *l;
	size_t k;

	(void)arg;
	for (k = 0; k < ARRAY_SIZE(pages); k++) {
		p = pb_at(b, pages[k] - 10, 10);
		if (!p || (memcmp(p, "SWAPSPACE2", 10) &&
			   memcmp(p, "SWAP-SPACE", 10)))
			continue;
		h->what = "a swap area";
		l = pb_at(b, 1024 + 28, 16);
		if (l && !memcmp(p, "SWAPSPACE2", 10))
			sig_label(h, "label", l, 16);
		h->offset = pages[k] - 10;
		return true;
	}
	return false;
}

static bool sig_lvm(const struct probe_buf *b, int arg, struct sig_hit *h)
{
	const uint8_t *p;
	unsigned int s;

	(void)arg;
	for (s = 0; s < 4; s++) {
		p = pb_at(b, s * 512, 32);
		if (p && !memcmp(p, "LABELONE", 8) && !memcmp(p + 24, "LVM2 001", 8)) {
			h->what = "an LVM2 physical volume";
			h->offset = s * 512;
			return true;
		}
	}
	return false;
}

static bool sig_luks(const struct probe_buf *b, int arg, struct sig_hit *h)
{
	const uint8_t *p = pb_at(b, 0, 72);

	(void)arg;
	if (!p || memcmp(p, "LUKS\xba\xbe", 6))
		return false;
	if (p[6] == 0 && p[7] == 2) {
		h->what = "a LUKS2 encrypted volume";
		sig_label(h, "label", p + 24, 48);
	} else {
		h->what = "a LUKS encrypted volume";
	}
	return true;
}

#define MD_SB_MAGIC	0xa92b4efcU

/* Linux md's superblock, @arg: 0 (0.90, near the end), 10 (1.0, at the
 * end), 11 (1.1, at the start), 12 (1.2, at 4 KiB). */
static bool sig_md(const struct probe_buf *b, int arg, struct sig_hit *h)
{
	const uint8_t *p;
	uint64_t off;

	switch (arg) {
	case 0:
		if (b->size < (128U << 10))
			return false;
		off = (b->size & ~65535ULL) - 65536;
		break;
	case 10:
		if (b->size < (16U << 10))
			return false;
		off = (((b->size >> 9) - 16) & ~7ULL) << 9;
		break;
	case 11:
		off = 0;
		break;
	default:
		off = 4096;
		break;
	}
	p = pb_at(b, off, 256);
	if (!p)
		return false;
	h->what = "an md RAID superblock";
	h->offset = off;
	if (arg == 0) {
		if ((rd_le32(p) != MD_SB_MAGIC || rd_le32(p + 4)) &&
		    (rd_be32(p) != MD_SB_MAGIC || rd_be32(p + 4)))
			return false;
		snprintf(h->detail, sizeof(h->detail), "metadata 0.90");
		return true;
	}
	/* 1.x: major version 1, super_offset (bytes 128-135) says where */
	if (rd_le32(p) != MD_SB_MAGIC || rd_le32(p + 4) != 1 ||
	    rd_le64(p + 128) != off >> 9)
		return false;
	snprintf(h->detail, sizeof(h->detail), "metadata 1.%d", arg - 10);
	sig_label(h, "name", p + 32, 32);
	return true;
}

static bool sig_fat(const struct probe_buf *b, int arg, struct sig_hit *h)
{
	const uint8_t *p = pb_at(b, 0, 512);
	size_t l;

	(void)arg;
	if (!p || !(l = fat_label_at(p)))
		return false;
	h->what = "a FAT file system";
	if (memcmp(p + l, "NO NAME    ", 11))
		sig_label(h, "label", p + l, 11);
	return true;
}

static bool sig_ntfs(const struct probe_buf *b, int arg, struct sig_hit *h)
{
	const uint8_t *p = pb_at(b, 0, 512);

	(void)arg;
	if (!p || memcmp(p + 3, "NTFS    ", 8) || p[510] != 0x55 || p[511] != 0xAA)
		return false;
	h->what = "an NTFS file system";
	h->offset = 3;
	return true;
}

/*
 * The formats other than vraid's that a device is looked for, in the
 * order they are reported.  Each finds at most one instance; add a
 * format here (and keep PROBE_HEAD and PROBE_TAIL large enough for it).
 */
static const struct signature {
	bool (*probe)(const struct probe_buf *b, int arg, struct sig_hit *h);
	int arg;
} signatures[] = {
	{ sig_gpt, 0 }, { sig_mbr, 0 },
	{ sig_ext, 0 }, { sig_xfs, 0 }, { sig_btrfs, 0 }, { sig_fat, 0 },
	{ sig_ntfs, 0 }, { sig_swap, 0 }, { sig_lvm, 0 }, { sig_luks, 0 },
	{ sig_md, 11 }, { sig_md, 12 }, { sig_md, 10 }, { sig_md, 0 },
};

/* What the module uses a device for now. */
enum { LIVE_NONE, LIVE_MEMBER, LIVE_JOURNAL, LIVE_SPARE };

/* What a device holds and what it is used for. */
struct devprobe {
	const char *path;		/* as the user typed it */
	bool blk;			/* a block device (else an image file) */
	uint32_t major, minor;
	int err;			/* it could not be opened: errno */
	bool busy;			/* another opener holds it exclusively */
	uint64_t bytes;			/* its size */
	int kind;			/* PROBE_*: vraid's own format */
	struct md_copy copies[2];
	int best;			/* PROBE_MEMBER: the copy used, 0 or 1 */
	struct jsb_slots js;
	bool bitmap;			/* the bitmap's magic at byte 2 MiB */
	struct sig_hit hits[ARRAY_SIZE(signatures)];
	size_t nhits;			/* other formats found */
	int live;			/* LIVE_* */
	const struct vraid_info *vd;	/* LIVE_MEMBER: its VD; PROBE_MEMBER:
					 * the running VD the metadata names */
	uint32_t role;			/* LIVE_MEMBER: its role */
	int spare_for;			/* LIVE_SPARE: the VD's index, -1 global */
};

/* The newest valid metadata copy of @p (PROBE_MEMBER). */
static const struct vraid_md *probe_md(const struct devprobe *p)
{
	return &p->copies[p->best].md;
}

/* One aligned read at @off; bytes read, 0 on error. */
static size_t probe_pread(int fd, void *buf, size_t len, uint64_t off)
{
	ssize_t n = pread(fd, buf, len, (off_t)off);

	return n > 0 ? (size_t)n : 0;
}

/*
 * Read what @p->path holds (its stat() said block device or file,
 * @p->blk): vraid's format, vraid's bitmap, other signatures.
 */
static void probe_read(struct devprobe *p)
{
	int fl = O_RDONLY | O_CLOEXEC | (p->blk ? O_EXCL : 0);
	uint8_t *head = NULL, *tail = NULL, *bm = NULL;
	struct probe_buf b;
	struct sig_hit h;
	off_t end;
	size_t k;
	int fd, i;

	p->best = 0;
	p->copies[0].label = "A";
	p->copies[0].sector = VRAID_MD_COPY_A;
	p->copies[1].label = "B";
	p->copies[1].sector = VRAID_MD_COPY_B;
	fd = open(p->path, fl | O_DIRECT);
	if (fd < 0 && errno == EINVAL)
		fd = open(p->path, fl);
	if (fd < 0 && errno == EBUSY && p->blk) {
		/* held: see what it holds all the same */
		p->busy = true;
		fl &= ~O_EXCL;
		fd = open(p->path, fl | O_DIRECT);
		if (fd < 0 && errno == EINVAL)
			fd = open(p->path, fl);
	}
	if (fd < 0) {
		p->err = errno;
		return;
	}
	end = lseek(fd, 0, SEEK_END);
	p->bytes = end > 0 ? (uint64_t)end : 0;
	for (i = 0; i < 2; i++) {
		read_copy(fd, p->path, &p->copies[i]);
		if (!p->copies[i].status &&
		    (p->copies[p->best].status ||
		     p->copies[i].md.generation > p->copies[p->best].md.generation))
			p->best = i;
	}
	jsb_read(fd, p->path, &p->js);
	p->kind = vraid_kind(p->copies, &p->js);

	memset(&b, 0, sizeof(b));
	b.size = p->bytes;
	if (!posix_memalign((void **)&head, 4096, PROBE_HEAD) &&
	    !posix_memalign((void **)&tail, 4096, PROBE_TAIL) &&
	    !posix_memalign((void **)&bm, 4096, 4096)) {
		b.head = head;
		b.nhead = probe_pread(fd, head, PROBE_HEAD, 0);
		if (p->bytes > PROBE_HEAD) {
			b.tail = tail;
			b.tail_off = p->bytes > PROBE_TAIL ?
				     (p->bytes - PROBE_TAIL) & ~4095ULL : 0;
			b.ntail = probe_pread(fd, tail, PROBE_TAIL, b.tail_off);
		}
		p->bitmap = probe_pread(fd, bm, 4096, VRAID_BM_SECTOR * 512) == 4096 &&
			    rd_le32(bm) == VRAID_BM_MAGIC;
		for (k = 0; k < ARRAY_SIZE(signatures); k++) {
			memset(&h, 0, sizeof(h));
			if (signatures[k].probe(&b, signatures[k].arg, &h))
				p->hits[p->nhits++] = h;
		}
	}
	free(head);
	free(tail);
	free(bm);
	close(fd);
}

/*
 * stat() @path and read it: a block device, or with @files a regular file
 * too (wipe of an image).  Returns RC_OK, or RC_FAIL after saying why.
 */
static int probe_dev(struct devprobe *p, const char *path, bool files)
{
	struct vraid_member_ref ref;
	struct stat st;

	memset(p, 0, sizeof(*p));
	p->path = path;
	if (files && !stat(path, &st) && S_ISREG(st.st_mode)) {
		probe_read(p);
		return RC_OK;
	}
	if (member_ref(path, &ref))
		return RC_FAIL;
	p->blk = true;
	p->major = ref.major;
	p->minor = ref.minor;
	probe_read(p);
	return RC_OK;
}

/* What the module says it runs: VDs, spares, its journal. */
struct live {
	bool known;			/* the module answered */
	uint16_t abi_minor;		/* the module's, from its replies */
	struct vraid_info *vds;
	size_t nvd;
	uint8_t (*uuid)[VRAID_MD_UUID_LEN];	/* each VD's, from a member */
	bool *have_uuid;
	bool uuid_read;
	struct vraid_spare spares;	/* nr_spares 0 if unknown */
	struct vraid_controller ctrl;	/* journal_state NONE if unknown */
};

/* Ask the module, without a word if it does not answer. */
static void live_load(struct live *l)
{
	struct vraid_list lst;
	struct vraid_info in;
	struct ctl c;
	uint32_t i;

	memset(l, 0, sizeof(*l));
	ctl_path(&c);
	c.deadline = 0;
	c.fd = open(c.path, O_RDWR | O_CLOEXEC);
	if (c.fd < 0 && (errno == EACCES || errno == EROFS))
		c.fd = open(c.path, O_RDONLY | O_CLOEXEC);
	if (c.fd < 0)
		return;
	memset(&lst, 0, sizeof(lst));
	if (!ctl_ioctl(&c, VRAID_IOC_LIST, &lst, sizeof(lst)) &&
	    lst.nr_vds <= VRAID_MAX_VDS) {
		l->known = true;
		l->abi_minor = lst.hdr.version_minor;
		l->vds = calloc(lst.nr_vds ? lst.nr_vds : 1, sizeof(*l->vds));
		for (i = 0; l->vds && i < lst.nr_vds; i++) {
			memset(&in, 0, sizeof(in));
			in.index = lst.index[i];
			if (!ctl_ioctl(&c, VRAID_IOC_INFO, &in, sizeof(in)) &&
			    in.nr_members <= VRAID_MAX_MEMBERS)
				l->vds[l->nvd++] = in;
		}
	}
	memset(&l->spares, 0, sizeof(l->spares));
	l->spares.action = VRAID_SPARE_LIST;
	if (ctl_ioctl(&c, VRAID_IOC_SPARE, &l->spares, sizeof(l->spares)) ||
	    l->spares.nr_spares > VRAID_MAX_SPARES)
		l->spares.nr_spares = 0;
	memset(&l->ctrl, 0, sizeof(l->ctrl));
	l->ctrl.action = VRAID_CTRL_SHOW;
	if (ctl_ioctl(&c, VRAID_IOC_CONTROLLER, &l->ctrl, sizeof(l->ctrl)) ||
	    !journal_abi(&l->ctrl))
		l->ctrl.journal_state = VRAID_JOURNAL_NONE;
	close(c.fd);
}

static void live_free(struct live *l)
{
	free(l->vds);
	free(l->uuid);
	free(l->have_uuid);
}

/*
 * Each running VD's UUID (not in INFO): from the metadata of one of its
 * members, read from /dev/NAME as the kernel names it.
 */
static void live_uuids(struct live *l)
{
	struct md_copy c[2];
	char path[16 + VRAID_DEVNAME_LEN];
	size_t v;
	uint32_t i;
	int fd, k;

	if (l->uuid_read)
		return;
	l->uuid_read = true;
	l->uuid = calloc(l->nvd ? l->nvd : 1, sizeof(*l->uuid));
	l->have_uuid = calloc(l->nvd ? l->nvd : 1, sizeof(*l->have_uuid));
	if (!l->uuid || !l->have_uuid)
		return;
	for (v = 0; v < l->nvd; v++) {
		const struct vraid_info *in = &l->vds[v];

		for (i = 0; i < in->nr_members && !l->have_uuid[v]; i++) {
			const struct vraid_member_info *m = &in->members[i];

			if (m->state != VRAID_MEMBER_ONLINE ||
			    !strnlen(m->dev_name, sizeof(m->dev_name)))
				continue;
			snprintf(path, sizeof(path), "/dev/%.*s",
				 (int)strnlen(m->dev_name, sizeof(m->dev_name)),
				 m->dev_name);
			fd = open(path, O_RDONLY | O_DIRECT | O_CLOEXEC);
			if (fd < 0 && errno == EINVAL)
				fd = open(path, O_RDONLY | O_CLOEXEC);
			if (fd < 0)
				continue;
			memset(c, 0, sizeof(c));
			c[0].sector = VRAID_MD_COPY_A;
			c[1].sector = VRAID_MD_COPY_B;
			for (k = 0; k < 2 && !l->have_uuid[v]; k++) {
				read_copy(fd, path, &c[k]);
				if (!c[k].status) {
					memcpy(l->uuid[v], c[k].md.vd_uuid,
					       VRAID_MD_UUID_LEN);
					l->have_uuid[v] = true;
				}
			}
			close(fd);
		}
	}
}

/* What the module uses @p for, and which running VD its metadata names. */
static void probe_live(struct devprobe *p, struct live *l)
{
	size_t v;
	uint32_t i;

	p->live = LIVE_NONE;
	p->vd = NULL;
	for (v = 0; p->blk && v < l->nvd; v++)
		for (i = 0; i < l->vds[v].nr_members; i++) {
			const struct vraid_member_info *m = &l->vds[v].members[i];

			if (m->state == VRAID_MEMBER_MISSING ||
			    m->major != p->major || m->minor != p->minor)
				continue;
			p->live = LIVE_MEMBER;
			p->vd = &l->vds[v];
			p->role = m->role;
			return;
		}
	for (i = 0; p->blk && i < l->spares.nr_spares; i++)
		if (l->spares.spares[i].major == p->major &&
		    l->spares.spares[i].minor == p->minor) {
			p->live = LIVE_SPARE;
			p->spare_for = l->spares.spares[i].vd_index;
			return;
		}
	if (p->blk && l->ctrl.journal_state != VRAID_JOURNAL_NONE &&
	    l->ctrl.journal_major == p->major &&
	    l->ctrl.journal_minor == p->minor) {
		p->live = LIVE_JOURNAL;
		return;
	}
	if (p->kind != PROBE_MEMBER)
		return;
	live_uuids(l);
	for (v = 0; l->have_uuid && v < l->nvd; v++)
		if (l->have_uuid[v] &&
		    !memcmp(l->uuid[v], probe_md(p)->vd_uuid, VRAID_MD_UUID_LEN))
			p->vd = &l->vds[v];
}

/* "/dev/vraid0 ("db")" */
static char *vd_says(char *buf, size_t bufsz, const struct vraid_info *in)
{
	char name[VRAID_NAME_LEN * 4];

	tty_str(name, sizeof(name), in->name, sizeof(in->name));
	snprintf(buf, bufsz, "/dev/%s%u%s%s%s", VRAID_DISK_PREFIX, in->index,
		 name[0] ? " (\"" : "", name, name[0] ? "\")" : "");
	return buf;
}

#define PHRASE	400

/*
 * Why @p cannot be used whatever --force says (it is in use), into @buf:
 * "is in use: ...".  False if it is not in use.
 */
static bool probe_in_use(const struct devprobe *p, const struct live *l,
			 char *buf, size_t bufsz)
{
	char vd[160];

	switch (p->live) {
	case LIVE_MEMBER:
		snprintf(buf, bufsz, "is in use: a member of the running virtual drive %s, role %u",
			 vd_says(vd, sizeof(vd), p->vd), p->role);
		return true;
	case LIVE_SPARE:
		if (p->spare_for >= 0)
			snprintf(buf, bufsz, "is in use: a hot spare dedicated to %s%d",
				 VRAID_DISK_PREFIX, p->spare_for);
		else
			snprintf(buf, bufsz, "is in use: a global hot spare");
		return true;
	case LIVE_JOURNAL:
		snprintf(buf, bufsz, "is in use: it is the controller's journal (%s)",
			 VNAME(journal_states, l->ctrl.journal_state, false));
		return true;
	}
	if (p->busy) {
		snprintf(buf, bufsz, "is in use: another opener holds it exclusively (mounted, or held by md, dm or LVM)");
		return true;
	}
	return false;
}

/* What to do about @p being in use. */
static void in_use_hint(const struct devprobe *p)
{
	char vd[40];

	switch (p->live) {
	case LIVE_MEMBER:
		snprintf(vd, sizeof(vd), "%s%u", VRAID_DISK_PREFIX, p->vd->index);
		hintmsg("stop or delete %s first (`vraidctl stop %s`), or take the member out of it (`vraidctl replace`); --force does not override this",
			vd, vd);
		break;
	case LIVE_SPARE:
		hintmsg("remove the spare first: vraidctl spare remove %s", p->path);
		break;
	case LIVE_JOURNAL:
		hintmsg("detach the journal first: vraidctl controller journal none");
		break;
	default:
		hintmsg("see what holds it with lsblk and /proc/mdstat, and unmount or stop it first");
		break;
	}
}

/*
 * What @p holds that would be lost, one phrase each into @ph ("an ext4
 * file system (label "data")"); returns how many.  A vraid journal is
 * left out with !@journal (controller journal DEV attaches it as it is).
 */
static size_t probe_phrases(const struct devprobe *p, bool journal,
			    char (*ph)[PHRASE], size_t max)
{
	const struct vraid_md *md;
	char u[40], sz[32], vd[160], name[VRAID_NAME_LEN * 4];
	size_t n = 0, k;
	const struct sig_hit *h;

	if (p->err && n < max)
		snprintf(ph[n++], PHRASE, "what vraidctl cannot tell (it cannot read it: %s)",
			 strerror(p->err));
	switch (p->kind) {
	case PROBE_MEMBER:
		md = probe_md(p);
		uuid_str(u, md->vd_uuid);
		tty_str(name, sizeof(name), md->name, sizeof(md->name));
		if (p->vd)
			snprintf(ph[n++], PHRASE, "stale vraid metadata of the running virtual drive %s (role %u, generation %llu: a member replaced or left out)",
				 vd_says(vd, sizeof(vd), p->vd), md->role,
				 (unsigned long long)md->generation);
		else
			snprintf(ph[n++], PHRASE, "the vraid metadata of the stopped virtual drive %s%s%s(UUID %s, %s, role %u of %u, %s)",
				 name[0] ? "\"" : "", name, name[0] ? "\" " : "", u,
				 VNAME(levels, md->level, false), md->role,
				 md->nr_members,
				 human_size(sz, sizeof(sz), md->size_sectors * 512));
		break;
	case PROBE_BAD_MEMBER:
		k = copy_bad(&p->copies[0]) ? 0 : 1;
		snprintf(ph[n++], PHRASE, "damaged vraid metadata (copy %s: %s)",
			 p->copies[k].label, p->copies[k].why);
		break;
	case PROBE_JOURNAL:
		if (!journal) {
			const struct vraid_jsb *sb = &p->js.sb[p->js.pick];

			uuid_str(u, sb->uuid);
			snprintf(ph[n++], PHRASE, "a vraid controller journal (UUID %s%s)",
				 u, sb->flags & VRAID_J_SB_DETACHED ? "" :
				 "; not detached cleanly: it may hold acknowledged writes still to replay");
		}
		break;
	case PROBE_BAD_JOURNAL:
		if (!journal)
			snprintf(ph[n++], PHRASE, "a damaged vraid journal superblock (%s)",
				 p->js.pick_why);
		break;
	}
	for (k = 0; k < p->nhits && n < max; k++) {
		h = &p->hits[k];
		snprintf(ph[n++], PHRASE, "%s%s%s%s%s%s%s%s", h->what,
			 h->detail[0] || h->label[0] ? " (" : "", h->detail,
			 h->detail[0] && h->label[0] ? ", " : "",
			 h->label[0] ? h->lkind : "", h->label[0] ? " \"" : "",
			 h->label, h->label[0] ? "\")" : h->detail[0] ? ")" : "");
	}
	return n;
}

/* "A, B and C" of @n phrases into @buf. */
static char *join_phrases(char *buf, size_t bufsz, char (*ph)[PHRASE],
			  size_t n)
{
	size_t k, o = 0;

	buf[0] = '\0';
	for (k = 0; k < n && o < bufsz; k++) {
		o += (size_t)snprintf(buf + o, bufsz - o, "%s%s",
				      k == 0 ? "" : k + 1 == n ? " and " : ", ",
				      ph[k]);
	}
	return buf;
}

/* The phrases of a device, with room for every kind. */
#define MAX_PHRASES	(ARRAY_SIZE(signatures) + 3)

/*
 * Before create (the request @req built, its devices stat()ed): what each
 * of @devs holds.  A device in use is refused; one that holds anything
 * known is refused unless @force.  With @dry, say what create would do
 * instead and change nothing.  Returns -1 to go on, else the exit code.
 */
static int create_guard(const char *const *devs, size_t n,
			const struct vraid_create *req, bool force, bool dry)
{
	char (*ph)[PHRASE] = calloc(MAX_PHRASES, PHRASE);
	char why[PHRASE], all[MAX_PHRASES * PHRASE], msg[VRAID_MSG_LEN];
	char sz[32], sz2[32], name[VRAID_NAME_LEN * 4];
	struct devprobe *p = calloc(n, sizeof(*p));
	uint64_t min = UINT64_MAX;
	bool in_use = false, holds = false, stopped = false;
	struct vraid_geom g;
	struct live l;
	size_t i, nph;
	int ge, rc = -1;

	if (!ph || !p) {
		free(ph);
		free(p);
		errmsg("out of memory");
		return RC_FAIL;
	}
	live_load(&l);
	for (i = 0; i < n; i++) {
		if (probe_dev(&p[i], devs[i], false)) {
			rc = RC_FAIL;
			goto out;
		}
		probe_live(&p[i], &l);
		if (p[i].bytes < min)
			min = p[i].bytes;
	}
	min /= 512;
	ge = vraid_layout_init(&g, req->level, req->nr_members, req->strip_bytes,
			       req->spans, min > VRAID_DATA_OFFSET_SECTORS ?
			       min - VRAID_DATA_OFFSET_SECTORS : 0,
			       msg, sizeof(msg));
	if (dry) {
		tty_str(name, sizeof(name), req->name, sizeof(req->name));
		printf("create --dry-run: nothing is changed\n");
		printf("Virtual drive:  %s%s%s%s, %u member%s", VNAME(levels, req->level, false),
		       name[0] ? ", name \"" : "", name, name[0] ? "\"" : "",
		       req->nr_members, req->nr_members == 1 ? "" : "s");
		if (ge)
			printf(": refused by the module's checks: %s\n", msg);
		else if (req->level == VRAID_LEVEL_JBOD)
			printf(", %s\n", human_size(sz, sizeof(sz), g.size_sectors * 512));
		else
			printf(", strip %s, %s\n",
			       human_size(sz2, sizeof(sz2), (uint64_t)g.strip_sectors * 512),
			       human_size(sz, sizeof(sz), g.size_sectors * 512));
		if (!ge)
			printf("Each member:    vraid's metadata in its first 8 MiB, then %s of the VD's data; what it holds there is overwritten\n",
			       human_size(sz, sizeof(sz), g.member_sectors * 512));
	}
	for (i = 0; i < n; i++) {
		bool busy = probe_in_use(&p[i], &l, why, sizeof(why));

		nph = probe_phrases(&p[i], false, ph, MAX_PHRASES);
		join_phrases(all, sizeof(all), ph, nph);
		in_use |= busy;
		holds |= nph > 0;
		stopped |= p[i].kind == PROBE_MEMBER && !p[i].vd;
		if (dry) {
			printf("  role %zu  %s  %s  ", i, devs[i],
			       human_size(sz, sizeof(sz), p[i].bytes));
			if (busy)
				printf("%s (refused)\n", why);
			else if (nph)
				printf("holds %s: lost\n", all);
			else
				printf("no known signature (its contents are overwritten all the same)\n");
		} else if (busy) {
			errmsg("create: %s %s", devs[i], why);
			in_use_hint(&p[i]);
		}
	}
	if (dry) {
		if (in_use)
			printf("Result:         refused: a device is in use (--force does not override that)\n");
		else if (ge)
			printf("Result:         refused: %s\n", msg);
		else if (holds && !force)
			printf("Result:         refused without --force: what the devices hold would be lost\n");
		else
			printf("Result:         it would be created%s\n",
			       holds ? ", overwriting what the devices hold (--force)" : "");
		rc = in_use || ge || (holds && !force) ? RC_FAIL : RC_OK;
		goto out;
	}
	if (in_use) {
		rc = RC_FAIL;
		goto out;
	}
	for (i = 0; i < n; i++) {
		nph = probe_phrases(&p[i], false, ph, MAX_PHRASES);
		if (!nph)
			continue;
		join_phrases(all, sizeof(all), ph, nph);
		if (force)
			fprintf(stderr, "create: overwriting what %s holds (--force): %s\n",
				devs[i], all);
		else
			errmsg("create: %s holds %s; `vraidctl create ... --force` overwrites it",
			       devs[i], all);
	}
	if (holds && !force) {
		if (stopped)
			hintmsg("to bring a stopped virtual drive back instead: vraidctl assemble --scan; to erase its metadata: vraidctl wipe DEV --force");
		hintmsg("`vraidctl create ... --dry-run` shows what each device holds; with --force what they hold is lost");
		rc = RC_FAIL;
	}
out:
	live_free(&l);
	free(ph);
	free(p);
	return rc;
}

/*
 * Before controller journal DEV: a device in use is refused; one that
 * holds anything but a vraid journal (attached as it is) is refused
 * unless @force (which formats even a vraid journal: the module's
 * VRAID_CTRL_FORCE).  A damaged journal superblock is the module's to
 * refuse.  With @dry, say what the attach would do and change nothing.
 * Returns -1 to go on, else the exit code.
 */
static int journal_guard(const char *arg, bool force, bool dry)
{
	char (*ph)[PHRASE] = calloc(MAX_PHRASES, PHRASE);
	char why[PHRASE], all[MAX_PHRASES * PHRASE], sz[32], rs[32], u[40];
	char dev[64];
	struct devprobe p;
	struct live l;
	bool busy;
	size_t nph;
	int rc = -1;

	if (!ph) {
		errmsg("out of memory");
		return RC_FAIL;
	}
	live_load(&l);
	if (probe_dev(&p, arg, false)) {
		rc = RC_FAIL;
		goto out;
	}
	probe_live(&p, &l);
	busy = probe_in_use(&p, &l, why, sizeof(why));
	nph = probe_phrases(&p, true, ph, MAX_PHRASES);
	join_phrases(all, sizeof(all), ph, nph);
	if (dry) {
		printf("controller journal --dry-run: nothing is changed\n");
		printf("Device:         %s, %s\n", arg, human_size(sz, sizeof(sz), p.bytes));
		if (p.kind == PROBE_JOURNAL) {
			uuid_str(u, p.js.sb[p.js.pick].uuid);
			printf("Holds:          a vraid journal (UUID %s)%s%s\n", u,
			       nph ? ", and " : "", all);
		} else if (p.kind == PROBE_BAD_JOURNAL) {
			printf("Holds:          a damaged vraid journal superblock (%s)%s%s\n",
			       p.js.pick_why, nph ? ", and " : "", all);
		} else {
			printf("Holds:          %s\n", nph ? all : "no known signature");
		}
		if (busy)
			printf("Result:         refused: it %s (--force does not override that)\n", why);
		else if (l.ctrl.journal_state != VRAID_JOURNAL_NONE)
			printf("Result:         refused: a journal is attached already (%s%s%u:%u, %s): detach it first\n",
			       blk_dev_name(dev, sizeof(dev), l.ctrl.journal_major,
					    l.ctrl.journal_minor), dev[0] ? ", " : "",
			       l.ctrl.journal_major, l.ctrl.journal_minor,
			       VNAME(journal_states, l.ctrl.journal_state, false));
		else if (nph && !force)
			printf("Result:         refused without --force: formatting it would lose what it holds\n");
		else if (p.kind == PROBE_JOURNAL && !force)
			printf("Result:         it would be attached as it is (writes it holds are replayed as their VDs are assembled)\n");
		else if (p.kind == PROBE_BAD_JOURNAL && !force)
			printf("Result:         the module refuses a damaged journal superblock without --force (which formats it: whatever writes it held are lost)\n");
		else
			printf("Result:         it would be formatted as a new journal, its ring %s%s\n",
			       human_size(rs, sizeof(rs),
					  vraid_jring_blocks(p.bytes / 512) * VRAID_J_BLOCK),
			       nph || p.kind == PROBE_JOURNAL || p.kind == PROBE_BAD_JOURNAL ?
			       ": what it holds is lost" : "");
		rc = busy || l.ctrl.journal_state != VRAID_JOURNAL_NONE ||
		     (nph && !force) || (p.kind == PROBE_BAD_JOURNAL && !force) ?
		     RC_FAIL : RC_OK;
		goto out;
	}
	if (busy) {
		errmsg("controller journal %s: %s %s", arg, arg, why);
		in_use_hint(&p);
		rc = RC_FAIL;
	} else if (nph && !force) {
		errmsg("controller journal %s: %s holds %s; `vraidctl controller journal %s --force` overwrites it",
		       arg, arg, all, arg);
		hintmsg("a journal device is formatted: whatever it holds is lost (`vraidctl controller journal %s --dry-run` shows it)",
			arg);
		rc = RC_FAIL;
	} else if (nph) {
		fprintf(stderr, "controller journal: overwriting what %s holds (--force): %s\n",
			arg, all);
	}
out:
	live_free(&l);
	free(ph);
	return rc;
}

/*
 * replace VD OLD NEW --dry-run: what the replacement would do, on
 * standard output; nothing is sent.  @m is OLD's member entry in @in.
 * Returns 0 if the module would be asked, 1 if it would be refused.
 */
static int replace_dry(const struct vraid_info *in,
		       const struct vraid_member_info *m, const char *old,
		       const char *new, bool force)
{
	char (*ph)[PHRASE] = calloc(MAX_PHRASES, PHRASE);
	char vd[160], sz[32], why[PHRASE], all[MAX_PHRASES * PHRASE];
	uint64_t need = (in->data_offset_sectors + in->member_data_sectors) *
			SECTOR_BYTES;
	struct devprobe p;
	struct live l;
	bool busy, small;
	size_t nph;

	if (!ph) {
		errmsg("out of memory");
		return RC_FAIL;
	}
	if (probe_dev(&p, new, false)) {
		free(ph);
		return RC_FAIL;
	}
	live_load(&l);
	probe_live(&p, &l);
	/* a hot spare may be named: replace takes it out of the spares */
	busy = p.live != LIVE_SPARE && probe_in_use(&p, &l, why, sizeof(why));
	small = p.bytes < need;
	nph = probe_phrases(&p, false, ph, MAX_PHRASES);
	join_phrases(all, sizeof(all), ph, nph);
	printf("replace --dry-run: nothing is changed\n");
	printf("Virtual drive:  %s: %s, %s, %s\n", vd_says(vd, sizeof(vd), in),
	       VNAME(levels, in->level, false),
	       human_size(sz, sizeof(sz), in->size_sectors * SECTOR_BYTES),
	       VNAME(vd_states, in->state, false));
	if (m->state == VRAID_MEMBER_ONLINE)
		printf("Old member:     role %u, %s (Online): failed first and released, the VD runs without it until the rebuild is done (refused if that takes the VD offline%s); its vraid metadata stays on it (`vraidctl wipe` erases it)\n",
		       m->role, old, force ? "; --force fails it all the same" : ", unless --force");
	else
		printf("Old member:     role %u, %s (%s): replaced\n", m->role, old,
		       VNAME(member_states, m->state, false));
	printf("New member:     %s, %s: takes role %u and is rebuilt; ", new,
	       human_size(sz, sizeof(sz), p.bytes), m->role);
	if (nph)
		printf("it holds %s: lost\n", all);
	else
		printf("no known signature on it (its contents are overwritten all the same)\n");
	if (p.live == LIVE_SPARE)
		printf("                it is a hot spare now: it leaves the spares\n");
	if (busy)
		printf("Result:         refused: %s %s\n", new, why);
	else if (small)
		printf("Result:         refused: %s is too small: it needs %llu bytes (the data offset and %s of data)\n",
		       new, (unsigned long long)need,
		       human_size(sz, sizeof(sz), in->member_data_sectors * SECTOR_BYTES));
	else
		printf("Result:         it would be rebuilt onto %s\n", new);
	live_free(&l);
	free(ph);
	return busy || small ? RC_FAIL : RC_OK;
}

/*
 * spare add DEV [--vd VD] --dry-run: what adding the spare would do;
 * @vd is "" for a global spare.  Returns the exit code.
 */
static int spare_dry(const char *dev, const char *vd)
{
	char (*ph)[PHRASE] = calloc(MAX_PHRASES, PHRASE);
	char sz[32], why[PHRASE], all[MAX_PHRASES * PHRASE];
	struct devprobe p;
	struct live l;
	bool busy;
	size_t nph;

	if (!ph) {
		errmsg("out of memory");
		return RC_FAIL;
	}
	if (probe_dev(&p, dev, false)) {
		free(ph);
		return RC_FAIL;
	}
	live_load(&l);
	probe_live(&p, &l);
	busy = probe_in_use(&p, &l, why, sizeof(why));
	nph = probe_phrases(&p, false, ph, MAX_PHRASES);
	join_phrases(all, sizeof(all), ph, nph);
	printf("spare add --dry-run: nothing is changed\n");
	printf("Device:         %s, %s\n", dev, human_size(sz, sizeof(sz), p.bytes));
	printf("Holds:          %s\n", nph ? all : "no known signature");
	if (vd[0])
		printf("Becomes:        a hot spare dedicated to %s: a rebuild that takes it overwrites what it holds\n", vd);
	else
		printf("Becomes:        a global hot spare (for any virtual drive): a rebuild that takes it overwrites what it holds\n");
	if (busy)
		printf("Result:         refused: it %s\n", why);
	else
		printf("Result:         it would be added\n");
	live_free(&l);
	free(ph);
	return busy ? RC_FAIL : RC_OK;
}

/* ---- wipe: erase vraid's metadata from a device ---------------------------- */

/* A block of vraid's that wipe zeroes. */
struct wipe_block {
	uint64_t off;
	size_t len;
	const char *what;
};

/* A copy with vraid's magic, valid or not. */
static bool copy_there(const struct md_copy *c)
{
	return c->status != -ENODATA && c->status != -EIO;
}

/*
 * Every block of @p that carries one of vraid's magics: the metadata
 * copies and the bitmap of a member (on-disk-format.rst), the superblock
 * slots of a journal (a journal's ring, at 1 MiB, may hold an old copy
 * B: that goes too).  Returns how many, into @b (room for 5).
 */
static size_t wipe_blocks(const struct devprobe *p, struct wipe_block *b)
{
	size_t n = 0;

	if (copy_there(&p->copies[0]))
		b[n++] = (struct wipe_block){ VRAID_MD_COPY_A * 512, VRAID_MD_BLOCK,
					      "metadata copy A (byte 4096)" };
	if (p->js.r[0] != -ENODATA)
		b[n++] = (struct wipe_block){ VRAID_J_SB_SECTOR0 * 512, VRAID_J_BLOCK,
					      "journal superblock slot 0 (byte 4096)" };
	if (p->js.r[1] != -ENODATA)
		b[n++] = (struct wipe_block){ VRAID_J_SB_SECTOR1 * 512, VRAID_J_BLOCK,
					      "journal superblock slot 1 (byte 8192)" };
	if (copy_there(&p->copies[1]))
		b[n++] = (struct wipe_block){ VRAID_MD_COPY_B * 512, VRAID_MD_BLOCK,
					      "metadata copy B (byte 1 MiB)" };
	if (p->bitmap)
		b[n++] = (struct wipe_block){ VRAID_BM_SECTOR * 512, VRAID_BM_BYTES,
					      "write-intent bitmap (byte 2 MiB)" };
	return n;
}

/* "A, B and C" of the blocks' names. */
static char *wipe_says(char *buf, size_t bufsz, const struct wipe_block *b,
		       size_t n)
{
	char ph[5][PHRASE];
	size_t k;

	for (k = 0; k < n && k < 5; k++)
		snprintf(ph[k], PHRASE, "%s", b[k].what);
	return join_phrases(buf, bufsz, ph, k);
}

/* Zero the blocks @b of @p->path.  Returns 0 or an errno. */
static int wipe_write(const struct devprobe *p, const struct wipe_block *b,
		      size_t n)
{
	int fl = O_RDWR | O_CLOEXEC | (p->blk ? O_EXCL : 0), fd, e = 0;
	void *zero = NULL;
	size_t k;

	if (posix_memalign(&zero, 4096, VRAID_BM_BYTES))
		return ENOMEM;
	memset(zero, 0, VRAID_BM_BYTES);
	fd = open(p->path, fl | O_DIRECT);
	if (fd < 0 && errno == EINVAL)
		fd = open(p->path, fl);
	if (fd < 0)
		e = errno;
	for (k = 0; !e && k < n; k++)
		if (pwrite(fd, zero, b[k].len, (off_t)b[k].off) != (ssize_t)b[k].len)
			e = errno ? errno : EIO;
	if (!e && fsync(fd))
		e = errno;
	if (fd >= 0 && close(fd) && !e)
		e = errno;
	free(zero);
	return e;
}

/* wipe DEV [--force] [--dry-run] */
static int cmd_wipe(int argc, char **argv)
{
	char (*ph)[PHRASE] = NULL;
	char why[PHRASE], all[MAX_PHRASES * PHRASE], blocks[5 * PHRASE], sz[32];
	struct wipe_block b[5];
	struct devprobe p, q;
	const char *pos[1];
	bool force, dry, busy;
	struct live l;
	size_t npos, nb, nph;
	int rc, e;

	force = take_flag(&argc, argv, "--force");
	dry = take_flag(&argc, argv, "--dry-run");
	rc = parse_args("wipe", argc, argv, NULL, NULL, NULL, pos, 1, &npos);
	if (rc >= 0)
		return rc;
	if (npos != 1)
		return usage_error("wipe", npos ? "name one device only" :
				   "name the device to erase vraid's metadata from (e.g. /dev/sdc)");
	if (probe_dev(&p, pos[0], true))
		return RC_FAIL;
	if (p.err) {
		errmsg("%s: %s", pos[0], strerror(p.err));
		if (p.err == EACCES || p.err == EPERM)
			hintmsg("run as root");
		return RC_FAIL;
	}
	ph = calloc(MAX_PHRASES, PHRASE);
	if (!ph) {
		errmsg("out of memory");
		return RC_FAIL;
	}
	live_load(&l);
	probe_live(&p, &l);
	busy = probe_in_use(&p, &l, why, sizeof(why));
	nb = wipe_blocks(&p, b);
	wipe_says(blocks, sizeof(blocks), b, nb);
	q = p;
	q.nhits = 0;		/* vraid's own, not what else it holds */
	nph = probe_phrases(&q, false, ph, MAX_PHRASES);
	join_phrases(all, sizeof(all), ph, nph);
	rc = RC_FAIL;
	if (dry) {
		printf("wipe --dry-run: nothing is changed\n");
		printf("Device:         %s, %s\n", pos[0], human_size(sz, sizeof(sz), p.bytes));
		printf("Holds:          %s\n", nph ? all : "no vraid metadata");
		if (nb)
			printf("Erases:         %s (zeroed)\n", blocks);
		if (busy)
			printf("Result:         refused: it %s\n", why);
		else if (!nb)
			printf("Result:         nothing to erase\n");
		else if (!force)
			printf("Result:         refused without --force\n");
		else
			printf("Result:         it would be erased\n");
		rc = busy || (nb && !force) ? RC_FAIL : RC_OK;
		goto out;
	}
	if (busy) {
		errmsg("wipe %s: %s %s", pos[0], pos[0], why);
		in_use_hint(&p);
		goto out;
	}
	if (!nb) {
		printf("%s: no vraid metadata: nothing to erase\n", pos[0]);
		rc = RC_OK;
		goto out;
	}
	if (!force) {
		errmsg("wipe %s: refused without --force: it holds %s; `vraidctl wipe %s --force` erases it: %s",
		       pos[0], all, pos[0], blocks);
		if (p.kind == PROBE_MEMBER && !p.vd)
			hintmsg("that virtual drive can then no longer be assembled from %s; to bring it back instead: vraidctl assemble --scan",
				pos[0]);
		else
			hintmsg("`vraidctl wipe %s --dry-run` shows what would be erased", pos[0]);
		goto out;
	}
	e = wipe_write(&p, b, nb);
	if (e) {
		errmsg("wipe %s: cannot erase it: %s", pos[0], strerror(e));
		if (e == EBUSY)
			hintmsg("another opener holds it exclusively: see lsblk and /proc/mdstat");
		goto out;
	}
	probe_dev(&q, pos[0], true);
	if (wipe_blocks(&q, b)) {
		errmsg("wipe %s: vraid's metadata is still there after it was zeroed (a device that drops writes?)",
		       pos[0]);
		goto out;
	}
	printf("%s: vraid metadata erased: %s zeroed\n", pos[0], blocks);
	rc = RC_OK;
out:
	live_free(&l);
	free(ph);
	return rc;
}

/* A journal --scan found. */
struct scan_journal {
	char path[64];
	struct vraid_jsb sb;
	char vd[40];		/* a VD whose metadata names it ("": none) */
	const char *vd_dev;	/* a member of that VD */
};

/* "/dev/X (UUID u, why)" for the ambiguous-journal list. */
static void scan_journal_says(const struct scan_journal *j, char *buf,
			      size_t bufsz)
{
	char u[40];

	uuid_str(u, j->sb.uuid);
	if (j->vd[0])
		snprintf(buf, bufsz, "%s (UUID %s, named by the metadata of VD %s on %s)",
			 j->path, u, j->vd, j->vd_dev);
	else
		snprintf(buf, bufsz, "%s (UUID %s, %s)", j->path, u,
			 j->sb.flags & VRAID_J_SB_RELEASED ?
			 "released by `controller journal none`" :
			 "attached before the module was unloaded or the machine stopped");
}

/*
 * assemble --scan, before the VDs: attach the journal the scan found, if
 * none is attached and exactly one fits, preferring one that the metadata
 * of a VD found names (its writes wait there for replay) over one that
 * was merely attached before (not released by `controller journal none`).
 * Returns RC_OK, or RC_FAIL when the attach itself failed.
 */
static int scan_attach_journal(struct ctl *c, struct scan_journal *jc,
			       size_t njc, char paths[][64],
			       const struct vraid_md *mds, const int *kinds,
			       size_t nd)
{
	struct scan_journal *pick[16];
	struct vraid_controller req;
	struct vraid_member_ref ref;
	size_t k, i, npick = 0;
	char u[40], what[160], says[256];
	bool named = false;
	int e;

	if (!njc)
		return RC_OK;
	memset(&req, 0, sizeof(req));
	req.action = VRAID_CTRL_SHOW;
	/* a module without the journal: nothing to attach to */
	if (ctl_ioctl(c, VRAID_IOC_CONTROLLER, &req, sizeof(req)) ||
	    !journal_abi(&req) || req.journal_state != VRAID_JOURNAL_NONE)
		return RC_OK;
	for (k = 0; k < njc; k++)
		for (i = 0; i < nd && !jc[k].vd[0]; i++)
			if (kinds[i] == PROBE_MEMBER &&
			    (mds[i].cache_flags & VRAID_MD_CF_JOURNAL) &&
			    !memcmp(mds[i].journal_uuid, jc[k].sb.uuid,
				    VRAID_J_UUID_LEN)) {
				/* its name, else its UUID */
				if (mds[i].name[0])
					tty_str(jc[k].vd, sizeof(jc[k].vd),
						mds[i].name, sizeof(mds[i].name));
				else
					uuid_str(jc[k].vd, mds[i].vd_uuid);
				jc[k].vd_dev = paths[i];
				named = true;
			}
	for (k = 0; k < njc && npick < ARRAY_SIZE(pick); k++)
		if (named ? !!jc[k].vd[0] : !(jc[k].sb.flags & VRAID_J_SB_RELEASED))
			pick[npick++] = &jc[k];
	for (k = 0; k < njc; k++)
		if (!named && (jc[k].sb.flags & VRAID_J_SB_RELEASED)) {
			uuid_str(u, jc[k].sb.uuid);
			printf("%s: vraid journal %s, released by `vraidctl controller journal none`: left detached (`vraidctl controller journal %s` attaches it)\n",
			       jc[k].path, u, jc[k].path);
		}
	if (!npick)
		return RC_OK;
	if (npick > 1) {
		errmsg("found %zu vraid journals that could be this controller's and attached none, as it cannot tell which:",
		       npick);
		for (k = 0; k < npick; k++) {
			scan_journal_says(pick[k], says, sizeof(says));
			errmsg("  %s", says);
		}
		hintmsg("attach the right one with `vraidctl controller journal DEV`, then run `vraidctl assemble --scan` again%s",
			named ? " (the VDs whose writes wait in it are refused until then)" : "");
		return RC_OK;
	}
	if (member_ref(pick[0]->path, &ref))
		return RC_FAIL;
	memset(&req, 0, sizeof(req));
	req.action = VRAID_CTRL_JOURNAL_ATTACH;
	req.major = ref.major;
	req.minor = ref.minor;
	e = ctl_ioctl(c, VRAID_IOC_CONTROLLER, &req, sizeof(req));
	if (e) {
		snprintf(what, sizeof(what), "assemble --scan: attaching the journal %s",
			 pick[0]->path);
		report(c, what, e, &req.hdr, CTX_CONTROLLER);
		journal_refused(c, &req, e);
		return RC_FAIL;
	}
	uuid_str(u, req.journal_uuid);
	if (pick[0]->vd[0])
		printf("%s: journal %s attached: the metadata of VD %s (%s) says it may hold writes of that VD, to replay at assembly\n",
		       pick[0]->path, u, pick[0]->vd, pick[0]->vd_dev);
	else
		printf("%s: journal %s attached again: it was attached before the module was unloaded or the machine stopped (not released by `vraidctl controller journal none`)\n",
		       pick[0]->path, u);
	if (memcmp(req.journal_uuid, pick[0]->sb.uuid, VRAID_J_UUID_LEN))
		errmsg("warning: the module reports journal UUID %s for %s, not the one its superblock held",
		       u, pick[0]->path);
	if (req.journal_state == VRAID_JOURNAL_REPLAY_PENDING)
		printf("%s: it holds acknowledged writes of %u virtual drive%s: they are replayed as %s assembled\n",
		       pick[0]->path, req.journal_pending,
		       req.journal_pending == 1 ? "" : "s",
		       req.journal_pending == 1 ? "it is" : "they are");
	journal_small(&req, pick[0]->path);
	return RC_OK;
}

static int assemble_one(struct ctl *c, const char *const *devs, size_t n,
			bool scan, uint32_t flags)
{
	struct vraid_assemble req;
	char what[64];
	size_t i;
	int e;

	memset(&req, 0, sizeof(req));
	req.nr_devices = (uint32_t)n;
	req.asm_flags = flags;
	for (i = 0; i < n; i++)
		if (member_ref(devs[i], &req.devices[i]))
			return RC_FAIL;
	e = ctl_ioctl(c, VRAID_IOC_ASSEMBLE, &req, sizeof(req));
	if (e == EBUSY && scan) {
		printf("%s%s: in use, skipped (already assembled?)\n", devs[0],
		       n > 1 ? " ..." : "");
		return RC_OK;
	}
	if (e) {
		snprintf(what, sizeof(what), "assemble %s%s", devs[0],
			 n > 1 ? " ..." : "");
		report(c, what, e, &req.hdr, CTX_OTHER);
		if ((flags & VRAID_ASM_NO_JOURNAL) && e == EINVAL && c->replied &&
		    req.hdr.version_major == VRAID_ABI_MAJOR &&
		    req.hdr.version_minor < ABI_MINOR_JOURNAL)
			hintmsg("the vraid module speaks ABI %d.%d, which has no journal and no --no-journal: leave --no-journal out, or load the module built with this vraidctl",
				req.hdr.version_major, req.hdr.version_minor);
		else if (!(flags & VRAID_ASM_NO_JOURNAL) && c->replied &&
			 strstr(req.hdr.message, "journal"))
			hintmsg("attach the journal first (`vraidctl controller journal DEV`; `vraidctl controller` shows the one attached), then assemble again: the writes are replayed; --no-journal assembles without them (they are lost)");
		return RC_FAIL;
	}
	printf("%s: assembled%s%s, %u of %zu device%s used",
	       req.disk_name, req.name[0] ? " " : "", req.name, req.nr_used, n,
	       n == 1 ? "" : "s");
	if (req.nr_stale)
		printf(", %u stale (left out)", req.nr_stale);
	putchar('\n');
	/* a module before ABI 1.10 leaves them 0: it says so in its log */
	if (req.hdr.version_minor >= ABI_MINOR_REPLAY_COUNTS &&
	    (req.replayed || req.replay_parity)) {
		printf("%s: replayed %u write%s and %u parity record%s from the controller journal",
		       req.disk_name, req.replayed,
		       req.replayed == 1 ? "" : "s", req.replay_parity,
		       req.replay_parity == 1 ? "" : "s");
		if (req.replay_superseded)
			printf(" (%u logged 4 KiB block%s superseded by later writes around the cache, not replayed there)",
			       req.replay_superseded,
			       req.replay_superseded == 1 ? "" : "s");
		putchar('\n');
	}
	return RC_OK;
}

static int cmd_assemble(int argc, char **argv)
{
	const char *pos[VRAID_MAX_MEMBERS];
	bool scan = false, nojournal = false;
	uint32_t flags = 0;
	size_t npos;
	struct ctl c;
	int i, j, rc;

	for (i = j = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (!strcmp(argv[i], "--scan"))
			scan = true;
		else if (!strcmp(argv[i], "--no-journal"))
			nojournal = true;
		else
			argv[j++] = argv[i];
	}
	while (i < argc)
		argv[j++] = argv[i++];
	argc = j;
	rc = parse_args("assemble", argc, argv, NULL, NULL, NULL, pos,
			ARRAY_SIZE(pos), &npos);
	if (rc >= 0)
		return rc;
	if (scan == !!npos)
		return usage_error("assemble", "give either --scan or the member devices of one VD");
	if (npos > VRAID_MAX_MEMBERS)
		return usage_error("assemble", "at most %u devices", VRAID_MAX_MEMBERS);
	if (nojournal) {
		flags |= VRAID_ASM_NO_JOURNAL;
		errmsg("warning: --no-journal: a VD whose acknowledged writes are in a journal that is not attached is assembled without them: those writes are lost (its data is what the members hold)");
	}
	if (!ctl_open(&c, true))
		return RC_FAIL;
	if (!scan) {
		rc = assemble_one(&c, pos, npos, false, flags);
		close(c.fd);
		return rc;
	}

	/*
	 * --scan: every block device; a journal first (unless --no-journal),
	 * then the members, grouped by the VD their metadata names.
	 */
	{
		static char paths[512][64];
		static struct vraid_md mds[512];
		static int kinds[512];
		static bool done[512];
		struct scan_journal jc[16];
		const char *group[VRAID_MAX_MEMBERS];
		size_t nd = 0, njc = 0, k, g, ng, failed = 0, found = 0;
		struct vraid_jsb sb;
		struct dirent *de;
		DIR *d = opendir("/sys/class/block");

		if (!d) {
			errmsg("/sys/class/block: %s", strerror(errno));
			close(c.fd);
			return RC_FAIL;
		}
		while ((de = readdir(d)) && nd < ARRAY_SIZE(paths)) {
			if (de->d_name[0] == '.' ||
			    !strncmp(de->d_name, VRAID_DISK_PREFIX, strlen(VRAID_DISK_PREFIX)))
				continue;
			if (strlen(de->d_name) > sizeof(paths[nd]) - 6)
				continue;
			snprintf(paths[nd], sizeof(paths[nd]), "/dev/%.*s",
				 (int)sizeof(paths[nd]) - 6, de->d_name);
			kinds[nd] = scan_probe(paths[nd], &mds[nd], &sb);
			/*
			 * A member under dm or md (a dm-linear over the whole
			 * disk shows the same metadata): its holder is the
			 * member.  One under a running VD is reported below.
			 */
			if (kinds[nd] == PROBE_MEMBER &&
			    has_holders_but(de->d_name, true))
				continue;
			if (kinds[nd] == PROBE_MEMBER) {
				done[nd++] = false;
				continue;
			}
			/* a journal is never a member; one under dm/md: its holder */
			if (kinds[nd] == PROBE_NONE || has_holders(de->d_name))
				continue;
			if (kinds[nd] == PROBE_BAD_JOURNAL) {
				errmsg("%s: damaged vraid journal superblock: not attached (see `vraidctl examine %s`)",
				       paths[nd], paths[nd]);
				continue;
			}
			if (njc < ARRAY_SIZE(jc)) {
				memset(&jc[njc], 0, sizeof(jc[njc]));
				memcpy(jc[njc].path, paths[nd], sizeof(jc[njc].path));
				jc[njc++].sb = sb;
			}
		}
		closedir(d);
		if (!nojournal &&
		    scan_attach_journal(&c, jc, njc, paths, mds, kinds, nd))
			failed++;
		for (k = 0; k < nd; k++) {
			if (done[k])
				continue;
			for (g = k, ng = 0; g < nd; g++) {
				if (done[g] || memcmp(mds[g].vd_uuid, mds[k].vd_uuid, 16))
					continue;
				if (ng < ARRAY_SIZE(group))
					group[ng++] = paths[g];
				done[g] = true;
			}
			found++;
			rc = assemble_one(&c, group, ng, true, flags);
			if (rc == RC_FAIL)
				failed++;
		}
		close(c.fd);
		if (!found)
			printf("no vraid metadata found on any block device\n");
		return failed ? RC_FAIL : RC_OK;
	}
}

static int cmd_help(int argc, char **argv);

static const struct command commands[] = {
	{ "create", cmd_create,
	  "vraidctl create --level jbod|0|1|5|6|10|50|60 [--strip SIZE] [--spans N] [--name NAME] [--init fast|background|full] [--access rw|ro|blocked] [--disk-cache on|off|default] [--read-policy ra|nora] [--write-policy wt|wb|awb] [--io-policy direct|cached] [--force] [--dry-run] DEV...",
	  "Build a virtual drive from the block devices DEV... (in role order 0, 1, ...)\n"
	  "and print its name, e.g. vraid0.  The first 8 MiB of every member are\n"
	  "reserved for vraid's metadata and data starts after them; whatever the\n"
	  "members held is lost.  First vraidctl looks at each DEV: one in use (a\n"
	  "member of a running VD, a hot spare, the controller's journal, or held\n"
	  "by another opener: mounted, md, dm, LVM) is refused; so is, unless\n"
	  "--force is given, one that holds something vraidctl knows: vraid\n"
	  "metadata (a member of a stopped VD, a stale or damaged one), a vraid\n"
	  "journal, a partition table (MBR, GPT), a file system or volume (ext2/3/4,\n"
	  "XFS, Btrfs, FAT, NTFS, swap, LVM2, LUKS) or an md superblock (0.90,\n"
	  "1.0, 1.1, 1.2).  The VD's metadata is written there: after a reboot\n"
	  "or `vraidctl stop`, `vraidctl assemble` brings it back.  The name is the\n"
	  "only thing printed on standard output (vd=$(vraidctl create ...) works);\n"
	  "notes on the initialisation and its progress go to standard error.\n\n"
	  "  --level LEVEL  jbod (one member), 0, 1, 5, 6, 10, 50 or 60; raid5 and RAID5\n"
	  "                 are accepted too.  The module says which levels it supports.\n"
	  "  --strip SIZE   strip (chunk) size on each member: a power of two from 4K to\n"
	  "                 1M; default 64K.  SIZE is bytes, or has a K, KiB, M or MiB\n"
	  "                 suffix (binary units).  Not for jbod.\n"
	  "  --spans N      RAID50/RAID60 only: number of RAID5/RAID6 spans; the members\n"
	  "                 are split evenly, in order, into the spans\n"
	  "  --name NAME    label (up to 31 letters, digits, '.', '_', '-'); the VD can\n"
	  "                 then be named by it in delete and show\n"
	  "  --init MODE    how a redundant VD (raid1, 5, 6, 10, 50, 60) makes its\n"
	  "                 parity or copies consistent:\n"
	  "                   background  (the default) a job does it while the VD is\n"
	  "                               in use; follow it with `vraidctl show`\n"
	  "                   full        the same job, and vraidctl waits for it to\n"
	  "                               finish, showing its progress, like\n"
	  "                               `vraidctl wait`; exits 1 if it fails\n"
	  "                   fast        none: the members are trusted as they are\n"
	  "                               (e.g. all zeros); `vraidctl init` later\n"
	  "                 Not for jbod and raid0, which have nothing to initialise.\n"
	  "  --force        overwrite what the members hold (never a device in use)\n"
	  "  --dry-run      show the VD (level, members, size) and what each member\n"
	  "                 holds that would be lost; change nothing; exit 0 if the\n"
	  "                 create would go ahead, 1 if it would be refused\n"
	  "  -h, --help     show this help\n\n"
	  "Policies (as `vraidctl set` changes them later; the default first):\n"
	  "  --access rw|ro|blocked       read-write, read-only, or no I/O at all\n"
	  "  --disk-cache default|on|off  the members' own write caches: as the devices\n"
	  "                               are set; used; or not relied on (every write\n"
	  "                               is forced to the media)\n"
	  "  --read-policy nora|ra        no read-ahead, or read-ahead\n"
	  "  --write-policy wt|wb|awb     write-through; write-back while the journal\n"
	  "                               (the \"battery\") is healthy; always write-back\n"
	  "  --io-policy direct|cached    direct I/O, or through the controller cache\n"
	  "  awb completes writes once they are in the controller cache, which is\n"
	  "  volatile: a power loss loses writes not yet flushed (a flush, sync or\n"
	  "  fsync, writes them to the members); a module before ABI 1.8 refuses it\n"
	  "  (EOPNOTSUPP, exit 1).  wb completes writes once they are in the\n"
	  "  controller's journal (`vraidctl controller journal DEV`), which keeps\n"
	  "  them through a power loss; without a healthy journal it writes through\n"
	  "  (show: \"Write in effect\").\n"
	  "  cached keeps what reads bring in the controller cache (stats: hits);\n"
	  "  ra reads ahead of sequential reads into it (stats: read-ahead).\n\n"
	  "example: vraidctl create --level 0 --strip 128K --name scratch /dev/nvme0n1 /dev/nvme1n1\n"
	  "         vraidctl create --level 5 --init full /dev/sdb /dev/sdc /dev/sdd\n"
	  "         vraidctl create --level 1 --disk-cache off /dev/sdb /dev/sdc\n" },
	{ "delete", cmd_delete, "vraidctl delete VD --force | delete VD --dry-run",
	  "Stop and remove the virtual drive VD (given as vraid0, /dev/vraid0, 0 or its\n"
	  "name) and erase its metadata from the members, so it cannot be assembled\n"
	  "again.  It must not be open (mounted, or held by a program).  The data on\n"
	  "the members is left as it is.  What the controller cache holds dirty for\n"
	  "the VD is written to the members first.\n\n"
	  "  --force    needed: without it delete only says what it would destroy\n"
	  "             (the VD, its name, level, size and members) and exits 1;\n"
	  "             with it, dirty cache data the members cannot take (a\n"
	  "             member error) is discarded rather than keeping the VD\n"
	  "  --dry-run  say what delete would destroy and whether it would be\n"
	  "             refused; change nothing\n"
	  "  -h, --help show this help\n" },
	{ "stop", cmd_stop, "vraidctl stop VD [--force]",
	  "Stop the virtual drive VD but keep it: its metadata is marked clean and\n"
	  "`vraidctl assemble` brings it back.  It must not be open.  What the\n"
	  "controller cache holds dirty for the VD is written to the members first;\n"
	  "if that fails (a member error), the stop is refused (EIO) and the VD keeps\n"
	  "running with its dirty data: fix the member and stop it again.\n\n"
	  "  --force    discard the dirty cache data the members cannot take and\n"
	  "             stop all the same: those writes are lost (says how much);\n"
	  "             a module before ABI 1.11 cannot, and stops as without it\n"
	  "  -h, --help show this help\n" },
	{ "assemble", cmd_assemble, "vraidctl assemble [--no-journal] --scan | DEV...",
	  "Bring virtual drives up again from the metadata on their members (after a\n"
	  "reboot, a module reload, or on another machine).  With DEV..., the devices\n"
	  "of one VD; with --scan, every block device is examined and each VD found\n"
	  "is assembled.  The newest generation wins: devices with older metadata are\n"
	  "stale and left out; roles no device fills are missing, and the VD starts\n"
	  "Degraded if its level allows it, otherwise not at all.  A VD whose name is\n"
	  "taken gets a suffix (-2, -3, ...).\n\n"
	  "A write-back VD (write-policy=wb) whose metadata says the controller's\n"
	  "journal may hold writes it acknowledged (after a crash or power loss)\n"
	  "needs that journal, and the assembly replays those writes before the VD\n"
	  "goes live; without it the assembly is refused.  After a crash:\n"
	  "vraidctl assemble --scan (it finds and attaches the journal), or with\n"
	  "named devices: vraidctl controller journal DEV, then vraidctl assemble\n"
	  "DEV....\n\n"
	  "--scan attaches the journal it finds first, unless one is attached or\n"
	  "--no-journal is given: the one the metadata of a VD found names (its\n"
	  "writes wait there), else one attached before the module was unloaded or\n"
	  "the machine stopped, never one released by `controller journal none`;\n"
	  "with several to choose from it attaches none and lists them.  It says\n"
	  "what it attached and why.  A journal device is never taken as a member.\n\n"
	  "  --scan        find and assemble every VD whose members are present\n"
	  "  --no-journal  assemble even though the journal holding writes of the\n"
	  "                VD is not attached: those writes are LOST (the data is\n"
	  "                what the members hold); a module before ABI 1.9 refuses it\n"
	  "  -h, --help    show this help\n" },
	{ "examine", cmd_examine, "vraidctl examine DEV [--json]",
	  "Show what the vraid metadata on the block device DEV says: both copies\n"
	  "(A at 4 KiB, B at 1 MiB) and whether they are valid, and the virtual drive\n"
	  "they describe: UUID, name, level, geometry, this device's role and the\n"
	  "member table.  On a journal device (`vraidctl controller journal DEV`):\n"
	  "both superblock slots (at 4 KiB and 8 KiB), the journal's UUID, ring size,\n"
	  "generation, creation time, tail, flags (DETACHED: detached cleanly;\n"
	  "RELEASED: by `controller journal none`) and whether it is attached.\n"
	  "Exits 1 if DEV holds neither valid vraid metadata nor a valid journal\n"
	  "superblock.\n\n"
	  "  --json     one line of JSON (keys: device copies vd_uuid name level\n"
	  "             nr_members role strip_bytes spans size_bytes member_data_bytes\n"
	  "             data_offset_bytes generation created clean members; for a\n"
	  "             journal: device type slots uuid generation created ring_bytes\n"
	  "             ring_blocks tail_block tail_seq flags detached released\n"
	  "             attached attached_device journal_state)\n"
	  "  -h, --help show this help\n" },
	{ "wipe", cmd_wipe, "vraidctl wipe DEV [--force] [--dry-run]",
	  "Erase vraid's metadata from the block device DEV (or an image file), as\n"
	  "`mdadm --zero-superblock` does md's: a member's two metadata copies (byte\n"
	  "4096 and 1 MiB) and its write-intent bitmap (byte 2 MiB), a controller\n"
	  "journal's two superblock slots (byte 4096 and 8192).  Only the blocks\n"
	  "that carry vraid's magic are zeroed; the rest of DEV is left as it is.\n"
	  "Then `vraidctl examine DEV` finds no vraid metadata and `vraidctl\n"
	  "assemble --scan` passes DEV by.  For the devices `delete` leaves behind\n"
	  "(a replaced, stale or missing member), or a member of a stopped VD you\n"
	  "will not assemble again.  Refused for a device in use: a member of a\n"
	  "running VD (named), the attached journal, a hot spare, or one another\n"
	  "opener holds exclusively (mounted, md, dm).\n\n"
	  "  --force    needed to erase: without it wipe says what it would erase\n"
	  "             and exits 1\n"
	  "  --dry-run  say what it would erase; change nothing\n"
	  "  -h, --help show this help\n\n"
	  "example: vraidctl wipe /dev/sdc --dry-run\n" },
	{ "fail", cmd_fail, "vraidctl fail VD DEV [--force]",
	  "Mark the member DEV of the virtual drive VD failed, as if it had died: vraid\n"
	  "stops using it and the VD runs Degraded on its redundancy.  Refused if the VD\n"
	  "would go Offline (more failed members than its level tolerates) unless\n"
	  "--force is given.\n\n"
	  "  --force    fail the member even if that takes the VD offline\n"
	  "  -h, --help show this help\n\n"
	  "example: vraidctl fail vraid0 /dev/sdc\n" },
	{ "replace", cmd_replace, "vraidctl replace VD OLD NEW [--force] [--dry-run]",
	  "Rebuild the member OLD of the virtual drive VD onto the device NEW, which\n"
	  "takes OLD's role at once (state Rebuilding: written, not read, until the\n"
	  "rebuild is done).  An online OLD is failed first and released.  OLD is a\n"
	  "member's device, its MAJ:MIN as `vraidctl show` lists it, or role:N for a\n"
	  "member that has no device (missing after an assembly).  NEW must not be\n"
	  "in use; a hot spare may be named.  Refused if failing OLD would take the\n"
	  "VD offline, unless --force is given.  Follow the rebuild with\n"
	  "`vraidctl wait VD`.\n\n"
	  "  --force    fail an online OLD even if the VD goes offline\n"
	  "  --dry-run  show the VD, OLD, and NEW with what it holds that the\n"
	  "             rebuild overwrites; change nothing (exit 1 if NEW is in\n"
	  "             use or too small)\n"
	  "  -h, --help show this help\n\n"
	  "examples: vraidctl replace vraid0 /dev/sdc /dev/sdf\n"
	  "          vraidctl replace vraid0 role:2 /dev/sdf\n" },
	{ "spare", cmd_spare,
	  "vraidctl spare add DEV [--vd VD] [--dry-run] | spare remove DEV | spare list [--json]",
	  "Manage hot spares: devices vraid rebuilds onto by itself when a member of a\n"
	  "redundant virtual drive fails.  A global spare serves any VD; one added with\n"
	  "--vd only that VD.\n\n"
	  "  add DEV      make DEV a hot spare (DEV must not be in use)\n"
	  "  remove DEV   stop using DEV as a hot spare\n"
	  "  list         the hot spares: DEVICE, MAJ:MIN, SIZE and FOR (the VD it is\n"
	  "               dedicated to, or global)\n"
	  "  --vd VD      (add) dedicate the spare to the virtual drive VD\n"
	  "  --dry-run    (add) show DEV, what it holds (a rebuild that takes it\n"
	  "               overwrites that) and whether it would be added; change\n"
	  "               nothing\n"
	  "  --json       (list) one line of JSON: {\"spares\":[{\"device\":\"/dev/sde\",\n"
	  "               \"major\":N,\"minor\":N,\"size_bytes\":N,\"vd\":\"vraid0\" or \"\"}]}\n"
	  "  -h, --help   show this help\n\n"
	  "example: vraidctl spare add /dev/sdf --vd vraid0\n" },
	{ "check", cmd_check, "vraidctl check VD [--repair] [--wait]",
	  "Start a consistency check of the redundant virtual drive VD: its parity or\n"
	  "copies are read and compared, and the blocks that do not match are counted\n"
	  "(see `vraidctl show VD`).  One job runs on a VD at a time.\n\n"
	  "  --repair   also rewrite the blocks that do not match\n"
	  "  --wait     wait for the check to finish, like `vraidctl wait`\n"
	  "  -h, --help show this help\n" },
	{ "init", cmd_init, "vraidctl init VD [--wait]",
	  "(Re)initialise the redundant virtual drive VD: a background job makes its\n"
	  "parity or copies consistent, as `create --init background` does.\n\n"
	  "  --wait     wait for it to finish, like `vraidctl wait`\n"
	  "  -h, --help show this help\n" },
	{ "job", cmd_job, "vraidctl job VD pause|resume|stop|rate RATE",
	  "Control the background job (init, rebuild, check, repair, resync) of the\n"
	  "virtual drive VD.\n\n"
	  "  pause      pause it; `vraidctl wait` keeps waiting\n"
	  "  resume     resume a paused job, or go on with an init or rebuild that\n"
	  "             was stopped\n"
	  "  stop       stop it; a stopped init or rebuild goes on with `resume` or\n"
	  "             when the VD is next assembled, a check or repair is over\n"
	  "  rate RATE  limit the job to RATE bytes per second on each member: a whole\n"
	  "             number with a K, M or G suffix (binary units), e.g. 200K, 50M\n"
	  "             or 1G; at least 1K, at most 16G; none or 0 for no limit.  Kept\n"
	  "             for later jobs too.\n"
	  "  -h, --help show this help\n\n"
	  "example: vraidctl job vraid0 rate 50M\n" },
	{ "wait", cmd_wait, "vraidctl wait VD [--timeout SECONDS]",
	  "Wait until the virtual drive VD runs no background job, showing its\n"
	  "progress (redrawn in place on a terminal, otherwise a line every 10 s), then\n"
	  "say how it ended: \"vraid0: check done, 3 mismatches\".  A paused job is\n"
	  "waited for too.  With no job running, says how the last one ended and\n"
	  "returns at once.  Exits 1 if the job (or, with none running, the last\n"
	  "one) failed or was stopped, or on a timeout.\n\n"
	  "  --timeout SECONDS  give up after SECONDS (e.g. 600 or 2.5)\n"
	  "  -h, --help         show this help\n" },
	{ "list", cmd_list, "vraidctl list [--json]",
	  "List the virtual drives: VD, NAME, LEVEL, STATE, SIZE, STRIP, MEMBERS and\n"
	  "JOB (the background job and its progress, e.g. \"rebuild 42%\").\n\n"
	  "  --json     one line of JSON: {\"vds\":[{\"vd\":\"vraid0\",\"index\":0,\"name\":\"...\",\n"
	  "             \"level\":\"raid0\",\"state\":\"optimal\",\"size_bytes\":N,\"strip_bytes\":N,\n"
	  "             \"members\":N,\"job\":\"none\",\"job_percent\":0.0}]}\n"
	  "  -h, --help show this help\n" },
	{ "show", cmd_show, "vraidctl show VD [--json]",
	  "Show the virtual drive VD (given as vraid0, /dev/vraid0, 0 or its name): its\n"
	  "geometry, state, policies, background job and the last job that finished,\n"
	  "and a table of its members with their I/O counts.\n\n"
	  "  --json     one line of JSON (keys: vd index device name level state size_bytes\n"
	  "             strip_bytes spans full_stripe_bytes data_offset_bytes\n"
	  "             member_data_bytes logical_block_size open_count policies members\n"
	  "             job last_job)\n"
	  "  -h, --help show this help\n" },
	{ "stats", cmd_stats,
	  "vraidctl stats VD [--json] [--watch [--interval SECS] [--count N]]",
	  "Show the I/O counters of the virtual drive VD: reads and writes (I/Os and\n"
	  "bytes), flushes and I/Os in flight as the block layer counts them for\n"
	  "/dev/vraidN, read errors vraid repaired from redundancy, and per member the\n"
	  "I/Os vraid sent, the bytes the member device counted and its errors.\n"
	  "Counted since the VD was created or assembled.  With --watch, a report\n"
	  "every interval of what happened during it, as rates, until interrupted.\n"
	  "The cache line: 4 KiB pages of reads answered from the controller cache\n"
	  "(hits) and of reads that looked it up and were not answered (misses):\n"
	  "reads of whole 4 KiB pages up to 1 MiB look it up with io-policy=cached\n"
	  "or read-policy=ra, and with io-policy=cached those up to 128 KiB fill\n"
	  "it.  Then read-ahead: the pages of reads answered from pages it brought\n"
	  "in (hits, counted above too) and the pages read ahead (read-policy=ra);\n"
	  "left out with a module that has no read-ahead counters.  Then\n"
	  "write-back (write-policy=awb, wb with a healthy journal, or once it\n"
	  "wrote into the cache): what the VD wrote into the cache and is not on\n"
	  "its members yet (dirty), the 4 KiB pages written into it and those\n"
	  "written from it to the members (destaged), and on disks the pages read\n"
	  "to complete parity rows before destaging them whole (row fill), and the\n"
	  "writes that waited for destage (the cache's dirty bound) or for the\n"
	  "journal (its bound on pages not logged yet), once there were any; left\n"
	  "out with a module that has no write-back counters.  Last, what the VD\n"
	  "holds in the cache.  All the VDs' dirty data and the journal:\n"
	  "`vraidctl controller`.\n\n"
	  "  --watch          report rates every interval (like iostat)\n"
	  "  --interval SECS  seconds between reports, 0.1 to 86400 (default 2)\n"
	  "  --count N        stop after N reports\n"
	  "  --json           one line of JSON per report (keys without --watch: vd\n"
	  "                   index level state reads read_bytes writes write_bytes\n"
	  "                   flushes in_flight read_repairs cache members; with\n"
	  "                   --watch: vd time interval state reads_per_s writes_per_s\n"
	  "                   read_bytes_per_s write_bytes_per_s flushes_per_s\n"
	  "                   in_flight read_repairs cache members); cache: read_hits\n"
	  "                   read_misses cached_bytes ra_hits ra_pages dirty_bytes\n"
	  "                   write_pages destaged_pages journal_writes\n"
	  "                   journal_pages journal_refs fill_pages dirty_waits\n"
	  "                   journal_waits (with --watch:\n"
	  "                   read_hits_per_s read_misses_per_s cached_bytes\n"
	  "                   ra_hits_per_s ra_pages_per_s dirty_bytes\n"
	  "                   write_pages_per_s destaged_pages_per_s\n"
	  "                   journal_writes_per_s journal_pages_per_s\n"
	  "                   journal_refs_per_s fill_pages_per_s\n"
	  "                   dirty_waits_per_s journal_waits_per_s), null from\n"
	  "                   a module without cache counters; the ra_ ones null\n"
	  "                   from a module without read-ahead counters, the\n"
	  "                   write-back ones from one without write-back counters\n"
	  "  -h, --help       show this help\n\n"
	  "example: vraidctl stats vraid0 --watch --interval 1\n" },
	{ "set", cmd_set, "vraidctl set VD KEY=VALUE...",
	  "Change policies of the virtual drive VD while it runs; the module records\n"
	  "them in the VD's metadata.  The keys given are changed together, in one\n"
	  "request; the others stay as they are.  Then prints the policies in effect:\n"
	  "\"vraid0: access ro, disk cache off, read no-read-ahead, write write-through,\n"
	  "io direct\".  Each KEY at most once:\n\n"
	  "  access=rw|ro|blocked          read-write, read-only, or no I/O at all\n"
	  "  disk-cache=on|off|default     the members' own write caches: used; not\n"
	  "                                relied on (every write is forced to the\n"
	  "                                media); or as the devices are set (default)\n"
	  "  read-policy=ra|nora           read-ahead, or no read-ahead\n"
	  "  write-policy=wt|wb|awb        write-through; write-back while the journal\n"
	  "                                (the \"battery\") is healthy; always write-back\n"
	  "  io-policy=direct|cached       direct I/O, or through the controller cache\n"
	  "  -h, --help                    show this help\n\n"
	  "awb is taken: writes go into the controller cache, complete there and\n"
	  "reach the members later; the cache is volatile, so a power loss loses\n"
	  "writes not yet flushed (a flush, sync or fsync, writes them out; show:\n"
	  "\"Write in effect\"); setting wt or wb after awb writes them out first.\n"
	  "A module before ABI 1.8 refuses awb (EOPNOTSUPP, exit 1).  cached is\n"
	  "taken: reads fill the controller cache and are answered from it; writes\n"
	  "without awb (or wb with a journal) go to the members and replace what\n"
	  "it holds.\n"
	  "ra is taken: sequential reads bring the data after them into the\n"
	  "controller cache ahead of time; with io-policy=direct, reads are\n"
	  "answered from what read-ahead (or awb) brought in and other misses do\n"
	  "not fill it.  wb is taken: while the controller's journal (its\n"
	  "\"battery\", `vraidctl controller journal DEV`) is healthy, writes\n"
	  "complete once they are in the journal and reach the members later; as\n"
	  "a controller's write-back with a bad battery, it writes through while\n"
	  "there is no journal, it awaits replay or it failed (show: \"Write in\n"
	  "effect\").  New VDs start with\n"
	  "access=rw disk-cache=default read-policy=nora write-policy=wt\n"
	  "io-policy=direct unless `vraidctl create` is told otherwise.\n\n"
	  "examples: vraidctl set vraid0 access=ro\n"
	  "          vraidctl set scratch disk-cache=off access=rw\n" },
	{ "controller", cmd_controller,
	  "vraidctl controller [show] [--json] | controller set cache-size=SIZE|default | controller journal DEV [--force] [--dry-run]|none|discard",
	  "Show or change the controller: its cache, one pool in the module's memory\n"
	  "that every virtual drive's cached reads (io-policy=cached), read-ahead\n"
	  "(read-policy=ra) and write-back (write-policy=awb, and wb with a journal)\n"
	  "share, and its journal, the \"battery\" of write-back: a block device\n"
	  "where write-back VDs (write-policy=wb) log each write before it\n"
	  "completes, so that it survives a crash or power loss.\n\n"
	  "  show          (the default) the cache's size, the default size and the\n"
	  "                largest this machine takes, what the virtual drives hold\n"
	  "                in it, dirty data and the journal (state, device, UUID,\n"
	  "                ring size and use, sequence numbers, VDs logging to it);\n"
	  "                what one VD holds: `vraidctl stats VD`\n"
	  "  set cache-size=SIZE|default\n"
	  "                resize the cache at once: SIZE is a whole number of MiB\n"
	  "                from 16M up to half the RAM (at most 1T), with a K, M, G\n"
	  "                or T suffix (binary units), e.g. 256M or 2G; default is\n"
	  "                the module's default (RAM/16 within 32M to 1G).  Shrinking\n"
	  "                drops clean cached data (nothing is lost: dirty data of\n"
	  "                write-back stays until it is on the members).  Prints\n"
	  "                the size now.  Lasts until the module is unloaded: to keep\n"
	  "                a size, load the module with cache_mib=N (a line\n"
	  "                `options vraid cache_mib=N` in /etc/modprobe.d/vraid.conf)\n"
	  "  journal DEV   attach the block device DEV as the journal (one at a\n"
	  "                time): an NVMe namespace or a partition of at least\n"
	  "                64 MiB, outside every virtual drive, not in use.  A DEV\n"
	  "                that holds a vraid journal is attached as it is (with\n"
	  "                writes from before a crash, they are replayed when their\n"
	  "                VDs are assembled); one that holds anything else vraidctl\n"
	  "                knows (vraid metadata, a partition table, a file system:\n"
	  "                `vraidctl help create`) is refused without --force; ANY\n"
	  "                OTHER DEV IS FORMATTED: WHAT IT HOLDS IS OVERWRITTEN.\n"
	  "                Then write-back VDs log to it.\n"
	  "  --force       (journal DEV) format DEV whatever it holds, a vraid\n"
	  "                journal included (the writes it holds are lost); never\n"
	  "                a device in use\n"
	  "  --dry-run     (journal DEV) show what DEV holds and whether it would\n"
	  "                be attached as it is, formatted or refused; change\n"
	  "                nothing (exit 1 if it would be refused)\n"
	  "  journal none  detach the journal: write-back VDs write their dirty\n"
	  "                data to the members, then write through\n"
	  "  journal discard\n"
	  "                drop the writes the journal holds for VDs not assembled\n"
	  "                yet (state replay pending): they are LOST; only when\n"
	  "                those VDs are gone for good\n"
	  "  --json        one line of JSON, the state (after the change):\n"
	  "                {\"cache_bytes\":N,\"cache_default_bytes\":N,\n"
	  "                \"cache_max_bytes\":N,\"used_bytes\":N,\"dirty_bytes\":N,\n"
	  "                \"dirty_high_bytes\":N,\"vds\":N,\"journal\":{\"state\":\"none\"|\n"
	  "                \"healthy\"|\"replay_pending\"|\"failed\",\"major\":N,\"minor\":N,\n"
	  "                \"size_bytes\":N,\"used_bytes\":N,\"device\":\"/dev/nvme2n1\",\n"
	  "                \"uuid\":\"...\",\"head_seq\":N,\"tail_seq\":N,\"pending\":N,\n"
	  "                \"vds\":N}}\n"
	  "  -h, --help    show this help\n\n"
	  "Write-back (write-policy=wb) writes through while there is no journal,\n"
	  "while it awaits replay and after it failed (an I/O error); nothing\n"
	  "acknowledged is lost then.  After a crash or power loss: attach the\n"
	  "journal, then assemble (vraidctl controller journal DEV; vraidctl\n"
	  "assemble --scan).  A device named none or discard: give its path,\n"
	  "./none.\n\n"
	  "show needs only to open the control device; set and journal need root\n"
	  "(CAP_SYS_ADMIN).  The controller command needs a module of ABI 1.7 or\n"
	  "later, the journal one of ABI 1.9 or later.\n\n"
	  "examples: vraidctl controller\n"
	  "          vraidctl controller set cache-size=512M\n"
	  "          vraidctl controller journal /dev/nvme2n1p1\n" },
	{ "version", cmd_version, "vraidctl version",
	  "Print vraidctl's version and ABI version, and the loaded module's ABI version.\n" },
	{ "help", cmd_help, "vraidctl help [COMMAND]",
	  "Show the list of commands, or the help of COMMAND.\n" },
};

static const struct command *find_command(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

static void usage(FILE *f)
{
	size_t i;

	fputs("usage: vraidctl COMMAND [ARGS]\n\n"
	      "Create, delete, inspect and maintain vraid virtual drives (software RAID).\n\n", f);
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(f, "  %s\n", commands[i].synopsis);
	fputs("\nVD is vraid0, /dev/vraid0, 0, or the name given with --name.\n"
	      "Run `vraidctl help COMMAND` or `vraidctl COMMAND -h` for details.\n\n"
	      "environment: VRAIDCTL_CONTROL  control device (default " CONTROL_DEFAULT ")\n"
	      "exit status: 0 success, 1 failure, 2 bad command line\n", f);
}

static int cmd_help(int argc, char **argv)
{
	if (argc < 2) {
		usage(stdout);
		return RC_OK;
	}
	if (is_help(argv[1]))
		return print_help("help");
	if (argc > 2)
		return usage_error("help", "name one command");
	if (!find_command(argv[1])) {
		errmsg("no command '%s'", argv[1]);
		hintmsg("run `vraidctl help` for the list");
		return RC_USAGE;
	}
	return print_help(argv[1]);
}

int main(int argc, char **argv)
{
	const struct command *c;
	int rc;

	if (argc < 2) {
		usage(stderr);
		return RC_USAGE;
	}
	if (is_help(argv[1]))
		argv[1] = "help";
	else if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V"))
		argv[1] = "version";
	c = find_command(argv[1]);
	if (!c) {
		errmsg("unknown command '%s'", argv[1]);
		hintmsg("run `vraidctl help` for the list of commands");
		return RC_USAGE;
	}
	rc = c->run(argc - 1, argv + 1);
	if (fflush(stdout) || ferror(stdout)) {
		errmsg("cannot write the output: %s", strerror(errno));
		return RC_FAIL;
	}
	return rc;
}
