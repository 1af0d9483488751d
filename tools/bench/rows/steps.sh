# SPDX-License-Identifier: GPL-2.0
#
# Rows: the cycle's work step by step, buses at their wire time: the timed
# commands (actuate), the safety rules, each bus's exchange, the publish of
# the snapshot; p50 and p99 over BENCH_STEP_CYCLES cycles of dcm0
# (default 2000).
#
# Measured with the function_graph tracer on the functions the cycle calls
# for each step (a bus: dcm_bus_exchange(), its bus index taken by a kprobe
# event at its entry, or its rank in the cycle where kprobes are missing);
# the tracer's own cost is in the figures, so they are upper bounds, and the
# cycle's total from dcm_cycle_end is given beside them, traced the same way.

. /share/lib.sh

H=$(how steps)
N=${BENCH_STEP_CYCLES:-2000}
STEPS="dcm_runtime_actuate dcm_boards_over_limit dcm_safety_cycle dcm_boards_safety dcm_bus_exchange dcm_runtime_publish"

buses_in_order

tracing_setup
for f in $STEPS; do
	grep -q "^$f " $TR/available_filter_functions ||
		log "steps: $f cannot be traced (inlined?): its step is missing"
done
# shellcheck disable=SC2086
echo $STEPS >$TR/set_ftrace_filter 2>/dev/null
kp=0
if echo 'p:dcmbench/bus dcm_bus_exchange bus=%si:u32' >>$TR/kprobe_events 2>/dev/null; then
	echo 1 >$TR/events/dcmbench/bus/enable && kp=1
fi
[ $kp = 1 ] || log "steps: no kprobe on dcm_bus_exchange: buses by their rank in the cycle"
echo 1 >$TR/events/dcm/dcm_cycle_start/enable
echo 1 >$TR/events/dcm/dcm_cycle_end/enable
echo 1 >$TR/options/funcgraph-proc
echo 1 >$TR/options/funcgraph-tail
echo 0 >$TR/options/funcgraph-irqs 2>/dev/null
echo function_graph >$TR/current_tracer
echo 1 >$TR/tracing_on
wait_cycles "$N"
echo 0 >$TR/tracing_on
cat $TR/trace >/tmp/steps.trace
tracing_stop
[ $kp = 1 ] && echo 0 >$TR/events/dcmbench/bus/enable
echo '-:dcmbench/bus' >>$TR/kprobe_events 2>/dev/null
echo >$TR/set_ftrace_filter
echo 0 >$TR/options/funcgraph-proc
echo 0 >$TR/options/funcgraph-tail

# Per cycle of dcm0: each step's time, in us: "step value" lines.
awk -v kp=$kp '
function dur(line,  n, i, a) {
	n = split(line, a, /[ \t]+/)
	for (i = 2; i <= n; i++)
		if (a[i] == "us" && a[i - 1] ~ /^[0-9.]+$/)
			return a[i - 1] + 0
	return -1
}
function flush(  b) {
	if (!incycle)
		return
	print "actuate", act + 0
	print "safety", saf + 0
	for (b in bus)
		print "bus" b, bus[b]
	print "publish", pub + 0
	print "total", total + 0
}
/dcm_cycle_start: dcm0 / { flush(); incycle = 1; act = saf = pub = total = 0; delete bus; rank = 0; pend = ""; open = 0; next }
/dcm_cycle_end: dcm0 / { if (incycle) { v = $0; sub(/.*work_ns=/, "", v); total = v / 1000 }; next }
!incycle { next }
/bus: \(dcm_bus_exchange/ { v = $0; sub(/.*bus=/, "", v); sub(/[^0-9].*/, "", v); if (open) cur = v; else pend = v; next }
/dcm_bus_exchange.*\{/ { cur = pend != "" ? pend : rank; pend = ""; rank++; open = 1; next }
/dcm_bus_exchange.*\(\);/ { d = dur($0); if (d >= 0) bus[pend != "" ? pend : rank] += d; pend = ""; rank++; next }
/\} *\/\* dcm_bus_exchange/ { d = dur($0); if (d >= 0) bus[cur] += d; open = 0; next }
/dcm_runtime_actuate/ { d = dur($0); if (d >= 0) act += d; next }
/dcm_boards_over_limit|dcm_safety_cycle|dcm_boards_safety/ { d = dur($0); if (d >= 0) saf += d; next }
/dcm_runtime_publish/ { d = dur($0); if (d >= 0) pub += d; next }
END { flush() }' /tmp/steps.trace >/tmp/steps.txt

names=$(awk '{ print $1 }' /tmp/steps.txt | awk '!s[$0]++')
cycles=$(grep -c '^total ' /tmp/steps.txt)
row steps "cycles traced" "$cycles" cycles "$H"
for s in $names; do
	awk -v s="$s" '$1 == s { print $2 }' /tmp/steps.txt >/tmp/step.txt
	set -- $(pctl /tmp/step.txt)
	label=$s
	case "$s" in
	bus*)
		i=${s#bus}
		label="bus $(sed -n "$((i + 1))p" /tmp/buses.txt)"
		[ "$label" = "bus " ] && label="bus $i"
		;;
	total) label="cycle (dcm_cycle_end)" ;;
	esac
	row steps "$label p50" "$1" us "$H"
	row steps "$label p99" "$2" us "$H"
done
