"""What a stranger on the broker sees: a third client subscribed to ``#`` for a whole game finds neither key side
nor a word, and nothing it publishes (clear text, random bytes, a tampered or replayed message) changes a box;
each box holds only its own side, in memory and in its files."""

from __future__ import annotations

import gc
import json
import queue
import time
import types
from dataclasses import replace
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from remotebox import Broker, exported, make_box, pump
from test_remote_games import pair, play, same_records, win_plan

from device.app import App
from engine.actions import Clue, Guess, Stop


def test_a_third_client_on_everything_sees_no_key_and_cannot_make_a_move(tmp_path: Path, broker: Broker) -> None:
    seen: queue.Queue[tuple[str, bytes]] = queue.Queue()
    spy = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="spy")
    spy.on_connect = lambda c, *_: c.subscribe("#", qos=1)
    spy.on_message = lambda _c, _u, msg: seen.put((msg.topic, bytes(msg.payload)))
    spy.connect("127.0.0.1", broker.port)
    spy.loop_start()
    try:
        time.sleep(0.3)
        host, guest = pair(tmp_path, broker)
        plan = win_plan(host, guest)
        for action in plan[:5]:
            play(host, guest, action)
        time.sleep(0.2)
        captured: list[tuple[str, bytes]] = []
        while not seen.empty():
            captured.append(seen.get())
        assert len(captured) > 10
        setup = host.game.session.setup
        # the key sides (25 letters each, each read on its own box) and every word long enough not to turn up by
        # chance in random bytes
        sides = [host.game.session.setup["key"]["A"], guest.game.session.setup["key"]["B"]]
        secrets = [*sides, *(w for w in setup["words"] if len(w) >= 5)]
        for topic, payload in captured:
            text = payload.decode("latin-1")
            for secret in secrets:
                assert secret not in text and secret not in topic
            assert '"type"' not in text and "guess" not in text  # no move in clear either
        # forgeries: a move in clear, random bytes, a tampered copy of a real proposal, a replayed proposal
        base = host.remote.link.keys.topic + "/guest"
        proposals = [p for t, p in captured if t.endswith("/propose")]
        assert proposals
        tampered = bytearray(proposals[-1])
        tampered[-1] ^= 1
        card = [c for c in range(25) if c not in host.game.session.state.found][0]
        forged = json.dumps({"k": "propose", "v": host.game.session.version,
                             "a": {"type": "guess", "seat": "B", "card": card}}).encode()
        before = (exported(host), exported(guest), host.remote.link.dropped)
        for topic, payload in ((f"{base}/propose", forged), (f"{base}/move", forged),
                               (f"{base}/propose", bytes(tampered)), (f"{base}/snapshot", b"\x00" * 284),
                               (f"{base}/propose", proposals[-1]), (f"{base}/move", forged)):
            spy.publish(topic, payload, qos=1).wait_for_publish(5)
        pump([host, guest], lambda: host.remote.link.dropped >= before[2] + 4, "the forgeries to be dropped")
        for _ in range(30):
            host.step(0)
            guest.step(0)
            time.sleep(0.005)
        assert exported(host) == before[0] and exported(guest) == before[1]
        # the game goes on afterwards, identically
        for action in plan[5:]:
            play(host, guest, action)
        assert same_records(host, guest)["key"] == {"A": sides[0], "B": sides[1]}
    finally:
        spy.loop_stop()
        spy.disconnect()


def _holds(root: Any, secret: str, limit: int = 3_000_000) -> list[str]:
    """Every string or bytes reachable from ``root`` (attributes, containers, closures; not module globals,
    which would reach the other box of the same test process) that contains ``secret``."""
    needle, found, seen, todo = secret.encode(), [], set(), [root]
    while todo and len(seen) < limit:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, (types.ModuleType, type)):
            continue
        seen.add(id(obj))
        if isinstance(obj, str):
            if secret in obj:
                found.append(obj)
            continue
        if isinstance(obj, (bytes, bytearray, memoryview)):
            if needle in bytes(obj):
                found.append(repr(bytes(obj)[:40]))
            continue
        if isinstance(obj, types.FunctionType):
            todo.extend(c.cell_contents for c in obj.__closure__ or () if c.cell_contents is not None)
            todo.extend(obj.__defaults__ or ())
            continue
        if isinstance(obj, types.FrameType):
            continue
        todo.extend(gc.get_referents(obj))
    return found


def _stored(app: App, secret: str) -> list[str]:
    """The files of the box's data directory (database, write-ahead log) that contain ``secret``."""
    return [p.name for p in app.storage.directory.iterdir() if p.is_file() and secret.encode() in p.read_bytes()]


def test_each_box_holds_its_own_side_only_in_memory_and_in_its_database(tmp_path: Path, broker: Broker) -> None:
    """The guest's box never has seat A's side, the host's box never seat B's: not in the set-up it stores, not
    in its files, not anywhere in the box app's memory, while the game goes on. Guesses of both seats are
    played (each read on the other box) and the guest's box is restarted from its data; the sides are only
    exchanged when the game is over, and then both records are the same."""
    host, guest = pair(tmp_path, broker)
    a_side, b_side = host.game.session.setup["key"]["A"], guest.game.session.setup["key"]["B"]
    a_greens = [i for i, c in enumerate(a_side) if c == "G"]
    b_greens = [i for i, c in enumerate(b_side) if c == "G"]
    play(host, guest, Clue("A", None, 2))
    play(host, guest, Guess("B", a_greens[0]))  # read on A's side, on the host's box
    play(host, guest, Stop("B"))
    play(host, guest, Clue("B", None, 2))
    first = next(c for c in b_greens if c not in host.game.session.state.found)
    play(host, guest, Guess("A", first))  # read on B's side, on the guest's box
    guest.remote.kill()
    guest = make_box(tmp_path / "guest", broker, seed=5)  # resumed from its data alone
    pump([host, guest], lambda: host.remote.link.ready and guest.remote.link.ready, "the guest back")
    play(host, guest, Guess("A", next(c for c in b_greens if c not in host.game.session.state.found)))
    # the same game on both boxes but for the partner's side, which each box has only as a stand-in
    assert replace(guest.game.session.state, key=host.game.session.state.key) == host.game.session.state
    for box, own, other in ((host, "A", b_side), (guest, "B", a_side)):
        row = box.storage.game(box.game.id)
        assert list(row.setup["key"]) == [own]
        assert _stored(box, other) == [], f"{own}'s box stores the other side"
        assert _holds(box, other) == [], f"{own}'s box holds the other side in memory"
        assert box.game.session.state.key.side("B" if own == "A" else "A") != other  # only a stand-in
        assert _holds(box, box.game.session.setup["key"][own])  # (the search finds what is there)
    # to the end: the card is turned over on both boxes, the records are the same
    state = lambda: host.game.session.state  # noqa: E731
    play(host, guest, Stop("A"))
    play(host, guest, Clue("A", None, 9))
    for c in a_greens:
        if not state().over and c not in state().found:
            play(host, guest, Guess("B", c))
    if not state().over:
        play(host, guest, Stop("B"))
        play(host, guest, Clue("B", None, 9))
        for c in b_greens:
            if not state().over and c not in state().found:
                play(host, guest, Guess("A", c))
    assert host.game.session.state.phase == "won"
    record = same_records(host, guest)
    assert record["key"] == {"A": a_side, "B": b_side}
