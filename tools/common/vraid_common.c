// SPDX-License-Identifier: GPL-2.0
/*
 * What vraidctl and the C test helpers share (vraid_common.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "vraid_common.h"

const struct vraid_errname vraid_errnames[] = {
#define E(x) { x, #x }
	E(EPERM), E(ENOENT), E(ESRCH), E(EINTR), E(EIO), E(ENXIO), E(E2BIG),
	E(EBADF), E(EAGAIN), E(ENOMEM), E(EACCES), E(EFAULT), E(ENOTBLK),
	E(EBUSY), E(EEXIST), E(EXDEV), E(ENODEV), E(ENOTDIR), E(EISDIR),
	E(EINVAL), E(ENFILE), E(EMFILE), E(ENOTTY), E(EFBIG), E(ENOSPC),
	E(EROFS), E(ERANGE), E(ENAMETOOLONG), E(ENOSYS), E(ENODATA),
	E(EPROTO), E(EOVERFLOW), E(EMSGSIZE), E(EOPNOTSUPP), E(ETIMEDOUT),
	E(EALREADY), E(EINPROGRESS), E(ESTALE), E(EDQUOT), E(ECANCELED),
	E(EDEADLK), E(ELOOP), E(EPROTONOSUPPORT), E(EUCLEAN),
#undef E
	{ 515, "ENOIOCTLCMD" },	/* kernel-internal values: a bug if seen */
	{ 524, "ENOTSUPP" },
};

const size_t vraid_nr_errnames = ARRAY_SIZE(vraid_errnames);

const char *vraid_errname(int e)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(vraid_errnames); i++)
		if (vraid_errnames[i].e == e)
			return vraid_errnames[i].name;
	return NULL;
}

int vraid_errnum(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(vraid_errnames); i++)
		if (!strcasecmp(vraid_errnames[i].name, name))
			return vraid_errnames[i].e;
	return -1;
}

#define CMD(n, s) [VRAID_NR_##n] = { #n, VRAID_IOC_##n, VRAID_##n##_SIZE_V1, \
				     sizeof(struct vraid_##s) }
static const struct vraid_ioc_cmd ioc_cmds[] = {
	CMD(CREATE, create),
	CMD(DELETE, delete),
	CMD(LIST, list),
	CMD(INFO, info),
	CMD(SET_POLICY, set_policy),
	CMD(FAIL_MEMBER, fail_member),
	CMD(SPARE, spare),
	CMD(REPLACE, replace),
	CMD(JOB, job),
	CMD(CONTROLLER, controller),
	CMD(ASSEMBLE, assemble),
	CMD(EVENTS, events),
};
#undef CMD

const struct vraid_ioc_cmd *vraid_ioc_cmd(uint32_t nr)
{
	return nr < ARRAY_SIZE(ioc_cmds) && ioc_cmds[nr].name ? &ioc_cmds[nr] :
								NULL;
}

const char *vraid_control_path(bool *overridden)
{
	const char *env = getenv("VRAIDCTL_CONTROL");
	bool over = env && *env;

	if (overridden)
		*overridden = over;
	return over ? env : "/dev/" VRAID_CONTROL_NAME;
}

int vraid_control_open(const char *path, bool write)
{
	int fd = open(path, O_RDWR | O_CLOEXEC);

	if (fd < 0 && !write && (errno == EACCES || errno == EROFS))
		fd = open(path, O_RDONLY | O_CLOEXEC);
	return fd;
}

void vraid_ioc_hdr_init(struct vraid_ioc_hdr *h, size_t size)
{
	h->magic = VRAID_IOC_MAGIC;
	h->size = (uint32_t)size;
	h->version_major = VRAID_ABI_MAJOR;
	h->version_minor = VRAID_ABI_MINOR;
	h->status = 0;
	h->flags = 0;
	h->reserved = 0;
	memset(h->message, 0, sizeof(h->message));
}

bool vraid_parse_u32(const char *s, uint32_t *out)
{
	uint64_t v = 0;

	if (*s < '0' || *s > '9')
		return false;
	for (; *s >= '0' && *s <= '9'; s++) {
		v = v * 10 + (uint64_t)(*s - '0');
		if (v > UINT32_MAX)
			return false;
	}
	if (*s)
		return false;
	*out = (uint32_t)v;
	return true;
}

bool vraid_parse_vraidN(const char *s, uint32_t *index)
{
	size_t l = strlen(VRAID_DISK_PREFIX);

	return !strncmp(s, VRAID_DISK_PREFIX, l) &&
	       vraid_parse_u32(s + l, index);
}

bool vraid_vd_number(const char *arg, uint32_t *index)
{
	return (!strncmp(arg, "/dev/", 5) &&
		vraid_parse_vraidN(arg + 5, index)) ||
	       vraid_parse_u32(arg, index) || vraid_parse_vraidN(arg, index);
}
