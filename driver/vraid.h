/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vraid internal definitions shared by the driver's files.
 *
 * Locking:
 *  - vraid_ctl_mutex (ctl.c) serialises the control plane: create, delete,
 *    list and info, and protects vraid_idr.  Never taken on the I/O path.
 *  - vraid_vd.lock protects open_count and deleting (open/release against
 *    delete).  Never taken on the I/O path.
 *  - vraid_vd.dcache_off_lock (spinlock, irq-safe) protects
 *    vraid_vd.dcache_off: writes that started before disk cache policy
 *    "disabled" and completed after it, waiting for a flush of the
 *    members (io.c).  A leaf lock: nothing is taken under it (the work
 *    drops it before vraid_io_hold() takes held_lock).
 *  - vraid_vd.later_lock (spinlock, irq-safe) protects vraid_vd.later
 *    (user bios past the controller cache that io.c could not cut inside
 *    ->submit_bio without waiting: vraid_engine_later()) and
 *    vraid_vd.ahead (read-ahead windows, never cut inside ->submit_bio:
 *    vraid_engine_ahead()).  A leaf lock.
 *  - vraid_vd.state_lock (spinlock, irq-safe) serialises changes of member
 *    states and of the VD state: taken on error paths and by the control
 *    plane, never on the normal I/O path, which reads states with
 *    READ_ONCE().
 *  - vraid_vd.md_lock (mutex) serialises metadata writes, the
 *    generation counter and a role's change of device (vd.c's
 *    vraid_vd_swap_in(), which holds vraid_ctl_mutex: that comes first);
 *    taken by the control plane, md_work and the job.
 *  - vraid_vd.held_lock (spinlock, irq-safe) protects vraid_vd.held: VD
 *    writes that completed after a member failed, and wait (unanswered)
 *    until the metadata records the failure.  Only taken while a
 *    failure is not recorded yet (fail_seq != md_seq).
 *  - The stripe cache of parity levels (parity.c) has one spinlock per
 *    hash bucket and one per stripe head; no lock covers the whole VD.
 *  - vraid_vd.job_lock (mutex) serialises starting, pausing, stopping
 *    and finishing the background job (job.c); control plane and the job
 *    work item only.  The job's progress fields are written by the job
 *    work alone and read with READ_ONCE().
 *  - The hot spare list (ctl.c) is protected by vraid_ctl_mutex.
 *  - The controller cache (cache.c) has one spinlock per hash bucket of
 *    each VD's cache; see the top of cache.c.
 *  - The journal (journal.c) has a spinlock for its ring, held for O(1)
 *    work on the write-back path, and a mutex for binding VDs and moving
 *    its tail (control plane, checkpoint); see the top of journal.c.
 *  - The I/O path takes no lock: the geometry is immutable while the VD
 *    exists; statistics are per-CPU, in-flight VD bios are counted by a
 *    percpu_ref.
 *  - A member's device changes only when a replace or a hot spare puts a
 *    new one in a failed, missing or rebuilding role (vraid_vd_swap_in(),
 *    under vraid_ctl_mutex).  Two things make that safe without a lock on
 *    the I/O path:
 *
 *    vraid_member.nr_pending counts the member I/O in flight to the
 *    role's device: every bio vraid sends to a member (clones, stripe
 *    head blocks, flushes, bitmap, metadata and job I/O, the journal's
 *    replay) takes it with vraid_member_get() before it looks at the
 *    member's state and device, and drops it with vraid_member_put() once
 *    its completion is done with the member.  The get increments, then
 *    (full barrier) reads the state; the swap fails the member, then
 *    (full barrier) reads the count (vraid_member_drain()): one of them
 *    sees the other, so once the swap has seen the count at zero with
 *    the member failed, nothing is in flight to the old device and
 *    nothing new can go there.  Only then does the role get its new
 *    device; a drain that does not end within VRAID_DRAIN_TIMEOUT refuses
 *    the swap (EBUSY), changing nothing.  The swap writes the device and
 *    the generation, then the state with a release; the get reads the
 *    state with an acquire, then the device and the generation.
 *
 *    vraid_member.gen, the slot's generation, goes up (under state_lock)
 *    each time the role gets a new device.  Each member bio records the
 *    generation it was issued under; a completion whose generation is no
 *    longer the slot's is from the old device and is never applied to the
 *    new one: no member failure (vraid_member_fail_io() compares under
 *    state_lock), no data taken as read from the role, no statistics.
 *    With the drain that cannot happen while a bio is in flight; it
 *    guards the results used after the put (a stripe head's blocks).
 */
#ifndef VRAID_H
#define VRAID_H

#include <linux/blkdev.h>
#include <linux/bio.h>
#include <linux/mutex.h>
#include <linux/mempool.h>
#include <linux/percpu-refcount.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/workqueue.h>
#include <linux/vraid.h>

#include "compat.h"
#include "core/geom.h"
#include "core/layout.h"

#define VRAID_MINORS	16	/* per VD: the disk and 15 partitions */

struct vraid_member {
	struct vraid_bdev_handle h;	/* NULL bdev once closed */
	dev_t dev;
	u32 role;
	u32 state;			/* VRAID_MEMBER_* */
	u64 dev_sectors;		/* size of the whole device */
	bool holder_linked;
	u8 uuid[16];			/* member UUID in the metadata */
	atomic_t inflight;		/* reads in flight, for read balancing */
	atomic_t nr_pending;		/* member I/O in flight (top of file) */
	u32 gen;			/* the slot's generation (top of file) */
	bool spare_waits;		/* a spare waits for its drain (ctl.c) */
	/*
	 * Rebuilding at an unclean assembly: its rows below the rebuild
	 * position are its own, but in a region dirty at the crash they
	 * may differ from the copy a member in sync holds, which reads
	 * returned meanwhile.  Until the resync after the crash is done
	 * (init_pos at the end) a mirror reads and resyncs from another
	 * copy where one is online (mirror.c).  Set before the disk goes
	 * live, cleared by a swap of the role and by the end of that
	 * resync; read anywhere (READ_ONCE).
	 */
	bool second_copy;
	/*
	 * Rebuilding: member sectors below which this device holds its
	 * blocks (md's recovery_offset, kept per rdev; one per role here,
	 * on disk in every member's table, so that nothing done for one
	 * role moves another's): rebuilt, and written by every user write
	 * since, as a member in sync is.  Parity rows below it read the
	 * member instead of reconstructing its blocks from the others,
	 * whose parity a power cut may have torn (the write hole) while
	 * the member's own copy is good.  Set to 0 before the state that
	 * makes a new device Rebuilding is published (vraid_vd_swap_in());
	 * set at assembly from the record, which the rebuild flushed before
	 * it was written (vraid_md_write_all()); raised only by the
	 * rebuild, once a step's writes to this member have completed
	 * (job.c), never lowered while the role keeps its device.  Read
	 * after the member's state, under vraid_member_get(), so never for
	 * a device other than the one the value is about:
	 * vraid_member_in_sync().  Meaningless in any other state.
	 */
	u64 rebuilt_to;
	sector_t next_seq;		/* end of the last read sent here */
	char name[BDEVNAME_SIZE];
};

/* Per-CPU statistics, summed on read. */
struct vraid_stats {
	u64 member_reads[VRAID_MAX_MEMBERS];
	u64 member_writes[VRAID_MAX_MEMBERS];
	u64 member_errors[VRAID_MAX_MEMBERS];
	u64 flushes;
	u64 read_repairs;		/* read errors corrected from redundancy */
	u64 cache_read_hits;		/* 4 KiB pages read from the cache */
	u64 cache_read_misses;		/* ... looked up, read from members */
	u64 cache_ra_hits;		/* ... hits on pages read ahead */
	u64 cache_ra_pages;		/* ... read ahead */
	u64 cache_write_pages;		/* ... written into the cache (awb) */
	u64 cache_destaged;		/* ... written from it to the members */
	u64 cache_fill_pages;		/* ... read to complete a row for it */
	u64 cache_dirty_waits;		/* writes that waited for the dirty bound */
	u64 journal_pages;		/* ... logged to the journal (wb) */
	u64 journal_writes;		/* writes logged (DATA, INVALIDATE) */
	u64 journal_refs;		/* destaged blocks named, not logged */
	u64 journal_waits;		/* writes that waited for the unlogged bound */
};

struct vraid_level_ops;
struct vraid_stripe_cache;
struct vraid_wl;
struct vraid_bitmap;
struct vraid_cache;

/* The background job of a VD (job.c); one at a time. */
struct vraid_vd_job {
	struct work_struct work;
	u32 type;			/* VRAID_JOB_*; NONE when idle */
	u32 saved_type;			/* stopped, to resume from pos */
	bool paused;
	bool stop;			/* asked to end */
	bool halting;			/* ... because the VD goes away */
	/*
	 * No job may start (job_lock): vraid_job_halt() until
	 * vraid_job_unhalt(), so that the job that ends cannot start the
	 * next one (a rebuild's init) behind the halt's back.
	 */
	bool halted;
	u32 rate_kib;			/* KiB/s per member, 0 = no limit */
	u64 pos;			/* member sectors done */
	u64 total;
	atomic64_t mismatches;
	u64 run_pos;			/* pos when the run (re)started */
	unsigned long run_start;	/* jiffies then */
	unsigned long saved;		/* jiffies of the last checkpoint */
	u32 last_type, last_result;	/* the last job that ended */
	u64 last_mismatches;
	wait_queue_head_t wait;		/* pause, stop and the end */
};

struct vraid_vd {
	int index;
	struct gendisk *disk;
	struct vraid_geom geom;
	char name[VRAID_NAME_LEN];
	u8 uuid[16];			/* VD UUID in the metadata */
	struct mutex md_lock;		/* generation, metadata writes, a role's device change */
	struct work_struct md_work;	/* rewrite metadata after a change */
	atomic_t fail_seq;		/* member failures so far */
	u32 md_seq;			/* failures the metadata records */
	spinlock_t held_lock;
	struct bio_list held;		/* writes waiting for the metadata */
	spinlock_t dcache_off_lock;
	struct bio_list dcache_off;	/* writes waiting for a member flush */
	struct work_struct dcache_off_work;
	spinlock_t later_lock;
	struct bio_list later;		/* cut on vraid_later_wq (io.c) */
	struct bio_list ahead;		/* read-ahead windows, likewise */
	struct work_struct later_work;
	u64 generation;			/* metadata generation */
	u64 created;			/* seconds since the epoch */
	bool clean;			/* stopped cleanly (metadata flag) */
	u32 state;			/* VRAID_VD_* */
	/*
	 * sysfs attributes pollers wait on (vraid_sysfs_notify()): looked
	 * up once the disk is live, referenced until the VD is freed; NULL
	 * before (and if the lookup failed).
	 */
	struct kernfs_node *kn_state, *kn_members, *kn_job, *kn_last_job;
	u32 access_policy;
	u32 disk_cache_policy;
	u32 io_policy;
	u32 read_policy;
	u32 write_policy;
	/*
	 * The journal (journal.c): metadata fields (md_lock; the control
	 * plane), whether writes are logged now (jbound: vds_mutex; read on
	 * the I/O path) and whether column writes log parity records
	 * (jparity, the same: every one from the bind until the unbind's
	 * metadata write), with the records in flight (jrefs).  While the
	 * unbind drains the cache (jaround, the same), writes go around it
	 * to the members and log INVALIDATEs, as a bound VD's writes the
	 * cache does not take do.
	 */
	u8 journal_uuid[16];
	u64 journal_floor;
	u32 cache_flags;		/* VRAID_MD_CF_* */
	bool jbound;
	bool jparity;
	bool jaround;
	bool junbinding;		/* vds_mutex; read on the I/O path */
	struct list_head jnode;		/* the journal's bound VDs */
	atomic_t jrefs;
	wait_queue_head_t jwait;	/* jrefs reaching zero */
	/*
	 * 1 + the member whose flush vraid_members_flush() waits for, 0 if
	 * none: racy, for the messages to requests that wait meanwhile.
	 */
	u32 flushing;
	/*
	 * Member sectors below which parity (or the mirror copies) is known
	 * consistent; member_sectors when all is.  Above it, parity writes
	 * reconstruct (never read-modify-write) and mirror reads use the
	 * first copy.  Advanced by init and resync jobs.
	 */
	u64 init_pos;

	struct mutex job_lock;		/* see the top of this file */
	struct vraid_vd_job job;

	spinlock_t state_lock;		/* member states, state */
	/* the level (level.h): set with the geometry, never changed */
	const struct vraid_level_ops *ops;
	struct bio_set clone_set;	/* stripe clones, one per VD bio */
	struct bio_set mirror_set;	/* mirror clones, one per copy */
	mempool_t mio_pool;		/* struct vraid_mio */
	struct vraid_wl *wl;		/* mirror writes in flight */
	struct vraid_stripe_cache *sc;	/* parity levels only */
	struct vraid_bitmap *bitmap;	/* redundant levels only */
	struct vraid_cache *cache;	/* cache.c; set while the VD lives */
	struct bio_set flush_set;	/* empty member flushes, from wq only */
	struct bio_set split_set;	/* discards cut at strip ends */
	mempool_t flush_pool;		/* struct vraid_flush */
	struct vraid_stats __percpu *stats;

	struct percpu_ref active;	/* VD bios in flight */
	struct completion active_done;

	struct mutex lock;		/* open_count, deleting */
	unsigned int open_count;
	bool deleting;

	struct vraid_member members[VRAID_MAX_MEMBERS];
};

/* ctl.c */
/*
 * vraid_wq: I/O-path work (flush fan-out, bitmap clear, stripe and
 * mirror work).  Flushed whole at a VD's teardown under vraid_ctl_mutex,
 * so no work on it may take that mutex (the spare work runs on
 * system_long_wq).
 *
 * vraid_wait_wq: I/O-path work that may wait for work on vraid_wq to make
 * progress (a free stripe head, a mempool element): parked writes let go
 * after the bitmap write, degraded-read retries.  On vraid_wq such an
 * item could hold its rescuer, under memory pressure the only worker,
 * while the work it waits for sits behind it.  Same rule for the mutex.
 *
 * vraid_flush_wq: the end of a VD flush, which resubmits the flush's data
 * part; that may wait for work on vraid_wq and on vraid_wait_wq (a parked
 * write's bitmap write), so it has a rescuer of its own.
 *
 * vraid_dcache_wq: the member flush that writes in flight across a change
 * of the disk cache policy to "disabled" wait for (io.c); destage writes
 * may be among them, and work on the other queues (a flush's data part)
 * may wait for destages, so it has a rescuer of its own too.
 *
 * vraid_later_wq: the rest of a user bio past the controller cache that
 * io.c could not cut inside ->submit_bio (vraid_engine_later()), and the
 * read-ahead windows (vraid_engine_ahead()).  Its
 * level's submit may wait for work on every queue above (a stripe head,
 * a mempool element), and a checkpoint may wait for it (a write sent
 * around the cache of a journalled VD), so it has a rescuer of its own.
 */
extern struct workqueue_struct *vraid_wq;
extern struct workqueue_struct *vraid_wait_wq;
extern struct workqueue_struct *vraid_flush_wq;
extern struct workqueue_struct *vraid_dcache_wq;
extern struct workqueue_struct *vraid_later_wq;
/*
 * Set once by the reboot notifier (ctl.c) before it writes the caches
 * out: from then on no write goes into an awb cache (cache.c), so that
 * what the write-out leaves behind is not acknowledged by a cache the
 * reboot then drops.  Never cleared: the kernel is going down.
 */
extern bool vraid_going_down;
int vraid_idr_alloc(struct vraid_vd *vd);
void vraid_spare_kick(void);
void vraid_bind_all(void);
void vraid_idr_remove(int index);
struct vraid_vd *vraid_find_uuid(const u8 *uuid);

/* vd.c */
int vraid_vd_create(struct vraid_create *c);
int vraid_vd_assemble(struct vraid_assemble *a,
		      bool (*name_taken)(const char *name));
int vraid_vd_delete(struct vraid_vd *vd, bool stop, bool discard,
		    u64 *discarded, char *msg, size_t msglen);
void vraid_vd_fill_info(struct vraid_vd *vd, struct vraid_info *info);
u32 vraid_write_effective(struct vraid_vd *vd, u32 *cache_flags);
int vraid_members_flush(struct vraid_vd *vd);
int vraid_members_flush_fail(struct vraid_vd *vd);
void vraid_note_write_policy(struct vraid_vd *vd);
int vraid_vd_set_policy(struct vraid_vd *vd, const struct vraid_set_policy *p,
			char *msg, size_t len);
int vraid_vd_swap_check(struct vraid_vd *vd, struct block_device *bdev,
			char *msg, size_t len);
/*
 * How long a replace waits for the I/O in flight to the device it takes
 * out (vraid_vd_swap_drain()); a hot spare waits VRAID_DRAIN_TIMEOUT_SPARE
 * and tries again later, so as not to hold the control plane.
 */
#define VRAID_DRAIN_TIMEOUT		(10 * HZ)
#define VRAID_DRAIN_TIMEOUT_SPARE	(HZ / 2)
int vraid_vd_swap_drain(struct vraid_vd *vd, u32 role, unsigned long timeout,
			char *msg, size_t len);
int vraid_vd_swap_in(struct vraid_vd *vd, u32 role,
		     struct vraid_bdev_handle *h, char *msg, size_t len);
extern const struct block_device_operations vraid_fops;

/*
 * The testing-only delay knobs (debug_bm_set_delay_ms in bitmap.c,
 * debug_md_write_delay_ms in md.c, debug_asm_live_delay_ms in vd.c):
 * sleep @ms, at most 10 s, since the callers hold locks other writes
 * wait for; 0, the default, never waits.
 *
 * They ship in every build (the VM suite tests the module users load),
 * so a knob set on a production machine must not go unnoticed: the
 * first delay taken says so in the kernel log (once per file using it).
 */
static inline void vraid_debug_delay(unsigned int ms)
{
	ms = min(ms, 10000U);
	if (likely(!ms))
		return;
	pr_warn_once("vraid: a testing delay knob (debug_*_ms) is set: I/O and commands stall on purpose; set it to 0 outside tests\n");
	msleep(ms);
}

/*
 * A vraid VD (any partition of one counts).  Spares and replacements may
 * not be VDs: a VD taking itself, or one stacked on it, as a member would
 * send its own I/O back to itself.
 */
static inline bool vraid_is_vd(struct block_device *bdev)
{
	return bdev->bd_disk->fops == &vraid_fops;
}
extern int vraid_major;

/* md.c */
int vraid_md_write_all(struct vraid_vd *vd, bool wipe, char *msg,
		       size_t msglen);
void vraid_md_work(struct work_struct *work);
struct vraid_md;
int vraid_md_wipe_dev(struct block_device *bdev);
int vraid_md_io(struct block_device *bdev, sector_t sector,
		struct page *page, blk_opf_t opf);
int vraid_md_read(struct block_device *bdev, struct vraid_md *md, char *msg,
		  size_t msglen);

/* io.c */
void vraid_submit_bio(struct bio *bio);
/*
 * vraid_engine_submit() flags, and what a level's submit is told.  Without
 * VRAID_SUB_USER a bio is the driver's own (destage, read-ahead, row
 * fill, replay): not in the VD's disk stats, past the cache's paths.
 */
/* a user's bio, or a clone sent in its place: counted, read via the cache */
#define VRAID_SUB_USER		(1U << 0)
/* a user bio past the cache's write paths (it waited for older dirty data) */
#define VRAID_SUB_CHECKED	(1U << 1)
/* a destage: its pages are the cache's (vraid_journal_page_version()) */
#define VRAID_SUB_DESTAGE	(1U << 2)
void vraid_engine_submit(struct vraid_vd *vd, struct bio *bio, u32 flags);
int vraid_io_init(struct vraid_vd *vd);
void vraid_io_exit(struct vraid_vd *vd);

/* bio_start_io_acct(), never 0: 0 is "not counted" where a start is kept */
static inline unsigned long vraid_acct_start(struct bio *bio)
{
	return bio_start_io_acct(bio) ?: 1;
}

/* crc.c: vraid_crc32c() itself is declared in metadata.h */
void vraid_crc_init(void);
void vraid_crc_exit(void);

/* member.c */
bool vraid_member_fail(struct vraid_vd *vd, u32 member, const char *why);
bool vraid_member_fail_io(struct vraid_vd *vd, u32 member, u32 gen,
			  const char *why);
int vraid_member_fail_admin(struct vraid_vd *vd, u32 member, bool force,
			    char *msg, size_t msglen);
void vraid_vd_update_state(struct vraid_vd *vd);
bool vraid_vd_redundant(const struct vraid_vd *vd);

static inline bool vraid_member_ok(struct vraid_vd *vd, u32 member)
{
	return READ_ONCE(vd->members[member].state) == VRAID_MEMBER_ONLINE;
}

/*
 * Does @member hold its blocks of the parity rows that end at or below
 * member sector @end?  Online members do; Rebuilding ones below their
 * own vraid_member.rebuilt_to.  Any context; the answer is about the
 * device the role holds while the caller holds the member
 * (vraid_member_get()), or, read earlier, a guess that the caller checks
 * again then.
 */
static inline bool vraid_member_in_sync(struct vraid_vd *vd, u32 member,
					u64 end)
{
	u32 state;

	/*
	 * The position is read after the state (acquire): a device made
	 * Rebuilding by a swap is seen with the 0 the swap wrote before it,
	 * or with a later value of its own rebuild (pairs with the release
	 * in vraid_vd_swap_in()).
	 */
	state = smp_load_acquire(&vd->members[member].state);
	if (state == VRAID_MEMBER_ONLINE)
		return true;
	return state == VRAID_MEMBER_REBUILDING &&
	       end <= READ_ONCE(vd->members[member].rebuilt_to);
}

/*
 * Does the rebuild still have to write @member's blocks of the rows that
 * end at or below member sector @end?  Rebuilding, and not rebuilt up to
 * there.  Job work and assembly (the positions do not move under them).
 */
static inline bool vraid_member_needs_rebuild(struct vraid_vd *vd,
					      u32 member, u64 end)
{
	return READ_ONCE(vd->members[member].state) ==
	       VRAID_MEMBER_REBUILDING &&
	       end > READ_ONCE(vd->members[member].rebuilt_to);
}

/* Disk cache policy "disabled": member writes carry FUA. */
static inline blk_opf_t vraid_member_fua(struct vraid_vd *vd)
{
	return READ_ONCE(vd->disk_cache_policy) == VRAID_DCACHE_DISABLED ?
	       REQ_FUA : 0;
}

/* Writes go to online and rebuilding members. */
static inline bool vraid_member_writable(struct vraid_vd *vd, u32 member)
{
	u32 state = READ_ONCE(vd->members[member].state);

	return state == VRAID_MEMBER_ONLINE || state == VRAID_MEMBER_REBUILDING;
}

/*
 * The member states in which vraid_member_get() lets a bio through: reads
 * go to Online members, writes and flushes to Online and Rebuilding ones;
 * any state for levels without redundancy, whose members never change
 * device, and for a wipe (the caller checks that there is a device).
 */
#define VRAID_MGET_ONLINE	BIT(VRAID_MEMBER_ONLINE)
#define VRAID_MGET_WRITABLE	(BIT(VRAID_MEMBER_ONLINE) | \
				 BIT(VRAID_MEMBER_REBUILDING))
#define VRAID_MGET_ANY		U32_MAX

/* Drop what vraid_member_get() took.  Any context. */
static inline void vraid_member_put(struct vraid_vd *vd, u32 member)
{
	/*
	 * Whatever the completion read of the member (its name, its
	 * generation) is read before the count lets a swap reuse the slot:
	 * pairs with the smp_mb() after vraid_member_drain()'s last read.
	 */
	smp_mb__before_atomic();
	atomic_dec(&vd->members[member].nr_pending);
}

/*
 * Take @member of @vd for one bio if its state is in @states (VRAID_MGET_*),
 * and its generation into *@gen (if @gen).  Returns false, holding
 * nothing, if the member may not take the bio now.  On true the caller
 * sends it to vd->members[member].h.bdev, keeps *@gen with it and calls
 * vraid_member_put() once its completion is done with the member.  The
 * state is the one read here, not one read earlier: a member may fail,
 * and its role get a new device, between a decision and the I/O.  Any
 * context.
 */
static inline bool vraid_member_get(struct vraid_vd *vd, u32 member,
				    u32 states, u32 *gen)
{
	struct vraid_member *m = &vd->members[member];
	u32 state;

	atomic_inc(&m->nr_pending);
	/*
	 * The count before the state: pairs with the smp_mb() between the
	 * failure and the count in vraid_member_drain().  Either the drain
	 * sees this count and waits for it, or this sees the member failed.
	 */
	smp_mb__after_atomic();
	/*
	 * Acquire: the device and the generation are read after the state
	 * that allows them; pairs with the release that publishes a new
	 * device as Rebuilding (vraid_vd_swap_in()).
	 */
	state = smp_load_acquire(&m->state);
	if (unlikely(!(states & BIT(state)))) {
		vraid_member_put(vd, member);
		return false;
	}
	if (gen)
		*gen = READ_ONCE(m->gen);
	return true;
}

/* Was a bio issued under @gen sent to the device @member holds now? */
static inline bool vraid_member_current(struct vraid_vd *vd, u32 member,
					u32 gen)
{
	return READ_ONCE(vd->members[member].gen) == gen;
}

/*
 * A bio of a striped or mirrored VD with a strip lies within one unit of
 * 1 << this sectors (chunk_sectors, and io.c cuts discards likewise): the
 * strip, but 1 MiB on RAID1, where the strip means nothing to the layout
 * (md raid1 does not cut bios at all) and only mirror.c's in-flight
 * write ranges, kept per unit, need a bound.  1 MiB is the smallest
 * write-intent region (VRAID_BM_MIN_SHIFT, metadata.h), and strips are
 * 1 MiB at most, so a unit never crosses a region; nor does a job's step
 * (at most 512 KiB, aligned to its size), which on RAID10 may hold
 * several units (vraid_mirror_sync()).
 */
#define VRAID_MIRROR1_UNIT_SHIFT	11

static inline u32 vraid_unit_shift(const struct vraid_geom *g)
{
	return g->level == VRAID_LEVEL_1 ? VRAID_MIRROR1_UNIT_SHIFT :
	       g->strip_shift;
}

/* sysfs.c */
extern const struct attribute_group *vraid_disk_groups[];
void vraid_sysfs_notify_init(struct vraid_vd *vd);
void vraid_sysfs_notify_exit(struct vraid_vd *vd);
void vraid_sysfs_notify(struct kernfs_node *kn);
void vraid_stats_sum(struct vraid_vd *vd, struct vraid_stats *sum);
void vraid_member_stats_reset(struct vraid_vd *vd, u32 role);
const char *vraid_state_name(u32 state);
const char *vraid_member_state_name(u32 state);

#endif /* VRAID_H */
