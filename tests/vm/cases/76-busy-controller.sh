#!/bin/sh
# A request that holds the controller for long (write-policy awb -> wt
# writing 32 MiB of random dirty pages out to members that dm-delay slows
# to 100 ms a write): a vraidctl show meanwhile says once what it waits
# for ("waiting: the controller is busy with a policy change") and how
# far the write-out is ("vraidN cache write-out: X of Y MiB left"), then
# answers once the change is done, with the new policy; sysfs cache_drain
# shows the write-out go down (write_policy_effective "draining"
# meanwhile), and the policy change itself shows it on
# standard error; a show interrupted while waiting changes nothing; the
# data written reads back (fio crc32c) and parity is consistent; a stop
# of the VD with dirty data shows its write-out too, and after assembly
# everything reads back.
# timeout: 300
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vraid.sh"
set -e

cleanup() {
	vraidctl delete "${vd:-none}" --force >/dev/null 2>&1 || true
	for i in 0 1 2 3; do dmsetup remove "slow$i" 2>/dev/null || true; done
}
trap cleanup EXIT

# members whose writes take 100 ms each (reads at once), zeroed: --init
# fast is consistent then, and check counts what the destage left
members=$(mixed_members 4)
# shellcheck disable=SC2086 # the members, one word each
zero_members 0 $members
slow=""
i=0
for d in $members; do
	echo "0 $(blockdev --getsz "$d") delay $d 0 0 $d 0 100" | dmsetup create "slow$i" ||
		fail "dm-delay over $d"
	dmsetup mknodes "slow$i"
	slow="$slow /dev/mapper/slow$i"
	i=$((i + 1))
done
# shellcheck disable=SC2086 # the members, one word each
vd=$(vd_create --level 5 --init fast --write-policy awb $slow)
settle

# 32 MiB of random 4 KiB writes over 128 MiB (each block once, verified
# later): the cache takes them, the members lag behind, and the destage
# writes each by read-modify-write
fjob="--name=busy --filename=$vd --rw=randwrite --bs=4k --size=128M --io_size=32M --direct=1 --ioengine=libaio --iodepth=16 --randrepeat=1 --verify=crc32c"
# shellcheck disable=SC2086 # the options, one word each
fio $fjob --do_verify=0 >/tmp/busy.fio 2>&1 || { cat /tmp/busy.fio; fail "fio writes to $vd"; }
dirty=$(vd_attr "$vd" cache_dirty_bytes)
echo "dirty after the writes: $dirty bytes"
[ "$dirty" -ge $((8 << 20)) ] ||
	fail "only $dirty bytes dirty: the policy change would not take long enough to test"

echo "--- write-policy=wt writes the cache out; show waits for it"
vraidctl set "$vd" write-policy=wt >/tmp/busy.set 2>&1 &
setpid=$!
sleep 1
kill -0 $setpid 2>/dev/null || fail "the policy change ended within a second: nothing to wait for ($(cat /tmp/busy.set))"
# sysfs: bytes left, bytes dirty as the write-out began
# shellcheck disable=SC2046 # two numbers
set -- $(vd_attr "$vd" cache_drain)
left0=$1 from0=$2
echo "cache_drain at 1 s: $left0 $from0"
[ "$from0" -ge $((8 << 20)) ] && [ "$left0" -le "$from0" ] && [ "$left0" -gt 0 ] ||
	fail "cache_drain during the write-out: '$left0 $from0', want LEFT <= FROM, FROM >= 8 MiB"
[ "$(vd_attr "$vd" write_policy_effective)" = draining ] ||
	fail "write_policy_effective during the write-out: $(vd_attr "$vd" write_policy_effective), want draining"
# one show interrupted while it waits: nothing changes
timeout -s INT 2 vraidctl show "$vd" >/tmp/busy.int 2>&1 && fail "a show answered during the policy change"
grep -q "waiting: the controller is busy with a policy change" /tmp/busy.int ||
	fail "the interrupted show did not say what it waited for: $(cat /tmp/busy.int)"
kill -0 $setpid 2>/dev/null || fail "the policy change ended too soon for the test ($(cat /tmp/busy.set))"
vraidctl show "$vd" >/tmp/busy.out 2>/tmp/busy.err || fail "show failed: $(cat /tmp/busy.err)"
echo "show's stderr: $(cat /tmp/busy.err)"
[ "$(grep -c "waiting: the controller is busy with a policy change, for [0-9]* s now" /tmp/busy.err)" = 1 ] ||
	fail "show did not say once what it waited for: $(cat /tmp/busy.err)"
grep -q "now: ${vd#/dev/} cache write-out: [0-9.]* of [0-9.]* MiB left" /tmp/busy.err ||
	fail "show did not say how far the write-out it waited for was: $(cat /tmp/busy.err)"
# shellcheck disable=SC2046 # two numbers
set -- $(vd_attr "$vd" cache_drain)
left1=$1 from1=$2
echo "cache_drain later: $left1 $from1"
if kill -0 $setpid 2>/dev/null; then
	[ "$from1" = "$from0" ] && [ "$left1" -lt "$left0" ] ||
		fail "cache_drain did not go down: '$left0 $from0', then '$left1 $from1'"
fi
wait $setpid || fail "write-policy=wt failed: $(cat /tmp/busy.set)"
echo "the policy change said: $(cat /tmp/busy.set)"
grep -q "^vraidctl: ${vd#/dev/} cache write-out: [0-9.]* of [0-9.]* MiB left" /tmp/busy.set ||
	fail "the policy change did not show how far its write-out was: $(cat /tmp/busy.set)"
[ "$(vd_attr "$vd" cache_drain)" = "0 0" ] ||
	fail "cache_drain after the write-out: $(vd_attr "$vd" cache_drain)"
[ "$(vd_attr "$vd" write_policy_effective)" = write-through ] ||
	fail "write_policy_effective after the write-out: $(vd_attr "$vd" write_policy_effective)"
grep -q "^Write in effect: *Write Through" /tmp/busy.out ||
	fail "show, answered after the change, does not give write-through: $(grep -i write /tmp/busy.out)"
[ "$(vd_attr "$vd" cache_dirty_bytes)" = 0 ] || fail "dirty data left after write-policy=wt"

echo "--- the data reads back"
# shellcheck disable=SC2086
fio $fjob --verify_only >/tmp/busy.fio 2>&1 || { cat /tmp/busy.fio; fail "fio verify of $vd"; }
vraidctl check "$vd" >/dev/null || fail "check of $vd did not start"
vraidctl wait "$vd" >/dev/null || fail "check of $vd failed"
[ "$(vd_attr "$vd" mismatch_cnt)" = 0 ] || fail "parity mismatches after the destage: $(vd_attr "$vd" mismatch_cnt)"

echo "--- a stop writes the cache out and shows it (its sysfs is gone by then)"
vraidctl set "$vd" write-policy=awb >/dev/null || fail "set awb again"
sjob="--name=stop --filename=$vd --rw=randwrite --bs=4k --size=128M --offset=128M --io_size=12M --direct=1 --ioengine=libaio --iodepth=16 --randrepeat=1 --randseed=7 --verify=crc32c"
# shellcheck disable=SC2086 # the options, one word each
fio $sjob --do_verify=0 >/tmp/busy.fio 2>&1 || { cat /tmp/busy.fio; fail "fio writes to $vd"; }
echo "dirty before the stop: $(vd_attr "$vd" cache_dirty_bytes) bytes"
vraidctl stop "$vd" >/dev/null 2>/tmp/busy.stop || fail "stop: $(cat /tmp/busy.stop)"
echo "the stop said: $(cat /tmp/busy.stop)"
grep -q "^vraidctl: ${vd#/dev/} cache write-out: [0-9.]* of [0-9.]* MiB left" /tmp/busy.stop ||
	fail "the stop did not show how far its write-out was: $(cat /tmp/busy.stop)"
# shellcheck disable=SC2086 # the members, one word each
out=$(vraidctl assemble $slow) || fail "assemble: $out"
vd=/dev/$(echo "$out" | cut -d: -f1)
# shellcheck disable=SC2086
fio $sjob --verify_only >/tmp/busy.fio 2>&1 || { cat /tmp/busy.fio; fail "fio verify after stop and assemble"; }
# shellcheck disable=SC2086
fio $fjob --verify_only >/tmp/busy.fio 2>&1 || { cat /tmp/busy.fio; fail "fio verify of the first writes after stop and assemble"; }
echo "busy controller: ok"
