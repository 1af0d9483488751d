#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# dcm_naoqi_test.sh: a script written for NAOqi runs on dcm with its import
# line changed, in the VM, against dcm.ko and the simulated body with the
# default description (dcmd loads it at boot).
#
# dcm_naoqi_script.py is that script, as a NAOqi user writes it:
# ALProxy("DCM", ip, port) and ALProxy("ALMemory", ip, port), an ALBroker
# and an ALModule, getPrefix, getTime, set, createAlias, setAlias (through
# a second ALProxy("DCM") of a helper function), getData,
# getListData, getDataList, getDataListName, insertData, subscribeToEvent
# and unsubscribeToEvent (the DCM's answer to special("Diagnostic")),
# preferences Save and Add. This test
#
#   1. makes the ported copy by changing its one import line (from naoqi
#      ... -> from dcm.naoqi ...) and checks that nothing else differs;
#   2. runs it (as root: special and the preference files need it) and
#      shows its lines: every step must say ok, the exit status be 0;
#   3. checks what it did from outside, through sysfs and the files:
#      HeadYaw's sensor at the script's 0.4 rad, HeadPitch's at 0.1, their
#      stiffness 1, the nickname in the chest preference file;
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

T=$(mktemp -d /tmp/dcm_naoqi.XXXXXX) || exit 1
etc_saved=
if [ -d /etc/dcm ]; then
	cp -a /etc/dcm "$T/etc-dcm" && etc_saved=1
fi
cleanup() {
	# the robot as it was: the head back at 0 (waited for: a soft joint
	# stays where it is), then soft; /etc/dcm as it was
	echo 0 >$SUB/HeadYaw/Position/Actuator/Value 2>/dev/null
	echo 0 >$SUB/HeadPitch/Position/Actuator/Value 2>/dev/null
	i=0
	while [ $i -lt "$(scaled 100)" ] && ! awk -v y="$(cat $SUB/HeadYaw/Position/Sensor/Value)" \
		-v p="$(cat $SUB/HeadPitch/Position/Sensor/Value)" \
		'BEGIN { exit !(y > -0.01 && y < 0.01 && p > -0.01 && p < 0.01) }'; do
		sleep 0.05
		i=$((i + 1))
	done
	echo 0 >$SUB/HeadYaw/Hardness/Actuator/Value 2>/dev/null
	echo 0 >$SUB/HeadPitch/Hardness/Actuator/Value 2>/dev/null
	rm -rf /etc/dcm
	[ -n "$etc_saved" ] && cp -a "$T/etc-dcm" /etc/dcm
	rm -rf "$T"
}
trap cleanup EXIT

# 1. the ported script: the import line, and nothing else
orig=$dir/dcm_naoqi_script.py
script=$T/head_turn.py
sed 's/^from naoqi import /from dcm.naoqi import /' "$orig" >"$script"
diff -u "$orig" "$script" | grep -v '^---\|^+++' >"$T/diff"
changed=$(grep -c '^[-+]' "$T/diff")
grep -q '^-from naoqi import ALProxy, ALModule, ALBroker$' "$T/diff" &&
	grep -q '^+from dcm.naoqi import ALProxy, ALModule, ALBroker$' "$T/diff" &&
	[ "$changed" = 2 ]
check $? "the ported script differs from the NAOqi one by its import line alone ($changed lines)"

# 2. run it
python3 -B "$script" >"$T/out" 2>"$T/err"
rc=$?
sed 's/^/# script: /' "$T/out"
[ -s "$T/err" ] && sed 's/^/# stderr: /' "$T/err" | tail -n 20
oks=$(grep -c '^ok ' "$T/out")
fails=$(grep -c '^FAIL ' "$T/out")
[ "$rc" = 0 ] && [ "$fails" = 0 ] && [ "$oks" -ge 10 ] && [ ! -s "$T/err" ]
check $? "the NAOqi script ran to its end on dcm: exit $rc, $oks steps ok, $fails failed"

grep -q '^ok   HeadYaw reached 0.400 rad' "$T/out"
check $? "the script saw HeadYaw reach its target through ALMemory"

# 3. what it did, seen from outside
yaw=$(cat $SUB/HeadYaw/Position/Sensor/Value)
pitch=$(cat $SUB/HeadPitch/Position/Sensor/Value)
awk -v y="$yaw" -v p="$pitch" 'BEGIN { exit !(y > 0.37 && y < 0.43 && p > 0.05 && p < 0.15) }'
check $? "after the script: HeadYaw's sensor $yaw rad (0.4 wanted), HeadPitch's $pitch (0.1)"

hy=$(cat $SUB/HeadYaw/Hardness/Actuator/Value)
hp=$(cat $SUB/HeadPitch/Hardness/Actuator/Value)
awk -v a="$hy" -v b="$hp" 'BEGIN { exit !(a == 1 && b == 1) }'
check $? "after the script: the head's stiffness $hy, $hp (the script's set, Merge)"

grep -q 'HeadTurner' /etc/dcm/body.xml 2>/dev/null
check $? "preferences Add: the nickname is in the chest preference file (/etc/dcm/body.xml)"

totals
