"""``duetbox bench --profile``: the Pi profile prints every figure and a verdict per target (no timing is asserted:
the bench reports, it does not judge this machine). The simulation's inputs are checked against their sources."""

from __future__ import annotations

import random

import pytest
from helpers_reliability import duetbox

from bench.pi import (
    BOARDS,
    PROFILE_KEYS,
    PROFILE_TARGETS,
    SD_CARDS_PI4,
    measure_profile,
    profile_table,
    sd_flush_s,
    verdict,
)
from hardware.mock import I2C_BITS_PER_BYTE, TimedLink
from hardware.oled import full_frame_cost


def fake_process(quick: bool, idle: float | None) -> dict[str, float]:
    return {"startup_s": 0.4, "idle_cpu_percent": 0.3, "peak_rss_mb": 47.0}


def test_bench_pi_profile_measures_every_figure_in_one_run() -> None:
    result = measure_profile("pi4", True, guesses=4, process=fake_process)
    assert result.get("notes") is None, result.get("notes")
    for key in PROFILE_KEYS:
        assert isinstance(result[key], int | float), f"{key} was not measured: {result[key]!r}"
    assert result["oled_full_frame_bytes"] == 2 * 1034
    assert 0 < result["oled_guess_fraction"] < 1  # a guess never resends both whole frames
    # a guess's OLED bytes on the wire at 400 kHz, 9 clock cycles a byte
    # (rounded to 0.01 ms on both sides: 622 bytes make 13.995 ms, which one side rounds up and the other down)
    assert result["pi_oled_bus_ms_per_guess"] == pytest.approx(result["oled_bus_bytes_per_guess"] * 9 / 400, abs=0.011)
    # the estimate scales the unrounded CPU time: recomputed from the rounded figure it may differ in the last digit
    assert result["cpu_ms_per_guess_board_estimate"] == pytest.approx(result["cpu_ms_per_guess"] * 3.0, abs=0.011)
    assert set(result["targets"]) == set(PROFILE_TARGETS)
    assert all(v.startswith(("met", "MISSED")) for v in result["targets"].values())
    text = profile_table(result)
    assert "ESTIMATE" in text and "pidramble" in text and "target cpu_ms_per_guess" in text


def test_bench_pi_bad_profile_exits_2_with_one_line() -> None:
    got = duetbox("bench", "--profile", "pi9")
    assert got.returncode == 2
    assert got.stderr.strip().count("\n") == 0 and "pi4" in got.stderr


def test_bench_pi_i2c_wire_time_is_nine_clocks_a_byte() -> None:
    link = TimedLink("i2c", 400_000, wait=lambda s: None)
    assert I2C_BITS_PER_BYTE == 9
    assert abs(link.seconds(full_frame_cost("ssd1306")) * 1000 - 23.265) < 1e-9  # 1034 bytes
    assert abs(TimedLink("i2c", 100_000).seconds(1034) * 1000 - 93.06) < 1e-9


def test_bench_pi_sd_flush_draws_from_the_measured_cards() -> None:
    assert len(SD_CARDS_PI4) == 15 and min(SD_CARDS_PI4) == 0.22 and max(SD_CARDS_PI4) == 4.70
    rng = random.Random(1)
    draws = {round(sd_flush_s(rng), 9) for _ in range(2000)}
    expected = {round(3 * 4096 / (mb * 1e6), 9) for mb in SD_CARDS_PI4}
    assert draws == expected  # every card, nothing else
    assert 0.0026 < min(draws) < 0.0027 and 0.055 < max(draws) < 0.056  # 2.6 ms .. 55.9 ms


def test_bench_pi_verdicts_and_boards() -> None:
    assert verdict(16.7, "<=", 16.7).startswith("met")
    assert verdict(16.8, "<=", 16.7).startswith("MISSED")
    assert verdict(None, "<", 1).startswith("not measured")
    assert set(BOARDS) == {"pi4", "zero2w"} and BOARDS["zero2w"].cpu_factor > BOARDS["pi4"].cpu_factor
