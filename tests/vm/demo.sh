#!/bin/sh
# `make demo`: a RAID5 virtual drive over NVMe, SATA and SAS disks
# together, ext4 on it, a short fio run with crc32c verification, what
# vraidctl shows, and the VD stopped and assembled again from its
# members' metadata with the files intact.  Runs inside the VM:
#	tests/vm/run-in-vm tests/vm/demo.sh
set -e
nvme=$(echo $NVME_DEVS | awk '{ print $1 " " $2 }')
sata=$(echo $SATA_DEVS | awk '{ print $1 }')
sas=$(echo $SAS_DEVS | awk '{ print $1 }')
echo "== members: $nvme (NVMe) $sata (SATA) $sas (SAS)"
vd=$(vraidctl create --force --level 5 --strip 64K --name demo $nvme $sata $sas)
echo "== created /dev/$vd"
mkfs.ext4 -q -F "/dev/$vd"
mkdir -p /mnt/demo
mount "/dev/$vd" /mnt/demo
echo "== ext4 mounted on /mnt/demo"
fio --name=demo --directory=/mnt/demo --rw=randrw --rwmixread=70 --bs=4k \
	--size=32M --ioengine=libaio --iodepth=16 --direct=1 \
	--verify=crc32c --verify_fatal=1 --do_verify=1 >/tmp/fio.out || {
	cat /tmp/fio.out
	echo "demo: fio failed" >&2
	exit 1
}
echo
vraidctl show "$vd"
echo
echo "== fio (4 KiB random 70:30, iodepth 16, crc32c verified):"
grep -E '^ +(READ|WRITE):' /tmp/fio.out | sed 's/^ */   /'
sha=$(cat /mnt/demo/demo.0.0 | sha256sum)
umount /mnt/demo
echo
echo "== stop and assemble again from the metadata on the members:"
vraidctl stop demo
vraidctl assemble --scan
mount /dev/$vd /mnt/demo
[ "$(cat /mnt/demo/demo.0.0 | sha256sum)" = "$sha" ] || {
	echo "demo: file changed across stop/assemble" >&2
	exit 1
}
echo "== the fio file is intact after assembly"
umount /mnt/demo
echo "== demo: ok"
