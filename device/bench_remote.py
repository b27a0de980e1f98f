"""``duetbox bench --remote``: how long a move made on one box takes to show on the other, on loopback.

Two box apps on mock hardware (real engine, real SQLite commits with fsync, real renderers), a real Mosquitto on
127.0.0.1 started for the measure. Host moves: the host commits, publishes; the guest receives, commits, draws.
Guest moves: the guest proposes; the host receives, commits (and publishes the move back), draws. The clock
stops when the other box has drawn the frame that shows the move. Target: p50 <= 50 ms (docs/remote.md).
"""

from __future__ import annotations

import os
import random
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

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
    conf.write_text(f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\n", encoding="utf-8")
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


def _pump(apps: list[Any], until: Any, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not until():
        if time.monotonic() > deadline:
            raise RuntimeError("the boxes did not answer in time")
        for app in apps:
            app.step(0)


def measure_remote(quick: bool = False) -> dict[str, Any]:
    """p50/p99 (ms) of a move shown on the other box, both directions together and each apart."""
    from device.bench import percentile, policy_action
    from device.remote.app import RemoteApp
    from device.remote.transport import BrokerConfig
    from device.storage import Storage
    from hardware.box import open_box

    wanted = 60 if quick else 300
    rng = random.Random(5)
    host_to_guest: list[float] = []
    guest_to_host: list[float] = []
    # a RAM disk when there is one, as the app figures of device/bench.py: the figure is the code's, not the disk's
    ram = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
    with tempfile.TemporaryDirectory(prefix="duetbox-bench-remote-", dir=ram) as tmp:
        root = Path(tmp)
        proc, port = start_mosquitto(root)
        broker = BrokerConfig(port=port)
        apps: list[Any] = []
        try:
            for role, seed in (("host", 1), ("guest", 2)):
                storage = Storage(root / role)
                storage.set_setting("pack", "en")
                app = RemoteApp(open_box("mock"), storage, broker=broker, seed=seed)
                app.start()
                apps.append(app)
            host, guest = apps
            game = 0
            while len(host_to_guest) + len(guest_to_host) < wanted:
                game += 1
                code = host.host_game(code=None)
                guest.join_game(code)
                _pump(apps, lambda: guest.session is not None and host.link.ready and guest.link.ready)
                while not host.session.over and len(host_to_guest) + len(guest_to_host) < wanted:
                    action = policy_action(host.session.state, rng)
                    if action is None:
                        break
                    mover, other = (host, guest) if action.seat == "A" else (guest, host)
                    target = host.session.version + 1
                    start = time.perf_counter()
                    mover.act(action, mover.session.version)
                    _pump(apps if mover is guest else [other], lambda: other.session.version >= target)
                    other.draw()  # the frame that shows it (step already drew it; this one is the diff's no-op)
                    elapsed = (time.perf_counter() - start) * 1000
                    (host_to_guest if mover is host else guest_to_host).append(elapsed)
                    _pump(apps, lambda: host.session.version == guest.session.version)
                for app in apps:
                    app.end_game_session()
        finally:
            for app in apps:
                app.shutdown()
            proc.terminate()
            proc.wait(5)
    both = host_to_guest + guest_to_host
    return {
        "remote_move_ms_p50": round(percentile(both, 0.5), 2),
        "remote_move_ms_p99": round(percentile(both, 0.99), 2),
        "remote_host_to_guest_ms_p50": round(percentile(host_to_guest, 0.5), 2),
        "remote_guest_to_host_ms_p50": round(percentile(guest_to_host, 0.5), 2),
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
