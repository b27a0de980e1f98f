"""One data file for the wiring and the model: box.toml, params.scad, the bundled configuration and the docs agree."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from hardware.config import load_config
from hardware.header import PHYSICAL
from hardware.layout import LayoutError, bom_markdown, load_layout, main, scad_params
from hardware.wiring import COLOURS, control_wires, draw_panel_map, markdown_table, wires

ROOT = Path(__file__).resolve().parents[2]


def test_params_scad_is_generated_from_box_toml():
    committed = (ROOT / "enclosure" / "params.scad").read_text(encoding="utf-8")
    assert committed == scad_params(load_layout()), "run `make enclosure` to regenerate enclosure/params.scad"


def test_the_box_is_wired_like_the_bundled_configuration():
    lay, cfg = load_layout(), load_config(None)
    for seat in ("A", "B"):
        pins = cfg.buttons.seat(seat)
        assert lay.seat_pins(seat) == pins.button_pins() | {"ok_led": pins.ok_led}
    assert lay.data["pins"]["shared"]["menu"] == cfg.buttons.menu


def test_every_control_on_the_panel_has_the_wire_of_the_wiring_table():
    """The hole of each button and the row of the wiring table name the same GPIO, pin and colour."""
    lay, cfg = load_layout(), load_config(None)
    by_gpio = {w.gpio: w for w in wires(cfg) if w.gpio is not None}
    names = {"ok": "OK button", "stop": "STOP button", "menu": "MENU button", "up": "joystick up",
             "down": "joystick down", "left": "joystick left", "right": "joystick right"}
    seen = 0
    for c in lay.controls():
        for function, gpio in c.pins.items():
            if function not in names:
                continue
            w = by_gpio[gpio]
            assert names[function] in w.part and (c.seat is None or f"seat {c.seat}" in w.part), (c.id, w.part)
            assert w.pin == PHYSICAL[gpio] and w.colour == lay.colour(function)[0]
            seen += 1
    assert seen == 2 * 6 + 1  # six switches per seat and MENU


def test_the_wiring_diagram_takes_its_colours_from_box_toml():
    lay = load_layout()
    assert COLOURS == {role: lay.colour(role) for role in lay.data["colours"]}
    table = markdown_table(load_config(None))
    for role in ("up", "ok", "stop", "menu"):
        assert f"| {lay.colour(role)[0]} |" in table


def test_each_seat_is_the_other_turned_a_half_turn():
    lay = load_layout()
    W, D = lay.box["width"], lay.box["depth"]
    a = {c.id[2:]: c for c in lay.controls() if c.seat == "A"}
    b = {c.id[2:]: c for c in lay.controls() if c.seat == "B"}
    assert set(a) == set(b) == {"joystick", "ok", "stop", "oled"}
    for name in a:
        assert (b[name].x, b[name].y) == (W - a[name].x, D - a[name].y)
        assert a[name].y < D / 2 < b[name].y


def test_build_md_lists_the_bom_of_box_toml_and_shows_every_render():
    doc = (ROOT / "docs" / "build.md").read_text(encoding="utf-8")
    assert bom_markdown(load_layout()) in doc, "regenerate the BOM: python -m hardware.layout bom"
    images = re.findall(r"!\[[^\]]*\]\((img/[^)]+)\)", doc)
    sys.path.insert(0, str(ROOT / "enclosure"))
    try:
        from export import RENDERS
    finally:
        sys.path.remove(str(ROOT / "enclosure"))
    for name in RENDERS:
        assert f"img/build-{name}.png" in images, f"docs/build.md does not show build-{name}.png"
    assert "img/build-panel-map.png" in images
    for rel in images:
        img = Image.open(ROOT / "docs" / rel)
        assert img.size[0] <= 1700 and img.size[1] <= 1200
        if any(rel == f"img/build-{name}.png" for name in RENDERS):
            assert img.size == (800, 600), f"{rel} is {img.size}: the renders are 800 x 600"


def test_the_panel_map_labels_each_hole_with_the_configurations_wire(tmp_path):
    lay, cfg = load_layout(), load_config(None)
    for c in lay.controls():
        if c.kind in ("joystick", "button"):
            wires_here = dict(control_wires(cfg, c))
            assert wires_here == {f: g for f, g in c.pins.items()}, c.id
    out = tmp_path / "map.png"
    draw_panel_map(cfg, str(out))
    assert Image.open(out).size == (1400, 1080)


def test_a_broken_box_toml_gets_one_line(tmp_path, capsys):
    bad = tmp_path / "box.toml"
    text = (ROOT / "hardware" / "data" / "box.toml").read_text(encoding="utf-8")
    bad.write_text(text.replace('ring = "ring_16"', 'ring = "ring_20"'), encoding="utf-8")
    with pytest.raises(LayoutError, match=r"ring = 'ring_20' is not a part"):
        load_layout(bad)
    assert main(["scad", "--layout", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "ring_20" in err
    bad.write_text(text.replace('ring = "ring_16"', 'ring = "button_24"'), encoding="utf-8")
    with pytest.raises(LayoutError, match="is a button, not a ring"):
        load_layout(bad)
    bad.write_text("[box\n", encoding="utf-8")
    with pytest.raises(LayoutError, match="not valid TOML"):
        load_layout(bad)
    with pytest.raises(LayoutError):
        load_layout(tmp_path / "missing.toml")


def test_export_without_openscad_says_so_in_one_line(tmp_path):
    env = dict(os.environ, PATH=str(tmp_path))
    proc = subprocess.run([sys.executable, str(ROOT / "enclosure" / "export.py"), "--out", str(tmp_path / "o"),
                           "--layout", str(ROOT / "hardware" / "data" / "box.toml"), "--only", "laser"],
                          capture_output=True, text=True, env=env, timeout=60)
    assert proc.returncode == 1
    assert proc.stderr.strip().count("\n") == 0 and "openscad is not installed" in proc.stderr


def test_the_corner_blocks_stand_on_the_bottom_and_come_out_of_the_boms_strip():
    """Each block sits in an inside corner on the bottom panel (its screw at half a block from the walls) and is
    1 mm short of the top; four of them, with saw cuts, come out of the strip the BOM buys."""
    lay = load_layout()
    T, H = lay.box["material"], lay.box["height"]
    block = lay.data["design"]["corner_block"]
    bom = {name: qty for name, _, qty, _ in lay.bom(sheets=1)}
    strip = next(name for name in bom if "wooden strip" in name)
    size = re.search(r"(\d+) x (\d+) mm square wooden strip, (\d+) cm \(four corner blocks, (\d+) mm each\)", strip)
    assert size, strip
    side, _, length_cm, each = (int(v) for v in size.groups())
    assert side == block, f"the model's blocks are {block} mm, the strip {side} mm"
    assert each == H - 2 * T - 1, f"a block between the bottom and the top is {H - 2 * T - 1} mm, the BOM says {each}"
    assert 4 * each + 3 * 2 <= length_cm * 10
    scad = (ROOT / "enclosure" / "duetbox.scad").read_text(encoding="utf-8")
    assert "corner_block_length = H - 2 * T - 1;" in scad
    assert "[p[0] - corner_block / 2, p[1] - corner_block / 2, T]" in scad  # standing on the bottom panel
    doc = (ROOT / "docs" / "build.md").read_text(encoding="utf-8")
    assert f"{each} mm long" in doc and "flush with the bottom edge" not in doc


def test_a_pi_5_on_the_3_a_inlet_is_refused_in_one_line(tmp_path):
    """A Pi 5 (1.9 A with its cooler) and the rest of the box leave a 3 A inlet nothing for the ring."""
    text = (ROOT / "hardware" / "data" / "box.toml").read_text(encoding="utf-8")
    bad = tmp_path / "box.toml"
    bad.write_text(text.replace('board = "pi4"', 'board = "pi5"'), encoding="utf-8")
    with pytest.raises(LayoutError, match=r'usbc_panel inlet gives 3000 mA .* power_inlet = "usbc_pd"'):
        load_layout(bad)
    good = text.replace('board = "pi4"', 'board = "pi5"').replace('power_inlet = "usbc_panel"',
                                                                   'power_inlet = "usbc_pd"')
    bad.write_text(good, encoding="utf-8")
    assert load_layout(bad).max_brightness() == 1.0
