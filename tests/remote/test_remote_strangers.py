"""Two boxes that trust only each other, against a real Mosquitto with third clients on it: one that does not
know the code, and one that learns it after the pairing. Neither reads a key colour, forges or replays a move,
takes a seat, stalls the game with retained or replayed messages, or knocks a box over with big, nested or
flooded payloads; and the pairing gives no offline test of a code."""

from __future__ import annotations

import json
import logging
import os
import queue
import threading
import time
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from remotebox import Broker, exported, make_box, paired, pump
from test_remote_games import CODE, pair, play, same_records, win_plan

from device.app import App
from device.remote.pairing import SEALED_SIZES, Pake, Session, rendezvous
from device.remote.screens import EndedScreen
from engine.actions import Clue, Guess


class Client:
    """A third MQTT client: subscribed to everything, it keeps what it sees and publishes what it is told."""

    def __init__(self, broker: Broker, name: str) -> None:
        self.seen: queue.Queue[tuple[str, bytes, bool]] = queue.Queue()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=name)
        self.client.on_connect = lambda c, *_: c.subscribe("#", qos=1)
        self.client.on_message = lambda _c, _u, m: self.seen.put((m.topic, bytes(m.payload), bool(m.retain)))
        self.client.connect("127.0.0.1", broker.port)
        self.client.loop_start()
        time.sleep(0.2)
        self.captured: list[tuple[str, bytes, bool]] = []

    def take(self) -> list[tuple[str, bytes, bool]]:
        while not self.seen.empty():
            self.captured.append(self.seen.get())
        return self.captured

    def send(self, topic: str, payload: bytes, *, retain: bool = False, qos: int = 1) -> None:
        self.client.publish(topic, payload, qos=qos, retain=retain).wait_for_publish(5)

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()


@pytest.fixture
def stranger(broker: Broker) -> Any:
    client = Client(broker, "stranger")
    yield client
    client.close()


def settle(apps: list[App], seconds: float = 0.3) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for app in apps:
            app.box.advance(0.01)
            app.step(0)
        time.sleep(0.005)


def retained_under(broker: Broker, prefix: str) -> list[str]:
    """The retained topics a fresh client gets under ``prefix`` (what a broker keeps of the game)."""
    fresh = Client(broker, "fresh")
    try:
        time.sleep(0.3)
        return [t for t, p, r in fresh.take() if r and p and t.startswith(prefix)]
    finally:
        fresh.close()


def test_neither_a_stranger_nor_a_late_code_holder_reads_a_colour_or_forges_or_replays_a_move(
        tmp_path: Path, broker: Broker, stranger: Client) -> None:
    host, guest = pair(tmp_path, broker)
    link = host.remote.link
    assert link is not None and link.keys is not None
    late = Client(broker, "late")  # learns the code now, after the pairing
    try:
        plan = win_plan(host, guest)
        for action in plan[:4]:  # A clues; B finds greens of A's side (each read on the host's box)
            play(host, guest, action)
        play(host, guest, Guess("B", next(c for c in range(25) if c not in host.game.session.state.found
                                          and host.game.session.setup["key"]["A"][c] == "N")))  # B's turn ends
        play(host, guest, Clue("B", None, 3))
        play(host, guest, Guess("A", next(c for c in range(25) if guest.game.session.setup["key"]["B"][c] == "G"
                                          and c not in host.game.session.state.found)))  # read on the guest's box
        captured = stranger.take()
        sides = [host.game.session.setup["key"]["A"], guest.game.session.setup["key"]["B"]]
        words = [w for w in host.game.session.setup["words"] if len(w) >= 5]
        for topic, payload, _ in captured:
            text = payload.decode("latin-1")
            assert not any(s in text for s in sides + words) and '"guess"' not in text
            if topic.startswith(link.keys.topic):
                assert len(payload) in SEALED_SIZES or not payload  # every game message one of a few sizes
        # the code holder, too late: nothing retained on the rendezvous, its own exchange gets no answer, and no
        # key it can compute from the code opens anything
        pake = Pake(CODE, "guest")
        place = rendezvous(CODE)
        assert not [t for t, p, r in late.take() if t.startswith(place) and r and p]
        late.send(f"{place}/guest", json.dumps({"pake": pake.message.hex(), "confirm": "00" * 32}).encode())
        settle([host, guest])
        assert not [t for t, p, _ in late.take() if t == f"{place}/done"]
        mine = Session.derive(Pake(CODE, "host").finish(pake.message))
        assert mine.topic != link.keys.topic and mine.host_key not in (link.keys.host_key, link.keys.guest_key)
        # forgeries and replays on every game topic: every captured message again, random bytes of a sealed
        # size, a resolve sealed with a key the code gives, a move in clear
        before = (exported(host), exported(guest))
        answers = {p for t, p, _ in stranger.take() if t.endswith("/resolved")}
        resolve_topic = f"{link.keys.topic}/host/resolve"
        forged = [(resolve_topic, _sealed(key, resolve_topic, {"v": host.game.session.version, "card": c}))
                  for c in range(25) for key in (mine.host_key, mine.guest_key)]
        replays = [(t, p) for t, p, _ in captured if t.startswith(link.keys.topic) and p]
        junk = [(f"{link.keys.topic}/{who}/{name}", os.urandom(min(SEALED_SIZES)))
                for who in ("host", "guest") for name in ("move", "propose", "resolve", "snapshot", "beat")]
        clear = [(f"{link.keys.topic}/host/move", json.dumps({"v": 7, "a": {"type": "stop", "seat": "B"}}).encode())]
        for topic, payload in forged + replays + junk + clear:
            stranger.send(topic, payload, qos=0)
        settle([host, guest], 1.0)
        assert (exported(host), exported(guest)) == before
        assert {p for t, p, _ in stranger.take() if t.endswith("/resolved")} == answers  # no colour given
        assert host.remote.link.ready and guest.remote.link.ready
        # and the game goes on, the same on both boxes
        play(host, guest, Guess("A", next(c for c in range(25) if guest.game.session.setup["key"]["B"][c] == "G"
                                          and c not in host.game.session.state.found)))
        same_records(host, guest)
    finally:
        late.close()


def _sealed(key: bytes, topic: str, body: dict[str, Any]) -> bytes:
    from device.remote.pairing import seal

    return seal(key, topic, dict(body, e=10**6, n=1))


def test_a_stranger_who_answers_the_rendezvous_first_takes_no_seat_and_both_boxes_say_so(
        tmp_path: Path, broker: Broker, stranger: Client) -> None:
    """One online guess: the stranger's SPAKE2 message with a wrong code spends the host's code, the host says
    "wrong code" at once (nobody got in), the real guest is told too; a new code, and the game is theirs."""
    host = make_box(tmp_path / "host", broker, seed=1)
    guest = make_box(tmp_path / "guest", broker, seed=2)
    host.remote.host_game(code=CODE, pack="en")
    pump([host], lambda: host.remote.link.connected, "the host on the broker")
    settle([host])
    guess = Pake("HKAAAA", "guest")  # the nameplate is public: a guess of the other four letters
    stranger.send(f"{rendezvous(CODE)}/guest", json.dumps({"pake": guess.message.hex(), "confirm": "00" * 32}).encode())
    pump([host], lambda: isinstance(host.screen, EndedScreen), "the host to say a wrong code was tried")
    assert host.screen.why == "wrong_code" and host.remote.link is None and host.game.session is None
    assert host.frame().shared.title == "Wrong code"
    assert not retained_under(broker, "duetbox/pair/")  # the spent exchange is gone from the broker
    # the real guest with the old code: no game under it
    guest.remote.join_game(CODE)
    settle([guest], 0.5)
    assert guest.remote.link is not None and not guest.remote.link.paired
    guest.remote.close_link()
    # a new code: the pair plays
    code = host.remote.host_game(pack="en")
    guest.remote.join_game(code)
    pump([host, guest], lambda: paired(host, guest), "the new pairing")
    assert host.remote.link.verifier == guest.remote.link.verifier  # the four digits both screens show
    play(host, guest, Clue("A", None, 2))


def test_retained_garbage_and_replayed_heartbeats_stall_nothing_and_big_or_flooded_payloads_crash_nothing(
        tmp_path: Path, broker: Broker, stranger: Client, caplog: pytest.LogCaptureFixture) -> None:
    host, guest = pair(tmp_path, broker)
    topic = host.remote.link.keys.topic
    plan = win_plan(host, guest)
    play(host, guest, plan[0])
    caplog.set_level(logging.WARNING, logger="duetbox.remote")

    def attack() -> None:
        # retained garbage on every topic: random bytes of a sealed size, nested JSON; and three of 2 MiB
        nested = b"[" * 40_000 + b"]" * 40_000
        for who in ("host", "guest"):
            for name in ("beat", "gone", "setup", "snapshot", "move", "propose", "resolve", "reveal", "abandon"):
                for payload in (os.urandom(min(SEALED_SIZES)), nested):
                    stranger.send(f"{topic}/{who}/{name}", payload, retain=True)
        for name in ("host/snapshot", "guest/propose", "host/beat"):
            stranger.send(f"{topic}/{name}", b"\x00" * (2 << 20), retain=True)
        stranger.send(f"{rendezvous(CODE)}/host", nested, retain=True)
        for _ in range(3000):  # and a flood of small garbage
            stranger.client.publish(f"{topic}/guest/propose", os.urandom(min(SEALED_SIZES)), qos=0)

    thread = threading.Thread(target=attack)
    thread.start()
    while thread.is_alive():  # the boxes run meanwhile, as they would
        settle([host, guest], 0.05)
    thread.join()
    settle([host, guest], 0.5)
    assert host.remote.link.downs == guest.remote.link.downs == 0  # never knocked off the broker (keepalive)
    assert host.remote.link.ready and guest.remote.link.ready  # no box knocked off (keepalive) or paused
    assert host.remote.link.overflowed == guest.remote.link.overflowed == 0  # nothing
    # over 64 KiB reached them: the broker kept it back (MQTT 5 maximum packet size)
    assert len([r for r in caplog.records if "dropped" in r.getMessage()]) <= 4  # one line per box per 10 s
    for action in plan[1:4]:
        play(host, guest, action)  # the game goes on at once
    # the guest goes away; its heartbeats, replayed by the stranger, do not bring it back
    beats = [(t, p) for t, p, _ in stranger.take() if t == f"{topic}/guest/beat"]
    guest.remote.kill()
    pump([host], lambda: host.remote.link.status == "partner_offline", "the host to see the guest gone")
    for _ in range(2):
        for t, p in beats[-20:]:
            stranger.send(t, p, qos=0)
        settle([host], 0.4)
        assert host.remote.link.status == "partner_offline"
    # the guest comes back from its data: the same pinned session, through the garbage still retained
    guest = make_box(tmp_path / "guest", broker, seed=3)
    pump([host, guest], lambda: paired(host, guest), "the guest back")
    for action in plan[4:]:
        play(host, guest, action)
    same_records(host, guest)


@pytest.mark.parametrize("who", ["host", "guest"])
def test_an_abandon_on_either_box_ends_the_game_on_both_and_clears_the_broker(
        tmp_path: Path, broker: Broker, who: str) -> None:
    host, guest = pair(tmp_path, broker)
    topic = host.remote.link.keys.topic
    play(host, guest, Clue("A", None, 2))
    leaver, other = (host, guest) if who == "host" else (guest, host)
    leaver.game.abandon()
    leaver.nav.menu()
    pump([host, guest], lambda: isinstance(other.screen, EndedScreen), "the partner to be told")
    assert other.screen.why == "abandoned" and other.frame().shared.title == "Your partner ended the game"
    for box in (host, guest):
        assert box.storage.games()[-1].status == "abandoned" and box.storage.current_game() is None
        assert box.storage.get_meta("remote.link") is None  # the session is forgotten on both boxes
    settle([host, guest], 0.3)
    assert retained_under(broker, topic) == []
    _press(other, "A.ok")
    assert other.screen.name == "menu"


def _press(app: App, name: str) -> None:
    app.box.press(name)
    app.box.release(name)
    app.step(0)


def test_the_end_of_a_game_clears_the_broker_and_a_saved_game_resumes_its_own_session(
        tmp_path: Path, broker: Broker, capsys: pytest.CaptureFixture[str]) -> None:
    """The guest's box restarts and is started again as `duetbox run --remote join --code …`: it resumes its saved
    game with its pinned session (no new pairing, the code not used); MENU → Resume takes the game up with its
    link; at the end both records are the same and nothing of the game is left on the broker."""
    from device.commands.run import _start_remote
    from device.screens import flows

    host, guest = pair(tmp_path, broker)
    topic = host.remote.link.keys.topic
    plan = win_plan(host, guest)
    for action in plan[:3]:
        play(host, guest, action)
    guest.remote.kill()
    guest = make_box(tmp_path / "guest", broker, seed=4)
    _start_remote(guest, "join", CODE)
    assert "resuming the saved remote game" in capsys.readouterr().out
    assert guest.remote.link is not None and guest.remote.link.keys.topic == topic  # the same session
    pump([host, guest], lambda: paired(host, guest), "the guest back")
    play(host, guest, plan[3])
    guest.game.leave()  # MENU → menu; the game stays saved (its link stays open)
    guest.nav.menu()
    flows.resume(guest)
    assert guest.remote.linked and guest.game.session is not None
    pump([host, guest], lambda: paired(host, guest), "the link taken up again")
    for action in plan[4:]:
        play(host, guest, action)
    same_records(host, guest)
    pump([host, guest], lambda: host.remote.link.delivered and guest.remote.link.delivered, "both reveals")
    settle([host, guest], 0.3)
    assert retained_under(broker, topic) == []
    assert host.storage.get_meta("remote.link") is None and guest.storage.get_meta("remote.link") is None


def test_a_box_without_a_broker_never_resumes_a_remote_game_as_a_local_one(tmp_path: Path, broker: Broker) -> None:
    from device.storage import Storage
    from hardware.factory import open_box

    host, guest = pair(tmp_path, broker)
    play(host, guest, Clue("A", None, 2))
    guest.remote.kill()
    storage = Storage(tmp_path / "guest")
    local = App(open_box("mock"), storage, seed=1)  # no remote play composed in
    local.start()
    try:
        assert local.game.session is None and local.screen.name == "menu"  # not resumed, not as a local game
        assert storage.current_game() is not None  # still saved, for the box with its link
    finally:
        local.shutdown()


def test_the_guests_box_tells_a_colour_only_for_a_guess_seat_a_may_make_now(tmp_path: Path, broker: Broker) -> None:
    """What the guest's box answers its partner's box (even a changed one, asking what it likes): the colour of a
    hidden card seat A may guess at this very move, nothing else."""
    host, guest = pair(tmp_path, broker)
    play(host, guest, Clue("A", None, 2))  # seat B guesses now: seat A may guess nothing
    play_ = guest.remote
    assert [play_.remote_resolve(1, c) for c in range(25)] == [None] * 25
    a_side = host.game.session.setup["key"]["A"]
    play(host, guest, Guess("B", a_side.index("N")))  # a bystander: B's turn ends
    play(host, guest, Clue("B", None, 2))  # seat A guesses now
    v = guest.game.session.version
    side = guest.game.session.setup["key"]["B"]
    assert [play_.remote_resolve(v, c) for c in range(25)] == [side[c] for c in range(25)]
    assert play_.remote_resolve(v - 1, 0) is None and play_.remote_resolve(v + 1, 0) is None  # another move
