#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# soak.sh: what `make soak` runs. In the VM: dcm_soak_test (64 clients,
# faults and description reloads) for DCM_SOAK_SECONDS (1000: 100 000
# cycles), then the cycle test (its 16 clients for a minute). The log goes to
# $O/results/soak.log; the last line is "N passed, N failed". The tests'
# timeouts (kselftest's 30 s) are raised to the run's length
# (DCM_TEST_TIMEOUT_MIN, tools/testing/selftests/dcm/dcm_test.h).
set -eu -o pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
O=${O:-$top/build}
seconds=${DCM_SOAK_SECONDS:-1000}
log=$O/results/soak.log
mkdir -p "$(dirname "$log")"

set +e
"$top/scripts/dcm-vm" exec --timeout $((seconds + 900)) -- \
	env DCM_SOAK_SECONDS="$seconds" DCM_TEST_TIMEOUT_MIN=$((seconds + 300)) sh -c '/opt/dcm/selftests/dcm_soak_test;
		DCM_SOAK_SECONDS=60 /opt/dcm/selftests/dcm_cycle_test' 2>&1 |
	tee "$log"
st=${PIPESTATUS[0]}
set -e
read -r p f _ n < <("$top/scripts/tap-totals.sh" "$log" "$st")
if [ "$n" = 1 ]; then
	echo "soak.sh: one of the two tests printed no totals"
	f=$((f + 1))
fi
echo "$p passed, $f failed"
[ "$f" = 0 ]
