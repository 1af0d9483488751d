#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
#
# dcmctl record -f mcap and dcmctl flight -f mcap against the real module
# in the VM, their files read on the host by the reference MCAP reader
# (@mcap/core, from the npm registry with the ROS 2 packages below,
# installed with npm ci into
# build/mcap-test/ from this directory's package-lock.json): the VM has no
# Node.js, so guest.sh records and prints each file in base64, with the
# values sysfs reads and the outcome of each step, and check_mcap.js reads
# each file indexed and streamed, its CRCs, its JSON against its schemas,
# its ROS 2 messages (/joint_states, /imu: CDR) decoded by
# @foxglove/rosmsg2-serialization with the definitions of
# @foxglove/rosmsg-msgs-common and compared with the JSON of the same
# frames, the file cut short at many places, and the values against
# sysfs'. A
# recording killed by SIGKILL (no summary, no footer) is read up to its
# last whole chunk. Hostile: -f MCAP, --dump --format, a full disk, the
# flight directory through a link, corrupted files. The files stay in build/test-output/mcap/.
#
# TAP on stdout, with the kselftest Totals line. Environment: O (build
# directory), DCM_TEST_TIMEOUT_SCALE (stretches every wait, the guest's
# too), DCM_SELFTEST_WRAP (a guest command guest.sh runs under: make
# check-debug's dcm-kmemleak). The VM's output is kept in
# build/test-output/mcap/vm.log.
# Documentation/testing.rst, "MCAP".

import base64
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from npm_ci import npm_ci  # noqa: E402

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..', '..'))
O = os.path.abspath(os.environ.get('O', os.path.join(TOP, 'build')))
HERE = os.path.join(TOP, 'tools', 'testing', 'mcap')
OUT = os.path.join(O, 'test-output', 'mcap')
NPM_DIR = os.path.join(O, 'mcap-test')
try:
    SCALE = max(1.0, float(os.environ.get('DCM_TEST_TIMEOUT_SCALE', '1')))
except ValueError:
    SCALE = 1.0

counts = {'pass': 0, 'fail': 0, 'skip': 0}
n_test = 0


def tap(ok, name, detail=None):
    global n_test
    n_test += 1
    counts['pass' if ok else 'fail'] += 1
    print(('ok' if ok else 'not ok') + ' %d %s' % (n_test, name), flush=True)
    if detail and not ok:
        for line in str(detail).splitlines():
            print('# ' + line, flush=True)
    return ok


def skip(name, why):
    global n_test
    n_test += 1
    counts['skip'] += 1
    print('ok %d %s # SKIP %s' % (n_test, name, why), flush=True)


def totals():
    print('1..%d' % n_test)
    print('# Totals: pass:%d fail:%d xfail:0 xpass:0 skip:%d error:0'
          % (counts['pass'], counts['fail'], counts['skip']), flush=True)
    sys.exit(1 if counts['fail'] else 0)


def npm_install():
    return npm_ci(HERE, NPM_DIR)


def run_guest():
    """guest.sh's output: files {name: bytes}, sysfs [(key, value)], steps {name: (st, text)}."""
    tmp = tempfile.mkdtemp(prefix='dcm-mcap-')
    share = os.path.join(tmp, 'share')
    os.makedirs(share)
    shutil.copy(os.path.join(HERE, 'guest.sh'), share)
    # The guest's waits stretch by the scale too; DCM_SELFTEST_WRAP (make
    # check-debug: dcm-kmemleak) is a command the guest's runs under.
    cmd = 'env DCM_TEST_TIMEOUT_SCALE=%d sh /share/guest.sh' % int(SCALE)
    wrap = os.environ.get('DCM_SELFTEST_WRAP', '').strip()
    if wrap:
        cmd = wrap + ' ' + cmd
    p = subprocess.run([os.path.join(TOP, 'scripts', 'dcm-vm'), 'exec', '--share', share,
                        '--timeout', str(int(900 * SCALE)), '--', cmd],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    shutil.rmtree(tmp, ignore_errors=True)
    # The VM's output (its errors last), as test_web.py keeps it.
    with open(os.path.join(OUT, 'vm.log'), 'wb') as f:
        f.write(p.stdout + p.stderr)
    files, sysfs, steps, cur, done = {}, [], {}, None, False
    for line in p.stdout.decode(errors='replace').splitlines():
        if cur is not None:
            if line == '=== END':
                files[cur[0]] = base64.b64decode(''.join(cur[1]))
                cur = None
            else:
                cur[1].append(line.strip())
            continue
        m = re.match(r'=== (FILE|SYSFS|STEP) (\S+) ?(\S*) ?(.*)$', line)
        if line == '=== DONE':
            done = True
        elif m and m.group(1) == 'FILE':
            cur = (m.group(2), [])
        elif m and m.group(1) == 'SYSFS':
            sysfs.append((m.group(2), float(m.group(3))))
        elif m:
            steps[m.group(2)] = (m.group(3), m.group(4))
    return p.returncode, p.stderr.decode(errors='replace'), files, sysfs, steps, done


def check(name, data, expect):
    """check_mcap.js on DATA (saved as OUT/NAME): (ok, summary or None, errors)."""
    path = os.path.join(OUT, name)
    with open(path, 'wb') as f:
        f.write(data)
    exp = path + '.expect.json'
    with open(exp, 'w') as f:
        json.dump(expect, f)
    env = dict(os.environ, NODE_PATH=os.path.join(NPM_DIR, 'node_modules'))
    p = subprocess.run([shutil.which('node'), os.path.join(HERE, 'check_mcap.js'), path, exp],
                       env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=600 * SCALE)
    try:
        summary = json.loads(p.stdout.decode())
    except ValueError:
        summary = None
    return p.returncode == 0, summary, p.stderr.decode()[-3000:]


def rows_of(text):
    m = re.search(r'record: (\d+) rows, cycles (\d+) to (\d+)', text)
    return int(m.group(1)) if m else -1


def step(steps, name, what):
    st, text = steps.get(name, ('missing', ''))
    if st == 'skip':
        skip(what, text)
        return False
    return tap(st == '0', '%s (%s)' % (what, text[:300]))


# The channels every recording of every key has, in the default description.
GROUPS = ['/joints/position', '/joints/command', '/joints/stiffness', '/joints/current',
          '/temperatures', '/battery', '/feet', '/inertial', '/boards', '/keys']
# And the ROS 2 and 3D messages: CDR, but /tf (JSON); the URDF once.
ROS = ['/joint_states', '/imu', '/foot_pressure', '/tf', '/robot_description']


def check_recordings(files, sysfs, steps):
    step(steps, 'all', 'record -f mcap, every key, 300 cycles')
    rows = rows_of(steps.get('all', ('', ''))[1])
    values = dict(sysfs[:3])
    tap(sysfs[:3] == sysfs[3:6] and len(sysfs) == 6,
        'the recorded keys hold still: sysfs reads the same before and after', sysfs)
    cmd = {'HeadYaw': values.get('HeadYaw/Position/Actuator'),
           'HeadPitch': values.get('HeadPitch/Position/Actuator')}
    led = {'ChestBoard_Led_Red_Actuator': values.get('ChestBoard/Led/Red/Actuator')}
    ok, s, err = check('all.mcap', files.get('all.mcap', b''), {
        'topics': GROUPS + ROS, 'messages_each': rows, 'ros': ROS,
        'values': {'/joints/command': cmd, '/keys': led}})
    tap(ok, '@mcap/core reads every key\'s recording indexed and streamed, CRCs, schemas, cut '
        'short at %d places; each of its %d channels has the summary\'s %d rows; the joints\' '
        'command and the LED are sysfs\' values; /joint_states, /imu and /foot_pressure decode '
        'as their ROS 2 types with the JSON\'s values, /tf turns the head with HeadYaw, '
        '/robot_description is the URDF (%s)' % (
            len(s['cuts']) if s else 0, len(s['channels']) if s else 0, rows,
            s and s.get('ros')), err)
    step(steps, 'sel', 'record -f mcap of three keys, --every 2')
    ok, s, err = check('sel.mcap', files.get('sel.mcap', b''), {
        'topics': ['/joints/command', '/keys'], 'messages_each': rows_of(steps['sel'][1]),
        'values': {'/joints/command': cmd, '/keys': led}})
    tap(ok and s and len(s['channels']) == 2,
        'three keys: /joints/command and /keys only, their values sysfs\'', err or s)
    step(steps, 'every', 'the summary counts as the rows do: --every 50, its last row\'s cycle')
    step(steps, 'everymcap', 'record -f mcap --every 50')
    ok, s, err = check('every.mcap', files.get('every.mcap', b''), {
        'topics': ['/joints/position'], 'messages_each': rows_of(steps['everymcap'][1])})
    tap(ok, '--every 50 as MCAP: as many messages as the summary\'s rows', err)
    step(steps, 'rot', 'record -f mcap --max-size 100k --max-files 3')
    rot = sorted(n for n in files if n.startswith('rot.mcap'))
    res = [check(n, files[n], {'topics': GROUPS}) for n in rot]
    tap(len(rot) == 3 and all(r[0] for r in res),
        'each rotated file is a whole MCAP file (%s)' % ' '.join(rot),
        '\n'.join(r[2] for r in res))


def check_cut_and_flight(files, steps):
    step(steps, 'killed', 'a recording killed by SIGKILL')
    ok, s, err = check('killed.mcap', files.get('killed.mcap', b''),
                       {'partial': True, 'min_messages_total': 10})
    tap(ok, 'killed: read up to its last whole chunk (%s messages in %s chunks), and cut '
        'shorter still' % (s and s.get('streamed'), s and s.get('chunks')), err)
    step(steps, 'badformat', '-f MCAP is refused (usage)')
    step(steps, 'dumpformat', 'dcm-flight --dump --format: refused')
    step(steps, 'full', 'record -f mcap into a full disk: said once, exit 1')
    step(steps, 'flightlink', 'dcm-flight -f mcap: a directory through a symbolic link refused')
    step(steps, 'flightdump', 'dcmctl flight -f mcap: flight-dump writes a .mcap, '
         'flight-latest.mcap points at it')
    ok, s, err = check('demand.mcap', files.get('demand.mcap', b''), {
        'topics': ['/joints/position', '/feet', '/inertial', '/keys'] + ROS, 'ros': ROS,
        'metadata': ['flight_reason', 'flight', 'end']})
    tap(ok, 'the flight file is read by @mcap/core: dcm-web\'s channels, its metadata, '
        'the ROS 2 and 3D messages', err)
    if step(steps, 'flightfault', 'a cycle fault writes a flight file of its own'):
        ok, s, err = check('fault.mcap', files.get('fault.mcap', b''), {
            'topics': ['/joints/position', '/events'], 'event_rule': 'cycle-fault'})
        tap(ok, 'its events on /events, the cycle fault\'s among them', err)
    step(steps, 'flightend', 'SIGTERM ends the flight recorder cleanly')


def check_negative(files):
    """The checks can fail: a byte flipped in a chunk, the footer's CRC, a message lost."""
    data = files.get('sel.mcap', b'')
    if len(data) < 4000:
        tap(False, 'a file to corrupt')
        return
    bad = bytearray(data)
    bad[3000] ^= 0x55
    ok1, _, _ = check('bad-chunk.mcap', bytes(bad), {})
    bad = bytearray(data)
    bad[-12] ^= 0x01
    ok2, _, _ = check('bad-crc.mcap', bytes(bad), {})
    ok3, _, _ = check('bad-count.mcap', data, {'messages_each': 1})
    tap(not ok1 and not ok2 and not ok3,
        'the reader\'s check fails on a corrupted chunk, a wrong summary CRC, a count not '
        'the summary\'s', (ok1, ok2, ok3))


def main():
    os.makedirs(OUT, exist_ok=True)
    err = npm_install()
    if not tap(err is None, 'npm ci of @mcap/core (tools/testing/mcap/package-lock.json)', err):
        totals()
    rc, stderr, files, sysfs, steps, done = run_guest()
    if not tap(rc == 0 and done, 'the guest ran guest.sh to its end (dcm-vm exit %d)' % rc,
               stderr[-3000:]):
        totals()
    check_recordings(files, sysfs, steps)
    check_cut_and_flight(files, steps)
    check_negative(files)
    totals()


if __name__ == '__main__':
    main()
