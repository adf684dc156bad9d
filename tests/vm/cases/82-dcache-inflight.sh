#!/bin/sh
# disk-cache=off with a write in flight (issue: data safety).  The change
# flushes the members, then the VD says it has no volatile cache, and the
# block layer drops the flushes users send from then on.  A write that
# started before the change and completes after that flush may still be
# in its member's volatile cache: it must not be acknowledged before a
# flush of its member covers it.  Member 0 is a dm-delay that holds
# data writes 3 s and passes flushes at once; a 4 KiB O_DIRECT write of its
# strip is in flight while `set disk-cache=off` runs and returns; when
# the write completes, member 0 must have seen a flush after the change's
# own.  Before the fix it had not (the write was acknowledged with only
# the change's earlier flush behind it).
# timeout: 300
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vraid.sh"
set -e

# flushes_of SYSDIR: the flushes the device has completed (stat field 16)
flushes_of() {
	awk '{ print $16 }' "$1/stat"
}

set -- $(mixed_members 2)
m0=$1 m1=$2
dm_over dc0 "$m0"
# (dm counts no flushes: the disk under it does)
d0=/sys/dev/block/$(majmin "$m0")
[ "$(cat "$d0/queue/write_cache")" = "write back" ] ||
	skip "$m0 has no volatile write cache: nothing to show"
# (a disk without FUA gets it emulated with flushes, which the counts
# below would mistake for the fix's)
[ "$(cat "$d0/queue/fua")" = 1 ] || skip "$m0 has no FUA"

vd=$(vd_create --level 0 --strip 64K --write-policy wt /dev/mapper/dc0 "$m1")
q=/sys/block/${vd#/dev/}/queue
[ "$(cat $q/write_cache)" = "write back" ] ||
	fail "$vd does not say it has a volatile cache: $(cat $q/write_cache)"
dd if=/dev/urandom of=/tmp/blk bs=4k count=1 2>/dev/null

# writes to dc0's data area wait 3 s, reads and flushes do not (nor
# the metadata the change writes)
sz=$(blockdev --getsz "$m0")
modprobe dm-delay || fail "modprobe dm-delay"
dmsetup suspend dc0 || fail "dmsetup suspend dc0"
printf '%s\n' "0 $DATA_OFFSET linear $m0 0" \
	"$DATA_OFFSET $((sz - DATA_OFFSET)) delay $m0 $DATA_OFFSET 0 $m0 $DATA_OFFSET 3000 $m0 $DATA_OFFSET 0" |
	dmsetup load dc0 ||
	fail "dmsetup load dc0"
dmsetup resume dc0 || fail "dmsetup resume dc0"

# VD block 0 is on member 0 (64 KiB strips)
dd if=/tmp/blk of="$vd" bs=4k count=1 oflag=direct 2>/dev/null &
ddpid=$!
sleep 0.5
kill -0 $ddpid 2>/dev/null || fail "the write did not wait for dc0's delay"
vraidctl set "$vd" disk-cache=off >/tmp/set.out 2>&1 ||
	fail "set disk-cache=off: $(cat /tmp/set.out)"
f0=$(flushes_of "$d0")
kill -0 $ddpid 2>/dev/null ||
	fail "the write completed before set disk-cache=off returned and its flush count was read: not in flight across the change (the VM was too slow?)"
[ "$(cat $q/write_cache)" = "write through" ] ||
	fail "$vd still says it has a volatile cache after disk-cache=off: $(cat $q/write_cache)"
wait $ddpid || fail "the write in flight failed"
f1=$(flushes_of "$d0")
[ "$f1" -gt "$f0" ] ||
	fail "the write in flight at disk-cache=off was acknowledged without a flush of its member after it ($m0 flushes $f0 -> $f1): a power cut could lose it, and the VD no longer takes flushes"
dd if="$vd" bs=4k count=1 iflag=direct 2>/dev/null | cmp -s - /tmp/blk ||
	fail "$vd block 0 does not read the write"
# writes after the change are FUA: no flush per write
dmsetup suspend dc0 && echo "0 $sz linear $m0 0" | dmsetup load dc0 &&
	dmsetup resume dc0 || fail "dc0 back to linear"
f2=$(flushes_of "$d0")
dd if=/dev/urandom of="$vd" bs=4k seek=1 count=16 oflag=direct 2>/dev/null ||
	fail "writes after the change"
[ "$(flushes_of "$d0")" = "$f2" ] ||
	fail "writes after disk-cache=off made member flushes ($f2 -> $(flushes_of "$d0")): they should be FUA"
# back to the members' caches: the VD says so again, and a flush of it
# reaches the members
vraidctl set "$vd" disk-cache=default >/tmp/set.out 2>&1 ||
	fail "set disk-cache=default: $(cat /tmp/set.out)"
[ "$(cat $q/write_cache)" = "write back" ] ||
	fail "$vd does not say it has a volatile cache after disk-cache=default: $(cat $q/write_cache)"
f3=$(flushes_of "$d0")
dd if=/dev/urandom of="$vd" bs=4k seek=1 count=1 oflag=direct conv=fsync 2>/dev/null ||
	fail "a write and fsync after disk-cache=default"
[ "$(flushes_of "$d0")" -gt "$f3" ] ||
	fail "fsync after disk-cache=default sent $m0 no flush"
vd_delete "$vd"
dmsetup remove dc0
echo "disk cache off with a write in flight: ok"
