#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# dcm_uart_test.sh: the robot's path for real, with no simulator in the
# kernel. Run in a VM booted with scripts/dcm-vm exec --rs485-uart: an ACPI
# table describes a body (aldebaran,nao-body) whose one bus, RS485-1, is a
# serdev line on QEMU's second UART; dcm-boardsim on the host plays that
# bus's boards, and takes fault commands on QEMU's third UART (/dev/ttyS2).
# modprobe dcm gives dcm0 through the body driver; dcmd loads the shipped
# description, whose boards on the other buses are absent.
#
# POSIX sh (busybox). Prints TAP and ends with the kselftest Totals line.

SYS=/sys/class/dcm/dcm0
SUB=$SYS/SubDeviceList
DEV=$SYS/DeviceList
CTL=/dev/ttyS2

. "$(dirname "$0")/dcm_tap.sh"

if [ -d /sys/module/dcm_sim ] || ! grep -q 'dcm_vm.sim=0' /proc/cmdline; then
	skip_all "not booted with --rs485-uart (dcm_sim is loaded)"
fi

# boardsim COMMAND: one command to the host's board simulator, its answer.
boardsim() {
	exec 3<>$CTL || return 1
	printf '%s\n' "$1" >&3
	# The answer is one line; give the host a second.
	timeout 2 head -n 1 <&3
	exec 3>&-
}

stty -F $CTL raw -echo 115200 2>/dev/null

[ -e $SYS ]
check $? "dcm0 exists with no dcm_sim loaded"

drv=$(dcmctl info | sed -n "s/^[[:space:]]*driver: //p" | head -n 1)
[ "$drv" = dcm-body ]
check $? "its body driver is the firmware one (driver '$drv')"

parent=$(basename "$(readlink -f $SYS/device)")
case "$parent" in
PRP0001:*) st=0 ;;
*) st=1 ;;
esac
check $st "its parent is the ACPI body device ($parent)"

ls /sys/bus/serial/drivers/dcm-rs485/ 2>/dev/null | grep -q serial
check $? "the RS485 transport is bound to the UART's serdev device"

# answered BOARD SECONDS: the cycles run and BOARD's Acks and Nacks meanwhile,
# in $cyc, $ack and $nack. Under emulation a loaded host slows the VM's
# cycle as well as the host's answers: the counts are taken against the
# cycles that ran, not the clock. The cycles' window holds the counts'
# window, and reading the files takes a few cycles of it.
# The cycles are counted twice, however slow the reads are: cyc inside the
# window of the board's counters (every cycle counted had its Ack or Nack
# counted too: for "at least"), cyc_all around it (every answer counted
# came in a cycle counted: for "at most").
answered() {
	o1=$(cat $SYS/stats/cycles)
	a1=$(cat $DEV/$1/Ack)
	n1=$(cat $DEV/$1/Nack)
	c1=$(cat $SYS/stats/cycles)
	sleep "$2"
	cyc=$(($(cat $SYS/stats/cycles) - c1))
	ack=$(($(cat $DEV/$1/Ack) - a1))
	nack=$(($(cat $DEV/$1/Nack) - n1))
	cyc_all=$(($(cat $SYS/stats/cycles) - o1))
}

# most A B: A is at least 2/3 of B, and B is some cycles. Unless the
# checks of timing are asserted (DCM_TIMING_CHECKS=1, dcm_tap.sh), only
# A > 0 (the boards answer): whether the host's answer lands in the cycle's
# reply window is a matter of timing on a slowed kernel (a third to a half
# of the answers come late) and on a host busy with other work.
most() {
	[ "$2" -ge 20 ] || return 1
	if [ "$timing" != 1 ]; then
		[ "$1" -gt 0 ]
	else
		[ $(($1 * 3)) -ge $(($2 * 2)) ]
	fi
}

# chain_is RESULT: ChainResult, in $chain, reads RESULT.
chain_is() {
	chain=$(cat $DEV/ChestBoard/ChainResult 2>/dev/null)
	[ "$chain" = "$1" ]
}

# chain_wait RESULT: wait up to 10 s for ChainResult to read RESULT.
chain_wait() {
	wait_until 10 chain_is "$1"
}

chain_wait "RS485-1 5/5"
st=$?
check $st "chaining over the UART found the bus's boards ('$chain')"
[ $st = 0 ] || dmesg | grep -i 'chain\|rs485' | sed 's/^/# /'


bid=$(cat $DEV/LeftArmBoard/Bid 2>/dev/null)
[ "$bid" = 3 ]
check $? "each motor board has the Bid chaining gave it (LeftArmBoard $bid)"

answered HeadBoard 1
most $ack $cyc
check $? "the boards behind the UART answer the cycles (Ack +$ack in $cyc cycles)"

echo 1 >$SUB/HeadYaw/Hardness/Actuator/Value
echo 0.5 >$SUB/HeadYaw/Position/Actuator/Value
sleep 1
wait_until 10 holds 'near "$(cat $SUB/HeadYaw/Position/Sensor/Value)" 0.5 0.005'
pos=$(cat $SUB/HeadYaw/Position/Sensor/Value)
near "$pos" 0.5 0.005
check $? "a joint commanded to 0.5 rad over the UART reads $pos"

echo -0.8 >$SUB/HeadYaw/Position/Actuator/Value
sleep 1
wait_until 10 holds 'near "$(cat $SUB/HeadYaw/Position/Sensor/Value)" -0.8 0.005'
pos=$(cat $SUB/HeadYaw/Position/Sensor/Value)
near "$pos" -0.8 0.005
check $? "and back to -0.8 rad reads $pos"

diag=$(dcmctl special diagnostic 2>&1)
echo "$diag" | grep -q 'ChestBoard.*absent' &&
	echo "$diag" | grep -q 'InertialSensor.*absent' &&
	echo "$diag" | grep -q 'RightFootBoard.*absent'
check $? "the boards of the buses the body lacks are absent"
# ok once its recent exchanges were answered: the host's answers miss the
# reply window when the host is busy (a burst of Nacks: lost, then ok
# again); waited for, and only a check of timing when it does not come.
wait_until 10 holds 'dcmctl special diagnostic 2>&1 | grep -q "^ *HeadBoard .*ok"'
st=$?
diag=$(dcmctl special diagnostic 2>&1)
if [ $st != 0 ] && [ "$timing" != 1 ]; then
	echo "$diag" | grep -Eq '^ *HeadBoard .* ack [1-9]'
	st=$?
	check $st "and those of RS485-1 answer (not ok: the host; the diagnostic below)"
else
	check $st "and those of RS485-1 are ok"
fi
echo "$diag" | grep -q '^ *HeadBoard .*ok' || echo "$diag" | sed 's/^/# /'

# A silenced board: its Nacks, the event, the others unharmed.
# Every Nack event until the board's is seen (boards the busy host answers
# late post theirs too: no count of events).
dcmctl -j events --type nack --timeout $((120 * slow)) >/tmp/nack.json 2>&1 &
ev=$!
sleep "$(scaled 0.5)"
ans=$(boardsim "silent 3 on")
case "$ans" in
ok*) st=0 ;;
*) st=1 ;;
esac
check $st "the host board simulator silences Bid 3 ('$ans')"
sleep 0.2
answered LeftArmBoard 1
[ "$cyc" -ge 20 ] && [ "$ack" = 0 ] && [ $(((nack + 5) * 10)) -ge $((cyc * 9)) ]
check $? "the silent board gets a Nack in (nearly) every cycle (+$nack, +$ack Acks in $cyc cycles)"
answered HeadBoard 1
most $ack $cyc
check $? "while its neighbours answer (HeadBoard Ack +$ack in $cyc cycles)"
wait_until 20 grep -q '"device":"LeftArmBoard"' /tmp/nack.json
kill $ev 2>/dev/null
wait $ev
grep -q '"device":"LeftArmBoard"' /tmp/nack.json
check $? "its Nacks are an event: $(grep LeftArmBoard /tmp/nack.json | head -c 200)"
dcmctl special diagnostic 2>&1 | grep -q 'LeftArmBoard.*lost'
check $? "the diagnostic says it is lost"

boardsim "silent 3 off" >/dev/null
sleep 0.5
answered LeftArmBoard 1
most $ack $cyc
check $? "back on, it answers again (Ack +$ack in $cyc cycles)"

# The transport unbound while the cycle runs: its boards are lost, the
# cycle goes on; bound again, the bus is chained again and answers.
line=$(basename "$(ls -d /sys/bus/serial/drivers/dcm-rs485/serial* | head -n 1)")
echo "$line" >/sys/bus/serial/drivers/dcm-rs485/unbind
check $? "the RS485 transport ($line) unbinds while the cycle runs"
answered HeadBoard 1
[ "$cyc" -ge 20 ] && [ "$ack" = 0 ] && [ $(((nack + 5) * 10)) -ge $((cyc * 9)) ]
check $? "its boards get a Nack in (nearly) every cycle (+$nack in $cyc cycles)"
dcmctl special diagnostic 2>&1 | grep -q '^ *HeadBoard .*lost'
check $? "and are lost"
echo "$line" >/sys/bus/serial/drivers/dcm-rs485/bind
check $? "the transport binds again"
sleep 1.5
answered HeadBoard 1
most $ack $cyc
check $? "the exchange resumes (Ack +$ack in $cyc cycles)"
chain_wait "RS485-1 5/5"
check $? "after chaining the bus again ($chain)"
echo 0.3 >$SUB/HeadYaw/Position/Actuator/Value
sleep 1
wait_until 10 holds 'near "$(cat $SUB/HeadYaw/Position/Sensor/Value)" 0.3 0.005'
pos=$(cat $SUB/HeadYaw/Position/Sensor/Value)
near "$pos" 0.3 0.005
check $? "and a joint follows its command again ($pos)"

# Under emulation the host's answer can miss the reply window now and
# then (and a late one fills the next window's start): a Nack, never a
# stalled cycle.
answered HeadBoard 2
most $ack $cyc && [ $((ack + nack)) -le $((cyc_all + 2)) ]
check $? "most cycles answered once running (+$ack Acks, +$nack Nacks in $cyc to $cyc_all cycles)"

totals
