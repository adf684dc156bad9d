// SPDX-License-Identifier: GPL-2.0
/*
 * The journal format of the portable core (driver/core/jformat.c): CRC check
 * values and the kernel crc32c() identity, superblock and record round
 * trips, every refusal with its reason, torn and damaged blocks, the
 * builder's bounds, ring arithmetic exhaustively on small rings, and a
 * whole ring written, wrapped with PADs, reclaimed and scanned back.
 */
#pragma GCC diagnostic ignored "-Wunused-function"
#include <stdlib.h>
#include <stdarg.h>
#include "tap.h"
#include <linux/vraid.h>
#include "metadata.h"
#include "jformat.h"
#include "le_bytes.h"

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

#define BLK VRAID_J_BLOCK

static const u8 JUUID[16] = { 0x4a, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
			      13, 14, 15 };
static const u8 VD1[16] = { 0x11, 0x11, 0x11, 0x11, 1, 2, 3, 4, 5, 6, 7, 8,
			    9, 10, 11, 12 };
static const u8 VD2[16] = { 0x22, 0x22, 0x22, 0x22, 1, 2, 3, 4, 5, 6, 7, 8,
			    9, 10, 11, 12 };

static u64 rng_state = 0x9e3779b97f4a7c15ULL;

static u64 rnd(void)
{
	return tap_xorshift(&rng_state);
}

/* Recompute the crc at @off (superblock 12, record header 8). */
static void reseal(u8 *blk, u32 off)
{
	memset(blk + off, 0, 4);
	put32(blk + off, vraid_crc32c(0, blk, BLK));
}

/* ---- CRC ---- */

/* The kernel's crc32c(): table driven, no inversion in or out. */
static u32 crc32c_le_ref(u32 crc, const u8 *p, size_t n)
{
	static u32 table[256];
	u32 i, j;

	if (!table[1]) {
		for (i = 0; i < 256; i++) {
			u32 c = i;

			for (j = 0; j < 8; j++)
				c = (c >> 1) ^ ((c & 1) ? 0x82f63b78U : 0);
			table[i] = c;
		}
	}
	while (n--)
		crc = table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return crc;
}

static void test_crc(void)
{
	u8 *buf = malloc(3 * BLK);
	u32 i, c, seed;

	tap_begin("crc32c check value 0xE3069283 and the crc32c() identity");
	CHECK(vraid_crc32c(0, "123456789", 9) == 0xe3069283U, "check value");
	CHECK(~crc32c_le_ref(~0U, (const u8 *)"123456789", 9) == 0xe3069283U,
	      "reference table crc");
	for (i = 0; i < 3 * BLK; i++)
		buf[i] = (u8)rnd();
	for (i = 0; i < 64; i++) {
		size_t n = rnd() % (3 * BLK);

		seed = i ? (u32)rnd() : 0;
		CHECK(vraid_crc32c(seed, buf, n) ==
		      ~crc32c_le_ref(~seed, buf, n),
		      "seed 0x%08x, %zu bytes", seed, n);
	}
	/* chaining block by block is one CRC over the whole payload */
	c = vraid_crc32c(0, buf, BLK);
	c = vraid_crc32c(c, buf + BLK, BLK);
	c = vraid_crc32c(c, buf + 2 * BLK, BLK);
	CHECK(c == vraid_crc32c(0, buf, 3 * BLK), "chained payload crc");
	tap_end();
	free(buf);
}

/* ---- superblock ---- */

static void sb_sample(struct vraid_jsb *sb, u64 gen)
{
	memset(sb, 0, sizeof(*sb));
	sb->generation = gen;
	sb->created = 1764500000;
	memcpy(sb->uuid, JUUID, 16);
	sb->ring_start = VRAID_J_RING_START;
	sb->ring_blocks = VRAID_J_MIN_RING + 1000;
	sb->tail_block = 77;
	sb->tail_seq = 12345;
	sb->flags = VRAID_J_SB_DETACHED | VRAID_J_SB_RELEASED;
}

static void test_sb(void)
{
	u8 *blk = malloc(BLK), *good = malloc(BLK), *again = malloc(BLK);
	char *msg = msg_buf(VRAID_MSG_LEN);
	struct vraid_jsb a, b;
	u64 dev = VRAID_J_RING_START + (VRAID_J_MIN_RING + 1000) * 8;
	u32 i, bad;
	int ret;

	tap_begin("superblock: round trip in both slots, encode is stable");
	for (i = 0; i < 2; i++) {
		sb_sample(&a, 40 + i);
		vraid_jsb_encode(&a, blk);
		ret = vraid_jsb_decode(blk, i, dev, &b, msg, VRAID_MSG_LEN);
		CHECK(ret == 0, "slot %u: %d (%s)", i, ret, msg);
		CHECK(!ret && !memcmp(&a, &b, sizeof(a)), "slot %u: fields", i);
		vraid_jsb_encode(&b, again);
		CHECK(!memcmp(blk, again, BLK), "slot %u: re-encode differs", i);
	}
	CHECK(blk[0] == 'V' && blk[1] == 'R' && blk[2] == 'J' && blk[3] == 'L',
	      "magic reads VRJL");
	tap_end();

	sb_sample(&a, 40);
	vraid_jsb_encode(&a, good);

	tap_begin("superblock: every flipped bit (1 in 7) is refused");
	for (i = 0, bad = 0; i < BLK * 8; i += 7) {
		memcpy(blk, good, BLK);
		blk[i / 8] ^= (u8)(1u << (i % 8));
		if (!vraid_jsb_decode(blk, 0, dev, &b, msg, VRAID_MSG_LEN))
			bad++;
	}
	CHECK(bad == 0, "%u damaged superblocks accepted", bad);
	tap_end();

	tap_begin("superblock: version 1 (before parity records) is read");
	memcpy(blk, good, BLK);
	blk[4] = 1;
	reseal(blk, 12);
	ret = vraid_jsb_decode(blk, 0, dev, &b, msg, VRAID_MSG_LEN);
	CHECK(ret == 0 && b.generation == 40, "%d (%s)", ret, msg);
	CHECK(good[4] == VRAID_J_VERSION && VRAID_J_VERSION == 2,
	      "encode writes version %u", good[4]);
	tap_end();

	tap_begin("superblock: torn (second half old zeros) is refused");
	memcpy(blk, good, BLK);
	memset(blk + 2048, 0xff, 2048);
	ret = vraid_jsb_decode(blk, 0, dev, &b, msg, VRAID_MSG_LEN);
	CHECK(ret == -EINVAL, "%d", ret);
	CHECK_MSG(msg, VRAID_MSG_LEN, "checksum mismatch");
	tap_end();

	tap_begin("superblock: blank -> -ENODATA");
	memset(blk, 0, BLK);
	msg_reset(msg, VRAID_MSG_LEN);
	ret = vraid_jsb_decode(blk, 0, 0, &b, msg, VRAID_MSG_LEN);
	CHECK(ret == -ENODATA, "%d", ret);
	CHECK_MSG(msg, VRAID_MSG_LEN, "no journal superblock");
	tap_end();

#define SB_BAD(what, errno_, needle, slot, devs, edit) do {		\
	tap_begin("superblock: %s -> %d", what, errno_);		\
	memcpy(blk, good, BLK);						\
	edit;								\
	reseal(blk, 12);						\
	msg_reset(msg, VRAID_MSG_LEN);					\
	ret = vraid_jsb_decode(blk, slot, devs, &b, msg, VRAID_MSG_LEN); \
	CHECK(ret == (errno_), "%d (%.128s)", ret, msg);		\
	CHECK_MSG(msg, VRAID_MSG_LEN, needle);				\
	tap_end();							\
} while (0)

	SB_BAD("version 3", -EPROTONOSUPPORT, "version 3", 0, dev, blk[4] = 3);
	SB_BAD("version 0", -EPROTONOSUPPORT, "version 0", 0, dev, blk[4] = 0);
	SB_BAD("block size 512", -EINVAL, "block size 512", 0, dev,
	       put32(blk + 8, 512));
	SB_BAD("reserved byte", -EINVAL, "reserved", 0, dev, blk[4095] = 1);
	SB_BAD("reserved byte 84", -EINVAL, "reserved", 0, dev, blk[84] = 1);
	SB_BAD("even generation in slot 1", -EINVAL, "slot 1", 1, dev, (void)0);
	SB_BAD("odd generation in slot 0", -EINVAL, "slot 0", 0, dev,
	       put64(blk + 16, 41));
	SB_BAD("slot 2", -EINVAL, "slot 2", 2, dev, (void)0);
	SB_BAD("zero UUID", -EINVAL, "UUID is zero", 0, dev,
	       memset(blk + 32, 0, 16));
	SB_BAD("unknown flag", -EINVAL, "unknown journal flags 0x4", 0, dev,
	       put32(blk + 80, 4));
	SB_BAD("ring start 4096", -EINVAL, "ring at sector 4096", 0, dev,
	       put64(blk + 48, 4096));
	SB_BAD("ring too small", -EINVAL, "ring of", 0, 0,
	       put64(blk + 56, VRAID_J_MIN_RING - 1));
	SB_BAD("ring too large", -EINVAL, "ring of", 0, 0,
	       put64(blk + 56, VRAID_J_MAX_RING + 1));
	SB_BAD("device too small", -EINVAL, "does not fit", 0, dev - 8,
	       (void)0);
	SB_BAD("tail past the ring", -EINVAL, "journal tail", 0, dev,
	       put64(blk + 64, VRAID_J_MIN_RING + 1000));
	SB_BAD("tail seq 0", -EINVAL, "journal tail", 0, dev,
	       put64(blk + 72, 0));
	/* a crafted tail near U64_MAX would wrap the head's sequence */
	SB_BAD("tail seq U64_MAX - 5", -EINVAL, "journal tail", 0, dev,
	       put64(blk + 72, ~0ULL - 5));
	SB_BAD("tail seq 2^54 + 1", -EINVAL, "journal tail", 0, dev,
	       put64(blk + 72, VRAID_J_MAX_SEQ + 1));
#undef SB_BAD

	tap_begin("superblock: device size 0 is not checked, exact fit passes");
	CHECK(vraid_jsb_decode(good, 0, 0, &b, msg, VRAID_MSG_LEN) == 0, "0");
	CHECK(vraid_jsb_decode(good, 0, dev, &b, msg, VRAID_MSG_LEN) == 0,
	      "exact");
	CHECK(vraid_jsb_decode(good, 0, dev + 7, &b, msg, VRAID_MSG_LEN) == 0,
	      "partial block at the end");
	CHECK(vraid_jring_blocks(dev + 7) == VRAID_J_MIN_RING + 1000, "blocks");
	CHECK(vraid_jring_blocks(2048 + 7) == 0 && vraid_jring_blocks(0) == 0 &&
	      vraid_jring_blocks(2048 + 8) == 1, "tiny devices");
	CHECK(vraid_jring_blocks(VRAID_J_MIN_BYTES >> 9) == VRAID_J_MIN_RING,
	      "64 MiB gives the minimum ring");
	tap_end();

	tap_begin("superblock: a new ring takes 4 GiB at most; larger old rings are read");
	{
		u64 big = VRAID_J_RING_START + (5ULL << 30 >> 9);	/* 5 GiB */
		u64 huge = 4ULL << 40 >> 9;				/* 4 TiB */

		CHECK(VRAID_J_NEW_RING_MAX << 12 == 4ULL << 30, "4 GiB");
		CHECK(vraid_jring_fit(big) == 5ULL << 30 >> 12, "fit 5 GiB");
		CHECK(vraid_jring_blocks(big) == VRAID_J_NEW_RING_MAX &&
		      vraid_jring_blocks(huge) == VRAID_J_NEW_RING_MAX,
		      "capped");
		CHECK(vraid_jring_blocks(dev) == vraid_jring_fit(dev),
		      "small devices whole");
		/* a ring of 5 GiB formatted before the cap */
		sb_sample(&a, 40);
		a.ring_blocks = vraid_jring_fit(big);
		vraid_jsb_encode(&a, blk);
		ret = vraid_jsb_decode(blk, 0, big, &b, msg, VRAID_MSG_LEN);
		CHECK(ret == 0 && b.ring_blocks == 5ULL << 30 >> 12,
		      "old 5 GiB ring: %d (%s)", ret, msg);
		ret = vraid_jsb_decode(blk, 0, big - 8, &b, msg,
				       VRAID_MSG_LEN);
		CHECK(ret == -EINVAL, "one block short: %d", ret);
	}
	tap_end();

	free(blk);
	free(good);
	free(again);
	free(msg);
}

static void test_choose(void)
{
	char *msg = msg_buf(VRAID_MSG_LEN);
	struct vraid_jsb s0, s1;

	tap_begin("superblock slots: the valid one with the higher generation");
	sb_sample(&s0, 10);
	sb_sample(&s1, 11);
	CHECK(vraid_jsb_choose(&s0, 0, &s1, 0, msg, VRAID_MSG_LEN) == 1,
	      "11 over 10");
	s0.generation = 12;
	CHECK(vraid_jsb_choose(&s0, 0, &s1, 0, msg, VRAID_MSG_LEN) == 0,
	      "12 over 11");
	CHECK(vraid_jsb_choose(&s0, -EINVAL, &s1, 0, msg, VRAID_MSG_LEN) == 1,
	      "slot 0 torn");
	CHECK(vraid_jsb_choose(&s0, 0, &s1, -ENODATA, msg, VRAID_MSG_LEN) == 0,
	      "slot 1 blank");
	CHECK(vraid_jsb_choose(&s0, 0, &s1, -EPROTONOSUPPORT, msg,
			       VRAID_MSG_LEN) == 0, "slot 1 other version");
	msg_reset(msg, VRAID_MSG_LEN);
	CHECK(vraid_jsb_choose(&s0, -EINVAL, &s1, -ENODATA, msg,
			       VRAID_MSG_LEN) == -ENODATA, "neither");
	CHECK_MSG(msg, VRAID_MSG_LEN, "no valid journal superblock");
	s1.uuid[15] ^= 1;
	msg_reset(msg, VRAID_MSG_LEN);
	CHECK(vraid_jsb_choose(&s0, 0, &s1, 0, msg, VRAID_MSG_LEN) == -EINVAL,
	      "different journals");
	CHECK_MSG(msg, VRAID_MSG_LEN, "different journals");
	tap_end();
	free(msg);
}

/* ---- records ---- */

/* A record of every entry type: seq 100, 2 + 2 + 0 + 0 + 1 pages. */
static void build_sample(u8 *blk, struct vraid_jbuild *b)
{
	struct vraid_jref refs[3] = {
		{ 99, 4, 0 }, { 100, 0, 2 }, { 100, 4, 1 },
	};
	int ret;

	vraid_jrec_init(b, blk, 100);
	ret = vraid_jrec_add_data(b, VD1, 64, 0xf0, 0x0f, 2);
	ret |= vraid_jrec_add_parity(b, VD1, VRAID_DATA_OFFSET_SECTORS + 8,
				     1, refs, 1, 2);
	ret |= vraid_jrec_add_invalidate(b, VD2, 1001, 7);
	ret |= vraid_jrec_add_vd_clean(b, VD2, 100);
	ret |= vraid_jrec_add_data(b, VD1, 8, 0xff, 0xff, 1);
	ret |= vraid_jrec_add_parity(b, VD1, VRAID_DATA_OFFSET_SECTORS, 0,
				     refs, 3, 1);
	if (ret)
		abort();
	vraid_jrec_finish(b, 9, JUUID, 0xdeadbeef);
}

static void test_record_roundtrip(void)
{
	u8 *blk = malloc(BLK);
	char *msg = msg_buf(VRAID_MSG_LEN);
	struct vraid_jbuild b;
	struct vraid_jhdr h;
	struct vraid_jiter it;
	struct vraid_jentry e[8];
	struct vraid_jref r;
	int ret, n = 0;

	tap_begin("record: every entry type round trips");
	build_sample(blk, &b);
	ret = vraid_jhdr_decode(blk, &h, msg, VRAID_MSG_LEN);
	CHECK(ret == 0, "%d (%s)", ret, msg);
	CHECK(h.entries == 6 && h.seq == 100 && h.position == 9 &&
	      h.payload_blocks == 6 && h.payload_crc == 0xdeadbeef &&
	      !h.flags && !memcmp(h.uuid, JUUID, 16), "header fields");
	vraid_jiter_init(&it, blk, &h);
	while (n < 8 && (ret = vraid_jiter_next(&it, &e[n], msg,
					       VRAID_MSG_LEN)) > 0)
		n++;
	CHECK(ret == 0 && n == 6, "%d entries, ret %d (%s)", n, ret, msg);
	CHECK(e[0].type == VRAID_JE_DATA && e[0].size == 48 &&
	      e[0].sector == 64 && e[0].pages == 2 && e[0].page_off == 0 &&
	      e[0].first_mask == 0xf0 && e[0].last_mask == 0x0f &&
	      !memcmp(e[0].vd_uuid, VD1, 16), "DATA");
	CHECK(e[1].type == VRAID_JE_PARITY && e[1].size == 72 &&
	      e[1].sector == VRAID_DATA_OFFSET_SECTORS + 8 && e[1].span == 1 &&
	      e[1].nrefs == 1 && e[1].pages == 2 && e[1].page_off == 2,
	      "PARITY");
	vraid_jentry_ref(&e[1], 0, &r);
	CHECK(r.seq == 99 && r.entry == 4 && r.data_index == 0, "ref");
	CHECK(e[2].type == VRAID_JE_INVALIDATE && e[2].sector == 1001 &&
	      e[2].sectors == 7 && !e[2].pages && e[2].page_off == 4 &&
	      !memcmp(e[2].vd_uuid, VD2, 16), "INVALIDATE");
	CHECK(e[3].type == VRAID_JE_VD_CLEAN && e[3].size == 40 &&
	      e[3].floor == 100 && !e[3].pages, "VD_CLEAN");
	CHECK(e[4].page_off == 4 && e[4].pages == 1 && e[4].index == 4,
	      "second DATA");
	CHECK(e[5].nrefs == 3 && e[5].page_off == 5 && e[5].size == 104,
	      "three refs");
	vraid_jentry_ref(&e[5], 2, &r);
	CHECK(r.seq == 100 && r.entry == 4 && r.data_index == 1, "ref 2");
	CHECK(blk[0] == 'V' && blk[1] == 'R' && blk[2] == 'J' && blk[3] == 'R',
	      "magic reads VRJR");
	tap_end();

	tap_begin("record: PAD round trip");
	vraid_jrec_pad(blk, 7, 1000, JUUID, 255);
	ret = vraid_jhdr_decode(blk, &h, msg, VRAID_MSG_LEN);
	CHECK(ret == 0, "%d (%s)", ret, msg);
	CHECK(h.flags == VRAID_J_REC_PAD && h.payload_blocks == 255 &&
	      !h.entries && h.seq == 7 && h.position == 1000, "fields");
	vraid_jiter_init(&it, blk, &h);
	CHECK(vraid_jiter_next(&it, &e[0], msg, VRAID_MSG_LEN) == 0,
	      "no entries in a PAD");
	CHECK(vraid_jhdr_expect(&h, JUUID, 7, 1000, 1256, msg,
				VRAID_MSG_LEN) == 0, "ends the ring");
	tap_end();
	free(blk);
	free(msg);
}

static void test_record_damage(void)
{
	u8 *blk = malloc(BLK), *good = malloc(BLK);
	char *msg = msg_buf(VRAID_MSG_LEN);
	struct vraid_jbuild b;
	struct vraid_jhdr h;
	u32 i, bad;
	int ret;

	build_sample(good, &b);
	/* entry offsets in the sample: 64, 112, 184, 232, 272, 320; end 424 */

	tap_begin("record: every flipped bit (1 in 7) is refused");
	for (i = 0, bad = 0; i < BLK * 8; i += 7) {
		memcpy(blk, good, BLK);
		blk[i / 8] ^= (u8)(1u << (i % 8));
		if (!vraid_jhdr_decode(blk, &h, msg, VRAID_MSG_LEN))
			bad++;
	}
	CHECK(bad == 0, "%u damaged headers accepted", bad);
	tap_end();

	tap_begin("record: torn header blocks are refused");
	for (i = 512, bad = 0; i < BLK; i += 512) {
		memcpy(blk, good, BLK);
		memset(blk + i, 0xa5, BLK - i);	/* old bytes after a tear */
		if (!vraid_jhdr_decode(blk, &h, msg, VRAID_MSG_LEN))
			bad++;
		memcpy(blk, good, BLK);
		memset(blk, 0, i);
		if (vraid_jhdr_decode(blk, &h, msg, VRAID_MSG_LEN) != -ENODATA)
			bad++;
	}
	CHECK(bad == 0, "%u torn headers accepted", bad);
	tap_end();

#define REC_BAD(what, errno_, needle, edit) do {			\
	tap_begin("record: %s -> %d", what, errno_);			\
	memcpy(blk, good, BLK);						\
	edit;								\
	reseal(blk, 8);							\
	msg_reset(msg, VRAID_MSG_LEN);					\
	ret = vraid_jhdr_decode(blk, &h, msg, VRAID_MSG_LEN);		\
	CHECK(ret == (errno_), "%d (%.128s)", ret, msg);		\
	CHECK_MSG(msg, VRAID_MSG_LEN, needle);				\
	tap_end();							\
} while (0)

	REC_BAD("no magic", -ENODATA, "no journal record", blk[0] = 0);
	REC_BAD("version 2", -EPROTONOSUPPORT, "version 2", blk[4] = 2);
	REC_BAD("reserved header byte", -EINVAL, "reserved record header",
		blk[60] = 1);
	REC_BAD("unknown flag", -EINVAL, "unknown record flags 0x2",
		blk[52] = 2);
	REC_BAD("seq 0", -EINVAL, "seq 0", put64(blk + 16, 0));
	REC_BAD("zero journal UUID", -EINVAL, "zero journal UUID",
		memset(blk + 32, 0, 16));
	REC_BAD("257 payload blocks", -EINVAL, "257 payload blocks",
		put32(blk + 48, 257));
	REC_BAD("no entries", -EINVAL, "0 entries", blk[6] = 0);
	REC_BAD("101 entries", -EINVAL, "101 entries", blk[6] = 101);
	REC_BAD("one entry more than written", -EINVAL, "entry 6: size 0",
		blk[6] = 7);
	REC_BAD("one entry less than written", -EINVAL,
		"payload blocks, the header says", blk[6] = 5);
	REC_BAD("payload count too high", -EINVAL, "the header says 7",
		blk[48] = 7);
	REC_BAD("payload count too low", -EINVAL, "go past the 5 payload",
		blk[48] = 5);
	REC_BAD("bytes after the last entry", -EINVAL, "not zero",
		blk[4000] = 1);
	REC_BAD("PAD with entries", -EINVAL, "PAD record",
		blk[52] = VRAID_J_REC_PAD);
	REC_BAD("PAD with a payload crc", -EINVAL, "PAD record",
		(blk[52] = VRAID_J_REC_PAD, blk[6] = 0, memset(blk + 64, 0, 4032)));
	/* entry head (entry 0 at 64) */
	REC_BAD("entry size not a multiple of 8", -EINVAL, "entry 0: size 44",
		blk[66] = 44);
	REC_BAD("entry size 8", -EINVAL, "entry 0: size 8", blk[66] = 8);
	REC_BAD("entry past the block", -EINVAL, "entry 0: size 4096",
		(blk[66] = 0, blk[67] = 16));
	REC_BAD("unknown type", -EINVAL, "entry 0: unknown type 5",
		blk[64] = 5);
	REC_BAD("type 0", -EINVAL, "entry 0: unknown type 0", blk[64] = 0);
	REC_BAD("entry flags", -EINVAL, "entry 0: unknown flags", blk[68] = 2);
	REC_BAD("parity data of 2 pages", -EINVAL,
		"entry 0: parity DATA entry is not one whole", blk[68] = 1);
	REC_BAD("parity-data flag on PARITY", -EINVAL,
		"entry 1: unknown flags 0x1", blk[116] = 1);
	REC_BAD("entry reserved u16", -EINVAL, "entry 0: reserved",
		blk[70] = 1);
	REC_BAD("entry reserved u32", -EINVAL, "entry 0: reserved",
		blk[79] = 1);
	REC_BAD("DATA of 40 bytes", -EINVAL, "DATA entry of 40 bytes",
		blk[66] = 40);
	REC_BAD("VD UUID zero", -EINVAL, "entry 0: VD UUID is zero",
		memset(blk + 80, 0, 16));
	/* DATA (entry 0) */
	REC_BAD("DATA reserved", -EINVAL, "entry 0: reserved", blk[111] = 1);
	REC_BAD("DATA of 0 pages", -EINVAL, "DATA entry of 0 pages",
		(blk[72] = 0, blk[48] = 4));
	REC_BAD("DATA of 257 pages", -EINVAL, "DATA entry of 257 pages",
		put32(blk + 72, 257));
	REC_BAD("DATA not 4 KiB aligned", -EINVAL, "not 4 KiB aligned",
		blk[96] = 65);
	REC_BAD("DATA past 2^64", -EINVAL, "2^64",
		put64(blk + 96, ~0ULL - 7));
	REC_BAD("DATA first mask zero", -EINVAL, "masks 0x00/0x0f",
		blk[104] = 0);
	REC_BAD("DATA last mask zero", -EINVAL, "masks 0xf0/0x00",
		blk[105] = 0);
	/* DATA (entry 4 at 272, one page) */
	REC_BAD("DATA one page, two masks", -EINVAL, "equal for one page",
		blk[272 + 41] = 0x0f);
	/* PARITY (entry 1 at 112, 1 ref) */
	REC_BAD("PARITY of 48 bytes", -EINVAL, "PARITY entry of 48 bytes",
		blk[114] = 48);
	REC_BAD("PARITY 0 refs", -EINVAL, "0 references",
		blk[112 + 44] = 0);
	REC_BAD("PARITY 32 refs", -EINVAL, "32 references",
		blk[112 + 44] = 32);
	REC_BAD("PARITY size and refs disagree", -EINVAL,
		"PARITY entry of 72 bytes, expected 88", blk[112 + 44] = 2);
	REC_BAD("PARITY reserved", -EINVAL, "entry 1: reserved",
		blk[112 + 55] = 1);
	REC_BAD("PARITY of 3 pages", -EINVAL, "PARITY entry of 3 pages",
		(blk[112 + 8] = 3, blk[48] = 7));
	REC_BAD("PARITY of 0 pages", -EINVAL, "PARITY entry of 0 pages",
		(blk[112 + 8] = 0, blk[48] = 4));
	REC_BAD("PARITY not 4 KiB aligned", -EINVAL, "4 KiB column",
		blk[112 + 32] += 1);
	REC_BAD("PARITY in the reserved area", -EINVAL, "4 KiB column",
		put64(blk + 112 + 32, 8));
	REC_BAD("PARITY of span 32", -EINVAL, "span 32", blk[112 + 40] = 32);
	REC_BAD("reference reserved", -EINVAL, "reference 0: reserved",
		blk[112 + 56 + 15] = 1);
	REC_BAD("reference to a later seq", -EINVAL,
		"reference 0 to seq 101 from record 100",
		blk[112 + 56] = 101);
	REC_BAD("reference to seq 0", -EINVAL, "to seq 0",
		memset(blk + 112 + 56, 0, 8));
	REC_BAD("data index 31", -EINVAL, "data index 31",
		blk[112 + 56 + 10] = 31);
	/* PARITY (entry 5 at 320, refs at 376, 392, 408) */
	REC_BAD("repeated data index", -EINVAL, "data index 0 out of range or repeated",
		blk[408 + 10] = 0);
	REC_BAD("same-record ref to a non-DATA entry", -EINVAL,
		"entry 3 of this record", blk[392 + 8] = 3);
	REC_BAD("same-record ref to itself", -EINVAL,
		"entry 5 of this record", blk[392 + 8] = 5);
	REC_BAD("same-record ref to a later entry", -EINVAL,
		"entry 9 of this record", blk[392 + 8] = 9);
	/* INVALIDATE (entry 2 at 184) */
	REC_BAD("INVALIDATE with pages", -EINVAL, "INVALIDATE entry with 1 pages",
		(blk[184 + 8] = 1, blk[48] = 7));
	REC_BAD("INVALIDATE of 0 sectors", -EINVAL, "INVALIDATE of 0 sectors",
		memset(blk + 184 + 40, 0, 8));
	REC_BAD("INVALIDATE past 2^64", -EINVAL, "INVALIDATE of",
		put64(blk + 184 + 40, ~0ULL - 100));
	REC_BAD("INVALIDATE of 56 bytes", -EINVAL,
		"INVALIDATE entry of 56 bytes", blk[186] = 56);
	/* VD_CLEAN (entry 3 at 232) */
	REC_BAD("VD_CLEAN floor above its seq", -EINVAL,
		"floor 101 above its record's seq 100", blk[232 + 32] = 101);
	REC_BAD("VD_CLEAN with pages", -EINVAL, "VD_CLEAN entry with 1 pages",
		(blk[232 + 8] = 1, blk[48] = 7));
#undef REC_BAD

	free(blk);
	free(good);
	free(msg);
}

static void test_builder(void)
{
	static const u8 zero_uuid[16];
	u8 *blk = malloc(BLK), *before = malloc(BLK);
	char *msg = msg_buf(VRAID_MSG_LEN);
	struct vraid_jref refs[32];
	struct vraid_jbuild b;
	struct vraid_jhdr h;
	u32 i, n;
	int ret;

	tap_begin("builder: fills the header block, then -ENOSPC");
	vraid_jrec_init(&b, blk, 5);
	for (n = 0; vraid_jrec_add_vd_clean(&b, VD1, 5) == 0; n++)
		;
	CHECK(n == VRAID_J_MAX_ENTRIES, "%u VD_CLEAN entries fit", n);
	CHECK(vraid_jrec_add_invalidate(&b, VD1, 0, 1) == -ENOSPC, "full");
	vraid_jrec_finish(&b, 0, JUUID, 0);
	ret = vraid_jhdr_decode(blk, &h, msg, VRAID_MSG_LEN);
	CHECK(ret == 0 && h.entries == n, "%d (%s)", ret, msg);
	tap_end();

	tap_begin("builder: the largest PARITY entries fill the block exactly");
	for (i = 0; i < 32; i++) {
		refs[i].seq = 1 + i;
		refs[i].entry = (u16)i;
		refs[i].data_index = (u16)i;
	}
	vraid_jrec_init(&b, blk, 40);
	for (n = 0; !vraid_jrec_add_parity(&b, VD1, VRAID_DATA_OFFSET_SECTORS,
					   0, refs, 31, 2); n++)
		;
	CHECK(n == (BLK - 64) / (56 + 31 * 16), "%u entries of 552 bytes", n);
	CHECK(vraid_jrec_add_parity(&b, VD1, VRAID_DATA_OFFSET_SECTORS, 0,
				    refs, 32, 1) == -EINVAL, "32 refs");
	vraid_jrec_finish(&b, 0, JUUID, 0);
	ret = vraid_jhdr_decode(blk, &h, msg, VRAID_MSG_LEN);
	CHECK(ret == 0 && h.payload_blocks == 2 * n, "%d (%s)", ret, msg);
	tap_end();

	tap_begin("builder: at most 256 payload blocks");
	vraid_jrec_init(&b, blk, 5);
	CHECK(vraid_jrec_add_data(&b, VD1, 0, 0xff, 0xff, 200) == 0, "200");
	CHECK(vraid_jrec_add_data(&b, VD1, 0, 0xff, 0xff, 57) == -ENOSPC,
	      "257");
	CHECK(vraid_jrec_add_data(&b, VD1, 0, 0xff, 0xff, 56) == 0, "256");
	CHECK(vraid_jrec_add_vd_clean(&b, VD1, 1) == 0, "no pages: fits");
	vraid_jrec_finish(&b, 0, JUUID, 0);
	ret = vraid_jhdr_decode(blk, &h, msg, VRAID_MSG_LEN);
	CHECK(ret == 0 && h.payload_blocks == 256, "%d (%s)", ret, msg);
	tap_end();

	tap_begin("builder: an invalid entry is refused and leaves no trace");
	vraid_jrec_init(&b, blk, 50);
	vraid_jrec_add_data(&b, VD1, 0, 0xff, 0xff, 1);
	memcpy(before, blk, BLK);
	CHECK(vraid_jrec_add_data(&b, VD1, 4, 0xff, 0xff, 1) == -EINVAL,
	      "misaligned");
	CHECK(vraid_jrec_add_data(&b, VD1, 8, 0, 0xff, 1) == -EINVAL, "mask");
	CHECK(vraid_jrec_add_data(&b, VD1, 8, 0xff, 0xff, 0) == -EINVAL,
	      "no pages");
	CHECK(vraid_jrec_add_data(&b, JUUID, 8, 1, 2, 1) == -EINVAL,
	      "one page, two masks");
	memset(refs, 0, sizeof(refs));
	CHECK(vraid_jrec_add_data(&b, zero_uuid, 8, 1, 1, 1) == -EINVAL,
	      "zero VD UUID");
	refs[0].seq = 51;
	CHECK(vraid_jrec_add_parity(&b, VD1, VRAID_DATA_OFFSET_SECTORS, 0,
				    refs, 1, 1) == -EINVAL, "future seq");
	refs[0].seq = 50;
	refs[0].entry = 1;
	CHECK(vraid_jrec_add_parity(&b, VD1, VRAID_DATA_OFFSET_SECTORS, 0,
				    refs, 1, 1) == -EINVAL, "own entry");
	CHECK(vraid_jrec_add_parity(&b, VD1, VRAID_DATA_OFFSET_SECTORS, 0,
				    refs, 0, 1) == -EINVAL, "no refs");
	CHECK(vraid_jrec_add_invalidate(&b, VD1, 8, 0) == -EINVAL, "empty");
	CHECK(vraid_jrec_add_vd_clean(&b, VD1, 51) == -EINVAL, "floor");
	CHECK(!memcmp(before, blk, BLK) && b.entries == 1 && b.pages == 1 &&
	      b.off == 64 + 48, "block and builder unchanged");
	refs[0].entry = 0;
	CHECK(vraid_jrec_add_parity(&b, VD1, VRAID_DATA_OFFSET_SECTORS, 0,
				    refs, 1, 1) == 0, "ref to entry 0 of itself");
	vraid_jrec_finish(&b, 3, JUUID, 0);
	ret = vraid_jhdr_decode(blk, &h, msg, VRAID_MSG_LEN);
	CHECK(ret == 0 && h.entries == 2 && h.payload_blocks == 2, "%d (%s)",
	      ret, msg);
	tap_end();

	free(blk);
	free(before);
	free(msg);
}

/*
 * Add one parity column of @n data blocks, the first @nlog logged here,
 * and @npq P/Q to @b as the module does (PARITY_DATA entries, then the
 * PARITY entry naming them and DATA entries of an earlier record); if
 * the builder refuses any entry, @b and @blk are as before.  Returns
 * whether it took the column.
 */
static bool build_column(struct vraid_jbuild *b, u8 *blk, u8 *save, u32 n,
			 u32 nlog, u32 npq)
{
	struct vraid_jbuild keep = *b;
	struct vraid_jref refs[VRAID_J_MAX_REFS];
	u32 i, first = b->entries;
	int ret = 0;

	memcpy(save, blk, BLK);
	for (i = 0; i < n && !ret; i++) {
		refs[i].seq = i < nlog ? b->seq : b->seq - 1;
		refs[i].entry = (u16)(i < nlog ? first + i : i);
		refs[i].data_index = (u16)i;
		if (i < nlog)
			ret = vraid_jrec_add_pdata(b, VD1, 8ULL * i);
	}
	if (!ret)
		ret = vraid_jrec_add_parity(b, VD1, VRAID_DATA_OFFSET_SECTORS,
					    0, refs, n, npq);
	if (ret) {
		*b = keep;
		memcpy(blk, save, BLK);
	}
	return !ret;
}

/* vraid_jsize_column() takes exactly the columns the builder would. */
static void test_jsize(void)
{
	static const u32 ns[] = { 1, 2, 3, 4, 7, 15, 30, 31 };
	u8 *blk = malloc(BLK), *save = malloc(BLK);
	char *msg = msg_buf(VRAID_MSG_LEN);
	struct vraid_jsize size;
	struct vraid_jbuild b;
	struct vraid_jhdr h;
	u32 k, npq, cols, seed = 12345, n, nlog;
	bool took, built, agree;
	int ret;

	tap_begin("batch sizing: parity columns as the builder takes them");
	for (k = 0; k < ARRAY_SIZE(ns) * 4 + 16; k++) {
		npq = 1 + (k & 1);
		vraid_jrec_init(&b, blk, 77);
		vraid_jsize_init(&size);
		agree = true;
		for (cols = 0;; cols++) {
			if (k < ARRAY_SIZE(ns) * 4) {
				/* every block logged, or every other one */
				n = ns[k / 4];
				nlog = k & 2 ? n / 2 : n;
			} else {
				seed = seed * 1103515245 + 12345;
				n = 1 + (seed >> 16) % VRAID_J_MAX_REFS;
				seed = seed * 1103515245 + 12345;
				nlog = (seed >> 16) % (n + 1);
			}
			took = vraid_jsize_column(&size, n, nlog, npq,
						  VRAID_J_MAX_PAYLOAD);
			built = build_column(&b, blk, save, n, nlog, npq);
			if (took != built) {
				agree = false;
				break;
			}
			if (!took)
				break;
		}
		CHECK(agree && cols > 0, "n %u nlog %u npq %u: %u columns, sizing %d builder %d",
		      n, nlog, npq, cols, took, built);
		CHECK(size.bytes == b.off && size.entries == b.entries &&
		      size.pages == b.pages, "n %u: counts %u/%u/%u, builder %u/%u/%u",
		      n, size.bytes, size.entries, size.pages, b.off, b.entries,
		      b.pages);
		vraid_jrec_finish(&b, 0, JUUID, 0);
		ret = vraid_jhdr_decode(blk, &h, msg, VRAID_MSG_LEN);
		CHECK(ret == 0, "n %u: the record decodes (%s)", n, msg);
	}
	vraid_jsize_init(&size);
	CHECK(!vraid_jsize_column(&size, 0, 0, 1, 128) &&
	      !vraid_jsize_column(&size, 32, 32, 1, 128) &&
	      !vraid_jsize_column(&size, 1, 2, 1, 128) &&
	      !vraid_jsize_column(&size, 1, 1, 3, 128) &&
	      !vraid_jsize_column(&size, 1, 1, 1, VRAID_J_MAX_PAYLOAD + 1) &&
	      !size.pages && size.bytes == VRAID_J_HDR_SIZE,
	      "0 or 32 data blocks, more logged than there are, 3 P/Q, a payload over the limit: refused");
	for (cols = 0; vraid_jsize_column(&size, 1, 1, 1, 128); cols++)
		;
	CHECK(cols == 33, "%u columns of one block and P in a header", cols);
	vraid_jsize_init(&size);
	for (cols = 0; vraid_jsize_column(&size, 7, 7, 2, 128); cols++)
		;
	CHECK(cols == 8 && size.bytes == BLK && size.pages == 72,
	      "%u columns of 7 blocks and P+Q fill the header exactly", cols);
	vraid_jsize_init(&size);
	for (cols = 0; vraid_jsize_column(&size, 1, 1, 2, 64); cols++)
		;
	CHECK(cols == 21 && size.pages == 63,
	      "%u columns of 1 block and P+Q under 64 payload blocks", cols);
	/* data referenced in earlier records: a header and P per column */
	vraid_jsize_init(&size);
	for (cols = 0; vraid_jsize_column(&size, 1, 0, 1, 128); cols++)
		;
	CHECK(cols == 56 && size.pages == 56,
	      "%u columns of one referenced block and P in a header", cols);
	tap_end();
	free(blk);
	free(save);
	free(msg);
}

static void test_expect(void)
{
	u8 *blk = malloc(BLK);
	char *msg = msg_buf(VRAID_MSG_LEN);
	struct vraid_jbuild b;
	struct vraid_jhdr h;
	u8 other[16];

	build_sample(blk, &b);		/* seq 100 at block 9, 6 payload */
	vraid_jhdr_decode(blk, &h, msg, VRAID_MSG_LEN);
	memcpy(other, JUUID, 16);
	other[0] ^= 0x80;

	tap_begin("scan expectations: UUID, seq, position, ring end");
	CHECK(!vraid_jhdr_expect(&h, JUUID, 100, 9, 16, msg, VRAID_MSG_LEN),
	      "ends exactly at the ring end");
#define EXP_BAD(uuid, seq, pos, ring, needle) do {			\
	msg_reset(msg, VRAID_MSG_LEN);					\
	CHECK(vraid_jhdr_expect(&h, uuid, seq, pos, ring, msg,		\
				VRAID_MSG_LEN) == -EINVAL, needle);	\
	CHECK_MSG(msg, VRAID_MSG_LEN, needle);				\
} while (0)
	EXP_BAD(other, 100, 9, 100, "another journal");
	EXP_BAD(JUUID, 101, 9, 100, "seq 100, expected 101");
	EXP_BAD(JUUID, 100, 10, 100, "says block 9, found at 10");
	EXP_BAD(JUUID, 100, 9, 9, "found at 9 of 9");
	EXP_BAD(JUUID, 100, 9, 15, "6 payload blocks at block 9 of 15");
	vraid_jrec_pad(blk, 100, 9, JUUID, 5);
	vraid_jhdr_decode(blk, &h, msg, VRAID_MSG_LEN);
	CHECK(!vraid_jhdr_expect(&h, JUUID, 100, 9, 15, msg, VRAID_MSG_LEN),
	      "PAD to the end");
	EXP_BAD(JUUID, 100, 9, 16, "PAD record of 5");
	EXP_BAD(JUUID, 100, 9, 14, "PAD record of 5");
#undef EXP_BAD
	tap_end();
	free(blk);
	free(msg);
}

/* ---- ring arithmetic ---- */

static bool is_live(u64 tail, u64 head, u64 blk)
{
	/* blocks tail..head-1, cyclically */
	if (tail <= head)
		return blk >= tail && blk < head;
	return blk >= tail || blk < head;
}

static void test_ring_exhaustive(void)
{
	u64 ring, tail, head, n, start, pad, i, cases = 0;
	int ret;

	tap_begin("ring arithmetic: every tail, head and size of rings 1..24");
	for (ring = 1; ring <= 24; ring++) {
		for (tail = 0; tail < ring; tail++) {
			for (head = 0; head < ring; head++) {
				u64 used = vraid_jring_used(ring, tail, head);
				u64 fr = vraid_jring_free(ring, tail, head);
				u64 live = 0;

				for (i = 0; i < ring; i++)
					live += is_live(tail, head, i);
				CHECK(used == live && used + fr == ring - 1,
				      "ring %llu tail %llu head %llu: used %llu free %llu",
				      (unsigned long long)ring,
				      (unsigned long long)tail,
				      (unsigned long long)head,
				      (unsigned long long)used,
				      (unsigned long long)fr);
				for (n = 0; n <= ring + 1; n++) {
					bool fits = head + n <= ring;
					bool ok = n > 0;
					u64 mpad = fits ? 0 : ring - head;
					u64 mstart = fits ? head : 0;
					u64 nh;

					cases++;
					/* model: every block the PAD and the record take must be free */
					for (i = 0; ok && i < mpad; i++)
						ok = !is_live(tail, head, head + i);
					if (mstart + n > ring)
						ok = false;
					for (i = 0; ok && i < n; i++)
						ok = !is_live(tail, head, mstart + i);
					/* the record must not land on its own PAD */
					if (ok && mpad && n > head)
						ok = false;
					nh = ok ? (mstart + n) % ring : 0;
					/* and the new head must not meet the tail: that reads as empty */
					if (ok && nh == tail)
						ok = false;
					CHECK(vraid_jring_fits(ring, head, n) == fits,
					      "fits %llu/%llu/%llu",
					      (unsigned long long)ring,
					      (unsigned long long)head,
					      (unsigned long long)n);
					ret = vraid_jring_reserve(ring, tail, head, n,
								  &start, &pad);
					if (!CHECK((ret == 0) == ok,
						   "ring %llu tail %llu head %llu n %llu: reserve %d, model %d",
						   (unsigned long long)ring,
						   (unsigned long long)tail,
						   (unsigned long long)head,
						   (unsigned long long)n, ret, ok))
						continue;
					if (ret)
						continue;
					CHECK(start == mstart && pad == mpad &&
					      vraid_jring_cost(ring, head, n, &pad) ==
					      mpad + n &&
					      vraid_jring_advance(ring, start, n) == nh &&
					      vraid_jring_used(ring, tail, nh) ==
					      used + mpad + n,
					      "ring %llu tail %llu head %llu n %llu: start %llu pad %llu",
					      (unsigned long long)ring,
					      (unsigned long long)tail,
					      (unsigned long long)head,
					      (unsigned long long)n,
					      (unsigned long long)start,
					      (unsigned long long)pad);
				}
			}
		}
	}
	CHECK(cases > 90000, "%llu cases", (unsigned long long)cases);
	tap_end();

	tap_begin("ring arithmetic: large rings do not overflow");
	ring = VRAID_J_MAX_RING;
	CHECK(vraid_jring_free(ring, 0, 0) == ring - 1, "empty");
	CHECK(vraid_jring_free(ring, 5, 4) == 0, "full");
	CHECK(vraid_jring_advance(ring, ring - 1, 1) == 0, "wrap");
	CHECK(vraid_jring_advance(ring, ring - 1, 3) == 2, "wrap by 3");
	CHECK(!vraid_jring_fits(ring, ring - 1, ~0ULL), "huge record");
	CHECK(vraid_jring_reserve(ring, 0, 0, ~0ULL, &start, &pad) == -ENOSPC,
	      "huge reserve");
	CHECK(vraid_jring_reserve(ring, 0, ring, 1, &start, &pad) == -ENOSPC,
	      "head out of range");
	CHECK(vraid_jring_reserve(0, 0, 0, 1, &start, &pad) == -ENOSPC,
	      "empty ring");
	/* found by fuzz_journal: pad + blocks wrapped around 2^64 */
	CHECK(vraid_jring_reserve(~0ULL, 8137723051681775615ULL,
				  11096887494933807138ULL,
				  18446744073709544424ULL, &start, &pad) ==
	      -ENOSPC, "PAD plus record past 2^64");
	CHECK(vraid_jring_cost(~0ULL, 2, ~0ULL - 1, &pad) == ~0ULL,
	      "cost saturates");
	tap_end();
}

/*
 * A whole journal in memory: a small ring, records of random entries and
 * payload written with PADs where they do not fit, the tail moved on by
 * a reclaimer, and a scan from the tail (both CRCs, UUID, seq, position)
 * that must find exactly the live records and stop at the head.
 */
#define SIM_RING	64

struct sim_rec {
	u64 seq, pos;
	u32 blocks;		/* header + payload, or the PAD's */
};

static void test_ring_scan(void)
{
	u8 *ring = calloc(SIM_RING, BLK);
	char *msg = msg_buf(VRAID_MSG_LEN);
	struct sim_rec live[SIM_RING];
	u32 nlive = 0, round, found, bad = 0, pads = 0, torn = 0;
	u64 head = 0, tail = 0, seq = 1, tail_seq = 1;

	tap_begin("ring of %u blocks: 1000 records, PADs, reclaim, scan", SIM_RING);
	for (round = 0; round < 1000; round++) {
		struct vraid_jbuild b;
		struct vraid_jhdr h;
		u64 start, pad, pos, sseq;
		u32 pages = 1 + rnd() % 20, i, crc = 0, k, e;
		int ret;

		/* reclaim until the record fits */
		while (vraid_jring_reserve(SIM_RING, tail, head, pages + 1,
					   &start, &pad)) {
			if (!nlive) {
				bad++;
				break;
			}
			tail = vraid_jring_advance(SIM_RING, live[0].pos,
						   live[0].blocks);
			tail_seq = live[0].seq + 1;
			memmove(live, live + 1, --nlive * sizeof(live[0]));
			if (!nlive && tail != head)
				bad++;
		}
		if (pad) {
			vraid_jrec_pad(ring + head * BLK, seq, head, JUUID,
				       (u32)pad - 1);
			live[nlive].seq = seq++;
			live[nlive].pos = head;
			live[nlive++].blocks = (u32)pad;
			pads++;
		}
		vraid_jrec_init(&b, ring + start * BLK, seq);
		for (k = 0; k < pages; k += e) {
			e = 1 + rnd() % (pages - k);
			if (vraid_jrec_add_data(&b, VD1, (rnd() % 1000) * 8,
						0xff, 0xff, e))
				bad++;
			if (rnd() % 4 == 0)
				vraid_jrec_add_invalidate(&b, VD2, rnd() % 99, 1);
		}
		for (i = 0; i < pages; i++) {
			u8 *p = ring + (start + 1 + i) * BLK;

			memset(p, (int)(seq + i), BLK);
			crc = vraid_crc32c(crc, p, BLK);
		}
		vraid_jrec_finish(&b, start, JUUID, crc);
		live[nlive].seq = seq++;
		live[nlive].pos = start;
		live[nlive++].blocks = pages + 1;
		head = vraid_jring_advance(SIM_RING, start, pages + 1);

		/* the scan */
		pos = tail;
		sseq = tail_seq;
		for (found = 0;; found++) {
			u8 *hb = ring + pos * BLK;

			ret = vraid_jhdr_decode(hb, &h, msg, VRAID_MSG_LEN);
			if (!ret)
				ret = vraid_jhdr_expect(&h, JUUID, sseq, pos,
							SIM_RING, msg,
							VRAID_MSG_LEN);
			/* payload CRCs of the newest record only: time */
			if (!ret && !(h.flags & VRAID_J_REC_PAD) &&
			    h.seq == seq - 1) {
				crc = 0;
				for (i = 0; i < h.payload_blocks; i++)
					crc = vraid_crc32c(crc, hb + (1 + i) * BLK,
							   BLK);
				if (crc != h.payload_crc)
					ret = -EINVAL;
			}
			if (ret)
				break;
			if (found >= nlive || live[found].seq != h.seq ||
			    live[found].pos != pos) {
				bad++;
				break;
			}
			pos = vraid_jring_advance(SIM_RING, pos,
						  1 + h.payload_blocks);
			sseq++;
		}
		if (found != nlive || pos != head)
			bad++;

		/* a torn last record ends the scan one record earlier */
		if (round % 50 == 49 && pages > 1) {
			u8 *last = ring + (start + pages) * BLK;
			u8 save = last[100];

			last[100] ^= 1;
			crc = 0;
			for (i = 0; i < pages; i++)
				crc = vraid_crc32c(crc, ring + (start + 1 + i) * BLK,
						   BLK);
			vraid_jhdr_decode(ring + start * BLK, &h, msg,
					  VRAID_MSG_LEN);
			if (crc == h.payload_crc)
				bad++;
			last[100] = save;
			torn++;
		}
	}
	CHECK(bad == 0, "%u scans went wrong", bad);
	CHECK(pads > 10 && torn > 10, "%u PADs, %u torn", pads, torn);
	tap_end();
	free(ring);
	free(msg);
}

/* ---- the replay planner ---- */

/* Decode @nrec header blocks and append their entries of VD1 to @in. */
static u32 collect(u8 **blks, u32 nrec, struct vraid_jplan_in *in)
{
	char msg[VRAID_MSG_LEN];
	struct vraid_jhdr h;
	struct vraid_jiter it;
	struct vraid_jentry e;
	u32 r, n = 0;

	for (r = 0; r < nrec; r++) {
		if (vraid_jhdr_decode(blks[r], &h, msg, sizeof(msg)))
			abort();
		vraid_jiter_init(&it, blks[r], &h);
		while (vraid_jiter_next(&it, &e, msg, sizeof(msg)) > 0) {
			if (memcmp(e.vd_uuid, VD1, 16))
				continue;
			in[n].seq = h.seq;
			in[n++].e = e;
		}
	}
	return n;
}

static bool has_page(const struct vraid_jplan_page *p, u32 np, u64 sector,
		     u32 in, u32 page, u8 mask)
{
	u32 i;

	for (i = 0; i < np; i++)
		if (p[i].sector == sector && p[i].in == in &&
		    p[i].page == page && p[i].mask == mask)
			return true;
	return false;
}

/* The dirty cap keeps parity records within the ring (jformat.h). */
static void test_parity_cap(void)
{
	static const u64 rings[] = { VRAID_J_MIN_RING, 32512, 262144,
				     1ULL << 20, 1ULL << 30 };
	u32 i, npar;

	tap_begin("parity records: the dirty cap keeps them within the ring");
	for (npar = 1; npar <= 2; npar++) {
		u64 last = 0;

		for (i = 0; i < sizeof(rings) / sizeof(rings[0]); i++) {
			u64 ring = rings[i];
			u64 cap = vraid_jparity_dirty_cap(ring, npar);
			u64 res = vraid_jparity_reserve(ring, npar);
			u64 around = ring / VRAID_J_BYPASS + 512;
			u64 unlogged = vraid_jparity_unlogged_max(ring);
			u64 logged_rule = (2 + npar) * (2 * cap + around) +
					  2 * 257;
			u64 named_rule = (1 + npar) * cap +
					 (2 + npar) * (unlogged + around) +
					 2 * 257;

			/*
			 * Either bound holds: every page written logged
			 * again, or dirty pages named and only the unlogged
			 * ones (writers wait beyond the bound) logged again.
			 */
			CHECK(res >= (logged_rule < named_rule ? logged_rule :
				      named_rule),
			      "ring %llu npar %u: reserve %llu below cap %llu",
			      (unsigned long long)ring, npar,
			      (unsigned long long)res,
			      (unsigned long long)cap);
			/* a record's worth and a cached write (32 pages) */
			CHECK(unlogged >= 128 + 32 && unlogged <= ring / 16,
			      "ring %llu: %llu pages unlogged",
			      (unsigned long long)ring,
			      (unsigned long long)unlogged);
			/*
			 * Two drains' records (user 2, parity 2 + npar
			 * blocks a page at most, 1 + npar where named) fit
			 * beside the reserve, past the checkpoint's start.
			 */
			CHECK(cap == 64 ||
			      2 * cap * (3 + npar) + ring / 16 + res <= ring,
			      "ring %llu npar %u: cap %llu: two drains do not fit",
			      (unsigned long long)ring, npar,
			      (unsigned long long)cap);
			/* at the floor (RAID6, smallest journal): within half */
			CHECK(cap == 64 ? res <= ring / 2 :
			      res <= ring / 4 &&
			      ring / 4 - res < 2 * (2 + npar) + 1,
			      "ring %llu npar %u: reserve %llu not a quarter of the ring",
			      (unsigned long long)ring, npar,
			      (unsigned long long)res);
			CHECK(cap >= 64 && cap > last, "ring %llu: cap %llu",
			      (unsigned long long)ring,
			      (unsigned long long)cap);
			last = cap;
		}
	}
	CHECK(vraid_jparity_dirty_cap(VRAID_J_MIN_RING, 1) >= 128,
	      "smallest journal, RAID5: %llu pages",
	      (unsigned long long)vraid_jparity_dirty_cap(VRAID_J_MIN_RING,
							  1));
	/* named pages: 15.9 MiB, against 7.3 MiB if all were logged again */
	CHECK(vraid_jparity_dirty_cap(65280, 1) == 4075,
	      "256 MiB journal, RAID5: %llu pages",
	      (unsigned long long)vraid_jparity_dirty_cap(65280, 1));
	CHECK(vraid_jparity_dirty_cap(65280, 2) == 1866,
	      "256 MiB journal, RAID6: %llu pages",
	      (unsigned long long)vraid_jparity_dirty_cap(65280, 2));
	CHECK(vraid_jparity_dirty_cap(261120, 1) == 19375,
	      "1 GiB journal, RAID5: %llu pages",
	      (unsigned long long)vraid_jparity_dirty_cap(261120, 1));
	CHECK(vraid_jparity_dirty_cap(1000, 2) == 64, "tiny ring: the floor");
	/*
	 * Only mirrors bound (npar 0): no reserve, the first rule (every
	 * page logged again) caps dirty data, larger than it does with
	 * parity (RAID5 takes the named rule's, larger still from 128 MiB
	 * on); two drains of it (a user record
	 * block per page at least) fit in the eighth of the ring between
	 * the checkpoint's start (ring / 16) and three sixteenths.
	 */
	for (i = 0; i < sizeof(rings) / sizeof(rings[0]); i++) {
		u64 ring = rings[i], cap = vraid_jparity_dirty_cap(ring, 0);

		CHECK(cap > vraid_jparity_dirty_cap(ring, 2) &&
		      2 * cap <= ring / 8,
		      "ring %llu, mirrors: cap %llu",
		      (unsigned long long)ring, (unsigned long long)cap);
	}
	CHECK(vraid_jparity_dirty_cap(65280, 0) == 3185,
	      "256 MiB journal, mirrors: %llu pages (12.4 MiB)",
	      (unsigned long long)vraid_jparity_dirty_cap(65280, 0));
	tap_end();
}

static void test_plan(void)
{
	u8 *blks[6];
	struct vraid_jbuild b;
	struct vraid_jplan_in in[32];
	struct vraid_jplan_page pages[32];
	struct vraid_jplan plan;
	struct vraid_jref refs[2];
	u32 scratch[32], parity[32], n, i;
	char *msg = msg_buf(VRAID_MSG_LEN);
	int ret;

	for (i = 0; i < 6; i++)
		blks[i] = malloc(BLK);

	tap_begin("planner: latest version per sector, minus INVALIDATE");
	vraid_jrec_init(&b, blks[0], 10);
	vraid_jrec_add_data(&b, VD1, 0, 0xff, 0xff, 2);		/* in 0 */
	vraid_jrec_add_data(&b, VD2, 0, 0xff, 0xff, 2);		/* other VD */
	vraid_jrec_finish(&b, 0, JUUID, 0);
	vraid_jrec_init(&b, blks[1], 11);
	vraid_jrec_add_data(&b, VD1, 8, 0x0f, 0x0f, 1);		/* in 1 */
	vraid_jrec_add_invalidate(&b, VD1, 2, 1);		/* in 2 */
	vraid_jrec_add_data(&b, VD1, 24, 0x80, 0x01, 2);		/* in 3 */
	vraid_jrec_finish(&b, 3, JUUID, 0);
	n = collect(blks, 2, in);
	ret = vraid_jplan_make(in, n, 0, 1, scratch, parity, pages, 32, &plan,
			       msg, VRAID_MSG_LEN);
	CHECK(ret == 0 && n == 4, "%d, %u entries (%s)", ret, n, msg);
	CHECK(plan.first == 0 && plan.nparity == 0 && plan.npages == 5,
	      "first %u parity %u pages %u", plan.first, plan.nparity,
	      plan.npages);
	CHECK(has_page(pages, plan.npages, 0, 0, 0, 0xfb), "page 0 less sector 2");
	CHECK(has_page(pages, plan.npages, 8, 1, 0, 0x0f), "page 8 new half");
	CHECK(has_page(pages, plan.npages, 8, 0, 1, 0xf0), "page 8 old half");
	CHECK(has_page(pages, plan.npages, 24, 3, 0, 0x80) &&
	      has_page(pages, plan.npages, 32, 3, 1, 0x01), "masks of in 3");
	for (i = 1; i < plan.npages; i++)
		CHECK(pages[i - 1].sector <= pages[i].sector, "sorted");
	tap_end();

	tap_begin("planner: parity data is written with its PARITY entry only");
	vraid_jrec_init(&b, blks[2], 12);	/* rebuilt by the next test */
	ret = vraid_jrec_add_pdata(&b, VD1, 0);				/* in 4 */
	refs[0] = (struct vraid_jref){ 12, 0, 0 };
	ret |= vraid_jrec_add_parity(&b, VD1, VRAID_DATA_OFFSET_SECTORS, 0,
				     refs, 1, 1);			/* in 5 */
	vraid_jrec_finish(&b, 5, JUUID, 0);
	CHECK(ret == 0, "build: %d", ret);
	n = collect(blks, 3, in);
	CHECK(n == 6 && in[4].e.type == VRAID_JE_DATA &&
	      in[4].e.flags == VRAID_JE_F_PARITY_DATA && in[4].e.pages == 1,
	      "decoded: %u entries, flags 0x%x", n, in[4].e.flags);
	ret = vraid_jplan_make(in, n, 0, 1, scratch, parity, pages, 32, &plan,
			       msg, VRAID_MSG_LEN);
	CHECK(ret == 0 && plan.nparity == 1 && parity[0] == 5 &&
	      plan.npages == 5 && !has_page(pages, plan.npages, 0, 4, 0, 0xff),
	      "%d parity %u pages %u (%s)", ret, plan.nparity, plan.npages,
	      msg);
	tap_end();

	tap_begin("planner: metadata floor and VD_CLEAN cut the log");
	ret = vraid_jplan_make(in, n, 11, 1, scratch, parity, pages, 32, &plan,
			       msg, VRAID_MSG_LEN);
	CHECK(ret == 0 && plan.first == 1 && plan.npages == 3,
	      "floor 11: %d first %u pages %u", ret, plan.first, plan.npages);
	vraid_jrec_init(&b, blks[2], 12);
	vraid_jrec_add_data(&b, VD1, 64, 0xff, 0xff, 1);		/* in 4 */
	vraid_jrec_add_vd_clean(&b, VD1, 11);			/* in 5 */
	vraid_jrec_add_data(&b, VD1, 72, 0xff, 0xff, 1);		/* in 6 */
	vraid_jrec_finish(&b, 5, JUUID, 0);
	n = collect(blks, 3, in);
	ret = vraid_jplan_make(in, n, 0, 1, scratch, parity, pages, 32, &plan,
			       msg, VRAID_MSG_LEN);
	CHECK(ret == 0 && plan.first == 6 && plan.npages == 1 &&
	      has_page(pages, 1, 72, 6, 0, 0xff),
	      "after VD_CLEAN: %d first %u pages %u", ret, plan.first,
	      plan.npages);
	tap_end();

	tap_begin("planner: PARITY entries, settled ones skipped, bad refs refused");
	vraid_jrec_init(&b, blks[3], 20);
	vraid_jrec_add_data(&b, VD1, 80, 0xff, 0xff, 1);		/* in 7 */
	refs[0] = (struct vraid_jref){ 20, 0, 0 };
	refs[1] = (struct vraid_jref){ 12, 2, 1 };
	vraid_jrec_add_parity(&b, VD1, VRAID_DATA_OFFSET_SECTORS, 0, refs, 2,
			      1);					/* in 8 */
	refs[1] = (struct vraid_jref){ 12, 0, 1 };			/* before the cut */
	vraid_jrec_add_parity(&b, VD1, VRAID_DATA_OFFSET_SECTORS, 0, refs, 2,
			      1);					/* in 9 */
	refs[1] = (struct vraid_jref){ 4, 0, 1 };			/* below scan start */
	vraid_jrec_add_parity(&b, VD1, VRAID_DATA_OFFSET_SECTORS, 0, refs, 2,
			      1);					/* in 10 */
	vraid_jrec_add_parity(&b, VD1, VRAID_DATA_OFFSET_SECTORS + 8, 0, refs,
			      1, 2);					/* in 11 */
	vraid_jrec_finish(&b, 7, JUUID, 0);
	n = collect(blks, 4, in);
	ret = vraid_jplan_make(in, n, 0, 5, scratch, parity, pages, 32, &plan,
			       msg, VRAID_MSG_LEN);
	CHECK(ret == 0 && plan.nparity == 2 && parity[0] == 8 &&
	      parity[1] == 11, "%d: %u parity (%u, %u) (%s)", ret,
	      plan.nparity, parity[0], parity[1], msg);
	ret = vraid_jplan_make(in, n, 20, 5, scratch, parity, pages, 32, &plan,
			       msg, VRAID_MSG_LEN);
	CHECK(ret == 0 && plan.first == 7 && plan.nparity == 1 &&
	      parity[0] == 11, "floor 20: %d: first %u, %u parity (%u)", ret,
	      plan.first, plan.nparity, parity[0]);
	vraid_jrec_init(&b, blks[4], 21);
	refs[0] = (struct vraid_jref){ 20, 1, 0 };			/* a PARITY */
	vraid_jrec_add_parity(&b, VD1, VRAID_DATA_OFFSET_SECTORS, 0, refs, 1,
			      1);
	vraid_jrec_finish(&b, 9, JUUID, 0);
	n = collect(blks, 5, in);
	msg_reset(msg, VRAID_MSG_LEN);
	ret = vraid_jplan_make(in, n, 0, 5, scratch, parity, pages, 32, &plan,
			       msg, VRAID_MSG_LEN);
	CHECK(ret == -EINVAL, "ref to a PARITY entry: %d", ret);
	CHECK_MSG(msg, VRAID_MSG_LEN, "refers to entry 1 of record 20");
	vraid_jrec_init(&b, blks[4], 21);
	refs[0] = (struct vraid_jref){ 19, 0, 0 };			/* no record 19 */
	vraid_jrec_add_parity(&b, VD1, VRAID_DATA_OFFSET_SECTORS, 0, refs, 1,
			      1);
	vraid_jrec_finish(&b, 9, JUUID, 0);
	n = collect(blks, 5, in);
	msg_reset(msg, VRAID_MSG_LEN);
	ret = vraid_jplan_make(in, n, 0, 5, scratch, parity, pages, 32, &plan,
			       msg, VRAID_MSG_LEN);
	CHECK(ret == -EINVAL, "ref to nothing: %d", ret);
	CHECK_MSG(msg, VRAID_MSG_LEN, "no DATA of this VD");
	tap_end();

	tap_begin("planner: input out of order, of two VDs, or too many pages");
	n = collect(blks, 4, in);
	in[3] = in[2];
	msg_reset(msg, VRAID_MSG_LEN);
	ret = vraid_jplan_make(in, n, 0, 5, scratch, parity, pages, 32, &plan,
			       msg, VRAID_MSG_LEN);
	CHECK(ret == -EINVAL, "repeated entry: %d", ret);
	CHECK_MSG(msg, VRAID_MSG_LEN, "out of log order");
	n = collect(blks, 4, in);
	in[5].e.vd_uuid[0] ^= 1;
	ret = vraid_jplan_make(in, n, 0, 5, scratch, parity, pages, 32, &plan,
			       msg, VRAID_MSG_LEN);
	CHECK(ret == -EINVAL, "two VDs: %d", ret);
	n = collect(blks, 4, in);
	msg_reset(msg, VRAID_MSG_LEN);
	ret = vraid_jplan_make(in, n, 0, 5, scratch, parity, pages, 1, &plan,
			       msg, VRAID_MSG_LEN);
	CHECK(ret == -ENOSPC, "one page of room: %d", ret);
	CHECK_MSG(msg, VRAID_MSG_LEN, "page versions");
	CHECK(vraid_jplan_make(in, 0, 0, 5, scratch, parity, pages, 0, &plan,
			       msg, VRAID_MSG_LEN) == 0 && !plan.npages &&
	      !plan.nparity, "empty input");
	tap_end();

	for (i = 0; i < 6; i++)
		free(blks[i]);
	free(msg);
}

/*
 * Random logs of DATA, INVALIDATE and VD_CLEAN over 12 pages against a
 * model: replaying the log sector by sector, the last DATA with the
 * sector valid wins, unless an INVALIDATE came after it.
 */
#define MP	12
static void test_plan_model(void)
{
	static struct vraid_jplan_in in[64];
	static struct vraid_jplan_page pages[64 * MP];
	static u32 scratch[64], parity[64];
	struct vraid_jplan plan;
	char msg[VRAID_MSG_LEN];
	u32 round, bad = 0, i, k, s;

	tap_begin("planner against a sector-by-sector model, 3000 logs");
	for (round = 0; round < 3000; round++) {
		u32 n = 1 + rnd() % 64, idx = 0, first = 0, got[MP * 8];
		int owner[MP * 8];
		u64 seq = 1 + rnd() % 4, floor = rnd() % 8, cut;

		for (i = 0; i < n; i++) {
			struct vraid_jentry *e = &in[i].e;
			u32 t = rnd() % 16;

			memset(e, 0, sizeof(*e));
			memcpy(e->vd_uuid, VD1, 16);
			if (rnd() % 3 == 0) {
				seq += 1 + rnd() % 2;
				idx = 0;
			}
			in[i].seq = seq;
			e->index = (u16)idx++;
			if (t < 11) {
				e->type = VRAID_JE_DATA;
				e->pages = 1 + rnd() % 3;
				e->sector = 8 * (rnd() % (MP - e->pages + 1));
				e->first_mask = (u8)(rnd() | 1);
				e->last_mask = e->pages == 1 ? e->first_mask :
					       (u8)(rnd() | 0x80);
			} else if (t < 15) {
				e->type = VRAID_JE_INVALIDATE;
				e->sector = rnd() % (MP * 8);
				e->sectors = 1 + rnd() % 20;
			} else {
				e->type = VRAID_JE_VD_CLEAN;
				e->floor = seq - rnd() % 2;
			}
		}
		/* the model's cutoff */
		cut = floor;
		for (i = 0; i < n; i++)
			if (in[i].e.type == VRAID_JE_VD_CLEAN) {
				first = i + 1;
				if (in[i].e.floor > cut)
					cut = in[i].e.floor;
			}
		while (first < n && in[first].seq < cut)
			first++;
		for (s = 0; s < MP * 8; s++) {
			owner[s] = -1;
			got[s] = 0;
		}
		for (i = first; i < n; i++) {
			const struct vraid_jentry *e = &in[i].e;

			if (e->type == VRAID_JE_INVALIDATE) {
				for (s = e->sector; s < e->sector + e->sectors &&
				     s < MP * 8; s++)
					owner[s] = -1;
			} else if (e->type == VRAID_JE_DATA) {
				for (k = 0; k < e->pages * 8; k++) {
					u8 m = k < 8 ? e->first_mask :
					       k >= (e->pages - 1) * 8 ?
					       e->last_mask : 0xff;

					if (m & (1U << (k % 8)))
						owner[e->sector + k] =
							(int)(i * 8 + k / 8);
				}
			}
		}
		if (vraid_jplan_make(in, n, floor, 1, scratch, parity, pages,
				     64 * MP, &plan, msg, sizeof(msg)) ||
		    plan.first != first) {
			bad++;
			continue;
		}
		for (i = 0; i < plan.npages; i++) {
			const struct vraid_jplan_page *p = &pages[i];

			for (k = 0; k < 8; k++) {
				if (!(p->mask & (1U << k)))
					continue;
				s = p->sector + k;
				got[s]++;
				if (owner[s] != (int)(p->in * 8 + p->page))
					bad++;
			}
		}
		for (s = 0; s < MP * 8; s++)
			if (got[s] != (owner[s] >= 0))
				bad++;
	}
	CHECK(bad == 0, "%u sectors planned wrong", bad);
	tap_end();
}

int main(void)
{
	test_crc();
	test_sb();
	test_choose();
	test_record_roundtrip();
	test_record_damage();
	test_builder();
	test_jsize();
	test_expect();
	test_ring_exhaustive();
	test_ring_scan();
	test_parity_cap();
	test_plan();
	test_plan_model();
	return tap_done();
}
