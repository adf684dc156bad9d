// SPDX-License-Identifier: GPL-2.0
/*
 * vraidctl: the command table and dispatch.
 */
#include "vraidctl.h"

static int cmd_help(int argc, char **argv);

static const struct command commands[] = {
	{ "create", cmd_create,
	  "vraidctl create --level jbod|0|1|5|6|10|50|60 [--strip SIZE] [--spans N] [--name NAME] [--init fast|background|full] [--access rw|ro|blocked] [--disk-cache on|off|default] [--read-policy ra|nora] [--write-policy wt|wb|awb] [--io-policy direct|cached] [--force] [--dry-run] DEV...",
	  "Build a virtual drive from the block devices DEV... (in role order 0, 1, ...)\n"
	  "and print its name, e.g. vraid0.  The first 8 MiB of every member are\n"
	  "reserved for vraid's metadata and data starts after them; whatever the\n"
	  "members held is lost.  First vraidctl looks at each DEV: one in use (a\n"
	  "member of a running VD, a hot spare, the controller's journal, or held\n"
	  "by another opener: mounted, md, dm, LVM) is refused; so is, unless\n"
	  "--force is given, one that holds something vraidctl knows: vraid\n"
	  "metadata (a member of a stopped VD, a stale or damaged one), a vraid\n"
	  "journal, a partition table (MBR, GPT), a file system or volume (ext2/3/4,\n"
	  "XFS, Btrfs, FAT, NTFS, swap, LVM2, LUKS) or an md superblock (0.90,\n"
	  "1.0, 1.1, 1.2).  The VD's metadata is written there: after a reboot\n"
	  "or `vraidctl stop`, `vraidctl assemble` brings it back.  The name is the\n"
	  "only thing printed on standard output (vd=$(vraidctl create ...) works);\n"
	  "notes on the initialisation and its progress go to standard error.\n\n"
	  "  --level LEVEL  jbod (one member), 0, 1, 5, 6, 10, 50 or 60; raid5 and RAID5\n"
	  "                 are accepted too.  The module says which levels it supports.\n"
	  "  --strip SIZE   strip (chunk) size on each member: a power of two from 4K to\n"
	  "                 1M; default 64K.  SIZE is bytes, or has a K, KiB, M or MiB\n"
	  "                 suffix (binary units).  Not for jbod.\n"
	  "  --spans N      RAID50/RAID60 only: number of RAID5/RAID6 spans; the members\n"
	  "                 are split evenly, in order, into the spans\n"
	  "  --name NAME    label (up to 31 letters, digits, '.', '_', '-'); the VD can\n"
	  "                 then be named by it in delete and show\n"
	  "  --init MODE    how a redundant VD (raid1, 5, 6, 10, 50, 60) makes its\n"
	  "                 parity or copies consistent:\n"
	  "                   background  (the default) a job does it while the VD is\n"
	  "                               in use; follow it with `vraidctl show`\n"
	  "                   full        the same job, and vraidctl waits for it to\n"
	  "                               finish, showing its progress, like\n"
	  "                               `vraidctl wait`; exits 1 if it fails\n"
	  "                   fast        none: the members are trusted as they are\n"
	  "                               (e.g. all zeros); `vraidctl init` later\n"
	  "                 Not for jbod and raid0, which have nothing to initialise.\n"
	  "  --force        overwrite what the members hold (never a device in use)\n"
	  "  --dry-run      show the VD (level, members, size) and what each member\n"
	  "                 holds that would be lost; change nothing; exit 0 if the\n"
	  "                 create would go ahead, 1 if it would be refused\n"
	  "  -h, --help     show this help\n\n"
	  "Policies (as `vraidctl set` changes them later; the default first):\n"
	  "  --access rw|ro|blocked       read-write, read-only, or no I/O at all\n"
	  "  --disk-cache default|on|off  the members' own write caches: as the devices\n"
	  "                               are set; used; or not relied on (every write\n"
	  "                               is forced to the media)\n"
	  "  --read-policy nora|ra        no read-ahead, or read-ahead\n"
	  "  --write-policy wt|wb|awb     write-through; write-back while the journal\n"
	  "                               (the \"battery\") is healthy; always write-back\n"
	  "  --io-policy direct|cached    direct I/O, or through the controller cache\n"
	  "  awb completes writes once they are in the controller cache, which is\n"
	  "  volatile: a power loss loses writes not yet flushed (a flush, sync or\n"
	  "  fsync, writes them to the members); a module before ABI 1.8 refuses it\n"
	  "  (EOPNOTSUPP, exit 1).  wb completes writes once they are in the\n"
	  "  controller's journal (`vraidctl controller journal DEV`), which keeps\n"
	  "  them through a power loss; without a healthy journal it writes through\n"
	  "  (show: \"Write in effect\").\n"
	  "  cached keeps what reads bring in the controller cache (stats: hits);\n"
	  "  ra reads ahead of sequential reads into it (stats: read-ahead).\n\n"
	  "example: vraidctl create --level 0 --strip 128K --name scratch /dev/nvme0n1 /dev/nvme1n1\n"
	  "         vraidctl create --level 5 --init full /dev/sdb /dev/sdc /dev/sdd\n"
	  "         vraidctl create --level 1 --disk-cache off /dev/sdb /dev/sdc\n" },
	{ "delete", cmd_delete, "vraidctl delete VD --force | delete VD --dry-run",
	  "Stop and remove the virtual drive VD (given as vraid0, /dev/vraid0, 0 or its\n"
	  "name) and erase its metadata from the members, so it cannot be assembled\n"
	  "again.  It must not be open (mounted, or held by a program).  The data on\n"
	  "the members is left as it is.  What the controller cache holds dirty for\n"
	  "the VD is written to the members first.\n\n"
	  "  --force    needed: without it delete only says what it would destroy\n"
	  "             (the VD, its name, level, size and members) and exits 1;\n"
	  "             with it, dirty cache data the members cannot take (a\n"
	  "             member error) is discarded rather than keeping the VD\n"
	  "  --dry-run  say what delete would destroy and whether it would be\n"
	  "             refused; change nothing\n"
	  "  -h, --help show this help\n" },
	{ "stop", cmd_stop, "vraidctl stop VD [--force]",
	  "Stop the virtual drive VD but keep it: its metadata is marked clean and\n"
	  "`vraidctl assemble` brings it back.  It must not be open.  What the\n"
	  "controller cache holds dirty for the VD is written to the members first;\n"
	  "if that fails (a member error), the stop is refused (EIO) and the VD keeps\n"
	  "running with its dirty data: fix the member and stop it again.\n\n"
	  "  --force    discard the dirty cache data the members cannot take and\n"
	  "             stop all the same: those writes are lost (says how much);\n"
	  "             a module before ABI 1.11 cannot, and stops as without it\n"
	  "  -h, --help show this help\n" },
	{ "assemble", cmd_assemble, "vraidctl assemble [--no-journal] --scan | DEV...",
	  "Bring virtual drives up again from the metadata on their members (after a\n"
	  "reboot, a module reload, or on another machine).  With DEV..., the devices\n"
	  "of one VD; with --scan, every block device is examined and each VD found\n"
	  "is assembled.  The newest generation wins: devices with older metadata are\n"
	  "stale and left out; roles no device fills are missing, and the VD starts\n"
	  "Degraded if its level allows it, otherwise not at all.  A VD whose name is\n"
	  "taken gets a suffix (-2, -3, ...).\n\n"
	  "A write-back VD (write-policy=wb) whose metadata says the controller's\n"
	  "journal may hold writes it acknowledged (after a crash or power loss)\n"
	  "needs that journal, and the assembly replays those writes before the VD\n"
	  "goes live; without it the assembly is refused.  After a crash:\n"
	  "vraidctl assemble --scan (it finds and attaches the journal), or with\n"
	  "named devices: vraidctl controller journal DEV, then vraidctl assemble\n"
	  "DEV....\n\n"
	  "--scan attaches the journal it finds first, unless one is attached or\n"
	  "--no-journal is given: the one the metadata of a VD found names (its\n"
	  "writes wait there), else one attached before the module was unloaded or\n"
	  "the machine stopped, never one released by `controller journal none`;\n"
	  "with several to choose from it attaches none and lists them.  It says\n"
	  "what it attached and why.  A journal device is never taken as a member.\n\n"
	  "  --scan        find and assemble every VD whose members are present\n"
	  "  --no-journal  assemble even though the journal holding writes of the\n"
	  "                VD is not attached: those writes are LOST (the data is\n"
	  "                what the members hold); a module before ABI 1.9 refuses it\n"
	  "  -h, --help    show this help\n" },
	{ "examine", cmd_examine, "vraidctl examine DEV [--json]",
	  "Show what the vraid metadata on the block device DEV says: both copies\n"
	  "(A at 4 KiB, B at 1 MiB) and whether they are valid, and the virtual drive\n"
	  "they describe: UUID, name, level, geometry, this device's role and the\n"
	  "member table.  On a journal device (`vraidctl controller journal DEV`):\n"
	  "both superblock slots (at 4 KiB and 8 KiB), the journal's UUID, ring size,\n"
	  "generation, creation time, tail, flags (DETACHED: detached cleanly;\n"
	  "RELEASED: by `controller journal none`) and whether it is attached.\n"
	  "Exits 1 if DEV holds neither valid vraid metadata nor a valid journal\n"
	  "superblock.\n\n"
	  "  --json     one line of JSON (keys: device copies vd_uuid name level\n"
	  "             nr_members role strip_bytes spans size_bytes member_data_bytes\n"
	  "             data_offset_bytes generation created clean members; for a\n"
	  "             journal: device type slots uuid generation created ring_bytes\n"
	  "             ring_blocks tail_block tail_seq flags detached released\n"
	  "             attached attached_device journal_state)\n"
	  "  -h, --help show this help\n" },
	{ "wipe", cmd_wipe, "vraidctl wipe DEV [--force] [--dry-run]",
	  "Erase vraid's metadata from the block device DEV (or an image file), as\n"
	  "`mdadm --zero-superblock` does md's: a member's two metadata copies (byte\n"
	  "4096 and 1 MiB) and its write-intent bitmap (byte 2 MiB), a controller\n"
	  "journal's two superblock slots (byte 4096 and 8192).  Only the blocks\n"
	  "that carry vraid's magic are zeroed; the rest of DEV is left as it is.\n"
	  "Then `vraidctl examine DEV` finds no vraid metadata and `vraidctl\n"
	  "assemble --scan` passes DEV by.  For the devices `delete` leaves behind\n"
	  "(a replaced, stale or missing member), or a member of a stopped VD you\n"
	  "will not assemble again.  Refused for a device in use: a member of a\n"
	  "running VD (named), the attached journal, a hot spare, or one another\n"
	  "opener holds exclusively (mounted, md, dm).\n\n"
	  "  --force    needed to erase: without it wipe says what it would erase\n"
	  "             and exits 1\n"
	  "  --dry-run  say what it would erase; change nothing\n"
	  "  -h, --help show this help\n\n"
	  "example: vraidctl wipe /dev/sdc --dry-run\n" },
	{ "fail", cmd_fail, "vraidctl fail VD DEV [--force]",
	  "Mark the member DEV of the virtual drive VD failed, as if it had died: vraid\n"
	  "stops using it and the VD runs Degraded on its redundancy.  Refused if the VD\n"
	  "would go Offline (more failed members than its level tolerates) unless\n"
	  "--force is given.\n\n"
	  "  --force    fail the member even if that takes the VD offline\n"
	  "  -h, --help show this help\n\n"
	  "example: vraidctl fail vraid0 /dev/sdc\n" },
	{ "replace", cmd_replace, "vraidctl replace VD OLD NEW [--force] [--dry-run]",
	  "Rebuild the member OLD of the virtual drive VD onto the device NEW, which\n"
	  "takes OLD's role at once (state Rebuilding: written, not read, until the\n"
	  "rebuild is done).  An online OLD is failed first and released.  OLD is a\n"
	  "member's device, its MAJ:MIN as `vraidctl show` lists it, or role:N for a\n"
	  "member that has no device (missing after an assembly).  NEW must not be\n"
	  "in use; a hot spare may be named.  Refused if failing OLD would take the\n"
	  "VD offline, unless --force is given.  Follow the rebuild with\n"
	  "`vraidctl wait VD`.\n\n"
	  "  --force    fail an online OLD even if the VD goes offline\n"
	  "  --dry-run  show the VD, OLD, and NEW with what it holds that the\n"
	  "             rebuild overwrites; change nothing (exit 1 if NEW is in\n"
	  "             use or too small)\n"
	  "  -h, --help show this help\n\n"
	  "examples: vraidctl replace vraid0 /dev/sdc /dev/sdf\n"
	  "          vraidctl replace vraid0 role:2 /dev/sdf\n" },
	{ "spare", cmd_spare,
	  "vraidctl spare add DEV [--vd VD] [--dry-run] | spare remove DEV | spare list [--json]",
	  "Manage hot spares: devices vraid rebuilds onto by itself when a member of a\n"
	  "redundant virtual drive fails.  A global spare serves any VD; one added with\n"
	  "--vd only that VD.\n\n"
	  "  add DEV      make DEV a hot spare (DEV must not be in use)\n"
	  "  remove DEV   stop using DEV as a hot spare\n"
	  "  list         the hot spares: DEVICE, MAJ:MIN, SIZE and FOR (the VD it is\n"
	  "               dedicated to, or global)\n"
	  "  --vd VD      (add) dedicate the spare to the virtual drive VD\n"
	  "  --dry-run    (add) show DEV, what it holds (a rebuild that takes it\n"
	  "               overwrites that) and whether it would be added; change\n"
	  "               nothing\n"
	  "  --json       (list) one line of JSON: {\"spares\":[{\"device\":\"/dev/sde\",\n"
	  "               \"major\":N,\"minor\":N,\"size_bytes\":N,\"vd\":\"vraid0\" or \"\"}]}\n"
	  "  -h, --help   show this help\n\n"
	  "example: vraidctl spare add /dev/sdf --vd vraid0\n" },
	{ "check", cmd_check, "vraidctl check VD [--repair] [--wait]",
	  "Start a consistency check of the redundant virtual drive VD: its parity or\n"
	  "copies are read and compared, and the blocks that do not match are counted\n"
	  "(see `vraidctl show VD`).  One job runs on a VD at a time.\n\n"
	  "  --repair   also rewrite the blocks that do not match\n"
	  "  --wait     wait for the check to finish, like `vraidctl wait`\n"
	  "  -h, --help show this help\n" },
	{ "init", cmd_init, "vraidctl init VD [--wait]",
	  "(Re)initialise the redundant virtual drive VD: a background job makes its\n"
	  "parity or copies consistent, as `create --init background` does.\n\n"
	  "  --wait     wait for it to finish, like `vraidctl wait`\n"
	  "  -h, --help show this help\n" },
	{ "job", cmd_job, "vraidctl job VD pause|resume|stop|rate RATE",
	  "Control the background job (init, rebuild, check, repair, resync) of the\n"
	  "virtual drive VD.\n\n"
	  "  pause      pause it; `vraidctl wait` keeps waiting\n"
	  "  resume     resume a paused job, or go on with an init or rebuild that\n"
	  "             was stopped\n"
	  "  stop       stop it; a stopped init or rebuild goes on with `resume` or\n"
	  "             when the VD is next assembled, a check or repair is over\n"
	  "  rate RATE  limit the job to RATE bytes per second on each member: a whole\n"
	  "             number with a K, M or G suffix (binary units), e.g. 200K, 50M\n"
	  "             or 1G; at least 1K, at most 16G; none or 0 for no limit.  Kept\n"
	  "             for later jobs too.\n"
	  "  -h, --help show this help\n\n"
	  "example: vraidctl job vraid0 rate 50M\n" },
	{ "wait", cmd_wait, "vraidctl wait VD [--timeout SECONDS]",
	  "Wait until the virtual drive VD runs no background job, showing its\n"
	  "progress (redrawn in place on a terminal, otherwise a line every 10 s), then\n"
	  "say how it ended: \"vraid0: check done, 3 mismatches\".  A paused job is\n"
	  "waited for too.  With no job running, says how the last one ended and\n"
	  "returns at once.  Exits 1 if the job (or, with none running, the last\n"
	  "one) failed or was stopped, or on a timeout.\n\n"
	  "  --timeout SECONDS  give up after SECONDS (e.g. 600 or 2.5)\n"
	  "  -h, --help         show this help\n" },
	{ "list", cmd_list, "vraidctl list [--json]",
	  "List the virtual drives: VD, NAME, LEVEL, STATE, SIZE, STRIP, MEMBERS and\n"
	  "JOB (the background job and its progress, e.g. \"rebuild 42%\").\n\n"
	  "  --json     one line of JSON: {\"vds\":[{\"vd\":\"vraid0\",\"index\":0,\"name\":\"...\",\n"
	  "             \"level\":\"raid0\",\"state\":\"optimal\",\"size_bytes\":N,\"strip_bytes\":N,\n"
	  "             \"members\":N,\"job\":\"none\",\"job_percent\":0.0}]}\n"
	  "  -h, --help show this help\n" },
	{ "show", cmd_show, "vraidctl show VD [--json]",
	  "Show the virtual drive VD (given as vraid0, /dev/vraid0, 0 or its name): its\n"
	  "geometry, state, policies, background job and the last job that finished,\n"
	  "and a table of its members with their I/O counts.\n\n"
	  "  --json     one line of JSON (keys: vd index device name level state size_bytes\n"
	  "             strip_bytes spans full_stripe_bytes data_offset_bytes\n"
	  "             member_data_bytes logical_block_size open_count policies members\n"
	  "             job last_job)\n"
	  "  -h, --help show this help\n" },
	{ "stats", cmd_stats,
	  "vraidctl stats VD [--json] [--watch [--interval SECS] [--count N]]",
	  "Show the I/O counters of the virtual drive VD: reads and writes (I/Os and\n"
	  "bytes), flushes and I/Os in flight as the block layer counts them for\n"
	  "/dev/vraidN, read errors vraid repaired from redundancy, and per member the\n"
	  "I/Os vraid sent, the bytes the member device counted and its errors.\n"
	  "Counted since the VD was created or assembled.  With --watch, a report\n"
	  "every interval of what happened during it, as rates, until interrupted.\n"
	  "The cache line: 4 KiB pages of reads answered from the controller cache\n"
	  "(hits) and of reads that looked it up and were not answered (misses):\n"
	  "reads of whole 4 KiB pages up to 1 MiB look it up with io-policy=cached\n"
	  "or read-policy=ra, and with io-policy=cached those up to 128 KiB fill\n"
	  "it.  Then read-ahead: the pages of reads answered from pages it brought\n"
	  "in (hits, counted above too) and the pages read ahead (read-policy=ra);\n"
	  "left out with a module that has no read-ahead counters.  Then\n"
	  "write-back (write-policy=awb, wb with a healthy journal, or once it\n"
	  "wrote into the cache): what the VD wrote into the cache and is not on\n"
	  "its members yet (dirty), the 4 KiB pages written into it and those\n"
	  "written from it to the members (destaged), and on disks the pages read\n"
	  "to complete parity rows before destaging them whole (row fill), and the\n"
	  "writes that waited for destage (the cache's dirty bound) or for the\n"
	  "journal (its bound on pages not logged yet), once there were any; left\n"
	  "out with a module that has no write-back counters.  Last, what the VD\n"
	  "holds in the cache.  All the VDs' dirty data and the journal:\n"
	  "`vraidctl controller`.\n\n"
	  "  --watch          report rates every interval (like iostat)\n"
	  "  --interval SECS  seconds between reports, 0.1 to 86400 (default 2)\n"
	  "  --count N        stop after N reports\n"
	  "  --json           one line of JSON per report (keys without --watch: vd\n"
	  "                   index level state reads read_bytes writes write_bytes\n"
	  "                   flushes in_flight read_repairs cache members; with\n"
	  "                   --watch: vd time interval state reads_per_s writes_per_s\n"
	  "                   read_bytes_per_s write_bytes_per_s flushes_per_s\n"
	  "                   in_flight read_repairs cache members); cache: read_hits\n"
	  "                   read_misses cached_bytes ra_hits ra_pages dirty_bytes\n"
	  "                   write_pages destaged_pages journal_writes\n"
	  "                   journal_pages journal_refs fill_pages dirty_waits\n"
	  "                   journal_waits (with --watch:\n"
	  "                   read_hits_per_s read_misses_per_s cached_bytes\n"
	  "                   ra_hits_per_s ra_pages_per_s dirty_bytes\n"
	  "                   write_pages_per_s destaged_pages_per_s\n"
	  "                   journal_writes_per_s journal_pages_per_s\n"
	  "                   journal_refs_per_s fill_pages_per_s\n"
	  "                   dirty_waits_per_s journal_waits_per_s), null from\n"
	  "                   a module without cache counters; the ra_ ones null\n"
	  "                   from a module without read-ahead counters, the\n"
	  "                   write-back ones from one without write-back counters\n"
	  "  -h, --help       show this help\n\n"
	  "example: vraidctl stats vraid0 --watch --interval 1\n" },
	{ "set", cmd_set, "vraidctl set VD KEY=VALUE...",
	  "Change policies of the virtual drive VD while it runs; the module records\n"
	  "them in the VD's metadata.  The keys given are changed together, in one\n"
	  "request; the others stay as they are.  Then prints the policies in effect:\n"
	  "\"vraid0: access ro, disk cache off, read no-read-ahead, write write-through,\n"
	  "io direct\".  Each KEY at most once:\n\n"
	  "  access=rw|ro|blocked          read-write, read-only, or no I/O at all\n"
	  "  disk-cache=on|off|default     the members' own write caches: used; not\n"
	  "                                relied on (every write is forced to the\n"
	  "                                media); or as the devices are set (default)\n"
	  "  read-policy=ra|nora           read-ahead, or no read-ahead\n"
	  "  write-policy=wt|wb|awb        write-through; write-back while the journal\n"
	  "                                (the \"battery\") is healthy; always write-back\n"
	  "  io-policy=direct|cached       direct I/O, or through the controller cache\n"
	  "  -h, --help                    show this help\n\n"
	  "awb is taken: writes go into the controller cache, complete there and\n"
	  "reach the members later; the cache is volatile, so a power loss loses\n"
	  "writes not yet flushed (a flush, sync or fsync, writes them out; show:\n"
	  "\"Write in effect\"); setting wt or wb after awb writes them out first.\n"
	  "A module before ABI 1.8 refuses awb (EOPNOTSUPP, exit 1).  cached is\n"
	  "taken: reads fill the controller cache and are answered from it; writes\n"
	  "without awb (or wb with a journal) go to the members and replace what\n"
	  "it holds.\n"
	  "ra is taken: sequential reads bring the data after them into the\n"
	  "controller cache ahead of time; with io-policy=direct, reads are\n"
	  "answered from what read-ahead (or awb) brought in and other misses do\n"
	  "not fill it.  wb is taken: while the controller's journal (its\n"
	  "\"battery\", `vraidctl controller journal DEV`) is healthy, writes\n"
	  "complete once they are in the journal and reach the members later; as\n"
	  "a controller's write-back with a bad battery, it writes through while\n"
	  "there is no journal, it awaits replay or it failed (show: \"Write in\n"
	  "effect\").  New VDs start with\n"
	  "access=rw disk-cache=default read-policy=nora write-policy=wt\n"
	  "io-policy=direct unless `vraidctl create` is told otherwise.\n\n"
	  "examples: vraidctl set vraid0 access=ro\n"
	  "          vraidctl set scratch disk-cache=off access=rw\n" },
	{ "controller", cmd_controller,
	  "vraidctl controller [show] [--json] | controller set cache-size=SIZE|default | controller journal DEV [--force] [--dry-run]|none|discard",
	  "Show or change the controller: its cache, one pool in the module's memory\n"
	  "that every virtual drive's cached reads (io-policy=cached), read-ahead\n"
	  "(read-policy=ra) and write-back (write-policy=awb, and wb with a journal)\n"
	  "share, and its journal, the \"battery\" of write-back: a block device\n"
	  "where write-back VDs (write-policy=wb) log each write before it\n"
	  "completes, so that it survives a crash or power loss.\n\n"
	  "  show          (the default) the cache's size, the default size and the\n"
	  "                largest this machine takes, what the virtual drives hold\n"
	  "                in it, dirty data and the journal (state, device, UUID,\n"
	  "                ring size and use, sequence numbers, VDs logging to it);\n"
	  "                what one VD holds: `vraidctl stats VD`\n"
	  "  set cache-size=SIZE|default\n"
	  "                resize the cache at once: SIZE is a whole number of MiB\n"
	  "                from 16M up to half the RAM (at most 1T), with a K, M, G\n"
	  "                or T suffix (binary units), e.g. 256M or 2G; default is\n"
	  "                the module's default (RAM/16 within 32M to 1G).  Shrinking\n"
	  "                drops clean cached data (nothing is lost: dirty data of\n"
	  "                write-back stays until it is on the members).  Prints\n"
	  "                the size now.  Lasts until the module is unloaded: to keep\n"
	  "                a size, load the module with cache_mib=N (a line\n"
	  "                `options vraid cache_mib=N` in /etc/modprobe.d/vraid.conf)\n"
	  "  journal DEV   attach the block device DEV as the journal (one at a\n"
	  "                time): an NVMe namespace or a partition of at least\n"
	  "                64 MiB, outside every virtual drive, not in use.  A DEV\n"
	  "                that holds a vraid journal is attached as it is (with\n"
	  "                writes from before a crash, they are replayed when their\n"
	  "                VDs are assembled); one that holds anything else vraidctl\n"
	  "                knows (vraid metadata, a partition table, a file system:\n"
	  "                `vraidctl help create`) is refused without --force; ANY\n"
	  "                OTHER DEV IS FORMATTED: WHAT IT HOLDS IS OVERWRITTEN.\n"
	  "                Then write-back VDs log to it.\n"
	  "  --force       (journal DEV) format DEV whatever it holds, a vraid\n"
	  "                journal included (the writes it holds are lost); never\n"
	  "                a device in use\n"
	  "  --dry-run     (journal DEV) show what DEV holds and whether it would\n"
	  "                be attached as it is, formatted or refused; change\n"
	  "                nothing (exit 1 if it would be refused)\n"
	  "  journal none  detach the journal: write-back VDs write their dirty\n"
	  "                data to the members, then write through\n"
	  "  journal discard\n"
	  "                drop the writes the journal holds for VDs not assembled\n"
	  "                yet (state replay pending): they are LOST; only when\n"
	  "                those VDs are gone for good\n"
	  "  --json        one line of JSON, the state (after the change):\n"
	  "                {\"cache_bytes\":N,\"cache_default_bytes\":N,\n"
	  "                \"cache_max_bytes\":N,\"used_bytes\":N,\"dirty_bytes\":N,\n"
	  "                \"dirty_high_bytes\":N,\"vds\":N,\"journal\":{\"state\":\"none\"|\n"
	  "                \"healthy\"|\"replay_pending\"|\"failed\",\"major\":N,\"minor\":N,\n"
	  "                \"size_bytes\":N,\"used_bytes\":N,\"device\":\"/dev/nvme2n1\",\n"
	  "                \"uuid\":\"...\",\"head_seq\":N,\"tail_seq\":N,\"pending\":N,\n"
	  "                \"vds\":N}}\n"
	  "  -h, --help    show this help\n\n"
	  "Write-back (write-policy=wb) writes through while there is no journal,\n"
	  "while it awaits replay and after it failed (an I/O error); nothing\n"
	  "acknowledged is lost then.  After a crash or power loss: attach the\n"
	  "journal, then assemble (vraidctl controller journal DEV; vraidctl\n"
	  "assemble --scan).  A device named none or discard: give its path,\n"
	  "./none.\n\n"
	  "show needs only to open the control device; set and journal need root\n"
	  "(CAP_SYS_ADMIN).  The controller command needs a module of ABI 1.7 or\n"
	  "later, the journal one of ABI 1.9 or later.\n\n"
	  "examples: vraidctl controller\n"
	  "          vraidctl controller set cache-size=512M\n"
	  "          vraidctl controller journal /dev/nvme2n1p1\n" },
	{ "version", cmd_version, "vraidctl version",
	  "Print vraidctl's version and ABI version, and the loaded module's ABI version.\n" },
	{ "help", cmd_help, "vraidctl help [COMMAND]",
	  "Show the list of commands, or the help of COMMAND.\n" },
};

const struct command *find_command(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(commands); i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

static void usage(FILE *f)
{
	size_t i;

	fputs("usage: vraidctl COMMAND [ARGS]\n\n"
	      "Create, delete, inspect and maintain vraid virtual drives (software RAID).\n\n", f);
	for (i = 0; i < ARRAY_SIZE(commands); i++)
		fprintf(f, "  %s\n", commands[i].synopsis);
	fputs("\nVD is vraid0, /dev/vraid0, 0, or the name given with --name.\n"
	      "Run `vraidctl help COMMAND` or `vraidctl COMMAND -h` for details.\n\n"
	      "environment: VRAIDCTL_CONTROL  control device (default " CONTROL_DEFAULT ")\n"
	      "exit status: 0 success, 1 failure, 2 bad command line\n", f);
}

static int cmd_help(int argc, char **argv)
{
	if (argc < 2) {
		usage(stdout);
		return RC_OK;
	}
	if (is_help(argv[1]))
		return print_help("help");
	if (argc > 2)
		return usage_error("help", "name one command");
	if (!find_command(argv[1])) {
		errmsg("no command '%s'", argv[1]);
		hintmsg("run `vraidctl help` for the list");
		return RC_USAGE;
	}
	return print_help(argv[1]);
}

int main(int argc, char **argv)
{
	const struct command *c;
	int rc;

	if (argc < 2) {
		usage(stderr);
		return RC_USAGE;
	}
	if (is_help(argv[1]))
		argv[1] = "help";
	else if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V"))
		argv[1] = "version";
	c = find_command(argv[1]);
	if (!c) {
		errmsg("unknown command '%s'", argv[1]);
		hintmsg("run `vraidctl help` for the list of commands");
		return RC_USAGE;
	}
	rc = c->run(argc - 1, argv + 1);
	if (fflush(stdout) || ferror(stdout)) {
		errmsg("cannot write the output: %s", strerror(errno));
		return RC_FAIL;
	}
	return rc;
}
