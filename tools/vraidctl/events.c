// SPDX-License-Identifier: GPL-2.0
/*
 * vraidctl events: the controller's event log (VRAID_IOC_EVENTS), once or
 * followed, and a program run for each event.  vraidctl monitor: the same
 * log followed as a service does (mdadm --monitor): each event to standard
 * output, and as asked to syslog, to a program and, when it calls for the
 * administrator, by mail.
 */
#include <sys/wait.h>
#include <poll.h>
#include <signal.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>
#include "vraidctl.h"
#include "validate.h"

/* The first module ABI with VRAID_IOC_EVENTS. */
#define ABI_MINOR_EVENTS	12

/*
 * The first module ABI whose control device is pollable: poll(2) says it
 * is readable once the log holds an event newer than the last reply
 * through that file said.
 */
#define ABI_MINOR_EVENTS_POLL	13

/*
 * How often --follow asks a module before ABI 1.13 for new events,
 * seconds; with a later one it waits in poll(2), and asks at least every
 * FOLLOW_POLL_MS all the same (a safety net: no wake-up is relied on).
 */
#define FOLLOW_EVERY	0.5
#define FOLLOW_POLL_MS	30000

/*
 * Wait for the next event on the control device @fd.  A module of ABI
 * 1.13 or later (@pollable) wakes poll(2) when an event comes; an older
 * one has no poll and is always "readable", so vraidctl sleeps
 * FOLLOW_EVERY instead.  @idle: the last read brought nothing although
 * poll said there was something: the device does not keep poll's promise
 * (a stand-in for the module), so sleep this once rather than spin.
 * True if poll said the device is readable.
 */
static bool follow_wait(int fd, bool pollable, bool idle)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	if (!pollable || idle) {
		sleep_sec(FOLLOW_EVERY);
		return false;
	}
	/* a timeout or EINTR: ask the module all the same, then wait again */
	return poll(&p, 1, FOLLOW_POLL_MS) > 0;
}

/* "2026-12-07 15:10:02" in local time, or "2026-12-07T15:10:02Z" */
static char *event_time(char *buf, size_t bufsz, uint64_t ns, bool utc)
{
	time_t t = (time_t)(ns / 1000000000ULL);
	struct tm tm;

	if (utc) {
		gmtime_r(&t, &tm);
		strftime(buf, bufsz, "%Y-%m-%dT%H:%M:%SZ", &tm);
	} else {
		localtime_r(&t, &tm);
		strftime(buf, bufsz, "%Y-%m-%d %H:%M:%S", &tm);
	}
	return buf;
}

/* "vraid0 (db)", "vraid0", or "-" for an event of the controller */
static char *event_vd(char *buf, size_t bufsz, const struct vraid_event *ev)
{
	char name[VRAID_NAME_LEN];

	if (ev->vd_index == VRAID_EV_NONE) {
		snprintf(buf, bufsz, "-");
		return buf;
	}
	tty_str(name, sizeof(name), ev->vd_name, sizeof(ev->vd_name));
	snprintf(buf, bufsz, "%s%u%s%s%s", VRAID_DISK_PREFIX, ev->vd_index,
		 name[0] ? " (" : "", name, name[0] ? ")" : "");
	return buf;
}

/* "#2  vraid0 (db)  member-failed: TEXT", the line without its time */
static char *event_line(char *buf, size_t bufsz, const struct vraid_event *ev)
{
	char vd[32 + VRAID_NAME_LEN + 4], text[VRAID_MSG_LEN];

	snprintf(buf, bufsz, "#%llu  %s  %s: %s", (unsigned long long)ev->seq,
		 event_vd(vd, sizeof(vd), ev), vraid_event_name(ev->type),
		 tty_str(text, sizeof(text), ev->text, sizeof(ev->text)));
	return buf;
}

static void event_human(const struct vraid_event *ev)
{
	char when[32], line[VRAID_MSG_LEN + 128];

	printf("%s  %s\n", event_time(when, sizeof(when), ev->time_ns, false),
	       event_line(line, sizeof(line), ev));
}

/*
 * How much an event matters, as syslog ranks it: a member failed, a job
 * failed, a VD Degraded need the administrator (LOG_ERR, LOG_WARNING); a
 * VD Offline has lost data access (LOG_CRIT); the rest is news (LOG_INFO,
 * LOG_NOTICE for a VD back to Optimal).
 */
static int event_priority(const struct vraid_event *ev)
{
	switch (ev->type) {
	case VRAID_EV_MEMBER_FAILED:
	case VRAID_EV_JOB_FAILED:
		return LOG_ERR;
	case VRAID_EV_STATE:
		switch (ev->state) {
		case VRAID_VD_OFFLINE:
			return LOG_CRIT;
		case VRAID_VD_OPTIMAL:
			return LOG_NOTICE;
		default:
			return LOG_WARNING;
		}
	default:
		return LOG_INFO;
	}
}

static void event_json(const struct vraid_event *ev)
{
	struct json j = { 0 };
	char when[32], vd[32];

	json_begin_object(&j, NULL);
	json_u64(&j, "seq", ev->seq);
	json_string(&j, "time", event_time(when, sizeof(when), ev->time_ns, true),
		    sizeof(when));
	json_u64(&j, "time_ns", ev->time_ns);
	json_string(&j, "type", vraid_event_name(ev->type), SIZE_MAX);
	if (ev->vd_index != VRAID_EV_NONE) {
		snprintf(vd, sizeof(vd), "%s%u", VRAID_DISK_PREFIX, ev->vd_index);
		json_string(&j, "vd", vd, sizeof(vd));
		json_string(&j, "name", ev->vd_name, sizeof(ev->vd_name));
		json_string(&j, "state", VNAME(vd_states, ev->state, true),
			    SIZE_MAX);
	}
	if (ev->member != VRAID_EV_NONE) {
		json_u64(&j, "member", ev->member);
		json_dev(&j, "device", ev->device, sizeof(ev->device));
	}
	json_string(&j, "text", ev->text, sizeof(ev->text));
	json_end_object(&j);
}

/*
 * --exec PROG: PROG runs once per event, with the event in its
 * environment (the names of the uevent's keys) and its text as the one
 * argument; vraidctl waits for it, so events reach it in order.  Its
 * failure is reported, not fatal: a monitor goes on.
 */
static void event_exec(const char *prog, const struct vraid_event *ev)
{
	char v[VRAID_MSG_LEN + 32], text[VRAID_MSG_LEN];
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		errmsg("cannot run %s: %s", prog, strerror(errno));
		return;
	}
	if (!pid) {
		snprintf(v, sizeof(v), "%llu", (unsigned long long)ev->seq);
		setenv("VRAID_SEQ", v, 1);
		setenv("VRAID_EVENT", vraid_event_name(ev->type), 1);
		if (ev->vd_index != VRAID_EV_NONE) {
			snprintf(v, sizeof(v), "%s%u", VRAID_DISK_PREFIX,
				 ev->vd_index);
			setenv("VRAID_VD", v, 1);
			tty_str(v, sizeof(v), ev->vd_name, sizeof(ev->vd_name));
			setenv("VRAID_NAME", v, 1);
			setenv("VRAID_STATE", VNAME(vd_states, ev->state, true), 1);
		}
		if (ev->member != VRAID_EV_NONE) {
			snprintf(v, sizeof(v), "%u", ev->member);
			setenv("VRAID_MEMBER", v, 1);
			tty_str(v, sizeof(v), ev->device, sizeof(ev->device));
			setenv("VRAID_DEVICE", v, 1);
		}
		tty_str(text, sizeof(text), ev->text, sizeof(ev->text));
		execlp(prog, prog, text, (char *)NULL);
		fprintf(stderr, "vraidctl: cannot run %s: %s\n", prog,
			strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		errmsg("%s failed for event #%llu (%s)", prog,
		       (unsigned long long)ev->seq,
		       WIFEXITED(status) ? "exit status not 0" : "killed");
}

/*
 * --mail ADDR: a message for each event that needs the administrator
 * (LOG_WARNING or worse), through the system's mail transfer agent
 * (sendmail -t, as mdadm --monitor does; VRAIDCTL_SENDMAIL names another
 * program).  Its failure is reported, not fatal.
 */
static const char *sendmail_path(void)
{
	const char *p = getenv("VRAIDCTL_SENDMAIL");

	return p && *p ? p : "/usr/sbin/sendmail";
}

static void event_mail(const char *to, const struct vraid_event *ev)
{
	char host[256] = "localhost", vd[32 + VRAID_NAME_LEN + 4];
	char line[VRAID_MSG_LEN + 128], when[32];
	const char *prog = sendmail_path();
	int fds[2], status;
	pid_t pid;
	FILE *f;

	gethostname(host, sizeof(host) - 1);
	fflush(stdout);
	if (pipe(fds)) {
		errmsg("cannot run %s: %s", prog, strerror(errno));
		return;
	}
	pid = fork();
	if (pid < 0) {
		errmsg("cannot run %s: %s", prog, strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return;
	}
	if (!pid) {
		dup2(fds[0], STDIN_FILENO);
		close(fds[0]);
		close(fds[1]);
		/* -t: the recipients from the header; -i: a lone '.' is text */
		execl(prog, prog, "-t", "-i", (char *)NULL);
		fprintf(stderr, "vraidctl: cannot run %s: %s\n", prog,
			strerror(errno));
		_exit(127);
	}
	close(fds[0]);
	f = fdopen(fds[1], "w");
	if (f) {
		fprintf(f, "To: %s\nSubject: vraid on %s: %s %s\n\n", to, host,
			vraid_event_name(ev->type),
			event_vd(vd, sizeof(vd), ev));
		fprintf(f, "%s  %s\n\n",
			event_time(when, sizeof(when), ev->time_ns, false),
			event_line(line, sizeof(line), ev));
		fprintf(f, "This message was sent by vraidctl monitor on %s.\n"
			"vraidctl show and vraidctl events --since %llu say more.\n",
			host, (unsigned long long)ev->seq);
		fclose(f);
	} else {
		close(fds[1]);
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		errmsg("%s failed to send the mail for event #%llu",
		       prog, (unsigned long long)ev->seq);
}

/* One address: no spaces or control characters (a header), no option. */
bool mail_address_ok(const char *a)
{
	const unsigned char *p;

	if (!*a || *a == '-')
		return false;
	for (p = (const unsigned char *)a; *p; p++)
		if (*p <= ' ' || *p == 0x7f || *p == ',')
			return false;
	return true;
}

struct follow {
	const char *cmd;	/* "events" or "monitor" */
	bool follow, json, syslog;
	unsigned long long since;	/* 0: every event kept / from now */
	const char *exec, *mail;
};

/* Print (and hand on) the events from o->since, once or followed. */
static int follow_log(const struct follow *o)
{
	unsigned long long since = o->since;
	bool pollable = false, woke = false;
	struct vraid_events *r;
	struct ctl c;
	uint32_t i;
	int rc = RC_FAIL, e;

	if (!ctl_open(&c, false))
		return RC_FAIL;
	r = calloc(1, sizeof(*r));
	if (!r) {
		errmsg("out of memory");
		close(c.fd);
		return RC_FAIL;
	}
	/* following with no --since: the events from now on */
	if (o->follow && !since) {
		e = ctl_ioctl(&c, VRAID_IOC_EVENTS, r, sizeof(*r));
		if (e)
			goto failed;
		since = r->next;
	}
	if (o->syslog)
		openlog("vraid", LOG_PID, LOG_DAEMON);
	for (;;) {
		memset(r, 0, sizeof(*r));
		r->since = since;
		e = ctl_ioctl(&c, VRAID_IOC_EVENTS, r, sizeof(*r));
		if (e)
			goto failed;
		if (!reply_sane(r->count, VRAID_EVENTS_MAX, "count"))
			break;
		pollable = r->hdr.version_major == VRAID_ABI_MAJOR &&
			   r->hdr.version_minor >= ABI_MINOR_EVENTS_POLL;
		if (since && r->first > since)
			fprintf(stderr,
				"vraidctl: events #%llu to #%llu were dropped (the log keeps the last %u)\n",
				since, (unsigned long long)r->first - 1,
				VRAID_EVENTS_KEPT);
		for (i = 0; i < r->count; i++) {
			const struct vraid_event *ev = &r->events[i];

			if (o->json)
				event_json(ev);
			else
				event_human(ev);
			if (o->syslog) {
				char line[VRAID_MSG_LEN + 128];

				syslog(event_priority(ev), "%s",
				       event_line(line, sizeof(line), ev));
			}
			if (o->mail && event_priority(ev) <= LOG_WARNING)
				event_mail(o->mail, ev);
			if (o->exec)
				event_exec(o->exec, ev);
		}
		fflush(stdout);
		since = r->count ? r->events[r->count - 1].seq + 1 : r->next;
		if (since < r->next)
			continue;	/* more than one reply holds */
		if (!o->follow) {
			rc = RC_OK;
			break;
		}
		woke = follow_wait(c.fd, pollable, woke && !r->count);
	}
	free(r);
	close(c.fd);
	return rc;
failed:
	if (e == ENOTTY && !(c.replied && r->hdr.version_minor >= ABI_MINOR_EVENTS))
		errmsg("the vraid module has no event log (it needs ABI 1.%d or later): load a newer vraid.ko",
		       ABI_MINOR_EVENTS);
	else
		report(&c, o->cmd, e, &r->hdr, CTX_OTHER);
	free(r);
	close(c.fd);
	return RC_FAIL;
}

/* --since N: 0 (and a usage error) unless N is a number from 1 up */
static int parse_since(const char *cmd, const char *v,
		       unsigned long long *since)
{
	char *end;

	errno = 0;
	*since = strtoull(v, &end, 10);
	if (errno || end == v || *end || !*since || v[0] == '-')
		return usage_error(cmd,
				   "--since takes an event number from 1 up, got '%s'",
				   v);
	return -1;
}

int cmd_events(int argc, char **argv)
{
	static const char *const names[] = { "--since", "--exec", NULL };
	const char *vals[2] = { NULL, NULL }, *pos[1];
	struct follow o = { .cmd = "events" };
	size_t npos;
	int rc;

	o.follow = take_flag(&argc, argv, "--follow");
	rc = parse_args("events", argc, argv, names, vals, &o.json, pos, 1,
			&npos);
	if (rc >= 0)
		return rc;
	if (npos)
		return usage_error("events", "unexpected argument '%s'", pos[0]);
	if (vals[0] && (rc = parse_since("events", vals[0], &o.since)) >= 0)
		return rc;
	o.exec = vals[1];
	return follow_log(&o);
}

int cmd_monitor(int argc, char **argv)
{
	static const char *const names[] = { "--since", "--exec", "--mail",
					     NULL };
	const char *vals[3] = { NULL, NULL, NULL }, *pos[1];
	struct follow o = { .cmd = "monitor", .follow = true };
	static struct vraid_conf conf;
	size_t npos;
	int rc;

	o.syslog = take_flag(&argc, argv, "--syslog");
	o.follow = !take_flag(&argc, argv, "--oneshot");
	rc = parse_args("monitor", argc, argv, names, vals, &o.json, pos, 1,
			&npos);
	if (rc >= 0)
		return rc;
	if (npos)
		return usage_error("monitor", "unexpected argument '%s'",
				   pos[0]);
	if (vals[0] && (rc = parse_since("monitor", vals[0], &o.since)) >= 0)
		return rc;
	o.exec = vals[1];
	o.mail = vals[2];
	/* what the command line leaves out, vraid.conf may say */
	if (config_load(&conf))
		return RC_FAIL;
	if (!o.mail && conf.mailaddr[0])
		o.mail = conf.mailaddr;
	if (!o.exec && conf.program[0])
		o.exec = conf.program;
	if (o.mail && !mail_address_ok(o.mail))
		return usage_error("monitor",
				   "--mail takes one mail address (root, or user@host), got '%s'",
				   o.mail);
	if (o.mail && access(sendmail_path(), X_OK)) {
		errmsg("--mail needs a mail transfer agent: %s: %s (install one that provides it, e.g. the packages postfix, exim4 or msmtp-mta)",
		       sendmail_path(), strerror(errno));
		return RC_FAIL;
	}
	if (!o.follow && !o.since)
		return usage_error("monitor",
				   "--oneshot needs --since N: a monitor follows the events from now on");
	/* (a mail program that exits early must not end the monitor) */
	signal(SIGPIPE, SIG_IGN);
	return follow_log(&o);
}
