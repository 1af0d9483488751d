#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench-report.sh DIR: Documentation/dcm/benchmarks.rst on stdout, from the
# rows scripts/bench.sh kept in DIR: rows-generic.txt (make bench) and, when
# there, rows-rt.txt (make bench-rt). Rows of any section are listed, the
# sections it knows under their titles, others under their own name; the
# targets of the cycle (issue "the cycle holds its period") are worked out
# from the rows with pass or miss, and each miss with the rows that show why.
set -eu -o pipefail

dir=${1:?usage: bench-report.sh DIR}
gen=$dir/rows-generic.txt
rt=$dir/rows-rt.txt
[ -f "$gen" ] || { echo "bench-report.sh: no $gen" >&2; exit 1; }

cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)
cores=$(nproc)
hostk="$(uname -r) ($(uname -v))"
qemu=$(qemu-system-x86_64 --version 2>/dev/null | head -n 1)
commit=$(git -C "$(dirname "$0")/.." rev-parse --short HEAD 2>/dev/null || echo unknown)

files=("$gen")
[ -f "$rt" ] && files+=("$rt")

awk -F '\t' -v cpu="$cpu" -v cores="$cores" -v hostk="$hostk" -v qemu="$qemu" \
	-v commit="$commit" '
FNR == 1 { cfg = FILENAME ~ /rows-rt\.txt$/ ? "rt" : "generic"; cfgs[++ncfg] = cfg }
$1 == "HOST" || $1 == "INFO" { info[cfg, $2] = $3; next }
$1 == "ROW" {
	key = cfg SUBSEP $2
	if (!(key in nrows)) { secs[++nsec] = key }
	n = ++nrows[key]
	rname[key, n] = $3; rval[key, n] = $4; runit[key, n] = $5; rhow[key, n] = $6
	val[cfg, $2, $3] = $4
	next
}
function title(s) {
	if (s == "config") return "Configuration"
	if (s == "latency") return "Cycle wake-up latency"
	if (s == "work") return "Cycle work"
	if (s == "steps") return "Cycle work per step"
	if (s == "lanes") return "Cycle work per lane"
	if (s == "bodies") return "Work by number of bodies"
	if (s == "reads") return "Read cost per path"
	if (s == "setwire") return "Set to wire"
	if (s == "bytes") return "RS485 bytes per cycle"
	if (s == "recorder") return "Recorders"
	if (s == "physics") return "Physics body"
	if (s == "timing") return "Timing bounds make check does not assert"
	return s
}
function desc(s) {
	if (s == "latency") return "From deadline to the cycle thread running, over the cycles of one run (the dcm_cycle_start tracepoint), idle and under stress-ng; cyclictest at the same SCHED_FIFO priority and period in the same VM. The \"woken\" rows keep the cycles whose previous cycle had ended before their deadline: those the timer woke, as cyclictest'"'"'s are."
	if (s == "work") return "From the cycle'"'"'s start to its end (the dcm_cycle_end tracepoint), buses at wire time; overruns and missed periods from the controller'"'"'s statistics over the same cycles."
	if (s == "steps") return "Each step'"'"'s time in the cycle (function_graph on the functions of the step; the tracer'"'"'s cost is in them). A bus'"'"'s exchange includes its wire time."
	if (s == "lanes") return "Where the buses'"'"' time goes, from the tracepoints dcm_cycle_start, dcm_lane_exchanged, dcm_cycle_joined and dcm_cycle_end, buses at wire time: for each bus, its lane'"'"'s wake-up (from the cycle'"'"'s queueing to the lane'"'"'s start), the end of its exchange counted from the cycle'"'"'s start, and the share of cycles in which it ended last; the cycle'"'"'s join (from the last exchange'"'"'s end to the cycle going on) and its work over the same cycles; each simulated bus'"'"'s wire time per cycle (dcm_sim */wire), the floor of its exchange."
	if (s == "bodies") return "dcm_sim bodies=N, one dcmd each, buses at wire time: each controller'"'"'s cycle work, and the CPU time of all the cycle threads per period (/proc/PID/schedstat)."
	if (s == "reads") return "Reading every value of the description by each path, and one value by sysfs against one by the snapshot (dcm_bench reads)."
	if (s == "setwire") return "A set for \"now\" at a random point of the period, until the simulated board sees its slot change (dcm_sim rs485-1/slot_changed_ns): the cycles that started after the call returned, up to the one that carried it."
	if (s == "bytes") return "What the cyclic exchanges put on each RS485 line (dcm_sim rs485-N/wire): payload is each board'"'"'s 8-byte command slot and its reply'"'"'s FLAGS (the board'"'"'s state) and 12 data bytes, 21 a board; character times include the turnarounds and silent slots."
	if (s == "recorder") return "The cycle'"'"'s work (the controller'"'"'s statistics, reset before each run) alone, while dcmctl record writes every key of every cycle into a file (CSV, then MCAP: dcm-web'"'"'s channels as JSON), and while dcmctl flight keeps the last 10 s of every key; both read the frames from user space, in a thread of their own."
	if (s == "physics") return "dcm-physics (ODE) on the host steps the rigid-body NAO in lockstep with the cycle; in the guest, dcm-physics --relay carries dcm_sim'"'"'s link to it over a virtio serial port. The cycle'"'"'s work (the controller'"'"'s statistics) with the simulator'"'"'s own models and with the physics body, every joint stiff; the link'"'"'s ticks and those whose state came after the next tick; what one tick'"'"'s physics takes on the host (Documentation/dcm/physics.rst)."
	if (s == "timing") return "The figures behind the bounds of timing the selftests assert only with DCM_TIMING_CHECKS=1 " \
			"(a host busy with other work breaks them whatever the code does; make check asserts what happened: " \
			"Documentation/testing.rst): the cycle with every bus at its wire time over cycles counted from a reset " \
			"(dcm_bench cstats: late starts, late buses, work overruns, and how far past dcm_sched_test'"'"'s allowance), " \
			"and a recording of every key at every cycle as dcm_record_test.sh makes (rows, cycles spanned, missed)."
	return ""
}
function underline(t, c,  s, i) { s = ""; for (i = 0; i < length(t); i++) s = s c; return s }
function has(c, s, n) { return (c, s, n) in val }
# A value; "> N" (past the end of a histogram) counts as N.
function v(c, s, n,  x) { x = val[c, s, n]; sub(/^>/, "", x); return x + 0 }
function cell(x) { return x == "" ? "-" : x }
function target(name, measured, ok, why) {
	nt++
	tname[nt] = name; tmeas[nt] = measured
	tres[nt] = ok == "" ? "not measured" : (ok == "u" ? "undecided" : (ok ? "pass" : "miss"))
	twhy[nt] = why
}
function pct(a, b) { return b > 0 ? sprintf("%.0f %%", 100 * a / b) : "-" }
# Why a work target misses when the buses do not explain it: in the same VM
# cyclictest, a thread that does no work, is stalled as long.
function emu_why(c, p50) {
	if (!has(c, "latency", "cyclictest idle p99"))
		return sprintf("work p50 %.0f us; the rest is the emulator'"'"'s (no cyclictest row to show it)", p50)
	return sprintf("work p50 %.0f us; cyclictest in the same VM, doing no work, is woken %.0f us late at p99 and %.0f us at max: the emulator stalls a thread that long, inside the work as well", \
		       p50, v(c, "latency", "cyclictest idle p99"), v(c, "latency", "cyclictest idle max"))
}
function stall_why(c, max) {
	if (!has(c, "latency", "cyclictest idle max"))
		return sprintf("cycle work max %.0f us", max)
	return sprintf("cycle work max %.0f us; cyclictest in the same VM, doing no work, woke up to %.0f us late: the emulator stalls a thread for longer than a period", \
		       max, v(c, "latency", "cyclictest idle max"))
}
END {
	print ".. SPDX-License-Identifier: GPL-2.0"
	print ""
	print "=========="
	print "Benchmarks"
	print "=========="
	print ""
	print "Written by ``make bench`` (``scripts/bench.sh``; ``make bench-rt`` adds the"
	print "PREEMPT_RT rows): do not edit, run it again. Every figure below is measured"
	print "in that run; the last column of each row is the command that measures it"
	print "again (``BENCH_ROWS`` runs one rows file of ``tools/bench/rows/``). The"
	print "VM is QEMU with TCG: an emulated CPU shared with whatever else the host"
	print "runs, so the absolute figures are the emulation'"'"'s, and the ratios taken"
	print "in one run (the targets) are what compares. The host'"'"'s load average"
	print "before and after each run is given: a loaded host makes every latency"
	print "worse. The simulated buses take their wire time"
	print "(``Documentation/dcm/simulator.rst``, \"Wire time\") unless the"
	print "configuration says otherwise."
	print ""
	print "Machine"
	print "======="
	print ""
	print ".. list-table::"
	print "   :widths: 30 70"
	print ""
	print "   * - CPU"
	print "     - " cpu
	print "   * - Cores"
	print "     - " cores
	print "   * - Host kernel"
	print "     - " hostk
	print "   * - QEMU"
	print "     - " qemu
	print "   * - Tree"
	print "     - " commit
	for (i = 1; i <= ncfg; i++) {
		c = cfgs[i]
		lab = c == "rt" ? " (PREEMPT_RT run)" : ""
		print "   * - Date" lab
		print "     - " cell(info[c, "started"])
		print "   * - Guest kernel" lab
		print "     - " cell(info[c, "guest kernel"])
		print "   * - Guest CPUs" lab
		print "     - " cell(info[c, "guest CPUs"]) " x " cell(info[c, "guest CPU"])
		print "   * - Host load average before, after" lab
		print "     - " cell(info[c, "load before"]) "; " cell(info[c, "load after"])
		print "   * - Buses at wire time" lab
		print "     - " (info[c, "wire time"] == "Y" || info[c, "wire time"] == "1" ? "yes" : "no")
	}
	print ""

	# ---- targets ----
	g = "generic"
	per = has(g, "config", "period") ? v(g, "config", "period") : 10000
	if (has(g, "work", "idle p99")) {
		w = v(g, "work", "idle p99")
		lost = v(g, "work", "idle overruns") + v(g, "work", "idle missed periods") + \
		       v(g, "work", "idle work over the period")
		ok = w < per / 2
		why = ""
		if (!ok) {
			bus = 0
			for (k = 1; k <= nrows[g SUBSEP "steps"]; k++)
				if (rname[g SUBSEP "steps", k] ~ /^bus .* p50$/)
					bus += rval[g SUBSEP "steps", k]
			why = bus >= per / 2 ? \
			      sprintf("the buses'"'"' exchanges take %.0f us of the cycle at p50 (Cycle work per step)", bus) : \
			      emu_why(g, v(g, "work", "idle p50"))
		}
		target("cycle work p99 < 50 % of 10 ms, buses at wire time", \
		       sprintf("%.0f us (%s of %d us)", w, pct(w, per), per), ok, why)
		target("no overrun over " v(g, "work", "idle cycles") " cycles idle (10 ms)", \
		       sprintf("%d overruns, %d missed periods, %d cycles whose work ran past the period", \
			       v(g, "work", "idle overruns"), v(g, "work", "idle missed periods"), \
			       v(g, "work", "idle work over the period")), lost == 0, \
		       lost ? stall_why(g, v(g, "work", "idle max")) : "")
	} else
		target("cycle work p99 < 50 % of 10 ms, buses at wire time", "-", "", "")
	if (has(g, "work", "idle 12 ms p99")) {
		w = v(g, "work", "idle 12 ms p99")
		lost = v(g, "work", "idle 12 ms overruns") + v(g, "work", "idle 12 ms missed periods") + \
		       v(g, "work", "idle 12 ms work over the period")
		target("cycle work p99 < 50 % of 12 ms, buses at wire time", \
		       sprintf("%.0f us (%s of 12000 us)", w, pct(w, 12000)), w < 6000, \
		       w < 6000 ? "" : emu_why(g, v(g, "work", "idle 12 ms p50")))
		target("no overrun over " v(g, "work", "idle 12 ms cycles") " cycles idle (12 ms)", \
		       sprintf("%d overruns, %d missed periods, %d cycles past the period", \
			       v(g, "work", "idle 12 ms overruns"), v(g, "work", "idle 12 ms missed periods"), \
			       v(g, "work", "idle 12 ms work over the period")), lost == 0, \
		       lost ? stall_why(g, v(g, "work", "idle 12 ms max")) : "")
	}
	for (i = 1; i <= ncfg; i++) {
		c = cfgs[i]
		lab = c == "rt" ? ", PREEMPT_RT" : ""
		split("idle stress", conds, " ")
		for (j = 1; j <= 2; j++) {
			cd = conds[j]
			if (!has(c, "latency", "cycle " cd " p99.9") || !has(c, "latency", "cyclictest " cd " p99.9"))
				continue
			a = v(c, "latency", "cycle " cd " p99.9")
			b = v(c, "latency", "cyclictest " cd " p99.9")
			why = ""
			if (val[c, "latency", "cyclictest " cd " p99.9"] ~ /^>/)
				why = "cyclictest'"'"'s p99.9 is past the end of its histogram: the ratio is at most this; "
			if (a > 1.5 * b) {
				why = why sprintf("the cycles that slept and were woken by their timer: p99.9 %.0f us over %d cycles; the others started late because the cycle before ran over", \
					v(c, "latency", "cycle " cd " woken p99.9"), v(c, "latency", "cycle " cd " woken cycles"))
			}
			target("wake-up p99.9 within 1.5x cyclictest'"'"'s, " cd lab, \
			       sprintf("%s us vs %s us (%.2fx)", val[c, "latency", "cycle " cd " p99.9"], \
				       val[c, "latency", "cyclictest " cd " p99.9"], b > 0 ? a / b : 0), \
			       a <= 1.5 * b ? 1 : (val[c, "latency", "cyclictest " cd " p99.9"] ~ /^>/ ? "u" : 0), why)
		}
	}
	if (has(g, "setwire", "by the first cycle after the call")) {
		s = v(g, "setwire", "by the first cycle after the call")
		target("set for now on the wire by the first cycle after the call, >= 99.9 %", \
		       sprintf("%.2f %% of %d trials", s, v(g, "setwire", "trials")), s >= 99.9, \
		       s >= 99.9 ? "" : sprintf("%d trials in the second cycle, %d later, %d never seen", \
			       v(g, "setwire", "in the second"), v(g, "setwire", "in the third or later"), \
			       v(g, "setwire", "never seen (1 s)")))
	}
	min = ""; minbus = ""
	for (k = 1; k <= nrows[g SUBSEP "bytes"]; k++) {
		nm = rname[g SUBSEP "bytes", k]
		if (nm ~ / payload share of the bytes$/ && (min == "" || rval[g SUBSEP "bytes", k] + 0 < min)) {
			min = rval[g SUBSEP "bytes", k] + 0
			minbus = nm; sub(/ payload share.*/, "", minbus)
		}
	}
	if (min != "") {
		nb = v(g, "bytes", minbus " boards in the cycle")
		by = v(g, "bytes", minbus " bytes per cycle")
		target("RS485 payload share >= 80 % of the bytes on the wire", \
		       sprintf("%.1f %% (lowest: %s)", min, minbus), min >= 80, \
		       min >= 80 ? "" : sprintf("%s: %.0f bytes per cycle for %d boards, %.1f a board on the wire for 21 of payload", \
			       minbus, by, nb, nb ? by / nb : 0))
	}
	worst = ""; wn = ""
	for (k = 1; k <= nrows[g SUBSEP "bodies"]; k++) {
		nm = rname[g SUBSEP "bodies", k]
		if (nm ~ /CPU per body \/ at 1 body$/) {
			r = rval[g SUBSEP "bodies", k] + 0
			if (worst == "" || r > worst) { worst = r; wn = nm; sub(/:.*/, "", wn) }
		}
	}
	if (worst != "")
		target("work linear in the number of bodies (CPU per body at N within 1.25x of 1 body)", \
		       sprintf("worst %.2fx (%s)", worst, wn), worst <= 1.25, \
		       worst <= 1.25 ? "" : sprintf("%s: CPU per period per body %.0f us against %.0f us at one", \
			       wn, v(g, "bodies", wn ": CPU per period per body"), v(g, "bodies", "1 bodies: CPU per period per body")))

	if (has(g, "timing", "cycles counted, buses at wire time")) {
		tc = v(g, "timing", "cycles counted, buses at wire time")
		lb = v(g, "timing", "late buses past the allowance (cycles/100 + 4 per late start)")
		wo = v(g, "timing", "work overruns past the allowance (cycles/100 + 1 per late start)")
		target("late buses and work overruns at wire time within dcm_sched_test'"'"'s allowance", \
		       sprintf("%d late buses, %d overruns, %d late starts in %d cycles", \
			       v(g, "timing", "late buses"), v(g, "timing", "work overruns"), \
			       v(g, "timing", "late starts"), tc), lb == 0 && wo == 0, \
		       lb == 0 && wo == 0 ? "" : sprintf("%d late buses and %d overruns past it", lb, wo))
	}
	for (k = 1; k <= nrows[g SUBSEP "timing"]; k++) {
		nm = rname[g SUBSEP "timing", k]
		if (nm !~ /^recording of .*: cycles missed$/)
			continue
		rs = nm; sub(/: cycles missed$/, "", rs)
		mi = rval[g SUBSEP "timing", k] + 0
		sp = v(g, "timing", rs ": cycles spanned")
		target("dcmctl record misses at most 1 in 100 cycles (" rs ")", \
		       sprintf("%d missed of %d cycles", mi, sp), mi <= sp / 100, \
		       mi <= sp / 100 ? "" : "the reader was not run for a period or more: see the cycle'"'"'s latency rows")
	}

	print "Targets"
	print "======="
	print ""
	print "Each worked out from the rows below, all from the run above."
	print ""
	print ".. list-table::"
	print "   :header-rows: 1"
	print "   :widths: 35 25 10 30"
	print ""
	print "   * - Target"
	print "     - Measured"
	print "     - Result"
	print "     - Why, where it misses"
	for (k = 1; k <= nt; k++) {
		print "   * - " tname[k]
		print "     - " tmeas[k]
		print "     - **" tres[k] "**"
		print "     - " cell(twhy[k])
	}
	print ""

	# ---- the rows ----
	for (i = 1; i <= nsec; i++) {
		split(secs[i], p, SUBSEP)
		c = p[1]; s = p[2]
		t = title(s) (c == "rt" ? " (PREEMPT_RT)" : "")
		print t
		print underline(t, "=")
		print ""
		if (desc(s) != "") {
			print desc(s)
			print ""
		}
		print ".. list-table::"
		print "   :header-rows: 1"
		print "   :widths: 40 12 8 40"
		print ""
		print "   * - Row"
		print "     - Value"
		print "     - Unit"
		print "     - Reproduce"
		for (k = 1; k <= nrows[secs[i]]; k++) {
			print "   * - " rname[secs[i], k]
			print "     - " cell(rval[secs[i], k])
			print "     - " cell(runit[secs[i], k])
			print "     - ``" rhow[secs[i], k] "``"
		}
		print ""
	}
	if (ncfg < 2) {
		print "PREEMPT_RT"
		print "=========="
		print ""
		print "Not measured in this report: ``make bench-rt`` installs the PREEMPT_RT"
		print "kernel (``scripts/deps.sh --rt``), builds the module for it and adds its"
		print "latency rows here."
		print ""
	}
}' "${files[@]}"
