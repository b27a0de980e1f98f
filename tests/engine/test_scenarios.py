"""Scenario files (like perft files for chess): each record cites the rule it checks and the replay it must give.

The expected values were worked out by hand from ../shared/rules.md, not copied from the engine's output.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from device.cli import main

SCENARIOS = sorted((Path(__file__).parent / "scenarios").glob("*.json"))


def _subset(expected: object, actual: object) -> bool:
    if isinstance(expected, dict) and isinstance(actual, dict):
        return all(k in actual and _subset(v, actual[k]) for k, v in expected.items())
    return expected == actual


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario_replay_matches_rule(path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    scenario = json.loads(path.read_text(encoding="utf-8"))
    assert scenario["rule"], "every scenario cites the rule it checks"
    record = tmp_path / path.name
    record.write_text(json.dumps(scenario["record"], ensure_ascii=False), encoding="utf-8")
    code = main(["replay", str(record)])
    out = json.loads(capsys.readouterr().out)
    assert code == scenario["exit"], out
    assert _subset(scenario["expect"], out), f"{scenario['description']}\nexpected {scenario['expect']}\ngot {out}"


def test_scenarios_cover_the_rules() -> None:
    assert len(SCENARIOS) >= 30
