#!/bin/sh
# The engine's cut keeps every write and read whole when its split pool
# is empty (issue: architecture step; review: "the GFP_NOWAIT fallbacks
# are untested").  Inside ->submit_bio only the first split of a call
# may wait for the pool; the others take GFP_NOWAIT and, refused, send
# the rest of a new user bio back to the front door, or queue the rest
# of one the cache sends around itself (write policy awb) to a work
# item.  debug_nowait_fail refuses every such split, so that only these
# fallbacks cut: 1 MiB and 192 KiB writes and reads, verified (fio
# crc32c), across 16 KiB strips (the pieces the members' max_sectors
# leave still span several), on a RAID5 written through and on a RAID6 with awb (its large
# writes go around the cache); the refusals are counted
# (debug_nowait_refused), check finds parity consistent, and the kernel
# log shows no warning (the fallback for driver bios warns).
# timeout: 600
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vraid.sh"
set -e

KNOB=/sys/module/vraid/parameters/debug_nowait_fail
COUNT=/sys/module/vraid/parameters/debug_nowait_refused
[ -w $KNOB ] || fail "$KNOB missing: the module has no split refusal knob"
trap 'echo 0 >$KNOB' EXIT

mismatches() { # VD: run a check, print its mismatch count
	vraidctl check "$1" >/dev/null || fail "check $1 did not start"
	vraidctl wait "$1" >/dev/null || fail "check $1 failed"
	vd_attr "$1" mismatch_cnt
}

# cut LEVEL WRITE_POLICY DEVS...: the writes and reads above on a new VD
cut() {
	local level=$1 policy=$2 vd n0 n
	shift 2
	vd=$(vd_create --level "$level" --strip 16K --init fast \
		--write-policy "$policy" "$@")
	n0=$(cat $COUNT)
	echo 1 >$KNOB
	fio_verify "$vd" big --rw=randwrite --bs=1m --size=$(mb 12) --iodepth=8
	fio_verify "$vd" odd --rw=randwrite --bs=192k --size=$(mb 6) \
		--offset=$(mb 12) --iodepth=8
	fio_verify "$vd" mixed --rw=randrw --bs=512k --size=$(mb 4) \
		--offset=$(mb 18) --iodepth=4
	echo 0 >$KNOB
	n=$(($(cat $COUNT) - n0))
	echo "RAID$level $policy: $n splits refused"
	[ "$n" -gt 0 ] || fail "RAID$level $policy: no split was refused: the fallbacks did not run"
	dd if=/dev/zero of="$vd" bs=4k count=0 conv=notrunc,fsync 2>/dev/null ||
		fail "fsync of $vd failed"
	[ "$(mismatches "$vd")" = 0 ] ||
		fail "RAID$level $policy: parity mismatches after the cut by fallbacks"
	vd_delete "$vd"
}

set -- $(mixed_members 4)
zero_members 32 "$@"
cut 5 wt "$@"
cut 6 awb "$@"
dmesg_check || fail "the kernel log shows problems"
echo "the cut's fallbacks keep every write and read whole"
