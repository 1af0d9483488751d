#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# dcm_bodies_test.sh: several robots at once, in the VM. dcm_sim is reloaded
# with four simulated bodies (dcm-sim-reload bodies=4): each is a
# dcm-sim-body.K device that the body driver binds, giving a controller
# dcmN configured by its own dcmd (dcmd -i N). The robots share nothing: a
# joint commanded on one moves there only, a fault in one body (a silent
# RS485 line, a stalled cycle) leaves the others' cycles alone, and a body
# unbound from the dcm-body driver takes its controller with it, the others
# running on; bound again, it has a controller again. At the end the usual
# state is back: one body, dcm0 configured by a dcmd.
#
# POSIX sh (busybox). Prints TAP and ends with the kselftest Totals line;
# exits 1 if a test failed.

CLS=/sys/class/dcm
SIMD=/sys/kernel/debug/dcm_sim
DBG=/sys/kernel/debug/dcm
DRV=/sys/bus/platform/drivers/dcm-body
T=/tmp/dcm_bodies_test

. "$(dirname "$0")/dcm_tap.sh"

# Show a file as TAP diagnostics.
show() {
	sed 's/^/# /' "$1"
}

# The sum of a key of every board of dcmN: sum_boards N Nack
sum_boards() {
	cat "$CLS/dcm$1"/DeviceList/*/"$2" | awk '{ s += $1 } END { print s + 0 }'
}

cycles() {
	cat "$CLS/dcm$1/stats/cycles"
}

faults() {
	cat "$CLS/dcm$1/safety/cycle_faults"
}

# The body device under dcmN: dcm-sim-body.K
parent() {
	basename "$(readlink -f "$CLS/dcm$1/device")"
}

joint() {
	cat "$CLS/dcm$1/SubDeviceList/$2/Value"
}

set_joint() {
	echo "$3" >"$CLS/dcm$1/SubDeviceList/$2/Value"
}

# The pid of dcmd -i N: dcmd_pid N
dcmd_pid() {
	for p in $(pidof dcmd); do
		tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null | grep -q -- "-i $1 " && echo "$p"
	done
}

# Record every controller's Nacks, cycles and cycle faults: snap NAME
snap() {
	for i in 0 1 2 3; do
		[ -d "$CLS/dcm$i/DeviceList" ] || continue
		echo "$i $(sum_boards "$i" Nack) $(cycles "$i") $(faults "$i") $(cat "$CLS/dcm$i/stats/overruns")"
	done >"$T/$1"
}

# The others, untouched between two snaps: untouched BEFORE AFTER SKIP
# (their Nacks and cycle faults unchanged, their cycles advanced).
untouched() {
	bad=
	while read -r i n0 c0 f0 o0; do
		[ "$i" = "$3" ] && continue
		after=$(awk -v i="$i" '$1 == i' "$T/$2")
		read -r _ n1 c1 f1 o1 <<EOF
$after
EOF
		[ "$n1" = "$n0" ] && [ "$c1" -gt "$c0" ] && [ "$f1" = "$f0" ] ||
			bad="$bad dcm$i(nack $n0->$n1 cycles $c0->$c1 faults $f0->$f1)"
		# The TCG VM's cycles are often late: overruns are noise here.
		echo "# dcm$i: overruns $o0 -> $o1"
	done <"$T/$1"
	[ -z "$bad" ] || echo "#$bad"
	[ -z "$bad" ]
}

if [ ! -d "$CLS/dcm0/DeviceList" ] || [ ! -d "$SIMD/body0" ] || [ ! -d "$DRV" ] ||
	! command -v dcm-sim-reload >/dev/null; then
	skip_all "no configured dcm0, no dcm_sim, no dcm-body driver or no dcm-sim-reload"
fi
rm -rf "$T"
mkdir -p "$T"

# dcm-sim-reload starts a dcmd per controller again if one ran: make sure.
if [ -z "$(pidof dcmd)" ]; then
	dcmd -f </dev/null >>/run/dcmd.log 2>&1 &
fi

# 1. Four bodies, four controllers, four daemons.
dcm-sim-reload bodies=4 2>"$T/reload.err"
rc=$?
check $rc "dcm_sim reloaded with four bodies, a dcmd per controller"
[ $rc = 0 ] || show "$T/reload.err"

bad=
parents=
for i in 0 1 2 3; do
	[ -d "$CLS/dcm$i/DeviceList" ] || bad="$bad dcm$i"
done
[ -z "$bad" ] && [ ! -e "$CLS/dcm4" ]
check $? "dcm0..dcm3 exist, each configured by its dcmd${bad:+ (not:$bad)}"

for i in 0 1 2 3; do
	parents="$parents $(parent "$i")"
done
# each a dcm-sim-body, all different
[ "$(echo "$parents" | tr ' ' '\n' | grep -c '^dcm-sim-body\.[0-3]$')" = 4 ] &&
	[ "$(echo "$parents" | tr ' ' '\n' | grep . | sort -u | wc -l)" = 4 ]
check $? "each controller's device is its own simulated body:$parents"

for i in 0 1 2 3; do
	[ -d "$SIMD/body$i" ] || bad="$bad body$i"
	[ -f "$DBG/dcm$i/stall_ms" ] || bad="$bad dcm$i/stall_ms"
done
[ -z "$bad" ]
check $? "each body and each controller has its debugfs${bad:+ (missing:$bad)}"

ndcmd=0
for p in $(pidof dcmd); do
	ndcmd=$((ndcmd + 1))
done
bad=
for i in 1 2 3; do
	grep -q "^dcmd\.$i\[[0-9]*\]: description .* loaded into dcm$i" "/run/dcmd.$i.log" 2>/dev/null ||
		bad="$bad $i"
	# dcmd.N logs dcmN's events and no other's
	grep -q "^dcmd\.$i\[[0-9]*\]: dcm[0-9] " "/run/dcmd.$i.log" &&
		grep "^dcmd\.$i\[[0-9]*\]: dcm[0-9] " "/run/dcmd.$i.log" | grep -qv "]: dcm$i " &&
		bad="$bad $i(events)"
done
grep -q "loaded into dcm0" /run/dcmd.log || bad="$bad 0"
[ "$ndcmd" = 4 ] && [ -z "$bad" ]
check $? "$ndcmd dcmd, each loaded its controller and logs its own events only${bad:+ (not:$bad)}"

# Each robot has its own preference files: dcm1's in /etc/dcm/dcm1.
sum0=$(cksum /etc/dcm/body.xml 2>/dev/null)
rm -rf /etc/dcm/dcm1
dcmctl -d dcm1 preferences save Chest >"$T/save.out" 2>&1 &&
	[ -f /etc/dcm/dcm1/body.xml ] && [ "$(cksum /etc/dcm/body.xml 2>/dev/null)" = "$sum0" ]
rc=$?
check $rc "dcmctl -d dcm1 preferences save Chest writes /etc/dcm/dcm1/body.xml, not dcm0's"
[ $rc = 0 ] || show "$T/save.out"
# Another nickname in the saved file: the reload is a real swap, and shows
# that dcm1's file was read (the same values would keep the description).
sed -i 's/\(BodyNickName" Type="string" Value="\)[^"]*"/\1Dcm1Reloaded"/' /etc/dcm/dcm1/body.xml
l0=$(grep -c "loaded into dcm1" /run/dcmd.1.log)
s0=$(swaps 1)
pid1=$(dcmd_pid 1)
[ -n "$pid1" ] && kill -HUP "$pid1"
wait_until 60 holds '[ "$(grep -c "loaded into dcm1" /run/dcmd.1.log)" -gt "$l0" ]'
grep "loaded into dcm1" /run/dcmd.1.log | tail -n 1 | grep -q ' + /etc/dcm/dcm1/body.xml' &&
	[ "$(cat $CLS/dcm1/DeviceList/ChestBoard/BodyNickName)" = Dcm1Reloaded ]
check $? "dcm1's dcmd reloads with /etc/dcm/dcm1/body.xml on SIGHUP"
check_swaps "$s0" "$(swaps 1)" 1 "dcm1's reload"
[ "$(cat $CLS/dcm0/DeviceList/ChestBoard/BodyNickName)" != Dcm1Reloaded ]
check $? "dcm0 keeps its own nickname"
rm -rf /etc/dcm/dcm1

# 2. A joint commanded on dcm2 moves there, and nowhere else.
for i in 0 1 3; do
	echo "$i $(joint "$i" HeadYaw/Position/Sensor)"
done >"$T/yaw0"
set_joint 2 HeadYaw/Hardness/Actuator 1
set_joint 2 HeadYaw/Position/Actuator 0.5
sleep 1
wait_until 10 holds 'near "$(joint 2 HeadYaw/Position/Sensor)" 0.5 0.01'
pos=$(joint 2 HeadYaw/Position/Sensor)
near "$pos" 0.5 0.01
check $? "dcm2's HeadYaw commanded to 0.5 rad reads $pos"
bad=
while read -r i p0; do
	p1=$(joint "$i" HeadYaw/Position/Sensor)
	near "$p1" "$p0" 0.01 || bad="$bad dcm$i($p0->$p1)"
	a=$(joint "$i" HeadYaw/Position/Actuator)
	near "$a" 0 0.0001 || bad="$bad dcm$i(actuator $a)"
done <"$T/yaw0"
[ -z "$bad" ]
check $? "the other robots' HeadYaw did not move${bad:+:$bad}"
set_joint 2 HeadYaw/Position/Actuator 0
sleep 0.5
set_joint 2 HeadYaw/Hardness/Actuator 0

# 3. A silent RS485 line in body 1: its boards Nack, the others run on.
sleep 0.2
snap before
nb0=$(cat "$CLS/dcm1/DeviceList/HeadBoard/Nack")
echo 0xffffffff >"$SIMD/body1/rs485-1/silent"
sleep 1
# A slowed kernel runs fewer cycles a second: wait for the first Nack.
wait_until 1 holds '[ "$(cat "$CLS/dcm1/DeviceList/HeadBoard/Nack")" -gt "$nb0" ]'
nb1=$(cat "$CLS/dcm1/DeviceList/HeadBoard/Nack")
snap after
echo 0 >"$SIMD/body1/rs485-1/silent"
[ "$nb1" -gt "$nb0" ]
check $? "body1's RS485-1 silent: dcm1's HeadBoard Nacks ($nb0 -> $nb1)"
untouched before after 1
check $? "the other controllers' cycles are untouched"
wait_until 3 holds '[ "$(dcmctl -d dcm1 special diagnostic | awk '"'"'$1 == "HeadBoard" { print $5 }'"'"')" = ok ]'
check $? "body1's line answers again: HeadBoard ok"

# 4. dcm1's cycle stalled 700 ms (a cycle fault there), the others run on.
sleep 0.2
snap before
echo 700 >"$DBG/dcm1/stall_ms"
sleep 1.2
snap after
f0=$(awk '$1 == 1 { print $4 }' "$T/before")
f1=$(awk '$1 == 1 { print $4 }' "$T/after")
[ "$f1" = $((f0 + 1)) ]
check $? "dcm1's stalled cycle is a cycle fault there ($f0 -> $f1)"
untouched before after 1
check $? "the other controllers have no cycle fault, no Nack, their cycles advance"

# 5. Body 2 unbound: dcm2 goes, the others keep running.
sleep 0.2
snap before
rc=0
echo dcm-sim-body.2 >"$DRV/unbind" || rc=1
check $rc "dcm-sim-body.2 unbound from dcm-body"
[ ! -e "$CLS/dcm2" ] && [ ! -e "$DBG/dcm2" ] && [ -d "$SIMD/body2" ]
check $? "dcm2 is gone (its body's hardware stays)"
sleep 0.5
snap after
untouched before after 2
check $? "dcm0, dcm1 and dcm3 run on"
bad=
for i in 0 1 3; do
	[ -d "$CLS/dcm$i/DeviceList" ] || bad="$bad dcm$i"
done
[ -z "$bad" ]
check $? "and keep their descriptions${bad:+ (lost:$bad)}"

# Bound again: a controller again, dcm2 (the lowest free index), which
# its dcmd configures on SIGHUP.
rc=0
echo dcm-sim-body.2 >"$DRV/bind" || rc=1
check $rc "dcm-sim-body.2 bound again"
wait_until 5 test -e "$CLS/dcm2"
[ -e "$CLS/dcm2" ] && [ "$(parent 2)" = dcm-sim-body.2 ] && [ -f "$DBG/dcm2/stall_ms" ]
check $? "it has a controller again: dcm2 on dcm-sim-body.2, with its debugfs"
pid2=$(dcmd_pid 2)
[ -n "$pid2" ] && kill -HUP "$pid2"
wait_until 60 test -d "$CLS/dcm2/DeviceList"
check $? "dcm2's dcmd (pid ${pid2:-none}) configures it again on SIGHUP"
c0=$(cycles 2)
sleep 0.5
c1=$(cycles 2)
wait_until 3 holds '[ "$(dcmctl -d dcm2 special diagnostic | head -n 1 | sed -n "s/.* \([0-9]*\) ok,.*/\1/p")" = 27 ]'
[ "$c1" -gt "$c0" ] && [ "$(sum_boards 2 Ack)" -gt 0 ]
check $? "its cycle runs ($c0 -> $c1) and its boards answer"

# 6. Back to the usual state: one body, dcm0 configured by a dcmd.
dcm-sim-reload 2>"$T/reload.err"
rc=$?
check $rc "dcm_sim reloaded with one body"
[ $rc = 0 ] || show "$T/reload.err"
ndcmd=0
for p in $(pidof dcmd); do
	ndcmd=$((ndcmd + 1))
done
[ -d "$CLS/dcm0/DeviceList" ] && [ ! -e "$CLS/dcm1" ] && [ "$ndcmd" = 1 ]
check $? "dcm0 alone, configured by one dcmd ($ndcmd running)"

rm -rf "$T"
totals
