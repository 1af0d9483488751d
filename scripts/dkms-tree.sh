#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# dkms-tree.sh DIR VERSION: write the module's DKMS source tree into DIR
# (made afresh): dkms.conf, a Kbuild that builds dcm.ko alone (dcm_sim is
# the test VM's, not a robot's), and the sources dcm.ko compiles: kernel/
# but the simulator, the host shim and the unit tests, and include/.
# Install it as /usr/src/dcm-VERSION, then dkms add/build/install
# (Documentation/install.rst).
set -eu

if [ $# -ne 2 ]; then
	echo "usage: $0 DIR VERSION" >&2
	exit 2
fi
dir=$1
version=$2
top=$(cd "$(dirname "$0")/.." && pwd)

rm -rf "$dir"
mkdir -p "$dir"
sed "s/@VERSION@/$version/" "$top/dkms.conf.in" >"$dir/dkms.conf"

# The tree's Kbuild with dcm_sim.o out of obj-m and the version written
# in (the tree's Kbuild reads it from userspace/, which is not here);
# refuse to guess if the result does not build exactly dcm.o.
sed -e '/^obj-m/s/[[:space:]]*dcm_sim\.o//' \
	-e "s/^DCM_VERSION ?= .*/DCM_VERSION := $version/" "$top/Kbuild" >"$dir/Kbuild"
if ! grep -qx "DCM_VERSION := $version" "$dir/Kbuild"; then
	echo "dkms-tree.sh: Kbuild has no 'DCM_VERSION ?=' line to write $version into" >&2
	exit 1
fi
objm=$(sed -n 's/^obj-m[[:space:]]*+*=[[:space:]]*//p' "$dir/Kbuild" | tr -s ' \t' '  ')
if [ "$objm" != "dcm.o" ]; then
	echo "dkms-tree.sh: Kbuild's obj-m is not dcm.o (and dcm_sim.o) alone: '$objm'" >&2
	exit 1
fi

cd "$top"
find kernel include -type f \( -name '*.c' -o -name '*.h' \) \
	! -path 'kernel/sim/*' ! -path 'kernel/host/*' ! -path 'kernel/tests/*' |
	while read -r f; do
		mkdir -p "$dir/$(dirname "$f")"
		cp "$f" "$dir/$f"
	done
cp LICENSES/GPL-2.0.txt "$dir/"
echo "dkms-tree.sh: $dir (dcm $version): copy to /usr/src/dcm-$version, then" \
     "dkms add/build/install -m dcm -v $version"
