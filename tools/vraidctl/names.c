// SPDX-License-Identifier: GPL-2.0
/*
 * vraidctl: names of ABI values, the policies' words, levels, and how a background job is described.
 */
#include "vraidctl.h"

const struct vname levels[] = {
	{ VRAID_LEVEL_JBOD, "JBOD", "jbod" }, { VRAID_LEVEL_0, "RAID0", "raid0" },
	{ VRAID_LEVEL_1, "RAID1", "raid1" }, { VRAID_LEVEL_5, "RAID5", "raid5" },
	{ VRAID_LEVEL_6, "RAID6", "raid6" }, { VRAID_LEVEL_10, "RAID10", "raid10" },
	{ VRAID_LEVEL_50, "RAID50", "raid50" }, { VRAID_LEVEL_60, "RAID60", "raid60" },
};
const size_t levels_n = ARRAY_SIZE(levels);
const struct vname vd_states[] = {
	{ VRAID_VD_OPTIMAL, "Optimal", "optimal" }, { VRAID_VD_DEGRADED, "Degraded", "degraded" },
	{ VRAID_VD_REBUILDING, "Rebuilding", "rebuilding" }, { VRAID_VD_OFFLINE, "Offline", "offline" },
};
const size_t vd_states_n = ARRAY_SIZE(vd_states);
const struct vname member_states[] = {
	{ VRAID_MEMBER_ONLINE, "Online", "online" }, { VRAID_MEMBER_FAILED, "Failed", "failed" },
	{ VRAID_MEMBER_REBUILDING, "Rebuilding", "rebuilding" },
	{ VRAID_MEMBER_MISSING, "Missing", "missing" },
};
const size_t member_states_n = ARRAY_SIZE(member_states);
const struct vname access_pols[] = {
	{ VRAID_ACCESS_RW, "RW", "rw" }, { VRAID_ACCESS_RO, "RO", "ro" },
	{ VRAID_ACCESS_BLOCKED, "Blocked", "blocked" },
};
const size_t access_pols_n = ARRAY_SIZE(access_pols);
const struct vname dcache_pols[] = {
	/* "On"/"Off" as `create --disk-cache` and `set disk-cache=` say it */
	{ VRAID_DCACHE_DEFAULT, "Default", "default" }, { VRAID_DCACHE_ENABLED, "On", "enabled" },
	{ VRAID_DCACHE_DISABLED, "Off", "disabled" },
};
const size_t dcache_pols_n = ARRAY_SIZE(dcache_pols);
const struct vname io_pols[] = {
	{ VRAID_IO_DIRECT, "Direct", "direct" }, { VRAID_IO_CACHED, "Cached", "cached" },
};
const size_t io_pols_n = ARRAY_SIZE(io_pols);
const struct vname read_pols[] = {
	{ VRAID_READ_NORA, "No Read Ahead", "no_read_ahead" },
	{ VRAID_READ_AHEAD, "Read Ahead", "read_ahead" },
};
const size_t read_pols_n = ARRAY_SIZE(read_pols);
const struct vname write_pols[] = {
	{ VRAID_WRITE_THROUGH, "Write Through", "write_through" },
	{ VRAID_WRITE_BACK, "Write Back", "write_back" },
	{ VRAID_WRITE_BACK_ALWAYS, "Always Write Back", "always_write_back" },
};
const size_t write_pols_n = ARRAY_SIZE(write_pols);
const struct vname job_types[] = {
	{ VRAID_JOB_NONE, "none", "none" }, { VRAID_JOB_INIT, "init", "init" },
	{ VRAID_JOB_REBUILD, "rebuild", "rebuild" },
	{ VRAID_JOB_CHECK, "check", "check" },
	{ VRAID_JOB_REPAIR, "repair", "repair" },
	{ VRAID_JOB_RESYNC, "resync", "resync" },
};
const size_t job_types_n = ARRAY_SIZE(job_types);
const struct vname job_states[] = {
	{ VRAID_JOB_RUNNING, "running", "running" },
	{ VRAID_JOB_PAUSED, "paused", "paused" },
};
const size_t job_states_n = ARRAY_SIZE(job_states);
static const struct vname init_modes[] = {
	{ VRAID_INIT_FAST, "fast", "fast" },
	{ VRAID_INIT_BACKGROUND, "background", "background" },
	{ VRAID_INIT_FULL, "full", "full" },
};

const char *vname_of(const struct vname *t, size_t n, uint32_t v,
			    bool json)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (t[i].v == v)
			return json ? t[i].json : t[i].human;
	return json ? "unknown" : "Unknown";
}

/* ---- policies: the words of create's options and of `set` --------------- */


static const struct pol_word access_words[] = {
	{ "rw", VRAID_ACCESS_RW, "rw" }, { "ro", VRAID_ACCESS_RO, "ro" },
	{ "blocked", VRAID_ACCESS_BLOCKED, "blocked" },
};
static const struct pol_word dcache_words[] = {
	{ "on", VRAID_DCACHE_ENABLED, "on" }, { "off", VRAID_DCACHE_DISABLED, "off" },
	{ "default", VRAID_DCACHE_DEFAULT, "default" },
};
static const struct pol_word read_words[] = {
	{ "ra", VRAID_READ_AHEAD, "read-ahead" },
	{ "nora", VRAID_READ_NORA, "no-read-ahead" },
};
/*
 * wb: write-back while the journal (the "battery") is healthy, writing
 * through while there is none, it awaits replay or it failed; awb: always
 * write-back, into the controller cache, which is volatile (ABI 1.8; an
 * older module refuses it, EOPNOTSUPP).
 */
static const struct pol_word write_words[] = {
	{ "wt", VRAID_WRITE_THROUGH, "write-through" },
	{ "wb", VRAID_WRITE_BACK, "write-back" },
	{ "awb", VRAID_WRITE_BACK_ALWAYS, "always-write-back" },
};
static const struct pol_word io_words[] = {
	{ "direct", VRAID_IO_DIRECT, "direct" }, { "cached", VRAID_IO_CACHED, "cached" },
};

const struct policy policies[NR_POL] = {
	[POL_ACCESS] = { "access", "access", VRAID_SET_ACCESS, access_words,
			 ARRAY_SIZE(access_words), "rw, ro or blocked" },
	[POL_DCACHE] = { "disk-cache", "disk cache", VRAID_SET_DISK_CACHE,
			 dcache_words, ARRAY_SIZE(dcache_words),
			 "on, off or default" },
	[POL_READ] = { "read-policy", "read", VRAID_SET_READ, read_words,
		       ARRAY_SIZE(read_words), "ra or nora" },
	[POL_WRITE] = { "write-policy", "write", VRAID_SET_WRITE, write_words,
			ARRAY_SIZE(write_words), "wt, wb or awb" },
	[POL_IO] = { "io-policy", "io", VRAID_SET_IO, io_words,
		     ARRAY_SIZE(io_words), "direct or cached" },
};

bool pol_parse(const struct policy *p, const char *s, uint32_t *v)
{
	size_t i;

	for (i = 0; i < p->nwords; i++) {
		if (!strcasecmp(s, p->words[i].word)) {
			*v = p->words[i].v;
			return true;
		}
	}
	return false;
}

/* "write-through"; "unknown (7)" for a value of a newer module. */
const char *pol_says(size_t k, uint32_t v)
{
	static char unk[NR_POL][24];
	const struct policy *p = &policies[k];
	size_t i;

	for (i = 0; i < p->nwords; i++)
		if (p->words[i].v == v)
			return p->words[i].says;
	snprintf(unk[k], sizeof(unk[k]), "unknown (%u)", v);
	return unk[k];
}

/*
 * Values of the policies in @mask that need the controller cache: cached
 * I/O, read-ahead and always write-back, which modules older than ABI
 * 1.6, 1.7 and 1.8 lack.
 */
bool pol_needs_cache(uint32_t mask, const uint32_t *v)
{
	return ((mask & VRAID_SET_WRITE) && v[POL_WRITE] == VRAID_WRITE_BACK_ALWAYS) ||
	       ((mask & VRAID_SET_READ) && v[POL_READ] != VRAID_READ_NORA) ||
	       ((mask & VRAID_SET_IO) && v[POL_IO] != VRAID_IO_DIRECT);
}

/*
 * After EOPNOTSUPP for a request with pol_needs_cache(): a module older
 * than ABI 1.6 has no cached I/O, one older than 1.7 no read-ahead, one
 * older than 1.8 no always write-back.  A module that has them all says
 * itself why it refused: no hint then.
 */
void cache_hint(const struct vraid_ioc_hdr *h, uint32_t mask,
		       const uint32_t *v)
{
	bool old = h->version_major == VRAID_ABI_MAJOR;
	const char *no[3], *use[3];
	char lacks[96] = "", instead[96] = "";
	size_t n = 0, i;

	if (old && h->version_minor < 6 && (mask & VRAID_SET_IO) &&
	    v[POL_IO] == VRAID_IO_CACHED) {
		no[n] = "cached I/O";
		use[n++] = "io-policy direct";
	}
	if (old && h->version_minor < 7 && (mask & VRAID_SET_READ) &&
	    v[POL_READ] == VRAID_READ_AHEAD) {
		no[n] = "read-ahead";
		use[n++] = "read-policy nora";
	}
	if (old && h->version_minor < ABI_MINOR_AWB &&
	    (mask & VRAID_SET_WRITE) &&
	    v[POL_WRITE] == VRAID_WRITE_BACK_ALWAYS) {
		no[n] = "always write-back";
		use[n++] = "write-policy wt or wb";
	}
	if (!n)
		return;
	/* "no A", "no A and no B", "no A, no B and no C"; the same for use */
	for (i = 0; i < n; i++) {
		const char *sep = !i ? "" : i + 1 == n ? " and " : ", ";

		snprintf(lacks + strlen(lacks), sizeof(lacks) - strlen(lacks),
			 "%sno %s", sep, no[i]);
		snprintf(instead + strlen(instead),
			 sizeof(instead) - strlen(instead), "%s%s", sep, use[i]);
	}
	hintmsg("the vraid module speaks ABI %d.%d, which has %s: use %s, or load the module built with this vraidctl",
		h->version_major, h->version_minor, lacks, instead);
}

const struct vname write_effs[] = {
	{ VRAID_WEFF_THROUGH, "Write Through", "write_through" },
	{ VRAID_WEFF_BACK, "Write Back (journalled)", "write_back" },
	{ VRAID_WEFF_BACK_VOLATILE, "Write Back (volatile cache)",
	  "write_back_volatile" },
	{ VRAID_WEFF_DRAINING, "Draining", "draining" },
};
const size_t write_effs_n = ARRAY_SIZE(write_effs);

/*
 * Why the write policy in effect differs from the one set ("" if it does
 * not): the words after "because" in show, a JSON word in json.
 */
const char *write_why(const struct vraid_info *in, bool json)
{
	if (in->cache_flags & VRAID_CACHE_JOURNAL_FAILED)
		return json ? "journal_failed" :
		       "the journal (the controller's battery) failed with an I/O error: see `vraidctl controller`; detach it (`vraidctl controller journal none`) and attach another";
	if (in->cache_flags & VRAID_CACHE_NO_JOURNAL)
		return json ? "no_journal" :
		       "write-back needs a healthy journal (the controller's battery): none is attached, or it awaits replay (see `vraidctl controller`); `vraidctl controller journal DEV` attaches one";
	return "";
}

/*
 * After a create or set of the write policy: write-back without its
 * journal, or always write-back into the volatile cache.
 */
void write_note(const struct vraid_info *in, const char *name)
{
	if (in->cache_flags & (VRAID_CACHE_NO_JOURNAL | VRAID_CACHE_JOURNAL_FAILED))
		fprintf(stderr, "%s: write-back writes through for now: %s\n",
			name, write_why(in, false));
	else if (in->write_policy_effective == VRAID_WEFF_BACK_VOLATILE)
		fprintf(stderr, "%s: always write-back: the controller cache is volatile, %s\n",
			name, VOLATILE_NOTE);
}

/* "jbod", "0".."60", "raid5", "RAID5": returns false if unknown. */
bool parse_level(const char *s, uint32_t *level)
{
	size_t i;

	if (!strcasecmp(s, "jbod")) {
		*level = VRAID_LEVEL_JBOD;
		return true;
	}
	if (!strncasecmp(s, "raid", 4))
		s += 4;
	if (!vraid_parse_u32(s, level) || (s[0] == '0' && s[1]))
		return false;	/* not a number, or a leading zero */
	for (i = 0; i < ARRAY_SIZE(levels); i++)
		if (levels[i].v == *level && *level != VRAID_LEVEL_JBOD)
			return true;
	return false;
}

/* Strips of data in one full stripe (see full_stripe_bytes above). */
uint64_t data_members(const struct vraid_info *in)
{
	uint64_t n = in->nr_members, s = in->spans ? in->spans : 1;

	switch (in->level) {
	case VRAID_LEVEL_0:	return n;
	case VRAID_LEVEL_1:	return n ? 1 : 0;
	case VRAID_LEVEL_10:	return n / 2;
	case VRAID_LEVEL_5:	return n > 1 ? n - 1 : 0;
	case VRAID_LEVEL_6:	return n > 2 ? n - 2 : 0;
	case VRAID_LEVEL_50:	return n > s ? n - s : 0;
	case VRAID_LEVEL_60:	return n > 2 * s ? n - 2 * s : 0;
	}
	return 0;
}

uint32_t strip_of(const struct vraid_info *in)
{
	return in->level == VRAID_LEVEL_JBOD ? 0 : in->strip_bytes;
}

/* Levels with copies or parity: they have something to init or check. */
bool redundant(uint32_t level)
{
	return level == VRAID_LEVEL_1 || level == VRAID_LEVEL_5 ||
	       level == VRAID_LEVEL_6 || level == VRAID_LEVEL_10 ||
	       level == VRAID_LEVEL_50 || level == VRAID_LEVEL_60;
}

/* ---- background jobs ------------------------------------------------------ */

/* Progress of the running job in tenths of a percent, 0..1000, rounded down. */
unsigned int job_permille(const struct vraid_info *in)
{
	uint64_t d = in->job_done, t = in->job_total, p;

	if (!t)
		return 0;
	if (d >= t)
		return 1000;
	if (d <= UINT64_MAX / 1000)
		p = d * 1000 / t;
	else
		p = d / (t / 1000);
	return p > 999 ? 999 : (unsigned int)p;
}

/* "45s", "1m20s", "2h05m" */
static char *fmt_eta(char *buf, size_t bufsz, uint32_t s)
{
	if (s >= 3600)
		snprintf(buf, bufsz, "%uh%02um", s / 3600, s % 3600 / 60);
	else if (s >= 60)
		snprintf(buf, bufsz, "%um%02us", s / 60, s % 60);
	else
		snprintf(buf, bufsz, "%us", s);
	return buf;
}

/* "unlimited", "50 MiB/s" */
char *fmt_rate(char *buf, size_t bufsz, uint32_t kib)
{
	char sz[32];

	if (!kib)
		snprintf(buf, bufsz, "unlimited");
	else
		snprintf(buf, bufsz, "%s/s",
			 human_size(sz, sizeof(sz), (uint64_t)kib * 1024));
	return buf;
}

bool job_counts_mismatches(uint32_t type)
{
	return type == VRAID_JOB_CHECK || type == VRAID_JOB_REPAIR;
}

#define BAR_WIDTH	20

/*
 * The running job in one line: "rebuild  42.0%  [########............]
 * 215 MiB of 512 MiB per member, ETA 1m20s, rate unlimited"; "paused"
 * instead of the ETA while it is paused.  @compact (a progress line on a
 * terminal, which must fit its width) leaves out "per member", "so far"
 * and an unlimited rate.
 */
char *job_progress(char *buf, size_t bufsz, const struct vraid_info *in,
			  bool compact)
{
	unsigned int p = job_permille(in), fill = p * BAR_WIDTH / 1000, i;
	char bar[BAR_WIDTH + 1], done[32], total[32], eta[48], rate[48];
	char t[32], mism[48] = "";

	for (i = 0; i < BAR_WIDTH; i++)
		bar[i] = i < fill ? '#' : '.';
	bar[BAR_WIDTH] = '\0';
	if (in->job_state == VRAID_JOB_PAUSED)
		snprintf(eta, sizeof(eta), "paused");
	else if (in->job_eta_sec)
		snprintf(eta, sizeof(eta), "ETA %s",
			 fmt_eta(t, sizeof(t), in->job_eta_sec));
	else
		snprintf(eta, sizeof(eta), "ETA unknown");
	if (job_counts_mismatches(in->job_type))
		snprintf(mism, sizeof(mism), ", %llu mismatch%s%s",
			 (unsigned long long)in->job_mismatches,
			 in->job_mismatches == 1 ? "" : "es",
			 compact ? "" : " so far");
	if (compact && !in->job_rate_kib)
		rate[0] = '\0';
	else
		snprintf(rate, sizeof(rate), ", rate %s",
			 fmt_rate(t, sizeof(t), in->job_rate_kib));
	snprintf(buf, bufsz, "%s  %u.%u%%  [%s]  %s of %s%s, %s%s%s",
		 VNAME(job_types, in->job_type, false), p / 10, p % 10, bar,
		 human_size(done, sizeof(done), in->job_done * SECTOR_BYTES),
		 human_size(total, sizeof(total), in->job_total * SECTOR_BYTES),
		 compact ? "" : " per member", eta, mism, rate);
	return buf;
}

/*
 * The last job's result by name, for --json's last_job (after its
 * "result", the errno number kept as it was): "outcome" is "none" (no job
 * yet), "done", "stopped" (the module's ECANCELED) or "failed", and
 * "error" the errno's name when it failed ("EIO"), else null.
 */
void json_last_job_result(struct json *j, uint32_t type, uint32_t result)
{
	json_string(j, "outcome", type == VRAID_JOB_NONE ? "none" :
		    result == ECANCELED ? "stopped" :
		    result ? "failed" : "done", SIZE_MAX);
	if (type != VRAID_JOB_NONE && result && result != ECANCELED)
		json_string(j, "error", errname((int)result), SIZE_MAX);
	else
		json_null(j, "error");
}

/*
 * How the last job ended: "check done, 3 mismatches", "rebuild done",
 * "rebuild stopped" (the module reports a stopped job as ECANCELED),
 * "rebuild failed: Input/output error"; with @terse (for show) "check,
 * 3 mismatches", "rebuild, done" and "rebuild, stopped".
 */
char *job_outcome(char *buf, size_t bufsz, const struct vraid_info *in,
			 bool terse)
{
	const char *type = VNAME(job_types, in->last_job, false);
	char mism[48] = "";

	if (job_counts_mismatches(in->last_job))
		snprintf(mism, sizeof(mism), " (%llu mismatch%s found)",
			 (unsigned long long)in->last_mismatches,
			 in->last_mismatches == 1 ? "" : "es");
	if (in->last_job == VRAID_JOB_NONE)
		snprintf(buf, bufsz, "none");
	else if (in->last_result == ECANCELED)
		snprintf(buf, bufsz, "%s%sstopped%s", type, terse ? ", " : " ",
			 mism);
	else if (in->last_result)
		snprintf(buf, bufsz, "%s failed: %s", type,
			 strerror((int)in->last_result));
	else if (job_counts_mismatches(in->last_job))
		snprintf(buf, bufsz, "%s%s, %llu mismatch%s", type,
			 terse ? "" : " done",
			 (unsigned long long)in->last_mismatches,
			 in->last_mismatches == 1 ? "" : "es");
	else
		snprintf(buf, bufsz, "%s%s", type, terse ? ", done" : " done");
	return buf;
}

/* --init fast|background|full */
bool parse_init(const char *s, uint32_t *init)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(init_modes); i++) {
		if (!strcasecmp(s, init_modes[i].json)) {
			*init = init_modes[i].v;
			return true;
		}
	}
	return false;
}
