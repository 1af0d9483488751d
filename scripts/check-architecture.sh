#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check-architecture.sh [KDIR]: Documentation/dcm/architecture.rst against
# the code. Every function the page names (``name()``) must be defined in
# the tree (kernel/, include/, userspace/), or be Linux's: declared in the
# headers of the kernel the modules are built for (KDIR, default the one
# scripts/kver.sh chooses); an op called through a pointer
# (``t->ops->xfer()``) must be a member of an ops struct of the tree; every
# file the page names by its path must exist. And every header of dcm.ko's
# layers (kernel/*/*.h but the pure ones of model/ and wire/, which the host
# tests build alone already) compiles alone against KDIR: it includes what
# it uses. And no userspace program or library has a call circle among
# its built objects (scripts/check-calls.sh). And the layers the page
# draws hold: the kernel's objects by layer call only down, no kernel
# layer has a call circle among its objects, and the #include lines of
# kernel/ and of user space go only down and close no circle (the page's
# "How it is measured"). And no function of user space (userspace/*/*.c
# but the tests) is longer than 60 lines, its body from the '{' to the '}'
# at column 0, unless the comment above it says why ("on purpose"). One
# TAP line per name, per header, per program and per graph, one for the
# functions' lengths, and a kselftest
# "# Totals:" line that make check counts (scripts/check.sh).
# Single quotes hold reStructuredText's backquotes and perl's variables:
# shellcheck disable=SC2016
set -eu -o pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
page=Documentation/dcm/architecture.rst
if [ $# -ge 1 ]; then
	kdir=$1
else
	kdir=/lib/modules/$(scripts/kver.sh 2>/dev/null)/build
fi

# What user space calls on /dev/dcmN: system calls, no function of either.
syscalls=" read poll mmap ioctl open close "

src_dirs=(kernel include userspace)
n=0
pass=0
fail=0

ok() {
	n=$((n + 1))
	pass=$((pass + 1))
	echo "ok $n - $1"
}

not_ok() {
	n=$((n + 1))
	fail=$((fail + 1))
	echo "not ok $n - $1"
}

# defined NAME: a definition in the tree (a function whose parameter list
# is followed by its body, or a function-like macro); prints its file.
defined() {
	find "${src_dirs[@]}" -name '*.[ch]' -print0 |
		xargs -0 perl -0777 -ne '
			BEGIN { $n = shift @ARGV }
			if (/^(?:[\w *]+[ *])?\Q$n\E\([^;{}]*\)\s*\{/m ||
			    /^#define[ \t]+\Q$n\E\(/m) { print "$ARGV\n"; exit }
		' "$1" | head -n 1 || true
}

# linux NAME: exported by the kernel (Module.symvers), or declared or
# defined by its headers (KDIR's, and those of the source tree a Debian
# headers package's Makefile includes).
linux_dirs=()
for d in "$kdir" $(sed -n 's|^include \(/.*\)/Makefile$|\1|p' "$kdir/Makefile" 2>/dev/null); do
	[ -d "$d/include" ] && linux_dirs+=("$d/include")
	[ -d "$d/arch/x86/include" ] && linux_dirs+=("$d/arch/x86/include")
done
linux() {
	if [ -f "$kdir/Module.symvers" ] &&
	   awk -v n="$1" '$2 == n { f = 1 } END { exit !f }' "$kdir/Module.symvers"; then
		return 0
	fi
	[ ${#linux_dirs[@]} -gt 0 ] &&
		grep -rqE "[^A-Za-z0-9_]$1\(|^#define[[:space:]]+$1\(" "${linux_dirs[@]}"
}

echo "TAP version 13"
funcs=$(grep -oE '``[A-Za-z_][A-Za-z0-9_>-]*\(\)``' "$page" | tr -d '`' | sort -u)
files=$(grep -oE '``[A-Za-z0-9_./-]+/[A-Za-z0-9_.-]+\.(c|h|rst|yaml|py)``' "$page" |
	tr -d '`' | sort -u)
headers=$(cd kernel && ls core/*.h faces/*.h body/*.h boards/*.h transport/*.h)

for f in $funcs; do
	name=${f%()}
	case "$name" in
	*'->'*)
		member=${name##*->}
		if grep -rqE --include='*.h' --include='*.c' "\(\*$member\)\(" "${src_dirs[@]}"; then
			ok "$f: an op of the tree"
		else
			not_ok "$f: no ops struct of the tree has a member $member"
		fi
		continue
		;;
	esac
	if [[ "$syscalls" == *" $name "* ]]; then
		ok "$f: a system call"
		continue
	fi
	where=$(defined "$name")
	if [ -n "$where" ]; then
		ok "$f: $where"
	elif [[ "$name" != dcm_* ]] && linux "$name"; then
		ok "$f: Linux's"
	else
		not_ok "$f: named by $page, defined nowhere in the tree (nor Linux's in $kdir)"
	fi
done

for p in $files; do
	if [ -e "$p" ] || [ -e "kernel/$p" ] || [ -e "Documentation/$p" ]; then
		ok "$p: exists"
	else
		not_ok "$p: named by $page, no such file"
	fi
done

# Each header alone: one object per header, built by Kbuild as the
# module's files are (its flags, W=1's warnings as errors).
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
objs=()
for h in $headers; do
	o=$(echo "$h" | tr '/.' '__')
	printf '#include "%s"\n' "$h" >"$tmp/$o.c"
	objs+=("$o.o")
done
printf 'ccflags-y += -I%s/include -I%s/kernel -Werror\n' "$top" "$top" >"$tmp/Kbuild"
make -k -C "$kdir" M="$tmp" W=1 "${objs[@]}" >"$tmp/log" 2>&1 || true
for h in $headers; do
	o=$(echo "$h" | tr '/.' '__')
	if [ -f "$tmp/$o.o" ]; then
		ok "$h: compiles alone"
	else
		not_ok "$h: does not compile alone: $(grep -m1 -E "$o.c|${h##*/}.*(error|warning)" "$tmp/log" || echo see the build)"
	fi
done

# The userspace programs and libraries as stacks: no call circle among a
# program's objects (scripts/check-calls.sh: A calls B when A uses a symbol
# B defines), each program's own files with the shared ones of common/
# (and of rec/, the frame loop and rows dcmctl and dcm-flight both link).
# The objects are the build's ($O, make userspace), of the tracked sources.
obj=${O:-$top/build}/obj/userspace
for prog in dcmctl dcmd lola web physics flight rec ros2 nao lib desc; do
	dir=$obj/$prog
	[ "$prog" = desc ] && dir=$obj/pic/desc
	list=()
	missing=
	for c in $(git ls-files "userspace/$prog/*.c"); do
		o=$dir/$(basename "${c%.c}").o
		# the dry run of libdcm-desc is built with the kernel's model
		[ -f "$o" ] || o=$obj/pic/kmodel/$(basename "${c%.c}").o
		[ -f "$o" ] || missing="$missing $o"
		list+=("$o")
	done
	if [ "$prog" != lib ] && [ "$prog" != desc ]; then
		for c in $(git ls-files 'userspace/common/*.c'); do
			o=$obj/common/$(basename "${c%.c}").o
			[ -f "$o" ] && list+=("$o")
		done
	fi
	if [ "$prog" = dcmctl ] || [ "$prog" = flight ]; then
		for c in $(git ls-files 'userspace/rec/*.c'); do
			list+=("$obj/rec/$(basename "${c%.c}").o")
		done
	fi
	if [ -n "$missing" ]; then
		not_ok "userspace/$prog: not built (make userspace):$missing"
	elif out=$(scripts/check-calls.sh "${list[@]}" 2>&1); then
		ok "userspace/$prog: no call circle among its ${#list[@]} objects"
	else
		not_ok "userspace/$prog: a call circle: $(echo "$out" | tr '\n' ' ')"
	fi
done

# The kernel's layers (scripts/check-calls.sh -l: the stacks the page
# draws, top down). The objects are Kbuild's, built in the tree (make
# modules), each module's as its Kbuild list names them: dcm.ko's grouped
# by layer make a stack, as do dcm_sim.ko's over the pure layers it uses
# (its calls into the core, dcm_transport_register() and
# dcm_transport_unregister(), are the API of include/linux/dcm.h, not a
# layer's); no layer has a call circle among its own files. The sources' #include "..." lines (looked for as Kbuild
# does: the file's folder, kernel/, include/) go down the layers too and
# have no circle, file to file.
kobjs() {
	awk -v m="$1" '
		$1 == m "-y" && $2 == ":=" { on = 1; $1 = $2 = "" }
		on { for (i = 1; i <= NF; i++) if ($i ~ /\.o$/) print $i
		     if ($NF != "\\") on = 0 }' Kbuild
}
kcheck() {
	local what=$1
	shift
	local out
	if out=$(scripts/check-calls.sh "$@" 2>&1); then
		ok "$what"
	else
		not_ok "$what: $(echo "$out" | tr '\n' ' ')"
	fi
}
for m in dcm dcm_sim; do
	list=()
	missing=
	for o in $(kobjs "$m"); do
		[ -f "$o" ] || missing="$missing $o"
		list+=("$o")
	done
	[ "$m" = dcm_sim ] && for o in $(kobjs dcm); do
		case "$o" in kernel/model/* | kernel/wire/*) list+=("$o") ;; esac
	done
	if [ ${#list[@]} = 0 ] || [ -n "$missing" ]; then
		not_ok "$m.ko: not built (make modules):${missing:- no objects in Kbuild}"
		continue
	fi
	kcheck "$m.ko: its ${#list[@]} objects by layer call only down" \
		-l "$page" "${list[@]}"
	for layer in $(kobjs "$m" | sed -n 's|^\(kernel/[^/]*\)/.*|\1|p' | sort -u); do
		own=()
		for o in "${list[@]}"; do
			[[ "$o" == "$layer"/* ]] && own+=("$o")
		done
		kcheck "$layer: no call circle among its ${#own[@]} objects" "${own[@]}"
	done
done
mapfile -t ksrc < <(git ls-files 'kernel/*.[ch]' | grep -vE '^kernel/(host|tests)/')
kcheck "kernel: no include circle among its ${#ksrc[@]} files" \
	-i -I kernel -I include "${ksrc[@]}"
kcheck "kernel: the includes of its ${#ksrc[@]} files go only down the layers" \
	-l "$page" -i -I kernel -I include "${ksrc[@]}"

# User space's layers by their includes, as its Makefile looks for them
# (the file's folder, then -I lib, common, desc, rec, flight, nao, ros2):
# the programs over rec/, ros2/, nao/, desc/, libdcm and common/.
mapfile -t usrc < <(git ls-files 'userspace/'{dcmctl,dcmd,lola,web,physics,flight,rec,ros2,nao,desc,lib,common}'/*.[ch]')
uinc=()
for d in lib common desc rec flight nao ros2; do
	uinc+=(-I "userspace/$d")
done
kcheck "userspace: no include circle among its ${#usrc[@]} files" \
	-i "${uinc[@]}" "${usrc[@]}"
kcheck "userspace: the includes of its ${#usrc[@]} files go only down the layers" \
	-l "$page" -i "${uinc[@]}" "${usrc[@]}"

# Long functions: a body of more than 60 lines needs "on purpose" in the
# 12 lines above its first, the comment that says why.
long=$(for c in $(git ls-files 'userspace/*/*.c' | grep -v '/tests/'); do
	awk -v file="$c" '
		{ line[NR] = $0 }
		/^[A-Za-z_].*\(/ && !/;$/ { sig = NR }
		/^\{/ { start = NR; head = sig }
		/^\}/ && start {
			if (NR - start + 1 > 60) {
				why = 0
				for (i = head - 12; i < head; i++)
					if (i > 0 && line[i] ~ /on purpose/)
						why = 1
				if (!why)
					printf "%s:%d (%d lines) ", file, head, NR - start + 1
			}
			start = 0
		}' "$c"
done)
if [ -z "$long" ]; then
	ok "userspace: no function over 60 lines without the reason in its comment"
else
	not_ok "userspace: functions over 60 lines, no reason said (\"on purpose\"): $long"
fi

echo "1..$n"
echo "# Totals: pass:$pass fail:$fail xfail:0 xpass:0 skip:0 error:0"
[ "$fail" = 0 ]
