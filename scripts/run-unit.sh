#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Run the host unit test binaries given as arguments, one after the other,
# whatever fails, with everything on stdout. The last line is
# "unit: N passed, N failed", counted in cmocka test cases; a binary that
# dies before its summary (e.g. on a sanitizer report) counts as one
# failure. Exit status 1 if anything failed. UNIT_WRAP, if set, is a
# command each binary runs under (make valgrind: valgrind and its options).
set -u

pass=0
fail=0
status=0
out=$(mktemp)
trap 'rm -f "$out"' EXIT

for t in "$@"; do
	name=$(basename "$t")
	echo "== $name"
	# shellcheck disable=SC2086 # UNIT_WRAP is a command and its options
	${UNIT_WRAP:-} "$t" >"$out" 2>&1
	rc=$?
	cat "$out"

	p=$(sed -n 's/^\[  PASSED  \] \([0-9][0-9]*\) test(s)\..*/\1/p' "$out" | tail -n 1)
	f=$(sed -n 's/^\[  FAILED  \] \([0-9][0-9]*\) test(s), listed below:.*/\1/p' "$out" | tail -n 1)
	pass=$((pass + ${p:-0}))
	if [ "$rc" -ne 0 ]; then
		status=1
		if [ -z "$f" ] || [ "$f" -eq 0 ]; then
			f=1
			echo "== $name: exited with status $rc before reporting a failed test"
		fi
	fi
	fail=$((fail + ${f:-0}))
done

echo "unit: $pass passed, $fail failed"
exit $status
