#!/bin/sh
# Kernel lint: the netlink code generated from its spec is up to date,
# checkpatch --strict on every kernel source, a W=1 build and a sparse (C=2:
# every file) build of the modules. Any warning fails.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
KVER=${KVER:-$(scripts/kver.sh)}
KDIR=${KDIR:-/lib/modules/$KVER/build}
LSRC=${LSRC:-$top/build/linux-src}
log=$top/build/results/lint
mkdir -p "$log"

scripts/linux-src.sh "$LSRC" >/dev/null
fail=0

# The netlink family's C is generated from its spec: it must be up to date.
echo "lint: netlink code generated from Documentation/netlink/specs/dcm.yaml"
if ! python3 scripts/dcm-nl-gen.py --check; then
	fail=1
fi

# Host code is left out: the unit tests and the host shim, which defines
# the kernel's own names (u8, EXPORT_SYMBOL_GPL) over libc.
sources=$(find kernel include -path kernel/tests -prune -o -path kernel/host -prune -o \
	-name '*.[ch]' -print | sort)
echo "lint: checkpatch --strict on $(echo "$sources" | wc -w) files"
# shellcheck disable=SC2086
if ! perl "$LSRC/scripts/checkpatch.pl" --no-tree --strict --show-types \
	--terse -f $sources >"$log/checkpatch.txt" 2>&1; then
	fail=1
fi
if grep -q . "$log/checkpatch.txt"; then
	cat "$log/checkpatch.txt"
	fail=1
fi

for pass in "W=1" "C=2"; do
	echo "lint: module build with $pass"
	if ! make -s -C "$KDIR" M="$top" $pass modules >"$log/build.txt" 2>&1; then
		fail=1
	fi
	if grep -E 'warning:|error:' "$log/build.txt"; then
		fail=1
	fi
done

if [ "$fail" -ne 0 ]; then
	echo "lint: FAILED"
	exit 1
fi
echo "lint: clean"
