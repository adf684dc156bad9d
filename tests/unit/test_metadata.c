// SPDX-License-Identifier: GPL-2.0
/*
 * The on-disk metadata of the portable core (driver/core/metadata.c): CRC32C
 * against known vectors, encode/decode round trips for every level, and
 * rejection of every kind of damage a block can suffer.
 */
#pragma GCC diagnostic ignored "-Wunused-function"
#include <stdlib.h>
#include <stdarg.h>
#include "tap.h"
#include <linux/vraid.h>
#include "metadata.h"
#include "layout.h"

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

static void sample(struct vraid_md *md, u32 level, u32 nr, u32 spans,
		   u32 strip, u32 role)
{
	struct vraid_geom g;
	char msg[VRAID_MSG_LEN];
	u32 i;

	memset(md, 0, sizeof(*md));
	if (vraid_layout_init(&g, level, nr, strip, spans, 500000, msg,
			      sizeof(msg)))
		abort();
	md->generation = 7;
	md->created = 1764500000;
	for (i = 0; i < 16; i++)
		md->vd_uuid[i] = (u8)(i * 17 + level);
	snprintf(md->name, sizeof(md->name), "vd-%u", level);
	md->level = level;
	md->nr_members = nr;
	md->spans = g.spans;
	md->strip_bytes = g.strip_sectors << 9;
	md->role = role;
	md->flags = VRAID_MD_F_CLEAN;
	md->data_offset = VRAID_DATA_OFFSET_SECTORS;
	md->member_sectors = g.member_sectors;
	md->size_sectors = g.size_sectors;
	md->write_policy = VRAID_WRITE_THROUGH;
	for (i = 0; i < nr; i++) {
		memset(md->members[i].uuid, (int)(i + 1), 16);
		md->members[i].state = i == 1 ? VRAID_MEMBER_FAILED :
						VRAID_MEMBER_ONLINE;
		md->members[i].dev_sectors = 600000 + i;
	}
}

/* Recompute the CRC of a block after a deliberate change. */
static void reseal(u8 *blk)
{
	u32 crc;

	memset(blk + 12, 0, 4);
	crc = vraid_crc32c(0, blk, VRAID_MD_BLOCK);
	blk[12] = (u8)crc;
	blk[13] = (u8)(crc >> 8);
	blk[14] = (u8)(crc >> 16);
	blk[15] = (u8)(crc >> 24);
}

static void test_crc(void)
{
	static const u8 zeros[32];
	u8 ones[32];

	memset(ones, 0xff, sizeof(ones));
	tap_begin("crc32c known vectors (RFC 3720 B.4)");
	CHECK(vraid_crc32c(0, "123456789", 9) == 0xe3069283, "123456789");
	CHECK(vraid_crc32c(0, zeros, 32) == 0x8a9136aa, "32 zeros");
	CHECK(vraid_crc32c(0, ones, 32) == 0x62a8ab43, "32 0xff");
	CHECK(vraid_crc32c(vraid_crc32c(0, "1234", 4), "56789", 5) ==
	      0xe3069283, "chained");
	tap_end();
}

static void test_roundtrip(void)
{
	static const struct { u32 level, nr, spans, strip; } t[] = {
		{ VRAID_LEVEL_JBOD, 1, 0, 0 }, { VRAID_LEVEL_0, 5, 0, 65536 },
		{ VRAID_LEVEL_1, 3, 0, 0 }, { VRAID_LEVEL_10, 8, 0, 16384 },
		{ VRAID_LEVEL_5, 7, 0, 1048576 }, { VRAID_LEVEL_6, 32, 0, 4096 },
		{ VRAID_LEVEL_50, 6, 2, 32768 }, { VRAID_LEVEL_60, 12, 3, 65536 },
	};
	u8 *blk = malloc(VRAID_MD_BLOCK);
	char msg[VRAID_MSG_LEN];
	struct vraid_md a, b;
	size_t i;
	u32 r;

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		tap_begin("round trip level %u, %u members", t[i].level, t[i].nr);
		for (r = 0; r < t[i].nr; r++) {
			int ret;

			sample(&a, t[i].level, t[i].nr, t[i].spans, t[i].strip, r);
			vraid_md_encode(&a, blk);
			ret = vraid_md_decode(blk, &b, msg, sizeof(msg));
			CHECK(ret == 0, "role %u: %d (%s)", r, ret, msg);
			CHECK(!ret && b.generation == a.generation &&
			      !memcmp(b.vd_uuid, a.vd_uuid, 16) &&
			      !strcmp(b.name, a.name) && b.level == a.level &&
			      b.nr_members == a.nr_members && b.role == r &&
			      b.strip_bytes == a.strip_bytes &&
			      b.size_sectors == a.size_sectors &&
			      b.member_sectors == a.member_sectors &&
			      b.flags == a.flags && b.created == a.created &&
			      !memcmp(b.members, a.members, sizeof(a.members)),
			      "role %u: fields differ", r);
		}
		tap_end();
	}
	free(blk);
}

static void test_damage(void)
{
	u8 *blk = malloc(VRAID_MD_BLOCK), *good = malloc(VRAID_MD_BLOCK);
	char msg[VRAID_MSG_LEN];
	struct vraid_md a, b;
	int ret;
	u32 i, bad = 0;

	sample(&a, VRAID_LEVEL_6, 6, 0, 65536, 2);
	vraid_md_encode(&a, good);

	tap_begin("every single flipped bit is caught");
	for (i = 0; i < VRAID_MD_BLOCK * 8; i += 7) {
		memcpy(blk, good, VRAID_MD_BLOCK);
		blk[i / 8] ^= (u8)(1u << (i % 8));
		if (!vraid_md_decode(blk, &b, msg, sizeof(msg)))
			bad++;
	}
	CHECK(bad == 0, "%u damaged blocks accepted", bad);
	tap_end();

	tap_begin("blank block: -ENODATA");
	memset(blk, 0, VRAID_MD_BLOCK);
	ret = vraid_md_decode(blk, &b, msg, sizeof(msg));
	CHECK(ret == -ENODATA, "%d", ret);
	CHECK(strstr(msg, "no vraid metadata") != NULL, "%s", msg);
	tap_end();

#define RESEALED(what, errno_, needle, edit) do {			\
	tap_begin("%s -> %d", what, errno_);				\
	memcpy(blk, good, VRAID_MD_BLOCK);				\
	edit;								\
	reseal(blk);							\
	ret = vraid_md_decode(blk, &b, msg, sizeof(msg));		\
	CHECK(ret == (errno_), "%d (%s)", ret, msg);			\
	CHECK(strstr(msg, needle) != NULL, "message: %s", msg);	\
	tap_end();							\
} while (0)

	RESEALED("version 3", -EPROTONOSUPPORT, "version 3", blk[4] = 3);
	RESEALED("version 0", -EPROTONOSUPPORT, "version 0", blk[4] = 0);
	RESEALED("block size 512", -EINVAL, "block size", blk[9] = 2);
	RESEALED("reserved byte", -EINVAL, "reserved", blk[230] = 1);
	RESEALED("journal flag without a UUID", -EINVAL, "journal",
		 blk[216] = 1);
	RESEALED("unknown cache flag", -EINVAL, "journal", blk[216] = 4);
	RESEALED("journal UUID without the flag", -EINVAL, "journal",
		 blk[192] = 1);
	RESEALED("journal floor without the flag", -EINVAL, "journal",
		 blk[208] = 1);
	RESEALED("reserved tail", -EINVAL, "reserved", blk[4095] = 1);
	RESEALED("unterminated name", -EINVAL, "name",
		 memset(blk + 48, 'a', 32));
	RESEALED("level 3", -EINVAL, "level", blk[80] = 3);
	RESEALED("role 6 of 6", -EINVAL, "role", blk[96] = 6);
	RESEALED("data offset", -EINVAL, "data offset", blk[105] = 0);
	RESEALED("size mismatch", -EINVAL, "sizes", blk[120] ^= 8);
	RESEALED("policy 9", -EINVAL, "policy", blk[128 + 16] = 9);
	RESEALED("member state 0", -EINVAL, "state",
		 memset(blk + 256 + 16, 0, 4));
	RESEALED("slot past nr_members", -EINVAL, "slot",
		 blk[256 + 6 * 32] = 1);
	RESEALED("strip 3 KiB", -EINVAL, "strip",
		 (blk[92] = 0, blk[93] = 0x0c, blk[94] = 0));
	free(blk);
	free(good);
}

/* The job checkpoint fields survive a round trip and are validated. */
static void test_job_fields(void)
{
	u8 *blk = malloc(VRAID_MD_BLOCK);
	char msg[VRAID_MSG_LEN];
	struct vraid_md a, b;
	int ret;

	sample(&a, VRAID_LEVEL_5, 4, 0, 65536, 1);
	a.job_type = VRAID_JOB_REBUILD;
	a.job_flags = VRAID_MD_JOB_PAUSED;
	a.job_rate_kib = 51200;
	a.job_pos = a.member_sectors / 2;
	a.init_pos = a.member_sectors;
	a.last_job = VRAID_JOB_CHECK;
	a.last_result = 125;
	a.last_mismatches = 3;
	a.members[1].state = VRAID_MEMBER_REBUILDING;
	tap_begin("job checkpoint round trip");
	vraid_md_encode(&a, blk);
	ret = vraid_md_decode(blk, &b, msg, sizeof(msg));
	CHECK(!ret, "decode: %d (%s)", ret, msg);
	CHECK(!ret && b.job_type == a.job_type && b.job_flags == a.job_flags &&
	      b.job_rate_kib == a.job_rate_kib && b.job_pos == a.job_pos &&
	      b.init_pos == a.init_pos && b.last_job == a.last_job &&
	      b.last_result == a.last_result &&
	      b.last_mismatches == a.last_mismatches &&
	      b.members[1].state == VRAID_MEMBER_REBUILDING, "fields differ");
	tap_end();

	tap_begin("job checkpoint damage");
	b = a;
	b.job_type = 9;
	vraid_md_encode(&b, blk);
	ret = vraid_md_decode(blk, &b, msg, sizeof(msg));
	CHECK(ret == -EINVAL && strstr(msg, "job"), "job type 9: %d %s", ret, msg);
	b = a;
	b.job_flags = 2;
	vraid_md_encode(&b, blk);
	ret = vraid_md_decode(blk, &b, msg, sizeof(msg));
	CHECK(ret == -EINVAL && strstr(msg, "job"), "flags 2: %d %s", ret, msg);
	b = a;
	b.job_pos = a.member_sectors + 1;
	vraid_md_encode(&b, blk);
	ret = vraid_md_decode(blk, &b, msg, sizeof(msg));
	CHECK(ret == -EINVAL && strstr(msg, "position"), "pos: %d %s", ret, msg);
	b = a;
	b.init_pos = a.member_sectors + 8;
	vraid_md_encode(&b, blk);
	ret = vraid_md_decode(blk, &b, msg, sizeof(msg));
	CHECK(ret == -EINVAL && strstr(msg, "position"), "init: %d %s", ret, msg);
	tap_end();
	free(blk);
}

static void test_bitmap(void)
{
	u8 *blk = malloc(VRAID_BM_BYTES), bits[4096] = { 0 }, uuid[16];
	char msg[VRAID_MSG_LEN];
	u32 shift, nbits, i;
	int ret;

	for (i = 0; i < 16; i++)
		uuid[i] = (u8)(i * 3 + 1);
	tap_begin("bitmap region size");
	CHECK(vraid_bm_shift(131072, 7) == 11, "64 MiB: 2^%u",
	      vraid_bm_shift(131072, 7));
	CHECK(vraid_bm_shift(131072, 11) == 11, "1 MiB strip");
	/* 10 TB member: regions so that at most 32768 of them. */
	shift = vraid_bm_shift(19531250000ULL, 7);
	CHECK(((19531250000ULL + (1ULL << shift) - 1) >> shift) <= 32768 &&
	      ((19531250000ULL + (1ULL << (shift - 1)) - 1) >> (shift - 1)) >
	      32768, "10 TB: 2^%u", shift);
	tap_end();

	tap_begin("bitmap round trip");
	bits[0] = 0x81;
	bits[7] = 0x40;
	vraid_bm_encode(uuid, 11, 63, bits, blk);
	ret = vraid_bm_decode(blk, uuid, &shift, &nbits, msg, sizeof(msg));
	CHECK(!ret && shift == 11 && nbits == 63, "%d %u %u (%s)", ret, shift,
	      nbits, msg);
	CHECK(blk[4096] == 0x81 && blk[4096 + 7] == 0x40, "bits moved");
	tap_end();

	tap_begin("bitmap damage");
	blk[4096 + 3] ^= 1;
	ret = vraid_bm_decode(blk, uuid, &shift, &nbits, msg, sizeof(msg));
	CHECK(ret == -EINVAL && strstr(msg, "checksum"), "flip: %d %s", ret, msg);
	vraid_bm_encode(uuid, 11, 63, bits, blk);
	uuid[0] ^= 1;
	ret = vraid_bm_decode(blk, uuid, &shift, &nbits, msg, sizeof(msg));
	CHECK(ret == -EINVAL && strstr(msg, "another"), "uuid: %d %s", ret, msg);
	uuid[0] ^= 1;
	memset(blk, 0, VRAID_BM_BYTES);
	ret = vraid_bm_decode(blk, uuid, &shift, &nbits, msg, sizeof(msg));
	CHECK(ret == -ENODATA, "zeroes: %d", ret);
	vraid_bm_encode(uuid, 5, 63, bits, blk);
	ret = vraid_bm_decode(blk, uuid, &shift, &nbits, msg, sizeof(msg));
	CHECK(ret == -EINVAL && strstr(msg, "geometry"), "shift 5: %d %s", ret,
	      msg);
	tap_end();
	free(blk);
}

/* Set a little-endian u64 at @p. */
static void set64(u8 *p, u64 v)
{
	u32 i;

	for (i = 0; i < 8; i++)
		p[i] = (u8)(v >> (8 * i));
}

/*
 * Version 2: each member's rebuild position (byte 1280 + 8 * role) and
 * flags (byte 20 of its table entry) survive a round trip, and are
 * validated; a version 1 block still decodes, its one rebuild position
 * (the job's) given to every Rebuilding member, and encodes as version 2
 * to the same fields.
 */
static void test_member_positions(void)
{
	u8 *blk = malloc(VRAID_MD_BLOCK), *good = malloc(VRAID_MD_BLOCK);
	char msg[VRAID_MSG_LEN];
	struct vraid_md a, b, c;
	u64 half;
	int ret;
	u32 i;

	sample(&a, VRAID_LEVEL_6, 6, 0, 65536, 0);
	half = a.member_sectors / 2;
	a.flags = 0;
	a.init_pos = 0;
	a.job_type = VRAID_JOB_REBUILD;
	a.job_pos = 4096;
	a.members[1].state = VRAID_MEMBER_REBUILDING;
	a.members[1].rebuilt_to = half;
	a.members[1].flags = VRAID_MD_MEMBER_SECOND_COPY;
	a.members[4].state = VRAID_MEMBER_REBUILDING;
	a.members[4].rebuilt_to = 4096;
	a.members[5].flags = VRAID_MD_MEMBER_SECOND_COPY;
	vraid_md_encode(&a, good);

	tap_begin("version 2: per-member positions and flags round trip");
	ret = vraid_md_decode(good, &b, msg, sizeof(msg));
	CHECK(ret == 0, "%d (%s)", ret, msg);
	CHECK(!ret && b.version == 2, "version %u", b.version);
	CHECK(!ret && !memcmp(b.members, a.members, sizeof(a.members)),
	      "member table differs");
	CHECK(good[4] == 2 && good[256 + 32 + 20] == 1 &&
	      good[256 + 5 * 32 + 20] == 1 && good[256 + 4 * 32 + 20] == 0,
	      "version or flags not where the format says");
	CHECK(good[1280 + 8 * 4 + 1] == 0x10 && good[1280 + 8 * 4] == 0,
	      "member 4's position not at byte 1312");
	tap_end();

#define BAD(what, needle, edit) do {						tap_begin("%s -> -EINVAL", what);					memcpy(blk, good, VRAID_MD_BLOCK);					edit;									reseal(blk);								ret = vraid_md_decode(blk, &b, msg, sizeof(msg));			CHECK(ret == -EINVAL, "%d (%s)", ret, msg);				CHECK(strstr(msg, needle) != NULL, "message: %s", msg);		tap_end();							} while (0)

	BAD("position of an online member", "rebuild position",
	    set64(blk + 1280, 8));
	BAD("position past the data area", "rebuild position",
	    set64(blk + 1280 + 8, a.member_sectors + 1));
	BAD("position in a slot past nr_members", "slot",
	    set64(blk + 1280 + 8 * 6, 8));
	BAD("unknown member flag", "flags", blk[256 + 32 + 20] = 2);
	BAD("reserved tail after the positions", "reserved", blk[1536] = 1);

	tap_begin("version 1: the job's rebuild position is every rebuilding member's");
	a.members[1].rebuilt_to = 0;
	a.members[1].flags = 0;
	a.members[4].rebuilt_to = 0;
	a.members[5].flags = 0;
	vraid_md_encode(&a, blk);
	blk[4] = 1;
	reseal(blk);
	memset(&b, 0, sizeof(b));	/* padding too: compared below */
	ret = vraid_md_decode(blk, &b, msg, sizeof(msg));
	CHECK(ret == 0, "%d (%s)", ret, msg);
	CHECK(!ret && b.version == 1, "version %u", b.version);
	for (i = 0; !ret && i < 6; i++)
		CHECK(b.members[i].rebuilt_to ==
		      (i == 1 || i == 4 ? 4096U : 0U) && !b.members[i].flags,
		      "member %u: position %llu, flags 0x%x", i,
		      (unsigned long long)b.members[i].rebuilt_to,
		      b.members[i].flags);
	/* written again: version 2, the same fields */
	vraid_md_encode(&b, good);
	memset(&c, 0, sizeof(c));
	ret = vraid_md_decode(good, &c, msg, sizeof(msg));
	CHECK(ret == 0 && c.version == 2, "re-encoded: %d, version %u", ret,
	      c.version);
	c.version = 1;
	CHECK(!ret && !memcmp(&b, &c, sizeof(b)), "re-encoded fields differ");
	tap_end();

	tap_begin("version 1: no position without a rebuild job");
	a.job_type = VRAID_JOB_RESYNC;
	vraid_md_encode(&a, blk);
	blk[4] = 1;
	reseal(blk);
	ret = vraid_md_decode(blk, &b, msg, sizeof(msg));
	CHECK(ret == 0, "%d (%s)", ret, msg);
	for (i = 0; !ret && i < 6; i++)
		CHECK(!b.members[i].rebuilt_to, "member %u: %llu", i,
		      (unsigned long long)b.members[i].rebuilt_to);
	tap_end();

	/* a version 1 block has neither: those bytes were reserved */
	a.job_type = VRAID_JOB_REBUILD;
	vraid_md_encode(&a, good);
	good[4] = 1;
	reseal(good);
	BAD("version 1 with a member flag", "flags", blk[256 + 32 + 20] = 1);
	BAD("version 1 with a position", "reserved", set64(blk + 1280 + 8, 8));
#undef BAD
	free(blk);
	free(good);
}

int main(void)
{
	test_crc();
	test_roundtrip();
	test_damage();
	test_job_fields();
	test_member_positions();
	test_bitmap();
	return tap_done();
}
