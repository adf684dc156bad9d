#!/bin/sh
# Crash states under volatile member caches (tests/vm/crash-states;
# Documentation/testing.rst, "Crash states").  One boot, many states, no
# power cut: every member of a RAID$LEVEL VD sits on its own dm-log-writes
# device (data: a slice of an NVMe disk; log: further slices of it), so
# every write the VD sends a member, with its FLUSH and FUA flags, is on
# record.  crashio writes at random (a flush every 16 writes, a record of
# the writes on the first SATA disk once their flush completed); cuts are
# taken during the load, right after it and after IDLE seconds of quiet.
# Then, for each cut and STATES choices of what each member's volatile
# cache had written back (none, all, a subset from a seed), logreplay
# writes the member images onto memory-backed null_blk targets, which
# are assembled: after the resync every write a flush covered before the
# cut must read back, vraid's check and md's (the md oracle, over the
# same targets) must find no mismatch, and the kernel log must be clean.
#
# A cut must be consistent across the members: every member is
# suspended (which drains its I/O), then each is reloaded with a new log
# device (its old table's end logs the writes no flush covered yet: its
# log then ends exactly at the cut; a mark would not, logreplay.c says
# why) and they are resumed.  A write that completed before another
# was sent lies before the cut on its member if the other does.
#
# Environment: LEVEL (1, 5, 6, 10), SEED, STATES (member cache choices
# per cut, default 4: all none, all all, then at random), IDLE (seconds,
# default 20: the bitmap's clear passes come 3-6 s after the last write),
# LOAD (seconds of crashio, default 6; a cut half way), POLICY (wt, the
# default; awb: the VD's own volatile write-back cache, only what a flush
# covered counts, as crashio logs it).  ONLY="CUT STATE": run only that
# state (numbers from 0; with REPLAY=1, from the logs a kept run left on
# the disks, without writing anything new).
# Prints "ok N - ..." / "not ok N - ..." per state; a failed state prints
# its choices and how to replay it.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vraid.sh"

LEVEL=${LEVEL:-5}
SEED=${SEED:-1}
STATES=${STATES:-4}
IDLE=${IDLE:-20}
LOAD=${LOAD:-6}
POLICY=${POLICY:-wt}
MSZ=32		# MiB: each member, and each replay target
LOGSZ=48	# MiB: each log segment (a cut ends one)
BLOCKS=4096	# crashio: 16 MiB of the VD, 4 KiB blocks
case $LEVEL in
1) NM=2 ;;
5) NM=3 ;;
6 | 10) NM=4 ;;
*) fail "LEVEL $LEVEL: 1, 5, 6 or 10" ;;
esac
set -- $NVME_DEVS
[ $# -ge $NM ] || fail "RAID$LEVEL needs $NM NVMe disks, have $#"
[ "$(dev_bytes "$1")" -ge $(((MSZ + 4 * LOGSZ) << 20)) ] ||
	fail "the NVMe disks are too small for a member and 4 log segments (run with --size 512M)"
CIOLOG=$(echo $SATA_DEVS | awk '{ print $1 }')
[ -n "$CIOLOG" ] || fail "no SATA disk for crashio's log"
CUTS_AT=204800	# KiB into $CIOLOG: the table of cuts, for REPLAY=1

modprobe dm-log-writes || fail "modprobe dm-log-writes"
modprobe null_blk nr_devices=0 2>/dev/null
grep -q " /sys/kernel/config " /proc/mounts ||
	mount -t configfs none /sys/kernel/config || fail "mount configfs"

# nvme I: the Ith NVMe disk
nvme() {
	echo $NVME_DEVS | awk -v i=$(($1 + 1)) '{ print $i }'
}

# slice NAME DEV OFFSET_MIB SIZE_MIB: /dev/mapper/NAME, a dm-linear
slice() {
	echo "0 $(($4 * 2048)) linear $2 $(($3 * 2048))" | dmsetup create "$1" ||
		fail "dmsetup create $1"
	dmsetup mknodes "$1" >/dev/null 2>&1
	[ -b "/dev/mapper/$1" ] || fail "/dev/mapper/$1 missing"
}

# logseg I K: member I's log segment K (its slice made if missing)
logseg() {
	[ -b "/dev/mapper/st-l$1-$2" ] ||
		slice "st-l$1-$2" "$(nvme "$1")" $((MSZ + $2 * LOGSZ)) $LOGSZ
	echo "/dev/mapper/st-l$1-$2"
}

# lw_table I K: the dm-log-writes table of member I logging to segment K
lw_table() {
	echo "0 $((MSZ * 2048)) log-writes /dev/mapper/st-d$1 $(logseg "$1" "$2")"
}

# take_cut NAME: a consistent cut of every member (see the top); the crashio
# records that exist then (every one of them for writes a completed
# flush covered) go with it into /tmp/cuts
NCUT=0
take_cut() {
	local i rec
	for i in $MEMBERS_I; do
		dmsetup suspend --nolockfs "st-m$i" || fail "dmsetup suspend st-m$i"
	done
	rec=$(crashio count "$CIOLOG") || fail "crashio count"
	for i in $MEMBERS_I; do
		# for the record (logreplay list --marks): the writes no flush
		# covered yet come after it, before the log's end
		dmsetup message "st-m$i" 0 mark "$1"
		lw_table $i $((NCUT + 1)) | dmsetup load "st-m$i" ||
			fail "dmsetup load st-m$i"
	done
	for i in $MEMBERS_I; do
		dmsetup resume "st-m$i" || fail "dmsetup resume st-m$i"
	done
	echo "$NCUT $1 $rec" >>/tmp/cuts
	echo "cut $NCUT ($1): $rec crashio records"
	NCUT=$((NCUT + 1))
}

# the random numbers of the cache choices (an LCG: busybox sh has no
# $RANDOM to seed)
RS=1
rnd() {
	RS=$(((RS * 1103515245 + 12345) % 2147483648))
	R=$((RS / 65536))
}

MEMBERS_I=$(seq 0 $((NM - 1)) | tr '\n' ' ')

# ---- the load, cut three times (not with REPLAY=1) ----
if [ "${REPLAY:-0}" != 1 ]; then
	: >/tmp/cuts
	devs=""
	for i in $MEMBERS_I; do
		slice "st-d$i" "$(nvme $i)" 0 $MSZ
		lw_table $i 0 | dmsetup create "st-m$i" || fail "dmsetup create st-m$i"
		dmsetup mknodes "st-m$i" >/dev/null 2>&1
		[ "$(cat "/sys/dev/block/$(majmin "/dev/mapper/st-m$i")/queue/write_cache")" = "write back" ] ||
			fail "st-m$i has no volatile write cache: flushes would not reach the log"
		devs="$devs /dev/mapper/st-m$i"
	done
	wp=""
	[ "$POLICY" = wt ] || wp="--write-policy $POLICY"
	# the disks are all zero: --init fast is consistent
	vd=$(vd_create --level "$LEVEL" --strip 16K --init fast --name "st$LEVEL" $wp $devs)
	crashio_start /tmp/crashio.out "$vd" "$CIOLOG" $BLOCKS "$SEED" 16
	echo "RAID$LEVEL ($POLICY) on$devs: crashio for ${LOAD}s (seed $SEED), idle ${IDLE}s"
	sleep $((LOAD / 2))
	take_cut load
	sleep $((LOAD - LOAD / 2))
	kill "$cio_pid" 2>/dev/null
	wait "$cio_pid" 2>/dev/null
	# the tail: 4 MiB of random 4 KiB writes past crashio's blocks that
	# no flush covers (a volatile cache may keep any of them); once they
	# end, the bitmap's clear passes mark their regions clean
	tsz=$(($(blockdev --getsize64 "$vd") / 1048576 - 16))
	[ $tsz -le 16 ] || tsz=16
	fio --name=tail --filename="$vd" --rw=randwrite --bs=4k --offset=16M \
		--size=${tsz}M --io_size=4M --direct=1 --ioengine=psync \
		--randseed="$SEED" >/tmp/fio.tail 2>&1 ||
		{ cat /tmp/fio.tail; fail "fio tail on $vd"; }
	take_cut after
	sleep "$IDLE"
	take_cut idle
	vraidctl stop "$vd" >/dev/null || fail "vraidctl stop $vd"
	for i in $MEMBERS_I; do
		dmsetup remove "st-m$i" || fail "dmsetup remove st-m$i"
	done
	{ echo "$LEVEL $NM $POLICY"; cat /tmp/cuts; } |
		dd of="$CIOLOG" bs=1k seek=$CUTS_AT count=4 conv=sync 2>/dev/null ||
		fail "saving the cuts on $CIOLOG"
	sync
	dmesg_check || fail "the kernel log shows problems after the load"
else
	dd if="$CIOLOG" bs=1k skip=$CUTS_AT count=4 2>/dev/null | tr -d '\0' >/tmp/cuts.all
	read -r l n p <<EOF
$(head -n1 /tmp/cuts.all)
EOF
	[ "$l" = "$LEVEL" ] && [ "$n" = "$NM" ] ||
		fail "the disks hold the logs of RAID$l of $n members ($p), not of RAID$LEVEL"
	POLICY=$p
	tail -n +2 /tmp/cuts.all >/tmp/cuts
	NCUT=$(wc -l </tmp/cuts)
fi

# ---- the replay targets ----
TARGETS=""
for i in $MEMBERS_I; do
	d=/sys/kernel/config/nullb/nullb2$i
	mkdir "$d" || fail "null_blk $d"
	echo $MSZ >"$d/size"
	echo 1 >"$d/memory_backed"
	echo 512 >"$d/blocksize"
	echo 1 >"$d/discard"
	echo 1 >"$d/power"
	for _t in $(seq 50); do [ -b "/dev/nullb2$i" ] && break; sleep 0.1; done
	[ -b "/dev/nullb2$i" ] || fail "/dev/nullb2$i did not appear"
	TARGETS="$TARGETS /dev/nullb2$i"
done

# segs I C: member I's logs up to cut C
segs() {
	local k
	for k in $(seq 0 "$2"); do logseg "$1" "$k"; done | tr '\n' ' '
}

# check_state RECORDS: assemble the targets and check (in a subshell:
# fail ends the state, not the run)
check_state() {
	local vd resync msz size head strip_k t0
	t0=$(now)
	mark_dmesg state
	vraidctl assemble $TARGETS >/tmp/asm.out 2>&1 ||
		{ cat /tmp/asm.out; fail "vraidctl assemble$TARGETS"; }
	vd=/dev/$(vraidctl list --json | grep -o '"vd":"vraid[0-9]*"' | head -n1 | cut -d'"' -f4)
	[ -b "$vd" ] || fail "no VD after assemble"
	resync=$(dmesg_since_mark | grep -oE "resyncing [0-9]+ regions?" | tail -n1)
	vraidctl wait "$vd" >/dev/null || fail "resync failed"
	[ "$(vd_attr "$vd" state)" = optimal ] ||
		fail "state $(vd_attr "$vd" state) after assembly and resync"
	crashio verify "$vd" "$CIOLOG" $BLOCKS "$1" ||
		fail "writes a flush covered before the cut are lost (${resync:-no resync})"
	vraidctl check "$vd" >/dev/null || fail "vraidctl check $vd"
	vraidctl wait "$vd" >/dev/null
	[ "$(vd_attr "$vd" mismatch_cnt)" = 0 ] ||
		fail "vraid check: $(vd_attr "$vd" mismatch_cnt) mismatches after assembly (${resync:-no resync})"
	msz=$(vd_attr "$vd" member_size)
	size=$(blockdev --getsz "$vd")
	head=$(sum_mib "$vd" 16)
	strip_k=$(($(vd_attr "$vd" strip_size) / 1024))
	vraidctl stop "$vd" >/dev/null || fail "vraidctl stop $vd"
	md_oracle "$LEVEL" "$strip_k" "$msz" "$size" "$head" 16 - $TARGETS
	dmesg_check || fail "the kernel log shows problems"
	echo "${resync:-no resync}; acknowledged writes read back; vraid and md checks clean ($(echo "$(now) $t0" | awk '{ printf "%d", $1 - $2 }') s)"
}

cleanup_state() {
	local v
	mdadm --stop /dev/md0 >/dev/null 2>&1
	for v in $(vraidctl list --json | grep -o '"vd":"vraid[0-9]*"' | cut -d'"' -f4); do
		vraidctl stop "$v" >/dev/null 2>&1 || echo "cleanup: vraidctl stop $v failed"
	done
}

n=0 bad=0
while read -r c name rec; do
	vol=""
	for i in $MEMBERS_I; do
		v=$(logreplay cut $(segs $i "$c")) || fail "logreplay cut (member $i, cut $c)"
		vol="$vol $(echo "$v" | awk '{ print $NF }')"
	done
	echo "cut $c ($name): $rec crashio records; volatile writes per member:$vol"
	for j in $(seq 0 $((STATES - 1))); do
		if [ -n "${ONLY:-}" ] && [ "$ONLY" != "$c $j" ]; then
			continue
		fi
		# nothing volatile: one state is all there is
		[ "$j" = 0 ] || [ -n "$(echo "$vol" | tr -d ' 0')" ] || break
		RS=$((SEED * 1000 + c * 100 + j))
		keep=""
		for i in $MEMBERS_I; do
			case $j in
			0) m=none ;;
			1) m=all ;;
			*)
				rnd
				case $((R % 3)) in
				0) m=none ;;
				1) m=all ;;
				*) rnd; m=$((R + 1)) ;;
				esac
				;;
			esac
			keep="$keep $m"
		done
		n=$((n + 1))
		desc="RAID$LEVEL $POLICY seed $SEED cut $c ($name) state $j: member caches kept:$keep"
		for t in $TARGETS; do
			blkdiscard -f "$t" || fail "blkdiscard $t"
		done
		: >/tmp/lr.out
		i=0
		for m in $keep; do
			logreplay replay --target "$(echo $TARGETS | awk -v i=$((i + 1)) '{ print $i }')" \
				--keep "$m" $(segs $i "$c") >>/tmp/lr.out 2>&1 ||
				{ cat /tmp/lr.out; fail "logreplay replay (member $i)"; }
			i=$((i + 1))
		done
		if (check_state "$rec") >/tmp/state.out 2>&1; then
			echo "ok $n - $desc: $(tail -n1 /tmp/state.out)"
		else
			sed 's/^/# /' /tmp/lr.out /tmp/state.out
			echo "not ok $n - $desc: $(grep '^FAIL' /tmp/state.out | tail -n1)"
			echo "# replay: tests/vm/crash-states --replay DIR $LEVEL $c $j (DIR: the images the run kept), or CRASH_SEED=$SEED tests/vm/crash-states $LEVEL (a new load)"
			bad=$((bad + 1))
		fi
		cleanup_state
	done
done </tmp/cuts
mark_dmesg end
echo "RAID$LEVEL: $n states, $bad failed"
[ "$n" -gt 0 ] || fail "no state was checked"
[ "$bad" = 0 ]
