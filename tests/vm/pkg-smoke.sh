#!/bin/sh
# tests/vm/pkg-smoke.sh - a module and vraidctl as an installation puts them
# (make install, make dkms, the Debian packages), booted in the VM with
# VRAID_NO_MODULE=1 so that nothing loads vraid first:
#
#   VRAID_NO_MODULE=1 VRAID_KO=/lib/modules/K/updates/dkms/vraid.ko \
#   VRAID_CTL=/usr/sbin/vraidctl tests/vm/run-in-vm --env VRAID_WANT_VERSION=V \
#       tests/vm/pkg-smoke.sh
#
# Checks: the module in /lib/modules/KVER/updates with depmod is found by
# modprobe, which loads what vraid imports (xor, raid6_pq) and its softdep
# (crc32c) by itself; modinfo's version is VRAID_WANT_VERSION (if given) and
# vraidctl's matches; a RAID6 VD keeps its data across stop and assemble
# --scan; the README's `modprobe -a xor raid6_pq && insmod ./vraid.ko` works.
. "$(dirname "$0")/lib.sh"
set -e

k=$(uname -r)
loaded() { grep -q "^$1 " /proc/modules; }

# init loaded raid456, which pulls in xor and raid6_pq: unload them, so that
# only modprobe vraid can bring them back
modprobe -r raid456 2>/dev/null || true
for m in async_raid6_recov async_pq async_xor async_memcpy async_tx raid6_pq xor; do
	loaded "$m" && rmmod "$m" 2>/dev/null || true
done
for m in xor raid6_pq vraid; do
	loaded "$m" && fail "$m is still loaded before the test"
done

# what make install does (DESTDIR empty): updates/, depmod -a KVER
mkdir -p "/lib/modules/$k/updates"
cp "$VRAID_KO" "/lib/modules/$k/updates/vraid.ko"
depmod -a "$k"
deps=$(modprobe --show-depends vraid)
echo "$deps"
for m in xor raid6_pq vraid; do
	echo "$deps" | grep -q "/$m\.ko" || fail "modprobe --show-depends vraid lacks $m"
done
echo "$deps" | grep -q "/updates/vraid\.ko" || fail "modprobe does not take updates/vraid.ko"
v=$(modinfo -F version vraid)
[ -z "${VRAID_WANT_VERSION:-}" ] || assert_eq "$v" "$VRAID_WANT_VERSION" "modinfo -F version vraid"
modprobe vraid
for m in vraid xor raid6_pq; do
	loaded "$m" || fail "modprobe vraid did not load $m"
done
loaded crc32c_intel || loaded crc32c_generic || fail "the crc32c softdep was not loaded"
echo "pkg-smoke: modprobe vraid loaded: $(cut -d' ' -f1 /proc/modules | grep -E '^(vraid|xor|raid6_pq|crc32c.*)$' | tr '\n' ' ')"

vraidctl version | tee /tmp/version
grep -q "^vraidctl $v " /tmp/version || fail "vraidctl's version is not the module's ($v)"
grep -q "^module ABI: [0-9]" /tmp/version || fail "vraidctl does not reach the module"

# a RAID6 VD: data written, the VD stopped and assembled from its metadata
set -- $NVME_DEVS
vd=$(vraidctl create --level 6 --name pkg $1 $2 $3 $4)
vraidctl wait pkg
dd if=/dev/urandom of=/tmp/data bs=1M count=8 status=none
dd if=/tmp/data of=/dev/$vd bs=1M oflag=direct status=none
vraidctl stop pkg
vraidctl assemble --scan
cmp /tmp/data /dev/$vd -n $((8 << 20)) || fail "data differ after assemble"
vraidctl check pkg --wait
vraidctl delete pkg --force

# the README's way: no depmod, insmod of the file
modprobe -r vraid
loaded vraid && fail "modprobe -r vraid left it loaded"
rm -f "/lib/modules/$k/updates/vraid.ko"
depmod -a "$k"
modprobe -a xor raid6_pq && insmod "$VRAID_KO"
loaded vraid || fail "insmod did not load vraid"
vraidctl version >/dev/null
rmmod vraid
echo "pkg-smoke: ok (vraid $v on $k)"
