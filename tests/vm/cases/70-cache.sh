#!/bin/sh
# io-policy=cached: reads fill the controller cache and the second read of
# the same data is answered from it (hits counted, no member reads);
# writes replace what it holds (fio verification of rewritten data read
# through the cache); reads racing writes never leave stale data in it;
# switching to direct empties it and stops hits; the cache stays within
# its size (cache_mib); every level takes it; policy kept across assembly.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vraid.sh"
set -e

# counters of a VD: hits misses bytes member-reads
cstat() {
	local n=${1#/dev/}
	echo "$(vd_attr $1 cache_read_hits) $(vd_attr $1 cache_read_misses)" \
		"$(vd_attr $1 cache_bytes)" \
		"$(awk '{ s += $5 } END { print s }' /sys/block/$n/vraid/members)"
}

# read_verify DEV NAME SEED SIZE: read back (through the VD, 64 KiB reads)
# what `write_seed DEV NAME SEED SIZE` wrote, checking every block.
read_verify() {
	fio --name="$2" --filename="$1" --rw=write --bs=64k --size="$4" \
		--randseed="$3" --direct=1 --ioengine=libaio --iodepth=4 \
		--verify=crc32c --verify_only=1 --verify_fatal=1 >/tmp/fio.rv 2>&1 ||
		{ cat /tmp/fio.rv; fail "$2: data read back differs"; }
}

# verify_job DEV NAME SEED SIZE BS [fio options]: read back what
# `fio_verify DEV NAME --rw=randwrite --bs=BS --size=SIZE --randseed=SEED
# [fio options]` wrote
verify_job() {
	local dev=$1 name=$2 seed=$3 size=$4 bs=$5
	shift 5
	fio --name="$name" --filename="$dev" --rw=randwrite --bs="$bs" \
		--size="$size" --randseed="$seed" --direct=1 --ioengine=libaio \
		--iodepth=8 --verify=crc32c --verify_only=1 --verify_fatal=1 \
		"$@" >/tmp/fio.vj 2>&1 ||
		{ cat /tmp/fio.vj; fail "$name: data read back differs"; }
}

write_seed() {
	fio_verify "$1" "$2" --rw=write --bs=64k --size="$4" --randseed="$3" \
		--iodepth=4
}

size=$(mb 16)
pages=$((${size%k} / 4))
mib=$(cat /sys/module/vraid/parameters/cache_mib)
echo "controller cache: $mib MiB"
[ "$mib" -ge 32 ] && [ "$mib" -le 1024 ] || fail "cache_mib $mib is not RAM/16 within 32..1024"

members=$(mixed_members 4)
vd=$(vd_create --level 5 --init fast $members)
n=${vd#/dev/}
settle
[ "$(vd_attr $vd io_policy)" = direct ] || fail "a new VD is not direct"
write_seed "$vd" a 1 "$size"

echo "--- direct: nothing cached"
read_verify "$vd" a 1 "$size"
set -- $(cstat $vd)
[ "$1 $2 $3" = "0 0 0" ] || fail "direct VD has cache counters $1 $2 $3"

echo "--- cached: the first read misses and fills, the second hits"
vraidctl set "$vd" io-policy=cached | grep -q "io cached" || fail "set io-policy=cached"
[ "$(vd_attr $vd io_policy)" = cached ] || fail "sysfs io_policy: $(vd_attr $vd io_policy)"
vraidctl show "$vd" | grep -q "I/O: Cached" || fail "show: $(vraidctl show $vd | grep I/O)"
kmsg | grep -q "$n: io policy cached" || fail "the kernel log does not say io policy cached"
set -- $(cstat $vd)
h0=$1 m0=$2 r0=$4
read_verify "$vd" a 1 "$size"
set -- $(cstat $vd)
echo "first read: hits $(($1 - h0)), misses $(($2 - m0)), cached $3 bytes"
[ $(($2 - m0)) = "$pages" ] || fail "first read: $(($2 - m0)) misses, want $pages"
[ $(($1 - h0)) = 0 ] || fail "first read: $(($1 - h0)) hits, want 0"
[ "$3" = $((pages * 4096)) ] || fail "cached $3 bytes, want $((pages * 4096))"
h0=$1 m0=$2 r0=$4
read_verify "$vd" a 1 "$size"
set -- $(cstat $vd)
echo "second read: hits $(($1 - h0)), misses $(($2 - m0)), member reads $(($4 - r0))"
[ $(($1 - h0)) = "$pages" ] || fail "second read: $(($1 - h0)) hits, want $pages"
[ $(($2 - m0)) = 0 ] || fail "second read: $(($2 - m0)) misses, want 0"
[ $(($4 - r0)) = 0 ] || fail "second read went to the members: $(($4 - r0)) reads"
vraidctl stats "$n" | grep -q "^Cache: *$1 read hits, $2 misses" ||
	fail "stats: $(vraidctl stats $n | grep Cache)"
vraidctl stats "$n" --json | grep -q "\"cache\":{\"read_hits\":$1,\"read_misses\":$2,\"cached_bytes\":$3,\"ra_hits\":0,\"ra_pages\":0,\"dirty_bytes\":0,\"write_pages\":0,\"destaged_pages\":0,\"journal_writes\":0,\"journal_pages\":0,\"journal_refs\":0,\"fill_pages\":0,\"dirty_waits\":0,\"journal_waits\":0}" ||
	fail "stats --json: $(vraidctl stats $n --json)"

echo "--- writes replace cached data"
write_seed "$vd" b 2 "$size"
set -- $(cstat $vd)
h0=$1
read_verify "$vd" b 2 "$size"
read_verify "$vd" b 2 "$size"
set -- $(cstat $vd)
[ $(($1 - h0)) -ge "$pages" ] || fail "rewritten data: $(($1 - h0)) hits, want $pages or more"
# 4 KiB writes into cached 64 KiB lines, partial pages too (512-byte writes)
fio_verify "$vd" c --rw=randwrite --bs=4k --size="$size" --randseed=3 --iodepth=8
verify_job "$vd" c 3 "$size" 4k
fio_verify "$vd" d --rw=randwrite --bs=512 --size=$(mb 1) --offset=$(mb 2) --randseed=4 --iodepth=8
verify_job "$vd" d 4 $(mb 1) 512 --offset=$(mb 2)

echo "--- reads racing writes leave nothing stale"
# Readers fill the cache with 64 KiB reads of the region the writer
# rewrites; afterwards every block reads back as last written (from the
# cache where it holds the block).
fio --filename="$vd" --direct=1 --ioengine=libaio --randrepeat=0 \
	--name=w --rw=randwrite --bs=4k --size=$(mb 4) --iodepth=16 --randseed=5 \
	--verify=crc32c --do_verify=0 \
	--name=r --rw=randread --bs=64k --size=$(mb 4) --iodepth=8 --time_based --runtime=6 \
	>/tmp/fio.race 2>&1 || { cat /tmp/fio.race; fail "racing fio failed"; }
verify_job "$vd" w 5 $(mb 4) 4k
verify_job "$vd" w 5 $(mb 4) 4k
set -- $(cstat $vd)
echo "after the race: hits $1, misses $2, cached $3 bytes"

echo "--- direct again: the cache is emptied, reads do not use it"
vraidctl set "$vd" io-policy=direct >/dev/null
set -- $(cstat $vd)
[ "$3" = 0 ] || fail "direct VD still holds $3 bytes"
h0=$1 m0=$2
verify_job "$vd" w 5 $(mb 4) 4k
set -- $(cstat $vd)
[ "$1 $2" = "$h0 $m0" ] || fail "direct reads counted: hits $h0 -> $1, misses $m0 -> $2"

echo "--- the cache stays within cache_mib"
vraidctl set "$vd" io-policy=cached >/dev/null
vdbytes=$(blockdev --getsize64 "$vd")
dd if="$vd" of=/dev/null bs=64k iflag=direct 2>/dev/null || fail "reading all of $vd failed"
set -- $(cstat $vd)
echo "read all $vdbytes bytes: cached $3 bytes of $((mib * 1048576))"
[ "$3" -le $((mib * 1048576)) ] || fail "cache holds $3 bytes, more than $mib MiB"
[ "$3" -gt 0 ] || fail "nothing cached after reading the VD"

echo "--- kept across stop and assemble"
vraidctl stop "$vd" >/dev/null
out=$(vraidctl assemble $members) || fail "assemble: $out"
vd=/dev/$(echo "$out" | cut -d: -f1)
[ "$(vd_attr $vd io_policy)" = cached ] || fail "io policy after assembly: $(vd_attr $vd io_policy)"
verify_job "$vd" w 5 $(mb 4) 4k
verify_job "$vd" w 5 $(mb 4) 4k
set -- $(cstat $vd)
wpages=$(($(mb 4 | tr -d k) / 4))
[ "$1" -ge "$wpages" ] || fail "after assembly: $1 hits, want $wpages or more"
vd_delete "$vd"

echo "--- every level"
for lv in jbod 0 1 10 6 50; do
	small_level $lv
	vd=$(vd_create $LM_OPTS --io-policy cached $LM_DEVS)
	settle
	[ "$(vd_attr $vd io_policy)" = cached ] || fail "RAID$lv: created with io $(vd_attr $vd io_policy)"
	write_seed "$vd" e 6 $(mb 2)
	read_verify "$vd" e 6 $(mb 2)
	fio_verify "$vd" f --rw=randwrite --bs=4k --size=$(mb 2) --randseed=7 --iodepth=8
	verify_job "$vd" f 7 $(mb 2) 4k
	set -- $(cstat $vd)
	echo "RAID$lv: hits $1, misses $2, cached $3 bytes"
	[ "$1" -gt 0 ] && [ "$2" -gt 0 ] || fail "RAID$lv: hits $1 misses $2"
	vd_delete "$vd"
done

echo "--- cache_mib: refused when out of bounds, a bound under eviction"
rmmod vraid || fail "rmmod vraid with no VD"
for bad in 8 1000000; do
	if insmod "$VRAID_KO" cache_mib=$bad 2>/dev/null; then
		fail "insmod cache_mib=$bad was taken"
	fi
	kmsg | grep -q "vraid: cache_mib=$bad refused: cache size" ||
		fail "no reason in the kernel log for cache_mib=$bad"
done
insmod "$VRAID_KO" cache_mib=16 ${VRAID_MODULE_ARGS:-} || fail "insmod cache_mib=16"
[ "$(cat /sys/module/vraid/parameters/cache_mib)" = 16 ] || fail "cache_mib is not 16"
vd=$(vd_create --level 10 --strip 64K --init fast --io-policy cached $(mixed_members 4))
fio --name=all --filename="$vd" --rw=randread --bs=64k --size=$(mb 64) --direct=1 \
	--ioengine=libaio --iodepth=8 --numjobs=2 --time_based --runtime=5 >/dev/null ||
	fail "random reads over 64 MiB failed"
set -- $(cstat $vd)
echo "16 MiB cache, random reads over 64 MiB: hits $1, misses $2, cached $3 bytes"
[ "$3" -le $((16 * 1048576)) ] || fail "cache holds $3 bytes, more than 16 MiB"
[ "$3" -ge $((8 * 1048576)) ] || fail "cache holds only $3 bytes after evictions"
[ "$1" -gt 0 ] || fail "no hits at all"
vd_delete "$vd"
rmmod vraid || fail "rmmod vraid"
insmod "$VRAID_KO" ${VRAID_MODULE_ARGS:-} || fail "insmod $VRAID_KO"
echo "cache: ok"
