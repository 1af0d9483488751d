#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# check-data.sh - check the robot description files of userspace/data.
#
#   userspace/data/check-data.sh [--seeds DIR] [--write-seed-keys] [-v]
#
# 1. Validates Device.xml with device.rng and every preference file (body.xml,
#    head.xml, variants/*.xml) with preferences.rng (xmllint --relaxng), and
#    checks that the schemas still refuse a few wrong documents.
# 2. Checks the files the way dcmd and the kernel will (python3, standard
#    library only): names, uniqueness, Device= references (and, a house rule
#    of the shipped files, each Device declared before its SubDevices),
#    SubDeviceNumbers, bus addresses, types and typed keys against
#    kernel/model/dcm_types.c, key kinds and ranges, Min <= Max, Gain != 0, the
#    limits of include/uapi/linux/dcm.h; that every preference key names an
#    existing key a file may set, and that each file sets only the keys it
#    owns (Documentation/dcm/device-xml.rst, "Who owns a key").
# 3. Applies the Part rules (Documentation/dcm/device-xml.rst) to
#    Device.xml + body.xml + head.xml and checks that every key of
#    seed-keys.txt (the Device/SubDeviceList keys of seeds 000 and 001)
#    resolves to a kept subdevice that has that key, and that every kept
#    joint is calibrated.
# 4. Checks, for each variant, exactly which subdevices and devices its
#    Part rules drop (the table of the documentation).
# 5. Checks that the XML files are what gen-device-xml.py writes, and, when
#    the seeds are at hand (--seeds DIR, $DCM_SEEDS, or ../../../shared/seeds
#    from here), that seed-keys.txt is what they list.
#
# --write-seed-keys rewrites seed-keys.txt from the seeds. -v prints what each
# check counted. Exits 0 when everything holds, 1 listing every problem.

set -eu

here=$(cd "$(dirname "$0")" && pwd)

if ! command -v xmllint >/dev/null 2>&1; then
	echo "check-data: xmllint not found (Debian package libxml2-utils)" >&2
	exit 1
fi
if ! command -v python3 >/dev/null 2>&1; then
	echo "check-data: python3 not found" >&2
	exit 1
fi

exec python3 - "$here" "$@" <<'PYTHON'
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

HERE = sys.argv[1]
ARGS = sys.argv[2:]
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
VERBOSE = "-v" in ARGS
problems = []


def bad(msg):
    problems.append(msg)


def info(msg):
    if VERBOSE:
        print(f"check-data: {msg}")


def opt(name):
    if name in ARGS:
        i = ARGS.index(name)
        if i + 1 < len(ARGS):
            return ARGS[i + 1]
        sys.exit(f"check-data: {name} needs an argument")
    return None


for a in ARGS:
    if a.startswith("-") and a not in ("-v", "--seeds", "--write-seed-keys"):
        sys.exit(f"check-data: unknown option {a}")

DEVICE_XML = os.path.join(HERE, "Device.xml")
BODY_XML = os.path.join(HERE, "body.xml")
HEAD_XML = os.path.join(HERE, "head.xml")
VARIANTS = os.path.join(HERE, "variants")
SEED_KEYS = os.path.join(HERE, "seed-keys.txt")

# ---------------------------------------------------------------------------
# The kernel's tables: kernel/model/dcm_types.c and include/uapi/linux/dcm.h.

KINDS = {"INT": "int", "FLOAT": "float", "BOOL": "bool", "STRING": "string"}


def parse_types(path):
    src = open(path, encoding="utf-8").read()
    arrays = {}
    for m in re.finditer(r"static const struct dcm_key_desc (\w+)\[\] = \{(.*?)\n\};",
                         src, re.S):
        keys = {}
        for k in re.finditer(r'KEY\("(\w+)",\s*(\w+),\s*(\w+)\)', m.group(2)):
            keys[k.group(1)] = dict(kind=KINDS[k.group(2)], flag=k.group(3),
                                    min=None, max=None)
        for k in re.finditer(r'KEYR\("(\w+)",\s*(\w+),\s*(-?\d+),\s*(-?\d+)\)', m.group(2)):
            keys[k.group(1)] = dict(kind="int", flag=k.group(2),
                                    min=int(k.group(3)), max=int(k.group(4)))
        arrays[m.group(1)] = keys

    def table(name):
        m = re.search(r"static const struct %s %ss\[\] = \{(.*?)\n\};" % (name, name[4:]),
                      src, re.S)
        if not m:
            sys.exit(f"check-data: cannot find {name[4:]}s[] in {path}")
        out = {}
        for e in re.finditer(r'\{\s*\.name = "(\w+)"(.*?)\}', m.group(1), re.S):
            km = re.search(r"\.keys = (\w+)", e.group(2))
            fm = re.search(r"\.flags = ([\w |]+)", e.group(2))
            out[e.group(1)] = dict(keys=arrays[km.group(1)] if km else {},
                                   flags=fm.group(1).strip() if fm else "")
        return out

    return table("dcm_subdevice_type"), table("dcm_device_type")


def parse_limits(path):
    src = open(path, encoding="utf-8").read()
    return {m.group(1): int(m.group(2))
            for m in re.finditer(r"#define DCM_MAX_(\w+)\s+(\d+)", src)}


SUB_TYPES, DEV_TYPES = parse_types(os.path.join(ROOT, "kernel", "model", "dcm_types.c"))
LIMITS = parse_limits(os.path.join(ROOT, "include", "uapi", "linux", "dcm.h"))
info(f"kernel: {len(DEV_TYPES)} device types, {len(SUB_TYPES)} subdevice types")

# Keys every subdevice has; the first five are floats a file may set.
SUB_STD_SET = ["Value", "Gain", "Offset", "Min", "Max"]
SUB_STD = SUB_STD_SET + ["Ack", "Nack", "Error", "Type", "Device", "SubDeviceNumber"]
PARTS = ["Body", "Head", "HeadTouch", "LeftArm", "RightArm", "LeftWrist", "RightWrist",
         "LeftHand", "RightHand", "LeftHandTouch", "RightHandTouch", "Legs", "LeftFoot",
         "RightFoot"]
RESERVED = ("Device", "DeviceList", "SubDeviceList", "RobotConfig")

# ---------------------------------------------------------------------------
# Syntax of names and values (mirrors kernel/model/dcm_model.c).

COMP = re.compile(r"[A-Za-z0-9_.\-]+\Z")
DECIMAL = re.compile(r"[+\-]?(\d+(\.\d*)?|\.\d+)\Z")
INTEGER = re.compile(r"[+\-]?\d+\Z")


def path_ok(s, max_parts):
    if not s or len(s.encode()) >= LIMITS["NAME_LEN"]:
        return False
    parts = s.split("/")
    if len(parts) > max_parts:
        return False
    return all(COMP.match(p) and p not in (".", "..") for p in parts)


def string_ok(s):
    return (all(ord(c) >= 0x20 and ord(c) != 0x7F for c in s)
            and len(s.encode()) < LIMITS["STRING_LEN"])


def parse_value(kind, text, where):
    """The value of a typed key, or None after reporting."""
    if text is None:
        bad(f"{where}: no Value")
        return None
    if kind == "float":
        if not DECIMAL.match(text):
            bad(f"{where}: {text!r} is not a decimal number")
            return None
        return float(text)
    if kind == "int":
        if not INTEGER.match(text):
            bad(f"{where}: {text!r} is not an integer")
            return None
        return int(text)
    if kind == "bool":
        if text not in ("0", "1", "true", "false"):
            bad(f"{where}: {text!r} is not 0, 1, true or false")
            return None
        return text in ("1", "true")
    if kind == "string":
        if not string_ok(text):
            bad(f"{where}: string with control characters or of 256 bytes or more")
            return None
        return text
    bad(f"{where}: unknown Type {kind!r}")
    return None


def typed_key(keys, name, kind, text, where):
    """Check a typed key a file sets; return its value or None."""
    desc = keys.get(name)
    if desc is None:
        bad(f"{where}: the type has no key {name!r}")
        return None
    if desc["flag"] == "LIVE":
        bad(f"{where}: {name} is set by the robot (LIVE), not by a file")
        return None
    if kind != desc["kind"]:
        bad(f"{where}: {name} is a {desc['kind']}, not a {kind}")
        return None
    v = parse_value(kind, text, where)
    if v is not None and desc["min"] is not None and desc["min"] < desc["max"]:
        if not desc["min"] <= v <= desc["max"]:
            bad(f"{where}: {name}={v} is outside {desc['min']}-{desc['max']}")
            return None
    return v


def load(path):
    try:
        return ET.parse(path).getroot()
    except (OSError, ET.ParseError) as e:
        bad(f"{os.path.relpath(path, HERE)}: {e}")
        return None

# ---------------------------------------------------------------------------
# 1. Schemas.


def xmllint(schema, path):
    r = subprocess.run(["xmllint", "--noout", "--relaxng", os.path.join(HERE, schema), path],
                       capture_output=True, text=True)
    return r.returncode == 0, (r.stderr or r.stdout).strip()


PREF_FILES = [BODY_XML, HEAD_XML] + sorted(
    os.path.join(VARIANTS, f) for f in os.listdir(VARIANTS) if f.endswith(".xml"))

for schema, files in (("device.rng", [DEVICE_XML]), ("preferences.rng", PREF_FILES)):
    for f in files:
        ok, msg = xmllint(schema, f)
        if not ok:
            bad(f"{os.path.relpath(f, HERE)} does not validate against {schema}:\n{msg}")
        else:
            info(f"{os.path.relpath(f, HERE)} validates against {schema}")

# Documents the schemas must refuse.
SUB = ('<SubDevice Name="X/Y" Type="{t}" Device="A" SubDeviceNumber="{n}" Part="{p}" '
       'Min="0" Max="1"{extra}>{keys}</SubDevice>')
DEV = '<Device Name="A" Type="MotorBoard" Bus="b" Address="1" Part="Body"/>'


def devdoc(body):
    return f'<DeviceXml Version="1">{DEV}{body}</DeviceXml>'


def sub(t="Led", n="1", p="Body", extra="", keys=""):
    return SUB.format(t=t, n=n, p=p, extra=extra, keys=keys)


def pref(target, path, typ, value):
    return (f'<Preferences Target="{target}"><Key Path="{path}" Type="{typ}" '
            f'Value="{value}"/></Preferences>')


MUST_PASS = [
    ("device.rng", devdoc(sub())),
    ("device.rng", devdoc(sub().replace(' Part="Body"', '')).replace(' Part="Body"', '')),
    ("device.rng", devdoc(sub("Joint", keys='<Key Name="Kp" Type="int" Value="3"/>'))),
    ("preferences.rng", pref("Chest", "RobotConfig/Body/Device/Legs/Version", "int", "-1")),
    ("preferences.rng", pref("Main", "Device/SubDeviceList/A/Actuator/Kp", "int", "40")),
    ("preferences.rng", pref("Main", "RobotConfig/Arm/Device/Version", "float", "1.5")),
]
MUST_FAIL = [
    ("device.rng", '<DeviceXml Version="1"/>'),
    ("device.rng", devdoc(sub("Toaster"))),
    ("device.rng", devdoc(sub(p="Arm"))),
    ("device.rng", devdoc(sub(n="0"))),
    ("device.rng", devdoc(sub(n="256"))),
    ("device.rng", devdoc(sub(extra=' Gain="0.000"'))),
    ("device.rng", devdoc(sub(extra=' Value="1e3"'))),
    ("device.rng", devdoc(sub().replace('Name="X/Y"', 'Name="RobotConfig/X"'))),
    ("device.rng", devdoc(sub().replace('Name="X/Y"', 'Name="X/../Y"'))),
    ("device.rng", devdoc(sub().replace(' Min="0"', ''))),
    ("device.rng", devdoc(sub("Joint", keys='<Key Name="Kp" Type="float" Value="3"/>'))),
    ("device.rng", devdoc(sub("Joint", keys='<Key Name="MotorNumber" Type="int" Value="3"/>'))),
    ("device.rng", devdoc(sub("Temperature", keys='<Key Name="Status" Type="int" Value="1"/>'))),
    ("device.rng", devdoc(sub("Led", keys='<Key Name="Kp" Type="int" Value="1"/>'))),
    ("device.rng", devdoc("").replace('Address="1"', 'Address="256"')),
    ("device.rng", devdoc("").replace('Name="A"', 'Name="A/B"')),
    ("preferences.rng", pref("Body", "RobotConfig/Body/Type", "string", "NAO")),
    ("preferences.rng", pref("Chest", "RobotConfig/Head/Device/TouchBoard/Version", "int", "1")),
    ("preferences.rng", pref("Head", "RobotConfig/Body/Device/Legs/Version", "int", "1")),
    ("preferences.rng", pref("Main", "RobotConfig/Body/Type", "string", "NAO")),
    ("preferences.rng", pref("Main", "RobotConfig/Head/Device/TouchBoard/Version", "int", "1")),
    ("preferences.rng", pref("Main", "RobotConfig/Arm", "int", "1")),
    ("preferences.rng", pref("Chest", "RobotConfig/Body/Device/Legs/Version", "string", "1")),
    ("preferences.rng", pref("Chest", "Device/SubDeviceList/A/Sensor/Status", "int", "1")),
    ("preferences.rng", pref("Chest", "Device/SubDeviceList/A/Sensor/Gain", "int", "1")),
    ("preferences.rng", pref("Chest",
                             "Device/SubDeviceList/A/Sensor/jointZeroPosition", "int", "4096")),
    ("preferences.rng", pref("Chest", "Device/DeviceList/ChestBoard/BodyId", "string", "a&#9;b")),
]
with tempfile.TemporaryDirectory() as tmp:
    doc = os.path.join(tmp, "doc.xml")
    for expect, cases in ((True, MUST_PASS), (False, MUST_FAIL)):
        for schema, text in cases:
            with open(doc, "w", encoding="utf-8") as f:
                f.write(text)
            ok, _ = xmllint(schema, doc)
            if ok != expect:
                bad(f"{schema} {'refuses' if expect else 'accepts'} {text}")
info(f"schemas: {len(MUST_PASS)} good and {len(MUST_FAIL)} bad documents judged right")

# ---------------------------------------------------------------------------
# 2. Device.xml.

devices = {}      # name -> dict
subdevices = {}   # name -> dict
order = []


def check_device_xml(root):
    where0 = "Device.xml"
    if root.tag != "DeviceXml" or root.get("Version") != "1":
        bad(f"{where0}: the root must be <DeviceXml Version=\"1\">")
    names = set()
    addresses = {}
    numbers = {}
    for e in root:
        if not isinstance(e.tag, str):
            continue      # comments
        name = e.get("Name", "")
        where = f"{where0}: {e.tag} {name!r}"
        part = e.get("Part")
        if part is None:    # absent: Body for a device, its device's for a subdevice
            part = "Body" if e.tag == "Device" else devices.get(e.get("Device"), {}).get(
                "part", "Body")
        if part not in PARTS:
            bad(f"{where}: Part {part!r} is not a Part")
        if name in names:
            bad(f"{where}: duplicate name")
        names.add(name)
        if e.tag == "Device":
            if not path_ok(name, 1):
                bad(f"{where}: bad device name")
            t = DEV_TYPES.get(e.get("Type"))
            if t is None:
                bad(f"{where}: unknown device type {e.get('Type')!r}")
                t = dict(keys={})
            bus = e.get("Bus", "")
            if not path_ok(bus, 1):
                bad(f"{where}: bad bus name {bus!r}")
            addr = e.get("Address", "")
            if not re.match(r"\d{1,3}\Z", addr) or int(addr) > 255:
                bad(f"{where}: Address {addr!r} is not 0-255")
            elif (bus, int(addr)) in addresses:
                bad(f"{where}: {bus} address {addr} is taken by "
                    f"{addresses[(bus, int(addr))]}")
            else:
                addresses[(bus, int(addr))] = name
            keys = {}
            for k in e:
                if not isinstance(k.tag, str):
                    continue
                kw = f"{where} key {k.get('Name')}"
                if k.tag != "Key":
                    bad(f"{kw}: unexpected element {k.tag}")
                    continue
                if k.get("Name") in keys:
                    bad(f"{kw}: set twice")
                v = typed_key(t["keys"], k.get("Name"), k.get("Type"), k.get("Value"), kw)
                keys[k.get("Name")] = v
            devices[name] = dict(name=name, type=e.get("Type"), part=part, keys=keys,
                                 bus=bus, address=addr)
            order.append(("Device", name))
        elif e.tag == "SubDevice":
            if not path_ok(name, 16):
                bad(f"{where}: bad subdevice name")
            if name.split("/")[0] in RESERVED:
                bad(f"{where}: a subdevice name cannot start with {name.split('/')[0]}")
            t = SUB_TYPES.get(e.get("Type"))
            if t is None:
                bad(f"{where}: unknown subdevice type {e.get('Type')!r}")
                t = dict(keys={})
            dev = e.get("Device")
            if dev not in devices:
                bad(f"{where}: Device {dev!r} is not a Device declared before it "
                    "(dcmd takes any order; the shipped files declare each Device first)")
            num = e.get("SubDeviceNumber", "")
            if not re.match(r"\d{1,3}\Z", num) or not 1 <= int(num) <= 255:
                bad(f"{where}: SubDeviceNumber {num!r} is not 1-255")
            else:
                k = (dev, e.get("Type"), int(num))
                if k in numbers:
                    bad(f"{where}: SubDeviceNumber {num} of {k[1]} on {dev} is taken by "
                        f"{numbers[k]}")
                numbers[k] = name
            std = {"Value": 0.0, "Gain": 1.0, "Offset": 0.0}
            for a in SUB_STD_SET:
                text = e.get(a)
                if text is None:
                    if a in ("Min", "Max"):
                        bad(f"{where}: no {a}")
                    continue
                if not DECIMAL.match(text):
                    bad(f"{where}: {a}={text!r} is not a decimal number")
                    continue
                std[a] = float(text)
            if "Min" in std and "Max" in std and std["Min"] > std["Max"]:
                bad(f"{where}: Min is above Max")
            if std["Gain"] == 0:
                bad(f"{where}: Gain is 0")
            keys = {}
            for k in e:
                if not isinstance(k.tag, str):
                    continue
                kw = f"{where} key {k.get('Name')}"
                if k.tag != "Key":
                    bad(f"{kw}: unexpected element {k.tag}")
                    continue
                if k.get("Name") in keys:
                    bad(f"{kw}: set twice")
                keys[k.get("Name")] = typed_key(t["keys"], k.get("Name"), k.get("Type"),
                                                k.get("Value"), kw)
            subdevices[name] = dict(name=name, type=e.get("Type"), device=dev, part=part,
                                    std=std, keys=keys)
            order.append(("SubDevice", name))
        else:
            bad(f"{where0}: unexpected element {e.tag}")
    if not devices:
        bad(f"{where0}: no Device")
    if len(devices) > LIMITS["DEVICES"]:
        bad(f"{where0}: {len(devices)} devices, more than the kernel's {LIMITS['DEVICES']}")
    if len(subdevices) > LIMITS["SUBDEVICES"]:
        bad(f"{where0}: {len(subdevices)} subdevices, more than {LIMITS['SUBDEVICES']}")


root = load(DEVICE_XML)
if root is not None:
    check_device_xml(root)
info(f"Device.xml: {len(devices)} devices, {len(subdevices)} subdevices")

# ---------------------------------------------------------------------------
# Preference files.


def owner(p):
    """The file that owns the key p (desc_key_owner() of userspace/desc/desc.c)."""
    key = p.rpartition("/")[2]
    for side, t in (("Body", "Chest"), ("Head", "Head")):
        if p == f"RobotConfig/{side}" or p.startswith(f"RobotConfig/{side}/"):
            return t
    if p.startswith("Device/DeviceList/") and key in ("BodyId", "BodyNickName"):
        return "Chest"
    if p.startswith("Device/SubDeviceList/"):
        name = p[len("Device/SubDeviceList/"):].rpartition("/")[0]
        if key == "jointZeroPosition":
            return "Chest"
        if key in ("Gain", "Offset") and subdevices.get(name, {}).get("type") == "FSR":
            return "Chest"
    return "Main"


def check_prefs(path):
    """[(kind of target, target name, key, value)] of a preference file."""
    rel = os.path.relpath(path, HERE)
    root = load(path)
    if root is None:
        return None, []
    target = root.get("Target")
    if root.tag != "Preferences" or target not in ("Main", "Chest", "Head"):
        bad(f"{rel}: the root must be <Preferences Target=\"Main|Chest|Head\">")
    side = {"Chest": "Body", "Head": "Head"}.get(target)
    out, seen = [], set()
    for k in root:
        if not isinstance(k.tag, str):
            continue
        p, kind, text = k.get("Path", ""), k.get("Type"), k.get("Value")
        where = f"{rel}: {p}"
        if k.tag != "Key":
            bad(f"{rel}: unexpected element {k.tag}")
            continue
        if p in seen:
            bad(f"{where}: set twice")
        seen.add(p)
        if owner(p) != target:
            bad(f"{where}: the {owner(p)} file owns this key, not the {target} file")
        if p.startswith("RobotConfig/"):
            if not path_ok(p, 16):
                bad(f"{where}: bad RobotConfig path")
            if side and p.startswith(f"RobotConfig/{side}/Device/") and kind != "int":
                bad(f"{where}: configuration versions are ints")
            v = parse_value(kind, text, where)
            out.append(("robot", p, None, v))
        elif p.startswith("Device/SubDeviceList/"):
            name, _, key = p[len("Device/SubDeviceList/"):].rpartition("/")
            s = subdevices.get(name)
            if s is None:
                bad(f"{where}: no subdevice {name!r} in Device.xml")
                continue
            if key in SUB_STD_SET:
                if kind != "float":
                    bad(f"{where}: {key} is a float")
                    continue
                v = parse_value(kind, text, where)
                if key == "Gain" and v == 0:
                    bad(f"{where}: Gain is 0")
                out.append(("sub", name, key, v))
            else:
                keys = SUB_TYPES.get(s["type"], dict(keys={}))["keys"]
                v = typed_key(keys, key, kind, text, where)
                out.append(("subkey", name, key, v))
        elif p.startswith("Device/DeviceList/"):
            name, _, key = p[len("Device/DeviceList/"):].rpartition("/")
            d = devices.get(name)
            if d is None:
                bad(f"{where}: no device {name!r} in Device.xml")
                continue
            v = typed_key(DEV_TYPES.get(d["type"], dict(keys={}))["keys"], key, kind, text,
                          where)
            out.append(("devkey", name, key, v))
        else:
            bad(f"{where}: not a Device/SubDeviceList, Device/DeviceList or RobotConfig path")
    info(f"{rel}: Target={target}, {len(out)} keys")
    return target, out


prefs = {}
for f in PREF_FILES:
    prefs[f] = check_prefs(f)
for f, want in ((BODY_XML, "Chest"), (HEAD_XML, "Head")):
    if prefs[f][0] != want:
        bad(f"{os.path.basename(f)}: Target must be {want}")
for f in PREF_FILES:
    base = os.path.basename(f)
    if os.path.dirname(f) == VARIANTS:
        want = "Head" if base.startswith("head-") else "Chest"
        if prefs[f][0] != want:
            bad(f"variants/{base}: Target must be {want}")

# ---------------------------------------------------------------------------
# 3. The robot: Device.xml, then the Chest file, then the Head file.


def version(cfg, key, absent):
    v = cfg.get(key, absent)
    return v if isinstance(v, int) and not isinstance(v, bool) else absent


def kept_parts(cfg):
    """The Part rules of Documentation/dcm/device-xml.rst."""
    b, h = "RobotConfig/Body/Device/", "RobotConfig/Head/Device/"
    parts = {"Body", "Head"}
    if version(cfg, h + "TouchBoard/Version", 0) >= 1:
        parts.add("HeadTouch")
    for side in ("Left", "Right"):
        arm = version(cfg, f"{b}{side}Arm/Version", 1)
        hand = version(cfg, f"{b}Hand/{side}/Version", 0)
        if arm != -1:
            parts.add(f"{side}Arm")
            if arm == 2 or hand >= 1:
                parts.add(f"{side}Wrist")
            if hand >= 1:
                parts.add(f"{side}Hand")
                if hand == 3:
                    parts.add(f"{side}HandTouch")
    if version(cfg, b + "Legs/Version", 1) != -1:
        parts.add("Legs")
        for side in ("Left", "Right"):
            if version(cfg, f"{b}Foot/{side}/Version", 1) != 0:
                parts.add(f"{side}Foot")
    return parts


def robot(body, head):
    """Layer the files; return (config, kept devices, kept subdevices, values)."""
    cfg = {}
    val = {n: dict(s["std"], **s["keys"]) for n, s in subdevices.items()}
    dval = {n: dict(d["keys"]) for n, d in devices.items()}
    for f in (body, head):
        for what, name, key, v in prefs[f][1]:
            if what == "robot":
                cfg[name] = v
            elif what in ("sub", "subkey"):
                val[name][key] = v
            else:
                dval[name][key] = v
    parts = kept_parts(cfg)
    kdev = {n for n, d in devices.items() if d["part"] in parts}
    ksub = {n for n, s in subdevices.items() if s["part"] in parts and s["device"] in kdev}
    return cfg, kdev, ksub, val, dval


cfg, kdev, ksub, val, dval = robot(BODY_XML, HEAD_XML)
if ksub != set(subdevices) or kdev != set(devices):
    bad("body.xml + head.xml drop " +
        ", ".join(sorted((set(devices) - kdev) | (set(subdevices) - ksub))) +
        ": the default robot must have everything")
info(f"default robot: parts {sorted(kept_parts(cfg))}")

for n in sorted(ksub):
    s = subdevices[n]
    if s["type"] == "JointPosition" and not val[n].get("jointZeroPosition"):
        bad(f"{n}: not calibrated by body.xml (jointZeroPosition 0)")
    v = val[n]
    if v["Min"] > v["Max"]:
        bad(f"{n}: Min above Max once the preference files are applied")
for d in ("BodyId", "BodyNickName"):
    if not dval.get("ChestBoard", {}).get(d):
        bad(f"body.xml: no ChestBoard {d}")

# Seed keys.


def seed_keys(d):
    out = set()
    for f in sorted(os.listdir(d)):
        if not (f.startswith("000_") or f.startswith("001_")):
            continue
        text = open(os.path.join(d, f), encoding="utf-8", errors="replace").read()
        for m in re.finditer(r"Device/SubDeviceList/[A-Za-z0-9_./\-]*", text):
            k = re.sub(r"/+", "/", m.group(0)).rstrip("/.")
            if k.count("/") >= 3:
                out.add(k)
    return out


seeds = opt("--seeds") or os.environ.get("DCM_SEEDS")
if not seeds:
    guess = os.path.normpath(os.path.join(HERE, "..", "..", "..", "shared", "seeds"))
    seeds = guess if os.path.isdir(guess) else None
if seeds:
    want = seed_keys(seeds)
    if "--write-seed-keys" in ARGS:
        with open(SEED_KEYS, "w", encoding="utf-8") as f:
            f.write("".join(k + "\n" for k in sorted(want)))
    have = set()
    if os.path.exists(SEED_KEYS):
        have = set(open(SEED_KEYS, encoding="utf-8").read().split())
    if have != want:
        bad(f"seed-keys.txt differs from the keys of {seeds} "
            f"(missing {len(want - have)}, extra {len(have - want)}); "
            "rerun with --write-seed-keys")
    info(f"seed-keys.txt matches the {len(want)} keys of seeds 000 and 001 in {seeds}")
elif "--write-seed-keys" in ARGS:
    sys.exit("check-data: --write-seed-keys needs the seeds (--seeds DIR)")

lines = open(SEED_KEYS, encoding="utf-8").read().splitlines()
if lines != sorted(set(lines)):
    bad("seed-keys.txt is not sorted and unique")
for key in lines:
    if not key.startswith("Device/SubDeviceList/"):
        bad(f"seed-keys.txt: {key}: not a Device/SubDeviceList key")
        continue
    name, _, k = key[len("Device/SubDeviceList/"):].rpartition("/")
    s = subdevices.get(name)
    if s is None:
        bad(f"{key}: no subdevice {name} in Device.xml")
    elif name not in ksub:
        bad(f"{key}: {name} (Part {s['part']}) is dropped by body.xml + head.xml")
    elif k not in SUB_STD and k not in SUB_TYPES.get(s["type"], dict(keys={}))["keys"]:
        bad(f"{key}: a {s['type']} has no key {k}")
info(f"seed-keys.txt: {len(lines)} keys, each on a kept subdevice that has it")

# ---------------------------------------------------------------------------
# 4. Variants: exactly what each drops.

LEG = ["HipYawPitch", "HipRoll", "HipPitch", "KneePitch", "AnklePitch", "AnkleRoll"]
EXPECT = {
    # file: (replaces, dropped subdevice name prefixes, dropped devices)
    "body-no-left-hand.xml": ("body", ["LHand/"], ["LHandBoard"]),
    "body-no-legs.xml": ("body", [s + j + "/" for s in "LR" for j in LEG] + ["LFoot/", "RFoot/"],
                         [s + b for s in "LR" for b in ("PelvisBoard", "HipBoard", "KneeBoard",
                                                         "AnkleBoard", "FootBoard")]),
    "body-normal-arms.xml": ("body", ["LWristYaw/", "LHand/", "RWristYaw/", "RHand/"],
                             ["LForearmBoard", "LHandBoard", "RForearmBoard", "RHandBoard"]),
    "body-uncalibrated.xml": ("body", [], []),
    "head-no-touch.xml": ("head", ["Head/Touch/", "Head/Led/"], ["TouchBoard"]),
}
found = sorted(os.path.basename(f) for f in PREF_FILES if os.path.dirname(f) == VARIANTS)
if found != sorted(EXPECT):
    bad(f"variants/: files {found}, expected {sorted(EXPECT)}")
for base, (repl, prefixes, devs) in EXPECT.items():
    f = os.path.join(VARIANTS, base)
    if f not in prefs:
        continue
    vcfg, vkdev, vksub, vval, _ = robot(f if repl == "body" else BODY_XML,
                                        f if repl == "head" else HEAD_XML)
    dropped = set(subdevices) - vksub
    want = {n for n in subdevices if any(n.startswith(p) for p in prefixes)}
    if dropped != want:
        bad(f"variants/{base}: drops {sorted(dropped - want)} unexpectedly, "
            f"keeps {sorted(want - dropped)} unexpectedly")
    if set(devices) - vkdev != set(devs):
        bad(f"variants/{base}: drops devices {sorted(set(devices) - vkdev)}, "
            f"expected {sorted(devs)}")
    zero = sorted(n for n in vksub if subdevices[n]["type"] == "JointPosition"
                  and not vval[n].get("jointZeroPosition"))
    if base == "body-uncalibrated.xml":
        if len(zero) != sum(1 for n in vksub if subdevices[n]["type"] == "JointPosition"):
            bad(f"variants/{base}: some joints are calibrated")
    elif zero:
        bad(f"variants/{base}: {', '.join(zero)} not calibrated")
    ignored = sum(1 for what, name, _, _ in prefs[f][1]
                  if what in ("sub", "subkey") and name not in vksub)
    info(f"variants/{base}: {len(vksub)} subdevices and {len(vkdev)} devices kept, "
         f"{ignored} preference keys aimed at dropped subdevices (ignored)")

# ---------------------------------------------------------------------------
# 5. Generator.

gen = os.path.join(HERE, "gen-device-xml.py")
if os.path.exists(gen):
    r = subprocess.run([sys.executable, gen, "--check"], capture_output=True, text=True)
    if r.returncode:
        bad("the XML files are not gen-device-xml.py's output:\n" + r.stderr.strip())
    else:
        info("the XML files are gen-device-xml.py's output")

if problems:
    for p in problems:
        print(f"check-data: {p}", file=sys.stderr)
    print(f"check-data: {len(problems)} problem(s)", file=sys.stderr)
    sys.exit(1)
print(f"check-data: ok: {len(devices)} devices, {len(subdevices)} subdevices, "
      f"{len(lines)} seed keys present, {len(PREF_FILES)} preference files, "
      f"{len(EXPECT)} variants")
PYTHON
