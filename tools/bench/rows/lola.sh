#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tools/bench/rows/lola.sh: dcm-lola's timing, in the VM (make bench runs
# every tools/bench/rows/*.sh there; this one also runs alone:
#   scripts/dcm-vm exec --share tools/bench/rows -- sh /share/lola.sh).
# At LoLA's 12 ms period, with the LoLA client of the selftests
# (dcm_lola_client.py bench): the time from a cycle's frame to its sensor
# map on the socket (the daemon's own measure, in its status), sensor maps
# that left after the next cycle had begun, and the cycles from an
# actuator map to its values leaving on the wire (the next sensor maps'
# Stiffness, which is the hardness sent to the motor).
#
# Prints lines ROW<TAB>section<TAB>name<TAB>value<TAB>unit<TAB>how.

SYS=/sys/class/dcm/dcm0
SOCK=/tmp/robocup-bench
PERIOD_MS=${LOLA_BENCH_PERIOD_MS:-12}
SAMPLES=${LOLA_BENCH_SAMPLES:-100}

client=
for c in "$(dirname "$0")/dcm_lola_client.py" \
	 "$(dirname "$0")/../../testing/selftests/dcm/dcm_lola_client.py" \
	 /opt/dcm/selftests/dcm_lola_client.py; do
	[ -f "$c" ] && client=$c && break
done
if [ -z "$client" ] || ! command -v dcm-lola >/dev/null 2>&1 || [ ! -d $SYS ]; then
	echo "lola.sh: needs dcm-lola, dcm0 and dcm_lola_client.py (the selftests)" >&2
	exit 1
fi

old=$(cat $SYS/period_us)
dcm-lola -s $SOCK --period "$PERIOD_MS" --priority 20 --timeout 2000 2>/tmp/lola-bench.log &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; echo "$old" >$SYS/period_us' EXIT
i=0
while [ ! -S $SOCK.status ] && [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
python3 "$client" bench --socket $SOCK --period-ms "$PERIOD_MS" --samples "$SAMPLES"
