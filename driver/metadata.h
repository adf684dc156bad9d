/* SPDX-License-Identifier: GPL-2.0 */
/*
 * On-disk metadata of a vraid member (portable core): encode, decode and
 * validate.  Documentation/on-disk-format.rst is the reference.
 *
 * Every member carries two copies of one 4 KiB block in the reserved area
 * before the data offset: copy A at byte 4096, copy B at byte 1 MiB.  They
 * are written one after the other, each with FUA, so a torn write can
 * damage at most one of them.  All integers are little-endian; the block
 * is protected by a CRC32C (Castagnoli) computed with its crc field zero.
 */
#ifndef VRAID_METADATA_H
#define VRAID_METADATA_H

#include "core_types.h"

#define VRAID_MD_MAGIC		0x444d5256U	/* "VRMD" little-endian */
#define VRAID_MD_VERSION	1
#define VRAID_MD_BLOCK		4096		/* bytes of one copy */
#define VRAID_MD_COPY_A		8ULL		/* sectors from the start */
#define VRAID_MD_COPY_B		2048ULL
#define VRAID_MD_UUID_LEN	16
#define VRAID_MD_MAX_MEMBERS	32

/* Flags of the VD (vraid_md.flags). */
#define VRAID_MD_F_CLEAN	(1U << 0)	/* shut down cleanly */

struct vraid_md_member {
	u8 uuid[VRAID_MD_UUID_LEN];
	u32 state;			/* VRAID_MEMBER_* */
	u64 dev_sectors;		/* size of the device when last seen */
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
	struct vraid_md_member members[VRAID_MD_MAX_MEMBERS];
};

u32 vraid_crc32c(u32 crc, const void *buf, size_t len);

/* Encode @md into the 4 KiB block @blk (all of it written). */
void vraid_md_encode(const struct vraid_md *md, u8 *blk);

/*
 * Decode and validate one copy.  Returns 0, -ENODATA when the block holds
 * no vraid metadata (no magic), or -EINVAL / -EPROTONOSUPPORT with the
 * reason in @msg (bad checksum, unknown version, impossible geometry...).
 */
int vraid_md_decode(const u8 *blk, struct vraid_md *md, char *msg,
		    size_t msglen);

#endif /* VRAID_METADATA_H */
