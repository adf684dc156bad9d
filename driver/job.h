/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Background jobs (job.c): init, resync, rebuild, check and repair, one
 * at a time per VD, run by a work item in steps over member sectors; and
 * what a level's step (vraid_mirror_sync(), vraid_parity_sync()) shares
 * with the job that runs it.
 */
#ifndef VRAID_JOB_H
#define VRAID_JOB_H

#include <linux/types.h>
#include <linux/atomic.h>
#include <linux/completion.h>

struct vraid_vd;
struct vraid_info;
struct workqueue_struct;

int vraid_job_start(struct vraid_vd *vd, u32 type, u64 from, char *msg,
		    size_t msglen);
int vraid_job_ctl(struct vraid_vd *vd, u32 action, u32 rate_kib, char *msg,
		  size_t msglen);
void vraid_job_halt(struct vraid_vd *vd);
void vraid_job_unhalt(struct vraid_vd *vd);
void vraid_job_init(struct vraid_vd *vd);
void vraid_job_fill_info(struct vraid_vd *vd, struct vraid_info *info);

/* A snapshot of the job, for sysfs and VRAID_IOC_INFO. */
struct vraid_job_status {
	u32 type, state, eta, rate_kib, last_type, last_result;
	u64 done, total, mismatches, last_mismatches;
};
void vraid_job_status(struct vraid_vd *vd, struct vraid_job_status *st);
u32 vraid_job_eta(struct vraid_vd *vd);
const char *vraid_job_name(u32 type);
void vraid_job_resume_pending(struct vraid_vd *vd);
u64 vraid_rebuild_from(struct vraid_vd *vd);
extern struct workqueue_struct *vraid_job_wq;

/* A mirror job's step: at most this many 4 KiB pages of each member, */
#define VRAID_SYNC_PAGES	128
/* and this many units (vraid_mirror_sync_step()) */
#define VRAID_MSYNC_UNITS	16
/* A parity job's step: at most this many columns (vraid_parity_sync_step()) */
#define VRAID_PSYNC_COLUMNS	128

/* The state of a step of a job over one range of member sectors. */
struct vraid_sync {
	u32 type;			/* VRAID_JOB_* */
	atomic_t remaining;
	struct completion done;
	atomic64_t mismatches;		/* 4 KiB blocks found inconsistent */
	int error;
};

#endif /* VRAID_JOB_H */
