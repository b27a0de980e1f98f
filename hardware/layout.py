"""The box's physical layout: parts, sizes, positions and pins, read from ``hardware/data/box.toml``.

One file feeds the enclosure model (``python -m hardware.layout scad`` writes ``enclosure/params.scad``), the
wiring diagram and table (:mod:`hardware.wiring` takes its wire colours from here) and the bill of materials in
docs/build.md (``python -m hardware.layout bom``). A test checks that the pins here are the bundled
configuration's pins, so a hole on the panel and the wire in the diagram always name the same GPIO.
"""

from __future__ import annotations

import argparse
import sys
import tomllib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from hardware.base import DIRECTIONS, SEATS
from hardware.cutplan import plan
from hardware.header import PHYSICAL

#: What [choice] must name, and the kind of part each choice must be.
CHOICES: dict[str, str] = {
    "display": "display", "ok_button": "button", "stop_button": "button", "menu_button": "button",
    "ring": "ring", "oled": "oled", "joystick": "joystick", "board": "board", "power_inlet": "inlet",
    "amp": "amp", "speaker": "speaker",
}
#: How many of each choice one box holds.
COUNTS: dict[str, int] = {
    "display": 1, "ok_button": 2, "stop_button": 2, "menu_button": 1, "ring": 1, "oled": 2, "joystick": 2,
    "board": 1, "power_inlet": 1, "amp": 1, "speaker": 1,
}


#: How the BOM names a part that plays a role (the same button can be OK, STOP or MENU).
ROLES: dict[str, str] = {
    "ok_button": "OK (green, with a 5 V LED if you want it to light)", "stop_button": "STOP (red)",
    "menu_button": "MENU (any colour)", "oled": "one per seat", "joystick": "one per seat",
}


@dataclass(frozen=True)
class Load:
    """One line of the 5 V power budget: ``qty`` parts drawing ``typical`` and at most ``peak`` mA each."""

    name: str
    qty: int
    typical: int
    peak: int


class LayoutError(ValueError):
    """box.toml is unreadable or inconsistent (one line saying what)."""


@dataclass(frozen=True)
class Control:
    """Something on the top panel a player sees or touches."""

    id: str  # "A.ok", "B.joystick", "menu", "ring", "display"
    seat: str | None  # "A", "B" or None for shared parts
    kind: str  # joystick, button, oled, ring, display
    part: str  # key of [parts.*]
    x: float
    y: float
    rotation: int  # degrees about z: 0 faces seat A, 180 faces seat B
    pins: dict[str, int]  # function -> BCM GPIO


@dataclass(frozen=True)
class Layout:
    data: dict[str, Any]

    @property
    def box(self) -> dict[str, Any]:
        return dict(self.data["box"])

    def part(self, choice: str) -> dict[str, Any]:
        """The part chosen for ``choice`` (a [choice] key)."""
        return dict(self.data["parts"][self.data["choice"][choice]])

    def colour(self, role: str) -> tuple[str, tuple[int, int, int]]:
        name, rgb = self.data["colours"][role]
        return str(name), (int(rgb[0]), int(rgb[1]), int(rgb[2]))

    def seat_pins(self, seat: str) -> dict[str, int]:
        return {k: int(v) for k, v in self.data["pins"][seat].items()}

    def controls(self) -> list[Control]:
        """Every control with its absolute place; seat B's are seat A's turned a half turn about the centre."""
        w, d = self.box["width"], self.box["depth"]
        shared = self.data["place"]["shared"]
        out: list[Control] = []
        for seat in SEATS:
            pins = self.seat_pins(seat)
            for name, (x, y) in self.data["place"]["A"].items():
                if seat == "B":
                    x, y = w - x, d - y
                rot = 0 if seat == "A" else 180
                table: dict[str, tuple[str, str, dict[str, int]]] = {
                    "joystick": ("joystick", "joystick", {k: pins[k] for k in DIRECTIONS}),
                    "ok": ("button", "ok_button", {"ok": pins["ok"]} | (
                        {"ok_led": pins["ok_led"]} if "ok_led" in pins else {})),
                    "stop": ("button", "stop_button", {"stop": pins["stop"]}),
                    "oled": ("oled", "oled", {"sda": self.data["pins"]["shared"]["sda"],
                                              "scl": self.data["pins"]["shared"]["scl"]}),
                }
                kind, choice, p = table[name]
                out.append(Control(f"{seat}.{name}", seat, kind, self.data["choice"][choice], float(x), float(y),
                                   rot, p))
        sp = self.data["pins"]["shared"]
        for name, kind, choice, p in (
            ("menu", "button", "menu_button", {"menu": sp["menu"]}),
            ("ring", "ring", "ring", {"din": sp["ring_din"]}),
            ("display", "display", "display", {}),
        ):
            x, y = shared[name]
            out.append(Control(name, None, kind, self.data["choice"][choice], float(x), float(y), 0, p))
        return out

    def with_choice(self, **choices: str) -> Layout:
        """The same box built with other parts (e.g. ``board="pi5", power_inlet="usbc_pd"``)."""
        return Layout({**self.data, "choice": {**self.data["choice"], **choices}})

    # ------------------------------------------------------------ power

    def loads(self) -> list[Load]:
        """Everything on the 5 V supply but the LED ring (which gets what is left)."""
        out = []
        for choice in ("board", "display", "oled", "amp"):
            p = self.part(choice)
            typical, peak = p["current"]
            out.append(Load(str(p["name"]).split(",")[0], COUNTS[choice], int(typical), int(peak)))
        for name, qty, (typical, peak) in self.data["power"]["extra"]:
            out.append(Load(str(name), int(qty), int(typical), int(peak)))
        return out

    @property
    def supply_ma(self) -> int:
        return int(self.part("power_inlet")["supply_ma"])

    @property
    def others_ma(self) -> int:
        """The other parts' peaks together, rounded up to 100 mA."""
        total = sum(load.qty * load.peak for load in self.loads())
        return -(-total // 100) * 100

    @property
    def led_ma(self) -> int:
        return int(self.data["power"]["led_ma"])

    def max_brightness(self, count: int | None = None) -> float:
        """The highest ring brightness the supply carries with every other part at its peak (2 decimals, down)."""
        leds = count if count is not None else int(self.part("ring")["leds"])
        return min(1.0, max(0.0, int(100 * (self.supply_ma - self.others_ma) / (leds * self.led_ma)) / 100))

    def bom(self, sheets: int | None = None) -> list[tuple[str, str, int, float]]:
        """(name, part number, quantity, price of one) for every part of one box; the sheets of plywood come
        from the cutting plan (``sheets`` overrides it)."""
        rows: list[tuple[str, str, int, float]] = []
        for choice, n in COUNTS.items():
            p = self.data["parts"][self.data["choice"][choice]]
            name = f"{ROLES[choice]}: {p['name']}" if choice in ROLES else str(p["name"])
            rows.append((name, str(p["number"]), n, float(p["price"])))
        if sheets is None:
            sheets = len(plan(self))
        w, h = self.box["sheet"]
        rows.append((f"{self.box['material']:g} mm plywood or acrylic, {w:g} x {h:g} mm sheet (the cutting plan: "
                     f"enclosure/out/laser/plan-{w:g}x{h:g}-*.svg)", "poplar plywood 3 mm", sheets,
                     float(self.box["sheet_price"])))
        for name, number, qty, price in self.data["bom"]["extra"]:
            rows.append((str(name), str(number), int(qty), float(price)))
        return rows


def _check(data: dict[str, Any]) -> None:
    for section in ("box", "design", "choice", "place", "pins", "colours", "parts", "power", "bom"):
        if section not in data:
            raise LayoutError(f"box.toml: missing section [{section}]")
    _check_choices(data)
    _check_numbers(data)
    _check_power(data)


def _check_choices(data: dict[str, Any]) -> None:
    for choice, kind in CHOICES.items():
        key = data["choice"].get(choice)
        if key is None:
            raise LayoutError(f"box.toml: [choice] {choice} is missing")
        part = data["parts"].get(key)
        if part is None:
            raise LayoutError(f"box.toml: [choice] {choice} = {key!r} is not a part (no [parts.{key}])")
        if part.get("kind") != kind:
            raise LayoutError(f"box.toml: [choice] {choice} = {key!r} is a {part.get('kind')}, not a {kind}")
    for seat in SEATS:
        for name in (*DIRECTIONS, "ok", "stop"):
            gpio = data["pins"].get(seat, {}).get(name)
            if gpio not in PHYSICAL:
                raise LayoutError(f"box.toml: [pins.{seat}] {name} = {gpio!r} is not a GPIO of the header")


def _check_numbers(data: dict[str, Any]) -> None:
    for key in ("width", "depth", "height", "material", "kerf", "finger"):
        value = data["box"].get(key)
        if not isinstance(value, int | float) or isinstance(value, bool) or value < 0:
            raise LayoutError(f"box.toml: [box] {key} must be a positive number, got {value!r}")


def _check_power(data: dict[str, Any]) -> None:
    lay = Layout(data)
    leds = int(lay.part("ring")["leds"])
    if lay.supply_ma - lay.others_ma < leds * lay.led_ma * 0.25:
        raise LayoutError(
            f"box.toml: the {data['choice']['power_inlet']} inlet gives {lay.supply_ma} mA and the other parts peak "
            f"at {lay.others_ma} mA: too little for the ring even at brightness 0.25 "
            f"({leds * lay.led_ma // 4} mA); a Pi 5 needs power_inlet = \"usbc_pd\" (docs/hardware.md, Power)")


def load_layout(path: str | Path | None = None) -> Layout:
    """Read box.toml (the bundled one when ``path`` is None); raises LayoutError with one line."""
    try:
        if path is None:
            text = resources.files("hardware").joinpath("data/box.toml").read_text(encoding="utf-8")
        else:
            text = Path(path).read_text(encoding="utf-8")
        data = tomllib.loads(text)
    except OSError as exc:
        raise LayoutError(f"{path}: {exc.strerror or exc}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise LayoutError(f"{path or 'box.toml'}: not valid TOML: {exc}") from None
    _check(data)
    return Layout(data)


# ---------------------------------------------------------------- OpenSCAD parameters

def _scad(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return f"{value:g}"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_scad(v) for v in value) + "]"
    raise TypeError(f"cannot write {value!r} to OpenSCAD")


def pin_label(pins: dict[str, int]) -> str:
    """'ok GPIO5 (pin 29), ok_led GPIO12 (pin 32)'."""
    return ", ".join(f"{name} GPIO{gpio} (pin {PHYSICAL[gpio]})" for name, gpio in pins.items())


def scad_params(layout: Layout) -> str:
    """enclosure/params.scad: every size the model uses, named after the parts of the BOM."""
    lines = [
        "// Generated by `python -m hardware.layout scad` from hardware/data/box.toml: do not edit by hand,",
        "// change box.toml and run `make enclosure` (a test checks that this file is up to date).",
        "",
    ]

    def put(name: str, value: Any, comment: str = "") -> None:
        lines.append(f"{name} = {_scad(value)};" + (f"  // {comment}" if comment else ""))

    box = layout.box
    put("box_w", box["width"], "outer width (x, along a seat's edge)")
    put("box_d", box["depth"], "outer depth (y, seat A to seat B)")
    put("box_h", box["height"], "outer height")
    put("T", box["material"], "sheet thickness")
    put("kerf", box["kerf"], "laser kerf: panels are offset outwards by kerf/2")
    put("finger", box["finger"], "target finger length")
    put("oled_tilt", box["oled_tilt"], "degrees from flat, towards its seat")
    put("print_bed", box["print_bed"], "the printer's bed (x, y)")
    put("print_clearance", box["print_clearance"], "gap in the dovetails between printed tiles")
    for key, value in layout.data["design"].items():
        put(key, value)
    lines.append("")
    for choice in CHOICES:
        part = layout.part(choice)
        prefix = choice.removesuffix("_button") if choice.endswith("_button") else choice
        put(f"{prefix}_part", layout.data["choice"][choice], str(part["name"]))
        for key, value in part.items():
            if key in ("kind", "name", "number", "price"):
                continue
            put(f"{prefix}_{key}", value)
        lines.append("")
    lines.append("// Every control on the top panel: [id, seat, kind, part, x, y, rotation, pins, functions, hole_d]")
    lines.append("// (seat B's places are seat A's turned a half turn about the panel's centre).")
    lines.append("controls = [")
    for c in layout.controls():
        hole_d = layout.data["parts"][c.part].get("hole_d", 0) if c.kind == "button" else 0
        row = [c.id, c.seat or "", c.kind, c.part, c.x, c.y, c.rotation, pin_label(c.pins), list(c.pins), hole_d]
        lines.append(f"    {_scad(row)},")
    lines.append("];")
    shared = layout.data["place"]["shared"]
    put("pi_pos", shared["pi"], "centre of the Pi on the bottom panel")
    put("power_inlet_pos", shared["power_inlet"], "on the right side panel: [y, height]")
    put("speaker_pos", shared["speaker"], "the speaker's grille on the left side panel: [y, height]")
    put("amp_pos", shared["amp"], "the amplifier board on the bottom panel")
    lines.append("// Suggested wire colours: [function, RGB 0..1] (the same as the wiring diagram's).")
    colours = [[role, [round(c / 255, 3) for c in layout.colour(role)[1]]] for role in layout.data["colours"]]
    put("wire_colours", colours)
    return "\n".join(lines) + "\n"


def power_markdown(layout: Layout) -> str:
    """The power budget table of docs/hardware.md, for this build and for a Pi 5 build."""
    out = ["| on the 5 V supply | qty | typical mA | peak mA |", "|---|---:|---:|---:|"]
    typical = peak = 0
    for load in layout.loads():
        out.append(f"| {load.name} | {load.qty} | {load.qty * load.typical} | {load.qty * load.peak} |")
        typical, peak = typical + load.qty * load.typical, peak + load.qty * load.peak
    out.append(f"| **everything but the ring** | | **{typical}** | **{peak}** (budgeted {layout.others_ma}) |")
    leds = int(layout.part("ring")["leds"])
    out.append(f"| LED ring, {leds} LEDs at full white, brightness 1.0 | 1 | | {leds * layout.led_ma} |")
    left = layout.supply_ma - layout.others_ma
    lines = ["\n".join(out), "",
             f"This build's inlet gives {layout.supply_ma} mA, so the ring may take {left} mA: "
             f"`ring.brightness` {layout.max_brightness():.2f} at most for {leds} LEDs "
             f"({layout.max_brightness(24):.2f} for a 24-LED ring)."]
    pi5 = layout.with_choice(board="pi5", power_inlet="usbc_pd")
    left5 = pi5.supply_ma - pi5.others_ma
    lines.append(f"A Pi 5 build (the Pi 5 peaks at {pi5.part('board')['current'][1]} mA with its cooler) on the "
                 f"5 A PD inlet: {pi5.others_ma} mA without the ring, {left5} mA left for it, brightness "
                 f"{pi5.max_brightness():.2f} at most for {leds} LEDs.")
    return "\n".join(lines)


def bom_markdown(layout: Layout) -> str:
    rows = layout.bom()
    out = ["| qty | part | part number (or an equivalent) | each | total |", "|---:|---|---|---:|---:|"]
    total = 0.0
    for name, number, qty, price in rows:
        total += qty * price
        out.append(f"| {qty} | {name} | {number} | {price:.2f} | {qty * price:.2f} |")
    out.append(f"| | **total** | | | **{total:.2f}** |")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m hardware.layout", description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("scad", "bom", "power", "controls"), help="what to print")
    parser.add_argument("--layout", help="box.toml to read (default: the bundled one)")
    parser.add_argument("-o", "--output", help="write to this file instead of standard output")
    args = parser.parse_args(argv)
    try:
        layout = load_layout(args.layout)
    except LayoutError as exc:
        print(f"layout: {exc}", file=sys.stderr)
        return 2
    if args.what == "scad":
        text = scad_params(layout)
    elif args.what == "bom":
        text = bom_markdown(layout) + "\n"
    elif args.what == "power":
        text = power_markdown(layout) + "\n"
    else:
        text = "".join(f"{c.id:12} {c.part:16} x={c.x:6.1f} y={c.y:6.1f}  {pin_label(c.pins)}\n"
                       for c in layout.controls())
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
