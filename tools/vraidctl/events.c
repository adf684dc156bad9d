// SPDX-License-Identifier: GPL-2.0
/*
 * vraidctl events: the controller's event log (VRAID_IOC_EVENTS), once or
 * followed, and a program run for each event (a monitor).
 */
#include <sys/wait.h>
#include <time.h>
#include "vraidctl.h"
#include "validate.h"

/* The first module ABI with VRAID_IOC_EVENTS. */
#define ABI_MINOR_EVENTS	12

/* How often --follow asks the module for new events, seconds. */
#define FOLLOW_EVERY	0.5

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

static void event_human(const struct vraid_event *ev)
{
	char when[32], vd[32 + VRAID_NAME_LEN + 4] = "-", text[VRAID_MSG_LEN];
	char name[VRAID_NAME_LEN];

	if (ev->vd_index != VRAID_EV_NONE) {
		tty_str(name, sizeof(name), ev->vd_name, sizeof(ev->vd_name));
		snprintf(vd, sizeof(vd), "%s%u%s%s%s", VRAID_DISK_PREFIX,
			 ev->vd_index, name[0] ? " (" : "", name,
			 name[0] ? ")" : "");
	}
	printf("%s  #%llu  %s  %s: %s\n",
	       event_time(when, sizeof(when), ev->time_ns, false),
	       (unsigned long long)ev->seq, vd, vraid_event_name(ev->type),
	       tty_str(text, sizeof(text), ev->text, sizeof(ev->text)));
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

int cmd_events(int argc, char **argv)
{
	static const char *const names[] = { "--since", "--exec", NULL };
	const char *vals[2] = { NULL, NULL }, *pos[1];
	bool json = false, follow;
	struct vraid_events *r;
	unsigned long long since = 0;
	size_t npos;
	uint32_t i;
	struct ctl c;
	char *end;
	int rc, e;

	follow = take_flag(&argc, argv, "--follow");
	rc = parse_args("events", argc, argv, names, vals, &json, pos, 1, &npos);
	if (rc >= 0)
		return rc;
	if (npos)
		return usage_error("events", "unexpected argument '%s'", pos[0]);
	if (vals[0]) {
		errno = 0;
		since = strtoull(vals[0], &end, 10);
		if (errno || end == vals[0] || *end || !since ||
		    vals[0][0] == '-')
			return usage_error("events",
					   "--since takes an event number from 1 up, got '%s'",
					   vals[0]);
	}
	if (!ctl_open(&c, false))
		return RC_FAIL;
	r = calloc(1, sizeof(*r));
	if (!r) {
		errmsg("out of memory");
		close(c.fd);
		return RC_FAIL;
	}
	/* --follow alone: the events from now on */
	if (follow && !vals[0]) {
		e = ctl_ioctl(&c, VRAID_IOC_EVENTS, r, sizeof(*r));
		if (e)
			goto failed;
		since = r->next;
	}
	for (;;) {
		memset(r, 0, sizeof(*r));
		r->since = since;
		e = ctl_ioctl(&c, VRAID_IOC_EVENTS, r, sizeof(*r));
		if (e)
			goto failed;
		if (!reply_sane(r->count, VRAID_EVENTS_MAX, "count")) {
			rc = RC_FAIL;
			break;
		}
		if (since && r->first > since)
			fprintf(stderr,
				"vraidctl: events #%llu to #%llu were dropped (the log keeps the last %u)\n",
				since, (unsigned long long)r->first - 1,
				VRAID_EVENTS_KEPT);
		for (i = 0; i < r->count; i++) {
			if (json)
				event_json(&r->events[i]);
			else
				event_human(&r->events[i]);
			if (vals[1])
				event_exec(vals[1], &r->events[i]);
		}
		fflush(stdout);
		since = r->count ? r->events[r->count - 1].seq + 1 : r->next;
		if (since < r->next)
			continue;	/* more than one reply holds */
		if (!follow) {
			rc = RC_OK;
			break;
		}
		sleep_sec(FOLLOW_EVERY);
	}
	free(r);
	close(c.fd);
	return rc;
failed:
	if (e == ENOTTY && !(c.replied && r->hdr.version_minor >= ABI_MINOR_EVENTS))
		errmsg("the vraid module has no event log (it needs ABI 1.%d or later): load a newer vraid.ko",
		       ABI_MINOR_EVENTS);
	else
		report(&c, "events", e, &r->hdr, CTX_OTHER);
	free(r);
	close(c.fd);
	return RC_FAIL;
}
