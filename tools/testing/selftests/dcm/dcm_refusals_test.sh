#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# dcm_refusals_test.sh: what configfs and the simulator's knobs refuse, in
# the VM (issue 27).
#
# configfs: a bus on a transport of the wrong kind for its name (an I2C
# adapter for RS485-1, an RS485 line for I2C-chest) is refused with
# EMEDIUMTYPE and said in one line; names of bodies, buses and transports
# with control characters, blanks or bytes of 0x7f and above are refused
# with EINVAL, and nothing of them reaches the kernel log.
#
# dcm_sim: every writable knob refuses a value outside its documented
# range (Documentation/dcm/simulator.rst) with ERANGE, and one that is no
# number with EINVAL; none is cut to 32 bits (2^64-1 to rs485-N/delay_us
# hung a bus lane for 71 minutes). The largest delay still lets the cycle
# go on, and rmmod dcm_sim returns promptly while a bus waits it.
#
# At the end the VM is as it was: dcm_sim with one body, dcmd on dcm0.
# POSIX sh (busybox). Prints TAP and ends with the kselftest Totals line;
# exits 1 if a test failed.

CFS=/sys/kernel/config/dcm
SIM1=/sys/devices/platform/dcm_sim.1
CLASS=/sys/class/dcm
SIM=/sys/kernel/debug/dcm_sim/body0

. "$(dirname "$0")/dcm_tap.sh"

if [ ! -d "$CFS" ] || [ ! -d "$SIM" ] || ! command -v dcm-sim-reload >/dev/null; then
	skip_all "no configfs subsystem dcm, no dcm_sim or no dcm-sim-reload"
fi

T=$(mktemp -d)

# wr VALUE FILE: write VALUE (printf %b: escapes work) to FILE, in one
# write, by cat, which says when a write fails (busybox's printf does
# not); the error text is in $T/err.
wr() {
	printf '%b' "$1" | cat >"$2" 2>"$T/err"
}

# refused VALUE FILE TEXT: writing VALUE to FILE fails, saying TEXT.
refused() {
	! wr "$1" "$2" && grep -q "$3" "$T/err"
}

# Remove every configfs body.
cleanup() {
	configfs_clear "$CFS"
}

# Whether the kernel log since the last dmesg -c holds a raw control
# character (but tab) or a byte of 0x7f and above.
raw_log() {
	dmesg | tr -d '\t\n' | LC_ALL=C grep -q "$(printf '[\001-\037\177-\377]')"
}

# 1. The simulator's knobs. "name max hex": a knob and its greatest value.
dmesg -c >/dev/null
bad=""
while read -r knob max; do
	f=$SIM/$knob
	[ -f "$f" ] || { bad="$bad $knob(missing)"; continue; }
	old=$(cat "$f")
	wr "$max" "$f" || bad="$bad $knob($max:$(cat "$T/err"))"
	[ "$(($(cat "$f")))" = "$((max))" ] || bad="$bad $knob(reads $(cat "$f"), not $max)"
	refused "$((max + 1))" "$f" "Numerical result out of range" ||
		bad="$bad $knob($((max + 1)):$(cat "$T/err"))"
	refused 18446744073709551615 "$f" "Numerical result out of range" ||
		bad="$bad $knob(2^64-1:$(cat "$T/err"))"
	refused 18446744073709551616 "$f" "Numerical result out of range" ||
		bad="$bad $knob(2^64:$(cat "$T/err"))"
	refused "-1" "$f" "Invalid argument" || bad="$bad $knob(-1:$(cat "$T/err"))"
	refused "lots" "$f" "Invalid argument" || bad="$bad $knob(lots:$(cat "$T/err"))"
	[ "$(($(cat "$f")))" = "$((max))" ] || bad="$bad $knob(changed by a refusal)"
	wr "$old" "$f" || bad="$bad $knob(not restored)"
done <<EOF
load_ma 20000
rs485-1/silent 0xffffffff
rs485-1/mre_fault 0xffffffff
rs485-1/hot 0xffffffff
rs485-1/hot_mc 150000
rs485-1/crc_ppm 1000000
rs485-1/delay_us 100000
chest/store_cut 1024
feet/weight_g 20000
feet/lfoot/bumpers 0x3
hands/lhand/touch 0x7
head/touch 0x7
head/cpu_load 100
i2c-chest/deaf 0x7f
i2c-head/deaf 0x7f
EOF
check "$([ -z "$bad" ]; echo $?)" "15 unsigned knobs take 0..max and refuse max + 1, 2^64-1, 2^64 (ERANGE), -1 and words (EINVAL)${bad:+:$bad}"

bad=""
while read -r knob min max; do
	f=$SIM/$knob
	[ -f "$f" ] || { bad="$bad $knob(missing)"; continue; }
	old=$(cat "$f")
	for v in "$min" "$max"; do
		wr "$v" "$f" && [ "$(cat "$f")" = "$v" ] || bad="$bad $knob($v:$(cat "$T/err"))"
	done
	for v in $((min - 1)) $((max + 1)) 9223372036854775807; do
		refused "$v" "$f" "Numerical result out of range" ||
			bad="$bad $knob($v:$(cat "$T/err"))"
	done
	wr "$old" "$f" || bad="$bad $knob(not restored)"
done <<EOF
imu/angle_x -3141 3141
imu/angle_y -3141 3141
imu/angle_z -3141 3141
imu/rate_x -10000 10000
imu/rate_z -10000 10000
feet/cop_x_mm -100 100
feet/cop_y_mm -100 100
EOF
check "$([ -z "$bad" ]; echo $?)" "signed knobs take min..max and refuse one beyond either end (ERANGE)${bad:+:$bad}"

bad=""
for knob in button charging imu/silent; do
	refused 2 "$SIM/$knob" "Invalid argument" || bad="$bad $knob"
done
refused sideways "$SIM/feet/stance" "Invalid argument" || bad="$bad feet/stance"
refused 256 "$SIM/sonar/left" "" || bad="$bad sonar/left"
refused middle "$SIM/joints/HeadYaw/push" "Invalid argument" || bad="$bad push"
refused 2147484 "$SIM/joints/HeadYaw/position_mrad" "out of range" || bad="$bad position_mrad"
check "$([ -z "$bad" ]; echo $?)" "the knobs of words and lists refuse what they do not take${bad:+:$bad}"

! raw_log
check $? "nothing raw in the kernel log"

# The largest delay: the bus is late, the cycle goes on; rmmod dcm_sim
# while a lane waits it returns within a few delays, not 71 minutes.
c0=$(cat "$CLASS/dcm0/stats/cycles")
echo 100000 >"$SIM/rs485-4/delay_us"
sleep "$(scaled 1)"
c1=$(cat "$CLASS/dcm0/stats/cycles")
[ "$c1" -gt "$c0" ]
check $? "rs485-4/delay_us 100000: the cycle goes on ($c0 -> $c1 cycles)"
t0=$(date +%s)
dcm-sim-reload 2>"$T/reload.err"
st=$?
t1=$(date +%s)
[ "$st" = 0 ] && [ $((t1 - t0)) -le "$((30 * slow))" ]
check $? "dcm-sim-reload (rmmod dcm_sim, dcm) while a lane waits 100 ms: done in $((t1 - t0)) s$(sed 's/^/: /' "$T/reload.err")"
[ "$(cat "$SIM/rs485-4/delay_us" 2>/dev/null)" = 0 ]
check $? "the new dcm_sim starts with no delay"

# 2. configfs: two simulated bodies, the second one's transports free.
if ! dcm-sim-reload bodies=2 2>"$T/reload.err" || ! wait_until 5 test -d "$CLASS/dcm1"; then
	check 1 "dcm_sim reloaded with two bodies: $(cat "$T/reload.err")"
	dcm-sim-reload 2>/dev/null
	totals
	exit
fi
echo dcm-sim-body.1 >/sys/bus/platform/drivers/dcm-body/unbind
wait_until 5 test ! -e "$CLASS/dcm1"
check $? "the second simulated body unbound"

# trans BUS: the second body's transport of that bus.
trans() {
	for d in "$SIM1"/* "$SIM1"/spi_master/*; do
		[ -L "$d/software_node" ] || continue
		if [ "$(basename "$(readlink "$d/software_node")")" = "dcm-sim1-$1" ]; then
			basename "$d"
			return 0
		fi
	done
	return 1
}
rs1=$(trans RS485-1)
i2c=$(trans I2C-chest)
spi=$(trans SPI-chest)
[ -n "$rs1" ] && [ -n "$i2c" ] && [ -n "$spi" ]
check $? "the second body's RS485-1 ($rs1), I2C-chest ($i2c) and SPI-chest ($spi)"

B=$CFS/kinds
mkdir "$B"
dmesg -c >/dev/null
# kind BUS TRANSPORT TEXT: a body of one bus on that transport is refused
# with EMEDIUMTYPE, and the kernel says TEXT.
kind() {
	mkdir "$B/$1" && wr "$2" "$B/$1/transport" &&
		refused 1 "$B/live" "Wrong medium type" && [ "$(cat "$B/live")" = 0 ] &&
		dmesg | grep -q "$3"
	_st=$?
	rmdir "$B/$1"
	return $_st
}
kind RS485-1 "$i2c" "bus RS485-1 needs an RS485 line; $i2c is an I2C or SPI controller"
check $? "RS485-1 on the I2C adapter $i2c: EMEDIUMTYPE, said"
kind I2C-chest "$rs1" "bus I2C-chest needs an I2C or SPI controller; $rs1 is an RS485 line"
check $? "I2C-chest on the RS485 line $rs1: EMEDIUMTYPE, said"
kind SPI-chest "$rs1" "bus SPI-chest needs an I2C or SPI controller"
check $? "SPI-chest on the RS485 line $rs1: EMEDIUMTYPE"
[ -z "$(cat "$B/controller")" ] && [ ! -e "$CLASS/dcm1" ]
check $? "no controller came of them"

# The right kinds, and a name that calls for no kind, go live.
mkdir "$B/RS485-1" "$B/I2C-chest" "$B/Spare"
wr "$rs1" "$B/RS485-1/transport" && wr "$i2c" "$B/I2C-chest/transport" &&
	wr "$spi" "$B/Spare/transport" && wr 1 "$B/live"
check $? "RS485-1 on $rs1, I2C-chest on $i2c, Spare on $spi: live$(sed 's/^/: /' "$T/err")"
wr 0 "$B/live"
rmdir "$B/RS485-1" "$B/I2C-chest" "$B/Spare"

# Names: control characters, blanks, DEL and bytes above are refused.
dmesg -c >/dev/null
bad=""
for nm in 'a\033[31mb' 'a\nb' 'a\tb' 'a b' 'a\177b' 'a\303\251b' 'a\377b' 'a\rb'; do
	(mkdir "$B/$(printf '%b' "$nm")") 2>/dev/null && bad="$bad bus:$nm"
	(mkdir "$CFS/$(printf '%b' "$nm")") 2>/dev/null && bad="$bad body:$nm"
done
mkdir "$B/RS485-1"
for nm in 'i2c\033[2J' 'x\ny' 'x\177' 'x\303\251' '\001'; do
	refused "$nm" "$B/RS485-1/transport" "Invalid argument" || bad="$bad transport:$nm"
done
[ -z "$(cat "$B/RS485-1/transport")" ] || bad="$bad transport-changed"
check "$([ -z "$bad" ]; echo $?)" "names with control characters, blanks or bytes >= 0x7f refused (EINVAL)${bad:+:$bad}"
# shellcheck disable=SC2010 # a name with raw bytes is what is looked for
! ls "$B" "$CFS" | LC_ALL=C grep -q "$(printf '[\001-\037\177-\377]')"
check $? "no such directory was made"
! raw_log
check $? "nothing raw in the kernel log"
rmdir "$B/RS485-1"

cleanup
dcm-sim-reload 2>"$T/reload.err"
check $? "dcm_sim back to one body$(sed 's/^/: /' "$T/reload.err")"
rm -rf "$T"
totals
