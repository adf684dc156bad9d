/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * vraid - software RAID controller: userspace ABI.
 *
 * Every request starts with struct vraid_ioc_hdr.  The ioctl number encodes
 * only the header; hdr.size says how large the whole request buffer is, so
 * a command's struct can grow at its end without changing the ioctl number
 * (the scheme of include/uapi/linux/dm-ioctl.h).  The kernel copies the
 * header, checks magic, version and size, then copies hdr.size bytes.
 *
 * Rules for growing the ABI:
 *  - VRAID_ABI_MAJOR changes only when an existing field changes meaning;
 *    the kernel refuses a different major with EPROTO.
 *  - New input fields take reserved words (which older tools leave zero,
 *    so zero must mean "as before"); the member and VD arrays keep their
 *    v1 sizes.  Fields past a command's struct may only be appended once
 *    its reserved words run out; the kernel accepts a request up to
 *    VRAID_IOC_MAX_SIZE whose unknown tail is all zero, and refuses one
 *    whose unknown tail is not (E2BIG).
 *  - Reserved input fields must be zero (EINVAL otherwise); reserved
 *    fields of replies ("out") are zero today and may carry data later.
 *  - On failure the ioctl returns -1 with errno set; hdr.status holds the
 *    same negative errno and hdr.message a NUL-terminated, human-readable
 *    reason.  On success hdr.status is 0 and the whole struct is copied
 *    back.
 */
#ifndef _UAPI_LINUX_VRAID_H
#define _UAPI_LINUX_VRAID_H

#include <linux/types.h>
#include <linux/ioctl.h>

#define VRAID_CONTROL_NAME	"vraid-control"	/* /dev/vraid-control */
#define VRAID_DISK_PREFIX	"vraid"		/* /dev/vraid0, /dev/vraid1... */

#define VRAID_IOC_MAGIC		0x56524149U	/* "VRAI" */
#define VRAID_ABI_MAJOR		1
/*
 * Minor 1: FAIL_MEMBER; 2: ASSEMBLE, stop; 3: init, JOB, SPARE, REPLACE;
 * 4: SET_POLICY, policies at create; 5: write policy 2 is "always write
 * back" (VRAID_WRITE_BACK_ALWAYS), write-back is accepted, INFO reports
 * the write policy in effect (write_policy_effective, cache_flags);
 * 6: io policy cached is accepted (the controller cache's reads);
 * 7: read policy read-ahead is accepted; CONTROLLER (show the controller
 * cache, set its size); 8: write policy always write-back is accepted (a
 * volatile write-back cache); 9: the controller's journal (CONTROLLER
 * JOURNAL_ATTACH, _DETACH, _DISCARD), write-back journalled while it is
 * healthy, ASSEMBLE's VRAID_ASM_NO_JOURNAL; 10: ASSEMBLE says what it
 * replayed from the journal (replayed, replay_parity, replay_superseded,
 * formerly reserved2[0..1]); 11: DELETE writes the controller cache out
 * before the disk goes and fails (EIO) if it cannot, unless
 * VRAID_DELETE_DISCARD; it reports what it discarded (discarded_bytes,
 * formerly reserved2[0]); 12: EVENTS, the controller's event log;
 * ASSEMBLE refuses (EUCLEAN) a parity VD not shut down cleanly with dirty
 * rows it cannot reconstruct (a member missing or not rebuilt there)
 * unless VRAID_ASM_FORCE; 13: the control device is pollable: poll(2)
 * reports it readable (POLLIN) while the log holds events newer than the
 * last EVENTS reply through that open file said (its @next); 14: hot
 * spares are persisted: SPARE ADD writes a hot spare record on the device
 * (on-disk-format.rst) and REMOVE erases it; ADD takes
 * VRAID_SPARE_VD_UUID (dedicated to the VD of @vd_uuid, which need not
 * run yet, formerly reserved2[0..1]); a spare dedicated to a VD stays so
 * when the VD stops (it serves none meanwhile) and becomes global when the
 * VD is deleted; LIST says so in @info_flags (formerly reserved1) and
 * @vd_uuid (formerly reserved2[0..1]); ASSEMBLE's VRAID_ASM_NAME names
 * the VD @name (an in field with it) instead of its metadata's name.
 */
#define VRAID_ABI_MINOR		14

#define VRAID_MAX_MEMBERS	32	/* members of one virtual drive */
#define VRAID_MAX_VDS		256	/* virtual drives per system */
/*
 * VD name (label): "" or up to 31 of [A-Za-z0-9._-], not starting with
 * '-', not all digits and not of the form vraid<digits> (those name VDs
 * by number); unique among the VDs of a system.
 */
#define VRAID_NAME_LEN		32
#define VRAID_DEVNAME_LEN	32	/* kernel device name, NUL-terminated */
#define VRAID_MSG_LEN		128	/* reply message, NUL-terminated */
#define VRAID_IOC_MAX_SIZE	65536	/* largest request accepted */

/* Strip size limits in bytes (powers of two). */
#define VRAID_STRIP_MIN		4096U
#define VRAID_STRIP_MAX		1048576U
#define VRAID_STRIP_DEFAULT	65536U

/*
 * Fixed offset of the data area on every member, in 512-byte sectors
 * (8 MiB).  The space before it is reserved for vraid metadata.
 */
#define VRAID_DATA_OFFSET_SECTORS	16384ULL
/* A member must offer at least this much data area (1 MiB, in sectors). */
#define VRAID_MIN_DATA_SECTORS		2048ULL

/* RAID levels (values of vraid_create.level and vraid_info.level). */
#define VRAID_LEVEL_0		0
#define VRAID_LEVEL_1		1
#define VRAID_LEVEL_5		5
#define VRAID_LEVEL_6		6
#define VRAID_LEVEL_10		10
#define VRAID_LEVEL_50		50
#define VRAID_LEVEL_60		60
#define VRAID_LEVEL_JBOD	255

/* Virtual drive states. */
#define VRAID_VD_OPTIMAL	1
#define VRAID_VD_DEGRADED	2
#define VRAID_VD_REBUILDING	3
#define VRAID_VD_OFFLINE	4

/* Member states. */
#define VRAID_MEMBER_ONLINE	1
#define VRAID_MEMBER_FAILED	2
#define VRAID_MEMBER_REBUILDING	3
#define VRAID_MEMBER_MISSING	4

/* Access policy. */
#define VRAID_ACCESS_RW		0
#define VRAID_ACCESS_RO		1
#define VRAID_ACCESS_BLOCKED	2

/* Disk cache policy: leave the members' own setting, or force it. */
#define VRAID_DCACHE_DEFAULT	0
#define VRAID_DCACHE_ENABLED	1
#define VRAID_DCACHE_DISABLED	2

/* I/O policy. */
#define VRAID_IO_DIRECT		0
#define VRAID_IO_CACHED		1

/* Read policy. */
#define VRAID_READ_NORA		0
#define VRAID_READ_AHEAD	1

/*
 * Write policy: write-through; write-back while the journal (the
 * controller's "battery") is healthy, else write-through; always
 * write-back, with a volatile cache when there is no journal.
 */
#define VRAID_WRITE_THROUGH	0
#define VRAID_WRITE_BACK	1
#define VRAID_WRITE_BACK_ALWAYS	2
#define VRAID_WRITE_BACK_BBU	VRAID_WRITE_BACK_ALWAYS	/* its ABI 1.4 name */

/* The write policy in effect (vraid_info.write_policy_effective). */
#define VRAID_WEFF_THROUGH	0	/* completion when on the members */
#define VRAID_WEFF_BACK		1	/* journalled write-back */
#define VRAID_WEFF_BACK_VOLATILE 2	/* write-back, volatile cache */
#define VRAID_WEFF_DRAINING	3	/* going towards less caching */

/* Why it differs from the policy (vraid_info.cache_flags). */
#define VRAID_CACHE_NO_JOURNAL	(1U << 0)	/* wb without a journal */
#define VRAID_CACHE_JOURNAL_FAILED (1U << 1)	/* the journal failed */

/* Initialisation of a new redundant VD (vraid_create.init). */
#define VRAID_INIT_FAST		0	/* none: trust the members as they are */
#define VRAID_INIT_BACKGROUND	1	/* a job makes parity/copies consistent */
#define VRAID_INIT_FULL		2	/* the same job; the tool waits for it */

/* Background jobs (vraid_info.job_type). */
#define VRAID_JOB_NONE		0
#define VRAID_JOB_INIT		1	/* make parity or copies consistent */
#define VRAID_JOB_REBUILD	2	/* rebuild rebuilding members */
#define VRAID_JOB_CHECK		3	/* count mismatches, change nothing */
#define VRAID_JOB_REPAIR	4	/* count mismatches and fix them */
#define VRAID_JOB_RESYNC	5	/* after an unclean shutdown */

/* Job states (vraid_info.job_state). */
#define VRAID_JOB_RUNNING	1
#define VRAID_JOB_PAUSED	2

/*
 * Reply flags (vraid_ioc_hdr.flags, out).  BUSY: status -EBUSY because
 * another request held the controller for the second the module waits;
 * nothing was done, the message says what holds it: ask again.
 */
#define VRAID_IOC_REPLY_BUSY	(1U << 0)

/* Common header of every request. */
struct vraid_ioc_hdr {
	__u32 magic;		/* in: VRAID_IOC_MAGIC */
	__u32 size;		/* in: size of the whole request, bytes */
	__u16 version_major;	/* in: VRAID_ABI_MAJOR; out: kernel's */
	__u16 version_minor;	/* in: VRAID_ABI_MINOR; out: kernel's */
	__s32 status;		/* out: 0 or -errno */
	__u32 flags;		/* in: zero; out: VRAID_IOC_REPLY_* */
	__u32 reserved;		/* must be zero */
	char message[VRAID_MSG_LEN];	/* out: why, when status != 0 */
};

/* A member named by its device number (as stat(2) reports it). */
struct vraid_member_ref {
	__u32 major;
	__u32 minor;
};

/* VRAID_IOC_CREATE */
struct vraid_create {
	struct vraid_ioc_hdr hdr;
	__u32 level;		/* in: VRAID_LEVEL_* */
	__u32 strip_bytes;	/* in: 0 = default (64 KiB) */
	__u32 nr_members;	/* in: 1..VRAID_MAX_MEMBERS */
	__u32 spans;		/* in: RAID50/60 span count, else 0 */
	char name[VRAID_NAME_LEN];	/* in: optional label, "" = none */
	__u32 index;		/* out: N of /dev/vraidN */
	__u32 init;		/* in: VRAID_INIT_*; redundant levels only */
	char disk_name[VRAID_DEVNAME_LEN];	/* out: "vraidN" */
	/* in: policies; zero is each one's default (see SET_POLICY) */
	__u32 access_policy;	/* VRAID_ACCESS_* */
	__u32 disk_cache_policy;	/* VRAID_DCACHE_* */
	__u32 io_policy;	/* VRAID_IO_* */
	__u32 read_policy;	/* VRAID_READ_* */
	__u32 write_policy;	/* VRAID_WRITE_* */
	__u32 reserved1;	/* must be zero */
	__u64 reserved2[5];	/* must be zero */
	struct vraid_member_ref members[VRAID_MAX_MEMBERS];	/* in */
};

/* VRAID_IOC_DELETE flags */
#define VRAID_DELETE_STOP	(1U << 0)	/* keep the metadata (stop) */
/*
 * The controller cache's dirty data could not be written to the members
 * (a member error, an Offline VD): discard it, and the journal's copy,
 * and go on.  Without it such a DELETE fails with EIO and keeps the VD
 * running with its dirty data (ABI 1.11).
 */
#define VRAID_DELETE_DISCARD	(1U << 1)

/*
 * VRAID_IOC_DELETE: delete a VD, or with VRAID_DELETE_STOP only stop it.
 * Dirty data of the controller cache is written to the members first.
 */
struct vraid_delete {
	struct vraid_ioc_hdr hdr;
	__u32 index;		/* in: N of /dev/vraidN */
	__u32 del_flags;	/* in: VRAID_DELETE_*; unknown bits EINVAL */
	__u64 discarded_bytes;	/* out: dirty bytes VRAID_DELETE_DISCARD dropped */
	__u64 reserved2[3];	/* must be zero */
};

/* VRAID_IOC_LIST */
struct vraid_list {
	struct vraid_ioc_hdr hdr;
	__u32 nr_vds;		/* out: number of valid entries in index[] */
	__u32 reserved1;	/* must be zero */
	__u64 reserved2[4];	/* must be zero */
	__u32 index[VRAID_MAX_VDS];	/* out: N of each /dev/vraidN */
};

struct vraid_member_info {
	__u32 major;
	__u32 minor;
	__u32 state;		/* VRAID_MEMBER_* */
	__u32 role;		/* position in the VD, 0-based */
	__u64 dev_sectors;	/* size of the whole member device */
	__u64 data_sectors;	/* data area of this member in use by the VD */
	char dev_name[VRAID_DEVNAME_LEN];	/* kernel name, e.g. "nvme0n1" */
	__u64 read_ios;		/* member I/O issued by the VD */
	__u64 write_ios;
	__u64 errors;		/* I/O errors seen on this member */
	__u64 reserved[4];	/* out */
};

/* VRAID_IOC_INFO */
struct vraid_info {
	struct vraid_ioc_hdr hdr;
	__u32 index;		/* in: N of /dev/vraidN */
	__u32 level;		/* out: VRAID_LEVEL_* */
	__u32 state;		/* out: VRAID_VD_* */
	__u32 strip_bytes;	/* out */
	__u32 nr_members;	/* out */
	__u32 spans;		/* out: 0 unless RAID50/60 */
	__u32 open_count;	/* out: openers of /dev/vraidN */
	__u32 logical_block_size;	/* out: bytes */
	__u64 size_sectors;	/* out: capacity of the VD */
	__u64 data_offset_sectors;	/* out: start of data on each member */
	__u64 member_data_sectors;	/* out: data area used on each member */
	char name[VRAID_NAME_LEN];	/* out */
	char disk_name[VRAID_DEVNAME_LEN];	/* out: "vraidN" */
	__u32 access_policy;	/* out: VRAID_ACCESS_* */
	__u32 disk_cache_policy;	/* out: VRAID_DCACHE_* */
	__u32 io_policy;	/* out: VRAID_IO_* */
	__u32 read_policy;	/* out: VRAID_READ_* */
	__u32 write_policy;	/* out: VRAID_WRITE_* */
	__u32 full_stripe_bytes;	/* out: data per stripe row, 0 for JBOD */
	/* The background job, if any (in: these must be zero). */
	__u32 job_type;		/* out: VRAID_JOB_* */
	__u32 job_state;	/* out: VRAID_JOB_RUNNING or _PAUSED */
	__u64 job_done;		/* out: member sectors done (per member) */
	__u64 job_total;	/* out: member sectors to do */
	__u32 job_rate_kib;	/* out: rate limit, KiB/s per member; 0 none */
	__u32 job_eta_sec;	/* out: estimated seconds left, 0 unknown */
	__u64 job_mismatches;	/* out: blocks found inconsistent so far */
	__u64 last_mismatches;	/* out: found by the last finished check */
	__u32 last_job;		/* out: VRAID_JOB_* of the last finished job */
	__u32 last_result;	/* out: 0 done, or a positive errno */
	__u32 write_policy_effective;	/* out: VRAID_WEFF_* (ABI 1.5) */
	__u32 cache_flags;	/* out: VRAID_CACHE_* (ABI 1.5) */
	struct vraid_member_info members[VRAID_MAX_MEMBERS];	/* out */
};

#define VRAID_IOC_TYPE		0xF7

/* VRAID_IOC_FAIL_MEMBER flags */
#define VRAID_FAIL_FORCE	(1U << 0)	/* even if the VD goes offline */

/* VRAID_IOC_FAIL_MEMBER: fail a member administratively. */
struct vraid_fail_member {
	struct vraid_ioc_hdr hdr;
	__u32 index;		/* in: N of /dev/vraidN */
	__u32 major;		/* in: the member's device number */
	__u32 minor;
	__u32 fail_flags;	/* in: VRAID_FAIL_*; unknown bits EINVAL */
	__u64 reserved2[4];	/* must be zero */
};

/*
 * VRAID_IOC_ASSEMBLE: bring up a VD from the metadata on the devices
 * given (all of one VD).  The newest generation wins; older ones are
 * stale and not used; roles no device fills are missing.
 */
struct vraid_assemble {
	struct vraid_ioc_hdr hdr;
	__u32 nr_devices;	/* in: 1..VRAID_MAX_MEMBERS */
	__u32 asm_flags;	/* in: VRAID_ASM_*; unknown bits EINVAL */
	__u32 index;		/* out: N of /dev/vraidN */
	__u32 nr_used;		/* out: members brought up */
	__u32 nr_stale;		/* out: devices left out as stale */
	__u32 reserved1;	/* must be zero */
	char disk_name[VRAID_DEVNAME_LEN];	/* out: "vraidN" */
	/* out: its name (suffixed on a clash); in with VRAID_ASM_NAME */
	char name[VRAID_NAME_LEN];
	/* out (ABI 1.10), from the journal's replay: writes, parity records */
	__u32 replayed;
	__u32 replay_parity;
	/* out (ABI 1.10): logged 4 KiB blocks later writes around replaced */
	__u32 replay_superseded;
	__u32 reserved3;	/* must be zero */
	__u64 reserved2[2];	/* must be zero */
	struct vraid_member_ref devices[VRAID_MAX_MEMBERS];	/* in */
};

/*
 * Assemble even though the VD's metadata says the journal holds writes of
 * it and that journal is not attached: those writes are lost.
 */
#define VRAID_ASM_NO_JOURNAL	(1U << 0)
/*
 * Assemble a RAID5/6/50/60 VD that was not shut down cleanly although
 * write-intent regions dirty at the crash have a member missing, or one
 * not rebuilt there yet, and no journal replay covers them: a row torn by
 * the crash reconstructs that member's blocks wrongly (the write hole).
 * Without it such an assembly fails with EUCLEAN and a message.
 */
#define VRAID_ASM_FORCE		(1U << 1)
/*
 * Name the VD @name (in), not what its metadata says (ABI 1.14): a name
 * pinned in vraid.conf.  The metadata carries it from then on; a name
 * taken gets a suffix as any other.
 */
#define VRAID_ASM_NAME		(1U << 2)

/* VRAID_IOC_SET_POLICY: which policies to change (set_mask bits). */
#define VRAID_SET_ACCESS	(1U << 0)
#define VRAID_SET_DISK_CACHE	(1U << 1)
#define VRAID_SET_IO		(1U << 2)
#define VRAID_SET_READ		(1U << 3)
#define VRAID_SET_WRITE		(1U << 4)

/*
 * VRAID_IOC_SET_POLICY: change policies of a VD while it runs; recorded
 * in the metadata.  Fields whose bit is not in set_mask must be zero.
 */
struct vraid_set_policy {
	struct vraid_ioc_hdr hdr;
	__u32 index;		/* in: N of /dev/vraidN */
	__u32 set_mask;		/* in: VRAID_SET_*; unknown bits EINVAL */
	__u32 access_policy;	/* in: VRAID_ACCESS_* */
	__u32 disk_cache_policy;	/* in: VRAID_DCACHE_* */
	__u32 io_policy;	/* in: VRAID_IO_* */
	__u32 read_policy;	/* in: VRAID_READ_* */
	__u32 write_policy;	/* in: VRAID_WRITE_* */
	__u32 reserved1;	/* must be zero */
	__u64 reserved2[4];	/* must be zero */
};

/* VRAID_IOC_JOB actions */
#define VRAID_JOB_START_CHECK	1	/* start a consistency check */
#define VRAID_JOB_START_REPAIR	2	/* a check that fixes mismatches */
#define VRAID_JOB_START_INIT	3	/* (re)initialise parity / copies */
#define VRAID_JOB_PAUSE		4
#define VRAID_JOB_RESUME	5
#define VRAID_JOB_STOP		6	/* end it; init/rebuild resume later */
#define VRAID_JOB_SET_RATE	7	/* set rate_kib (also while idle) */

#define VRAID_JOB_RATE_MAX	(16U << 20)	/* KiB/s: 16 GiB/s */

/* VRAID_IOC_JOB: start or control the background job of a VD. */
struct vraid_job {
	struct vraid_ioc_hdr hdr;
	__u32 index;		/* in: N of /dev/vraidN */
	__u32 action;		/* in: VRAID_JOB_START_* ... SET_RATE */
	__u32 rate_kib;		/* in (SET_RATE): KiB/s per member, 0 none */
	__u32 reserved1;	/* must be zero */
	__u64 reserved2[4];	/* must be zero */
};

/* VRAID_IOC_SPARE actions */
#define VRAID_SPARE_ADD		1
#define VRAID_SPARE_REMOVE	2
#define VRAID_SPARE_LIST	3

/* VRAID_SPARE_ADD flags (vraid_spare.spare_flags) */
#define VRAID_SPARE_DEDICATED	(1U << 0)	/* only for VD @index */
/* only for the VD of UUID @vd_uuid, running or not (ABI 14) */
#define VRAID_SPARE_VD_UUID	(1U << 1)

#define VRAID_MAX_SPARES	32

/* vraid_spare_info.info_flags */
#define VRAID_SPARE_INFO_DEDICATED	(1U << 0)	/* to @vd_uuid */

struct vraid_spare_info {
	__u32 major;
	__u32 minor;
	__u64 dev_sectors;	/* size of the whole device */
	__s32 vd_index;		/* dedicated to /dev/vraidN, else -1 */
	__u32 info_flags;	/* VRAID_SPARE_INFO_* (ABI 14) */
	char dev_name[VRAID_DEVNAME_LEN];
	__u8 vd_uuid[16];	/* DEDICATED: its VD's UUID (ABI 14) */
};

/* VRAID_IOC_SPARE: add, remove or list hot spares. */
struct vraid_spare {
	struct vraid_ioc_hdr hdr;
	__u32 action;		/* in: VRAID_SPARE_* */
	__u32 spare_flags;	/* in (ADD): VRAID_SPARE_DEDICATED, _VD_UUID */
	__u32 index;		/* in: the VD of a dedicated spare */
	__u32 major;		/* in: the device (ADD, REMOVE) */
	__u32 minor;
	__u32 nr_spares;	/* out (LIST): entries in spares[] */
	__u8 vd_uuid[16];	/* in: the VD of a VRAID_SPARE_VD_UUID spare */
	__u64 reserved2[2];	/* must be zero */
	struct vraid_spare_info spares[VRAID_MAX_SPARES];	/* out */
};

/* VRAID_IOC_REPLACE: rebuild member @old of a VD onto device @new. */
struct vraid_replace {
	struct vraid_ioc_hdr hdr;
	__u32 index;		/* in: N of /dev/vraidN */
	__u32 old_major;	/* in: the member replaced */
	__u32 old_minor;
	__u32 new_major;	/* in: the device that takes its place */
	__u32 new_minor;
	__u32 rep_flags;	/* in: VRAID_REPLACE_*; unknown bits EINVAL */
	__u32 old_role;		/* in: with VRAID_REPLACE_ROLE, else zero */
	__u32 reserved1;	/* must be zero */
	__u64 reserved2[3];	/* must be zero */
};

/* VRAID_IOC_REPLACE flags */
#define VRAID_REPLACE_FORCE	(1U << 0)	/* even if the VD goes offline */
/*
 * The old member is named by old_role (old_major/minor zero): for a
 * missing member, which has no device number.
 */
#define VRAID_REPLACE_ROLE	(1U << 1)

/* VRAID_IOC_CONTROLLER actions */
#define VRAID_CTRL_SHOW			0	/* report only */
#define VRAID_CTRL_SET_CACHE_SIZE	1	/* cache_bytes; 0: the default */
#define VRAID_CTRL_JOURNAL_ATTACH	2	/* major:minor, ctrl_flags */
#define VRAID_CTRL_JOURNAL_DETACH	3	/* write-back VDs write through */
#define VRAID_CTRL_JOURNAL_DISCARD	4	/* forget writes not replayed */

/* CONTROLLER flags (ctrl_flags) */
/* JOURNAL_ATTACH: format the device even if it holds a vraid journal */
#define VRAID_CTRL_FORCE	(1U << 0)

/* Journal states (vraid_controller.journal_state) */
#define VRAID_JOURNAL_NONE	0	/* no journal attached */
#define VRAID_JOURNAL_HEALTHY	1	/* write-back VDs log to it */
/* it holds writes of VDs not assembled yet: write-back writes through */
#define VRAID_JOURNAL_REPLAY_PENDING 2
#define VRAID_JOURNAL_FAILED	3	/* an I/O error: write-back writes through */

/*
 * VRAID_IOC_CONTROLLER (ABI 1.7; the journal 1.9): the controller-wide
 * cache and its journal.  Every field not an input of the action is zero
 * on input.
 */
struct vraid_controller {
	struct vraid_ioc_hdr hdr;
	__u32 action;		/* in: VRAID_CTRL_* */
	__u32 ctrl_flags;	/* in: none defined, zero */
	/*
	 * in (SET_CACHE_SIZE): 0 = the default, else a MiB multiple from
	 * 16 MiB to RAM / 2 (and 1 TiB); out: the size in effect
	 */
	__u64 cache_bytes;
	__u32 major;		/* in (JOURNAL_ATTACH): the journal device */
	__u32 minor;
	__u64 cache_default_bytes;	/* out: what 0 gives on this machine */
	__u64 cache_max_bytes;	/* out: the largest size this machine takes */
	__u64 cache_used_bytes;	/* out: held by all VDs now */
	__u64 cache_dirty_bytes;	/* out: not on the members yet */
	__u64 cache_dirty_high_bytes;	/* out: where writers would wait */
	__u32 nr_vds;		/* out: virtual drives sharing the cache */
	__u32 journal_state;	/* out: VRAID_JOURNAL_* */
	__u32 journal_major;	/* out: the journal device, if any */
	__u32 journal_minor;
	__u64 journal_bytes;	/* out: its ring */
	__u64 journal_used_bytes;	/* out */
	__u8 journal_uuid[16];	/* out: the journal's UUID */
	__u64 journal_head_seq;	/* out: the next record's sequence number */
	__u64 journal_tail_seq;	/* out: the oldest record still needed */
	__u32 journal_pending;	/* out: VDs whose writes await replay */
	__u32 journal_vds;	/* out: VDs logging to it now */
	__u64 reserved[3];	/* must be zero */
};

/* Event types (vraid_event.type) */
#define VRAID_EV_CREATED	1	/* a VD was created */
#define VRAID_EV_ASSEMBLED	2	/* a VD was assembled */
#define VRAID_EV_STOPPED	3	/* a VD was stopped */
#define VRAID_EV_DELETED	4	/* a VD was deleted */
#define VRAID_EV_MEMBER_FAILED	5	/* member: failed (text: why) */
#define VRAID_EV_STATE		6	/* the VD's state changed (state) */
#define VRAID_EV_REBUILD_START	7	/* member: a device took the role */
#define VRAID_EV_JOB_START	8	/* a background job started */
#define VRAID_EV_JOB_END	9	/* it ended (text: how) */
#define VRAID_EV_JOB_FAILED	10	/* it ended in an error */
#define VRAID_EV_TYPES		11	/* the first type not defined */

/* vraid_event.vd_index / .member when the event has none */
#define VRAID_EV_NONE		0xffffffffU

/*
 * One entry of the controller's event log (VRAID_IOC_EVENTS): what an
 * administrator is told of, as it happened, numbered from 1 since the
 * module loaded.  A uevent (change, on the control device) carries the
 * same fields: VRAID_EVENT (the type's name), VRAID_SEQ, VRAID_VD,
 * VRAID_NAME, VRAID_MEMBER, VRAID_DEVICE, VRAID_STATE.
 */
struct vraid_event {
	__u64 seq;		/* 1, 2, ... */
	__u64 time_ns;		/* CLOCK_REALTIME, nanoseconds */
	__u32 type;		/* VRAID_EV_* */
	__u32 vd_index;		/* the VD's N (/dev/vraidN), or VRAID_EV_NONE */
	__u32 member;		/* the member's role, or VRAID_EV_NONE */
	__u32 state;		/* the VD's state after the event (VRAID_VD_*) */
	char vd_name[VRAID_NAME_LEN];	/* the VD's name, NUL-terminated */
	char device[VRAID_DEVNAME_LEN];	/* the member's device, or "" */
	char text[VRAID_MSG_LEN];	/* one line, NUL-terminated */
};

#define VRAID_EVENTS_MAX	64	/* entries one request returns */

/*
 * VRAID_IOC_EVENTS (ABI 1.12): read the event log from @since on.  The
 * log keeps the last VRAID_EVENTS_KEPT events; @first says which is the
 * oldest it still has (events before it were dropped, if @since is
 * older), @next the number the next event will have: ask again with
 * since = next to follow it.  Needs no privilege and does not wait for
 * the controller's other requests.  From ABI 1.13 on, poll(2) on the
 * control device waits for an event newer than the @next of the last
 * reply through that open file (any event, before the first reply).
 */
struct vraid_events {
	struct vraid_ioc_hdr hdr;
	__u64 since;		/* in: the first event wanted (0: the oldest) */
	__u64 first;		/* out: the oldest event kept */
	__u64 next;		/* out: the next event's number */
	__u32 count;		/* out: entries filled in */
	__u32 reserved;		/* must be zero */
	struct vraid_event events[VRAID_EVENTS_MAX];	/* out */
};

#define VRAID_EVENTS_KEPT	1024	/* events the log keeps */

/* Sizes of the v1 structs (the smallest request of each command). */
#define VRAID_CREATE_SIZE_V1	560
#define VRAID_DELETE_SIZE_V1	192
#define VRAID_LIST_SIZE_V1	1216
#define VRAID_INFO_SIZE_V1	4200
#define VRAID_FAIL_MEMBER_SIZE_V1	200
#define VRAID_ASSEMBLE_SIZE_V1	528
#define VRAID_JOB_SIZE_V1	200
#define VRAID_SPARE_SIZE_V1	2512
#define VRAID_REPLACE_SIZE_V1	208
#define VRAID_SET_POLICY_SIZE_V1	216
#define VRAID_CONTROLLER_SIZE_V1	312
#define VRAID_EVENTS_SIZE_V1	14520

#define VRAID_IOC_CREATE	_IOWR(VRAID_IOC_TYPE, 0x00, struct vraid_ioc_hdr)
#define VRAID_IOC_DELETE	_IOWR(VRAID_IOC_TYPE, 0x01, struct vraid_ioc_hdr)
#define VRAID_IOC_LIST		_IOWR(VRAID_IOC_TYPE, 0x02, struct vraid_ioc_hdr)
#define VRAID_IOC_INFO		_IOWR(VRAID_IOC_TYPE, 0x03, struct vraid_ioc_hdr)
#define VRAID_IOC_FAIL_MEMBER	_IOWR(VRAID_IOC_TYPE, 0x05, struct vraid_ioc_hdr)
#define VRAID_IOC_SET_POLICY	_IOWR(VRAID_IOC_TYPE, 0x04, struct vraid_ioc_hdr)
#define VRAID_IOC_SPARE		_IOWR(VRAID_IOC_TYPE, 0x06, struct vraid_ioc_hdr)
#define VRAID_IOC_REPLACE	_IOWR(VRAID_IOC_TYPE, 0x07, struct vraid_ioc_hdr)
#define VRAID_IOC_JOB		_IOWR(VRAID_IOC_TYPE, 0x08, struct vraid_ioc_hdr)
#define VRAID_IOC_ASSEMBLE	_IOWR(VRAID_IOC_TYPE, 0x0b, struct vraid_ioc_hdr)
#define VRAID_IOC_CONTROLLER	_IOWR(VRAID_IOC_TYPE, 0x09, struct vraid_ioc_hdr)
#define VRAID_IOC_EVENTS	_IOWR(VRAID_IOC_TYPE, 0x0c, struct vraid_ioc_hdr)
/* Reserved for later commands: 0x0a STATS. */

#endif /* _UAPI_LINUX_VRAID_H */
