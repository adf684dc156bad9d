#!/bin/sh
# Policies changed while the VD runs, and kept across stop/assemble:
#  - access ro: the disk is read-only, writes fail at once, reads work;
#    blocked: every I/O fails at once and nothing hangs; back to rw the
#    data verifies and writes work again;
#  - disk cache off: the VD advertises no volatile cache (member writes
#    are FUA); on/default: as the members; switched back and forth under
#    a fio verify load without an error;
#  - write-back is taken and, with no journal attached, writes through
#    (set, show, sysfs and the kernel log say so, and how to attach one),
#    data verifies under it (74-journal tests write-back with a journal);
#  - always write-back is taken (ABI 1.8): the VD advertises a volatile
#    cache (show, sysfs and the kernel log say so), data verifies under
#    it; back to write-back nothing is left dirty and the VD advertises
#    what it did before (73-writeback tests write-back itself);
#  - the policies survive stop + assemble (write-back too).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vraid.sh"
set -e

members=$(mixed_members 4)
vd=$(vd_create --level 5 --strip 32K --init fast --name pol $members)
n=${vd#/dev/}
fio_verify "$vd" data --rw=randwrite --bs=4k --size=$(mb 16) --iodepth=8

echo "--- access ro"
vraidctl set "$vd" access=ro || fail "set access=ro"
[ "$(vd_attr $vd access_policy)" = ro ] || fail "sysfs access_policy $(vd_attr $vd access_policy)"
[ "$(blockdev --getro $vd)" = 1 ] || fail "the disk is not read-only"
if timeout 20 dd if=/dev/zero of="$vd" bs=4k count=1 oflag=direct conv=notrunc 2>/dev/null; then
	fail "a write to a read-only VD succeeded"
fi
verify_data "$vd" "ro"

echo "--- access blocked"
vraidctl set "$vd" access=blocked || fail "set access=blocked"
if timeout 20 dd if="$vd" of=/dev/null bs=4k count=1 iflag=direct 2>/dev/null; then
	fail "a read of a blocked VD succeeded"
fi
rc=0
timeout 20 dd if="$vd" of=/dev/null bs=4k count=1 iflag=direct 2>/dev/null || rc=$?
[ "$rc" != 124 ] || fail "a read of a blocked VD hung"

echo "--- back to rw"
vraidctl set "$vd" access=rw || fail "set access=rw"
[ "$(blockdev --getro $vd)" = 0 ] || fail "still read-only"
verify_data "$vd" "rw again"
fio_verify "$vd" more --rw=randwrite --bs=4k --offset=$(mb 16) --size=$(mb 8) --iodepth=8

echo "--- disk cache policy under load"
wc0=$(cat /sys/block/$n/queue/write_cache)
fio --name=load --filename="$vd" --rw=randwrite --bs=4k --offset=$(mb 24) --size=$(mb 16) \
	--direct=1 --ioengine=libaio --iodepth=8 --verify=crc32c \
	--verify_fatal=1 --do_verify=1 --loops=2 >/tmp/fio.load 2>&1 &
pid=$!
for p in off on default off default; do
	vraidctl set "$vd" disk-cache=$p >/dev/null || fail "set disk-cache=$p"
	case $p in
	off) [ "$(cat /sys/block/$n/queue/write_cache)" = "write through" ] ||
		fail "disk cache off, but the VD says $(cat /sys/block/$n/queue/write_cache)" ;;
	*) [ "$(cat /sys/block/$n/queue/write_cache)" = "$wc0" ] ||
		fail "disk cache $p: write_cache $(cat /sys/block/$n/queue/write_cache), was $wc0" ;;
	esac
	sleep 1
done
wait $pid || { cat /tmp/fio.load; fail "fio failed while the disk cache policy changed"; }
grep -q "verify:" /tmp/fio.load && { cat /tmp/fio.load; fail "verify errors"; }

echo "--- write-back without a journal writes through"
vraidctl controller show --json | grep -q '"journal":{"state":"none"' ||
	fail "a journal is attached: $(vraidctl controller show)"
out=$(vraidctl set "$vd" write-policy=wb 2>/tmp/wb.err) || fail "set write-policy=wb: $(cat /tmp/wb.err)"
echo "$out" | grep -q "write write-back" || fail "set says: $out"
grep -q "write-back writes through for now: write-back needs a healthy journal (the controller's battery): none is attached" /tmp/wb.err ||
	fail "set wb gives no note: $(cat /tmp/wb.err)"
grep -qF '`vraidctl controller journal DEV` attaches one' /tmp/wb.err ||
	fail "set wb does not say how to attach a journal: $(cat /tmp/wb.err)"
[ "$(vd_attr $vd write_policy)" = write-back ] || fail "sysfs write_policy $(vd_attr $vd write_policy)"
[ "$(vd_attr $vd write_policy_effective)" = write-through ] ||
	fail "sysfs write_policy_effective $(vd_attr $vd write_policy_effective)"
vraidctl show "$vd" | grep -q "^Write in effect: *Write Through, because write-back needs a healthy journal" ||
	fail "show: $(vraidctl show $vd | grep -i write)"
vraidctl show "$vd" --json | grep -q '"write_in_effect":{"mode":"write_through","why":"no_journal"}' ||
	fail "show --json: $(vraidctl show $vd --json)"
kmsg | grep -q "$n: write policy write-back: writing through, as there is no journal" ||
	fail "the kernel log does not say write-back writes through"
# it advertises what write-through does: the members' cache, not its own
[ "$(cat /sys/block/$n/queue/write_cache)" = "$wc0" ] ||
	fail "write-back changed write_cache to $(cat /sys/block/$n/queue/write_cache)"
fio_verify "$vd" wb --rw=randwrite --bs=4k --offset=$(mb 40) --size=$(mb 4) --iodepth=8
verify_data "$vd" "write-back"

echo "--- always write-back: the volatile controller cache"
expect_ok vraidctl set "$vd" write-policy=awb
echo "$OUT" | grep -q "write always-write-back" || fail "set says: $OUT"
expect_msg "always write-back: the controller cache is volatile"
[ "$(vd_attr $vd write_policy)" = always-write-back ] || fail "sysfs write_policy $(vd_attr $vd write_policy)"
[ "$(vd_attr $vd write_policy_effective)" = write-back-volatile ] ||
	fail "sysfs write_policy_effective $(vd_attr $vd write_policy_effective)"
[ "$(cat /sys/block/$n/queue/write_cache)" = "write back" ] ||
	fail "awb, but the VD says $(cat /sys/block/$n/queue/write_cache)"
vraidctl show "$vd" | grep -q "^Write in effect: *Write Back (volatile cache): a power loss loses writes not yet flushed" ||
	fail "show: $(vraidctl show $vd | grep -i write)"
vraidctl show "$vd" --json | grep -q '"write":"always_write_back"' ||
	fail "show --json: $(vraidctl show $vd --json)"
vraidctl show "$vd" --json | grep -q '"write_in_effect":{"mode":"write_back_volatile","why":""}' ||
	fail "show --json: $(vraidctl show $vd --json)"
kmsg | grep -q "$n: write policy always-write-back: a volatile cache" ||
	fail "the kernel log does not warn of the volatile cache"
fio_verify "$vd" awb --rw=randwrite --bs=4k --offset=$(mb 44) --size=$(mb 4) --iodepth=8

echo "--- back to write-back"
vraidctl set "$vd" write-policy=wb >/dev/null 2>&1 || fail "set write-policy=wb after awb"
[ "$(vd_attr $vd write_policy)" = write-back ] || fail "sysfs write_policy $(vd_attr $vd write_policy)"
[ "$(vd_attr $vd write_policy_effective)" = write-through ] ||
	fail "sysfs write_policy_effective $(vd_attr $vd write_policy_effective)"
[ "$(vd_attr $vd cache_dirty_bytes)" = 0 ] ||
	fail "$(vd_attr $vd cache_dirty_bytes) bytes still dirty after awb"
[ "$(cat /sys/block/$n/queue/write_cache)" = "$wc0" ] ||
	fail "back from awb, write_cache $(cat /sys/block/$n/queue/write_cache), was $wc0"
verify_data "$vd" "after always write-back"

echo "--- kept across stop and assemble"
vraidctl set "$vd" disk-cache=off access=ro >/dev/null
vraidctl stop "$vd" >/dev/null
out=$(vraidctl assemble $members) || fail "assemble: $out"
vd=/dev/$(echo "$out" | cut -d: -f1)
[ "$(vd_attr $vd access_policy)" = ro ] && [ "$(vd_attr $vd disk_cache_policy)" = disabled ] ||
	fail "policies after assembly: $(vd_attr $vd access_policy) $(vd_attr $vd disk_cache_policy)"
[ "$(blockdev --getro $vd)" = 1 ] || fail "not read-only after assembly"
vraidctl show "$vd" --json | grep -q '"access":"ro"' || fail "show --json: $(vraidctl show $vd --json)"
[ "$(vd_attr $vd write_policy)" = write-back ] || fail "write-back not kept: $(vd_attr $vd write_policy)"
[ "$(vd_attr $vd write_policy_effective)" = write-through ] || fail "in effect after assembly: $(vd_attr $vd write_policy_effective)"
verify_data "$vd" "assembled"
vraidctl set "$vd" access=rw disk-cache=default write-policy=wt >/dev/null
[ "$(vd_attr $vd write_policy)" = write-through ] || fail "back to wt: $(vd_attr $vd write_policy)"
vd_delete "$vd"
echo "policies: ok"
