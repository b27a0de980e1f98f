"""What a stranger on the broker sees: a third client subscribed to ``#`` for a whole game finds neither key side
nor a word, and nothing it publishes (clear text, random bytes, a tampered or replayed message) changes a box."""

from __future__ import annotations

import json
import queue
import time
from pathlib import Path

import paho.mqtt.client as mqtt
from remotebox import Broker, exported, pump
from test_remote_games import pair, play, win_plan

from device.remote.pairing import Pairing


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
        # the key sides (25 letters each) and every word long enough not to turn up by chance in random bytes
        secrets = [setup["key"]["A"], setup["key"]["B"], *(w for w in setup["words"] if len(w) >= 5)]
        for topic, payload in captured:
            text = payload.decode("latin-1")
            for secret in secrets:
                assert secret not in text and secret not in topic
            assert '"type"' not in text and "guess" not in text  # no move in clear either
        # forgeries: a move in clear, random bytes, a tampered copy of a real proposal, a replayed proposal
        base = Pairing.derive("HKMPRT").topic
        proposals = [p for t, p in captured if t.endswith("/propose")]
        assert proposals
        tampered = bytearray(proposals[-1])
        tampered[-1] ^= 1
        card = [c for c in range(25) if c not in host.game.session.state.found][0]
        forged = json.dumps({"k": "propose", "v": host.game.session.version,
                             "a": {"type": "guess", "seat": "B", "card": card}}).encode()
        before = (exported(host), exported(guest), host.link.dropped)
        for topic, payload in ((f"{base}/propose", forged), (f"{base}/move", forged),
                               (f"{base}/propose", bytes(tampered)), (f"{base}/snapshot", b"\x00" * 64),
                               (f"{base}/propose", proposals[-1]), (f"{base}/move", forged)):
            spy.publish(topic, payload, qos=1).wait_for_publish(5)
        pump([host, guest], lambda: host.link.dropped >= before[2] + 4, "the forgeries to be dropped")
        for _ in range(30):
            host.step(0)
            guest.step(0)
            time.sleep(0.005)
        assert exported(host) == before[0] and exported(guest) == before[1]
        # the game goes on afterwards, identically
        for action in plan[5:]:
            play(host, guest, action)
        assert exported(host) == exported(guest)
    finally:
        spy.loop_stop()
        spy.disconnect()
