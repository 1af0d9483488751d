#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test-deb.sh: the Debian packaging (debian/) builds with
# dpkg-buildpackage -b in a copy of the tree, and each package holds what
# it should: dcm-dkms the module's DKMS source and the maintainer scripts
# that run dkms; libdcm0 the library alone, which needs no libxml2;
# libdcm-desc0 the description's library alone, and dcm-tools depends on
# its very version; libdcm-dev the headers, the static library, the .so
# links and the pkg-config files; dcm-tools dcmd,
# dcmctl, the description, the unit and the udev, modprobe.d,
# modules-load.d and sysusers.d files; dcm-doc the HTML documentation, a
# page for every page of Documentation/ and every page the manual pages
# name. No test data anywhere, no RUNPATH; every binary hardened
# (hardening-check), and lintian finds no error or warning.
#
# Run by `make unit`; ends like a cmocka binary ("[  PASSED  ] N test(s)."
# and "[  FAILED  ] N test(s), listed below:"), exit 1 on a failure.
set -u -o pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
suite=deb
. scripts/test-lib.sh
version=$(sed -n 's/^#define LIBDCM_VERSION[[:space:]]*"\(.*\)"/\1/p' userspace/lib/libdcm.h)
arch=$(dpkg --print-architecture)
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
tmp=$(mktemp -d)
trap '[ -n "${KEEP_TMP:-}" ] || rm -rf "$tmp"' EXIT
log=$tmp/log
check_log=$log

# The tree as it is (committed or not), without what builds leave.
src=$tmp/dcm-$version
mkdir -p "$src"
tar -C "$top" --exclude=./build --exclude=./.git --exclude-vcs-ignores -cf - . |
	tar -C "$src" -xf -
(cd "$src" && dpkg-buildpackage -b -uc -us) >"$log" 2>&1
check "dpkg-buildpackage -b -uc -us" "$?"

deb() {
	echo "$tmp/${1}_${version}_$2.deb"
}

# contents PKG ARCH: the package's files and links, "/path" a line.
contents() {
	dpkg-deb -c "$(deb "$1" "$2")" 2>/dev/null | awk '$1 !~ /^d/ { print $6 }' |
		sed 's|^\./|/|' | LC_ALL=C sort
}

for p in "dcm-dkms all" "libdcm0 $arch" "libdcm-desc0 $arch" "libdcm-dev $arch" "dcm-tools $arch" \
	"python3-dcm all" \
	"dcm-doc all"; do
	# shellcheck disable=SC2086 # "PACKAGE ARCH"
	set -- $p
	[ -f "$(deb "$1" "$2")" ]
	check "$1: built" "$?"
done
[ -f "$(deb dcm-dkms all)" ] || finish

contents dcm-dkms all >"$log"
grep -qx "/usr/src/dcm-$version/dkms.conf" "$log" &&
	grep -qx "/usr/src/dcm-$version/Kbuild" "$log" &&
	grep -qx "/usr/src/dcm-$version/kernel/core/dcm_describe.c" "$log" &&
	! grep -q '/sim/\|\.ko$\|\.o$' "$log"
check "dcm-dkms: the DKMS source of dcm $version, no simulator, nothing built" "$?"
dpkg-deb -e "$(deb dcm-dkms all)" "$tmp/ctl" && grep -q dkms "$tmp/ctl/postinst" &&
	grep -q dkms "$tmp/ctl/prerm" >"$log" 2>&1
check "dcm-dkms: postinst and prerm run dkms" "$?"

contents libdcm0 "$arch" | grep -v '^/usr/share/doc/' >"$log"
printf '/usr/lib/%s/libdcm.so.0\n/usr/lib/%s/libdcm.so.%s\n' "$multiarch" "$multiarch" \
	"$version" | LC_ALL=C sort | diff - "$log" >/dev/null
check "libdcm0: libdcm.so.0 and libdcm.so.$version alone" "$?"

contents libdcm-desc0 "$arch" | grep -v '^/usr/share/doc/' >"$log"
printf '/usr/lib/%s/libdcm-desc.so.0\n/usr/lib/%s/libdcm-desc.so.%s\n' "$multiarch" "$multiarch" \
	"$version" | LC_ALL=C sort | diff - "$log" >/dev/null
check "libdcm-desc0: libdcm-desc.so.0 and libdcm-desc.so.$version alone" "$?"

contents libdcm-dev "$arch" | grep -v '^/usr/share/doc/' >"$log"
printf '%s\n' /usr/include/libdcm.h /usr/include/libdcm-desc.h /usr/include/linux/dcm.h \
	"/usr/lib/$multiarch/libdcm.a" "/usr/lib/$multiarch/libdcm.so" "/usr/lib/$multiarch/libdcm-desc.so" \
	"/usr/lib/$multiarch/pkgconfig/libdcm.pc" "/usr/lib/$multiarch/pkgconfig/libdcm-desc.pc" \
	/usr/share/man/man3/libdcm.3.gz /usr/share/man/man3/libdcm-desc.3.gz |
	LC_ALL=C sort | diff - "$log" >/dev/null
check "libdcm-dev: the headers, <linux/dcm.h>, libdcm.a, the .so links, the .pc files, libdcm(3), libdcm-desc(3)" "$?"

# libdcm0 needs no XML parser; libdcm-desc0 this very libdcm0; dcm-tools
# (which calls libdcm-desc's private calls) this very libdcm-desc0.
deps() {
	dpkg-deb -f "$(deb "$1" "$arch")" Depends
}
{ deps libdcm0; deps libdcm-desc0; deps dcm-tools; } >"$log"
! deps libdcm0 | grep -q libxml2 &&
	deps libdcm-desc0 | grep -q "libdcm0 (= $version)" &&
	deps libdcm-desc0 | grep -q libxml2 &&
	deps dcm-tools | grep -q "libdcm-desc0 (= $version)" &&
	deps dcm-tools | grep -q libsystemd0
check "Depends: libdcm0 without libxml2, libdcm-desc0 on libdcm0 $version, dcm-tools on libdcm-desc0 $version and libsystemd0" "$?"

contents dcm-tools "$arch" >"$log"
ok=0
for f in /usr/bin/dcmctl /usr/bin/dcm-flight /usr/sbin/dcmd /usr/share/dcm/Device.xml /usr/share/dcm/device.rng \
	/lib/systemd/system/dcmd@.service /lib/systemd/system/dcm-lola.service \
	/lib/systemd/system/dcm-lola.socket \
	/usr/lib/systemd/system-preset/80-dcm.preset /usr/lib/udev/rules.d/60-dcm.rules \
	/usr/lib/modprobe.d/dcm.conf /usr/lib/modules-load.d/dcm.conf /usr/lib/sysusers.d/dcm.conf \
	/usr/share/man/man8/dcmctl.8.gz /usr/share/man/man8/dcmd.8.gz \
	/usr/share/man/man8/dcm-lola.8.gz /usr/sbin/dcm-lola \
	/usr/sbin/dcm-web /lib/systemd/system/dcm-web.service /usr/share/man/man8/dcm-web.8.gz \
	/lib/systemd/system/dcm-flight.service /usr/share/man/man8/dcm-flight.8.gz \
	/usr/share/dcm/web/index.html /usr/share/dcm/web/dcm-web.js /usr/share/dcm/web/uPlot.iife.min.js \
	/usr/share/bash-completion/completions/dcmctl; do
	grep -qx "$f" "$log" || { echo "missing: $f"; ok=1; }
done >"$tmp/missing"
grep -q 'seed-keys\|variants\|selftest\|dcm_sim' "$log" && ok=1
cp "$tmp/missing" "$log"
check "dcm-tools: dcmd, dcmctl, dcm-flight, dcm-lola, dcm-web and its page, the description, the units (dcm-flight's too), udev, modprobe.d, modules-load.d, sysusers.d; no test data" "$ok"

contents python3-dcm all | grep -v '^/usr/share/doc/' >"$log"
for f in userspace/python/dcm/*.py _version.py; do
	echo "/usr/lib/python3/dist-packages/dcm/${f##*/}"
done | LC_ALL=C sort | diff - "$log" >/dev/null
check "python3-dcm: the module dcm in Debian's python3 directory" "$?"

# dcm-doc: every page of Documentation/ in HTML (the sources are not
# shipped), the uapi header's kernel-doc rendered, the pages the manual
# pages name, Sphinx's JavaScript from libjs-sphinxdoc (dh_sphinxdoc).
contents dcm-doc all >"$log"
html=/usr/share/doc/dcm-doc/html
ok=0
for f in $(cd Documentation && find . -name '*.rst' | sed 's|^\./||; s|\.rst$||'); do
	grep -qx "$html/$f.html" "$log" || { echo "missing: $html/$f.html"; ok=1; }
done >"$tmp/missing"
for f in $(grep -ho "$html/[A-Za-z0-9/_.-]*\.html" Documentation/man/*.[0-9] | sort -u); do
	grep -qx "$f" "$log" || { echo "named by a manual page, missing: $f"; ok=1; }
done >>"$tmp/missing"
grep -q '_sources\|\.rst$\|\.buildinfo$\|doctrees' "$log" && { echo "sources or build state shipped"; ok=1; }
mkdir -p "$tmp/doc"
dpkg-deb -x "$(deb dcm-doc all)" "$tmp/doc" &&
	grep -q 'dcm_ioc_' "$tmp/doc$html/userspace-api/uapi-header.html" ||
	{ echo "uapi-header.html holds no kernel-doc"; ok=1; }
dpkg-deb -f "$(deb dcm-doc all)" Depends | grep -q libjs-sphinxdoc ||
	{ echo "no dependency on libjs-sphinxdoc"; ok=1; }
cp "$tmp/missing" "$log"
check "dcm-doc: every page of Documentation/ and the manual pages' in HTML, the headers' kernel-doc" "$ok"

mkdir -p "$tmp/x"
dpkg-deb -x "$(deb dcm-tools "$arch")" "$tmp/x" && dpkg-deb -x "$(deb libdcm0 "$arch")" "$tmp/x" &&
	dpkg-deb -x "$(deb libdcm-desc0 "$arch")" "$tmp/x"
readelf -d "$tmp/x/usr/sbin/dcmd" "$tmp/x/usr/bin/dcmctl" "$tmp/x/usr/lib/$multiarch/libdcm.so.$version" \
	"$tmp/x/usr/lib/$multiarch/libdcm-desc.so.$version" >"$tmp/elf" 2>"$log"
st=$?
grep -E 'RUNPATH|RPATH' "$tmp/elf" >>"$log"
[ "$st" = 0 ] && [ ! -s "$log" ]
check "no RUNPATH or RPATH in the packaged programs and library" "$?"

# The build flags of dpkg-buildflags reached every binary: fortify, PIE,
# relro, bindnow, the stack protector. Not the control-flow protection:
# Debian 12's dpkg-buildflags does not give it, and its C runtime's start
# files lack the CET property, so no program linked there has it (a
# "return 0" main built with -fcf-protection fails that check too).
hardening-check --nocfprotection "$tmp/x/usr/sbin/dcmd" "$tmp/x/usr/sbin/dcm-lola" \
	"$tmp/x/usr/sbin/dcm-web" "$tmp/x/usr/bin/dcmctl" "$tmp/x/usr/bin/dcm-flight" \
	"$tmp/x/usr/lib/$multiarch/libdcm.so.$version" "$tmp/x/usr/lib/$multiarch/libdcm-desc.so.$version" \
	>"$log" 2>&1
check "hardening-check: every packaged binary hardened (fortify, PIE, relro, bindnow)" "$?"

# dcm-tools' maintainer scripts as an image builder runs them (a root
# without a running systemd or udev): extracted into a root, postinst
# configure with systemctl and systemd-sysusers working on that root
# (wrappers that add --root), the others logging their calls. The group
# dcm and the user dcm-flight are created, dcmd@0 and dcm-flight enabled
# by the preset, dcm-lola and dcm-web not, nothing started or triggered; an
# image's own preset enables dcm-lola; a purge removes the links and the
# flight recorder's files.
root=$tmp/root
mkdir -p "$root/etc" "$tmp/stub"
: >"$root/etc/group"
dpkg-deb -x "$(deb dcm-tools "$arch")" "$root"
dpkg-deb -e "$(deb dcm-tools "$arch")" "$tmp/tools-ctl"
for c in udevadm deb-systemd-invoke deb-systemd-helper; do
	printf '#!/bin/sh\necho "%s $*" >>"%s"\n' "$c" "$tmp/calls" >"$tmp/stub/$c"
done
printf '#!/bin/sh\nexec %s --root="%s" "$@"\n' "$(command -v systemctl)" "$root" >"$tmp/stub/systemctl"
chmod +x "$tmp/stub/"*
: >"$tmp/calls"
maint() {
	env PATH="$tmp/stub:$PATH" DPKG_ROOT="$root" sh "$tmp/tools-ctl/$1" "$2" ${3:+"$3"} >>"$log" 2>&1
}
wants=$root/etc/systemd/system/multi-user.target.wants
: >"$log"
maint postinst configure "" && grep -q '^dcm:x:[0-9]*:$' "$root/etc/group" &&
	grep -q '^dcm-flight:x:[0-9]*:[0-9]*:[^:]*:/var/lib/dcm/flight:' "$root/etc/passwd" &&
	! grep -q '^dcm:x:[0-9]*:.*dcm-flight' "$root/etc/group" &&
	[ -L "$wants/dcmd@0.service" ] && [ -L "$wants/dcm-flight.service" ] &&
	[ ! -e "$wants/dcm-lola.service" ] && [ ! -e "$wants/dcm-web.service" ] &&
	! grep -q 'udevadm\|deb-systemd-invoke' "$tmp/calls"
check "dcm-tools: postinst in an image: group dcm and user dcm-flight (not in dcm) created, dcmd@0 and dcm-flight enabled by the preset, dcm-lola and dcm-web not, nothing started" "$?"
mkdir -p "$root/etc/systemd/system-preset"
echo 'enable dcm-lola.service' >"$root/etc/systemd/system-preset/50-robot.preset"
rm -f "$wants/dcmd@0.service"
maint postinst configure "" && [ -L "$wants/dcm-lola.service" ] && [ -L "$wants/dcmd@0.service" ]
check "dcm-tools: postinst honours the image's presets (dcm-lola enabled by one)" "$?"
mkdir -p "$root/var/lib/dcm/flight" && : >"$root/var/lib/dcm/flight/flight-x-dcm0.jsonl"
maint postinst configure 0.5.0 && maint prerm remove &&
	[ -L "$wants/dcm-lola.service" ] && [ -L "$wants/dcmd@0.service" ] &&
	[ -L "$wants/dcm-flight.service" ] &&
	maint postrm remove && [ -e "$root/var/lib/dcm/flight/flight-x-dcm0.jsonl" ] &&
	maint postrm purge &&
	[ ! -e "$wants/dcm-lola.service" ] && [ ! -e "$wants/dcmd@0.service" ] &&
	[ ! -e "$wants/dcm-flight.service" ] && [ ! -e "$root/var/lib/dcm" ] &&
	purged=$(sed -n 's/^deb-systemd-helper purge //p' "$tmp/calls" | tr ' ' '\n' | LC_ALL=C sort | xargs) &&
	[ "$purged" = "dcm-flight.service dcm-lola.service dcm-lola.socket dcm-web.service" ]
check "dcm-tools: an upgrade and a removal keep what is enabled and the flight files, a purge removes them" "$?"

# No error and no warning of lintian on any package.
lintian --fail-on error,warning "$tmp/dcm_${version}_$arch.changes" >"$log" 2>&1
check "lintian: no error, no warning" "$?"
finish
