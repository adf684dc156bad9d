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
#   tests/vm/deps.sh --debug-kernel  install what building the debug kernel
#                             needs (flex, bison, bc, libelf-dev, ...)
#   tests/vm/deps.sh --profile  install perf (linux-perf) for bench/profile
#   tests/vm/deps.sh --packaging  install what make dkms / make deb need (dkms,
#                             dpkg-dev, lintian, python3-docutils for the
#                             man pages; `make deps-pkg`)
#   tests/vm/deps.sh --apt-args print the apt-get/apt-cache options that
#                             select the kernel's package lists (empty for
#                             the distribution's own kernel)
#
# The ABI comes from the dependency of the linux-image-amd64 metapackage
# (linux-image-<abi> or linux-image-<abi>-unsigned); it is never hard-coded.
# If apt knows nothing, the newest /usr/src/linux-headers-*-amd64 is used.
#
# VRAID_KERNEL selects another kernel:
#   (unset)   the distribution's kernel (Debian 12: 6.1)
#   6.12      a newer LTS series from <codename>-backports: its package
#             lists are fetched into a private apt directory
#             (.cache/apt-backports; the archive is the one the machine's
#             own apt configuration uses for <codename>, nothing is added
#             to /etc/apt) and the headers and kbuild packages are unpacked
#             (never installed) into .cache/kernels/<abi>
#   debug     the project's debug kernel: VRAID_KERNEL_TREE names its tree
#             (tests/debug/kernel builds it); nothing is fetched
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)
series=${VRAID_KERNEL:-}
cache=${VRAID_CACHE:-$repo/.cache/vm${series:+-$series}}
kver_file=$cache/kver
bp=$repo/.cache/apt-backports

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

# --- another kernel series ----------------------------------------------------
codename() { . /etc/os-release && echo "${VERSION_CODENAME:-}"; }

# options that make apt use only the private backports lists
bp_args() {
	echo "-o Dir::Etc::SourceList=$bp/sources.list -o Dir::Etc::SourceParts=$bp/none" \
		"-o Dir::State::Lists=$bp/lists -o Dir::Cache=$bp/cache" \
		"-o Dir::State::status=$bp/status -o APT::Sandbox::User=root"
}

# write the private sources.list from the archive the machine uses for its
# release and fetch the lists (once; again with --resolve)
bp_update() {
	local cn uri key
	cn=$(codename)
	[ -n "$cn" ] || { say "cannot tell the Debian release (/etc/os-release)"; return 1; }
	uri=$(apt-cache policy 2>/dev/null |
		sed -n "s#^ *[0-9]* \([a-z]*://[^ ]*\) $cn/main amd64 Packages\$#\1#p" | head -n 1)
	if [ -z "$uri" ]; then
		apt_update
		uri=$(apt-cache policy 2>/dev/null |
			sed -n "s#^ *[0-9]* \([a-z]*://[^ ]*\) $cn/main amd64 Packages\$#\1#p" | head -n 1)
	fi
	[ -n "$uri" ] || { say "apt has no source for $cn/main: cannot derive $cn-backports"; return 1; }
	key=/usr/share/keyrings/debian-archive-keyring.gpg
	mkdir -p "$bp/lists/partial" "$bp/cache/archives/partial" "$bp/none"
	: >"$bp/status"
	echo "deb [signed-by=$key] $uri $cn-backports main" >"$bp/sources.list"
	say "apt-get update ($cn-backports, private lists)"
	# shellcheck disable=SC2046
	quiet apt-get -qq $(bp_args) update
	touch "$bp/.updated"
}

# newest ABI of the series in the backports lists (the plain amd64 flavour,
# not -rt-amd64 or -cloud-amd64)
kver_from_bp() {
	# shellcheck disable=SC2046
	apt-cache $(bp_args) pkgnames "linux-image-$series." 2>/dev/null |
		sed -n "s/^linux-image-\($series\.[0-9][0-9]*[+a-z0-9~]*-amd64\)-unsigned\$/\1/p" |
		sort -uV | tail -n 1
}

resolve_series() {
	local k
	if [ ! -f "$bp/.updated" ] || [ "${1:-}" = fresh ]; then
		bp_update || return 1
	fi
	k=$(kver_from_bp)
	if [ -z "$k" ] && [ "${1:-}" != fresh ]; then
		bp_update || return 1
		k=$(kver_from_bp)
	fi
	[ -n "$k" ] || { say "no linux-image-$series.*-amd64 in $(codename)-backports"; return 1; }
	save_kver "$k"
	echo "$k"
}

# unpack linux-headers-<abi>, its -common and linux-kbuild into
# .cache/kernels/<abi>; point the arch tree's Makefile at the unpacked -common
fetch_headers() {
	local k=$1 dst=$repo/.cache/kernels/$1 dl hdr common kb
	hdr=$dst/usr/src/linux-headers-$k
	[ -f "$dst/.complete" ] && return 0
	common=${k%-amd64}-common
	kb=${k%-amd64}
	dl=$bp/dl
	rm -rf "$dl" "$dst"
	mkdir -p "$dl" "$dst"
	say "fetching linux-headers-$k, linux-headers-$common, linux-kbuild-${kb}"
	# shellcheck disable=SC2046
	(cd "$dl" && quiet apt-get -qq $(bp_args) download "linux-headers-$k" \
		"linux-headers-$common" "linux-kbuild-$kb") || return 1
	for d in "$dl"/*.deb; do dpkg-deb -x "$d" "$dst"; done
	sed -i "s#/usr/src/#$dst/usr/src/#" "$hdr/Makefile"
	rm -rf "$dl"
	[ -f "$hdr/Module.symvers" ] || { say "$hdr is incomplete"; return 1; }
	touch "$dst/.complete"
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

case "$series" in
"" | debug) ;;
[0-9]*.[0-9]*) ;;
*)
	say "VRAID_KERNEL=$series: expected a series like 6.12, or debug"
	exit 2
	;;
esac

tree_kver() {
	local t=${VRAID_KERNEL_TREE:-}
	[ -n "$t" ] && [ -d "$t/lib/modules" ] || { say "VRAID_KERNEL=debug needs VRAID_KERNEL_TREE (a built tree)"; return 1; }
	ls "$t/lib/modules" | head -n 1
}

case "${1:-}" in
--kver)
	if [ "$series" = debug ]; then
		tree_kver
	elif [ -s "$kver_file" ]; then
		cat "$kver_file"
	elif [ -n "$series" ]; then
		resolve_series
	else
		resolve_kver
	fi
	exit 0
	;;
--resolve)
	if [ "$series" = debug ]; then
		tree_kver
	elif [ -n "$series" ]; then
		resolve_series fresh
	else
		resolve_kver
	fi
	exit 0
	;;
--apt-args)
	if [ -n "$series" ] && [ "$series" != debug ]; then
		bp_args
	fi
	exit 0
	;;
--profile)
	# bench/profile: perf, for the VM kit
	case "$(dpkg-query -W -f='${db:Status-Abbrev}' linux-perf 2>/dev/null || true)" in
	ii*) exit 0 ;;
	esac
	[ "$(id -u)" = 0 ] || { say "must run as root (apt-get install linux-perf)"; exit 1; }
	say "installing: linux-perf"
	apt_update
	quiet apt-get -qq -y -o Dpkg::Use-Pty=0 --no-install-recommends install linux-perf
	exit 0
	;;
--packaging)
	# make dkms, make deb (packaging.mk): not needed by make test
	missing=()
	for p in dkms dpkg-dev lintian python3-docutils; do
		case "$(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null || true)" in
		ii*) ;;
		*) missing+=("$p") ;;
		esac
	done
	[ "${#missing[@]}" = 0 ] && exit 0
	[ "$(id -u)" = 0 ] || { say "must run as root (apt-get install ${missing[*]})"; exit 1; }
	say "installing: ${missing[*]}"
	apt_update
	quiet apt-get -qq -y -o Dpkg::Use-Pty=0 --no-install-recommends install "${missing[@]}"
	exit 0
	;;
--debug-kernel)
	# what tests/debug/kernel needs besides the usual packages
	missing=()
	for p in linux-source-6.1 build-essential flex bison bc libelf-dev libssl-dev \
		dwarves kmod xz-utils cpio; do
		case "$(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null || true)" in
		ii*) ;;
		*) missing+=("$p") ;;
		esac
	done
	[ "${#missing[@]}" = 0 ] && exit 0
	say "installing: ${missing[*]}"
	apt_update
	quiet apt-get -qq -y -o Dpkg::Use-Pty=0 --no-install-recommends install "${missing[@]}"
	exit 0
	;;
"") ;;
*)
	echo "usage: $0 [--kver|--resolve|--apt-args|--debug-kernel|--profile|--packaging]" >&2
	exit 2
	;;
esac

if [ "$(id -u)" != 0 ]; then
	say "must run as root (apt-get install)"
	exit 1
fi

# 1. the kernel ABI: from apt; on a machine whose lists were never fetched,
#    fetch them first.  (The distribution's kernel is needed whatever
#    VRAID_KERNEL says: its headers are what the host build uses.)
series_kver_file=$kver_file
[ -n "$series" ] && kver_file=$repo/.cache/vm/kver
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
	udev                       # udevadm: the VM's udevd runs packaging/udev's rules
	clang libclang-rt-14-dev   # libFuzzer for tests/fuzz
	gnuplot-nox                # make bench: plots
	dwarves                    # pahole: BTF of modules for newer kernels (KVER=6.12)
	python3-docutils           # rst2man: the manual pages (make man, make install)
)

missing=()
for p in "${pkgs[@]}"; do
	st=$(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null || true)
	case "$st" in
	ii*) ;;
	*) missing+=("$p") ;;
	esac
done

# 3. another kernel series: its headers, unpacked under .cache/kernels
other_kernel() {
	local k
	[ -n "$series" ] && [ "$series" != debug ] || return 0
	kver_file=$series_kver_file
	k=$("$0" --kver) || exit 1
	fetch_headers "$k" || { say "cannot fetch the headers of $k"; exit 1; }
	say "kernel $k: headers in .cache/kernels/$k"
}

if [ "${#missing[@]}" = 0 ]; then
	say "all packages present (kernel ABI $kver)"
	other_kernel
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
other_kernel
