"""Buttons: chatter on every pin gives exactly one press per physical press (the pi backend's gpiozero buttons and
hardware/debounce, on gpiozero's mock pins); a stuck button repeats nothing; both seats mashing at once never
apply an action twice or out of turn (the real app on the mock backend)."""

from __future__ import annotations

import random
from collections import defaultdict
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory
from helpers_reliability import SOAK, soak
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.box import AppDriver, policy_action, setup_record
from engine.actions import Guess, Stop, action_from_dict
from engine.record import replay
from hardware.config import load_config
from hardware.events import EventQueue
from hardware.mock import FakeClock
from hardware.pi import PiButtons

CFG = load_config(None)
WINDOW = CFG.buttons.debounce_ms / 1000
PINS: dict[int, tuple[str | None, str]] = {pin: key for key, pin in CFG.buttons.all_inputs().items()}


@pytest.fixture
def factory():
    f = MockFactory()
    yield f
    f.reset()


def physical_presses(rng: random.Random, horizon: float) -> list[tuple[float, float]]:
    """(start, length) of presses of one button: at least 30 ms down and 45 ms up between presses."""
    presses, t = [], rng.uniform(0, 0.1)
    while True:
        length = rng.uniform(0.03, 0.4)
        if t + length > horizon:
            return presses
        presses.append((t, length))
        t += length + rng.uniform(0.045, 0.4)


def chatter(rng: random.Random, at: float, level: bool) -> list[tuple[float, bool]]:
    """A contact changing to ``level`` at ``at``: a burst of bounces within 6 ms (< the 20 ms window), then
    resting at ``level``."""
    edges = [(at, level)]
    t, current = at, level
    for _ in range(rng.randrange(0, 9)):
        t += rng.uniform(0.0002, 6e-3 / 8)
        current = not current
        edges.append((t, current))
    if current != level:
        edges.append((t + 0.0003, level))
    return edges


def drive(factory: MockFactory, buttons: PiButtons, clock: FakeClock,
          edges: list[tuple[float, int, bool]]) -> None:
    """Feed time-ordered raw edges (time, pin, pressed), polling at every debounce deadline like the main loop."""
    pending = sorted(edges)
    i = 0
    while True:
        deadline = buttons.next_deadline()
        next_edge = pending[i][0] if i < len(pending) else None
        if next_edge is None and deadline is None:
            return
        if next_edge is not None and (deadline is None or next_edge <= deadline):
            _, pin, pressed = pending[i]
            i += 1
            clock.advance(max(0.0, next_edge - clock.now()))
            p = factory.pin(pin)
            p.drive_low() if pressed else p.drive_high()
        else:
            assert deadline is not None
            clock.advance(max(0.0, deadline - clock.now()))
        buttons.poll(clock.now())


@pytest.fixture(scope="module")
def panel():
    """One button panel for every example (closing gpiozero devices takes most of a second)."""
    f = MockFactory()
    clock = FakeClock(0.0)
    queue = EventQueue()
    buttons = PiButtons(CFG, clock, queue, pin_factory=f)
    yield f, buttons, clock, queue
    buttons.close()
    f.reset()


@settings(max_examples=soak(40, 1000), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_buttons_chatter_every_pin_one_press_per_physical_press(panel, seed: int) -> None:
    factory, buttons, clock, queue = panel
    rng = random.Random(seed)
    queue.drain()
    edges: list[tuple[float, int, bool]] = []
    expected: dict[tuple[str | None, str], int] = {}
    for pin, key in PINS.items():
        presses = physical_presses(rng, 1.5 if not SOAK else 4.0)
        expected[key] = len(presses)
        for start, length in presses:
            edges += [(t, pin, lv) for t, lv in chatter(rng, start, True)]
            edges += [(t, pin, lv) for t, lv in chatter(rng, start + length, False)]
    base = clock.now() + 1.0
    drive(factory, buttons, clock, [(base + t, pin, lv) for t, pin, lv in edges])
    got: dict[tuple[str | None, str], list[str]] = defaultdict(list)
    for event in queue.drain():
        got[(event.seat, event.button)].append(event.kind)
    for key, n in expected.items():
        assert got[key] == ["press", "release"] * n, f"{key}: {n} physical presses gave {got[key]}"


def test_buttons_stuck_pin_gives_one_press_and_nothing_more(factory: MockFactory) -> None:
    clock = FakeClock(0.0)
    queue = EventQueue()
    buttons = PiButtons(CFG, clock, queue, pin_factory=factory)
    try:
        pin = CFG.buttons.A.ok
        drive(factory, buttons, clock, [(t + 1.0, pin, lv) for t, lv in chatter(random.Random(3), 0.0, True)])
        for _ in range(600):  # ten minutes held down, the loop polling every second
            clock.advance(1.0)
            buttons.poll(clock.now())
        assert [(e.seat, e.button, e.kind) for e in queue.drain()] == [("A", "ok", "press")]
    finally:
        buttons.close()


# --- the app: stuck buttons and mashing --------------------------------------------------------------------

def stored(driver: AppDriver) -> list[dict[str, object]]:
    assert driver.app.game.id is not None
    return driver.storage.actions(driver.app.game.id)


def to_guess(driver: AppDriver, rng: random.Random) -> Guess:
    """Play the game on until a guess is due; returns the guess the policy picks."""
    while True:
        action = policy_action(driver.state, rng)
        assert action is not None, "the game ended before a guess was due"
        if isinstance(action, Guess):
            return action
        driver.play(action)


def test_buttons_stuck_ok_guesses_once(tmp_path: Path) -> None:
    driver = AppDriver(tmp_path, record=setup_record(21))
    try:
        guess = to_guess(driver, random.Random(2))
        driver.box.touch(guess.card)
        driver.step()
        before = driver.state.version
        driver.box.press(f"{guess.seat}.ok")  # and never released
        for _ in range(300):
            driver.box.advance(0.1)
            driver.step()
        assert driver.state.version == before + 1
        assert driver.state.history[-1] == guess
        assert len(stored(driver)) == driver.state.version
    finally:
        driver.close()


def test_buttons_stuck_stop_and_joystick_repeat_nothing(tmp_path: Path) -> None:
    driver = AppDriver(tmp_path, record=setup_record(22))
    rng = random.Random(4)
    try:
        for _ in range(200):  # play on until a stop is possible
            view = driver.app.game.session.public_view()  # type: ignore[union-attr]
            if view.can_stop:
                break
            action = policy_action(driver.state, rng)
            assert action is not None
            if isinstance(action, Stop):
                continue
            driver.play(action)
        view = driver.app.game.session.public_view()  # type: ignore[union-attr]
        assert view.can_stop
        seat = view.guessers[0]
        before = driver.state.version
        cursor = dict(getattr(driver.app.screen, "cursors", {}))
        driver.box.press(f"{seat}.stop")
        driver.box.press(f"{seat}.left")
        for _ in range(300):
            driver.box.advance(0.1)
            driver.step()
        assert driver.state.version == before + 1 and isinstance(driver.state.history[-1], Stop)
        if cursor:  # the held joystick moved the cursor one card once, with no auto-repeat
            from device.screens.base import move_card

            assert driver.app.screen.cursors[seat] == move_card(cursor[seat], "left", seat)  # type: ignore[union-attr]
    finally:
        driver.close()


BUTTONS = ("up", "down", "left", "right", "ok", "ok", "ok", "stop")


@settings(max_examples=soak(6, 120), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_buttons_both_seats_mashing_never_apply_twice_or_out_of_turn(seed: int, tmp_path_factory) -> None:
    rng = random.Random(seed)
    driver = AppDriver(tmp_path_factory.mktemp("mash"), seed=seed, record=setup_record(seed % 1000))
    held: set[str] = set()
    try:
        for _ in range(soak(250, 1000)):
            roll = rng.random()
            if roll < 0.08:
                driver.box.touch(rng.randrange(25))
            elif roll < 0.12:
                action = policy_action(driver.state, rng)  # a real clue now and then keeps the game going
                if action is not None and not isinstance(action, Guess) and driver.app.screen is not None \
                        and getattr(driver.app.screen, "entry", None) is None:
                    driver.play(action)
            else:
                name = f"{rng.choice('AB')}.{rng.choice(BUTTONS)}"
                if name in held:
                    driver.box.release(name)
                    held.discard(name)
                else:
                    driver.box.press(name)
                    held.add(name)
            driver.box.advance(rng.choice((0.0, 0.005, 0.05, 0.2, 0.65)))
            driver.step()
            if driver.app.game.session is None or driver.state.over:
                break
        if driver.app.game.session is None:
            return
        actions = stored(driver)
        state = driver.state
        assert [action_from_dict(a) for a in actions] == list(state.history), "committed and applied differ"
        again = replay(dict(driver.app.game.session.setup, actions=actions))  # type: ignore[union-attr]
        assert again.ok, f"an action was applied out of turn: {again.error_message}"
        assert again.state == state
    finally:
        driver.close()
