#!/bin/sh
# A replace (and a hot spare's take-over) while I/O to the failed member
# is still in flight: the role is reused only once that I/O has drained,
# and its late completions never touch the device that takes the role.
#
# The member to replace sits behind dm-delay (every read, write and flush
# held), over a dm device that is switched to the error target before the
# held I/O is let go: the late completions are errors.  For RAID1 and
# RAID5, while fio writes with crc32c verification and a reader runs:
#  - the member is failed with I/O held and `replace` is started at once;
#    the replace must wait for the drain (it may not return before the
#    held I/O is released), the late errors must not fail the new member,
#    fio must verify, the rebuild must end Optimal and md (the oracle)
#    over the same members must read the same data with a clean check;
#  - RAID5: a replace whose old member's I/O stays held is refused with
#    EBUSY after the drain timeout and changes nothing; a hot spare added
#    then waits (and stays a spare) until the I/O is released, then takes
#    the role by itself.
# timeout: 1500
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vraid.sh"
set -e

SZ=131072	# sectors of every wrapper: 64 MiB, 56 MiB of member data
STRIP=16	# KiB

# wrap NAME DEV: /dev/mapper/NAME, a dm-linear over the first 64 MiB of DEV
wrap() {
	echo "0 $SZ linear $2 0" | dmsetup create "$1" || fail "dmsetup create $1"
	settle
	[ -b "/dev/mapper/$1" ] || fail "/dev/mapper/$1 missing"
}

# table NAME TABLE: swap NAME's table (suspend, load, resume)
table() {
	dmsetup suspend "$1" || fail "dmsetup suspend $1"
	echo "$2" | dmsetup load "$1" || fail "dmsetup load $1"
	dmsetup resume "$1" || fail "dmsetup resume $1"
}

# inflight NAME: bios NAME's dm-delay holds (reads + writes + flushes;
# 0 when it holds nothing or is not a delay)
inflight() {
	dmsetup status "$1" | awk '$3 == "delay" { n = $4 + $5 + $6 } END { print n + 0 }'
}

# hold NAME: NAME (a member, over /dev/mapper/x_NAME) holds every bio
hold() {
	modprobe dm-delay || fail "modprobe dm-delay"
	table "$1" "0 $SZ delay /dev/mapper/x_$1 0 600000"
}

# release_errors NAME: what NAME holds goes to x_NAME, now an error target:
# the held I/O completes, late and with errors
release_errors() {
	table "x_$1" "0 $SZ error"
	table "$1" "0 $SZ error"
}

# held_io VD NAME: start fio (writes, then verification) and a reader on
# VD, hold NAME's I/O and wait until some of it is held (FIO_PID, RD_PID)
held_io() {
	local vd=$1 i=0
	fio --name=w --filename="$vd" --rw=randwrite --bs=4k --size=$(mb 24) \
		--direct=1 --ioengine=libaio --iodepth=16 --verify=crc32c \
		--verify_fatal=1 --do_verify=1 >/tmp/fio.w 2>&1 &
	FIO_PID=$!
	dd if="$vd" of=/dev/null bs=64k skip=512 count=4096 iflag=direct 2>/dev/null &
	RD_PID=$!
	sleep 1
	hold "$2"
	until [ "$(inflight "$2")" -gt 0 ]; do
		i=$((i + 1))
		[ $i -lt 100 ] || fail "no I/O held on $2"
		sleep 0.1
	done
	echo "$(inflight "$2") I/Os held on $2"
}

# role_line VD ROLE: the sysfs members line of ROLE ("ROLE NAME MAJ:MIN STATE ...")
role_line() {
	vd_attr "$1" members | awk -v r="$2" '$1 == r'
}

# wrap_members DEVS...: each DEV under two dm layers (x_wN, wN), zeroed,
# the list in $wraps; NEW_DEV under nw
wrap_members() {
	local d i=0
	wraps=""
	for d in "$@"; do
		wrap "x_w$i" "$d"
		wrap "w$i" "/dev/mapper/x_w$i"
		wraps="$wraps /dev/mapper/w$i"
		i=$((i + 1))
	done
	zero_members 0 $wraps
	wrap nw "$NEW_DEV"
}

# replace_during_hold LEVEL DEVS...: the first scenario (see the top)
replace_during_hold() {
	local lvl=$1 vd i=0 d wraps="" rpid rc sum size msz t0 t1 devs nwname base
	shift
	wrap_members "$@"
	vd=$(vd_create --level "$lvl" --strip ${STRIP}K --init fast $wraps)
	nwname=dm-$(dmsetup info -c --noheadings -o minor nw | tr -d ' ')
	base=$(kmsg | wc -l)
	msz=$(vd_attr "$vd" member_size)
	size=$(blockdev --getsz "$vd")
	held_io "$vd" w1

	vraidctl fail "$vd" /dev/mapper/w1 || fail "vraidctl fail w1"
	t0=$(now)
	vraidctl replace "$vd" /dev/mapper/w1 /dev/mapper/nw >/tmp/rep.out 2>&1 &
	rpid=$!
	sleep 3
	# The old device still holds I/O: the role must not be reused yet.
	if ! kill -0 $rpid 2>/dev/null; then
		wait $rpid || true
		cat /tmp/rep.out
		fail "RAID$lvl: replace returned while $(inflight w1) I/Os to the old member were in flight"
	fi
	role_line "$vd" 1 | grep -q "failed" ||
		fail "RAID$lvl: role 1 changed before the drain: $(role_line "$vd" 1)"
	release_errors w1
	rc=0
	await $rpid 60 "RAID$lvl: replace still waiting 60 s after the release" || rc=$?
	t1=$(now)
	cat /tmp/rep.out
	[ $rc = 0 ] || fail "RAID$lvl: replace failed after the drain (status $rc)"
	echo "RAID$lvl: replace waited $(echo "$t0 $t1" | awk '{ printf "%.1f", $2 - $1 }') s for the drain"

	wait $FIO_PID || { cat /tmp/fio.w; fail "RAID$lvl: fio failed"; }
	grep -q "verify:" /tmp/fio.w && { cat /tmp/fio.w; fail "RAID$lvl: verify errors"; }
	wait $RD_PID || true
	# The late errors are the old device's: the new member is not failed.
	kmsg | tail -n +$((base + 1)) | grep "member 1 ($nwname) failed" &&
		fail "RAID$lvl: the new member $nwname was failed (by the old device's late errors?)"
	role_line "$vd" 1 | grep -Eq "rebuilding|online" ||
		fail "RAID$lvl: new member not rebuilding: $(role_line "$vd" 1)"
	vraidctl wait "$vd" >/dev/null || fail "RAID$lvl: rebuild failed"
	[ "$(vd_attr "$vd" state)" = optimal ] ||
		fail "RAID$lvl: $(vd_attr "$vd" state) after the rebuild: $(vd_attr "$vd" members)"
	fio --name=w --filename="$vd" --rw=randwrite --bs=4k --size=$(mb 24) \
		--direct=1 --ioengine=libaio --iodepth=16 --verify=crc32c \
		--verify_only=1 --verify_fatal=1 >/tmp/fio.vo 2>&1 ||
		{ cat /tmp/fio.vo; fail "RAID$lvl: data differs after the rebuild"; }
	sum=$(sum_mib "$vd" 24)
	vd_delete "$vd"
	# md over the same members, the new one in role 1
	devs=$(echo $wraps | sed 's|/dev/mapper/w1|/dev/mapper/nw|')
	md_oracle "$lvl" $STRIP "$msz" "$size" "$sum" 24 - $devs
	echo "RAID$lvl: replace during held I/O: drained, no late failure, data and parity right"
	i=0
	for d in "$@"; do
		dmsetup remove "w$i"
		dmsetup remove "x_w$i"
		i=$((i + 1))
	done
	dmsetup remove nw
}

# refused_while_held DEVS...: the RAID5 EBUSY and hot spare scenario
refused_while_held() {
	local vd i=0 d wraps="" sp
	wrap_members "$@"
	vd=$(vd_create --level 5 --strip ${STRIP}K --init fast $wraps)
	held_io "$vd" w2
	vraidctl fail "$vd" /dev/mapper/w2 || fail "vraidctl fail w2"
	expect_fail vraidctl replace "$vd" /dev/mapper/w2 /dev/mapper/nw
	echo "refused: $ERR"
	expect_msg "member 2 \(dm-[0-9]+\) still has I/O in flight: try again when it completes or the device is gone"
	expect_msg "hint: the old member's disk has not answered"
	[ "$RC" != 0 ] || fail "no error status"
	role_line "$vd" 2 | grep -q failed || fail "the refused replace changed role 2: $(role_line "$vd" 2)"
	[ "$(majmin /dev/mapper/w2)" = "$(role_line "$vd" 2 | awk '{ print $3 }')" ] ||
		fail "role 2 lost its device: $(role_line "$vd" 2)"
	# NEW was not taken: it is free to become a spare, which waits.
	vraidctl spare add /dev/mapper/nw || fail "spare add after the refused replace"
	sleep 3
	vraidctl spare list | grep -q "$(majmin /dev/mapper/nw)" ||
		fail "the spare was taken while member 2 still had I/O in flight"
	kmsg | grep -q "hot spare dm-[0-9]* waits: member 2" ||
		fail "no 'hot spare waits' in the log"
	role_line "$vd" 2 | grep -q failed || fail "role 2 changed under held I/O: $(role_line "$vd" 2)"
	release_errors w2
	i=0
	until vraidctl spare list | grep -q "no hot spares"; do
		i=$((i + 1))
		[ $i -lt 300 ] || fail "the spare did not take role 2 after the release"
		sleep 0.1
	done
	sp=$(role_line "$vd" 2 | awk '{ print $3 }')
	[ "$sp" = "$(majmin /dev/mapper/nw)" ] || fail "role 2 is $(role_line "$vd" 2), not the spare"
	wait $FIO_PID || { cat /tmp/fio.w; fail "RAID5 (spare): fio failed"; }
	grep -q "verify:" /tmp/fio.w && { cat /tmp/fio.w; fail "RAID5 (spare): verify errors"; }
	wait $RD_PID || true
	vraidctl wait "$vd" >/dev/null || fail "RAID5 (spare): rebuild failed"
	[ "$(vd_attr "$vd" state)" = optimal ] || fail "RAID5 (spare): $(vd_attr "$vd" state)"
	fio --name=w --filename="$vd" --rw=randwrite --bs=4k --size=$(mb 24) \
		--direct=1 --ioengine=libaio --iodepth=16 --verify=crc32c \
		--verify_only=1 --verify_fatal=1 >/tmp/fio.vo 2>&1 ||
		{ cat /tmp/fio.vo; fail "RAID5 (spare): data differs after the rebuild"; }
	vd_delete "$vd"
	i=0
	for d in "$@"; do
		dmsetup remove "w$i"
		dmsetup remove "x_w$i"
		i=$((i + 1))
	done
	dmsetup remove nw
	echo "RAID5: replace refused (EBUSY) while held, spare waited, then took over"
}

set -- $(mixed_members 5)
NEW_DEV=$5
replace_during_hold 1 $1 $2
replace_during_hold 5 $1 $2 $3 $4
refused_while_held $1 $2 $3 $4
echo "replace drain: ok"
