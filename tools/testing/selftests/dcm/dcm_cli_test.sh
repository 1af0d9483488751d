#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# dcm_cli_test.sh: dcmctl as a user types it, in the VM, against the
# default robot:
#   - COMMAND --help and help COMMAND show help and touch nothing (calibrate
#     --help calibrates nothing); options after the arguments, --opt=value,
#     negative values; usage errors exit 2;
#   - one key grammar in get, set, watch and info (with or without the
#     prefix and /Value, device keys, configuration keys); "did you mean";
#   - set of a configuration key (Kp) with its range checked by dcmctl and
#     by the kernel's sysfs store (what is stored is what the board gets);
#     the warnings of set: a value past Max, a joint whose stiffness is 0;
#   - -j: numbers are JSON numbers;
#   - calibrate refuses a stiff, moving joint, or one far from its stop,
#     unless --force; stiff is the stiffness commanded (safety/hardness),
#     also while cycle faults in a row send the joint hardness 0; a success
#     prints the command that undoes it, and that command puts the zero
#     back;
#   - preferences add refuses a misspelled RobotConfig key.
#
# POSIX sh (busybox). Prints TAP and ends with the kselftest Totals line.

SYS=/sys/class/dcm/dcm0
SUB=$SYS/SubDeviceList
STORE=/sys/kernel/debug/dcm_sim/body0/chest/store
STALL=/sys/kernel/debug/dcm/dcm0/stall_ms
T=$(mktemp -d /tmp/dcm_cli.XXXXXX) || exit 1

. "$(dirname "$0")/dcm_tap.sh"

if [ ! -d "$SYS/DeviceList/HeadBoard" ] || ! command -v dcmctl >/dev/null; then
	skip_all "no default description or no dcmctl"
fi

KP=$SUB/HeadYaw/Position/Actuator/Kp
kp0=$(cat "$KP")
zero0=$(cat "$SUB/HeadYaw/Position/Sensor/jointZeroPosition")
# The calibrations below write the chest board's store: the simulated one
# is put back as it was, so that later loads see no record of them.
[ -w "$STORE" ] && cat "$STORE" >"$T/store"

cleanup() {
	rm -f "$T/hold"
	echo 0 >"$STALL" 2>/dev/null
	echo "$kp0" >"$KP" 2>/dev/null
	echo 0 >"$SUB/HeadYaw/Hardness/Actuator/Value"
	echo 0 >"$SUB/HeadPitch/Hardness/Actuator/Value"
	dcmctl calibrate HeadYaw set "$zero0" >/dev/null 2>&1
	[ -s "$T/store" ] && cat "$T/store" >"$STORE"
	rm -rf "$T"
}
trap cleanup EXIT

# run RC PATTERN CMD...: CMD exits RC and its stdout+stderr match PATTERN
# (grep -E); the output is kept in $T/out.
run() {
	_rc=$1
	_pat=$2
	shift 2
	"$@" >"$T/out" 2>"$T/err"
	_got=$?
	cat "$T/err" >>"$T/out"
	[ "$_got" = "$_rc" ] && grep -Eq -- "$_pat" "$T/out"
}

diag() {
	sed 's/^/# /' "$T/out" | head -8
}

# c RC PATTERN DESCRIPTION CMD...
c() {
	_d=$3
	_r=$1
	_p=$2
	shift 3
	run "$_r" "$_p" "$@"
	_s=$?
	check $_s "$_d (exit $_got)"
	[ $_s = 0 ] || diag
}

# 1. Help everywhere, options anywhere.
# (both forms of every command are in the host tests; here one each, in turn)
bad=0
form=0
for cmd in info list get tree set alias time watch stats events preferences calibrate special help; do
	if [ $form = 0 ]; then
		run 0 "^Usage: dcmctl $cmd" dcmctl "$cmd" --help || { bad=1; diag; }
	else
		run 0 "^Usage: dcmctl $cmd" dcmctl help "$cmd" || { bad=1; diag; }
	fi
	form=$((1 - form))
done
check $bad "COMMAND --help or help COMMAND for every command"
c 0 "^Usage: dcmd" "dcmd --help" dcmd --help
c 0 "^Usage: dcmctl calibrate" "calibrate HeadYaw min --help: the help" \
	dcmctl calibrate HeadYaw min --help
[ "$(cat "$SUB/HeadYaw/Position/Sensor/jointZeroPosition")" = "$zero0" ]
check $? "... and no calibration"
c 2 "unknown command 'nope'" "help nope: a usage error" dcmctl help nope
c 2 "Try 'dcmctl time --help'" "time --bogus: a usage error with its hint" dcmctl time --bogus
c 0 "^\[\"Device/SubDeviceList/" "list -j: -j after the command" dcmctl list -j
c 0 '"netlink"' "info -j" dcmctl info -j
dcmctl events --type=safety --timeout=1 >"$T/out" 2>&1
check $? "events --type=safety --timeout=1"
c 0 "^-?[0-9]" "get KEY -q: an option after the key" dcmctl get HeadYaw/Position/Sensor -q

# 2. One key grammar.
a=$(dcmctl get -q Device/SubDeviceList/HeadYaw/Position/Actuator/Value)
b=$(dcmctl get -q HeadYaw/Position/Actuator/Value)
d=$(dcmctl get -q HeadYaw/Position/Actuator)
[ -n "$a" ] && [ "$a" = "$b" ] && [ "$b" = "$d" ]
check $? "get: the same value with and without the prefix and /Value ($a $b $d)"
c 0 "^[0-9]+$" "get a device key: Device/DeviceList/ChestBoard/Ack" \
	dcmctl get -q Device/DeviceList/ChestBoard/Ack
c 0 "^$kp0$" "get a configuration key: HeadYaw/Position/Actuator/Kp" dcmctl get -q HeadYaw/Position/Actuator/Kp
c 1 "did you mean HeadYaw/Position/Sensor\?" "get a misspelled key: did you mean" \
	dcmctl get HeadYaw/Positon/Sensor
c 1 "did you mean .*HeadYaw/Position/Actuator/Kp" "set a misspelled configuration key" \
	dcmctl set HeadYaw/Position/Actuator/Kq 40
dcmctl watch HeadYaw/Position/Sensor Device/DeviceList/ChestBoard/Ack HeadYaw/Position/Actuator/Kp \
	--cycles 3 >"$T/watch" 2>&1 &&
	[ "$(wc -l <"$T/watch")" = 4 ] && awk 'NR > 1 && NF != 5 { exit 1 }' "$T/watch"
check $? "watch a sensor, a device key and a configuration key: 3 lines of 5 fields"
c 0 "Max: " "info HeadYaw/Position/Sensor: its keys" dcmctl info HeadYaw/Position/Sensor

# 3. Configuration keys: set with the range checked, in dcmctl and in the kernel.
c 0 "Kp: 40 \(was $kp0\)" "set HeadYaw/Position/Actuator/Kp 40" dcmctl set HeadYaw/Position/Actuator/Kp 40
[ "$(cat "$KP")" = 40 ]
check $? "sysfs reads Kp 40 ($(cat "$KP"))"
c 1 "outside the key's range, 0 to 32767" "set Kp -5: refused" dcmctl set HeadYaw/Position/Actuator/Kp -5
c 1 "outside the key's range, 0 to 32767" "set Kp 99999: refused" dcmctl set HeadYaw/Position/Actuator/Kp 99999
! echo -5 >"$KP" 2>/dev/null && ! echo 99999 >"$KP" 2>/dev/null && echo 32767 >"$KP" &&
	[ "$(cat "$KP")" = 32767 ]
check $? "sysfs refuses Kp -5 and 99999, takes 32767 ($(cat "$KP"))"
GR=$SUB/HeadYaw/Position/Sensor/GearRatio
gr0=$(cat "$GR")
! echo 70000 >"$GR" 2>/dev/null && ! echo -1 >"$GR" 2>/dev/null && [ "$(cat "$GR")" = "$gr0" ]
check $? "sysfs refuses GearRatio 70000 and -1 (the board's unsigned Q16.16), keeps $gr0"
c 1 "read-only" "set .../Min: read-only" dcmctl set HeadYaw/Position/Actuator/Min 0
c 2 "takes no option" "set Kp 40 --in 100: a configuration key takes no time" \
	dcmctl set HeadYaw/Position/Actuator/Kp 40 --in 100
echo "$kp0" >"$KP"

# 4. set's warnings (exit 0).
dcmctl set HeadPitch/Hardness/Actuator 0 >/dev/null
c 0 "warning: .*stiffness is 0" "set a soft joint's position: a warning" \
	dcmctl set HeadPitch/Position/Actuator 0.1
dcmctl set HeadYaw/Hardness/Actuator 1 >/dev/null
c 0 "warning: .*above its Max.*clamped" "set past Max: a warning" dcmctl set HeadYaw/Position/Actuator 9
c 0 "points" "set with a negative value and -j after it" \
	dcmctl set HeadYaw/Position/Actuator -0.5 --in=200 -j
sleep 0.5

# 5. -j: numbers are numbers.
c 0 "\"value\":${kp0}[,}]" "-j get Kp: a number" dcmctl -j get HeadYaw/Position/Actuator/Kp
c 0 "\"value\":\"NAO\"" "-j get RobotConfig/Body/Type: a string" dcmctl get RobotConfig/Body/Type -j
c 0 "\"Max\":-?[0-9]" "-j info: numbers" dcmctl -j info HeadYaw/Position/Sensor
c 0 "\"Device/DeviceList/ChestBoard/Ack\":[0-9]" "-j watch of a device key: a number" \
	dcmctl -j watch Device/DeviceList/ChestBoard/Ack --cycles 1

# 6. Safe calibration (the simulated robot only). HeadYaw is stiff at -0.5 rad.
if [ -s "$T/store" ]; then
	# The stiffness dcmctl checks is the one commanded (safety/hardness),
	# not the hardness sent: a cycle fault's ramp changes nothing.
	c 1 "stiffness is 1 \(HeadYaw/Hardness/Actuator, as commanded" \
		"calibrate a stiff joint: refused" dcmctl calibrate HeadYaw min
	[ "$(cat "$SUB/HeadYaw/Position/Sensor/jointZeroPosition")" = "$zero0" ]
	check $? "... jointZeroPosition unchanged ($zero0)"
	# The cycle held back 1 s again and again (stall_ms, armed anew while
	# each stall runs): every cycle is a cycle fault, and HeadYaw, still
	# commanded stiff, is sent hardness 0 while calibrate looks at it.
	: >"$T/hold"
	(while [ -e "$T/hold" ]; do echo 1000 >"$STALL"; sleep 0.2; done) &
	holder=$!
	f0=$(cat "$SYS/safety/cycle_faults")
	sent_zero() {
		[ "$(cat "$SYS/safety/cycle_faults")" -gt "$f0" ] &&
			[ "$(cat "$SUB/HeadYaw/Hardness/Actuator/Value")" = 0.000000 ]
	}
	wait_until 3 sent_zero
	check $? "cycle faults in a row: HeadYaw is sent hardness $(cat "$SUB/HeadYaw/Hardness/Actuator/Value")"
	wait_until 3 grep -q "^HeadYaw/Hardness/Actuator 1.000000 0.000000$" "$SYS/safety/hardness"
	check $? "safety/hardness: HeadYaw commanded 1, sent 0 ($(grep "^HeadYaw/" "$SYS/safety/hardness"))"
	c 1 "stiffness is 1 \(HeadYaw/Hardness/Actuator, as commanded" \
		"calibrate HeadYaw here while cycle faults send it hardness 0: refused" \
		dcmctl calibrate HeadYaw here
	sed -n 's/^dcmctl: calibrate HeadYaw here: its stiffness/# &/p' "$T/out"
	rm -f "$T/hold"
	wait "$holder"
	[ "$(cat "$SUB/HeadYaw/Position/Sensor/jointZeroPosition")" = "$zero0" ]
	check $? "... jointZeroPosition unchanged ($zero0)"
	# the ramp back over 2 s, before what follows moves HeadYaw
	wait_until 5 unfaulted
	dcmctl set HeadYaw/Position/Actuator 0.5 --in 1500 >/dev/null
	sleep 0.3
	c 1 "it is moving" "calibrate a moving joint: refused" dcmctl calibrate HeadYaw max
	sleep 1.5
	dcmctl set HeadYaw/Hardness/Actuator 0 >/dev/null
	sleep 0.3
	c 1 "from its Min .*not against that stop" "calibrate min with the joint at +0.5: refused" \
		dcmctl calibrate HeadYaw min
	c 0 "^undo: dcmctl calibrate HeadYaw set $zero0$" "calibrate --force: done, with its undo line" \
		dcmctl calibrate HeadYaw min --force
	undo=$(sed -n 's/^undo: //p' "$T/out")
	z=$(cat "$SUB/HeadYaw/Position/Sensor/jointZeroPosition")
	# the motor board is configured again after a calibration: retry a while
	undone() {
		$undo >/dev/null 2>&1
	}
	[ "$z" != "$zero0" ] && wait_until 5 undone &&
		[ "$(cat "$SUB/HeadYaw/Position/Sensor/jointZeroPosition")" = "$zero0" ]
	check $? "the undo line puts the zero back ($z -> $(cat "$SUB/HeadYaw/Position/Sensor/jointZeroPosition"))"
else
	skip=$((skip + 1))
	echo "# SKIP calibration: no simulated chest store"
fi

# 7. preferences add: a misspelled key refused.
mkdir -p "$T/etc"
c 1 "did you mean RobotConfig/Body/Device/LeftArm/Version" "preferences add .../Versoin: refused" \
	dcmctl preferences add Chest RobotConfig/Body/Device/LeftArm/Versoin -1 --etc "$T/etc"
[ ! -e "$T/etc/body.xml" ]
check $? "... and no file written"

totals
