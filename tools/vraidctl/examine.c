// SPDX-License-Identifier: GPL-2.0
/*
 * vraidctl: examine: what the metadata on a device says.
 */
#include "vraidctl.h"

int read_copy(int fd, const char *dev, struct md_copy *c)
{
	void *buf;
	ssize_t n;

	if (posix_memalign(&buf, VRAID_MD_BLOCK, VRAID_MD_BLOCK))
		return -ENOMEM;
	n = pread(fd, buf, VRAID_MD_BLOCK, (off_t)(c->sector * 512));
	if (n != VRAID_MD_BLOCK) {
		snprintf(c->why, sizeof(c->why), "cannot read %s at byte %llu: %s",
			 dev, (unsigned long long)(c->sector * 512),
			 n < 0 ? strerror(errno) : "short read");
		c->status = -EIO;
		c->sp_status = -EIO;
		snprintf(c->sp_why, sizeof(c->sp_why), "%s", c->why);
	} else {
		c->status = vraid_md_decode(buf, &c->md, c->why, sizeof(c->why));
		c->sp_status = vraid_sprec_decode(buf, &c->sp, c->sp_why,
						  sizeof(c->sp_why));
	}
	free(buf);
	return 0;
}

static const char *copy_status(const struct md_copy *c)
{
	return !c->status ? "valid" : c->status == -ENODATA ? "none" : "bad";
}

/*
 * Say why DEV (as the user typed it) cannot be opened, and what to give
 * instead, rather than a bare strerror().
 */
static void open_failed(const char *dev, int e)
{
	switch (e) {
	case ENOENT:
	case ENOTDIR:
		errmsg("cannot open %s: no such device; give a block device, e.g. /dev/sdb (see lsblk)",
		       dev);
		break;
	case EACCES:
	case EPERM:
		errmsg("cannot open %s: permission denied; run vraidctl as root", dev);
		break;
	case ENXIO:
	case ENODEV:
		errmsg("cannot open %s: no device behind the device node (%s); give a block device that is present, e.g. /dev/sdb (see lsblk)",
		       dev, errname(e));
		break;
	default:
		errmsg("cannot open %s: %s (%s)", dev, strerror(e), errname(e));
	}
}

/* examine DEV --json for a device without a journal's magic */
static void examine_json(const char *dev, const struct md_copy *copies,
			 const struct md_copy *best)
{
	const struct vraid_md *md;
	struct json j = { 0 };
	char u[40];
	size_t i;

	json_begin_object(&j, NULL);
	json_string(&j, "device", dev, strlen(dev) + 1);
	json_begin_array(&j, "copies");
	for (i = 0; i < 2; i++) {
		json_begin_object(&j, NULL);
		json_string(&j, "copy", copies[i].label, SIZE_MAX);
		json_u64(&j, "offset_bytes", copies[i].sector * 512);
		json_string(&j, "status", copy_status(&copies[i]), SIZE_MAX);
		if (!copies[i].status)
			json_u64(&j, "generation", copies[i].md.generation);
		else if (copies[i].status != -ENODATA)
			json_string(&j, "error", copies[i].why,
				    sizeof(copies[i].why));
		json_end_object(&j);
	}
	json_end_array(&j);
	if (best) {
		md = &best->md;
		uuid_str(u, md->vd_uuid);
		json_string(&j, "vd_uuid", u, sizeof(u));
		json_string(&j, "name", md->name, sizeof(md->name));
		json_string(&j, "level", VNAME(levels, md->level, true),
			    SIZE_MAX);
		json_u64(&j, "nr_members", md->nr_members);
		json_u64(&j, "role", md->role);
		json_u64(&j, "strip_bytes",
			 md->level == VRAID_LEVEL_JBOD ? 0 : md->strip_bytes);
		json_u64(&j, "spans", md->level == VRAID_LEVEL_50 ||
				      md->level == VRAID_LEVEL_60 ? md->spans : 0);
		json_u64(&j, "size_bytes", md->size_sectors * 512);
		json_u64(&j, "member_data_bytes", md->member_sectors * 512);
		json_u64(&j, "data_offset_bytes", md->data_offset * 512);
		json_u64(&j, "metadata_version", md->version);
		json_u64(&j, "generation", md->generation);
		json_u64(&j, "created", md->created);
		json_bool(&j, "clean", md->flags & VRAID_MD_F_CLEAN);
		json_begin_array(&j, "members");
		for (i = 0; i < md->nr_members; i++) {
			uuid_str(u, md->members[i].uuid);
			json_begin_object(&j, NULL);
			json_u64(&j, "role", i);
			json_string(&j, "uuid", u, sizeof(u));
			json_string(&j, "state", VNAME(member_states,
						       md->members[i].state,
						       true), SIZE_MAX);
			json_u64(&j, "size_bytes",
				 md->members[i].dev_sectors * 512);
			json_u64(&j, "rebuilt_bytes",
				 md->members[i].rebuilt_to * 512);
			json_bool(&j, "second_copy", md->members[i].flags &
				  VRAID_MD_MEMBER_SECOND_COPY);
			json_end_object(&j);
		}
		json_end_array(&j);
		json_u64(&j, "init_done_bytes", md->init_pos * 512);
		json_begin_object(&j, "job");
		json_string(&j, "type", VNAME(job_types, md->job_type, true),
			    SIZE_MAX);
		json_bool(&j, "paused", md->job_flags & VRAID_MD_JOB_PAUSED);
		json_u64(&j, "done_bytes", md->job_pos * 512);
		json_u64(&j, "rate_kib", md->job_rate_kib);
		json_end_object(&j);
		json_begin_object(&j, "last_job");
		json_string(&j, "type", VNAME(job_types, md->last_job, true),
			    SIZE_MAX);
		json_u64(&j, "result", md->last_result);
		json_u64(&j, "mismatches", md->last_mismatches);
		json_last_job_result(&j, md->last_job, md->last_result);
		json_end_object(&j);
		json_bool(&j, "volatile_cache",
			  md->cache_flags & VRAID_MD_CF_VOLATILE);
		if (md->cache_flags & VRAID_MD_CF_JOURNAL) {
			uuid_str(u, md->journal_uuid);
			json_begin_object(&j, "journal");
			json_string(&j, "uuid", u, sizeof(u));
			json_u64(&j, "floor", md->journal_floor);
			json_end_object(&j);
		} else {
			json_null(&j, "journal");
		}
	}
	json_end_object(&j);
}

/*
 * examine --export: KEY=VALUE lines for a udev rule's IMPORT{program}
 * (packaging/udev/64-vraid-members.rules), as blkid --export and mdadm
 * --examine --export give them: ID_FS_TYPE=vraid_member (or
 * vraid_journal) makes lsblk -f, blkid's users and wipefs's readers see
 * what the device is; ID_FS_USAGE=raid keeps udev's by-uuid links off the
 * members (they share the VD's UUID); VRAID_* name the VD and the role.
 * Nothing printed and exit status 1 for a device vraid knows nothing of.
 */
static int examine_export(const struct vraid_md *md, const struct jsb_slots *js)
{
	char u[40];

	if (md) {
		uuid_str(u, md->vd_uuid);
		printf("ID_FS_TYPE=vraid_member\nID_FS_USAGE=raid\n");
		printf("ID_FS_UUID=%s\nID_FS_UUID_ENC=%s\n", u, u);
		if (md->name[0])
			/* (names are letters, digits, '.', '_', '-': safe) */
			printf("ID_FS_LABEL=%.*s\nID_FS_LABEL_ENC=%.*s\n",
			       (int)sizeof(md->name), md->name,
			       (int)sizeof(md->name), md->name);
		printf("VRAID_UUID=%s\n", u);
		if (md->name[0])
			printf("VRAID_NAME=%.*s\n", (int)sizeof(md->name),
			       md->name);
		printf("VRAID_LEVEL=%s\nVRAID_MEMBERS=%u\nVRAID_ROLE=%u\n",
		       VNAME(levels, md->level, true), md->nr_members,
		       md->role);
		if (md->role < md->nr_members) {
			uuid_str(u, md->members[md->role].uuid);
			printf("VRAID_MEMBER_UUID=%s\n", u);
		}
		printf("VRAID_GENERATION=%llu\nVRAID_CLEAN=%d\n",
		       (unsigned long long)md->generation,
		       !!(md->flags & VRAID_MD_F_CLEAN));
		return RC_OK;
	}
	if (js && js->pick >= 0) {
		uuid_str(u, js->sb[js->pick].uuid);
		printf("ID_FS_TYPE=vraid_journal\nID_FS_USAGE=raid\n");
		printf("ID_FS_UUID=%s\nID_FS_UUID_ENC=%s\n", u, u);
		printf("VRAID_JOURNAL_UUID=%s\n", u);
		return RC_OK;
	}
	return RC_FAIL;
}

/*
 * examine DEV for a device whose hot spare record (copy @k of @copies)
 * decides what it is: text, --json or --export.
 */
static int examine_spare(const char *dev, const struct md_copy *copies,
			 int k, bool json, bool export)
{
	const struct vraid_sprec *sp = &copies[k].sp;
	bool ded = sp->flags & VRAID_SPREC_F_DEDICATED;
	char u[40], vu[40], sz[32], date[48];
	struct json j = { 0 };
	int i;

	uuid_str(u, sp->uuid);
	uuid_str(vu, sp->vd_uuid);
	if (export) {
		/* a member of vraid's to lsblk and blkid, as md's spares */
		printf("ID_FS_TYPE=vraid_member\nID_FS_USAGE=raid\n");
		printf("ID_FS_UUID=%s\nID_FS_UUID_ENC=%s\n", u, u);
		printf("VRAID_SPARE_UUID=%s\nVRAID_SPARE_FOR=%s\n", u,
		       ded ? vu : "global");
		printf("VRAID_GENERATION=%llu\n",
		       (unsigned long long)sp->generation);
		return RC_OK;
	}
	if (json) {
		json_begin_object(&j, NULL);
		json_string(&j, "device", dev, strlen(dev) + 1);
		json_string(&j, "kind", "spare", SIZE_MAX);
		json_begin_array(&j, "copies");
		for (i = 0; i < 2; i++) {
			json_begin_object(&j, NULL);
			json_string(&j, "copy", copies[i].label, SIZE_MAX);
			json_u64(&j, "offset_bytes", copies[i].sector * 512);
			json_string(&j, "status", !copies[i].sp_status ? "spare" :
				    !copies[i].status ? "member" :
				    copies[i].sp_status == -ENODATA &&
				    copies[i].status == -ENODATA ? "none" : "bad",
				    SIZE_MAX);
			if (!copies[i].sp_status)
				json_u64(&j, "generation",
					 copies[i].sp.generation);
			json_end_object(&j);
		}
		json_end_array(&j);
		json_string(&j, "spare_uuid", u, sizeof(u));
		json_string(&j, "dedicated_to", ded ? vu : "", sizeof(vu));
		json_u64(&j, "generation", sp->generation);
		json_u64(&j, "created", sp->created);
		json_u64(&j, "size_bytes", sp->dev_sectors * 512);
		json_end_object(&j);
		return RC_OK;
	}
	printf("Device:          %s\n", dev);
	for (i = 0; i < 2; i++) {
		printf("Copy %s:          ", copies[i].label);
		if (!copies[i].sp_status)
			printf("hot spare record (generation %llu)\n",
			       (unsigned long long)copies[i].sp.generation);
		else if (!copies[i].status)
			printf("member metadata (generation %llu), older: not used\n",
			       (unsigned long long)copies[i].md.generation);
		else if (copies[i].sp_status == -ENODATA &&
			 copies[i].status == -ENODATA)
			printf("none\n");
		else
			printf("bad: %s\n", copies[i].sp_status != -ENODATA ?
			       copies[i].sp_why : copies[i].why);
	}
	printf("Hot spare:       %s%s\n", ded ? "dedicated to VD " : "global",
	       ded ? vu : " (for any redundant virtual drive)");
	printf("Spare UUID:      %s\n", u);
	printf("Added:           %s\n", utc_date(date, sizeof(date), sp->created));
	printf("Size:            %s (when added)\n",
	       human_size(sz, sizeof(sz), sp->dev_sectors * 512));
	printf("Generation:      %llu (record version %u)\n",
	       (unsigned long long)sp->generation, sp->version);
	return RC_OK;
}

int cmd_examine(int argc, char **argv)
{
	struct md_copy copies[2] = {
		{ .label = "A", .sector = VRAID_MD_COPY_A },
		{ .label = "B", .sector = VRAID_MD_COPY_B },
	};
	const struct md_copy *best = NULL;
	const struct vraid_md *md;
	const char *pos[1];
	char u[40], sz[32], sz2[32], date[48];
	struct jsb_slots js;
	bool json = false, export;
	size_t npos, i;
	int rc, fd;

	export = take_flag(&argc, argv, "--export");
	rc = parse_args("examine", argc, argv, NULL, NULL, &json, pos, 1, &npos);
	if (rc >= 0)
		return rc;
	if (npos != 1)
		return usage_error("examine", "name one device (e.g. /dev/nvme0n1)");
	if (export && json)
		return usage_error("examine", "--export and --json: choose one");
	fd = open(pos[0], O_RDONLY | O_DIRECT);
	if (fd < 0 && errno == EINVAL)
		fd = open(pos[0], O_RDONLY);
	if (fd < 0) {
		/* (a udev rule asks of every device: no word on stderr) */
		if (!export)
			open_failed(pos[0], errno);
		return RC_FAIL;
	}
	for (i = 0; i < 2; i++) {
		read_copy(fd, pos[0], &copies[i]);
		if (!copies[i].status &&
		    (!best || copies[i].md.generation > best->md.generation))
			best = &copies[i];
	}
	/*
	 * A hot spare record in copy A makes a spare whatever copy B says
	 * (spare_copy(), probe.c): it is written first.
	 */
	if (copies[0].status && !copies[0].sp_status) {
		close(fd);
		return examine_spare(pos[0], copies, 0, json, export);
	}
	/*
	 * Copy A and the journal's slot 0 share byte 4096: without a valid
	 * copy A, the journal magic in a slot makes DEV a journal (whose
	 * ring, at byte 1 MiB, may hold an old copy B).
	 */
	if (copies[0].status) {
		jsb_read(fd, pos[0], &js);
		if (export && jsb_magic(&js)) {
			close(fd);
			return examine_export(NULL, &js);
		}
		if (jsb_magic(&js))
			return examine_journal(pos[0], fd, &js, json);
	}
	close(fd);
	if (!best && !copies[1].sp_status)
		return examine_spare(pos[0], copies, 1, json, export);
	if (export)
		return examine_export(best ? &best->md : NULL, NULL);

	if (json) {
		examine_json(pos[0], copies, best);
		return best ? RC_OK : RC_FAIL;
	}

	printf("Device:          %s\n", pos[0]);
	for (i = 0; i < 2; i++) {
		printf("Copy %s:          %s", copies[i].label, copy_status(&copies[i]));
		if (!copies[i].status)
			printf(" (generation %llu)",
			       (unsigned long long)copies[i].md.generation);
		else if (copies[i].status != -ENODATA)
			printf(": %s", copies[i].why);
		putchar('\n');
	}
	if (!best) {
		errmsg("%s: no valid vraid metadata (and no vraid journal superblock)",
		       pos[0]);
		return RC_FAIL;
	}
	md = &best->md;
	uuid_str(u, md->vd_uuid);
	printf("VD UUID:         %s\n", u);
	printf("Name:            %s\n", md->name[0] ? md->name : "-");
	printf("Level:           %s\n", VNAME(levels, md->level, false));
	printf("Members:         %u (this device is role %u)\n", md->nr_members, md->role);
	if (md->level != VRAID_LEVEL_JBOD)
		printf("Strip:           %s\n", human_size(sz, sizeof(sz), md->strip_bytes));
	if (md->level == VRAID_LEVEL_50 || md->level == VRAID_LEVEL_60)
		printf("Spans:           %u\n", md->spans);
	printf("Size:            %s (%llu bytes)\n",
	       human_size(sz, sizeof(sz), md->size_sectors * 512),
	       (unsigned long long)md->size_sectors * 512);
	printf("Member data:     %s from %s (sector %llu)\n",
	       human_size(sz, sizeof(sz), md->member_sectors * 512),
	       human_size(sz2, sizeof(sz2), md->data_offset * 512),
	       (unsigned long long)md->data_offset);
	printf("Generation:      %llu (metadata version %u)\n",
	       (unsigned long long)md->generation, md->version);
	printf("Created:         %s\n",
	       utc_date(date, sizeof(date), md->created));
	printf("Policies:        Access: %s, Disk cache: %s, I/O: %s, Read: %s, Write: %s\n",
	       VNAME(access_pols, md->access_policy, false),
	       VNAME(dcache_pols, md->disk_cache_policy, false),
	       VNAME(io_pols, md->io_policy, false),
	       VNAME(read_pols, md->read_policy, false),
	       VNAME(write_pols, md->write_policy, false));
	printf("Shutdown:        %s\n", md->flags & VRAID_MD_F_CLEAN ?
	       "clean (stopped)" : "not clean (running, or it crashed)");
	if (md->cache_flags & VRAID_MD_CF_JOURNAL) {
		uuid_str(u, md->journal_uuid);
		printf("Journal:         %s, from seq %llu: it may hold acknowledged writes of this VD, replayed at assembly\n",
		       u, (unsigned long long)md->journal_floor);
	}
	if (md->cache_flags & VRAID_MD_CF_VOLATILE)
		printf("Write cache:     volatile (write policy awb)%s\n",
		       md->flags & VRAID_MD_F_CLEAN ? "" :
		       ": if it crashed, writes not flushed may be lost");
	if (md->level == VRAID_LEVEL_JBOD || md->level == VRAID_LEVEL_0)
		;
	else if (md->init_pos >= md->member_sectors)
		printf("Initialised:     yes\n");
	else
		printf("Initialised:     %.1f%% (init checkpoint at sector %llu of %llu)\n",
		       md->member_sectors ? 100.0 * md->init_pos / md->member_sectors : 0.0,
		       (unsigned long long)md->init_pos,
		       (unsigned long long)md->member_sectors);
	if (md->job_type != VRAID_JOB_NONE)
		printf("Job checkpoint:  %s at sector %llu of %llu%s%s\n",
		       VNAME(job_types, md->job_type, false),
		       (unsigned long long)md->job_pos,
		       (unsigned long long)md->member_sectors,
		       md->job_flags & VRAID_MD_JOB_PAUSED ? ", paused" : "",
		       md->job_type == VRAID_JOB_CHECK ||
		       md->job_type == VRAID_JOB_REPAIR ? "" :
		       " (resumes at assembly)");
	if (md->job_rate_kib)
		printf("Job rate limit:  %u KiB/s per member\n", md->job_rate_kib);
	if (md->last_job != VRAID_JOB_NONE)
		printf("Last job:        %s, %s%s, %llu mismatch%s\n",
		       VNAME(job_types, md->last_job, false),
		       md->last_result ? "ended: " : "done",
		       md->last_result ? strerror((int)md->last_result) : "",
		       (unsigned long long)md->last_mismatches,
		       md->last_mismatches == 1 ? "" : "es");
	printf("\nROLE  MEMBER UUID                           STATE   SIZE\n");
	for (i = 0; i < md->nr_members; i++) {
		uuid_str(u, md->members[i].uuid);
		printf("%4zu  %s  %-7s %s%s", i, u,
		       VNAME(member_states, md->members[i].state, false),
		       human_size(sz, sizeof(sz), md->members[i].dev_sectors * 512),
		       i == md->role ? "  (this device)" : "");
		/* its own rebuild position (version 1: the job's) */
		if (md->members[i].state == VRAID_MEMBER_REBUILDING)
			printf("  rebuilt to sector %llu",
			       (unsigned long long)md->members[i].rebuilt_to);
		if (md->members[i].flags & VRAID_MD_MEMBER_SECOND_COPY)
			printf("  second copy until the resync");
		putchar('\n');
	}
	return RC_OK;
}
