#!/bin/sh
# Assembly refusals that change nothing, and bringing a VD assembled
# without a member back to Optimal:
#  - a member whose two metadata copies are corrupt is refused with the
#    device and both reasons; a member of another VD ("foreign") is
#    refused; after each the VD assembles from the right devices with its
#    data intact;
#  - a VD assembled with a member missing is rebuilt onto a new device
#    named by role (`replace VD role:N NEW`); a replace onto a device too
#    small, or onto a spare too small, is refused and the spare stays a
#    spare; the data verifies after the rebuild.
# timeout: 900
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vraid.sh"
set -e

WIPE_TAIL_MIB=0 wipe_members $NVME_DEVS $SATA_DEVS $SAS_DEVS
set -- $(mixed_members 8)
M1=$1 M2=$2 M3=$3 M4=$4 F1=$5 F2=$6 NEW=$7 X=$8
vd=$(vd_create --level 5 --strip 32K --name r5 $M1 $M2 $M3 $M4)
vraidctl wait "$vd" >/dev/null
fio_verify "$vd" data --rw=randwrite --bs=4k --size=$(mb 16) --iodepth=8
other=$(vd_create --level 1 --init fast --name other $F1 $F2)
vraidctl stop "$other" >/dev/null
vraidctl stop "$vd" >/dev/null

echo "--- foreign member"
expect_fail vraidctl assemble $M1 $M2 $M3 $F1
expect_msg "another virtual drive"
[ "$(vd_count)" = 0 ] || fail "a VD exists after a refused assembly"

echo "--- corrupt member"
dd if="$M4" of=/tmp/m4.md bs=1M count=2 iflag=direct 2>/dev/null
dd if=/dev/urandom of="$M4" bs=512 seek=8 count=8 conv=notrunc oflag=direct 2>/dev/null
dd if=/dev/urandom of="$M4" bs=512 seek=2048 count=8 conv=notrunc oflag=direct 2>/dev/null
expect_fail vraidctl assemble $M1 $M2 $M3 $M4
expect_msg "no valid vraid metadata"
expect_msg "A: .*; B: "
[ "$(vd_count)" = 0 ] || fail "a VD exists after a refused assembly"
# --scan leaves the corrupt device out and reports it.
out=$(vraidctl assemble --scan 2>&1) || true
echo "$out"
vd=/dev/$(vraidctl list --json | grep -o '"vd":"vraid[0-9]*","index":[0-9]*,"name":"r5"' | cut -d'"' -f4)
[ -b "$vd" ] || fail "--scan did not bring r5 up without the corrupt member"
[ "$(vd_attr $vd state)" = degraded ] || fail "r5 is $(vd_attr $vd state), want degraded"
verify_data "$vd"
vd_attr $vd members | grep -q "^3 (missing)" || fail "role 3 is not missing: $(vd_attr $vd members)"
other=/dev/$(vraidctl list --json | grep -o '"vd":"vraid[0-9]*","index":[0-9]*,"name":"other"' | cut -d'"' -f4)
vd_delete "$other"

echo "--- replace a missing member by role"
# Too small: a 16 MiB slice; as a plain device and as a spare.
echo "0 32768 linear $X 0" | dmsetup create small && dmsetup mknodes small
expect_fail vraidctl replace "$vd" role:3 /dev/mapper/small
expect_msg "too small"
vraidctl spare add /dev/mapper/small
expect_fail vraidctl replace "$vd" role:3 /dev/mapper/small
expect_msg "too small"
vraidctl spare list | grep -q "small\|dm-" || fail "the refused spare is no longer a spare"
vraidctl spare remove /dev/mapper/small
dmsetup remove small
[ "$(vd_attr $vd state)" = degraded ] || fail "a refused replace changed the state"
expect_fail vraidctl replace "$vd" role:9 "$NEW"
expect_msg "role 9"
vraidctl replace "$vd" role:3 "$NEW" || fail "replace role:3"
vraidctl wait "$vd" >/dev/null || fail "rebuild failed"
[ "$(vd_attr $vd state)" = optimal ] || fail "not optimal after the rebuild"
verify_data "$vd"
vraidctl stop "$vd" >/dev/null
out=$(vraidctl assemble $M1 $M2 $M3 $NEW) || fail "assemble after replace: $out"
echo "$out" | grep -q "4 of 4 devices used" || fail "assemble after replace: $out"
vd=/dev/$(echo "$out" | cut -d: -f1)
verify_data "$vd"
# The corrupt device was never written again.
dd if="$M4" bs=512 skip=8 count=8 2>/dev/null | od -An -tx1 | head -n1 | grep -q "56 52 4d 44" &&
	fail "the corrupt member got metadata again"
vd_delete "$vd"
echo "assembly refusals and replace by role: ok"
