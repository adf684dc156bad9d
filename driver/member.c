// SPDX-License-Identifier: GPL-2.0
/*
 * Member and VD state: what a failed member does to its VD.
 *
 * A member that fails (an I/O error the level cannot absorb by repair, or
 * `vraidctl fail`) is marked failed once, logged once with its device
 * name, and never used again for I/O.  The VD is Degraded while the level
 * still has every block (or its redundancy), Offline past the level's
 * tolerance: then every bio fails at once with EIO.
 */
#include <linux/blkdev.h>

#include "vraid.h"
#include "level.h"
#include "events.h"

/*
 * Does the VD's level keep redundancy (a member may fail and the VD go
 * on)?  Only such VDs run jobs, keep a write-intent bitmap, take spares.
 */
bool vraid_vd_redundant(const struct vraid_vd *vd)
{
	return vd->ops->tolerance(&vd->geom) > 0;
}

/*
 * The VD state its member states call for, with member @as_failed (U32_MAX:
 * none) counted as failed.  Called with state_lock held.
 */
static u32 vraid_state_if(struct vraid_vd *vd, u32 as_failed)
{
	const struct vraid_geom *g = &vd->geom;
	u32 group, i, failed, total = 0, worst = 0, rebuilding = 0;
	u32 width;

	/* Failure groups: a mirror set, a parity span, or the whole VD. */
	width = vd->ops->group_width(g);

	for (group = 0; group < g->nr_members; group += width) {
		failed = 0;
		for (i = group; i < group + width; i++) {
			u32 state = i == as_failed ? VRAID_MEMBER_FAILED :
						     vd->members[i].state;

			if (state != VRAID_MEMBER_ONLINE)
				failed++;
			if (state == VRAID_MEMBER_REBUILDING)
				rebuilding++;
		}
		total += failed;
		worst = max(worst, failed);
	}
	if (!total)
		return VRAID_VD_OPTIMAL;
	if (worst > vd->ops->tolerance(g))
		return VRAID_VD_OFFLINE;
	/* Rebuilding members count as missing until they are rebuilt. */
	if (rebuilding == total)
		return VRAID_VD_REBUILDING;
	return VRAID_VD_DEGRADED;
}

static u32 vraid_compute_state(struct vraid_vd *vd)
{
	return vraid_state_if(vd, U32_MAX);
}

/* The VD's state changed from @old_state: tell the event log. */
static void vraid_vd_state_event(struct vraid_vd *vd, u32 old_state,
				 u32 new_state)
{
	if (old_state == new_state)
		return;
	vraid_event(vd, VRAID_EV_STATE, VRAID_EV_NONE,
		    "virtual drive is %s (was %s)",
		    vraid_state_name(new_state), vraid_state_name(old_state));
	vraid_sysfs_notify(READ_ONCE(vd->kn_state));
}

void vraid_vd_update_state(struct vraid_vd *vd)
{
	unsigned long flags;
	u32 old_state, new_state;

	spin_lock_irqsave(&vd->state_lock, flags);
	old_state = vd->state;
	new_state = vraid_compute_state(vd);
	WRITE_ONCE(vd->state, new_state);
	spin_unlock_irqrestore(&vd->state_lock, flags);
	vraid_vd_state_event(vd, old_state, new_state);
}

/*
 * Mark @member failed (state_lock held): the VD's state before and after
 * into *@old_state and *@new_state.  Returns true if this call failed it.
 */
static bool vraid_member_fail_locked(struct vraid_vd *vd, u32 member,
				     u32 *old_state, u32 *new_state)
{
	struct vraid_member *m = &vd->members[member];
	bool changed = false;

	lockdep_assert_held(&vd->state_lock);
	*old_state = vd->state;
	if (m->state != VRAID_MEMBER_FAILED) {
		/*
		 * First the count (writes that see the member failed see
		 * it too, and are held until the metadata says so: md.c),
		 * then the state.
		 */
		atomic_inc(&vd->fail_seq);
		smp_wmb();	/* fail_seq before the state: see io.c */
		WRITE_ONCE(m->state, VRAID_MEMBER_FAILED);
		changed = true;
	}
	*new_state = vraid_compute_state(vd);
	WRITE_ONCE(vd->state, *new_state);
	return changed;
}

/* After vraid_member_fail_locked() failed @member: say so, record it. */
static void vraid_member_failed(struct vraid_vd *vd, u32 member,
				const char *why, u32 old_state, u32 new_state)
{
	pr_err("%s: member %u (%s) failed: %s; virtual drive is %s\n",
	       vd->disk->disk_name, member, vd->members[member].name, why,
	       vraid_state_name(new_state));
	vraid_event(vd, VRAID_EV_MEMBER_FAILED, member,
		    "member %u (%s) failed: %s", member,
		    vd->members[member].name, why);
	vraid_sysfs_notify(READ_ONCE(vd->kn_members));
	vraid_vd_state_event(vd, old_state, new_state);
	/* Record it on the surviving members (process context). */
	queue_work(vraid_wq, &vd->md_work);
	if (new_state != VRAID_VD_OFFLINE)
		vraid_spare_kick();
	if (new_state == VRAID_VD_OFFLINE && old_state != VRAID_VD_OFFLINE)
		pr_crit("%s: offline: more members failed than %s tolerates; I/O fails with EIO\n",
			vd->disk->disk_name, vraid_level_name(vd->geom.level));
}

/*
 * Fail @member of @vd; with @gen, only if the role still holds the device
 * that bio was issued to (vraid_member_get()): a late error of a device
 * the role no longer holds fails nothing, least of all the device that
 * took its place.  Returns true if this call failed it.
 */
static bool vraid_member_fail_gen(struct vraid_vd *vd, u32 member,
				  const u32 *gen, const char *why)
{
	unsigned long flags;
	u32 old_state, new_state;
	bool changed;

	spin_lock_irqsave(&vd->state_lock, flags);
	/* under state_lock: a swap cannot give the role a new device now */
	if (gen && *gen != vd->members[member].gen) {
		spin_unlock_irqrestore(&vd->state_lock, flags);
		pr_info_ratelimited("%s: member %u: %s from the device it replaced, ignored\n",
				    vd->disk->disk_name, member, why);
		return false;
	}
	changed = vraid_member_fail_locked(vd, member, &old_state, &new_state);
	spin_unlock_irqrestore(&vd->state_lock, flags);
	if (changed)
		vraid_member_failed(vd, member, why, old_state, new_state);
	return changed;
}

/*
 * Fail @member of @vd.  Any context.  Returns true if this call failed it
 * (false if it had failed already).
 */
bool vraid_member_fail(struct vraid_vd *vd, u32 member, const char *why)
{
	return vraid_member_fail_gen(vd, member, NULL, why);
}

/* The same for the error of a bio issued under generation @gen. */
bool vraid_member_fail_io(struct vraid_vd *vd, u32 member, u32 gen,
			  const char *why)
{
	return vraid_member_fail_gen(vd, member, &gen, why);
}

/*
 * `vraidctl fail`: fail @member unless that takes the VD offline (then
 * only with @force).  Control plane only.  The test and the failure are
 * one step under state_lock: a member failing meanwhile cannot make this
 * one take the VD offline unasked.
 */
int vraid_member_fail_admin(struct vraid_vd *vd, u32 member, bool force,
			    char *msg, size_t msglen)
{
	struct vraid_member *m = &vd->members[member];
	unsigned long flags;
	u32 old_state, new_state, state;

	spin_lock_irqsave(&vd->state_lock, flags);
	if (m->state == VRAID_MEMBER_FAILED ||
	    m->state == VRAID_MEMBER_MISSING) {
		spin_unlock_irqrestore(&vd->state_lock, flags);
		snprintf(msg, msglen, "member %u (%s) is %s already",
			 member, m->name, vraid_member_state_name(m->state));
		return -EALREADY;
	}
	/*
	 * Computed, not tried: the I/O path reads member states without
	 * state_lock, and must never see a failure that is not one.
	 */
	state = vraid_state_if(vd, member);
	if (state == VRAID_VD_OFFLINE && vd->state != VRAID_VD_OFFLINE &&
	    !force) {
		spin_unlock_irqrestore(&vd->state_lock, flags);
		snprintf(msg, msglen,
			 "failing %s would take %s offline (%s tolerates %u failed member%s); add --force to do it anyway",
			 m->name, vd->disk->disk_name,
			 vraid_level_name(vd->geom.level),
			 vd->ops->tolerance(&vd->geom),
			 vd->ops->tolerance(&vd->geom) == 1 ? "" : "s");
		return -EBUSY;
	}
	vraid_member_fail_locked(vd, member, &old_state, &new_state);
	spin_unlock_irqrestore(&vd->state_lock, flags);
	vraid_member_failed(vd, member, "failed by the administrator",
			    old_state, new_state);
	return 0;
}
