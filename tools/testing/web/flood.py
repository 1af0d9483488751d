#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""flood.py PORT N SECONDS: the guest's half of test_web.py's test_flood.

Opens N TCP connections to 127.0.0.1:PORT at once (each connect(2) ends in
the kernel's backlog, whether the server accepts or not), sends nothing on
them, and counts those the server closes (end of file or reset) for up to
SECONDS. Its state is in /tmp/flood.state, rewritten as it changes:
"OPENED CLOSED DONE" (DONE 1 once it has ended), which guest.sh's floodstat
answers. From the host, through QEMU's user networking, the connections
come in one at a time (a few a second): too slowly to outrun the server's
timeouts.
"""

import os
import select
import socket
import sys
import time

STATE = '/tmp/flood.state'


def state(opened, closed, done):
    with open(STATE + '.new', 'w') as f:
        f.write('%d %d %d\n' % (opened, closed, done))
    os.replace(STATE + '.new', STATE)


def main():
    port, n, seconds = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
    end = time.monotonic() + seconds
    socks = []
    state(0, 0, 0)
    for _ in range(n):
        try:
            socks.append(socket.create_connection(('127.0.0.1', port), timeout=10))
        except OSError as e:
            print('flood.py: connect: %s' % e, file=sys.stderr)
            break
    left = set(socks)
    state(len(socks), 0, 0)
    while left and time.monotonic() < end:
        ready, _, _ = select.select(list(left), [], [], 0.5)
        for s in ready:
            try:
                data = s.recv(65536)
            except OSError:
                data = b''
            if not data:
                left.discard(s)
                s.close()
        state(len(socks), len(socks) - len(left), 0)
    state(len(socks), len(socks) - len(left), 1)
    for s in left:
        s.close()


if __name__ == '__main__':
    main()
