# SPDX-License-Identifier: GPL-2.0
#
# Rows: how many cycles a set for "now" takes to reach the wire, over
# BENCH_SET_TRIALS trials (default 1000), buses at wire time. Each trial
# (dcm_bench setwire) sets HeadYaw's stiffness at a random point of the
# period and notes when the call returned; the simulated neck board notes
# when its slot changed on RS485-1 (dcm_sim rs485-1/slot_changed_ns); the
# cycles' starts come from the dcm_cycle_start tracepoint, on the same
# clock. A trial's latency is the number of cycles that started after the
# call returned up to the one that carried it: 1 is the first cycle after
# the call, 0 a cycle already running that took it.

. /share/lib.sh

H=$(how setwire)
N=${BENCH_SET_TRIALS:-1000}
tracing_setup
echo 1 >$TR/events/dcm/dcm_cycle_start/enable
echo 1 >$TR/tracing_on
"$SELFTESTS/dcm_bench" setwire "$N" HeadYaw/Hardness/Actuator \
	$SIM/body0/rs485-1/slot_changed_ns 1 >/tmp/setwire.txt
rc=$?
echo 0 >$TR/tracing_on
trace_cycles <$TR/trace | awk '$1 == "start" && $2 == 0 { print "start", $4 * 1000 }' >/tmp/starts.txt
tracing_stop
[ $rc = 0 ] || log "setwire: some sets never reached the wire (dcm_bench exit $rc)"
# Starts (ns, sorted), then trials: cycles started in (returned, on wire].
sort -n -k2 /tmp/starts.txt | cat - /tmp/setwire.txt | awk '
	$1 == "start" { s[++n] = $2; next }
	$1 == "trial" {
		t++
		if ($3 < 0) { lost++; next }
		# trials come in time order: the first start after the call moves on
		while (j < n && s[j + 1] <= $2) j++
		c = 0
		for (i = j + 1; i <= n && s[i] <= $3; i++) c++
		k[c]++
	}
	END {
		print "trials", t + 0
		print "lost", lost + 0
		for (c = 0; c <= 4; c++) print "in" c, k[c] + 0
		m = 0; for (c in k) if (c > 4) m += k[c]
		print "in5+", m
	}' >/tmp/setwire.sum
v() { awk -v k="$1" '$1 == k { print $2 }' /tmp/setwire.sum; }
trials=$(v trials)
row setwire "trials" "$trials" trials "$H"
row setwire "in a cycle already running" "$(v in0)" trials "$H"
row setwire "in the first cycle after the call" "$(v in1)" trials "$H"
row setwire "in the second" "$(v in2)" trials "$H"
row setwire "in the third or later" "$(( $(v in3) + $(v in4) + $(v 'in5+') ))" trials "$H"
row setwire "never seen (1 s)" "$(v lost)" trials "$H"
row setwire "by the first cycle after the call" \
	"$(awk -v a="$(v in0)" -v b="$(v in1)" -v t="$trials" 'BEGIN { printf "%.2f", t ? 100 * (a + b) / t : 0 }')" \
	% "$H"
