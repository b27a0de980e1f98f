import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pytest  # noqa: E402

from hardware.factory import open_box  # noqa: E402
from hardware.mock import MockBox  # noqa: E402


@pytest.fixture
def box():
    b = open_box("mock")
    assert isinstance(b, MockBox)
    yield b
    b.close()
