# SPDX-License-Identifier: LGPL-2.1-or-later
"""The exceptions of the dcm module.

Every failure of libdcm (a negative errno) becomes a :class:`DcmError`, an
:class:`OSError` whose ``errno`` is the error number and whose text is
libdcm's one-line explanation (``dcm_last_error()``), for instance::

    /dev/dcm0: DCM_IOC_SET (clear-all, 1 point): Invalid argument (not an
    actuator, or a count or field out of range)

Some errors have their own subclass, so that they can be caught by what
they mean:

======================  ==========================================  =============
class                   when                                        also a
======================  ==========================================  =============
:class:`NoSuchKeyError`    a name that is no key of the description   ``KeyError``
:class:`NoSuchAliasError`  an alias that was never created            ``KeyError``
:class:`StaleError`        the description was replaced (``ESTALE``)
:class:`WatchdogFired`     the handle's watchdog fired (``ETIMEDOUT``)
======================  ==========================================  =============

Arguments of the wrong type or shape are refused by the module itself,
before anything reaches the kernel, with ``TypeError`` or ``ValueError``
naming the argument.
"""

import errno as _errno

from . import _lib


class DcmError(OSError):
    """A libdcm call failed.

    Attributes:
        errno: the error number (positive, as in :mod:`errno`).
        strerror: libdcm's explanation (the same as ``str(e)``).
        message: the same text.
        function: the libdcm function that failed, e.g. ``"dcm_set"``.
    """

    def __init__(self, err, message, function=None):
        err = abs(int(err))
        if not message:
            message = _errno.errorcode.get(err, "error %d" % err)
        super().__init__(err, message)
        self.message = message
        self.function = function

    def __str__(self):
        return self.message


class NoSuchKeyError(DcmError, KeyError):
    """A key name the running description does not have (``ENOENT``).

    ``key`` is the name as it was given.
    """

    def __init__(self, err, message, function=None, key=None):
        super().__init__(err, message, function)
        self.key = key


class NoSuchAliasError(DcmError, KeyError):
    """An alias name that was not created (``ENOENT``); ``alias`` is its name."""

    def __init__(self, err, message, function=None, alias=None):
        super().__init__(err, message, function)
        self.alias = alias


class StaleError(DcmError):
    """The description was replaced (``ESTALE``): handles and mappings are old."""


class WatchdogFired(DcmError):
    """The handle's watchdog fired (``ETIMEDOUT``): arm it again or disarm it."""


def last_error():
    """libdcm's message of the last failed call in this thread (may be "")."""
    return _lib.text(_lib.lib().dcm_last_error()) or ""


def check(ret, function, cls=None, **extra):
    """Raise the exception for a libdcm return value below 0; else return it.

    ``cls`` forces the class (with ``extra`` keyword arguments); else it is
    chosen from the errno.
    """
    if ret >= 0:
        return ret
    msg = last_error()
    if not msg:
        msg = "%s: %s" % (function, _lib.text(_lib.lib().dcm_strerror(ret)))
    if cls is None:
        if ret == -_errno.ESTALE:
            cls = StaleError
        elif ret == -_errno.ETIMEDOUT:
            cls = WatchdogFired
        else:
            cls = DcmError
    raise cls(ret, msg, function, **extra)
