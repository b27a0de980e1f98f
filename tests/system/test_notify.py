"""The systemd notify helper against a real datagram socket and a fake clock (device/services/notify.py)."""

from __future__ import annotations

import dataclasses
import logging
import os
import socket
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from device.services.notify import DEFAULT_DEVICES, Notifier, devices_needed, socket_address, wait_for_devices

WATCHDOG_SEC = 30


class FakeClock:
    def __init__(self, start: float = 1000.0) -> None:
        self.t = start

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


class FakeSystemd:
    """The receiving end of $NOTIFY_SOCKET: a datagram socket stamping what arrives with the fake clock."""

    def __init__(self, sock: socket.socket, name: str, clock: FakeClock) -> None:
        self.sock = sock
        self.name = name
        self.clock = clock
        self.received: list[tuple[float, str]] = []

    def drain(self) -> list[str]:
        new = []
        while True:
            try:
                data = self.sock.recv(4096)
            except BlockingIOError:
                return new
            text = data.decode()
            self.received.append((self.clock(), text))
            new.append(text)

    def ping_times(self) -> list[float]:
        return [t for t, text in self.received if "WATCHDOG=1" in text.split("\n")]

    def env(self, watchdog_sec: float | None = WATCHDOG_SEC) -> dict[str, str]:
        env = {"NOTIFY_SOCKET": self.name}
        if watchdog_sec is not None:
            env["WATCHDOG_USEC"] = str(int(watchdog_sec * 1_000_000))
            env["WATCHDOG_PID"] = str(os.getpid())
        return env


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def systemd(clock: FakeClock) -> Iterator[FakeSystemd]:
    # A short directory of our own: pytest's tmp_path can exceed the 107 bytes an AF_UNIX path may have.
    with tempfile.TemporaryDirectory(prefix="dbx-") as folder:
        path = str(Path(folder) / "notify")
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        sock.bind(path)
        sock.setblocking(False)
        try:
            yield FakeSystemd(sock, path, clock)
        finally:
            sock.close()


def test_notify_disabled_without_notify_socket_sends_nothing() -> None:
    calls: list[bytes] = []
    notifier = Notifier(environ={"WATCHDOG_USEC": "30000000"}, clock=FakeClock(), sender=calls.append)
    assert not notifier.enabled
    assert notifier.watchdog_interval is None
    notifier.ready("up")
    notifier.status("playing")
    notifier.stopping()
    notifier.extend_timeout(10)
    assert notifier.tick() is None
    assert calls == []


def test_notify_default_environment_outside_systemd_is_silent(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    notifier = Notifier()
    assert not notifier.enabled
    notifier.ready()
    assert notifier.tick() is None
    assert notifier.sent == 0


def test_notify_ready_with_status_reaches_the_socket(systemd: FakeSystemd, clock: FakeClock) -> None:
    with Notifier(environ=systemd.env(None), clock=clock) as notifier:
        assert notifier.enabled
        notifier.ready("hardware ready\nfirst frame shown")
        notifier.status("playing: Duet")
        notifier.stopping()
    assert systemd.drain() == [
        "READY=1\nSTATUS=hardware ready first frame shown",
        "STATUS=playing: Duet",
        "STOPPING=1",
    ]


def test_notify_abstract_socket_name_works(clock: FakeClock) -> None:
    name = f"duetbox-test-{uuid.uuid4().hex}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind("\0" + name)
    sock.setblocking(False)
    try:
        notifier = Notifier(environ={"NOTIFY_SOCKET": "@" + name}, clock=clock)
        notifier.ready()
        assert sock.recv(100) == b"READY=1"
        notifier.close()
    finally:
        sock.close()
    assert socket_address("@x") == "\0x"
    assert socket_address("/run/systemd/notify") == "/run/systemd/notify"


def test_notify_watchdog_interval_is_half_watchdog_usec(systemd: FakeSystemd) -> None:
    assert Notifier(environ=systemd.env(30)).watchdog_interval == pytest.approx(15.0)
    assert Notifier(environ=systemd.env(None)).watchdog_interval is None


@pytest.mark.parametrize(
    "extra",
    [
        {"WATCHDOG_PID": "1"},  # meant for another process (e.g. our parent)
        {"WATCHDOG_PID": "x"},
        {"WATCHDOG_USEC": "soon"},
        {"WATCHDOG_USEC": "0"},
    ],
)
def test_notify_watchdog_ignored_when_not_meant_for_us(systemd: FakeSystemd, extra: dict[str, str]) -> None:
    env = systemd.env(30) | extra
    notifier = Notifier(environ=env, pid=4242)
    assert notifier.enabled
    assert notifier.watchdog_interval is None
    assert notifier.tick() is None


def test_notify_watchdog_pid_matching_us_keeps_the_watchdog(systemd: FakeSystemd) -> None:
    env = systemd.env(30) | {"WATCHDOG_PID": "4242"}
    assert Notifier(environ=env, pid=4242).watchdog_interval == pytest.approx(15.0)


def test_notify_relative_socket_name_is_refused(caplog: pytest.LogCaptureFixture) -> None:
    calls: list[bytes] = []
    with caplog.at_level(logging.WARNING, logger="device.services.notify"):
        notifier = Notifier(environ={"NOTIFY_SOCKET": "notify.sock"}, sender=calls.append)
    assert not notifier.enabled
    notifier.ready()
    assert calls == []
    assert "NOTIFY_SOCKET" in caplog.text


def test_notify_tick_pings_at_the_right_fake_clock_times(systemd: FakeSystemd, clock: FakeClock) -> None:
    notifier = Notifier(environ=systemd.env(30), clock=clock)
    start = clock()
    assert notifier.tick() == pytest.approx(15.0)  # the first tick pings at once
    assert systemd.drain() == ["WATCHDOG=1"]
    clock.advance(10)
    assert notifier.tick() == pytest.approx(5.0)
    assert systemd.drain() == []
    clock.advance(4.999)
    notifier.tick()
    assert systemd.drain() == []
    clock.advance(0.001)
    assert notifier.tick() == pytest.approx(15.0)
    assert systemd.drain() == ["WATCHDOG=1"]
    assert [t - start for t in systemd.ping_times()] == pytest.approx([0.0, 15.0])


def test_notify_loop_using_tick_as_timeout_pings_every_half_interval(
    systemd: FakeSystemd, clock: FakeClock
) -> None:
    notifier = Notifier(environ=systemd.env(30), clock=clock)
    notifier.ready()
    start = clock()
    # An idle main loop: it waits exactly as long as tick() allows, then wakes up.
    for _ in range(8):
        timeout = notifier.tick()
        assert timeout is not None
        systemd.drain()
        clock.advance(timeout)
    assert systemd.received[0][1] == "READY=1"
    assert [t - start for t in systemd.ping_times()] == pytest.approx([15.0 * i for i in range(8)])


def test_notify_busy_loop_pings_no_more_than_needed(systemd: FakeSystemd, clock: FakeClock) -> None:
    notifier = Notifier(environ=systemd.env(30), clock=clock)
    for _ in range(6000):  # 60 s of a loop spinning at 100 Hz
        notifier.tick()
        systemd.drain()
        clock.advance(0.01)
    times = systemd.ping_times()
    assert len(times) == 4  # at 0, 15, 30, 45 s
    gaps = [b - a for a, b in zip(times, times[1:], strict=False)]
    assert all(15.0 <= gap < 15.02 for gap in gaps)


def test_notify_hung_loop_stops_the_pings(systemd: FakeSystemd, clock: FakeClock) -> None:
    """A loop that stops calling tick() stops the pings, so systemd's watchdog fires."""
    notifier = Notifier(environ=systemd.env(WATCHDOG_SEC), clock=clock)
    for _ in range(100):  # 10 s of a healthy loop at 10 Hz
        notifier.tick()
        systemd.drain()
        clock.advance(0.1)
    last_ping = systemd.ping_times()[-1]
    # The loop hangs (a blocking call never returns): time passes, tick() is not called.
    for _ in range(60):
        clock.advance(1)
        assert systemd.drain() == []
    assert systemd.ping_times()[-1] == last_ping
    # What systemd sees: no ping within WatchdogSec, so it kills and restarts the service.
    assert clock() - last_ping > WATCHDOG_SEC


def test_notify_send_failure_is_logged_once_never_raised(
    clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    with tempfile.TemporaryDirectory(prefix="dbx-") as folder:
        env = {"NOTIFY_SOCKET": str(Path(folder) / "gone"), "WATCHDOG_USEC": "2000000"}
        notifier = Notifier(environ=env, clock=clock, pid=None)
        with caplog.at_level(logging.WARNING, logger="device.services.notify"):
            notifier.ready()
            for _ in range(5):
                clock.advance(1)
                notifier.tick()
        notifier.close()
    assert notifier.sent == 0
    assert caplog.text.count("cannot notify systemd") == 1


def test_notify_extend_timeout_in_microseconds(systemd: FakeSystemd, clock: FakeClock) -> None:
    Notifier(environ=systemd.env(None), clock=clock).extend_timeout(12.5)
    assert systemd.drain() == ["EXTEND_TIMEOUT_USEC=12500000"]


class FakeSleepClock(FakeClock):
    """sleep() advances the clock; files appear in the folder at given fake times."""

    def __init__(self, appear: dict[Path, float]) -> None:
        super().__init__(0.0)
        self.appear = appear
        self.sleeps: list[float] = []

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.advance(seconds)
        for path, when in self.appear.items():
            if self.t >= when and not path.exists():
                path.touch()


def test_wait_for_devices_returns_when_all_appear(tmp_path: Path) -> None:
    (tmp_path / "dri").mkdir()
    fake = FakeSleepClock({tmp_path / "dri" / "card1": 1.0, tmp_path / "i2c-1": 2.0})
    (tmp_path / "spidev0.0").touch()
    wanted = [str(tmp_path / "dri" / "card*"), str(tmp_path / "i2c-1"), str(tmp_path / "spidev0.0")]
    seen: list[list[str]] = []
    missing = wait_for_devices(wanted, timeout=30, clock=fake, sleep=fake.sleep, on_wait=seen.append)
    assert missing == []
    assert 2.0 <= fake.t <= 2.25
    assert seen[0] == wanted[:2]


def test_wait_for_devices_gives_up_after_the_timeout(tmp_path: Path) -> None:
    fake = FakeSleepClock({})
    (tmp_path / "i2c-1").touch()
    wanted = [str(tmp_path / "i2c-1"), str(tmp_path / "spidev0.0")]
    missing = wait_for_devices(wanted, timeout=5, clock=fake, sleep=fake.sleep)
    assert missing == [str(tmp_path / "spidev0.0")]
    assert fake.t == pytest.approx(5.0)
    assert max(fake.sleeps) <= 0.25


def test_wait_for_devices_present_at_once_does_not_sleep(tmp_path: Path) -> None:
    fake = FakeSleepClock({})
    (tmp_path / "card0").touch()
    assert wait_for_devices([str(tmp_path / "card*")], timeout=5, clock=fake, sleep=fake.sleep) == []
    assert fake.sleeps == []


def test_wait_for_devices_default_list_names_display_i2c_and_spi() -> None:
    assert DEFAULT_DEVICES == ("/dev/dri/card*", "/dev/i2c-1", "/dev/spidev0.0")


def test_wait_for_devices_list_follows_the_hardware_config() -> None:
    from hardware.config import load_config

    config = load_config(None)  # the bundled default: both OLEDs on bus 1, the ring on SPI0
    assert devices_needed(config) == ["/dev/dri/card*", "/dev/gpiochip*", "/dev/i2c-1", "/dev/spidev0.0"]
    two_buses = dataclasses.replace(
        config,
        oleds={"A": config.oleds["A"], "B": dataclasses.replace(config.oleds["B"], port=3)},
        ring=dataclasses.replace(config.ring, driver="leds", device="/dev/leds0"),
    )
    assert devices_needed(two_buses)[2:] == ["/dev/i2c-1", "/dev/i2c-3", "/dev/leds0"]
