from pathlib import Path

from PIL import Image

from hardware.config import RESERVED_PINS, load_config
from hardware.wiring import GROUND, PHYSICAL, POWER, draw_diagram, markdown_table, wires

ROOT = Path(__file__).resolve().parents[2]


def test_wiring_docs_table_matches_default_config():
    doc = (ROOT / "docs" / "hardware.md").read_text(encoding="utf-8")
    assert markdown_table(load_config(None)) in doc


def test_wiring_docs_image_exists():
    img = Image.open(ROOT / "docs" / "img" / "wiring.png")
    assert img.size[0] >= 1200


def test_wiring_physical_map_is_the_40_pin_header():
    assert sorted(PHYSICAL) == list(range(28))
    pins = set(PHYSICAL.values()) | set(POWER) | set(GROUND)
    assert pins == set(range(1, 41))


def test_wiring_every_input_is_wired_once_off_the_buses():
    cfg = load_config(None)
    gpio_wires = [w for w in wires(cfg) if w.gpio is not None and w.role not in ("sda", "scl", "din")]
    gpios = [w.gpio for w in gpio_wires]
    assert len(gpios) == len(set(gpios)) == 15
    assert not set(gpios) & set(RESERVED_PINS)
    assert all(PHYSICAL[w.gpio] == w.pin for w in gpio_wires)


def test_wiring_diagram_draws(tmp_path):
    out = tmp_path / "w.png"
    draw_diagram(load_config(None), str(out))
    assert Image.open(out).size == (1700, 1130)
