"""Renderer tests: headless SDL, and golden images refreshed only with ``--update-golden``:

    SDL_VIDEODRIVER=dummy .venv/bin/python -m pytest tests/device/render --update-golden

(the option is registered when this folder is on the command line).
"""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pytest  # noqa: E402
from PIL import Image, ImageChops  # noqa: E402

GOLDEN_DIR = Path(__file__).parent / "golden"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        default=False,
        help="rewrite the renderer golden images under tests/device/render/golden/",
    )


class Golden:
    def __init__(self, update: bool) -> None:
        self.update = update

    def check(self, name: str, image: Image.Image) -> None:
        """Compare ``image`` with golden/NAME.png (rewritten instead with --update-golden)."""
        path = GOLDEN_DIR / f"{name}.png"
        if self.update:
            GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
            image.save(path)
            return
        if not path.exists():
            pytest.fail(f"no golden image {path.name}: run pytest tests/device/render --update-golden")
        with Image.open(path) as stored:
            expected = stored.convert(image.mode)
        assert expected.size == image.size, f"{name}: size {image.size} != golden {expected.size}"
        diff = ImageChops.difference(expected.convert("L"), image.convert("L")).getbbox()
        if diff is not None:
            actual = path.with_name(f"{name}.actual.png")
            image.save(actual)
            pytest.fail(
                f"{name}: differs from golden in box {diff} (got {actual.name}; if intended, "
                "rerun with --update-golden)"
            )


@pytest.fixture
def golden(request: pytest.FixtureRequest) -> Golden:
    return Golden(bool(request.config.getoption("--update-golden", default=False)))


@pytest.fixture(scope="session")
def pg():
    import pygame

    pygame.init()
    yield pygame
