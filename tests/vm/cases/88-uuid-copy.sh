#!/bin/sh
# One VD per UUID (issue: data safety): copies of a running VD's members
# (cloned disks, or a replaced member's old metadata) must not assemble as
# a second VD of the same UUID — the journal keys its records by the UUID,
# and two VDs of one UUID would take each other's records.  assemble of
# the copies fails with EEXIST and names the VD that runs; once that VD is
# stopped the copies assemble (they are a VD of their own right then).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vraid.sh"
set -e

require_devs 4 $NVME_DEVS
set -- $NVME_DEVS
a=$1 b=$2 ca=$3 cb=$4
wipe_members $a $b $ca $cb
vd=$(vd_create --level 1 --init fast $a $b)
dd if=/dev/urandom of=$vd bs=1M count=4 oflag=direct 2>/dev/null || fail "write $vd"
# the copies: every byte of each member, metadata and data
for p in "$a $ca" "$b $cb"; do
	set -- $p
	dd if=$1 of=$2 bs=1M iflag=direct oflag=direct 2>/dev/null || fail "copy $1 to $2"
done
expect_fail vraidctl assemble $ca $cb
expect_msg "runs already|EEXIST"
echo "refused: $ERR"
[ "$(vd_count)" = 1 ] || fail "$(vd_count) VDs after assembling copies of a running one"
vraidctl stop $vd || fail "stop $vd"
expect_ok vraidctl assemble $ca $cb
echo "after the stop: $OUT"
[ "$(vd_count)" = 1 ] || fail "$(vd_count) VDs after assembling the copies alone"
vraidctl stop "/dev/${OUT%%:*}" || fail "stop the copies' VD"
wipe_members $a $b $ca $cb

# Members under dm (a dm-linear over the whole disk shows the disk's
# metadata too): assemble --scan takes the dm devices, not the disks
# under them (before: both in one group, refused, nothing assembled).
dm_over l88a $a
dm_over l88b $b
vd=$(vd_create --level 1 --init fast /dev/mapper/l88a /dev/mapper/l88b)
vraidctl stop $vd || fail "stop $vd"
# (other disks of the boot may hold older cases' stale members: --scan
# may exit 1 for those; this VD must be assembled whatever it says)
vraidctl assemble --scan >/tmp/88.out 2>&1 || true
echo "--scan over dm: $(cat /tmp/88.out)"
grep -q "assembled, 2 of 2 devices used" /tmp/88.out ||
	fail "assemble --scan did not assemble the VD on dm members"
vd=/dev/$(grep "assembled, 2 of 2 devices used" /tmp/88.out | head -1 | cut -d: -f1)
vraidctl show $vd | grep -q "dm-" || fail "the VD was not assembled from the dm devices"
vd_delete $vd
dmsetup remove l88a
dmsetup remove l88b
