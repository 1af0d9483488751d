#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# dcm_flight_hostile_test.sh: the flight recorder (dcmctl flight,
# flight-dump) and dcmd against a user without privileges and a flood of
# events, in the VM with the default description.
#
# 1. A directory the user nao (uid 1000) made, links in it to root's files
#    (flight.pid, flight-latest.jsonl.new): root's recorder refuses it and
#    the files linked to are unchanged; a link planted in root's own
#    directory is not followed either; a directory writable by every user,
#    or given through a symbolic link, is refused too.
# 2. The recorder is found by the lock on its pid file, never by the pid
#    alone: a pid file naming a live process (a sleep) that no recorder
#    locks is refused by flight-dump, and the sleep lives; a second
#    recorder in a directory refuses to start; a recorder killed (its pid
#    file left) is not signalled.
# 3. An overrun: the recorder and dcmd stopped (SIGSTOP) while a flood of
#    diagnostics fills their event sockets (the drops are seen in
#    /proc/net/netlink), then a fall (dcm_sim's imu/angle_y): once going
#    again, the recorder writes a file for the fall, holding its event, and
#    dcmd logs it (/run/dcmd.log): both read it from the kernel's history.
#
# POSIX sh (busybox). Prints TAP and ends with the kselftest Totals line.

DIR=$(cd "$(dirname "$0")" && pwd)
H=$DIR/dcm_access_helper
IMU=/sys/kernel/debug/dcm_sim/body0/imu
DCMD_LOG=/run/dcmd.log
TMP=$(mktemp -d)
U=/tmp/flight-nao.$$
FPID=
SPID=
DPID=
FLOOD=
cleanup() {
	[ -n "$FLOOD" ] && kill $FLOOD 2>/dev/null
	[ -n "$DPID" ] && kill -CONT $DPID 2>/dev/null
	[ -n "$FPID" ] && kill -CONT $FPID 2>/dev/null && kill $FPID 2>/dev/null
	[ -n "$SPID" ] && kill $SPID 2>/dev/null
	[ -w $IMU/angle_y ] && echo 0 >$IMU/angle_y
	rm -rf "$TMP" "$U"
}
trap cleanup EXIT

. "$DIR/dcm_tap.sh"

if [ ! -d /sys/class/dcm/dcm0/SubDeviceList/HeadYaw ] || [ ! -x "$H" ]; then
	skip_all "no default description or no dcm_access_helper"
fi

nao() {
	"$H" as 1000 1000 - "$@"
}

# victims: root's files, which no recorder may write
for v in 1 2 3; do
	echo "root's file $v" >$TMP/victim$v
done
victims_intact() {
	for v in 1 2 3; do
		[ "$(cat $TMP/victim$v)" = "root's file $v" ] || return 1
	done
}

# flight_runs --dir DIR: 1 if a recorder on DIR refuses to start (exit 1,
# its stderr in $TMP/refused), else 0: one that runs is asked for a file
# (what a hostile directory would make it write), then stopped.
flight_runs() {
	dcmctl flight --seconds 1 --after 0 "$@" >$TMP/refused.out 2>$TMP/refused &
	_p=$!
	wait_until 3 holds "! kill -0 $_p 2>/dev/null"
	if kill -0 $_p 2>/dev/null; then
		dcmctl flight-dump --timeout 5 "$@" >/dev/null 2>&1
		kill $_p
		wait $_p
		return 0
	fi
	wait $_p
	[ $? = 1 ] || return 0
	return 1
}

# 1. The user's directory, with links to root's files.
nao sh -c "mkdir -m 0755 $U && ln -s $TMP/victim1 $U/flight.pid &&
	ln -s $TMP/victim2 $U/flight-latest.jsonl.new && ln -s $TMP/victim3 $U/flight-latest.jsonl"
[ -L $U/flight.pid ] && [ "$(stat -c %u $U)" = 1000 ]
check $? "nao made $U with flight.pid -> a file of root's"
! flight_runs --dir $U && grep -q "owned by uid 1000" $TMP/refused
check $? "root's recorder refuses nao's directory ($(cat $TMP/refused))"
victims_intact && [ -L $U/flight.pid ] && [ "$(readlink $U/flight.pid)" = $TMP/victim1 ]
check $? "root's files the links name are unchanged, the links too"
dcmctl flight-dump --dir $U --timeout 2 >/dev/null 2>$TMP/dump.err
[ $? = 1 ] && victims_intact
check $? "root's flight-dump refuses it too ($(cat $TMP/dump.err))"

# a link in root's own directory is not followed
mkdir -m 0755 $TMP/own
ln -s $TMP/victim1 $TMP/own/flight.pid
! flight_runs --dir $TMP/own && grep -q "flight.pid: a symbolic link" $TMP/refused &&
	victims_intact
check $? "a link flight.pid in root's directory is not followed ($(cat $TMP/refused))"
rm $TMP/own/flight.pid

# a directory every user may write in, a directory given through a link
mkdir -m 1777 $TMP/open
! flight_runs --dir $TMP/open && grep -q "writable by every user" $TMP/refused
check $? "a directory writable by every user is refused ($(cat $TMP/refused))"
ln -s $TMP/own $TMP/link
! flight_runs --dir $TMP/link && grep -q "a symbolic link" $TMP/refused &&
	[ ! -e $TMP/own/flight.pid ]
check $? "a directory given through a symbolic link is refused ($(cat $TMP/refused))"

# 2. A stale pid file naming a live process.
mkdir -m 0755 $TMP/stale
sleep 1000 &
SPID=$!
echo $SPID >$TMP/stale/flight.pid
dcmctl flight-dump --dir $TMP/stale --timeout 2 >/dev/null 2>$TMP/dump.err
st=$?
sleep "$(scaled 0.5)"
[ $st = 1 ] && grep -q "stale" $TMP/dump.err && kill -0 $SPID
check $? "flight-dump refuses a pid file no recorder locks, and the sleep it names lives ($(cat $TMP/dump.err))"

# a recorder running: a second one in its directory refuses
mkdir -m 0755 $TMP/fl
dcmctl flight --dir $TMP/fl --seconds 2 --after 0.5 --keep 0 >$TMP/fl.out 2>$TMP/fl.err &
FPID=$!
wait_until 20 holds "[ \"\$(cat $TMP/fl/flight.pid 2>/dev/null)\" = $FPID ]"
check $? "a recorder runs, its pid in flight.pid ($(cat $TMP/fl.err))"
f=$(dcmctl flight-dump --dir $TMP/fl --timeout $((10 * slow)) 2>&1)
[ $? = 0 ] && [ -f "$f" ] && head -n 1 "$f" | grep -q '"reason":"on demand"'
check $? "flight-dump asks the recorder for a file ($f)"
# the child that wrote it took no lock with it
! flight_runs --dir $TMP/fl && grep -q "another flight recorder (pid $FPID)" $TMP/refused &&
	[ "$(cat $TMP/fl/flight.pid)" = $FPID ]
check $? "a second recorder in its directory refuses to start ($(cat $TMP/refused))"

# 3. The recorder and dcmd stopped while a flood fills their sockets, then a fall.
if [ ! -w $IMU/angle_y ]; then
	n=$((n + 1))
	skip=$((skip + 1))
	echo "ok $n # SKIP no dcm_sim imu/angle_y"
	totals
	exit
fi
if ! kill -0 $FPID 2>/dev/null; then
	check 1 "the recorder still runs"
	totals
	exit
fi
DPID=$(pidof dcmd | cut -d' ' -f1)
# drops PID: the messages the kernel dropped on the netlink sockets of PID
drops() {
	for fd in /proc/$1/fd/*; do
		readlink "$fd"
	done 2>/dev/null | sed -n 's/^socket:\[\([0-9]*\)\]$/\1/p' >$TMP/inodes
	awk 'NR == FNR { want[$1] = 1; next } FNR > 1 && ($10 in want) { d += $9 } END { print d + 0 }' \
		$TMP/inodes /proc/net/netlink
}
overran() {
	[ "$(drops $FPID)" -gt 0 ] && { [ -z "$DPID" ] || [ "$(drops $DPID)" -gt 0 ]; }
}
kill -STOP $FPID $DPID
flood() {
	_i=0
	while [ ! -e $TMP/enough ] && [ $_i -lt 3000 ]; do
		dcmctl special diagnostic >/dev/null 2>&1
		_i=$((_i + 1))
	done
}
flood &
FLOOD=$!
flood &
FLOOD="$FLOOD $!"
# a look a second (each costs a few processes), for as long as the flood lasts
i=0
while ! overran && [ $i -lt 900 ] && { kill -0 $FLOOD; } 2>/dev/null; do
	sleep 1
	i=$((i + 1))
done
overran
st=$?
touch $TMP/enough
wait $FLOOD
FLOOD=
check $st "a flood of diagnostics overran the sockets of the stopped recorder and dcmd (drops $(drops $FPID) and ${DPID:+$(drops $DPID)})"
logged=$(grep -c 'fall fallen' $DCMD_LOG 2>/dev/null)
files=$(wc -l <$TMP/fl.out)
echo 1500 >$IMU/angle_y
wait_until 20 holds "dcmctl events --history --type fall --timeout 0 2>/dev/null | grep -q 'fall fallen'"
check $? "the fall is an event of the kernel's history"
echo 0 >$IMU/angle_y
kill -CONT $FPID $DPID
DPID=
# the file of the fall (the stop may have been a cycle fault too: a reason of the same file)
fall_file() {
	for _f in $(tail -n +$((files + 1)) $TMP/fl.out); do
		head -n 1 "$_f" | grep -q '"reason":"[^"]*fall (fallen: ' && echo "$_f" && return 0
	done
	return 1
}
wait_until 30 fall_file >/dev/null
f=$(fall_file)
check $? "the recorder, going again, writes a file for the fall ($(head -n 1 "${f:-/dev/null}" | cut -c 1-160))"
[ -n "$f" ] && grep '"event":' "$f" | grep '"type":"fall"' | grep -q '"value":1,'
check $? "holding the fall's event"
wait_until 20 holds "[ \$(grep -c 'fall fallen' $DCMD_LOG) -gt ${logged:-0} ]"
check $? "dcmd logs the fall ($(grep 'fall fallen' $DCMD_LOG | tail -n 1))"
grep -q 'overran' $DCMD_LOG
check $? "dcmd says its socket overran ($(grep 'overran' $DCMD_LOG | tail -n 1))"

kill $FPID
wait $FPID
st=$?
FPID=
[ $st = 0 ] && [ ! -e $TMP/fl/flight.pid ]
check $? "SIGTERM ends the recorder, its pid file gone (exit $st)"
dcmctl flight --dir $TMP/fl --seconds 1 --after 0 >/dev/null 2>&1 &
FPID=$!
wait_until 20 holds "[ -s $TMP/fl/flight.pid ]"
kill -KILL $FPID
wait $FPID 2>/dev/null
dcmctl flight-dump --dir $TMP/fl --timeout 2 >/dev/null 2>$TMP/dump.err
[ $? = 1 ] && grep -q "stale" $TMP/dump.err
check $? "a killed recorder's pid file is stale: nothing signalled ($(cat $TMP/dump.err))"
FPID=

totals
