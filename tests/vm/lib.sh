# tests/vm/lib.sh - helpers for the VM test cases (busybox sh, inside the VM).
#
# A case sources it first:
#     . "$(dirname "$0")/../lib.sh"          (or . "$VRAID_TESTS/lib.sh")
#
# Environment inside the VM (set by tests/vm/init):
#   VRAID_TESTS   the tests/vm tree (/vraid/tests/vm): lib.sh, cases/, ...
#   NVME_DEVS SATA_DEVS SAS_DEVS   member disks, space separated /dev paths,
#                 in the order of the images on the run-in-vm command line
#   VRAID_DISK_BYTES  size of each member disk in bytes
#   VRAID_KO      the module file (/vraid/vraid.ko); vraid is already loaded
#                 unless the run set VRAID_NO_MODULE=1
#   VRAID_KVER    the kernel release; PATH has vraidctl and tests/vm/bin
# Header comments a case may carry (read by tests/vm/run-suite):
#   # vm: --nvme 4 --sata 2 --sas 2     run-in-vm options (same = same boot)
#   # batch: own                       boot a VM for this case alone
#   # timeout: 600                     seconds for this case (default 300)
#   # dmesg-ignore: REGEX              kernel log lines this case expects

VRAID_TESTS=${VRAID_TESTS:-/vraid/tests/vm}

# Kernel log lines that fail a case (extended regex, case sensitive). The
# debug kernel (tests/debug) adds lockdep's "INFO: trying to register
# non-static key", debugobjects' ODEBUG and kmemleak's verbose reports; its
# other reports (KASAN, lockdep, sleeping in atomic context) say BUG: or
# WARNING:.
DMESG_BAD='BUG[: ]|WARNING:|Oops|general protection fault|hung task|blocked for more than|possible circular locking|inconsistent lock state|KASAN|UBSAN|kernel BUG|Kernel panic|list_add corruption|list_del corruption|refcount_t:|stack-protector|double fault|non-static key|ODEBUG:|unreferenced object'

# fail MSG...: print and end the case with status 1
fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# skip MSG...: end the case as passed, saying why it did nothing
skip() {
	echo "SKIP: $*"
	exit 0
}

# assert_eq ACTUAL EXPECTED [WHAT]
assert_eq() {
	[ "$1" = "$2" ] || fail "${3:-value}: got '$1', expected '$2'"
}

# assert_ne ACTUAL UNEXPECTED [WHAT]
assert_ne() {
	[ "$1" != "$2" ] || fail "${3:-value}: got '$1', expected anything else"
}

# expect_fail CMD...: CMD must exit non-zero; its stderr is left in $ERR,
# its stdout in $OUT, its status in $RC.
expect_fail() {
	RC=0
	OUT=$("$@" 2>/tmp/.expect_fail.err) || RC=$?
	ERR=$(cat /tmp/.expect_fail.err)
	rm -f /tmp/.expect_fail.err
	[ "$RC" != 0 ] || fail "expected failure but it succeeded: $*"
	return 0
}

# expect_ok CMD...: CMD must succeed (stdout in $OUT, stderr in $ERR)
expect_ok() {
	RC=0
	OUT=$("$@" 2>/tmp/.expect_ok.err) || RC=$?
	ERR=$(cat /tmp/.expect_ok.err)
	rm -f /tmp/.expect_ok.err
	[ "$RC" = 0 ] || fail "exit status $RC: $* ($ERR)"
	return 0
}

# expect_msg REGEX: the last expect_fail/expect_ok stderr matches REGEX
expect_msg() {
	echo "$ERR" | grep -Eq -- "$1" || fail "message '$ERR' does not match /$1/"
}

# the whole kernel log (4 MiB ring, see log_buf_len in run-in-vm)
kmsg() {
	dmesg -s 8388608 2>/dev/null || dmesg
}

# mark_dmesg [TAG]: remember this point of the kernel log
mark_dmesg() {
	local m="vraid-mark: ${1:-mark} $(cut -d' ' -f1 /proc/uptime) $$"
	echo "$m" >/dev/kmsg
	echo "$m" >/tmp/.vraid-dmesg-mark
}

# dmesg_since_mark: the kernel log after the last mark_dmesg (all of it if
# there was none or it has scrolled out of the ring)
dmesg_since_mark() {
	local m
	m=$(cat /tmp/.vraid-dmesg-mark 2>/dev/null)
	if [ -n "$m" ] && kmsg | grep -qF "$m"; then
		kmsg | awk -v m="$m" 'seen { print } index($0, m) { seen = 1 }'
	else
		kmsg
	fi
}

# dmesg_check: fail-worthy kernel messages since the last mark? Prints them
# (with a little context) and returns 1; returns 0 when clean.
# DMESG_IGNORE (extended regex) drops lines a case expects.
dmesg_check() {
	local hits
	hits=$(dmesg_since_mark | grep -E -- "$DMESG_BAD" |
		{ if [ -n "${DMESG_IGNORE:-}" ]; then grep -Ev -- "$DMESG_IGNORE"; else cat; fi; })
	[ -z "$hits" ] && return 0
	echo "kernel log problems since the mark:"
	echo "$hits" | head -n 20 | sed 's/^/  /'
	return 1
}

# kmemleak_check: on a kernel with kmemleak (the debug kernel, tests/debug;
# no-op elsewhere) scan for leaks now (a scan takes ~15 s there); if it
# finds any, scan again 2 s later so that objects only briefly
# unreferenced (in flight) are not reported; print the objects still
# unreferenced ("unreferenced object 0x... (size N): ... backtrace") and
# return 1. Reported objects are then cleared: the next call reports only
# new ones. KMEMLEAK_IGNORE (extended regex) drops reports whose text
# matches it (a leak of the kernel's own, not vraid's).
KMEMLEAK=/sys/kernel/debug/kmemleak
kmemleak_check() {
	local r
	[ -w $KMEMLEAK ] || return 0
	echo scan >$KMEMLEAK 2>/dev/null || return 0
	r=$(cat $KMEMLEAK 2>/dev/null)
	[ -z "$r" ] && return 0
	sleep 2
	echo scan >$KMEMLEAK 2>/dev/null
	r=$(cat $KMEMLEAK 2>/dev/null)
	echo clear >$KMEMLEAK 2>/dev/null
	if [ -n "$r" ] && [ -n "${KMEMLEAK_IGNORE:-}" ]; then
		# one record per "unreferenced object" line and what follows it
		r=$(echo "$r" | awk -v re="$KMEMLEAK_IGNORE" '
			/^unreferenced object/ { if (rec != "" && rec !~ re) printf "%s", rec; rec = "" }
			{ rec = rec $0 "\n" }
			END { if (rec != "" && rec !~ re) printf "%s", rec }')
	fi
	[ -z "$r" ] && return 0
	echo "kmemleak: $(echo "$r" | grep -c '^unreferenced object') unreferenced object(s):"
	echo "$r" | head -n 400 | sed 's/^/  /'
	return 1
}

# require_devs N [KIND]: at least N member disks (KIND nvme|sata|sas|any)
require_devs() {
	local n=$1 kind=${2:-any} list
	case "$kind" in
	nvme) list=$NVME_DEVS ;;
	sata) list=$SATA_DEVS ;;
	sas) list=$SAS_DEVS ;;
	*) list="$NVME_DEVS $SATA_DEVS $SAS_DEVS" ;;
	esac
	set -- $list
	[ $# -ge "$n" ] || fail "need $n $kind member disks, have $# (use '# vm: --nvme ...')"
}

# all_devs: every member disk, NVMe then SATA then SAS
all_devs() {
	echo $NVME_DEVS $SATA_DEVS $SAS_DEVS
}

# dev_bytes DEV: size in bytes
dev_bytes() {
	blockdev --getsize64 "$1"
}

# wipe_members DEV...: zero the first WIPE_HEAD_MIB (default 8: vraid's
# metadata area, md superblocks, partition tables) and the last
# WIPE_TAIL_MIB (default 1: md 0.90/1.0 superblocks, backup GPT) of each
wipe_members() {
	local d size head=${WIPE_HEAD_MIB:-8} tail=${WIPE_TAIL_MIB:-1} mib=1048576
	for d in "$@"; do
		size=$(blockdev --getsize64 "$d") || fail "wipe_members: $d is not a block device"
		[ "$head" -gt 0 ] && zero_range "$d" 0 $((head * mib))
		[ "$tail" -gt 0 ] && [ "$size" -gt $((tail * mib)) ] &&
			zero_range "$d" $((size - tail * mib)) $((tail * mib))
	done
	return 0
}

# zero_range DEV OFFSET LENGTH (bytes; MiB aligned is fastest)
zero_range() {
	blkdiscard -z -o "$2" -l "$3" "$1" 2>/dev/null && return 0
	dd if=/dev/zero of="$1" bs=1M seek=$(($2 / 1048576)) count=$(($3 / 1048576)) \
		oflag=direct conv=notrunc 2>/dev/null || fail "cannot zero $1 at $2"
}

# mib_sum DEV OFFSET_MIB COUNT_MIB: sha256 of a range (O_DIRECT)
mib_sum() {
	dd if="$1" bs=1M skip="$2" count="$3" iflag=direct 2>/dev/null | sha256sum | cut -d' ' -f1
}

# settle: wait for dm/md nodes to appear (no udev here)
settle() {
	dmsetup mknodes >/dev/null 2>&1
	sync
}

# now: seconds since boot with 1/100 s
now() {
	cut -d' ' -f1 /proc/uptime
}

# recorder_load [vraid-record|log-writes]: load the device-mapper target
# that records a member's writes for the crash states and set RECORDER to
# its target name (a table: "0 LEN $RECORDER DATA LOG"; the same log
# format, the message "mark NAME").  vraid-record (the default): the
# kit's /vraid/kmod/vraid-record.ko (tests/vm/kmod/vraid-record.c), a log
# in completion order; log-writes: the kernel's dm-log-writes, for
# comparison (it logs a plain write that completed before a FUA write
# after it: Documentation/testing.rst, "Crash states").
recorder_load() {
	RECORDER=${1:-vraid-record}
	case $RECORDER in
	vraid-record)
		grep -q "^vraid_record " /proc/modules && return 0
		[ -f /vraid/kmod/vraid-record.ko ] ||
			fail "no vraid-record.ko for $(uname -r): make builds it (tests/vm/kmod; its build.log says why not)"
		modprobe dm-mod 2>/dev/null
		insmod /vraid/kmod/vraid-record.ko || fail "insmod vraid-record.ko"
		;;
	log-writes)
		modprobe dm-log-writes || fail "modprobe dm-log-writes"
		;;
	*) fail "recorder '$RECORDER': vraid-record or log-writes" ;;
	esac
}
