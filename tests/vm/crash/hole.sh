# Shared by the two boots of the write-hole test (tests/vm/hole-test):
# the disks and the row, by LEVEL (5, 6, 50 or 60; hole1.sh says which
# block is where).  NVMe disks: the members first (3, 4, 6 or 8), then
# REF (the reference data), then the journal (128 MiB), the last two.
set -- $NVME_DEVS
[ $# -ge 6 ] || fail "need 6 NVMe disks or more (hole-test gives them), have $#"
eval "REF=\${$(($# - 1))} JDEV=\${$#}"
[ "$(dev_bytes "$JDEV")" -gt $((64 << 20)) ] ||
	fail "the journal disk $JDEV has $(dev_bytes "$JDEV") bytes (a 128 MiB image)"
PSEC=$((DATA_OFFSET + 32))	# the dropped parity block on X
MSEC=$((DATA_OFFSET + 32))	# D_w on MW, D_m on MM: the same row
SPANS=1
case ${LEVEL:-5} in
5)	MEMBERS="$1 $2 $3" X=$2 MW=$1 MM=$3
	DW=12 DM=8 ;;		# VD 4 KiB blocks: sectors 96 and 64
6)	MEMBERS="$1 $2 $3 $4" X=$4 MW=$1 MM=$2
	DW=8 DM=12 ;;		# sectors 64 and 96
50)	MEMBERS="$1 $2 $3 $4 $5 $6" X=$5 MW=$4 MM=$6 SPANS=2
	DW=28 DM=20 ;;		# span 1: sectors 224 and 160
60)	MEMBERS="$1 $2 $3 $4 $5 $6 $7 $8" X=$8 MW=$5 MM=$6 SPANS=2
	DW=20 DM=28 ;;		# span 1: sectors 160 and 224
*)	fail "LEVEL ${LEVEL:-} (5, 6, 50 or 60)" ;;
esac
[ $# -ge $(($(echo $MEMBERS | wc -w) + 2)) ] ||
	fail "RAID${LEVEL:-5} needs $(echo $MEMBERS | wc -w) members, REF and the journal: $# NVMe disks"
LEVEL=${LEVEL:-5}
SPANOPT=""
if [ "$SPANS" -gt 1 ]; then
	SPANOPT="--spans $SPANS"
fi
