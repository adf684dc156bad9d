#!/bin/sh
# An assembly that replays the journal and then fails must leave the
# journal's records for the next one (issue: data safety; review of the
# assembly order, M2).  The journal used to forget a VD's records as soon
# as it had replayed them, before the assembly wrote the metadata that
# says the VD needs the journal no more: if that write failed, the
# replay had reached only the members present, and a member missing then
# came back later with nothing left to replay onto it.
#   RAID1 wb over ma and mb (dm-linear), journal vj-j; a 4 KiB write A
#   to block 100, logged and destaged; the power cut leaves mb's block
#   100 as it was before A (its volatile cache lost A: the journal's
#   record is what covers it);
#   assemble ma alone, its metadata copy B failing (dm error at sector
#   2048): refused at the metadata write, after the replay, and the journal must still say
#   replay-pending (before the fix: healthy, its records gone);
#   `controller journal discard` without --force is refused and
#   changes nothing;
#   assemble mb alone: the replay must bring A back onto it.
# timeout: 300
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vraid.sh"
set -e

require_devs 4 nvme
set -- $(mixed_members 2)
DA=$1 DB=$2
JD=$(echo $NVME_DEVS | cut -d' ' -f4)
MA=/dev/mapper/ma MB=/dev/mapper/mb J=/dev/mapper/vj-j

cleanup() {
	journal_cleanup "$JD" ma mb vj-j
}
trap cleanup EXIT

zero_members 16 "$DA" "$DB"
dm_over ma "$DA"
dm_over mb "$DB"
dm_over vj-j "$JD"
journal_new "$J"
vd=$(vd_create --level 1 --init fast --write-policy wb "$MA" "$MB")
expect_write "$vd" write_back
blk=$((DATA_OFFSET / 8 + 100))	# block 100 on a member, in 4 KiB
dd if="$MB" of=/tmp/b_old bs=4k skip=$blk count=1 iflag=direct 2>/dev/null
dd if=/dev/urandom of=/tmp/a bs=4k count=1 iflag=fullblock 2>/dev/null
head0=$(journal_num head_seq)
dd if=/tmp/a of="$vd" bs=4k seek=100 oflag=direct 2>/dev/null || fail "write A failed"
destaged "$vd"
tail=$(journal_num tail_seq)
[ "$tail" -le "$head0" ] || fail "a checkpoint moved the tail to $tail: nothing to replay"

# the power cut; mb's cache had not kept A
power_cut_copy "$vd" "$J" "$MA" "$MB"
dd if=/tmp/b_old of="$MB" bs=4k seek=$blk count=1 oflag=direct conv=notrunc 2>/dev/null ||
	fail "writing mb's old block 100 back"
expect_ok vraidctl controller journal "$J"
[ "$(journal_state)" = replay-pending ] ||
	fail "journal state $(journal_state) after the power cut: $(journal_json)"

# ma's metadata copy B fails (dm error: reads too; copy A answers
# them, and flushes pass): the assembly fails after its replay, at the
# metadata write
sz=$(blockdev --getsz "$DA")
dmsetup suspend ma || fail "dmsetup suspend ma"
printf '%s\n' "0 2048 linear $DA 0" "2048 8 error" \
	"2056 $((sz - 2056)) linear $DA 2056" |
	dmsetup load ma || fail "dmsetup load ma"
dmsetup resume ma || fail "dmsetup resume ma"
expect_fail vraidctl assemble "$MA"
echo "assemble $MA (metadata copy B failing): $ERR"
echo "$ERR" | grep -q "replaying" && fail "the replay itself failed: the case did not set up what it tests"
[ "$(vd_count)" = 0 ] || fail "a VD is up after the failed assembly"
[ "$(journal_state)" = replay-pending ] ||
	fail "after the failed assembly the journal is $(journal_state): it forgot the records it had replayed onto $MA only ($(journal_json))"
echo "the failed assembly left the journal replay-pending"
# discarding now would lose write A for mb: without --force it is
# refused, says what it would drop, and changes nothing
expect_fail vraidctl controller journal discard
echo "$ERR" | grep -q "holds acknowledged writes of 1 virtual drive not assembled yet" ||
	fail "journal discard without --force does not say what it would drop: $ERR"
echo "$ERR" | grep -q "must be assembled again, not discarded" ||
	fail "journal discard without --force does not warn of the failed replay: $ERR"
[ "$(journal_state)" = replay-pending ] ||
	fail "journal discard without --force changed the journal: $(journal_state)"
dm_release ma "$DA"

# mb alone: the records are still there for it
expect_ok vraidctl assemble "$MB"
echo "$OUT"
echo "$OUT" | grep -q "replayed" || fail "assembling $MB replayed nothing: $OUT"
vd=/dev/$(echo "$OUT" | grep "assembled" | head -n 1 | cut -d: -f1)
[ -b "$vd" ] || fail "no VD after assemble: $OUT"
dd if="$vd" of=/tmp/got bs=4k skip=100 count=1 iflag=direct 2>/dev/null
cmp -s /tmp/got /tmp/a || fail "block 100 of $vd (mb alone) does not read write A"
[ "$(journal_state)" = healthy ] ||
	fail "journal state $(journal_state) after the replay: $(journal_json)"
dmesg_check || fail "the kernel log shows problems"
echo "a failed assembly keeps the journal's records: the next replays them onto the member missing before"
