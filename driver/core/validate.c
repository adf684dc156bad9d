// SPDX-License-Identifier: GPL-2.0
/*
 * Validation of ioctl requests (portable core).
 */
#include "core_types.h"
#include <linux/vraid.h>
#include "validate.h"
#include "geom.h"
#include "layout.h"

#define NR_CREATE	0x00
#define NR_DELETE	0x01
#define NR_LIST		0x02
#define NR_INFO		0x03
#define NR_SET_POLICY	0x04
#define NR_FAIL_MEMBER	0x05
#define NR_SPARE	0x06
#define NR_REPLACE	0x07
#define NR_JOB		0x08
#define NR_CONTROLLER	0x09
#define NR_ASSEMBLE	0x0b
#define NR_EVENTS	0x0c

_Static_assert(sizeof(struct vraid_ioc_hdr) == 152, "hdr layout");
_Static_assert(sizeof(struct vraid_create) == VRAID_CREATE_SIZE_V1, "create");
_Static_assert(sizeof(struct vraid_delete) == VRAID_DELETE_SIZE_V1, "delete");
_Static_assert(sizeof(struct vraid_list) == VRAID_LIST_SIZE_V1, "list");
_Static_assert(sizeof(struct vraid_info) == VRAID_INFO_SIZE_V1, "info");
_Static_assert(sizeof(struct vraid_fail_member) == VRAID_FAIL_MEMBER_SIZE_V1,
	       "fail_member");
_Static_assert(sizeof(struct vraid_assemble) == VRAID_ASSEMBLE_SIZE_V1,
	       "assemble");
_Static_assert(sizeof(struct vraid_job) == VRAID_JOB_SIZE_V1, "job");
_Static_assert(sizeof(struct vraid_set_policy) == VRAID_SET_POLICY_SIZE_V1,
	       "set_policy");
_Static_assert(sizeof(struct vraid_spare) == VRAID_SPARE_SIZE_V1, "spare");
_Static_assert(sizeof(struct vraid_replace) == VRAID_REPLACE_SIZE_V1,
	       "replace");
_Static_assert(sizeof(struct vraid_controller) == VRAID_CONTROLLER_SIZE_V1,
	       "controller");
_Static_assert(sizeof(struct vraid_events) == VRAID_EVENTS_SIZE_V1, "events");

u32 vraid_cmd_min_size(u32 nr)
{
	switch (nr) {
	case NR_CREATE:	return VRAID_CREATE_SIZE_V1;
	case NR_DELETE:	return VRAID_DELETE_SIZE_V1;
	case NR_LIST:	return VRAID_LIST_SIZE_V1;
	case NR_INFO:	return VRAID_INFO_SIZE_V1;
	case NR_FAIL_MEMBER:	return VRAID_FAIL_MEMBER_SIZE_V1;
	case NR_ASSEMBLE:	return VRAID_ASSEMBLE_SIZE_V1;
	case NR_JOB:	return VRAID_JOB_SIZE_V1;
	case NR_SET_POLICY:	return VRAID_SET_POLICY_SIZE_V1;
	case NR_SPARE:	return VRAID_SPARE_SIZE_V1;
	case NR_REPLACE:	return VRAID_REPLACE_SIZE_V1;
	case NR_CONTROLLER:	return VRAID_CONTROLLER_SIZE_V1;
	case NR_EVENTS:	return VRAID_EVENTS_SIZE_V1;
	}
	return 0;
}

bool vraid_cmd_mutates(u32 nr)
{
	/*
	 * SPARE's LIST and CONTROLLER's SHOW are read-only: their handlers
	 * check privilege for the other actions.
	 */
	return nr == NR_CREATE || nr == NR_DELETE || nr == NR_FAIL_MEMBER ||
	       nr == NR_ASSEMBLE || nr == NR_JOB || nr == NR_REPLACE ||
	       nr == NR_SET_POLICY;
}

static bool all_zero(const void *p, size_t len)
{
	const u8 *b = p;
	size_t i;

	for (i = 0; i < len; i++)
		if (b[i])
			return false;
	return true;
}

int vraid_validate_hdr(const struct vraid_ioc_hdr *h, u32 nr,
		       char *msg, size_t msglen)
{
	u32 min = vraid_cmd_min_size(nr);

	if (!min) {
		snprintf(msg, msglen, "unknown command %u", nr);
		return -ENOTTY;
	}
	if (h->magic != VRAID_IOC_MAGIC) {
		snprintf(msg, msglen, "bad magic 0x%08x in request header",
			 h->magic);
		return -EINVAL;
	}
	if (h->version_major != VRAID_ABI_MAJOR) {
		snprintf(msg, msglen,
			 "ABI version %u.%u not supported (module speaks %u.%u): use a matching vraidctl",
			 h->version_major, h->version_minor,
			 VRAID_ABI_MAJOR, VRAID_ABI_MINOR);
		return -EPROTO;
	}
	if (h->size < min || h->size > VRAID_IOC_MAX_SIZE) {
		snprintf(msg, msglen,
			 "request size %u bytes is wrong for this command (%u to %u)",
			 h->size, min, VRAID_IOC_MAX_SIZE);
		return -EINVAL;
	}
	if (h->flags) {
		snprintf(msg, msglen, "unknown flags 0x%x", h->flags);
		return -EINVAL;
	}
	if (h->reserved) {
		snprintf(msg, msglen, "reserved header field is not zero");
		return -EINVAL;
	}
	return 0;
}

static bool all_digits(const char *p, const char *end)
{
	if (p == end)
		return false;
	for (; p < end; p++)
		if (*p < '0' || *p > '9')
			return false;
	return true;
}

bool vraid_name_valid(const char *name, size_t len)
{
	const char *end = memchr(name, '\0', len);
	const char *p;

	if (!end)
		return false;
	if (name[0] == '-')
		return false;
	/* "12" and "vraid12" name VDs by number; a label must not. */
	if (all_digits(name, end))
		return false;
	if (end - name > 5 && !memcmp(name, "vraid", 5) &&
	    all_digits(name + 5, end))
		return false;
	for (p = name; p < end; p++) {
		char c = *p;

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '.' || c == '_' ||
		      c == '-'))
			return false;
	}
	return true;
}

int vraid_validate_create(const struct vraid_create *c, char *msg,
			  size_t msglen)
{
	u32 i, j;
	int ret;

	ret = vraid_layout_check(c->level, c->nr_members, c->strip_bytes,
				 c->spans, msg, msglen);
	if (ret)
		return ret;
	if (c->level == VRAID_LEVEL_JBOD && c->strip_bytes) {
		snprintf(msg, msglen, "JBOD has no strip size; omit --strip");
		return -EINVAL;
	}
	if (!vraid_name_valid(c->name, sizeof(c->name))) {
		snprintf(msg, msglen,
			 "bad name: use up to %u letters, digits, '.', '_' or '-' (not a number, vraidN or -x)",
			 VRAID_NAME_LEN - 1);
		return -EINVAL;
	}
	if (c->reserved1 || !all_zero(c->reserved2, sizeof(c->reserved2))) {
		snprintf(msg, msglen, "reserved fields are not zero");
		return -EINVAL;
	}
	ret = vraid_validate_policies(VRAID_SET_ACCESS | VRAID_SET_DISK_CACHE |
				      VRAID_SET_IO | VRAID_SET_READ |
				      VRAID_SET_WRITE, c->access_policy,
				      c->disk_cache_policy, c->io_policy,
				      c->read_policy, c->write_policy, msg,
				      msglen);
	if (ret)
		return ret;
	if (c->init > VRAID_INIT_FULL) {
		snprintf(msg, msglen,
			 "unknown initialisation %u: use fast, background or full",
			 c->init);
		return -EINVAL;
	}
	if (c->init != VRAID_INIT_FAST && !vraid_layout_is_mirror(c->level) &&
	    !vraid_layout_is_parity(c->level)) {
		snprintf(msg, msglen,
			 "%s has no redundancy to initialise; omit --init",
			 vraid_level_name(c->level));
		return -EINVAL;
	}
	for (i = 0; i < c->nr_members; i++) {
		const struct vraid_member_ref *m = &c->members[i];

		if ((m->major == 0 && m->minor == 0) || m->major >= 4096 ||
		    m->minor >= (1U << 20)) {
			snprintf(msg, msglen, "member %u: bad device number %u:%u",
				 i, m->major, m->minor);
			return -EINVAL;
		}
		for (j = 0; j < i; j++) {
			if (c->members[j].major == m->major &&
			    c->members[j].minor == m->minor) {
				snprintf(msg, msglen,
					 "device %u:%u is named twice (members %u and %u)",
					 m->major, m->minor, j, i);
				return -EINVAL;
			}
		}
	}
	for (; i < VRAID_MAX_MEMBERS; i++) {
		if (c->members[i].major || c->members[i].minor) {
			snprintf(msg, msglen,
				 "member slot %u is set but nr_members is %u",
				 i, c->nr_members);
			return -EINVAL;
		}
	}
	return 0;
}

static int check_index(u32 index, char *msg, size_t msglen)
{
	if (index >= VRAID_MAX_VDS) {
		snprintf(msg, msglen, "no virtual drive vraid%u (index out of range 0-%u)",
			 index, VRAID_MAX_VDS - 1);
		return -ENOENT;
	}
	return 0;
}

int vraid_validate_delete(const struct vraid_delete *d, char *msg,
			  size_t msglen)
{
	if (d->del_flags & ~(VRAID_DELETE_STOP | VRAID_DELETE_DISCARD)) {
		snprintf(msg, msglen, "unknown delete flags 0x%x", d->del_flags);
		return -EINVAL;
	}
	/* discarded_bytes is out only (as ASSEMBLE's replay counts) */
	if (!all_zero(d->reserved2, sizeof(d->reserved2))) {
		snprintf(msg, msglen, "reserved fields are not zero");
		return -EINVAL;
	}
	return check_index(d->index, msg, msglen);
}

int vraid_validate_list(const struct vraid_list *l, char *msg, size_t msglen)
{
	if (l->reserved1 || !all_zero(l->reserved2, sizeof(l->reserved2))) {
		snprintf(msg, msglen, "reserved fields are not zero");
		return -EINVAL;
	}
	return 0;
}

int vraid_validate_info(const struct vraid_info *i, char *msg, size_t msglen)
{
	/* The job fields and what follows them are output only. */
	if (!all_zero(&i->job_type, (const char *)i->members -
		      (const char *)&i->job_type)) {
		snprintf(msg, msglen, "reserved fields are not zero");
		return -EINVAL;
	}
	return check_index(i->index, msg, msglen);
}

int vraid_validate_fail_member(const struct vraid_fail_member *f, char *msg,
			       size_t msglen)
{
	if (!all_zero(f->reserved2, sizeof(f->reserved2))) {
		snprintf(msg, msglen, "reserved fields are not zero");
		return -EINVAL;
	}
	if (f->fail_flags & ~VRAID_FAIL_FORCE) {
		snprintf(msg, msglen, "unknown fail flags 0x%x", f->fail_flags);
		return -EINVAL;
	}
	if ((f->major == 0 && f->minor == 0) || f->major >= 4096 ||
	    f->minor >= (1U << 20)) {
		snprintf(msg, msglen, "bad device number %u:%u", f->major,
			 f->minor);
		return -EINVAL;
	}
	return check_index(f->index, msg, msglen);
}

int vraid_validate_assemble(const struct vraid_assemble *a, char *msg,
			    size_t msglen)
{
	u32 i, j;

	/* replayed, replay_parity and replay_superseded are out only */
	if ((a->asm_flags & ~(VRAID_ASM_NO_JOURNAL | VRAID_ASM_FORCE |
			      VRAID_ASM_NAME)) || a->reserved1 ||
	    a->reserved3 || !all_zero(a->reserved2, sizeof(a->reserved2))) {
		snprintf(msg, msglen, "flags or reserved fields are not zero");
		return -EINVAL;
	}
	if ((a->asm_flags & VRAID_ASM_NAME) &&
	    (!a->name[0] || !vraid_name_valid(a->name, sizeof(a->name)))) {
		snprintf(msg, msglen,
			 "VRAID_ASM_NAME: the name is empty or not a valid VD name");
		return -EINVAL;
	}
	if (!a->nr_devices || a->nr_devices > VRAID_MAX_MEMBERS) {
		snprintf(msg, msglen, "%u devices given: 1 to %u allowed",
			 a->nr_devices, VRAID_MAX_MEMBERS);
		return -EINVAL;
	}
	for (i = 0; i < VRAID_MAX_MEMBERS; i++) {
		const struct vraid_member_ref *d = &a->devices[i];

		if (i >= a->nr_devices) {
			if (d->major || d->minor) {
				snprintf(msg, msglen,
					 "device slot %u is set but nr_devices is %u",
					 i, a->nr_devices);
				return -EINVAL;
			}
			continue;
		}
		if ((d->major == 0 && d->minor == 0) || d->major >= 4096 ||
		    d->minor >= (1U << 20)) {
			snprintf(msg, msglen, "device %u: bad device number %u:%u",
				 i, d->major, d->minor);
			return -EINVAL;
		}
		for (j = 0; j < i; j++) {
			if (a->devices[j].major == d->major &&
			    a->devices[j].minor == d->minor) {
				snprintf(msg, msglen, "device %u:%u is named twice",
					 d->major, d->minor);
				return -EINVAL;
			}
		}
	}
	return 0;
}

static bool bad_devnum(u32 major, u32 minor)
{
	return (major == 0 && minor == 0) || major >= 4096 ||
	       minor >= (1U << 20);
}

int vraid_validate_job(const struct vraid_job *j, char *msg, size_t msglen)
{
	if (j->reserved1 || !all_zero(j->reserved2, sizeof(j->reserved2))) {
		snprintf(msg, msglen, "reserved fields are not zero");
		return -EINVAL;
	}
	if (j->action < VRAID_JOB_START_CHECK ||
	    j->action > VRAID_JOB_SET_RATE) {
		snprintf(msg, msglen, "unknown job action %u", j->action);
		return -EINVAL;
	}
	if (j->action != VRAID_JOB_SET_RATE && j->rate_kib) {
		snprintf(msg, msglen, "rate_kib is only for SET_RATE");
		return -EINVAL;
	}
	if (j->rate_kib > VRAID_JOB_RATE_MAX) {
		snprintf(msg, msglen,
			 "rate %u KiB/s is out of range: 1 to %u, or 0 for no limit",
			 j->rate_kib, VRAID_JOB_RATE_MAX);
		return -EINVAL;
	}
	return check_index(j->index, msg, msglen);
}

/*
 * CONTROLLER: a known action, and every field it does not take zero.  The
 * cache size's bounds depend on the machine's RAM: the handler checks them
 * (vraid_cache_check_bytes()).
 */
int vraid_validate_controller(const struct vraid_controller *c, char *msg,
			      size_t msglen)
{
	if (c->ctrl_flags & ~VRAID_CTRL_FORCE) {
		snprintf(msg, msglen, "unknown controller flags 0x%x",
			 c->ctrl_flags);
		return -EINVAL;
	}
	if (c->ctrl_flags && c->action != VRAID_CTRL_JOURNAL_ATTACH) {
		snprintf(msg, msglen, "only JOURNAL_ATTACH takes FORCE");
		return -EINVAL;
	}
	if (!all_zero(c->reserved, sizeof(c->reserved)) ||
	    !all_zero(c->journal_uuid, sizeof(c->journal_uuid)) ||
	    c->journal_head_seq || c->journal_tail_seq ||
	    c->journal_pending || c->journal_vds ||
	    c->cache_default_bytes || c->cache_max_bytes ||
	    c->cache_used_bytes || c->cache_dirty_bytes ||
	    c->cache_dirty_high_bytes || c->nr_vds || c->journal_state ||
	    c->journal_major || c->journal_minor || c->journal_bytes ||
	    c->journal_used_bytes) {
		snprintf(msg, msglen, "reserved or output fields are not zero");
		return -EINVAL;
	}
	if (c->action > VRAID_CTRL_JOURNAL_DISCARD) {
		snprintf(msg, msglen, "unknown controller action %u",
			 c->action);
		return -EINVAL;
	}
	if (c->action != VRAID_CTRL_SET_CACHE_SIZE && c->cache_bytes) {
		snprintf(msg, msglen, "only SET_CACHE_SIZE takes a cache size");
		return -EINVAL;
	}
	if (c->action != VRAID_CTRL_JOURNAL_ATTACH && (c->major || c->minor)) {
		snprintf(msg, msglen, "only JOURNAL_ATTACH takes a device");
		return -EINVAL;
	}
	if (c->action == VRAID_CTRL_JOURNAL_ATTACH &&
	    bad_devnum(c->major, c->minor)) {
		snprintf(msg, msglen, "bad device number %u:%u", c->major,
			 c->minor);
		return -EINVAL;
	}
	return 0;
}

/*
 * The event types' names: the uevent's VRAID_EVENT and what vraidctl
 * events prints, so that both say the same.
 */
static const char *const vraid_event_names[VRAID_EV_TYPES] = {
	[VRAID_EV_CREATED]		= "created",
	[VRAID_EV_ASSEMBLED]		= "assembled",
	[VRAID_EV_STOPPED]		= "stopped",
	[VRAID_EV_DELETED]		= "deleted",
	[VRAID_EV_MEMBER_FAILED]	= "member-failed",
	[VRAID_EV_STATE]		= "state",
	[VRAID_EV_REBUILD_START]	= "rebuild-start",
	[VRAID_EV_JOB_START]		= "job-start",
	[VRAID_EV_JOB_END]		= "job-end",
	[VRAID_EV_JOB_FAILED]		= "job-failed",
};

const char *vraid_event_name(u32 type)
{
	if (type < VRAID_EV_TYPES && vraid_event_names[type])
		return vraid_event_names[type];
	return "unknown";
}

/* EVENTS: @since is the only input; the rest is output, zero. */
int vraid_validate_events(const struct vraid_events *e, char *msg,
			  size_t msglen)
{
	if (e->first || e->next || e->count || e->reserved ||
	    !all_zero(e->events, sizeof(e->events))) {
		snprintf(msg, msglen, "reserved or output fields are not zero");
		return -EINVAL;
	}
	return 0;
}

int vraid_validate_spare(const struct vraid_spare *s, char *msg,
			 size_t msglen)
{
	if (!all_zero(s->reserved2, sizeof(s->reserved2)) || s->nr_spares ||
	    !all_zero(s->spares, sizeof(s->spares)) ||
	    (s->action != VRAID_SPARE_ADD &&
	     !all_zero(s->vd_uuid, sizeof(s->vd_uuid)))) {
		snprintf(msg, msglen, "reserved or output fields are not zero");
		return -EINVAL;
	}
	switch (s->action) {
	case VRAID_SPARE_LIST:
		if (s->spare_flags || s->index || s->major || s->minor) {
			snprintf(msg, msglen, "LIST takes no device, VD or flags");
			return -EINVAL;
		}
		return 0;
	case VRAID_SPARE_ADD:
		if (s->spare_flags & ~(VRAID_SPARE_DEDICATED |
				       VRAID_SPARE_VD_UUID)) {
			snprintf(msg, msglen, "unknown spare flags 0x%x",
				 s->spare_flags);
			return -EINVAL;
		}
		if (!(s->spare_flags & VRAID_SPARE_DEDICATED) && s->index) {
			snprintf(msg, msglen,
				 "a VD index is only for a dedicated spare");
			return -EINVAL;
		}
		if ((s->spare_flags & VRAID_SPARE_VD_UUID) &&
		    ((s->spare_flags & VRAID_SPARE_DEDICATED) ||
		     all_zero(s->vd_uuid, sizeof(s->vd_uuid)))) {
			snprintf(msg, msglen,
				 "a spare is dedicated by VD index or by a VD UUID (not zero), not both");
			return -EINVAL;
		}
		if (!(s->spare_flags & VRAID_SPARE_VD_UUID) &&
		    !all_zero(s->vd_uuid, sizeof(s->vd_uuid))) {
			snprintf(msg, msglen,
				 "a VD UUID is only for VRAID_SPARE_VD_UUID");
			return -EINVAL;
		}
		break;
	case VRAID_SPARE_REMOVE:
		if (s->spare_flags || s->index) {
			snprintf(msg, msglen, "REMOVE takes only the device");
			return -EINVAL;
		}
		break;
	default:
		snprintf(msg, msglen, "unknown spare action %u", s->action);
		return -EINVAL;
	}
	if (bad_devnum(s->major, s->minor)) {
		snprintf(msg, msglen, "bad device number %u:%u", s->major,
			 s->minor);
		return -EINVAL;
	}
	return check_index(s->index, msg, msglen);
}

int vraid_validate_replace(const struct vraid_replace *r, char *msg,
			   size_t msglen)
{
	if (r->reserved1 || !all_zero(r->reserved2, sizeof(r->reserved2))) {
		snprintf(msg, msglen, "reserved fields are not zero");
		return -EINVAL;
	}
	if (r->rep_flags & ~(VRAID_REPLACE_FORCE | VRAID_REPLACE_ROLE)) {
		snprintf(msg, msglen, "unknown replace flags 0x%x",
			 r->rep_flags);
		return -EINVAL;
	}
	if (r->rep_flags & VRAID_REPLACE_ROLE) {
		if (r->old_major || r->old_minor ||
		    r->old_role >= VRAID_MAX_MEMBERS) {
			snprintf(msg, msglen,
				 "by role: role %u (0-%u) and no old device number",
				 r->old_role, VRAID_MAX_MEMBERS - 1);
			return -EINVAL;
		}
		if (bad_devnum(r->new_major, r->new_minor)) {
			snprintf(msg, msglen, "bad device number %u:%u",
				 r->new_major, r->new_minor);
			return -EINVAL;
		}
		return check_index(r->index, msg, msglen);
	}
	if (r->old_role) {
		snprintf(msg, msglen, "old_role is only for VRAID_REPLACE_ROLE");
		return -EINVAL;
	}
	if (bad_devnum(r->old_major, r->old_minor) ||
	    bad_devnum(r->new_major, r->new_minor)) {
		snprintf(msg, msglen, "bad device number %u:%u or %u:%u",
			 r->old_major, r->old_minor, r->new_major,
			 r->new_minor);
		return -EINVAL;
	}
	if (r->old_major == r->new_major && r->old_minor == r->new_minor) {
		snprintf(msg, msglen,
			 "the new device is the member it replaces");
		return -EINVAL;
	}
	return check_index(r->index, msg, msglen);
}

/*
 * Policy values: unknown ones are refused (EINVAL), every known one is
 * taken.  Write-back is write-back while a journal is healthy and
 * write-through otherwise, and there is no journal yet; always write-back
 * is a volatile write-back cache.
 */
int vraid_validate_policies(u32 mask, u32 access, u32 dcache, u32 io,
			    u32 read, u32 write, char *msg, size_t msglen)
{
	if (((mask & VRAID_SET_ACCESS) && access > VRAID_ACCESS_BLOCKED) ||
	    ((mask & VRAID_SET_DISK_CACHE) && dcache > VRAID_DCACHE_DISABLED) ||
	    ((mask & VRAID_SET_IO) && io > VRAID_IO_CACHED) ||
	    ((mask & VRAID_SET_READ) && read > VRAID_READ_AHEAD) ||
	    ((mask & VRAID_SET_WRITE) && write > VRAID_WRITE_BACK_ALWAYS)) {
		snprintf(msg, msglen,
			 "unknown policy value (access %u, disk cache %u, io %u, read %u, write %u)",
			 access, dcache, io, read, write);
		return -EINVAL;
	}
	return 0;
}

int vraid_validate_set_policy(const struct vraid_set_policy *p, char *msg,
			      size_t msglen)
{
	u32 all = VRAID_SET_ACCESS | VRAID_SET_DISK_CACHE | VRAID_SET_IO |
		  VRAID_SET_READ | VRAID_SET_WRITE;
	int ret;

	if (p->reserved1 || !all_zero(p->reserved2, sizeof(p->reserved2))) {
		snprintf(msg, msglen, "reserved fields are not zero");
		return -EINVAL;
	}
	if (!p->set_mask || (p->set_mask & ~all)) {
		snprintf(msg, msglen, "set_mask 0x%x: name 1 to 5 known policies",
			 p->set_mask);
		return -EINVAL;
	}
	if ((!(p->set_mask & VRAID_SET_ACCESS) && p->access_policy) ||
	    (!(p->set_mask & VRAID_SET_DISK_CACHE) && p->disk_cache_policy) ||
	    (!(p->set_mask & VRAID_SET_IO) && p->io_policy) ||
	    (!(p->set_mask & VRAID_SET_READ) && p->read_policy) ||
	    (!(p->set_mask & VRAID_SET_WRITE) && p->write_policy)) {
		snprintf(msg, msglen, "a policy not in set_mask is not zero");
		return -EINVAL;
	}
	ret = vraid_validate_policies(p->set_mask, p->access_policy,
				      p->disk_cache_policy, p->io_policy,
				      p->read_policy, p->write_policy, msg,
				      msglen);
	if (ret)
		return ret;
	return check_index(p->index, msg, msglen);
}
