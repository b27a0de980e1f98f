"""Helpers of the remote-play tests: a real Mosquitto on 127.0.0.1, two box apps on mock hardware."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from device.app import App  # noqa: E402
from device.remote.app import remote_app  # noqa: E402
from device.remote.transport import BrokerConfig  # noqa: E402
from device.storage import Storage  # noqa: E402
from hardware.factory import open_box  # noqa: E402

#: Every wait of these tests is bounded: a broken link fails the test in seconds instead of hanging it.
WAIT = 15.0


def _mosquitto() -> str | None:
    return shutil.which("mosquitto") or next((p for p in ("/usr/sbin/mosquitto",) if os.access(p, os.X_OK)), None)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Broker:
    binary: str
    port: int
    conf: Path
    proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen([self.binary, "-c", str(self.conf)], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return
            except OSError:
                if self.proc.poll() is not None:
                    raise RuntimeError(f"mosquitto exited with {self.proc.returncode}") from None
                time.sleep(0.02)
        raise RuntimeError("mosquitto did not start listening")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self.proc = None

    @property
    def config(self) -> BrokerConfig:
        return BrokerConfig(host="127.0.0.1", port=self.port, keepalive=2)



#: Box apps a test made: the broker fixture closes their links at the end (no client left reconnecting).
OPEN: list[App] = []


def close_all() -> None:
    while OPEN:
        OPEN.pop().remote.close_link(clean=False)


def make_box(data: Path, broker: Broker, seed: int = 1) -> App:
    storage = Storage(data)
    storage.set_setting("language", "en")
    storage.set_setting("pack", "en")
    app = remote_app(open_box("mock"), storage, broker=broker.config, seed=seed)
    app.start()
    OPEN.append(app)
    return app


def pump(apps: list[App], until: Callable[[], bool], what: str, timeout: float = WAIT) -> None:
    """Run both boxes' loops until ``until()`` (bounded)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for app in apps:
            app.box.advance(0.01)
            app.step(0)
        if until():
            return
        time.sleep(0.003)
    raise AssertionError(f"timed out waiting for {what}")


def paired(host: App, guest: App) -> bool:
    """The guest has its game and both links are ready."""
    links = (host.remote.link if host.remote else None, guest.remote.link if guest.remote else None)
    return guest.game.session is not None and all(link is not None and link.ready for link in links)


def exported(app: App) -> dict[str, Any]:
    """What `duetbox export` prints for the box's game: the stored set-up and the stored actions."""
    assert app.game.id is not None
    row = app.storage.game(app.game.id)
    assert row is not None
    return dict(row.setup, actions=app.storage.actions(row.id))
