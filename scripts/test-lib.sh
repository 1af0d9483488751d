# SPDX-License-Identifier: GPL-2.0
#
# test-lib.sh: what the install, DKMS and packaging tests share, sourced
# by them (bash) after they set $suite (their name in the lines). They
# report like a cmocka binary, which scripts/check.sh counts: one line per
# check, then "[  PASSED  ] N test(s)." and, if any failed,
# "[  FAILED  ] N test(s), listed below:" and their names.

# Nothing of the caller's make or install settings reaches our installs:
# a staged install must never write outside its staging root.
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES DESTDIR PREFIX BINDIR SBINDIR LIBDIR \
	INCLUDEDIR PKGCONFIGDIR DATADIR LICENSEDIR SYSTEMDUNITDIR UDEVRULESDIR MODPROBEDIR \
	MODULESLOADDIR SYSUSERSDIR INSTALL_MOD_PATH INSTALL_MOD_DIR DEPMOD O

passed=0
failed=()

# check NAME STATUS: count, and say; on a failure, the tail of $check_log
# if the suite sets one.
check() {
	if [ "$2" = 0 ]; then
		passed=$((passed + 1))
		echo "[       OK ] $suite: $1"
	else
		failed+=("$1")
		echo "[  FAILED  ] $suite: $1"
		if [ -n "${check_log:-}" ] && [ -s "$check_log" ]; then
			sed 's/^/    /' "$check_log" | tail -30
		fi
	fi
}

# finish: the summary; exit 1 on a failure.
finish() {
	echo "[  PASSED  ] $passed test(s)."
	if [ ${#failed[@]} -gt 0 ]; then
		echo "[  FAILED  ] ${#failed[@]} test(s), listed below:"
		for f in "${failed[@]}"; do
			echo "[  FAILED  ] $suite: $f"
		done
		exit 1
	fi
	exit 0
}
