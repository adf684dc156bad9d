// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for the portable core: request validation and the
 * geometry (fuzz_validate), and, built with -DFUZZ_DECODE, only the decoders
 * of the on-disk metadata block and write-intent bitmap (fuzz_decode).
 *
 * Input layout (see gen_corpus.c, which writes the seeds):
 *
 *	u32 cmd			command number, taken mod 12: 0..9 as they
 *				are (9 is CONTROLLER), 10 stands for ASSEMBLE
 *				(0x0b), 11 for EVENTS (0x0c)
 *	u8  req[...]		the request struct, copied into a zeroed buffer
 *				of exactly the command's size (the header's
 *				size for unknown commands); short input is
 *				zero-padded, extra input is not copied
 *	struct fuzz_tail	bytes right after the command's struct: member
 *				size and sectors to map for the geometry pass
 *
 * The request goes through vraid_validate_hdr() and the command's
 * validator (always, even if the header is refused: the validators must
 * be safe on any bytes).  Then the geometry fields of the request bytes,
 * read at the offsets of struct vraid_create whatever the command, go
 * through vraid_geom_check(), vraid_geom_init() and vraid_geom_map(), once
 * as they are and once coerced into mostly valid ranges so that the map
 * is reached often.  Any broken invariant abort()s.
 */
#include "core_types.h"
#include <linux/vraid.h>
#include "geom.h"
#include "validate.h"
#include "metadata.h"

#include <stdarg.h>
#include <stdlib.h>

#define NR_CMDS	12	/* 0..9; 10 stands for ASSEMBLE (0x0b), 11 for EVENTS */

/*
 * Largest data area a member can have, in sectors: Linux block devices
 * are at most MAX_LFS_FILESIZE (2^63 - 1) bytes.  32 members of that size
 * still give a size_sectors that fits a u64, so vraid_geom_init() need
 * not guard against wrap-around below this bound.
 */
#define MAX_BDEV_SECTORS	((1ull << 54) - 1)

struct fuzz_tail {
	u64 min_data;		/* smallest member data area, sectors */
	u64 probe[3];		/* sectors to map, taken mod size_sectors */
};

#define FUZZ_NAME "fuzz_validate"
#include "fuzz_check.h"

static void check_ret(const char *where, int ret, const int *allowed,
		      size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (ret == allowed[i])
			return;
	die("%s: unexpected return %d", where, ret);
}

#define CHECK_RET(where, ret, ...)					\
	do {								\
		static const int a_[] = { __VA_ARGS__ };		\
		check_ret(where, ret, a_, sizeof(a_) / sizeof(a_[0]));	\
	} while (0)

/* ---- geometry ------------------------------------------------------------ */

static void check_map(const struct vraid_geom *g, u64 v)
{
	struct vraid_map m, e;
	u64 strip = g->strip_sectors, c, off;

	memset(&m, 0xa5, sizeof(m));
	vraid_geom_map(g, v, &m);
	if (m.member >= g->nr_members || m.sector >= g->member_sectors ||
	    m.len < 1 || m.len > g->member_sectors - m.sector ||
	    m.len > g->size_sectors - v)
		die("map %llu of %llu: member %u/%u sector %llu/%llu len %llu",
		    (unsigned long long)v, (unsigned long long)g->size_sectors,
		    m.member, g->nr_members, (unsigned long long)m.sector,
		    (unsigned long long)g->member_sectors,
		    (unsigned long long)m.len);

	/* the reference model (see tests/unit/test_geom.c) */
	if (g->level == VRAID_LEVEL_JBOD) {
		e.member = 0;
		e.sector = v;
		e.len = g->size_sectors - v;
	} else {
		c = v / strip;
		off = v % strip;
		e.member = (u32)(c % g->nr_members);
		e.sector = (c / g->nr_members) * strip + off;
		e.len = strip - off;
	}
	if (m.member != e.member || m.sector != e.sector || m.len != e.len)
		die("map %llu: member %u sector %llu len %llu, model says %u %llu %llu",
		    (unsigned long long)v, m.member,
		    (unsigned long long)m.sector, (unsigned long long)m.len,
		    e.member, (unsigned long long)e.sector,
		    (unsigned long long)e.len);

	/* the run is contiguous to its end, and no longer */
	if (m.len > 1) {
		vraid_geom_map(g, v + m.len - 1, &e);
		if (e.member != m.member || e.sector != m.sector + m.len - 1 ||
		    e.len != 1)
			die("map %llu: end of run of %llu not contiguous",
			    (unsigned long long)v, (unsigned long long)m.len);
	}
	if (v + m.len < g->size_sectors) {
		vraid_geom_map(g, v + m.len, &e);
		if (e.member == m.member && e.sector == m.sector + m.len)
			die("map %llu: len %llu stops short of the run",
			    (unsigned long long)v, (unsigned long long)m.len);
	}
}

static void fuzz_geom(u32 level, u32 nr, u32 strip_bytes, u32 spans,
		      const struct fuzz_tail *t)
{
	char msg[VRAID_MSG_LEN];
	struct vraid_geom g;
	u64 min_data = t->min_data & MAX_BDEV_SECTORS;
	u64 strip, want;
	int rc, ri, i;

	memset(msg, 'X', sizeof(msg));
	rc = vraid_geom_check(level, nr, strip_bytes, spans, msg, sizeof(msg));
	CHECK_RET("vraid_geom_check", rc, 0, -EINVAL, -EOPNOTSUPP);
	check_msg("vraid_geom_check", rc, msg);
	if (!rc && !(level == VRAID_LEVEL_0 && nr >= 2 && nr <= 32) &&
	    !(level == VRAID_LEVEL_JBOD && nr == 1))
		die("vraid_geom_check accepted level %u with %u members",
		    level, nr);
	if (!rc && spans)
		die("vraid_geom_check accepted spans %u for level %u", spans,
		    level);

	memset(msg, 'X', sizeof(msg));
	memset(&g, 0x5a, sizeof(g));
	ri = vraid_geom_init(&g, level, nr, strip_bytes, spans, min_data, msg,
			     sizeof(msg));
	check_msg("vraid_geom_init", ri, msg);
	if (rc && ri != rc)
		die("vraid_geom_check says %d, vraid_geom_init %d", rc, ri);
	if (rc)
		return;

	/* accepted by the check: init fails only for lack of space */
	if (level == VRAID_LEVEL_JBOD) {
		strip = 0;
		want = min_data / 8 * 8;
	} else {
		strip = (strip_bytes ? strip_bytes : VRAID_STRIP_DEFAULT) / 512;
		want = min_data / strip * strip;
	}
	/* ... or for a VD whose size in bytes would not fit a loff_t */
	if (want > ((1ULL << 54) - 1) / (level == VRAID_LEVEL_JBOD ? 1 : nr)) {
		if (ri != -EFBIG)
			die("vraid_geom_init: %d for a VD over 2^63 bytes", ri);
		return;
	}
	if ((want < VRAID_MIN_DATA_SECTORS) != (ri == -ENOSPC) ||
	    (ri && ri != -ENOSPC))
		die("vraid_geom_init: %d for members of %llu sectors (%llu usable)",
		    ri, (unsigned long long)min_data,
		    (unsigned long long)want);
	if (ri)
		return;

	if (g.level != level || g.nr_members != nr || g.spans != 1 ||
	    g.data_members != nr || g.strip_sectors != strip ||
	    g.member_sectors != want || g.size_sectors / nr != want ||
	    g.size_sectors % nr)
		die("vraid_geom_init: level %u nr %u spans %u data %u strip %u member %llu size %llu",
		    g.level, g.nr_members, g.spans, g.data_members,
		    g.strip_sectors, (unsigned long long)g.member_sectors,
		    (unsigned long long)g.size_sectors);
	if (strip && (1ull << g.strip_shift) != strip)
		die("strip_shift %u for strip %llu", g.strip_shift,
		    (unsigned long long)strip);

	check_map(&g, 0);
	check_map(&g, g.size_sectors - 1);
	for (i = 0; i < 3; i++)
		check_map(&g, t->probe[i] % g.size_sectors);
}

/* ---- requests ------------------------------------------------------------ */

static bool digits(const char *p)
{
	if (!*p)
		return false;
	for (; *p; p++)
		if (*p < '0' || *p > '9')
			return false;
	return true;
}

/* the label rule of uapi/linux/vraid.h, written out again */
static bool name_ok(const char *name, size_t len)
{
	size_t i;

	if (!memchr(name, '\0', len))
		return false;
	if (name[0] == '-' || digits(name) ||
	    (!strncmp(name, "vraid", 5) && digits(name + 5)))
		return false;
	for (i = 0; name[i]; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-",
			    name[i]))
			return false;
	return true;
}

static bool all_zero(const u8 *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (p[i])
			return false;
	return true;
}

static void fuzz_request(u32 nr, const void *req, u32 len)
{
	char *msg = malloc(VRAID_MSG_LEN);
	int ret;

	if (!msg)
		abort();
	memset(msg, 'X', VRAID_MSG_LEN);
	ret = vraid_validate_hdr(req, nr, msg, VRAID_MSG_LEN);
	check_msg("vraid_validate_hdr", ret, msg);
	CHECK_RET("vraid_validate_hdr", ret, 0, -EINVAL, -EPROTO);
	if (len != vraid_cmd_min_size(nr))
		die("size of command %u", nr);

	memset(msg, 'X', VRAID_MSG_LEN);
	switch (nr) {
	case 0: {
		const struct vraid_create *c = req;

		if (vraid_name_valid(c->name, sizeof(c->name)) !=
		    name_ok(c->name, sizeof(c->name)))
			die("vraid_name_valid(\"%.*s\") disagrees with the uapi rule",
			    (int)sizeof(c->name), c->name);
		ret = vraid_validate_create(c, msg, VRAID_MSG_LEN);
		CHECK_RET("vraid_validate_create", ret, 0, -EINVAL, -EFBIG,
			  -EOPNOTSUPP);
		if (!ret) {
			u32 i;

			if (c->nr_members < 1 ||
			    c->nr_members > VRAID_MAX_MEMBERS)
				die("create: accepted %u members",
				    c->nr_members);
			if (!name_ok(c->name, sizeof(c->name)) ||
			    c->init > VRAID_INIT_FULL)
				die("create: accepted a bad name or init %u",
				    c->init);
			for (i = c->nr_members; i < VRAID_MAX_MEMBERS; i++)
				if (c->members[i].major || c->members[i].minor)
					die("create: accepted stray slot %u", i);
		}
		break;
	}
	case 1:
		ret = vraid_validate_delete(req, msg, VRAID_MSG_LEN);
		CHECK_RET("vraid_validate_delete", ret, 0, -EINVAL, -ENOENT);
		if (!ret && ((const struct vraid_delete *)req)->index >=
			    VRAID_MAX_VDS)
			die("delete: accepted an index out of range");
		break;
	case 2:
		ret = vraid_validate_list(req, msg, VRAID_MSG_LEN);
		CHECK_RET("vraid_validate_list", ret, 0, -EINVAL);
		break;
	case 3:
		ret = vraid_validate_info(req, msg, VRAID_MSG_LEN);
		CHECK_RET("vraid_validate_info", ret, 0, -EINVAL, -ENOENT);
		if (!ret && ((const struct vraid_info *)req)->index >=
			    VRAID_MAX_VDS)
			die("info: accepted an index out of range");
		break;
	case 0x0c:
		ret = vraid_validate_events(req, msg, VRAID_MSG_LEN);
		CHECK_RET("vraid_validate_events", ret, 0, -EINVAL);
		break;
	case 0x0b: {
		const struct vraid_assemble *a = req;

		ret = vraid_validate_assemble(a, msg, VRAID_MSG_LEN);
		CHECK_RET("vraid_validate_assemble", ret, 0, -EINVAL);
		if (!ret && (!a->nr_devices ||
			     a->nr_devices > VRAID_MAX_MEMBERS))
			die("assemble: accepted %u devices", a->nr_devices);
		/* NO_JOURNAL (ABI 1.9) and FORCE (ABI 1.12) only */
		if (!ret && (a->asm_flags &
			     ~(VRAID_ASM_NO_JOURNAL | VRAID_ASM_FORCE)))
			die("assemble: accepted flags 0x%x", a->asm_flags);
		/* the replay's counts (ABI 1.10) are out: any value */
		if (!ret && (a->reserved1 || a->reserved3 ||
			     a->reserved2[0] || a->reserved2[1]))
			die("assemble: accepted reserved fields not zero");
		break;
	}
	case 4: {
		const struct vraid_set_policy *p = req;
		bool good;

		ret = vraid_validate_set_policy(p, msg, VRAID_MSG_LEN);
		/* (no EOPNOTSUPP since ABI 1.8: every known value is taken) */
		CHECK_RET("vraid_validate_set_policy", ret, 0, -EINVAL,
			  -ENOENT);
		/*
		 * Accepted exactly when: a known mask, known values (always
		 * write-back too), zero outside the mask, reserved fields
		 * zero and an index in range.
		 */
		good = p->set_mask && p->set_mask <= 0x1f &&
		       p->index < VRAID_MAX_VDS && !p->reserved1 &&
		       p->access_policy <= VRAID_ACCESS_BLOCKED &&
		       p->disk_cache_policy <= VRAID_DCACHE_DISABLED &&
		       p->io_policy <= VRAID_IO_CACHED &&
		       p->read_policy <= VRAID_READ_AHEAD &&
		       p->write_policy <= VRAID_WRITE_BACK_ALWAYS &&
		       ((p->set_mask & VRAID_SET_ACCESS) || !p->access_policy) &&
		       ((p->set_mask & VRAID_SET_DISK_CACHE) ||
			!p->disk_cache_policy) &&
		       ((p->set_mask & VRAID_SET_IO) || !p->io_policy) &&
		       ((p->set_mask & VRAID_SET_READ) || !p->read_policy) &&
		       ((p->set_mask & VRAID_SET_WRITE) || !p->write_policy);
		good = good && all_zero((const u8 *)p->reserved2,
					sizeof(p->reserved2));
		if (!ret != good)
			die("set_policy: %s mask 0x%x policies %u %u %u %u %u index %u",
			    ret ? "refused" : "accepted", p->set_mask,
			    p->access_policy, p->disk_cache_policy,
			    p->io_policy, p->read_policy, p->write_policy,
			    p->index);
		break;
	}
	case 6: {
		const struct vraid_spare *sp = req;

		ret = vraid_validate_spare(sp, msg, VRAID_MSG_LEN);
		CHECK_RET("vraid_validate_spare", ret, 0, -EINVAL, -ENOENT);
		if (!ret && (sp->action < VRAID_SPARE_ADD ||
			     sp->action > VRAID_SPARE_LIST ||
			     sp->index >= VRAID_MAX_VDS))
			die("spare: accepted action %u index %u", sp->action,
			    sp->index);
		break;
	}
	case 7: {
		const struct vraid_replace *r = req;

		ret = vraid_validate_replace(r, msg, VRAID_MSG_LEN);
		CHECK_RET("vraid_validate_replace", ret, 0, -EINVAL, -ENOENT);
		if (!ret && r->old_major == r->new_major &&
		    r->old_minor == r->new_minor)
			die("replace: accepted the same device twice");
		break;
	}
	case 8: {
		const struct vraid_job *j = req;

		ret = vraid_validate_job(j, msg, VRAID_MSG_LEN);
		CHECK_RET("vraid_validate_job", ret, 0, -EINVAL, -ENOENT);
		if (!ret && (j->action < VRAID_JOB_START_CHECK ||
			     j->action > VRAID_JOB_SET_RATE ||
			     j->rate_kib > VRAID_JOB_RATE_MAX))
			die("job: accepted action %u rate %u", j->action,
			    j->rate_kib);
		break;
	}
	case 9: {
		const struct vraid_controller *c = req;
		size_t out = offsetof(struct vraid_controller,
				      cache_default_bytes);

		ret = vraid_validate_controller(c, msg, VRAID_MSG_LEN);
		/* the size's bounds (RAM) are the handler's, not checked */
		CHECK_RET("vraid_validate_controller", ret, 0, -EINVAL);
		if (ret)
			break;
		/* ABI 1.9: FORCE, with JOURNAL_ATTACH only */
		if ((c->ctrl_flags & ~VRAID_CTRL_FORCE) ||
		    (c->ctrl_flags && c->action != VRAID_CTRL_JOURNAL_ATTACH) ||
		    c->action > VRAID_CTRL_JOURNAL_DISCARD)
			die("controller: accepted flags 0x%x action %u",
			    c->ctrl_flags, c->action);
		if (!all_zero((const u8 *)c + out, sizeof(*c) - out))
			die("controller: accepted out or reserved fields set");
		if (c->action != VRAID_CTRL_SET_CACHE_SIZE && c->cache_bytes)
			die("controller: action %u accepted a cache size",
			    c->action);
		if (c->action == VRAID_CTRL_JOURNAL_ATTACH ?
		    (c->major == 0 && c->minor == 0) || c->major >= 4096 ||
		    c->minor >= (1U << 20) : c->major || c->minor)
			die("controller: action %u accepted device %u:%u",
			    c->action, c->major, c->minor);
		break;
	}
	case 5: {
		const struct vraid_fail_member *f = req;

		ret = vraid_validate_fail_member(f, msg, VRAID_MSG_LEN);
		CHECK_RET("vraid_validate_fail_member", ret, 0, -EINVAL,
			  -ENOENT);
		if (!ret && (f->index >= VRAID_MAX_VDS ||
			     (f->fail_flags & ~VRAID_FAIL_FORCE)))
			die("fail_member: accepted a bad index or flags");
		break;
	}
	}
	check_msg("validator", ret, msg);
	free(msg);
}

/*
 * Metadata decode: never crashes, refuses with a message, and a block it
 * accepts encodes back to exactly the same bytes.
 */
static void fuzz_metadata(const u8 *data, size_t size)
{
	u8 *blk = calloc(1, VRAID_MD_BLOCK), *again = malloc(VRAID_MD_BLOCK);
	char *msg = malloc(VRAID_MSG_LEN);
	struct vraid_md md;
	int ret;

	if (!blk || !again || !msg)
		abort();
	memcpy(blk, data, size < VRAID_MD_BLOCK ? size : VRAID_MD_BLOCK);
	/* Half the time, make the checksum right to get past it. */
	if (size && (data[0] & 1)) {
		u32 crc;

		memset(blk + 12, 0, 4);
		crc = vraid_crc32c(0, blk, VRAID_MD_BLOCK);
		memcpy(blk + 12, &crc, 4);
	}
	memset(msg, 'X', VRAID_MSG_LEN);
	memset(&md, 0, sizeof(md));	/* padding too: compared below */
	ret = vraid_md_decode(blk, &md, msg, VRAID_MSG_LEN);
	CHECK_RET("vraid_md_decode", ret, 0, -ENODATA, -EINVAL,
		  -EPROTONOSUPPORT);
	check_msg("vraid_md_decode", ret, msg);
	if (!ret && md.version == VRAID_MD_VERSION) {
		vraid_md_encode(&md, again);
		if (memcmp(blk, again, VRAID_MD_BLOCK))
			die("metadata: decode+encode changed an accepted block");
	} else if (!ret) {
		/* an older version is written as the current one, same fields */
		struct vraid_md md2;

		vraid_md_encode(&md, again);
		memset(&md2, 0, sizeof(md2));
		if (vraid_md_decode(again, &md2, msg, VRAID_MSG_LEN))
			die("metadata: an older block re-encoded does not decode");
		md2.version = md.version;
		if (memcmp(&md, &md2, sizeof(md)))
			die("metadata: an older block re-encoded changed its fields");
	}
	free(blk);
	free(again);
	free(msg);
}

/*
 * Write-intent bitmap decode: never crashes, refuses with a message, and
 * a bitmap it accepts encodes back to the same bytes.
 */
static void fuzz_bitmap(const u8 *data, size_t size)
{
	u8 *blk = calloc(1, VRAID_BM_BYTES), *again = malloc(VRAID_BM_BYTES);
	char *msg = malloc(VRAID_MSG_LEN);
	u32 shift, nbits, crc;
	int ret;

	if (!blk || !again || !msg)
		abort();
	memcpy(blk, data, size < VRAID_BM_BYTES ? size : VRAID_BM_BYTES);
	if (size && (data[0] & 1)) {
		memset(blk + 8, 0, 4);
		crc = vraid_crc32c(0, blk, VRAID_BM_BYTES);
		memcpy(blk + 8, &crc, 4);
	}
	memset(msg, 'X', VRAID_MSG_LEN);
	ret = vraid_bm_decode(blk, NULL, &shift, &nbits, msg, VRAID_MSG_LEN);
	CHECK_RET("vraid_bm_decode", ret, 0, -ENODATA, -EINVAL);
	check_msg("vraid_bm_decode", ret, msg);
	if (!ret) {
		vraid_bm_encode(blk + 24, shift, nbits, blk + 4096, again);
		if (memcmp(blk, again, VRAID_BM_BYTES))
			die("bitmap: decode+encode changed an accepted bitmap");
	}
	free(blk);
	free(again);
	free(msg);
}

static u32 get_u32(const u8 *p)
{
	u32 v;

	memcpy(&v, p, sizeof(v));
	return v;
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	static const u32 levels[] = {
		VRAID_LEVEL_0, VRAID_LEVEL_JBOD, VRAID_LEVEL_0,
		VRAID_LEVEL_JBOD, VRAID_LEVEL_1, VRAID_LEVEL_5, VRAID_LEVEL_50,
		7,
	};
	/* the geometry fields of struct vraid_create, from the raw bytes */
	u8 geo[offsetof(struct vraid_create, name)];
	struct fuzz_tail tail;
	u32 nr = 0, len, level, members, strip, spans;
	void *req;

	memcpy(&nr, data, size < 4 ? size : 4);
	data += size < 4 ? size : 4;
	size -= size < 4 ? size : 4;
#ifdef FUZZ_DECODE
	/* fuzz_decode: only the on-disk formats, half and half */
	if ((nr & 0x700) == 0x600)
		fuzz_bitmap(data, size);
	else
		fuzz_metadata(data, size);
	return 0;
#endif
	/* One input in eight is a metadata block instead of a request. */
	if ((nr & 0x700) == 0x700) {
		fuzz_metadata(data, size);
		return 0;
	}
	if ((nr & 0x700) == 0x600) {
		fuzz_bitmap(data, size);
		return 0;
	}
	nr %= NR_CMDS;
	if (nr == 10)
		nr = 0x0b;
	else if (nr == 11)
		nr = 0x0c;

	len = vraid_cmd_min_size(nr);
	if (!len)
		len = sizeof(struct vraid_ioc_hdr);
	req = calloc(1, len);	/* exactly the struct: ASan sees overreads */
	if (!req)
		abort();
	memcpy(req, data, size < len ? size : len);
	fuzz_request(nr, req, len);
	free(req);

	memset(geo, 0, sizeof(geo));
	memcpy(geo, data, size < sizeof(geo) ? size : sizeof(geo));
	memset(&tail, 0, sizeof(tail));
	if (size > len)
		memcpy(&tail, data + len,
		       size - len < sizeof(tail) ? size - len : sizeof(tail));

	level = get_u32(geo + offsetof(struct vraid_create, level));
	strip = get_u32(geo + offsetof(struct vraid_create, strip_bytes));
	members = get_u32(geo + offsetof(struct vraid_create, nr_members));
	spans = get_u32(geo + offsetof(struct vraid_create, spans));

	/* as they are */
	fuzz_geom(level, members, strip, spans, &tail);

	/* coerced into mostly valid ranges */
	level = levels[level % 8];
	members = level == VRAID_LEVEL_JBOD && !(members & 0x100) ? 1 :
		  members % 34;
	strip = strip & 0x100 ? strip : (strip % 12) ? 1024u << (strip % 12) : 0;
	spans = spans & 0x100 ? spans : 0;
	tail.min_data %= 1ull << ((tail.probe[0] % 56) + 1);
	fuzz_geom(level, members, strip, spans, &tail);
	return 0;
}
