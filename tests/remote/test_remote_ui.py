"""The remote screens on mock hardware: the menu entry, hosting (the code shown while the partner is awaited),
joining with the joystick, the remote seat's OLED, the paused message and MENU back to the menu."""

from __future__ import annotations

from pathlib import Path

from remotebox import OPEN, Broker, make_box, paired, pump

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
    code = host.remote.link.code
    pump([host], lambda: host.remote.link.connected, "the host to reach the broker")
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
    pump([host, guest], lambda: paired(host, guest), "the pairing")
    frame = guest.frame()
    assert frame.oleds["A"].title == "Remote partner"  # the host's seat: no key drawn on this box
    assert "A" not in frame.seat_views and "B" in frame.seat_views
    assert host.frame().oleds["B"].title == "Remote partner" and "B" not in host.frame().seat_views
    # the partner goes away: both screens say so; MENU leads back to the menu, the game stays saved
    guest.remote.kill()
    pump([host], lambda: host.remote.link.status == "partner_offline", "the host to notice")
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
    from device.remote.app import remote_app
    from device.storage import Storage
    from engine.actions import Clue
    from hardware.factory import open_box

    host = make_box(tmp_path / "host", broker, seed=1)
    storage = Storage(tmp_path / "guest")
    storage.set_setting("language", "en")
    storage.set_setting("speech_B", True)
    speaker = Speaker()
    guest = remote_app(open_box("mock"), storage, broker=broker.config, seed=2, speech=speaker)
    guest.start()
    OPEN.append(guest)
    code = host.remote.host_game(code="HKMPRT", pack="en")
    guest.remote.join_game(code)
    pump([host, guest], lambda: paired(host, guest), "the pairing")
    start = START_CURSORS["A"]  # seat A's near left corner
    _press(host, "A.right")  # seat A's cursor one card right
    pump([host, guest], lambda: guest.screen.cursors.get("A") == start + 1, "the host's cursor on the guest's display")
    verifier = guest.remote.link.verifier
    assert guest.frame().oleds["A"].lines == (f"Cursor on card {start + 2}", f"Check: {verifier}")
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
    host.remote.host_game(code="HKMPRT", pack="en")
    guest.remote.join_game("HKMPRT")
    pump([host, guest], lambda: paired(host, guest), "the pairing")
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
    assert box.remote.link is None  # nothing was offered on the broker


def test_the_guest_plays_seat_b_as_its_player_sees_the_turned_display(tmp_path: Path, broker: Broker) -> None:
    """On the guest's box seat B faces its display (turned half a turn for it): left moves the cursor to the card
    on its left, down to the card below, as seat A's joystick does; a move on its way says "Sending…" on the key
    map's status line, and a refused one says so there too; the code is not on screen once paired (the verifier
    is, the same on both boxes)."""
    from engine.actions import Clue, Guess

    host = make_box(tmp_path / "host", broker, seed=1)
    guest = make_box(tmp_path / "guest", broker, seed=2)
    host.remote.host_game(code="HKMPRT", pack="en")
    guest.remote.join_game("HKMPRT")
    pump([host, guest], lambda: paired(host, guest), "the pairing")
    start = guest.screen.cursors["B"]
    _press(guest, "B.left")
    assert guest.screen.cursors["B"] == start - 1
    _press(guest, "B.down")
    assert guest.screen.cursors["B"] == start + 4
    host.game.act(Clue("A", None, 2), 0)
    pump([host, guest], lambda: guest.game.session.version == 1, "the clue")
    green = host.game.session.setup["key"]["A"].index("G")  # an agent: seat B goes on guessing (the key map stays)
    guest.game.act(Guess("B", green), 1)
    oled = guest.frame().oleds["B"]
    assert isinstance(oled, m.SeatKeyUi) and oled.role == "Sending…"
    pump([host, guest], lambda: guest.game.session.version == 2, "the guess")
    guest.remote.link._refuse("NotYourTurn")
    assert guest.frame().oleds["B"].role == "The other box refused that move"
    guest.remote.link._refuse("OutOfStep")
    assert guest.frame().oleds["B"].role == "Out of step: catching up"
    # the partner's box away: the paused screen says so, with the verifier and without the code
    guest.remote.kill()
    pump([host], lambda: host.remote.link.status == "partner_offline", "the host to notice")
    lines = host.frame().shared.lines
    assert not any("HKMPRT" in line for line in lines) and any(host.remote.link.verifier in line for line in lines)


def test_the_code_entry_types_erases_with_stop_and_joins_with_enter(tmp_path: Path, broker: Broker) -> None:
    host = make_box(tmp_path / "host", broker, seed=1)
    guest = make_box(tmp_path / "guest", broker, seed=2)
    code = host.remote.host_game(pack="en")
    _choose(guest, "remote.menu")
    _choose(guest, "remote.join")
    assert guest.box.text_mode  # the emulator's letter keys type here
    guest.box.type_text(None, "ZZ")
    guest.step(0)
    _press(guest, "B.stop")  # STOP erases: the blank under the cursor is nothing, so the Z before it goes
    _press(guest, "B.stop")
    assert guest.screen.typed == 0 and guest.frame().shared.lines[0].startswith("[A] _  _")
    guest.box.type_text(None, code.lower() + "\n")
    guest.step(0)
    assert isinstance(guest.screen, WaitingScreen) or guest.game.session is not None
    assert not guest.box.text_mode
    pump([host, guest], lambda: paired(host, guest), "the pairing")


def test_a_wrong_code_and_an_unreachable_broker_say_so_with_a_way_back(tmp_path: Path, broker: Broker,
                                                                      monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from device.remote import link as link_module
    from device.remote.screens import EndedScreen, HostWaitingScreen
    from device.remote.transport import BrokerConfig

    host = make_box(tmp_path / "host", broker, seed=1)
    guest = make_box(tmp_path / "guest", broker, seed=2)
    host.remote.host_game(code="HKMPRT", pack="en")
    pump([host], lambda: host.remote.link.connected, "the host on the broker")
    guest.remote.join_game("HKMPRS")  # one letter wrong: the exchange fails on both boxes at once
    pump([host, guest], lambda: isinstance(host.screen, EndedScreen) and isinstance(guest.screen, EndedScreen),
         "both boxes to say it")
    assert host.frame().shared.title == guest.frame().shared.title == "Wrong code"
    _press(guest, "B.ok")
    assert isinstance(guest.screen, MenuScreen)
    # no broker at the address: the waiting screen says so after a while, MENU goes back
    monkeypatch.setattr(link_module, "BROKER_TIMEOUT", 0.3)
    host.remote.broker = BrokerConfig(host="127.0.0.1", port=1, keepalive=2)
    host.remote.host_game(pack="en")
    assert isinstance(host.screen, HostWaitingScreen)
    pump([host], lambda: host.frame().shared.title.startswith("Cannot reach the broker"), "the broker message")
    _press(host, "menu")
    assert isinstance(host.screen, MenuScreen) and host.remote.link is None
