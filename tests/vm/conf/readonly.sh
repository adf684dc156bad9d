#!/bin/sh
# conf/readonly VD LEVEL - read-only devices refuse writes cleanly.
#
# Two ways to make a VD read-only: the block layer's own flag
# (blockdev --setro, BLKROSET) and vraid's access policy (vraidctl set VD
# access=ro, which makes the disk read-only). For each: direct and
# buffered writes, discard and zeroing fail at once (no hang), reads
# work, the data is unchanged, and writes work again afterwards. Also:
# blockdev --setrw does not override access=ro, and access=rw does not
# clear a --setro.
. "$(dirname "$0")/common.sh"
conf_begin readonly "$1" "$2"
vd=$1
conf_require_cmd blockdev blkdiscard

len=65536
rnd_file /tmp/ro.dat $len
put_file /tmp/ro.dat "$vd" 0
sum=$(file_sum /tmp/ro.dat)

# refused HOW [all]: writes fail, reads work, nothing changed; "all": a
# buffered write, a discard and zeroing too
refused() {
	[ "$(blockdev --getro "$vd")" = 1 ] || fail "$1: blockdev --getro says $(blockdev --getro "$vd")"
	bounded dd if=/dev/zero of="$vd" bs=4k count=1 oflag=direct conv=notrunc
	[ "$RC" != 0 ] || fail "$1: a direct write succeeded"
	if [ "${2:-}" = all ]; then
		bounded dd if=/dev/zero of="$vd" bs=4k count=4 conv=notrunc,fsync
		[ "$RC" != 0 ] || fail "$1: a buffered write succeeded"
		bounded blkdiscard -o 0 -l 65536 "$vd"
		[ "$RC" != 0 ] || fail "$1: a discard succeeded"
		bounded blkdiscard -z -o 0 -l 65536 "$vd"
		[ "$RC" != 0 ] || fail "$1: zeroing succeeded"
	fi
	[ "$(range_sum "$vd" 0 $len)" = "$sum" ] || fail "$1: data changed (or a read failed)"
}

writable() {
	[ "$(blockdev --getro "$vd")" = 0 ] || fail "$1: still read-only"
	put_file /tmp/ro.dat "$vd" 0
	[ "$(range_sum "$vd" 0 $len)" = "$sum" ] || fail "$1: data wrong after a write"
}

blockdev --setro "$vd" || fail "blockdev --setro"
refused "blockdev --setro" all
blockdev --setrw "$vd" || fail "blockdev --setrw"
writable "blockdev --setrw"

vraidctl set "$vd" access=ro >/dev/null || fail "vraidctl set access=ro"
refused "access=ro" all
blockdev --setrw "$vd" 2>/dev/null
refused "access=ro, then blockdev --setrw"
vraidctl set "$vd" access=rw >/dev/null || fail "vraidctl set access=rw"
writable "access=rw"

blockdev --setro "$vd"
vraidctl set "$vd" access=ro >/dev/null || fail "vraidctl set access=ro"
vraidctl set "$vd" access=rw >/dev/null || fail "vraidctl set access=rw"
refused "blockdev --setro, then access=ro and rw"
blockdev --setrw "$vd"
writable "all back to rw"
rm -f /tmp/ro.dat
conf_ok
