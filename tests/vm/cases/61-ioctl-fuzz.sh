#!/bin/sh
# vm: --nvme 6 --sata 2 --sas 2 --size 64M
# batch: own
# timeout: 240
# The ioctl fuzzer (tests/vm/ioctlfuzz.c): valid requests mutated a few
# fields at a time, and random bytes, against /dev/vraid-control for
# VRAID_FUZZ_TIME seconds (default 60). Every request it knows to be
# invalid must fail with the documented errno, every request it knows to
# be valid must succeed, and whatever succeeded is undone (a journal it
# attached, formatting one of its free devices, is detached at once).
# Afterwards no VD, no spare and no journal is left, every device can be
# opened exclusively, the module's reference count is what it was, the
# module unloads and loads again, and the kernel log has no oops, BUG or
# WARNING.
# VRAID_FUZZ_SEED (run-in-vm --env) repeats a run; the seed is printed.
# VRAID_FUZZ_SETTLE=MS waits MS ms after requests that queue the spare
# worker (ioctlfuzz --settle): deleting a parity VD right after a member
# failure deadlocks (DELETE flushes vraid_wq under vraid_ctl_mutex while
# the queued spare work waits for that mutex), and this sidesteps it.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vraid.sh"

[ -x /vraid/bin/ioctlfuzz ] || skip "ioctlfuzz not built"
require_devs 10

set -- $NVME_DEVS
N0=$1 N1=$2 N2=$3 N3=$4 N4=$5 N5=$6
set -- $SATA_DEVS
S0=$1 S1=$2
set -- $SAS_DEVS
A0=$1 A1=$2

# A partition (24 MiB at 1 MiB) on the last disk: a member of its own,
# and one that overlaps its disk.
echo 'start=2048, size=49152, type=83' | sfdisk -q "$A1" >/dev/null 2>&1 ||
	fail "sfdisk $A1"
blockdev --rereadpt "$A1" 2>/dev/null
P1=${A1}1
[ -b "$P1" ] || fail "partition $P1 did not appear"

vds_before=$(vd_count)
refcnt_before=$(cat /sys/module/vraid/refcnt)
brd_before=$(grep -c '^brd ' /proc/modules)
echo "before: $vds_before VD(s), vraid refcnt $refcnt_before"

seed=""
[ -n "${VRAID_FUZZ_SEED:-}" ] && seed="--seed $VRAID_FUZZ_SEED"
rc=0
# fixture RAID5: N0 S0 A0; stopped RAID1: N1 S1; free: N2..N5 and P1
ioctlfuzz $seed --time "${VRAID_FUZZ_TIME:-60}" --hang 30 --partition "$P1" \
	--settle "${VRAID_FUZZ_SETTLE:-0}" \
	$N0 $S0 $A0 $N1 $S1 $N2 $N3 $N4 $N5 || rc=$?
[ "$rc" = 3 ] && fail "ioctlfuzz: a call hung or crashed (see above)"
[ "$rc" = 0 ] || fail "ioctlfuzz found problems (exit status $rc, see above)"

[ "$(vd_count)" = "$vds_before" ] || fail "VDs left: $(vraidctl list)"
ls /dev/vraid[0-9]* >/dev/null 2>&1 && [ "$vds_before" = 0 ] &&
	fail "a /dev/vraidN node is left: $(ls /dev/vraid[0-9]*)"
[ "$(vraidctl spare list --json)" = '{"spares":[]}' ] || fail "spares left"
vraidctl controller show --json | grep -q '"journal":{"state":"none"' ||
	fail "a journal is left attached: $(vraidctl controller show)"
refcnt=$(cat /sys/module/vraid/refcnt)
[ "$refcnt" = "$refcnt_before" ] ||
	fail "vraid refcnt $refcnt after the run, $refcnt_before before"

# 1:3 (/dev/null's number) names ram3 once brd is loaded: the kernel loads
# it on demand when a request names a block device of major 1.
if [ "$brd_before" = 0 ] && grep -q '^brd ' /proc/modules; then
	echo "note: brd was loaded on demand (a request named major 1)"
	rmmod brd || fail "rmmod brd"
fi

# The module is unused: it goes and comes back, and works.
rmmod vraid || fail "rmmod vraid after the fuzzer"
[ ! -e /dev/vraid-control ] || fail "control device left after rmmod"
insmod "$VRAID_KO" ${VRAID_MODULE_ARGS:-} || fail "insmod $VRAID_KO"
[ -c /dev/vraid-control ] || fail "no control device after insmod"
vd=$(vd_create --level 1 $N0 $S0)
vd_delete "$vd"

dd if=/dev/zero of="$A1" bs=1M count=1 oflag=direct 2>/dev/null
dmesg_check || fail "kernel log problems"
echo "ioctl fuzz: ok"
