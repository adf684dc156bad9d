// SPDX-License-Identifier: GPL-2.0
/*
 * The record of a hot spare (portable core): see sparerec.h and
 * Documentation/on-disk-format.rst, "Hot spare record".
 *
 * The block is struct vraid_sprec_block (sparerec.h); the offsets below
 * are the format's, checked at compile time.
 */
#include "core_types.h"
#include "metadata.h"
#include "sparerec.h"

VRAID_ONDISK_OFFSET(struct vraid_sprec_block, magic, 0);
VRAID_ONDISK_OFFSET(struct vraid_sprec_block, version, 4);
VRAID_ONDISK_OFFSET(struct vraid_sprec_block, size, 8);
VRAID_ONDISK_OFFSET(struct vraid_sprec_block, crc, 12);
VRAID_ONDISK_OFFSET(struct vraid_sprec_block, generation, 16);
VRAID_ONDISK_OFFSET(struct vraid_sprec_block, created, 24);
VRAID_ONDISK_OFFSET(struct vraid_sprec_block, uuid, 32);
VRAID_ONDISK_OFFSET(struct vraid_sprec_block, flags, 48);
VRAID_ONDISK_OFFSET(struct vraid_sprec_block, reserved1, 52);
VRAID_ONDISK_OFFSET(struct vraid_sprec_block, dev_sectors, 56);
VRAID_ONDISK_OFFSET(struct vraid_sprec_block, vd_uuid, 64);
VRAID_ONDISK_OFFSET(struct vraid_sprec_block, reserved2, 80);
VRAID_ONDISK_SIZE(struct vraid_sprec_block, VRAID_MD_BLOCK);

/* The CRC32C of the block with its own field taken as zero. */
static u32 vraid_sprec_crc(const struct vraid_sprec_block *b)
{
	static const u8 zero[4];
	const u8 *blk = (const u8 *)b;
	size_t at = offsetof(struct vraid_sprec_block, crc);
	u32 crc;

	crc = vraid_crc32c(0, blk, at);
	crc = vraid_crc32c(crc, zero, sizeof(zero));
	return vraid_crc32c(crc, blk + at + 4, VRAID_MD_BLOCK - at - 4);
}

void vraid_sprec_encode(const struct vraid_sprec *r, u8 *blk)
{
	struct vraid_sprec_block *b = (struct vraid_sprec_block *)blk;

	memset(blk, 0, VRAID_MD_BLOCK);
	b->magic = cpu_to_le32(VRAID_SPREC_MAGIC);
	b->version = cpu_to_le32(VRAID_SPREC_VERSION);
	b->size = cpu_to_le32(VRAID_MD_BLOCK);
	b->generation = cpu_to_le64(r->generation);
	b->created = cpu_to_le64(r->created);
	memcpy(b->uuid, r->uuid, VRAID_SPREC_UUID_LEN);
	b->flags = cpu_to_le32(r->flags);
	b->dev_sectors = cpu_to_le64(r->dev_sectors);
	if (r->flags & VRAID_SPREC_F_DEDICATED)
		memcpy(b->vd_uuid, r->vd_uuid, VRAID_SPREC_UUID_LEN);
	b->crc = cpu_to_le32(vraid_sprec_crc(b));
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
	const struct vraid_sprec_block *b = (const struct vraid_sprec_block *)blk;
	u32 crc = le32_to_cpu(b->crc);

	if (le32_to_cpu(b->magic) != VRAID_SPREC_MAGIC) {
		snprintf(msg, msglen, "no hot spare record (magic 0x%08x)",
			 le32_to_cpu(b->magic));
		return -ENODATA;
	}
	r->version = le32_to_cpu(b->version);
	if (r->version != VRAID_SPREC_VERSION) {
		snprintf(msg, msglen,
			 "hot spare record version %u is not supported (this vraid reads %u)",
			 r->version, VRAID_SPREC_VERSION);
		return -EPROTONOSUPPORT;
	}
	if (le32_to_cpu(b->size) != VRAID_MD_BLOCK) {
		snprintf(msg, msglen, "hot spare record block size %u, expected %u",
			 le32_to_cpu(b->size), VRAID_MD_BLOCK);
		return -EINVAL;
	}
	if (vraid_sprec_crc(b) != crc) {
		snprintf(msg, msglen, "hot spare record checksum mismatch (0x%08x stored, 0x%08x computed)",
			 crc, vraid_sprec_crc(b));
		return -EINVAL;
	}
	r->generation = le64_to_cpu(b->generation);
	r->created = le64_to_cpu(b->created);
	memcpy(r->uuid, b->uuid, VRAID_SPREC_UUID_LEN);
	r->flags = le32_to_cpu(b->flags);
	r->dev_sectors = le64_to_cpu(b->dev_sectors);
	memcpy(r->vd_uuid, b->vd_uuid, VRAID_SPREC_UUID_LEN);
	if (r->flags & ~VRAID_SPREC_F_DEDICATED) {
		snprintf(msg, msglen, "unknown hot spare flags 0x%x", r->flags);
		return -EINVAL;
	}
	if (b->reserved1 ||
	    !vraid_sprec_zero(b->reserved2, sizeof(b->reserved2)) ||
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
