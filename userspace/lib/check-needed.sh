#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check-needed.sh BUILD_DIR: what each built library and program links.
# libdcm.so, which every client links, needs no libxml2, neither itself
# (readelf's NEEDED) nor through another library (ldd); the description's
# library libdcm-desc.so needs libdcm.so.0 and libxml2; dcm-lola, a
# client of libdcm alone, has no libxml2 either; dcmd and dcmctl reach
# libxml2 only through libdcm-desc.so.0; dcmd links libsystemd. Prints
# TAP-like lines; exits 1 on a mismatch.
set -u
O=$1
rc=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

check() {
	if [ "$2" = 0 ]; then echo "ok - $1"; else echo "not ok - $1"; rc=1; fi
}

# needed FILE: its DT_NEEDED names, one a line.
needed() {
	readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p'
}

# all FILE: every library the dynamic linker loads for it, the build
# tree's libraries first.
all() {
	LD_LIBRARY_PATH=$O/lib ldd "$1" | awk '{ print $1 }'
}

lib=$(readlink -f "$O/lib/libdcm.so")
desc=$(readlink -f "$O/lib/libdcm-desc.so")
for f in "$lib" "$desc" "$O/bin/dcmd" "$O/bin/dcmctl" "$O/bin/dcm-lola"; do
	[ -f "$f" ] || { echo "not ok - $f: not built"; exit 1; }
done

: >"$tmp/a"
needed "$lib" >"$tmp/n" && ! grep -q '^libxml2' "$tmp/n" &&
	all "$lib" >"$tmp/a" && ! grep -q '^libxml2' "$tmp/a"
st=$?
[ "$st" != 0 ] && sed 's/^/    /' "$tmp/n" "$tmp/a"
check "libdcm.so: no libxml2, needed or loaded" "$st"

needed "$desc" >"$tmp/n" && grep -qx 'libdcm\.so\.0' "$tmp/n" && grep -q '^libxml2\.so' "$tmp/n"
st=$?
[ "$st" != 0 ] && sed 's/^/    /' "$tmp/n"
check "libdcm-desc.so: needs libdcm.so.0 and libxml2" "$st"

all "$O/bin/dcm-lola" >"$tmp/a" && ! grep -q '^libxml2\|^libdcm-desc' "$tmp/a"
st=$?
[ "$st" != 0 ] && sed 's/^/    /' "$tmp/a"
check "dcm-lola: libdcm alone, no libxml2" "$st"

st=0
for p in dcmd dcmctl; do
	needed "$O/bin/$p" >"$tmp/n"
	if ! grep -qx 'libdcm-desc\.so\.0' "$tmp/n" || ! grep -qx 'libdcm\.so\.0' "$tmp/n" ||
		grep -q '^libxml2' "$tmp/n"; then
		sed "s/^/    $p: /" "$tmp/n"
		st=1
	fi
done
check "dcmd, dcmctl: libdcm-desc.so.0 and libdcm.so.0, libxml2 through libdcm-desc alone" "$st"

needed "$O/bin/dcmd" | grep -q '^libsystemd\.so\.0$'
check "dcmd: libsystemd.so.0" "$?"
exit $rc
