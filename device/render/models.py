"""The small UI models the app fills and the renderers draw (device/render/shared.py, oled.py, ring.py).

Renderers are pure: (engine view + one of these models) → a picture. Everything here is a frozen value; the
app builds a new one whenever what is shown changes, and renderers compare them to skip unchanged work.

Rules the app can rely on:
- Every string in a model is shown as given: the app translates (French default, English, Romanian);
  renderers never translate and never build sentences. Short fixed labels come in ``labels`` mappings whose
  keys are listed next to each model (a missing key falls back to a short English label so a forgotten key
  is visible, not fatal).
- The shared display and the ring receive only ``engine.views.PublicView`` (or a classic/pictures public
  view) plus these models. The only secrets a model may carry to the shared display are the ones the rules
  show in the open:
  ``GameOverUi.keys`` (both key sides, after both seats confirmed) and ``HotSeatUi.key`` (the hot-seat key
  display, only while the clue giver holds OK behind the privacy screen). The app decides when; the renderer
  just draws.
- Seats: A sits at the bottom edge of the shared display, B at the top (table orientation).
- Card indexes are row-major from the top-left card as seat A sees the grid (engine order).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from engine.board import DUET as DUET_BOARD
from engine.classic import ClassicCardView, ClassicPublicView, SpymasterView
from engine.seats import Seat
from engine.views import CardView, PublicView, SeatView

Orientation = Literal["table", "upright"]
CityStatus = Literal["ticked", "playable", "locked"]
GuessResult = Literal["agent", "bystander", "assassin"]

#: What the shared display and the ring are given: a public view (Duet, Duet with pictures, a mission; classic
#: or Pictures), or None on a screen without a game. Never a seat's view.
SharedView = PublicView | ClassicPublicView
#: What a seat's OLED is given: its own Duet seat view, a classic spymaster's key, or the public classic view
#: (a guesser's OLED), or None.
OledView = SeatView | SpymasterView | ClassicPublicView
#: A card of a public view.
PublicCard = CardView | ClassicCardView


# --- shared pieces ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Cursor:
    """A seat's cursor on the grid (moved with that seat's joystick or by touch): a ring round the card, in the
    gap and on the card's rim, never over a word. Seat A's ring is solid, seat B's dashed (shapes differ, not
    only colour); the seat that waits gets a thinner dark ring."""

    seat: Seat
    card: int


@dataclass(frozen=True)
class Hold:
    """A hold-to-confirm in progress: ``fraction`` 0..1 of the ~0.6 s. ``card`` None = a hold not on a card
    (STOP held, or a confirm on a menu); the renderer then draws the progress in the status bar."""

    seat: Seat
    card: int | None
    fraction: float
    what: Literal["guess", "stop", "confirm"] = "guess"


@dataclass(frozen=True)
class MenuItem:
    label: str
    enabled: bool = True
    value: str | None = None  # shown right-aligned (setup and settings rows: "9", "Français", "on")


# --- shared display: one model per screen -------------------------------------------------------------


@dataclass(frozen=True)
class PlayUi:
    """Duet play (also Duet with pictures, and a mission in progress).

    ``message``: whose turn / what happens now, in words ("B donne un indice", "A devine — 2 + 1").
    ``banner``: shown across the top of the grid when set (the app passes the sudden-death text when
    ``view.sudden_death``; also usable for short notices such as "clue refused: penalty").
    ``orientation``: "table" = each word twice, upright for A and upside-down for B; "upright" = once,
    upright.
    ``pictures``: the card words are picture ids (engine.pictures_deck) drawn as pictures.
    labels keys: "clues" (history title), "bank", "taken", "agents", "mistakes" (innocent tokens of the
    mission), "mission" (prefix of the mission name), "stop" (shown next to a STOP hold), "seat_A", "seat_B"
    (names of the seats in the history, default "A"/"B"), "no_word" (a clue given without a word, default
    "—").
    """

    cursors: tuple[Cursor, ...] = ()
    hold: Hold | None = None
    message: str = ""
    banner: str | None = None
    orientation: Orientation = "table"
    pictures: bool = False
    labels: Mapping[str, str] = field(default_factory=dict)
    entry: ClueEntryUi | None = None  # hot-seat: the clue being entered, drawn in the side panel (its letter strip)


@dataclass(frozen=True)
class GameOverUi:
    """Game over over the final grid: ``title`` ("Gagné !" / "Perdu"), ``reason`` (translated),
    ``score_line`` ("Score : 12") and ``verdict`` (translated verdict text) when scored, ``summary`` lines,
    ``prompt`` ("both press OK to see the keys"), ``confirmed`` seats already confirmed.
    ``keys``: {"A": 25 chars G/N/X, "B": ...} only after both seats confirmed (engine.views.revealed_keys);
    the grid then shows each card's colour on A's side (bottom half) and B's side (top half)."""

    title: str
    reason: str = ""
    score_line: str | None = None
    verdict: str | None = None
    summary: tuple[str, ...] = ()
    prompt: str = ""
    confirmed: tuple[Seat, ...] = ()
    keys: Mapping[str, str] | None = None
    won: bool = False
    orientation: Orientation = "table"
    pictures: bool = False
    labels: Mapping[str, str] = field(default_factory=dict)  # same keys as PlayUi


@dataclass(frozen=True)
class MenuUi:
    """A list to pick from (main menu, word packs, team sheets...). Also drawn on an OLED by oled.py.
    ``hint``: a line at the bottom ("joystick: choose, OK: confirm")."""

    title: str
    items: tuple[MenuItem, ...]
    selected: int = 0
    hint: str = ""
    orientation: Orientation = "table"  # "table": printed for A (lower half) and turned for B (upper half)


@dataclass(frozen=True)
class SetupUi:
    """Game set-up (and settings): rows of label = value; ``selected`` row is being changed with left/right.
    ``editing``: the selected value is being changed (arrows drawn around it)."""

    title: str
    rows: tuple[MenuItem, ...]
    selected: int = 0
    editing: bool = False
    hint: str = ""
    orientation: Orientation = "table"  # "table": printed for A (lower half) and turned for B (upper half)


@dataclass(frozen=True)
class SettingsUi:
    """Settings/admin: like SetupUi, plus a status line (e.g. "stats reset", "shutting down...")."""

    title: str
    rows: tuple[MenuItem, ...]
    selected: int = 0
    editing: bool = False
    hint: str = ""
    status: str = ""
    orientation: Orientation = "table"  # "table": printed for A (lower half) and turned for B (upper half)


@dataclass(frozen=True)
class PinUi:
    """The admin PIN prompt: ``entered`` digits typed so far (drawn as dots), ``length`` expected,
    ``current`` digit being chosen with the joystick (drawn in clear), ``error`` after a wrong PIN."""

    title: str
    length: int
    entered: int = 0
    current: int | None = None
    error: str | None = None
    hint: str = ""
    orientation: Orientation = "table"  # "table": printed for A (lower half) and turned for B (upper half)


@dataclass(frozen=True)
class StatsRow:
    label: str  # a mode ("Duet", "Classique"...)
    values: tuple[str, ...]  # already formatted cells, one per StatsUi.columns


@dataclass(frozen=True)
class StatsUi:
    """Statistics as a table: ``columns`` headers ("parties", "victoires", "meilleur score", "série"), one
    row per mode, plus free ``lines`` below."""

    title: str
    columns: tuple[str, ...]
    rows: tuple[StatsRow, ...]
    lines: tuple[str, ...] = ()
    hint: str = ""
    orientation: Orientation = "table"  # "table": printed for A (lower half) and turned for B (upper half)


@dataclass(frozen=True)
class MapCity:
    """One mission city. ``id``: the engine's city id or its name (positions are looked up by id, then by
    name, ignoring case, accents, spaces and punctuation: "cape_town" == "Cape Town"). ``pos`` overrides the
    built-in position (x, y in 0..1 of the map area). ``name`` is shown as given."""

    id: str
    name: str
    tokens: int
    mistakes: int
    status: CityStatus
    wins: int = 0
    losses: int = 0
    pos: tuple[float, float] | None = None


@dataclass(frozen=True)
class MapUi:
    """The mission map: ticked = filled disc with a check, playable = ring with a dot, locked = small hollow
    square (shape differs, not only colour). ``links`` are pairs of city ids. ``selected`` city id gets the
    detail panel (``detail`` lines: "9 turns, 5 mistakes", "2 wins, 1 loss"). labels keys: "ticked",
    "playable", "locked" (legend)."""

    title: str
    sheet: str
    cities: tuple[MapCity, ...]
    links: tuple[tuple[str, str], ...]
    selected: str | None = None
    detail: tuple[str, ...] = ()
    hint: str = ""
    labels: Mapping[str, str] = field(default_factory=dict)
    language: str = ""  # the interface language: city names are drawn in it (missions.json "names")
    orientation: Orientation = "table"  # "table": printed for A (lower half) and turned for B (upper half)


@dataclass(frozen=True)
class HotSeatUi:
    """Hot-seat privacy screen and key display (kiosk, no OLEDs).

    stage "privacy": ``lines`` (e.g. "Seat B, look away", "Seat A, hold OK to see your key") and the
    ``hold`` fraction of the hold that opens the key. stage "key": the grid with ``key`` (25 chars G/N/X of
    ``seat``'s side, or classic R/B/N/X) drawn over the public cards; hidden again when the app goes back to
    "privacy" or to play. ``key`` must be None in stage "privacy"."""

    stage: Literal["privacy", "key"]
    seat: Seat
    lines: tuple[str, ...] = ()
    hold: float = 0.0
    key: str | None = None
    orientation: Orientation = "table"
    pictures: bool = False
    labels: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class AttractUi:
    """Idle animation. ``t``: seconds since the attract screen started (the app passes clock time; the frame
    is a pure function of it). ``title``: "duetbox", ``prompt``: "press OK"."""

    t: float
    title: str = "duetbox"
    prompt: str = ""
    words: tuple[str, ...] = ()  # optional words to float around
    orientation: Orientation = "table"  # "table": printed for A (lower half) and turned for B (upper half)


@dataclass(frozen=True)
class MessageUi:
    """A plain centred message (paused, loading, shutting down, errors)."""

    title: str
    lines: tuple[str, ...] = ()
    orientation: Orientation = "table"  # "table": printed for A (lower half) and turned for B (upper half)


@dataclass(frozen=True)
class ClassicPlayUi:
    """Classic Codenames and Pictures play. The view is the classic/pictures public view (its cards carry
    their colour once covered); the grid has ``columns`` x ``rows`` cards (5x5 classic, 5x4 Pictures).

    ``team``: translated team to play ("Rouges"), ``team_colour`` "R"/"B" (the banner colour), ``clue`` text
    ("fleuve 2" or ""), ``guesses`` ("2 essais restants"), ``left``: {"R": "5", "B": "7"} cards left per
    team, ``message``: what happens now, ``cover``: (card, fraction 0..1) while the duo opponent's cover is
    animated.
    ``cards``: the public cards when the app prefers to pass them here rather than rely on the view's shape.
    labels keys: "R", "B" (team names in the "left" panel), "clues" (history title)."""

    team: str
    team_colour: Literal["R", "B"]
    columns: int = DUET_BOARD.columns
    rows: int = DUET_BOARD.rows
    clue: str = ""
    guesses: str = ""
    left: Mapping[str, str] = field(default_factory=dict)
    message: str = ""
    banner: str | None = None
    cursors: tuple[Cursor, ...] = ()
    hold: Hold | None = None
    cover: tuple[int, float] | None = None
    pictures: bool = False
    history: tuple[str, ...] = ()
    cards: tuple[ClassicCard, ...] | None = None
    labels: Mapping[str, str] = field(default_factory=dict)
    orientation: Orientation = "table"  # "table": words twice, both bars and the panel face both seats


@dataclass(frozen=True)
class ClassicCard:
    """One public classic/pictures card: ``content`` a word or a picture id, ``colour`` R/B/N/X once covered
    (None while face up)."""

    content: str
    colour: Literal["R", "B", "N", "X"] | None = None


# --- help pages (device/render/help.py draws them) -------------------------------------------------------

@dataclass(frozen=True)
class Figure:
    """One illustration: ``kind`` is "word" (a card with ``content`` on it), "agent" (a found agent),
    "assassin", "bystander" (a card with a bystander token), "red"/"blue" (a classic tile), "picture" (a
    picture card, ``content`` its id), "key" (a hot-seat key card), "token" (a timer token), "code" (remote
    play's six letters, ``content``). ``caption``: the word under it."""

    kind: str
    content: str = ""
    caption: str = ""


@dataclass(frozen=True)
class HelpUi:
    """One page of a mode's help: ``lines`` (short paragraphs), ``figures`` drawn beside them, ``page``
    ("1/2"), ``hint`` (the buttons)."""

    title: str
    lines: tuple[str, ...]
    figures: tuple[Figure, ...] = ()
    page: str = ""
    hint: str = ""
    orientation: str = "table"


@dataclass(frozen=True)
class AboutUi:
    """The about page: the version line, then the attributions and the notice lines."""

    title: str
    lines: tuple[str, ...]
    hint: str = ""
    orientation: str = "table"


@dataclass(frozen=True)
class ConfirmUi:
    """A question before something that cannot be undone: ``choices`` (the safe one first), ``selected``."""

    title: str
    lines: tuple[str, ...]
    choices: tuple[str, ...]
    selected: int = 0
    hint: str = ""
    orientation: str = "table"


SharedUi = (
    PlayUi
    | GameOverUi
    | MenuUi
    | SetupUi
    | SettingsUi
    | PinUi
    | StatsUi
    | MapUi
    | HotSeatUi
    | AttractUi
    | MessageUi
    | ClassicPlayUi
    | HelpUi
    | AboutUi
    | ConfirmUi
)


# --- seat OLEDs (128x64, one bit) ---------------------------------------------------------------------


@dataclass(frozen=True)
class SeatKeyUi:
    """The seat's key map with a status line: the bank's tokens left (from the view), ``role`` translated
    ("ton indice" / "devine" / "attends"), ``cursor`` the card under this seat's cursor (a blinking-free
    bracket on the map), ``picking`` the clue number being picked (shown large in the status line)."""

    role: str = ""
    cursor: int | None = None
    picking: int | None = None


@dataclass(frozen=True)
class ClueEntryUi:
    """Clue entry on the clue giver's OLED.

    stage "number": the number picker (``number``, 0..9; ``title`` "Nombre ?").
    stage "word": the letter picker: ``letters`` the row of letters to pick from (the app includes the
    language's diacritics and its action symbols, e.g. "⌫" delete, "✓" done, "—" skip), ``letter`` the index
    of the highlighted one, ``word`` typed so far.
    stage "refusal": ``refusal`` the checker's reason (translated, may be long: wrapped), ``choices``
    (["accepter quand même", "changer"]) with ``choice`` highlighted.
    stage "confirm": the clue as it will be given (``word`` and ``number``), ``hint`` "OK: donner".
    """

    stage: Literal["number", "word", "refusal", "confirm"]
    number: int | None = 0  # None: a word without a number (a team sheet's name): none is drawn
    word: str = ""
    letters: tuple[str, ...] = ()
    letter: int = 0
    refusal: str | None = None
    choices: tuple[str, ...] = ()
    choice: int = 0
    title: str = ""
    hint: str = ""
    #: the clue giver's own key, kept in sight while the clue is spelt (G/N/X in Duet, R/B/N/X in classic;
    #: empty: none, e.g. a team sheet's name): small beside the word, full size beside the number in classic
    key: str = ""
    covered: tuple[int, ...] = ()  # cards already covered (drawn as a dot)
    columns: int = DUET_BOARD.columns
    rows: int = DUET_BOARD.rows
    key_seat: str = "A"  # seat B's map is turned half a turn, as on its key screen


@dataclass(frozen=True)
class OledTextUi:
    """Plain text on an OLED ("look at the display", "paused", game-over result): a bold ``title`` and
    lines."""

    title: str
    lines: tuple[str, ...] = ()
    invert: bool = False


@dataclass(frozen=True)
class SpymasterUi:
    """Classic/pictures spymaster OLED (seat A's side): the whole ``key`` (R/B/N/X, ``columns`` x
    ``rows``) with patterns: red = filled, blue = hatched, bystander = empty outline, assassin = cross;
    ``covered`` cards are drawn small (already played). ``status``: translated ("Rouges jouent — 2
    restants")."""

    key: str
    covered: tuple[int, ...] = ()
    columns: int = DUET_BOARD.columns
    rows: int = DUET_BOARD.rows
    status: str = ""
    cursor: int | None = None
    legend: tuple[str, ...] = ()  # the red and blue team names, drawn beside a filled and a hatched square


OledUi = SeatKeyUi | ClueEntryUi | MenuUi | OledTextUi | SpymasterUi


# --- ring effects -------------------------------------------------------------------------------------
# Effects are values with a start time (clock seconds). ring.ring_frame(view, effects, t, count, brightness)
# draws the base layer from the public view (bank tokens, sudden-death pulse) and the effects over it;
# ring.next_deadline(view, effects, t) says when the next frame differs (None = still until something
# happens).


@dataclass(frozen=True)
class GuessFlash:
    """A guess result: agent = 2 slow green pulses, bystander = 3 quick amber blinks, assassin = long red
    strobe (patterns differ as well as colours). Lasts ring.FLASH_SECONDS[result]."""

    start: float
    result: GuessResult


@dataclass(frozen=True)
class HoldFill:
    """Hold-to-confirm progress: the ring fills clockwise from the holding seat's side."""

    seat: Seat
    fraction: float
    start: float = 0.0


@dataclass(frozen=True)
class WinEffect:
    start: float


@dataclass(frozen=True)
class LossEffect:
    start: float


@dataclass(frozen=True)
class AttractEffect:
    start: float


RingEffect = GuessFlash | HoldFill | WinEffect | LossEffect | AttractEffect
