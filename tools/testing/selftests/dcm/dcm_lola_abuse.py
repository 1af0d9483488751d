#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""dcm_lola_abuse.py: the local users and clients dcm_lola_hardening_test.sh
plays against dcm-lola (Documentation/dcm/lola.rst, "Who owns the socket",
"Abuse").

  squat PATH COUNTFILE       listen on PATH first, as a user would, and serve
                             an impostor's map to whoever connects; every
                             connection is counted in COUNTFILE
  client PATH                a LoLA client: read one sensor map, print
                             "robotconfig <RobotConfig[0]>", "position
                             <Position[0]>" (HeadYaw), "accz
                             <Accelerometer[2]>", "temperature
                             <Temperature[0]>" (HeadYaw)
  read PATH SECONDS          a reader: read maps for SECONDS; print how many
                             and "eof" if the daemon closed it
  hold PATH SECONDS          four connections that neither read nor send
                             (idle) and four that read their maps but send
                             one byte of a map every 200 ms that never ends
                             (trickling), for SECONDS; once the daemon's
                             status (PATH.status) counts 8 clients, a ninth
                             connection: "ninth refused" if it is closed
                             without a map, else "ninth served"; then
                             "idle closed N", "trickle closed N"
  flood PATH N SECONDS       N connections sending maps with an unknown key as
                             fast as they can, and one connecting and closing
                             in a loop, for SECONDS
  bad PATH N                 one connection sending N maps with an unknown
                             key, then leaving
  activate PATH STATUS CMD.. bind PATH and STATUS, pass them as descriptors 3
                             and 4 ($LISTEN_FDS, $LISTEN_PID) and exec CMD,
                             as the service manager does
"""

import os
import socket
import sys
import time

import msgpack

SIZE = 896


def connect(path, tries=100):
    for _ in range(tries):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            s.connect(path)
            return s
        except OSError:
            s.close()
            time.sleep(0.05)
    raise SystemExit("cannot connect to %s" % path)


def recv_map(s, timeout=5.0):
    s.settimeout(timeout)
    buf = b""
    while len(buf) < SIZE:
        try:
            d = s.recv(SIZE - len(buf))
        except socket.timeout:
            return None
        if not d:
            return None
        buf += d
    return buf


def squat(path, countfile):
    impostor = {
        "RobotConfig": ["IMPOSTOR".ljust(20), "0.0.0", " " * 20, "0.0.0"],
        "Position": [1.25] * 25,
        "Accelerometer": [0.0, 0.0, 1.0],
        "Temperature": [20.0] * 25,
    }
    pkt = msgpack.packb(impostor, use_single_float=True)
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.bind(path)
    os.chmod(path, 0o777)
    s.listen(16)
    n = 0
    with open(countfile, "w") as f:
        f.write("0\n")
    while True:
        c, _ = s.accept()
        n += 1
        with open(countfile, "w") as f:
            f.write("%d\n" % n)
        try:
            c.sendall(pkt.ljust(SIZE, b"\xc0"))
        except OSError:
            pass
        c.close()


def client(path):
    s = connect(path)
    pkt = recv_map(s)
    if pkt is None:
        print("no map")
        return 1
    u = msgpack.Unpacker(raw=False, strict_map_key=False)
    u.feed(pkt)
    m = next(u)
    print("robotconfig %s" % m["RobotConfig"][0].strip())
    print("position %.6f" % m["Position"][0])
    print("accz %.6f" % m["Accelerometer"][2])
    print("temperature %.6f" % m["Temperature"][0])
    return 0


def read(path, seconds):
    s = connect(path)
    n = 0
    end = time.monotonic() + seconds
    eof = False
    while time.monotonic() < end:
        if recv_map(s, 2.0) is None:
            eof = True
            break
        n += 1
    print("maps %d" % n)
    if eof:
        print("eof")
    return 0


def closed(s):
    """Has the daemon closed @s (EOF after draining what it had sent)?"""
    s.setblocking(False)
    try:
        while True:
            d = s.recv(65536)
            if not d:
                return True
    except BlockingIOError:
        return False
    except OSError:
        return True


def status_clients(path):
    s = connect(path + ".status")
    data = b""
    while True:
        d = s.recv(65536)
        if not d:
            break
        data += d
    for line in data.decode().splitlines():
        if line.startswith("clients "):
            return int(line.split()[1])
    return -1


def hold(path, seconds):
    idle = [connect(path) for _ in range(4)]
    trickle = [connect(path) for _ in range(4)]
    end = time.monotonic() + seconds
    while status_clients(path) != 8 and time.monotonic() < end:
        time.sleep(0.05)
    ninth = connect(path)
    got = recv_map(ninth, 2.0)
    print("ninth %s" % ("served" if got is not None else "refused"), flush=True)
    ninth.close()
    # The start of a map of 11 keys whose end never comes.
    head = b"\x8b" + msgpack.packb("Position") + b"\xdc\x00\x19"
    body = head + b"\xca" * 10000
    sent = [0] * 4
    shut = [False] * 4
    while time.monotonic() < end:
        for i, s in enumerate(trickle):
            if shut[i]:
                continue
            if closed(s):
                shut[i] = True
                continue
            try:
                s.send(body[sent[i]:sent[i] + 1])
                sent[i] += 1
            except OSError:
                shut[i] = True
        time.sleep(0.2)
    print("idle closed %d" % sum(1 for s in idle if closed(s)))
    print("trickle closed %d" % sum(1 for i, s in enumerate(trickle) if shut[i] or closed(s)))
    return 0


def flood(path, n, seconds):
    bad = msgpack.packb({"Nose": [1.0]}, use_single_float=True)
    conns = [connect(path) for _ in range(n)]
    for s in conns:
        s.setblocking(False)
    end = time.monotonic() + seconds
    sent = churn = 0
    while time.monotonic() < end:
        for s in conns:
            try:
                s.send(bad * 4)
                sent += 4
                s.recv(65536)
            except OSError:
                pass
        try:
            c = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            c.connect(path)
            c.close()
            churn += 1
        except OSError:
            pass
    for s in conns:
        s.close()
    print("sent %d churn %d" % (sent, churn))
    return 0


def bad(path, n):
    s = connect(path)
    for _ in range(n):
        s.send(msgpack.packb({"Nose": [1.0]}, use_single_float=True))
        recv_map(s, 2.0)
    s.close()
    return 0


def activate(path, status, cmd):
    socks = []
    for p in (path, status):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        if os.path.exists(p):
            os.unlink(p)
        s.bind(p)
        os.chmod(p, 0o660)
        s.listen(16)
        socks.append(s)
    # Above 4 first: a socket may already be 3 or 4.
    high = [os.dup(s.fileno()) for s in socks]
    for i, fd in enumerate(high):
        os.dup2(fd, 3 + i, inheritable=True)
    os.environ["LISTEN_PID"] = str(os.getpid())
    os.environ["LISTEN_FDS"] = "2"
    os.execvp(cmd[0], cmd)


def main():
    a = sys.argv[1:]
    if len(a) >= 3 and a[0] == "squat":
        return squat(a[1], a[2])
    if len(a) == 2 and a[0] == "client":
        return client(a[1])
    if len(a) == 3 and a[0] == "read":
        return read(a[1], float(a[2]))
    if len(a) == 3 and a[0] == "hold":
        return hold(a[1], float(a[2]))
    if len(a) == 4 and a[0] == "flood":
        return flood(a[1], int(a[2]), float(a[3]))
    if len(a) == 3 and a[0] == "bad":
        return bad(a[1], int(a[2]))
    if len(a) >= 4 and a[0] == "activate":
        return activate(a[1], a[2], a[3:])
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main())
