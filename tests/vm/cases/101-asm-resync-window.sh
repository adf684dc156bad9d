#!/bin/sh
# From the moment an assembly that must resync puts its disk live, a
# mirror must read one fixed copy of what it has not resynced yet (issue:
# data safety; review M3).  The assembly lowered init_pos to 0 ("nothing
# known consistent") only after device_add_disk(), in the step that
# starts the jobs: in between, reads (udev's among them) were spread
# over both copies of regions the crash may have left different, so two
# reads of one block could return different data, and parity rows were
# written by read-modify-write from a parity the crash may have left
# wrong.
#   RAID1 of ma and mb (dm-linear); 1 MiB Y written; the members'
#   first 16 MiB (metadata, bitmap with the region's bit set, data)
#   copied while they are suspended - a power cut - and written back
#   after the VD is gone; mb's copy of the 1 MiB then made X (its
#   volatile cache lost Y);
#   the assembly waits 6 s with its disk live (debug_asm_live_delay_ms):
#   parallel direct reads of the 1 MiB meanwhile must all return Y,
#   role 0's copy.  Before the fix they returned X from mb too.
#   After the resync both copies hold Y.
# timeout: 300
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vraid.sh"
set -e

DELAY=/sys/module/vraid/parameters/debug_asm_live_delay_ms
[ -w $DELAY ] || fail "$DELAY missing: the module has no assembly delay knob"
set -- $(mixed_members 2)
DA=$1 DB=$2
MA=/dev/mapper/ma MB=/dev/mapper/mb

cleanup() {
	echo 0 >$DELAY
	vraidctl stop --all >/dev/null 2>&1 || true
	dmsetup remove ma 2>/dev/null || true
	dmsetup remove mb 2>/dev/null || true
}
trap cleanup EXIT

zero_members 16 "$DA" "$DB"
dm_over ma "$DA"
dm_over mb "$DB"
vd=$(vd_create --level 1 --strip 64K --init fast "$MA" "$MB")
dd if=/dev/urandom of=/tmp/y bs=1M count=1 iflag=fullblock 2>/dev/null
dd if=/dev/urandom of=/tmp/x bs=1M count=1 iflag=fullblock 2>/dev/null
dd if=/tmp/y of="$vd" bs=1M oflag=direct 2>/dev/null || fail "writing Y"

# the power cut: the members as they are now, the region's bit still set
# (it is cleared 3 s after the last write; the suspend holds that write)
dmsetup suspend ma mb || fail "dmsetup suspend"
dd if="$DA" of=/tmp/ma.img bs=1M count=16 iflag=direct 2>/dev/null || fail "copying $DA"
dd if="$DB" of=/tmp/mb.img bs=1M count=16 iflag=direct 2>/dev/null || fail "copying $DB"
dmsetup resume ma mb || fail "dmsetup resume"
vraidctl delete "$vd" --force >/dev/null || fail "delete $vd"
dd if=/tmp/ma.img of="$MA" bs=1M oflag=direct conv=notrunc 2>/dev/null || fail "writing $MA back"
dd if=/tmp/mb.img of="$MB" bs=1M oflag=direct conv=notrunc 2>/dev/null || fail "writing $MB back"
rm -f /tmp/ma.img /tmp/mb.img
# mb's cache had not kept Y
dd if=/tmp/x of="$MB" bs=1M seek=$((DATA_OFFSET / 2048)) oflag=direct conv=notrunc 2>/dev/null ||
	fail "writing X onto $MB"

echo 6000 >$DELAY
vraidctl assemble "$MA" "$MB" >/tmp/asm.out 2>&1 &
apid=$!
i=0
until [ -e /sys/block/vraid0/size ] && [ "$(cat /sys/block/vraid0/size)" -gt 0 ]; do
	i=$((i + 1))
	[ $i -lt 100 ] || { cat /tmp/asm.out; fail "the assembled disk did not appear"; }
	sleep 0.05
done
# four readers at once, each its own quarter: the mirror spreads them
# over the copies by load wherever it may
rounds=0
while kill -0 $apid 2>/dev/null && [ $rounds -lt 4 ]; do
	pids=""
	for q in 0 1 2 3; do
		dd if=/dev/vraid0 of=/tmp/r$q bs=64k skip=$((q * 4)) count=4 \
			iflag=direct 2>/dev/null &
		pids="$pids $!"
	done
	wait $pids || fail "round $rounds: a read of the live disk failed"
	for q in 0 1 2 3; do
		dd if=/tmp/y bs=64k skip=$((q * 4)) count=4 2>/dev/null | cmp -s - /tmp/r$q && continue
		if dd if=/tmp/x bs=64k skip=$((q * 4)) count=4 2>/dev/null | cmp -s - /tmp/r$q; then
			fail "round $rounds: quarter $q read mb's copy (X) before the resync: the disk went live with both copies readable"
		fi
		fail "round $rounds: quarter $q read neither Y nor X in the window"
	done
	rounds=$((rounds + 1))
done
kill -0 $apid 2>/dev/null || { cat /tmp/asm.out; fail "the assembly ended before $rounds rounds of reads: the window was not held"; }
echo "$rounds rounds of four parallel reads in the window: all returned role 0's copy"
wait $apid || { cat /tmp/asm.out; fail "assemble failed"; }
echo 0 >$DELAY
kmsg | grep -q "vraid0: not shut down cleanly: resyncing" ||
	fail "the assembly did not resync: the case did not set up what it tests"
vd=$(first_vd)
vraidctl wait "$vd" >/dev/null || fail "the resync of $vd failed"
dd if="$vd" bs=1M count=1 iflag=direct 2>/dev/null | cmp -s - /tmp/y || fail "$vd does not read Y after the resync"
dd if="$MB" bs=1M skip=$((DATA_OFFSET / 2048)) count=1 iflag=direct 2>/dev/null |
	cmp -s - /tmp/y || fail "mb's copy is not Y after the resync"
vd_delete "$vd"
dmesg_check || fail "the kernel log shows problems"
echo "an assembly that must resync reads one copy from the moment its disk is live"
