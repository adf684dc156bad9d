#!/bin/sh
# tests/vm/conf/run.sh - run block-layer conformance cases on every level.
#
# usage (inside the VM, as root):
#   run.sh vd CASE...    for each level, a VD over the VM's member disks
#                        (NVMe, SATA and SAS mixed; conf/common.sh
#                        level_spec), and "CASE.sh VD LEVEL" on it
#   run.sh self CASE...  "CASE.sh LEVEL" for each level: the case builds
#                        its own members (null_blk) and VD
# CONF_LEVELS picks the levels (default: jbod 0 1 10 5 6 50 60).
#
# Prints one line per (case, level):
#   PASS|FAIL|SKIP  CASE  LEVEL  DEVICE  (seconds)
# with the case's notes indented below it (its whole output if it
# failed). A case fails too if the kernel logged a BUG, WARNING, Oops, ...
# while it ran (lib.sh DMESG_BAD). Ends with "conformance: N passed, N
# failed, N skipped"; exit status 1 if any failed.
. "$(dirname "$0")/common.sh"

mode=$1
shift
levels=${CONF_LEVELS:-jbod 0 1 10 5 6 50 60}
passed=0
failed=0
skipped=0

elapsed() {
	awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'
}

# the kernel log since the case started, own marks (run-cases keeps its own)
conf_mark() {
	CONF_MARK="conf-mark: $* $(now) $$"
	echo "$CONF_MARK" >/dev/kmsg
}

conf_dmesg_bad() {
	kmsg | awk -v m="$CONF_MARK" 'seen { print } index($0, m) { seen = 1 }' |
		grep -E -- "$DMESG_BAD" | head -n 20
}

# one CASE LEVEL DEV ARGS...: run CASE.sh ARGS, print its line
one() {
	local c=$1 l=$2 dev=$3 t0 rc bad tag
	shift 3
	t0=$(now)
	conf_mark "$c $l"
	rc=0
	timeout 300 sh "$CONF_DIR/$c.sh" "$@" >/tmp/conf.out 2>&1 || rc=$?
	bad=$(conf_dmesg_bad)
	[ -n "$bad" ] && [ "$rc" = 0 -o "$rc" = 77 ] && rc=99
	dev=$(sed -n 's/^\(ok\|SKIP\|FAIL\): [^ ]* \([^ ]*\) .*/\2/p' /tmp/conf.out | tail -n 1)
	case $rc in
	0)  tag=PASS; passed=$((passed + 1)) ;;
	77) tag=SKIP; skipped=$((skipped + 1)) ;;
	*)  tag=FAIL; failed=$((failed + 1)) ;;
	esac
	printf '%s  %-10s %-5s %-13s (%ss)\n' "$tag" "$c" "$l" "${dev:-$3}" "$(elapsed "$t0")"
	case $tag in
	FAIL)
		[ "$rc" = 124 ] && echo "    timed out after 300 s"
		sed 's/^/    /' /tmp/conf.out
		if [ -n "$bad" ]; then
			echo "    kernel log:"
			echo "$bad" | sed 's/^/      /'
		fi
		;;
	*)
		grep -E '^(  |SKIP|ok:)' /tmp/conf.out | sed 's/^ */    /'
		;;
	esac
}

case $mode in
vd)
	for l in $levels; do
		level_spec "$l"
		members=$(mixed_members "$LS_N")
		vd=$(vraidctl create --force $LS_OPTS $members 2>/tmp/conf.err) || {
			echo "FAIL  create     $l     $(cat /tmp/conf.err)"
			failed=$((failed + 1))
			continue
		}
		vd=/dev/$vd
		for c in "$@"; do
			one "$c" "$l" "$vd" "$vd" "$l"
		done
		vraidctl delete "$vd" --force >/dev/null || {
			echo "FAIL  delete     $l     $vd"
			failed=$((failed + 1))
		}
	done
	;;
self)
	for l in $levels; do
		for c in "$@"; do
			one "$c" "$l" - "$l"
		done
	done
	;;
*)
	echo "usage: run.sh vd|self CASE..." >&2
	exit 2
	;;
esac
echo "conformance: $passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
