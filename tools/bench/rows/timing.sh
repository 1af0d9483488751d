# SPDX-License-Identifier: GPL-2.0
#
# Rows: the bounds of timing that make check does not assert (a host busy
# with other work breaks them whatever the code does; the selftests assert
# them only with DCM_TIMING_CHECKS=1, Documentation/testing.rst), measured
# here with the figures they are about:
#
# - the cycle with every bus at its wire time (dcm_sched_test's
#   wire_timings): over BENCH_TIMING_CYCLES cycles (3000) counted from a
#   reset, the late starts, the late buses and the work overruns, and
#   whether they keep within the selftest's allowance (late buses at most
#   1 in 100 cycles plus 4 per late start; work overruns at most 1 in 100
#   plus one per late start);
# - a recording of every key at every cycle (dcm_record_test.sh): over
#   BENCH_RECORD_SECONDS (10), the rows, the cycles spanned and the missed
#   ones, which make check-record wants at 0 and DCM_TIMING_CHECKS=1 at
#   most 1 in 100.

. /share/lib.sh

H=$(how timing)
N=${BENCH_TIMING_CYCLES:-3000}
SECS=${BENCH_RECORD_SECONDS:-10}

"$SELFTESTS/dcm_bench" cstats reset >/dev/null || { log "timing: dcm_bench cstats failed"; exit 1; }
wait_cycles "$N"
"$SELFTESTS/dcm_bench" cstats >/tmp/bench-cstats.txt || exit 1
log "timing: $(tr '\n' ' ' </tmp/bench-cstats.txt)"
cs() {
	awk -v k="$1" '$1 == k { print $2 }' /tmp/bench-cstats.txt
}
cyc=$(cs cycles)
ls=$(cs late_starts)
lb=$(cs late_buses)
wo=$(cs work_overruns)
row timing "cycles counted, buses at wire time" "$cyc" cycles "$H"
row timing "missed periods" "$(cs missed)" periods "$H"
row timing "late starts" "$ls" cycles "$H"
row timing "late buses" "$lb" exchanges "$H"
row timing "busy buses" "$(cs busy_buses)" exchanges "$H"
row timing "work overruns" "$wo" cycles "$H"
row timing "late buses past the allowance (cycles/100 + 4 per late start)" \
	"$((lb > cyc / 100 + 4 * ls ? lb - cyc / 100 - 4 * ls : 0))" exchanges "$H"
row timing "work overruns past the allowance (cycles/100 + 1 per late start)" \
	"$((wo > cyc / 100 + ls ? wo - cyc / 100 - ls : 0))" cycles "$H"

# The recording of dcm_record_test.sh: rows, cycles spanned, missed.
if dcmctl record --duration "$SECS" -o /tmp/bench-timing.csv 2>/tmp/bench-timing.err; then
	log "timing: $(cat /tmp/bench-timing.err)"
	awk -F, 'NR == 2 { first = $1 } NR > 1 { m += $4; p = $1; rows++ }
		END { print rows + 0, p - first + 1, m + 0 }' /tmp/bench-timing.csv >/tmp/bench-timing.sum
	read -r rows span missed </tmp/bench-timing.sum
	row timing "recording of $SECS s: rows" "$rows" rows "$H"
	row timing "recording of $SECS s: cycles spanned" "$span" cycles "$H"
	row timing "recording of $SECS s: cycles missed" "$missed" cycles "$H"
	row timing "recording of $SECS s: every cycle counted (rows + missed = spanned)" \
		"$([ $((rows + missed)) = "$span" ] && echo yes || echo no)" "" "$H"
else
	log "timing: dcmctl record failed: $(cat /tmp/bench-timing.err)"
fi
rm -f /tmp/bench-timing.csv
exit 0
