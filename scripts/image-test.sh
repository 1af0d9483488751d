#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# image-test.sh [robot] [team]: what `make image-test` runs
# (Documentation/testing.rst, "The robot image"), both variants unless
# named. A Debian 12 image with dcm's packages installed by apt, booted in
# QEMU, checked as its user would. The robot variant:
#
#  1. the base image: Debian 12 by mmdebstrap with systemd, both kernel
#     flavours (generic and PREEMPT_RT) and their headers, DKMS
#     (scripts/image-base.sh; cached outside the tree, keyed by its inputs);
#  2. dcm's packages built with dpkg-buildpackage -b from a copy of the
#     tree (or taken from DCM_IMAGE_DEBS, a directory of .deb files);
#  3. the robot image: the base unpacked, `apt-get install ./*.deb` in a
#     chroot of it (DKMS builds dcm there, on the host's CPU, for every
#     kernel whose headers are installed), a user nao added to the group
#     dcm, the checks (scripts/image/check.sh, run at boot by
#     dcm-image-check.service); then an ext4 disk image (mkfs.ext4 -d);
#  4. boot 1: the image's generic kernel and initrd (-kernel, -initrd,
#     root=/dev/vda) under TCG, its body from the firmware: the ACPI body
#     of scripts/vm/body.asl, RS485-1 on the second UART, dcm-boardsim
#     playing its boards on the host, as `scripts/dcm-vm --rs485-uart`;
#  5. boot 2: the same disk with Debian's PREEMPT_RT kernel, the same
#     checks, then `apt-get purge` of the packages and what it leaves.
#
# The team variant, a team's machine that runs the simulated robot (steps
# 1 and 2 shared): the base unpacked, the packages in a local apt
# repository of the image and `apt-get install dcm-sim-dkms dcm-physics
# dcm-tools` (DKMS builds dcm and dcm_sim), a user nao in dcm, the checks
# of scripts/image/check-team.sh; one boot, the generic kernel, no body
# in the firmware: `dcm-sim start` brings up the simulated NAO, a LoLA
# client stands it and lets it fall, the fall is in the flight recorder.
#
# Runs as root (mmdebstrap's root mode, the chroot, mkfs.ext4 -d keeping
# owners). Prints the checks as TAP, the figures (the base image's build
# cold and from the cache, the robot image's, each boot to dcmd@0 READY),
# and ends with "N passed, N failed". Logs in $O/image/ (the team
# variant's in $O/image/team/).
#
# Environment: DCM_IMAGE_CACHE (the base's cache), DCM_IMAGE_DEBS, DCM_IMAGE_TIMEOUT
# (seconds per boot, default 1800), DCM_IMAGE_MEM (MiB, default 2048),
# DCM_VM_KVM=1 (KVM instead of TCG), KEEP_IMAGE=1 (keep the disk image).
set -u -o pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
O=${O:-$top/build}
case "$O" in /*) ;; *) O=$top/$O ;; esac
work=$O/image
timeout=${DCM_IMAGE_TIMEOUT:-1800}
passed=0
failed=0

say() { echo "image-test.sh: $*"; }
result() {
	if [ "$1" = 0 ]; then
		passed=$((passed + 1))
		echo "ok - $2"
	else
		failed=$((failed + 1))
		echo "not ok - $2"
	fi
}
start=$(date +%s)
finish() {
	say "figure: the whole test took $(($(date +%s) - start)) s"
	echo "$passed passed, $failed failed"
	[ "$failed" = 0 ]
	exit
}
# fatal WHAT [LOG]: a step the others need failed: count it, show the
# log's tail, stop.
fatal() {
	result 1 "$1"
	[ -n "${2:-}" ] && [ -s "$2" ] && tail -30 "$2" | sed 's/^/# /'
	finish
}

variants=("$@")
[ ${#variants[@]} -gt 0 ] || variants=(robot team)
for v in "${variants[@]}"; do
	case "$v" in robot | team) ;; *) say "usage: $0 [robot] [team]"; exit 2 ;; esac
done
[ "$(id -u)" = 0 ] || { say "run as root (mmdebstrap, chroot, mkfs.ext4 -d)"; exit 2; }
for t in mmdebstrap qemu-system-x86_64 mkfs.ext4 dpkg-buildpackage dpkg-scanpackages iasl; do
	command -v "$t" >/dev/null || { say "$t missing: run scripts/deps.sh --image"; exit 2; }
done
boardsim=$O/host/dcm-boardsim
[ -x "$boardsim" ] || { say "$boardsim missing: run make boardsim"; exit 2; }

# A run killed hard may have left the chroot's mounts: never remove
# through them.
if grep -q " $work/" /proc/mounts; then
	say "mounts left under $work by an earlier run (umount them first):"
	grep " $work/" /proc/mounts | cut -d' ' -f2
	exit 2
fi
rm -rf "$work"
mkdir -p "$work"
root=$work/root
mounted=()
boardsim_pid=
# shellcheck disable=SC2317 # run by the trap
cleanup() {
	local i
	for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
		umount -l "${mounted[$i]}" 2>/dev/null
	done
	[ -z "$boardsim_pid" ] || kill "$boardsim_pid" 2>/dev/null
	# Never into the host's /dev, /proc or /sys: only with nothing mounted
	# below the root, and on its file system alone.
	if [ -d "$root" ] && ! grep -q " $root/" /proc/mounts; then
		rm -rf --one-file-system "$root"
	fi
	[ -n "${KEEP_IMAGE:-}" ] || rm -f "$work/disk.img"
}
trap cleanup EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

# -- 1. the base image --------------------------------------------------
t0=$(date +%s)
vars=$(scripts/image-base.sh 2>"$work/base.err")
st=$?
cat "$work/base.err"
[ "$st" = 0 ] || fatal "the Debian 12 base image (mmdebstrap)"
eval "$vars"
base_took=$(($(date +%s) - t0))
result 0 "the Debian 12 base image: $IMAGE_BASE"
if [ "$IMAGE_BASE_CACHED" = 1 ]; then
	say "figure: base image from the cache: $base_took s (its cold build took $IMAGE_BASE_SECONDS s)"
else
	say "figure: base image cold build: $IMAGE_BASE_SECONDS s (next runs take it from the cache)"
fi

# -- 2. the packages ------------------------------------------------------
version=$(sed -n 's/^#define LIBDCM_VERSION[[:space:]]*"\(.*\)"/\1/p' userspace/lib/libdcm.h)
debs=${DCM_IMAGE_DEBS:-}
if [ -z "$debs" ]; then
	t0=$(date +%s)
	debs=$work/debs
	src=$debs/dcm-$version
	mkdir -p "$src"
	tar -C "$top" --exclude=./build --exclude=./.git --exclude-vcs-ignores -cf - . |
		tar -C "$src" -xf -
	(cd "$src" && nice -n 10 dpkg-buildpackage -b -uc -us) >"$work/deb.log" 2>&1
	st=$?
	rm -rf "$src"
	[ "$st" = 0 ] || fatal "dcm's packages build (dpkg-buildpackage -b)" "$work/deb.log"
	say "packages built in $(($(date +%s) - t0)) s"
fi
# deb PACKAGE: the package's .deb in $debs (fatal if it is not there).
deb() {
	local f
	f=$(find "$debs" -maxdepth 1 -name "${1}_${version}_*.deb" | head -1)
	[ -n "$f" ] || fatal "${1}_${version} in $debs"
	echo "$f"
}

# -- 3. the image -----------------------------------------------------------
# image VARIANT: the image of VARIANT in $work/disk.img, its kernels and
# initrds in $work ($generic, $rt).
image() {
	local variant=$1 st resolv_was k v size i
	t0=$(date +%s)
	mkdir -p "$root"
	tar -C "$root" --numeric-owner -xpf "$IMAGE_BASE" || fatal "unpacking $IMAGE_BASE"
	for m in proc sys dev dev/pts; do
		mount --bind "/$m" "$root/$m" || fatal "mount --bind /$m into the image"
		mounted+=("$root/$m")
	done
	mkdir -p "$root/tmp/debs"
	# The host's resolver for apt in the chroot, taken out again after.
	resolv_was=$(readlink "$root/etc/resolv.conf" 2>/dev/null || true)
	cp --remove-destination /etc/resolv.conf "$root/etc/resolv.conf"
	if [ "$variant" = robot ]; then
		# What an image builder runs: apt installs the files and their
		# dependencies from Debian's archive; dcm-dkms' postinst runs
		# DKMS (in a chroot, for every kernel that has headers),
		# dcm-tools' creates the group dcm and applies the presets.
		pkgs=()
		for p in dcm-dkms libdcm0 libdcm-desc0 dcm-tools python3-dcm; do
			pkgs+=("$(deb "$p")")
		done
		result 0 "robot: dcm $version's packages: ${pkgs[*]##*/}"
		cp "${pkgs[@]}" "$root/tmp/debs/"
		chroot "$root" sh -c 'apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
			--no-install-recommends /tmp/debs/*.deb' >"$work/install.log" 2>&1
		st=$?
	else
		# A team's machine: dcm's packages in an apt repository (a
		# local one here), and the three packages named as a user
		# names them; apt takes dcm-dkms and the libraries with them.
		for p in dcm-dkms dcm-sim-dkms libdcm0 libdcm-desc0 dcm-tools dcm-physics; do
			cp "$(deb "$p")" "$root/tmp/debs/"
		done
		(cd "$root/tmp/debs" && dpkg-scanpackages . /dev/null >Packages 2>/dev/null) ||
			fatal "dpkg-scanpackages: the local repository"
		echo 'deb [trusted=yes] file:/tmp/debs ./' >"$root/etc/apt/sources.list.d/dcm.list"
		chroot "$root" sh -c 'apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
			--no-install-recommends dcm-sim-dkms dcm-physics dcm-tools' >"$work/install.log" 2>&1
		st=$?
		rm -f "$root/etc/apt/sources.list.d/dcm.list"
	fi
	sed -n '/Building for\|Building initial module\|^dcm\.ko\|^dcm_sim\.ko\|Installing \/lib/p' \
		"$work/install.log" | sed 's/^/# /'
	if [ "$variant" = robot ]; then
		result "$st" "robot: apt-get install ./*.deb in the image (log: $work/install.log)"
	else
		result "$st" "team: apt-get install dcm-sim-dkms dcm-physics dcm-tools (log: $work/install.log)"
	fi
	[ "$st" = 0 ] || { tail -30 "$work/install.log" | sed 's/^/# /'; finish; }
	for k in "$root"/lib/modules/*/; do
		k=$(basename "$k")
		ls "$root/lib/modules/$k/updates/dkms/dcm.ko"* >/dev/null 2>&1
		result $? "$variant: DKMS built dcm.ko for $k at install"
		if [ "$variant" = team ]; then
			ls "$root/lib/modules/$k/updates/dkms/dcm_sim.ko"* >/dev/null 2>&1
			result $? "$variant: DKMS built dcm_sim.ko for $k at install"
		fi
	done

	chroot "$root" sh -c 'useradd -m -s /bin/bash -G dcm nao &&
		systemctl mask serial-getty@ttyS0.service getty@tty1.service' >"$work/setup.log" 2>&1 ||
		fatal "adding the user nao to dcm" "$work/setup.log"
	install -D -m 0644 scripts/image/tap.sh "$root/usr/local/lib/dcm-image-test/tap.sh"
	if [ "$variant" = robot ]; then
		install -D -m 0755 scripts/image/check.sh "$root/usr/local/lib/dcm-image-test/check.sh"
	else
		install -D -m 0755 scripts/image/check-team.sh "$root/usr/local/lib/dcm-image-test/check.sh"
	fi
	install -D -m 0644 scripts/image/dcm-image-check.service \
		"$root/etc/systemd/system/dcm-image-check.service"
	chroot "$root" systemctl enable dcm-image-check.service >>"$work/setup.log" 2>&1 ||
		fatal "enabling dcm-image-check.service" "$work/setup.log"
	rm -rf "$root/tmp/debs"
	chroot "$root" apt-get clean
	rm -f "$root/etc/resolv.conf"
	[ -z "$resolv_was" ] || ln -s "$resolv_was" "$root/etc/resolv.conf"

	for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
		umount "${mounted[$i]}" || fatal "umount ${mounted[$i]}"
	done
	mounted=()
	generic=$(find "$root/boot" -name 'vmlinuz-*-amd64' ! -name '*-rt-amd64' | sort -V | tail -1)
	rt=$(find "$root/boot" -name 'vmlinuz-*-rt-amd64' | sort -V | tail -1)
	{ [ -n "$generic" ] && [ -n "$rt" ]; } || fatal "the image's two kernels in /boot"
	for k in "$generic" "$rt"; do
		v=${k##*/vmlinuz-}
		{ cp "$k" "$work/vmlinuz-$v" && cp "$root/boot/initrd.img-$v" "$work/initrd.img-$v"; } ||
			fatal "the kernel and initrd of $v"
	done
	size=$(($(du -sm "$root" | cut -f1) + 1024))
	mkfs.ext4 -q -F -L robot -d "$root" "$work/disk.img" "${size}M" >"$work/mkfs.log" 2>&1 ||
		fatal "mkfs.ext4 -d: the disk image" "$work/mkfs.log"
	rm -rf --one-file-system "$root"
	say "figure: $variant image (unpack, apt install with DKMS for both kernels, disk) in $(($(date +%s) - t0)) s"
}

# -- 4, 5. the boots -----------------------------------------------------
iasl -p "$work/body" scripts/vm/body.asl >"$work/iasl.log" 2>&1 ||
	fatal "iasl scripts/vm/body.asl" "$work/iasl.log"
if [ "${DCM_VM_KVM:-0}" = 1 ]; then
	accel=(-accel kvm -cpu host)
else
	accel=(-accel tcg)
fi

# boot NAME KVER [body]: boot the disk with KVER's kernel and initrd
# (with "body": the ACPI body and dcm-boardsim on its RS485-1); the checks'
# TAP into the counts, the console in $work/console-NAME.log.
boot() {
	local name=$1 v=$2 log=$work/console-$1.log sock=$work/rs485-$1.sock t0 st body=()
	if [ "${3:-}" = body ]; then
		rm -f "$sock"
		"$boardsim" "$sock" 2>"$work/boardsim-$name.log" &
		boardsim_pid=$!
		for _ in $(seq 50); do
			[ -S "$sock" ] && break
			sleep 0.1
		done
		[ -S "$sock" ] || fatal "dcm-boardsim did not start" "$work/boardsim-$name.log"
		body=(-chardev "socket,id=rs485,path=$sock" -serial chardev:rs485
			-acpitable "file=$work/body.aml")
	fi
	t0=$(date +%s)
	timeout --foreground -k 5 "$timeout" qemu-system-x86_64 "${accel[@]}" \
		-m "${DCM_IMAGE_MEM:-2048}" -smp 2 -nographic -nodefaults -no-reboot \
		-monitor none -serial stdio "${body[@]}" \
		-drive "file=$work/disk.img,format=raw,if=virtio" \
		-kernel "$work/vmlinuz-$v" -initrd "$work/initrd.img-$v" \
		-append "root=/dev/vda rw console=ttyS0 quiet loglevel=3 systemd.show_status=0 panic=-1" \
		</dev/null >"$log" 2>"$work/qemu-$name.err"
	st=$?
	if [ -n "$boardsim_pid" ]; then
		kill "$boardsim_pid" 2>/dev/null
		wait "$boardsim_pid" 2>/dev/null
	fi
	boardsim_pid=
	say "figure: boot $name ($v): $(($(date +%s) - t0)) s from QEMU's start to power-off"
	tr -d '\r' <"$log" | sed -n '/@@DCM-IMAGE-BEGIN@@/,/@@DCM-IMAGE-END@@/p' |
		grep -v '@@DCM-IMAGE' >"$work/tap-$name"
	sed "s/^\(\(not \)\?ok\) [0-9]* -/\1 - $name:/" "$work/tap-$name"
	passed=$((passed + $(grep -c '^ok ' "$work/tap-$name")))
	failed=$((failed + $(grep -c '^not ok ' "$work/tap-$name")))
	grep -q '@@DCM-IMAGE-END@@' "$log"
	result $? "boot $name ($v): the checks ran to their end and the image powered off (QEMU status $st)"
	if grep -Eq 'Oops|BUG:|WARNING:|Call Trace|Kernel panic' "$log"; then
		result 1 "boot $name: the kernel logged an Oops, BUG, WARNING or panic (see $log)"
	fi
}

top_work=$work
for variant in "${variants[@]}"; do
	vt0=$(date +%s)
	if [ "$variant" = robot ]; then
		work=$top_work
		image robot
		boot generic "${generic##*/vmlinuz-}" body
		boot rt "${rt##*/vmlinuz-}" body
	else
		work=$top_work/team
		rm -rf "$work"
		mkdir -p "$work"
		image team
		boot team "${generic##*/vmlinuz-}"
	fi
	[ -n "${KEEP_IMAGE:-}" ] || rm -f "$work/disk.img"
	say "figure: the $variant variant took $(($(date +%s) - vt0)) s (image and boots)"
done
work=$top_work
finish
