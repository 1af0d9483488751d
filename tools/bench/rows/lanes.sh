# SPDX-License-Identifier: GPL-2.0
#
# Rows: where the cycle's work goes between its lanes, buses at wire time,
# over BENCH_LANE_CYCLES cycles of dcm0 (default 2000): for each bus, the
# wake-up of its lane (from the cycle's queueing to the lane's start), the
# end of its exchange counted from the cycle's start, and how often it was
# the last to end (the bus the cycle waited for); then the cycle's join
# (from the last exchange's end to the cycle going on) and its work over
# the same cycles; and each simulated bus's wire time per cycle (dcm_sim's
# debugfs */wire), the floor of its exchange.
#
# From the tracepoints dcm_cycle_start, dcm_lane_exchanged,
# dcm_cycle_joined and dcm_cycle_end (events/dcm/ in tracefs).

. /share/lib.sh

H=$(how lanes)
N=${BENCH_LANE_CYCLES:-2000}

buses_in_order

if [ ! -e "$TR/events/dcm/dcm_lane_exchanged" ] && [ ! -e /sys/kernel/debug/tracing/events/dcm/dcm_lane_exchanged ]; then
	log "lanes: no dcm_lane_exchanged tracepoint in this dcm.ko"
	exit 0
fi
# wire_ns: "name wire_ns" of every simulated bus.
wire_ns() {
	for w in $(find $SIM -name wire 2>/dev/null); do
		d=${w%/wire}
		echo "${d##*/} $(awk '$1 == "wire_ns" { print $2 }' "$w")"
	done
}

wire_ns >/tmp/wire0.txt
c0=$(stat_of cycles)
tracing_setup
for e in dcm_cycle_start dcm_lane_exchanged dcm_cycle_joined dcm_cycle_end; do
	echo 1 >$TR/events/dcm/$e/enable
done
echo 1 >$TR/tracing_on
wait_cycles "$N"
echo 0 >$TR/tracing_on
c1=$(stat_of cycles)
wire_ns >/tmp/wire1.txt
cat $TR/trace >/tmp/lanes.trace
tracing_stop
echo >$TR/trace

# "figure value" lines, in us: wakeN, endN, lastN (1 when bus N ended
# last), join, work.
awk -f "$TRACE_AWK" -f - /tmp/lanes.trace >/tmp/lanes.txt <<'EOF'
function ts(  i, t, u) {
	for (i = 1; i <= NF; i++)
		if ($i ~ /^dcm_(cycle|lane)_[a-z]*:$/)
			break
	t = $(i - 1); sub(/:$/, "", t)
	split(t, u, ".")
	sub(/^0+/, "", u[2])
	return u[1] * 1000000 + u[2]
}
function flush(  b, lb, lt) {
	if (!incycle || !ended)
		return
	lb = -1; lt = -1
	for (b in endt) {
		print "wake" b, wake[b]
		print "end" b, endt[b] - t0
		if (endt[b] > lt) { lt = endt[b]; lb = b }
	}
	for (b in endt)
		print "last" b, (b == lb) ? 1 : 0
	if (joined != "")
		print "join", joined
	print "work", work
}
/dcm_cycle_start: dcm0 / { incycle = 1; ended = 0; t0 = ts(); delete wake; delete endt; joined = ""; next }
!incycle { next }
/dcm_lane_exchanged: dcm0 / { b = val("bus"); wake[b] = val("wake_ns") / 1000; endt[b] = ts(); next }
/dcm_cycle_joined: dcm0 / { joined = val("join_ns") / 1000; next }
/dcm_cycle_end: dcm0 / { work = val("work_ns") / 1000; ended = 1; flush(); incycle = 0; next }
EOF

# p50_p99 FIGURE NAME: rows "NAME p50" and "NAME p99" of the FIGURE lines.
p50_p99() {
	_name=$2
	awk -v f="$1" '$1 == f { print $2 }' /tmp/lanes.txt >/tmp/lane.txt
	set -- $(pctl /tmp/lane.txt)
	row lanes "$_name p50" "$1" us "$H"
	row lanes "$_name p99" "$2" us "$H"
}

cycles=$(grep -c '^work ' /tmp/lanes.txt)
row lanes "cycles traced" "$cycles" cycles "$H"
for b in $(awk '$1 ~ /^wake/ { sub(/^wake/, "", $1); print $1 }' /tmp/lanes.txt | sort -n -u); do
	label=$(sed -n "$((b + 1))p" /tmp/buses.txt)
	[ -n "$label" ] || label=$b
	for f in wake end; do
		p50_p99 "$f$b" "bus $label $f"
	done
	row lanes "bus $label ended last" \
		"$(awk -v f="last$b" '$1 == f { n++; s += $2 } END { printf "%.1f", n ? 100 * s / n : 0 }' /tmp/lanes.txt)" \
		"% of cycles" "$H"
done
for f in join work; do
	p50_p99 "$f" "cycle $f"
done
awk -v n=$((c1 - c0)) 'NR == FNR { w[$1] = $2; next }
	($1 in w) && n > 0 { printf "%s %.1f\n", $1, ($2 - w[$1]) / n / 1000 }' \
	/tmp/wire0.txt /tmp/wire1.txt | sort >/tmp/wire.txt
while read -r name v; do
	row lanes "wire time of $name per cycle" "$v" us "$H"
done </tmp/wire.txt
