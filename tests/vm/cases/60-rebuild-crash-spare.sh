#!/bin/sh
# A hot spare for another role must not restart, from 0, a rebuild that
# an unclean shutdown left with a vouched position while the resync
# after the crash is still to come (vraid keeps one rebuild position for
# all rebuilding members; issue 42's review, item 1).
#
# RAID6 of four null_blk members.  Role 3 is failed and replaced; its
# rebuild does one step and is paused (checkpoint CK recorded).  Role 2
# fails too.  The members' images taken then (the VD running: not
# clean) are assembled with --force (unclean while degraded: refused
# without it when a region was dirty).  The rebuild of role 3 resumes,
# paused, at CK.  A hot spare is added.  Before the fix the spare was
# taken for role 2 at once and both rebuilds started at sector 0: role
# 3's rows below CK, which the crash may have torn on the others, were
# rebuilt from them.  Now the spare waits ("member 3 ... is rebuilt
# after an unclean shutdown") and role 3's rebuild keeps CK; once it has
# ended the spare takes role 2, and the VD ends Optimal with a clean
# check.
# timeout: 600
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vraid.sh"
set -e

MIB=32
modprobe null_blk nr_devices=0 2>/dev/null || true
grep -q " /sys/kernel/config " /proc/mounts ||
	mount -t configfs none /sys/kernel/config || fail "mount configfs"
nb() {
	local d=/sys/kernel/config/nullb/nullb6$1 t
	mkdir "$d" || fail "null_blk $d"
	echo $MIB >"$d/size"
	echo 1 >"$d/memory_backed"
	echo 512 >"$d/blocksize"
	echo 1 >"$d/power"
	for t in $(seq 50); do [ -b "/dev/nullb6$1" ] && break; sleep 0.1; done
	[ -b "/dev/nullb6$1" ] || fail "/dev/nullb6$1 did not appear"
}
# 0-3 the members, 4 the replacement of role 3, 5-7 the images of
# roles 0, 1 and 3, 8 the hot spare
for i in 0 1 2 3 4 5 6 7 8; do nb $i; done
for i in 0 1 2 3 4; do dm_over rs$i /dev/nullb6$i; done

vd=$(vd_create --level 6 --strip 16K --init fast /dev/mapper/rs0 /dev/mapper/rs1 /dev/mapper/rs2 /dev/mapper/rs3)
dd if=/dev/urandom of="$vd" bs=64k count=16 oflag=direct conv=fsync 2>/dev/null
vraidctl fail "$vd" /dev/mapper/rs3 >/dev/null || fail "fail role 3"
vraidctl job "$vd" rate 16K >/dev/null
vraidctl replace "$vd" role:3 /dev/mapper/rs4 >/dev/null || fail "replace role 3"
vraidctl job "$vd" pause >/dev/null || fail "job pause"
i=0
until vraidctl examine /dev/mapper/rs0 | grep -Eq "Job checkpoint: +rebuild at sector [1-9][0-9]* .*paused"; do
	i=$((i + 1))
	[ $i -lt 100 ] || { vraidctl examine /dev/mapper/rs0; fail "no rebuild checkpoint recorded after the pause"; }
	sleep 0.1
done
ck=$(vraidctl examine /dev/mapper/rs0 | sed -nE 's/.*rebuild at sector ([0-9]+) .*/\1/p')
echo "rebuild paused, checkpoint at member sector $ck"
vraidctl fail "$vd" /dev/mapper/rs2 >/dev/null || fail "fail role 2"
# the cut: the media of roles 0, 1 and 3 now (the VD running)
dd if=/dev/nullb60 of=/dev/nullb65 bs=1M iflag=direct oflag=direct 2>/dev/null || fail "image of role 0"
dd if=/dev/nullb61 of=/dev/nullb66 bs=1M iflag=direct oflag=direct 2>/dev/null || fail "image of role 1"
dd if=/dev/nullb64 of=/dev/nullb67 bs=1M iflag=direct oflag=direct 2>/dev/null || fail "image of role 3"
vraidctl stop "$vd" >/dev/null || fail "stop $vd"
for i in 0 1 2 3 4; do dmsetup remove rs$i; done

mark_dmesg asm
vraidctl assemble --force /dev/nullb65 /dev/nullb66 /dev/nullb67 >/tmp/60.asm 2>&1 ||
	{ cat /tmp/60.asm; fail "assemble --force the cut"; }
vd=/dev/$(vraidctl list --json | grep -o '"vd":"vraid[0-9]*"' | head -n1 | cut -d'"' -f4)
[ -b "$vd" ] || fail "no VD after assemble"
dmesg_since_mark | grep -Eq "rebuild resumes at sector $ck .*paused" ||
	{ dmesg_since_mark; fail "the rebuild of role 3 did not resume, paused, at its checkpoint ($ck)"; }
mark_dmesg spare
vraidctl spare add /dev/nullb68 >/dev/null || fail "spare add"
i=0
until dmesg_since_mark | grep -q "hot spare"; do
	i=$((i + 1))
	[ $i -lt 50 ] || break
	sleep 0.1
done
sleep 1
dmesg_since_mark
! dmesg_since_mark | grep -q "rebuild starts at sector 0" ||
	fail "the spare restarted role 3's rebuild at 0, below its vouched position $ck"
dmesg_since_mark | grep -q "hot spare .* waits: member 3 (.*) is rebuilt after an unclean shutdown: its rebuild must end first" ||
	fail "the hot spare did not say it waits for role 3's rebuild"
# the rebuild of role 3 runs to its end, then the spare takes role 2
vraidctl job "$vd" rate none >/dev/null
vraidctl job "$vd" resume >/dev/null || fail "job resume"
i=0
until [ "$(vd_attr "$vd" state)" = optimal ] && [ "$(vd_attr "$vd" job)" = none ]; do
	i=$((i + 1))
	[ $i -lt 600 ] || { dmesg_since_mark; fail "not optimal and idle after 120 s: $(vd_attr "$vd" state), job $(vd_attr "$vd" job)"; }
	sleep 0.2
done
dmesg_since_mark | grep -q "hot spare .*nullb68 takes the place of member 2" ||
	{ dmesg_since_mark; fail "the spare did not take role 2 after role 3's rebuild"; }
vraidctl check "$vd" >/dev/null || fail "vraidctl check"
vraidctl wait "$vd" >/dev/null
[ "$(vd_attr "$vd" mismatch_cnt)" = 0 ] ||
	fail "vraid check: $(vd_attr "$vd" mismatch_cnt) mismatches"
vraidctl stop "$vd" >/dev/null || fail "stop the assembled VD"
for i in 0 1 2 3 4 5 6 7 8; do
	echo 0 >/sys/kernel/config/nullb/nullb6$i/power
	rmdir /sys/kernel/config/nullb/nullb6$i
done
echo ok
