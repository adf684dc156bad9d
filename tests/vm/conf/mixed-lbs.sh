#!/bin/sh
# conf/mixed-lbs LEVEL - members with 512-byte and 4 KiB logical blocks.
#
# vraid accepts members of different logical block sizes and gives the VD
# the largest (admin-guide "Levels"). Members are null_blk devices
# (memory backed), alternately blocksize 512 and 4096 (JBOD: one 4096).
# Checks: the VD is created; its logical and physical block size is 4096;
# 512-byte direct I/O is refused (EINVAL), 4 KiB I/O verifies with fio;
# the last blocks work and a write past the end fails; a stop and assemble keep the block size
# and the data. RAID1 only: a 4 KiB-block device as the replacement of a
# member of a 512-byte VD must be refused, since the VD cannot change
# its block size under its users; so must it as its dedicated spare.
. "$(dirname "$0")/common.sh"
lvl=$1
conf_begin mixed-lbs "null_blk" "$lvl"
nullb_require memory_backed blocksize power
level_spec "$lvl"
pre=cnbl

names=""
devs=""
i=0
while [ $i -lt "$LS_N" ]; do
	bs=512
	[ $((i % 2)) = 1 ] || [ "$LS_N" = 1 ] && bs=4096
	nullb_add $pre$i 24 $bs 0
	names="$names $pre$i"
	devs="$devs /dev/$pre$i"
	i=$((i + 1))
done
trap 'nullb_del $names' EXIT
out=$(vraidctl create --force $LS_OPTS $devs 2>&1) || fail "create over 512 B and 4 KiB members refused: $out"
vd=/dev/$(echo "$out" | grep -o '^vraid[0-9]*' | head -n 1)
[ -b "$vd" ] || fail "no VD: $out"
conf_begin mixed-lbs "$vd" "$lvl"
assert_eq "$(blockdev --getss "$vd")" 4096 "logical block size"
[ "$(blockdev --getpbsz "$vd")" -ge 4096 ] || fail "physical block size $(blockdev --getpbsz "$vd")"

bounded dd if=/dev/zero of="$vd" bs=512 count=1 oflag=direct conv=notrunc
[ "$RC" != 0 ] || fail "a 512-byte direct write to a 4 KiB VD succeeded"
fio_verify "$vd" lbs --rw=randwrite --bs=4k --size=1M --iodepth=8
size=$(blockdev --getsize64 "$vd")
rnd_file /tmp/lbs.dat 8192
put_file /tmp/lbs.dat "$vd" $((size - 8192))
[ "$(range_sum "$vd" $((size - 8192)) 8192)" = "$(file_sum /tmp/lbs.dat)" ] ||
	fail "the last two blocks read back wrong"
bounded dd if=/tmp/lbs.dat of="$vd" bs=4096 seek=$((size / 4096)) count=1 oflag=direct conv=notrunc
[ "$RC" != 0 ] || fail "a write past the end succeeded"

vraidctl stop "$vd" >/dev/null || fail "stop"
out=$(vraidctl assemble $devs 2>&1) || fail "assemble: $out"
vd=/dev/$(echo "$out" | sed -n 's/^\(vraid[0-9]*\):.*/\1/p' | head -n 1)
[ -b "$vd" ] || fail "no VD after assemble: $out"
assert_eq "$(blockdev --getss "$vd")" 4096 "logical block size after assembly"
[ "$(range_sum "$vd" $((size - 8192)) 8192)" = "$(file_sum /tmp/lbs.dat)" ] ||
	fail "data differs after assembly"
vraidctl delete "$vd" --force >/dev/null || fail "delete"

if [ "$lvl" = 1 ]; then
	# a 512-byte RAID1, and a 4 KiB device to replace one member with
	nullb_add ${pre}r0 24 512 0
	nullb_add ${pre}r1 24 512 0
	nullb_add ${pre}r2 24 4096 0
	names="$names ${pre}r0 ${pre}r1 ${pre}r2"
	vd=$(vd_create --level 1 --init fast /dev/${pre}r0 /dev/${pre}r1)
	fio_verify "$vd" rep --rw=randwrite --bs=4k --size=1M --iodepth=8
	vraidctl fail "$vd" /dev/${pre}r1 >/dev/null 2>&1 || fail "vraidctl fail"
	RC=0
	out=$(timeout 60 vraidctl replace "$vd" /dev/${pre}r1 /dev/${pre}r2 2>&1) || RC=$?
	[ "$RC" != 0 ] || fail "a 512-byte RAID1 accepted a 4 KiB-block replacement: $out"
	echo "$out" | grep -q "logical blocks" || fail "replace refused without saying why: $out"
	conf_note "a 4 KiB replacement for a 512-byte RAID1 is refused: $out"
	[ "$(vd_attr "$vd" state)" = degraded ] || fail "state $(vd_attr "$vd" state) after the refused replace"
	out=$(vraidctl spare add /dev/${pre}r2 --vd "$vd" 2>&1) && fail "a 4 KiB dedicated spare for a 512-byte RAID1 was accepted"
	conf_note "and as its dedicated spare: $out"
	vraidctl delete "$vd" --force >/dev/null 2>&1
fi
rm -f /tmp/fio.lbs /tmp/lbs.dat
conf_ok "512 B + 4 KiB members give a 4 KiB VD"
