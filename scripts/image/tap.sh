# SPDX-License-Identifier: GPL-2.0
#
# tap.sh: the TAP helpers of the image tests' checks (check.sh for the
# robot, check-team.sh for a team's machine), sourced by both from the
# directory scripts/image-test.sh installs them in. The including script
# sets USER_NAME (the user as_user runs as) first.

n=0
kver=$(uname -r)

# check STATUS TEXT: "ok N - TEXT" or "not ok N - TEXT" and the last lines
# of /tmp/check.log, which is emptied for the next check.
check() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		[ -s /tmp/check.log ] && sed 's/^/# /' /tmp/check.log | tail -15
	fi
	: >/tmp/check.log
}
say() { echo "# $*"; }
as_user() { runuser -u "$USER_NAME" -- "$@"; }

# wait_for SECONDS COMMAND...: until COMMAND succeeds or SECONDS pass.
wait_for() {
	local t=$1
	shift
	while ! "$@" >/dev/null 2>&1; do
		t=$((t - 1))
		[ "$t" -gt 0 ] || return 1
		sleep 1
	done
}

# near A B EPS: |A - B| <= EPS.
near() { awk -v a="$1" -v b="$2" -v e="$3" 'BEGIN { d = a - b; exit !(d <= e && -d <= e) }'; }
