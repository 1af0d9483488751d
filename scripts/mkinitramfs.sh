#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mkinitramfs.sh [-f] OUT.cpio.gz: build the root of the test VM as a gzip'd
# newc cpio archive. No root and no fakeroot needed: the tree is staged under
# $O/vm/root and archived with every file owned by root (cpio -R 0:0).
#
# Contents: busybox-static and its applet links, /init (scripts/vm/init),
# /usr/sbin/dcm-sim-reload (scripts/vm/dcm-sim-reload), the
# modules listed in HOST_MODULES plus every top-level *.ko of the tree (with
# their dependencies, depmod'ed), build/bin/* in /usr/bin (dcm-physics among
# them, with ODE's libode and what it needs), build/lib/*.so* in
# /usr/lib, the shared libraries all of these need, build/selftests/dcm/ in
# /opt/dcm/selftests/, userspace/data/ and scripts/vm/demo.sh in
# /usr/share/dcm/, build/web/root/ (dcm-web's page) in /usr/share/dcm/web/,
# ncurses-base's /lib/terminfo, Debian's python3 (standard library, python3-msgpack,
# build/python/), cyclictest and stress-ng, /etc/{passwd,group,shadow}
# with root, nao and dcm, and dcm's modprobe options and udev rule (the
# group dcm, gid 900, commands).
#
# The archive is rebuilt only when an input is newer than OUT (-f: always).
set -eu -o pipefail

# Modules of the Debian kernel the guest loads besides ours; extend here.
# virtio_pci and virtio_net: the network card of tests that reach the guest
# from the host (DCM_VM_QEMU_EXTRA's hostfwd; tools/testing/web/);
# virtio_console: the port dcm.physics to the host's physics body
# (scripts/dcm-vm --physics).
HOST_MODULES="configfs i2c-dev virtio_pci virtio_net virtio_console"

top=$(cd "$(dirname "$0")/.." && pwd)
O=${O:-$top/build}
KVER=${KVER:-$("$top/scripts/kver.sh")}
BUSYBOX=${BUSYBOX:-/bin/busybox}
# Another kernel than the installed ones (make check-debug): the root its
# modules are under (DIR/lib/modules/$KVER) and where dcm's .ko files are.
MODROOT=${DCM_VM_MODROOT:-}
KODIR=${DCM_VM_KODIR:-$top}

die() {
	echo "mkinitramfs.sh: $*" >&2
	exit 1
}

force=0
if [ "${1:-}" = "-f" ]; then
	force=1
	shift
fi
[ $# -eq 1 ] || { echo "usage: $0 [-f] OUT.cpio.gz" >&2; exit 2; }
out=$1
case "$out" in /*) ;; *) out=$PWD/$out ;; esac
case "$O" in /*) ;; *) O=$PWD/$O ;; esac

moddir=$MODROOT/lib/modules/$KVER
[ -d "$moddir/kernel" ] || die "no modules for $KVER in $moddir; run scripts/deps.sh"
[ -x "$BUSYBOX" ] || die "$BUSYBOX missing; run scripts/deps.sh (busybox-static)"
for t in cpio depmod modprobe modinfo ldd gzip; do
	command -v "$t" >/dev/null 2>&1 || PATH=$PATH:/sbin:/usr/sbin
	command -v "$t" >/dev/null 2>&1 || die "$t not found; run scripts/deps.sh"
done

shopt -s nullglob
kos=("$KODIR"/*.ko)
inputs=("$0" "$top/scripts/vm" "$BUSYBOX" "$moddir/modules.dep" "${kos[@]}")
for d in "$O/bin" "$O/lib" "$O/python" "$O/web/root" "$O/selftests/dcm" "$top/userspace/data" "$top/userspace/udev" \
	"$top/userspace/modprobe.d"; do
	[ -e "$d" ] && inputs+=("$d")
done

# Up to date? Directories count too: adding or removing a file touches them.
if [ $force = 0 ] && [ -s "$out" ] &&
	[ -z "$(find "${inputs[@]}" -newer "$out" -print -quit)" ]; then
	exit 0
fi

[ ${#kos[@]} -gt 0 ] ||
	echo "mkinitramfs.sh: warning: no *.ko in $top (run make modules)" >&2

root=$O/vm/root
rm -rf "$root"
mkdir -p "$root"
cd "$root"
mkdir -p bin sbin usr/bin usr/sbin usr/lib usr/share/dcm etc dev proc sys \
	tmp run root home/nao mnt opt/dcm/selftests "lib/modules/$KVER/extra"
chmod 1777 tmp
chmod 700 root

# busybox and its applets, as absolute symlinks to /bin/busybox.
cp "$BUSYBOX" bin/busybox
"$BUSYBOX" --list-full | while read -r applet; do
	case "$applet" in
	*/busybox | "") continue ;;
	esac
	[ -e "$applet" ] || ln -s /bin/busybox "$applet"
done

install -m 0755 "$top/scripts/vm/init" init
install -m 0755 "$top/scripts/vm/dcm-sim-reload" usr/sbin/dcm-sim-reload
install -m 0755 "$top/scripts/vm/dcm-kmemleak" usr/sbin/dcm-kmemleak
[ -f "$top/scripts/vm/demo.sh" ] &&
	install -m 0755 "$top/scripts/vm/demo.sh" usr/share/dcm/demo.sh

# Modules: ours in extra/, the kernel's (and what ours depend on) in kernel/.
want=$HOST_MODULES
ours=
for ko in "${kos[@]}"; do
	cp "$ko" "lib/modules/$KVER/extra/"
	ours="$ours $(basename "$ko" .ko | tr - _)"
	want="$want $(modinfo -F depends "$ko" | tr , ' ')"
done
for m in $want; do
	case " $ours " in
	*" $(echo "$m" | tr - _) "*) continue ;;
	esac
	modprobe ${MODROOT:+-d "$MODROOT"} -S "$KVER" --show-depends "$m" >"$O/vm/deps.txt" 2>&1 ||
		die "module $m: $(cat "$O/vm/deps.txt")"
	while read -r verb path _; do
		[ "$verb" = insmod ] || continue
		rel=${path#*/lib/modules/"$KVER"/}
		mkdir -p "lib/modules/$KVER/$(dirname "$rel")"
		cp "$path" "lib/modules/$KVER/$rel"
	done <"$O/vm/deps.txt"
done
rm -f "$O/vm/deps.txt"
for f in "$moddir"/modules.order "$moddir"/modules.builtin*; do
	cp "$f" "lib/modules/$KVER/"
done
depmod -b "$root" "$KVER"

# Userspace from the build tree.
bins=("$BUSYBOX")
if [ -d "$O/bin" ]; then
	for f in "$O"/bin/*; do
		[ -f "$f" ] || continue
		[ -x "$f" ] || continue
		rm -f "usr/bin/$(basename "$f")"
		cp -L "$f" usr/bin/
		bins+=("$f")
	done
fi
for f in "$O"/lib/*.so*; do
	cp -P "$f" usr/lib/
	bins+=("$f")
done
if [ -d "$O/selftests/dcm" ]; then
	cp -a "$O/selftests/dcm/." opt/dcm/selftests/
	while IFS= read -r -d '' f; do
		bins+=("$f")
	done < <(find "$O/selftests/dcm" -type f -perm -u+x -print0)
fi
[ -d "$top/userspace/data" ] && cp -a "$top/userspace/data/." usr/share/dcm/
# ncurses-base's terminal descriptions: dcmctl top draws with ncurses.
if [ -d /lib/terminfo ]; then
	mkdir -p lib
	cp -a /lib/terminfo lib/
fi
if [ -d "$O/web/root" ]; then
	mkdir -p usr/share/dcm/web
	cp -a "$O/web/root/." usr/share/dcm/web/
fi

# Debian's Python 3 with its standard library (no tests, IDLE, Tk or
# compiled caches) and python3-msgpack, for the Python module and the
# protocol tests; build/python/ (the dcm module) on its path.
py=$(readlink -f /usr/bin/python3 2>/dev/null || true)
if [ -x "$py" ]; then
	pyver=$(basename "$py")
	cp -L "$py" "usr/bin/$pyver"
	ln -sf "$pyver" usr/bin/python3
	bins+=("$py")
	mkdir -p usr/lib/python3/dist-packages
	tar -C /usr/lib -cf - --exclude=__pycache__ --exclude="$pyver/test" \
		--exclude="$pyver/idlelib" --exclude="$pyver/tkinter" \
		--exclude="$pyver/ensurepip" --exclude="$pyver/lib2to3" \
		--exclude="$pyver/config-*" --exclude="$pyver/turtledemo" \
		--exclude="$pyver/site-packages" "$pyver" | tar -xf - -C usr/lib
	while IFS= read -r -d '' f; do
		bins+=("$f")
	done < <(find "/usr/lib/$pyver/lib-dynload" -name '*.so' -print0)
	for m in msgpack; do
		[ -d "/usr/lib/python3/dist-packages/$m" ] || continue
		tar -C /usr/lib/python3/dist-packages -cf - --exclude=__pycache__ "$m" |
			tar -xf - -C usr/lib/python3/dist-packages
	done
	if [ -d "$O/python" ]; then
		cp -a "$O/python/." usr/lib/python3/dist-packages/
	fi
fi

# Measuring tools of the benchmarks: rt-tests' cyclictest, stress-ng.
for t in /usr/bin/cyclictest /usr/bin/stress-ng; do
	[ -x "$t" ] || continue
	cp -L "$t" usr/bin/
	bins+=("$t")
done

# Shared libraries: what ldd resolves, at the same path as on the host; the
# dynamic loader (/lib64/ld-linux-x86-64.so.2) is among them.
is_elf() {
	[ "$(head -c 4 "$1" | od -An -c | tr -d ' ')" = '177ELF' ]
}
for f in "${bins[@]}"; do
	[ -f "$f" ] || continue
	is_elf "$f" || continue
	LD_LIBRARY_PATH=$O/lib ldd "$f" 2>/dev/null |
		awk '$2 == "=>" && $3 ~ /^\// { print $3 }
		     $1 ~ /^\// { print $1 }' || true
done | sort -u | while read -r lib; do
	case "$lib" in
	"$O"/lib/*) continue ;;
	esac
	mkdir -p "./$(dirname "$lib")"
	[ -e "./$lib" ] || cp -L "$lib" "./$lib"
done

# Users: root, the unprivileged nao (uid 1000) and the group dcm (no members).
cat >etc/passwd <<'EOF'
root:x:0:0:root:/root:/bin/sh
nao:x:1000:1000:NAO:/home/nao:/bin/sh
nobody:x:65534:65534:nobody:/nonexistent:/bin/false
EOF
cat >etc/group <<'EOF'
root:x:0:
dcm:x:900:
nao:x:1000:
nogroup:x:65534:
EOF
cat >etc/shadow <<'EOF'
root:*:19000:0:99999:7:::
nao:*:19000:0:99999:7:::
nobody:*:19000:0:99999:7:::
EOF
chmod 600 etc/shadow
printf 'passwd: files\ngroup: files\nshadow: files\n' >etc/nsswitch.conf

# The access policy of a real install: the group dcm commands the robot.
# There is no udev in the guest: the kernel gives /dev/dcmN its group from
# dcm's gid option (the rule is there for reference).
mkdir -p etc/modprobe.d etc/udev/rules.d
sed 's/@DCM_GID@/900/' "$top/userspace/modprobe.d/dcm.conf.in" >etc/modprobe.d/dcm.conf
install -m 0644 "$top/userspace/udev/60-dcm.rules" etc/udev/rules.d/
echo dcm-vm >etc/hostname

mkdir -p "$(dirname "$out")"
tmp=$out.tmp.$$
trap 'rm -f "$tmp"' EXIT
find . -mindepth 1 -print0 | LC_ALL=C sort -z |
	cpio -o -H newc -0 -R 0:0 --reproducible --quiet | gzip -1 >"$tmp"
mv -f "$tmp" "$out"
