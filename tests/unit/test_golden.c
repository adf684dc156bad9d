// SPDX-License-Identifier: GPL-2.0
/*
 * Golden bytes of every on-disk record of the portable core: a metadata
 * block, a write-intent bitmap, a journal superblock, a journal record
 * header with an entry of every kind, and a PAD record, each with every
 * field set to a value of its own, encoded and compared byte for byte
 * with the encoding recorded below.  The bytes on the members and on the
 * journal device are the format: an encoder that moves a field, changes
 * its width or its byte order fails here even when its decoder moved with
 * it (which the round-trip tests would not see).  Each golden block is
 * also decoded and encoded again, so that the decoders read what the
 * encoders wrote.
 *
 * The tables were made by this program (`build/test_golden --dump`) from
 * the encoders that used byte offsets, before the records became __le
 * structs; they must never be regenerated to make a change pass.  A
 * table lists the non-zero runs of a block (offset, hex); every other
 * byte is zero.
 */
#pragma GCC diagnostic ignored "-Wunused-function"
#include <stdlib.h>
#include "tap.h"
#include <linux/vraid.h>
#include "metadata.h"
#include "layout.h"
#include "jformat.h"

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

#define BLK 4096

struct golden_run {
	u32 off;
	const char *hex;
};

static const u8 JUUID[16] = { 0x4a, 0x75, 0x72, 0x6e, 0xa1, 0xb2, 0xc3, 0xd4,
			      0xe5, 0xf6, 0x07, 0x18, 0x29, 0x3a, 0x4b, 0x5c };
static const u8 VDUUID[16] = { 0x56, 0x44, 0x21, 0x42, 0x13, 0x24, 0x35, 0x46,
			       0x57, 0x68, 0x79, 0x8a, 0x9b, 0xac, 0xbd, 0xce };

/* A RAID60 metadata block with every field set, version 2. */
static void md_sample(struct vraid_md *md)
{
	struct vraid_geom g;
	char msg[VRAID_MSG_LEN];
	u32 i;

	memset(md, 0, sizeof(*md));
	if (vraid_layout_init(&g, VRAID_LEVEL_60, 32, 131072, 4, 9000000, msg,
			      sizeof(msg)))
		abort();
	md->version = VRAID_MD_VERSION;
	md->generation = 0x0102030405060708ULL;
	md->created = 1764512345;
	memcpy(md->vd_uuid, VDUUID, sizeof(VDUUID));
	snprintf(md->name, sizeof(md->name), "golden-vd.0123456789_abcdefghi");
	md->level = VRAID_LEVEL_60;
	md->nr_members = 32;
	md->spans = g.spans;
	md->strip_bytes = g.strip_sectors << 9;
	md->role = 29;
	md->flags = VRAID_MD_F_CLEAN;
	md->data_offset = VRAID_DATA_OFFSET_SECTORS;
	md->member_sectors = g.member_sectors;
	md->size_sectors = g.size_sectors;
	md->access_policy = VRAID_ACCESS_BLOCKED;
	md->disk_cache_policy = VRAID_DCACHE_DISABLED;
	md->io_policy = VRAID_IO_CACHED;
	md->read_policy = VRAID_READ_AHEAD;
	md->write_policy = VRAID_WRITE_BACK_ALWAYS;
	md->job_type = VRAID_JOB_REBUILD;
	md->job_flags = VRAID_MD_JOB_PAUSED;
	md->job_rate_kib = 123456;
	md->job_pos = 1234567;
	md->init_pos = g.member_sectors - 1;
	md->last_job = VRAID_JOB_REPAIR;
	md->last_result = 125;
	md->last_mismatches = 0x0a0b0c0d0e0f1011ULL;
	for (i = 0; i < 16; i++)
		md->journal_uuid[i] = JUUID[i];
	md->journal_floor = 0x00f1e2d3c4b5a697ULL;
	md->cache_flags = VRAID_MD_CF_JOURNAL | VRAID_MD_CF_VOLATILE;
	for (i = 0; i < 32; i++) {
		struct vraid_md_member *m = &md->members[i];
		u32 k;

		for (k = 0; k < 16; k++)
			m->uuid[k] = (u8)(i * 16 + k + 1);
		m->state = VRAID_MEMBER_ONLINE + i % 4;
		m->flags = i % 3 == 0 ? VRAID_MD_MEMBER_SECOND_COPY : 0;
		m->dev_sectors = 0x0000012345678900ULL + i;
		if (m->state == VRAID_MEMBER_REBUILDING)
			m->rebuilt_to = 1000 + i;
	}
}

static void bm_sample(u8 *bits, u32 *shift, u32 *nbits)
{
	u32 i;

	*shift = 14;
	*nbits = 1237;	/* the last byte partly used */
	memset(bits, 0, BLK);
	for (i = 0; i < (*nbits + 7) / 8 + 1; i++)
		bits[i] = (u8)(i * 37 + 11);
}

static void jsb_sample(struct vraid_jsb *sb)
{
	memset(sb, 0, sizeof(*sb));
	sb->generation = 0x0000001122334455ULL;
	sb->created = 1764523456;
	memcpy(sb->uuid, JUUID, sizeof(JUUID));
	sb->ring_start = VRAID_J_RING_START;
	sb->ring_blocks = 0x0000000000123456ULL;
	sb->tail_block = 0x0000000000012345ULL;
	sb->tail_seq = 0x0000012345678901ULL;
	sb->flags = VRAID_J_SB_DETACHED | VRAID_J_SB_RELEASED;
}

/* A record header block with an entry of every kind, all fields set. */
static int rec_sample(u8 *blk)
{
	static const struct vraid_jref refs[3] = {
		{ .seq = 0x0000000012345678ULL, .entry = 0, .data_index = 0 },
		{ .seq = 0x0000000012345677ULL, .entry = 17, .data_index = 3 },
		{ .seq = 0x0000000000abcdefULL, .entry = 0x1234,
		  .data_index = 29 },
	};
	struct vraid_jbuild b;
	int ret = 0;

	vraid_jrec_init(&b, blk, 0x0000000012345678ULL);
	ret |= vraid_jrec_add_data(&b, VDUUID, 0x0000000123456788ULL, 0xfe,
				   0x7f, 5);
	ret |= vraid_jrec_add_pdata(&b, VDUUID, 0x0000000000fedcb8ULL);
	ret |= vraid_jrec_add_parity(&b, VDUUID, 0x0000000012340000ULL, 3,
				     refs, 3, 2);
	ret |= vraid_jrec_add_invalidate(&b, VDUUID, 0x0000000987654321ULL,
					 0x0000000000102030ULL);
	ret |= vraid_jrec_add_vd_clean(&b, VDUUID, 0x0000000012345670ULL);
	vraid_jrec_finish(&b, 0x0000000000054321ULL, JUUID, 0xc0ffee11U);
	return ret;
}

/* ---- the recorded bytes ---- */

#include "golden_bytes.h"

/* ---- comparing and dumping ---- */

/* Expand a run table into a block of @len bytes. */
static void expand(const struct golden_run *runs, size_t nruns, u8 *out,
		   size_t len)
{
	size_t r, i;

	memset(out, 0, len);
	for (r = 0; r < nruns; r++) {
		const char *h = runs[r].hex;

		for (i = 0; h[2 * i]; i++) {
			unsigned int v;

			if (runs[r].off + i >= len || sscanf(h + 2 * i, "%2x", &v) != 1)
				abort();
			out[runs[r].off + i] = (u8)v;
		}
	}
}

/* Print @blk as a run table: non-zero runs, joined over short gaps. */
static void dump(const char *name, const u8 *blk, size_t len)
{
	size_t i = 0, end, k;

	printf("static const struct golden_run %s[] = {\n", name);
	while (i < len) {
		if (!blk[i]) {
			i++;
			continue;
		}
		/* the run goes on until 8 zero bytes in a row, at most 32 bytes */
		end = i;
		for (k = i; k < len && k < i + 32; k++) {
			size_t z = k;

			while (z < len && z < k + 8 && !blk[z])
				z++;
			if (z == k + 8 || z == len)
				break;
			end = k + 1;
		}
		printf("\t{ %4zu, \"", i);
		for (k = i; k < end; k++)
			printf("%02x", blk[k]);
		printf("\" },\n");
		i = end;
	}
	printf("};\n\n");
}

static void compare(const char *what, const u8 *got, const struct golden_run *runs,
		    size_t nruns, size_t len)
{
	u8 *want = malloc(len);
	size_t i, bad = 0;

	if (!want)
		abort();
	expand(runs, nruns, want, len);
	for (i = 0; i < len; i++) {
		if (got[i] != want[i] && bad++ < 6)
			CHECK(0, "%s: byte %zu is 0x%02x, golden 0x%02x", what, i,
			      got[i], want[i]);
	}
	CHECK(!bad, "%s: %zu bytes differ from the golden encoding", what, bad);
	free(want);
}

#define COMPARE(what, got, table, len) \
	compare(what, got, table, ARRAY_SIZE(table), len)

int main(int argc, char **argv)
{
	bool dumping = argc > 1 && !strcmp(argv[1], "--dump");
	char msg[VRAID_MSG_LEN];
	struct vraid_md md, md2;
	struct vraid_jsb sb, sb2;
	struct vraid_jhdr hdr;
	struct vraid_jiter it;
	struct vraid_jentry e;
	struct vraid_jbuild b;
	u8 *blk = calloc(1, 3 * BLK), *blk2 = calloc(1, 3 * BLK);
	u8 *bits = calloc(1, BLK);
	u32 shift, nbits, shift2, nbits2, n;
	int ret;

	if (!blk || !blk2 || !bits)
		abort();

	md_sample(&md);
	vraid_md_encode(&md, blk);
	if (dumping)
		dump("golden_md", blk, BLK);
	bm_sample(bits, &shift, &nbits);
	vraid_bm_encode(VDUUID, shift, nbits, bits, blk + BLK);
	if (dumping)
		dump("golden_bitmap", blk + BLK, 2 * BLK);
	jsb_sample(&sb);
	vraid_jsb_encode(&sb, blk2);
	if (dumping)
		dump("golden_jsb", blk2, BLK);
	if (rec_sample(blk2 + BLK))
		abort();
	if (dumping)
		dump("golden_record", blk2 + BLK, BLK);
	if (dumping) {
		vraid_jrec_pad(blk2, 0x0000000012345679ULL, 0x0000000000054329ULL,
			       JUUID, 77);
		dump("golden_pad", blk2, BLK);
		free(blk);
		free(blk2);
		free(bits);
		return 0;
	}

	tap_begin("metadata block: the golden bytes, decoded and encoded again");
	vraid_md_encode(&md, blk);
	COMPARE("metadata", blk, golden_md, BLK);
	expand(golden_md, ARRAY_SIZE(golden_md), blk, BLK);
	memset(&md2, 0, sizeof(md2));	/* the same padding as md's */
	ret = vraid_md_decode(blk, &md2, msg, sizeof(msg));
	CHECK(ret == 0, "decode: %d %s", ret, msg);
	CHECK(!memcmp(&md, &md2, sizeof(md)), "decode: not the fields encoded");
	vraid_md_encode(&md2, blk2);
	CHECK(!memcmp(blk, blk2, BLK), "decoded and encoded: not the same bytes");
	tap_end();

	tap_begin("write-intent bitmap: the golden bytes, decoded and encoded again");
	memset(blk, 0xa5, 2 * BLK);
	vraid_bm_encode(VDUUID, shift, nbits, bits, blk);
	COMPARE("bitmap", blk, golden_bitmap, 2 * BLK);
	expand(golden_bitmap, ARRAY_SIZE(golden_bitmap), blk, 2 * BLK);
	ret = vraid_bm_decode(blk, VDUUID, &shift2, &nbits2, msg, sizeof(msg));
	CHECK(ret == 0 && shift2 == shift && nbits2 == nbits,
	      "decode: %d shift %u nbits %u (%s)", ret, shift2, nbits2, msg);
	vraid_bm_encode(VDUUID, shift2, nbits2, blk + BLK, blk2);
	CHECK(!memcmp(blk, blk2, 2 * BLK), "decoded and encoded: not the same bytes");
	tap_end();

	tap_begin("journal superblock: the golden bytes, decoded and encoded again");
	memset(blk, 0xa5, BLK);
	vraid_jsb_encode(&sb, blk);
	COMPARE("superblock", blk, golden_jsb, BLK);
	expand(golden_jsb, ARRAY_SIZE(golden_jsb), blk, BLK);
	memset(&sb2, 0x5a, sizeof(sb2));
	ret = vraid_jsb_decode(blk, (u32)(sb.generation % 2), 1ULL << 40, &sb2,
			       msg, sizeof(msg));
	CHECK(ret == 0, "decode: %d %s", ret, msg);
	vraid_jsb_encode(&sb2, blk2);
	CHECK(!memcmp(blk, blk2, BLK), "decoded and encoded: not the same bytes");
	tap_end();

	tap_begin("journal record: every entry kind, the golden bytes, decoded and built again");
	memset(blk, 0xa5, BLK);
	CHECK(rec_sample(blk) == 0, "the builder refused an entry");
	COMPARE("record", blk, golden_record, BLK);
	expand(golden_record, ARRAY_SIZE(golden_record), blk, BLK);
	ret = vraid_jhdr_decode(blk, &hdr, msg, sizeof(msg));
	CHECK(ret == 0 && hdr.entries == 5 && hdr.payload_blocks == 8 &&
	      hdr.seq == 0x12345678ULL && hdr.position == 0x54321ULL &&
	      hdr.payload_crc == 0xc0ffee11U && !hdr.flags &&
	      !memcmp(hdr.uuid, JUUID, 16),
	      "decode: %d %s (entries %u, payload %u)", ret, msg, hdr.entries,
	      hdr.payload_blocks);
	/* build it again from what the iterator reads */
	vraid_jrec_init(&b, blk2, hdr.seq);
	vraid_jiter_init(&it, blk, &hdr);
	ret = 0;
	for (n = 0; n < hdr.entries && !ret; n++) {
		struct vraid_jref refs[VRAID_J_MAX_REFS];
		u32 i;

		ret = vraid_jiter_next(&it, &e, msg, sizeof(msg));
		if (ret != 1)
			break;
		switch (e.type) {
		case VRAID_JE_DATA:
			ret = e.flags & VRAID_JE_F_PARITY_DATA ?
			      vraid_jrec_add_pdata(&b, e.vd_uuid, e.sector) :
			      vraid_jrec_add_data(&b, e.vd_uuid, e.sector,
						  e.first_mask, e.last_mask,
						  e.pages);
			break;
		case VRAID_JE_PARITY:
			for (i = 0; i < e.nrefs; i++)
				vraid_jentry_ref(&e, i, &refs[i]);
			ret = vraid_jrec_add_parity(&b, e.vd_uuid, e.sector,
						    e.span, refs, e.nrefs,
						    e.pages);
			break;
		case VRAID_JE_INVALIDATE:
			ret = vraid_jrec_add_invalidate(&b, e.vd_uuid, e.sector,
							e.sectors);
			break;
		case VRAID_JE_VD_CLEAN:
			ret = vraid_jrec_add_vd_clean(&b, e.vd_uuid, e.floor);
			break;
		default:
			ret = -EINVAL;
		}
	}
	if (!ret)
		ret = vraid_jiter_next(&it, &e, msg, sizeof(msg));
	CHECK(!ret && n == 5, "entry %u: %d %s", n, ret, msg);
	vraid_jrec_finish(&b, hdr.position, hdr.uuid, hdr.payload_crc);
	CHECK(!memcmp(blk, blk2, BLK), "decoded and built again: not the same bytes");
	tap_end();

	tap_begin("journal PAD record: the golden bytes, decoded");
	memset(blk, 0xa5, BLK);
	vraid_jrec_pad(blk, 0x0000000012345679ULL, 0x0000000000054329ULL, JUUID,
		       77);
	COMPARE("PAD", blk, golden_pad, BLK);
	ret = vraid_jhdr_decode(blk, &hdr, msg, sizeof(msg));
	CHECK(ret == 0 && hdr.flags == VRAID_J_REC_PAD && !hdr.entries &&
	      hdr.payload_blocks == 77 && hdr.seq == 0x12345679ULL &&
	      hdr.position == 0x54329ULL,
	      "decode: %d %s", ret, msg);
	tap_end();

	free(blk);
	free(blk2);
	free(bits);
	ret = tap_done();
	printf("test_golden: %u passed, %u failed\n", tap_n - tap_failed,
	       tap_failed);
	return ret;
}
