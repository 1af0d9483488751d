#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test-dkms.sh: the module's DKMS tree (make dkms) builds with dkms itself,
# against the installed headers of $KVER, in a staging DKMS and source tree
# (nothing of the machine's /var/lib/dkms or /usr/src is used; a signing
# key, if dkms signs, is made in the staging tree too). The module built is
# dcm.ko alone, for $KVER. Then the simulated body's tree (dcm-sim, the
# package dcm-sim-dkms): dkms builds dcm_sim.ko alone, which depends on
# dcm, and every symbol it takes from dcm has the version (CRC) of the
# dcm.ko built from the dcm tree: it loads against dcm-dkms' module. About
# 2 minutes: the whole module is compiled three times.
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
# The versions (CRCs) of the symbols the dcm.ko dkms built exports: each
# __crc_SYMBOL's 4 bytes in its section (__kcrctab, __kcrctab_gpl), as
# "0xCRC SYMBOL" lines.
symvers=$tmp/dcm.symvers
: >"$symvers"
if [ -f "$ko" ]; then
	for sec in __kcrctab __kcrctab_gpl; do
		objcopy -O binary --only-section=$sec "$ko" "$tmp/$sec.bin" 2>/dev/null || continue
		objdump -t "$ko" | awk -v sec=$sec 'NF >= 4 && $(NF - 2) == sec && $NF ~ /^__crc_/ {
			print $1, substr($NF, 7) }' | while read -r off sym; do
			printf '0x%s %s\n' "$(od -An -tx4 -j $((16#$off)) -N4 "$tmp/$sec.bin" | tr -d ' ')" "$sym"
		done
	done | LC_ALL=C sort -k2 >"$symvers"
fi
dk remove --all >"$log" 2>&1 && [ ! -e "$tree/dcm" ]
check "dkms remove --all: nothing left in the DKMS tree" "$?"

# The simulated body's tree.
[ -f "$tmp/out/dkms/dcm-sim-$version/dkms.conf" ] &&
	cp -R "$tmp/out/dkms/dcm-sim-$version" "$src/" &&
	grep -q '^PACKAGE_NAME="dcm-sim"$' "$src/dcm-sim-$version/dkms.conf" &&
	[ -f "$src/dcm-sim-$version/kernel/sim/sim_link.c" ]
check "make dkms: dcm-sim-$version with its dkms.conf and the simulator" "$?"
dks() {
	mok_signing_key=$tmp/mok.key mok_certificate=$tmp/mok.pub \
		dkms "$@" -m dcm-sim -v "$version" --dkmstree "$tree" --sourcetree "$src"
}
dks add >"$log" 2>&1 && dks build -k "$KVER" >>"$log" 2>&1
st=$?
ko=$tree/dcm-sim/$version/$KVER/$(uname -m)/module/dcm_sim.ko
[ "$st" = 0 ] && [ -f "$ko" ] &&
	[ "$(find "$tree/dcm-sim/$version/$KVER" -name '*.ko*' | wc -l)" = 1 ] &&
	[ "$(modinfo -F vermagic "$ko" | cut -d' ' -f1)" = "$KVER" ] &&
	[ "$(modinfo -F depends "$ko")" = dcm ] && [ "$(modinfo -F version "$ko")" = "$version" ]
check "dkms build -k $KVER of dcm-sim: dcm_sim.ko alone, for $KVER, version $version, depending on dcm" "$?"
# modprobe --dump-modversions: "CRC<tab>symbol", the kernel's too.
modprobe --dump-modversions "$ko" 2>/dev/null | LC_ALL=C sort -k2 >"$tmp/sim.versions"
join -1 2 -2 2 -o 1.1,1.2,2.1 "$symvers" <(tr '\t' ' ' <"$tmp/sim.versions") >"$tmp/joined"
n=$(wc -l <"$tmp/joined")
awk '$1 != $3' "$tmp/joined" >"$log"
[ -s "$symvers" ] && [ "$n" -ge 10 ] && [ ! -s "$log" ]
check "dcm_sim.ko takes $n symbols from dcm, each with the version of the dcm tree's dcm.ko" "$?"
dks remove --all >"$log" 2>&1 && [ ! -e "$tree/dcm-sim" ]
check "dkms remove --all of dcm-sim: nothing left" "$?"
finish
