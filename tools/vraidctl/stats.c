// SPDX-License-Identifier: GPL-2.0
/*
 * vraidctl: stats: I/O counters and rates.
 */
#include "vraidctl.h"

/* sysfs, or a tree standing in for it (VRAIDCTL_SYSFS, for tests) */
const char *sysfs_root(void)
{
	const char *e = getenv("VRAIDCTL_SYSFS");

	return e && *e ? e : "/sys";
}

static bool read_blk_stat(const char *name, struct blk_stat *s)
{
	unsigned long long v[17] = { 0 };
	char path[512];
	FILE *f;
	int n;

	memset(s, 0, sizeof(*s));
	snprintf(path, sizeof(path), "%s/class/block/%s/stat", sysfs_root(),
		 name);
	f = fopen(path, "r");
	if (!f)
		return false;
	n = fscanf(f, "%llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu",
		   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7],
		   &v[8], &v[9], &v[10], &v[11], &v[12], &v[13], &v[14],
		   &v[15], &v[16]);
	fclose(f);
	if (n < 11)
		return false;
	s->rios = v[0];
	s->rsect = v[2];
	s->wios = v[4];
	s->wsect = v[6];
	s->inflight = v[8];
	s->fios = n >= 16 ? v[15] : 0;
	s->ok = true;
	return true;
}

/* /sys/block/vraidN/vraid/ATTR as a number */
bool read_vd_attr(uint32_t index, const char *attr, uint64_t *val)
{
	unsigned long long v;
	char path[512];
	FILE *f;
	int n;

	snprintf(path, sizeof(path), "%s/block/%s%u/vraid/%s", sysfs_root(),
		 VRAID_DISK_PREFIX, index, attr);
	f = fopen(path, "r");
	if (!f)
		return false;
	n = fscanf(f, "%llu", &v);
	fclose(f);
	*val = v;
	return n == 1;
}

/*
 * One look at the VD @index: RC_OK, RC_FAIL (said), or with @quiet_gone
 * -1 if it is gone (stopped or deleted since it was listed: nothing said).
 */
int take_sample(struct ctl *c, uint32_t index, struct stats_sample *s,
		bool quiet_gone)
{
	char name[VRAID_DEVNAME_LEN + 16], dev[VRAID_DEVNAME_LEN + 1];
	uint32_t i;
	int e;

	e = get_info(c, index, &s->in, quiet_gone);
	if (e)
		return quiet_gone && (e == ENOENT || e == ENXIO) ? -1 : RC_FAIL;
	s->t = now_sec();
	snprintf(name, sizeof(name), "%s%u", VRAID_DISK_PREFIX, index);
	if (!read_blk_stat(name, &s->vd) ||
	    !read_vd_attr(index, "flushes", &s->flushes) ||
	    !read_vd_attr(index, "read_repairs", &s->read_repairs)) {
		int err = errno;

		/* gone between INFO and sysfs: as gone before INFO */
		if (quiet_gone && (e = get_info(c, index, &s->in, true)) &&
		    (e == ENOENT || e == ENXIO))
			return -1;
		errmsg("cannot read the counters of %s under %s/block/%s: %s",
		       name, sysfs_root(), name, strerror(err));
		hintmsg("stats needs sysfs mounted at /sys (mount -t sysfs sysfs /sys)");
		return RC_FAIL;
	}
	s->cache = read_vd_attr(index, "cache_read_hits", &s->chits) &&
		   read_vd_attr(index, "cache_read_misses", &s->cmisses) &&
		   read_vd_attr(index, "cache_bytes", &s->cbytes);
	s->ra = s->cache &&
		read_vd_attr(index, "cache_ra_hits", &s->rahits) &&
		read_vd_attr(index, "cache_ra_pages", &s->rapages);
	s->wb = s->cache &&
		read_vd_attr(index, "cache_dirty_bytes", &s->dirty) &&
		read_vd_attr(index, "cache_write_pages", &s->wpages) &&
		read_vd_attr(index, "cache_destaged", &s->destaged);
	s->jl = s->wb &&
		read_vd_attr(index, "journal_writes", &s->jwrites) &&
		read_vd_attr(index, "journal_pages", &s->jpages);
	s->jr = s->jl && read_vd_attr(index, "journal_refs", &s->jrefs);
	s->fl = s->wb && read_vd_attr(index, "cache_fill_pages", &s->fpages);
	s->wt = s->wb &&
		read_vd_attr(index, "cache_dirty_waits", &s->dwaits) &&
		read_vd_attr(index, "journal_waits", &s->jwaits);
	for (i = 0; i < s->in.nr_members; i++) {
		const struct vraid_member_info *m = &s->in.members[i];

		memset(&s->m[i], 0, sizeof(s->m[i]));
		tty_str(dev, sizeof(dev), m->dev_name, sizeof(m->dev_name));
		if (dev[0] && !strchr(dev, '/'))
			read_blk_stat(dev, &s->m[i]);
	}
	return RC_OK;
}

/* counter growth per second; a counter that went back (reset) counts 0 */
static double rate(uint64_t now, uint64_t then, double dt)
{
	return now > then && dt > 0 ? (double)(now - then) / dt : 0.0;
}

/*
 * The "Cache:" lines of stats: the reads and what the VD holds on the
 * first, then one line per part that has something to say (read-ahead,
 * write-back, journal, writers held up), each under its own label, so
 * that no line runs on (they were one line of over 330 characters).
 */
#define CACHE_SUB "  %-13s"
static void stats_cache_line(const struct stats_sample *s)
{
	uint64_t all = s->chits + s->cmisses;
	bool rapol = s->in.read_policy == VRAID_READ_AHEAD;
	/* writes fill the cache: always write-back, or journalled write-back */
	bool awb = s->in.write_policy == VRAID_WRITE_BACK_ALWAYS ||
		   s->in.write_policy_effective == VRAID_WEFF_BACK;
	char a[TCELL];

	if (!s->cache) {
		printf("none: this module has no cache counters\n");
		return;
	}
	printf("%llu read hits, %llu misses",
	       (unsigned long long)s->chits, (unsigned long long)s->cmisses);
	if (all)
		printf(" (%.1f %% hits)", 100.0 * (double)s->chits / (double)all);
	printf(", %s held", human_size(a, sizeof(a), s->cbytes));
	/*
	 * direct: reads find what read-ahead and writes (always write-back)
	 * put in, but their misses fill nothing
	 */
	if (s->in.io_policy != VRAID_IO_CACHED) {
		if (rapol && awb)
			fputs(" (io policy direct: only read-ahead and writes fill it)", stdout);
		else if (rapol)
			fputs(" (io policy direct: only read-ahead fills it)", stdout);
		else if (awb)
			fputs(" (io policy direct: only writes fill it)", stdout);
		else
			fputs(" (io policy direct: reads do not use it)", stdout);
	}
	putchar('\n');
	/* the read-ahead part once there is anything to say about it */
	if (s->ra && (s->rapages || rapol))
		printf(CACHE_SUB "%llu hits of %llu pages read ahead\n",
		       "Read-ahead:", (unsigned long long)s->rahits,
		       (unsigned long long)s->rapages);
	/* the write-back part likewise (always write-back, ABI 1.8; wb 1.9) */
	if (s->wb && (s->dirty || s->wpages || s->destaged || awb)) {
		printf(CACHE_SUB "%s dirty, %llu pages written in, %llu destaged",
		       "Write-back:", human_size(a, sizeof(a), s->dirty),
		       (unsigned long long)s->wpages,
		       (unsigned long long)s->destaged);
		/* pages read to complete rows for their destage (disks) */
		if (s->fl && s->fpages)
			printf(" (%llu pages read to fill rows)",
			       (unsigned long long)s->fpages);
		putchar('\n');
	}
	if (s->jl && (s->jwrites ||
		      s->in.write_policy_effective == VRAID_WEFF_BACK)) {
		printf(CACHE_SUB "%llu writes logged, %llu pages", "Journal:",
		       (unsigned long long)s->jwrites,
		       (unsigned long long)s->jpages);
		/* destaged blocks that parity records named instead of logging */
		if (s->jr && s->jrefs)
			printf(" (%llu destaged pages named, not logged again)",
			       (unsigned long long)s->jrefs);
		putchar('\n');
	}
	/* writers held up by the cache's bounds, once there were any */
	if (s->wt && (s->dwaits || s->jwaits)) {
		printf(CACHE_SUB, "Waits:");
		if (s->dwaits)
			printf("%llu writes waited for destage (dirty bound)",
			       (unsigned long long)s->dwaits);
		if (s->jwaits)
			printf("%s%llu writes waited for the journal (unlogged bound)",
			       s->dwaits ? ", " : "",
			       (unsigned long long)s->jwaits);
		putchar('\n');
	}
}
#undef CACHE_SUB

/* "KEY":V of stats --json, or "KEY":null if the module has no such counter */
static void json_count(struct json *j, const char *key, bool have, uint64_t v)
{
	if (have)
		json_u64(j, key, v);
	else
		json_null(j, key);
}

/* "KEY_per_s":R over the interval, or null as json_count() */
static void json_rate(struct json *j, const char *key, bool have, uint64_t now,
		      uint64_t then, double dt)
{
	char k[40];

	snprintf(k, sizeof(k), "%s_per_s", key);
	if (have)
		json_fixed(j, k, rate(now, then, dt), 1);
	else
		json_null(j, k);
}

/* The "cache" value of stats --json: an object, or null. */
static void stats_cache_json(struct json *j, const struct stats_sample *a,
			     const struct stats_sample *b, double dt)
{
	if (!b->cache) {
		json_null(j, "cache");
		return;
	}
	json_begin_object(j, "cache");
	if (!a) {
		json_u64(j, "read_hits", b->chits);
		json_u64(j, "read_misses", b->cmisses);
		json_u64(j, "cached_bytes", b->cbytes);
		json_count(j, "ra_hits", b->ra, b->rahits);
		json_count(j, "ra_pages", b->ra, b->rapages);
		json_count(j, "dirty_bytes", b->wb, b->dirty);
		json_count(j, "write_pages", b->wb, b->wpages);
		json_count(j, "destaged_pages", b->wb, b->destaged);
		json_count(j, "journal_writes", b->jl, b->jwrites);
		json_count(j, "journal_pages", b->jl, b->jpages);
		json_count(j, "journal_refs", b->jr, b->jrefs);
		json_count(j, "fill_pages", b->fl, b->fpages);
		json_count(j, "dirty_waits", b->wt, b->dwaits);
		json_count(j, "journal_waits", b->wt, b->jwaits);
		json_end_object(j);
		return;
	}
	json_rate(j, "read_hits", true, b->chits, a->chits, dt);
	json_rate(j, "read_misses", true, b->cmisses, a->cmisses, dt);
	json_u64(j, "cached_bytes", b->cbytes);
	json_rate(j, "ra_hits", a->ra && b->ra, b->rahits, a->rahits, dt);
	json_rate(j, "ra_pages", a->ra && b->ra, b->rapages, a->rapages, dt);
	/* what is dirty at the interval's end, not a rate */
	json_count(j, "dirty_bytes", a->wb && b->wb, b->dirty);
	json_rate(j, "write_pages", a->wb && b->wb, b->wpages, a->wpages, dt);
	json_rate(j, "destaged_pages", a->wb && b->wb, b->destaged,
		  a->destaged, dt);
	json_rate(j, "journal_writes", a->jl && b->jl, b->jwrites, a->jwrites,
		  dt);
	json_rate(j, "journal_pages", a->jl && b->jl, b->jpages, a->jpages, dt);
	json_rate(j, "journal_refs", a->jr && b->jr, b->jrefs, a->jrefs, dt);
	json_rate(j, "fill_pages", a->fl && b->fl, b->fpages, a->fpages, dt);
	json_rate(j, "dirty_waits", a->wt && b->wt, b->dwaits, a->dwaits, dt);
	json_rate(j, "journal_waits", a->wt && b->wt, b->jwaits, a->jwaits,
		  dt);
	json_end_object(j);
}

static void stats_member_dev(char *buf, size_t bufsz,
			     const struct vraid_member_info *m)
{
	char b[VRAID_DEVNAME_LEN + 1];

	tty_str(b, sizeof(b), m->dev_name, sizeof(m->dev_name));
	snprintf(buf, bufsz, "%s%s", b[0] ? "/dev/" : "-", b);
}

static int stats_human(const struct stats_sample *s)
{
	struct table t = {
		.ncol = 8,
		.head = { "ROLE", "DEVICE", "STATE", "READS", "WRITES", "READ",
			  "WRITTEN", "ERRORS" },
		.right = { [0] = true, [3] = true, [4] = true, [5] = true,
			   [6] = true, [7] = true },
	};
	const struct vraid_info *in = &s->in;
	char a[TCELL], b[TCELL];
	char (*r)[TCELL];
	uint32_t i;

#define FIELD "%-15s"
	printf("%s%u (%s, %s): counted since it was created or assembled\n",
	       VRAID_DISK_PREFIX, in->index, VNAME(levels, in->level, false),
	       VNAME(vd_states, in->state, false));
	printf(FIELD "%llu I/Os, %s\n", "Reads:",
	       (unsigned long long)s->vd.rios,
	       human_size(a, sizeof(a), s->vd.rsect * SECTOR_BYTES));
	printf(FIELD "%llu I/Os, %s\n", "Writes:",
	       (unsigned long long)s->vd.wios,
	       human_size(b, sizeof(b), s->vd.wsect * SECTOR_BYTES));
	printf(FIELD "%llu\n", "Flushes:", (unsigned long long)s->flushes);
	printf(FIELD "%llu\n", "In flight:", (unsigned long long)s->vd.inflight);
	printf(FIELD "%llu\n", "Read repairs:",
	       (unsigned long long)s->read_repairs);
	printf(FIELD, "Cache:");
	stats_cache_line(s);
#undef FIELD
	printf("\n");
	for (i = 0; i < in->nr_members; i++) {
		const struct vraid_member_info *m = &in->members[i];

		r = table_row(&t);
		if (!r) {
			free(t.row);
			errmsg("out of memory");
			return RC_FAIL;
		}
		snprintf(r[0], TCELL, "%u", m->role);
		stats_member_dev(r[1], TCELL, m);
		snprintf(r[2], TCELL, "%s", VNAME(member_states, m->state, false));
		snprintf(r[3], TCELL, "%llu", (unsigned long long)m->read_ios);
		snprintf(r[4], TCELL, "%llu", (unsigned long long)m->write_ios);
		if (s->m[i].ok) {
			human_size(r[5], TCELL, s->m[i].rsect * SECTOR_BYTES);
			human_size(r[6], TCELL, s->m[i].wsect * SECTOR_BYTES);
		} else {
			snprintf(r[5], TCELL, "-");
			snprintf(r[6], TCELL, "-");
		}
		snprintf(r[7], TCELL, "%llu", (unsigned long long)m->errors);
	}
	table_print(&t);
	free(t.row);
	printf("\nREADS and WRITES are the I/Os vraid sent to each member; READ and WRITTEN\n"
	       "are the bytes the member device counted (vraid's metadata included).\n");
	return RC_OK;
}

static void stats_json(const struct stats_sample *s)
{
	const struct vraid_info *in = &s->in;
	char dev[TCELL], vd[16];
	struct json j = { 0 };
	uint32_t i;

	snprintf(vd, sizeof(vd), "%s%u", VRAID_DISK_PREFIX, in->index);
	json_begin_object(&j, NULL);
	json_string(&j, "vd", vd, sizeof(vd));
	json_u64(&j, "index", in->index);
	json_string(&j, "level", VNAME(levels, in->level, true), SIZE_MAX);
	json_string(&j, "state", VNAME(vd_states, in->state, true), SIZE_MAX);
	json_u64(&j, "reads", s->vd.rios);
	json_u64(&j, "read_bytes", s->vd.rsect * SECTOR_BYTES);
	json_u64(&j, "writes", s->vd.wios);
	json_u64(&j, "write_bytes", s->vd.wsect * SECTOR_BYTES);
	json_u64(&j, "flushes", s->flushes);
	json_u64(&j, "in_flight", s->vd.inflight);
	json_u64(&j, "read_repairs", s->read_repairs);
	stats_cache_json(&j, NULL, s, 0);
	json_begin_array(&j, "members");
	for (i = 0; i < in->nr_members; i++) {
		const struct vraid_member_info *m = &in->members[i];

		stats_member_dev(dev, sizeof(dev), m);
		json_begin_object(&j, NULL);
		json_u64(&j, "role", m->role);
		json_string(&j, "device", dev, sizeof(dev));
		json_string(&j, "state", VNAME(member_states, m->state, true),
			    SIZE_MAX);
		json_u64(&j, "reads", m->read_ios);
		json_u64(&j, "writes", m->write_ios);
		json_u64(&j, "read_bytes", s->m[i].rsect * SECTOR_BYTES);
		json_u64(&j, "write_bytes", s->m[i].wsect * SECTOR_BYTES);
		json_u64(&j, "errors", m->errors);
		json_end_object(&j);
	}
	json_end_array(&j);
	json_end_object(&j);
}

/* One --watch report: what happened between @a and @b. */
static void stats_watch_report(const struct stats_sample *a,
			       const struct stats_sample *b, bool json,
			       unsigned int nr)
{
	const struct vraid_info *in = &b->in;
	double dt = b->t - a->t;
	char ts[16], dev[TCELL], vd[16];
	struct json j = { 0 };
	time_t now = time(NULL);
	struct tm tm;
	uint32_t i;

	localtime_r(&now, &tm);
	strftime(ts, sizeof(ts), "%H:%M:%S", &tm);
	if (json) {
		snprintf(vd, sizeof(vd), "%s%u", VRAID_DISK_PREFIX, in->index);
		json_begin_object(&j, NULL);
		json_string(&j, "vd", vd, sizeof(vd));
		json_string(&j, "time", ts, sizeof(ts));
		json_fixed(&j, "interval", dt, 3);
		json_string(&j, "state", VNAME(vd_states, in->state, true),
			    SIZE_MAX);
		json_fixed(&j, "reads_per_s", rate(b->vd.rios, a->vd.rios, dt), 1);
		json_fixed(&j, "writes_per_s", rate(b->vd.wios, a->vd.wios, dt),
			   1);
		json_fixed(&j, "read_bytes_per_s",
			   rate(b->vd.rsect, a->vd.rsect, dt) * SECTOR_BYTES, 0);
		json_fixed(&j, "write_bytes_per_s",
			   rate(b->vd.wsect, a->vd.wsect, dt) * SECTOR_BYTES, 0);
		json_fixed(&j, "flushes_per_s", rate(b->flushes, a->flushes, dt),
			   1);
		json_u64(&j, "in_flight", b->vd.inflight);
		json_u64(&j, "read_repairs", b->read_repairs);
		stats_cache_json(&j, a, b, dt);
		json_begin_array(&j, "members");
	} else {
		if (nr % 10 == 0)
			printf("%-8s  %-8s  %9s  %9s  %8s  %8s  %8s  %8s\n",
			       "TIME", "VD/ROLE", "READS/s", "WRITES/s",
			       "RMB/s", "WMB/s", "FLUSH/s", "ERRORS");
		printf("%-8s  %s%-3u  %9.1f  %9.1f  %8.2f  %8.2f  %8.1f  %8s  %s\n",
		       ts, VRAID_DISK_PREFIX, in->index,
		       rate(b->vd.rios, a->vd.rios, dt),
		       rate(b->vd.wios, a->vd.wios, dt),
		       rate(b->vd.rsect, a->vd.rsect, dt) * SECTOR_BYTES / 1e6,
		       rate(b->vd.wsect, a->vd.wsect, dt) * SECTOR_BYTES / 1e6,
		       rate(b->flushes, a->flushes, dt), "",
		       VNAME(vd_states, in->state, false));
	}
	for (i = 0; i < in->nr_members; i++) {
		const struct vraid_member_info *m = &in->members[i];
		const struct vraid_member_info *o = &a->in.members[i];
		/* a replaced member starts from its own zero */
		bool same = o->major == m->major && o->minor == m->minor;
		uint64_t or = same ? o->read_ios : 0, ow = same ? o->write_ios : 0;
		uint64_t ors = same ? a->m[i].rsect : 0;
		uint64_t ows = same ? a->m[i].wsect : 0;

		stats_member_dev(dev, sizeof(dev), m);
		if (json) {
			json_begin_object(&j, NULL);
			json_u64(&j, "role", m->role);
			json_string(&j, "device", dev, sizeof(dev));
			json_string(&j, "state",
				    VNAME(member_states, m->state, true),
				    SIZE_MAX);
			json_fixed(&j, "reads_per_s", rate(m->read_ios, or, dt),
				   1);
			json_fixed(&j, "writes_per_s",
				   rate(m->write_ios, ow, dt), 1);
			json_fixed(&j, "read_bytes_per_s",
				   rate(b->m[i].rsect, ors, dt) * SECTOR_BYTES,
				   0);
			json_fixed(&j, "write_bytes_per_s",
				   rate(b->m[i].wsect, ows, dt) * SECTOR_BYTES,
				   0);
			json_u64(&j, "errors", m->errors);
			json_end_object(&j);
			continue;
		}
		printf("%-8s  %5u %-2s  %9.1f  %9.1f  %8.2f  %8.2f  %8s  %8llu  %s %s\n",
		       "", m->role, "", rate(m->read_ios, or, dt),
		       rate(m->write_ios, ow, dt),
		       rate(b->m[i].rsect, ors, dt) * SECTOR_BYTES / 1e6,
		       rate(b->m[i].wsect, ows, dt) * SECTOR_BYTES / 1e6, "",
		       (unsigned long long)m->errors, dev,
		       VNAME(member_states, m->state, false));
	}
	if (json) {
		json_end_array(&j);
		json_end_object(&j);
	}
	fflush(stdout);
}

/*
 * stats VD [--json] [--watch [--interval SECS] [--count N]]
 * stats --prometheus [VD...] [--output FILE]
 */
int cmd_stats(int argc, char **argv)
{
	static const char *const names[] = { "--interval", "--count",
					     "--output", NULL };
	const char *vals[3] = { NULL, NULL, NULL }, *pos[VRAID_MAX_VDS];
	bool watch = take_flag(&argc, argv, "--watch"), json = false;
	bool prom = take_flag(&argc, argv, "--prometheus");
	struct stats_sample *s;
	double interval = 2;
	uint32_t count = 0, i;
	size_t npos;
	struct ctl c;
	int rc;

	rc = parse_args("stats", argc, argv, names, vals, &json, pos,
			VRAID_MAX_VDS, &npos);
	if (rc >= 0)
		return rc;
	if (vals[2] && !prom)
		return usage_error("stats", "--output goes with --prometheus (e.g. vraidctl stats --prometheus --output /var/lib/prometheus/node-exporter/vraid.prom)");
	if (prom && (json || watch))
		return usage_error("stats", "--prometheus does not go with %s: it prints the counters once, as they are (Prometheus computes the rates)",
				   json ? "--json" : "--watch");
	if (prom && (vals[0] || vals[1]))
		return usage_error("stats", "%s goes with --watch, not --prometheus",
				   vals[0] ? "--interval" : "--count");
	if (prom && npos > VRAID_MAX_VDS)
		return usage_error("stats", "name at most %u virtual drives", VRAID_MAX_VDS);
	if (prom)
		return stats_prometheus(pos, npos, vals[2]);
	if (npos != 1)
		return usage_error("stats", npos ? "name one virtual drive only" :
				   "name the virtual drive whose counters to show (e.g. vraid0)");
	if (!watch && (vals[0] || vals[1]))
		return usage_error("stats", "%s goes with --watch",
				   vals[0] ? "--interval" : "--count");
	if (vals[0] && (!parse_seconds(vals[0], &interval) ||
			interval < 0.1 || interval > 86400))
		return usage_error("stats", "invalid --interval '%s': give seconds from 0.1 to 86400, e.g. 1 or 0.5",
				   vals[0]);
	if (vals[1] && (!vraid_parse_u32(vals[1], &count) || !count))
		return usage_error("stats", "invalid --count '%s': give the number of reports, 1 or more",
				   vals[1]);
	s = calloc(2, sizeof(*s));
	if (!s) {
		errmsg("out of memory");
		return RC_FAIL;
	}
	if (open_vd(&c, false, pos[0], &s[0].in, NULL, 0)) {
		free(s);
		return RC_FAIL;
	}
	rc = take_sample(&c, s[0].in.index, &s[0], false);
	if (rc || !watch) {
		if (!rc && json)
			stats_json(&s[0]);
		else if (!rc)
			rc = stats_human(&s[0]);
		goto out;
	}
	for (i = 0; !count || i < count; i++) {
		sleep_sec(interval);
		rc = take_sample(&c, s[0].in.index, &s[(i + 1) % 2],
				 false);
		if (rc)
			break;
		stats_watch_report(&s[i % 2], &s[(i + 1) % 2], json, i);
	}
out:
	close(c.fd);
	free(s);
	return rc;
}
