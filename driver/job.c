// SPDX-License-Identifier: GPL-2.0
/*
 * Background jobs of a VD: initialisation, rebuild, consistency check and
 * repair, and the resync after an unclean shutdown.  One job at a time
 * per VD, run by a work item on vraid_job_wq, step by step over the
 * member sectors (at most 64 KiB and never across a strip), every span or
 * mirror set at once; the step itself is the level's (level.h).
 *
 * Progress is job.pos (member sectors done of job.total); every few
 * seconds, and when the job pauses, stops or ends, it is recorded in the
 * metadata as a checkpoint, so init, rebuild and resync resume where they
 * were after a stop or a crash (at most one checkpoint interval is done
 * again).  A rate limit (KiB/s per member) leaves the members to the user
 * I/O; the job sleeps between steps to keep to it.
 */
#include <linux/blkdev.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/jiffies.h>
#include <linux/delay.h>

#include "vraid.h"
#include "level.h"
#include "job.h"
#include "bitmap.h"
#include "events.h"

#define VRAID_CKPT_INTERVAL	(5 * HZ)

struct workqueue_struct *vraid_job_wq;

const char *vraid_job_name(u32 type)
{
	switch (type) {
	case VRAID_JOB_NONE:	return "none";
	case VRAID_JOB_INIT:	return "init";
	case VRAID_JOB_REBUILD:	return "rebuild";
	case VRAID_JOB_CHECK:	return "check";
	case VRAID_JOB_REPAIR:	return "repair";
	case VRAID_JOB_RESYNC:	return "resync";
	}
	return "unknown";
}

static bool vraid_has_rebuilding(struct vraid_vd *vd)
{
	u32 i;

	for (i = 0; i < vd->geom.nr_members; i++)
		if (READ_ONCE(vd->members[i].state) == VRAID_MEMBER_REBUILDING)
			return true;
	return false;
}

/*
 * Where a rebuild starts: the lowest position of the members being
 * rebuilt (member_sectors if none is).  Job work, job_lock or the
 * control plane: a position moves only in the job work, and a swap halts
 * the job first.
 */
u64 vraid_rebuild_from(struct vraid_vd *vd)
{
	u64 from = vd->geom.member_sectors;
	u32 i;

	for (i = 0; i < vd->geom.nr_members; i++)
		if (READ_ONCE(vd->members[i].state) == VRAID_MEMBER_REBUILDING)
			from = min(from, READ_ONCE(vd->members[i].rebuilt_to));
	return from;
}

/*
 * A rebuild step's writes to rows [@from, @to) have completed: those rows
 * of the members being rebuilt may be read from them
 * (vraid_member_in_sync()).  A member moves only if it was rebuilt up to
 * @from: the step wrote its rows of the range (and none below @from).
 * One rebuilt further already keeps its position; none comes down.  The
 * record vouches for them only after a flush (vraid_md_write_all()).
 * Job work only.
 */
static void vraid_job_rebuilt(struct vraid_vd *vd, u64 from, u64 to)
{
	u32 i;

	for (i = 0; i < vd->geom.nr_members; i++) {
		struct vraid_member *m = &vd->members[i];

		if (READ_ONCE(m->state) == VRAID_MEMBER_REBUILDING &&
		    m->rebuilt_to >= from && m->rebuilt_to < to)
			WRITE_ONCE(m->rebuilt_to, to);
	}
}

/* Member sectors of one step. */
static u32 vraid_job_step(struct vraid_vd *vd)
{
	return vd->ops->sync_step(vd);
}

static void vraid_job_checkpoint(struct vraid_vd *vd)
{
	char msg[VRAID_MSG_LEN];

	vd->job.saved = jiffies;
	if (vraid_md_write_all(vd, false, msg, sizeof(msg)))
		pr_warn("%s: cannot record the %s checkpoint: %s\n",
			vd->disk->disk_name, vraid_job_name(vd->job.type), msg);
}

/*
 * Sleep as long as the rate limit asks after the sectors done in this
 * run, in waits of at most a second that end early for a stop, a pause
 * or a new rate.  A rate below one step a second is held too: a step of
 * 512 KiB at 4 KiB/s waits 128 s (a single wait capped at a second let
 * such a job run at a step a second).
 */
static void vraid_job_throttle(struct vraid_vd *vd)
{
	struct vraid_vd_job *job = &vd->job;
	u32 rate = READ_ONCE(job->rate_kib);
	u64 kib, due_ms, spent_ms;

	if (!rate)
		return;
	kib = (job->pos - job->run_pos) >> 1;
	due_ms = div_u64(kib * MSEC_PER_SEC, rate);
	for (;;) {
		spent_ms = jiffies_to_msecs(jiffies - job->run_start);
		if (due_ms <= spent_ms || READ_ONCE(job->stop) ||
		    READ_ONCE(job->paused) || READ_ONCE(job->rate_kib) != rate)
			return;
		wait_event_interruptible_timeout(job->wait,
			READ_ONCE(job->stop) || READ_ONCE(job->paused) ||
			READ_ONCE(job->rate_kib) != rate,
			msecs_to_jiffies(min_t(u64, due_ms - spent_ms, 1000)));
	}
}

static int __vraid_job_start(struct vraid_vd *vd, u32 type, u64 from,
			     bool paused, char *msg, size_t msglen);

/* The job has ended (@result 0: all done): say so and record it. */
static void vraid_job_end(struct vraid_vd *vd, int result, bool stopped)
{
	struct vraid_vd_job *job = &vd->job;
	u32 type = job->type, i;
	u64 mism = atomic64_read(&job->mismatches);
	unsigned long flags;

	mutex_lock(&vd->job_lock);
	if (!result && !stopped) {
		switch (type) {
		case VRAID_JOB_REBUILD:
			spin_lock_irqsave(&vd->state_lock, flags);
			for (i = 0; i < vd->geom.nr_members; i++)
				if (vd->members[i].state ==
				    VRAID_MEMBER_REBUILDING)
					WRITE_ONCE(vd->members[i].state,
						   VRAID_MEMBER_ONLINE);
			spin_unlock_irqrestore(&vd->state_lock, flags);
			vraid_vd_update_state(vd);
			break;
		case VRAID_JOB_INIT:
		case VRAID_JOB_RESYNC:
		case VRAID_JOB_REPAIR:
			WRITE_ONCE(vd->init_pos, vd->geom.member_sectors);
			vraid_bitmap_synced(vd, U64_MAX);
			/* the copies agree: any may be read first again */
			for (i = 0; i < vd->geom.nr_members; i++)
				WRITE_ONCE(vd->members[i].second_copy, false);
			break;
		}
	}
	if (stopped)
		pr_info("%s: %s stopped at %llu of %llu sectors per member\n",
			vd->disk->disk_name, vraid_job_name(type),
			(unsigned long long)job->pos,
			(unsigned long long)job->total);
	else if (result)
		pr_err("%s: %s failed at sector %llu: error %d\n",
		       vd->disk->disk_name, vraid_job_name(type),
		       (unsigned long long)job->pos, result);
	else
		pr_info("%s: %s done%s, %llu mismatch%s\n",
			vd->disk->disk_name, vraid_job_name(type),
			type == VRAID_JOB_REBUILD ? "; members online" : "",
			(unsigned long long)mism, mism == 1 ? "" : "es");
	if (stopped)
		vraid_event(vd, VRAID_EV_JOB_END, VRAID_EV_NONE,
			    "%s stopped at %llu%%", vraid_job_name(type),
			    (unsigned long long)div64_u64(job->pos * 100,
							  max(job->total, 1ULL)));
	else if (result)
		vraid_event(vd, VRAID_EV_JOB_FAILED, VRAID_EV_NONE,
			    "%s failed at sector %llu: error %d",
			    vraid_job_name(type),
			    (unsigned long long)job->pos, result);
	else
		vraid_event(vd, VRAID_EV_JOB_END, VRAID_EV_NONE,
			    "%s done, %llu mismatch%s", vraid_job_name(type),
			    (unsigned long long)mism, mism == 1 ? "" : "es");
	job->last_type = type;
	job->last_result = result < 0 ? -result : (stopped ? ECANCELED : 0);
	job->last_mismatches = mism;
	/*
	 * A stopped init, rebuild or resync keeps its checkpoint (the
	 * metadata still names it) and resumes at the next assembly.
	 */
	if (stopped && type != VRAID_JOB_CHECK && type != VRAID_JOB_REPAIR)
		job->saved_type = type;
	else if (type == VRAID_JOB_INIT || type == VRAID_JOB_RESYNC ||
		 job->saved_type == VRAID_JOB_REBUILD)
		job->saved_type = VRAID_JOB_NONE;
	WRITE_ONCE(job->type, VRAID_JOB_NONE);
	/*
	 * A paused job halted with its VD comes back paused (the flag stays
	 * for the last metadata write of the stop).
	 */
	job->paused = stopped && job->halting && job->paused;
	vraid_job_checkpoint(vd);
	/*
	 * Rebuilt: the initialisation or resync it interrupted goes on
	 * (after the next assembly, if a halt came meanwhile).
	 */
	if (!result && !stopped && type == VRAID_JOB_REBUILD &&
	    !job->halted && vd->init_pos < vd->geom.member_sectors) {
		u32 next = job->saved_type == VRAID_JOB_RESYNC ?
			   VRAID_JOB_RESYNC : VRAID_JOB_INIT;
		char msg[VRAID_MSG_LEN];

		if (__vraid_job_start(vd, next, vd->init_pos, false, msg,
				      sizeof(msg)))
			pr_warn("%s: %s not resumed: %s\n", vd->disk->disk_name,
				vraid_job_name(next), msg);
	}
	mutex_unlock(&vd->job_lock);
	wake_up_all(&job->wait);
	/* (after every change above: a poller reads them when woken) */
	vraid_sysfs_notify(READ_ONCE(vd->kn_job));
	vraid_sysfs_notify(READ_ONCE(vd->kn_last_job));
	if (type == VRAID_JOB_REBUILD && !result && !stopped)
		vraid_sysfs_notify(READ_ONCE(vd->kn_members));
}

static void vraid_job_work(struct work_struct *work)
{
	struct vraid_vd_job *job = container_of(work, struct vraid_vd_job, work);
	struct vraid_vd *vd = container_of(job, struct vraid_vd, job);
	u32 step = vraid_job_step(vd);
	void *run = NULL;	/* the level's, for this run's steps */
	struct vraid_sync sy;
	int ret = 0;

	if (vd->ops->sync_begin) {
		ret = vd->ops->sync_begin(vd, &run);
		if (ret)
			goto out;
	}
	sy.type = job->type;
	job->run_pos = job->pos;
	job->run_start = jiffies;
	job->saved = jiffies;
	while (job->pos < job->total) {
		u64 pos = job->pos;
		/* aligned to the step (a power of two): see vraid_mirror_sync() */
		u32 len = min_t(u64, step - (pos & (step - 1)),
				job->total - pos);

		if (READ_ONCE(job->stop))
			break;
		if (READ_ONCE(job->paused)) {
			vraid_job_checkpoint(vd);
			/* Interruptible: a long pause is not a hung task. */
			wait_event_interruptible(job->wait,
						 !READ_ONCE(job->paused) ||
						 READ_ONCE(job->stop));
			job->run_pos = job->pos;
			job->run_start = jiffies;
			continue;
		}
		if (sy.type == VRAID_JOB_REBUILD && !vraid_has_rebuilding(vd)) {
			ret = -EIO;	/* the member being rebuilt failed */
			break;
		}
		if (READ_ONCE(vd->state) == VRAID_VD_OFFLINE) {
			ret = -EIO;
			break;
		}
		/* Only a rebuild goes on while a member is missing. */
		if (sy.type != VRAID_JOB_REBUILD &&
		    READ_ONCE(vd->state) != VRAID_VD_OPTIMAL) {
			pr_warn("%s: %s interrupted: the virtual drive is %s\n",
				vd->disk->disk_name, vraid_job_name(sy.type),
				vraid_state_name(READ_ONCE(vd->state)));
			break;
		}
		/* A resync with a bitmap skips the regions not dirty. */
		if (sy.type == VRAID_JOB_RESYNC && vd->bitmap &&
		    !vraid_bitmap_pending(vd, pos)) {
			u64 next = min(vraid_bitmap_next(vd, pos), job->total);

			WRITE_ONCE(job->pos, next);
			WRITE_ONCE(vd->init_pos, max(vd->init_pos, next));
			continue;
		}
		atomic64_set(&sy.mismatches, 0);
		sy.error = 0;
		ret = vd->ops->sync(vd, &sy, pos, len, run);
		atomic64_add(atomic64_read(&sy.mismatches), &job->mismatches);
		if (ret)
			break;
		/* Rows of a member lost meanwhile were skipped: do again. */
		if (sy.type != VRAID_JOB_REBUILD &&
		    READ_ONCE(vd->state) != VRAID_VD_OPTIMAL)
			continue;
		WRITE_ONCE(job->pos, pos + len);
		if (sy.type == VRAID_JOB_REBUILD)
			vraid_job_rebuilt(vd, pos, pos + len);
		if (sy.type == VRAID_JOB_INIT || sy.type == VRAID_JOB_RESYNC)
			WRITE_ONCE(vd->init_pos, max(vd->init_pos, pos + len));
		if (sy.type == VRAID_JOB_RESYNC)
			vraid_bitmap_synced(vd, pos + len);
		if (time_after(jiffies, job->saved + VRAID_CKPT_INTERVAL))
			vraid_job_checkpoint(vd);
		vraid_job_throttle(vd);
		cond_resched();
	}
out:
	if (vd->ops->sync_end)
		vd->ops->sync_end(vd, run);
	vraid_job_end(vd, ret, !ret && job->pos < job->total);
}

void vraid_job_init(struct vraid_vd *vd)
{
	mutex_init(&vd->job_lock);
	INIT_WORK(&vd->job.work, vraid_job_work);
	init_waitqueue_head(&vd->job.wait);
	atomic64_set(&vd->job.mismatches, 0);
}

/* Start job @type at member sector @from.  Called with job_lock held. */
static int __vraid_job_start(struct vraid_vd *vd, u32 type, u64 from,
			     bool paused, char *msg, size_t msglen)
{
	struct vraid_vd_job *job = &vd->job;

	if (job->halted) {
		snprintf(msg, msglen, "%s is being stopped or reconfigured",
			 vd->disk->disk_name);
		return -EBUSY;
	}
	if (job->type != VRAID_JOB_NONE) {
		snprintf(msg, msglen,
			 "%s is running a %s (%llu%%): wait for it or stop it first",
			 vd->disk->disk_name, vraid_job_name(job->type),
			 div64_u64(job->pos * 100, max_t(u64, job->total, 1)));
		return -EBUSY;
	}
	if (!vraid_vd_redundant(vd)) {
		snprintf(msg, msglen, "%s is %s: it has no redundancy to %s",
			 vd->disk->disk_name, vraid_level_name(vd->geom.level),
			 vraid_job_name(type));
		return -EINVAL;
	}
	if (READ_ONCE(vd->state) == VRAID_VD_OFFLINE) {
		snprintf(msg, msglen, "%s is offline", vd->disk->disk_name);
		return -EIO;
	}
	if (type == VRAID_JOB_REBUILD && !vraid_has_rebuilding(vd)) {
		snprintf(msg, msglen, "%s has no member to rebuild",
			 vd->disk->disk_name);
		return -EINVAL;
	}
	if (type != VRAID_JOB_REBUILD &&
	    READ_ONCE(vd->state) != VRAID_VD_OPTIMAL) {
		snprintf(msg, msglen,
			 "%s is %s: %s needs every member; replace the failed one first",
			 vd->disk->disk_name,
			 vraid_state_name(READ_ONCE(vd->state)),
			 vraid_job_name(type));
		return -EAGAIN;
	}
	/*
	 * A rebuild starts at the lowest position of its members (at the
	 * end if all are rebuilt: it ends at once, and they go online);
	 * never above, which would leave rows between unrebuilt.  No
	 * position comes down: the rows below a member's own position are
	 * its, and its step leaves them alone (vraid_member_needs_rebuild()),
	 * so that after an unclean shutdown they are never rebuilt from rows
	 * the crash may have torn on the others.
	 */
	if (type == VRAID_JOB_REBUILD)
		from = min(from, vraid_rebuild_from(vd));
	else if (from >= vd->geom.member_sectors)
		from = 0;
	job->type = type;
	/* An interrupted init or resync waits for a rebuild or check. */
	if (job->saved_type == type || type == VRAID_JOB_INIT ||
	    type == VRAID_JOB_RESYNC)
		job->saved_type = VRAID_JOB_NONE;
	job->pos = from;
	job->total = vd->geom.member_sectors;
	job->stop = false;
	job->halting = false;
	job->paused = paused;
	atomic64_set(&job->mismatches, 0);
	if (type == VRAID_JOB_INIT || type == VRAID_JOB_RESYNC)
		WRITE_ONCE(vd->init_pos, min(vd->init_pos, from));
	pr_info("%s: %s %s at sector %llu of %llu per member%s\n",
		vd->disk->disk_name, vraid_job_name(type),
		from ? "resumes" : "starts", (unsigned long long)from,
		(unsigned long long)job->total, paused ? " (paused)" : "");
	vraid_event(vd, VRAID_EV_JOB_START, VRAID_EV_NONE, "%s %s at %llu%%%s",
		    vraid_job_name(type), from ? "resumes" : "starts",
		    (unsigned long long)div64_u64(from * 100,
						  max(job->total, 1ULL)),
		    paused ? " (paused)" : "");
	queue_work(vraid_job_wq, &job->work);
	vraid_sysfs_notify(READ_ONCE(vd->kn_job));
	return 0;
}

int vraid_job_start(struct vraid_vd *vd, u32 type, u64 from, char *msg,
		    size_t msglen)
{
	int ret;

	mutex_lock(&vd->job_lock);
	ret = __vraid_job_start(vd, type, from, false, msg, msglen);
	mutex_unlock(&vd->job_lock);
	return ret;
}

/*
 * After assembly: resume what the metadata says was under way (job.type
 * and job.pos were loaded from it), or start what the state calls for.
 */
void vraid_job_resume_pending(struct vraid_vd *vd)
{
	struct vraid_vd_job *job = &vd->job;
	u32 type = job->saved_type;
	u64 from = job->pos;
	bool paused = job->paused;
	char msg[VRAID_MSG_LEN];

	mutex_lock(&vd->job_lock);
	job->paused = false;
	if (type == VRAID_JOB_CHECK || type == VRAID_JOB_REPAIR)
		type = VRAID_JOB_NONE;	/* checks are not resumed */
	if (vraid_has_rebuilding(vd)) {
		/* from what the record says each member is rebuilt up to */
		from = vraid_rebuild_from(vd);
		type = VRAID_JOB_REBUILD;
	} else if (type == VRAID_JOB_REBUILD) {
		type = VRAID_JOB_NONE;
	}
	if (type == VRAID_JOB_NONE &&
	    vd->init_pos < vd->geom.member_sectors) {
		type = VRAID_JOB_INIT;
		from = vd->init_pos;
	}
	if (type != VRAID_JOB_NONE &&
	    __vraid_job_start(vd, type, from, paused, msg, sizeof(msg)))
		pr_warn("%s: %s not resumed: %s\n", vd->disk->disk_name,
			vraid_job_name(type), msg);
	mutex_unlock(&vd->job_lock);
}

/*
 * Stop the job (the VD goes away, or a member is swapped); the checkpoint
 * is kept.  No job starts until vraid_job_unhalt(): the one that ends
 * here would otherwise start the next (an init after a rebuild) with
 * stop cleared, and run on under a VD being freed.
 */
void vraid_job_halt(struct vraid_vd *vd)
{
	struct vraid_vd_job *job = &vd->job;

	mutex_lock(&vd->job_lock);
	job->halted = true;
	job->halting = true;
	WRITE_ONCE(job->stop, true);
	mutex_unlock(&vd->job_lock);
	wake_up_all(&job->wait);
	flush_work(&job->work);
	WARN_ON_ONCE(READ_ONCE(job->type) != VRAID_JOB_NONE);
	job->halting = false;
}

/* Jobs may start again (after a member swap). */
void vraid_job_unhalt(struct vraid_vd *vd)
{
	mutex_lock(&vd->job_lock);
	vd->job.halted = false;
	mutex_unlock(&vd->job_lock);
}

int vraid_job_ctl(struct vraid_vd *vd, u32 action, u32 rate_kib, char *msg,
		  size_t msglen)
{
	struct vraid_vd_job *job = &vd->job;
	const char *dn = vd->disk->disk_name;
	char why[VRAID_MSG_LEN];
	int ret = 0;

	switch (action) {
	case VRAID_JOB_START_CHECK:
		return vraid_job_start(vd, VRAID_JOB_CHECK, 0, msg, msglen);
	case VRAID_JOB_START_REPAIR:
		return vraid_job_start(vd, VRAID_JOB_REPAIR, 0, msg, msglen);
	case VRAID_JOB_START_INIT:
		ret = vraid_job_start(vd, VRAID_JOB_INIT, 0, msg, msglen);
		if (ret)
			return ret;
		/*
		 * The record must say "not initialised, an init at work"
		 * now, not at the first checkpoint (5 s and a step later,
		 * minutes at a low rate): a VD created --init fast is on
		 * record as initialised, and a power loss before that
		 * checkpoint assembled it so, forgot the init and left the
		 * rows it had not reached inconsistent for good.
		 */
		if (vraid_md_write_all(vd, false, why, sizeof(why)))
			pr_warn("%s: cannot record the init's start: %s\n",
				dn, why);
		return 0;
	case VRAID_JOB_SET_RATE:
		WRITE_ONCE(job->rate_kib, rate_kib);
		job->run_pos = READ_ONCE(job->pos);
		job->run_start = jiffies;
		wake_up_all(&job->wait);
		return 0;
	}

	mutex_lock(&vd->job_lock);
	if (job->type == VRAID_JOB_NONE) {
		if (action == VRAID_JOB_RESUME && vraid_has_rebuilding(vd)) {
			/*
			 * A rebuild stopped or failed earlier: go on with it
			 * from each member's own position.  What lies below
			 * a position was written and completed (a member
			 * whose write failed is failed, not Rebuilding); and
			 * after an unclean shutdown, before the resync, it
			 * may be the only good copy of rows the crash tore.
			 */
			ret = __vraid_job_start(vd, VRAID_JOB_REBUILD,
						vraid_rebuild_from(vd), false,
						msg, msglen);
		} else if (action == VRAID_JOB_RESUME &&
			   vd->init_pos < vd->geom.member_sectors) {
			ret = __vraid_job_start(vd, VRAID_JOB_INIT,
						vd->init_pos, false, msg,
						msglen);
		} else {
			snprintf(msg, msglen, "%s has no job running", dn);
			ret = -ENOENT;
		}
		mutex_unlock(&vd->job_lock);
		return ret;
	}
	switch (action) {
	case VRAID_JOB_PAUSE:
		if (job->paused) {
			snprintf(msg, msglen, "the %s of %s is paused already",
				 vraid_job_name(job->type), dn);
			ret = -EALREADY;
			break;
		}
		WRITE_ONCE(job->paused, true);
		pr_info("%s: %s paused\n", dn, vraid_job_name(job->type));
		break;
	case VRAID_JOB_RESUME:
		if (!job->paused) {
			snprintf(msg, msglen, "the %s of %s is not paused",
				 vraid_job_name(job->type), dn);
			ret = -EALREADY;
			break;
		}
		WRITE_ONCE(job->paused, false);
		pr_info("%s: %s resumed\n", dn, vraid_job_name(job->type));
		break;
	case VRAID_JOB_STOP:
		WRITE_ONCE(job->stop, true);
		break;
	}
	mutex_unlock(&vd->job_lock);
	wake_up_all(&job->wait);
	if ((action == VRAID_JOB_PAUSE || action == VRAID_JOB_RESUME) && !ret)
		vraid_sysfs_notify(READ_ONCE(vd->kn_job));
	if (action == VRAID_JOB_STOP && !ret)
		flush_work(&job->work);
	return ret;
}

u32 vraid_job_eta(struct vraid_vd *vd)
{
	struct vraid_vd_job *job = &vd->job;
	u64 done = READ_ONCE(job->pos) - job->run_pos;
	u64 ms = jiffies_to_msecs(jiffies - job->run_start);

	if (job->type == VRAID_JOB_NONE || job->paused || !done || ms < 500)
		return 0;
	return (u32)min_t(u64, div64_u64((job->total - job->pos) * ms,
					 done * MSEC_PER_SEC) + 1, U32_MAX);
}

void vraid_job_status(struct vraid_vd *vd, struct vraid_job_status *st)
{
	struct vraid_vd_job *job = &vd->job;

	memset(st, 0, sizeof(*st));
	st->type = READ_ONCE(job->type);
	if (st->type != VRAID_JOB_NONE) {
		st->state = READ_ONCE(job->paused) ? VRAID_JOB_PAUSED :
			VRAID_JOB_RUNNING;
		st->done = READ_ONCE(job->pos);
		st->total = job->total;
		st->eta = vraid_job_eta(vd);
		st->mismatches = atomic64_read(&job->mismatches);
	}
	st->rate_kib = READ_ONCE(job->rate_kib);
	st->last_type = job->last_type;
	st->last_result = job->last_result;
	st->last_mismatches = job->last_mismatches;
}

void vraid_job_fill_info(struct vraid_vd *vd, struct vraid_info *info)
{
	struct vraid_job_status st;

	vraid_job_status(vd, &st);
	info->job_type = st.type;
	info->job_state = st.state;
	info->job_done = st.done;
	info->job_total = st.total;
	info->job_eta_sec = st.eta;
	info->job_mismatches = st.mismatches;
	info->job_rate_kib = st.rate_kib;
	info->last_job = st.last_type;
	info->last_result = st.last_result;
	info->last_mismatches = st.last_mismatches;
}
