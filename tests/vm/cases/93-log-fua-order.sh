#!/bin/sh
# The crash states' member logs must replay to what the members hold.
# RAID5 (16 KiB strips), write-back with the controller journal, as the
# 5j crash states run it, every member on a recording target:
#   A: 4 KiB at VD block 300, into the cache (logged in the journal);
#   B: 1 KiB at sector 2402, inside A's block: not whole pages, so it
#      goes around the cache with FUA, after A's destage (a plain
#      write of the member) completed (vraid_cache_conflict());
# nothing flushes the members in between.  Once the VD is gone and each
# member's table removed, each member's whole log is replayed
# (logreplay, every write kept) onto a scratch device: that must equal
# the member's data device.
# The kernel's dm-log-writes (6.1) logs a plain write only when a flush
# covers it, a FUA write when it completes, so A's destage came after B
# in its log and the replay wrote A whole over B: the 5j/6j crash
# states' "acknowledged blocks one generation old" (Documentation/
# testing.rst, "Crash states").  The kit's vraid-record target
# (tests/vm/kmod/vraid-record.c) logs every write when it completes.
# RECORDER=log-writes (tests/vm/run-in-vm --env RECORDER=log-writes
# tests/vm/cases/93-log-fua-order.sh) runs the case on the kernel's
# target: it fails there.
# timeout: 300
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vraid.sh"
set -e

require_devs 4 nvme
MIB=1048576
JD=$(echo $NVME_DEVS | cut -d' ' -f4)

cleanup() {
	journal_cleanup "$JD" vl-m1 vl-d1 vl-l1 vl-t1 vl-m2 vl-d2 vl-l2 vl-t2 \
		vl-m3 vl-d3 vl-l3 vl-t3
}
trap cleanup EXIT

recorder_load "${RECORDER:-vraid-record}"
echo "members recorded by $RECORDER"

# slice NAME DEV OFFSET_MIB SIZE_MIB
slice() {
	echo "0 $(($4 * 2048)) linear $2 $(($3 * 2048))" | dmsetup create "$1" ||
		fail "dmsetup create $1"
	settle
	[ -b "/dev/mapper/$1" ] || fail "/dev/mapper/$1 missing"
}

# per member disk: data 32 MiB, its log 64 MiB, a replay target 32 MiB
members=""
for i in 1 2 3; do
	d=$(echo $NVME_DEVS | cut -d' ' -f$i)
	zero_range "$d" 0 $((32 * MIB))
	zero_range "$d" $((96 * MIB)) $((32 * MIB))
	slice "vl-d$i" "$d" 0 32
	slice "vl-l$i" "$d" 32 64
	slice "vl-t$i" "$d" 96 32
	echo "0 $((32 * 2048)) $RECORDER /dev/mapper/vl-d$i /dev/mapper/vl-l$i" |
		dmsetup create "vl-m$i" || fail "dmsetup create vl-m$i"
	settle
	members="$members /dev/mapper/vl-m$i"
done
journal_new "$JD"
# shellcheck disable=SC2086 # the members, one word each
vd=$(vd_create --level 5 --strip 16K --init fast --write-policy wb $members)
expect_write "$vd" write_back

dd if=/dev/urandom of=/tmp/a bs=4k count=1 iflag=fullblock 2>/dev/null
dd if=/dev/urandom of=/tmp/b bs=1k count=1 iflag=fullblock 2>/dev/null
dd if=/tmp/a of="$vd" bs=4k seek=300 oflag=direct 2>/dev/null || fail "write A"
dd if=/tmp/b of="$vd" bs=1k seek=1201 oflag=direct 2>/dev/null || fail "write B"
{ dd if=/tmp/a bs=1k count=1 2>/dev/null; cat /tmp/b
  dd if=/tmp/a bs=1k skip=2 2>/dev/null; } >/tmp/want
dd if="$vd" of=/tmp/got bs=4k skip=300 count=1 iflag=direct 2>/dev/null
cmp -s /tmp/got /tmp/want || fail "block 300 does not read A with B in it"
destaged "$vd"
vraidctl delete "$vd" --force >/dev/null || fail "delete $vd"
vraidctl controller journal none >/dev/null || fail "controller journal none"

bad=""
for i in 1 2 3; do
	dmsetup remove "vl-m$i" || fail "dmsetup remove vl-m$i"
	logreplay replay --target "/dev/mapper/vl-t$i" --keep all \
		"/dev/mapper/vl-l$i" >/tmp/replay.out 2>&1 ||
		{ cat /tmp/replay.out; fail "logreplay of member $i"; }
	cmp "/dev/mapper/vl-d$i" "/dev/mapper/vl-t$i" >/tmp/cmp.out 2>&1 || {
		echo "member $i: its log replays to other data: $(head -n 1 /tmp/cmp.out)"
		logreplay list "/dev/mapper/vl-l$i" | tail -n 12
		bad="$bad $i"
	}
done
[ -z "$bad" ] || fail "the logs of members$bad replay to other data than the members hold"
echo "every member's log replays to what the member holds"
