#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test-dkms.sh: the module's DKMS tree (make dkms) builds with dkms itself,
# against the installed headers of $KVER, in a staging DKMS and source tree
# (nothing of the machine's /var/lib/dkms or /usr/src is used; a signing
# key, if dkms signs, is made in the staging tree too). The module built is
# dcm.ko alone, for $KVER. About 40 s: the whole module is compiled.
#
# Run by `make unit`; ends like a cmocka binary ("[  PASSED  ] N test(s)."
# and "[  FAILED  ] N test(s), listed below:"), exit 1 on a failure.
set -u -o pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
suite=dkms
. scripts/test-lib.sh
KVER=${KVER:-$(scripts/kver.sh)}
version=$(sed -n 's/^#define LIBDCM_VERSION[[:space:]]*"\(.*\)"/\1/p' userspace/lib/libdcm.h)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
log=$tmp/log
check_log=$log

src=$tmp/src
tree=$tmp/dkms
mkdir -p "$src" "$tree"
make -s --no-print-directory dkms O="$tmp/out" >"$log" 2>&1 &&
	cp -R "$tmp/out/dkms/dcm-$version" "$src/" &&
	grep -q "^PACKAGE_VERSION=\"$version\"$" "$src/dcm-$version/dkms.conf" &&
	[ ! -e "$src/dcm-$version/kernel/sim" ]
check "make dkms: dcm-$version with its dkms.conf, without the simulator" "$?"

if ! command -v dkms >/dev/null; then
	echo "no dkms here (scripts/deps.sh installs it)" >"$log"
	check "dkms is installed" 1
	finish
fi

dk() {
	mok_signing_key=$tmp/mok.key mok_certificate=$tmp/mok.pub \
		dkms "$@" -m dcm -v "$version" --dkmstree "$tree" --sourcetree "$src"
}
dk add >"$log" 2>&1
check "dkms add" "$?"
dk build -k "$KVER" >"$log" 2>&1
st=$?
ko=$tree/dcm/$version/$KVER/$(uname -m)/module/dcm.ko
[ "$st" = 0 ] && [ -f "$ko" ] &&
	[ "$(find "$tree/dcm/$version/$KVER" -name '*.ko*' | wc -l)" = 1 ] &&
	[ "$(modinfo -F vermagic "$ko" | cut -d' ' -f1)" = "$KVER" ] &&
	[ "$(modinfo -F name "$ko")" = dcm ]
check "dkms build -k $KVER: dcm.ko alone, for $KVER" "$?"
[ -f "$ko" ] && [ "$(modinfo -F version "$ko")" = "$version" ]
check "modinfo: dcm.ko's version is $version" "$?"
dk status >"$log" 2>&1 && grep -q "dcm/$version, $KVER.*: built" "$log"
check "dkms status: built for $KVER" "$?"
dk remove --all >"$log" 2>&1 && [ ! -e "$tree/dcm" ]
check "dkms remove --all: nothing left in the DKMS tree" "$?"
finish
