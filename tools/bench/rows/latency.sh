# SPDX-License-Identifier: GPL-2.0
#
# Rows: the cycle's wake-up latency and work over BENCH_CYCLES cycles,
# idle and under stress-ng, next to cyclictest at the cycle thread's
# priority and period in the same VM; and the work at a 12 ms period.
#
# The cycle's figures come from its tracepoints (dcm_cycle_start's
# latency_ns, dcm_cycle_end's work_ns), with the controller's statistics
# (stats/overruns, stats/missed) for the periods lost. "woken" latencies are
# those of the cycles whose previous cycle had ended before their deadline:
# the thread slept and the timer woke it, which is what cyclictest measures;
# the others started late because the previous cycle's work ran over.

. /share/lib.sh

H=$(how latency)
period=$(cat $DCM/period_us)
pid=$(cycle_pid 0) || { log "no dcm0-cycle thread"; exit 1; }
prio=$(rt_prio "$pid")
row config "cycle thread priority" "$prio" "SCHED_FIFO" "$H"
row config "period" "$period" "us" "$H"
row config "cycles per latency run" "$BENCH_CYCLES" "cycles" "$H"

# dcm_run LABEL PERIOD_US: BENCH_CYCLES cycles traced; rows of LABEL.
dcm_run() {
	_label=$1
	_period=$2
	echo "$_period" >$DCM/period_us
	_o0=$(stat_of overruns)
	_m0=$(stat_of missed)
	cycles_trace "$BENCH_CYCLES" /tmp/cycles.txt
	_o1=$(stat_of overruns)
	_m1=$(stat_of missed)
	awk '$1 == "start" && $2 == 0 { print $5 / 1000 }' /tmp/cycles.txt >/tmp/lat.txt
	awk '$1 == "end" && $2 == 0 { print $5 / 1000 }' /tmp/cycles.txt >/tmp/work.txt
	# woken: the previous cycle ended before this one's deadline.
	awk '$2 != 0 { next }
	     $1 == "end" { end = $4; next }
	     $1 == "start" && end && $4 - $5 / 1000 > end { print $5 / 1000 }' \
		/tmp/cycles.txt >/tmp/woken.txt
	set -- $(pctl /tmp/lat.txt)
	row latency "cycle $_label p50" "$1" us "$H"
	row latency "cycle $_label p99" "$2" us "$H"
	row latency "cycle $_label p99.9" "$3" us "$H"
	row latency "cycle $_label max" "$4" us "$H"
	row latency "cycle $_label cycles" "$5" cycles "$H"
	set -- $(pctl /tmp/woken.txt)
	row latency "cycle $_label woken p50" "$1" us "$H"
	row latency "cycle $_label woken p99" "$2" us "$H"
	row latency "cycle $_label woken p99.9" "$3" us "$H"
	row latency "cycle $_label woken max" "$4" us "$H"
	row latency "cycle $_label woken cycles" "$5" cycles "$H"
	set -- $(pctl /tmp/work.txt)
	row work "$_label p50" "$1" us "$H"
	row work "$_label p99" "$2" us "$H"
	row work "$_label p99.9" "$3" us "$H"
	row work "$_label max" "$4" us "$H"
	row work "$_label cycles" "$5" cycles "$H"
	row work "$_label work over the period" \
		"$(awk -v p="$_period" '$1 > p { n++ } END { print n + 0 }' /tmp/work.txt)" \
		cycles "$H"
	row work "$_label overruns" "$((_o1 - _o0))" cycles "$H"
	row work "$_label missed periods" "$((_m1 - _m0))" periods "$H"
}

# ct_run: cyclictest, one thread at the cycle's priority and period, its
# histogram in us up to 1 s; "p50 p99 p99.9 max count" in /tmp/ct.sum.
ct_run() {
	cyclictest -m -q -t 1 -p "$prio" -i "$period" -l "$BENCH_CYCLES" -h 1000000 \
		>/tmp/ct.txt 2>/tmp/ct.err || { log "cyclictest failed: $(cat /tmp/ct.err)"; return 1; }
	# The buckets come in order: one pass. (busybox awk reads a number
	# with leading zeros as octal.)
	awk -v total="$BENCH_CYCLES" '
	function num(s) { sub(/^0+/, "", s); return s + 0 }
	BEGIN { split("0.50 0.99 0.999", ps, " "); for (k = 1; k <= 3; k++) need[k] = int(ps[k] * total + 0.999999) }
	/^[0-9]+[ \t]+[0-9]+/ {
		c += num($2)
		for (k = 1; k <= 3; k++) if (!(k in v) && c >= need[k]) v[k] = num($1)
		next
	}
	/^# Max Latencies:/ { max = num($4) }
	END {
		for (k = 1; k <= 3; k++) printf "%s ", (k in v) ? v[k] : ">1000000"
		print max, total
	}' /tmp/ct.txt >/tmp/ct.sum
}

ct_rows() {
	_label=$1
	ct_run || return 1
	set -- $(cat /tmp/ct.sum)
	row latency "cyclictest $_label p50" "$1" us "$H"
	row latency "cyclictest $_label p99" "$2" us "$H"
	row latency "cyclictest $_label p99.9" "$3" us "$H"
	row latency "cyclictest $_label max" "$4" us "$H"
	row latency "cyclictest $_label cycles" "$5" cycles "$H"
}

log "latency: idle, $BENCH_CYCLES cycles at $period us"
dcm_run idle "$period"
log "latency: cyclictest idle"
ct_rows idle
log "latency: under stress-ng"
stress_start
dcm_run stress "$period"
log "latency: cyclictest under stress-ng"
ct_rows stress
stress_stop
if [ -z "${BENCH_LATENCY_ONLY:-}" ]; then
	log "work: idle at 12 ms"
	dcm_run "idle 12 ms" 12000
fi
echo "$period" >$DCM/period_us
