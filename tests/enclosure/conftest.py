"""Exports the enclosure once per test session (per xdist worker) into a temporary directory.

Two configurations: the bundled box.toml, and a variant with other parts (the HDMI panel, a 24-LED ring, 24 mm
STOP buttons, 1.3-inch OLEDs), so the tests see that changing a part moves and resizes the holes.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from enclosure_geometry import Built

from hardware.layout import load_layout

ROOT = Path(__file__).resolve().parents[2]
EXPORT = ROOT / "enclosure" / "export.py"
BOX = ROOT / "hardware" / "data" / "box.toml"

VARIANT = {
    'display = "pi_touch_7"': 'display = "hdmi_7_1024x600"',
    'ring = "ring_16"': 'ring = "ring_24"',
    'stop_button = "button_30"': 'stop_button = "button_24"',
    'oled = "oled_096"': 'oled = "oled_130"',
}


def _need_openscad() -> None:
    if shutil.which("openscad") is None:
        pytest.skip("openscad is not installed and could not be installed here (.ci/run installs it with "
                    "apt-get install openscad)")


def _export(out: Path, layout: Path, only: str) -> None:
    proc = subprocess.run([sys.executable, str(EXPORT), "--out", str(out), "--layout", str(layout), "--only", only],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr


@pytest.fixture(scope="session")
def default_build(tmp_path_factory: pytest.TempPathFactory) -> Built:
    _need_openscad()
    out = tmp_path_factory.mktemp("enclosure-default")
    _export(out, BOX, "laser,print,echo")
    return Built("default", out, load_layout(BOX))


@pytest.fixture(scope="session")
def variant_build(tmp_path_factory: pytest.TempPathFactory) -> Built:
    _need_openscad()
    out = tmp_path_factory.mktemp("enclosure-variant")
    text = BOX.read_text(encoding="utf-8")
    for old, new in VARIANT.items():
        assert old in text, old
        text = text.replace(old, new)
    box = out / "box.toml"
    box.write_text(text, encoding="utf-8")
    _export(out, box, "laser,echo")
    return Built("variant", out, load_layout(box))


@pytest.fixture(params=["default", "variant"])
def build(request: pytest.FixtureRequest) -> Built:
    built: Built = request.getfixturevalue(f"{request.param}_build")
    return built
