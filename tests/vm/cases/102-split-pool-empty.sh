#!/bin/sh
# The engine's cut keeps every write and read whole when its split pool
# is empty (issue: architecture step; review: "the GFP_NOWAIT fallbacks
# are untested").  Inside ->submit_bio only the first split of a call
# may wait for the pool; the others take GFP_NOWAIT and, refused, send
# the rest of a new user bio back to the front door, or queue the rest
# of one the cache sends around itself (write policy wb, the journal's
# writes around the cache) to a work item.  debug_nowait_fail refuses
# every such split, so that only these fallbacks cut: 1 MiB and 126 KiB
# writes and reads, verified (fio crc32c), across 16 KiB strips (the
# pieces the members' max_sectors leave still span several), on a RAID5 written through (the front
# door: debug_nowait_front counts) and on a RAID6 writing back through
# the journal (its 126 KiB writes, not whole pages, go around the cache:
# the work item, debug_nowait_later); check finds parity consistent, and the
# kernel log shows no warning (the fallback for driver bios warns).
# timeout: 600
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vraid.sh"
set -e

KNOB=/sys/module/vraid/parameters/debug_nowait_fail
PARAMS=/sys/module/vraid/parameters
[ -w $KNOB ] || fail "$KNOB missing: the module has no split refusal knob"

mismatches() { # VD: run a check, print its mismatch count
	vraidctl check "$1" >/dev/null || fail "check $1 did not start"
	vraidctl wait "$1" >/dev/null || fail "check $1 failed"
	vd_attr "$1" mismatch_cnt
}

# cut_by_fallbacks LEVEL WRITE_POLICY FALLBACK DEVS...: the writes and reads above on
# a new VD; FALLBACK (front or later) must have cut some
cut_by_fallbacks() {
	local level=$1 policy=$2 fallback=$3 count vd n0 n
	count=$PARAMS/debug_nowait_$fallback
	shift 3
	vd=$(vd_create --level "$level" --strip 16K --init fast \
		--write-policy "$policy" "$@")
	[ "$policy" != wb ] || expect_write "$vd" write_back
	n0=$(cat $count)
	echo 1 >$KNOB
	fio_verify "$vd" big --rw=randwrite --bs=1m --size=$(mb 12) --iodepth=8
	fio_verify "$vd" odd --rw=randwrite --bs=126k --size=$(mb 6) \
		--offset=$(mb 12) --iodepth=8
	fio_verify "$vd" mixed --rw=randrw --bs=512k --size=$(mb 4) \
		--offset=$(mb 18) --iodepth=4
	echo 0 >$KNOB
	n=$(($(cat $count) - n0))
	echo "RAID$level $policy: $n splits refused, their rest to the $fallback fallback"
	[ "$n" -gt 0 ] || fail "RAID$level $policy: no split's rest went to the $fallback fallback: it did not run"
	dd if=/dev/zero of="$vd" bs=4k count=0 conv=notrunc,fsync 2>/dev/null ||
		fail "fsync of $vd failed"
	[ "$(mismatches "$vd")" = 0 ] ||
		fail "RAID$level $policy: parity mismatches after the cut by fallbacks"
	vd_delete "$vd"
}

set -- $(mixed_members 5)
a=$1 b=$2 c=$3 d=$4 J=$5
cleanup() {
	echo 0 >$KNOB
	journal_cleanup "$J"
}
trap cleanup EXIT
zero_members 32 "$a" "$b" "$c" "$d"
cut_by_fallbacks 5 wt front "$a" "$b" "$c" "$d"
journal_new "$J"
cut_by_fallbacks 6 wb later "$a" "$b" "$c" "$d"
dmesg_check || fail "the kernel log shows problems"
echo "the cut's fallbacks keep every write and read whole"
