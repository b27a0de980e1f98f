"""``duetbox bench --quick --json`` prints every figure (no timing is asserted: the bench reports, it does not judge
this machine)."""

from __future__ import annotations

import json
import subprocess
import sys

from helpers_reliability import ROOT, child_env, duetbox

from bench.box import KEYS, TARGETS, i2c_ms, percentile, policy_action, script_lines, setup_record
from engine.actions import Clue, Guess, Stop
from engine.record import replay


def bench_json(*args: str) -> dict[str, object]:
    """``duetbox bench ARGS --json`` as a user runs it (PYGAME_HIDE_SUPPORT_PROMPT not set): its whole stdout is
    one JSON object (pygame's banner printed there made it unparseable)."""
    env = child_env()
    env.pop("PYGAME_HIDE_SUPPORT_PROMPT", None)
    got = subprocess.run([sys.executable, "-m", "device.cli", "bench", *args, "--json"], cwd=ROOT, env=env,
                         text=True, capture_output=True, timeout=300)
    assert got.returncode == 0, got.stderr[-800:]
    result = json.loads(got.stdout)
    assert isinstance(result, dict)
    return result


def test_bench_quick_json_prints_every_figure() -> None:
    result = bench_json("--quick")
    assert result.get("notes") is None, result.get("notes")
    for key in KEYS:
        assert isinstance(result[key], int | float), f"{key} was not measured: {result[key]!r}"
        assert result[key] >= 0
    assert result["oled_full_frame_bytes"] == 2 * 1034  # two SSD1306 frames as they go on the wire
    assert set(result["targets"]) == set(TARGETS)
    assert all(v.startswith(("met", "MISSED")) for v in result["targets"].values())


def test_bench_pi_profile_quick_json_is_json_only() -> None:
    from bench.pi import PROFILE_KEYS

    result = bench_json("--profile", "pi4", "--quick")
    assert set(PROFILE_KEYS) <= set(result)


def test_bench_table_lists_every_figure() -> None:
    from bench.box import table

    text = table({k: 1.0 for k in KEYS} | {"targets": {"peak_rss_mb": "met (1.0 < 80.0)"}})
    for key in KEYS:
        assert key in text
    assert "target peak_rss_mb" in text


def test_bench_bad_arguments_exit_2() -> None:
    got = duetbox("bench", "--fast")
    assert got.returncode == 2
    assert got.stderr.strip().count("\n") == 0 and "duetbox bench" in got.stderr


def test_bench_i2c_time_of_a_full_frame_is_about_23_ms() -> None:
    assert 23.0 < i2c_ms(1034) < 23.5


def test_bench_percentile_interpolates() -> None:
    assert percentile([1.0, 2.0, 3.0, 4.0], 0.5) == 2.5
    assert percentile([5.0], 0.99) == 5.0


def test_bench_policy_plays_legal_games_with_button_scripts() -> None:
    import random

    from engine import duet

    rng = random.Random(3)
    state = replay(setup_record(3)).state
    while (action := policy_action(state, rng)) is not None:
        assert isinstance(action, Clue | Guess | Stop)
        assert script_lines(action)
        state, _ = duet.apply(state, action)
    assert state.over
