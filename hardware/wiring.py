"""The wiring of a box, derived from a configuration: the table in docs/hardware.md and its diagram.

``python -m hardware.wiring docs/img/wiring.png [--config FILE]`` draws the diagram; ``--table`` prints the
Markdown table instead. A test checks that docs/hardware.md matches the bundled default.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass

from hardware.base import SEATS
from hardware.config import ConfigError, HardwareConfig, load_config
from hardware.header import GROUND, PHYSICAL, POWER
from hardware.layout import Control, Layout, load_layout

#: Suggested wire colours: (name, RGB for the diagram), from hardware/data/box.toml, the file the enclosure
#: model is made from too.
_LAYOUT = load_layout()
COLOURS: dict[str, tuple[str, tuple[int, int, int]]] = {role: _LAYOUT.colour(role) for role in _LAYOUT.data["colours"]}

__all__ = ["COLOURS", "GROUND", "PHYSICAL", "POWER", "Wire", "control_wires", "draw_diagram", "draw_panel_map", "main",
           "markdown_table", "wires"]


@dataclass(frozen=True)
class Wire:
    gpio: int | None  # None for power and ground
    pin: int
    colour: str
    part: str
    role: str  # a COLOURS key


def wires(cfg: HardwareConfig) -> list[Wire]:
    """Every signal wire from the header, in table order (GPIO wires, then the buses)."""
    out: list[Wire] = []
    names = {"up": "joystick up", "down": "joystick down", "left": "joystick left", "right": "joystick right",
             "ok": "OK button", "stop": "STOP button"}
    for seat in SEATS:
        pins = cfg.buttons.seat(seat)
        for name, gpio in pins.button_pins().items():
            out.append(Wire(gpio, PHYSICAL[gpio], COLOURS[name][0], f"seat {seat} {names[name]}", name))
        if pins.ok_led is not None:
            out.append(Wire(pins.ok_led, PHYSICAL[pins.ok_led], COLOURS["ok_led"][0],
                            f"seat {seat} OK button LED (through a transistor)", "ok_led"))
    out.append(Wire(cfg.buttons.menu, PHYSICAL[cfg.buttons.menu], COLOURS["menu"][0], "MENU button", "menu"))
    oleds = " and ".join(f"OLED {s} ({cfg.oleds[s].address:#04x})" for s in SEATS if cfg.oleds[s].port == 1)
    out.append(Wire(2, 3, COLOURS["sda"][0], f"SDA of {oleds}", "sda"))
    out.append(Wire(3, 5, COLOURS["scl"][0], f"SCL of {oleds}", "scl"))
    out.append(Wire(10, 19, COLOURS["din"][0], "LED ring DIN, through the level shifter", "din"))
    out.append(Wire(None, 1, COLOURS["3v3"][0], "VCC of both OLEDs", "3v3"))
    out.append(Wire(None, 2, COLOURS["5v"][0], "level shifter VCC (the ring takes 5 V from the supply)",
                    "5v"))
    out.append(Wire(None, 9, COLOURS["gnd"][0], "GND of the OLEDs, level shifter, ring and every button",
                    "gnd"))
    return out


def markdown_table(cfg: HardwareConfig) -> str:
    lines = ["| GPIO | physical pin | wire colour | part |", "|---|---|---|---|"]
    for w in wires(cfg):
        gpio = f"GPIO{w.gpio}" if w.gpio is not None else ("GND" if w.role == "gnd" else w.role.upper())
        lines.append(f"| {gpio} | {w.pin} | {w.colour} | {w.part} |")
    return "\n".join(lines)


def draw_diagram(cfg: HardwareConfig, path: str) -> None:
    """Draw the header with a labelled wire on every used pin and the small circuits around it (PNG)."""
    import math

    from PIL import Image, ImageDraw, ImageFont

    width, height = 1700, 1130
    img = Image.new("RGB", (width, height), (250, 248, 242))
    d = ImageDraw.Draw(img)
    font = ImageFont.load_default(size=17)
    small = ImageFont.load_default(size=14)
    title = ImageFont.load_default(size=26)
    ink, soft = (35, 35, 35), (110, 110, 110)
    d.text((30, 20), "duetbox wiring: the 40-pin header seen from above, USB ports at the bottom", font=title,
           fill=ink)
    d.text((30, 56), "Pins are BCM GPIO numbers in the config, physical numbers on the header. Every button "
           "and joystick switch goes between its GPIO and GND (the Pi's pull-ups are used).", font=small,
           fill=soft)

    by_pin = {w.pin: w for w in wires(cfg)}
    gpio_of = {v: k for k, v in PHYSICAL.items()}
    hx, hy, step = 850, 120, 30
    d.rounded_rectangle((hx - 45, hy - 25, hx + 45, hy + 20 * step), 10, fill=(30, 110, 60))
    for pin in range(1, 41):
        row, right = (pin - 1) // 2, pin % 2 == 0
        x, y = hx + (18 if right else -18), hy + row * step + 2
        wire = by_pin.get(pin)
        if wire is None and pin in GROUND:
            wire = Wire(None, pin, "black", "GND", "gnd")
        name = POWER.get(pin) or ("GND" if pin in GROUND else f"GPIO{gpio_of[pin]}" if pin in gpio_of else "")
        used = wire is not None
        d.rectangle((x - 8, y - 8, x + 8, y + 8), fill=(225, 185, 60) if used else (140, 140, 140),
                    outline=(20, 60, 30))
        d.text((x - 6 + (1 if pin < 10 else -3), y - 7), str(pin), font=ImageFont.load_default(size=11),
               fill=(0, 0, 0))
        end = hx + 330 if right else hx - 330
        tag_x = hx + 60 if right else hx - 60
        tw = d.textlength(name, font=small)
        d.text((tag_x, y - 9) if right else (tag_x - tw, y - 9), name, font=small, fill=ink if used else soft)
        if wire is None:
            continue
        colour = COLOURS[wire.role][1]
        a, b = (x + (9 if right else -9), y), (end, y)
        line_from = (tag_x + tw + 8, y) if right else (tag_x - tw - 8, y)
        d.line((a, (tag_x - 4 if right else tag_x + 4, y)), fill=colour, width=3)
        if sum(colour) > 600:
            d.line((line_from, b), fill=(0, 0, 0), width=7)
        d.line((line_from, b), fill=colour, width=5)
        text = wire.part
        pw = d.textlength(text, font=font)
        d.text((end + 10, y - 10) if right else (end - 10 - pw, y - 10), text, font=font, fill=ink)

    # small circuits under the header
    top = hy + 20 * step + 60
    d.line((30, top - 25, width - 30, top - 25), fill=(200, 200, 200), width=2)

    def label(x: int, y: int, text: str, f: object = small, fill: tuple[int, int, int] = ink) -> None:
        d.text((x, y), text, font=f, fill=fill)  # type: ignore[arg-type]

    def switch(x: int, y: int) -> None:
        d.ellipse((x - 4, y - 4, x + 4, y + 4), outline=ink, width=2)
        d.ellipse((x + 36, y - 4, x + 44, y + 4), outline=ink, width=2)
        d.line((x + 4, y, x + 38, y - 16), fill=ink, width=3)

    def ground(x: int, y: int) -> None:
        for i, half in enumerate((12, 8, 4)):
            d.line((x - half, y + i * 5, x + half, y + i * 5), fill=ink, width=2)

    # 1. a switch
    bx = 40
    label(bx, top, "Each switch (joystick, OK, STOP, MENU)", font)
    d.line((bx + 10, top + 60, bx + 90, top + 60), fill=COLOURS["ok"][1], width=5)
    label(bx, top + 34, "GPIO (e.g. 5)")
    switch(bx + 95, top + 60)
    d.line((bx + 144, top + 60, bx + 230, top + 60), fill=(0, 0, 0), width=5)
    d.line((bx + 230, top + 60, bx + 230, top + 80), fill=(0, 0, 0), width=3)
    ground(bx + 230, top + 82)
    label(bx, top + 110, "common (COM) and normally-open (NO) tabs;")
    label(bx, top + 128, "leave NC free. A joystick is 4 such switches.")
    label(bx, top + 146, f"Debounced in software ({cfg.buttons.debounce_ms:g} ms).")

    # 2. the OK LED
    lx = 450
    label(lx, top, "OK button LED (optional)", font)
    label(lx, top + 30, "5 V -> LED + (built-in resistor)")
    label(lx, top + 50, "LED - -> 2N7000 drain")
    label(lx, top + 70, "2N7000 source -> GND")
    label(lx, top + 90, "GPIO (e.g. 12) -> 220 ohm -> gate,")
    label(lx, top + 110, "100 kohm gate -> GND")
    label(lx, top + 140, "A GPIO gives 3.3 V and a few mA only:", fill=soft)
    label(lx, top + 158, "never drive a 5 V or 12 V button LED directly.", fill=soft)

    # 3. the OLEDs
    ox = 860
    label(ox, top, "The two OLEDs (one I2C bus)", font)
    for i, seat in enumerate(SEATS):
        o = cfg.oleds[seat]
        y = top + 34 + i * 62
        d.rounded_rectangle((ox, y, ox + 120, y + 52), 6, fill=(10, 10, 14))
        label(ox + 8, y + 6, f"seat {seat}", fill=(190, 225, 255))
        label(ox + 8, y + 26, f"{o.address:#04x}", fill=(190, 225, 255))
        for j, (role, name) in enumerate((("gnd", "GND"), ("3v3", "VCC"), ("scl", "SCL"), ("sda", "SDA"))):
            yy = y + 6 + j * 12
            d.line((ox + 120, yy, ox + 170, yy), fill=COLOURS[role][1], width=3)
            label(ox + 175, yy - 8, f"{name} -> pin {({'gnd': 9, '3v3': 1, 'scl': 5, 'sda': 3})[role]}")
    label(ox, top + 166, "seat B's module: address jumper moved to 0x3D (0x7A)", fill=soft)

    # 4. the ring
    rx = 1280
    label(rx, top, f"The LED ring ({cfg.ring.count} x WS2812B)", font)
    label(rx, top + 30, "GPIO10 (pin 19) -> 74AHCT125 1A")
    label(rx, top + 50, "1Y -> 330 ohm -> ring DIN")
    label(rx, top + 70, "74AHCT125: VCC 5 V, GND, 1OE to GND")
    label(rx, top + 90, "ring 5V and GND from the 5 V supply,")
    label(rx, top + 110, "1000 uF across them, GND common with the Pi")
    cx, cy, r = rx + 150, top + 200, 44
    for k in range(cfg.ring.count):
        angle = 2 * math.pi * k / cfg.ring.count
        px, py = cx + r * math.sin(angle), cy - r * math.cos(angle)
        fill = (255, 80, 50) if k == 0 else (60, 60, 60)
        d.ellipse((px - 5, py - 5, px + 5, py + 5), fill=fill)
    label(cx + r + 16, cy - 16, "red: mount the ring so this LED", fill=soft)
    label(cx + r + 16, cy + 2, f"(number {cfg.ring.first_led}) points to seat B", fill=soft)

    d.text((30, height - 34), "Generated by `python -m hardware.wiring docs/img/wiring.png` from the bundled "
           "configuration; wire colours are suggestions.", font=small, fill=soft)
    img.save(path)


def control_wires(cfg: HardwareConfig, control: Control) -> list[tuple[str, int]]:
    """(function, GPIO) of each switch wire of a control on the panel, with the configuration's pins."""
    if control.seat is not None:
        pins = cfg.buttons.seat(control.seat)  # type: ignore[arg-type]
        table = pins.button_pins() | ({"ok_led": pins.ok_led} if pins.ok_led is not None else {})
        return [(f, table[f]) for f in control.pins if f in table]
    if "menu" in control.pins:
        return [("menu", cfg.buttons.menu)]
    return [(f, g) for f, g in control.pins.items()]


def _label_lines(cfg: HardwareConfig, c: Control) -> list[tuple[str, tuple[int, int, int] | None]]:
    """A control's label on the panel map: its name, then one line per wire (with the wire's colour)."""
    name = {"joystick": "joystick", "oled": "OLED", "ring": "LED ring"}.get(c.kind, c.id.split(".")[-1].upper())
    lines: list[tuple[str, tuple[int, int, int] | None]] = [((f"seat {c.seat} " if c.seat else "") + name, None)]
    if c.kind == "oled":
        o = cfg.oleds[c.seat]  # type: ignore[index]
        lines += [(f"address {o.address:#04x}", None), ("SDA pin 3, SCL pin 5", COLOURS["sda"][1]),
                  ("VCC pin 1, GND", COLOURS["3v3"][1])]
    elif c.kind == "ring":
        lines.append(("DIN from the level shifter", COLOURS["din"][1]))
        lines.append(("(GPIO10, pin 19)", None))
    else:
        for function, gpio in control_wires(cfg, c):
            what = {"ok": "", "stop": "", "menu": "", "ok_led": "LED: "}.get(function, f"{function}: ")
            lines.append((f"{what}GPIO{gpio}, pin {PHYSICAL[gpio]}, {COLOURS[function][0]}",
                          COLOURS[function][1]))
    return lines


def draw_panel_map(cfg: HardwareConfig, path: str, layout: Layout | None = None) -> None:
    """The top panel seen from below (as it lies while you wire it), every hole at its place from box.toml,
    labelled with its GPIO, header pin and wire colour from the configuration (PNG)."""
    from PIL import Image, ImageDraw, ImageFont

    lay = layout or _LAYOUT
    W, D = lay.box["width"], lay.box["depth"]
    width, height, sc, x0, y0 = 1400, 1080, 2.2, 260, 250
    img = Image.new("RGB", (width, height), (250, 248, 242))
    d = ImageDraw.Draw(img)
    font = ImageFont.load_default(size=15)
    small = ImageFont.load_default(size=13)
    title = ImageFont.load_default(size=24)
    ink, soft, wood, hole = (35, 35, 35), (110, 110, 110), (226, 200, 160), (250, 248, 242)

    def at(x: float, y: float) -> tuple[float, float]:  # seen from below: x mirrored, seat A's edge at the bottom
        return x0 + (W - x) * sc, y0 + (D - y) * sc

    d.text((30, 20), "The top panel seen from below, seat A's edge towards you: the wire of each hole",
           font=title, fill=ink)
    d.text((30, 56), "Holes and places from hardware/data/box.toml; GPIO, header pin and wire colour from the "
           "configuration (the same as the wiring table). Every switch also has a wire from its NO tab to GND.",
           font=small, fill=soft)
    (ax, ay), (bx, by) = at(W, D), at(0, 0)
    d.rectangle((ax, ay, bx, by), fill=wood, outline=(150, 120, 80), width=3)
    d.text((ax + 8, by - 24), "seat A's edge (front wall)", font=small, fill=ink)
    d.text((ax + 8, ay + 8), "seat B's edge (back wall)", font=small, fill=ink)

    def draw_label(x: float, y: float, lines: list[tuple[str, tuple[int, int, int] | None]]) -> None:
        for i, (text, colour) in enumerate(lines):
            yy = y + i * 18
            if colour is not None:
                d.rectangle((x, yy + 3, x + 12, yy + 15), fill=colour, outline=ink)
            d.text((x + (18 if colour is not None else 0), yy), text, font=font if i == 0 else small, fill=ink)

    bands: dict[str, list[tuple[float, float, Control]]] = {"A": [], "B": [], "left": [], "right": []}
    for c in lay.controls():
        part = lay.data["parts"][c.part]
        cx, cy = at(c.x, c.y)
        if c.kind == "display":
            w, h = (v * sc / 2 for v in part["window"])
            d.rectangle((cx - w, cy - h, cx + w, cy + h), fill=hole, outline=ink, width=2)
            d.text((cx - 52, cy - 8), "display window", font=font, fill=soft)
            continue
        if c.kind == "oled":
            d.rectangle((cx - 8 * sc, cy - 4 * sc, cx + 8 * sc, cy + 4 * sc), fill=hole, outline=ink)
        else:
            r = sc / 2 * float(part.get("shaft_hole_d", part.get("hole_d", part.get("outer_d", 0))))
            d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=hole, outline=ink, width=2)
        if c.kind == "joystick":
            pw, ph = (v * sc / 2 for v in part["plate"])
            d.rectangle((cx - pw, cy - ph, cx + pw, cy + ph), outline=soft, width=1)
        band = c.seat or ("left" if cx < (ax + bx) / 2 else "right")
        bands[band].append((cx, cy, c))
    for band, items in bands.items():
        items.sort(key=lambda t: t[0] if band in SEATS else t[1])
        for i, (cx, cy, c) in enumerate(items):
            lines = _label_lines(cfg, c)
            if band in SEATS:
                slot = (bx - ax) / len(items)
                lx = ax + i * slot + 6
                ly = by + 16 if band == "A" else ay - 16 - 18 * len(lines)
                d.line((cx, cy, lx + 40, by + 12 if band == "A" else ay - 12), fill=soft, width=1)
            else:
                lx = 12 if band == "left" else bx + 12
                ly = cy - 9 * len(lines) + i * 40
                d.line((cx, cy, ax - 8 if band == "left" else bx + 8, ly + 9), fill=soft, width=1)
            draw_label(lx, ly, lines)
    d.text((30, height - 30), "Generated by `python -m hardware.wiring --panel FILE` (make enclosure); "
           "wire colours are suggestions.", font=small, fill=soft)
    img.save(path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m hardware.wiring", description=__doc__.splitlines()[0])
    parser.add_argument("output", nargs="?", help="PNG file to write")
    parser.add_argument("--config", help="hardware configuration (default: the bundled default)")
    parser.add_argument("--table", action="store_true", help="print the Markdown wiring table")
    parser.add_argument("--panel", metavar="PNG", help="also draw the top panel's holes with their wires")
    args = parser.parse_args(argv)
    try:
        cfg = load_config(args.config)
    except ConfigError as exc:
        print(f"wiring: {exc}", file=sys.stderr)
        return 2
    if args.table:
        print(markdown_table(cfg))
    if args.output:
        draw_diagram(cfg, args.output)
    if args.panel:
        draw_panel_map(cfg, args.panel)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
