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
from typing import Any, Protocol


class Layout(Protocol):
    """What the plan reads of a hardware.layout.Layout (which imports this module for the BOM's sheet count)."""

    @property
    def box(self) -> dict[str, Any]: ...

    @property
    def data(self) -> dict[str, Any]: ...

    def part(self, choice: str) -> dict[str, Any]: ...

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


# ------------------------------------------------------------------ printed tiles

@dataclass(frozen=True)
class Tile:
    """One printed piece of a panel: its rectangle (outer tiles reach past the panel's edges), the dovetails it
    carries into its neighbours and the sockets it has for theirs, each [x, y, angle] (angle 0 points +x)."""

    panel: str
    name: str  # "top-1-0": row, then column
    rect: tuple[float, float, float, float]
    tails: tuple[tuple[float, float, float], ...]
    sockets: tuple[tuple[float, float, float], ...]


Box = tuple[float, float, float, float]
#: Material kept between a seam (or a dovetail) and any hole.
SEAM_WEB = 2.5
#: How far the outer tiles reach past the panel (the bezel cheeks' tabs stick out of their nominal size).
OUTSIDE = 50.0


def _clear(lo: float, hi: float, spans: list[tuple[float, float]]) -> bool:
    return all(hi + SEAM_WEB <= a or b + SEAM_WEB <= lo for a, b in spans)


def _cuts(length: float, bed: float, tail: float, spans: list[tuple[float, float]]) -> list[float] | None:
    """Seam positions along one axis (0..length) so that every piece plus a tail fits ``bed`` and no seam runs
    through a span (a hole's extent on this axis); None when there is no such set. Greedy: each seam as far
    as the bed allows."""
    cuts: list[float] = []
    start = 0.0
    while length - start > bed:
        at = math.floor((start + bed - tail) * 2) / 2
        while at > start + tail and not _clear(at, at, spans):
            at -= 0.5
        if at <= start + tail:
            return None
        cuts.append(at)
        start = at
    return cuts


def _dovetail_at(seg: tuple[float, float], seam: float, axis: int, holes: list[Box], size: tuple[float, float],
                 dt: tuple[float, float], margin: float) -> float | None:
    """Where along a seam segment a dovetail fits, clear of every hole and of the panel's edges."""
    half = dt[0] / 2 + 2 + SEAM_WEB  # the tail's flared end, plus the web
    lo, hi = max(seg[0], margin) + half, min(seg[1], size[1 - axis] - margin) - half
    if lo > hi:
        return None
    mid = (seg[0] + seg[1]) / 2
    candidates = sorted((lo + i * 0.5 for i in range(int((hi - lo) / 0.5) + 1)), key=lambda c: abs(c - mid))
    for c in candidates:
        # the tail's box, across the seam (into the next tile) and along it
        if axis == 0:
            box = (seam - 0.5, c - half, seam + dt[1] + SEAM_WEB, c + half)
        else:
            box = (c - half, seam - 0.5, c + half, seam + dt[1] + SEAM_WEB)
        if all(box[2] <= h[0] or h[2] <= box[0] or box[3] <= h[1] or h[3] <= box[1] for h in holes):
            return c
    return None


def _grid(panel: str, size: tuple[float, float], holes: list[Box], bed: tuple[float, float],
          dt: tuple[float, float]) -> tuple[list[float], list[list[float]]]:
    """The row seams, then each row's column seams, all clear of the holes. PlanError when there are none."""
    W, D = size
    rows = _cuts(D, bed[1], dt[1], [(h[1], h[3]) for h in holes])
    if rows is None:
        raise PlanError(f"{panel}: no row seam clear of its holes fits a {bed[0]:g} x {bed[1]:g} mm bed")
    ys = [0.0, *rows, D]
    grid: list[list[float]] = []
    for r in range(len(ys) - 1):
        inside = [h for h in holes if h[3] > ys[r] and h[1] < ys[r + 1]]
        cols = _cuts(W, bed[0], dt[1], [(h[0], h[2]) for h in inside])
        if cols is None:
            raise PlanError(f"{panel}: row {r} has no seam clear of its holes for a {bed[0]:g} mm wide bed")
        grid.append([0.0, *cols, W])
    return ys, grid


_Joins = dict[tuple[int, int], list[tuple[float, float, float]]]


def _joints(panel: str, size: tuple[float, float], holes: list[Box], dt: tuple[float, float], edge: float,
            ys: list[float], grid: list[list[float]]) -> tuple[_Joins, _Joins]:
    """Each seam's dovetail: (tails by tile, sockets by tile). PlanError when a seam has no room for one."""
    tails: _Joins = {}
    sockets: _Joins = {}

    def join(a: tuple[int, int], b: tuple[int, int], x: float, y: float, angle: float) -> None:
        tails.setdefault(a, []).append((x, y, angle))
        sockets.setdefault(b, []).append((x, y, angle))

    for r, xs in enumerate(grid):
        for c, x in enumerate(xs[1:-1], 1):   # seams inside a row: a tail from the left tile into the right
            at = _dovetail_at((ys[r], ys[r + 1]), x, 0, holes, size, dt, edge)
            if at is None:
                raise PlanError(f"{panel}: no room for a dovetail on the seam at x = {x:g}")
            join((r, c - 1), (r, c), x, at, 0.0)
    for r in range(len(ys) - 2):              # seams between rows: a tail from each lower tile up
        cuts = sorted(set(grid[r]) | set(grid[r + 1]))
        for a, b in zip(cuts, cuts[1:], strict=False):
            at = _dovetail_at((a, b), ys[r + 1], 1, holes, size, dt, edge)
            if at is None:
                raise PlanError(f"{panel}: no room for a dovetail on the seam at y = {ys[r + 1]:g}")
            low = next(i for i in range(len(grid[r]) - 1) if grid[r][i] <= at < grid[r][i + 1])
            high = next(i for i in range(len(grid[r + 1]) - 1) if grid[r + 1][i] <= at < grid[r + 1][i + 1])
            join((r, low), (r + 1, high), at, ys[r + 1], 90.0)
    return tails, sockets


def tiles(panel: str, size: tuple[float, float], holes: list[Box], bed: tuple[float, float],
          dovetail: tuple[float, float], material: float) -> list[Tile]:
    """Cut a panel into tiles that fit the bed with every seam and dovetail clear of every hole: rows first
    (their seams cross the whole panel), then each row on its own. Raises PlanError when that cannot be done."""
    W, D = size
    ys, grid = _grid(panel, size, holes, bed, dovetail)
    tails, sockets = _joints(panel, size, holes, dovetail, material + SEAM_WEB, ys, grid)
    out = []
    for r, xs in enumerate(grid):
        for c in range(len(xs) - 1):
            rect = (xs[c] if c else -OUTSIDE, ys[r] if r else -OUTSIDE,
                    xs[c + 1] if c < len(xs) - 2 else W + OUTSIDE, ys[r + 1] if r < len(ys) - 2 else D + OUTSIDE)
            out.append(Tile(panel, f"{panel}-{r}-{c}", rect, tuple(tails.get((r, c), [])),
                            tuple(sockets.get((r, c), []))))
    return out
