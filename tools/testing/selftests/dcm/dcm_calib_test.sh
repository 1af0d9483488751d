#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# dcm_calib_test.sh: a joint's calibration survives the robot's restart, in
# the VM. The body file without calibration is the one dcmd finds first
# (/etc/dcm/body.xml), so that a calibration can only come from the chest
# board's store: a joint calibrated against its stop keeps its zero across
# a reload of dcm and dcm_sim (dcm-sim-reload, which keeps the simulated
# store and restarts dcmd, as the VM's /init loads them) and across a
# restart of dcmd alone (the same files: the running description stays,
# no swap counted), and it holds stiffness; another joint stays soft.
# A store write cut halfway fails the calibration and changes nothing; the
# next start-up finds the record corrupt and keeps the description's
# calibration. The FSRs' calibration, Gain and Offset of the body file,
# reads back as given. The store is left erased, the shipped description
# loaded.
#
# POSIX sh (busybox). Prints TAP and ends with the kselftest Totals line.

SYS=/sys/class/dcm/dcm0
SUB=$SYS/SubDeviceList
DEV=$SYS/DeviceList
SIM=/sys/kernel/debug/dcm_sim/body0
DATA=/usr/share/dcm
T=/tmp/dcm_calib_test

. "$(dirname "$0")/dcm_tap.sh"

if [ ! -w "$SIM/chest/store" ] || ! command -v dcm-sim-reload >/dev/null; then
	skip_all "no simulated chest store or no dcm-sim-reload"
fi
mkdir -p "$T"

erase() {
	dd if=/dev/zero bs=1024 count=1 2>/dev/null | tr '\000' '\377' >"$SIM/chest/store"
}

zero_of() {
	cat "$SUB/$1/Position/Sensor/jointZeroPosition"
}

val() {
	cat "$SUB/$1/Value"
}

loads() {
	grep -c 'loaded into dcm0' /run/dcmd.log 2>/dev/null
}

# wait_for CMD VALUE: until "$(CMD)" != VALUE, 20 s at most
wait_for() {
	i=0
	while [ "$($1)" = "$2" ] && [ $i -lt 200 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ "$($1)" != "$2" ]
}

# After a reload: the description dcmd (restarted, or we) loaded.
ensure_description() {
	[ -d "$DEV" ] || dcmd -1 >"$T/dcmd.out" 2>&1
}

cleanup() {
	echo 0 >"$SIM/chest/store_cut"
	rm -f /etc/dcm/body.xml
	erase
	dcm-sim-reload save
	dcmd -1 >/dev/null 2>&1 || echo "# restoring the shipped description failed"
}

# 0. A new chest board, an uncalibrated body.
erase
mkdir -p /etc/dcm
cp "$DATA/variants/body-uncalibrated.xml" /etc/dcm/body.xml
dcmd -1 >"$T/dcmd.out" 2>&1 && [ "$(zero_of HeadYaw)" = 0 ]
check $? "the uncalibrated body is loaded (HeadYaw jointZeroPosition $(zero_of HeadYaw))"

# 1. HeadYaw against its stop at Min.
echo min >"$SIM/joints/HeadYaw/push"
sleep 0.2
tz=$(cat "$SIM/joints/HeadYaw/true_zero")
dcmctl -j calibrate HeadYaw min >"$T/cal.json" 2>&1
rc=$?
zero=$(sed -n 's/.*"zero":\([0-9]*\).*/\1/p' "$T/cal.json")
[ $rc = 0 ] && [ -n "$zero" ] && [ $((zero - tz)) -le 1 ] && [ $((tz - zero)) -le 1 ] &&
	[ "$(zero_of HeadYaw)" = "$zero" ]
check $? "HeadYaw calibrated at its stop: zero $zero, the body's true zero $tz"
[ $rc = 0 ] || sed 's/^/# /' "$T/cal.json"

# 2. The robot restarts: dcm and dcm_sim reloaded, dcmd too.
if dcm-sim-reload 2>"$T/reload.err"; then
	ensure_description
	check $? "dcm-sim-reload: modules reloaded, the description loaded again"
else
	sed 's/^/# /' "$T/reload.err"
	check 1 "dcm-sim-reload: modules reloaded, the description loaded again"
fi
[ "$(zero_of HeadYaw)" = "$zero" ] && [ "$(zero_of HeadPitch)" = 0 ]
check $? "after the reload HeadYaw's zero is the stored $(zero_of HeadYaw), HeadPitch's $(zero_of HeadPitch)"
echo 1 >"$SUB/HeadYaw/Hardness/Actuator/Value"
echo 1 >"$SUB/HeadPitch/Hardness/Actuator/Value"
# The hardness sent, read once applied and outside a cycle fault's ramp.
stiff_held() {
	[ "$(val HeadYaw/Hardness/Actuator)" = 1.000000 ] &&
		[ "$(val HeadPitch/Hardness/Actuator)" = 0.000000 ]
}
wait_until 1 stiff_held
unfaulted_run stiff_held
check $? "HeadYaw takes hardness ($(val HeadYaw/Hardness/Actuator)), HeadPitch is held ($(val HeadPitch/Hardness/Actuator))"
dcmctl set HeadYaw/Position/Actuator -1.5 --in 400 >/dev/null
sleep 1
wait_until 10 holds 'near "$(val HeadYaw/Position/Sensor)" -1.5 0.01'
near "$(val HeadYaw/Position/Sensor)" -1.5 0.01
check $? "stiff, HeadYaw goes where it is told: $(val HeadYaw/Position/Sensor) rad"

# 3. dcmd alone restarts, the way /init starts it: the same files and
# store, so the running description stays (no swap: nothing to disturb).
l=$(loads)
s0=$(swaps)
for p in $(pidof dcmd); do
	kill "$p" 2>/dev/null
done
sleep 0.5
dcmd -f </dev/null >>/run/dcmd.log 2>&1 &
wait_for loads "$l" && [ "$(zero_of HeadYaw)" = "$zero" ]
check $? "after dcmd restarts, HeadYaw's zero is still $(zero_of HeadYaw)"
[ "$s0" -ge 1 ] && [ "$(swaps)" = "$s0" ]
check $? "dcmd's restart kept the running description (swaps $s0 -> $(swaps))"
echo 1 >"$SUB/HeadYaw/Hardness/Actuator/Value"
yaw_stiff() {
	[ "$(val HeadYaw/Hardness/Actuator)" = 1.000000 ]
}
wait_until 1 yaw_stiff
unfaulted_run yaw_stiff
check $? "and HeadYaw takes hardness ($(val HeadYaw/Hardness/Actuator))"

# 4. A commit cut halfway: the calibration fails, nothing changes...
echo 1 >"$SIM/chest/store_cut"
dcmctl calibrate HeadPitch set 1258 >"$T/cut.out" 2>&1
rc=$?
[ $rc = 1 ] && grep -q "store cannot be written" "$T/cut.out" && [ "$(zero_of HeadPitch)" = 0 ]
check $? "a store write cut halfway fails the calibration (exit $rc), HeadPitch's zero stays $(zero_of HeadPitch)"
sed 's/^/# /' "$T/cut.out"

# ...and at the next start-up the record is corrupt: the description's calibration.
dmesg -c >/dev/null
if dcm-sim-reload 2>"$T/reload.err"; then
	ensure_description
else
	sed 's/^/# /' "$T/reload.err"
fi
[ "$(zero_of HeadYaw)" = 0 ] && dmesg | grep -q 'chest store: body record corrupt'
check $? "a corrupt store leaves the description's calibration (HeadYaw $(zero_of HeadYaw)) and says so"
echo 1 >"$SUB/HeadYaw/Hardness/Actuator/Value"
sleep 0.2
[ "$(val HeadYaw/Hardness/Actuator)" = 0.000000 ]
check $? "HeadYaw is held soft again ($(val HeadYaw/Hardness/Actuator))"

cleanup
[ "$(zero_of HeadYaw)" = 1094 ]
check $? "the shipped description is loaded again"

# A cycle held back (as a busy host stalls the guest; here the cycle's own
# debugfs stall_ms, 1 s) while calibrate waits for the board's reply: the
# wait counts the cycle's exchanges with the board, not the clock, so the
# board answers once the cycle runs again; it is not "does not answer".
z=$(zero_of HeadYaw)
echo 1000 >/sys/kernel/debug/dcm/dcm0/stall_ms
dcmctl calibrate HeadYaw set "$z" >"$T/stall.out" 2>&1
rc=$?
[ $rc = 0 ] && [ "$(zero_of HeadYaw)" = "$z" ]
check $? "calibrate while the cycle is held back 1 s: done once it runs again (exit $rc)"
[ $rc = 0 ] || sed 's/^/# /' "$T/stall.out"

# 5. The FSRs' calibration (seed 000: "if FSR are calibrated, see robot
# configuration keys"): each FSR's Gain and Offset from the body file.
sed -n 's#.*Path="Device/SubDeviceList/\([^"]*/FSR/[^"]*/Sensor/[GO][a-z]*\)" Type="float" Value="\([^"]*\)".*#\1 \2#p' \
	"$DATA/body.xml" >"$T/fsr"
bad=
while read -r path v; do
	near "$(cat "$SUB/$path")" "$v" 0.0000005 || bad="$bad $path"
done <"$T/fsr"
[ "$(wc -l <"$T/fsr")" = 16 ] && [ -z "$bad" ] &&
	[ "$(cat "$SYS/RobotConfig/Body/Device/FSR/Calibration/Version")" = 2 ]
check $? "the 8 FSRs' Gain and Offset read back as the body file gives them${bad:+ (not:$bad)}"

totals
