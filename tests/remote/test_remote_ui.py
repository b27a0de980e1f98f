"""The remote screens on mock hardware: the menu entry, hosting (the code shown while the partner is awaited),
joining with the joystick, the remote seat's OLED, the paused message and MENU back to the menu."""

from __future__ import annotations

from pathlib import Path

from remotebox import OPEN, Broker, make_box, pump

from device.remote.pairing import ALPHABET
from device.remote.screens import CodeEntryScreen, RemoteMenuScreen, WaitingScreen
from device.render import models as m
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
    from hardware.box import open_box

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
    _press(host, "A.right")  # seat A's cursor: 12 -> 13
    pump([host, guest], lambda: guest.screen.cursors.get("A") == 13, "the host's cursor on the guest's display")
    assert guest.frame().oleds["A"].lines == ("Cursor on card 14",)
    host.game.act(Clue("A", None, 2), 0)
    pump([host, guest], lambda: guest.game.session.version == 1, "the clue")
    assert speaker.said == ["Your partner's clue: 2"]  # a clue without a typed word: its number
    assert guest.game.session.state.clues[-1].seat == "A"  # in the history the shared display draws
