"""Shared helpers of the reliability suite (power cut, hung loop, faults, buttons, bad input, secrecy).

``DUETBOX_SOAK=1`` (``make soak``) turns every count up: ``soak(normal, long)`` picks one.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

ROOT = Path(__file__).resolve().parents[2]
BROKEN = ROOT / "tests" / "data" / "broken"
SOAK = os.environ.get("DUETBOX_SOAK", "") not in ("", "0")


def soak(normal: int, long: int) -> int:
    """``normal`` in ``make test``, ``long`` in ``make soak``."""
    return long if SOAK else normal


def child_env(**extra: str) -> dict[str, str]:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1",
               PYTHONPATH=str(ROOT))
    env.pop("NOTIFY_SOCKET", None)
    env.pop("WATCHDOG_USEC", None)
    env.update(extra)
    return env


def duetbox(*args: str, timeout: float = 60, **kwargs: Any) -> subprocess.CompletedProcess[str]:
    """Run ``duetbox ARGS`` in a fresh interpreter (the real command line)."""
    return subprocess.run([sys.executable, "-m", "device.cli", *args], cwd=ROOT, env=child_env(), text=True,
                          capture_output=True, timeout=timeout, **kwargs)


def spawn(*args: str, **env: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "device.cli", *args], cwd=ROOT, env=child_env(**env),
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def read_db(data_dir: Path) -> dict[str, Any]:
    """What the box has committed: every game's set-up, status and actions (read-only, like a second reader)."""
    path = data_dir / "duetbox.db"
    if not path.exists():
        return {"games": []}
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)
    try:
        tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if not {"games", "actions"} <= tables:  # killed before its schema was committed: nothing saved yet
            return {"games": []}
        games = []
        for gid, setup, status in db.execute("SELECT id, setup, status FROM games ORDER BY id"):
            actions = [json.loads(a) for (a,) in
                       db.execute("SELECT action FROM actions WHERE game = ? ORDER BY seq", (gid,))]
            seqs = [s for (s,) in db.execute("SELECT seq FROM actions WHERE game = ? ORDER BY seq", (gid,))]
            games.append({"id": gid, "setup": json.loads(setup), "status": status, "actions": actions,
                          "seqs": seqs})
        return {"games": games}
    finally:
        db.close()


def integrity(data_dir: Path) -> str:
    db = sqlite3.connect(data_dir / "duetbox.db")
    try:
        return str(db.execute("PRAGMA integrity_check").fetchone()[0])
    finally:
        db.close()


def one_line_error(err: str) -> str:
    """The single stderr line of a refused input; AssertionError when there are several or a traceback."""
    lines = [line for line in err.splitlines() if line.strip()]
    assert "Traceback" not in err, err
    assert len(lines) == 1, f"expected one line on stderr, got {len(lines)}: {err!r}"
    return lines[0]
