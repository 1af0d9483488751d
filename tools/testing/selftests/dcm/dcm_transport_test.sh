#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# dcm_transport_test.sh: transports that go while the cycle runs, and come
# back, in the VM with the default description (dcmd loads it at boot).
# The inertial board's spi_device unbound from the dcm-spi driver takes
# the SPI controller's transport: InertialSensor Nacks and is lost (the
# diagnostic, a nack event), the kernel says the bus's transport is gone;
# bound again, it answers. The same with the I2C-chest boards' i2c_clients
# on the dcm-i2c driver: all of them (the adapter's transport goes:
# ChestBoard, Battery and USBoard are lost), then one (only that board
# Nacks). After each rebind the robot is as before: every board ok, the
# safety factors whole.
#
# POSIX sh (busybox). Prints TAP and ends with the kselftest Totals line;
# exits 1 if a test failed.

SYS=/sys/class/dcm/dcm0
DEV=$SYS/DeviceList
SPI=/sys/bus/spi/drivers/dcm-spi
I2C=/sys/bus/i2c/drivers/dcm-i2c
T=/tmp/dcm_transport_test

. "$(dirname "$0")/dcm_tap.sh"

key() {
	cat "$DEV/$1/$2"
}

# A board's state in the diagnostic: ok, error, lost, absent.
state() {
	dcmctl special diagnostic | awk -v b="$1" '$1 == b { print $5 }'
}

# is_state STATE BOARD...: every BOARD is in STATE.
is_state() {
	s=$1
	shift
	dcmctl special diagnostic >"$T/diag" || return 1
	for b in "$@"; do
		[ "$(awk -v b="$b" '$1 == b { print $5 }' "$T/diag")" = "$s" ] || return 1
	done
}

all_ok() {
	dcmctl special diagnostic | head -n 1 | grep -q ' 27 ok, 0 error, 0 lost, 0 absent'
}

safety() {
	echo "$(cat $SYS/safety/fault_scale) $(cat $SYS/safety/battery_scale)"
}

# Kernel log lines "bus NAME: its transport X is gone" so far.
gone() {
	dmesg | grep -c "dcm0: bus $1: its transport .* is gone"
}

# ev TYPE DEVICE: the events of that type about that board.
ev() {
	grep "\"type\":\"$1\"" "$T/events" | grep "\"device\":\"$2\""
}

if [ ! -d "$DEV/InertialSensor" ] || [ ! -d "$SPI" ] || [ ! -d "$I2C" ]; then
	skip_all "no default description or no dcm-spi/dcm-i2c driver"
fi
rm -rf "$T"
mkdir -p "$T"

wait_until 3 all_ok
check $? "every board is ok to start with"
# The factors as before are whole ones: a cycle fault of the host's making
# (the guest stalled past 500 ms) may be ramping back when the test starts.
wait_until 3 unfaulted
safe0=$(safety)
[ "$safe0" = "1.000000 1.000000" ]
check $? "no safety rule cuts the stiffness to start with ($safe0)"

dcmctl -j events --timeout $((120 * slow)) >"$T/events" 2>"$T/events.err" &
evpid=$!
sleep 0.5

# 1. The inertial board's spi_device.
spi=
for d in "$SPI"/spi*; do
	grep -q 'nao-inertial-board' "$d/modalias" 2>/dev/null && spi=${d##*/}
done
[ -n "$spi" ]
check $? "the inertial board is ${spi:-not found} on dcm-spi"

g0=$(gone SPI-chest)
a0=$(key InertialSensor Ack)
n0=$(key InertialSensor Nack)
rc=0
echo "$spi" >"$SPI/unbind" || rc=1
check $rc "$spi unbound from dcm-spi"
wait_until 3 is_state lost InertialSensor
check $? "InertialSensor is lost in the diagnostic ($(state InertialSensor))"
a1=$(key InertialSensor Ack)
n1=$(key InertialSensor Nack)
sleep 0.3
wait_until 10 holds '[ "$(key InertialSensor Nack)" -gt "$n1" ]'
[ "$n1" -gt "$n0" ] && [ "$(key InertialSensor Nack)" -gt "$n1" ] &&
	[ "$(key InertialSensor Ack)" = "$a1" ]
check $? "its Nacks grow ($n0 -> $n1 -> $(key InertialSensor Nack)), its Acks stop ($a0 -> $a1)"
[ "$(gone SPI-chest)" = $((g0 + 1)) ]
check $? "the kernel says SPI-chest's transport is gone"
bad=
for b in ChestBoard Battery USBoard HeadCPU HeadBoard; do
	[ "$(state $b)" = ok ] || bad="$bad $b"
done
[ -z "$bad" ]
check $? "the other buses' boards stay ok${bad:+ (not:$bad)}"
wait_until 2 test -n "$(ev nack InertialSensor)"
check $? "a nack event says InertialSensor is lost"

rc=0
echo "$spi" >"$SPI/bind" || rc=1
check $rc "$spi bound again"
a2=$(key InertialSensor Ack)
wait_until 3 is_state ok InertialSensor
a3=$(key InertialSensor Ack)
sleep 0.3
wait_until 10 holds '[ "$(key InertialSensor Ack)" -gt "$a3" ]'
[ "$(key InertialSensor Ack)" -gt "$a3" ] && [ "$a3" -ge "$a2" ]
check $? "InertialSensor answers again, ok (Ack $a2 -> $(key InertialSensor Ack))"
wait_until 2 test -n "$(ev ack InertialSensor)"
check $? "an ack event says it answers again"

# 2. Every I2C-chest board's i2c_client: the adapter's transport goes.
chest=
for d in "$I2C"/*-*; do
	[ "$(cat "$d/name")" = nao-chest-board ] && chest=${d##*/}
done
adap=${chest%%-*}
clients=
for d in "$I2C/$adap"-*; do
	[ -e "$d" ] && clients="$clients ${d##*/}"
done
[ -n "$chest" ] && [ "$(echo "$clients" | wc -w)" = 3 ]
check $? "I2C-chest: adapter i2c-$adap, clients$clients"

g0=$(gone I2C-chest)
nh0=$(key HeadCPU Nack)
bad=
for c in $clients; do
	echo "$c" >"$I2C/unbind" || bad="$bad $c"
done
[ -z "$bad" ]
check $? "its clients unbound from dcm-i2c${bad:+ (failed:$bad)}"
wait_until 3 is_state lost ChestBoard Battery USBoard
check $? "ChestBoard, Battery and USBoard are lost"
n1=$(key Battery Nack)
sleep 0.3
wait_until 10 holds '[ "$(key Battery Nack)" -gt "$n1" ] && [ "$(key ChestBoard Nack)" -gt 0 ] &&
	[ "$(key USBoard Nack)" -gt 0 ]'
[ "$(key Battery Nack)" -gt "$n1" ] && [ "$(key ChestBoard Nack)" -gt 0 ] &&
	[ "$(key USBoard Nack)" -gt 0 ]
check $? "their Nacks grow"
[ "$(gone I2C-chest)" = $((g0 + 1)) ]
check $? "the kernel says I2C-chest's transport is gone"
[ "$(key HeadCPU Nack)" = "$nh0" ] && [ "$(state HeadCPU)" = ok ] &&
	[ "$(state InertialSensor)" = ok ]
check $? "I2C-head and SPI-chest go on"
wait_until 2 test -n "$(ev nack Battery)"
check $? "a nack event says the battery is lost"

bad=
for c in $clients; do
	echo "$c" >"$I2C/bind" || bad="$bad $c"
done
[ -z "$bad" ]
check $? "the clients bound again${bad:+ (failed:$bad)}"
wait_until 3 is_state ok ChestBoard Battery USBoard
check $? "ChestBoard, Battery and USBoard answer again"
wait_until 3 holds '[ "$(safety)" = "$safe0" ]'
check $? "the safety factors are as before ($safe0 -> $(safety))"

# 3. Just the battery's client: only the battery Nacks; the adapter stays.
bat=
for c in $clients; do
	[ "$(cat "$I2C/$c/name")" = nao-battery ] && bat=$c
done
g0=$(gone I2C-chest)
nc0=$(key ChestBoard Nack)
nu0=$(key USBoard Nack)
rc=0
echo "$bat" >"$I2C/unbind" || rc=1
check $rc "the battery's client ${bat:-?} unbound"
wait_until 3 is_state lost Battery
check $? "the battery is lost"
sleep 0.3
[ "$(key ChestBoard Nack)" = "$nc0" ] && [ "$(key USBoard Nack)" = "$nu0" ] &&
	is_state ok ChestBoard USBoard
check $? "ChestBoard and USBoard, on the same adapter, still answer"
[ "$(gone I2C-chest)" = "$g0" ]
check $? "the adapter's transport stays"
rc=0
echo "$bat" >"$I2C/bind" || rc=1
check $rc "the battery's client bound again"
wait_until 3 is_state ok Battery
check $? "the battery answers again"

# 4. All as before.
wait_until 3 all_ok
check $? "every board is ok again: $(dcmctl special diagnostic | head -n 1)"
wait_until 3 holds '[ "$(safety)" = "$safe0" ]'
check $? "the safety factors are as before ($(safety))"
! dmesg | grep -q 'WARNING:\|Oops\|BUG:'
check $? "no kernel warning"

kill "$evpid" 2>/dev/null
wait "$evpid" 2>/dev/null
rm -rf "$T"
totals
