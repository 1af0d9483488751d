#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""dcm_python_test.py: the Python module dcm against dcm.ko and the
simulated body, run by dcm_python_test.sh in the VM (the default
description loaded by dcmd at boot).

Prints one line per check, "0 DESCRIPTION" (passed) or "1 DESCRIPTION"
(failed), and diagnostics as "# ..." lines; dcm_python_test.sh turns them
into TAP. A section that raises counts as one failed check naming the
exception.
"""

import errno
import os
import sys
import threading
import time

import dcm
from dcm import naoqi

SYS = "/sys/class/dcm/dcm0"
HY = "HeadYaw/Position/Actuator"
HYS = "HeadYaw/Position/Sensor"
ARM = ["RShoulderRoll", "RElbowRoll", "RElbowYaw"]


def check(ok, desc):
    """One result line."""
    print("%d %s" % (0 if ok else 1, desc.replace("\n", " ")), flush=True)
    return ok


def diag(msg):
    """A diagnostic line."""
    print("# " + msg, flush=True)


def section(fn):
    """Run a section; an exception is a failed check naming it."""
    try:
        fn()
    except Exception as e:  # pylint: disable=broad-except
        check(False, "%s raised %s: %s" % (fn.__name__, type(e).__name__, e))


def wait_until(pred, timeout):
    """Poll pred every 20 ms for at most timeout s; its last result."""
    end = time.monotonic() + timeout
    while True:
        r = pred()
        if r or time.monotonic() > end:
            return r
        time.sleep(0.02)


# Bounds of timing (how many frames a reader misses, how soon): asserted
# only with DCM_TIMING_CHECKS=1, else shown; a host busy with other work
# breaks them whatever the code does (Documentation/testing.rst).
TIMING = os.environ.get("DCM_TIMING_CHECKS") == "1"


def check_timing(ok, what):
    if TIMING:
        check(ok, what)
    else:
        diag("timing%s: %s" % ("" if ok else ", not asserted", what))


def near(a, b, tol):
    return abs(a - b) <= tol


def sysfs(path):
    with open(os.path.join(SYS, path)) as f:
        return f.read().strip()


c = dcm.open()
D = naoqi.DCM(c)


def t_open():
    info = c.info()
    diag("info: %r" % (info,))
    check(info.name == "dcm0" and info.configured and info.running and info.simulated
          and info.n_subdevices > 100,
          "open /dev/dcm0: %s, %d subdevices, period %d us, running" %
          (info.driver, info.n_subdevices, info.period_us))
    check(c.abi_version[0] == 1, "ABI version %d.%d" % c.abi_version)
    k1 = c.key(HYS)
    k2 = c.key("Device/SubDeviceList/HeadYaw/Position/Sensor/Value")
    check(k1 == k2 and not k1.actuator and c.key(HY).actuator,
          "a key with or without prefix and /Value is the same subdevice (%r)" % (k1,))
    v = c.get(HYS)
    s = float(sysfs("SubDeviceList/HeadYaw/Position/Sensor/Value"))
    check(isinstance(v, float) and near(v, s, 0.01),
          "get reads a float, as sysfs does (%f, %f)" % (v, s))


def t_set():
    led = "ChestBoard/Led/Red/Actuator"
    c.set(led, 0.4)
    ok = wait_until(lambda: near(c.get(led), 0.4, 0.01), 1)
    check(ok, "set: the chest LED asked 0.4 reads %f" % c.get(led))
    vals = c.get_with_times([led, HYS])
    check(len(vals) == 2 and vals[0][1] > 0, "get_with_times: value and time of each (%r)"
          % (vals,))


def t_timed():
    c.set("HeadYaw/Hardness/Actuator", 1.0)
    time.sleep(0.05)
    # Half-way: read after 200 ms of DCM time and before 390 ms; a read
    # the host delayed past the ramp's end proves nothing and the ramp
    # runs again (three tries).
    for _ in range(3):
        c.set_timed(HY, [[0.0, c.time()]], "ClearAll")
        wait_until(lambda: near(c.get(HY), 0.0, 0.001), 10)
        t0 = c.time()
        c.set_timed(HY, [[0.5, t0 + 400]], "ClearAll")
        wait_until(lambda: dcm.time_diff(c.time(), t0) >= 200, 10)
        mid = c.get(HY)
        t2 = dcm.time_diff(c.time(), t0)
        if t2 < 390:
            break
        diag("the half-way read came %d ms after the set: again" % t2)
    check(0.05 < mid < 0.49 and t2 < 390,
          "a timed command moves the actuator gradually (%f half-way, %d ms)" % (mid, t2))
    ok = wait_until(lambda: near(c.get(HYS), 0.5, 0.03), 10)
    check(ok, "HeadYaw reaches 0.5 rad in 400 ms: actuator %f, sensor %f" %
          (c.get(HY), c.get(HYS)))
    # Merge, then ClearAll with no point: the queue is dropped, it holds.
    t = c.time()
    c.set_timed(HY, [dcm.Point(0.0, t + 3000)], dcm.UpdateKind.MERGE)
    time.sleep(0.1)
    c.clear(HY)
    a = c.get(HY)
    time.sleep(0.3)
    check(near(c.get(HY), a, 0.002),
          "ClearAll with no point drops the queue: it holds %f" % c.get(HY))


def t_naoqi_set():
    t = D.getTime(0)
    D.set(["Device/SubDeviceList/HeadYaw/Position/Actuator/Value", "ClearAll",
           [[-0.3, t + 300]]])
    ok = wait_until(lambda: near(c.get(HYS), -0.3, 0.03), 3)
    check(ok, "NAOqi set([key, \"ClearAll\", [[-0.3, t + 300]]]): HeadYaw sensor %f"
          % c.get(HYS))
    t = D.getTime(0)
    D.set(["HeadYaw/Position/Actuator/Value", "Merge", [[0.1, t + 100, 3], [0.2, t + 200]]])
    ok = wait_until(lambda: near(c.get(HY), 0.2, 0.002), 2)
    check(ok, "NAOqi set with Merge and an importance: the actuator reaches %f" % c.get(HY))


def t_memory():
    mem = naoqi.ALMemory(c)
    body = mem.getData("RobotConfig/Body/Type")
    mx = mem.getData("Device/SubDeviceList/HeadYaw/Position/Sensor/Max")
    lst = mem.getListData(["Device/SubDeviceList/HeadYaw/Position/Sensor/Value",
                           "HeadYaw/Position/Actuator/Value", "RobotConfig/Body/Type"])
    check(body == sysfs("RobotConfig/Body/Type") and isinstance(mx, float) and mx > 1
          and len(lst) == 3 and isinstance(lst[0], float) and lst[2] == body,
          "ALMemory getData/getListData read Values and other keys (%r, Max %r, %r)" %
          (body, mx, lst))
    try:
        mem.getData("RobotConfig/Nope")
        check(False, "getData of a missing key raises NoSuchKeyError")
    except dcm.NoSuchKeyError as e:
        check(isinstance(e, RuntimeError) and str(e).endswith("Data not found RobotConfig/Nope"),
              "getData of a missing key: RuntimeError and NoSuchKeyError: %r" % str(e))


def t_read_only():
    # An unprivileged user (nao, not in the group dcm) opens read-only.
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        msg = "?"
        try:
            os.setgid(1000)
            os.setuid(1000)
            with dcm.open() as ro:
                v = ro.get(HYS)
                try:
                    ro.set(HY, 0.0)
                    msg = "1 read %f, and the command was taken" % v
                except dcm.DcmError as e:
                    msg = "%d read %f; command: %s %s" % (
                        0 if e.errno == errno.EBADF and "read-only" in str(e) else 1, v,
                        errno.errorcode.get(e.errno), e)
        except Exception as e:  # pylint: disable=broad-except
            msg = "1 %s: %s" % (type(e).__name__, e)
        os.write(w, msg.encode())
        os._exit(0)
    os.close(w)
    out = b""
    while True:
        b = os.read(r, 4096)
        if not b:
            break
        out += b
    os.close(r)
    os.waitpid(pid, 0)
    st, _, rest = out.decode().partition(" ")
    check(st == "0", "as user nao the device opens read-only: %s" % rest)


def t_cost():
    k = c.key(HYS)
    n = 500
    t = time.perf_counter()
    for _ in range(n):
        c.get(k)
    get_us = (time.perf_counter() - t) / n * 1e6
    with c.snapshot() as snap:
        t = time.perf_counter()
        for _ in range(n):
            snap.read(k)
        snap_us = (time.perf_counter() - t) / n * 1e6
    t = time.perf_counter()
    for _ in range(20):
        c.read_frame(timeout=1)
    fr_ms = (time.perf_counter() - t) / 20 * 1e3
    diag("cost under TCG: get %.0f us, snapshot read %.0f us a call; a frame every %.1f ms"
         % (get_us, snap_us, fr_ms))


def t_aliases():
    pos = ["Device/SubDeviceList/%s/Position/Actuator/Value" % j for j in ARM]
    r = D.createAlias(["pyHard", ["%s/Hardness/Actuator/Value" % j for j in ARM]])
    check(r[1] == ["%s/Hardness/Actuator/Value" % j for j in ARM],
          "createAlias returns the members it found")
    D.set(["pyHard", "ClearAll", [[1.0, D.getTime(0)]]])
    ok = wait_until(lambda: all(near(c.get("%s/Hardness/Actuator" % j), 1, 0.001)
                                for j in ARM), 2)
    check(ok, "NAOqi set on an alias name: every member's hardness is 1")
    r = D.createAlias(["pyArm", pos[:2] + ["Nope/Position/Actuator/Value", pos[2]]])
    check(r == ["pyArm", pos[:2] + ["", pos[2]]],
          "createAlias blanks a name that is no actuator: %r" % (r[1],))
    t = D.getTime(0)
    D.setAlias(["pyArm", "ClearAll", "time-separate", 0, [t + 100, t + 300],
                [[0.1, 0.3], [0.05, 0.2], [9, 9], [-0.2, -0.4]]])
    want = [0.3, 0.2, -0.4]
    ok = wait_until(lambda: all(near(c.get(p), w, 0.002) for p, w in zip(pos, want)), 2)
    check(ok, "setAlias time-separate: the members reach %r (%r)" %
          (want, [round(c.get(p), 3) for p in pos]))
    t = D.getTime(0)
    D.setAlias(["pyArm", "ClearAll", "time-mixed",
                [[[0.0, t + 100]], [[0.1, t + 50], [0.15, t + 250]], [], [[-0.1, t + 200, 2]]]])
    want = [0.0, 0.15, -0.1]
    ok = wait_until(lambda: all(near(c.get(p), w, 0.002) for p, w in zip(pos, want)), 2)
    check(ok, "setAlias time-mixed: each member its own points, reach %r (%r)" %
          (want, [round(c.get(p), 3) for p in pos]))
    try:
        D.setAlias(["pyArm", "ClearAll", "time-separate", 0, [t], [[1], [1]]])
        check(False, "setAlias with a member count not the alias's is refused")
    except dcm.DcmError as e:
        check(e.errno == errno.EINVAL and "member" in str(e),
              "setAlias with 2 rows for 4 members: DcmError %s: %s" %
              (errno.errorcode.get(e.errno), e))
    try:
        D.setAlias(["pyNoSuch", "ClearAll", "time-mixed", [[]]])
        check(False, "setAlias on an alias never created is refused")
    except dcm.NoSuchAliasError as e:
        check(e.alias == "pyNoSuch" and isinstance(e, KeyError),
              "setAlias on an alias never created: NoSuchAliasError: %s" % e)
    D.set(["pyHard", "ClearAll", [[0.0, D.getTime(0)]]])


def t_enumeration():
    tree = c.tree()
    info = c.info()
    check(len(tree.subdevices) == info.n_subdevices and len(tree.devices) == info.n_devices
          and tree.generation == c.key(HYS).generation,
          "tree: %d devices, %d subdevices (as info says), generation %d" %
          (len(tree.devices), len(tree.subdevices), tree.generation))
    by_name = {x.name: x for x in tree.subdevices}
    hys = by_name.get(HYS)
    check(hys is not None and hys.handle == c.key(HYS).handle and not hys.actuator
          and by_name[HY].actuator and "Value" in hys.keys and "Max" in hys.keys,
          "tree: HeadYaw's sensor with its handle (0x%08x) and keys %s" %
          (hys.handle if hys else 0, ",".join(hys.keys[:6]) if hys else ""))
    chest = [d for d in tree.devices if d.name == "ChestBoard"]
    check(len(chest) == 1 and "Available" in chest[0].keys and c.devices() == list(tree.devices),
          "devices: ChestBoard on %s with Available, Ack, Nack" %
          (chest[0].bus if chest else "?"))
    check(c.tree() is tree, "tree: read once per description (the same Tree again)")
    keys = c.keys()
    check("Device/SubDeviceList/HeadYaw/Position/Sensor/Value" in keys
          and "Device/DeviceList/ChestBoard/Available" in keys and "RobotConfig/Body/Type" in keys
          and keys == sorted(keys) and len(keys) > 1000,
          "keys: %d full names, sorted" % len(keys))
    head = c.keys("HeadYaw/Position/Sensor")
    check(head and all("HeadYaw/Position/Sensor" in k for k in head),
          "keys(contains): %d keys of HeadYaw's sensor" % len(head))
    mem = naoqi.ALMemory(c)
    check(mem.getDataList("HeadYaw/Position/Sensor") == head
          and mem.getDataListName()[:len(keys)] == keys,
          "ALMemory getDataList and getDataListName list the same keys")
    check(c.key_flags("HeadYaw/Position/Actuator/Kp") >= {"writable", "config"}
          and "command" in c.key_flags("HeadYaw/Position/Actuator/Value")
          and not c.key_flags("HeadYaw/Position/Sensor/Value"),
          "key_flags: Kp a configuration key, an actuator's Value a command, a sensor's "
          "read-only")
    # aliases: own ones go with their controller, shared ones stay
    with dcm.open() as other:
        other.create_alias("pyOwn", [HY, "Nope/Position/Actuator"])
        other.create_alias("pyShared", [HY], shared=True)
        seen = {a.name: a for a in other.aliases()}
        a = other.alias("pyOwn")
        check(seen.get("pyOwn") == dcm.AliasInfo("pyOwn", 2, False)
              and seen.get("pyShared") == dcm.AliasInfo("pyShared", 1, True)
              and a.members == [HY, "Nope/Position/Actuator"] and a.keys[1] is None
              and a.keys[0].handle == c.key(HY).handle,
              "aliases: own pyOwn (a blank member) and shared pyShared, listed and shown")
        mine = [x.name for x in c.aliases()]
        check("pyShared" in mine and "pyOwn" not in mine,
              "another controller object sees the shared alias, not the other's own")
    mine = [x.name for x in c.aliases()]
    check("pyShared" in mine and "pyOwn" not in mine,
          "closing its controller freed the own alias; the shared one stays")
    c.delete_alias("pyShared")
    try:
        c.alias("pyShared")
        check(False, "delete_alias frees the shared alias")
    except dcm.NoSuchAliasError:
        check("pyShared" not in [x.name for x in c.aliases()], "delete_alias freed pyShared")


def t_naoqi_memory():
    mem = naoqi.ALMemory(c)
    mem.insertData("pyTest/Speed", 0.7)
    check(mem.getData("pyTest/Speed") == 0.7 and "pyTest/Speed" in mem.getDataList("pyTest"),
          "insertData keeps a key of the program's; getData and getDataList find it")
    kp = sysfs("SubDeviceList/HeadYaw/Position/Actuator/Kp")
    mem.insertData("Device/SubDeviceList/HeadYaw/Position/Actuator/Kp", int(kp) + 1)
    now = sysfs("SubDeviceList/HeadYaw/Position/Actuator/Kp")
    mem.insertData("HeadYaw/Position/Actuator/Kp", int(kp))
    check(int(now) == int(kp) + 1 and sysfs("SubDeviceList/HeadYaw/Position/Actuator/Kp") == kp,
          "insertData on a configuration key writes it to the kernel (Kp %s -> %s -> %s)" %
          (kp, now, kp))
    try:
        mem.insertData("Device/SubDeviceList/HeadYaw/Position/Actuator/Kp", 10 ** 9)
        check(False, "insertData of a Kp out of range is refused")
    except RuntimeError as e:
        check(isinstance(e, dcm.DcmError) and e.errno == errno.ERANGE,
              "insertData of a Kp out of range: the kernel's ERANGE, a RuntimeError: %s" % e)
    heard = []
    done = threading.Event()

    def on_special(key, value, message):
        heard.append((key, value, message))
        done.set()
    mem.subscribeToEvent("DCM/Special", on_special)
    res = D.special("Diagnostic")
    done.wait(5)
    mem.unsubscribeToEvent("DCM/Special", on_special)
    check(res.command == "diagnostic" and res.boards and all(b.state for b in res.boards),
          "DCM special(\"Diagnostic\"): %d boards, %s" % (len(res.boards), res.text))
    check(heard and heard[0][0] == "DCM/Special" and heard[0][1].type_name == "special"
          and heard[0][2] == "",
          "subscribeToEvent with a callable: DCM/Special heard (%s)" %
          (str(heard[0][1]) if heard else "nothing",))
    mem.close()


def t_time():
    ts = [D.getTime(0) for _ in range(5)]
    mono = all(b >= a for a, b in zip(ts, ts[1:]))
    t1 = c.time()
    s = int(sysfs("time_ms"))
    t2 = c.time()
    check(mono and dcm.time_diff(s, t1) >= 0 and dcm.time_diff(t2, s) >= 0,
          "getTime is monotonic and brackets the kernel's time_ms (%d <= %d <= %d)" %
          (t1, s, t2))
    a = c.time(0)
    b = c.time(1000)
    a2 = c.time(0)
    check(1000 <= dcm.time_diff(b, a) <= 1000 + dcm.time_diff(a2, a),
          "getTime(1000) is 1000 ms ahead (%d, %d ms between the calls)" %
          (dcm.time_diff(b, a), dcm.time_diff(a2, a)))
    m0 = time.monotonic()
    time.sleep(0.2)
    d = dcm.time_diff(c.time(), a)
    m = (time.monotonic() - m0) * 1000
    check(180 <= d <= m + 30, "DCM time runs at 1 ms per ms (%d ms in %.0f ms)" % (d, m))


def t_frames():
    period_ms = c.info().period_us // 1000
    k = c.key(HYS)
    fr = list(c.frames(count=40, timeout=10.0))
    cyc = [f.cycle for f in fr]
    steps = [b - a for a, b in zip(cyc, cyc[1:])]
    ones = sum(1 for s in steps if s == 1)
    diag("frame cycles %d..%d, steps %r" % (cyc[0], cyc[-1], sorted(set(steps))))
    check(all(s >= 1 for s in steps), "40 frames with increasing cycle numbers")
    # Python under QEMU's TCG on a shared host may miss a cycle now and then;
    # frames every other cycle would give no +1 at all.
    check(ones > 0, "frames of cycles in a row: %d of %d steps are +1" % (ones, len(steps)))
    check_timing(ones >= len(steps) * 0.6 and max(steps) <= 5,
                 "frames arrive each cycle: %d of %d steps are +1, the longest %d" %
                 (ones, len(steps), max(steps)))
    dt = [dcm.time_diff(b.time, a.time) / (b.cycle - a.cycle) for a, b in zip(fr, fr[1:])]
    diag("ms per cycle between frames: %r" % sorted(set(round(x, 1) for x in dt)))
    # A cycle's DCM time is its start in ms: late cycles on a loaded host
    # spread them, never back.
    check(min(dt) > 0,
          "each frame's DCM time is later than the last one's, %.1f ms per cycle on average "
          "(period %d ms)" % (sum(dt) / len(dt), period_ms))
    f = fr[-1]
    check(len(f) == c.info().n_subdevices and isinstance(f[k], float)
          and f[k] == f[k.index] and f.values[k.index] == f[k],
          "a frame is a sequence of %d floats, indexed by a Key too" % len(f))
    now = c.time()
    check(dcm.time_diff(now, f.time) >= 0 and dcm.time_diff(now, f.time) < 5000,
          "the last frame's time is the kernel's recent past (%d ms)" %
          dcm.time_diff(now, f.time))


def t_snapshot():
    led = "ChestBoard/Led/Green/Actuator"
    c.set(led, 0.6)
    with c.snapshot() as snap:
        ok = wait_until(lambda: near(snap.read(led), 0.6, 0.01), 1)
        vals, cycle = snap.read_many([led, HYS])
        snap.check()
        check(ok and cycle > 0 and near(vals[0], c.get(led), 1e-9),
              "the mapped snapshot reads what get reads (%f, cycle %d)" % (vals[0], cycle))
    try:
        snap.read(led)
        check(False, "an unmapped snapshot refuses reads")
    except ValueError:
        check(True, "an unmapped snapshot refuses reads")


def t_events():
    with dcm.events(types=["watchdog", "safety"], index=0) as ev:
        with dcm.open() as w:
            w.watchdog_arm(50, "hold")
            w.set("HeadYaw/Position/Actuator", 0.0)
            got = []
            end = time.monotonic() + 3
            while time.monotonic() < end and not any(e.type_name == "watchdog" for e in got):
                got += ev.read(timeout=0.5)
            wd = [e for e in got if e.type_name == "watchdog"]
            check(bool(wd) and wd[0].value == os.getpid(),
                  "a watchdog that fires is an event: %s" % ((wd[0] if wd else got),))
            try:
                w.set("HeadYaw/Position/Actuator", 0.0)
                check(False, "a command after the watchdog fired raises WatchdogFired")
            except dcm.WatchdogFired as e:
                check(e.errno == errno.ETIMEDOUT,
                      "a command after the watchdog fired raises WatchdogFired: %s" % e)
            w.watchdog_disarm()
            w.set("HeadYaw/Position/Actuator", 0.0)
        # the brake rule: a free motor is braked while its board's other is on
        c.set("LShoulderRoll/Hardness/Actuator", 1)
        c.set("LShoulderPitch/Hardness/Actuator", -1)
        got = []
        end = time.monotonic() + 3
        while time.monotonic() < end and not any(e.rule == "brake" for e in got):
            got += ev.read(timeout=0.5)
        br = [e for e in got if e.rule == "brake"]
        check(bool(br) and br[0].device == "LShoulderPitch/Position/Actuator",
              "a safety rule acting is an event: %s" % ((br[0] if br else got),))
        c.set("LShoulderPitch/Hardness/Actuator", 0)
        c.set("LShoulderRoll/Hardness/Actuator", 0)


def t_errors():
    try:
        c.get("HeadYawx/Position/Sensor")
        check(False, "an unknown key raises NoSuchKeyError")
    except dcm.NoSuchKeyError as e:
        check(e.errno == errno.ENOENT and "HeadYawx/Position/Sensor" in str(e)
              and isinstance(e, KeyError),
              "an unknown key raises NoSuchKeyError naming it: %s" % e)
    try:
        D.set(["HeadYawx/Position/Actuator/Value", "ClearAll", [[0.1, D.getTime(0)]]])
        check(False, "NAOqi set on an unknown key raises")
    except dcm.NoSuchKeyError as e:
        check("HeadYawx/Position/Actuator/Value" in str(e),
              "NAOqi set on an unknown key raises NoSuchKeyError: %s" % e)
    bad = [
        (["HeadYaw/Position/Actuator/Value", "ClearAll", [0.5, 100]], TypeError),
        (["HeadYaw/Position/Actuator/Value", "ClearAll"], ValueError),
        (["HeadYaw/Position/Actuator/Value", "Clear", []], ValueError),
        (["HeadYaw/Position/Actuator/Value", "ClearAll", [[float("nan"), 1]]], ValueError),
        ("HeadYaw/Position/Actuator/Value", TypeError),
    ]
    for args, exc in bad:
        try:
            D.set(args)
            check(False, "set(%r) is refused" % (args,))
        except exc as e:
            check(True, "set(%r): %s: %s" % (args, exc.__name__, e))
    try:
        c.set(HYS, 0.1)
        check(False, "a command to a sensor is refused")
    except ValueError as e:
        check("not an actuator" in str(e), "a command to a sensor: ValueError: %s" % e)
    try:
        c.set_timed(HY, [[0.1, 1]] * 513)
        check(False, "513 commands are refused")
    except ValueError as e:
        check("at most 512" in str(e), "513 commands: ValueError: %s" % e)
    # the kernel's own refusal: a queue past 512 commands (Merge)
    t = c.time(5000)
    c.set_timed(HY, [[0.0, t + i] for i in range(300)], "ClearAll")
    try:
        c.set_timed(HY, [[0.0, t + 300 + i] for i in range(300)], "Merge")
        check(False, "a queue past 512 commands is refused")
    except dcm.DcmError as e:
        check(e.errno == errno.ENOSPC and "512" in str(e),
              "a queue past 512 commands: DcmError ENOSPC: %s" % e)
    c.clear(HY)
    with dcm.open() as x:
        pass
    try:
        x.get(HYS)
        check(False, "a closed controller refuses calls")
    except ValueError as e:
        check("closed" in str(e), "a closed controller refuses calls: %s" % e)


def t_threads():
    errs = []

    def reader():
        try:
            with dcm.open() as r:
                for _ in range(10):
                    r.get(HYS)
                    r.read_frame(timeout=1)
        except Exception as e:  # pylint: disable=broad-except
            errs.append(e)
    th = [threading.Thread(target=reader) for _ in range(3)]
    for t in th:
        t.start()
    for t in th:
        t.join(10)
    check(not errs and not any(t.is_alive() for t in th),
          "three threads with a handle each read values and frames (%r)" % errs)


start = time.monotonic()
for s in (t_open, t_set, t_timed, t_naoqi_set, t_memory, t_enumeration, t_naoqi_memory,
          t_aliases, t_time, t_frames,
          t_snapshot, t_events, t_errors, t_read_only, t_threads, t_cost):
    section(s)
c.set("HeadYaw/Hardness/Actuator", 0.0)
c.close()
diag("python test: %.1f s" % (time.monotonic() - start))
sys.exit(0)
