# SPDX-License-Identifier: GPL-2.0
#
# In the VM (scripts/bench.sh): run the rows files of /share/rows, those
# named in BENCH_ROWS (words, without .sh) or all, in name order, and say
# what the guest is. Each file's ROW lines go to stdout, its log to stderr.

[ -f /share/env.sh ] && . /share/env.sh
. /share/lib.sh

printf 'INFO\tguest kernel\t%s\n' "$(uname -r) $(uname -v)"
printf 'INFO\tguest CPU\t%s\n' "$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)"
printf 'INFO\tguest CPUs\t%s\n' "$(grep -c '^processor' /proc/cpuinfo)"
printf 'INFO\tguest preemption\t%s\n' "$(uname -v | grep -o 'PREEMPT[_A-Z]*' | head -n 1)"
printf 'INFO\twire time\t%s\n' "$(cat /sys/module/dcm_sim/parameters/wire_time 2>/dev/null)"

rc=0
for f in /share/rows/*.sh; do
	name=$(basename "$f" .sh)
	if [ -n "${BENCH_ROWS:-}" ]; then
		case " $BENCH_ROWS " in *" $name "*) ;; *) continue ;; esac
	fi
	t0=$(date +%s)
	log "rows $name"
	sh "$f" || { log "rows $name failed"; rc=1; }
	printf 'INFO\ttime of %s\t%s s\n' "$name" "$(($(date +%s) - t0))"
done
exit $rc
