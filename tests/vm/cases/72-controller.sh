#!/bin/sh
# The controller cache as a whole: `vraidctl controller show` reports its
# size, default, bound and use; `controller set cache-size=SIZE` resizes it
# at run time (a smaller size evicts down to it, data still reads back
# verified; default restores it); bad sizes and journal requests are
# refused with their reason and change nothing; any user may show it,
# only root may change it; under memory pressure (drop_caches) the
# shrinker takes the cache's pages back.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vraid.sh"
set -e

# ctl_json: the controller as `vraidctl controller show --json` prints it
ctl_json() {
	vraidctl controller show --json || fail "controller show --json"
}

# jnum KEY JSON: the number KEY has in JSON
jnum() {
	echo "$2" | grep -o "\"$1\":[0-9]*" | head -n 1 | cut -d: -f2
}

mib0=$(cat /sys/module/vraid/parameters/cache_mib)
j=$(ctl_json)
echo "controller: $j"
[ "$(jnum cache_bytes "$j")" = $((mib0 * 1048576)) ] ||
	fail "controller show: size $(jnum cache_bytes "$j"), cache_mib $mib0"
[ "$(jnum cache_default_bytes "$j")" = $((mib0 * 1048576)) ] ||
	fail "default $(jnum cache_default_bytes "$j") is not the size loaded ($mib0 MiB)"
max=$(jnum cache_max_bytes "$j")
ram=$(awk '/^MemTotal/ { print $2 * 1024 }' /proc/meminfo)
[ "$max" -le $((ram / 2)) ] && [ "$max" -gt $((ram / 4)) ] ||
	fail "max $max for $ram bytes of RAM"
[ "$(jnum dirty_bytes "$j")" = 0 ] || fail "dirty bytes without write-back: $j"
vraidctl controller show | grep -q "$mib0 MiB" || fail "show: $(vraidctl controller show)"
vraid-raw --drop-privs controller || fail "controller show as nobody"
vraid-raw --drop-privs --want-message controller set-size cache-bytes=$((32 << 20)) ||
	fail "controller set-size as nobody was not refused with EPERM"

echo "--- fill the cache, then shrink it under the data"
vd=$(vd_create --level 5 --init fast --io-policy cached $(mixed_members 4))
n=${vd#/dev/}
settle
fio_verify "$vd" a --rw=write --bs=64k --size=$(mb 32) --randseed=1 --iodepth=4
dd if="$vd" of=/dev/null bs=64k count=$((32 * 16)) iflag=direct 2>/dev/null
held=$(vd_attr $vd cache_bytes)
echo "held after reading 32 MiB: $held bytes"
[ "$held" -ge $((24 << 20)) ] || fail "only $held bytes cached after reading 32 MiB"
j=$(ctl_json)
[ "$(jnum vds "$j")" = 1 ] || fail "controller: $(jnum vds "$j") VDs, want 1"
[ "$(jnum used_bytes "$j")" -ge "$held" ] || fail "controller used $(jnum used_bytes "$j") < VD's $held"

vraidctl controller set cache-size=16M || fail "set cache-size=16M"
kmsg | grep -q "vraid: controller cache 16 MiB" || fail "the kernel log does not say the new size"
[ "$(cat /sys/module/vraid/parameters/cache_mib)" = 16 ] || fail "cache_mib is not 16"
j=$(ctl_json)
[ "$(jnum cache_bytes "$j")" = $((16 << 20)) ] || fail "size after set: $j"
held=$(vd_attr $vd cache_bytes)
echo "held after shrinking to 16 MiB: $held bytes"
[ "$held" -le $((16 << 20)) ] || fail "VD holds $held bytes in a 16 MiB cache"
[ "$(jnum used_bytes "$j")" -le $((16 << 20)) ] || fail "controller uses $(jnum used_bytes "$j") of 16 MiB"
fio --name=a --filename="$vd" --rw=write --bs=64k --size=$(mb 32) --randseed=1 \
	--direct=1 --ioengine=libaio --iodepth=4 --verify=crc32c --verify_only=1 \
	--verify_fatal=1 >/tmp/fio.ctl 2>&1 || { cat /tmp/fio.ctl; fail "data after the shrink"; }
[ "$(vd_attr $vd cache_bytes)" -le $((16 << 20)) ] || fail "the cache grew past 16 MiB"

echo "--- bad sizes and journal requests change nothing"
for bad in 15M 1536K 0 x $(((ram / 1048576 / 2 + 1)))M; do
	if vraidctl controller set cache-size=$bad >/tmp/ctl.out 2>&1; then
		fail "cache-size=$bad was taken"
	fi
	grep -qi "size" /tmp/ctl.out || fail "cache-size=$bad: no reason given: $(cat /tmp/ctl.out)"
	[ "$(jnum cache_bytes "$(ctl_json)")" = $((16 << 20)) ] || fail "cache-size=$bad changed the size"
done
for args in "journal $(echo $NVME_DEVS | awk '{ print $NF }')" "journal none"; do
	if vraidctl controller $args >/tmp/ctl.out 2>&1; then
		fail "controller $args was taken"
	fi
	grep -q "no journal yet" /tmp/ctl.out || fail "controller $args: $(cat /tmp/ctl.out)"
done
vraid-raw --expect EINVAL --want-message controller set-size cache-bytes=$((16 << 20 | 4096)) ||
	fail "a size not a MiB multiple was taken"
vraid-raw --expect EINVAL --want-message controller show cache-bytes=$((64 << 20)) ||
	fail "SHOW with a size was taken"
[ "$(jnum cache_bytes "$(ctl_json)")" = $((16 << 20)) ] || fail "a refused request changed the size"

echo "--- memory pressure: the shrinker empties the cache"
vraidctl controller set cache-size=default >/dev/null || fail "set cache-size=default"
[ "$(cat /sys/module/vraid/parameters/cache_mib)" = "$mib0" ] || fail "default did not restore $mib0 MiB"
dd if="$vd" of=/dev/null bs=64k count=$((32 * 16)) iflag=direct 2>/dev/null
held=$(vd_attr $vd cache_bytes)
[ "$held" -ge $((24 << 20)) ] || fail "only $held bytes cached after reading 32 MiB again"
sync
echo 2 >/proc/sys/vm/drop_caches
after=$(vd_attr $vd cache_bytes)
echo "drop_caches: $held -> $after bytes held"
[ "$after" -lt $((held / 4)) ] || fail "the shrinker left $after of $held bytes"
fio --name=a --filename="$vd" --rw=write --bs=64k --size=$(mb 32) --randseed=1 \
	--direct=1 --ioengine=libaio --iodepth=4 --verify=crc32c --verify_only=1 \
	--verify_fatal=1 >/tmp/fio.ctl 2>&1 || { cat /tmp/fio.ctl; fail "data after the shrinker"; }
vd_delete "$vd"
j=$(ctl_json)
[ "$(jnum vds "$j")" = 0 ] && [ "$(jnum used_bytes "$j")" = 0 ] || fail "after delete: $j"
echo "controller: ok"
