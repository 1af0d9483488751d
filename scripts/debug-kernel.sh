#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# debug-kernel.sh: build (once) the debug kernel of `make check-debug` from
# Debian's linux-source-6.1 with scripts/debug-kernel/debug.config merged
# over x86_64_defconfig, and print where it is as shell assignments:
#
#   DEBUG_KVER=6.1.x-dcm-debug        its release
#   DEBUG_KDIR=CACHE/KEY/build        its build tree (KDIR for modules)
#   DEBUG_IMAGE=CACHE/KEY/build/arch/x86/boot/bzImage
#   DEBUG_MODROOT=CACHE/KEY/root      its modules under lib/modules/RELEASE
#   DEBUG_BUILD_SECONDS=N             how long its build took
#
# The cache is outside the tree: $DCM_DEBUG_KERNEL_CACHE, else
# ${XDG_CACHE_HOME:-~/.cache}/dcm-debug-kernel. KEY is a hash of the config
# fragment, the source tarball and the compiler: any change builds anew. A
# finished build is reused at once; progress and the build log go to stderr
# and CACHE/KEY/build.log. JOBS (default: the number of CPUs) sets make -j.
set -eu -o pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
TARBALL=${LINUX_SOURCE_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
fragment=$top/scripts/debug-kernel/debug.config
cache=${DCM_DEBUG_KERNEL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/dcm-debug-kernel}
jobs=${JOBS:-$(nproc)}

say() { echo "debug-kernel.sh: $*" >&2; }
die() { say "$*"; exit 1; }

[ -r "$TARBALL" ] || die "$TARBALL not found; run scripts/deps.sh (linux-source-6.1)"
for t in gcc make flex bison bc; do
	command -v "$t" >/dev/null || die "$t not found; run scripts/deps.sh"
done

key=$({
	cat "$fragment"
	stat -c '%s %Y' "$TARBALL"
	gcc --version | head -1
} | sha256sum | cut -c1-12)
dir=$cache/$key

print_vars() {
	echo "DEBUG_KVER=$(cat "$dir/release")"
	echo "DEBUG_KDIR=$dir/build"
	echo "DEBUG_IMAGE=$dir/build/arch/x86/boot/bzImage"
	echo "DEBUG_MODROOT=$dir/root"
	echo "DEBUG_BUILD_SECONDS=$(cat "$dir/build-seconds")"
}

if [ -e "$dir/done" ]; then
	print_vars
	exit 0
fi

mkdir -p "$cache"
exec 9>"$cache/.lock"
flock 9
if [ -e "$dir/done" ]; then
	print_vars
	exit 0
fi

src=$cache/src
if [ ! -e "$src/.stamp" ] || [ "$TARBALL" -nt "$src/.stamp" ]; then
	say "extracting $TARBALL into $src"
	rm -rf "$src"
	mkdir -p "$src"
	tar -xJf "$TARBALL" -C "$src" --strip-components=1
	touch "$src/.stamp"
fi

rm -rf "$dir"
mkdir -p "$dir/build"
log=$dir/build.log
start=$(date +%s)
say "configuring in $dir (log: $log)"
{
	make -C "$src" O="$dir/build" x86_64_defconfig
	"$src/scripts/kconfig/merge_config.sh" -m -O "$dir/build" \
		"$dir/build/.config" "$fragment"
	make -C "$src" O="$dir/build" olddefconfig
} >"$log" 2>&1 || { tail -20 "$log" >&2; die "configuring failed"; }

# Every line of the fragment must have survived olddefconfig.
bad=
while IFS= read -r line; do
	case "$line" in
	CONFIG_*=*)
		grep -qxF "$line" "$dir/build/.config" || bad="$bad ${line%%=*}"
		;;
	"# CONFIG_"*" is not set")
		sym=${line#\# }
		sym=${sym%% *}
		! grep -q "^$sym=" "$dir/build/.config" || bad="$bad $sym"
		;;
	esac
done <"$fragment"
[ -z "$bad" ] || die "olddefconfig did not keep:$bad (see $fragment)"

say "building bzImage and modules with -j$jobs (a first build takes long)"
make -C "$src" O="$dir/build" -j"$jobs" bzImage modules >>"$log" 2>&1 ||
	{ tail -30 "$log" >&2; die "the kernel build failed"; }
make -C "$src" O="$dir/build" INSTALL_MOD_PATH="$dir/root" INSTALL_MOD_STRIP=1 \
	modules_install >>"$log" 2>&1 ||
	{ tail -20 "$log" >&2; die "modules_install failed"; }
make -s -C "$src" O="$dir/build" kernelrelease 2>/dev/null | tail -1 >"$dir/release"
echo $(($(date +%s) - start)) >"$dir/build-seconds"
touch "$dir/done"
say "built $(cat "$dir/release") in $(cat "$dir/build-seconds") s"
print_vars
