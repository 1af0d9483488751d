#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# robot-status.sh [dcmN]: read the robot from a shell, with dcmctl and
# straight from sysfs (no privilege needed for either).
#
# The key Device/SubDeviceList/<name>/<key> is the file
# /sys/class/dcm/dcmN/SubDeviceList/<name>/<key>; Device/DeviceList/... and
# RobotConfig/... likewise (Documentation/ABI/testing/sysfs-class-dcm).
set -eu

ctl=${1:-dcm0}
tree=${DCM_SYSFS_ROOT:-/sys/class/dcm}/$ctl

if [ ! -d "$tree/SubDeviceList" ]; then
	echo "robot-status: no description loaded in $ctl ($tree/SubDeviceList missing)" >&2
	exit 1
fi

echo "== $ctl: the controller (dcmctl info)"
dcmctl -d "$ctl" info

echo "== the body"
printf 'body type %s, id %s, DCM time %s ms\n' \
	"$(cat "$tree/RobotConfig/Body/Type")" \
	"$(cat "$tree/DeviceList/ChestBoard/BodyId")" \
	"$(cat "$tree/time_ms")"

echo "== the battery (dcmctl get)"
dcmctl -d "$ctl" get Battery/Charge/Sensor/Value Battery/Current/Sensor/Value

echo "== every joint: position sensor (rad), stiffness sent, temperature (sysfs)"
for s in "$tree"/SubDeviceList/*/Position/Sensor; do
	j=${s#"$tree"/SubDeviceList/}
	j=${j%%/*}
	printf '%-16s %10s %10s %10s\n' "$j" "$(cat "$s/Value")" \
		"$(cat "$tree/SubDeviceList/$j/Hardness/Actuator/Value" 2>/dev/null || echo -)" \
		"$(cat "$tree/SubDeviceList/$j/Temperature/Sensor/Value" 2>/dev/null || echo -)"
done

echo "== boards that do not answer (Available 0)"
lost=0
for d in "$tree"/DeviceList/*; do
	if [ "$(cat "$d/Available" 2>/dev/null || echo 1)" = 0 ]; then
		echo "${d##*/}"
		lost=$((lost + 1))
	fi
done
echo "$lost lost"
