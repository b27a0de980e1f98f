"""Power cut: ``kill -9`` a paced scripted game (``duetbox run --hardware mock --pace``) at random moments, start it
again, and compare with what had been committed before the kill (read by a second SQLite reader while the box
played): nothing committed is lost, nothing half-written is read back, and the game goes on after each restart.

30 kills in ``make test`` (three chains of kills run side by side to keep the suite short), 1000 in ``make soak``.
What this cannot show: a real power cut also loses the disk's write cache; that is SQLite's synchronous=FULL and
the SD card's business, and is not reproducible on this machine.
"""

from __future__ import annotations

import json
import random
import signal
import sqlite3
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from helpers_reliability import SOAK, integrity, read_db, soak, spawn
from PIL import Image

from bench.box import policy_action, script_lines, setup_record
from engine.actions import action_from_dict
from engine.record import replay

KILLS = soak(30, 1000)
CHAINS = soak(3, 8)
PACE_MS = 25


@dataclass
class Chain:
    """One data directory killed again and again."""

    root: Path
    seed: int
    rng: random.Random = field(init=False)
    kills: int = 0
    restarts_that_played: int = 0
    kills_mid_game: int = 0  # kills that came after the run had committed actions of its own
    committed_total: int = 0
    problems: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        self.data = self.root / "data"
        self.snaps = self.root / "snaps"
        self.games_started = 0

    # -- planning what the next run plays -------------------------------------------------------------------
    def plan(self) -> tuple[list[str], list[dict[str, Any]], Path | None, int | None, int]:
        """(script lines, planned actions, --start record or None, game id resumed or None, actions it has)."""
        games = read_db(self.data)["games"]
        playing = [g for g in games if g["status"] == "playing"]
        state = None
        if playing:
            game = playing[-1]
            result = replay(dict(game["setup"], actions=game["actions"]))
            if not result.ok:
                self.problems.append(f"game {game['id']} does not replay: {result.error_message}")
            state = result.state
        start: Path | None = None
        resumed: int | None = None
        have = 0
        lines: list[str] = []
        if state is None or state.over:
            self.games_started += 1
            record = setup_record(self.seed * 1000 + self.games_started)
            start = self.root / f"start-{self.games_started}.json"
            start.write_text(json.dumps(record))
            replayed = replay(record)
            state = replayed.state
        else:
            resumed, have = playing[-1]["id"], len(playing[-1]["actions"])
            # a clue entry left open by the kill is closed first (STOP twice; a tap never stops a turn)
            lines += ["press A.stop", "press A.stop", "press B.stop", "press B.stop"]
        planned: list[dict[str, Any]] = []
        from engine import duet

        for i in range(self.rng.randint(6, 14)):
            action = policy_action(state, self.rng)
            if action is None:
                break
            lines += script_lines(action)
            if i % 3 == 2:
                lines.append(f"snapshot s{self.kills}-{i}")
            planned.append(action.to_dict())
            state, _ = duet.apply(state, action)
        return lines, planned, start, resumed, have

    # -- one run, killed or not -----------------------------------------------------------------------------
    def run(self, kill: bool) -> None:
        lines, planned, start, resumed, have = self.plan()
        script = self.root / "script.txt"
        script.write_text("\n".join(lines) + "\n")
        args = ["run", "--hardware", "mock", "--script", str(script), "--snapshots", str(self.snaps),
                "--data-dir", str(self.data), "--seed", str(self.seed)]
        if kill:
            args += ["--pace", str(PACE_MS)]
        if start is not None:
            args += ["--start", str(start)]
        before = {g["id"]: g["actions"] for g in read_db(self.data)["games"]}
        proc = spawn(*args)
        seen: dict[int, list[dict[str, Any]]] = {}
        # One kill in five lands anywhere in the first second (start-up, opening the database, resuming); the
        # others land at a random moment after the run committed its first action (in the middle of play).
        during_startup = self.rng.random() < 0.2
        kill_at = time.monotonic() + self.rng.uniform(0.0, 1.0) if during_startup else None
        while proc.poll() is None and (not kill or kill_at is None or time.monotonic() < kill_at):
            try:
                for g in read_db(self.data)["games"]:
                    if len(g["actions"]) >= len(seen.get(g["id"], [])):
                        seen[g["id"]] = g["actions"]
                    if kill_at is None and len(g["actions"]) > len(before.get(g["id"], [])):
                        kill_at = time.monotonic() + self.rng.uniform(0.0, 0.6)
            except sqlite3.Error:
                pass  # the box is creating its database: nothing committed yet
            time.sleep(0.01)
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            self.kills += 1
        proc.wait(30)
        err = proc.stderr.read().decode("utf-8", "replace") if proc.stderr else ""
        if proc.stderr:
            proc.stderr.close()
        if not kill and proc.returncode != 0:
            self.problems.append(f"a run to the end exited {proc.returncode}: {err.strip()[-300:]}")
        self.check(seen, before, planned, start, resumed, have)

    def check(self, seen: dict[int, list[dict[str, Any]]], before: dict[int, list[dict[str, Any]]],
              planned: list[dict[str, Any]], start: Path | None, resumed: int | None, have: int) -> None:
        where = f"chain {self.seed}, kill {self.kills}"
        if not (self.data / "duetbox.db").exists():
            return
        if integrity(self.data) != "ok":
            self.problems.append(f"{where}: the database fails its integrity check")
            return
        games = {g["id"]: g for g in read_db(self.data)["games"]}
        for gid, actions in list(before.items()) + list(seen.items()):
            stored = games.get(gid, {}).get("actions", [])
            if stored[:len(actions)] != actions:
                self.problems.append(f"{where}: game {gid} lost committed actions ({len(actions)} -> {len(stored)})")
        for gid, game in games.items():
            self.check_game(where, gid, game)
        fresh = [gid for gid in games if gid not in before]  # the game a --start run began, if it got that far
        target = resumed if resumed is not None else (fresh[-1] if fresh else None)
        if target is not None:
            new = games[target]["actions"][have:]
            if new != planned[:len(new)]:
                self.problems.append(f"{where}: game {target} applied {new} instead of the script's {planned}")
            if new:
                self.restarts_that_played += 1
                self.committed_total += len(new)
                if len(new) < len(planned):
                    self.kills_mid_game += 1
        self.check_snapshots(where)

    def check_game(self, where: str, gid: int, game: dict[str, Any]) -> None:
        """One stored game: action numbers without a gap, every action whole, the game replays."""
        if game["seqs"] != list(range(len(game["actions"]))):
            self.problems.append(f"{where}: game {gid} has a gap in its action numbers {game['seqs']}")
        try:
            [action_from_dict(a) for a in game["actions"]]
        except ValueError as exc:
            self.problems.append(f"{where}: game {gid} holds a half-written action ({exc})")
            return
        result = replay(dict(game["setup"], actions=game["actions"]))
        if not result.ok:
            self.problems.append(f"{where}: game {gid} does not replay ({result.error_message})")

    def check_snapshots(self, where: str) -> None:
        """Every snapshot the runs wrote is whole (a kill may cut a write, never leave half a file)."""
        for png in self.snaps.glob("*.png"):
            try:
                with Image.open(png) as image:
                    image.load()
            except OSError as exc:
                self.problems.append(f"{where}: snapshot {png.name} is half-written ({exc})")
        for ring in self.snaps.glob("*-ring.json"):
            try:
                json.loads(ring.read_text())
            except ValueError:
                self.problems.append(f"{where}: {ring.name} is half-written")


def run_chain(chain: Chain, kills: int) -> None:
    try:
        while chain.kills < kills and not chain.problems:
            chain.run(kill=True)
        if not chain.problems:
            chain.run(kill=False)  # the last start plays its script to the end: the game goes on
    except Exception as exc:  # noqa: BLE001 - reported by the test thread
        chain.problems.append(f"chain {chain.seed} crashed: {type(exc).__name__}: {exc}")


def test_power_cut_kill_9_loses_nothing_committed_and_the_game_goes_on(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    chains = [Chain(tmp_path / f"chain{i}", seed=i + 1) for i in range(CHAINS)]
    for chain in chains:
        chain.root.mkdir()
    per_chain = [KILLS // CHAINS + (1 if i < KILLS % CHAINS else 0) for i in range(CHAINS)]
    threads = [threading.Thread(target=run_chain, args=(c, n)) for c, n in zip(chains, per_chain, strict=True)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    summary = (f"power cut: {sum(c.kills for c in chains)} kills ({sum(c.kills_mid_game for c in chains)} in the "
               f"middle of play) in {CHAINS} chains, {sum(c.games_started for c in chains)} games, "
               f"{sum(c.committed_total for c in chains)} actions committed by restarted boxes, "
               f"{sum(len(c.problems) for c in chains)} problem(s)")
    if SOAK:
        with capsys.disabled():
            print("\n" + summary)
    problems = [p for c in chains for p in c.problems]
    assert not problems, "\n".join(problems[:20])
    assert sum(c.kills for c in chains) >= KILLS * 0.9, "runs ended before they could be killed"
    assert sum(c.committed_total for c in chains) > 0
    assert sum(c.kills_mid_game for c in chains) >= KILLS // 4, "too few kills landed in the middle of a game"
    assert all(c.restarts_that_played > 0 for c in chains), "a restarted box never played on"
