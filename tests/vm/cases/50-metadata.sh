#!/bin/sh
# Metadata on the members: create writes both copies on every member with
# the VD's identity and geometry (vraidctl examine, human and JSON), and
# show and sysfs name the VD by the same UUID and each member's disk by
# its model and serial number; a corrupted copy is reported and the other
# one still describes the VD; delete erases it; a blank device has none.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vraid.sh"
set -e

members=$(mixed_members 4)
zero_members 1 $members
# --init fast: no init job writing checkpoints (generations) meanwhile.
vd=$(vd_create --level 5 --strip 32K --init fast --name meta5 $members)
size=$(($(blockdev --getsz "$vd") * 512))
uuid=""
role=0
for m in $members; do
	vraidctl examine "$m" >/tmp/ex || { cat /tmp/ex; fail "examine $m failed"; }
	j=$(vraidctl examine --json "$m")
	echo "$j" | grep -q '"copies":\[{"copy":"A","offset_bytes":4096,"status":"valid","generation":1},{"copy":"B","offset_bytes":1048576,"status":"valid"' ||
		fail "$m: copies not both valid: $j"
	echo "$j" | grep -q "\"name\":\"meta5\",\"level\":\"raid5\",\"nr_members\":4,\"role\":$role," ||
		fail "$m: wrong identity/role: $j"
	echo "$j" | grep -q "\"strip_bytes\":32768,\"spans\":0,\"size_bytes\":$size," ||
		fail "$m: wrong geometry: $j"
	u=$(echo "$j" | sed 's/.*"vd_uuid":"\([^"]*\)".*/\1/')
	[ -z "$uuid" ] && uuid=$u
	[ "$u" = "$uuid" ] || fail "$m: VD UUID $u differs from $uuid"
	role=$((role + 1))
done
cat /tmp/ex
echo "all members carry VD $uuid"

# show and sysfs: the same UUID; each member's disk by the model and
# serial its driver reports (run-in-vm gives every QEMU disk a serial:
# NVMe VRNVMEnn from the controller; SATA VRSATAnn and SAS VRSASnn from
# VPD page 0x80)
j=$(vraidctl show --json "$vd")
echo "$j" | grep -q ",\"uuid\":\"$uuid\"}\$" || fail "show --json: not UUID $uuid: $j"
assert_eq "$(cat "/sys/block/${vd#/dev/}/vraid/uuid")" "$uuid" "sysfs uuid of $vd"
vraidctl show "$vd" >/tmp/show
grep -qx "UUID: *$uuid" /tmp/show || { cat /tmp/show; fail "show: no UUID line"; }
for m in $members; do
	o=$(echo "$j" | grep -o "{[^{}]*\"device\":\"$m\"[^{}]*}")
	model=$(echo "$o" | sed -n 's/.*"model":"\([^"]*\)".*/\1/p')
	serial=$(echo "$o" | sed -n 's/.*"serial":"\([^"]*\)".*/\1/p')
	echo "$m: model '$model', serial '$serial'"
	want=
	case " $NVME_DEVS " in *" $m "*) want=VRNVME ;; esac
	case " $SATA_DEVS " in *" $m "*) want=VRSATA ;; esac
	case " $SAS_DEVS " in *" $m "*) want=VRSAS ;; esac
	[ -n "$want" ] || continue
	[ -n "$model" ] || fail "$m: no model in show --json: $o"
	case $serial in
	$want[0-9][0-9]) ;;
	*) fail "$m: serial '$serial', want $want and two digits: $o" ;;
	esac
	grep -q "^ *[0-9]*  $m  .*  $serial\$" /tmp/show ||
		{ cat /tmp/show; fail "show: no $m row with serial $serial"; }
done

# A member failure is recorded on the members that are left.
set -- $members
vraidctl fail "$vd" "$4" || fail "vraidctl fail $4"
for i in $(seq 1 50); do
	j=$(vraidctl examine --json "$1")
	echo "$j" | grep -q '"generation":2' && break
	sleep 0.1
done
echo "$j" | grep -q '"status":"valid","generation":2' || fail "no generation 2 after a failure: $j"
echo "$j" | grep -q '{"role":3,"uuid":"[^"]*","state":"failed"' ||
	fail "member 3 not recorded failed: $j"
vraidctl examine --json "$4" | grep -q '"generation":1' ||
	fail "the failed member's own metadata was touched"

# A torn/corrupted copy A: reported bad, copy B still answers.
printf 'garbage' | dd of="$1" bs=1 seek=4200 conv=notrunc 2>/dev/null
sync
j=$(vraidctl examine --json "$1")
echo "$j" | grep -q '"copy":"A","offset_bytes":4096,"status":"bad","error":"metadata checksum mismatch' ||
	fail "corrupt copy A not reported: $j"
echo "$j" | grep -q "\"vd_uuid\":\"$uuid\"" || fail "copy B not used: $j"
vraidctl examine "$1" | grep -q "Copy A: *bad: metadata checksum mismatch" ||
	fail "human examine does not show the bad copy"

vd_delete "$vd"
# Delete erases the metadata of every member it holds, the failed one
# too: nothing is left that `assemble` could bring up.
for m in $members; do
	if vraidctl examine "$m" >/tmp/ex 2>&1; then
		cat /tmp/ex
		fail "$m still has metadata after delete"
	fi
	grep -q "no valid vraid metadata" /tmp/ex || { cat /tmp/ex; fail "examine message"; }
done
echo "metadata: ok"
