"""What the box shows while its storage fails (full, read-only, I/O errors): one message on the shared display
and both OLEDs, over whatever screen was current, until storage works again (``StorageWatch``, which the loop
asks to retry).

Nothing secret is drawn (the OLEDs show the message, not a key) and no move can be made meanwhile: the engine's
moves need a durable commit (``Storage.append_action``) and are refused without one."""

from __future__ import annotations

import logging
from collections.abc import Callable

from device.render import models as m
from device.screens.base import Frame
from device.storage import Storage
from engine.seats import SEATS

log = logging.getLogger("duetbox.app")

PROBLEMS = ("full", "readonly", "io")
#: Seconds between two tries of a failing storage (full, read-only, I/O errors).
STORAGE_RETRY = 2.0


def storage_frame(tr: Callable[..., str], problem: str) -> Frame:
    """The frame for ``problem`` (one of PROBLEMS; anything else reads as an I/O error)."""
    kind = problem if problem in PROBLEMS else "io"
    shared = m.MessageUi(tr("storage.title"), (tr(f"storage.{kind}"), tr("storage.safe"), tr("storage.wait")))
    oled = m.OledTextUi(tr("storage.title"), (tr(f"storage.oled_{kind}"), tr("storage.oled_safe"),
                                              tr("storage.oled_wait")))
    return Frame(shared=shared, oleds={"A": oled, "B": oled})


def notice_frame(tr: Callable[..., str], notice: str) -> Frame:
    """The one-time notice that the saved data was started afresh or replaced (``Storage.notice``)."""
    lines = (tr(f"storage.fresh_{notice}"), tr("storage.fresh_press"))
    return Frame(shared=m.MessageUi(tr("storage.fresh_title"), lines),
                 oleds={seat: m.OledTextUi(tr("storage.fresh_title"), (tr("storage.oled_press"),))
                        for seat in SEATS})


class StorageWatch:
    """While storage fails, it is tried again every STORAGE_RETRY seconds (play goes on by itself); meanwhile,
    and for a one-time notice, its frame replaces the current screen's. ``storage`` gives the storage in use
    (the host may reopen it)."""

    def __init__(self, storage: Callable[[], Storage]) -> None:
        self._storage = storage
        self.retry_at = 0.0

    def deadline(self) -> float | None:
        """The next try, while storage fails."""
        return self.retry_at if self._storage().problem is not None else None

    def retry(self, now: float) -> bool:
        """Try a failing storage again when its time has come; True when it works again (redraw everything)."""
        storage = self._storage()
        if storage.problem is None or now < self.retry_at:
            return False
        self.retry_at = now + STORAGE_RETRY
        if storage.retry():
            log.warning("storage works again")
            return True
        return False

    def frame(self, tr: Callable[..., str]) -> Frame | None:
        """The frame shown instead of the screen's: nothing can be saved, or the storage's notice."""
        storage = self._storage()
        if storage.problem is not None:
            return storage_frame(tr, storage.problem)
        if storage.notice is not None:
            return notice_frame(tr, storage.notice)
        return None
