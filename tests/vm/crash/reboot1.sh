#!/bin/sh
# Reboot test, first boot (tests/vm/reboot-test): an awb RAID5 over three
# NVMe disks takes 16 MiB of writes fio can verify (crc32c; no flush:
# the last of them are still in the controller cache), then the kernel reboots at once
# (reboot -f: no stop, no unmount; the reboot notifiers run, then the
# disks are shut down).  The second boot (reboot2.sh) must read them.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vraid.sh"
set -e

set -- $NVME_DEVS
vd=$(vd_create --level 5 --strip 64K --init fast --write-policy awb "$1" "$2" "$3")
# no read-back here: a line stays dirty for 2 s (VRAID_DESTAGE_AGE), so
# the last writes are still in the cache when the reboot comes
fio_verify "$vd" data --rw=randwrite --bs=4k --size=$(mb 16) --iodepth=8 \
	--do_verify=0
dirty=$(vd_attr "$vd" cache_dirty_bytes)
[ "$dirty" -gt 0 ] || fail "nothing dirty in the cache before the reboot: the case did not set up what it tests"
echo "$vd: $dirty bytes dirty in the controller cache; rebooting"
echo "@@VRAID-REBOOTING@@"
# the kernel's messages from now on to the console, where reboot-test
# looks for the write-out's
dmesg -n 7
reboot -f
sleep 60
fail "reboot -f did not reboot"
