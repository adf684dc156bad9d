// SPDX-License-Identifier: GPL-2.0
/*
 * sysfswait FILE SECONDS: wait until the sysfs attribute FILE is
 * notified (poll() for POLLPRI, as md's array_state is waited on), then
 * print what it says then and exit 0; exit 1 after SECONDS without a
 * notification, 2 on an error.  Prints "ready" on standard error once it
 * waits, so that a test starts the change only then.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct pollfd p;
	char buf[4096];
	ssize_t n;
	int fd, r;

	if (argc != 3) {
		fprintf(stderr, "usage: sysfswait FILE SECONDS\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY);
	if (fd < 0) {
		fprintf(stderr, "sysfswait: %s: %s\n", argv[1], strerror(errno));
		return 2;
	}
	/* a sysfs file is armed by a read: notifications after it count */
	if (read(fd, buf, sizeof(buf)) < 0) {
		fprintf(stderr, "sysfswait: read %s: %s\n", argv[1], strerror(errno));
		return 2;
	}
	fprintf(stderr, "ready\n");
	p.fd = fd;
	p.events = POLLPRI | POLLERR;
	r = poll(&p, 1, atoi(argv[2]) * 1000);
	if (r < 0) {
		fprintf(stderr, "sysfswait: poll: %s\n", strerror(errno));
		return 2;
	}
	if (!r)
		return 1;
	if (lseek(fd, 0, SEEK_SET) < 0) {
		fprintf(stderr, "sysfswait: lseek: %s\n", strerror(errno));
		return 2;
	}
	n = read(fd, buf, sizeof(buf) - 1);
	if (n < 0) {
		fprintf(stderr, "sysfswait: read %s: %s\n", argv[1], strerror(errno));
		return 2;
	}
	buf[n] = '\0';
	fputs(buf, stdout);
	return 0;
}
