#!/bin/sh
# ext4 on a RAID0 VD over NVMe+SATA+SAS: mkfs, mount, files written and
# checksummed, umount, e2fsck -fn clean, remount and checksums still match.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vraid.sh"
set -e

members=$(mixed_members 4)
vd=$(vd_create --level 0 --strip 128K --name fs0 $members)
mkfs.ext4 -q -F "$vd" || fail "mkfs.ext4 failed"
mkdir -p /mnt/vd
mount "$vd" /mnt/vd || fail "mount failed"
for i in 1 2 3 4 5 6; do
	dd if=/dev/urandom of=/mnt/vd/file$i bs=64k count=$((i * 7)) 2>/dev/null
done
mkdir -p /mnt/vd/dir/sub
dd if=/dev/urandom of=/mnt/vd/dir/sub/big bs=1M count=24 2>/dev/null
(cd /mnt/vd && find . -type f | sort | xargs sha256sum) >/tmp/sums
sync
umount /mnt/vd
e2fsck -fn "$vd" || fail "e2fsck found problems"
mount "$vd" /mnt/vd
(cd /mnt/vd && sha256sum -c /tmp/sums) >/dev/null || fail "checksums differ after remount"
umount /mnt/vd
vd_delete "$vd"
echo "raid0 ext4: ok"
