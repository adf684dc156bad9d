#!/bin/bash
# tests/vm/deps.sh - install the Debian packages vraid needs to build and test.
#
#   tests/vm/deps.sh          install what is missing (quietly; apt-get update
#                             only when something has to be installed)
#   tests/vm/deps.sh --kver   print the kernel ABI the VM runs and the module is
#                             built for, e.g. 6.1.0-57-amd64 (cached in
#                             $VRAID_CACHE/kver; no installs)
#   tests/vm/deps.sh --resolve  re-resolve the ABI from apt, refresh the cache,
#                             print it (no installs)
#
# The ABI comes from the dependency of the linux-image-amd64 metapackage
# (linux-image-<abi> or linux-image-<abi>-unsigned); it is never hard-coded.
# If apt knows nothing, the newest /usr/src/linux-headers-*-amd64 is used.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
cache=${VRAID_CACHE:-$repo/.cache/vm}
kver_file=$cache/kver

export DEBIAN_FRONTEND=noninteractive
updated=0

say() { echo "deps: $*" >&2; }

# run quietly; show the output only if the command fails
quiet() {
	local log rc=0
	log=$(mktemp)
	"$@" >"$log" 2>&1 || rc=$?
	[ "$rc" = 0 ] || { cat "$log" >&2; say "failed ($rc): $*"; }
	rm -f "$log"
	return "$rc"
}

apt_update() {
	[ "$updated" = 1 ] && return 0
	say "apt-get update"
	quiet apt-get -qq update
	updated=1
}

# kver from apt's view of linux-image-amd64 (empty if apt knows nothing)
kver_from_apt() {
	apt-cache depends linux-image-amd64 2>/dev/null |
		sed -n 's/.*Depends: *linux-image-\([0-9][^ ]*-amd64\)\(-unsigned\)\{0,1\} *$/\1/p' |
		sort -uV | tail -n 1
}

kver_from_headers() {
	local d
	d=$(ls -d /usr/src/linux-headers-*-amd64 2>/dev/null | sort -V | tail -n 1) || true
	[ -n "$d" ] && echo "${d#/usr/src/linux-headers-}"
	return 0
}

save_kver() {
	mkdir -p "$cache"
	echo "$1" >"$kver_file.tmp" && mv -f "$kver_file.tmp" "$kver_file"
}

resolve_kver() {
	local k
	k=$(kver_from_apt)
	[ -n "$k" ] || k=$(kver_from_headers)
	if [ -z "$k" ]; then
		say "cannot resolve the kernel ABI: apt-cache knows no linux-image-amd64" \
			"and no /usr/src/linux-headers-*-amd64 exists (run tests/vm/deps.sh as root)"
		return 1
	fi
	save_kver "$k"
	echo "$k"
}

case "${1:-}" in
--kver)
	if [ -s "$kver_file" ]; then
		cat "$kver_file"
	else
		resolve_kver
	fi
	exit 0
	;;
--resolve)
	resolve_kver
	exit 0
	;;
"") ;;
*)
	echo "usage: $0 [--kver|--resolve]" >&2
	exit 2
	;;
esac

if [ "$(id -u)" != 0 ]; then
	say "must run as root (apt-get install)"
	exit 1
fi

# 1. the kernel ABI: from apt; on a machine whose lists were never fetched,
#    fetch them first
kver=$(kver_from_apt)
if [ -z "$kver" ]; then
	apt_update
	kver=$(kver_from_apt)
fi
[ -n "$kver" ] || kver=$(kver_from_headers)
if [ -z "$kver" ]; then
	say "cannot resolve the kernel ABI from linux-image-amd64"
	exit 1
fi
save_kver "$kver"

# 2. what the project needs (the VM kit takes its guest tools from the host)
pkgs=(
	build-essential            # gcc, make
	"linux-headers-$kver"      # module build against the VM kernel
	qemu-system-x86            # the VM (software emulation)
	fio mdadm dmsetup          # benchmarks, md oracle, fault injection
	e2fsprogs xfsprogs         # filesystems on VDs
	busybox-static             # the VM's shell and applets
	kmod                       # modprobe/depmod (host: depmod -b; guest: modprobe)
	cpio                       # initramfs
	util-linux fdisk mount coreutils findutils # blockdev/blkid/lsblk/wipefs, sfdisk, losetup, dd
	sparse                     # make C=1
	linux-source-6.1 xz-utils  # scripts/checkpatch.pl
	perl                       # checkpatch
	dpkg apt                   # apt-get download / dpkg-deb -x for the VM kernel
	bash                       # /bin/sh inside the VM
	clang libclang-rt-14-dev   # libFuzzer for tests/fuzz
	gnuplot-nox                # make bench: plots
)

missing=()
for p in "${pkgs[@]}"; do
	st=$(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null || true)
	case "$st" in
	ii*) ;;
	*) missing+=("$p") ;;
	esac
done

if [ "${#missing[@]}" = 0 ]; then
	say "all packages present (kernel ABI $kver)"
	exit 0
fi

say "installing: ${missing[*]}"
apt_update
# the ABI may have moved with fresh lists: re-resolve and keep headers in step
k2=$(kver_from_apt)
if [ -n "$k2" ] && [ "$k2" != "$kver" ]; then
	for i in "${!missing[@]}"; do
		[ "${missing[$i]}" = "linux-headers-$kver" ] && missing[$i]="linux-headers-$k2"
	done
	kver=$k2
	save_kver "$kver"
	st=$(dpkg-query -W -f='${db:Status-Abbrev}' "linux-headers-$kver" 2>/dev/null || true)
	case "$st" in ii*) ;; *) missing+=("linux-headers-$kver") ;; esac
fi
quiet apt-get -qq -y -o Dpkg::Use-Pty=0 --no-install-recommends install "${missing[@]}"
say "done (kernel ABI $kver)"
