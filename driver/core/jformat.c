// SPDX-License-Identifier: GPL-2.0
/*
 * The journal's on-disk format (portable core): see jformat.h,
 * Documentation/cache-design.rst ("The journal") and
 * Documentation/on-disk-format.rst ("Journal").
 *
 * The superblock, the record header and the entries are the structs of
 * jformat.h; the offsets below are those of on-disk-format.rst, checked at
 * compile time so that the structs cannot drift from the format.
 */
#include "core_types.h"
#include <linux/vraid.h>
#include "metadata.h"
#include "jformat.h"

VRAID_ONDISK_OFFSET(struct vraid_jsb_block, magic, 0);
VRAID_ONDISK_OFFSET(struct vraid_jsb_block, version, 4);
VRAID_ONDISK_OFFSET(struct vraid_jsb_block, block_size, 8);
VRAID_ONDISK_OFFSET(struct vraid_jsb_block, crc, 12);
VRAID_ONDISK_OFFSET(struct vraid_jsb_block, generation, 16);
VRAID_ONDISK_OFFSET(struct vraid_jsb_block, created, 24);
VRAID_ONDISK_OFFSET(struct vraid_jsb_block, uuid, 32);
VRAID_ONDISK_OFFSET(struct vraid_jsb_block, ring_start, 48);
VRAID_ONDISK_OFFSET(struct vraid_jsb_block, ring_blocks, 56);
VRAID_ONDISK_OFFSET(struct vraid_jsb_block, tail_block, 64);
VRAID_ONDISK_OFFSET(struct vraid_jsb_block, tail_seq, 72);
VRAID_ONDISK_OFFSET(struct vraid_jsb_block, flags, 80);
VRAID_ONDISK_OFFSET(struct vraid_jsb_block, reserved, 84);
VRAID_ONDISK_SIZE(struct vraid_jsb_block, VRAID_J_BLOCK);

VRAID_ONDISK_OFFSET(struct vraid_jrec_header, magic, 0);
VRAID_ONDISK_OFFSET(struct vraid_jrec_header, version, 4);
VRAID_ONDISK_OFFSET(struct vraid_jrec_header, entries, 6);
VRAID_ONDISK_OFFSET(struct vraid_jrec_header, crc, 8);
VRAID_ONDISK_OFFSET(struct vraid_jrec_header, payload_crc, 12);
VRAID_ONDISK_OFFSET(struct vraid_jrec_header, seq, 16);
VRAID_ONDISK_OFFSET(struct vraid_jrec_header, position, 24);
VRAID_ONDISK_OFFSET(struct vraid_jrec_header, uuid, 32);
VRAID_ONDISK_OFFSET(struct vraid_jrec_header, payload_blocks, 48);
VRAID_ONDISK_OFFSET(struct vraid_jrec_header, flags, 52);
VRAID_ONDISK_OFFSET(struct vraid_jrec_header, reserved, 56);
VRAID_ONDISK_OFFSET(struct vraid_jrec_header, entry_area, VRAID_J_HDR_SIZE);
VRAID_ONDISK_SIZE(struct vraid_jrec_header, VRAID_J_BLOCK);

VRAID_ONDISK_OFFSET(struct vraid_je_head, type, 0);
VRAID_ONDISK_OFFSET(struct vraid_je_head, size, 2);
VRAID_ONDISK_OFFSET(struct vraid_je_head, flags, 4);
VRAID_ONDISK_OFFSET(struct vraid_je_head, reserved1, 6);
VRAID_ONDISK_OFFSET(struct vraid_je_head, pages, 8);
VRAID_ONDISK_OFFSET(struct vraid_je_head, reserved2, 12);
VRAID_ONDISK_OFFSET(struct vraid_je_head, vd_uuid, 16);
VRAID_ONDISK_SIZE(struct vraid_je_head, 32);
VRAID_ONDISK_OFFSET(struct vraid_je_data, sector, 32);
VRAID_ONDISK_OFFSET(struct vraid_je_data, first_mask, 40);
VRAID_ONDISK_OFFSET(struct vraid_je_data, last_mask, 41);
VRAID_ONDISK_OFFSET(struct vraid_je_data, reserved, 42);
VRAID_ONDISK_SIZE(struct vraid_je_data, VRAID_JE_DATA_SIZE);
VRAID_ONDISK_OFFSET(struct vraid_je_parity, member_sector, 32);
VRAID_ONDISK_OFFSET(struct vraid_je_parity, span, 40);
VRAID_ONDISK_OFFSET(struct vraid_je_parity, nrefs, 44);
VRAID_ONDISK_OFFSET(struct vraid_je_parity, reserved, 46);
VRAID_ONDISK_OFFSET(struct vraid_je_parity, refs, 56);
VRAID_ONDISK_SIZE(struct vraid_je_parity, VRAID_JE_PARITY_SIZE);
VRAID_ONDISK_OFFSET(struct vraid_je_ref, seq, 0);
VRAID_ONDISK_OFFSET(struct vraid_je_ref, entry, 8);
VRAID_ONDISK_OFFSET(struct vraid_je_ref, data_index, 10);
VRAID_ONDISK_OFFSET(struct vraid_je_ref, reserved, 12);
VRAID_ONDISK_SIZE(struct vraid_je_ref, VRAID_JE_REF_SIZE);
VRAID_ONDISK_OFFSET(struct vraid_je_invalidate, sector, 32);
VRAID_ONDISK_OFFSET(struct vraid_je_invalidate, sectors, 40);
VRAID_ONDISK_SIZE(struct vraid_je_invalidate, VRAID_JE_INVAL_SIZE);
VRAID_ONDISK_OFFSET(struct vraid_je_vd_clean, floor, 32);
VRAID_ONDISK_SIZE(struct vraid_je_vd_clean, VRAID_JE_CLEAN_SIZE);

/* The fields every entry has before its size is known good. */
#define E_HEAD		offsetof(struct vraid_je_head, vd_uuid)

#define U64_MAX_	(~0ULL)

static bool zero_range(const u8 *p, size_t len)
{
	while (len--)
		if (*p++)
			return false;
	return true;
}

/* CRC32C of a 4 KiB block with its 4-byte crc field at @off taken as zero. */
static u32 block_crc(const u8 *blk, u32 off)
{
	static const u8 zero[4];
	u32 crc;

	crc = vraid_crc32c(0, blk, off);
	crc = vraid_crc32c(crc, zero, sizeof(zero));
	return vraid_crc32c(crc, blk + off + 4, VRAID_J_BLOCK - off - 4);
}

/* ---- superblock ---- */

/* The most ring blocks a device of @dev_sectors holds. */
u64 vraid_jring_fit(u64 dev_sectors)
{
	if (dev_sectors < VRAID_J_RING_START + 8)
		return 0;
	return (dev_sectors - VRAID_J_RING_START) >> 3;
}

/* The ring a new journal on a device of @dev_sectors takes. */
u64 vraid_jring_blocks(u64 dev_sectors)
{
	u64 fit = vraid_jring_fit(dev_sectors);

	return fit < VRAID_J_NEW_RING_MAX ? fit : VRAID_J_NEW_RING_MAX;
}

void vraid_jsb_encode(const struct vraid_jsb *sb, u8 *blk)
{
	struct vraid_jsb_block *b = (struct vraid_jsb_block *)blk;

	memset(b, 0, sizeof(*b));
	b->magic = cpu_to_le32(VRAID_J_SB_MAGIC);
	b->version = cpu_to_le32(VRAID_J_VERSION);
	b->block_size = cpu_to_le32(VRAID_J_BLOCK);
	b->generation = cpu_to_le64(sb->generation);
	b->created = cpu_to_le64(sb->created);
	memcpy(b->uuid, sb->uuid, VRAID_J_UUID_LEN);
	b->ring_start = cpu_to_le64(sb->ring_start);
	b->ring_blocks = cpu_to_le64(sb->ring_blocks);
	b->tail_block = cpu_to_le64(sb->tail_block);
	b->tail_seq = cpu_to_le64(sb->tail_seq);
	b->flags = cpu_to_le32(sb->flags);
	b->crc = cpu_to_le32(block_crc(blk, offsetof(struct vraid_jsb_block, crc)));
}

int vraid_jsb_decode(const u8 *blk, u32 slot, u64 dev_sectors,
		     struct vraid_jsb *sb, char *msg, size_t msglen)
{
	const struct vraid_jsb_block *b = (const struct vraid_jsb_block *)blk;
	u32 v, crc;

	if (le32_to_cpu(b->magic) != VRAID_J_SB_MAGIC) {
		snprintf(msg, msglen, "no journal superblock (magic 0x%08x)",
			 le32_to_cpu(b->magic));
		return -ENODATA;
	}
	v = le32_to_cpu(b->version);
	if (v < VRAID_J_VERSION_MIN || v > VRAID_J_VERSION) {
		snprintf(msg, msglen,
			 "journal version %u is not supported (this vraid reads %u to %u)",
			 v, VRAID_J_VERSION_MIN, VRAID_J_VERSION);
		return -EPROTONOSUPPORT;
	}
	if (le32_to_cpu(b->block_size) != VRAID_J_BLOCK) {
		snprintf(msg, msglen, "journal block size %u, expected %u",
			 le32_to_cpu(b->block_size), VRAID_J_BLOCK);
		return -EINVAL;
	}
	crc = block_crc(blk, offsetof(struct vraid_jsb_block, crc));
	if (crc != le32_to_cpu(b->crc)) {
		snprintf(msg, msglen,
			 "journal superblock checksum mismatch (0x%08x stored, 0x%08x computed)",
			 le32_to_cpu(b->crc), crc);
		return -EINVAL;
	}
	if (!zero_range(b->reserved, sizeof(b->reserved))) {
		snprintf(msg, msglen,
			 "reserved journal superblock bytes are not zero");
		return -EINVAL;
	}
	sb->generation = le64_to_cpu(b->generation);
	sb->created = le64_to_cpu(b->created);
	memcpy(sb->uuid, b->uuid, VRAID_J_UUID_LEN);
	sb->ring_start = le64_to_cpu(b->ring_start);
	sb->ring_blocks = le64_to_cpu(b->ring_blocks);
	sb->tail_block = le64_to_cpu(b->tail_block);
	sb->tail_seq = le64_to_cpu(b->tail_seq);
	sb->flags = le32_to_cpu(b->flags);
	if (slot > 1 || (sb->generation & 1) != slot) {
		snprintf(msg, msglen,
			 "journal superblock generation %llu found in slot %u",
			 (unsigned long long)sb->generation, slot);
		return -EINVAL;
	}
	if (zero_range(sb->uuid, VRAID_J_UUID_LEN)) {
		snprintf(msg, msglen, "journal UUID is zero");
		return -EINVAL;
	}
	if (sb->flags & ~(VRAID_J_SB_DETACHED | VRAID_J_SB_RELEASED)) {
		snprintf(msg, msglen, "unknown journal flags 0x%x", sb->flags);
		return -EINVAL;
	}
	if (sb->ring_start != VRAID_J_RING_START) {
		snprintf(msg, msglen, "journal ring at sector %llu, expected %llu",
			 (unsigned long long)sb->ring_start,
			 (unsigned long long)VRAID_J_RING_START);
		return -EINVAL;
	}
	if (sb->ring_blocks < VRAID_J_MIN_RING ||
	    sb->ring_blocks > VRAID_J_MAX_RING) {
		snprintf(msg, msglen,
			 "journal ring of %llu blocks (%llu..%llu allowed)",
			 (unsigned long long)sb->ring_blocks,
			 (unsigned long long)VRAID_J_MIN_RING,
			 (unsigned long long)VRAID_J_MAX_RING);
		return -EINVAL;
	}
	if (dev_sectors && sb->ring_blocks > vraid_jring_fit(dev_sectors)) {
		snprintf(msg, msglen,
			 "journal ring of %llu blocks does not fit a device of %llu sectors",
			 (unsigned long long)sb->ring_blocks,
			 (unsigned long long)dev_sectors);
		return -EINVAL;
	}
	if (sb->tail_block >= sb->ring_blocks || !sb->tail_seq ||
	    sb->tail_seq > VRAID_J_MAX_SEQ) {
		snprintf(msg, msglen,
			 "journal tail at block %llu, seq %llu, of a %llu-block ring",
			 (unsigned long long)sb->tail_block,
			 (unsigned long long)sb->tail_seq,
			 (unsigned long long)sb->ring_blocks);
		return -EINVAL;
	}
	return 0;
}

int vraid_jsb_choose(const struct vraid_jsb *s0, int r0,
		     const struct vraid_jsb *s1, int r1, char *msg,
		     size_t msglen)
{
	if (r0 && r1) {
		snprintf(msg, msglen, "no valid journal superblock");
		return -ENODATA;
	}
	if (r0)
		return 1;
	if (r1)
		return 0;
	if (memcmp(s0->uuid, s1->uuid, VRAID_J_UUID_LEN)) {
		snprintf(msg, msglen,
			 "the two journal superblocks belong to different journals");
		return -EINVAL;
	}
	return s1->generation > s0->generation ? 1 : 0;
}

/* ---- entries ---- */

static const char *type_name(u16 type)
{
	switch (type) {
	case VRAID_JE_DATA:
		return "DATA";
	case VRAID_JE_PARITY:
		return "PARITY";
	case VRAID_JE_INVALIDATE:
		return "INVALIDATE";
	default:
		return "VD_CLEAN";
	}
}

void vraid_jentry_ref(const struct vraid_jentry *e, u32 i,
		      struct vraid_jref *ref)
{
	const struct vraid_je_ref *r = (const struct vraid_je_ref *)e->refs + i;

	ref->seq = le64_to_cpu(r->seq);
	ref->entry = le16_to_cpu(r->entry);
	ref->data_index = le16_to_cpu(r->data_index);
}

static int check_refs(const struct vraid_je_parity *p, u32 n, u64 rec_seq,
		      u32 index, const u64 *data_mask, char *msg,
		      size_t msglen)
{
	u32 seen = 0, i;

	for (i = 0; i < n; i++) {
		const struct vraid_je_ref *r = &p->refs[i];
		u64 seq = le64_to_cpu(r->seq);
		u16 entry = le16_to_cpu(r->entry);
		u16 di = le16_to_cpu(r->data_index);

		if (r->reserved) {
			snprintf(msg, msglen,
				 "entry %u: reference %u: reserved bytes are not zero",
				 index, i);
			return -EINVAL;
		}
		if (!seq || seq > rec_seq) {
			snprintf(msg, msglen,
				 "entry %u: reference %u to seq %llu from record %llu",
				 index, i, (unsigned long long)seq,
				 (unsigned long long)rec_seq);
			return -EINVAL;
		}
		if (di >= VRAID_J_MAX_REFS || (seen & (1U << di))) {
			snprintf(msg, msglen,
				 "entry %u: reference %u: data index %u out of range or repeated",
				 index, i, di);
			return -EINVAL;
		}
		seen |= 1U << di;
		if (seq == rec_seq &&
		    (entry >= index ||
		     !(data_mask[entry / 64] & (1ULL << (entry % 64))))) {
			snprintf(msg, msglen,
				 "entry %u: reference %u: entry %u of this record is not an earlier DATA entry",
				 index, i, entry);
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * Decode and validate the entry at @p, with @room bytes left in the block,
 * as entry @index of record @rec_seq whose earlier DATA entries are
 * @data_mask.  Everything but its place in the payload.
 */
static int decode_entry(const u8 *p, u32 room, u64 rec_seq, u32 index,
			const u64 *data_mask, struct vraid_jentry *e,
			char *msg, size_t msglen)
{
	const struct vraid_je_head *h = (const struct vraid_je_head *)p;
	const struct vraid_je_data *data = (const struct vraid_je_data *)p;
	const struct vraid_je_parity *parity =
		(const struct vraid_je_parity *)p;
	const struct vraid_je_invalidate *inval =
		(const struct vraid_je_invalidate *)p;
	const struct vraid_je_vd_clean *clean =
		(const struct vraid_je_vd_clean *)p;
	u32 want;
	u64 end;

	memset(e, 0, sizeof(*e));
	if (room < E_HEAD) {
		snprintf(msg, msglen, "entry %u runs past the header block",
			 index);
		return -EINVAL;
	}
	e->type = le16_to_cpu(h->type);
	e->size = le16_to_cpu(h->size);
	e->index = (u16)index;
	e->pages = le32_to_cpu(h->pages);
	if (e->size < E_HEAD || e->size % 8 || e->size > room) {
		snprintf(msg, msglen,
			 "entry %u: size %u (a multiple of 8, %u..%u bytes here)",
			 index, e->size, (u32)E_HEAD, room);
		return -EINVAL;
	}
	e->flags = le16_to_cpu(h->flags);
	if (e->flags & ~(e->type == VRAID_JE_DATA ?
			 VRAID_JE_F_PARITY_DATA : 0)) {
		snprintf(msg, msglen, "entry %u: unknown flags 0x%x", index,
			 e->flags);
		return -EINVAL;
	}
	if (h->reserved1 || h->reserved2) {
		snprintf(msg, msglen, "entry %u: reserved bytes are not zero",
			 index);
		return -EINVAL;
	}
	switch (e->type) {
	case VRAID_JE_DATA:
		want = VRAID_JE_DATA_SIZE;
		break;
	case VRAID_JE_PARITY:
		if (e->size < VRAID_JE_PARITY_SIZE) {
			want = VRAID_JE_PARITY_SIZE;
			break;
		}
		e->nrefs = le16_to_cpu(parity->nrefs);
		if (!e->nrefs || e->nrefs > VRAID_J_MAX_REFS) {
			snprintf(msg, msglen,
				 "entry %u: PARITY entry with %u references (1..%u)",
				 index, e->nrefs, VRAID_J_MAX_REFS);
			return -EINVAL;
		}
		want = VRAID_JE_PARITY_SIZE + e->nrefs * VRAID_JE_REF_SIZE;
		break;
	case VRAID_JE_INVALIDATE:
		want = VRAID_JE_INVAL_SIZE;
		break;
	case VRAID_JE_VD_CLEAN:
		want = VRAID_JE_CLEAN_SIZE;
		break;
	default:
		snprintf(msg, msglen, "entry %u: unknown type %u", index,
			 e->type);
		return -EINVAL;
	}
	if (e->size != want) {
		snprintf(msg, msglen, "entry %u: %s entry of %u bytes, expected %u",
			 index, type_name(e->type), e->size, want);
		return -EINVAL;
	}
	memcpy(e->vd_uuid, h->vd_uuid, VRAID_J_UUID_LEN);
	if (zero_range(e->vd_uuid, VRAID_J_UUID_LEN)) {
		snprintf(msg, msglen, "entry %u: VD UUID is zero", index);
		return -EINVAL;
	}
	switch (e->type) {
	case VRAID_JE_DATA:
		e->sector = le64_to_cpu(data->sector);
		e->first_mask = data->first_mask;
		e->last_mask = data->last_mask;
		if (!zero_range(data->reserved, sizeof(data->reserved))) {
			snprintf(msg, msglen,
				 "entry %u: reserved bytes are not zero", index);
			return -EINVAL;
		}
		if (!e->pages || e->pages > VRAID_J_MAX_PAYLOAD) {
			snprintf(msg, msglen,
				 "entry %u: DATA entry of %u pages (1..%u)",
				 index, e->pages, VRAID_J_MAX_PAYLOAD);
			return -EINVAL;
		}
		if (e->sector % 8 ||
		    e->sector > U64_MAX_ - (u64)e->pages * 8) {
			snprintf(msg, msglen,
				 "entry %u: DATA at VD sector %llu is not 4 KiB aligned or ends past 2^64",
				 index, (unsigned long long)e->sector);
			return -EINVAL;
		}
		if (!e->first_mask || !e->last_mask ||
		    (e->pages == 1 && e->first_mask != e->last_mask)) {
			snprintf(msg, msglen,
				 "entry %u: DATA valid-sector masks 0x%02x/0x%02x (non-zero, equal for one page)",
				 index, e->first_mask, e->last_mask);
			return -EINVAL;
		}
		if ((e->flags & VRAID_JE_F_PARITY_DATA) &&
		    (e->pages != 1 || e->first_mask != 0xff)) {
			snprintf(msg, msglen,
				 "entry %u: parity DATA entry is not one whole 4 KiB block",
				 index);
			return -EINVAL;
		}
		return 0;
	case VRAID_JE_PARITY:
		e->sector = le64_to_cpu(parity->member_sector);
		e->span = le32_to_cpu(parity->span);
		e->refs = (const u8 *)parity->refs;
		if (!zero_range(parity->reserved, sizeof(parity->reserved))) {
			snprintf(msg, msglen,
				 "entry %u: reserved bytes are not zero", index);
			return -EINVAL;
		}
		if (e->pages != 1 && e->pages != 2) {
			snprintf(msg, msglen,
				 "entry %u: PARITY entry of %u pages (1: P, 2: P and Q)",
				 index, e->pages);
			return -EINVAL;
		}
		if (e->sector % 8 || e->sector < VRAID_DATA_OFFSET_SECTORS ||
		    e->sector > U64_MAX_ - 8) {
			snprintf(msg, msglen,
				 "entry %u: PARITY at member sector %llu is not a 4 KiB column of the data area",
				 index, (unsigned long long)e->sector);
			return -EINVAL;
		}
		if (e->span >= VRAID_MD_MAX_MEMBERS) {
			snprintf(msg, msglen, "entry %u: PARITY of span %u",
				 index, e->span);
			return -EINVAL;
		}
		return check_refs(parity, e->nrefs, rec_seq, index, data_mask,
				  msg, msglen);
	case VRAID_JE_INVALIDATE:
		e->sector = le64_to_cpu(inval->sector);
		e->sectors = le64_to_cpu(inval->sectors);
		end = e->sector + e->sectors;
		if (e->pages) {
			snprintf(msg, msglen,
				 "entry %u: INVALIDATE entry with %u pages",
				 index, e->pages);
			return -EINVAL;
		}
		if (!e->sectors || end < e->sector) {
			snprintf(msg, msglen,
				 "entry %u: INVALIDATE of %llu sectors at %llu",
				 index, (unsigned long long)e->sectors,
				 (unsigned long long)e->sector);
			return -EINVAL;
		}
		return 0;
	default:
		e->floor = le64_to_cpu(clean->floor);
		if (e->pages) {
			snprintf(msg, msglen,
				 "entry %u: VD_CLEAN entry with %u pages",
				 index, e->pages);
			return -EINVAL;
		}
		if (e->floor > rec_seq) {
			snprintf(msg, msglen,
				 "entry %u: VD_CLEAN floor %llu above its record's seq %llu",
				 index, (unsigned long long)e->floor,
				 (unsigned long long)rec_seq);
			return -EINVAL;
		}
		return 0;
	}
}

/* Pages of writes around the cache in flight at most (VRAID_J_BYPASS). */
static u64 jparity_around(u64 ring)
{
	return ring / VRAID_J_BYPASS + 512;
}

/* A PAD (one at the ring's end) and a record of the largest size. */
#define JPARITY_PADS	(2 * (1 + VRAID_J_MAX_PAYLOAD))

u64 vraid_jparity_unlogged_max(u64 ring)
{
	return ring / VRAID_J_BYPASS;
}

/* The cap if every page written costs 2 + @npar blocks (header, data, P/Q). */
static u64 jparity_cap_logged(u64 ring, u32 npar)
{
	u64 quarter = ring >> 2, per, around = jparity_around(ring), cap = 0;
	u32 rem;

	/*
	 * (2 + npar) (2 cap + around) + pads <= ring / 4: what is dirty
	 * and what writers put in the cache meanwhile, both logged again.
	 */
	if (quarter > JPARITY_PADS) {
		per = div_u64_rem(quarter - JPARITY_PADS, 2 + npar, &rem);
		if (per > around)
			cap = (per - around) >> 1;
	}
	return cap;
}

/*
 * The named rule's blocks besides the dirty pages' (1 + @npar each): the
 * pages writers have in the cache unlogged (at most
 * vraid_jparity_unlogged_max()) and the writes around the cache, each
 * page logged (2 + @npar), and the PADs.
 */
static u64 jparity_named_rest(u64 ring, u32 npar)
{
	return (2 + npar) * (vraid_jparity_unlogged_max(ring) +
			     jparity_around(ring)) + JPARITY_PADS;
}

/*
 * The cap if a dirty page costs 1 + @npar blocks (header, P/Q: its data
 * named in its user record): (1 + npar) cap + rest <= ring / 4.
 */
static u64 jparity_cap_named(u64 ring, u32 npar)
{
	u64 quarter = ring >> 2, rest = jparity_named_rest(ring, npar);
	u32 rem;

	if (quarter <= rest)
		return 0;
	return div_u64_rem(quarter - rest, 1 + npar, &rem);
}

u64 vraid_jparity_dirty_cap(u64 ring, u32 npar)
{
	u64 cap = jparity_cap_logged(ring, npar), named;

	/*
	 * The rest of the ring holds the records written while checkpoints
	 * drain: with the cache full, a drain lasts as long as destaging
	 * the cap, and the tail moves only when it ends, so the ring holds
	 * the records of about two drains (user records and parity
	 * records: up to 4 + npar blocks per page written, 3 + npar where
	 * named).  Mirrors write no parity records: the first rule bounds
	 * how long their drain takes.
	 */
	named = npar ? jparity_cap_named(ring, npar) : 0;
	if (named > cap)
		cap = named;
	return cap < 64 ? 64 : cap;
}

u64 vraid_jparity_reserve(u64 ring, u32 npar)
{
	u64 cap = vraid_jparity_dirty_cap(ring, npar);
	u64 logged, named;

	/*
	 * The parity records that can come before the next user record
	 * reserves: of what is dirty (at most the cap), of what writers
	 * put in the cache but have not logged yet, of the writes around
	 * the cache in flight, and a PAD.  Either bound holds; the cap
	 * came from the smaller.
	 */
	logged = (2 + npar) * (2 * cap + jparity_around(ring)) +
		 JPARITY_PADS;
	named = (1 + npar) * cap + jparity_named_rest(ring, npar);
	return npar && named < logged ? named : logged;
}

/* ---- building a record ---- */

void vraid_jsize_init(struct vraid_jsize *s)
{
	s->bytes = VRAID_J_HDR_SIZE;
	s->entries = 0;
	s->pages = 0;
}

bool vraid_jsize_column(struct vraid_jsize *s, u32 n, u32 nlog, u32 npq,
			u32 max_pages)
{
	u32 bytes = nlog * VRAID_JE_DATA_SIZE + VRAID_JE_PARITY_SIZE +
		    n * VRAID_JE_REF_SIZE;

	if (!n || n > VRAID_J_MAX_REFS || nlog > n || !npq || npq > 2 ||
	    max_pages > VRAID_J_MAX_PAYLOAD ||
	    s->pages + nlog + npq > max_pages ||
	    s->bytes + bytes > VRAID_J_BLOCK ||
	    s->entries + nlog + 1 > VRAID_J_MAX_ENTRIES)
		return false;
	s->bytes += bytes;
	s->entries += nlog + 1;
	s->pages += nlog + npq;
	return true;
}

void vraid_jrec_init(struct vraid_jbuild *b, u8 *blk, u64 seq)
{
	memset(blk, 0, VRAID_J_BLOCK);
	b->blk = blk;
	b->seq = seq;
	b->off = VRAID_J_HDR_SIZE;
	b->pages = 0;
	b->entries = 0;
	b->data_mask[0] = 0;
	b->data_mask[1] = 0;
}

/*
 * Start an entry of @size bytes, its head filled in (the rest of the
 * block is zero: vraid_jrec_init()); NULL if it does not fit.
 */
static struct vraid_je_head *add_begin(struct vraid_jbuild *b, u16 type,
				       u32 size, u32 pages,
				       const u8 *vd_uuid)
{
	struct vraid_je_head *h;

	if (size > VRAID_J_BLOCK - b->off ||
	    b->entries >= VRAID_J_MAX_ENTRIES ||
	    pages > VRAID_J_MAX_PAYLOAD - b->pages)
		return NULL;
	h = (struct vraid_je_head *)(b->blk + b->off);
	h->type = cpu_to_le16(type);
	h->size = cpu_to_le16((u16)size);
	h->pages = cpu_to_le32(pages);
	memcpy(h->vd_uuid, vd_uuid, VRAID_J_UUID_LEN);
	return h;
}

/* Validate the entry just written; keep it or wipe it. */
static int add_end(struct vraid_jbuild *b, struct vraid_je_head *h)
{
	u8 *p = (u8 *)h;
	struct vraid_jentry e;
	char msg[8];

	if (decode_entry(p, VRAID_J_BLOCK - b->off, b->seq, b->entries,
			 b->data_mask, &e, msg, sizeof(msg))) {
		memset(p, 0, VRAID_J_BLOCK - b->off);
		return -EINVAL;
	}
	if (e.type == VRAID_JE_DATA)
		b->data_mask[b->entries / 64] |= 1ULL << (b->entries % 64);
	b->off += e.size;
	b->pages += e.pages;
	b->entries++;
	return 0;
}

int vraid_jrec_add_data(struct vraid_jbuild *b, const u8 *vd_uuid,
			u64 sector, u8 first_mask, u8 last_mask, u32 pages)
{
	struct vraid_je_head *h = add_begin(b, VRAID_JE_DATA,
					    VRAID_JE_DATA_SIZE, pages, vd_uuid);
	struct vraid_je_data *d = (struct vraid_je_data *)h;

	if (!h)
		return -ENOSPC;
	d->sector = cpu_to_le64(sector);
	d->first_mask = first_mask;
	d->last_mask = last_mask;
	return add_end(b, h);
}

int vraid_jrec_add_pdata(struct vraid_jbuild *b, const u8 *vd_uuid,
			 u64 sector)
{
	struct vraid_je_head *h = add_begin(b, VRAID_JE_DATA,
					    VRAID_JE_DATA_SIZE, 1, vd_uuid);
	struct vraid_je_data *d = (struct vraid_je_data *)h;

	if (!h)
		return -ENOSPC;
	h->flags = cpu_to_le16(VRAID_JE_F_PARITY_DATA);
	d->sector = cpu_to_le64(sector);
	d->first_mask = 0xff;
	d->last_mask = 0xff;
	return add_end(b, h);
}

int vraid_jrec_add_parity(struct vraid_jbuild *b, const u8 *vd_uuid,
			  u64 msector, u32 span, const struct vraid_jref *refs,
			  u32 nrefs, u32 pages)
{
	struct vraid_je_parity *p;
	struct vraid_je_head *h;
	u32 i;

	if (!nrefs || nrefs > VRAID_J_MAX_REFS)
		return -EINVAL;
	h = add_begin(b, VRAID_JE_PARITY,
		      VRAID_JE_PARITY_SIZE + nrefs * VRAID_JE_REF_SIZE, pages,
		      vd_uuid);
	if (!h)
		return -ENOSPC;
	p = (struct vraid_je_parity *)h;
	p->member_sector = cpu_to_le64(msector);
	p->span = cpu_to_le32(span);
	p->nrefs = cpu_to_le16((u16)nrefs);
	for (i = 0; i < nrefs; i++) {
		p->refs[i].seq = cpu_to_le64(refs[i].seq);
		p->refs[i].entry = cpu_to_le16(refs[i].entry);
		p->refs[i].data_index = cpu_to_le16(refs[i].data_index);
	}
	return add_end(b, h);
}

int vraid_jrec_add_invalidate(struct vraid_jbuild *b, const u8 *vd_uuid,
			      u64 sector, u64 sectors)
{
	struct vraid_je_head *h = add_begin(b, VRAID_JE_INVALIDATE,
					    VRAID_JE_INVAL_SIZE, 0, vd_uuid);
	struct vraid_je_invalidate *inval = (struct vraid_je_invalidate *)h;

	if (!h)
		return -ENOSPC;
	inval->sector = cpu_to_le64(sector);
	inval->sectors = cpu_to_le64(sectors);
	return add_end(b, h);
}

int vraid_jrec_add_vd_clean(struct vraid_jbuild *b, const u8 *vd_uuid,
			    u64 floor)
{
	struct vraid_je_head *h = add_begin(b, VRAID_JE_VD_CLEAN,
					    VRAID_JE_CLEAN_SIZE, 0, vd_uuid);
	struct vraid_je_vd_clean *clean = (struct vraid_je_vd_clean *)h;

	if (!h)
		return -ENOSPC;
	clean->floor = cpu_to_le64(floor);
	return add_end(b, h);
}

static void hdr_encode(u8 *blk, u16 entries, u64 seq, u64 position,
		       const u8 *juuid, u32 payload_blocks, u32 payload_crc,
		       u32 flags)
{
	struct vraid_jrec_header *h = (struct vraid_jrec_header *)blk;

	h->magic = cpu_to_le32(VRAID_J_REC_MAGIC);
	h->version = cpu_to_le16(VRAID_J_REC_VERSION);
	h->entries = cpu_to_le16(entries);
	h->crc = 0;
	h->payload_crc = cpu_to_le32(payload_crc);
	h->seq = cpu_to_le64(seq);
	h->position = cpu_to_le64(position);
	memcpy(h->uuid, juuid, VRAID_J_UUID_LEN);
	h->payload_blocks = cpu_to_le32(payload_blocks);
	h->flags = cpu_to_le32(flags);
	h->reserved = 0;
	h->crc = cpu_to_le32(block_crc(blk, offsetof(struct vraid_jrec_header,
						     crc)));
}

void vraid_jrec_finish(struct vraid_jbuild *b, u64 position,
		       const u8 *juuid, u32 payload_crc)
{
	hdr_encode(b->blk, b->entries, b->seq, position, juuid, b->pages,
		   payload_crc, 0);
}

void vraid_jrec_pad(u8 *blk, u64 seq, u64 position, const u8 *juuid,
		    u32 payload_blocks)
{
	memset(blk, 0, VRAID_J_BLOCK);
	hdr_encode(blk, 0, seq, position, juuid, payload_blocks, 0,
		   VRAID_J_REC_PAD);
}

/* ---- decoding a record ---- */

void vraid_jiter_init(struct vraid_jiter *it, const u8 *blk,
		      const struct vraid_jhdr *hdr)
{
	it->blk = blk;
	it->seq = hdr->seq;
	it->entries = hdr->entries;
	it->payload_blocks = hdr->flags & VRAID_J_REC_PAD ? 0 :
			     hdr->payload_blocks;
	it->off = VRAID_J_HDR_SIZE;
	it->index = 0;
	it->pages = 0;
	it->data_mask[0] = 0;
	it->data_mask[1] = 0;
}

int vraid_jiter_next(struct vraid_jiter *it, struct vraid_jentry *e,
		     char *msg, size_t msglen)
{
	int ret;

	if (it->index >= it->entries) {
		if (it->pages != it->payload_blocks) {
			snprintf(msg, msglen,
				 "entries take %u payload blocks, the header says %u",
				 it->pages, it->payload_blocks);
			return -EINVAL;
		}
		if (!zero_range(it->blk + it->off, VRAID_J_BLOCK - it->off)) {
			snprintf(msg, msglen,
				 "bytes after the last entry are not zero");
			return -EINVAL;
		}
		return 0;
	}
	if (it->index >= VRAID_J_MAX_ENTRIES) {
		snprintf(msg, msglen, "more than %u entries",
			 VRAID_J_MAX_ENTRIES);
		return -EINVAL;
	}
	ret = decode_entry(it->blk + it->off, VRAID_J_BLOCK - it->off,
			   it->seq, it->index, it->data_mask, e, msg, msglen);
	if (ret)
		return ret;
	if (e->pages > it->payload_blocks - it->pages) {
		snprintf(msg, msglen,
			 "entry %u: its %u pages go past the %u payload blocks",
			 it->index, e->pages, it->payload_blocks);
		return -EINVAL;
	}
	e->page_off = it->pages;
	if (e->type == VRAID_JE_DATA)
		it->data_mask[it->index / 64] |= 1ULL << (it->index % 64);
	it->pages += e->pages;
	it->off += e->size;
	it->index++;
	return 1;
}

int vraid_jhdr_decode(const u8 *blk, struct vraid_jhdr *hdr, char *msg,
		      size_t msglen)
{
	const struct vraid_jrec_header *h = (const struct vraid_jrec_header *)blk;
	struct vraid_jentry e;
	struct vraid_jiter it;
	u32 crc;
	u16 v;
	int ret;

	if (le32_to_cpu(h->magic) != VRAID_J_REC_MAGIC) {
		snprintf(msg, msglen, "no journal record (magic 0x%08x)",
			 le32_to_cpu(h->magic));
		return -ENODATA;
	}
	v = le16_to_cpu(h->version);
	if (v != VRAID_J_REC_VERSION) {
		snprintf(msg, msglen,
			 "journal record version %u is not supported (this vraid reads %u)",
			 v, VRAID_J_REC_VERSION);
		return -EPROTONOSUPPORT;
	}
	crc = block_crc(blk, offsetof(struct vraid_jrec_header, crc));
	if (crc != le32_to_cpu(h->crc)) {
		snprintf(msg, msglen,
			 "record header checksum mismatch (0x%08x stored, 0x%08x computed)",
			 le32_to_cpu(h->crc), crc);
		return -EINVAL;
	}
	if (h->reserved) {
		snprintf(msg, msglen, "reserved record header bytes are not zero");
		return -EINVAL;
	}
	hdr->entries = le16_to_cpu(h->entries);
	hdr->payload_crc = le32_to_cpu(h->payload_crc);
	hdr->seq = le64_to_cpu(h->seq);
	hdr->position = le64_to_cpu(h->position);
	memcpy(hdr->uuid, h->uuid, VRAID_J_UUID_LEN);
	hdr->payload_blocks = le32_to_cpu(h->payload_blocks);
	hdr->flags = le32_to_cpu(h->flags);
	if (hdr->flags & ~VRAID_J_REC_PAD) {
		snprintf(msg, msglen, "unknown record flags 0x%x", hdr->flags);
		return -EINVAL;
	}
	if (!hdr->seq || zero_range(hdr->uuid, VRAID_J_UUID_LEN)) {
		snprintf(msg, msglen, "record with seq %llu or a zero journal UUID",
			 (unsigned long long)hdr->seq);
		return -EINVAL;
	}
	if (hdr->payload_blocks > VRAID_J_MAX_PAYLOAD) {
		snprintf(msg, msglen, "record of %u payload blocks (at most %u)",
			 hdr->payload_blocks, VRAID_J_MAX_PAYLOAD);
		return -EINVAL;
	}
	if (hdr->flags & VRAID_J_REC_PAD) {
		if (hdr->entries || hdr->payload_crc ||
		    !zero_range(h->entry_area, sizeof(h->entry_area))) {
			snprintf(msg, msglen,
				 "PAD record with entries or a payload checksum");
			return -EINVAL;
		}
		return 0;
	}
	if (!hdr->entries || hdr->entries > VRAID_J_MAX_ENTRIES) {
		snprintf(msg, msglen, "record of %u entries (1..%u)",
			 hdr->entries, VRAID_J_MAX_ENTRIES);
		return -EINVAL;
	}
	vraid_jiter_init(&it, blk, hdr);
	while ((ret = vraid_jiter_next(&it, &e, msg, msglen)) > 0)
		;
	return ret;
}

int vraid_jhdr_expect(const struct vraid_jhdr *hdr, const u8 *juuid,
		      u64 seq, u64 position, u64 ring_blocks, char *msg,
		      size_t msglen)
{
	if (memcmp(hdr->uuid, juuid, VRAID_J_UUID_LEN)) {
		snprintf(msg, msglen, "record of another journal");
		return -EINVAL;
	}
	if (hdr->seq != seq) {
		snprintf(msg, msglen, "record seq %llu, expected %llu",
			 (unsigned long long)hdr->seq,
			 (unsigned long long)seq);
		return -EINVAL;
	}
	if (hdr->position != position || position >= ring_blocks) {
		snprintf(msg, msglen,
			 "record says block %llu, found at %llu of %llu",
			 (unsigned long long)hdr->position,
			 (unsigned long long)position,
			 (unsigned long long)ring_blocks);
		return -EINVAL;
	}
	if (hdr->flags & VRAID_J_REC_PAD ?
	    hdr->payload_blocks != ring_blocks - position - 1 :
	    hdr->payload_blocks >= ring_blocks - position) {
		snprintf(msg, msglen,
			 "%s record of %u payload blocks at block %llu of %llu",
			 hdr->flags & VRAID_J_REC_PAD ? "PAD" : "a",
			 hdr->payload_blocks, (unsigned long long)position,
			 (unsigned long long)ring_blocks);
		return -EINVAL;
	}
	return 0;
}

/* ---- ring arithmetic ---- */

u64 vraid_jring_used(u64 ring, u64 tail, u64 head)
{
	return head >= tail ? head - tail : ring - tail + head;
}

u64 vraid_jring_free(u64 ring, u64 tail, u64 head)
{
	u64 used = vraid_jring_used(ring, tail, head);

	return used < ring ? ring - 1 - used : 0;
}

bool vraid_jring_fits(u64 ring, u64 pos, u64 blocks)
{
	return pos < ring && blocks <= ring - pos;
}

u64 vraid_jring_cost(u64 ring, u64 head, u64 blocks, u64 *pad)
{
	*pad = vraid_jring_fits(ring, head, blocks) || head >= ring ? 0 :
	       ring - head;
	return *pad > U64_MAX_ - blocks ? U64_MAX_ : *pad + blocks;
}

u64 vraid_jring_advance(u64 ring, u64 pos, u64 blocks)
{
	if (blocks >= ring - pos)
		return blocks - (ring - pos);
	return pos + blocks;
}

int vraid_jring_reserve(u64 ring, u64 tail, u64 head, u64 blocks, u64 *start,
			u64 *pad)
{
	u64 room;

	if (!blocks || head >= ring || tail >= ring)
		return -ENOSPC;
	room = vraid_jring_free(ring, tail, head);
	if (blocks > room)
		return -ENOSPC;
	/* no overflow: cost = pad + blocks with both within the ring */
	if (vraid_jring_cost(ring, head, blocks, pad) > room)
		return -ENOSPC;
	*start = *pad ? 0 : head;
	return 0;
}

/* ---- the replay planner ---- */

/* Whether (@seq, @entry) comes before input entry @e in log order. */
static bool log_before(u64 seq, u32 entry, const struct vraid_jplan_in *e)
{
	return seq < e->seq || (seq == e->seq && entry < e->e.index);
}

u32 vraid_jplan_find(const struct vraid_jplan_in *in, u32 n, u64 seq,
		     u32 entry)
{
	u32 lo = 0, hi = n;

	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if (in[mid].seq == seq && in[mid].e.index == entry)
			return mid;
		if (log_before(seq, entry, &in[mid]))
			hi = mid;
		else
			lo = mid + 1;
	}
	return n;
}

/* Page order: by sector, the newest version first. */
static bool page_less(const struct vraid_jplan_page *a,
		      const struct vraid_jplan_page *b)
{
	return a->sector < b->sector ||
	       (a->sector == b->sector && a->in > b->in);
}

static void page_sift(struct vraid_jplan_page *p, u32 root, u32 n)
{
	struct vraid_jplan_page t;
	u32 child;

	while ((child = 2 * root + 1) < n) {
		if (child + 1 < n && page_less(&p[child], &p[child + 1]))
			child++;
		if (!page_less(&p[root], &p[child]))
			return;
		t = p[root];
		p[root] = p[child];
		p[child] = t;
		root = child;
	}
}

/* Heapsort: no recursion, no allocation. */
static void page_sort(struct vraid_jplan_page *p, u32 n)
{
	struct vraid_jplan_page t;
	u32 i;

	for (i = n / 2; i-- > 0;)
		page_sift(p, i, n);
	for (i = n; i-- > 1;) {
		t = p[0];
		p[0] = p[i];
		p[i] = t;
		page_sift(p, 0, i);
	}
}

/* Sectors of the page at @sector that INVALIDATEs after input @after cover. */
static u8 invalidated(const struct vraid_jplan_in *in, const u32 *inv,
		      u32 ninv, u32 after, u64 sector)
{
	u32 lo = 0, hi = ninv, i;
	u8 mask = 0;

	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if (inv[mid] <= after)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = lo; i < ninv && mask != 0xff; i++) {
		const struct vraid_jentry *e = &in[inv[i]].e;
		u64 s = e->sector > sector ? e->sector : sector;
		u64 end = e->sector + e->sectors;

		if (end > sector + 8)
			end = sector + 8;
		for (; s < end; s++)
			mask |= (u8)(1U << (s - sector));
	}
	return mask;
}

static int plan_parity(const struct vraid_jplan_in *in, u32 n, u32 i,
		       u64 scan_start, u32 first, bool *use, char *msg,
		       size_t msglen)
{
	const struct vraid_jentry *e = &in[i].e;
	struct vraid_jref ref;
	u32 r, j;

	*use = false;
	for (r = 0; r < e->nrefs; r++) {
		vraid_jentry_ref(e, r, &ref);
		if (ref.seq < scan_start)
			return 0;	/* a settled destage */
		j = vraid_jplan_find(in, n, ref.seq, ref.entry);
		if (j == n || in[j].e.type != VRAID_JE_DATA || j >= i) {
			snprintf(msg, msglen,
				 "PARITY entry %u of record %llu refers to entry %u of record %llu, which is no DATA of this VD",
				 e->index, (unsigned long long)in[i].seq,
				 ref.entry, (unsigned long long)ref.seq);
			return -EINVAL;
		}
		if (j < first)
			return 0;	/* before the cutoff: settled */
	}
	*use = true;
	return 0;
}

int vraid_jplan_make(const struct vraid_jplan_in *in, u32 n, u64 floor,
		     u64 scan_start, u32 *scratch, u32 *parity,
		     struct vraid_jplan_page *pages, u32 max_pages,
		     struct vraid_jplan *plan, char *msg, size_t msglen)
{
	u32 i, k, first = 0, ninv = 0, np = 0, out = 0;
	u64 cut = floor;
	bool use;
	int ret;

	plan->first = 0;
	plan->nparity = 0;
	plan->npages = 0;
	for (i = 0; i < n; i++) {
		if (i && (!log_before(in[i - 1].seq, in[i - 1].e.index,
				      &in[i]) ||
			  memcmp(in[i].e.vd_uuid, in[0].e.vd_uuid,
				 VRAID_J_UUID_LEN))) {
			snprintf(msg, msglen,
				 "replay input %u (record %llu entry %u) is out of log order or of another VD",
				 i, (unsigned long long)in[i].seq,
				 in[i].e.index);
			return -EINVAL;
		}
		if (in[i].e.type == VRAID_JE_VD_CLEAN) {
			first = i + 1;
			if (in[i].e.floor > cut)
				cut = in[i].e.floor;
		}
	}
	while (first < n && in[first].seq < cut)
		first++;
	plan->first = first;

	for (i = first; i < n; i++) {
		const struct vraid_jentry *e = &in[i].e;

		switch (e->type) {
		case VRAID_JE_INVALIDATE:
			scratch[ninv++] = i;
			break;
		case VRAID_JE_PARITY:
			ret = plan_parity(in, n, i, scan_start, first, &use,
					  msg, msglen);
			if (ret)
				return ret;
			if (use)
				parity[plan->nparity++] = i;
			break;
		case VRAID_JE_DATA:
			if (e->flags & VRAID_JE_F_PARITY_DATA)
				break;	/* written with its PARITY entry */
			for (k = 0; k < e->pages; k++) {
				if (np >= max_pages) {
					snprintf(msg, msglen,
						 "more than %u page versions to replay",
						 max_pages);
					return -ENOSPC;
				}
				pages[np].sector = e->sector + 8ULL * k;
				pages[np].in = i;
				pages[np].page = k;
				pages[np].mask = !k ? e->first_mask :
						 k == e->pages - 1 ?
						 e->last_mask : 0xff;
				np++;
			}
			break;
		}
	}

	page_sort(pages, np);
	for (i = 0; i < np;) {
		u64 sector = pages[i].sector;
		u8 covered = 0;

		for (; i < np && pages[i].sector == sector; i++) {
			struct vraid_jplan_page v = pages[i];
			u8 take = v.mask & ~covered &
				  ~invalidated(in, scratch, ninv, v.in, sector);

			covered |= v.mask;
			if (take) {
				v.mask = take;
				pages[out++] = v;
			}
		}
	}
	plan->npages = out;
	return 0;
}
