// SPDX-License-Identifier: GPL-2.0
/*
 * On-disk metadata (portable core): see metadata.h and
 * Documentation/on-disk-format.rst.
 *
 * The block is struct vraid_md_block (metadata.h); the offsets below are
 * those of Documentation/on-disk-format.rst, "Block layout", checked at
 * compile time so that the struct cannot drift from the format.
 */
#include "core_types.h"
#include <linux/vraid.h>
#include "metadata.h"
#include "layout.h"
#include "validate.h"

VRAID_ONDISK_OFFSET(struct vraid_md_block, magic, 0);
VRAID_ONDISK_OFFSET(struct vraid_md_block, version, 4);
VRAID_ONDISK_OFFSET(struct vraid_md_block, block_size, 8);
VRAID_ONDISK_OFFSET(struct vraid_md_block, crc, 12);
VRAID_ONDISK_OFFSET(struct vraid_md_block, generation, 16);
VRAID_ONDISK_OFFSET(struct vraid_md_block, created, 24);
VRAID_ONDISK_OFFSET(struct vraid_md_block, vd_uuid, 32);
VRAID_ONDISK_OFFSET(struct vraid_md_block, name, 48);
VRAID_ONDISK_OFFSET(struct vraid_md_block, level, 80);
VRAID_ONDISK_OFFSET(struct vraid_md_block, nr_members, 84);
VRAID_ONDISK_OFFSET(struct vraid_md_block, spans, 88);
VRAID_ONDISK_OFFSET(struct vraid_md_block, strip_bytes, 92);
VRAID_ONDISK_OFFSET(struct vraid_md_block, role, 96);
VRAID_ONDISK_OFFSET(struct vraid_md_block, flags, 100);
VRAID_ONDISK_OFFSET(struct vraid_md_block, data_offset, 104);
VRAID_ONDISK_OFFSET(struct vraid_md_block, member_sectors, 112);
VRAID_ONDISK_OFFSET(struct vraid_md_block, size_sectors, 120);
VRAID_ONDISK_OFFSET(struct vraid_md_block, access_policy, 128);
VRAID_ONDISK_OFFSET(struct vraid_md_block, disk_cache_policy, 132);
VRAID_ONDISK_OFFSET(struct vraid_md_block, io_policy, 136);
VRAID_ONDISK_OFFSET(struct vraid_md_block, read_policy, 140);
VRAID_ONDISK_OFFSET(struct vraid_md_block, write_policy, 144);
VRAID_ONDISK_OFFSET(struct vraid_md_block, job_type, 148);
VRAID_ONDISK_OFFSET(struct vraid_md_block, job_flags, 152);
VRAID_ONDISK_OFFSET(struct vraid_md_block, job_rate_kib, 156);
VRAID_ONDISK_OFFSET(struct vraid_md_block, job_pos, 160);
VRAID_ONDISK_OFFSET(struct vraid_md_block, init_pos, 168);
VRAID_ONDISK_OFFSET(struct vraid_md_block, last_job, 176);
VRAID_ONDISK_OFFSET(struct vraid_md_block, last_result, 180);
VRAID_ONDISK_OFFSET(struct vraid_md_block, last_mismatches, 184);
VRAID_ONDISK_OFFSET(struct vraid_md_block, journal_uuid, 192);
VRAID_ONDISK_OFFSET(struct vraid_md_block, journal_floor, 208);
VRAID_ONDISK_OFFSET(struct vraid_md_block, cache_flags, 216);
VRAID_ONDISK_OFFSET(struct vraid_md_block, reserved1, 220);
VRAID_ONDISK_OFFSET(struct vraid_md_block, members, 256);
VRAID_ONDISK_OFFSET(struct vraid_md_block, rebuilt_to, 1280);
VRAID_ONDISK_OFFSET(struct vraid_md_block, reserved2, 1536);
VRAID_ONDISK_SIZE(struct vraid_md_block, VRAID_MD_BLOCK);
VRAID_ONDISK_OFFSET(struct vraid_md_block_member, uuid, 0);
VRAID_ONDISK_OFFSET(struct vraid_md_block_member, state, 16);
VRAID_ONDISK_OFFSET(struct vraid_md_block_member, flags, 20);
VRAID_ONDISK_OFFSET(struct vraid_md_block_member, dev_sectors, 24);
VRAID_ONDISK_SIZE(struct vraid_md_block_member, 32);

VRAID_ONDISK_OFFSET(struct vraid_bm_block, magic, 0);
VRAID_ONDISK_OFFSET(struct vraid_bm_block, version, 4);
VRAID_ONDISK_OFFSET(struct vraid_bm_block, crc, 8);
VRAID_ONDISK_OFFSET(struct vraid_bm_block, shift, 12);
VRAID_ONDISK_OFFSET(struct vraid_bm_block, nbits, 16);
VRAID_ONDISK_OFFSET(struct vraid_bm_block, reserved1, 20);
VRAID_ONDISK_OFFSET(struct vraid_bm_block, vd_uuid, 24);
VRAID_ONDISK_OFFSET(struct vraid_bm_block, reserved2, 40);
VRAID_ONDISK_OFFSET(struct vraid_bm_block, bits, 4096);
VRAID_ONDISK_SIZE(struct vraid_bm_block, VRAID_BM_BYTES);

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
	struct vraid_md_block *b = (struct vraid_md_block *)blk;
	u32 i;

	memset(b, 0, sizeof(*b));
	b->magic = cpu_to_le32(VRAID_MD_MAGIC);
	b->version = cpu_to_le32(VRAID_MD_VERSION);
	b->block_size = cpu_to_le32(VRAID_MD_BLOCK);
	b->generation = cpu_to_le64(md->generation);
	b->created = cpu_to_le64(md->created);
	memcpy(b->vd_uuid, md->vd_uuid, VRAID_MD_UUID_LEN);
	memcpy(b->name, md->name, sizeof(b->name));
	b->name[sizeof(b->name) - 1] = 0;
	b->level = cpu_to_le32(md->level);
	b->nr_members = cpu_to_le32(md->nr_members);
	b->spans = cpu_to_le32(md->spans);
	b->strip_bytes = cpu_to_le32(md->strip_bytes);
	b->role = cpu_to_le32(md->role);
	b->flags = cpu_to_le32(md->flags);
	b->data_offset = cpu_to_le64(md->data_offset);
	b->member_sectors = cpu_to_le64(md->member_sectors);
	b->size_sectors = cpu_to_le64(md->size_sectors);
	b->access_policy = cpu_to_le32(md->access_policy);
	b->disk_cache_policy = cpu_to_le32(md->disk_cache_policy);
	b->io_policy = cpu_to_le32(md->io_policy);
	b->read_policy = cpu_to_le32(md->read_policy);
	b->write_policy = cpu_to_le32(md->write_policy);
	b->job_type = cpu_to_le32(md->job_type);
	b->job_flags = cpu_to_le32(md->job_flags);
	b->job_rate_kib = cpu_to_le32(md->job_rate_kib);
	b->job_pos = cpu_to_le64(md->job_pos);
	b->init_pos = cpu_to_le64(md->init_pos);
	b->last_job = cpu_to_le32(md->last_job);
	b->last_result = cpu_to_le32(md->last_result);
	b->last_mismatches = cpu_to_le64(md->last_mismatches);
	memcpy(b->journal_uuid, md->journal_uuid, VRAID_MD_UUID_LEN);
	b->journal_floor = cpu_to_le64(md->journal_floor);
	b->cache_flags = cpu_to_le32(md->cache_flags);
	for (i = 0; i < md->nr_members && i < VRAID_MD_MAX_MEMBERS; i++) {
		struct vraid_md_block_member *m = &b->members[i];

		memcpy(m->uuid, md->members[i].uuid, VRAID_MD_UUID_LEN);
		m->state = cpu_to_le32(md->members[i].state);
		m->flags = cpu_to_le32(md->members[i].flags);
		m->dev_sectors = cpu_to_le64(md->members[i].dev_sectors);
		b->rebuilt_to[i] = cpu_to_le64(md->members[i].rebuilt_to);
	}
	b->crc = cpu_to_le32(vraid_crc32c(0, b, sizeof(*b)));
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
	const struct vraid_md_block *b = (const struct vraid_md_block *)blk;
	const u32 crc_at = offsetof(struct vraid_md_block, crc);
	struct vraid_geom g;
	u8 tmp[4];
	u32 crc, i, strip_check, spans;
	const u8 *res2;
	int ret;

	if (le32_to_cpu(b->magic) != VRAID_MD_MAGIC) {
		snprintf(msg, msglen, "no vraid metadata (magic 0x%08x)",
			 le32_to_cpu(b->magic));
		return -ENODATA;
	}
	md->version = le32_to_cpu(b->version);
	if (md->version < VRAID_MD_VERSION_MIN ||
	    md->version > VRAID_MD_VERSION) {
		snprintf(msg, msglen,
			 "metadata version %u is not supported (this vraid reads %u to %u)",
			 md->version, VRAID_MD_VERSION_MIN, VRAID_MD_VERSION);
		return -EPROTONOSUPPORT;
	}
	if (le32_to_cpu(b->block_size) != VRAID_MD_BLOCK) {
		snprintf(msg, msglen, "metadata block size %u, expected %u",
			 le32_to_cpu(b->block_size), VRAID_MD_BLOCK);
		return -EINVAL;
	}
	/* The CRC covers the block with its own field zero. */
	crc = vraid_crc32c(0, blk, crc_at);
	memset(tmp, 0, sizeof(tmp));
	crc = vraid_crc32c(crc, tmp, sizeof(tmp));
	crc = vraid_crc32c(crc, blk + crc_at + 4, VRAID_MD_BLOCK - crc_at - 4);
	if (crc != le32_to_cpu(b->crc)) {
		snprintf(msg, msglen, "metadata checksum mismatch (0x%08x stored, 0x%08x computed)",
			 le32_to_cpu(b->crc), crc);
		return -EINVAL;
	}
	/* (version 1 has no positions: reserved there) */
	res2 = md->version == 1 ? (const u8 *)b->rebuilt_to : b->reserved2;
	if (!zero_range(b->reserved1, sizeof(b->reserved1)) ||
	    !zero_range(res2, blk + VRAID_MD_BLOCK - res2)) {
		snprintf(msg, msglen, "reserved metadata bytes are not zero");
		return -EINVAL;
	}
	md->generation = le64_to_cpu(b->generation);
	md->created = le64_to_cpu(b->created);
	memcpy(md->vd_uuid, b->vd_uuid, VRAID_MD_UUID_LEN);
	memcpy(md->name, b->name, sizeof(md->name));
	if (!vraid_name_valid(md->name, sizeof(md->name))) {
		snprintf(msg, msglen, "VD name is not a valid vraid name");
		return -EINVAL;
	}
	md->level = le32_to_cpu(b->level);
	md->nr_members = le32_to_cpu(b->nr_members);
	md->spans = le32_to_cpu(b->spans);
	md->strip_bytes = le32_to_cpu(b->strip_bytes);
	md->role = le32_to_cpu(b->role);
	md->flags = le32_to_cpu(b->flags);
	md->data_offset = le64_to_cpu(b->data_offset);
	md->member_sectors = le64_to_cpu(b->member_sectors);
	md->size_sectors = le64_to_cpu(b->size_sectors);
	md->access_policy = le32_to_cpu(b->access_policy);
	md->disk_cache_policy = le32_to_cpu(b->disk_cache_policy);
	md->io_policy = le32_to_cpu(b->io_policy);
	md->read_policy = le32_to_cpu(b->read_policy);
	md->write_policy = le32_to_cpu(b->write_policy);
	md->job_type = le32_to_cpu(b->job_type);
	md->job_flags = le32_to_cpu(b->job_flags);
	md->job_rate_kib = le32_to_cpu(b->job_rate_kib);
	md->job_pos = le64_to_cpu(b->job_pos);
	md->init_pos = le64_to_cpu(b->init_pos);
	md->last_job = le32_to_cpu(b->last_job);
	md->last_result = le32_to_cpu(b->last_result);
	md->last_mismatches = le64_to_cpu(b->last_mismatches);
	memcpy(md->journal_uuid, b->journal_uuid, VRAID_MD_UUID_LEN);
	md->journal_floor = le64_to_cpu(b->journal_floor);
	md->cache_flags = le32_to_cpu(b->cache_flags);
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
		const struct vraid_md_block_member *m = &b->members[i];

		if (i >= md->nr_members) {
			if (!zero_range((const u8 *)m, sizeof(*m)) ||
			    b->rebuilt_to[i]) {
				snprintf(msg, msglen, "member slot %u used in a %u-member VD",
					 i, md->nr_members);
				return -EINVAL;
			}
			continue;
		}
		memcpy(md->members[i].uuid, m->uuid, VRAID_MD_UUID_LEN);
		md->members[i].state = le32_to_cpu(m->state);
		md->members[i].flags = le32_to_cpu(m->flags);
		md->members[i].dev_sectors = le64_to_cpu(m->dev_sectors);
		md->members[i].rebuilt_to = le64_to_cpu(b->rebuilt_to[i]);
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
	const u32 crc_at = offsetof(struct vraid_bm_block, crc);
	u8 zero[4] = { 0, 0, 0, 0 };
	u32 crc;

	crc = vraid_crc32c(0, blk, crc_at);
	crc = vraid_crc32c(crc, zero, sizeof(zero));
	return vraid_crc32c(crc, blk + crc_at + 4,
			    VRAID_BM_BYTES - crc_at - 4);
}

void vraid_bm_encode(const u8 *vd_uuid, u32 shift, u32 nbits, const u8 *bits,
		     u8 *blk)
{
	struct vraid_bm_block *b = (struct vraid_bm_block *)blk;

	memset(b, 0, sizeof(*b));
	b->magic = cpu_to_le32(VRAID_BM_MAGIC);
	b->version = cpu_to_le32(VRAID_BM_VERSION);
	b->shift = cpu_to_le32(shift);
	b->nbits = cpu_to_le32(nbits);
	memcpy(b->vd_uuid, vd_uuid, VRAID_MD_UUID_LEN);
	memcpy(b->bits, bits, (nbits + 7) / 8);
	/* Bits past nbits in the last byte stay zero. */
	if (nbits % 8)
		b->bits[nbits / 8] &= (u8)((1U << (nbits % 8)) - 1);
	b->crc = cpu_to_le32(vraid_bm_crc(blk));
}

int vraid_bm_decode(const u8 *blk, const u8 *vd_uuid, u32 *shift,
		    u32 *nbits, char *msg, size_t msglen)
{
	const struct vraid_bm_block *b = (const struct vraid_bm_block *)blk;
	u32 n, sh, i;

	if (le32_to_cpu(b->magic) != VRAID_BM_MAGIC) {
		snprintf(msg, msglen, "no bitmap");
		return -ENODATA;
	}
	if (le32_to_cpu(b->version) != VRAID_BM_VERSION) {
		snprintf(msg, msglen, "bitmap version %u is not supported",
			 le32_to_cpu(b->version));
		return -EINVAL;
	}
	if (le32_to_cpu(b->crc) != vraid_bm_crc(blk)) {
		snprintf(msg, msglen, "bitmap checksum mismatch");
		return -EINVAL;
	}
	sh = le32_to_cpu(b->shift);
	n = le32_to_cpu(b->nbits);
	if (sh < VRAID_BM_MIN_SHIFT || sh > 40 || !n ||
	    n > VRAID_BM_MAX_BITS) {
		snprintf(msg, msglen, "bitmap geometry %u bits of 2^%u sectors",
			 n, sh);
		return -EINVAL;
	}
	if (vd_uuid && memcmp(b->vd_uuid, vd_uuid, VRAID_MD_UUID_LEN)) {
		snprintf(msg, msglen, "bitmap of another virtual drive");
		return -EINVAL;
	}
	if (!zero_range(b->reserved2, sizeof(b->reserved2)) || b->reserved1) {
		snprintf(msg, msglen, "reserved bitmap bytes are not zero");
		return -EINVAL;
	}
	for (i = n; i < VRAID_BM_MAX_BITS; i++) {
		if (b->bits[i / 8] & (1U << (i % 8))) {
			snprintf(msg, msglen, "bit %u set past the %u regions",
				 i, n);
			return -EINVAL;
		}
	}
	*shift = sh;
	*nbits = n;
	return 0;
}
