#!/bin/sh
# A write or read the cache does not take whole (part of a page) over
# dirty data waits for that data only: with one member holding writes to
# part of it (dm-delay, ten minutes), so that the lines there cannot be
# destaged, a 1 KiB write and a 512-byte read over dirty pages elsewhere
# complete, and read back what was written (until the twenty-fourth
# session they waited for every dirty page of the VD, here for as long
# as the member held writes).  Then the member lets writes go, and all
# of it, the held 1 MiB included, reads back; parity is consistent.
# Write policy awb (volatile write-back), RAID5.
# timeout: 300
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vraid.sh"
set -e

cleanup() {
	vraidctl delete "${vd:-none}" --force >/dev/null 2>&1 || true
	dmsetup remove vd-x 2>/dev/null || true
}
trap cleanup EXIT

members=$(mixed_members 4)
# shellcheck disable=SC2086 # the members, one word each
zero_members 0 $members
X=$(echo $members | awk '{ print $NF }')
dm_over vd-x "$X"
vd=$(vd_create --level 5 --strip 16K --init fast --write-policy awb \
	$(echo $members | sed "s#$X#/dev/mapper/vd-x#"))
settle

# X holds writes from 512 KiB into its data area on (VD block 0's row is
# before that; VD 4 MiB reaches X after it)
dm_hold vd-x "$X" $((DATA_OFFSET + 1024))

# 1 MiB at 4 MiB: dirty, and its destage (every 2 s) waits for X
dd if=/dev/urandom of=/tmp/held bs=64k count=16 2>/dev/null
dd if=/tmp/held of="$vd" bs=64k seek=64 oflag=direct 2>/dev/null ||
	fail "write of 1 MiB at 4 MiB"
sleep 3
[ "$(vd_attr "$vd" cache_dirty_bytes)" -gt 0 ] ||
	fail "nothing dirty although X holds writes"

# B: 8 KiB at block 0, dirty; then 1 KiB over its first page and a
# 512-byte read of its second, each at once (before B's destage)
dd if=/dev/urandom of=/tmp/b bs=4k count=2 2>/dev/null
dd if=/dev/urandom of=/tmp/p bs=1k count=1 2>/dev/null
dd if=/tmp/b of="$vd" bs=4k count=2 oflag=direct 2>/dev/null ||
	fail "write of B"
t0=$(now)
dd if=/tmp/p of="$vd" bs=512 seek=2 count=2 oflag=direct 2>/dev/null &
ddpid=$!
dd if="$vd" of=/tmp/r bs=512 skip=9 count=1 iflag=direct 2>/dev/null &
rdpid=$!
for pid in $ddpid $rdpid; do
	await $pid 60 "a partial write or read over dirty data waited 60 s: it waits for the dirty data X holds" ||
		fail "the partial write or read failed"
done
echo "a 1 KiB write and a 512-byte read over dirty data took $(awk "BEGIN { print $(now) - $t0 }") s while X holds other dirty data"
dd if=/tmp/b bs=512 skip=9 count=1 2>/dev/null | cmp -s - /tmp/r ||
	fail "the 512-byte read does not return B"
{ dd if=/tmp/b bs=1k count=1 2>/dev/null; cat /tmp/p
  dd if=/tmp/b bs=1k skip=2 count=6 2>/dev/null; } >/tmp/want
dd if="$vd" of=/tmp/got bs=4k count=2 iflag=direct 2>/dev/null || fail "read of block 0"
cmp -s /tmp/got /tmp/want || fail "block 0 does not read back B with the 1 KiB over it"
[ "$(vd_attr "$vd" cache_dirty_bytes)" -gt 0 ] ||
	fail "the dirty 1 MiB X holds went out"

# X lets writes go: everything goes out and reads back
dm_release vd-x "$X"
destaged "$vd"
dd if="$vd" of=/tmp/got bs=64k skip=64 count=16 iflag=direct 2>/dev/null ||
	fail "read at 4 MiB"
cmp -s /tmp/got /tmp/held || fail "the 1 MiB X held does not read back"
dd if="$vd" of=/tmp/got bs=4k count=2 iflag=direct 2>/dev/null || fail "read of block 0"
cmp -s /tmp/got /tmp/want || fail "block 0 changed after the destage"
vraidctl check "$vd" >/dev/null || fail "check did not start"
vraidctl wait "$vd" >/dev/null || fail "check failed"
[ "$(vd_attr "$vd" mismatch_cnt)" = 0 ] ||
	fail "check: $(vd_attr "$vd" mismatch_cnt) mismatches"
dmesg_check || fail "the kernel log shows problems"
echo "partial writes and reads over dirty data wait for that data only"
