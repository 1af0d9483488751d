#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# dcm_physics_test.sh: the physics body (scripts/dcm-vm --physics):
# dcm-physics on the host steps the rigid-body NAO in lockstep with the
# cycle, "dcm-physics --relay" here carries dcm_sim's link
# (/dev/dcm_sim_body0) to it over the virtio port dcm.physics, and a LoLA
# client (dcm_physics_lola.py, through dcm-lola) stands
# the robot, squats, shifts its weight from one foot to the other and lets
# it fall. Then the fall is among the controller's events, and the flight
# recorder, running all along, wrote a file for it that holds the seconds
# before: the torso's angles leaving upright. A second relay after it has
# the host build the body again, upright.
#
# POSIX sh (busybox). Prints TAP and ends with the kselftest Totals line.

SYS=/sys/class/dcm/dcm0
DIR=$(cd "$(dirname "$0")" && pwd)
LINK=/dev/dcm_sim_body0
SOCK=/tmp/robocup-physics
LOG=/tmp/dcm-lola-physics.log
OUT=/tmp/physics-lola.out
FL=/tmp/physics-flight
lpid=
fpid=

. "$DIR/dcm_tap.sh"

cleanup() {
	[ -n "$lpid" ] && kill "$lpid" 2>/dev/null && wait "$lpid" 2>/dev/null
	[ -n "$fpid" ] && kill "$fpid" 2>/dev/null && wait "$fpid" 2>/dev/null
	rm -f $SOCK $SOCK.status
}
trap cleanup EXIT

[ -c $LINK ] || skip_all "no physics link $LINK (dcm_sim not loaded)"
command -v dcm-physics >/dev/null 2>&1 || skip_all "dcm-physics is not installed"
command -v dcm-lola >/dev/null 2>&1 || skip_all "dcm-lola is not installed"
python3 -c 'import msgpack' 2>/dev/null || skip_all "no python3-msgpack"
[ -d "$SYS/SubDeviceList/LFoot" ] || skip_all "no default description"
# The port appears once the driver has probed it (a function, so that the
# glob is expanded at each try, not once when wait_until is called).
port_up() {
	grep -qsx dcm.physics /sys/class/virtio-ports/*/name
}
# The relay names what is missing: virtio_pci under QEMU's
# virtio-serial-pci, then virtio_console. Then, started before
# virtio_console is loaded, it waits for the port and takes it (the link
# it is given does not exist: it stops there, before any physics).
RELAY_ERR=/tmp/physics-relay-missing.err
# A virtio console on PCI (virtio-serial-pci: 0x1af4, the transitional
# 0x1003 or the modern 0x1043).
console_pci() {
	for _d in /sys/bus/pci/devices/*; do
		grep -qsx 0x1af4 "$_d/vendor" && grep -qsx '0x1003\|0x1043' "$_d/device" && return 0
	done
	return 1
}
if [ ! -d /sys/module/virtio_pci ] && console_pci; then
	dcm-physics --relay dcm.physics --wait 0 2>$RELAY_ERR
	[ $? = 1 ] && grep -q 'virtio_pci is not loaded (modprobe' $RELAY_ERR
	check $? "without virtio_pci the relay names it ($(head -n 1 $RELAY_ERR))"
fi
modprobe virtio_pci 2>/dev/null
if [ ! -d /sys/module/virtio_console ] && grep -qsx 0x0003 /sys/bus/virtio/devices/*/device; then
	dcm-physics --relay dcm.physics --wait 0 2>$RELAY_ERR
	[ $? = 1 ] && grep -q 'virtio_console is not loaded (modprobe' $RELAY_ERR
	check $? "without virtio_console the relay names it ($(head -n 1 $RELAY_ERR))"
	dcm-physics --relay dcm.physics --wait 120 --device /nonexistent/dcm_sim_body0 \
		2>$RELAY_ERR &
	rpid=$!
	wait_until 10 grep -q 'waiting up to 120 s for the port dcm.physics' $RELAY_ERR
	modprobe virtio_console 2>/dev/null
	wait "$rpid"
	grep -q 'waiting up to 120 s' $RELAY_ERR &&
		grep -q '/nonexistent/dcm_sim_body0: No such file or directory' $RELAY_ERR
	check $? "a relay started before virtio_console waits for the port and takes it" \
		"($(tr '\n' ' ' <$RELAY_ERR))"
fi
modprobe virtio_console 2>/dev/null
wait_until 5 port_up ||
	skip_all "no virtio port dcm.physics (the VM runs without scripts/dcm-vm --physics)"

mass=$(dcm-physics --mass)
above "$mass" 4
check $? "dcm-physics --mass: the model weighs $mass kg"

# last_fall: the DCM time of the newest fall the controller kept, 0 for none.
last_fall() {
	dcmctl events --history --type fall --timeout 1 2>/dev/null |
		awk '$3 == "fall" && $4 == "fallen" { t = $2 } END { print t + 0 }'
}

fall0=$(last_fall)
rm -rf $FL
mkdir -p $FL
dcmctl flight --dir $FL --seconds 3 --after 1 >$FL.out 2>$FL.err &
fpid=$!
: >$LOG
dcm-lola -s $SOCK --timeout 3000 2>>$LOG &
lpid=$!
wait_until 5 test -S $SOCK.status
check $? "dcm-lola listens on $SOCK"

python3 "$DIR/dcm_physics_lola.py" --socket $SOCK --mass "$mass" \
	--physics "dcm-physics --relay dcm.physics" >$OUT 2>&1
rc=$?
results $OUT
check $rc "the LoLA client ran to its end"

fall1=$(last_fall)
[ "$fall1" -gt "$fall0" ]
check $? "the fall is an event of the controller (DCM time $fall1 ms)"

# The flight recorder's file of the fall: its reason, the fall's event,
# and rows from before it whose AngleY (or AngleX) was still small.
# A host busy with other work may stall the guest into a cycle fault of
# its own, whose file comes too: the fall's is waited for among them.
fall_file() {
	for _f in $(cat $FL.out); do
		head -n 1 "$_f" | grep -q '"reason":"fall (fallen: ' && echo "$_f" && return 0
	done
	return 1
}
wait_until 5 holds 'fall_file >/dev/null'
f=$(fall_file || tail -n 1 $FL.out)
[ -f "$f" ] && head -n 1 "$f" | grep -q '"reason":"fall (fallen: '
check $? "the flight recorder wrote the fall's file ($f: $(head -c 60 "$f" 2>/dev/null))"
ft=$(grep '"event":' "$f" | grep '"type":"fall"' | grep '"value":1,' |
	sed -n 's/.*"time":\([0-9]*\).*/\1/p' | head -n 1)
before=$(grep '^{"cycle"' "$f" | sed -n 's/.*"time":\([0-9]*\).*/\1/p' |
	awk -v ft="${ft:-0}" '$1 < ft { if (min == "") min = $1 } END { print ft - min }')
[ -n "$ft" ] && [ "${before:-0}" -ge 2000 ]
check $? "it holds the fall's event and the seconds before it ($before ms)"
kill "$fpid" 2>/dev/null
wait "$fpid" 2>/dev/null
fpid=
kill "$lpid" 2>/dev/null
wait "$lpid" 2>/dev/null
lpid=

# A second relay in the same VM run: the host's dcm-physics, whose body
# lies where it fell, builds it again from the joints' posture, upright,
# at the new link's first tick: the torso's pitch back near 0 in the
# cycles that follow, before the limp body can fall again. Every cycle's
# AngleY is recorded (a read of the key after the link attached would come
# late on a busy host, the body fallen again).
AY=$SYS/SubDeviceList/InertialSensor/AngleY/Sensor/Value
ay0=$(cat $AY)
: >/tmp/physics-relay2.csv	# there before the first poll, which the job's redirection may follow
dcmctl record InertialSensor/AngleY/Sensor --duration 120 >/tmp/physics-relay2.csv 2>/dev/null &
cpid=$!
wait_until 5 holds '[ "$(wc -l </tmp/physics-relay2.csv)" -ge 2 ]'
dcm-physics --relay dcm.physics 2>/tmp/physics-relay2.log &
rpid=$!
wait_until 5 grep -qx 'attached 1' /sys/kernel/debug/dcm_sim/body0/link
upright() {
	awk -F, 'NR > 1 && ($5 < 0 ? -$5 : $5) < 0.3 { ok = 1 } END { exit !ok }' \
		/tmp/physics-relay2.csv
}
wait_until 5 upright
ay1=$(awk -F, 'NR > 1 { v = $5 < 0 ? -$5 : $5; if (m == "" || v < m) m = v } END { print m }' \
	/tmp/physics-relay2.csv)
kill "$rpid" "$cpid" 2>/dev/null
wait "$rpid" "$cpid" 2>/dev/null
awk -v a="$ay0" -v b="$ay1" 'BEGIN {
	if (a < 0) a = -a; if (b < 0) b = -b; exit !(a > 0.8 && b < 0.3) }'
check $? "a second relay gets the body built again, upright (AngleY $ay0, then as low as $ay1 rad)"

totals
