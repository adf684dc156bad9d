// SPDX-License-Identifier: GPL-2.0
/*
 * vraidctl: stats --prometheus: the counters of stats, the VDs' and
 * members' states, their jobs, and the controller's cache and journal in
 * the Prometheus text exposition format (version 0.0.4), for
 * node_exporter's textfile collector; --output FILE replaces FILE
 * atomically (a temporary file in its directory, then rename()), as that
 * collector needs.  The series are listed in Documentation/admin-guide.rst
 * ("Metrics"): change both together.
 */
#include "vraidctl.h"

/* one VD's labels: vd="vraid0",name="...",uuid="..." (escaped) */
#define PLABELS	512

struct prom_vd {
	struct stats_sample s;
	char labels[PLABELS];
};

/* The writer: the family being written, its header said once. */
struct prom {
	FILE *f;
	const char *name, *type, *help;
	bool headed;
};

/*
 * A label value: as the terminal gets kernel strings (tty_str(): control
 * characters and invalid UTF-8 are '?'), with '\' and '"' escaped.
 */
static void prom_escape(char *dst, size_t dstsz, const char *src,
			size_t srcsz)
{
	char t[4 * VRAID_NAME_LEN + VRAID_DEVNAME_LEN + 1];
	size_t o = 0, i;

	tty_str(t, sizeof(t), src, srcsz);
	for (i = 0; t[i] && o + 3 < dstsz; i++) {
		if (t[i] == '\\' || t[i] == '"')
			dst[o++] = '\\';
		dst[o++] = t[i];
	}
	dst[o] = '\0';
}

static void family(struct prom *p, const char *name, const char *type,
		   const char *help)
{
	p->name = name;
	p->type = type;
	p->help = help;
	p->headed = false;
}

/* "NAME{LABELS,EXTRA} " with the family's header before its first sample */
static void sample_start(struct prom *p, const char *labels,
			 const char *extra)
{
	if (!p->headed) {
		fprintf(p->f, "# HELP %s %s\n# TYPE %s %s\n", p->name, p->help,
			p->name, p->type);
		p->headed = true;
	}
	fputs(p->name, p->f);
	if (*labels || (extra && *extra))
		fprintf(p->f, "{%s%s%s}", labels, *labels && extra ? "," : "",
			extra ? extra : "");
	fputc(' ', p->f);
}

static void sample(struct prom *p, const char *labels, const char *extra,
		   uint64_t v)
{
	sample_start(p, labels, extra);
	fprintf(p->f, "%llu\n", (unsigned long long)v);
}

static void sample_ratio(struct prom *p, const char *labels, double v)
{
	sample_start(p, labels, NULL);
	fprintf(p->f, "%.6g\n", v);
}

/*
 * NAME{...,KEY="x"} 1 for the value @v has, 0 for the other values of
 * the table (as node_exporter's md collector says an array's state);
 * KEY="unknown" 1 for a value of a newer module.  @skip0: leave out the
 * table's entry for 0 (job "none").
 */
static void one_of(struct prom *p, const char *labels, const char *key,
		   const struct vname *t, size_t n, uint32_t v, bool skip0)
{
	char extra[64];
	bool known = false;
	size_t i;

	for (i = 0; i < n; i++) {
		if (skip0 && t[i].v == 0) {
			known |= v == 0;
			continue;
		}
		snprintf(extra, sizeof(extra), "%s=\"%s\"", key, t[i].json);
		sample(p, labels, extra, t[i].v == v);
		known |= t[i].v == v;
	}
	if (!known) {
		snprintf(extra, sizeof(extra), "%s=\"unknown\"", key);
		sample(p, labels, extra, 1);
	}
}

/* the member's labels: the VD's, member="ROLE",device="NAME" */
static void member_labels(char *buf, size_t bufsz, const struct prom_vd *v,
			  const struct vraid_member_info *m)
{
	char dev[2 * VRAID_DEVNAME_LEN + 1];

	prom_escape(dev, sizeof(dev), m->dev_name, sizeof(m->dev_name));
	snprintf(buf, bufsz, "%s,member=\"%u\",device=\"%s\"", v->labels,
		 m->role, dev);
}

#define PAGE_BYTES(x)	((x) * (uint64_t)VRAID_CACHE_PAGE)

/* A family of one sample per VD that has @have: VALUE (of s, the sample). */
#define PER_VD(p, vds, n, name, type, help, have, value)		\
	do {								\
		size_t i_;						\
		family(p, name, type, help);				\
		for (i_ = 0; i_ < (n); i_++) {				\
			const struct stats_sample *s = &(vds)[i_].s;	\
			if (have)					\
				sample(p, (vds)[i_].labels, NULL, value); \
		}							\
	} while (0)

/* ... and per member of each VD: VALUE (of s, m and i, its index). */
#define PER_MEMBER(p, vds, n, name, type, help, have, value)		\
	do {								\
		char ml_[PLABELS + 128];				\
		size_t v_;						\
		uint32_t i;						\
		family(p, name, type, help);				\
		for (v_ = 0; v_ < (n); v_++) {				\
			const struct stats_sample *s = &(vds)[v_].s;	\
			for (i = 0; i < s->in.nr_members; i++) {	\
				const struct vraid_member_info *m =	\
					&s->in.members[i];		\
				if (!(have))				\
					continue;			\
				member_labels(ml_, sizeof(ml_), &(vds)[v_], m); \
				sample(p, ml_, NULL, value);		\
			}						\
		}							\
	} while (0)

static void prom_vds(struct prom *p, const struct prom_vd *vds, size_t n)
{
	char extra[64];
	size_t k;

	family(p, "vraid_vd_info", "gauge",
	       "A virtual drive: its RAID level (value 1)");
	for (k = 0; k < n; k++) {
		snprintf(extra, sizeof(extra), "level=\"%s\"",
			 VNAME(levels, vds[k].s.in.level, true));
		sample(p, vds[k].labels, extra, 1);
	}
	family(p, "vraid_vd_state", "gauge",
	       "The virtual drive's state: 1 for the state it is in, 0 for the others");
	for (k = 0; k < n; k++)
		one_of(p, vds[k].labels, "state", vd_states, vd_states_n,
		       vds[k].s.in.state, false);
	PER_VD(p, vds, n, "vraid_vd_size_bytes", "gauge",
	       "Capacity of the virtual drive", true,
	       s->in.size_sectors * SECTOR_BYTES);
	PER_VD(p, vds, n, "vraid_vd_members", "gauge",
	       "Members (roles) of the virtual drive, whatever their state",
	       true, s->in.nr_members);
	PER_VD(p, vds, n, "vraid_vd_reads_total", "counter",
	       "Reads completed by the virtual drive (block layer, split at strip boundaries)",
	       true, s->vd.rios);
	PER_VD(p, vds, n, "vraid_vd_read_bytes_total", "counter",
	       "Bytes read from the virtual drive", true,
	       s->vd.rsect * SECTOR_BYTES);
	PER_VD(p, vds, n, "vraid_vd_writes_total", "counter",
	       "Writes completed by the virtual drive (block layer, split at strip boundaries)",
	       true, s->vd.wios);
	PER_VD(p, vds, n, "vraid_vd_write_bytes_total", "counter",
	       "Bytes written to the virtual drive", true,
	       s->vd.wsect * SECTOR_BYTES);
	PER_VD(p, vds, n, "vraid_vd_flushes_total", "counter",
	       "Flushes that reached the virtual drive", true, s->flushes);
	PER_VD(p, vds, n, "vraid_vd_in_flight_ios", "gauge",
	       "I/Os in flight on the virtual drive", true, s->vd.inflight);
	PER_VD(p, vds, n, "vraid_vd_read_repairs_total", "counter",
	       "Read errors corrected from redundancy", true, s->read_repairs);
	family(p, "vraid_vd_write_mode", "gauge",
	       "How writes are handled now: 1 for the mode in effect, 0 for the others");
	for (k = 0; k < n; k++)
		one_of(p, vds[k].labels, "mode", write_effs, write_effs_n,
		       vds[k].s.in.write_policy_effective, false);
	family(p, "vraid_vd_job", "gauge",
	       "The background job: 1 for the job running or paused, 0 for the others (all 0: none)");
	for (k = 0; k < n; k++)
		one_of(p, vds[k].labels, "job", job_types, job_types_n,
		       vds[k].s.in.job_type, true);
	PER_VD(p, vds, n, "vraid_vd_job_paused", "gauge",
	       "1 if the background job is paused", true,
	       s->in.job_type != VRAID_JOB_NONE &&
	       s->in.job_state == VRAID_JOB_PAUSED);
	family(p, "vraid_vd_job_progress_ratio", "gauge",
	       "Progress of the background job, 0 to 1 (0 without one)");
	for (k = 0; k < n; k++) {
		const struct vraid_info *in = &vds[k].s.in;
		double r = 0;

		if (in->job_type != VRAID_JOB_NONE && in->job_total)
			r = in->job_done >= in->job_total ? 1.0 :
			    (double)in->job_done / (double)in->job_total;
		sample_ratio(p, vds[k].labels, r);
	}
	PER_VD(p, vds, n, "vraid_vd_job_eta_seconds", "gauge",
	       "Estimated time left of the running job (only while it is known)",
	       s->in.job_type != VRAID_JOB_NONE && s->in.job_eta_sec &&
	       s->in.job_state != VRAID_JOB_PAUSED, s->in.job_eta_sec);
	PER_VD(p, vds, n, "vraid_vd_job_rate_limit_bytes_per_second", "gauge",
	       "Rate limit of background jobs per member (0: unlimited)", true,
	       (uint64_t)s->in.job_rate_kib * 1024);
	PER_VD(p, vds, n, "vraid_vd_mismatches", "gauge",
	       "Blocks found inconsistent by the running check or repair, else by the last one",
	       true, s->in.job_type != VRAID_JOB_NONE ?
	       s->in.job_mismatches : s->in.last_mismatches);

	/* the controller cache's counters of the VD (ABI 1.6 and later) */
	PER_VD(p, vds, n, "vraid_vd_cache_bytes", "gauge",
	       "Controller cache held by the virtual drive", s->cache,
	       s->cbytes);
	PER_VD(p, vds, n, "vraid_vd_cache_read_hit_bytes_total", "counter",
	       "Bytes (4 KiB pages) of reads answered from the cache",
	       s->cache, PAGE_BYTES(s->chits));
	PER_VD(p, vds, n, "vraid_vd_cache_read_miss_bytes_total", "counter",
	       "Bytes (4 KiB pages) of reads that looked the cache up and went to the members",
	       s->cache, PAGE_BYTES(s->cmisses));
	PER_VD(p, vds, n, "vraid_vd_cache_readahead_bytes_total", "counter",
	       "Bytes read ahead into the cache", s->ra, PAGE_BYTES(s->rapages));
	PER_VD(p, vds, n, "vraid_vd_cache_readahead_hit_bytes_total", "counter",
	       "Bytes of reads answered from what was read ahead (in the read hits too)",
	       s->ra, PAGE_BYTES(s->rahits));
	PER_VD(p, vds, n, "vraid_vd_cache_dirty_bytes", "gauge",
	       "Data written into the cache and not yet on the members", s->wb,
	       s->dirty);
	PER_VD(p, vds, n, "vraid_vd_cache_write_bytes_total", "counter",
	       "Bytes written into the cache (write-back)", s->wb,
	       PAGE_BYTES(s->wpages));
	PER_VD(p, vds, n, "vraid_vd_cache_destaged_bytes_total", "counter",
	       "Bytes written from the cache to the members", s->wb,
	       PAGE_BYTES(s->destaged));
	PER_VD(p, vds, n, "vraid_vd_cache_fill_read_bytes_total", "counter",
	       "Bytes read to complete parity rows before their destage", s->fl,
	       PAGE_BYTES(s->fpages));
	PER_VD(p, vds, n, "vraid_vd_cache_dirty_waits_total", "counter",
	       "Writes that waited for destage (the cache's dirty bound)", s->wt,
	       s->dwaits);
	PER_VD(p, vds, n, "vraid_vd_journal_writes_total", "counter",
	       "Writes logged to the journal", s->jl, s->jwrites);
	PER_VD(p, vds, n, "vraid_vd_journal_logged_bytes_total", "counter",
	       "Bytes (4 KiB pages) logged to the journal", s->jl,
	       PAGE_BYTES(s->jpages));
	PER_VD(p, vds, n, "vraid_vd_journal_referenced_bytes_total", "counter",
	       "Destaged bytes that parity records named instead of logging them again",
	       s->jr, PAGE_BYTES(s->jrefs));
	PER_VD(p, vds, n, "vraid_vd_journal_waits_total", "counter",
	       "Writes that waited for the journal (its bound on pages not logged yet)",
	       s->wt, s->jwaits);

	/* the members */
	family(p, "vraid_member_state", "gauge",
	       "The member's state: 1 for the state it is in, 0 for the others");
	for (k = 0; k < n; k++) {
		const struct vraid_info *in = &vds[k].s.in;
		char ml[PLABELS + 128];
		uint32_t i;

		for (i = 0; i < in->nr_members; i++) {
			member_labels(ml, sizeof(ml), &vds[k], &in->members[i]);
			one_of(p, ml, "state", member_states, member_states_n,
			       in->members[i].state, false);
		}
	}
	PER_MEMBER(p, vds, n, "vraid_member_reads_total", "counter",
		   "Read I/Os vraid sent to the member", true, m->read_ios);
	PER_MEMBER(p, vds, n, "vraid_member_writes_total", "counter",
		   "Write I/Os vraid sent to the member", true, m->write_ios);
	PER_MEMBER(p, vds, n, "vraid_member_read_bytes_total", "counter",
		   "Bytes the member device counted as read (vraid's metadata included)",
		   s->m[i].ok, s->m[i].rsect * SECTOR_BYTES);
	PER_MEMBER(p, vds, n, "vraid_member_write_bytes_total", "counter",
		   "Bytes the member device counted as written (vraid's metadata and bitmap included)",
		   s->m[i].ok, s->m[i].wsect * SECTOR_BYTES);
	PER_MEMBER(p, vds, n, "vraid_member_errors_total", "counter",
		   "I/O errors seen on the member", true, m->errors);
}

/* The controller's cache and journal (no labels: one of each). */
static void prom_controller(struct prom *p, const struct vraid_controller *r)
{
	family(p, "vraid_controller_cache_size_bytes", "gauge",
	       "Size of the controller cache, shared by all virtual drives");
	sample(p, "", NULL, r->cache_bytes);
	family(p, "vraid_controller_cache_used_bytes", "gauge",
	       "Controller cache held by all virtual drives");
	sample(p, "", NULL, r->cache_used_bytes);
	family(p, "vraid_controller_cache_dirty_bytes", "gauge",
	       "Controller cache data not yet on the members");
	sample(p, "", NULL, r->cache_dirty_bytes);
	family(p, "vraid_controller_cache_dirty_limit_bytes", "gauge",
	       "Dirty data at which writers wait for destage");
	sample(p, "", NULL, r->cache_dirty_high_bytes);
	if (!journal_abi(r))
		return;
	family(p, "vraid_journal_state", "gauge",
	       "The journal's state: 1 for the state it is in, 0 for the others");
	one_of(p, "", "state", journal_states, journal_states_n,
	       r->journal_state, false);
	if (r->journal_state == VRAID_JOURNAL_NONE)
		return;
	family(p, "vraid_journal_size_bytes", "gauge", "Size of the journal's ring");
	sample(p, "", NULL, r->journal_bytes);
	family(p, "vraid_journal_used_bytes", "gauge",
	       "Journal ring holding records still needed");
	sample(p, "", NULL, r->journal_used_bytes);
	family(p, "vraid_journal_pending_vds", "gauge",
	       "Virtual drives whose writes in the journal await replay");
	sample(p, "", NULL, r->journal_pending);
}

/* The VD's labels: vd, name, and uuid when it is known (vd_uuid_text()). */
static void vd_labels(struct prom_vd *v)
{
	const struct vraid_info *in = &v->s.in;
	char name[2 * 4 * VRAID_NAME_LEN + 1], u[40];
	int o;

	prom_escape(name, sizeof(name), in->name, sizeof(in->name));
	o = snprintf(v->labels, sizeof(v->labels), "vd=\"%s%u\",name=\"%s\"",
		     VRAID_DISK_PREFIX, in->index, name);
	if (vd_uuid_text(in, u, sizeof(u))[0] && o > 0 &&
	    (size_t)o < sizeof(v->labels)) {
		snprintf(v->labels + o, sizeof(v->labels) - (size_t)o,
			 ",uuid=\"%s\"", u);
	}
}

/*
 * Write to @out through a temporary file in its directory, renamed over
 * it once complete: a reader sees the old file or the new one, never a
 * part (node_exporter's textfile collector reads *.prom when scraped).
 */
static int write_atomic(const char *out, const struct prom_vd *vds, size_t n,
			const struct vraid_controller *ctrl)
{
	struct prom p = { 0 };
	char *tmp;
	mode_t um;
	int fd, e = 0;

	if (asprintf(&tmp, "%s.XXXXXX", out) < 0) {
		errmsg("out of memory");
		return RC_FAIL;
	}
	fd = mkstemp(tmp);
	if (fd < 0) {
		e = errno;
		errmsg("stats: cannot create a temporary file next to %s (%s): %s",
		       out, tmp, strerror(e));
		hintmsg("--output needs a directory that exists and that you may write to (node_exporter's --collector.textfile.directory)");
		free(tmp);
		return RC_FAIL;
	}
	/* mkstemp() makes it 0600: readable by the collector, as umask says */
	um = umask(0);
	umask(um);
	if (fchmod(fd, 0666 & ~um))
		e = errno;
	p.f = e ? NULL : fdopen(fd, "w");
	if (!e && !p.f)
		e = errno;
	if (!e) {
		prom_vds(&p, vds, n);
		if (ctrl)
			prom_controller(&p, ctrl);
		if (fflush(p.f) || ferror(p.f) || fsync(fd))
			e = errno ? errno : EIO;
	}
	if (p.f ? fclose(p.f) : close(fd))
		e = e ? e : errno;
	if (!e && rename(tmp, out))
		e = errno;
	if (e) {
		errmsg("stats: cannot write %s: %s", out, strerror(e));
		unlink(tmp);
		free(tmp);
		return RC_FAIL;
	}
	free(tmp);
	return RC_OK;
}

/*
 * stats --prometheus [VD...] [--output FILE]: no VD, every VD and the
 * controller; else the VDs named (the controller's series left out, so
 * that files for different VDs do not repeat them).
 */
int stats_prometheus(const char *const *args, size_t nargs, const char *out)
{
	struct vraid_controller ctrl, *cp = NULL;
	struct vraid_info *all = NULL, in;
	struct prom_vd *vds;
	size_t n = 0, nall = 0, k, j;
	struct ctl c;
	int rc = RC_OK, e;

	if (out) {
		size_t l = strlen(out);

		if (!*out || out[l - 1] == '/')
			return usage_error("stats", "invalid --output '%s': name a file, e.g. --output /var/lib/prometheus/node-exporter/vraid.prom",
					   out);
		if (l < 5 || strcmp(out + l - 5, ".prom"))
			hintmsg("node_exporter's textfile collector reads only files named *.prom: %s is not one",
				out);
	}
	if (!ctl_open(&c, false))
		return RC_FAIL;
	if (!nargs && get_all(&c, &all, &nall)) {
		close(c.fd);
		return RC_FAIL;
	}
	vds = calloc((nargs ? nargs : nall) + 1, sizeof(*vds));
	if (!vds) {
		errmsg("out of memory");
		rc = RC_FAIL;
		goto out;
	}
	for (k = 0; k < (nargs ? nargs : nall); k++) {
		uint32_t ix;

		if (nargs) {
			if (resolve_vd(&c, args[k], &in)) {
				rc = RC_FAIL;
				goto out;
			}
			ix = in.index;
			for (j = 0; j < n && vds[j].s.in.index != ix; j++)
				;
			if (j < n)
				continue;	/* named twice */
		} else {
			ix = all[k].index;
		}
		e = take_sample(&c, ix, &vds[n].s, !nargs);
		if (e < 0)
			continue;	/* gone since LIST */
		if (e) {
			rc = RC_FAIL;
			goto out;
		}
		vd_labels(&vds[n]);
		n++;
	}
	if (!nargs) {
		memset(&ctrl, 0, sizeof(ctrl));
		ctrl.action = VRAID_CTRL_SHOW;
		/* a module before ABI 1.7 has no CONTROLLER: left out */
		if (!ctl_ioctl(&c, VRAID_IOC_CONTROLLER, &ctrl, sizeof(ctrl)))
			cp = &ctrl;
	}
	if (out) {
		rc = write_atomic(out, vds, n, cp);
	} else {
		struct prom p = { .f = stdout };

		prom_vds(&p, vds, n);
		if (cp)
			prom_controller(&p, cp);
	}
out:
	close(c.fd);
	free(all);
	free(vds);
	return rc;
}
