# SPDX-License-Identifier: LGPL-2.1-or-later
"""dcm: the NAO robot's device layer from Python, over libdcm.

Open a controller, read and command its keys, follow it cycle by cycle::

    import dcm

    with dcm.open() as c:                       # /dev/dcm0
        c.set("HeadYaw/Hardness/Actuator", 1.0)  # at the next cycle
        t = c.time()
        c.set_timed("HeadYaw/Position/Actuator", [[0.5, t + 500]])
        for f in c.frames(count=60):            # one Frame per cycle
            print(f.cycle, f[c.key("HeadYaw/Position/Sensor")])

    with dcm.events(types=["safety"]) as ev:    # netlink events
        for e in ev.read(timeout=5):
            print(e)

:mod:`dcm.naoqi` takes NAOqi's DCM proxy calls as they are written:
``DCM().set(["HeadYaw/Position/Actuator/Value", "ClearAll", [[0.5, t]]])``.

Failures of libdcm raise :class:`DcmError` (an OSError with ``errno`` and
libdcm's message); bad arguments TypeError or ValueError. The package loads
``libdcm.so.0`` on first use (``$DCM_LIBDCM`` names another file).
Documentation/dcm/python.rst is the reference.
"""

from .core import (DEFAULT_DEVICE, PREFIX_DEV, PREFIX_ROBOT, PREFIX_SUB, AliasMode,
                   Controller, Frame, Info, Key, Point, SafeAction, Snapshot, Stats,
                   UpdateKind, controllers, lib_version, open, time_add, time_diff)
from .errors import (DcmError, NoSuchAliasError, NoSuchKeyError, StaleError,
                     WatchdogFired)
from .events import Event, EventStream, events

__version__ = "0.5.0"

__all__ = [
    "AliasMode", "Controller", "DcmError", "DEFAULT_DEVICE", "Event", "EventStream",
    "Frame", "Info", "Key", "NoSuchAliasError", "NoSuchKeyError", "Point",
    "PREFIX_DEV", "PREFIX_ROBOT", "PREFIX_SUB", "SafeAction", "Snapshot", "StaleError",
    "Stats", "UpdateKind", "WatchdogFired", "controllers", "events", "lib_version",
    "open", "time_add", "time_diff",
]
