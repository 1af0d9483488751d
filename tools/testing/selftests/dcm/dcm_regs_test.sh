#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# dcm_regs_test.sh: a register bus's exchange goes on its wire in one
# transfer a cycle, and a board that does not answer costs the others
# nothing (Documentation/dcm/boards.rst, "The register bus kind").
#
# - Over CYCLES cycles (default 200) of dcm0, dcm_sim's i2c-chest/wire and
#   i2c-head/wire counters: each I2C bus has one transfer a cycle, and a
#   tenth more at most on I2C-chest (a sonar's new dual capture has its
#   echoes read in a second round), where a board by board exchange had
#   one per board (three on I2C-chest, four on I2C-head); every board of
#   the bus is reached by each of them.
# - The sonar (0x70 on I2C-chest) made deaf (dcm_sim's i2c-chest/deaf: its
#   address not acknowledged, the transfer stopped there as a master
#   stops): USBoard Nacks, and ChestBoard and Battery go on answering with
#   no Nack, not even in the cycle where the sonar first failed (its
#   transfer is made again board by board); I2C-chest takes two transfers
#   a cycle at most (the others', and the sonar's on its own).
# - The chest board (0x20) made deaf instead: the sonar and the battery go
#   on answering the same way.
# - Deaf no more: every board answers again, and the bus is back to one
#   transfer a cycle.
#
# Counts of what the cycles did, no clock: a busy host only makes the
# waits longer (an Ack count must reach half the cycles counted: a bus
# whose exchange ran past the period misses some, cycle/buses' busy). POSIX sh (busybox). Prints TAP and ends with the kselftest
# Totals line; exits 1 if a test failed.

SYS=/sys/class/dcm/dcm0
DEV=$SYS/DeviceList
SIM=/sys/kernel/debug/dcm_sim/body0
CYCLES=${CYCLES:-200}
T=/tmp/dcm_regs_test.$$
# The I2C boards of the default description, by their device names.
BOARDS="ChestBoard Battery USBoard HeadCPU FaceBoard EarLeds TouchBoard"

. "$(dirname "$0")/dcm_tap.sh"

[ -r "$SIM/i2c-chest/wire" ] || skip_all "no dcm_sim I2C buses (i2c-chest/wire)"
[ -w "$SIM/i2c-chest/deaf" ] || skip_all "this dcm_sim has no i2c-chest/deaf"
for b in $BOARDS; do
	[ -d "$DEV/$b" ] || skip_all "dcm0 has no $b: not the default description"
done
mkdir -p $T
trap 'echo 0 >$SIM/i2c-chest/deaf; rm -rf $T' EXIT

# per ADDR FIELD FILE: a board's counter ("0xAA xfers X msgs M ...").
per() {
	awk -v a="$1" -v k="$2" '$1 == a { for (i = 2; i < NF; i += 2) if ($i == k) print $(i + 1) }' "$3"
}

# answers TAG BOARD...: each board's Ack and Nack into $T/TAG.
answers() {
	_tag=$1
	shift
	for _b in "$@"; do
		echo "$_b $(cat "$DEV/$_b/Ack") $(cat "$DEV/$_b/Nack")"
	done >"$T/$_tag"
}

# grew BOARD FIELD(2: Ack, 3: Nack) FROM TO: how much it grew.
grew() {
	echo $(($(awk -v b="$1" -v f="$2" '$1 == b { print $f }' "$T/$4") - \
		$(awk -v b="$1" -v f="$2" '$1 == b { print $f }' "$T/$3")))
}

# not_answering TAG BOARD...: the boards that did not Ack in half the
# cycles of count TAG, or Nacked at all, as " BOARD:+ACKS/+NACKS"; nothing
# when every one answered.
not_answering() {
	_t=$1
	shift
	for _o in "$@"; do
		_a=$(grew "$_o" 2 "ans.$_t.0" "ans.$_t.1")
		_x=$(grew "$_o" 3 "ans.$_t.0" "ans.$_t.1")
		[ "$_a" -ge $((k / 2)) ] && [ "$_x" = 0 ] || printf ' %s:+%s/+%s' "$_o" "$_a" "$_x"
	done
}

# wires TAG: both buses' counters.
wires() {
	cat "$SIM/i2c-chest/wire" >"$T/chest.$1"
	cat "$SIM/i2c-head/wire" >"$T/head.$1"
}

# count TAG: the answers, the cycles and the wires, CYCLES cycles apart;
# read outside in (the wires' span within the cycles', theirs within the
# answers'), so that the transfers are those of the cycles counted at
# most, and the answers those of the cycles counted at least.
count() {
	# shellcheck disable=SC2086 # the boards' names, split
	answers "ans.$1.0" $BOARDS
	dcm0_cycles >"$T/cycles.$1.0"
	wires "$1.0"
	until_cycles "$CYCLES"
	wires "$1.1"
	dcm0_cycles >"$T/cycles.$1.1"
	# shellcheck disable=SC2086 # the boards' names, split
	answers "ans.$1.1" $BOARDS
	k=$(($(cat "$T/cycles.$1.1") - $(cat "$T/cycles.$1.0")))
	xc=$(($(key_value xfers "$T/chest.$1.1") - $(key_value xfers "$T/chest.$1.0")))
	xh=$(($(key_value xfers "$T/head.$1.1") - $(key_value xfers "$T/head.$1.0")))
	# a transfer under way when the count began
	slack=$((k / 20 + 4))
	echo "# $1: $k cycles; I2C-chest $xc transfers, I2C-head $xh"
}

# reached TAG ADDR BUS: the transfers that reached the board at ADDR.
reached() {
	echo $(($(per "$2" xfers "$T/$3.$1.1") - $(per "$2" xfers "$T/$3.$1.0")))
}

# 1. One transfer a cycle.
until_cycles 5
count calm
[ "$xc" -ge $((k / 2)) ] && [ "$xc" -le $((k + k / 10 + slack)) ]
check $? "I2C-chest: one transfer a cycle ($xc in $k cycles; a board by board exchange: $((3 * k)))"
[ "$xh" -ge $((k / 2)) ] && [ "$xh" -le $((k + slack)) ]
check $? "I2C-head: one transfer a cycle ($xh in $k cycles; board by board: $((4 * k)))"
bad=
for a in 0x20 0x0b 0x70; do
	r=$(reached calm $a chest)
	[ "$r" -ge $((k / 2)) ] && [ "$r" -le "$xc" ] || bad="$bad $a:$r"
done
for a in 0x40 0x41 0x48 0x4c; do
	r=$(reached calm $a head)
	[ "$r" -ge $((k / 2)) ] && [ "$r" -le "$xh" ] || bad="$bad $a:$r"
done
[ -z "$bad" ]
check $? "every board is in every cycle's transfer${bad:+ (not:$bad)}"
# shellcheck disable=SC2086 # the boards' names, split
bad=$(not_answering calm $BOARDS)
[ -z "$bad" ]
check $? "every board of both buses answers, no Nack${bad:+ (Ack/Nack:$bad)}"

# deaf_case ADDR BOARD OTHER...: BOARD's address not acknowledged.
deaf_case() {
	_addr=$1 _board=$2
	shift 2
	echo "$_addr" >$SIM/i2c-chest/deaf
	check $? "$_board ($_addr) made deaf"
	until_cycles 5
	count "deaf$_addr"
	_n=$(grew "$_board" 3 "ans.deaf$_addr.0" "ans.deaf$_addr.1")
	[ "$_n" -ge $((k / 2)) ]
	check $? "$_board Nacks ($_n in $k cycles)"
	_bad=$(not_answering "deaf$_addr" "$@")
	[ -z "$_bad" ]
	check $? "$* answer, no Nack${_bad:+ (Ack/Nack:$_bad)}"
	[ "$xc" -le $((2 * k + k / 10 + slack)) ]
	check $? "I2C-chest: two transfers a cycle at most ($xc in $k cycles)"
}

deaf_case 0x70 USBoard ChestBoard Battery
deaf_case 0x20 ChestBoard USBoard Battery

# 3. Deaf no more.
echo 0 >$SIM/i2c-chest/deaf
until_cycles 5
count back
bad=$(not_answering back ChestBoard Battery USBoard)
[ -z "$bad" ]
check $? "every board of I2C-chest answers again${bad:+ (Ack/Nack:$bad)}"
[ "$xc" -ge $((k / 2)) ] && [ "$xc" -le $((k + k / 10 + slack)) ]
check $? "I2C-chest: one transfer a cycle again ($xc in $k cycles)"

totals
