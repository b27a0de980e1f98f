from pathlib import Path

from PIL import Image

from hardware.config import RESERVED_PINS, load_config
from hardware.layout import load_layout, power_markdown
from hardware.wiring import (
    GROUND,
    I2C_MAX_MM,
    LEVER_PORTS,
    PHYSICAL,
    POWER,
    bus_ends,
    connectors_for,
    draw_diagram,
    i2c_lengths,
    links,
    markdown_links,
    markdown_table,
    wires,
)

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
    gpio_wires = [w for w in wires(cfg) if w.gpio is not None and w.role not in ("sda", "scl", "din")
                  and not w.role.startswith("i2s")]
    gpios = [w.gpio for w in gpio_wires]
    assert len(gpios) == len(set(gpios)) == 15
    assert not set(gpios) & set(RESERVED_PINS)
    assert all(PHYSICAL[w.gpio] == w.pin for w in gpio_wires)


def test_wiring_diagram_draws(tmp_path):
    out = tmp_path / "w.png"
    draw_diagram(load_config(None), str(out))
    assert Image.open(out).size == (1700, 1320)


def test_wiring_docs_list_every_other_wire_and_the_power_budget():
    doc = (ROOT / "docs" / "hardware.md").read_text(encoding="utf-8")
    assert markdown_links(load_config(None)) in doc, "regenerate: python -m hardware.wiring --links"
    assert power_markdown(load_layout()) in doc, "regenerate: python -m hardware.layout power"


def test_no_header_pin_carries_two_wires():
    pins = [w.pin for w in wires(load_config(None))]
    assert len(pins) == len(set(pins))


def test_the_official_display_is_powered_from_pins_4_and_6():
    """Its 5 V and GND jumpers are in the wire list (and so in the table, the diagram and the panel map)."""
    by_pin = {w.pin: w for w in wires(load_config(None))}
    assert "display 5V" in by_pin[4].part and POWER[4] == "5V"
    assert "display GND" in by_pin[6].part and 6 in GROUND
    hdmi = load_layout().with_choice(display="hdmi_7_1024x600")
    assert not any("display" in w.part for w in wires(load_config(None), hdmi))
    assert any(link.end == "a USB port of the Pi" for link in links(load_config(None), hdmi))
    assert not any(link.end == "a USB port of the Pi" for link in links(load_config(None)))


def test_the_amplifier_is_on_the_i2s_pins_which_no_button_may_take():
    by_role = {w.role: w for w in wires(load_config(None))}
    assert (by_role["i2s_bclk"].gpio, by_role["i2s_lrclk"].gpio, by_role["i2s_dout"].gpio) == (18, 19, 21)
    assert {18, 19, 20, 21} <= set(RESERVED_PINS)


def test_the_bom_has_enough_lever_ports_for_every_bus_end_of_the_wire_list():
    """Counted from the wire list: every end on the 5 V and GND buses needs a port (a link takes two)."""
    ends = bus_ends(load_config(None))
    assert ends["GND bus"] >= 9 and ends["5 V bus"] >= 7
    needed = sum(connectors_for(n) for n in ends.values())
    bom = {name: qty for name, _, qty, _ in load_layout().bom(sheets=1)}
    levers = next(qty for name, qty in bom.items() if "lever connector" in name)
    assert levers == needed, f"the BOM lists {levers} lever connectors, the wire list needs {needed}"
    for n in ends.values():
        k = connectors_for(n)
        assert k * LEVER_PORTS - 2 * (k - 1) >= n > (k - 1) * LEVER_PORTS - 2 * (k - 2)


def test_every_switch_has_its_ground_and_the_oleds_their_splice():
    cfg = load_config(None)
    every = links(cfg)
    chains = [link for link in every if "ground chain" in link.start]
    assert len(chains) == 2 and all("up, down, left, right, OK and STOP" in link.start for link in chains)
    assert any(link.start.startswith("MENU") and link.end == "GND bus" for link in every)
    assert sum(1 for link in every if link.start.startswith("OLED splice")) == 2
    bom = " ".join(name for name, *_ in load_layout().bom(sheets=1))
    assert "splice" in bom and "5.1 kohm" in bom and "BC337" in bom and "2N7000" not in bom


def test_the_i2c_bus_is_as_long_as_the_docs_allow():
    _, _, total = i2c_lengths(load_layout())
    assert total <= I2C_MAX_MM
    doc = (ROOT / "docs" / "hardware.md").read_text(encoding="utf-8")
    assert f"keep it under {I2C_MAX_MM // 1000} m at 400 kHz" in doc
    assert f"about {round(total / 100) * 10} cm" in doc
