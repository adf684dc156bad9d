#!/bin/sh
# Metadata on the members: create writes both copies on every member with
# the VD's identity and geometry (vraidctl examine, human and JSON); a
# corrupted copy is reported and the other one still describes the VD;
# delete erases it; a blank device has none.
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
