// SPDX-License-Identifier: GPL-2.0
/*
 * vraidctl: the control device: sending a request, saying why it was refused, finding a VD, waiting for a job.
 */
#include "vraidctl.h"

#define POLL_SEC	0.5	/* INFO this often while waiting */

void ctl_path(struct ctl *c)
{
	c->path = vraid_control_path(&c->overridden);
}

/* Open the control device; on failure say why and return false. */
bool ctl_open(struct ctl *c, bool write)
{
	int e;

	ctl_path(c);
	c->deadline = 0;
	c->ndevs = 0;
	c->fd = vraid_control_open(c->path, write);
	if (c->fd >= 0)
		return true;
	e = errno;
	if (e == ENOENT && !c->overridden &&
	    access("/sys/class/misc/" VRAID_CONTROL_NAME "/dev", F_OK) == 0) {
		errmsg("%s is missing, although the vraid module is loaded",
		       c->path);
		hintmsg("create it: mknod %s c $(tr : ' ' < /sys/class/misc/%s/dev)",
			c->path, VRAID_CONTROL_NAME);
	} else if (e == ENOENT || e == ENXIO || e == ENODEV) {
		errmsg("%s: %s: vraid module not loaded (insmod vraid.ko / modprobe vraid)",
		       c->path, e == ENOENT ? "no such file" : "no driver behind it");
		if (c->overridden)
			hintmsg("VRAIDCTL_CONTROL is set; unset it to use %s",
				CONTROL_DEFAULT);
	} else if (e == EACCES || e == EPERM) {
		errmsg("%s: permission denied", c->path);
		hintmsg("run as root (vraid control requests need CAP_SYS_ADMIN)");
	} else {
		errmsg("cannot open %s: %s", c->path, strerror(e));
	}
	return false;
}

#define PROGRESS_EVERY	10.0	/* seconds between progress lines, no tty */

/*
 * The module's message to a request that waits for the controller ends
 * in ": vraid0 cache write-out: 35.7 of 48.0 MiB left" while a request
 * writes a VD's cache out (ABI 1.10 modules from the twenty-fifth
 * session on), or in ": journal checkpoint for 12 s: vraid0 cache 1.0
 * MiB dirty" while a request waits for a journal checkpoint (from the
 * twenty-eighth session on): that part, or NULL.
 */
static const char *busy_note(const char *msg)
{
	const char *n = strstr(msg, " now: ");

	return n && (strstr(n, " cache write-out: ") ||
		     !strncmp(n + 6, "journal checkpoint for ", 23)) ?
	       n + 6 : NULL;
}

static volatile sig_atomic_t watch_drawn;

static void watch_term(int sig)
{
	(void)sig;
	if (watch_drawn)
		(void)!write(STDERR_FILENO, "\n", 1);
	_exit(0);
}

/*
 * The child of watch_start(): while the parent's request holds the
 * controller, ask for it (LIST), and show what the busy reply says of a
 * cache write-out on standard error: redrawn in place on a terminal, else
 * a line at most every PROGRESS_EVERY seconds.  The module waits a second
 * before it answers busy, so this asks about once a second.
 */
static void watch_run(int fd, pid_t parent)
{
	bool tty = isatty(STDERR_FILENO);
	double last = -PROGRESS_EVERY;
	struct vraid_list l;
	const char *n;

	signal(SIGTERM, watch_term);
	sleep_sec(1);
	/* ends with its parent, also one killed alone (kill -9 PID) */
	while (getppid() == parent) {
		memset(&l, 0, sizeof(l));
		vraid_ioc_hdr_init(&l.hdr, sizeof(l));
		if (!ioctl(fd, VRAID_IOC_LIST, &l) ||
		    !(n = busy_note(l.hdr.message))) {
			sleep_sec(POLL_SEC);
			continue;
		}
		sleep_sec(POLL_SEC);
		if (tty) {
			fprintf(stderr, "\rvraidctl: %s\033[K", n);
			watch_drawn = 1;
		} else if (now_sec() - last >= PROGRESS_EVERY) {
			fprintf(stderr, "vraidctl: %s\n", n);
			last = now_sec();
		}
		fflush(stderr);
	}
}

/*
 * Before a request that may write a cache out (a policy change, a stop or
 * delete, a controller change), which on slow disks takes minutes: a
 * child that shows its progress meanwhile (watch_run(), from 2 s on).
 * Returns its pid, or 0 (none: the request goes on without).
 */
static pid_t watch_start(struct ctl *c, unsigned long req, const void *buf)
{
	const struct vraid_controller *r = buf;
	pid_t pid, parent = getpid();

	if (req != VRAID_IOC_SET_POLICY && req != VRAID_IOC_DELETE &&
	    (req != VRAID_IOC_CONTROLLER || r->action == VRAID_CTRL_SHOW))
		return 0;
	fflush(stderr);
	pid = fork();
	if (pid == 0) {
		watch_run(c->fd, parent);
		watch_term(0);
	}
	return pid > 0 ? pid : 0;
}

static void watch_stop(pid_t pid)
{
	if (!pid)
		return;
	kill(pid, SIGTERM);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}

/*
 * Send one request: fill the header, issue the ioctl.  Returns 0 or a
 * positive errno; c->replied tells whether the kernel wrote the header
 * (status and message) back.
 */
int ctl_ioctl(struct ctl *c, unsigned long req, void *buf, size_t size)
{
	struct vraid_ioc_hdr *h = buf;
	bool said = false;
	double last = 0;
	const char *n;
	pid_t watch;
	int rc, e;

	for (;;) {
		vraid_ioc_hdr_init(h, size);
		/*
		 * A watcher per attempt: one that waits for another request
		 * ends within a second or so, before its watcher says
		 * anything (the waiting lines below say it instead).
		 */
		watch = watch_start(c, req, buf);
		rc = ioctl(c->fd, req, buf);
		e = errno;
		watch_stop(watch);
		h->message[sizeof(h->message) - 1] = '\0';
		/*
		 * Another request holds the controller (a policy change or a
		 * stop writing a cache out can take minutes): say so once and
		 * ask again; the module waited a second each time.  Nothing
		 * was done, so an interrupt loses nothing.
		 */
		if (rc && e == EBUSY && h->status == -EBUSY &&
		    (h->flags & VRAID_IOC_REPLY_BUSY) &&
		    (!c->deadline || now_sec() < c->deadline)) {
			/* then how a cache write-out it waits for goes on */
			n = busy_note(h->message);
			if (!said || (n && now_sec() - last >= PROGRESS_EVERY)) {
				fprintf(stderr, "vraidctl: waiting: %s\n",
					said ? n : h->message);
				last = now_sec();
			}
			said = true;
			continue;
		}
		break;
	}
	if (rc == 0 && h->status >= 0)
		return 0;
	if (rc == 0)
		e = -h->status;
	c->replied = h->status == -e;
	return e ? e : EIO;
}

/* The first module ABI with VRAID_IOC_CONTROLLER. */
#define ABI_MINOR_CONTROLLER	7

/*
 * Name the devices the user gave (@names[i] is the spelling of @refs[i]),
 * for report() to use in the module's messages, which name devices by
 * MAJ:MIN ("member 8:49 is in use") — a number the user did not type.
 * The arrays must outlive the requests.
 */
void ctl_name_devices(struct ctl *c, const char *const *names,
		      const struct vraid_member_ref *refs, size_t n)
{
	c->dev_names = names;
	c->dev_refs = refs;
	c->ndevs = n;
}

/* Read a decimal number at @p ("8" of "8:49"); the end in *end. */
static bool read_num(const char *p, unsigned long *v, const char **end)
{
	char *e;

	if (*p < '0' || *p > '9')
		return false;
	errno = 0;
	*v = strtoul(p, &e, 10);
	*end = e;
	return !errno && *v <= UINT32_MAX;
}

/*
 * Copy the module's message @msg to @out, with each MAJ:MIN that is a
 * device the user named (ctl_name_devices()) written as the user wrote
 * it.  A number inside a longer one ("1:2:3", "10.8:49") is left alone.
 */
static void spell_devices(const struct ctl *c, char *out, size_t outsz,
			  const char *msg)
{
	size_t o = 0, i, l;
	const char *p = msg, *q, *r, *name;
	unsigned long maj, min;

	while (*p && o + 1 < outsz) {
		name = NULL;
		if ((p == msg || !strchr("0123456789:.", p[-1])) &&
		    read_num(p, &maj, &q) && *q == ':' &&
		    read_num(q + 1, &min, &r) && !strchr("0123456789:", *r)) {
			for (i = 0; i < c->ndevs && !name; i++)
				if (c->dev_refs[i].major == maj &&
				    c->dev_refs[i].minor == min)
					name = c->dev_names[i];
		}
		if (!name) {
			out[o++] = *p++;
			continue;
		}
		l = strlen(name);
		if (l > outsz - 1 - o)
			l = outsz - 1 - o;
		memcpy(out + o, name, l);
		o += l;
		p = r;
	}
	out[o] = 0;
}

/*
 * Report a failed request: "vraidctl: WHAT: <kernel message> (ENAME: text)"
 * and a hint for well-known errnos.
 */
void report(struct ctl *c, const char *what, int e,
		   const struct vraid_ioc_hdr *h, enum ctx ctx)
{
	char msg[VRAID_MSG_LEN * 4], spelt[VRAID_MSG_LEN * 8];

	if (e == ENOTTY && !(c->replied && h->message[0])) {
		errmsg("%s: %s does not answer vraid requests (ENOTTY: %s)",
		       what, c->path, strerror(e));
		if (c->overridden)
			hintmsg("it is not the vraid control device: unset VRAIDCTL_CONTROL or point it at %s",
				CONTROL_DEFAULT);
		else
			hintmsg("it is not the vraid control device: check `ls -l %s` and /sys/class/misc/%s/dev",
				c->path, VRAID_CONTROL_NAME);
		return;
	}
	if (c->replied && h->message[0])
	{
		tty_str(msg, sizeof(msg), h->message, sizeof(h->message));
		spell_devices(c, spelt, sizeof(spelt), msg);
		errmsg("%s: %s (%s: %s)", what, spelt, errname(e), strerror(e));
	}
	else
		errmsg("%s: %s (%s)", what, strerror(e), errname(e));

	switch (e) {
	case EPERM:
	case EACCES:
		hintmsg("run as root (vraid control requests need CAP_SYS_ADMIN)");
		break;
	case EBUSY:
		if (ctx == CTX_CREATE)
			hintmsg("a member is in use: mounted, in an md array, or in another virtual drive (check lsblk, /proc/mdstat, `vraidctl list`)");
		else if (ctx == CTX_VD)
			hintmsg("the virtual drive is in use: unmount it and stop what holds it open (see the open count in `vraidctl show`)");
		else if (ctx == CTX_JOB)
			hintmsg("another job runs on the virtual drive: see `vraidctl show`; wait for it (`vraidctl wait`) or stop it (`vraidctl job VD stop`)");
		else if (ctx == CTX_SPARE)
			hintmsg("the device is in use: a member of a virtual drive, mounted, or in an md array (check lsblk, /proc/mdstat, `vraidctl list`)");
		else if (ctx == CTX_REPLACE && c->replied &&
			 strstr(h->message, "in flight"))
			hintmsg("the old member's disk has not answered I/O sent to it before it failed: try again once it does, or once it is gone (pulled, or its driver gave up)");
		else if (ctx == CTX_REPLACE && c->replied &&
			 strstr(h->message, "would take"))
			/*
			 * The module's message is the fail command's ("add
			 * --force to do it anyway"): say what --force does here
			 */
			hintmsg("replace fails an online member before rebuilding onto the new device, and the members left could not serve every block: replace the failed members first (`vraidctl show` names them).  --force fails it all the same; only on a RAID10/50/60 whose failed members are in other mirror pairs or spans does the VD then stay up, otherwise it goes Offline and nothing is rebuilt");
		else if (ctx == CTX_REPLACE && c->replied &&
			 strstr(h->message, "rebuild must end first"))
			hintmsg("wait for that rebuild to end (`vraidctl wait`), then replace");
		else if (ctx == CTX_REPLACE)
			hintmsg("the new device is in use: mounted, in an md array, or a member or spare of a virtual drive (check lsblk, /proc/mdstat, `vraidctl list`)");
		break;
	case ENOENT:
	case ENXIO:
		if (ctx == CTX_VD || ctx == CTX_FAIL || ctx == CTX_POLICY)
			hintmsg("no such virtual drive (see `vraidctl list`)");
		else if (ctx == CTX_CREATE)
			hintmsg("a member device is gone: check the device names (lsblk)");
		else if (ctx == CTX_SPARE)
			hintmsg("see the hot spares with `vraidctl spare list` and the virtual drives with `vraidctl list`");
		else if (ctx == CTX_REPLACE)
			hintmsg("see the virtual drive and its members with `vraidctl show`");
		break;
	case ENOTTY:
		/* a reply with a message: the module does not know the command */
		if (ctx == CTX_CONTROLLER && h->version_major == VRAID_ABI_MAJOR &&
		    h->version_minor < ABI_MINOR_CONTROLLER)
			hintmsg("the vraid module speaks ABI %d.%d, which has no controller command: load the module built with this vraidctl",
				h->version_major, h->version_minor);
		else if (ctx == CTX_CONTROLLER &&
			 h->version_major == VRAID_ABI_MAJOR)
			/* a 1.7 module built before the command came */
			hintmsg("the vraid module (ABI %d.%d) predates the controller command: load the module built with this vraidctl",
				h->version_major, h->version_minor);
		else if (h->version_major == VRAID_ABI_MAJOR &&
			 h->version_minor < VRAID_ABI_MINOR)
			hintmsg("the vraid module speaks ABI %d.%d, older than vraidctl's %d.%d, and lacks this request: load the module built with this vraidctl",
				h->version_major, h->version_minor,
				VRAID_ABI_MAJOR, VRAID_ABI_MINOR);
		break;
	case EPROTO:
		if (c->replied)
			hintmsg("module and tool versions differ (module ABI %d.%d, vraidctl ABI %d.%d): use the vraidctl built with the module",
				h->version_major, h->version_minor,
				VRAID_ABI_MAJOR, VRAID_ABI_MINOR);
		else
			hintmsg("module and tool versions differ: use the vraidctl built with the module");
		break;
	case EEXIST:
		if (ctx == CTX_CREATE)
			hintmsg("choose another --name (see `vraidctl list`)");
		else if (ctx == CTX_SPARE)
			hintmsg("it is a hot spare already (see `vraidctl spare list`)");
		break;
	case ENOTBLK:
	case ENODEV:
		if (ctx == CTX_CREATE)
			hintmsg("members must be block devices (see lsblk)");
		else if (ctx == CTX_SPARE && e == ENODEV)
			hintmsg("see the hot spares with `vraidctl spare list`");
		else if (ctx == CTX_REPLACE && e == ENODEV)
			hintmsg("see the virtual drive and its members with `vraidctl show`");
		break;
	default:
		break;
	}
}

bool reply_sane(uint32_t n, uint32_t max, const char *field)
{
	if (n <= max)
		return true;
	errmsg("malformed reply from the vraid module: %s %u > %u", field, n, max);
	hintmsg("module and tool versions differ? see `vraidctl version`");
	return false;
}

/*
 * INFO for @index.  Returns 0 or a positive errno, reported unless it is
 * ENOENT/ENXIO and @quiet_gone (the VD was deleted since a LIST).
 */
int get_info(struct ctl *c, uint32_t index, struct vraid_info *in,
		    bool quiet_gone)
{
	char what[40];
	int e;

	memset(in, 0, sizeof(*in));
	in->index = index;
	e = ctl_ioctl(c, VRAID_IOC_INFO, in, sizeof(*in));
	if (e) {
		if (!(quiet_gone && (e == ENOENT || e == ENXIO))) {
			snprintf(what, sizeof(what), "%s%u", VRAID_DISK_PREFIX, index);
			report(c, what, e, &in->hdr, CTX_VD);
		}
		return e;
	}
	if (!reply_sane(in->nr_members, VRAID_MAX_MEMBERS, "nr_members"))
		return EPROTO;
	return 0;
}

static int get_list(struct ctl *c, struct vraid_list *l)
{
	int e;

	memset(l, 0, sizeof(*l));
	e = ctl_ioctl(c, VRAID_IOC_LIST, l, sizeof(*l));
	if (e) {
		report(c, "list", e, &l->hdr, CTX_OTHER);
		return e;
	}
	if (!reply_sane(l->nr_vds, VRAID_MAX_VDS, "nr_vds"))
		return EPROTO;
	return 0;
}

static int cmp_info(const void *a, const void *b)
{
	const struct vraid_info *x = a, *y = b;

	return x->index < y->index ? -1 : x->index > y->index;
}

/* LIST, then INFO for each VD (skipping those gone meanwhile), by index. */
int get_all(struct ctl *c, struct vraid_info **out, size_t *nout)
{
	struct vraid_list l;
	struct vraid_info *v;
	size_t n = 0;
	uint32_t i;
	int e;

	*out = NULL;
	*nout = 0;
	if (get_list(c, &l))
		return RC_FAIL;
	v = calloc(l.nr_vds ? l.nr_vds : 1, sizeof(*v));
	if (!v) {
		errmsg("out of memory");
		return RC_FAIL;
	}
	for (i = 0; i < l.nr_vds; i++) {
		e = get_info(c, l.index[i], &v[n], true);
		if (e == ENOENT || e == ENXIO)
			continue;	/* deleted since LIST */
		if (e) {
			free(v);
			return RC_FAIL;
		}
		n++;
	}
	qsort(v, n, sizeof(*v), cmp_info);
	*out = v;
	*nout = n;
	return RC_OK;
}

/* Find the VD named by @arg (vraid0, /dev/vraid0, 0 or its label); INFO it. */
int resolve_vd(struct ctl *c, const char *arg, struct vraid_info *in)
{
	struct vraid_info *all;
	size_t n, i, found = 0;
	uint32_t idx;

	if (vraid_vd_number(arg, &idx))
		return get_info(c, idx, in, false) ? RC_FAIL : RC_OK;
	if (strchr(arg, '/')) {
		errmsg("%s is not a vraid virtual drive (expected /dev/vraidN)", arg);
		hintmsg("name a virtual drive as vraid0, /dev/vraid0, 0 or by its name (see `vraidctl list`)");
		return RC_FAIL;
	}
	if (get_all(c, &all, &n))
		return RC_FAIL;
	for (i = 0; i < n; i++) {
		if (strnlen(all[i].name, sizeof(all[i].name)) == strlen(arg) &&
		    !strncmp(all[i].name, arg, sizeof(all[i].name))) {
			if (!found++)
				*in = all[i];
		}
	}
	free(all);
	if (found == 1)
		return RC_OK;
	if (found == 0)
		errmsg("%s: no such virtual drive (see `vraidctl list`)", arg);
	else
		errmsg("%s: %zu virtual drives carry this name; name one as vraidN (see `vraidctl list`)",
		       arg, found);
	return RC_FAIL;
}

/*
 * What most verbs on one VD do first: open the control device (read-write
 * if @write), resolve the VD the user named as @arg into @in, and, if
 * @name is not NULL, name it as messages do ("vraidN").  RC_OK with c->fd
 * open, else RC_FAIL with the error said and c->fd closed.
 */
int open_vd(struct ctl *c, bool write, const char *arg, struct vraid_info *in,
	    char *name, size_t namesz)
{
	if (!ctl_open(c, write))
		return RC_FAIL;
	if (resolve_vd(c, arg, in)) {
		close(c->fd);
		c->fd = -1;
		return RC_FAIL;
	}
	if (name)
		snprintf(name, namesz, "%s%u", VRAID_DISK_PREFIX, in->index);
	return RC_OK;
}

/* ---- waiting for a job ---------------------------------------------------- */

/* Columns of the terminal @f, 80 if it does not say. */
static size_t tty_cols(FILE *f)
{
	struct winsize ws;

	if (ioctl(fileno(f), TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20)
		return ws.ws_col;
	return 80;
}

double now_sec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void sleep_sec(double s)
{
	struct timespec ts;

	if (s <= 0)
		return;
	ts.tv_sec = (time_t)s;
	ts.tv_nsec = (long)((s - (double)ts.tv_sec) * 1e9);
	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* Whether a member of @in is being rebuilt (a resume goes on with it). */
static bool has_rebuilding(const struct vraid_info *in)
{
	uint32_t i;

	for (i = 0; i < in->nr_members && i < VRAID_MAX_MEMBERS; i++)
		if (in->members[i].state == VRAID_MEMBER_REBUILDING)
			return true;
	return false;
}

/*
 * Wait until the VD of @in (as INFO just returned it) runs no job: INFO
 * every 0.5 s, the progress shown on @out (redrawn in place on a terminal,
 * else a line at most every 10 s and whenever the job or its state
 * changes), then how the job ended.  @timeout < 0 waits for ever.
 * @started: the caller has just started the job (so a VD found idle has
 * finished it already).  Returns an exit code: RC_FAIL if the (last) job
 * failed, on a timeout, or when INFO fails.
 */
int wait_job(struct ctl *c, struct vraid_info *in, double timeout,
		    FILE *out, bool started)
{
	bool tty = isatty(fileno(out)), drawn = false, waited = started;
	bool shown = false;
	uint32_t type = VRAID_JOB_NONE, state = 0;
	double start = now_sec(), last = 0, t, left;
	char name[32], line[256], o[160];
	unsigned int p;
	size_t cols;

	snprintf(name, sizeof(name), "%s%u", VRAID_DISK_PREFIX, in->index);
	while (in->job_type != VRAID_JOB_NONE) {
		t = now_sec();
		if (tty) {
			/* one line that fits, or \r cannot redraw it */
			job_progress(line, sizeof(line), in, true);
			cols = tty_cols(out) - 1 - strlen(name) - 2;
			if (strlen(line) > cols)
				line[cols] = '\0';
			fprintf(out, "\r%s: %s\033[K", name, line);
			drawn = true;
		} else if (!shown || in->job_type != type ||
			   in->job_state != state || t - last >= PROGRESS_EVERY) {
			fprintf(out, "%s: %s\n", name,
				job_progress(line, sizeof(line), in, false));
			last = t;
		}
		fflush(out);
		waited = shown = true;
		type = in->job_type;
		state = in->job_state;
		left = timeout - (t - start);
		if (timeout >= 0 && left <= 0) {
			if (drawn)
				fputc('\n', out);
			fflush(out);
			p = job_permille(in);
			errmsg("%s: timed out after %g s: the %s is still %s (%u.%u%%)",
			       name, timeout, VNAME(job_types, in->job_type, false),
			       in->job_state == VRAID_JOB_PAUSED ? "paused" : "running",
			       p / 10, p % 10);
			hintmsg("wait longer (--timeout SECONDS), or follow it with `vraidctl show %s`",
				name);
			return RC_FAIL;
		}
		sleep_sec(timeout >= 0 && left < POLL_SEC ? left : POLL_SEC);
		if (get_info(c, in->index, in, false)) {
			if (drawn)
				fputc('\n', out);
			return RC_FAIL;
		}
	}
	if (drawn)
		fputs("\r\033[K", out);
	job_outcome(o, sizeof(o), in, false);
	if (in->last_job != VRAID_JOB_NONE && in->last_result) {
		fflush(out);
		if (waited)
			errmsg("%s: %s", name, o);
		else
			errmsg("%s: no job is running; the last one: %s", name, o);
		if (in->last_result != ECANCELED)
			hintmsg("see `vraidctl show %s` and the kernel log (dmesg)",
				name);
		else if (job_counts_mismatches(in->last_job))
			hintmsg("start it again with: vraidctl check %s%s", name,
				in->last_job == VRAID_JOB_REPAIR ? " --repair" : "");
		else if (in->state == VRAID_VD_OFFLINE)
			hintmsg("%s is offline: too few members are left for the %s to go on (see `vraidctl show %s`)",
				name, VNAME(job_types, in->last_job, false), name);
		else if (in->last_job != VRAID_JOB_REBUILD &&
			 in->state != VRAID_VD_OPTIMAL && !has_rebuilding(in))
			/* stopped by a member failure: resume needs every member */
			hintmsg("%s is %s: the %s goes on by itself once the failed member is replaced and rebuilt: vraidctl replace %s MEMBER NEWDEV (`vraidctl show %s` names it)",
				name, VNAME(vd_states, in->state, false),
				VNAME(job_types, in->last_job, false), name, name);
		else
			hintmsg("go on with: vraidctl job %s resume (or it goes on when the VD is next assembled)",
				name);
		return RC_FAIL;
	}
	if (waited && in->last_job != VRAID_JOB_NONE)
		fprintf(out, "%s: %s\n", name, o);
	else if (waited)
		fprintf(out, "%s: the job has ended\n", name);
	else if (in->last_job != VRAID_JOB_NONE)
		fprintf(out, "%s: no job is running; the last one: %s\n", name, o);
	else
		fprintf(out, "%s: no job is running\n", name);
	return RC_OK;
}
