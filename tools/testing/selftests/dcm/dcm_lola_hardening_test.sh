#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# dcm_lola_hardening_test.sh: dcm-lola against local users and abusive
# clients (Documentation/dcm/lola.rst, "Who owns the socket" and "Abuse"),
# in the VM with the default description.
#
# 1. The squatter: the user nao (uid 1000) listens on /tmp/robocup before
#    dcm-lola starts and serves an impostor's map; a symlink of nao's at
#    /tmp/robocup.status points to a root file. dcm-lola, started as root,
#    takes both paths; a root LoLA client gets the real robot's map
#    (RobotConfig and a joint position as sysfs has them) and the impostor
#    sees no connection; the root file is untouched; nao can neither remove
#    nor replace the daemon's socket. The same while nao recreates a symlink
#    at the path in a loop, and with a directory there. A non-root dcm-lola
#    facing another user's file, and --status facing another user's status
#    server, refuse with the reason. Socket activation: the sockets passed
#    as descriptors are served and left in place at exit.
# 2. Timeouts: eight connections hold every slot, four not reading, four
#    trickling a map that never ends; a ninth is refused at once, then gets
#    in once the idle and incomplete-map timeouts closed them, and reads on,
#    undisturbed, for longer than the idle timeout.
# 3. The log under a flood of refused maps and reconnections stays within
#    its limit, and what it suppressed adds up, with what it printed, to
#    every refused map the daemon counted.
#
# POSIX sh (busybox). Prints TAP and ends with the kselftest Totals line.

SYS=/sys/class/dcm/dcm0
DIR=$(cd "$(dirname "$0")" && pwd)
H=$DIR/dcm_access_helper
ABUSE_PY=$DIR/dcm_lola_abuse.py
SOCK=/tmp/robocup
LOG=/tmp/dcm-lola-hardening.log
TARGET=/tmp/lola-root-target
DCM_GID=900

. "$DIR/dcm_tap.sh"

if ! command -v dcm-lola >/dev/null 2>&1; then
	skip_all "dcm-lola is not installed"
fi
if ! python3 -c 'import msgpack' 2>/dev/null; then
	skip_all "no python3 with msgpack"
fi
if [ ! -d "$SYS/SubDeviceList/HeadYaw" ] || [ ! -x "$H" ]; then
	skip_all "no description loaded or no dcm_access_helper"
fi

# abuse MODE ARG...: dcm_lola_abuse.py, as root.
abuse() {
	python3 "$ABUSE_PY" "$@"
}

# nao, outside the group dcm. (What runs in the background calls "$H"
# itself, so that $! is the process to kill, not a subshell.)
nao() {
	"$H" as 1000 1000 - "$@"
}

lpid=
spid=
loop_pid=
cleanup() {
	[ -n "$lpid" ] && kill "$lpid" 2>/dev/null
	[ -n "$spid" ] && kill "$spid" 2>/dev/null
	[ -n "$loop_pid" ] && kill "$loop_pid" 2>/dev/null
	rm -rf $SOCK $SOCK.status $TARGET /tmp/.robocup.* /tmp/robocup-*
}
trap cleanup EXIT
cleanup

# start_lola ARG...: dcm-lola as root in the background, logging to $LOG;
# waits for its status socket (root's, a socket).
start_lola() {
	dcm-lola -s $SOCK "$@" 2>>$LOG &
	lpid=$!
	wait_until 5 sh -c "[ -S $SOCK.status ] && [ \"\$(stat -c %u $SOCK.status)\" = 0 ]"
}

stop_lola() {
	kill "$lpid" 2>/dev/null
	wait "$lpid"
	lpid=
}

# real_map: a root LoLA client gets the robot's map: RobotConfig[0] is the
# description's body ID; Position[0], Accelerometer[2] and Temperature[0]
# are HeadYaw's position, the Z acceleration and HeadYaw's temperature in
# sysfs (the impostor's differ in each), read a moment later: the motor's
# temperature may have moved by its one-degree step between the two reads.
real_map() {
	body=$(dcmctl get Device/DeviceList/ChestBoard/BodyId | awk '{ print $2 }')
	out=$(abuse client $SOCK 2>&1)
	field() {
		printf '%s\n' "$out" | awk -v k="$1" '$1 == k { print $2 }'
	}
	sub=$SYS/SubDeviceList
	pos=$(cat $sub/HeadYaw/Position/Sensor/Value)
	acc=$(cat $sub/InertialSensor/AccelerometerZ/Sensor/Value)
	temp=$(cat $sub/HeadYaw/Temperature/Sensor/Value)
	echo "# root client: RobotConfig[0] '$(field robotconfig)' (description: '$body')," \
		"Position[0] $(field position) (sysfs $pos), Accelerometer[2] $(field accz)" \
		"(sysfs $acc), Temperature[0] $(field temperature) (sysfs $temp)"
	[ -n "$body" ] && [ "$(field robotconfig)" = "$body" ] &&
		[ -n "$(field position)" ] && near "$(field position)" "$pos" 0.01 &&
		[ -n "$(field accz)" ] && near "$(field accz)" "$acc" 0.05 &&
		[ -n "$(field temperature)" ] && near "$(field temperature)" "$temp" 1.5
}

owner_type() {
	stat -c '%u %F' "$1" 2>/dev/null
}

: >$LOG

# ---- 1. the squatter and the symlink ----

echo "untouched" >$TARGET
chmod 0644 $TARGET
target_before=$(stat -c '%i %s %Y %a %u' $TARGET)
"$H" as 1000 1000 - python3 "$ABUSE_PY" squat $SOCK /tmp/robocup-impostor.count 2>/dev/null &
spid=$!
wait_until 5 test -S $SOCK
nao ln -s $TARGET $SOCK.status
[ "$(owner_type $SOCK)" = "1000 socket" ] && [ "$(owner_type $SOCK.status)" = "1000 symbolic link" ]
check $? "nao listens on $SOCK first and has a symlink at $SOCK.status to a root file"
got=$(abuse client $SOCK 2>&1 | awk '$1 == "robotconfig" { print $2 }')
[ "$got" = IMPOSTOR ]
check $? "before dcm-lola a client reaches the impostor ($got)"
echo 0 >/tmp/robocup-impostor.count

start_lola
check $? "dcm-lola starts all the same"
[ "$(owner_type $SOCK)" = "0 socket" ] && [ "$(owner_type $SOCK.status)" = "0 socket" ]
check $? "both paths are root's sockets now ($(owner_type $SOCK), $(owner_type $SOCK.status))"
grep -q "$SOCK: replaced a socket of uid 1000" $LOG &&
	grep -q "$SOCK.status: replaced a symlink of uid 1000" $LOG
check $? "the log says what it replaced"
real_map
check $? "a root LoLA client gets the real robot's map"
[ "$(cat /tmp/robocup-impostor.count)" = 0 ]
check $? "the impostor got no connection since"
[ "$(stat -c '%i %s %Y %a %u' $TARGET)" = "$target_before" ] && [ "$(cat $TARGET)" = untouched ] &&
	[ "$(owner_type $TARGET)" = "0 regular file" ]
check $? "the symlink's target is untouched"
st=$(dcm-lola --status -s $SOCK)
printf '%s\n' "$st" | grep -q "^socket $SOCK$"
check $? "dcm-lola --status reads the daemon's status"
ino=$(stat -c %i $SOCK)
nao rm -f $SOCK 2>/dev/null
nao ln -sf $TARGET $SOCK 2>/dev/null
nao ln -sf $TARGET $SOCK.status 2>/dev/null
[ "$(stat -c %i $SOCK)" = "$ino" ] && [ "$(owner_type $SOCK.status)" = "0 socket" ]
check $? "nao can neither remove nor replace the daemon's sockets (sticky /tmp)"
kill "$spid" 2>/dev/null
wait "$spid" 2>/dev/null
spid=
stop_lola
[ ! -e $SOCK ] && [ ! -e $SOCK.status ] && ! ls -d /tmp/.robocup.* >/dev/null 2>&1
check $? "at exit it removes its sockets and leaves no temporary name"

# A user who recreates a symlink at the path as fast as they can.
"$H" as 1000 1000 - sh -c "while :; do rm -f $SOCK; ln -s $TARGET $SOCK; done 2>/dev/null" &
loop_pid=$!
sleep 0.5
start_lola
started=$?
[ "$(owner_type $SOCK)" = "0 socket" ]
owned=$?
kill "$loop_pid"
wait "$loop_pid" 2>/dev/null
loop_pid=
[ $started = 0 ] && [ $owned = 0 ]
check $? "with nao recreating a symlink at $SOCK in a loop, dcm-lola takes it"
real_map
check $? "and a root client gets the real map"
stop_lola

# A directory at the path, with a file in it.
nao sh -c "rm -f $SOCK; mkdir $SOCK && echo x >$SOCK/f"
start_lola
[ "$(owner_type $SOCK)" = "0 socket" ] && grep -q "moved a directory of uid 1000 out of the way" $LOG
check $? "a directory at $SOCK is moved out of the way"
real_map
check $? "and a root client gets the real map"
stop_lola
rm -rf /tmp/.robocup.*

# A non-root dcm-lola may not replace another user's entry.
"$H" as 1001 1001 - sh -c "echo x >/tmp/robocup-other"
out=$("$H" as 1000 1000 $DCM_GID dcm-lola -s /tmp/robocup-other 2>&1)
st=$?
echo "# $out" | head -3
[ $st = 1 ] && printf '%s\n' "$out" | grep -q "cannot replace what uid 1001 put there" &&
	[ "$(owner_type /tmp/robocup-other)" = "1001 regular file" ]
check $? "a non-root dcm-lola facing another user's file exits with the reason"

# --status reads only root's or one's own server.
"$H" as 1000 1000 - python3 "$ABUSE_PY" squat /tmp/robocup-fake.status /tmp/robocup-fake.count 2>/dev/null &
spid=$!
wait_until 5 test -S /tmp/robocup-fake.status
out=$(dcm-lola --status -s /tmp/robocup-fake 2>&1)
st=$?
[ $st = 1 ] && printf '%s\n' "$out" | grep -q "served by uid 1000, neither root nor you"
check $? "dcm-lola --status refuses a user's server at the status path"
kill "$spid"
wait "$spid" 2>/dev/null
spid=

# Socket activation: the passed sockets are served and left in place.
python3 "$ABUSE_PY" activate /tmp/robocup-sa /tmp/robocup-sa.status dcm-lola -s /tmp/robocup-sa 2>>$LOG &
lpid=$!
wait_until 5 grep -q "/tmp/robocup-sa.status: the service manager's socket" $LOG
grep -q "/tmp/robocup-sa: the service manager's socket" $LOG &&
	grep -q "/tmp/robocup-sa.status: the service manager's socket" $LOG
check $? "socket activation: dcm-lola takes the sockets passed to it"
out=$(abuse read /tmp/robocup-sa 1 2>&1)
printf '%s\n' "$out" | grep -q "^maps [1-9]"
check $? "socket activation: a client reads maps ($out)"
stop_lola
[ -S /tmp/robocup-sa ] && [ -S /tmp/robocup-sa.status ]
check $? "socket activation: the sockets stay (the service manager's)"

# ---- 2. idle and incomplete-map timeouts ----

: >$LOG
# Timeouts of 3 s: the ninth connection comes within a second of the
# eighth (dcm_lola_abuse.py hold), well before.
start_lola --max-clients 8 --idle-timeout 3000 --map-timeout 3000
abuse hold $SOCK "$(scaled 14)" >/tmp/robocup-hold.out 2>&1 &
hpid=$!
wait_until 10 grep -qs '^ninth' /tmp/robocup-hold.out
grep -q '^ninth refused' /tmp/robocup-hold.out && grep -q "connection refused: 8 clients already" $LOG
check $? "eight abusive connections hold every slot: a ninth is refused at once"
# Idle: the socket buffer fills first (a second or two), then 3 s.
wait_until 10 sh -c "dcm-lola --status -s $SOCK | grep -q '^clients 0$'"
check $? "the timeouts close all eight"
out=$(abuse read $SOCK "$(scaled 4)" 2>&1)
echo "# ninth client: $(printf '%s' "$out" | tr '\n' ' ')"
maps=$(printf '%s\n' "$out" | awk '$1 == "maps" { print $2 }')
[ "${maps:-0}" -ge 100 ] && ! printf '%s\n' "$out" | grep -q eof
check $? "then a ninth client gets in and reads for 4 s, longer than the idle timeout, undisturbed"
wait $hpid
idle_closed=$(awk '$1 == "idle" { print $3 }' /tmp/robocup-hold.out)
trickle_closed=$(awk '$1 == "trickle" { print $3 }' /tmp/robocup-hold.out)
ni=$(grep -c "idle: read no sensor map and sent no applied map for 3000 ms" $LOG)
nm=$(grep -c "incomplete map: its end did not come within 3000 ms" $LOG)
[ "$idle_closed" = 4 ] && [ "$trickle_closed" = 4 ] && [ "$ni" = 4 ] && [ "$nm" = 4 ]
check $? "4 idle closed for idleness ($idle_closed, $ni logged), 4 trickling for the incomplete map ($trickle_closed, $nm logged)"
dcm-lola --status -s $SOCK | grep -q '^timed_out 8$'
check $? "--status counts them (timed_out 8)"
stop_lola

# ---- 3. the log under a flood ----

: >$LOG
start_lola --max-errors 0 --log-limit 5
before=$(grep -c . $LOG)
flood_s=8
flood=$(abuse flood $SOCK 6 $flood_s 2>&1)
echo "# flood: $flood"
# Let every window end so that the last counts are reported.
sleep 11
st=$(dcm-lola --status -s $SOCK)
refused=$(printf '%s\n' "$st" | awk '$1 == "refused" { print $2 }')
lines=$(($(grep -c . $LOG) - before))
# Per 10 s window at most: 2 x 5 lines of each of the 4 reasons, one
# count per reason and client (7 clients at once, 6 of them lasting) and
# per reason for all clients.
windows=$((flood_s / 10 + 2))
bound=$((windows * (4 * 10 + 4 * 7 + 4)))
echo "# $refused maps refused, $lines log lines (bound $bound)"
[ "${refused:-0}" -ge 1000 ] && [ "$lines" -le "$bound" ]
check $? "a flood of $refused refused maps and reconnections gives $lines log lines (at most $bound)"
printed=$(grep -c "packet refused, nothing applied" $LOG)
suppressed=$(grep -o '[0-9]* refused map' $LOG | awk '{ s += $1 } END { print s + 0 }')
echo "# refusals printed $printed, counted as suppressed $suppressed"
[ $((printed + suppressed)) = "${refused:-x}" ]
check $? "printed ($printed) and suppressed ($suppressed) refusals add up to the $refused counted"
# One client, 8 refused maps, a limit of 5: 3 suppressed, counted as it leaves.
abuse bad $SOCK 8
wait_until 3 grep -q "client [0-9]* left with 3 log lines suppressed (3 refused map)" $LOG
check $? "a client that leaves gets its count of suppressed lines (5 printed, 3 counted)"
stop_lola

totals
