// SPDX-License-Identifier: GPL-2.0
/*
 * evpoll - poll(2) on the vraid control device (ABI 1.13), for the event
 * log's VM case (tests/vm/cases/95-events.sh).
 *
 *   evpoll [SECONDS]
 *	Open the control device ($VRAIDCTL_CONTROL, else
 *	/dev/vraid-control); a new opener must be readable if the log holds
 *	any event.  Read the log to its end (VRAID_IOC_EVENTS); then it must
 *	not be readable.  Print "evpoll: waiting", then wait in poll(2) up to
 *	SECONDS (default 60) for the next event, which the caller causes:
 *	the poll must return readable before its timeout, and the log hold
 *	a new event; after reading it, not readable again.  Exit 0 if all
 *	held, 1 with what did not.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#include <linux/vraid.h>

static struct vraid_events ev;

/* EVENTS from @since on; the reply's next */
static unsigned long long read_log(int fd, unsigned long long since)
{
	memset(&ev, 0, sizeof(ev));
	ev.hdr.magic = VRAID_IOC_MAGIC;
	ev.hdr.size = sizeof(ev);
	ev.hdr.version_major = VRAID_ABI_MAJOR;
	ev.hdr.version_minor = VRAID_ABI_MINOR;
	ev.since = since;
	if (ioctl(fd, VRAID_IOC_EVENTS, &ev)) {
		fprintf(stderr, "evpoll: EVENTS: %s: %s\n", strerror(errno),
			ev.hdr.message);
		exit(1);
	}
	return ev.next;
}

/* poll(2) @fd for @ms: 1 readable, 0 not */
static int readable(int fd, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int n = poll(&p, 1, ms);

	if (n < 0) {
		perror("evpoll: poll");
		exit(1);
	}
	return n > 0 && (p.revents & POLLIN);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	const char *path = getenv("VRAIDCTL_CONTROL");
	int secs = argc > 1 ? atoi(argv[1]) : 60;
	unsigned long long next, next2;
	int fd, fresh;
	double t;

	if (!path || !*path)
		path = "/dev/" VRAID_CONTROL_NAME;
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "evpoll: %s: %s\n", path, strerror(errno));
		return 1;
	}
	fresh = readable(fd, 0);
	next = read_log(fd, 0);
	if (ev.hdr.version_minor < 13) {
		fprintf(stderr, "evpoll: the module speaks ABI %u.%u: no poll\n",
			ev.hdr.version_major, ev.hdr.version_minor);
		return 1;
	}
	if (next > 1 && !fresh) {
		fprintf(stderr, "evpoll: a new opener is not readable with %llu events in the log\n",
			next - 1);
		return 1;
	}
	while (ev.count)	/* to the end (64 a reply) */
		next = read_log(fd, ev.events[ev.count - 1].seq + 1);
	if (readable(fd, 0)) {
		fprintf(stderr, "evpoll: readable after reading the log to its end (#%llu)\n",
			next);
		return 1;
	}
	printf("evpoll: waiting after #%llu\n", next - 1);
	fflush(stdout);
	t = now();
	if (!readable(fd, secs * 1000)) {
		fprintf(stderr, "evpoll: no wake-up in %d s\n", secs);
		return 1;
	}
	t = now() - t;
	next2 = read_log(fd, next);
	if (next2 <= next || !ev.count) {
		fprintf(stderr, "evpoll: woken, but no new event (next %llu)\n",
			next2);
		return 1;
	}
	while (ev.count)
		next2 = read_log(fd, ev.events[ev.count - 1].seq + 1);
	/* a later event of the same request may have come meanwhile: once */
	if (readable(fd, 0)) {
		next2 = read_log(fd, next2);
		while (ev.count)
			next2 = read_log(fd, ev.events[ev.count - 1].seq + 1);
		if (readable(fd, 0)) {
			fprintf(stderr, "evpoll: still readable after reading to #%llu\n",
				next2 - 1);
			return 1;
		}
	}
	printf("evpoll: woken after %.1f s by #%llu; not readable after #%llu\n",
	       t, next, next2 - 1);
	return 0;
}
