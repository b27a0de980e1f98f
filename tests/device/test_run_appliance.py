"""``duetbox run`` as a systemd service (issue 6, app side): the pi backend waits for the device nodes its
configuration needs before opening the box and ends with one line when some never appear; the configuration
falls back to $DUETBOX_CONFIG or /etc/duetbox/config.toml; READY=1 comes after the first frame and WATCHDOG=1
from the main loop."""

from __future__ import annotations

import os
import re
import socket
import tempfile
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from device.app import App  # noqa: E402
from device.commands import run  # noqa: E402
from device.services import notify  # noqa: E402
from device.services.notify import Notifier  # noqa: E402
from device.storage import Storage  # noqa: E402
from hardware import config as config_module  # noqa: E402
from hardware import factory as box_module  # noqa: E402
from hardware.factory import open_box  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


class Calls:
    def __init__(self, missing: list[str], waits: list[list[str]] | None = None) -> None:
        self.missing = missing
        self.waits = waits or []
        self.wait_args: list[tuple[list[str], float]] = []
        self.opened = 0

    def wait_for_devices(self, needed: list[str], timeout: float, *, on_wait: Any = None, **_: Any) -> list[str]:
        self.wait_args.append((list(needed), timeout))
        for missing in self.waits:
            on_wait(missing)
        return list(self.missing)

    def open_box(self, *args: Any, **kwargs: Any) -> Any:
        self.opened += 1
        raise RuntimeError("no display here")


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> Calls:
    def make(missing: list[str], waits: list[list[str]] | None = None) -> Calls:
        c = Calls(missing, waits)
        monkeypatch.setattr(notify, "wait_for_devices", c.wait_for_devices)
        monkeypatch.setattr(box_module, "open_box", c.open_box)
        return c

    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    monkeypatch.delenv("DUETBOX_CONFIG", raising=False)
    monkeypatch.setattr(config_module, "SYSTEM_CONFIG", Path("/nonexistent/duetbox/config.toml"))
    return make  # type: ignore[return-value]


def test_run_pi_missing_devices_end_in_one_line(calls: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    c = calls(["/dev/gpiochip*", "/dev/spidev0.0"])
    code = run.main(["--hardware", "pi", "--data-dir", str(tmp_path / "d")])
    err = capsys.readouterr().err.strip().splitlines()
    assert code != 0
    assert len(err) == 1 and err[0].startswith("duetbox run: ")
    assert "/dev/gpiochip*" in err[0] and "/dev/spidev0.0" in err[0]
    assert c.opened == 0  # the box is not opened on missing devices
    needed, timeout = c.wait_args[0]
    assert timeout == 60
    assert needed == ["/dev/dri/card*", "/dev/gpiochip*", "/dev/i2c-1", "/dev/spidev0.0"]


def test_run_pi_opens_the_box_without_its_display_or_i2c_bus(calls: Any, tmp_path: Path) -> None:
    # degrade, don't die: the box waits for the display itself and starts without an OLED (device.degraded)
    c = calls(["/dev/dri/card*", "/dev/i2c-1"])
    assert run.main(["--hardware", "pi", "--data-dir", str(tmp_path / "d")]) == 2  # open_box stubbed: fails
    assert c.opened == 1


def test_run_pi_waits_before_opening_the_box(calls: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    c = calls([])
    code = run.main(["--hardware", "pi", "--data-dir", str(tmp_path / "d")])
    assert c.wait_args and c.opened == 1  # waited, then opened (which fails here: no display)
    assert code == 2 and "cannot open the pi hardware" in capsys.readouterr().err


def test_run_other_backends_do_not_wait(calls: Any, tmp_path: Path) -> None:
    c = calls(["/dev/i2c-1"])
    assert run.main(["--hardware", "emulator", "--data-dir", str(tmp_path / "d")]) == 2  # open_box stubbed
    assert c.wait_args == []


def _config_with_bus(folder: Path, port: int) -> Path:
    """The bundled configuration with seat B's OLED on I2C bus ``port``."""
    folder.mkdir(parents=True, exist_ok=True)
    text = (ROOT / "hardware" / "data" / "default.toml").read_text("utf-8")
    head, sep, tail = text.partition("[oled.B]")
    tail = re.sub(r"port = 1\b", f"port = {port}", tail, count=1)
    path = folder / "config.toml"
    path.write_text(head + sep + tail)
    return path


def test_run_pi_config_falls_back_to_the_system_file(calls: Any, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    c = calls(["/dev/i2c-3"])
    system = _config_with_bus(tmp_path, 3)
    monkeypatch.setattr(config_module, "SYSTEM_CONFIG", system)
    assert run.main(["--hardware", "pi", "--data-dir", str(tmp_path / "d")]) == 2
    assert "/dev/i2c-3" in c.wait_args[0][0]
    monkeypatch.setenv("DUETBOX_CONFIG", str(_config_with_bus(tmp_path / "env", 4)))
    assert run.main(["--hardware", "pi", "--data-dir", str(tmp_path / "d")]) == 2
    assert "/dev/i2c-4" in c.wait_args[1][0]
    # --config wins over both
    explicit = _config_with_bus(tmp_path / "x", 5)
    assert run.main(["--hardware", "pi", "--config", str(explicit), "--data-dir", str(tmp_path / "d")]) == 2
    assert "/dev/i2c-5" in c.wait_args[2][0]


def test_run_bad_system_config_is_one_line(calls: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    calls([])
    bad = tmp_path / "config.toml"
    bad.write_text("[oled.A\n")
    monkeypatch.setenv("DUETBOX_CONFIG", str(bad))
    assert run.main(["--hardware", "pi", "--data-dir", str(tmp_path / "d")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("duetbox run: ")


def test_run_pi_tells_systemd_what_it_waits_for(calls: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    waits = [["/dev/i2c-1", "/dev/spidev0.0"], ["/dev/i2c-1", "/dev/spidev0.0"], ["/dev/spidev0.0"]]
    calls([], waits)
    with tempfile.TemporaryDirectory(prefix="dbx-") as folder:
        path = str(Path(folder) / "notify")
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        sock.bind(path)
        sock.setblocking(False)
        monkeypatch.setenv("NOTIFY_SOCKET", path)
        try:
            run.main(["--hardware", "pi", "--data-dir", str(tmp_path / "d")])
            got = []
            while True:
                try:
                    got.append(sock.recv(4096).decode())
                except BlockingIOError:
                    break
        finally:
            sock.close()
    assert got == ["STATUS=waiting for /dev/i2c-1, /dev/spidev0.0", "STATUS=waiting for /dev/spidev0.0"]


def test_app_ready_after_the_first_frame_and_watchdog_from_the_loop(tmp_path: Path) -> None:
    box = open_box("mock")
    app: App | None = None
    sent: list[tuple[str, int]] = []

    def sender(data: bytes) -> None:
        sent.append((data.decode(), app.frames if app is not None else -1))

    env = {"NOTIFY_SOCKET": "/run/fake/notify", "WATCHDOG_USEC": "2000000"}
    notifier = Notifier(environ=env, clock=box.clock.now, sender=sender, pid=os.getpid())
    app = App(box, Storage(tmp_path / "d"), seed=1, notifier=notifier)
    app.start()
    assert sent[0][0].startswith("READY=1") and sent[0][1] >= 1  # the first frame was drawn before
    box.advance(0.5)
    box.quit()
    assert app.run() == 0
    fields = [text for text, _ in sent]
    assert "WATCHDOG=1" in fields  # pinged by the loop itself
    assert fields[-1] == "STOPPING=1"
