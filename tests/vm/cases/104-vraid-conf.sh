#!/bin/sh
# vraid.conf (admin-guide.rst, "vraid.conf"), read by assemble --scan and
# --incremental: with "AUTO -all" and a VD line pinning a name, a VD of
# this machine comes back under the pinned name (its metadata keeps it
# after a stop) while a foreign VD (no VD line: disks from another
# machine) is not assembled, by --scan or --incremental, and says why;
# its devices named by hand still assemble it.  A global hot spare is
# refused under AUTO -all and admitted by a SPARE line.  A bad line
# stops assemble --scan before anything happens, naming FILE:LINE.
# vm: --size 64M
# timeout: 300
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../vraid.sh"
set -e

set -- $(mixed_members 5)
wipe_members "$@"
d1=$1 d2=$2 d3=$3 d4=$4 g=$5
cf=/tmp/vraid.conf
cleanup102() {
	set +e
	for d in /sys/block/vraid*; do
		[ -e "$d" ] && vraidctl delete "/dev/${d##*/}" --force >/dev/null 2>&1
	done
	vraidctl spare remove $g >/dev/null 2>&1
	return 0
}
trap cleanup102 EXIT

home=$(vd_create --level 1 --init fast --name home $d1 $d2)
foreign=$(vd_create --level 1 --init fast --name db $d3 $d4)
uh=$(vd_attr $home uuid)
uf=$(vd_attr $foreign uuid)
vraidctl spare add $g >/dev/null || fail "spare add $g"
spare_uuid=$(vraidctl examine --export $g | sed -n 's/^VRAID_SPARE_UUID=//p')
vraidctl stop --all >/dev/null
rmmod vraid && insmod "$VRAID_KO" ${VRAID_MODULE_ARGS:-} || fail "module reload"

# a bad line: nothing assembled, FILE:LINE named
printf 'AUTO -all\nVD %s name=pinned\nARRAY /dev/md0 UUID=x\n' "$uh" >$cf
expect_fail vraidctl --config $cf assemble --scan
expect_msg "$cf:3: unknown keyword 'ARRAY'"
[ "$(vd_count)" = 0 ] || fail "a bad vraid.conf still assembled something"

printf '# this machine\nAUTO -all\nVD %s name=pinned   # was "home"\n' "$uh" >$cf
vraidctl --config $cf assemble --scan >/tmp/asm.out 2>&1 || { cat /tmp/asm.out; fail "assemble --scan"; }
cat /tmp/asm.out
grep -q "assembled pinned" /tmp/asm.out || fail "the VD of $uh not assembled as pinned"
grep -q "VD db ($uf): not assembled: $cf:2 says AUTO -all and no VD line names it" /tmp/asm.out ||
	fail "the foreign VD: no refusal line"
grep -q "$g: hot spare not added" /tmp/asm.out || fail "the global spare was not refused"
[ "$(vd_count)" = 1 ] || fail "$(vd_count) VDs assembled, 1 expected"
[ "$(vraidctl spare list)" = "no hot spares" ] || fail "a spare was added: $(vraidctl spare list)"
[ -b /dev/vraid0 ] && [ "$(vd_attr /dev/vraid0 name)" = pinned ] ||
	fail "vraid0 is named '$(vd_attr /dev/vraid0 name)', not pinned"
[ "$(vd_attr /dev/vraid0 uuid)" = "$uh" ] || fail "vraid0 is not the VD of $uh"
echo "AUTO -all: this machine's VD assembled under its pinned name; the foreign VD and the global spare refused"

# --incremental: the foreign VD's members appear: refused, said why
vraidctl --config $cf assemble --incremental $d3 >/tmp/asm.out 2>&1 || { cat /tmp/asm.out; fail "--incremental $d3"; }
grep -q "not assembled: $cf:2 says AUTO -all" /tmp/asm.out || { cat /tmp/asm.out; fail "--incremental $d3: no refusal"; }
vraidctl --config $cf assemble --incremental --run $d4 >/dev/null 2>&1 || fail "--incremental --run $d4"
[ "$(vd_count)" = 1 ] || fail "--incremental assembled the foreign VD"
vraidctl --config $cf assemble --incremental $g >/tmp/asm.out 2>&1
grep -q "hot spare not added" /tmp/asm.out || { cat /tmp/asm.out; fail "--incremental $g: no refusal"; }
echo "--incremental: the foreign VD and the spare refused too"

# a SPARE line admits the spare; the foreign VD by hand
printf 'SPARE %s\n' "$spare_uuid" >>$cf
vraidctl --config $cf assemble --incremental $g >/dev/null || fail "--incremental $g with a SPARE line"
vraidctl spare list | grep -q "${g#/dev/}.*global" || fail "the SPARE line did not admit $g"
vraidctl --config $cf assemble $d3 $d4 >/tmp/asm.out 2>&1 || { cat /tmp/asm.out; fail "assemble $d3 $d4 by hand"; }
grep -q "assembled db" /tmp/asm.out || { cat /tmp/asm.out; fail "by hand: not assembled as db"; }

# the pinned name is the VD's from now on (its metadata), config or not
vraidctl stop --all >/dev/null
vraidctl examine $d1 | grep -q "^Name: *pinned$" || { vraidctl examine $d1; fail "the metadata does not carry the pinned name"; }
vraidctl assemble $d1 $d2 >/tmp/asm.out 2>&1 || fail "assemble $d1 $d2"
grep -q "assembled pinned" /tmp/asm.out || { cat /tmp/asm.out; fail "not pinned after a stop without vraid.conf"; }
echo "a SPARE line admits the spare; by hand the foreign VD assembles; the pinned name stays"
