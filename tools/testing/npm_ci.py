# SPDX-License-Identifier: GPL-2.0
"""npm_ci.py: the npm packages a host test uses, installed from its lock.

The tests that run the npm registry's readers and clients on the host
(tools/testing/web/test_web.py, tools/testing/mcap/test_mcap.py) keep a
package.json and a package-lock.json next to them; npm_ci() installs them
with `npm ci` into a folder of the build tree, once for each change of the
lock file.
"""

import os
import shutil
import subprocess


def npm_ci(here, dest):
    """The packages of HERE's package-lock.json installed in DEST (its
    node_modules/). Returns None, or what went wrong."""
    stamp = os.path.join(dest, '.installed')
    lock = os.path.join(here, 'package-lock.json')
    if os.path.exists(stamp) and os.path.getmtime(stamp) >= os.path.getmtime(lock):
        return None
    npm = shutil.which('npm')
    if not npm:
        return 'npm missing: run scripts/deps.sh'
    os.makedirs(dest, exist_ok=True)
    for f in ('package.json', 'package-lock.json'):
        shutil.copy(os.path.join(here, f), dest)
    p = subprocess.run([npm, 'ci', '--ignore-scripts', '--no-audit', '--no-fund',
                        '--loglevel=error'], cwd=dest, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT)
    if p.returncode:
        return 'npm ci failed:\n' + p.stdout.decode()
    open(stamp, 'w').close()
    return None
