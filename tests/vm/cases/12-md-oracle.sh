#!/bin/sh
# The md oracle: data written through vraid RAID0 reads back identically
# through stock md (`mdadm --build --level=0`) over the members' data areas
# (dm-linear at the data offset); JBOD equals the member's data area.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vraid.sh"
set -e

oracle_raid0() {
	local n=$1 strip_k=$2 members vd msz size i maps sum_vd sum_md sum_tail_vd sum_tail_md
	members=$(mixed_members "$n")
	echo "--- md oracle: RAID0, $n members, strip ${strip_k}K"
	vd=$(vd_create --level 0 --strip "${strip_k}K" $members)
	msz=$(vd_attr $vd member_size)
	size=$(blockdev --getsz "$vd")
	# Random data over the first 16 MiB and the last 1 MiB.
	dd if=/dev/urandom of=/tmp/pattern bs=1M count=16 2>/dev/null
	dd if=/tmp/pattern of="$vd" bs=1M oflag=direct 2>/dev/null
	dd if=/tmp/pattern of="$vd" bs=512 count=2048 seek=$((size - 2048)) \
		oflag=direct 2>/dev/null
	sum_vd=$(sum_mib "$vd" 16)
	sum_tail_vd=$(sum_sectors "$vd" $((size - 2048)) 2048)
	[ "$sum_vd" = "$(sha256sum </tmp/pattern | cut -d' ' -f1)" ] ||
		fail "VD does not read back what was written"
	vd_delete "$vd"

	maps=""
	i=0
	for m in $members; do
		data_area "oracle$i" "$m" "$msz"
		maps="$maps /dev/mapper/oracle$i"
		i=$((i + 1))
	done
	mdadm --build /dev/md0 --level=0 --chunk="$strip_k" \
		--raid-devices="$n" $maps </dev/null || fail "mdadm --build failed"
	[ "$(blockdev --getsz /dev/md0)" = "$size" ] ||
		fail "md size $(blockdev --getsz /dev/md0) != VD size $size"
	sum_md=$(sum_mib /dev/md0 16)
	sum_tail_md=$(sum_sectors /dev/md0 $((size - 2048)) 2048)
	mdadm --stop /dev/md0 >/dev/null 2>&1
	i=0
	for m in $members; do
		dmsetup remove "oracle$i"
		i=$((i + 1))
	done
	[ "$sum_vd" = "$sum_md" ] || fail "md reads different data at the start"
	[ "$sum_tail_vd" = "$sum_tail_md" ] || fail "md reads different data at the end"
	echo "md oracle RAID0 $n x ${strip_k}K: identical"
}

oracle_raid0 4 64
oracle_raid0 3 4
oracle_raid0 8 1024

# JBOD: the VD is the member's data area, byte for byte.
set -- $NVME_DEVS
m=$1
vd=$(vd_create --level jbod "$m")
msz=$(blockdev --getsz "$m")
want=$(( (msz - DATA_OFFSET) / 8 * 8 ))
[ "$(blockdev --getsz "$vd")" = "$want" ] || fail "JBOD size $(blockdev --getsz "$vd"), want $want"
dd if=/dev/urandom of="$vd" bs=1M count=8 oflag=direct 2>/dev/null
s1=$(sum_mib "$vd" 8)
vd_delete "$vd"
s2=$(sum_sectors "$m" "$DATA_OFFSET" 16384)
[ "$s1" = "$s2" ] || fail "JBOD data differs from the member's data area"
echo "JBOD passthrough: identical"
