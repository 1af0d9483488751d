#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test_web.py's test_no_ipv6, in a guest booted with ipv6.disable=1: the
# kernel refuses AF_INET6 sockets there, as one built without IPv6 does.
# dcm-web, on all addresses, must answer on 127.0.0.1 all the same. Prints
# "=== NAME VALUE" lines that test_web.py reads, then dcm-web's log.
set -u
scale=${DCM_TEST_TIMEOUT_SCALE:-1}
scale=${scale%%.*}
case "$scale" in '' | *[!0-9]* | 0) scale=1 ;; esac

if python3 -c 'import socket; socket.socket(socket.AF_INET6)' 2>/dev/null; then
	echo "=== ipv6 on"
else
	echo "=== ipv6 off"
fi
dcm-web -v -p 8080 2>/tmp/dcm-web.log &
web=$!
# GET /metrics on 127.0.0.1 until it has "dcm_up 1", dcm-web exits or 60 s
# (scaled) pass; Python's client: busybox's wget crashes in a guest
# without IPv6.
python3 - $web $((60 * scale)) <<'PY' 2>/tmp/metrics.err
import sys, time, urllib.request
pid, end = int(sys.argv[1]), time.monotonic() + float(sys.argv[2])
up, err = 0, 'no attempt'
while not up and time.monotonic() < end:
    try:
        with open('/proc/%d/stat' % pid) as f:
            gone = f.read().rsplit(')', 1)[1].split()[0] == 'Z'
    except OSError:
        gone = True
    if gone:
        err = 'dcm-web exited'
        break
    try:
        with urllib.request.urlopen('http://127.0.0.1:8080/metrics', timeout=10) as r:
            up = int('dcm_up 1' in r.read().decode().splitlines())
    except OSError as e:
        err = repr(e)
        time.sleep(0.2)
print('=== answered %d' % up)
if not up:
    print('log: GET /metrics: %s' % err)
PY
kill $web 2>/dev/null
wait $web
echo "=== exit $?"
sed 's/^/log: /' /tmp/dcm-web.log
