"""Duet records (mode duet, also Duet with pictures and missions): load, replay, summarise, write."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..actions import DuetAction, action_from_dict
from ..duet import LANGUAGES, DuetRules, DuetState, apply, clue_givers, new_game, score
from ..errors import BadKey, BadRecord, IllegalAction
from ..keycard import parse_key
from ..missions import default_map
from ..seats import SEATS
from .common import FORMAT, ReplayResult
from .common import require as _require


def duet_rules_from(record: Mapping[str, Any]) -> tuple[DuetRules, str | None]:
    """The rules and mission of a Duet record; BadRecord when malformed."""
    rules = record.get("rules", {})
    _require(isinstance(rules, dict), "'rules' must be an object")
    _require(all(isinstance(name, str) for name in rules), "'rules' must name each rule with a string")
    unknown = set(rules) - {"tokens", "mistakes", "clues", "several_clues", "language"}
    _require(not unknown, f"unknown rule(s): {', '.join(sorted(unknown))}")
    language = record.get("language", rules.get("language", "fr"))
    _require(language in LANGUAGES, f"language must be one of {', '.join(LANGUAGES)}")
    pictures = record.get("pictures", False)
    _require(isinstance(pictures, bool), "'pictures' must be true or false")
    options: dict[str, Any] = {
        "pictures": pictures,
        "clues": rules.get("clues", "strict"),
        "several_clues": rules.get("several_clues", False),
        "language": language,
    }
    _require(isinstance(options["several_clues"], bool), "'several_clues' must be true or false")
    mission = record.get("mission")
    try:
        if mission is not None:
            _require(isinstance(mission, str), "'mission' must be a city name")
            try:
                city = default_map().city(mission)
            except KeyError:
                raise BadRecord(f"unknown mission city {mission!r}") from None
            return city.rules(**options), city.name
        tokens = rules.get("tokens", 9)
        mistakes = rules.get("mistakes")
        _require(isinstance(tokens, int) and not isinstance(tokens, bool), "'tokens' must be a whole number")
        _require(mistakes is None or (isinstance(mistakes, int) and not isinstance(mistakes, bool)),
                 "'mistakes' must be a whole number")
        return DuetRules(tokens=tokens, mistakes=mistakes, **options), None
    except ValueError as exc:
        if isinstance(exc, BadRecord):
            raise
        raise BadRecord(str(exc)) from None


def load_duet(record: Mapping[str, Any]) -> tuple[DuetState, list[DuetAction]]:
    """The initial state and the parsed actions of a Duet record; BadRecord when malformed."""
    words = record.get("words")
    _require(isinstance(words, list) and len(words) == 25 and all(isinstance(w, str) for w in words),
             "'words' must be a list of 25 strings")
    key = record.get("key")
    _require(isinstance(key, dict) and set(key) == set(SEATS), "'key' must be an object with sides 'A' and 'B'")
    assert isinstance(key, dict)
    try:
        duet_key = parse_key(key["A"], key["B"])
    except BadKey as exc:
        raise BadRecord(str(exc)) from None
    rules, mission = duet_rules_from(record)
    assert isinstance(words, list)
    try:
        state = new_game(words, duet_key, rules, mission)
    except ValueError as exc:
        raise BadRecord(str(exc)) from None
    raw = record.get("actions", [])
    _require(isinstance(raw, list), "'actions' must be a list")
    actions: list[DuetAction] = []
    for i, item in enumerate(raw):
        try:
            actions.append(action_from_dict(item))
        except ValueError as exc:
            raise BadRecord(f"action {i}: {exc}") from None
    return state, actions


def replay_duet(record: Mapping[str, Any]) -> ReplayResult:
    state, actions = load_duet(record)
    for i, action in enumerate(actions):
        try:
            state, _ = apply(state, action)
        except IllegalAction as exc:
            return ReplayResult(state, i, str(exc))
    return ReplayResult(state)


def duet_summary(state: DuetState) -> dict[str, Any]:
    """The replay command's JSON for a Duet state (issue contract)."""
    if state.phase == "guess":
        giver = state.clue_giver
    elif state.phase == "clue":
        givers = clue_givers(state)
        giver = givers[0] if len(givers) == 1 else None
    else:
        giver = None
    return {
        "status": state.phase,
        "reason": state.reason,
        "tokens_left": state.bank,
        "mistakes_left": state.bank_innocent,
        "found": sorted(state.found),
        "marks": {"A": sorted(state.marks_a), "B": sorted(state.marks_b)},
        "clue_giver": giver,
        "score": score(state),
    }


def record_of(state: DuetState, *, seed: int | None = None) -> dict[str, Any]:
    """Any Duet game as a record (replaying it gives the same state)."""
    rules: dict[str, Any] = {
        "tokens": state.rules.tokens,
        "mistakes": state.rules.innocent,
        "clues": state.rules.clues,
        "several_clues": state.rules.several_clues,
    }
    record: dict[str, Any] = {
        "format": FORMAT,
        "mode": "duet",
        "language": state.rules.language,
        "words": list(state.words),
        "key": {"A": state.key.a, "B": state.key.b},
        "rules": rules,
    }
    if state.rules.pictures:
        record["pictures"] = True
    if state.mission:
        record["mission"] = state.mission
    if seed is not None:
        record["seed"] = seed
    record["actions"] = [a.to_dict() for a in state.history]
    return record
