#!/bin/sh
# Rebuild, for every redundant level: after a background initialisation,
# data is written (fio, crc32c), a member is failed and `vraidctl replace`
# rebuilds onto a fresh device while fio writes and verifies new data and
# verifies the old.  When the rebuild ends the VD is Optimal, the
# parity / copies on the raw members match a naive model (pqref), md
# over the same members reads the same bytes and its check is clean (the
# md oracle), and the data read with the rebuilt member as the only
# source of its blocks (other members failed) still verifies.
# vm: --size 64M --nvme 5
# timeout: 1800
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vraid.sh"
set -e

nth() { echo $2 | awk -v i=$(($1 + 1)) '{ print $i }'; }

# Roles to fail once the rebuild is done, so that the rebuilt member (role
# 1) must serve: its mirror partners, or other members of its span.
others() {
	case $1 in
	1) echo "0 2" ;;
	10) echo "0" ;;
	5) echo "0" ;;
	6) echo "0 2" ;;
	50) echo "0" ;;
	60) echo "0 2" ;;
	esac
}

run_level() {
	local lvl=$1 vd spare victim new members spans=1 msz size head pid r
	level_members $lvl
	spare=$(for d in $NVME_DEVS $SATA_DEVS $SAS_DEVS; do
		case " $LM_DEVS " in *" $d "*) ;; *) echo $d ;; esac
	done | head -n1)
	[ -n "$spare" ] || fail "no device left for the replacement"
	wipe_members $LM_DEVS $spare
	vd=$(vd_create $LM_OPTS --strip 16K $LM_DEVS)
	vraidctl wait "$vd" >/dev/null || fail "RAID$lvl: init did not finish"
	[ "$(vd_attr $vd last_job)" = "init 0" ] ||
		fail "RAID$lvl: last job '$(vd_attr $vd last_job)', want 'init 0'"

	fio_verify "$vd" old --rw=write --bs=64k --size=$(mb 24)
	victim=$(nth 1 "$LM_DEVS")
	vraidctl fail "$vd" "$victim" >/dev/null
	[ "$(vd_attr $vd state)" = degraded ] || fail "RAID$lvl: not degraded"
	# Slow (1 MiB/s per member: about a minute for the 56 MiB data
	# area) so that the writes below land while it runs; the rate is
	# lifted as soon as they are done.
	vraidctl job "$vd" rate 1M >/dev/null
	vraidctl replace "$vd" "$victim" "$spare" >/dev/null ||
		fail "RAID$lvl: replace failed"
	[ "$(vd_attr $vd state)" = rebuilding ] ||
		fail "RAID$lvl: state $(vd_attr $vd state) while rebuilding"
	vd_attr $vd job | grep -q "^rebuild running" ||
		fail "RAID$lvl: job is '$(vd_attr $vd job)'"
	fio_verify "$vd" new --rw=randwrite --bs=4k --offset=$(mb 24) --size=$(mb 8) \
		--iodepth=8
	vd_attr $vd job | grep -q "^rebuild" ||
		fail "RAID$lvl: the rebuild ended before the writes did; the test proves less"
	fio_verify "$vd" old --rw=write --bs=64k --size=$(mb 24) --verify_only
	vraidctl job "$vd" rate none >/dev/null
	vraidctl wait "$vd" >/dev/null || fail "RAID$lvl: rebuild failed"
	[ "$(vd_attr $vd state)" = optimal ] ||
		fail "RAID$lvl: state $(vd_attr $vd state) after the rebuild"
	members=$(echo " $LM_DEVS " | sed "s| $victim | $spare |")
	vd_attr $vd members | grep -q "^1 ${spare#/dev/} .* online " ||
		fail "RAID$lvl: role 1 is not the online $spare"
	case $lvl in 50|60) spans=2 ;; esac
	pq_check $lvl 16384 $spans 600 $members

	# The md oracle over the members as they are now.
	msz=$(vd_attr $vd member_size)
	size=$(blockdev --getsz "$vd")
	head=$(sum_mib "$vd" 32)
	vraidctl stop "$vd" >/dev/null
	md_oracle $lvl 16 "$msz" "$size" "$head" 32 - $members
	vraidctl assemble $members >/dev/null || fail "RAID$lvl: assemble"

	# The rebuilt member alone serves its blocks now.
	for r in $(others $lvl); do
		vraidctl fail "$vd" "$(nth $r "$members")" >/dev/null
	done
	fio_verify "$vd" old --rw=write --bs=64k --size=$(mb 24) --verify_only
	fio_verify "$vd" new --rw=randwrite --bs=4k --offset=$(mb 24) --size=$(mb 8) \
		--iodepth=8 --verify_only
	vd_delete "$vd"
	echo "RAID$lvl: rebuilt onto $spare under I/O; md oracle clean"
}

for lvl in 1 5 6 10 50 60; do
	run_level $lvl
done
