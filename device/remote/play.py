"""``RemotePlay``: remote play composed into the one box app (docs/remote.md).

A box with a broker gets one ``RemotePlay`` (``device.remote.app.remote_app``, the one entry point; ``duetbox run``
uses it with ``--remote`` or a ``[remote]`` section in the configuration, a plain ``App`` otherwise).
It is not a second app: it is injected into the app's parts, each through a narrow seam --

- the game controller's **move router** (``device.game.MoveRouter``): a move of the local seat in a remote game
  goes through the link (the host commits it and publishes it, the guest proposes it and shows it when the host's
  move comes back); a partner's move arrives from the link and takes the controller's one commit path; a saved
  remote game resumes only here, with its pinned link (never as a local game);
- an **input filter** (``device.inputs.InputFilter``): the link is polled with the timers, the remote seat's
  buttons do nothing here, a paused game takes only MENU (on the guest's turned display seat B's joystick moves
  the way its player sees the grid: a remote game is "upright", and ``move_card`` mirrors seat B at a table only);
- a **frame filter** (``App.frame_filters``): the remote seat's OLED never shows a key ("Remote partner" and
  where the partner's cursor is), the seat-B view is the guest's own, the paused message, "Sending…";
- a **menu row** (``Navigator.extras``): "Remote Duet".

It is also the link's table (``device.remote.link.Table``): what the protocol asks of the box.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from dataclasses import replace
from typing import Protocol, TypedDict

from common.jsonvalue import JsonObject
from device.inputs import InputInterpreter, LoopHost
from device.modes import REMOTE, GameOptions, RemoteOptions
from device.navigation import Navigator
from device.outputs import Outputs
from device.remote.link import SEAT_OF, Keys, RemoteLink
from device.remote.messages import Colour, MoveFacts, Setup, as_colour
from device.remote.pairing import Role, new_code
from device.remote.rendezvous import Ended
from device.remote.screens import EndedScreen, HostWaitingScreen, WaitingScreen, menu_items
from device.remote.secret import RemoteSession, Unresolved, one_side, seal_to
from device.remote.transport import BrokerConfig
from device.render import models as m
from device.screens.base import Frame
from device.screens.flows import deal_words
from device.screens.parts import Cursors
from device.screens.play import DuetPlayScreen, GameOverScreen
from device.seams import Move
from device.storage import GameRow
from engine import duet
from engine.actions import Clue, DuetAction, Guess, Penalty, Stop, action_from_dict
from engine.duet import apply as duet_apply
from engine.duet import greens_left
from engine.errors import IllegalAction, NotYourTurn
from engine.events import Event
from engine.seats import Seat
from engine.session import DuetSession, SetupError
from hardware.base import InputEvent
from hardware.box import Box

log = logging.getLogger("duetbox.remote")

#: The ``kind`` of a remote game in storage.
KIND = REMOTE.kind
#: The ``kind`` of the wake-up event the network thread puts in the box's queue.
WAKE = "link-wake"
#: Where the pinned link of the game in play is kept (the box's database, ``meta``): its keys and counters.
LINK_META = "remote.link"


class BoxApp(LoopHost, Protocol):
    """The box app remote play is composed into (``device.app.App``): the screens' host and the seams it is
    injected through."""

    box: Box
    outputs: Outputs
    input: InputInterpreter
    navigator: Navigator
    frame_filters: list[Callable[[Frame], Frame]]


class PartnerAway(IllegalAction):
    """A move made while the other box is away: refused (nothing is stored), the screen says the game is paused."""


class Offer(TypedDict):
    """The game the host offers, dealt when the guest's box is there."""

    pack: str
    tokens: int
    mission: str | None
    sheet: int | None


def _duet(action: Move) -> DuetAction:
    """A move of a remote game (a Duet); IllegalAction for any other game's."""
    if not isinstance(action, (Clue, Guess, Stop, Penalty)):
        raise IllegalAction("a remote game is a Duet")
    return action


def _seat_of(action: DuetAction) -> Seat | None:
    return None if isinstance(action, Penalty) else action.seat


class RemotePlay:
    """The remote play of one box app (see the module). ``link`` is the open link (None without one);
    ``session`` the remote session of its game (None before its game begins): it is made for the link's seat and
    forgotten with the link; the controller plays its engine session (``session.duet``)."""

    def __init__(self, app: BoxApp, broker: BrokerConfig) -> None:
        self.app = app
        self.broker = broker
        self.link: RemoteLink | None = None
        self.session: RemoteSession | None = None
        #: the host: the game it offers, dealt when the guest's box is there (pack, tokens, mission, sheet)
        self.offer: Offer | None = None
        self.local_guess: tuple[int, Guess] | None = None  # the host: seat A's guess, its colour on the way
        self.ended: str | None = None  # why the last remote game ended on the partner's word (shown once)
        self._sent_cursor: int | None = None
        app.game.router = self
        app.input.filters.append(self)
        app.navigator.extras.append(lambda menu: menu_items(app, menu, self))
        app.frame_filters.append(self.frame)

    # -- the link --------------------------------------------------------------------------------------------
    def open_link(self, role: Role, *, code: str | None = None, keys: Keys | None = None) -> RemoteLink:
        self.close_link()
        self.link = RemoteLink(role, self, self.broker, code=code, keys=keys, wake=self.wake_loop)
        return self.link

    def close_link(self, *, clean: bool = True) -> None:
        if self.link is not None:
            self.link.close(clean=clean)
            self.link = None
        self.session, self.offer, self.local_guess = None, None, None

    def wake_loop(self) -> None:
        """From paho's thread: wake the loop's wait at once (the interpreter only runs its timers for it)."""
        app = self.app
        try:
            app.box.queue.put(InputEvent(seat=None, button=WAKE, kind=WAKE, time=app.clock.now()))  # type: ignore[arg-type]
        except Exception:  # noqa: BLE001 - best effort: the loop polls by itself within a second anyway
            pass

    @property
    def remote(self) -> RemoteOptions | None:
        """The remote options of the game in play here, None for a local game (or none)."""
        game = self.app.game
        return None if game.session is None else game.options.remote

    @property
    def linked(self) -> bool:
        """The game in play is the remote game of the open link."""
        remote = self.remote
        return remote is not None and self.link is not None and remote.game == self.link.game

    @staticmethod
    def remote_options(role: Role, game: str | None) -> GameOptions:
        # each word once, upright for the local seat: the guest's display is turned half a turn for seat B
        # (``frame``), so both boxes show the same picture, each to its own player; seat B faces that display
        # (not across a table from it), so its joystick moves as seat A's does ("upright": ``move_card``)
        return GameOptions(orientation="upright", remote=RemoteOptions(role, game, SEAT_OF[role]))

    # -- starting a remote game ------------------------------------------------------------------------------
    def host_game(self, *, code: str | None = None, pack: str | None = None, tokens: int = 9,
                  mission: str | None = None, sheet: int | None = None) -> str:
        """Offer a Duet under a fresh code (this box plays seat A); returns the code. The card is dealt when the
        guest's box has paired, so that seat B's side goes straight to it (``remote_hello``)."""
        app = self.app
        code = code or new_code()
        self.open_link("host", code=code)
        self.offer = Offer(pack=pack or str(app.settings.get("pack", "fr")), tokens=tokens, mission=mission,
                           sheet=sheet)
        app.switch(HostWaitingScreen(app, self))
        return code

    def join_game(self, code: str) -> None:
        """Pair with the host of ``code`` (this box plays seat B); the game begins when its set-up arrives."""
        self.open_link("guest", code=code)
        self.app.switch(WaitingScreen(self.app, self))

    # -- the controller's router (device.game.MoveRouter) -----------------------------------------------------
    def routes(self) -> bool:
        return self.remote is not None

    def owns(self, row: GameRow) -> bool:
        return row.kind == KIND

    def resume(self, row: GameRow) -> bool:
        """The saved remote game with its pinned link (the keys kept when it was paired): never a new pairing,
        never a local game. A game whose link is lost cannot go on: it is abandoned (the log says so)."""
        app, game = self.app, self.app.game
        remote = row.options.remote
        keys = Keys.load(app.storage.get_meta(LINK_META))
        if remote is None or keys is None or keys.game != remote.game:
            log.error("the saved remote game %d has lost its link: abandoned", row.id)
            app.storage.abandon_game(row.id)
            return False
        ui = app.storage.load_ui(row.id)
        facts, left = RemoteSession.remembered((ui or {}).get("remote"))
        try:  # the session of the pinned link's seat
            session = RemoteSession(row.setup, seat=SEAT_OF[keys.role], facts=facts, left=left,
                                    language=row.options.language)
            session.replay(app.storage.actions(row.id))
        except (SetupError, ValueError, IllegalAction, KeyError) as exc:
            log.error("the saved remote game %d cannot be resumed (%s): abandoned", row.id, exc)
            app.storage.abandon_game(row.id)
            return False
        # the link (re)opened: subscribed afresh, the retained snapshot comes again, the partner sees this box
        # come back and sends what it missed while away from the game
        self.open_link(keys.role, keys=keys)
        self.session = session
        game.adopt(row, session.duet, ui)
        log.info("resumed remote game %d at move %d", row.id, session.version)
        return True

    def memory(self) -> JsonObject | None:
        session = self._remote_session()
        return session.memory() if session is not None else None

    def abandoned(self) -> None:
        """This box abandons the remote game: the partner's box is told (sealed), the broker cleaned."""
        if self.link is not None and self.linked:
            self.link.abandon()
        self.app.storage.set_meta(LINK_META, None)
        self.close_link()

    def act(self, move: Move, version: int, *, quiet: bool = False) -> list[Event]:
        """A move of the local seat in a remote game."""
        link, game, tr = self.link, self.app.game, self.app.tr
        session = self._remote_session()
        if link is None or session is None:
            raise PartnerAway(tr("remote.offline"))
        action = _duet(move)
        seat = _seat_of(action)
        if seat is not None and seat != link.seat:
            raise NotYourTurn(tr("remote.not_yours"))
        if not link.ready:
            raise PartnerAway(tr("remote.partner_offline"))
        if link.pending is not None or link.resolving is not None:
            raise PartnerAway(tr("remote.sending"))
        if link.role == "host":
            if isinstance(action, Guess) and session.needs(action, version) == "colour":  # read on B's side
                duet_apply(session.state, action, version=version)  # refuse here what the rules refuse
                self.local_guess = (version, action)
                link.resolve(version, action.card)
                return []
            try:
                events = game.commit(action, version, quiet=quiet)
            except Unresolved:
                raise PartnerAway(tr("remote.sending")) from None
            link.committed(version, action.to_dict())
            return events
        duet_apply(session.state, action, version=version)  # refuse here what the host would refuse
        link.propose(version, action.to_dict())
        return []

    # -- what the link asks of the box (device.remote.link.Table) ---------------------------------------------
    def remote_keep(self, keys: Keys | None) -> None:
        self.app.storage.set_meta(LINK_META, keys.dump() if keys is not None else None)

    def remote_version(self) -> int | None:
        session = self._remote_session()
        return int(session.version) if session is not None else None

    def remote_actions(self) -> list[JsonObject]:
        session = self._remote_session()
        return [] if session is None else [a.to_dict() for a in session.state.history]

    def remote_commit(self, version: int, action: JsonObject, *, seat: Seat | None = None) -> None:
        session = self._remote_session()
        if session is None:
            raise IllegalAction("no remote game in play")
        parsed = action_from_dict(action)
        played_by = _seat_of(parsed)
        if seat is not None and played_by not in (None, seat):  # the guest proposes seat B's moves only
            raise NotYourTurn(f"a move of seat {played_by} from seat {seat}'s box")
        self.app.game.commit(parsed, version)  # engine, then the commit, then the outputs
        self._after_partner_move(parsed)

    def remote_setup(self, game_id: str, setup: JsonObject) -> None:
        link = self.link
        if self.linked or link is None:
            return
        session = RemoteSession(setup, seat=link.seat, language=str(setup.get("language", "fr")))
        self.session = session
        self.app.game.begin(session.duet, kind=KIND, options=self.remote_options("guest", game_id))

    def remote_hello(self, public: str) -> Setup | None:
        """The host deals now: both sides are drawn together (the template couples them); seat A's is kept,
        seat B's is sealed to the guest's one-time key and the whole card dropped."""
        offer, link, app = self.offer, self.link, self.app
        if offer is None or link is None or self.linked:
            return None
        words, language = deal_words(app, str(offer["pack"]))
        # the key from the system's generator: no generator state is left behind that could replay B's side
        card = DuetSession.create(words, random.SystemRandom(), tokens=offer["tokens"], mission=offer["mission"],
                                  language=language, clues=str(app.settings.get("clues", "strict")))
        dealt = Setup({k: v for k, v in card.setup.items() if k != "key"}, public,
                      seal_to(public, {link.remote_seat: card.setup["key"][link.remote_seat]}))
        session = RemoteSession(one_side(card.setup, link.seat), seat=link.seat, language=language)
        del card
        sheet = offer["sheet"]
        options = replace(self.remote_options("host", link.game), sheet=sheet)
        self.offer = None
        self.session = session
        app.game.begin(session.duet, kind=KIND, options=options, sheet=sheet)
        return dealt

    def _remote_session(self) -> RemoteSession | None:
        """The remote session of the link, when its game is the one in play."""
        session = self.session
        return session if session is not None and self.linked and self.app.game.session is session.duet else None

    def remote_facts(self, version: int) -> MoveFacts:
        session = self._remote_session()
        if session is None or version >= len(session.state.history):
            return MoveFacts()
        history = session.state.history
        action = history[version]
        own = session.own_side
        # the colour of the partner's guess there, read on this side
        colour = as_colour(own[action.card]) if isinstance(action, Guess) and action.seat != session.seat else None
        # this side's greens left after that move: the greens found by then
        last = {a.card: i for i, a in enumerate(history) if isinstance(a, Guess)}  # a find is a card's last guess
        found = {c for c, i in last.items() if i <= version and c in session.state.found}
        return MoveFacts(colour, sum(1 for c in range(len(own)) if own[c] == "G" and c not in found))

    def remote_learn(self, version: int, *, colour: str | None = None, left: int | None = None) -> None:
        session = self._remote_session()
        if session is not None:
            session.learn(version=version, colour=colour, left=left)

    def remote_resolve(self, version: int, card: int) -> Colour | None:
        """The guest: the colour of ``card`` on this box's side, only when seat A may guess that hidden card at
        this very move (a legal guess of seat A now); anything else gets no answer."""
        session = self._remote_session()
        if session is None or session.version != version or session.over:
            return None
        if Guess("A", card) not in duet.legal_actions(session.state):
            return None
        return as_colour(session.own_side[card])

    def remote_resolved(self, version: int, card: int) -> None:
        pending, self.local_guess = self.local_guess, None
        if pending is None or pending[0] != version or pending[1].card != card or self.link is None:
            return
        self.app.game.commit(pending[1], version)
        self.link.committed(version, pending[1].to_dict())
        self._after_partner_move(pending[1])  # shown now, like a move that came from the other box

    def remote_own_left(self) -> int | None:
        session = self._remote_session()
        return None if session is None else greens_left(session.state, session.seat)

    def remote_over(self) -> str | None:
        session = self._remote_session()
        return session.own_side if session is not None and session.over else None

    def remote_reveal(self, side: str) -> bool:
        session = self._remote_session()
        if session is None or not session.over:
            return False
        if session.complete:
            return True
        try:
            session.reveal(side)
        except ValueError as exc:
            log.error("the partner's side does not fit this card: %s", exc)
            return False
        if self.app.game.id is not None:
            self.app.storage.set_setup(self.app.game.id, session.setup)
        return True

    def remote_ended(self, why: Ended) -> None:
        """The partner's box ended the game (it abandoned it) or the pairing failed: this box says so and its
        game ends too (the same state on both boxes)."""
        app, game = self.app, self.app.game
        if why == "abandoned" and self.linked and game.session is not None and not game.session.over:
            if game.id is not None:
                app.storage.abandon_game(game.id)
            game.close()
        app.storage.set_meta(LINK_META, None)
        self.ended = why
        self.close_link()
        app.switch(EndedScreen(app, why))

    def _after_partner_move(self, action: DuetAction) -> None:
        """A move made on the other box (or confirmed or resolved by it): the same screen changes as a local
        one."""
        app, screen = self.app, self.app.screen
        session = app.game.session
        if session is not None and session.over and screen is not None and screen.in_game:
            app.nav.game(None)
        link = self.link
        if link is not None and isinstance(action, Clue) and action.seat == link.remote_seat:
            clue = f"{action.word} {action.number}" if action.word else str(action.number)
            app.audio.announce(app.tr("remote.clue", clue=clue), link.seat)

    # -- the input filter (device.inputs.InputFilter) ----------------------------------------------------------
    def _cursors(self) -> Cursors | None:
        screen = self.app.screen
        return screen.cursors if isinstance(screen, DuetPlayScreen) else None

    def _in_game(self) -> bool:
        screen = self.app.screen
        return self.linked and self.app.game.session is not None and screen is not None and screen.in_game

    def intercept(self, event: InputEvent) -> InputEvent | None:
        app, link = self.app, self.link
        if event.kind == WAKE:  # only a wake-up: the timers run (the link is polled there)
            app.input.tick(event.time)
            return None
        if link is None or not self._in_game():
            return event
        session = app.game.session
        assert session is not None
        if event.seat == link.remote_seat:
            return None  # that seat is played on the other box
        if link.status != "ready" and not session.over:
            if event.button == "menu" and event.kind == "press":
                app.input.menu_down = None
                app.nav.menu()
            return None  # paused: only MENU (back to the menu, the game stays saved)
        return event

    def before_tick(self, now: float) -> None:
        link = self.link
        if link is not None and link.poll() and link.partner_cursor is not None:
            cursors = self._cursors()
            if cursors is not None:
                cursors[link.remote_seat] = link.partner_cursor

    def after_tick(self, now: float) -> None:
        link, screen = self.link, self.app.screen
        if link is None or not self.linked or screen is None:
            return
        if isinstance(screen, GameOverScreen) and link.remote_seat not in screen.confirmed:
            screen.confirmed.append(link.remote_seat)  # the partner confirms on its own box: only our OK counts
        cursors = self._cursors()
        if cursors is not None and link.ready:
            card = cursors.get(link.seat)
            if card is not None and card != self._sent_cursor:
                self._sent_cursor = card
                link.cursor(card)

    # -- the frame filter --------------------------------------------------------------------------------------
    def frame(self, frame: Frame) -> Frame:
        """``frame`` as shown on a box in a remote game: the partner's OLED without the key, the paused message,
        the guest's display turned for seat B."""
        app, link, screen = self.app, self.link, self.app.screen
        guest = self.linked and link is not None and link.role == "guest"
        # the game's screens, its end included (the card turned over): one player at this box, the other box's
        # seat drawn as the partner (tests/seats: the guest's game-over was upside down, the partner's key shown)
        shown = self.linked and screen is not None and (screen.in_game or isinstance(screen, GameOverScreen))
        # the guest's seat B sits at the display's top edge: the whole picture turned for it (docs/remote.md)
        app.outputs.shared_rotation = 180 if guest and shown else 0
        session = app.game.session
        if link is None or session is None or not shown:
            return frame
        if link.status != "ready" and not session.over:
            return self._paused(link)
        tr = app.tr
        partner = link.remote_seat
        at = link.partner_cursor
        partner_lines: tuple[str, ...] = (tr("remote.partner_at", card=at + 1),) if at is not None else ()
        if link.verifier is not None:  # the four digits the partner's box shows too: nobody sits between them
            partner_lines += (tr("remote.check_short", digits=link.verifier),)
        frame.oleds = dict(frame.oleds)
        frame.oleds[partner] = m.OledTextUi(tr("remote.partner"), partner_lines)
        frame.seat_views = {k: v for k, v in frame.seat_views.items() if k != partner}
        # (the guest's seat B map is drawn as A's, for its turned display: ``device.frames.one_way_map``)
        waiting = link.pending is not None or link.resolving is not None
        if waiting or link.refusal is not None:
            text = tr("remote.sending") if waiting else tr(_REFUSALS.get(link.refusal or "", "remote.refused"))
            local = frame.oleds.get(link.seat)
            if isinstance(local, m.OledTextUi):
                frame.oleds[link.seat] = m.OledTextUi(local.title, local.lines + (text,), local.invert)
            elif isinstance(local, m.SeatKeyUi):  # the key map (while guessing): its status line says it
                frame.oleds[link.seat] = replace(local, role=text)
        return frame

    def _paused(self, link: RemoteLink) -> Frame:
        tr = self.app.tr
        session = self.app.game.session
        if link.status == "offline":
            title = tr("remote.offline")
        elif not link.partner_seen and session is not None and session.version == 0:
            title = tr("remote.waiting_partner")
        else:
            title = tr("remote.partner_offline")
        # the code is not shown any more (it was good for one pairing, done): the verifier instead
        lines: tuple[str, ...] = (tr("remote.paused_line"), tr("remote.back"))
        if link.verifier is not None:
            lines = (tr("remote.check", digits=link.verifier),) + lines
        ui = m.MessageUi(title, lines, orientation="upright")  # one player per box; a guest's display is turned
        oled = m.OledTextUi(title, (tr("remote.back"),))
        return Frame(shared=ui, oleds={"A": oled, "B": oled})

    # -- tests -------------------------------------------------------------------------------------------------
    def kill(self) -> None:
        """Tests: die as a box whose power is cut (no goodbye on the broker, nothing saved beyond the commits)."""
        self.close_link(clean=False)
        self.app.storage.close()


#: What the local seat's OLED says of a move the host did not play (``link.refusal``: the reason's name).
_REFUSALS = {"OutOfStep": "remote.out_of_step"}
