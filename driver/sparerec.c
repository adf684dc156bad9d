// SPDX-License-Identifier: GPL-2.0
/*
 * The record of a hot spare (portable core): see sparerec.h and
 * Documentation/on-disk-format.rst, "Hot spare record".
 *
 * Block layout (byte offsets, little-endian):
 *	   0 magic "VRSP"	   4 version	   8 block size (4096)
 *	  12 crc32c		  16 generation	  24 created
 *	  32 spare uuid[16]	  48 flags	  52 reserved (zero)
 *	  56 device sectors	  64 vd uuid[16]
 *	  80 reserved (zero) up to 4096
 */
#include "core_types.h"
#include "metadata.h"
#include "sparerec.h"
#include "le_bytes.h"

#define SP_OFF_MAGIC	0
#define SP_OFF_VERSION	4
#define SP_OFF_SIZE	8
#define SP_OFF_CRC	12
#define SP_OFF_GEN	16
#define SP_OFF_CREATED	24
#define SP_OFF_UUID	32
#define SP_OFF_FLAGS	48
#define SP_OFF_RES1	52
#define SP_OFF_SECTORS	56
#define SP_OFF_VD_UUID	64
#define SP_OFF_RES2	80

/* The CRC32C of the block with its own field taken as zero. */
static u32 vraid_sprec_crc(const u8 *blk)
{
	static const u8 zero[4];
	u32 crc;

	crc = vraid_crc32c(0, blk, SP_OFF_CRC);
	crc = vraid_crc32c(crc, zero, sizeof(zero));
	return vraid_crc32c(crc, blk + SP_OFF_CRC + 4,
			    VRAID_MD_BLOCK - SP_OFF_CRC - 4);
}

void vraid_sprec_encode(const struct vraid_sprec *r, u8 *blk)
{
	memset(blk, 0, VRAID_MD_BLOCK);
	put32(blk + SP_OFF_MAGIC, VRAID_SPREC_MAGIC);
	put32(blk + SP_OFF_VERSION, VRAID_SPREC_VERSION);
	put32(blk + SP_OFF_SIZE, VRAID_MD_BLOCK);
	put64(blk + SP_OFF_GEN, r->generation);
	put64(blk + SP_OFF_CREATED, r->created);
	memcpy(blk + SP_OFF_UUID, r->uuid, VRAID_SPREC_UUID_LEN);
	put32(blk + SP_OFF_FLAGS, r->flags);
	put64(blk + SP_OFF_SECTORS, r->dev_sectors);
	if (r->flags & VRAID_SPREC_F_DEDICATED)
		memcpy(blk + SP_OFF_VD_UUID, r->vd_uuid, VRAID_SPREC_UUID_LEN);
	put32(blk + SP_OFF_CRC, vraid_sprec_crc(blk));
}

static bool vraid_sprec_zero(const u8 *p, size_t n)
{
	while (n--)
		if (*p++)
			return false;
	return true;
}

int vraid_sprec_decode(const u8 *blk, struct vraid_sprec *r, char *msg,
		       size_t msglen)
{
	if (get32(blk + SP_OFF_MAGIC) != VRAID_SPREC_MAGIC) {
		snprintf(msg, msglen, "no hot spare record (magic 0x%08x)",
			 get32(blk + SP_OFF_MAGIC));
		return -ENODATA;
	}
	r->version = get32(blk + SP_OFF_VERSION);
	if (r->version != VRAID_SPREC_VERSION) {
		snprintf(msg, msglen,
			 "hot spare record version %u is not supported (this vraid reads %u)",
			 r->version, VRAID_SPREC_VERSION);
		return -EPROTONOSUPPORT;
	}
	if (get32(blk + SP_OFF_SIZE) != VRAID_MD_BLOCK) {
		snprintf(msg, msglen, "hot spare record block size %u, expected %u",
			 get32(blk + SP_OFF_SIZE), VRAID_MD_BLOCK);
		return -EINVAL;
	}
	if (vraid_sprec_crc(blk) != get32(blk + SP_OFF_CRC)) {
		snprintf(msg, msglen, "hot spare record checksum mismatch (0x%08x stored, 0x%08x computed)",
			 get32(blk + SP_OFF_CRC), vraid_sprec_crc(blk));
		return -EINVAL;
	}
	r->generation = get64(blk + SP_OFF_GEN);
	r->created = get64(blk + SP_OFF_CREATED);
	memcpy(r->uuid, blk + SP_OFF_UUID, VRAID_SPREC_UUID_LEN);
	r->flags = get32(blk + SP_OFF_FLAGS);
	r->dev_sectors = get64(blk + SP_OFF_SECTORS);
	memcpy(r->vd_uuid, blk + SP_OFF_VD_UUID, VRAID_SPREC_UUID_LEN);
	if (r->flags & ~VRAID_SPREC_F_DEDICATED) {
		snprintf(msg, msglen, "unknown hot spare flags 0x%x", r->flags);
		return -EINVAL;
	}
	if (!vraid_sprec_zero(blk + SP_OFF_RES1, SP_OFF_SECTORS - SP_OFF_RES1) ||
	    !vraid_sprec_zero(blk + SP_OFF_RES2, VRAID_MD_BLOCK - SP_OFF_RES2) ||
	    (!(r->flags & VRAID_SPREC_F_DEDICATED) &&
	     !vraid_sprec_zero(r->vd_uuid, VRAID_SPREC_UUID_LEN))) {
		snprintf(msg, msglen, "hot spare record: reserved bytes are not zero");
		return -EINVAL;
	}
	if ((r->flags & VRAID_SPREC_F_DEDICATED) &&
	    vraid_sprec_zero(r->vd_uuid, VRAID_SPREC_UUID_LEN)) {
		snprintf(msg, msglen, "hot spare record: dedicated to no VD");
		return -EINVAL;
	}
	return 0;
}
