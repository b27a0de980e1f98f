"""The remote screens on mock hardware: the menu entry, hosting (the code shown while the partner is awaited),
joining with the joystick, the remote seat's OLED, the paused message and MENU back to the menu."""

from __future__ import annotations

from pathlib import Path

from remotebox import OPEN, Broker, make_box, pump

from device.remote.pairing import ALPHABET
from device.remote.screens import CodeEntryScreen, RemoteMenuScreen, WaitingScreen
from device.render import models as m
from device.screens.play import START_CURSORS
from device.screens.shell import MenuScreen


def _press(app, name: str, times: int = 1) -> None:  # type: ignore[no-untyped-def]
    for _ in range(times):
        app.box.press(name)
        app.box.release(name)
        app.step(0)


def _choose(app, key: str) -> None:  # type: ignore[no-untyped-def]
    items = app.screen.items()
    index = [i.key for i in items].index(key)
    _press(app, "A.down", index - app.screen.selected)
    _press(app, "A.ok")


def test_host_and_join_from_the_menus_with_the_joystick(tmp_path: Path, broker: Broker) -> None:
    host = make_box(tmp_path / "host", broker, seed=1)
    guest = make_box(tmp_path / "guest", broker, seed=2)
    assert isinstance(host.screen, MenuScreen)
    assert "Remote Duet" in [item.label for item in host.screen.model().items]
    _choose(host, "remote.menu")
    assert isinstance(host.screen, RemoteMenuScreen)
    _choose(host, "remote.host")
    code = host.link.pairing.code
    pump([host], lambda: host.link.connected, "the host to reach the broker")
    host.step(0)
    shared = host.frame().shared
    assert isinstance(shared, m.MessageUi) and shared.title == "Waiting for your partner…"
    assert any(code in line for line in shared.lines)
    # the guest types the code with seat B's joystick
    _choose(guest, "remote.menu")
    _choose(guest, "remote.join")
    assert isinstance(guest.screen, CodeEntryScreen)
    for i, letter in enumerate(code):
        _press(guest, "B.down", ALPHABET.index(letter))
        if i < len(code) - 1:
            _press(guest, "B.right")
    assert guest.screen.code == code
    _press(guest, "B.ok")
    # the guest waits for the host's game, with the code on screen, unless the broker was quick enough to deliver
    # the game within that same step (a race on a busy machine: then it is already playing)
    if isinstance(guest.screen, WaitingScreen):
        assert code in guest.frame().shared.title
    else:
        assert guest.game.session is not None
    pump([host, guest], lambda: guest.game.session is not None and guest.link.ready and host.link.ready, "the pairing")
    frame = guest.frame()
    assert frame.oleds["A"].title == "Remote partner"  # the host's seat: no key drawn on this box
    assert "A" not in frame.seat_views and "B" in frame.seat_views
    assert host.frame().oleds["B"].title == "Remote partner" and "B" not in host.frame().seat_views
    # the partner goes away: both screens say so; MENU leads back to the menu, the game stays saved
    guest.kill()
    pump([host], lambda: host.link.status == "partner_offline", "the host to notice")
    host.step(0)
    assert host.frame().shared.title == "Partner offline, game paused"
    assert host.frame().oleds["A"].lines == ("MENU: back to the menu (the game stays saved)",)
    _press(host, "menu")
    assert isinstance(host.screen, MenuScreen)
    assert host.storage.current_game() is not None


class Speaker:
    def __init__(self) -> None:
        self.said: list[str] = []
        self.language = "en"
        self.output = "speaker"

    def say(self, text: str) -> bool:
        self.said.append(text)
        return True


def test_the_partners_cursor_and_clue_reach_the_other_box(tmp_path: Path, broker: Broker) -> None:
    from device.remote.app import RemoteApp
    from device.storage import Storage
    from engine.actions import Clue
    from hardware.factory import open_box

    host = make_box(tmp_path / "host", broker, seed=1)
    storage = Storage(tmp_path / "guest")
    storage.set_setting("language", "en")
    storage.set_setting("speech_B", True)
    speaker = Speaker()
    guest = RemoteApp(open_box("mock"), storage, broker=broker.config, seed=2, speech=speaker)
    guest.start()
    OPEN.append(guest)
    code = host.host_game(code="HKMPRT", pack="en")
    guest.join_game(code)
    pump([host, guest], lambda: guest.game.session is not None and guest.link.ready and host.link.ready, "the pairing")
    start = START_CURSORS["A"]  # seat A's near left corner
    _press(host, "A.right")  # seat A's cursor one card right
    pump([host, guest], lambda: guest.screen.cursors.get("A") == start + 1, "the host's cursor on the guest's display")
    assert guest.frame().oleds["A"].lines == (f"Cursor on card {start + 2}",)
    host.game.act(Clue("A", None, 2), 0)
    pump([host, guest], lambda: guest.game.session.version == 1, "the clue")
    assert speaker.said == ["Your partner's clue: 2"]  # a clue without a typed word: its number
    assert guest.game.session.state.clues[-1].seat == "A"  # in the history the shared display draws


def test_the_guests_shared_display_is_the_hosts_turned_half_a_turn(tmp_path: Path, broker: Broker) -> None:
    """Seat B sits at the top edge of the guest's box: its display shows the host's picture turned 180°, so
    both players see the same grid the right way up; B's key map is drawn like A's (card 0 at its top-left)."""
    import pygame

    from device.render.oled import CELL, cell_origin

    host = make_box(tmp_path / "host", broker, seed=1)
    guest = make_box(tmp_path / "guest", broker, seed=2)
    host.host_game(code="HKMPRT", pack="en")
    guest.join_game("HKMPRT")
    pump([host, guest], lambda: guest.game.session is not None and guest.link.ready and host.link.ready, "the pairing")
    pump([host, guest], lambda: guest.screen.cursors.get("A") == host.screen.cursors.get("A")
         and host.screen.cursors.get("B") == guest.screen.cursors.get("B"), "the cursors to agree")
    for app in (host, guest):
        app.draw(force=True)
    assert host.outputs.shared_rotation == 0 and guest.outputs.shared_rotation == 180
    assert host.frame().shared == guest.frame().shared  # the same picture is drawn on both boxes...
    shown_host = pygame.image.tobytes(host.box.display.surface, "RGB")
    turned_guest = pygame.image.tobytes(pygame.transform.flip(guest.box.display.surface, True, True), "RGB")
    assert shown_host == turned_guest  # ...and the guest's display shows it turned half a turn
    assert shown_host != pygame.image.tobytes(guest.box.display.surface, "RGB")  # (a picture that is not symmetric)
    # B's OLED map: card i where seat A's map has it (a green of B's side filled, a bystander an empty outline)
    side = guest.game.session.state.key.side("B")
    card = next(i for i in range(25) if side[i] == "G" and side[24 - i] == "N")
    image = guest.box.oleds["B"].image
    inside = lambda i: image.getpixel((cell_origin(i, "A")[0] + CELL // 2, cell_origin(i, "A")[1] + CELL // 2))  # noqa: E731
    assert inside(card) == 1 and inside(24 - card) == 0
    # back at the menu the guest's display is no longer turned
    _press(guest, "menu")
    pump([guest], lambda: guest.outputs.shared_rotation == 0, "the menu")


def test_a_new_remote_game_over_a_saved_game_asks_first_with_keep_preselected(tmp_path: Path, broker: Broker) -> None:
    from device.render.help import ConfirmUi
    from device.screens import flows
    from device.screens.help import ConfirmScreen

    box = make_box(tmp_path / "host", broker, seed=1)
    flows.start_duet(box, "duet", pack="en")
    saved = box.game.id
    box.game.leave()
    box.nav.menu()
    _choose(box, "remote.menu")
    for row in ("remote.host", "remote.mission", "remote.join"):
        _choose(box, row)
        assert isinstance(box.screen, ConfirmScreen), row
        shared = box.frame().shared
        assert isinstance(shared, ConfirmUi) and shared.choices[shared.selected] == box.tr("confirm.replace_no")
        _press(box, "A.ok")  # the preselected answer keeps the saved game
        assert isinstance(box.screen, RemoteMenuScreen)
        current = box.storage.current_game()
        assert current is not None and current.id == saved
    assert box.link is None  # nothing was offered on the broker
