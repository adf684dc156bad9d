#!/bin/sh
# Crash test with a set order (tests/vm/crash-test LEVELi), first boot: a
# fresh VD writing back through the controller's journal takes, in this
# order and each acknowledged before the next:
#   A: 4 KiB at VD block 100, into the cache and the journal (DATA);
#   B: 1 KiB at VD sector 802, inside A's block: not whole pages, so
#      around the cache (after A reached the members) to the members,
#      then an INVALIDATE of sectors 802-803 logged;
#   D: 1 KiB at VD sector 810, inside block 101: around, an INVALIDATE;
#   C: 4 KiB at block 101, over D: into the cache and the journal again;
# then OPS writes at random into blocks 200-215, each acknowledged
# before the next (seed SEED): 4 KiB ones (logged) and ones of 1 to 7
# sectors inside a page (around the cache), so that logged versions and
# later writes around overlap in every way, wholly and in part; then the
# host cuts the power, before any checkpoint moves the journal's tail.
# The second boot (inval2.sh) replays them all: A must not be written
# over B (B's INVALIDATE, later than A, voids those two sectors of it),
# C must be written over D (it is later), and blocks 200-215 must read
# as the same writes applied in order to a file.  What blocks 96-103 and
# 200-215 must read, and the number of logged writes, go to the log
# disk, outside the VD, for it.
# (A write of whole pages is split to the VD's limits and the cache
# takes every piece: only writes of part of a page, or with a
# preflush, go around.)
. "$(dirname "$0")/common.sh"
set -e
[ "${POLICY:-}" = journal ] || fail "POLICY=journal expected (crash-test sets it)"
journal_new "$JDEV"
vd=$(vd_create $LM_OPTS --strip 16K --init fast --name inval$LEVEL \
	--write-policy wb $LM_DEVS)
expect_write "$vd" write_back
[ "$(blockdev --getss "$vd")" = 512 ] ||
	fail "$vd has $(blockdev --getss "$vd")-byte logical blocks: B and D need 512"
tail0=$(journal_num tail_seq)

# wrote WHAT J C: after the write of WHAT, journal_writes is J and
# cache_write_pages C; sets j to journal_writes
wrote() {
	local c
	j=$(vd_attr "$vd" journal_writes) c=$(vd_attr "$vd" cache_write_pages)
	[ "$j" = "$2" ] || fail "$1: journal_writes $j, expected $2"
	[ "$c" = "$3" ] || fail "$1: cache_write_pages $c, expected $3"
}
for f in a c; do
	dd if=/dev/urandom of=/tmp/$f bs=4k count=1 iflag=fullblock 2>/dev/null
done
for f in b d; do
	dd if=/dev/urandom of=/tmp/$f bs=1k count=1 iflag=fullblock 2>/dev/null
done
j=$(vd_attr "$vd" journal_writes) c=$(vd_attr "$vd" cache_write_pages)
dd if=/tmp/a of="$vd" bs=4k seek=100 oflag=direct 2>/dev/null || fail "write A"
wrote "A (4 KiB at block 100: the cache, a DATA record)" $((j + 1)) $((c + 1))
dd if=/tmp/b of="$vd" bs=1k seek=401 oflag=direct 2>/dev/null || fail "write B"
wrote "B (1 KiB at sector 802: around the cache, an INVALIDATE)" $((j + 1)) $((c + 1))
dd if=/tmp/d of="$vd" bs=1k seek=405 oflag=direct 2>/dev/null || fail "write D"
wrote "D (1 KiB at sector 810: around the cache, an INVALIDATE)" $((j + 1)) $((c + 1))
dd if=/tmp/c of="$vd" bs=4k seek=101 oflag=direct 2>/dev/null || fail "write C"
wrote "C (4 KiB at block 101: the cache, a DATA record)" $((j + 1)) $((c + 2))

# the random part: "w BLOCK" (4 KiB) or "s SECTOR COUNT" (inside a page)
ops=${OPS:-200}
awk -v n="$ops" -v seed="${SEED:-1}" 'BEGIN {
	srand(seed)
	for (i = 0; i < n; i++) {
		if (rand() < 0.5) { print "w", 200 + int(rand() * 16); continue }
		k = 1 + int(rand() * 7); o = int(rand() * (9 - k))
		print "s", (200 + int(rand() * 16)) * 8 + o, k
	}
}' >/tmp/ops
dd if=/dev/zero of=/tmp/ref2 bs=4k count=16 2>/dev/null
j0=$j
nw=$(grep -c '^w' /tmp/ops)
while read -r t x k; do
	if [ "$t" = w ]; then
		off=$((x * 4096)) len=4096
	else
		off=$((x * 512)) len=$((k * 512))
	fi
	dd if=/dev/urandom of=/tmp/op bs=$len count=1 iflag=fullblock 2>/dev/null
	dd if=/tmp/op of="$vd" bs=$len seek=$off count=1 oflag=direct,seek_bytes 2>/dev/null ||
		fail "write $t $x $k"
	dd if=/tmp/op of=/tmp/ref2 bs=$len seek=$((off - 200 * 4096)) count=1 \
		oflag=seek_bytes conv=notrunc 2>/dev/null
done </tmp/ops
wrote "$ops random writes ($nw of 4 KiB)" $((j0 + ops)) $((c + 2 + nw))
dd if="$vd" of=/tmp/got2 bs=4k skip=200 count=16 iflag=direct 2>/dev/null
cmp /tmp/got2 /tmp/ref2 || fail "before the power cut blocks 200-215 do not read the random writes"
[ "$(journal_num tail_seq)" = "$tail0" ] ||
	fail "the journal's tail moved (a checkpoint) while these were written: nothing left to replay"

# what blocks 96-103 must read, now and after the replay: A with B at its
# sectors 2-3, then C
{
	dd if=/dev/zero bs=4k count=4 2>/dev/null
	dd if=/tmp/a bs=1k count=1 2>/dev/null
	cat /tmp/b
	dd if=/tmp/a bs=1k skip=2 2>/dev/null
	cat /tmp/c
	dd if=/dev/zero bs=4k count=2 2>/dev/null
} >/tmp/want
dd if="$vd" of=/tmp/got bs=4k skip=96 count=8 iflag=direct 2>/dev/null
cmp /tmp/got /tmp/want || fail "before the power cut $vd does not read A with B in it, then C"
# the log disk: blocks 96-103, blocks 200-215, the logged writes' count
{ cat /tmp/want /tmp/ref2; echo "$((2 + nw))" | dd bs=4k conv=sync 2>/dev/null; } |
	dd of="$LOGDEV" bs=4k oflag=direct,sync 2>/dev/null || fail "saving the reference on $LOGDEV"
echo "RAID$LEVEL on $LM_DEVS, journal on $JDEV: A, B around the cache into it, D around, C over D, $ops at random ($nw logged) written; power cut"
echo "@@VRAID-KILL-IN@@ 0.5"
sleep 600
fail "still alive: the power cut did not come"
