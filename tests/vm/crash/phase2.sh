#!/bin/sh
# Crash test, second boot on the same images: assembly finds the VD not
# shut down cleanly and resyncs it; every write crashio saw acknowledged
# is there; vraid's check and md's check (the md oracle) find the parity
# and copies consistent.  POLICY=journal: assembly without the journal is
# refused (it holds writes of the VD); the journal, attached first, says
# replay pending; assembly replays it.
. "$(dirname "$0")/common.sh"
set -e
pending=0
if [ "${POLICY:-}" = journal ]; then
	# crashio's log: its first record's magic ("CRASHO01" little-endian)
	# if any write was acknowledged
	logged=0
	[ "$(dd if="$LOGDEV" bs=512 count=1 2>/dev/null | head -c 8)" = 10OHSARC ] && logged=1
	if [ "$logged" = 1 ]; then
		if vraidctl assemble --scan >/tmp/asm.out 2>&1; then
			cat /tmp/asm.out
			fail "assembled without the journal that holds the VD's writes"
		fi
		cat /tmp/asm.out
		grep -qi journal /tmp/asm.out || fail "the refused assembly does not name the journal"
		[ "$(vd_count)" = 0 ] || fail "a VD appeared after the refused assembly"
	fi
	vraidctl controller journal "$JDEV" >/tmp/journal.out 2>&1 ||
		{ cat /tmp/journal.out; fail "controller journal $JDEV"; }
	cat /tmp/journal.out
	st=$(journal_state)
	echo "journal on $JDEV: $st, $(journal_json)"
	case "$st" in
	replay-pending) pending=1 ;;
	healthy) [ "$logged" = 0 ] || fail "the journal holds no writes to replay after acknowledged writes" ;;
	*) fail "journal state '$st' after the power cut" ;;
	esac
	[ "$pending" = 0 ] || [ "$(journal_num pending)" -ge 1 ] ||
		fail "replay pending for $(journal_num pending) VDs"
fi
vraidctl assemble --scan >/tmp/asm.out 2>&1 || { cat /tmp/asm.out; fail "assemble --scan"; }
vd=/dev/$(vraidctl list --json | grep -o '"vd":"vraid[0-9]*"' | head -n1 | cut -d'"' -f4)
[ -b "$vd" ] || fail "no VD after assemble"
dmesg | grep -q "not shut down cleanly" || fail "assembly did not notice the unclean shutdown"
if [ "${POLICY:-}" = journal ]; then
	[ "$pending" = 0 ] || dmesg | grep -E "vraid[0-9]+: replayed" ||
		fail "assembly did not replay the journal"
	[ "$(journal_state)" = healthy ] ||
		fail "journal state $(journal_state) after assembly: $(journal_json)"
	[ "$(journal_num pending)" = 0 ] || fail "still pending after assembly: $(journal_json)"
	expect_write "$vd" write_back
fi
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
