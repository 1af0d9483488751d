#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test-check-data.sh - check-data.sh refuses a broken description.
#
#   userspace/data/test-check-data.sh
#
# Each case breaks one file of a copy of userspace/data (sed) and expects
# check-data.sh to fail with a given message: the checks are dcmd's and the
# kernel's (dry run) and the few of check-data.sh itself. DCMD as for
# check-data.sh. Ends with "test-check-data: N passed, N failed"; exits 1 if
# any failed.

set -u

here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0

# case NAME FILE SED-SCRIPT MESSAGE: break FILE of a copy, expect MESSAGE.
case_() {
	rm -rf "$tmp/data"
	cp -r "$here" "$tmp/data"
	sed -i "$3" "$tmp/data/$2"
	if cmp -s "$here/$2" "$tmp/data/$2"; then
		echo "FAIL $1: the edit changed nothing"
		fail=$((fail + 1))
		return
	fi
	if bash "$here/check-data.sh" --data "$tmp/data" >"$tmp/out" 2>&1; then
		echo "FAIL $1: check-data.sh accepts it"
		fail=$((fail + 1))
	elif ! grep -q -- "$4" "$tmp/out"; then
		echo "FAIL $1: no '$4' in:"
		head -n 5 "$tmp/out" | sed 's/^/  /'
		fail=$((fail + 1))
	else
		echo "ok   $1"
		pass=$((pass + 1))
	fi
}

case_ bad-type Device.xml \
	's|Name="ChestBoard/Led/Red/Actuator" Type="Led"|Name="ChestBoard/Led/Red/Actuator" Type="Toaster"|' \
	"unknown subdevice type 'Toaster'"
case_ min-above-max Device.xml \
	'/Name="ChestBoard\/Button\/Sensor"/{n;s/Min="0" Max="1"/Min="2" Max="1"/}' \
	'Min 2.000000 is above Max 1.000000'
case_ duplicate-name Device.xml \
	's|Name="ChestBoard/Led/Green/Actuator"|Name="ChestBoard/Led/Red/Actuator"|' \
	"duplicate name 'ChestBoard/Led/Red/Actuator'"
case_ removed-seed-subdevice Device.xml \
	'/Name="ChestBoard\/Button\/Sensor"/,/\/>/d' \
	'ChestBoard/Button/Sensor/Value is not a key'
case_ unknown-seed-key seed-keys.txt \
	'$a Device/SubDeviceList/ChestBoard/Button/Sensor/Colour' \
	'Colour is not a key'
case_ gain-zero body.xml \
	's|\(FSR/FrontLeft/Sensor/Gain" Type="float" Value="\)[^"]*"|\10"|' \
	'Gain cannot be 0'
case_ wrong-owner body.xml \
	's|HeadYaw/Position/Sensor/jointZeroPosition|HeadYaw/Position/Sensor/Kp|' \
	'belongs to the Main preferences'
case_ uncalibrated body.xml \
	'/HeadYaw\/Position\/Sensor\/jointZeroPosition/d' \
	'HeadYaw/Position/Sensor: not calibrated'
case_ shared-address Device.xml \
	's|Name="Battery" Type="Battery" Bus="I2C-chest" Address="11"|Name="Battery" Type="Battery" Bus="I2C-chest" Address="32"|' \
	'devices ChestBoard and Battery have the same Address 32 on bus I2C-chest'
case_ subdevice-first Device.xml \
	'/<Device Name="ChestBoard"/{h;d}; /Name="ChestBoard\/Button\/Sensor"/{n;G}' \
	'SubDevices come before their Device'
case_ variant-drops variants/head-no-touch.xml \
	's|TouchBoard/Version" Type="int" Value="0"|TouchBoard/Version" Type="int" Value="1"|' \
	'variants/head-no-touch.xml: drops'

echo "test-check-data: $pass passed, $fail failed"
[ "$fail" = 0 ]
