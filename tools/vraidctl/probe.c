// SPDX-License-Identifier: GPL-2.0
/*
 * vraidctl: what a device holds before a command overwrites it, and what --scan finds.
 */
#include "vraidctl.h"

/*
 * A copy with vraid's magic (a member's or a hot spare's) that does not
 * decode (not absent, not unread).
 */
static bool copy_bad(const struct md_copy *c)
{
	return (c->status && c->status != -ENODATA && c->status != -EIO) ||
	       (c->sp_status && c->sp_status != -ENODATA &&
		c->sp_status != -EIO);
}

/*
 * The kind, from both metadata copies @c and, when copy A is not valid,
 * the journal's slots @js.  Copy A and journal slot 0 share byte 4096: a
 * valid copy A makes a member whatever an old slot 1 says, else the
 * journal magic in either slot makes a journal, whose ring may hold an
 * old copy B (or data that looks like one) at byte 1 MiB: never a member.
 */
static int vraid_kind(const struct md_copy *c, const struct jsb_slots *js)
{
	if (!c[0].status)
		return PROBE_MEMBER;
	if (!c[0].sp_status)
		return PROBE_SPARE;
	if (js->pick >= 0)
		return PROBE_JOURNAL;
	if (jsb_magic(js))
		return PROBE_BAD_JOURNAL;
	if (!c[1].status)
		return PROBE_MEMBER;
	if (!c[1].sp_status)
		return PROBE_SPARE;
	if (copy_bad(&c[0]) || copy_bad(&c[1]))
		return PROBE_BAD_MEMBER;
	return PROBE_NONE;
}

/*
 * Which copy of @c holds the hot spare record vraid_kind() went by: copy
 * A decides as for a member (a spare taken over gets the member's copy A
 * first; a device made a spare gets the record's copy A first).
 */
int spare_copy(const struct md_copy *c)
{
	return c[0].sp_status ? 1 : 0;
}

/*
 * Probe @path: vraid metadata (the newest valid copy into @md) or a
 * journal superblock (the one the module would take into @sb), as
 * vraid_kind() tells them apart.
 */
int scan_probe(const char *path, struct vraid_md *md, struct vraid_sprec *sp,
		      struct vraid_jsb *sb)
{
	struct md_copy copies[2] = {
		{ .label = "A", .sector = VRAID_MD_COPY_A },
		{ .label = "B", .sector = VRAID_MD_COPY_B },
	};
	struct jsb_slots js;
	bool found = false;
	int fd, i, kind = PROBE_NONE;

	fd = open(path, O_RDONLY | O_DIRECT | O_CLOEXEC);
	if (fd < 0 && errno == EINVAL)
		fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return PROBE_NONE;
	for (i = 0; i < 2; i++) {
		read_copy(fd, path, &copies[i]);
		if (!copies[i].status &&
		    (!found || copies[i].md.generation > md->generation)) {
			*md = copies[i].md;
			found = true;
		}
	}
	if (copies[0].status)
		jsb_read(fd, path, &js);
	kind = vraid_kind(copies, &js);
	if (kind == PROBE_JOURNAL)
		*sb = js.sb[js.pick];
	else if (kind == PROBE_SPARE)
		*sp = copies[spare_copy(copies)].sp;
	else if (kind == PROBE_BAD_MEMBER || (kind == PROBE_MEMBER && !found))
		kind = PROBE_NONE;	/* no valid copy: nothing to assemble */
	close(fd);
	return kind;
}

/* Whether /sys/class/block/@name has holders (dm, md): use those instead. */
/*
 * Whether block device @name has holders (dm, md, a VD), other than VDs
 * with @but_vds.
 */
bool has_holders_but(const char *name, bool but_vds)
{
	char path[256];
	struct dirent *de;
	bool any = false;
	DIR *d;

	snprintf(path, sizeof(path), "/sys/class/block/%s/holders", name);
	d = opendir(path);
	if (!d)
		return false;
	while (!any && (de = readdir(d)))
		any = de->d_name[0] != '.' &&
		      !(but_vds && !strncmp(de->d_name, VRAID_DISK_PREFIX,
					    strlen(VRAID_DISK_PREFIX)));
	closedir(d);
	return any;
}

bool has_holders(const char *name)
{
	return has_holders_but(name, false);
}

/* ---- what a device holds, before a command overwrites it ----------------- */

/*
 * create, controller journal DEV, replace, spare add and wipe look at a
 * device before they write to it: vraid's own metadata (decoded by the
 * module's portable core, as examine does: vraid_kind()), what the module
 * uses it for now (a member of a running VD, the journal, a hot spare:
 * LIST, INFO, SPARE LIST and CONTROLLER replies), and the signatures of
 * other formats (the table below).  Reads only, O_DIRECT where the device
 * takes it (the module writes around the page cache), O_EXCL on a block
 * device to learn whether another opener holds it (mounted, md, dm, the
 * module): the open is closed again before any request is sent.
 */

#define PROBE_HEAD	(128U << 10)	/* bytes read at the start of a device */
#define PROBE_TAIL	(128U << 10)	/* and at its end */

/* What was read of a device: its first and last PROBE_* bytes. */
struct probe_buf {
	const uint8_t *head, *tail;
	size_t nhead, ntail;		/* bytes read */
	uint64_t tail_off;		/* device offset of tail[0] */
	uint64_t size;			/* device size in bytes */
};

/* Bytes [@off, @off + @len) of the device if they were read, else NULL. */
static const uint8_t *pb_at(const struct probe_buf *b, uint64_t off,
			    size_t len)
{
	if (off + len <= b->nhead)
		return b->head + off;
	if (b->ntail && off >= b->tail_off &&
	    off + len <= b->tail_off + b->ntail)
		return b->tail + (off - b->tail_off);
	return NULL;
}

static uint16_t rd_le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t rd_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static uint32_t rd_be32(const uint8_t *p)
{
	return (uint32_t)p[3] | (uint32_t)p[2] << 8 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[0] << 24;
}

static uint64_t rd_le64(const uint8_t *p)
{
	return (uint64_t)rd_le32(p) | (uint64_t)rd_le32(p + 4) << 32;
}

/* The label at @p (at most @n bytes, NUL-padded or blank-padded). */
static void sig_label(struct sig_hit *h, const char *kind, const uint8_t *p,
		      size_t n)
{
	size_t l = strnlen((const char *)p, n);

	while (l && p[l - 1] == ' ')
		l--;
	h->lkind = kind;
	tty_str(h->label, sizeof(h->label), (const char *)p, l);
}

static bool sig_gpt(const struct probe_buf *b, int arg, struct sig_hit *h)
{
	static const unsigned int lbs[] = { 512, 4096 };
	const uint8_t *p, *e;
	uint32_t n, esz, i, j, used;
	uint64_t at;
	size_t k;

	(void)arg;
	for (k = 0; k < ARRAY_SIZE(lbs); k++) {
		p = pb_at(b, lbs[k], 92);
		if (!p || memcmp(p, "EFI PART", 8))
			continue;
		h->what = "a GPT partition table";
		h->offset = lbs[k];
		n = rd_le32(p + 80);
		esz = rd_le32(p + 84);
		at = rd_le64(p + 72) * lbs[k];
		if (esz < 128 || esz > 4096 || n > 1024)
			return true;
		for (i = used = 0; i < n; i++) {
			e = pb_at(b, at + (uint64_t)i * esz, 16);
			if (!e)
				break;
			for (j = 0; j < 16 && !e[j]; j++)
				;
			used += j < 16;
		}
		snprintf(h->detail, sizeof(h->detail), "%u partition%s", used,
			 used == 1 ? "" : "s");
		return true;
	}
	for (k = 0; k < ARRAY_SIZE(lbs); k++) {
		if (b->size < 2 * lbs[k])
			continue;
		p = pb_at(b, b->size - lbs[k], 8);
		if (p && !memcmp(p, "EFI PART", 8)) {
			h->what = "a GPT partition table";
			h->offset = b->size - lbs[k];
			snprintf(h->detail, sizeof(h->detail),
				 "its backup header, at the end");
			return true;
		}
	}
	return false;
}

/* A FAT boot sector at @p (512 bytes): the label's offset, else 0. */
static size_t fat_label_at(const uint8_t *p)
{
	if (p[510] != 0x55 || p[511] != 0xAA || (p[0] != 0xEB && p[0] != 0xE9))
		return 0;
	if (!memcmp(p + 82, "FAT32   ", 8))
		return 71;
	if (!memcmp(p + 54, "FAT", 3))
		return 43;
	return 0;
}

static bool sig_mbr(const struct probe_buf *b, int arg, struct sig_hit *h)
{
	const uint8_t *p = pb_at(b, 0, 512), *e, *g;
	unsigned int i, used = 0;
	bool protective = false;

	(void)arg;
	if (!p || p[510] != 0x55 || p[511] != 0xAA ||
	    !memcmp(p + 3, "NTFS    ", 8) || fat_label_at(p))
		return false;	/* a file system's boot sector: its own entry */
	for (i = 0; i < 4; i++) {
		e = p + 446 + 16 * i;
		if (e[0] != 0 && e[0] != 0x80)
			return false;
		if (e[4]) {
			used++;
			protective |= e[4] == 0xEE;
		}
	}
	if (!used)
		return false;
	g = pb_at(b, 512, 8);
	if (protective && g && !memcmp(g, "EFI PART", 8))
		return false;	/* the GPT's entry says it */
	h->what = protective ? "a protective MBR (of a GPT partition table)" :
		  "an MBR (DOS) partition table";
	if (!protective)
		snprintf(h->detail, sizeof(h->detail), "%u partition%s", used,
			 used == 1 ? "" : "s");
	h->offset = 510;
	return true;
}

static bool sig_ext(const struct probe_buf *b, int arg, struct sig_hit *h)
{
	const uint8_t *p = pb_at(b, 1024, 256);
	uint32_t compat, incompat, ro;

	(void)arg;
	if (!p || rd_le16(p + 56) != 0xEF53)
		return false;
	compat = rd_le32(p + 92);
	incompat = rd_le32(p + 96);
	ro = rd_le32(p + 100);
	if (incompat & 0x8)		/* JOURNAL_DEV */
		h->what = "an ext3/ext4 external journal";
	/* beyond ext3's FILETYPE, RECOVER, META_BG; SPARSE_SUPER, LARGE_FILE, BTREE_DIR */
	else if ((incompat & ~0x16U) || (ro & ~0x7U))
		h->what = "an ext4 file system";
	else if (compat & 0x4)		/* HAS_JOURNAL */
		h->what = "an ext3 file system";
	else
		h->what = "an ext2 file system";
	sig_label(h, "label", p + 120, 16);
	h->offset = 1080;
	return true;
}

static bool sig_xfs(const struct probe_buf *b, int arg, struct sig_hit *h)
{
	const uint8_t *p = pb_at(b, 0, 120);

	(void)arg;
	if (!p || memcmp(p, "XFSB", 4))
		return false;
	h->what = "an XFS file system";
	sig_label(h, "label", p + 108, 12);
	return true;
}

static bool sig_btrfs(const struct probe_buf *b, int arg, struct sig_hit *h)
{
	const uint8_t *p = pb_at(b, 65536, 299 + 256);

	(void)arg;
	if (!p || memcmp(p + 64, "_BHRfS_M", 8))
		return false;
	h->what = "a Btrfs file system";
	sig_label(h, "label", p + 299, 256);
	h->offset = 65536 + 64;
	return true;
}

static bool sig_swap(const struct probe_buf *b, int arg, struct sig_hit *h)
{
	static const unsigned int pages[] = { 4096, 8192, 16384, 65536 };
	const uint8_t *p, *l;
	size_t k;

	(void)arg;
	for (k = 0; k < ARRAY_SIZE(pages); k++) {
		p = pb_at(b, pages[k] - 10, 10);
		if (!p || (memcmp(p, "SWAPSPACE2", 10) &&
			   memcmp(p, "SWAP-SPACE", 10)))
			continue;
		h->what = "a swap area";
		l = pb_at(b, 1024 + 28, 16);
		if (l && !memcmp(p, "SWAPSPACE2", 10))
			sig_label(h, "label", l, 16);
		h->offset = pages[k] - 10;
		return true;
	}
	return false;
}

static bool sig_lvm(const struct probe_buf *b, int arg, struct sig_hit *h)
{
	const uint8_t *p;
	unsigned int s;

	(void)arg;
	for (s = 0; s < 4; s++) {
		p = pb_at(b, s * 512, 32);
		if (p && !memcmp(p, "LABELONE", 8) && !memcmp(p + 24, "LVM2 001", 8)) {
			h->what = "an LVM2 physical volume";
			h->offset = s * 512;
			return true;
		}
	}
	return false;
}

static bool sig_luks(const struct probe_buf *b, int arg, struct sig_hit *h)
{
	const uint8_t *p = pb_at(b, 0, 72);

	(void)arg;
	if (!p || memcmp(p, "LUKS\xba\xbe", 6))
		return false;
	if (p[6] == 0 && p[7] == 2) {
		h->what = "a LUKS2 encrypted volume";
		sig_label(h, "label", p + 24, 48);
	} else {
		h->what = "a LUKS encrypted volume";
	}
	return true;
}

#define MD_SB_MAGIC	0xa92b4efcU

/* Linux md's superblock, @arg: 0 (0.90, near the end), 10 (1.0, at the
 * end), 11 (1.1, at the start), 12 (1.2, at 4 KiB). */
static bool sig_md(const struct probe_buf *b, int arg, struct sig_hit *h)
{
	const uint8_t *p;
	uint64_t off;

	switch (arg) {
	case 0:
		if (b->size < (128U << 10))
			return false;
		off = (b->size & ~65535ULL) - 65536;
		break;
	case 10:
		if (b->size < (16U << 10))
			return false;
		off = (((b->size >> 9) - 16) & ~7ULL) << 9;
		break;
	case 11:
		off = 0;
		break;
	default:
		off = 4096;
		break;
	}
	p = pb_at(b, off, 256);
	if (!p)
		return false;
	h->what = "an md RAID superblock";
	h->offset = off;
	if (arg == 0) {
		if ((rd_le32(p) != MD_SB_MAGIC || rd_le32(p + 4)) &&
		    (rd_be32(p) != MD_SB_MAGIC || rd_be32(p + 4)))
			return false;
		snprintf(h->detail, sizeof(h->detail), "metadata 0.90");
		return true;
	}
	/* 1.x: major version 1, super_offset (bytes 128-135) says where */
	if (rd_le32(p) != MD_SB_MAGIC || rd_le32(p + 4) != 1 ||
	    rd_le64(p + 128) != off >> 9)
		return false;
	snprintf(h->detail, sizeof(h->detail), "metadata 1.%d", arg - 10);
	sig_label(h, "name", p + 32, 32);
	return true;
}

static bool sig_fat(const struct probe_buf *b, int arg, struct sig_hit *h)
{
	const uint8_t *p = pb_at(b, 0, 512);
	size_t l;

	(void)arg;
	if (!p || !(l = fat_label_at(p)))
		return false;
	h->what = "a FAT file system";
	if (memcmp(p + l, "NO NAME    ", 11))
		sig_label(h, "label", p + l, 11);
	return true;
}

static bool sig_ntfs(const struct probe_buf *b, int arg, struct sig_hit *h)
{
	const uint8_t *p = pb_at(b, 0, 512);

	(void)arg;
	if (!p || memcmp(p + 3, "NTFS    ", 8) || p[510] != 0x55 || p[511] != 0xAA)
		return false;
	h->what = "an NTFS file system";
	h->offset = 3;
	return true;
}

/*
 * The formats other than vraid's that a device is looked for, in the
 * order they are reported.  Each finds at most one instance; add a
 * format here (and keep PROBE_HEAD and PROBE_TAIL large enough for it).
 */
static const struct signature {
	bool (*probe)(const struct probe_buf *b, int arg, struct sig_hit *h);
	int arg;
} signatures[] = {
	{ sig_gpt, 0 }, { sig_mbr, 0 },
	{ sig_ext, 0 }, { sig_xfs, 0 }, { sig_btrfs, 0 }, { sig_fat, 0 },
	{ sig_ntfs, 0 }, { sig_swap, 0 }, { sig_lvm, 0 }, { sig_luks, 0 },
	{ sig_md, 11 }, { sig_md, 12 }, { sig_md, 10 }, { sig_md, 0 },
};
_Static_assert(ARRAY_SIZE(signatures) == NR_SIGNATURES,
	       "NR_SIGNATURES in vraidctl.h counts signatures[]");

/* What the module uses a device for now. */
enum { LIVE_NONE, LIVE_MEMBER, LIVE_JOURNAL, LIVE_SPARE };

/* The newest valid metadata copy of @p (PROBE_MEMBER). */
static const struct vraid_md *probe_md(const struct devprobe *p)
{
	return &p->copies[p->best].md;
}

/* One aligned read at @off; bytes read, 0 on error. */
static size_t probe_pread(int fd, void *buf, size_t len, uint64_t off)
{
	ssize_t n = pread(fd, buf, len, (off_t)off);

	return n > 0 ? (size_t)n : 0;
}

/*
 * Read what @p->path holds (its stat() said block device or file,
 * @p->blk): vraid's format, vraid's bitmap, other signatures.
 */
static void probe_read(struct devprobe *p)
{
	int fl = O_RDONLY | O_CLOEXEC | (p->blk ? O_EXCL : 0);
	uint8_t *head = NULL, *tail = NULL, *bm = NULL;
	struct probe_buf b;
	struct sig_hit h;
	off_t end;
	size_t k;
	int fd, i;

	p->best = 0;
	p->copies[0].label = "A";
	p->copies[0].sector = VRAID_MD_COPY_A;
	p->copies[1].label = "B";
	p->copies[1].sector = VRAID_MD_COPY_B;
	fd = open(p->path, fl | O_DIRECT);
	if (fd < 0 && errno == EINVAL)
		fd = open(p->path, fl);
	if (fd < 0 && errno == EBUSY && p->blk) {
		/* held: see what it holds all the same */
		p->busy = true;
		fl &= ~O_EXCL;
		fd = open(p->path, fl | O_DIRECT);
		if (fd < 0 && errno == EINVAL)
			fd = open(p->path, fl);
	}
	if (fd < 0) {
		p->err = errno;
		return;
	}
	end = lseek(fd, 0, SEEK_END);
	p->bytes = end > 0 ? (uint64_t)end : 0;
	for (i = 0; i < 2; i++) {
		read_copy(fd, p->path, &p->copies[i]);
		if (!p->copies[i].status &&
		    (p->copies[p->best].status ||
		     p->copies[i].md.generation > p->copies[p->best].md.generation))
			p->best = i;
	}
	jsb_read(fd, p->path, &p->js);
	p->kind = vraid_kind(p->copies, &p->js);

	memset(&b, 0, sizeof(b));
	b.size = p->bytes;
	if (!posix_memalign((void **)&head, 4096, PROBE_HEAD) &&
	    !posix_memalign((void **)&tail, 4096, PROBE_TAIL) &&
	    !posix_memalign((void **)&bm, 4096, 4096)) {
		b.head = head;
		b.nhead = probe_pread(fd, head, PROBE_HEAD, 0);
		if (p->bytes > PROBE_HEAD) {
			b.tail = tail;
			b.tail_off = p->bytes > PROBE_TAIL ?
				     (p->bytes - PROBE_TAIL) & ~4095ULL : 0;
			b.ntail = probe_pread(fd, tail, PROBE_TAIL, b.tail_off);
		}
		p->bitmap = probe_pread(fd, bm, 4096, VRAID_BM_SECTOR * 512) == 4096 &&
			    rd_le32(bm) == VRAID_BM_MAGIC;
		for (k = 0; k < ARRAY_SIZE(signatures); k++) {
			memset(&h, 0, sizeof(h));
			if (signatures[k].probe(&b, signatures[k].arg, &h))
				p->hits[p->nhits++] = h;
		}
	}
	free(head);
	free(tail);
	free(bm);
	close(fd);
}

/*
 * stat() @path and read it: a block device, or with @files a regular file
 * too (wipe of an image).  Returns RC_OK, or RC_FAIL after saying why.
 */
int probe_dev(struct devprobe *p, const char *path, bool files)
{
	struct vraid_member_ref ref;
	struct stat st;

	memset(p, 0, sizeof(*p));
	p->path = path;
	if (files && !stat(path, &st) && S_ISREG(st.st_mode)) {
		probe_read(p);
		return RC_OK;
	}
	if (member_ref(path, &ref))
		return RC_FAIL;
	p->blk = true;
	p->major = ref.major;
	p->minor = ref.minor;
	probe_read(p);
	return RC_OK;
}

/* Ask the module, without a word if it does not answer. */
void live_load(struct live *l)
{
	struct vraid_list lst;
	struct vraid_info in;
	struct ctl c;
	uint32_t i;

	memset(l, 0, sizeof(*l));
	ctl_path(&c);
	c.deadline = 0;
	c.fd = open(c.path, O_RDWR | O_CLOEXEC);
	if (c.fd < 0 && (errno == EACCES || errno == EROFS))
		c.fd = open(c.path, O_RDONLY | O_CLOEXEC);
	if (c.fd < 0)
		return;
	memset(&lst, 0, sizeof(lst));
	if (!ctl_ioctl(&c, VRAID_IOC_LIST, &lst, sizeof(lst)) &&
	    lst.nr_vds <= VRAID_MAX_VDS) {
		l->known = true;
		l->abi_minor = lst.hdr.version_minor;
		l->vds = calloc(lst.nr_vds ? lst.nr_vds : 1, sizeof(*l->vds));
		for (i = 0; l->vds && i < lst.nr_vds; i++) {
			memset(&in, 0, sizeof(in));
			in.index = lst.index[i];
			if (!ctl_ioctl(&c, VRAID_IOC_INFO, &in, sizeof(in)) &&
			    in.nr_members <= VRAID_MAX_MEMBERS)
				l->vds[l->nvd++] = in;
		}
	}
	memset(&l->spares, 0, sizeof(l->spares));
	l->spares.action = VRAID_SPARE_LIST;
	if (ctl_ioctl(&c, VRAID_IOC_SPARE, &l->spares, sizeof(l->spares)) ||
	    l->spares.nr_spares > VRAID_MAX_SPARES)
		l->spares.nr_spares = 0;
	memset(&l->ctrl, 0, sizeof(l->ctrl));
	l->ctrl.action = VRAID_CTRL_SHOW;
	if (ctl_ioctl(&c, VRAID_IOC_CONTROLLER, &l->ctrl, sizeof(l->ctrl)) ||
	    !journal_abi(&l->ctrl))
		l->ctrl.journal_state = VRAID_JOURNAL_NONE;
	close(c.fd);
}

void live_free(struct live *l)
{
	free(l->vds);
	free(l->uuid);
	free(l->have_uuid);
}

/*
 * The UUID of the running VD @in (not in INFO): from the metadata of one
 * of its Online members, read from /dev/NAME as the kernel names it.
 * false if no member's metadata could be read (not root, say).
 */
bool vd_uuid(const struct vraid_info *in, uint8_t uuid[VRAID_MD_UUID_LEN])
{
	char path[16 + VRAID_DEVNAME_LEN];
	struct md_copy c[2];
	uint32_t i;
	int fd, k;

	for (i = 0; i < in->nr_members && i < VRAID_MAX_MEMBERS; i++) {
		const struct vraid_member_info *m = &in->members[i];

		if (m->state != VRAID_MEMBER_ONLINE ||
		    !strnlen(m->dev_name, sizeof(m->dev_name)))
			continue;
		snprintf(path, sizeof(path), "/dev/%.*s",
			 (int)strnlen(m->dev_name, sizeof(m->dev_name)),
			 m->dev_name);
		fd = open(path, O_RDONLY | O_DIRECT | O_CLOEXEC);
		if (fd < 0 && errno == EINVAL)
			fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		memset(c, 0, sizeof(c));
		c[0].sector = VRAID_MD_COPY_A;
		c[1].sector = VRAID_MD_COPY_B;
		for (k = 0; k < 2; k++) {
			read_copy(fd, path, &c[k]);
			if (!c[k].status) {
				memcpy(uuid, c[k].md.vd_uuid,
				       VRAID_MD_UUID_LEN);
				close(fd);
				return true;
			}
		}
		close(fd);
	}
	return false;
}

/* Each running VD's UUID, once (vd_uuid()). */
static void live_uuids(struct live *l)
{
	size_t v;

	if (l->uuid_read)
		return;
	l->uuid_read = true;
	l->uuid = calloc(l->nvd ? l->nvd : 1, sizeof(*l->uuid));
	l->have_uuid = calloc(l->nvd ? l->nvd : 1, sizeof(*l->have_uuid));
	if (!l->uuid || !l->have_uuid)
		return;
	for (v = 0; v < l->nvd; v++)
		l->have_uuid[v] = vd_uuid(&l->vds[v], l->uuid[v]);
}

/* What the module uses @p for, and which running VD its metadata names. */
void probe_live(struct devprobe *p, struct live *l)
{
	size_t v;
	uint32_t i;

	p->live = LIVE_NONE;
	p->vd = NULL;
	for (v = 0; p->blk && v < l->nvd; v++)
		for (i = 0; i < l->vds[v].nr_members; i++) {
			const struct vraid_member_info *m = &l->vds[v].members[i];

			if (m->state == VRAID_MEMBER_MISSING ||
			    m->major != p->major || m->minor != p->minor)
				continue;
			p->live = LIVE_MEMBER;
			p->vd = &l->vds[v];
			p->role = m->role;
			return;
		}
	for (i = 0; p->blk && i < l->spares.nr_spares; i++)
		if (l->spares.spares[i].major == p->major &&
		    l->spares.spares[i].minor == p->minor) {
			p->live = LIVE_SPARE;
			p->spare_for = l->spares.spares[i].vd_index;
			return;
		}
	if (p->blk && l->ctrl.journal_state != VRAID_JOURNAL_NONE &&
	    l->ctrl.journal_major == p->major &&
	    l->ctrl.journal_minor == p->minor) {
		p->live = LIVE_JOURNAL;
		return;
	}
	if (p->kind != PROBE_MEMBER)
		return;
	live_uuids(l);
	for (v = 0; l->have_uuid && v < l->nvd; v++)
		if (l->have_uuid[v] &&
		    !memcmp(l->uuid[v], probe_md(p)->vd_uuid, VRAID_MD_UUID_LEN))
			p->vd = &l->vds[v];
}

/* "/dev/vraid0 ("db")" */
char *vd_says(char *buf, size_t bufsz, const struct vraid_info *in)
{
	char name[VRAID_NAME_LEN * 4];

	tty_str(name, sizeof(name), in->name, sizeof(in->name));
	snprintf(buf, bufsz, "/dev/%s%u%s%s%s", VRAID_DISK_PREFIX, in->index,
		 name[0] ? " (\"" : "", name, name[0] ? "\")" : "");
	return buf;
}

/*
 * Why @p cannot be used whatever --force says (it is in use), into @buf:
 * "is in use: ...".  False if it is not in use.
 */
bool probe_in_use(const struct devprobe *p, const struct live *l,
			 char *buf, size_t bufsz)
{
	char vd[160];

	switch (p->live) {
	case LIVE_MEMBER:
		snprintf(buf, bufsz, "is in use: a member of the running virtual drive %s, role %u",
			 vd_says(vd, sizeof(vd), p->vd), p->role);
		return true;
	case LIVE_SPARE:
		if (p->spare_for >= 0)
			snprintf(buf, bufsz, "is in use: a hot spare dedicated to %s%d",
				 VRAID_DISK_PREFIX, p->spare_for);
		else
			snprintf(buf, bufsz, "is in use: a global hot spare");
		return true;
	case LIVE_JOURNAL:
		snprintf(buf, bufsz, "is in use: it is the controller's journal (%s)",
			 VNAME(journal_states, l->ctrl.journal_state, false));
		return true;
	}
	if (p->busy) {
		snprintf(buf, bufsz, "is in use: another opener holds it exclusively (mounted, or held by md, dm or LVM)");
		return true;
	}
	return false;
}

/* What to do about @p being in use. */
void in_use_hint(const struct devprobe *p)
{
	char vd[40];

	switch (p->live) {
	case LIVE_MEMBER:
		snprintf(vd, sizeof(vd), "%s%u", VRAID_DISK_PREFIX, p->vd->index);
		hintmsg("stop or delete %s first (`vraidctl stop %s`), or take the member out of it (`vraidctl replace`); --force does not override this",
			vd, vd);
		break;
	case LIVE_SPARE:
		hintmsg("remove the spare first: vraidctl spare remove %s", p->path);
		break;
	case LIVE_JOURNAL:
		hintmsg("detach the journal first: vraidctl controller journal none");
		break;
	default:
		hintmsg("see what holds it with lsblk and /proc/mdstat, and unmount or stop it first");
		break;
	}
}

/*
 * What @p holds that would be lost, one phrase each into @ph ("an ext4
 * file system (label "data")"); returns how many.  A vraid journal is
 * left out with !@journal (controller journal DEV attaches it as it is).
 */
size_t probe_phrases(const struct devprobe *p, bool journal,
			    char (*ph)[PHRASE], size_t max)
{
	const struct vraid_md *md;
	char u[40], sz[32], vd[160], name[VRAID_NAME_LEN * 4];
	size_t n = 0, k;
	const struct sig_hit *h;

	if (p->err && n < max)
		snprintf(ph[n++], PHRASE, "what vraidctl cannot tell (it cannot read it: %s)",
			 strerror(p->err));
	switch (p->kind) {
	case PROBE_MEMBER:
		md = probe_md(p);
		uuid_str(u, md->vd_uuid);
		tty_str(name, sizeof(name), md->name, sizeof(md->name));
		if (p->vd)
			snprintf(ph[n++], PHRASE, "stale vraid metadata of the running virtual drive %s (role %u, generation %llu: a member replaced or left out)",
				 vd_says(vd, sizeof(vd), p->vd), md->role,
				 (unsigned long long)md->generation);
		else
			snprintf(ph[n++], PHRASE, "the vraid metadata of the stopped virtual drive %s%s%s(UUID %s, %s, role %u of %u, %s)",
				 name[0] ? "\"" : "", name, name[0] ? "\" " : "", u,
				 VNAME(levels, md->level, false), md->role,
				 md->nr_members,
				 human_size(sz, sizeof(sz), md->size_sectors * 512));
		break;
	case PROBE_BAD_MEMBER:
		k = copy_bad(&p->copies[0]) ? 0 : 1;
		snprintf(ph[n++], PHRASE, "damaged vraid metadata (copy %s: %s)",
			 p->copies[k].label,
			 p->copies[k].sp_status != -ENODATA ?
			 p->copies[k].sp_why : p->copies[k].why);
		break;
	case PROBE_SPARE: {
		const struct vraid_sprec *sp = &p->copies[spare_copy(p->copies)].sp;

		uuid_str(u, sp->vd_uuid);
		if (p->live == LIVE_SPARE)
			break;	/* (in use: probe_in_use() says it) */
		if (sp->flags & VRAID_SPREC_F_DEDICATED)
			snprintf(ph[n++], PHRASE, "a vraid hot spare record (dedicated to VD %s; the spare is not in the pool now)",
				 u);
		else
			snprintf(ph[n++], PHRASE, "a vraid hot spare record (a global spare; not in the pool now)");
		break;
	}
	case PROBE_JOURNAL:
		if (!journal) {
			const struct vraid_jsb *sb = &p->js.sb[p->js.pick];

			uuid_str(u, sb->uuid);
			snprintf(ph[n++], PHRASE, "a vraid controller journal (UUID %s%s)",
				 u, sb->flags & VRAID_J_SB_DETACHED ? "" :
				 "; not detached cleanly: it may hold acknowledged writes still to replay");
		}
		break;
	case PROBE_BAD_JOURNAL:
		if (!journal)
			snprintf(ph[n++], PHRASE, "a damaged vraid journal superblock (%s)",
				 p->js.pick_why);
		break;
	}
	for (k = 0; k < p->nhits && n < max; k++) {
		h = &p->hits[k];
		snprintf(ph[n++], PHRASE, "%s%s%s%s%s%s%s%s", h->what,
			 h->detail[0] || h->label[0] ? " (" : "", h->detail,
			 h->detail[0] && h->label[0] ? ", " : "",
			 h->label[0] ? h->lkind : "", h->label[0] ? " \"" : "",
			 h->label, h->label[0] ? "\")" : h->detail[0] ? ")" : "");
	}
	return n;
}

/* "A, B and C" of @n phrases into @buf. */
char *join_phrases(char *buf, size_t bufsz, char (*ph)[PHRASE],
			  size_t n)
{
	size_t k, o = 0;

	buf[0] = '\0';
	for (k = 0; k < n && o < bufsz; k++) {
		o += (size_t)snprintf(buf + o, bufsz - o, "%s%s",
				      k == 0 ? "" : k + 1 == n ? " and " : ", ",
				      ph[k]);
	}
	return buf;
}

/*
 * Before create (the request @req built, its devices stat()ed): what each
 * of @devs holds.  A device in use is refused; one that holds anything
 * known is refused unless @force.  With @dry, say what create would do
 * instead and change nothing.  Returns -1 to go on, else the exit code.
 */
int create_guard(const char *const *devs, size_t n,
			const struct vraid_create *req, bool force, bool dry)
{
	char (*ph)[PHRASE] = calloc(MAX_PHRASES, PHRASE);
	char why[PHRASE], all[MAX_PHRASES * PHRASE], msg[VRAID_MSG_LEN];
	char sz[32], sz2[32], name[VRAID_NAME_LEN * 4];
	struct devprobe *p = calloc(n, sizeof(*p));
	uint64_t min = UINT64_MAX;
	bool in_use = false, holds = false, stopped = false;
	struct vraid_geom g;
	struct live l;
	size_t i, nph;
	int ge, rc = -1;

	if (!ph || !p) {
		free(ph);
		free(p);
		errmsg("out of memory");
		return RC_FAIL;
	}
	live_load(&l);
	for (i = 0; i < n; i++) {
		if (probe_dev(&p[i], devs[i], false)) {
			rc = RC_FAIL;
			goto out;
		}
		probe_live(&p[i], &l);
		if (p[i].bytes < min)
			min = p[i].bytes;
	}
	min /= 512;
	ge = vraid_layout_init(&g, req->level, req->nr_members, req->strip_bytes,
			       req->spans, min > VRAID_DATA_OFFSET_SECTORS ?
			       min - VRAID_DATA_OFFSET_SECTORS : 0,
			       msg, sizeof(msg));
	if (dry) {
		tty_str(name, sizeof(name), req->name, sizeof(req->name));
		printf("create --dry-run: nothing is changed\n");
		printf("Virtual drive:  %s%s%s%s, %u member%s", VNAME(levels, req->level, false),
		       name[0] ? ", name \"" : "", name, name[0] ? "\"" : "",
		       req->nr_members, req->nr_members == 1 ? "" : "s");
		if (ge)
			printf(": refused by the module's checks: %s\n", msg);
		else if (req->level == VRAID_LEVEL_JBOD)
			printf(", %s\n", human_size(sz, sizeof(sz), g.size_sectors * 512));
		else
			printf(", strip %s, %s\n",
			       human_size(sz2, sizeof(sz2), (uint64_t)g.strip_sectors * 512),
			       human_size(sz, sizeof(sz), g.size_sectors * 512));
		if (!ge)
			printf("Each member:    vraid's metadata in its first 8 MiB, then %s of the VD's data; what it holds there is overwritten\n",
			       human_size(sz, sizeof(sz), g.member_sectors * 512));
	}
	for (i = 0; i < n; i++) {
		bool busy = probe_in_use(&p[i], &l, why, sizeof(why));

		nph = probe_phrases(&p[i], false, ph, MAX_PHRASES);
		join_phrases(all, sizeof(all), ph, nph);
		in_use |= busy;
		holds |= nph > 0;
		stopped |= p[i].kind == PROBE_MEMBER && !p[i].vd;
		if (dry) {
			printf("  role %zu  %s  %s  ", i, devs[i],
			       human_size(sz, sizeof(sz), p[i].bytes));
			if (busy)
				printf("%s (refused)\n", why);
			else if (nph)
				printf("holds %s: lost\n", all);
			else
				printf("no known signature (its contents are overwritten all the same)\n");
		} else if (busy) {
			errmsg("create: %s %s", devs[i], why);
			in_use_hint(&p[i]);
		}
	}
	if (dry) {
		if (in_use)
			printf("Result:         refused: a device is in use (--force does not override that)\n");
		else if (ge)
			printf("Result:         refused: %s\n", msg);
		else if (holds && !force)
			printf("Result:         refused without --force: what the devices hold would be lost\n");
		else
			printf("Result:         it would be created%s\n",
			       holds ? ", overwriting what the devices hold (--force)" : "");
		rc = in_use || ge || (holds && !force) ? RC_FAIL : RC_OK;
		goto out;
	}
	if (in_use) {
		rc = RC_FAIL;
		goto out;
	}
	for (i = 0; i < n; i++) {
		nph = probe_phrases(&p[i], false, ph, MAX_PHRASES);
		if (!nph)
			continue;
		join_phrases(all, sizeof(all), ph, nph);
		if (force)
			fprintf(stderr, "create: overwriting what %s holds (--force): %s\n",
				devs[i], all);
		else
			errmsg("create: %s holds %s; `vraidctl create ... --force` overwrites it",
			       devs[i], all);
	}
	if (holds && !force) {
		if (stopped)
			hintmsg("to bring a stopped virtual drive back instead: vraidctl assemble --scan; to erase its metadata: vraidctl wipe DEV --force");
		hintmsg("`vraidctl create ... --dry-run` shows what each device holds; with --force what they hold is lost");
		rc = RC_FAIL;
	}
out:
	live_free(&l);
	free(ph);
	free(p);
	return rc;
}

/*
 * Before controller journal DEV: a device in use is refused; one that
 * holds anything but a vraid journal (attached as it is) is refused
 * unless @force (which formats even a vraid journal: the module's
 * VRAID_CTRL_FORCE).  A damaged journal superblock is the module's to
 * refuse.  With @dry, say what the attach would do and change nothing.
 * Returns -1 to go on, else the exit code.
 */
int journal_guard(const char *arg, bool force, bool dry)
{
	char (*ph)[PHRASE] = calloc(MAX_PHRASES, PHRASE);
	char why[PHRASE], all[MAX_PHRASES * PHRASE], sz[32], rs[32], u[40];
	char dev[64];
	struct devprobe p;
	struct live l;
	bool busy;
	size_t nph;
	int rc = -1;

	if (!ph) {
		errmsg("out of memory");
		return RC_FAIL;
	}
	live_load(&l);
	if (probe_dev(&p, arg, false)) {
		rc = RC_FAIL;
		goto out;
	}
	probe_live(&p, &l);
	busy = probe_in_use(&p, &l, why, sizeof(why));
	nph = probe_phrases(&p, true, ph, MAX_PHRASES);
	join_phrases(all, sizeof(all), ph, nph);
	if (dry) {
		printf("controller journal --dry-run: nothing is changed\n");
		printf("Device:         %s, %s\n", arg, human_size(sz, sizeof(sz), p.bytes));
		if (p.kind == PROBE_JOURNAL) {
			uuid_str(u, p.js.sb[p.js.pick].uuid);
			printf("Holds:          a vraid journal (UUID %s)%s%s\n", u,
			       nph ? ", and " : "", all);
		} else if (p.kind == PROBE_BAD_JOURNAL) {
			printf("Holds:          a damaged vraid journal superblock (%s)%s%s\n",
			       p.js.pick_why, nph ? ", and " : "", all);
		} else {
			printf("Holds:          %s\n", nph ? all : "no known signature");
		}
		if (busy)
			printf("Result:         refused: it %s (--force does not override that)\n", why);
		else if (l.ctrl.journal_state != VRAID_JOURNAL_NONE)
			printf("Result:         refused: a journal is attached already (%s%s%u:%u, %s): detach it first\n",
			       blk_dev_name(dev, sizeof(dev), l.ctrl.journal_major,
					    l.ctrl.journal_minor), dev[0] ? ", " : "",
			       l.ctrl.journal_major, l.ctrl.journal_minor,
			       VNAME(journal_states, l.ctrl.journal_state, false));
		else if (nph && !force)
			printf("Result:         refused without --force: formatting it would lose what it holds\n");
		else if (p.kind == PROBE_JOURNAL && !force)
			printf("Result:         it would be attached as it is (writes it holds are replayed as their VDs are assembled)\n");
		else if (p.kind == PROBE_BAD_JOURNAL && !force)
			printf("Result:         the module refuses a damaged journal superblock without --force (which formats it: whatever writes it held are lost)\n");
		else
			printf("Result:         it would be formatted as a new journal, its ring %s%s\n",
			       human_size(rs, sizeof(rs),
					  vraid_jring_blocks(p.bytes / 512) * VRAID_J_BLOCK),
			       nph || p.kind == PROBE_JOURNAL || p.kind == PROBE_BAD_JOURNAL ?
			       ": what it holds is lost" : "");
		rc = busy || l.ctrl.journal_state != VRAID_JOURNAL_NONE ||
		     (nph && !force) || (p.kind == PROBE_BAD_JOURNAL && !force) ?
		     RC_FAIL : RC_OK;
		goto out;
	}
	if (busy) {
		errmsg("controller journal %s: %s %s", arg, arg, why);
		in_use_hint(&p);
		rc = RC_FAIL;
	} else if (nph && !force) {
		errmsg("controller journal %s: %s holds %s; `vraidctl controller journal %s --force` overwrites it",
		       arg, arg, all, arg);
		hintmsg("a journal device is formatted: whatever it holds is lost (`vraidctl controller journal %s --dry-run` shows it)",
			arg);
		rc = RC_FAIL;
	} else if (nph) {
		fprintf(stderr, "controller journal: overwriting what %s holds (--force): %s\n",
			arg, all);
	}
out:
	live_free(&l);
	free(ph);
	return rc;
}

/*
 * replace VD OLD NEW --dry-run: what the replacement would do, on
 * standard output; nothing is sent.  @m is OLD's member entry in @in.
 * Returns 0 if the module would be asked, 1 if it would be refused.
 */
int replace_dry(const struct vraid_info *in,
		       const struct vraid_member_info *m, const char *old,
		       const char *new, bool force)
{
	char (*ph)[PHRASE] = calloc(MAX_PHRASES, PHRASE);
	char vd[160], sz[32], why[PHRASE], all[MAX_PHRASES * PHRASE];
	uint64_t need = (in->data_offset_sectors + in->member_data_sectors) *
			SECTOR_BYTES;
	struct devprobe p;
	struct live l;
	bool busy, small;
	size_t nph;

	if (!ph) {
		errmsg("out of memory");
		return RC_FAIL;
	}
	if (probe_dev(&p, new, false)) {
		free(ph);
		return RC_FAIL;
	}
	live_load(&l);
	probe_live(&p, &l);
	/* a hot spare may be named: replace takes it out of the spares */
	busy = p.live != LIVE_SPARE && probe_in_use(&p, &l, why, sizeof(why));
	small = p.bytes < need;
	nph = probe_phrases(&p, false, ph, MAX_PHRASES);
	join_phrases(all, sizeof(all), ph, nph);
	printf("replace --dry-run: nothing is changed\n");
	printf("Virtual drive:  %s: %s, %s, %s\n", vd_says(vd, sizeof(vd), in),
	       VNAME(levels, in->level, false),
	       human_size(sz, sizeof(sz), in->size_sectors * SECTOR_BYTES),
	       VNAME(vd_states, in->state, false));
	if (m->state == VRAID_MEMBER_ONLINE)
		printf("Old member:     role %u, %s (Online): failed first and released, the VD runs without it until the rebuild is done (refused if that takes the VD offline%s); its vraid metadata stays on it (`vraidctl wipe` erases it)\n",
		       m->role, old, force ? "; --force fails it all the same" : ", unless --force");
	else
		printf("Old member:     role %u, %s (%s): replaced\n", m->role, old,
		       VNAME(member_states, m->state, false));
	printf("New member:     %s, %s: takes role %u and is rebuilt; ", new,
	       human_size(sz, sizeof(sz), p.bytes), m->role);
	if (nph)
		printf("it holds %s: lost\n", all);
	else
		printf("no known signature on it (its contents are overwritten all the same)\n");
	if (p.live == LIVE_SPARE)
		printf("                it is a hot spare now: it leaves the spares\n");
	if (busy)
		printf("Result:         refused: %s %s\n", new, why);
	else if (small)
		printf("Result:         refused: %s is too small: it needs %llu bytes (the data offset and %s of data)\n",
		       new, (unsigned long long)need,
		       human_size(sz, sizeof(sz), in->member_data_sectors * SECTOR_BYTES));
	else
		printf("Result:         it would be rebuilt onto %s\n", new);
	live_free(&l);
	free(ph);
	return busy || small ? RC_FAIL : RC_OK;
}

/*
 * spare add DEV [--vd VD] --dry-run: what adding the spare would do;
 * @vd is "" for a global spare.  Returns the exit code.
 */
int spare_dry(const char *dev, const char *vd)
{
	char (*ph)[PHRASE] = calloc(MAX_PHRASES, PHRASE);
	char sz[32], why[PHRASE], all[MAX_PHRASES * PHRASE];
	struct devprobe p;
	struct live l;
	bool busy;
	size_t nph;

	if (!ph) {
		errmsg("out of memory");
		return RC_FAIL;
	}
	if (probe_dev(&p, dev, false)) {
		free(ph);
		return RC_FAIL;
	}
	live_load(&l);
	probe_live(&p, &l);
	busy = probe_in_use(&p, &l, why, sizeof(why));
	nph = probe_phrases(&p, false, ph, MAX_PHRASES);
	join_phrases(all, sizeof(all), ph, nph);
	printf("spare add --dry-run: nothing is changed\n");
	printf("Device:         %s, %s\n", dev, human_size(sz, sizeof(sz), p.bytes));
	printf("Holds:          %s\n", nph ? all : "no known signature");
	if (vd[0])
		printf("Becomes:        a hot spare dedicated to %s: a rebuild that takes it overwrites what it holds\n", vd);
	else
		printf("Becomes:        a global hot spare (for any virtual drive): a rebuild that takes it overwrites what it holds\n");
	if (busy)
		printf("Result:         refused: it %s\n", why);
	else
		printf("Result:         it would be added\n");
	live_free(&l);
	free(ph);
	return busy ? RC_FAIL : RC_OK;
}
