// SPDX-License-Identifier: GPL-2.0
/*
 * vraidctl: the command line: options, usage errors, common argument checks.
 */
#include "vraidctl.h"

int __attribute__((format(printf, 2, 3)))
usage_error(const char *cmd, const char *fmt, ...)
{
	const struct help *c = find_help(cmd);
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

bool is_help(const char *a)
{
	return !strcmp(a, "-h") || !strcmp(a, "--help");
}

int print_help(const char *name)
{
	const struct help *c = find_help(name);

	printf("usage: %s\n\n%s", c->synopsis, c->text);
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
int parse_args(const char *cmd, int argc, char **argv,
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

int check_strip(const char *s, uint32_t *strip)
{
	uint64_t v;

	if (size_decimal_refused(s))
		return RC_USAGE;
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

int check_name(const char *name)
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
	if (vraid_parse_u32(name, &dummy) || vraid_parse_vraidN(name, &dummy))
		return usage_error("create", "name '%s' looks like a virtual drive number; choose another",
				   name);
	return RC_OK;
}

/* stat() a member and fill @ref; on failure say why. */
int member_ref(const char *path, struct vraid_member_ref *ref)
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

/* ---- jobs, spares, replacement ------------------------------------------- */

/* Take every plain flag @flag out of argv (up to "--"); true if given. */
bool take_flag(int *argc, char **argv, const char *flag)
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
bool parse_seconds(const char *s, double *out)
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
