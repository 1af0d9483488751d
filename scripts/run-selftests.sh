#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run-selftests.sh LOG: run the kselftest suite (/opt/dcm/selftests/run_all.sh)
# in the VM, then the RS485 UART test in a VM whose RS485-1 is QEMU's second
# UART (dcm-vm --rs485-uart), then the bad firmware test in a VM that adds
# the bad bodies' ACPI table to that (--acpi scripts/vm/bad-bodies.asl),
# then the physics body's test in a VM whose body dcm-physics steps on the
# host (--physics); show their output, keep a copy in LOG, exit with the first failure's
# status (125 when a VM run itself failed: kernel warning/oops, timeout; see
# dcm-vm). DCM_SELFTEST_WRAP, if set, is a guest command each test command
# runs under (make check-debug: /usr/sbin/dcm-kmemleak); DCM_VM_TIMEOUT, if
# set, bounds each VM run (else 2700 s for the suite's, dcm-vm's default
# for the UART's, 300 s for the last two).
# DCM_SELFTESTS, if set, is the tests to run, by name (run_all.sh's, and
# dcm_uart_test.sh, dcm_firmware_test.sh, dcm_physics_test.sh for the
# other VMs): only those run.
set -eu -o pipefail

if [ $# -ne 1 ]; then
	echo "usage: $0 LOG" >&2
	exit 2
fi
log=$1
top=$(cd "$(dirname "$0")/.." && pwd)

mkdir -p "$(dirname "$log")"
set +e
# shellcheck disable=SC2086 # $wrap is a command prefix: empty or words
wrap=${DCM_SELFTEST_WRAP:-}
only=${DCM_SELFTESTS:-}
# Is test $1 to run? Every one without DCM_SELFTESTS.
wanted() {
	[ -z "$only" ] || case " $only " in *" $1 "*) return 0 ;; *) return 1 ;; esac
}
suite=()
for t in $only; do
	case $t in
	dcm_uart_test.sh | dcm_firmware_test.sh | dcm_physics_test.sh) ;;
	*) suite+=("$t") ;;
	esac
done
status=0
if [ -z "$only" ] || [ ${#suite[@]} -gt 0 ]; then
	# The whole suite takes 10 to 20 minutes, more on a busy host: its
	# bound only catches a hang (DCM_VM_TIMEOUT, else 45 minutes).
	"$top/scripts/dcm-vm" exec --timeout "${DCM_VM_TIMEOUT:-2700}" \
		-- $wrap /opt/dcm/selftests/run_all.sh "${suite[@]}" 2>&1 | tee "$log"
	status=${PIPESTATUS[0]}
else
	: >"$log"
fi
if wanted dcm_uart_test.sh; then
	echo "# selftest: dcm_uart_test.sh (dcm-vm --rs485-uart)" | tee -a "$log"
	"$top/scripts/dcm-vm" exec --rs485-uart -- $wrap /opt/dcm/selftests/dcm_uart_test.sh 2>&1 |
		tee -a "$log"
	uart_status=${PIPESTATUS[0]}
	[ "$status" = 0 ] && status=$uart_status
fi
if wanted dcm_firmware_test.sh; then
	echo "# selftest: dcm_firmware_test.sh (dcm-vm --rs485-uart --acpi scripts/vm/bad-bodies.asl)" |
		tee -a "$log"
	"$top/scripts/dcm-vm" exec --timeout "${DCM_VM_TIMEOUT:-300}" --rs485-uart \
		--acpi "$top/scripts/vm/bad-bodies.asl" \
		-- $wrap /opt/dcm/selftests/dcm_firmware_test.sh 2>&1 | tee -a "$log"
	fw_status=${PIPESTATUS[0]}
	[ "$status" = 0 ] && status=$fw_status
fi
if wanted dcm_physics_test.sh; then
	echo "# selftest: dcm_physics_test.sh (dcm-vm --physics)" | tee -a "$log"
	"$top/scripts/dcm-vm" exec --timeout "${DCM_VM_TIMEOUT:-300}" --physics \
		-- $wrap /opt/dcm/selftests/dcm_physics_test.sh 2>&1 | tee -a "$log"
	phys_status=${PIPESTATUS[0]}
	[ "$status" = 0 ] && status=$phys_status
fi
exit "$status"
