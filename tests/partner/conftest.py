"""Fixtures: the tiny vector spaces of tiny_space.py."""

from __future__ import annotations

import pytest
from tiny_space import make_space

from partner.space import VectorSpace


@pytest.fixture(scope="session")
def tiny() -> VectorSpace:
    return make_space()


@pytest.fixture(scope="session")
def tiny2() -> VectorSpace:
    return make_space("tiny2", seed=11)
