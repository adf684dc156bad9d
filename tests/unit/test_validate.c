// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the ioctl request validation (driver/core/validate.c), table
 * driven.  Every request is a heap buffer of exactly its struct's size, so
 * ASan catches a validator that reads past it; every message buffer is
 * exactly VRAID_MSG_LEN bytes, so ASan catches a message that overruns
 * hdr.message.
 */
#include "core_types.h"
#include <linux/vraid.h>
#include "validate.h"
#include "tap.h"

#include <stddef.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static char *msg;	/* VRAID_MSG_LEN bytes, like hdr.message */

/* The commands, by _IOC_NR. */
static const struct cmd {
	u32 nr;
	const char *name;
	u32 size;		/* sizeof its struct */
	unsigned long ioc;	/* the ioctl number */
	bool mutates;
} cmds[] = {
	{ 0x00, "CREATE", sizeof(struct vraid_create), VRAID_IOC_CREATE, true },
	{ 0x01, "DELETE", sizeof(struct vraid_delete), VRAID_IOC_DELETE, true },
	{ 0x02, "LIST",   sizeof(struct vraid_list),   VRAID_IOC_LIST,   false },
	{ 0x03, "INFO",   sizeof(struct vraid_info),   VRAID_IOC_INFO,   false },
	{ 0x04, "SET_POLICY", sizeof(struct vraid_set_policy),
	  VRAID_IOC_SET_POLICY, true },
	{ 0x05, "FAIL_MEMBER", sizeof(struct vraid_fail_member),
	  VRAID_IOC_FAIL_MEMBER, true },
	{ 0x06, "SPARE", sizeof(struct vraid_spare), VRAID_IOC_SPARE, false },
	{ 0x07, "REPLACE", sizeof(struct vraid_replace), VRAID_IOC_REPLACE,
	  true },
	{ 0x08, "JOB", sizeof(struct vraid_job), VRAID_IOC_JOB, true },
	/* SHOW is for anyone: the handler checks privilege for the rest */
	{ 0x09, "CONTROLLER", sizeof(struct vraid_controller),
	  VRAID_IOC_CONTROLLER, false },
	{ 0x0b, "ASSEMBLE", sizeof(struct vraid_assemble),
	  VRAID_IOC_ASSEMBLE, true },
	/* the event log: for anyone, read without the controller's lock */
	{ 0x0c, "EVENTS", sizeof(struct vraid_events), VRAID_IOC_EVENTS,
	  false },
};

static void *zalloc(size_t len)
{
	void *p = calloc(1, len);

	if (!p) {
		perror("calloc");
		exit(2);
	}
	return p;
}

static void good_hdr(struct vraid_ioc_hdr *h, u32 size)
{
	memset(h, 0, sizeof(*h));
	h->magic = VRAID_IOC_MAGIC;
	h->size = size;
	h->version_major = VRAID_ABI_MAJOR;
	h->version_minor = VRAID_ABI_MINOR;
}

/*
 * After a validator ran: the result is @err; a refusal has a non-empty,
 * NUL-terminated message that mentions @needle (if given) and that is not
 * truncated (its full text is shorter than VRAID_MSG_LEN).
 */
static void expect(int ret, int err, const char *needle)
{
	CHECK(ret == err, "returned %d, expected %d (message \"%.*s\")", ret,
	      err, VRAID_MSG_LEN, msg);
	if (ret)
		CHECK_MSG(msg, VRAID_MSG_LEN, needle);
	if (ret && memchr(msg, '\0', VRAID_MSG_LEN))
		CHECK(strlen(msg) < VRAID_MSG_LEN - 1,
		      "message of %zu chars may have been truncated: \"%.*s\"",
		      strlen(msg), VRAID_MSG_LEN, msg);
}

/* ---- the header ---------------------------------------------------------- */

enum { SZ_ABS, SZ_MIN };	/* size is absolute, or min size + delta */

static const struct hdr_case {
	const char *what;
	u32 magic;
	int size_kind;
	s64 size;
	u16 major, minor;
	u32 flags, reserved;
	s32 status;		/* "out" field: ignored on input */
	int err;
	const char *needle;
} hdr_cases[] = {
#define GOOD VRAID_IOC_MAGIC, SZ_MIN, 0, VRAID_ABI_MAJOR, VRAID_ABI_MINOR, 0, 0, 0
	{ "good header", GOOD, 0, NULL },
	{ "bad magic 0",
	  0, SZ_MIN, 0, 1, 0, 0, 0, 0, -EINVAL, "0x00000000" },
	{ "bad magic byte-swapped",
	  0x49415256, SZ_MIN, 0, 1, 0, 0, 0, 0, -EINVAL, "0x49415256" },
	{ "bad magic +1",
	  VRAID_IOC_MAGIC + 1, SZ_MIN, 0, 1, 0, 0, 0, 0, -EINVAL, "0x5652414a" },
	{ "major 0",
	  VRAID_IOC_MAGIC, SZ_MIN, 0, 0, 0, 0, 0, 0, -EPROTO, "0.0" },
	{ "major 2",
	  VRAID_IOC_MAGIC, SZ_MIN, 0, 2, 0, 0, 0, 0, -EPROTO, "2.0" },
	{ "major 65535",
	  VRAID_IOC_MAGIC, SZ_MIN, 0, 0xffff, 3, 0, 0, 0, -EPROTO, "65535.3" },
	{ "minor 1 accepted",
	  VRAID_IOC_MAGIC, SZ_MIN, 0, 1, 1, 0, 0, 0, 0, NULL },
	{ "minor 7 accepted",
	  VRAID_IOC_MAGIC, SZ_MIN, 0, 1, 7, 0, 0, 0, 0, NULL },
	{ "minor 65535 accepted",
	  VRAID_IOC_MAGIC, SZ_MIN, 0, 1, 0xffff, 0, 0, 0, 0, NULL },
	{ "size 0",
	  VRAID_IOC_MAGIC, SZ_ABS, 0, 1, 0, 0, 0, 0, -EINVAL, "size 0" },
	{ "size of the header only",
	  VRAID_IOC_MAGIC, SZ_ABS, sizeof(struct vraid_ioc_hdr), 1, 0, 0, 0, 0,
	  -EINVAL, "size" },
	{ "size one below the struct",
	  VRAID_IOC_MAGIC, SZ_MIN, -1, 1, 0, 0, 0, 0, -EINVAL, "size" },
	{ "size 8 below the struct",
	  VRAID_IOC_MAGIC, SZ_MIN, -8, 1, 0, 0, 0, 0, -EINVAL, "size" },
	{ "size 8 above the struct (newer tool) accepted",
	  VRAID_IOC_MAGIC, SZ_MIN, 8, 1, 0, 0, 0, 0, 0, NULL },
	{ "size VRAID_IOC_MAX_SIZE accepted",
	  VRAID_IOC_MAGIC, SZ_ABS, VRAID_IOC_MAX_SIZE, 1, 0, 0, 0, 0, 0, NULL },
	{ "size VRAID_IOC_MAX_SIZE + 1",
	  VRAID_IOC_MAGIC, SZ_ABS, VRAID_IOC_MAX_SIZE + 1, 1, 0, 0, 0, 0,
	  -EINVAL, "65537" },
	{ "size 0xffffffff",
	  VRAID_IOC_MAGIC, SZ_ABS, 0xffffffff, 1, 0, 0, 0, 0, -EINVAL,
	  "4294967295" },
	{ "flags 1",
	  VRAID_IOC_MAGIC, SZ_MIN, 0, 1, 0, 1, 0, 0, -EINVAL, "0x1" },
	{ "flags 0x80000000",
	  VRAID_IOC_MAGIC, SZ_MIN, 0, 1, 0, 0x80000000, 0, 0, -EINVAL,
	  "0x80000000" },
	{ "reserved 1",
	  VRAID_IOC_MAGIC, SZ_MIN, 0, 1, 0, 0, 1, 0, -EINVAL, "reserved" },
	{ "reserved 0xffffffff",
	  VRAID_IOC_MAGIC, SZ_MIN, 0, 1, 0, 0, 0xffffffff, 0, -EINVAL,
	  "reserved" },
	{ "status on input is ignored",
	  VRAID_IOC_MAGIC, SZ_MIN, 0, 1, 0, 0, 0, -5, 0, NULL },
#undef GOOD
};

static void test_hdr(void)
{
	static const u32 unknown[] = {
		10, 0x0d, 0x0e, 0xff, 0x100, 0x80000000, 0xffffffff,
	};
	struct vraid_ioc_hdr *h = zalloc(sizeof(*h));
	size_t i, j;

	for (j = 0; j < ARRAY_SIZE(cmds); j++) {
		for (i = 0; i < ARRAY_SIZE(hdr_cases); i++) {
			const struct hdr_case *c = &hdr_cases[i];
			s64 size = c->size_kind == SZ_MIN ?
				   (s64)cmds[j].size + c->size : c->size;
			int ret;

			tap_begin("hdr %s: %s -> %d", cmds[j].name, c->what,
				  c->err);
			good_hdr(h, (u32)size);
			h->magic = c->magic;
			h->version_major = c->major;
			h->version_minor = c->minor;
			h->flags = c->flags;
			h->reserved = c->reserved;
			h->status = c->status;
			/* the message is an out field too: garbage is fine */
			memset(h->message, 'm', sizeof(h->message));
			msg_reset(msg, VRAID_MSG_LEN);
			ret = vraid_validate_hdr(h, cmds[j].nr, msg,
						 VRAID_MSG_LEN);
			expect(ret, c->err, c->needle);
			tap_end();
		}
	}

	for (i = 0; i < ARRAY_SIZE(unknown); i++) {
		char needle[32];

		snprintf(needle, sizeof(needle), "command %u", unknown[i]);
		tap_begin("hdr: unknown command %u -> -ENOTTY", unknown[i]);
		good_hdr(h, sizeof(struct vraid_create));
		msg_reset(msg, VRAID_MSG_LEN);
		expect(vraid_validate_hdr(h, unknown[i], msg, VRAID_MSG_LEN),
		       -ENOTTY, needle);
		CHECK(vraid_cmd_min_size(unknown[i]) == 0,
		      "vraid_cmd_min_size(%u) = %u", unknown[i],
		      vraid_cmd_min_size(unknown[i]));
		CHECK(!vraid_cmd_mutates(unknown[i]),
		      "vraid_cmd_mutates(%u) is true", unknown[i]);
		tap_end();
	}
	free(h);
}

/* ---- the ABI itself ------------------------------------------------------ */

#define FSZ(type, field) sizeof(((type *)0)->field)

static void test_abi(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cmds); i++) {
		const struct cmd *c = &cmds[i];

		tap_begin("ioctl %s: nr %u, type 0xF7, read/write, encodes the header only",
			  c->name, c->nr);
		CHECK(_IOC_NR(c->ioc) == c->nr, "_IOC_NR %lu",
		      (unsigned long)_IOC_NR(c->ioc));
		CHECK(_IOC_TYPE(c->ioc) == VRAID_IOC_TYPE, "_IOC_TYPE 0x%lx",
		      (unsigned long)_IOC_TYPE(c->ioc));
		CHECK(_IOC_DIR(c->ioc) == (_IOC_READ | _IOC_WRITE),
		      "_IOC_DIR %lu", (unsigned long)_IOC_DIR(c->ioc));
		CHECK(_IOC_SIZE(c->ioc) == sizeof(struct vraid_ioc_hdr),
		      "_IOC_SIZE %lu", (unsigned long)_IOC_SIZE(c->ioc));
		CHECK(vraid_cmd_min_size(_IOC_NR(c->ioc)) == c->size,
		      "vraid_cmd_min_size %u, sizeof %u",
		      vraid_cmd_min_size(_IOC_NR(c->ioc)), c->size);
		CHECK(vraid_cmd_mutates(c->nr) == c->mutates,
		      "vraid_cmd_mutates %d", vraid_cmd_mutates(c->nr));
		tap_end();
	}

	/*
	 * No implicit padding anywhere: the layout is then the same on
	 * 32-bit and 64-bit userspace (no compat_ioctl translation).
	 */
	tap_begin("ABI structs have no implicit padding");
	CHECK(sizeof(struct vraid_ioc_hdr) ==
	      4 + 4 + 2 + 2 + 4 + 4 + 4 + VRAID_MSG_LEN,
	      "vraid_ioc_hdr %zu", sizeof(struct vraid_ioc_hdr));
	/* ... 5 policies and reserved1 since ABI 1.4 */
	CHECK(sizeof(struct vraid_create) ==
	      sizeof(struct vraid_ioc_hdr) + 4 * 4 + VRAID_NAME_LEN + 4 + 4 +
	      VRAID_DEVNAME_LEN + 5 * 4 + 4 +
	      FSZ(struct vraid_create, reserved2) +
	      FSZ(struct vraid_create, members),
	      "vraid_create %zu", sizeof(struct vraid_create));
	CHECK(sizeof(struct vraid_delete) ==
	      sizeof(struct vraid_ioc_hdr) + 4 + 4 + 8 +
	      FSZ(struct vraid_delete, reserved2),
	      "vraid_delete %zu", sizeof(struct vraid_delete));
	CHECK(sizeof(struct vraid_list) ==
	      sizeof(struct vraid_ioc_hdr) + 4 + 4 +
	      FSZ(struct vraid_list, reserved2) + 4 * VRAID_MAX_VDS,
	      "vraid_list %zu", sizeof(struct vraid_list));
	CHECK(sizeof(struct vraid_member_info) ==
	      4 * 4 + 8 + 8 + VRAID_DEVNAME_LEN + 3 * 8 +
	      FSZ(struct vraid_member_info, reserved),
	      "vraid_member_info %zu", sizeof(struct vraid_member_info));
	/* ... 6 policies, 2 job words, 2 counts, rate and eta, 2 mismatch
	 * counts, last job and result, write policy in effect, cache flags */
	CHECK(sizeof(struct vraid_info) ==
	      sizeof(struct vraid_ioc_hdr) + 8 * 4 + 3 * 8 + VRAID_NAME_LEN +
	      VRAID_DEVNAME_LEN + 6 * 4 + 2 * 4 + 2 * 8 + 2 * 4 + 2 * 8 +
	      2 * 4 + 2 * 4 +
	      FSZ(struct vraid_info, members),
	      "vraid_info %zu", sizeof(struct vraid_info));
	CHECK(sizeof(struct vraid_job) ==
	      sizeof(struct vraid_ioc_hdr) + 4 * 4 +
	      FSZ(struct vraid_job, reserved2),
	      "vraid_job %zu", sizeof(struct vraid_job));
	CHECK(sizeof(struct vraid_spare_info) ==
	      4 + 4 + 8 + 4 + 4 + VRAID_DEVNAME_LEN + 16,
	      "vraid_spare_info %zu", sizeof(struct vraid_spare_info));
	CHECK(sizeof(struct vraid_spare) ==
	      sizeof(struct vraid_ioc_hdr) + 6 * 4 + 16 +
	      FSZ(struct vraid_spare, reserved2) +
	      VRAID_MAX_SPARES * sizeof(struct vraid_spare_info),
	      "vraid_spare %zu", sizeof(struct vraid_spare));
	CHECK(sizeof(struct vraid_replace) ==
	      sizeof(struct vraid_ioc_hdr) + 8 * 4 +
	      FSZ(struct vraid_replace, reserved2),
	      "vraid_replace %zu", sizeof(struct vraid_replace));
	CHECK(sizeof(struct vraid_set_policy) ==
	      sizeof(struct vraid_ioc_hdr) + 8 * 4 +
	      FSZ(struct vraid_set_policy, reserved2),
	      "vraid_set_policy %zu", sizeof(struct vraid_set_policy));
	/* action, flags, size, device; 5 cache counts, nr_vds, journal
	 * state and device, 2 journal counts; ABI 1.9: journal UUID, head
	 * and tail, pending and VDs */
	CHECK(sizeof(struct vraid_controller) ==
	      sizeof(struct vraid_ioc_hdr) + 2 * 4 + 8 + 2 * 4 + 5 * 8 +
	      4 * 4 + 2 * 8 + 16 + 2 * 8 + 2 * 4 +
	      FSZ(struct vraid_controller, reserved),
	      "vraid_controller %zu", sizeof(struct vraid_controller));
	CHECK(sizeof(struct vraid_ioc_hdr) % 8 == 0 &&
	      sizeof(struct vraid_create) % 8 == 0 &&
	      sizeof(struct vraid_delete) % 8 == 0 &&
	      sizeof(struct vraid_list) % 8 == 0 &&
	      sizeof(struct vraid_info) % 8 == 0 &&
	      sizeof(struct vraid_job) % 8 == 0 &&
	      sizeof(struct vraid_spare_info) % 8 == 0 &&
	      sizeof(struct vraid_spare) % 8 == 0 &&
	      sizeof(struct vraid_replace) % 8 == 0 &&
	      sizeof(struct vraid_set_policy) % 8 == 0 &&
	      sizeof(struct vraid_controller) % 8 == 0,
	      "a struct size is not a multiple of 8");
	tap_end();

	/*
	 * The v1 sizes are the smallest requests the kernel must accept
	 * forever: the numbers are frozen here on purpose (change them only
	 * before the ABI is first released).
	 */
	tap_begin("ABI v1 minimum sizes: create 560, delete 192, list 1216, info 4200");
	CHECK(VRAID_CREATE_SIZE_V1 == 560 && VRAID_DELETE_SIZE_V1 == 192 &&
	      VRAID_LIST_SIZE_V1 == 1216 && VRAID_INFO_SIZE_V1 == 4200,
	      "uapi v1 sizes %u %u %u %u", VRAID_CREATE_SIZE_V1,
	      VRAID_DELETE_SIZE_V1, VRAID_LIST_SIZE_V1, VRAID_INFO_SIZE_V1);
	CHECK(vraid_cmd_min_size(0) == VRAID_CREATE_SIZE_V1, "create %u",
	      vraid_cmd_min_size(0));
	CHECK(vraid_cmd_min_size(1) == VRAID_DELETE_SIZE_V1, "delete %u",
	      vraid_cmd_min_size(1));
	CHECK(vraid_cmd_min_size(2) == VRAID_LIST_SIZE_V1, "list %u",
	      vraid_cmd_min_size(2));
	CHECK(vraid_cmd_min_size(3) == VRAID_INFO_SIZE_V1, "info %u",
	      vraid_cmd_min_size(3));
	CHECK(sizeof(struct vraid_info) <= VRAID_IOC_MAX_SIZE,
	      "vraid_info %zu exceeds VRAID_IOC_MAX_SIZE",
	      sizeof(struct vraid_info));
	tap_end();

	/* The commands of ABI 1.3: frozen the same way. */
	tap_begin("ABI 1.3 minimum sizes: job 200, spare 2512, replace 208");
	CHECK(VRAID_JOB_SIZE_V1 == 200 && VRAID_SPARE_SIZE_V1 == 2512 &&
	      VRAID_REPLACE_SIZE_V1 == 208,
	      "uapi sizes %u %u %u", VRAID_JOB_SIZE_V1, VRAID_SPARE_SIZE_V1,
	      VRAID_REPLACE_SIZE_V1);
	CHECK(sizeof(struct vraid_job) == 200 &&
	      sizeof(struct vraid_spare) == 2512 &&
	      sizeof(struct vraid_replace) == 208 &&
	      sizeof(struct vraid_spare_info) == 72,
	      "sizeof %zu %zu %zu %zu", sizeof(struct vraid_job),
	      sizeof(struct vraid_spare), sizeof(struct vraid_replace),
	      sizeof(struct vraid_spare_info));
	CHECK(vraid_cmd_min_size(0x08) == VRAID_JOB_SIZE_V1, "job %u",
	      vraid_cmd_min_size(0x08));
	CHECK(vraid_cmd_min_size(0x06) == VRAID_SPARE_SIZE_V1, "spare %u",
	      vraid_cmd_min_size(0x06));
	CHECK(vraid_cmd_min_size(0x07) == VRAID_REPLACE_SIZE_V1, "replace %u",
	      vraid_cmd_min_size(0x07));
	tap_end();

	/*
	 * Fields given meaning in ABI 1.3 took reserved words: they must sit
	 * exactly where those words were (an older tool sends zero there).
	 */
	tap_begin("ABI 1.3 field offsets: create.init, info job fields, job, spare, replace");
#define OFF(type, field, want) \
	CHECK(offsetof(type, field) == (want), #type "." #field " at %zu, want %u", \
	      offsetof(type, field), (unsigned int)(want))
	OFF(struct vraid_create, index, 200);
	OFF(struct vraid_create, init, 204);
	OFF(struct vraid_create, disk_name, 208);
	OFF(struct vraid_info, full_stripe_bytes, 292);
	OFF(struct vraid_info, job_type, 296);
	OFF(struct vraid_info, job_state, 300);
	OFF(struct vraid_info, job_done, 304);
	OFF(struct vraid_info, job_total, 312);
	OFF(struct vraid_info, job_rate_kib, 320);
	OFF(struct vraid_info, job_eta_sec, 324);
	OFF(struct vraid_info, job_mismatches, 328);
	OFF(struct vraid_info, last_mismatches, 336);
	OFF(struct vraid_info, last_job, 344);
	OFF(struct vraid_info, last_result, 348);
	OFF(struct vraid_info, write_policy_effective, 352);
	OFF(struct vraid_info, cache_flags, 356);
	OFF(struct vraid_info, members, 360);
	OFF(struct vraid_job, index, 152);
	OFF(struct vraid_job, action, 156);
	OFF(struct vraid_job, rate_kib, 160);
	OFF(struct vraid_job, reserved1, 164);
	OFF(struct vraid_job, reserved2, 168);
	OFF(struct vraid_spare, action, 152);
	OFF(struct vraid_spare, spare_flags, 156);
	OFF(struct vraid_spare, index, 160);
	OFF(struct vraid_spare, major, 164);
	OFF(struct vraid_spare, minor, 168);
	OFF(struct vraid_spare, nr_spares, 172);
	OFF(struct vraid_spare, vd_uuid, 176);
	OFF(struct vraid_spare, reserved2, 192);
	OFF(struct vraid_spare, spares, 208);
	OFF(struct vraid_spare_info, dev_sectors, 8);
	OFF(struct vraid_spare_info, vd_index, 16);
	OFF(struct vraid_spare_info, info_flags, 20);
	OFF(struct vraid_spare_info, dev_name, 24);
	OFF(struct vraid_spare_info, vd_uuid, 56);
	OFF(struct vraid_replace, index, 152);
	OFF(struct vraid_replace, old_major, 156);
	OFF(struct vraid_replace, old_minor, 160);
	OFF(struct vraid_replace, new_major, 164);
	OFF(struct vraid_replace, new_minor, 168);
	OFF(struct vraid_replace, rep_flags, 172);
	OFF(struct vraid_replace, old_role, 176);
	OFF(struct vraid_replace, reserved1, 180);
	OFF(struct vraid_replace, reserved2, 184);
	tap_end();

	/* ABI 1.4: SET_POLICY, frozen like the others. */
	tap_begin("ABI 1.4 minimum size: set_policy 216, nr 0x04, create still 560");
	CHECK(VRAID_SET_POLICY_SIZE_V1 == 216, "uapi size %u",
	      VRAID_SET_POLICY_SIZE_V1);
	CHECK(sizeof(struct vraid_set_policy) == 216, "sizeof %zu",
	      sizeof(struct vraid_set_policy));
	CHECK(vraid_cmd_min_size(0x04) == VRAID_SET_POLICY_SIZE_V1,
	      "set_policy %u", vraid_cmd_min_size(0x04));
	CHECK(_IOC_NR(VRAID_IOC_SET_POLICY) == 0x04, "nr %lu",
	      (unsigned long)_IOC_NR(VRAID_IOC_SET_POLICY));
	CHECK(vraid_cmd_mutates(0x04), "SET_POLICY does not mutate");
	CHECK(sizeof(struct vraid_create) == VRAID_CREATE_SIZE_V1 &&
	      vraid_cmd_min_size(0x00) == 560, "create %zu",
	      sizeof(struct vraid_create));
	CHECK(VRAID_ABI_MAJOR == 1 && VRAID_ABI_MINOR >= 4, "ABI %d.%d",
	      VRAID_ABI_MAJOR, VRAID_ABI_MINOR);
	tap_end();

	/*
	 * Create's policies took the first reserved2 words: access_policy
	 * sits where reserved2 started (an older tool sends zero there,
	 * every policy's default), and members did not move.
	 */
	tap_begin("ABI 1.4 field offsets: create policies, set_policy");
	OFF(struct vraid_create, disk_name, 208);
	OFF(struct vraid_create, access_policy, 240);
	OFF(struct vraid_create, disk_cache_policy, 244);
	OFF(struct vraid_create, io_policy, 248);
	OFF(struct vraid_create, read_policy, 252);
	OFF(struct vraid_create, write_policy, 256);
	OFF(struct vraid_create, reserved1, 260);
	OFF(struct vraid_create, reserved2, 264);
	OFF(struct vraid_create, members, 304);
	CHECK(FSZ(struct vraid_create, reserved2) == 40, "create reserved2 %zu",
	      FSZ(struct vraid_create, reserved2));
	OFF(struct vraid_set_policy, index, 152);
	OFF(struct vraid_set_policy, set_mask, 156);
	OFF(struct vraid_set_policy, access_policy, 160);
	OFF(struct vraid_set_policy, disk_cache_policy, 164);
	OFF(struct vraid_set_policy, io_policy, 168);
	OFF(struct vraid_set_policy, read_policy, 172);
	OFF(struct vraid_set_policy, write_policy, 176);
	OFF(struct vraid_set_policy, reserved1, 180);
	OFF(struct vraid_set_policy, reserved2, 184);
	/* the same order as vraid_info's policies */
	OFF(struct vraid_info, access_policy, 272);
	OFF(struct vraid_info, disk_cache_policy, 276);
	OFF(struct vraid_info, io_policy, 280);
	OFF(struct vraid_info, read_policy, 284);
	OFF(struct vraid_info, write_policy, 288);
#undef OFF
	tap_end();

	tap_begin("ABI 1.4 policy values and set_mask bits");
	CHECK(VRAID_SET_ACCESS == 1 && VRAID_SET_DISK_CACHE == 2 &&
	      VRAID_SET_IO == 4 && VRAID_SET_READ == 8 &&
	      VRAID_SET_WRITE == 16, "set_mask bits");
	CHECK(VRAID_ACCESS_RW == 0 && VRAID_ACCESS_RO == 1 &&
	      VRAID_ACCESS_BLOCKED == 2, "access values");
	CHECK(VRAID_DCACHE_DEFAULT == 0 && VRAID_DCACHE_ENABLED == 1 &&
	      VRAID_DCACHE_DISABLED == 2, "disk cache values");
	CHECK(VRAID_IO_DIRECT == 0 && VRAID_IO_CACHED == 1, "io values");
	CHECK(VRAID_READ_NORA == 0 && VRAID_READ_AHEAD == 1, "read values");
	CHECK(VRAID_WRITE_THROUGH == 0 && VRAID_WRITE_BACK == 1 &&
	      VRAID_WRITE_BACK_ALWAYS == 2 && VRAID_WRITE_BACK_BBU == 2,
	      "write values");
	tap_end();

	/* ABI 1.7: CONTROLLER, frozen like the others. */
	tap_begin("ABI 1.7 minimum size: controller 312, nr 0x09, not mutating at dispatch");
	CHECK(VRAID_CONTROLLER_SIZE_V1 == 312, "uapi size %u",
	      VRAID_CONTROLLER_SIZE_V1);
	CHECK(sizeof(struct vraid_controller) == 312, "sizeof %zu",
	      sizeof(struct vraid_controller));
	CHECK(vraid_cmd_min_size(0x09) == VRAID_CONTROLLER_SIZE_V1,
	      "controller %u", vraid_cmd_min_size(0x09));
	CHECK(_IOC_NR(VRAID_IOC_CONTROLLER) == 0x09, "nr %lu",
	      (unsigned long)_IOC_NR(VRAID_IOC_CONTROLLER));
	/* SHOW needs no privilege: the handler checks it for the rest */
	CHECK(!vraid_cmd_mutates(0x09), "CONTROLLER mutates at dispatch");
	CHECK(vraid_cmd_min_size(0x0a) == 0 && !vraid_cmd_mutates(0x0a),
	      "0x0a (STATS, reserved) is known: %u",
	      vraid_cmd_min_size(0x0a));
	CHECK(VRAID_ABI_MAJOR == 1 && VRAID_ABI_MINOR >= 7, "ABI %d.%d",
	      VRAID_ABI_MAJOR, VRAID_ABI_MINOR);
	tap_end();

	tap_begin("ABI 1.7 controller field offsets, actions and journal states");
#define OFF(type, field, want) \
	CHECK(offsetof(type, field) == (want), #type "." #field " at %zu, want %u", \
	      offsetof(type, field), (unsigned int)(want))
	OFF(struct vraid_controller, action, 152);
	OFF(struct vraid_controller, ctrl_flags, 156);
	OFF(struct vraid_controller, cache_bytes, 160);
	OFF(struct vraid_controller, major, 168);
	OFF(struct vraid_controller, minor, 172);
	OFF(struct vraid_controller, cache_default_bytes, 176);
	OFF(struct vraid_controller, cache_max_bytes, 184);
	OFF(struct vraid_controller, cache_used_bytes, 192);
	OFF(struct vraid_controller, cache_dirty_bytes, 200);
	OFF(struct vraid_controller, cache_dirty_high_bytes, 208);
	OFF(struct vraid_controller, nr_vds, 216);
	OFF(struct vraid_controller, journal_state, 220);
	OFF(struct vraid_controller, journal_major, 224);
	OFF(struct vraid_controller, journal_minor, 228);
	OFF(struct vraid_controller, journal_bytes, 232);
	OFF(struct vraid_controller, journal_used_bytes, 240);
	/* ABI 1.9: the journal's fields took 40 of the reserved bytes */
	OFF(struct vraid_controller, journal_uuid, 248);
	OFF(struct vraid_controller, journal_head_seq, 264);
	OFF(struct vraid_controller, journal_tail_seq, 272);
	OFF(struct vraid_controller, journal_pending, 280);
	OFF(struct vraid_controller, journal_vds, 284);
	OFF(struct vraid_controller, reserved, 288);
	OFF(struct vraid_assemble, nr_devices, 152);
	OFF(struct vraid_assemble, reserved1, 172);
	OFF(struct vraid_assemble, name, 208);
	/* ABI 1.10: the replay's counts took 16 of reserved2's bytes */
	OFF(struct vraid_assemble, replayed, 240);
	OFF(struct vraid_assemble, replay_parity, 244);
	OFF(struct vraid_assemble, replay_superseded, 248);
	OFF(struct vraid_assemble, reserved3, 252);
	OFF(struct vraid_assemble, reserved2, 256);
	OFF(struct vraid_assemble, devices, 272);
#undef OFF
	CHECK(FSZ(struct vraid_assemble, reserved2) == 16,
	      "assemble reserved2 %zu", FSZ(struct vraid_assemble, reserved2));
	CHECK(FSZ(struct vraid_controller, reserved) == 24,
	      "controller reserved %zu", FSZ(struct vraid_controller, reserved));
	CHECK(VRAID_CTRL_SHOW == 0 && VRAID_CTRL_SET_CACHE_SIZE == 1 &&
	      VRAID_CTRL_JOURNAL_ATTACH == 2 && VRAID_CTRL_JOURNAL_DETACH == 3 &&
	      VRAID_CTRL_JOURNAL_DISCARD == 4 && VRAID_CTRL_FORCE == 1,
	      "controller actions");
	CHECK(VRAID_JOURNAL_NONE == 0 && VRAID_JOURNAL_HEALTHY == 1 &&
	      VRAID_JOURNAL_REPLAY_PENDING == 2 && VRAID_JOURNAL_FAILED == 3,
	      "journal states");
	CHECK(VRAID_ASM_NO_JOURNAL == 1, "assemble flag %u",
	      VRAID_ASM_NO_JOURNAL);
	CHECK(VRAID_ASM_FORCE == 2, "assemble flag %u", VRAID_ASM_FORCE);
	tap_end();
}

/* ---- CREATE -------------------------------------------------------------- */

enum tweak {
	TW_NONE,
	TW_DUP,		/* members[b] = members[a] */
	TW_DEV,		/* members[a] = b:c */
	TW_SLOT,	/* members[a] = b:c, a >= nr_members */
	TW_INIT,	/* init = a */
	TW_RES2,	/* reserved2[a] = b */
	TW_RES1,	/* reserved1 = a */
	TW_POL,		/* policy a (POL_*) = b */
	TW_POL2,	/* policy a = b and policy c = 1 */
	TW_OUT,		/* garbage in the out fields (index, disk_name) */
	TW_HDR,		/* garbage in the header (validate_hdr's business) */
};

#define NOSTR	"\x01"	/* name: leave the name field all zero */

/* The policy fields of create and set_policy, for the tables. */
enum { POL_ACCESS, POL_DCACHE, POL_IO, POL_READ, POL_WRITE };

static u32 *create_pol(struct vraid_create *c, u32 which)
{
	switch (which) {
	case POL_ACCESS:	return &c->access_policy;
	case POL_DCACHE:	return &c->disk_cache_policy;
	case POL_IO:		return &c->io_policy;
	case POL_READ:		return &c->read_policy;
	}
	return &c->write_policy;
}

static const struct create_case {
	const char *what;
	u32 level, nr, strip, spans;
	const char *name;	/* copied with its NUL, unless name_len */
	size_t name_len;	/* bytes of name to copy (no NUL added) */
	enum tweak tw;
	u32 a, b, c;
	int err;
	const char *needle;
} create_cases[] = {
	/* valid requests */
	{ "raid0 2 members, default strip", 0, 2, 0, 0, NOSTR, 0, TW_NONE, 0, 0, 0, 0, NULL },
	{ "raid0 3 members, 4K strip", 0, 3, 4096, 0, NOSTR, 0, TW_NONE, 0, 0, 0, 0, NULL },
	{ "raid0 32 members, 1M strip", 0, 32, 1 << 20, 0, NOSTR, 0, TW_NONE, 0, 0, 0, 0, NULL },
	{ "jbod 1 member", 255, 1, 0, 0, NOSTR, 0, TW_NONE, 0, 0, 0, 0, NULL },
	{ "name \"\"", 0, 2, 0, 0, "", 0, TW_NONE, 0, 0, 0, 0, NULL },
	{ "name \"data\"", 0, 2, 0, 0, "data", 0, TW_NONE, 0, 0, 0, 0, NULL },
	{ "name \"a.b_c-1\"", 0, 2, 0, 0, "a.b_c-1", 0, TW_NONE, 0, 0, 0, 0, NULL },
	{ "name \"A9\"", 255, 1, 0, 0, "A9", 0, TW_NONE, 0, 0, 0, 0, NULL },
	{ "name \"x-\" (dash not first)", 0, 2, 0, 0, "x-", 0, TW_NONE, 0, 0, 0, 0, NULL },
	{ "name of 31 chars", 0, 2, 0, 0, "abcdefghijklmnopqrstuvwxyz01234", 0, TW_NONE, 0, 0, 0, 0, NULL },
	{ "device 4095:1048575 is a valid number", 0, 2, 0, 0, NOSTR, 0, TW_DEV, 1, 4095, (1 << 20) - 1, 0, NULL },
	{ "out fields (index, disk_name) ignored", 0, 4, 0, 0, "x", 0, TW_OUT, 0, 0, 0, 0, NULL },
	{ "header fields are not create's business", 0, 4, 0, 0, "x", 0, TW_HDR, 0, 0, 0, 0, NULL },

	/* duplicate members */
	{ "members 0 and 1 the same device", 0, 2, 0, 0, NOSTR, 0, TW_DUP, 0, 1, 0, -EINVAL, "members 0 and 1" },
	{ "members 1 and 3 the same device", 0, 4, 0, 0, NOSTR, 0, TW_DUP, 1, 3, 0, -EINVAL, "members 1 and 3" },
	{ "members 0 and 31 the same device", 0, 32, 0, 0, NOSTR, 0, TW_DUP, 0, 31, 0, -EINVAL, "members 0 and 31" },

	/* bad device numbers */
	{ "device 0:0", 0, 2, 0, 0, NOSTR, 0, TW_DEV, 1, 0, 0, -EINVAL, "0:0" },
	{ "jbod device 0:0", 255, 1, 0, 0, NOSTR, 0, TW_DEV, 0, 0, 0, -EINVAL, "0:0" },
	{ "major 4096", 0, 3, 0, 0, NOSTR, 0, TW_DEV, 2, 4096, 1, -EINVAL, "4096:1" },
	{ "major 0xffffffff", 0, 3, 0, 0, NOSTR, 0, TW_DEV, 0, 0xffffffff, 1, -EINVAL, "4294967295:1" },
	{ "minor 1048576", 0, 3, 0, 0, NOSTR, 0, TW_DEV, 2, 8, 1 << 20, -EINVAL, "8:1048576" },
	{ "minor 0xffffffff", 0, 3, 0, 0, NOSTR, 0, TW_DEV, 2, 8, 0xffffffff, -EINVAL, "8:4294967295" },

	/* slots beyond nr_members */
	{ "slot 2 set with 2 members", 0, 2, 0, 0, NOSTR, 0, TW_SLOT, 2, 8, 240, -EINVAL, "slot 2" },
	{ "slot 31 set with 2 members", 0, 2, 0, 0, NOSTR, 0, TW_SLOT, 31, 8, 240, -EINVAL, "slot 31" },
	{ "slot 1 major only, jbod", 255, 1, 0, 0, NOSTR, 0, TW_SLOT, 1, 8, 0, -EINVAL, "slot 1" },
	{ "slot 5 minor only", 0, 4, 0, 0, NOSTR, 0, TW_SLOT, 5, 0, 1, -EINVAL, "slot 5" },

	/* names */
	{ "name of 32 chars, no NUL", 0, 2, 0, 0, "abcdefghijklmnopqrstuvwxyz012345", 32, TW_NONE, 0, 0, 0, -EINVAL, "name" },
	{ "name \"-x\"", 0, 2, 0, 0, "-x", 0, TW_NONE, 0, 0, 0, -EINVAL, "name" },
	{ "name \"-\"", 0, 2, 0, 0, "-", 0, TW_NONE, 0, 0, 0, -EINVAL, "name" },
	{ "name \"a b\"", 0, 2, 0, 0, "a b", 0, TW_NONE, 0, 0, 0, -EINVAL, "name" },
	{ "name \"\xc3\xa9\"", 0, 2, 0, 0, "\xc3\xa9", 0, TW_NONE, 0, 0, 0, -EINVAL, "name" },
	{ "name \"a/b\"", 0, 2, 0, 0, "a/b", 0, TW_NONE, 0, 0, 0, -EINVAL, "name" },
	{ "name \"..\\n\"", 0, 2, 0, 0, "..\n", 0, TW_NONE, 0, 0, 0, -EINVAL, "name" },
	{ "name with a tab", 0, 2, 0, 0, "a\tb", 0, TW_NONE, 0, 0, 0, -EINVAL, "name" },
	{ "name with 0x7f", 0, 2, 0, 0, "a\x7f", 0, TW_NONE, 0, 0, 0, -EINVAL, "name" },
	/* a label must not look like a VD number: "12", "vraid12" */
	{ "name \"0\"", 0, 2, 0, 0, "0", 0, TW_NONE, 0, 0, 0, -EINVAL, "name" },
	{ "name \"12\"", 0, 2, 0, 0, "12", 0, TW_NONE, 0, 0, 0, -EINVAL, "name" },
	{ "name of 31 digits", 0, 2, 0, 0, "1234567890123456789012345678901", 0, TW_NONE, 0, 0, 0, -EINVAL, "name" },
	{ "name \"vraid0\"", 0, 2, 0, 0, "vraid0", 0, TW_NONE, 0, 0, 0, -EINVAL, "name" },
	{ "name \"vraid12\"", 0, 2, 0, 0, "vraid12", 0, TW_NONE, 0, 0, 0, -EINVAL, "name" },
	{ "name \"vraid\"", 0, 2, 0, 0, "vraid", 0, TW_NONE, 0, 0, 0, 0, NULL },
	{ "name \"vraidx\"", 0, 2, 0, 0, "vraidx", 0, TW_NONE, 0, 0, 0, 0, NULL },
	{ "name \"vraid1x\"", 0, 2, 0, 0, "vraid1x", 0, TW_NONE, 0, 0, 0, 0, NULL },
	{ "name \"vraid-1\"", 0, 2, 0, 0, "vraid-1", 0, TW_NONE, 0, 0, 0, 0, NULL },
	{ "name \"1a\"", 0, 2, 0, 0, "1a", 0, TW_NONE, 0, 0, 0, 0, NULL },
	{ "name \"1.5\"", 0, 2, 0, 0, "1.5", 0, TW_NONE, 0, 0, 0, 0, NULL },

	/* init (ABI 1.3, the old reserved1): redundant levels only */
	{ "raid1 init fast", 1, 2, 0, 0, NOSTR, 0, TW_INIT, VRAID_INIT_FAST, 0, 0, 0, NULL },
	{ "raid1 init background", 1, 2, 0, 0, NOSTR, 0, TW_INIT, VRAID_INIT_BACKGROUND, 0, 0, 0, NULL },
	{ "raid5 init full", 5, 3, 0, 0, NOSTR, 0, TW_INIT, VRAID_INIT_FULL, 0, 0, 0, NULL },
	{ "raid6 init background", 6, 4, 0, 0, NOSTR, 0, TW_INIT, VRAID_INIT_BACKGROUND, 0, 0, 0, NULL },
	{ "raid10 init full", 10, 4, 0, 0, NOSTR, 0, TW_INIT, VRAID_INIT_FULL, 0, 0, 0, NULL },
	{ "raid50 init background", 50, 6, 0, 2, NOSTR, 0, TW_INIT, VRAID_INIT_BACKGROUND, 0, 0, 0, NULL },
	{ "raid0 init fast (0) accepted", 0, 2, 0, 0, NOSTR, 0, TW_INIT, VRAID_INIT_FAST, 0, 0, 0, NULL },
	{ "raid0 init background", 0, 2, 0, 0, NOSTR, 0, TW_INIT, VRAID_INIT_BACKGROUND, 0, 0, -EINVAL, "no redundancy" },
	{ "raid0 init full", 0, 2, 0, 0, NOSTR, 0, TW_INIT, VRAID_INIT_FULL, 0, 0, -EINVAL, "--init" },
	{ "jbod init background", 255, 1, 0, 0, NOSTR, 0, TW_INIT, VRAID_INIT_BACKGROUND, 0, 0, -EINVAL, "no redundancy" },
	{ "raid1 init 3 (unknown)", 1, 2, 0, 0, NOSTR, 0, TW_INIT, 3, 0, 0, -EINVAL, "initialisation 3" },
	{ "raid5 init 0x80000000", 5, 3, 0, 0, NOSTR, 0, TW_INIT, 0x80000000, 0, 0, -EINVAL, "2147483648" },
	{ "raid0 init 0xffffffff", 0, 2, 0, 0, NOSTR, 0, TW_INIT, 0xffffffff, 0, 0, -EINVAL, "initialisation" },

	/* reserved fields (reserved2 shrank to 5 words in ABI 1.4) */
	{ "reserved2[0] = 1", 0, 2, 0, 0, NOSTR, 0, TW_RES2, 0, 1, 0, -EINVAL, "reserved" },
	{ "reserved2[4] = 0x100", 0, 2, 0, 0, NOSTR, 0, TW_RES2, 4, 0x100, 0, -EINVAL, "reserved" },
	{ "reserved1 = 1", 0, 2, 0, 0, NOSTR, 0, TW_RES1, 1, 0, 0, -EINVAL, "reserved" },
	{ "reserved1 = 0x80000000", 1, 2, 0, 0, NOSTR, 0, TW_RES1, 0x80000000, 0, 0, -EINVAL, "reserved" },

	/* policies (ABI 1.4, the old reserved2[0..2]): zero is each default */
	{ "access rw (0)", 1, 2, 0, 0, NOSTR, 0, TW_POL, POL_ACCESS, VRAID_ACCESS_RW, 0, 0, NULL },
	{ "access ro", 1, 2, 0, 0, NOSTR, 0, TW_POL, POL_ACCESS, VRAID_ACCESS_RO, 0, 0, NULL },
	{ "access blocked", 0, 2, 0, 0, NOSTR, 0, TW_POL, POL_ACCESS, VRAID_ACCESS_BLOCKED, 0, 0, NULL },
	{ "disk cache on", 5, 3, 0, 0, NOSTR, 0, TW_POL, POL_DCACHE, VRAID_DCACHE_ENABLED, 0, 0, NULL },
	{ "disk cache off", 255, 1, 0, 0, NOSTR, 0, TW_POL, POL_DCACHE, VRAID_DCACHE_DISABLED, 0, 0, NULL },
	{ "access ro, disk cache off", 1, 2, 0, 0, NOSTR, 0, TW_POL2, POL_DCACHE, VRAID_DCACHE_DISABLED, POL_ACCESS, 0, NULL },
	{ "access 3", 1, 2, 0, 0, NOSTR, 0, TW_POL, POL_ACCESS, 3, 0, -EINVAL, "unknown policy" },
	{ "access 0xffffffff", 1, 2, 0, 0, NOSTR, 0, TW_POL, POL_ACCESS, 0xffffffff, 0, -EINVAL, "4294967295" },
	{ "disk cache 3", 1, 2, 0, 0, NOSTR, 0, TW_POL, POL_DCACHE, 3, 0, -EINVAL, "unknown policy" },
	{ "io 2", 1, 2, 0, 0, NOSTR, 0, TW_POL, POL_IO, 2, 0, -EINVAL, "unknown policy" },
	{ "read 2", 1, 2, 0, 0, NOSTR, 0, TW_POL, POL_READ, 2, 0, -EINVAL, "unknown policy" },
	{ "write 3", 1, 2, 0, 0, NOSTR, 0, TW_POL, POL_WRITE, 3, 0, -EINVAL, "unknown policy" },
	{ "write-back (writes through)", 1, 2, 0, 0, NOSTR, 0, TW_POL, POL_WRITE, VRAID_WRITE_BACK, 0, 0, NULL },
	{ "always write-back (ABI 1.8)", 0, 2, 0, 0, NOSTR, 0, TW_POL, POL_WRITE, VRAID_WRITE_BACK_ALWAYS, 0, 0, NULL },
	{ "read-ahead (ABI 1.7)", 1, 2, 0, 0, NOSTR, 0, TW_POL, POL_READ, VRAID_READ_AHEAD, 0, 0, NULL },
	{ "cached I/O", 255, 1, 0, 0, NOSTR, 0, TW_POL, POL_IO, VRAID_IO_CACHED, 0, 0, NULL },
	{ "access ro with write-back", 1, 2, 0, 0, NOSTR, 0, TW_POL2, POL_WRITE, VRAID_WRITE_BACK, POL_ACCESS, 0, NULL },
	{ "access ro with always write-back", 1, 2, 0, 0, NOSTR, 0, TW_POL2, POL_WRITE, VRAID_WRITE_BACK_ALWAYS, POL_ACCESS, 0, NULL },
	{ "unknown write beats read-ahead", 1, 2, 0, 0, NOSTR, 0, TW_POL2, POL_WRITE, 3, POL_READ, -EINVAL, "unknown policy" },
	{ "read-ahead with always write-back", 1, 2, 0, 0, NOSTR, 0, TW_POL2, POL_WRITE, VRAID_WRITE_BACK_ALWAYS, POL_READ, 0, NULL },
	{ "cached I/O with always write-back", 5, 3, 0, 0, NOSTR, 0, TW_POL2, POL_WRITE, VRAID_WRITE_BACK_ALWAYS, POL_IO, 0, NULL },
	{ "unknown write 3 beats cached I/O", 1, 2, 0, 0, NOSTR, 0, TW_POL2, POL_WRITE, 3, POL_IO, -EINVAL, "unknown policy" },
	{ "read-ahead with cached I/O", 1, 2, 0, 0, NOSTR, 0, TW_POL2, POL_READ, VRAID_READ_AHEAD, POL_IO, 0, NULL },

	/* JBOD has no strip */
	{ "jbod strip 4096", 255, 1, 4096, 0, NOSTR, 0, TW_NONE, 0, 0, 0, -EINVAL, "strip" },
	{ "jbod strip 65536", 255, 1, 65536, 0, NOSTR, 0, TW_NONE, 0, 0, 0, -EINVAL, "strip" },

	/* geometry refusals reach the user through create too */
	{ "level 7", 7, 2, 0, 0, NOSTR, 0, TW_NONE, 0, 0, 0, -EINVAL, "7" },
	{ "level 5 with 3 members", 5, 3, 0, 0, NOSTR, 0, TW_NONE, 0, 0, 0, 0, NULL },
	{ "level 5 with 2 members", 5, 2, 0, 0, NOSTR, 0, TW_NONE, 0, 0, 0, -EINVAL, "RAID5" },
	{ "level 6 with 3 members", 6, 3, 0, 0, NOSTR, 0, TW_NONE, 0, 0, 0, -EINVAL, "RAID6" },
	{ "level 10 with 5 members", 10, 5, 0, 0, NOSTR, 0, TW_NONE, 0, 0, 0, -EINVAL, "RAID10" },
	{ "raid0 1 member", 0, 1, 0, 0, NOSTR, 0, TW_NONE, 0, 0, 0, -EINVAL, "1 given" },
	{ "raid0 33 members", 0, 33, 0, 0, NOSTR, 0, TW_NONE, 0, 0, 0, -EINVAL, "33" },
	{ "raid0 0xffffffff members", 0, 0xffffffff, 0, 0, NOSTR, 0, TW_NONE, 0, 0, 0, -EINVAL, "4294967295" },
	{ "jbod 0 members", 255, 0, 0, 0, NOSTR, 0, TW_NONE, 0, 0, 0, -EINVAL, "no members" },
	{ "raid0 strip 6K", 0, 2, 6144, 0, NOSTR, 0, TW_NONE, 0, 0, 0, -EINVAL, "6144" },
	{ "raid0 spans 2", 0, 4, 0, 2, NOSTR, 0, TW_NONE, 0, 0, 0, -EINVAL, "spans" },
};

/* A good request: @nr distinct members 8:0, 8:16, ... (sda, sdb, ...). */
static struct vraid_create *good_create(u32 level, u32 nr, u32 strip)
{
	struct vraid_create *c = zalloc(sizeof(*c));
	u32 i;

	good_hdr(&c->hdr, sizeof(*c));
	c->level = level;
	c->nr_members = nr;
	c->strip_bytes = strip;
	for (i = 0; i < nr && i < VRAID_MAX_MEMBERS; i++) {
		c->members[i].major = 8;
		c->members[i].minor = 16 * i;
	}
	/* sda is 8:0 and that is a valid device: only 0:0 is not */
	return c;
}

static void test_create(void)
{
	size_t i;
	u32 n;

	/* every byte value inside a name ("a?b") */
	tap_begin("create: names \"a?b\", all 255 byte values");
	for (i = 1; i < 256; i++) {
		struct vraid_create *c = good_create(0, 2, 0);
		bool ok = (i >= 'a' && i <= 'z') || (i >= 'A' && i <= 'Z') ||
			  (i >= '0' && i <= '9') || i == '.' || i == '_' ||
			  i == '-';
		int ret;

		c->name[0] = 'a';
		c->name[1] = (char)i;
		c->name[2] = 'b';
		msg_reset(msg, VRAID_MSG_LEN);
		ret = vraid_validate_create(c, msg, VRAID_MSG_LEN);
		CHECK(ret == (ok ? 0 : -EINVAL), "name byte 0x%02zx: ret %d",
		      i, ret);
		free(c);
	}
	tap_end();

	for (i = 0; i < ARRAY_SIZE(create_cases); i++) {
		const struct create_case *t = &create_cases[i];
		struct vraid_create *c = good_create(t->level, t->nr, t->strip);

		c->spans = t->spans;
		if (strcmp(t->name, NOSTR)) {
			size_t len = t->name_len ? t->name_len :
				     strlen(t->name) + 1;

			memcpy(c->name, t->name, len);
		}
		switch (t->tw) {
		case TW_NONE:
			break;
		case TW_DUP:
			c->members[t->b] = c->members[t->a];
			break;
		case TW_DEV:
		case TW_SLOT:
			c->members[t->a].major = t->b;
			c->members[t->a].minor = t->c;
			break;
		case TW_INIT:
			c->init = t->a;
			break;
		case TW_RES2:
			c->reserved2[t->a] = t->b;
			break;
		case TW_RES1:
			c->reserved1 = t->a;
			break;
		case TW_POL:
			*create_pol(c, t->a) = t->b;
			break;
		case TW_POL2:
			*create_pol(c, t->a) = t->b;
			*create_pol(c, t->c) = 1;
			break;
		case TW_OUT:
			c->index = 77;
			memset(c->disk_name, 'z', sizeof(c->disk_name));
			break;
		case TW_HDR:
			memset(&c->hdr, 0xee, sizeof(c->hdr));
			break;
		}
		tap_begin("create: %s -> %d", t->what, t->err);
		msg_reset(msg, VRAID_MSG_LEN);
		expect(vraid_validate_create(c, msg, VRAID_MSG_LEN), t->err,
		       t->needle);
		/* (ABI 1.8: no policy value needs what vraid lacks) */
		if (t->tw == TW_POL || t->tw == TW_POL2)
			CHECK(!msg_has(msg, VRAID_MSG_LEN, "does not have yet"),
			      "message \"%.*s\" says something is missing",
			      VRAID_MSG_LEN, msg);
		if (t->tw == TW_DUP && t->err) {
			char dev[32];

			snprintf(dev, sizeof(dev), "%u:%u",
				 c->members[t->a].major, c->members[t->a].minor);
			CHECK(msg_has(msg, VRAID_MSG_LEN, dev),
			      "message \"%.*s\" does not name %s",
			      VRAID_MSG_LEN, msg, dev);
		}
		tap_end();
		free(c);
	}

	/* every valid member count with every strip size */
	for (n = 2; n <= VRAID_MAX_MEMBERS; n++) {
		u32 s;

		tap_begin("create: raid0 %u members, strips 0 and 4K..1M -> 0", n);
		for (s = 2048; s <= (1u << 20); s *= 2) {
			u32 strip = s == 2048 ? 0 : s;
			struct vraid_create *c = good_create(0, n, strip);

			msg_reset(msg, VRAID_MSG_LEN);
			CHECK(vraid_validate_create(c, msg, VRAID_MSG_LEN) == 0,
			      "strip %u: %.*s", strip, VRAID_MSG_LEN, msg);
			free(c);
		}
		tap_end();
	}

	/* a duplicate anywhere among 32 members is found */
	tap_begin("create: every duplicate pair among 32 members is named");
	for (i = 0; i < VRAID_MAX_MEMBERS * VRAID_MAX_MEMBERS; i++) {
		u32 a = i / VRAID_MAX_MEMBERS, b = i % VRAID_MAX_MEMBERS;
		struct vraid_create *c;
		char needle[48];
		int ret;

		if (a >= b)
			continue;
		c = good_create(0, VRAID_MAX_MEMBERS, 0);
		c->members[b] = c->members[a];
		snprintf(needle, sizeof(needle), "members %u and %u", a, b);
		msg_reset(msg, VRAID_MSG_LEN);
		ret = vraid_validate_create(c, msg, VRAID_MSG_LEN);
		CHECK(ret == -EINVAL && msg_has(msg, VRAID_MSG_LEN, needle),
		      "duplicate %u/%u: ret %d \"%.*s\"", a, b, ret,
		      VRAID_MSG_LEN, msg);
		free(c);
	}
	tap_end();

	/* every stray slot beyond nr_members is found */
	tap_begin("create: every set slot beyond nr_members is refused");
	for (n = 1; n < VRAID_MAX_MEMBERS; n++) {
		u32 slot;

		for (slot = n; slot < VRAID_MAX_MEMBERS; slot++) {
			struct vraid_create *c = good_create(n == 1 ? 255 : 0,
							     n, 0);
			char needle[32];
			int ret;

			c->members[slot].minor = 1;
			snprintf(needle, sizeof(needle), "slot %u", slot);
			msg_reset(msg, VRAID_MSG_LEN);
			ret = vraid_validate_create(c, msg, VRAID_MSG_LEN);
			CHECK(ret == -EINVAL && msg_has(msg, VRAID_MSG_LEN, needle),
			      "n %u slot %u: ret %d \"%.*s\"", n, slot, ret,
			      VRAID_MSG_LEN, msg);
			free(c);
		}
	}
	tap_end();

	/* every byte value as the only character of a name */
	/* (a lone digit is all digits, a lone '-' starts with '-') */
	tap_begin("create: single-character names, all 255 byte values");
	for (i = 1; i < 256; i++) {
		struct vraid_create *c = good_create(0, 2, 0);
		bool ok = (i >= 'a' && i <= 'z') || (i >= 'A' && i <= 'Z') ||
			  i == '.' || i == '_';
		int ret;

		c->name[0] = (char)i;
		msg_reset(msg, VRAID_MSG_LEN);
		ret = vraid_validate_create(c, msg, VRAID_MSG_LEN);
		CHECK(ret == (ok ? 0 : -EINVAL), "name byte 0x%02zx: ret %d",
		      i, ret);
		CHECK(vraid_name_valid(c->name, sizeof(c->name)) == ok,
		      "vraid_name_valid byte 0x%02zx", i);
		free(c);
	}
	tap_end();
}

/* ---- DELETE, LIST, INFO -------------------------------------------------- */

static void test_delete(void)
{
	static const struct {
		const char *what;
		u32 index, res1, res2_at;
		u64 res2;
		int err;
		const char *needle;
	} t[] = {
		{ "index 0",          0, 0, 0, 0, 0, NULL },
		{ "index 1",          1, 0, 0, 0, 0, NULL },
		{ "index 255",        VRAID_MAX_VDS - 1, 0, 0, 0, 0, NULL },
		{ "index 256",        VRAID_MAX_VDS, 0, 0, 0, -ENOENT, "vraid256" },
		{ "index 1000",       1000, 0, 0, 0, -ENOENT, "vraid1000" },
		{ "index 0xffffffff", 0xffffffff, 0, 0, 0, -ENOENT, "4294967295" },
		{ "stop flag",        0, 1, 0, 0, 0, NULL },
		{ "del_flags = 4",    0, 4, 0, 0, -EINVAL, "flags" },
		{ "discard",          0, 3, 0, 0, 0, NULL },
		{ "reserved2[0] = 1", 0, 0, 0, 1, -EINVAL, "reserved" },
		{ "reserved2[2] = 1<<63", 0, 0, 2, 1ull << 63, -EINVAL, "reserved" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		struct vraid_delete *d = zalloc(sizeof(*d));

		good_hdr(&d->hdr, sizeof(*d));
		d->index = t[i].index;
		d->del_flags = t[i].res1;
		d->reserved2[t[i].res2_at] = t[i].res2;
		tap_begin("delete: %s -> %d", t[i].what, t[i].err);
		msg_reset(msg, VRAID_MSG_LEN);
		expect(vraid_validate_delete(d, msg, VRAID_MSG_LEN), t[i].err,
		       t[i].needle);
		tap_end();
		free(d);
	}
}


static void test_fail_member(void)
{
	static const struct {
		const char *what;
		u32 index, major, minor, flags, res2_at;
		u64 res2;
		int err;
		const char *needle;
	} t[] = {
		{ "8:16",             0, 8, 16, 0, 0, 0, 0, NULL },
		{ "259:3 --force",    3, 259, 3, VRAID_FAIL_FORCE, 0, 0, 0, NULL },
		{ "index 256",        VRAID_MAX_VDS, 8, 16, 0, 0, 0, -ENOENT, "vraid256" },
		{ "device 0:0",       0, 0, 0, 0, 0, 0, -EINVAL, "0:0" },
		{ "major 4096",       0, 4096, 0, 0, 0, 0, -EINVAL, "4096" },
		{ "minor 1<<20",      0, 8, 1u << 20, 0, 0, 0, -EINVAL, "1048576" },
		{ "unknown flag",     0, 8, 16, 2, 0, 0, -EINVAL, "0x2" },
		{ "reserved2[3] = 1", 0, 8, 16, 0, 3, 1, -EINVAL, "reserved" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		struct vraid_fail_member *f = zalloc(sizeof(*f));

		good_hdr(&f->hdr, sizeof(*f));
		f->index = t[i].index;
		f->major = t[i].major;
		f->minor = t[i].minor;
		f->fail_flags = t[i].flags;
		f->reserved2[t[i].res2_at] = t[i].res2;
		tap_begin("fail_member: %s -> %d", t[i].what, t[i].err);
		msg_reset(msg, VRAID_MSG_LEN);
		expect(vraid_validate_fail_member(f, msg, VRAID_MSG_LEN),
		       t[i].err, t[i].needle);
		tap_end();
		free(f);
	}
}


static void test_assemble(void)
{
	static const struct {
		const char *what;
		u32 nr, flags, res1, dup, slot_extra, out, res3, res2;
		u32 major0;
		int err;
		const char *needle;
	} t[] = {
		{ "3 devices",        3, 0, 0, 0, 0, 0, 0, 0, 8, 0, NULL },
		{ "32 devices",       32, 0, 0, 0, 0, 0, 0, 0, 8, 0, NULL },
		{ "0 devices",        0, 0, 0, 0, 0, 0, 0, 0, 8, -EINVAL, "0 devices" },
		{ "33 devices",       33, 0, 0, 0, 0, 0, 0, 0, 8, -EINVAL, "33 devices" },
		{ "no-journal",       2, 1, 0, 0, 0, 0, 0, 0, 8, 0, NULL },
		/* ABI 1.12: force (an unclean VD with dirty degraded rows) */
		{ "force",            2, 2, 0, 0, 0, 0, 0, 0, 8, 0, NULL },
		{ "no-journal force", 2, 3, 0, 0, 0, 0, 0, 0, 8, 0, NULL },
		{ "flags",            2, 8, 0, 0, 0, 0, 0, 0, 8, -EINVAL, "flags" },
		{ "flags 1<<31",      2, 1U << 31, 0, 0, 0, 0, 0, 0, 8, -EINVAL, "flags" },
		{ "reserved1",        2, 0, 1, 0, 0, 0, 0, 0, 8, -EINVAL, "reserved" },
		{ "duplicate",        3, 0, 0, 1, 0, 0, 0, 0, 8, -EINVAL, "twice" },
		{ "stray slot",       2, 0, 0, 0, 1, 0, 0, 0, 8, -EINVAL, "slot" },
		{ "device 0:0",       2, 0, 0, 0, 0, 0, 0, 0, 0, -EINVAL, "0:0" },
		/* ABI 1.10: the replay's counts are out only; the rest reserved */
		{ "replay counts in", 2, 0, 0, 0, 0, 7, 0, 0, 8, 0, NULL },
		{ "reserved3",        2, 0, 0, 0, 0, 0, 1, 0, 8, -EINVAL, "reserved" },
		{ "reserved2",        2, 0, 0, 0, 0, 0, 0, 1, 8, -EINVAL, "reserved" },
	};
	size_t i;
	u32 j;

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		struct vraid_assemble *a = zalloc(sizeof(*a));

		good_hdr(&a->hdr, sizeof(*a));
		a->nr_devices = t[i].nr;
		a->asm_flags = t[i].flags;
		a->reserved1 = t[i].res1;
		a->replayed = t[i].out;
		a->replay_parity = t[i].out;
		a->replay_superseded = t[i].out;
		a->reserved3 = t[i].res3;
		a->reserved2[1] = t[i].res2;
		for (j = 0; j < t[i].nr && j < VRAID_MAX_MEMBERS; j++) {
			a->devices[j].major = j ? 259 : t[i].major0;
			a->devices[j].minor = j;
		}
		if (t[i].dup)
			a->devices[2] = a->devices[1];
		if (t[i].slot_extra)
			a->devices[t[i].nr].major = 8;
		tap_begin("assemble: %s -> %d", t[i].what, t[i].err);
		msg_reset(msg, VRAID_MSG_LEN);
		expect(vraid_validate_assemble(a, msg, VRAID_MSG_LEN),
		       t[i].err, t[i].needle);
		tap_end();
		free(a);
	}
	/* VRAID_ASM_NAME (ABI 1.14): a valid, non-empty name in @name */
	{
		static const struct {
			const char *name;
			int err;
		} nt[] = {
			{ "pinned.db", 0 }, { "", -EINVAL }, { "vraid3", -EINVAL },
			{ "-x", -EINVAL }, { "a b", -EINVAL },
		};

		for (i = 0; i < ARRAY_SIZE(nt); i++) {
			struct vraid_assemble *a = zalloc(sizeof(*a));

			good_hdr(&a->hdr, sizeof(*a));
			a->nr_devices = 1;
			a->devices[0].major = 8;
			a->asm_flags = VRAID_ASM_NAME;
			strcpy(a->name, nt[i].name);
			tap_begin("assemble: VRAID_ASM_NAME '%s' -> %d",
				  nt[i].name, nt[i].err);
			msg_reset(msg, VRAID_MSG_LEN);
			expect(vraid_validate_assemble(a, msg, VRAID_MSG_LEN),
			       nt[i].err, nt[i].err ? "VRAID_ASM_NAME" : NULL);
			tap_end();
			free(a);
		}
	}
}

/* Set the @width-byte field at byte @off of a request to @v. */
static void set_field(void *req, size_t off, size_t width, u64 v)
{
	u32 v32 = (u32)v;

	if (width == 4)
		memcpy((char *)req + off, &v32, 4);
	else
		memcpy((char *)req + off, &v, 8);
}

#define FIELD(type, f)	offsetof(type, f), FSZ(type, f)

static void test_info(void)
{
	/* job_type .. reserved2: output only, zero on input since ABI 1.3 */
	const size_t in_from = offsetof(struct vraid_info, job_type);
	const size_t in_to = offsetof(struct vraid_info, members);
	static const struct {
		const char *what;
		u32 index;
		bool garbage;	/* fill every out field */
		size_t off, width;	/* a field that must be zero, or width 0 */
		u64 val;
		int err;
		const char *needle;
	} t[] = {
		{ "index 0",          0, false, 0, 0, 0, 0, NULL },
		{ "index 255",        VRAID_MAX_VDS - 1, false, 0, 0, 0, 0, NULL },
		{ "index 7, out fields ignored", 7, true, 0, 0, 0, 0, NULL },
		{ "index 256",        VRAID_MAX_VDS, false, 0, 0, 0, -ENOENT, "vraid256" },
		{ "index 0x80000000", 0x80000000, true, 0, 0, 0, -ENOENT, "2147483648" },
		{ "index 0xffffffff", 0xffffffff, false, 0, 0, 0, -ENOENT, "4294967295" },
		{ "write_policy_effective on input", 0, false, FIELD(struct vraid_info, write_policy_effective), 1, -EINVAL, "reserved" },
		{ "cache_flags = 1<<31 on input", 0, true, FIELD(struct vraid_info, cache_flags), 1u << 31, -EINVAL, "reserved" },
		{ "job_type = 1 on input", 0, false, FIELD(struct vraid_info, job_type), 1, -EINVAL, "reserved" },
		{ "job_state = 2 on input", 0, true, FIELD(struct vraid_info, job_state), 2, -EINVAL, "reserved" },
		{ "job_done on input", 0, false, FIELD(struct vraid_info, job_done), 1ull << 40, -EINVAL, "reserved" },
		{ "job_total on input", 0, false, FIELD(struct vraid_info, job_total), 1, -EINVAL, "reserved" },
		{ "job_rate_kib on input", 0, false, FIELD(struct vraid_info, job_rate_kib), 1024, -EINVAL, "reserved" },
		{ "job_eta_sec on input", 0, false, FIELD(struct vraid_info, job_eta_sec), 60, -EINVAL, "reserved" },
		{ "job_mismatches on input", 0, false, FIELD(struct vraid_info, job_mismatches), 3, -EINVAL, "reserved" },
		{ "last_mismatches on input", 0, false, FIELD(struct vraid_info, last_mismatches), 3, -EINVAL, "reserved" },
		{ "last_job on input", 0, false, FIELD(struct vraid_info, last_job), VRAID_JOB_CHECK, -EINVAL, "reserved" },
		{ "last_result on input", 0, true, FIELD(struct vraid_info, last_result), EIO, -EINVAL, "reserved" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		struct vraid_info *inf = zalloc(sizeof(*inf));

		if (t[i].garbage) {
			memset(inf, 0xcc, sizeof(*inf));
			memset((char *)inf + in_from, 0, in_to - in_from);
		}
		good_hdr(&inf->hdr, sizeof(*inf));
		inf->index = t[i].index;
		if (t[i].width)
			set_field(inf, t[i].off, t[i].width, t[i].val);
		tap_begin("info: %s -> %d", t[i].what, t[i].err);
		msg_reset(msg, VRAID_MSG_LEN);
		expect(vraid_validate_info(inf, msg, VRAID_MSG_LEN), t[i].err,
		       t[i].needle);
		tap_end();
		free(inf);
	}
}

static void test_list(void)
{
	static const struct {
		const char *what;
		u32 res1;
		bool garbage;	/* fill nr_vds and index[] */
		u32 res2_at;
		u64 res2;
		int err;
	} t[] = {
		{ "all zero",                 0, false, 0, 0, 0 },
		{ "out fields ignored",       0, true,  0, 0, 0 },
		{ "reserved1 = 1",            1, false, 0, 0, -EINVAL },
		{ "reserved1 = 0xffffffff",   0xffffffff, true, 0, 0, -EINVAL },
		{ "reserved2[0] = 1",         0, false, 0, 1, -EINVAL },
		{ "reserved2[3] = 1<<63",     0, true, 3, 1ull << 63, -EINVAL },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		struct vraid_list *l = zalloc(sizeof(*l));

		if (t[i].garbage) {
			memset(l, 0xcc, sizeof(*l));
			memset(l->reserved2, 0, sizeof(l->reserved2));
		}
		good_hdr(&l->hdr, sizeof(*l));
		l->reserved1 = t[i].res1;
		l->reserved2[t[i].res2_at] = t[i].res2;
		tap_begin("list: %s -> %d", t[i].what, t[i].err);
		msg_reset(msg, VRAID_MSG_LEN);
		expect(vraid_validate_list(l, msg, VRAID_MSG_LEN), t[i].err,
		       t[i].err ? "reserved" : NULL);
		tap_end();
		free(l);
	}
}

/* ---- JOB, SPARE, REPLACE (ABI 1.3) ---------------------------------------- */

static void test_job(void)
{
	static const struct {
		const char *what;
		u32 index, action, rate, res1, res2_at;
		u64 res2;
		int err;
		const char *needle;
	} t[] = {
		{ "start check",        0, VRAID_JOB_START_CHECK, 0, 0, 0, 0, 0, NULL },
		{ "start repair",       1, VRAID_JOB_START_REPAIR, 0, 0, 0, 0, 0, NULL },
		{ "start init",         2, VRAID_JOB_START_INIT, 0, 0, 0, 0, 0, NULL },
		{ "pause",              3, VRAID_JOB_PAUSE, 0, 0, 0, 0, 0, NULL },
		{ "resume",             4, VRAID_JOB_RESUME, 0, 0, 0, 0, 0, NULL },
		{ "stop, index 255",    VRAID_MAX_VDS - 1, VRAID_JOB_STOP, 0, 0, 0, 0, 0, NULL },
		{ "set rate 0 (none)",  0, VRAID_JOB_SET_RATE, 0, 0, 0, 0, 0, NULL },
		{ "set rate 1",         0, VRAID_JOB_SET_RATE, 1, 0, 0, 0, 0, NULL },
		{ "set rate max",       0, VRAID_JOB_SET_RATE, VRAID_JOB_RATE_MAX, 0, 0, 0, 0, NULL },
		{ "reserved1 = 1",      0, VRAID_JOB_STOP, 0, 1, 0, 0, -EINVAL, "reserved" },
		{ "reserved2[0] = 1",   0, VRAID_JOB_STOP, 0, 0, 0, 1, -EINVAL, "reserved" },
		{ "reserved2[3] = 1<<63", 0, VRAID_JOB_STOP, 0, 0, 3, 1ull << 63, -EINVAL, "reserved" },
		{ "action 0",           0, 0, 0, 0, 0, 0, -EINVAL, "action 0" },
		{ "action 8",           0, 8, 0, 0, 0, 0, -EINVAL, "action 8" },
		{ "action 0xffffffff",  0, 0xffffffff, 0, 0, 0, 0, -EINVAL, "action 4294967295" },
		{ "rate with check",    0, VRAID_JOB_START_CHECK, 100, 0, 0, 0, -EINVAL, "SET_RATE" },
		{ "rate with pause",    0, VRAID_JOB_PAUSE, 1, 0, 0, 0, -EINVAL, "SET_RATE" },
		{ "rate max + 1",       0, VRAID_JOB_SET_RATE, VRAID_JOB_RATE_MAX + 1, 0, 0, 0, -EINVAL, "out of range" },
		{ "rate 0xffffffff",    0, VRAID_JOB_SET_RATE, 0xffffffff, 0, 0, 0, -EINVAL, "4294967295" },
		{ "index 256",          VRAID_MAX_VDS, VRAID_JOB_START_CHECK, 0, 0, 0, 0, -ENOENT, "vraid256" },
		{ "index 0xffffffff",   0xffffffff, VRAID_JOB_SET_RATE, 5, 0, 0, 0, -ENOENT, "4294967295" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		struct vraid_job *j = zalloc(sizeof(*j));

		good_hdr(&j->hdr, sizeof(*j));
		j->index = t[i].index;
		j->action = t[i].action;
		j->rate_kib = t[i].rate;
		j->reserved1 = t[i].res1;
		j->reserved2[t[i].res2_at] = t[i].res2;
		tap_begin("job: %s -> %d", t[i].what, t[i].err);
		msg_reset(msg, VRAID_MSG_LEN);
		expect(vraid_validate_job(j, msg, VRAID_MSG_LEN), t[i].err,
		       t[i].needle);
		tap_end();
		free(j);
	}
}

enum spare_tweak { SP_NONE, SP_RES2, SP_NR, SP_OUT, SP_UUID };

static void test_spare(void)
{
	static const struct {
		const char *what;
		u32 action, flags, index, major, minor;
		enum spare_tweak tw;
		int err;
		const char *needle;
	} t[] = {
		{ "list",                     VRAID_SPARE_LIST, 0, 0, 0, 0, SP_NONE, 0, NULL },
		{ "add global 8:64",          VRAID_SPARE_ADD, 0, 0, 8, 64, SP_NONE, 0, NULL },
		{ "add dedicated to vraid0",  VRAID_SPARE_ADD, VRAID_SPARE_DEDICATED, 0, 8, 64, SP_NONE, 0, NULL },
		{ "add dedicated to vraid255", VRAID_SPARE_ADD, VRAID_SPARE_DEDICATED, VRAID_MAX_VDS - 1, 259, 3, SP_NONE, 0, NULL },
		{ "add 4095:1048575",         VRAID_SPARE_ADD, 0, 0, 4095, (1 << 20) - 1, SP_NONE, 0, NULL },
		{ "remove 8:64",              VRAID_SPARE_REMOVE, 0, 0, 8, 64, SP_NONE, 0, NULL },
		{ "reserved2 set",            VRAID_SPARE_ADD, 0, 0, 8, 64, SP_RES2, -EINVAL, "reserved" },
		{ "nr_spares set on input",   VRAID_SPARE_LIST, 0, 0, 0, 0, SP_NR, -EINVAL, "output" },
		{ "spares[] set on input",    VRAID_SPARE_LIST, 0, 0, 0, 0, SP_OUT, -EINVAL, "output" },
		{ "list with flags",          VRAID_SPARE_LIST, VRAID_SPARE_DEDICATED, 0, 0, 0, SP_NONE, -EINVAL, "LIST" },
		{ "list with an index",       VRAID_SPARE_LIST, 0, 1, 0, 0, SP_NONE, -EINVAL, "LIST" },
		{ "list with a device",       VRAID_SPARE_LIST, 0, 0, 8, 64, SP_NONE, -EINVAL, "LIST" },
		{ "add, unknown flag 0x4",    VRAID_SPARE_ADD, 4, 0, 8, 64, SP_NONE, -EINVAL, "0x4" },
		{ "add dedicated by UUID",    VRAID_SPARE_ADD, VRAID_SPARE_VD_UUID, 0, 8, 64, SP_UUID, 0, NULL },
		{ "add by UUID, UUID zero",   VRAID_SPARE_ADD, VRAID_SPARE_VD_UUID, 0, 8, 64, SP_NONE, -EINVAL, "not zero" },
		{ "add by UUID and index",    VRAID_SPARE_ADD, VRAID_SPARE_VD_UUID | VRAID_SPARE_DEDICATED, 0, 8, 64, SP_UUID, -EINVAL, "not both" },
		{ "add global with a UUID",   VRAID_SPARE_ADD, 0, 0, 8, 64, SP_UUID, -EINVAL, "VD UUID" },
		{ "list with a UUID",         VRAID_SPARE_LIST, 0, 0, 0, 0, SP_UUID, -EINVAL, "reserved" },
		{ "remove with a UUID",       VRAID_SPARE_REMOVE, 0, 0, 8, 64, SP_UUID, -EINVAL, "reserved" },
		{ "add, flags 0x80000001",    VRAID_SPARE_ADD, 0x80000001, 0, 8, 64, SP_NONE, -EINVAL, "0x80000001" },
		{ "add global with an index", VRAID_SPARE_ADD, 0, 3, 8, 64, SP_NONE, -EINVAL, "dedicated" },
		{ "remove with flags",        VRAID_SPARE_REMOVE, VRAID_SPARE_DEDICATED, 0, 8, 64, SP_NONE, -EINVAL, "REMOVE" },
		{ "remove with an index",     VRAID_SPARE_REMOVE, 0, 2, 8, 64, SP_NONE, -EINVAL, "REMOVE" },
		{ "action 0",                 0, 0, 0, 8, 64, SP_NONE, -EINVAL, "action 0" },
		{ "action 4",                 4, 0, 0, 8, 64, SP_NONE, -EINVAL, "action 4" },
		{ "add 0:0",                  VRAID_SPARE_ADD, 0, 0, 0, 0, SP_NONE, -EINVAL, "0:0" },
		{ "add major 4096",           VRAID_SPARE_ADD, 0, 0, 4096, 1, SP_NONE, -EINVAL, "4096:1" },
		{ "remove minor 1<<20",       VRAID_SPARE_REMOVE, 0, 0, 8, 1 << 20, SP_NONE, -EINVAL, "8:1048576" },
		{ "add dedicated to vraid256", VRAID_SPARE_ADD, VRAID_SPARE_DEDICATED, VRAID_MAX_VDS, 8, 64, SP_NONE, -ENOENT, "vraid256" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		struct vraid_spare *sp = zalloc(sizeof(*sp));

		good_hdr(&sp->hdr, sizeof(*sp));
		sp->action = t[i].action;
		sp->spare_flags = t[i].flags;
		sp->index = t[i].index;
		sp->major = t[i].major;
		sp->minor = t[i].minor;
		switch (t[i].tw) {
		case SP_NONE:
			break;
		case SP_RES2:
			sp->reserved2[1] = 1;
			break;
		case SP_NR:
			sp->nr_spares = 1;
			break;
		case SP_OUT:
			sp->spares[VRAID_MAX_SPARES - 1].vd_uuid[15] = 1;
			break;
		case SP_UUID:
			sp->vd_uuid[7] = 0x5a;
			break;
		}
		tap_begin("spare: %s -> %d", t[i].what, t[i].err);
		msg_reset(msg, VRAID_MSG_LEN);
		expect(vraid_validate_spare(sp, msg, VRAID_MSG_LEN), t[i].err,
		       t[i].needle);
		tap_end();
		free(sp);
	}
}

static void test_replace(void)
{
	static const struct {
		const char *what;
		u32 index, old_major, old_minor, new_major, new_minor, flags;
		u32 role, res1;
		u32 res2_at;
		u64 res2;
		int err;
		const char *needle;
	} t[] = {
		{ "8:16 onto 8:32",      0, 8, 16, 8, 32, 0, 0, 0, 0, 0, 0, NULL },
		{ "--force, vraid255",   VRAID_MAX_VDS - 1, 8, 16, 259, 0, VRAID_REPLACE_FORCE, 0, 0, 0, 0, 0, NULL },
		{ "same major, minors differ", 0, 8, 16, 8, 17, 0, 0, 0, 0, 0, 0, NULL },
		{ "reserved2[0] = 1",    0, 8, 16, 8, 32, 0, 0, 0, 0, 1, -EINVAL, "reserved" },
		{ "reserved2[2] = 1<<63", 0, 8, 16, 8, 32, 0, 0, 0, 2, 1ull << 63, -EINVAL, "reserved" },
		{ "reserved1 = 1",       0, 8, 16, 8, 32, 0, 0, 1, 0, 0, -EINVAL, "reserved" },
		{ "role without flag",   0, 8, 16, 8, 32, 0, 3, 0, 0, 0, -EINVAL, "old_role" },
		{ "by role 3",           0, 0, 0, 8, 32, VRAID_REPLACE_ROLE, 3, 0, 0, 0, 0, NULL },
		{ "by role 3, --force",  0, 0, 0, 8, 32, VRAID_REPLACE_ROLE | VRAID_REPLACE_FORCE, 3, 0, 0, 0, 0, NULL },
		{ "by role 32",          0, 0, 0, 8, 32, VRAID_REPLACE_ROLE, 32, 0, 0, 0, -EINVAL, "role 32" },
		{ "by role with old dev", 0, 8, 16, 8, 32, VRAID_REPLACE_ROLE, 1, 0, 0, 0, -EINVAL, "role" },
		{ "by role, new 0:0",    0, 0, 0, 0, 0, VRAID_REPLACE_ROLE, 1, 0, 0, 0, -EINVAL, "0:0" },
		{ "unknown flag 0x4",    0, 8, 16, 8, 32, 4, 0, 0, 0, 0, -EINVAL, "0x4" },
		{ "flags 0x80000000",    0, 8, 16, 8, 32, 0x80000000, 0, 0, 0, 0, -EINVAL, "0x80000000" },
		{ "old 0:0",             0, 0, 0, 8, 32, 0, 0, 0, 0, 0, -EINVAL, "0:0" },
		{ "new 0:0",             0, 8, 16, 0, 0, 0, 0, 0, 0, 0, -EINVAL, "0:0" },
		{ "old major 4096",      0, 4096, 1, 8, 32, 0, 0, 0, 0, 0, -EINVAL, "4096:1" },
		{ "new minor 1<<20",     0, 8, 16, 8, 1 << 20, 0, 0, 0, 0, 0, -EINVAL, "8:1048576" },
		{ "new is old",          0, 8, 16, 8, 16, 0, 0, 0, 0, 0, -EINVAL, "replaces" },
		{ "index 256",           VRAID_MAX_VDS, 8, 16, 8, 32, 0, 0, 0, 0, 0, -ENOENT, "vraid256" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		struct vraid_replace *r = zalloc(sizeof(*r));

		good_hdr(&r->hdr, sizeof(*r));
		r->index = t[i].index;
		r->old_major = t[i].old_major;
		r->old_minor = t[i].old_minor;
		r->new_major = t[i].new_major;
		r->new_minor = t[i].new_minor;
		r->rep_flags = t[i].flags;
		r->old_role = t[i].role;
		r->reserved1 = t[i].res1;
		r->reserved2[t[i].res2_at] = t[i].res2;
		tap_begin("replace: %s -> %d", t[i].what, t[i].err);
		msg_reset(msg, VRAID_MSG_LEN);
		expect(vraid_validate_replace(r, msg, VRAID_MSG_LEN), t[i].err,
		       t[i].needle);
		tap_end();
		free(r);
	}
}

/* ---- SET_POLICY (ABI 1.4) ------------------------------------------------ */

#define S_A	VRAID_SET_ACCESS
#define S_D	VRAID_SET_DISK_CACHE
#define S_I	VRAID_SET_IO
#define S_R	VRAID_SET_READ
#define S_W	VRAID_SET_WRITE
#define S_ALL	(S_A | S_D | S_I | S_R | S_W)

static void test_set_policy(void)
{
	static const struct {
		const char *what;
		u32 index, mask;
		u32 access, dcache, io, read, write;
		u32 res1, res2_at;
		u64 res2;
		bool hdr_garbage;
		int err;
		const char *needle;
	} t[] = {
		/* accepted */
		{ "access ro",              0, S_A, 1, 0, 0, 0, 0, 0, 0, 0, false, 0, NULL },
		{ "access blocked",         1, S_A, 2, 0, 0, 0, 0, 0, 0, 0, false, 0, NULL },
		{ "access rw",              2, S_A, 0, 0, 0, 0, 0, 0, 0, 0, false, 0, NULL },
		{ "disk cache off",         0, S_D, 0, 2, 0, 0, 0, 0, 0, 0, false, 0, NULL },
		{ "disk cache on",          0, S_D, 0, 1, 0, 0, 0, 0, 0, 0, false, 0, NULL },
		{ "disk cache default",     0, S_D, 0, 0, 0, 0, 0, 0, 0, 0, false, 0, NULL },
		{ "io direct",              0, S_I, 0, 0, 0, 0, 0, 0, 0, 0, false, 0, NULL },
		{ "no read-ahead",          0, S_R, 0, 0, 0, 0, 0, 0, 0, 0, false, 0, NULL },
		{ "write-through",          0, S_W, 0, 0, 0, 0, 0, 0, 0, 0, false, 0, NULL },
		{ "all five at defaults",   0, S_ALL, 0, 0, 0, 0, 0, 0, 0, 0, false, 0, NULL },
		{ "access ro, disk cache off", 0, S_A | S_D, 1, 2, 0, 0, 0, 0, 0, 0, false, 0, NULL },
		{ "all five, blocked and on", 0, S_ALL, 2, 1, 0, 0, 0, 0, 0, 0, false, 0, NULL },
		{ "index 255",              VRAID_MAX_VDS - 1, S_A, 1, 0, 0, 0, 0, 0, 0, 0, false, 0, NULL },
		{ "header fields are not set_policy's business", 0, S_A, 1, 0, 0, 0, 0, 0, 0, 0, true, 0, NULL },
		/* set_mask */
		{ "mask 0",                 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, false, -EINVAL, "set_mask 0x0" },
		{ "mask 0, a value set",    0, 0, 1, 0, 0, 0, 0, 0, 0, 0, false, -EINVAL, "set_mask 0x0" },
		{ "unknown bit 0x20",       0, 0x20, 0, 0, 0, 0, 0, 0, 0, 0, false, -EINVAL, "0x20" },
		{ "known and unknown bits 0x21", 0, 0x21, 1, 0, 0, 0, 0, 0, 0, 0, false, -EINVAL, "0x21" },
		{ "mask 0x80000000",        0, 0x80000000, 0, 0, 0, 0, 0, 0, 0, 0, false, -EINVAL, "0x80000000" },
		{ "mask 0xffffffff",        0, 0xffffffff, 0, 0, 0, 0, 0, 0, 0, 0, false, -EINVAL, "0xffffffff" },
		/* a value outside set_mask must be zero */
		{ "disk cache outside mask",  0, S_A, 1, 1, 0, 0, 0, 0, 0, 0, false, -EINVAL, "not in set_mask" },
		{ "access outside mask",      0, S_D, 1, 2, 0, 0, 0, 0, 0, 0, false, -EINVAL, "not in set_mask" },
		{ "io outside mask",          0, S_A, 0, 0, 1, 0, 0, 0, 0, 0, false, -EINVAL, "not in set_mask" },
		{ "read outside mask",        0, S_A, 0, 0, 0, 1, 0, 0, 0, 0, false, -EINVAL, "not in set_mask" },
		{ "write outside mask",       0, S_A, 0, 0, 0, 0, 1, 0, 0, 0, false, -EINVAL, "not in set_mask" },
		{ "write outside all but write", 0, S_A | S_D | S_I | S_R, 0, 0, 0, 0, 2, 0, 0, 0, false, -EINVAL, "not in set_mask" },
		{ "unknown access outside mask", 0, S_W, 7, 0, 0, 0, 0, 0, 0, 0, false, -EINVAL, "not in set_mask" },
		/* unknown values */
		{ "access 3",               0, S_A, 3, 0, 0, 0, 0, 0, 0, 0, false, -EINVAL, "unknown policy" },
		{ "access 0x80000000",      0, S_A, 0x80000000, 0, 0, 0, 0, 0, 0, 0, false, -EINVAL, "2147483648" },
		{ "disk cache 3",           0, S_D, 0, 3, 0, 0, 0, 0, 0, 0, false, -EINVAL, "unknown policy" },
		{ "io 2",                   0, S_I, 0, 0, 2, 0, 0, 0, 0, 0, false, -EINVAL, "unknown policy" },
		{ "read 2",                 0, S_R, 0, 0, 0, 2, 0, 0, 0, 0, false, -EINVAL, "unknown policy" },
		{ "write 3",                0, S_W, 0, 0, 0, 0, 3, 0, 0, 0, false, -EINVAL, "unknown policy" },
		{ "write 0xffffffff",       0, S_W, 0, 0, 0, 0, 0xffffffff, 0, 0, 0, false, -EINVAL, "4294967295" },
		{ "unknown write beats read-ahead", 0, S_R | S_W, 0, 0, 0, 1, 3, 0, 0, 0, false, -EINVAL, "unknown policy" },
		/* what uses the controller cache (all of it accepted: ABI 1.8) */
		{ "write-back (writes through)", 0, S_W, 0, 0, 0, 0, 1, 0, 0, 0, false, 0, NULL },
		{ "always write-back (ABI 1.8)", 0, S_W, 0, 0, 0, 0, 2, 0, 0, 0, false, 0, NULL },
		{ "read-ahead (ABI 1.7)",   0, S_R, 0, 0, 0, 1, 0, 0, 0, 0, false, 0, NULL },
		{ "read-ahead with always write-back", 0, S_R | S_W, 0, 0, 0, 1, 2, 0, 0, 0, false, 0, NULL },
		{ "cached I/O",             0, S_I, 0, 0, 1, 0, 0, 0, 0, 0, false, 0, NULL },
		{ "access ro with write-back", 0, S_A | S_W, 1, 0, 0, 0, 1, 0, 0, 0, false, 0, NULL },
		{ "access ro with always write-back", 0, S_A | S_W, 1, 0, 0, 0, 2, 0, 0, 0, false, 0, NULL },
		{ "cached I/O with always write-back", 0, S_I | S_W, 0, 0, 1, 0, 2, 0, 0, 0, false, 0, NULL },
		{ "always write-back, disk cache off", 0, S_D | S_W, 0, 2, 0, 0, 2, 0, 0, 0, false, 0, NULL },
		{ "all five, cached I/O",   0, S_ALL, 0, 0, 1, 0, 0, 0, 0, 0, false, 0, NULL },
		{ "all five, cached I/O, read-ahead", 0, S_ALL, 0, 0, 1, 1, 0, 0, 0, 0, false, 0, NULL },
		{ "all five, cached I/O, read-ahead, write-back", 0, S_ALL, 0, 0, 1, 1, 1, 0, 0, 0, false, 0, NULL },
		{ "all five, cached I/O, read-ahead, always write-back", 0, S_ALL, 0, 0, 1, 1, 2, 0, 0, 0, false, 0, NULL },
		{ "always write-back outside mask", 0, S_R, 0, 0, 0, 1, 2, 0, 0, 0, false, -EINVAL, "not in set_mask" },
		/* reserved fields */
		{ "reserved1 = 1",          0, S_A, 1, 0, 0, 0, 0, 1, 0, 0, false, -EINVAL, "reserved" },
		{ "reserved2[0] = 1",       0, S_A, 1, 0, 0, 0, 0, 0, 0, 1, false, -EINVAL, "reserved" },
		{ "reserved2[3] = 1<<63",   0, S_D, 0, 2, 0, 0, 0, 0, 3, 1ull << 63, false, -EINVAL, "reserved" },
		/* the VD */
		{ "index 256",              VRAID_MAX_VDS, S_A, 1, 0, 0, 0, 0, 0, 0, 0, false, -ENOENT, "vraid256" },
		{ "index 0xffffffff",       0xffffffff, S_D, 0, 2, 0, 0, 0, 0, 0, 0, false, -ENOENT, "4294967295" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		struct vraid_set_policy *p = zalloc(sizeof(*p));

		good_hdr(&p->hdr, sizeof(*p));
		if (t[i].hdr_garbage)
			memset(&p->hdr, 0xee, sizeof(p->hdr));
		p->index = t[i].index;
		p->set_mask = t[i].mask;
		p->access_policy = t[i].access;
		p->disk_cache_policy = t[i].dcache;
		p->io_policy = t[i].io;
		p->read_policy = t[i].read;
		p->write_policy = t[i].write;
		p->reserved1 = t[i].res1;
		p->reserved2[t[i].res2_at] = t[i].res2;
		tap_begin("set_policy: %s -> %d", t[i].what, t[i].err);
		msg_reset(msg, VRAID_MSG_LEN);
		expect(vraid_validate_set_policy(p, msg, VRAID_MSG_LEN),
		       t[i].err, t[i].needle);
		CHECK(!msg_has(msg, VRAID_MSG_LEN, "does not have yet"),
		      "message \"%.*s\" says something is missing",
		      VRAID_MSG_LEN, msg);
		tap_end();
		free(p);
	}

	/*
	 * Every value of every policy, alone in set_mask: accepted, or
	 * refused as unknown (never EOPNOTSUPP since ABI 1.8); the same through
	 * create and through vraid_validate_policies() with every mask.
	 */
	tap_begin("set_policy, create, validate_policies: every value 0..4 of every policy");
	for (i = 0; i < 5 * 5; i++) {
		static const u32 bits[5] = { S_A, S_D, S_I, S_R, S_W };
		static const u32 max[5] = {	/* the largest known value */
			VRAID_ACCESS_BLOCKED, VRAID_DCACHE_DISABLED,
			VRAID_IO_CACHED, VRAID_READ_AHEAD, VRAID_WRITE_BACK_ALWAYS,
		};
		u32 which = (u32)(i / 5), v = (u32)(i % 5), vals[5] = { 0 };
		struct vraid_set_policy *p = zalloc(sizeof(*p));
		struct vraid_create *c = good_create(1, 2, 0);
		int want, ret;
		u32 m;

		/*
		 * every known value works: read-ahead since ABI 1.7,
		 * always write-back since ABI 1.8
		 */
		want = v > max[which] ? -EINVAL : 0;
		vals[which] = v;
		good_hdr(&p->hdr, sizeof(*p));
		p->set_mask = bits[which];
		p->access_policy = vals[POL_ACCESS];
		p->disk_cache_policy = vals[POL_DCACHE];
		p->io_policy = vals[POL_IO];
		p->read_policy = vals[POL_READ];
		p->write_policy = vals[POL_WRITE];
		msg_reset(msg, VRAID_MSG_LEN);
		ret = vraid_validate_set_policy(p, msg, VRAID_MSG_LEN);
		CHECK(ret == want, "set_policy policy %u value %u: %d, want %d (%.*s)",
		      which, v, ret, want, VRAID_MSG_LEN, msg);
		*create_pol(c, which) = v;
		msg_reset(msg, VRAID_MSG_LEN);
		ret = vraid_validate_create(c, msg, VRAID_MSG_LEN);
		CHECK(ret == want, "create policy %u value %u: %d, want %d (%.*s)",
		      which, v, ret, want, VRAID_MSG_LEN, msg);
		for (m = 0; m <= S_ALL; m++) {
			msg_reset(msg, VRAID_MSG_LEN);
			ret = vraid_validate_policies(m, vals[POL_ACCESS],
						      vals[POL_DCACHE],
						      vals[POL_IO],
						      vals[POL_READ],
						      vals[POL_WRITE], msg,
						      VRAID_MSG_LEN);
			/* a policy not in the mask is not looked at */
			CHECK(ret == ((m & bits[which]) ? want : 0),
			      "validate_policies mask 0x%x policy %u value %u: %d",
			      m, which, v, ret);
		}
		free(c);
		free(p);
	}
	tap_end();
}

/* ---- CONTROLLER (ABI 1.7) ----------------------------------------------- */

#define C_SHOW		VRAID_CTRL_SHOW
#define C_SET		VRAID_CTRL_SET_CACHE_SIZE
#define C_ATTACH	VRAID_CTRL_JOURNAL_ATTACH
#define C_DETACH	VRAID_CTRL_JOURNAL_DETACH
#define C_DISCARD	VRAID_CTRL_JOURNAL_DISCARD
#define MIB		(1ull << 20)
#define CF(f)		FIELD(struct vraid_controller, f)

static void test_controller(void)
{
	static const struct {
		const char *what;
		u32 action, flags;
		u64 bytes;
		u32 major, minor;
		size_t off, width;	/* a field that must be zero, or width 0 */
		u64 val;
		bool hdr_garbage;
		int err;
		const char *needle;
	} t[] = {
		/* accepted: the size's bounds are the handler's (RAM) */
		{ "show",                     C_SHOW, 0, 0, 0, 0, 0, 0, 0, false, 0, NULL },
		{ "set size 0 (the default)", C_SET, 0, 0, 0, 0, 0, 0, 0, false, 0, NULL },
		{ "set size 64 MiB",          C_SET, 0, 64 * MIB, 0, 0, 0, 0, 0, false, 0, NULL },
		{ "set size 16 MiB",          C_SET, 0, 16 * MIB, 0, 0, 0, 0, 0, false, 0, NULL },
		{ "set size 1 TiB",           C_SET, 0, MIB << 20, 0, 0, 0, 0, 0, false, 0, NULL },
		{ "set size 1 (bounds: the handler)", C_SET, 0, 1, 0, 0, 0, 0, 0, false, 0, NULL },
		{ "set size 15 MiB (bounds: the handler)", C_SET, 0, 15 * MIB, 0, 0, 0, 0, 0, false, 0, NULL },
		{ "set size ~0 (bounds: the handler)", C_SET, 0, ~0ull, 0, 0, 0, 0, 0, false, 0, NULL },
		{ "attach 8:16",              C_ATTACH, 0, 0, 8, 16, 0, 0, 0, false, 0, NULL },
		{ "attach 4095:1048575",      C_ATTACH, 0, 0, 4095, (1 << 20) - 1, 0, 0, 0, false, 0, NULL },
		{ "attach 0:1",               C_ATTACH, 0, 0, 0, 1, 0, 0, 0, false, 0, NULL },
		{ "attach 259:0",             C_ATTACH, 0, 0, 259, 0, 0, 0, 0, false, 0, NULL },
		{ "detach",                   C_DETACH, 0, 0, 0, 0, 0, 0, 0, false, 0, NULL },
		{ "discard",                  C_DISCARD, 0, 0, 0, 0, 0, 0, 0, false, 0, NULL },
		{ "attach 8:16 --force",      C_ATTACH, VRAID_CTRL_FORCE, 0, 8, 16, 0, 0, 0, false, 0, NULL },
		{ "header fields are not controller's business", C_SET, 0, 64 * MIB, 0, 0, 0, 0, 0, true, 0, NULL },
		/* ctrl_flags: FORCE, and only with JOURNAL_ATTACH */
		{ "show, ctrl_flags 1",       C_SHOW, 1, 0, 0, 0, 0, 0, 0, false, -EINVAL, "FORCE" },
		{ "detach --force",           C_DETACH, 1, 0, 0, 0, 0, 0, 0, false, -EINVAL, "FORCE" },
		{ "discard --force",          C_DISCARD, 1, 0, 0, 0, 0, 0, 0, false, -EINVAL, "FORCE" },
		{ "set, ctrl_flags 0x80000000", C_SET, 0x80000000, 64 * MIB, 0, 0, 0, 0, 0, false, -EINVAL, "0x80000000" },
		{ "attach, ctrl_flags 0xffffffff", C_ATTACH, 0xffffffff, 0, 8, 16, 0, 0, 0, false, -EINVAL, "0xffffffff" },
		{ "flags beat reserved",      C_SHOW, 2, 0, 0, 0, CF(reserved[0]), 1, false, -EINVAL, "flags 0x2" },
		{ "flags beat an unknown action", 9, 4, 0, 0, 0, 0, 0, 0, false, -EINVAL, "flags 0x4" },
		/* reserved words and every out field: zero on input */
		{ "reserved[0] = 1",          C_SHOW, 0, 0, 0, 0, CF(reserved[0]), 1, false, -EINVAL, "reserved" },
		{ "reserved[2] = 1<<63",      C_SET, 0, 64 * MIB, 0, 0, CF(reserved[2]), 1ull << 63, false, -EINVAL, "reserved" },
		{ "journal_uuid on input",    C_SHOW, 0, 0, 0, 0, CF(journal_uuid[15]), 1, false, -EINVAL, "reserved" },
		{ "journal_head_seq on input", C_SHOW, 0, 0, 0, 0, CF(journal_head_seq), 1, false, -EINVAL, "reserved" },
		{ "journal_tail_seq on input", C_DISCARD, 0, 0, 0, 0, CF(journal_tail_seq), 1, false, -EINVAL, "reserved" },
		{ "journal_pending on input", C_SHOW, 0, 0, 0, 0, CF(journal_pending), 1, false, -EINVAL, "reserved" },
		{ "journal_vds on input",     C_SHOW, 0, 0, 0, 0, CF(journal_vds), 1, false, -EINVAL, "reserved" },
		{ "cache_default_bytes on input", C_SHOW, 0, 0, 0, 0, CF(cache_default_bytes), 64 * MIB, false, -EINVAL, "output" },
		{ "cache_max_bytes on input", C_SET, 0, 64 * MIB, 0, 0, CF(cache_max_bytes), 1, false, -EINVAL, "output" },
		{ "cache_used_bytes on input", C_SHOW, 0, 0, 0, 0, CF(cache_used_bytes), 4096, false, -EINVAL, "output" },
		{ "cache_dirty_bytes on input", C_SHOW, 0, 0, 0, 0, CF(cache_dirty_bytes), 1ull << 40, false, -EINVAL, "output" },
		{ "cache_dirty_high_bytes on input", C_DETACH, 0, 0, 0, 0, CF(cache_dirty_high_bytes), 1, false, -EINVAL, "output" },
		{ "nr_vds on input",          C_SHOW, 0, 0, 0, 0, CF(nr_vds), 1, false, -EINVAL, "output" },
		{ "journal_state on input",   C_SHOW, 0, 0, 0, 0, CF(journal_state), 1, false, -EINVAL, "output" },
		{ "journal_major on input",   C_ATTACH, 0, 0, 8, 16, CF(journal_major), 8, false, -EINVAL, "output" },
		{ "journal_minor on input",   C_SHOW, 0, 0, 0, 0, CF(journal_minor), 16, false, -EINVAL, "output" },
		{ "journal_bytes on input",   C_SHOW, 0, 0, 0, 0, CF(journal_bytes), 1, false, -EINVAL, "output" },
		{ "journal_used_bytes on input", C_SHOW, 0, 0, 0, 0, CF(journal_used_bytes), 1ull << 63, false, -EINVAL, "output" },
		{ "reserved beats an unknown action", 5, 0, 0, 0, 0, CF(reserved[1]), 1, false, -EINVAL, "reserved" },
		/* action */
		{ "action 5",                 5, 0, 0, 0, 0, 0, 0, 0, false, -EINVAL, "action 5" },
		{ "action 0x80000000",        0x80000000, 0, 0, 0, 0, 0, 0, 0, false, -EINVAL, "action 2147483648" },
		{ "action 0xffffffff",        0xffffffff, 0, 0, 0, 0, 0, 0, 0, false, -EINVAL, "action 4294967295" },
		{ "unknown action beats a size", 5, 0, 64 * MIB, 0, 0, 0, 0, 0, false, -EINVAL, "action 5" },
		{ "unknown action beats a device", 5, 0, 0, 8, 16, 0, 0, 0, false, -EINVAL, "action 5" },
		/* cache_bytes: SET_CACHE_SIZE only */
		{ "show with a size",         C_SHOW, 0, 64 * MIB, 0, 0, 0, 0, 0, false, -EINVAL, "SET_CACHE_SIZE" },
		{ "show with size 1",         C_SHOW, 0, 1, 0, 0, 0, 0, 0, false, -EINVAL, "SET_CACHE_SIZE" },
		{ "attach 8:16 with a size",  C_ATTACH, 0, 64 * MIB, 8, 16, 0, 0, 0, false, -EINVAL, "SET_CACHE_SIZE" },
		{ "detach with size 1<<63",   C_DETACH, 0, 1ull << 63, 0, 0, 0, 0, 0, false, -EINVAL, "SET_CACHE_SIZE" },
		{ "a size beats a device",    C_SHOW, 0, 64 * MIB, 8, 16, 0, 0, 0, false, -EINVAL, "SET_CACHE_SIZE" },
		/* major/minor: JOURNAL_ATTACH only */
		{ "show with a device 8:16",  C_SHOW, 0, 0, 8, 16, 0, 0, 0, false, -EINVAL, "JOURNAL_ATTACH" },
		{ "set with a minor only",    C_SET, 0, 64 * MIB, 0, 1, 0, 0, 0, false, -EINVAL, "JOURNAL_ATTACH" },
		{ "set size 0 with a major only", C_SET, 0, 0, 8, 0, 0, 0, 0, false, -EINVAL, "JOURNAL_ATTACH" },
		{ "detach with a device",     C_DETACH, 0, 0, 259, 3, 0, 0, 0, false, -EINVAL, "JOURNAL_ATTACH" },
		/* the journal device's number */
		{ "attach without a device (0:0)", C_ATTACH, 0, 0, 0, 0, 0, 0, 0, false, -EINVAL, "0:0" },
		{ "attach major 4096",        C_ATTACH, 0, 0, 4096, 1, 0, 0, 0, false, -EINVAL, "4096:1" },
		{ "attach minor 1<<20",       C_ATTACH, 0, 0, 8, 1 << 20, 0, 0, 0, false, -EINVAL, "8:1048576" },
		{ "attach 0xffffffff:0xffffffff", C_ATTACH, 0, 0, 0xffffffff, 0xffffffff, 0, 0, 0, false, -EINVAL, "4294967295:4294967295" },
	};
	const size_t out_from = offsetof(struct vraid_controller,
					 cache_default_bytes);
	size_t i;
	u32 a;

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		struct vraid_controller *c = zalloc(sizeof(*c));

		good_hdr(&c->hdr, sizeof(*c));
		if (t[i].hdr_garbage)
			memset(&c->hdr, 0xee, sizeof(c->hdr));
		c->action = t[i].action;
		c->ctrl_flags = t[i].flags;
		c->cache_bytes = t[i].bytes;
		c->major = t[i].major;
		c->minor = t[i].minor;
		if (t[i].width)
			set_field(c, t[i].off, t[i].width, t[i].val);
		tap_begin("controller: %s -> %d", t[i].what, t[i].err);
		msg_reset(msg, VRAID_MSG_LEN);
		expect(vraid_validate_controller(c, msg, VRAID_MSG_LEN),
		       t[i].err, t[i].needle);
		tap_end();
		free(c);
	}

	/* a non-zero byte anywhere among the out fields and reserved words */
	tap_begin("controller: every byte of the out fields and reserved words is refused");
	for (i = out_from; i < sizeof(struct vraid_controller); i++) {
		struct vraid_controller *c = zalloc(sizeof(*c));
		int ret;

		good_hdr(&c->hdr, sizeof(*c));
		c->action = (u32)(i % 4);
		if (c->action == C_ATTACH) {
			c->major = 8;
			c->minor = 16;
		}
		((u8 *)c)[i] = (u8)(1u << (i % 8));
		msg_reset(msg, VRAID_MSG_LEN);
		ret = vraid_validate_controller(c, msg, VRAID_MSG_LEN);
		CHECK(ret == -EINVAL && msg_has(msg, VRAID_MSG_LEN, "reserved"),
		      "byte %zu: ret %d \"%.*s\"", i, ret, VRAID_MSG_LEN, msg);
		free(c);
	}
	tap_end();

	/*
	 * Every action 0..7 with nothing, a size, a device, or both: only
	 * SET_CACHE_SIZE takes the size and only JOURNAL_ATTACH the device
	 * (which it needs); unknown actions are refused whatever comes with
	 * them.
	 */
	tap_begin("controller: actions 0..7 with and without a size and a device");
	for (a = 0; a < 8; a++) {
		u32 what;

		for (what = 0; what < 4; what++) {
			struct vraid_controller *c = zalloc(sizeof(*c));
			bool size = what & 1, dev = what & 2;
			int want, ret;

			good_hdr(&c->hdr, sizeof(*c));
			c->action = a;
			if (size)
				c->cache_bytes = 256 * MIB;
			if (dev) {
				c->major = 259;
				c->minor = 7;
			}
			if (a > C_DISCARD)
				want = -EINVAL;
			else if (size && a != C_SET)
				want = -EINVAL;
			else if (dev != (a == C_ATTACH))
				want = -EINVAL;
			else
				want = 0;
			msg_reset(msg, VRAID_MSG_LEN);
			ret = vraid_validate_controller(c, msg, VRAID_MSG_LEN);
			CHECK(ret == want, "action %u size %d device %d: %d, want %d (%.*s)",
			      a, size, dev, ret, want, VRAID_MSG_LEN, msg);
			free(c);
		}
	}
	tap_end();
}

#undef C_SHOW
#undef C_SET
#undef C_ATTACH
#undef C_DETACH
#undef MIB
#undef CF

/* Short message buffers: truncated and terminated, never overrun. */
static void test_short_msg(void)
{
	static const size_t lens[] = { 1, 2, 16 };
	size_t i;

	tap_begin("refusal messages into 1, 2 and 16 byte buffers stay inside");
	for (i = 0; i < ARRAY_SIZE(lens); i++) {
		char *m = msg_buf(lens[i]);
		struct vraid_create *c = good_create(0, 4, 0);
		struct vraid_delete *d = zalloc(sizeof(*d));
		struct vraid_job *j = zalloc(sizeof(*j));
		struct vraid_spare *sp = zalloc(sizeof(*sp));
		struct vraid_replace *r = zalloc(sizeof(*r));
		struct vraid_set_policy *p = zalloc(sizeof(*p));
		struct vraid_controller *ct = zalloc(sizeof(*ct));
		struct vraid_ioc_hdr h;

		good_hdr(&h, 0);
		CHECK(vraid_validate_hdr(&h, 0, m, lens[i]) == -EINVAL &&
		      memchr(m, 0, lens[i]), "hdr, len %zu", lens[i]);
		msg_reset(m, lens[i]);
		CHECK(vraid_validate_hdr(&h, 10, m, lens[i]) == -ENOTTY &&
		      memchr(m, 0, lens[i]), "hdr nr 10, len %zu", lens[i]);
		c->members[3] = c->members[0];
		msg_reset(m, lens[i]);
		CHECK(vraid_validate_create(c, m, lens[i]) == -EINVAL &&
		      memchr(m, 0, lens[i]), "create, len %zu", lens[i]);
		d->index = 300;
		msg_reset(m, lens[i]);
		CHECK(vraid_validate_delete(d, m, lens[i]) == -ENOENT &&
		      memchr(m, 0, lens[i]), "delete, len %zu", lens[i]);
		j->action = VRAID_JOB_SET_RATE;
		j->rate_kib = 0xffffffff;
		msg_reset(m, lens[i]);
		CHECK(vraid_validate_job(j, m, lens[i]) == -EINVAL &&
		      memchr(m, 0, lens[i]), "job, len %zu", lens[i]);
		sp->action = VRAID_SPARE_ADD;
		sp->spare_flags = 0xfffffff0;
		msg_reset(m, lens[i]);
		CHECK(vraid_validate_spare(sp, m, lens[i]) == -EINVAL &&
		      memchr(m, 0, lens[i]), "spare, len %zu", lens[i]);
		r->old_major = r->new_major = 4095;
		r->old_minor = r->new_minor = (1 << 20) - 1;
		msg_reset(m, lens[i]);
		CHECK(vraid_validate_replace(r, m, lens[i]) == -EINVAL &&
		      memchr(m, 0, lens[i]), "replace, len %zu", lens[i]);
		p->set_mask = VRAID_SET_WRITE;
		p->write_policy = VRAID_WRITE_BACK_ALWAYS + 1;
		msg_reset(m, lens[i]);
		CHECK(vraid_validate_set_policy(p, m, lens[i]) == -EINVAL &&
		      memchr(m, 0, lens[i]), "set_policy, len %zu", lens[i]);
		p->write_policy = 0;
		p->set_mask = 0x40;
		msg_reset(m, lens[i]);
		CHECK(vraid_validate_set_policy(p, m, lens[i]) == -EINVAL &&
		      memchr(m, 0, lens[i]), "set_policy mask, len %zu", lens[i]);
		ct->action = VRAID_CTRL_JOURNAL_ATTACH;
		ct->major = 0xffffffff;
		ct->minor = 0xffffffff;
		msg_reset(m, lens[i]);
		CHECK(vraid_validate_controller(ct, m, lens[i]) == -EINVAL &&
		      memchr(m, 0, lens[i]), "controller, len %zu", lens[i]);
		ct->ctrl_flags = 0xffffffff;
		msg_reset(m, lens[i]);
		CHECK(vraid_validate_controller(ct, m, lens[i]) == -EINVAL &&
		      memchr(m, 0, lens[i]), "controller flags, len %zu",
		      lens[i]);
		free(ct);
		free(p);
		free(r);
		free(sp);
		free(j);
		free(d);
		free(c);
		free(m);
	}
	tap_end();
}

/* EVENTS: since is the only input; every output field must come zeroed. */
static void test_events(void)
{
	static const struct {
		const char *what;
		size_t off, width;	/* a field set to 1, or width 0 */
		int err;
	} t[] = {
		{ "since 0 (the oldest)", 0, 0, 0 },
		{ "first set", offsetof(struct vraid_events, first), 8, -EINVAL },
		{ "next set", offsetof(struct vraid_events, next), 8, -EINVAL },
		{ "count set", offsetof(struct vraid_events, count), 4, -EINVAL },
		{ "reserved set", offsetof(struct vraid_events, reserved), 4,
		  -EINVAL },
		{ "an event's seq set", offsetof(struct vraid_events, events), 8,
		  -EINVAL },
		{ "the last event's text set",
		  sizeof(struct vraid_events) - 1, 1, -EINVAL },
	};
	struct vraid_events *e = zalloc(sizeof(*e));
	size_t i;

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		tap_begin("events: %s -> %d", t[i].what, t[i].err);
		memset(e, 0, sizeof(*e));
		e->since = i * 1000;
		if (t[i].width)
			((u8 *)e)[t[i].off] = 1;
		msg_reset(msg, VRAID_MSG_LEN);
		expect(vraid_validate_events(e, msg, VRAID_MSG_LEN), t[i].err,
		       t[i].err ? "not zero" : NULL);
		tap_end();
	}
	free(e);

	/* every type has a name, shared by the uevent and vraidctl */
	for (i = VRAID_EV_CREATED; i < VRAID_EV_TYPES; i++) {
		tap_begin("events: type %zu has a name", i);
		CHECK(strcmp(vraid_event_name((u32)i), "unknown"),
		      "type %zu is unnamed", i);
		tap_end();
	}
	tap_begin("events: types 0 and VRAID_EV_TYPES are unknown");
	CHECK(!strcmp(vraid_event_name(0), "unknown") &&
	      !strcmp(vraid_event_name(VRAID_EV_TYPES), "unknown"),
	      "an undefined type got a name");
	tap_end();
}

int main(void)
{
	msg = msg_buf(VRAID_MSG_LEN);
	test_abi();
	test_hdr();
	test_create();
	test_delete();
	test_fail_member();
	test_assemble();
	test_info();
	test_list();
	test_job();
	test_spare();
	test_replace();
	test_set_policy();
	test_controller();
	test_events();
	test_short_msg();
	free(msg);
	return tap_done();
}
