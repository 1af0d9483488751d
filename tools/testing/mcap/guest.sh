#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest's half of test_mcap.py: recordings as MCAP in the VM, each
# file printed in base64 between "=== FILE NAME" and "=== END" lines, the
# values sysfs reads as "=== SYSFS KEY VALUE" lines and the outcome of
# each step as "=== STEP NAME STATUS [TEXT]" lines, for the host to check
# with the MCAP reader (the VM has no Node.js).
#
#   all.mcap     every key, 300 cycles (dcm-web's channels, live keys too)
#   sel.mcap     two joints' command and an LED, constant: their values are
#                those sysfs reads before and after
#   rot.mcap*    --max-size 100k --max-files 3: each file whole
#   killed.mcap  a recording ended by SIGKILL after its first chunks: no
#                summary, no footer, as a power loss leaves it
#   flight-*.mcap  dcmctl flight -f mcap: one on demand, one of a cycle
#                fault (its event on /events)
set -u
SYS=/sys/class/dcm/dcm0
SUB=$SYS/SubDeviceList
STALL=/sys/kernel/debug/dcm/dcm0/stall_ms
# The waits stretch by DCM_TEST_TIMEOUT_SCALE (make check-debug's).
scale=${DCM_TEST_TIMEOUT_SCALE:-1}
scale=${scale%%.*}
case "$scale" in '' | *[!0-9]* | 0) scale=1 ;; esac
T=/tmp/mcap
mkdir -p $T

step() {
	echo "=== STEP $1 $2 ${3:-}"
}

put() {
	echo "=== FILE $1"
	base64 "$2"
	echo "=== END"
}

sysfs() {
	echo "=== SYSFS $1 $(cat "$SUB/$1/Value")"
}

dcmctl set HeadYaw/Hardness/Actuator 0 >/dev/null
dcmctl set HeadPitch/Hardness/Actuator 0 >/dev/null
dcmctl set ChestBoard/Led/Red/Actuator 0.4 >/dev/null
dcmctl set HeadYaw/Position/Actuator 0.25 >/dev/null
dcmctl set HeadPitch/Position/Actuator -0.125 >/dev/null
sleep 0.5

# every key
dcmctl record -f mcap --cycles 300 -o $T/all.mcap 2>$T/all.err
step all $? "$(cat $T/all.err)"
put all.mcap $T/all.mcap

# chosen keys, constant: compared with sysfs before and after
for k in ChestBoard/Led/Red/Actuator HeadYaw/Position/Actuator HeadPitch/Position/Actuator; do
	sysfs $k
done
dcmctl record -f mcap HeadYaw/Position/Actuator HeadPitch/Position/Actuator \
	ChestBoard/Led/Red/Actuator --every 2 --cycles 200 -o $T/sel.mcap 2>$T/sel.err
step sel $? "$(cat $T/sel.err)"
for k in ChestBoard/Led/Red/Actuator HeadYaw/Position/Actuator HeadPitch/Position/Actuator; do
	sysfs $k
done
put sel.mcap $T/sel.mcap

# the summary counts as the rows do: --every 50, CSV, its last row's cycle
dcmctl record HeadYaw/Position/Sensor --every 50 --cycles 500 -o $T/every.csv 2>$T/every.err
rows=$(($(wc -l <$T/every.csv) - 1))
first=$(sed -n 2p $T/every.csv | cut -d, -f1)
last=$(tail -n 1 $T/every.csv | cut -d, -f1)
grep -q "record: $rows rows, cycles $first to $last," $T/every.err
step every $? "$(cat $T/every.err) (rows $rows, first $first, last $last)"
# and so in MCAP: the rows are the messages of a channel
dcmctl record -f mcap HeadYaw/Position/Sensor --every 50 --cycles 500 -o $T/every.mcap 2>$T/everym.err
step everymcap $? "$(cat $T/everym.err)"
put every.mcap $T/every.mcap

# rotation
dcmctl record -f mcap --duration 3 -o $T/rot.mcap --max-size 100k --max-files 3 2>$T/rot.err
step rot $? "$(cat $T/rot.err)"
for f in $T/rot.mcap $T/rot.mcap.1 $T/rot.mcap.2; do
	[ -f "$f" ] && put "$(basename "$f")" "$f"
done

# a power loss: SIGKILL once the file holds a few chunks (one a second)
dcmctl record -f mcap --duration 120 -o $T/killed.mcap 2>/dev/null &
rp=$!
i=0
while [ "$(stat -c %s $T/killed.mcap 2>/dev/null || echo 0)" -lt 300000 ] && [ $i -lt $((600 * scale)) ]; do
	sleep 0.1
	i=$((i + 1))
done
kill -9 $rp
wait $rp 2>/dev/null
step killed 0 "$(stat -c %s $T/killed.mcap) bytes"
put killed.mcap $T/killed.mcap

# refusals
dcmctl record -f MCAP --cycles 1 -o $T/x.mcap >/dev/null 2>$T/e1
[ $? = 2 ] && grep -q "unknown format 'MCAP' (csv, jsonl or mcap)" $T/e1
step badformat $? "$(cat $T/e1)"
# a full disk: said once, exit 1, not a file that looks whole
dcmctl record -f mcap --cycles 200 -o /dev/full 2>$T/e3
[ $? = 1 ] && [ "$(grep -c "No space left on device" $T/e3)" = 1 ]
step full $? "$(cat $T/e3)"
# the flight recorder's directory through a symbolic link: refused, as for JSON lines
mkdir -p $T/real
ln -s $T/real $T/link
dcm-flight -f mcap --dir $T/link >/dev/null 2>$T/e4
[ $? = 1 ] && [ -z "$(ls $T/real)" ]
step flightlink $? "$(cat $T/e4)"
dcm-flight --dump --format mcap >/dev/null 2>$T/e2
[ $? = 2 ] && grep -q -- "--format: not with --dump" $T/e2
step dumpformat $? "$(cat $T/e2)"

# the flight recorder, as MCAP
mkdir -p $T/fl
dcmctl flight -f mcap --dir $T/fl --seconds 2 --after 1 >$T/fl.out 2>$T/fl.err &
fp=$!
i=0
while [ ! -f $T/fl/flight.pid ] && [ $i -lt $((300 * scale)) ]; do
	sleep 0.1
	i=$((i + 1))
done
sleep 3
f=$(dcmctl flight-dump --dir $T/fl --timeout $((60 * scale)) 2>&1)
case "$f" in
*.mcap) [ -f "$f" ] && [ "$(readlink $T/fl/flight-latest.mcap)" = "$(basename "$f")" ] ;;
*) false ;;
esac
step flightdump $? "$f $(cat $T/fl.err)"
[ -f "$f" ] && put demand.mcap "$f"
if [ -w $STALL ]; then
	echo 700 >$STALL
	i=0
	while [ "$(wc -l <$T/fl.out)" -lt 2 ] && [ $i -lt $((600 * scale)) ]; do
		sleep 0.1
		i=$((i + 1))
	done
	f=$(tail -n 1 $T/fl.out)
	[ "$(wc -l <$T/fl.out)" = 2 ] && [ -f "$f" ]
	step flightfault $? "$f"
	[ -f "$f" ] && put fault.mcap "$f"
else
	step flightfault skip "no $STALL"
fi
kill $fp
wait $fp
step flightend $? "$(cat $T/fl.err)"
dcmctl set ChestBoard/Led/Red/Actuator 0 >/dev/null
dcmctl set HeadYaw/Position/Actuator 0 >/dev/null
dcmctl set HeadPitch/Position/Actuator 0 >/dev/null
echo "=== DONE"
