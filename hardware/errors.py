"""Errors of the hardware layer."""

from __future__ import annotations

import getpass


class HardwareMissing(OSError):
    """A device of the box is absent or not accessible; the message says how to fix it.

    It is an OSError so that a device vanishing at run time is retried like any other I/O error; at start-up
    the pi backend lets it propagate, so a box never runs silently without its buttons or screens.
    """


def current_user() -> str:
    try:
        return getpass.getuser()
    except Exception:  # noqa: BLE001 - no passwd entry inside some containers
        return "the service user"
