#!/bin/sh
# The controller's journal (ABI 1.9): `vraidctl controller journal DEV`
# refuses a device under 64 MiB, a member of a VD, a VD, a device in use
# and a second journal, each with its reason and nothing changed; attached,
# a write-back VD (write-policy=wb) writes back through it: writes read
# back verified whatever their size, the journal's head sequence grows,
# data survives stop and assembly; write and io policies switched
# under a verify load lose nothing, nor does a second VD logging to the
# journal meanwhile; `journal none` makes the VD write
# through (no_journal), attaching the same device again (as it is, no
# replay pending) makes it write back again; the journal failing under a
# verify load (dm-linear switched to the error target) loses nothing: no
# write fails, the VD writes through (journal_failed), the journal says
# failed, and the VD assembles and verifies without it; parity of every
# row written is consistent once the VD is stopped (pqref), and a check
# of the journalled VD finds it consistent, reading the members in large
# requests (a job's step is batched); on a 5 GiB
# device a new journal's ring takes 4 GiB, says so, and keeps it when
# attached again.
# timeout: 600
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vraid.sh"
set -e

require_devs 4 nvme
require_devs 2 sata
require_devs 2 sas
members=$(mixed_members 4)		# nvme0 sata0 sas0 nvme1
first=$(echo $members | cut -d' ' -f1)
J1=$(echo $NVME_DEVS | cut -d' ' -f4)	# the journal
J2=$(echo $NVME_DEVS | cut -d' ' -f3)	# a second one, refused
SMALL_ON=$(echo $SATA_DEVS | cut -d' ' -f2)	# under a 32 MiB dm-linear
DMJ_ON=$(echo $SAS_DEVS | cut -d' ' -f2)	# under the journal that fails
DMJ_SECTORS=262144			# 128 MiB

# whatever happens, leave no VD, journal or dm device behind
cleanup_journal() {
	local d
	set +e
	for d in /sys/block/vraid*; do
		[ -e "$d" ] && vraidctl delete "/dev/${d##*/}" --force >/dev/null 2>&1
	done
	vraidctl controller journal discard --force >/dev/null 2>&1
	vraidctl controller journal none >/dev/null 2>&1
	dmsetup remove -f vj-small >/dev/null 2>&1
	dmsetup remove -f vj-journal >/dev/null 2>&1
	return 0
}
trap cleanup_journal EXIT

# journal_dev: the attached journal's device as controller show --json
# says it (empty without one)
journal_dev() {
	journal_json | grep -o '"device":"[^"]*"' | cut -d'"' -f4
}

# refuse DEV REGEX: attaching DEV as the journal fails with a message
# matching REGEX (case-insensitive); the journal is as it was
refuse() {
	local before
	before="$(journal_state) $(journal_dev)"
	expect_fail vraidctl controller journal "$1"
	echo "refused $1: $ERR"
	# (the device's own name is no reason)
	echo "$ERR" | sed "s#$1##g" | grep -Eiq -- "$2" ||
		fail "attaching $1: message '$ERR' does not match /$2/"
	[ "$(journal_state) $(journal_dev)" = "$before" ] ||
		fail "attaching $1 was refused but the journal changed: $before -> $(journal_json)"
}

# expect_journal STATE [DEV]: the controller's journal is in STATE (on DEV)
expect_journal() {
	local s mm kn
	s=$(journal_state)
	[ "$s" = "$1" ] || fail "journal state '$s', expected $1: $(vraidctl controller show --json)"
	[ -z "${2:-}" ] && return 0
	mm=$(majmin "$2")
	kn=$(basename "$(readlink -f "/sys/dev/block/$mm")")
	journal_json | grep -Eq "\"($mm|$kn|/dev/$kn|$2)\"" ||
		fail "the journal is not on $2 ($mm, $kn): $(journal_json)"
}

# verify_job NAME FIO-OPTIONS...: what `fio_verify VD NAME OPTIONS` wrote
# still verifies
verify_job() {
	local vd=$1 name=$2
	shift 2
	fio --name="$name" --filename="$vd" --direct=1 --ioengine=libaio \
		--verify=crc32c --verify_only=1 --verify_fatal=1 "$@" >/tmp/fio.vj 2>&1 ||
		{ cat /tmp/fio.vj; fail "data of fio job $name on $vd differs"; }
}

expect_journal none
zero_members 0 $members
for d in $J1 $J2 $DMJ_ON; do
	zero_range "$d" 0 "$(dev_bytes "$d")"
done

echo "--- without a journal, write-back writes through (no_journal)"
vd=$(vd_create --level 5 --strip 64K --init fast --write-policy wb $members)
settle
[ "$(vd_attr $vd write_policy)" = write-back ] || fail "write policy $(vd_attr $vd write_policy)"
expect_write "$vd" write_through no_journal
fio_verify "$vd" data --rw=randwrite --bs=4k --size=$(mb 16) --iodepth=8
sum0=$(sum_mib "$vd" 16)

echo "--- refusals change nothing"
echo "0 65536 linear $SMALL_ON 0" | dmsetup create vj-small || fail "dmsetup create vj-small"
settle
small=/dev/mapper/vj-small
[ -b $small ] || fail "$small missing"
ssum="$(sum_mib $small 4) $(sum_mib $small 4 28)"
refuse $small '64 ?MiB|too small|smaller'
refuse "$first" 'member|in use|busy'
refuse "$vd" 'virtual drive|a VD|vraid VD|in use|busy'
refuse "$SMALL_ON" 'in use|busy|held|open'
expect_journal none
[ "$(sum_mib $small 4) $(sum_mib $small 4 28)" = "$ssum" ] || fail "the refused 32 MiB device was written"
[ "$(sum_mib "$vd" 16)" = "$sum0" ] || fail "the VD's data changed"
expect_write "$vd" write_through no_journal
dmsetup remove vj-small || fail "dmsetup remove vj-small"

echo "--- attach $J1: healthy; a second journal is refused"
expect_ok vraidctl controller journal "$J1"
echo "$OUT$ERR"
expect_journal healthy "$J1"
vraidctl controller show
expect_write "$vd" write_back
[ "$(journal_num vds)" = 1 ] || fail "journal vds $(journal_num vds), want 1: $(journal_json)"
j2sum=$(sum_mib "$J2" 8)
refuse "$J2" 'already|attached|one journal'
expect_journal healthy "$J1"
[ "$(sum_mib "$J2" 8)" = "$j2sum" ] || fail "the refused second journal was written"
[ "$(sum_mib "$vd" 16)" = "$sum0" ] || fail "the VD's data changed on attach"
verify_data "$vd" "after the journal was attached"
vd_delete "$vd"

echo "--- a write-back VD created with the journal attached"
zero_members 0 $members
vd=$(vd_create --level 5 --strip 64K --init fast --write-policy wb $members)
settle
expect_write "$vd" write_back
vraidctl show "$vd" | grep -E "Write in effect:" || true
h0=$(journal_num head_seq)
[ -n "$h0" ] || fail "no head_seq: $(journal_json)"
fio_verify "$vd" data --rw=randwrite --bs=4k --size=$(mb 16) --iodepth=8
h1=$(journal_num head_seq)
echo "journal head_seq $h0 -> $h1, tail_seq $(journal_num tail_seq), used $(journal_num used_bytes) bytes"
[ "$h1" -gt "$h0" ] || fail "4 KiB write-back writes did not go to the journal (head_seq $h0 -> $h1)"
# every size: 512 B (not whole pages), 64 and 128 KiB (logged), 256 KiB
# (too large to log), read mixed in
fio_verify "$vd" b --rw=randwrite --bs=512 --size=$(mb 1) --offset=$(mb 32) --randseed=2 --iodepth=8
fio_verify "$vd" c --rw=randwrite --bs=64k --size=$(mb 8) --offset=$(mb 40) --randseed=3 --iodepth=4
fio_verify "$vd" d --rw=randwrite --bs=128k --size=$(mb 8) --offset=$(mb 48) --randseed=4 --iodepth=4
fio_verify "$vd" e --rw=write --bs=256k --size=$(mb 8) --offset=$(mb 56) --randseed=5 --iodepth=2
fio_verify "$vd" f --rw=randrw --bs=4k --size=$(mb 4) --offset=$(mb 64) --randseed=6 --iodepth=8 --sync=1
[ "$(journal_num head_seq)" -gt "$h1" ] || fail "64/128 KiB writes were not logged"
[ "$(journal_num pending)" = 0 ] || fail "journal pending $(journal_num pending) while healthy"

echo "--- stop and assemble with the journal attached"
vraidctl stop "$vd" >/dev/null || fail "stop"
out=$(vraidctl assemble $members) || fail "assemble: $out"
vd=/dev/$(echo "$out" | cut -d: -f1)
settle
expect_write "$vd" write_back
verify_data "$vd" "after stop and assemble"
verify_job "$vd" d --rw=randwrite --bs=128k --size=$(mb 8) --offset=$(mb 48) --randseed=4

echo "--- a check of the journalled VD: consistent, in large member requests"
# a job's step logs no parity record, so its heads are batched and
# their member I/Os merge even while the VD logs parity records
destaged "$vd"
before=$(member_reqs r $members)
vraidctl check "$vd" >/dev/null || fail "check did not start"
vraidctl wait "$vd" >/dev/null || fail "check failed"
[ "$(vd_attr $vd mismatch_cnt)" = 0 ] ||
	fail "check of the journalled VD: $(vd_attr $vd mismatch_cnt) mismatches"
request_kb "the journalled VD's check reads" 64 $before $(member_reqs r $members)
expect_write "$vd" write_back

echo "--- journal none: write-through; the same device again: write-back"
expect_ok vraidctl controller journal none
expect_journal none
expect_write "$vd" write_through no_journal
verify_data "$vd" "after the journal was detached"
verify_job "$vd" c --rw=randwrite --bs=64k --size=$(mb 8) --offset=$(mb 40) --randseed=3
fio_verify "$vd" g --rw=randwrite --bs=4k --size=$(mb 4) --offset=$(mb 72) --randseed=7 --iodepth=8
expect_ok vraidctl controller journal "$J1"
echo "$OUT$ERR"
expect_journal healthy "$J1"
[ "$(journal_num pending)" = 0 ] || fail "a cleanly detached journal has $(journal_num pending) VDs pending"
expect_write "$vd" write_back
h2=$(journal_num head_seq)
fio_verify "$vd" h --rw=randwrite --bs=4k --size=$(mb 4) --offset=$(mb 80) --randseed=8 --iodepth=8
[ "$(journal_num head_seq)" -gt "$h2" ] || fail "writes after re-attaching were not logged"
verify_data "$vd" "after re-attaching"

echo "--- policies switched under a verify load, the journal attached, a second VD logging"
# a second wb VD shares the journal's records: its writes must go on
# while the first one's unbinds drain (none may be parked until an
# unbind of its own, which never comes)
vd2=$(vd_create --level 1 --init fast --write-policy wb "$J2" "$SMALL_ON")
settle
expect_write "$vd2" write_back
fio_verify "$vd2" two --rw=randwrite --bs=4k --size=$(mb 16) --randseed=13 \
	--iodepth=8 --verify_backlog=64 --loops=6 &
pid2=$!
fio_verify "$vd" sw --rw=randwrite --bs=4k --size=$(mb 8) --offset=$(mb 88) --randseed=12 \
	--iodepth=8 --verify_backlog=64 --loops=3 &
switch_under_load "$vd" $! write-policy=wt write-policy=wb io-policy=cached \
	write-policy=awb write-policy=wb io-policy=direct
wait $! || fail "fio under policy switches with the journal attached"
echo "$SWITCHES switches"
await $pid2 120 "the second VD's load did not end within 120 s of the switches" ||
	fail "fio on the second VD, while the first one's policy switched"
expect_write "$vd2" write_back
vd_delete "$vd2"
vraidctl set "$vd" write-policy=wb io-policy=direct >/dev/null || fail "back to wb"
expect_write "$vd" write_back
verify_data "$vd" "after the policy switches"

echo "--- the journal fails under load"
expect_ok vraidctl controller journal none
echo "0 $DMJ_SECTORS linear $DMJ_ON 0" | dmsetup create vj-journal || fail "dmsetup create vj-journal"
settle
dmj=/dev/mapper/vj-journal
[ -b $dmj ] || fail "$dmj missing"
expect_ok vraidctl controller journal $dmj
expect_journal healthy $dmj
expect_write "$vd" write_back
h0=$(journal_num head_seq)
# (its verify pass reads after the journal failed)
fio_verify "$vd" fail --rw=randwrite --bs=4k --size=$(mb 16) --offset=$(mb 128) \
	--randseed=9 --iodepth=8 &
pid=$!
i=0
while kill -0 $pid 2>/dev/null && [ "$(journal_num head_seq)" -lt $((h0 + 256)) ]; do
	i=$((i + 1))
	[ $i -lt 600 ] || fail "the load logged nothing in 60 s"
	sleep 0.1
done
kill -0 $pid 2>/dev/null || fail "the load ended before the journal could fail (make it longer)"
echo "journal head_seq $(journal_num head_seq): failing the journal"
dmsetup suspend --noflush vj-journal || fail "dmsetup suspend"
echo "0 $DMJ_SECTORS error" | dmsetup load vj-journal || fail "dmsetup load error"
dmsetup resume vj-journal || fail "dmsetup resume"
failed_while=0
kill -0 $pid 2>/dev/null && failed_while=1
wait $pid || fail "the load failed after the journal failed"
[ "$failed_while" = 1 ] || echo "(the load's writes had ended when the journal failed)"
# the load may have ended before a write went to the failed journal
[ "$(journal_state)" = failed ] ||
	fio_verify "$vd" fail2 --rw=randwrite --bs=4k --size=$(mb 4) --offset=$(mb 160) --randseed=10 --iodepth=8
expect_journal failed
expect_write "$vd" write_through journal_failed
kmsg | grep -E "vraid.*journal" | tail -n 5
verify_data "$vd" "after the journal failed"
fio_verify "$vd" after --rw=randwrite --bs=4k --size=$(mb 4) --offset=$(mb 168) --randseed=11 --iodepth=8

echo "--- the failed journal detached: the VD assembles and verifies without it"
expect_ok vraidctl controller journal none
expect_journal none
expect_write "$vd" write_through no_journal
vraidctl stop "$vd" >/dev/null || fail "stop"
# parity of every row written (the first 172 MiB; the rest is zero)
pq_check 5 65536 1 1000 $members
dmsetup remove vj-journal || fail "dmsetup remove vj-journal"
out=$(vraidctl assemble $members) || fail "assemble without the failed journal: $out"
vd=/dev/$(echo "$out" | cut -d: -f1)
verify_data "$vd" "after assembly without the failed journal"
verify_job "$vd" fail --rw=randwrite --bs=4k --size=$(mb 16) --offset=$(mb 128) --randseed=9
verify_job "$vd" after --rw=randwrite --bs=4k --size=$(mb 4) --offset=$(mb 168) --randseed=11

echo "--- a 5 GiB journal device: a new ring takes 4 GiB of it, and keeps it"
truncate -s 5G /tmp/bigj.img || fail "truncate"
bigj=$(losetup -f --show /tmp/bigj.img) || fail "losetup"
expect_ok vraidctl controller journal "$bigj"
expect_msg "its ring takes 4 GiB, the most a new journal takes: the rest of $bigj stays unused"
expect_journal healthy "$bigj"
[ "$(journal_num size_bytes)" = $((4 << 30)) ] ||
	fail "ring of $(journal_num size_bytes) bytes on 5 GiB: $(journal_json)"
expect_write "$vd" write_back
fio_verify "$vd" big --rw=randwrite --bs=4k --size=$(mb 8) --offset=$(mb 176) --randseed=13 --iodepth=8
[ "$(journal_num head_seq)" -gt 1 ] || fail "nothing logged to the 5 GiB journal: $(journal_json)"
expect_ok vraidctl controller journal none
expect_write "$vd" write_through no_journal
expect_ok vraidctl controller journal "$bigj"
expect_msg "attached the vraid journal $bigj held"
echo "$ERR" | grep -q "its ring takes" && fail "the note on re-attaching: $ERR"
[ "$(journal_num size_bytes)" = $((4 << 30)) ] ||
	fail "ring of $(journal_num size_bytes) bytes re-attached: $(journal_json)"
expect_ok vraidctl controller journal none
losetup -d "$bigj"
rm -f /tmp/bigj.img
verify_data "$vd" "after the 5 GiB journal"
verify_job "$vd" big --rw=randwrite --bs=4k --size=$(mb 8) --offset=$(mb 176) --randseed=13
vd_delete "$vd"
echo "journal: ok"
