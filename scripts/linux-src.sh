#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# linux-src.sh DIR: extract from Debian's linux-source-6.1 tarball the few
# files the build uses (checkpatch and its data, the kselftest headers,
# kernel-doc and its Sphinx extension for `make docs`) into DIR, keeping
# their relative paths:
#   DIR/scripts/checkpatch.pl, DIR/tools/testing/selftests/kselftest_harness.h,
#   DIR/scripts/kernel-doc, DIR/Documentation/sphinx/kerneldoc.py
# A stamp file makes a second run instant (until the tarball or this list
# changes).
set -eu

TARBALL=${LINUX_SOURCE_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
TOP=linux-source-6.1

if [ $# -ne 1 ]; then
	echo "usage: $0 DIR" >&2
	exit 2
fi
dir=$1
stamp=$dir/.linux-src.stamp

if [ ! -r "$TARBALL" ]; then
	echo "linux-src.sh: $TARBALL not found; run scripts/deps.sh (package linux-source-6.1)" >&2
	exit 1
fi
FILES="scripts/checkpatch.pl scripts/spelling.txt
	scripts/const_structs.checkpatch
	tools/testing/selftests/kselftest_harness.h
	tools/testing/selftests/kselftest.h
	scripts/kernel-doc
	Documentation/sphinx/kerneldoc.py Documentation/sphinx/kernellog.py"

# shellcheck disable=SC2086 # $FILES is a list of words
want=$(printf '%s\n' $FILES)
if [ -e "$stamp" ] && [ "$stamp" -nt "$TARBALL" ] && [ "$(cat "$stamp")" = "$want" ]; then
	exit 0
fi

mkdir -p "$dir"
tmp=$(mktemp -d "$dir/.extract.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

tar -xJf "$TARBALL" -C "$tmp" --strip-components=1 --wildcards \
	"$TOP/scripts/checkpatch.pl" \
	"$TOP/scripts/spelling.txt" \
	"$TOP/scripts/const_structs.checkpatch" \
	"$TOP/tools/testing/selftests/kselftest*.h" \
	"$TOP/scripts/kernel-doc" \
	"$TOP/Documentation/sphinx/kerneldoc.py" \
	"$TOP/Documentation/sphinx/kernellog.py"

for f in $FILES; do
	if [ ! -e "$tmp/$f" ]; then
		echo "linux-src.sh: $f missing from $TARBALL" >&2
		exit 1
	fi
done

(cd "$tmp" && find . -type f) | while read -r f; do
	mkdir -p "$dir/$(dirname "$f")"
	mv -f "$tmp/$f" "$dir/$f"
done
printf '%s\n' "$want" >"$stamp"
