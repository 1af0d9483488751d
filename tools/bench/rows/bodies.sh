# SPDX-License-Identifier: GPL-2.0
#
# Rows: the cycle's work at 1, 2, 4 and 8 simulated bodies (dcm_sim
# bodies=N, buses at wire time, one dcmd each), over BENCH_BODY_CYCLES
# cycles of dcm0 (default 1000): each controller's cycle work (its wall time,
# wire waits included) and the CPU time all the cycle threads take per
# period (/proc/PID/schedstat), total and per body. The module is loaded
# again with one body at the end.

. /share/lib.sh

H=$(how bodies)
N=${BENCH_BODY_CYCLES:-1000}
BODIES=${BENCH_BODIES:-1 2 4 8}
cpu1=

for nb in $BODIES; do
	log "bodies: $nb"
	if ! dcm-sim-reload bodies="$nb" wire_time=1 >/tmp/reload.log 2>&1; then
		log "bodies: dcm-sim-reload bodies=$nb failed: $(cat /tmp/reload.log)"
		continue
	fi
	# Chaining and the first cycles of every body, before measuring.
	wait_cycles 200 "/sys/class/dcm/dcm$((nb - 1))"
	pids=
	for i in $(seq 0 $((nb - 1))); do
		pids="$pids $(cycle_pid "$i")"
	done
	# shellcheck disable=SC2086
	cpu0=$(for p in $pids; do cut -d' ' -f1 /proc/$p/schedstat; done | awk '{ s += $1 } END { printf "%.0f", s }')
	ov0=$(cat /sys/class/dcm/dcm*/stats/overruns /sys/class/dcm/dcm*/stats/missed | awk '{ s += $1 } END { printf "%.0f", s }')
	cycles_trace "$N" /tmp/bodies.txt
	# shellcheck disable=SC2086
	cpu1=$(for p in $pids; do cut -d' ' -f1 /proc/$p/schedstat; done | awk '{ s += $1 } END { printf "%.0f", s }')
	ov1=$(cat /sys/class/dcm/dcm*/stats/overruns /sys/class/dcm/dcm*/stats/missed | awk '{ s += $1 } END { printf "%.0f", s }')
	awk '$1 == "end" { print $5 / 1000 }' /tmp/bodies.txt >/tmp/bwork.txt
	# Periods: dcm0's cycles traced (plus the few before and after the trace).
	periods=$(awk '$1 == "end" && $2 == 0 { n++ } END { print n + 0 }' /tmp/bodies.txt)
	set -- $(pctl /tmp/bwork.txt)
	row bodies "$nb bodies: cycle work p50" "$1" us "$H"
	row bodies "$nb bodies: cycle work p99" "$2" us "$H"
	row bodies "$nb bodies: cycles traced, all controllers" "$5" cycles "$H"
	cpu=$(awk -v a="$cpu0" -v b="$cpu1" -v n="$periods" 'BEGIN { printf "%.1f", n ? (b - a) / n / 1000 : 0 }')
	row bodies "$nb bodies: cycle threads' CPU per period" "$cpu" us "$H"
	per=$(awk -v c="$cpu" -v n="$nb" 'BEGIN { printf "%.1f", c / n }')
	row bodies "$nb bodies: CPU per period per body" "$per" us "$H"
	[ "$nb" = 1 ] && one=$per
	[ -n "${one:-}" ] && row bodies "$nb bodies: CPU per body / at 1 body" \
		"$(awk -v a="$per" -v b="$one" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')" x "$H"
	row bodies "$nb bodies: overruns and missed periods" "$((ov1 - ov0))" periods "$H"
done
dcm-sim-reload bodies=1 wire_time=1 >/tmp/reload.log 2>&1 ||
	log "bodies: reloading one body failed: $(cat /tmp/reload.log)"
wait_cycles 100
