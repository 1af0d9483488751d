#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
#
# dcm_lola_replay.py: the public LoLA clients' behaviour, replayed against
# dcm-lola, one mode per client family. Each replay does what that family's
# code does on a real NAO V6 (Documentation/dcm/lola.rst, "The public LoLA
# clients": how it connects, how much it reads per call, how it decodes,
# what it sends and how, what it sends before it closes), written from
# those facts, not from their code. The robot's reaction is checked through
# a second connection that reads every sensor map (one per cycle) and
# through sysfs.
#
# Modes (each prints "RESULT <0|1> <what>" lines, 0 = pass, "# ..." info):
#   bhuman   offsets learned from the first map, 10-key float 32 maps, then
#            the exit: reconnect, Position-only maps, all Stiffness 0 with
#            LEDs, close at once
#   naoth    msgpack-c style: large reads, every map parsed, 11 keys in its
#            order, Stiffness -1 (motor free) as its start state; the newer
#            msgpack-c's integers
#   hula     strict decode of every map (IDs 20 bytes, dotted versions,
#            major 6), full 11-key maps in name order, two maps in one cycle
#   naolola  ROS 2 nao_lola: only the keys it has commands for (before
#            0.3.1), then integers where floats are expected (msgpack-c 6)
#   devils   Nao Devils: recv(896) and exit on any other size, float 64
#            maps (nlohmann), its exit map (sitting, hips 0.1), close
#   script   a Python lola.py-style script: sends float 64 maps in a loop
#            without reading, then reads slowly with recv(896) under load
#   handover a client's last map then close(), the next client's map at once:
#            both in force
#   stop     one map, then close(), just before dcm-lola is stopped
#
# Python 3 with Debian's python3-msgpack only.

import argparse
import os
import re
import select
import socket
import struct
import sys
import time

import msgpack

SIZE = 896
# A slowed kernel (the debug kernel's DCM_TEST_TIMEOUT_SCALE, dcm_test.h):
# the cycle and the daemon fall behind by more than they count, so the
# bounds in cycles stretch by it; 1 in make check.
try:
    SCALE = max(1, int(os.environ.get("DCM_TEST_TIMEOUT_SCALE", "1")))
except ValueError:
    SCALE = 1
# Bounds of timing: asserted only with DCM_TIMING_CHECKS=1 on the stock
# kernel (within_two()).
TIMING = os.environ.get("DCM_TIMING_CHECKS") == "1" and SCALE == 1
SYS = "/sys/class/dcm/dcm0"
SIM = "/sys/kernel/debug/dcm_sim/body0"

KEYS = ["RobotConfig", "Accelerometer", "Angles", "Battery", "Current", "FSR", "Gyroscope",
        "Position", "Sonar", "Stiffness", "Temperature", "Touch", "Status"]
LENS = {"RobotConfig": 4, "Accelerometer": 3, "Angles": 2, "Battery": 4, "Current": 25,
        "FSR": 8, "Gyroscope": 3, "Position": 25, "Sonar": 2, "Stiffness": 25,
        "Temperature": 25, "Touch": 14, "Status": 25}
JOINTS = ["HeadYaw", "HeadPitch", "LShoulderPitch", "LShoulderRoll", "LElbowYaw",
          "LElbowRoll", "LWristYaw", "LHipYawPitch", "LHipRoll", "LHipPitch",
          "LKneePitch", "LAnklePitch", "LAnkleRoll", "RHipRoll", "RHipPitch",
          "RKneePitch", "RAnklePitch", "RAnkleRoll", "RShoulderPitch", "RShoulderRoll",
          "RElbowYaw", "RElbowRoll", "RWristYaw", "LHand", "RHand"]
LED_LEN = {"Chest": 3, "LEar": 10, "REar": 10, "LEye": 24, "REye": 24, "LFoot": 3,
           "RFoot": 3, "Skull": 12}
# B-Human's and NaoTH's key order; HuLA's and Nao Devils' (by name).
BH_ORDER = ["Position", "Stiffness", "REar", "LEar", "Chest", "LEye", "REye", "LFoot",
            "RFoot", "Skull"]
NAOTH_ORDER = BH_ORDER + ["Sonar"]
NAME_ORDER = sorted(NAOTH_ORDER)

results = []


def result(ok, what):
    print("RESULT %d %s" % (0 if ok else 1, what), flush=True)
    results.append(bool(ok))


def info(text):
    print("# " + text, flush=True)


def sysfs(key):
    with open("%s/SubDeviceList/%s/Value" % (SYS, key)) as f:
        return float(f.read().split()[0])


def settled(key, want, tol=1e-6):
    """key's value once it is want, or the last one read: at once in make
    check, for up to half a second times SCALE on a slowed kernel."""
    end = time.monotonic() + 0.5 * (SCALE - 1)
    v = sysfs(key)
    while abs(v - want) > tol and time.monotonic() < end:
        time.sleep(0.01)
        v = sysfs(key)
    return v


def safety_state():
    """The controller's safety/: (cycle faults counted, fault_scale,
    battery_scale), as read."""
    st = []
    for k in ("cycle_faults", "fault_scale", "battery_scale"):
        with open("%s/safety/%s" % (SYS, k)) as f:
            st.append(f.read().strip())
    return tuple(st)


def unfaulted(read, keep=None):
    """read()'s result from a run made while no safety factor cut the
    stiffness: both factors whole right before it, and right after it with
    no cycle fault counted between (dcm_tap.sh's unfaulted_run). A Hardness
    actuator's Value, and the Stiffness of a sensor map, are the hardness
    sent: the asked one times the factors; a host that stalls the guest past
    500 ms makes a cycle fault, which cuts it and brings it back over 2 s
    (Documentation/testing.rst). Between tries keep() runs (the client goes
    on as it does each cycle), or a pause; for 20 s times SCALE at most,
    then the last run's result, said in an info line."""
    end = time.monotonic() + 20 * SCALE
    while True:
        s0 = safety_state()
        v = read()
        s1 = safety_state()
        if s0 == s1 and s1[1:] == ("1.000000", "1.000000"):
            return v
        if time.monotonic() > end:
            info("no run outside a cycle fault's ramp in %d s (%s -> %s)" %
                 (20 * SCALE, s0, s1))
            return v
        if keep:
            keep()
        else:
            time.sleep(0.05)


def hardness():
    """Every joint's Hardness/Actuator (LoLA's 25 and RHipYawPitch)."""
    return [sysfs("%s/Hardness/Actuator" % j) for j in JOINTS + ["RHipYawPitch"]]


def status(path):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    data = b""
    while True:
        b = s.recv(65536)
        if not b:
            break
        data += b
    s.close()
    st = {"client_lines": []}
    for line in data.decode().splitlines():
        k, _, v = line.partition(" ")
        if k == "client":
            f = v.split()
            d = {"id": f[0]}
            d.update({f[i]: f[i + 1] for i in range(1, len(f) - 1, 2)})
            st["client_lines"].append(d)
        else:
            st[k] = v
    return st


def stalls(a):
    """Cycles the daemon or the kernel fell behind in so far: the daemon's
    missed frames and late maps, the kernel's missed slots (a loaded host
    under TCG stalls the guest; each such cycle may delay a map by one)."""
    st = status(a.status)
    n = int(st.get("missed", 0)) + int(st.get("late", 0))
    try:
        with open("%s/stats/missed" % SYS) as f:
            n += int(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        pass
    return n


def within_two(a, n, s0):
    """n sensor maps after the client's last map: it was applied (n is not
    None: seen within the maps waited for). How soon, at most two maps and
    one more for each cycle the daemon or the kernel fell behind meanwhile,
    is a bound of timing: asserted only with DCM_TIMING_CHECKS=1, as an
    observer starved by a busy host counts maps late whatever dcm-lola
    does (Documentation/testing.rst); the count is shown."""
    extra = stalls(a) - s0
    ok = n is not None and (not TIMING or n <= 2 * SCALE + extra)
    return ok, "%s sensor map(s)%s" % (
        n, " (%d cycles behind meanwhile)" % extra if extra else "")


def me(a):
    """This process's one connection in the status."""
    for c in status(a.status)["client_lines"]:
        if c.get("pid") == str(os.getpid()):
            return c
    return None


def connect(path, tries, pause):
    """Connect, retrying as the family does (the socket may not exist yet)."""
    for _ in range(tries):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            s.connect(path)
            return s
        except OSError:
            s.close()
            time.sleep(pause)
    raise SystemExit("cannot connect to %s" % path)


class Exact:
    """recv(896) per map, as B-Human, Nao Devils, lola.py do: any other
    size is a failure (those clients exit or lose their offsets)."""

    def __init__(self, s):
        self.s = s
        self.short = 0
        self.count = 0
        self.last = None

    def recv(self, timeout=3.0):
        r, _, _ = select.select([self.s], [], [], timeout)
        if not r:
            raise SystemExit("no sensor map for %.1f s" % timeout)
        b = self.s.recv(SIZE)
        if len(b) != SIZE:
            self.short += 1
            raise SystemExit("recv(896) returned %d bytes" % len(b))
        self.count += 1
        self.last = b
        return b

    def latest(self):
        """Every map already there read; the newest this client has."""
        while select.select([self.s], [], [], 0)[0]:
            self.recv()
        return self.last


class Observer:
    """A read-only client that reads every sensor map: one per cycle."""

    def __init__(self, path):
        self.s = connect(path, 50, 0.1)
        self.buf = b""
        self.last = None

    def drain(self):
        """Every map already there read; the newest this client has."""
        while True:
            r, _, _ = select.select([self.s], [], [], 0)
            if not r:
                break
            self.buf += self.s.recv(65536)
        while len(self.buf) >= SIZE:
            self.last, self.buf = self.buf[:SIZE], self.buf[SIZE:]
        return self.last

    def answer(self, ex, data):
        """Send data on the client's connection as an answer to the newest
        map, the one this observer has seen last too (the same bytes on
        both connections): the observer's next maps are the cycles after
        the one the client answered."""
        for _ in range(50):
            if ex.latest() == self.drain():
                break
            time.sleep(0.002)
        else:
            info("the observer and the client did not agree on the newest map")
        ex.s.sendall(data)

    def next(self, timeout=3.0):
        while len(self.buf) < SIZE:
            r, _, _ = select.select([self.s], [], [], timeout)
            if not r:
                raise SystemExit("observer: no sensor map for %.1f s" % timeout)
            self.buf += self.s.recv(65536)
        pkt, self.buf = self.buf[:SIZE], self.buf[SIZE:]
        self.last = pkt
        return msgpack.unpackb(pkt, raw=False)

    def maps_until(self, cond, limit):
        """Sensor maps read until cond(map) holds (1 = the first), or None
        after limit maps. A map read while a safety factor cuts the
        stiffness (a cycle fault's ramp: unfaulted()) is not counted in
        limit, as its Stiffness is not the one asked; for 20 s times SCALE
        at most."""
        end = time.monotonic() + 20 * SCALE
        n = counted = 0
        while counted < limit and time.monotonic() < end:
            n += 1
            if cond(self.next()):
                return n
            if safety_state()[1:] == ("1.000000", "1.000000"):
                counted += 1
        return None


# ---- encoders as the families' libraries write ----

def f32(v):
    return b"\xca" + struct.pack(">f", v)


def hand_map(d, order):
    """B-Human's hand-written encoder: fixmap, fixstr keys, float 32 only."""
    out = bytes([0x80 | len(order)])
    for k in order:
        out += bytes([0xA0 | len(k)]) + k.encode()
        v = d[k]
        out += bytes([0x90 | len(v)]) if len(v) <= 15 else b"\xdc" + struct.pack(">H", len(v))
        for x in v:
            out += f32(x)
    return out


def ordered(d, order):
    return {k: d[k] for k in order if k in d}


def pack32(d, order):
    """msgpack-c before 4.1.2, rmp-serde with f32: float 32, booleans."""
    return msgpack.packb(ordered(d, order), use_single_float=True)


def pack64(d, order):
    """Python's msgpack, older nlohmann: float 64."""
    return msgpack.packb(ordered(d, order), use_single_float=False)


def pack_int(d, order):
    """msgpack-c 4.1.2 and later: a float with an integral value is an integer."""
    def conv(v):
        return [int(x) if isinstance(x, float) and x == int(x) else x for x in v]
    return msgpack.packb({k: conv(v) for k, v in ordered(d, order).items()},
                         use_single_float=True)


def leds(value):
    return {k: [value] * n for k, n in LED_LEN.items()}


# ---- B-Human ----

def bh_offsets(pkt):
    """What B-Human's first-map parse learns: the byte offset of every
    float 32 of Position and Stiffness (it reads them there afterwards)."""
    offs = {}
    p = 1
    if pkt[0] != 0x8D:
        raise SystemExit("B-Human: not a fixmap of 13")
    for _ in range(13):
        n = pkt[p] & 0x1F
        key = pkt[p + 1:p + 1 + n].decode()
        p += 1 + n
        if pkt[p] == 0xDC:
            cnt = struct.unpack(">H", pkt[p + 1:p + 3])[0]
            p += 3
        else:
            cnt = pkt[p] & 0x0F
            p += 1
        for i in range(cnt):
            t = pkt[p]
            if t == 0xCA:
                offs[(key, i)] = p + 1
                p += 5
            elif 0xA0 <= t <= 0xBF:
                p += 1 + (t & 0x1F)
            elif t <= 0x7F:
                p += 1
            else:
                raise SystemExit("B-Human: byte 0x%02x at %d is not what it parses" % (t, p))
    return offs


def bh_value(pkt, offs, key, i):
    return struct.unpack(">f", pkt[offs[(key, i)]:offs[(key, i)] + 4])[0]


def bhuman(a):
    obs = Observer(a.socket)
    # The framework: connect (10 tries 10 ms apart), learn the offsets.
    s = connect(a.socket, 10, 0.01)
    ex = Exact(s)
    pkt = ex.recv()
    offs = bh_offsets(pkt)
    floats = sum(LENS[k] for k in KEYS if k not in ("RobotConfig", "Status"))
    result(len(offs) == floats, "B-Human: the first map parses as it expects (fixmap, "
           "fixstr, float 32, fixints): %d float offsets learned" % len(offs))
    pos = [bh_value(pkt, offs, "Position", i) for i in range(25)]
    cmd = {"Position": pos, "Stiffness": [1.0] * 25}
    cmd.update(leds(0.5))
    same = True
    for _ in range(40):
        s.sendall(hand_map(cmd, BH_ORDER))
        pkt = ex.recv()
        same = same and bh_offsets(pkt) == offs
    st = [bh_value(pkt, offs, "Stiffness", i) for i in range(25)]
    result(same and all(abs(x - 1) < 1e-6 for x in st),
           "B-Human: 10-key float 32 maps applied, Stiffness read at the learned offsets is 1 "
           "(every map kept the first one's offsets: %s)" % same)
    # The crash: the framework's socket closes; the crash handler comes back
    # 100 ms later, reads the hip-roll stiffness (8, 13) to see whether the
    # robot is still stiff, and sits it down with Position-only maps.
    s.close()
    time.sleep(0.1)
    s = connect(a.socket, 10, 0.1)
    ex = Exact(s)
    pkt = ex.recv()
    offs = bh_offsets(pkt)
    hips = (bh_value(pkt, offs, "Stiffness", 8), bh_value(pkt, offs, "Stiffness", 13))
    result(hips == (1.0, 1.0), "B-Human's crash handler: the hip-roll stiffness is still %s "
           "after its framework's socket closed (commands held)" % (hips,))
    start = [bh_value(pkt, offs, "Position", i) for i in range(25)]
    target = list(start)
    target[1] = 0.3     # HeadPitch, part of the sitting pose
    steps = 60
    for k in range(1, steps + 1):
        f = min(1.0, k / (steps * 0.5))
        s.sendall(hand_map({"Position": [x + (y - x) * f for x, y in zip(start, target)]},
                           ["Position"]))
        pkt = ex.recv()
    hp = bh_value(pkt, offs, "Position", 1)
    st = [bh_value(pkt, offs, "Stiffness", i) for i in range(25)]
    result(abs(hp - 0.3) < 0.05 and all(x == 1.0 for x in st),
           "B-Human: Position-only maps move the robot (HeadPitch %.3f, asked 0.3) on the "
           "stiffness it kept" % hp)
    # The last map: every Stiffness 0 and its LEDs (blue eyes), then close()
    # at once, without reading again.
    last = {"Stiffness": [0.0] * 25, "Position": target}
    last.update(leds(0.0))
    last["LEye"] = [0.0] * 16 + [1.0] * 8
    last["REye"] = [0.0] * 16 + [1.0] * 8
    s0 = stalls(a)
    obs.answer(ex, hand_map(last, ["Stiffness", "Position", "Chest", "LEye", "REye", "LEar",
                                   "REar", "LFoot", "RFoot", "Skull"]))
    s.close()
    n = obs.maps_until(lambda m: all(x == 0 for x in m["Stiffness"]), 50)
    h = hardness()
    ok, when = within_two(a, n, s0)
    result(ok and all(x == 0 for x in h),
           "B-Human's exit: every stiffness 0 %s after its last map, sent before close() "
           "(Hardness %s)" % (when, sorted(set(h))))
    eye = settled("Face/Led/Blue/Left/0Deg/Actuator", 1.0)
    result(eye == 1.0, "B-Human's exit: the LEDs of its last map are on (blue eye %g)" % eye)
    obs.s.close()


# ---- NaoTH ----

def naoth(a):
    # LolaAdaptor: wait for the socket file, then one connect, no retry.
    for _ in range(20):
        if os.path.exists(a.socket):
            break
        time.sleep(0.25)
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(a.socket)
    unp = msgpack.Unpacker(raw=False)

    def read():
        # read() into the unpacker's whole buffer; a size other than 896 is
        # only logged; the map is parsed (msgpack-c's convert).
        b = s.recv(65536)
        if not b:
            raise SystemExit("NaoTH: the server closed the connection")
        unp.feed(b)
        return next(unp)

    def fresh(pkt):
        # A map the daemon made after this call began, for a check: the
        # ones waiting are read first (the client parses them all), then
        # one more map is waited for.
        while select.select([s], [], [], 0)[0]:
            b = s.recv(65536)
            if not b:
                raise SystemExit("NaoTH: the server closed the connection")
            unp.feed(b)
        for _ in unp:
            pass
        s.sendall(pkt)
        return read()

    m = read()
    act = {"Position": m["Position"], "Stiffness": [-1.0] * 25, "Sonar": [True, True]}
    act.update(leds(0.0))
    for _ in range(20):
        s.sendall(pack32(act, NAOTH_ORDER))
        m = read()
    st = me(a)
    m, h = unfaulted(lambda: (fresh(pack32(act, NAOTH_ORDER)), hardness()))
    result(st is not None and st["role"] == "commander" and st["refused"] == "0",
           "NaoTH: Stiffness -1 (its start state) accepted, the client commands and stays "
           "connected (refused %s)" % (st and st["refused"]))
    result(all(x == -1 for x in h) and all(x == -1 for x in m["Stiffness"]),
           "NaoTH: every joint's stiffness is -1, motor free (Hardness %s, sensor map %s)" %
           (sorted(set(h)), sorted(set(m["Stiffness"]))))
    # Free: an outside force moves HeadYaw and nothing drives it back.
    try:
        with open("%s/joints/HeadYaw/position_mrad" % SIM, "w") as f:
            f.write("400\n")
        pushed = True
    except OSError as e:
        info("cannot push HeadYaw (%s)" % e)
        pushed = False
    if pushed:
        for _ in range(40):
            s.sendall(pack32(act, NAOTH_ORDER))
            m = read()
        hy = m["Position"][0]
        result(abs(hy - 0.4) < 0.05, "NaoTH: a free HeadYaw pushed to 0.4 rad stays there "
               "(%.3f): nothing drives it back" % hy)
    # The same client with msgpack-c 4.1.2 or later: 0.0, 1.0, -1.0 as integers.
    act["Stiffness"] = [-1.0] * 25
    act["Stiffness"][1] = 1.0
    act["Chest"] = [1.0, 0.0, 1.0]
    raw = pack_int(act, NAOTH_ORDER)
    ints = msgpack.unpackb(raw, raw=False)
    ints = all(isinstance(x, int) for k in ("Stiffness", "Chest") for x in ints[k])
    for _ in range(5):
        s.sendall(raw)
        m = read()
    h, chest = unfaulted(lambda: (sysfs("HeadPitch/Hardness/Actuator"),
                                  [sysfs("ChestBoard/Led/%s/Actuator" % c)
                                   for c in ("Red", "Green", "Blue")]),
                         lambda: (s.sendall(raw), read()))
    result(ints and h == 1.0 and chest == [1.0, 0.0, 1.0],
           "NaoTH with a newer msgpack-c: integer-encoded values applied (HeadPitch "
           "hardness %g, Chest %s)" % (h, chest))
    st = me(a)
    result(st is not None and st["refused"] == "0" and st["clamped"] == "0",
           "NaoTH: no map refused or clamped (refused %s clamped %s)" %
           (st and st["refused"], st and st["clamped"]))
    s.close()


# ---- HuLA ----

VERSION = re.compile(r"^(\d+)\.(\d+)\.(\d+)$")


def hula_decode(pkt):
    """HuLA's strict decode of one map; '' or the fault."""
    if len(pkt) != SIZE:
        return "%d bytes" % len(pkt)
    m = msgpack.unpackb(pkt, raw=False)
    if sorted(m) != sorted(KEYS):
        return "keys %s" % sorted(m)
    for k in KEYS:
        v = m[k]
        if not isinstance(v, list) or len(v) != LENS[k]:
            return "%s: not %d elements" % (k, LENS[k])
    rc = m["RobotConfig"]
    if not all(isinstance(x, str) for x in rc):
        return "RobotConfig: not four strings"
    for i in (0, 2):
        if len(rc[i].encode()) != 20:
            return "RobotConfig[%d] %r: not 20 bytes" % (i, rc[i])
    for i in (1, 3):
        v = VERSION.match(rc[i])
        if not v:
            return "RobotConfig[%d] %r: not a dotted version" % (i, rc[i])
        if int(v.group(1)) != 6:
            return "RobotConfig[%d] %r: major version is not 6" % (i, rc[i])
    if not all(isinstance(x, int) and 0 <= x <= 3 for x in m["Status"]):
        return "Status: not integers 0 .. 3"
    for k in KEYS[1:-1]:
        if not all(isinstance(x, float) for x in m[k]):
            return "%s: not floats" % k
    return ""


def hula(a):
    s = connect(a.socket, 60, 0.1)
    buf = b""

    def read_exact():
        nonlocal buf
        while len(buf) < SIZE:
            r, _, _ = select.select([s], [], [], 3)
            if not r:
                raise SystemExit("HuLA: no sensor map")
            b = s.recv(SIZE - len(buf))
            if not b:
                raise SystemExit("HuLA: the server closed the connection")
            buf += b
        pkt, buf = buf, b""
        return pkt

    fault = ""
    n = 0

    def cycle(*maps):
        nonlocal fault, n
        for mp in maps:
            s.sendall(mp)
        pkt = read_exact()
        n += 1
        f = hula_decode(pkt)
        if f and not fault:
            fault = "map %d: %s" % (n, f)
        return msgpack.unpackb(pkt, raw=False)

    m = cycle()
    info("RobotConfig %s" % m["RobotConfig"])
    # No client yet: HuLA's idle map (all stiffness 0, positions 0, eyes).
    idle = {"Position": [0.0] * 25, "Stiffness": [0.0] * 25, "Sonar": [True, True]}
    idle.update(leds(0.0))
    idle["LEye"] = [1.0] * 8 + [0.0] * 16
    for _ in range(10):
        m = cycle(pack32(idle, NAME_ORDER))
    # Two clients' frames in one cycle (a hand-over): two full maps.
    fa = dict(idle, Position=m["Position"], Stiffness=[0.3] * 25, Chest=[1.0, 0.0, 0.0])
    fb = dict(idle, Position=m["Position"], Stiffness=[0.6] * 25, Chest=[0.0, 1.0, 0.0])
    for _ in range(4):
        m = cycle(pack32(fa, NAME_ORDER), pack32(fb, NAME_ORDER))
    h1 = unfaulted(lambda: settled("HeadYaw/Hardness/Actuator", 0.6),
                   lambda: cycle(pack32(fa, NAME_ORDER), pack32(fb, NAME_ORDER)))
    c1 = settled("ChestBoard/Led/Green/Actuator", 1.0)
    for _ in range(4):
        m = cycle(pack32(fb, NAME_ORDER), pack32(fa, NAME_ORDER))
    h2 = unfaulted(lambda: settled("HeadYaw/Hardness/Actuator", 0.3),
                   lambda: cycle(pack32(fb, NAME_ORDER), pack32(fa, NAME_ORDER)))
    c2 = settled("ChestBoard/Led/Red/Actuator", 1.0)
    result(abs(h1 - 0.6) < 1e-6 and c1 == 1.0 and abs(h2 - 0.3) < 1e-6 and c2 == 1.0,
           "HuLA: two maps in one cycle apply in order, the later one last (hardness %.3f "
           "then %.3f, as sent %.1f then %.1f)" % (h1, h2, 0.6, 0.3))
    for _ in range(100):
        m = cycle(pack32(fa, NAME_ORDER))
    result(not fault, "HuLA: its strict decode of every map succeeds (%d maps: 896 bytes, "
           "IDs of 20 bytes, dotted versions, major 6)%s" % (n, ": " + fault if fault else ""))
    s.close()


# ---- nao_lola ----

def naolola(a):
    s = connect(a.socket, 50, 0.1)
    ex = Exact(s)

    def cycle(obj=None, raw=None):
        ex.recv()
        if raw is not None:
            s.sendall(raw)
        elif obj is not None:
            s.sendall(pack32(obj, list(obj)))

    # Before 0.3.1: a map carries only the keys a command came for.
    cycle()
    h0 = unfaulted(lambda: sysfs("HeadYaw/Hardness/Actuator"), cycle)
    for _ in range(5):
        cycle({"LEar": [1.0] * 10})
    ear = sysfs("Ears/Led/Left/0Deg/Actuator")
    for _ in range(5):
        cycle({"Chest": [0.0, 0.0, 1.0]})
    ear2 = sysfs("Ears/Led/Left/0Deg/Actuator")
    chest = sysfs("ChestBoard/Led/Blue/Actuator")
    h1 = unfaulted(lambda: sysfs("HeadYaw/Hardness/Actuator"), cycle)
    result(ear == 1.0 and ear2 == 1.0 and chest == 1.0 and h1 == h0,
           "nao_lola (< 0.3.1): one-key maps applied, the other keys keep their commands")
    # 1.1.0 with msgpack-c 6.1: integers where floats are expected.
    pos = [0.0] * 25
    pos[0] = -0.2
    obj = {"Position": pos, "Stiffness": [0.0] * 25, "Chest": [0.0, 0.0, 0.0],
           "LEar": [0.0] * 10}
    obj["Stiffness"][0] = 1.0
    raw = pack_int(obj, list(obj))
    for _ in range(60):
        cycle(raw=raw)
    hy, h = unfaulted(lambda: (sysfs("HeadYaw/Position/Sensor"),
                               sysfs("HeadYaw/Hardness/Actuator")), lambda: cycle(raw=raw))
    result(h == 1.0 and abs(hy + 0.2) < 0.05 and sysfs("ChestBoard/Led/Blue/Actuator") == 0,
           "nao_lola 1.1.0 (msgpack-c 6.1): integer-encoded values applied, HeadYaw to "
           "%.3f (asked -0.2) with hardness %g" % (hy, h))
    result(ex.short == 0, "nao_lola: every 896-byte receive got a whole map (%d)" % ex.count)
    s.close()


# ---- Nao Devils ----

def devils(a):
    obs = Observer(a.socket)
    s = connect(a.socket, 20, 0.1)
    ex = Exact(s)
    pkt = ex.recv()
    m = msgpack.unpackb(pkt, raw=False)
    ids = (m["RobotConfig"][0], m["RobotConfig"][2])
    result(all(len(x) == 20 for x in ids), "Nao Devils: body and head IDs of 20 characters "
           "copied from the first map %s" % (ids,))
    act = {"Position": m["Position"], "Stiffness": [0.5] * 25, "Sonar": [True, True]}
    act.update(leds(0.0))
    act["Stiffness"][2] = 0.55
    for _ in range(20):
        s.sendall(pack64(act, NAME_ORDER))
        m = msgpack.unpackb(ex.recv(), raw=False)
    h = unfaulted(lambda: sysfs("LShoulderPitch/Hardness/Actuator"),
                  lambda: (s.sendall(pack64(act, NAME_ORDER)), ex.recv()))
    result(abs(h - 0.55) < 1e-6, "Nao Devils: float 64 maps applied (LShoulderPitch "
           "hardness %.4f, sent 0.55)" % h)
    # Its exit: state "sitting" (positions 0, stiffness 0, the hips 0.1 to
    # stabilise), that map sent, the loop ends, the socket closes.
    last = dict(act, Position=m["Position"], Stiffness=[0.0] * 25)
    for i in (7, 9, 14):
        last["Stiffness"][i] = 0.1
    want = last["Stiffness"]
    s0 = stalls(a)
    obs.answer(ex, pack64(last, NAME_ORDER))
    s.close()
    n = obs.maps_until(lambda mm: all(abs(x - y) < 1e-6 for x, y in zip(mm["Stiffness"],
                                                                         want)), 50)
    ok, when = within_two(a, n, s0)
    result(ok, "Nao Devils' exit: its last map's stiffness (0, hips 0.1) in force %s "
           "after it, sent before close()" % when)
    obs.s.close()


# ---- a Python lola.py-style script ----

def script(a):
    s = connect(a.socket, 50, 0.1)
    cmd = {"Position": [0.0] * 25, "Stiffness": [0.0] * 25, "Chest": [0.0] * 3,
           "Sonar": [True, True], "LEar": [0.0] * 10, "REar": [0.0] * 10}
    cmd["Stiffness"][0] = 1.0
    # Its loop: set, send, again, never reading: many maps per cycle. It
    # goes on until its socket is full and dcm-lola has had to drop maps
    # for it (at least --slow seconds, at most 20).
    sent = 0
    t0 = time.monotonic()
    check = t0 + a.slow
    while True:
        cmd["Position"][0] = 0.1 if sent % 2 else 0.2
        s.sendall(msgpack.packb(cmd))
        sent += 1
        if sent % 5 == 0:
            time.sleep(0.01)
        now = time.monotonic()
        if now >= check:
            st = me(a)
            if (st is not None and int(st["drops"]) > 0) or now - t0 > 20:
                break
            check = now + 0.25
    last = 0.35
    cmd["Position"][0] = last
    s.sendall(msgpack.packb(cmd))
    sent += 1
    info("sent %d maps without reading in %.1f s" % (sent, time.monotonic() - t0))
    # Then it reads, slowly: recv(896) each, every one a whole map.
    ex = Exact(s)
    bad = ""
    for k in range(a.reads):
        try:
            pkt = ex.recv()
        except SystemExit as e:
            bad = str(e)
            break
        m = msgpack.unpackb(pkt, raw=False)
        if sorted(m) != sorted(KEYS):
            bad = "map %d: keys %s" % (k, sorted(m))
            break
        if k % 10 == 0:
            time.sleep(0.02)
    st = me(a)
    result(not bad, "a script that sends without reading, then reads with recv(896): every "
           "read a whole map (%d read%s)" % (ex.count, ": " + bad if bad else ""))
    result(st is not None and int(st["drops"]) > 0 and st["refused"] == "0",
           "its unread maps were dropped whole and counted (drops %s), none of its %d maps "
           "refused" % (st and st["drops"], sent))
    a_pos = sysfs("HeadYaw/Position/Actuator")
    result(abs(a_pos - last) < 1e-3, "the last of its maps is the one in force (HeadYaw "
           "command %.3f, last sent %.2f)" % (a_pos, last))
    s.close()


def handover(a):
    """HuLA-style hand-over between two processes: one sends its last map
    and closes, the next sends at once. Both maps must be in force."""
    b = connect(a.socket, 50, 0.1)
    eb = Exact(b)
    c = connect(a.socket, 50, 0.1)
    ec = Exact(c)
    for _ in range(5):
        ec.recv()
        c.sendall(pack32({"Stiffness": [0.2] * 25}, ["Stiffness"]))
    eb.latest()
    ec.latest()
    c.sendall(pack32({"Stiffness": [0.7] * 25}, ["Stiffness"]))
    c.close()
    b.sendall(pack32({"Chest": [0.0, 0.0, 1.0]}, ["Chest"]))
    for _ in range(6):
        eb.recv()
    h = unfaulted(lambda: sysfs("HeadYaw/Hardness/Actuator"), eb.recv)
    blue = sysfs("ChestBoard/Led/Blue/Actuator")
    st = me(a)
    result(abs(h - 0.7) < 1e-6 and blue == 1.0 and st is not None and
           st["role"] == "commander",
           "a hand-over: the leaving client's last map (hardness %.3f, sent 0.7) and the "
           "next one's (Chest blue %g) both in force, the next one commands" % (h, blue))
    b.close()


def stop(a):
    """A client's map, then close(): the shell stops dcm-lola right after."""
    s = connect(a.socket, 50, 0.1)
    Exact(s).recv()
    s.sendall(pack32({"Stiffness": [a.stiffness] * 25}, ["Stiffness"]))
    s.close()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("mode", choices=["bhuman", "naoth", "hula", "naolola", "devils", "script",
                                    "handover", "stop"])
    p.add_argument("--socket", default="/tmp/robocup")
    p.add_argument("--status")
    p.add_argument("--slow", type=float, default=2.5)
    p.add_argument("--reads", type=int, default=150)
    p.add_argument("--stiffness", type=float, default=0.45)
    a = p.parse_args()
    if not a.status:
        a.status = a.socket + ".status"
    {"bhuman": bhuman, "naoth": naoth, "hula": hula, "naolola": naolola, "devils": devils,
     "script": script, "handover": handover, "stop": stop}[a.mode](a)
    return 0 if a.mode == "stop" or (results and all(results)) else 1


if __name__ == "__main__":
    sys.exit(main())
