#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# dcm_lola_replay_test.sh: the public LoLA clients against dcm-lola, in the
# VM at LoLA's 12 ms period, one replay per client family
# (dcm_lola_replay.py, written from what each family's code does,
# Documentation/dcm/lola.rst "The public LoLA clients"), each checked by the
# robot's reaction: B-Human's exit leaves every stiffness at 0 within two
# cycles of its last map; NaoTH's Stiffness -1 keeps it connected and frees
# the joints; HuLA's strict decode of every map succeeds and two maps in a
# cycle apply in order; nao_lola's partial and integer maps and Nao Devils'
# float 64 maps are applied; a script that sends without reading, then
# reads with recv(896), never sees a short read. dcm-lola presents the
# simulated body as a NAO V6 (--body-version, --head-version 6.0.0).
#
# POSIX sh (busybox). Prints TAP and ends with the kselftest Totals line.

SYS=/sys/class/dcm/dcm0
DIR=$(cd "$(dirname "$0")" && pwd)
REPLAY="python3 $DIR/dcm_lola_replay.py"
SOCK=/tmp/robocup-replay
LOG=/tmp/dcm-lola-replay.log

. "$DIR/dcm_tap.sh"

if ! command -v dcm-lola >/dev/null 2>&1; then
	skip_all "dcm-lola is not installed"
fi
if ! python3 -c 'import msgpack' 2>/dev/null; then
	skip_all "no python3 with msgpack"
fi
if [ ! -d "$SYS/SubDeviceList/HeadYaw" ]; then
	skip_all "no description loaded"
fi

old_period=$(cat $SYS/period_us)
lpid=
busy=
cleanup() {
	[ -n "$busy" ] && kill "$busy" 2>/dev/null
	[ -n "$lpid" ] && kill "$lpid" 2>/dev/null
	echo "$old_period" >$SYS/period_us
}
trap cleanup EXIT

# replay FAMILY ARG...: one family's replay; its RESULT lines as TAP.
replay() {
	fam=$1
	shift
	$REPLAY "$fam" --socket $SOCK "$@" >/tmp/lola-replay-$fam.out 2>&1
	rc=$?
	results /tmp/lola-replay-$fam.out "$fam"
	check $rc "the $fam replay ran to its end"
}

: >$LOG
dcm-lola -s $SOCK --period 12 --timeout 3000 --priority 20 \
	--body-version 6.0.0 --head-version 6.0.0 2>>$LOG &
lpid=$!
wait_until 5 test -S $SOCK.status
check $? "dcm-lola listens on $SOCK"

replay bhuman
replay naoth
replay hula
replay naolola
replay devils
# The slow script while the CPU is busy with something else too.
sh -c 'while :; do :; done' &
busy=$!
replay script
kill "$busy"
busy=
replay handover
grep 'command taken over' $LOG | sed 's/^/# /'

kill -0 "$lpid" 2>/dev/null
check $? "dcm-lola serves on after every replay"
st=$(dcm-lola --status -s $SOCK)
printf '%s\n' "$st" | grep -E '^(cycles|missed|drops|packets_in|refused|clamped|clients_dropped) ' |
	sed 's/^/# status: /'
printf '%s\n' "$st" | grep -q '^refused 0$' && printf '%s\n' "$st" | grep -q '^clients_dropped 0$'
check $? "no replay's map was refused and no client dropped"
# Values outside an actuator's range (a LoLA Position of 0 for LElbowRoll,
# whose range is -1.54 .. -0.03: HuLA's idle map) are clamped, as a set
# is, and logged once per key and client.
grep 'is outside' $LOG | sed 's/^/# /'
dup=$(grep -o 'client [0-9]*: [A-Za-z]*\[' $LOG | sort | uniq -d)
[ -z "$dup" ] && grep -q '^clamped [1-9]' <<EOS
$st
EOS
check $? "values outside their actuator's range clamped and counted, logged once per key and client${dup:+: $dup}"
grep 'last map has been applied' $LOG | head -3 | sed 's/^/# /'
# A client's last map, then close() and dcm-lola stopped: the map is
# applied, and stays so once dcm-lola has exited. SIGTERM waits until the
# map is seen applied: sent right before it, whether dcm-lola has read it
# from the socket when the signal comes is the host's timing (a loaded host
# may run the signal first), not the daemon's behaviour.
hy=$SYS/SubDeviceList/HeadYaw/Hardness/Actuator/Value
h0=$(cat $hy)
$REPLAY stop --socket $SOCK --stiffness 0.45
awk -v h="$h0" 'BEGIN { exit !(h < 0.449 || h > 0.451) }' &&
	wait_until 10 holds 'awk -v h="$(cat $hy)" "BEGIN { exit !(h > 0.449 && h < 0.451) }"'
check $? "the map a client sent before close() is applied (HeadYaw hardness $h0 -> $(cat $hy))"
kill "$lpid"
wait "$lpid"
check $? "dcm-lola stops on SIGTERM with status 0"
lpid=
h=$(cat $hy)
awk -v h="$h" 'BEGIN { exit !(h > 0.449 && h < 0.451) }'
check $? "it is still applied after dcm-lola exits (HeadYaw hardness $h)"
totals
