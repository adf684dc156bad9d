#!/bin/sh
# Write-hole test (tests/vm/hole-test), first boot: a Degraded RAID5
# writing back through the controller's journal loses the P write of one
# destage, then the power goes.  RAID5 of M0, M1 (dm over disk X) and M2,
# 16 KiB strips: row 1 has P on M1, data index 0 (VD sectors 64-95) on M2
# and data index 1 (VD sectors 96-127) on M0 (driver/layout.h, w = 3).
# D_m is VD sector 64, 4 KiB, on M2; D_w is VD sector 96 on M0; their P is
# member sector 32 of M1 (16416 on the disk).  The first MiB is filled
# and on the members; then the VD is bound to the journal anew (its floor
# past the fill, whose records would rewrite whole rows on replay and
# repair any hole), M2 is failed, the 8 sectors of that P on X become
# dm-flakey drop_writes, and a 4 KiB write of D_w is destaged: D_w reaches
# M0, P does not, and D_m (D_w ^ P) now reads wrong.  The first MiB as it
# was, P before the write and the new D_w go to REF, a disk outside the
# VD, for the second boot (hole2.sh).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vraid.sh"
set -e
# the disks (the same in hole2.sh): NVMe 1-3 the members, 4 REF, 5 the
# journal (128 MiB)
set -- $NVME_DEVS
[ $# -ge 5 ] || fail "need 5 NVMe disks (run-in-vm --nvme 5), have $#"
M0=$1 X=$2 M2=$3 REF=$4 JDEV=$5
[ "$(dev_bytes "$JDEV")" -gt $((64 << 20)) ] ||
	fail "the journal disk $JDEV has $(dev_bytes "$JDEV") bytes (a 128 MiB nvme4.img)"
DM=8		# VD 4 KiB blocks: D_m = VD sector 64
DW=12		# D_w = VD sector 96
PSEC=$((DATA_OFFSET + 32))	# P of D_m and D_w on X: member sector 32
MSEC=$((DATA_OFFSET + 32))	# D_w on M0, D_m on M2: the same row

# blk DEV SECTOR: the 4 KiB at SECTOR of DEV, O_DIRECT
blk() {
	dd if="$1" bs=512 skip="$2" count=8 iflag=direct 2>/dev/null
}

# destaged VD: wait until the controller cache holds nothing dirty
destaged() {
	local i=0
	while [ "$(vd_attr "$1" cache_dirty_bytes)" != 0 ]; do
		i=$((i + 1))
		[ $i -lt 300 ] || fail "still $(vd_attr "$1" cache_dirty_bytes) bytes dirty after 30 s"
		sleep 0.1
	done
}

vraidctl controller journal "$JDEV" >/tmp/journal.out 2>&1 ||
	{ cat /tmp/journal.out; fail "controller journal $JDEV"; }
[ "$(journal_state)" = healthy ] ||
	fail "journal state $(journal_state): $(vraidctl controller show --json)"

modprobe dm-flakey || fail "modprobe dm-flakey"
XSZ=$(blockdev --getsz "$X")
echo "0 $XSZ linear $X 0" | dmsetup create vh-p || fail "dmsetup create vh-p"
settle
M1=/dev/mapper/vh-p
[ -b $M1 ] || fail "$M1 missing"

# all-zero images: --init fast is consistent
vd=$(vd_create --level 5 --strip 16K --init fast --write-policy wb \
	--name hole $M0 $M1 $M2)
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
# the layout: D_w on M0, D_m on M2, so P on M1; P consistent
dd if=/tmp/ref of=/tmp/dw.ref bs=4k skip=$DW count=1 2>/dev/null
blk $M0 $MSEC | cmp -s - /tmp/dw.ref ||
	fail "M0 sector $MSEC is not D_w (VD sector 96)"
dd if=/tmp/ref of=/tmp/dm.ref bs=4k skip=$DM count=1 2>/dev/null
blk $M2 $MSEC | cmp -s - /tmp/dm.ref ||
	fail "M2 sector $MSEC is not D_m (VD sector 64)"
pq_check 5 16384 1 32 $M0 $M1 $M2
blk $X $PSEC >/tmp/p.old
# bound anew: the journal's records from here on are the VD's replay
vraidctl set "$vd" write-policy=wb >/dev/null
expect_write "$vd" write_back
dd if=/tmp/ref of="$REF" bs=64k oflag=direct,sync 2>/dev/null || fail "saving the reference on $REF"

vraidctl fail "$vd" $M2 >/tmp/fail.out 2>&1 || { cat /tmp/fail.out; fail "fail $M2"; }
[ "$(vd_attr "$vd" state)" = degraded ] || fail "state $(vd_attr "$vd" state) after failing $M2"
expect_write "$vd" write_back

# P's 8 sectors drop writes (reads pass); the rest of X, metadata
# included, stays linear
dmsetup suspend vh-p || fail "dmsetup suspend vh-p"
printf '%s\n' "0 $PSEC linear $X 0" \
	"$PSEC 8 flakey $X $PSEC 0 3600 1 drop_writes" \
	"$((PSEC + 8)) $((XSZ - PSEC - 8)) linear $X $((PSEC + 8))" |
	dmsetup load vh-p || fail "dmsetup load vh-p"
dmsetup resume vh-p || fail "dmsetup resume vh-p"
dmsetup table vh-p

# the write of D_w, into the cache and the journal, then destaged
dd if=/dev/urandom of=/tmp/dw.new bs=4k count=1 2>/dev/null
d0=$(vd_attr "$vd" cache_destaged)
dd if=/tmp/dw.new of="$vd" bs=4k seek=$DW oflag=direct 2>/dev/null || fail "write of D_w"
destaged "$vd"
[ "$(vd_attr "$vd" cache_destaged)" -gt "$d0" ] || fail "D_w was not destaged"
blk $M0 $MSEC | cmp -s - /tmp/dw.new || fail "the destage did not write D_w to M0"
blk $X $PSEC | cmp -s - /tmp/p.old || fail "P on X changed: the write was not dropped"
[ "$(journal_state)" = healthy ] || fail "journal state $(journal_state)"
expect_write "$vd" write_back
# REF: the first MiB before the write, then D_w's new 4 KiB and the old P
cat /tmp/dw.new /tmp/p.old | dd of="$REF" bs=4k seek=256 oflag=direct,sync 2>/dev/null ||
	fail "saving D_w on $REF"
echo "RAID5 degraded ($M2 failed), journal on $JDEV: D_w written and destaged, its P on $X dropped; power cut"
echo "@@VRAID-KILL-IN@@ 0.5"
sleep 600
fail "still alive: the power cut did not come"
