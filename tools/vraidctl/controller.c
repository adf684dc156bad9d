// SPDX-License-Identifier: GPL-2.0
/*
 * vraidctl: controller: the cache and the journal, and the journal device's superblock.
 */
#include "vraidctl.h"

/* "8c1d0f3e-...": @out has room for 37 bytes. */
void uuid_str(char *out, const uint8_t *u)
{
	sprintf(out, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9],
		u[10], u[11], u[12], u[13], u[14], u[15]);
}

const struct vname journal_states[] = {
	{ VRAID_JOURNAL_NONE, "none", "none" },
	{ VRAID_JOURNAL_HEALTHY, "healthy", "healthy" },
	{ VRAID_JOURNAL_REPLAY_PENDING, "replay pending", "replay_pending" },
	{ VRAID_JOURNAL_FAILED, "failed", "failed" },
};
const size_t journal_states_n = ARRAY_SIZE(journal_states);

/*
 * "/dev/NAME" of the block device @maj:@min from sysfs's dev/block links
 * (VRAIDCTL_SYSFS stands in for /sys); "" if sysfs does not name it.
 */
char *blk_dev_name(char *buf, size_t bufsz, uint32_t maj, uint32_t min)
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
bool journal_abi(const struct vraid_controller *r)
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
		       "                  discard --force` drops them: they are lost)\n");
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
	struct json j = { 0 };
	char dev[64], u[40] = "";

	blk_dev_name(dev, sizeof(dev), r->journal_major, r->journal_minor);
	if (none)
		dev[0] = '\0';
	if (!none && journal_abi(r))
		uuid_str(u, r->journal_uuid);
	json_begin_object(&j, NULL);
	json_u64(&j, "cache_bytes", r->cache_bytes);
	json_u64(&j, "cache_default_bytes", r->cache_default_bytes);
	json_u64(&j, "cache_max_bytes", r->cache_max_bytes);
	json_u64(&j, "used_bytes", r->cache_used_bytes);
	json_u64(&j, "dirty_bytes", r->cache_dirty_bytes);
	json_u64(&j, "dirty_high_bytes", r->cache_dirty_high_bytes);
	json_u64(&j, "vds", r->nr_vds);
	json_begin_object(&j, "journal");
	json_string(&j, "state", VNAME(journal_states, r->journal_state, true),
		    SIZE_MAX);
	json_u64(&j, "major", r->journal_major);
	json_u64(&j, "minor", r->journal_minor);
	json_u64(&j, "size_bytes", r->journal_bytes);
	json_u64(&j, "used_bytes", r->journal_used_bytes);
	json_string(&j, "device", dev, sizeof(dev));
	json_string(&j, "uuid", u, sizeof(u));
	json_u64(&j, "head_seq", r->journal_head_seq);
	json_u64(&j, "tail_seq", r->journal_tail_seq);
	json_u64(&j, "pending", r->journal_pending);
	json_u64(&j, "vds", r->journal_vds);
	json_end_object(&j);
	json_end_object(&j);
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
	if (size_decimal_refused(s))
		return RC_USAGE;
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

/* Whether either slot has the journal magic (valid or not). */
bool jsb_magic(const struct jsb_slots *j)
{
	return j->r[0] != -ENODATA || j->r[1] != -ENODATA;
}

/*
 * Read and decode both slots from @fd (a block device or an image file),
 * as the module does when it attaches (driver/journal.c,
 * vraid_journal_read_super()).
 */
void jsb_read(int fd, const char *dev, struct jsb_slots *j)
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
void journal_refused(struct ctl *c, const struct vraid_controller *req,
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

static int controller_quiet(struct vraid_controller *r);

/*
 * journal discard without --force: what it would destroy, and the refusal
 * (1) when that is anything; 0 lets the request go (the module then says
 * why there is nothing to discard, or that it has no journal).
 */
static int discard_guard(void)
{
	struct vraid_controller r;
	char dev[64] = "";
	unsigned int n;

	if (controller_quiet(&r) ||
	    r.journal_state != VRAID_JOURNAL_REPLAY_PENDING)
		return 0;
	blk_dev_name(dev, sizeof(dev), r.journal_major, r.journal_minor);
	n = r.journal_pending;
	errmsg("controller journal discard: the journal (%s%s%u:%u) holds acknowledged writes of %u virtual drive%s not assembled yet, from before a crash or power loss: discarding them loses those writes",
	       dev, dev[0] ? ", " : "", r.journal_major, r.journal_minor, n,
	       n == 1 ? "" : "s");
	hintmsg("assemble them instead: `vraidctl assemble --scan` with every member present replays the writes (the kernel log names each VD: \"journal ... holds writes of VD UUID\")");
	hintmsg("a VD whose assembly replayed its writes and then failed must be assembled again, not discarded: a member missing then would come back without those writes");
	hintmsg("`vraidctl controller journal discard --force` drops them if those VDs are gone for good");
	return 1;
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
void journal_small(const struct vraid_controller *r, const char *who)
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
			fprintf(stderr, "controller journal: it holds acknowledged writes of %u virtual drive%s from before a crash or power loss: `vraidctl assemble --scan` replays them; write-back writes through until then; `vraidctl controller journal discard --force` drops them (they are lost)\n",
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
 * [--json] | controller journal DEV [--force]|none|discard [--force] [--json]: one
 * CONTROLLER request.
 */

int cmd_controller(int argc, char **argv)
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
		      (npos >= 2 && !strcmp(pos[1], "none"))))
		return usage_error("controller", "--force is only for controller journal DEV (format DEV whatever it holds, a vraid journal included) and controller journal discard (drop the writes it holds)");
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
			if (!force && discard_guard())
				return RC_FAIL;
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

/*
 * examine DEV --json of a device with the journal magic: its slots @j,
 * the superblock taken @sb (NULL: none), the controller @r (NULL: not
 * known), whether it is the journal attached (-1: not known) and as what
 * device @adev.
 */
static int examine_journal_json(const char *dev, const struct jsb_slots *j,
				const struct vraid_jsb *sb,
				const struct vraid_controller *r, int attached,
				const char *adev)
{
	struct json w = { 0 };
	char u[40];
	int i;

	json_begin_object(&w, NULL);
	json_string(&w, "device", dev, strlen(dev) + 1);
	json_string(&w, "type", "journal", SIZE_MAX);
	json_begin_array(&w, "slots");
	for (i = 0; i < 2; i++) {
		json_begin_object(&w, NULL);
		json_u64(&w, "slot", i);
		json_u64(&w, "offset_bytes", (i ? VRAID_J_SB_SECTOR1 :
					      VRAID_J_SB_SECTOR0) * SECTOR_BYTES);
		json_string(&w, "status", !j->r[i] ? "valid" :
			    j->r[i] == -ENODATA ? "none" : "bad", SIZE_MAX);
		if (!j->r[i])
			json_u64(&w, "generation", j->sb[i].generation);
		else
			json_string(&w, "error", j->why[i], sizeof(j->why[i]));
		json_end_object(&w);
	}
	json_end_array(&w);
	if (!sb) {
		json_string(&w, "error", j->pick_why, sizeof(j->pick_why));
		json_end_object(&w);
		return RC_FAIL;
	}
	uuid_str(u, sb->uuid);
	json_string(&w, "uuid", u, sizeof(u));
	json_u64(&w, "generation", sb->generation);
	json_u64(&w, "created", sb->created);
	json_u64(&w, "ring_bytes", sb->ring_blocks * VRAID_J_BLOCK);
	json_u64(&w, "ring_blocks", sb->ring_blocks);
	json_u64(&w, "tail_block", sb->tail_block);
	json_u64(&w, "tail_seq", sb->tail_seq);
	json_begin_array(&w, "flags");
	if (sb->flags & VRAID_J_SB_DETACHED)
		json_string(&w, NULL, "detached", SIZE_MAX);
	if (sb->flags & VRAID_J_SB_RELEASED)
		json_string(&w, NULL, "released", SIZE_MAX);
	json_end_array(&w);
	json_bool(&w, "detached", sb->flags & VRAID_J_SB_DETACHED);
	json_bool(&w, "released", sb->flags & VRAID_J_SB_RELEASED);
	if (attached < 0)
		json_null(&w, "attached");
	else
		json_bool(&w, "attached", attached);
	json_string(&w, "attached_device", attached > 0 ? adev : "", SIZE_MAX);
	if (r)
		json_string(&w, "journal_state",
			    VNAME(journal_states, r->journal_state, true),
			    SIZE_MAX);
	else
		json_null(&w, "journal_state");
	json_end_object(&w);
	return RC_OK;
}

/* examine of a device with the journal magic, its slots @j; closes @fd. */
int examine_journal(const char *dev, int fd, const struct jsb_slots *j,
			   bool json)
{
	const struct vraid_jsb *sb = NULL;
	struct vraid_controller r;
	char u[40], au[40], sz[32], adev[64] = "", what[160], date[48];
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

	if (json)
		return examine_journal_json(dev, j, sb, e ? NULL : &r, attached,
					    adev);

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
	printf("Created:         %s\n",
	       utc_date(date, sizeof(date), sb->created));
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
