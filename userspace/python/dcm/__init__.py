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

:meth:`Controller.tree`, :meth:`Controller.keys` and
:meth:`Controller.aliases` list what the description has; :func:`special`
and :mod:`dcm.prefs` are NAOqi's special commands and preference files.

:mod:`dcm.naoqi` takes NAOqi's DCM and ALMemory proxy calls as they are
written: a NAOqi script runs with ``from naoqi import ALProxy`` changed to
``from dcm.naoqi import ALProxy``.

Failures of libdcm raise :class:`DcmError` (an OSError with ``errno`` and
libdcm's message); bad arguments TypeError or ValueError. The package loads
``libdcm.so.0`` on first use (``$DCM_LIBDCM`` names another file).
Documentation/dcm/python.rst is the reference.
"""

from . import prefs
from .core import (DEFAULT_DEVICE, PREFIX_DEV, PREFIX_ROBOT, PREFIX_SUB, Alias, AliasInfo,
                   AliasMode, Board, Controller, Device, Frame, Info, Key, Point, SafeAction,
                   Snapshot, SpecialResult, Stats, Subdevice, Tree, UpdateKind, controllers,
                   lib_version, open, prefixes, special, time_add, time_diff)
from .errors import (DcmError, NoSuchAliasError, NoSuchKeyError, StaleError,
                     WatchdogFired)
from .events import Event, EventStream, events

from ._version import VERSION

#: The version of the module, which is libdcm's: userspace/Makefile writes
#: LIBDCM_VERSION of libdcm.h into _version.py.
__version__ = VERSION

__all__ = [
    "Alias", "AliasInfo", "AliasMode", "Board", "Controller", "DcmError", "DEFAULT_DEVICE",
    "Device", "Event", "EventStream", "Frame", "Info", "Key", "NoSuchAliasError",
    "NoSuchKeyError", "Point", "PREFIX_DEV", "PREFIX_ROBOT", "PREFIX_SUB", "SafeAction",
    "Snapshot", "SpecialResult", "StaleError", "Stats", "Subdevice", "Tree", "UpdateKind",
    "WatchdogFired", "controllers", "events", "lib_version", "open", "prefixes", "prefs",
    "special", "time_add", "time_diff",
]
