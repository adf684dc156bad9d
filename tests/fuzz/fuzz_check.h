/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every fuzz target reports a broken invariant with, and the check
 * that a refusal carries a message.  Define FUZZ_NAME before including.
 */
#ifndef VRAID_FUZZ_CHECK_H
#define VRAID_FUZZ_CHECK_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void __attribute__((noreturn, format(printf, 1, 2)))
die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, FUZZ_NAME ": invariant broken: ");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	abort();
}

static void check_msg(const char *where, int ret, const char *msg)
{
	if (!ret)
		return;
	if (!memchr(msg, '\0', VRAID_MSG_LEN))
		die("%s: refusal %d without a NUL-terminated message", where,
		    ret);
	if (!msg[0])
		die("%s: refusal %d with an empty message", where, ret);
}

#endif
