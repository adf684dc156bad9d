# tests/vm/conf/common.sh - shared helpers of the block-layer conformance
# cases (tests/vm/conf/*.sh); runs inside the VM, sourced by every case:
#     . "$(dirname "$0")/common.sh"
#     conf_begin NAME DEV LEVEL
#
# A conformance case is one small script in the style of blktests. It
# checks one block-layer behaviour of a vraid VD and
#   - exits 0 when it passed (last line "ok: ..."),
#   - exits 1 when it failed ("FAIL: <case> <dev> (<level>): why"),
#   - exits 77 when a prerequisite is missing ("SKIP: ...: why").
# Every line it prints names the case and the device.
#
# Environment: CONF_STRICT=1 turns checks of known, reported, not yet
# fixed problems from warnings into failures (see the cases).

. "${VRAID_TESTS:-/vraid/tests/vm}/lib.sh"
. "${VRAID_TESTS:-/vraid/tests/vm}/vraid.sh"

CONF_DIR=${VRAID_TESTS:-/vraid/tests/vm}/conf
CONF_CASE=${CONF_CASE:-$(basename "$0" .sh)}
CONF_DEV=-
CONF_LEVEL=-

# conf_begin CASE DEV LEVEL: name what the following lines are about
conf_begin() {
	CONF_CASE=$1
	CONF_DEV=$2
	CONF_LEVEL=$3
}

conf_tag() {
	echo "$CONF_CASE $CONF_DEV (${CONF_LEVEL})"
}

# lib.sh's fail, with the case and the device named
fail() {
	echo "FAIL: $(conf_tag): $*" >&2
	exit 1
}

conf_skip() {
	echo "SKIP: $(conf_tag): $*"
	exit 77
}

conf_ok() {
	echo "ok: $(conf_tag)${1:+: $*}"
	exit 0
}

# conf_note MSG: an informational line (what was observed)
conf_note() {
	echo "  $(conf_tag): $*"
}

# conf_known MSG: a known problem (reported, not fixed yet): a warning,
# a failure with CONF_STRICT=1
conf_known() {
	[ "${CONF_STRICT:-0}" = 1 ] && fail "known problem: $*"
	echo "  WARN $(conf_tag): known problem: $*"
}

conf_require_cmd() {
	local c
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 || conf_skip "needs $c"
	done
}

# level_spec LEVEL: member count and create options of the VD the
# conformance runs use for LEVEL (sets LS_N and LS_OPTS). Strips differ
# from level to level so a limit taken from the wrong place shows.
level_spec() {
	case $1 in
	jbod) LS_N=1; LS_OPTS="--level jbod" ;;
	0)  LS_N=3; LS_OPTS="--level 0 --strip 64K" ;;
	1)  LS_N=2; LS_OPTS="--level 1 --init fast" ;;
	10) LS_N=4; LS_OPTS="--level 10 --strip 32K --init fast" ;;
	5)  LS_N=4; LS_OPTS="--level 5 --strip 64K --init fast" ;;
	6)  LS_N=5; LS_OPTS="--level 6 --strip 16K --init fast" ;;
	50) LS_N=6; LS_OPTS="--level 50 --spans 2 --strip 32K --init fast" ;;
	60) LS_N=8; LS_OPTS="--level 60 --spans 2 --strip 16K --init fast" ;;
	*)  fail "level_spec: unknown level $1" ;;
	esac
}

is_parity_level() {
	case $1 in 5|6|50|60) return 0 ;; esac
	return 1
}

# bounded CMD...: run CMD with a 30 s limit; a hang fails the case.
# Sets RC (CMD's status) and ERR (its stderr); stdout goes to stdout.
bounded() {
	RC=0
	timeout 30 "$@" 2>/tmp/.conf.err || RC=$?
	ERR=$(cat /tmp/.conf.err)
	[ "$RC" != 124 ] && [ "$RC" != 143 ] || fail "hung (killed after 30 s): $*"
	return 0
}

# rnd_file FILE BYTES: random data
rnd_file() {
	head -c "$2" /dev/urandom >"$1" || fail "cannot make $1"
}

# put_file FILE DEV OFFSET: write FILE at byte OFFSET of DEV (O_DIRECT)
put_file() {
	dd if="$1" of="$2" bs=64k seek="$3" oflag=direct,seek_bytes \
		conv=notrunc,fsync 2>/tmp/.conf.err ||
		fail "writing $1 at $3 of $2 failed: $(cat /tmp/.conf.err)"
}

# range_sum DEV OFFSET LENGTH: sha256 of LENGTH bytes at OFFSET (O_DIRECT)
range_sum() {
	dd if="$1" bs=64k skip="$2" count="$3" iflag=direct,skip_bytes,count_bytes \
		2>/dev/null | sha256sum | cut -d' ' -f1
}

file_sum() {
	sha256sum "$1" | cut -d' ' -f1
}

# zero_sum LENGTH: sha256 of LENGTH zero bytes
zero_sum() {
	head -c "$1" /dev/zero | sha256sum | cut -d' ' -f1
}

# qattr DEV ATTR: /sys/block/X/queue/ATTR
qattr() {
	cat "/sys/block/${1#/dev/}/queue/$2"
}

# vd_members_of VD: its member devices (/dev paths) from vraidctl show
vd_members_of() {
	vraidctl show "$1" | awk '/^ *ROLE/ { if (t) exit; t = 1; next } t && $2 ~ /^\/dev\// { print $2 }'
}

# vd_json VD KEY: an integer field of `vraidctl show VD --json`
vd_json() {
	vraidctl show "$1" --json | grep -o "\"$2\":[0-9]*" | head -n 1 | cut -d: -f2
}

# ---- null_blk devices through configfs (memory backed) -------------------

NULLB_CFS=/sys/kernel/config/nullb

# nullb_require [ATTR...]: null_blk's configfs interface with ATTRs, or skip
nullb_require() {
	local a
	grep -q '^null_blk ' /proc/modules || modprobe null_blk nr_devices=0 ||
		conf_skip "cannot load null_blk"
	[ -d "$NULLB_CFS" ] || conf_skip "no $NULLB_CFS (configfs not mounted?)"
	[ -f "$NULLB_CFS/features" ] || conf_skip "null_blk has no configfs features"
	for a in "$@"; do
		grep -qw "$a" "$NULLB_CFS/features" || conf_skip "null_blk lacks '$a'"
	done
}

# nullb_add NAME SIZE_MIB BLOCKSIZE CACHE_MIB: /dev/NAME, memory backed;
# CACHE_MIB > 0 gives it a volatile write cache
nullb_add() {
	local d=$NULLB_CFS/$1
	mkdir "$d" || fail "mkdir $d"
	echo "$2" >"$d/size" && echo "$3" >"$d/blocksize" &&
		echo 1 >"$d/memory_backed" && echo "$4" >"$d/cache_size" &&
		echo 1 >"$d/power" || fail "cannot set up null_blk $1"
	[ -b "/dev/$1" ] || fail "/dev/$1 did not appear"
}

# nullb_power NAME 0|1: power a null_blk device off (its cache is lost,
# the disk goes away) or on again (the same /dev/NAME)
nullb_power() {
	echo "$2" >"$NULLB_CFS/$1/power" || fail "null_blk $1 power=$2"
	if [ "$2" = 1 ]; then
		[ -b "/dev/$1" ] || fail "/dev/$1 did not come back"
	fi
}

nullb_del() {
	local n
	for n in "$@"; do
		[ -d "$NULLB_CFS/$n" ] || continue
		echo 0 >"$NULLB_CFS/$n/power" 2>/dev/null
		rmdir "$NULLB_CFS/$n" || echo "  note: cannot remove null_blk $n"
	done
}
