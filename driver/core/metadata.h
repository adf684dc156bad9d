/* SPDX-License-Identifier: GPL-2.0 */
/*
 * On-disk metadata of a vraid member (portable core): encode, decode and
 * validate.  Documentation/on-disk-format.rst is the reference.
 *
 * Every member carries two copies of one 4 KiB block in the reserved area
 * before the data offset: copy A at byte 4096, copy B at byte 1 MiB.  They
 * are written one after the other, each with FUA (A also with PREFLUSH),
 * so a torn write can damage at most one of them.  All integers are little-endian; the block
 * is protected by a CRC32C (Castagnoli) computed with its crc field zero.
 */
#ifndef VRAID_METADATA_H
#define VRAID_METADATA_H

#include "core_types.h"

#define VRAID_MD_MAGIC		0x444d5256U	/* "VRMD" little-endian */
/*
 * Version 2 added a rebuild position and flags per member (the member
 * table's reserved word, and a table of positions at byte 1280).  A
 * version 1 block is still read: its one rebuild position (the job
 * checkpoint's, when the job is a rebuild) is every Rebuilding member's,
 * as version 1 meant it.  Blocks are always written as version 2.
 */
#define VRAID_MD_VERSION	2
#define VRAID_MD_VERSION_MIN	1
#define VRAID_MD_BLOCK		4096		/* bytes of one copy */
#define VRAID_MD_COPY_A		8ULL		/* sectors from the start */
#define VRAID_MD_COPY_B		2048ULL
#define VRAID_MD_UUID_LEN	16
#define VRAID_MD_MAX_MEMBERS	32

/* Flags of the VD (vraid_md.flags). */
#define VRAID_MD_F_CLEAN	(1U << 0)	/* shut down cleanly */

/* Cache flags (vraid_md.cache_flags). */
/* the journal journal_uuid may hold acknowledged writes of the VD */
#define VRAID_MD_CF_JOURNAL	(1U << 0)
/* a volatile write-back cache was in use (reserved, never set yet) */
#define VRAID_MD_CF_VOLATILE	(1U << 1)

/* Flags of the job checkpoint (vraid_md.job_flags). */
#define VRAID_MD_JOB_PAUSED	(1U << 0)

/* Flags of a member table entry (vraid_md_member.flags, version 2). */
/*
 * Rebuilt across an unclean shutdown: until the resync after it is done,
 * a mirror reads and resyncs from another copy (vraid_member.second_copy).
 */
#define VRAID_MD_MEMBER_SECOND_COPY	(1U << 0)

struct vraid_md_member {
	u8 uuid[VRAID_MD_UUID_LEN];
	u32 state;			/* VRAID_MEMBER_* */
	u32 flags;			/* VRAID_MD_MEMBER_* */
	u64 dev_sectors;		/* size of the device when last seen */
	/*
	 * Rebuilding: member sectors below which the device holds its
	 * blocks (md's recovery_offset); 0 in any other state.
	 */
	u64 rebuilt_to;
};

/* The decoded form (host order). */
struct vraid_md {
	u32 version;
	u64 generation;			/* bumped on every update */
	u64 created;			/* seconds since the epoch */
	u8 vd_uuid[VRAID_MD_UUID_LEN];
	char name[32];			/* NUL-terminated */
	u32 level, nr_members, spans, strip_bytes;
	u32 role;			/* this member's role */
	u32 flags;			/* VRAID_MD_F_* */
	u64 data_offset;		/* sectors */
	u64 member_sectors;		/* data area used on each member */
	u64 size_sectors;		/* capacity of the VD */
	u32 access_policy, disk_cache_policy, io_policy, read_policy;
	u32 write_policy;
	/* Background job checkpoint (job.c). */
	u32 job_type;			/* VRAID_JOB_*: running or stopped */
	u32 job_flags;			/* VRAID_MD_JOB_* */
	u32 job_rate_kib;		/* rate limit, 0 none */
	u64 job_pos;			/* member sectors done */
	u64 init_pos;			/* consistent below (member sectors) */
	u32 last_job, last_result;	/* the last job that ended */
	u64 last_mismatches;
	/* The controller's journal (cache flags JOURNAL), else zero. */
	u8 journal_uuid[VRAID_MD_UUID_LEN];
	u64 journal_floor;		/* its records below are void */
	u32 cache_flags;		/* VRAID_MD_CF_* */
	struct vraid_md_member members[VRAID_MD_MAX_MEMBERS];
};

/*
 * The block as it lies on the disk (Documentation/on-disk-format.rst,
 * "Block layout"): little-endian fields at their natural alignment, no
 * packing needed; metadata.c checks every offset at compile time.  Only
 * vraid_md_encode() and vraid_md_decode() touch it; the rest of the
 * driver uses struct vraid_md.
 */
struct vraid_md_block_member {
	u8 uuid[VRAID_MD_UUID_LEN];
	__le32 state;
	__le32 flags;			/* version 1: zero */
	__le64 dev_sectors;
};

struct vraid_md_block {
	__le32 magic;			/* VRAID_MD_MAGIC */
	__le32 version;
	__le32 block_size;		/* VRAID_MD_BLOCK */
	__le32 crc;			/* of the block, this field zero */
	__le64 generation;
	__le64 created;
	u8 vd_uuid[VRAID_MD_UUID_LEN];
	char name[32];
	__le32 level;
	__le32 nr_members;
	__le32 spans;
	__le32 strip_bytes;
	__le32 role;
	__le32 flags;
	__le64 data_offset;
	__le64 member_sectors;
	__le64 size_sectors;
	__le32 access_policy;
	__le32 disk_cache_policy;
	__le32 io_policy;
	__le32 read_policy;
	__le32 write_policy;
	__le32 job_type;
	__le32 job_flags;
	__le32 job_rate_kib;
	__le64 job_pos;
	__le64 init_pos;
	__le32 last_job;
	__le32 last_result;
	__le64 last_mismatches;
	u8 journal_uuid[VRAID_MD_UUID_LEN];
	__le64 journal_floor;
	__le32 cache_flags;
	u8 reserved1[36];
	struct vraid_md_block_member members[VRAID_MD_MAX_MEMBERS];
	__le64 rebuilt_to[VRAID_MD_MAX_MEMBERS];	/* version 1: reserved */
	u8 reserved2[2560];
};

/*
 * The write-intent bitmap: one bit per region of member sectors (a power
 * of two, at least a strip and 1 MiB, at most VRAID_BM_MAX_BITS regions),
 * set on every member before a write to the region starts and cleared
 * some seconds after the last one ended.  8 KiB at byte 2 MiB of every
 * member: a 4 KiB header block, then a 4 KiB block of bits (bit r is bit
 * r % 8 of byte r / 8).  The CRC32C covers both blocks, its field zero.
 */
#define VRAID_BM_MAGIC		0x4d425256U	/* "VRBM" little-endian */
#define VRAID_BM_VERSION	1
#define VRAID_BM_SECTOR		4096ULL		/* byte 2 MiB */
#define VRAID_BM_BYTES		8192
#define VRAID_BM_MAX_BITS	32768U		/* one 4 KiB block of bits */
#define VRAID_BM_MIN_SHIFT	11		/* 1 MiB regions at least */

/* The bitmap as it lies on the disk ("Bitmap layout"), 8 KiB. */
struct vraid_bm_block {
	__le32 magic;			/* VRAID_BM_MAGIC */
	__le32 version;
	__le32 crc;			/* of all 8 KiB, this field zero */
	__le32 shift;
	__le32 nbits;
	__le32 reserved1;
	u8 vd_uuid[VRAID_MD_UUID_LEN];
	u8 reserved2[4056];		/* to the end of the header block */
	u8 bits[VRAID_BM_MAX_BITS / 8];
};

/* log2 of the region size in sectors for a member data area. */
u32 vraid_bm_shift(u64 member_sectors, u32 strip_shift);

/* Encode the bitmap (@nbits bits at @bits) into the 8 KiB @blk. */
void vraid_bm_encode(const u8 *vd_uuid, u32 shift, u32 nbits, const u8 *bits,
		     u8 *blk);

/*
 * Check an 8 KiB bitmap: returns 0 (then *shift and *nbits are set and
 * the bits are at blk + 4096), -ENODATA when there is none (no magic),
 * -EINVAL with the reason in @msg.
 */
int vraid_bm_decode(const u8 *blk, const u8 *vd_uuid, u32 *shift,
		    u32 *nbits, char *msg, size_t msglen);

/*
 * CRC32C (Castagnoli), chained: vraid_crc32c(vraid_crc32c(0, a, n), b, m)
 * is the CRC of a then b.  _sw is the portable byte-wise table; in the
 * module vraid_crc32c() is crc.c's (the kernel's crc32c, SSE4.2 where
 * the CPU has it), elsewhere _sw (core_types.h).
 */
u32 vraid_crc32c_sw(u32 crc, const void *buf, size_t len);
u32 vraid_crc32c(u32 crc, const void *buf, size_t len);

/*
 * Encode @md into the 4 KiB block @blk (all of it written).  @blk, here
 * and in every encoder and decoder of the core, is 8-byte aligned (a
 * page, a kmalloc'd or a malloc'd buffer): it is read as the block's
 * struct.
 */
void vraid_md_encode(const struct vraid_md *md, u8 *blk);

/*
 * Decode and validate one copy (version 1 or 2; md->version says which,
 * the rest is in version 2's terms).  Returns 0, -ENODATA when the block holds
 * no vraid metadata (no magic), or -EINVAL / -EPROTONOSUPPORT with the
 * reason in @msg (bad checksum, unknown version, impossible geometry...).
 */
int vraid_md_decode(const u8 *blk, struct vraid_md *md, char *msg,
		    size_t msglen);

#endif /* VRAID_METADATA_H */
