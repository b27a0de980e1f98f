"""Scenario files of classic Codenames, Pictures and Duet with pictures (rules §2, §3), run by replay.

Each file cites the rule it checks; its expected summary was worked out by hand from ../shared/rules.md, never
copied from the engine's output. Exit 0 = every action applied, 3 = one was refused (``error.action`` says
which), 2 = not a valid record (one line on stderr, nothing on stdout).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from device.cli import main

SCENARIOS = sorted((Path(__file__).parent / "scenarios_classic").glob("*.json"))
SUMMARY_KEYS = {"status", "winner", "reason", "covered", "turn", "guesses_left", "error"}


def _subset(expected: object, actual: object) -> bool:
    if isinstance(expected, dict) and isinstance(actual, dict):
        return all(k in actual and _subset(v, actual[k]) for k, v in expected.items())
    return expected == actual


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_classic_scenario_replay_matches_rule(path: Path, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    scenario = json.loads(path.read_text(encoding="utf-8"))
    assert scenario["rule"].startswith("§"), "every scenario cites the rule it checks"
    record = tmp_path / path.name
    record.write_text(json.dumps(scenario["record"], ensure_ascii=False), encoding="utf-8")
    code = main(["replay", str(record)])
    captured = capsys.readouterr()
    assert code == scenario["exit"], (scenario["description"], captured.out, captured.err)
    if code == 2:
        assert captured.out == ""
        lines = captured.err.splitlines()
        assert len(lines) == 1 and "not a valid record" in lines[0], captured.err
        assert scenario["stderr"] in lines[0], lines[0]
        return
    assert captured.err == ""
    out = json.loads(captured.out)
    if scenario["record"].get("mode") in ("classic", "pictures"):
        assert set(out) == SUMMARY_KEYS
    assert (out["error"] is None) == (code == 0)
    expect = scenario["expect"]
    assert _subset(expect, out), f"{scenario['description']}\nexpected {expect}\ngot {out}"


def test_classic_scenarios_cover_every_mode_and_variant() -> None:
    records = [json.loads(p.read_text(encoding="utf-8"))["record"] for p in SCENARIOS]
    seen = {(r.get("mode"), r.get("variant", "standard"), r.get("pictures_key", "source")) for r in records}
    for mode, keys in (("classic", ("source",)), ("pictures", ("source", "printed"))):
        for variant in ("standard", "duo", "trio"):
            assert any((mode, variant, k) in seen for k in keys), (mode, variant)
    assert ("pictures", "standard", "printed") in seen
    assert any(r.get("mode") == "duet" and r.get("pictures") for r in records)  # Duet with pictures
    assert len(SCENARIOS) >= 60
