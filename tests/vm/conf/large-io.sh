#!/bin/sh
# conf/large-io VD LEVEL - very large I/O.
#
# A 16 MiB direct write and read, verified (fio crc32c),
# at an odd 4 KiB offset so every request starts and ends inside a
# strip. Each request spans many strips and, on the striped levels,
# many full stripes. (A buffered write goes out in the same bio sizes,
# at most 1 MiB each, so it adds nothing here.)
. "$(dirname "$0")/common.sh"
conf_begin large-io "$1" "$2"
vd=$1
conf_require_cmd fio
size=$(blockdev --getsize64 "$vd")
[ "$size" -ge $((40 * 1048576)) ] || conf_skip "VD too small ($size bytes)"

fio_verify "$vd" big --rw=write --bs=16M --offset=36K --size=16M --iodepth=1

conf_ok "max_sectors_kb $(qattr "$vd" max_sectors_kb)"
