#!/bin/sh
# A flush, and a journal checkpoint, complete while a sustained write load
# with a hot set runs on slow members (null_blk, 5 ms per I/O, one at a
# time): awb, a flush (fsync) sent 4 s into a 60 s zipf:1.2 random-write
# load returns while the load still runs; wb with the journal, the
# journal's tail moves (a checkpoint ends) while the same load runs and
# before 70 % of the ring is in use (at 75 % writers stop for room);
# RAID10 with wb and the journal keeps dirty data under the journal's cap
# and the ring from filling under uniform random writes; with awb a line
# written over and over goes to the members once per destage age.
# Lines written over and over stay dirty, and dirty for longer than the
# destage age, for as long as the load runs: a drain writes out what was
# dirty when it came and does not go on taking those lines (until the
# twenty-second session it did, so a flush or checkpoint ended only once
# the load stopped, and with wb the ring filled and writers stopped for
# seconds). Data written before reads back verified.
# timeout: 500
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vraid.sh"
set -e

require_devs 4 nvme
J=$(echo $NVME_DEVS | cut -d' ' -f4)	# the journal

# null_blk members that cost what a disk costs (tests/vm/nullb.sh)
NCPU=$(nproc)
die() { fail "$*"; }
. "$(dirname "$0")/../nullb.sh"
modprobe null_blk nr_devices=0 || fail "modprobe null_blk"
grep -q " /sys/kernel/config configfs " /proc/mounts ||
	mount -t configfs none /sys/kernel/config || fail "mount configfs"
members=""
for i in 0 1 2 3; do
	nullb_make $i 96 hdd
	members="$members $NULLB"
done

cleanup_flush() {
	set +e
	[ -n "${pid:-}" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	for d in /sys/block/vraid*; do
		[ -e "$d" ] && vraidctl delete "/dev/${d##*/}" --force >/dev/null 2>&1
	done
	vraidctl controller journal none >/dev/null 2>&1
	vraidctl controller set cache-size=default >/dev/null 2>&1
	for i in 0 1 2 3; do
		d=/sys/kernel/config/nullb/nullb$i
		[ -d "$d" ] && echo 0 >"$d/power" && rmdir "$d"
	done
	rmmod null_blk 2>/dev/null
	return 0
}
trap cleanup_flush EXIT

# data_write VD: 4 MiB of verified random writes at the start of VD
# (verify_data VD WHAT 4 checks them again)
data_write() {
	fio_verify "$1" data --rw=randwrite --bs=4k --size=$(mb 4) --iodepth=8
}

# hot_load VD: 4 KiB random writes, zipf:1.2 over 64 MiB past the first
# 8 MiB, for 60 s in the background; sets pid
hot_load() {
	fio --name=hot --filename="$1" --rw=randwrite --bs=4k --offset=$(mb 8) \
		--size=$(mb 64) --direct=1 --ioengine=libaio --iodepth=16 \
		--random_distribution=zipf:1.2 --time_based --runtime=60 \
		>/tmp/hot.out 2>&1 &
	pid=$!
}

# still_running WHAT: the load has not ended (WHAT happened before it did)
still_running() {
	kill -0 "$pid" 2>/dev/null ||
		{ cat /tmp/hot.out; fail "$1 only once the 60 s load had ended"; }
}

stop_load() {
	kill "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	pid=""
}

# a small cache: the hot set fills it, the drain is short
vraidctl controller set cache-size=16M >/dev/null || fail "cache-size=16M"

echo "--- awb: a flush under the load"
vd=$(vd_create --level 5 --init fast --write-policy awb $members)
settle
data_write "$vd"
hot_load "$vd"
sleep 4		# lines dirty for longer than the destage age (2 s)
d0=$(vd_attr $vd cache_destaged)
f0=$(vd_attr $vd flushes)
dd if=/dev/zero of="$vd" bs=4k count=0 conv=notrunc,fsync 2>/dev/null ||
	fail "fsync of $vd failed"
still_running "the flush returned"
[ "$(vd_attr $vd flushes)" -gt "$f0" ] || fail "fsync sent no flush"
[ "$(vd_attr $vd cache_destaged)" -gt "$d0" ] || fail "the flush destaged nothing"
echo "flush returned with the load running ($(($(vd_attr $vd cache_destaged) - d0)) pages destaged meanwhile)"
stop_load
verify_data "$vd" "after the flush under load" 4
vd_delete "$vd"

# member_writes: write I/Os the members completed so far
member_writes() {
	local t=0 m
	for m in $members; do
		set -- $(cat "/sys/block/${m#/dev/}/stat")
		t=$((t + $5))
	done
	echo $t
}

# A line written over and over, below the background band: the age rule
# writes it out once it has been dirty for VRAID_DESTAGE_AGE (2 s), not
# at every pass. A line rewritten while its destage was in flight kept
# the time it first became dirty (before the twenty-third session), so it
# stayed "aged" and went out again at once, for as long as the writes
# went on: 3,000 member writes in 10 s here instead of about 130.
echo "--- awb: a hot line is written out by age, not continuously"
vd=$(vd_create --level 5 --init fast --write-policy awb $members)
settle
w0=$(member_writes)
fio --name=hotline --filename="$vd" --rw=randwrite --bs=4k --offset=$(mb 8) \
	--size=64k --direct=1 --ioengine=libaio --iodepth=1 --time_based \
	--runtime=10 >/tmp/hot.out 2>&1 ||
	{ cat /tmp/hot.out; fail "the writes over one line of $vd failed"; }
w=$(($(member_writes) - w0))
echo "$w member writes in 10 s of writes over one 64 KiB line"
[ "$w" -lt 640 ] ||
	fail "$w member writes in 10 s: a line written over and over goes out at every destage pass, not once per age (2 s)"
vd_delete "$vd"

echo "--- wb with the journal: a checkpoint under the load"
# (--force: a new journal, whatever earlier cases of the boot left on $J)
out=$(vraidctl controller journal "$J" --force 2>&1) || fail "controller journal $J: $out"
vd=$(vd_create --level 5 --init fast --write-policy wb $members)
settle
expect_write "$vd" write_back
data_write "$vd"
t0=$(journal_num tail_seq)
ring=$(journal_num size_bytes)
hot_load "$vd"
i=0 max=0
while [ "$(journal_num tail_seq)" = "$t0" ]; do
	still_running "the journal's tail moved"
	u=$(journal_num used_bytes)
	[ "$u" -gt "$max" ] && max=$u
	i=$((i + 1))
	[ $i -lt 600 ] || fail "the tail did not move in 60 s"
	sleep 0.1
done
still_running "the journal's tail moved"
echo "the tail moved from $t0 to $(journal_num tail_seq) with the load running; most of the ring in use before: $max of $ring bytes"
[ "$max" -lt $((ring / 10 * 7)) ] ||
	fail "70 % of the ring was in use before a checkpoint ended ($max of $ring bytes; at 75 % writers stop for room)"
stop_load
verify_data "$vd" "after checkpoints under load" 4
[ "$(write_in_effect "$vd")" = "write_back " ] ||
	fail "$vd writes '$(write_in_effect "$vd")' after the load"
vd_delete "$vd"

# With only a mirror bound, dirty data is capped as with parity VDs (the
# same rule, no parity records): a checkpoint writes out every dirty page
# before the tail moves, and on slow members the uncapped cache (up to
# half of it dirty) took longer to write out than the ring took to fill,
# so writers stopped for room for seconds (until the twenty-third
# session). Uniform random writes over 64 MiB, more than the cap, for
# 30 s: dirty data stays under the cap, the tail moves, the ring never
# comes near full.
echo "--- RAID10 wb with the journal: dirty data capped, the ring never fills"
vraidctl controller set cache-size=default >/dev/null || fail "cache-size=default"
h0=$(ctl_num dirty_high_bytes)
vd=$(vd_create --level 10 --init fast --write-policy wb $members)
settle
expect_write "$vd" write_back
h1=$(ctl_num dirty_high_bytes)
echo "dirty limit $h0 bytes, $h1 with a RAID10 VD bound"
[ "$h1" -lt "$h0" ] || fail "a mirror VD bound to the journal left dirty data uncapped ($h1 of $h0 bytes)"
data_write "$vd"
t0=$(journal_num tail_seq)
fio --name=uni --filename="$vd" --rw=randwrite --bs=4k --offset=$(mb 8) \
	--size=$(mb 64) --direct=1 --ioengine=libaio --iodepth=16 \
	--time_based --runtime=30 >/tmp/hot.out 2>&1 &
pid=$!
max=0 dmax=0
while kill -0 "$pid" 2>/dev/null; do
	u=$(journal_num used_bytes)
	[ "$u" -gt "$max" ] && max=$u
	d=$(ctl_num dirty_bytes)
	[ "$d" -gt "$dmax" ] && dmax=$d
	sleep 0.2
done
wait "$pid" || { cat /tmp/hot.out; fail "the load on $vd failed"; }
pid=""
echo "most dirty $dmax bytes (cap $h1), most of the ring in use $max of $ring bytes, tail $t0 -> $(journal_num tail_seq)"
# writers at the limit each add their 4 KiB after they see room
[ "$dmax" -le $((h1 + 1048576)) ] || fail "dirty data reached $dmax bytes, over the cap of $h1"
# The ring's use above says whether checkpoints kept up; that one ended
# within the load is a matter of the host's speed (a loaded two-core
# host ran all 30 s without one, on old and new modules alike): the tail
# must move, within 30 s of the load's end at the latest
i=0
while [ "$(journal_num tail_seq)" = "$t0" ]; do
	i=$((i + 1))
	[ $i -lt 150 ] || fail "the tail did not move in 30 s of writes and 30 s after them"
	sleep 0.2
done
[ "$max" -lt $((ring / 10 * 9)) ] ||
	fail "90 % of the ring was in use ($max of $ring bytes): writers were about to stop for room"
verify_data "$vd" "RAID10 after the capped load" 4
vd_delete "$vd"
[ "$(ctl_num dirty_high_bytes)" = "$h0" ] ||
	fail "the cap stayed with no VD bound ($(ctl_num dirty_high_bytes) of $h0 bytes)"
vraidctl controller journal none >/dev/null || fail "journal none"
echo "flush under load: ok"
