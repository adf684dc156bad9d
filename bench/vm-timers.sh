#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench/vm-timers.sh - runs inside the VM (bench/timers starts it): one
# fio cell per write policy on a RAID5 VD over null_blk members, with the
# lateness of every null_blk completion timer traced (timer:hrtimer_start
# and timer:hrtimer_expire_entry).  Prints "@@TIMERS-START P" and
# "@@TIMERS-END P" around each cell, for the host's view of QEMU.
#
#   TIM_POLICIES  write policies, in turn (default "wt wb"; wb attaches a
#                 null_blk journal first)
#   TIM_MODEL     ssd | hdd | nvme: the members' model (default ssd)
#   TIM_JMODEL    the journal's model (default nvme; ram: no timer)
#   TIM_QD        outstanding I/O (default 1);  TIM_RUNTIME  seconds (10)
set -uo pipefail

POLICIES=${TIM_POLICIES:-wt wb}
MODEL=${TIM_MODEL:-ssd}
JMODEL=${TIM_JMODEL:-nvme}
QD=${TIM_QD:-1}
RUNTIME=${TIM_RUNTIME:-10}
# shellcheck disable=SC2034 # nullb.sh uses it
NCPU=$(nproc)
T=/sys/kernel/tracing

die() {
	echo "timers: $*" >&2
	exit 1
}
# nullb_load; nullb_make INDEX MIB [MODEL] (sets NULLB)
# shellcheck disable=SC1091 # /vraid/tests/vm/nullb.sh: tests/vm/nullb.sh
. /vraid/tests/vm/nullb.sh
nullb_load
grep -q " $T " /proc/mounts || mount -t tracefs none $T || die "no tracefs"
members=()
for i in 0 1 2 3; do
	nullb_make $i 512 "$MODEL"
	members+=("$NULLB")
done
nullb_make 4 256 "$JMODEL"
jdev=$NULLB
echo 32768 >$T/buffer_size_kb

for pol in $POLICIES; do
	if [ "$pol" = wb ]; then
		vraidctl controller journal "$jdev" --force >/dev/null || die "journal $jdev"
	fi
	name=$(vraidctl create --force --level 5 --write-policy "$pol" --init fast \
		--name timers "${members[@]}") || die "create ($pol)"
	echo >$T/trace
	echo 1 >$T/events/timer/hrtimer_start/enable
	echo 1 >$T/events/timer/hrtimer_expire_entry/enable
	echo 1 >$T/tracing_on
	echo "@@TIMERS-START $pol"
	fio --name=t --filename="/dev/$name" --rw=randwrite --bs=4k \
		--ioengine=libaio --direct=1 --iodepth="$QD" --size=1g \
		--time_based --runtime="$RUNTIME" --norandommap --randrepeat=0 \
		--output-format=json >/tmp/fio.json || die "fio ($pol)"
	echo "@@TIMERS-END $pol"
	echo 0 >$T/tracing_on
	echo 0 >$T/events/timer/enable
	flat=$(tr -d ' \n' </tmp/fio.json | grep -o '"write":{.*')
	iops=$(echo "$flat" | grep -o '"iops":[0-9.]*' | head -n1 | cut -d: -f2)
	pct() { echo "$flat" | grep -o '"clat_ns":{[^}]*"percentile":{[^}]*}' |
		grep -oE "\"$1\\.0+\":[0-9]+" | cut -d: -f2; }
	lat=$(awk '
	function fld(n,   i) { for (i = 1; i <= NF; i++) if (index($i, n "=") == 1) return substr($i, length(n) + 2) }
	/hrtimer_start:/ && /null_cmd_timer/ { ex[fld("hrtimer")] = fld("expires"); next }
	/hrtimer_expire_entry:/ && /null_cmd_timer/ {
		h = fld("hrtimer"); if (!(h in ex)) next
		late = (fld("now") - ex[h]) / 1000; n++; delete ex[h]
		if (late > 200) a++
		if (late > 1000) b++
	}
	END { if (n) printf "%d timers, %.1f %% over 200 us late, %.1f %% over 1 ms", n, 100 * a / n, 100 * b / n; else printf "no null_blk timers" }' $T/trace)
	printf "timers: %-3s at %s: %.0f IOPS, p50 %d us, p99 %d us; %s\n" \
		"$pol" "$QD" "${iops:-0}" $(($(pct 50) / 1000)) $(($(pct 99) / 1000)) "$lat"
	vraidctl delete "/dev/$name" --force >/dev/null || die "delete $name"
	[ "$pol" != wb ] || vraidctl controller journal none >/dev/null ||
		die "journal none"
done
