#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# check-dts.sh: dts/nao.dts compiles with dtc without a warning, and names
# exactly the buses the shipped robot description puts boards on.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
O=${O:-$top/build}
mkdir -p "$O"

if ! dtc -q -I dts -O dtb -o "$O/nao.dtb" "$top/dts/nao.dts" 2>"$O/dtc.log" ||
	[ -s "$O/dtc.log" ]; then
	cat "$O/dtc.log"
	echo "check-dts: dtc failed or warned on dts/nao.dts"
	exit 1
fi
dts=$(sed -n 's/.*dcm,bus-name = "\([^"]*\)".*/\1/p' "$top/dts/nao.dts" | sort -u)
xml=$(sed -n 's/.*<Device [^>]*Bus="\([^"]*\)".*/\1/p' "$top/userspace/data/Device.xml" |
	sort -u)
if [ "$dts" != "$xml" ]; then
	echo "check-dts: the buses differ"
	echo "  dts/nao.dts:                 $(echo $dts)"
	echo "  userspace/data/Device.xml:   $(echo $xml)"
	exit 1
fi
echo "check-dts: ok: $(echo "$dts" | wc -l) buses"
