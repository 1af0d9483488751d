#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# dcm_readers_test.sh: what anyone may read, in the VM with the default
# description. The user nao (uid 1000, outside the group dcm) reads the
# boards' diagnostics (dcmctl special diagnostic: open to every user) and
# the events, those from before it subscribed included (the kernel's
# history: dcmctl events --history), and cannot command: the other
# special commands need CAP_NET_ADMIN. A cycle fault (a stall of the
# cycle thread, debugfs stall_ms) that happened before anyone asked is
# found in the history; the history keeps the last 64 informational
# events and, apart, the last 64 safety events, each once.
#
# POSIX sh (busybox). Prints TAP and ends with the kselftest Totals line.

SYS=/sys/class/dcm/dcm0
DIR=$(cd "$(dirname "$0")" && pwd)
H=$DIR/dcm_access_helper
STALL=/sys/kernel/debug/dcm/dcm0/stall_ms
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

. "$DIR/dcm_tap.sh"

if [ ! -d "$SYS/SubDeviceList/HeadYaw" ] || [ ! -x "$H" ] || [ ! -w "$STALL" ]; then
	skip_all "no default description, no dcm_access_helper or no debugfs stall_ms"
fi

# nao, outside the group dcm.
nao() {
	"$H" as 1000 1000 - "$@"
}

# 1. A cycle fault before anyone asks: a 700 ms stall of the cycle.
faults=$(cat $SYS/safety/cycle_faults)
echo 700 >$STALL
i=0
while [ "$(cat $SYS/safety/cycle_faults)" = "$faults" ] && [ $i -lt $((50 * slow)) ]; do
	sleep 0.1
	i=$((i + 1))
done
[ "$(cat $SYS/safety/cycle_faults)" -gt "$faults" ]
check $? "a stall of 700 ms is a cycle fault (cycle_faults $faults -> $(cat $SYS/safety/cycle_faults))"

# 2. nao finds it in the history, marked as such, with its number.
nao dcmctl -j events --history --type safety --timeout 1 >$TMP/hist 2>$TMP/err
st=$?
[ $st = 0 ]
check $? "nao runs dcmctl events --history (exit $st: $(head -c 200 $TMP/err))"
grep '"rule":"cycle-fault"' $TMP/hist | grep '"value":1,' | grep -q '"history":true'
check $? "the history holds the cycle fault that started before nao subscribed"
grep -q '"seq":[0-9]' $TMP/hist
check $? "each event of the history carries its number (seq)"
# (earlier tests' safety events may come first in the history: any will do)
nao dcmctl -j events --history --type safety --count 1 --timeout 5 >$TMP/one 2>&1
st=$?
[ $st = 0 ] && [ "$(wc -l <$TMP/one)" = 1 ] && grep -q '"history":true' $TMP/one
check $? "--count 1 is met by the history alone (exit $st: $(head -c 200 $TMP/one))"

# 3. Without --history, nothing of the past: a subscriber sees live events only.
nao dcmctl -j events --type safety --timeout 1 >$TMP/live 2>&1
! grep '"rule":"cycle-fault"' $TMP/live | grep -q '"value":1,'
check $? "without --history the fault's start is not shown ($(head -c 200 $TMP/live))"

# 4. Diagnostics for everyone; the other special commands refused.
nao dcmctl special diagnostic >$TMP/diag 2>&1
st=$?
[ $st = 0 ] && grep -q 'ChestBoard' $TMP/diag
check $? "nao reads every board's diagnostic (exit $st: $(head -c 200 $TMP/diag))"
nao dcmctl -j special diagnostic >$TMP/diag.json 2>&1
grep -q '"ack":[0-9]' $TMP/diag.json
check $? "and as JSON, with the Ack counters"
acks=$(cat $SYS/DeviceList/ChestBoard/Ack 2>/dev/null)
nao dcmctl special reset >$TMP/reset 2>&1
st=$?
[ $st = 1 ] && grep -q 'CAP_NET_ADMIN' $TMP/reset
check $? "nao's special reset is refused (exit $st: $(head -c 200 $TMP/reset))"
nao dcmctl special chain >/dev/null 2>&1
[ $? = 1 ]
check $? "so is special chain"
a2=$(cat $SYS/DeviceList/ChestBoard/Ack 2>/dev/null)
[ -z "$acks" ] || [ "$a2" -ge "$acks" ]
check $? "the counters were not cleared ($acks -> $a2)"
nao dcmctl set ChestBoard/Led/Red/Actuator 0.5 >/dev/null 2>&1
[ $? != 0 ]
check $? "nao cannot command an actuator"
nao dcmctl stats >$TMP/stats 2>&1 && grep -q '^cycles: ' $TMP/stats
check $? "nao reads the cycle's statistics"

# 5. The history and the live events, each once: a subscriber that starts
#    while events come sees increasing numbers, no double.
nao dcmctl -j events --history --timeout $((2 * slow)) >$TMP/both 2>&1 &
pid=$!
sleep 0.5
for i in 1 2 3 4 5; do
	dcmctl special diagnostic >/dev/null 2>&1
done
wait $pid
sed -n 's/.*"index":\([0-9]*\),.*"seq":\([0-9]*\).*/\1 \2/p' $TMP/both >$TMP/seqs
awk 'BEGIN { ok = 1 } { if ($1 in last && $2 <= last[$1]) ok = 0; last[$1] = $2 }
     END { exit !ok }' $TMP/seqs
check $? "history then live: numbers increase, no event twice ($(wc -l <$TMP/seqs) events)"
[ "$(grep -c '"type":"special"' $TMP/both)" -ge 5 ]
check $? "the 5 special events posted meanwhile were shown"

# 6. The history holds the last 64 informational events of a controller,
#    no more, and its safety events apart: the cycle fault is still there.
for i in $(seq 70); do
	dcmctl special diagnostic >/dev/null 2>&1
done
dcmctl -j -d 0 events --history --timeout 0 >$TMP/all 2>&1
grep '"index":0,' $TMP/all | grep -v -e '"type":"error"' -e '"type":"nack"' -e '"type":"ack"' \
	-e '"type":"safety"' -e '"type":"temperature"' -e '"type":"battery"' \
	-e '"type":"watchdog"' -e '"type":"fall"' >$TMP/info
kept=$(wc -l <$TMP/info)
[ "$kept" = 64 ]
check $? "after 70 more events the history of dcm0 holds 64 informational ones ($kept)"
grep '"rule":"cycle-fault"' $TMP/all | grep -q '"value":1,'
check $? "the cycle fault's safety event is still in the history"
sed -n 's/.*"index":0,.*"seq":\([0-9]*\).*/\1/p' $TMP/all >$TMP/allseq
sort -n -c $TMP/allseq && [ "$(sort -u $TMP/allseq | wc -l)" = "$(wc -l <$TMP/allseq)" ]
check $? "both classes in the order posted, each event once ($(wc -l <$TMP/allseq) events)"

totals
