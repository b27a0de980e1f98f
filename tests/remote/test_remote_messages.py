"""The link's messages, typed (device/remote/messages.py): every kind parses what its sender writes back to the
same value, anything else is refused by one ``Malformed`` (never another exception), and a sealed message of the
partner that is not what its name says is dropped alone, counted, without a traceback."""

from __future__ import annotations

import logging

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_remote_link import _paired, _sent

from device.remote import messages as msg
from device.remote.pairing import seal
from device.remote.secret import RemoteSession
from engine.session import WHOLE_CARD, DuetSession

KINDS = (msg.Envelope, msg.Hello, msg.Propose, msg.Resolved, msg.Facts, msg.Setup, msg.MoveFacts, msg.Move,
         msg.Snapshot, msg.Refuse, msg.Resolve, msg.Beat, msg.Cursor, msg.Reveal)
SIDE = "GGGGGGGGGNNNNNNNNNNNNNXXX"
SAMPLES = [msg.Hello("ab" * 32), msg.Propose(3, {"type": "stop", "seat": "B"}, None),
           msg.Propose(0, {"type": "guess", "seat": "B", "card": 4}, 9), msg.Resolved(2, 7, "G"), msg.Facts(5, 0),
           msg.Setup({"format": "duetbox-record/1", "words": ["a"]}, "cd" * 32, "ef"),
           msg.Move(1, {"type": "clue", "seat": "A", "word": "x", "number": 2}, msg.MoveFacts("N", 8)),
           msg.Move(0, {"type": "stop", "seat": "A"}),
           msg.Snapshot(({"type": "stop", "seat": "A"},), (msg.MoveFacts(None, 9),)), msg.Refuse(4, "OutOfStep"),
           msg.Resolve(6, 24), msg.Beat("0a1b", None), msg.Beat("0a1b", "2c3d"), msg.Cursor(0), msg.Reveal(SIDE)]

json_values = st.recursive(st.none() | st.booleans() | st.integers(-5, 70_000) | st.floats(allow_nan=False)
                           | st.text(max_size=70),
                           lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                                     max_size=4), max_leaves=12)
# the keys the messages use, so that the near misses (a right key, a wrong value) are drawn often
fields = st.sampled_from(["v", "a", "left", "card", "id", "pub", "setup", "to", "side", "actions", "facts",
                          "why", "nonce", "echo", "e", "n"])
randoms = st.dictionaries(fields | st.text(max_size=4), json_values, max_size=6)


@st.composite
def near_misses(draw: st.DrawFn) -> dict[str, object]:
    """A sample's own message with one field taken away or given another value (the closest misses)."""
    body: dict[str, object] = dict(draw(st.sampled_from(SAMPLES)).to_dict())  # type: ignore[attr-defined]
    key = draw(st.sampled_from(sorted(body) + ["e", "n"]))
    if draw(st.booleans()):
        body.pop(key, None)
    else:
        body[key] = draw(json_values)
    return body


bodies = randoms | near_misses()


@pytest.mark.parametrize("message", SAMPLES, ids=lambda m: type(m).__name__)
def test_each_kind_reads_back_what_its_sender_writes(message: object) -> None:
    kind = type(message)
    assert kind.from_dict(message.to_dict()) == message  # type: ignore[attr-defined]


@settings(max_examples=300, deadline=None)
@given(body=bodies)
def test_anything_else_is_one_refusal_never_another_exception(body: dict[str, object]) -> None:
    for kind in KINDS:
        try:
            parsed = kind.from_dict(body)  # type: ignore[attr-defined, arg-type]
        except msg.Malformed as exc:
            assert str(exc) and "\n" not in str(exc)
        else:
            assert isinstance(parsed, kind)


def test_a_sealed_message_that_is_not_what_its_name_says_is_dropped_alone(caplog: pytest.LogCaptureFixture) -> None:
    host, guest, host_table, table, _, broker = _paired()
    assert host.keys is not None
    topic = f"{host.keys.topic}/host/move"
    bad = [seal(host.keys.host_key, topic, {"v": 0, "a": 5, "e": host.keys.epoch, "n": 900 + i}) for i in range(2)]
    bad.append(seal(host.keys.host_key, topic, {"v": "0", "a": {"type": "stop", "seat": "A"}, "e": host.keys.epoch,
                                                "n": 950}))
    host_table.actions.append({"type": "stop", "seat": "A"})
    host.committed(0, {"type": "stop", "seat": "A"})
    good = _sent(broker, "move")[-1]
    guest.transport.inbox = [("message", topic, p, False, 0, 0) for p in bad]  # type: ignore[attr-defined]
    guest.transport.inbox.append(("message", good[0], good[1], False, 0, 0))  # type: ignore[attr-defined]
    before = guest.dropped
    caplog.set_level(logging.WARNING)
    guest.poll()
    assert table.actions == [{"type": "stop", "seat": "A"}]  # the good move behind them is played
    assert guest.dropped - before == 3
    assert not [r for r in caplog.records if r.exc_info]  # refused, not a traceback


def test_a_remote_session_holds_a_plain_duet_session_and_is_its_key_holder() -> None:
    """Composition, not a subclass: the controller and the screens get the engine's DuetSession; the remote
    session is only the holder of its key card."""
    assert not issubclass(RemoteSession, DuetSession)
    import random

    whole = DuetSession.create(tuple(f"w{i}" for i in range(25)), random.Random(1), language="en")
    assert whole.holder is WHOLE_CARD and whole.complete
    mine = RemoteSession(dict(whole.setup, key={"B": whole.setup["key"]["B"]}), seat="B", language="en")
    assert type(mine.duet) is DuetSession and mine.duet.holder is mine and not mine.duet.complete
    assert mine.duet.state.key.b == whole.state.key.b and mine.duet.revealed_keys() is None
