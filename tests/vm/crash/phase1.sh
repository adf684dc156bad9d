#!/bin/sh
# Crash test, first boot: a fresh VD (the images are all zero, so
# --init fast is consistent), crashio writing at random and logging every
# acknowledged write, then the host kills QEMU KILL_IN seconds later.
. "$(dirname "$0")/common.sh"
set -e
# POLICY=awb: a volatile write-back cache; only writes a flush covered
# count (crashio fsyncs every 16 writes before logging them).
# POLICY=journal: write-back (wb) through the controller's journal on JDEV;
# every acknowledged write counts.  DEGRADED=1: a member fails first.
wpol=${POLICY:-}
if [ "$wpol" = journal ]; then
	journal_new "$JDEV"
	wpol=wb
fi
# FILL=1: rows of 64 KiB strips that the destage fills, as on disks
strip=16K
[ -n "${FILL:-}" ] && strip=64K
vd=$(vd_create $LM_OPTS --strip $strip --init fast --name crash$LEVEL \
	${wpol:+--write-policy $wpol} $LM_DEVS)
[ "${POLICY:-}" = journal ] && expect_write "$vd" write_back
if [ -n "${FILL:-}" ]; then
	echo 1 >"/sys/block/${vd#/dev/}/queue/rotational"
	# the host checks that rows were filled before the power cut
	(while sleep 1; do echo "@@fill $(vd_attr "$vd" cache_fill_pages)"; done) &
fi
# DEGRADED=1: the last member fails first; the VD runs Degraded
if [ -n "${DEGRADED:-}" ]; then
	gone=$(echo $LM_DEVS | awk '{ print $NF }')
	vraidctl fail "$vd" "$gone" >/tmp/fail.out 2>&1 ||
		{ cat /tmp/fail.out; fail "fail $gone"; }
	[ "$(vd_attr "$vd" state)" = degraded ] ||
		fail "state $(vd_attr "$vd" state) after failing $gone"
	expect_write "$vd" write_back
fi
# awb: a flush every 16 writes; journal: one write in 32 a 132 KiB one
# over blocks whose small writes the journal may still hold, logged as
# records of several blocks (the VD splits it to its limits, 128 KiB
# here, and the cache takes each piece), and one in 4 a write of 1 to 7
# sectors of one block, which goes around the cache (an INVALIDATE
# record, waiting for the block's dirty page to be destaged first):
# replay must not write an older logged block over it
case ${POLICY:-} in
awb) cio_args=16 ;;
journal) cio_args="0 32 4" ;;
*) cio_args= ;;
esac
# shellcheck disable=SC2086 # the arguments, split
crashio_start /tmp/crashio.out "$vd" "$LOGDEV" $BLOCKS "${SEED:-1}" $cio_args
echo "RAID$LEVEL${DEGRADED:+ (degraded: $gone failed)} on $LM_DEVS, log on $LOGDEV${JDEV:+, journal on $JDEV}: writing; power cut in ${KILL_IN}s"
echo "@@VRAID-KILL-IN@@ $KILL_IN"
sleep 600
fail "still alive: the power cut did not come"
