#!/bin/sh
# ext4 and xfs on every redundant level: mkfs, mount, files written and
# checksummed, umount, fsck clean, remount, checksums still match.
# vm: --size 512M
# timeout: 900
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vraid.sh"
set -e

fs_round() {
	local vd=$1 fs=$2
	case $fs in
	ext4) mkfs.ext4 -q -F "$vd" ;;
	xfs) mkfs.xfs -q -f "$vd" ;;
	esac || fail "mkfs.$fs on $vd failed"
	mkdir -p /mnt/fs
	mount -t $fs "$vd" /mnt/fs || fail "mount $fs failed"
	for i in 1 2 3 4; do
		dd if=/dev/urandom of=/mnt/fs/f$i bs=64k count=$((i * 5)) 2>/dev/null
	done
	mkdir -p /mnt/fs/d && dd if=/dev/urandom of=/mnt/fs/d/big bs=1M count=8 2>/dev/null
	(cd /mnt/fs && find . -type f | sort | xargs sha256sum) >/tmp/sums
	umount /mnt/fs
	case $fs in
	ext4) e2fsck -fn "$vd" >/dev/null || fail "e2fsck: $vd not clean" ;;
	xfs) xfs_repair -n "$vd" >/dev/null 2>&1 || fail "xfs_repair -n: $vd not clean" ;;
	esac
	mount -t $fs "$vd" /mnt/fs
	(cd /mnt/fs && sha256sum -c /tmp/sums >/dev/null) || fail "$fs: checksums differ"
	umount /mnt/fs
}

for lvl in 1 10 5 6 50 60; do
	level_members $lvl
	vd=$(vd_create $LM_OPTS $LM_DEVS)
	fs_round "$vd" ext4
	fs_round "$vd" xfs
	vd_delete "$vd"
	echo "RAID$lvl: ext4 and xfs ok"
done
