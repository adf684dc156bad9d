#!/bin/sh
# A job's rate limit holds below one step a second (issue: ready for a
# real server).  `job VD rate 4K` on a RAID1 init: a step is 512 KiB or
# more, so at 4 KiB/s the job does its first step and then waits about
# two minutes; 10 s later it must not be past its second step.  Before
# the fix the throttle slept at most a second per step, so the init ran
# at a step a second (about 500 KiB/s).  Then `rate none` lets it run
# again at once.
# timeout: 300
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vraid.sh"
set -e

# done_sectors VD: member sectors the job has done
done_sectors() {
	awk '{ print $1 }' "/sys/block/${1#/dev/}/vraid/job_progress"
}

vd=$(vd_create --level 1 --init background $(mixed_members 2))
vraidctl job "$vd" rate 4K >/dev/null || fail "job rate 4K"
case "$(vd_attr "$vd" job)" in init*) ;; *) fail "no init running: $(vd_attr "$vd" job)" ;; esac
sleep 2
d0=$(done_sectors "$vd")
sleep 10
d1=$(done_sectors "$vd")
echo "at 4 KiB/s: $d0 then, 10 s later, $d1 member sectors done"
# two steps of at most 4 MiB each would be 16384 sectors; at a step a
# second (the defect) it is far more
[ $((d1 - d0)) -le 8192 ] ||
	fail "the init did $(((d1 - d0) / 2)) KiB in 10 s at rate 4K: the limit is not held"
# a new rate ends the throttle's wait at once
vraidctl job "$vd" rate none >/dev/null || fail "job rate none"
i=0
while [ "$(done_sectors "$vd")" = "$d1" ]; do
	i=$((i + 1))
	[ $i -lt 50 ] || fail "the init did not go on within 5 s of rate none"
	sleep 0.1
done
vraidctl wait "$vd" >/dev/null || fail "wait for the init"
case "$(vd_attr "$vd" job)" in none*) ;; *) fail "job $(vd_attr "$vd" job) after wait" ;; esac
vd_delete "$vd"
echo "job rate: ok"
