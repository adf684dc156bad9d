#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Host-side tests of tools/vraidctl: argument parsing, error messages,
# exit codes, and the table / JSON output against a mock kernel.  Needs no
# vraid module.  Prints TAP-style "ok N - ..." / "not ok N - ..." lines and
# exits non-zero if any test failed.
#
# The mock: tools/vraidctl.c is compiled a second time with
# "-include mock.h", which renames its ioctl() calls to mock_ioctl()
# (defined in mock.c below).  The mock checks every request header the tool
# sends (magic, size, version, zeroed fields) and answers from canned VDs:
#   MOCK_VRAID=none|three|vanish|dupname|badreply   which VDs exist
#   MOCK_FAIL=CMD:ERRNAME:MESSAGE    make CMD (create, delete, list, info or
#                                    any) fail; MESSAGE "-" = no reply copied
#   MOCK_LOG=FILE                    create/delete requests are logged there
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
EOF

cat >"$tmp/mock.c" <<'EOF'
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/vraid.h>

int mock_ioctl(int fd, unsigned long req, ...);

static const struct { const char *n; int e; } names[] = {
	{ "EPERM", EPERM }, { "ENOENT", ENOENT }, { "EBUSY", EBUSY },
	{ "EEXIST", EEXIST }, { "EINVAL", EINVAL }, { "ENOSPC", ENOSPC },
	{ "EPROTO", EPROTO }, { "EOPNOTSUPP", EOPNOTSUPP }, { "ENXIO", ENXIO },
};

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
		if (e == EPROTO) {
			h->version_major = 2;
			h->version_minor = 0;
		}
		snprintf(h->message, sizeof(h->message), "%s", msg);
	}
	errno = e;
	return -1;
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

static int vd_info(struct vraid_info *in)
{
	const char *s = scenario();
	uint32_t idx[8], i, k = vd_list(idx), ix = in->index;

	for (i = 0; i < k && idx[i] != ix; i++)
		;
	if (i == k || (!strcmp(s, "vanish") && ix == 5))
		return ENOENT;
	in->state = VRAID_VD_OPTIMAL;
	in->strip_bytes = 65536;
	in->logical_block_size = 512;
	in->data_offset_sectors = VRAID_DATA_OFFSET_SECTORS;
	in->member_data_sectors = 786432;
	snprintf(in->disk_name, sizeof(in->disk_name), "vraid%u", ix);
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
		in->write_policy = VRAID_WRITE_BACK_BBU;
		member(&in->members[0], 0, 8, 0, "sda", VRAID_MEMBER_ONLINE);
		member(&in->members[1], 1, 8, 16, "sdb", VRAID_MEMBER_ONLINE);
		member(&in->members[2], 2, 8, 32, "sdc", VRAID_MEMBER_REBUILDING);
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
		break;
	}
	return 0;
}

static int all_zero(const void *p, size_t n)
{
	const unsigned char *b = p;

	while (n--)
		if (*b++)
			return 0;
	return 1;
}

int mock_ioctl(int fd, unsigned long req, ...)
{
	static const char *cmds[] = { "create", "delete", "list", "info" };
	static const size_t sizes[] = {
		sizeof(struct vraid_create), sizeof(struct vraid_delete),
		sizeof(struct vraid_list), sizeof(struct vraid_info),
	};
	const char *f = getenv("MOCK_FAIL");
	struct vraid_ioc_hdr *h;
	unsigned nr = _IOC_NR(req), i;
	va_list ap;

	(void)fd;
	va_start(ap, req);
	h = va_arg(ap, struct vraid_ioc_hdr *);
	va_end(ap);
	if (_IOC_TYPE(req) != VRAID_IOC_TYPE || nr > 3 ||
	    req != _IOWR(VRAID_IOC_TYPE, nr, struct vraid_ioc_hdr)) {
		errno = ENOTTY;
		return -1;
	}
	/* What the tool must send. */
	if (h->magic != VRAID_IOC_MAGIC)
		return fail(h, EINVAL, "mock: bad magic");
	if (h->size != sizes[nr])
		return fail(h, EINVAL, "mock: bad size");
	if (h->version_major != VRAID_ABI_MAJOR || h->version_minor != VRAID_ABI_MINOR)
		return fail(h, EINVAL, "mock: bad version");
	if (h->status || h->flags || h->reserved ||
	    !all_zero(h->message, sizeof(h->message)))
		return fail(h, EINVAL, "mock: header fields not zeroed");
	if (f) {
		size_t l = strcspn(f, ":");

		if ((l == 3 && !strncmp(f, "any", 3)) ||
		    (strlen(cmds[nr]) == l && !strncmp(f, cmds[nr], l))) {
			const char *e = f + l + (f[l] == ':');
			size_t el = strcspn(e, ":");

			for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
				if (strlen(names[i].n) == el && !strncmp(e, names[i].n, el))
					return fail(h, names[i].e, e[el] ? e + el + 1 : "");
			return fail(h, EIO, "mock: unknown errno in MOCK_FAIL");
		}
	}
	switch (nr) {
	case 0: {
		struct vraid_create *c = (void *)h;
		char m[400] = "";

		if (c->index || c->reserved1 || c->disk_name[0] ||
		    !all_zero(c->reserved2, sizeof(c->reserved2)) ||
		    !all_zero(&c->members[c->nr_members],
			      (VRAID_MAX_MEMBERS - c->nr_members) * sizeof(c->members[0])))
			return fail(h, EINVAL, "mock: create fields not zeroed");
		for (i = 0; i < c->nr_members; i++)
			snprintf(m + strlen(m), sizeof(m) - strlen(m), "%s%u:%u",
				 i ? "," : "", c->members[i].major, c->members[i].minor);
		logit("create level=%u strip=%u nr=%u spans=%u name=%.32s members=%s\n",
		      c->level, c->strip_bytes, c->nr_members, c->spans, c->name, m);
		c->index = 4;
		strcpy(c->disk_name, "vraid4");
		return 0;
	}
	case 1: {
		struct vraid_delete *d = (void *)h;
		struct vraid_info tmp;

		if ((d->del_flags & ~VRAID_DELETE_STOP) || !all_zero(d->reserved2, sizeof(d->reserved2)))
			return fail(h, EINVAL, "mock: delete fields not zeroed");
		logit("delete index=%u\n", d->index);
		memset(&tmp, 0, sizeof(tmp));
		tmp.index = d->index;
		if (vd_info(&tmp))
			return fail(h, ENOENT, "no virtual drive");
		return 0;
	}
	case 2: {
		struct vraid_list *l = (void *)h;

		if (l->nr_vds || l->reserved1 || !all_zero(l->index, sizeof(l->index)))
			return fail(h, EINVAL, "mock: list fields not zeroed");
		l->nr_vds = vd_list(l->index);
		return 0;
	}
	default: {
		struct vraid_info *in = (void *)h;
		uint32_t ix = in->index;

		in->index = 0;
		if (!all_zero((char *)in + sizeof(*h), sizeof(*in) - sizeof(*h)))
			return fail(h, EINVAL, "mock: info fields not zeroed");
		in->index = ix;
		if (vd_info(in))
			return fail(h, ENOENT, "no virtual drive");
		return 0;
	}
	}
}
EOF

# ---- build ------------------------------------------------------------------

# build VARIANT EXTRA_CFLAGS: vraidctl, vraid-raw and the mock vraidctl
# into $tmp/VARIANT/
build() {
	local core="$root/driver/metadata.c $root/driver/layout.c $root/driver/geom.c $root/driver/validate.c"
	mkdir -p "$tmp/$1"
	# shellcheck disable=SC2086
	$CC $CFLAGS $2 -I"$root/driver" -o "$tmp/$1/vraidctl" "$root/tools/vraidctl.c" $core &&
	$CC $CFLAGS $2 -o "$tmp/$1/vraid-raw" "$root/tools/vraid-raw.c" &&
	$CC $CFLAGS $2 -I"$root/driver" -include "$tmp/mock.h" -o "$tmp/$1/vraidctl-mock" \
		"$root/tools/vraidctl.c" "$tmp/mock.c" $core
}

# ---- the tests --------------------------------------------------------------

run_tests() {
	V="$tmp/$variant/vraidctl"
	M="$tmp/$variant/vraidctl-mock"
	R="$tmp/$variant/vraid-raw"
	nope="$tmp/no-such-control"

	# help, version, command errors
	check "help" 0 "usage: vraidctl COMMAND" "" "$V" help
	check "--help" 0 "vraidctl create --level jbod|0|1|5|6|10|50|60" "" "$V" --help
	check "-h" 0 "vraidctl list [--json]" "" "$V" -h
	check "help create" 0 "--strip SIZE" "" "$V" help create
	check "create -h" 0 "--spans N" "" "$V" create -h
	check "list --help" 0 "usage: vraidctl list" "" "$V" list --help
	check "show -h" 0 "usage: vraidctl show VD" "" "$V" show -h
	check "delete -h" 0 "usage: vraidctl delete VD" "" "$V" delete -h
	check "version -h" 0 "usage: vraidctl version" "" "$V" version -h
	check "help help" 0 "usage: vraidctl help" "" "$V" help help
	check "help nosuch" 2 "" "no command 'nosuch'" "$V" help nosuch
	check "no arguments" 2 "" "usage: vraidctl COMMAND" "$V"
	check "unknown command" 2 "" "vraidctl: unknown command 'frobnicate'" "$V" frobnicate
	check "--version" 0 "vraidctl 0.1.0 (ABI 1.2)" "" env VRAIDCTL_CONTROL="$nope" "$V" --version
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
	if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1; then
		chmod 755 "$tmp" "$tmp/$variant"
		: >"$tmp/ctl-0600"
		chmod 600 "$tmp/ctl-0600"
		check "list as nobody" 1 "" "permission denied" env VRAIDCTL_CONTROL="$tmp/ctl-0600" setpriv --reuid=65534 --regid=65534 --clear-groups "$V" list
		check "list as nobody hint" 1 "" "run as root" env VRAIDCTL_CONTROL="$tmp/ctl-0600" setpriv --reuid=65534 --regid=65534 --clear-groups "$V" list
	else
		say_skip "list as nobody" "needs root and setpriv"
	fi

	# against the mock kernel
	export VRAIDCTL_CONTROL=/dev/null MOCK_LOG="$tmp/log"
	check "mock: list, none" 0 "no virtual drives" "" env MOCK_VRAID=none "$M" list
	check "mock: list --json, none" 0 '{"vds":[]}' "" env MOCK_VRAID=none "$M" list --json
	check "mock: list" 0 "VD      NAME" "" env MOCK_VRAID=three "$M" list
	order=$(awk 'NR > 1 { printf "%s ", $1 }' "$tmp/out")
	if [ "$order" = "vraid0 vraid1 vraid3 vraid7 " ]; then say_ok "mock: list sorted by index"; else say_not_ok "mock: list sorted by index (got '$order')"; fi
	check "mock: list row raid0" 0 "vraid0  fast" "" env MOCK_VRAID=three "$M" list
	out_has "mock: list raid0 columns" -q 'vraid0 .* RAID0 .* Optimal .* 768 MiB .* 64 KiB .* 2$'
	out_has "mock: list jbod strip -" -q 'vraid3 .* JBOD .* Offline .* 384 MiB .* - .* 1$'
	out_has "mock: list sanitises names" -qF 'we"ird\name?é?'
	out_has "mock: list unterminated name" -qF 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx '
	check "mock: list --json" 0 '{"vds":[{"vd":"vraid0","index":0,"name":"fast","level":"raid0","state":"optimal","size_bytes":805306368,"strip_bytes":65536,"members":2},' "" env MOCK_VRAID=three "$M" list --json
	check "mock: list --json escapes" 0 '"name":"we\"ird\\name\u0001é\u00ff"' "" env MOCK_VRAID=three "$M" list --json
	check "mock: list --json jbod strip 0" 0 '"level":"jbod","state":"offline","size_bytes":402653184,"strip_bytes":0,"members":1}' "" env MOCK_VRAID=three "$M" list --json
	cp "$tmp/out" "$tmp/list.json"
	check "mock: list, VD vanished" 0 "vraid0" "" env MOCK_VRAID=vanish "$M" list
	out_lacks "mock: vanished VD not listed" -q vraid5
	check "mock: list, malformed reply" 1 "" "malformed reply from the vraid module: nr_members 99 > 32" env MOCK_VRAID=badreply "$M" list
	# shellcheck disable=SC2016 # $1 is expanded by the inner sh
	check "mock: list > /dev/full" 1 "" "cannot write the output" sh -c 'MOCK_VRAID=three "$1" list >/dev/full' sh "$M"

	check "mock: show 0" 0 "Name:               fast" "" env MOCK_VRAID=three "$M" show 0
	check "mock: show vraid0 device" 0 "Device:             /dev/vraid0" "" env MOCK_VRAID=three "$M" show vraid0
	check "mock: show by name" 0 "Virtual drive:      vraid0" "" env MOCK_VRAID=three "$M" show fast
	check "mock: show /dev/vraid0" 0 "Size:               768 MiB (805306368 bytes)" "" env MOCK_VRAID=three "$M" show /dev/vraid0
	check "mock: show full stripe" 0 "Full stripe:        128 KiB" "" env MOCK_VRAID=three "$M" show 0
	check "mock: show data offset" 0 "Data offset:        8 MiB (sector 16384) on each member" "" env MOCK_VRAID=three "$M" show 0
	check "mock: show policies" 0 "Policies:           Access: RW, Disk cache: Default, I/O: Direct, Read: No Read Ahead, Write: Write Through" "" env MOCK_VRAID=three "$M" show 0
	check "mock: show member table" 0 "ROLE  DEVICE        MAJ:MIN  STATE    SIZE     USED  READS  WRITES  ERRORS" "" env MOCK_VRAID=three "$M" show 0
	out_has "mock: show member row" -qxF '   0  /dev/nvme0n1  259:0    Online  2 GiB  384 MiB   1000    2000       0'
	check "mock: show raid5 policies" 0 "Access: RO, Disk cache: Enabled, I/O: Cached, Read: Read Ahead, Write: Write Back with BBU" "" env MOCK_VRAID=three "$M" show vraid1
	check "mock: show raid5 full stripe" 0 "Full stripe:        128 KiB" "" env MOCK_VRAID=three "$M" show vraid1
	check "mock: show rebuilding member" 0 "Rebuilding" "" env MOCK_VRAID=three "$M" show vraid1
	check "mock: show raid60" 0 "Spans:              2" "" env MOCK_VRAID=three "$M" show 7
	check "mock: show raid60 full stripe" 0 "Full stripe:        512 KiB" "" env MOCK_VRAID=three "$M" show 7
	check "mock: show jbod" 0 "Strip:              -" "" env MOCK_VRAID=three "$M" show 3
	check "mock: show missing member" 0 "-       8:48     Missing" "" env MOCK_VRAID=three "$M" show 3
	check "mock: show no such VD" 1 "" "vraid9: no virtual drive (ENOENT: No such file or directory)" env MOCK_VRAID=three "$M" show 9
	check "mock: show no such VD hint" 1 "" "no such virtual drive (see \`vraidctl list\`)" env MOCK_VRAID=three "$M" show /dev/vraid9
	check "mock: show no such name" 1 "" "nosuch: no such virtual drive (see \`vraidctl list\`)" env MOCK_VRAID=three "$M" show nosuch
	check "mock: show ambiguous name" 1 "" "fast: 2 virtual drives carry this name" env MOCK_VRAID=dupname "$M" show fast
	check "mock: show --json" 0 '{"vd":"vraid0","index":0,"device":"/dev/vraid0","name":"fast","level":"raid0","state":"optimal","size_bytes":805306368,"strip_bytes":65536,"spans":0,"full_stripe_bytes":131072,"data_offset_bytes":8388608,"member_data_bytes":402653184,"logical_block_size":512,"open_count":1,"policies":{"access":"rw","disk_cache":"default","io":"direct","read":"no_read_ahead","write":"write_through"},"members":[{"role":0,"device":"/dev/nvme0n1","major":259,"minor":0,"state":"online","size_bytes":2147483648,"data_bytes":402653184,"read_ios":1000,"write_ios":2000,"errors":0},' "" env MOCK_VRAID=three "$M" show --json fast
	cp "$tmp/out" "$tmp/show0.json"
	check "mock: show --json raid5" 0 '"policies":{"access":"ro","disk_cache":"enabled","io":"cached","read":"read_ahead","write":"write_back_bbu"}' "" env MOCK_VRAID=three "$M" show 1 --json
	cp "$tmp/out" "$tmp/show1.json"
	check "mock: show --json jbod" 0 '"members":[{"role":0,"device":"","major":8,"minor":48,"state":"missing"' "" env MOCK_VRAID=three "$M" show 3 --json
	cp "$tmp/out" "$tmp/show3.json"
	check "mock: show --json raid60" 0 '"device":"/dev/dddddddddddddddddddddddddddddddd"' "" env MOCK_VRAID=three "$M" show 7 --json
	cp "$tmp/out" "$tmp/show7.json"
	if command -v python3 >/dev/null 2>&1; then
		check "mock: JSON parses, schema" 0 "json ok" "" python3 - "$tmp" <<'EOF'
import json, sys
d = sys.argv[1]
lst = json.load(open(d + "/list.json"))
assert list(lst) == ["vds"]
keys = ["vd", "index", "name", "level", "state", "size_bytes", "strip_bytes", "members"]
for v in lst["vds"]:
    assert list(v) == keys, list(v)
assert [v["vd"] for v in lst["vds"]] == ["vraid0", "vraid1", "vraid3", "vraid7"]
assert lst["vds"][1]["name"] == 'we"ird\\name\x01\u00e9\u00ff', repr(lst["vds"][1]["name"])
assert lst["vds"][2]["name"] == "x" * 32
skeys = ["vd", "index", "device", "name", "level", "state", "size_bytes",
         "strip_bytes", "spans", "full_stripe_bytes", "data_offset_bytes",
         "member_data_bytes", "logical_block_size", "open_count", "policies",
         "members"]
mkeys = ["role", "device", "major", "minor", "state", "size_bytes",
         "data_bytes", "read_ios", "write_ios", "errors"]
for f in ("show0", "show1", "show3", "show7"):
    s = json.load(open(d + "/" + f + ".json"))
    assert list(s) == skeys, (f, list(s))
    assert list(s["policies"]) == ["access", "disk_cache", "io", "read", "write"]
    for m in s["members"]:
        assert list(m) == mkeys, (f, list(m))
s = json.load(open(d + "/show7.json"))
assert s["level"] == "raid60" and s["spans"] == 2 and s["state"] == "degraded"
assert s["full_stripe_bytes"] == 131072 * 4
assert [m["state"] for m in s["members"]].count("failed") == 1
s = json.load(open(d + "/show1.json"))
assert s["full_stripe_bytes"] == 65536 * 2 and s["members"][2]["errors"] == 3
print("json ok")
EOF
	else
		say_skip "mock: JSON parses, schema" "no python3"
	fi

	rm -f "$tmp/log"
	if [ -n "$blk0" ]; then
		check "mock: create prints the name" 0 "vraid4" "" env MOCK_VRAID=none "$M" create --level 0 --strip 128K --name scratch "$blk0" "$blk1"
		expect_log "mock: create request" "create level=0 strip=131072 nr=2 spans=0 name=scratch members=7:0,7:1"
		for s in 64K:65536 64k:65536 64KiB:65536 1M:1048576 1MiB:1048576 65536:65536 4096:4096 4k:4096; do
			check "mock: create --strip ${s%%:*}" 0 "vraid4" "" env MOCK_VRAID=none "$M" create --level=0 --strip="${s%%:*}" "$blk0" "$blk1"
			expect_log "mock: create --strip ${s%%:*} sends ${s#*:}" "create level=0 strip=${s#*:} nr=2 spans=0 name= members=7:0,7:1"
		done
		check "mock: create jbod" 0 "vraid4" "" env MOCK_VRAID=none "$M" create --level JBOD "$blk0"
		expect_log "mock: create jbod request" "create level=255 strip=0 nr=1 spans=0 name= members=7:0"
		check "mock: create raid60" 0 "vraid4" "" env MOCK_VRAID=none "$M" create --level raid60 --spans 2 --name x.y_z-1 "$blk0" "$blk1" "$blk2" "$blk3"
		expect_log "mock: create raid60 request" "create level=60 strip=0 nr=4 spans=2 name=x.y_z-1 members=7:0,7:1,7:2,7:3"
		check "mock: create options after DEVs" 0 "vraid4" "" env MOCK_VRAID=none "$M" create "$blk1" "$blk0" --level 1
		expect_log "mock: create member order" "create level=1 strip=0 nr=2 spans=0 name= members=7:1,7:0"
		check "mock: create EOPNOTSUPP" 1 "" "vraidctl: create: RAID5 is not supported yet (EOPNOTSUPP: Operation not supported)" env MOCK_FAIL="create:EOPNOTSUPP:RAID5 is not supported yet" "$M" create --level 5 "$blk0" "$blk1" "$blk2"
		check "mock: create EBUSY" 1 "" "a member is in use: mounted, in an md array, or in another virtual drive" env MOCK_FAIL="create:EBUSY:member 7:1 is in use" "$M" create --level 0 "$blk0" "$blk1"
		check "mock: create EBUSY message" 1 "" "create: member 7:1 is in use (EBUSY: Device or resource busy)" env MOCK_FAIL="create:EBUSY:member 7:1 is in use" "$M" create --level 0 "$blk0" "$blk1"
		check "mock: create EEXIST" 1 "" "choose another --name" env MOCK_FAIL="create:EEXIST:name scratch is taken" "$M" create --level 0 --name scratch "$blk0" "$blk1"
		check "mock: create EPERM" 1 "" "run as root" env MOCK_FAIL="create:EPERM:changing virtual drives needs CAP_SYS_ADMIN (run as root)" "$M" create --level 0 "$blk0" "$blk1"
	else
		say_skip "mock: create" "no block device node"
	fi
	check "mock: list EPERM" 1 "" "vraidctl: hint: run as root" env MOCK_FAIL="any:EPERM:not allowed" "$M" list
	check "mock: list EPERM, no reply" 1 "" "vraidctl: list: Operation not permitted (EPERM)" env MOCK_FAIL="any:EPERM:-" "$M" list
	check "mock: list EPROTO" 1 "" "module and tool versions differ (module ABI 2.0, vraidctl ABI 1.2)" env MOCK_FAIL="any:EPROTO:ABI version 1.0 not supported" "$M" list
	check "mock: version" 0 "module ABI: 1.2" "" env MOCK_VRAID=none "$M" version
	check "mock: version EPROTO" 0 "module ABI: 2.0 (differs from vraidctl's" "" env MOCK_FAIL="any:EPROTO:x" "$M" version
	rm -f "$tmp/log"
	check "mock: delete by name" 0 "" "" env MOCK_VRAID=three "$M" delete fast
	expect_log "mock: delete by name request" "delete index=0"
	check "mock: delete /dev/vraid7" 0 "" "" env MOCK_VRAID=three "$M" delete /dev/vraid7
	expect_log "mock: delete /dev/vraid7 request" "delete index=7"
	check "mock: delete 3" 0 "" "" env MOCK_VRAID=three "$M" delete 3
	expect_log "mock: delete 3 request" "delete index=3"
	check "mock: delete missing" 1 "" "delete vraid9: no virtual drive (ENOENT" env MOCK_VRAID=three "$M" delete vraid9
	check "mock: delete missing hint" 1 "" "no such virtual drive (see \`vraidctl list\`)" env MOCK_VRAID=three "$M" delete vraid9
	check "mock: delete EBUSY" 1 "" "the virtual drive is in use: unmount it" env MOCK_VRAID=three MOCK_FAIL="delete:EBUSY:vraid0 is open" "$M" delete vraid0
	unset VRAIDCTL_CONTROL MOCK_LOG

	# vraid-raw: its own argument handling (the kernel side runs in the VM)
	check "raw: --help" 0 "usage: vraid-raw" "" "$R" --help
	check "raw: no arguments" 2 "" "usage: vraid-raw" "$R"
	check "raw: unknown check" 2 "" "unknown request or check 'bogus'" "$R" bogus
	check "raw: bad --expect" 2 "" "unknown errno name 'EFOO'" "$R" --expect EFOO bad-magic
	check "raw: info needs INDEX" 2 "" "INDEX: expected a number" "$R" bad-magic info
	check "raw: reserved info" 2 "" "info has no input reserved field" "$R" reserved cmd info 0
	check "raw: no control device" 2 "" "cannot open $nope" env VRAIDCTL_CONTROL="$nope" "$R" bad-magic
	check "raw: /dev/null is not as expected" 1 "vraid-raw: bad-magic list: got ENOTTY (Inappropriate ioctl for device), no reply header; want EINVAL: FAIL" "" env VRAIDCTL_CONTROL=/dev/null "$R" bad-magic
	check "raw: --expect" 0 "want ENOTTY: ok" "" env VRAIDCTL_CONTROL=/dev/null "$R" --expect ENOTTY hdr-size 100 delete vraid3
	check "raw: --want-message" 1 "want ENOTTY with a message: FAIL" "" env VRAIDCTL_CONTROL=/dev/null "$R" --want-message wrong-type
	check "raw: garbage" 0 "garbage list: 40 rounds (seed 5): ENOTTY 40; want any error every round: ok" "" env VRAIDCTL_CONTROL=/dev/null "$R" garbage 40 5
	check "raw: create MAJ:MIN" 0 "send create (level 255, 2 members)" "" env VRAIDCTL_CONTROL=/dev/null "$R" --expect ENOTTY create --level jbod --name-fill 8:0 8:16
	if [ "$(id -u)" = 0 ]; then
		check "raw: --drop-privs" 0 "want ENOTTY: ok" "" env VRAIDCTL_CONTROL=/dev/null "$R" --drop-privs --expect ENOTTY create 8:0 8:16
		check "raw: --drop-privs default EPERM" 1 "want EPERM: FAIL" "" env VRAIDCTL_CONTROL=/dev/null "$R" --drop-privs delete 0
	else
		check "raw: --drop-privs needs root" 2 "" "must start as root" env VRAIDCTL_CONTROL=/dev/null "$R" --drop-privs create 8:0
	fi
}

# ---- main -------------------------------------------------------------------

blk0='' blk1='' blk2='' blk3=''
if mknod "$tmp/blk0" b 7 0 2>/dev/null; then
	for i in 1 2 3; do mknod "$tmp/blk$i" b 7 "$i"; done
	blk0=$tmp/blk0 blk1=$tmp/blk1 blk2=$tmp/blk2 blk3=$tmp/blk3
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
