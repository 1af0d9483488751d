#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# dcm_body_test.sh: the simulated body under the real cycle, in the VM, with
# the default robot description (dcmd loads it at boot): the motor boards
# over the RS485 buses, the chest board and the battery through the I2C
# transport, and the faults dcm_sim injects (debugfs dcm_sim/).
#
# POSIX sh (busybox). Prints TAP and ends with the kselftest Totals line;
# exits 1 if a test failed.

SYS=/sys/class/dcm/dcm0
SUB=$SYS/SubDeviceList
DEV=$SYS/DeviceList
SIM=/sys/kernel/debug/dcm_sim

n=0
pass=0
fail=0

echo "TAP version 13"

check() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		pass=$((pass + 1))
		echo "ok $n $2"
	else
		fail=$((fail + 1))
		echo "not ok $n $2"
	fi
}

# |a - b| <= tol, three decimal numbers.
near() {
	awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= t) }'
}

# a > b
above() {
	awk -v a="$1" -v b="$2" 'BEGIN { exit !(a > b) }'
}

val() {
	cat "$SUB/$1/Value"
}

set_val() {
	echo "$2" >"$SUB/$1/Value"
}

if [ ! -d "$DEV/NeckBoard" ] || [ ! -d "$SIM" ]; then
	echo "1..0 # SKIP no default description or no dcm_sim"
	echo "# Totals: pass:0 fail:0 xfail:0 xpass:0 skip:1 error:0"
	exit 0
fi

# 1. A joint commanded to an angle reaches it.
set_val HeadYaw/Hardness/Actuator 1
set_val HeadYaw/Position/Actuator 0.5
sleep 1
pos=$(val HeadYaw/Position/Sensor)
near "$pos" 0.5 0.005
check $? "a joint commanded to 0.5 rad reads $pos"
sleep 0.1
cur=$(val HeadYaw/ElectricCurrent/Sensor)
near "$cur" 0 0.05
check $? "a joint at its target draws little current ($cur A)"

# 2. Moving draws current; with hardness 0 the joint does not move.
set_val HeadYaw/Position/Actuator -1.5
sleep 0.05
cur=$(val HeadYaw/ElectricCurrent/Sensor)
above "$cur" 0.1
check $? "a moving joint draws current ($cur A)"
sleep 1
set_val HeadPitch/Hardness/Actuator 0
before=$(val HeadPitch/Position/Sensor)
set_val HeadPitch/Position/Actuator 0.4
sleep 0.5
after=$(val HeadPitch/Position/Sensor)
[ "$before" = "$after" ]
check $? "with hardness 0 a joint stays ($before -> $after)"

# 3. The boards answer: Ack counts, Nack does not.
a1=$(cat $DEV/NeckBoard/Ack)
c1=$(cat $DEV/ChestBoard/Ack)
sleep 0.3
a2=$(cat $DEV/NeckBoard/Ack)
c2=$(cat $DEV/ChestBoard/Ack)
[ $((a2 - a1)) -ge 20 ] && [ $((c2 - c1)) -ge 20 ] && [ "$(cat $DEV/NeckBoard/Nack)" = 0 ]
check $? "motor and chest boards answer every cycle (Ack +$((a2 - a1)), +$((c2 - c1)))"

# 4. The chest button.
echo Y >$SIM/button
sleep 0.1
b1=$(val ChestBoard/Button/Sensor)
echo N >$SIM/button
sleep 0.1
b0=$(val ChestBoard/Button/Sensor)
[ "$b1" = 1.000000 ] && [ "$b0" = 0.000000 ]
check $? "a pressed chest button reads 1.0, released 0.0"

# 5. The battery: current follows the load, status bits follow.
echo 3000 >$SIM/load_ma
sleep 0.5
i=$(val Battery/Current/Sensor)
st=$(cat $SUB/Battery/Charge/Sensor/Status)
above -3.9 "$i" && [ $((st & 32)) = 32 ]
check $? "discharging under load: current $i A, status $st has bit 5"
echo 7000 >$SIM/load_ma
sleep 0.5
st=$(cat $SUB/Battery/Charge/Sensor/Status)
[ $((st & 8192)) = 8192 ]
check $? "over 6 A the status word has bit 13 (status $st)"
echo 0 >$SIM/load_ma
echo Y >$SIM/charging
sleep 0.5
i=$(val Battery/Current/Sensor)
st=$(cat $SUB/Battery/Charge/Sensor/Status)
above "$i" 0 && [ $((st & 128)) = 128 ] && [ $((st & 32768)) = 32768 ]
check $? "plugged: current $i A positive, status $st has bits 7 and 15"
echo N >$SIM/charging

# 6. A silent board: Nack, an error of level 7, the cycle keeps its period.
c1=$(cat $SYS/stats/cycles)
o1=$(cat $SYS/stats/overruns)
n1=$(cat $DEV/NeckBoard/Nack)
echo 1 >$SIM/rs485-1/silent
sleep 0.5
n2=$(cat $DEV/NeckBoard/Nack)
c2=$(cat $SYS/stats/cycles)
o2=$(cat $SYS/stats/overruns)
err=$(cat $DEV/NeckBoard/Error)
echo 0 >$SIM/rs485-1/silent
[ $((n2 - n1)) -ge 30 ] && echo "$err" | grep -q " 7 no answer"
check $? "a silent board counts Nacks (+$((n2 - n1))) and lists: $err"
[ $((c2 - c1)) -ge 40 ] && [ $((o2 - o1)) -le 2 ]
check $? "the cycle kept its period ($((c2 - c1)) cycles in 0.5 s, $((o2 - o1)) overruns)"

# 7. Corrupted replies: Nack and "malformed answer".
n1=$(cat $DEV/RShoulderBoard/Nack)
echo 1000000 >$SIM/rs485-2/crc_ppm
sleep 0.3
echo 0 >$SIM/rs485-2/crc_ppm
n2=$(cat $DEV/RShoulderBoard/Nack)
[ $((n2 - n1)) -ge 20 ] && grep -q " 7 malformed answer" $DEV/RShoulderBoard/Error
check $? "replies with a bad CRC count Nacks (+$((n2 - n1))) and are listed"

# 8. An MRE fault: the board cuts its control loop and says so.
set_val LShoulderPitch/Hardness/Actuator 1
echo 2 >$SIM/rs485-1/mre_fault
before=$(val LShoulderPitch/Position/Sensor)
set_val LShoulderPitch/Position/Actuator 1.0
sleep 0.5
after=$(val LShoulderPitch/Position/Sensor)
echo 0 >$SIM/rs485-1/mre_fault
[ "$before" = "$after" ] && grep -q " 6 MOTOR1_NOT_ASSERV_BECAUSE_MRE" $DEV/LShoulderBoard/Error
check $? "an MRE fault stops the joint and lists: $(head -1 $DEV/LShoulderBoard/Error)"

# 9. Over-temperature: 80 degC, status 2, an error of level 5.
echo 1 >$SIM/rs485-3/hot
sleep 0.3
t=$(val LHipYawPitch/Temperature/Sensor)
s=$(cat $SUB/LHipYawPitch/Temperature/Sensor/Status)
echo 0 >$SIM/rs485-3/hot
above "$t" 79 && [ "$s" = 2 ] && grep -q " 5 TEMPERATURE" $DEV/LPelvisBoard/Error
check $? "an overheated motor reads $t degC, status $s, and its board lists it"

# 10. A slow bus: the cycle keeps its period.
c1=$(cat $SYS/stats/cycles)
echo 2000 >$SIM/rs485-4/delay_us
sleep 1
echo 0 >$SIM/rs485-4/delay_us
c2=$(cat $SYS/stats/cycles)
[ $((c2 - c1)) -ge 80 ]
check $? "a bus 2 ms slower leaves the cycle at its period ($((c2 - c1)) cycles in 1 s)"

echo "1..$n"
echo "# Totals: pass:$pass fail:$fail xfail:0 xpass:0 skip:0 error:0"
[ "$fail" = 0 ]
