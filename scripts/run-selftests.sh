#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run-selftests.sh LOG: run the kselftest suite (/opt/dcm/selftests/run_all.sh)
# in the VM, show its output, keep a copy in LOG, exit with its status (125
# when the VM run itself failed: kernel warning/oops, timeout; see dcm-vm).
set -eu -o pipefail

if [ $# -ne 1 ]; then
	echo "usage: $0 LOG" >&2
	exit 2
fi
log=$1
top=$(cd "$(dirname "$0")/.." && pwd)

mkdir -p "$(dirname "$log")"
set +e
"$top/scripts/dcm-vm" exec -- /opt/dcm/selftests/run_all.sh 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
exit "$status"
