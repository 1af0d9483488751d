#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench-compare.sh: make bench-compare, the cycle's work of this tree's
# kernel modules against an older revision's, measured in the same VM run.
#
#   scripts/bench-compare.sh   build BENCH_OLD's modules (default ff4d14a)
#                              into build/bench-old/ for KVER, boot the VM
#                              once (buses at wire time) with both sets,
#                              and measure them in turns (new then old,
#                              then old then new, ...),
#                              BENCH_COMPARE_ROUNDS times
#                              (tools/bench/compare.sh); the summary goes
#                              to stdout and build/bench/compare.txt
#
# The old revision is taken with git archive into build/bench-old/src (the
# working tree and its build are not touched) and its modules built against
# the same kernel headers as this tree's, then kept in build/bench-old/
# until the revision or the kernel changes; every *.ko it builds goes to
# the guest, where they are loaded from /share/old/ in their dependency
# order. The userspace (dcmd and the rest) is this tree's for both sets.
# The default revision is the tree before the kernel work of issue #23 (the
# core as a stack), which is to leave the cycle's work no worse than there.
#
# Environment: BENCH_OLD (a git revision), BENCH_COMPARE_CYCLES (cycles
# per measurement, 2000), BENCH_COMPARE_ROUNDS (4: as many with either set
# first), BENCH_WIRE_TIME (1:
# the simulated buses take their wire time; 0: instant), BENCH_TIMEOUT (s,
# 3000), DCM_TEST_TIMEOUT_SCALE (stretches the guest's waits for a
# controller and a description, not the measurement), KVER.
set -eu -o pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
O=${O:-$top/build}
case "$O" in /*) ;; *) O=$PWD/$O ;; esac
out=${BENCH_DIR:-$O/bench}
old=$O/bench-old
rev=${BENCH_OLD:-ff4d14a}
cycles=${BENCH_COMPARE_CYCLES:-2000}
rounds=${BENCH_COMPARE_ROUNDS:-4}

die() {
	echo "bench-compare.sh: $*" >&2
	exit 1
}

case "$cycles" in '' | *[!0-9]*) die "BENCH_COMPARE_CYCLES='$cycles': a number of cycles" ;; esac
case "$rounds" in '' | *[!0-9]*) die "BENCH_COMPARE_ROUNDS='$rounds': a number of rounds" ;; esac
[ "$cycles" -ge 100 ] || die "BENCH_COMPARE_CYCLES=$cycles: at least 100"
[ "$rounds" -ge 1 ] || die "BENCH_COMPARE_ROUNDS=$rounds: at least 1"
KVER=${KVER:-$("$top/scripts/kver.sh")} || die "no kernel (scripts/deps.sh)"
KDIR=${KDIR:-/lib/modules/$KVER/build}
[ -e "$KDIR/Makefile" ] || die "no kernel headers in $KDIR"
export KVER

sha=$(git -C "$top" rev-parse --verify --quiet "$rev^{commit}") ||
	die "BENCH_OLD=$rev: not a revision of this repository"
shopt -s nullglob
new_kos=("$top"/*.ko)
[ ${#new_kos[@]} -gt 0 ] || die "no *.ko in $top: make modules first"

# The old revision's modules, built once per revision and kernel.
stamp="$sha $KVER"
if [ "$(cat "$old/stamp" 2>/dev/null)" != "$stamp" ] || [ -z "$(echo "$old"/*.ko)" ]; then
	echo "bench-compare.sh: building the modules of $rev ($sha) for $KVER in $old" >&2
	rm -rf "$old"
	mkdir -p "$old/src"
	git -C "$top" archive "$sha" | tar -x -C "$old/src"
	make -C "$KDIR" M="$old/src" modules >"$old/build.log" 2>&1 ||
		{ tail -n 20 "$old/build.log" >&2; die "building $rev's modules failed: $old/build.log"; }
	old_kos=("$old"/src/*.ko)
	[ ${#old_kos[@]} -gt 0 ] || die "$rev built no *.ko (see $old/build.log)"
	cp "${old_kos[@]}" "$old/"
	# The modules are kept; the source is the revision's, its objects are
	# not needed again.
	rm -rf "$old/src"
	echo "$stamp" >"$old/stamp"
fi
old_kos=("$old"/*.ko)
# Both sets for the kernel that boots.
for k in "${new_kos[@]}" "${old_kos[@]}"; do
	v=$(modinfo -F vermagic "$k")
	[ "${v%% *}" = "$KVER" ] || die "$k is built for ${v%% *}, not $KVER (make KVER=$KVER modules)"
done

# modname KO: the module's name (dashes as underscores).
modname() {
	basename "$1" .ko | tr - _
}
names() {
	local k
	for k in "$@"; do
		modname "$k"
	done | sort
}
[ "$(names "${new_kos[@]}")" = "$(names "${old_kos[@]}")" ] ||
	die "the two trees build different modules: new $(names "${new_kos[@]}" | xargs), old $(names "${old_kos[@]}" | xargs)"

# The modules in load order (each after those of the set it depends on),
# and what each old one needs from the kernel.
order=()
left=$(names "${old_kos[@]}" | xargs)
while [ -n "$left" ]; do
	next=
	for m in $left; do
		ok=1
		for d in $(modinfo -F depends "$old/$m.ko" | tr , ' '); do
			d=$(echo "$d" | tr - _)
			case " $left " in *" $d "*) ok=0 ;; esac
		done
		if [ $ok = 1 ]; then
			order+=("$m")
		else
			next="$next $m"
		fi
	done
	next=$(echo "$next" | xargs)
	[ "$next" != "$left" ] || die "the old modules depend on each other in a circle: $left"
	left=$next
done

share=$out/share-compare
rm -rf "$share"
mkdir -p "$share/old"
cp "$top/tools/bench/lib.sh" "$top/tools/bench/compare.sh" "$share/"
cp "${old_kos[@]}" "$share/old/"
{
	echo "export BENCH_OLD=$(printf %q "$rev") BENCH_MODS='${order[*]}'"
	for m in "${order[@]}"; do
		deps=
		for d in $(modinfo -F depends "$old/$m.ko" | tr , ' '); do
			case " ${order[*]} " in *" $(echo "$d" | tr - _) "*) ;; *) deps="$deps $d" ;; esac
		done
		echo "export BENCH_DEPS_$m='${deps# }'"
		echo "export BENCH_SRCVERSION_old_$m='$(modinfo -F srcversion "$old/$m.ko")'"
		echo "export BENCH_SRCVERSION_new_$m='$(modinfo -F srcversion "$top/$m.ko")'"
	done
	for v in $(compgen -e | grep -E '^(BENCH_|DCM_TEST_TIMEOUT_SCALE$)' | grep -v '^BENCH_OLD$' || true); do
		printf 'export %s=%q\n' "$v" "${!v}"
	done
} >"$share/env.sh"

mkdir -p "$out"
log=$out/log-compare.txt
load0=$(cut -d' ' -f1-3 /proc/loadavg)
echo "bench-compare.sh: booting $KVER: $rounds rounds of $cycles cycles, the sets in turns (the log: $log)" >&2
rc=0
DCM_VM_APPEND="dcm_sim.wire_time=${BENCH_WIRE_TIME:-1} ${DCM_VM_APPEND:-}" \
	"$top/scripts/dcm-vm" exec --timeout "${BENCH_TIMEOUT:-3000}" --share "$share" \
	-- sh /share/compare.sh >"$log" 2>&1 || rc=$?
{
	echo "make bench-compare: the cycle's work, this tree's modules (new) against $rev's (old)"
	printf 'HOST\tnew\t%s\n' "$(git -C "$top" describe --always --dirty 2>/dev/null || echo unknown)"
	printf 'HOST\told\t%s (%s)\n' "$rev" "$sha"
	printf 'HOST\tkernel package\t%s\n' "$KVER"
	printf 'HOST\tdate\t%s\n' "$(date -u '+%Y-%m-%d %H:%M UTC')"
	printf 'HOST\tload before\t%s\n' "$load0"
	printf 'HOST\tload after\t%s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
	grep -E '^INFO	' "$log" || true
	sed -n 's/^TABLE	//p' "$log"
	echo
	grep -E '^ROW	' "$log" || true
} >"$out/compare.txt.new"
mv "$out/compare.txt.new" "$out/compare.txt"
grep -vE '^(ROW|INFO)	' "$out/compare.txt"
if [ "$rc" != 0 ]; then
	grep '^bench: compare:' "$log" >&2 || true
	die "the VM run failed ($rc): see $log"
fi
echo "bench-compare.sh: wrote $out/compare.txt" >&2
