# Shared by the two boots of a crash test (tests/vm/crash-test): the
# members of RAID$LEVEL and the log device (a disk outside the VD).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vraid.sh"
level_members "$LEVEL"
LOGDEV=$(for d in $SAS_DEVS $SATA_DEVS $NVME_DEVS; do
	case " $LM_DEVS " in *" $d "*) ;; *) echo $d ;; esac
done | tail -n1)
[ -n "$LOGDEV" ] || fail "no disk left for the crashio log"
BLOCKS=4096	# 16 MiB written at random, 4 KiB at a time
