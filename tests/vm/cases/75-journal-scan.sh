#!/bin/sh
# Journal devices seen from the CLI: `vraidctl examine` tells a journal
# (UUID, ring, flags, attached or not; RELEASED after `journal none`,
# DETACHED only after a module unload) and says clearly when its
# superblock is damaged (and the module refuses to attach it without
# --force); `assemble --scan` after a module reload attaches
# the journal that was attached before (the wb VD logs to it again, its
# data verifies), attaches none when two devices could be it (listing
# them) or with --no-journal, and leaves a journal released by `journal
# none` detached, unless the metadata of a VD found names it (restored
# from while it was attached, as a power cut leaves it); a journal device
# holding an old member's copy B (byte 1 MiB) is never taken for a
# member. Replay after a real power cut is tests/vm/crash-test's
# CRASH_POLICY=journal.
# timeout: 600
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vraid.sh"
set -e

require_devs 4 nvme
require_devs 1 sata
require_devs 1 sas
members=$(mixed_members 3)		# nvme0 sata0 sas0
first=$(echo $members | cut -d' ' -f1)
J=$(echo $NVME_DEVS | cut -d' ' -f4)	# the journal
JX=$(echo $NVME_DEVS | cut -d' ' -f3)	# a second journal-looking device

# wipe_journal DEV: no superblock, no ring start left behind
wipe_journal() {
	zero_range "$1" 0 $((8 * 1048576))
}

# whatever happens, leave no VD or journal (nor one to find) behind
cleanup_scan() {
	local d
	set +e
	for d in /sys/block/vraid*; do
		[ -e "$d" ] && vraidctl delete "/dev/${d##*/}" --force >/dev/null 2>&1
	done
	[ -c /dev/vraid-control ] ||
		insmod "$VRAID_KO" ${VRAID_MODULE_ARGS:-} >/dev/null 2>&1
	vraidctl controller journal discard --force >/dev/null 2>&1
	vraidctl controller journal none >/dev/null 2>&1
	wipe_journal "$J"
	wipe_journal "$JX"
	return 0
}
trap cleanup_scan EXIT

# reload: every VD stopped, the module unloaded (which detaches the
# journal cleanly, not RELEASED) and loaded again
reload() {
	local d
	for d in /sys/block/vraid*; do
		[ -e "$d" ] || continue
		vraidctl stop "/dev/${d##*/}" >/dev/null || fail "stop /dev/${d##*/}"
	done
	rmmod vraid || fail "rmmod vraid"
	[ ! -e /dev/vraid-control ] || fail "control device left after rmmod"
	insmod "$VRAID_KO" ${VRAID_MODULE_ARGS:-} || fail "insmod $VRAID_KO"
	[ -c /dev/vraid-control ] || fail "no control device after insmod"
	expect_journal_none
}

expect_journal_none() {
	[ "$(journal_state)" = none ] || fail "a journal is attached: $(journal_json)"
}

# scan [ARGS]: assemble --scan, output in $OUT/$ERR (shown); the one VD
# assembled from all 3 members, in $vd
scan() {
	expect_ok vraidctl assemble --scan "$@"
	echo "$OUT"
	[ -z "$ERR" ] || echo "$ERR"
	echo "$OUT" | grep -q "assembled.*3 of 3 devices used" ||
		fail "the VD was not assembled from its 3 members: $OUT"
	vd=/dev/$(echo "$OUT" | grep "assembled" | head -n 1 | cut -d: -f1)
	[ -b "$vd" ] || fail "$vd missing"
}

# examine_has DEV REGEX: examine DEV succeeds and says REGEX
examine_has() {
	vraidctl examine "$1" >/tmp/ex 2>&1 || { cat /tmp/ex; fail "examine $1 failed"; }
	grep -Eq -- "$2" /tmp/ex || { cat /tmp/ex; fail "examine $1 does not say /$2/"; }
}

# ejson DEV KEY: the value of KEY in examine DEV --json
ejson() {
	vraidctl examine --json "$1" | grep -o "\"$2\":[^,}]*" | head -n 1 | cut -d: -f2- | tr -d '"'
}

expect_journal_none
# only this case's metadata and journals on the disks: --scan sees them all
WIPE_TAIL_MIB=0 wipe_members $NVME_DEVS $SATA_DEVS $SAS_DEVS
zero_members 0 $members

echo "--- examine of a device that is nothing"
expect_fail vraidctl examine "$J"
expect_msg "no valid vraid metadata"

echo "--- a wb VD, the journal attached; examine says attached"
vd=$(vd_create --level 5 --strip 64K --init fast --write-policy wb $members)
expect_ok vraidctl controller journal "$J"
expect_write "$vd" write_back
uuid=$(journal_json | grep -o '"uuid":"[^"]*"' | cut -d'"' -f4)
[ -n "$uuid" ] || fail "no journal UUID: $(journal_json)"
vraidctl examine "$J"
examine_has "$J" "^Type: +vraid journal"
examine_has "$J" "^Journal UUID: +$uuid"
examine_has "$J" "^Attached: +yes, healthy"
[ "$(ejson "$J" type)" = journal ] || fail "examine --json type: $(vraidctl examine --json "$J")"
[ "$(ejson "$J" attached)" = true ] || fail "examine --json attached: $(vraidctl examine --json "$J")"
[ "$(ejson "$J" uuid)" = "$uuid" ] || fail "examine --json uuid"
[ "$(ejson "$J" ring_bytes)" = $(( ($(dev_bytes "$J") - 1048576) / 4096 * 4096 )) ] ||
	fail "ring_bytes $(ejson "$J" ring_bytes) for a device of $(dev_bytes "$J") bytes"
# a member is still examined as a member
examine_has "$first" "^VD UUID:"
h0=$(journal_num head_seq)
fio_verify "$vd" data --rw=randwrite --bs=4k --size=$(mb 16) --iodepth=8
[ "$(journal_num head_seq)" -gt "$h0" ] || fail "the wb VD did not log"
sum0=$(sum_mib "$vd" 16)

echo "--- module reload: DETACHED, not RELEASED; not attached"
reload
vraidctl examine "$J"
examine_has "$J" "^Flags: +DETACHED: detached cleanly"
examine_has "$J" "^Attached: +no \(no journal is attached\)"
[ "$(ejson "$J" released)" = false ] || fail "released after a module unload"
[ "$(ejson "$J" detached)" = true ] || fail "not detached after a module unload"

echo "--- two devices with that journal's superblock: attach none, list both"
dd if="$J" of="$JX" bs=4096 skip=1 seek=1 count=2 conv=notrunc iflag=direct oflag=direct 2>/dev/null ||
	fail "copying the superblock"
scan
expect_journal_none
echo "$ERR" | grep -q "attached none" || fail "no word of the ambiguity: $ERR"
echo "$ERR" | grep -qF "$J" && echo "$ERR" | grep -qF "$JX" || fail "both devices not listed: $ERR"
expect_write "$vd" write_through no_journal
verify_data "$vd" "assembled without a journal"
vraidctl stop "$vd" >/dev/null || fail "stop"
wipe_journal "$JX"

echo "--- --no-journal: not attached"
scan --no-journal
expect_journal_none
echo "$OUT" | grep -q "journal.*attached" && fail "--no-journal attached a journal: $OUT"
vraidctl stop "$vd" >/dev/null || fail "stop"

echo "--- assemble --scan attaches it again; the wb VD logs to it"
scan
echo "$OUT" | grep -qF "$J: journal $uuid attached again" || fail "not attached or not said: $OUT"
[ "$(journal_state)" = healthy ] || fail "journal $(journal_state)"
journal_json | grep -qF "\"uuid\":\"$uuid\"" || fail "another journal: $(journal_json)"
expect_write "$vd" write_back
# the members' reserved areas now: metadata naming the journal, as a
# power cut would leave them
for m in $members; do
	dd if="$m" of="/tmp/md.${m##*/}" bs=1M count=8 iflag=direct 2>/dev/null ||
		fail "saving the metadata of $m"
done
[ "$(sum_mib "$vd" 16)" = "$sum0" ] || fail "data changed over the reload"
verify_data "$vd" "after the reload and assemble --scan"
h1=$(journal_num head_seq)
fio_verify "$vd" again --rw=randwrite --bs=4k --size=$(mb 4) --offset=$(mb 32) --randseed=3 --iodepth=8
[ "$(journal_num head_seq)" -gt "$h1" ] || fail "writes after the re-attach were not logged"
examine_has "$J" "^Attached: +yes"
# already attached: a second scan leaves it (and assembles nothing new)
expect_ok vraidctl assemble --scan
echo "$OUT" | grep -q "journal.*attached" && fail "a second scan attached again: $OUT"

echo "--- journal none: RELEASED; after a reload assemble --scan leaves it"
expect_ok vraidctl controller journal none
expect_write "$vd" write_through no_journal
vraidctl examine "$J"
examine_has "$J" "^Flags: +DETACHED, RELEASED"
[ "$(ejson "$J" released)" = true ] || fail "not released after journal none"
[ "$(ejson "$J" attached)" = false ] || fail "attached after journal none"
reload
# an old member's copy B in the journal's ring (a former member made the
# journal): still a journal, never a member
dd if="$first" of="$J" bs=4096 skip=256 seek=256 count=1 conv=notrunc iflag=direct oflag=direct 2>/dev/null ||
	fail "copying copy B"
examine_has "$J" "^Type: +vraid journal"
scan
expect_journal_none
echo "$OUT" | grep -qF "released" || fail "the released journal not mentioned: $OUT"
expect_write "$vd" write_through no_journal
verify_data "$vd" "after journal none, a reload and assemble --scan"
fio --name=again --filename="$vd" --rw=randwrite --bs=4k --size=$(mb 4) --offset=$(mb 32) \
	--randseed=3 --direct=1 --ioengine=libaio --iodepth=8 --verify=crc32c \
	--verify_only=1 --verify_fatal=1 >/tmp/fio.again 2>&1 ||
	{ cat /tmp/fio.again; fail "data written with the journal re-attached differs"; }

echo "--- metadata naming the released journal (as after a power cut): attached"
vraidctl stop "$vd" >/dev/null || fail "stop"
for m in $members; do
	dd if="/tmp/md.${m##*/}" of="$m" bs=1M count=8 oflag=direct conv=notrunc 2>/dev/null ||
		fail "restoring the metadata of $m"
	rm -f "/tmp/md.${m##*/}"
done
examine_has "$first" "^Shutdown: +not clean"
scan
echo "$OUT" | grep -qF "$J: journal $uuid attached: the metadata of VD" ||
	fail "not attached for the VD's metadata: $OUT"
[ "$(journal_state)" = healthy ] || fail "journal $(journal_state)"
verify_data "$vd" "after the assembly that needed the journal"
expect_ok vraidctl controller journal none

echo "--- a damaged journal superblock"
expect_ok vraidctl controller journal "$JX"
expect_ok vraidctl controller journal none
examine_has "$JX" "^Type: +vraid journal"
# garbage after the header fields of both slots (the magic stays)
for off in 4160 8256; do
	dd if=/dev/urandom of="$JX" bs=1 seek=$off count=200 conv=notrunc,fsync 2>/dev/null ||
		fail "dd garbage"
done
sync
echo 3 >/proc/sys/vm/drop_caches
expect_fail vraidctl examine "$JX"
echo "$OUT"
echo "$ERR"
expect_msg "damaged vraid journal superblock"
echo "$OUT" | grep -Eq "^Slot 0: +bad" || fail "slot 0 not bad: $OUT"
[ "$(vraidctl examine --json "$JX" | grep -o '"status":"bad"' | wc -l)" = 2 ] ||
	fail "examine --json: $(vraidctl examine --json "$JX")"
# the scan neither attaches nor assembles it, and says so
vraidctl stop "$vd" >/dev/null || fail "stop"
scan
expect_journal_none
echo "$ERR" | grep -qF "$JX: damaged vraid journal superblock" ||
	fail "the scan did not name the damaged journal: $ERR"
echo "$OUT" | grep -qF "$JX" && fail "the damaged journal came up in the scan: $OUT"
# attaching it by hand is refused (it may hold writes), nothing changed;
# --force formats it
expect_fail vraidctl controller journal "$JX"
expect_msg "damaged journal superblock .*give --force"
expect_journal_none
[ "$(vraidctl examine --json "$JX" | grep -o '"status":"bad"' | wc -l)" = 2 ] ||
	fail "the refused attach changed the journal: $(vraidctl examine --json "$JX")"
expect_ok vraidctl controller journal "$JX" --force
[ "$(journal_state)" = healthy ] || fail "journal $(journal_state) after --force"
expect_ok vraidctl controller journal none
# garbage over both slots whole: nothing vraid is left
dd if=/dev/urandom of="$JX" bs=4096 seek=1 count=2 conv=notrunc oflag=direct 2>/dev/null ||
	fail "dd garbage"
expect_fail vraidctl examine "$JX"
expect_msg "no valid vraid metadata \(and no vraid journal superblock\)"
vd_delete "$vd"
echo "journal scan: ok"
