/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vraidctl - create, delete, inspect and maintain vraid virtual drives (VDs):
 * background jobs (init, rebuild, check, repair), hot spares, replacement,
 * policies (access, disk cache, read, write, I/O), and the controller (its
 * cache, shared by all VDs, and its journal, the "battery" of write-back).
 *
 * Talks to the vraid module through ioctls on /dev/vraid-control (the
 * environment variable VRAIDCTL_CONTROL names another file, for tests).
 * Depends on nothing but libc, uapi/linux/vraid.h, tools/common/ (shared
 * with the test helpers) and the module's portable core (the on-disk
 * formats).
 *
 * Exit status: 0 success; 1 the system or the kernel refused (missing
 * device, module not loaded, kernel error); 2 bad command line.
 * Errors go to stderr as "vraidctl: <what was wrong>", optionally followed
 * by "vraidctl: hint: <what to do>".
 *
 * --json output is one line of compact JSON, written only through the
 * JSON writer of output.c (json_begin_object(), json_string(), ...: it
 * puts the commas and escapes the strings); its keys, their order and
 * meaning are documented in Documentation/admin-guide.rst ("JSON output"),
 * the only description of them: change both together, and only by adding
 * keys at the end of an object.
 *
 * The files: main.c (the command table, dispatch), help.c (every command's
 * help text), one file per verb group (create.c: create, delete, stop;
 * show.c: list, show, version; set.c; member.c: fail, spare, replace;
 * job.c: init, check, job, wait; stats.c; metrics.c: stats --prometheus;
 * controller.c; examine.c; wipe.c;
 * assemble.c), and what they share: args.c (the command line), ctl.c (the
 * control device), names.c (ABI values' names), output.c (tables, JSON),
 * probe.c (what a device holds), util.c (messages, sizes).  This header
 * declares what crosses files.
 */
#ifndef VRAIDCTL_H
#define VRAIDCTL_H

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <dirent.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/vraid.h>

#include "vraid_common.h"

/* The on-disk format, shared with the module (driver/core/metadata.c). */
#include "metadata.h"
/* A hot spare's record on its device (driver/core/sparerec.c). */
#include "sparerec.h"
/* VD names as the module checks them (driver/core/validate.c). */
#include "validate.h"
/* The controller cache's size bounds (macros only: driver/core/cachecore.h). */
#include "cachecore.h"
/* The journal's superblock magic and slots (macros only: driver/core/jformat.h). */
#include "jformat.h"
/* A VD's geometry from its members' size, as the module computes it. */
#include "layout.h"
/* The release (VRAID_VERSION), shared with the module and the packages. */
#include "version.h"

#define VRAIDCTL_VERSION	VRAID_VERSION
#define CONTROL_DEFAULT		"/dev/" VRAID_CONTROL_NAME
#define SECTOR_BYTES		512ULL

enum { RC_OK = 0, RC_FAIL = 1, RC_USAGE = 2 };

/* ---- types and constants shared between the files ---- */

struct vname { uint32_t v; const char *human, *json; };
#define VNAME(t, v, json) vname_of(t, t##_n, v, json)

/* The first module ABI that takes always write-back (write-policy awb). */
#define ABI_MINOR_AWB		8

/* What a volatile write-back cache means, after "Write Back (volatile cache)". */
#define VOLATILE_NOTE	"a power loss loses writes not yet flushed"

/* ... and the journal, after "Write Back (journalled)". */
#define JOURNALLED_NOTE	"a write completes once it is in the journal, which keeps it through a power loss"

struct ctl {
	int fd;
	const char *path;
	bool overridden;	/* VRAIDCTL_CONTROL is set */
	bool replied;		/* the last failed request carries a reply */
	double deadline;	/* now_sec() after which a busy controller is
				 * an error, not a wait; 0: none */
	/*
	 * The devices the user named (ctl_name_devices()): report() shows
	 * a MAJ:MIN of the module's message as the user spelled it.
	 */
	const char *const *dev_names;
	const struct vraid_member_ref *dev_refs;
	size_t ndevs;
};

enum ctx {
	CTX_CREATE, CTX_VD, CTX_FAIL, CTX_OTHER, CTX_JOB, CTX_SPARE,
	CTX_REPLACE, CTX_POLICY, CTX_CONTROLLER,
};

#define TMAXCOL	9

#define TCELL	80

struct table {
	size_t ncol, nrow;
	const char *head[TMAXCOL];
	bool right[TMAXCOL];
	char (*row)[TMAXCOL][TCELL];
};

/* The JSON writer's state (output.c): the values so far at each depth. */
#define JSON_DEPTH	8
struct json {
	int depth;
	unsigned int count[JSON_DEPTH];
};

/* A command (main.c) and its help (help.c), both found by name. */
struct command {
	const char *name;
	int (*run)(int argc, char **argv);
};

struct help {
	const char *name;
	const char *synopsis;	/* "vraidctl show VD [--json]" */
	const char *text;	/* what `help COMMAND` prints after it */
};

/* The first module ABI with the journal (ATTACH, DETACH, DISCARD). */
#define ABI_MINOR_JOURNAL	9

/* ASSEMBLE says what the journal's replay did (replayed, ...) */
#define ABI_MINOR_REPLAY_COUNTS	10
/* SPARE ADD writes a hot spare record; VRAID_SPARE_VD_UUID */
#define ABI_MINOR_SPARE_RECORD	14

/* Both superblock slots of a device, decoded, and the one the module takes. */
struct jsb_slots {
	int r[2];		/* vraid_jsb_decode(): 0, -ENODATA no magic, else bad */
	char why[2][VRAID_MSG_LEN];
	struct vraid_jsb sb[2];
	int pick;		/* vraid_jsb_choose(): 0, 1 or a negative errno */
	char pick_why[VRAID_MSG_LEN];
};

struct md_copy {
	const char *label;
	uint64_t sector;
	int status;			/* 0 valid, -ENODATA none, else bad */
	char why[VRAID_MSG_LEN];
	struct vraid_md md;
	/* the same block as a hot spare record: 0 valid, -ENODATA none... */
	int sp_status;
	char sp_why[VRAID_MSG_LEN];
	struct vraid_sprec sp;
};

/*
 * What vraid format a device holds: for --scan, and for the commands that
 * look at a device before they overwrite it (PROBE_BAD_MEMBER: vraid's
 * magic, but no copy is valid).
 */
enum { PROBE_NONE, PROBE_MEMBER, PROBE_JOURNAL, PROBE_BAD_JOURNAL,
       PROBE_BAD_MEMBER, PROBE_SPARE };

/* A signature of another format found on a device. */
struct sig_hit {
	const char *what;		/* "an ext4 file system" */
	char detail[64];		/* "metadata 1.2", "2 partitions", "" */
	const char *lkind;		/* "label", "name" */
	char label[64];			/* its label or name, "" if none */
	uint64_t offset;		/* where the signature is, bytes */
};

/* the entries of signatures[] (probe.c) */
#define NR_SIGNATURES	14

/* What a device holds and what it is used for. */
struct devprobe {
	const char *path;		/* as the user typed it */
	bool blk;			/* a block device (else an image file) */
	uint32_t major, minor;
	int err;			/* it could not be opened: errno */
	bool busy;			/* another opener holds it exclusively */
	uint64_t bytes;			/* its size */
	int kind;			/* PROBE_*: vraid's own format */
	struct md_copy copies[2];
	int best;			/* PROBE_MEMBER: the copy used, 0 or 1;
					 * PROBE_SPARE: the record's copy */
	struct jsb_slots js;
	bool bitmap;			/* the bitmap's magic at byte 2 MiB */
	struct sig_hit hits[NR_SIGNATURES];
	size_t nhits;			/* other formats found */
	int live;			/* LIVE_* */
	const struct vraid_info *vd;	/* LIVE_MEMBER: its VD; PROBE_MEMBER:
					 * the running VD the metadata names */
	uint32_t role;			/* LIVE_MEMBER: its role */
	int spare_for;			/* LIVE_SPARE: the VD's index, -1 global */
};

/* What the module says it runs: VDs, spares, its journal. */
struct live {
	bool known;			/* the module answered */
	uint16_t abi_minor;		/* the module's, from its replies */
	struct vraid_info *vds;
	size_t nvd;
	uint8_t (*uuid)[VRAID_MD_UUID_LEN];	/* each VD's, from a member */
	bool *have_uuid;
	bool uuid_read;
	struct vraid_spare spares;	/* nr_spares 0 if unknown */
	struct vraid_controller ctrl;	/* journal_state NONE if unknown */
};

#define PHRASE	400

/* the entries of signatures[] (probe.c) */
#define NR_SIGNATURES	14

/* The phrases of a device, with room for every kind. */
#define MAX_PHRASES	(NR_SIGNATURES + 3)

struct pol_word {
	const char *word;	/* on the command line: "wt" */
	uint32_t v;		/* VRAID_WRITE_THROUGH */
	const char *says;	/* in set's output: "write-through" */
};

/* The policies, in the order `set` prints them. */
enum { POL_ACCESS, POL_DCACHE, POL_READ, POL_WRITE, POL_IO, NR_POL };

struct policy {
	const char *key;	/* set's KEY; create's option is --KEY */
	const char *label;	/* in set's output: "disk cache off" */
	uint32_t bit;		/* VRAID_SET_* */
	const struct pol_word *words;
	size_t nwords;
	const char *choices;
};

#define POL_ALL	(VRAID_SET_ACCESS | VRAID_SET_DISK_CACHE | VRAID_SET_READ | \
		 VRAID_SET_WRITE | VRAID_SET_IO)

/*
 * What the block layer counts for a disk (/sys/class/block/NAME/stat,
 * Documentation/block/stat.rst): I/Os and sectors per direction, I/Os in
 * flight, flushes.
 */
struct blk_stat {
	bool ok;
	uint64_t rios, rsect, wios, wsect, inflight, fios;
};

/* One look at a VD: INFO, its own block counters and its members'. */
struct stats_sample {
	double t;
	struct vraid_info in;
	struct blk_stat vd;
	struct blk_stat m[VRAID_MAX_MEMBERS];
	uint64_t flushes, read_repairs;
	bool cache;			/* the module has cache counters */
	uint64_t chits, cmisses, cbytes;
	bool ra;			/* ... and read-ahead ones (ABI 1.7) */
	uint64_t rahits, rapages;
	bool wb;			/* ... and write-back ones (ABI 1.8) */
	uint64_t dirty, wpages, destaged;
	bool jl;			/* ... and journal ones (ABI 1.9) */
	uint64_t jwrites, jpages;
	bool jr;			/* ... and journal_refs */
	uint64_t jrefs;
	bool fl;			/* ... and cache_fill_pages */
	uint64_t fpages;
	bool wt;			/* ... and the two wait counters */
	uint64_t dwaits, jwaits;
};

/* ---- tables (names.c, controller.c) ---- */

extern const struct policy policies[NR_POL];
extern const struct vname levels[];
extern const size_t levels_n;
extern const struct vname vd_states[];
extern const size_t vd_states_n;
extern const struct vname member_states[];
extern const size_t member_states_n;
extern const struct vname access_pols[];
extern const size_t access_pols_n;
extern const struct vname dcache_pols[];
extern const size_t dcache_pols_n;
extern const struct vname io_pols[];
extern const size_t io_pols_n;
extern const struct vname read_pols[];
extern const size_t read_pols_n;
extern const struct vname write_pols[];
extern const size_t write_pols_n;
extern const struct vname job_types[];
extern const size_t job_types_n;
extern const struct vname job_states[];
extern const size_t job_states_n;
extern const struct vname write_effs[];
extern const size_t write_effs_n;
extern const struct vname journal_states[];
extern const size_t journal_states_n;

/* ---- util.c ---- */

void errmsg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void hintmsg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
const char *errname(int e);
char *human_size(char *buf, size_t bufsz, uint64_t bytes);
char *utc_date(char *buf, size_t bufsz, uint64_t secs);
bool parse_size(const char *s, uint64_t *out);
bool size_decimal_refused(const char *s);
void udev_change(unsigned int major, unsigned int minor);

/* ---- output.c ---- */

/*
 * The JSON writer: @key is the value's key in the object it is in, NULL
 * in an array or for the outermost value, whose end ends the line.
 */
void json_begin_object(struct json *j, const char *key);
void json_end_object(struct json *j);
void json_begin_array(struct json *j, const char *key);
void json_end_array(struct json *j);
/* a string of at most @max bytes (NUL-terminated or not), escaped */
void json_string(struct json *j, const char *key, const char *s, size_t max);
void json_u64(struct json *j, const char *key, uint64_t v);
void json_bool(struct json *j, const char *key, bool v);
void json_null(struct json *j, const char *key);
/* @v with @decimals digits after the point (0: none, and no point) */
void json_fixed(struct json *j, const char *key, double v, int decimals);
/* @p thousandths as a number with one decimal: 423 -> 42.3 */
void json_permille(struct json *j, const char *key, unsigned int p);
/* "/dev/NAME" of a device name from the kernel (@namesz bytes, NUL-terminated
 * or not), or "" for an empty name */
void json_dev(struct json *j, const char *key, const char *name,
	      size_t namesz);
void table_print(const struct table *t);
char (*table_row(struct table *t))[TCELL];
char *tty_str(char *dst, size_t dstsz, const char *src, size_t srcsz);

/* ---- names.c ---- */

void cache_hint(const struct vraid_ioc_hdr *h, uint32_t mask,
		       const uint32_t *v);
uint64_t data_members(const struct vraid_info *in);
char *fmt_rate(char *buf, size_t bufsz, uint32_t kib);
bool job_counts_mismatches(uint32_t type);
void json_last_job_result(struct json *j, uint32_t type, uint32_t result);
char *job_outcome(char *buf, size_t bufsz, const struct vraid_info *in,
			 bool terse);
unsigned int job_permille(const struct vraid_info *in);
char *job_progress(char *buf, size_t bufsz, const struct vraid_info *in,
			  bool compact);
bool parse_init(const char *s, uint32_t *init);
bool parse_level(const char *s, uint32_t *level);
bool pol_needs_cache(uint32_t mask, const uint32_t *v);
bool pol_parse(const struct policy *p, const char *s, uint32_t *v);
const char *pol_says(size_t k, uint32_t v);
bool redundant(uint32_t level);
uint32_t strip_of(const struct vraid_info *in);
const char *vname_of(const struct vname *t, size_t n, uint32_t v,
			    bool json);
void write_note(const struct vraid_info *in, const char *name);
const char *write_why(const struct vraid_info *in, bool json);

/* ---- ctl.c ---- */

int ctl_ioctl(struct ctl *c, unsigned long req, void *buf, size_t size);
bool ctl_open(struct ctl *c, bool write);
void ctl_name_devices(struct ctl *c, const char *const *names,
		      const struct vraid_member_ref *refs, size_t n);
void ctl_path(struct ctl *c);
int get_all(struct ctl *c, struct vraid_info **out, size_t *nout);
int get_info(struct ctl *c, uint32_t index, struct vraid_info *in,
		    bool quiet_gone);
double now_sec(void);
bool reply_sane(uint32_t n, uint32_t max, const char *field);
void report(struct ctl *c, const char *what, int e,
		   const struct vraid_ioc_hdr *h, enum ctx ctx);
int resolve_vd(struct ctl *c, const char *arg, struct vraid_info *in);
/* ctl_open(), resolve_vd() and the VD's name "vraidN" into @name (if not NULL) */
int open_vd(struct ctl *c, bool write, const char *arg, struct vraid_info *in,
	    char *name, size_t namesz);
void sleep_sec(double s);
int wait_job(struct ctl *c, struct vraid_info *in, double timeout,
		    FILE *out, bool started);

/* ---- args.c ---- */

int check_name(const char *name);
int check_strip(const char *s, uint32_t *strip);
bool is_help(const char *a);
int member_ref(const char *path, struct vraid_member_ref *ref);
int parse_args(const char *cmd, int argc, char **argv,
		      const char *const *names, const char **vals, bool *json,
		      const char **pos, size_t maxpos, size_t *npos);
bool parse_seconds(const char *s, double *out);
int print_help(const char *name);
bool take_flag(int *argc, char **argv, const char *flag);
int __attribute__((format(printf, 2, 3)))
usage_error(const char *cmd, const char *fmt, ...);

/* ---- create.c ---- */

int cmd_create(int argc, char **argv);
int cmd_delete(int argc, char **argv);
int cmd_stop(int argc, char **argv);

/* ---- show.c ---- */

int cmd_list(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_version(int argc, char **argv);

/* ---- set.c ---- */

int cmd_set(int argc, char **argv);

/* ---- member.c ---- */

int cmd_fail(int argc, char **argv);
int cmd_replace(int argc, char **argv);
int cmd_spare(int argc, char **argv);

/* ---- job.c ---- */

int cmd_check(int argc, char **argv);
int cmd_init(int argc, char **argv);
int cmd_job(int argc, char **argv);
int cmd_wait(int argc, char **argv);

/* ---- stats.c ---- */

int cmd_stats(int argc, char **argv);
int take_sample(struct ctl *c, uint32_t index, struct stats_sample *s,
		bool quiet_gone);

/* ---- metrics.c ---- */

int stats_prometheus(const char *const *args, size_t nargs, const char *out);
bool read_vd_attr(uint32_t index, const char *attr, uint64_t *val);
const char *sysfs_root(void);

/* ---- controller.c ---- */

char *blk_dev_name(char *buf, size_t bufsz, uint32_t maj, uint32_t min);
int cmd_controller(int argc, char **argv);
int examine_journal(const char *dev, int fd, const struct jsb_slots *j,
			   bool json);
bool journal_abi(const struct vraid_controller *r);
void journal_refused(struct ctl *c, const struct vraid_controller *req,
			    int e);
void journal_small(const struct vraid_controller *r, const char *who);
bool jsb_magic(const struct jsb_slots *j);
void jsb_read(int fd, const char *dev, struct jsb_slots *j);
void uuid_str(char *out, const uint8_t *u);

/* ---- events.c ---- */

int cmd_events(int argc, char **argv);
int cmd_monitor(int argc, char **argv);

/* ---- examine.c ---- */

int cmd_examine(int argc, char **argv);
int read_copy(int fd, const char *dev, struct md_copy *c);

/* ---- config.c: vraid.conf ---- */

#define CONFIG_DEFAULT	"/etc/vraid/vraid.conf"

/* A VD line. */
struct conf_vd {
	uint8_t uuid[VRAID_MD_UUID_LEN];
	char name[VRAID_NAME_LEN];	/* "" none pinned */
	int auto_ok;			/* auto=: 1 yes, 0 no, -1 not given */
	unsigned int line;
};

struct vraid_conf {
	const char *path;
	bool loaded;			/* a file was read (else defaults) */
	bool auto_all;			/* AUTO +all (the default) */
	unsigned int auto_line;
	struct conf_vd vds[64];
	size_t nvd;
	uint8_t spares[VRAID_MAX_SPARES][VRAID_MD_UUID_LEN];
	size_t nspares;
	char mailaddr[256];		/* "" none */
	char program[1024];		/* "" none */
};

extern const char *config_path;
/* Read the configuration: RC_OK (defaults if the default file is absent) or RC_FAIL after saying FILE:LINE: why. */
int config_load(struct vraid_conf *cf);
/* May assemble --scan / --incremental bring this VD (spare) up by itself? */
bool config_auto_vd(const struct vraid_conf *cf, const uint8_t *uuid);
bool config_auto_spare(const struct vraid_conf *cf,
		       const struct vraid_sprec *sp);
/* Why config_auto_vd() said no: "FILE:LINE says ...", into @buf. */
char *config_why_not(const struct vraid_conf *cf, const uint8_t *uuid,
		     char *buf, size_t bufsz);
/* The name pinned to the VD of @uuid, or NULL. */
const char *config_name(const struct vraid_conf *cf, const uint8_t *uuid);
bool parse_uuid(const char *s, uint8_t u[VRAID_MD_UUID_LEN]);
bool mail_address_ok(const char *a);

/* ---- probe.c ---- */

int create_guard(const char *const *devs, size_t n,
			const struct vraid_create *req, bool force, bool dry);
bool has_holders(const char *name);
bool has_holders_but(const char *name, bool but_vds);
void in_use_hint(const struct devprobe *p);
char *join_phrases(char *buf, size_t bufsz, char (*ph)[PHRASE],
			  size_t n);
int journal_guard(const char *arg, bool force, bool dry);
void live_free(struct live *l);
void live_load(struct live *l);
int probe_dev(struct devprobe *p, const char *path, bool files);
bool probe_in_use(const struct devprobe *p, const struct live *l,
			 char *buf, size_t bufsz);
void probe_live(struct devprobe *p, struct live *l);
size_t probe_phrases(const struct devprobe *p, bool journal,
			    char (*ph)[PHRASE], size_t max);
int replace_dry(const struct vraid_info *in,
		       const struct vraid_member_info *m, const char *old,
		       const char *new, bool force);
int spare_copy(const struct md_copy *c);
int spare_readd(struct ctl *c, const char *verb, const char *dev,
		const struct vraid_sprec *sp);
int scan_probe(const char *path, struct vraid_md *md, struct vraid_sprec *sp,
		      struct vraid_jsb *sb);
int spare_dry(const char *dev, const char *vd);
char *vd_says(char *buf, size_t bufsz, const struct vraid_info *in);
bool vd_uuid(const struct vraid_info *in, uint8_t uuid[VRAID_MD_UUID_LEN]);
/* show.c: sysfs's uuid, else vd_uuid(); "" if neither */
char *vd_uuid_text(const struct vraid_info *in, char *buf, size_t bufsz);

/* ---- wipe.c ---- */

int cmd_wipe(int argc, char **argv);

/* ---- assemble.c ---- */

int cmd_assemble(int argc, char **argv);

/* ---- main.c ---- */

const struct command *find_command(const char *name);

/* ---- help.c ---- */

/* The help of the command @name, or NULL. */
const struct help *find_help(const char *name);

#endif /* VRAIDCTL_H */
