#!/bin/sh
# A cached write and the INVALIDATE of a later write sent around the
# cache over the same block, logged in one journal record, then a power
# cut: the replay must not write the cached (older) version over the
# later one.  The order is set, not left to chance: the journal device
# holds its record writes (dm-delay) while two records are in flight, so
# that
#   X, Y: 4 KiB at VD blocks 10 and 20: the two records in flight, held;
#   A:    4 KiB at block 100: into the cache, its DATA entry waits on the
#         open list for a record (two are in flight);
#   B:    1 KiB at sector 802, inside A's block: not whole pages, around
#         the cache; it waits for A's destage (the members hold A), goes
#         to the members, and its INVALIDATE waits on the open list too;
# then the journal lets its writes go: A's DATA and, after it, B's
# INVALIDATE go out in one record (the journal's head_seq says so).
# Before the fix of 8 December 2026 the replay let an INVALIDATE void
# only the DATA entries of earlier records, so it wrote A whole over B
# (the 5j/6j crash states' blocks one generation old; Documentation/
# testing.rst, "What the new kinds gave").  The power cut is copies of
# the members' metadata and data and of the journal taken while the VD
# is bound and idle, written back once it is deleted; assembly replays.
# RAID1: its destage logs nothing, so the held journal does not hold A's
# destage back (on parity levels it would wait for a parity record).
# timeout: 300
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vraid.sh"
set -e

require_devs 4 nvme
members=$(mixed_members 2)
JD=$(echo $NVME_DEVS | cut -d' ' -f4)
J=/dev/mapper/vj-j
MIB=1048576

cleanup() {
	set +e
	dmsetup info vj-j >/dev/null 2>&1 && dm_release vj-j "$JD" >/dev/null 2>&1
	journal_cleanup "$JD" vj-j
}
trap cleanup EXIT

# shellcheck disable=SC2086 # the members, one word each
zero_members 16 $members
dm_over vj-j "$JD"
journal_new "$J"
# shellcheck disable=SC2086
vd=$(vd_create --level 1 --init fast --write-policy wb $members)
expect_write "$vd" write_back
[ "$(blockdev --getss "$vd")" = 512 ] ||
	fail "$vd has $(blockdev --getss "$vd")-byte logical blocks: B needs 512"
for f in x y a; do
	dd if=/dev/urandom of=/tmp/$f bs=4k count=1 iflag=fullblock 2>/dev/null
done
dd if=/dev/urandom of=/tmp/b bs=1k count=1 iflag=fullblock 2>/dev/null
head0=$(journal_num head_seq)
sup0=$(kmsg | grep -c "superseded by later writes around the cache" || true)

# the journal holds every record write (its ring starts at 1 MiB)
dm_hold vj-j "$JD" 2048
dd if=/tmp/x of="$vd" bs=4k seek=10 oflag=direct 2>/dev/null &
px=$!
sleep 0.5
dd if=/tmp/y of="$vd" bs=4k seek=20 oflag=direct 2>/dev/null &
py=$!
sleep 0.5
dd if=/tmp/a of="$vd" bs=4k seek=100 oflag=direct 2>/dev/null &
pa=$!
sleep 0.5
dd if=/tmp/b of="$vd" bs=1k seek=401 oflag=direct 2>/dev/null &
pb=$!

# B reaches the members (after A's destage), each of them
{ dd if=/tmp/a bs=1k count=1 2>/dev/null; cat /tmp/b
  dd if=/tmp/a bs=1k skip=2 2>/dev/null; } >/tmp/want
i=0
for m in $members; do
	until dd if="$m" bs=512 skip=$((DATA_OFFSET + 800)) count=8 \
		iflag=direct 2>/dev/null | cmp -s - /tmp/want; do
		i=$((i + 1))
		[ $i -lt 200 ] || fail "after 20 s member $m does not hold A with B in it"
		sleep 0.1
	done
done
for p in $px $py $pa; do
	kill -0 $p 2>/dev/null ||
		fail "a write ended while the journal held its record writes"
done
echo "the members hold A with B in it; X, Y, A wait for their records"
dm_release vj-j "$JD"
for p in $px $py $pa $pb; do
	await $p 60 "a write still waits 60 s after the journal let its writes go" ||
		fail "a write failed"
done
[ "$(journal_num head_seq)" = $((head0 + 3)) ] ||
	fail "records $head0 to $(journal_num head_seq): not X, Y and then A's DATA with B's INVALIDATE in one record (the case did not set up what it tests)"
dd if="$vd" of=/tmp/got bs=4k skip=100 count=1 iflag=direct 2>/dev/null
cmp -s /tmp/got /tmp/want || fail "before the power cut block 100 does not read A with B in it"
destaged "$vd"
tail=$(journal_num tail_seq)
[ "$tail" -le "$head0" ] || fail "a checkpoint moved the tail to $tail: nothing to replay"
# (a journal formatted here begins at the ring's start, at 1 MiB)
used=$(journal_num used_bytes)
[ "$used" -lt $((6 * MIB)) ] || fail "the journal holds $used bytes, more than is copied"

# the power cut: what the devices hold now (metadata, data) is what
# the next assembly finds
# shellcheck disable=SC2086
power_cut_copy "$vd" "$J" $members

expect_ok vraidctl controller journal "$J"
[ "$(journal_state)" = replay-pending ] ||
	fail "journal state $(journal_state) after the power cut: $(journal_json)"
# shellcheck disable=SC2086
expect_ok vraidctl assemble $members
echo "$OUT"
vd=/dev/$(echo "$OUT" | grep "assembled" | head -n 1 | cut -d: -f1)
[ -b "$vd" ] || fail "no VD after assemble: $OUT"
echo "$OUT" | grep -q "replayed" || fail "assemble replayed nothing: $OUT"
dd if="$vd" of=/tmp/got bs=4k skip=100 count=1 iflag=direct 2>/dev/null
cmp -s /tmp/got /tmp/want ||
	fail "after the replay block 100 does not read A with B in it: A's DATA was written over B, whose INVALIDATE is later in the same record"
for f in x:10 y:20; do
	dd if="$vd" bs=4k skip=${f#*:} count=1 iflag=direct 2>/dev/null |
		cmp -s - /tmp/${f%:*} || fail "after the replay block ${f#*:} does not read ${f%:*}"
done
[ "$(kmsg | grep -c "superseded by later writes around the cache" || true)" -gt "$sup0" ] ||
	fail "the replay did not say that a logged block was superseded"
dmesg_check || fail "the kernel log shows problems"
echo "one record with a DATA entry and a later INVALIDATE over it: the replay keeps the later write"
