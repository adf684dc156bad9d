#!/bin/sh
# The destructive commands protect what the devices hold: create over a
# stopped VD's members is refused and names the VD (by name and UUID),
# over an ext4 file system or a partition table it is refused too, and
# --force goes ahead; --dry-run changes nothing (the first MiB of every
# device reads the same before and after, no VD appears); wipe of a
# running VD's member is refused and names the VD, wipe of a stopped
# member erases its metadata and assemble --scan no longer finds it;
# delete without --force is refused and says what it would destroy;
# controller journal over a disk with a partition table is refused.
# vm: --nvme 4 --sata 2 --sas 2
# timeout: 300
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vraid.sh"
set -e

set -- $NVME_DEVS
N0=$1 N1=$2 N2=$3 N3=$4
set -- $SATA_DEVS
S0=$1 S1=$2
set -- $SAS_DEVS
A0=$1 A1=$2
ALL="$N0 $N1 $N2 $N3 $S0 $S1 $A0 $A1"

# Only this case's data on the disks: --scan and the refusals see them all.
wipe_members $ALL

# heads DEV...: the checksums of the first MiB of each (O_DIRECT)
heads() {
	for d; do mib_sum "$d" 0 1; done | tr '\n' ' '
}

# unchanged WHAT BEFORE DEV...: the first MiB of each DEV is as BEFORE
unchanged() {
	local what=$1 before=$2
	shift 2
	[ "$(heads "$@")" = "$before" ] || fail "$what changed the devices' first MiB"
}

echo "--- create over a stopped VD's members: refused, the VD named"
vd=$(vd_create --level 1 --name keepme $N0 $N1)
uuid=$(vraidctl examine --json $N0 | grep -o '"vd_uuid":"[^"]*"' | cut -d'"' -f4)
[ -n "$uuid" ] || fail "no VD UUID in examine --json"
vraidctl stop keepme
before=$(heads $N0 $N1)
expect_fail vraidctl create --level 1 --name other $N0 $N1
echo "$ERR"
expect_msg "create: $N0 holds the vraid metadata of the stopped virtual drive \"keepme\" \(UUID $uuid, RAID1, role 0 of 2"
expect_msg "--force. overwrites it"
expect_msg "vraidctl assemble --scan"
[ "$(vd_count)" = 0 ] || fail "a VD appeared after a refused create"
unchanged "a refused create" "$before" $N0 $N1

echo "--- create --dry-run changes nothing"
expect_fail vraidctl create --level 1 --name other --dry-run $N0 $N1
echo "$OUT"
echo "$OUT" | grep -q "^Virtual drive:  RAID1, name \"other\", 2 members" || fail "dry run: no VD line"
echo "$OUT" | grep -q "role 0  $N0  .*holds the vraid metadata of the stopped virtual drive \"keepme\"" ||
	fail "dry run: what $N0 holds is not said"
echo "$OUT" | grep -q "^Result:         refused without --force" || fail "dry run: no refusal"
expect_ok vraidctl create --level 1 --dry-run --force $N0 $N1
echo "$OUT" | grep -q "^Result:         it would be created, overwriting" || fail "dry run --force: $OUT"
[ "$(vd_count)" = 0 ] || fail "a VD appeared after create --dry-run"
unchanged "create --dry-run" "$before" $N0 $N1
# the stopped VD is still whole: it comes back
vraidctl assemble $N0 $N1 >/dev/null || fail "keepme does not assemble after the refusals"
[ "$(vd_count)" = 1 ] || fail "keepme did not come back"
vraidctl stop keepme

echo "--- create over ext4 and over a partition table: refused; --force goes ahead"
mkfs.ext4 -q -F -L data $N2
printf 'label: gpt\n,32M\n,32M\n' | sfdisk -q $N3 >/dev/null 2>&1 || fail "sfdisk $N3"
before=$(heads $N2 $N3)
expect_fail vraidctl create --level 1 $N2 $N3
echo "$ERR"
expect_msg "create: $N2 holds an ext4 file system \(label \"data\"\)"
expect_msg "create: $N3 holds a GPT partition table \(2 partitions\)"
[ "$(vd_count)" = 0 ] || fail "a VD appeared after a refused create"
expect_fail vraidctl create --level 1 --dry-run $N2 $N3
unchanged "a refused create and --dry-run" "$before" $N2 $N3
e2fsck -fn $N2 >/dev/null 2>&1 || fail "the ext4 on $N2 was damaged by a refusal"
vd=$(vraidctl create --level 1 --init fast --force $N2 $N3 2>/tmp/force.err) ||
	{ cat /tmp/force.err; fail "create --force over ext4 and GPT"; }
cat /tmp/force.err
grep -q "overwriting what $N2 holds (--force): an ext4 file system" /tmp/force.err ||
	fail "create --force does not say what it overwrote"
[ -b "/dev/$vd" ] || fail "/dev/$vd missing after create --force"
vraidctl examine $N2 | grep -q '^Level: *RAID1' || fail "$N2 is not a member after create --force"

echo "--- delete without --force: refused, says what it would destroy"
expect_fail vraidctl delete "$vd"
echo "$ERR"
expect_msg "refused without --force: it destroys the virtual drive /dev/$vd \(RAID1, "
expect_msg "$N2 \(role 0\), $N3 \(role 1\)"
expect_msg "vraidctl delete $vd --force"
[ "$(vd_count)" = 1 ] || fail "delete without --force removed the VD"
vraidctl examine $N2 >/dev/null || fail "delete without --force erased the metadata"
expect_fail vraidctl delete "$vd" --dry-run
echo "$OUT" | grep -q "^Members:        $N2 (role 0), $N3 (role 1): their vraid metadata is erased" ||
	fail "delete --dry-run: $OUT"
[ "$(vd_count)" = 1 ] || fail "delete --dry-run removed the VD"
expect_ok vraidctl delete "$vd" --force
[ "$(vd_count)" = 0 ] || fail "delete --force left the VD"

echo "--- wipe: a running VD's member is refused, a stopped one erased"
vd=$(vd_create --level 1 --name live $S0 $S1)
expect_fail vraidctl wipe $S0 --force
echo "$ERR"
expect_msg "wipe $S0: $S0 is in use: a member of the running virtual drive $vd \(\"live\"\), role 0"
vraidctl examine $S0 >/dev/null || fail "a refused wipe erased a running member's metadata"
[ "$(vd_attr $vd state)" = optimal ] || fail "the VD is $(vd_attr $vd state) after a refused wipe"
vd_delete "$vd"
# keepme is stopped on N0 and N1
before=$(heads $N0 $N1)
expect_fail vraidctl wipe $N0
expect_msg "refused without --force: it holds the vraid metadata of the stopped virtual drive \"keepme\""
expect_fail vraidctl wipe $N0 --dry-run
echo "$OUT" | grep -q "^Erases:         metadata copy A (byte 4096), metadata copy B (byte 1 MiB) and write-intent bitmap (byte 2 MiB)" ||
	fail "wipe --dry-run: $OUT"
unchanged "a refused wipe and --dry-run" "$before" $N0 $N1
expect_ok vraidctl wipe $N0 --force
echo "$OUT"
expect_ok vraidctl wipe $N1 --force
expect_fail vraidctl examine $N0
expect_msg "no valid vraid metadata"
expect_ok vraidctl assemble --scan
echo "$OUT"
echo "$OUT" | grep -q keepme && fail "assemble --scan found keepme after wipe"
[ "$(vd_count)" = 0 ] || fail "assemble --scan assembled something: $(vraidctl list)"

echo "--- controller journal over a disk with a partition table: refused"
printf 'label: dos\n,32M\n' | sfdisk -q $A0 >/dev/null 2>&1 || fail "sfdisk $A0"
before=$(heads $A0)
expect_fail vraidctl controller journal $A0
echo "$ERR"
expect_msg "controller journal $A0: $A0 holds an MBR \(DOS\) partition table \(1 partition\)"
[ "$(journal_state)" = none ] || fail "a journal is attached after a refusal"
expect_fail vraidctl controller journal $A0 --dry-run
echo "$OUT" | grep -q "^Result:         refused without --force" || fail "journal --dry-run: $OUT"
unchanged "a refused journal attach and --dry-run" "$before" $A0
expect_ok vraidctl controller journal $A0 --force
[ "$(journal_state)" = healthy ] || fail "journal --force: $(journal_state)"
# the attached journal is in use: neither create nor wipe takes it
expect_fail vraidctl create --level jbod --force $A0
expect_msg "is in use: it is the controller's journal"
expect_fail vraidctl wipe $A0 --force
expect_msg "is in use: it is the controller's journal"
expect_ok vraidctl controller journal none
expect_ok vraidctl wipe $A0 --force
echo "$OUT"
expect_fail vraidctl examine $A0
expect_msg "no valid vraid metadata \(and no vraid journal superblock\)"
echo "destructive commands: ok"
