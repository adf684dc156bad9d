#!/bin/sh
# A metadata write that filled its record before a replace must never
# write it onto the new device (issue: data safety; found by the review
# of the per-member rebuild positions).  vraid_md_work() records a member
# failure on the members without vraid_ctl_mutex; a replace of that role
# published the new device while the write was between its fill and its
# writes, and the write then put the record filled for the old device -
# the role's old UUID, state and rebuild position - onto the new one.  A
# power cut before the replace's own record would have left assembly
# trusting the new device's blocks as the old device's.
#   RAID1 of a and b; every metadata write holds its record 4 s after
#   filling it and 4 s after writing it (debug_md_write_delay_ms);
#   fail b (its record is filled, then held); replace b with n meanwhile;
#   5 s later n must hold no record yet: the replace waits for that write
#   to end, then writes its own.  Before the fix n held the old record.
# timeout: 300
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vraid.sh"
set -e

DELAY=/sys/module/vraid/parameters/debug_md_write_delay_ms
[ -w $DELAY ] || fail "$DELAY missing: the module has no metadata write delay knob"
trap 'echo 0 >$DELAY' EXIT

set -- $(mixed_members 3)
a=$1 b=$2 n=$3
zero_members 16 "$a" "$b" "$n"
vd=$(vd_create --level 1 --init fast "$a" "$b")
expect_fail vraidctl examine "$n"

echo 4000 >$DELAY
expect_ok vraidctl fail "$vd" "$b"
vraidctl replace "$vd" "$b" "$n" >/tmp/replace.out 2>&1 &
rpid=$!
sleep 5
# the failure's record was written 4 s after its fill; the replace's
# comes at least 4 s after that write ended
if vraidctl examine "$n" >/tmp/examine.out 2>&1; then
	cat /tmp/examine.out
	fail "$n holds a metadata record while the failure's write was still under way: a record filled before the replace reached the new device"
fi
echo "5 s into the replace, $n holds no record yet"
wait $rpid || { cat /tmp/replace.out; fail "replace $b with $n failed"; }
echo 0 >$DELAY

# the replace's own record names n, role 1, rebuilding (or rebuilt)
expect_ok vraidctl examine "$n" --json
echo "$OUT" | tr -d ' \n' | grep -o '{"role":1,[^}]*}' |
	grep -Eq '"state":"(rebuilding|online)"' ||
	fail "$n's record does not say role 1 is rebuilding or online: $OUT"
vraidctl wait "$vd" >/dev/null || fail "the rebuild onto $n failed"
[ "$(vd_attr "$vd" state)" = optimal ] ||
	fail "$vd is $(vd_attr "$vd" state) after the rebuild"
vd_delete "$vd"
dmesg_check || fail "the kernel log shows problems"
echo "a metadata write filled before a replace never reaches the new device"
