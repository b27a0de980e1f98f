"""The cutting plan: every laser part of one box nested on sheets of a named size.

``plan(layout, sheet)`` packs the parts' rectangles (each grown by the kerf, a mitre allowance and the gap
between parts) on as few sheets as it can, with rectpack (MaxRects, parts may turn a quarter turn), and raises
PlanError with one line when a part cannot fit the sheet at all. ``enclosure/export.py --sheet WxH`` draws the
plan (one SVG per sheet, the exported outlines moved into place) and the BOM's sheet count comes from the same
``plan``, so the two cannot disagree.

The sizes here are worked out from box.toml the way enclosure/duetbox.scad works them out; a test checks every
exported outline against them.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from hardware.layout import Layout

#: The parts cut from the box's sheet material, and how many of each (the diffuser is cut from opal acrylic).
SHEET_PARTS: dict[str, int] = {
    "top": 1, "bottom": 1, "front": 1, "back": 1, "left": 1, "right": 1,
    "bezel_face": 2, "bezel_cheek": 4, "bezel_back": 2, "clamp": 4,
}
#: The exported outline may reach this much past its nominal size plus the kerf (offset mitres at sharp corners).
ALLOWANCE = 0.3


class PlanError(ValueError):
    """The parts cannot be nested on that sheet (one line saying why and what would do)."""


@dataclass(frozen=True)
class Placed:
    """One part on a sheet: its corner (mm from the sheet's corner, margin included) and its size there."""

    part: str
    copy: int
    x: float
    y: float
    w: float
    h: float
    turned: bool  # a quarter turn from the exported file's orientation


def parse_sheet(text: str) -> tuple[float, float]:
    """'600x400' -> (600.0, 400.0); raises PlanError for anything else."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*[xX×]\s*(\d+(?:\.\d+)?)\s*", text)
    if not m or float(m.group(1)) <= 0 or float(m.group(2)) <= 0:
        raise PlanError(f"--sheet {text!r}: give the sheet as WIDTHxHEIGHT in millimetres, e.g. 600x400")
    return float(m.group(1)), float(m.group(2))


def bezel(layout: Layout) -> dict[str, float]:
    """The OLED bezel's sizes, as duetbox.scad derives them."""
    oled, design, box = layout.part("oled"), layout.data["design"], layout.box
    w = oled["board"][0] + design["bezel_margin"][0]
    length = oled["board"][1] + design["bezel_margin"][1]
    tilt = math.radians(box["oled_tilt"])
    return {"w": w, "l": length, "s": length * math.cos(tilt), "h": length * math.sin(tilt),
            "tab_depth": box["material"] + design["bezel_pin"][1]}


def nominal_sizes(layout: Layout) -> dict[str, tuple[float, float]]:
    """Each sheet part's finished size (before the kerf), as exported (x, y)."""
    box = layout.box
    W, D, H = box["width"], box["depth"], box["height"]
    bz = bezel(layout)
    sizes = {"top": (W, D), "bottom": (W, D), "front": (W, H), "back": (W, H), "left": (D, H), "right": (D, H),
             "bezel_face": (bz["w"], bz["l"]), "bezel_cheek": (bz["s"], bz["h"] + bz["tab_depth"]),
             "bezel_back": (bz["w"], bz["h"]), "clamp": tuple(layout.data["design"]["clamp"])}
    return {k: (float(v[0]), float(v[1])) for k, v in sizes.items()}


def parts_to_cut(layout: Layout) -> dict[str, int]:
    """SHEET_PARTS, less the clamps when the display is held by standoffs."""
    parts = dict(SHEET_PARTS)
    if layout.part("display")["mount"] != "clamp":
        del parts["clamp"]
    return parts


def plan(layout: Layout, sheet: tuple[float, float] | None = None) -> list[list[Placed]]:
    """The parts nested on sheets of ``sheet`` (default: box.toml's [box] sheet), one list per sheet."""
    import rectpack  # type: ignore[import-untyped]

    sw, sh = sheet or (float(layout.box["sheet"][0]), float(layout.box["sheet"][1]))
    margin, gap, kerf = (float(layout.box[k]) for k in ("sheet_margin", "part_gap", "kerf"))
    usable = (sw - 2 * margin + gap, sh - 2 * margin + gap)
    sizes = nominal_sizes(layout)
    grown = {name: (w + kerf + ALLOWANCE, h + kerf + ALLOWANCE) for name, (w, h) in sizes.items()}
    todo = parts_to_cut(layout)
    for name in todo:
        w, h = grown[name]
        if not ((w + gap <= usable[0] and h + gap <= usable[1]) or (h + gap <= usable[0] and w + gap <= usable[1])):
            need = (max(w, h) + 2 * margin, min(w, h) + 2 * margin)
            raise PlanError(
                f"the {name} panel ({w - ALLOWANCE:.2f} x {h - ALLOWANCE:.2f} mm as cut) does not fit a "
                f"{sw:g} x {sh:g} mm sheet with its {margin:g} mm margin: use a sheet of at least "
                f"{need[0]:.1f} x {need[1]:.1f} mm")
    # rectpack works in integers: hundredths of a millimetre
    scale = 100
    packer = rectpack.newPacker(mode=rectpack.PackingMode.Offline, bin_algo=rectpack.PackingBin.BFF,
                                pack_algo=rectpack.MaxRectsBssf, sort_algo=rectpack.SORT_AREA, rotation=True)
    n = 0
    for name, count in todo.items():
        w, h = grown[name]
        for copy in range(count):
            packer.add_rect(math.ceil((w + gap) * scale), math.ceil((h + gap) * scale), (name, copy))
            n += 1
    packer.add_bin(int(usable[0] * scale), int(usable[1] * scale), count=n)
    packer.pack()
    sheets: dict[int, list[Placed]] = {}
    for b, x, y, w, _h, (name, copy) in packer.rect_list():
        pw, ph = grown[name]
        turned = abs(w / scale - (pw + gap)) > 0.02
        sheets.setdefault(b, []).append(Placed(name, copy, margin + x / scale, margin + y / scale,
                                               ph if turned else pw, pw if turned else ph, turned))
    placed = sum(len(v) for v in sheets.values())
    if placed != n:  # pragma: no cover - rectpack places every rectangle that fits a bin
        raise PlanError(f"only {placed} of the {n} parts could be nested on {sw:g} x {sh:g} mm sheets")
    return [sorted(sheets[b], key=lambda p: (p.y, p.x)) for b in sorted(sheets)]
