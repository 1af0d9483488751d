#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# /usr/share/dcm/demo.sh: what `make run` shows inside the VM. Prints the
# controllers, the loaded modules, the character device and `dcmctl info`,
# moves a joint (with `dcmctl watch`, then `dcmctl top --once`), ...
# Exits non-zero if dcm0 is missing or dcmctl info fails.
set -u

status=0

section() {
	printf '\n=== %s ===\n' "$1"
}

section "Controllers: ls /sys/class/dcm"
if [ -e /sys/class/dcm/dcm0 ]; then
	ls /sys/class/dcm
else
	echo "no /sys/class/dcm/dcm0: is dcm_sim loaded? (see dmesg)"
	status=1
fi

section "The body: dcm0's device, and the transports that carry its buses"
# dcm_sim is hardware: its body device refers to its lines and controllers,
# and the body driver of dcm gave it dcm0 (Documentation/dcm/bring-up.rst).
echo "dcm0's body device: $(basename "$(readlink -f /sys/class/dcm/dcm0/device)")"
dmesg | sed -n 's/^\[[ 0-9.]*\] //; s/^dcm dcm0: bus /  bus /p' | head -n 7

section "Modules: dcm lines of /proc/modules"
grep '^dcm' /proc/modules || echo "no dcm module loaded"

section "Character device: ls -l /dev/dcm0"
ls -l /dev/dcm0 || status=1

section "dcmctl info"
if command -v dcmctl >/dev/null 2>&1; then
	dcmctl info || {
		echo "dcmctl info failed"
		status=1
	}
else
	echo "dcmctl is not installed (build/bin/dcmctl missing)"
fi

section "The robot's description (loaded by dcmd at boot)"
if [ -d /sys/class/dcm/dcm0/DeviceList ]; then
	echo "devices: $(ls /sys/class/dcm/dcm0/DeviceList | wc -l)," \
		"keys: $(dcmctl list | wc -l)"
	dcmctl get RobotConfig/Body/Type Device/DeviceList/ChestBoard/BodyId
else
	echo "no description loaded; /run/dcmd.log:"
	cat /run/dcmd.log
	status=1
fi

section "A joint: stiffness on, then 0.6 rad in 300 ms (actuator, sensor per cycle)"
dcmctl set HeadYaw/Hardness/Actuator 1 && \
	dcmctl set HeadYaw/Position/Actuator 0.6 --in 300 && \
	dcmctl watch HeadYaw/Position/Actuator HeadYaw/Position/Sensor \
		HeadYaw/ElectricCurrent/Sensor --cycles 45 | awk 'NR % 5 == 1' || status=1

section "The live view: dcmctl top --once while HeadYaw goes back to -0.3 rad in 2 s"
# dcmctl top is the full-screen view, refreshed live (q quits); --once
# prints one screen of it. HeadYaw's row: command, sensor on its way.
dcmctl set HeadYaw/Position/Actuator -0.3 --in 2000 >/dev/null && sleep 0.5 &&
	dcmctl top --once || status=1

section "An LED asked 0.4 reads what its board was sent"
dcmctl set ChestBoard/Led/Red/Actuator 0.4 && sleep 0.1 && \
	dcmctl get ChestBoard/Led/Red/Actuator/Value || status=1

section "The chest button, pressed in the simulator"
echo Y >/sys/kernel/debug/dcm_sim/body0/button
sleep 0.1
dcmctl get ChestBoard/Button/Sensor/Value
echo N >/sys/kernel/debug/dcm_sim/body0/button

section "The battery"
dcmctl get Battery/Charge/Sensor/Value Battery/Current/Sensor/Value Battery/Temperature/Sensor/Value

section "Safety: a cycle 700 ms late cuts the stiffness, which comes back over 2 s"
dcmctl events --type safety,overrun --timeout 4 >/tmp/demo-events &
evpid=$!
sleep 0.5
echo 700 >/sys/kernel/debug/dcm/dcm0/stall_ms
sleep 0.9
echo "just after: HeadYaw hardness sent $(dcmctl get -q HeadYaw/Hardness/Actuator/Value)"
sleep 1
echo "1 s later:  HeadYaw hardness sent $(dcmctl get -q HeadYaw/Hardness/Actuator/Value)"
wait $evpid
echo "events:"
sed 's/^/\t/' /tmp/demo-events
[ -s /tmp/demo-events ] || status=1

section "Calibration: HeadPitch pushed against its Min stop in the simulator"
echo min >/sys/kernel/debug/dcm_sim/body0/joints/HeadPitch/push 2>/dev/null
sleep 0.3
dcmctl calibrate HeadPitch min || status=1

section "Every board's state"
dcmctl special diagnostic | head -8 || status=1

section "The cycle"
dcmctl stats || status=1

section "Python: a NAOqi DCM call as written (Documentation/dcm/python.rst)"
python3 -c 'from dcm.naoqi import ALProxy; import time; dcm = ALProxy("DCM"); mem = ALProxy("ALMemory"); dcm.set(["HeadYaw/Position/Actuator/Value", "ClearAll", [[-0.4, dcm.getTime(300)]]]); time.sleep(0.6); print("HeadYaw sensor:", round(mem.getData("Device/SubDeviceList/HeadYaw/Position/Sensor/Value"), 3))' || status=1
section "LoLA: dcm-lola serves NAO V6 clients on /tmp/robocup (Documentation/dcm/lola.rst)"
# A LoLA client reads one 896-byte sensor map; then the daemon's status.
# The simulated body presents itself as the NAO V6 LoLA clients expect.
if command -v dcm-lola >/dev/null 2>&1 && command -v python3 >/dev/null 2>&1; then
	dcm-lola -s /tmp/robocup-demo --body-version 6.0.0 --head-version 6.0.0 \
		2>/tmp/demo-lola.log &
	lolapid=$!
	sleep 1
	python3 - <<'PY' || status=1
import socket, msgpack
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect("/tmp/robocup-demo")
b = b""
while len(b) < 896:
    b += s.recv(896 - len(b))
m = msgpack.unpackb(b)
print("a sensor map of %d bytes, keys %s" % (len(b), ", ".join(m)))
print("RobotConfig %s; Position[0] (HeadYaw) %.3f rad; Battery[0] %.2f" %
      (m["RobotConfig"], m["Position"][0], m["Battery"][0]))
PY
	dcm-lola --status -s /tmp/robocup-demo | grep -E '^(cycles|missed|packets_out|clients_total|latency)'
	kill $lolapid
	wait $lolapid
else
	echo "dcm-lola or python3 is not installed"
fi

echo
if [ $status = 0 ]; then
	echo "The dcm stack is up."
else
	echo "The dcm stack is NOT up."
fi
exit $status
