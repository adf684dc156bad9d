/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The RAID engine's levels: one struct vraid_level_ops per family, as md's
 * personalities and dm's target types.
 *
 *   stripe.c   JBOD and RAID0: remap and clone, no redundancy
 *   mirror.c   RAID1 and RAID10 (md raid10 "near 2")
 *   parity.c   RAID5, RAID6, RAID50 and RAID60, through the stripe cache
 *
 * A VD gets its ops once, when it is set up (vraid_level_ops_of(), from
 * the table of levels in io.c), and keeps them for its life; the
 * rest of the driver calls vd->ops and never asks which level the VD is.
 * The level's arithmetic - where a virtual sector lies, which members
 * hold parity - stays in the portable core (layout.c, geom.c), shared
 * with vraidctl and the unit tests.  A new level is its own file, an
 * entry here, and one line of the table.
 *
 * What the engine gives the levels (io.c): a bio that lies in one unit
 * (a strip; RAID1: 1 MiB; vraid_unit_shift()), past the front door and
 * the controller cache; every VD bio a level takes starts with
 * vraid_io_start() and ends with vraid_io_done().
 */
#ifndef VRAID_LEVEL_H
#define VRAID_LEVEL_H

#include <linux/types.h>

struct bio;
struct queue_limits;
struct vraid_vd;
struct vraid_geom;
struct vraid_sync;

struct vraid_level_ops {
	/*
	 * Per-VD state of the level (pools, the stripe cache), set up before
	 * the VD takes I/O and torn down once none is in flight (io.c's
	 * vraid_io_init() and vraid_io_exit()).  May sleep.  Optional.
	 */
	int (*init)(struct vraid_vd *vd);
	void (*exit)(struct vraid_vd *vd);

	/*
	 * Take a VD bio: a user's past the access checks, the flushes and
	 * the controller cache, or the driver's own; not empty, within the
	 * VD and within one unit (vraid_engine_cut()).  @flags are
	 * VRAID_SUB_*.  Called from ->submit_bio (current->bio_list set: the
	 * member bios are sent when it returns; one piece a call on levels
	 * without row_writes) or from process context (a work item, the
	 * journal's replay at assembly), never from a completion; may sleep
	 * in a mempool.  Sends nothing to the
	 * VD's own queue.  The level answers the bio, with an error if it
	 * must.
	 */
	void (*submit)(struct vraid_vd *vd, struct bio *bio, u32 flags);

	/*
	 * The queue limits only the level knows (chunk_sectors, whether
	 * discards and write-zeroes are offered), set after the members'
	 * limits are stacked and io_min/io_opt are set (vd.c).
	 */
	void (*limits)(struct vraid_vd *vd, struct queue_limits *lim);

	/*
	 * How many members of one failure group may be missing with every
	 * block still readable, and how wide such a group is (a mirror set,
	 * a parity span, or the whole VD).  0 tolerated: no redundancy, no
	 * jobs, no write-intent bitmap, no hot spares.
	 */
	u32 (*tolerance)(const struct vraid_geom *g);
	u32 (*group_width)(const struct vraid_geom *g);

	/*
	 * A background job's step (job.c), for levels with redundancy:
	 * sync_step() is the member sectors of one step, a power of two;
	 * sync_begin() allocates what the steps of a run need (returned in
	 * *@run, freed by sync_end()); sync() does one step, [@msector,
	 * +@len) of every member, and returns once its I/O is done.  On the
	 * job's work item: may sleep.  sync_begin/sync_end are optional.
	 */
	u32 (*sync_step)(struct vraid_vd *vd);
	int (*sync_begin)(struct vraid_vd *vd, void **run);
	void (*sync_end)(struct vraid_vd *vd, void *run);
	int (*sync)(struct vraid_vd *vd, struct vraid_sync *sy, u64 msector,
		    u32 len, void *run);

	/*
	 * Members were written around the level (a role got a new device,
	 * vd.c; the journal's replay wrote member blocks): forget every
	 * member block the level keeps.  No I/O of the VD runs.  Optional.
	 */
	void (*invalidate)(struct vraid_vd *vd);

	/*
	 * Writes of part of a row read the rest of it to update redundancy
	 * computed over the row (parity), so that: the controller cache
	 * destages and fills whole rows, and a torn row after a crash (the
	 * write hole) is wrong on a member that is missing later.
	 */
	bool row_writes;
};

extern const struct vraid_level_ops vraid_stripe_ops;
extern const struct vraid_level_ops vraid_mirror_ops;
extern const struct vraid_level_ops vraid_parity_ops;

/* The ops of VRAID_LEVEL_* @level, NULL for a level the driver lacks. */
const struct vraid_level_ops *vraid_level_ops_of(u32 level);

/* io.c, for the levels */
unsigned long vraid_io_start(struct vraid_vd *vd, struct bio *bio, u32 flags);
void vraid_io_done(struct vraid_vd *vd, struct bio *bio, unsigned long start);

#endif /* VRAID_LEVEL_H */
