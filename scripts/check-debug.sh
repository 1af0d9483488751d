#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check-debug.sh: what `make check-debug` runs. The kselftest suite (the
# three VM runs of scripts/run-selftests.sh) on the debug kernel of
# scripts/debug-kernel.sh (KASAN, lockdep, DEBUG_ATOMIC_SLEEP, kmemleak,
# UBSAN, KFENCE), with dcm's modules built for it, each run under
# dcm-kmemleak (unload, then a kmemleak scan). Any report fails the run:
# dcm-vm fails on BUG:/WARNING:/UBSAN: lines, dcm-kmemleak on a leak. The
# last line is "N passed, N failed". Logs go to $O/results-debug/.
#
# DCM_DEBUG_SUITES names what runs there (default: selftests): selftests,
# web (tools/testing/web/test_web.py, its VM's command under dcm-kmemleak
# too), mcap (tools/testing/mcap/test_mcap.py, likewise); in that order,
# each logged to $results/SUITE.log, their totals summed.
set -eu -o pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
O=${O:-$top/build}
case "$O" in /*) ;; *) O=$top/$O ;; esac
export O
results=$O/results-debug
rm -rf "$results"
mkdir -p "$results"

fail() {
	echo "check-debug.sh: $*"
	echo "0 passed, 1 failed"
	exit 1
}

suites=${DCM_DEBUG_SUITES:-selftests}
for s in $suites; do
	case $s in
	selftests | web | mcap) ;;
	*) fail "DCM_DEBUG_SUITES: no suite '$s' (selftests, web, mcap)" ;;
	esac
done

vars=$(scripts/debug-kernel.sh) || fail "no debug kernel (see above)"
eval "$vars"
echo "check-debug.sh: debug kernel $DEBUG_KVER (its build took $DEBUG_BUILD_SECONDS s)"

make --no-print-directory userspace selftests boardsim examples >"$results/build.log" 2>&1 ||
	{ tail -30 "$results/build.log"; fail "the userspace build failed"; }

# dcm's modules for the debug kernel, built from a copy of their sources so
# that the tree's own .ko files (for the installed kernel) stay as they are.
mod=$O/debug-modules
rm -rf "$mod"
mkdir -p "$mod"
cp Kbuild "$mod/"
find kernel include \( -name '*.c' -o -name '*.h' \) -print0 |
	cpio -p0dm --quiet "$mod"
make -C "$DEBUG_KDIR" M="$mod" -j"$(nproc)" modules >>"$results/build.log" 2>&1 ||
	{ tail -30 "$results/build.log"; fail "dcm's modules did not build for $DEBUG_KVER"; }

export KVER=$DEBUG_KVER DCM_VM_KERNEL=$DEBUG_IMAGE DCM_VM_MODROOT=$DEBUG_MODROOT
export DCM_VM_KODIR=$mod DCM_VM_MEM=${DCM_VM_MEM:-2048}
export DCM_VM_TIMEOUT=${DCM_VM_TIMEOUT:-6000}
# The guest runs several times slower than on the stock kernel (KASAN,
# lockdep, TCG): kselftest's per-test timeouts and the shell tests' waits
# scale by DCM_TEST_TIMEOUT_SCALE (dcm_test.h, dcm_tap.sh), given to the
# guest's commands through env.
scale=${DCM_TEST_TIMEOUT_SCALE:-10}
# dcm_configfs_race_test.sh runs its long form here (30 s in make check):
# ten minutes of registrations racing opens, where KASAN names a
# use-after-free at once.
race=${DCM_CONFIGFS_RACE_SECONDS:-600}
export DCM_SELFTEST_WRAP="env DCM_TEST_TIMEOUT_SCALE=$scale DCM_CONFIGFS_RACE_SECONDS=$race /usr/sbin/dcm-kmemleak"
# suite NAME LOG CMD...: run CMD, its output on the terminal and in LOG
# (unless CMD writes LOG itself: run-selftests.sh); add its totals
# (tap-totals.sh, with CMD's status) to the sums.
passed=0
failed=0
skipped=0
suite() {
	local name=$1 log=$2 st t0 p f s
	shift 2
	t0=$(date +%s)
	set +e
	if [ "$name" = selftests ]; then
		"$@"
		st=$?
	else
		"$@" 2>&1 | tee "$log"
		st=${PIPESTATUS[0]}
	fi
	set -e
	read -r p f s _ < <(scripts/tap-totals.sh "$log" "$st")
	echo "check-debug.sh: $name on $DEBUG_KVER in $(($(date +%s) - t0)) s:" \
		"$p passed, $f failed, $s skipped; log: $log"
	passed=$((passed + p))
	failed=$((failed + f))
	skipped=$((skipped + s))
}

# The host's suites (web, mcap) boot their own VMs and check their exit
# status: dcm-vm's list of bad kernel lines, and dcm-kmemleak's scans
# around their guest command (DCM_SELFTEST_WRAP), fail it. The scans'
# TAP lines are in the VMs' logs (OUT/vm*.log): shown here.
host_suite() {
	local name=$1 out=$2 vmlog
	shift 2
	rm -f "$out"/vm*.log
	suite "$name" "$results/$name.log" env DCM_TEST_TIMEOUT_SCALE="$scale" "$@"
	for vmlog in "$out"/vm*.log; do
		[ -f "$vmlog" ] || continue
		cp "$vmlog" "$results/$name-$(basename "$vmlog")"
		echo "check-debug.sh: $name: $(basename "$vmlog"):"
		grep -E '^(not )?ok [0-9]+ kmemleak|^# kmemleak|^dcm-vm: ' "$vmlog" || true
	done
}

start=$(date +%s)
for s in $suites; do
	case $s in
	selftests)
		suite selftests "$results/selftests.log" scripts/run-selftests.sh \
			"$results/selftests.log"
		;;
	web) host_suite web "$O/test-output/web" tools/testing/web/test_web.py ;;
	mcap) host_suite mcap "$O/test-output/mcap" tools/testing/mcap/test_mcap.py ;;
	esac
done
echo "check-debug.sh: $suites on $DEBUG_KVER in $(($(date +%s) - start)) s, $skipped skipped; logs: $results/"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
