#!/bin/sh
# Crash states under volatile member caches (tests/vm/crash-states;
# Documentation/testing.rst, "Crash states").  One boot, many states, no
# power cut: a VD of each of LEVELS, every member on its own recording
# device (the kit's device-mapper target vraid-record, tests/vm/kmod;
# data: a slice of an NVMe disk; log: further slices of it), so every
# write a VD sends a member, with its FLUSH and FUA flags, is on record
# in the order it completed.  On every VD at once crashio writes at random (a flush every 16
# writes, a record of the writes on a slice of the first SATA disk once
# their flush completed), then fio writes 4 MiB at random past crashio's
# blocks that no flush covers; cuts are taken during crashio, right
# after fio and after IDLE seconds of quiet (the bitmap's clear passes).
# Then, for each cut and STATES choices of what each member's volatile
# cache had written back (none, all, a subset from a seed), logreplay
# writes the member images onto memory-backed null_blk targets, which
# are assembled: after the resync every write a flush covered before the
# cut must read back, vraid's check and md's (the md oracle, over the
# same targets) must find no mismatch, and the kernel log must be clean.
# A parity VD whose cut left write-intent regions dirty where a member
# was not rebuilt yet is refused (EUCLEAN, an unclean degraded VD: its
# torn rows would rebuild that member's blocks wrongly); the refusal
# counts as correct when its message says so, and the state goes on with
# `assemble --force`, leaving the blocks the kernel named at risk out of
# crashio's verify (CRASHIO_SKIP; Documentation/testing.rst).
#
# A cut must be consistent across the members: every member is
# suspended (which drains its I/O), then each is reloaded with a new log
# device (its old table's end logs the writes no flush covered yet: its
# log then ends exactly at the cut; a mark would not, logreplay.c says
# why) and they are resumed.  A write that completed before another
# was sent lies before the cut on its member if the other does.
#
# Environment: LEVELS (default 5): 1, 5, 6 or 10, write-through, or with
# a suffix a (5a): write-policy awb, the VD's own volatile cache (only
# what a flush covered counts, as crashio logs it); 5j, 6j: write-policy
# wb with the controller journal on its own recording device (the
# second SATA disk), cut with the members and given cache choices like
# them (the last one); crashio logs a write once acknowledged and every
# one must survive: the journal image is attached (replay pending) and
# assembly replays it (at most one j level: a controller has one
# journal); 5i, 1r, 5r, 5c: every cut during a job slowed to 16 KiB/s a
# member (an init from sector 0 over noise; a rebuild onto a fresh
# logged device that replaced the failed last member; a check), which
# after assembly resumes or restarts and is waited for; 5s (awb): cuts
# while `vraidctl stop` runs and after it returned (then assembly must
# find the VD clean); SEED; STATES (member
# cache choices per cut, default 4: 0 every cache kept none of its
# unflushed writes, 1 all, 2 the first member's all and the others none,
# 3 the other way round, from 4 on each member none, all or a seeded
# subset; a device with nothing volatile at the cut counts as none, and
# a choice whose images are an earlier one's at that cut is skipped;
# FIRST: the first choice, default 0);
# IDLE (seconds, default 20: the bitmap's clear passes come 3-6 s after
# the last write); LOAD (seconds of crashio, default 6; a cut half way);
# TAIL (KiB of the unflushed random writes after crashio, default 4096).
# RECORDER: vraid-record (default) or log-writes (the kernel's
# dm-log-writes, for comparison: its log order fails 5j and 6j falsely,
# Documentation/testing.rst says why).
# ONLY="LEVEL CUT STATE": that state alone (numbers from 0).  REPLAY=1:
# no load; the states come from the logs a kept run left on the disks.
# Prints "ok N - ..." / "not ok N - ..." per state; a failed state prints
# its choices and how to replay it.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vraid.sh"

LEVELS=${LEVELS:-5}
SEED=${SEED:-1}
STATES=${STATES:-4}
IDLE=${IDLE:-20}
LOAD=${LOAD:-6}
MSZ=24		# MiB: each member, and each replay target
LOGSZ=32	# MiB: each log segment (a cut ends one; up to 6 of them)
SLOT=$((MSZ + 6 * LOGSZ))	# MiB of an NVMe disk per member
BLOCKS=2048	# crashio: the first 8 MiB of each VD, 4 KiB blocks
CIOSZ=32	# MiB of the SATA disk per crashio log

# a job level's job (5i, 1r, 5r, 5c): this slow on each member, so that
# the load phase (a few minutes on the shared VM, longer with every level
# a boot has) ends long before the job does: 16 MiB a member at 16 KiB/s
# is 17 minutes (at 256 KiB/s, a minute, jobs had ended before the first
# cut).  After assembly the limit is lifted.
JOBRATE=16K

# the journal (a level with the suffix j; at most one a boot, as a
# controller has one journal): its data and its 4 log segments on the
# second SATA disk, a recording device stj-m over them, cut with
# the members (a device with a volatile cache like them)
JSZ=${JSZ:-64}	# MiB: the journal device, and its replay target (64: the smallest)
JLOGSZ=128	# MiB: each of its log segments
JL=""		# the level that has it

# lv LEVEL: the RAID level (without the suffix); nm LEVEL: its number of
# members; pol LEVEL: its write policy
lv() {
	echo "${1%[ajircs]}"
}
nm() {
	case $(lv "$1") in
	1) echo 2 ;;
	5) echo 3 ;;
	6 | 10) echo 4 ;;
	*) fail "level $1: 1, 5, 6 or 10, with a suffix a for write-policy awb, 5j or 6j for wb with the journal" ;;
	esac
}
pol() {
	case $1 in *a | *s) echo awb ;; *j) echo wb ;; *) echo wt ;; esac
}

set -- $NVME_DEVS
NDISK=$#
[ $NDISK -ge 4 ] || fail "need 4 NVMe disks, have $NDISK"
CIODISK=$(echo $SATA_DEVS | awk '{ print $1 }')
[ -n "$CIODISK" ] || fail "no SATA disk for crashio's logs"
# the members, one line each: LEVEL INDEX SLOT (their slot on the disks)
g=0 nl=0 maxnm=0
: >/tmp/members
for L in $LEVELS; do
	n=$(nm "$L") || exit 1
	[ "$n" -le "$maxnm" ] || maxnm=$n
	# a rebuild level: one more device, the replacement (index n)
	case $L in *r) n=$((n + 1)) ;; esac
	for i in $(seq 0 $((n - 1))); do
		echo "$L $i $g" >>/tmp/members
		g=$((g + 1))
	done
	nl=$((nl + 1))
	case $L in
	*j)
		[ -z "$JL" ] || fail "levels $JL and $L: one journal level a boot"
		JL=$L ;;
	esac
done
JDISK=""
if [ -n "$JL" ]; then
	JDISK=$(echo $SATA_DEVS | awk '{ print $2 }')
	[ -n "$JDISK" ] || fail "no second SATA disk for the journal"
	[ "$(dev_bytes "$JDISK")" -ge $(((JSZ + 4 * JLOGSZ) << 20)) ] ||
		fail "the journal disk $JDISK is too small"
fi
[ "$(dev_bytes "$1")" -ge $((((g + NDISK - 1) / NDISK * SLOT) << 20)) ] ||
	fail "$g members need $(((g + NDISK - 1) / NDISK * SLOT)) MiB NVMe disks (run with --size 1G)"
CUTS_AT=$(($(dev_bytes "$CIODISK") / 1024 - 4096))	# KiB: the table of cuts
[ $((nl * CIOSZ * 1024)) -le $CUTS_AT ] || fail "the SATA disk is too small for $nl crashio logs"

recorder_load "${RECORDER:-vraid-record}"
echo "# the members' recorder: $RECORDER"
modprobe null_blk nr_devices=0 2>/dev/null
grep -q " /sys/kernel/config " /proc/mounts ||
	mount -t configfs none /sys/kernel/config || fail "mount configfs"

# slice NAME DEV OFFSET_MIB SIZE_MIB: /dev/mapper/NAME, a dm-linear
slice() {
	[ -b "/dev/mapper/$1" ] && return 0
	echo "0 $(($4 * 2048)) linear $2 $(($3 * 2048))" | dmsetup create "$1" ||
		fail "dmsetup create $1"
	dmsetup mknodes "$1" >/dev/null 2>&1
	[ -b "/dev/mapper/$1" ] || fail "/dev/mapper/$1 missing"
}

# slot_of LEVEL I: the member's slot; disk G: its NVMe disk
slot_of() {
	awk -v l="$1" -v i="$2" '$1 == l && $2 == i { print $3 }' /tmp/members
}
disk() {
	echo $NVME_DEVS | awk -v i=$(($1 % NDISK + 1)) '{ print $i }'
}

# logseg LEVEL I K: the member's log segment K (its slice made if missing)
logseg() {
	local g
	g=$(slot_of "$1" "$2")
	slice "st$1-l$2-$3" "$(disk $g)" $((g / NDISK * SLOT + MSZ + $3 * LOGSZ)) $LOGSZ
	echo "/dev/mapper/st$1-l$2-$3"
}

# cio LEVEL: the level's crashio log (a slice of the SATA disk)
cio() {
	local k
	k=$(echo $LEVELS | tr ' ' '\n' | grep -nx "$1" | cut -d: -f1)
	slice "st$1-cio" "$CIODISK" $(((k - 1) * CIOSZ)) $CIOSZ
	echo "/dev/mapper/st$1-cio"
}

# lw_table LEVEL I K: the member's recording table, logging to K
lw_table() {
	echo "0 $((MSZ * 2048)) $RECORDER /dev/mapper/st$1-d$2 $(logseg "$1" "$2" "$3")"
}

# jlogseg K: the journal's log segment K; jsegs C: those up to cut C
jlogseg() {
	slice "stj-l$1" "$JDISK" $((JSZ + $1 * JLOGSZ)) $JLOGSZ
	echo "/dev/mapper/stj-l$1"
}
jsegs() {
	local k
	for k in $(seq 0 "$1"); do jlogseg "$k"; done | tr '\n' ' '
}
jlw_table() {
	echo "0 $((JSZ * 2048)) $RECORDER /dev/mapper/stj-d $(jlogseg "$1")"
}

# take_cut NAME: a consistent cut of every member of every VD (see the
# top); the crashio records that exist then (every one of them for
# writes a completed flush covered) go with it into /tmp/cuts
NCUT=0
take_cut() {
	local L i g rec jt jd=""
	# the job levels' sysfs directories, looked up while nothing is held
	for L in $LEVELS; do
		case $L in *[irc]) jd="$jd $L=/sys/block/$(basename "$(vd_of "$L")")/vraid" ;; esac
	done
	while read -r L i g; do
		dmsetup suspend --nolockfs "st$L-m$i" || fail "dmsetup suspend st$L-m$i"
	done </tmp/members
	# the journal last: no write is acknowledged once it is suspended,
	# so every crashio record counted below is of a write whose journal
	# record is before the cut
	if [ -n "$JL" ]; then
		dmsetup suspend --nolockfs stj-m || fail "dmsetup suspend stj-m"
	fi
	for L in $LEVELS; do
		rec=$(crashio count "$(cio "$L")") || fail "crashio count"
		# a job level: the job at the cut (its type, or none; sysfs
		# reads no lock a held member could keep)
		jt=""
		case $L in
		*[irc])
			jt=$(cut -d' ' -f1 "$(echo "$jd" | tr ' ' '\n' | sed -n "s|^$L=||p")/job")
			[ -n "$jt" ] || jt=unknown ;;
		esac
		echo "$L $NCUT $1 $rec${jt:+ $jt}" >>/tmp/cuts
	done
	while read -r L i g; do
		# for the record (logreplay list --marks): the writes no flush
		# covered yet come after it, before the log's end
		dmsetup message "st$L-m$i" 0 mark "$1"
		lw_table "$L" "$i" $((NCUT + 1)) | dmsetup load "st$L-m$i" ||
			fail "dmsetup load st$L-m$i"
	done </tmp/members
	if [ -n "$JL" ]; then
		dmsetup message stj-m 0 mark "$1"
		jlw_table $((NCUT + 1)) | dmsetup load stj-m || fail "dmsetup load stj-m"
		dmsetup resume stj-m || fail "dmsetup resume stj-m"
	fi
	while read -r L i g; do
		dmsetup resume "st$L-m$i" || fail "dmsetup resume st$L-m$i"
	done </tmp/members
	jobs=""
	for L in $LEVELS; do
		case $L in *[irc]) jobs="$jobs; st$L: $(cat "/sys/block/$(basename "$(vd_of "$L")")/vraid/job" 2>/dev/null) $(cat "/sys/block/$(basename "$(vd_of "$L")")/vraid/job_percent" 2>/dev/null)%" ;; esac
	done
	echo "# cut $NCUT ($1): crashio records: $(awk -v c=$NCUT '$2 == c { printf " RAID%s %s", $1, $4 }' /tmp/cuts)$jobs"
	NCUT=$((NCUT + 1))
}

# the random numbers of the cache choices (an LCG: busybox sh has no
# $RANDOM to seed)
RS=1
rnd() {
	RS=$(((RS * 1103515245 + 12345) % 2147483648))
	R=$((RS / 65536))
}

# vd_of LEVEL: the VD of that level (by name)
vd_of() {
	echo "/dev/$(vraidctl list --json | tr '{' '\n' | grep "\"name\":\"st$1\"" |
		grep -o '"vd":"vraid[0-9]*"' | cut -d'"' -f4)"
}

# ---- the load, cut three times (not with REPLAY=1) ----
if [ "${REPLAY:-0}" != 1 ]; then
	: >/tmp/cuts
	# the job levels last (the init's last of all), their jobs started
	# once every VD is writing: slowed as they are, they must still run
	# at every cut
	ORDER=$(for L in $LEVELS; do case $L in *[irc]) ;; *) echo "$L" ;; esac; done
		for L in $LEVELS; do case $L in *[rc]) echo "$L" ;; esac; done
		for L in $LEVELS; do case $L in *i) echo "$L" ;; esac; done)
	if [ -n "$JL" ]; then
		slice stj-d "$JDISK" 0 $JSZ
		jlw_table 0 | dmsetup create stj-m || fail "dmsetup create stj-m"
		dmsetup mknodes stj-m >/dev/null 2>&1
		[ "$(cat "/sys/dev/block/$(majmin /dev/mapper/stj-m)/queue/write_cache")" = "write back" ] ||
			fail "stj-m has no volatile write cache"
		journal_new /dev/mapper/stj-m
		echo "the controller journal on /dev/mapper/stj-m ($RECORDER over $JDISK)"
	fi
	for L in $ORDER; do
		devs=""
		NM=$(nm "$L")
		for i in $(awk -v l="$L" '$1 == l { print $2 }' /tmp/members); do
			g=$(slot_of "$L" "$i")
			slice "st$L-d$i" "$(disk $g)" $((g / NDISK * SLOT)) $MSZ
			lw_table "$L" "$i" 0 | dmsetup create "st$L-m$i" ||
				fail "dmsetup create st$L-m$i"
			dmsetup mknodes "st$L-m$i" >/dev/null 2>&1
			[ "$(cat "/sys/dev/block/$(majmin "/dev/mapper/st$L-m$i")/queue/write_cache")" = "write back" ] ||
				fail "st$L-m$i has no volatile write cache: flushes would not reach the log"
			[ "$i" -ge "$NM" ] || devs="$devs /dev/mapper/st$L-m$i"
		done
		wp=""
		[ "$(pol "$L")" = wt ] || wp="--write-policy $(pol "$L")"
		case $L in
		*i)
			# non-zero members (1 MiB of noise at 3 places of each,
			# through the log, flushed), a VD over them whose init
			# runs from sector 0 slowed to JOBRATE so that every cut
			# falls in it: create --init fast, the rate, then
			# vraidctl init (the same init from 0 as create --init
			# full starts; that one starts at full speed, and on the
			# slow VM was done before its rate could be set)
			for i in $(seq 0 $((NM - 1))); do
				for o in 4 12 20; do
					dd if=/dev/urandom of="/dev/mapper/st$L-m$i" bs=64k count=16 \
						seek=$((o * 16)) oflag=direct conv=fsync 2>/dev/null ||
						fail "noise on st$L-m$i"
				done
			done
			# shellcheck disable=SC2086 # the devices, split
			vd=$(vd_create --level "$(lv "$L")" --strip 16K --init fast --name "st$L" $devs)
			vn=${vd##*/}
			vraidctl job "$vd" rate $JOBRATE >/dev/null || fail "job $vn rate $JOBRATE"
			vraidctl init "$vd" >"/tmp/create.$L" 2>&1 ||
				{ cat "/tmp/create.$L"; fail "vraidctl init st$L"; }
			;;
		*)
			# the disks are all zero: --init fast is consistent
			vd=$(vd_create --level "$(lv "$L")" --strip 16K --init fast --name "st$L" $wp $devs)
			;;
		esac
		# awb: a flush every 16 writes, a record once a flush covered
		# them; the journal (wb): a record once acknowledged, as the
		# power-cut journal tests (phase1.sh) write: one write in 32 a
		# 132 KiB one, one in 4 a few sectors around the cache
		case $L in
		*j) expect_write "$vd" write_back
			cio_args="0 32 4" ;;
		*) cio_args=16 ;;
		esac
		case $L in *i) echo "# st$L: $(cat "/sys/block/$vn/vraid/job") $(cat "/sys/block/$vn/vraid/job_percent")% when its rate was set" ;; esac
		# shellcheck disable=SC2086 # the arguments, split
		crashio_start "/tmp/crashio.$L.out" "$vd" "$(cio "$L")" $BLOCKS "$SEED" ${cio_args:-16}
		eval "cio_$L=\$cio_pid"
		echo "RAID$(lv "$L") ($(pol "$L")) $vd on$devs: crashio (seed $SEED)"
	done
	for L in $LEVELS; do
		vd=$(vd_of "$L")
		NM=$(nm "$L")
		case $L in
		*[rc]) vraidctl job "$vd" rate $JOBRATE >/dev/null || fail "job $vd rate $JOBRATE" ;;
		esac
		case $L in
		*r)
			# the last member fails; a rebuild onto a fresh logged
			# device (JOBRATE a member: every cut falls in it)
			vraidctl fail "$vd" "/dev/mapper/st$L-m$((NM - 1))" >/tmp/fail.out 2>&1 ||
				{ cat /tmp/fail.out; fail "vraidctl fail st$L member $((NM - 1))"; }
			vraidctl replace "$vd" "role:$((NM - 1))" "/dev/mapper/st$L-m$NM" >/tmp/fail.out 2>&1 ||
				{ cat /tmp/fail.out; fail "vraidctl replace st$L role:$((NM - 1))"; }
			;;
		*c) vraidctl check "$vd" >/dev/null || fail "vraidctl check st$L" ;;
		esac
	done
	sleep $((LOAD / 2))
	take_cut load
	sleep $((LOAD - LOAD / 2))
	for L in $LEVELS; do
		eval "kill \$cio_$L"
		eval "wait \$cio_$L" 2>/dev/null
	done
	# the tail: TAIL KiB of random 4 KiB writes past crashio's blocks that
	# no flush covers (a volatile cache may keep any of them); once they
	# end, the bitmap's clear passes mark their regions clean
	for L in $LEVELS; do
		vd=$(vd_of "$L")
		fio --name=tail --filename="$vd" --rw=randwrite --bs=4k --offset=8M \
			--size=8M --io_size=${TAIL:-4096}k --direct=1 --ioengine=psync \
			--randseed="$SEED" >"/tmp/fio.$L" 2>&1 &
		eval "fio_$L=\$!"
	done
	for L in $LEVELS; do
		eval "wait \$fio_$L" || { cat "/tmp/fio.$L"; fail "fio tail on RAID$L"; }
	done
	# the VDs' tails end at different times, and a VD quiet for 3-6 s
	# clears its bits (with a flush): 64 more writes each, at once, so
	# that every VD has writes no flush covered at the cut
	for L in $LEVELS; do
		fio --name=tail2 --filename="$(vd_of "$L")" --rw=randwrite --bs=4k \
			--offset=8M --size=8M --io_size=256k --direct=1 --ioengine=psync \
			--randseed=$((SEED + 1)) >"/tmp/fio.$L" 2>&1 &
		eval "fio_$L=\$!"
	done
	for L in $LEVELS; do
		eval "wait \$fio_$L" || { cat "/tmp/fio.$L"; fail "fio tail2 on RAID$L"; }
	done
	take_cut after
	sleep "$IDLE"
	take_cut idle
	# a stop level (5s, awb): 256 KiB no flush covered, then a cut while
	# `vraidctl stop` writes the cache out and records the VD clean, and
	# one once it has returned
	sl=""
	for L in $LEVELS; do
		case $L in *s) sl="$sl $L" ;; esac
	done
	if [ -n "$sl" ]; then
		for L in $sl; do
			fio --name=tail3 --filename="$(vd_of "$L")" --rw=randwrite --bs=4k \
				--offset=8M --size=8M --io_size=256k --direct=1 --ioengine=psync \
				--randseed=$((SEED + 2)) >"/tmp/fio.$L" 2>&1 || fail "fio tail3 on st$L"
			vraidctl stop "$(vd_of "$L")" >"/tmp/stop.$L" 2>&1 &
			eval "st_$L=\$!"
		done
		sleep 0.05
		for L in $sl; do
			eval "kill -0 \$st_$L" 2>/dev/null && echo "# st$L: stop still running at the cut" ||
				echo "# st$L: stop had returned before the cut (the mid-stop cut is one after it)"
		done
		take_cut stopping
		for L in $sl; do
			eval "wait \$st_$L" || { cat "/tmp/stop.$L"; fail "vraidctl stop st$L"; }
		done
		take_cut stopped
	fi
	for L in $LEVELS; do
		case $L in *s) continue ;; esac
		vraidctl stop "$(vd_of "$L")" >/dev/null || fail "vraidctl stop RAID$L"
	done
	while read -r L i g; do
		dmsetup remove "st$L-m$i" || fail "dmsetup remove st$L-m$i"
	done </tmp/members
	if [ -n "$JL" ]; then
		vraidctl controller journal none >/tmp/journal.out 2>&1 ||
			{ cat /tmp/journal.out; fail "controller journal none"; }
		dmsetup remove stj-m || fail "dmsetup remove stj-m"
	fi
	{ echo "$LEVELS"; cat /tmp/cuts; } |
		dd of="$CIODISK" bs=1k seek=$CUTS_AT count=4 conv=sync 2>/dev/null ||
		fail "saving the cuts on $CIODISK"
	sync
	! dmesg | grep -E "log-writes: (Ran out of space|Error)|vraid-record: .*the log is incomplete" ||
		fail "the recorder stopped logging: the logs are incomplete"
	dmesg_check || fail "the kernel log shows problems after the load"
else
	dd if="$CIODISK" bs=1k skip=$CUTS_AT count=4 2>/dev/null | tr -d '\0' >/tmp/cuts.all
	[ "$(head -n1 /tmp/cuts.all)" = "$LEVELS" ] ||
		fail "the disks hold the logs of LEVELS='$(head -n1 /tmp/cuts.all)', not '$LEVELS'"
	tail -n +2 /tmp/cuts.all >/tmp/cuts
fi

# ---- the replay targets ----
for i in $(seq 0 $((maxnm - 1))); do
	d=/sys/kernel/config/nullb/nullb2$i
	mkdir "$d" || fail "null_blk $d"
	echo $MSZ >"$d/size"
	echo 1 >"$d/memory_backed"
	echo 512 >"$d/blocksize"
	echo 1 >"$d/discard"
	echo 1 >"$d/power"
	for _t in $(seq 50); do [ -b "/dev/nullb2$i" ] && break; sleep 0.1; done
	[ -b "/dev/nullb2$i" ] || fail "/dev/nullb2$i did not appear"
done
# the journal's replay target
JT=/dev/nullb29
if [ -n "$JL" ]; then
	d=/sys/kernel/config/nullb/nullb29
	mkdir "$d" || fail "null_blk $d"
	echo $JSZ >"$d/size"
	echo 1 >"$d/memory_backed"
	echo 512 >"$d/blocksize"
	echo 1 >"$d/discard"
	echo 1 >"$d/power"
	for _t in $(seq 50); do [ -b $JT ] && break; sleep 0.1; done
	[ -b $JT ] || fail "$JT did not appear"
fi

# segs LEVEL I C: the member's logs up to cut C
segs() {
	local k
	for k in $(seq 0 "$3"); do logseg "$1" "$2" "$k"; done | tr '\n' ' '
}

# check_state LEVEL RECORDS CUTNAME JOB: assemble the targets TARGETS
# and check (in a subshell: fail ends the state, not the run); JOB: a job
# level's job at the cut (none: it had ended; empty: not recorded, a run
# kept before the cuts recorded it)
check_state() {
	local vd resync msz size head strip_k t0
	t0=$(now)
	# a job level is a cut during its job: one after the job ended is a
	# plain VD's state, which the plain levels check, and would pass
	# while testing nothing of the job
	case $1 in
	*[irc])
		[ "${4:-}" != none ] ||
			fail "the job had ended before the cut ($3): nothing of it to check (it ran faster than JOBRATE, or the load phase took longer than the job)" ;;
	esac
	mark_dmesg state
	jst=""
	case $1 in
	*j)
		# the replayed journal image: attached, it holds the VD's
		# writes (replay pending), or a checkpoint ended after the last
		# acknowledged write and they are all on the members (healthy):
		# at the idle cut always possible, and after the load too when
		# the ring's use kicked a checkpoint that ended before the cut
		# (the read-back below is the oracle either way)
		vraidctl controller journal $JT >/tmp/journal.out 2>&1 ||
			{ cat /tmp/journal.out; fail "controller journal $JT"; }
		jst=$(journal_state)
		case "$jst" in
		replay-pending) ;;
		healthy) [ "$3" = idle ] ||
			echo "# cut ($3): the journal holds nothing to replay (a checkpoint ended after the last acknowledged write): the members must hold every write" ;;
		*) cat /tmp/journal.out; fail "journal state '$jst' after the cut: $(journal_json)" ;;
		esac
		;;
	esac
	forced="" skip=""
	if ! vraidctl assemble $TARGETS >/tmp/asm.out 2>&1; then
		# Not shut down cleanly while degraded where writes were under
		# way (a member missing, or not rebuilt there): a parity VD
		# without a journal replay is refused - rows torn by the cut
		# would rebuild that member's old blocks wrongly - and comes up
		# with --force, accepting that.  Right for a parity level only.
		case $(lv "$1")/$1 in
		[56]/*j) cat /tmp/asm.out; fail "vraidctl assemble$TARGETS (a journal replay covers the torn rows)" ;;
		[56]/*) ;;
		*) cat /tmp/asm.out; fail "vraidctl assemble$TARGETS" ;;
		esac
		grep -Eq "unclean shutdown while degraded: [0-9]+ dirty regions? may reconstruct wrongly \(EUCLEAN" /tmp/asm.out &&
			grep -q "vraidctl assemble --force" /tmp/asm.out ||
			{ cat /tmp/asm.out; fail "vraidctl assemble$TARGETS failed, not as an unclean degraded VD"; }
		! ls /dev/vraid[0-9]* >/dev/null 2>&1 || fail "a refused assembly left a VD"
		forced=$(grep -oE "[0-9]+ dirty regions?" /tmp/asm.out)
		mark_dmesg state
		vraidctl assemble --force $TARGETS >/tmp/asm.out 2>&1 ||
			{ cat /tmp/asm.out; fail "vraidctl assemble --force$TARGETS"; }
	fi
	vd=$(vd_of "$1")
	[ -b "$vd" ] || fail "no VD after assemble"
	resync=$(dmesg_since_mark | grep -oE "resyncing [0-9]+ regions?" | tail -n1)
	case $1/$3 in
	*s/stopped)
		# stop returned: the VD was recorded clean after its data
		! dmesg_since_mark | grep -q "not shut down cleanly" ||
			fail "a cut after stop returned: assembly found the VD not shut down cleanly"
		;;
	esac
	jb=""
	case $1 in
	*[irc])
		jb="job at assembly: $(vd_attr "$vd" job) $(vd_attr "$vd" job_percent)%"
		vraidctl job "$vd" rate none >/dev/null || fail "job $vd rate none"
		;;
	esac
	if [ -n "$jst" ]; then
		rl=$(dmesg_since_mark | grep -oE "vraid[0-9]+: replayed [0-9]+ writes? and [0-9]+ parity records?" | tail -n1)
		[ "$jst" != replay-pending ] || [ -n "$rl" ] ||
			fail "the journal said replay pending; assembly did not replay it"
		! dmesg_since_mark | grep -E "a PARITY entry that does not fit" ||
			fail "replay skipped parity records"
		[ "$(journal_state)" = healthy ] && [ "$(journal_num pending)" = 0 ] ||
			fail "journal after assembly: $(journal_json)"
		resync="journal $jst${rl:+, ${rl#*: }}; ${resync:-no resync}"
	fi
	if [ -n "$forced" ]; then
		# The honest oracle: in the rows the kernel named (member
		# sectors of the data area) a block of the member that was
		# not rebuilt there may come from a torn row; every other
		# block is read from its own member and must be right.  On
		# RAID5 (left-symmetric: row r's parity on role NM-1-r%NM,
		# data column k on role (parity+1+k)%NM) of a rebuild level
		# that is the replacement's role, NM-1: only its data blocks
		# are left out; otherwise whole rows.
		strip_s=$(($(vd_attr "$vd" strip_size) / 512))
		case $(lv "$1") in 5) dc=$((NM - 1)) ;; *) dc=$((NM - 2)) ;; esac
		role=""
		case $(lv "$1")/$1 in 5/*r) role=$((NM - 1)) ;; esac
		skip=$(dmesg_since_mark | sed -nE 's/.*rows at member sectors ([0-9]+)-([0-9]+) were being written at the crash.*/\1 \2/p' |
			while read -r a b; do
				if [ -z "$role" ]; then
					echo "$((a / strip_s * dc * strip_s / 8))-$(((b / strip_s + 1) * dc * strip_s / 8 - 1))"
					continue
				fi
				r=$((a / strip_s))
				while [ $r -le $((b / strip_s)) ]; do
					pd=$((NM - 1 - r % NM))
					if [ "$role" != $pd ]; then
						k=$(((role - pd - 1 + NM) % NM))
						f=$(((r * dc + k) * strip_s / 8))
						echo "$f-$((f + strip_s / 8 - 1))"
					fi
					r=$((r + 1))
				done
			done | tr '\n' ' ')
		[ -n "$skip" ] || { dmesg_since_mark; fail "assembled with --force ($forced): the kernel log names no rows"; }
		resync="refused ($forced), --force: the named rows' blocks of ${role:+role }${role:-every role} not checked; ${resync:-no resync}"
	fi
	vraidctl wait "$vd" >/dev/null || fail "resync (or the job) failed"
	[ -z "$jb" ] || jb="$jb, last job $(vd_attr "$vd" last_job); "
	[ "$(vd_attr "$vd" state)" = optimal ] ||
		fail "state $(vd_attr "$vd" state) after assembly and resync"
	CRASHIO_SKIP=$skip crashio verify "$vd" "$(cio "$1")" $BLOCKS "$2" >/tmp/verify.out ||
		{ cat /tmp/verify.out; fail "writes $([ -n "$jst" ] && echo "acknowledged" || echo "a flush covered") before the cut are lost (${resync:-no resync})"; }
	cat /tmp/verify.out
	[ -z "$forced" ] ||
		resync="$resync ($(grep -oE "[0-9]+ blocks \([0-9]+ sectors\) checked" /tmp/verify.out), $(grep -oE "[0-9]+ blocks not checked" /tmp/verify.out || echo "0 blocks not checked"))"
	vraidctl check "$vd" >/dev/null || fail "vraidctl check $vd"
	vraidctl wait "$vd" >/dev/null
	[ "$(vd_attr "$vd" mismatch_cnt)" = 0 ] ||
		fail "vraid check: $(vd_attr "$vd" mismatch_cnt) mismatches after assembly (${resync:-no resync})"
	msz=$(vd_attr "$vd" member_size)
	size=$(blockdev --getsz "$vd")
	head=$(sum_mib "$vd" 16)
	strip_k=$(($(vd_attr "$vd" strip_size) / 1024))
	vraidctl stop "$vd" >/dev/null || fail "vraidctl stop $vd"
	md_oracle "$(lv "$1")" "$strip_k" "$msz" "$size" "$head" 16 - $TARGETS
	dmesg_check || fail "the kernel log shows problems"
	echo "$jb${resync:-no resync}; acknowledged writes read back; vraid and md checks clean ($(echo "$(now) $t0" | awk '{ printf "%d", $1 - $2 }') s)"
}

cleanup_state() {
	local v
	mdadm --stop /dev/md0 >/dev/null 2>&1
	for v in $(vraidctl list --json | grep -o '"vd":"vraid[0-9]*"' | cut -d'"' -f4); do
		vraidctl stop "$v" >/dev/null 2>&1 || echo "cleanup: vraidctl stop $v failed"
	done
	[ "$(journal_state)" = none ] ||
		vraidctl controller journal none >/dev/null 2>&1 || echo "cleanup: controller journal none failed"
}

# src LEVEL T: the device whose logs make target T (a rebuild level's
# last role is its replacement's, index NM)
src() {
	case $1 in
	*r) [ "$2" = $(($(nm "$1") - 1)) ] && { nm "$1"; return; } ;;
	esac
	echo "$2"
}

n=0 bad=0
for L in $LEVELS; do
	NM=$(nm "$L")
	MI=$(seq 0 $((NM - 1)) | tr '\n' ' ')
	# the journal level: the journal is one more device with a cache,
	# the last in the choices (index NM)
	MJ=$MI
	case $L in *j) MJ="$MI $NM" ;; esac
	TARGETS=$(for i in $MI; do printf ' /dev/nullb2%s' "$i"; done)
	grep "^$L " /tmp/cuts >/tmp/cuts.L
	while read -r _l c name rec cjob; do
		# the stop cuts are the stop level's, and only its
		case $L/$name in
		*s/stopping | *s/stopped) ;;
		*s/* | */stopping | */stopped) continue ;;
		esac
		vol=""
		for i in $MI; do
			# shellcheck disable=SC2046 # the logs, split
			v=$(logreplay cut $(segs "$L" "$(src "$L" "$i")" "$c")) ||
				fail "logreplay cut (RAID$L member $i, cut $c)"
			vol="$vol $(echo "$v" | awk '{ print $NF }')"
		done
		case $L in
		*j)
			# shellcheck disable=SC2046 # the logs, split
			v=$(logreplay cut $(jsegs "$c")) || fail "logreplay cut (journal, cut $c)"
			vol="$vol journal $(echo "$v" | awk '{ print $NF }')" ;;
		esac
		echo "RAID$L cut $c ($name): $rec crashio records; volatile writes per member:$vol"
		# the volatile counts in the order of MJ (the journal's last)
		nvol=$(echo "$vol" | sed 's/ journal / /')
		seen="|"
		for j in $(seq "${FIRST:-0}" $((STATES - 1))); do
			if [ -n "${ONLY:-}" ] && [ "$ONLY" != "$L $c $j" ]; then
				continue
			fi
			# nothing volatile: one state is all there is
			[ "$j" = "${FIRST:-0}" ] || [ -n "$(echo "$vol" | tr -d ' 0')" ] || break
			RS=$((SEED * 1000 + c * 100 + j))
			keep="" k=0
			for i in $MJ; do
				case $j/$i in
				0/*) m=none ;;
				1/*) m=all ;;
				2/0 | 3/[1-9]*) m=all ;;	# one cache kept all, the others none
				2/* | 3/*) m=none ;;	# and the other way round
				*)
					rnd
					case $((R % 3)) in
					0) m=none ;;
					1) m=all ;;
					*) rnd; m=$((R + 1)) ;;
					esac
					;;
				esac
				# a device with nothing volatile at this cut writes
				# the same image whatever it kept: none (the seeded
				# choices above are drawn all the same, so that every
				# state keeps its number and choices)
				k=$((k + 1))
				# shellcheck disable=SC2086 # the counts, split
				[ "$(echo $nvol | cut -d' ' -f$k)" != 0 ] || m=none
				keep="$keep $m"
			done
			# the same images as a state this cut already checked (on
			# a cut with few volatile writes most choices come to
			# none or all): nothing new to check
			case $seen in
			*"|$keep="*)
				[ -n "${ONLY:-}" ] || {
					same=${seen#*"|$keep="}
					echo "# RAID$(lv "$L") $(pol "$L") ($L) seed $SEED cut $c ($name) state $j: member caches kept:$keep: the images of state ${same%%|*}, not checked again"
					continue
				} ;;
			esac
			seen="$seen$keep=$j|"
			n=$((n + 1))
			desc="RAID$(lv "$L") $(pol "$L") ($L) seed $SEED cut $c ($name) state $j: member caches kept:$keep"
			for t in $TARGETS; do
				blkdiscard -f "$t" 2>/dev/null || fail "blkdiscard $t"
			done
			: >/tmp/lr.out
			i=0
			for m in $keep; do
				if [ "$i" = "$NM" ]; then
					blkdiscard -f $JT 2>/dev/null || fail "blkdiscard $JT"
					# shellcheck disable=SC2046 # the logs, split
					logreplay replay --target $JT --keep "$m" \
						$(jsegs "$c") >>/tmp/lr.out 2>&1 ||
						{ cat /tmp/lr.out; fail "logreplay replay (journal)"; }
					break
				fi
				# shellcheck disable=SC2046 # the logs, split
				logreplay replay --target "/dev/nullb2$i" --keep "$m" \
					$(segs "$L" "$(src "$L" "$i")" "$c") >>/tmp/lr.out 2>&1 ||
					{ cat /tmp/lr.out; fail "logreplay replay (RAID$L member $i)"; }
				i=$((i + 1))
			done
			if (check_state "$L" "$rec" "$name" "$cjob") >/tmp/state.out 2>&1; then
				echo "ok $n - $desc: $(tail -n1 /tmp/state.out)"
			else
				sed 's/^/# /' /tmp/lr.out /tmp/state.out
				echo "not ok $n - $desc: $(grep '^FAIL' /tmp/state.out | tail -n1)"
				echo "# replay: tests/vm/crash-states --replay DIR $L $c $j (DIR: the images the run kept)"
				bad=$((bad + 1))
			fi
			cleanup_state
		done
	done </tmp/cuts.L
done
mark_dmesg end
echo "$n states, $bad failed"
[ "$n" -gt 0 ] || fail "no state was checked"
[ "$bad" = 0 ]
