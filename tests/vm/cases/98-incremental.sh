#!/bin/sh
# Incremental assembly at boot, as the installed rules do it
# (packaging/udev/64-vraid-members.rules, vraid-last-resort@.service):
# with udevd running the rules, a stopped RAID5's members appear one at a
# time (udevadm trigger --action=add): the VD stays down while members
# are missing, and assembles by itself, Optimal, when the last one
# appears; the same events with the VD up change nothing.  By hand,
# assemble --incremental says how many it waits for.  With a member
# missing, the last-resort service's command (its ExecStart, run as the
# unit writes it, the UUID for %i) starts it Degraded, and the data read
# back is what was written; run again it does nothing.
# A write-back RAID5 whose metadata names the controller's journal (as a
# power cut leaves it: its acknowledged writes may wait there for
# replay), with the journal a device that appears too: the journal
# appearing last, the VD waits for it (assemble --incremental says so)
# and starts, replayed, when it appears; the journal appearing first, it
# is attached at once (it was attached before the stop) and the VD starts
# with its last member.  (Records to replay after a real power cut:
# tests/vm/crash-test's CRASH_POLICY=journal; here the order is what is
# checked: the module refuses such a VD without its journal.)
# batch: own
# timeout: 420
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vraid.sh"
set -e

require_devs 4 $NVME_DEVS
set -- $NVME_DEVS
a=$1 b=$2 c=$3 jd=$4
wipe_members $a $b $c $jd
rules=/vraid/packaging/udev/60-vraid.rules
members_rules=/vraid/packaging/udev/64-vraid-members.rules
lr=/vraid/packaging/systemd/vraid-last-resort@.service
for f in "$rules" "$members_rules" "$lr" /vraid/packaging/systemd/vraid-last-resort@.timer; do
	[ -f "$f" ] || fail "$f is not in the VM"
done

# udevd with the rules as installed (as 94-boot-names)
udevd_start "$rules" "$members_rules"

# The members are dm-linear devices 1 MiB into the disks (the disks
# themselves show no vraid metadata), so that they can disappear
# (dmsetup remove) and appear again one at a time, as disks do at boot:
# the dm device's own add and change events run the rule, and an
# explicit `udevadm trigger --action=add` does too.  (--noudevsync:
# without dm's own udev rules nothing would tell dmsetup that udev is done.)
# appear N DEV: dm device inc-N over DEV from 1 MiB on; prints /dev/dm-X
appear() {
	echo "0 $(($(blockdev --getsz "$2") - 2048)) linear $2 2048" |
		dmsetup create --noudevsync "inc-$1" || fail "dmsetup create inc-$1 over $2"
	settle
	readlink -f "/dev/mapper/inc-$1"
}
disappear() {
	local n
	for n; do dmsetup remove --noudevsync "inc-$n" || fail "dmsetup remove inc-$n"; done
	settle
}
cleanup98() {
	udevadm control --exit 2>/dev/null
	journal_cleanup ""
	dmsetup remove --noudevsync inc-0 inc-1 inc-2 inc-3 2>/dev/null
	zero_range "$jd" 0 $((16 * 1048576))
	return 0
}
trap cleanup98 EXIT
ma=$(appear 0 $a) mb=$(appear 1 $b) mc=$(appear 2 $c)
udevadm settle -t 30
vd=$(vd_create --level 5 --init fast --name inc $ma $mb $mc)
udevadm settle -t 30
# create's change events on the members: the rule finds the VD running
assert_eq "$(vd_count)" 1 "VDs after create with the rule"
uuid=$(cat "/sys/block/${vd#/dev/}/vraid/uuid")
dd if=/dev/urandom of=/tmp/98.data bs=1M count=8 2>/dev/null
dd if=/tmp/98.data of="$vd" bs=1M oflag=direct 2>/dev/null || fail "write $vd"
want=$(md5sum </tmp/98.data)
vraidctl stop "$vd" >/dev/null || fail "stop $vd"
udevadm settle -t 30
assert_eq "$(vd_count)" 0 "VDs after stop"
disappear 0 1 2
udevadm settle -t 30

# the members appear one at a time: the VD starts with the last one
ma=$(appear 0 $a)
udevadm trigger --action=add $ma
udevadm settle -t 30
assert_eq "$(vd_count)" 0 "VDs after the first member appeared"
# by hand: what it waits for
out=$(vraidctl assemble --incremental $ma) || fail "assemble --incremental $ma failed: $out"
echo "$out" | grep -qF "VD inc ($uuid): 1 of 3 members present, waiting for 2 more (roles 1, 2): not assembled yet" ||
	fail "assemble --incremental $ma said: $out"
mb=$(appear 1 $b)
udevadm trigger --action=add $mb
udevadm settle -t 30
assert_eq "$(vd_count)" 0 "VDs after the second member appeared"
mc=$(appear 2 $c)
udevadm trigger --action=add $mc
udevadm settle -t 30
assert_eq "$(vd_count)" 1 "VDs after the last member appeared"
vd=$(readlink -f "/dev/disk/by-id/vraid-$uuid") || fail "no /dev/disk/by-id/vraid-$uuid"
assert_eq "$(vd_attr $vd state)" optimal "state after incremental assembly"
got=$(dd if="$vd" bs=1M count=8 iflag=direct 2>/dev/null | md5sum)
assert_eq "$got" "$want" "data after incremental assembly"
# events with the VD up: nothing
udevadm trigger --action=change $ma
udevadm settle -t 30
assert_eq "$(vd_count)" 1 "VDs after a change event with the VD up"
out=$(vraidctl assemble --incremental $mb) || fail "assemble --incremental $mb, VD up, failed: $out"
echo "$out" | grep -qF "a member of VD $uuid, which runs already as ${vd#/dev/}: nothing to do" ||
	fail "assemble --incremental $mb with the VD up said: $out"

# a member missing: the events leave it down; the last-resort command
# starts it Degraded
vraidctl stop "$vd" >/dev/null || fail "stop $vd"
udevadm settle -t 30
disappear 2
udevadm trigger --action=add $ma
udevadm trigger --action=add $mb
udevadm settle -t 30
assert_eq "$(vd_count)" 0 "VDs with two of three members"
# (the service's condition: the VD's by-id link is absent)
[ ! -e "/dev/disk/by-id/vraid-$uuid" ] || fail "/dev/disk/by-id/vraid-$uuid with the VD down"
cmd=$(sed -n 's/^ExecStart=//p' "$lr" | sed "s/%i/$uuid/g")
[ -n "$cmd" ] || fail "no ExecStart in $lr"
out=$(sh -c "$cmd" 2>&1) || fail "the last-resort command failed: $out"
echo "$out" | grep -qF "2 of 3 members present (role 2 missing): --run starts it without it" ||
	fail "the last-resort command said: $out"
assert_eq "$(vd_count)" 1 "VDs after the last-resort command"
vd=$(readlink -f "/dev/disk/by-id/vraid-$uuid") || fail "no /dev/disk/by-id/vraid-$uuid"
assert_eq "$(vd_attr $vd state)" degraded "state after the last-resort command"
got=$(dd if="$vd" bs=1M count=8 iflag=direct 2>/dev/null | md5sum)
assert_eq "$got" "$want" "data after the Degraded start"
out=$(sh -c "$cmd" 2>&1) || fail "the last-resort command again failed: $out"
echo "$out" | grep -qF "runs already" || fail "the last-resort command again said: $out"
vd_delete "$vd"
udevadm settle -t 30
disappear 0 1
wipe_members $a $b $c

echo "--- a wb RAID5 whose writes may wait in the journal"
ma=$(appear 0 $a) mb=$(appear 1 $b) mc=$(appear 2 $c) mj=$(appear 3 $jd)
udevadm settle -t 30
vd=$(vd_create --level 5 --init fast --name incj --write-policy wb $ma $mb $mc)
vraidctl controller journal "$mj" >/dev/null || fail "controller journal $mj"
udevadm settle -t 30
juuid=$(journal_json | grep -o '"uuid":"[^"]*"' | cut -d'"' -f4)
[ -n "$juuid" ] || fail "no journal UUID: $(journal_json)"
expect_write "$vd" write_back
uuid=$(cat "/sys/block/${vd#/dev/}/vraid/uuid")
dd if=/tmp/98.data of="$vd" bs=64k oflag=direct 2>/dev/null || fail "write $vd"
# the members' reserved areas now: metadata naming the journal
for n in 0 1 2; do
	dd if=/dev/mapper/inc-$n of=/tmp/98.md$n bs=1M count=8 iflag=direct 2>/dev/null ||
		fail "saving the metadata of inc-$n"
done
# down_all: the VD stopped, the module unloaded (the journal detached
# cleanly, not released), every device gone; the metadata naming the
# journal put back, as a power cut would leave it; the module loaded
down_all() {
	local d n=0
	for d in /sys/block/vraid*; do
		[ -e "$d" ] && { vraidctl stop "/dev/${d##*/}" >/dev/null || fail "stop /dev/${d##*/}"; }
	done
	udevadm settle -t 30
	rmmod vraid || fail "rmmod vraid"
	disappear 0 1 2 3
	udevadm settle -t 30
	for d in $a $b $c; do
		dd if=/tmp/98.md$n of=$d bs=1M seek=1 count=8 oflag=direct conv=notrunc 2>/dev/null ||
			fail "restoring the metadata of inc-$n"
		n=$((n + 1))
	done
	insmod "$VRAID_KO" ${VRAID_MODULE_ARGS:-} || fail "insmod $VRAID_KO"
	[ "$(journal_state)" = none ] || fail "a journal is attached after insmod: $(journal_json)"
	mark=$(dmesg | wc -l)
}
# check_up WHEN: the VD runs, its journal replayed, the data as written
check_up() {
	assert_eq "$(vd_count)" 1 "VDs $1"
	vd=$(readlink -f "/dev/disk/by-id/vraid-$uuid") || fail "no /dev/disk/by-id/vraid-$uuid $1"
	dmesg | tail -n +$((mark + 1)) | grep -q "${vd#/dev/}: replayed .* from journal" ||
		fail "no replay from the journal in the kernel log $1: $(dmesg | tail -n +$((mark + 1)))"
	journal_json | grep -qF "\"uuid\":\"$juuid\"" || fail "journal $juuid not attached $1: $(journal_json)"
	got=$(dd if="$vd" bs=1M count=8 iflag=direct 2>/dev/null | md5sum)
	assert_eq "$got" "$want" "data $1"
}
down_all
echo "--- journal last"
ma=$(appear 0 $a) mb=$(appear 1 $b) mc=$(appear 2 $c)
udevadm trigger --action=add $ma $mb $mc
udevadm settle -t 30
assert_eq "$(vd_count)" 0 "VDs with every member but no journal"
out=$(vraidctl assemble --incremental $mc) || fail "assemble --incremental $mc failed: $out"
echo "$out" | grep -qF "VD incj ($uuid): 3 of 3 members present, waiting for its journal $juuid" ||
	fail "assemble --incremental $mc without the journal said: $out"
[ "$(journal_state)" = none ] || fail "a journal attached without its device: $(journal_json)"
mj=$(appear 3 $jd)
udevadm trigger --action=add $mj
udevadm settle -t 30
check_up "after the journal appeared last"
out=$(vraidctl assemble --incremental $mj) || fail "assemble --incremental $mj, attached, failed: $out"
echo "$out" | grep -qF "$mj: vraid journal $juuid, the controller's journal already" ||
	fail "assemble --incremental $mj, attached, said: $out"
down_all
echo "--- journal first"
mj=$(appear 3 $jd)
udevadm trigger --action=add $mj
udevadm settle -t 30
journal_json | grep -qF "\"uuid\":\"$juuid\"" || fail "journal $juuid not attached when it appeared first: $(journal_json)"
ma=$(appear 0 $a) mb=$(appear 1 $b)
udevadm trigger --action=add $ma $mb
udevadm settle -t 30
assert_eq "$(vd_count)" 0 "VDs with the journal and two of three members"
mc=$(appear 2 $c)
udevadm trigger --action=add $mc
udevadm settle -t 30
check_up "after the journal appeared first"
vd_delete "$vd"
vraidctl controller journal none >/dev/null || fail "controller journal none"
udevadm settle -t 30
disappear 0 1 2 3
wipe_members $a $b $c
rm -f /tmp/98.md0 /tmp/98.md1 /tmp/98.md2
echo "members appearing one by one assemble the RAID5 at the last; the last-resort command starts it Degraded; a wb RAID5 waits for its journal, which attaches as it appears, before or after the members"
