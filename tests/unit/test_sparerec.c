// SPDX-License-Identifier: GPL-2.0
/*
 * The hot spare record of the portable core (driver/core/sparerec.c): round
 * trips, every flipped bit caught, each rule of the decode, and that a
 * member's metadata and a spare record never read as each other.
 */
#pragma GCC diagnostic ignored "-Wunused-function"
#include <stdlib.h>
#include "tap.h"
#include <linux/vraid.h>
#include "metadata.h"
#include "sparerec.h"
#include "le_bytes.h"

static void sample(struct vraid_sprec *r, bool dedicated)
{
	u32 i;

	memset(r, 0, sizeof(*r));
	r->version = VRAID_SPREC_VERSION;
	r->generation = 7;
	r->created = 1765152000;
	for (i = 0; i < VRAID_SPREC_UUID_LEN; i++)
		r->uuid[i] = (u8)(0x10 + i);
	r->dev_sectors = 131072;
	if (dedicated) {
		r->flags = VRAID_SPREC_F_DEDICATED;
		for (i = 0; i < VRAID_SPREC_UUID_LEN; i++)
			r->vd_uuid[i] = (u8)(0xa0 + i);
	}
}

/* Put a correct CRC back after an edit, so the edit itself is judged. */
static void reseal(u8 *blk)
{
	static const u8 zero[4];
	u32 crc;

	crc = vraid_crc32c(0, blk, 12);
	crc = vraid_crc32c(crc, zero, 4);
	crc = vraid_crc32c(crc, blk + 16, VRAID_MD_BLOCK - 16);
	put32(blk + 12, crc);
}

int main(void)
{
	u8 *blk = malloc(VRAID_MD_BLOCK), *good = malloc(VRAID_MD_BLOCK);
	struct vraid_sprec a, b;
	struct vraid_md md;
	char msg[VRAID_MSG_LEN];
	u32 i, bad = 0;
	int ret, d;

	for (d = 0; d < 2; d++) {
		tap_begin("round trip, %s", d ? "dedicated" : "global");
		sample(&a, d);
		vraid_sprec_encode(&a, blk);
		memset(&b, 0xff, sizeof(b));
		ret = vraid_sprec_decode(blk, &b, msg, sizeof(msg));
		CHECK(ret == 0, "%d (%s)", ret, msg);
		CHECK(a.version == b.version && a.generation == b.generation &&
		      a.created == b.created && a.flags == b.flags &&
		      a.dev_sectors == b.dev_sectors &&
		      !memcmp(a.uuid, b.uuid, sizeof(a.uuid)) &&
		      !memcmp(a.vd_uuid, b.vd_uuid, sizeof(a.vd_uuid)),
		      "decoded differs");
		tap_end();
	}

	sample(&a, true);
	vraid_sprec_encode(&a, good);
	tap_begin("every single flipped bit is caught");
	for (i = 0; i < VRAID_MD_BLOCK * 8; i += 5) {
		memcpy(blk, good, VRAID_MD_BLOCK);
		blk[i / 8] ^= (u8)(1u << (i % 8));
		if (!vraid_sprec_decode(blk, &b, msg, sizeof(msg)))
			bad++;
	}
	CHECK(bad == 0, "%u damaged blocks accepted", bad);
	tap_end();

	tap_begin("blank block: -ENODATA");
	memset(blk, 0, VRAID_MD_BLOCK);
	ret = vraid_sprec_decode(blk, &b, msg, sizeof(msg));
	CHECK(ret == -ENODATA, "%d", ret);
	tap_end();

	tap_begin("a spare record is no member metadata, and back");
	ret = vraid_md_decode(good, &md, msg, sizeof(msg));
	CHECK(ret == -ENODATA, "md_decode of a spare record: %d (%s)", ret, msg);
	memset(&md, 0, sizeof(md));
	md.generation = 1;
	md.level = VRAID_LEVEL_1;
	md.nr_members = 2;
	md.spans = 1;
	md.strip_bytes = 65536;
	md.data_offset = VRAID_DATA_OFFSET_SECTORS;
	md.member_sectors = 2048;
	md.size_sectors = 2048;
	md.init_pos = 2048;
	md.members[0].state = md.members[1].state = VRAID_MEMBER_ONLINE;
	vraid_md_encode(&md, blk);
	ret = vraid_sprec_decode(blk, &b, msg, sizeof(msg));
	CHECK(ret == -ENODATA, "sprec_decode of member metadata: %d (%s)", ret, msg);
	tap_end();

#define RESEALED(what, errno_, needle, edit) do {			\
	tap_begin("%s -> %d", what, errno_);				\
	memcpy(blk, good, VRAID_MD_BLOCK);				\
	edit;								\
	reseal(blk);							\
	ret = vraid_sprec_decode(blk, &b, msg, sizeof(msg));		\
	CHECK(ret == (errno_), "%d (%s)", ret, msg);			\
	CHECK(strstr(msg, needle) != NULL, "message: %s", msg);	\
	tap_end();							\
} while (0)

	RESEALED("version 2", -EPROTONOSUPPORT, "version 2", blk[4] = 2);
	RESEALED("block size 512", -EINVAL, "block size", put32(blk + 8, 512));
	RESEALED("unknown flag", -EINVAL, "flags", blk[48] |= 2);
	RESEALED("reserved at 52", -EINVAL, "reserved", blk[52] = 1);
	RESEALED("reserved at 4095", -EINVAL, "reserved", blk[4095] = 1);
	RESEALED("dedicated to no VD", -EINVAL, "no VD",
		 memset(blk + 64, 0, 16));
	RESEALED("global with a VD UUID", -EINVAL, "reserved", blk[48] = 0);
	tap_begin("bad checksum -> -EINVAL");
	memcpy(blk, good, VRAID_MD_BLOCK);
	blk[12] ^= 1;
	ret = vraid_sprec_decode(blk, &b, msg, sizeof(msg));
	CHECK(ret == -EINVAL && strstr(msg, "checksum"), "%d (%s)", ret, msg);
	tap_end();
	free(blk);
	free(good);
	return tap_done();
}
