#!/bin/sh
# Bad input gets a clear error and changes nothing: every refusal of the
# CLI and of the kernel (through vraid-raw, which sends raw and malformed
# requests), each checked for its message, for no VD having appeared, and
# for the members' bytes being untouched.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vraid.sh"

set -- $NVME_DEVS
N0=$1 N1=$2 N2=$3 N3=$4
set -- $SATA_DEVS
S0=$1 S1=$2
set -- $SAS_DEVS
A0=$1 A1=$2
ALL="$N0 $N1 $N2 $N3 $S0 $S1 $A0 $A1"

# Random bytes over the first 9 MiB (reserved area + start of data).
for d in $ALL; do
	dd if=/dev/urandom of="$d" bs=1M count=9 oflag=direct 2>/dev/null
done
snapshot() {
	for d in $ALL; do
		sum_mib "$d" 9
	done
}
BEFORE=$(snapshot)

# no_change: no VD exists.
no_change() {
	[ "$(vd_count)" = 0 ] || fail "a VD exists after a refused request ($*)"
	ls /dev/vraid[0-9]* >/dev/null 2>&1 && fail "a /dev/vraidN node appeared ($*)"
	return 0
}

# cli_refuses REGEX ARGS...: vraidctl ARGS fails with a message matching REGEX
cli_refuses() {
	local re=$1
	shift
	expect_fail vraidctl "$@"
	echo "vraidctl $*: $ERR" | head -n 2
	expect_msg "$re"
	no_change "vraidctl $*"
}

# raw EXPECT ARGS...: the kernel refuses a raw request with errno EXPECT
# and a reply message
raw() {
	local want=$1
	shift
	vraid-raw --expect "$want" --want-message "$@" || fail "vraid-raw $*: not refused with $want"
	no_change "vraid-raw $*"
}

echo "--- the command line"
cli_refuses "unknown|level" create --level 3 $N0 $N1
cli_refuses "RAID5|3 members|at least" create --level 5 $N0 $N1
cli_refuses "member|device" create --level 0
cli_refuses "strip" create --level 0 --strip 3K $N0 $N1
cli_refuses "strip" create --level 0 --strip 2M $N0 $N1
cli_refuses "strip|power of two" create --level 0 --strip 48K $N0 $N1
cli_refuses "not a block device" create --level 0 /etc/passwd $N1
cli_refuses "no such file" create --level 0 /dev/nonexistent $N1
cli_refuses "twice|same device" create --level 0 $N0 $N0
cli_refuses "JBOD|jbod|one member" create --level jbod $N0 $N1
cli_refuses "jbod|2 to 32" create --level 0 $N0
cli_refuses "no such virtual drive|vraid7" delete vraid7
cli_refuses "no such virtual drive|vraid7" show vraid7
cli_refuses "name" create --level 0 --name "bad name" $N0 $N1
cli_refuses "name" create --level 0 --name vraid3 $N0 $N1

echo "--- the kernel, sent directly"
raw EINVAL create --level 3 $N0 $N1
raw EINVAL create --level 6 $N0 $N1 $S0
raw EINVAL create --level 10 $N0 $N1 $S0
raw EINVAL create --level 50 --spans 2 $N0 $N1 $S0 $S1 $A0
raw EINVAL create --level 5 --spans 2 $N0 $N1 $S0 $S1
raw EINVAL create --nr 0
raw EINVAL create --nr 33 $N0 $N1
raw EINVAL create --strip 3072 $N0 $N1
raw EINVAL create --strip 2097152 $N0 $N1
raw EINVAL create --strip 49152 $N0 $N1
raw EINVAL create $N0 $N0
raw EINVAL create --level jbod $N0 $N1
raw EINVAL create --name-fill $N0 $N1
raw EINVAL create --name 12 $N0 $N1
raw ENXIO create 250:7 $N1
raw EINVAL create 0:0 $N1
raw ENOENT delete 7
raw ENOENT delete 255
raw ENOENT info 3
raw EPERM --drop-privs create $N0 $N1
raw EPERM --drop-privs delete 0
for check in short huge long-tail bad-magic bad-version nonzero-flags \
	unknown-cmd "reserved hdr" "reserved cmd" "reserved tail"; do
	raw any $check create $N0 $N1
done
vraid-raw wrong-type || fail "wrong ioctl type accepted"
vraid-raw wrong-encoding || fail "wrong ioctl encoding accepted"
vraid-raw garbage 3000 7 || fail "garbage requests: not all refused"
no_change garbage

echo "--- too small, read-only"
echo "0 12288 linear $A1 0" | dmsetup create small && dmsetup mknodes small
cli_refuses "too small" create --level 0 /dev/mapper/small $N0
dmsetup remove small
blockdev --setro "$S1"
cli_refuses "read-only" create --level 0 $S1 $N0
blockdev --setrw "$S1"
# a zoned member (zoned null_blk) cannot take random writes
if modprobe null_blk nr_devices=1 zoned=1 zone_size=16 gb=1 memory_backed=1 2>/dev/null &&
	[ -b /dev/nullb0 ] && [ "$(cat /sys/block/nullb0/queue/zoned)" != none ]; then
	cli_refuses "zoned device" create --level 0 /dev/nullb0 $N0
	cli_refuses "zoned device" spare add /dev/nullb0
	rmmod null_blk
else
	echo "(no zoned null_blk in this kernel: zoned member not tried)"
fi

AFTER=$(snapshot)
[ "$BEFORE" = "$AFTER" ] || fail "member contents changed by refused requests"
echo "members untouched by every refusal"

echo "--- members in use"
# A mounted filesystem.
mkfs.ext4 -q -F "$N3"
mkdir -p /mnt/m && mount "$N3" /mnt/m && echo keep >/mnt/m/keep
cli_refuses "in use" create --level 0 $N2 $N3
[ "$(cat /mnt/m/keep)" = keep ] || fail "mounted filesystem damaged"
umount /mnt/m
e2fsck -fn "$N3" >/dev/null || fail "filesystem on $N3 damaged"

# An md array.
mdadm --build /dev/md1 --level=0 --chunk=64 --raid-devices=2 "$S0" "$A0" </dev/null ||
	fail "mdadm --build"
dd if=/dev/urandom of=/dev/md1 bs=1M count=4 oflag=direct 2>/dev/null
mdsum=$(sum_mib /dev/md1 4)
cli_refuses "in use" create --level 0 $N2 $S0
[ "$(sum_mib /dev/md1 4)" = "$mdsum" ] || fail "md array data changed"
mdadm --stop /dev/md1 >/dev/null 2>&1

# A member of another VD; and a name that is taken.
vd=$(vd_create --level 0 --name taken $N0 $N1)
fio_verify "$vd" pre --rw=write --bs=64k --size=8M
expect_fail vraidctl create --level 0 $N1 $N2
expect_msg "in use"
expect_fail vraidctl create --level 0 --name taken $N2 $S1
expect_msg "taken"
[ "$(vd_count)" = 1 ] || fail "VD count changed"
fio --name=pre --filename="$vd" --rw=write --bs=64k --size=8M --direct=1 \
	--verify=crc32c --verify_only=1 --verify_fatal=1 >/dev/null ||
	fail "data of the existing VD changed"
# Jobs, spares and replace on a VD without redundancy (RAID0 above).
cli_refuses_vd() { # REGEX ARGS...: refused, and the VD is as it was
	local re=$1
	shift
	expect_fail vraidctl "$@"
	echo "vraidctl $*: $ERR" | head -n 2
	expect_msg "$re"
	[ "$(vd_count)" = 1 ] && [ "$(vd_attr $vd state)" = optimal ] &&
		[ "$(vd_attr $vd job)" = none ] || fail "vraidctl $* changed the VD"
}
cli_refuses_vd "redundancy" check "$vd"
cli_refuses_vd "redundancy" init "$vd"
cli_refuses_vd "redundancy" replace "$vd" $N1 $N2
cli_refuses_vd "no job|not running|nothing" job "$vd" pause
cli_refuses_vd "rate|12Q" job "$vd" rate 12Q
cli_refuses_vd "in use" spare add $N1
cli_refuses_vd "init|raid0|RAID0" create --level 0 --init background $N2 $S1
fio --name=pre --filename="$vd" --rw=write --bs=64k --size=8M --direct=1 \
	--verify=crc32c --verify_only=1 --verify_fatal=1 >/dev/null ||
	fail "data of the existing VD changed"
vd_delete "$vd"

echo "--- jobs, spares and replace, sent directly"
# raw_vd EXPECT ARGS...: like raw, with a VD in place (checked after)
raw_vd() {
	local want=$1
	shift
	vraid-raw --expect "$want" --want-message "$@" || fail "vraid-raw $*: not refused with $want"
}
vd=$(vd_create --level 1 --init fast --name r1 $N0 $N1)
fio_verify "$vd" pre --rw=write --bs=64k --size=8M
raw_vd EINVAL bad-action job 0 check
raw_vd EINVAL bad-rate job 0 rate
raw_vd EINVAL bad-rate 5 job 0 check
raw_vd EINVAL reserved cmd job 0 check
raw_vd EINVAL small job 0 check
raw_vd ENOENT job 9 check
raw_vd EINVAL bad-action spare add $N2
raw_vd EINVAL bad-flags spare add $N2
raw_vd EINVAL bad-dev spare add $N2
raw_vd EINVAL reserved cmd spare list
raw_vd EINVAL bad-dev replace 0 $N1 $N2
raw_vd EINVAL bad-dev same replace 0 $N1 $N2
raw_vd EINVAL bad-flags replace 0 $N1 $N2
raw_vd EINVAL replace 0 $N1 $N0
raw_vd ENODEV replace 0 $S0 $N2
raw_vd EPERM --drop-privs job 0 check
raw_vd EPERM --drop-privs replace 0 $N1 $N2
raw_vd EPERM --drop-privs spare add $N2
vraid-raw --drop-privs spare list || fail "spare list needs no privilege"
[ "$(vd_attr $vd state)" = optimal ] && [ "$(vd_attr $vd job)" = none ] ||
	fail "a refused request changed $vd"
vd_attr $vd members | grep -q "^1 ${N1#/dev/} " || fail "member 1 changed"
[ "$(vraidctl spare list --json)" = '{"spares":[]}' ] || fail "a spare appeared"
fio --name=pre --filename="$vd" --rw=write --bs=64k --size=8M --direct=1 \
	--verify=crc32c --verify_only=1 --verify_fatal=1 >/dev/null ||
	fail "data of $vd changed"
vd_delete "$vd"

echo "--- a VD as its own spare or replacement (deadlocked: found by the ioctl fuzzer)"
vd=$(vd_create --level 1 --init fast --name self $N0 $N1)
cli_refuses_vd "virtual drive" spare add "$vd"
vraidctl fail "$vd" "$N1" --force >/dev/null || fail "fail $N1 of $vd"
expect_fail vraidctl replace "$vd" role:1 "$vd"
echo "vraidctl replace $vd role:1 $vd: $ERR"
expect_msg "virtual drive"
[ "$(vd_attr $vd state)" = degraded ] || fail "$vd: $(vd_attr $vd state) after a refused replace"
[ "$(vraidctl spare list --json)" = '{"spares":[]}' ] || fail "a spare appeared"
vd_delete "$vd"
no_change end
echo "bad input: ok"
