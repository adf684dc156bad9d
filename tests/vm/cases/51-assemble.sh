#!/bin/sh
# Assembly from the metadata on the members: stop keeps a VD (metadata
# marked clean) and assemble brings it back with its name, geometry and
# data, by device list or --scan; a member that failed is stale after the
# others moved on and is left out (the VD comes back Degraded); a missing
# member within the level's tolerance gives a Degraded VD, beyond it
# nothing starts; a name clash is resolved with a suffix; delete erases
# the metadata so nothing is assembled afterwards.
# timeout: 600
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vraid.sh"
set -e

# Only this case's metadata on the disks: --scan looks at all of them.
WIPE_TAIL_MIB=0 wipe_members $NVME_DEVS $SATA_DEVS $SAS_DEVS
members=$(mixed_members 4)
set -- $members
M1=$1 M2=$2 M3=$3 M4=$4
zero_members 24 $members
vd=$(vd_create --level 5 --strip 32K --name asm5 $members)
fio_verify "$vd" data --rw=randwrite --bs=4k --size=$(mb 16) --iodepth=8

echo "--- stop, then assemble by device list"
vraidctl stop asm5 || fail "stop"
[ "$(vd_count)" = 0 ] || fail "VD still there after stop"
vraidctl examine --json "$M1" | grep -q '"clean":true' || fail "not marked clean"
out=$(vraidctl assemble $members) || fail "assemble failed"
echo "$out"
echo "$out" | grep -q "assembled asm5, 4 of 4 devices used" || fail "assemble output: $out"
vd=/dev/$(echo "$out" | cut -d: -f1)
[ "$(vd_attr $vd state)" = optimal ] || fail "state $(vd_attr $vd state)"
[ "$(vd_attr $vd level)" = RAID5 ] && [ "$(vd_attr $vd strip_size)" = 32768 ] ||
	fail "geometry not restored"
verify_data "$vd" "after assembly"

echo "--- a failed member is stale after the others move on"
vraidctl fail "$vd" "$M4"
sleep 1
vraidctl stop "$vd"
out=$(vraidctl assemble --scan) || fail "assemble --scan failed: $out"
echo "$out"
echo "$out" | grep -q "asm5, 3 of 4 devices used, 1 stale" || fail "stale member not left out: $out"
vd=/dev/$(echo "$out" | grep asm5 | cut -d: -f1)
[ "$(vd_attr $vd state)" = degraded ] || fail "state $(vd_attr $vd state), want degraded"
verify_data "$vd" "after assembly"
vraidctl stop "$vd"

echo "--- missing members"
out=$(vraidctl assemble "$M1" "$M2" "$M3") || fail "3 of 4: $out"
vd=/dev/$(echo "$out" | cut -d: -f1)
[ "$(vd_attr $vd state)" = degraded ] || fail "3 of 4 not degraded"
vraidctl stop "$vd"
if vraidctl assemble "$M1" "$M2" 2>/tmp/err; then
	fail "2 of 4 members of a RAID5 started"
fi
cat /tmp/err
grep -q "too few" /tmp/err || fail "refusal does not say too few"
[ "$(vd_count)" = 0 ] || fail "a VD exists after a refused assembly"

echo "--- name clash"
other=$(vd_create --level 1 --name asm5 $(echo $SAS_DEVS | awk '{print $2}') $(echo $NVME_DEVS | awk '{print $4}'))
out=$(vraidctl assemble "$M1" "$M2" "$M3") || fail "assemble with clash: $out"
echo "$out" | grep -q "assembled asm5-2" || fail "name clash not resolved: $out"
vd=/dev/$(echo "$out" | cut -d: -f1)
verify_data "$vd" "after assembly"
vd_delete "$other"

echo "--- delete erases: nothing to assemble"
vraidctl delete "$vd" --force
out=$(vraidctl assemble --scan 2>&1) || true
echo "$out"
echo "$out" | grep -q "asm5" && fail "a deleted VD was assembled"
# The stale member left the VD at the earlier assembly, so delete could
# not erase it; alone it is far too few for a RAID5 and is refused.
if vraidctl assemble "$M4" 2>/tmp/err; then
	fail "a lone stale member started a VD"
fi
cat /tmp/err
grep -q "too few" /tmp/err || fail "lone stale member: wrong refusal"
[ "$(vd_count)" = 0 ] || fail "VDs left"
echo "assemble: ok"
