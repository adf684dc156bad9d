#!/bin/bash
# tests/vm/soak.sh - the randomised operations soak, inside the VM (the host
# side is tests/vm/soak; Documentation/testing.rst, "Soak").
#
# Every member disk sits behind a dm device (/dev/mapper/pN, dm-linear over
# the whole disk) whose table is swapped at will: dm-delay for a member that
# stalls 10-40 s, dm-error or dm-flakey for one that fails. A redundant VD
# (the seed picks RAID1, 5, 6, 10, 50 or 60, its width and strip) holds six
# data regions written by fio (crc32c, verify_fatal); a load writes and
# verifies them over and over while each step runs. A seeded PRNG picks
# the steps: stop + assemble, fail, a member whose I/O fails (error,
# writes failing, intermittent), replace, hot-spare take-over, write /
# read / io / disk-cache policies, the controller's journal attached and
# detached, the controller cache resized, check / repair, a member stall.
# After every step: the VD's state and every member's are what the step
# implies (a model of them), the load's writes verified, every region
# verifies (fio verify_only) and reads the checksum taken when it was last
# written (fio's crc32c header does not tell one write's data from an
# older one at the same offset), and the kernel log holds no BUG,
# WARNING, ... (lib.sh dmesg_check). A round ends by replacing what
# failed, a check (0 mismatches), and, with the VD stopped, md's oracle
# (vraid.sh md_oracle: md over the same members reads the same bytes and
# its check is clean); then the VD is assembled, verified and deleted, and
# the next round picks another level.
#
# Environment: SOAK_SEED (required), SOAK_STEPS (stop after that many
# steps; 0: no limit), SOAK_MINUTES (start no step after that; 0: no
# limit), SOAK_STALL_MAX (longest stall, default 40 s), SOAK_SCAN=1 (also
# assemble with `assemble --scan`, which fails over dm members today:
# see the Soak section), VRAID_SIZE_DIV (smaller regions, debug kernel),
# VRAID_TIMEOUT_SCALE (longer step watchdog).
# Prints "ok N - ..." per step and per round end, "not ok N - ..." and
# "SOAK_SEED=S SOAK_STEPS=M reproduces it" at the first failure (and
# stops there), "soak: done ..." at the end.
. "${VRAID_TESTS:-/vraid/tests/vm}/lib.sh"
. "$VRAID_TESTS/vraid.sh"
set -u

SEED=${SOAK_SEED:?SOAK_SEED is required}
STEPS=${SOAK_STEPS:-0}
MINUTES=${SOAK_MINUTES:-0}
STALL_MAX=${SOAK_STALL_MAX:-40}
SCAN=${SOAK_SCAN:-0}
SCALE=${VRAID_TIMEOUT_SCALE:-1}
STEP_TIMEOUT=$((900 * SCALE))
W=/tmp/soak
rm -rf $W
mkdir -p $W

STEP=0		# steps begun
TAPN=0		# TAP lines printed
DESC="setup"
LOAD_PID=""
WD_PID=""
VD=""		# /dev/vraidN
ROUND=0

# ---- the PRNG: an LCG, so the sequence is the same on every bash -------
rng=$((SEED % 2147483648))
# rnd N: R = 0..N-1 (never in a subshell: the state would be lost)
rnd() {
	rng=$(((rng * 1103515245 + 12345) % 2147483648))
	R=$(((rng >> 8) % $1))
}

# ---- reporting ------------------------------------------------------
tap_ok() {
	TAPN=$((TAPN + 1))
	echo "ok $TAPN - SOAK_SEED=$SEED $*"
}

# sfail MSG: the step failed: say what, show the VD and the kernel log,
# say how to reproduce it, stop
sfail() {
	local tail=100
	[ -n "$WD_PID" ] && kill "$WD_PID" 2>/dev/null
	echo "FAIL: $*"
	echo "--- state at the failure:"
	vraidctl list 2>&1 | sed 's/^/  /'
	[ -n "$VD" ] && [ -b "$VD" ] && {
		vraidctl show "$VD" 2>&1 | sed 's/^/  /'
		vd_attr "$VD" members 2>&1 | sed 's/^/  members: /'
	}
	vraidctl spare list 2>&1 | sed 's/^/  /'
	vraidctl controller show 2>&1 | sed 's/^/  /'
	dmsetup table 2>&1 | sed 's/^/  dm: /'
	[ -s $W/load.log ] && sed 's/^/  load: /' $W/load.log | tail -n 40
	dmesg_check >/dev/null || tail=400
	echo "--- kernel log since step $STEP began (last $tail lines):"
	dmesg_since_mark | tail -n $tail | sed 's/^/  /'
	TAPN=$((TAPN + 1))
	echo "not ok $TAPN - SOAK_SEED=$SEED step $STEP: $DESC: $*"
	echo "SOAK_SEED=$SEED SOAK_STEPS=$STEP reproduces it (tests/vm/soak with those in the environment)"
	[ -n "$LOAD_PID" ] && { touch $W/stop; kill "$LOAD_PID" 2>/dev/null; }
	exit 1
}
# lib.sh's and vraid.sh's helpers (md_oracle, zero_range, ...) fail through it
fail() { sfail "$@"; }

say() { echo "soak: step $STEP: $*"; }

# watchdog: a step that has not ended after STEP_TIMEOUT s is a hang: the
# blocked tasks go to the kernel log, the report to the console, and the
# VM powers off (the host counts it failed)
wd_start() {
	(
		sleep "$STEP_TIMEOUT"
		echo w >/proc/sysrq-trigger 2>/dev/null
		sleep 2
		echo "FAIL: step $STEP ($DESC) still running after ${STEP_TIMEOUT}s: a hang; blocked tasks:"
		dmesg_since_mark | tail -n 400 | sed 's/^/  /'
		echo "not ok $((TAPN + 1)) - SOAK_SEED=$SEED step $STEP: $DESC: hung (no end after ${STEP_TIMEOUT}s)"
		echo "SOAK_SEED=$SEED SOAK_STEPS=$STEP reproduces it (tests/vm/soak with those in the environment)"
		sync
		echo o >/proc/sysrq-trigger
	) &
	WD_PID=$!
}
wd_stop() {
	[ -n "$WD_PID" ] && kill "$WD_PID" 2>/dev/null
	wait "$WD_PID" 2>/dev/null
	WD_PID=""
}

# ---- the pool: every member disk behind /dev/mapper/pN -------------------
set -- $NVME_DEVS
JOURNAL=${!#}		# the last NVMe disk is the journal's (not in the pool)
POOL=()
for d in $(mixed_members $(($(echo $NVME_DEVS $SATA_DEVS $SAS_DEVS | wc -w)))); do
	[ "$d" = "$JOURNAL" ] || POOL+=("$d")
done
NP=${#POOL[@]}
[ "$NP" -ge 11 ] || fail "the soak wants 11 member disks and a journal disk, has $NP + 1"
PSZ=()		# sectors
PMM=()		# major:minor of /dev/mapper/pN
PUSE=()		# free | member | spare | held (failed, still open by the VD)
PTAB=()		# linear | delay | error | flakey-w | flakey
modprobe dm-delay || fail "modprobe dm-delay"
modprobe dm-flakey || fail "modprobe dm-flakey"
for ((i = 0; i < NP; i++)); do
	PSZ[i]=$(blockdev --getsz "${POOL[i]}")
	dm_over p$i "${POOL[i]}"
	PMM[i]=$(majmin /dev/mapper/p$i)
	PUSE[i]=free
	PTAB[i]=linear
done

# ptable I KIND [ARGS]: swap pN's table (linear, delay SECS rw|w, error,
# flakey-w: every write fails, flakey: all I/O fails 1 s in 2)
ptable() {
	local i=$1 kind=$2 dev=${POOL[$1]} sz=${PSZ[$1]} t
	case $kind in
	linear) t="0 $sz linear $dev 0" ;;
	delay)
		if [ "$4" = w ]; then
			t="0 $sz delay $dev 0 0 $dev 0 $(($3 * 1000))"
		else
			t="0 $sz delay $dev 0 $(($3 * 1000))"
		fi ;;
	error) t="0 $sz error" ;;
	flakey-w) t="0 $sz flakey $dev 0 0 3600 1 error_writes" ;;
	flakey) t="0 $sz flakey $dev 0 1 1" ;;
	esac
	echo "$t" | dmsetup load p$i || fail "dmsetup load p$i ($kind)"
	dmsetup resume p$i || fail "dmsetup resume p$i ($kind)"
	PTAB[i]=$kind
}

# release I: pN goes back to the pool: linear again, metadata wiped
release() {
	[ "${PTAB[$1]}" = linear ] || ptable "$1" linear
	zero_range /dev/mapper/p$1 0 $((8 * 1048576))
	PUSE[$1]=free
}

# pick_free: R = a free pool device, chosen by the PRNG
pick_free() {
	local i f=()
	for ((i = 0; i < NP; i++)); do
		[ "${PUSE[i]}" = free ] && f+=($i)
	done
	[ ${#f[@]} -gt 0 ] || fail "no free device left in the pool"
	rnd ${#f[@]}
	R=${f[R]}
}

# ---- the VD model --------------------------------------------------------
LEVEL=0 NM=0 SPANS=1 STRIP_K=0
ROLE_P=()	# pool index of each role's device, -1: none (left out at assembly)
ROLE_S=()	# online | failed
WPOL=wt		# the write policy set
JOURNAL_ON=0	# the controller's journal attached

# group R: failure group of role R; tol: failures a group takes
group() {
	case $LEVEL in
	10) echo $(($1 / 2)) ;;
	50 | 60) echo $(($1 / (NM / 2))) ;;
	*) echo 0 ;;
	esac
}
tol() {
	case $LEVEL in
	1) echo $((NM - 1)) ;;
	6 | 60) echo 2 ;;
	*) echo 1 ;;
	esac
}
failed_roles() {
	local r l=""
	for ((r = 0; r < NM; r++)); do
		[ "${ROLE_S[r]}" = failed ] && l="$l $r"
	done
	echo $l
}
# can_fail: online roles whose failure the level takes (not Offline)
can_fail() {
	local r q g n t l=""
	t=$(tol)
	for ((r = 0; r < NM; r++)); do
		[ "${ROLE_S[r]}" = online ] || continue
		g=$(group $r)
		n=0
		for ((q = 0; q < NM; q++)); do
			[ "${ROLE_S[q]}" = failed ] && [ "$(group $q)" = "$g" ] && n=$((n + 1))
		done
		[ $n -lt "$t" ] && l="$l $r"
	done
	echo $l
}
expected_state() {
	[ -n "$(failed_roles)" ] && echo degraded || echo optimal
}

# check_model: the VD's state and each member's (device, state) are what
# the model says
check_model() {
	local st exp role name mm ms rest
	exp=$(expected_state)
	st=$(vd_attr "$VD" state)
	[ "$st" = "$exp" ] || fail "the VD is $st, expected $exp (failed roles:$(failed_roles))"
	while read -r role name mm ms rest; do
		case ${ROLE_S[role]} in
		online)
			[ "$ms" = online ] && [ "$mm" = "${PMM[${ROLE_P[role]}]}" ] ||
				fail "role $role is '$name $mm $ms', expected p${ROLE_P[role]} (${PMM[${ROLE_P[role]}]}) online"
			;;
		failed)
			[ "$ms" = failed ] || [ "$ms" = missing ] ||
				fail "role $role is '$name $mm $ms', expected failed"
			;;
		esac
	done <<EOF
$(vd_attr "$VD" members)
EOF
}

# wp_expect: sysfs write_policy_effective, once no change is draining
wp_expect() {
	case $WPOL in
	wt) echo write-through ;;
	awb) echo write-back-volatile ;;
	wb) [ $JOURNAL_ON = 1 ] && echo write-back || echo write-through ;;
	esac
}
check_wp() {
	local i=0 e s
	e=$(wp_expect)
	while s=$(vd_attr "$VD" write_policy_effective); [ "$s" != "$e" ]; do
		i=$((i + 1))
		[ $i -lt 300 ] || fail "write policy in effect '$s' after 30 s, expected $e (set: $WPOL, journal: $JOURNAL_ON)"
		sleep 0.1
	done
}

# ---- the data: NREG regions, each written by a known fio job -------------
NREG=6
REG_MIB=4
REG_OFF=()	# bytes
REG_GEN=()	# the generation last written (fio --randseed)
REG_SUM=()	# sha256 of the region after that write verified
REG_SZ=$(($(mb $REG_MIB | tr -d k) * 1024))

# fio options of a generation: the kind of writes varies with it
gen_opts() {
	case $(($1 % 4)) in
	0) echo "--rw=randwrite --bs=4k --iodepth=16" ;;
	1) echo "--rw=write --bs=64k --iodepth=4" ;;
	# (variable sizes: no random map, so overlapping writes in flight,
	# which land in any order; fio holds the later one back)
	2) echo "--rw=randwrite --bsrange=512-64k --iodepth=8 --serialize_overlap=1" ;;
	3) echo "--rw=randwrite --bs=16k --iodepth=8 --fsync=8" ;;
	esac
}

reg_sum() {
	dd if="$VD" bs=64k skip=$((REG_OFF[$1] / 65536)) count=$((REG_SZ / 65536)) \
		iflag=direct 2>/dev/null | sha256sum | cut -d' ' -f1
}

# write_region I GEN: fio writes region I as generation GEN and verifies
# it; prints its checksum; non-zero (fio's output in $W/fio.I) on error
write_region() {
	local i=$1 g=$2 out=$W/fio.$1
	# shellcheck disable=SC2046
	fio --name=r$i --filename="$VD" --direct=1 --ioengine=libaio \
		--offset=${REG_OFF[i]} --size=$REG_SZ --randseed=$g $(gen_opts $g) \
		--verify=crc32c --verify_fatal=1 --do_verify=1 \
		--output-format=terse --terse-version=3 >$out 2>&1 || return 1
	grep -q "verify:" $out && return 1
	reg_sum $i
}

# verify_all WHAT: every region verifies with fio (one job each, at once)
# and reads the checksum of its last write
verify_all() {
	local i j=$W/verify.fio s
	{
		echo "[global]"
		echo "filename=$VD"
		echo "direct=1"
		echo "ioengine=libaio"
		echo "verify=crc32c"
		echo "verify_only=1"
		echo "verify_fatal=1"
		for ((i = 0; i < NREG; i++)); do
			echo "[r$i]"
			echo "offset=${REG_OFF[i]}"
			echo "size=$REG_SZ"
			echo "randseed=${REG_GEN[i]}"
			gen_opts ${REG_GEN[i]} | tr ' ' '\n' | sed 's/^--//'
		done
	} >$j
	fio $j >$W/verify.out 2>&1 || { cat $W/verify.out; fail "fio verification failed ($1)"; }
	grep -q "verify:" $W/verify.out && { cat $W/verify.out; fail "fio verify errors ($1)"; }
	for ((i = 0; i < NREG; i++)); do
		s=$(reg_sum $i)
		[ "$s" = "${REG_SUM[i]}" ] ||
			fail "region $i (offset $((REG_OFF[i] >> 20)) MiB, generation ${REG_GEN[i]}) reads other data than its last write ($1)"
	done
}

# the load: while a step runs, regions are written and verified in turn
# (which and how often depends on time, not on the PRNG); load_stop lets
# the write under way end, so each region holds one whole generation
load_start() {
	rm -f $W/stop $W/load.done
	: >$W/load.log
	(
		k=0
		while [ ! -e $W/stop ]; do
			i=$(((STEP * 5 + k) % NREG))
			g=$((STEP * 1000 + k + 8))
			if s=$(write_region $i $g); then
				echo "$i $g $s" >>$W/load.done
			else
				{ echo "region $i generation $g: fio failed:"; cat $W/fio.$i; } >>$W/load.log
				exit 1
			fi
			k=$((k + 1))
		done
	) &
	LOAD_PID=$!
}
load_stop() {
	local rc=0 i g s
	[ -n "$LOAD_PID" ] || return 0
	touch $W/stop
	wait "$LOAD_PID" || rc=$?
	LOAD_PID=""
	if [ -f $W/load.done ]; then
		while read -r i g s; do
			REG_GEN[i]=$g
			REG_SUM[i]=$s
		done <$W/load.done
	fi
	[ $rc = 0 ] || { cat $W/load.log; fail "the load's writes failed verification (fio, crc32c)"; }
	say "load: $(wc -l <$W/load.done 2>/dev/null || echo 0) region writes verified"
}

# ---- VD helpers ------------------------------------------------------------
vd_fsync() {
	dd if=/dev/zero of="$VD" bs=4k count=0 conv=notrunc,fsync 2>/dev/null
}

vd_wait() { # WHAT
	vraidctl wait "$VD" --timeout $((600 * SCALE)) >$W/wait.out 2>&1 ||
		{ cat $W/wait.out; fail "vraidctl wait ($1)"; }
}

# wait_role_failed ROLE SECS: writes (the load, and fsyncs) until the
# member of ROLE is failed
wait_role_failed() {
	local r=$1 i=0 ms
	while :; do
		ms=$(vd_attr "$VD" members | awk -v r=$r '$1 == r { print $4 }')
		[ "$ms" = failed ] && return 0
		i=$((i + 1))
		[ $i -lt $(($2 * 2)) ] || fail "role $r (p${ROLE_P[r]}, ${PTAB[${ROLE_P[r]}]}) not failed after $2 s of writes"
		[ $((i % 4)) = 0 ] && vd_fsync
		sleep 0.5
	done
}

role_of_pool() { # I: the role whose device is pool I (sysfs), or nothing
	vd_attr "$VD" members | awk -v mm="${PMM[$1]}" '$3 == mm { print $1 }'
}

# ---- the steps -------------------------------------------------------------
op_stopasm() {
	local r devs=() order=() n out k i used=0 stale=0 how=list
	DESC="stop + assemble"
	load_stop
	vraidctl stop "$VD" >$W/out 2>&1 || { cat $W/out; fail "vraidctl stop"; }
	[ ! -e "$VD" ] || fail "$VD still there after stop"
	for ((r = 0; r < NM; r++)); do
		[ "${ROLE_P[r]}" -ge 0 ] || continue
		case ${ROLE_S[r]} in
		online) devs+=(/dev/mapper/p${ROLE_P[r]}); used=$((used + 1)) ;;
		failed)
			# a stale member that still reads: assembly leaves it out
			if [ "${PTAB[${ROLE_P[r]}]}" = linear ]; then
				devs+=(/dev/mapper/p${ROLE_P[r]})
				stale=$((stale + 1))
			fi ;;
		esac
	done
	# any order will do
	n=${#devs[@]}
	for ((k = n; k > 0; k--)); do
		rnd $k
		order+=("${devs[R]}")
		devs=("${devs[@]:0:R}" "${devs[@]:R+1}")
	done
	rnd 3
	if [ "$SCAN" = 1 ] && [ $R = 0 ]; then
		how=scan
		out=$(vraidctl assemble --scan 2>&1) || { echo "$out"; fail "assemble --scan"; }
		echo "$out" | grep -q "assembled soak" || { echo "$out"; fail "assemble --scan did not assemble the VD"; }
		out=$(echo "$out" | grep "assembled soak")
	else
		out=$(vraidctl assemble "${order[@]}" 2>&1) || { echo "$out"; fail "assemble ${order[*]}"; }
		echo "$out" | grep -q "$used of $n devices used" ||
			{ echo "$out"; fail "assemble: expected $used of $n devices used"; }
		[ $stale = 0 ] || echo "$out" | grep -q "$stale stale" ||
			{ echo "$out"; fail "assemble: expected $stale stale"; }
	fi
	VD=/dev/$(echo "$out" | cut -d: -f1)
	[ -b "$VD" ] || fail "no $VD after assembly: $out"
	# a failed role has no device after the assembly: those go back
	for ((r = 0; r < NM; r++)); do
		if [ "${ROLE_S[r]}" = failed ] && [ "${ROLE_P[r]}" -ge 0 ]; then
			release ${ROLE_P[r]}
			ROLE_P[r]=-1
		fi
	done
	DESC="stop + assemble ($how, $used online of $NM)"
	check_model
	check_wp
	load_start
}

op_fail() {
	local l r
	l=($(can_fail))
	rnd ${#l[@]}
	r=${l[R]}
	DESC="vraidctl fail role $r (p${ROLE_P[r]})"
	vraidctl fail "$VD" /dev/mapper/p${ROLE_P[r]} >$W/out 2>&1 || { cat $W/out; fail "vraidctl fail"; }
	ROLE_S[r]=failed
	PUSE[${ROLE_P[r]}]=held
	check_model
}

op_ioerr() {
	local l r kinds=(error flakey-w flakey) k
	l=($(can_fail))
	rnd ${#l[@]}
	r=${l[R]}
	rnd 3
	k=${kinds[R]}
	DESC="role $r (p${ROLE_P[r]}) fails by I/O errors ($k)"
	ptable ${ROLE_P[r]} $k
	wait_role_failed $r 90
	ROLE_S[r]=failed
	PUSE[${ROLE_P[r]}]=held
	check_model
}

# a failed role gets a new device (replace), or an online one is replaced
op_replace() {
	local l r new old how
	l=($(failed_roles))
	pick_free
	new=$R
	if [ ${#l[@]} -gt 0 ]; then
		rnd ${#l[@]}
		r=${l[R]}
		old=role:$r
		rnd 2
		[ $R = 0 ] && [ "${ROLE_P[r]}" -ge 0 ] && old=/dev/mapper/p${ROLE_P[r]}
		how="failed role $r"
	else
		l=($(can_fail))
		rnd ${#l[@]}
		r=${l[R]}
		old=/dev/mapper/p${ROLE_P[r]}
		how="online role $r"
	fi
	DESC="replace $how ($old) with p$new"
	vraidctl replace "$VD" "$old" /dev/mapper/p$new >$W/out 2>&1 || { cat $W/out; fail "vraidctl replace"; }
	vd_wait "rebuild onto p$new"
	[ "${ROLE_P[r]}" -ge 0 ] && release ${ROLE_P[r]}
	ROLE_P[r]=$new
	ROLE_S[r]=online
	PUSE[new]=member
	check_model
	vd_attr "$VD" last_job | grep -q "^rebuild 0" || fail "last job '$(vd_attr "$VD" last_job)', expected 'rebuild 0'"
}

# a hot spare (dedicated or global) takes a failed member's place
op_spare() {
	local l r new ded="" i=0 old
	pick_free
	new=$R
	rnd 2
	[ $R = 0 ] && ded="--vd soak"
	l=($(failed_roles))
	if [ ${#l[@]} = 0 ]; then
		l=($(can_fail))
		rnd ${#l[@]}
		r=${l[R]}
		DESC="spare p$new${ded:+ (dedicated)}, then role $r (p${ROLE_P[r]}) fails"
	else
		DESC="spare p$new${ded:+ (dedicated)} for a failed role"
		r=""
	fi
	# shellcheck disable=SC2086
	vraidctl spare add /dev/mapper/p$new $ded >$W/out 2>&1 || { cat $W/out; fail "spare add"; }
	PUSE[new]=spare
	if [ -n "$r" ]; then
		vraidctl fail "$VD" /dev/mapper/p${ROLE_P[r]} >$W/out 2>&1 || { cat $W/out; fail "vraidctl fail"; }
		ROLE_S[r]=failed
		PUSE[${ROLE_P[r]}]=held
	fi
	while r=$(role_of_pool $new); [ -z "$r" ]; do
		i=$((i + 1))
		[ $i -lt 100 ] || fail "the spare p$new was not taken within 20 s"
		sleep 0.2
	done
	[ "${ROLE_S[r]}" = failed ] || fail "the spare p$new took role $r, which was not failed"
	vd_wait "rebuild onto the spare p$new"
	old=${ROLE_P[r]}
	[ "$old" -ge 0 ] && release $old
	ROLE_P[r]=$new
	ROLE_S[r]=online
	PUSE[new]=member
	DESC="$DESC: role $r rebuilt on it"
	check_model
	[ "$(vraidctl spare list --json)" = '{"spares":[]}' ] || fail "spares left: $(vraidctl spare list --json)"
}

op_policy() {
	local kv key val sys exp
	rnd 10
	case $R in
	0 | 1 | 2) kv=write-policy=wt ;;
	3 | 4) kv=write-policy=wb ;;
	5 | 6) kv=write-policy=awb ;;
	7) rnd 2; kv=read-policy=$([ $R = 0 ] && echo ra || echo nora) ;;
	8) rnd 2; kv=io-policy=$([ $R = 0 ] && echo cached || echo direct) ;;
	9) rnd 3; kv=disk-cache=$(echo on off default | cut -d' ' -f$((R + 1))) ;;
	esac
	DESC="set $kv"
	vraidctl set "$VD" "$kv" >$W/out 2>&1 || { cat $W/out; fail "vraidctl set $kv"; }
	key=${kv%%=*} val=${kv#*=}
	case $key in
	write-policy)
		WPOL=$val
		sys=write_policy
		exp=$(case $val in wt) echo write-through ;; wb) echo write-back ;; awb) echo always-write-back ;; esac) ;;
	read-policy) sys=read_policy; exp=$([ $val = ra ] && echo read-ahead || echo no-read-ahead) ;;
	io-policy) sys=io_policy; exp=$val ;;
	disk-cache) sys=disk_cache_policy
		exp=$(case $val in on) echo enabled ;; off) echo disabled ;; *) echo default ;; esac) ;;
	esac
	[ "$(vd_attr "$VD" $sys)" = "$exp" ] || fail "sysfs $sys '$(vd_attr "$VD" $sys)', expected $exp"
	check_wp
}

op_journal() {
	if [ $JOURNAL_ON = 0 ]; then
		DESC="controller journal $JOURNAL (attach)"
		vraidctl controller journal "$JOURNAL" >$W/out 2>&1 || { cat $W/out; fail "controller journal $JOURNAL"; }
		[ "$(journal_state)" = healthy ] || fail "journal $(journal_state) after attach: $(journal_json)"
		JOURNAL_ON=1
	else
		DESC="controller journal none (detach)"
		vraidctl controller journal none >$W/out 2>&1 || { cat $W/out; fail "controller journal none"; }
		[ "$(journal_state)" = none ] || fail "journal $(journal_state) after none: $(journal_json)"
		JOURNAL_ON=0
	fi
	check_wp
}

op_cache() {
	local sizes=(16M 24M 32M 64M default) s want got
	rnd ${#sizes[@]}
	s=${sizes[R]}
	DESC="controller set cache-size=$s"
	vraidctl controller set cache-size=$s >$W/out 2>&1 || { cat $W/out; fail "cache-size=$s"; }
	if [ $s = default ]; then
		want=$(ctl_num cache_default_bytes)
	else
		want=$((${s%M} << 20))
	fi
	got=$(ctl_num cache_bytes)
	[ "$got" = "$want" ] || fail "cache_bytes $got after cache-size=$s, expected $want"
}

op_check() {
	local what=check opt="" n
	rnd 3
	[ $R = 0 ] && what=repair opt=--repair
	DESC="$what under load"
	# shellcheck disable=SC2086
	vraidctl check "$VD" $opt >$W/out 2>&1 || { cat $W/out; fail "vraidctl check $opt"; }
	vd_wait "$what"
	n=$(vd_attr "$VD" mismatch_cnt)
	[ "$n" = 0 ] || fail "$what found $n mismatches on a healthy VD (last job $(vd_attr "$VD" last_job))"
	vd_attr "$VD" last_job | grep -q "^$what 0" || fail "last job '$(vd_attr "$VD" last_job)', expected '$what 0'"
}

op_stall() {
	local r secs mode
	rnd $NM
	r=$R
	rnd $((STALL_MAX - 9))
	secs=$((10 + R))
	rnd 2
	mode=$([ $R = 0 ] && echo rw || echo w)
	if [ "${ROLE_P[r]}" -lt 0 ] || [ "${ROLE_S[r]}" != online ]; then
		# that role has no working device: stall the first online one
		for ((r = 0; r < NM; r++)); do
			[ "${ROLE_S[r]}" = online ] && break
		done
	fi
	DESC="role $r (p${ROLE_P[r]}) stalls $([ $mode = w ] && echo writes || echo I/O) for ${secs}s (dm-delay)"
	ptable ${ROLE_P[r]} delay $secs $mode
	sleep 1
	vd_fsync &
	sleep $((secs - 1))
	ptable ${ROLE_P[r]} linear
	wait $! || fail "a flush sent during the stall failed"
	check_model
}

# ---- a round: a VD, steps, the oracles ---------------------------------------
round_start() {
	local levels=(1 5 6 10 50 60) strips=(16 32 64) n devs=() i k cands=() out
	ROUND=$((ROUND + 1))
	rnd ${#levels[@]}
	LEVEL=${levels[R]}
	SPANS=1
	case $LEVEL in
	1) rnd 2; NM=$((2 + R)) ;;
	5) rnd 3; NM=$((3 + R)) ;;
	6) rnd 3; NM=$((4 + R)) ;;
	10) rnd 2; NM=$((4 + 2 * R)) ;;
	50) NM=6 SPANS=2 ;;
	60) NM=8 SPANS=2 ;;
	esac
	rnd 3
	STRIP_K=${strips[R]}
	rnd 8
	ROUND_LEN=$((6 + R))
	for ((i = 0; i < NP; i++)); do
		cands+=($i)
	done
	for ((k = 0; k < NM; k++)); do
		rnd ${#cands[@]}
		ROLE_P[k]=${cands[R]}
		ROLE_S[k]=online
		PUSE[${cands[R]}]=member
		devs+=(/dev/mapper/p${cands[R]})
		cands=("${cands[@]:0:R}" "${cands[@]:R+1}")
	done
	DESC="round $ROUND: create RAID$LEVEL of $NM, strip ${STRIP_K}K"
	echo "soak: round $ROUND: RAID$LEVEL of $NM members (${devs[*]}), strip ${STRIP_K} KiB, $ROUND_LEN steps"
	# zeroed members: --init fast is consistent, and md's check finds
	# nothing where nothing was written
	for ((i = 0; i < NP; i++)); do
		zero_range /dev/mapper/p$i 0 $((8 * 1048576))
	done
	zero_members 0 "${devs[@]}"
	WPOL=wt
	n=""
	[ $SPANS -gt 1 ] && n="--spans $SPANS"
	# shellcheck disable=SC2086
	out=$(vraidctl create --force --level $LEVEL $n --strip ${STRIP_K}K --init fast --name soak "${devs[@]}" 2>$W/out) ||
		{ cat $W/out; fail "vraidctl create"; }
	VD=/dev/$out
	[ -b "$VD" ] || fail "no $VD after create"
	# the regions: spread over the VD, the last one at its end
	n=$(($(blockdev --getsize64 "$VD") - REG_SZ))
	for ((i = 0; i < NREG; i++)); do
		REG_OFF[i]=$((n * i / (NREG - 1) / 1048576 * 1048576))
		REG_GEN[i]=$((i + 1))
		REG_SUM[i]=$(write_region $i $((i + 1))) || { cat $W/fio.$i; fail "the first write of region $i"; }
	done
	check_model
	verify_all "after create"
	tap_ok "round $ROUND: RAID$LEVEL of $NM, strip ${STRIP_K}K created, $NREG regions written and verified"
}

# round_end: what failed is replaced, a check finds nothing, md reads what
# vraid reads and finds its redundancy consistent, the VD assembles
round_end() {
	local r l new size msz head mib tail devs=() out n
	DESC="round $ROUND end: heal, check, md oracle"
	mark_dmesg "soak round $ROUND end"
	wd_start
	for r in $(failed_roles); do
		pick_free
		new=$R
		vraidctl replace "$VD" role:$r /dev/mapper/p$new >$W/out 2>&1 || { cat $W/out; fail "replace role:$r"; }
		vd_wait "rebuild of role $r"
		[ "${ROLE_P[r]}" -ge 0 ] && release ${ROLE_P[r]}
		ROLE_P[r]=$new
		ROLE_S[r]=online
		PUSE[new]=member
	done
	check_model
	vraidctl check "$VD" >$W/out 2>&1 || { cat $W/out; fail "check"; }
	vd_wait check
	n=$(vd_attr "$VD" mismatch_cnt)
	[ "$n" = 0 ] || fail "check found $n mismatches at the end of the round"
	verify_all "round end"
	size=$(blockdev --getsz "$VD")
	msz=$(vd_attr "$VD" member_size)
	mib=$((size / 2048))
	head=$(sum_mib "$VD" $mib)
	tail=$(sum_sectors "$VD" $((size - 2048)) 2048)
	for ((r = 0; r < NM; r++)); do
		devs+=(/dev/mapper/p${ROLE_P[r]})
	done
	vraidctl stop "$VD" >$W/out 2>&1 || { cat $W/out; fail "stop before the md oracle"; }
	md_oracle $LEVEL $STRIP_K "$msz" "$size" "$head" $mib "$tail" "${devs[@]}"
	out=$(vraidctl assemble "${devs[@]}" 2>&1) || { echo "$out"; fail "assemble after the md oracle"; }
	VD=/dev/$(echo "$out" | cut -d: -f1)
	check_model
	verify_all "assembled after the md oracle"
	vraidctl delete "$VD" --force >$W/out 2>&1 || { cat $W/out; fail "delete"; }
	VD=""
	if [ $JOURNAL_ON = 1 ]; then
		vraidctl controller journal none >$W/out 2>&1 || { cat $W/out; fail "journal none"; }
		JOURNAL_ON=0
	fi
	for ((r = 0; r < NP; r++)); do
		[ "${PUSE[r]}" = free ] || release $r
	done
	dmesg_check >$W/dmesg || { cat $W/dmesg; fail "kernel log"; }
	# the debug kernel: nothing vraid allocated may be left unreferenced
	kmemleak_check >$W/kmemleak || { cat $W/kmemleak; fail "kmemleak found leaks"; }
	wd_stop
	tap_ok "round $ROUND end (after step $STEP): RAID$LEVEL healed, check 0 mismatches, md reads the same $mib MiB and its check is clean"
}

# ---- main --------------------------------------------------------------------
echo "soak: SOAK_SEED=$SEED SOAK_STEPS=$STEPS SOAK_MINUTES=$MINUTES, $NP pool devices, journal $JOURNAL, kernel $(uname -r)"
zero_range "$JOURNAL" 0 $((64 * 1048576))
start=$(cut -d. -f1 /proc/uptime)
deadline=0
[ "$MINUTES" -gt 0 ] && deadline=$((start + MINUTES * 60))
more() {
	[ "$STEPS" -gt 0 ] && [ "$STEP" -ge "$STEPS" ] && return 1
	[ "$deadline" -gt 0 ] && [ "$(cut -d. -f1 /proc/uptime)" -ge "$deadline" ] && return 1
	[ "$STEPS" = 0 ] && [ "$deadline" = 0 ] && return 1
	return 0
}

mark_dmesg "soak start"
# (the debug kernel) what leaked while booting is not the soak's
kmemleak_check >/dev/null
while more; do
	round_start
	done_in_round=0
	while [ $done_in_round -lt $ROUND_LEN ] && more; do
		STEP=$((STEP + 1))
		done_in_round=$((done_in_round + 1))
		mark_dmesg "soak step $STEP"
		t0=$(now)
		# the step, by weight; those the state does not allow are skipped
		cf=$(can_fail)
		fr=$(failed_roles)
		nfree=0
		for ((i = 0; i < NP; i++)); do [ "${PUSE[i]}" = free ] && nfree=$((nfree + 1)); done
		while :; do
			rnd 100
			if [ $R -lt 10 ]; then op=stopasm
			elif [ $R -lt 18 ]; then op=fail
			elif [ $R -lt 26 ]; then op=ioerr
			elif [ $R -lt 38 ]; then op=replace
			elif [ $R -lt 46 ]; then op=spare
			elif [ $R -lt 58 ]; then op=policy
			elif [ $R -lt 66 ]; then op=journal
			elif [ $R -lt 72 ]; then op=cache
			elif [ $R -lt 82 ]; then op=check
			else op=stall
			fi
			case $op in
			fail | ioerr) [ -n "$cf" ] && break ;;
			replace) [ $nfree -gt 0 ] && { [ -n "$fr" ] || [ -n "$cf" ]; } && break ;;
			spare) [ $nfree -gt 0 ] && { [ -n "$fr" ] || [ -n "$cf" ]; } && break ;;
			check) [ -z "$fr" ] && break ;;
			*) break ;;
			esac
		done
		DESC=$op
		wd_start
		load_start
		sleep 1		# the load's fio under way when the step acts
		op_$op
		load_stop
		check_model
		verify_all "after step $STEP"
		dmesg_check >$W/dmesg || { cat $W/dmesg; fail "kernel log"; }
		wd_stop
		tap_ok "step $STEP RAID$LEVEL: $DESC; $(expected_state), data verified ($(awk -v a=$t0 -v b=$(now) 'BEGIN { printf "%.0f", b - a }') s)"
	done
	round_end
done
echo "soak: done: SOAK_SEED=$SEED, $STEP steps in $ROUND rounds, $(($(cut -d. -f1 /proc/uptime) - start)) s"
