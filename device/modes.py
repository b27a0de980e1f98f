"""The game modes: one ``Mode`` descriptor each, and every list of modes (menu rows, help pages, set-up rows,
what a saved game resumes into) is read from here.

A mode says what the menu shows (``label``), its set-up title, its help page, its family (which session, rules and
screens: Duet, classic or solo), its board, the options it turns on (pictures, hot-seat, a mission, remote, the
box as partner), the options its games are started with (``takes``: fields of the typed ``GameOptions``, saved as
the JSON object older boxes wrote) and the kind written in the records and the database (unchanged on disk: old
saves load). Adding a mode is adding a descriptor here (or ``register`` one, as tests/device/test_modes.py
does) and, when its family's screens do not fit, screens of its own (``device.navigation.add_screens``: this
module imports no screen).

``tests/structure/test_mode_home.py`` fails when a mode's kind ("duet", "hotseat"...) or a literal 25 or 5 × 5 is
written outside this module and ``engine/board.py``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Literal, Protocol

from common.jsonvalue import Json, JsonObject
from engine.board import DUET as DUET_BOARD
from engine.board import Board
from engine.seats import Seat
from engine.session import DuetSession, GameSession


class Family(Enum):
    """Which session, rules and built-in screens a mode uses (the value names a flow in ``again.Recipe``)."""

    DUET = "duet"
    CLASSIC = "classic"
    SOLO = "solo"


#: An illustration of a help page: (figure kind, content key or literal, caption key).
HelpFigure = tuple[str, str, str]


@dataclass(frozen=True)
class HelpPage:
    """A help page: its name (the catalog has ``help.<name>_1`` .. ``_4`` and ``help.mode_<name>``) and the
    figures of each of its two pages."""

    name: str
    figures: tuple[tuple[HelpFigure, ...], ...]


_WORD, _AGENT = ("word", "@help.example_word", "help.fig_word"), ("agent", "@help.example_word", "help.fig_agent")
_ASSASSIN, _TOKEN = ("assassin", "", "help.fig_assassin"), ("token", "", "help.fig_token")
_BYSTANDER = ("bystander", "@help.example_word", "help.fig_bystander")

HELP_DUET = HelpPage("duet", ((_WORD, _AGENT, _ASSASSIN), (_BYSTANDER, _TOKEN)))
HELP_MISSIONS = HelpPage("missions", ((_TOKEN, _AGENT), (_ASSASSIN,)))
HELP_CLASSIC = HelpPage("classic", ((("red", "@help.example_word", "help.fig_red"),
                                     ("blue", "@help.example_word", "help.fig_blue")), (_WORD, _ASSASSIN)))
HELP_PICTURES = HelpPage("pictures", ((("picture", "p012", ""), ("picture", "p047", "")),
                                      (("red", "", "help.fig_red"), ("blue", "", "help.fig_blue"))))
HELP_HOTSEAT = HelpPage("hotseat", ((("key", "@help.example_word", "help.fig_key"),), (_WORD, _AGENT)))
HELP_SOLO = HelpPage("solo", ((_WORD, _AGENT), (_BYSTANDER,)))
HELP_REMOTE = HelpPage("remote", ((("code", "HKMPRT", "help.fig_code"),), (_WORD, _TOKEN)))

#: A ``GameOptions`` field a mode may take (``Mode.takes``).
OptionName = Literal["orientation", "pack", "sheet", "variant", "difficulty", "solo", "remote"]


class DuetDeal(Protocol):
    """How a mode of the Duet family makes its session from the dealt cards (``DuetSession.create``)."""

    def __call__(self, words: tuple[str, ...], rng: random.Random, *, tokens: int, clues: str,
                 several_clues: bool, mission: str | None, language: str) -> GameSession: ...


@dataclass(frozen=True)
class Mode:
    """One way to play."""

    kind: str  # the game's kind in the database and its record (never renamed: saved games load)
    label: str  # message key of its row in the main menu (and its set-up's title)
    help: HelpPage
    family: Family = Family.DUET
    board: Board = DUET_BOARD
    pictures: bool = False  # cards are pictures (no words to check a clue against)
    hotseat: bool = False  # one shared display, the keys shown on it while OK is held
    mission: bool = False  # a city of the mission map
    remote: bool = False  # two boxes, one seat each
    solo: bool = False  # the box plays seat B
    new_game: bool = True  # its menu row starts a new game (a confirmation first while one is saved)
    setup_rows: tuple[str, ...] = ("tokens", "pack", "clues", "several", "start")
    #: the options its games are started with (``GameOptions``' fields beside the language, the pictures and
    #: hot-seat switches, which the mode itself says)
    takes: frozenset[OptionName] = frozenset({"orientation", "pack"})
    session: DuetDeal = field(default=DuetSession.create, compare=False)  # the Duet family's session

    @property
    def setup_title(self) -> str:
        """Message key of its set-up's title."""
        return f"setup.title_{self.kind}"

    @property
    def classic_kind(self) -> Literal["classic", "pictures"]:
        """The engine's name of a classic-family mode (``engine.classic``: its rules and key composition)."""
        return "pictures" if self.pictures else "classic"

    @property
    def rules(self) -> Literal["duet", "classic"]:
        """Which rules an enforced hourglass follows (``services.hourglass.enforced_action``)."""
        return "classic" if self.family is Family.CLASSIC else "duet"


DUET = Mode("duet", "menu.duet", HELP_DUET)
MISSION = Mode("mission", "menu.missions", HELP_MISSIONS, mission=True,
               takes=frozenset({"orientation", "pack", "sheet"}))
_CLASSIC_TAKES: frozenset[OptionName] = frozenset({"variant", "pack"})
CLASSIC = Mode("classic", "menu.classic", HELP_CLASSIC, Family.CLASSIC, setup_rows=("variant", "pack", "clues",
                                                                                    "start"), takes=_CLASSIC_TAKES)
PICTURES = Mode("pictures", "menu.pictures", HELP_PICTURES, Family.CLASSIC, Board(5, 4), pictures=True,
                setup_rows=("variant", "pictures_key", "clues", "start"), takes=_CLASSIC_TAKES)
DUET_PICTURES = Mode("duet_pictures", "menu.duet_pictures", HELP_DUET, pictures=True,
                     setup_rows=("tokens", "clues", "several", "start"))
HOTSEAT = Mode("hotseat", "menu.hotseat", HELP_HOTSEAT, hotseat=True)
SOLO = Mode("solo", "menu.solo", HELP_SOLO, Family.SOLO, solo=True,
            takes=frozenset({"orientation", "solo", "difficulty"}))
REMOTE = Mode("remote", "menu.remote", HELP_REMOTE, remote=True, new_game=False,
              takes=frozenset({"orientation", "remote", "sheet"}))

#: Every mode, in the main menu's order (remote play's rows come from its own menu entries); the help index
#: lists their pages in the same order, each once.
_REGISTRY: list[Mode] = [DUET, MISSION, CLASSIC, PICTURES, DUET_PICTURES, HOTSEAT, SOLO, REMOTE]


def modes() -> tuple[Mode, ...]:
    return tuple(_REGISTRY)


def register(mode: Mode) -> Callable[[], None]:
    """Add a mode (a test's); returns what takes it away again."""
    if any(m.kind == mode.kind for m in _REGISTRY):
        raise ValueError(f"a mode of kind {mode.kind!r} exists already")
    _REGISTRY.append(mode)
    return lambda: _REGISTRY.remove(mode)


def by_kind(kind: str | Mode | None) -> Mode:
    """The mode of a game's kind (a saved game's, a record's session mode); Duet for an unknown one."""
    if isinstance(kind, Mode):
        return kind
    for mode in _REGISTRY:
        if mode.kind == kind:
            return mode
    return DUET


def known(kind: object) -> bool:
    return any(m.kind == kind for m in _REGISTRY)


def help_pages() -> tuple[HelpPage, ...]:
    """Every help page, once, in the registry's order."""
    return tuple(dict.fromkeys(m.help for m in _REGISTRY))


def help_page(name: str | HelpPage) -> HelpPage:
    """A help page by name (Duet's for an unknown one)."""
    if isinstance(name, HelpPage):
        return name
    return next((p for p in help_pages() if p.name == name), HELP_DUET)


def new_game_labels() -> frozenset[str]:
    """The main menu's rows that start a new game."""
    return frozenset(m.label for m in _REGISTRY if m.new_game)


# -- a game's options, typed (kept on disk as the same JSON object as before) ----------------------------------

Orientation = Literal["table", "upright"]


@dataclass(frozen=True)
class RemoteOptions:
    """A game played with another box: this box's role in the pairing ("host", "guest"), the game's id on the
    link and the seat played here (``device.remote``)."""

    role: str
    game: str | None
    seat: Seat


@dataclass(frozen=True)
class GameOptions:
    """What a game was started with beside its record (its set-up), saved with it as a JSON object whose keys are
    the ones the box always wrote (``to_dict``/``from_dict``: an old row reads the same; unknown keys are kept in
    ``extra`` and written back)."""

    language: str = "fr"
    orientation: Orientation | None = None  # None: the box's setting
    pack: str | None = None
    pictures: bool = False
    hotseat: bool = False
    sheet: int | None = None  # the mission map's team sheet
    variant: str | None = None  # classic: standard, duo, trio
    difficulty: str | None = None  # solo: normal, hard, easy (device.solo.DIFFICULTIES)
    solo: Seat | None = None  # solo: the seat the box plays
    remote: RemoteOptions | None = None  # a game with another box (only its router resumes it)
    extra: Mapping[str, Json] = field(default_factory=dict)  # keys this code does not know (a newer box's)

    @classmethod
    def from_dict(cls, data: Mapping[str, Json]) -> GameOptions:
        known_keys = {f for f in cls.__dataclass_fields__ if f != "extra"}
        saved = data.get("orientation")
        orientation: Orientation | None = "upright" if saved == "upright" else "table" if saved else None
        sheet = data.get("sheet")
        solo = data.get("solo")
        return cls(str(data.get("language", "fr")), orientation, _text(data.get("pack")),
                   bool(data.get("pictures")), bool(data.get("hotseat")),
                   int(sheet) if isinstance(sheet, int) and not isinstance(sheet, bool) else None,
                   _text(data.get("variant")), _text(data.get("difficulty")),
                   None if solo is None else "A" if solo == "A" else "B", _remote(data.get("remote")),
                   {k: v for k, v in data.items() if k not in known_keys})

    def given(self) -> frozenset[str]:
        """The fields set beside the language and the two switches (what ``Mode.takes`` lists)."""
        unset = GameOptions()
        beside = ("language", "pictures", "hotseat", "extra")
        return frozenset(f for f in self.__dataclass_fields__
                         if f not in beside and getattr(self, f) != getattr(unset, f))

    def to_dict(self) -> JsonObject:
        """The JSON object saved with the game (only the keys that are set, as the box always wrote them)."""
        out: JsonObject = {"language": self.language}
        if self.remote is not None:
            out["remote"] = {"role": self.remote.role, "game": self.remote.game, "seat": self.remote.seat}
        texts = (("orientation", self.orientation), ("pack", self.pack), ("variant", self.variant),
                 ("solo", self.solo), ("difficulty", self.difficulty))
        out.update((key, value) for key, value in texts if value is not None)
        out.update((key, True) for key, on in (("pictures", self.pictures), ("hotseat", self.hotseat)) if on)
        if self.sheet is not None:
            out["sheet"] = self.sheet
        out.update(self.extra)
        return out


def duet_options(mode: Mode, orientation: object, pack: str, sheet: int | None) -> GameOptions:
    """The options of a new game of the Duet family (``orientation``: the box's setting when it was dealt)."""
    return GameOptions(orientation=_orientation(orientation), pack=pack, pictures=mode.pictures,
                       hotseat=mode.hotseat, sheet=sheet)


def classic_options(mode: Mode, variant: str, pack: str) -> GameOptions:
    """The options of a new classic or Pictures game."""
    return GameOptions(pictures=mode.pictures, variant=variant, pack=pack)


def solo_options(orientation: object, box: Seat, difficulty: str) -> GameOptions:
    """The options of a new solo game (``box``: the seat the box plays)."""
    return GameOptions(orientation=_orientation(orientation), solo=box, difficulty=difficulty)


def _orientation(value: object) -> Orientation:
    return "upright" if value == "upright" else "table"


def _remote(value: Json | None) -> RemoteOptions | None:
    if not isinstance(value, dict):
        return None
    game = value.get("game")
    return RemoteOptions(str(value.get("role", "")), None if game is None else str(game),
                         "B" if value.get("seat") == "B" else "A")


def _text(value: object) -> str | None:
    return None if value is None else str(value)
