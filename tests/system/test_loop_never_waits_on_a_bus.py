"""The loop never waits on a bus: the real app on the mock backend with the Pi's code path (a writer thread per
bus, the I2C link timed at 400 kHz but held by a gate). A guess reaches the shared display and the ring while
the OLEDs' frames are still on the bus; the OLEDs catch up when the bus lets them.

No timing is asserted: the gate holds the OLED transfer until the test opens it."""

from __future__ import annotations

import logging
import random
from pathlib import Path

from bench.box import AppDriver, policy_action, setup_record
from device.screens.base import HOLD_SECONDS
from engine.actions import Guess
from hardware.config import load_config
from hardware.mock import BusGate, MockBox
from hardware.oled import pack_pages, rotate_for_panel


def threaded_driver(tmp_path: Path, gate: BusGate, seed: int = 3) -> AppDriver:
    box = MockBox(load_config(None), threaded=True, i2c_hz=400_000, bus_wait=gate)
    return AppDriver(tmp_path / "data", seed=seed, record=setup_record(1000 + seed), box=box)


def to_next_guess(driver: AppDriver, rng: random.Random) -> Guess:
    while True:
        action = policy_action(driver.state, rng)
        assert action is not None, "the game ended before a guess"
        if isinstance(action, Guess):
            return action
        driver.play(action)


def on_glass(driver: AppDriver, seat: str) -> bool:
    screen = driver.box.oleds[seat]
    wanted = pack_pages(rotate_for_panel(screen.image.convert("1"), screen.rotation))
    return [bytes(screen.panel.ram[p * 128:(p + 1) * 128]) for p in range(8)] == wanted


def test_guess_reaches_shared_display_and_ring_while_the_oleds_are_on_the_bus(tmp_path: Path) -> None:
    gate = BusGate()
    driver = threaded_driver(tmp_path, gate)
    box = driver.box
    try:
        guess = to_next_guess(driver, random.Random(2))
        box.touch(guess.card)
        driver.step()
        box.press(f"{guess.seat}.ok")
        driver.step()
        box.advance(HOLD_SECONDS)
        assert box.flush(5)  # the hold's frames are out: the bus is free before the guess
        gate.close()
        version, presents = driver.state.version, box.display.presents
        surface_before = box.display.snapshot()
        ring_before = len(box.ring.driver.written)
        glass_before = {s: bytes(box.oleds[s].panel.ram) for s in ("A", "B")}
        driver.step()  # the hold completes: the guess is applied, committed and shown
        assert driver.state.version > version
        assert gate.waiting.wait(5)  # an OLED frame of the guess is on the bus, held there
        # ... and meanwhile the shared display and the ring already show the guess
        assert box.display.presents > presents and box.display.snapshot() != surface_before
        assert box.ring.flush(5)  # written in the loop, not queued behind the I2C bus
        assert len(box.ring.driver.written) > ring_before
        assert box.ring.driver.written[-1] == box.ring.physical(box.ring.last)
        assert not (box.oleds["A"].flush(0) and box.oleds["B"].flush(0))  # an OLED is still waiting
        assert any(bytes(box.oleds[s].panel.ram) == glass_before[s] for s in ("A", "B"))
        gate.open()
        assert box.flush(5)
        assert on_glass(driver, "A") and on_glass(driver, "B")  # both caught up with the newest frame
        # the step returned with the gate closed, not by the gate giving up (that would be an I/O error)
        assert box.oleds["A"].guard.errors == box.oleds["B"].guard.errors == 0
    finally:
        gate.open()
        driver.close()
    assert all(not w.thread.is_alive() for w in box.writers.values())


def test_threaded_oled_error_during_a_game_is_logged_once_and_recovers(tmp_path: Path, caplog) -> None:
    gate = BusGate()
    driver = threaded_driver(tmp_path, gate, seed=4)
    box = driver.box
    rng = random.Random(7)
    try:
        with caplog.at_level(logging.INFO, logger="duetbox.hardware"):
            box.oleds["B"].vanish()
            driver.play(to_next_guess(driver, rng))
            for _ in range(4):  # retries while it is still gone: no new line
                box.advance(box.oleds["B"].guard.next_try - box.clock.now())
                driver.step()
                assert box.flush(5)
            assert box.oleds["B"].in_fault and box.oleds["B"].guard.errors >= 5
            box.oleds["B"].reappear()
            box.advance(60)  # past any backoff
            driver.step()
            assert box.flush(5)
            assert not box.oleds["B"].in_fault and on_glass(driver, "B")
    finally:
        gate.open()
        driver.close()
    messages = [r.getMessage() for r in caplog.records if r.getMessage().startswith("OLED B")]
    assert len([m for m in messages if "I/O error" in m]) == 1  # one line for the whole burst
    assert len([m for m in messages if "is back" in m]) == 1
