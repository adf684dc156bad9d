#!/bin/sh
# Block-layer conformance over null_blk members, on every level
# (tests/vm/conf): flushed and FUA writes survive a power cut of members
# with volatile write caches (and with disk-cache=off, every completed
# write does); members with 512-byte and 4 KiB logical blocks mixed.
# timeout: 1500
. "$(dirname "$0")/../lib.sh"
sh "$VRAID_TESTS/conf/run.sh" self flush-fua mixed-lbs ||
	fail "block-layer conformance (null_blk)"
