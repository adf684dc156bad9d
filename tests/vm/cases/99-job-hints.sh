#!/bin/sh
# The hints after an init stopped by a member failure and after a
# refused replace (issue 45): a RAID5 initialising (slowly, rate 1M)
# loses a member; `vraidctl wait` then fails, says the VD is Degraded and
# that the init goes on once the failed member is replaced and rebuilt
# (not "go on with: vraidctl job VD resume", which the module refuses,
# as `job resume` shows); replacing an Online member, which would take
# the Degraded VD Offline, is refused with a hint that says so (not that
# the new device is in use); the replace of the failed member rebuilds
# it and the init goes on by itself and ends.
# timeout: 420
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vraid.sh"
set -e

require_devs 4 $NVME_DEVS
set -- $NVME_DEVS
a=$1 b=$2 c=$3 d=$4
wipe_members $a $b $c $d
vd=$(vd_create --level 5 --init background $a $b $c)
vraidctl job "$vd" rate 1M >/dev/null || fail "job rate 1M"
case "$(vd_attr "$vd" job)" in init*) ;; *) fail "no init running: $(vd_attr "$vd" job)" ;; esac
vraidctl fail "$vd" "$b" >/dev/null || fail "fail $b"
i=0
until case "$(vd_attr "$vd" job)" in none*) true ;; *) false ;; esac; do
	i=$((i + 1))
	[ $i -lt 100 ] || fail "the init still runs 10 s after a member failed: $(vd_attr "$vd" job)"
	sleep 0.1
done
echo "last job: $(vd_attr "$vd" last_job)"
out=$(vraidctl wait "$vd" 2>&1) && fail "wait succeeded after the init stopped: $out"
echo "$out"
echo "$out" | grep -qF "is Degraded: the init goes on by itself once the failed member is replaced and rebuilt: vraidctl replace ${vd#/dev/} MEMBER NEWDEV" ||
	fail "wait after the stopped init said: $out"
echo "$out" | grep -q "job .* resume" && fail "wait still hints at job resume: $out"
out=$(vraidctl job "$vd" resume 2>&1) && fail "job resume succeeded on the Degraded VD: $out"
echo "$out" | grep -qF "needs every member" || fail "job resume said: $out"
# replacing an Online member would take the VD Offline
out=$(vraidctl replace "$vd" "$a" "$d" 2>&1) && fail "replace of an Online member of the Degraded RAID5 succeeded: $out"
echo "$out"
echo "$out" | grep -qF "replace fails an online member before rebuilding onto the new device" ||
	fail "replace of an Online member: $out"
echo "$out" | grep -qF "the new device is in use" && fail "replace hint says the new device is in use: $out"
assert_eq "$(vd_attr "$vd" state)" degraded "state after the refused replace"
# the failed member replaced: rebuild, then the init goes on and ends
vraidctl job "$vd" rate none >/dev/null || fail "job rate none"
vraidctl replace "$vd" "$b" "$d" >/dev/null || fail "replace $b $d"
i=0
until [ "$(vd_attr "$vd" state)" = optimal ] &&
	case "$(vd_attr "$vd" job)" in none*) true ;; *) false ;; esac &&
	[ "$(vd_attr "$vd" last_job)" = "init 0" ]; do
	i=$((i + 1))
	[ $i -lt 300 ] || fail "no finished init 300 s after the replace: state $(vd_attr "$vd" state), job $(vd_attr "$vd" job), last $(vd_attr "$vd" last_job)"
	sleep 1
done
out=$(vraidctl wait "$vd" 2>&1) || fail "wait after the init went on: $out"
echo "$out"
vd_delete "$vd"
wipe_members $a $b $c $d
echo "job hints: ok"
