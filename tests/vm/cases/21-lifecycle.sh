#!/bin/sh
# Delete refuses an open VD and leaves it working; delete of a closed VD
# releases its members (they can be used again at once), also right after
# a member of a parity VD failed; rmmod is refused
# while any VD exists and works once none does; the module reloads.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vraid.sh"
set -e

members=$(mixed_members 3)
vd=$(vd_create --level 0 $members)
mkfs.ext4 -q -F "$vd"
mkdir -p /mnt/vd
mount "$vd" /mnt/vd
echo hello >/mnt/vd/hello
if vraidctl delete "$vd" --force 2>/tmp/err; then
	fail "delete of a mounted VD succeeded"
fi
grep -q "open" /tmp/err || { cat /tmp/err; fail "delete error does not say the VD is open"; }
cat /tmp/err
[ "$(vd_count)" = 1 ] || fail "VD vanished after refused delete"
[ "$(cat /mnt/vd/hello)" = hello ] || fail "data lost after refused delete"
echo again >/mnt/vd/again && sync || fail "VD unusable after refused delete"

# rmmod while a VD exists is refused and changes nothing.
if rmmod vraid 2>/tmp/err; then
	fail "rmmod succeeded with a VD present"
fi
cat /tmp/err
[ "$(cat /mnt/vd/hello)" = hello ] || fail "data lost after refused rmmod"
umount /mnt/vd

# Delete by name and by number both work; members are free afterwards.
vd_delete "$vd"
vd=$(vd_create --level 0 --name again $members)
vraidctl delete again --force || fail "delete by name failed"
vd=$(vd_create --level 0 $members)
vraidctl delete "${vd#/dev/vraid}" --force || fail "delete by index failed"
[ "$(vd_count)" = 0 ] || fail "VDs left"
for m in $members; do
	# A member is free again: an exclusive opener (mkfs) can take it.
	mkfs.ext4 -q -F "$m" || fail "$m still held after delete"
done

# A parity VD deleted right after a member failed: the failure queues the
# hot-spare work, which takes the control mutex that the delete holds while
# it tears the VD down (found by the ioctl fuzzer: this deadlocked).
for i in 1 2 3; do
	vd=$(vd_create --level 5 --init fast $members)
	vraidctl fail "$vd" "$(echo $members | cut -d' ' -f3)" --force >/dev/null ||
		fail "fail a member of $vd"
	timeout 30 vraidctl delete "$vd" --force || fail "delete right after a member failure (round $i): $?"
done
[ "$(vd_count)" = 0 ] || fail "VDs left after fail + delete"

# With no VD, the module unloads and reloads cleanly.
rmmod vraid || fail "rmmod failed with no VDs"
[ ! -e /dev/vraid-control ] || fail "control device left after rmmod"
modprobe vraid || fail "modprobe vraid failed"
[ -c /dev/vraid-control ] || fail "no control device after insmod"
vd=$(vd_create --level 0 $members)
fio_verify "$vd" after-reload --rw=randwrite --bs=4k --size=4M --iodepth=4
vd_delete "$vd"
echo "lifecycle: ok"
