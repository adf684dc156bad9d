#!/bin/sh
# conf/partitions VD LEVEL - a partition table on a VD.
#
# sfdisk writes a GPT with two partitions; /dev/vraidNp1 and p2 appear
# with the sizes and starts asked for; what is written to p1 and p2
# reads back, and is at the right place on the VD (p1's last MiB, p2's
# first), and writing p1's last MiB leaves p2 alone; I/O past a partition's end fails; a table with more partitions
# than the VD has minors (15, VRAID_MINORS) is read without a kernel
# warning and at least 15 partitions appear; wiping the table and
# re-reading it removes them.
. "$(dirname "$0")/common.sh"
conf_begin partitions "$1" "$2"
vd=$1
conf_require_cmd sfdisk wipefs
n=${vd#/dev/}
lbs=$(blockdev --getss "$vd")
mib=1048576

# wait_part NAME: /dev/NAME shows up (devtmpfs, no udev)
wait_part() {
	local i
	for i in $(seq 1 50); do
		[ -b "/dev/$1" ] && return 0
		sleep 0.1
	done
	fail "/dev/$1 did not appear"
}

printf 'label: gpt\nstart=%s, size=%s\nstart=%s, size=%s\n' \
	$((mib / lbs)) $((4 * mib / lbs)) $((6 * mib / lbs)) $((4 * mib / lbs)) |
	sfdisk -q "$vd" >/tmp/sfdisk.out 2>&1 || { cat /tmp/sfdisk.out; fail "sfdisk failed"; }
wait_part "${n}p1"
wait_part "${n}p2"
p1=/dev/${n}p1
p2=/dev/${n}p2
# sysfs start/size are in 512-byte sectors
assert_eq "$(cat /sys/block/$n/${n}p1/start)" 2048 "p1 start"
assert_eq "$(cat /sys/block/$n/${n}p2/start)" $((6 * 2048)) "p2 start"
assert_eq "$(blockdev --getsize64 $p1)" $((4 * mib)) "p1 size"
assert_eq "$(blockdev --getsize64 $p2)" $((4 * mib)) "p2 size"

rnd_file /tmp/part.dat $mib
put_file /tmp/part.dat "$p2" 0
[ "$(range_sum "$vd" $((6 * mib)) $mib)" = "$(file_sum /tmp/part.dat)" ] ||
	fail "data written to p2 is not at p2's start on the VD"
rnd_file /tmp/part.p1 $mib
put_file /tmp/part.p1 "$p1" $((3 * mib))
[ "$(range_sum "$p1" $((3 * mib)) $mib)" = "$(file_sum /tmp/part.p1)" ] || fail "p1 reads back wrong"
[ "$(range_sum "$vd" $((4 * mib)) $mib)" = "$(file_sum /tmp/part.p1)" ] ||
	fail "data written to p1 is not at p1's place on the VD"
[ "$(range_sum "$p2" 0 $mib)" = "$(file_sum /tmp/part.dat)" ] || fail "writing p1 changed p2"
[ "$(range_sum "$vd" $((6 * mib)) $mib)" = "$(file_sum /tmp/part.dat)" ] ||
	fail "writing p1 changed p2's place on the VD"

bounded dd if=/dev/zero of="$p1" bs="$lbs" seek=$((4 * mib / lbs)) count=1 oflag=direct conv=notrunc
[ "$RC" != 0 ] || fail "a write past p1's end succeeded"

# more partitions than minors
{
	echo "label: gpt"
	for i in $(seq 1 17); do echo "start=$(((i + 1) * mib / lbs)), size=$((mib / lbs))"; done
} | sfdisk -q "$vd" >/tmp/sfdisk.out 2>&1 || { cat /tmp/sfdisk.out; fail "sfdisk (17 partitions) failed"; }
wait_part "${n}p15"
np=$(ls -d /sys/block/$n/${n}p* | wc -l)
[ "$np" -ge 15 ] || fail "only $np of 17 partitions appear"
conf_note "a table of 17 partitions: $np appear"

wipefs -a -q "$vd" >/dev/null 2>&1 || fail "wipefs failed"
blockdev --rereadpt "$vd" || fail "blockdev --rereadpt failed"
[ ! -e /sys/block/$n/${n}p1 ] || fail "partitions still there after wiping the table"
rm -f /tmp/part.dat /tmp/part.p1 /tmp/sfdisk.out
conf_ok
