#!/bin/sh
# Member failure while I/O runs, for every redundant level: one member
# (two for RAID6/60) fails mid-fio, once through `vraidctl fail` and once
# through a member that starts returning errors (its dm table swapped to
# the error target).  fio's crc32c verification passes, the VD is
# Degraded, reads of the lost data are reconstructed; one failure more
# than the level tolerates makes it Offline: I/O fails with EIO at once
# and nothing hangs.  The failure lands while fio writes: it is made once
# an eighth of fio's writes completed, and then at most half of them may
# have (the VD's own write statistics), else the case fails.
# timeout: 1200
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vraid.sh"
set -e

# Members to fail (roles): within tolerance, then one more.
victims() {
	case $1 in
	1) echo "0 1|2" ;;	# 3 mirrors: lose 2, the third kills it
	10) echo "0|1" ;;	# pair 0-1
	5) echo "1|2" ;;
	6) echo "1 3|4" ;;
	50) echo "0|2" ;;	# span 0 is members 0-2
	60) echo "0 2|3" ;;	# span 0 is members 0-3
	esac
}

nth() { echo $2 | awk -v i=$(($1 + 1)) '{ print $i }'; }

# fio's load: FIO_MIB MiB of random 4 KiB writes, FIO_SECTORS sectors.
# (24 MiB before, with the failure 2 s after fio started: RAID5 and 6,
# both ways, took 140 s, and 94 s with 8 MiB in the same boot, the
# failures after 14 to 23 % of the writes.) Not divided by
# VRAID_SIZE_DIV (mb): the failure's own few commands must stay short
# beside the load (make test-debug's quarter, 6 MiB before, is 8 now)
FIO_MIB=8
FIO_SECTORS=$((FIO_MIB * 2048))

# vd_written VD: the sectors the VD completed writing so far
vd_written() {
	awk '{ print $7 }' "/sys/block/${1#/dev/}/stat"
}

run_level() {
	local lvl=$1 how=$2 vd v within extra wraps="" i=0 pid d w0 at
	level_members $lvl
	# Every member behind a dm-linear wrapper whose table can be swapped.
	for d in $LM_DEVS; do
		echo "0 $(blockdev --getsz $d) linear $d 0" | dmsetup create w$i
		dmsetup mknodes w$i
		wraps="$wraps /dev/mapper/w$i"
		i=$((i + 1))
	done
	vd=$(vd_create $LM_OPTS --strip 16K $wraps)
	v=$(victims $lvl)
	within=${v%%|*}
	extra=${v#*|}
	w0=$(vd_written "$vd")
	fio --name=bg --filename="$vd" --rw=randwrite --bs=4k --size=${FIO_MIB}m \
		--direct=1 --ioengine=libaio --iodepth=16 --verify=crc32c \
		--verify_fatal=1 --do_verify=1 >/tmp/fio.bg 2>&1 &
	pid=$!
	# the failure once an eighth of the writes are done (60 s at most)
	i=0
	while [ $(($(vd_written "$vd") - w0)) -lt $((FIO_SECTORS / 8)) ]; do
		kill -0 $pid 2>/dev/null || { cat /tmp/fio.bg; fail "RAID$lvl ($how): fio ended before writing an eighth"; }
		i=$((i + 1))
		[ $i -lt 600 ] || fail "RAID$lvl ($how): fio wrote $(($(vd_written "$vd") - w0)) of $FIO_SECTORS sectors in 60 s"
		sleep 0.1
	done
	for r in $within; do
		if [ $how = admin ]; then
			vraidctl fail "$vd" /dev/mapper/w$r || fail "vraidctl fail w$r"
		else
			dmsetup load w$r --table "0 $(blockdev --getsz /dev/mapper/w$r) error"
			dmsetup resume w$r
		fi
	done
	# (an upper bound of what was written before the failure)
	at=$(($(vd_written "$vd") - w0))
	[ $at -le $((FIO_SECTORS / 2)) ] ||
		fail "RAID$lvl ($how): $at of fio's $FIO_SECTORS sectors were written when $within failed: not mid-I/O (make FIO_MIB larger)"
	wait $pid || { cat /tmp/fio.bg; fail "RAID$lvl ($how): fio failed after losing $within"; }
	grep -q "verify:" /tmp/fio.bg && { cat /tmp/fio.bg; fail "RAID$lvl: verify errors"; }
	# dm-error members are failed by the first I/O that reaches them.
	dd if="$vd" of=/dev/null bs=1M count=8 iflag=direct 2>/dev/null || true
	[ "$(vd_attr $vd state)" = degraded ] ||
		fail "RAID$lvl ($how): state $(vd_attr $vd state) after losing $within, want degraded"
	for r in $within; do
		vraidctl show "$vd" | grep -E "^ +$r " | grep -q Failed ||
			fail "RAID$lvl: member $r not shown Failed"
	done
	# Everything still reads back right, reconstructed where needed.
	fio --name=bg --filename="$vd" --rw=randwrite --bs=4k --size=${FIO_MIB}m \
		--direct=1 --ioengine=libaio --iodepth=16 --verify=crc32c \
		--verify_only=1 --verify_fatal=1 >/tmp/fio.vo 2>&1 ||
		{ cat /tmp/fio.vo; fail "RAID$lvl ($how): degraded read-back failed"; }
	# One more failure is refused without --force, then taken with it.
	if vraidctl fail "$vd" /dev/mapper/w$extra 2>/tmp/err; then
		fail "RAID$lvl: failing past tolerance accepted without --force"
	fi
	grep -q "offline" /tmp/err || { cat /tmp/err; fail "refusal does not say offline"; }
	vraidctl fail --force "$vd" /dev/mapper/w$extra || fail "fail --force"
	[ "$(vd_attr $vd state)" = offline ] || fail "RAID$lvl: not offline"
	if timeout 20 dd if="$vd" of=/dev/null bs=4k count=1 iflag=direct 2>/dev/null; then
		fail "RAID$lvl: read from an offline VD succeeded"
	fi
	if timeout 20 dd if=/dev/zero of="$vd" bs=4k count=1 oflag=direct 2>/dev/null; then
		fail "RAID$lvl: write to an offline VD succeeded"
	fi
	vd_delete "$vd"
	for i in $(seq 0 $(($(echo $wraps | wc -w) - 1))); do
		dmsetup remove w$i
	done
	echo "RAID$lvl ($how): $within failed after $at of $FIO_SECTORS sectors; degraded, offline after $extra"
}

for lvl in 1 10 5 6 50 60; do
	run_level $lvl admin
	run_level $lvl dmerror
done
