# SPDX-License-Identifier: GPL-2.0
#
# Rows: the cycle's percentiles as the controller's own statistics give
# them (stats/percentiles: wake-up latency and work; stats/steps: each step
# of the work; cycle/buses: each bus's exchange; all from log-bucket
# histograms, within 6.25 %), next to the rows the tracepoints give
# (latency.sh), over BENCH_CYCLES cycles counted from a reset
# (stats/reset). A kernel without those files adds nothing.

. /share/lib.sh

H=$(how kstats)
[ -r "$DCM/stats/percentiles" ] ||
	{ log "kstats: no $DCM/stats/percentiles: nothing to add"; exit 0; }
[ -w "$DCM/stats/reset" ] && echo 1 >"$DCM/stats/reset"
wait_cycles "$BENCH_CYCLES"

# "NAME p50 p99 p99.9 max" lines, in ns: four rows each, in us.
pct_rows() {
	while read -r name p50 p99 p999 max _; do
		for q in "p50:$p50" "p99:$p99" "p99.9:$p999" "max:$max"; do
			ns=${q#*:}
			case "$ns" in '' | *[!0-9]*) continue ;; esac
			row "kernel statistics" "$name ${q%%:*}" \
				"$(awk -v n="$ns" 'BEGIN { printf "%.1f", n / 1000 }')" "us" "$H"
		done
	done
}
pct_rows <"$DCM/stats/percentiles"
[ -r "$DCM/stats/steps" ] && sed 's/^/step:/' "$DCM/stats/steps" | pct_rows
for f in work_overruns late_buses busy_buses; do
	[ -r "$DCM/stats/$f" ] && row "kernel statistics" "$f" "$(cat "$DCM/stats/$f")" "" "$H"
done
exit 0
