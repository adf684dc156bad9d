#!/bin/sh
# Write-hole test, second boot on the same disks, no dm: the journal,
# attached, says replay pending; assembly brings the VD up Degraded (MM
# failed) and replays the journal.  D_m, which only reconstruction reads
# (from D_w and the parity on X), must read as it was written before the
# power cut: the replay has to make the row's parity match D_w.  Without
# that D_m reads wrong (RAID5: D_w(new) ^ P(old)), the write hole.  D_w
# reads its new data and every other 4 KiB of the first MiB what
# hole1.sh wrote.  Geometry and disks as in hole1.sh (hole.sh).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vraid.sh"
set -e
. "$(dirname "$0")/hole.sh"

# REF: the first MiB as it was, the new D_w, the old parity (hole1.sh)
dd if="$REF" of=/tmp/ref bs=4k count=256 iflag=direct 2>/dev/null
dd if="$REF" of=/tmp/dw.new bs=4k skip=256 count=1 iflag=direct 2>/dev/null
dd if="$REF" of=/tmp/p.old bs=4k skip=257 count=1 iflag=direct 2>/dev/null
dd if=/dev/zero of=/tmp/zero bs=4k count=1 2>/dev/null
! cmp -s /tmp/dw.new /tmp/zero || fail "no D_w on $REF: the first boot did not get there"

vd=$(replay_assemble "$JDEV") || exit 1
kmsg | grep -qE "vraid[0-9]+: replayed" || fail "assembly did not replay the journal"
# the destage of D_w logged a parity record, which the replay wrote
kmsg | grep -qE "vraid[0-9]+: replayed [0-9]+ writes? and [1-9][0-9]* parity records?" ||
	fail "assembly replayed no parity record: $(kmsg | grep -E 'vraid[0-9]+: replayed')"
! kmsg | grep -E "a PARITY entry that does not fit" ||
	fail "replay skipped a parity record"
[ "$(vd_attr "$vd" state)" = degraded ] || fail "state $(vd_attr "$vd" state), expected degraded"
m2=$(majmin "$MM")
vd_attr "$vd" members
vd_attr "$vd" members | awk -v d="$m2" '$3 == d && $4 == "online" { bad = 1 } END { exit bad }' ||
	fail "$MM, failed before the power cut, is back online"
[ "$(journal_state)" = healthy ] || fail "journal state $(journal_state) after assembly"
vraidctl wait "$vd" >/dev/null || fail "wait for $vd's jobs"

# what the VD must read: the first MiB with the new D_w
dd if=/tmp/ref of=/tmp/want bs=4k count=$DW 2>/dev/null
cat /tmp/dw.new >>/tmp/want
dd if=/tmp/ref bs=4k skip=$((DW + 1)) 2>/dev/null >>/tmp/want
dd if="$vd" of=/tmp/got bs=1M count=1 iflag=direct 2>/dev/null || fail "read of $vd"
[ "$(wc -c </tmp/got) $(wc -c </tmp/want)" = "1048576 1048576" ] ||
	fail "short reads: $(wc -c </tmp/got) bytes of $vd, $(wc -c </tmp/want) of $REF"
bad=$(cmp -l /tmp/got /tmp/want | awk '{ print int(($1 - 1) / 4096) }' | uniq | tr '\n' ' ')
nbad=0
for b in $bad; do
	nbad=$((nbad + 1))
	case $b in
	$DM) echo "FAIL: D_m (VD sector $((DM * 8)), on the failed $MM, read by reconstruction) is not what was written: the write hole" >&2 ;;
	$DW) echo "FAIL: D_w (VD sector $((DW * 8)), on $MW) does not read the write before the power cut" >&2 ;;
	*) echo "FAIL: VD sector $((b * 8)) (4 KiB) is not what was written" >&2 ;;
	esac
done
# when D_m is wrong: is the parity on X the one from before the write,
# and (RAID5) does D_m read D_w ^ that P (the stale P's reconstruction)?
if echo " $bad " | grep -q " $DM "; then
	dd if="$X" of=/tmp/p.now bs=512 skip=$PSEC count=8 iflag=direct 2>/dev/null
	cmp -s /tmp/p.old /tmp/p.now &&
		echo "the parity on X (sector $PSEC of $X) is the one before the write of D_w"
	dd if=/tmp/got bs=4k skip=$DM count=1 2>/dev/null >/tmp/dm.got
	for f in dm.got dw.new p.now; do
		od -An -v -tu1 /tmp/$f | tr -s ' ' '\n' | grep . >/tmp/$f.u1
	done
	[ "$LEVEL" = 5 ] && paste /tmp/dm.got.u1 /tmp/dw.new.u1 /tmp/p.now.u1 |
		awk '{ if (xor($1, $2) != $3) n++ } END { exit n != 0 }' &&
		echo "D_m reads D_w ^ P on X: reconstructed with a P that does not match D_w"
fi

kmsg | grep -E "vraid[0-9]*: " | tail -n 12
dmesg_check || fail "the kernel log shows problems"
[ "$nbad" = 0 ] || fail "$nbad of 256 4 KiB blocks of the first MiB read wrong after the replay"
echo "RAID$LEVEL degraded: the journal's replay closed the write hole; D_m, D_w and the rest of the first MiB read back"
