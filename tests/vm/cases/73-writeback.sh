#!/bin/sh
# write-policy=awb (always write-back, a volatile controller cache): writes
# of whole pages complete from the cache and reach the members later; the
# VD says it has a volatile cache; every write reads back verified (fio
# crc32c) whatever its size and alignment, with FUA, with reads mixed in
# and with large writes over dirty data; a flush leaves nothing dirty;
# dirty data stays under its bound (half the cache) under a write load
# four times the cache, whose writers wait for destage at the bound
# (cache_dirty_waits); policies switched back and forth under a verify
# load; stop writes everything out (verified after assembly); parity is
# consistent after destage (check: 0 mismatches); every level.
# timeout: 600
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vraid.sh"
set -e

# vd_fsync VD: fsync the VD (a flush; `sync` sends none to a raw device)
vd_fsync() {
	dd if=/dev/zero of="$1" bs=4k count=0 conv=notrunc,fsync 2>/dev/null ||
		fail "fsync of $1 failed"
}

check_count() { # VD: run a check, print its mismatch count
	vraidctl check "$1" >/dev/null || fail "check $1 did not start"
	vraidctl wait "$1" >/dev/null || fail "check $1 failed"
	vd_attr $1 mismatch_cnt
}

# zeroed members: --init fast is consistent, and check counts what
# destage left
members=$(mixed_members 4)
zero_members 0 $members
vd=$(vd_create --level 5 --init fast --write-policy awb $members)
n=${vd#/dev/}
settle
[ "$(vd_attr $vd write_policy)" = always-write-back ] || fail "write policy $(vd_attr $vd write_policy)"
[ "$(cat /sys/block/$n/queue/write_cache)" = "write back" ] ||
	fail "awb VD says $(cat /sys/block/$n/queue/write_cache)"
kmsg | grep -q "$n: write policy always-write-back: a volatile cache" ||
	fail "the kernel log does not warn of the volatile cache"

echo "--- 4 KiB writes go into the cache"
fio_verify "$vd" a --rw=randwrite --bs=4k --size=$(mb 16) --randseed=1 --iodepth=8
w=$(vd_attr $vd cache_write_pages)
echo "written into the cache: $w pages, destaged $(vd_attr $vd cache_destaged), dirty $(vd_attr $vd cache_dirty_bytes) bytes"
[ "$w" -gt 0 ] || fail "no write went into the cache"
f0=$(vd_attr $vd flushes)
vd_fsync "$vd"
[ "$(vd_attr $vd flushes)" -gt "$f0" ] || fail "fsync sent no flush"
[ "$(vd_attr $vd cache_dirty_bytes)" = 0 ] || fail "dirty after a flush: $(vd_attr $vd cache_dirty_bytes)"
[ "$(vd_attr $vd cache_destaged)" -gt 0 ] || fail "nothing destaged"
verify_data "$vd" "after the flush"

echo "--- every other kind of write over dirty data"
fio_verify "$vd" b --rw=randwrite --bs=512 --size=$(mb 2) --randseed=2 --iodepth=8
fio_verify "$vd" c --rw=randwrite --bs=4k --size=$(mb 4) --randseed=3 --iodepth=8 --sync=1
fio_verify "$vd" d --rw=randrw --bs=4k --size=$(mb 4) --randseed=4 --iodepth=8
fio_verify "$vd" e --rw=randwrite --bs=4k --size=$(mb 8) --randseed=5 --iodepth=8 --do_verify=0
fio_verify "$vd" f --rw=write --bs=1m --size=$(mb 8) --randseed=6 --iodepth=2
fio_verify "$vd" g --rw=randwrite --bs=12k --size=$(mb 4) --randseed=7 --iodepth=8
vd_fsync "$vd"
[ "$(check_count $vd)" = 0 ] || fail "parity mismatches after destage"

echo "--- dirty data stays under half of a 16 MiB cache"
vraidctl controller set cache-size=16M >/dev/null || fail "cache-size=16M"
dw0=$(vd_attr $vd cache_dirty_waits)
fio --name=load --filename="$vd" --rw=randwrite --bs=4k --size=$(mb 64) --direct=1 \
	--ioengine=libaio --iodepth=16 --time_based --runtime=6 >/dev/null 2>&1 &
pid=$!
max=0
while kill -0 $pid 2>/dev/null; do
	d=$(vd_attr $vd cache_dirty_bytes)
	[ "$d" -gt "$max" ] && max=$d
	sleep 0.1
done
wait $pid || fail "the write load failed"
dw=$(($(vd_attr $vd cache_dirty_waits) - dw0))
echo "most dirty seen: $max bytes; writes that waited for destage: $dw"
[ "$max" -le $((8 * 1048576 + 1048576)) ] || fail "dirty reached $max bytes, bound 8 MiB"
[ "$max" -gt 0 ] || fail "the load dirtied nothing"
# the load outruns the destage: writers were held at the bound, and said so
[ "$dw" -gt 0 ] || fail "no write waited for destage (dirty reached $max bytes)"
vraidctl stats "$vd" | grep -q "^  Waits: *[1-9][0-9]* writes waited for destage (dirty bound)" ||
	fail "stats does not say that writes waited for destage: $(vraidctl stats "$vd" | sed -n '/^Cache:/,/^$/p')"
vraidctl controller set cache-size=default >/dev/null

echo "--- policies switched under a verify load"
fio_verify "$vd" h --rw=randwrite --bs=4k --size=$(mb 8) --randseed=8 --iodepth=8 \
	--verify_backlog=64 --loops=3 &
switch_under_load "$vd" $! write-policy=wt io-policy=cached write-policy=awb \
	io-policy=direct
wait $! || fail "fio under policy switches"
echo "$SWITCHES switches"
vraidctl set "$vd" write-policy=wt >/dev/null
[ "$(vd_attr $vd cache_dirty_bytes)" = 0 ] || fail "write-through still holds dirty data"
vraidctl set "$vd" write-policy=awb >/dev/null

echo "--- stop writes the cache out"
fio_verify "$vd" data --rw=randwrite --bs=4k --size=$(mb 16) --iodepth=8
[ "$(vd_attr $vd cache_dirty_bytes)" -gt 0 ] || echo "(nothing dirty left to stop with)"
vraidctl stop "$vd" >/dev/null || fail "stop"
out=$(vraidctl assemble $members) || fail "assemble: $out"
vd=/dev/$(echo "$out" | cut -d: -f1)
[ "$(vd_attr $vd write_policy)" = always-write-back ] || fail "policy after assembly"
verify_data "$vd" "after stop and assemble"
vd_delete "$vd"

echo "--- every level"
for lv in 0 1 10 6; do
	small_level $lv
	zero_members 0 $LM_DEVS
	vd=$(vd_create $LM_OPTS --write-policy awb $LM_DEVS)
	settle
	fio_verify "$vd" i --rw=randwrite --bs=4k --size=$(mb 4) --randseed=9 --iodepth=8
	fio_verify "$vd" j --rw=randwrite --bs=512 --size=$(mb 1) --randseed=10 --iodepth=8
	fio_verify "$vd" k --rw=randrw --bs=8k --size=$(mb 4) --randseed=11 --iodepth=8
	vd_fsync "$vd"
	[ "$(vd_attr $vd cache_dirty_bytes)" = 0 ] || fail "RAID$lv: dirty after fsync"
	case $lv in 0) ;; *) [ "$(check_count $vd)" = 0 ] || fail "RAID$lv: mismatches" ;; esac
	echo "RAID$lv: $(vd_attr $vd cache_write_pages) pages into the cache, $(vd_attr $vd cache_destaged) destaged"
	vd_delete "$vd"
done
echo "write-back: ok"
