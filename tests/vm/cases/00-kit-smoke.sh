#!/bin/sh
# Smoke test of the VM kit itself: the member disks QEMU gave us (count,
# kind, size), null_blk, dm-flakey, md, fio, and filesystems whose modules
# the kernel loads on demand.
# vm: --nvme 4 --sata 2 --sas 2
# timeout: 240
. "$(dirname "$0")/../lib.sh"
set -e

count() { set -- $1; echo $#; }
assert_eq "$(count "$NVME_DEVS")" 4 "NVMe disks ($NVME_DEVS)"
assert_eq "$(count "$SATA_DEVS")" 2 "SATA disks ($SATA_DEVS)"
assert_eq "$(count "$SAS_DEVS")" 2 "SAS disks ($SAS_DEVS)"

for d in $NVME_DEVS $SATA_DEVS $SAS_DEVS; do
	[ -b "$d" ] || fail "$d is not a block device"
	assert_eq "$(blockdev --getsize64 "$d")" "$VRAID_DISK_BYTES" "size of $d"
done
for d in $NVME_DEVS; do
	case "$d" in /dev/nvme*n1) ;; *) fail "NVMe device named $d" ;; esac
done
for d in $SATA_DEVS; do
	readlink -f "/sys/block/${d#/dev/}/device" | grep -q '/ata[0-9]*/' ||
		fail "$d is not behind libata"
done
for d in $SAS_DEVS; do
	h=$(readlink -f "/sys/block/${d#/dev/}/device" | sed -n 's#.*/host\([0-9]*\)/.*#\1#p')
	assert_eq "$(cat /sys/class/scsi_host/host$h/proc_name)" megaraid_sas "driver of $d"
done
# the i-th image is the i-th device: QEMU serials VRNVME00, VRNVME01, ...
i=0
for d in $NVME_DEVS; do
	s=$(cat "/sys/block/${d#/dev/}/device/serial" | tr -d ' ')
	assert_eq "$s" "VRNVME0$i" "serial of $d"
	i=$((i + 1))
done
i=0
for d in $SATA_DEVS; do
	s=$(tail -c +5 "/sys/block/${d#/dev/}/device/vpd_pg80" | tr -d ' \000')
	assert_eq "$s" "VRSATA0$i" "serial of $d"
	i=$((i + 1))
done
echo "disks: nvme=[$NVME_DEVS] sata=[$SATA_DEVS] sas=[$SAS_DEVS], $VRAID_DISK_BYTES bytes each"

# null_blk
modprobe null_blk nr_devices=1 gb=1 memory_backed=1 || fail "modprobe null_blk"
[ -b /dev/nullb0 ] || fail "/dev/nullb0 missing"
# dm-flakey over it (no udev: dmsetup mknodes makes /dev/mapper nodes)
modprobe dm-flakey || fail "modprobe dm-flakey"
dmsetup targets | grep -q '^flakey' || fail "no flakey target: $(dmsetup targets)"
echo "0 $(blockdev --getsz /dev/nullb0) flakey /dev/nullb0 0 5 0" | dmsetup create smoke-flakey
dmsetup mknodes smoke-flakey
[ -b /dev/mapper/smoke-flakey ] || fail "/dev/mapper/smoke-flakey missing"
dmsetup remove smoke-flakey
# filesystems (their modules are loaded on demand by mount)
mkfs.ext4 -q -F /dev/nullb0 >/dev/null
mkdir -p /mnt/smoke
mount /dev/nullb0 /mnt/smoke || fail "mount ext4"
echo hello >/mnt/smoke/f
umount /mnt/smoke
mkfs.xfs -q -f /dev/nullb0
mount /dev/nullb0 /mnt/smoke || fail "mount xfs"
umount /mnt/smoke
rmmod null_blk || fail "rmmod null_blk"

mdadm --version 2>&1 | grep -q '^mdadm' || fail "mdadm --version"
fio --version | grep -q '^fio-' || fail "fio --version"
echo "tools: $(mdadm --version 2>&1), $(fio --version), $(dmsetup --version | head -n 1)"
if [ "${VRAID_NO_MODULE:-0}" != 1 ]; then
	grep -q '^vraid ' /proc/modules || fail "vraid.ko is not loaded"
	command -v vraidctl >/dev/null || fail "vraidctl is not on PATH"
fi
echo "kit smoke: ok"
