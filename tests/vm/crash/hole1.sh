#!/bin/sh
# Write-hole test (tests/vm/hole-test), first boot: a Degraded RAID$LEVEL
# writing back through the controller's journal loses the parity write of
# one destage, then the power goes.  16 KiB strips, row 1, member sector
# 32 (16416 on the disks), driver/core/layout.c:
#   RAID5 of M0, M1 (dm over disk X) and M2: P on M1, data index 0 (VD
#   sectors 64-95) on M2, data index 1 (96-127) on M0.  D_w is VD sector
#   96 on M0, D_m VD sector 64 on M2 (failed), P on X drops the write.
#   RAID6 of M0, M1, M2 and M3 (dm over disk X): P on M2, Q on M3, data
#   index 0 (64-95) on M0, 1 (96-127) on M1.  D_w is VD sector 64 on M0,
#   D_m VD sector 96 on M1 (failed), Q on X drops the write (a Degraded
#   RAID6 rebuilds one data block from Q).
#   RAID50 and RAID60, two spans: the same row in span 1 (strips
#   alternate between the spans), so that replay must find the span.
#   RAID50 of M0-M5, span 1 = M3, M4 (X), M5: P on M4, data index 0 (VD
#   sectors 160-191) on M5, 1 (224-255) on M3; D_w is 224 on M3, D_m 160
#   on M5 (failed).  RAID60 of M0-M7, span 1 = M4-M7: P on M6, Q on M7
#   (X), data index 0 (160-191) on M4, 1 (224-255) on M5; D_w is 160 on
#   M4, D_m 224 on M5 (failed).
# The first MiB is filled
# and on the members; then the VD is bound to the journal anew (its floor
# past the fill, whose records would rewrite whole rows on replay and
# repair any hole), M2 is failed, the 8 sectors of that P on X become
# dm-flakey drop_writes, and a 4 KiB write of D_w is destaged: D_w reaches
# its member, the parity on X does not, and D_m (rebuilt from D_w and that
# parity) now reads wrong.  The first MiB as it was, the parity before the
# write and the new D_w go to REF, a disk outside the VD, for the second
# boot (hole2.sh).  UNBIND=1: the destage is the drain of write-policy=wt
# (the unbind from the journal), and dm-delay holds the parity write on X
# (so the drain) while the power goes.  A rewrite of D_w meanwhile is
# logged (a bound VD logs until its unbind begins, after the write-out)
# and completes: the replay must end with it, not with the older D_w
# whose destage was held.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vraid.sh"
set -e
. "$(dirname "$0")/hole.sh"

# blk DEV SECTOR: the 4 KiB at SECTOR of DEV, O_DIRECT
blk() {
	dd if="$1" bs=512 skip="$2" count=8 iflag=direct 2>/dev/null
}

journal_new "$JDEV"

modprobe dm-flakey || fail "modprobe dm-flakey"
XSZ=$(blockdev --getsz "$X")
echo "0 $XSZ linear $X 0" | dmsetup create vh-p || fail "dmsetup create vh-p"
settle
[ -b /dev/mapper/vh-p ] || fail "/dev/mapper/vh-p missing"

# all-zero images: --init fast is consistent
vd=$(vd_create --level $LEVEL $SPANOPT --strip 16K --init fast --write-policy wb \
	--name hole $(echo $MEMBERS | sed "s#$X#/dev/mapper/vh-p#"))
expect_write "$vd" write_back

# the first MiB, then onto the members: wt unbinds, which writes the
# cache out and flushes
dd if=/dev/urandom of=/tmp/ref bs=64k count=16 iflag=fullblock 2>/dev/null
dd if=/tmp/ref of="$vd" bs=64k oflag=direct 2>/dev/null || fail "fill of $vd"
[ "$(vd_attr "$vd" cache_write_pages)" -gt 0 ] || fail "the fill did not go into the cache"
vraidctl set "$vd" write-policy=wt >/dev/null
destaged "$vd"
dd if="$vd" bs=1M count=1 iflag=direct 2>/dev/null | cmp -s - /tmp/ref ||
	fail "$vd does not read back the fill"
# the layout: D_w on MW, D_m on MM; parity consistent
dd if=/tmp/ref of=/tmp/dw.ref bs=4k skip=$DW count=1 2>/dev/null
blk $MW $MSEC | cmp -s - /tmp/dw.ref ||
	fail "$MW sector $MSEC is not D_w (VD sector $((DW * 8)))"
dd if=/tmp/ref of=/tmp/dm.ref bs=4k skip=$DM count=1 2>/dev/null
blk $MM $MSEC | cmp -s - /tmp/dm.ref ||
	fail "$MM sector $MSEC is not D_m (VD sector $((DM * 8)))"
pq_check $LEVEL 16384 $SPANS 32 $(echo $MEMBERS | sed "s#$X#/dev/mapper/vh-p#")
blk $X $PSEC >/tmp/p.old
# bound anew: the journal's records from here on are the VD's replay
vraidctl set "$vd" write-policy=wb >/dev/null
expect_write "$vd" write_back
dd if=/tmp/ref of="$REF" bs=64k oflag=direct,sync 2>/dev/null || fail "saving the reference on $REF"

vraidctl fail "$vd" $MM >/tmp/fail.out 2>&1 || { cat /tmp/fail.out; fail "fail $MM"; }
[ "$(vd_attr "$vd" state)" = degraded ] || fail "state $(vd_attr "$vd" state) after failing $MM"
expect_write "$vd" write_back

# the parity's 8 sectors drop writes (reads pass); the rest of X, metadata
# included, stays linear.  UNBIND: they hold writes for 10 minutes
# instead (dm-delay), which holds the destage, so the drain, so the
# unbind, before its metadata write
dmsetup suspend vh-p || fail "dmsetup suspend vh-p"
ptarget="flakey $X $PSEC 0 3600 1 drop_writes"
if [ -n "${UNBIND:-}" ]; then
	modprobe dm-delay || fail "modprobe dm-delay"
	ptarget="delay $X $PSEC 0 $X $PSEC 600000"
fi
printf '%s\n' "0 $PSEC linear $X 0" \
	"$PSEC 8 $ptarget" \
	"$((PSEC + 8)) $((XSZ - PSEC - 8)) linear $X $((PSEC + 8))" |
	dmsetup load vh-p || fail "dmsetup load vh-p"
dmsetup resume vh-p || fail "dmsetup resume vh-p"
dmsetup table vh-p

# the write of D_w, into the cache and the journal, then destaged: after
# 5 s, or (UNBIND) at once by the drain of write-policy=wt, which unbinds
# the VD from the journal; its metadata names the journal until the end
dd if=/dev/urandom of=/tmp/dw.new bs=4k count=1 2>/dev/null
d0=$(vd_attr "$vd" cache_destaged)
r0=$(vd_attr "$vd" journal_refs)
dd if=/tmp/dw.new of="$vd" bs=4k seek=$DW oflag=direct 2>/dev/null || fail "write of D_w"
if [ -n "${UNBIND:-}" ]; then
	echo "D_w written; write-policy=wt (its write-out destages it)"
	vraidctl set "$vd" write-policy=wt >/tmp/set.out 2>&1 &
	setpid=$!
	# the destage wrote D_w; its parity write is held
	i=0
	until blk $MW $MSEC | cmp -s - /tmp/dw.new; do
		i=$((i + 1))
		[ $i -lt 300 ] || fail "the unbind's drain did not write D_w to $MW in 30 s"
		sleep 0.1
	done
else
	destaged "$vd"
	[ "$(vd_attr "$vd" cache_destaged)" -gt "$d0" ] || fail "D_w was not destaged"
fi
# the parity record names D_w's user record rather than logging it again:
# the replay must read D_w from there
[ "$(vd_attr "$vd" journal_refs)" -gt "$r0" ] ||
	fail "the destage's parity record did not name D_w's user record, or there was none (journal_refs $r0 -> $(vd_attr "$vd" journal_refs))"
blk $MW $MSEC | cmp -s - /tmp/dw.new || fail "the destage did not write D_w to $MW"
blk $X $PSEC | cmp -s - /tmp/p.old || fail "the parity on X changed: the write was not dropped"
if [ -n "${UNBIND:-}" ]; then
	# the unbind holds the controller: a vraidctl command waits, and
	# says for what
	timeout -s INT 3 vraidctl list >/tmp/list.out 2>&1 &&
		fail "vraidctl list answered during the policy change"
	grep -q "waiting: the controller is busy with a policy change" /tmp/list.out ||
		fail "vraidctl list did not say what it waited for: $(cat /tmp/list.out)"
	# a rewrite of D_w now goes into the cache and the journal, after
	# the older D_w's records: it is acknowledged without waiting for
	# the write-out, and the replay must apply it last
	dd if=/dev/urandom of=/tmp/dw.late bs=4k count=1 2>/dev/null
	dd if=/tmp/dw.late of="$vd" bs=4k seek=$DW oflag=direct 2>/dev/null &
	ddpid=$!
	i=0
	while kill -0 $ddpid 2>/dev/null; do
		i=$((i + 1))
		[ $i -lt 200 ] ||
			fail "a rewrite of D_w during the write-out of write-policy=wt did not complete in 20 s"
		sleep 0.1
	done
	wait $ddpid || fail "the rewrite of D_w during the write-out failed"
	kill -0 $setpid 2>/dev/null ||
		fail "write-policy=wt ended before the power cut ($(cat /tmp/set.out)): the parity write on X was not held"
	# what D_w must read after the replay
	cp /tmp/dw.late /tmp/dw.new
else
	[ "$(journal_state)" = healthy ] || fail "journal state $(journal_state)"
	expect_write "$vd" write_back
	# vraidctl stats says what sysfs counts
	refs=$(vd_attr "$vd" journal_refs)
	vraidctl stats "$vd" --json | grep -q "\"journal_refs\":$refs," ||
		fail "stats --json does not give journal_refs $refs: $(vraidctl stats "$vd" --json)"
	vraidctl stats "$vd" | grep -q "($refs destaged pages named, not logged again)" ||
		fail "stats does not say the $refs pages named: $(vraidctl stats "$vd" | grep Cache)"
fi
# REF: the first MiB before the write, then D_w's new 4 KiB and the old
# parity
cat /tmp/dw.new /tmp/p.old | dd of="$REF" bs=4k seek=256 oflag=direct,sync 2>/dev/null ||
	fail "saving D_w on $REF"
echo "RAID$LEVEL degraded ($MM failed), journal on $JDEV: D_w written and destaged${UNBIND:+ by the unbind}, its parity on $X ${UNBIND:+held}${UNBIND:-dropped}; power cut"
echo "@@VRAID-KILL-IN@@ 0.5"
sleep 600
fail "still alive: the power cut did not come"
