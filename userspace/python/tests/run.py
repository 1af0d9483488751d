#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Run the dcm Python module's host tests (test_*.py here) with unittest and
report like a cmocka binary, which scripts/run-unit.sh counts: a line per
test, then "[  PASSED  ] N test(s)." and, if any failed, "[  FAILED  ] N
test(s), listed below:" and their names. Exit 1 on a failure.

make unit runs it with PYTHONPATH at the staged module, DCM_LIBDCM and
DCM_LIBDCM_DESC at the built libdcm.so.0 and libdcm-desc.so.0, and DCM_LAYOUT
at the layout printer (userspace/Makefile).
"""

import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))


class Result(unittest.TextTestResult):
    """Prints "[ RUN      ]"-free cmocka-like lines per test."""

    def addSuccess(self, test):
        super().addSuccess(test)
        print("[       OK ] %s" % test.id(), flush=True)

    def _bad(self, test, kind, err):
        print("[  FAILED  ] %s (%s)" % (test.id(), kind), flush=True)
        print(self._exc_info_to_string(err, test), flush=True)

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self._bad(test, "failure", err)

    def addError(self, test, err):
        super().addError(test, err)
        self._bad(test, "error", err)


def main():
    suite = unittest.defaultTestLoader.discover(HERE, pattern="test_*.py", top_level_dir=HERE)
    with open(os.devnull, "w") as devnull:
        runner = unittest.TextTestRunner(stream=devnull, resultclass=Result, verbosity=0)
        res = runner.run(suite)
    bad = [t.id() for t, _ in res.failures + res.errors]
    print("[  PASSED  ] %d test(s)." % (res.testsRun - len(bad) - len(res.skipped)))
    if bad:
        print("[  FAILED  ] %d test(s), listed below:" % len(bad))
        for b in bad:
            print("[  FAILED  ] %s" % b)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
