"""The hourglass: a sand timer a seat starts to hurry the players, drawn on the LED ring.

Classic rules, "Application sablier": when a team takes too long, the other side may turn a sand timer. The
box offers it in every mode. It is advisory by default; in the enforced option the app asks
``enforced_action`` what the expiry means for the phase in progress. Starts and expiries are not game
actions: only an enforced result (a stop, a forced clue entry) goes through the engine and the record.

Everything here is pure: time comes in as ``now`` (or from an injected clock), nothing sleeps, nothing draws.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal, Protocol

from device.modes import DUET, known
from engine.seats import Seat

RGB = tuple[int, int, int]

MIN_LENGTH = 30.0
MAX_LENGTH = 180.0
DEFAULT_LENGTH = 60.0
#: The last seconds are the warning: amber ring, blinking, one sound cue.
WARNING_SECONDS = 10.0
#: After expiry the red ring flashes this long, then stays still (no endless wake-ups of the loop).
EXPIRED_FLASH_SECONDS = 5.0
#: Blink half-period in the warning and expired patterns.
BLINK_HALF_PERIOD = 0.5

SAND: RGB = (255, 200, 120)
AMBER: RGB = (255, 110, 0)
RED: RGB = (255, 0, 0)
OFF: RGB = (0, 0, 0)
#: A paused hourglass keeps its share but at this brightness.
PAUSED_DIM = 0.35

HourglassState = Literal["idle", "running", "paused", "warning", "expired"]


class _Clock(Protocol):
    def now(self) -> float: ...


def check_length(length: float) -> float:
    """Return ``length`` as a float; ValueError unless it is a number of seconds from 30 to 180."""
    try:
        value = float(length)
    except (TypeError, ValueError):
        raise ValueError(f"hourglass length must be a number of seconds, got {length!r}") from None
    if not math.isfinite(value) or not MIN_LENGTH <= value <= MAX_LENGTH:
        raise ValueError(
            f"hourglass length must be from {MIN_LENGTH:g} to {MAX_LENGTH:g} seconds, got {length!r}"
        )
    return value


def _scale(colour: RGB, factor: float) -> RGB:
    factor = min(1.0, max(0.0, factor))
    return (round(colour[0] * factor), round(colour[1] * factor), round(colour[2] * factor))


class Hourglass:
    """A pausable countdown of ``length`` seconds (30..180, default 60).

    Every method that depends on time takes ``now`` (monotonic seconds); when it is omitted the clock given
    to the constructor is read. ``reset()`` returns to idle: the app calls it at every new turn and every
    new game.

    Raises ValueError for a length outside 30..180 s, a ring of fewer than one LED, or a missing ``now``
    with no clock.
    """

    def __init__(self, length: float = DEFAULT_LENGTH, clock: _Clock | None = None) -> None:
        self._length = check_length(length)
        self._clock = clock
        self._started = False
        self._running_since: float | None = None  # set while running
        self._elapsed_before = 0.0  # running time accumulated before the current run
        self._warned = False
        self._expired_reported = False

    # -- settings -------------------------------------------------------------------------------------------

    @property
    def length(self) -> float:
        return self._length

    @length.setter
    def length(self, value: float) -> None:
        self._length = check_length(value)

    # -- controls -------------------------------------------------------------------------------------------

    def _now(self, now: float | None) -> float:
        if now is not None:
            return float(now)
        if self._clock is None:
            raise ValueError("Hourglass needs `now` when it was built without a clock")
        return float(self._clock.now())

    def start(self, now: float | None = None) -> None:
        """Turn the hourglass: full sand, running from ``now`` (restarts one that is running or expired)."""
        self.reset()
        self._started = True
        self._running_since = self._now(now)

    def pause(self, now: float | None = None) -> bool:
        """Freeze the sand; False (nothing changed) unless it was running and not yet expired."""
        t = self._now(now)
        if self._running_since is None or self._elapsed(t) >= self._length:
            return False
        self._elapsed_before = self._elapsed(t)
        self._running_since = None
        return True

    def resume(self, now: float | None = None) -> bool:
        """Let the sand run again after ``pause``; False (nothing changed) unless it was paused."""
        t = self._now(now)
        if not self._started or self._running_since is not None:
            return False
        self._running_since = t
        return True

    def reset(self) -> None:
        """Back to idle with full sand; a new start will warn and expire again."""
        self._started = False
        self._running_since = None
        self._elapsed_before = 0.0
        self._warned = False
        self._expired_reported = False

    # -- reading --------------------------------------------------------------------------------------------

    def _elapsed(self, t: float) -> float:
        run = 0.0 if self._running_since is None else max(0.0, t - self._running_since)
        return self._elapsed_before + run

    def remaining(self, now: float | None = None) -> float:
        """Seconds of sand left (the full length when idle, 0 once expired)."""
        t = self._now(now)
        return max(0.0, self._length - self._elapsed(t))

    def seconds_shown(self, now: float | None = None) -> int:
        """The whole seconds to print next to the small hourglass: rounded up, so 0 only at expiry."""
        return math.ceil(self.remaining(now) - 1e-9)

    def fraction_left(self, now: float | None = None) -> float:
        """Share of the sand still on top, 1.0 (full) .. 0.0 (expired)."""
        return self.remaining(now) / self._length

    def expires_at(self) -> float | None:
        """The moment the sand runs out, or None unless running."""
        if self._running_since is None:
            return None
        return self._running_since + (self._length - self._elapsed_before)

    def state(self, now: float | None = None) -> HourglassState:
        t = self._now(now)
        if not self._started:
            return "idle"
        left = self.remaining(t)
        if left <= 0.0:
            return "expired"
        if self._running_since is None:
            return "paused"
        if left <= WARNING_SECONDS:
            return "warning"
        return "running"

    def poll(self, now: float | None = None) -> list[str]:
        """The transitions reached since the last poll, each reported once per start: "warning", "expired".

        When the loop was so late that the whole warning window passed unseen, only "expired" is reported:
        a warning after the end would be noise.
        """
        t = self._now(now)
        state = self.state(t)
        out: list[str] = []
        if state == "warning" and not self._warned:
            self._warned = True
            out.append("warning")
        elif state == "expired" and not self._expired_reported:
            self._warned = True
            self._expired_reported = True
            out.append("expired")
        return out

    def next_deadline(self, now: float | None = None) -> float | None:
        """When the loop must wake next to keep display, ring and cues on time; None when nothing will change.

        Running: the next change of the whole seconds shown (which also covers the warning moment and expiry);
        in the warning window also the next blink edge; expired: the next flash edge while the flash lasts.
        """
        t = self._now(now)
        state = self.state(t)
        end = self.expires_at()
        if state in ("running", "warning") and end is not None:
            left = end - t
            step = BLINK_HALF_PERIOD if state == "warning" else 1.0
            # The next moment `left` falls onto a multiple of `step`, strictly after now.
            k = math.ceil(left / step - 1e-9) - 1
            candidate = end - k * step
            if candidate <= t + 1e-9:
                candidate += step
            return min(candidate, end)
        if state == "expired" and end is not None:
            since = t - end
            if since >= EXPIRED_FLASH_SECONDS:
                return None
            k = math.floor(since / BLINK_HALF_PERIOD + 1e-9) + 1
            return end + min(k * BLINK_HALF_PERIOD, EXPIRED_FLASH_SECONDS)
        return None

    # -- the ring -------------------------------------------------------------------------------------------

    def ring_frame(self, now: float | None, count: int) -> list[RGB]:
        """The ring as ``count`` colours: the lit share is the sand left, draining from the last LED back.

        Patterns differ so colour is never the only cue: running = steady sand-white, the LED at the edge
        dimmed by the part of its grain left; warning = amber, blinking (on in the first half of each shown
        second); paused = steady but dim; expired = the whole ring red, every other LED, the two halves
        swapping twice a second for a few seconds, then still; idle = dark.
        """
        if count < 1:
            raise ValueError(f"a ring needs at least one LED, got {count}")
        t = self._now(now)
        state = self.state(t)
        if state == "idle":
            return [OFF] * count
        if state == "expired":
            end = self.expires_at()
            since = 0.0 if end is None else t - end
            swap = 0
            if since < EXPIRED_FLASH_SECONDS:
                swap = math.floor(max(0.0, since) / BLINK_HALF_PERIOD + 1e-9) % 2
            return [RED if (i + swap) % 2 == 0 else OFF for i in range(count)]
        lit = self.fraction_left(t) * count
        full = math.floor(lit)
        partial = lit - full
        colour = AMBER if state == "warning" else SAND
        if state == "paused":
            colour = _scale(SAND if self.remaining(t) > WARNING_SECONDS else AMBER, PAUSED_DIM)
        frame = [colour if i < full else OFF for i in range(count)]
        if full < count and partial > 0.0:
            # The grain still falling: at least a glimmer, so a lit share never rounds to a dark ring.
            frame[full] = _scale(colour, max(0.15, partial))
        if state == "warning":
            left = self.remaining(t)
            into_second = math.ceil(left - 1e-9) - left  # 0 right after a whole second is shown
            if into_second >= BLINK_HALF_PERIOD - 1e-9:
                frame = [OFF] * count
        return frame


# -- enforced mode -------------------------------------------------------------------------------------------

EnforcedKind = Literal["none", "force_clue", "stop", "keep_guessing"]


@dataclass(frozen=True)
class EnforcedAction:
    """What an expired hourglass means in the enforced option.

    ``kind``: "force_clue" = the app opens the clue entry for ``seat`` at once (no other action until a
    clue); "stop" = the app applies a Stop for ``seat`` (recorded as usual); "keep_guessing" = nothing
    changes, the turn stays with ``seat`` until it guesses; "none" = nothing to enforce in this phase.
    """

    kind: EnforcedKind
    seat: Seat | None
    reason: str


def enforced_action(
    phase: str,
    seat_to_act: Seat | None,
    correct_guess_this_turn: bool,
    *,
    mode: str = DUET.kind,
) -> EnforcedAction:
    """The action an expired enforced hourglass forces (issue 9).

    ``phase`` is "clue" or "guess" (any other phase, e.g. sudden death or game over, enforces nothing);
    ``mode`` is the game's mode (``device.modes``; its ``rules`` say which of the two below).

    Duet: the clue giver must give a clue at once; a guesser with a correct guess this turn stops, one without
    keeps the turn until they guess (Duet rules: no stop before a correct guess).
    Classic / Pictures: the team's turn ends as a stop when it has guessed at least once (in classic a wrong
    guess ends the turn by itself, so a guess made this turn is a correct one); a spymaster still to clue
    must clue at once; guessers with no guess yet keep the turn until they guess (the rules require one
    guess per turn).

    Raises ValueError for an unknown mode.
    """
    if not known(mode):
        raise ValueError(f"unknown mode {mode!r}")
    if phase == "clue":
        return EnforcedAction("force_clue", seat_to_act, "time is up: the clue must be given now")
    if phase == "guess":
        if correct_guess_this_turn:
            return EnforcedAction("stop", seat_to_act, "time is up: the turn ends as a stop")
        return EnforcedAction("keep_guessing", seat_to_act, "time is up, but the turn stays until a guess")
    return EnforcedAction("none", seat_to_act, f"nothing to enforce in phase {phase!r}")
