#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# dcm_lola_test.sh: dcm-lola, the LoLA socket, in the VM against the
# simulated body at LoLA's 12 ms period. A LoLA client written from the
# protocol's description (dcm_lola_client.py, Python with python3-msgpack)
# runs 1000 cycles: every sensor map is 896 bytes in LoLA's layout (decoded
# with msgpack and checked at fixed offsets), one arrives every period, a
# joint commanded through the socket reaches its angle, every LED reads back
# (sysfs) what was sent in LoLA's element order, and each bad input is
# refused with nothing applied while the daemon serves on. A second client
# reads at the same time, undisturbed, and its actuator map is refused
# (read-only). Then the watchdog: a silent commander loses command, the
# robot holds (default) or its stiffness ramps to 0 (--on-silence ramp).
#
# POSIX sh (busybox). Prints TAP and ends with the kselftest Totals line.

SYS=/sys/class/dcm/dcm0
DIR=$(cd "$(dirname "$0")" && pwd)
CLIENT="python3 $DIR/dcm_lola_client.py"
SOCK=/tmp/robocup
LOG=/tmp/dcm-lola.log

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
cleanup() {
	[ -n "$lpid" ] && kill "$lpid" 2>/dev/null
	echo "$old_period" >$SYS/period_us
}
trap cleanup EXIT

# start_lola ARG...: dcm-lola in the background, logging to $LOG.
start_lola() {
	dcm-lola -s $SOCK "$@" 2>>$LOG &
	lpid=$!
	wait_until 5 test -S $SOCK.status
}

: >$LOG
# A long silence timeout here: under TCG on a busy host a client can stall
# for a second, and the reader's refusal needs the main client to keep
# command.
start_lola --period 12 --timeout 3000 --priority 20
check $? "dcm-lola listens on $SOCK (and $SOCK.status)"
p=$(cat $SYS/period_us)
[ "$p" = 12000 ]
check $? "--period 12 set the controller's period ($p us)"

# The main client and, at the same time, a second one.
$CLIENT reader --cycles 900 >/tmp/lola-reader.out 2>&1 &
rpid=$!
sleep 0.3
$CLIENT main --cycles 1000 >/tmp/lola-main.out 2>&1
check $? "the main client ran to its end"
wait $rpid
check $? "the second client ran to its end"
results /tmp/lola-main.out
results /tmp/lola-reader.out

kill -0 "$lpid" 2>/dev/null
check $? "dcm-lola still runs after every client's fault"
# The mapping against the running description: the daemon logs each
# sensor element without a key ("... is 0") and each actuator group with
# members missing. Only the head ID has no key in the default description.
missing=$(grep -E ': [A-Za-z]+\[[0-9]+\] is 0$|are not in the description' $LOG |
	grep -v 'RobotConfig')
[ -z "$missing" ]
check $? "every LoLA element has its dcm key in the description${missing:+: $missing}"
st=$(dcm-lola --status -s $SOCK)
printf '%s\n' "$st" | sed 's/^/# status: /'
printf '%s\n' "$st" | grep -q '^clients_dropped 2$'
check $? "--status: the two faulty clients counted as dropped"

# stop_lola: SIGTERM; it exits with 0 and removes its sockets.
stop_lola() {
	kill "$lpid"
	wait "$lpid"
	check $? "dcm-lola stops on SIGTERM with status 0"
	lpid=
	[ ! -e $SOCK ] && [ ! -e $SOCK.status ]
	check $? "its sockets are removed"
}
stop_lola

# The watchdog, hold (the default): a silent commander loses command, the
# robot keeps its stiffness; sending again takes command again.
start_lola --timeout 200 --priority 20
$CLIENT silent --stiffness 0.8 --quiet 1.5 --expect 0.8 --retake >/tmp/lola-silent.out 2>&1
check $? "silent client (hold) ran"
results /tmp/lola-silent.out
grep -q "command released (the robot holds its commands)" $LOG
check $? "the release is logged"
stop_lola

# The watchdog, ramp: the stiffness goes to 0.
start_lola --timeout 100 --on-silence ramp --ramp-ms 200 --priority 20
$CLIENT silent --stiffness 1 --quiet 1.5 --expect 0 >/tmp/lola-ramp.out 2>&1
check $? "silent client (ramp) ran"
results /tmp/lola-ramp.out

# A second daemon on the same socket is refused; the first serves on.
dcm-lola -s $SOCK 2>/tmp/lola-second.err
[ $? = 1 ] && grep -q "a server already listens there" /tmp/lola-second.err
check $? "a second dcm-lola on a live socket exits with a clear error"
kill -0 "$lpid" 2>/dev/null
check $? "the first keeps running"

grep -c . $LOG | sed 's/^/# log lines: /'
totals
