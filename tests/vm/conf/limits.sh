#!/bin/sh
# conf/limits VD LEVEL - queue limits a VD advertises.
#
#  - logical block size: the largest of the members' (admin-guide
#    "Levels"); physical block size at least that and at least the
#    members'; blockdev --getss/--getpbsz agree with sysfs;
#  - io_min / io_opt (blockdev --getiomin/--getioopt): the strip and the
#    full stripe (strip x data members) on every level with a strip, the
#    member's own on JBOD; io_opt equals vraidctl's full_stripe_bytes;
#  - alignment_offset 0; rotational 0 only if every member is
#    non-rotational; write_cache "write back" iff a member has one;
#  - mkfs.xfs -N reads the same stripe unit and width (sunit/swidth; on a
#    small VD it says it ignores them, which names them as well).
. "$(dirname "$0")/common.sh"
conf_begin limits "$1" "$2"
vd=$1
lvl=$2
conf_require_cmd blockdev

members=$(vd_members_of "$vd")
set -- $members
n=$#
first=$1
[ "$n" -gt 0 ] || fail "no members found"
strip=$(vd_attr "$vd" strip_size)
spans=$(vd_json "$vd" spans)
spans=${spans:-0}
[ "$spans" -gt 0 ] || spans=1

case $lvl in
jbod|1) dm=1 ;;
0)  dm=$n ;;
10) dm=$((n / 2)) ;;
5)  dm=$((n - 1)) ;;
6)  dm=$((n - 2)) ;;
50) dm=$((n - spans)) ;;
60) dm=$((n - 2 * spans)) ;;
*)  fail "unknown level $lvl" ;;
esac

lbs_max=0; pbs_max=0; rot=0; wc=0
for m in $members; do
	l=$(qattr "$m" logical_block_size); p=$(qattr "$m" physical_block_size)
	[ "$l" -gt "$lbs_max" ] && lbs_max=$l
	[ "$p" -gt "$pbs_max" ] && pbs_max=$p
	[ "$(qattr "$m" rotational)" = 1 ] && rot=1
	[ "$(qattr "$m" write_cache)" = "write back" ] && wc=1
done

lbs=$(qattr "$vd" logical_block_size)
pbs=$(qattr "$vd" physical_block_size)
assert_eq "$lbs" "$lbs_max" "logical_block_size (largest of the members')"
assert_eq "$(blockdev --getss "$vd")" "$lbs" "blockdev --getss"
assert_eq "$(blockdev --getpbsz "$vd")" "$pbs" "blockdev --getpbsz"
[ "$pbs" -ge "$lbs" ] && [ "$pbs" -ge "$pbs_max" ] ||
	fail "physical_block_size $pbs < logical $lbs or a member's $pbs_max"
assert_eq "$(vd_json "$vd" logical_block_size)" "$lbs" "vraidctl show logical_block_size"

iomin=$(blockdev --getiomin "$vd")
ioopt=$(blockdev --getioopt "$vd")
assert_eq "$iomin" "$(qattr "$vd" minimum_io_size)" "blockdev --getiomin vs sysfs"
assert_eq "$ioopt" "$(qattr "$vd" optimal_io_size)" "blockdev --getioopt vs sysfs"
if [ "$strip" -gt 0 ]; then
	assert_eq "$iomin" "$strip" "io_min (the strip)"
	assert_eq "$ioopt" $((strip * dm)) "io_opt (strip x $dm data members)"
	assert_eq "$(vd_json "$vd" full_stripe_bytes)" "$ioopt" "vraidctl full_stripe_bytes"
else
	assert_eq "$iomin" "$(qattr "$first" minimum_io_size)" "JBOD io_min (the member's)"
	assert_eq "$ioopt" "$(qattr "$first" optimal_io_size)" "JBOD io_opt (the member's)"
fi
assert_eq "$(cat /sys/block/${vd#/dev/}/alignment_offset)" 0 "alignment_offset"
assert_eq "$(qattr "$vd" rotational)" "$rot" "rotational"
if [ "$wc" = 1 ] && [ "$(vd_attr "$vd" disk_cache_policy)" != disabled ]; then
	assert_eq "$(qattr "$vd" write_cache)" "write back" "write_cache"
else
	assert_eq "$(qattr "$vd" write_cache)" "write through" "write_cache"
fi
conf_note "lbs $lbs pbs $pbs io_min $iomin io_opt $ioopt ($dm data members)"

if command -v mkfs.xfs >/dev/null 2>&1; then
	# mkfs.xfs -N: geometry only, nothing written. TEST_DIR, TEST_DEV and
	# QA_CHECK_FS (fstests' variables) lift the 300 MB minimum of newer
	# xfsprogs (the VM's VDs are small).
	out=$(TEST_DIR=/tmp TEST_DEV="$vd" QA_CHECK_FS=1 mkfs.xfs -N -f "$vd" 2>&1) ||
		fail "mkfs.xfs -N failed: $out"
	bsize=$(echo "$out" | sed -n 's/^data *= *bsize=\([0-9]*\).*/\1/p' | head -n 1)
	set -- $(echo "$out" | sed -n 's/^ *= *sunit=\([0-9]*\) *swidth=\([0-9]*\) blks.*/\1 \2/p' | head -n 1)
	su=$((${1:-0} * ${bsize:-4096})); sw=$((${2:-0} * ${bsize:-4096}))
	how=used
	if [ "$su" = 0 ]; then
		set -- $(echo "$out" | sed -n 's/.*ignoring data volume stripe unit \([0-9]*\) and stripe width \([0-9]*\).*/\1 \2/p')
		su=$((${1:-0} * 512)); sw=$((${2:-0} * 512))
		how="seen, ignored for a small volume"
	fi
	if [ "$iomin" -gt "$pbs" ] && [ "$ioopt" -gt "$iomin" ]; then
		assert_eq "$su" "$iomin" "mkfs.xfs stripe unit (bytes)"
		assert_eq "$sw" "$ioopt" "mkfs.xfs stripe width (bytes)"
		conf_note "mkfs.xfs: sunit $su swidth $sw bytes ($how)"
	else
		conf_note "mkfs.xfs: sunit $su swidth $sw bytes (io_min $iomin, io_opt $ioopt)"
	fi
fi
conf_ok
