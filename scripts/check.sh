#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check.sh: what `make check` runs after installing the dependencies.
#
#   build      make all, one test; if it fails nothing else runs
#   lint       scripts/lint.sh, one test: passed or failed
#   docs       make docs (Sphinx, warnings as errors), one test
#   arch       scripts/check-architecture.sh: each function and file that
#              Documentation/dcm/architecture.rst names exists, one test each
#   unit       host unit tests (make unit: userspace and kernel pure logic, cmocka)
#   selftests  the kselftest suite in the VM (scripts/run-selftests.sh)
#   web        dcm-web in the VM from the host (tools/testing/web/test_web.py)
#   mcap       MCAP recordings in the VM read on the host by @mcap/core
#              (tools/testing/mcap/test_mcap.py)
#
# Every suite runs, even after a failure. Outputs and a table follow, and the
# last line is always "N passed, N failed". Logs go to $O/results/.
set -eu -o pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
O=${O:-$top/build}
case "$O" in /*) ;; *) O=$top/$O ;; esac
LSRC=${LSRC:-$O/linux-src}
export O LSRC
results=$O/results
mkdir -p "$results"

names=()
passed=()
failed=()
skipped=()
took=()

heading() {
	printf '\n==== %s ====\n' "$1"
}

# record NAME PASSED FAILED SKIPPED [SECONDS]: SECONDS since the suite began
# (since the last record() when not given).
last=$SECONDS
record() {
	names+=("$1")
	passed+=("$2")
	failed+=("$3")
	skipped+=("$4")
	took+=("${5:-$((SECONDS - last))}")
	last=$SECONDS
}

# (0) the build: one test. Nothing else can run without it.
heading "build (make all)"
set +e
make --no-print-directory all 2>&1 | tee "$results/build.log"
st=${PIPESTATUS[0]}
set -e
if [ "$st" != 0 ]; then
	record build 0 1 -
	echo "check.sh: the build failed (exit status $st)"
	echo "0 passed, 1 failed"
	exit 1
fi
record build 1 0 -

# (a) lint: one test.
heading "lint (scripts/lint.sh)"
set +e
scripts/lint.sh 2>&1 | tee "$results/lint.log"
st=${PIPESTATUS[0]}
set -e
if [ "$st" = 0 ]; then
	record lint 1 0 -
else
	echo "check.sh: lint failed (exit status $st)"
	record lint 0 1 -
fi

# (a') the documentation: one test.
heading "docs (make docs)"
set +e
make --no-print-directory docs 2>&1 | tee "$results/docs.log"
st=${PIPESTATUS[0]}
set -e
if [ "$st" = 0 ]; then
	record docs 1 0 -
else
	echo "check.sh: the documentation build failed (exit status $st)"
	record docs 0 1 -
fi

# (a'') the architecture page against the code: its TAP lines' Totals.
heading "arch (scripts/check-architecture.sh)"
set +e
scripts/check-architecture.sh ${KDIR:+"$KDIR"} 2>&1 | tee "$results/arch.log"
st=${PIPESTATUS[0]}
set -e
read -r p f s n < <(scripts/tap-totals.sh "$results/arch.log" "$st")
record arch "$p" "$f" "$s"

# (b) host unit tests: sum cmocka's per-binary PASSED/FAILED lines. They
# run beside the selftests' VM (which waits on its guest more than it
# computes), their output held in their log and shown once the selftests
# are done; DCM_CHECK_SERIAL=1 runs them first, alone.
unit() {
	local t0=$SECONDS st=0

	env -u CMOCKA_MESSAGE_OUTPUT make --no-print-directory unit >"$results/unit.log" 2>&1 ||
		st=$?
	echo $((SECONDS - t0)) >"$results/unit.seconds"
	return $st
}
unit_end() {
	heading "unit (host, cmocka)"
	cat "$results/unit.log"
	read -r p f < <(awk '
		/^\[ *PASSED *\] [0-9]+ test\(s\)\./ { p += $(NF - 1) }
		/^\[ *FAILED *\] [0-9]+ test\(s\), listed below:/ { f += $(NF - 3) }
		END { print p + 0, f + 0 }' "$results/unit.log")
	if [ "$1" != 0 ] && [ "$f" = 0 ]; then
		echo "check.sh: unit tests exited with status $1 without a failed test: counted as 1 failed"
		f=1
	fi
	record unit "$p" "$f" - "$2"
}
if [ -n "${DCM_CHECK_SERIAL:-}" ]; then
	set +e
	unit
	unit_st=$?
	set -e
	unit_end "$unit_st" "$(cat "$results/unit.seconds")"
	unit_pid=
else
	heading "unit (host, cmocka): running beside the selftests, shown after them"
	unit &
	unit_pid=$!
fi

# (c) kselftests in the VM: sum the "# Totals:" lines.
heading "selftests (VM, kselftest)"
set +e
scripts/run-selftests.sh "$results/selftests.log"
st=$?
set -e
read -r p f s n < <(scripts/tap-totals.sh "$results/selftests.log" "$st")
record selftests "$p" "$f" "$s"
if [ -n "$unit_pid" ]; then
	set +e
	wait "$unit_pid"
	unit_st=$?
	set -e
	unit_end "$unit_st" "$(cat "$results/unit.seconds" 2>/dev/null || echo "?")"
fi

heading "web (dcm-web in the VM, from the host)"
set +e
tools/testing/web/test_web.py 2>&1 | tee "$results/web.log"
st=${PIPESTATUS[0]}
set -e
read -r p f s n < <(scripts/tap-totals.sh "$results/web.log" "$st")
record web "$p" "$f" "$s"

heading "mcap (MCAP recordings in the VM, read from the host)"
set +e
tools/testing/mcap/test_mcap.py 2>&1 | tee "$results/mcap.log"
st=${PIPESTATUS[0]}
set -e
read -r p f s n < <(scripts/tap-totals.sh "$results/mcap.log" "$st")
record mcap "$p" "$f" "$s"

heading summary
total_p=0
total_f=0
printf '%-12s %7s %7s %8s %8s\n' suite passed failed skipped seconds
for i in "${!names[@]}"; do
	printf '%-12s %7s %7s %8s %8s\n' "${names[$i]}" "${passed[$i]}" \
		"${failed[$i]}" "${skipped[$i]}" "${took[$i]}"
	total_p=$((total_p + passed[i]))
	total_f=$((total_f + failed[i]))
done
echo "logs: $results/"
echo "$total_p passed, $total_f failed"
[ "$total_f" = 0 ]
