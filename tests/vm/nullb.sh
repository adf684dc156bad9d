# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# tests/vm/nullb.sh - sourced inside the VM by the bench/vm-*.sh scripts
# (at /vraid/tests/vm/nullb.sh): null_blk members that cost what a device
# of a given kind costs.  The caller defines die() and NCPU, and loads
# null_blk (nr_devices=0) with configfs mounted first (nullb_load does).

# nullb_load: null_blk loaded with no device of its own, configfs mounted
nullb_load() {
	grep -q '^null_blk ' /proc/modules || modprobe null_blk nr_devices=0 ||
		die "modprobe null_blk"
	grep -q " /sys/kernel/config " /proc/mounts ||
		mount -t configfs none /sys/kernel/config || die "mount configfs"
}

# nullb_make INDEX MIB [MODEL]: a memory-backed null_blk; MODEL ram (memory
# speed, the default), ssd (100 us per I/O, many at a time), hdd (5 ms, one
# at a time, rotational) or nvme (20 us: a journal device); sets NULLB
nullb_make() {
	local i=$1 mb=$2 model=${3:-ram} d idx _t
	# 6.1 names the disk after the configfs item (older kernels: nullbINDEX)
	d=/sys/kernel/config/nullb/nullb$i
	mkdir "$d" || die "null_blk configfs $d"
	echo "$mb" >"$d/size"
	echo 1 >"$d/memory_backed"
	echo 4096 >"$d/blocksize"
	echo "$NCPU" >"$d/submit_queues"
	case $model in
	ram) ;;
	ssd) echo 2 >"$d/irqmode"; echo 100000 >"$d/completion_nsec" ;;
	nvme) echo 2 >"$d/irqmode"; echo 20000 >"$d/completion_nsec" ;;
	hdd)
		echo 2 >"$d/irqmode"; echo 5000000 >"$d/completion_nsec"
		echo 1 >"$d/submit_queues"; echo 1 >"$d/hw_queue_depth"
		;;
	*) die "nullb_make: unknown model $model" ;;
	esac
	echo 1 >"$d/power"
	idx=$i
	[ -e "/sys/block/nullb$i" ] || idx=$(cat "$d/index")
	for _t in $(seq 50); do [ -b "/dev/nullb$idx" ] && break; sleep 0.1; done
	[ -b "/dev/nullb$idx" ] || { ls /sys/block; dmesg | tail -5; die "/dev/nullb$idx did not appear"; }
	# shellcheck disable=SC2034 # the caller's
	NULLB=/dev/nullb$idx
	if [ "$model" = hdd ]; then
		# a disk, as the block layer sees one: rotational, and writeback
		# throttling's target for rotational disks (75 ms; null_blk
		# starts with the 2 ms of an SSD, which 5 ms I/Os always miss)
		echo 1 >"/sys/block/nullb$idx/queue/rotational"
		echo 75000 >"/sys/block/nullb$idx/queue/wbt_lat_usec" 2>/dev/null
	fi
}
