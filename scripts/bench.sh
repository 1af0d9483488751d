#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench.sh: make bench and make bench-rt (Documentation/dcm/benchmarks.rst).
#
#   scripts/bench.sh          boot the VM on the generic kernel (KVER, default
#                             the newest not PREEMPT_RT), buses at wire time, run the
#                             rows files (tools/bench/rows/*.sh), keep their
#                             rows in build/bench/rows-generic.txt
#   scripts/bench.sh --rt     the same on the PREEMPT_RT kernel (KVER, default
#                             the newest *-rt-amd64 with headers and image),
#                             the latency rows only: build/bench/rows-rt.txt
#   scripts/bench.sh --report write the report from the rows kept, only
#   scripts/bench.sh --kver    the generic kernel's release: KVER, else the
#                             newest that is not PREEMPT_RT
#   scripts/bench.sh --rt-kver the PREEMPT_RT kernel's release
#
# Each run then writes Documentation/dcm/benchmarks.rst (BENCH_OUT) from
# every rows file kept in build/bench/: the machine, the kernels, the date,
# each row with the command that reproduces it, and the targets of the
# cycle with pass or miss. A rows file is any tools/bench/rows/*.sh: it
# prints ROW<TAB>section<TAB>name<TAB>value<TAB>unit<TAB>how lines in the VM
# (tools/bench/lib.sh).
#
# Environment: BENCH_ROWS (rows files to run, words without .sh; default
# all), BENCH_CYCLES (cycles per latency run, 10000), the other BENCH_*
# knobs of the rows files, all passed to the VM; BENCH_WIRE_TIME (1: the
# simulated buses take their wire time; 0: instant), BENCH_TIMEOUT (s, 3000).
set -eu -o pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
O=${O:-$top/build}
out=${BENCH_DIR:-$O/bench}
report=${BENCH_OUT:-$top/Documentation/dcm/benchmarks.rst}
mode=generic
case "${1:-}" in
--rt) mode=rt ;;
--report) mode=report ;;
--kver) mode=kver ;;
--rt-kver) mode=rt-kver ;;
'') ;;
*)
	echo "usage: $0 [--rt | --report | --kver | --rt-kver]" >&2
	exit 2
	;;
esac

die() {
	echo "bench.sh: $*" >&2
	exit 1
}

# kver_of rt|generic: KVER if given, else the newest installed kernel of
# that kind with headers and image (make bench-rt installs the PREEMPT_RT
# one, which scripts/kver.sh would take as the newest).
kver_of() {
	local d
	# KVER, unless it is a generic kernel's and PREEMPT_RT's is asked for
	# (the Makefile exports the generic KVER it chose).
	if [ -n "${KVER:-}" ]; then
		case "$1:$KVER" in
		generic:* | rt:*-rt-*)
			echo "$KVER"
			return
			;;
		esac
	fi
	for d in $(ls -1 /lib/modules 2>/dev/null | sort -rV); do
		case "$d" in
		*-rt-*) [ "$1" = rt ] || continue ;;
		*) [ "$1" = generic ] || continue ;;
		esac
		if [ -e "/lib/modules/$d/build/Makefile" ] && [ -e "/boot/vmlinuz-$d" ]; then
			echo "$d"
			return
		fi
	done
	return 1
}

# run CONFIG KVER MAKE: the rows in the VM booted on KVER.
run() {
	local config=$1 kver=$2 make=$3 share=$out/share-$1 v rc=0
	rm -rf "$share"
	mkdir -p "$share/rows"
	cp "$top/tools/bench/lib.sh" "$top/tools/bench/run-rows.sh" "$share/"
	cp "$top"/tools/bench/rows/*.sh "$share/rows/"
	{
		echo "export BENCH_MAKE='$make'"
		for v in $(compgen -e | grep '^BENCH_' || true); do
			printf 'export %s=%q\n' "$v" "${!v}"
		done
		[ "$config" = rt ] && echo 'export BENCH_ROWS=${BENCH_ROWS:-latency} BENCH_LATENCY_ONLY=1'
	} >"$share/env.sh"
	{
		printf 'HOST\tload before\t%s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
		printf 'HOST\tstarted\t%s\n' "$(date -u '+%Y-%m-%d %H:%M UTC')"
	} >"$out/rows-$config.new"
	echo "bench.sh: $config: booting $kver (the log: $out/log-$config.txt)" >&2
	KVER=$kver DCM_VM_APPEND="dcm_sim.wire_time=${BENCH_WIRE_TIME:-1} ${DCM_VM_APPEND:-}" \
		"$top/scripts/dcm-vm" exec --timeout "${BENCH_TIMEOUT:-3000}" --share "$share" --physics \
		-- sh /share/run-rows.sh >"$out/log-$config.txt" 2>&1 || rc=$?
	grep -E '^(ROW|INFO)	' "$out/log-$config.txt" >>"$out/rows-$config.new" || true
	# The physics body's own figures, from dcm-physics on the host (dcm-vm
	# prints its last line at the end: tools/bench/rows/physics.sh).
	sed -n 's/^dcm-physics: \([0-9]*\) ticks, .*physics \([0-9.]*\) ms mean, \([0-9.]*\) ms p99 a tick, real-time factor \([0-9.]*\),.*/\1 \2 \3 \4/p' \
		"$out/log-$config.txt" | tail -n 1 | {
		read -r t mean p99 rtf && [ "$t" -gt 0 ] || exit 0
		h="make bench BENCH_ROWS=physics"
		printf 'ROW\tphysics\t%s\t%s\t%s\t%s\n' "ticks stepped on the host" "$t" ticks "$h" \
			"one tick's physics on the host, mean" "$mean" ms "$h" \
			"one tick's physics on the host, p99" "$p99" ms "$h" \
			"real-time factor on the host (10 ms / mean)" "$rtf" x "$h"
	} >>"$out/rows-$config.new"
	printf 'HOST\tload after\t%s\n' "$(cut -d' ' -f1-3 /proc/loadavg)" >>"$out/rows-$config.new"
	printf 'HOST\tkernel package\t%s\n' "$kver" >>"$out/rows-$config.new"
	mv "$out/rows-$config.new" "$out/rows-$config.txt"
	[ "$rc" = 0 ] || echo "bench.sh: $config: the VM run failed ($rc): see $out/log-$config.txt" >&2
	return "$rc"
}

if [ "$mode" = rt-kver ]; then
	kver_of rt || die "no PREEMPT_RT kernel with headers and image (scripts/deps.sh --rt)"
	exit 0
fi
if [ "$mode" = kver ]; then
	kver_of generic || die "no kernel with headers and image (scripts/deps.sh)"
	exit 0
fi
mkdir -p "$out"
rc=0
case "$mode" in
generic)
	kver=$(kver_of generic) || die "no kernel with headers and image (scripts/deps.sh)"
	run generic "$kver" "make bench" || rc=$?
	;;
rt)
	kver=$(kver_of rt) || die "no PREEMPT_RT kernel with headers and image: make bench-rt installs one (scripts/deps.sh --rt)"
	run rt "$kver" "make bench-rt" || rc=$?
	;;
esac

[ -f "$out/rows-generic.txt" ] || die "no rows yet: make bench"
"$top/scripts/bench-report.sh" "$out" >"$report.new" || die "writing the report failed"
mv "$report.new" "$report"
echo "bench.sh: wrote $report" >&2
exit "$rc"
