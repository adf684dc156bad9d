/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The record of a hot spare (portable core): encode and decode.
 * Documentation/on-disk-format.rst, "Hot spare record", is the reference.
 *
 * A persisted hot spare carries this 4 KiB block where a member carries
 * its metadata: copy A at byte 4096, copy B at byte 1 MiB, written one
 * after the other with FUA, so that a torn write damages at most one.
 * It says the device is a spare, global or dedicated to one VD (by the
 * VD's UUID), so that assembly (vraidctl assemble --scan, --incremental)
 * gives it back to the module after a stop or a reboot.  A spare that
 * takes a member's place gets the VD's metadata over it (copy A first):
 * a valid member copy A wins over a spare record in copy B.
 */
#ifndef VRAID_SPAREREC_H
#define VRAID_SPAREREC_H

#include "core_types.h"

#define VRAID_SPREC_MAGIC	0x50535256U	/* "VRSP" little-endian */
#define VRAID_SPREC_VERSION	1
#define VRAID_SPREC_UUID_LEN	16

/* Flags of the record (vraid_sprec.flags). */
#define VRAID_SPREC_F_DEDICATED	(1U << 0)	/* to vd_uuid only */

/*
 * The block as it is on disk (little-endian; offsets asserted in
 * sparerec.c against the format's table).  Every byte not named is
 * reserved and zero.
 */
struct vraid_sprec_block {
	__le32 magic;				/* VRAID_SPREC_MAGIC */
	__le32 version;
	__le32 size;				/* of the block: 4096 */
	__le32 crc;				/* CRC32C, this field zero */
	__le64 generation;
	__le64 created;
	u8 uuid[VRAID_SPREC_UUID_LEN];
	__le32 flags;
	__le32 reserved1;
	__le64 dev_sectors;
	u8 vd_uuid[VRAID_SPREC_UUID_LEN];
	u8 reserved2[4096 - 80];
};

/* The decoded form (host order). */
struct vraid_sprec {
	u32 version;
	u64 generation;			/* bumped on every rewrite */
	u64 created;			/* when it became a spare, seconds */
	u8 uuid[VRAID_SPREC_UUID_LEN];	/* the spare's own, random */
	u32 flags;			/* VRAID_SPREC_F_* */
	u64 dev_sectors;		/* size of the device when written */
	u8 vd_uuid[VRAID_SPREC_UUID_LEN];	/* DEDICATED: its VD; else 0 */
};

/* Encode @r into the 4 KiB block @blk (all of it written). */
void vraid_sprec_encode(const struct vraid_sprec *r, u8 *blk);

/*
 * Decode and check one copy.  Returns 0, -ENODATA when the block holds no
 * spare record (no magic), or -EINVAL / -EPROTONOSUPPORT with the reason
 * in @msg.
 */
int vraid_sprec_decode(const u8 *blk, struct vraid_sprec *r, char *msg,
		       size_t msglen);

#endif /* VRAID_SPAREREC_H */
