#!/bin/sh
# Crash test, second boot on the same images: assembly finds the VD not
# shut down cleanly and resyncs it; every write crashio saw acknowledged
# is there; vraid's check and md's check (the md oracle) find the parity
# and copies consistent.  POLICY=journal: assembly without the journal is
# refused (it holds writes of the VD); the journal, attached first, says
# replay pending, and the kernel log names the VD; assembly replays it
# (unless a checkpoint ended after the last acknowledged write, leaving
# the journal empty: then the writes are on the members).
# Even ROUNDs let assemble --scan find and attach the journal instead.
# POLICY=awb: assembly warns that writes the volatile cache held may be
# lost.  DEGRADED=1 (a member failed in the first boot): the VD comes up
# Degraded, the failed member's blocks are read by reconstruction and
# must verify (the journal's parity records close the write hole); no
# resync or check, which need every member.
. "$(dirname "$0")/common.sh"
set -e
pending=0
# what a member's metadata says of the cache (vraidctl examine)
m1=$(echo $LM_DEVS | cut -d' ' -f1)
vraidctl examine "$m1" >/tmp/examine.out || { cat /tmp/examine.out; fail "examine $m1"; }
case "${POLICY:-}" in
awb) grep -Eq "^Write cache: +volatile \(write policy awb\): if it crashed" /tmp/examine.out ||
	{ cat /tmp/examine.out; fail "examine does not show the volatile cache"; } ;;
journal) grep -Eq "^Journal: +[0-9a-f-]{36}, from seq [0-9]+" /tmp/examine.out ||
	{ cat /tmp/examine.out; fail "examine does not name the journal"; } ;;
*) ! grep -Eq "^(Journal|Write cache):" /tmp/examine.out ||
	{ cat /tmp/examine.out; fail "examine shows a cache the VD did not have"; } ;;
esac
if [ "${POLICY:-}" = journal ]; then
	# crashio's log: its first record's magic ("CRASHO02" little-endian)
	# if any write was acknowledged
	logged=0
	[ "$(dd if="$LOGDEV" bs=512 count=1 2>/dev/null | head -c 8)" = 20OHSARC ] && logged=1
	if [ "$logged" = 1 ]; then
		# named members: assemble looks for no journal
		if vraidctl assemble $LM_DEVS >/tmp/asm.out 2>&1; then
			cat /tmp/asm.out
			fail "assembled without the journal that holds the VD's writes"
		fi
		cat /tmp/asm.out
		grep -qi journal /tmp/asm.out || fail "the refused assembly does not name the journal"
		[ "$(vd_count)" = 0 ] || fail "a VD appeared after the refused assembly"
	fi
	if [ $((${ROUND:-1} % 2)) = 0 ]; then
		# even rounds: assemble --scan finds and attaches the journal
		vraidctl assemble --scan >/tmp/asm.out 2>&1 || { cat /tmp/asm.out; fail "assemble --scan"; }
		cat /tmp/asm.out
		grep -q "journal .* attached" /tmp/asm.out ||
			fail "assemble --scan did not attach the journal"
		# a 128 MiB journal: the scan says what its ring caps, as
		# `controller journal DEV` does
		grep -q "^$JDEV: its ring of 127 MiB caps the cache's dirty data at 5.9 MiB while a RAID5/50" /tmp/asm.out ||
			fail "assemble --scan did not say what the small ring caps"
		scanned=1
		grep -q "it holds acknowledged writes of 1 virtual drive" /tmp/asm.out &&
			pending=1
	else
		vraidctl controller journal "$JDEV" >/tmp/journal.out 2>&1 ||
			{ cat /tmp/journal.out; fail "controller journal $JDEV"; }
		cat /tmp/journal.out
		st=$(journal_state)
		echo "journal on $JDEV: $st, $(journal_json)"
		case "$st" in
		replay-pending) pending=1 ;;
		healthy) ;;
		*) fail "journal state '$st' after the power cut" ;;
		esac
		[ "$pending" = 0 ] || [ "$(journal_num pending)" -ge 1 ] ||
			fail "replay pending for $(journal_num pending) VDs"
	fi
	# a checkpoint that ended after the last acknowledged write (one
	# around the cache waits for it, so crashio, writing one at a time,
	# logs nothing meanwhile) leaves the journal empty: those writes are
	# on the members (crashio verify below)
	[ "$pending" = 1 ] || [ "$logged" = 0 ] ||
		echo "the journal holds none of the VD's writes: a checkpoint ended after the last acknowledged one"
	# the kernel log names the VDs it waits for
	[ "$pending" = 0 ] || dmesg | grep -q "holds writes of VD [0-9a-f-]*: assemble it" ||
		fail "attach did not name the VD whose writes wait"
fi
[ -n "${scanned:-}" ] || vraidctl assemble --scan >/tmp/asm.out 2>&1 ||
	{ cat /tmp/asm.out; fail "assemble --scan"; }
vd=/dev/$(vraidctl list --json | grep -o '"vd":"vraid[0-9]*"' | head -n1 | cut -d'"' -f4)
[ -b "$vd" ] || fail "no VD after assemble"
dmesg | grep -q "not shut down cleanly" || fail "assembly did not notice the unclean shutdown"
# awb: the metadata's VOLATILE flag makes assembly say what may be lost
if [ "${POLICY:-}" = awb ]; then
	dmesg | grep -q "volatile cache: writes acknowledged but not flushed" ||
		fail "assembly did not warn of the volatile cache's loss"
else
	! dmesg | grep -q "volatile cache: writes acknowledged" ||
		fail "assembly warned of a volatile cache the VD did not have"
fi
if [ "${POLICY:-}" = journal ]; then
	[ "$pending" = 0 ] || dmesg | grep -E "vraid[0-9]+: replayed" ||
		fail "assembly did not replay the journal"
	# vraidctl assemble says what the kernel log does (ABI 1.10)
	rl=$(dmesg | grep -oE "vraid[0-9]+: replayed [0-9]+ writes? and [0-9]+ parity records?" | tail -n1)
	case "$rl" in
	"" | *" replayed 0 writes and 0 parity records") ;;
	*) grep -qF "$rl from the controller journal" /tmp/asm.out ||
		fail "vraidctl assemble did not say '$rl' ($(cat /tmp/asm.out))" ;;
	esac
	# every parity record resolved, those naming user records included
	! dmesg | grep -E "a PARITY entry that does not fit" ||
		fail "replay skipped parity records"
	[ "$(journal_state)" = healthy ] ||
		fail "journal state $(journal_state) after assembly: $(journal_json)"
	[ "$(journal_num pending)" = 0 ] || fail "still pending after assembly: $(journal_json)"
	expect_write "$vd" write_back
fi
if [ -n "${DEGRADED:-}" ]; then
	[ "$(vd_attr $vd state)" = degraded ] ||
		fail "state $(vd_attr $vd state), expected degraded (a member failed before the power cut)"
	crashio verify "$vd" "$LOGDEV" $BLOCKS ||
		fail "acknowledged writes lost (or read wrong by reconstruction: the write hole)"
	kmsg | grep -E "vraid[0-9]*: " | tail -n 12
	dmesg_check || fail "the kernel log shows problems"
	echo "RAID$LEVEL degraded: replayed after the power cut; every acknowledged write reads back, the failed member's by reconstruction"
	exit 0
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
strip_k=$(($(vd_attr $vd strip_size) / 1024))
vraidctl stop "$vd" >/dev/null
md_oracle $LEVEL "$strip_k" "$msz" "$size" "$head" 16 - $LM_DEVS

kmsg | grep -E "vraid[0-9]*: " | tail -n 12
dmesg_check || fail "the kernel log shows problems"
echo "RAID$LEVEL: resynced after the power cut; no acknowledged write lost; md check clean"
