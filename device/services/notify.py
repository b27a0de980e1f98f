"""Talking to systemd: readiness, status, stopping and the watchdog ping (the sd_notify protocol).

The protocol is one datagram of ``KEY=VALUE`` lines sent to the AF_UNIX socket named in ``$NOTIFY_SOCKET``
(a leading ``@`` names an abstract socket). Outside systemd that variable is absent and every call here is a
no-op, so the app calls the notifier unconditionally. Standard library only.

The unit sets ``WatchdogSec=``; systemd then passes ``WATCHDOG_USEC`` and kills the service when no
``WATCHDOG=1`` arrives within that time. The main loop calls :meth:`Notifier.tick` on every iteration and
uses the value it returns as its wait timeout, so the ping comes from the loop itself: when the loop hangs,
the pings stop and systemd restarts the box.
"""

from __future__ import annotations

import glob
import logging
import os
import socket
import time
from collections.abc import Callable, Mapping, Sequence

from hardware.config import HardwareConfig
from hardware.pi import ring_device

log = logging.getLogger(__name__)

#: What the Pi backend needs before it can show anything: the display, the OLEDs' I2C bus, the ring's SPI bus.
DEFAULT_DEVICES: tuple[str, ...] = ("/dev/dri/card*", "/dev/i2c-1", "/dev/spidev0.0")

Sender = Callable[[bytes], None]


def socket_address(name: str) -> str:
    """The address to connect to for a ``$NOTIFY_SOCKET`` value; ``@name`` is an abstract socket."""
    return "\0" + name[1:] if name.startswith("@") else name


class _DatagramSender:
    """Sends each message as one datagram to the notify socket, opening the socket on first use."""

    def __init__(self, name: str) -> None:
        self._address = socket_address(name)
        self._sock: socket.socket | None = None

    def __call__(self, message: bytes) -> None:
        if self._sock is None:
            self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
        self._sock.sendto(message, self._address)

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None


def _watchdog_interval(environ: Mapping[str, str], pid: int) -> float | None:
    """Half of ``WATCHDOG_USEC`` in seconds, or None when there is no watchdog meant for this process."""
    raw = environ.get("WATCHDOG_USEC", "")
    if not raw:
        return None
    owner = environ.get("WATCHDOG_PID", "")
    if owner:
        try:
            if int(owner) != pid:
                return None
        except ValueError:
            log.warning("ignoring WATCHDOG_PID=%r: not a process id", owner)
            return None
    try:
        usec = int(raw)
    except ValueError:
        log.warning("ignoring WATCHDOG_USEC=%r: not a number of microseconds", raw)
        return None
    if usec <= 0:
        return None
    return usec / 1_000_000 / 2


class Notifier:
    """Readiness, status and watchdog pings for systemd; silent when not started by systemd.

    ``environ`` defaults to ``os.environ``, ``clock`` to ``time.monotonic``; ``sender`` (a callable taking
    the datagram as bytes) replaces the real socket in tests. A failed send is logged once and never raised:
    a lost ping is what the watchdog is there to notice.
    """

    def __init__(
        self,
        environ: Mapping[str, str] | None = None,
        clock: Callable[[], float] | None = None,
        sender: Sender | None = None,
        *,
        pid: int | None = None,
    ) -> None:
        env = os.environ if environ is None else environ
        name = env.get("NOTIFY_SOCKET", "")
        if name and not name.startswith(("/", "@")):
            log.warning("ignoring NOTIFY_SOCKET=%r: not a path or an abstract socket name", name)
            name = ""
        self.enabled: bool = bool(name)
        self._clock = clock if clock is not None else time.monotonic
        self._own_sender: _DatagramSender | None = None
        if sender is None and self.enabled:
            self._own_sender = _DatagramSender(name)
            sender = self._own_sender
        self._send: Sender | None = sender if self.enabled else None
        interval = _watchdog_interval(env, os.getpid() if pid is None else pid)
        self.watchdog_interval: float | None = interval if self.enabled else None
        self._next_ping: float | None = None
        self._send_failed = False
        self.sent: int = 0

    def _notify(self, *fields: str) -> None:
        if self._send is None:
            return
        message = "\n".join(fields).encode("utf-8")
        try:
            self._send(message)
        except OSError as exc:
            if not self._send_failed:
                log.warning("cannot notify systemd: %s", exc)
                self._send_failed = True
            return
        self._send_failed = False
        self.sent += 1

    @staticmethod
    def _status_field(text: str) -> str:
        # One datagram line per field: a newline inside the status would start a bogus field.
        return "STATUS=" + " ".join(text.split())

    def ready(self, status: str = "") -> None:
        """Tell systemd the box is up (hardware initialised, first frame shown)."""
        fields = ["READY=1"]
        if status:
            fields.append(self._status_field(status))
        self._notify(*fields)

    def status(self, text: str) -> None:
        """A one-line status shown by ``systemctl status duetbox``."""
        self._notify(self._status_field(text))

    def stopping(self) -> None:
        """Tell systemd the box is shutting down on purpose."""
        self._notify("STOPPING=1")

    def extend_timeout(self, seconds: float) -> None:
        """Ask for more start (or stop) time, e.g. while waiting for a slow device."""
        self._notify(f"EXTEND_TIMEOUT_USEC={max(0, int(seconds * 1_000_000))}")

    def tick(self) -> float | None:
        """Ping the watchdog when half its interval has passed since the last ping.

        Returns the seconds until the next ping is due (the main loop's longest wait), or None when there is
        no watchdog. The first call pings at once.
        """
        if self.watchdog_interval is None:
            return None
        now = self._clock()
        if self._next_ping is None or now >= self._next_ping:
            self._notify("WATCHDOG=1")
            self._next_ping = now + self.watchdog_interval
        return max(0.0, self._next_ping - now)

    def close(self) -> None:
        """Close the socket (idempotent); later calls still work and reopen it."""
        if self._own_sender is not None:
            self._own_sender.close()

    def __enter__(self) -> Notifier:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def devices_needed(config: HardwareConfig) -> list[str]:
    """The device nodes (globs allowed) a ``hardware.config.HardwareConfig`` needs on a Pi, in start-up order.

    The display's DRM card, the GPIO chip, the I2C bus of each OLED and the ring's device.
    """
    needed = ["/dev/dri/card*", "/dev/gpiochip*"]
    for oled in config.oleds.values():
        bus = f"/dev/i2c-{oled.port}"
        if bus not in needed:
            needed.append(bus)
    device = ring_device(config.ring)  # /dev/leds0 for driver = "leds", not the SPI device
    if device not in needed:
        needed.append(device)
    return needed


def wait_for_devices(
    paths_globs: Sequence[str],
    timeout: float,
    clock: Callable[[], float] = time.monotonic,
    sleep: Callable[[float], None] = time.sleep,
    *,
    poll: float = 0.25,
    on_wait: Callable[[list[str]], None] | None = None,
) -> list[str]:
    """Wait at most ``timeout`` seconds until every path (or glob, such as ``/dev/dri/card*``) exists.

    Returns the entries still missing when the time is up (empty when all appeared). Device nodes of the
    display, I2C and SPI buses can show up a little after the service starts at boot; there is no device unit
    to order after, hence this bounded wait. ``on_wait`` is called with the missing entries before each sleep
    (e.g. to update the systemd status).
    """
    start = clock()
    while True:
        missing = [entry for entry in paths_globs if not glob.glob(entry)]
        remaining = timeout - (clock() - start)
        if not missing or remaining <= 0:
            return missing
        if on_wait is not None:
            on_wait(missing)
        sleep(min(poll, remaining))
