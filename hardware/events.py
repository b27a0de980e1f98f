"""Clocks and the thread-safe event queue that library callbacks post to."""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable

from hardware.base import InputEvent


class MonotonicClock:
    """Real time: ``time.monotonic``."""

    def now(self) -> float:
        return time.monotonic()


class EventQueue:
    """Library threads ``put``; the main loop drains or waits. ``on_put`` lets a backend wake its loop."""

    def __init__(self, on_put: Callable[[], None] | None = None) -> None:
        self._items: deque[InputEvent] = deque()
        self._cond = threading.Condition()
        self.on_put = on_put

    def put(self, event: InputEvent) -> None:
        with self._cond:
            self._items.append(event)
            self._cond.notify_all()
        if self.on_put is not None:
            self.on_put()

    def drain(self) -> list[InputEvent]:
        with self._cond:
            items = list(self._items)
            self._items.clear()
            return items

    def wait(self, timeout: float | None) -> list[InputEvent]:
        """Block until something is queued (or ``timeout`` seconds pass), then drain."""
        with self._cond:
            if not self._items:
                self._cond.wait(timeout)
        return self.drain()

    def wait_for_item(self, timeout: float | None) -> bool:
        """Block until something is queued (or ``timeout`` seconds pass) without draining; True if non-empty."""
        with self._cond:
            if not self._items:
                self._cond.wait(timeout)
            return bool(self._items)

    def __len__(self) -> int:
        with self._cond:
            return len(self._items)
