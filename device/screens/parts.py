"""The typed parts play screens are built from: holds (hold-to-confirm), the clue entry, notices, cursors.

Each part is a small object with its own rules; the Duet, classic, Pictures, solo and hot-seat screens compose
them instead of inheriting each other's dicts. The parts that must survive a power cut (the clue entry, the
cursors) have ``to_dict``/``from_dict`` writing the same JSON the box has always saved (``ui`` table), so a game
saved by an older box resumes."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from common.jsonvalue import JsonMap, JsonObject
from device.i18n import Translator
from device.render import models as m
from device.screens.saved import read_int, read_optional_str, read_seat, read_str
from engine.seats import Seat
from hardware.base import DIRECTIONS

#: How long OK (or STOP) must be held to touch a card or end a turn: a slip never hits the assassin.
HOLD_SECONDS = 0.6
#: Clock times are floats: a hold of exactly HOLD_SECONDS must not come out a hair short.
_EPSILON = 1e-6

HoldKind = Literal["guess", "stop", "speak", "speak_key", "key"]
#: What is held down: a button (OK, STOP) or a finger on the touch screen.
HoldBy = Literal["button", "touch"]


def held_long_enough(start: float, now: float) -> bool:
    return now - start >= HOLD_SECONDS - _EPSILON


# -- holds ---------------------------------------------------------------------------------------------------

@dataclass
class Hold:
    """One seat holding a button: what the hold will do, since when, against which state version."""

    what: HoldKind
    start: float
    version: int
    card: int | None = None
    shown: bool = False  # a hot-seat key hold that has filled: the key is on the display until release
    by: HoldBy = "button"  # a button's release ends a button hold, a lifted finger a touch hold

    def fraction(self, now: float) -> float:
        return min(1.0, (now - self.start) / HOLD_SECONDS)

    def due(self, now: float) -> bool:
        return held_long_enough(self.start, now)


class Holds:
    """The pending holds, one per seat. Never saved: a hold does not survive a screen change, a cursor that
    leaves its card, or a restart (issue 12: a tap, MENU, Continue must not fire the guess)."""

    def __init__(self) -> None:
        self._by_seat: dict[Seat, Hold] = {}

    def start(self, seat: Seat, what: HoldKind, now: float, version: int, card: int | None = None,
              by: HoldBy = "button") -> Hold:
        hold = Hold(what, now, version, card, by=by)
        self._by_seat[seat] = hold
        return hold

    def get(self, seat: Seat) -> Hold | None:
        return self._by_seat.get(seat)

    def pop(self, seat: Seat) -> Hold | None:
        return self._by_seat.pop(seat, None)

    def __contains__(self, seat: object) -> bool:
        return seat in self._by_seat

    def __bool__(self) -> bool:
        return bool(self._by_seat)

    def __iter__(self) -> Iterator[str]:
        return iter(self._by_seat)

    def items(self) -> list[tuple[Seat, Hold]]:
        return list(self._by_seat.items())

    def cancel_all(self) -> None:
        """Every pending hold ends without effect (the screen is left, the key is hidden again)."""
        self._by_seat.clear()

    def cursor_moved(self, seat: Seat, card: int) -> None:
        """``seat``'s cursor is now on ``card``: a guess held on another card is cancelled."""
        hold = self._by_seat.get(seat)
        if hold is not None and hold.card is not None and hold.card != card:
            del self._by_seat[seat]

    def lifted(self) -> list[tuple[Seat, Hold]]:
        """The finger left the screen: every touch hold ends (returned, so a short one can say "hold longer")."""
        ended = [(seat, hold) for seat, hold in self._by_seat.items() if hold.by == "touch"]
        for seat, _ in ended:
            del self._by_seat[seat]
        return ended

    def dragged(self, card: int | None) -> None:
        """The finger, still down, is now on ``card`` (None: off the cards): a touch hold on another card ends
        (a hot-seat key held by a finger stays until the finger lifts: a finger on glass always moves a little)."""
        for seat, hold in list(self._by_seat.items()):
            if hold.by == "touch" and hold.what != "key" and hold.card != card:
                del self._by_seat[seat]

    def release(self, seat: Seat, button: str) -> Hold | None:
        """``seat`` let ``button`` go: the button hold it ended (OK ends a guess or a key hold, STOP a stop or a
        speech hold), popped; None when it ended none (a finger's hold ends when the finger lifts)."""
        hold = self._by_seat.get(seat)
        if hold is None or hold.by != "button":
            return None
        if (button == "ok" and hold.what in ("guess", "key")) or (
                button == "stop" and hold.what in ("stop", "speak", "speak_key")):
            del self._by_seat[seat]
            return hold
        return None

    def model(self, now: float) -> m.Hold | None:
        """The guess or stop hold the shared display shows filling (on its card, or in the bar for STOP)."""
        for seat, hold in self._by_seat.items():
            if hold.what in ("guess", "stop"):
                return m.Hold(seat, hold.card, hold.fraction(now), hold.what)
        return None

    def fill(self, now: float) -> tuple[m.HoldFill, ...]:
        """The holds the ring shows filling from the holder's side."""
        return tuple(m.HoldFill(seat, h.fraction(now), h.start)
                     for seat, h in self._by_seat.items() if h.what in ("guess", "stop", "key") and not h.shown)

    def deadline(self) -> float | None:
        times = [h.start + HOLD_SECONDS for h in self._by_seat.values() if not h.shown]
        return min(times) if times else None


# -- cursors -------------------------------------------------------------------------------------------------

class Cursors(Mapping[Seat, int]):
    """Each seat's grid cursor (a read-only mapping seat → card, plus assignment); moving one cancels that
    seat's hold on another card."""

    def __init__(self, holds: Holds, start: Mapping[Seat, int]) -> None:
        self.holds = holds
        self._at: dict[Seat, int] = dict(start)

    def __getitem__(self, seat: Seat) -> int:
        return self._at[seat]

    def __setitem__(self, seat: Seat, card: int) -> None:
        self._at[seat] = card
        self.holds.cursor_moved(seat, card)

    def __iter__(self) -> Iterator[Seat]:
        return iter(self._at)

    def __len__(self) -> int:
        return len(self._at)

    def update(self, saved: Mapping[Seat, int]) -> None:
        """Cursors put back where a saved state had them (no hold is cancelled: none is pending yet)."""
        self._at.update(saved)


# -- clue entry ----------------------------------------------------------------------------------------------

EntryStep = Literal["number", "word", "refusal"]

DELETE, DONE, SKIP = "⌫", "✓", "—"
#: shown for the picker's space (flexible rules take multi-word clues: POMME DE TERRE): an open box, drawn "⊔"
#: (as tall as a capital; the usual "␣" is a third of its height, 5 px at 800x480)
SPACE = "⊔"
#: How far each joystick direction moves the letter picker: one letter sideways, 7 up or down.
LETTER_STEPS = {"right": 1, "left": -1, "down": 7, "up": -7}
#: The longest word the picker builds.
WORD_LIMIT = 20


def picked(letter: str) -> str:
    """The text a picked letter adds to the word (the space symbol adds a space)."""
    return " " if letter == SPACE else letter


@dataclass(frozen=True)
class Give:
    """What a clue entry asks its screen for: give the clue ``word`` (None: without a word), ``override`` when
    the players accept a clue the checker refused."""

    word: str | None
    override: bool = False


#: A clue entry's answer to a press: give the clue, close the entry ("close"), or nothing more to do (None).
EntryOutcome = Give | Literal["close"] | None


@dataclass
class ClueEntry:
    """A clue being entered on one seat's OLED (or on the display in hot-seat): the number, then the word letter
    by letter, then (when the checker refused it) accept or change."""

    seat: Seat
    step: EntryStep = "number"
    number: int = 1
    word: str = ""
    letter: int = 0
    refusal: str | None = None
    choice: int = 0

    # -- the picker's rules: number, then letters, then (refused) accept or change --------------------------
    def press(self, button: str, letters: Sequence[str], max_number: int) -> EntryOutcome:
        """One button pressed on the entering seat (the joystick, OK, STOP)."""
        if self.step == "number":
            return self._number(button, max_number)
        if self.step == "word":
            return self._word(button, letters)
        return self._refusal(button)

    def _number(self, button: str, max_number: int) -> EntryOutcome:
        if button in ("up", "right"):
            self.number = min(max_number, self.number + 1)
        elif button in ("down", "left"):
            self.number = max(0, self.number - 1)
        elif button == "ok":
            self.step = "word"
        elif button == "stop":
            return "close"
        return None

    def _word(self, button: str, letters: Sequence[str]) -> EntryOutcome:
        if button in LETTER_STEPS:
            self.letter = (self.letter + LETTER_STEPS[button]) % len(letters)
        elif button == "ok":
            return self._pick(letters[self.letter])
        elif button == "stop":
            self.step = "number"
        return None

    def _pick(self, pick: str) -> EntryOutcome:
        if pick == DELETE:
            self.word = self.word[:-1]
        elif pick == DONE:
            return Give(self.word or None)
        elif pick == SKIP:
            return Give(None)
        else:
            self.word = (self.word + picked(pick))[:WORD_LIMIT]
        return None

    def _refusal(self, button: str) -> EntryOutcome:
        if button in DIRECTIONS:
            self.choice = 1 - self.choice
        elif button == "ok" and self.choice == 0:
            return Give(self.word, override=True)
        elif button in ("ok", "stop"):
            self.step, self.refusal = "word", None
        return None

    def type(self, text: str, letters: Sequence[str], max_number: int) -> EntryOutcome:
        """What a USB keyboard typed: digits pick the number, letters build the word, Enter goes on."""
        for ch in text:
            if self.step == "number" and ch.isdigit():
                self.number = min(max_number, int(ch))
            elif ch == "\n":
                if self.step == "number":
                    self.step = "word"
                elif self.step == "word":
                    return Give(self.word or None)
            elif ch == "\b":
                self.word = self.word[:-1]
            elif ch.isalpha() or ch in "'- ":
                self.step = "word"
                self.word = (self.word + ch.upper())[:WORD_LIMIT]
                self.letter = list(letters).index(DONE)
        return None

    def refuse(self, reason: str) -> None:
        """The checker refused the clue: say why, offer accept or change ("change" preselected: one OK never gives
        an illegal clue)."""
        self.step, self.choice, self.refusal = "refusal", 1, reason

    def to_dict(self) -> JsonObject:
        return {"seat": self.seat, "step": self.step, "number": self.number, "word": self.word,
                "letter": self.letter, "refusal": self.refusal, "choice": self.choice}

    @classmethod
    def from_dict(cls, data: JsonMap | None) -> ClueEntry | None:
        """The entry a saved state had open (None: none, or no seat to give it to); a malformed field gives
        its fresh value (``device/screens/saved.py``)."""
        if not isinstance(data, Mapping):
            return None
        seat = read_seat(data.get("seat"))
        if seat is None:
            return None
        step = data.get("step")
        return cls(seat, step if step == "word" or step == "refusal" else "number",
                   read_int(data.get("number"), 1), read_str(data.get("word"), "")[:WORD_LIMIT],
                   read_int(data.get("letter"), 0), read_optional_str(data.get("refusal")),
                   1 if data.get("choice") == 1 else 0)


# -- notices -------------------------------------------------------------------------------------------------

NOTICE_SECONDS = 2.0


@dataclass
class Notices:
    """Short messages: one per seat's OLED and one on the shared display's banner, each until a time."""

    seats: dict[str, tuple[str, float]] = field(default_factory=dict)
    banner: tuple[str, float] | None = None

    def show(self, to: Seat | None, text: str, until: float) -> None:
        if to is None:
            self.banner = (text, until)
        else:
            self.seats[to] = (text, until)

    def text(self, seat: Seat) -> str | None:
        notice = self.seats.get(seat)
        return notice[0] if notice else None

    def banner_text(self) -> str | None:
        return self.banner[0] if self.banner else None

    def expire(self, now: float) -> None:
        self.seats = {s: n for s, n in self.seats.items() if n[1] > now}
        if self.banner and self.banner[1] <= now:
            self.banner = None

    def clear(self) -> None:
        self.seats, self.banner = {}, None

    def deadline(self) -> float | None:
        times = [until for _, until in self.seats.values()]
        if self.banner:
            times.append(self.banner[1])
        return min(times) if times else None


# -- labels --------------------------------------------------------------------------------------------------

def classic_labels(tr: Translator) -> dict[str, str]:
    """The words a classic table's renderer needs: the team names, "Clues", and how a label and its value are
    joined in this language ("Rouges : ZEBRA 2", "Red: ZEBRA 2")."""
    return {"R": tr("team.R"), "B": tr("team.B"), "clues": tr("label.clues"), "pair": tr("common.pair")}


#: A classic key card's letters as the model's colours (R, B: the teams; N: a bystander; X: the assassin).
_KEY_COLOURS: dict[str, Literal["R", "B", "N", "X"]] = {"R": "R", "B": "B", "N": "N", "X": "X"}


def revealed_cards(cards: Sequence[str], key: str) -> tuple[m.ClassicCard, ...]:
    """Every classic card with its colour on the key ``key`` (one letter a card): the whole key shown, after the
    game (game over, abandoned)."""
    return tuple(m.ClassicCard(card, _KEY_COLOURS.get(key[i])) for i, card in enumerate(cards))
