"""Device faults: OLEDs, ring and shared display failing now and then or vanishing for a while, during a game played
through the real app on the mock backend. The game goes on, each device recovers when it comes back, and each fault
burst is logged once (no log flood)."""

from __future__ import annotations

import logging
import random
from pathlib import Path
from typing import Any

import pytest
from helpers_reliability import soak

from bench.box import AppDriver, policy_action, setup_record
from hardware.oled import rotate_for_panel

DEVICES = ("OLED A", "OLED B", "LED ring")


def device(driver: AppDriver, name: str) -> Any:
    return {"OLED A": driver.box.oleds["A"], "OLED B": driver.box.oleds["B"], "LED ring": driver.box.ring}[name]


def inject(rng: random.Random, dev: Any, gone: set[int], key: int) -> None:
    """One random fault episode on ``dev``: a short burst of failed writes, or unplugging (back later)."""
    if key in gone:
        if rng.random() < 0.5:
            dev.reappear()
            gone.discard(key)
    elif rng.random() < 0.5:
        dev.fail_next(rng.randint(1, 6))
    else:
        dev.vanish()
        gone.add(key)


def warnings_for(caplog: pytest.LogCaptureFixture, name: str, level: int) -> list[str]:
    return [r.getMessage() for r in caplog.records
            if r.levelno == level and r.name.startswith("duetbox") and r.getMessage().startswith(name)]


def assert_recovered(driver: AppDriver) -> None:
    """Everything plugged back, the backoff over: each device shows what the app last asked for."""
    for seat in ("A", "B"):
        screen = driver.box.oleds[seat]
        assert not screen.in_fault, f"OLED {seat} did not recover"
        wanted = rotate_for_panel(screen.image.convert("1"), screen.rotation)
        assert screen.glass().tobytes() == wanted.tobytes(), f"OLED {seat} shows a stale frame"
    ring = driver.box.ring
    assert not ring.guard.failed, "the ring did not recover"
    assert ring.driver.written and ring.driver.written[-1] == ring.physical(ring.last)


def come_back(driver: AppDriver, gone: set[int]) -> None:
    """Plug everything back, then let the loop retry until the injected failures still pending are used up
    (failures injected while a device was backing off pile up: each retry uses one)."""
    for key in list(gone):
        device(driver, DEVICES[key]).reappear()
    gone.clear()
    for _ in range(1000):
        driver.box.advance(60)  # past the longest backoff
        driver.step()
        if not any(device(driver, name).guard.failed for name in DEVICES):
            return


@pytest.mark.parametrize("seed", range(soak(6, 150)))
def test_device_faults_oleds_and_ring_fail_and_vanish_game_goes_on(seed: int, caplog: pytest.LogCaptureFixture,
                                                                    tmp_path: Path) -> None:
    caplog.set_level(logging.INFO)
    rng = random.Random(seed)
    driver = AppDriver(tmp_path, seed=seed, record=setup_record(seed % 997))
    gone: set[int] = set()
    try:
        moves = 0
        while True:
            action = policy_action(driver.state, rng)
            if action is None:
                break
            if rng.random() < 0.6:
                for _ in range(rng.randint(1, 3)):
                    key = rng.randrange(len(DEVICES))
                    inject(rng, device(driver, DEVICES[key]), gone, key)
            before = driver.state.version
            driver.play(action)
            assert driver.state.version == before + 1, f"{action} was not applied while devices failed"
            moves += 1
            driver.box.advance(rng.choice((0.1, 1.0, 5.0)))
            driver.step()
        assert moves > 0 and driver.state.over
        come_back(driver, gone)
        assert_recovered(driver)
        for name in DEVICES:
            guard = device(driver, name).guard
            warned = warnings_for(caplog, name, logging.WARNING)
            back = warnings_for(caplog, name, logging.INFO)
            assert len(warned) == guard.faults, f"{name}: {guard.faults} burst(s) but {len(warned)} warning(s)"
            assert len(back) == guard.faults, f"{name}: {guard.faults} burst(s) but {len(back)} recovery line(s)"
    finally:
        driver.close()


def test_device_faults_long_outage_is_one_warning_however_many_writes(tmp_path: Path,
                                                                       caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    driver = AppDriver(tmp_path, record=setup_record(5))
    rng = random.Random(9)
    try:
        driver.box.oleds["B"].vanish()
        driver.box.ring.vanish()
        for _ in range(12):
            action = policy_action(driver.state, rng)
            if action is None:
                break
            driver.play(action)
            driver.box.advance(40)  # a long game: every retry fails, the backoff reaches its cap
            driver.step()
        assert driver.box.oleds["B"].guard.errors > 3
        assert len(warnings_for(caplog, "OLED B", logging.WARNING)) == 1
        assert len(warnings_for(caplog, "LED ring", logging.WARNING)) == 1
        come_back(driver, {1, 2})
        assert_recovered(driver)
        assert len(warnings_for(caplog, "OLED B", logging.INFO)) == 1
    finally:
        driver.close()


def test_device_faults_shared_display_failing_game_goes_on(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    driver = AppDriver(tmp_path, record=setup_record(6))
    rng = random.Random(10)
    display = driver.box.display
    real_present = display.present
    state = {"gone": False}

    def present(rects: Any = None) -> None:
        if state["gone"]:
            raise OSError(19, "No such device (display unplugged)")
        real_present(rects)

    display.present = present
    try:
        for i in range(10):
            action = policy_action(driver.state, rng)
            if action is None:
                break
            state["gone"] = i % 4 in (1, 2)
            before = driver.state.version
            driver.play(action)
            assert driver.state.version == before + 1
        state["gone"] = False
        driver.box.advance(60)
        driver.step()
        assert display.presents > 0
        failures = [r for r in caplog.records if "shared display failed" in r.getMessage()]
        assert 1 <= len(failures) <= 3  # one line per burst, not one per frame
    finally:
        driver.close()
