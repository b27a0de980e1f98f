"""Engine events → ring effects and sound cues (public facts only: events carry nothing secret)."""

from __future__ import annotations

from collections.abc import Sequence

from device.render import models as m
from device.render import ring
from engine import events as ev
from engine.events import Event

#: How long each effect stays on the ring when the ring renderer does not say (seconds).
DEFAULT_SECONDS: dict[str, float] = {"agent": 1.2, "bystander": 1.2, "assassin": 2.0, "win": 4.0, "loss": 4.0}


def _result(event: Event) -> str | None:
    """"agent", "bystander" or "assassin" for a guess's event (Duet's or classic's), else None."""
    if isinstance(event, ev.AgentFound):
        return "agent"
    if isinstance(event, ev.BystanderMarked):
        return "bystander"
    if isinstance(event, ev.AssassinRevealed):
        return "assassin"
    if isinstance(event, ev.CardCovered):
        return "assassin" if event.colour == "X" else "agent" if event.colour == event.team else "bystander"
    return None


def effects_for(events: Sequence[Event], now: float) -> list[m.RingEffect]:
    out: list[m.RingEffect] = []
    for event in events:
        result = _result(event)
        if result is not None:
            out.append(m.GuessFlash(now, result))  # type: ignore[arg-type]
        if isinstance(event, ev.GameWon):
            out.append(m.WinEffect(now))
        elif isinstance(event, ev.GameLost):
            out.append(m.LossEffect(now))
    return out


def cues_for(events: Sequence[Event]) -> list[str]:
    """Sound cue names (device.services.sound.CUES) for these events."""
    out: list[str] = []
    assassin = any(_result(e) == "assassin" for e in events)
    for event in events:
        result = _result(event)
        if result is not None:
            out.append(result)
        elif isinstance(event, ev.SuddenDeathStarted):
            out.append("sudden_death")
        elif isinstance(event, ev.GameWon):
            out.append("win")
        elif isinstance(event, ev.GameLost) and not assassin:
            out.append("loss")
    return out


def new_turn(events: Sequence[Event]) -> bool:
    """True when these events end a turn or start a new one (the hourglass is reset then)."""
    return any(isinstance(e, (ev.ClueGiven, ev.TurnEnded, ev.SuddenDeathStarted)) for e in events)


def duration(effect: m.RingEffect) -> float:
    if isinstance(effect, m.GuessFlash):
        return float(ring.FLASH_SECONDS.get(effect.result, DEFAULT_SECONDS[effect.result]))
    if isinstance(effect, m.WinEffect):
        return float(ring.WIN_SECONDS)
    if isinstance(effect, m.LossEffect):
        return float(ring.LOSS_SECONDS)
    return 0.0


def finished(effect: m.RingEffect, now: float) -> bool:
    return now - float(effect.start) >= duration(effect)
