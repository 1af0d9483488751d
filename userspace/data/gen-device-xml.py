#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Generate the robot description files of userspace/data.

    gen-device-xml.py            write Device.xml, body.xml, head.xml and
                                 variants/*.xml next to this script
    gen-device-xml.py --check    write nothing; exit 1 if a file in the tree
                                 differs from what this script would write
    gen-device-xml.py -o DIR     write into DIR instead

The files in the tree are exactly this script's output: edit the tables
below, never the XML. The format is Documentation/dcm/device-xml.rst.
"""

import argparse
import math
import os
import random
import sys

# --------------------------------------------------------------------------
# Number formatting: plain decimals, no exponent, no trailing zeros.

def num(x, places=10):
    """A float as a plain decimal string ("0.0015339808", "-1", "2.0857")."""
    s = f"{x:.{places}f}".rstrip("0").rstrip(".")
    if s in ("-0", ""):
        s = "0"
    return s


TWO_PI = 2.0 * math.pi
GAIN_POS_ACT = TWO_PI / 65536      # 16-bit command: 0-65535 is 0-360 deg
GAIN_POS_SENS = TWO_PI / 4096      # 12-bit MRE: 0-4095 is 0-360 deg
GAIN_HAND = 0.001                  # hand aperture in 1/1000
GAIN_HARDNESS = 0.001              # signed per-mil of the current limit
GAIN_CURRENT = 0.001               # mA
GAIN_LED_256 = 1.0 / 255           # chest, feet: 8 bits
GAIN_LED_64 = 1.0 / 63             # eyes: 6 bits
GAIN_LED_16 = 1.0 / 15             # ears, head: 4 bits
G = 9.80665

# --------------------------------------------------------------------------
# Joints.
#
# Motor types and reduction ratios are those of the NAO V4/V5 hardware
# documentation: type 1 (legs), type 2 (wrist, hand), type 3 (head, arms).
MOTOR = {
    # type: (current limit A, Kp, Ki, Kd)
    1: (2.0, 48, 0, 24),
    2: (0.5, 24, 0, 8),
    3: (1.2, 32, 0, 16),
}
RATIO = {
    (1, "A"): 201.3, (1, "B"): 130.85,
    (2, "A"): 50.61, (2, "B"): 36.24,
    (3, "A"): 150.27, (3, "B"): 173.22,
}

# name: (min, max, motor type, ratio)  -- NAO V5 joint limits, rad
JOINT = {
    "HeadYaw": (-2.0857, 2.0857, 3, "A"),
    "HeadPitch": (-0.6720, 0.5149, 3, "B"),
    "LShoulderPitch": (-2.0857, 2.0857, 3, "A"),
    "LShoulderRoll": (-0.3142, 1.3265, 3, "B"),
    "LElbowYaw": (-2.0857, 2.0857, 3, "A"),
    "LElbowRoll": (-1.5446, -0.0349, 3, "B"),
    "LWristYaw": (-1.8238, 1.8238, 2, "A"),
    "LHand": (0.0, 1.0, 2, "B"),
    "RShoulderPitch": (-2.0857, 2.0857, 3, "A"),
    "RShoulderRoll": (-1.3265, 0.3142, 3, "B"),
    "RElbowYaw": (-2.0857, 2.0857, 3, "A"),
    "RElbowRoll": (0.0349, 1.5446, 3, "B"),
    "RWristYaw": (-1.8238, 1.8238, 2, "A"),
    "RHand": (0.0, 1.0, 2, "B"),
    "LHipYawPitch": (-1.145303, 0.740810, 1, "A"),
    "LHipRoll": (-0.379472, 0.790477, 1, "A"),
    "LHipPitch": (-1.535889, 0.484090, 1, "B"),
    "LKneePitch": (-0.092346, 2.112528, 1, "B"),
    "LAnklePitch": (-1.189516, 0.922747, 1, "B"),
    "LAnkleRoll": (-0.397880, 0.769001, 1, "A"),
    "RHipYawPitch": (-1.145303, 0.740810, 1, "A"),
    "RHipRoll": (-0.790477, 0.379472, 1, "A"),
    "RHipPitch": (-1.535889, 0.484090, 1, "B"),
    "RKneePitch": (-0.092346, 2.112528, 1, "B"),
    "RAnklePitch": (-1.189516, 0.922747, 1, "B"),
    "RAnkleRoll": (-0.769001, 0.397880, 1, "A"),
}

# --------------------------------------------------------------------------
# Devices, in file order, grouped. Each group: (comment, [devices]); a
# device: (name, type, bus, address, part, comment, [subdevice specs]).

def sub(name, typ, number, part, mn, mx, gain=None, offset=None, value=None, keys=()):
    return dict(name=name, type=typ, number=number, part=part, min=mn, max=mx,
                gain=gain, offset=offset, value=value, keys=list(keys))


def joint_subs(joint, motor, part):
    """The five subdevices of a joint driven by motor @motor of its board."""
    mn, mx, mtype, ratio = JOINT[joint]
    ilim, kp, ki, kd = MOTOR[mtype]
    hand = joint.endswith("Hand")
    two_mre = mtype == 1
    if two_mre:
        mre_joint, mre_motor = 2 * motor - 1, 2 * motor
    else:
        mre_joint, mre_motor = motor, 0
    # An actuator starts at the value nearest 0 inside its range.
    start = min(max(0.0, mn), mx)
    return [
        sub(f"{joint}/Position/Actuator", "Joint", motor, part, mn, mx,
            gain=GAIN_HAND if hand else GAIN_POS_ACT,
            value=start if start else None,
            keys=[("Kp", "int", kp), ("Ki", "int", ki), ("Kd", "int", kd),
                  ("MotorNumber", "int", motor),
                  ("InvertControlDirection", "bool", "false")]),
        sub(f"{joint}/Position/Sensor", "JointPosition", motor, part, mn, mx,
            gain=GAIN_HAND if hand else GAIN_POS_SENS,
            keys=[("GearRatio", "float", num(RATIO[(mtype, ratio)])),
                  ("SensorType", "string", "MRE_JointMotor" if two_mre else "MRE_Joint"),
                  ("jointZeroPosition", "int", 0),
                  ("positionChainMREJoint", "int", mre_joint),
                  ("positionChainMREMotor", "int", mre_motor)]),
        sub(f"{joint}/Hardness/Actuator", "JointHardness", motor, part, -1, 1,
            gain=GAIN_HARDNESS),
        sub(f"{joint}/ElectricCurrent/Sensor", "Current", motor, part, 0, ilim,
            gain=GAIN_CURRENT),
        sub(f"{joint}/Temperature/Sensor", "Temperature", motor, part, 0, 100),
    ]


# Device names are NAOqi's where NAOqi has the board (ChestBoard, HeadBoard
# for the neck motors, EarLeds, LeftShoulderBoard, LeftArmBoard for the
# elbow, LeftHandBoard for the wrist and hand motors, LeftHipBoard,
# LeftThighBoard, LeftShinBoard, LeftFootBoard...): public NAOqi clients read
# Device/DeviceList/<name>/Available, Ack, Nack and Error by these names.
# Boards NAOqi does not have are named in its pattern (LeftPelvisBoard,
# LeftHandTouchBoard, HeadCPU). The table and its sources:
# Documentation/dcm/device-xml.rst, "Device names".
SIDE = {"L": "Left", "R": "Right"}


def motor_board(name, bus, address, part, joints, comment):
    """joints: [(joint, part of its subdevices)], motor numbers 1, 2."""
    subs = []
    for i, (joint, jpart) in enumerate(joints, 1):
        subs += joint_subs(joint, i, jpart)
    return (name, "MotorBoard", bus, address, part, comment, subs)


def leds(prefix, names, part, gain, first=1):
    return [sub(f"{prefix}/{n}/Actuator", "Led", first + i, part, 0, 1, gain=gain)
            for i, n in enumerate(names)]


# FSR positions in the foot frame (m), NAO hardware documentation.
FSR_POS = {
    "L": {"FrontLeft": (0.07025, 0.0299), "FrontRight": (0.07025, -0.0231),
          "RearLeft": (-0.03025, 0.0299), "RearRight": (-0.02965, -0.0191)},
    "R": {"FrontLeft": (0.07025, 0.0231), "FrontRight": (0.07025, -0.0299),
          "RearLeft": (-0.03025, 0.0191), "RearRight": (-0.02965, -0.0299)},
}
FSR_NAMES = ["FrontLeft", "FrontRight", "RearLeft", "RearRight"]


def foot_board(side, bus, address):
    foot = f"{side}Foot"
    part = "LeftFoot" if side == "L" else "RightFoot"
    subs = leds(f"{foot}/Led", ["Red", "Green", "Blue"], part, GAIN_LED_256)
    subs += [sub(f"{foot}/Bumper/Left/Sensor", "Switch", 1, part, 0, 1),
             sub(f"{foot}/Bumper/Right/Sensor", "Switch", 2, part, 0, 1)]
    for i, f in enumerate(FSR_NAMES, 1):
        x, y = FSR_POS[side][f]
        subs.append(sub(f"{foot}/FSR/{f}/Sensor", "FSR", i, part, 0, 25, gain=0.001,
                        keys=[("XPosition", "float", num(x)),
                              ("YPosition", "float", num(y))]))
    subs.append(sub(f"{foot}/FSR/TotalWeight/Sensor", "FSRTotalWeight", 1, part, 0, 100))
    subs.append(sub(f"{foot}/FSR/CenterOfPressure/X/Sensor", "CenterOfPressure", 1, part,
                    -0.05, 0.1))
    subs.append(sub(f"{foot}/FSR/CenterOfPressure/Y/Sensor", "CenterOfPressure", 2, part,
                    -0.05, 0.05))
    return (f"{SIDE[side]}FootBoard", "FootBoard", bus, address, part,
            f"{'left' if side == 'L' else 'right'} foot: RGB LED, two bumpers, four FSR",
            subs)


def hand_board(side, bus, address):
    part = "LeftHandTouch" if side == "L" else "RightHandTouch"
    subs = [sub(f"{side}Hand/Touch/{t}/Sensor", "Touch", i, part, 0, 1)
            for i, t in enumerate(["Back", "Left", "Right"], 1)]
    return (f"{SIDE[side]}HandTouchBoard", "HandBoard", bus, address, part,
            f"{'left' if side == 'L' else 'right'} hand capacitive touch (V3.3 hand)", subs)


DEG_EYE = ["0Deg", "45Deg", "90Deg", "135Deg", "180Deg", "225Deg", "270Deg", "315Deg"]
DEG_EAR = ["0Deg", "36Deg", "72Deg", "108Deg", "144Deg", "180Deg", "216Deg", "252Deg",
           "288Deg", "324Deg"]


def face_leds():
    out, n = [], 1
    for color in ["Red", "Green", "Blue"]:
        for side in ["Left", "Right"]:
            out += leds(f"Face/Led/{color}/{side}", DEG_EYE, "Head", GAIN_LED_64, n)
            n += len(DEG_EYE)
    return out


def ear_leds():
    return (leds("Ears/Led/Left", DEG_EAR, "Head", GAIN_LED_16, 1) +
            leds("Ears/Led/Right", DEG_EAR, "Head", GAIN_LED_16, 11))


def head_touch():
    subs = [sub(f"Head/Touch/{t}/Sensor", "Touch", i, "HeadTouch", 0, 1)
            for i, t in enumerate(["Front", "Middle", "Rear"], 1)]
    names = ["Front/Left/0", "Front/Left/1", "Front/Right/0", "Front/Right/1",
             "Middle/Left/0", "Middle/Right/0",
             "Rear/Left/0", "Rear/Left/1", "Rear/Left/2",
             "Rear/Right/0", "Rear/Right/1", "Rear/Right/2"]
    subs += leds("Head/Led", names, "HeadTouch", GAIN_LED_16)
    return subs


def inertial():
    s = []
    # NAOqi 2.x names, SI units.
    for i, a in enumerate("XYZ", 1):
        s.append(sub(f"InertialSensor/Accelerometer{a}/Sensor", "Accelerometer", i, "Body",
                     -round(2 * G, 4), round(2 * G, 4), gain=G / 1024))
    for i, a in enumerate("XYZ", 1):
        s.append(sub(f"InertialSensor/Gyroscope{a}/Sensor", "Gyrometer", i, "Body",
                     -round(math.radians(500), 4), round(math.radians(500), 4),
                     gain=math.radians(500) / 32768))
    for i, a in enumerate("XYZ", 1):
        s.append(sub(f"InertialSensor/Angle{a}/Sensor", "Angle", i, "Body",
                     -3.1416, 3.1416, gain=0.0001))
    # Old names (seed 000): raw units. Accelerometer 8 bits, g is about 56,
    # Y negated; gyrometer 12-bit ADC negated, rest near -2000.
    s.append(sub("InertialSensor/AccX/Sensor", "Accelerometer", 4, "Body", -128, 127))
    s.append(sub("InertialSensor/AccY/Sensor", "Accelerometer", 5, "Body", -127, 128,
                 gain=-1))
    s.append(sub("InertialSensor/AccZ/Sensor", "Accelerometer", 6, "Body", -128, 127))
    s.append(sub("InertialSensor/GyrX/Sensor", "Gyrometer", 4, "Body", -4095, 0, gain=-1))
    s.append(sub("InertialSensor/GyrY/Sensor", "Gyrometer", 5, "Body", -4095, 0, gain=-1))
    # NAOqi 1.14's name of the Z rate (3-axis boards): the old ADC has no Z
    # channel, so Gyrometer 7 is the Z rate of the new register, in rad/s.
    s.append(sub("InertialSensor/GyrZ/Sensor", "Gyrometer", 7, "Body",
                 -round(math.radians(500), 4), round(math.radians(500), 4),
                 gain=math.radians(500) / 32768))
    s.append(sub("InertialSensor/GyrRef/Sensor", "Gyrometer", 6, "Body", -4095, 0, gain=-1))
    return s


def groups():
    chest = [
        ("ChestBoard", "ChestBoard", "I2C-chest", 32, "Body",
         "chest board: button, RGB LED, LED state; holds BodyId and BodyNickName",
         leds("ChestBoard/Led", ["Red", "Green", "Blue"], "Body", GAIN_LED_256) + [
             sub("ChestBoard/Led/State/Actuator", "LedState", 1, "Body", 0, 255),
             sub("ChestBoard/Button/Sensor", "Switch", 1, "Body", 0, 1)]),
        ("Battery", "Battery", "I2C-chest", 11, "Body",
         "smart battery (SBS): current in mA, charge in %, temperature in 0.1 K",
         [sub("Battery/Current/Sensor", "Current", 1, "Body", -5, 5, gain=0.001),
          sub("Battery/Charge/Sensor", "Charge", 1, "Body", 0, 1, gain=0.01),
          sub("Battery/Temperature/Sensor", "Temperature", 1, "Body", 0, 80,
              gain=0.1, offset=-273.15)]),
        ("USBoard", "USBoard", "I2C-chest", 112, "Body",
         "ultrasound board: one actuator (mode), distances in cm",
         [sub("US/Actuator", "US", 1, "Body", 0, 127),
          sub("US/Sensor", "USSensor", 1, "Body", 0, 2.55, gain=0.01),
          sub("US/Left/Sensor", "USEchoSensor", 1, "Body", 0, 2.55, gain=0.01),
          sub("US/Right/Sensor", "USEchoSensor", 2, "Body", 0, 2.55, gain=0.01)]),
        ("InertialSensor", "InertialBoard", "SPI-chest", 0, "Body",
         "inertial board: new names in SI units, then the old names in raw units",
         inertial()),
    ]
    head = [
        ("HeadCPU", "HeadBoard", "I2C-head", 76, "Head",
         "head CPU board: CPU temperature in millidegrees (hwmon)",
         [sub("Head/Temperature/Sensor", "Temperature", 1, "Head", 0, 105, gain=0.001)]),
        ("FaceBoard", "FaceBoard", "I2C-head", 64, "Head",
         "eye LEDs: 3 colours x 2 eyes x 8 positions, 6 bits each", face_leds()),
        ("EarLeds", "EarBoard", "I2C-head", 65, "Head",
         "ear LEDs: blue, 2 ears x 10 positions, 4 bits each", ear_leds()),
        ("TouchBoard", "TouchBoard", "I2C-head", 72, "HeadTouch",
         "capacitive head: 3 touch sensors and the 12 LEDs around them (4 bits)",
         head_touch()),
        motor_board("HeadBoard", "RS485-1", 1, "Head",
                    [("HeadYaw", "Head"), ("HeadPitch", "Head")],
                    "neck: head joints (NAOqi's HeadBoard)"),
    ]

    def arm(side, bus):
        s = "L" if side == "Left" else "R"
        return [
            motor_board(f"{side}ShoulderBoard", bus, 2, f"{side}Arm",
                        [(f"{s}ShoulderPitch", f"{side}Arm"),
                         (f"{s}ShoulderRoll", f"{side}Arm")], "shoulder"),
            motor_board(f"{side}ArmBoard", bus, 3, f"{side}Arm",
                        [(f"{s}ElbowYaw", f"{side}Arm"), (f"{s}ElbowRoll", f"{side}Arm")],
                        "elbow (NAOqi's arm board)"),
            motor_board(f"{side}HandBoard", bus, 4, f"{side}Wrist",
                        [(f"{s}WristYaw", f"{side}Wrist"), (f"{s}Hand", f"{side}Hand")],
                        "forearm: wrist and hand motors, NAOqi's hand board (Part of "
                        "the board: the wrist, always there when the hand is)"),
            hand_board(s, bus, 5),
        ]

    def leg(side, bus):
        s = "L" if side == "Left" else "R"
        return [
            motor_board(f"{side}PelvisBoard", bus, 1, "Legs", [(f"{s}HipYawPitch", "Legs")],
                        "hip yaw-pitch" + (" (coupled to LHipYawPitch on the real robot; "
                                           "own subdevices here)" if s == "R" else "")),
            motor_board(f"{side}HipBoard", bus, 2, "Legs",
                        [(f"{s}HipRoll", "Legs"), (f"{s}HipPitch", "Legs")], "hip"),
            motor_board(f"{side}ThighBoard", bus, 3, "Legs", [(f"{s}KneePitch", "Legs")],
                        "knee (NAOqi's thigh board)"),
            motor_board(f"{side}ShinBoard", bus, 4, "Legs",
                        [(f"{s}AnklePitch", "Legs"), (f"{s}AnkleRoll", "Legs")],
                        "ankle (NAOqi's shin board)"),
            foot_board(s, bus, 5),
        ]

    return [
        ("Chest: I2C-chest and SPI-chest buses of the chest board", chest),
        ("Head: I2C-head bus of the head CPU; the neck motor board is on RS485-1", head),
        ("Left arm: RS485-1", arm("Left", "RS485-1")),
        ("Right arm: RS485-2", arm("Right", "RS485-2")),
        ("Left leg: RS485-3", leg("Left", "RS485-3")),
        ("Right leg: RS485-4", leg("Right", "RS485-4")),
    ]


# --------------------------------------------------------------------------
# Writers.

def xml_attr(s):
    return (str(s).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;"))


def device_xml():
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           "<!--",
           "  Device.xml: the NAO body (NAOqi 2.4, V4/V5 era) for dcm.",
           "",
           "  GENERATED by gen-device-xml.py: edit the script, not this file.",
           "  Format: Documentation/dcm/device-xml.rst; schema: device.rng.",
           "",
           "  Sensor Value = raw * Gain + Offset; an actuator sends",
           "  raw = (Value - Offset) / Gain. Angles in rad, hands and LEDs 0..1,",
           "  currents in A, temperatures in degC, FSR in kg, distances in m.",
           "  jointZeroPosition is 0 here: calibration comes from the body file.",
           "-->",
           '<DeviceXml Version="1">']
    for title, devices in groups():
        out.append("")
        out.append(f"  <!-- ===== {title} ===== -->")
        for name, typ, bus, addr, part, comment, subs in devices:
            out.append("")
            out.append(f"  <!-- {comment} -->")
            out.append(f'  <Device Name="{name}" Type="{typ}" Bus="{bus}" Address="{addr}" '
                       f'Part="{part}"/>')
            for s in subs:
                ident = (f'Name="{s["name"]}" Type="{s["type"]}" Device="{name}" '
                         f'SubDeviceNumber="{s["number"]}"')
                attrs = [f'Part="{s["part"]}"']
                if s["value"] is not None:
                    attrs.append(f'Value="{num(s["value"])}"')
                if s["gain"] is not None:
                    attrs.append(f'Gain="{num(s["gain"])}"')
                if s["offset"] is not None:
                    attrs.append(f'Offset="{num(s["offset"])}"')
                attrs.append(f'Min="{num(s["min"])}"')
                attrs.append(f'Max="{num(s["max"])}"')
                out.append(f"  <SubDevice {ident}")
                head = "             " + " ".join(attrs)
                if not s["keys"]:
                    out.append(head + "/>")
                    continue
                out.append(head + ">")
                for k, t, v in s["keys"]:
                    out.append(f'    <Key Name="{k}" Type="{t}" Value="{xml_attr(v)}"/>')
                out.append("  </SubDevice>")
    out.append("")
    out.append("</DeviceXml>")
    return "\n".join(out) + "\n"


def all_subdevices():
    for _, devices in groups():
        for d in devices:
            for s in d[6]:
                yield d, s


# Calibration of the robot "Nao01": fixed pseudo-random values so the files
# are reproducible.
def calibration():
    rnd = random.Random(0x4E414F)   # "NAO"
    zero = {j: rnd.randint(300, 3800) for j in JOINT}
    fsr = {}
    for side in "LR":
        for f in FSR_NAMES:
            fsr[f"{side}Foot/FSR/{f}/Sensor"] = (round(0.001 * rnd.uniform(0.9, 1.1), 6),
                                                 round(rnd.uniform(-0.03, 0.03), 4))
    return zero, fsr


BODY_CONFIG = [
    ("RobotConfig/Body/Type", "string", "NAO"),
    ("RobotConfig/Body/BaseVersion", "string", "V3.3"),
    ("RobotConfig/Body/Version", "string", "3.3.0"),
    ("RobotConfig/Body/SoftwareRequirement", "string", "1.8.0"),
    ("RobotConfig/Body/Device/LeftArm/Version", "int", 2),
    ("RobotConfig/Body/Device/RightArm/Version", "int", 2),
    ("RobotConfig/Body/Device/Hand/Left/Version", "int", 3),
    ("RobotConfig/Body/Device/Hand/Right/Version", "int", 3),
    ("RobotConfig/Body/Device/Legs/Version", "int", 1),
    ("RobotConfig/Body/Device/Foot/Left/Version", "int", 1),
    ("RobotConfig/Body/Device/Foot/Right/Version", "int", 1),
    ("RobotConfig/Body/Device/FSR/Calibration/Version", "int", 2),
    ("RobotConfig/Body/Device/Joints/Calibration/Version", "int", 2),
]

HEAD_CONFIG = [
    ("RobotConfig/Head/BaseVersion", "string", "V3.3"),
    ("RobotConfig/Head/Device/TouchBoard/Version", "int", 1),
    ("RobotConfig/Head/Device/FaceBoard/Leds/Rotation", "int", 1),
    ("RobotConfig/Head/Device/LaserRangeFinder/Version", "int", 0),
    ("RobotConfig/Head/Device/Camera/Version", "int", 1),
]


def prefs(target, title, sections):
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           "<!--",
           f"  {title}",
           "",
           "  GENERATED by gen-device-xml.py: edit the script, not this file.",
           "  Format: Documentation/dcm/device-xml.rst; schema: preferences.rng.",
           "-->",
           f'<Preferences Target="{target}">']
    for comment, keys in sections:
        out.append("")
        out.append(f"  <!-- {comment} -->")
        for path, typ, val in keys:
            out.append(f'  <Key Path="{path}" Type="{typ}" Value="{xml_attr(val)}"/>')
    out.append("")
    out.append("</Preferences>")
    return "\n".join(out) + "\n"


def body_xml(title, config=None, joints=True, note=None):
    zero, fsr = calibration()
    cfg = dict((p, (t, v)) for p, t, v in BODY_CONFIG)
    for p, v in (config or {}).items():
        cfg[p] = (cfg[p][0] if p in cfg else "int", v)
    sections = [("identity of the body, stored in the chest board",
                 [("Device/DeviceList/ChestBoard/BodyId", "string", "AL1100100000000"),
                  ("Device/DeviceList/ChestBoard/BodyNickName", "string", "Nao01")])]
    sections.append(("body configuration (seed 000, \"Configuration keys for robots\")",
                     [(p, t, v) for p, (t, v) in cfg.items()]))
    if joints:
        sections.append(("joint calibration: MRE count of the joint's zero position (1-4095)",
                         [(f"Device/SubDeviceList/{j}/Position/Sensor/jointZeroPosition",
                           "int", zero[j]) for j in JOINT]))
    sections.append(("FSR calibration: kg = raw * Gain + Offset",
                     [kv for name, (g, o) in fsr.items() for kv in
                      ((f"Device/SubDeviceList/{name}/Gain", "float", num(g)),
                       (f"Device/SubDeviceList/{name}/Offset", "float", num(o)))]))
    t = title if note is None else f"{title}\n\n  {note}"
    return prefs("Chest", t, sections)


def head_xml(title, config=None, note=None):
    cfg = dict((p, (t, v)) for p, t, v in HEAD_CONFIG)
    for p, v in (config or {}).items():
        cfg[p] = (cfg[p][0], v)
    t = title if note is None else f"{title}\n\n  {note}"
    return prefs("Head", t, [("head configuration (seed 000, \"Configuration keys for "
                              "robots\")", [(p, t, v) for p, (t, v) in cfg.items()])])


def outputs():
    return {
        "Device.xml": device_xml(),
        "body.xml": body_xml("body.xml: the chest board's preference file of the robot Nao01 "
                             "(V5-era body,\n  extended arms, V3.3 hands with touch)."),
        "head.xml": head_xml("head.xml: the head's preference file (V3.3 head with the "
                             "capacitive touch board)."),
        "variants/body-no-left-hand.xml": body_xml(
            "variants/body-no-left-hand.xml: body.xml without the left hand.",
            {"RobotConfig/Body/Device/Hand/Left/Version": 0},
            note="Hand/Left/Version 0: LHand/* and LHand/Touch/* are dropped; LWristYaw "
                 "stays\n  (LeftArm/Version 2). The LHand calibration key is ignored."),
        "variants/body-no-legs.xml": body_xml(
            "variants/body-no-legs.xml: body.xml without legs.",
            {"RobotConfig/Body/Device/Legs/Version": -1},
            note="Legs/Version -1: every leg joint, both feet (FSR, bumpers, LEDs) are "
                 "dropped.\n  Their calibration keys stay here and are ignored."),
        "variants/body-normal-arms.xml": body_xml(
            "variants/body-normal-arms.xml: normal arms, no hands.",
            {"RobotConfig/Body/Device/LeftArm/Version": 1,
             "RobotConfig/Body/Device/RightArm/Version": 1,
             "RobotConfig/Body/Device/Hand/Left/Version": 0,
             "RobotConfig/Body/Device/Hand/Right/Version": 0},
            note="Arms Version 1 and hands 0: no WristYaw, no Hand, no hand touch.\n  Their "
                 "calibration keys stay here and are ignored."),
        "variants/body-uncalibrated.xml": body_xml(
            "variants/body-uncalibrated.xml: body.xml without joint calibration.",
            joints=False,
            note="No jointZeroPosition key: every joint keeps 0 from Device.xml, so no\n  "
                 "hardness above 0 can be applied."),
        "variants/head-no-touch.xml": head_xml(
            "variants/head-no-touch.xml: a head without the capacitive touch board.",
            {"RobotConfig/Head/Device/TouchBoard/Version": 0},
            note="TouchBoard/Version 0: Head/Touch/* and the 12 Head/Led/* are dropped."),
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true",
                    help="compare with the files in the tree, write nothing")
    ap.add_argument("-o", "--output", default=os.path.dirname(os.path.abspath(__file__)))
    args = ap.parse_args()
    bad = 0
    for rel, text in outputs().items():
        path = os.path.join(args.output, rel)
        if args.check:
            try:
                with open(path, encoding="utf-8") as f:
                    same = f.read() == text
            except OSError:
                same = False
            if not same:
                print(f"gen-device-xml: {rel} differs from the generator's output",
                      file=sys.stderr)
                bad = 1
            continue
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    return bad


if __name__ == "__main__":
    sys.exit(main())
