#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test-alerts.sh: the Prometheus alert rules installed with dcm-web
# (userspace/web/prometheus/dcm-alerts.yml) against promtool: they load
# (promtool check rules; yamllint has nothing to say), their cases pass (promtool test rules
# dcm-alerts.test.yml), every alert has a case where it fires and one
# where it does not, and the cases bite: an alert made never to fire, or to
# fire on every series (its comparison dropped), fails them. Reports like
# a cmocka binary (scripts/test-lib.sh), which scripts/check.sh counts;
# exits 1 on a failure. Run by `make unit`.

set -u
HERE=$(cd "$(dirname "$0")" && pwd)
RULES=$HERE/../web/prometheus
T=$(mktemp -d /tmp/test-alerts.XXXXXX) || exit 1
trap 'rm -rf "$T"' EXIT
check_log=$T/log

# shellcheck disable=SC2034 # read by test-lib.sh
suite=alerts
# shellcheck source=../../scripts/test-lib.sh
. "$HERE/../../scripts/test-lib.sh"

if ! command -v promtool >/dev/null; then
	echo "promtool missing: run scripts/deps.sh (prometheus)" >"$check_log"
	check "promtool is installed" 1
	finish
fi

if command -v yamllint >/dev/null; then
	# as scripts/check-dts.sh lints the bindings
	yamllint -f parsable -d '{extends: relaxed, rules: {line-length: {max: 100}}}' \
		"$RULES/dcm-alerts.yml" "$RULES/dcm-alerts.test.yml" >"$check_log" 2>&1 &&
		[ ! -s "$check_log" ]
	check "yamllint dcm-alerts.yml dcm-alerts.test.yml" $?
fi
promtool check rules "$RULES/dcm-alerts.yml" >"$check_log" 2>&1
check "promtool check rules dcm-alerts.yml" $?
(cd "$RULES" && promtool test rules dcm-alerts.test.yml) >"$check_log" 2>&1
check "promtool test rules dcm-alerts.test.yml" $?

# The alerts, and for each whether a case expects it firing and one not.
python3 - "$RULES" >"$T/cases" 2>"$check_log" <<'PY'
import sys, yaml
d = sys.argv[1]
rules = yaml.safe_load(open(d + '/dcm-alerts.yml'))
tests = yaml.safe_load(open(d + '/dcm-alerts.test.yml'))
cases = [c for t in tests['tests'] for c in t.get('alert_rule_test', [])]
for g in rules['groups']:
    for r in g['rules']:
        a = r['alert']
        fires = any(c['alertname'] == a and c.get('exp_alerts') for c in cases)
        quiet = any(c['alertname'] == a and not c.get('exp_alerts') for c in cases)
        print(a, int(fires), int(quiet))
PY
check "the alerts are read" $?
want="DcmBatteryLow DcmBoardUnavailable DcmDown DcmLolaDown DcmMissedPeriods DcmOverruns DcmTemperatureHigh"
[ "$(cut -d' ' -f1 "$T/cases" | sort | tr '\n' ' ' | sed 's/ $//')" = "$want" ]
check "the rules alert on overruns, missed periods, a board, temperature, battery, dcm_up and dcm-lola" $?

# mutate ALERT HOW: a copy of the rules and cases in $T/m with ALERT's
# expression never true (never) or without its comparison (always).
mutate() {
	rm -rf "$T/m"
	mkdir "$T/m"
	cp "$RULES/dcm-alerts.test.yml" "$T/m/"
	python3 - "$RULES/dcm-alerts.yml" "$T/m/dcm-alerts.yml" "$1" "$2" <<'PY'
import re, sys, yaml
src, dst, alert, how = sys.argv[1:]
rules = yaml.safe_load(open(src))
for g in rules['groups']:
    for r in g['rules']:
        if r['alert'] != alert:
            continue
        if how == 'never':
            r['expr'] = '(%s) and on() vector(0) > 1' % r['expr']
        else:
            e = re.sub(r'\s*(==|!=|>=|<=|>|<)\s*[0-9.]+\s*$', '', r['expr'])
            assert e != r['expr'], r['expr']
            r['expr'] = e
yaml.safe_dump(rules, open(dst, 'w'), sort_keys=False)
PY
}

while read -r alert fires quiet; do
	[ "$fires" = 1 ] && [ "$quiet" = 1 ]
	check "$alert has a case where it fires and one where it does not" $?
	for how in never always; do
		if mutate "$alert" "$how" >"$check_log" 2>&1; then
			(cd "$T/m" && promtool test rules dcm-alerts.test.yml) >"$check_log" 2>&1
			[ $? = 1 ]
		else
			false
		fi
		check "$alert made to fire $how fails the cases" $?
	done
done <"$T/cases"

finish
