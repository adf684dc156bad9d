#!/bin/sh
# conf/discard VD LEVEL - discard and write-zeroes.
#
# vraid offers discard on JBOD, RAID0, 1 and 10 when every member can
# discard, at most one strip per request (driver/vd.c), and never on the
# parity levels 5, 6, 50, 60. Checks:
#  - queue/discard_max_bytes is what that rule gives for these members;
#  - without discard, blkdiscard fails with EOPNOTSUPP and changes nothing;
#  - with it, discards that straddle strips (several strips, an odd
#    length, the last strip of the VD) succeed and leave every byte
#    outside the discarded ranges as it was (blkdiscard itself clips a
#    range at the end of the device, so past-the-end is bounds.sh's);
#  - blkdiscard -z (BLKZEROOUT, with or without write-zeroes support)
#    straddling strips reads back as zeros, its neighbours unchanged.
. "$(dirname "$0")/common.sh"
conf_begin discard "$1" "$2"
vd=$1
lvl=$2
conf_require_cmd blkdiscard

size=$(blockdev --getsize64 "$vd")
lbs=$(blockdev --getss "$vd")
strip=$(vd_attr "$vd" strip_size)
dmax=$(qattr "$vd" discard_max_bytes)

# what vraid should advertise: the smallest member limit, capped at a strip
want=-1
for m in $(vd_members_of "$vd"); do
	md=$(qattr "$m" discard_max_bytes)
	if [ "$want" = -1 ] || [ "$md" -lt "$want" ]; then want=$md; fi
done
[ "$want" != -1 ] || fail "no members found"
if is_parity_level "$lvl"; then
	want=0
elif [ "$strip" -gt 0 ] && [ "$want" -gt "$strip" ]; then
	want=$strip
fi
assert_eq "$dmax" "$want" "discard_max_bytes"
conf_note "discard_max_bytes $dmax, granularity $(qattr "$vd" discard_granularity), write_zeroes_max_bytes $(qattr "$vd" write_zeroes_max_bytes)"

# A test area of 8 strips (64 KiB for JBOD) at the start, full of data.
unit=${strip:-0}
[ "$unit" -gt 0 ] || unit=65536
area=$((8 * unit))
rnd_file /tmp/disc.dat "$area"
put_file /tmp/disc.dat "$vd" 0
[ "$(range_sum "$vd" 0 "$area")" = "$(file_sum /tmp/disc.dat)" ] || fail "data did not read back"
# and one strip at the end
rnd_file /tmp/disc.end "$unit"
put_file /tmp/disc.end "$vd" $((size - unit))

# same DEV OFF LEN: the test area still holds its data there
same() {
	[ "$(range_sum "$vd" "$1" "$2")" = "$(dd if=/tmp/disc.dat bs=64k skip="$1" count="$2" \
		iflag=skip_bytes,count_bytes 2>/dev/null | sha256sum | cut -d' ' -f1)" ]
}

# Straddling: from the middle of strip 1 over strips 2, 3 into strip 4.
d_off=$((unit + unit / 2))
d_len=$((2 * unit + unit / 2 + lbs))
if [ "$dmax" = 0 ]; then
	bounded blkdiscard -o "$d_off" -l "$d_len" "$vd"
	[ "$RC" != 0 ] || fail "blkdiscard succeeded on a VD without discard"
	echo "$ERR" | grep -q "not supported" ||
		fail "blkdiscard failed, but not with EOPNOTSUPP: $ERR"
	same 0 "$area" || fail "a refused discard changed data"
	conf_note "no discard: blkdiscard refused (EOPNOTSUPP), data unchanged"
else
	bounded blkdiscard -o "$d_off" -l "$d_len" "$vd"
	[ "$RC" = 0 ] || fail "blkdiscard straddling strips failed: $ERR"
	same 0 "$d_off" || fail "data before the discarded range changed"
	same $((d_off + d_len)) $((area - d_off - d_len)) ||
		fail "data after the discarded range changed"
	# several whole strips plus a partial one, aligned to a strip
	bounded blkdiscard -o $((5 * unit)) -l $((2 * unit + 4 * lbs)) "$vd"
	[ "$RC" = 0 ] || fail "blkdiscard of whole strips failed: $ERR"
	same 0 "$d_off" && same $((d_off + d_len)) $((5 * unit - d_off - d_len)) ||
		fail "data between the discarded ranges changed"
	rest=$((7 * unit + 4 * lbs))
	same "$rest" $((area - rest)) || fail "data after the second discarded range changed"
	# the last strip's second half
	bounded blkdiscard -o $((size - unit / 2)) -l $((unit / 2)) "$vd"
	[ "$RC" = 0 ] || fail "blkdiscard at the end of the VD failed: $ERR"
	[ "$(range_sum "$vd" $((size - unit)) $((unit / 2)))" = \
	  "$(head -c $((unit / 2)) /tmp/disc.end | sha256sum | cut -d' ' -f1)" ] ||
		fail "the first half of the last strip changed"
	conf_note "discards straddling strips ok, data around them unchanged"
fi

# Zeroing, straddling strips (write-zeroes, or the kernel's zero writes).
put_file /tmp/disc.dat "$vd" 0
z_off=$((unit - 2 * lbs))
z_len=$((unit + 4 * lbs))
bounded blkdiscard -z -o "$z_off" -l "$z_len" "$vd"
[ "$RC" = 0 ] || fail "blkdiscard -z failed: $ERR"
[ "$(range_sum "$vd" "$z_off" "$z_len")" = "$(zero_sum "$z_len")" ] ||
	fail "a zeroed range does not read back as zeros"
same 0 "$z_off" && same $((z_off + z_len)) $((area - z_off - z_len)) ||
	fail "data around a zeroed range changed"
rm -f /tmp/disc.dat /tmp/disc.end
conf_ok "discard_max_bytes $dmax"
