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

/* Parse "65536", "64K", "64k", "64KiB", "64KB", "1M", "1MiB", "1G", "1T". */
bool parse_size(const char *s, uint64_t *out)
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
