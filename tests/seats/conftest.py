"""Fixtures of the seat's-eye harness (tests/seats/seatseye.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from seatseye import SIZES, Table


@pytest.fixture(params=SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def size(request: pytest.FixtureRequest) -> tuple[int, int]:
    return request.param  # type: ignore[no-any-return]


@pytest.fixture
def table(tmp_path: Path, size: tuple[int, int]) -> Iterator[Callable[..., Table]]:
    """A factory of tables at the test's size (each closed at the end)."""
    made: list[Table] = []

    def make(**kwargs: Any) -> Table:
        t = Table(tmp_path / f"t{len(made)}", size, **kwargs)
        made.append(t)
        return t

    yield make
    for t in made:
        t.close()
