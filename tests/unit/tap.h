/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Minimal TAP-like reporting for the userspace unit tests of the portable
 * core.  A test *case* is one named unit ("raid0 n=5 strip=64K ..."); it
 * may run thousands of CHECK()s, and reports one line:
 *
 *	ok 12 - raid0 n=5 strip=64K data=2055: init and map
 *	not ok 13 - ...
 *	#   test_geom.c:120: m.len == el: vsector 77 -> len 3, expected 4
 *
 * Diagnostics of a failed case follow its "not ok" line (at most
 * TAP_MAX_DIAG of them).  tap_done() prints the plan "1..N" and returns
 * the exit status.
 */
#ifndef VRAID_TEST_TAP_H
#define VRAID_TEST_TAP_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TAP_MAX_DIAG 8

static unsigned int tap_n, tap_failed;

/* line-buffered stdout: results stay in order with sanitizer reports */
static void __attribute__((constructor)) tap_init(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
}

static unsigned int tap_case_errs;
static char tap_case_name[256];
static char tap_diag[TAP_MAX_DIAG * 320];
static size_t tap_diag_len;

static void __attribute__((format(printf, 1, 2)))
tap_begin(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(tap_case_name, sizeof(tap_case_name), fmt, ap);
	va_end(ap);
	tap_case_errs = 0;
	tap_diag_len = 0;
	tap_diag[0] = '\0';
}

static bool __attribute__((format(printf, 5, 6)))
tap_check(bool ok, const char *file, int line, const char *expr,
	  const char *fmt, ...)
{
	va_list ap;
	size_t room = sizeof(tap_diag) - tap_diag_len;
	int n;

	if (ok)
		return true;
	if (tap_case_errs++ >= TAP_MAX_DIAG || room < 2)
		return false;
	n = snprintf(tap_diag + tap_diag_len, room, "#   %s:%d: %s: ",
		     file, line, expr);
	if (n < 0 || (size_t)n >= room)
		goto full;
	tap_diag_len += n;
	room -= n;
	va_start(ap, fmt);
	n = vsnprintf(tap_diag + tap_diag_len, room, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= room - 1)
		goto full;
	tap_diag_len += n;
	tap_diag[tap_diag_len++] = '\n';
	tap_diag[tap_diag_len] = '\0';
	return false;
full:
	tap_diag_len = sizeof(tap_diag) - 1;
	tap_diag[tap_diag_len - 1] = '\n';
	tap_diag[tap_diag_len] = '\0';
	return false;
}

/*
 * CHECK(cond, fmt, ...): record a failure of the current case with a
 * printf-style explanation; evaluates to cond.  The arguments are
 * evaluated whether or not cond holds.
 */
#define CHECK(cond, ...)						\
	tap_check(!!(cond), __FILE__, __LINE__, #cond, __VA_ARGS__)

/* Number of failed CHECK()s so far in the current case. */
/* xorshift64: a test's deterministic random numbers, from its own *state */
static inline uint64_t tap_xorshift(uint64_t *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return *state;
}

static inline unsigned int tap_errors(void)
{
	return tap_case_errs;
}

static bool tap_end(void)
{
	tap_n++;
	if (!tap_case_errs) {
		printf("ok %u - %s\n", tap_n, tap_case_name);
		return true;
	}
	tap_failed++;
	printf("not ok %u - %s\n%s", tap_n, tap_case_name, tap_diag);
	if (tap_case_errs > TAP_MAX_DIAG)
		printf("#   (%u more failed checks in this case)\n",
		       tap_case_errs - TAP_MAX_DIAG);
	return false;
}

static int tap_done(void)
{
	printf("1..%u\n", tap_n);
	printf("# %u passed, %u failed\n", tap_n - tap_failed, tap_failed);
	fflush(stdout);
	return tap_failed ? 1 : 0;
}

/* ---- messages of refusals ---------------------------------------------- */

/*
 * The core writes its reasons into a caller buffer of VRAID_MSG_LEN bytes
 * (hdr.message).  Tests hand it a heap buffer of exactly that size, filled
 * with 'X', so ASan catches writes past the end and a missing message
 * shows as "no NUL".
 */
static char *msg_buf(size_t len)
{
	char *m = malloc(len);

	if (!m) {
		perror("malloc");
		exit(2);
	}
	memset(m, 'X', len);
	return m;
}

/* strstr() that never reads past @len bytes of @m (which may lack a NUL) */
static bool msg_has(const char *m, size_t len, const char *needle)
{
	return memchr(m, '\0', len) && strstr(m, needle);
}

static void msg_reset(char *m, size_t len)
{
	memset(m, 'X', len);
}

/*
 * Check a refusal's message: NUL-terminated within @len, not empty, and
 * (if @needle) containing @needle.  Returns true if all hold.
 */
#define CHECK_MSG(m, len, needle)					\
	({								\
		const char *m_ = (m);					\
		const char *n_ = (needle);				\
		bool nul_ = memchr(m_, '\0', (len)) != NULL;		\
		CHECK(nul_, "message is not NUL-terminated within %zu bytes", \
		      (size_t)(len)) &&					\
		CHECK(m_[0] != '\0', "message is empty") &&		\
		(!n_ || CHECK(msg_has(m_, (len), n_),			\
			      "message \"%s\" does not mention \"%s\"",	\
			      m_, n_));					\
	})

#endif /* VRAID_TEST_TAP_H */
