#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# dcm_configfs_race_test.sh: two configfs bodies go live and not live, each
# in its own process, while a third process opens their char devices, in
# the VM (issue 27). A controller's index must stay taken until nothing of
# the controller can be reached by it: freed before its char device went,
# the other body took the same dcmN, the first body's cdev_del() removed the
# second body's mapping, and the next open of /dev/dcmN oopsed in
# chrdev_open on the freed controller ("cannot create duplicate filename
# '/class/dcm/dcm1'" first).
#
# dcm_sim is reloaded with two simulated bodies and the second one's body
# device unbound from the body driver; configfs bodies race1 and race2 are
# made on its RS485-1 and RS485-2 lines. The loops run for
# DCM_CONFIGFS_RACE_SECONDS seconds (default 30; make check-debug runs 600
# on the debug kernel, where KASAN names such a bug at once). Every live=1
# and live=0 must succeed, the opens must have reached both bodies, and the
# kernel must log no oops, warning or duplicate sysfs name (dcm-vm fails
# the run on those too). At the end the VM is as it was: dcm_sim with one
# body, dcmd running on dcm0.
#
# POSIX sh (busybox). Prints TAP and ends with the kselftest Totals line;
# exits 1 if a test failed.

CFS=/sys/kernel/config/dcm
SIM1=/sys/devices/platform/dcm_sim.1
CLASS=/sys/class/dcm

. "$(dirname "$0")/dcm_tap.sh"

secs=${DCM_CONFIGFS_RACE_SECONDS:-30}
case "$secs" in '' | *[!0-9]* | 0) secs=30 ;; esac

if [ ! -d "$CFS" ] || [ ! -d /sys/kernel/debug/dcm_sim ] ||
	! command -v dcm-sim-reload >/dev/null; then
	skip_all "no configfs subsystem dcm, no dcm_sim or no dcm-sim-reload"
fi

T=$(mktemp -d)

# Remove every configfs body.
cleanup() {
	configfs_clear "$CFS"
}

restore() {
	cleanup
	dcm-sim-reload 2>"$T/reload.err"
	check $? "dcm_sim back to one body$(sed 's/^/: /' "$T/reload.err")"
}

if ! dcm-sim-reload bodies=2 2>"$T/reload.err" || ! wait_until 5 test -d "$CLASS/dcm1"; then
	check 1 "dcm_sim reloaded with two bodies: $(cat "$T/reload.err")"
	restore
	totals
	exit
fi
echo dcm-sim-body.1 >/sys/bus/platform/drivers/dcm-body/unbind
wait_until 5 test ! -e "$CLASS/dcm1"
check $? "the second simulated body unbound: its dcm1 is gone"

# Its RS485 lines, by the software node each one has.
line() {
	for d in "$SIM1"/*; do
		[ -L "$d/software_node" ] || continue
		if [ "$(basename "$(readlink "$d/software_node")")" = "dcm-sim1-$1" ]; then
			basename "$d"
			return 0
		fi
	done
	return 1
}

ok=0
for i in 1 2; do
	t=$(line "RS485-$i") || { ok=1; break; }
	mkdir "$CFS/race$i" "$CFS/race$i/RS485-$i" &&
		echo "$t" >"$CFS/race$i/RS485-$i/transport" || ok=1
done
check $ok "configfs bodies race1 and race2 on the second body's RS485-1 and RS485-2"
if [ "$ok" != 0 ]; then
	restore
	totals
	exit
fi

dmesg -c >/dev/null

# toggle I: body raceI live and not live until the end time; counts what
# succeeded and what failed in $T/toggleI.
toggle() {
	_ok=0
	_bad=0
	_end=$(($(date +%s) + secs))
	while [ "$(date +%s)" -lt "$_end" ]; do
		if echo 1 >"$CFS/race$1/live" 2>>"$T/err$1"; then
			_ok=$((_ok + 1))
		else
			_bad=$((_bad + 1))
		fi
		if echo 0 >"$CFS/race$1/live" 2>>"$T/err$1"; then
			_ok=$((_ok + 1))
		else
			_bad=$((_bad + 1))
		fi
	done
	echo "$_ok $_bad" >"$T/toggle$1"
}

# open_loop: opens /dev/dcm1 and /dev/dcm2 until the end time, counting
# the opens that succeeded (a device between two bodies may be absent).
open_loop() {
	_o1=0
	_o2=0
	_end=$(($(date +%s) + secs))
	while [ "$(date +%s)" -lt "$_end" ]; do
		for _i in 1 2 1 2 1 2 1 2; do
			if true 2>/dev/null <"/dev/dcm$_i"; then
				eval "_o$_i=\$((_o$_i + 1))"
			fi
		done
	done
	echo "$_o1 $_o2" >"$T/open"
}

toggle 1 &
p1=$!
toggle 2 &
p2=$!
open_loop &
p3=$!

# The loops end by themselves; a wedged kernel keeps them in the kernel.
sleep "$secs"
# shellcheck disable=SC2016 # expanded by holds, at each poll
wait_until 60 holds '[ -s "$T/toggle1" ] && [ -s "$T/toggle2" ] && [ -s "$T/open" ]'
done=$?
check $done "the three loops ended within ${secs} s and a grace of $(scaled 60) s"
if [ "$done" != 0 ]; then
	echo "# still running: $p1 $p2 $p3; the kernel:"
	dmesg | tail -40 | sed 's/^/# /'
	totals
	exit
fi
wait "$p1" "$p2" "$p3"

for i in 1 2; do
	read -r good bad <"$T/toggle$i"
	[ "$bad" = 0 ] && [ "$good" -ge 20 ]
	check $? "race$i: $good live writes succeeded, $bad failed$(sort -u "$T/err$i" | head -3 |
		tr '\n' ' ' | sed 's/^./: &/')"
done
read -r o1 o2 <"$T/open"
[ "$o1" -gt 0 ] && [ "$o2" -gt 0 ]
check $? "/dev/dcm1 opened $o1 times, /dev/dcm2 $o2 times"

dmesg >"$T/dmesg"
! grep -E "cannot create duplicate|general protection|Oops|BUG:|WARNING:|KASAN|UBSAN" "$T/dmesg" \
	>"$T/trouble"
check $? "the kernel logged no duplicate name, oops or warning$(head -3 "$T/trouble" |
	tr '\n' ' ' | sed 's/^./: &/')"

# Both bodies can still go live, each with its own controller.
echo 1 >"$CFS/race1/live" && echo 1 >"$CFS/race2/live"
c1=$(cat "$CFS/race1/controller")
c2=$(cat "$CFS/race2/controller")
[ -n "$c1" ] && [ -n "$c2" ] && [ "$c1" != "$c2" ] && [ -c "/dev/$c1" ] && [ -c "/dev/$c2" ] &&
	dcmctl -d "$c1" info >/dev/null 2>&1 && dcmctl -d "$c2" info >/dev/null 2>&1
check $? "afterwards both go live: $c1 and $c2, each answers dcmctl info"

restore
rm -rf "$T"
totals
