// SPDX-License-Identifier: GPL-2.0
/*
 * vraidctl: list, show and version.
 */
#include "vraidctl.h"

static void list_json(const struct vraid_info *v, size_t n)
{
	struct json j = { 0 };
	char vd[32];
	size_t i;

	json_begin_object(&j, NULL);
	json_begin_array(&j, "vds");
	for (i = 0; i < n; i++) {
		snprintf(vd, sizeof(vd), "%s%u", VRAID_DISK_PREFIX, v[i].index);
		json_begin_object(&j, NULL);
		json_string(&j, "vd", vd, sizeof(vd));
		json_u64(&j, "index", v[i].index);
		json_string(&j, "name", v[i].name, sizeof(v[i].name));
		json_string(&j, "level", VNAME(levels, v[i].level, true), SIZE_MAX);
		json_string(&j, "state", VNAME(vd_states, v[i].state, true), SIZE_MAX);
		json_u64(&j, "size_bytes", v[i].size_sectors * SECTOR_BYTES);
		json_u64(&j, "strip_bytes", strip_of(&v[i]));
		json_u64(&j, "members", v[i].nr_members);
		json_string(&j, "job", VNAME(job_types, v[i].job_type, true), SIZE_MAX);
		json_permille(&j, "job_percent", v[i].job_type == VRAID_JOB_NONE ?
			      0 : job_permille(&v[i]));
		json_end_object(&j);
	}
	json_end_array(&j);
	json_end_object(&j);
}

static int list_human(const struct vraid_info *v, size_t n)
{
	struct table t = {
		.ncol = 8,
		.head = { "VD", "NAME", "LEVEL", "STATE", "SIZE", "STRIP", "MEMBERS",
			  "JOB" },
		.right = { [4] = true, [5] = true, [6] = true },
	};
	char (*r)[TCELL];
	size_t i;

	if (n == 0) {
		printf("no virtual drives\n");
		return RC_OK;
	}
	for (i = 0; i < n; i++) {
		if (!(r = table_row(&t))) {
			free(t.row);
			errmsg("out of memory");
			return RC_FAIL;
		}
		snprintf(r[0], TCELL, "%s%u", VRAID_DISK_PREFIX, v[i].index);
		tty_str(r[1], TCELL, v[i].name, sizeof(v[i].name));
		if (!r[1][0])
			strcpy(r[1], "-");
		snprintf(r[2], TCELL, "%s", VNAME(levels, v[i].level, false));
		snprintf(r[3], TCELL, "%s", VNAME(vd_states, v[i].state, false));
		human_size(r[4], TCELL, v[i].size_sectors * SECTOR_BYTES);
		if (strip_of(&v[i]))
			human_size(r[5], TCELL, strip_of(&v[i]));
		else
			strcpy(r[5], "-");
		snprintf(r[6], TCELL, "%u", v[i].nr_members);
		if (v[i].job_type == VRAID_JOB_NONE)
			strcpy(r[7], "-");
		else
			snprintf(r[7], TCELL, "%s %u%%%s",
				 VNAME(job_types, v[i].job_type, false),
				 job_permille(&v[i]) / 10,
				 v[i].job_state == VRAID_JOB_PAUSED ? " paused" : "");
	}
	table_print(&t);
	free(t.row);
	return RC_OK;
}

int cmd_list(int argc, char **argv)
{
	struct vraid_info *v;
	bool json = false;
	const char *pos[1];
	size_t n, npos;
	struct ctl c;
	int rc;

	rc = parse_args("list", argc, argv, NULL, NULL, &json, pos, 1, &npos);
	if (rc >= 0)
		return rc;
	if (npos)
		return usage_error("list", "unexpected argument '%s'", pos[0]);
	if (!ctl_open(&c, false))
		return RC_FAIL;
	rc = get_all(&c, &v, &n);
	close(c.fd);
	if (rc)
		return rc;
	if (json)
		list_json(v, n);
	else
		rc = list_human(v, n);
	free(v);
	return rc;
}

/* ---- identities from sysfs: the VD's UUID, the members' disks --------- */

#define IDENT_LEN	128

/* @s with the blanks (and NULs) at both ends cut: in place; returns @s. */
static char *trim(char *s, size_t len)
{
	size_t i = 0;

	while (len && (s[len - 1] == ' ' || s[len - 1] == '\n' ||
		       s[len - 1] == '\t' || s[len - 1] == '\0'))
		len--;
	while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\0'))
		i++;
	memmove(s, s + i, len - i);
	s[len - i] = '\0';
	return s;
}

/*
 * The first line of the sysfs file @dir/@name, blanks cut (SCSI pads its
 * model with spaces); "" if it is missing, unreadable or blank.
 */
static char *sysfs_line(const char *dir, const char *name, char *buf,
			size_t bufsz)
{
	char path[1024];
	size_t n;
	FILE *f;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f)
		return buf;
	n = fread(buf, 1, bufsz - 1, f);
	fclose(f);
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return trim(buf, strlen(buf));
}

/*
 * A SCSI disk's serial number from its VPD page 0x80, which the kernel
 * keeps in device/vpd_pg80 (a 4-byte header with the page length in
 * bytes 2-3, then the number in ASCII, often padded): what SATA disks
 * behind libata and SAS disks have where NVMe has device/serial.
 */
static char *vpd_serial(const char *dir, char *buf, size_t bufsz)
{
	unsigned char page[4 + 255];
	char path[1024];
	size_t n, len;
	FILE *f;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "%s/device/vpd_pg80", dir);
	f = fopen(path, "rb");
	if (!f)
		return buf;
	n = fread(page, 1, sizeof(page), f);
	fclose(f);
	if (n < 4 || page[1] != 0x80)
		return buf;
	len = (size_t)page[2] << 8 | page[3];
	if (len > n - 4)
		len = n - 4;
	if (len > bufsz - 1)
		len = bufsz - 1;
	memcpy(buf, page + 4, len);
	buf[len] = '\0';
	return trim(buf, strlen(buf));
}

/*
 * The model and serial number of member @m's disk, as its driver puts
 * them in sysfs: device/model and device/serial (NVMe: the controller's,
 * or with native multipath the subsystem's, both there), SCSI and SATA
 * device/model and the serial of VPD page 0x80, virtio-blk's serial on
 * the disk itself.  A partition has its disk's.  The disk is found by its
 * device number (/sys/dev/block/MAJ:MIN), and only while the device there
 * still has the name the module reports: a missing member's number, or a
 * failed member's after its disk went away, may be another disk's now.
 * "" where there is none (dm, md, loop, null_blk).
 */
static void member_ident(const struct vraid_member_info *m, char *model,
			 char *serial)
{
	char dir[512], up[sizeof(dir) + 3], link[512], part[16];
	size_t namelen = strnlen(m->dev_name, sizeof(m->dev_name));
	const char *base, *disk = dir;
	ssize_t n;

	model[0] = serial[0] = '\0';
	if (m->state == VRAID_MEMBER_MISSING || !namelen)
		return;
	snprintf(dir, sizeof(dir), "%s/dev/block/%u:%u", sysfs_root(),
		 m->major, m->minor);
	n = readlink(dir, link, sizeof(link) - 1);
	if (n <= 0)
		return;
	link[n] = '\0';
	base = strrchr(link, '/');
	base = base ? base + 1 : link;
	/* sysfs writes a '/' in a disk's name as '!' (cciss!c0d0) */
	for (n = 0; (size_t)n < namelen; n++)
		if (base[n] != (m->dev_name[n] == '/' ? '!' : m->dev_name[n]))
			return;
	if (base[namelen])
		return;
	/* a partition's directory is in its disk's (sysfs resolves "..") */
	if (sysfs_line(dir, "partition", part, sizeof(part))[0]) {
		snprintf(up, sizeof(up), "%s/..", dir);
		disk = up;
	}
	sysfs_line(disk, "device/model", model, IDENT_LEN);
	if (!sysfs_line(disk, "device/serial", serial, IDENT_LEN)[0] &&
	    !sysfs_line(disk, "serial", serial, IDENT_LEN)[0])
		vpd_serial(disk, serial, IDENT_LEN);
}

/*
 * The VD's UUID, 8-4-4-4-12 as examine prints it (@bufsz at least 37):
 * /sys/block/vraidN/vraid/uuid, or, from a module before it, what an
 * Online member's metadata says (vd_uuid(): root only); "" if neither.
 */
char *vd_uuid_text(const struct vraid_info *in, char *buf, size_t bufsz)
{
	uint8_t uuid[VRAID_MD_UUID_LEN];
	char dir[512];
	size_t i;

	snprintf(dir, sizeof(dir), "%s/block/%s%u/vraid", sysfs_root(),
		 VRAID_DISK_PREFIX, in->index);
	sysfs_line(dir, "uuid", buf, bufsz);
	for (i = 0; buf[i]; i++)
		if (!strchr("0123456789abcdef-", buf[i]))
			break;
	if (i == 36 && !buf[i])
		return buf;
	buf[0] = '\0';
	if (bufsz >= 37 && vd_uuid(in, uuid))
		uuid_str(buf, uuid);
	return buf;
}

/* A JSON string, or null if @s is empty. */
static void json_string_or_null(struct json *j, const char *key, const char *s)
{
	if (*s)
		json_string(j, key, s, SIZE_MAX);
	else
		json_null(j, key);
}

static void show_json(const struct vraid_info *in)
{
	char vd[32], dev[40], uuid[IDENT_LEN], model[IDENT_LEN],
	     serial[IDENT_LEN];
	const struct vraid_member_info *m;
	struct json j = { 0 };
	uint32_t i;

	snprintf(vd, sizeof(vd), "%s%u", VRAID_DISK_PREFIX, in->index);
	snprintf(dev, sizeof(dev), "/dev/%s", vd);
	json_begin_object(&j, NULL);
	json_string(&j, "vd", vd, sizeof(vd));
	json_u64(&j, "index", in->index);
	json_string(&j, "device", dev, sizeof(dev));
	json_string(&j, "name", in->name, sizeof(in->name));
	json_string(&j, "level", VNAME(levels, in->level, true), SIZE_MAX);
	json_string(&j, "state", VNAME(vd_states, in->state, true), SIZE_MAX);
	json_u64(&j, "size_bytes", in->size_sectors * SECTOR_BYTES);
	json_u64(&j, "strip_bytes", strip_of(in));
	json_u64(&j, "spans", in->spans);
	json_u64(&j, "full_stripe_bytes", strip_of(in) * data_members(in));
	json_u64(&j, "data_offset_bytes", in->data_offset_sectors * SECTOR_BYTES);
	json_u64(&j, "member_data_bytes", in->member_data_sectors * SECTOR_BYTES);
	json_u64(&j, "logical_block_size", in->logical_block_size);
	json_u64(&j, "open_count", in->open_count);
	json_begin_object(&j, "policies");
	json_string(&j, "access", VNAME(access_pols, in->access_policy, true), SIZE_MAX);
	json_string(&j, "disk_cache", VNAME(dcache_pols, in->disk_cache_policy, true),
		    SIZE_MAX);
	json_string(&j, "io", VNAME(io_pols, in->io_policy, true), SIZE_MAX);
	json_string(&j, "read", VNAME(read_pols, in->read_policy, true), SIZE_MAX);
	json_string(&j, "write", VNAME(write_pols, in->write_policy, true), SIZE_MAX);
	json_end_object(&j);
	json_begin_array(&j, "members");
	for (i = 0; i < in->nr_members; i++) {
		m = &in->members[i];
		json_begin_object(&j, NULL);
		json_u64(&j, "role", m->role);
		json_dev(&j, "device", m->dev_name, sizeof(m->dev_name));
		json_u64(&j, "major", m->major);
		json_u64(&j, "minor", m->minor);
		json_string(&j, "state", VNAME(member_states, m->state, true), SIZE_MAX);
		json_u64(&j, "size_bytes", m->dev_sectors * SECTOR_BYTES);
		json_u64(&j, "data_bytes", m->data_sectors * SECTOR_BYTES);
		json_u64(&j, "read_ios", m->read_ios);
		json_u64(&j, "write_ios", m->write_ios);
		json_u64(&j, "errors", m->errors);
		member_ident(m, model, serial);
		json_string_or_null(&j, "model", model);
		json_string_or_null(&j, "serial", serial);
		json_end_object(&j);
	}
	json_end_array(&j);
	json_begin_object(&j, "job");
	json_string(&j, "type", VNAME(job_types, in->job_type, true), SIZE_MAX);
	json_string(&j, "state", in->job_type == VRAID_JOB_NONE ? "none" :
		    VNAME(job_states, in->job_state, true), SIZE_MAX);
	json_u64(&j, "done_bytes", in->job_done * SECTOR_BYTES);
	json_u64(&j, "total_bytes", in->job_total * SECTOR_BYTES);
	json_permille(&j, "percent", in->job_type == VRAID_JOB_NONE ? 0 :
		      job_permille(in));
	json_u64(&j, "eta_seconds", in->job_eta_sec);
	json_u64(&j, "rate_kib", in->job_rate_kib);
	json_u64(&j, "mismatches", in->job_mismatches);
	json_end_object(&j);
	json_begin_object(&j, "last_job");
	json_string(&j, "type", VNAME(job_types, in->last_job, true), SIZE_MAX);
	json_u64(&j, "result", in->last_result);
	json_u64(&j, "mismatches", in->last_mismatches);
	json_last_job_result(&j, in->last_job, in->last_result);
	json_end_object(&j);
	json_begin_object(&j, "write_in_effect");
	json_string(&j, "mode", VNAME(write_effs, in->write_policy_effective, true),
		    SIZE_MAX);
	json_string(&j, "why", write_why(in, true), SIZE_MAX);
	json_end_object(&j);
	json_string_or_null(&j, "uuid", vd_uuid_text(in, uuid, sizeof(uuid)));
	json_end_object(&j);
}

static int show_human(const struct vraid_info *in)
{
	struct table t = {
		.ncol = 9,
		.head = { "ROLE", "DEVICE", "MAJ:MIN", "STATE", "SIZE", "USED",
			  "READS", "WRITES", "ERRORS" },
		.right = { [0] = true, [4] = true, [5] = true, [6] = true,
			   [7] = true, [8] = true },
	};
	struct table ids = {
		.ncol = 4,
		.head = { "ROLE", "DEVICE", "MODEL", "SERIAL" },
		.right = { [0] = true },
	};
	char a[TCELL], b[VRAID_DEVNAME_LEN + 1], j[256];
	char model[IDENT_LEN], serial[IDENT_LEN];
	char (*r)[TCELL], (*d)[TCELL];
	uint64_t full = strip_of(in) * data_members(in);
	uint32_t i;

#define FIELD "%-20s"
	printf(FIELD "%s%u\n", "Virtual drive:", VRAID_DISK_PREFIX, in->index);
	tty_str(a, sizeof(a), in->name, sizeof(in->name));
	printf(FIELD "%s\n", "Name:", a[0] ? a : "-");
	printf(FIELD "%s\n", "UUID:", vd_uuid_text(in, a, sizeof(a))[0] ? a : "-");
	printf(FIELD "/dev/%s%u\n", "Device:", VRAID_DISK_PREFIX, in->index);
	printf(FIELD "%s\n", "Level:", VNAME(levels, in->level, false));
	printf(FIELD "%s\n", "State:", VNAME(vd_states, in->state, false));
	printf(FIELD "%s (%llu bytes)\n", "Size:",
	       human_size(a, sizeof(a), in->size_sectors * SECTOR_BYTES),
	       (unsigned long long)(in->size_sectors * SECTOR_BYTES));
	printf(FIELD "%s\n", "Strip:",
	       strip_of(in) ? human_size(a, sizeof(a), strip_of(in)) : "-");
	if (in->spans)
		printf(FIELD "%u\n", "Spans:", in->spans);
	printf(FIELD "%s\n", "Full stripe:", full ? human_size(a, sizeof(a), full) : "-");
	printf(FIELD "%s (sector %llu) on each member\n", "Data offset:",
	       human_size(a, sizeof(a), in->data_offset_sectors * SECTOR_BYTES),
	       (unsigned long long)in->data_offset_sectors);
	printf(FIELD "%s per member\n", "Member data:",
	       human_size(a, sizeof(a), in->member_data_sectors * SECTOR_BYTES));
	printf(FIELD "%u bytes\n", "Logical block size:", in->logical_block_size);
	printf(FIELD "%u\n", "Open count:", in->open_count);
	printf(FIELD "Access: %s, Disk cache: %s, I/O: %s, Read: %s, Write: %s\n",
	       "Policies:",
	       VNAME(access_pols, in->access_policy, false),
	       VNAME(dcache_pols, in->disk_cache_policy, false),
	       VNAME(io_pols, in->io_policy, false),
	       VNAME(read_pols, in->read_policy, false),
	       VNAME(write_pols, in->write_policy, false));
	if (*write_why(in, false))
		printf(FIELD "%s, because %s\n", "Write in effect:",
		       VNAME(write_effs, in->write_policy_effective, false),
		       write_why(in, false));
	else if (in->write_policy_effective == VRAID_WEFF_BACK_VOLATILE)
		printf(FIELD "%s: %s\n", "Write in effect:",
		       VNAME(write_effs, in->write_policy_effective, false),
		       VOLATILE_NOTE);
	else if (in->write_policy_effective == VRAID_WEFF_BACK)
		printf(FIELD "%s: %s\n", "Write in effect:",
		       VNAME(write_effs, in->write_policy_effective, false),
		       JOURNALLED_NOTE);
	else
		printf(FIELD "%s\n", "Write in effect:",
		       VNAME(write_effs, in->write_policy_effective, false));
	if (in->job_type != VRAID_JOB_NONE)
		printf(FIELD "%s\n", "Job:", job_progress(j, sizeof(j), in, false));
	else if (in->job_rate_kib)
		printf(FIELD "none (rate limit %s per member)\n", "Job:",
		       fmt_rate(a, sizeof(a), in->job_rate_kib));
	else
		printf(FIELD "none\n", "Job:");
	printf(FIELD "%s\n", "Last job:", job_outcome(j, sizeof(j), in, true));
#undef FIELD
	printf("\n");
	for (i = 0; i < in->nr_members; i++) {
		const struct vraid_member_info *m = &in->members[i];

		if (!(r = table_row(&t)) || !(d = table_row(&ids))) {
			free(t.row);
			free(ids.row);
			errmsg("out of memory");
			return RC_FAIL;
		}
		snprintf(r[0], TCELL, "%u", m->role);
		tty_str(b, sizeof(b), m->dev_name, sizeof(m->dev_name));
		snprintf(r[1], TCELL, "%s%s", b[0] ? "/dev/" : "-", b);
		strcpy(d[0], r[0]);
		strcpy(d[1], r[1]);
		member_ident(m, model, serial);
		tty_str(d[2], TCELL, model[0] ? model : "-", IDENT_LEN);
		tty_str(d[3], TCELL, serial[0] ? serial : "-", IDENT_LEN);
		snprintf(r[2], TCELL, "%u:%u", m->major, m->minor);
		snprintf(r[3], TCELL, "%s", VNAME(member_states, m->state, false));
		human_size(r[4], TCELL, m->dev_sectors * SECTOR_BYTES);
		human_size(r[5], TCELL, m->data_sectors * SECTOR_BYTES);
		snprintf(r[6], TCELL, "%llu", (unsigned long long)m->read_ios);
		snprintf(r[7], TCELL, "%llu", (unsigned long long)m->write_ios);
		snprintf(r[8], TCELL, "%llu", (unsigned long long)m->errors);
	}
	table_print(&t);
	free(t.row);
	/* which disk each member is, to find it in the machine */
	printf("\n");
	table_print(&ids);
	free(ids.row);
	return RC_OK;
}

int cmd_show(int argc, char **argv)
{
	struct vraid_info in;
	const char *pos[1];
	bool json = false;
	size_t npos;
	struct ctl c;
	int rc;

	rc = parse_args("show", argc, argv, NULL, NULL, &json, pos, 1, &npos);
	if (rc >= 0)
		return rc;
	if (npos != 1)
		return usage_error("show", npos ? "name one virtual drive only" :
				   "name the virtual drive to show (e.g. vraid0)");
	if (open_vd(&c, false, pos[0], &in, NULL, 0))
		return RC_FAIL;
	close(c.fd);
	if (json) {
		show_json(&in);
		return RC_OK;
	}
	return show_human(&in);
}

int cmd_version(int argc, char **argv)
{
	struct vraid_list l;
	const char *pos[1];
	size_t npos;
	struct ctl c;
	int rc, e;

	rc = parse_args("version", argc, argv, NULL, NULL, NULL, pos, 1, &npos);
	if (rc >= 0)
		return rc;
	if (npos)
		return usage_error("version", "unexpected argument '%s'", pos[0]);
	printf("vraidctl %s (ABI %d.%d)\n", VRAIDCTL_VERSION,
	       VRAID_ABI_MAJOR, VRAID_ABI_MINOR);

	ctl_path(&c);
	c.fd = open(c.path, O_RDONLY | O_CLOEXEC);
	if (c.fd < 0) {
		e = errno;
		printf("module ABI: unknown (%s: %s)\n", c.path,
		       e == ENOENT ? "not found, vraid module not loaded" : strerror(e));
	} else {
		memset(&l, 0, sizeof(l));
		e = ctl_ioctl(&c, VRAID_IOC_LIST, &l, sizeof(l));
		close(c.fd);
		if (!e || c.replied)
			printf("module ABI: %d.%d%s\n", l.hdr.version_major,
			       l.hdr.version_minor,
			       l.hdr.version_major != VRAID_ABI_MAJOR ?
			       " (differs from vraidctl's: use the vraidctl built with the module)" : "");
		else
			printf("module ABI: unknown (%s: %s)\n", c.path,
			       e == ENOTTY ? "not the vraid control device" : strerror(e));
	}
	return RC_OK;
}
