#!/bin/sh
# A write must not reach the members before its region's write-intent
# bit is on them (issue: data safety).  The bitmap's set work marked the
# bit "on the members" in memory before the bitmap write that carries
# it was sent: a second write to the region arriving meanwhile went
# ahead at once, and a power cut then could leave it on one copy and not
# the other with the region clean on disk, never resynced.  Here the
# bitmap write that sets bits is held 3 s (debug_bm_set_delay_ms): write
# A parks behind it; write B to the same region, sent while A waits,
# must not be acknowledged before the members' bitmap has the bit.
# Before the fix B completed at once, with the members' bits all clear.
# timeout: 300
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vraid.sh"
set -e

DELAY=/sys/module/vraid/parameters/debug_bm_set_delay_ms

# bits_set DEV: bytes of DEV's bitmap bits (byte 2 MiB + 4 KiB, 4 KiB:
# Documentation/on-disk-format.rst) that are not zero
bits_set() {
	local out
	out=$(dd if="$1" bs=4096 skip=513 count=1 iflag=direct 2>/dev/null |
		od -An -v -tx1)
	[ -n "$out" ] || fail "cannot read the bitmap of $1"
	echo $out | tr ' ' '\n' | grep -vc '^00$' || true
}

[ -w $DELAY ] || fail "$DELAY missing: the module has no bitmap delay knob"
set -- $(mixed_members 2)
m0=$1 m1=$2
vd=$(vd_create --level 1 --strip 64K "$m0" "$m1")
vraidctl wait "$vd" >/dev/null || fail "initialisation of $vd failed"
# (nothing has written the VD: its regions are clean, no bit is set)
for m in "$m0" "$m1"; do
	[ "$(bits_set "$m")" = 0 ] ||
		fail "$m's bitmap has bits set before any write: $(bits_set "$m") bytes"
done
dd if=/dev/urandom of=/tmp/a bs=4k count=1 2>/dev/null
dd if=/dev/urandom of=/tmp/b bs=4k count=1 2>/dev/null

echo 3000 >$DELAY
trap 'echo 0 >$DELAY' EXIT
# A: 4 KiB at 64 MiB, parked while the bitmap write waits
dd if=/tmp/a of="$vd" bs=4k seek=16384 count=1 oflag=direct 2>/dev/null &
apid=$!
sleep 1
kill -0 $apid 2>/dev/null ||
	fail "write A completed before its region's bitmap write was sent (it did not park)"
# B: the next 4 KiB, same region, sent while A waits
dd if=/tmp/b of="$vd" bs=4k seek=16385 count=1 oflag=direct 2>/dev/null ||
	fail "write B failed"
a_running=no
kill -0 $apid 2>/dev/null && a_running=yes
for m in "$m0" "$m1"; do
	n=$(bits_set "$m")
	[ "$n" -gt 0 ] ||
		fail "write B was acknowledged while $m's bitmap had no bit set (A still waiting: $a_running)"
done
echo "write B completed after its region's bit reached both members (A still waiting when B returned: $a_running)"
wait $apid || fail "write A failed"
echo 0 >$DELAY

# both writes are there, on both copies
for m in "$m0" "$m1"; do
	off=$((DATA_OFFSET / 8 + 16384))
	dd if="$m" bs=4k skip=$off count=2 iflag=direct 2>/dev/null >/tmp/got
	cat /tmp/a /tmp/b | cmp -s - /tmp/got ||
		fail "$m does not hold writes A and B at VD offset 64 MiB"
done
echo "A and B on both copies"
vd_delete "$vd"
echo "bitmap set window: ok"
