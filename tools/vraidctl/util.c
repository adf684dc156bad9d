// SPDX-License-Identifier: GPL-2.0
/*
 * vraidctl: messages on standard error, sizes.
 */
#include "vraidctl.h"

static void vmsg(const char *prefix, const char *fmt, va_list ap)
{
	fputs(prefix, stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

#define MSG_FN(fn, prefix)						\
void fn(const char *fmt, ...)						\
{									\
	va_list ap;							\
									\
	va_start(ap, fmt);						\
	vmsg(prefix, fmt, ap);						\
	va_end(ap);							\
}
MSG_FN(errmsg, "vraidctl: ")
MSG_FN(hintmsg, "vraidctl: hint: ")

const char *errname(int e)
{
	static char buf[24];
	const char *name = vraid_errname(e);

	if (name)
		return name;
	snprintf(buf, sizeof(buf), "errno %d", e);
	return buf;
}

/* ---- sizes -------------------------------------------------------------- */

/* "1.5 GiB", "64 KiB", "512 B": binary units, at most one decimal. */
char *human_size(char *buf, size_t bufsz, uint64_t bytes)
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

/*
 * A time in seconds since the epoch (metadata's "created") as a date a
 * reader takes in: "2025-11-30 10:53:20 UTC".  UTC, not local time, so
 * that the same device reads the same on every machine; a value gmtime()
 * cannot take is shown as the number it is.
 */
char *utc_date(char *buf, size_t bufsz, uint64_t secs)
{
	time_t t = (time_t)secs;
	struct tm tm;

	if ((uint64_t)t != secs || secs > (uint64_t)INT64_MAX ||
	    !gmtime_r(&t, &tm) ||
	    !strftime(buf, bufsz, "%Y-%m-%d %H:%M:%S UTC", &tm))
		snprintf(buf, bufsz, "%llu seconds since the epoch",
			 (unsigned long long)secs);
	return buf;
}

/*
 * Parse "65536", "64K", "64k", "64KiB", "1M", "1MiB", "1G", "1T": binary
 * units only.  "64KB" is not taken: KB, MB, GB and TB name decimal units,
 * and reading them as binary would set a size other than the one meant;
 * the callers refuse them with size_decimal_refused()'s hint.
 */
bool parse_size(const char *s, uint64_t *out)
{
	static const struct { const char *sfx; unsigned int shift; } sfx[] = {
		{ "", 0 }, { "b", 0 },
		{ "k", 10 }, { "kib", 10 },
		{ "m", 20 }, { "mib", 20 },
		{ "g", 30 }, { "gib", 30 },
		{ "t", 40 }, { "tib", 40 },
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

/*
 * If @s is a number with a decimal unit name ("64KB", "1mb"), say that
 * sizes are binary and how to write it, and return true; else false.
 */
bool size_decimal_refused(const char *s)
{
	size_t n = strspn(s, "0123456789");
	const char *unit;
	char u;

	if (!n || !s[n] || strcasecmp(s + n + 1, "b"))
		return false;
	u = s[n];
	unit = u == 'k' || u == 'K' ? "K" : u == 'm' || u == 'M' ? "M" :
	       u == 'g' || u == 'G' ? "G" : u == 't' || u == 'T' ? "T" : NULL;
	if (!unit)
		return false;
	errmsg("'%s': vraidctl sizes are binary: write %.*s%s or %.*s%siB",
	       s, (int)n, s, unit, (int)n, s, unit);
	return true;
}

/*
 * Tell udev that the block device major:minor changed (its vraid
 * metadata was written or erased): a "change" uevent, so that the keys
 * 64-vraid-members.rules records (ID_FS_TYPE=vraid_member ...) follow at
 * once, as lsblk -f shows them.  Best effort: without sysfs or udev
 * nothing happens, and nothing is said.  The event carries
 * SYNTH_ARG_VRAID=metadata (a synthetic uevent's argument, whose key
 * the kernel takes in letters and digits only; Linux 4.13 and later, a
 * plain "change" before), so that the rule's incremental assembly leaves
 * it alone: the change vraidctl stop sends must not start the VD again.
 */
void udev_change(unsigned int major, unsigned int minor)
{
	static const char ev[] =
		"change 00000000-0000-0000-0000-000000000000 VRAID=metadata";
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/uevent", major,
		 minor);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	if (write(fd, ev, sizeof(ev) - 1) < 0 && write(fd, "change", 6) < 0) {
		/* (nothing to do: udev then learns at the next event) */
	}
	close(fd);
}
