#!/bin/sh
# The md oracle for every redundant level: data written through vraid
# reads back identically through stock md created over the same members
# (`mdadm --create --assume-clean --metadata=1.2 --data-offset=8M` with the
# same level, layout, chunk and member order; RAID50/60 as md raid0 over
# per-span md arrays), and md's own `check` finds zero mismatches.
# vm: --size 64M
# timeout: 900
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vraid.sh"
set -e

md_wait_idle() {
	local a=$1 i=0
	while [ "$(cat /sys/block/$a/md/sync_action)" != idle ]; do
		sleep 0.5
		i=$((i + 1))
		[ $i -lt 600 ] || fail "$a: md check did not finish"
	done
}

md_check() {
	local a=${1#/dev/}
	echo check >/sys/block/$a/md/sync_action
	sleep 0.5
	md_wait_idle $a
	[ "$(cat /sys/block/$a/md/mismatch_cnt)" = 0 ] ||
		fail "$a: md check found $(cat /sys/block/$a/md/mismatch_cnt) mismatched sectors"
}

md_create() { # DEV LEVEL CHUNK_K SIZE_K DEVS...
	local dev=$1 lvl=$2 chunk=$3 size=$4 layout=""
	shift 4
	case $lvl in
	5|6) layout="--layout=left-symmetric --chunk=$chunk" ;;
	10) layout="--layout=n2 --chunk=$chunk" ;;
	esac
	mdadm --create "$dev" --run --assume-clean --metadata=1.2 \
		--data-offset=8M --size="$size" --bitmap=none --level="$lvl" \
		$layout --raid-devices=$# "$@" </dev/null >/tmp/mdadm.out 2>&1 ||
		{ cat /tmp/mdadm.out; fail "mdadm --create $dev failed"; }
}

oracle() {
	local lvl=$1 strip_k=$2 vd msz size sum_vd sum_md tail_vd tail_md top
	level_members $lvl
	zero_members 0 $LM_DEVS
	vd=$(vd_create $LM_OPTS --strip "${strip_k}K" $LM_DEVS)
	msz=$(vd_attr $vd member_size)
	size=$(blockdev --getsz "$vd")
	dd if=/dev/urandom of=/tmp/pattern bs=1M count=12 2>/dev/null
	dd if=/tmp/pattern of="$vd" bs=1M oflag=direct 2>/dev/null
	dd if=/tmp/pattern of="$vd" bs=512 count=2048 seek=$((size - 2048)) \
		oflag=direct 2>/dev/null
	sum_vd=$(sum_mib "$vd" 12)
	tail_vd=$(sum_sectors "$vd" $((size - 2048)) 2048)
	vd_delete "$vd"

	case $lvl in
	50|60)
		set -- $LM_DEVS
		w=$(($# / 2))
		md_create /dev/md10 $((lvl / 10)) "$strip_k" $((msz / 2)) $(echo $LM_DEVS | cut -d' ' -f1-$w)
		md_create /dev/md11 $((lvl / 10)) "$strip_k" $((msz / 2)) $(echo $LM_DEVS | cut -d' ' -f$((w + 1))-)
		mdadm --build /dev/md0 --level=0 --chunk="$strip_k" --raid-devices=2 \
			/dev/md10 /dev/md11 </dev/null || fail "mdadm --build over spans"
		;;
	*)
		md_create /dev/md0 $lvl "$strip_k" $((msz / 2)) $LM_DEVS
		;;
	esac
	[ "$(blockdev --getsz /dev/md0)" = "$size" ] ||
		fail "RAID$lvl: md size $(blockdev --getsz /dev/md0) != VD size $size"
	sum_md=$(sum_mib /dev/md0 12)
	tail_md=$(sum_sectors /dev/md0 $((size - 2048)) 2048)
	[ "$sum_vd" = "$sum_md" ] || fail "RAID$lvl: md reads other data at the start"
	[ "$tail_vd" = "$tail_md" ] || fail "RAID$lvl: md reads other data at the end"
	case $lvl in
	50|60)
		mdadm --stop /dev/md0 >/dev/null 2>&1
		md_check /dev/md10
		md_check /dev/md11
		mdadm --stop /dev/md10 /dev/md11 >/dev/null 2>&1
		;;
	*)
		md_check /dev/md0
		mdadm --stop /dev/md0 >/dev/null 2>&1
		;;
	esac
	echo "md oracle RAID$lvl strip ${strip_k}K: identical, md check clean"
}

oracle 1 64
oracle 10 16
oracle 5 64
oracle 6 32
oracle 50 16
oracle 60 64
