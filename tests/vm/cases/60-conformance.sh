#!/bin/sh
# Block-layer conformance of a VD of every level (tests/vm/conf, in the
# style of blktests): discard and write-zeroes, read-only, queue limits
# (and mkfs.xfs's stripe geometry), partitions, I/O at and past the end,
# 16 MiB I/O. One line per (case, level); fails if any case failed or
# the kernel logged a BUG/WARNING/Oops while it ran.
# timeout: 1500
. "$(dirname "$0")/../lib.sh"
sh "$VRAID_TESTS/conf/run.sh" vd discard readonly limits partitions bounds large-io ||
	fail "block-layer conformance"
