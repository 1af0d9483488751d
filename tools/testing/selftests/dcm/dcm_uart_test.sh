#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# dcm_uart_test.sh: the RS485 path for real. Run in a VM booted with
# scripts/dcm-vm exec --rs485-uart: the bus RS485-1 is QEMU's second UART,
# the dcm RS485 transport (serdev, bound through ACPI) sends the cycle's
# broadcast on it, and dcm-boardsim answers on the host with the simulated
# motor boards. The same joint test as dcm_body_test.sh, over that wire.
#
# POSIX sh (busybox). Prints TAP and ends with the kselftest Totals line.

SYS=/sys/class/dcm/dcm0
SUB=$SYS/SubDeviceList
DEV=$SYS/DeviceList

. "$(dirname "$0")/dcm_tap.sh"


if [ "$(cat /sys/module/dcm_sim/parameters/rs485_loopback 2>/dev/null)" != 14 ]; then
	skip_all "not booted with --rs485-uart"
fi

ls -d /sys/bus/serial/devices/* >/dev/null 2>&1
check $? "the RS485 transport sits on the UART as a serdev device"

a1=$(cat $DEV/NeckBoard/Ack)
sleep 0.5
a2=$(cat $DEV/NeckBoard/Ack)
[ $((a2 - a1)) -ge 30 ]
check $? "the boards behind the UART answer every cycle (Ack +$((a2 - a1)) in 0.5 s)"

echo 1 >$SUB/HeadYaw/Hardness/Actuator/Value
echo 0.5 >$SUB/HeadYaw/Position/Actuator/Value
sleep 1
pos=$(cat $SUB/HeadYaw/Position/Sensor/Value)
near "$pos" 0.5 0.005
check $? "a joint commanded to 0.5 rad over the UART reads $pos"

echo -0.8 >$SUB/HeadYaw/Position/Actuator/Value
sleep 1
pos=$(cat $SUB/HeadYaw/Position/Sensor/Value)
near "$pos" -0.8 0.005
check $? "and back to -0.8 rad reads $pos"

# Under emulation the host's answer can miss the 5 ms reply window now
# and then: a Nack, never a stalled cycle.
a1=$(cat $DEV/NeckBoard/Ack)
n1=$(cat $DEV/NeckBoard/Nack)
sleep 1
a2=$(cat $DEV/NeckBoard/Ack)
n2=$(cat $DEV/NeckBoard/Nack)
[ $((a2 - a1)) -ge 50 ] && [ $(((n2 - n1) * 10)) -le $((a2 - a1)) ]
check $? "few Nacks once running (+$((n2 - n1)) for +$((a2 - a1)) Acks in 1 s)"

totals
