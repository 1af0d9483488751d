#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check-symbols.sh LIBDCM_SO [LIBDCM_DESC_SO]: the shared library exports exactly the
# functions its sources mark DCM_EXPORT, each in a version node of
# libdcm.map, and nothing else (no test hook, no parser only the unit
# tests call); the node LIBDCM_PRIVATE holds dcm_set_error alone, for
# libdcm-desc. With LIBDCM_DESC_SO, the same of libdcm-desc: exactly the
# DCM_EXPORT functions of desc/*.c in libdcm-desc.map's LIBDCM_DESC_0.x
# nodes, and besides only the description's desc_* in
# LIBDCM_DESC_PRIVATE (nothing of the kernel's model code). Prints
# TAP-like lines; exits 1 on a mismatch.
set -u
so=$1
desc_so=${2:-}
src=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rc=0

# DCM_EXPORT <type> [*]name(
sed -n 's/^DCM_EXPORT .*[ *]\(dcm_[a-z0-9_]*\)(.*/\1/p' "$src"/*.c | sort -u >"$tmp/marked"
# the map's names (a line "name;" inside global:)
sed -n 's/^[[:space:]]*\(dcm_[a-z0-9_]*\);$/\1/p' "$src/libdcm.map" | sort >"$tmp/mapped"
nm -D --defined-only "$so" | awk '$2 == "T" { sub(/@.*/, "", $3); print $3 }' | sort >"$tmp/exported"

check() {
	if [ "$2" = 0 ]; then echo "ok - $1"; else echo "not ok - $1"; rc=1; fi
}

uniq -d "$tmp/mapped" >"$tmp/twice"
[ -s "$tmp/twice" ] && sed 's/^/    listed twice: /' "$tmp/twice"
check "libdcm.map lists each symbol once" "$([ -s "$tmp/twice" ] && echo 1 || echo 0)"
comm -23 "$tmp/marked" "$tmp/mapped" >"$tmp/unmapped"
[ -s "$tmp/unmapped" ] && sed 's/^/    DCM_EXPORT but in no node of libdcm.map: /' "$tmp/unmapped"
check "every DCM_EXPORT function is in a version node" "$([ -s "$tmp/unmapped" ] && echo 1 || echo 0)"
diff "$tmp/mapped" "$tmp/exported" >"$tmp/diff"
st=$?
[ "$st" != 0 ] && sed 's/^/    /' "$tmp/diff"
check "nm -D exports exactly libdcm.map's symbols" "$st"
grep -E '^(dcm_nl_parse_calibrate|dcm_nl_parse_special|dcm_snapshot_wrap|dcm_snapshot_test_|dcm_clear_error|desc_|json_)' \
	"$tmp/exported" >"$tmp/test_only"
[ -s "$tmp/test_only" ] && sed 's/^/    exported: /' "$tmp/test_only"
check "no test-only or internal symbol exported" "$([ -s "$tmp/test_only" ] && echo 1 || echo 0)"
nm -D --defined-only "$so" | grep -v ' A LIBDCM_' | awk '{ print $3 }' |
	grep -v '@@LIBDCM_0\.[0-9]*$' | grep -vx 'dcm_set_error@@LIBDCM_PRIVATE' >"$tmp/unversioned"
[ -s "$tmp/unversioned" ] && sed 's/^/    no version: /' "$tmp/unversioned"
check "every exported symbol has a LIBDCM_0.x version (dcm_set_error: LIBDCM_PRIVATE)" \
	"$([ -s "$tmp/unversioned" ] && echo 1 || echo 0)"
nm -D --defined-only "$so" | awk '$3 ~ /@@LIBDCM_PRIVATE$/ { print $3 }' >"$tmp/private"
echo 'dcm_set_error@@LIBDCM_PRIVATE' | diff - "$tmp/private" >"$tmp/diff"
st=$?
[ "$st" != 0 ] && sed 's/^/    /' "$tmp/diff"
check "LIBDCM_PRIVATE: dcm_set_error alone" "$st"

[ -n "$desc_so" ] || exit $rc
desc=$src/../desc
sed -n 's/^DCM_EXPORT .*[ *]\(dcm_[a-z0-9_]*\)(.*/\1/p' "$desc"/*.c | sort -u >"$tmp/dmarked"
sed -n 's/^[[:space:]]*\(dcm_[a-z0-9_]*\);$/\1/p' "$desc/libdcm-desc.map" | sort >"$tmp/dmapped"
nm -D --defined-only "$desc_so" | awk '$2 != "A" { print $3 }' | sort >"$tmp/dexported"
sed -n 's/@@LIBDCM_DESC_0\.[0-9]*$//p' "$tmp/dexported" >"$tmp/dpublic"
diff "$tmp/dmarked" "$tmp/dmapped" >"$tmp/diff" && diff "$tmp/dmapped" "$tmp/dpublic" >>"$tmp/diff"
st=$?
[ "$st" != 0 ] && sed 's/^/    /' "$tmp/diff"
check "libdcm-desc: its DCM_EXPORT functions, exactly, in LIBDCM_DESC_0.x" "$st"
grep -v '@@LIBDCM_DESC_0\.[0-9]*$' "$tmp/dexported" | grep -v '^desc_[a-z0-9_]*@@LIBDCM_DESC_PRIVATE$' \
	>"$tmp/dother"
[ -s "$tmp/dother" ] && sed 's/^/    exported: /' "$tmp/dother"
check "libdcm-desc: nothing else but desc_* in LIBDCM_DESC_PRIVATE" \
	"$([ -s "$tmp/dother" ] && echo 1 || echo 0)"
grep -q '^desc_load@@LIBDCM_DESC_PRIVATE$' "$tmp/dexported" &&
	grep -q '^desc_push@@LIBDCM_DESC_PRIVATE$' "$tmp/dexported"
check "libdcm-desc: dcmd's and dcmctl's desc_load() and desc_push() in LIBDCM_DESC_PRIVATE" "$?"
exit $rc
