#!/bin/sh
# A read error on a healthy RAID1/5/6 member is corrected from redundancy
# (the block is rebuilt from the mirror or the parity and written back)
# without failing the member.  The member is a scsi_debug disk that
# returns MEDIUM ERROR for reads of a few sectors of its data area while
# writes still succeed, as a disk with a weak sector does.
# timeout: 600
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vraid.sh"
set -e

OPTS=/sys/bus/pseudo/drivers/scsi_debug/opts

for lvl in 1 5 6; do
	# 256 sectors (two 64 KiB strips) of bad reads at the data area start.
	modprobe scsi_debug dev_size_mb=64 medium_error_start=$DATA_OFFSET \
		medium_error_count=256 opts=0 || fail "scsi_debug"
	sdbg=""
	for i in $(seq 1 50); do
		for d in /sys/block/sd*; do
			grep -q scsi_debug $d/device/model 2>/dev/null && sdbg=/dev/${d##*/}
		done
		[ -n "$sdbg" ] && [ -b "$sdbg" ] && break
		sleep 0.1
	done
	[ -b "$sdbg" ] || fail "no scsi_debug disk"
	case $lvl in
	1) others=$(mixed_members 1) ;;
	5) others=$(mixed_members 2) ;;
	6) others=$(mixed_members 3) ;;
	esac
	vd=$(vd_create --level $lvl --strip 64K $sdbg $others)
	fio_verify "$vd" pre --rw=write --bs=64k --size=2M
	echo 2 >$OPTS		# reads of the bad sectors now fail
	fio --name=pre --filename="$vd" --rw=write --bs=64k --size=2M --direct=1 \
		--verify=crc32c --verify_only=1 --verify_fatal=1 >/tmp/fio.vo 2>&1 ||
		{ cat /tmp/fio.vo; fail "RAID$lvl: data wrong after read errors"; }
	repairs=$(vd_attr $vd read_repairs)
	[ "$repairs" -gt 0 ] || fail "RAID$lvl: no read error was repaired"
	[ "$(vd_attr $vd state)" = optimal ] ||
		fail "RAID$lvl: state $(vd_attr $vd state) after repaired read errors"
	vraidctl show "$vd" | grep "$sdbg" | grep -q Online ||
		fail "RAID$lvl: the member with the bad sectors is not Online"
	echo 0 >$OPTS
	vd_delete "$vd"
	rmmod scsi_debug
	echo "RAID$lvl: $repairs read errors corrected, member kept"
done
