"""LED ring renderer: (public view + effects + time) → one RGB per LED (logical order: 0 = top, clockwise).

Pure: the same arguments always give the same frame, and ``next_deadline`` says when the frame will next
change, so the app sleeps until then instead of polling. Meaning never rides on colour alone:

- bank tokens: the ring reads as a count, one lit LED per timer token from the top, clockwise, whatever the
  ring's LED count (``token_leds``: spaced out with dark LEDs between them when the ring has room, in groups
  of five otherwise, side by side only on a ring too small for gaps). Innocent-face tokens are warm white and
  steady; case-closed tokens are green and "tick" dark for 0.15 s every 2 s. Spent tokens are dark, so the
  lit LEDs are the tokens left.
- guess flash over the whole ring: agent = green, two slow pulses; bystander = amber, three quick blinks;
  assassin = red, a fast strobe then a long steady glow.
- hold-to-confirm: the ring fills clockwise from the holding seat's side (A = bottom, B = top), the last LED
  partly lit, the rest dark.
- sudden death: alternate LEDs pulse red (a breathing pattern), the others dark.
- win: a green comet with a gold head runs round for 4 s, then the ring stays steady green.
- loss: red fills from the top down both sides for 1.5 s, then every third LED stays dim red.
- attract: a slow pastel rainbow turns round, with a dark gap.

Effects are the dataclasses of ``device.render.models`` (re-exported here). The only view read is the public
one (``PublicView`` or a classic/pictures public view: fields missing there are simply not drawn).
"""

from __future__ import annotations

import colorsys
import math
from collections.abc import Iterable, Sequence

from .models import AttractEffect, GuessFlash, HoldFill, LossEffect, RingEffect, SharedView, WinEffect

__all__ = [
    "AttractEffect",
    "GuessFlash",
    "HoldFill",
    "LossEffect",
    "RingEffect",
    "WinEffect",
    "FLASH_SECONDS",
    "ring_frame",
    "next_deadline",
    "token_leds",
]

RGB = tuple[int, int, int]

OFF: RGB = (0, 0, 0)
INNOCENT: RGB = (255, 170, 90)
CLOSED: RGB = (30, 200, 60)
AGENT: RGB = (0, 255, 40)
AMBER: RGB = (255, 130, 0)
RED: RGB = (255, 0, 0)
GOLD: RGB = (255, 200, 0)
HOLD_COLOUR = {"A": (120, 170, 255), "B": (255, 150, 60)}

FRAME = 1 / 30  # animation frame interval, seconds
TICK_PERIOD = 2.0
TICK_LENGTH = 0.15
PULSE_PERIOD = 1.6
WIN_SECONDS = 4.0
LOSS_SECONDS = 1.5
ATTRACT_PERIOD = 8.0

#: On-intervals of each guess flash (seconds from its start) and its total length.
FLASH_ON: dict[str, tuple[tuple[float, float], ...]] = {
    "agent": ((0.0, 0.4), (0.6, 1.0)),
    "bystander": ((0.0, 0.15), (0.3, 0.45), (0.6, 0.75)),
    "assassin": tuple((k * 0.16, k * 0.16 + 0.08) for k in range(6)) + ((0.96, 2.4),),
}
FLASH_SECONDS = {"agent": 1.2, "bystander": 0.9, "assassin": 2.4}
FLASH_COLOUR = {"agent": AGENT, "bystander": AMBER, "assassin": RED}


def _effects(effects: RingEffect | Iterable[RingEffect] | None) -> list[RingEffect]:
    if effects is None:
        return []
    if isinstance(effects, (GuessFlash, HoldFill, WinEffect, LossEffect, AttractEffect)):
        return [effects]
    return list(effects)


def _scale(colour: RGB, k: float) -> RGB:
    k = min(max(k, 0.0), 1.0)
    return (round(colour[0] * k), round(colour[1] * k), round(colour[2] * k))


def token_leds(tokens: int, count: int) -> list[int]:
    """The LED of each timer token (token 0 first), from the top clockwise, on a ring of ``count`` LEDs.

    One LED per token, so the lit LEDs can be counted:
    - at least two LEDs per token: token j on LED ``j * (count // tokens)`` (a dark LED or more between
      neighbours; 9 tokens on 24 LEDs: every second LED);
    - else, when the ring has room for a dark LED after every five tokens: groups of five (9 tokens on 16
      LEDs: LEDs 0-4, a gap, 6-9);
    - else side by side from the top (11 tokens on 12 LEDs);
    - more tokens than LEDs: the first ``count`` tokens only (the shared display shows the whole bank).
    """
    if tokens <= 0 or count <= 0:
        return []
    pitch = count // tokens
    if pitch >= 2:
        return [j * pitch for j in range(tokens)]
    if tokens + (tokens - 1) // 5 <= count:
        return [j + j // 5 for j in range(tokens)]
    return list(range(min(tokens, count)))


def _base(view: SharedView | None, t: float, count: int) -> list[RGB]:
    frame = [OFF] * count
    if view is None:
        return frame
    phase = getattr(view, "phase", None)
    if phase == "sudden_death":
        level = 0.25 + 0.75 * (0.5 - 0.5 * math.cos(2 * math.pi * t / PULSE_PERIOD))
        return [_scale(RED, level) if i % 2 == 0 else OFF for i in range(count)]
    if phase == "won":
        return [AGENT] * count  # the same still frame as the end of the win animation
    if phase == "lost":
        return [_scale(RED, 0.3) if i % 3 == 0 else OFF for i in range(count)]
    tokens = getattr(view, "tokens", None)
    innocent = getattr(view, "bank_innocent", None)
    closed = getattr(view, "bank_closed", None)
    if not isinstance(tokens, int) or not isinstance(innocent, int) or not isinstance(closed, int):
        return frame
    if tokens <= 0:
        return frame
    ticking = (t % TICK_PERIOD) < TICK_LENGTH
    for j, led in enumerate(token_leds(tokens, count)):
        if j < innocent:
            frame[led] = INNOCENT
        elif j < innocent + closed and not ticking:
            frame[led] = CLOSED
    return frame


def _ticks(view: SharedView) -> bool:
    closed = getattr(view, "bank_closed", 0)
    over = getattr(view, "phase", None) in ("won", "lost", "sudden_death")
    return not over and isinstance(closed, int) and closed > 0


def _flash_on(effect: GuessFlash, t: float) -> bool | None:
    """True/False while the flash runs (lit or dark), None when it is not running."""
    dt = t - effect.start
    if dt < 0 or dt >= FLASH_SECONDS[effect.result]:
        return None
    return any(a <= dt < b for a, b in FLASH_ON[effect.result])


def _win(effect: WinEffect, t: float, count: int) -> list[RGB]:
    dt = t - effect.start
    if dt >= WIN_SECONDS:
        return [AGENT] * count
    head = (dt * count) % count  # one turn a second
    tail = max(3, count // 3)
    frame = [OFF] * count
    for k in range(tail):
        led = int(head - k) % count
        frame[led] = GOLD if k == 0 else _scale(AGENT, 1 - k / tail)
    return frame


def _loss(effect: LossEffect, t: float, count: int) -> list[RGB]:
    dt = t - effect.start
    if dt >= LOSS_SECONDS:
        return [_scale(RED, 0.3) if i % 3 == 0 else OFF for i in range(count)]
    reach = dt / LOSS_SECONDS * (count / 2)
    frame = [OFF] * count
    for i in range(count):
        if min(i, count - i) <= reach:
            frame[i] = RED
    return frame


def _attract(effect: AttractEffect, t: float, count: int) -> list[RGB]:
    turn = ((t - effect.start) / ATTRACT_PERIOD) % 1.0
    gap = max(1, count // 6)
    frame = []
    for i in range(count):
        pos = (i / count + turn) % 1.0
        if int(pos * count) < gap:
            frame.append(OFF)
            continue
        r, g, b = colorsys.hsv_to_rgb(pos, 0.45, 0.8)
        frame.append((round(r * 255), round(g * 255), round(b * 255)))
    return frame


def _hold(effect: HoldFill, count: int) -> list[RGB]:
    frame = [OFF] * count
    origin = count // 2 if effect.seat == "A" else 0
    lit = min(max(effect.fraction, 0.0), 1.0) * count
    colour = HOLD_COLOUR.get(effect.seat, (255, 255, 255))
    for k in range(count):
        led = (origin + k) % count
        if k + 1 <= lit:
            frame[led] = colour
        elif k < lit:
            frame[led] = _scale(colour, lit - k)
    return frame


def ring_frame(
    view: SharedView | None,
    effects: RingEffect | Sequence[RingEffect] | None,
    t: float,
    count: int,
    brightness: float = 1.0,
) -> list[RGB]:
    """The ring's pixels at time ``t`` (clock seconds) for a ring of ``count`` LEDs, scaled by
    ``brightness`` (0..1, from settings). ``view``: the public view or None (menus: dark unless an effect
    runs)."""
    if count <= 0:
        return []
    items = _effects(effects)
    frame = _base(view, t, count)
    for effect in items:
        if isinstance(effect, AttractEffect):
            frame = _attract(effect, t, count)
        elif isinstance(effect, WinEffect) and t >= effect.start:
            frame = _win(effect, t, count)
        elif isinstance(effect, LossEffect) and t >= effect.start:
            frame = _loss(effect, t, count)
    for effect in items:
        if isinstance(effect, HoldFill):
            frame = _hold(effect, count)
    for effect in items:
        if isinstance(effect, GuessFlash):
            on = _flash_on(effect, t)
            if on is not None:
                frame = [FLASH_COLOUR[effect.result] if on else OFF] * count
    if brightness >= 1.0:
        return frame
    return [_scale(c, brightness) for c in frame]


def next_deadline(view: SharedView | None, effects: RingEffect | Sequence[RingEffect] | None, t: float) -> float | None:
    """The next time after ``t`` at which ``ring_frame`` may differ, or None when it stays as it is until
    the view or the effects change."""
    candidates: list[float] = []
    phase = getattr(view, "phase", None) if view is not None else None
    items = _effects(effects)
    animated = any(isinstance(e, AttractEffect) for e in items)
    animated |= any(isinstance(e, WinEffect) and t < e.start + WIN_SECONDS for e in items)
    animated |= any(isinstance(e, LossEffect) and t < e.start + LOSS_SECONDS for e in items)
    animated |= phase == "sudden_death"
    if animated:
        candidates.append(t + FRAME)
    for e in items:
        if isinstance(e, (WinEffect, LossEffect)) and t < e.start:
            candidates.append(e.start)
        if isinstance(e, GuessFlash):
            edges = [e.start + x for interval in FLASH_ON[e.result] for x in interval]
            edges.append(e.start + FLASH_SECONDS[e.result])
            later = [x for x in edges if x > t]
            if later:
                candidates.append(min(later))
    if view is not None and _ticks(view):
        cycle = math.floor(t / TICK_PERIOD) * TICK_PERIOD
        for edge in (cycle + TICK_LENGTH, cycle + TICK_PERIOD):
            if edge > t:
                candidates.append(edge)
                break
    return min(candidates) if candidates else None
