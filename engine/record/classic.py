"""Records of classic Codenames and Codenames Pictures games (``duetbox-record/1``, mode classic/pictures)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..classic import (
    ClassicAction,
    ClassicRules,
    ClassicState,
    apply_classic,
    classic_action_from_dict,
    new_classic_game,
    parse_classic_key,
)
from ..duet import LANGUAGES
from ..errors import BadKey, BadRecord, IllegalAction
from .common import FORMAT, ReplayResult
from .common import require as _require


def load_classic(record: Mapping[str, Any]) -> tuple[ClassicState, list[ClassicAction]]:
    mode = record.get("mode")
    _require(mode in ("classic", "pictures"), "'mode' must be 'classic' or 'pictures'")
    variant = record.get("variant", "standard")
    _require(variant in ("standard", "duo", "trio"), "'variant' must be 'standard', 'duo' or 'trio'")
    pictures_key = record.get("pictures_key", "source")
    _require(pictures_key in ("source", "printed"), "'pictures_key' must be 'source' or 'printed'")
    rules_in = record.get("rules", {})
    _require(isinstance(rules_in, dict), "'rules' must be an object")
    _require(all(isinstance(name, str) for name in rules_in), "'rules' must name each rule with a string")
    clues = rules_in.get("clues", "strict")
    _require(clues in ("strict", "flexible"), "'clues' must be 'strict' or 'flexible'")
    language = record.get("language", rules_in.get("language", "fr"))
    _require(language in LANGUAGES, f"language must be one of {', '.join(LANGUAGES)}")
    rules = ClassicRules(kind=mode, variant=variant, clues=clues,  # type: ignore[arg-type]
                         pictures_key=pictures_key, language=language)
    cards = record.get("cards", record.get("words"))
    _require(isinstance(cards, list) and all(isinstance(c, str) for c in cards),
             "'cards' must be a list of strings")
    assert isinstance(cards, list)
    _require(len(cards) == rules.size, f"'cards' must hold {rules.size} cards for this game")
    try:
        key = parse_classic_key(record.get("key"), record.get("start"), rules.kind, rules.pictures_key)
    except BadKey as exc:
        raise BadRecord(str(exc)) from None
    seed = record.get("seed", 0)
    _require(isinstance(seed, int) and not isinstance(seed, bool), "'seed' must be a whole number")
    try:
        state = new_classic_game(cards, key, rules, seed)
    except ValueError as exc:
        raise BadRecord(str(exc)) from None
    raw = record.get("actions", [])
    _require(isinstance(raw, list), "'actions' must be a list")
    actions: list[ClassicAction] = []
    for i, item in enumerate(raw):
        try:
            actions.append(classic_action_from_dict(item, rules.size))
        except ValueError as exc:
            raise BadRecord(f"action {i}: {exc}") from None
    return state, actions


def replay_classic(record: Mapping[str, Any]) -> ReplayResult:
    state, actions = load_classic(record)
    for i, action in enumerate(actions):
        try:
            state = apply_classic(state, action)
        except IllegalAction as exc:
            return ReplayResult(state, i, str(exc))
    return ReplayResult(state)


def classic_summary(state: ClassicState) -> dict[str, Any]:
    """The replay command's JSON for classic and Pictures (issue contract)."""
    return {
        "status": "won" if state.over else "playing",
        "winner": state.winner,
        "reason": state.reason,
        "covered": sorted(state.covered),
        "turn": None if state.over else state.turn,
        "guesses_left": state.guesses_left,
    }


def classic_record_of(state: ClassicState) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "mode": state.rules.kind,
        "language": state.rules.language,
        "cards": list(state.cards),
        "key": state.key.cards,
        "start": state.key.start,
        "variant": state.rules.variant,
        "pictures_key": state.rules.pictures_key,
        "rules": {"clues": state.rules.clues},
        "seed": state.seed,
        "actions": [a.to_dict() for a in state.history],
    }
