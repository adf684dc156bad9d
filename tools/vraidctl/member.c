// SPDX-License-Identifier: GPL-2.0
/*
 * vraidctl: member operations: fail, spare, replace.
 */
#include "vraidctl.h"

int cmd_fail(int argc, char **argv)
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
	if (open_vd(&c, true, pos[0], &in, NULL, 0))
		return RC_FAIL;
	ctl_name_devices(&c, &pos[1], &ref, 1);
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

static void spare_dev(char *buf, size_t bufsz, const struct vraid_spare_info *s)
{
	char b[VRAID_DEVNAME_LEN + 1];

	tty_str(b, sizeof(b), s->dev_name, sizeof(s->dev_name));
	snprintf(buf, bufsz, "%s%s", b[0] ? "/dev/" : "", b[0] ? b : "-");
}

/* The FOR of spare list: "vraid1", "global", or the UUID of a VD not running. */
static void spare_for(char *buf, size_t bufsz, const struct vraid_spare_info *s)
{
	char u[40];

	if (s->vd_index >= 0) {
		snprintf(buf, bufsz, "%s%d", VRAID_DISK_PREFIX, s->vd_index);
	} else if (s->info_flags & VRAID_SPARE_INFO_DEDICATED) {
		uuid_str(u, s->vd_uuid);
		snprintf(buf, bufsz, "VD %s (not running)", u);
	} else {
		snprintf(buf, bufsz, "global");
	}
}

static int spare_list(bool json)
{
	struct vraid_spare req;
	struct table t = {
		.ncol = 4,
		.head = { "DEVICE", "MAJ:MIN", "SIZE", "FOR" },
		.right = { [2] = true },
	};
	struct json j = { 0 };
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
		json_begin_object(&j, NULL);
		json_begin_array(&j, "spares");
		for (i = 0; i < req.nr_spares; i++) {
			const struct vraid_spare_info *s = &req.spares[i];
			char vd[32] = "", u[40] = "";

			if (s->vd_index >= 0)
				snprintf(vd, sizeof(vd), "%s%d", VRAID_DISK_PREFIX,
					 s->vd_index);
			if (s->info_flags & VRAID_SPARE_INFO_DEDICATED)
				uuid_str(u, s->vd_uuid);
			json_begin_object(&j, NULL);
			json_dev(&j, "device", s->dev_name, sizeof(s->dev_name));
			json_u64(&j, "major", s->major);
			json_u64(&j, "minor", s->minor);
			json_u64(&j, "size_bytes", s->dev_sectors * SECTOR_BYTES);
			json_string(&j, "vd", vd, sizeof(vd));
			json_string(&j, "vd_uuid", u, sizeof(u));
			json_end_object(&j);
		}
		json_end_array(&j);
		json_end_object(&j);
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
		spare_for(r[3], TCELL, s);
	}
	table_print(&t);
	free(t.row);
	return RC_OK;
}

/*
 * Give device @dev, whose hot spare record is @sp, back to the module's
 * pool (assemble --scan, --incremental), dedicated as the record says;
 * nothing if it is in the pool already.  Returns RC_OK or RC_FAIL.
 */
int spare_readd(struct ctl *c, const char *verb, const char *dev,
		const struct vraid_sprec *sp)
{
	struct vraid_member_ref ref;
	struct vraid_spare req;
	char u[40], what[160];
	uint32_t i;
	int e;

	if (member_ref(dev, &ref))
		return RC_FAIL;
	memset(&req, 0, sizeof(req));
	req.action = VRAID_SPARE_LIST;
	if (!ctl_ioctl(c, VRAID_IOC_SPARE, &req, sizeof(req)))
		for (i = 0; i < req.nr_spares && i < VRAID_MAX_SPARES; i++)
			if (req.spares[i].major == ref.major &&
			    req.spares[i].minor == ref.minor) {
				printf("%s: a hot spare already\n", dev);
				return RC_OK;
			}
	memset(&req, 0, sizeof(req));
	req.action = VRAID_SPARE_ADD;
	req.major = ref.major;
	req.minor = ref.minor;
	if (sp->flags & VRAID_SPREC_F_DEDICATED) {
		req.spare_flags = VRAID_SPARE_VD_UUID;
		memcpy(req.vd_uuid, sp->vd_uuid, sizeof(req.vd_uuid));
	}
	e = ctl_ioctl(c, VRAID_IOC_SPARE, &req, sizeof(req));
	if (e) {
		snprintf(what, sizeof(what), "%s: adding the hot spare %s back",
			 verb, dev);
		report(c, what, e, &req.hdr, CTX_SPARE);
		if (req.hdr.version_minor < ABI_MINOR_SPARE_RECORD)
			hintmsg("this module (ABI %u.%u) does not keep hot spares: load the module built with this vraidctl",
				req.hdr.version_major, req.hdr.version_minor);
		return RC_FAIL;
	}
	uuid_str(u, sp->vd_uuid);
	if (sp->flags & VRAID_SPREC_F_DEDICATED)
		printf("%s: hot spare dedicated to VD %s, back in the pool\n",
		       dev, u);
	else
		printf("%s: global hot spare, back in the pool\n", dev);
	return RC_OK;
}

int cmd_spare(int argc, char **argv)
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
	ctl_name_devices(&c, &pos[1], &dev, 1);
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

int cmd_replace(int argc, char **argv)
{
	bool force = take_flag(&argc, argv, "--force");
	bool dry = take_flag(&argc, argv, "--dry-run");
	struct vraid_member_ref old, new, refs[2];
	const struct vraid_member_info *m;
	const char *names[2];
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
	if (open_vd(&c, !dry, pos[0], &in, name, sizeof(name)))
		return RC_FAIL;
	names[0] = pos[2];
	refs[0] = new;
	names[1] = pos[1];
	refs[1] = old;
	ctl_name_devices(&c, names, refs, by_role ? 1 : 2);
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
