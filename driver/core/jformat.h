/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The journal's on-disk format (portable core): superblock, record
 * header and entry encode/decode/validation, and ring arithmetic.
 * Documentation/cache-design.rst ("The journal") is the design and
 * Documentation/on-disk-format.rst ("Journal") the reference; the
 * module's journal (journal.c) and vraidctl use it.
 *
 * Little-endian throughout; blocks are 4096 bytes.  Superblock slot 0 is
 * at byte 4096, slot 1 at byte 8192, generation g goes to slot g % 2.
 * The ring runs from 1 MiB to the end of the device, rounded down to a
 * block; positions in it are ring-relative block numbers.  A record is a
 * header block and up to 256 payload blocks and never wraps: a PAD record
 * fills the end of the ring instead.
 */
#ifndef VRAID_JFORMAT_H
#define VRAID_JFORMAT_H

#include "core_types.h"

#define VRAID_J_BLOCK		4096
#define VRAID_J_SB_MAGIC	0x4c4a5256U	/* "VRJL" little-endian */
#define VRAID_J_REC_MAGIC	0x524a5256U	/* "VRJR" little-endian */
/*
 * Superblock version: 2 since parity records (DATA entries flagged
 * VRAID_JE_F_PARITY_DATA), so that a module that knows only version 1
 * refuses the journal rather than ending its scan at the first such
 * record; version 1 journals are read and rewritten as 2.  Records keep
 * version 1.
 */
#define VRAID_J_VERSION		2
#define VRAID_J_VERSION_MIN	1
#define VRAID_J_REC_VERSION	1
#define VRAID_J_UUID_LEN	16
#define VRAID_J_SB_SECTOR0	8ULL		/* slot 0: byte 4096 */
#define VRAID_J_SB_SECTOR1	16ULL		/* slot 1: byte 8192 */
#define VRAID_J_RING_START	2048ULL		/* sectors: byte 1 MiB */
#define VRAID_J_MIN_BYTES	(64ULL << 20)	/* smallest journal device */
#define VRAID_J_MIN_RING	((VRAID_J_MIN_BYTES >> 12) - 256)
#define VRAID_J_MAX_RING	(1ULL << 50)	/* blocks: 4 EiB */
/*
 * The largest tail sequence number a superblock may hold: a record a
 * microsecond for five hundred years stays below it, the scan's and the
 * head's arithmetic (seq + records) never wraps, and a cache page's
 * version (seq << 8 | entry, an unsigned long: journal.c) never
 * overflows into VRAID_JVER_MEMBERS.
 */
#define VRAID_J_MAX_SEQ		(1ULL << 54)
/*
 * The ring a new journal takes at most (4 GiB, blocks): the rest of a
 * bigger device stays unused.  A larger ring holds no more dirty data
 * (the controller cache bounds that) but lets the log between
 * checkpoints, which a replay after a crash reads and writes again, grow
 * with the device.  Rings formatted larger are still read.
 */
#define VRAID_J_NEW_RING_MAX	(1ULL << 20)
#define VRAID_J_MAX_PAYLOAD	256		/* payload blocks of a record */
#define VRAID_J_HDR_SIZE	64		/* entries start here */
#define VRAID_J_MAX_ENTRIES	((VRAID_J_BLOCK - VRAID_J_HDR_SIZE) / 40)

/* Superblock flags. */
#define VRAID_J_SB_DETACHED	(1U << 0)	/* detached cleanly */
#define VRAID_J_SB_RELEASED	(1U << 1)	/* by `journal none`: no auto-attach */
/* Record header flags. */
#define VRAID_J_REC_PAD		(1U << 0)	/* filler to the ring's end */

/* Entry types and sizes (bytes). */
#define VRAID_JE_DATA		1
#define VRAID_JE_PARITY		2
#define VRAID_JE_INVALIDATE	3
#define VRAID_JE_VD_CLEAN	4
#define VRAID_JE_DATA_SIZE	48
#define VRAID_JE_PARITY_SIZE	56		/* plus 16 per reference */
#define VRAID_JE_REF_SIZE	16
#define VRAID_JE_INVAL_SIZE	48
#define VRAID_JE_CLEAN_SIZE	40
#define VRAID_J_MAX_REFS	31		/* data blocks of a column */
/*
 * Entry flags.  PARITY_DATA (DATA only): the whole 4 KiB data block of a
 * column that a PARITY entry of the same record refers to, not a version
 * of the VD: replay writes it with its PARITY entry, straight to the
 * member, and never through the VD.
 */
#define VRAID_JE_F_PARITY_DATA	(1U << 0)

/*
 * The blocks and entries as they lie on the journal device
 * (Documentation/on-disk-format.rst, "Journal"): little-endian fields at
 * their natural alignment, no packing needed; jformat.c checks every
 * offset and size at compile time.  Only jformat.c touches them; the
 * rest of the driver uses the decoded structs below.
 */
struct vraid_jsb_block {
	__le32 magic;			/* VRAID_J_SB_MAGIC */
	__le32 version;
	__le32 block_size;		/* VRAID_J_BLOCK */
	__le32 crc;			/* of the block, this field zero */
	__le64 generation;
	__le64 created;
	u8 uuid[VRAID_J_UUID_LEN];
	__le64 ring_start;
	__le64 ring_blocks;
	__le64 tail_block;
	__le64 tail_seq;
	__le32 flags;
	u8 reserved[4012];
};

struct vraid_jrec_header {
	__le32 magic;			/* VRAID_J_REC_MAGIC */
	__le16 version;			/* VRAID_J_REC_VERSION */
	__le16 entries;
	__le32 crc;			/* of the header block, this field zero */
	__le32 payload_crc;
	__le64 seq;
	__le64 position;
	u8 uuid[VRAID_J_UUID_LEN];
	__le32 payload_blocks;
	__le32 flags;
	__le64 reserved;
	/* the entries, back to back, each a multiple of 8 bytes, then zero */
	u8 entry_area[VRAID_J_BLOCK - VRAID_J_HDR_SIZE];
};

/* The first 32 bytes of every entry. */
struct vraid_je_head {
	__le16 type;			/* VRAID_JE_* */
	__le16 size;			/* bytes, the head included */
	__le16 flags;			/* VRAID_JE_F_* */
	__le16 reserved1;
	__le32 pages;
	__le32 reserved2;
	u8 vd_uuid[VRAID_J_UUID_LEN];
};

struct vraid_je_data {
	struct vraid_je_head head;
	__le64 sector;			/* VD sector, 4 KiB aligned */
	u8 first_mask, last_mask;
	u8 reserved[6];
};

struct vraid_je_ref {
	__le64 seq;
	__le16 entry;
	__le16 data_index;
	__le32 reserved;
};

struct vraid_je_parity {
	struct vraid_je_head head;
	__le64 member_sector;
	__le32 span;
	__le16 nrefs;
	u8 reserved[10];
	struct vraid_je_ref refs[];
};

struct vraid_je_invalidate {
	struct vraid_je_head head;
	__le64 sector;
	__le64 sectors;
};

struct vraid_je_vd_clean {
	struct vraid_je_head head;
	__le64 floor;
};

/* The decoded superblock (host order). */
struct vraid_jsb {
	u64 generation;
	u64 created;			/* seconds since the epoch */
	u8 uuid[VRAID_J_UUID_LEN];	/* the journal's */
	u64 ring_start;			/* sectors: VRAID_J_RING_START */
	u64 ring_blocks;
	u64 tail_block;			/* ring-relative */
	u64 tail_seq;			/* seq of the record at tail_block */
	u32 flags;			/* VRAID_J_SB_* */
};

/* Encode @sb into the 4 KiB @blk (all of it written). */
void vraid_jsb_encode(const struct vraid_jsb *sb, u8 *blk);

/*
 * Decode and validate the superblock read from @slot (0 or 1) of a device
 * of @dev_sectors (0: not checked).  Returns 0, -ENODATA (no journal
 * magic), -EPROTONOSUPPORT (other version) or -EINVAL, with the reason in
 * @msg.
 */
int vraid_jsb_decode(const u8 *blk, u32 slot, u64 dev_sectors,
		     struct vraid_jsb *sb, char *msg, size_t msglen);

/*
 * Of the two slots, decoded with results @r0 and @r1, the one to use: 0 or
 * 1 (the valid one with the higher generation), or -ENODATA when neither
 * is valid, or -EINVAL (reason in @msg) when both are valid but belong to
 * different journals.
 */
int vraid_jsb_choose(const struct vraid_jsb *s0, int r0,
		     const struct vraid_jsb *s1, int r1, char *msg,
		     size_t msglen);

/* Ring blocks of a journal device of @dev_sectors (0 if too small). */
u64 vraid_jring_fit(u64 dev_sectors);
u64 vraid_jring_blocks(u64 dev_sectors);

/* The decoded record header (host order). */
struct vraid_jhdr {
	u16 entries;
	u32 payload_crc;		/* vraid_crc32c() over all payload */
	u64 seq;			/* >= 1 */
	u64 position;			/* ring block of this header */
	u8 uuid[VRAID_J_UUID_LEN];	/* the journal's */
	u32 payload_blocks;		/* <= VRAID_J_MAX_PAYLOAD */
	u32 flags;			/* VRAID_J_REC_* */
};

/* A PARITY entry's reference to the DATA version of one data block. */
struct vraid_jref {
	u64 seq;			/* the record holding the DATA entry */
	u16 entry;			/* the entry's index in that record */
	u16 data_index;			/* data block of the column, < 31 */
};

/* A decoded entry. */
struct vraid_jentry {
	u16 type;			/* VRAID_JE_* */
	u16 size;			/* bytes */
	u16 flags;			/* VRAID_JE_F_* */
	u16 index;			/* in its record */
	u32 pages;			/* payload blocks */
	u32 page_off;			/* its first payload block */
	u8 vd_uuid[VRAID_J_UUID_LEN];
	u64 sector;	/* DATA, INVALIDATE: VD sector; PARITY: member sector */
	u64 sectors;			/* INVALIDATE */
	u64 floor;			/* VD_CLEAN */
	u8 first_mask, last_mask;	/* DATA: valid sectors, bit per sector */
	u32 span;			/* PARITY */
	u16 nrefs;			/* PARITY */
	const u8 *refs;			/* PARITY: vraid_jentry_ref() */
};

/* Reference @i (< e->nrefs) of a decoded PARITY entry. */
void vraid_jentry_ref(const struct vraid_jentry *e, u32 i,
		      struct vraid_jref *ref);

/*
 * Building a record: vraid_jrec_init(), then vraid_jrec_add_*() (each
 * returns 0, -ENOSPC when the header block or the payload is full and
 * nothing was added, or -EINVAL when the entry would not validate), then
 * vraid_jrec_finish() once the payload CRC is known.
 */
struct vraid_jbuild {
	u8 *blk;			/* the header block */
	u64 seq;			/* the record's */
	u32 off;			/* next entry */
	u32 pages;			/* payload blocks so far */
	u16 entries;
	u64 data_mask[2];		/* entries that are DATA */
};

void vraid_jrec_init(struct vraid_jbuild *b, u8 *blk, u64 seq);
int vraid_jrec_add_data(struct vraid_jbuild *b, const u8 *vd_uuid,
			u64 sector, u8 first_mask, u8 last_mask, u32 pages);
/* A PARITY_DATA entry: the column's data block at VD sector @sector. */
int vraid_jrec_add_pdata(struct vraid_jbuild *b, const u8 *vd_uuid,
			 u64 sector);
int vraid_jrec_add_parity(struct vraid_jbuild *b, const u8 *vd_uuid,
			  u64 msector, u32 span, const struct vraid_jref *refs,
			  u32 nrefs, u32 pages);
int vraid_jrec_add_invalidate(struct vraid_jbuild *b, const u8 *vd_uuid,
			      u64 sector, u64 sectors);
int vraid_jrec_add_vd_clean(struct vraid_jbuild *b, const u8 *vd_uuid,
			    u64 floor);
void vraid_jrec_finish(struct vraid_jbuild *b, u64 position,
		       const u8 *juuid, u32 payload_crc);

/*
 * Sizing a batch of parity columns before building their record (under a
 * lock, without the header block): what the header and the payload hold
 * so far.  vraid_jsize_column() adds a column of @n data blocks, @nlog of
 * them logged in this record (the others referenced in earlier ones),
 * and @npq P/Q blocks if the builder would take its entries (@nlog
 * PARITY_DATA, one PARITY of @n references) and the payload stays within
 * @max_pages; returns whether it did.
 */
struct vraid_jsize {
	u32 bytes;			/* of the header block used */
	u32 entries;
	u32 pages;			/* payload blocks */
};

void vraid_jsize_init(struct vraid_jsize *s);
bool vraid_jsize_column(struct vraid_jsize *s, u32 n, u32 nlog, u32 npq,
			u32 max_pages);

/* Encode a PAD header at @position with @payload_blocks to skip. */
void vraid_jrec_pad(u8 *blk, u64 seq, u64 position, const u8 *juuid,
		    u32 payload_blocks);

/*
 * Decode and validate a record header block, its entries included.
 * Returns 0, -ENODATA (no record magic), -EPROTONOSUPPORT or -EINVAL with
 * the reason in @msg.  The payload CRC is the caller's to check.
 */
int vraid_jhdr_decode(const u8 *blk, struct vraid_jhdr *hdr, char *msg,
		      size_t msglen);

/*
 * Check a decoded header against what the scan expects: the journal
 * @juuid, @seq, @position, and that the record ends within a ring of
 * @ring_blocks (a PAD exactly at its end).  0 or -EINVAL with @msg.
 */
int vraid_jhdr_expect(const struct vraid_jhdr *hdr, const u8 *juuid,
		      u64 seq, u64 position, u64 ring_blocks, char *msg,
		      size_t msglen);

/* Iterating over the entries of a header block. */
struct vraid_jiter {
	const u8 *blk;
	u64 seq;
	u32 entries;			/* the header's count */
	u32 payload_blocks;
	u32 off;
	u32 index;
	u32 pages;
	u64 data_mask[2];
};

void vraid_jiter_init(struct vraid_jiter *it, const u8 *blk,
		      const struct vraid_jhdr *hdr);

/*
 * The next entry into @e: returns 1, 0 at the end (everything checked:
 * count, pages, zero tail), or -EINVAL with the reason in @msg.
 */
int vraid_jiter_next(struct vraid_jiter *it, struct vraid_jentry *e,
		     char *msg, size_t msglen);

/* ---- ring arithmetic (positions are ring blocks, 0..ring - 1) ---- */

/* Blocks in use from @tail to @head (head == tail: empty). */
u64 vraid_jring_used(u64 ring, u64 tail, u64 head);

/* Blocks free for records: one block always stays unused. */
u64 vraid_jring_free(u64 ring, u64 tail, u64 head);

/* Whether @blocks from @pos end at or before the ring's end. */
bool vraid_jring_fits(u64 ring, u64 pos, u64 blocks);

/*
 * Blocks a record of @blocks at @head takes: itself, plus the PAD to the
 * end of the ring (*pad, 0 if none) when it does not fit before the end
 * (saturating at U64 max).
 */
u64 vraid_jring_cost(u64 ring, u64 head, u64 blocks, u64 *pad);

/* The position @blocks (<= @ring) after @pos (< @ring), wrapping. */
u64 vraid_jring_advance(u64 ring, u64 pos, u64 blocks);

/*
 * Reserve a record of @blocks at @head with the tail at @tail: returns 0
 * with *start (where its header goes) and *pad (PAD blocks before it at
 * @head, 0 if none), or -ENOSPC.
 */
int vraid_jring_reserve(u64 ring, u64 tail, u64 head, u64 blocks, u64 *start,
			u64 *pad);

/*
 * A checkpoint starts once ring / VRAID_J_CP_PARITY blocks are in use
 * (with only mirrors bound too: a drain of up to the cap must end before
 * the ring fills).  With a parity VD bound a user record reserves only if
 * it leaves vraid_jparity_reserve() blocks free (a quarter of the ring),
 * which parity records may use; writes around the cache wait while a
 * checkpoint runs, and at most ring / VRAID_J_BYPASS pages of them are in
 * flight (or one write alone, of up to 512 pages); and the cache holds at
 * most vraid_jparity_dirty_cap() dirty pages.  Then the parity records
 * written before the next user record reserves always fit (each page
 * written costs at most 2 + @npar blocks: header, data, P, Q;
 * Documentation/cache-design.rst, "Parity records and the write hole").
 * A page whose user record is in the ring costs 1 + @npar (its data is
 * named, not logged again): with at most vraid_jparity_unlogged_max()
 * pages in the cache not yet logged (writers wait before they put more
 * in), the cap is the larger that either rule allows.
 * The cap is at least 64 pages.  With only mirrors bound (@npar 0) the
 * first rule caps dirty data: nothing is reserved then, but the cap bounds
 * how long a checkpoint's drain takes, while user records fill the ring.
 */
#define VRAID_J_CP_PARITY	16
#define VRAID_J_BYPASS		64
u64 vraid_jparity_dirty_cap(u64 ring, u32 npar);
u64 vraid_jparity_reserve(u64 ring, u32 npar);
u64 vraid_jparity_unlogged_max(u64 ring);

/*
 * ---- the replay planner ----
 *
 * Documentation/cache-design.rst, "Replay at assembly", step 2: from the
 * scanned entries of one VD, what to write.  The input is every entry of
 * the VD the scan found, in log order (seq, then index in the record),
 * each with its record's seq; the entries keep pointing into their header
 * blocks (PARITY references).  Entries before the last VD_CLEAN, or of a
 * seq below the metadata floor or the VD_CLEAN's floor, do not count.
 */
struct vraid_jplan_in {
	u64 seq;			/* the record's */
	struct vraid_jentry e;
};

/* The sectors @mask of page @page of input DATA entry @in, to write. */
struct vraid_jplan_page {
	u64 sector;			/* VD sector of the page */
	u32 in;
	u32 page;
	u8 mask;			/* bit i: sector + i */
};

struct vraid_jplan {
	u32 first;			/* first input entry that counts */
	u32 nparity;			/* PARITY entries to apply, in order */
	u32 npages;			/* page versions to write */
};

/* Index of the entry (@seq, @entry) in @in, or @n if there is none. */
u32 vraid_jplan_find(const struct vraid_jplan_in *in, u32 n, u64 seq,
		     u32 entry);

/*
 * Plan the replay of @n entries: @parity[0..nparity) gets the input
 * indices of the PARITY entries to apply, in log order (those referring
 * to a version below @scan_start or before the cutoff belong to a settled
 * destage and are skipped); @pages[0..npages) the latest version of every
 * sector, by page, minus INVALIDATEd ranges (sorted by sector).  @scratch
 * and @parity hold @n entries; @pages @max_pages (the DATA pages of the
 * input always suffice).  Returns 0, -EINVAL (input out of order, of
 * several VDs, or a reference to no DATA entry: reason in @msg) or
 * -ENOSPC.  Costs O(P log P + P * I) for P page versions and I
 * INVALIDATEs.
 */
int vraid_jplan_make(const struct vraid_jplan_in *in, u32 n, u64 floor,
		     u64 scan_start, u32 *scratch, u32 *parity,
		     struct vraid_jplan_page *pages, u32 max_pages,
		     struct vraid_jplan *plan, char *msg, size_t msglen);

#endif /* VRAID_JFORMAT_H */
