/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Validation of ioctl requests (portable core).  Every check that needs
 * nothing but the bytes userspace sent lives here, so that it is unit
 * tested and fuzzed in userspace.  The kernel side adds only the checks
 * that need the system (does the device exist, is it in use, its size).
 */
#ifndef VRAID_VALIDATE_H
#define VRAID_VALIDATE_H

#include "core_types.h"
#include <linux/vraid.h>

/* Smallest request size for command @nr (_IOC_NR of the ioctl), or 0. */
u32 vraid_cmd_min_size(u32 nr);
/* Whether command @nr changes state (and so needs CAP_SYS_ADMIN). */
bool vraid_cmd_mutates(u32 nr);

/*
 * Check the header of a request of @size bytes as userspace declared it
 * for command @nr.  Returns 0 or a negative errno with a reason in @msg.
 */
int vraid_validate_hdr(const struct vraid_ioc_hdr *h, u32 nr,
		       char *msg, size_t msglen);

int vraid_validate_create(const struct vraid_create *c, char *msg,
			  size_t msglen);
int vraid_validate_delete(const struct vraid_delete *d, char *msg,
			  size_t msglen);
int vraid_validate_list(const struct vraid_list *l, char *msg, size_t msglen);
int vraid_validate_info(const struct vraid_info *i, char *msg, size_t msglen);
int vraid_validate_assemble(const struct vraid_assemble *a, char *msg,
			    size_t msglen);
int vraid_validate_fail_member(const struct vraid_fail_member *f, char *msg,
			       size_t msglen);

int vraid_validate_policies(u32 mask, u32 access, u32 dcache, u32 io,
			    u32 read, u32 write, char *msg, size_t msglen);
int vraid_validate_set_policy(const struct vraid_set_policy *p, char *msg,
			      size_t msglen);
int vraid_validate_job(const struct vraid_job *j, char *msg, size_t msglen);
int vraid_validate_controller(const struct vraid_controller *c, char *msg,
			      size_t msglen);
int vraid_validate_events(const struct vraid_events *e, char *msg,
			  size_t msglen);
/* The name of event type @type (VRAID_EV_*), "unknown" if none. */
const char *vraid_event_name(u32 type);
int vraid_validate_spare(const struct vraid_spare *s, char *msg,
			 size_t msglen);
int vraid_validate_replace(const struct vraid_replace *r, char *msg,
			   size_t msglen);

/* Is @name a valid VD label: "" or [A-Za-z0-9._-]{1,31}, not '-' first? */
bool vraid_name_valid(const char *name, size_t len);

#endif /* VRAID_VALIDATE_H */
