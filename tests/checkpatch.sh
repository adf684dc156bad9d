#!/bin/bash
# Run checkpatch.pl from Debian's linux-source-6.1 package over the driver,
# the uapi header, the kernel API probes and the test kit's module
# (tests/vm/kmod).  The script (and the data files it reads) are
# unpacked once into .cache/checkpatch/.
set -euo pipefail
TOP=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${VRAID_CACHE:-$TOP/.cache}/checkpatch
TARBALL=$(ls /usr/src/linux-source-6.1.tar.* 2>/dev/null | head -n1 || true)
if [ -z "$TARBALL" ]; then
	echo "checkpatch: linux-source-6.1 is not installed (make deps)" >&2
	exit 1
fi
if [ ! -x "$CACHE/scripts/checkpatch.pl" ] || [ "$TARBALL" -nt "$CACHE/stamp" ]; then
	rm -rf "$CACHE" && mkdir -p "$CACHE"
	top=linux-source-6.1
	tar xf "$TARBALL" -C "$CACHE" --strip-components=1 \
		"$top/scripts/checkpatch.pl" "$top/scripts/spelling.txt" \
		"$top/scripts/const_structs.checkpatch"
	touch "$CACHE/stamp"
fi
cd "$TOP"
"$CACHE/scripts/checkpatch.pl" --no-tree --quiet -f \
	driver/*.c driver/*.h driver/core/*.c driver/core/*.h uapi/linux/vraid.h compat/probes/*.c \
	tests/vm/kmod/vraid-record.c
echo "checkpatch: clean"
