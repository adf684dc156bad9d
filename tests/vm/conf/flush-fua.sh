#!/bin/sh
# conf/flush-fua LEVEL - flushed and FUA writes survive a power loss of
# members with a volatile write cache.
#
# The members are null_blk devices (memory backed) with a write cache
# (cache_size): what they complete sits in the cache until a flush or a
# FUA write puts it in the backing memory, and powering one off (configfs
# power=0) throws its cache away, as a power cut does to a disk.
#
# First a premise check on a lone null_blk: an unflushed write is really
# lost at power-off (else: skip). Then a VD of LEVEL over such members:
#   A  buffered write + fsync (dd conv=fsync: a flush),
#   C  direct writes with O_DSYNC (dd oflag=direct,dsync: FUA writes),
#   B  direct writes, no flush,
# all members powered off at once, the VD stopped, the members powered on
# and assembled: A and C must read back; B may or may not (reported).
# Then disk-cache=off (every member write FUA, the VD advertises no
# cache): D, direct writes without any flush, must survive a second
# power cut.
. "$(dirname "$0")/common.sh"
lvl=$1
conf_begin flush-fua "null_blk" "$lvl"
nullb_require memory_backed cache_size power blocksize
level_spec "$lvl"
mib=1048576
pre=cnbf

# premise: null_blk's cache loses unflushed writes at power-off (checked
# once per boot)
premise() {
	nullb_add ${pre}p 16 512 8
	rnd_file /tmp/ff.p 65536
	dd if=/tmp/ff.p of=/dev/${pre}p bs=64k oflag=direct 2>/dev/null || fail "write to null_blk"
	nullb_power ${pre}p 0
	nullb_power ${pre}p 1
	if [ "$(range_sum /dev/${pre}p 0 65536)" = "$(file_sum /tmp/ff.p)" ]; then
		nullb_del ${pre}p
		conf_skip "null_blk kept an unflushed write over a power cycle: no volatile cache to test"
	fi
	nullb_del ${pre}p
	touch /tmp/.conf-nullb-cache-ok
}
[ -f /tmp/.conf-nullb-cache-ok ] || premise

names=""
devs=""
i=0
while [ $i -lt "$LS_N" ]; do
	nullb_add $pre$i 24 512 8
	names="$names $pre$i"
	devs="$devs /dev/$pre$i"
	i=$((i + 1))
done
trap 'nullb_del $names' EXIT
vd=$(vd_create $LS_OPTS $devs)
conf_begin flush-fua "$vd" "$lvl"
[ "$(qattr "$vd" write_cache)" = "write back" ] ||
	fail "members have a write cache, the VD says $(qattr "$vd" write_cache)"
[ "$(qattr "$vd" fua)" = 1 ] || fail "the VD does not offer FUA"

for x in A B C D; do rnd_file /tmp/ff.$x $mib; done
sumA=$(file_sum /tmp/ff.A); sumB=$(file_sum /tmp/ff.B)
sumC=$(file_sum /tmp/ff.C); sumD=$(file_sum /tmp/ff.D)

# power_cut: every member off at once, the VD stopped, members back on,
# the VD assembled (sets vd); redundant levels resync what was written
power_cut() {
	local nm out
	for nm in $names; do nullb_power $nm 0; done
	bounded vraidctl stop "$vd"
	[ "$RC" = 0 ] || fail "vraidctl stop after the power cut failed: $ERR"
	for nm in $names; do nullb_power $nm 1; done
	out=$(timeout 60 vraidctl assemble $devs 2>&1) || fail "assemble after the power cut: $out"
	vd=/dev/$(echo "$out" | sed -n 's/^\(vraid[0-9]*\):.*/\1/p' | head -n 1)
	[ -b "$vd" ] || fail "no VD after assemble: $out"
	timeout 120 vraidctl wait "$vd" >/dev/null 2>&1 || fail "the resync after the power cut did not end"
}

flushes0=$(vd_attr "$vd" flushes)
dd if=/tmp/ff.A of="$vd" bs=64k conv=notrunc,fsync 2>/dev/null || fail "write A + fsync"
[ "$(vd_attr "$vd" flushes)" -gt "$flushes0" ] || fail "fsync sent the VD no flush"
dd if=/tmp/ff.C of="$vd" bs=64k seek=$((2 * mib)) oflag=direct,dsync,seek_bytes conv=notrunc 2>/dev/null ||
	fail "write C (O_DSYNC)"
dd if=/tmp/ff.B of="$vd" bs=64k seek=$((4 * mib)) oflag=direct,seek_bytes conv=notrunc 2>/dev/null ||
	fail "write B"
power_cut
[ "$(range_sum "$vd" 0 $mib)" = "$sumA" ] || fail "data written and flushed (fsync) was lost in a power cut"
[ "$(range_sum "$vd" $((2 * mib)) $mib)" = "$sumC" ] || fail "data written with FUA (O_DSYNC) was lost in a power cut"
if [ "$(range_sum "$vd" $((4 * mib)) $mib)" = "$sumB" ]; then b=kept; else b=lost; fi
conf_note "flushed and FUA data survived the power cut; the unflushed write was $b"

vraidctl set "$vd" disk-cache=off >/dev/null || fail "vraidctl set disk-cache=off"
[ "$(qattr "$vd" write_cache)" = "write through" ] || fail "disk-cache=off, but write_cache $(qattr "$vd" write_cache)"
flushes0=$(vd_attr "$vd" flushes)
dd if=/tmp/ff.D of="$vd" bs=64k seek=$((6 * mib)) oflag=direct,seek_bytes conv=notrunc 2>/dev/null ||
	fail "write D"
power_cut
[ "$(range_sum "$vd" $((6 * mib)) $mib)" = "$sumD" ] ||
	fail "disk-cache=off: a completed write was lost in a power cut"
[ "$(range_sum "$vd" 0 $mib)" = "$sumA" ] || fail "A changed after the second power cut"
vraidctl delete "$vd" --force >/dev/null || fail "delete"
rm -f /tmp/ff.?
conf_ok "fsync and FUA writes survive; disk-cache=off: every completed write survives"
