#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# dcm_examples_test.sh: the example programs of userspace/examples/, built
# against a staged install of libdcm with pkg-config, run on the simulated
# robot, each checked from outside through sysfs:
#
#   control-loop  HeadYaw's position sensor swings while it runs (sampled
#                 in sysfs), and it says it moved; killed, its client
#                 watchdog's safe action runs (a watchdog event);
#   led-alias     the chest LED's colours change while it runs (sampled in
#                 sysfs), and its alias exists afterwards (a set on it works);
#   robot-status.sh  prints every joint, the battery and the lost boards.
#
# POSIX sh (busybox). Prints TAP and ends with the kselftest Totals line.
# About 15 s.

SYS=/sys/class/dcm/dcm0
SUB=$SYS/SubDeviceList
EX=$(dirname "$0")/examples
T=/tmp/dcm_examples_test

. "$(dirname "$0")/dcm_tap.sh"

[ -x "$EX/control-loop" ] || skip_all "no examples in $EX (make examples)"
[ -d "$SUB/HeadYaw" ] || skip_all "no description loaded"
mkdir -p "$T"

# sample FILE... : every 0.1 s while the program of pid $1 runs, one line of
# the files' values; into $T/samples
sample() {
	pid=$1
	shift
	: >"$T/samples"
	while kill -0 "$pid" 2>/dev/null; do
		line=
		for f in "$@"; do
			line="$line $(cat "$f")"
		done
		echo "$line" >>"$T/samples"
		sleep 0.1
	done
}

# --- control-loop: a per-cycle loop that moves HeadYaw
"$EX/control-loop" -s 3 >"$T/loop.out" 2>&1 &
pid=$!
sample "$pid" "$SUB/HeadYaw/Position/Sensor/Value"
wait "$pid"
st=$?
check "$st" "control-loop runs 3 s and exits 0 (status $st)"
[ "$st" = 0 ] || sed 's/^/# /' "$T/loop.out"
grep -q "^300 cycles; HeadYaw/Position/Sensor moved over" "$T/loop.out"
check $? "control-loop read 300 frames and says HeadYaw moved"
range=$(awk 'NR == 1 { lo = $1; hi = $1 } { if ($1 < lo) lo = $1; if ($1 > hi) hi = $1 }
	END { print hi - lo }' "$T/samples")
above "$range" 0.3
check $? "HeadYaw's sensor in sysfs swung over $range rad while it ran"
grep -q 'joints read per cycle; commanding HeadYaw' "$T/loop.out"
check $? "control-loop found the joints through the library's tree"

# --- control-loop killed: its watchdog holds the joint (an event says so)
dcmctl events --type watchdog --timeout $((5 * slow)) >"$T/wd.out" 2>&1 &
evpid=$!
sleep "$(scaled 0.5)"
"$EX/control-loop" -s 30 >"$T/loop2.out" 2>&1 &
pid=$!
wait_until 5 grep -q 'joints read per cycle' "$T/loop2.out" 2>/dev/null
sleep 1
kill -9 "$pid"
wait "$pid" 2>/dev/null
wait "$evpid"
grep -q "watchdog of pid $pid fired (closed): hold" "$T/wd.out"
st=$?
check "$st" "control-loop killed: the kernel ran its watchdog's safe action (hold)"
sed 's/^/# /' "$T/wd.out"
[ "$st" = 0 ] || sed 's/^/# /' "$T/loop2.out"
dcmctl set HeadYaw/Position/Actuator 0 --in 200 >/dev/null &&
	sleep 0.4 && dcmctl set HeadYaw/Hardness/Actuator 0 >/dev/null
check $? "HeadYaw back to 0 and soft"

# --- led-alias: the chest LED through an alias
"$EX/led-alias" -s 2 >"$T/led.out" 2>&1 &
pid=$!
L=$SUB/ChestBoard/Led
sample "$pid" "$L/Red/Actuator/Value" "$L/Green/Actuator/Value" "$L/Blue/Actuator/Value"
wait "$pid"
st=$?
check "$st" "led-alias runs 2 s and exits 0 (status $st)"
[ "$st" = 0 ] || sed 's/^/# /' "$T/led.out"
distinct=$(sort -u "$T/samples" | wc -l)
[ "$distinct" -ge 4 ]
check $? "the chest LED took $distinct colours in sysfs (4 or more)"
dcmctl alias list >"$T/aliases" 2>"$T/set.out"
st=$?
[ "$st" = 0 ] && ! grep -q led-alias.ChestLeds "$T/aliases"
check $? "led-alias's alias was its own, not the controller's: not among the shared ones (dcmctl alias list, status $st)"

# --- robot-status.sh: the robot from a shell
"$EX/robot-status.sh" >"$T/status.out" 2>&1
st=$?
check "$st" "robot-status.sh exits 0 (status $st)"
[ "$st" = 0 ] || sed 's/^/# /' "$T/status.out"
joints=$(ls -d "$SUB"/*/Position/Sensor | wc -l)
listed=$(grep -c '^[A-Z][A-Za-z]* *-\{0,1\}[0-9]' "$T/status.out")
[ "$joints" -gt 20 ] && [ "$listed" -ge "$joints" ]
check $? "robot-status.sh lists every joint ($listed lines for $joints joints)"
grep -q 'Battery/Charge/Sensor/Value' "$T/status.out" && grep -q '^0 lost$' "$T/status.out"
check $? "robot-status.sh shows the battery and no lost board"

rm -rf "$T"
totals
