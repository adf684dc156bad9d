# Shared by the two boots of a crash test (tests/vm/crash-test): the
# members of RAID$LEVEL, the log device (a disk outside the VD) and, for
# POLICY=journal, the journal device JDEV (the last NVMe disk, another
# disk outside the VD).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vraid.sh"
level_members "$LEVEL"
JDEV=""
if [ "${POLICY:-}" = journal ]; then
	JDEV=$(echo $NVME_DEVS | awk '{ print $NF }')
	case " $LM_DEVS " in *" $JDEV "*) fail "no disk left for the journal ($JDEV is a member)" ;; esac
	[ "$(dev_bytes "$JDEV")" -gt $((64 << 20)) ] ||
		fail "the journal disk $JDEV has $(dev_bytes "$JDEV") bytes (run with --nvme 5 and a larger nvme4.img)"
fi
LOGDEV=$(for d in $SAS_DEVS $SATA_DEVS $NVME_DEVS; do
	case " $LM_DEVS $JDEV " in *" $d "*) ;; *) echo $d ;; esac
done | tail -n1)
[ -n "$LOGDEV" ] || fail "no disk left for the crashio log"
BLOCKS=4096	# 16 MiB written at random, 4 KiB at a time
