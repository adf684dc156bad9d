#!/bin/sh
# A cached write whose DATA entry is late, and a write sent around the
# cache over the same block meanwhile, then a power cut: the replay must
# leave the block as it read before the cut.  The cache write's journal
# entry is allocated from a mempool, which may sleep when memory is
# short; the debug parameter debug_jdata_delay_ms makes that sleep
# happen (3 s) for
#   A: 4 KiB at VD block 100, cached, journalled;
#   B: 1 KiB at sector 802, inside A's block (not whole pages: around
#      the cache, to the members with FUA, then an INVALIDATE),
# B issued while A sleeps.  Before the fix of 7 December 2026 A's page
# was dirty in the cache before that allocation, so B waited for A's
# destage, went to the members, logged its INVALIDATE and ended while
# A's DATA entry was not queued yet: the INVALIDATE came first in the
# log, and the replay wrote A whole over B.  Now the entry is on the
# journal's queue before the page is dirty: B finds no dirty data (it
# goes first, A lands after it) or, had A been in the cache, would log
# after A's DATA.  The power cut is as in 90-journal-same-record.
# RAID1: its destage logs nothing.
# timeout: 300
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vraid.sh"
set -e

require_devs 4 nvme
members=$(mixed_members 2)
JD=$(echo $NVME_DEVS | cut -d' ' -f4)
J=/dev/mapper/vj-j
MIB=1048576
KNOB=/sys/module/vraid/parameters/debug_jdata_delay_ms

cleanup() {
	[ -w $KNOB ] && echo 0 >$KNOB
	journal_cleanup "$JD" vj-j
}
trap cleanup EXIT

[ -w $KNOB ] || fail "no $KNOB: the module lacks the debug parameter"
# shellcheck disable=SC2086 # the members, one word each
zero_members 16 $members
dm_over vj-j "$JD"
journal_new "$J"
# shellcheck disable=SC2086
vd=$(vd_create --level 1 --init fast --write-policy wb $members)
expect_write "$vd" write_back
[ "$(blockdev --getss "$vd")" = 512 ] ||
	fail "$vd has $(blockdev --getss "$vd")-byte logical blocks: B needs 512"
dd if=/dev/urandom of=/tmp/a bs=4k count=1 iflag=fullblock 2>/dev/null
dd if=/dev/urandom of=/tmp/b bs=1k count=1 iflag=fullblock 2>/dev/null
head0=$(journal_num head_seq)

echo 3000 >$KNOB
dd if=/tmp/a of="$vd" bs=4k seek=100 oflag=direct 2>/dev/null &
pa=$!
sleep 0.5
echo 0 >$KNOB
dd if=/tmp/b of="$vd" bs=1k seek=401 oflag=direct 2>/dev/null ||
	fail "B failed"
kill -0 $pa 2>/dev/null ||
	fail "A ended before B did (the case did not set up what it tests)"
echo "B ended while A's journal entry was being allocated"
await $pa 60 "A still waits 60 s after B ended" || fail "A failed"

{ dd if=/tmp/a bs=1k count=1 2>/dev/null; cat /tmp/b
  dd if=/tmp/a bs=1k skip=2 2>/dev/null; } >/tmp/ab
dd if="$vd" of=/tmp/before bs=4k skip=100 count=1 iflag=direct 2>/dev/null
if cmp -s /tmp/before /tmp/ab; then
	echo "before the power cut block 100 reads A with B in it"
elif cmp -s /tmp/before /tmp/a; then
	echo "before the power cut block 100 reads A (B went first)"
else
	fail "before the power cut block 100 reads neither A with B nor A"
fi
destaged "$vd"
tail=$(journal_num tail_seq)
[ "$tail" -le "$head0" ] || fail "a checkpoint moved the tail to $tail: nothing to replay"
used=$(journal_num used_bytes)
[ "$used" -lt $((6 * MIB)) ] || fail "the journal holds $used bytes, more than is copied"

# the power cut: what the devices hold now is what the next assembly finds
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
if ! cmp -s /tmp/got /tmp/before; then
	cmp -s /tmp/got /tmp/a &&
		fail "after the replay block 100 reads A whole, before it A with B in it: B's INVALIDATE was logged before A's DATA"
	fail "after the replay block 100 does not read what it read before the power cut"
fi
dmesg_check || fail "the kernel log shows problems"
echo "a DATA entry allocated slowly and a write around the cache: the replay keeps what was read before"
