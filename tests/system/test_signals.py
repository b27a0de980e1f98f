"""SIGTERM and SIGINT end the box cleanly: exit 0, the game kept, a log line saying why."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "device"))

from boxscript import make_record  # noqa: E402


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_signals_stop_the_loop_cleanly(tmp_path: Path, sig: signal.Signals) -> None:
    record = make_record(3, actions=[{"type": "clue", "seat": "A", "word": None, "number": 2}])
    start = tmp_path / "start.json"
    start.write_text(json.dumps(record))
    data = tmp_path / "data"
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "device.cli", "run", "--hardware", "mock", "--data-dir",
                             str(data), "--start", str(start), "--log-level", "INFO"],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    db = data / "duetbox.db"
    deadline = time.monotonic() + 30
    while True:
        assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
        assert time.monotonic() < deadline
        if db.exists():
            con = sqlite3.connect(db)
            try:
                if con.execute("SELECT COUNT(*) FROM actions").fetchone()[0] == 1:
                    break
            except sqlite3.OperationalError:
                pass
            finally:
                con.close()
        time.sleep(0.05)
    time.sleep(0.3)
    proc.send_signal(sig)
    _out, err = proc.communicate(timeout=20)
    assert proc.returncode == 0, err.decode()
    assert f"stopping ({sig.name})" in err.decode()
    con = sqlite3.connect(db)
    assert con.execute("SELECT status FROM games").fetchall() == [("playing",)]
    con.close()
