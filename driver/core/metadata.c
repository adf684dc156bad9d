// SPDX-License-Identifier: GPL-2.0
/*
 * On-disk metadata (portable core): see metadata.h and
 * Documentation/on-disk-format.rst.
 *
 * Block layout (byte offsets, little-endian):
 *	   0 magic "VRMD"	   4 version	   8 block size (4096)
 *	  12 crc32c		  16 generation	  24 created
 *	  32 vd uuid[16]	  48 name[32]
 *	  80 level		  84 nr_members	  88 spans	  92 strip
 *	  96 role		 100 flags	 104 data offset
 *	 112 member sectors	 120 size sectors
 *	 128 access, disk cache, io, read, write policy (5 x 4)
 *	 148 job type		 152 job flags	 156 job rate (KiB/s)
 *	 160 job position	 168 init position (member sectors)
 *	 176 last job		 180 last result 184 last mismatches
 *	 192 journal uuid[16]	 208 journal floor	 216 cache flags
 *	 220 reserved (zero) up to 256
 *	 256 members[32] x 32: uuid[16], state, flags (v2; v1: zero),
 *	     dev sectors
 *	1280 rebuild positions[32] x 8 (v2; v1: zero)
 *	1536 reserved (zero) up to 4096
 */
#include "core_types.h"
#include <linux/vraid.h>
#include "metadata.h"
#include "le_bytes.h"
#include "layout.h"
#include "validate.h"

#define OFF_MAGIC	0
#define OFF_VERSION	4
#define OFF_SIZE	8
#define OFF_CRC		12
#define OFF_GEN		16
#define OFF_CREATED	24
#define OFF_UUID	32
#define OFF_NAME	48
#define OFF_LEVEL	80
#define OFF_NR		84
#define OFF_SPANS	88
#define OFF_STRIP	92
#define OFF_ROLE	96
#define OFF_FLAGS	100
#define OFF_DOFF	104
#define OFF_MSECT	112
#define OFF_SIZE_S	120
#define OFF_POLICY	128
#define OFF_JOB		148
#define OFF_JOBFLAGS	152
#define OFF_JOBRATE	156
#define OFF_JOBPOS	160
#define OFF_INITPOS	168
#define OFF_LASTJOB	176
#define OFF_LASTRES	180
#define OFF_LASTMISM	184
#define OFF_JUUID	192
#define OFF_JFLOOR	208
#define OFF_CFLAGS	216
#define OFF_RES1	220
#define OFF_MEMBERS	256
#define MEMBER_SIZE	32
#define OFF_REBUILT	(OFF_MEMBERS + VRAID_MD_MAX_MEMBERS * MEMBER_SIZE)
#define OFF_RES2	(OFF_REBUILT + VRAID_MD_MAX_MEMBERS * 8)

/*
 * CRC32C (Castagnoli, reflected polynomial 0x82f63b78), a byte at a time
 * from a table: the journal checksums whole records of data with it.
 */
static const u32 vraid_crc32c_table[256] = {
	0x00000000U, 0xf26b8303U, 0xe13b70f7U, 0x1350f3f4U,
	0xc79a971fU, 0x35f1141cU, 0x26a1e7e8U, 0xd4ca64ebU,
	0x8ad958cfU, 0x78b2dbccU, 0x6be22838U, 0x9989ab3bU,
	0x4d43cfd0U, 0xbf284cd3U, 0xac78bf27U, 0x5e133c24U,
	0x105ec76fU, 0xe235446cU, 0xf165b798U, 0x030e349bU,
	0xd7c45070U, 0x25afd373U, 0x36ff2087U, 0xc494a384U,
	0x9a879fa0U, 0x68ec1ca3U, 0x7bbcef57U, 0x89d76c54U,
	0x5d1d08bfU, 0xaf768bbcU, 0xbc267848U, 0x4e4dfb4bU,
	0x20bd8edeU, 0xd2d60dddU, 0xc186fe29U, 0x33ed7d2aU,
	0xe72719c1U, 0x154c9ac2U, 0x061c6936U, 0xf477ea35U,
	0xaa64d611U, 0x580f5512U, 0x4b5fa6e6U, 0xb93425e5U,
	0x6dfe410eU, 0x9f95c20dU, 0x8cc531f9U, 0x7eaeb2faU,
	0x30e349b1U, 0xc288cab2U, 0xd1d83946U, 0x23b3ba45U,
	0xf779deaeU, 0x05125dadU, 0x1642ae59U, 0xe4292d5aU,
	0xba3a117eU, 0x4851927dU, 0x5b016189U, 0xa96ae28aU,
	0x7da08661U, 0x8fcb0562U, 0x9c9bf696U, 0x6ef07595U,
	0x417b1dbcU, 0xb3109ebfU, 0xa0406d4bU, 0x522bee48U,
	0x86e18aa3U, 0x748a09a0U, 0x67dafa54U, 0x95b17957U,
	0xcba24573U, 0x39c9c670U, 0x2a993584U, 0xd8f2b687U,
	0x0c38d26cU, 0xfe53516fU, 0xed03a29bU, 0x1f682198U,
	0x5125dad3U, 0xa34e59d0U, 0xb01eaa24U, 0x42752927U,
	0x96bf4dccU, 0x64d4cecfU, 0x77843d3bU, 0x85efbe38U,
	0xdbfc821cU, 0x2997011fU, 0x3ac7f2ebU, 0xc8ac71e8U,
	0x1c661503U, 0xee0d9600U, 0xfd5d65f4U, 0x0f36e6f7U,
	0x61c69362U, 0x93ad1061U, 0x80fde395U, 0x72966096U,
	0xa65c047dU, 0x5437877eU, 0x4767748aU, 0xb50cf789U,
	0xeb1fcbadU, 0x197448aeU, 0x0a24bb5aU, 0xf84f3859U,
	0x2c855cb2U, 0xdeeedfb1U, 0xcdbe2c45U, 0x3fd5af46U,
	0x7198540dU, 0x83f3d70eU, 0x90a324faU, 0x62c8a7f9U,
	0xb602c312U, 0x44694011U, 0x5739b3e5U, 0xa55230e6U,
	0xfb410cc2U, 0x092a8fc1U, 0x1a7a7c35U, 0xe811ff36U,
	0x3cdb9bddU, 0xceb018deU, 0xdde0eb2aU, 0x2f8b6829U,
	0x82f63b78U, 0x709db87bU, 0x63cd4b8fU, 0x91a6c88cU,
	0x456cac67U, 0xb7072f64U, 0xa457dc90U, 0x563c5f93U,
	0x082f63b7U, 0xfa44e0b4U, 0xe9141340U, 0x1b7f9043U,
	0xcfb5f4a8U, 0x3dde77abU, 0x2e8e845fU, 0xdce5075cU,
	0x92a8fc17U, 0x60c37f14U, 0x73938ce0U, 0x81f80fe3U,
	0x55326b08U, 0xa759e80bU, 0xb4091bffU, 0x466298fcU,
	0x1871a4d8U, 0xea1a27dbU, 0xf94ad42fU, 0x0b21572cU,
	0xdfeb33c7U, 0x2d80b0c4U, 0x3ed04330U, 0xccbbc033U,
	0xa24bb5a6U, 0x502036a5U, 0x4370c551U, 0xb11b4652U,
	0x65d122b9U, 0x97baa1baU, 0x84ea524eU, 0x7681d14dU,
	0x2892ed69U, 0xdaf96e6aU, 0xc9a99d9eU, 0x3bc21e9dU,
	0xef087a76U, 0x1d63f975U, 0x0e330a81U, 0xfc588982U,
	0xb21572c9U, 0x407ef1caU, 0x532e023eU, 0xa145813dU,
	0x758fe5d6U, 0x87e466d5U, 0x94b49521U, 0x66df1622U,
	0x38cc2a06U, 0xcaa7a905U, 0xd9f75af1U, 0x2b9cd9f2U,
	0xff56bd19U, 0x0d3d3e1aU, 0x1e6dcdeeU, 0xec064eedU,
	0xc38d26c4U, 0x31e6a5c7U, 0x22b65633U, 0xd0ddd530U,
	0x0417b1dbU, 0xf67c32d8U, 0xe52cc12cU, 0x1747422fU,
	0x49547e0bU, 0xbb3ffd08U, 0xa86f0efcU, 0x5a048dffU,
	0x8ecee914U, 0x7ca56a17U, 0x6ff599e3U, 0x9d9e1ae0U,
	0xd3d3e1abU, 0x21b862a8U, 0x32e8915cU, 0xc083125fU,
	0x144976b4U, 0xe622f5b7U, 0xf5720643U, 0x07198540U,
	0x590ab964U, 0xab613a67U, 0xb831c993U, 0x4a5a4a90U,
	0x9e902e7bU, 0x6cfbad78U, 0x7fab5e8cU, 0x8dc0dd8fU,
	0xe330a81aU, 0x115b2b19U, 0x020bd8edU, 0xf0605beeU,
	0x24aa3f05U, 0xd6c1bc06U, 0xc5914ff2U, 0x37faccf1U,
	0x69e9f0d5U, 0x9b8273d6U, 0x88d28022U, 0x7ab90321U,
	0xae7367caU, 0x5c18e4c9U, 0x4f48173dU, 0xbd23943eU,
	0xf36e6f75U, 0x0105ec76U, 0x12551f82U, 0xe03e9c81U,
	0x34f4f86aU, 0xc69f7b69U, 0xd5cf889dU, 0x27a40b9eU,
	0x79b737baU, 0x8bdcb4b9U, 0x988c474dU, 0x6ae7c44eU,
	0xbe2da0a5U, 0x4c4623a6U, 0x5f16d052U, 0xad7d5351U,
};

u32 vraid_crc32c_sw(u32 crc, const void *buf, size_t len)
{
	const u8 *p = buf;

	crc = ~crc;
	while (len--)
		crc = (crc >> 8) ^ vraid_crc32c_table[(crc ^ *p++) & 0xff];
	return ~crc;
}

void vraid_md_encode(const struct vraid_md *md, u8 *blk)
{
	u32 i;

	memset(blk, 0, VRAID_MD_BLOCK);
	put32(blk + OFF_MAGIC, VRAID_MD_MAGIC);
	put32(blk + OFF_VERSION, VRAID_MD_VERSION);
	put32(blk + OFF_SIZE, VRAID_MD_BLOCK);
	put64(blk + OFF_GEN, md->generation);
	put64(blk + OFF_CREATED, md->created);
	memcpy(blk + OFF_UUID, md->vd_uuid, VRAID_MD_UUID_LEN);
	memcpy(blk + OFF_NAME, md->name, sizeof(md->name));
	blk[OFF_NAME + sizeof(md->name) - 1] = 0;
	put32(blk + OFF_LEVEL, md->level);
	put32(blk + OFF_NR, md->nr_members);
	put32(blk + OFF_SPANS, md->spans);
	put32(blk + OFF_STRIP, md->strip_bytes);
	put32(blk + OFF_ROLE, md->role);
	put32(blk + OFF_FLAGS, md->flags);
	put64(blk + OFF_DOFF, md->data_offset);
	put64(blk + OFF_MSECT, md->member_sectors);
	put64(blk + OFF_SIZE_S, md->size_sectors);
	put32(blk + OFF_POLICY, md->access_policy);
	put32(blk + OFF_POLICY + 4, md->disk_cache_policy);
	put32(blk + OFF_POLICY + 8, md->io_policy);
	put32(blk + OFF_POLICY + 12, md->read_policy);
	put32(blk + OFF_POLICY + 16, md->write_policy);
	put32(blk + OFF_JOB, md->job_type);
	put32(blk + OFF_JOBFLAGS, md->job_flags);
	put32(blk + OFF_JOBRATE, md->job_rate_kib);
	put64(blk + OFF_JOBPOS, md->job_pos);
	put64(blk + OFF_INITPOS, md->init_pos);
	put32(blk + OFF_LASTJOB, md->last_job);
	put32(blk + OFF_LASTRES, md->last_result);
	put64(blk + OFF_LASTMISM, md->last_mismatches);
	memcpy(blk + OFF_JUUID, md->journal_uuid, VRAID_MD_UUID_LEN);
	put64(blk + OFF_JFLOOR, md->journal_floor);
	put32(blk + OFF_CFLAGS, md->cache_flags);
	for (i = 0; i < md->nr_members && i < VRAID_MD_MAX_MEMBERS; i++) {
		u8 *m = blk + OFF_MEMBERS + i * MEMBER_SIZE;

		memcpy(m, md->members[i].uuid, VRAID_MD_UUID_LEN);
		put32(m + 16, md->members[i].state);
		put32(m + 20, md->members[i].flags);
		put64(m + 24, md->members[i].dev_sectors);
		put64(blk + OFF_REBUILT + i * 8, md->members[i].rebuilt_to);
	}
	put32(blk + OFF_CRC, vraid_crc32c(0, blk, VRAID_MD_BLOCK));
}

static bool zero_range(const u8 *p, size_t len)
{
	while (len--)
		if (*p++)
			return false;
	return true;
}

int vraid_md_decode(const u8 *blk, struct vraid_md *md, char *msg,
		    size_t msglen)
{
	struct vraid_geom g;
	u8 tmp[4];
	u32 crc, i, strip_check, spans, res2;
	int ret;

	if (get32(blk + OFF_MAGIC) != VRAID_MD_MAGIC) {
		snprintf(msg, msglen, "no vraid metadata (magic 0x%08x)",
			 get32(blk + OFF_MAGIC));
		return -ENODATA;
	}
	md->version = get32(blk + OFF_VERSION);
	if (md->version < VRAID_MD_VERSION_MIN ||
	    md->version > VRAID_MD_VERSION) {
		snprintf(msg, msglen,
			 "metadata version %u is not supported (this vraid reads %u to %u)",
			 md->version, VRAID_MD_VERSION_MIN, VRAID_MD_VERSION);
		return -EPROTONOSUPPORT;
	}
	if (get32(blk + OFF_SIZE) != VRAID_MD_BLOCK) {
		snprintf(msg, msglen, "metadata block size %u, expected %u",
			 get32(blk + OFF_SIZE), VRAID_MD_BLOCK);
		return -EINVAL;
	}
	/* The CRC covers the block with its own field zero. */
	crc = vraid_crc32c(0, blk, OFF_CRC);
	memset(tmp, 0, sizeof(tmp));
	crc = vraid_crc32c(crc, tmp, sizeof(tmp));
	crc = vraid_crc32c(crc, blk + OFF_CRC + 4,
			   VRAID_MD_BLOCK - OFF_CRC - 4);
	if (crc != get32(blk + OFF_CRC)) {
		snprintf(msg, msglen, "metadata checksum mismatch (0x%08x stored, 0x%08x computed)",
			 get32(blk + OFF_CRC), crc);
		return -EINVAL;
	}
	/* (version 1 has no positions: reserved there) */
	res2 = md->version == 1 ? OFF_REBUILT : OFF_RES2;
	if (!zero_range(blk + OFF_RES1, OFF_MEMBERS - OFF_RES1) ||
	    !zero_range(blk + res2, VRAID_MD_BLOCK - res2)) {
		snprintf(msg, msglen, "reserved metadata bytes are not zero");
		return -EINVAL;
	}
	md->generation = get64(blk + OFF_GEN);
	md->created = get64(blk + OFF_CREATED);
	memcpy(md->vd_uuid, blk + OFF_UUID, VRAID_MD_UUID_LEN);
	memcpy(md->name, blk + OFF_NAME, sizeof(md->name));
	if (!vraid_name_valid(md->name, sizeof(md->name))) {
		snprintf(msg, msglen, "VD name is not a valid vraid name");
		return -EINVAL;
	}
	md->level = get32(blk + OFF_LEVEL);
	md->nr_members = get32(blk + OFF_NR);
	md->spans = get32(blk + OFF_SPANS);
	md->strip_bytes = get32(blk + OFF_STRIP);
	md->role = get32(blk + OFF_ROLE);
	md->flags = get32(blk + OFF_FLAGS);
	md->data_offset = get64(blk + OFF_DOFF);
	md->member_sectors = get64(blk + OFF_MSECT);
	md->size_sectors = get64(blk + OFF_SIZE_S);
	md->access_policy = get32(blk + OFF_POLICY);
	md->disk_cache_policy = get32(blk + OFF_POLICY + 4);
	md->io_policy = get32(blk + OFF_POLICY + 8);
	md->read_policy = get32(blk + OFF_POLICY + 12);
	md->write_policy = get32(blk + OFF_POLICY + 16);
	md->job_type = get32(blk + OFF_JOB);
	md->job_flags = get32(blk + OFF_JOBFLAGS);
	md->job_rate_kib = get32(blk + OFF_JOBRATE);
	md->job_pos = get64(blk + OFF_JOBPOS);
	md->init_pos = get64(blk + OFF_INITPOS);
	md->last_job = get32(blk + OFF_LASTJOB);
	md->last_result = get32(blk + OFF_LASTRES);
	md->last_mismatches = get64(blk + OFF_LASTMISM);
	memcpy(md->journal_uuid, blk + OFF_JUUID, VRAID_MD_UUID_LEN);
	md->journal_floor = get64(blk + OFF_JFLOOR);
	md->cache_flags = get32(blk + OFF_CFLAGS);
	if ((md->cache_flags & ~(VRAID_MD_CF_JOURNAL | VRAID_MD_CF_VOLATILE)) ||
	    ((md->cache_flags & VRAID_MD_CF_JOURNAL) ?
	     zero_range(md->journal_uuid, VRAID_MD_UUID_LEN) :
	     !zero_range(md->journal_uuid, VRAID_MD_UUID_LEN) ||
	     md->journal_floor)) {
		snprintf(msg, msglen, "bad journal fields (cache flags 0x%x)",
			 md->cache_flags);
		return -EINVAL;
	}

	/* The geometry must be one vraid could have created. */
	strip_check = md->level == VRAID_LEVEL_JBOD ? 0 : md->strip_bytes;
	spans = md->level == VRAID_LEVEL_50 || md->level == VRAID_LEVEL_60 ?
		md->spans : 0;
	ret = vraid_layout_init(&g, md->level, md->nr_members, strip_check,
				spans, md->member_sectors, msg, msglen);
	if (ret)
		return -EINVAL;
	if (g.member_sectors != md->member_sectors ||
	    g.size_sectors != md->size_sectors) {
		snprintf(msg, msglen,
			 "sizes do not match the geometry (%llu/%llu sectors)",
			 (unsigned long long)md->member_sectors,
			 (unsigned long long)md->size_sectors);
		return -EINVAL;
	}
	if (md->role >= md->nr_members) {
		snprintf(msg, msglen, "role %u of a %u-member VD", md->role,
			 md->nr_members);
		return -EINVAL;
	}
	if (md->data_offset != VRAID_DATA_OFFSET_SECTORS) {
		snprintf(msg, msglen, "data offset %llu sectors, expected %llu",
			 (unsigned long long)md->data_offset,
			 (unsigned long long)VRAID_DATA_OFFSET_SECTORS);
		return -EINVAL;
	}
	if (md->access_policy > VRAID_ACCESS_BLOCKED ||
	    md->disk_cache_policy > VRAID_DCACHE_DISABLED ||
	    md->io_policy > VRAID_IO_CACHED ||
	    md->read_policy > VRAID_READ_AHEAD ||
	    md->write_policy > VRAID_WRITE_BACK_ALWAYS) {
		snprintf(msg, msglen, "unknown policy value");
		return -EINVAL;
	}
	if (md->job_type > VRAID_JOB_RESYNC || md->last_job > VRAID_JOB_RESYNC ||
	    (md->job_flags & ~VRAID_MD_JOB_PAUSED) ||
	    md->job_rate_kib > VRAID_JOB_RATE_MAX ||
	    md->last_result > 4095) {
		snprintf(msg, msglen, "bad job checkpoint (job %u, flags 0x%x)",
			 md->job_type, md->job_flags);
		return -EINVAL;
	}
	if (md->job_pos > md->member_sectors ||
	    md->init_pos > md->member_sectors) {
		snprintf(msg, msglen,
			 "job or init position past the data area (%llu/%llu of %llu sectors)",
			 (unsigned long long)md->job_pos,
			 (unsigned long long)md->init_pos,
			 (unsigned long long)md->member_sectors);
		return -EINVAL;
	}
	memset(md->members, 0, sizeof(md->members));
	for (i = 0; i < VRAID_MD_MAX_MEMBERS; i++) {
		const u8 *m = blk + OFF_MEMBERS + i * MEMBER_SIZE;

		if (i >= md->nr_members) {
			if (!zero_range(m, MEMBER_SIZE) ||
			    !zero_range(blk + OFF_REBUILT + i * 8, 8)) {
				snprintf(msg, msglen, "member slot %u used in a %u-member VD",
					 i, md->nr_members);
				return -EINVAL;
			}
			continue;
		}
		memcpy(md->members[i].uuid, m, VRAID_MD_UUID_LEN);
		md->members[i].state = get32(m + 16);
		md->members[i].flags = get32(m + 20);
		md->members[i].dev_sectors = get64(m + 24);
		md->members[i].rebuilt_to = get64(blk + OFF_REBUILT + i * 8);
		if (md->members[i].state < VRAID_MEMBER_ONLINE ||
		    md->members[i].state > VRAID_MEMBER_MISSING ||
		    (md->members[i].flags & ~VRAID_MD_MEMBER_SECOND_COPY) ||
		    (md->version == 1 && md->members[i].flags)) {
			snprintf(msg, msglen, "member %u: bad state %u (flags 0x%x)",
				 i, md->members[i].state, md->members[i].flags);
			return -EINVAL;
		}
		/* a position is a Rebuilding member's, within its data area */
		if (md->members[i].rebuilt_to > md->member_sectors ||
		    (md->members[i].rebuilt_to &&
		     md->members[i].state != VRAID_MEMBER_REBUILDING)) {
			snprintf(msg, msglen,
				 "member %u: rebuild position %llu (state %u, %llu sectors)",
				 i, (unsigned long long)md->members[i].rebuilt_to,
				 md->members[i].state,
				 (unsigned long long)md->member_sectors);
			return -EINVAL;
		}
		/*
		 * Version 1 kept one position, the job checkpoint's when the
		 * job is a rebuild, for every member recorded Rebuilding.
		 */
		if (md->version == 1 && md->job_type == VRAID_JOB_REBUILD &&
		    md->members[i].state == VRAID_MEMBER_REBUILDING)
			md->members[i].rebuilt_to = md->job_pos;
	}
	return 0;
}

/* ---- the write-intent bitmap ---- */

#define BM_OFF_MAGIC	0
#define BM_OFF_VERSION	4
#define BM_OFF_CRC	8
#define BM_OFF_SHIFT	12
#define BM_OFF_NBITS	16
#define BM_OFF_UUID	24
#define BM_OFF_RES	40
#define BM_BITS		4096

u32 vraid_bm_shift(u64 member_sectors, u32 strip_shift)
{
	u32 shift = strip_shift > VRAID_BM_MIN_SHIFT ? strip_shift :
		    VRAID_BM_MIN_SHIFT;

	while ((member_sectors + (1ULL << shift) - 1) >> shift >
	       VRAID_BM_MAX_BITS)
		shift++;
	return shift;
}

static u32 vraid_bm_crc(const u8 *blk)
{
	u8 zero[4] = { 0, 0, 0, 0 };
	u32 crc;

	crc = vraid_crc32c(0, blk, BM_OFF_CRC);
	crc = vraid_crc32c(crc, zero, sizeof(zero));
	return vraid_crc32c(crc, blk + BM_OFF_CRC + 4,
			    VRAID_BM_BYTES - BM_OFF_CRC - 4);
}

void vraid_bm_encode(const u8 *vd_uuid, u32 shift, u32 nbits, const u8 *bits,
		     u8 *blk)
{
	memset(blk, 0, VRAID_BM_BYTES);
	put32(blk + BM_OFF_MAGIC, VRAID_BM_MAGIC);
	put32(blk + BM_OFF_VERSION, VRAID_BM_VERSION);
	put32(blk + BM_OFF_SHIFT, shift);
	put32(blk + BM_OFF_NBITS, nbits);
	memcpy(blk + BM_OFF_UUID, vd_uuid, VRAID_MD_UUID_LEN);
	memcpy(blk + BM_BITS, bits, (nbits + 7) / 8);
	/* Bits past nbits in the last byte stay zero. */
	if (nbits % 8)
		blk[BM_BITS + nbits / 8] &= (u8)((1U << (nbits % 8)) - 1);
	put32(blk + BM_OFF_CRC, vraid_bm_crc(blk));
}

int vraid_bm_decode(const u8 *blk, const u8 *vd_uuid, u32 *shift,
		    u32 *nbits, char *msg, size_t msglen)
{
	u32 n, sh, i;

	if (get32(blk + BM_OFF_MAGIC) != VRAID_BM_MAGIC) {
		snprintf(msg, msglen, "no bitmap");
		return -ENODATA;
	}
	if (get32(blk + BM_OFF_VERSION) != VRAID_BM_VERSION) {
		snprintf(msg, msglen, "bitmap version %u is not supported",
			 get32(blk + BM_OFF_VERSION));
		return -EINVAL;
	}
	if (get32(blk + BM_OFF_CRC) != vraid_bm_crc(blk)) {
		snprintf(msg, msglen, "bitmap checksum mismatch");
		return -EINVAL;
	}
	sh = get32(blk + BM_OFF_SHIFT);
	n = get32(blk + BM_OFF_NBITS);
	if (sh < VRAID_BM_MIN_SHIFT || sh > 40 || !n ||
	    n > VRAID_BM_MAX_BITS) {
		snprintf(msg, msglen, "bitmap geometry %u bits of 2^%u sectors",
			 n, sh);
		return -EINVAL;
	}
	if (vd_uuid && memcmp(blk + BM_OFF_UUID, vd_uuid, VRAID_MD_UUID_LEN)) {
		snprintf(msg, msglen, "bitmap of another virtual drive");
		return -EINVAL;
	}
	if (!zero_range(blk + BM_OFF_RES, BM_BITS - BM_OFF_RES) ||
	    get32(blk + 20)) {
		snprintf(msg, msglen, "reserved bitmap bytes are not zero");
		return -EINVAL;
	}
	for (i = n; i < BM_BITS * 8; i++) {
		if (blk[BM_BITS + i / 8] & (1U << (i % 8))) {
			snprintf(msg, msglen, "bit %u set past the %u regions",
				 i, n);
			return -EINVAL;
		}
	}
	*shift = sh;
	*nbits = n;
	return 0;
}
