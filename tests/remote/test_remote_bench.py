"""`duetbox bench --remote` runs and reports its figures (the figures themselves are the bench's, not a test's)."""

from __future__ import annotations

import pytest
from remotebox import _mosquitto

from bench.remote import measure_remote, remote_table


def test_the_remote_bench_measures_moves_both_ways() -> None:
    if _mosquitto() is None:
        pytest.skip("mosquitto is not installed")
    result = measure_remote(moves=8)
    assert result["remote_moves"] == 8
    assert 0 < result["remote_move_ms_p50"] <= result["remote_move_ms_p99"]
    assert result["remote_host_to_guest_ms_p50"] > 0 and result["remote_guest_to_host_ms_p50"] > 0
    assert "target: a move shown on the other box, p50 <= 50 ms" in remote_table(result)
