"""Secrecy by non-interference, at pixel level: random mid-game states of every mode are played on two boxes (the
real app, real renderers, mock backend) that differ only in a hidden key consistent with the public history. The
shared display's pixels and the ring's frames must be identical at every moment; the seat OLEDs, which are meant to
show the key, must differ somewhere (so the test could see a leak)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from helpers_reliability import soak

from bench.box import AppDriver, policy_action, setup_record
from engine import classic as cl
from engine import duet
from engine.keycard import DuetKey
from engine.pictures_deck import draw_pictures
from engine.record import classic_record_of, replay
from engine.views import public_view

CASES = soak(2, 25)


# --- Duet: a second key that agrees with everything the table has seen --------------------------------------

def duet_untouched(state: duet.DuetState) -> list[int]:
    touched = set(state.found) | set(state.marks_a) | set(state.marks_b)
    touched |= {g for clue in state.clues for g in clue.guesses}
    if state.assassin is not None:
        touched.add(state.assassin)
    return [i for i in range(25) if i not in touched]


def other_duet_key(key: DuetKey, free: list[int], rng: random.Random) -> DuetKey | None:
    """``key`` with the pairs of two never-touched cards swapped (None when every such swap changes nothing)."""
    pairs = [key.pair(i) for i in range(25)]
    choices = [(i, j) for i in free for j in free if i < j and pairs[i] != pairs[j]]
    if not choices:
        return None
    i, j = rng.choice(choices)
    pairs[i], pairs[j] = pairs[j], pairs[i]
    return DuetKey("".join(p[0] for p in pairs), "".join(p[1] for p in pairs))


def duet_history(record: dict[str, Any]) -> list[Any]:
    """The public view after each action of a record (to prove the two keys are indistinguishable)."""
    from engine.actions import action_from_dict
    from engine.record import load_duet

    state, _ = load_duet(dict(record, actions=[]))
    views = [public_view(state)]
    for item in record["actions"]:
        state, _ = duet.apply(state, action_from_dict(item))
        views.append(public_view(state))
    return views


def duet_case(seed: int, kind: str) -> tuple[dict[str, Any], list[Any], dict[str, Any]] | None:
    """(record of the first moves, the last moves to play through the buttons, the same record with a second
    consistent key), or None when this seed gives no usable case."""
    rng = random.Random(seed)
    record = setup_record(seed)
    if kind == "mission":
        record.pop("rules")
        record["mission"] = "Berlin"
    elif kind == "pictures":
        record["pictures"] = True
        record["words"] = list(draw_pictures(rng, 25))
    state = replay(record).state
    moves: list[Any] = []
    for _ in range(rng.randint(3, 18)):
        action = policy_action(state, rng)
        if action is None:
            break
        after, _ = duet.apply(state, action)
        if after.over:
            break
        state = after
        moves.append(action)
    if len(moves) < 3:
        return None
    key2 = other_duet_key(state.key, duet_untouched(state), rng)
    if key2 is None:
        return None
    tail = moves[-3:]
    head = dict(record, actions=[a.to_dict() for a in moves[:-3]])
    twin = dict(head, key={"A": key2.a, "B": key2.b})
    full = dict(record, actions=[a.to_dict() for a in moves])
    assert duet_history(full) == duet_history(dict(full, key=twin["key"])), "the second key is not consistent"
    return head, tail, twin


def frames(driver: AppDriver) -> tuple[bytes, tuple[Any, ...], bytes, bytes]:
    shared = driver.box.display.snapshot().tobytes()
    ring = tuple(driver.app.outputs.last_ring)
    oleds = [driver.box.oleds[s].image.tobytes() if driver.box.oleds[s].image is not None else b"" for s in "AB"]
    return shared, ring, oleds[0], oleds[1]


def compare(one: AppDriver, two: AppDriver, oled_differs: list[bool], where: str) -> None:
    a, b = frames(one), frames(two)
    assert a[0] == b[0], f"{where}: the shared display differs between the two hidden keys"
    assert a[1] == b[1], f"{where}: the ring differs between the two hidden keys"
    assert one.box.ring.frames == two.box.ring.frames, f"{where}: the ring's frame history differs"
    oled_differs.append(a[2] != b[2] or a[3] != b[3])


def step_both(drivers: list[AppDriver], seconds: float) -> None:
    for d in drivers:
        d.box.advance(seconds)
        d.step()


@pytest.mark.parametrize("kind", ["standard", "mission", "pictures"])
def test_secrecy_duet_display_and_ring_identical_for_consistent_keys(kind: str, tmp_path: Path) -> None:
    played = 0
    seed = 0
    while played < CASES:
        seed += 1
        case = duet_case(seed * 31 + len(kind), kind)
        if case is None:
            continue
        head, tail, twin = case
        drivers = [AppDriver(tmp_path / f"{seed}-{n}", seed=seed, record=rec) for n, rec in ((1, head), (2, twin))]
        differs: list[bool] = []
        try:
            compare(*drivers, differs, f"seed {seed}, start")
            for action in tail:  # the last moves through the buttons: hold fills, flashes, OLED changes
                for d in drivers:
                    d.play(action)
                compare(*drivers, differs, f"seed {seed}, after {action}")
                for seconds in (0.1, 0.35, 1.0, 3.0):  # the ring's animations, frame by frame
                    step_both(drivers, seconds)
                    compare(*drivers, differs, f"seed {seed}, {seconds} s after {action}")
            assert any(differs), "the seat OLEDs never showed the difference between the keys"
        finally:
            for d in drivers:
                d.close()
        played += 1


# --- classic and Pictures -----------------------------------------------------------------------------------

CLASSIC_VARIANTS = [(kind, variant) for kind in ("classic", "pictures") for variant in ("standard", "duo", "trio")]


def classic_case(seed: int, kind: str, variant: str) -> tuple[dict[str, Any], Any, dict[str, Any]] | None:
    rng = random.Random(seed)
    rules = cl.ClassicRules(kind=kind, variant=variant)  # type: ignore[arg-type]
    if kind == "pictures":
        cards = draw_pictures(rng, rules.size)
    else:
        from engine.words import draw_words, load_pack

        cards = draw_words(load_pack("fr"), rng, rules.size)
    state = cl.new_classic_game(cards, cl.random_classic_key(rng, rules.kind, rules.pictures_key), rules, seed)
    for _ in range(rng.randint(2, 14)):
        legal = [a for a in cl.legal_classic_actions(state) if not isinstance(a, cl.TeamPenalty)]
        if not legal:
            break
        clues = [a for a in legal if isinstance(a, cl.TeamClue) and a.number in (1, 2, 3)]
        action = rng.choice(clues or legal)
        after = cl.apply_classic(state, action)
        if after.over:
            break
        state = after
    last = [a for a in cl.legal_classic_actions(state) if isinstance(a, cl.TeamClue | cl.TeamStop)]
    if not last:
        return None
    colours = list(state.key.cards)
    # In duo the box picks the card it covers among its own: a key that moves the box's cards is one that the
    # box's next move tells apart, so only cards of the other kinds swap.
    box = cl.other_team(state.players) if variant == "duo" else None
    uncovered = [i for i in range(len(cards)) if i not in state.covered and colours[i] != box]
    swaps = [(i, j) for i in uncovered for j in uncovered if i < j and colours[i] != colours[j]]
    if not swaps:
        return None
    i, j = rng.choice(swaps)
    colours[i], colours[j] = colours[j], colours[i]
    record = classic_record_of(state)
    twin = dict(record, key="".join(colours))
    one, two = replay(record), replay(twin)
    assert one.ok and two.ok
    assert cl.classic_public_view(one.state) == cl.classic_public_view(two.state)
    return record, rng.choice(last), twin


@pytest.mark.parametrize(("kind", "variant"), CLASSIC_VARIANTS)
def test_secrecy_classic_display_and_ring_identical_for_consistent_keys(kind: str, variant: str,
                                                                         tmp_path: Path) -> None:
    played = 0
    seed = 0
    while played < CASES:
        seed += 1
        case = classic_case(seed * 17 + len(variant), kind, variant)
        if case is None:
            continue
        record, last, twin = case
        drivers = [AppDriver(tmp_path / f"{seed}-{n}", seed=seed, record=rec) for n, rec in ((1, record), (2, twin))]
        differs: list[bool] = []
        try:
            compare(*drivers, differs, f"seed {seed}, start")
            for d in drivers:
                d.app.game.act(last, d.app.game.session.version)  # type: ignore[union-attr]
                d.step()
            compare(*drivers, differs, f"seed {seed}, after {last}")
            for seconds in (0.1, 0.5, 2.0):
                step_both(drivers, seconds)
                compare(*drivers, differs, f"seed {seed}, {seconds} s after {last}")
            assert any(differs), "the spymaster's OLED never showed the difference between the keys"
        finally:
            for d in drivers:
                d.close()
        played += 1
