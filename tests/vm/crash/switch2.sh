#!/bin/sh
# Crash test with a set order, second boot (switch1.sh wrote A, logged
# and destaged, held a checkpoint or the unbind's drain, switched
# write-policy to wt, wrote A2 over A and cut the power): assembly
# replays the journal.  A2, if it was acknowledged, must read back (the
# journal's A, older, must not be written over it); if not, block 0 reads
# A or A2.  The 1 MiB at 4 MiB last written reads back; vraid's check
# finds the VD consistent.
. "$(dirname "$0")/common.sh"
set -e
dd if="$LOGDEV" of=/tmp/a bs=4k count=1 iflag=direct 2>/dev/null
dd if="$LOGDEV" of=/tmp/a2 bs=4k skip=1 count=1 iflag=direct 2>/dev/null
acked=$(dd if="$LOGDEV" bs=4k skip=2 count=1 iflag=direct 2>/dev/null | tr -d '\0' | head -n1)
dd if="$LOGDEV" of=/tmp/last bs=4k skip=3 count=256 iflag=direct 2>/dev/null
case $acked in 0 | 1) ;; *) fail "no reference on $LOGDEV: the first boot did not get there" ;; esac

vd=$(replay_assemble "$JDEV") || exit 1
dd if="$vd" of=/tmp/got bs=4k count=1 iflag=direct 2>/dev/null || fail "read of $vd"
if [ "$acked" = 1 ]; then
	cmp -s /tmp/got /tmp/a2 || {
		cmp -s /tmp/got /tmp/a && fail "A2 was acknowledged, and the replay wrote the journal's older A over it"
		fail "block 0 reads neither A2, acknowledged, nor A"
	}
	echo "A2, acknowledged before the power cut, reads back"
else
	cmp -s /tmp/got /tmp/a || cmp -s /tmp/got /tmp/a2 ||
		fail "block 0 reads neither A nor A2 (not acknowledged)"
	echo "A2 was not acknowledged; block 0 reads $(cmp -s /tmp/got /tmp/a && echo A || echo A2)"
fi
dd if="$vd" of=/tmp/got bs=64k skip=64 count=16 iflag=direct 2>/dev/null || fail "read of $vd"
cmp -s /tmp/got /tmp/last || fail "the 1 MiB at 4 MiB last written does not read back after the replay"
kmsg | grep -E "vraid[0-9]+: replayed"
vraidctl wait "$vd" >/dev/null || fail "resync failed"
vraidctl check "$vd" >/dev/null
vraidctl wait "$vd" >/dev/null
[ "$(vd_attr $vd mismatch_cnt)" = 0 ] ||
	fail "vraid check: $(vd_attr $vd mismatch_cnt) mismatches after the replay"
dmesg_check || fail "the kernel log shows problems"
echo "RAID$LEVEL: no acknowledged write lost across a policy change held by a member"
