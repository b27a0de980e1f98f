"""A box killed with SIGKILL mid-game (a power cut) comes back on the same game and screen, no action lost."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "device"))

from boxscript import Table, cards, make_record  # noqa: E402


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")
    env["PYTHONPATH"] = str(ROOT)
    return env


def _run(args: list[str]) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "device.cli", "run", "--hardware", "mock", *args],
                            cwd=ROOT, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def test_resume_after_kill_shows_same_state(tmp_path: Path) -> None:
    record = make_record(21)
    start = tmp_path / "start.json"
    start.write_text(json.dumps(record))
    greens = cards(record, "A", "G")
    t = Table().clue("A", 3, "fruit").guess("B", greens[0]).guess("B", greens[1])
    t.add("press A.left", "snapshot before")
    t.add(*["wait 10"] * 400)  # the box idles on: the kill comes while it runs
    script = tmp_path / "part1.txt"
    script.write_text(t.text())
    data, snaps = tmp_path / "data", tmp_path / "snaps"
    proc = _run(["--script", str(script), "--snapshots", str(snaps), "--data-dir", str(data), "--start",
                 str(start), "--pace", "25"])
    deadline = time.monotonic() + 60
    while not (snaps / "before-ring.json").exists():
        assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
        assert time.monotonic() < deadline, "the scripted run never reached the snapshot"
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    assert proc.returncode == -signal.SIGKILL

    after = tmp_path / "after.txt"
    after.write_text("snapshot after\n")
    second = _run(["--script", str(after), "--snapshots", str(snaps), "--data-dir", str(data)])
    out, err = second.communicate(timeout=60)
    assert second.returncode == 0, err.decode()
    for part in ("shared", "oled-A", "oled-B"):
        before_image = Image.open(snaps / f"before-{part}.png")
        after_image = Image.open(snaps / f"after-{part}.png")
        assert before_image.tobytes() == after_image.tobytes(), part

    exported = subprocess.run([sys.executable, "-m", "device.cli", "export", "--data-dir", str(data)],
                              cwd=ROOT, env=_env(), capture_output=True, check=True)
    actions = json.loads(exported.stdout)["actions"]
    assert actions == [
        {"type": "clue", "seat": "A", "word": "fruit", "number": 3},
        {"type": "guess", "seat": "B", "card": greens[0]},
        {"type": "guess", "seat": "B", "card": greens[1]},
    ]
