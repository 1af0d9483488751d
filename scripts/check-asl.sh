#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# check-asl.sh: the ACPI tables of the test VM (scripts/vm/*.asl) compile
# with iasl without an error or a warning, as scripts/dcm-vm --acpi and
# --rs485-uart require. Run by `make unit`.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
O=${O:-$top/build}
out=$O/asl
mkdir -p "$out"
command -v iasl >/dev/null || { echo "check-asl: iasl missing; run scripts/deps.sh" >&2; exit 1; }
rc=0
n=0
for f in "$top"/scripts/vm/*.asl; do
	name=$(basename "$f" .asl)
	n=$((n + 1))
	if ! iasl -p "$out/$name" "$f" >"$out/$name.log" 2>&1 ||
		! grep -q ' 0 Errors, 0 Warnings' "$out/$name.log"; then
		cat "$out/$name.log" >&2
		echo "check-asl: iasl failed or warned on scripts/vm/$name.asl" >&2
		rc=1
	fi
done
[ "$rc" = 0 ] && echo "check-asl: $n ACPI tables compile without a warning"
exit $rc
