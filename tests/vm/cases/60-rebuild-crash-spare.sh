#!/bin/sh
# A hot spare for another role, taken after an unclean shutdown during a
# rebuild, must not lower the rebuild position of the member being
# rebuilt: each member keeps its own (issue 42's review, item 1).
#
# RAID6 of four null_blk members, 16 KiB strips: stripe 18 has data
# column 0 (block A) on role 3, data column 1 (block B) on role 0, P on
# role 1 and Q on role 2.  Role 3 is failed and replaced; its rebuild
# does one step (stripe 18 with it) and is paused: checkpoint CK.  A is
# written and flushed (on the replacement, below CK).  Role 2 fails.
# Then B is written while role 1 holds every write to its data area
# (dm-delay): B reaches role 0, the new P never reaches role 1.  The
# images of roles 0, 1 and 3 at that moment are a power cut that tore
# stripe 18 (the VD running: not clean); they are assembled with --force
# (unclean while degraded), and a hot spare is added for role 2.
#
# With one rebuild position for the VD, the swap into role 2 set it to 0
# for role 3 too: A (role 3) was then reconstructed from B's new data and
# the old P (role 2's Q being rebuilt) - garbage - and the rebuild wrote
# that over the replacement's good copy.  A stopgap made the spare wait
# for role 3's rebuild to end instead (the VD one failure from offline
# meanwhile).  Now the spare takes role 2 at once, role 3 keeps CK (the
# record says so per member), A reads back from role 3 while both
# rebuild, the resync after them makes stripe 18's parity match, and
# vraid's check finds no mismatch.
# timeout: 600
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vraid.sh"
set -e

MIB=32			# each null_blk: 8 MiB metadata, 24 MiB data
STRIPE=18		# see the top
A_OFF=$((STRIPE * 32))	# KiB into the VD: data column 0 of the stripe
B_OFF=$((A_OFF + 16))	# data column 1

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
# blk DEV KIB: checksum of the 4 KiB at KIB KiB of DEV (around the cache)
blk() {
	local direct=""
	[ ! -b "$1" ] || direct=iflag=direct
	dd if="$1" bs=4k skip=$(($2 / 4)) count=1 $direct 2>/dev/null | sha256sum | cut -d' ' -f1
}
# rebuilt_to DEV ROLE: ROLE's rebuild position in DEV's metadata
rebuilt_to() {
	vraidctl examine "$1" | sed -nE "s/^ +$2 .* rebuilt to sector ([0-9]+).*/\1/p"
}
# 0-3 the members, 4 the replacement of role 3, 5-7 the images of
# roles 0, 1 and 3, 8 the hot spare
for i in 0 1 2 3 4 5 6 7 8; do nb $i; done
for i in 0 1 2 3 4; do dm_over rs$i /dev/nullb6$i; done

vd=$(vd_create --level 6 --strip 16K --init fast /dev/mapper/rs0 /dev/mapper/rs1 /dev/mapper/rs2 /dev/mapper/rs3)
head -c 4096 /dev/urandom >/tmp/60.a0
head -c 4096 /dev/urandom >/tmp/60.a
head -c 4096 /dev/urandom >/tmp/60.b
dd if=/tmp/60.a0 of="$vd" bs=4k seek=$((A_OFF / 4)) oflag=direct conv=fsync 2>/dev/null
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
[ "$ck" -ge $(((STRIPE + 1) * 32)) ] ||
	fail "the checkpoint (sector $ck) is below stripe $STRIPE: the case proves less"
echo "rebuild paused, checkpoint at member sector $ck"

# A: written to the replacement and flushed; then Q's role fails
dd if=/tmp/60.a of="$vd" bs=4k seek=$((A_OFF / 4)) oflag=direct conv=fsync 2>/dev/null
vraidctl fail "$vd" /dev/mapper/rs2 >/dev/null || fail "fail role 2"
# B: reaches role 0, its P is held on role 1
dm_hold rs1 /dev/nullb61 $DATA_OFFSET
dd if=/tmp/60.b of="$vd" bs=4k seek=$((B_OFF / 4)) oflag=direct 2>/dev/null &
ddpid=$!
i=0
until [ "$(blk /dev/nullb60 $((DATA_OFFSET / 2 + STRIPE * 16)))" = "$(blk /tmp/60.b 0)" ]; do
	i=$((i + 1))
	[ $i -lt 300 ] || fail "B did not reach role 0"
	sleep 0.1
done
# the cut: the media of roles 0, 1 and 3 now (role 1 without the new P)
dd if=/dev/nullb60 of=/dev/nullb65 bs=1M iflag=direct oflag=direct 2>/dev/null || fail "image of role 0"
dd if=/dev/nullb61 of=/dev/nullb66 bs=1M iflag=direct oflag=direct 2>/dev/null || fail "image of role 1"
dd if=/dev/nullb64 of=/dev/nullb67 bs=1M iflag=direct oflag=direct 2>/dev/null || fail "image of role 3"
[ "$(blk /dev/nullb67 $((DATA_OFFSET / 2 + STRIPE * 16)))" = "$(blk /tmp/60.a 0)" ] ||
	fail "the replacement's image does not hold A: the cut is not the one meant"
dm_release rs1 /dev/nullb61
wait $ddpid || fail "the write of B"
vraidctl stop "$vd" >/dev/null || fail "stop $vd"
for i in 0 1 2 3 4; do dmsetup remove rs$i; done

mark_dmesg asm
vraidctl assemble --force /dev/nullb65 /dev/nullb66 /dev/nullb67 >/tmp/60.asm 2>&1 ||
	{ cat /tmp/60.asm; fail "assemble --force the cut"; }
vd=$(first_vd)
[ -b "$vd" ] || fail "no VD after assemble"
dmesg_since_mark | grep -Eq "rebuild resumes at sector $ck .*paused" ||
	{ dmesg_since_mark; fail "the rebuild of role 3 did not resume, paused, at its checkpoint ($ck)"; }
[ "$(blk "$vd" $A_OFF)" = "$(blk /tmp/60.a 0)" ] ||
	fail "block A (flushed, on the replacement) reads back wrong after assembly"

# the spare takes role 2 at once; role 3 keeps its position
mark_dmesg spare
vraidctl spare add /dev/nullb68 >/dev/null || fail "spare add"
i=0
until dmesg_since_mark | grep -q "hot spare .*nullb68 takes the place of member 2"; do
	i=$((i + 1))
	[ $i -lt 100 ] || { dmesg_since_mark; fail "the spare did not take role 2 within 10 s (role 3 still rebuilding)"; }
	sleep 0.1
done
# (the rebuild starts at 0 for role 2 and does its first step)
sleep 2
[ "$(blk "$vd" $A_OFF)" = "$(blk /tmp/60.a 0)" ] ||
	fail "block A (flushed, on role 3 below its position) reads back wrong while both roles rebuild"
i=0
until [ -n "$(rebuilt_to /dev/nullb68 2)" ]; do
	i=$((i + 1))
	[ $i -lt 100 ] || { vraidctl examine /dev/nullb68; fail "the spare's record does not give role 2 a position"; }
	sleep 0.1
done
vraidctl examine /dev/nullb65
pos3=$(rebuilt_to /dev/nullb65 3)
[ -n "$pos3" ] && [ "$pos3" -ge "$ck" ] ||
	fail "role 3's position is ${pos3:-gone} after the spare took role 2, below its checkpoint $ck"
vraidctl job "$vd" rate none >/dev/null
i=0
until [ "$(vd_attr "$vd" state)" = optimal ] && [ "$(vd_attr "$vd" job)" = none ]; do
	i=$((i + 1))
	[ $i -lt 600 ] || { dmesg_since_mark; fail "not optimal and idle after 120 s: $(vd_attr "$vd" state), job $(vd_attr "$vd" job)"; }
	sleep 0.2
done
[ "$(blk "$vd" $A_OFF)" = "$(blk /tmp/60.a 0)" ] ||
	fail "block A (flushed, on the replacement) was lost by the rebuilds"
[ "$(blk "$vd" $B_OFF)" = "$(blk /tmp/60.b 0)" ] ||
	fail "block B does not read back as written (it is on role 0's image)"
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
