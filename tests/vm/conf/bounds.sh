#!/bin/sh
# conf/bounds VD LEVEL - I/O at and past the end of the VD.
#
#  - the last logical block can be written and read back (O_DIRECT), and
#    so can the VD's last MiB (the last strip of every member);
#  - a write starting at the end fails (ENOSPC) and one straddling it
#    writes only up to the end; a read at the end returns nothing, one
#    straddling it only what is there; nothing hangs;
#  - direct I/O not aligned to the logical block size fails with EINVAL.
# The kernel log is checked by the runner (no BUG/WARNING).
. "$(dirname "$0")/common.sh"
conf_begin bounds "$1" "$2"
vd=$1
size=$(blockdev --getsize64 "$vd")
lbs=$(blockdev --getss "$vd")
last=$((size / lbs - 1))
[ $((size % lbs)) = 0 ] || fail "size $size is not a multiple of the block size $lbs"

rnd_file /tmp/b.dat $((2 * lbs))
head -c "$lbs" /tmp/b.dat >/tmp/b.one

bounded dd if=/tmp/b.one of="$vd" bs="$lbs" seek="$last" count=1 oflag=direct conv=notrunc
[ "$RC" = 0 ] || fail "writing the last block failed: $ERR"
[ "$(range_sum "$vd" $((last * lbs)) "$lbs")" = "$(file_sum /tmp/b.one)" ] ||
	fail "the last block reads back wrong"

bounded dd if=/tmp/b.one of="$vd" bs="$lbs" seek=$((last + 1)) count=1 oflag=direct conv=notrunc
[ "$RC" != 0 ] || fail "a write at the end succeeded"
echo "$ERR" | grep -q "No space left" || fail "a write at the end failed, but not with ENOSPC: $ERR"

bounded dd if=/dev/zero of="$vd" bs=$((2 * lbs)) seek=$((last * lbs)) count=1 oflag=direct,seek_bytes conv=notrunc
[ "$RC" != 0 ] || fail "a write straddling the end reported success"
[ "$(range_sum "$vd" $((last * lbs)) "$lbs")" = "$(zero_sum "$lbs")" ] ||
	fail "the straddling write did not write the last block"

got=$(dd if="$vd" bs="$lbs" skip=$((last + 1)) count=1 iflag=direct 2>/dev/null | wc -c)
assert_eq "$got" 0 "bytes read at the end"
got=$(dd if="$vd" bs=$((2 * lbs)) skip=$((last * lbs)) count=1 iflag=direct,skip_bytes 2>/dev/null | wc -c)
assert_eq "$got" "$lbs" "bytes read by a read straddling the end"

rnd_file /tmp/b.tail 1048576
put_file /tmp/b.tail "$vd" $((size - 1048576))
[ "$(range_sum "$vd" $((size - 1048576)) 1048576)" = "$(file_sum /tmp/b.tail)" ] ||
	fail "the last MiB reads back wrong"

half=$((lbs / 2))
bounded dd if=/dev/zero of="$vd" bs="$half" count=1 oflag=direct conv=notrunc
[ "$RC" != 0 ] || fail "a direct write of $half bytes succeeded"
echo "$ERR" | grep -q "Invalid argument" || fail "misaligned direct write: not EINVAL: $ERR"
bounded dd if="$vd" of=/dev/null bs="$lbs" skip="$half" count=1 iflag=direct,skip_bytes
[ "$RC" != 0 ] || fail "a direct read at a misaligned offset succeeded"
rm -f /tmp/b.dat /tmp/b.one /tmp/b.tail
conf_ok "size $size, block $lbs"
