#!/bin/sh
# RAID0 over mixed NVMe/SATA/SAS members, several strip sizes and member
# counts: fio writes with crc32c verification (4 KiB random, 1 MiB
# sequential, I/O of random size and 512-byte alignment that straddles
# strips, 512-byte I/O), and the queue limits the VD advertises; 1 MiB
# writes reach the members as requests larger than a 64 KiB strip.
# timeout: 600
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vraid.sh"
set -e

check_limits() {
	local vd=${1#/dev/} strip=$2 n=$3
	local q=/sys/block/$vd/queue
	[ "$(cat $q/minimum_io_size)" = "$strip" ] ||
		fail "$vd: minimum_io_size $(cat $q/minimum_io_size), want $strip"
	[ "$(cat $q/optimal_io_size)" = "$((strip * n))" ] ||
		fail "$vd: optimal_io_size $(cat $q/optimal_io_size), want $((strip * n))"
	[ "$(cat $q/chunk_sectors)" = "$((strip / 512))" ] ||
		fail "$vd: chunk_sectors $(cat $q/chunk_sectors), want $((strip / 512))"
	[ "$(vd_attr $1 level)" = RAID0 ] || fail "$vd: level $(vd_attr $1 level)"
	[ "$(vd_attr $1 state)" = optimal ] || fail "$vd: state $(vd_attr $1 state)"
	[ "$(vd_attr $1 strip_size)" = "$strip" ] || fail "$vd: strip_size"
	[ "$(vd_attr $1 nr_members)" = "$n" ] || fail "$vd: nr_members"
}

run_config() {
	local n=$1 strip=$2 members vd
	members=$(mixed_members "$n")
	echo "--- RAID0, $n members ($members), strip $strip"
	vd=$(vd_create --level 0 --strip "$strip" $members)
	strip_bytes=$(vd_attr $vd strip_size)
	check_limits "$vd" "$strip_bytes" "$n"
	# Capacity: n x (smallest data area rounded down to the strip).
	local msz=$(vd_attr $vd member_size) size
	size=$(blockdev --getsz "$vd")
	[ "$size" = "$((msz * n))" ] || fail "$vd: size $size, want $((msz * n))"

	fio_verify "$vd" rand4k --rw=randwrite --bs=4k --size=$(mb 16) --iodepth=16
	fio_verify "$vd" seq1m --rw=write --bs=1M --size=$(mb 64) --iodepth=4
	if [ "$strip" = 64K ]; then
		# A row's strips on one member merge there (as with md):
		# larger requests than the strip.
		local before
		before=$(member_reqs w $members)
		fio --filename="$vd" --direct=1 --ioengine=libaio --name=w1m \
			--rw=write --bs=1M --size=$(mb 16) --iodepth=2 \
			--output-format=terse >/dev/null ||
			fail "RAID0: 1 MiB writes failed"
		request_kb "RAID0: 1 MiB writes" 68 $before $(member_reqs w $members)
	fi
	# (overlapping writes in flight land in any order: serialize_overlap)
	fio_verify "$vd" straddle --rw=randwrite --bsrange=512-192k \
		--blockalign=512 --serialize_overlap=1 --size=$(mb 16) --iodepth=8 \
		--offset=$(mb 1)
	fio_verify "$vd" io512 --rw=randwrite --bs=512 --size=$(mb 2) --iodepth=8
	# The last strip of the VD is reachable and correct.
	fio_verify "$vd" tail --rw=write --bs=4k --offset=$(((size - 2048) * 512)) \
		--size=1M --iodepth=1
	vd_delete "$vd"
}

run_config 2 4K
run_config 3 64K
run_config 5 16K
run_config 8 1M
[ "$(vd_count)" = 0 ] || fail "VDs left behind"
echo "raid0 fio: ok"
