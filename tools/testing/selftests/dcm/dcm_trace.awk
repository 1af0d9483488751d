# SPDX-License-Identifier: GPL-2.0
#
# dcm_trace.awk: what the awk programs that read the dcm tracepoints' lines
# (tracefs "trace", fields key=value) share. Given first, before the
# program that uses it:
#
#   awk -f "$dir/dcm_trace.awk" -f - TRACE <<'EOF'
#   /dcm_lane_exchanged: dcm0 / { print val("bus") }
#   EOF
#
# Installed with the selftests (/opt/dcm/selftests in the VM), where
# dcm_lanes_test.sh and make bench's rows (tools/bench/lib.sh, TRACE_AWK)
# find it. Busybox awk.

# val(KEY): the value of the field KEY=value of the current line, "" if
# the line has none.
function val(k,  i) {
	for (i = 1; i <= NF; i++)
		if (index($i, k "=") == 1)
			return substr($i, length(k) + 2)
	return ""
}
