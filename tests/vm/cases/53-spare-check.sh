#!/bin/sh
# Hot spares, consistency check and repair, background initialisation and
# job control:
#  - a global and a dedicated spare; a failed member is replaced by the
#    dedicated one automatically and rebuilt; data verifies; too-small,
#    busy and bogus spares are refused and change nothing; the rebuilds'
#    writes reach the spares as large (merged) requests;
#  - background init over members full of garbage, then a clean check,
#    whose reads reach the members as large requests;
#  - a parity mismatch planted on a member is found by check (data left
#    alone), fixed by check --repair, and a check after it is clean; the
#    same for a mirror copy;
#  - a job paused stays put, resumes, is stopped; a stopped init resumes
#    after stop + assemble and a paused one stays paused.
# vm: --size 64M --nvme 5
# timeout: 1500
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vraid.sh"
set -e

nth() { echo $2 | awk -v i=$(($1 + 1)) '{ print $i }'; }
all=$(mixed_members 9)
wipe_members $all

# ---- spares ----
set -- $all
vd=$(vd_create --level 5 --strip 16K $1 $2 $3 $4)
vd2=$(vd_create --level 1 --init fast $5 $6)
vraidctl wait "$vd" >/dev/null
fio_verify "$vd" pre --rw=write --bs=64k --size=$(mb 16)
expect_fail vraidctl spare add /dev/nonexistent
expect_msg "no such|not found|No such"
expect_fail vraidctl spare add "$1"
expect_msg "in use"
# Too small: a 4 MiB dm-linear slice of a disk.
echo "0 8192 linear $9 0" | dmsetup create small && dmsetup mknodes small
expect_fail vraidctl spare add /dev/mapper/small
expect_msg "too small"
dmsetup remove small
vraidctl spare add "$7" || fail "spare add $7"
vraidctl spare add "$8" --vd "$vd" || fail "spare add $8 --vd"
expect_fail vraidctl spare add "$8"
expect_msg "spare already"
expect_fail vraidctl replace "$vd" "$2" "$3"
expect_msg "member"
vraidctl spare list | grep -q "${8#/dev/}.*${vd#/dev/}" ||
	{ vraidctl spare list; fail "spare list does not show $8 dedicated to $vd"; }
[ "$(vraidctl spare list --json | grep -o '"device"' | wc -l)" = 2 ] ||
	fail "spare list --json does not list 2 spares"

before=$(member_reqs w $8)
vraidctl fail "$vd" "$2" >/dev/null
# The dedicated spare is taken at once (the global one stays).
i=0
until vd_attr $vd members | grep -q "^1 ${8#/dev/} "; do
	i=$((i + 1)); [ $i -lt 50 ] || fail "dedicated spare $8 not taken"
	sleep 0.2
done
vraidctl spare list | grep -q "${7#/dev/}" || fail "global spare $7 was taken too"
vraidctl wait "$vd" >/dev/null || fail "rebuild onto the spare failed"
[ "$(vd_attr $vd state)" = optimal ] || fail "not optimal after the spare rebuild"
# A job's step sends its columns' member I/Os together: they merge.
request_kb "RAID5: the rebuild's writes" 64 $before $(member_reqs w $8)
fio_verify "$vd" pre --rw=write --bs=64k --size=$(mb 16) --verify_only
pq_check 5 16384 1 1000 $1 $8 $3 $4
# The global spare serves the other VD.
before=$(member_reqs w $7)
vraidctl fail "$vd2" "$6" >/dev/null
i=0
until vd_attr $vd2 members | grep -q "^1 ${7#/dev/} "; do
	i=$((i + 1)); [ $i -lt 50 ] || fail "global spare $7 not taken by $vd2"
	sleep 0.2
done
vraidctl wait "$vd2" >/dev/null || fail "rebuild of $vd2 failed"
request_kb "RAID1: the rebuild's writes" 64 $before $(member_reqs w $7)
[ "$(vraidctl spare list --json)" = '{"spares":[]}' ] ||
	fail "spares left: $(vraidctl spare list --json)"
expect_fail vraidctl spare remove "$7"
expect_msg "not a hot spare"
vd_delete "$vd"
vd_delete "$vd2"
echo "spares: dedicated first, then global; rebuilt; bad spares refused"

# ---- background init over garbage, then check, plant, repair ----
plant() { # DEV SECTOR: overwrite 4 KiB of a member's data area
	dd if=/dev/urandom of="$1" bs=512 seek=$((DATA_OFFSET + $2)) count=8 \
		oflag=direct conv=notrunc 2>/dev/null
}
check_count() { # VD [--repair]: run a check, print its mismatch count
	vraidctl check "$@" >/dev/null || fail "check $* did not start"
	vraidctl wait "$1" >/dev/null || fail "check $* failed"
	vd_attr $1 mismatch_cnt
}
for lvl in 5 6 1 10; do
	level_members $lvl
	for d in $LM_DEVS; do
		dd if=/dev/urandom of=$d bs=1M seek=8 count=40 oflag=direct 2>/dev/null
	done
	vd=$(vd_create $LM_OPTS --strip 16K --init background $LM_DEVS)
	fio_verify "$vd" during-init --rw=randwrite --bs=4k --size=$(mb 8) --iodepth=8
	vraidctl wait "$vd" >/dev/null || fail "RAID$lvl: init failed"
	before=$(member_reqs r $LM_DEVS)
	n=$(check_count "$vd")
	[ "$n" = 0 ] || fail "RAID$lvl: $n mismatches after background init"
	request_kb "RAID$lvl: the check's reads" 64 $before $(member_reqs r $LM_DEVS)
	fio_verify "$vd" during-init --rw=randwrite --bs=4k --size=$(mb 8) --verify_only
	before=$(sum_mib "$vd" 8)
	# Row 3 (16 KiB strips: 32 sectors a row): P is on member 0 of
	# the 4-member RAID5 and on member 1 of the 5-member RAID6; member 1
	# holds the second copy of a mirror.  The data stays as it was.
	case $lvl in 5) r=0 ;; *) r=1 ;; esac
	plant $(nth $r "$LM_DEVS") $((3 * 32))
	n=$(check_count "$vd")
	[ "$n" -ge 1 ] || fail "RAID$lvl: check found no mismatch after planting one"
	n=$(check_count "$vd" --repair)
	[ "$n" -ge 1 ] || fail "RAID$lvl: repair found no mismatch"
	n=$(check_count "$vd")
	[ "$n" = 0 ] || fail "RAID$lvl: $n mismatches after repair"
	[ "$(sum_mib "$vd" 8)" = "$before" ] || fail "RAID$lvl: repair changed the data"
	echo "RAID$lvl: init over garbage clean; planted mismatch found and repaired"
	vd_delete "$vd"
done

# ---- job control ----
set -- $all
vd=$(vd_create --level 5 --strip 16K --init fast $1 $2 $3 $4)
vraidctl job "$vd" rate 1M >/dev/null
vraidctl check "$vd" >/dev/null
expect_fail vraidctl check "$vd"
expect_msg "busy with a check|running a check"
vraidctl job "$vd" pause >/dev/null
sleep 1
p1=$(vd_attr $vd job_progress)
sleep 2
[ "$(vd_attr $vd job_progress)" = "$p1" ] || fail "a paused check moved on"
[ "$(vd_attr $vd job)" = "check paused" ] || fail "job is '$(vd_attr $vd job)'"
vraidctl show "$vd" | grep -qi "paused" || fail "show does not say paused"
vraidctl job "$vd" resume >/dev/null
sleep 2
[ "$(vd_attr $vd job_progress)" != "$p1" ] || fail "a resumed check did not move"
vraidctl job "$vd" stop >/dev/null
[ "$(vd_attr $vd job)" = none ] || fail "stopped check still '$(vd_attr $vd job)'"
expect_fail vraidctl job "$vd" pause
expect_msg "no job"
vd_delete "$vd"

# A stopped init resumes at assembly from its checkpoint; paused stays so.
vd=$(vd_create --level 5 --strip 16K $1 $2 $3 $4)
vraidctl job "$vd" rate 2M >/dev/null
sleep 6
vraidctl stop "$vd" >/dev/null
vraidctl examine "$1" | grep -qi "init" || fail "examine does not show the init checkpoint"
vraidctl assemble $1 $2 $3 $4 >/dev/null
vd_attr $vd job | grep -q "^init running" || fail "init not resumed: $(vd_attr $vd job)"
set -- $(vd_attr $vd job_progress)
[ "$1" -gt 0 ] || fail "init restarted from 0 instead of its checkpoint"
vraidctl job "$vd" pause >/dev/null
set -- $all
vraidctl stop "$vd" >/dev/null
vraidctl assemble $1 $2 $3 $4 >/dev/null
[ "$(vd_attr $vd job)" = "init paused" ] || fail "paused init came back as '$(vd_attr $vd job)'"
vraidctl job "$vd" resume >/dev/null
vraidctl job "$vd" rate none >/dev/null
vraidctl wait "$vd" >/dev/null || fail "resumed init failed"
[ "$(check_count "$vd")" = 0 ] || fail "mismatches after a resumed init"
vd_delete "$vd"
echo "jobs: pause, resume, stop; init resumes after stop/assemble"
