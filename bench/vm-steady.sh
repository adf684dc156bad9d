#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench/vm-steady.sh - runs inside the VM (bench/steady starts it, one
# boot per write policy): 4 KiB random writes evenly over a RAID5 of four
# null_blk members, first RAMP seconds unmeasured (the cache fills up to
# its dirty bound), then RUNTIME seconds measured.  Prints one line
# "@@STEADY policy=P iops=N dirty_mib=N fill_per_s=N reads_per_s=N
# read_kib=N writes_per_s=N write_kib=N rotational=N" (the members'
# requests per second and their average size, from /sys/block/*/stat).
#
#   STE_POLICY      wt | wb (with a null_blk journal) | awb | md (md
#                   raid5 over the same members, as bench/run's matrix
#                   builds it: 64 KiB chunk, stripe_cache_size 4096) |
#                   md-wb (the same with a write journal on the null_blk
#                   journal device, journal_mode write-back)
#   STE_MODEL       the members' model: hdd (default) | ssd | nvme | ram
#   STE_JOURNAL_MB  the journal's size (default 256; model nvme)
#   STE_QD          outstanding I/O (default 16)
#   STE_RAMP        unmeasured seconds (default 20)
#   STE_RUNTIME     measured seconds (default 20)
#   STE_ROT         0 or 1: the VD's queue/rotational (default: as vraid
#                   set it from the members)
#   STE_CACHE_MB    the controller cache's size (default 120: dirty data
#                   up to 60 MiB, as in a VM of 2 GiB)
set -uo pipefail

POLICY=${STE_POLICY:-wt}
MODEL=${STE_MODEL:-hdd}
QD=${STE_QD:-16}
RAMP=${STE_RAMP:-20}
RUNTIME=${STE_RUNTIME:-20}
# shellcheck disable=SC2034 # nullb.sh uses it
NCPU=$(nproc)

die() {
	echo "steady: $*" >&2
	exit 1
}
# nullb_load; nullb_make INDEX MIB [MODEL] (sets NULLB)
# shellcheck disable=SC1091 # /vraid/tests/vm/nullb.sh: tests/vm/nullb.sh
. /vraid/tests/vm/nullb.sh
nullb_load
members=()
for i in 0 1 2 3; do
	nullb_make $i 176 "$MODEL"
	members+=("$NULLB")
done
case $POLICY in wb | md-wb) nullb_make 4 "${STE_JOURNAL_MB:-256}" nvme ;; esac
case $POLICY in
md | md-wb)
	# the VD's size (504 MiB: 168 MiB a member after md's 8 MiB offset)
	jopt=(--bitmap=none)
	[ "$POLICY" = md-wb ] && jopt=(--write-journal="$NULLB")
	mdadm --create /dev/md0 --run --assume-clean --metadata=1.2 --data-offset=8M \
		--size=172032 "${jopt[@]}" --level=5 --layout=left-symmetric --chunk=64 \
		--raid-devices=4 "${members[@]}" </dev/null >/tmp/mdadm.out 2>&1 ||
		die "mdadm --create: $(cat /tmp/mdadm.out)"
	vd=/dev/md0
	sys=/sys/block/md0
	echo 4096 >"$sys/md/stripe_cache_size" || die "stripe_cache_size"
	if [ "$POLICY" = md-wb ]; then
		echo write-back >"$sys/md/journal_mode" 2>/dev/null
		grep -q '\[write-back\]' "$sys/md/journal_mode" ||
			die "md journal_mode write-back: $(cat "$sys/md/journal_mode" 2>&1)"
	fi
	;;
*)
	vraidctl controller set cache-size="${STE_CACHE_MB:-120}M" >/dev/null ||
		die "controller set cache-size=${STE_CACHE_MB:-120}M"
	if [ "$POLICY" = wb ]; then
		vraidctl controller journal "$NULLB" --force >/dev/null || die "controller journal $NULLB"
	fi
	vd=$(vraidctl create --force --level 5 --init fast --write-policy "$POLICY" "${members[@]}" 2>/dev/null) ||
		die "create"
	vd=/dev/$vd
	[ -b "$vd" ] || die "$vd did not appear"
	sys=/sys/block/${vd#/dev/}
	;;
esac
[ -z "${STE_ROT:-}" ] || echo "$STE_ROT" >"$sys/queue/rotational" || die "queue/rotational"
if [ "$POLICY" = wb ]; then
	vraidctl show "$vd" --json | grep -o '"write_in_effect":{[^}]*}' |
		grep -q '"mode":"write_back"' ||
		die "wb is not in effect: $(vraidctl show "$vd" --json)"
fi

# the members' completed reads, sectors read, writes, sectors written
mstat() {
	local m
	for m in "${members[@]}"; do cat "/sys/block/${m#/dev/}/stat"; done |
		awk '{ r += $1; rs += $3; w += $5; ws += $7 } END { print r, rs, w, ws }'
}
cell() {
	fio --name=steady --filename="$vd" --rw=randwrite --bs=4k --direct=1 \
		--ioengine=libaio --iodepth="$QD" --time_based --runtime="$1" \
		--norandommap --randrepeat=0 --output-format=terse --terse-version=3 "${@:2}"
}
# the VD's counter NAME, or 0 (md has none)
vstat() {
	if [ -r "$sys/vraid/$1" ]; then cat "$sys/vraid/$1"; else echo 0; fi
}
cell "$RAMP" >/dev/null || die "fio (ramp)"
f0=$(vstat cache_fill_pages)
s0=$(mstat)
out=$(cell "$RUNTIME") || die "fio"
s1=$(mstat)
f1=$(vstat cache_fill_pages)
iops=$(echo "$out" | awk -F';' '{ printf "%.0f", $49 }')
dirty=$(vstat cache_dirty_bytes)
echo "$s0 $s1" | awk -v p="$POLICY" -v i="$iops" -v d="$dirty" -v t="$RUNTIME" \
	-v f=$((f1 - f0)) -v rot="$(cat "$sys/queue/rotational")" '
	{ r = $5 - $1; w = $7 - $3
	  printf "@@STEADY policy=%s iops=%s dirty_mib=%.1f fill_per_s=%.0f reads_per_s=%.0f read_kib=%.1f writes_per_s=%.0f write_kib=%.1f rotational=%s\n",
		p, i, d / 1048576, f / t, r / t, r ? ($6 - $2) / 2 / r : 0,
		w / t, w ? ($8 - $4) / 2 / w : 0, rot }'
