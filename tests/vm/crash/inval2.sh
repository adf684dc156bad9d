#!/bin/sh
# Crash test with a set order, second boot (inval1.sh wrote A, B around
# the cache into it, D around, C over D, and cut the power): the
# journal, attached, says replay pending; assembly replays A and C minus
# what later INVALIDATEs cover: B's sectors of A stay B's (the kernel
# log and vraidctl assemble count the logged blocks superseded so), C is
# written over D.
# Blocks 96-103 and 200-215 must read as the log disk's reference; the
# resync and vraid's check find the VD consistent.
. "$(dirname "$0")/common.sh"
set -e
dd if="$LOGDEV" of=/tmp/want bs=4k count=8 iflag=direct 2>/dev/null
dd if="$LOGDEV" of=/tmp/want2 bs=4k skip=8 count=16 iflag=direct 2>/dev/null
nlog=$(dd if="$LOGDEV" bs=4k skip=24 count=1 iflag=direct 2>/dev/null | tr -d '\0' | head -n1)
dd if=/dev/zero of=/tmp/zero bs=4k count=8 2>/dev/null
! cmp -s /tmp/want /tmp/zero || fail "no reference on $LOGDEV: the first boot did not get there"

vd=$(replay_assemble "$JDEV") || exit 1
dd if="$vd" of=/tmp/got bs=4k skip=96 count=8 iflag=direct 2>/dev/null || fail "read of $vd"
bad=$(cmp -l /tmp/got /tmp/want | awk '{ print 96 + int(($1 - 1) / 4096) }' | uniq | tr '\n' ' ')
for b in $bad; do
	case $b in
	100) echo "FAIL: block 100 is not A with B at its sectors 2-3: the replay wrote A, older than B, over B" >&2 ;;
	101) echo "FAIL: block 101 is not C, written after D" >&2 ;;
	*) echo "FAIL: block $b is not what was written" >&2 ;;
	esac
done
[ -z "$bad" ] || fail "blocks 96-103 read wrong after the replay: $bad"
dd if="$vd" of=/tmp/got2 bs=4k skip=200 count=16 iflag=direct 2>/dev/null || fail "read of $vd"
bad=$(cmp -l /tmp/got2 /tmp/want2 | awk '{ print 200 + int(($1 - 1) / 4096) }' | uniq | tr '\n' ' ')
[ -z "$bad" ] ||
	fail "blocks of the random writes read wrong after the replay (an older logged version over a later write around the cache, or the reverse): $bad"

kmsg | grep -E "vraid[0-9]+: (replayed|[0-9]+ logged)"
# A, C and the random 4 KiB writes (B, D and the others around the
# cache: INVALIDATEs)
kmsg | grep -qE "vraid[0-9]+: replayed $nlog writes and" ||
	fail "assembly did not replay the $nlog logged writes: $(kmsg | grep -E 'vraid[0-9]+: replayed')"
kmsg | grep -qE "vraid[0-9]+: [0-9]+ logged 4 KiB blocks? superseded by later writes around the cache" ||
	fail "the replay did not leave B's sectors of A to B"
# vraidctl assemble says it too (ABI 1.10), with the kernel log's counts
sup=$(kmsg | grep -oE "vraid[0-9]+: [0-9]+ logged 4 KiB blocks? superseded" | tail -n1 | awk '{ print $2 }')
par=$(kmsg | grep -oE "vraid[0-9]+: replayed [0-9]+ writes? and [0-9]+ parity" | tail -n1 | awk '{ print $6 }')
grep -qE "^vraid[0-9]+: replayed $nlog writes and $par parity records? from the controller journal \($sup logged 4 KiB blocks? superseded by later writes around the cache, not replayed there\)$" /tmp/asm.out ||
	fail "vraidctl assemble did not say what the replay did ($nlog writes, $par parity records, $sup superseded)"
[ "$(journal_state)" = healthy ] || fail "journal state $(journal_state) after assembly"
expect_write "$vd" write_back

vraidctl wait "$vd" >/dev/null || fail "resync failed"
vraidctl check "$vd" >/dev/null
vraidctl wait "$vd" >/dev/null
[ "$(vd_attr $vd mismatch_cnt)" = 0 ] ||
	fail "vraid check: $(vd_attr $vd mismatch_cnt) mismatches after the replay"
kmsg | grep -E "vraid[0-9]*: " | tail -n 12
dmesg_check || fail "the kernel log shows problems"
echo "RAID$LEVEL: the replay left B's sectors of A to B, written around the cache after it, and wrote C over D; blocks 96-103 and the $nlog logged writes' region read back"
