#!/bin/sh
# What a server gets from the installed udev rules and systemd unit
# (packaging/udev, packaging/systemd): with udevd running the rules as
# installed, every VD has /dev/vraid/by-name/NAME and its partitions
# NAME-partN, and /dev/disk/by-id/vraid-UUID and vraid-UUID-partN with
# the UUID its members' metadata holds, which follow the VD, not its
# number; stop removes them.
# The boot unit's commands, run as the unit writes them, assemble every
# stopped VD (its numbers may change: the names do not) and the data
# read through the names is what was written; run again with the VDs
# up they change nothing and succeed (a restarted unit must not fail);
# its stop stops every VD clean, and the start after it resyncs nothing.
# The members rule marks the members (ID_FS_TYPE=vraid_member, the VD's
# UUID, name, level and role, from vraidctl examine --export), which
# lsblk shows; after delete they are nothing.
# batch: own
# timeout: 300
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vraid.sh"
set -e

require_devs 4 $NVME_DEVS
set -- $NVME_DEVS
a=$1 b=$2 c=$3 d=$4
wipe_members $a $b $c $d
rules=/vraid/packaging/udev/60-vraid.rules
members_rules=/vraid/packaging/udev/64-vraid-members.rules
unit=/vraid/packaging/systemd/vraid-assemble.service
[ -f "$rules" ] || fail "$rules is not in the VM"
[ -f "$members_rules" ] || fail "$members_rules is not in the VM"
[ -f "$unit" ] || fail "$unit is not in the VM"

# udevd with the rules as installed
trap 'udevadm control --exit 2>/dev/null || true' EXIT
udevd_start "$rules" "$members_rules"

# by_name NAME: the device /dev/vraid/by-name/NAME resolves to
by_name() {
	[ -L "/dev/vraid/by-name/$1" ] || fail "/dev/vraid/by-name/$1 is missing"
	readlink -f "/dev/vraid/by-name/$1"
}
# by_id UUID[-partN]: the device /dev/disk/by-id/vraid-UUID[-partN] resolves to
by_id() {
	[ -L "/dev/disk/by-id/vraid-$1" ] || fail "/dev/disk/by-id/vraid-$1 is missing"
	readlink -f "/dev/disk/by-id/vraid-$1"
}
# vd_named NAME: /dev/vraidN whose sysfs name is NAME
vd_named() {
	local f
	for f in /sys/block/vraid*/vraid/name; do
		[ "$(cat "$f")" = "$1" ] || continue
		f=${f#/sys/block/}
		echo "/dev/${f%%/*}"
		return 0
	done
	fail "no VD is named $1"
}

db=$(vd_create --level 1 --init fast --name db $a $b)
scratch=$(vd_create --level 0 --strip 64K --name scratch $c $d)
udevadm settle -t 30
assert_eq "$(by_name db)" "$db" "/dev/vraid/by-name/db"
assert_eq "$(by_name scratch)" "$scratch" "/dev/vraid/by-name/scratch"
# the UUID in sysfs is the one the members' metadata holds
dbu=$(cat "/sys/block/${db#/dev/}/vraid/uuid") || fail "$db has no sysfs uuid"
su=$(cat "/sys/block/${scratch#/dev/}/vraid/uuid") || fail "$scratch has no sysfs uuid"
vraidctl examine --json $a | grep -q "\"vd_uuid\":\"$dbu\"" ||
	fail "sysfs UUID $dbu of $db is not examine's: $(vraidctl examine --json $a)"
assert_eq "$(by_id $dbu)" "$db" "/dev/disk/by-id/vraid-$dbu"
assert_eq "$(by_id $su)" "$scratch" "/dev/disk/by-id/vraid-$su"

# the members say what they are (64-vraid-members.rules): at an add or
# change event udev records vraidctl examine --export's keys; create
# sends the members a change event itself (no trigger here)
# prop DEV KEY: the value udev recorded for DEV
prop() {
	udevadm info --query=property --name="$1" | sed -n "s/^$2=//p"
}
for m in $a $b; do
	assert_eq "$(prop "$m" ID_FS_TYPE)" vraid_member "$m's ID_FS_TYPE"
	assert_eq "$(prop "$m" ID_FS_LABEL)" db "$m's ID_FS_LABEL"
	assert_eq "$(prop "$m" VRAID_LEVEL)" raid1 "$m's VRAID_LEVEL"
done
assert_eq "$(prop "$b" VRAID_ROLE)" 1 "$b's VRAID_ROLE"
uuid=$(vraidctl examine --json "$a" | sed -n 's/.*"vd_uuid":"\([^"]*\)".*/\1/p')
assert_eq "$(prop "$a" ID_FS_UUID)" "$uuid" "$a's ID_FS_UUID (the VD's UUID)"
assert_eq "$(prop "$c" VRAID_NAME)" scratch "$c's VRAID_NAME"
[ ! -e "/dev/disk/by-uuid/$uuid" ] || fail "a by-uuid link of the members' VD UUID"
if command -v lsblk >/dev/null; then
	assert_eq "$(lsblk -dno FSTYPE "$a")" vraid_member "lsblk's FSTYPE of $a"
fi

# a partition of a VD: NAME-partN
echo ',16M' | sfdisk -q "$db" >/dev/null || fail "sfdisk $db"
udevadm settle -t 30
assert_eq "$(by_name db-part1)" "${db}p1" "/dev/vraid/by-name/db-part1"
assert_eq "$(by_id $dbu-part1)" "${db}p1" "/dev/disk/by-id/vraid-$dbu-part1"
dd if=/dev/urandom of=/tmp/92.data bs=1M count=8 2>/dev/null
dd if=/tmp/92.data of=/dev/vraid/by-name/db-part1 bs=1M oflag=direct 2>/dev/null ||
	fail "write through /dev/vraid/by-name/db-part1"
dd if=/tmp/92.data of=/dev/vraid/by-name/scratch bs=1M oflag=direct 2>/dev/null ||
	fail "write through /dev/vraid/by-name/scratch"
want=$(md5sum </tmp/92.data)

# stop: the names go with the VDs; scratch first, so that the assembly
# below may give the VDs other numbers than they had
vraidctl stop "$scratch" >/dev/null || fail "stop $scratch"
vraidctl stop "$db" >/dev/null || fail "stop $db"
udevadm settle -t 30
for n in db db-part1 scratch; do
	[ ! -e "/dev/vraid/by-name/$n" ] || fail "/dev/vraid/by-name/$n is left after the stop"
done
for n in $dbu $dbu-part1 $su; do
	[ ! -e "/dev/disk/by-id/vraid-$n" ] || fail "/dev/disk/by-id/vraid-$n is left after the stop"
done

# unit_run: the unit's ExecStartPre/ExecStart lines as systemd runs them
# ("-": its failure is ignored; vraid.ko is loaded already here, so the
# modprobe may fail)
unit_run() { # [stop]: the ExecStop lines instead
	local line cmd keys='^ExecStart(Pre)?='
	[ "${1:-}" = stop ] && keys='^ExecStop='
	grep -E "$keys" "$unit" | while read -r line; do
		cmd=${line#*=}
		case $cmd in
		-*) sh -c "${cmd#-}" >/dev/null 2>&1 || true ;;
		*) sh -c "$cmd" || { echo "unit command failed: $cmd"; exit 1; } ;;
		esac
	done
}
unit_run >/tmp/92.unit 2>&1 || { cat /tmp/92.unit; fail "the boot unit's commands failed"; }
udevadm settle -t 30
assert_eq "$(vd_count)" 2 "VDs after the boot unit"
assert_eq "$(by_name db)" "$(vd_named db)" "/dev/vraid/by-name/db after assembly"
assert_eq "$(by_name scratch)" "$(vd_named scratch)" "/dev/vraid/by-name/scratch after assembly"
assert_eq "$(by_id $dbu)" "$(vd_named db)" "/dev/disk/by-id/vraid-$dbu after assembly"
assert_eq "$(by_id $su)" "$(vd_named scratch)" "/dev/disk/by-id/vraid-$su after assembly"
got=$(dd if=/dev/disk/by-id/vraid-$dbu-part1 bs=1M count=8 iflag=direct 2>/dev/null | md5sum)
assert_eq "$got" "$want" "data read through /dev/disk/by-id/vraid-$dbu-part1"
got=$(dd if=/dev/vraid/by-name/db-part1 bs=1M count=8 iflag=direct 2>/dev/null | md5sum)
assert_eq "$got" "$want" "data read through /dev/vraid/by-name/db-part1"
got=$(dd if=/dev/vraid/by-name/scratch bs=1M count=8 iflag=direct 2>/dev/null | md5sum)
assert_eq "$got" "$want" "data read through /dev/vraid/by-name/scratch"

# the unit once more, the VDs up: it succeeds and changes nothing
unit_run >/tmp/92.unit 2>&1 || { cat /tmp/92.unit; fail "the boot unit's commands failed with the VDs assembled"; }
assert_eq "$(vd_count)" 2 "VDs after the boot unit ran again"

# shutdown: the unit's stop stops every VD, clean, so that the next boot
# assembles them without a resync (and would not refuse a Degraded
# parity VD); then the boot again
unit_run stop >/tmp/92.unit 2>&1 || { cat /tmp/92.unit; fail "the unit's stop commands failed"; }
assert_eq "$(vd_count)" 0 "VDs after the unit's stop"
for m in $a $c; do
	vraidctl examine --json "$m" | grep -q '"clean":true' ||
		fail "$m's metadata is not clean after the unit's stop"
done
mark_dmesg
unit_run >/tmp/92.unit 2>&1 || { cat /tmp/92.unit; fail "the boot unit's commands failed after its stop"; }
assert_eq "$(vd_count)" 2 "VDs after the unit's stop and start"
! dmesg_since_mark | grep -q "not shut down cleanly" ||
	fail "a VD the unit stopped was not clean at the next assembly"

vd_delete "$(vd_named db)"
vd_delete "$(vd_named scratch)"
udevadm settle -t 30
[ ! -e /dev/vraid/by-name/db ] || fail "/dev/vraid/by-name/db is left after delete"
[ ! -e "/dev/disk/by-id/vraid-$dbu" ] || fail "/dev/disk/by-id/vraid-$dbu is left after delete"
# the members, erased by delete (which tells udev), are nothing any more
assert_eq "$(prop "$a" ID_FS_TYPE)" "" "$a's ID_FS_TYPE after delete"
echo "by-name and by-id links follow the VDs; the members say what they are; the boot unit assembles them"
