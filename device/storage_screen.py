"""What the box shows while its storage fails (full, read-only, I/O errors): one message on the shared display
and both OLEDs, over whatever screen was current, until storage works again (``App._retry_storage``).

Nothing secret is drawn (the OLEDs show the message, not a key) and no move can be made meanwhile: the engine's
moves need a durable commit (``Storage.append_action``) and are refused without one."""

from __future__ import annotations

from collections.abc import Callable

from device.render import models as m
from device.screens.base import Frame

PROBLEMS = ("full", "readonly", "io")


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
                        for seat in ("A", "B")})
