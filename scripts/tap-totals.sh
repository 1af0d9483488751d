#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tap-totals.sh LOG: sum the kselftest "# Totals:" lines of LOG and print
# "PASSED FAILED SKIPPED LINES": passed counts pass, xfail and xpass; failed
# counts fail and error; LINES is how many Totals lines there were.
tr -d '\r' <"$1" | awk '
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
	END { print p + 0, f + 0, s + 0, n + 0 }'
