#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# tap-totals.sh LOG [STATUS]: sum the kselftest "# Totals:" lines of LOG
# and print "PASSED FAILED SKIPPED LINES": passed counts pass, xfail and
# xpass; failed counts fail and error; LINES is how many Totals lines there
# were. With STATUS, the exit status of what wrote LOG
# (scripts/run-selftests.sh), a run that went wrong without a failed test
# counts one failure more, said on stderr: status 125 (a VM run failed: a
# kernel report, a timeout), no Totals line at all, or a non-zero status
# with no test failed.
set -eu -o pipefail

read -r p f s n < <(tr -d '\r' <"$1" | awk '
	match($0, /Totals: pass:[0-9]+ fail:[0-9]+ xfail:[0-9]+ xpass:[0-9]+ skip:[0-9]+ error:[0-9]+/) {
		t = substr($0, RSTART, RLENGTH)
		gsub(/[a-z]+:/, "", t)
		split(t, v, " ")
		# v[1] is "Totals"; pass fail xfail xpass skip error follow.
		p += v[2] + v[4] + v[5]
		f += v[3] + v[7]
		s += v[6]
		n++
	}
	END { print p + 0, f + 0, s + 0, n + 0 }')
if [ $# -ge 2 ]; then
	st=$2
	if [ "$st" = 125 ]; then
		echo "the VM run failed (status 125: a kernel report or a timeout, see above): counted as 1 failed" >&2
		f=$((f + 1))
	elif [ "$n" = 0 ]; then
		echo "no '# Totals:' line from the selftests: counted as 1 failed" >&2
		f=$((f + 1))
	elif [ "$st" != 0 ] && [ "$f" = 0 ]; then
		echo "the selftests exited with status $st without a failed test: counted as 1 failed" >&2
		f=1
	fi
fi
echo "$p $f $s $n"
