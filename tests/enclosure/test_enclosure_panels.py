"""The exported laser panels, read back from the SVG/DXF files openscad wrote.

The expected holes are worked out here from box.toml (the BOM's sizes and the places), not from the model, so a
model that cuts the wrong size, forgets a hole, cuts one twice or puts one in the wrong place fails.
"""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from enclosure_geometry import (
    Built,
    Contour,
    intervals_on_line,
    min_distance,
    read_dxf_segments,
    read_svg,
    stl_triangles,
    stl_volume,
)

from hardware.layout import Control, Layout

TOL = 0.03          # mm: OpenSCAD writes about six significant digits
MIN_WEB = 2.0       # mm of material between two holes, and between a hole and the finger strip


def rotate(dx: float, dy: float, degrees: int) -> tuple[float, float]:
    r = math.radians(degrees)
    return dx * math.cos(r) - dy * math.sin(r), dx * math.sin(r) + dy * math.cos(r)


def kerf(b: Built) -> float:
    return float(b.layout.box["kerf"])


def cheek_tabs(b: Built) -> tuple[float, list[float], float]:
    """(base length, tab centres along the base, tab length) of the bezel cheek, measured from its SVG.

    The cheek is drawn with its sharp corner at the origin and its upright edge at x = base (the sharp corner's
    mitre makes the outline reach a little further left than the kerf alone)."""
    k = kerf(b)
    T = b.layout.box["material"]
    outline = read_svg(b.laser("bezel_cheek"))[0]
    tabs = intervals_on_line(outline, 1, -T / 2)
    return outline.bbox[2] - k / 2, [(s + e) / 2 for s, e in tabs], float(np.mean([e - s for s, e in tabs])) - k


def face_size(b: Built) -> tuple[float, float]:
    w, h = read_svg(b.laser("bezel_face"))[0].size
    return w - kerf(b), h - kerf(b)


# ------------------------------------------------------------------ what the top panel must have

def expected_top(b: Built) -> list[tuple[str, str, tuple[float, float], tuple[float, float]]]:
    """(name, shape, centre, nominal size) of every hole the top panel needs; shape: 'circle', 'rect', 'ring'."""
    lay: Layout = b.layout
    out: list[tuple[str, str, tuple[float, float], tuple[float, float]]] = []
    for c in lay.controls():
        out += _control_holes(b, c)
    return out


def _control_holes(b: Built, c: Control) -> list[tuple[str, str, tuple[float, float], tuple[float, float]]]:
    """The holes one control needs in the top panel (see expected_top)."""
    lay: Layout = b.layout
    T = lay.box["material"]
    out = []
    part = lay.data["parts"][c.part]

    def at(dx: float, dy: float, c: Control = c) -> tuple[float, float]:
        rx, ry = rotate(dx, dy, c.rotation)
        return c.x + rx, c.y + ry

    if c.kind == "joystick":
        out.append((f"{c.id} shaft", "circle", at(0, 0), (part["shaft_hole_d"],) * 2))
        px, py = part["plate_holes"]
        for sx in (-1, 1):
            for sy in (-1, 1):
                out.append((f"{c.id} plate screw", "circle", at(sx * px / 2, sy * py / 2),
                            (part["plate_hole_d"],) * 2))
    elif c.kind == "button":
        out.append((c.id, "circle", at(0, 0), (part["hole_d"],) * 2))
    elif c.kind == "ring":
        out.append((c.id, "ring", at(0, 0), (part["outer_d"],) * 2))
    elif c.kind == "display":
        out.append((f"{c.id} window", "rect", at(0, 0), tuple(part["window"])))
        mx, my = part["mount_holes"]
        for sx in (-1, 1):
            for sy in (-1, 1):
                out.append((f"{c.id} mount", "circle", at(sx * mx / 2, sy * my / 2), (part["mount_hole_d"],) * 2))
    elif c.kind == "oled":
        out += _oled_holes(b, c, at(0, 0), T)
    return out


def _oled_holes(b: Built, c: Control, centre: tuple[float, float],
                T: float) -> list[tuple[str, str, tuple[float, float], tuple[float, float]]]:
    """An OLED's cheek slots and its wires' slot."""
    out = []
    base, tabs, tab = cheek_tabs(b)
    fw, _ = face_size(b)
    cheek_x = fw / 2 - 2 - T / 2  # the cheeks stand 2 mm inside the face's edges
    for sx in (-1, 1):
        for u in tabs:
            dx, dy = rotate(sx * cheek_x, -base / 2 + u, c.rotation)
            size = rotate(T, tab, c.rotation)
            out.append((f"{c.id} cheek slot", "rect", (c.x + dx, c.y + dy), (abs(size[0]), abs(size[1]))))
    slot = b.layout.data["design"]["wire_slot"]
    assert slot[0] >= 10 and slot[1] >= 5, "four Dupont wires need a slot of at least 10 x 5 mm"
    out.append((f"{c.id} wires", "rect", centre, tuple(slot)))
    return out


def match(contour: Contour, shape: str, size: tuple[float, float], k: float) -> bool:
    w, h = contour.size
    if shape in ("circle", "rect"):
        return abs(w - (size[0] - k)) < TOL and abs(h - (size[1] - k)) < TOL
    # the ring's window: the ring's outer diameter plus at most 2 mm of clearance
    return abs(w - h) < TOL and size[0] <= w + k <= size[0] + 2


def test_top_panel_has_one_hole_per_part_at_the_boms_size(build):
    holes = read_svg(build.laser("top"))[1:]
    k = kerf(build)
    used: set[int] = set()
    for name, shape, (x, y), size in expected_top(build):
        found = [i for i, h in enumerate(holes) if math.dist(h.centre, (x, y)) < TOL]
        assert len(found) == 1, f"{build.name}: {name} at ({x:.1f}, {y:.1f}): {len(found)} holes there"
        h = holes[found[0]]
        assert match(h, shape, size, k), f"{build.name}: {name} is {h.size}, expected {size} less the kerf {k}"
        used |= set(found)
    extra = [holes[i].centre for i in range(len(holes)) if i not in used]
    assert not extra, f"{build.name}: holes that belong to no part: {extra}"


def test_changing_a_part_changes_its_hole(default_build, variant_build):
    def ring_window(b: Built) -> float:
        ring = next(c for c in b.layout.controls() if c.kind == "ring")
        hole = next(h for h in read_svg(b.laser("top"))[1:] if math.dist(h.centre, (ring.x, ring.y)) < TOL)
        return hole.size[0]

    assert ring_window(default_build) < 50 < 66 < ring_window(variant_build)
    a, b = read_svg(default_build.laser("bezel_face"))[1:], read_svg(variant_build.laser("bezel_face"))[1:]
    assert max(h.size[0] for h in a) < 25 < 30 < max(h.size[0] for h in b)


PANELS = {"top": "WD", "bottom": "WD", "front": "WH", "back": "WH", "left": "DH", "right": "DH"}


def panel_dims(b: Built, panel: str) -> tuple[float, float]:
    size = {"W": b.layout.box["width"], "D": b.layout.box["depth"], "H": b.layout.box["height"]}
    return size[PANELS[panel][0]], size[PANELS[panel][1]]


@pytest.mark.parametrize("panel", list(PANELS))
def test_holes_are_inside_the_panel_and_apart(build, panel):
    contours = read_svg(build.laser(panel))
    outline, holes = contours[0], contours[1:]
    T = build.layout.box["material"]
    k = kerf(build)
    L1, L2 = panel_dims(build, panel)
    assert abs(outline.size[0] - (L1 + k)) < TOL and abs(outline.size[1] - (L2 + k)) < TOL
    for h in holes:
        x0, y0, x1, y1 = h.bbox
        assert x0 >= T + MIN_WEB and y0 >= T + MIN_WEB and x1 <= L1 - T - MIN_WEB and y1 <= L2 - T - MIN_WEB, (
            f"{build.name} {panel}: hole at {h.centre} reaches into the finger strip or out of the panel")
    for i, p in enumerate(holes):
        for q in holes[i + 1:]:
            if (p.bbox[0] - MIN_WEB > q.bbox[2] or q.bbox[0] - MIN_WEB > p.bbox[2]
                    or p.bbox[1] - MIN_WEB > q.bbox[3] or q.bbox[1] - MIN_WEB > p.bbox[3]):
                continue
            assert min_distance(p, q) >= MIN_WEB - k, (
                f"{build.name} {panel}: holes at {p.centre} and {q.centre} are closer than {MIN_WEB} mm")


def test_parts_under_and_on_the_top_panel_do_not_collide(build):
    """Footprints from the BOM: joystick plates, the display, button flanges, the ring, the OLED bezels."""
    lay = build.layout
    T = lay.box["material"]
    base, _, _ = cheek_tabs(build)
    fw, _ = face_size(build)
    shapes: list[tuple[str, tuple[float, float, float, float]]] = []  # name, bbox
    for c in lay.controls():
        p = lay.data["parts"][c.part]
        if c.kind == "joystick":
            w, h = p["plate"]
        elif c.kind == "display":
            w, h = p["outline"]
        elif c.kind == "button":
            w = h = p["hole_d"] + 6  # the flange above the panel
        elif c.kind == "ring":
            w = h = p["outer_d"]
        else:
            w, h = fw, base + T
        shapes.append((c.id, (c.x - w / 2, c.y - h / 2, c.x + w / 2, c.y + h / 2)))
    W, D = lay.box["width"], lay.box["depth"]
    for name, (x0, y0, x1, y1) in shapes:
        assert T <= x0 and x1 <= W - T and T <= y0 and y1 <= D - T, f"{build.name}: {name} sticks out of the box"
    for i, (n1, a) in enumerate(shapes):
        for n2, b in shapes[i + 1:]:
            apart = a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
            assert apart, f"{build.name}: {n1} and {n2} overlap"


# ------------------------------------------------------------------ finger joints

# (panel, side) pairs along the 12 edges of the box; a side is the strip along x=0 ("x0"), x=L1 ("x1"), y=0, y=L2.
EDGES = [
    (("top", "y0"), ("front", "y1")), (("top", "y1"), ("back", "y1")),
    (("top", "x0"), ("left", "y1")), (("top", "x1"), ("right", "y1")),
    (("bottom", "y0"), ("front", "y0")), (("bottom", "y1"), ("back", "y0")),
    (("bottom", "x0"), ("left", "y0")), (("bottom", "x1"), ("right", "y0")),
    (("front", "x0"), ("left", "x0")), (("front", "x1"), ("right", "x0")),
    (("back", "x0"), ("left", "x1")), (("back", "x1"), ("right", "x1")),
]


def strip(b: Built, panel: str, side: str, depth: float) -> list[tuple[float, float]]:
    """Where the panel has material along one edge, sampled ``depth`` mm in from the edge."""
    outline = read_svg(b.laser(panel))[0]
    L1, L2 = panel_dims(b, panel)
    axis = 0 if side[0] == "x" else 1
    at = depth if side[1] == "0" else (L1 if axis == 0 else L2) - depth
    return intervals_on_line(outline, axis, at)


@pytest.mark.parametrize("edge", EDGES, ids=lambda e: f"{e[0][0]}-{e[1][0]}")
def test_finger_joints_mate(default_build, edge):
    b = default_build
    T, k = b.layout.box["material"], kerf(b)
    (p, ps), (q, qs) = edge
    a, c = strip(b, p, ps, T / 2), strip(b, q, qs, T / 2)
    assert len(a) >= 1 and len(c) >= 1
    # the two panels' fingers alternate along the edge; each pair of neighbours overlaps by exactly the kerf
    # (each finger was drawn kerf/2 wider on both sides: the laser takes that away)
    merged = sorted([(s, e, p) for s, e in a] + [(s, e, q) for s, e in c])
    for (_, e1, o1), (s2, _, o2) in zip(merged, merged[1:], strict=False):
        assert o1 != o2, f"two fingers of {o1} side by side on the {p}-{q} edge"
        assert abs((e1 - s2) - k) < TOL, f"{p}-{q}: fingers at {e1:.2f}/{s2:.2f} do not meet (kerf {k})"
    # every finger of one panel is as long as the gap it fits into on the other (both seen before the kerf)
    for fingers, other in ((a, c), (c, a)):
        gaps = [(e1, s2) for (_, e1), (s2, _) in zip(other, other[1:], strict=False)]
        for s, e in fingers:
            gap = next((g for g in gaps if abs((g[0] + g[1]) / 2 - (s + e) / 2) < TOL), None)
            if gap is None:
                continue  # a finger at the end of the edge, next to the corner
            assert abs((e - s - k) - (gap[1] - gap[0] + k)) < TOL, f"{p}-{q}: finger {e - s:.2f} in gap {gap}"
    # the fingers are exactly one sheet deep: just past the strip, both panels are solid along the edge
    for panel, side in ((p, ps), (q, qs)):
        inner = strip(b, panel, side, T + k / 2 + 0.05)
        assert len(inner) == 1, f"{panel} {side}: fingers deeper than the sheet"
        outer = strip(b, panel, side, T - k / 2 - 0.05)
        assert len(outer) > 1, f"{panel} {side}: no fingers within the sheet's thickness"


def test_every_finger_of_the_box_is_counted(default_build):
    """All 12 edges together: fingers on both sides of each edge add up to its length (corners excepted)."""
    b = default_build
    T, k = b.layout.box["material"], kerf(b)
    for (p, ps), (q, qs) in EDGES:
        total = sum(e - s - k for s, e in strip(b, p, ps, T / 2) + strip(b, q, qs, T / 2))
        L1, L2 = panel_dims(b, p)
        length = L1 if ps[0] == "y" else L2
        assert abs(total - length) < 0.1 or abs(total - (length - 2 * T)) < 0.1, (p, q, total, length)


# ------------------------------------------------------------------ the OLED bezels

def test_bezel_face_has_the_oled_window_and_its_screw_holes(build):
    oled = build.layout.part("oled")
    k = kerf(build)
    contours = read_svg(build.laser("bezel_face"))
    outline, holes = contours[0], contours[1:]
    ox0, oy0, ox1, oy1 = outline.bbox
    cx = (ox0 + ox1) / 2
    windows = [h for h in holes if abs(h.size[0] - (oled["window"][0] - k)) < TOL]
    screws = [h for h in holes if abs(h.size[0] - (oled["hole_d"] - k)) < TOL]
    assert len(windows) == 1 and len(screws) == 4 and len(holes) == 5
    assert abs(windows[0].size[1] - (oled["window"][1] - k)) < TOL
    xs = sorted({round(h.centre[0] - cx, 2) for h in screws})
    assert np.allclose(xs, [-oled["holes"][0] / 2, oled["holes"][0] / 2], atol=TOL)
    for h in holes:
        assert min_distance(h, outline) >= MIN_WEB - k


def oled_windows(b: Built) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    text = (b.out / "assembly.echo").read_text(encoding="utf-8")
    found = re.findall(r'oled_window = "(\w)", centre_normal = \[\[([^\]]+)\], \[([^\]]+)\]\]', text)
    return {seat: (np.array([float(v) for v in c.split(",")]), np.array([float(v) for v in n.split(",")]))
            for seat, c, n in found}


def test_the_two_oled_windows_face_opposite_seats(build):
    lay = build.layout
    D, H = lay.box["depth"], lay.box["height"]
    w = oled_windows(build)
    assert set(w) == {"A", "B"}
    (ca, na), (cb, nb) = w["A"], w["B"]
    assert ca[1] < D / 2 < cb[1], "seat A's OLED must be on seat A's half"
    assert na[1] < 0 < nb[1] and na[2] > 0 and nb[2] > 0, "each OLED must face up and towards its own seat"
    assert ca[2] > H and cb[2] > H


def test_the_far_seat_cannot_see_an_oled_and_its_own_seat_sees_it_nearly_square_on(build):
    lay = build.layout
    D = lay.box["depth"]
    x = lay.box["width"] / 2
    w = oled_windows(build)
    for seat, (centre, normal) in w.items():
        for height in np.linspace(*lay.box["eye_height"], 5):
            for dist in np.linspace(*lay.box["eye_distance"], 5):
                near_y, far_y = (-dist, D + dist) if seat == "A" else (D + dist, -dist)
                near, far = np.array([x, near_y, height]), np.array([x, far_y, height])
                assert np.dot(far - centre, normal) < 0, f"seat {seat}'s OLED is visible from the other seat"
                to_eye = (near - centre) / np.linalg.norm(near - centre)
                angle = math.degrees(math.acos(float(np.dot(to_eye, normal))))
                assert angle < 40, f"seat {seat} sees its OLED {angle:.0f} degrees off square"


# ------------------------------------------------------------------ DXF and STL

@pytest.mark.parametrize("panel", ["top", "bottom", "right", "bezel_face", "bezel_cheek"])
def test_dxf_has_the_same_cuts_as_the_svg(default_build, panel):
    svg = np.concatenate([c.segments() for c in read_svg(default_build.laser(panel))])
    dxf = read_dxf_segments(default_build.out / "laser" / f"{panel}.dxf")
    assert len(dxf) == len(svg)

    def key(segs: np.ndarray) -> np.ndarray:
        mids = np.round((segs[:, 0] + segs[:, 1]) / 2, 2)
        return mids[np.lexsort((mids[:, 1], mids[:, 0]))]

    assert np.allclose(key(svg), key(dxf), atol=0.02)


def test_print_tiles_fit_the_bed_and_add_up_to_the_panels(default_build):
    b = default_build
    T, k = b.layout.box["material"], kerf(b)
    bed = b.layout.box["print_bed"]
    tiles = sorted((b.out / "print").glob("*.stl"))
    by_panel: dict[str, float] = {}
    for path in tiles:
        tris = stl_triangles(path)
        lo, hi = tris.reshape(-1, 3).min(axis=0), tris.reshape(-1, 3).max(axis=0)
        assert hi[0] - lo[0] <= bed[0] and hi[1] - lo[1] <= bed[1], f"{path.name} does not fit the bed"
        assert abs(hi[2] - lo[2] - T) < TOL
        name = path.name.rsplit("-", 2)[0]
        by_panel[name] = by_panel.get(name, 0.0) + stl_volume(tris)
    assert set(PANELS) <= set(by_panel)
    assert sum(1 for t in tiles if t.name.startswith("top-")) == 5  # two rows: 3 tiles, then 2
    for name, volume in by_panel.items():
        contours = read_svg(b.laser(name))
        # the SVG is grown by kerf/2 all round: take that back to get the panel's own area
        outline, holes = contours[0], contours[1:]
        area = outline.area - k / 2 * outline.perimeter - sum(h.area + k / 2 * h.perimeter for h in holes)
        assert abs(volume / T - area) < 0.003 * area, f"{name}: tiles hold {volume / T:.0f} mm2 of {area:.0f}"
