#!/bin/sh
# Block-layer conformance of a VD of every level (tests/vm/conf, in the
# style of blktests): discard and write-zeroes, read-only, queue limits
# (and mkfs.xfs's stripe geometry), partitions, I/O at and past the end,
# 16 MiB I/O (read-only and partitions on RAID0 and RAID5 only: they
# hardly depend on the level). One line per (case, level); fails if any case failed or
# the kernel logged a BUG/WARNING/Oops while it ran.
# timeout: 1500
. "$(dirname "$0")/../lib.sh"
rc=0
sh "$VRAID_TESTS/conf/run.sh" vd discard limits bounds large-io || rc=1
# these two hardly depend on the level: a striped and a parity one (CI time)
CONF_LEVELS="0 5" sh "$VRAID_TESTS/conf/run.sh" vd readonly partitions || rc=1
[ "$rc" = 0 ] || fail "block-layer conformance"
