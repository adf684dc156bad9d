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

	md_oracle $lvl "$strip_k" "$msz" "$size" "$sum_vd" 12 "$tail_vd" $LM_DEVS
	echo "md oracle RAID$lvl strip ${strip_k}K: identical, md check clean"
}

oracle 1 64
oracle 10 16
oracle 5 64
oracle 6 32
oracle 50 16
oracle 60 64
