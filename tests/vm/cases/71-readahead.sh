#!/bin/sh
# read-policy=ra: a sequential read stream is read ahead into the
# controller cache and the reader's next reads are answered from it
# (read-ahead hits, content checked against the same data read without
# read-ahead); nora and random reads read nothing ahead; data read ahead
# never goes stale (a writer ahead of a verifying reader, fio crc32c);
# direct keeps only what was read ahead, cached also what was read;
# switching read and io policies back and forth under a fio verify load
# loses nothing; the policy is kept across assembly; every level reads
# ahead.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vraid.sh"
set -e

# counters of a VD: hits misses ra-hits ra-pages bytes member-reads
rstat() {
	local n=${1#/dev/}
	echo "$(vd_attr $1 cache_read_hits) $(vd_attr $1 cache_read_misses)" \
		"$(vd_attr $1 cache_ra_hits) $(vd_attr $1 cache_ra_pages)" \
		"$(vd_attr $1 cache_bytes)" \
		"$(awk '{ s += $5 } END { print s }' /sys/block/$n/vraid/members)"
}

# seqsum DEV BS KIB: checksum of the first KIB KiB, read in BS KiB reads,
# one at a time (the way a sequential reader without a page cache reads)
seqsum() {
	dd if="$1" bs="$2"k count=$(($3 / $2)) iflag=direct 2>/dev/null |
		md5sum | cut -d' ' -f1
}

size=$(mb 16)
kib=${size%k}
pages=$((kib / 4))
members=$(mixed_members 4)
vd=$(vd_create --level 5 --init fast $members)
n=${vd#/dev/}
settle
[ "$(vd_attr $vd read_policy)" = no-read-ahead ] || fail "a new VD reads ahead"
fio_verify "$vd" a --rw=write --bs=64k --size="$size" --randseed=1 --iodepth=4

echo "--- nora: nothing read ahead"
ref=$(seqsum "$vd" 64 "$kib")
sum=$(seqsum "$vd" 4 "$kib")
[ "$sum" = "$ref" ] || fail "4 KiB reads and 64 KiB reads differ"
set -- $(rstat $vd)
[ "$1 $2 $3 $4 $5" = "0 0 0 0 0" ] || fail "nora, direct: cache counters $*"

echo "--- ra: a sequential 4 KiB reader hits what was read ahead"
vraidctl set "$vd" read-policy=ra | grep -q "read read-ahead" || fail "set read-policy=ra"
[ "$(vd_attr $vd read_policy)" = read-ahead ] || fail "sysfs read_policy: $(vd_attr $vd read_policy)"
vraidctl show "$vd" | grep -q "Read Ahead" || fail "show: $(vraidctl show $vd | grep -i read)"
kmsg | grep -q "$n: read policy read-ahead" || fail "the kernel log does not say read policy read-ahead"
set -- $(rstat $vd)
r0=$6
sum=$(seqsum "$vd" 4 "$kib")
[ "$sum" = "$ref" ] || fail "data read with read-ahead differs"
set -- $(rstat $vd)
echo "ra, direct: hits $1, misses $2, ra hits $3, read ahead $4 pages, held $5 bytes, member reads $(($6 - r0))"
[ "$4" -ge $((pages / 2)) ] || fail "read ahead only $4 pages of $pages"
[ "$3" -ge $((pages / 2)) ] || fail "only $3 read-ahead hits of $pages pages read"
[ "$1" = "$3" ] || fail "direct: $1 hits but $3 of them read ahead (direct keeps nothing else)"
[ $(($1 + $2)) = "$pages" ] || fail "hits $1 + misses $2 is not the $pages pages read"
[ $(($6 - r0)) -lt $((pages / 4)) ] || fail "$(($6 - r0)) member reads for $pages 4 KiB reads"
[ "$(awk '{ print $1 + $2 }' /sys/block/$n/inflight)" = 0 ] ||
	fail "I/O still counted in flight: $(cat /sys/block/$n/inflight)"
if vraidctl stats "$n" >/tmp/stats.out 2>&1; then
	grep -qi "read-ahead" /tmp/stats.out || fail "stats has no read-ahead counters: $(cat /tmp/stats.out)"
fi

echo "--- ra: random reads read nothing ahead"
set -- $(rstat $vd)
p0=$4
fio --name=rr --filename="$vd" --rw=randread --bs=4k --size="$size" --direct=1 \
	--ioengine=libaio --iodepth=4 --time_based --runtime=3 >/dev/null ||
	fail "random reads failed"
set -- $(rstat $vd)
[ "$4" = "$p0" ] || fail "random reads read $(($4 - p0)) pages ahead"

echo "--- ra: what was read ahead never goes stale"
# The writer rewrites sequentially with a new seed while fio verifies
# behind it, in order; the verifying reads are a stream, read ahead into
# blocks not yet rewritten. A read-ahead page not dropped by the write
# that follows it fails the verification.
set -- $(rstat $vd)
p0=$4 a0=$3
fio_verify "$vd" b --rw=write --bs=4k --size=$(mb 8) --randseed=2 --iodepth=4 \
	--verify_backlog=256
set -- $(rstat $vd)
echo "verify behind the writer: read ahead $(($4 - p0)) pages, $(($3 - a0)) ra hits"
[ "$4" -gt "$p0" ] || fail "the verifying reader was never read ahead for"

echo "--- ra with cached: reads are kept as well"
vraidctl set "$vd" io-policy=cached >/dev/null
dd if="$vd" of=/dev/null bs=64k count=1 skip=$((kib / 64 - 1)) iflag=direct 2>/dev/null
dd if="$vd" of=/dev/null bs=64k count=1 skip=$((kib / 64 - 1)) iflag=direct 2>/dev/null
set -- $(rstat $vd)
[ "$1" -gt "$3" ] || fail "cached: hits $1 are all read-ahead hits $3"

echo "--- policies switched back and forth under a verify load"
fio_verify "$vd" c --rw=write --bs=4k --size=$(mb 8) --randseed=3 --iodepth=4 \
	--verify_backlog=128 --loops=2 &
switch_under_load "$vd" $! read-policy=nora io-policy=direct read-policy=ra \
	io-policy=cached
wait $! || fail "fio under policy switches"
echo "$SWITCHES policy switches under load"
[ "$SWITCHES" -ge 4 ] || fail "only $SWITCHES switches happened during the load"
vraidctl set "$vd" read-policy=nora io-policy=direct >/dev/null
set -- $(rstat $vd)
[ "$5" = 0 ] || fail "nora and direct: the cache still holds $5 bytes"
fio_verify "$vd" a --rw=write --bs=64k --size="$size" --randseed=1 --iodepth=4
ref=$(seqsum "$vd" 64 "$kib")
vraidctl set "$vd" read-policy=ra >/dev/null

echo "--- kept across stop and assemble"
vraidctl stop "$vd" >/dev/null
out=$(vraidctl assemble $members) || fail "assemble: $out"
vd=/dev/$(echo "$out" | cut -d: -f1)
[ "$(vd_attr $vd read_policy)" = read-ahead ] || fail "read policy after assembly: $(vd_attr $vd read_policy)"
sum=$(seqsum "$vd" 4 "$kib")
[ "$sum" = "$ref" ] || fail "data read with read-ahead after assembly differs"
set -- $(rstat $vd)
[ "$3" -gt 0 ] || fail "no read-ahead hits after assembly"
vd_delete "$vd"

echo "--- every level"
for lv in jbod 0 1 10 6 50; do
	small_level $lv
	vd=$(vd_create $LM_OPTS --read-policy ra $LM_DEVS)
	settle
	[ "$(vd_attr $vd read_policy)" = read-ahead ] || fail "RAID$lv: created with read $(vd_attr $vd read_policy)"
	fio_verify "$vd" e --rw=write --bs=64k --size=$(mb 4) --randseed=6 --iodepth=4
	k=$(($(mb 4 | tr -d k)))
	a=$(seqsum "$vd" 4 "$k")
	set -- $(rstat $vd)
	echo "RAID$lv: ra hits $3, read ahead $4 pages"
	[ "$3" -gt 0 ] || fail "RAID$lv: no read-ahead hits"
	vraidctl set "$vd" read-policy=nora >/dev/null
	b=$(seqsum "$vd" 64 "$k")
	[ "$a" = "$b" ] || fail "RAID$lv: data read with read-ahead differs"
	vd_delete "$vd"
done
echo "read-ahead: ok"
