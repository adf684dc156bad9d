#!/bin/sh
# RAID1 after a power cut during a rebuild: a member rebuilt across the
# crash must not become the copy that reads and the resync take where
# the copies may differ (a read would change without a write).
#
# The cut is built by hand, as 57-rebuild-crash's.  RAID1, two members,
# 1 MiB write-intent regions.  Block X (64 KiB into the VD, region 0)
# holds X0 on both.  Role 0 is failed and replaced; the rebuild does its
# first step (512 KiB, X with it) and is paused, which records its
# checkpoint.  Then X1 is written while role 1 holds every write to its
# data area (dm-delay): X1 reaches the replacement, not role 1, and the
# write is not acknowledged.  The members' images at that moment are
# the cut (the VD running: not clean).
#
# After assembly the replacement counts as in sync below the checkpoint,
# but reads go to role 1, the member online: X reads X0.  Before the fix,
# once the rebuild ended the replacement (role 0) was the "first copy":
# X read X1, and the resync of region 0 copied X1 over role 1 - a read
# that changed without a write.  Now reads and the resync take role 1
# until that resync is done: X reads X0 throughout, and the copies agree.
#
# A second cut comes after the rebuild has ended and before that resync
# has copied X0 over role 0 (its write to X on role 0 held by dm-delay):
# role 0 is Online then, and only the record can say that it is still
# the second copy.  Before that was on disk (metadata version 2, member
# flag SECOND_COPY), the assembly of the second cut made role 0 the
# first copy again: X read X1, after reading X0 before the cut.
# timeout: 600
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vraid.sh"
set -e

MIB=32			# each null_blk: 8 MiB metadata, 24 MiB data
X_OFF=64		# KiB into the VD (and into each member's data area)

modprobe null_blk nr_devices=0 2>/dev/null || true
grep -q " /sys/kernel/config " /proc/mounts ||
	mount -t configfs none /sys/kernel/config || fail "mount configfs"

# nb I: /dev/nullb9I, memory-backed, MIB MiB
nb() {
	local d=/sys/kernel/config/nullb/nullb9$1 t
	mkdir "$d" || fail "null_blk $d"
	echo $MIB >"$d/size"
	echo 1 >"$d/memory_backed"
	echo 512 >"$d/blocksize"
	echo 1 >"$d/power"
	for t in $(seq 50); do [ -b "/dev/nullb9$1" ] && break; sleep 0.1; done
	[ -b "/dev/nullb9$1" ] || fail "/dev/nullb9$1 did not appear"
}
# 0-1 the members, 2 the replacement, 3-4 the images of the cut, 5-6
# the images of the second cut
for i in 0 1 2 3 4 5 6; do nb $i; done
blk() {
	local direct=""
	[ ! -b "$1" ] || direct=iflag=direct
	dd if="$1" bs=4k skip=$(($2 / 4)) count=1 $direct 2>/dev/null | sha256sum | cut -d' ' -f1
}
for i in 0 1 2; do dm_over rm$i /dev/nullb9$i; done

vd=$(vd_create --level 1 --init fast /dev/mapper/rm0 /dev/mapper/rm1)
head -c 4096 /dev/urandom >/tmp/59.x0
head -c 4096 /dev/urandom >/tmp/59.x1
dd if=/tmp/59.x0 of="$vd" bs=4k seek=$((X_OFF / 4)) oflag=direct conv=fsync 2>/dev/null
vraidctl fail "$vd" /dev/mapper/rm0 >/dev/null || fail "fail role 0"
vraidctl job "$vd" rate 16K >/dev/null
vraidctl replace "$vd" role:0 /dev/mapper/rm2 >/dev/null || fail "replace role 0"
# the pause after the first step, not before it
i=0
until [ "$(vd_attr "$vd" job_percent)" != 0.0 ]; do
	i=$((i + 1))
	[ $i -lt 100 ] || fail "the rebuild did not get through its first step in 10 s"
	sleep 0.1
done
vraidctl job "$vd" pause >/dev/null || fail "job pause"
i=0
until vraidctl examine /dev/mapper/rm1 | grep -Eq "Job checkpoint: +rebuild at sector [1-9][0-9]* .*paused"; do
	i=$((i + 1))
	[ $i -lt 100 ] || { vraidctl examine /dev/mapper/rm1; fail "no rebuild checkpoint recorded after the pause"; }
	sleep 0.1
done
ck=$(vraidctl examine /dev/mapper/rm1 | sed -nE 's/.*rebuild at sector ([0-9]+) .*/\1/p')
[ "$ck" -ge $(((X_OFF + 4) * 2)) ] || fail "the checkpoint (sector $ck) is below block X: the case proves less"
echo "rebuild paused, checkpoint at member sector $ck"
[ "$(blk /dev/nullb92 $((DATA_OFFSET / 2 + X_OFF)))" = "$(blk /tmp/59.x0 0)" ] ||
	fail "the rebuild did not copy X0 onto the replacement"

# X1: reaches the replacement (role 0), held on role 1
dm_hold rm1 /dev/nullb91 $DATA_OFFSET
dd if=/tmp/59.x1 of="$vd" bs=4k seek=$((X_OFF / 4)) oflag=direct 2>/dev/null &
ddpid=$!
i=0
until [ "$(blk /dev/nullb92 $((DATA_OFFSET / 2 + X_OFF)))" = "$(blk /tmp/59.x1 0)" ]; do
	i=$((i + 1))
	[ $i -lt 300 ] || fail "X1 did not reach the replacement"
	sleep 0.1
done
dd if=/dev/nullb92 of=/dev/nullb93 bs=1M iflag=direct oflag=direct 2>/dev/null || fail "image of role 0"
dd if=/dev/nullb91 of=/dev/nullb94 bs=1M iflag=direct oflag=direct 2>/dev/null || fail "image of role 1"
[ "$(blk /dev/nullb94 $((DATA_OFFSET / 2 + X_OFF)))" = "$(blk /tmp/59.x0 0)" ] ||
	fail "role 1's image does not hold X0: the cut is not the one meant"
dm_release rm1 /dev/nullb91
wait $ddpid || fail "the write of X1"
vraidctl stop "$vd" >/dev/null || fail "stop $vd"
for i in 0 1 2; do dmsetup remove rm$i; done

mark_dmesg asm
# (through dm-linear: the second cut holds a write to role 0)
dm_over rm3 /dev/nullb93
dm_over rm4 /dev/nullb94
vraidctl assemble /dev/mapper/rm3 /dev/mapper/rm4 >/tmp/59.asm 2>&1 ||
	{ cat /tmp/59.asm; fail "assemble the cut (a mirror is never refused as dirty degraded)"; }
vd=$(first_vd)
[ -b "$vd" ] || fail "no VD after assemble"
dmesg_since_mark | grep -q "not shut down cleanly while rebuilding" ||
	{ dmesg_since_mark; fail "assembly did not find the VD not shut down cleanly while rebuilding"; }
x=$(blk "$vd" $X_OFF)
[ "$x" = "$(blk /tmp/59.x0 0)" ] || fail "X does not read X0 (role 1's) while the rebuild is paused"
# role 0 holds writes to X (reads and flushes go through): the resync
# cannot put X0 there
xs=$((DATA_OFFSET + X_OFF * 2))
sz=$(blockdev --getsz /dev/nullb93)
dmsetup suspend rm3 || fail "dmsetup suspend rm3"
printf '%s\n' "0 $xs linear /dev/nullb93 0" \
	"$xs 8 delay /dev/nullb93 $xs 0 /dev/nullb93 $xs 600000 /dev/nullb93 $xs 0" \
	"$((xs + 8)) $((sz - xs - 8)) linear /dev/nullb93 $((xs + 8))" |
	dmsetup load rm3 || fail "dmsetup load rm3"
dmsetup resume rm3 || fail "dmsetup resume rm3"
vraidctl job "$vd" rate none >/dev/null
vraidctl job "$vd" resume >/dev/null || fail "job resume"
# the rebuild ends (role 0 online, recorded), the resync starts
i=0
until [ "$(vd_attr "$vd" job)" = "resync running" ] &&
      vraidctl examine /dev/nullb94 | grep -Eq "^ +0 .* Online"; do
	i=$((i + 1))
	[ $i -lt 300 ] || { vraidctl examine /dev/nullb94; dm_release rm3 /dev/nullb93; fail "the rebuild did not end, or the resync not start, in 30 s: job $(vd_attr "$vd" job)"; }
	sleep 0.1
done
sleep 2
[ "$(blk /dev/nullb93 $((DATA_OFFSET / 2 + X_OFF)))" = "$(blk /tmp/59.x1 0)" ] ||
	{ dm_release rm3 /dev/nullb93; fail "role 0 no longer holds X1 while its write is held: the second cut is not the one meant"; }
dd if=/dev/nullb93 of=/dev/nullb95 bs=1M iflag=direct oflag=direct 2>/dev/null || fail "second image of role 0"
dd if=/dev/nullb94 of=/dev/nullb96 bs=1M iflag=direct oflag=direct 2>/dev/null || fail "second image of role 1"
vraidctl examine /dev/nullb96
dm_release rm3 /dev/nullb93
vraidctl wait "$vd" >/dev/null || fail "the rebuild (and the resync) failed"
[ "$(vd_attr "$vd" state)" = optimal ] || fail "state $(vd_attr "$vd" state) after the rebuild"
dmesg_since_mark | grep -E "resync (done|starts)" || true
[ "$(blk "$vd" $X_OFF)" = "$x" ] ||
	fail "X changed without a write: it read role 1's X0 during the rebuild, now the rebuilt member's X1"
vraidctl check "$vd" >/dev/null || fail "vraidctl check"
vraidctl wait "$vd" >/dev/null
[ "$(vd_attr "$vd" mismatch_cnt)" = 0 ] ||
	fail "vraid check: $(vd_attr "$vd" mismatch_cnt) mismatches after the resync"
vraidctl stop "$vd" >/dev/null || fail "stop the assembled VD"
dmsetup remove rm3
dmsetup remove rm4

# the second cut: role 0 online, the resync not done, X differs
mark_dmesg asm2
vraidctl assemble /dev/nullb95 /dev/nullb96 >/tmp/59.asm 2>&1 ||
	{ cat /tmp/59.asm; fail "assemble the second cut"; }
vd=$(first_vd)
[ -b "$vd" ] || fail "no VD after the second assemble"
dmesg_since_mark | grep -q "not shut down cleanly" ||
	{ dmesg_since_mark; fail "the second assembly did not find the VD not shut down cleanly"; }
[ "$(blk "$vd" $X_OFF)" = "$x" ] ||
	fail "X changed without a write across the second cut: it read role 1's X0, now role 0's X1 (the second copy was not recorded)"
vraidctl wait "$vd" >/dev/null || fail "the resync after the second cut failed"
[ "$(blk "$vd" $X_OFF)" = "$x" ] ||
	fail "X changed without a write: the resync after the second cut took role 0's X1"
vraidctl check "$vd" >/dev/null || fail "vraidctl check (second cut)"
vraidctl wait "$vd" >/dev/null
[ "$(vd_attr "$vd" mismatch_cnt)" = 0 ] ||
	fail "vraid check: $(vd_attr "$vd" mismatch_cnt) mismatches after the second resync"
vraidctl stop "$vd" >/dev/null || fail "stop the VD of the second cut"
for i in 0 1 2 3 4 5 6; do
	echo 0 >/sys/kernel/config/nullb/nullb9$i/power
	rmdir /sys/kernel/config/nullb/nullb9$i
done
echo ok
