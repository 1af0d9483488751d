#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# dkms-tree.sh DIR VERSION: write the module's DKMS source tree into DIR
# (made afresh): dkms.conf, a Kbuild that builds dcm.ko alone (dcm_sim is
# not a robot's), and the sources dcm.ko compiles: kernel/ but the
# simulator, the host shim and the unit tests, and include/. Install it as
# /usr/src/dcm-VERSION, then dkms add/build/install
# (Documentation/install.rst).
#
# dkms-tree.sh --sim DIR VERSION: the simulated body's tree instead
# (/usr/src/dcm-sim-VERSION, the package dcm-sim-dkms): dkms.conf from
# dkms-sim.conf.in, which installs dcm_sim.ko alone, and the tree's Kbuild,
# which builds dcm.ko beside it for its symbols' versions; kernel/ with the
# simulator.
set -eu

sim=0
if [ "${1:-}" = --sim ]; then
	sim=1
	shift
fi
if [ $# -ne 2 ]; then
	echo "usage: $0 [--sim] DIR VERSION" >&2
	exit 2
fi
dir=$1
version=$2
top=$(cd "$(dirname "$0")/.." && pwd)

rm -rf "$dir"
mkdir -p "$dir"
if [ $sim = 1 ]; then
	sed "s/@VERSION@/$version/" "$top/dkms-sim.conf.in" >"$dir/dkms.conf"
	sed -e "s/^DCM_VERSION ?= .*/DCM_VERSION := $version/" "$top/Kbuild" >"$dir/Kbuild"
	want="dcm.o dcm_sim.o"
	skip=/nothing/
	name=dcm-sim
	mod=dcm_sim
else
	sed "s/@VERSION@/$version/" "$top/dkms.conf.in" >"$dir/dkms.conf"
	# The tree's Kbuild with dcm_sim.o out of obj-m and the version
	# written in (the tree's Kbuild reads it from userspace/, which is
	# not here).
	sed -e '/^obj-m/s/[[:space:]]*dcm_sim\.o//' \
		-e "s/^DCM_VERSION ?= .*/DCM_VERSION := $version/" "$top/Kbuild" >"$dir/Kbuild"
	want=dcm.o
	skip=kernel/sim/
	name=dcm
	mod=dcm
fi

# Refuse to guess if the Kbuild does not build exactly what is wanted.
if ! grep -qx "DCM_VERSION := $version" "$dir/Kbuild"; then
	echo "dkms-tree.sh: Kbuild has no 'DCM_VERSION ?=' line to write $version into" >&2
	exit 1
fi
objm=$(sed -n 's/^obj-m[[:space:]]*+*=[[:space:]]*//p' "$dir/Kbuild" | tr -s ' \t' '  ')
if [ "$objm" != "$want" ]; then
	echo "dkms-tree.sh: Kbuild's obj-m is not $want: '$objm'" >&2
	exit 1
fi

cd "$top"
find kernel include -type f \( -name '*.c' -o -name '*.h' \) \
	! -path "$skip*" ! -path 'kernel/host/*' ! -path 'kernel/tests/*' |
	while read -r f; do
		mkdir -p "$dir/$(dirname "$f")"
		cp "$f" "$dir/$f"
	done
cp LICENSES/GPL-2.0.txt "$dir/"
echo "dkms-tree.sh: $dir ($mod.ko $version): copy to /usr/src/$name-$version, then" \
     "dkms add/build/install -m $name -v $version"
