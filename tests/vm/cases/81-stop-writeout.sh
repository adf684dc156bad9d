#!/bin/sh
# Stop never loses cached writes (issue: data safety).  A RAID0 of 16 KiB
# strips (a destage of a 64 KiB cache line is cut at every strip) with a
# volatile write-back cache (awb), and one writing back through the
# journal (wb), take 8 MiB of buffered writes that no flush covers; stop
# must write them out while the VD's queue still exists (before, the
# pieces of a split destage met a deleted disk and failed with EIO, the
# pages were dropped and stop said nothing): after assembly every byte
# reads back.  Then a member that fails writes under dirty data (its dm
# table swapped to the error target): every fsync of the VD fails, not
# only the first (the error is sticky while the data is not out), stop
# fails, names the dirty data and leaves the VD running with it, and so
# does a change of write policy to wt; once
# the member is back the same data goes out, fsync succeeds again, stop
# succeeds and the data reads back after assembly; stop --force gives
# the data up and says how much.  With wb and the
# journal (which holds the writes) stop and the journal's detach are
# refused until the member is back.
# vm: --nvme 5
# timeout: 600
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vraid.sh"
set -e

# vd_fsync VD: fsync the VD (a flush; `sync` sends none to a raw device)
vd_fsync() {
	dd if=/dev/zero of="$1" bs=4k count=0 conv=notrunc,fsync 2>/dev/null
}

dirty_kib() {
	echo $(($(vd_attr $1 cache_dirty_bytes) / 1024))
}

require_devs 5 $NVME_DEVS
set -- $NVME_DEVS
m0=$1 m1=$2 jdev=$5
data=/tmp/81-data
head -c 8388608 /dev/urandom >$data
want=$(md5sum <$data | cut -d' ' -f1)

# readback VD: md5 of its first 8 MiB
readback() {
	dd if="$1" bs=1M count=8 iflag=direct 2>/dev/null | md5sum | cut -d' ' -f1
}

# stop_assemble VD MEMBERS...: stop, assemble, print the new node
stop_assemble() {
	local vd=$1 out
	shift
	vraidctl stop "$vd" >/dev/null || fail "stop $vd failed"
	out=$(vraidctl assemble "$@") || fail "assemble $* failed"
	echo "/dev/${out%%:*}"
}

for policy in awb wb; do
	wipe_members $m0 $m1
	if [ $policy = wb ]; then
		wipe_members $jdev
		vraidctl controller journal $jdev --force >/dev/null ||
			fail "controller journal $jdev"
	fi
	vd=$(vd_create --level 0 --strip 16K --write-policy $policy $m0 $m1)
	# buffered: the page cache writes it back at close, with no flush
	dd if=$data of=$vd bs=1M 2>/dev/null || fail "dd to $vd"
	d=$(dirty_kib $vd)
	# (wb destages as it goes: what is left at the stop varies, may be 0)
	[ "$d" -gt 0 ] || [ $policy = wb ] ||
		fail "$policy: nothing dirty after the buffered write"
	echo "$policy: $d KiB dirty at stop"
	mark_dmesg
	vd=$(stop_assemble $vd $m0 $m1)
	dmesg_since_mark | grep -q "writing out the controller cache failed" &&
		fail "$policy: stop says the write-out failed"
	[ "$(readback $vd)" = "$want" ] ||
		fail "$policy: the data differs after stop and assembly ($d KiB were dirty)"
	vd_delete "$vd"
	[ $policy = awb ] || vraidctl controller journal none >/dev/null ||
		fail "journal detach"
done

# A member that fails writes while the cache holds dirty data.
wipe_members $m0 $m1
dm_over e81 $m1
# e81_error: e81 fails every I/O from now on (dm_release puts it back)
e81_error() {
	dmsetup suspend e81
	echo "0 $sz error" | dmsetup load e81
	dmsetup resume e81
}
vd=$(vd_create --level 0 --strip 16K --write-policy awb $m0 /dev/mapper/e81)
n=${vd#/dev/}
sz=$(blockdev --getsz $m1)
e81_error
dd if=$data of=$vd bs=1M 2>/dev/null || fail "dd to $vd"
d=$(dirty_kib $vd)
[ "$d" -gt 0 ] || fail "nothing dirty after the buffered write"
for i in 1 2 3; do
	vd_fsync $vd && fail "fsync $i of $vd succeeded with a member failing writes"
done
echo "three fsyncs failed, $(dirty_kib $vd) KiB still dirty"
# a write the cache does not take (512 bytes), over data it cannot write
# out, fails: sent around, it would be overwritten by the older cached
# data once that goes out
dd if=/dev/zero of=$vd bs=512 count=1 seek=8 oflag=direct 2>/dev/null &&
	fail "a 512-byte write over dirty data that cannot be written out succeeded"
[ "$(dirty_kib $vd)" -gt 0 ] || fail "the failed write-out dropped the dirty data"
expect_fail vraidctl stop $vd
expect_msg "cannot be written|KiB"
[ -b $vd ] || fail "$vd is gone after a stop that failed"
[ "$(vd_attr $vd state)" != "" ] || fail "no state for $vd"
echo "stop refused: $ERR"
# nor does a change of write policy let the data go
expect_fail vraidctl set $vd write-policy=wt
expect_msg "cannot be written"
[ "$(vd_attr $vd write_policy)" = always-write-back ] ||
	fail "write policy $(vd_attr $vd write_policy) after a refused change"
[ "$(dirty_kib $vd)" -gt 0 ] || fail "the refused policy change dropped the dirty data"
# the member comes back: the same data goes out.  The first fsync
# reports the failures of stop's write-out, which no opener saw yet
# (errseq_t: once, to the next fsync, which then sends no flush); the
# next one writes the data out and succeeds.
dm_release e81 $m1
vd_fsync $vd && fail "the first fsync after stop's failed write-out did not report it"
vd_fsync $vd || fail "fsync failed after the member came back"
[ "$(dirty_kib $vd)" = 0 ] || fail "$(dirty_kib $vd) KiB dirty after a good fsync"
vd=$(stop_assemble $vd $m0 /dev/mapper/e81)
[ "$(readback $vd)" = "$want" ] ||
	fail "the data differs after the member came back, stop and assembly"
vd_delete "$vd"

# stop --force gives the data up, and says how much.
wipe_members $m0 /dev/mapper/e81
vd=$(vd_create --level 0 --strip 16K --write-policy awb $m0 /dev/mapper/e81)
e81_error
dd if=$data of=$vd bs=1M 2>/dev/null || fail "dd to $vd"
expect_fail vraidctl stop $vd
expect_ok vraidctl stop --force $vd
expect_msg "discarded"
echo "stop --force: $ERR"
[ ! -b $vd ] || fail "$vd is still there after stop --force"
dm_release e81 $m1

# The same with wb and the journal: the journal holds the data, but
# neither stop nor the journal's detach may let it go while the member
# fails writes (and no checkpoint moves its tail).
wipe_members $m0 /dev/mapper/e81 $jdev
vraidctl controller journal $jdev --force >/dev/null || fail "controller journal $jdev"
vd=$(vd_create --level 0 --strip 16K --write-policy wb $m0 /dev/mapper/e81)
e81_error
dd if=$data of=$vd bs=1M 2>/dev/null || fail "dd to $vd"
expect_fail vraidctl stop $vd
expect_msg "cannot be written"
expect_fail vraidctl controller journal none
expect_msg "cannot be written|stays attached"
echo "wb: stop and detach refused: $ERR"
dm_release e81 $m1
vd=$(stop_assemble $vd $m0 /dev/mapper/e81)
[ "$(readback $vd)" = "$want" ] ||
	fail "wb: the data differs after the member came back, stop and assembly"
vd_delete "$vd"
vraidctl controller journal none >/dev/null || fail "journal detach"
dmsetup remove e81
echo "ok"
