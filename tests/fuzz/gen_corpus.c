// SPDX-License-Identifier: GPL-2.0
/*
 * Write the seed corpus of fuzz_validate: a few valid requests in the
 * harness's input layout (u32 command, the request struct, then the
 * geometry tail: u64 member data sectors and three u64 sectors to map).
 *
 *	gen_corpus DIR
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/vraid.h>

struct tail {
	uint64_t min_data;
	uint64_t probe[3];
};

static const char *dir;

static void put(const char *name, uint32_t cmd, const void *req, size_t len,
		uint64_t min_data)
{
	struct tail t = {
		.min_data = min_data,
		.probe = { 12345, 1ull << 33, 0xffffffffffffull },
	};
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(&cmd, sizeof(cmd), 1, f) != 1 ||
	    fwrite(req, len, 1, f) != 1 || fwrite(&t, sizeof(t), 1, f) != 1 ||
	    fclose(f)) {
		fprintf(stderr, "gen_corpus: %s: %s\n", path, strerror(errno));
		exit(1);
	}
}

static void hdr(struct vraid_ioc_hdr *h, uint32_t size)
{
	h->magic = VRAID_IOC_MAGIC;
	h->size = size;
	h->version_major = VRAID_ABI_MAJOR;
	h->version_minor = VRAID_ABI_MINOR;
}

static void create(const char *name, uint32_t level, uint32_t nr,
		   uint32_t strip, const char *label, uint64_t min_data)
{
	struct vraid_create c;
	uint32_t i;

	memset(&c, 0, sizeof(c));
	hdr(&c.hdr, sizeof(c));
	c.level = level;
	c.nr_members = nr;
	c.strip_bytes = strip;
	snprintf(c.name, sizeof(c.name), "%s", label);
	for (i = 0; i < nr; i++) {
		c.members[i].major = 259;	/* nvme */
		c.members[i].minor = i;
	}
	put(name, 0, &c, sizeof(c), min_data);
}

int main(int argc, char **argv)
{
	struct vraid_delete d;
	struct vraid_list l;
	struct vraid_info inf;
	struct vraid_controller ct;
	struct vraid_ioc_hdr h;

	if (argc != 2) {
		fprintf(stderr, "usage: gen_corpus DIR\n");
		return 2;
	}
	dir = argv[1];

	create("create-raid0-4x64k", VRAID_LEVEL_0, 4, 65536, "data",
	       7501460144ull);
	create("create-raid0-3x4k", VRAID_LEVEL_0, 3, 4096, "", 2048 + 7);
	create("create-raid0-32x1m", VRAID_LEVEL_0, 32, 1 << 20, "a.b_c-1",
	       1000000007ull);
	create("create-raid0-2-default", VRAID_LEVEL_0, 2, 0, "x", 1ull << 40);
	create("create-jbod", VRAID_LEVEL_JBOD, 1, 0, "scratch", 2055);

	memset(&d, 0, sizeof(d));
	hdr(&d.hdr, sizeof(d));
	d.index = 3;
	put("delete-3", 1, &d, sizeof(d), 0);

	memset(&l, 0, sizeof(l));
	hdr(&l.hdr, sizeof(l));
	put("list", 2, &l, sizeof(l), 0);

	memset(&inf, 0, sizeof(inf));
	hdr(&inf.hdr, sizeof(inf));
	inf.index = VRAID_MAX_VDS - 1;
	put("info-255", 3, &inf, sizeof(inf), 0);

	memset(&h, 0, sizeof(h));
	hdr(&h, sizeof(h));
	put("unknown-4", 4, &h, sizeof(h), 0);

	/* CONTROLLER (9): show, set the cache size, attach a journal */
	memset(&ct, 0, sizeof(ct));
	hdr(&ct.hdr, sizeof(ct));
	put("controller-show", 9, &ct, sizeof(ct), 0);
	ct.action = VRAID_CTRL_SET_CACHE_SIZE;
	ct.cache_bytes = 64ull << 20;
	put("controller-set-64m", 9, &ct, sizeof(ct), 0);
	ct.action = VRAID_CTRL_JOURNAL_ATTACH;
	ct.cache_bytes = 0;
	ct.major = 259;
	ct.minor = 3;
	put("controller-attach", 9, &ct, sizeof(ct), 0);
	return 0;
}
