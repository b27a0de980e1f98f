"""LED ring frames: tokens, flashes, hold, sudden death, win/loss, attract — patterns as well as colours."""

from __future__ import annotations

import render_scenes as scenes

from device.render import ring
from device.render.ring import (
    AttractEffect,
    GuessFlash,
    HoldFill,
    LossEffect,
    WinEffect,
    next_deadline,
    ring_frame,
)
from engine.views import public_view


def _lit(frame: list[tuple[int, int, int]]) -> list[bool]:
    return [any(c) for c in frame]


def _timeline(effect: object, view: object = None, until: float = 3.0, step: float = 0.02) -> list[bool]:
    """Whether the ring is lit at all, sampled over time: the blink pattern of an effect."""
    return [any(_lit(ring_frame(view, effect, k * step, 12))) for k in range(int(until / step))]  # type: ignore


def test_ring_frame_has_one_pixel_per_led() -> None:
    view = public_view(scenes.new_state())
    for count in (12, 16, 24):
        assert len(ring_frame(view, None, 0.5, count)) == count
    assert ring_frame(None, None, 0.0, 12) == [(0, 0, 0)] * 12


def test_ring_bank_reads_as_a_count_one_lit_led_per_token_left() -> None:
    view = public_view(scenes.new_state())  # 9 innocent-face tokens in the bank
    spent = public_view(scenes.mid_game())  # 7 left of 9
    for count in (12, 16, 24):
        frame = ring_frame(view, None, 0.5, count)
        assert sum(_lit(frame)) == 9
        assert all(c == ring.INNOCENT for c in frame if c != (0, 0, 0))
        assert frame[0] == ring.INNOCENT  # counted from the top
        assert sum(_lit(ring_frame(spent, None, 0.5, count))) == 7


def _runs(lit: list[bool]) -> list[int]:
    """Lengths of the runs of lit LEDs (not wrapping: token 0 is at the top, the rest follow clockwise)."""
    runs, n = [], 0
    for x in lit + [False]:
        if x:
            n += 1
        elif n:
            runs.append(n)
            n = 0
    return runs


def test_token_leds_mapping_for_12_16_and_24_led_rings() -> None:
    # the table of docs/usage.md, worked out by hand: spaced (>= 2 LEDs a token), groups of five, side by side
    assert ring.token_leds(9, 24) == [0, 2, 4, 6, 8, 10, 12, 14, 16]
    assert ring.token_leds(11, 24) == [0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20]
    assert ring.token_leds(9, 16) == [0, 1, 2, 3, 4, 6, 7, 8, 9]
    assert ring.token_leds(8, 16) == [0, 2, 4, 6, 8, 10, 12, 14]
    assert ring.token_leds(9, 12) == [0, 1, 2, 3, 4, 6, 7, 8, 9]
    assert ring.token_leds(11, 12) == list(range(11))
    assert ring.token_leds(6, 12) == [0, 2, 4, 6, 8, 10]
    assert ring.token_leds(14, 12) == list(range(12))
    assert ring.token_leds(0, 12) == []


def test_token_leds_one_distinct_led_each_and_readable_groups() -> None:
    for count in (8, 12, 16, 24, 60):
        for tokens in range(1, 30):
            leds = ring.token_leds(tokens, count)
            assert len(leds) == min(tokens, count) == len(set(leds))
            assert all(0 <= x < count for x in leds) and leds == sorted(leds)
            lit = [i in leds for i in range(count)]
            if tokens <= count // 2:
                assert max(_runs(lit)) == 1  # every token stands alone
            elif tokens + (tokens - 1) // 5 <= count:
                assert max(_runs(lit)) <= 5  # groups of five at most


def test_ring_innocent_and_closed_tokens_differ_in_colour_and_pattern() -> None:
    view = public_view(scenes.double_mark())  # a mission with only case-closed tokens left
    frame = ring_frame(view, None, 0.5, 24)
    closed = [c for c in frame if c != (0, 0, 0)]
    assert closed and all(c == ring.CLOSED for c in closed)
    innocent = ring_frame(public_view(scenes.new_state(tokens=8)), None, 0.5, 24)
    assert sum(_lit(innocent)) == 8 and all(c == ring.INNOCENT for c in innocent if any(c))
    # closed faces tick dark briefly every period; innocent ones stay steady
    assert not any(_lit(ring_frame(view, None, 0.05, 24)))
    assert ring_frame(public_view(scenes.new_state()), None, 0.05, 24) == ring_frame(
        public_view(scenes.new_state()), None, 0.5, 24)


def test_ring_guess_flashes_have_different_blink_patterns() -> None:
    patterns = {r: _timeline(GuessFlash(0.0, r)) for r in ("agent", "bystander", "assassin")}
    assert len({tuple(p) for p in patterns.values()}) == 3

    def blinks(p: list[bool]) -> int:
        return sum(1 for a, b in zip([False] + p, p, strict=False) if b and not a)

    assert blinks(patterns["agent"]) == 2
    assert blinks(patterns["bystander"]) == 3
    assert blinks(patterns["assassin"]) >= 6
    assert ring_frame(None, GuessFlash(0.0, "agent"), 0.1, 12)[0] == ring.AGENT
    assert ring_frame(None, GuessFlash(0.0, "bystander"), 0.1, 12)[0] == ring.AMBER
    assert ring_frame(None, GuessFlash(0.0, "assassin"), 0.01, 12)[0] == ring.RED


def test_ring_flash_ends_and_gives_back_the_bank() -> None:
    view = public_view(scenes.new_state())
    effect = GuessFlash(1.0, "bystander")
    assert ring_frame(view, effect, 1.0 + ring.FLASH_SECONDS["bystander"] + 0.01, 12) == ring_frame(
        view, None, 1.0 + ring.FLASH_SECONDS["bystander"] + 0.01, 12)


def test_ring_hold_fills_clockwise_from_the_holding_seat() -> None:
    half_a = ring_frame(None, HoldFill("A", 0.25), 0.0, 12)
    half_b = ring_frame(None, HoldFill("B", 0.25), 0.0, 12)
    assert _lit(half_a) == [i in (6, 7, 8) for i in range(12)]  # A sits at the bottom (LED 6)
    assert _lit(half_b) == [i in (0, 1, 2) for i in range(12)]  # B at the top (LED 0)
    assert all(_lit(ring_frame(None, HoldFill("A", 1.0), 0.0, 12)))
    assert not any(_lit(ring_frame(None, HoldFill("A", 0.0), 0.0, 12)))


def test_ring_sudden_death_pulses_on_alternate_leds() -> None:
    view = public_view(scenes.sudden_death())
    a, b = ring_frame(view, None, 0.0, 12), ring_frame(view, None, ring.PULSE_PERIOD / 2, 12)
    assert a != b  # it breathes
    assert _lit(b) == [i % 2 == 0 for i in range(12)]
    assert next_deadline(view, None, 5.0) is not None


def test_ring_win_and_loss_animate_then_hold_still() -> None:
    win, loss = WinEffect(0.0), LossEffect(0.0)
    assert ring_frame(None, win, 0.2, 12) != ring_frame(None, win, 0.5, 12)
    assert ring_frame(None, win, 10, 12) == ring_frame(None, win, 20, 12) == [ring.AGENT] * 12
    assert next_deadline(None, win, 10) is None
    assert ring_frame(None, loss, 0.3, 12) != ring_frame(None, loss, 1.0, 12)
    still = ring_frame(None, loss, 10, 12)
    assert _lit(still) == [i % 3 == 0 for i in range(12)]  # a different pattern from the win
    assert next_deadline(None, loss, 10) is None


def test_ring_attract_turns_round() -> None:
    effect = AttractEffect(0.0)
    assert ring_frame(None, effect, 1.0, 16) != ring_frame(None, effect, 2.0, 16)
    assert next_deadline(None, effect, 1.0) == 1.0 + ring.FRAME


def test_ring_brightness_scales_every_pixel() -> None:
    view = public_view(scenes.new_state())
    full, dim = ring_frame(view, None, 0.5, 12, 1.0), ring_frame(view, None, 0.5, 12, 0.5)
    for f, d in zip(full, dim, strict=True):
        assert all(abs(x / 2 - y) <= 0.5 for x, y in zip(f, d, strict=True))
    assert not any(_lit(ring_frame(view, None, 0.5, 12, 0.0)))


def test_ring_next_deadline_follows_changes_and_sleeps_when_still() -> None:
    assert next_deadline(None, None, 3.0) is None
    assert next_deadline(public_view(scenes.new_state()), None, 3.0) is None  # innocent faces never tick
    ticking = public_view(scenes.double_mark())
    t = 3.0
    deadline = next_deadline(ticking, None, t)
    assert deadline is not None and deadline > t
    # nothing changes strictly before the deadline
    frame = ring_frame(ticking, None, t, 12)
    assert ring_frame(ticking, None, (t + deadline) / 2, 12) == frame
    flash = GuessFlash(10.0, "bystander")
    edges = []
    t = 10.0
    while (t := next_deadline(None, flash, t)) is not None:  # type: ignore[assignment]
        edges.append(round(t - 10.0, 3))
    assert edges == [0.15, 0.3, 0.45, 0.6, 0.75, 0.9]
