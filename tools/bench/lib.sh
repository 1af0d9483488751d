# SPDX-License-Identifier: GPL-2.0
#
# What the rows of make bench share (tools/bench/rows/*.sh, run in the VM by
# tools/bench/run-rows.sh, which sources this first). Busybox sh and awk.
#
# A rows file prints lines
#   ROW<TAB>section<TAB>name<TAB>value<TAB>unit<TAB>how to reproduce
# with row(); scripts/bench.sh turns them into Documentation/dcm/benchmarks.rst.
# Everything else it prints goes to the log, not to the report.

DCM=/sys/class/dcm/dcm0
SELFTESTS=${SELFTESTS:-/opt/dcm/selftests}
# What the awk programs that read the dcm tracepoints' key=value fields
# share (val()), installed with the selftests: awk -f "$TRACE_AWK" -f - ...
TRACE_AWK=$SELFTESTS/dcm_trace.awk
SIM=/sys/kernel/debug/dcm_sim
TR=/sys/kernel/tracing
# Cycles per latency run (at least 10 000 for the report; fewer to try it out).
BENCH_CYCLES=${BENCH_CYCLES:-10000}
# How a row is reproduced: the make target, and which rows file.
BENCH_MAKE=${BENCH_MAKE:-make bench}

# row SECTION NAME VALUE UNIT HOW
row() {
	printf 'ROW\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5"
}

# how ROWSFILE: the command that runs that rows file alone.
how() {
	echo "$BENCH_MAKE BENCH_ROWS=$1"
}

log() {
	echo "bench: $*" >&2
}

# tracing_setup: tracefs mounted, tracing off and empty, the clock
# CLOCK_MONOTONIC (the one user space reads), a buffer for 10 000 cycles.
tracing_setup() {
	[ -e $TR/trace ] || mount -t tracefs nodev $TR 2>/dev/null ||
		TR=/sys/kernel/debug/tracing
	echo 0 >$TR/tracing_on
	echo nop >$TR/current_tracer
	echo >$TR/set_event
	echo mono >$TR/trace_clock
	echo "${BENCH_TRACE_KB:-16384}" >$TR/buffer_size_kb
	echo >$TR/trace
}

tracing_stop() {
	echo 0 >$TR/tracing_on
	echo >$TR/set_event
	echo nop >$TR/current_tracer
}

# stat_of FILE: a controller statistic (sysfs stats/).
stat_of() {
	cat "$DCM/stats/$1"
}

# wait_cycles N [DIR]: until the controller has run N more cycles.
wait_cycles() {
	_dir=${2:-$DCM}
	_end=$(($(cat "$_dir/stats/cycles") + $1))
	while [ "$(cat "$_dir/stats/cycles")" -lt "$_end" ]; do
		sleep 1
	done
}

# work_pct: "p50 p99" of the cycle's work since the last reset of dcm0's
# statistics, in ns.
work_pct() {
	awk '$1 == "work" { print $2, $3 }' "$DCM/stats/percentiles"
}

# measure_work N: the statistics reset, N cycles run, then work_pct.
measure_work() {
	echo 1 >"$DCM/stats/reset"
	wait_cycles "$1"
	work_pct
}

# us NS: NS nanoseconds in microseconds, one decimal.
us() {
	awk -v n="$1" 'BEGIN { printf "%.1f", n / 1000 }'
}

# ratio A B: A / B, two decimals (0 when B is 0).
ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'
}

# cycle_pid N: the pid of dcmN's cycle thread.
cycle_pid() {
	for _s in /proc/[0-9]*/comm; do
		if [ "$(cat "$_s" 2>/dev/null)" = "dcm$1-cycle" ]; then
			_p=${_s#/proc/}
			echo "${_p%/comm}"
			return 0
		fi
	done
	return 1
}

# rt_prio PID: its SCHED_FIFO priority.
rt_prio() {
	awk '{ sub(/.*\) /, ""); print $38 }' "/proc/$1/stat"
}

# pctl FILE: "p50 p99 p99.9 max count" of the numbers in FILE, one a line
# (nearest rank).
pctl() {
	sort -n "$1" | awk '
		{ v[NR] = $1 }
		function at(p,  i) { i = int(p * NR + 0.999999); if (i < 1) i = 1; return v[i] }
		END {
			if (!NR) { print "- - - - 0"; exit }
			printf "%.1f %.1f %.1f %.1f %d\n", at(0.50), at(0.99), at(0.999), v[NR], NR
		}'
}

# stress_start / stress_stop: the load of the "under stress" rows: stress-ng
# on every CPU, memory and the scheduler, at normal priority.
stress_start() {
	stress-ng --cpu 0 --vm 1 --vm-bytes 64M --switch 1 --timeout 3600 \
		>/tmp/stress-ng.log 2>&1 &
	STRESS_PID=$!
	sleep 2
}

stress_stop() {
	[ -n "${STRESS_PID:-}" ] || return 0
	kill "$STRESS_PID" 2>/dev/null
	wait "$STRESS_PID" 2>/dev/null
	STRESS_PID=
}

# cycles_trace N OUT: N cycles of every controller's dcm_cycle_start and
# dcm_cycle_end events, as "start|end INDEX CYCLE TS_US VALUE_NS" lines in
# OUT (VALUE: the wake-up latency, or the work).
cycles_trace() {
	tracing_setup
	echo 1 >$TR/events/dcm/dcm_cycle_start/enable
	echo 1 >$TR/events/dcm/dcm_cycle_end/enable
	echo 1 >$TR/tracing_on
	wait_cycles "$1"
	echo 0 >$TR/tracing_on
	trace_cycles <$TR/trace >"$2"
	tracing_stop
	echo >$TR/trace
}

# trace_cycles: the cycle events of a trace, parsed (cycles_trace()).
trace_cycles() {
	awk '
	/dcm_cycle_(start|end):/ {
		for (i = 1; i <= NF; i++)
			if ($i ~ /^dcm_cycle_(start|end):$/)
				break
		ts = $(i - 1); sub(/:$/, "", ts)
		split(ts, t, ".")
		# busybox awk reads "000123" as octal: no leading zeros
		sub(/^0+/, "", t[2])
		us = t[1] * 1000000 + t[2]
		idx = $(i + 1); sub(/^dcm/, "", idx)
		cyc = $(i + 2); sub(/^cycle=/, "", cyc)
		if ($i == "dcm_cycle_start:") {
			v = $(i + 4); sub(/^latency_ns=/, "", v)
			print "start", idx, cyc, us, v
		} else {
			v = $(i + 3); sub(/^work_ns=/, "", v)
			print "end", idx, cyc, us, v
		}
	}'
}

# buses_in_order: the description's buses in the cycle's order, by the
# first device of each, into /tmp/buses.txt (dcmd loads /etc/dcm/Device.xml
# if there, else the shipped one).
buses_in_order() {
	local f

	for f in /etc/dcm/Device.xml /usr/share/dcm/Device.xml; do
		[ -f "$f" ] || continue
		grep -o '<Device [^>]*Bus="[^"]*"' "$f" | sed 's/.*Bus="\([^"]*\)"/\1/' |
			awk '!s[$0]++' >/tmp/buses.txt
		break
	done
}
