# SPDX-License-Identifier: GPL-2.0
#
# dcm_tap.sh: what the dcm shell selftests share, sourced by them (POSIX
# sh, busybox): TAP output and the kselftest Totals line, and number
# comparisons.

n=0
pass=0
fail=0
skip=0

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

# near A B TOL: |A - B| <= TOL, decimal numbers.
near() {
	awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= t) }'
}

# above A B: A > B, decimal numbers.
above() {
	awk -v a="$1" -v b="$2" 'BEGIN { exit !(a > b) }'
}

# wait_until SECONDS TEST...: poll TEST every 0.1 s until it holds, for at
# most SECONDS; the status of its last run.
wait_until() {
	_wait_n=$(($1 * 10))
	shift
	while ! "$@" && [ "$_wait_n" -gt 0 ]; do
		sleep 0.1
		_wait_n=$((_wait_n - 1))
	done
	"$@"
}
