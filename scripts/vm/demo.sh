#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# /usr/share/dcm/demo.sh: what `make run` shows inside the VM. Prints the
# controllers, the loaded modules, the character device and `dcmctl info`.
# Exits non-zero if dcm0 is missing or dcmctl info fails.
set -u

status=0

section() {
	printf '\n=== %s ===\n' "$1"
}

section "Controllers: ls /sys/class/dcm"
if [ -e /sys/class/dcm/dcm0 ]; then
	ls /sys/class/dcm
else
	echo "no /sys/class/dcm/dcm0: is dcm_sim loaded? (see dmesg)"
	status=1
fi

section "Modules: dcm lines of /proc/modules"
grep '^dcm' /proc/modules || echo "no dcm module loaded"

section "Character device: ls -l /dev/dcm0"
ls -l /dev/dcm0 || status=1

section "dcmctl info"
if command -v dcmctl >/dev/null 2>&1; then
	dcmctl info || {
		echo "dcmctl info failed"
		status=1
	}
else
	echo "dcmctl is not installed (build/bin/dcmctl missing)"
fi

echo
if [ $status = 0 ]; then
	echo "The dcm stack is up."
else
	echo "The dcm stack is NOT up."
fi
exit $status
