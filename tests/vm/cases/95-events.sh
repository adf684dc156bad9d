#!/bin/sh
# The controller's event log and its uevents: a RAID1's life (created, a
# member failed, Degraded, a replacement rebuilding, the rebuild done,
# Optimal, stopped, assembled Degraded from one member, deleted; no state
# event of a VD not started yet) is in `vraidctl events` in that
# order with the member and device named, each also a uevent (change, on
# the control device) with the same fields; --since N starts at N;
# --follow --exec runs a program for each new event as it happens, and
# `vraidctl monitor --mail` mails the failure and the Degraded state
# (through a stand-in for sendmail), not the create; a poll() of sysfs's
# state attribute wakes at the failure; an idle follower waits in
# poll(2) (few requests under strace), and poll on the control device is
# readable exactly when the log holds an event newer than this file
# read, woken by the next one (tests/vm/evpoll.c); once the pollers are
# gone the module unloads and reloads with an empty log.
# timeout: 300
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vraid.sh"
set -e

require_devs 4 $NVME_DEVS
set -- $NVME_DEVS
a=$1 b=$2 c=$3 d=$4
wipe_members $a $b $c $d

udevadm monitor --kernel --property --subsystem-match=misc >/tmp/95.uevents 2>&1 &
monitor=$!
first=$(vraidctl events --json | tail -n 1 | sed -n 's/^{"seq":\([0-9]*\),.*/\1/p')
since=$(( ${first:-0} + 1 ))

vd=$(vd_create --level 1 --init fast --name ev $a $b)
# role_reads VD ROLE: the reads sysfs's members counts for ROLE
role_reads() {
	awk -v r="$2" '$1 == r { print $5 }' "/sys/block/${1#/dev/}/vraid/members"
}
# reads on both copies (random, in parallel: the least busy copy each)
fio --name=r --filename="$vd" --rw=randread --bs=4k --size=4M --direct=1 \
	--ioengine=libaio --iodepth=16 >/dev/null 2>&1 || fail "fio reads of $vd"
[ "$(role_reads "$vd" 1)" -gt 0 ] || fail "no reads reached member 1 ($b)"
vraidctl fail "$vd" "$b" --force >/dev/null || fail "fail $b"
vraidctl replace "$vd" "$b" "$c" >/dev/null || fail "replace $b with $c"
vraidctl wait "$vd" >/dev/null || fail "the rebuild onto $c"
# the new device's counters are its own: a rebuild reads nothing from it
assert_eq "$(role_reads "$vd" 1)" 0 "reads counted for $c, new in role 1 (not $b's)"
vraidctl stop "$vd" >/dev/null || fail "stop $vd"
# one member only: Degraded from the start, which "assembled" says (no
# state change of a VD that was not started yet)
vraidctl assemble "$a" >/dev/null || fail "assemble $a"
vd=/dev/$(vraidctl list --json | sed -n 's/.*"vd":"\(vraid[0-9]*\)","index":[0-9]*,"name":"ev".*/\1/p')
vd_delete "$vd"
sleep 1
kill $monitor 2>/dev/null || true

vraidctl events --since $since --json >/tmp/95.json || fail "vraidctl events --json"
vraidctl events --since $since >/tmp/95.txt || fail "vraidctl events"
cat /tmp/95.txt
types=$(sed -n 's/.*"type":"\([a-z-]*\)".*/\1/p' /tmp/95.json | tr '\n' ' ')
want="created member-failed state rebuild-start state job-start state job-end stopped assembled deleted "
assert_eq "$types" "$want" "the event types in order"
b_name=${b#/dev/}
c_name=${c#/dev/}
grep -q "\"type\":\"member-failed\",\"vd\":\"vraid[0-9]*\",\"name\":\"ev\",\"state\":\"degraded\",\"member\":1,\"device\":\"/dev/$b_name\",\"text\":\"member 1 ($b_name) failed: failed by the administrator\"" /tmp/95.json ||
	fail "the member-failed event does not name member 1 ($b_name) and why"
grep -q "\"type\":\"rebuild-start\",.*\"member\":1,\"device\":\"/dev/$c_name\"" /tmp/95.json ||
	fail "the rebuild-start event does not name $c_name"
grep -q '"type":"state",.*"text":"virtual drive is optimal (was rebuilding)"' /tmp/95.json ||
	fail "no state event back to optimal"
grep -q '"type":"job-end",.*"text":"rebuild done, 0 mismatches"' /tmp/95.json ||
	fail "no job-end event for the rebuild"
grep -q '"type":"assembled",.*"state":"degraded",.*"text":"assembled RAID1, 2 members, [0-9]* MiB, degraded"' /tmp/95.json ||
	fail "the assembled event does not say degraded"

# the uevents: one per event, with its fields
n_ev=$(wc -l </tmp/95.json)
n_ue=$(grep -c '^VRAID_EVENT=' /tmp/95.uevents || true)
assert_eq "$n_ue" "$n_ev" "uevents (one per event)"
grep -q "^VRAID_DEVICE=$b_name\$" /tmp/95.uevents || fail "no uevent names VRAID_DEVICE=$b_name"
grep -q '^VRAID_EVENT=member-failed$' /tmp/95.uevents || fail "no member-failed uevent"
grep -q '^VRAID_NAME=ev$' /tmp/95.uevents || fail "no uevent names VRAID_NAME=ev"

# --since: from that event on
last=$(tail -n 1 /tmp/95.json | sed -n 's/^{"seq":\([0-9]*\),.*/\1/p')
vraidctl events --since "$last" --json >/tmp/95.one
assert_eq "$(wc -l </tmp/95.one)" 1 "events --since the last one"

# poll(2) on the control device (ABI 1.13): a follower sleeps until an
# event comes.  An idle follower under strace makes its two first EVENTS
# requests (where the log ends; nothing from there) and then waits in
# poll; the vraidctl before it, asking every 0.5 s, made 6 in 3 s.
if command -v strace >/dev/null 2>&1; then
	rm -f /tmp/95.traced
	strace -e trace=ioctl,poll -o /tmp/95.strace \
		sh -c 'echo $$ >/tmp/95.traced; exec vraidctl events --follow' >/dev/null 2>&1 &
	tracer=$!
	i=0
	until [ -s /tmp/95.traced ]; do
		i=$((i + 1))
		[ $i -lt 100 ] || fail "the traced follower did not start"
		sleep 0.1
	done
	sleep 3
	# the follower, not strace: strace then ends with its tracee
	kill "$(cat /tmp/95.traced)" 2>/dev/null || true
	wait $tracer 2>/dev/null || true
	# EVENTS, as strace shows it: _IOC(_IOC_READ|_IOC_WRITE, 0xf7, 0xc, ...)
	n_ioctl=$(grep -c 'ioctl(.*0xf7, 0xc, ' /tmp/95.strace || true)
	n_poll=$(grep -c 'poll(' /tmp/95.strace || true)
	[ "$n_poll" -ge 1 ] && [ "$n_ioctl" -le 3 ] ||
		{ cat /tmp/95.strace; fail "an idle follower made $n_ioctl EVENTS requests in 3 s ($n_poll polls): it does not wait in poll"; }
	echo "an idle follower: $n_ioctl EVENTS requests in 3 s, waiting in poll"
else
	echo "strace not in the kit: the follower's requests are not counted"
fi
# the semantics, directly (tests/vm/evpoll.c): readable when new,
# not after reading the log to its end, woken by the next event
evpoll 120 >/tmp/95.evpoll 2>&1 &
poller=$!
i=0
until grep -q '^evpoll: waiting' /tmp/95.evpoll 2>/dev/null; do
	i=$((i + 1))
	[ $i -lt 100 ] && kill -0 $poller 2>/dev/null ||
		{ cat /tmp/95.evpoll; fail "evpoll did not start waiting"; }
	sleep 0.2
done

# --follow --exec: a monitor sees what happens after it started
cat >/tmp/95-alert.sh <<'EOS'
#!/bin/sh
echo "$VRAID_EVENT $VRAID_VD $VRAID_NAME ${VRAID_MEMBER:-} ${VRAID_DEVICE:-} $VRAID_STATE: $1" >>/tmp/95.alerts
EOS
chmod +x /tmp/95-alert.sh
rm -f /tmp/95.alerts
vraidctl events --follow --exec /tmp/95-alert.sh >/tmp/95.follow 2>&1 &
follower=$!
# and vraidctl monitor, mailing through a stand-in for sendmail
printf '#!/bin/sh\ncat >>/tmp/95.mail\n' >/tmp/95-sendmail.sh
chmod +x /tmp/95-sendmail.sh
rm -f /tmp/95.mail
VRAIDCTL_SENDMAIL=/tmp/95-sendmail.sh vraidctl monitor --mail root >/tmp/95.monitor 2>&1 &
monitor=$!
sleep 1
vd=$(vd_create --level 1 --init fast --name ev2 $a $d)
wait $poller || { cat /tmp/95.evpoll; fail "poll on the control device"; }
cat /tmp/95.evpoll
# and a poller of sysfs's state (POLLPRI, as on md's array_state)
sysfswait "/sys/block/${vd#/dev/}/vraid/state" 30 >/tmp/95.state 2>/tmp/95.state.err &
waiter=$!
i=0
until grep -q ready /tmp/95.state.err; do
	i=$((i + 1))
	[ $i -lt 100 ] || { cat /tmp/95.state.err; fail "sysfswait did not start"; }
	sleep 0.1
done
vraidctl fail "$vd" "$d" --force >/dev/null || fail "fail $d"
wait $waiter || fail "a poll() of $vd's sysfs state was not woken by the failure (status $?)"
grep -q degraded /tmp/95.state ||
	fail "sysfs state after the wake-up: $(cat /tmp/95.state)"
echo "a poller of sysfs state woke: $(cat /tmp/95.state)"
i=0
until grep -q '^state ' /tmp/95.alerts 2>/dev/null; do
	i=$((i + 1))
	[ $i -lt 20 ] || { cat /tmp/95.follow; fail "the monitor did not see the failure in 10 s"; }
	sleep 0.5
done
i=0
until [ "$(grep -c '^Subject: ' /tmp/95.mail 2>/dev/null)" -ge 2 ]; do
	i=$((i + 1))
	[ $i -lt 20 ] || { cat /tmp/95.monitor /tmp/95.mail; fail "vraidctl monitor did not mail the failure in 10 s"; }
	sleep 0.5
done
kill $follower $monitor 2>/dev/null || true
cat /tmp/95.alerts
grep -q "^Subject: vraid on .*: member-failed ${vd#/dev/} (ev2)\$" /tmp/95.mail ||
	{ cat /tmp/95.mail; fail "no mail of the member failure"; }
grep -q "^Subject: vraid on .*: state ${vd#/dev/} (ev2)\$" /tmp/95.mail ||
	{ cat /tmp/95.mail; fail "no mail of the VD Degraded"; }
grep -q "created" /tmp/95.mail && { cat /tmp/95.mail; fail "a mail for the create (news, not a problem)"; }
grep -q "member-failed: member 1" /tmp/95.monitor ||
	{ cat /tmp/95.monitor; fail "vraidctl monitor did not print the failure"; }
echo "vraidctl monitor mailed the failure and the Degraded state, not the create"
d_name=${d#/dev/}
grep -q "^member-failed ${vd#/dev/} ev2 1 $d_name degraded: member 1 ($d_name) failed: failed by the administrator\$" /tmp/95.alerts ||
	fail "the monitor's program did not get the failure with its environment"
[ "$(head -n 1 /tmp/95.alerts | cut -d' ' -f1)" = created ] ||
	fail "the monitor's first event is not the create after it started"
vd_delete "$vd"
# a file that polled the control device, gone: the module unloads (no
# waiter left on the log's wait queue; vraid_events_exit() warns if one
# is) and comes back with the log empty
wait $follower $monitor 2>/dev/null || true
rmmod vraid || fail "rmmod after the pollers ended"
modprobe vraid || fail "modprobe vraid after rmmod"
[ -c /dev/vraid-control ] || fail "no control device after the reload"
assert_eq "$(vraidctl events | wc -l)" 0 "events after the reload"
echo "events: $n_ev in order, as many uevents, a monitor ran, vraidctl monitor mailed"
