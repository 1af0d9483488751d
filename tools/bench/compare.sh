# SPDX-License-Identifier: GPL-2.0
#
# In the VM (scripts/bench-compare.sh, make bench-compare): the cycle's work
# of two module sets in one boot, this tree's (loaded by /init) and an older
# revision's (/share/old/*.ko), one after the other, round after round: in
# odd rounds the new set then the old one is loaded, in even rounds the old
# one first (so that neither is always the first after a boot or a
# reload), dcmd started as /init
# starts it, BENCH_COMPARE_CYCLES cycles of dcm0 measured from a reset of
# its statistics (stats/percentiles: the work; stats/steps: each step of
# it), dcmd stopped and the set unloaded. Alternating the sets within one
# boot lets a drift of the host's load hit both alike.
#
# Prints ROW lines (tools/bench/lib.sh row()) for each round's figures and
# for their median over the rounds, INFO lines, and TABLE lines: a summary
# per round and of the medians (scripts/bench-compare.sh writes them to
# build/bench/compare.txt). The userspace is this tree's for both sets.
# Busybox sh and awk.

# shellcheck source=/dev/null
[ -f /share/env.sh ] && . /share/env.sh
# shellcheck source=tools/bench/lib.sh
. /share/lib.sh

N=${BENCH_COMPARE_CYCLES:-2000}
ROUNDS=${BENCH_COMPARE_ROUNDS:-4}
OLD=/share/old
# Cycles run after dcmd has loaded the description, before the reset.
SETTLE=200
SCALE=${DCM_TEST_TIMEOUT_SCALE:-1}
H="make bench-compare BENCH_OLD=${BENCH_OLD:-ff4d14a} BENCH_COMPARE_CYCLES=$N BENCH_COMPARE_ROUNDS=$ROUNDS"
[ "${BENCH_WIRE_TIME:-1}" = 1 ] || H="$H BENCH_WIRE_TIME=$BENCH_WIRE_TIME"
RES=/tmp/compare.txt

die() {
	log "compare: $*"
	exit 1
}

case "$N:$ROUNDS" in
*[!0-9:]* | :* | *:) die "BENCH_COMPARE_CYCLES and BENCH_COMPARE_ROUNDS want whole numbers" ;;
esac
[ "$N" -ge 100 ] || die "BENCH_COMPARE_CYCLES=$N: at least 100 cycles"
[ "$ROUNDS" -ge 1 ] || die "BENCH_COMPARE_ROUNDS=$ROUNDS: at least one round"
[ -n "${BENCH_MODS:-}" ] || die "no BENCH_MODS: run by scripts/bench-compare.sh"
for m in $BENCH_MODS; do
	[ -f "$OLD/$m.ko" ] || die "no $OLD/$m.ko"
done

# alive PID: it runs (a zombie does not; it may go between two reads).
alive() {
	[ -n "$1" ] && [ -e "/proc/$1/status" ] &&
		! grep -qs '^State:.*zombie' "/proc/$1/status" &&
		[ -e "/proc/$1/status" ]
}

# wait_for SECONDS TEST...: poll TEST every 0.1 s, SECONDS times the scale.
wait_for() {
	_t=$(($1 * SCALE * 10))
	shift
	while ! "$@" && [ "$_t" -gt 0 ]; do
		sleep 0.1
		_t=$((_t - 1))
	done
	"$@"
}

dcm0_up() {
	[ -e "$DCM" ] && [ -c /dev/dcm0 ]
}

dcmd_stop() {
	_p=$(pidof dcmd)
	[ -n "$_p" ] || return 0
	# shellcheck disable=SC2086
	kill $_p 2>/dev/null
	for _q in $_p; do
		wait_for 5 eval "! alive $_q" || die "dcmd (pid $_q) ignored SIGTERM for 5 s"
	done
}

# unload: every module of the set, dependents first (BENCH_MODS is in load
# order).
unload() {
	_r=
	for _m in $BENCH_MODS; do
		_r="$_m $_r"
	done
	for _m in $_r; do
		grep -q "^$_m " /proc/modules || continue
		rmmod "$_m" || die "rmmod $_m failed"
	done
}

# opts MODULE: its options: dcm_sim's wire time, dcm's from modprobe.d (the
# group of the VM, gid 900) as modprobe gives them to the new set.
opts() {
	case "$1" in
	dcm_sim) echo "wire_time=${BENCH_WIRE_TIME:-1}" ;;
	*) sed -n "s/^options $1 //p" /etc/modprobe.d/*.conf 2>/dev/null ;;
	esac
}

# load new|old: the set's modules, then dcmd as /init starts it.
load() {
	for _m in $BENCH_MODS; do
		if [ "$1" = new ]; then
			# shellcheck disable=SC2046
			modprobe "$_m" $(opts "$_m") || die "modprobe $_m failed"
		else
			for _d in $(eval echo "\${BENCH_DEPS_$_m:-}"); do
				modprobe "$_d" || die "modprobe $_d (old $_m needs it) failed"
			done
			# shellcheck disable=SC2046
			insmod "$OLD/$_m.ko" $(opts "$_m") || die "insmod $OLD/$_m.ko failed"
		fi
	done
	# The right set is loaded: its sources' checksum.
	for _m in $BENCH_MODS; do
		_want=$(eval echo "\${BENCH_SRCVERSION_${1}_$_m:-}")
		_have=$(cat "/sys/module/$_m/srcversion" 2>/dev/null)
		[ -z "$_want" ] || [ "$_want" = "$_have" ] ||
			die "$1 $_m: srcversion $_have, not the $1 set's $_want"
	done
	wait_for 10 dcm0_up || die "$1 set: no $DCM or /dev/dcm0 after $((10 * SCALE)) s"
	dcmd -f -i 0 </dev/null >>/run/dcmd.log 2>&1 &
	DCMD=$!
	wait_for 60 eval "! alive $DCMD || [ -d $DCM/DeviceList ]"
	alive "$DCMD" || die "$1 set: dcmd exited at start (/run/dcmd.log: $(tail -n 5 /run/dcmd.log))"
	[ -d "$DCM/DeviceList" ] || die "$1 set: dcmd loaded no description in $((60 * SCALE)) s"
}

# check SET: this tree's dcmd still runs on the set and every board of the
# description is there (its Available key reads 1).
check() {
	alive "$DCMD" || die "$1 set: dcmd exited during the measurement"
	_bad=
	_n=0
	for _b in "$DCM"/DeviceList/*; do
		_n=$((_n + 1))
		[ "$(cat "$_b/Available" 2>/dev/null)" = 1 ] || _bad="$_bad ${_b##*/}"
	done
	[ -z "$_bad" ] || die "$1 set: boards not available:$_bad"
	printf 'INFO\t%s set with this tree'"'"'s dcmd\tdescription loaded, %s boards available, dcmd running\n' "$1" "$_n"
	printf 'INFO\t%s set: dcm_sim wire_time\t%s\n' "$1" "$(cat /sys/module/dcm_sim/parameters/wire_time 2>/dev/null)"
}

# measure SET ROUND: "SET ROUND FIGURE P50 P99" lines (ns) into $RES, the
# work from measure_work and each step from stats/steps.
measure() {
	wait_cycles "$SETTLE"
	# shellcheck disable=SC2046 # "p50 p99": two words
	set -- "$1" "$2" $(measure_work "$N")
	[ $# = 4 ] || die "$1 set: no work percentiles in $DCM/stats/percentiles"
	echo "$1 $2 work $3 $4" >>"$RES"
	if [ -r "$DCM/stats/steps" ]; then
		awk -v s="$1" -v r="$2" 'NF >= 3 { print s, r, "step:" $1, $2, $3 }' \
			"$DCM/stats/steps" >>"$RES"
	fi
	for _f in work_overruns late_buses busy_buses; do
		[ -r "$DCM/stats/$_f" ] && echo "$1 $2 $_f $(cat "$DCM/stats/$_f") -" >>"$RES"
	done
}

# One boot, A/B/B/A...: the new set first in odd rounds, the old one in even
# rounds, ROUNDS times.
: >"$RES"
printf 'INFO\tguest kernel\t%s\n' "$(uname -r) $(uname -v)"
printf 'INFO\tcycles per measurement\t%s (after %s to settle)\n' "$N" "$SETTLE"
printf 'INFO\trounds\t%s (new then old in odd rounds, old then new in even ones)\n' "$ROUNDS"
r=1
while [ "$r" -le "$ROUNDS" ]; do
	order="new old"
	[ $((r % 2)) = 0 ] && order="old new"
	for set in $order; do
		log "compare: round $r: $set set"
		dcmd_stop
		unload
		load "$set"
		measure "$set" "$r"
		check "$set"
	done
	r=$((r + 1))
done
dcmd_stop
unload

# The rows and tables: each round's figures, then their medians.
awk -v how="$H" -v rounds="$ROUNDS" -v n="$N" '
function us(v) { return v == "-" ? "-" : sprintf("%.1f", v / 1000) }
function rat(a, b) { return (a == "-" || b == "-" || b <= 0) ? "-" : sprintf("%.2f", a / b) }
function row(sec, name, v, unit) { printf "ROW\t%s\t%s\t%s\t%s\t%s\n", sec, name, v, unit, how }
# median of the values v[1..k] (numbers; "-" left out)
function median(v, k,  i, j, t, m, w) {
	m = 0
	delete w
	for (i = 1; i <= k; i++)
		if (v[i] != "-")
			w[++m] = v[i] + 0
	if (!m)
		return "-"
	for (i = 2; i <= m; i++)
		for (j = i; j > 1 && w[j - 1] > w[j]; j--) {
			t = w[j]; w[j] = w[j - 1]; w[j - 1] = t
		}
	return m % 2 ? w[(m + 1) / 2] : (w[m / 2] + w[m / 2 + 1]) / 2
}
function table(title, r,  i, f, o50, o99, n50, n99) {
	printf "TABLE\t\n"
	printf "TABLE\t%s\n", title
	printf "TABLE\t%-16s %9s %9s %9s %9s %9s %9s\n", "figure (us)", "old p50", "old p99",
		"new p50", "new p99", "p50 n/o", "p99 n/o"
	for (i = 1; i <= nf; i++) {
		f = figs[i]
		if (f !~ /^(work$|step:)/)
			continue
		o50 = p50["old", r, f]; o99 = p99["old", r, f]
		n50 = p50["new", r, f]; n99 = p99["new", r, f]
		printf "TABLE\t%-16s %9s %9s %9s %9s %9s %9s\n", f, us(o50), us(o99),
			us(n50), us(n99), rat(n50, o50), rat(n99, o99)
	}
	for (i = 1; i <= nf; i++) {
		f = figs[i]
		if (f ~ /^(work$|step:)/)
			continue
		printf "TABLE\t%-16s old %s, new %s\n", f, p50["old", r, f], p50["new", r, f]
	}
}
function rows(sec, r,  i, f) {
	for (i = 1; i <= nf; i++) {
		f = figs[i]
		if (f !~ /^(work$|step:)/) {
			row(sec, f " old", p50["old", r, f], "")
			row(sec, f " new", p50["new", r, f], "")
			continue
		}
		row(sec, f " p50 old", us(p50["old", r, f]), "us")
		row(sec, f " p99 old", us(p99["old", r, f]), "us")
		row(sec, f " p50 new", us(p50["new", r, f]), "us")
		row(sec, f " p99 new", us(p99["new", r, f]), "us")
		row(sec, f " p50 new/old", rat(p50["new", r, f], p50["old", r, f]), "x")
		row(sec, f " p99 new/old", rat(p99["new", r, f], p99["old", r, f]), "x")
	}
}
{
	if (!(($3) in seen)) { seen[$3] = 1; figs[++nf] = $3 }
	p50[$1, $2, $3] = $4
	p99[$1, $2, $3] = $5
}
END {
	for (i = 1; i <= nf; i++)
		for (s = 0; s < 2; s++) {
			set = s ? "old" : "new"
			for (r = 1; r <= rounds; r++) {
				a[r] = (set SUBSEP r SUBSEP figs[i]) in p50 ? p50[set, r, figs[i]] : "-"
				b[r] = (set SUBSEP r SUBSEP figs[i]) in p99 ? p99[set, r, figs[i]] : "-"
			}
			p50[set, "median", figs[i]] = median(a, rounds)
			p99[set, "median", figs[i]] = figs[i] ~ /^(work$|step:)/ ? median(b, rounds) : "-"
		}
	for (r = 1; r <= rounds; r++) {
		table("round " r ": " n " cycles each, " (r % 2 ? "the new set then the old" :
		      "the old set then the new"), r)
		rows("compare round " r, r)
	}
	table("median over " rounds " rounds (new/old: of the medians)", "median")
	rows("compare median", "median")
}' "$RES"
