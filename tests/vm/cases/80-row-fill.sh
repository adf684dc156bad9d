#!/bin/sh
# Row fill (the cache's destage on rotational members): a RAID5 VD over
# non-rotational members destages column by column and fills nothing;
# marked rotational, its destage reads a row whose dirty data lies in
# enough columns (2 on a RAID5 of 4; 4 in a flush's or checkpoint's
# write-out) whole and writes it as a full stripe, so the members see
# fewer, larger writes (cache_fill_pages counts the pages
# read; cache_destaged and cache_dirty_bytes leave them out).  Every
# write reads back verified (fio crc32c), parity is consistent (check: 0
# mismatches); with wb over the journal (parity records) it fills too,
# and data survives stop and assembly; RAID6 fills too, also
# with two members failed (the fill reads through P and Q), all of it
# reading back.  Writes around the cache (FUA) into rows being filled
# read back too: a fill keeps nothing a write changed meanwhile.
# timeout: 600
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vraid.sh"
set -e

require_devs 4 nvme
require_devs 2 sata
require_devs 2 sas

cleanup_fill() {
	set +e
	for d in /sys/block/vraid*; do
		[ -e "$d" ] && vraidctl delete "/dev/${d##*/}" --force >/dev/null 2>&1
	done
	vraidctl controller journal none >/dev/null 2>&1
	return 0
}
trap cleanup_fill EXIT

check_count() { # VD: run a check, print its mismatch count
	vraidctl check "$1" >/dev/null || fail "check $1 did not start"
	vraidctl wait "$1" >/dev/null || fail "check $1 failed"
	vd_attr "$1" mismatch_cnt
}

# load VD NAME SEED: 2048 writes of 4 KiB at random over 64 MiB, 16 at
# a time, verified (an eighth of the pages: rows with dirty data in a
# few columns, not whole), then the background destage (not a flush's)
# writes them out
load() {
	fio_verify "$1" "$2" --rw=randwrite --bs=4k --size=$(mb 64) \
		--number_ios=2048 --randseed="$3" --iodepth=16
	destaged "$1"
}

# reverify VD NAME SEED WHAT: what `load VD NAME SEED` wrote reads back
reverify() {
	fio --name="$2" --filename="$1" --rw=randwrite --bs=4k --size=$(mb 64) \
		--number_ios=2048 --randseed="$3" --direct=1 --ioengine=libaio --iodepth=16 \
		--verify=crc32c --verify_only=1 --verify_fatal=1 >/tmp/fio.vo 2>&1 ||
		{ cat /tmp/fio.vo; fail "$2 on $1 differs ($4)"; }
}

members=$(echo $NVME_DEVS | cut -d' ' -f1-4)
J=$(echo $SAS_DEVS | cut -d' ' -f1)	# the journal
# shellcheck disable=SC2086 # the members, one word each
zero_members 0 $members
# shellcheck disable=SC2086
vd=$(vd_create --level 5 --init fast --write-policy awb $members)
n=${vd#/dev/}
settle

echo "--- non-rotational members: destage column by column, no fill"
[ "$(cat /sys/block/$n/queue/rotational)" = 0 ] ||
	fail "a VD over NVMe members says rotational"
# shellcheck disable=SC2086
w0=$(member_reqs w $members)
load "$vd" a 1
# shellcheck disable=SC2086
w1=$(member_reqs w $members)
[ "$(vd_attr $vd cache_fill_pages)" = 0 ] ||
	fail "filled $(vd_attr $vd cache_fill_pages) pages on non-rotational members"
# shellcheck disable=SC2086
set -- $w0 $w1
echo "destage wrote $(($3 - $1)) requests of $((($4 - $2) / ($3 - $1))) KiB on average"
nonrot_kb=$((($4 - $2) / ($3 - $1)))

echo "--- rotational: rows filled, written as full stripes"
echo 1 >/sys/block/$n/queue/rotational
d0=$(vd_attr $vd cache_destaged)
# shellcheck disable=SC2086
w0=$(member_reqs w $members)
load "$vd" b 2
# shellcheck disable=SC2086
w1=$(member_reqs w $members)
fill=$(vd_attr $vd cache_fill_pages)
echo "filled $fill pages; destaged $(($(vd_attr $vd cache_destaged) - d0)) written pages"
[ "$fill" -gt 0 ] || fail "no row filled on a rotational VD"
[ "$(($(vd_attr $vd cache_destaged) - d0))" -le 2048 ] ||
	fail "cache_destaged counts filled pages: $(($(vd_attr $vd cache_destaged) - d0)) for 2048 written"
# shellcheck disable=SC2086
request_kb "the filled destage" $((nonrot_kb * 2)) $w0 $w1
reverify "$vd" b 2 "after the filled destage"
[ "$(check_count $vd)" = 0 ] || fail "parity mismatches after filled destages"

echo "--- reads and rewrites over rows being filled"
fio_verify "$vd" c --rw=randrw --bs=4k --size=$(mb 8) --randseed=3 --iodepth=16
fio_verify "$vd" d --rw=randwrite --bs=4k --size=$(mb 4) --randseed=4 \
	--iodepth=16 --verify_backlog=32 --loops=3
destaged "$vd"
[ "$(check_count $vd)" = 0 ] || fail "parity mismatches after rewrites"

echo "--- writes around the cache into rows being filled"
# Cached 4 KiB writes to the even blocks of 16 MiB, and at the same time
# FUA writes (O_SYNC: around the cache, to the members) to the odd ones:
# the rows the first dirty are filled while the second write into them.
# A fill must keep nothing it read of a block written meanwhile (its
# destage would write the old data back), so every block reads back.
f0=$(vd_attr $vd cache_fill_pages)
around() { # NAME OFFSET IOS RATE [fio options...]: the job, without its verify
	name=$1 off=$2 ios=$3 rate=$4
	shift 4
	fio --name="$name" --filename="$vd" --direct=1 --ioengine=libaio \
		--rw=randwrite --bs=4k --ba=8k --offset="$off" --size=$(mb 16) \
		--number_ios="$ios" --rate_iops="$rate" --randseed=9 \
		--iodepth=8 --verify=crc32c "$@"
}
around g 0 2048 400 --do_verify=0 >/tmp/fio.g 2>&1 &
pg=$!
around h 4k 1024 200 --do_verify=0 --sync=1 >/tmp/fio.h 2>&1 ||
	{ cat /tmp/fio.h; fail "the FUA writes failed"; }
wait $pg || { cat /tmp/fio.g; fail "the cached writes failed"; }
destaged "$vd"
echo "filled $(($(vd_attr $vd cache_fill_pages) - f0)) pages meanwhile"
[ "$(vd_attr $vd cache_fill_pages)" -gt "$f0" ] ||
	fail "no row filled under writes around the cache"
around g 0 2048 400 --verify_only=1 --verify_fatal=1 >/tmp/fio.g 2>&1 ||
	{ cat /tmp/fio.g; fail "the cached writes do not read back"; }
around h 4k 1024 200 --verify_only=1 --verify_fatal=1 >/tmp/fio.h 2>&1 ||
	{ cat /tmp/fio.h; fail "the FUA writes do not read back"; }
[ "$(check_count $vd)" = 0 ] || fail "parity mismatches after writes around"

echo "--- wb over the journal: parity records, rows filled too"
journal_new "$J"
vraidctl set "$vd" write-policy=wb >/dev/null || fail "write-policy=wb"
expect_write "$vd" write_back
f0=$(vd_attr $vd cache_fill_pages)
load "$vd" data 5
[ "$(vd_attr $vd cache_fill_pages)" -gt "$f0" ] ||
	fail "no row filled while logging parity records"
echo "filled $(($(vd_attr $vd cache_fill_pages) - f0)) pages logging parity records"
[ "$(check_count $vd)" = 0 ] || fail "parity mismatches with the journal"
vraidctl stop "$vd" >/dev/null || fail "stop"
# shellcheck disable=SC2086
out=$(vraidctl assemble $members) || fail "assemble: $out"
vd=/dev/$(echo "$out" | cut -d: -f1)
reverify "$vd" data 5 "after stop and assemble"
vd_delete "$vd"
vraidctl controller journal none >/dev/null || fail "journal none"

echo "--- RAID6 over mixed members (rotational)"
R6=$(mixed_members 5)
# shellcheck disable=SC2086
zero_members 0 $R6
# shellcheck disable=SC2086
vd=$(vd_create --level 6 --init fast --write-policy awb $R6)
settle
[ "$(cat /sys/block/${vd#/dev/}/queue/rotational)" = 1 ] ||
	fail "a VD with SATA and SAS members says non-rotational"
load "$vd" e 6
[ "$(vd_attr $vd cache_fill_pages)" -gt 0 ] || fail "RAID6: no row filled"
[ "$(check_count $vd)" = 0 ] || fail "RAID6: parity mismatches"

echo "--- RAID6 doubly degraded: the fill reads through P and Q"
vraidctl fail "$vd" "$(echo $R6 | cut -d' ' -f2)" >/dev/null || fail "fail a member"
vraidctl fail --force "$vd" "$(echo $R6 | cut -d' ' -f4)" >/dev/null ||
	fail "fail a second member"
f0=$(vd_attr $vd cache_fill_pages)
load "$vd" f 7
[ "$(vd_attr $vd cache_fill_pages)" -gt "$f0" ] || fail "degraded: no row filled"
reverify "$vd" f 7 "degraded, after the destage"
reverify "$vd" e 6 "written before the members failed"
vd_delete "$vd"
echo "row fill: ok"
