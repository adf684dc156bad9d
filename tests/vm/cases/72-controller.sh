#!/bin/sh
# The controller cache as a whole: `vraidctl controller show` reports its
# size, default, bound and use; `controller set cache-size=SIZE` resizes it
# at run time (a smaller size evicts down to it, data still reads back
# verified; default restores it); bad sizes are refused with their
# reason and change nothing; so are journal requests without a journal
# (detach, discard: "no journal is attached") and journal devices unfit
# for one (a member, the VD itself, under 64 MiB, an absent one; --force
# changes none of that), after which show still says there is no journal
# (the journal itself: 74-journal); any user may show the controller,
# only root may change it; under memory pressure (drop_caches) the
# shrinker takes the cache's pages back.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vraid.sh"
set -e

# ctl_json: the controller as `vraidctl controller show --json` prints it
ctl_json() {
	vraidctl controller show --json || fail "controller show --json"
}

mib0=$(cat /sys/module/vraid/parameters/cache_mib)
j=$(ctl_json)
echo "controller: $j"
[ "$(json_num cache_bytes "$j")" = $((mib0 * 1048576)) ] ||
	fail "controller show: size $(json_num cache_bytes "$j"), cache_mib $mib0"
[ "$(json_num cache_default_bytes "$j")" = $((mib0 * 1048576)) ] ||
	fail "default $(json_num cache_default_bytes "$j") is not the size loaded ($mib0 MiB)"
max=$(json_num cache_max_bytes "$j")
ram=$(awk '/^MemTotal/ { print $2 * 1024 }' /proc/meminfo)
[ "$max" -le $((ram / 2)) ] && [ "$max" -gt $((ram / 4)) ] ||
	fail "max $max for $ram bytes of RAM"
[ "$(json_num dirty_bytes "$j")" = 0 ] || fail "dirty bytes without write-back: $j"
vraidctl controller show | grep -q "$mib0 MiB" || fail "show: $(vraidctl controller show)"
vraid-raw --drop-privs controller || fail "controller show as nobody"
vraid-raw --drop-privs --want-message controller set-size cache-bytes=$((32 << 20)) ||
	fail "controller set-size as nobody was not refused with EPERM"

echo "--- fill the cache, then shrink it under the data"
members=$(mixed_members 4)
vd=$(vd_create --level 5 --init fast --io-policy cached $members)
n=${vd#/dev/}
settle
fio_verify "$vd" a --rw=write --bs=64k --size=$(mb 32) --randseed=1 --iodepth=4
dd if="$vd" of=/dev/null bs=64k count=$((32 * 16)) iflag=direct 2>/dev/null
held=$(vd_attr $vd cache_bytes)
echo "held after reading 32 MiB: $held bytes"
[ "$held" -ge $((24 << 20)) ] || fail "only $held bytes cached after reading 32 MiB"
j=$(ctl_json)
[ "$(json_num vds "$j")" = 1 ] || fail "controller: $(json_num vds "$j") VDs, want 1"
[ "$(json_num used_bytes "$j")" -ge "$held" ] || fail "controller used $(json_num used_bytes "$j") < VD's $held"

vraidctl controller set cache-size=16M || fail "set cache-size=16M"
kmsg | grep -q "vraid: controller cache 16 MiB" || fail "the kernel log does not say the new size"
[ "$(cat /sys/module/vraid/parameters/cache_mib)" = 16 ] || fail "cache_mib is not 16"
j=$(ctl_json)
[ "$(json_num cache_bytes "$j")" = $((16 << 20)) ] || fail "size after set: $j"
held=$(vd_attr $vd cache_bytes)
echo "held after shrinking to 16 MiB: $held bytes"
[ "$held" -le $((16 << 20)) ] || fail "VD holds $held bytes in a 16 MiB cache"
[ "$(json_num used_bytes "$j")" -le $((16 << 20)) ] || fail "controller uses $(json_num used_bytes "$j") of 16 MiB"
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
	[ "$(json_num cache_bytes "$(ctl_json)")" = $((16 << 20)) ] || fail "cache-size=$bad changed the size"
done
vraid-raw --expect EINVAL --want-message controller set-size cache-bytes=$((16 << 20 | 4096)) ||
	fail "a size not a MiB multiple was taken"
vraid-raw --expect EINVAL --want-message controller show cache-bytes=$((64 << 20)) ||
	fail "SHOW with a size was taken"
[ "$(json_num cache_bytes "$(ctl_json)")" = $((16 << 20)) ] || fail "a refused request changed the size"

echo "--- journal requests without a journal, or with a device unfit for one"
nojournal='"journal":{"state":"none","major":0,"minor":0,"size_bytes":0,"used_bytes":0,"device":"","uuid":"","head_seq":0,"tail_seq":0,"pending":0,"vds":0}'
# no_journal WHAT: controller show (text and JSON) says there is no journal
no_journal() {
	ctl_json | grep -qF "$nojournal" || fail "$1: controller show --json: $(ctl_json)"
	vraidctl controller show | grep -q "^Journal: *none (write-back writes through)" ||
		fail "$1: controller show: $(vraidctl controller show)"
	[ "$(json_num cache_bytes "$(ctl_json)")" = $((16 << 20)) ] || fail "$1 changed the cache size"
}
# journal_refused ARGS... : `vraidctl controller journal ARGS` fails; its
# stderr is in /tmp/ctl.out
journal_refused() {
	if vraidctl controller journal "$@" >/tmp/ctl.out 2>&1; then
		fail "controller journal $* was taken: $(cat /tmp/ctl.out)"
	fi
	echo "controller journal $*: $(head -n 1 /tmp/ctl.out)"
}
no_journal "at the start"
attached0=$(kmsg | grep -c "vraid: journal .* attached" || true)
for sub in none discard; do
	journal_refused $sub
	grep -q "controller journal $sub: no journal is attached" /tmp/ctl.out ||
		fail "controller journal $sub: $(cat /tmp/ctl.out)"
	no_journal "journal $sub"
done
vraid-raw --expect ENOENT --want-message controller detach || fail "DETACH without a journal"
vraid-raw --expect ENOENT --want-message controller discard || fail "DISCARD without a journal"

# a member of the VD is held by it; the VD itself is no device of its own
member=$(echo $members | awk '{ print $1 }')
journal_refused "$member"
grep -q "in use" /tmp/ctl.out || fail "journal on a member: $(cat /tmp/ctl.out)"
vraid-raw --expect EBUSY --want-message controller attach dev="$member" || fail "ATTACH of a member"
journal_refused "$vd" --force
grep -q "is a vraid virtual drive" /tmp/ctl.out || fail "journal on the VD: $(cat /tmp/ctl.out)"
vraid-raw --expect EINVAL --want-message controller attach dev="$vd" || fail "ATTACH of the VD"
no_journal "a member or the VD as the journal"

# under 64 MiB: a 32 MiB partition on a disk the VD does not use
disk=$(for d in $(all_devs); do
	case " $members " in *" $d "*) ;; *) echo "$d" ;; esac
done | tail -n 1)
[ -n "$disk" ] || fail "no disk outside the VD"
echo 'start=2048, size=65536, type=83' | sfdisk -q "$disk" >/dev/null 2>&1 || fail "sfdisk $disk"
blockdev --rereadpt "$disk" 2>/dev/null || true
small=${disk}1
[ -b "$small" ] || small=${disk}p1
[ -b "$small" ] || fail "the partition of $disk did not appear"
for force in "" --force; do
	journal_refused "$small" $force
	grep -q "a journal needs at least 64 MiB" /tmp/ctl.out ||
		fail "journal on 32 MiB $force: $(cat /tmp/ctl.out)"
done
vraid-raw --expect EINVAL --want-message controller attach dev="$small" --force ||
	fail "ATTACH of 32 MiB"
# an absent device; the flags and fields the journal actions do not take
vraid-raw --expect ENXIO,ENODEV,ENOENT --want-message controller attach dev=3000:1 ||
	fail "ATTACH of an absent device"
vraid-raw --expect EINVAL --want-message controller attach || fail "ATTACH of 0:0"
vraid-raw --expect EINVAL --want-message controller attach dev="$small" flags=2 ||
	fail "ATTACH with an unknown flag"
for a in detach discard show set-size; do
	vraid-raw --expect EINVAL --want-message controller $a --force ||
		fail "FORCE without ATTACH ($a)"
done
vraid-raw --expect EINVAL --want-message controller detach dev="$small" || fail "DETACH with a device"
vraid-raw --expect EINVAL --want-message bad-action 5 controller || fail "controller action 5"
# validated first, then the privilege (so nothing is opened as nobody)
vraid-raw --drop-privs --want-message controller attach dev="$small" ||
	fail "ATTACH as nobody was not refused with EPERM"
vraid-raw --drop-privs --want-message controller detach ||
	fail "DETACH as nobody was not refused with EPERM"
no_journal "refused journal requests"
[ "$(kmsg | grep -c "vraid: journal .* attached" || true)" = "$attached0" ] ||
	fail "a journal was attached: $(kmsg | grep 'vraid: journal')"
zero_range "$disk" 0 1048576
blockdev --rereadpt "$disk" 2>/dev/null || true
[ ! -b "$small" ] || fail "$small is still there after wiping $disk"

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
[ "$(json_num vds "$j")" = 0 ] && [ "$(json_num used_bytes "$j")" = 0 ] || fail "after delete: $j"
echo "controller: ok"
