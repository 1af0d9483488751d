#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# dcm_python_test.sh: the Python module dcm (userspace/python/) in the VM,
# against dcm.ko and the simulated body with the default description
# (dcmd loads it at boot): open, get and set, a timed command that brings a
# joint to its angle (read back from its sensor), NAOqi-shaped set,
# createAlias and setAlias in both forms, getTime against the kernel's
# time_ms, a frame per cycle, the mapped snapshot, events (a watchdog fired,
# a safety rule), ALMemory.getData, the enumeration (tree, keys, devices,
# key flags, aliases own and shared and when each goes), ALMemory's
# getDataList, insertData (a user key, a Kp written and refused out of
# range), special("Diagnostic") heard through subscribeToEvent, the device
# opened read-only by the user nao, and the errors: an unknown key names
# itself, a bad shape is a TypeError or ValueError, the kernel's refusals
# carry their errno.
#
# dcm_python_test.py does the checks and prints "0|1 DESCRIPTION" lines;
# this prints them as TAP, ending with the kselftest Totals line.
#
# POSIX sh (busybox).

dir=$(dirname "$0")
. "$dir/dcm_tap.sh"

if ! command -v python3 >/dev/null 2>&1; then
	skip_all "no python3"
fi
if [ ! -d /sys/class/dcm/dcm0/SubDeviceList/HeadYaw ] || [ ! -d /sys/kernel/debug/dcm_sim ]; then
	skip_all "no default description or no dcm_sim"
fi

out=/tmp/dcm-python-test.out
err=/tmp/dcm-python-test.err
python3 -B "$dir/dcm_python_test.py" >$out 2>$err
rc=$?
lines=0
while IFS= read -r line; do
	case "$line" in
	"# "*)
		echo "$line"
		;;
	[01]" "*)
		lines=$((lines + 1))
		check "${line%% *}" "${line#* }"
		;;
	*)
		echo "# $line"
		;;
	esac
done <$out
[ "$rc" = 0 ] && [ "$lines" -gt 0 ]
check $? "dcm_python_test.py ran to its end (exit $rc, $lines checks)"
if [ "$rc" != 0 ] || [ -s $err ]; then
	sed 's/^/# stderr: /' $err | tail -n 20
fi
totals
