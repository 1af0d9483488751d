# SPDX-License-Identifier: GPL-2.0
#
# dcm_tap.sh: what the dcm shell selftests share, sourced by them (POSIX
# sh, busybox): TAP output and the kselftest Totals line, and number
# comparisons.

n=0
pass=0
fail=0
skip=0

# slow: how many times slower than the stock kernel the guest runs, from
# DCM_TEST_TIMEOUT_SCALE (make check-debug sets it for its debug kernel:
# KASAN and lockdep under TCG); 1 by default, where every check runs as
# strictly as written.
slow=${DCM_TEST_TIMEOUT_SCALE:-1}
case "$slow" in '' | *[!0-9]* | 0) slow=1 ;; esac

echo "TAP version 13"

# check STATUS DESCRIPTION: one TAP line, ok when STATUS is 0.
check() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		pass=$((pass + 1))
		echo "ok $n $2"
	else
		fail=$((fail + 1))
		echo "not ok $n $2"
	fi
}

# timing: 1 when the checks of timing are asserted (DCM_TIMING_CHECKS=1, on
# the stock kernel): a period kept, a bound on missed cycles, late buses or
# a latency. make check leaves it 0, since a host busy with other work
# breaks those bounds whatever the code does; there each test asserts what
# happened (every cycle counted, nothing lost, the value reached) and
# prints the figures, and make bench measures them (Documentation/testing.rst).
timing=0
[ "${DCM_TIMING_CHECKS:-0}" = 1 ] && [ "$slow" = 1 ] && timing=1

# skip_timing DESCRIPTION: a check of timing (a period kept, a deadline
# met, a bound on missed cycles): run only when timing is 1; else printed
# as skipped, with the reason, and skip_timing returns 0; when it runs
# skip_timing returns 1 and the caller runs the check:
#	skip_timing "the cycle kept its period" || { ...; check $? "..."; }
skip_timing() {
	[ "$timing" = 1 ] && return 1
	n=$((n + 1))
	skip=$((skip + 1))
	if [ "$slow" -gt 1 ]; then
		echo "ok $n # SKIP $1: timing check, debug kernel (x$slow)"
	else
		echo "ok $n # SKIP $1: timing check (make bench measures it; DCM_TIMING_CHECKS=1 asserts it)"
	fi
}

# scaled SECONDS: SECONDS (decimal) times the slowdown, for a wait that
# gives the kernel time to do something, not one that measures it.
scaled() {
	awk -v t="$1" -v k="$slow" 'BEGIN { print t * k }'
}

# skip_all REASON: nothing to test here; ends the test.
skip_all() {
	echo "1..0 # SKIP $1"
	echo "# Totals: pass:0 fail:0 xfail:0 xpass:0 skip:1 error:0"
	exit 0
}

# totals: the plan and the Totals line; the exit status is 1 on a failure.
totals() {
	echo "1..$n"
	echo "# Totals: pass:$pass fail:$fail xfail:0 xpass:0 skip:$skip error:0"
	[ "$fail" = 0 ]
}

# swaps [N]: description_swaps of dcmN (0 by default): the descriptions
# made running since the controller was created, a commit equal to the
# running one not counted; -1 when it cannot be read. A test that reloads
# reads it before and after and checks the difference with check_swaps.
swaps() {
	cat "/sys/class/dcm/dcm${1:-0}/description_swaps" 2>/dev/null || echo -1
}

# check_swaps BEFORE AFTER MIN DESCRIPTION: a TAP line, ok when AFTER -
# BEFORE (two reads of swaps) is at least MIN (and BEFORE could be read):
# the reloads were real swaps, not commits of the running description.
check_swaps() {
	[ "$1" -ge 0 ] && [ $(($2 - $1)) -ge "$3" ]
	check $? "$4: real swaps $(($2 - $1)), at least $3"
}

# near A B TOL: |A - B| <= TOL, decimal numbers.
near() {
	awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= t) }'
}

# above A B: A > B, decimal numbers.
above() {
	awk -v a="$1" -v b="$2" 'BEGIN { exit !(a > b) }'
}

# wait_until SECONDS TEST...: poll TEST every 0.1 s until it holds, for at
# most SECONDS (whole seconds), and 20 at least, times the slowdown; the
# status of its last run. SECONDS is how soon it holds on an idle machine;
# the floor is for a host busy with other work, which only makes the wait
# longer (a test that holds passes as soon as it holds).
wait_until() {
	_wait_s=$1
	[ "$_wait_s" -ge 20 ] || _wait_s=20
	_wait_n=$((_wait_s * 10 * slow))
	shift
	while ! "$@" && [ "$_wait_n" -gt 0 ]; do
		sleep 0.1
		_wait_n=$((_wait_n - 1))
	done
	"$@"
}

# key_value KEY FILE: the value of a "KEY VALUE" line of FILE (dcm_sim's
# wire counters, stats files).
key_value() {
	awk -v k="$1" '$1 == k { print $2 }' "$2"
}

# dcm0_cycles: the cycles dcm0 has run.
dcm0_cycles() {
	cat /sys/class/dcm/dcm0/stats/cycles
}
dcm0_reached() {
	[ "$(dcm0_cycles)" -ge "$_end" ]
}
# until_cycles N: wait until dcm0 has run N more cycles (60 s at most,
# stretched as wait_until's).
until_cycles() {
	_end=$(($(dcm0_cycles) + $1))
	wait_until 60 dcm0_reached
}

# safety_state [N]: "CYCLE_FAULTS FAULT_SCALE BATTERY_SCALE" of dcmN's
# safety/ (0 by default): the cycle faults counted, the factors every
# joint's hardness takes now.
safety_state() {
	_ss=/sys/class/dcm/dcm${1:-0}/safety
	echo $(cat "$_ss/cycle_faults" "$_ss/fault_scale" "$_ss/battery_scale" 2>/dev/null)
}

# unfaulted [N]: no safety factor cuts the stiffness of dcmN now: its
# fault_scale and battery_scale are whole (no cycle fault's ramp in force,
# the battery rule not acting).
unfaulted() {
	whole_state $(safety_state "$1")
}

# whole_state FAULTS FAULT_SCALE BATTERY_SCALE: both factors whole.
whole_state() {
	[ "$2" = 1.000000 ] && [ "$3" = 1.000000 ]
}

# unfaulted_run CMD...: run CMD (a check's reads, or a command whose result
# depends on the hardness sent) until one run was made while no safety
# factor of dcm0 cut the stiffness: both factors whole right before it, and
# right after it with no cycle fault counted between; tries for 20 s at
# least, times the slowdown. The status of CMD's last run (a run in no
# clean window is said in a comment). A Hardness actuator's Value is the
# hardness sent, the asked one times the factors: a host that stalls the
# guest past 500 ms makes a cycle fault, which cuts it and brings it back
# over 2 s whatever the test asked (Documentation/testing.rst).
unfaulted_run() {
	_uf_n=$((200 * slow))
	while :; do
		_uf0=$(safety_state)
		"$@"
		_uf_rc=$?
		_uf1=$(safety_state)
		[ "$_uf0" = "$_uf1" ] && whole_state $_uf1 && return $_uf_rc
		if [ "$_uf_n" -le 0 ]; then
			echo "# no run outside a cycle fault's ramp in $((20 * slow)) s ($_uf0 -> $_uf1)"
			return $_uf_rc
		fi
		sleep 0.1
		_uf_n=$((_uf_n - 1))
	done
}

# results FILE [PREFIX]: a client's output as TAP: a check per "RESULT
# <status> <text>" line (0 is ok), its other lines as comments, after
# PREFIX when given.
results() {
	while read -r _tag _st _text; do
		case "$_tag" in
		RESULT) check "$_st" "$_text" ;;
		'#') echo "# ${2:+$2: }$_st $_text" ;;
		*) echo "# ${2:+$2: }$_tag $_st $_text" ;;
		esac
	done <"$1"
}

# holds EXPR: EXPR, a shell command line, evaluated now: for wait_until,
# whose arguments are expanded once, to test what a command prints anew at
# each poll: wait_until 3 holds '[ "$(cat F)" = 1 ]'.
holds() {
	eval "$1"
}

# configfs_clear DIR: remove every configfs body under DIR (the subsystem,
# /sys/kernel/config/dcm): not live, then its buses, then itself.
configfs_clear() {
	for _cfs_b in "$1"/*; do
		[ -d "$_cfs_b" ] || continue
		echo 0 >"$_cfs_b/live" 2>/dev/null
		for _cfs_d in "$_cfs_b"/*; do
			[ -d "$_cfs_d" ] && rmdir "$_cfs_d"
		done
		rmdir "$_cfs_b"
	done
}
