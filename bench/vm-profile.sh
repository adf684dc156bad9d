#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench/vm-profile.sh - runs inside the VM (bench/profile starts it): one
# fio cell per write policy on a VD over null_blk members, with perf
# recording every CPU, then perf's report of where the time went.
#
#   PROF_POLICIES  write policies, in turn (default "wt wb awb"; wb attaches
#                  a null_blk journal first)
#   PROF_LEVEL     the VD's RAID level (default 5)
#   PROF_MEMBERS   null_blk members (default 4)
#   PROF_MODEL     ram | ssd | hdd: what a member I/O costs, as bench/run's
#                  MODEL (default ssd; the journal costs 20 us with ssd/hdd)
#   PROF_RW        fio rw (default randwrite), PROF_BS (default 4k)
#   PROF_QD        outstanding I/O (default 16)
#   PROF_DIST      fio random_distribution (default: uniform)
#   PROF_JMODEL    the journal's null_blk model (default nvme; ram with
#                  PROF_MODEL=ram)
#   PROF_RUNTIME   seconds measured (default 8), after 3 s not measured
#   PROF_TOP       symbols listed (default 60)
#   PROF_CALLERS   symbols whose callers are shown (default: the top 4
#                  outside the idle loop)
set -uo pipefail

POLICIES=${PROF_POLICIES:-wt wb awb}
LEVEL=${PROF_LEVEL:-5}
NM=${PROF_MEMBERS:-4}
MODEL=${PROF_MODEL:-ssd}
RW=${PROF_RW:-randwrite}
BS=${PROF_BS:-4k}
QD=${PROF_QD:-16}
DIST=${PROF_DIST:-}
RUNTIME=${PROF_RUNTIME:-8}
TOP=${PROF_TOP:-60}
NCPU=$(nproc)

die() {
	echo "profile: $*" >&2
	exit 1
}
command -v perf >/dev/null || die "no perf in the VM kit (bench/profile builds one with it)"

# nullb_make INDEX MIB [MODEL] (sets NULLB)
# shellcheck disable=SC1091 # /vraid/tests/vm/nullb.sh: tests/vm/nullb.sh
. /vraid/tests/vm/nullb.sh || die "no /vraid/tests/vm/nullb.sh"

modprobe null_blk nr_devices=0 || die "modprobe null_blk"
mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config
case $MODEL in ram | ssd | hdd) ;; *) die "PROF_MODEL must be ram, ssd or hdd" ;; esac
MEMBERS=()
for i in $(seq 0 $((NM - 1))); do
	nullb_make "$i" 512 "$MODEL"
	MEMBERS+=("$NULLB")
done
jmodel=nvme
[ "$MODEL" = ram ] && jmodel=ram
jmodel=${PROF_JMODEL:-$jmodel}
JMB=256
nullb_make "$NM" "$JMB" "$jmodel"
JDEV=$NULLB
# The journal written once, as bench/run's preconditioning does: null_blk
# allocates and clears a page at a block's first write, a cost no real
# device has, and the ring's first pass would charge it to wb alone.
dd if=/dev/zero of="$JDEV" bs=1M count="$JMB" oflag=direct 2>/dev/null || die "preconditioning $JDEV"

# fio's arguments for VD, SECONDS
fio_args() {
	echo "--name=profile --filename=$1 --rw=$RW --bs=$BS --ioengine=libaio" \
		"--direct=1 --iodepth=$QD --size=1g --time_based --runtime=$2" \
		"--norandommap --randrepeat=0${DIST:+ --random_distribution=$DIST}"
}

# mean write latency in ms between two /sys/block/DEV/stat readings (iostat's
# w_await: write ticks over writes completed), or - without writes
w_await() {
	awk -v a="$1" -v b="$2" 'BEGIN { split(a, x, " "); split(b, y, " ")
		n = y[5] - x[5]; if (n > 0) printf "%.3f", (y[8] - x[8]) / n; else printf "-" }'
}

# jiffies busy and idle, all CPUs
cpu_ticks() { awk '/^cpu /{ print $2 + $3 + $4 + $7 + $8, $5 + $6 }' /proc/stat; }

echo "profile: RAID$LEVEL over $NM null_blk ($MODEL), $RW${DIST:+ ($DIST)} $BS at $QD outstanding, ${RUNTIME}s per policy, $NCPU CPUs"
for pol in $POLICIES; do
	echo
	echo "=================== write policy $pol"
	[ "$pol" = wb ] && { vraidctl controller journal "$JDEV" --force >/dev/null || die "journal attach"; }
	opts=(--level "$LEVEL" --write-policy "$pol")
	case $LEVEL in 1 | 5 | 6 | 10 | 50 | 60) opts+=(--init fast) ;; esac
	case $LEVEL in 50 | 60) opts+=(--spans 2) ;; esac
	name=$(vraidctl create --force "${opts[@]}" --name profile "${MEMBERS[@]}") || die "vraidctl create ${opts[*]}"
	vd=/dev/$name
	vraidctl show "$vd" | grep -E '^(Level|Write in effect):'
	# shellcheck disable=SC2046 # the arguments have no spaces
	fio $(fio_args "$vd" 3) --output-format=terse >/dev/null || die "fio (warm-up) on $vd"
	read -r b0 i0 < <(cpu_ticks)
	vs0=$(cat "/sys/block/$name/stat") js0=$(cat "/sys/block/${JDEV#/dev/}/stat")
	# shellcheck disable=SC2046
	perf record -q -a -g -e cpu-clock -o "/tmp/perf.$pol" -- \
		fio $(fio_args "$vd" "$RUNTIME") --output-format=json >"/tmp/fio.$pol.json" 2>/dev/null ||
		die "perf record / fio on $vd"
	read -r b1 i1 < <(cpu_ticks)
	vs1=$(cat "/sys/block/$name/stat") js1=$(cat "/sys/block/${JDEV#/dev/}/stat")
	# writes completed (field 5)
	jw0=$(echo "$js0" | awk '{ print $5 }') jw1=$(echo "$js1" | awk '{ print $5 }')
	# the job's read, then write IOPS: their sum
	iops=$(grep -o '"iops" : [0-9.]*' "/tmp/fio.$pol.json" | head -2 | awk '{ n += $3 } END { printf "%d", n }')
	busy=$((b1 - b0)) idle=$((i1 - i0))
	echo "IOPS $iops; CPU busy $((100 * busy / (busy + idle + 1)))%;" \
		"CPU per I/O $(awk -v b="$busy" -v n="$iops" -v t="$RUNTIME" 'BEGIN { printf "%d", n ? b * 10000 / (n * t) : 0 }') us;" \
		"journal device writes per I/O $(awk -v j=$((jw1 - jw0)) -v n="$iops" -v t="$RUNTIME" 'BEGIN { printf "%.2f", n ? j / (n * t) : 0 }')"
	# where a write's time goes: fio's completion latency (what the
	# application waits) against the block layer's accounting of the VD
	# (what the driver takes, iostat's w_await) and of the journal device
	echo "write latency: fio $(grep -A4 '"clat_ns"' "/tmp/fio.$pol.json" | grep '"mean"' | sed -n 2p |
		tr -dc '0-9.' | awk '{ printf "%.3f", $1 / 1e6 }') ms;" \
		"in the driver $(w_await "$vs0" "$vs1") ms; journal device $(w_await "$js0" "$js1") ms"
	echo "--- where the CPUs went (cpu-clock samples, self)"
	perf report -i "/tmp/perf.$pol" --stdio --no-children --sort sym -g none 2>/dev/null |
		grep '%' | head -n "$TOP"
	syms=${PROF_CALLERS:-$(perf report -i "/tmp/perf.$pol" --stdio --no-children --sort sym -g none 2>/dev/null |
		grep '%' | grep -v -e safe_halt -e 'idle' | head -4 | awk '{ print $3 }')}
	for s in $syms; do
		echo "--- callers of $s"
		perf report -i "/tmp/perf.$pol" --stdio --no-children --sort sym -S "$s" \
			-g caller,0.5,callee,function,percent 2>/dev/null | grep -v -e '^#' -e '^$' | head -40
	done
	vraidctl stats "$vd" | grep -E '^(Writes|Cache)'
	vraidctl delete "$vd" --force >/dev/null || die "vraidctl delete $vd --force"
	[ "$pol" = wb ] && vraidctl controller journal none >/dev/null
done
exit 0
