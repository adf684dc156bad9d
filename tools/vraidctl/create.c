// SPDX-License-Identifier: GPL-2.0
/*
 * vraidctl: create, delete and stop.
 */
#include "vraidctl.h"

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

int cmd_create(int argc, char **argv)
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
		if (!vraid_parse_u32(vals[2], &spans) || spans < 1 || spans > VRAID_MAX_MEMBERS)
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
	ctl_name_devices(&c, devs, req.members, ndev);
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
	for (i = 0; i < ndev; i++)
		udev_change(req.members[i].major, req.members[i].minor);
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
/*
 * stop --all: every VD, one after another, as a system's shutdown wants
 * them (clean metadata: no resync, no refused Degraded parity VD at the
 * next boot).  A VD that cannot stop (open, its cache cannot be written
 * out) is reported and the others still stop; never discards.
 */
static int stop_all(void)
{
	struct vraid_delete req;
	struct vraid_info *v;
	char what[48];
	size_t n, i;
	struct ctl c;
	int rc, e;

	if (!ctl_open(&c, true))
		return RC_FAIL;
	rc = get_all(&c, &v, &n);
	if (rc) {
		close(c.fd);
		return rc;
	}
	for (i = 0; i < n; i++) {
		snprintf(what, sizeof(what), "stop %s%u", VRAID_DISK_PREFIX,
			 v[i].index);
		memset(&req, 0, sizeof(req));
		req.index = v[i].index;
		req.del_flags = VRAID_DELETE_STOP;
		e = ctl_ioctl(&c, VRAID_IOC_DELETE, &req, sizeof(req));
		/* gone meanwhile (stopped by someone else): nothing to do */
		if (e == ENOENT)
			continue;
		if (e) {
			report(&c, what, e, &req.hdr, CTX_VD);
			rc = RC_FAIL;
		}
	}
	free(v);
	close(c.fd);
	return rc;
}

static int delete_or_stop(int argc, char **argv, bool stop)
{
	const char *cmd = stop ? "stop" : "delete";
	const char *pos[1];
	struct vraid_delete req;
	struct vraid_info in;
	char what[48], sz[32];
	bool force, dry = false, discard, all;
	size_t npos;
	uint32_t idx, i;
	struct ctl c;
	int rc, e;

	force = take_flag(&argc, argv, "--force");
	if (!stop)
		dry = take_flag(&argc, argv, "--dry-run");
	all = stop && take_flag(&argc, argv, "--all");
	rc = parse_args(cmd, argc, argv, NULL, NULL, NULL, pos, 1, &npos);
	if (rc >= 0)
		return rc;
	if (all) {
		if (npos)
			return usage_error(cmd, "--all stops every virtual drive: name none");
		if (force)
			return usage_error(cmd, "--all never discards: stop the VD that keeps dirty data with --force by name");
		return stop_all();
	}
	if (npos != 1)
		return usage_error(cmd, npos ? "name one virtual drive only" :
				   "name the virtual drive to %s (e.g. vraid0)", cmd);
	if (!ctl_open(&c, !dry))
		return RC_FAIL;
	if (vraid_vd_number(pos[0], &idx)) {
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
	if (!e)		/* (metadata erased, or marked clean) */
		for (i = 0; i < in.nr_members; i++)
			if (in.members[i].major || in.members[i].minor)
				udev_change(in.members[i].major,
					    in.members[i].minor);
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

int cmd_delete(int argc, char **argv)
{
	return delete_or_stop(argc, argv, false);
}

int cmd_stop(int argc, char **argv)
{
	return delete_or_stop(argc, argv, true);
}
