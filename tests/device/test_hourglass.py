"""The hourglass with a fake clock: drain, warning, expiry, pause, reset, ring frames, enforced mode."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from device.services.hourglass import (
    AMBER,
    OFF,
    RED,
    SAND,
    EnforcedAction,
    Hourglass,
    check_length,
    enforced_action,
)


class FakeClock:
    def __init__(self, t: float = 1000.0) -> None:
        self.t = t

    def now(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


def lit(frame: list[tuple[int, int, int]]) -> int:
    return sum(1 for px in frame if px != OFF)


# -- length -------------------------------------------------------------------------------------------------


def test_hourglass_default_length_is_one_minute() -> None:
    assert Hourglass().length == 60.0


@pytest.mark.parametrize("length", [30, 45.5, 180])
def test_hourglass_accepts_lengths_from_30_to_180(length: float) -> None:
    assert Hourglass(length).length == float(length)


@pytest.mark.parametrize("length", [29.9, 0, -5, 181, float("nan"), float("inf"), "abc", None])
def test_hourglass_refuses_lengths_outside_range(length: object) -> None:
    with pytest.raises(ValueError):
        Hourglass(length)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        check_length(length)  # type: ignore[arg-type]


def test_hourglass_length_setter_validates() -> None:
    h = Hourglass()
    h.length = 90
    assert h.length == 90.0
    with pytest.raises(ValueError):
        h.length = 10


def test_hourglass_without_clock_needs_now() -> None:
    with pytest.raises(ValueError):
        Hourglass().remaining()


# -- draining, warning, expiry ------------------------------------------------------------------------------


def test_hourglass_idle_until_started() -> None:
    clock = FakeClock()
    h = Hourglass(60, clock)
    assert h.state() == "idle"
    clock.advance(500)
    assert h.remaining() == 60.0
    assert h.fraction_left() == 1.0
    assert h.poll() == []
    assert h.next_deadline() is None


def test_hourglass_drains_with_the_clock() -> None:
    clock = FakeClock()
    h = Hourglass(60, clock)
    h.start()
    assert h.state() == "running"
    clock.advance(15)
    assert h.remaining() == pytest.approx(45.0)
    assert h.fraction_left() == pytest.approx(0.75)
    assert h.seconds_shown() == 45
    clock.advance(0.4)
    assert h.seconds_shown() == 45  # rounded up: 44.6 s left shows 45
    assert h.remaining() == pytest.approx(44.6)


def test_hourglass_warns_at_ten_seconds_left() -> None:
    clock = FakeClock()
    h = Hourglass(30, clock)
    h.start()
    clock.advance(19.99)
    assert h.state() == "running"
    assert h.poll() == []
    clock.advance(0.01)
    assert h.state() == "warning"
    assert h.poll() == ["warning"]
    clock.advance(1)
    assert h.poll() == []  # once only


def test_hourglass_expires_on_time() -> None:
    clock = FakeClock()
    h = Hourglass(60, clock)
    h.start()
    clock.advance(50)
    assert h.poll() == ["warning"]
    clock.advance(9.99)
    assert h.state() == "warning"
    assert h.poll() == []
    clock.advance(0.01)
    assert h.state() == "expired"
    assert h.remaining() == 0.0
    assert h.seconds_shown() == 0
    assert h.poll() == ["expired"]
    clock.advance(100)
    assert h.poll() == []
    assert h.remaining() == 0.0


def test_hourglass_late_poll_reports_only_expiry() -> None:
    clock = FakeClock()
    h = Hourglass(60, clock)
    h.start()
    clock.advance(75)
    assert h.poll() == ["expired"]
    assert h.poll() == []


def test_hourglass_pause_freezes_and_resume_continues() -> None:
    clock = FakeClock()
    h = Hourglass(60, clock)
    h.start()
    clock.advance(20)
    assert h.pause()
    assert h.state() == "paused"
    clock.advance(300)
    assert h.remaining() == pytest.approx(40.0)
    assert h.poll() == []
    assert h.next_deadline() is None
    assert h.resume()
    assert h.state() == "running"
    clock.advance(30)
    assert h.poll() == ["warning"]
    clock.advance(10)
    assert h.poll() == ["expired"]


def test_hourglass_pause_in_warning_does_not_warn_twice() -> None:
    clock = FakeClock()
    h = Hourglass(30, clock)
    h.start()
    clock.advance(25)
    assert h.poll() == ["warning"]
    h.pause()
    clock.advance(5)
    h.resume()
    assert h.state() == "warning"
    assert h.poll() == []
    clock.advance(5)
    assert h.poll() == ["expired"]


def test_hourglass_pause_and_resume_refuse_wrong_states() -> None:
    clock = FakeClock()
    h = Hourglass(30, clock)
    assert not h.pause()
    assert not h.resume()
    h.start()
    assert not h.resume()  # already running
    clock.advance(40)
    assert not h.pause()  # expired
    assert h.state() == "expired"


def test_hourglass_reset_returns_to_idle_and_rearms_cues() -> None:
    clock = FakeClock()
    h = Hourglass(30, clock)
    h.start()
    clock.advance(31)
    assert h.poll() == ["expired"]
    h.reset()
    assert h.state() == "idle"
    assert h.remaining() == 30.0
    # A second game: the same timer works again (the bug of a timer that only works in the first game).
    h.start()
    clock.advance(20)
    assert h.poll() == ["warning"]
    clock.advance(10)
    assert h.poll() == ["expired"]


def test_hourglass_start_restarts_a_running_timer() -> None:
    clock = FakeClock()
    h = Hourglass(60, clock)
    h.start()
    clock.advance(55)
    assert h.poll() == ["warning"]
    h.start()
    assert h.remaining() == 60.0
    assert h.state() == "running"
    clock.advance(50)
    assert h.poll() == ["warning"]


def test_hourglass_explicit_now_works_without_clock() -> None:
    h = Hourglass(30)
    h.start(100.0)
    assert h.remaining(110.0) == 20.0
    assert h.pause(110.0)
    assert h.resume(200.0)
    assert h.remaining(205.0) == 15.0


# -- next_deadline ------------------------------------------------------------------------------------------


def test_hourglass_next_deadline_is_next_whole_second() -> None:
    clock = FakeClock(0.0)
    h = Hourglass(60, clock)
    h.start()
    assert h.next_deadline() == pytest.approx(1.0)
    clock.advance(0.3)
    assert h.next_deadline() == pytest.approx(1.0)
    clock.advance(0.7)
    assert h.next_deadline() == pytest.approx(2.0)


def test_hourglass_next_deadline_lands_on_warning_and_expiry() -> None:
    clock = FakeClock(0.0)
    h = Hourglass(30, clock)
    h.start()
    clock.t = 19.6
    assert h.next_deadline() == pytest.approx(20.0)  # the warning moment
    clock.t = 20.0
    assert h.next_deadline() == pytest.approx(20.5)  # warning blinks twice a second
    clock.t = 29.8
    assert h.next_deadline() == pytest.approx(30.0)  # expiry


def test_hourglass_next_deadline_follows_resume() -> None:
    clock = FakeClock(0.0)
    h = Hourglass(30, clock)
    h.start()
    clock.t = 5.25
    h.pause()
    clock.t = 100.0
    h.resume()
    assert h.next_deadline() == pytest.approx(100.75)  # 24.75 s left -> shown 25 -> 24 at +0.75


def test_hourglass_next_deadline_stops_after_expiry_flash() -> None:
    clock = FakeClock(0.0)
    h = Hourglass(30, clock)
    h.start()
    clock.t = 30.2
    assert h.next_deadline() == pytest.approx(30.5)
    clock.t = 34.9
    assert h.next_deadline() == pytest.approx(35.0)
    clock.t = 35.0
    assert h.next_deadline() is None


def test_hourglass_waking_at_deadlines_sees_every_transition() -> None:
    clock = FakeClock(0.0)
    h = Hourglass(45, clock)
    h.start()
    seen: list[tuple[str, float]] = []
    wakes = 0
    while (deadline := h.next_deadline()) is not None:
        clock.t = deadline
        wakes += 1
        seen += [(cue, clock.t) for cue in h.poll()]
    assert seen == [("warning", pytest.approx(35.0)), ("expired", pytest.approx(45.0))]
    assert wakes == 35 + 20 + 10  # whole seconds, then half seconds, then the flash


# -- ring frames --------------------------------------------------------------------------------------------


def test_hourglass_ring_idle_is_dark() -> None:
    assert Hourglass(60).ring_frame(0.0, 12) == [OFF] * 12


def test_hourglass_ring_full_at_start_and_drains() -> None:
    clock = FakeClock(0.0)
    h = Hourglass(60, clock)
    h.start()
    assert h.ring_frame(None, 12) == [SAND] * 12
    clock.t = 30.0
    frame = h.ring_frame(None, 12)
    assert frame[:6] == [SAND] * 6
    assert frame[6:] == [OFF] * 6
    clock.t = 32.5  # 27.5 s left -> 5.5 LEDs: the sixth is the falling grain, half bright
    frame = h.ring_frame(None, 12)
    assert frame[:5] == [SAND] * 5
    assert OFF != frame[5] != SAND
    assert sum(frame[5]) < sum(SAND)
    assert frame[6:] == [OFF] * 6


def test_hourglass_ring_share_shrinks_monotonically() -> None:
    clock = FakeClock(0.0)
    h = Hourglass(60, clock)
    h.start()
    previous = 16
    for t in range(0, 50):
        clock.t = float(t)
        n = lit(h.ring_frame(None, 16))
        assert n <= previous
        previous = n
    assert previous < 16


def test_hourglass_ring_amber_and_blinking_in_warning() -> None:
    clock = FakeClock(0.0)
    h = Hourglass(60, clock)
    h.start()
    clock.t = 50.0  # exactly 10 s left: start of a shown second, on
    on = h.ring_frame(None, 12)
    assert on[0] == AMBER
    assert lit(on) == 2
    clock.t = 50.6  # second half of the shown second: off
    assert h.ring_frame(None, 12) == [OFF] * 12
    clock.t = 51.2
    assert h.ring_frame(None, 12)[0] == AMBER


def test_hourglass_ring_running_does_not_blink() -> None:
    clock = FakeClock(0.0)
    h = Hourglass(60, clock)
    h.start()
    for t in (10.0, 10.6, 11.2, 11.7):
        clock.t = t
        assert h.ring_frame(None, 12)[0] == SAND


def test_hourglass_ring_red_alternating_when_expired() -> None:
    clock = FakeClock(0.0)
    h = Hourglass(30, clock)
    h.start()
    clock.t = 30.0
    a = h.ring_frame(None, 12)
    assert set(a) == {RED, OFF}
    assert lit(a) == 6
    clock.t = 30.6
    b = h.ring_frame(None, 12)
    assert lit(b) == 6
    assert all((x == OFF) != (y == OFF) for x, y in zip(a, b, strict=True))  # halves swapped
    clock.t = 100.0
    assert h.ring_frame(None, 12) == h.ring_frame(None, 12) == a  # still after the flash


def test_hourglass_ring_paused_is_dim_and_steady() -> None:
    clock = FakeClock(0.0)
    h = Hourglass(60, clock)
    h.start()
    clock.t = 30.0
    h.pause()
    frame = h.ring_frame(None, 12)
    assert lit(frame) == 6
    assert sum(frame[0]) < sum(SAND) / 2
    clock.t = 30.6
    assert h.ring_frame(None, 12) == frame


def test_hourglass_ring_refuses_empty_ring() -> None:
    with pytest.raises(ValueError):
        Hourglass(60).ring_frame(0.0, 0)


def test_hourglass_ring_keeps_a_glimmer_for_a_tiny_share() -> None:
    clock = FakeClock(0.0)
    h = Hourglass(180, clock)
    h.start()
    clock.t = 179.25  # less than one LED of sand left; warning, first half of the shown second
    frame = h.ring_frame(None, 12)
    assert frame[0] != OFF


# -- enforced mode ------------------------------------------------------------------------------------------


def test_enforced_action_duet_clue_giver_must_clue() -> None:
    assert enforced_action("clue", "A", False) == EnforcedAction(
        "force_clue", "A", "time is up: the clue must be given now"
    )


def test_enforced_action_duet_guesser_with_correct_guess_stops() -> None:
    action = enforced_action("guess", "B", True)
    assert (action.kind, action.seat) == ("stop", "B")


def test_enforced_action_duet_guesser_without_correct_guess_keeps_turn() -> None:
    action = enforced_action("guess", "B", False)
    assert (action.kind, action.seat) == ("keep_guessing", "B")


@pytest.mark.parametrize("mode", ["classic", "pictures"])
def test_enforced_action_classic_team_turn_ends(mode: str) -> None:
    assert enforced_action("guess", "red", True, mode=mode).kind == "stop"
    assert enforced_action("clue", "red", False, mode=mode).kind == "force_clue"
    assert enforced_action("guess", "red", False, mode=mode).kind == "keep_guessing"


def test_enforced_action_other_phases_enforce_nothing() -> None:
    assert enforced_action("sudden_death", "A", True).kind == "none"
    assert enforced_action("over", None, False).kind == "none"


def test_enforced_action_refuses_unknown_mode() -> None:
    with pytest.raises(ValueError):
        enforced_action("clue", "A", False, mode="chess")


# -- properties ---------------------------------------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(
    length=st.floats(30, 180),
    start=st.floats(0, 1e6),
    steps=st.lists(st.floats(0, 20), min_size=1, max_size=30),
    pause_at=st.integers(0, 29),
    count=st.integers(1, 24),
)
def test_hourglass_properties_over_random_runs(
    length: float, start: float, steps: list[float], pause_at: int, count: int
) -> None:
    clock = FakeClock(start)
    h = Hourglass(length, clock)
    h.start()
    previous_left = length
    previous_lit = count
    cues: list[str] = []
    for i, step in enumerate(steps):
        if i == pause_at:
            h.pause()
        clock.advance(step)
        left = h.remaining()
        assert 0.0 <= left <= previous_left  # sand never flows back up
        previous_left = left
        deadline = h.next_deadline()
        if deadline is not None:
            assert clock.t < deadline <= clock.t + 1.0 + 1e-6  # the loop wakes at least once a second
        frame = h.ring_frame(None, count)
        assert len(frame) == count
        if h.state() in ("running", "paused"):
            n = lit(frame)
            assert n <= previous_lit
            previous_lit = n
        cues += h.poll()
    assert cues in ([], ["warning"], ["expired"], ["warning", "expired"])
    assert (h.state() == "expired") == ("expired" in cues)
