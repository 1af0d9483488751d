#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# dcm_naoqi_test.sh: scripts written for NAOqi run on dcm with their import
# line changed, in the VM, against dcm.ko and the simulated body with the
# default description (dcmd loads it at boot).
#
# Each script makes the calls a family of NAOqi's callers makes, with their
# argument shapes (Documentation/dcm/python.rst, "NAOqi's calls, method by
# method", cites them):
#
#   dcm_naoqi_script.py  a NAOqi user's script: ALProxy("DCM", ip, port) and
#                        ALProxy("ALMemory", ip, port), an ALBroker and an
#                        ALModule, getPrefix, getTime, set, createAlias,
#                        setAlias (through a second ALProxy("DCM") of a
#                        helper function), getData, getListData,
#                        getDataList, getDataListName, insertData,
#                        subscribeToEvent and unsubscribeToEvent (the DCM's
#                        answer to special("Diagnostic")), preferences Save
#                        and Add;
#   dcm_naoqi_docs.py    the examples of NAOqi's DCM API documentation: the
#                        alias ChestLeds, set on it and on each LED with
#                        getTime(1000) ... getTime(4000), a Merge, setAlias
#                        in both forms; the script exits at once;
#   dcm_naoqi_qha.py     SoftBank's hardware test helpers
#                        (quick_hard_access, hw-tests): keys read with
#                        getPrefix()[0] and [1], every joint stiffened
#                        through an alias of getDataList("Hardness/
#                        Actuator/Value"), setAlias of a dict's values(),
#                        getTime(3000.), and softened in one second as the
#                        script exits;
#   dcm_naoqi_arm.py     a user's gesture script ("import naoqi"): an alias
#                        of four joints, setAlias Merge time-mixed, the hand,
#                        and the end of the script while commands play.
#
# For each, this test
#
#   1. makes the ported copy by changing its one import line ("from naoqi
#      import ..." -> "from dcm.naoqi import ...", "import naoqi" ->
#      "import dcm.naoqi as naoqi") and checks that nothing else differs;
#   2. runs it (as root: special and the preference files need it) and
#      shows its lines: every step must say ok, the exit status be 0;
#   3. checks what it did from outside, through sysfs and the files, after
#      it ended: NAOqi played a script's timed commands after it exited,
#      and so does dcm (the kernel's queues outlive the client): the LEDs,
#      joints and hardness at the values of the last commands, which came
#      after the script's end (the script prints the DCM time of its last
#      command and of its exit);
#   4. puts the robot and /etc/dcm back as they were.
#
# POSIX sh (busybox). TAP through dcm_tap.sh; exits 1 if a test failed.

dir=$(dirname "$0")
. "$dir/dcm_tap.sh"

SYS=/sys/class/dcm/dcm0
SUB=$SYS/SubDeviceList

if ! command -v python3 >/dev/null 2>&1; then
	skip_all "no python3"
fi
if [ ! -d $SUB/HeadYaw ] || [ ! -d /sys/kernel/debug/dcm_sim ]; then
	skip_all "no default description or no dcm_sim"
fi

# the joints the scripts move
JOINTS="HeadYaw HeadPitch LElbowYaw LWristYaw LHand"

# at_zero: every joint of $JOINTS at 0 rad (within 0.01)
at_zero() {
	for j in $JOINTS; do
		near "$(cat $SUB/$j/Position/Sensor/Value)" 0 0.01 || return 1
	done
}

# value SUBDEVICE: its Value through sysfs
value() {
	cat "$SUB/$1/Value"
}

T=$(mktemp -d /tmp/dcm_naoqi.XXXXXX) || exit 1
etc_saved=
if [ -d /etc/dcm ]; then
	cp -a /etc/dcm "$T/etc-dcm" && etc_saved=1
fi
cleanup() {
	# the robot as it was: the joints the scripts moved back at 0, stiff
	# (waited for: a soft joint stays where it is), then soft; the chest
	# LEDs off; /etc/dcm as it was
	for j in $JOINTS; do
		echo 1 >$SUB/$j/Hardness/Actuator/Value 2>/dev/null
		echo 0 >$SUB/$j/Position/Actuator/Value 2>/dev/null
	done
	i=0
	while [ $i -lt "$(scaled 100)" ] && ! at_zero; do
		sleep 0.05
		i=$((i + 1))
	done
	for j in $JOINTS; do
		echo 0 >$SUB/$j/Hardness/Actuator/Value 2>/dev/null
	done
	for c in Red Green Blue; do
		echo 0 >$SUB/ChestBoard/Led/$c/Actuator/Value 2>/dev/null
	done
	rm -rf /etc/dcm
	[ -n "$etc_saved" ] && cp -a "$T/etc-dcm" /etc/dcm
	rm -rf "$T"
}
trap cleanup EXIT

# port SCRIPT: the copy of SCRIPT with its import line changed, in $T,
# and a check that nothing else differs
port() {
	sed -e 's/^from naoqi import /from dcm.naoqi import /' \
		-e 's/^import naoqi$/import dcm.naoqi as naoqi/' "$dir/$1" >"$T/$1"
	diff -u "$dir/$1" "$T/$1" | grep -v '^---\|^+++' >"$T/diff"
	changed=$(grep -c '^[-+]' "$T/diff")
	grep -q '^-\(from naoqi import ALProxy\|import naoqi$\)' "$T/diff" &&
		grep -q '^+\(from dcm.naoqi import ALProxy\|import dcm.naoqi as naoqi$\)' "$T/diff" &&
		[ "$changed" = 2 ]
	check $? "$1: the ported script differs from the NAOqi one by its import line alone ($changed lines)"
}

# run SCRIPT MIN_OK: run the ported SCRIPT and show its lines; every step
# must be ok (at least MIN_OK of them), nothing on stderr, exit status 0.
# Sets end_t and exit_t from its "end T" and "exit T" lines.
run() {
	python3 -B "$T/$1" >"$T/$1.out" 2>"$T/$1.err"
	rc=$?
	sed "s/^/# $1: /" "$T/$1.out"
	[ -s "$T/$1.err" ] && sed "s/^/# $1 stderr: /" "$T/$1.err" | tail -n 20
	oks=$(grep -c '^ok ' "$T/$1.out")
	fails=$(grep -c '^FAIL ' "$T/$1.out")
	[ "$rc" = 0 ] && [ "$fails" = 0 ] && [ "$oks" -ge "$2" ] && [ ! -s "$T/$1.err" ]
	check $? "$1 ran to its end on dcm: exit $rc, $oks steps ok, $fails failed"
	end_t=$(sed -n 's/^end //p' "$T/$1.out")
	exit_t=$(sed -n 's/^exit //p' "$T/$1.out")
}

# ended_first SCRIPT: whether the script exited before its last command's
# time, so that what the checks after it see was played after its end. A
# host too slow to exit within the script's last delay leaves this open: a
# skip, not a failure (the checks of the values stand either way).
ended_first() {
	n=$((n + 1))
	if [ -n "$end_t" ] && [ -n "$exit_t" ] && [ $((end_t - exit_t)) -gt 0 ]; then
		pass=$((pass + 1))
		echo "ok $n $1 exited $((end_t - exit_t)) ms before its last command's time"
	else
		skip=$((skip + 1))
		echo "ok $n # SKIP $1 exited at $exit_t, after its last command's time $end_t (a slow host)"
	fi
}

# past T: the DCM time is past T (a signed 32-bit difference)
past() {
	now=$(cat $SYS/time_ms)
	[ $(((now - $1 + 2147483648) % 4294967296 - 2147483648)) -gt 0 ]
}

# 1. the head-turn script
port dcm_naoqi_script.py
run dcm_naoqi_script.py 10
grep -q '^ok   HeadYaw reached 0.400 rad' "$T/dcm_naoqi_script.py.out"
check $? "the script saw HeadYaw reach its target through ALMemory"

# what it did, seen from outside
yaw=$(cat $SUB/HeadYaw/Position/Sensor/Value)
pitch=$(cat $SUB/HeadPitch/Position/Sensor/Value)
awk -v y="$yaw" -v p="$pitch" 'BEGIN { exit !(y > 0.37 && y < 0.43 && p > 0.05 && p < 0.15) }'
check $? "after the script: HeadYaw's sensor $yaw rad (0.4 wanted), HeadPitch's $pitch (0.1)"

# the hardness sent: read outside a cycle fault's ramp (dcm_tap.sh)
head_stiff() {
	hy=$(cat $SUB/HeadYaw/Hardness/Actuator/Value)
	hp=$(cat $SUB/HeadPitch/Hardness/Actuator/Value)
	awk -v a="$hy" -v b="$hp" 'BEGIN { exit !(a == 1 && b == 1) }'
}
unfaulted_run head_stiff
check $? "after the script: the head's stiffness $hy, $hp (the script's set, Merge)"

grep -q 'HeadTurner' /etc/dcm/body.xml 2>/dev/null
check $? "preferences Add: the nickname is in the chest preference file (/etc/dcm/body.xml)"

# 2. the DCM API documentation's examples: the chest LEDs, every command
# still to play when the script exits (an LED's value is in steps of 1/255:
# within 0.004)
port dcm_naoqi_docs.py
run dcm_naoqi_docs.py 3
ended_first dcm_naoqi_docs.py
wait_until 10 past "$end_t"
check $? "the DCM time passed the docs script's last command ($end_t)"
red=$(value ChestBoard/Led/Red/Actuator)
green=$(value ChestBoard/Led/Green/Actuator)
blue=$(value ChestBoard/Led/Blue/Actuator)
near "$red" 0.75 0.004 && near "$green" 0.5 0.004 && near "$blue" 0.25 0.004
check $? "after the docs script: the chest LEDs red $red (0.75), green $green (0.5), blue $blue (0.25: the alias's last, after the blue Merge)"

# 3. SoftBank's hardware test helpers: the keys, every joint stiff then
# soft in a second as the script exits, the head at getTime(3000.)
port dcm_naoqi_qha.py
run dcm_naoqi_qha.py 9
ended_first dcm_naoqi_qha.py
all_soft() {
	for h in $SUB/*/Hardness/Actuator/Value; do
		[ "$(cat "$h")" = 0.000000 ] || return 1
	done
}
wait_until 10 all_soft
check $? "after the hardware helpers: every joint's hardness at 0 (the fixture's Merge [[0., getTime(1000)]] on the alias, played after the script's end)"
near "$(value HeadYaw/Position/Sensor)" -0.3 0.02
check $? "after the hardware helpers: HeadYaw's sensor $(value HeadYaw/Position/Sensor) rad (getTime(3000.) to -0.3)"
near "$(value ChestBoard/Led/Green/Actuator)" 0.5 0.004
check $? "after the hardware helpers: the green LED $(value ChestBoard/Led/Green/Actuator) (the last of its (value, delay) tuples, 0.5)"

# 4. a user's gesture: the robot stiff, as the script expects it; the
# hand's last command and the head's play after the script's end
for j in $JOINTS; do
	echo 1 >$SUB/$j/Hardness/Actuator/Value
done
port dcm_naoqi_arm.py
run dcm_naoqi_arm.py 3
ended_first dcm_naoqi_arm.py
arm_there() {
	near "$(value LElbowYaw/Position/Sensor)" -1.2 0.02 &&
		near "$(value LWristYaw/Position/Sensor)" -1.0 0.02 &&
		near "$(value HeadPitch/Position/Sensor)" 0.3 0.02 &&
		near "$(value HeadYaw/Position/Sensor)" 0.5 0.02 &&
		near "$(value LHand/Position/Sensor)" 0.4 0.02
}
wait_until 10 arm_there
check $? "after the gesture: LElbowYaw $(value LElbowYaw/Position/Sensor) (-1.2), LWristYaw $(value LWristYaw/Position/Sensor) (-1.0), HeadPitch $(value HeadPitch/Position/Sensor) (0.3), HeadYaw $(value HeadYaw/Position/Sensor) (0.5), LHand $(value LHand/Position/Sensor) (0.4)"

totals
