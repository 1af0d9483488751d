# SPDX-License-Identifier: GPL-2.0
#
# Rows: what the recorders cost the cycle. The cycle's work (p50, p99 from
# the controller's own statistics, stats/percentiles, reset before each
# run) over BENCH_RECORDER_CYCLES cycles (3000 by default) alone, then
# while dcmctl record writes every key of every cycle into a file (CSV,
# then MCAP: dcm-web's channels as JSON, Documentation/userspace.rst
# "MCAP"), then while dcmctl flight keeps the last 10 s of every key; and
# the ratios with/without. Both read the frames from user space: the cycle only
# publishes them, as it does for any reader; what remains is the cost of
# a reader woken every cycle. Also the rows and missed cycles of the
# recording.

. /share/lib.sh

H=$(how recorder)
N=${BENCH_RECORDER_CYCLES:-3000}
[ -r "$DCM/stats/percentiles" ] && [ -w "$DCM/stats/reset" ] ||
	{ log "recorder: no $DCM/stats/percentiles or reset: nothing to add"; exit 0; }

set -- $(measure_work "$N")
base50=$1 base99=$2

dcmctl record -o /tmp/bench-record.csv 2>/tmp/bench-record.err &
rp=$!
sleep 1
set -- $(measure_work "$N")
rec50=$1 rec99=$2
kill "$rp"
wait "$rp"
log "recorder: $(cat /tmp/bench-record.err)"
rows=$(sed -n 's/.*record: \([0-9]*\) rows.*/\1/p' /tmp/bench-record.err)
missed=$(sed -n 's/.* \([0-9]*\) missed in.*/\1/p' /tmp/bench-record.err)
rm -f /tmp/bench-record.csv

dcmctl record -f mcap -o /tmp/bench-record.mcap 2>/tmp/bench-mcap.err &
rp=$!
sleep 1
set -- $(measure_work "$N")
mc50=$1 mc99=$2
kill "$rp"
wait "$rp"
log "recorder (mcap): $(cat /tmp/bench-mcap.err), $(wc -c </tmp/bench-record.mcap) bytes"
mrows=$(sed -n 's/.*record: \([0-9]*\) rows.*/\1/p' /tmp/bench-mcap.err)
mmissed=$(sed -n 's/.* \([0-9]*\) missed in.*/\1/p' /tmp/bench-mcap.err)
rm -f /tmp/bench-record.mcap

mkdir -p /tmp/bench-flight
dcmctl flight --dir /tmp/bench-flight >/dev/null 2>&1 &
fp=$!
sleep 1
set -- $(measure_work "$N")
fl50=$1 fl99=$2
kill "$fp"
wait "$fp"
rm -rf /tmp/bench-flight

row recorder "cycle work p50, no recorder" "$(us "$base50")" us "$H"
row recorder "cycle work p99, no recorder" "$(us "$base99")" us "$H"
row recorder "cycle work p50, dcmctl record (every key, every cycle)" "$(us "$rec50")" us "$H"
row recorder "cycle work p99, dcmctl record" "$(us "$rec99")" us "$H"
row recorder "cycle work p50, dcmctl record -f mcap (every key, every cycle)" "$(us "$mc50")" us "$H"
row recorder "cycle work p99, dcmctl record -f mcap" "$(us "$mc99")" us "$H"
row recorder "cycle work p50, dcmctl flight (10 s of every key)" "$(us "$fl50")" us "$H"
row recorder "cycle work p99, dcmctl flight" "$(us "$fl99")" us "$H"
row recorder "work p50 with record / without" "$(ratio "$rec50" "$base50")" x "$H"
row recorder "work p99 with record / without" "$(ratio "$rec99" "$base99")" x "$H"
row recorder "work p50 with record -f mcap / without" "$(ratio "$mc50" "$base50")" x "$H"
row recorder "work p99 with record -f mcap / without" "$(ratio "$mc99" "$base99")" x "$H"
row recorder "work p50 with flight / without" "$(ratio "$fl50" "$base50")" x "$H"
row recorder "work p99 with flight / without" "$(ratio "$fl99" "$base99")" x "$H"
row recorder "rows recorded (record)" "${rows:-0}" rows "$H"
row recorder "cycles missed by record" "${missed:-0}" cycles "$H"
row recorder "rows recorded (record -f mcap)" "${mrows:-0}" rows "$H"
row recorder "cycles missed by record -f mcap" "${mmissed:-0}" cycles "$H"
exit 0
