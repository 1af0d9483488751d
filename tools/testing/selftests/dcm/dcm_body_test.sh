#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# dcm_body_test.sh: the simulated body under the real cycle, in the VM, with
# the default robot description (dcmd loads it at boot): every board of
# Device.xml answers, every sensor key moves as the simulated physics says
# and every actuator reaches its board: the motor, hand and foot boards over
# the RS485 buses, the chest board, battery and ultrasound board on
# I2C-chest, the face, ear, head touch and head boards on I2C-head (I2C
# transport), the inertial board on SPI-chest (SPI transport), and the
# faults dcm_sim injects (debugfs dcm_sim/, Documentation/dcm/simulator.rst).
#
# POSIX sh (busybox). Prints TAP and ends with the kselftest Totals line;
# exits 1 if a test failed.

SYS=/sys/class/dcm/dcm0
SUB=$SYS/SubDeviceList
DEV=$SYS/DeviceList
SIM=/sys/kernel/debug/dcm_sim/body0

. "$(dirname "$0")/dcm_tap.sh"



val() {
	cat "$SUB/$1/Value"
}

set_val() {
	echo "$2" >"$SUB/$1/Value"
}

# A key of a subdevice: key SUBDEVICE KEY
key() {
	cat "$SUB/$1/$2"
}

# Field N (from 1) of a line of numbers in a debugfs file: field FILE N
field() {
	awk -v n="$2" '{ print $n; exit }' "$SIM/$1"
}

# awk arithmetic, ten significant digits: calc EXPR (busybox awk: no sin, cos)
calc() {
	awk "BEGIN { printf \"%.10g\\n\", $1 }"
}

if [ ! -d "$DEV/HeadBoard" ] || [ ! -d "$SIM" ]; then
	skip_all "no default description or no dcm_sim"
fi

# 0. Every board of the description answers, every Value can be read.
sleep 0.2
bad=""
nb=0
for d in "$DEV"/*; do
	nb=$((nb + 1))
	[ "$(cat "$d/Nack")" = 0 ] && [ "$(cat "$d/Ack")" -gt 0 ] || bad="$bad $(basename "$d")"
done
[ -z "$bad" ] && [ "$nb" -ge 27 ]
check $? "every board answers, no Nack:${bad:- all $nb boards}"

# The bytes each RS485 bus's cycles put on the line (dcm_sim rs485-N/wire):
# the broadcast, 8 bytes and 8 a board, and a 15-byte reply a board; the
# payload (a board's slot, its reply's FLAGS and data, 21 bytes) is at
# least 80 % of them (Documentation/dcm/wire-protocol.rst, "Budget").
for b in 1 2 3 4; do
	cat "$SIM/rs485-$b/wire" >/tmp/dcm_body_wire.$b
done
sleep 0.3
bad=""
shares=""
for b in 1 2 3 4; do
	r=$(paste /tmp/dcm_body_wire.$b "$SIM/rs485-$b/wire" | awk '
		{ d[$1] = $4 - $2 }
		END {
			c = d["cycles"]
			if (c < 5) { print "none"; exit }
			tx = d["tx_bytes"] / c; rx = d["rx_bytes"] / c; n = (tx - 8) / 8
			ok = rx == 15 * n && 100 * 21 * n >= 80 * (tx + rx)
			printf "%d:%d+%d/%.1f%%%s", n, tx, rx, 2100 * n / (tx + rx), ok ? "" : ":bad"
		}')
	case "$r" in *bad | none) bad="$bad RS485-$b:$r" ;; esac
	shares="$shares RS485-$b:$r"
done
rm -f /tmp/dcm_body_wire.*
[ -z "$bad" ]
check $? "RS485 payload share >= 80 % (boards:bytes out+in/share):${bad:-$shares}"
bad=""
for d in "$DEV"/*; do
	[ "$(cat "$d/Available")" = 1 ] || bad="$bad $(basename "$d")"
done
[ -z "$bad" ] &&
	[ "$(dcmctl get Device/DeviceList/TouchBoard/Available)" = \
		"Device/DeviceList/TouchBoard/Available 1" ] &&
	[ "$(dcmctl get Device/DeviceList/LeftHandTouchBoard/Available)" = \
		"Device/DeviceList/LeftHandTouchBoard/Available 1" ]
check $? "every board's Available key reads 1 (sysfs, dcmctl get):${bad:- all $nb boards}"
bad=0
nvals=0
find "$SUB" -name Value >/tmp/dcm_body_values
while read -r f; do
	nvals=$((nvals + 1))
	cat "$f" >/dev/null 2>&1 || bad=$((bad + 1))
done </tmp/dcm_body_values
rm -f /tmp/dcm_body_values
[ "$bad" = 0 ] && [ "$nvals" -gt 250 ]
check $? "all $nvals Value files read ($bad failed)"

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
# The current is watched in every cycle of the move (a frame a cycle), not
# sampled by the wall clock: the move lasts a few tens of cycles, which a
# slow kernel's reads could fall between.
wcycles=$((100 * slow))
dcmctl watch HeadYaw/ElectricCurrent/Sensor --cycles $wcycles >/tmp/dcm_body_watch 2>&1 &
wpid=$!
i=0
while [ ! -s /tmp/dcm_body_watch ] && [ $i -lt $((100 * slow)) ]; do
	sleep 0.02
	i=$((i + 1))
done
set_val HeadYaw/Position/Actuator -1.5
wait $wpid
cur=$(awk 'NR > 1 { c = $3 < 0 ? -$3 : $3; if (c > m) m = c } END { print m + 0 }' /tmp/dcm_body_watch)
rm -f /tmp/dcm_body_watch
above "$cur" 0.1
check $? "a moving joint draws current (at most $cur A over $wcycles cycles)"
sleep 1
set_val HeadPitch/Hardness/Actuator 0
before=$(val HeadPitch/Position/Sensor)
set_val HeadPitch/Position/Actuator 0.4
sleep 0.5
after=$(val HeadPitch/Position/Sensor)
[ "$before" = "$after" ]
check $? "with hardness 0 a joint stays ($before -> $after)"

# 2a. The hands are apertures, 0 closed to 1 open: each follows a command
# ramped over 1 s (times the slowdown: its middle is sampled by the wall
# clock) under hardness 0.8, to 0.7 then 0.2 (dcmctl, libdcm).
ramp_ms=$((1000 * slow))
hands_at() {
	l=$(val LHand/Position/Sensor)
	r=$(val RHand/Position/Sensor)
	near "$l" "$1" 0.02 && near "$r" "$1" 0.02
}
hands_to() {
	for h in LHand RHand; do
		dcmctl set $h/Position/Actuator "$1" --in $ramp_ms >/dev/null || return 1
	done
	sleep "$(scaled 0.5)"
	mid_l=$(val LHand/Position/Sensor)
	sleep "$(scaled 0.5)"
	wait_until 20 hands_at "$1"
}
dcmctl set LHand/Hardness/Actuator 0.8 >/dev/null &&
	dcmctl set RHand/Hardness/Actuator 0.8 >/dev/null
check $? "dcmctl sets the hands' hardness to 0.8"
hands_to 0.7
check $? "hands commanded to 0.7 over $ramp_ms ms read $l, $r"
# A sample at a wall-clock time of a ramp the kernel runs by its own clock:
# a host that stalls the VM moves it (timing).
skip_timing "halfway through the ramp the left hand is on its way ($mid_l)" || {
	awk -v m="$mid_l" 'BEGIN { exit !(m > 0.1 && m < 0.65) }'
	check $? "halfway through the ramp the left hand is on its way ($mid_l)"
}
hands_to 0.2
check $? "hands commanded to 0.2 over $ramp_ms ms read $l, $r"
dcmctl set LHand/Hardness/Actuator 0 >/dev/null &&
	dcmctl set LHand/Position/Actuator 0.9 >/dev/null
sleep 0.5
l2=$(val LHand/Position/Sensor)
near "$l2" "$l" 0.005
check $? "with hardness 0 a hand stays ($l -> $l2)"

# 2b. Chaining at start-up: every RS485 board got its Bid, in order, and
# the motor boards' identity keys read what they said.
cr=$(cat $DEV/ChestBoard/ChainResult)
[ "$cr" = "RS485-1 5/5; RS485-2 4/4; RS485-3 5/5; RS485-4 5/5" ]
check $? "ChainResult: $cr"
[ "$(cat $DEV/HeadBoard/Bid)" = 1 ] && [ "$(cat $DEV/LeftHandBoard/Bid)" = 4 ] &&
	[ "$(cat $DEV/RightShinBoard/Bid)" = 4 ]
check $? "motor boards have their Bids by their place on the bus"
id1=$(cat $DEV/HeadBoard/BoardId)
id2=$(cat $DEV/LeftShoulderBoard/BoardId)
[ "$id1" != 0 ] && [ "$id1" != "$id2" ] && [ "$(cat $DEV/HeadBoard/ProgVersion)" != 0 ] &&
	[ "$(cat $DEV/HeadBoard/StructVersion)" = 1 ]
check $? "read back: BoardId $id1 / $id2, ProgVersion $(cat $DEV/HeadBoard/ProgVersion)"
cf=$(cat $SIM/rs485-1/configured)
[ "$cf" = 0x0000000f ]
check $? "the four motor boards of RS485-1 took their configuration ($cf)"

# 3. The boards answer: Ack counts, Nack does not.
a1=$(cat $DEV/HeadBoard/Ack)
c1=$(cat $DEV/ChestBoard/Ack)
sleep 0.3
a2=$(cat $DEV/HeadBoard/Ack)
c2=$(cat $DEV/ChestBoard/Ack)
[ $((a2 - a1)) -ge 20 ] && [ $((c2 - c1)) -ge 20 ] && [ "$(cat $DEV/HeadBoard/Nack)" = 0 ]
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
n1=$(cat $DEV/HeadBoard/Nack)
echo 1 >$SIM/rs485-1/silent
sleep 0.5
# 30 Nacks (50 cycles in the 0.5 s on an idle host), however long they take.
wait_until 10 holds '[ $(($(cat $DEV/HeadBoard/Nack) - n1)) -ge 30 ]'
n2=$(cat $DEV/HeadBoard/Nack)
c2=$(cat $SYS/stats/cycles)
o2=$(cat $SYS/stats/overruns)
err=$(cat $DEV/HeadBoard/Error)
echo 0 >$SIM/rs485-1/silent
[ $((n2 - n1)) -ge 30 ] && echo "$err" | grep -q " 7 no answer"
check $? "a silent board counts Nacks (+$((n2 - n1))) and lists: $err"
skip_timing "the cycle kept its period with a silent board ($((c2 - c1)) cycles in 0.5 s, $((o2 - o1)) overruns)" || {
	[ $((c2 - c1)) -ge 40 ] && [ $((o2 - o1)) -le 2 ]
	check $? "the cycle kept its period ($((c2 - c1)) cycles in 0.5 s, $((o2 - o1)) overruns)"
}

# 7. Corrupted replies: Nack and "malformed answer".
n1=$(cat $DEV/RightShoulderBoard/Nack)
echo 1000000 >$SIM/rs485-2/crc_ppm
sleep 0.3
wait_until 10 holds '[ $(($(cat $DEV/RightShoulderBoard/Nack) - n1)) -ge 20 ]'
echo 0 >$SIM/rs485-2/crc_ppm
n2=$(cat $DEV/RightShoulderBoard/Nack)
[ $((n2 - n1)) -ge 20 ] && grep -q " 7 malformed answer" $DEV/RightShoulderBoard/Error
check $? "replies with a bad CRC count Nacks (+$((n2 - n1))) and are listed"

# 8. An MRE fault: the board cuts its control loop and says so.
set_val LShoulderPitch/Hardness/Actuator 1
echo 2 >$SIM/rs485-1/mre_fault
before=$(val LShoulderPitch/Position/Sensor)
set_val LShoulderPitch/Position/Actuator 1.0
sleep 0.5
wait_until 10 grep -q " 6 MOTOR1_NOT_ASSERV_BECAUSE_MRE" $DEV/LeftShoulderBoard/Error
after=$(val LShoulderPitch/Position/Sensor)
echo 0 >$SIM/rs485-1/mre_fault
[ "$before" = "$after" ] && grep -q " 6 MOTOR1_NOT_ASSERV_BECAUSE_MRE" $DEV/LeftShoulderBoard/Error
check $? "an MRE fault stops the joint and lists: $(head -1 $DEV/LeftShoulderBoard/Error)"

# 9. Over-temperature: 80 degC, status 2, an error of level 5.
echo 1 >$SIM/rs485-3/hot
wait_until 10 holds '[ "$(cat $SUB/LHipYawPitch/Temperature/Sensor/Status)" = 2 ] &&
	grep -q " 5 TEMPERATURE" $DEV/LeftPelvisBoard/Error'
t=$(val LHipYawPitch/Temperature/Sensor)
s=$(cat $SUB/LHipYawPitch/Temperature/Sensor/Status)
echo 0 >$SIM/rs485-3/hot
above "$t" 79 && [ "$s" = 2 ] && grep -q " 5 TEMPERATURE" $DEV/LeftPelvisBoard/Error
check $? "an overheated motor reads $t degC, status $s, and its board lists it"

# 10. A slow bus: the cycle goes on (80 cycles, however long the host takes
# to run them), at its period on an idle host (a timing check).
c1=$(cat $SYS/stats/cycles)
echo 2000 >$SIM/rs485-4/delay_us
sleep 1
c2=$(cat $SYS/stats/cycles)
wait_until 20 holds '[ $(cat $SYS/stats/cycles) -ge $((c1 + 80)) ]'
st=$?
echo 0 >$SIM/rs485-4/delay_us
check $st "a bus 2 ms slower: the cycle goes on ($((c2 - c1)) cycles in 1 s)"
skip_timing "a bus 2 ms slower leaves the cycle at its period ($((c2 - c1)) cycles in 1 s)" || {
	[ $((c2 - c1)) -ge 80 ]
	check $? "a bus 2 ms slower leaves the cycle at its period ($((c2 - c1)) cycles in 1 s)"
}

# 11. The inertial board (SPI) of a robot standing still: gravity on -Z,
# no rotation, the old gyrometer at its zero-rate count (seed 000: "around
# -2000").
g=9.80665
ax=$(val InertialSensor/AccelerometerX/Sensor)
ay=$(val InertialSensor/AccelerometerY/Sensor)
az=$(val InertialSensor/AccelerometerZ/Sensor)
near "$ax" 0 0.02 && near "$ay" 0 0.02 && near "$az" -$g 0.02
check $? "at rest the accelerometer reads ($ax, $ay, $az) m/s2"
ok=0
for k in AngleX AngleY GyroscopeX GyroscopeY GyroscopeZ; do
	near "$(val InertialSensor/$k/Sensor)" 0 0.001 || ok=1
done
oz=$(val InertialSensor/AccZ/Sensor)
ref=$(val InertialSensor/GyrRef/Sensor)
gx0=$(val InertialSensor/GyrX/Sensor)
gy0=$(val InertialSensor/GyrY/Sensor)
near "$(val InertialSensor/AccX/Sensor)" 0 1 && near "$(val InertialSensor/AccY/Sensor)" 0 1 &&
	near "$oz" -56 1 && near "$ref" -2000 100 && near "$gx0" "$ref" 30 && near "$gy0" "$ref" 30
check $((ok | $?)) "at rest: angles and rates 0, AccZ $oz (g ~ 56), GyrRef $ref, GyrX $gx0, GyrY $gy0"

# 12. Tilted: roll 0.2 rad, pitch -0.3 rad; a = g (sin p, -cos p sin r, -cos p cos r)
# with sin -0.3 = -0.29552021, cos -0.3 = 0.95533649, sin 0.2 = 0.19866933,
# cos 0.2 = 0.98006658.
echo 200 >$SIM/imu/angle_x
echo -300 >$SIM/imu/angle_y
sleep 0.1
ex=$(calc "$g * -0.29552021")
ey=$(calc "-$g * 0.95533649 * 0.19866933")
ez=$(calc "-$g * 0.95533649 * 0.98006658")
ax=$(val InertialSensor/AccelerometerX/Sensor)
ay=$(val InertialSensor/AccelerometerY/Sensor)
az=$(val InertialSensor/AccelerometerZ/Sensor)
near "$ax" "$ex" 0.02 && near "$ay" "$ey" 0.02 && near "$az" "$ez" 0.02 &&
	near "$(val InertialSensor/AngleX/Sensor)" 0.2 0.0002 &&
	near "$(val InertialSensor/AngleY/Sensor)" -0.3 0.0002
check $? "tilted (0.2, -0.3) rad: angles follow, a = ($ax, $ay, $az) for ($ex, $ey, $ez)"
ox=$(val InertialSensor/AccX/Sensor)
oy=$(val InertialSensor/AccY/Sensor)
oz=$(val InertialSensor/AccZ/Sensor)
near "$ox" "$(calc "56 * $ex / $g")" 1 && near "$oy" "$(calc "56 * $ey / $g")" 1 &&
	near "$oz" "$(calc "56 * $ez / $g")" 1
check $? "tilted: the old accelerometer agrees, ($ox, $oy, $oz) at 56 per g"
echo 0 >$SIM/imu/angle_x
echo 0 >$SIM/imu/angle_y

# 13. Turning: rates read on the gyrometers; the yaw angle integrates its rate.
echo 0 >$SIM/imu/angle_z
echo 500 >$SIM/imu/rate_z
echo 100 >$SIM/imu/rate_x
sleep 0.5
wz=$(val InertialSensor/GyroscopeZ/Sensor)
wx=$(val InertialSensor/GyroscopeX/Sensor)
gx=$(val InertialSensor/GyrX/Sensor)
gz=$(val InertialSensor/GyrZ/Sensor)
yaw=$(val InertialSensor/AngleZ/Sensor)
echo 0 >$SIM/imu/rate_z
echo 0 >$SIM/imu/rate_x
echo 0 >$SIM/imu/angle_x
echo 0 >$SIM/imu/angle_z
near "$wz" 0.5 0.001 && near "$wx" 0.1 0.001 && above "$yaw" 0.2 &&
	near "$(calc "$gx - $gx0")" "$(calc "2.7 * 0.1 * 180 / 3.14159265")" 1
check $? "turning: rates ($wx, $wz) rad/s, yaw $yaw rad after 0.5 s, GyrX $gx0 -> $gx (2.7 per deg/s)"
near "$gz" 0.5 0.001
check $? "turning: GyrZ, the old name of the Z rate, reads $gz rad/s"

# 14. A silent inertial board: the master's CRC check fails, Nack, listed.
# Its Available key (NAOqi 1.14) goes to 0 while it is lost, back to 1 after.
n1=$(cat $DEV/InertialSensor/Nack)
av1=$(cat $DEV/InertialSensor/Available)
echo Y >$SIM/imu/silent
sleep 0.3
av0=$(cat $DEV/InertialSensor/Available)
echo N >$SIM/imu/silent
n2=$(cat $DEV/InertialSensor/Nack)
[ $((n2 - n1)) -ge 20 ] && grep -q " 7 malformed answer" $DEV/InertialSensor/Error
check $? "a silent inertial board counts Nacks (+$((n2 - n1))) and is listed"
available() {
	[ "$(cat $DEV/$1/Available)" = 1 ]
}
wait_until 2 available InertialSensor
av2=$?
[ "$av1" = 1 ] && [ "$av0" = 0 ] && [ $av2 = 0 ]
check $? "InertialSensor/Available: $av1, silent $av0, answering again $(cat $DEV/InertialSensor/Available)"

# 15. Sonar, single capture: the receiver bit chooses the echo list.
echo "120 40" >$SIM/sonar/left
echo 75 >$SIM/sonar/right
r=""
for m in 0 1 2 3; do
	set_val US/Actuator $m
	sleep "$(scaled 0.1)"
	r="$r $(val US/Sensor)"
done
[ "$r" = " 0.400000 0.750000 0.400000 0.750000" ]
check $? "single captures, modes 0-3, read the receiver's first echo:$r"

# 16. Sonar, dual capture: ten echoes per receiver, cm -> m, 2.55 no echo.
echo "40 120" >$SIM/sonar/left
set_val US/Actuator 4
sleep 0.1
l="$(val US/Left/Sensor)"
for i in 1 2 3 4 5 6 7 8 9; do
	l="$l $(key US/Left/Sensor Value$i)"
done
r="$(val US/Right/Sensor)"
for i in 1 2 3 4 5 6 7 8 9; do
	r="$r $(key US/Right/Sensor Value$i)"
done
nine=" 2.550000 2.550000 2.550000 2.550000 2.550000 2.550000 2.550000 2.550000 2.550000"
[ "$l" = "0.400000 1.200000${nine#" 2.550000"}" ] && [ "$r" = "0.750000$nine" ]
check $? "a dual capture fills Left ($l) and Right ($r)"
echo 0 >$SIM/sonar/left
echo "" >$SIM/sonar/right
set_val US/Actuator 12
sleep 0.1
[ "$(val US/Left/Sensor)" = 0.000000 ] && [ "$(val US/Right/Sensor)" = 2.550000 ]
check $? "both transmitters, dual: a sensor error reads 0, nothing in sight 2.55"

# 17. A step actuator: one command, one capture; periodic captures every 100 ms.
echo 60 >$SIM/sonar/left
c1=$(field sonar/state 8)
sleep 0.3
c2=$(field sonar/state 8)
[ "$c1" = "$c2" ] && [ "$(val US/Left/Sensor)" = 0.000000 ]
check $? "without a new command the board captures nothing ($c1 -> $c2 captures)"
set_val US/Actuator 68
sleep 0.2
c1=$(field sonar/state 8)
u1=$(cut -d' ' -f1 /proc/uptime)
sleep 1
c2=$(field sonar/state 8)
u2=$(cut -d' ' -f1 /proc/uptime)
echo 90 >$SIM/sonar/left
sleep 0.2
l=$(val US/Left/Sensor)
near $((c2 - c1)) "$(calc "($u2 - $u1) * 10")" 2 && [ "$l" = 0.900000 ]
check $? "periodic mode 68: $((c2 - c1)) captures in $(calc "$u2 - $u1") s, a new obstacle reads $l m"
set_val US/Actuator 4
sleep 0.2
c1=$(field sonar/state 8)
sleep 0.5
c2=$(field sonar/state 8)
st=$(field sonar/state 4)
[ "$c1" = "$c2" ] && [ $((st & 2)) = 0 ]
check $? "a command without bit 6 stops the periodic captures (status $st)"
set_val US/Actuator 16
sleep 0.1
st=$(field sonar/state 4)
mode=$(field sonar/state 2)
[ $((st & 4)) = 4 ] && [ "$mode" = 4 ]
check $? "the board refuses mode 16 (status $st) and keeps mode $mode"
echo "" >$SIM/sonar/left

# 18. Touch pads: head (I2C), hands (RS485).
echo 5 >$SIM/head/touch
echo 2 >$SIM/hands/lhand/touch
echo 7 >$SIM/hands/rhand/touch
sleep 0.1
t="$(val Head/Touch/Front/Sensor) $(val Head/Touch/Middle/Sensor) $(val Head/Touch/Rear/Sensor)"
t="$t $(val LHand/Touch/Back/Sensor) $(val LHand/Touch/Left/Sensor) $(val LHand/Touch/Right/Sensor)"
t="$t $(val RHand/Touch/Back/Sensor) $(val RHand/Touch/Left/Sensor) $(val RHand/Touch/Right/Sensor)"
echo 0 >$SIM/head/touch
echo 0 >$SIM/hands/lhand/touch
echo 0 >$SIM/hands/rhand/touch
sleep 0.1
t0="$(val Head/Touch/Front/Sensor) $(val LHand/Touch/Left/Sensor) $(val RHand/Touch/Back/Sensor)"
[ "$t" = "1.000000 0.000000 1.000000 0.000000 1.000000 0.000000 1.000000 1.000000 1.000000" ] &&
	[ "$t0" = "0.000000 0.000000 0.000000" ]
check $? "touched pads read 1.0, the others 0.0: $t"

# 19. Bumpers (foot boards, RS485).
echo 1 >$SIM/feet/lfoot/bumpers
echo 2 >$SIM/feet/rfoot/bumpers
sleep 0.1
b="$(val LFoot/Bumper/Left/Sensor) $(val LFoot/Bumper/Right/Sensor)"
b="$b $(val RFoot/Bumper/Left/Sensor) $(val RFoot/Bumper/Right/Sensor)"
echo 0 >$SIM/feet/lfoot/bumpers
echo 0 >$SIM/feet/rfoot/bumpers
sleep 0.1
b0="$(val LFoot/Bumper/Left/Sensor) $(val RFoot/Bumper/Right/Sensor)"
[ "$b" = "1.000000 0.000000 0.000000 1.000000" ] && [ "$b0" = "0.000000 0.000000" ]
check $? "a pressed bumper reads 1.0 ($b), released 0.0"

# 20. FSRs: the robot's weight on the feet in the stance, each FSR's count
# calibrated by its Gain and Offset; TotalWeight and CenterOfPressure as the
# DCM derives them from the four FSRs and their positions.
FSRS="FrontLeft FrontRight RearLeft RearRight"

# foot_check FOOT FOOTDIR: prints "total copx copy" and fails on an inconsistency.
foot_check() {
	i=0
	sum=0
	sx=0
	sy=0
	ok=0
	for c in $FSRS; do
		i=$((i + 1))
		s="$1/FSR/$c/Sensor"
		w=$(val "$s")
		cnt=$(field "feet/$2/fsr" $i)
		near "$w" "$(calc "$cnt * $(key "$s" Gain) + $(key "$s" Offset)")" 0.000002 || ok=1
		if above "$w" 0; then
			sum=$(calc "$sum + $w")
			sx=$(calc "$sx + $w * $(key "$s" XPosition)")
			sy=$(calc "$sy + $w * $(key "$s" YPosition)")
		fi
	done
	tw=$(val "$1/FSR/TotalWeight/Sensor")
	cx=$(val "$1/FSR/CenterOfPressure/X/Sensor")
	cy=$(val "$1/FSR/CenterOfPressure/Y/Sensor")
	if above "$sum" 0.1; then
		near "$cx" "$(calc "$sx / $sum")" 0.00001 && near "$cy" "$(calc "$sy / $sum")" 0.00001 ||
			ok=1
	else
		[ "$cx" = 0.000000 ] && [ "$cy" = 0.000000 ] || ok=1
	fi
	echo "$tw $cx $cy"
	return $ok
}

feet_in() {
	echo "$1" >$SIM/feet/stance
	sleep 0.1
	lf=$(foot_check LFoot lfoot) && rf=$(foot_check RFoot rfoot)
}

feet_in both
ok=$?
# shellcheck disable=SC2086 # the three numbers, split
near "${lf%% *}" 2.6 0.01 && near "${rf%% *}" 2.6 0.01 && set -- $lf && near "$2" 0 0.0005 &&
	near "$3" 0 0.0005
check $((ok | $?)) "standing on both feet: left $lf, right $rf (kg, m)"
feet_in left
ok=$?
near "${lf%% *}" 5.2 0.01 && above 0.05 "${rf%% *}" && [ "${rf#* }" = "0.000000 0.000000" ]
check $((ok | $?)) "standing on the left foot: left $lf, right $rf"
feet_in right
ok=$?
near "${rf%% *}" 5.2 0.01 && above 0.05 "${lf%% *}" && [ "${lf#* }" = "0.000000 0.000000" ]
check $((ok | $?)) "standing on the right foot: left $lf, right $rf"
feet_in none
ok=$?
above 0.05 "${lf%% *}" && above 0.05 "${rf%% *}" && [ "${lf#* }" = "0.000000 0.000000" ]
check $((ok | $?)) "lifted: left $lf, right $rf"
echo 30 >$SIM/feet/cop_x_mm
echo -10 >$SIM/feet/cop_y_mm
echo 4000 >$SIM/feet/weight_g
feet_in both
ok=$?
# shellcheck disable=SC2086 # six numbers, split
set -- $lf $rf
near "$1" 2.0 0.01 && near "$4" 2.0 0.01 && near "$2" 0.03 0.0005 && near "$3" -0.01 0.0005 &&
	near "$5" 0.03 0.0005 && near "$6" -0.01 0.0005
check $((ok | $?)) "4 kg, pressure at (30, -10) mm: left $lf, right $rf"
echo 0 >$SIM/feet/cop_x_mm
echo 0 >$SIM/feet/cop_y_mm
echo 5200 >$SIM/feet/weight_g

# 21. LEDs reach their boards at their resolution; Value reads back the
# level the board holds, level / levels (asked values avoid rounding ties):
# led SUBDEVICE VALUE DEBUGFS-FILE FIELD LEVELS
led() {
	set_val "$1" "$2"
	sleep 0.1
	want=$(calc "int($2 * $5 + 0.5)")
	held=$(field "$3" "$4")
	got=$(val "$1")
	leds="$leds $held"
	[ "$held" = "$want" ] && near "$got" "$(calc "$held / $5")" 0.000001
}

leds=""
led Face/Led/Red/Left/0Deg/Actuator 0.6 head/face_leds 1 63 &&
	led Face/Led/Blue/Right/315Deg/Actuator 1 head/face_leds 48 63 &&
	led Face/Led/Green/Right/90Deg/Actuator 0.25 head/face_leds 27 63
check $? "eye LEDs held as$leds of 63"
leds=""
led Ears/Led/Left/0Deg/Actuator 0.4 head/ear_leds 1 15 &&
	led Ears/Led/Left/36Deg/Actuator 0.2 head/ear_leds 2 15 &&
	led Ears/Led/Right/324Deg/Actuator 1 head/ear_leds 20 15
check $? "ear LEDs held as$leds of 15"
leds=""
led Head/Led/Front/Left/0/Actuator 0.6 head/touch_leds 1 15 &&
	led Head/Led/Rear/Right/2/Actuator 1 head/touch_leds 12 15
check $? "head LEDs held as$leds of 15"
leds=""
led LFoot/Led/Green/Actuator 0.4 feet/lfoot/led 2 255 &&
	led RFoot/Led/Red/Actuator 1 feet/rfoot/led 1 255 &&
	led RFoot/Led/Blue/Actuator 0.2 feet/rfoot/led 3 255
check $? "foot LEDs held as$leds of 255"
leds=""
led ChestBoard/Led/Blue/Actuator 0.35 chest/leds 3 255 &&
	led ChestBoard/Led/Red/Actuator 0.8 chest/leds 1 255
check $? "chest LEDs held as$leds of 255"

# 22. The head CPU's temperature (head board, I2C-head): plausible, and
# rising under load.
t0=$(val Head/Temperature/Sensor)
near "$t0" "$(calc "$(cat $SIM/head/cpu_temp_mc) / 1000")" 0.5 && above "$t0" 30 && above 90 "$t0"
check $? "the head CPU reads $t0 degC"
echo 100 >$SIM/head/cpu_load
sleep 1
t1=$(val Head/Temperature/Sensor)
echo 25 >$SIM/head/cpu_load
above "$t1" "$t0"
check $? "under full load the CPU warms: $t0 -> $t1 degC"

# 23. The boards of the head and the chest, and the feet and hands, answered
# every cycle of all this (RightHandTouchBoard shares RS485-2 with the corrupted
# replies of 7).
bad=""
for d in USBoard InertialSensor HeadCPU FaceBoard EarLeds TouchBoard LeftFootBoard RightFootBoard \
	LeftHandTouchBoard; do
	nk=$(cat "$DEV/$d/Nack")
	[ "$d" = InertialSensor ] && nk=$((nk - n2 + n1))
	[ "$nk" = 0 ] || bad="$bad $d:$nk"
done
[ -z "$bad" ]
check $? "no Nack outside the injected faults:${bad:- none}"

totals
