#!/bin/sh
# Flushes reach every member: fsync on the VD increments each member's
# flush counter (/sys/block/X/stat field 16), the VD advertises the write
# cache its members have, and the VD counts its flushes.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vraid.sh"
set -e

flushes_of() {
	awk '{ print $16 }' "/sys/block/${1#/dev/}/stat"
}

members=$(mixed_members 3)
vd=$(vd_create --level 0 --strip 64K $members)
q=/sys/block/${vd#/dev/}/queue
wc=none
for m in $members; do
	[ "$(cat /sys/block/${m#/dev/}/queue/write_cache)" = "write back" ] && wc=yes
done
if [ "$wc" = yes ]; then
	[ "$(cat $q/write_cache)" = "write back" ] ||
		fail "members cache writes but the VD says: $(cat $q/write_cache)"
fi
before=""
for m in $members; do
	before="$before $(flushes_of $m)"
done
fio --name=fsync --filename="$vd" --rw=write --bs=4k --size=1M \
	--fsync=1 --ioengine=sync >/dev/null || fail "fio with fsync failed"
set -- $before
for m in $members; do
	after=$(flushes_of $m)
	[ "$after" -gt "$1" ] || fail "$m saw no flush ($1 -> $after)"
	shift
done
[ "$(vd_attr $vd flushes)" -ge 200 ] || fail "VD counted $(vd_attr $vd flushes) flushes for 256 fsyncs"
# Flush + FUA writes with data (what journalling filesystems send).
fio_verify "$vd" fua --rw=randwrite --bs=8k --size=2M --sync=1 --fsync=8
vd_delete "$vd"
echo "flush: ok"
