// SPDX-License-Identifier: GPL-2.0
/*
 * vraid-raw - send deliberately malformed or unprivileged requests to
 * /dev/vraid-control and check that the kernel refuses them as expected.
 * A test helper for the VM tests (built as tests/vm/bin/vraid-raw);
 * vraidctl never sends such requests.  Run with no arguments for usage.
 *
 * Exit status: 0 the kernel answered as expected, 1 it did not, 2 usage
 * or setup error (cannot open the control device, cannot drop privileges).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <linux/vraid.h>

#include "vraid_common.h"

#define BUF_SIZE	(VRAID_IOC_MAX_SIZE + 8192)
#define NOBODY		65534
#define MAX_EXPECT	16
#define EXPECT_OK	0	/* in an expectation list: success */

static const char usage_text[] =
"usage: vraid-raw [OPTIONS] CHECK [CHECK-ARGS] [REQUEST]\n"
"       vraid-raw [OPTIONS] REQUEST             (CHECK is then 'send')\n"
"\n"
"Build a valid REQUEST, spoil it as CHECK says, send it to /dev/vraid-control\n"
"($VRAIDCTL_CONTROL overrides) and compare the errno with the expectation.\n"
"Prints one line:\n"
"  vraid-raw: CHECK REQUEST: got ERRNO (text), status S, message \"...\"; want E: ok|FAIL\n"
"Exit status: 0 as expected, 1 not as expected, 2 usage or setup error.\n"
"\n"
"CHECK [ARGS]           what is sent                         default expectation\n"
"  send                 REQUEST unchanged                    ok\n"
"  hdr-size N           hdr.size = N (buffer always large)   EINVAL if N is outside\n"
"                                                            [struct size, 65536], else ok\n"
"  short                hdr.size = sizeof(hdr) - 1           EINVAL\n"
"  small                hdr.size = struct size - 8           EINVAL\n"
"  huge                 hdr.size = VRAID_IOC_MAX_SIZE + 1    EINVAL\n"
"  long-zero            hdr.size = struct size + 64, zero    ok (a newer tool's request)\n"
"  long-tail            the same, last byte non-zero         E2BIG\n"
"  bad-magic            hdr.magic = 0x12345678               EINVAL\n"
"  bad-version          hdr.version_major = ABI major + 1    EPROTO\n"
"  newer-minor          hdr.version_minor = ABI minor + 1    ok\n"
"  reserved [WHERE]     a reserved field = 1; WHERE is hdr   EINVAL\n"
"                       (default), cmd (reserved1; replace:\n"
"                       reserved2[0]; delete: an\n"
"                       unknown del_flags bit; info: the\n"
"                       job_type out field; spare: the\n"
"                       nr_spares out field; controller:\n"
"                       the cache_default_bytes out field)\n"
"                       or tail (last reserved2 word;\n"
"                       controller: last reserved word)\n"
"  nonzero-flags [BITS] hdr.flags = BITS (default 0x80000000) EINVAL\n"
"  bad-flags [BITS]     the command's own flags (del_flags,   EINVAL\n"
"                       spare_flags, rep_flags, ctrl_flags)\n"
"                       = BITS; set: set_mask |= BITS\n"
"                       (default 0x80000000)\n"
"  bad-action [N]       job, spare or controller: action =   EINVAL\n"
"                       N (default 0x7f)\n"
"  bad-rate [KIB]       job: rate_kib = KIB (default          EINVAL\n"
"                       VRAID_JOB_RATE_MAX + 1); any non-zero\n"
"                       KIB is bad for an action but rate\n"
"  bad-dev [MAJ:MIN|same]  the device number (create: member  EINVAL\n"
"                       0; spare: the device; replace: the\n"
"                       new device; controller: the journal\n"
"                       device, for attach) = MAJ:MIN\n"
"                       (default 0:0); same: replace's new =\n"
"                       old\n"
"  unknown-cmd [NR]     command number NR (default 0x7f)     ENOTTY\n"
"  wrong-type           ioctl type 'X' instead of 0xF7       ENOTTY\n"
"  wrong-encoding       _IOWR(0xF7, nr, __u64): bad size     ENOTTY\n"
"  garbage [ROUNDS [SEED]]  ROUNDS (1000) random requests,   any error, every round\n"
"                       cycling: all random / valid magic /  (success, EFAULT and\n"
"                       + version / + size, flags 0          kernel-internal errnos fail)\n"
"\n"
"REQUEST (default: list); values are sent as given, unchecked:\n"
"  list\n"
"  info INDEX                 INDEX: N or vraidN\n"
"  delete INDEX\n"
"  create [--level L] [--strip BYTES] [--spans N] [--name S] [--name-fill]\n"
"         [--nr N] [--init N] [--access N] [--disk-cache N] [--io N]\n"
"         [--read N] [--write N] MEMBER...\n"
"                             L: jbod or a number (default 0); MEMBER: a path\n"
"                             (its st_rdev is sent) or MAJ:MIN; --name-fill\n"
"                             sends 32 'A's without a NUL; --nr overrides\n"
"                             nr_members; --init N sets init (0 fast,\n"
"                             1 background, 2 full); --access ... --write\n"
"                             set the policies (VRAID_ACCESS_*, _DCACHE_*,\n"
"                             _IO_*, _READ_*, _WRITE_* values)\n"
"  job INDEX ACTION [RATE]    ACTION: check, repair, init, pause, resume,\n"
"                             stop, rate or a number; RATE: KiB/s\n"
"  spare ACTION [DEV] [--vd INDEX]\n"
"                             ACTION: add, remove, list or a number; DEV: a\n"
"                             path or MAJ:MIN; --vd sets the DEDICATED flag\n"
"                             and the index\n"
"  replace INDEX OLD NEW [--force]\n"
"                             OLD, NEW: a path or MAJ:MIN\n"
"  set INDEX [KEY=N...]       SET_POLICY; KEY: access, disk-cache, io, read,\n"
"                             write (the field = N, its bit in set_mask) or\n"
"                             mask (set_mask = N instead of the keys' bits);\n"
"                             no KEY sends set_mask 0\n"
"  controller [ACTION] [KEY=N...] [--force]\n"
"                             CONTROLLER; ACTION: show (the default),\n"
"                             set-size (SET_CACHE_SIZE: it resizes the\n"
"                             controller cache of the whole machine),\n"
"                             attach, detach, discard (JOURNAL_*: attach\n"
"                             formats the device, or takes the journal on\n"
"                             it as it is) or a number; KEY: cache-bytes\n"
"                             (0 = the default size), dev (a path or\n"
"                             MAJ:MIN: major and minor), flags\n"
"                             (ctrl_flags); --force sets VRAID_CTRL_FORCE\n"
"                             in ctrl_flags (attach: format even a journal)\n"
"\n"
"OPTIONS:\n"
"  --expect E[,E...]  expected result instead of the default: errno names\n"
"                     (EINVAL), 'ok' for success, 'any' for any error\n"
"  --want-message     also require the reply header (status = -errno and a\n"
"                     non-empty message)\n"
"  --drop-privs       open the control device as root, then switch to uid and\n"
"                     gid 65534 (nobody) with no groups, then send; the\n"
"                     default expectation of create, delete, job,\n"
"                     replace, set and spare add/remove becomes EPERM (list,\n"
"                     info, spare list and controller show need no\n"
"                     privilege); so does that of a controller request\n"
"                     other than show, unless the CHECK spoils it (the\n"
"                     kernel validates it before it checks privilege)\n"
"  -h, --help         this text\n"
"\n"
"examples:\n"
"  vraid-raw bad-magic\n"
"  vraid-raw hdr-size 100 info 0\n"
"  vraid-raw --drop-privs create /dev/vdb /dev/vdc\n"
"  vraid-raw --expect EINVAL create --level 3 /dev/vdb /dev/vdc\n"
"  vraid-raw --expect ENOENT delete 255\n"
"  vraid-raw bad-action job 0 check\n"
"  vraid-raw bad-dev same replace 0 8:16 8:32\n"
"  vraid-raw --expect EINVAL create --level 0 --init 1 /dev/vdb /dev/vdc\n"
"  vraid-raw --expect EINVAL set 0 write=3\n"
"  vraid-raw --expect EINVAL set 0 mask=1 disk-cache=2\n"
"  vraid-raw bad-flags set 0 access=1\n"
"  vraid-raw controller\n"
"  vraid-raw --expect EINVAL controller set-size cache-bytes=1000\n"
"  vraid-raw --expect ENOENT controller detach\n"
"  vraid-raw --expect EBUSY controller attach dev=/dev/vdb   (a VD's member)\n"
"  vraid-raw --expect EINVAL controller discard --force\n"
"  vraid-raw --drop-privs controller set-size\n"
"  vraid-raw reserved cmd controller\n";

static const char *errname(int e)
{
	static char buf[24];
	const char *name = vraid_errname(e);

	if (e == EXPECT_OK)
		return "ok";
	if (name)
		return name;
	snprintf(buf, sizeof(buf), "errno%d", e);
	return buf;
}

static bool kernel_internal(int e)
{
	return e == 515 || e == 524;
}

static void __attribute__((noreturn, format(printf, 1, 2)))
usage_fail(const char *fmt, ...)
{
	va_list ap;

	fputs("vraid-raw: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\n(run vraid-raw --help for usage)\n", stderr);
	exit(2);
}

/* The requests vraid-raw builds, in CMD_* order. */
static const struct {
	const char *name;
	unsigned long ioc;
	size_t size;
} cmds[] = {
	{ "create", VRAID_IOC_CREATE, sizeof(struct vraid_create) },
	{ "delete", VRAID_IOC_DELETE, sizeof(struct vraid_delete) },
	{ "list", VRAID_IOC_LIST, sizeof(struct vraid_list) },
	{ "info", VRAID_IOC_INFO, sizeof(struct vraid_info) },
	{ "job", VRAID_IOC_JOB, sizeof(struct vraid_job) },
	{ "spare", VRAID_IOC_SPARE, sizeof(struct vraid_spare) },
	{ "replace", VRAID_IOC_REPLACE, sizeof(struct vraid_replace) },
	{ "set", VRAID_IOC_SET_POLICY, sizeof(struct vraid_set_policy) },
	{ "controller", VRAID_IOC_CONTROLLER, sizeof(struct vraid_controller) },
};
enum {
	CMD_CREATE, CMD_DELETE, CMD_LIST, CMD_INFO, CMD_JOB, CMD_SPARE,
	CMD_REPLACE, CMD_SET, CMD_CONTROLLER,
};

struct named {
	const char *name;
	uint32_t v;
};

static const struct named job_actions[] = {
	{ "check", VRAID_JOB_START_CHECK }, { "repair", VRAID_JOB_START_REPAIR },
	{ "init", VRAID_JOB_START_INIT }, { "pause", VRAID_JOB_PAUSE },
	{ "resume", VRAID_JOB_RESUME }, { "stop", VRAID_JOB_STOP },
	{ "rate", VRAID_JOB_SET_RATE },
}, spare_actions[] = {
	{ "add", VRAID_SPARE_ADD }, { "remove", VRAID_SPARE_REMOVE },
	{ "list", VRAID_SPARE_LIST },
}, ctrl_actions[] = {
	{ "show", VRAID_CTRL_SHOW }, { "set-size", VRAID_CTRL_SET_CACHE_SIZE },
	{ "attach", VRAID_CTRL_JOURNAL_ATTACH },
	{ "detach", VRAID_CTRL_JOURNAL_DETACH },
	{ "discard", VRAID_CTRL_JOURNAL_DISCARD },
};

struct test {
	const char *check;	/* CHECK name */
	char reqdesc[128];	/* "list", "info 3", "create (2 members)" */
	unsigned int cmd;	/* CMD_* of the request */
	unsigned long ioc;	/* ioctl number sent */
	unsigned char *buf;	/* BUF_SIZE bytes */
	int expect[MAX_EXPECT];	/* errnos; EXPECT_OK = success */
	size_t nexpect;
	bool any_error;		/* --expect any, or garbage's default */
	bool want_message;
};

static struct vraid_ioc_hdr *hdr(struct test *t)
{
	return (struct vraid_ioc_hdr *)t->buf;
}

static bool parse_ulong(const char *s, unsigned long *v)
{
	char *end;

	if (!*s || *s == '-')
		return false;
	errno = 0;
	*v = strtoul(s, &end, 0);
	return !errno && !*end;
}

/* A 64-bit number (cache sizes), whatever the size of long. */
static uint64_t need_u64(const char *s, const char *what)
{
	unsigned long long v;
	char *end;

	if (!s || !*s || *s == '-')
		usage_fail("%s: expected a number, got '%s'", what, s ? s : "");
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end)
		usage_fail("%s: expected a number, got '%s'", what, s);
	return v;
}

static unsigned long need_num(const char *s, const char *what)
{
	unsigned long v;

	if (!s || !parse_ulong(s, &v))
		usage_fail("%s: expected a number, got '%s'", what, s ? s : "");
	return v;
}

/* N, vraidN or /dev/vraidN as vraidctl takes them, or any number (0x...) */
static uint32_t parse_index(const char *s)
{
	uint32_t index;

	if (s && vraid_vd_number(s, &index))
		return index;
	if (s && !strncmp(s, VRAID_DISK_PREFIX, strlen(VRAID_DISK_PREFIX)))
		s += strlen(VRAID_DISK_PREFIX);
	return (uint32_t)need_num(s, "INDEX");
}

/* An action word of @t (@n entries) or a number. */
#define parse_action(s, t, what) \
	parse_action_(s, t, ARRAY_SIZE(t), what)
static uint32_t parse_action_(const char *s, const struct named *t, size_t n,
			      const char *what)
{
	size_t i;

	for (i = 0; s && i < n; i++)
		if (!strcmp(s, t[i].name))
			return t[i].v;
	return (uint32_t)need_num(s, what);
}

/* A device: MAJ:MIN, or a path whose st_rdev is sent. */
static void parse_dev(const char *what, const char *a, uint32_t *major_out,
		      uint32_t *minor_out)
{
	unsigned int maj, min;
	struct stat st;
	char extra;

	if (!a)
		usage_fail("%s: name a device (a path or MAJ:MIN)", what);
	if (sscanf(a, "%u:%u%c", &maj, &min, &extra) == 2) {
		*major_out = maj;
		*minor_out = min;
	} else if (stat(a, &st) == 0) {
		*major_out = major(st.st_rdev);
		*minor_out = minor(st.st_rdev);
	} else {
		usage_fail("%s: %s: %s (give a path or MAJ:MIN)", what, a,
			   strerror(errno));
	}
}

/* Build the valid REQUEST from argv[i..]; returns its CMD_*. */
static unsigned int build_request(struct test *t, int argc, char **argv, int i)
{
	const char *r = i < argc ? argv[i++] : "list";
	struct vraid_create *c = (void *)t->buf;
	struct vraid_job *j = (void *)t->buf;
	struct vraid_spare *sp = (void *)t->buf;
	struct vraid_replace *rp = (void *)t->buf;
	struct vraid_set_policy *sp2 = (void *)t->buf;
	struct vraid_controller *ct = (void *)t->buf;
	uint32_t nr = 0;
	bool nr_set = false;
	unsigned int cmd;

	for (cmd = 0; cmd < ARRAY_SIZE(cmds) && strcmp(cmds[cmd].name, r); cmd++)
		;
	if (cmd == ARRAY_SIZE(cmds))
		usage_fail("unknown request or check '%s'", r);
	memset(t->buf, 0, BUF_SIZE);
	t->cmd = cmd;
	t->ioc = cmds[cmd].ioc;
	snprintf(t->reqdesc, sizeof(t->reqdesc), "%s", r);

	if (cmd == CMD_INFO || cmd == CMD_DELETE) {
		uint32_t index = parse_index(i < argc ? argv[i++] : NULL);

		if (cmd == CMD_INFO)
			((struct vraid_info *)t->buf)->index = index;
		else
			((struct vraid_delete *)t->buf)->index = index;
		snprintf(t->reqdesc, sizeof(t->reqdesc), "%s %u", r, index);
	}
	if (cmd == CMD_JOB) {
		j->index = parse_index(i < argc ? argv[i++] : NULL);
		j->action = parse_action(i < argc ? argv[i++] : NULL,
					 job_actions, "job ACTION");
		if (j->action == VRAID_JOB_SET_RATE && i < argc)
			j->rate_kib = (uint32_t)need_num(argv[i++], "RATE");
		snprintf(t->reqdesc, sizeof(t->reqdesc), "job %u action %u",
			 j->index, j->action);
	}
	if (cmd == CMD_SPARE) {
		sp->action = parse_action(i < argc ? argv[i++] : NULL,
					  spare_actions, "spare ACTION");
		while (i < argc) {
			const char *a = argv[i++];

			if (!strcmp(a, "--vd")) {
				sp->spare_flags |= VRAID_SPARE_DEDICATED;
				sp->index = parse_index(i < argc ? argv[i++] : NULL);
			} else if (a[0] == '-') {
				usage_fail("spare: unknown option '%s'", a);
			} else if (sp->major || sp->minor) {
				usage_fail("spare: one device only");
			} else {
				parse_dev("spare", a, &sp->major, &sp->minor);
			}
		}
		snprintf(t->reqdesc, sizeof(t->reqdesc), "spare action %u %u:%u",
			 sp->action, sp->major, sp->minor);
	}
	if (cmd == CMD_REPLACE) {
		rp->index = parse_index(i < argc ? argv[i++] : NULL);
		parse_dev("replace OLD", i < argc ? argv[i++] : NULL,
			  &rp->old_major, &rp->old_minor);
		parse_dev("replace NEW", i < argc ? argv[i++] : NULL,
			  &rp->new_major, &rp->new_minor);
		if (i < argc && !strcmp(argv[i], "--force")) {
			rp->rep_flags = VRAID_REPLACE_FORCE;
			i++;
		}
		snprintf(t->reqdesc, sizeof(t->reqdesc), "replace %u %u:%u %u:%u",
			 rp->index, rp->old_major, rp->old_minor, rp->new_major,
			 rp->new_minor);
	}
	if (cmd == CMD_SET) {
		static const struct {
			const char *key;
			uint32_t bit;
			size_t off;
		} keys[] = {
			{ "access", VRAID_SET_ACCESS,
			  offsetof(struct vraid_set_policy, access_policy) },
			{ "disk-cache", VRAID_SET_DISK_CACHE,
			  offsetof(struct vraid_set_policy, disk_cache_policy) },
			{ "io", VRAID_SET_IO,
			  offsetof(struct vraid_set_policy, io_policy) },
			{ "read", VRAID_SET_READ,
			  offsetof(struct vraid_set_policy, read_policy) },
			{ "write", VRAID_SET_WRITE,
			  offsetof(struct vraid_set_policy, write_policy) },
			{ "mask", 0, offsetof(struct vraid_set_policy, set_mask) },
		};
		uint32_t mask = 0, v32;
		bool mask_given = false;
		size_t k;

		sp2->index = parse_index(i < argc ? argv[i++] : NULL);
		while (i < argc) {
			const char *a = argv[i++], *eq = strchr(a, '=');

			for (k = 0; eq && k < ARRAY_SIZE(keys); k++)
				if (strlen(keys[k].key) == (size_t)(eq - a) &&
				    !strncmp(a, keys[k].key, (size_t)(eq - a)))
					break;
			if (!eq || k == ARRAY_SIZE(keys))
				usage_fail("set: '%s' is not KEY=N with KEY access, disk-cache, io, read, write or mask",
					   a);
			v32 = (uint32_t)need_num(eq + 1, a);
			memcpy(t->buf + keys[k].off, &v32, sizeof(v32));
			mask |= keys[k].bit;
			mask_given |= !keys[k].bit;
		}
		if (!mask_given)
			sp2->set_mask = mask;
		snprintf(t->reqdesc, sizeof(t->reqdesc),
			 "set %u mask 0x%x access %u dcache %u io %u read %u write %u",
			 sp2->index, sp2->set_mask, sp2->access_policy,
			 sp2->disk_cache_policy, sp2->io_policy,
			 sp2->read_policy, sp2->write_policy);
	}
	if (cmd == CMD_CONTROLLER) {
		/* ACTION is optional: a first word without '=' */
		if (i < argc && !strchr(argv[i], '=') && argv[i][0] != '-')
			ct->action = parse_action(argv[i++], ctrl_actions,
						  "controller ACTION");
		while (i < argc) {
			const char *a = argv[i++], *eq = strchr(a, '=');
			size_t klen = eq ? (size_t)(eq - a) : 0;

			if (!strcmp(a, "--force"))
				ct->ctrl_flags |= VRAID_CTRL_FORCE;
			else if (klen == 11 && !strncmp(a, "cache-bytes", klen))
				ct->cache_bytes = need_u64(eq + 1, a);
			else if (klen == 3 && !strncmp(a, "dev", klen))
				parse_dev("controller dev", eq + 1, &ct->major,
					  &ct->minor);
			else if (klen == 5 && !strncmp(a, "flags", klen))
				ct->ctrl_flags = (uint32_t)need_num(eq + 1, a);
			else
				usage_fail("controller: '%s' is not KEY=N with KEY cache-bytes, dev or flags, nor --force",
					   a);
		}
		snprintf(t->reqdesc, sizeof(t->reqdesc),
			 "controller action %u flags 0x%x cache_bytes %llu dev %u:%u",
			 ct->action, ct->ctrl_flags,
			 (unsigned long long)ct->cache_bytes, ct->major,
			 ct->minor);
	}
	while (cmd == CMD_CREATE && i < argc) {
		const char *a = argv[i++], *val = i < argc ? argv[i] : NULL;

		if (!strcmp(a, "--level")) {
			c->level = val && !strcasecmp(val, "jbod") ? VRAID_LEVEL_JBOD :
				   (uint32_t)need_num(val, "--level");
			i++;
		} else if (!strcmp(a, "--strip")) {
			c->strip_bytes = (uint32_t)need_num(val, "--strip");
			i++;
		} else if (!strcmp(a, "--spans")) {
			c->spans = (uint32_t)need_num(val, "--spans");
			i++;
		} else if (!strcmp(a, "--nr")) {
			nr_set = true;
			c->nr_members = (uint32_t)need_num(val, "--nr");
			i++;
		} else if (!strcmp(a, "--init")) {
			c->init = (uint32_t)need_num(val, "--init");
			i++;
		} else if (!strcmp(a, "--access")) {
			c->access_policy = (uint32_t)need_num(val, "--access");
			i++;
		} else if (!strcmp(a, "--disk-cache")) {
			c->disk_cache_policy = (uint32_t)need_num(val, "--disk-cache");
			i++;
		} else if (!strcmp(a, "--io")) {
			c->io_policy = (uint32_t)need_num(val, "--io");
			i++;
		} else if (!strcmp(a, "--read")) {
			c->read_policy = (uint32_t)need_num(val, "--read");
			i++;
		} else if (!strcmp(a, "--write")) {
			c->write_policy = (uint32_t)need_num(val, "--write");
			i++;
		} else if (!strcmp(a, "--name")) {
			if (!val || strlen(val) >= sizeof(c->name))
				usage_fail("--name needs a value of at most %zu bytes",
					   sizeof(c->name) - 1);
			memcpy(c->name, val, strlen(val));
			i++;
		} else if (!strcmp(a, "--name-fill")) {
			memset(c->name, 'A', sizeof(c->name));
		} else if (a[0] == '-') {
			usage_fail("create: unknown option '%s'", a);
		} else {
			struct vraid_member_ref *m;

			if (nr >= VRAID_MAX_MEMBERS)
				usage_fail("create: more than %u members", VRAID_MAX_MEMBERS);
			m = &c->members[nr++];
			parse_dev("create", a, &m->major, &m->minor);
		}
	}
	if (cmd == CMD_CREATE) {
		if (!nr_set)
			c->nr_members = nr;
		snprintf(t->reqdesc, sizeof(t->reqdesc), "create (level %u, %u members)",
			 c->level, nr);
	}
	if (i < argc)
		usage_fail("unexpected argument '%s'", argv[i]);
	return cmd;
}

static void fill_hdr(struct test *t)
{
	struct vraid_ioc_hdr *h = hdr(t);

	h->magic = VRAID_IOC_MAGIC;
	h->size = (uint32_t)cmds[t->cmd].size;
	h->version_major = VRAID_ABI_MAJOR;
	h->version_minor = VRAID_ABI_MINOR;
}

static void expect1(struct test *t, int e)
{
	if (!t->nexpect && !t->any_error)
		t->expect[t->nexpect++] = e;
}

#define LAST(a)	((a)[ARRAY_SIZE(a) - 1])

/*
 * A field that must be zero on input: the header's reserved word, the
 * command's first one (WHERE cmd) or its last reserved2 word (tail).
 */
static void spoil_reserved(struct test *t, const char *where)
{
	struct vraid_create *c = (void *)t->buf;
	struct vraid_delete *d = (void *)t->buf;
	struct vraid_list *l = (void *)t->buf;
	struct vraid_info *in = (void *)t->buf;
	struct vraid_job *j = (void *)t->buf;
	struct vraid_spare *sp = (void *)t->buf;
	struct vraid_replace *rp = (void *)t->buf;
	struct vraid_set_policy *p = (void *)t->buf;
	struct vraid_controller *ct = (void *)t->buf;
	bool cmd = !strcmp(where, "cmd");

	if (!strcmp(where, "hdr")) {
		hdr(t)->reserved = 1;
		return;
	}
	if (!cmd && strcmp(where, "tail"))
		usage_fail("reserved: WHERE is hdr, cmd or tail, not '%s'", where);
	switch (t->cmd) {
	case CMD_CREATE:
		/* reserved1 became init in ABI 1.3; a new one came in 1.4 */
		if (cmd)
			c->reserved1 = 1;
		else
			LAST(c->reserved2) = 1;
		break;
	case CMD_DELETE:
		if (cmd)
			d->del_flags = 4;	/* no such flag */
		else
			LAST(d->reserved2) = 1;
		break;
	case CMD_LIST:
		if (cmd)
			l->reserved1 = 1;
		else
			LAST(l->reserved2) = 1;
		break;
	case CMD_INFO:
		/* the job fields and what follows are output only */
		if (cmd)
			in->job_type = 1;
		else
			in->cache_flags = 1;
		break;
	case CMD_JOB:
		if (cmd)
			j->reserved1 = 1;
		else
			LAST(j->reserved2) = 1;
		break;
	case CMD_SPARE:
		if (cmd)
			sp->nr_spares = 1;	/* an out field */
		else
			LAST(sp->reserved2) = 1;
		break;
	case CMD_REPLACE:
		if (cmd)
			rp->reserved2[0] = 1;
		else
			LAST(rp->reserved2) = 1;
		break;
	case CMD_SET:
		if (cmd)
			p->reserved1 = 1;
		else
			LAST(p->reserved2) = 1;
		break;
	case CMD_CONTROLLER:
		/* every out field is zero on input */
		if (cmd)
			ct->cache_default_bytes = 1;
		else
			LAST(ct->reserved) = 1;
		break;
	}
}

/* bad-flags, bad-action, bad-rate, bad-dev: the command's own fields. */
static void spoil_field(struct test *t, const char *check, const char *arg,
			unsigned long v)
{
	struct vraid_create *c = (void *)t->buf;
	struct vraid_delete *d = (void *)t->buf;
	struct vraid_job *j = (void *)t->buf;
	struct vraid_spare *sp = (void *)t->buf;
	struct vraid_replace *rp = (void *)t->buf;
	struct vraid_set_policy *p = (void *)t->buf;
	struct vraid_controller *ct = (void *)t->buf;
	uint32_t maj = 0, min = 0;

	if (!strcmp(check, "bad-flags")) {
		uint32_t bits = arg ? (uint32_t)v : 0x80000000U;

		if (t->cmd == CMD_DELETE)
			d->del_flags = bits;
		else if (t->cmd == CMD_SPARE)
			sp->spare_flags = bits;
		else if (t->cmd == CMD_REPLACE)
			rp->rep_flags = bits;
		else if (t->cmd == CMD_SET)
			p->set_mask |= bits;	/* an unknown policy bit */
		else if (t->cmd == CMD_CONTROLLER)
			ct->ctrl_flags = bits;
		else
			usage_fail("bad-flags: %s has no flags of its own (delete, spare, replace, set, controller do)",
				   cmds[t->cmd].name);
	} else if (!strcmp(check, "bad-action")) {
		uint32_t a = arg ? (uint32_t)v : 0x7f;

		if (t->cmd == CMD_JOB)
			j->action = a;
		else if (t->cmd == CMD_SPARE)
			sp->action = a;
		else if (t->cmd == CMD_CONTROLLER)
			ct->action = a;
		else
			usage_fail("bad-action: only job and spare have an action (and controller)");
	} else if (!strcmp(check, "bad-rate")) {
		if (t->cmd != CMD_JOB)
			usage_fail("bad-rate: only for job");
		j->rate_kib = arg ? (uint32_t)v : VRAID_JOB_RATE_MAX + 1;
	} else {	/* bad-dev */
		if (arg && strcmp(arg, "same"))
			parse_dev("bad-dev", arg, &maj, &min);
		if (arg && !strcmp(arg, "same")) {
			if (t->cmd != CMD_REPLACE)
				usage_fail("bad-dev same: only for replace");
			rp->new_major = rp->old_major;
			rp->new_minor = rp->old_minor;
		} else if (t->cmd == CMD_CREATE) {
			c->members[0].major = maj;
			c->members[0].minor = min;
		} else if (t->cmd == CMD_SPARE) {
			sp->major = maj;
			sp->minor = min;
		} else if (t->cmd == CMD_REPLACE) {
			rp->new_major = maj;
			rp->new_minor = min;
		} else if (t->cmd == CMD_CONTROLLER) {
			ct->major = maj;
			ct->minor = min;
		} else {
			usage_fail("bad-dev: only create, spare, replace and controller name devices");
		}
	}
}

static bool is_expected(const struct test *t, int e)
{
	size_t i;

	if (kernel_internal(e) || e == EFAULT)
		return false;
	if (t->any_error && e != EXPECT_OK)
		return true;
	for (i = 0; i < t->nexpect; i++)
		if (t->expect[i] == e)
			return true;
	return false;
}

static void print_expect(const struct test *t, FILE *f)
{
	size_t i;

	if (t->any_error && !t->nexpect)
		fputs("any error", f);
	for (i = 0; i < t->nexpect; i++)
		fprintf(f, "%s%s", i ? "," : "", errname(t->expect[i]));
}

/* Issue the ioctl; returns 0 or the errno. */
static int send_req(int fd, struct test *t)
{
	int rc = ioctl(fd, t->ioc, t->buf);

	if (rc == 0)
		return hdr(t)->status < 0 ? -hdr(t)->status : EXPECT_OK;
	return errno;
}

static bool run_one(int fd, struct test *t)
{
	struct vraid_ioc_hdr *h = hdr(t);
	bool replied, ok;
	char msg[VRAID_MSG_LEN];
	int e;

	memset(h->message, 0, sizeof(h->message));
	h->status = 0;
	e = send_req(fd, t);
	replied = e != EXPECT_OK && h->status == -e;
	memcpy(msg, h->message, sizeof(msg));
	msg[sizeof(msg) - 1] = '\0';
	ok = is_expected(t, e);
	if (ok && t->want_message && e != EXPECT_OK && !(replied && msg[0]))
		ok = false;
	printf("vraid-raw: %s %s: got %s", t->check, t->reqdesc, errname(e));
	if (e != EXPECT_OK)
		printf(" (%s)", strerror(e));
	if (replied)
		printf(", status %d, message \"%s\"", h->status, msg);
	else if (e != EXPECT_OK)
		printf(", no reply header");
	if (replied && e == EPROTO)
		printf(", module ABI %d.%d", h->version_major, h->version_minor);
	printf("; want ");
	print_expect(t, stdout);
	if (t->want_message)
		printf(" with a message");
	printf(": %s\n", ok ? "ok" : "FAIL");
	if (kernel_internal(e))
		printf("vraid-raw: %s is kernel-internal and must never reach userspace\n",
		       errname(e));
	return ok;
}

/* xorshift64*: reproducible garbage from a seed. */
static uint64_t rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

static bool run_garbage(int fd, struct test *t, unsigned long rounds,
			uint64_t seed)
{
	/* per errname, then success, then any other errno */
	unsigned long r, hits[vraid_nr_errnames + 2], bad = 0;
	uint64_t s = seed ? seed : 1;
	size_t k, i, len = cmds[t->cmd].size + 64;
	int e;

	memset(hits, 0, sizeof(hits));
	for (r = 0; r < rounds; r++) {
		struct vraid_ioc_hdr *h = hdr(t);

		for (k = 0; k < len; k += 8) {
			uint64_t x = rnd(&s);

			memcpy(t->buf + k, &x, sizeof(x));
		}
		if (r % 4 >= 1)
			h->magic = VRAID_IOC_MAGIC;
		if (r % 4 >= 2) {
			h->version_major = VRAID_ABI_MAJOR;
			h->version_minor = VRAID_ABI_MINOR;
		}
		if (r % 4 == 3) {
			h->size = (uint32_t)(cmds[t->cmd].size + rnd(&s) % 65);
			h->flags = 0;
			h->reserved = 0;
		}
		e = send_req(fd, t);
		if (!is_expected(t, e)) {
			if (bad++ < 5)
				printf("vraid-raw: garbage %s: round %lu got %s\n",
				       t->reqdesc, r, errname(e));
		}
		for (i = 0; i < vraid_nr_errnames && vraid_errnames[i].e != e; i++)
			;
		hits[e == EXPECT_OK ? vraid_nr_errnames :
		     i < vraid_nr_errnames ? i : vraid_nr_errnames + 1]++;
	}
	printf("vraid-raw: garbage %s: %lu rounds (seed %llu):", t->reqdesc,
	       rounds, (unsigned long long)seed);
	for (i = 0; i < vraid_nr_errnames; i++)
		if (hits[i])
			printf(" %s %lu", vraid_errnames[i].name, hits[i]);
	if (hits[vraid_nr_errnames])
		printf(" success %lu", hits[vraid_nr_errnames]);
	if (hits[vraid_nr_errnames + 1])
		printf(" other %lu", hits[vraid_nr_errnames + 1]);
	printf("; want ");
	print_expect(t, stdout);
	printf(" every round: %s\n", bad ? "FAIL" : "ok");
	return !bad;
}

static void drop_privs(void)
{
	if (getuid() != 0 && geteuid() != 0) {
		fprintf(stderr, "vraid-raw: --drop-privs must start as root\n");
		exit(2);
	}
	if (setgroups(0, NULL) || setgid(NOBODY) || setuid(NOBODY)) {
		fprintf(stderr, "vraid-raw: cannot become uid %d: %s\n", NOBODY,
			strerror(errno));
		exit(2);
	}
	if (setuid(0) == 0 || geteuid() == 0) {
		fprintf(stderr, "vraid-raw: privileges were not dropped\n");
		exit(2);
	}
}

int main(int argc, char **argv)
{
	static unsigned char buf[BUF_SIZE] __attribute__((aligned(8)));
	const char *path;
	struct test t = { .buf = buf };
	const char *check = "send", *expect = NULL;
	bool privs = false, ctrl_priv, ok;
	unsigned long v = 0, rounds = 1000, seed = 1;
	static const char *const checks[] = {
		"send", "hdr-size", "short", "huge", "long-zero", "long-tail",
		"bad-magic", "bad-version", "newer-minor", "reserved",
		"nonzero-flags", "unknown-cmd", "wrong-type", "wrong-encoding",
		"garbage", "small", "bad-flags", "bad-action", "bad-rate",
		"bad-dev",
	};
	const char *arg1 = NULL;
	struct vraid_ioc_hdr *h;
	uint32_t size;
	int i = 1, fd;
	size_t k;

	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(usage_text, stdout);
			return 0;
		} else if (!strcmp(argv[i], "--expect") && i + 1 < argc) {
			expect = argv[++i];
		} else if (!strcmp(argv[i], "--want-message")) {
			t.want_message = true;
		} else if (!strcmp(argv[i], "--drop-privs")) {
			privs = true;
		} else {
			usage_fail("unknown option '%s'", argv[i]);
		}
	}
	if (i >= argc) {
		fputs(usage_text, stderr);
		return 2;
	}

	/* CHECK and its optional arguments (numbers, or a WHERE word). */
	for (k = 0; k < ARRAY_SIZE(checks) && strcmp(checks[k], argv[i]); k++)
		;
	if (k < ARRAY_SIZE(checks)) {
		check = argv[i++];
		if (!strcmp(check, "hdr-size")) {
			arg1 = i < argc ? argv[i++] : NULL;
			v = need_num(arg1, "hdr-size N");
		} else if (!strcmp(check, "reserved") && i < argc &&
			   (!strcmp(argv[i], "hdr") || !strcmp(argv[i], "cmd") ||
			    !strcmp(argv[i], "tail"))) {
			arg1 = argv[i++];
		} else if (!strcmp(check, "nonzero-flags") || !strcmp(check, "unknown-cmd") ||
			   !strcmp(check, "bad-flags") || !strcmp(check, "bad-action") ||
			   !strcmp(check, "bad-rate")) {
			if (i < argc && parse_ulong(argv[i], &v))
				arg1 = argv[i++];
		} else if (!strcmp(check, "bad-dev")) {
			unsigned int a, b;
			char extra;

			if (i < argc && (!strcmp(argv[i], "same") ||
					 sscanf(argv[i], "%u:%u%c", &a, &b, &extra) == 2))
				arg1 = argv[i++];
		} else if (!strcmp(check, "garbage")) {
			if (i < argc && parse_ulong(argv[i], &rounds)) {
				arg1 = argv[i++];
				if (i < argc && parse_ulong(argv[i], &seed))
					i++;
			}
		}
	}
	t.check = check;
	build_request(&t, argc, argv, i);
	fill_hdr(&t);

	/* The expectation: --expect, else the CHECK's default. */
	if (expect) {
		char *list = strdup(expect), *tok, *save = NULL;

		for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
			int e = !strcasecmp(tok, "ok") ? EXPECT_OK : vraid_errnum(tok);

			if (!strcasecmp(tok, "any")) {
				t.any_error = true;
				continue;
			}
			if (e < 0)
				usage_fail("--expect: unknown errno name '%s'", tok);
			if (t.nexpect == MAX_EXPECT)
				usage_fail("--expect: too many values");
			t.expect[t.nexpect++] = e;
		}
		free(list);
	}
	if (privs && (t.cmd == CMD_CREATE || t.cmd == CMD_DELETE ||
		      t.cmd == CMD_JOB || t.cmd == CMD_REPLACE ||
		      t.cmd == CMD_SET ||
		      (t.cmd == CMD_SPARE &&
		       ((struct vraid_spare *)t.buf)->action != VRAID_SPARE_LIST)))
		expect1(&t, EPERM);

	/* Spoil the request. */
	h = hdr(&t);
	size = h->size;
	ctrl_priv = t.cmd == CMD_CONTROLLER &&
		    ((struct vraid_controller *)t.buf)->action != VRAID_CTRL_SHOW;

	if (!strcmp(check, "send")) {
		expect1(&t, EXPECT_OK);
	} else if (!strcmp(check, "hdr-size")) {
		h->size = (uint32_t)v;
		expect1(&t, v < size || v > VRAID_IOC_MAX_SIZE ? EINVAL : EXPECT_OK);
	} else if (!strcmp(check, "short")) {
		h->size = sizeof(*h) - 1;
		expect1(&t, EINVAL);
	} else if (!strcmp(check, "small")) {
		h->size = size - 8;
		expect1(&t, EINVAL);
	} else if (!strcmp(check, "bad-flags") || !strcmp(check, "bad-action") ||
		   !strcmp(check, "bad-rate") || !strcmp(check, "bad-dev")) {
		spoil_field(&t, check, arg1, v);
		expect1(&t, EINVAL);
	} else if (!strcmp(check, "huge")) {
		h->size = VRAID_IOC_MAX_SIZE + 1;
		expect1(&t, EINVAL);
	} else if (!strcmp(check, "long-zero")) {
		h->size = size + 64;
		expect1(&t, EXPECT_OK);
	} else if (!strcmp(check, "long-tail")) {
		h->size = size + 64;
		t.buf[size + 63] = 0x5a;
		expect1(&t, E2BIG);
	} else if (!strcmp(check, "bad-magic")) {
		h->magic = 0x12345678;
		expect1(&t, EINVAL);
	} else if (!strcmp(check, "bad-version")) {
		h->version_major = VRAID_ABI_MAJOR + 1;
		expect1(&t, EPROTO);
	} else if (!strcmp(check, "newer-minor")) {
		h->version_minor = VRAID_ABI_MINOR + 1;
		expect1(&t, EXPECT_OK);
	} else if (!strcmp(check, "reserved")) {
		spoil_reserved(&t, arg1 ? arg1 : "hdr");
		expect1(&t, EINVAL);
	} else if (!strcmp(check, "nonzero-flags")) {
		h->flags = arg1 ? (uint32_t)v : 0x80000000U;
		expect1(&t, EINVAL);
	} else if (!strcmp(check, "unknown-cmd")) {
		t.ioc = _IOWR(VRAID_IOC_TYPE, arg1 ? v : 0x7f, struct vraid_ioc_hdr);
		snprintf(t.reqdesc, sizeof(t.reqdesc), "nr 0x%lx", arg1 ? v : 0x7fUL);
		expect1(&t, ENOTTY);
	} else if (!strcmp(check, "wrong-type")) {
		t.ioc = _IOWR('X', _IOC_NR(t.ioc), struct vraid_ioc_hdr);
		expect1(&t, ENOTTY);
	} else if (!strcmp(check, "wrong-encoding")) {
		t.ioc = _IOWR(VRAID_IOC_TYPE, _IOC_NR(t.ioc), __u64);
		expect1(&t, ENOTTY);
	} else if (!strcmp(check, "garbage")) {
		if (!t.nexpect)
			t.any_error = true;
	}
	/*
	 * CONTROLLER checks privilege after validation, for actions other
	 * than show: EPERM only for a request the kernel would take.
	 */
	if (privs && ctrl_priv && !expect && t.nexpect == 1 &&
	    t.expect[0] == EXPECT_OK)
		t.expect[0] = EPERM;

	path = vraid_control_path(NULL);
	fd = vraid_control_open(path, true);
	if (fd < 0) {
		fprintf(stderr, "vraid-raw: cannot open %s: %s\n", path, strerror(errno));
		return 2;
	}
	if (privs)
		drop_privs();
	ok = !strcmp(check, "garbage") ? run_garbage(fd, &t, rounds, seed) :
					  run_one(fd, &t);
	close(fd);
	return ok ? 0 : 1;
}
