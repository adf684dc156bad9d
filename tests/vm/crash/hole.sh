# Shared by the two boots of the write-hole test (tests/vm/hole-test):
# the disks and the row, by LEVEL (5 or 6; hole1.sh says which block is
# where).  Six NVMe disks: the members first, REF (the reference data) the
# fifth, the journal (128 MiB) the sixth.
set -- $NVME_DEVS
[ $# -ge 6 ] || fail "need 6 NVMe disks (run-in-vm --nvme 6), have $#"
REF=$5 JDEV=$6
[ "$(dev_bytes "$JDEV")" -gt $((64 << 20)) ] ||
	fail "the journal disk $JDEV has $(dev_bytes "$JDEV") bytes (a 128 MiB nvme5.img)"
PSEC=$((DATA_OFFSET + 32))	# the dropped parity block on X
MSEC=$((DATA_OFFSET + 32))	# D_w on MW, D_m on MM: the same row
case ${LEVEL:-5} in
5)	MEMBERS="$1 $2 $3" X=$2 MW=$1 MM=$3
	DW=12 DM=8 ;;		# VD 4 KiB blocks: sectors 96 and 64
6)	MEMBERS="$1 $2 $3 $4" X=$4 MW=$1 MM=$2
	DW=8 DM=12 ;;		# sectors 64 and 96
*)	fail "LEVEL ${LEVEL:-} (5 or 6)" ;;
esac
LEVEL=${LEVEL:-5}
