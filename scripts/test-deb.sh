#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test-deb.sh: the Debian packaging (debian/) builds in a copy of the
# tree: the source package (dpkg-buildpackage -S), the binaries (-b) with
# no network, and the binaries again in another directory, byte for byte
# the same (reproducible). Each package holds what it should: dcm-dkms the
# module's DKMS source and the maintainer scripts that run dkms;
# dcm-sim-dkms the simulated body's (dcm_sim.ko built, dcm's sources
# beside it) and on this very dcm-dkms; dcm-physics dcm-physics, dcm-sim,
# dcm-physics.service (enabled by no one) and their pages; libdcm0
# the library alone, which needs no libxml2; libdcm-desc0 the
# description's library alone, and dcm-tools depends on its very version;
# both with symbols files; libdcm-dev the headers (<linux/dcm.h> in
# /usr/include/dcm/linux), the static library, the .so links and the
# pkg-config files; dcm-tools dcmd, dcmctl, the description, the units and
# the udev, modprobe.d, modules-load.d and sysusers.d files, and nothing
# of dcm-web (no libwebsockets, no libssl); dcm-web the server, its unit
# and its page with the tree's uPlot; python3-dcm by dh-python; dcm-doc
# the HTML documentation, a page for every page of Documentation/ and
# every page the manual pages name. No test data anywhere, no RUNPATH;
# every binary hardened (hardening-check; -fstack-clash-protection and
# -fcf-protection in every compilation unit), and lintian --pedantic
# finds no tag that is not overridden, on the binaries and on the source.
# About 2 minutes (two builds of about 45 s each, side by side, lintian).
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

# The tree as it is (committed or not), without what builds leave, built
# twice in two directories: first the source package (dpkg-buildpackage
# -S), then the binaries (-b) with no network (a network namespace of its
# own: nothing may be fetched); then the binaries again elsewhere. The
# two builds' .debs must be the same bytes (reproducible: the build path
# differs; diffoscope says how they differ when they do).
build_tree() {
	mkdir -p "$1"
	tar -C "$top" --exclude=./build --exclude=./.git --exclude-vcs-ignores -cf - . |
		tar -C "$1" -xf -
}
offline() {
	if [ "$(id -u)" = 0 ]; then unshare --net "$@"; else unshare -r --net "$@"; fi
}
src=$tmp/dcm-$version
src2=$tmp/again/dcm-$version
build_tree "$src"
build_tree "$src2"
(cd "$src" && dpkg-buildpackage -S -uc -us) >"$log" 2>&1
check "dpkg-buildpackage -S -uc -us (the source package)" "$?"
# The two binary builds run side by side (each is one job: dh's default).
(cd "$src2" && dpkg-buildpackage -b -uc -us) >"$log.again" 2>&1 &
again=$!
(cd "$src" && offline sh -c 'test "$(tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d " ")" = lo &&
	dpkg-buildpackage -b -uc -us') \
	>"$log" 2>&1
check "dpkg-buildpackage -b -uc -us with no network (no interface but lo)" "$?"
wait "$again"
st=$?
cp "$log.again" "$log"
check "dpkg-buildpackage -b -uc -us again, in another directory" "$st"
ok=0
n=0
for d in "$tmp"/*.deb; do
	n=$((n + 1))
	if ! cmp -s "$d" "$tmp/again/${d##*/}"; then
		ok=1
		echo "differs: ${d##*/}"
		if command -v diffoscope >/dev/null 2>&1; then
			diffoscope --text - "$d" "$tmp/again/${d##*/}" | head -60
		fi
	fi
done >"$log" 2>&1
[ "$n" -ge 10 ] || ok=1
check "reproducible: the two builds' $n .debs are byte-identical" "$ok"

deb() {
	echo "$tmp/${1}_${version}_$2.deb"
}

# contents PKG ARCH: the package's files and links, "/path" a line.
contents() {
	dpkg-deb -c "$(deb "$1" "$2")" 2>/dev/null | awk '$1 !~ /^d/ { print $6 }' |
		sed 's|^\./|/|' | LC_ALL=C sort
}

for p in "dcm-dkms all" "libdcm0 $arch" "libdcm-desc0 $arch" "libdcm-dev $arch" "dcm-tools $arch" \
	"dcm-web $arch" "python3-dcm all" \
	"dcm-doc all" "dcm-sim-dkms all" "dcm-physics $arch"; do
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

# dcm-sim-dkms: dcm_sim's DKMS tree, which installs dcm_sim.ko alone (dcm's
# sources beside it, compiled for the symbols' versions only), on this
# very dcm-dkms.
contents dcm-sim-dkms all >"$log"
rm -rf "$tmp/simdkms"
mkdir -p "$tmp/simdkms"
dpkg-deb -x "$(deb dcm-sim-dkms all)" "$tmp/simdkms" &&
	conf=$tmp/simdkms/usr/src/dcm-sim-$version/dkms.conf &&
	grep -qx 'PACKAGE_NAME="dcm-sim"' "$conf" && grep -qx "PACKAGE_VERSION=\"$version\"" "$conf" &&
	[ "$(grep -c '^BUILT_MODULE_NAME' "$conf")" = 1 ] &&
	grep -qx 'BUILT_MODULE_NAME\[0\]="dcm_sim"' "$conf" &&
	grep -qx "/usr/src/dcm-sim-$version/kernel/sim/sim_link.c" "$log" &&
	grep -qx "/usr/src/dcm-sim-$version/kernel/core/dcm_describe.c" "$log" &&
	grep -qx "/usr/src/dcm-sim-$version/include/uapi/linux/dcm_sim.h" "$log" &&
	! grep -q '/kernel/tests/\|/kernel/host/\|\.ko$\|\.o$' "$log" &&
	dpkg-deb -f "$(deb dcm-sim-dkms all)" Depends | grep -q "dcm-dkms (= $version)" &&
	dpkg-deb -e "$(deb dcm-sim-dkms all)" "$tmp/simctl" && grep -q 'dcm-sim' "$tmp/simctl/postinst" &&
	grep -q dkms "$tmp/simctl/prerm"
check "dcm-sim-dkms: dcm_sim's DKMS source (dcm_sim.ko installed alone), nothing built, on dcm-dkms $version; postinst and prerm run dkms" "$?"

contents dcm-physics "$arch" | grep -v '^/usr/share/doc/' >"$log"
printf '%s\n' /usr/bin/dcm-physics /usr/sbin/dcm-sim /lib/systemd/system/dcm-physics.service \
	/lib/systemd/system/dcmd@.service.d/dcm-sim.conf /lib/systemd/system/dcm-flight.service.d/dcm-sim.conf \
	/usr/share/man/man8/dcm-physics.8.gz /usr/share/man/man8/dcm-sim.8.gz |
	LC_ALL=C sort | diff - "$log" >/dev/null &&
	dpkg-deb -f "$(deb dcm-physics "$arch")" Depends | grep -q "dcm-tools (= $version)" &&
	dpkg-deb -f "$(deb dcm-physics "$arch")" Depends | grep -q 'libode' &&
	rm -rf "$tmp/phys" && mkdir -p "$tmp/phys" && dpkg-deb -x "$(deb dcm-physics "$arch")" "$tmp/phys" &&
	grep -qx 'ExecStart=/usr/bin/dcm-physics --device /dev/dcm_sim_body0' \
		"$tmp/phys/lib/systemd/system/dcm-physics.service" &&
	! grep -q '^\[Install\]' "$tmp/phys/lib/systemd/system/dcm-physics.service"
check "dcm-physics: dcm-physics, dcm-sim, dcm-physics.service (on the link, enabled by no one), the drop-ins of dcmd@ and dcm-flight, their manual pages; on dcm-tools $version and ODE" "$?"

contents libdcm0 "$arch" | grep -v '^/usr/share/doc/' >"$log"
printf '/usr/lib/%s/libdcm.so.0\n/usr/lib/%s/libdcm.so.%s\n' "$multiarch" "$multiarch" \
	"$version" | LC_ALL=C sort | diff - "$log" >/dev/null
check "libdcm0: libdcm.so.0 and libdcm.so.$version alone" "$?"

contents libdcm-desc0 "$arch" | grep -v '^/usr/share/doc/' >"$log"
printf '/usr/lib/%s/libdcm-desc.so.0\n/usr/lib/%s/libdcm-desc.so.%s\n' "$multiarch" "$multiarch" \
	"$version" | LC_ALL=C sort | diff - "$log" >/dev/null
check "libdcm-desc0: libdcm-desc.so.0 and libdcm-desc.so.$version alone" "$?"

contents libdcm-dev "$arch" | grep -v '^/usr/share/doc/' >"$log"
printf '%s\n' /usr/include/libdcm.h /usr/include/libdcm-desc.h /usr/include/dcm/linux/dcm.h \
	"/usr/lib/$multiarch/libdcm.a" "/usr/lib/$multiarch/libdcm.so" "/usr/lib/$multiarch/libdcm-desc.so" \
	"/usr/lib/$multiarch/pkgconfig/libdcm.pc" "/usr/lib/$multiarch/pkgconfig/libdcm-desc.pc" \
	/usr/share/man/man3/libdcm.3.gz /usr/share/man/man3/libdcm-desc.3.gz |
	LC_ALL=C sort | diff - "$log" >/dev/null
check "libdcm-dev: the headers, <linux/dcm.h> in /usr/include/dcm/linux (not linux-libc-dev's /usr/include/linux), libdcm.a, the .so links, the .pc files, libdcm(3), libdcm-desc(3)" "$?"
mkdir -p "$tmp/dev"
# shellcheck disable=SC2016 # the .pc file's own variables
dpkg-deb -x "$(deb libdcm-dev "$arch")" "$tmp/dev" &&
	[ ! -e "$tmp/dev/usr/include/linux" ] &&
	grep -qx 'Cflags: -I${includedir} -I${includedir}/dcm' "$tmp/dev/usr/lib/$multiarch/pkgconfig/libdcm.pc" &&
	grep -qx 'Cflags: -I${includedir} -I${includedir}/dcm' "$tmp/dev/usr/lib/$multiarch/pkgconfig/libdcm-desc.pc"
check "libdcm-dev: no /usr/include/linux; libdcm.pc and libdcm-desc.pc give -I/usr/include/dcm, so <linux/dcm.h> is found" "$?"

# The symbols files: dpkg-gensymbols checked them in the build (a symbol
# they do not list, or one gone, fails it); they are in the packages.
ok=0
for l in libdcm0 libdcm-desc0; do
	rm -rf "$tmp/ctl-$l"
	dpkg-deb -e "$(deb "$l" "$arch")" "$tmp/ctl-$l" && [ -s "$tmp/ctl-$l/symbols" ] &&
		grep -q '^ dcm_open@LIBDCM_0\|^ desc_\|^ (symver)' "$tmp/ctl-$l/symbols" || ok=1
done
grep -q 'DPKG_GENSYMBOLS_CHECK_LEVEL = 4' debian/rules || ok=1
check "libdcm0 and libdcm-desc0 have symbols files, checked at level 4 in the build" "$ok"

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
	deps dcm-tools | grep -q libsystemd0 &&
	! deps dcm-tools | grep -q 'libwebsockets\|libssl' &&
	deps dcm-web | grep -q libwebsockets
check "Depends: libdcm0 without libxml2, libdcm-desc0 on libdcm0 $version, dcm-tools on libdcm-desc0 $version and libsystemd0 and not on libwebsockets or libssl, which dcm-web has" "$?"

contents dcm-tools "$arch" >"$log"
ok=0
for f in /usr/bin/dcmctl /usr/bin/dcm-flight /usr/sbin/dcmd /usr/share/dcm/Device.xml /usr/share/dcm/device.rng \
	/lib/systemd/system/dcmd@.service /lib/systemd/system/dcm-lola.service \
	/lib/systemd/system/dcm-lola.socket \
	/usr/lib/systemd/system-preset/80-dcm.preset /usr/lib/udev/rules.d/60-dcm.rules \
	/usr/lib/modprobe.d/dcm.conf /usr/lib/modules-load.d/dcm.conf /usr/lib/sysusers.d/dcm.conf \
	/usr/share/man/man8/dcmctl.8.gz /usr/share/man/man8/dcmd.8.gz \
	/usr/share/man/man8/dcm-lola.8.gz /usr/sbin/dcm-lola \
	/lib/systemd/system/dcm-flight.service /usr/share/man/man8/dcm-flight.8.gz \
	/usr/share/man/man5/dcm-device.5.gz /usr/share/man/man5/dcm-preferences.5.gz \
	/usr/share/bash-completion/completions/dcmctl; do
	grep -qx "$f" "$log" || { echo "missing: $f"; ok=1; }
done >"$tmp/missing"
grep -q 'seed-keys\|variants\|selftest\|dcm_sim\|dcm-web\|/web/' "$log" && { echo "test data or dcm-web"; ok=1; }
cp "$tmp/missing" "$log"
check "dcm-tools: dcmd, dcmctl, dcm-flight, dcm-lola, the description and its pages (section 5), the units (dcm-flight's too), udev, modprobe.d, modules-load.d, sysusers.d; no test data, nothing of dcm-web" "$ok"

contents dcm-web "$arch" | grep -v '^/usr/share/doc/' >"$log"
printf '%s\n' /usr/sbin/dcm-web /lib/systemd/system/dcm-web.service /usr/share/man/man8/dcm-web.8.gz \
	/usr/lib/systemd/system-preset/80-dcm-web.preset /usr/share/lintian/overrides/dcm-web \
	/usr/share/dcm/web/index.html /usr/share/dcm/web/dcm-web.js /usr/share/dcm/web/dcm-web.css \
	/usr/share/dcm/web/uPlot.iife.js /usr/share/dcm/web/uPlot.css \
	/usr/share/dcm/prometheus/dcm-alerts.yml | LC_ALL=C sort | diff - "$log" >/dev/null &&
	mkdir -p "$tmp/web" && dpkg-deb -x "$(deb dcm-web "$arch")" "$tmp/web" &&
	cmp -s "$tmp/web/usr/share/dcm/web/uPlot.iife.js" userspace/web/page/uplot/uPlot.iife.js &&
	grep -q 'Files: userspace/web/page/uplot/' "$tmp/web/usr/share/doc/dcm-web/copyright" &&
	grep -q '^License: Expat' "$tmp/web/usr/share/doc/dcm-web/copyright"
check "dcm-web: dcm-web, its unit, its page with the tree's uPlot (its licence in copyright), its alert rules, its manual page" "$?"

# Without uPlot's files in the tree the build stops (make, which
# debian/rules runs, has nothing to make them from).
nou=$tmp/nouplot
build_tree "$nou"
rm -f "$nou/userspace/web/page/uplot/uPlot.iife.js"
! make -n -C "$nou/userspace" O="$tmp/nouplot-build" all >"$log" 2>&1 &&
	grep -q 'uPlot.iife.js' "$log"
check "without uplot/uPlot.iife.js the build stops, naming it" "$?"

contents python3-dcm all | grep -v '^/usr/share/doc/' >"$log"
for f in userspace/python/dcm/*.py _version.py; do
	echo "/usr/lib/python3/dist-packages/dcm/${f##*/}"
done | LC_ALL=C sort | diff - "$log" >/dev/null
check "python3-dcm: the module dcm in Debian's python3 directory" "$?"
rm -rf "$tmp/py-ctl"
dpkg-deb -e "$(deb python3-dcm all)" "$tmp/py-ctl" && grep -q py3compile "$tmp/py-ctl/postinst" &&
	grep -q py3clean "$tmp/py-ctl/prerm" &&
	dpkg-deb -f "$(deb python3-dcm all)" Depends | grep -q 'python3:any\|python3 (>= 3' >"$log" 2>&1
check "python3-dcm: built with dh-python (byte-compiled at install by py3compile, python3 version in Depends)" "$?"

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

# The build flags reached every binary: fortify, PIE, relro, bindnow, the
# stack protector, the stack clash protection (hardening-check). The
# control-flow protection: every compilation unit of the binaries was
# built with -fcf-protection and -fstack-clash-protection (the compiler's
# command line in the debug symbols, DW_AT_producer), but a program or
# library as linked is marked for IBT and the shadow stack only if every
# object is, and Debian 12's C library start files (Scrt1.o, crti.o,
# crtn.o: its _start and _init have no ENDBR64) are not: hardening-check
# is told --nocfprotection while they are not, and checks it as soon as
# they are.
bins="usr/sbin/dcmd usr/sbin/dcm-lola usr/sbin/dcm-web usr/bin/dcmctl usr/bin/dcm-flight
	usr/bin/dcm-physics
	usr/lib/$multiarch/libdcm.so.$version usr/lib/$multiarch/libdcm-desc.so.$version"
dpkg-deb -x "$(deb dcm-web "$arch")" "$tmp/x"
dpkg-deb -x "$(deb dcm-physics "$arch")" "$tmp/x"
nocf=
if [ "$arch" = amd64 ] &&
	! readelf -n "$(gcc -print-file-name=Scrt1.o)" 2>/dev/null | grep -q 'x86 feature: IBT, SHSTK'; then
	nocf=--nocfprotection
fi
# shellcheck disable=SC2086 # a word list
(cd "$tmp/x" && hardening-check $nocf $bins) >"$log" 2>&1 &&
	! grep -q 'Stack clash protection: no' "$log"
check "hardening-check ${nocf:-(every check)}: every packaged binary hardened (fortify, PIE, relro, bindnow, stack clash)" "$?"
mkdir -p "$tmp/dbg"
for d in "$tmp"/*-dbgsym_"$version"_"$arch".deb; do dpkg-deb -x "$d" "$tmp/dbg"; done
# producers DEBUGFILE: the compiler command lines of its units, and of
# those dwz moved to the package's common file (.gnu_debugaltlink).
producers() {
	local alt
	alt=$(readelf -p .gnu_debugaltlink "$1" 2>/dev/null | grep -o '/usr/lib/debug/\.dwz/[^ ]*')
	for f in "$1" ${alt:+"$tmp/dbg$alt"}; do
		readelf -z -p .debug_str "$f" 2>/dev/null | grep -o 'GNU C[0-9]* .*'
	done | LC_ALL=C sort -u
}
ok=0
n=0
for b in $bins; do
	id=$(readelf -n "$tmp/x/$b" | sed -n 's/.*Build ID: //p')
	producers "$tmp/dbg/usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug" >"$tmp/producers"
	[ -s "$tmp/producers" ] || { echo "$b: no compiler command line in its debug symbols"; ok=1; continue; }
	n=$((n + 1))
	grep -v -- '-fstack-clash-protection' "$tmp/producers" | grep -q . &&
		{ echo "$b: a unit without -fstack-clash-protection"; ok=1; }
	grep -v -- '-fcf-protection' "$tmp/producers" | grep -q . &&
		{ echo "$b: a unit without -fcf-protection"; ok=1; }
	sed "s|^|$b: |" "$tmp/producers"
done >"$log" 2>&1
[ "$n" = 8 ] || ok=1
check "every compilation unit of the $n packaged binaries built with -fstack-clash-protection and -fcf-protection (DW_AT_producer)" "$ok"

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
	[ "$purged" = "dcm-flight.service dcm-lola.service dcm-lola.socket" ]
check "dcm-tools: an upgrade and a removal keep what is enabled and the flight files, a purge removes them" "$?"

# dcm-web's the same way, in the same root: not enabled by its preset; an
# image's preset enables it; a purge removes the link.
dpkg-deb -x "$(deb dcm-web "$arch")" "$root"
dpkg-deb -e "$(deb dcm-web "$arch")" "$tmp/web-ctl"
webmaint() {
	env PATH="$tmp/stub:$PATH" DPKG_ROOT="$root" sh "$tmp/web-ctl/$1" "$2" ${3:+"$3"} >>"$log" 2>&1
}
: >"$log"
: >"$tmp/calls"
rm -f "$root/etc/systemd/system-preset/50-robot.preset"
webmaint postinst configure "" && [ -e "$root/lib/systemd/system/dcm-web.service" ] &&
	[ ! -e "$wants/dcm-web.service" ] && ! grep -q 'deb-systemd-invoke' "$tmp/calls" &&
	echo 'enable dcm-web.service' >"$root/etc/systemd/system-preset/50-robot.preset" &&
	webmaint postinst configure "" && [ -L "$wants/dcm-web.service" ] &&
	webmaint prerm remove && webmaint postrm remove && [ -L "$wants/dcm-web.service" ] &&
	webmaint postrm purge && [ ! -e "$wants/dcm-web.service" ] &&
	grep -q '^deb-systemd-helper purge dcm-web.service' "$tmp/calls"
check "dcm-web: postinst in an image leaves it off by its preset, an image's preset enables it; a purge removes the link" "$?"

# Lintian, --pedantic, on the binaries and on the source package: no tag
# at all, of any level, but those overridden (each with its reason:
# debian/*.lintian-overrides, debian/source/lintian-overrides).
lintian --pedantic --fail-on error,warning,info,pedantic "$tmp/dcm_${version}_$arch.changes" >"$log" 2>&1 &&
	! grep -q '^[EWIP]: ' "$log"
check "lintian --pedantic on the binary packages: no tag" "$?"
lintian --pedantic --fail-on error,warning,info,pedantic "$tmp/dcm_${version}.dsc" >"$log" 2>&1 &&
	! grep -q '^[EWIP]: ' "$log"
check "lintian --pedantic on the source package (.dsc): no tag" "$?"
finish
