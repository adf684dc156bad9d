#!/bin/sh
# vraidctl stats: the VD's counters move exactly as fio's I/O (bytes; I/Os
# as split at strip boundaries; with write-back not the destage's too),
# flushes count when the VD has a write cache, every
# member of a RAID5 is written and its counts match sysfs; --watch reports
# rates while fio runs and zero when idle; --json is one line per report;
# --prometheus says the bytes --json says, the state, the UUID and every
# member, each sample in a declared family, and --output writes it whole;
# a VD that is not there and bad arguments get clear errors.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vraid.sh"
set -e

# json_num KEY: the first "KEY":NUMBER of the JSON on stdin
json_num() {
	grep -o "\"$1\":[0-9.]*" | head -n 1 | cut -d: -f2
}

members=$(mixed_members 4)
vd=$(vd_create --level 5 --strip 16K --init fast $members)
n=${vd#/dev/}
settle

j0=$(vraidctl stats "$n" --json) || fail "stats --json failed"
echo "$j0" | grep -q '^{"vd":"'"$n"'",.*"cache":{"read_hits":0,"read_misses":0,"cached_bytes":0,"ra_hits":0,"ra_pages":0,"dirty_bytes":0,"write_pages":0,"destaged_pages":0,"journal_writes":0,"journal_pages":0,"journal_refs":0,"fill_pages":0,"dirty_waits":0,"journal_waits":0},"members":\[' ||
	fail "stats --json: $j0"
[ "$(echo "$j0" | wc -l)" = 1 ] || fail "stats --json is not one line"

fio --name=w --filename="$vd" --rw=randwrite --bs=4k --size=4M --direct=1 \
	--ioengine=libaio --iodepth=8 --randrepeat=0 >/dev/null ||
	fail "fio randwrite failed"
fio --name=r --filename="$vd" --rw=read --bs=64k --size=2M --direct=1 \
	--ioengine=libaio --iodepth=4 >/dev/null || fail "fio read failed"
j1=$(vraidctl stats "$n" --json)
dw=$(($(echo "$j1" | json_num writes) - $(echo "$j0" | json_num writes)))
dwb=$(($(echo "$j1" | json_num write_bytes) - $(echo "$j0" | json_num write_bytes)))
dr=$(($(echo "$j1" | json_num reads) - $(echo "$j0" | json_num reads)))
drb=$(($(echo "$j1" | json_num read_bytes) - $(echo "$j0" | json_num read_bytes)))
echo "fio wrote 1024 x 4 KiB, read 32 x 64 KiB; stats: +$dw writes ($dwb bytes), +$dr reads ($drb bytes)"
[ "$dw" = 1024 ] || fail "writes grew by $dw, fio did 1024"
[ "$dwb" = 4194304 ] || fail "write_bytes grew by $dwb, fio wrote 4194304"
# The block layer splits I/O at strip boundaries (chunk_sectors) before
# vraid sees it, and counts the pieces: 2 MiB in 16 KiB strips.
[ "$dr" = 128 ] || fail "reads grew by $dr; 2 MiB read in 16 KiB strips is 128"
[ "$drb" = 2097152 ] || fail "read_bytes grew by $drb, fio read 2097152"

# --prometheus (the VD idle: the same counters as j1): the bytes written
# as --json says them, the VD's state, its UUID as its metadata has it,
# every member's series, each sample's family declared; --output renames
# a whole file into place.
p=$(vraidctl stats --prometheus) || fail "stats --prometheus failed"
uuid=$(vraidctl examine $(echo $members | cut -d' ' -f1) --json | grep -o '"vd_uuid":"[^"]*"' | cut -d'"' -f4)
l="vd=\"$n\",name=\"\",uuid=\"$uuid\""
pw=$(echo "$p" | grep -F "vraid_vd_write_bytes_total{$l} ") ||
	fail "no vraid_vd_write_bytes_total{$l}: $(echo "$p" | grep write_bytes)"
[ "${pw##* }" = "$(echo "$j1" | json_num write_bytes)" ] ||
	fail "prometheus says '$pw', stats --json write_bytes $(echo "$j1" | json_num write_bytes)"
echo "$p" | grep -qxF "vraid_vd_state{$l,state=\"optimal\"} 1" || fail "no optimal state series"
role=0
for m in $members; do
	echo "$p" | grep -qxF "vraid_member_state{$l,member=\"$role\",device=\"${m#/dev/}\",state=\"online\"} 1" ||
		fail "no online state series of member $role ($m)"
	echo "$p" | grep -q "^vraid_member_write_bytes_total{$l,member=\"$role\",device=\"${m#/dev/}\"} [1-9]" ||
		fail "no written bytes of member $role ($m)"
	role=$((role + 1))
done
echo "$p" | awk '/^# TYPE / { t[$3] = 1; next } /^#/ { next }
	{ f = $1; sub(/[{ ].*/, "", f); if (!(f in t)) { print "undeclared: " $0; bad = 1 } }
	END { exit bad }' || fail "a sample of an undeclared family"
vraidctl stats --prometheus --output /tmp/vraid.prom || fail "--output failed"
# (the members' counters may move meanwhile: the bitmap's clearing)
grep -qxF "$pw" /tmp/vraid.prom || fail "--output FILE lacks '$pw'"
[ "$(tail -n 1 /tmp/vraid.prom | cut -d' ' -f1)" = "$(echo "$p" | tail -n 1 | cut -d' ' -f1)" ] ||
	fail "--output FILE ends otherwise than stdout: $(tail -n 1 /tmp/vraid.prom)"
[ "$(ls /tmp/vraid.prom.* 2>/dev/null)" = "" ] || fail "--output left $(ls /tmp/vraid.prom.*)"
echo "prometheus: $(echo "$p" | grep -c '^vraid_') samples, write_bytes ${pw##* }"

# Every member took writes (random 4 KiB writes on RAID5: data and
# parity everywhere), and stats says what sysfs says.
out=$(vraidctl stats "$n")
echo "$out"
for m in $members; do
	line=$(echo "$out" | grep " $m ") || fail "stats does not list $m"
	set -- $line
	# ROLE DEVICE STATE READS WRITES READ(2 words) WRITTEN(2 words) ERRORS
	[ "$3" = Online ] || fail "$m: state $3"
	[ "$5" -gt 0 ] || fail "$m: no writes counted"
	sys=$(awk -v d="${m#/dev/}" '$2 == d { print $5, $6, $7 }' /sys/block/$n/vraid/members)
	[ "$sys" = "$4 $5 ${10}" ] ||
		fail "$m: stats says reads $4 writes $5 errors ${10}, sysfs '$sys'"
done
echo "$out" | grep -q "^Cache: *0 read hits, 0 misses, 0 B held (io policy direct: reads do not use it)" ||
	fail "stats does not say the cache is unused"

# Flushes reach vraid only when the VD advertises a write cache.
f0=$(vraidctl stats "$n" --json | json_num flushes)
fio --name=f --filename="$vd" --rw=write --bs=4k --size=64k --direct=1 \
	--fsync=1 >/dev/null || fail "fio with fsync failed"
f1=$(vraidctl stats "$n" --json | json_num flushes)
if [ "$(cat /sys/block/$n/queue/write_cache)" = "write back" ]; then
	# (fio's fsyncs after 16 writes reach the VD as 15 or 16 flushes)
	[ "$f1" -ge $((f0 + 15)) ] || fail "16 fsyncs, flushes $f0 -> $f1"
else
	[ "$f1" = "$f0" ] || fail "no write cache, yet flushes $f0 -> $f1"
fi

# --watch: rates while fio runs, zero when idle.
fio --name=bg --filename="$vd" --rw=randwrite --bs=4k --size=8M --direct=1 \
	--ioengine=libaio --iodepth=4 --time_based --runtime=8 >/dev/null &
pid=$!
sleep 1
vraidctl stats "$n" --watch --interval 1 --count 3 >/tmp/watch.out ||
	fail "stats --watch failed"
wait $pid || fail "background fio failed"
cat /tmp/watch.out
[ "$(grep -c "  $n " /tmp/watch.out)" = 3 ] || fail "--count 3 did not give 3 reports"
grep "  $n " /tmp/watch.out | awk '$4 > 0 { ok = 1 } END { exit !ok }' ||
	fail "--watch shows no writes/s while fio wrote"
idle=$(vraidctl stats "$n" --watch --interval 0.5 --count 1 --json)
[ "$(echo "$idle" | json_num writes_per_s)" = 0.0 ] ||
	fail "idle --watch reports writes: $idle"

# Write-back: a write counts once, when the cache takes it; its destage
# is not counted again as the VD's (it is in destaged and the members').
vraidctl set "$n" write-policy=awb >/dev/null || fail "set write-policy=awb failed"
w0=$(vraidctl stats "$n" --json)
fio --name=wb --filename="$vd" --rw=randwrite --bs=4k --size=2M --direct=1 \
	--ioengine=libaio --iodepth=8 --randrepeat=0 >/dev/null ||
	fail "fio randwrite (awb) failed"
vraidctl set "$n" write-policy=wt >/dev/null || fail "set write-policy=wt failed"
w1=$(vraidctl stats "$n" --json)
dw=$(($(echo "$w1" | json_num writes) - $(echo "$w0" | json_num writes)))
dd=$(($(echo "$w1" | json_num destaged_pages) - $(echo "$w0" | json_num destaged_pages)))
echo "awb: fio wrote 512 x 4 KiB; stats: +$dw writes, +$dd pages destaged"
[ "$dd" -gt 0 ] || fail "awb destaged nothing ($dd)"
[ "$dw" = 512 ] || fail "writes grew by $dw under awb, fio did 512 (destage counted?)"

# Errors.
expect_fail vraidctl stats vraid99
expect_msg "vraid99: no virtual drive"
[ "$RC" = 1 ] || fail "stats of a missing VD exits $RC, want 1"
expect_fail vraidctl stats
expect_msg "name the virtual drive"
[ "$RC" = 2 ] || fail "stats without a VD exits $RC, want 2"
expect_fail vraidctl stats "$n" --watch --interval 0
expect_msg "invalid --interval"
vd_delete "$vd"
echo "stats: counters exact, members match sysfs, watch rates"
