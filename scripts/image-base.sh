#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# image-base.sh: build (once) the Debian 12 root file system the image test
# (scripts/image-test.sh, `make image-test`) installs dcm's packages into,
# with mmdebstrap from Debian's archive, and print where it is as shell
# assignments:
#
#   IMAGE_BASE=CACHE/KEY/base.tar      the root file system, a tarball
#   IMAGE_BASE_SECONDS=N               how long its build took
#   IMAGE_BASE_CACHED=0|1              1: it was in the cache already
#
# What is in it is what a robot image built on Debian has before dcm: systemd
# as init, udev, the generic kernel and its headers, Debian's PREEMPT_RT
# kernel and its headers (a second flavour DKMS must build dcm for), DKMS and
# build-essential, python3 (and msgpack, for a LoLA client), the libraries
# dcm's programs use. The list is scripts/image/packages, one a line.
#
# The cache is outside the tree: $DCM_IMAGE_CACHE, else
# ${XDG_CACHE_HOME:-~/.cache}/dcm-image. KEY hashes the package list, this
# script, the suite and the mirrors: any change builds anew. Progress and
# mmdebstrap's log go to stderr and CACHE/KEY/build.log.
#
# The mirrors are Debian's (DCM_IMAGE_MIRROR, DCM_IMAGE_SECURITY_MIRROR),
# written into the image's sources.list: its apt installs dcm's packages'
# dependencies from there.
set -eu -o pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cache=${DCM_IMAGE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/dcm-image}
suite=bookworm
mirror=${DCM_IMAGE_MIRROR:-http://deb.debian.org/debian}
security=${DCM_IMAGE_SECURITY_MIRROR:-http://deb.debian.org/debian-security}
list=$top/scripts/image/packages

say() { echo "image-base.sh: $*" >&2; }
die() { say "$*"; exit 1; }

command -v mmdebstrap >/dev/null || die "mmdebstrap missing; run scripts/deps.sh --image"
[ "$(id -u)" = 0 ] || die "run as root (mmdebstrap's root mode, the chroot of image-test.sh)"

packages=$(sed 's/#.*//' "$list" | xargs | tr ' ' ,)
[ -n "$packages" ] || die "$list names no package"
sources=("deb $mirror $suite main"
	"deb $mirror $suite-updates main"
	"deb $security $suite-security main")

key=$({
	echo "$packages"
	printf '%s\n' "${sources[@]}"
	cat "$0"
} | sha256sum | cut -c1-12)
dir=$cache/$key

print_vars() {
	echo "IMAGE_BASE=$dir/base.tar"
	echo "IMAGE_BASE_SECONDS=$(cat "$dir/build-seconds")"
	echo "IMAGE_BASE_CACHED=$1"
}

if [ -e "$dir/done" ]; then
	print_vars 1
	exit 0
fi
mkdir -p "$cache"
exec 9>"$cache/.lock"
flock 9
if [ -e "$dir/done" ]; then
	print_vars 1
	exit 0
fi

rm -rf "$dir"
mkdir -p "$dir"
log=$dir/build.log
start=$(date +%s)
say "building the Debian $suite image in $dir (log: $log)"
# minbase and what is listed: systemd as init (systemd-sysv), no
# recommends, as a robot image keeps small. The initramfs (initramfs-tools,
# MODULES=most) holds virtio_blk and ext4: root=/dev/vda boots.
mmdebstrap --mode=root --format=tar --variant=minbase --include="$packages" \
	--aptopt='APT::Install-Recommends "false"' \
	--customize-hook='echo robot >"$1/etc/hostname"' \
	--customize-hook='printf "/dev/vda / ext4 rw,errors=remount-ro 0 1\n" >"$1/etc/fstab"' \
	--customize-hook='chroot "$1" apt-get clean' \
	"$suite" "$dir/base.tar.part" "${sources[@]}" >"$log" 2>&1 ||
	{ tail -30 "$log" >&2; die "mmdebstrap failed"; }
mv "$dir/base.tar.part" "$dir/base.tar"
echo $(($(date +%s) - start)) >"$dir/build-seconds"
touch "$dir/done"
say "built in $(cat "$dir/build-seconds") s: $(du -h "$dir/base.tar" | cut -f1)"
print_vars 0
