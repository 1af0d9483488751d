#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Install the Debian packages needed to build dcm and to run its VM tests.
# Idempotent and silent when everything is already installed; otherwise
# runs apt-get update once and installs only what is missing.
#
#   deps.sh --rt   also the PREEMPT_RT kernel and its headers (make bench-rt).
#                  Installed, it is the newest kernel: pass KVER to build and
#                  boot the generic one (scripts/kver.sh).
#   deps.sh --image  also mmdebstrap, which builds the Debian 12 image of
#                  make image-test (scripts/image-base.sh)
set -eu

PACKAGES="
	linux-image-amd64 linux-headers-amd64
	qemu-system-x86 busybox-static cpio kmod xz-utils
	libnl-3-dev libnl-genl-3-dev libxml2-dev libxml2-utils libcmocka-dev libsystemd-dev
	linux-source-6.1 sparse acpica-tools device-tree-compiler dt-schema yamllint
	pkg-config gcc make python3 python3-yaml
	dkms systemd binutils debhelper dh-dkms dh-python dpkg-dev diffoscope-minimal
	clang libclang-rt-14-dev llvm
	libode-dev libmsgpack-dev libncurses-dev python3-msgpack python3-dev tmux rt-tests stress-ng valgrind
	flex bison bc libelf-dev libssl-dev
	python3-sphinx sphinx-common lintian devscripts groff-base man-db
	libwebsockets-dev chromium chromium-driver prometheus liburdfdom-tools
"
case "${1:-}" in
--rt)
	PACKAGES="$PACKAGES
	linux-image-rt-amd64
	linux-headers-rt-amd64
"
	;;
--image)
	PACKAGES="$PACKAGES
	mmdebstrap e2fsprogs
"
	;;
esac

# The browser test's npm packages (tools/testing/web/package.json) and the
# MCAP test's reader (tools/testing/mcap/package.json: @mcap/core; each
# installed by its test with npm ci from its package-lock.json into the
# build tree) need node and npm: the machine's own if it has them, else
# Debian's.
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
	PACKAGES="$PACKAGES
	nodejs npm
"
fi

missing=
for p in $PACKAGES; do
	st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	case "$st" in
	"install ok installed") ;;
	*) missing="$missing $p" ;;
	esac
done

[ -z "$missing" ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
	sudo=
elif command -v sudo >/dev/null 2>&1; then
	sudo=sudo
else
	echo "deps.sh: missing packages:$missing" >&2
	echo "deps.sh: not root and no sudo; install them as root" >&2
	exit 1
fi

echo "deps.sh: installing$missing"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# shellcheck disable=SC2086 # $sudo and $missing are word lists
if ! { $sudo apt-get update -qq &&
	$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
		--no-install-recommends $missing; } >"$log" 2>&1; then
	cat "$log" >&2
	echo "deps.sh: apt-get failed installing:$missing" >&2
	exit 1
fi
