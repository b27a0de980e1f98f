"""``RemoteInputs``: the input interpreter of a box in a remote game (docs/remote.md).

Before the ordinary interpreter (``device.inputs``) sees an event: the loop's wake-up from the network thread
only runs the timers; the remote seat's buttons do nothing here (that seat is played on the other box); while
the partner's box or the broker is away only MENU works on the game's screens, and it leads back to the menu
(the game stays saved).
Its timers first take what the link received (moves are committed there), show the partner's cursor on the
grid, and after the ordinary timers send the local seat's cursor when it moved."""

from __future__ import annotations

from device.inputs import InputInterpreter, LoopHost
from device.remote.game import RemoteGame
from device.screens.parts import Cursors
from hardware.base import InputEvent

#: The ``kind`` of the wake-up event the network thread puts in the box's queue.
WAKE = "remote"


class RemoteInputs(InputInterpreter):
    def __init__(self, host: LoopHost, game: RemoteGame) -> None:
        super().__init__(host)
        self.remote = game
        self._sent_cursor: int | None = None

    def _cursors(self) -> Cursors | None:
        cursors = getattr(self.host.screen, "cursors", None)
        return cursors if isinstance(cursors, Cursors) else None

    def handle(self, event: InputEvent) -> None:
        if event.kind == WAKE:  # only a wake-up
            self.tick(event.time)
            return
        game, link, screen = self.remote, self.remote.link, self.host.screen
        if link is not None and game.linked and game.session is not None and screen is not None \
                and screen.in_game:
            if event.seat == link.remote_seat:
                return  # that seat is played on the other box
            if link.status != "ready" and not game.session.over:
                if event.button == "menu" and event.kind == "press":
                    self.menu_down = None
                    self.host.nav.menu()
                return  # paused: only MENU (back to the menu, the game stays saved)
        super().handle(event)

    def tick(self, now: float) -> None:
        game, link = self.remote, self.remote.link
        if link is not None and link.poll() and link.partner_cursor is not None:
            cursors = self._cursors()
            if cursors is not None:
                cursors[link.remote_seat] = link.partner_cursor
        super().tick(now)
        link = self.remote.link
        screen = self.host.screen
        confirmed = getattr(screen, "confirmed", None)
        if link is not None and game.linked and screen is not None and screen.name == "gameover" \
                and isinstance(confirmed, list) and link.remote_seat not in confirmed:
            confirmed.append(link.remote_seat)  # the partner confirms on its own box: here only our OK counts
        cursors = self._cursors()
        if link is not None and game.linked and cursors is not None and link.ready:
            card = cursors.get(link.seat)
            if card is not None and card != self._sent_cursor:
                self._sent_cursor = card
                link.cursor(card)
