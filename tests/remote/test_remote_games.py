"""Whole Duets between two box apps on mock hardware over a real Mosquitto: each box plays one seat.

The host box plays seat A, the guest seat B. A move is made on the box of the seat that makes it, through the
same ``App.act`` the play screen calls; both boxes' exported records must be identical at the end, and equal to
what the rules say (replayed by the engine)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from remotebox import Broker, exported, make_box, paired, pump

from device.app import App
from device.remote.app import PartnerAway
from engine.actions import Clue, Guess, Penalty, Stop
from engine.errors import NotYourTurn
from engine.record import replay

CODE = "HKMPRT"


def pair(tmp_path: Path, broker: Broker, **host_options: Any) -> tuple[App, App]:
    host = make_box(tmp_path / "host", broker, seed=1)
    guest = make_box(tmp_path / "guest", broker, seed=2)
    host.remote.host_game(code=CODE, pack="en", **host_options)
    guest.remote.join_game(CODE)
    pump([host, guest], lambda: paired(host, guest), "the guest to join")
    return host, guest


def key(boxes: tuple[App, App], side: str, kind: str) -> list[int]:
    """The cards of ``kind`` on ``side``, read on the box that holds that side (A: the host, B: the guest)."""
    app = boxes[0] if side == "A" else boxes[1]
    return [i for i, c in enumerate(app.game.session.setup["key"][side]) if c == kind]


def play(host: App, guest: App, action: Any) -> None:
    """Make ``action`` on the box of its seat (a penalty on the guest's) and wait until both boxes show it."""
    boxes = [host, guest]
    box = host if getattr(action, "seat", "B") == "A" else guest
    target = box.game.session.version + 1
    box.game.act(action, box.game.session.version)
    pump(boxes, lambda: all(b.game.session.version >= target for b in boxes), f"{action} on both boxes")


def same_records(host: App, guest: App) -> dict[str, Any]:
    """Both boxes' exported records: identical once the game is over and each has the other's side (the card
    turned over); while it goes on, identical but for the key, of which each box has its own side only."""
    if host.game.session.over:
        pump([host, guest], lambda: host.game.session.complete and guest.game.session.complete, "the card turned")
        a, b = exported(host), exported(guest)
    else:
        a, b = exported(host), exported(guest)
        assert (list(a.pop("key")), list(b.pop("key"))) == (["A"], ["B"])
    assert a == b
    assert [x.to_dict() for x in host.game.session.state.history] == a["actions"]
    return a


def win_plan(host: App, guest: App) -> list[Any]:
    """A clues; B finds every green of A's side and stops; B clues; A finds the rest: a win in two turns."""
    a_greens, b_greens = key((host, guest), "A", "G"), key((host, guest), "B", "G")
    plan: list[Any] = [Clue("A", None, 9)] + [Guess("B", c) for c in a_greens] + [Stop("B"), Clue("B", None, 9)]
    plan += [Guess("A", c) for c in b_greens if c not in a_greens]
    return plan


def test_a_standard_game_to_a_win_is_the_same_game_on_both_boxes(tmp_path: Path, broker: Broker) -> None:
    host, guest = pair(tmp_path, broker)
    # the same words and rules on both boxes, and each box its own side of the key only
    assert dict(guest.game.session.setup, key=None) == dict(host.game.session.setup, key=None)
    assert list(host.game.session.setup["key"]) == ["A"] and list(guest.game.session.setup["key"]) == ["B"]
    for action in win_plan(host, guest):
        play(host, guest, action)
    record = same_records(host, guest)
    result = replay(record)
    assert result.ok and result.state.phase == "won"
    # 9 tokens: the stop took one and the winning turn one: 7 left, 3 x 7 + 2 taken = 23 (rules §1 Score)
    assert host.game.session.outcome().score == guest.game.session.outcome().score == 23
    assert host.storage.game(host.game.id).status == guest.storage.game(guest.game.id).status == "over"
    # the game-over screen: the local seat's OK turns the card over (the partner confirms on its own box)
    for box, seat in ((host, "A"), (guest, "B")):
        box.box.press(f"{seat}.ok")
        box.box.release(f"{seat}.ok")
        box.step(0)
        assert box.frame().shared.keys == record["key"] == {"A": record["key"]["A"], "B": record["key"]["B"]}


def test_both_boxes_send_small_messages_at_once(tmp_path: Path, broker: Broker) -> None:
    """TCP_NODELAY on the boxes' broker connections: without it a message sent right after an acknowledgement
    waited for the broker's delayed ACK (40 ms on Linux; `duetbox bench --remote` measured 44 ms a hop)."""
    import socket

    host, guest = pair(tmp_path, broker)
    for box in (host, guest):
        sock = box.remote.link.transport.client.socket()
        assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) == 1


def test_a_loss_on_the_assassin(tmp_path: Path, broker: Broker) -> None:
    host, guest = pair(tmp_path, broker)
    play(host, guest, Clue("B", None, 2))  # the guest clues first this time
    play(host, guest, Guess("A", key((host, guest), "B", "X")[0]))
    record = same_records(host, guest)
    assert record["actions"][-1] == {"type": "guess", "seat": "A", "card": key((host, guest), "B", "X")[0]}
    assert host.game.session.state.reason == guest.game.session.state.reason == "assassin"


def test_sudden_death_then_a_miss(tmp_path: Path, broker: Broker) -> None:
    host, guest = pair(tmp_path, broker, tokens=2)
    play(host, guest, Clue("A", None, 1))
    play(host, guest, Guess("B", key((host, guest), "A", "N")[0]))  # a bystander: a token, the turn ends
    play(host, guest, Clue("B", None, 1))
    miss = [c for c in key((host, guest), "B", "N") if c != key((host, guest), "A", "N")[0]][0]
    play(host, guest, Guess("A", miss))  # the bank is empty: sudden death
    assert host.game.session.state.phase == guest.game.session.state.phase == "sudden_death"
    green = [c for c in key((host, guest), "A", "G") if c not in host.game.session.state.found][0]
    play(host, guest, Guess("B", green))  # B finds a green of A's side
    bystander = [c for c in key((host, guest), "A", "N") if c not in host.game.session.state.marks_b][0]
    play(host, guest, Guess("B", bystander))
    same_records(host, guest)
    assert guest.game.session.state.reason == "sudden_death_miss"


def _press(app: App, name: str, times: int = 1) -> None:
    for _ in range(times):
        app.box.press(name)
        app.box.release(name)
        app.step(0)


def _choose(app: App, key: str) -> None:
    index = [i.key for i in app.screen.items()].index(key)
    _press(app, "A.down", index - app.screen.selected)
    _press(app, "A.ok")


def test_a_mission_of_the_map_hosted_from_the_menus_and_played_to_its_tick(tmp_path: Path, broker: Broker) -> None:
    """Menu → Remote Duet → Host a mission of the map → a new team sheet → the map → OK on the first city: the
    host deals that mission (its bank from the map), the guest joins it, the win ticks the city on the host's
    sheet (the campaign is the host's; the guest keeps the game, not a sheet)."""
    from device.screens.missions import MapScreen, NameScreen, SheetScreen
    from engine.missions import default_map

    host = make_box(tmp_path / "host", broker, seed=1)
    guest = make_box(tmp_path / "guest", broker, seed=2)
    _choose(host, "remote.menu")
    _choose(host, "remote.mission")
    assert isinstance(host.screen, SheetScreen)
    _choose(host, "missions.new_sheet")
    assert isinstance(host.screen, NameScreen)
    host.box.type_text("A", "ANNA BEN\n")
    host.step(0)
    assert isinstance(host.screen, MapScreen)
    city = default_map().city(host.screen.selected)
    sheet = host.screen.sheet
    assert host.storage.sheet_name(sheet) == "ANNA BEN"
    _press(host, "A.ok")  # offered: the card is dealt when the guest's box is there
    assert host.remote.link is not None and host.remote.offer["mission"] == city.name and host.game.session is None
    assert any(host.remote.link.code in line for line in host.frame().shared.lines)
    guest.remote.join_game(host.remote.link.code)
    pump([host, guest], lambda: paired(host, guest), "the join")
    state = guest.game.session.state
    assert state.mission == host.game.session.state.mission == city.name
    # the map's bank: the city's turns, of which its mistakes face innocent-side up (rules §1 mission map)
    assert (state.bank, state.bank_innocent) == (city.turns, city.mistakes)
    for action in win_plan(host, guest):
        play(host, guest, action)
    record = same_records(host, guest)
    assert record["mission"] == city.name and replay(record).state.phase == "won"
    assert city.name in host.storage.ticked(sheet)  # the tick is on the host's sheet
    assert guest.storage.sheets() == []


def test_a_box_may_not_play_the_other_seat_nor_play_while_the_partner_is_away(
        tmp_path: Path, broker: Broker) -> None:
    host, guest = pair(tmp_path, broker)
    with pytest.raises(NotYourTurn):
        host.game.act(Clue("B", None, 1), 0)
    guest.remote.kill()
    pump([host], lambda: host.remote.link.status == "partner_offline", "the host to see the guest gone")
    with pytest.raises(PartnerAway):
        host.game.act(Clue("A", None, 1), 0)
    assert host.storage.actions(host.game.id) == []


def test_broker_stopped_and_restarted_mid_game(tmp_path: Path, broker: Broker) -> None:
    host, guest = pair(tmp_path, broker)
    plan = win_plan(host, guest)
    for action in plan[:4]:
        play(host, guest, action)
    broker.stop()
    pump([host, guest], lambda: host.remote.link.status == guest.remote.link.status == "offline",
         "both boxes to see it")
    assert "paused" in host.frame().shared.title and "paused" in guest.frame().shared.title
    broker.start()  # no persistence: every retained message is gone; the boxes put theirs back
    pump([host, guest], lambda: host.remote.link.ready and guest.remote.link.ready, "the link to come back")
    for action in plan[4:]:
        play(host, guest, action)
    assert replay(same_records(host, guest)).state.phase == "won"


@pytest.mark.parametrize("who", ["guest", "host"])
def test_a_box_killed_mid_turn_comes_back_from_its_data(tmp_path: Path, broker: Broker, who: str) -> None:
    host, guest = pair(tmp_path, broker)
    plan = win_plan(host, guest)
    for action in plan[:3]:  # A clued, B is guessing
        play(host, guest, action)
    victim = guest if who == "guest" else host
    done = victim.game.session.version
    victim.remote.kill()
    survivor = host if who == "guest" else guest
    pump([survivor], lambda: survivor.remote.link.status == "partner_offline", "the partner's will")
    assert "offline" in survivor.frame().shared.title
    again = make_box(tmp_path / who, broker, seed=9)  # a new App from the box's data directory
    assert again.game.session is not None and again.game.session.version == done  # nothing committed was lost
    host, guest = (host, again) if who == "guest" else (again, guest)
    pump([host, guest], lambda: host.remote.link.ready and guest.remote.link.ready, "the boxes to meet again")
    for action in plan[3:]:
        play(host, guest, action)
    assert replay(same_records(host, guest)).state.phase == "won"


def test_link_dropped_while_the_guest_gives_a_clue(tmp_path: Path, broker: Broker) -> None:
    host, guest = pair(tmp_path, broker)
    guest.game.act(Clue("B", None, 3), 0)  # proposed: shown only when the host's move comes back
    assert guest.remote.link.pending is not None and guest.game.session.version == 0
    guest.remote.link.transport.drop()  # the network fails at once
    pump([host, guest], lambda: host.game.session.version == guest.game.session.version == 1, "the clue on both boxes")
    assert guest.remote.link.pending is None
    pump([host, guest], lambda: host.remote.link.ready and guest.remote.link.ready, "the guest back on both boxes")
    play(host, guest, Guess("A", key((host, guest), "B", "G")[0]))
    play(host, guest, Penalty())  # either box may call the penalty for an invalid clue
    assert same_records(host, guest)["actions"][-1] == {"type": "penalty"}
