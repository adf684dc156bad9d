#!/bin/sh
# Every redundant level over mixed NVMe/SATA/SAS members: fio with crc32c
# verification for random 4 KiB and 8 KiB, sequential 256 KiB and 1 MiB,
# unaligned (512-byte aligned, random sizes across strips, up to 2 MiB)
# and 512-byte I/O, and on RAID1 that 1 MiB reads reach the members whole,
# not cut at strips; then four jobs writing overlapping regions at once,
# after which the parity (or the mirror copies) on the members must be
# consistent, as checked by an independent GF(2^8) model (pqref).
# Variable block sizes turn off fio's random map, so two writes in
# flight may overlap; no block device orders those (either may land
# last), so fio holds the second back (serialize_overlap) rather than
# verify the one it logged last.
# timeout: 900
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vraid.sh"
set -e

# large_reads VD MEMBER...: RAID1 is not cut at strips (md raid1 is not
# either): 1 MiB reads of VD reach its members as requests of at least
# twice the 32 KiB strip.
large_reads() {
	local vd=$1 before
	shift
	# (the initialisation's reads would count too)
	vraidctl wait "$vd" >/dev/null || fail "RAID1: initialisation of $vd failed"
	before=$(member_reqs r "$@")
	fio --filename="$vd" --direct=1 --ioengine=libaio --name=rd \
		--rw=read --bs=1M --size=$(mb 8) --offset=$(mb 32) \
		--iodepth=2 --output-format=terse >/dev/null ||
		fail "RAID1: 1 MiB reads failed"
	request_kb "RAID1: 1 MiB reads" 64 $before $(member_reqs r "$@")
}

for lvl in 1 10 5 6 50 60; do
	level_members $lvl
	zero_members 16 $LM_DEVS
	vd=$(vd_create $LM_OPTS --strip 32K $LM_DEVS)
	echo "--- RAID$lvl on $vd: $LM_DEVS"
	[ "$(vd_attr $vd state)" = optimal ] || fail "$vd not optimal"
	spans=1
	[ $lvl = 50 -o $lvl = 60 ] && spans=2
	fio --filename="$vd" --direct=1 --ioengine=libaio --verify=crc32c \
		--verify_fatal=1 --do_verify=1 --output-format=terse \
		--name=r4k --rw=randwrite --bs=4k --size=$(mb 4) --offset=0 --iodepth=16 \
		--name=r8k --rw=randwrite --bs=8k --size=$(mb 4) --offset=$(mb 4) --iodepth=16 \
		--name=s256k --rw=write --bs=256k --size=$(mb 8) --offset=$(mb 8) --iodepth=4 \
		--name=s1m --rw=write --bs=1M --size=$(mb 8) --offset=$(mb 16) --iodepth=4 \
		--name=unal --rw=randwrite --bsrange=512-96k --blockalign=512 \
			--serialize_overlap=1 \
			--size=$(mb 4) --offset=$(mb 24) --iodepth=8 \
		--name=b512 --rw=randwrite --bs=512 --size=$(mb 1) --offset=$(mb 28) --iodepth=8 \
		--name=big --rw=randwrite --bsrange=64k-2m --blockalign=512 \
			--serialize_overlap=1 \
			--size=$(mb 8) --offset=$(mb 32) --iodepth=4 \
		>/tmp/fio.out 2>&1 || { cat /tmp/fio.out; fail "RAID$lvl: fio verify failed"; }
	grep -q "verify:" /tmp/fio.out && { cat /tmp/fio.out; fail "RAID$lvl: verify errors"; }
	echo "RAID$lvl: verified 4k/8k/256k/1m/unaligned/512/large unaligned"
	if [ $lvl = 1 ]; then large_reads "$vd" $LM_DEVS; fi
	# Overlapping writers: no verification possible, parity must hold.
	fio --filename="$vd" --direct=1 --ioengine=libaio --rw=randwrite \
		--bsrange=512-1536k --blockalign=512 --size=$(mb 2) --offset=0 \
		--numjobs=4 --iodepth=8 --name=overlap --randrepeat=0 \
		--output-format=terse >/dev/null || fail "RAID$lvl: overlapping fio failed"
	vd_delete "$vd"
	# The first 64 rows: all written by the jobs above.
	pq_check $lvl 32768 $spans 64 $LM_DEVS
	echo "RAID$lvl: members consistent after overlapping writers"
done
echo "levels fio: ok"
