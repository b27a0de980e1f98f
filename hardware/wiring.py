"""The wiring of a box, derived from a configuration: the table in docs/hardware.md and its diagram.

``python -m hardware.wiring docs/img/wiring.png [--config FILE]`` draws the diagram; ``--table`` prints the
Markdown table instead. A test checks that docs/hardware.md matches the bundled default.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from typing import Any

from hardware.base import SEATS
from hardware.config import ConfigError, HardwareConfig, load_config
from hardware.header import GROUND, PHYSICAL, POWER
from hardware.layout import Control, Layout, load_layout

#: Suggested wire colours: (name, RGB for the diagram), from hardware/data/box.toml, the file the enclosure
#: model is made from too.
_LAYOUT = load_layout()
COLOURS: dict[str, tuple[str, tuple[int, int, int]]] = {role: _LAYOUT.colour(role) for role in _LAYOUT.data["colours"]}

__all__ = ["COLOURS", "GROUND", "I2C_MAX_MM", "LEVER_PORTS", "PHYSICAL", "POWER", "Link", "Wire", "bus_ends",
           "connectors_for", "control_wires", "draw_diagram", "draw_panel_map", "i2c_lengths", "links", "main",
           "markdown_links", "markdown_table", "wires"]

#: The two buses of lever connectors every power wire ends on.
BUS_5V, BUS_GND = "5 V bus", "GND bus"
#: Ports of one lever connector (WAGO 221-415); two of them are used up by each link between two connectors.
LEVER_PORTS = 5
#: The longest I2C bus (header to the splice plus both branches, mm) docs/hardware.md allows at 400 kHz.
I2C_MAX_MM = 1000


@dataclass(frozen=True)
class Wire:
    gpio: int | None  # None for power and ground
    pin: int
    colour: str
    part: str
    role: str  # a COLOURS key


@dataclass(frozen=True)
class Link:
    """A wire that does not start on the header: from one part to another, or onto a bus."""

    start: str
    end: str
    colour: str
    note: str = ""


def _oleds(cfg: HardwareConfig) -> str:
    return " and ".join(f"OLED {s} ({cfg.oleds[s].address:#04x})" for s in SEATS if cfg.oleds[s].port == 1)


def wires(cfg: HardwareConfig, layout: Layout | None = None) -> list[Wire]:
    """Every wire on the header, in table order (GPIO wires, then power and ground)."""
    lay = layout or _LAYOUT
    out: list[Wire] = []
    names = {"up": "joystick up", "down": "joystick down", "left": "joystick left", "right": "joystick right",
             "ok": "OK button", "stop": "STOP button"}
    for seat in SEATS:
        pins = cfg.buttons.seat(seat)
        for name, gpio in pins.button_pins().items():
            out.append(Wire(gpio, PHYSICAL[gpio], COLOURS[name][0], f"seat {seat} {names[name]} (its NO tab)", name))
        if pins.ok_led is not None:
            out.append(Wire(pins.ok_led, PHYSICAL[pins.ok_led], COLOURS["ok_led"][0],
                            f"seat {seat} OK button LED, through its BC337 on the perfboard", "ok_led"))
    out.append(Wire(cfg.buttons.menu, PHYSICAL[cfg.buttons.menu], COLOURS["menu"][0], "MENU button (its NO tab)",
                    "menu"))
    out.append(Wire(2, 3, COLOURS["sda"][0], f"SDA of {_oleds(cfg)}, through the splice", "sda"))
    out.append(Wire(3, 5, COLOURS["scl"][0], f"SCL of {_oleds(cfg)}, through the splice", "scl"))
    out.append(Wire(10, 19, COLOURS["din"][0], "74AHCT125 input 1A (pin 2): the LED ring's data", "din"))
    sp = lay.data["pins"]["shared"]
    for role, what in (("i2s_bclk", "BCLK"), ("i2s_lrclk", "LRC"), ("i2s_dout", "DIN")):
        gpio = int(sp[role])
        out.append(Wire(gpio, PHYSICAL[gpio], COLOURS[role][0], f"amplifier {what} (I2S)", role))
    out.append(Wire(None, 1, COLOURS["3v3"][0], "VCC of both OLEDs, through the splice", "3v3"))
    if lay.part("display").get("power") == "header":
        out.append(Wire(None, 4, COLOURS["5v"][0], "display 5V (the red jumper wire that comes with it)", "5v"))
        out.append(Wire(None, 6, COLOURS["gnd"][0], "display GND (its black jumper wire)", "gnd"))
    out.append(Wire(None, 9, COLOURS["gnd"][0], "GND of both OLEDs, through the splice", "gnd"))
    out.append(Wire(None, 14, COLOURS["gnd"][0], "the GND bus (the switches' return)",
                    "gnd"))
    return out


def links(cfg: HardwareConfig, layout: Layout | None = None) -> list[Link]:
    """Every other wire of the box: the inlet, the buses, the ring, the perfboard, the amplifier, the ground
    chains of the switches and the OLED splice."""
    lay = layout or _LAYOUT
    red, black = COLOURS["5v"][0], COLOURS["gnd"][0]
    inlet = "USB-C inlet" + (" (CC1 and CC2 each to GND through 5.1 kohm)"
                              if lay.data["choice"]["power_inlet"] == "usbc_panel" else " (PD trigger set to 5 V)")
    out = [
        Link(f"{inlet}, +", BUS_5V, red, "0.5 mm2 wire: it carries the whole box"),
        Link(f"{inlet}, -", BUS_GND, black, "0.5 mm2 wire"),
        Link("USB-C pigtail into the Pi's power socket, red", BUS_5V, red, "powers the Pi"),
        Link("USB-C pigtail, black", BUS_GND, black),
        Link("LED ring, 5V pad", BUS_5V, red, "the 1000 uF capacitor across 5V and GND at the ring, + to 5V"),
        Link("LED ring, GND pad", BUS_GND, black),
        Link("74AHCT125 output 1Y (pin 3)", "330 ohm resistor soldered at the ring's DIN pad", COLOURS["din"][0],
             "the resistor sits at the pixel end of the data wire"),
        Link("perfboard 5 V rail: 74AHCT125 VCC (pin 14)", BUS_5V, red),
        Link("perfboard GND rail: 74AHCT125 GND (pin 7), 1OE (pin 1), unused inputs, both BC337 emitters",
             BUS_GND, black),
        Link("amplifier VIN", BUS_5V, red),
        Link("amplifier GND", BUS_GND, black),
        Link("speaker + and -", "amplifier's screw terminal + and -", "red and black"),
    ]
    if lay.part("display").get("power") == "usb":
        out.append(Link("HDMI panel's USB lead (its power and touch)", "a USB port of the Pi", "its own cable",
                        "and its HDMI cable into the Pi's HDMI port (HDMI0)"))
    for seat in SEATS:
        if cfg.buttons.seat(seat).ok_led is not None:
            out.append(Link(f"seat {seat} OK button LED +", BUS_5V, red))
            out.append(Link(f"seat {seat} OK button LED -", f"perfboard: seat {seat}'s BC337 collector",
                            COLOURS["ok_led"][0]))
    for seat in SEATS:
        out.append(Link(f"seat {seat} ground chain: the COM tabs of up, down, left, right, OK and STOP",
                        BUS_GND, black, "one wire with six piggyback terminals, daisy-chained tab to tab"))
    out.append(Link("MENU button, COM tab", BUS_GND, black))
    trunk, branch, total = i2c_lengths(lay)
    out.append(Link("header pins 9, 1, 5, 3 (GND, VCC, SCL, SDA)", "OLED splice, under the display's centre",
                    "black, red, yellow, blue", f"four wires of {trunk // 10 * 10 + 10} mm; the whole I2C bus is "
                    f"about {total // 10 * 10 + 10} mm"))
    for seat in SEATS:
        out.append(Link("OLED splice (GND, VCC, SCL, SDA)", f"OLED {seat}: GND, VCC, SCL, SDA",
                        "black, red, yellow, blue", f"four wires of {branch // 10 * 10 + 10} mm"))
    return out


def bus_ends(cfg: HardwareConfig, layout: Layout | None = None) -> dict[str, int]:
    """How many wire ends each bus takes, from the wire list."""
    ends = {BUS_5V: 0, BUS_GND: 0}
    for link in links(cfg, layout):
        for side in (link.start, link.end):
            if side in ends:
                ends[side] += 1
    ends[BUS_GND] += sum(1 for w in wires(cfg, layout) if w.part.startswith("the GND bus"))
    return ends


def connectors_for(ends: int) -> int:
    """The fewest linked lever connectors that take ``ends`` wires (a link takes one port on each side)."""
    n = 1
    while n * LEVER_PORTS - 2 * (n - 1) < ends:
        n += 1
    return n


def i2c_lengths(layout: Layout) -> tuple[int, int, int]:
    """(the trunk, the longer branch, the whole bus) of the OLEDs' I2C wiring in mm: header to a splice under
    the display's centre, then one branch up to each OLED, routed along the axes with 50 mm of slack per run."""
    box = layout.box
    pi = layout.data["place"]["shared"]["pi"]
    header = (pi[0], pi[1] + 25, box["material"] + layout.part("board")["standoff"] + 10)
    splice = (*layout.data["place"]["shared"]["display"], box["height"] / 2)
    trunk = sum(abs(a - b) for a, b in zip(header, splice, strict=True)) + 50
    branches = []
    for c in layout.controls():
        if c.kind == "oled":
            top = (c.x, c.y, box["height"] - box["material"])
            branches.append(sum(abs(a - b) for a, b in zip(splice, top, strict=True)) + 50)
    return int(trunk), int(max(branches)), int(trunk + sum(branches))


def markdown_table(cfg: HardwareConfig) -> str:
    lines = ["| GPIO | physical pin | wire colour | part |", "|---|---|---|---|"]
    for w in wires(cfg):
        gpio = f"GPIO{w.gpio}" if w.gpio is not None else ("GND" if w.role == "gnd" else w.role.upper())
        lines.append(f"| {gpio} | {w.pin} | {w.colour} | {w.part} |")
    return "\n".join(lines)


def markdown_links(cfg: HardwareConfig) -> str:
    """The table of every wire that does not start on the header, then what each bus takes."""
    lines = ["| from | to | wire | note |", "|---|---|---|---|"]
    for link in links(cfg):
        lines.append(f"| {link.start} | {link.end} | {link.colour} | {link.note} |")
    ends = bus_ends(cfg)
    lines.append("")
    lines.append(" ".join(
        f"The {bus} takes {n} wire ends: {connectors_for(n)} linked {LEVER_PORTS}-way lever connectors "
        f"({connectors_for(n) * LEVER_PORTS - 2 * (connectors_for(n) - 1)} ports once linked)."
        for bus, n in ends.items()))
    return "\n".join(lines)


def _draw_header(d: Any, cfg: HardwareConfig, at: tuple[int, int, int], font: Any, small: Any,
                 inks: tuple[tuple[int, int, int], tuple[int, int, int]]) -> None:
    """The 40-pin header with a labelled wire on every used pin (part of draw_diagram)."""
    from PIL import ImageFont

    ink, soft = inks
    hx, hy, step = at
    by_pin = {w.pin: w for w in wires(cfg)}
    gpio_of = {v: k for k, v in PHYSICAL.items()}
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



def draw_diagram(cfg: HardwareConfig, path: str) -> None:
    """Draw the header with a labelled wire on every used pin and the small circuits around it (PNG)."""
    import math

    from PIL import Image, ImageDraw, ImageFont

    width, height = 1700, 1320
    img = Image.new("RGB", (width, height), (250, 248, 242))
    d = ImageDraw.Draw(img)
    font = ImageFont.load_default(size=17)
    small = ImageFont.load_default(size=14)
    title = ImageFont.load_default(size=26)
    ink, soft = (35, 35, 35), (110, 110, 110)
    d.text((30, 20), "duetbox wiring: the 40-pin header seen from above, USB ports at the bottom", font=title,
           fill=ink)
    d.text((30, 56), "Pins are BCM GPIO numbers in the config, physical numbers on the header. Every button "
           "and joystick switch goes between its GPIO (NO tab) and GND (COM tab); the Pi's pull-ups are used.",
           font=small, fill=soft)

    hx, hy, step = 850, 120, 30
    _draw_header(d, cfg, (hx, hy, step), font, small, (ink, soft))

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
    label(bx, top + 110, "GPIO to the normally-open (NO) tab, COM to the")
    label(bx, top + 128, "seat's ground chain; leave NC free. A joystick")
    label(bx, top + 146, f"is 4 such switches. Debounced in software ({cfg.buttons.debounce_ms:g} ms).")

    # 2. the OK LED
    lx = 450
    label(lx, top, "OK button LED (optional)", font)
    label(lx, top + 30, "5 V bus -> LED + (built-in resistor)")
    label(lx, top + 50, "LED - -> BC337 collector")
    label(lx, top + 70, "BC337 emitter -> GND")
    label(lx, top + 90, "GPIO (e.g. 12) -> 1 kohm -> base,")
    label(lx, top + 110, "10 kohm base -> GND (off at boot)")
    label(lx, top + 140, "A GPIO gives 3.3 V and a few mA only:", fill=soft)
    label(lx, top + 158, "never drive a 5 V or 12 V button LED directly.", fill=soft)

    # 3. the OLEDs
    ox = 860
    label(ox, top, "The two OLEDs (one I2C bus, spliced)", font)
    for i, seat in enumerate(SEATS):
        o = cfg.oleds[seat]
        y = top + 34 + i * 62
        d.rounded_rectangle((ox, y, ox + 120, y + 52), 6, fill=(10, 10, 14))
        label(ox + 8, y + 6, f"seat {seat}", fill=(190, 225, 255))
        label(ox + 8, y + 26, f"{o.address:#04x}", fill=(190, 225, 255))
        for j, (role, name) in enumerate((("gnd", "GND"), ("3v3", "VCC"), ("scl", "SCL"), ("sda", "SDA"))):
            yy = y + 6 + j * 12
            d.line((ox + 120, yy, ox + 170, yy), fill=COLOURS[role][1], width=3)
            label(ox + 175, yy - 8, f"{name} -> splice -> pin {({'gnd': 9, '3v3': 1, 'scl': 5, 'sda': 3})[role]}")
    label(ox, top + 166, "seat B's module: address jumper moved to 0x3D (0x7A)", fill=soft)

    # 4. the ring
    rx = 1280
    label(rx, top, f"The LED ring ({cfg.ring.count} x WS2812B)", font)
    label(rx, top + 30, "GPIO10 (pin 19) -> 74AHCT125 1A")
    label(rx, top + 50, "1Y -> wire -> 330 ohm at the ring's DIN pad")
    label(rx, top + 70, "74AHCT125: VCC 5 V bus, GND, 1OE to GND")
    label(rx, top + 90, "ring 5V and GND from the buses,")
    label(rx, top + 110, "1000 uF across them at the ring")
    cx, cy, r = rx + 150, top + 200, 44
    for k in range(cfg.ring.count):
        angle = 2 * math.pi * k / cfg.ring.count
        px, py = cx + r * math.sin(angle), cy - r * math.cos(angle)
        fill = (255, 80, 50) if k == 0 else (60, 60, 60)
        d.ellipse((px - 5, py - 5, px + 5, py + 5), fill=fill)
    label(cx + r + 16, cy - 16, "red: mount the ring so this LED", fill=soft)
    label(cx + r + 16, cy + 2, f"(number {cfg.ring.first_led}) points to seat B", fill=soft)

    # second row: power and sound
    top2 = top + 270
    d.line((30, top2 - 20, width - 30, top2 - 20), fill=(200, 200, 200), width=2)
    inlet = _LAYOUT.part("power_inlet")
    label(40, top2, f"Power: the 5 V and GND buses ({inlet['supply_ma'] / 1000:g} A inlet)", font)
    d.rectangle((40, top2 + 36, 200, top2 + 96), outline=ink, width=2)
    label(48, top2 + 44, "USB-C inlet")
    label(48, top2 + 64, "CC1, CC2: 5.1 kohm" if _LAYOUT.data["choice"]["power_inlet"] == "usbc_panel"
          else "PD trigger, 5 V")
    for i, (bus, colour) in enumerate(((BUS_5V, COLOURS["5v"][1]), (BUS_GND, (20, 20, 20)))):
        y = top2 + 50 + i * 30
        d.line((200, y, 330, y), fill=colour, width=6)
        label(340, y - 9, bus, font)
    ends = bus_ends(cfg)
    label(40, top2 + 110, f"5 V bus: inlet, Pi (USB-C pigtail), ring, perfboard, amplifier, OK LEDs "
          f"({ends[BUS_5V]} ends, {connectors_for(ends[BUS_5V])} lever connectors)")
    label(40, top2 + 130, f"GND bus: the same, the two seats' ground chains, MENU, header pin 14 "
          f"({ends[BUS_GND]} ends, {connectors_for(ends[BUS_GND])} lever connectors)")
    if _LAYOUT.part("display").get("power") == "header":
        label(40, top2 + 150, "Official display: its red jumper to pin 4 (5V), its black one to pin 6 (GND)",
              fill=(170, 30, 30))
    sx = 860
    sp = _LAYOUT.data["pins"]["shared"]
    label(sx, top2, "Sound: MAX98357A I2S amplifier and speaker", font)
    for i, (role, name) in enumerate((("i2s_bclk", "BCLK"), ("i2s_lrclk", "LRC"), ("i2s_dout", "DIN"))):
        gpio = int(sp[role])
        label(sx, top2 + 30 + i * 20, f"GPIO{gpio} (pin {PHYSICAL[gpio]}) -> {name}")
    label(sx, top2 + 90, "VIN -> 5 V bus, GND -> GND bus; GAIN and SD unconnected")
    label(sx, top2 + 110, "speaker (8 ohm) on the + and - screw terminal")
    label(sx, top2 + 130, "dtoverlay=max98357a,no-sdmode (the installer sets it)", fill=soft)

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
    parser.add_argument("--links", action="store_true", help="print the table of every other wire")
    parser.add_argument("--panel", metavar="PNG", help="also draw the top panel's holes with their wires")
    args = parser.parse_args(argv)
    try:
        cfg = load_config(args.config)
    except ConfigError as exc:
        print(f"wiring: {exc}", file=sys.stderr)
        return 2
    if args.table:
        print(markdown_table(cfg))
    if args.links:
        print(markdown_links(cfg))
    if args.output:
        draw_diagram(cfg, args.output)
    if args.panel:
        draw_panel_map(cfg, args.panel)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
