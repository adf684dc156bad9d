#!/bin/sh
# A power cut while RAID5 rebuilds onto a replacement must not destroy a
# flushed block on the replacement, in the part the rebuild had passed
# (found by the crash states, kind 5r: Documentation/testing.rst).
#
# The cut is built by hand, deterministically.  RAID5, three members,
# 16 KiB strips: stripe 19 has data column 0 on role 2, data column 1 on
# role 0, P on role 1.  Role 2 is failed and replaced; the rebuild does
# its first step (512 KiB of each member, stripe 19 with it) and is
# paused, which records its checkpoint.  Then block A (data column 0 of
# stripe 19, on the replacement) is written and flushed.  Then block B
# (data column 1, role 0) is written while role 1 holds every write to
# its data area (dm-delay): B reaches role 0, the new P never reaches
# role 1.  The members' images at that moment are a power cut that tore
# stripe 19 (role 0 new, role 1 old: the RAID5 write hole), taken with
# the VD running (not clean).  They are copied and assembled.
#
# Before the fix, assembly restarted the rebuild from sector 0 and read
# the replacement as missing: block A was reconstructed from role 0 and
# role 1 (B's new data XOR the old parity) - garbage - and the rebuild
# wrote that over the replacement's good copy.  Now the replacement
# counts as in sync below the recorded rebuild position: A reads back
# from it while the rebuild is paused, the rebuild resumes at the
# checkpoint, the resync after it makes stripe 19's parity match its
# data, and vraid's check finds no mismatch.  (The assembly needs
# --force: the dirty region reaches above the checkpoint; see below.)
# timeout: 600
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vraid.sh"
set -e

MIB=32			# each null_blk: 8 MiB metadata, 24 MiB data
STRIPE=19		# see the top
A_OFF=$((STRIPE * 32))	# KiB into the VD: data column 0 of the stripe
B_OFF=$((A_OFF + 16))	# data column 1

modprobe null_blk nr_devices=0 2>/dev/null || true
grep -q " /sys/kernel/config " /proc/mounts ||
	mount -t configfs none /sys/kernel/config || fail "mount configfs"

# nb I: /dev/nullb5I, memory-backed, MIB MiB
nb() {
	local d=/sys/kernel/config/nullb/nullb5$1 t
	mkdir "$d" || fail "null_blk $d"
	echo $MIB >"$d/size"
	echo 1 >"$d/memory_backed"
	echo 512 >"$d/blocksize"
	echo 1 >"$d/power"
	for t in $(seq 50); do [ -b "/dev/nullb5$1" ] && break; sleep 0.1; done
	[ -b "/dev/nullb5$1" ] || fail "/dev/nullb5$1 did not appear"
}
# 0-2 the members, 3 the replacement, 4-6 the images of the cut
for i in 0 1 2 3 4 5 6; do nb $i; done
# blk DEV KIB: checksum of the 4 KiB at KIB KiB of DEV, read around the
# page cache (vraid writes the members under it)
blk() {
	local direct=""
	[ ! -b "$1" ] || direct=iflag=direct
	dd if="$1" bs=4k skip=$(($2 / 4)) count=1 $direct 2>/dev/null | sha256sum | cut -d' ' -f1
}
for i in 0 1 2 3; do dm_over rc$i /dev/nullb5$i; done

vd=$(vd_create --level 5 --strip 16K --init fast /dev/mapper/rc0 /dev/mapper/rc1 /dev/mapper/rc2)
head -c 4096 /dev/urandom >/tmp/57.a0
head -c 4096 /dev/urandom >/tmp/57.a
head -c 4096 /dev/urandom >/tmp/57.b
# block A's first content, on role 2 before it fails (the rebuild
# reconstructs it onto the replacement)
dd if=/tmp/57.a0 of="$vd" bs=4k seek=$((A_OFF / 4)) oflag=direct conv=fsync 2>/dev/null
vraidctl fail "$vd" /dev/mapper/rc2 >/dev/null || fail "fail role 2"
# one step (512 KiB of each member), then 32 s of throttle: the pause
# comes in between and records the checkpoint
vraidctl job "$vd" rate 16K >/dev/null
vraidctl replace "$vd" role:2 /dev/mapper/rc3 >/dev/null || fail "replace role 2"
vraidctl job "$vd" pause >/dev/null || fail "job pause"
i=0
until vraidctl examine /dev/mapper/rc0 | grep -Eq "Job checkpoint: +rebuild at sector [1-9][0-9]* .*paused"; do
	i=$((i + 1))
	[ $i -lt 100 ] || { vraidctl examine /dev/mapper/rc0; fail "no rebuild checkpoint recorded after the pause"; }
	sleep 0.1
done
ck=$(vraidctl examine /dev/mapper/rc0 | sed -nE 's/.*rebuild at sector ([0-9]+) .*/\1/p')
[ "$ck" -ge $(((STRIPE + 1) * 32)) ] ||
	fail "the checkpoint (sector $ck) is below stripe $STRIPE: the case proves less"
[ "$ck" -lt 2048 ] ||
	fail "the checkpoint (sector $ck) covers write-intent region 0: the refusal below needs one above it"
echo "rebuild paused, checkpoint at member sector $ck"

# A: written to the replacement and flushed
dd if=/tmp/57.a of="$vd" bs=4k seek=$((A_OFF / 4)) oflag=direct conv=fsync 2>/dev/null
# B: reaches role 0, its parity is held on role 1
dm_hold rc1 /dev/nullb51 $DATA_OFFSET
dd if=/tmp/57.b of="$vd" bs=4k seek=$((B_OFF / 4)) oflag=direct 2>/dev/null &
ddpid=$!
# role 0's data column of stripe 19 at member KiB STRIPE * 16
i=0
until [ "$(blk /dev/nullb50 $((DATA_OFFSET / 2 + STRIPE * 16)))" = "$(blk /tmp/57.b 0)" ]; do
	i=$((i + 1))
	[ $i -lt 300 ] || fail "B did not reach role 0"
	sleep 0.1
done
# the cut: every member's media as it is now (role 1 without the new P)
for i in 0 1; do
	dd if=/dev/nullb5$i of=/dev/nullb5$((i + 4)) bs=1M iflag=direct oflag=direct 2>/dev/null ||
		fail "image of role $i"
done
dd if=/dev/nullb53 of=/dev/nullb56 bs=1M iflag=direct oflag=direct 2>/dev/null ||
	fail "image of the replacement"
[ "$(blk /dev/nullb56 $((DATA_OFFSET / 2 + STRIPE * 16)))" = "$(blk /tmp/57.a 0)" ] ||
	fail "the replacement's image does not hold A: the cut is not the one meant"

# the original VD goes away (its held write let go first)
dm_release rc1 /dev/nullb51
wait $ddpid || fail "the write of B"
vraidctl stop "$vd" >/dev/null || fail "stop $vd"
for i in 0 1 2 3; do dmsetup remove rc$i; done

# assemble the cut.  Its write-intent region 0 (member sectors 0-2047)
# was dirty at the cut and reaches above the checkpoint: rows there the
# rebuild had not reached may be torn, the replacement's blocks of them
# would come from the torn rows.  So the assembly is refused (an unclean
# degraded parity VD, as md's start_dirty_degraded), names the VD and
# the region, creates no disk, and --force assembles it.
mark_dmesg asm
if vraidctl assemble /dev/nullb54 /dev/nullb55 /dev/nullb56 >/tmp/57.asm 2>&1; then
	cat /tmp/57.asm
	fail "assembled an unclean VD with a dirty region above its rebuild position without --force"
fi
cat /tmp/57.asm
grep -Eq "VD [0-9a-f-]{36}: unclean shutdown while degraded: 1 dirty region may reconstruct wrongly \(EUCLEAN" /tmp/57.asm ||
	fail "the refusal does not name the VD, why and the one region"
grep -q "vraidctl assemble --force" /tmp/57.asm || fail "the refusal does not say what to do"
! ls /dev/vraid[0-9]* >/dev/null 2>&1 || fail "a refused assembly left a VD"
! dmesg_since_mark | grep -Eq "vraid[0-9]+: assembled" || fail "a refused assembly brought a disk up"
vraidctl assemble --force /dev/nullb54 /dev/nullb55 /dev/nullb56 >/tmp/57.asm 2>&1 ||
	{ cat /tmp/57.asm; fail "assemble --force the cut"; }
dmesg_since_mark | grep -q "rows at member sectors $ck-2047 were being written at the crash" ||
	{ dmesg_since_mark; fail "the forced assembly does not name the rows above the checkpoint"; }
vd=$(first_vd)
[ -b "$vd" ] || fail "no VD after assemble"
dmesg_since_mark | grep -q "not shut down cleanly while rebuilding" ||
	{ dmesg_since_mark; fail "assembly did not find the VD not shut down cleanly while rebuilding"; }
dmesg_since_mark | grep -E "rebuild (starts|resumes) at sector" || true
# while it is paused: A from the replacement, not rebuilt from the torn stripe
[ "$(blk "$vd" $A_OFF)" = "$(blk /tmp/57.a 0)" ] ||
	fail "block A (flushed, on the replacement) reads back wrong while the rebuild is paused"
dmesg_since_mark | grep -Eq "rebuild resumes at sector $ck .*paused" ||
	fail "the rebuild did not resume, paused, at its checkpoint (sector $ck)"
vraidctl job "$vd" rate none >/dev/null
vraidctl job "$vd" resume >/dev/null || fail "job resume"
vraidctl wait "$vd" >/dev/null || fail "the rebuild (and the resync) failed"
[ "$(vd_attr "$vd" state)" = optimal ] || fail "state $(vd_attr "$vd" state) after the rebuild"
[ "$(blk "$vd" $A_OFF)" = "$(blk /tmp/57.a 0)" ] ||
	fail "block A (flushed, on the replacement) was lost by the rebuild"
[ "$(blk "$vd" $B_OFF)" = "$(blk /tmp/57.b 0)" ] ||
	fail "block B does not read back as written (it is on role 0's image)"
vraidctl check "$vd" >/dev/null || fail "vraidctl check"
vraidctl wait "$vd" >/dev/null
[ "$(vd_attr "$vd" mismatch_cnt)" = 0 ] ||
	fail "vraid check: $(vd_attr "$vd" mismatch_cnt) mismatches after the resync"
vraidctl stop "$vd" >/dev/null || fail "stop the assembled VD"
for i in 0 1 2 3 4 5 6; do
	echo 0 >/sys/kernel/config/nullb/nullb5$i/power
	rmdir /sys/kernel/config/nullb/nullb5$i
done
echo ok
