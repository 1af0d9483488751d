#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# dcm_configfs_test.sh: a body assembled by hand in configfs
# (/sys/kernel/config/dcm, Documentation/dcm/configfs.rst), in the VM.
#
# dcm_sim is reloaded with two simulated bodies, and the second one's body
# device is unbound from the body driver: its transports (four RS485 lines,
# two I2C adapters, an SPI controller) are then free. A configfs body made
# of them goes live and gets its dcmN, reported as driver dcm-configfs;
# dcmd loads the robot's description into it and every board answers over
# every bus; a transport that goes (the I2C adapter whose board clients
# are unbound) leaves its boards Nacking, and has them answer again when
# it comes back; live=0 removes it. What cannot be is refused with the right
# error and leaves no controller: a transport that does not exist, one
# that dcm0 has, a body without buses, a bus without transport, two buses
# on one transport, names too long, changes to a live body; and rmmod dcm
# while a body is there. At the end the VM is as it was: dcm_sim with one
# body, dcmd running on dcm0.
#
# POSIX sh (busybox). Prints TAP and ends with the kselftest Totals line;
# exits 1 if a test failed.

CFS=/sys/kernel/config/dcm
SIM1=/sys/devices/platform/dcm_sim.1
CLASS=/sys/class/dcm

. "$(dirname "$0")/dcm_tap.sh"

if [ ! -d "$CFS" ] || [ ! -d /sys/kernel/debug/dcm_sim ] ||
	! command -v dcm-sim-reload >/dev/null; then
	skip_all "no configfs subsystem dcm, no dcm_sim or no dcm-sim-reload"
fi

T=$(mktemp -d)

# wr VALUE FILE: write VALUE to FILE; the error text is in $T/err.
wr() {
	(echo "$1" >"$2") 2>"$T/err"
}

# refused VALUE FILE TEXT: writing VALUE to FILE fails, saying TEXT.
refused() {
	! wr "$1" "$2" && grep -q "$3" "$T/err"
}

# The controllers there are, one line.
controllers() {
	for c in "$CLASS"/*; do
		[ -e "$c" ] && printf '%s ' "${c##*/}"
	done
}

# Remove every configfs body.
cleanup() {
	configfs_clear "$CFS"
}

# Back to the VM's usual state: one simulated body, dcmd on dcm0.
restore() {
	cleanup
	dcm-sim-reload 2>"$T/reload.err"
}

# 0. Two simulated bodies; the second one's body released: dcm1 goes, its
# transports stay.
if ! dcm-sim-reload bodies=2 2>"$T/reload.err" || ! wait_until 5 test -d "$CLASS/dcm1"; then
	check 1 "dcm_sim reloaded with two bodies: $(cat "$T/reload.err")"
	restore
	totals
	exit
fi
wr dcm-sim-body.1 /sys/bus/platform/drivers/dcm-body/unbind
wait_until 5 test ! -e "$CLASS/dcm1"
check $? "the second simulated body unbound: its dcm1 is gone ($(controllers))"

# The transports of the second body, by the software node each one has:
# dcm-sim1-RS485-1 and so on.
: >"$T/buses"
for d in "$SIM1"/* "$SIM1"/spi_master/*; do
	[ -L "$d/software_node" ] || continue
	node=$(basename "$(readlink "$d/software_node")")
	case "$node" in
	dcm-sim1-*) echo "${node#dcm-sim1-} $(basename "$d")" >>"$T/buses" ;;
	esac
done
nbuses=$(wc -l <"$T/buses")
[ "$nbuses" = 7 ]
check $? "the second body's transports: $(tr '\n' ' ' <"$T/buses")"

# 1. The body, not live.
refcnt=$(cat /sys/module/dcm/refcnt)
mkdir "$CFS/nao"
B=$CFS/nao
[ -f "$B/live" ] && [ "$(cat "$B/live")" = 0 ] && [ -z "$(cat "$B/controller")" ]
check $? "mkdir makes a body: live 0, no controller"
[ "$(cat /sys/module/dcm/refcnt)" -gt "$refcnt" ]
check $? "the body's directory holds the module (refcnt $refcnt -> $(cat /sys/module/dcm/refcnt))"
pdev=$(cat "$B/dev_name")
case "$pdev" in dcm-configfs.*) true ;; *) false ;; esac
check $? "its device's name: $pdev"
refused 1 "$B/live" "Invalid argument" && [ "$(cat "$B/live")" = 0 ]
check $? "live=1 without buses: EINVAL, not live"

ok=0
while read -r bus dev; do
	mkdir "$B/$bus" && wr "$dev" "$B/$bus/transport" || ok=1
	[ "$(cat "$B/$bus/transport")" = "$dev" ] || ok=1
done <"$T/buses"
check $ok "$nbuses buses made, each with its transport"

before=$(controllers)
mkdir "$B/Extra"
refused 1 "$B/live" "Invalid argument" && [ "$(cat "$B/live")" = 0 ] &&
	dmesg | grep -q "configfs body nao: bus Extra has no transport"
check $? "live=1 with a bus without transport: EINVAL, said"
rmdir "$B/Extra"
mkdir "$B/Extra"
wr "$(awk '$1 == "RS485-1" { print $2 }' "$T/buses")" "$B/Extra/transport"
refused 1 "$B/live" "Address" && [ "$(cat "$B/live")" = 0 ]
check $? "live=1 with two buses on one transport: EADDRINUSE"
rmdir "$B/Extra"
[ "$(controllers)" = "$before" ]
check $? "no controller came of it ($(controllers))"

# Names: a bus of 31 bytes is one, of 32 is not; a transport of 32 neither.
n31=abcdefghijabcdefghijabcdefghij1
mkdir "$B/$n31" 2>/dev/null && rmdir "$B/$n31"
check $? "a bus name of 31 bytes is taken"
! mkdir "$B/${n31}2" 2>"$T/err" && grep -q "too long" "$T/err" && [ ! -d "$B/${n31}2" ]
check $? "a bus name of 32 bytes is refused: $(cat "$T/err")"
refused "${n31}2" "$B/RS485-1/transport" "too long" &&
	[ "$(cat "$B/RS485-1/transport")" != "${n31}2" ]
check $? "a transport name of 32 bytes is refused"

# 2. Live: dcmN with its driver and device.
dmesg -c >/dev/null
wr 1 "$B/live"
check $? "live=1 succeeds$(sed 's/^/: /' "$T/err")"
ctl=$(cat "$B/controller")
N=${ctl#dcm}
[ "$(cat "$B/live")" = 1 ] && [ -n "$ctl" ] && [ -d "$CLASS/$ctl" ] && [ -c "/dev/$ctl" ]
check $? "live reads 1, controller reads $ctl, /sys/class/dcm/$ctl and /dev/$ctl exist"
[ "$(basename "$(readlink "$CLASS/$ctl/device")")" = "$pdev" ]
check $? "$ctl's parent device is $pdev"
dcmctl -d "$ctl" info >"$T/info" 2>&1 && grep -q "driver: dcm-configfs" "$T/info" &&
	[ "$(cat "$CLASS/$ctl/body")" = dcm-configfs ]
check $? "$ctl's driver: $(sed -n 's/.*driver: //p' "$T/info" | head -1)"
dmesg | grep -q "$pdev: $ctl: configfs body nao, $nbuses buses"
check $? "the kernel says which controller the body has"

# 3. dcmd loads the description into it; every board answers over its bus.
dcmd -1 -i "$N" >"$T/dcmd.log" 2>&1
check $? "dcmd -1 -i $N loads the description"
D=$CLASS/$ctl/DeviceList
a0=$(cat "$D/ChestBoard/Ack" 2>/dev/null || echo 0)
sleep 0.5
a1=$(cat "$D/ChestBoard/Ack" 2>/dev/null || echo 0)
[ "$a1" -gt "$a0" ]
check $? "ChestBoard's Ack grows: $a0 -> $a1"
bad=""
nb=0
for d in "$D"/*; do
	nb=$((nb + 1))
	[ "$(cat "$d/Nack")" = 0 ] && [ "$(cat "$d/Ack")" -gt 0 ] || bad="$bad $(basename "$d")"
done
[ -z "$bad" ] && [ "$nb" -ge 27 ]
check $? "every board answers, none Nacks:${bad:- all $nb}"

# A transport that goes leaves its bus without boards; when it comes back
# under the same name, the bus has it again. The I2C adapter is a
# transport while a board client of it is bound to dcm-i2c.
adap=$(awk '$1 == "I2C-chest" { print $2 }' "$T/buses")
clients=$(cd /sys/bus/i2c/drivers/dcm-i2c && ls -d "${adap#i2c-}"-* 2>/dev/null)
dmesg -c >/dev/null
for c in $clients; do
	wr "$c" /sys/bus/i2c/drivers/dcm-i2c/unbind
done
dmesg | grep -q "$ctl: bus I2C-chest: its transport $adap is gone"
check $? "the clients of $adap ($(echo "$clients" | tr '\n' ' ')) unbound: $ctl's bus I2C-chest lost it"
n0=$(cat "$D/ChestBoard/Nack")
a0=$(cat "$D/ChestBoard/Ack")
r0=$(cat "$D/RightShoulderBoard/Ack")
sleep 0.5
n1=$(cat "$D/ChestBoard/Nack")
a1=$(cat "$D/ChestBoard/Ack")
r1=$(cat "$D/RightShoulderBoard/Ack")
[ "$n1" -gt "$n0" ] && [ "$a1" = "$a0" ] && [ "$r1" -gt "$r0" ]
check $? "ChestBoard Nacks ($n0 -> $n1), its Ack stays $a1; RightShoulderBoard's grows ($r0 -> $r1)"
for c in $clients; do
	wr "$c" /sys/bus/i2c/drivers/dcm-i2c/bind
done
sleep 0.5
a0=$(cat "$D/ChestBoard/Ack")
sleep 0.5
a1=$(cat "$D/ChestBoard/Ack")
dmesg | grep -q "$ctl: bus I2C-chest on $adap" && [ "$a1" -gt "$a0" ]
check $? "bound again: I2C-chest on $adap, ChestBoard's Ack grows again ($a0 -> $a1)"

# 4. A live body does not change.
dev=$(cat "$B/SPI-chest/transport")
refused spi0 "$B/SPI-chest/transport" "busy" && [ "$(cat "$B/SPI-chest/transport")" = "$dev" ]
check $? "writing transport while live: EBUSY, unchanged"
! rmdir "$B/RS485-1" 2>"$T/err" && grep -q "busy" "$T/err" && [ -d "$B/RS485-1" ]
check $? "rmdir of a live body's bus: EBUSY"
! mkdir "$B/Extra" 2>"$T/err" && grep -q "busy" "$T/err" && [ ! -d "$B/Extra" ]
check $? "mkdir of a bus in a live body: EBUSY"
! rmdir "$B" 2>/dev/null && [ -d "$B" ] && [ "$(cat "$B/live")" = 1 ]
check $? "rmdir of a live body: refused (its buses are there), still live"
refused 1 "$B/live" "busy"
check $? "live=1 again: EBUSY"

# 5. Not live: the controller and the device go; and it can go live again.
wr 0 "$B/live"
[ "$(cat "$B/live")" = 0 ] && [ -z "$(cat "$B/controller")" ] && [ ! -e "$CLASS/$ctl" ] &&
	[ ! -e "/sys/bus/platform/devices/$pdev" ]
check $? "live=0: $ctl and $pdev are gone"
wr 1 "$B/live" && ctl2=$(cat "$B/controller") && [ -d "$CLASS/$ctl2" ] &&
	wr 0 "$B/live" && [ ! -e "$CLASS/$ctl2" ]
check $? "live again ($ctl2), and not"
wr "$(cat "$B/SPI-chest/transport")" "$B/SPI-chest/transport" && rmdir "$B/RS485-1"
check $? "not live: transport and buses can change"

# 6. Transports it cannot have; nothing is left live, no controller comes.
before=$(controllers)
mkdir "$CFS/ghost" "$CFS/ghost/RS485-1"
wr no-such-dev "$CFS/ghost/RS485-1/transport"
dmesg -c >/dev/null
refused 1 "$CFS/ghost/live" "No such device" && [ "$(cat "$CFS/ghost/live")" = 0 ] &&
	[ -z "$(cat "$CFS/ghost/controller")" ]
check $? "live=1 on a transport that does not exist: ENODEV, not live"
[ "$(dmesg | grep -c "bus RS485-1: no transport named no-such-dev")" = 1 ]
check $? "said once: $(dmesg | grep no-such-dev | head -1)"
dcm0_i2c=
for d in /sys/devices/platform/dcm_sim.0/i2c-*; do
	case "$(basename "$(readlink "$d/software_node")")" in
	dcm-sim0-I2C-chest) dcm0_i2c=$(basename "$d") ;;
	esac
done
mkdir "$CFS/ghost/I2C-chest"
wr "$dcm0_i2c" "$CFS/ghost/I2C-chest/transport"
rmdir "$CFS/ghost/RS485-1"
dmesg -c >/dev/null
refused 1 "$CFS/ghost/live" "busy" && [ "$(cat "$CFS/ghost/live")" = 0 ]
check $? "live=1 on dcm0's $dcm0_i2c: EBUSY, not live"
dmesg | grep -q "$dcm0_i2c already carries dcm0's bus I2C-chest"
check $? "said: $(dmesg | grep "already carries" | head -1)"
[ "$(controllers)" = "$before" ]
check $? "no controller came of them ($(controllers))"

# 7. dcm cannot be unloaded while a body is there; it can once none is.
cleanup
[ -z "$(ls "$CFS")" ] && [ "$(cat /sys/module/dcm/refcnt)" = "$refcnt" ]
check $? "every body removed, the module's refcnt back to $refcnt"
mkdir "$CFS/hold"
dcmd_ran=$(pidof dcmd)
! dcm-sim-reload 2>"$T/reload.err" && grep -q "rmmod dcm failed" "$T/reload.err" &&
	grep -q "^dcm " /proc/modules && ! grep -q "^dcm_sim " /proc/modules
check $? "a body, not live, holds dcm: rmmod dcm fails"
rmdir "$CFS/hold"
rmmod dcm
check $? "without it, rmmod dcm succeeds"

# 8. Back to the usual state: dcm_sim with one body, dcmd on dcm0 (the
# failed reload stopped dcmd and saved the chest store).
if dcm-sim-reload 2>"$T/reload.err"; then
	[ -z "$dcmd_ran" ] || { dcmd -f </dev/null >>/run/dcmd.log 2>&1 & }
	wait_until 60 test -d "$CLASS/dcm0/DeviceList"
	check $? "dcm_sim reloaded with one body, dcmd configures dcm0"
else
	check 1 "dcm_sim reloaded with one body: $(cat "$T/reload.err")"
fi
[ "$(controllers)" = "dcm0 " ] && { [ -z "$dcmd_ran" ] || [ -d "$CLASS/dcm0/DeviceList" ]; }
check $? "dcm0 alone, with its description"

rm -rf "$T"
totals
