#!/bin/sh
# Reboot test, second boot on the same disks: the VD assembles (not shut
# down cleanly: it resyncs what its bitmaps say), and the 16 MiB the
# first boot wrote (reboot1.sh) read back verified: the controller
# cache's dirty data reached the members before the reboot shut them
# down.  Parity is consistent after the resync.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vraid.sh"
set -e

set -- $NVME_DEVS
vraidctl assemble "$1" "$2" "$3" >/tmp/asm.out 2>&1 || { cat /tmp/asm.out; fail "assemble"; }
vd=$(first_vd)
[ -b "$vd" ] || fail "no VD after assembly: $(cat /tmp/asm.out)"
vraidctl wait "$vd" >/dev/null || fail "the resync of $vd failed"
verify_data "$vd" "after the reboot"
echo "the 16 MiB written before the reboot read back verified"
vraidctl check "$vd" >/dev/null || fail "check $vd did not start"
vraidctl wait "$vd" >/dev/null || fail "check $vd failed"
[ "$(vd_attr "$vd" mismatch_cnt)" = 0 ] || fail "parity mismatches after the reboot: $(vd_attr "$vd" mismatch_cnt)"
vd_delete "$vd"
dmesg_check || fail "the kernel log shows problems"
