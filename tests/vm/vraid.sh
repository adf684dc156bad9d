# vraid helpers for VM cases; source after lib.sh:
#   . "$(dirname "$0")/../lib.sh"; . "$(dirname "$0")/../vraid.sh"
# Everything here runs inside the VM, as root, under busybox sh.

# mixed_members N: N member devices, NVMe, SATA and SAS interleaved
# (nvme0 sata0 sas0 nvme1 sata1 sas1 ...), each followed by a space.
# In the shell alone: with an awk a device it took 1.7 s a call in the
# VM (48 awk runs), and cases call it per level.
mixed_members() {
	local n=$1 list="" i=1 kind d
	while [ $i -le 16 ]; do
		for kind in "$NVME_DEVS" "$SATA_DEVS" "$SAS_DEVS"; do
			set -- $kind
			[ $# -ge $i ] || continue
			eval "d=\${$i}"
			list="$list $d"
		done
		i=$((i + 1))
	done
	set -- $list
	[ $# -ge "$n" ] || fail "only $# member devices available, $n wanted"
	list=""
	i=0
	for d; do
		[ $i -lt "$n" ] || break
		list="$list$d "
		i=$((i + 1))
	done
	printf '%s' "$list"
}

# member_reqs r|w DEV...: "REQUESTS KIB", the reads (r) or writes (w) the
# whole disks DEV... completed so far (/sys/block/*/stat)
member_reqs() {
	local f=1 m
	[ "$1" = w ] && f=5
	shift
	for m; do cat "/sys/block/${m#/dev/}/stat"; done |
		awk -v f=$f '{ n += $f; s += $(f + 2) }
			END { printf "%d %d\n", n, s / 2 }'
}

# request_kb WHAT MIN BEFORE_REQS BEFORE_KIB AFTER_REQS AFTER_KIB: the
# members' average request between two member_reqs must be at least MIN
# KiB (WHAT names it in the message)
request_kb() {
	local n=$(($5 - $3)) kb=$(($6 - $4))
	[ $n -gt 0 ] && [ $((kb / n)) -ge "$2" ] ||
		fail "$1 reached the members as $n requests for $kb KiB (want >= $2 KiB each)"
	echo "$1 reached the members as $n requests of $((kb / n)) KiB on average"
}

# vd_create ARGS...: create a VD, print /dev/vraidN, fail the case on error.
# --force: the cases of a boot share its disks, which hold what the last
# case left (a stopped VD's metadata, a file system, md superblocks);
# 2N-destructive tests the refusals themselves.
vd_create() {
	local vd
	vd=$(vraidctl create --force "$@") || fail "vraidctl create $* failed"
	[ -b "/dev/$vd" ] || fail "/dev/$vd did not appear after create"
	echo "/dev/$vd"
}

vd_delete() {
	vraidctl delete "$1" --force || fail "vraidctl delete $1 --force failed"
	[ ! -e "$1" ] || fail "$1 still exists after delete"
}

# The number of VDs `vraidctl list --json` reports.
vd_count() {
	vraidctl list --json | grep -o '"vd":' | wc -l
}

# sysfs attribute of a VD: vd_attr /dev/vraid0 state
vd_attr() {
	cat "/sys/block/${1#/dev/}/vraid/$2"
}

# mb N: N MiB as a fio size or offset, divided by VRAID_SIZE_DIV (1 unless
# set; `make test-debug` runs the cases at a quarter of their sizes). Cases
# write every fio size and offset as $(mb N) so that they keep their shape
# (which job writes where) at any divisor.
mb() {
	echo "$(($1 * 1024 / ${VRAID_SIZE_DIV:-1}))k"
}

# fio_verify DEV NAME [fio options...]: write with crc32c verification
# and read it back; fails the case on any fio error. Its output goes to
# a file of its own: cases run two at once in the background (with
# /tmp/fio.$$, the same in both, one's output overwrote the other's and
# the first to end removed it before the other's "verify:" grep)
fio_verify() {
	local dev=$1 name=$2 out
	shift 2
	out=$(mktemp /tmp/fio.XXXXXX) || fail "mktemp"
	fio --name="$name" --filename="$dev" --direct=1 --ioengine=libaio \
		--verify=crc32c --verify_fatal=1 --do_verify=1 \
		--output-format=terse --terse-version=3 "$@" >"$out" 2>&1 ||
		{ cat "$out"; fail "fio $name on $dev failed"; }
	grep -q "verify:" "$out" && { cat "$out"; fail "fio $name: verify errors"; }
	rm -f "$out"
	echo "fio $name on $dev: ok"
}

# verify_data DEV [WHAT [MIB]]: the MIB (default 16) MiB that `fio_verify
# DEV data --rw=randwrite --bs=4k --size=$(mb MIB) --iodepth=8` wrote
# still verify.
verify_data() {
	fio --name=data --filename="$1" --rw=randwrite --bs=4k \
		--size=$(mb "${3:-16}") --direct=1 --ioengine=libaio --iodepth=8 \
		--verify=crc32c --verify_only=1 --verify_fatal=1 >/tmp/fio.vo 2>&1 ||
		{ cat /tmp/fio.vo; fail "data of $1 differs${2:+ ($2)}"; }
}

# Checksum of COUNT MiB of DEV starting at SKIP MiB.
sum_mib() {
	dd if="$1" bs=1M skip="${3:-0}" count="$2" iflag=direct 2>/dev/null | sha256sum | cut -d' ' -f1
}

# Checksum of SECTORS 512-byte sectors of DEV starting at sector SKIP.
sum_sectors() {
	dd if="$1" bs=512 skip="$2" count="$3" 2>/dev/null | sha256sum | cut -d' ' -f1
}

DATA_OFFSET=16384	# sectors; VRAID_DATA_OFFSET_SECTORS

# Expose a member's data area as /dev/mapper/NAME (dm-linear).
data_area() {
	local name=$1 dev=$2 sectors=$3
	echo "0 $sectors linear $dev $DATA_OFFSET" | dmsetup create "$name" ||
		fail "dmsetup create $name failed"
	dmsetup mknodes "$name" >/dev/null 2>&1
	[ -b "/dev/mapper/$name" ] || fail "/dev/mapper/$name missing"
}

# level_members LEVEL: a mixed member list and create options for LEVEL
# (sets LM_DEVS and LM_OPTS).
level_members() {
	case $1 in
	1)  LM_DEVS=$(mixed_members 3); LM_OPTS="--level 1" ;;
	10) LM_DEVS=$(mixed_members 6); LM_OPTS="--level 10" ;;
	5)  LM_DEVS=$(mixed_members 4); LM_OPTS="--level 5" ;;
	6)  LM_DEVS=$(mixed_members 5); LM_OPTS="--level 6" ;;
	50) LM_DEVS=$(mixed_members 6); LM_OPTS="--level 50 --spans 2" ;;
	60) LM_DEVS=$(mixed_members 8); LM_OPTS="--level 60 --spans 2" ;;
	*)  fail "level_members: unknown level $1" ;;
	esac
}

# small_level LEVEL: LM_OPTS and LM_DEVS for a small VD of LEVEL (jbod,
# 0, or what level_members gives) with 16 KiB strips, as the cache cases
# make one per level.
small_level() {
	case $1 in
	jbod) LM_OPTS="--level jbod" LM_DEVS=$(mixed_members 1) ;;
	0) LM_OPTS="--level 0 --strip 16K" LM_DEVS=$(mixed_members 3) ;;
	*) level_members $1; LM_OPTS="$LM_OPTS --strip 16K --init fast" ;;
	esac
}

# switch_under_load VD PID KEY=VALUE...: while PID runs, set the VD's
# policies KEY=VALUE in turn, one every 0.3 s; the number of switches
# made goes to SWITCHES. A refused switch fails the case.
switch_under_load() {
	local vd=$1 pid=$2 kv
	shift 2
	SWITCHES=0
	while kill -0 "$pid" 2>/dev/null; do
		eval "kv=\${$((SWITCHES % $# + 1))}"
		vraidctl set "$vd" "$kv" >/dev/null || fail "switch $SWITCHES ($kv) refused"
		SWITCHES=$((SWITCHES + 1))
		sleep 0.3
	done
}

# pq_check VD_LEVEL STRIP_BYTES SPANS ROWS MEMBERS...: parity of the first
# ROWS rows on the members' raw data areas is what a naive GF(2^8) model
# computes (tests/vm/pqref.c); RAID1/10: every copy is equal.
pq_check() {
	local lvl=$1 strip=$2 spans=$3 rows=$4 sp=""
	shift 4
	[ "$spans" -gt 1 ] && sp="--spans $spans"
	pqref check -q --level "$lvl" --strip "$strip" $sp --rows "$rows" "$@" ||
		fail "pqref: parity/copies of RAID$lvl inconsistent"
}

# zero_members MIB DEV...: zero the first MIB MiB of each member's data
# area (0: all of it), so regions vraid never wrote hold consistent
# parity and copies (for VDs created with --init fast).
zero_members() {
	local mib=$1 d len
	shift
	for d in "$@"; do
		if [ "$mib" = 0 ]; then
			len=$(($(blockdev --getsize64 "$d") - DATA_OFFSET * 512))
		else
			len=$((mib * 1048576))
		fi
		blkdiscard -z -o $((DATA_OFFSET * 512)) -l "$len" "$d" 2>/dev/null ||
			dd if=/dev/zero of="$d" bs=1M seek=$((DATA_OFFSET / 2048)) \
				count=$((len / 1048576)) oflag=direct 2>/dev/null ||
			fail "cannot zero $d"
	done
}

# ---- the md oracle (DESIGN.md): stock md over the same members ----

md_wait_idle() {
	local a=$1 i=0
	while [ "$(cat /sys/block/$a/md/sync_action)" != idle ]; do
		sleep 0.5
		i=$((i + 1))
		[ $i -lt 600 ] || fail "$a: md check did not finish"
	done
}

# md_check /dev/mdN: md's own check finds no mismatch.
md_check() {
	local a=${1#/dev/}
	echo check >/sys/block/$a/md/sync_action
	sleep 0.5
	md_wait_idle $a
	[ "$(cat /sys/block/$a/md/mismatch_cnt)" = 0 ] ||
		fail "$a: md check found $(cat /sys/block/$a/md/mismatch_cnt) mismatched sectors"
}

md_create() { # DEV LEVEL CHUNK_K SIZE_K DEVS...
	local dev=$1 lvl=$2 chunk=$3 size=$4 layout=""
	shift 4
	case $lvl in
	5|6) layout="--layout=left-symmetric --chunk=$chunk" ;;
	10) layout="--layout=n2 --chunk=$chunk" ;;
	esac
	mdadm --create "$dev" --run --assume-clean --metadata=1.2 \
		--data-offset=8M --size="$size" --bitmap=none --level="$lvl" \
		$layout --raid-devices=$# "$@" </dev/null >/tmp/mdadm.out 2>&1 ||
		{ cat /tmp/mdadm.out; fail "mdadm --create $dev failed"; }
}

# md_oracle LEVEL STRIP_K MEMBER_SECTORS VD_SECTORS HEAD_SUM HEAD_MIB
#           TAIL_SUM DEVS...
# With the VD stopped or deleted: md over DEVS (same level, layout, chunk
# and order; RAID50/60 as raid0 over per-span arrays) is as large as the
# VD was, reads HEAD_SUM over its first HEAD_MIB MiB and TAIL_SUM over its
# last 2048 sectors (TAIL_SUM "-": not compared), and md's check finds
# zero mismatches.  md is stopped again afterwards.
md_oracle() {
	local lvl=$1 strip_k=$2 msz=$3 size=$4 head=$5 mib=$6 tail=$7 w
	shift 7
	case $lvl in
	50|60)
		w=$(($# / 2))
		md_create /dev/md10 $((lvl / 10)) "$strip_k" $((msz / 2)) $(echo "$@" | cut -d' ' -f1-$w)
		md_create /dev/md11 $((lvl / 10)) "$strip_k" $((msz / 2)) $(echo "$@" | cut -d' ' -f$((w + 1))-)
		mdadm --build /dev/md0 --level=0 --chunk="$strip_k" --raid-devices=2 \
			/dev/md10 /dev/md11 </dev/null || fail "mdadm --build over spans"
		;;
	*)
		md_create /dev/md0 $lvl "$strip_k" $((msz / 2)) "$@"
		;;
	esac
	[ "$(blockdev --getsz /dev/md0)" = "$size" ] ||
		fail "RAID$lvl: md size $(blockdev --getsz /dev/md0) != VD size $size"
	[ "$(sum_mib /dev/md0 "$mib")" = "$head" ] ||
		fail "RAID$lvl: md reads other data than vraid at the start"
	[ "$tail" = - ] || [ "$(sum_sectors /dev/md0 $((size - 2048)) 2048)" = "$tail" ] ||
		fail "RAID$lvl: md reads other data than vraid at the end"
	case $lvl in
	50|60)
		mdadm --stop /dev/md0 >/dev/null 2>&1
		md_check /dev/md10
		md_check /dev/md11
		mdadm --stop /dev/md10 /dev/md11 >/dev/null 2>&1
		;;
	*)
		md_check /dev/md0
		mdadm --stop /dev/md0 >/dev/null 2>&1
		;;
	esac
}

# ---- the controller's journal (ABI 1.9) ----

# replay_assemble JDEV: after a power cut, attach the journal on JDEV
# (which must say replay pending) and assemble --scan; prints the VD's
# device.  Their output is in /tmp/journal.out and /tmp/asm.out.
# power_cut_copy VD JOURNAL MEMBER...: what a power cut leaves, kept while
# the VD goes: the first 16 MiB of each member (metadata, bitmap, the
# case's data) and 8 MiB of the journal are copied, the VD deleted and the
# journal detached, and the copies written back, so that the next journal
# attach and assembly find the devices as they were at the "cut".
power_cut_copy() {
	local vd=$1 j=$2 m n=0
	shift 2
	for m; do
		dd if="$m" of=/tmp/m$n.img bs=1M count=16 iflag=direct 2>/dev/null ||
			fail "copying $m"
		n=$((n + 1))
	done
	dd if="$j" of=/tmp/j.img bs=1M count=8 iflag=direct 2>/dev/null || fail "copying $j"
	vraidctl delete "$vd" --force >/dev/null || fail "delete $vd"
	vraidctl controller journal none >/dev/null || fail "controller journal none"
	n=0
	for m; do
		dd if=/tmp/m$n.img of="$m" bs=1M oflag=direct conv=notrunc 2>/dev/null ||
			fail "writing $m back"
		n=$((n + 1))
	done
	dd if=/tmp/j.img of="$j" bs=1M oflag=direct conv=notrunc 2>/dev/null ||
		fail "writing $j back"
	rm -f /tmp/m?.img /tmp/j.img
}

# udevd_start RULES...: systemd-udevd running the rules files RULES as
# installed (no other rules: nothing else opens the members behind a
# case's back), with /usr/sbin/vraidctl, which the rules and units name;
# the caller stops it (udevadm control --exit) in its EXIT trap
udevd_start() {
	local i=0
	mkdir -p /etc/udev/rules.d /usr/sbin
	cp "$@" /etc/udev/rules.d/ || fail "cannot install the udev rules $*"
	ln -sf "$(command -v vraidctl)" /usr/sbin/vraidctl
	ln -sf "$(command -v udevadm)" /run/systemd-udevd
	/run/systemd-udevd --daemon || fail "systemd-udevd did not start"
	until udevadm control --ping 2>/dev/null; do
		i=$((i + 1))
		[ $i -lt 50 ] || fail "udevd does not answer"
		sleep 0.2
	done
}

# journal_cleanup JD DM...: what a journal case leaves behind, undone
# (the body of its EXIT trap): every VD deleted (dirty data discarded),
# the journal's writes awaiting replay discarded and the journal
# detached, the device-mapper devices DM... removed, and the first 8 MiB
# of the journal's disk JD zeroed ("" for none)
journal_cleanup() {
	local d jd=$1
	shift
	set +e
	for d in /sys/block/vraid*; do
		[ -e "$d" ] && vraidctl delete "/dev/${d##*/}" --force >/dev/null 2>&1
	done
	vraidctl controller journal discard --force >/dev/null 2>&1
	vraidctl controller journal none >/dev/null 2>&1
	for d; do
		dmsetup remove "$d" 2>/dev/null
	done
	[ -n "$jd" ] && zero_range "$jd" 0 8388608
	return 0
}

# first_vd: /dev/vraidN of the first VD `vraidctl list` names (after an
# assembly of the only one)
first_vd() {
	echo "/dev/$(vraidctl list --json | grep -o '"vd":"vraid[0-9]*"' | head -n1 | cut -d'"' -f4)"
}

replay_assemble() {
	local vd
	vraidctl controller journal "$1" >/tmp/journal.out 2>&1 ||
		{ cat /tmp/journal.out >&2; fail "controller journal $1"; }
	cat /tmp/journal.out >&2
	[ "$(journal_state)" = replay-pending ] ||
		fail "journal state $(journal_state) after the power cut: $(journal_json)"
	vraidctl assemble --scan >/tmp/asm.out 2>&1 ||
		{ cat /tmp/asm.out >&2; fail "assemble --scan"; }
	cat /tmp/asm.out >&2
	vd=$(first_vd)
	[ -b "$vd" ] || fail "no VD after assemble"
	echo "$vd"
}

# journal_json: the "journal" member of `vraidctl controller show --json`
# ("null" when none is attached)
journal_json() {
	vraidctl controller show --json | tr -d '\n' |
		sed -nE 's/.*"journal":(null|\{[^}]*\}).*/\1/p'
}

# journal_state: none, healthy, replay-pending or failed
journal_state() {
	local j
	j=$(journal_json)
	case "$j" in
	"" | null) echo none ;;
	*) echo "$j" | grep -o '"state":"[^"]*"' | head -n 1 | cut -d'"' -f4 | tr _ - ;;
	esac
}

# json_num KEY JSON: the number KEY has in JSON (the first; empty if none)
json_num() {
	echo "$2" | grep -o "\"$1\":[0-9]*" | head -n 1 | cut -d: -f2
}

# journal_num KEY: the number KEY of the attached journal (head_seq,
# pending, vds, ...); empty without a journal
journal_num() {
	json_num "$1" "$(journal_json)"
}

# ctl_num KEY: a number of `vraidctl controller show --json` outside
# "journal" (cache_bytes, dirty_bytes, dirty_high_bytes, ...)
ctl_num() {
	json_num "$1" "$(vraidctl controller show --json)"
}

# journal_new DEV: attach DEV as the controller's journal, which must
# come up healthy: a new one (--force formats DEV whatever an earlier
# case of the boot left on it, a journal included)
journal_new() {
	vraidctl controller journal "$1" --force >/tmp/journal.out 2>&1 ||
		{ cat /tmp/journal.out; fail "controller journal $1"; }
	[ "$(journal_state)" = healthy ] ||
		fail "journal state $(journal_state): $(vraidctl controller show --json)"
}

# destaged VD: wait until the controller cache holds nothing dirty (30 s)
destaged() {
	local i=0
	while [ "$(vd_attr "$1" cache_dirty_bytes)" != 0 ]; do
		i=$((i + 1))
		[ $i -lt 300 ] || fail "still $(vd_attr "$1" cache_dirty_bytes) bytes dirty after 30 s"
		sleep 0.1
	done
}

# await PID SECONDS WHAT: wait up to SECONDS for PID (a job of this
# shell) to end, failing with WHAT if it has not; returns its status
await() {
	local i=0
	while kill -0 "$1" 2>/dev/null; do
		i=$((i + 1))
		[ $i -lt $(($2 * 10)) ] || fail "$3"
		sleep 0.1
	done
	wait "$1"
}

# crashio_start OUT ARGS...: `crashio write ARGS...` in the background,
# its output in OUT; returns once it writes (sets cio_pid)
crashio_start() {
	local out=$1 i=0
	shift
	crashio write "$@" >"$out" 2>&1 &
	cio_pid=$!
	until grep -q running "$out"; do
		i=$((i + 1))
		[ $i -lt 100 ] || { cat "$out"; fail "crashio did not start on $1"; }
		sleep 0.1
	done
}

# dm_over NAME DEV: /dev/mapper/NAME, a dm-linear over all of DEV
dm_over() {
	echo "0 $(blockdev --getsz "$2") linear $2 0" | dmsetup create "$1" ||
		fail "dmsetup create $1 over $2"
	settle
	[ -b "/dev/mapper/$1" ] || fail "/dev/mapper/$1 missing"
}

# dm_hold NAME DEV FROM: NAME (dm_over DEV) holds writes from sector
# FROM of DEV on for ten minutes (dm-delay); dm_release NAME DEV lets
# them go (a suspend sends what it delays)
dm_hold() {
	local sz
	sz=$(blockdev --getsz "$2")
	modprobe dm-delay || fail "modprobe dm-delay"
	dmsetup suspend "$1" || fail "dmsetup suspend $1"
	printf '%s\n' "0 $3 linear $2 0" \
		"$3 $((sz - $3)) delay $2 $3 0 $2 $3 600000" |
		dmsetup load "$1" || fail "dmsetup load $1"
	dmsetup resume "$1" || fail "dmsetup resume $1"
}

dm_release() {
	dmsetup suspend "$1" || fail "dmsetup suspend $1"
	echo "0 $(blockdev --getsz "$2") linear $2 0" | dmsetup load "$1" ||
		fail "dmsetup load $1"
	dmsetup resume "$1" || fail "dmsetup resume $1"
}

# majmin DEV: "major:minor" of a block device node
majmin() {
	local t
	t=$(stat -L -c '%t %T' "$1") || return 1
	set -- $t
	printf '%d:%d\n' "0x$1" "0x$2"
}

# write_in_effect VD: MODE WHY as `vraidctl show VD --json` says them
# (write_back "", write_through no_journal, write_through journal_failed ...)
write_in_effect() {
	vraidctl show "$1" --json | grep -o '"write_in_effect":{[^}]*}' |
		sed -E 's/.*"mode":"([^"]*)".*"why":"([^"]*)".*/\1 \2/'
}

# expect_write VD MODE [WHY]: the write policy in effect is MODE (for
# `show --json`; sysfs's name is MODE with '-' for '_'), for reason WHY
expect_write() {
	local e s
	e=$(write_in_effect "$1")
	[ "$e" = "$2${3:+ $3}" ] || [ "$e" = "$2 ${3:-}" ] ||
		fail "$1: write in effect '$e', expected '$2 ${3:-}' ($(vraidctl show "$1" --json))"
	s=$(vd_attr "$1" write_policy_effective)
	[ "$s" = "$(echo "$2" | tr _ -)" ] ||
		fail "$1: sysfs write_policy_effective '$s', expected $2"
}
