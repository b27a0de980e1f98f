"""A remote Duet played from both chairs, at 1280x720 and 800x480: the host's box (seat A, at its display's bottom
edge) and the guest's box (seat B, at its display's top edge: its whole display turned half a turn for it),
linked through an in-process broker (tests/seats/remoteseats.py). Hosted and joined from the menus (the code typed
with seat B's joystick and keyboard), a clue and guesses of each seat made with the buttons, the guest cut off
the broker and back, the guest's box restarted from its data, the host gone to the menu while paused and the
game resumed from there, then played to its end and the card turned over on both boxes.

At every frame of each box the harness checks, as that box's one player sees it: the other box's side of the key
in no model of the frame and no key view, key map or clue entry for the other seat; every text upright for the
player from its chair (the guest's display turned for seat B); its joystick moving its cursor to its own right,
left, up and down; its OLED key map (and the small key while it spells) laid out as it sees the table; every
"hold X" hint naming the button pressed."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from remoteseats import Remote, linked_on
from seatseye import Table


@pytest.fixture
def remote(tmp_path: Path, size: tuple[int, int]) -> Iterator[Remote]:
    r = Remote(tmp_path, size)
    with linked_on(r.wire, r.clock):
        try:
            yield r
        finally:
            r.close()


def _ready(r: Remote) -> bool:
    links = [r.link(t) for t in r.boxes]
    return all(link is not None and link.ready for link in links) and all(
        t.app.game.session is not None for t in r.boxes)


def _joystick_round(t: Table, seat: str) -> None:
    for button in ("up", "up", "left", "left", "down", "down", "right", "right"):
        t.press(f"{seat}.{button}")


def _pair(r: Remote) -> None:
    host, guest = r.host, r.guest
    host.choose(host.tr("remote.menu"))
    host.choose(host.tr("remote.host"))
    code = r.link(host).code
    assert code and any(code in line for line in host.frame().shared.lines)
    guest.choose(guest.tr("remote.menu"), "B")
    guest.choose(guest.tr("remote.join"), "B")
    from device.remote.pairing import ALPHABET

    for _ in range(ALPHABET.index(code[0])):  # the first letter with seat B's joystick, the rest typed
        guest.press("B.down")
    guest.press("B.right")
    guest.type("B", code[1:].lower() + "\n")
    r.until("the pairing", lambda: _ready(r))


def _clue(t: Table, seat: str, *, up: int = 1) -> None:
    """``seat`` picks a number (``up`` above the default) and gives it with no word, with its buttons."""
    t.press(f"{seat}.ok")
    for _ in range(up):
        t.press(f"{seat}.up")
    t.press(f"{seat}.ok")
    t.type(seat, "\n")


def _guess(r: Remote, t: Table, seat: str, card: int) -> None:
    """``seat`` moves its cursor onto ``card`` (the joystick checked on the way) and holds OK."""
    _joystick_round(t, seat)
    t.hold(f"{seat}.ok", 0.2)  # too short: nothing happens, the hint names OK
    t.screen.cursors[seat] = card
    t.hold(f"{seat}.ok", 0.8)
    r.wait(1.0)


def _hidden(r: Remote, side: str, kinds: str) -> list[int]:
    key, cards = r.side(side), r.host.app.game.session.public_view().cards
    assert key is not None
    return [i for i, c in enumerate(key) if c in kinds and not cards[i].agent and not (c != "G" and cards[i].marks)]


def _version(r: Remote) -> int:
    versions = {t.app.game.session.version for t in r.boxes}
    assert len(versions) == 1, versions
    return versions.pop()


def _to_the_end(r: Remote) -> None:
    """Each clue giver clues 9 with its buttons, its partner finds every green of the giver's side left (or, with
    none left, ends the turn on a bystander of it), until the game is over (the card is dealt by the system's
    generator: which seat's greens run out first differs from run to run)."""
    for _ in range(12):
        view = r.host.app.game.session.public_view()
        if view.phase not in ("clue", "guess"):
            return
        if view.phase == "clue":
            giver = next((s for s in view.clue_givers if _hidden(r, s, "G")), view.clue_givers[0])
            _clue(r.guest if giver == "B" else r.host, giver, up=8)
        view = r.host.app.game.session.public_view()
        giver = view.clue_giver or "A"
        guesser, at = ("A", r.host) if giver == "B" else ("B", r.guest)
        for card in _hidden(r, giver, "G") or _hidden(r, giver, "N")[:1]:
            if r.host.app.game.session.public_view().phase == "guess":
                at.screen.cursors[guesser] = card
                at.hold(f"{guesser}.ok", 0.8)
                r.wait(0.5)
        if r.host.app.game.session.public_view().phase == "guess" and view.can_stop:
            at.hold(f"{guesser}.stop", 0.8)
            r.wait(0.5)


def test_seats_remote(remote: Remote) -> None:
    r = remote
    _pair(r)
    host, guest = r.host, r.guest
    # seat A clues on the host's box; seat B finds a green of A's side on the guest's box, then stops
    _clue(host, "A")
    assert _version(r) == 1
    guest.hold("B.stop", 0.2)  # too short (and no guess yet): the hint names STOP
    _guess(r, guest, "B", _hidden(r, "A", "G")[0])
    assert _version(r) == 2
    guest.hold("B.stop", 0.2)
    guest.hold("B.stop", 0.8)
    r.wait(1.0)
    # seat B spells a clue on the guest's box (its key in sight); seat A touches a bystander of B's side
    _clue(guest, "B")
    assert _version(r) == 4
    _guess(r, host, "A", next(i for i in _hidden(r, "B", "N") if i in _hidden(r, "A", "GNX")))
    assert _version(r) == 5
    # the guest's box cut off the broker: both boxes paused, nothing played; then back
    r.wire.cut(r.transport(guest))
    r.wait(1.0)
    assert host.frame().shared.title == host.tr("remote.partner_offline")
    host.press("A.ok")
    guest.press("B.ok")
    r.wire.restore(r.transport(guest))
    r.until("the guest back", lambda: _ready(r))
    # the guest's box restarted from its data (power cut): the same game, its own side only
    guest = r.restart("guest")
    r.until("the restarted guest", lambda: _ready(r))
    assert _version(r) == 5
    # the host's box off the broker: paused, MENU goes back to the menu (as its OLED says), resumed from there
    r.wire.cut(r.transport(host))
    r.wait(1.0)
    assert any("MENU" in line for line in host.frame().oleds["A"].lines)
    host.press("menu")
    assert type(host.screen).__name__ == "MenuScreen"
    resume = host.frame().shared.items[0]  # names the saved game's mode (checked after the seats' checks)
    r.wire.restore(r.transport(host))
    host.choose(host.tr("menu.resume"))
    r.until("the host back from the menu", lambda: _ready(r))
    # to the end, with the buttons: each clue giver clues 9, its partner finds every green of the giver's side
    _to_the_end(r)
    # the card turned over on both boxes: each player's OK
    assert all(t.app.game.session.over for t in r.boxes)
    host.press("A.ok")
    guest.press("B.ok")
    r.wait(2.0)
    both = {"A": r.side("A"), "B": r.side("B")}
    for t in r.boxes:
        assert t.frame().shared.keys == both, type(t.frame().shared).__name__
    r.ok()
    assert resume.label == host.tr("menu.resume") and resume.value == host.tr("remote.menu"), resume
