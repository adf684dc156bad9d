#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench/vm-bench.sh - measure vraid and Linux md side by side on the same
# member devices, in the same boot, with fio.  Runs as root, either inside
# the test VM (bench/run starts it through tests/vm/run-in-vm) or on a real
# machine with real disks (Documentation/benchmarking.rst).
#
# For each round, for each level: build the vraid VD, run the fio matrix,
# delete it; build the md equivalent on the same members, run the same
# matrix, stop it -- vraid first in odd rounds, md first in even rounds.
# Each round also measures the raw members (no RAID) for the model limit.
#
# Everything is configured by environment variables (all optional):
#
#   BENCH_LEVELS     levels, comma or space separated, from
#                    jbod,0,1,5,6,10,50,60 (default: all that fit the members;
#                    QUICK: 0,1,5,10)
#   BENCH_MEMBERS    null_blk | nvme | devices (default null_blk; "devices"
#                    when BENCH_DEVS is set)
#   BENCH_DEVS       explicit member devices (real hardware): EVERYTHING ON
#                    THEM IS OVERWRITTEN; needs BENCH_DESTROY=yes
#   BENCH_NMEMBERS   members to use (default: QUICK 4, else 8; nvme: all)
#   BENCH_NULLB_MB   null_blk member size in MiB (default: fits in memory)
#   BENCH_MODEL      what a null_blk member costs per I/O (default ram):
#                    ram  memory speed, completion in softirq (the CPU is
#                         the only cost: a driver's CPU use per I/O);
#                    ssd  100 us per I/O, 64 at a time per queue;
#                    hdd  5 ms per I/O, one at a time (200 IOPS a disk,
#                         a 10k rpm SAS disk's random 4 KiB), rotational,
#                         writeback throttling at 75 ms as for a disk.
#                    With ssd and hdd a null_blk journal costs 20 us per
#                    I/O (an NVMe journal device), 64 at a time.
#   BENCH_QUICK      1: small matrix, short runs
#   BENCH_ROUNDS     rounds (default 2 QUICK, 3 otherwise)
#   BENCH_RUNTIME    seconds per fio cell (default 2 QUICK, 10 otherwise)
#   BENCH_RAMP       ramp seconds per fio cell (default 1 QUICK, 2 otherwise)
#   BENCH_WORKLOADS  random,seq,sweep,seqsmall (default random,seq,sweep;
#                    seqsmall: 4 KiB and 64 KiB sequential reads, one at a
#                    time, what read-ahead is for)
#   BENCH_CHUNK      strip/chunk in KiB (default 64)
#   BENCH_QD_RANDOM  outstanding I/O of the random cells (default 16 QUICK, 32)
#   BENCH_QD_SEQ     outstanding I/O of the sequential cells (default 4 / 8)
#   BENCH_SWEEP      outstanding I/O of the sweep (default 1 4 16 64 QUICK,
#                    1 2 4 8 16 32 64 128 256 otherwise)
#   BENCH_MD_STRIPE_CACHE   md raid5/6 stripe_cache_size (default 4096)
#   BENCH_MD_GROUP_THREADS  md raid5/6 group_thread_cnt (default: CPUs, max 8)
#   BENCH_MD_BITMAP  md's bitmap on RAID1/5/6/10: none (default: md as an
#                    expert tunes it for speed) or internal (like vraid's
#                    write-intent bitmap, which cannot be turned off)
#   BENCH_MD_STOP_WAIT  seconds to wait for `mdadm --stop` before the run ends
#                    with the results so far (default 300)
#   BENCH_VRAID_POLICIES  vraid's policies at create, comma separated KEY=VALUE
#                    of vraidctl create's policy options, e.g.
#                    read-policy=ra,io-policy=cached (default: none given,
#                    the defaults: direct, no read-ahead, write-through)
#   BENCH_PRECOND    1: write every member once before measuring (default 1)
#   BENCH_NO_MD=1    skip md;  BENCH_NO_RAW=1  skip the raw members
#   BENCH_JOURNAL    1: also the journal benchmark; only: the journal
#                    benchmark alone (default 0).  RAID5 over the members,
#                    4 KiB random writes (uniform, skewed) and 70:30, per
#                    round: vraid write-through, vraid write-back with the
#                    controller journal, vraid always write-back (volatile),
#                    md raid5, md raid5 with a write journal in write-back
#                    mode;
#                    each cell starts from an idle target (settle.log)
#   BENCH_JOURNAL_DEV  the journal device (default: null_blk: one more
#                    null_blk of BENCH_JOURNAL_MB; nvme: the NVMe disk after
#                    the members; needed with BENCH_DEVS).  Overwritten.
#   BENCH_JOURNAL_MB the null_blk journal's size in MiB (default 256)
#   BENCH_JOURNAL_QD outstanding I/O of the random-write cells (default
#                    1,16,64, none: no such cells)
#   BENCH_JOURNAL_MIX_QD  outstanding I/O of the 70:30 cells (default 16,
#                    none: no such cells)
#   BENCH_JOURNAL_SKEW_QD outstanding I/O of the skewed random-write cells
#                    (zipf_4k_r0_qN: fio random_distribution=zipf:1.2, a few
#                    blocks written often; default 16, none: no such cell)
#   BENCH_JOURNAL_FILL    MiB of 4 KiB random writes, not measured, before
#                    each configuration's cells (default 0)
#   BENCH_OUTDIR     where results go (default /tmp/bench-out)
#   BENCH_OUTDEV     a raw block device to write a tar of BENCH_OUTDIR to at
#                    the end (how bench/run gets results out of the VM)
#
# Output in BENCH_OUTDIR: meta.env (machine, kernel, members, settings),
# fio/<round>-<target>.json (fio --output-format=json, one fio run per
# target and round, one job group per cell), fio/<round>-<target>.cpu (the
# guest's CPU time around each cell), bench.log.
set -u

log() { echo "bench: $*" | tee -a "$OUT/bench.log"; }
die() { echo "bench: error: $*" | tee -a "$OUT/bench.log" >&2; finish 1; }

OUT=${BENCH_OUTDIR:-/tmp/bench-out}
# BENCH_OUTDEV=sata0: the first SATA disk of the test VM (bench/run)
[ "${BENCH_OUTDEV:-}" = sata0 ] && BENCH_OUTDEV=$(echo ${SATA_DEVS:-} | cut -d' ' -f1)
mkdir -p "$OUT/fio"
OUT=$(cd "$OUT" && pwd) # fio runs elsewhere (measure)
: >"$OUT/bench.log"

QUICK=${BENCH_QUICK:-0}
NCPU=$(nproc)
if [ "$QUICK" = 1 ]; then
	d_levels="0 1 5 10" d_n=4 d_rounds=2 d_rt=2 d_ramp=1 d_qr=16 d_qs=4
	d_sweep="1 4 16 64"
else
	d_levels="jbod 0 1 5 6 10 50 60" d_n=8 d_rounds=3 d_rt=10 d_ramp=2
	d_qr=32 d_qs=8 d_sweep="1 2 4 8 16 32 64 128 256"
fi
LEVELS=$(echo "${BENCH_LEVELS:-$d_levels}" | tr ',' ' ')
ROUNDS=${BENCH_ROUNDS:-$d_rounds}
RUNTIME=${BENCH_RUNTIME:-$d_rt}
RAMP=${BENCH_RAMP:-$d_ramp}
WORKLOADS=$(echo "${BENCH_WORKLOADS:-random,seq,sweep}" | tr ',' ' ')
CHUNK=${BENCH_CHUNK:-64}
QD_RANDOM=${BENCH_QD_RANDOM:-$d_qr}
QD_SEQ=${BENCH_QD_SEQ:-$d_qs}
SWEEP=$(echo "${BENCH_SWEEP:-$d_sweep}" | tr ',' ' ')
MD_STRIPE_CACHE=${BENCH_MD_STRIPE_CACHE:-4096}
MD_BITMAP=${BENCH_MD_BITMAP:-none}
VRAID_POLICIES=${BENCH_VRAID_POLICIES:-}
VRAID_POLOPTS=""
for kv in $(echo "$VRAID_POLICIES" | tr ',' ' '); do
	case $kv in
	access=* | disk-cache=* | read-policy=* | write-policy=* | io-policy=*)
		VRAID_POLOPTS="$VRAID_POLOPTS --${kv%%=*} ${kv#*=}" ;;
	*) echo "vm-bench: BENCH_VRAID_POLICIES: '$kv' is not KEY=VALUE of access, disk-cache, read-policy, write-policy, io-policy" >&2; exit 2 ;;
	esac
done
case $MD_BITMAP in internal | none) ;; *) echo "vm-bench: BENCH_MD_BITMAP must be internal or none" >&2; exit 2 ;; esac
MD_GROUP_THREADS=${BENCH_MD_GROUP_THREADS:-$((NCPU > 8 ? 8 : NCPU))}
PRECOND=${BENCH_PRECOND:-1}
JOURNAL=${BENCH_JOURNAL:-0}
case $JOURNAL in 0 | 1 | only) ;; *) echo "vm-bench: BENCH_JOURNAL must be 0, 1 or only" >&2; exit 2 ;; esac
JOURNAL_MB=${BENCH_JOURNAL_MB:-256}
JOURNAL_QD=$(echo "${BENCH_JOURNAL_QD:-1,16,64}" | tr ',' ' ')
JOURNAL_MIX_QD=$(echo "${BENCH_JOURNAL_MIX_QD:-16}" | tr ',' ' ')
JOURNAL_SKEW_QD=$(echo "${BENCH_JOURNAL_SKEW_QD:-16}" | tr ',' ' ')
# "none": no such cell
[ "$JOURNAL_QD" = none ] && JOURNAL_QD=""
[ "$JOURNAL_MIX_QD" = none ] && JOURNAL_MIX_QD=""
[ "$JOURNAL_SKEW_QD" = none ] && JOURNAL_SKEW_QD=""
JOURNAL_FILL=${BENCH_JOURNAL_FILL:-0}
# the journal configurations pick their own write policy
JPOLOPTS=$(echo "$VRAID_POLOPTS" | sed -E 's/ --write-policy [^ ]*//g')
JDEV="" JOURNAL_DESC=""
MODEL=${BENCH_MODEL:-ram}
case $MODEL in ram | ssd | hdd) ;; *) echo "vm-bench: BENCH_MODEL must be ram, ssd or hdd" >&2; exit 2 ;; esac
if [ -n "${BENCH_DEVS:-}" ]; then
	MEMBERS=${BENCH_MEMBERS:-devices}
else
	MEMBERS=${BENCH_MEMBERS:-null_blk}
fi

finish() {
	local rc=$1
	[ -n "${WATCH:-}" ] && kill "$WATCH" 2>/dev/null
	# never leave arrays behind: the members must be free for the next user
	# (but do not wait on md again once a stop of it hung)
	if [ -z "${MD_HUNG:-}" ]; then
		for md in /dev/md/* /dev/md[0-9]*; do
			[ -b "$md" ] && mdadm --stop "$md" >/dev/null 2>&1
		done
	else
		dmesg | tail -n 400 >"$OUT/dmesg.txt"
	fi
	vraidctl list --json 2>/dev/null | grep -o '"vd":"vraid[0-9]*"' |
		grep -o 'vraid[0-9]*' | while read -r v; do vraidctl delete "$v" --force; done
	[ "$(journal_state)" = none ] || vraidctl controller journal none >/dev/null 2>&1
	rm -f "$OUT/mdadm.out"
	echo "BENCH_STATUS=$rc" >>"$OUT/meta.env"
	if [ -n "${BENCH_OUTDEV:-}" ]; then
		# tar straight onto the raw disk: the host reads the image file
		tar -C "$OUT" -cf - . | dd of="$BENCH_OUTDEV" bs=1M conv=fsync 2>/dev/null
		sync
		echo "bench: results written to $BENCH_OUTDEV ($(du -sk "$OUT" | cut -f1) KiB)"
	fi
	exit "$rc"
}

for t in fio mdadm vraidctl; do
	command -v $t >/dev/null || [ $t = mdadm -a "${BENCH_NO_MD:-0}" = 1 ] ||
		die "$t not found"
done

# nullb_make INDEX MIB [MODEL] (sets NULLB)
# shellcheck disable=SC1091 # /vraid/tests/vm/nullb.sh: tests/vm/nullb.sh
. /vraid/tests/vm/nullb.sh || die "no /vraid/tests/vm/nullb.sh"

# journal_json: the "journal" object of `vraidctl controller show --json`
# ("null" without one); journal_state: none, healthy, replay-pending, failed
journal_json() {
	vraidctl controller show --json 2>/dev/null | tr -d '\n' |
		sed -nE 's/.*"journal":(null|\{[^}]*\}).*/\1/p'
}
journal_state() {
	local j
	j=$(journal_json)
	case "$j" in
	"" | null) echo none ;;
	*) echo "$j" | grep -o '"state":"[^"]*"' | head -n 1 | cut -d'"' -f4 | tr _ - ;;
	esac
}
# write_in_effect VD: MODE WHY of `vraidctl show VD --json`
write_in_effect() {
	vraidctl show "$1" --json | grep -o '"write_in_effect":{[^}]*}' |
		sed -E 's/.*"mode":"([^"]*)".*"why":"([^"]*)".*/\1 \2/'
}

# --- members -------------------------------------------------------------------
DEVS=""
case $MEMBERS in
null_blk)
	N=${BENCH_NMEMBERS:-$d_n}
	memkb=$(awk '/MemTotal/ { print $2 }' /proc/meminfo)
	# memory_backed null_blk keeps every written page: half the memory for all
	# (a null_blk journal comes out of the same half)
	jmb=0
	[ "$JOURNAL" != 0 ] && [ -z "${BENCH_JOURNAL_DEV:-}" ] && jmb=$JOURNAL_MB
	mb=${BENCH_NULLB_MB:-$(((memkb / 1024 / 2 - jmb) / N))}
	[ "$mb" -gt 512 ] && [ -z "${BENCH_NULLB_MB:-}" ] && mb=512
	mb=$((mb / 8 * 8))
	modprobe null_blk nr_devices=0 || die "modprobe null_blk"
	mount -t configfs configfs /sys/kernel/config 2>/dev/null
	for ((i = 0; i < N; i++)); do
		nullb_make "$i" "$mb" "$MODEL"
		DEVS="$DEVS $NULLB"
	done
	case $MODEL in
	ram) MEMBER_DESC="null_blk memory_backed=1 blocksize=4096 submit_queues=$NCPU size=${mb}MiB irqmode=default(softirq)" ;;
	ssd) MEMBER_DESC="null_blk model ssd: memory_backed=1 blocksize=4096 submit_queues=$NCPU size=${mb}MiB irqmode=2(timer) completion_nsec=100000" ;;
	hdd) MEMBER_DESC="null_blk model hdd: memory_backed=1 blocksize=4096 submit_queues=1 hw_queue_depth=1 size=${mb}MiB irqmode=2(timer) completion_nsec=5000000 rotational=1 wbt_lat_usec=75000" ;;
	esac
	if [ "$JOURNAL" != 0 ] && [ -z "${BENCH_JOURNAL_DEV:-}" ]; then
		jmodel=ram
		[ "$MODEL" = ram ] || jmodel=nvme
		nullb_make "$N" "$JOURNAL_MB" "$jmodel"
		JDEV=$NULLB
		JOURNAL_DESC="null_blk, size=${JOURNAL_MB}MiB, $([ $jmodel = ram ] && echo "as the members" || echo "irqmode=2(timer) completion_nsec=20000")"
	fi
	;;
nvme)
	set -- ${NVME_DEVS:-}
	N=${BENCH_NMEMBERS:-$#}
	[ "$N" -le $# ] || die "$N NVMe members wanted, $# present"
	DEVS=$(echo "$@" | tr ' ' '\n' | head -n "$N" | tr '\n' ' ')
	MEMBER_DESC="QEMU emulated NVMe (nvme device, raw sparse image, cache=unsafe)"
	if [ "$JOURNAL" != 0 ] && [ -z "${BENCH_JOURNAL_DEV:-}" ]; then
		[ $# -gt "$N" ] || die "no NVMe disk left for the journal after the $N members"
		shift "$N"
		JDEV=$1
		JOURNAL_DESC="QEMU emulated NVMe as the members, the disk after them"
	fi
	;;
devices)
	[ "${BENCH_DESTROY:-}" = yes ] ||
		die "BENCH_DEVS given: every byte on $BENCH_DEVS will be overwritten; set BENCH_DESTROY=yes"
	DEVS=$(echo "$BENCH_DEVS" | tr ',' ' ')
	set -- $DEVS
	N=${BENCH_NMEMBERS:-$#}
	DEVS=$(echo $DEVS | tr ' ' '\n' | head -n "$N" | tr '\n' ' ')
	MEMBER_DESC="devices given by BENCH_DEVS"
	;;
*) die "BENCH_MEMBERS must be null_blk, nvme or devices" ;;
esac
set -- $DEVS
N=$#
ALL=("$@")
[ "$N" -ge 1 ] || die "no member devices"
if [ "$JOURNAL" != 0 ]; then
	if [ -n "${BENCH_JOURNAL_DEV:-}" ]; then
		JDEV=$BENCH_JOURNAL_DEV
		JOURNAL_DESC="given by BENCH_JOURNAL_DEV"
	fi
	[ -n "$JDEV" ] || die "BENCH_JOURNAL: no journal device (set BENCH_JOURNAL_DEV)"
	[ -b "$JDEV" ] || die "journal $JDEV is not a block device"
	for d in "${ALL[@]}"; do
		[ "$(readlink -f "$d")" = "$(readlink -f "$JDEV")" ] && die "journal $JDEV is a member"
	done
	[ "$N" -ge 3 ] || die "BENCH_JOURNAL: RAID5 needs 3 members, $N given"
fi
for d in "${ALL[@]}" $JDEV; do
	[ -b "$d" ] || die "$d is not a block device"
	b=$(basename "$(readlink -f "$d")")
	[ -w /sys/block/$b/queue/scheduler ] && echo none >/sys/block/$b/queue/scheduler 2>/dev/null
done

# members per level (role order = the order of DEVS); empty: does not fit
level_k() {
	case $1 in
	jbod) echo 1 ;;
	0) echo "$N" ;;
	1) [ "$N" -ge 2 ] && echo 2 ;;
	5) [ "$N" -ge 3 ] && echo "$N" ;;
	6) [ "$N" -ge 4 ] && echo "$N" ;;
	10) [ "$N" -ge 4 ] && echo $((N / 2 * 2)) ;;
	50) [ "$N" -ge 6 ] && echo $((N / 2 * 2)) ;;
	60) [ "$N" -ge 8 ] && echo $((N / 2 * 2)) ;;
	esac
}
RUN_LEVELS=""
[ "$JOURNAL" = only ] && LEVELS=""
for l in $LEVELS; do
	l=$(echo "$l" | tr 'A-Z' 'a-z' | sed 's/^raid//')
	case $l in jbod | 0 | 1 | 5 | 6 | 10 | 50 | 60) ;; *) die "unknown level $l" ;; esac
	if [ -z "$(level_k "$l")" ]; then
		log "skipping RAID$l: $N members are too few"
		continue
	fi
	RUN_LEVELS="$RUN_LEVELS $l"
done
RAW_KS=$(for l in $RUN_LEVELS; do level_k "$l"; done | sort -n | uniq | tr '\n' ' ')

# --- the record ----------------------------------------------------------------
{
	echo "DATE=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
	echo "KERNEL='$(uname -r) $(uname -v)'"
	echo "NCPU=$NCPU"
	echo "CLK_TCK=$(getconf CLK_TCK)"
	echo "CPU='$(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)'"
	echo "MEM_KB=$(awk '/MemTotal/ { print $2 }' /proc/meminfo)"
	# what sets the price of a timestamp and of a checksum
	echo "CLOCKSOURCE='$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null)'"
	# the crc32c the kernel uses: of those registered, the highest priority
	echo "CRC32C='$(awk '/^name/ { n = $3 } /^driver/ { d = $3 }
		/^priority/ && n == "crc32c" && $3 + 0 > p { p = $3 + 0; best = d }
		END { print best }' /proc/crypto 2>/dev/null)'"
	echo "IN_VM=$([ -n "${VRAID_TESTS:-}" ] && echo 1 || echo 0)"
	echo "FIO='$(fio --version)'"
	echo "MDADM='$(mdadm --version 2>&1 | head -n1)'"
	echo "VRAIDCTL='$(vraidctl version 2>&1 | head -n1)'"
	echo "MEMBERS=$MEMBERS"
	echo "MODEL=$MODEL"
	echo "MEMBER_DESC='$MEMBER_DESC'"
	echo "DEVS='$DEVS'"
	for d in "${ALL[@]}"; do
		b=$(basename "$(readlink -f "$d")")
		echo "DEV_$b='$(blockdev --getsize64 "$d") bytes, lbs $(blockdev --getss "$d"), pbs $(blockdev --getpbsz "$d"), sched $(cat /sys/block/$b/queue/scheduler 2>/dev/null)'"
	done
	echo "LEVELS='$RUN_LEVELS'"
	echo "RAW_KS='$RAW_KS'"
	echo "QUICK=$QUICK"
	echo "ROUNDS=$ROUNDS"
	echo "RUNTIME=$RUNTIME"
	echo "RAMP=$RAMP"
	echo "WORKLOADS='$WORKLOADS'"
	echo "CHUNK_KIB=$CHUNK"
	echo "QD_RANDOM=$QD_RANDOM"
	echo "QD_SEQ=$QD_SEQ"
	echo "SWEEP='$SWEEP'"
	echo "MD_STRIPE_CACHE=$MD_STRIPE_CACHE"
	echo "MD_GROUP_THREADS=$MD_GROUP_THREADS"
	echo "MD_OPTS='--metadata=1.2 --assume-clean --bitmap=$MD_BITMAP --data-offset=8M, raid10 n2, raid5/6 left-symmetric, raid0/linear/raid50/60 top: mdadm --build'"
	echo "PRECOND=$PRECOND"
	echo "VRAID_POLICIES='$VRAID_POLICIES'"
	echo "JOURNAL=$JOURNAL"
	if [ "$JOURNAL" != 0 ]; then
		echo "JOURNAL_DEV='$JDEV'"
		echo "JOURNAL_DESC='$JOURNAL_DESC'"
		echo "JOURNAL_DEV_BYTES=$(blockdev --getsize64 "$JDEV")"
		echo "JOURNAL_FILL_MIB=$JOURNAL_FILL"
		echo "JOURNAL_SETTLE=1"
	fi
	echo "FIO_OPTS='ioengine=libaio direct=1 time_based runtime=$RUNTIME ramp_time=$RAMP numjobs=min(OIO,$NCPU) iodepth=OIO/numjobs (sequential: numjobs=1) norandommap randrepeat=0 lat_percentiles=1'"
} >"$OUT/meta.env"

# --- the fio matrix ------------------------------------------------------------
# cell name: KIND_BS_rREAD%_qOIO, e.g. rand_4k_r70_q32, seq_1m_r0_q8
CELLS=""
add_cell() { case " $CELLS " in *" $1 "*) ;; *) CELLS="$CELLS $1" ;; esac; }
for w in $WORKLOADS; do
	case $w in
	random)
		if [ "$QUICK" = 1 ]; then bss="4k"; else bss="4k 8k"; fi
		for bs in $bss; do
			for r in 100 0 70 50; do add_cell "rand_${bs}_r${r}_q$QD_RANDOM"; done
		done ;;
	seq)
		if [ "$QUICK" = 1 ]; then bss="1m"; else bss="256k 1m"; fi
		for bs in $bss; do
			for r in 100 0; do add_cell "seq_${bs}_r${r}_q$QD_SEQ"; done
		done ;;
	seqsmall)
		for bs in 4k 64k; do add_cell "seq_${bs}_r100_q1"; done ;;
	sweep)
		if [ "$QUICK" = 1 ]; then mixes="100"; else mixes="100 70"; fi
		for r in $mixes; do
			for q in $SWEEP; do add_cell "rand_4k_r${r}_q$q"; done
		done ;;
	*) die "unknown workload class $w (random, seq, sweep, seqsmall)" ;;
	esac
done
echo "CELLS='$CELLS'" >>"$OUT/meta.env"
# the journal benchmark's configurations (journal_one) and cells: random
# writes, the 70:30 mix and skewed random writes
JCONFIGS="vraid-wt vraid-wb vraid-awb md md-wb"
JCELLS=""
for q in $JOURNAL_QD; do JCELLS="$JCELLS rand_4k_r0_q$q"; done
for q in $JOURNAL_MIX_QD; do JCELLS="$JCELLS rand_4k_r70_q$q"; done
for q in $JOURNAL_SKEW_QD; do JCELLS="$JCELLS zipf_4k_r0_q$q"; done
[ "$JOURNAL" != 0 ] && echo "JCELLS='$JCELLS'" >>"$OUT/meta.env"

# The journal benchmark's cells start from an idle target, so that no cell
# inherits the one before it: fio runs SETTLE (exec_prerun, not timed)
# before each, with SETTLE_ARGS="TARGET MEMBER..." (journal_one sets it).
# The first of a cell's clones waits, at most 120 s, until the target's
# controller cache holds no dirty data (vraid) and its members have
# completed no I/O for a second; the others find the cell settled.  md is
# waited for the same way (its members quiet).  The waits go to settle.log.
SETTLE=/tmp/vraid-settle SETTLE_D=/tmp/vraid-settle.d SETTLE_ARGS="" # its $0.d
cat >"$SETTLE" <<'EOS'
#!/bin/sh
# vraid-settle LOG TAG CELL TARGET MEMBER... (bench/vm-bench.sh)
log=$1 tag=$2 cell=$3 target=$4 d=$0.d
shift 4
until mkdir "$d/lock" 2>/dev/null; do sleep 0.1; done
if [ ! -e "$d/$cell" ]; then
	t0=$(date +%s) state=busy
	dirty=/sys/class/block/$(basename "$(readlink -f "$target")")/vraid/cache_dirty_bytes
	ios() {
		for m in "$@"; do
			awk '{ print $1 + $5 }' "/sys/class/block/$(basename "$(readlink -f "$m")")/stat"
		done | tr '\n' ' '
	}
	prev=$(ios "$@")
	while [ $(($(date +%s) - t0)) -lt 120 ]; do
		sleep 1
		now=$(ios "$@")
		if [ "$now" = "$prev" ] && { [ ! -r "$dirty" ] || [ "$(cat "$dirty")" = 0 ]; }; then
			state=idle
			break
		fi
		prev=$now
	done
	echo "$tag $cell: $state after $(($(date +%s) - t0)) s" >>"$log"
	: >"$d/$cell"
fi
rmdir "$d/lock"
EOS
chmod +x "$SETTLE"

# The guest's CPU time per cell, for CPU per I/O (bench/report): fio runs
# CELLCPU start before each cell's I/O (exec_prerun, after SETTLE when
# there is one) and CELLCPU end after it (exec_postrun).  Every clone of a
# cell runs both: the report takes a cell's first start and last end.  A
# line: CELL start|end, the uptime in seconds (/proc/uptime: 10 ms steps;
# the VM's date has no %N) and /proc/stat's "cpu" line (user nice system
# idle iowait irq softirq steal ..., in USER_HZ ticks).
CELLCPU=/tmp/vraid-cellcpu
cat >"$CELLCPU" <<'EOS'
#!/bin/sh
# vraid-cellcpu start|end FILE CELL [SETTLE-COMMAND...] (bench/vm-bench.sh)
what=$1 file=$2 cell=$3
shift 3
[ $# -gt 0 ] && "$@"
read -r up _ </proc/uptime
echo "$cell $what $up $(sed -n 's/^cpu  *//p' /proc/stat)" >>"$file"
EOS
chmod +x "$CELLCPU"

parity_level() { case $1 in 5 | 6 | 50 | 60) return 0 ;; esac; return 1; }

# jobfile FILE SIZE_BYTES LEVEL FILENAME [CELLS]
jobfile() {
	local f=$1 size=$2 lvl=$3 fname=$4 cells=${5:-$CELLS} c kind bs r q nj dep rw
	{
		echo "[global]"
		echo "ioengine=libaio"
		echo "direct=1"
		echo "filename=$fname"
		[ -n "$size" ] && echo "size=$size"
		echo "time_based=1"
		echo "runtime=$RUNTIME"
		echo "ramp_time=$RAMP"
		echo "group_reporting=1"
		echo "norandommap=1"
		echo "randrepeat=0"
		echo "lat_percentiles=1"
		echo "percentile_list=50:90:99:99.9"
		for c in $cells; do
			IFS=_ read -r kind bs r q <<<"$c"
			r=${r#r} q=${q#q}
			# 50:50 only for the parity levels (and the raw members)
			[ "$r" = 50 ] && [ "$lvl" != raw ] && ! parity_level "$lvl" && continue
			if [ "$kind" = seq ]; then
				nj=1 dep=$q
				case $r in 100) rw=read ;; 0) rw=write ;; *) rw=rw ;; esac
			else
				nj=$((q < NCPU ? q : NCPU)) dep=$((q / nj))
				case $r in 100) rw=randread ;; 0) rw=randwrite ;; *) rw=randrw ;; esac
			fi
			echo
			echo "[$c]"
			echo "stonewall"
			echo "rw=$rw"
			[ "$rw" = randrw ] || [ "$rw" = rw ] && echo "rwmixread=$r"
			# zipf: random, but a few blocks take most of the writes
			[ "$kind" = zipf ] && echo "random_distribution=zipf:1.2"
			echo "bs=$bs"
			echo "numjobs=$nj"
			echo "iodepth=$dep"
			settle=""
			[ -n "$SETTLE_ARGS" ] &&
				settle=" $SETTLE $OUT/settle.log $(basename "$f" .fio) $c $SETTLE_ARGS"
			echo "exec_prerun=$CELLCPU start ${f%.fio}.cpu $c$settle"
			echo "exec_postrun=$CELLCPU end ${f%.fio}.cpu $c"
		done
	} >"$f"
}

# measure ROUND TARGET LEVEL DEV|FILES SIZE [CELLS]
measure() {
	local round=$1 target=$2 lvl=$3 fname=$4 size=$5 t0 rc
	local job=$OUT/fio/$round-$target.fio
	jobfile "$job" "$size" "$lvl" "$fname" "${6:-}"
	t0=$(date +%s)
	rm -f "${job%.fio}.cpu"
	# fio writes each exec_prerun's output to CELL.prerun.txt in its cwd
	rm -rf "$SETTLE_D"
	mkdir -p "$SETTLE_D"
	(cd "$SETTLE_D" && fio --output-format=json --output="$OUT/fio/$round-$target.json" \
		"$job" >"$OUT/fio/$round-$target.err" 2>&1)
	rc=$?
	[ -s "$OUT/fio/$round-$target.err" ] || rm -f "$OUT/fio/$round-$target.err"
	[ $rc = 0 ] || { cat "$OUT/fio/$round-$target.err" 2>/dev/null; die "fio failed on $target ($fname)"; }
	log "round $round: $target done in $(($(date +%s) - t0)) s"
}

# --- vraid and md ---------------------------------------------------------------
VD=""
vraid_make() { # LEVEL K [POLICY-OPTIONS]
	local lvl=$1 k=$2 opts="--level $1" name
	[ "$lvl" != jbod ] && opts="$opts --strip ${CHUNK}K"
	case $lvl in 50 | 60) opts="$opts --spans 2" ;; esac
	# Like md's --assume-clean: no init job competing with the benchmark.
	case $lvl in 1 | 5 | 6 | 10 | 50 | 60) opts="$opts --init fast" ;; esac
	opts="$opts${3-$VRAID_POLOPTS}"
	name=$(vraidctl create --force $opts --name bench "${ALL[@]:0:$k}") ||
		die "vraidctl create $opts ${ALL[*]:0:$k} failed"
	VD=/dev/$name
	[ -b "$VD" ] || die "$VD missing"
}
vraid_drop() { vraidctl delete "$VD" --force || die "vraidctl delete $VD --force"; VD=""; }

MD_STOP=""
md_tune() { # mdN (raid5/6 only)
	echo "$MD_STRIPE_CACHE" >/sys/block/$1/md/stripe_cache_size || die "stripe_cache_size on $1"
	echo "$MD_GROUP_THREADS" >/sys/block/$1/md/group_thread_cnt || die "group_thread_cnt on $1"
}
md_create() { # [--write-journal JDEV] DEV LEVEL SIZE_KIB DEVS...
	local dev lvl size layout="" jopt="--bitmap=$MD_BITMAP"
	# a journal replaces the bitmap (mdadm refuses both)
	[ "$1" = --write-journal ] && { jopt="--write-journal=$2"; shift 2; }
	dev=$1 lvl=$2 size=$3
	shift 3
	case $lvl in
	5 | 6) layout="--layout=left-symmetric --chunk=$CHUNK" ;;
	10) layout="--layout=n2 --chunk=$CHUNK" ;;
	esac
	mdadm --create "$dev" --run --assume-clean --metadata=1.2 --data-offset=8M \
		--size="$size" "$jopt" --level="$lvl" $layout --raid-devices=$# \
		"$@" </dev/null >"$OUT/mdadm.out" 2>&1 ||
		{ cat "$OUT/mdadm.out"; die "mdadm --create $dev level $lvl failed"; }
	MD_STOP="$dev $MD_STOP"
	case $lvl in 5 | 6) md_tune "$(basename "$(readlink -f "$dev")")" ;; esac
}
md_make() { # LEVEL K MEMBER_SIZE_KIB -> MDDEV
	local lvl=$1 k=$2 msz=$3 h devs
	devs=("${ALL[@]:0:$k}")
	MD_STOP=""
	case $lvl in
	jbod)
		mdadm --build /dev/md0 --run --force --level=linear --raid-devices=1 \
			"${devs[0]}" </dev/null >"$OUT/mdadm.out" 2>&1 ||
			{ cat "$OUT/mdadm.out"; die "mdadm --build linear failed"; }
		MD_STOP=/dev/md0 ;;
	0)
		mdadm --build /dev/md0 --run --level=0 --chunk="$CHUNK" --raid-devices="$k" \
			"${devs[@]}" </dev/null >"$OUT/mdadm.out" 2>&1 ||
			{ cat "$OUT/mdadm.out"; die "mdadm --build raid0 failed"; }
		MD_STOP=/dev/md0 ;;
	1 | 5 | 6 | 10) md_create /dev/md0 "$lvl" "$msz" "${devs[@]}" ;;
	50 | 60)
		h=$((k / 2))
		md_create /dev/md10 $((lvl / 10)) "$msz" "${devs[@]:0:$h}"
		md_create /dev/md11 $((lvl / 10)) "$msz" "${devs[@]:$h:$h}"
		mdadm --build /dev/md0 --run --level=0 --chunk="$CHUNK" --raid-devices=2 \
			/dev/md10 /dev/md11 </dev/null >"$OUT/mdadm.out" 2>&1 ||
			{ cat "$OUT/mdadm.out"; die "mdadm --build over the spans failed"; }
		MD_STOP="/dev/md0 $MD_STOP" ;;
	esac
	MDDEV=/dev/md0
}
# md_drop: stop the arrays md_create made.  A stop that hangs (md's
# write-back journal on emulated NVMe members has been seen to, in
# raid5_quiesce) would hang the run with every result inside the VM: after
# MD_STOP_WAIT seconds the run ends with the results so far.
MD_STOP_WAIT=${BENCH_MD_STOP_WAIT:-300} MD_HUNG=""
md_drop() {
	local m pid t
	for m in $MD_STOP; do
		mdadm --stop "$m" >"$OUT/mdadm-stop.out" 2>&1 &
		pid=$! t=0
		while kill -0 "$pid" 2>/dev/null && [ $t -lt "$MD_STOP_WAIT" ]; do
			sleep 1
			t=$((t + 1))
		done
		if kill -0 "$pid" 2>/dev/null; then
			MD_HUNG=$m
			die "mdadm --stop $m has not returned after $MD_STOP_WAIT s (md hangs: see dmesg.txt); the run ends here with the results so far"
		fi
		wait "$pid" || die "mdadm --stop $m: $(cat "$OUT/mdadm-stop.out")"
	done
	rm -f "$OUT/mdadm-stop.out"
	MD_STOP=""
}
md_record() { # LEVEL: what md runs with, once
	local f=$OUT/md-raid$1.txt m
	[ -e "$f" ] && return
	{
		cat /proc/mdstat
		for m in /sys/block/md*/md; do
			echo "== $m"
			for a in level chunk_size layout raid_disks array_state sync_action \
				stripe_cache_size group_thread_cnt skip_copy consistency_policy; do
				[ -r "$m/$a" ] && echo "$a: $(cat "$m/$a")"
			done
		done
	} >"$f" 2>&1
}

# A stalled run shows nothing: the console is quiet and results come out
# only at the end.  Copy the kernel's hung-task reports to the console and
# bench.log as they come; in the test VM (whose cases take the kernel's
# 120 s) a task blocked for 30 s is reported, as a stall worth seeing in
# a benchmark.  Elsewhere the machine's setting stays.
[ -n "${VRAID_TESTS:-}" ] && sysctl -q -w kernel.hung_task_timeout_secs=30 2>/dev/null
hung_watch() {
	local seen n
	seen=$(dmesg | grep -c 'blocked for more than')
	while sleep 30; do
		n=$(dmesg | grep -c 'blocked for more than')
		[ "$n" -gt "$seen" ] || continue
		seen=$n
		log "warning: the kernel reports hung tasks (dmesg):"
		dmesg | grep -A30 'blocked for more than' | tail -n 60 | tee -a "$OUT/bench.log" >&2
	done
}
hung_watch &
WATCH=$!

# --- go ---------------------------------------------------------------------------
log "members ($MEMBERS): $DEVS"
log "levels:$RUN_LEVELS; rounds $ROUNDS; runtime ${RUNTIME}s + ramp ${RAMP}s per cell"
[ -n "$RUN_LEVELS" ] && log "cells:$CELLS"
[ "$JOURNAL" != 0 ] && log "journal benchmark: RAID5 over $N members, journal $JDEV; configurations $JCONFIGS; cells:$JCELLS"

if [ "$PRECOND" = 1 ]; then
	log "preconditioning: writing every member once"
	for d in "${ALL[@]}" $JDEV; do
		dd if=/dev/zero of="$d" bs=1M oflag=direct 2>/dev/null
	done
	# the same bytes at the start as md metadata will want: nothing to keep
	log "preconditioning done"
fi

# One VD size per level, the smaller of vraid's and md's, so both see the
# same offsets.
declare -A VDSIZE MSZ
level_size() { # LEVEL K: VDSIZE[LEVEL] and MSZ[LEVEL] (member KiB), once
	[ -n "${VDSIZE[$1]:-}" ] && return
	vraid_make "$1" "$2"
	VDSIZE[$1]=$(blockdev --getsize64 "$VD")
	MSZ[$1]=$(($(cat "/sys/block/${VD#/dev/}/vraid/member_size") / 2))
	vraid_drop
	echo "VDSIZE_$1=${VDSIZE[$1]} MEMBER_KIB_$1=${MSZ[$1]} K_$1=$2" >>"$OUT/meta.env"
}

# --- the journal benchmark (BENCH_JOURNAL) ------------------------------------------
# RAID5 over the members, 4 KiB random writes: vraid write-through, vraid
# write-back with the controller journal on JDEV, vraid always write-back
# (volatile, for reference), md raid5, md raid5 with a write journal on
# JDEV in write-back mode.  Targets journal-CONFIG.
journal_attach() {
	vraidctl controller journal "$JDEV" --force >"$OUT/journal-attach.out" 2>&1 ||
		{ cat "$OUT/journal-attach.out"; die "vraidctl controller journal $JDEV failed"; }
	[ "$(journal_state)" = healthy ] ||
		die "journal on $JDEV is '$(journal_state)', not healthy: $(journal_json)"
	if ! grep -q '^JOURNAL_RING_BYTES=' "$OUT/meta.env"; then
		echo "JOURNAL_RING_BYTES=$(journal_json | grep -o '"size_bytes":[0-9]*' | cut -d: -f2)" >>"$OUT/meta.env"
	fi
}
journal_detach() {
	vraidctl controller journal none >"$OUT/journal-detach.out" 2>&1 ||
		{ cat "$OUT/journal-detach.out"; die "vraidctl controller journal none failed"; }
}

# journal_fill DEV SIZE: BENCH_JOURNAL_FILL MiB of 4 KiB random writes, not
# measured, so that the cells start with a used journal
journal_fill() {
	[ "$JOURNAL_FILL" -gt 0 ] || return 0
	fio --name=fill --filename="$1" --size="$2" --io_size="${JOURNAL_FILL}M" \
		--rw=randwrite --bs=4k --ioengine=libaio --direct=1 --iodepth=16 \
		--norandommap --randrepeat=0 >"$OUT/fill.out" 2>&1 ||
		{ cat "$OUT/fill.out"; die "fio fill of $1 failed"; }
}

# journal_one ROUND CONFIG
journal_one() {
	local round=$1 cfg=$2 k pol want e m sz t=journal-$2 size
	k=$(level_k 5)
	size=${VDSIZE[5]}
	case $cfg in
	vraid-*)
		pol=${cfg#vraid-}
		[ "$pol" = wb ] && journal_attach
		vraid_make 5 "$k" " --write-policy $pol$JPOLOPTS"
		case $pol in
		wt) want=write_through ;;
		wb) want=write_back ;;
		awb) want=write_back_volatile ;;
		esac
		e=$(write_in_effect "$VD")
		[ "$e" = "$want " ] ||
			die "$VD write-policy $pol: write in effect '$e', not $want (journal: $(journal_json))"
		if [ "$round" = 1 ]; then
			{
				vraidctl show "$VD"
				echo
				vraidctl controller show
			} >"$OUT/journal-vraid-$pol.txt" 2>&1
		fi
		journal_fill "$VD" "$size"
		SETTLE_ARGS="$VD ${ALL[*]:0:$k}"
		measure "$round" "$t" 5 "$VD" "$size" "$JCELLS"
		SETTLE_ARGS=""
		vraidctl stats "$VD" --json >"$OUT/fio/$round-$t.stats.json" 2>&1
		if [ "$pol" = wb ]; then
			vraidctl controller show --json >"$OUT/fio/$round-$t.controller.json" 2>&1
			if [ "$(journal_state)" != healthy ] || [ "$(write_in_effect "$VD")" != "write_back " ]; then
				log "warning: after the run the journal is '$(journal_state)', $VD writes '$(write_in_effect "$VD")'"
			fi
		fi
		vraid_drop
		[ "$pol" = wb ] && journal_detach
		;;
	md | md-wb)
		MD_STOP=""
		if [ "$cfg" = md-wb ]; then
			md_create --write-journal "$JDEV" /dev/md0 5 "${MSZ[5]}" "${ALL[@]:0:$k}"
			m=$(basename "$(readlink -f /dev/md0)")
			if ! echo write-back >"/sys/block/$m/md/journal_mode" 2>"$OUT/mdadm.out" ||
				! grep -q '\[write-back\]' "/sys/block/$m/md/journal_mode"; then
				log "error: md journal_mode write-back: $(cat "$OUT/mdadm.out") ($(cat "/sys/block/$m/md/journal_mode" 2>&1)); md-wb not measured"
				md_drop
				return 0
			fi
		else
			md_create /dev/md0 5 "${MSZ[5]}" "${ALL[@]:0:$k}"
		fi
		sz=$(blockdev --getsize64 /dev/md0)
		[ "$sz" -lt "$size" ] && size=$sz
		if [ "$round" = 1 ]; then
			{
				cat /proc/mdstat
				m=/sys/block/$(basename "$(readlink -f /dev/md0)")/md
				for a in level chunk_size layout raid_disks array_state sync_action \
					stripe_cache_size group_thread_cnt consistency_policy journal_mode; do
					[ -r "$m/$a" ] && echo "$a: $(cat "$m/$a")"
				done
			} >"$OUT/journal-$cfg.txt" 2>&1
		fi
		journal_fill /dev/md0 "$size"
		SETTLE_ARGS="/dev/md0 ${ALL[*]:0:$k}"
		measure "$round" "$t" 5 /dev/md0 "$size" "$JCELLS"
		SETTLE_ARGS=""
		md_drop
		;;
	esac
}

T0=$(date +%s)
for ((round = 1; round <= ROUNDS; round++)); do
	if [ "${BENCH_NO_RAW:-0}" != 1 ]; then
		for k in $RAW_KS; do
			files=$(echo "${ALL[@]:0:$k}" | tr ' ' ':')
			measure "$round" "raw$k" raw "$files" ""
		done
	fi
	for lvl in $RUN_LEVELS; do
		k=$(level_k "$lvl")
		level_size "$lvl" "$k"
		order="vraid md"
		[ $((round % 2)) = 0 ] && order="md vraid"
		[ "${BENCH_NO_MD:-0}" = 1 ] && order=vraid
		for who in $order; do
			if [ $who = vraid ]; then
				vraid_make "$lvl" "$k"
				[ "$round" = 1 ] && vraidctl show "$VD" >"$OUT/vraid-raid$lvl.txt" 2>&1
				measure "$round" "vraid-$lvl" "$lvl" "$VD" "${VDSIZE[$lvl]}"
				vraid_drop
			else
				md_make "$lvl" "$k" "${MSZ[$lvl]}"
				sz=$(blockdev --getsize64 "$MDDEV")
				[ "$sz" -lt "${VDSIZE[$lvl]}" ] &&
					log "note: md RAID$lvl is smaller ($sz) than the VD (${VDSIZE[$lvl]})"
				[ "$round" = 1 ] && md_record "$lvl"
				measure "$round" "md-$lvl" "$lvl" "$MDDEV" "$((sz < VDSIZE[$lvl] ? sz : VDSIZE[$lvl]))"
				md_drop
			fi
		done
	done
	if [ "$JOURNAL" != 0 ]; then
		level_size 5 "$(level_k 5)"
		order=$JCONFIGS
		[ $((round % 2)) = 0 ] && order=$(echo "$JCONFIGS" | tr ' ' '\n' | tac | tr '\n' ' ')
		for cfg in $order; do
			case $cfg in md*) [ "${BENCH_NO_MD:-0}" = 1 ] && continue ;; esac
			journal_one "$round" "$cfg"
		done
	fi
done
log "all rounds done in $(($(date +%s) - T0)) s"
dmesg | grep -E 'BUG|WARNING|Oops|vraid|md' | tail -n 200 >"$OUT/dmesg.txt"
echo "ELAPSED=$(($(date +%s) - T0))" >>"$OUT/meta.env"
finish 0
