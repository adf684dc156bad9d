// SPDX-License-Identifier: GPL-2.0
/*
 * vraidctl: assemble: bring VDs up from their members' metadata.
 */
#include <sys/file.h>

#include "vraidctl.h"

/* A journal --scan found. */
struct scan_journal {
	char path[64];
	struct vraid_jsb sb;
	char vd[40];		/* a VD whose metadata names it ("": none) */
	const char *vd_dev;	/* a member of that VD */
};

/* vraid.conf, read by cmd_assemble() (defaults if there is none). */
static struct vraid_conf conf;

/* "VD NAME (UUID)" or "VD UUID" of @md, for the lines of a refusal. */
static void conf_says(const struct vraid_md *md, const uint8_t *uuid,
		      char *buf, size_t bufsz)
{
	char u[40];

	uuid_str(u, uuid);
	if (md && md->name[0])
		snprintf(buf, bufsz, "VD %.*s (%s)", (int)sizeof(md->name),
			 md->name, u);
	else
		snprintf(buf, bufsz, "VD %s", u);
}

/*
 * May --scan or --incremental bring up the VD of @uuid?  If not, say so
 * (one line on standard output: not an error).
 */
static bool conf_allows(const struct vraid_md *md, const uint8_t *uuid)
{
	char who[96], why[PATH_MAX + 64];

	if (config_auto_vd(&conf, uuid))
		return true;
	conf_says(md, uuid, who, sizeof(who));
	printf("%s: not assembled: %s (assemble its devices by name to bring it up)\n",
	       who, config_why_not(&conf, uuid, why, sizeof(why)));
	return false;
}

/* A device with a hot spare record that --scan found. */
struct scan_spare {
	char path[64];
	struct vraid_sprec sp;
};

/* "/dev/X (UUID u, why)" for the ambiguous-journal list. */
static void scan_journal_says(const struct scan_journal *j, char *buf,
			      size_t bufsz)
{
	char u[40];

	uuid_str(u, j->sb.uuid);
	if (j->vd[0])
		snprintf(buf, bufsz, "%s (UUID %s, named by the metadata of VD %s on %s)",
			 j->path, u, j->vd, j->vd_dev);
	else
		snprintf(buf, bufsz, "%s (UUID %s, %s)", j->path, u,
			 j->sb.flags & VRAID_J_SB_RELEASED ?
			 "released by `controller journal none`" :
			 "attached before the module was unloaded or the machine stopped");
}

/*
 * assemble --scan, before the VDs: attach the journal the scan found, if
 * none is attached and exactly one fits, preferring one that the metadata
 * of a VD found names (its writes wait there for replay) over one that
 * was merely attached before (not released by `controller journal none`).
 * Returns RC_OK, or RC_FAIL when the attach itself failed.
 */
static int scan_attach_journal(struct ctl *c, const char *verb,
			       struct scan_journal *jc, size_t njc,
			       char paths[][64], const struct vraid_md *mds,
			       const int *kinds, size_t nd)
{
	struct scan_journal *pick[16];
	struct vraid_controller req;
	struct vraid_member_ref ref;
	size_t k, i, npick = 0;
	char u[40], what[160], says[256];
	bool named = false;
	int e;

	if (!njc)
		return RC_OK;
	memset(&req, 0, sizeof(req));
	req.action = VRAID_CTRL_SHOW;
	/* a module without the journal: nothing to attach to */
	if (ctl_ioctl(c, VRAID_IOC_CONTROLLER, &req, sizeof(req)) ||
	    !journal_abi(&req) || req.journal_state != VRAID_JOURNAL_NONE)
		return RC_OK;
	for (k = 0; k < njc; k++)
		for (i = 0; i < nd && !jc[k].vd[0]; i++)
			if (kinds[i] == PROBE_MEMBER &&
			    (mds[i].cache_flags & VRAID_MD_CF_JOURNAL) &&
			    !memcmp(mds[i].journal_uuid, jc[k].sb.uuid,
				    VRAID_J_UUID_LEN)) {
				/* its name, else its UUID */
				if (mds[i].name[0])
					tty_str(jc[k].vd, sizeof(jc[k].vd),
						mds[i].name, sizeof(mds[i].name));
				else
					uuid_str(jc[k].vd, mds[i].vd_uuid);
				jc[k].vd_dev = paths[i];
				named = true;
			}
	for (k = 0; k < njc && npick < ARRAY_SIZE(pick); k++)
		if (named ? !!jc[k].vd[0] : !(jc[k].sb.flags & VRAID_J_SB_RELEASED))
			pick[npick++] = &jc[k];
	for (k = 0; k < njc; k++)
		if (!named && (jc[k].sb.flags & VRAID_J_SB_RELEASED)) {
			uuid_str(u, jc[k].sb.uuid);
			printf("%s: vraid journal %s, released by `vraidctl controller journal none`: left detached (`vraidctl controller journal %s` attaches it)\n",
			       jc[k].path, u, jc[k].path);
		}
	if (!npick)
		return RC_OK;
	if (npick > 1) {
		errmsg("found %zu vraid journals that could be this controller's and attached none, as it cannot tell which:",
		       npick);
		for (k = 0; k < npick; k++) {
			scan_journal_says(pick[k], says, sizeof(says));
			errmsg("  %s", says);
		}
		hintmsg("attach the right one with `vraidctl controller journal DEV`, then run `vraidctl assemble --scan` again%s",
			named ? " (the VDs whose writes wait in it are not assembled until then)" : "");
		return RC_OK;
	}
	if (member_ref(pick[0]->path, &ref))
		return RC_FAIL;
	memset(&req, 0, sizeof(req));
	req.action = VRAID_CTRL_JOURNAL_ATTACH;
	req.major = ref.major;
	req.minor = ref.minor;
	e = ctl_ioctl(c, VRAID_IOC_CONTROLLER, &req, sizeof(req));
	if (e) {
		snprintf(what, sizeof(what), "%s: attaching the journal %s",
			 verb, pick[0]->path);
		report(c, what, e, &req.hdr, CTX_CONTROLLER);
		journal_refused(c, &req, e);
		return RC_FAIL;
	}
	uuid_str(u, req.journal_uuid);
	if (pick[0]->vd[0])
		printf("%s: journal %s attached: the metadata of VD %s (%s) says it may hold writes of that VD, to replay at assembly\n",
		       pick[0]->path, u, pick[0]->vd, pick[0]->vd_dev);
	else
		printf("%s: journal %s attached again: it was attached before the module was unloaded or the machine stopped (not released by `vraidctl controller journal none`)\n",
		       pick[0]->path, u);
	if (memcmp(req.journal_uuid, pick[0]->sb.uuid, VRAID_J_UUID_LEN))
		errmsg("warning: the module reports journal UUID %s for %s, not the one its superblock held",
		       u, pick[0]->path);
	if (req.journal_state == VRAID_JOURNAL_REPLAY_PENDING)
		printf("%s: it holds acknowledged writes of %u virtual drive%s: they are replayed as %s assembled\n",
		       pick[0]->path, req.journal_pending,
		       req.journal_pending == 1 ? "" : "s",
		       req.journal_pending == 1 ? "it is" : "they are");
	journal_small(&req, pick[0]->path);
	return RC_OK;
}

static int assemble_one(struct ctl *c, const char *const *devs, size_t n,
			bool scan, uint32_t flags, const uint8_t *uuid)
{
	struct vraid_assemble req;
	const char *pin = uuid ? config_name(&conf, uuid) : NULL;
	char what[64];
	size_t i;
	int e;

	memset(&req, 0, sizeof(req));
	req.nr_devices = (uint32_t)n;
	req.asm_flags = flags;
	/* a name pinned in vraid.conf: the VD's, whatever its metadata says */
	if (pin) {
		req.asm_flags |= VRAID_ASM_NAME;
		snprintf(req.name, sizeof(req.name), "%s", pin);
	}
	for (i = 0; i < n; i++)
		if (member_ref(devs[i], &req.devices[i]))
			return RC_FAIL;
	e = ctl_ioctl(c, VRAID_IOC_ASSEMBLE, &req, sizeof(req));
	if (e == EBUSY && scan) {
		printf("%s%s: in use, skipped (already assembled?)\n", devs[0],
		       n > 1 ? " ..." : "");
		return RC_OK;
	}
	if (e) {
		snprintf(what, sizeof(what), "assemble %s%s", devs[0],
			 n > 1 ? " ..." : "");
		report(c, what, e, &req.hdr, CTX_OTHER);
		if ((flags & VRAID_ASM_NO_JOURNAL) && e == EINVAL && c->replied &&
		    req.hdr.version_major == VRAID_ABI_MAJOR &&
		    req.hdr.version_minor < ABI_MINOR_JOURNAL)
			hintmsg("the vraid module speaks ABI %d.%d, which has no journal and no --no-journal: leave --no-journal out, or load the module built with this vraidctl",
				req.hdr.version_major, req.hdr.version_minor);
		else if (e == EUCLEAN && c->replied)
			hintmsg("it stopped without a clean shutdown while a member was missing or not yet rebuilt where writes were under way: a row written at the crash may be torn (data and parity of different writes), and the missing member's blocks reconstructed from it would be wrong, old data lost without an error (the write hole).  Bring the missing member back if you can; otherwise `vraidctl assemble --force` assembles anyway, accepting possible loss in those regions (the kernel log names them).  A controller journal (write policy wb) closes this hole");
		else if (!(flags & VRAID_ASM_NO_JOURNAL) && c->replied &&
			 strstr(req.hdr.message, "journal"))
			hintmsg("attach the journal first (`vraidctl controller journal DEV`; `vraidctl controller` shows the one attached), then assemble again: the writes are replayed; --no-journal assembles without them (they are lost)");
		return RC_FAIL;
	}
	printf("%s: assembled%s%s, %u of %zu device%s used",
	       req.disk_name, req.name[0] ? " " : "", req.name, req.nr_used, n,
	       n == 1 ? "" : "s");
	if (req.nr_stale)
		printf(", %u stale (left out)", req.nr_stale);
	putchar('\n');
	/* a module before ABI 1.10 leaves them 0: it says so in its log */
	if (req.hdr.version_minor >= ABI_MINOR_REPLAY_COUNTS &&
	    (req.replayed || req.replay_parity)) {
		printf("%s: replayed %u write%s and %u parity record%s from the controller journal",
		       req.disk_name, req.replayed,
		       req.replayed == 1 ? "" : "s", req.replay_parity,
		       req.replay_parity == 1 ? "" : "s");
		if (req.replay_superseded)
			printf(" (%u logged 4 KiB block%s superseded by later writes around the cache, not replayed there)",
			       req.replay_superseded,
			       req.replay_superseded == 1 ? "" : "s");
		putchar('\n');
	}
	return RC_OK;
}

#define SCAN_MAX	512	/* block devices --scan and --incremental look at */

/*
 * Every block device sysfs lists (VRAIDCTL_SYSFS stands in for /sys),
 * but VDs: the members into @paths/@mds/@kinds (returns how many, or
 * (size_t)-1 when sysfs cannot be read), the journals into @jc (up to
 * 16; none when @jc is NULL).  A member under dm or md (a dm-linear over
 * the whole disk shows the same metadata) is left out: its holder is the
 * member; one under a running VD is kept (its assembly reports it busy).
 */
static size_t scan_devices(char paths[][64], struct vraid_md *mds, int *kinds,
			   struct scan_journal *jc, size_t *njc,
			   struct scan_spare *sps, size_t *nsps)
{
	char dir[512];
	struct vraid_sprec sp;
	struct vraid_jsb sb;
	struct dirent *de;
	size_t nd = 0;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/class/block", sysfs_root());
	d = opendir(dir);
	if (!d) {
		errmsg("%s: %s", dir, strerror(errno));
		return (size_t)-1;
	}
	while ((de = readdir(d)) && nd < SCAN_MAX) {
		if (de->d_name[0] == '.' ||
		    !strncmp(de->d_name, VRAID_DISK_PREFIX, strlen(VRAID_DISK_PREFIX)))
			continue;
		if (strlen(de->d_name) > sizeof(paths[nd]) - 6)
			continue;
		snprintf(paths[nd], sizeof(paths[nd]), "/dev/%.*s",
			 (int)sizeof(paths[nd]) - 6, de->d_name);
		kinds[nd] = scan_probe(paths[nd], &mds[nd], &sp, &sb);
		if (kinds[nd] == PROBE_MEMBER &&
		    has_holders_but(de->d_name, true))
			continue;
		if (kinds[nd] == PROBE_MEMBER) {
			nd++;
			continue;
		}
		/* a spare under dm/md: its holder is the spare */
		if (kinds[nd] == PROBE_SPARE) {
			if (sps && *nsps < VRAID_MAX_SPARES &&
			    !has_holders(de->d_name)) {
				memcpy(sps[*nsps].path, paths[nd],
				       sizeof(sps[*nsps].path));
				sps[(*nsps)++].sp = sp;
			}
			continue;
		}
		/* a journal is never a member; one under dm/md: its holder */
		if (!jc || kinds[nd] == PROBE_NONE || has_holders(de->d_name))
			continue;
		if (kinds[nd] == PROBE_BAD_JOURNAL) {
			errmsg("%s: damaged vraid journal superblock: not attached (see `vraidctl examine %s`)",
			       paths[nd], paths[nd]);
			continue;
		}
		if (*njc < 16) {
			memset(&jc[*njc], 0, sizeof(jc[*njc]));
			memcpy(jc[*njc].path, paths[nd], sizeof(jc[*njc].path));
			jc[(*njc)++].sb = sb;
		}
	}
	closedir(d);
	return nd;
}

/* "8c1d0f3e-5244-4a1b-9e07-6d21c355a019" (dashes optional) into @u. */
bool parse_uuid(const char *s, uint8_t u[VRAID_MD_UUID_LEN])
{
	size_t n = 0;
	int hi = -1, v;

	for (; *s; s++) {
		if (*s == '-')
			continue;
		if (*s >= '0' && *s <= '9')
			v = *s - '0';
		else if (*s >= 'a' && *s <= 'f')
			v = *s - 'a' + 10;
		else if (*s >= 'A' && *s <= 'F')
			v = *s - 'A' + 10;
		else
			return false;
		if (n >= VRAID_MD_UUID_LEN)
			return false;
		if (hi < 0) {
			hi = v;
		} else {
			u[n++] = (uint8_t)(hi << 4 | v);
			hi = -1;
		}
	}
	return n == VRAID_MD_UUID_LEN && hi < 0;
}

/* The running VD whose UUID is @u into @in; false if none runs. */
static bool running_uuid(struct ctl *c, const uint8_t *u, struct vraid_info *in)
{
	struct vraid_info *v;
	char want[40], got[64];
	size_t n, i;
	bool hit = false;

	if (get_all(c, &v, &n))
		return false;
	uuid_str(want, u);
	for (i = 0; i < n && !hit; i++)
		if (!strcmp(vd_uuid_text(&v[i], got, sizeof(got)), want)) {
			*in = v[i];
			hit = true;
		}
	free(v);
	return hit;
}

/* What --incremental found: the block devices' members and journals. */
struct incr_scan {
	char paths[SCAN_MAX + 1][64];
	struct vraid_md mds[SCAN_MAX + 1];
	int kinds[SCAN_MAX + 1];
	struct scan_journal jc[16];
	size_t nd, njc;
};

/*
 * The controller's journal as the module reports it into @r; false when
 * none is attached, or the module has no journal or cannot say.
 */
static bool journal_attached(struct ctl *c, struct vraid_controller *r)
{
	memset(r, 0, sizeof(*r));
	r->action = VRAID_CTRL_SHOW;
	return !ctl_ioctl(c, VRAID_IOC_CONTROLLER, r, sizeof(*r)) &&
	       journal_abi(r) && r->journal_state != VRAID_JOURNAL_NONE;
}

/*
 * The VD @uuid, from the members in @s: assemble it once every role its
 * newest metadata counts on (Online or Rebuilding there) has a member of
 * that generation present, and the journal that metadata names (its
 * acknowledged writes wait there for replay) is attached; until then say
 * what is missing and assemble nothing, unless @run: then assemble what
 * is there, Degraded if the level allows it (the module refuses an
 * Offline VD, or one whose journal is missing, and says why).  @dev: the
 * member that appeared (NULL: --uuid, or a journal appeared).
 */
static int incremental_vd(struct ctl *c, struct incr_scan *s, const char *dev,
			  const uint8_t *uuid, bool run, uint32_t flags)
{
	const char *group[VRAID_MAX_MEMBERS];
	const struct vraid_md *best = NULL;
	struct vraid_controller jr;
	bool have[VRAID_MD_MAX_MEMBERS] = { false };
	uint32_t r, expected = 0, present = 0;
	size_t k, ng = 0, stale = 0;
	char u[40], ju[40], who[80], missing[160];

	uuid_str(u, uuid);
	for (k = 0; k < s->nd; k++) {
		if (s->kinds[k] != PROBE_MEMBER ||
		    memcmp(s->mds[k].vd_uuid, uuid, VRAID_MD_UUID_LEN))
			continue;
		if (ng < ARRAY_SIZE(group))
			group[ng++] = s->paths[k];
		if (!best || s->mds[k].generation > best->generation)
			best = &s->mds[k];
	}
	if (!best) {
		printf("VD %s: no member found among the block devices: nothing assembled\n",
		       u);
		return dev ? RC_OK : RC_FAIL;
	}
	for (k = 0; k < s->nd; k++) {
		if (s->kinds[k] != PROBE_MEMBER ||
		    memcmp(s->mds[k].vd_uuid, uuid, VRAID_MD_UUID_LEN))
			continue;
		if (s->mds[k].generation < best->generation)
			stale++;
		else if (s->mds[k].role < best->nr_members &&
			 s->mds[k].role < VRAID_MD_MAX_MEMBERS)
			have[s->mds[k].role] = true;
	}
	missing[0] = '\0';
	for (r = 0; r < best->nr_members && r < VRAID_MD_MAX_MEMBERS; r++) {
		if (best->members[r].state != VRAID_MEMBER_ONLINE &&
		    best->members[r].state != VRAID_MEMBER_REBUILDING)
			continue;	/* failed or missing when it last ran */
		expected++;
		if (have[r])
			present++;
		else
			snprintf(missing + strlen(missing),
				 sizeof(missing) - strlen(missing), "%s%u",
				 missing[0] ? ", " : "", r);
	}
	if (best->name[0])
		snprintf(who, sizeof(who), "VD %.*s (%s)",
			 (int)sizeof(best->name), best->name, u);
	else
		snprintf(who, sizeof(who), "VD %s", u);
	if (!conf_allows(best, uuid))
		return RC_OK;
	if (present < expected && !run) {
		printf("%s: %u of %u members present, waiting for %u more (role%s %s)%s: not assembled yet\n",
		       who, present, expected, expected - present,
		       expected - present == 1 ? "" : "s", missing,
		       stale ? ", and stale ones (older metadata) left out" : "");
		return RC_OK;
	}
	/* its writes wait in a journal: that one attached first */
	if ((best->cache_flags & VRAID_MD_CF_JOURNAL) && !run &&
	    !(flags & VRAID_ASM_NO_JOURNAL)) {
		uuid_str(ju, best->journal_uuid);
		if (!journal_attached(c, &jr)) {
			printf("%s: %u of %u members present, waiting for its journal %s (the writes it acknowledged wait there, to replay at assembly): not assembled yet\n",
			       who, present, expected, ju);
			return RC_OK;
		}
		if (memcmp(jr.journal_uuid, best->journal_uuid,
			   VRAID_J_UUID_LEN)) {
			uuid_str(u, jr.journal_uuid);
			printf("%s: %u of %u members present, but its writes wait in journal %s and the controller's journal is %s: not assembled\n",
			       who, present, expected, ju, u);
			hintmsg("`vraidctl controller` shows the journal attached; detach it (`vraidctl controller journal none`) and attach %s, or assemble with --no-journal (the writes in %s are lost)",
				ju, ju);
			return RC_OK;
		}
	}
	if (present < expected)
		printf("%s: %u of %u members present (role%s %s missing): --run starts it without %s, Degraded if its level allows it\n",
		       who, present, expected,
		       expected - present == 1 ? "" : "s", missing,
		       expected - present == 1 ? "it" : "them");
	return assemble_one(c, group, ng, true, flags, uuid);
}

/* Whether a member the scan found names the attached journal, for VD @k. */
static bool names_journal(const struct vraid_md *md,
			  const struct vraid_controller *jr)
{
	return (md->cache_flags & VRAID_MD_CF_JOURNAL) &&
	       !memcmp(md->journal_uuid, jr->journal_uuid, VRAID_J_UUID_LEN);
}

/*
 * assemble --incremental DEV | --uuid UUID: a member or a journal
 * appeared (a udev add/change event, packaging/udev/64-vraid-members.rules),
 * or the last-resort timer fired (vraid-last-resort@UUID.service).
 *
 * A member: its VD is assembled as incremental_vd() says.  If its
 * metadata names a journal and none is attached, the journal is attached
 * first, as assemble --scan attaches it (scan_attach_journal()), if it is
 * present; else the VD waits for it.
 * A journal (@journal): attached if none is and it is the one --scan
 * would attach (named by a member's metadata, or attached before the
 * stop); then every VD whose members name it and that does not run yet
 * is looked at as if its last member had appeared, so that members and
 * journal appearing in any order end with the VD assembled, its writes
 * replayed.
 * A VD of that UUID that runs already: nothing to do.  Runs are
 * serialised by a lock in /run, so that two devices appearing at once
 * assemble the VD once.
 */
static int assemble_incremental(struct ctl *c, const char *dev,
				const uint8_t *uuid, bool journal, bool run,
				uint32_t flags)
{
	static struct incr_scan s;
	struct vraid_controller jr;
	struct vraid_info in;
	struct stat st, st2;
	struct vraid_jsb sb;
	struct vraid_sprec sp;
	const struct vraid_md *md = NULL;
	size_t k, i;
	char u[40], ju[40];
	int lock, kind, rc = RC_OK;

	lock = open("/run/vraid-incremental.lock",
		    O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (lock >= 0)
		flock(lock, LOCK_EX);
	if (!journal && running_uuid(c, uuid, &in)) {
		uuid_str(u, uuid);
		if (dev)
			printf("%s: a member of VD %s, which runs already as %s%u: nothing to do\n",
			       dev, u, VRAID_DISK_PREFIX, in.index);
		else
			printf("VD %s runs already as %s%u: nothing to do\n",
			       u, VRAID_DISK_PREFIX, in.index);
		goto out;
	}
	s.njc = 0;
	s.nd = scan_devices(s.paths, s.mds, s.kinds, s.jc, &s.njc, NULL, NULL);
	if (s.nd == (size_t)-1) {
		rc = RC_FAIL;
		goto out;
	}
	/* DEV itself, if the scan did not list it (an image file, a new node) */
	if (dev && !stat(dev, &st)) {
		for (k = 0; k < s.nd; k++)
			if (S_ISBLK(st.st_mode) && !stat(s.paths[k], &st2) &&
			    S_ISBLK(st2.st_mode) && st2.st_rdev == st.st_rdev)
				break;
		for (i = 0; k == s.nd && i < s.njc; i++)
			if (S_ISBLK(st.st_mode) && !stat(s.jc[i].path, &st2) &&
			    S_ISBLK(st2.st_mode) && st2.st_rdev == st.st_rdev)
				break;
		if (k == s.nd && i == s.njc && s.nd <= SCAN_MAX) {
			snprintf(s.paths[s.nd], sizeof(s.paths[s.nd]), "%.63s",
				 dev);
			kind = scan_probe(dev, &s.mds[s.nd], &sp, &sb);
			s.kinds[s.nd] = kind;
			if (kind == PROBE_MEMBER) {
				s.nd++;
			} else if (kind == PROBE_JOURNAL &&
				   s.njc < ARRAY_SIZE(s.jc)) {
				memset(&s.jc[s.njc], 0, sizeof(s.jc[s.njc]));
				memcpy(s.jc[s.njc].path, s.paths[s.nd],
				       sizeof(s.jc[s.njc].path));
				s.jc[s.njc++].sb = sb;
			}
		}
	}
	if (!journal) {
		/* the newest metadata of the VD: does it wait for a journal? */
		for (k = 0; k < s.nd; k++)
			if (s.kinds[k] == PROBE_MEMBER &&
			    !memcmp(s.mds[k].vd_uuid, uuid, VRAID_MD_UUID_LEN) &&
			    (!md || s.mds[k].generation > md->generation))
				md = &s.mds[k];
		if (md && (md->cache_flags & VRAID_MD_CF_JOURNAL) &&
		    !(flags & VRAID_ASM_NO_JOURNAL) && s.njc &&
		    !journal_attached(c, &jr) &&
		    scan_attach_journal(c, "assemble --incremental", s.jc,
					s.njc, s.paths, s.mds, s.kinds, s.nd))
			rc = RC_FAIL;
		if (incremental_vd(c, &s, dev, uuid, run, flags))
			rc = RC_FAIL;
		goto out;
	}

	/* a journal appeared */
	uuid_str(u, uuid);
	if (journal_attached(c, &jr)) {
		if (memcmp(jr.journal_uuid, uuid, VRAID_J_UUID_LEN)) {
			uuid_str(ju, jr.journal_uuid);
			printf("%s: vraid journal %s; the controller's journal is %s: this one is left alone\n",
			       dev, u, ju);
			goto out;
		}
		printf("%s: vraid journal %s, the controller's journal already\n",
		       dev, u);
	} else if (flags & VRAID_ASM_NO_JOURNAL) {
		printf("%s: vraid journal %s: not attached (--no-journal)\n",
		       dev, u);
		goto out;
	} else if (scan_attach_journal(c, "assemble --incremental", s.jc,
				       s.njc, s.paths, s.mds, s.kinds, s.nd)) {
		rc = RC_FAIL;
		goto out;
	} else if (!journal_attached(c, &jr)) {
		goto out;	/* scan_attach_journal() said why */
	}
	/* the VDs waiting for it, each once */
	for (k = 0; k < s.nd; k++) {
		if (s.kinds[k] != PROBE_MEMBER || !names_journal(&s.mds[k], &jr))
			continue;
		for (i = 0; i < k; i++)
			if (s.kinds[i] == PROBE_MEMBER &&
			    names_journal(&s.mds[i], &jr) &&
			    !memcmp(s.mds[i].vd_uuid, s.mds[k].vd_uuid,
				    VRAID_MD_UUID_LEN))
				break;
		if (i < k || running_uuid(c, s.mds[k].vd_uuid, &in))
			continue;
		if (incremental_vd(c, &s, NULL, s.mds[k].vd_uuid, run, flags))
			rc = RC_FAIL;
	}
out:
	if (lock >= 0)
		close(lock);
	return rc;
}

int cmd_assemble(int argc, char **argv)
{
	const char *pos[VRAID_MAX_MEMBERS];
	bool scan = false, nojournal = false, force = false, incr = false,
	     run = false, journal = false;
	const char *uuid_arg = NULL;
	uint8_t uuid[VRAID_MD_UUID_LEN];
	uint32_t flags = 0;
	size_t npos;
	struct ctl c;
	int i, j, rc;

	for (i = j = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (!strcmp(argv[i], "--scan"))
			scan = true;
		else if (!strcmp(argv[i], "--no-journal"))
			nojournal = true;
		else if (!strcmp(argv[i], "--force"))
			force = true;
		else if (!strcmp(argv[i], "--incremental"))
			incr = true;
		else if (!strcmp(argv[i], "--run"))
			run = true;
		else if (!strcmp(argv[i], "--uuid") && i + 1 < argc)
			uuid_arg = argv[++i];
		else if (!strcmp(argv[i], "--uuid"))
			return usage_error("assemble", "--uuid needs the VD's UUID (vraidctl examine DEV shows it)");
		else if (!strncmp(argv[i], "--uuid=", 7))
			uuid_arg = argv[i] + 7;
		else
			argv[j++] = argv[i];
	}
	while (i < argc)
		argv[j++] = argv[i++];
	argc = j;
	rc = parse_args("assemble", argc, argv, NULL, NULL, NULL, pos,
			ARRAY_SIZE(pos), &npos);
	if (rc >= 0)
		return rc;
	if (incr && scan)
		return usage_error("assemble", "--incremental and --scan: choose one (--incremental DEV for one member that appeared, --scan for every VD)");
	if ((run || uuid_arg) && !incr)
		return usage_error("assemble", "%s goes with --incremental (e.g. vraidctl assemble --incremental --run --uuid UUID)",
				   run ? "--run" : "--uuid");
	if (incr && uuid_arg && npos)
		return usage_error("assemble", "--incremental: give either the member device DEV or --uuid UUID, not both");
	if (incr && !uuid_arg && npos != 1)
		return usage_error("assemble", "--incremental takes one member device (the one that appeared), or --uuid UUID; %s",
				   npos ? "for several devices of one VD leave --incremental out" :
				   "name it, e.g. vraidctl assemble --incremental /dev/nvme0n1");
	if (uuid_arg && !parse_uuid(uuid_arg, uuid))
		return usage_error("assemble", "--uuid '%s': not a VD UUID (32 hex digits, e.g. 8c1d0f3e-5244-4a1b-9e07-6d21c355a019, as vraidctl examine DEV shows it)",
				   uuid_arg);
	if (!incr && scan == !!npos)
		return usage_error("assemble", "give either --scan or the member devices of one VD");
	if (npos > VRAID_MAX_MEMBERS)
		return usage_error("assemble", "at most %u devices", VRAID_MAX_MEMBERS);
	if (nojournal) {
		flags |= VRAID_ASM_NO_JOURNAL;
		errmsg("warning: --no-journal: a VD whose acknowledged writes are in a journal that is not attached is assembled without them: those writes are lost (its data is what the members hold)");
	}
	if (force)
		flags |= VRAID_ASM_FORCE;
	if (incr && !uuid_arg) {
		/* what DEV holds, before the module is asked anything */
		struct vraid_md md;
		struct vraid_sprec sp;
		struct vraid_jsb sb;
		struct stat st;
		int kind;

		if (stat(pos[0], &st)) {
			errmsg("assemble --incremental %s: %s", pos[0],
			       errno == ENOENT ? "no such device" :
			       strerror(errno));
			return RC_FAIL;
		}
		kind = scan_probe(pos[0], &md, &sp, &sb);
		if (config_load(&conf))
			return RC_FAIL;
		if (kind == PROBE_SPARE) {
			/* a hot spare: back into the pool, nothing else */
			if (!config_auto_spare(&conf, &sp)) {
				printf("%s: hot spare not added: %s refuses it (AUTO -all, or its VD's auto=no; a SPARE line admits it)\n",
				       pos[0], conf.path);
				return RC_OK;
			}
			if (!ctl_open(&c, true))
				return RC_FAIL;
			rc = spare_readd(&c, "assemble --incremental", pos[0],
					 &sp);
			close(c.fd);
			return rc;
		}
		if (kind == PROBE_JOURNAL) {
			memcpy(uuid, sb.uuid, sizeof(uuid));
			journal = true;
		} else if (kind == PROBE_BAD_JOURNAL) {
			errmsg("assemble --incremental %s: damaged vraid journal superblock: not attached",
			       pos[0]);
			hintmsg("`vraidctl examine %s` shows what is left of it", pos[0]);
			return RC_FAIL;
		} else if (kind != PROBE_MEMBER) {
			errmsg("assemble --incremental %s: no valid vraid member metadata or hot spare record on it: not a member of a virtual drive",
			       pos[0]);
			hintmsg("`vraidctl examine %s` shows what it holds", pos[0]);
			return RC_FAIL;
		} else {
			memcpy(uuid, md.vd_uuid, sizeof(uuid));
		}
	}
	if ((!incr || uuid_arg) && config_load(&conf))
		return RC_FAIL;
	if (!ctl_open(&c, true))
		return RC_FAIL;
	if (incr) {
		rc = assemble_incremental(&c, uuid_arg ? NULL : pos[0], uuid,
					  journal, run, flags);
		close(c.fd);
		return rc;
	}
	if (!scan) {
		/* by hand: no pin and no refusal (the devices were named) */
		rc = assemble_one(&c, pos, npos, false, flags, NULL);
		close(c.fd);
		return rc;
	}

	/*
	 * --scan: every block device; a journal first (unless --no-journal),
	 * then the members, grouped by the VD their metadata names.
	 */
	{
		static char paths[SCAN_MAX][64];
		static struct vraid_md mds[SCAN_MAX];
		static int kinds[SCAN_MAX];
		static bool done[SCAN_MAX];
		static struct scan_spare sps[VRAID_MAX_SPARES];
		struct scan_journal jc[16];
		const char *group[VRAID_MAX_MEMBERS];
		size_t nd, njc = 0, nsps = 0, k, g, ng, failed = 0, found = 0;

		nd = scan_devices(paths, mds, kinds, jc, &njc, sps, &nsps);
		if (nd == (size_t)-1) {
			close(c.fd);
			return RC_FAIL;
		}
		if (!nojournal &&
		    scan_attach_journal(&c, "assemble --scan", jc, njc, paths,
					mds, kinds, nd))
			failed++;
		for (k = 0; k < nd; k++)
			done[k] = false;
		for (k = 0; k < nd; k++) {
			if (done[k])
				continue;
			for (g = k, ng = 0; g < nd; g++) {
				if (done[g] || memcmp(mds[g].vd_uuid, mds[k].vd_uuid, 16))
					continue;
				if (ng < ARRAY_SIZE(group))
					group[ng++] = paths[g];
				done[g] = true;
			}
			found++;
			if (!conf_allows(&mds[k], mds[k].vd_uuid))
				continue;
			rc = assemble_one(&c, group, ng, true, flags,
					  mds[k].vd_uuid);
			if (rc == RC_FAIL)
				failed++;
		}
		/* the hot spares, after their VDs (a Degraded one takes one) */
		for (k = 0; k < nsps; k++) {
			found++;
			if (!config_auto_spare(&conf, &sps[k].sp)) {
				printf("%s: hot spare not added: %s refuses it (AUTO -all, or its VD's auto=no; a SPARE line admits it)\n",
				       sps[k].path, conf.path);
				continue;
			}
			if (spare_readd(&c, "assemble --scan", sps[k].path,
					&sps[k].sp))
				failed++;
		}
		close(c.fd);
		if (!found)
			printf("no vraid metadata found on any block device\n");
		return failed ? RC_FAIL : RC_OK;
	}
}
