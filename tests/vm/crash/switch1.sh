#!/bin/sh
# Crash test with a set order (tests/vm/crash-test LEVELs and LEVELu),
# first boot: a write-policy change from wb while something holds it up.
# A fresh VD writing back through the controller's journal (one member
# under a dm device, X) takes A (4 KiB at VD block 0), logged and then
# destaged (on the members, its record still in the journal).  Member
# sectors from 512 KiB into X's data area on then hold writes (dm-delay,
# ten minutes), and 1 MiB at VD 4 MiB (their blocks reach X there) is
# written:
#  - SWITCH=checkpoint (LEVELs): over and over until the journal holds a
#    quarter of its ring, so a checkpoint starts whose drain cannot end:
#    it holds the journal's VDs (vds_mutex), and `vraidctl set VD
#    write-policy=wt` waits there to unbind the VD.  The VD is still
#    bound: its writes are logged.  (Until the twenty-third session they
#    went to the members unlogged and were acknowledged, and the replay
#    wrote the journal's A over A2; in that session they waited.)
#  - SWITCH=drain (LEVELu): once, so that the cache holds it dirty and
#    the unbind's drain cannot end.  Writes go around the cache then, to
#    the members, and log INVALIDATEs (until the twenty-fourth session
#    they waited for the drain).
# A2 is written over A now; it must be acknowledged while the change
# waits, and must not be lost to a replay (which would write the
# journal's A over it unless A2 is logged after it).  Then the power goes.
# The log disk gets A, A2, whether A2 was acknowledged, and the last
# 1 MiB written, for switch2.sh.
. "$(dirname "$0")/common.sh"
set -e
[ "${POLICY:-}" = journal ] || fail "POLICY=journal expected (crash-test sets it)"
case ${SWITCH:-} in checkpoint | drain) ;; *) fail "SWITCH=checkpoint or drain expected (crash-test sets it)" ;; esac
journal_new "$JDEV"

X=$(echo $LM_DEVS | awk '{ print $NF }')
dm_over vs-x "$X"
vd=$(vd_create $LM_OPTS --strip 16K --init fast --name switch$LEVEL \
	--write-policy wb $(echo $LM_DEVS | sed "s#$X#/dev/mapper/vs-x#"))
expect_write "$vd" write_back

# A: logged, then on the members
dd if=/dev/urandom of=/tmp/a bs=4k count=1 2>/dev/null
dd if=/tmp/a of="$vd" bs=4k oflag=direct 2>/dev/null || fail "write of A"
destaged "$vd"
t0=$(journal_num tail_seq)
# the region's write-intent bits set before X holds writes (the bitmap
# is outside the data area anyway)
dd if=/dev/urandom of="$vd" bs=64k seek=64 count=16 oflag=direct 2>/dev/null ||
	fail "write at 4 MiB"

# X holds writes from 512 KiB into its data area on (VD block 0's row
# is before that on every level)
dm_hold vs-x "$X" $((DATA_OFFSET + 1024))

# 1 MiB at 4 MiB (under every level's dirty cap: nothing waits for the
# destage X holds), over and over until a quarter of the ring is in use
# (checkpoint), or once (drain)
ring=$(journal_num size_bytes)
n=0
while :; do
	n=$((n + 1))
	[ $n -le 100 ] || fail "the journal holds only $(journal_num used_bytes) of $ring bytes after 100 MiB"
	dd if=/dev/urandom of=/tmp/last bs=64k count=16 2>/dev/null
	dd if=/tmp/last of="$vd" bs=64k seek=64 oflag=direct 2>/dev/null ||
		fail "write $n at 4 MiB"
	[ "$SWITCH" = checkpoint ] || break
	[ "$(journal_num used_bytes)" -lt $((ring / 4 + (1 << 20))) ] || break
done
sleep 2
[ "$(journal_num tail_seq)" = "$t0" ] ||
	fail "the tail moved ($t0 -> $(journal_num tail_seq)): a checkpoint ended although X holds writes"
[ "$(vd_attr "$vd" cache_dirty_bytes)" -gt 0 ] ||
	fail "nothing dirty in the cache although X holds writes"
echo "$n MiB written at 4 MiB; the journal holds $(journal_num used_bytes) of $ring bytes, $(vd_attr "$vd" cache_dirty_bytes) bytes dirty wait for X"

vraidctl set "$vd" write-policy=wt >/tmp/set.out 2>&1 &
setpid=$!
sleep 2
kill -0 $setpid 2>/dev/null ||
	fail "write-policy=wt ended although X holds the $SWITCH ($(cat /tmp/set.out))"
[ "$(vd_attr "$vd" write_policy)" = write-through ] ||
	fail "sysfs write_policy $(vd_attr "$vd" write_policy) while the change waits"

# A2 over A: acknowledged while the change waits (logged, or sent
# around the cache with an INVALIDATE after A's record)
dd if=/dev/urandom of=/tmp/a2 bs=4k count=1 2>/dev/null
dd if=/tmp/a2 of="$vd" bs=4k oflag=direct 2>/dev/null &
await $! 30 "A2 waited 30 s for the write-policy change ($SWITCH held by X)" ||
	fail "the write of A2 failed"
acked=1
kill -0 $setpid 2>/dev/null ||
	fail "write-policy=wt ended although X holds the $SWITCH ($(cat /tmp/set.out))"
echo "A2 was acknowledged while write-policy=wt waits for the $SWITCH"
# the log disk: A, A2, the acknowledgement, the last 1 MiB
{ cat /tmp/a /tmp/a2; echo "$acked" | dd bs=4k conv=sync 2>/dev/null; cat /tmp/last; } |
	dd of="$LOGDEV" bs=4k oflag=direct,sync 2>/dev/null || fail "saving the reference on $LOGDEV"
echo "RAID$LEVEL on $LM_DEVS, journal on $JDEV: A logged and destaged, the $SWITCH held, write-policy=wt waiting for it, A2 over A; power cut"
echo "@@VRAID-KILL-IN@@ 0.5"
sleep 600
fail "still alive: the power cut did not come"
