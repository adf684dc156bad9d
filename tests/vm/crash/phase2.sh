#!/bin/sh
# Crash test, second boot on the same images: assembly finds the VD not
# shut down cleanly and resyncs it; every write crashio saw acknowledged
# is there; vraid's check and md's check (the md oracle) find the parity
# and copies consistent.
. "$(dirname "$0")/common.sh"
set -e
vraidctl assemble --scan >/tmp/asm.out 2>&1 || { cat /tmp/asm.out; fail "assemble --scan"; }
vd=/dev/$(vraidctl list --json | grep -o '"vd":"vraid[0-9]*"' | head -n1 | cut -d'"' -f4)
[ -b "$vd" ] || fail "no VD after assemble"
dmesg | grep -q "not shut down cleanly" || fail "assembly did not notice the unclean shutdown"
vraidctl wait "$vd" >/dev/null || fail "resync failed"
[ "$(vd_attr $vd last_job)" = "resync 0" ] ||
	fail "last job '$(vd_attr $vd last_job)', want 'resync 0'"
crashio verify "$vd" "$LOGDEV" $BLOCKS || fail "acknowledged writes lost"
vraidctl check "$vd" >/dev/null
vraidctl wait "$vd" >/dev/null
[ "$(vd_attr $vd mismatch_cnt)" = 0 ] ||
	fail "vraid check: $(vd_attr $vd mismatch_cnt) mismatches after the resync"
msz=$(vd_attr $vd member_size)
size=$(blockdev --getsz "$vd")
head=$(sum_mib "$vd" 16)
vraidctl stop "$vd" >/dev/null
md_oracle $LEVEL 16 "$msz" "$size" "$head" 16 - $LM_DEVS

kmsg | grep -E "vraid[0-9]*: " | tail -n 12
dmesg_check || fail "the kernel log shows problems"
echo "RAID$LEVEL: resynced after the power cut; no acknowledged write lost; md check clean"
