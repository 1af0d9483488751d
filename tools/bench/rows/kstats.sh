# SPDX-License-Identifier: GPL-2.0
#
# Rows, optional: the cycle's percentiles as the controller's own statistics
# give them, next to the rows the tracepoints give (latency.sh). Today's
# statistics (stats/: counts, mean, max, a histogram) have no percentiles,
# and this prints nothing; a kernel whose stats/ has percentile files
# (a name with p50, p99, p999 or p99.9) gets them read after BENCH_CYCLES
# cycles, counted from a reset when stats/reset exists. Only the files are
# assumed, not their layout: each is one number, reported as it reads.

. /share/lib.sh

H=$(how kstats)
files=
for f in "$DCM"/stats/*; do
	case "${f##*/}" in
	*p50* | *p99*) files="$files $f" ;;
	esac
done
[ -n "$files" ] || { log "kstats: no percentiles in $DCM/stats: nothing to add"; exit 0; }
[ -w "$DCM/stats/reset" ] && echo 1 >"$DCM/stats/reset"
wait_cycles "$BENCH_CYCLES"
for f in $files; do
	row "kernel statistics" "${f##*/}" "$(head -n 1 "$f")" "" "$H"
done
