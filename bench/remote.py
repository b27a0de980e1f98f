"""``duetbox bench --remote``: how long a move made on one box takes to show on the other, on loopback.

Two box apps on mock hardware (real engine, real SQLite commits with fsync, real renderers), a real Mosquitto on
127.0.0.1 started for the measure. Host moves: the host commits, publishes; the guest receives, commits, draws.
Guest moves: the guest proposes; the host receives, commits (and publishes the move back), draws. The clock
stops when the other box has drawn the frame that shows the move. Target: p50 <= 50 ms (docs/remote.md).
"""

from __future__ import annotations

import os
import queue
import random
import shutil
import socket
import subprocess
import tempfile
import threading
import time
import traceback
from pathlib import Path
from typing import Any

from bench.box import percentile, policy_action
from device.app import App
from device.remote.app import remote_app
from device.remote.transport import BrokerConfig
from device.storage import Storage
from hardware.factory import open_box

TARGET_P50_MS = 50.0


def mosquitto_binary() -> str | None:
    found = shutil.which("mosquitto")
    if found:
        return found
    return "/usr/sbin/mosquitto" if os.access("/usr/sbin/mosquitto", os.X_OK) else None


def start_mosquitto(directory: Path) -> tuple[subprocess.Popen[bytes], int]:
    """A throw-away broker on 127.0.0.1 (a free port, no persistence); RuntimeError when it cannot start."""
    binary = mosquitto_binary()
    if binary is None:
        raise RuntimeError("mosquitto is not installed (apt-get install mosquitto)")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    conf = directory / "mosquitto.conf"
    conf.write_text(f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\nset_tcp_nodelay true\n",
                    encoding="utf-8")
    proc = subprocess.Popen([binary, "-c", str(conf)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return proc, port
        except OSError:
            if proc.poll() is not None:
                break
            time.sleep(0.02)
    proc.kill()
    raise RuntimeError("mosquitto did not start")


class _BoxThread:
    """One box's loop in its own thread, as on a real box: it sleeps on its event queue (a network message wakes
    it at once through the link's wake-up), runs the commands given to it, steps and draws, and notes when each
    version of the game was first drawn."""

    def __init__(self, make: Any) -> None:
        self.app: Any = None
        self._make = make
        self._ready = threading.Event()
        self.commands: queue.Queue[Any] = queue.Queue()
        self.drawn: dict[int, float] = {}
        self.running = True
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._loop, daemon=True)
        self.thread.start()

    def _loop(self) -> None:
        try:
            self.app = self._make()  # SQLite objects belong to the thread that made them
            self._ready.set()
            while self.running:
                self.app.box.queue.wait_for_item(0.05)
                while not self.commands.empty():
                    self.commands.get()(self.app)
                self.app.step(0)
                session = self.app.game.session
                if session is not None and session.version not in self.drawn:
                    self.drawn[session.version] = time.perf_counter()
                    with _CHANGED:
                        _CHANGED.notify_all()
        except BaseException as exc:  # noqa: BLE001 - reported by the main thread
            self.error = exc
            self.trace = traceback.format_exc()
            self.running = False
            self._ready.set()
        finally:
            if self.app is not None:
                self.app.shutdown()

    def wait_ready(self) -> None:
        if not self._ready.wait(10) or self.error is not None:
            raise RuntimeError(f"a box did not start: {self.error!r}")

    def run(self, command: Any) -> None:
        self.commands.put(command)
        self.app.remote.wake_loop()

    def call(self, command: Any, timeout: float = 10.0) -> Any:
        """Run ``command(app)`` in the box's thread and wait for its result."""
        out: queue.Queue[Any] = queue.Queue()
        self.run(lambda app: out.put(command(app)))
        try:
            return out.get(timeout=timeout)
        except queue.Empty:
            raise RuntimeError(f"the box did not answer in time ({getattr(self, 'trace', None)})") from None

    def stop(self) -> None:
        self.running = False
        self.thread.join(5)


def _leave_game(app: App) -> None:
    app.game.end()
    app.nav.menu()


#: Notified when a box has drawn a new version: the measuring thread sleeps on it instead of polling (a polling
#: thread would take the interpreter lock from the two boxes thousands of times a second and slow the figure).
_CHANGED = threading.Condition()


def _wait(until: Any, boxes: list[_BoxThread], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not until():
        for box in boxes:
            if box.error is not None:
                raise RuntimeError(f"a box failed: {box.error!r}")
        if time.monotonic() > deadline:
            raise RuntimeError("the boxes did not answer in time")
        with _CHANGED:
            _CHANGED.wait(0.02)


def measure_remote(quick: bool = False, *, moves: int | None = None) -> dict[str, Any]:
    """p50/p99 (ms) of a move shown on the other box, both directions together and each apart."""
    wanted = moves or (60 if quick else 300)
    rng = random.Random(5)
    host_to_guest: list[float] = []
    guest_to_host: list[float] = []
    host_guesses: list[float] = []  # seat A's guesses: read on B's side by the guest's box first (a round trip)
    game = 0
    # a RAM disk when there is one, as the app figures of bench/box.py: the figure is the code's, not the disk's
    ram = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
    with tempfile.TemporaryDirectory(prefix="duetbox-bench-remote-", dir=ram) as tmp:
        root = Path(tmp)
        proc, port = start_mosquitto(root)
        broker = BrokerConfig(port=port)
        boxes: list[_BoxThread] = []
        try:
            for role, seed in (("host", 1), ("guest", 2)):
                def make(role: str = role, seed: int = seed) -> Any:
                    storage = Storage(root / role)
                    storage.set_setting("pack", "en")
                    app = remote_app(open_box("mock"), storage, broker=broker, seed=seed)
                    app.start()
                    return app

                boxes.append(_BoxThread(make))
            for box in boxes:
                box.wait_ready()
            host, guest = boxes
            while len(host_to_guest) + len(guest_to_host) < wanted:
                game += 1
                code = host.call(lambda app: app.remote.host_game())
                guest.call(lambda app, code=code: app.remote.join_game(code))
                _wait(lambda: guest.app.game.session is not None and host.app.remote.link.ready
                      and guest.app.remote.link.ready,
                      boxes)
                while len(host_to_guest) + len(guest_to_host) < wanted:
                    state = host.call(lambda app: app.game.session.state)
                    action = None if state.over else policy_action(state, rng)
                    if action is None:
                        break
                    mover, other = (host, guest) if getattr(action, "seat", None) == "A" else (guest, host)
                    target = state.version + 1
                    start = time.perf_counter()
                    mover.run(lambda app, a=action, v=state.version: app.game.act(a, v))
                    _wait(lambda o=other, t=target: t in o.drawn, boxes)
                    took = (other.drawn[target] - start) * 1000
                    (host_to_guest if mover is host else guest_to_host).append(took)
                    if mover is host and type(action).__name__ == "Guess":
                        host_guesses.append(took)
                    _wait(lambda t=target: t in host.drawn and t in guest.drawn, boxes)
                for box in boxes:
                    box.call(_leave_game)
                    box.drawn.clear()
        finally:
            try:
                for box in boxes:
                    box.stop()
            finally:
                proc.terminate()
                proc.wait(5)
    both = host_to_guest + guest_to_host
    return {
        "remote_move_ms_p50": round(percentile(both, 0.5), 2),
        "remote_move_ms_p99": round(percentile(both, 0.99), 2),
        "remote_host_to_guest_ms_p50": round(percentile(host_to_guest, 0.5), 2),
        "remote_guest_to_host_ms_p50": round(percentile(guest_to_host, 0.5), 2),
        "remote_host_guess_ms_p50": round(percentile(host_guesses, 0.5), 2) if host_guesses else None,
        "remote_host_other_ms_p50": round(percentile([t for t in host_to_guest if t not in host_guesses], 0.5), 2)
        if len(host_to_guest) > len(host_guesses) else None,
        "remote_moves": len(both),
        "remote_games": game,
        "remote_data_on": "ram disk" if ram else "disk",
    }


def remote_table(result: dict[str, Any]) -> str:
    width = max(len(k) for k in result)
    lines = [f"{k:<{width}}  {v}" for k, v in result.items()]
    p50 = result["remote_move_ms_p50"]
    verdict = "met" if p50 <= TARGET_P50_MS else "MISSED"
    lines.append(f"target: a move shown on the other box, p50 <= {TARGET_P50_MS:g} ms on loopback: {verdict}")
    return "\n".join(lines)
