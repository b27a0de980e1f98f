"""Switch debouncing in our own code.

A real arcade switch chatters for a few milliseconds when it closes or opens; gpiozero's mock pins never do,
and the kernel debounce of the lgpio factory is invisible to tests. So every raw edge goes through a
``Debouncer``:

- the first edge that changes the believed state is reported at once (no added latency on a press);
- for ``window`` seconds after a reported change, further edges are only remembered, not reported;
- a raw level that differs from the believed state and has been stable for ``window`` seconds is reported by
  ``poll`` (so a quick tap whose release fell inside the window is not lost).
"""

from __future__ import annotations

import threading


class Debouncer:
    """Debounce one switch. ``feed`` takes raw edges, ``poll`` settles; both return the new state or None."""

    def __init__(self, window: float, pressed: bool = False) -> None:
        if window < 0:
            raise ValueError(f"debounce window must be >= 0, got {window}")
        self.window = window
        self.pressed = pressed  # the believed (reported) state
        self._raw = pressed
        self._last_edge = float("-inf")
        self._quiet_until = float("-inf")
        self._lock = threading.Lock()

    def feed(self, pressed: bool, now: float) -> bool | None:
        """A raw edge at ``now``; returns the new believed state if it changed, else None."""
        with self._lock:
            self._raw = pressed
            self._last_edge = now
            if now >= self._quiet_until and pressed != self.pressed:
                return self._accept(now)
            return None

    def poll(self, now: float) -> bool | None:
        """Report a raw level that has settled; returns the new believed state if it changed, else None."""
        with self._lock:
            if self._raw != self.pressed and now >= self.deadline_locked():
                return self._accept(now)
            return None

    def deadline(self) -> float | None:
        """When ``poll`` may next report something, or None when raw and believed state agree."""
        with self._lock:
            return self.deadline_locked() if self._raw != self.pressed else None

    def deadline_locked(self) -> float:
        return max(self._last_edge + self.window, self._quiet_until)

    def _accept(self, now: float) -> bool:
        self.pressed = self._raw
        self._quiet_until = now + self.window
        return self.pressed
