// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for the journal format (driver/core/jformat.c): what the
 * journal scan reads from an untrusted device.
 *
 * Input layout: u8 mode, u8 flags, then by mode (taken mod 4):
 *
 *	0  superblock	4 KiB block (short input zero-padded), u64 device
 *			sectors after it; decoded in slot flags & 1, and the
 *			same bytes decoded in both slots go through
 *			vraid_jsb_choose().  flags bit 2 stamps magic, version
 *			and block size, bit 3 also coerces the ring into
 *			range, bit 4 zeroes the reserved bytes
 *	1  record	4 KiB header block (flags bit 2 stamps magic and
 *			version); every accepted block must iterate
 *			cleanly and encode back to the same bytes through
 *			the builder, its entries go through the replay
 *			planner, and vraid_jhdr_expect() runs on it
 *	2  built	a program for the builder (see build_program()),
 *			whose output must always decode, or a PAD (flags bit
 *			3), then byte flips
 *			from the rest of the input, then decoded as mode 1
 *	3  ring		u64 ring, tail, head, blocks: the ring arithmetic's
 *			invariants
 *
 * flags bit 1 reseals the block's CRC after the input is in place, so the
 * fuzzer gets past it.  Any broken invariant abort()s.
 */
#include "core_types.h"
#include <linux/vraid.h>
#include "metadata.h"
#include "jformat.h"

#include <stdarg.h>
#include <stdlib.h>

#define FUZZ_NAME "fuzz_journal"
#include "fuzz_check.h"

static u64 get_u64(const u8 *p, size_t size, size_t off)
{
	u64 v = 0;

	if (off < size)
		memcpy(&v, p + off, size - off < 8 ? size - off : 8);
	return v;
}

static void reseal(u8 *blk, u32 off)
{
	u32 crc;

	memset(blk + off, 0, 4);
	crc = vraid_crc32c(0, blk, VRAID_J_BLOCK);
	blk[off] = (u8)crc;
	blk[off + 1] = (u8)(crc >> 8);
	blk[off + 2] = (u8)(crc >> 16);
	blk[off + 3] = (u8)(crc >> 24);
}

static void put_u64(u8 *p, u64 v)
{
	u32 i;

	for (i = 0; i < 8; i++)
		p[i] = (u8)(v >> (8 * i));
}

/*
 * Make the fixed fields right (magic, version, block size), and with
 * flags bit 3 coerce the ring into range, so that the fuzzer reaches the
 * checks behind them.
 */
static void stamp_sb(u8 *blk, u8 flags)
{
	static const u8 head[12] = { 'V', 'R', 'J', 'L', 1, 0, 0, 0,
				     0, 0x10, 0, 0 };
	u64 ring;

	memcpy(blk, head, sizeof(head));
	if (!(flags & 8))
		return;
	put_u64(blk + 48, VRAID_J_RING_START);
	ring = VRAID_J_MIN_RING + get_u64(blk, VRAID_J_BLOCK, 56) % 4096;
	put_u64(blk + 56, ring);
	put_u64(blk + 64, get_u64(blk, VRAID_J_BLOCK, 64) % ring);
	blk[16] = (u8)((blk[16] & ~1) | (flags & 1));
	if (flags & 16)
		memset(blk + 84, 0, VRAID_J_BLOCK - 84);
}

static void fuzz_sb(const u8 *data, size_t size, u8 flags)
{
	u8 *blk = calloc(1, VRAID_J_BLOCK), *again = malloc(VRAID_J_BLOCK);
	char *msg = malloc(VRAID_MSG_LEN);
	struct vraid_jsb s0, s1;
	u64 dev = get_u64(data, size, VRAID_J_BLOCK);
	int r0, r1, c;

	if (!blk || !again || !msg)
		abort();
	memcpy(blk, data, size < VRAID_J_BLOCK ? size : VRAID_J_BLOCK);
	if (flags & 4)
		stamp_sb(blk, flags);
	if (flags & 2)
		reseal(blk, 12);
	memset(msg, 'X', VRAID_MSG_LEN);
	r0 = vraid_jsb_decode(blk, flags & 1, dev, &s0, msg, VRAID_MSG_LEN);
	if (r0 && r0 != -ENODATA && r0 != -EINVAL && r0 != -EPROTONOSUPPORT)
		die("vraid_jsb_decode returned %d", r0);
	check_msg("vraid_jsb_decode", r0, msg);
	if (!r0) {
		if (s0.ring_blocks < VRAID_J_MIN_RING ||
		    s0.ring_blocks > VRAID_J_MAX_RING ||
		    s0.tail_block >= s0.ring_blocks ||
		    (dev && s0.ring_blocks > vraid_jring_fit(dev)) ||
		    (s0.generation & 1) != (flags & 1))
			die("superblock accepted with an impossible ring");
		vraid_jsb_encode(&s0, again);
		/* an older version is written back as the current one */
		if (blk[4] != VRAID_J_VERSION) {
			again[4] = blk[4];
			reseal(again, 12);
		}
		if (memcmp(blk, again, VRAID_J_BLOCK))
			die("superblock: decode+encode changed an accepted block");
	}
	r0 = vraid_jsb_decode(blk, 0, dev, &s0, msg, VRAID_MSG_LEN);
	r1 = vraid_jsb_decode(blk, 1, dev, &s1, msg, VRAID_MSG_LEN);
	if (!r0 && !r1)
		die("one block valid in both slots");
	c = vraid_jsb_choose(&s0, r0, &s1, r1, msg, VRAID_MSG_LEN);
	if ((r0 && r1 && c != -ENODATA) || (!r0 && c != 0) || (!r1 && c != 1))
		die("vraid_jsb_choose: %d for %d/%d", c, r0, r1);
	free(blk);
	free(again);
	free(msg);
}

/* Rebuild an accepted header block through the builder. */
static void reencode(const u8 *blk, const struct vraid_jhdr *h)
{
	u8 *again = malloc(VRAID_J_BLOCK);
	char *msg = malloc(VRAID_MSG_LEN);
	struct vraid_jref refs[VRAID_J_MAX_REFS];
	struct vraid_jbuild b;
	struct vraid_jentry e;
	struct vraid_jiter it;
	u32 i, n = 0;
	int ret;

	if (!again || !msg)
		abort();
	if (h->flags & VRAID_J_REC_PAD) {
		vraid_jrec_pad(again, h->seq, h->position, h->uuid,
			       h->payload_blocks);
		goto compare;
	}
	vraid_jrec_init(&b, again, h->seq);
	vraid_jiter_init(&it, blk, h);
	while ((ret = vraid_jiter_next(&it, &e, msg, VRAID_MSG_LEN)) > 0) {
		if (e.index != n++ || e.page_off + e.pages > h->payload_blocks)
			die("iterator: entry %u at index %u, pages %u+%u",
			    n - 1, e.index, e.page_off, e.pages);
		switch (e.type) {
		case VRAID_JE_DATA:
			if (e.flags & VRAID_JE_F_PARITY_DATA)
				ret = vraid_jrec_add_pdata(&b, e.vd_uuid,
							   e.sector);
			else
				ret = vraid_jrec_add_data(&b, e.vd_uuid,
							  e.sector,
							  e.first_mask,
							  e.last_mask,
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
			ret = vraid_jrec_add_invalidate(&b, e.vd_uuid,
							e.sector, e.sectors);
			break;
		case VRAID_JE_VD_CLEAN:
			ret = vraid_jrec_add_vd_clean(&b, e.vd_uuid, e.floor);
			break;
		default:
			die("iterator returned type %u", e.type);
		}
		if (ret)
			die("builder refused entry %u the decoder accepted: %d",
			    e.index, ret);
	}
	if (ret)
		die("iterator refused a block the decoder accepted: %s", msg);
	if (n != h->entries)
		die("iterator: %u entries, header %u", n, h->entries);
	vraid_jrec_finish(&b, h->position, h->uuid, h->payload_crc);
compare:
	if (memcmp(blk, again, VRAID_J_BLOCK))
		die("record: decode+encode changed an accepted block");
	free(again);
	free(msg);
}

/*
 * The replay planner over the entries of an accepted record (those of its
 * first entry's VD): refuses only with -EINVAL, and what it plans is
 * sorted, non-empty, made of DATA pages, and gives each sector once.
 */
static void fuzz_plan(const u8 *blk, const struct vraid_jhdr *h, u64 floor,
		      u64 scan_start)
{
	static struct vraid_jplan_in in[VRAID_J_MAX_ENTRIES];
	static struct vraid_jplan_page pages[VRAID_J_MAX_PAYLOAD];
	static u32 scratch[VRAID_J_MAX_ENTRIES], parity[VRAID_J_MAX_ENTRIES];
	char *msg = malloc(VRAID_MSG_LEN);
	struct vraid_jplan plan;
	struct vraid_jiter it;
	struct vraid_jentry e;
	u32 n = 0, i;
	int ret;

	if (!msg)
		abort();
	vraid_jiter_init(&it, blk, h);
	while (vraid_jiter_next(&it, &e, msg, VRAID_MSG_LEN) > 0) {
		if (n && memcmp(e.vd_uuid, in[0].e.vd_uuid, VRAID_J_UUID_LEN))
			continue;
		in[n].seq = h->seq;
		in[n++].e = e;
	}
	memset(msg, 'X', VRAID_MSG_LEN);
	ret = vraid_jplan_make(in, n, floor, scan_start, scratch, parity,
			       pages, VRAID_J_MAX_PAYLOAD, &plan, msg,
			       VRAID_MSG_LEN);
	if (ret && ret != -EINVAL)
		die("vraid_jplan_make returned %d", ret);
	check_msg("vraid_jplan_make", ret, msg);
	for (i = 0; !ret && i < plan.npages; i++) {
		const struct vraid_jplan_page *p = &pages[i];

		if (!p->mask || p->in >= n || p->in < plan.first ||
		    in[p->in].e.type != VRAID_JE_DATA ||
		    p->page >= in[p->in].e.pages ||
		    p->sector != in[p->in].e.sector + 8ULL * p->page ||
		    (i && (pages[i - 1].sector > p->sector ||
			   (pages[i - 1].sector == p->sector &&
			    (pages[i - 1].mask & p->mask)))))
			die("plan: page %u of %u is wrong", i, plan.npages);
	}
	for (i = 0; !ret && i < plan.nparity; i++)
		if (parity[i] >= n || in[parity[i]].e.type != VRAID_JE_PARITY ||
		    (i && parity[i] <= parity[i - 1]))
			die("plan: parity %u of %u is wrong", i, plan.nparity);
	free(msg);
}

static void fuzz_record(u8 *blk, const u8 *tail, size_t tsize)
{
	char *msg = malloc(VRAID_MSG_LEN);
	struct vraid_jhdr h;
	u64 seq = get_u64(tail, tsize, 0), pos = get_u64(tail, tsize, 8);
	u64 ring = get_u64(tail, tsize, 16);
	int ret;

	if (!msg)
		abort();
	memset(msg, 'X', VRAID_MSG_LEN);
	ret = vraid_jhdr_decode(blk, &h, msg, VRAID_MSG_LEN);
	if (ret && ret != -ENODATA && ret != -EINVAL &&
	    ret != -EPROTONOSUPPORT)
		die("vraid_jhdr_decode returned %d", ret);
	check_msg("vraid_jhdr_decode", ret, msg);
	if (!ret) {
		reencode(blk, &h);
		fuzz_plan(blk, &h, pos & 1 ? h.seq - (pos >> 1 & 3) : 0,
			  ring & 1 ? h.seq - (ring >> 1 & 3) : 1);
		/* half the time, expect what the header says */
		if (seq & 1) {
			seq = h.seq;
			pos = h.position;
			ring = h.flags & VRAID_J_REC_PAD ?
			       pos + 1 + h.payload_blocks :
			       pos + 1 + h.payload_blocks + (ring & 0xff);
		}
		memset(msg, 'X', VRAID_MSG_LEN);
		ret = vraid_jhdr_expect(&h, h.uuid, seq, pos, ring, msg,
					VRAID_MSG_LEN);
		if (ret && ret != -EINVAL)
			die("vraid_jhdr_expect returned %d", ret);
		check_msg("vraid_jhdr_expect", ret, msg);
		if (!ret && (pos >= ring ||
			     h.payload_blocks >= ring - pos))
			die("expect accepted a record past the ring's end");
	}
	free(msg);
}

/*
 * A builder program: 12-byte instructions { op, a, b, c, u64 x } build a
 * record of seq from the first 8 bytes; whatever the builder accepts must
 * decode.  Returns the bytes consumed.
 */
static size_t build_program(u8 *blk, const u8 *p, size_t size)
{
	static const u8 vds[3][16] = {
		{ 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 },
		{ 0xaa, 0xbb },
		{ 0 },
	};
	static const u8 juuid[16] = { 0x4a };
	struct vraid_jref refs[32];
	struct vraid_jbuild b;
	struct vraid_jhdr h;
	char *msg = malloc(VRAID_MSG_LEN);
	u64 seq = get_u64(p, size, 0) % 1000;
	size_t off = 8;
	u16 dlist[VRAID_J_MAX_ENTRIES];
	u32 i, n, added = 0, nd = 0;
	int ret;

	if (!msg)
		abort();
	vraid_jrec_init(&b, blk, seq);
	while (off + 12 <= size && added < 200) {
		const u8 *in = p + off;
		const u8 *vd = vds[in[1] % 3];
		u64 x = get_u64(in, 12, 4);

		off += 12;
		switch (in[0] % 4) {
		case 0:
			ret = vraid_jrec_add_data(&b, vd, x % (1ULL << 40),
						  in[2], in[3], in[2] ^ in[3]);
			break;
		case 1:
			n = in[2] % 33;
			for (i = 0; i < n; i++) {
				refs[i].seq = seq - (x >> i) % 3;
				refs[i].entry = (u16)((in[3] + i) % 8);
				refs[i].data_index = (u16)((i * in[3]) % 32);
				/* mostly valid references into this record */
				if (nd && (x & 1)) {
					refs[i].seq = seq;
					refs[i].entry = dlist[(in[3] + i) % nd];
					refs[i].data_index = (u16)i;
				}
			}
			ret = vraid_jrec_add_parity(&b, vd,
						    VRAID_DATA_OFFSET_SECTORS +
						    (x % 4096) * 4,
						    in[3] % 33, refs, n,
						    in[2] >> 6);
			break;
		case 2:
			ret = vraid_jrec_add_invalidate(&b, vd, x,
							in[2] | in[3] << 8);
			break;
		default:
			ret = vraid_jrec_add_vd_clean(&b, vd, seq - in[2] % 4 + 1);
			break;
		}
		if (ret && ret != -ENOSPC && ret != -EINVAL)
			die("builder returned %d", ret);
		if (!ret && in[0] % 4 == 0)
			dlist[nd++] = (u16)(b.entries - 1);
		added += !ret;
	}
	vraid_jrec_finish(&b, seq, juuid, (u32)seq * 7);
	memset(msg, 'X', VRAID_MSG_LEN);
	ret = vraid_jhdr_decode(blk, &h, msg, VRAID_MSG_LEN);
	/* an empty record or one of seq 0 is refused; nothing else may be */
	if (ret && added && seq)
		die("builder wrote a record the decoder refuses: %s", msg);
	if (!ret && (h.entries != added || h.payload_blocks != b.pages))
		die("built record: %u entries of %u", h.entries, added);
	free(msg);
	return off;
}

static void fuzz_ring(const u8 *p, size_t size)
{
	u64 ring = get_u64(p, size, 0), tail = get_u64(p, size, 8);
	u64 head = get_u64(p, size, 16), n = get_u64(p, size, 24);
	u64 start, pad, used, fr, nh;

	/* mostly small rings, where the edges are */
	if (!(ring >> 63)) {
		ring = ring % 300 + 1;
		tail %= ring;
		head %= ring;
		n %= ring + 2;
	}
	if (vraid_jring_reserve(ring, tail, head, n, &start, &pad))
		return;
	if (!ring || tail >= ring || head >= ring || !n)
		die("reserve accepted ring %llu tail %llu head %llu n %llu",
		    (unsigned long long)ring, (unsigned long long)tail,
		    (unsigned long long)head, (unsigned long long)n);
	used = vraid_jring_used(ring, tail, head);
	fr = vraid_jring_free(ring, tail, head);
	if (used + fr != ring - 1 || pad + n > fr ||
	    (pad && (start || pad != ring - head || n > head)) ||
	    (!pad && start != head) || start + n > ring)
		die("reserve: ring %llu tail %llu head %llu n %llu: start %llu pad %llu",
		    (unsigned long long)ring, (unsigned long long)tail,
		    (unsigned long long)head, (unsigned long long)n,
		    (unsigned long long)start, (unsigned long long)pad);
	nh = vraid_jring_advance(ring, start, n);
	if (nh >= ring || nh == tail ||
	    vraid_jring_used(ring, tail, nh) != used + pad + n)
		die("advance: ring %llu start %llu n %llu -> %llu",
		    (unsigned long long)ring, (unsigned long long)start,
		    (unsigned long long)n, (unsigned long long)nh);
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	u8 mode, flags, *blk;
	size_t used, i;

	if (size < 2)
		return 0;
	mode = data[0] % 4;
	flags = data[1];
	data += 2;
	size -= 2;
	switch (mode) {
	case 0:
		fuzz_sb(data, size, flags);
		break;
	case 1:
		blk = calloc(1, VRAID_J_BLOCK);
		if (!blk)
			abort();
		memcpy(blk, data, size < VRAID_J_BLOCK ? size : VRAID_J_BLOCK);
		if (flags & 4) {
			/* magic "VRJR", version 1 */
			memcpy(blk, "VRJR\1", 6);
		}
		if (flags & 2)
			reseal(blk, 8);
		fuzz_record(blk, size > VRAID_J_BLOCK ? data + VRAID_J_BLOCK :
			    data, size > VRAID_J_BLOCK ?
			    size - VRAID_J_BLOCK : 0);
		free(blk);
		break;
	case 2:
		blk = calloc(1, VRAID_J_BLOCK);
		if (!blk)
			abort();
		if (flags & 8) {
			static const u8 juuid[16] = { 0x4a };

			vraid_jrec_pad(blk, get_u64(data, size, 0), 9, juuid,
				       flags & 0xf0);
			used = 8;
		} else {
			used = build_program(blk, data,
					     size > 2400 ? 2400 : size);
		}
		/* then flips: { u16 offset, u8 xor } */
		for (i = used; i + 3 <= size; i += 3)
			blk[(data[i] | data[i + 1] << 8) % VRAID_J_BLOCK] ^=
				data[i + 2];
		if (flags & 2)
			reseal(blk, 8);
		fuzz_record(blk, data, size);
		free(blk);
		break;
	default:
		fuzz_ring(data, size);
		break;
	}
	return 0;
}
