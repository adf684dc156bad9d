#!/bin/sh
# Persisted hot spares (on-disk-format.rst, "Hot spare record"), as an
# administrator of mdadm or storcli expects them: a global spare and one
# dedicated to a RAID5 carry a record that examine shows and examine
# --export reports; after stop --all and a module reload (a reboot: the
# module keeps nothing) the pool is empty and `create` refuses a device
# holding a spare record without --force; assemble --scan gives both
# back with the same dedication, and so does assemble --incremental one
# device at a time, the spares appearing before their VD (dedicated to
# a VD not running yet, shown by its UUID).  A member of the RAID5
# fails: the dedicated spare takes its place, rebuilds, the data reads
# back, and its record became the VD's member metadata.  A spare
# dedicated to a deleted VD becomes global on its device too; spare
# remove and wipe --force erase the record.
# vm: --size 64M
# timeout: 600
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vraid.sh"
set -e

set -- $(mixed_members 7)
wipe_members "$@"
d1=$1 d2=$2 d3=$3 d4=$4 d5=$5 g=$6 s=$7

# reload: every VD stopped, the module unloaded and loaded again
reload() {
	vraidctl stop --all >/dev/null || fail "stop --all"
	rmmod vraid || fail "rmmod vraid"
	insmod "$VRAID_KO" ${VRAID_MODULE_ARGS:-} || fail "insmod"
	[ "$(vraidctl spare list)" = "no hot spares" ] ||
		fail "spares left after a module reload: $(vraidctl spare list)"
}
# vd_of UUID: /dev/vraidN of the running VD of that UUID
vd_of() {
	local f
	for f in /sys/block/vraid*/vraid/uuid; do
		[ "$(cat "$f")" = "$1" ] && { f=${f#/sys/block/}; echo "/dev/${f%%/*}"; return 0; }
	done
	fail "no running VD of UUID $1"
}
# spares_are WHAT: spare list --json's devices and dedications, sorted
spares_are() {
	local got
	got=$(vraidctl spare list --json | tr '{' '\n' | sed -n 's/.*"device":"\([^"]*\)".*"vd":"\([^"]*\)","vd_uuid":"\([^"]*\)".*/\1 \2 \3/p' | sort)
	[ "$got" = "$(printf '%s\n' "$@" | sort)" ] ||
		fail "spares: '$got', expected '$(printf '%s\n' "$@" | sort)' ($(vraidctl spare list))"
}
cleanup101() {
	set +e
	for d in /sys/block/vraid*; do
		[ -e "$d" ] && vraidctl delete "/dev/${d##*/}" --force >/dev/null 2>&1
	done
	[ -c /dev/vraid-control ] ||
		insmod "$VRAID_KO" ${VRAID_MODULE_ARGS:-} >/dev/null 2>&1
	for d in $g $s; do vraidctl spare remove $d >/dev/null 2>&1; done
	return 0
}
trap cleanup101 EXIT

va=$(vd_create --level 1 --init fast $d1 $d2)
vb=$(vd_create --level 5 --strip 16K --init fast $d3 $d4 $d5)
ua=$(vd_attr $va uuid)
ub=$(vd_attr $vb uuid)
vraidctl wait $vb >/dev/null
fio_verify $vb pre --rw=write --bs=64k --size=$(mb 8)
vraidctl spare add $g >/dev/null || fail "spare add $g"
vraidctl spare add $s --vd $vb >/dev/null || fail "spare add $s --vd $vb"
spares_are "$g  " "$s ${vb#/dev/} $ub"
vraidctl examine $g | grep -q "^Hot spare: *global" || { vraidctl examine $g; fail "examine $g: not a global spare"; }
vraidctl examine $s | grep -q "^Hot spare: *dedicated to VD $ub" || { vraidctl examine $s; fail "examine $s: not dedicated to $ub"; }
x=$(vraidctl examine --export $s)
echo "$x" | grep -qx "ID_FS_TYPE=vraid_member" || fail "examine --export $s: $x"
echo "$x" | grep -qx "VRAID_SPARE_FOR=$ub" || fail "examine --export $s: $x"
echo "$x" | grep -q "^VRAID_SPARE_UUID=." || fail "examine --export $s: $x"
vraidctl examine --export $g | grep -qx "VRAID_SPARE_FOR=global" || fail "examine --export $g"
vraidctl examine --json $s | grep -q "\"dedicated_to\":\"$ub\"" || fail "examine --json $s: $(vraidctl examine --json $s)"
spare_uuid=$(echo "$x" | sed -n 's/^VRAID_SPARE_UUID=//p')
echo "a global and a dedicated spare: recorded, examine and --export say so"

# ---- a reboot: assemble --scan ----
reload
expect_fail vraidctl create --level 1 $g $s
expect_msg "hot spare record"
expect_fail vraidctl create --level 1 $s $d1
expect_msg "hot spare record \(dedicated to VD $ub"
vraidctl assemble --scan >/tmp/asm.out 2>&1 || { cat /tmp/asm.out; fail "assemble --scan"; }
grep -q "$s: hot spare dedicated to VD $ub, back in the pool" /tmp/asm.out || { cat /tmp/asm.out; fail "assemble --scan did not give $s back"; }
vb=$(vd_of $ub)
spares_are "$g  " "$s ${vb#/dev/} $ub"
# the same spare: its UUID kept, a newer generation
vraidctl examine --export $s | grep -qx "VRAID_SPARE_UUID=$spare_uuid" || fail "$s has a new spare UUID after the reload"
echo "stop, reload, assemble --scan: both spares back, dedicated as before; create refused them"

# ---- a reboot: assemble --incremental, the spares first ----
reload
vraidctl assemble --incremental $s >/tmp/asm.out 2>&1 || { cat /tmp/asm.out; fail "assemble --incremental $s"; }
spares_are "$s  $ub"
vraidctl spare list | grep -q "VD $ub (not running)" || { vraidctl spare list; fail "spare list does not show the dedication to a VD not running"; }
vraidctl assemble --incremental $s >/tmp/asm.out 2>&1 || fail "assemble --incremental $s again"
grep -q "a hot spare already" /tmp/asm.out || { cat /tmp/asm.out; fail "second --incremental $s"; }
for d in $g $d1 $d2 $d3 $d4 $d5; do
	vraidctl assemble --incremental $d >/dev/null || fail "assemble --incremental $d"
done
va=$(vd_of $ua)
vb=$(vd_of $ub)
spares_are "$g  " "$s ${vb#/dev/} $ub"
[ "$(vd_attr $vb state)" = optimal ] || fail "$vb is $(vd_attr $vb state)"
echo "assemble --incremental, spares before their VD: back, dedicated as before"

# ---- the dedicated spare takes over and rebuilds ----
vraidctl fail $vb $d4 >/dev/null
i=0
until vd_attr $vb members | grep -q "^1 ${s#/dev/} "; do
	i=$((i + 1)); [ $i -lt 100 ] || { vd_attr $vb members; fail "dedicated spare $s not taken"; }
	sleep 0.2
done
vraidctl wait $vb >/dev/null || fail "rebuild onto $s"
[ "$(vd_attr $vb state)" = optimal ] || fail "not optimal after the rebuild"
fio_verify $vb pre --rw=write --bs=64k --size=$(mb 8) --verify_only
spares_are "$g  "
vraidctl examine --export $s | grep -qx "VRAID_UUID=$ub" || fail "$s after the take-over: $(vraidctl examine --export $s)"
vraidctl examine --export $s | grep -q "VRAID_SPARE" && fail "$s still reports a spare record"
echo "the dedicated spare took the failed member's place, rebuilt, is member metadata now"

# ---- the record follows the pool ----
vraidctl spare remove $g >/dev/null || fail "spare remove $g"
expect_fail vraidctl examine $g
vraidctl spare add $g --vd $va >/dev/null || fail "spare add $g --vd $va"
vraidctl examine $g | grep -q "dedicated to VD $ua" || fail "examine $g: not dedicated to $ua"
vd_delete $va
vraidctl examine $g | grep -q "^Hot spare: *global" || { vraidctl examine $g; fail "$g still dedicated to the deleted $va on disk"; }
spares_are "$g  "
vd_delete $vb
rmmod vraid || fail "rmmod"
insmod "$VRAID_KO" ${VRAID_MODULE_ARGS:-} || fail "insmod"
expect_fail vraidctl wipe $g
expect_msg "hot spare record"
vraidctl wipe $g --force >/dev/null || fail "wipe --force $g"
expect_fail vraidctl examine $g
vraidctl assemble --scan >/tmp/asm.out 2>&1
grep -q "$g" /tmp/asm.out && { cat /tmp/asm.out; fail "assemble --scan found $g after the wipe"; }
echo "spare remove erases the record; a deleted VD's spare is global on disk; wipe erases it"
