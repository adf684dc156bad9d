#!/bin/sh
# A replaced member can never come back as current (issue: data safety).
# Before, the old disk kept valid-looking metadata after `replace`: once
# the VD was deleted, `assemble --scan` brought back a ghost VD from it
# (Degraded, stale data).  Now replace erases the old device's metadata
# (examine finds none), and after the delete --scan assembles nothing.
# The same for a member a hot spare took over; the spare, now a member,
# cannot be added as a spare again (the kernel refuses it: it holds the
# device with the spare list's open, handed over without a reopen).
# timeout: 300
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vraid.sh"
set -e

require_devs 4 $NVME_DEVS
set -- $NVME_DEVS
a=$1 b=$2 c=$3 s=$4
wipe_members $a $b $c $s


no_metadata() { # DEV: examine finds no vraid metadata on it
	if vraidctl examine "$1" >/tmp/89.out 2>&1; then
		cat /tmp/89.out
		fail "$1 still holds vraid metadata after it left the VD"
	fi
}

# replace, by hand
vd=$(vd_create --level 1 --init fast $a $b)
vraidctl replace $vd $b $c >/dev/null || fail "replace $b with $c"
vraidctl wait $vd >/dev/null || fail "rebuild onto $c"
no_metadata $b
vd_delete $vd
vraidctl assemble --scan >/tmp/89.scan 2>&1 || true
[ "$(vd_count)" = 0 ] || { cat /tmp/89.scan; fail "assemble --scan brought a VD back from the replaced member"; }

# a hot spare takes a failed member's place
wipe_members $a $b $c $s
vd=$(vd_create --level 1 --init fast $a $b)
vraidctl spare add $s >/dev/null || fail "spare add $s"
vraidctl fail $vd $b >/dev/null || fail "fail $b"
i=0
while ! vraidctl show $vd | grep -q "$s"; do
	i=$((i + 1))
	[ $i -lt 300 ] || fail "the spare $s did not take $b's place"
	sleep 0.1
done
vraidctl wait $vd >/dev/null || fail "rebuild onto the spare"
# the spare's open became the member's (no close and reopen, when another
# opener could take it): the kernel itself refuses it as a spare again
expect_fail vraid-raw spare add $s
echo "$OUT $ERR" | grep -Eq "member 1 of vraid0" ||
	fail "spare add of a member was not refused as one: $OUT $ERR"
no_metadata $b
vd_delete $vd
vraidctl assemble --scan >/tmp/89.scan 2>&1 || true
[ "$(vd_count)" = 0 ] || { cat /tmp/89.scan; fail "assemble --scan brought a VD back from the member the spare replaced"; }
echo ok
