"""A writer thread per bus: the main loop hands frames over and never waits for the wire.

Two OLEDs share one I2C bus on the box; a guess puts about 490 bytes on it (11 ms at 400 kHz) and a screen
change two full frames (46.5 ms), and luma's writes are synchronous. So each bus (an I2C port, the ring's SPI
device) gets one ``BusWriter``: a thread that owns the bus and writes the frames of its clients (the OLED
screens on that port, the ring) one after another.

- **Newest frame wins**: ``submit(client)`` only marks the client as having something to send; when the
  writer gets to it, the client hands over its newest frame, so frames shown while the bus was busy are
  skipped, never queued up.
- **A frame is never torn**: the writer takes one whole frame and writes all of it before it looks at the
  client again; the next frame is diffed against what was last *sent*, not what was last asked for.
- **Faults**: a client's write runs inside its ``FaultGuard`` on the writer thread, so an OSError is logged
  once per burst and backed off exactly as in the synchronous path; the main loop's ``service()`` resubmits
  the client once the backoff has expired. A bug (any other exception) is logged and the writer goes on.

Clients implement ``write_pending()`` (called on the writer thread). ``close()`` writes what is still pending
(bounded by a timeout: a hung bus cannot hang the shutdown), stops the thread and joins it; it is idempotent.
"""

from __future__ import annotations

import logging
import threading
from typing import Generic, Protocol, TypeVar

from hardware.faults import FaultGuard

log = logging.getLogger("duetbox.hardware")

#: How long ``close`` waits for pending frames (the "paused" screen at shutdown) to reach the glass.
CLOSE_TIMEOUT_S = 2.0


class BusClient(Protocol):
    name: str

    def write_pending(self) -> None:
        """Send the newest wanted frame if it differs from what was last sent (on the writer thread)."""
        ...


class BusWriter:
    """One thread owning one bus; clients are written round-robin, the newest frame of each."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._cond = threading.Condition()
        self._queue: list[BusClient] = []  # clients with something to send, in order, each at most once
        self._busy: BusClient | None = None  # the client being written now
        self._clients: list[BusClient] = []
        self._stopping = False
        self._closed = False
        self.writes = 0  # write_pending calls made
        self._thread = threading.Thread(target=self._run, name=f"duetbox {name} writer", daemon=True)
        self._thread.start()

    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def thread(self) -> threading.Thread:
        return self._thread

    def attach(self, client: BusClient) -> None:
        with self._cond:
            if self._closed:
                raise RuntimeError(f"the {self.name} writer is closed")
            if client not in self._clients:
                self._clients.append(client)

    def submit(self, client: BusClient) -> None:
        """``client`` has a new frame: write it soon (never blocks; a client already waiting keeps its turn)."""
        with self._cond:
            if self._stopping:
                return
            if client not in self._queue:
                self._queue.append(client)
                self._cond.notify_all()

    def idle(self, client: BusClient | None = None) -> bool:
        """Nothing waiting or being written (for ``client``, or for any client)."""
        with self._cond:
            return self._idle(client)

    def _idle(self, client: BusClient | None) -> bool:
        if client is None:
            return not self._queue and self._busy is None
        return client not in self._queue and self._busy is not client

    def wait_idle(self, client: BusClient | None = None, timeout: float | None = None) -> bool:
        """Block until ``idle(client)`` (True) or ``timeout`` seconds pass (False). For tests, the bench and
        closing: the main loop never calls it."""
        with self._cond:
            return self._cond.wait_for(lambda: self._idle(client) or not self._thread.is_alive(), timeout) \
                and self._idle(client)

    def detach(self, client: BusClient, timeout: float = CLOSE_TIMEOUT_S) -> None:
        """Let ``client``'s pending frame go out (up to ``timeout``), then forget it; the last client to leave
        closes the writer."""
        self.wait_idle(client, timeout)
        with self._cond:
            if client in self._queue:
                self._queue.remove(client)
            if client in self._clients:
                self._clients.remove(client)
            last = not self._clients
        if last:
            self.close(timeout)

    def close(self, timeout: float = CLOSE_TIMEOUT_S) -> None:
        """Write what is pending (up to ``timeout``), stop the thread and join it. Idempotent."""
        with self._cond:
            if self._closed:
                return
            self._closed = True
            self._stopping = True
            self._cond.notify_all()
        if self._thread is not threading.current_thread():
            self._thread.join(timeout)
            if self._thread.is_alive():
                log.warning("the %s writer did not finish within %.1f s (a hung bus?)", self.name, timeout)

    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._queue and not self._stopping:
                    self._cond.wait()
                if not self._queue:
                    self._cond.notify_all()
                    return
                client = self._queue.pop(0)
                self._busy = client
            try:
                client.write_pending()
            except Exception:  # noqa: BLE001 - a bug in one write must not silence the bus for good
                log.exception("the %s writer: writing %s failed", self.name, client.name)
            finally:
                with self._cond:
                    self._busy = None
                    self.writes += 1
                    self._cond.notify_all()


F = TypeVar("F")


class NewestFrame(Generic[F]):
    """What a screen and the ring share: the newest wanted frame goes out now, or through the bus's writer
    thread when there is one; a fault keeps it pending and ``service`` resubmits it once the backoff allows.
    Subclasses set ``name``, ``guard``, ``writer``, ``_wanted`` and ``_held`` (what the device holds, None when
    unknown) in ``__init__``, and write a frame in ``_flush``."""

    name: str
    guard: FaultGuard
    writer: BusWriter | None
    _wanted: F | None
    _held: F | None
    _closed: bool

    @property
    def closed(self) -> bool:
        return self._closed

    def _send(self, wanted: F) -> None:
        self._wanted = wanted
        if self.writer is not None:
            self.writer.submit(self)
        else:
            self._flush(wanted)

    def service(self) -> None:
        """Retry a frame that a fault kept off the device, once the backoff allows."""
        wanted = self._wanted
        if wanted is not None and wanted != self._held and not self._closed and self.guard.ready():
            if self.writer is not None:
                self.writer.submit(self)
            else:
                self._flush(wanted)

    def write_pending(self) -> None:
        """The writer thread's turn: send the newest wanted frame unless the device already holds it."""
        wanted = self._wanted  # one whole frame: a new one replaces it, never changes it
        if wanted is None or wanted == self._held or not self.guard.ready():
            return  # nothing new, or backing off (service() resubmits when the backoff expires)
        self._flush(wanted)

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until every frame shown so far went out (or failed); True when done. Immediate without a
        writer. Tests, the bench and closing use it; the main loop never waits on a bus."""
        if self.writer is None:
            return True
        return self.writer.wait_idle(self, timeout)

    def _flush(self, wanted: F) -> None:
        raise NotImplementedError
