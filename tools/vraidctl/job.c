// SPDX-License-Identifier: GPL-2.0
/*
 * vraidctl: background jobs: init, check, job, wait.
 */
#include "vraidctl.h"

int cmd_wait(int argc, char **argv)
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
	if (open_vd(&c, true, pos[0], &in, name, sizeof(name)))
		return RC_FAIL;
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

int cmd_check(int argc, char **argv)
{
	return start_job("check", argc, argv);
}

int cmd_init(int argc, char **argv)
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
	if (size_decimal_refused(s))
		return RC_USAGE;
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

int cmd_job(int argc, char **argv)
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

	if (open_vd(&c, true, pos[0], &in, name, sizeof(name)))
		return RC_FAIL;
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
