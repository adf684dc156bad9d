#!/bin/sh
# A VD bound to the journal (wb) leaves it while a member fails writes
# under its dirty data: the unbind must undo itself, not half happen.
# `set write-policy=awb` (which, unlike wt, does not write the cache out
# before the unbind starts) and the unbind's write-out fails: before the
# fix of 7 December 2026 the command succeeded, the VD's metadata stopped
# naming the journal and the journal's copy of data the members lacked
# went with it (a crash then lost acknowledged writes).  Now the command
# fails and says why, the VD stays wb and bound (its metadata names the
# journal, the journal counts it), the data stays dirty; once the member
# is back the change goes through and the data reads back after a stop
# and assembly.
# vm: --nvme 5
# timeout: 300
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vraid.sh"
set -e

require_devs 5 $NVME_DEVS
set -- $NVME_DEVS
m0=$1 m1=$2 jdev=$5
data=/tmp/92-data
head -c 4194304 /dev/urandom >$data
want=$(md5sum <$data | cut -d' ' -f1)

cleanup() {
	journal_cleanup "" e92
}
trap cleanup EXIT

readback() {
	dd if="$1" bs=1M count=4 iflag=direct 2>/dev/null | md5sum | cut -d' ' -f1
}
dirty_kib() {
	echo $(($(vd_attr $1 cache_dirty_bytes) / 1024))
}

wipe_members $m0 $m1 $jdev
dm_over e92 $m1
sz=$(blockdev --getsz $m1)
journal_new $jdev
vd=$(vd_create --level 0 --strip 16K --write-policy wb $m0 /dev/mapper/e92)
expect_write "$vd" write_back
[ "$(journal_num vds)" = 1 ] || fail "the journal counts $(journal_num vds) VDs bound: $(journal_json)"
# the data into the cache (and the journal), every write acknowledged;
# then e92 fails every I/O (dm_release puts it back) before the age
# destage (2 s) writes all of it out
dd if=$data of=$vd bs=128k oflag=direct 2>/dev/null || fail "dd to $vd"
dmsetup suspend e92
echo "0 $sz error" | dmsetup load e92
dmsetup resume e92
d=$(dirty_kib $vd)
[ "$d" -gt 0 ] || fail "nothing dirty after the buffered write"
used=$(journal_num used_bytes)
echo "$d KiB dirty, the journal holds $used bytes"

expect_fail vraidctl set $vd write-policy=awb
[ "$(journal_num vds)" = 1 ] ||
	fail "the journal counts $(journal_num vds) VDs bound after the failed change ($ERR): the unbind went on without the data on the members"
[ "$(vd_attr $vd write_policy)" = write-back ] ||
	fail "write policy $(vd_attr $vd write_policy) after a refused change"
expect_write "$vd" write_back
expect_msg "cannot be written"
echo "set write-policy=awb refused: $ERR"
[ "$(dirty_kib $vd)" -gt 0 ] || fail "the refused change dropped the dirty data"
[ "$(journal_num used_bytes)" -ge "$used" ] ||
	fail "the journal holds $(journal_num used_bytes) bytes after a refused change, $used before"
kmsg | grep -q "$(basename $vd): writing out the controller cache failed: the VD stays bound" ||
	fail "the kernel log does not say the VD stays bound"
# the same with wt (the write-out before the unbind fails already)
expect_fail vraidctl set $vd write-policy=wt
expect_msg "cannot be written"
expect_write "$vd" write_back

dm_release e92 $m1
expect_ok vraidctl set $vd write-policy=awb
[ "$(vd_attr $vd write_policy)" = always-write-back ] ||
	fail "write policy $(vd_attr $vd write_policy) after the member came back"
[ "$(journal_num vds)" = 0 ] || fail "the journal still counts $(journal_num vds) VDs bound"
out=$(vraidctl stop $vd) || fail "stop $vd: $out"
out=$(vraidctl assemble $m0 /dev/mapper/e92) || fail "assemble: $out"
vd=/dev/${out%%:*}
[ "$(readback $vd)" = "$want" ] || fail "the data differs after the member came back, stop and assembly"
vd_delete "$vd"
dmesg_check || fail "the kernel log shows problems"
echo "ok"
