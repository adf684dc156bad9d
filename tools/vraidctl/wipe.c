// SPDX-License-Identifier: GPL-2.0
/*
 * vraidctl: wipe: erase vraid's metadata from a device.
 */
#include "vraidctl.h"

/* A block of vraid's that wipe zeroes. */
struct wipe_block {
	uint64_t off;
	size_t len;
	const char *what;
};

/* A copy with vraid's magic (a member's or a hot spare's), valid or not. */
static bool copy_there(const struct md_copy *c)
{
	return (c->status != -ENODATA && c->status != -EIO) ||
	       (c->sp_status != -ENODATA && c->sp_status != -EIO);
}

/*
 * Every block of @p that carries one of vraid's magics: the metadata
 * copies and the bitmap of a member (on-disk-format.rst), the superblock
 * slots of a journal (a journal's ring, at 1 MiB, may hold an old copy
 * B: that goes too).  Returns how many, into @b (room for 5).
 */
static size_t wipe_blocks(const struct devprobe *p, struct wipe_block *b)
{
	size_t n = 0;

	if (copy_there(&p->copies[0]))
		b[n++] = (struct wipe_block){ VRAID_MD_COPY_A * 512, VRAID_MD_BLOCK,
					      "metadata copy A (byte 4096)" };
	if (p->js.r[0] != -ENODATA)
		b[n++] = (struct wipe_block){ VRAID_J_SB_SECTOR0 * 512, VRAID_J_BLOCK,
					      "journal superblock slot 0 (byte 4096)" };
	if (p->js.r[1] != -ENODATA)
		b[n++] = (struct wipe_block){ VRAID_J_SB_SECTOR1 * 512, VRAID_J_BLOCK,
					      "journal superblock slot 1 (byte 8192)" };
	if (copy_there(&p->copies[1]))
		b[n++] = (struct wipe_block){ VRAID_MD_COPY_B * 512, VRAID_MD_BLOCK,
					      "metadata copy B (byte 1 MiB)" };
	if (p->bitmap)
		b[n++] = (struct wipe_block){ VRAID_BM_SECTOR * 512, VRAID_BM_BYTES,
					      "write-intent bitmap (byte 2 MiB)" };
	return n;
}

/* "A, B and C" of the blocks' names. */
static char *wipe_says(char *buf, size_t bufsz, const struct wipe_block *b,
		       size_t n)
{
	char ph[5][PHRASE];
	size_t k;

	for (k = 0; k < n && k < 5; k++)
		snprintf(ph[k], PHRASE, "%s", b[k].what);
	return join_phrases(buf, bufsz, ph, k);
}

/* Zero the blocks @b of @p->path.  Returns 0 or an errno. */
static int wipe_write(const struct devprobe *p, const struct wipe_block *b,
		      size_t n)
{
	int fl = O_RDWR | O_CLOEXEC | (p->blk ? O_EXCL : 0), fd, e = 0;
	void *zero = NULL;
	size_t k;

	if (posix_memalign(&zero, 4096, VRAID_BM_BYTES))
		return ENOMEM;
	memset(zero, 0, VRAID_BM_BYTES);
	fd = open(p->path, fl | O_DIRECT);
	if (fd < 0 && errno == EINVAL)
		fd = open(p->path, fl);
	if (fd < 0)
		e = errno;
	for (k = 0; !e && k < n; k++)
		if (pwrite(fd, zero, b[k].len, (off_t)b[k].off) != (ssize_t)b[k].len)
			e = errno ? errno : EIO;
	if (!e && fsync(fd))
		e = errno;
	if (fd >= 0 && close(fd) && !e)
		e = errno;
	free(zero);
	return e;
}

/* wipe DEV [--force] [--dry-run] */
int cmd_wipe(int argc, char **argv)
{
	char (*ph)[PHRASE] = NULL;
	char why[PHRASE], all[MAX_PHRASES * PHRASE], blocks[5 * PHRASE], sz[32];
	struct wipe_block b[5];
	struct devprobe p, q;
	const char *pos[1];
	bool force, dry, busy;
	struct live l;
	size_t npos, nb, nph;
	int rc, e;

	force = take_flag(&argc, argv, "--force");
	dry = take_flag(&argc, argv, "--dry-run");
	rc = parse_args("wipe", argc, argv, NULL, NULL, NULL, pos, 1, &npos);
	if (rc >= 0)
		return rc;
	if (npos != 1)
		return usage_error("wipe", npos ? "name one device only" :
				   "name the device to erase vraid's metadata from (e.g. /dev/sdc)");
	if (probe_dev(&p, pos[0], true))
		return RC_FAIL;
	if (p.err) {
		errmsg("%s: %s", pos[0], strerror(p.err));
		if (p.err == EACCES || p.err == EPERM)
			hintmsg("run as root");
		return RC_FAIL;
	}
	ph = calloc(MAX_PHRASES, PHRASE);
	if (!ph) {
		errmsg("out of memory");
		return RC_FAIL;
	}
	live_load(&l);
	probe_live(&p, &l);
	busy = probe_in_use(&p, &l, why, sizeof(why));
	nb = wipe_blocks(&p, b);
	wipe_says(blocks, sizeof(blocks), b, nb);
	q = p;
	q.nhits = 0;		/* vraid's own, not what else it holds */
	nph = probe_phrases(&q, false, ph, MAX_PHRASES);
	join_phrases(all, sizeof(all), ph, nph);
	rc = RC_FAIL;
	if (dry) {
		printf("wipe --dry-run: nothing is changed\n");
		printf("Device:         %s, %s\n", pos[0], human_size(sz, sizeof(sz), p.bytes));
		printf("Holds:          %s\n", nph ? all : "no vraid metadata");
		if (nb)
			printf("Erases:         %s (zeroed)\n", blocks);
		if (busy)
			printf("Result:         refused: it %s\n", why);
		else if (!nb)
			printf("Result:         nothing to erase\n");
		else if (!force)
			printf("Result:         refused without --force\n");
		else
			printf("Result:         it would be erased\n");
		rc = busy || (nb && !force) ? RC_FAIL : RC_OK;
		goto out;
	}
	if (busy) {
		errmsg("wipe %s: %s %s", pos[0], pos[0], why);
		in_use_hint(&p);
		goto out;
	}
	if (!nb) {
		printf("%s: no vraid metadata: nothing to erase\n", pos[0]);
		rc = RC_OK;
		goto out;
	}
	if (!force) {
		errmsg("wipe %s: refused without --force: it holds %s; `vraidctl wipe %s --force` erases it: %s",
		       pos[0], all, pos[0], blocks);
		if (p.kind == PROBE_MEMBER && !p.vd)
			hintmsg("that virtual drive can then no longer be assembled from %s; to bring it back instead: vraidctl assemble --scan",
				pos[0]);
		else
			hintmsg("`vraidctl wipe %s --dry-run` shows what would be erased", pos[0]);
		goto out;
	}
	e = wipe_write(&p, b, nb);
	if (e) {
		errmsg("wipe %s: cannot erase it: %s", pos[0], strerror(e));
		if (e == EBUSY)
			hintmsg("another opener holds it exclusively: see lsblk and /proc/mdstat");
		goto out;
	}
	probe_dev(&q, pos[0], true);
	if (wipe_blocks(&q, b)) {
		errmsg("wipe %s: vraid's metadata is still there after it was zeroed (a device that drops writes?)",
		       pos[0]);
		goto out;
	}
	printf("%s: vraid metadata erased: %s zeroed\n", pos[0], blocks);
	rc = RC_OK;
out:
	live_free(&l);
	free(ph);
	return rc;
}
