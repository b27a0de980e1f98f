"""Hung loop: the test plays systemd. It starts the real box (``duetbox run --hardware emulator`` under SDL's dummy
driver) with a notify socket and a watchdog, sees READY=1 and the WATCHDOG=1 pings, makes the main loop hang, sees
the pings stop, kills the box with SIGABRT as systemd's watchdog does, starts it again, and checks that the game
resumes where it stood."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from helpers_reliability import ROOT, child_env, read_db, soak

from bench.box import policy_action, setup_record
from engine import duet
from engine.record import replay

WATCHDOG_SEC = 1.0  # systemd's WatchdogSec for this test: the box pings every 0.5 s

#: The box's own command line, with one change: once the file ``argv[1]`` exists the main loop hangs (as a loop
#: blocked in a driver or a bug would), so the watchdog pings stop.
HANGABLE = """
import sys, time
from pathlib import Path
import device.app as app_module
flag = Path(sys.argv[1])
original = app_module.App.step
def step(self, timeout=0.0):
    if flag.exists():
        while True:
            time.sleep(3600)
    return original(self, timeout)
app_module.App.step = step
from device.cli import main
sys.exit(main(sys.argv[2:]))
"""


class FakeSystemd:
    """The notify socket of a service manager: collects (time, field) for every datagram."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(str(path))
        self.messages: list[tuple[float, str]] = []

    def collect(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            self.sock.settimeout(left)
            try:
                data = self.sock.recv(4096)
            except TimeoutError:
                return
            now = time.monotonic()
            self.messages += [(now, f) for f in data.decode("utf-8", "replace").split("\n") if f]

    def wait_for(self, wanted: str, timeout: float) -> float:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            for at, f in self.messages:
                if f == wanted:
                    return at
            self.collect(min(0.2, end - time.monotonic()))
        raise AssertionError(f"no {wanted} within {timeout} s (got {[f for _, f in self.messages]})")

    def pings(self, since: float) -> list[float]:
        return [at for at, f in self.messages if f == "WATCHDOG=1" and at >= since]

    def close(self) -> None:
        self.sock.close()


def start_box(systemd: FakeSystemd, flag: Path, *args: str) -> subprocess.Popen[bytes]:
    env = child_env(NOTIFY_SOCKET=str(systemd.path), WATCHDOG_USEC=str(int(WATCHDOG_SEC * 1_000_000)))
    return subprocess.Popen([sys.executable, "-c", HANGABLE, str(flag), "run", "--hardware", "emulator",
                             "--log-level", "INFO", *args], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def record_in_progress(seed: int, moves: int) -> dict[str, object]:
    import random

    record = setup_record(seed)
    state = replay(record).state
    rng = random.Random(seed)
    actions = []
    for _ in range(1000):
        if len(actions) == moves:
            break
        action = policy_action(state, rng)
        assert action is not None
        after, _ = duet.apply(state, action)
        if after.over:  # keep the game going: this test needs one in progress
            continue
        state = after
        actions.append(action.to_dict())
    assert len(actions) == moves
    record["actions"] = actions
    return record


def test_hung_loop_pings_stop_and_a_restart_resumes_the_game(tmp_path: Path) -> None:
    for round_ in range(soak(1, 10)):
        run_once(tmp_path / f"r{round_}", seed=40 + round_)


def run_once(root: Path, seed: int) -> None:
    root.mkdir()
    data, flag = root / "data", root / "hang"
    start = root / "start.json"
    record = record_in_progress(seed, 5)
    start.write_text(json.dumps(record))
    systemd = FakeSystemd(root / "notify.sock")
    boxes: list[subprocess.Popen[bytes]] = []
    try:
        box = start_box(systemd, flag, "--data-dir", str(data), "--start", str(start))
        boxes.append(box)
        ready = systemd.wait_for("READY=1", 60)
        systemd.collect(2.2)
        pings = systemd.pings(ready)
        assert len(pings) >= 4, f"a healthy loop pings every {WATCHDOG_SEC / 2} s; got {len(pings)} in 2.2 s"
        gaps = [b - a for a, b in zip(pings, pings[1:], strict=False)]
        assert max(gaps) < WATCHDOG_SEC, f"pings too far apart for the watchdog: {max(gaps):.3f} s"
        committed = read_db(data)["games"]
        assert len(committed) == 1 and len(committed[0]["actions"]) == len(record["actions"])  # type: ignore

        flag.touch()  # the loop hangs at its next iteration
        hung_from = time.monotonic() + WATCHDOG_SEC / 2 + 0.1  # one ping may already be on its way
        systemd.collect(WATCHDOG_SEC * 4)
        assert systemd.pings(hung_from) == [], "a hung loop must not keep the watchdog fed"
        assert box.poll() is None
        box.send_signal(signal.SIGABRT)  # what systemd does when WatchdogSec passes without a ping
        box.wait(10)
        assert box.returncode != 0

        flag.unlink()
        systemd.messages.clear()
        again = start_box(systemd, flag, "--data-dir", str(data))  # Restart=always: no --start this time
        boxes.append(again)
        ready = systemd.wait_for("READY=1", 60)
        systemd.collect(1.2)
        assert len(systemd.pings(ready)) >= 2, "the restarted box does not feed the watchdog"
        again.send_signal(signal.SIGTERM)
        again.wait(20)
        err = again.stderr.read().decode("utf-8", "replace") if again.stderr else ""
        assert again.returncode == 0, err[-500:]
        moves = len(record["actions"])  # type: ignore[arg-type]
        assert f"resumed game 1 at move {moves}" in err, err[-500:]
        games = read_db(data)["games"]
        assert [g["status"] for g in games] == ["playing"]
        assert games[0]["actions"] == record["actions"]
    finally:
        for b in boxes:
            if b.poll() is None:
                b.kill()
                b.wait()
            if b.stderr:
                b.stderr.close()
        systemd.close()
