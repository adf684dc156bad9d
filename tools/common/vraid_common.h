/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What vraidctl and the C test helpers (tests/helpers/vraid-raw.c,
 * tests/vm/ioctlfuzz.c) share: the names of errnos, the ioctl commands
 * by number, the control device (its path and opening it), the request
 * header, and how a virtual drive is named on a command line.  libc and
 * uapi/linux/vraid.h only; no messages are printed here, so that each
 * program says what went wrong in its own words.
 */
#ifndef VRAID_COMMON_H
#define VRAID_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/ioctl.h>

#include <linux/vraid.h>

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

/* ---- errno names ---- */

struct vraid_errname {
	int e;
	const char *name;
};

/*
 * The errnos the module returns, the ones open() and ioctl() may give,
 * and the kernel-internal ENOIOCTLCMD and ENOTSUPP (a bug if seen).
 */
extern const struct vraid_errname vraid_errnames[];
extern const size_t vraid_nr_errnames;

/* "EINVAL" for EINVAL; NULL for an errno not in the table. */
const char *vraid_errname(int e);
/* EINVAL for "EINVAL" or "einval"; -1 for a name not in the table. */
int vraid_errnum(const char *name);

/* ---- the ioctl commands ---- */

/* Command numbers (_IOC_NR) of the requests, for switch statements. */
#define VRAID_NR_CREATE		_IOC_NR(VRAID_IOC_CREATE)
#define VRAID_NR_DELETE		_IOC_NR(VRAID_IOC_DELETE)
#define VRAID_NR_LIST		_IOC_NR(VRAID_IOC_LIST)
#define VRAID_NR_INFO		_IOC_NR(VRAID_IOC_INFO)
#define VRAID_NR_SET_POLICY	_IOC_NR(VRAID_IOC_SET_POLICY)
#define VRAID_NR_FAIL_MEMBER	_IOC_NR(VRAID_IOC_FAIL_MEMBER)
#define VRAID_NR_SPARE		_IOC_NR(VRAID_IOC_SPARE)
#define VRAID_NR_REPLACE	_IOC_NR(VRAID_IOC_REPLACE)
#define VRAID_NR_JOB		_IOC_NR(VRAID_IOC_JOB)
#define VRAID_NR_CONTROLLER	_IOC_NR(VRAID_IOC_CONTROLLER)
#define VRAID_NR_ASSEMBLE	_IOC_NR(VRAID_IOC_ASSEMBLE)
#define VRAID_NR_EVENTS		_IOC_NR(VRAID_IOC_EVENTS)

struct vraid_ioc_cmd {
	const char *name;	/* "SET_POLICY" */
	unsigned long ioc;	/* VRAID_IOC_SET_POLICY */
	uint32_t size_v1;	/* VRAID_SET_POLICY_SIZE_V1 */
	size_t size;		/* sizeof(struct vraid_set_policy) */
};

/* The command with number @nr, or NULL. */
const struct vraid_ioc_cmd *vraid_ioc_cmd(uint32_t nr);

/* ---- the control device ---- */

/*
 * $VRAIDCTL_CONTROL if set and not empty (tests point it at another
 * file), else /dev/vraid-control; *@overridden (may be NULL) says which.
 */
const char *vraid_control_path(bool *overridden);

/*
 * Open @path read-write; unless @write, fall back to read-only where
 * read-write is refused (EACCES, EROFS).  Returns the fd or -1 (errno).
 */
int vraid_control_open(const char *path, bool write);

/* A request header as the module wants it sent, for @size bytes. */
void vraid_ioc_hdr_init(struct vraid_ioc_hdr *h, size_t size);

/* ---- naming a virtual drive ---- */

/* A plain decimal number up to UINT32_MAX ("007" too; no sign, no space). */
bool vraid_parse_u32(const char *s, uint32_t *out);

/* "vraidN" -> N */
bool vraid_parse_vraidN(const char *s, uint32_t *index);

/* "N", "vraidN" or "/dev/vraidN" -> N; false for anything else (a name). */
bool vraid_vd_number(const char *arg, uint32_t *index);

#endif /* VRAID_COMMON_H */
