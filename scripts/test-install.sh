#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test-install.sh: install into a staging root as a packager would, and
# check every installed file; uninstall, and check nothing is left. Then
# the test pieces (install-test) in and out again, and the README's
# robot-image block, run as it is written.
#
#   - make install DESTDIR=... PREFIX=/usr: exactly the expected files, with
#     their modes and link targets; no test data, no dcm_sim.ko, no
#     selftests; no RUNPATH or RPATH in any installed ELF file; the programs
#     run against the installed library; pkg-config gives the installed
#     paths; the units (dcmd@, dcm-web, dcm-flight) pass systemd-analyze
#     verify; the modprobe.d file
#     names the group dcm, never a gid, and gives dcm the gid that group
#     has when dcm loads (none: no option); dcm.ko takes gid;
#   - make uninstall: no file left, no directory of dcm's;
#   - make install-test: dcm_sim.ko, the test data and the selftests;
#     uninstall removes them too;
#   - the README's robot-image block in an image root: the group dcm in its
#     /etc/group, dcmd@0 enabled, dcm.ko in its module index.
#
# Run by `make unit`. Prints a line per check and ends like a cmocka binary
# ("[  PASSED  ] N test(s)." and, if any failed, "[  FAILED  ] N test(s),
# listed below:" and their names), which scripts/check.sh counts. Exit 1 on
# any failure.
set -u -o pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
suite=install
. scripts/test-lib.sh
KVER=${KVER:-$(scripts/kver.sh)}
export KVER
version=$(sed -n 's/^#define LIBDCM_VERSION[[:space:]]*"\(.*\)"/\1/p' userspace/lib/libdcm.h)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
stage=$tmp/stage
log=$tmp/log


# show FILE: a failure's details.
show() {
	sed 's/^/    /' "$1" | head -40
}

# The staged tree as "TYPE MODE PATH [-> TARGET]", sorted.
listing() {
	(cd "$1" && find . -mindepth 1 \( -type f -o -type l \) -printf '%y %m %P %l\n') |
		sed 's/ $//; s/^\(l [0-9]* [^ ]*\) \(.*\)/\1 -> \2/' | LC_ALL=C sort
}

expected() {
	{
		cat <<EOF
f 644 lib/modules/$KVER/extra/dcm.ko
f 644 usr/include/libdcm-desc.h
f 644 usr/include/libdcm.h
f 644 usr/include/dcm/linux/dcm.h
f 644 usr/lib/libdcm.a
f 644 usr/lib/modprobe.d/dcm.conf
f 644 usr/lib/modules-load.d/dcm.conf
f 644 usr/lib/pkgconfig/libdcm-desc.pc
f 644 usr/lib/pkgconfig/libdcm.pc
f 644 usr/lib/systemd/system/dcm-flight.service
f 644 usr/lib/systemd/system/dcm-lola.service
f 644 usr/lib/systemd/system/dcm-lola.socket
f 644 usr/lib/systemd/system/dcm-web.service
f 644 usr/lib/systemd/system/dcmd@.service
f 644 usr/lib/sysusers.d/dcm.conf
f 644 usr/lib/udev/rules.d/60-dcm.rules
f 644 usr/share/bash-completion/completions/dcmctl
f 644 usr/share/dcm/Device.xml
f 644 usr/share/dcm/body.xml
f 644 usr/share/dcm/device.rng
f 644 usr/share/dcm/head.xml
f 644 usr/share/dcm/preferences.rng
f 644 usr/share/dcm/prometheus/dcm-alerts.yml
f 644 usr/share/dcm/web/dcm-web.css
f 644 usr/share/dcm/web/dcm-web.js
f 644 usr/share/dcm/web/index.html
f 644 usr/share/dcm/web/uPlot.css
f 644 usr/share/dcm/web/uPlot.iife.js
f 644 usr/share/licenses/dcm/GPL-2.0.txt
f 644 usr/share/licenses/dcm/LGPL-2.1.txt
f 644 usr/share/licenses/dcm/README
f 644 usr/share/man/man3/libdcm-desc.3
f 644 usr/share/man/man3/libdcm.3
f 644 usr/share/man/man5/dcm-device.5
f 644 usr/share/man/man5/dcm-preferences.5
f 644 usr/share/man/man8/dcm-flight.8
f 644 usr/share/man/man8/dcm-lola.8
f 644 usr/share/man/man8/dcm-web.8
f 644 usr/share/man/man8/dcmctl.8
f 644 usr/share/man/man8/dcmd.8
f 755 usr/bin/dcm-flight
f 755 usr/bin/dcmctl
f 755 usr/lib/libdcm-desc.so.$version
f 755 usr/lib/libdcm.so.$version
f 755 usr/sbin/dcm-lola
f 755 usr/sbin/dcm-web
f 755 usr/sbin/dcmd
l 777 usr/lib/libdcm-desc.so -> libdcm-desc.so.0
l 777 usr/lib/libdcm-desc.so.0 -> libdcm-desc.so.$version
l 777 usr/lib/libdcm.so -> libdcm.so.0
l 777 usr/lib/libdcm.so.0 -> libdcm.so.$version
EOF
		# the Python module, its files as they are in the tree, and the
		# version the build writes
		for f in userspace/python/dcm/*.py _version.py; do
			echo "f 644 usr/lib/python3/dist-packages/dcm/${f##*/}"
		done
	} | LC_ALL=C sort
}

# The machine's own files that an install without staging would write: the
# staged installs must leave them as they are.
host_files="/lib/modules/$KVER/extra/dcm.ko /lib/modules/$KVER/extra/dcm_sim.ko
	/lib/modules/$KVER/modules.dep /usr/sbin/dcmd /usr/local/sbin/dcmd /usr/bin/dcmctl
	/usr/local/bin/dcmctl /usr/lib/systemd/system/dcmd@.service /usr/lib/modprobe.d/dcm.conf
	/usr/lib/udev/rules.d/60-dcm.rules /usr/share/dcm /usr/local/share/dcm"
host_state() {
	# shellcheck disable=SC2086 # a word list
	ls -ld --time-style=full-iso $host_files 2>&1
}
host_state >"$tmp/host.before"

# ---------------------------------------------------------------------
# 1. make install

make -s --no-print-directory install DESTDIR="$stage" PREFIX=/usr >"$log" 2>&1
st=$?
check "make install DESTDIR=... PREFIX=/usr (exit $st)" "$st"
[ "$st" = 0 ] || show "$log"

listing "$stage" >"$tmp/have"
expected >"$tmp/want"
diff -u "$tmp/want" "$tmp/have" >"$log"
st=$?
check "the installed files are exactly the expected ones, modes and links included" "$st"
[ "$st" = 0 ] || show "$log"

bad=$(cd "$stage" && find . -mindepth 1 -type d ! -perm 755 -printf '%m %P\n')
check "every directory made is 0755${bad:+: $bad}" "$([ -z "$bad" ]; echo $?)"

bad=$(cd "$stage" && find . \( -name 'seed-keys.txt' -o -name variants -o -name 'dcm_sim.ko' \
	-o -name '*selftest*' -o -name '*_test*' -o -name 'demo.sh' \) -printf '%P ')
check "no test data, simulator or selftest on a robot${bad:+: $bad}" \
	"$([ -z "$bad" ]; echo $?)"

: >"$log"
n_elf=0
while read -r f; do
	if head -c 4 "$f" | grep -q 'ELF'; then
		n_elf=$((n_elf + 1))
		readelf -d "$f" | grep -E 'RUNPATH|RPATH' | sed "s|^|${f#"$stage"/}: |" >>"$log"
	fi
done < <(find "$stage" -type f)
check "no RUNPATH or RPATH in the $n_elf ELF files installed (readelf -d)" \
	"$([ "$n_elf" -ge 4 ] && [ ! -s "$log" ]; echo $?)"
[ -s "$log" ] && show "$log"

# The programs find the installed library (and nothing of the build tree).
LD_LIBRARY_PATH=$stage/usr/lib ldd "$stage/usr/sbin/dcmd" >"$log" 2>&1
grep -q "libdcm.so.0 => $stage/usr/lib/libdcm.so.0 " "$log" &&
	grep -q "libdcm-desc.so.0 => $stage/usr/lib/libdcm-desc.so.0 " "$log" &&
	LD_LIBRARY_PATH=$stage/usr/lib "$stage/usr/sbin/dcmd" -h >/dev/null 2>&1 &&
	LD_LIBRARY_PATH=$stage/usr/lib "$stage/usr/bin/dcmctl" --version >/dev/null 2>&1
st=$?
check "dcmd and dcmctl run against the installed libdcm and libdcm-desc" "$st"
[ "$st" = 0 ] || show "$log"

# The Python module loads the installed libdcm.so.0 by its soname, and
# libdcm-desc.so.0 for the preferences.
LD_LIBRARY_PATH=$stage/usr/lib PYTHONPATH=$stage/usr/lib/python3/dist-packages \
	python3 -B -c 'import dcm, dcm.naoqi
print(dcm.lib_version(), dcm.__file__, dcm.prefs.target_number("Chest"))' >"$log" 2>&1
st=$?
grep -q "^$version $stage/usr/lib/python3/dist-packages/dcm/__init__.py 1$" "$log"
st=$((st || $?))
check "the Python module dcm imports from the staged root and loads the installed libdcm and libdcm-desc" "$st"
[ "$st" = 0 ] || show "$log"

pc=$(export PKG_CONFIG_PATH=$stage/usr/lib/pkgconfig
	{ pkg-config --modversion libdcm; pkg-config --cflags --libs libdcm; } 2>&1 | tr '\n' ' ')
check "pkg-config libdcm: $pc" \
	"$(echo "$pc" | grep -q "^$version .*-ldcm" && ! echo "$pc" | grep -q "$top"; echo $?)"
pc=$(export PKG_CONFIG_PATH=$stage/usr/lib/pkgconfig
	{ pkg-config --modversion libdcm-desc; pkg-config --cflags --libs libdcm-desc; } 2>&1 | tr '\n' ' ')
check "pkg-config libdcm-desc: $pc" \
	"$(echo "$pc" | grep -q "^$version .*-ldcm-desc -ldcm" && ! echo "$pc" | grep -q "$top"; echo $?)"

# systemd-analyze verify wants ExecStart's program: a copy of the unit
# names the staged one, nothing else changes; and the manual pages its
# Documentation= names, which man finds among the staged ones (MANPATH).
# Any message fails.
unit=$stage/usr/lib/systemd/system/dcmd@.service
mkdir -p "$tmp/unit"
sed "s|^ExecStart=/usr/sbin/dcmd |ExecStart=$stage/usr/sbin/dcmd |" "$unit" >"$tmp/unit/dcmd@.service"
MANPATH=$stage/usr/share/man SYSTEMD_LOG_LEVEL=notice systemd-analyze verify "$tmp/unit/dcmd@.service" >"$log" 2>&1
st=$?
grep -q '^ExecStart=/usr/sbin/dcmd -f -i %i$' "$unit" &&
	grep -q '^Type=notify$' "$unit" && grep -q '^ExecReload=' "$unit" &&
	[ "$st" = 0 ] && [ ! -s "$log" ]
st=$?
check "dcmd@.service: Type=notify, ExecStart=/usr/sbin/dcmd -f -i %i, ExecReload; systemd-analyze verify is silent" "$st"
[ "$st" = 0 ] || show "$log"

# dcm-web.service the same way; the installed dcm-web looks for its page
# where make install put it.
unit=$stage/usr/lib/systemd/system/dcm-web.service
sed "s|^ExecStart=/usr/sbin/dcm-web |ExecStart=$stage/usr/sbin/dcm-web |" "$unit" >"$tmp/unit/dcm-web.service"
MANPATH=$stage/usr/share/man SYSTEMD_LOG_LEVEL=notice systemd-analyze verify "$tmp/unit/dcm-web.service" >"$log" 2>&1
st=$?
grep -q '^ExecStart=/usr/sbin/dcm-web --port 8080$' "$unit" && grep -q '^DynamicUser=yes$' "$unit" &&
	LD_LIBRARY_PATH=$stage/usr/lib "$stage/usr/sbin/dcm-web" --help | grep -q '^ *-r.*default$' &&
	LD_LIBRARY_PATH=$stage/usr/lib "$stage/usr/sbin/dcm-web" --help | grep -qx ' */usr/share/dcm/web)' &&
	[ "$st" = 0 ] && [ ! -s "$log" ]
st=$?
check "dcm-web.service: ExecStart=/usr/sbin/dcm-web --port 8080, DynamicUser; systemd-analyze verify is silent; the page in /usr/share/dcm/web" "$st"
[ "$st" = 0 ] || show "$log"

# dcm-flight.service the same way: dcm-flight for dcm0 into its state
# directory, as the user dcm-flight that sysusers.d makes (not in dcm).
unit=$stage/usr/lib/systemd/system/dcm-flight.service
sed "s|^ExecStart=/usr/bin/dcm-flight |ExecStart=$stage/usr/bin/dcm-flight |" "$unit" >"$tmp/unit/dcm-flight.service"
MANPATH=$stage/usr/share/man SYSTEMD_LOG_LEVEL=notice systemd-analyze verify "$tmp/unit/dcm-flight.service" >"$log" 2>&1
st=$?
grep -qx 'ExecStart=/usr/bin/dcm-flight --dir /var/lib/dcm/flight' "$unit" &&
	grep -qx 'User=dcm-flight' "$unit" && grep -qx 'StateDirectory=dcm/flight' "$unit" &&
	grep -qx 'After=dcmd@0.service' "$unit" && grep -qx 'Restart=on-failure' "$unit" &&
	! grep -q '^\(Supplementary\)\?Groups\?=dcm$' "$unit" &&
	grep -q '^u dcm-flight - .* /var/lib/dcm/flight' "$stage/usr/lib/sysusers.d/dcm.conf" &&
	LD_LIBRARY_PATH=$stage/usr/lib "$stage/usr/bin/dcm-flight" --help 2>&1 | grep -q -- '--dir' &&
	LD_LIBRARY_PATH=$stage/usr/lib "$stage/usr/bin/dcmctl" flight --help 2>&1 |
	grep -q -- '--dir' && [ "$st" = 0 ] && [ ! -s "$log" ]
st=$?
check "dcm-flight.service: ExecStart=/usr/bin/dcm-flight --dir /var/lib/dcm/flight, its StateDirectory, the user dcm-flight of sysusers.d; systemd-analyze verify is silent" "$st"
[ "$st" = 0 ] || show "$log"

# modprobe runs an install command with sh, $CMDLINE_OPTS replaced by the
# options; here modprobe itself is an echo, and getent a stand-in.
conf=$stage/usr/lib/modprobe.d/dcm.conf
# shellcheck disable=SC2016 # $CMDLINE_OPTS is the file's text, not ours
cmd=$(sed -n 's/^install dcm //p' "$conf" | sed 's|/sbin/modprobe|echo modprobe|; s|\$CMDLINE_OPTS|debug=1|')
mkdir -p "$tmp/bin"
# shellcheck disable=SC2016 # the stand-in's own text
printf '#!/bin/sh\n[ "$1 $2" = "group dcm" ] && [ -n "$GID" ] && echo "dcm:x:$GID:nao"\n' >"$tmp/bin/getent"
chmod +x "$tmp/bin/getent"
with=$(GID=4242 PATH=$tmp/bin:$PATH sh -c "$cmd" 2>&1)
without=$(GID='' PATH=$tmp/bin:$PATH sh -c "$cmd" 2>&1)
parm=$(modinfo -F parm "$stage/lib/modules/$KVER/extra/dcm.ko" 2>/dev/null | grep -c '^gid:')
! grep -Eq 'gid=[0-9]' "$conf" &&
	[ "$with" = "modprobe --ignore-install dcm debug=1 gid=4242" ] &&
	[ "$without" = "modprobe --ignore-install dcm debug=1" ] && [ "$parm" = 1 ]
check "modprobe.d: the gid of group dcm when dcm loads ('$with'), none without it ('$without')" "$?"

rules=$stage/usr/lib/udev/rules.d/60-dcm.rules
grep -q 'GROUP="dcm"' "$rules" && ! grep -Eq 'GROUP="?[0-9]' "$rules" &&
	grep -q '^g dcm - -$' "$stage/usr/lib/sysusers.d/dcm.conf" &&
	grep -qx dcm "$stage/usr/lib/modules-load.d/dcm.conf"
check "the udev rule and sysusers.d name the group dcm; modules-load.d loads dcm" "$?"

# ---------------------------------------------------------------------
# 2. make uninstall

make -s --no-print-directory uninstall DESTDIR="$stage" PREFIX=/usr >"$log" 2>&1
st=$?
left=$(cd "$stage" && find . -mindepth 1 ! -type d -printf '%P ')
dirs=$(cd "$stage" && find . -mindepth 1 -type d -name '*dcm*' -printf '%P ')
check "make uninstall: exit $st, no file left${left:+: $left}, no directory of dcm's${dirs:+: $dirs}" \
	"$([ "$st" = 0 ] && [ -z "$left" ] && [ -z "$dirs" ]; echo $?)"
[ "$st" = 0 ] || show "$log"

# ---------------------------------------------------------------------
# 3. The test pieces, apart

rm -rf "$stage"
make -s --no-print-directory install install-test DESTDIR="$stage" PREFIX=/usr >"$log" 2>&1
st=$?
[ "$st" = 0 ] &&
	[ -f "$stage/lib/modules/$KVER/extra/dcm_sim.ko" ] &&
	[ -f "$stage/usr/share/dcm/seed-keys.txt" ] &&
	[ -n "$(ls "$stage/usr/share/dcm/variants/"*.xml 2>/dev/null)" ] &&
	[ -x "$stage/usr/lib/dcm/selftests/run_all.sh" ]
st=$?
check "make install-test: dcm_sim.ko, seed-keys.txt, variants/, the selftests" "$st"
[ "$st" = 0 ] || show "$log"
make -s --no-print-directory uninstall DESTDIR="$stage" PREFIX=/usr >"$log" 2>&1
st=$?
left=$(cd "$stage" && find . -mindepth 1 ! -type d -printf '%P ')
dirs=$(cd "$stage" && find . -mindepth 1 -type d -name '*dcm*' -printf '%P ')
check "make uninstall after install-test: nothing left${left:+: $left}${dirs:+ $dirs}" \
	"$([ "$st" = 0 ] && [ -z "$left" ] && [ -z "$dirs" ]; echo $?)"

# ---------------------------------------------------------------------
# 4. The README's robot-image block, as it is written, in an image root.

ROOT=$tmp/image
mkdir -p "$ROOT/etc"
printf 'root:x:0:0:root:/root:/bin/sh\n' >"$ROOT/etc/passwd"
printf 'root:x:0:\n' >"$ROOT/etc/group"
awk '/^<!-- robot-image:/ { on = 1; next }
     on && /^```sh$/ { inblock = 1; next }
     inblock && /^```$/ { exit }
     inblock { print }' README.md >"$tmp/readme.sh"
ROOT=$ROOT bash -e "$tmp/readme.sh" >"$log" 2>&1
st=$?
[ "$st" = 0 ] && [ "$(wc -l <"$tmp/readme.sh")" -ge 4 ] &&
	grep -q '^dcm:' "$ROOT/etc/group" &&
	[ -L "$ROOT/etc/systemd/system/multi-user.target.wants/dcmd@0.service" ] &&
	grep -q "^extra/dcm.ko:" "$ROOT/lib/modules/$KVER/modules.dep" &&
	[ -x "$ROOT/usr/sbin/dcmd" ]
st=$?
check "the README's robot-image block works in an image root (group dcm, dcmd@0 enabled, dcm.ko indexed)" "$st"
[ "$st" = 0 ] && show "$tmp/readme.sh" | sed 's/^/  $ /'
[ "$st" = 0 ] || show "$log"

host_state >"$tmp/host.after"
diff "$tmp/host.before" "$tmp/host.after" >"$log"
st=$?
check "nothing installed outside the staging roots" "$st"
[ "$st" = 0 ] || show "$log"

# ---------------------------------------------------------------------

finish
