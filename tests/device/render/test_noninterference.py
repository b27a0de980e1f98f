"""Secrecy at pixel level (design: "secrecy is a type boundary"): two games with the same public history but
different hidden keys give identical shared-display images and identical ring frames."""

from __future__ import annotations

import pytest
import render_scenes as scenes

from device.render.models import Cursor, GameOverUi, GuessFlash, Hold, HoldFill, LossEffect, PlayUi
from device.render.ring import next_deadline, ring_frame
from device.render.shared import SharedRenderer
from engine import duet
from engine.keycard import DuetKey
from engine.views import public_view


def twin_key(key: DuetKey, touched: set[int]) -> DuetKey:
    """Another valid key that agrees with ``key`` on the touched cards: the other cards' pairs are rotated."""
    free = [i for i in range(25) if i not in touched]
    pairs = {i: key.pair(i) for i in range(25)}
    rotated = dict(pairs)
    for src, dst in zip(free, free[1:] + free[:1], strict=True):
        rotated[dst] = pairs[src]
    twin = DuetKey("".join(rotated[i][0] for i in range(25)), "".join(rotated[i][1] for i in range(25)))
    assert twin != key
    return twin


def replay(state: duet.DuetState, key: DuetKey) -> duet.DuetState:
    """The same actions on the same words, under another key."""
    other = duet.new_game(state.words, key, state.rules, state.mission)
    for action in state.history:
        other, _ = duet.apply(other, action)
    return other


GAMES = {
    "mid_game": scenes.mid_game,
    "sudden_death": scenes.sudden_death,
    "assassin_loss": scenes.assassin_loss,
    "double_mark": scenes.double_mark,
}


def _pair(name: str) -> tuple[duet.DuetState, duet.DuetState]:
    first = GAMES[name]()
    touched = {a.card for a in first.history if hasattr(a, "card")}
    second = replay(first, twin_key(first.key, touched))
    assert second.key != first.key
    assert public_view(second) == public_view(first), "the two games must share their public history"
    return first, second


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_noninterference_shared_display_pixels(pg, name: str, size: tuple[int, int]) -> None:
    first, second = _pair(name)
    uis = [
        PlayUi(cursors=(Cursor("A", 4), Cursor("B", 20)), hold=Hold("B", 20, 0.5), message="m", banner="b"),
        PlayUi(orientation="upright", message="m"),
        GameOverUi(title="fin", reason="r", prompt="OK"),
    ]
    images = []
    for state in (first, second):
        renderer = SharedRenderer()
        surface = pg.Surface(size)
        frames = []
        for ui in uis:
            renderer.render(surface, public_view(state), ui)
            frames.append(pg.image.tobytes(surface, "RGB"))
        images.append(frames)
    assert images[0] == images[1]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_noninterference_ring_frames(name: str) -> None:
    first, second = _pair(name)
    effects = [None, GuessFlash(0.0, "bystander"), HoldFill("A", 0.4), LossEffect(0.5)]
    for effect in effects:
        for count in (12, 16, 24):
            for k in range(0, 120):
                t = k * 0.05
                assert ring_frame(public_view(first), effect, t, count, 0.8) == ring_frame(
                    public_view(second), effect, t, count, 0.8)
        assert next_deadline(public_view(first), effect, 1.0) == next_deadline(public_view(second), effect, 1.0)


def test_noninterference_twin_keys_really_differ_in_hidden_cards() -> None:
    first, second = _pair("mid_game")
    touched = {a.card for a in first.history if hasattr(a, "card")}
    differing = [i for i in range(25) if first.key.pair(i) != second.key.pair(i)]
    assert differing and not set(differing) & touched
