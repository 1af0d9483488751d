#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# dcm_lanes_test.sh: what the cycle's tracepoints say of its lanes
# (Documentation/dcm/architecture.rst, "The buses in parallel"), with the
# simulated buses at their wire time (dcm_sim's wire_time, switched on at
# run time), over CYCLES cycles of dcm0 (default 200) traced by
# dcm_cycle_start, dcm_lane_exchanged and dcm_cycle_joined:
#
# - every bus of the description exchanges in its lane, each traced with
#   its bus index;
# - the lanes of a cycle are traced with their places in its queue, each
#   once and below the number of lanes it queued;
# - the cycle joins its lanes at most once a cycle (none when every lane
#   is still busy with an earlier cycle's exchange).
#
# What is counted is what the cycle did, not how long it took: no bound of
# time is asserted. wire_time is put back as it was, and the tracing is
# left as it was found (the events enabled here disabled again, tracing_on
# and trace_clock restored). POSIX sh (busybox). Prints TAP and ends with
# the kselftest Totals line; exits 1 if a test failed.

DCM=/sys/class/dcm/dcm0
PARAM=/sys/module/dcm_sim/parameters/wire_time
TR=/sys/kernel/tracing
CYCLES=${CYCLES:-200}
T=/tmp/dcm_lanes_test

. "$(dirname "$0")/dcm_tap.sh"

[ -w "$PARAM" ] || skip_all "no dcm_sim with wire_time"
[ -e "$DCM/cycle/buses" ] || skip_all "no dcm0"
[ -e $TR/trace ] || mount -t tracefs nodev $TR 2>/dev/null || TR=/sys/kernel/debug/tracing
[ -e $TR/events/dcm/dcm_lane_exchanged ] || skip_all "no dcm_lane_exchanged tracepoint"
[ "$(cat /sys/module/dcm/parameters/parallel_buses)" = Y ] || skip_all "parallel_buses is off"
mkdir -p $T

# trace_events EVENT...: CYCLES cycles of dcm0 with those events, the trace
# in $T/trace.
trace_events() {
	echo 0 >$TR/tracing_on
	echo >$TR/trace
	echo mono >$TR/trace_clock
	for _e in "$@"; do
		echo 1 >"$TR/events/$_e/enable"
	done
	echo 1 >$TR/tracing_on
	until_cycles "$CYCLES"
	_rc=$?
	echo 0 >$TR/tracing_on
	for _e in "$@"; do
		echo 0 >"$TR/events/$_e/enable"
	done
	cat $TR/trace >$T/trace
	echo >$TR/trace
	return $_rc
}

was_on=$(cat $TR/tracing_on)
was_clock=$(sed 's/.*\[\(.*\)\].*/\1/' $TR/trace_clock)
was_wire=$(cat $PARAM)
nbus=$(wc -l <$DCM/cycle/buses)

echo 1 >$PARAM
check $? "wire_time switched on"
until_cycles 20

trace_events dcm/dcm_cycle_start dcm/dcm_lane_exchanged dcm/dcm_cycle_joined
check $? "$CYCLES cycles ran at wire time"
# One "bus B" line per lane's exchange, a "ranks" line for each joined
# cycle whose lanes' places in its queue are not each once below the
# number it queued (the bits of dcm_cycle_joined's buses), and "sum cycles
# joins twice" of dcm0.
awk -f "$(dirname "$0")/dcm_trace.awk" -f - $T/trace >$T/sum.txt <<'EOF'
# the bits set in a hexadecimal number "0x..."
function bits(h,  i, d, n) {
	n = 0
	sub(/^0x/, "", h)
	for (i = 1; i <= length(h); i++) {
		d = index("0123456789abcdef", substr(h, i, 1)) - 1
		n += (d >= 8) + (d % 8 >= 4) + (d % 4 >= 2) + d % 2
	}
	return n
}
/dcm_cycle_start: dcm0 / { c++; next }
/dcm_cycle_joined: dcm0 / {
	j++
	cy = val("cycle")
	if (cy in queued) twice++
	queued[cy] = bits(val("buses"))
	next
}
/dcm_lane_exchanged: dcm0 / {
	print "bus", val("bus")
	cy = val("cycle"); r = val("rank")
	if ((cy, r) in seen) dup[cy] = 1
	seen[cy, r] = 1
	if (r + 0 > maxr[cy] + 0) maxr[cy] = r
	next
}
END {
	for (cy in queued)
		if ((cy in dup) || ((cy in maxr) && maxr[cy] + 0 >= queued[cy]))
			print "ranks", cy
	print "sum", c + 0, j + 0, twice + 0
}
EOF
read -r _ ncyc njoin ntwice <<EOF2
$(grep '^sum ' $T/sum.txt)
EOF2
badranks=$(grep -c '^ranks ' $T/sum.txt)
echo "# $ncyc cycles traced, $njoin joins"
[ "$ncyc" -ge $((CYCLES / 2)) ]
check $? "the cycles were traced"
missing=
b=0
while [ "$b" -lt "$nbus" ]; do
	grep -q "^bus $b\$" $T/sum.txt || missing="$missing $b"
	b=$((b + 1))
done
[ -z "$missing" ]
check $? "each of the $nbus buses exchanged in its lane (none missing:$missing)"
[ "$badranks" = 0 ]
check $? "each cycle's lanes traced with their places in its queue ($badranks cycles not)"
# A cycle that finds every lane still busy with an earlier cycle's
# exchange queues none and joins none.
[ "$njoin" -gt 0 ] && [ "$njoin" -le $((ncyc + 1)) ] && [ "$ntwice" = 0 ]
check $? "the cycle joined its lanes at most once a cycle ($njoin joins in $ncyc cycles, $ntwice twice)"

echo "$was_wire" >$PARAM
echo "$was_clock" >$TR/trace_clock
echo "$was_on" >$TR/tracing_on
rm -rf $T
totals
