"""Checks computed from the EXPORTED geometry only (the SVG and STL files openscad wrote), never from the model's
own formulas: the bezel's angle as cut, the far seat's line of sight through the real window, the printed
dovetails against their sockets, and every hole of the bottom and side panels at its BOM place and size.

Each was proven by breaking the model once (see the commit that added this file): the cheek cut at 16.7 degrees,
the dovetail sockets 0.3 mm smaller than the tails, the Pi's holes 48 mm apart, the USB-C inlet cutout deleted.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from enclosure_geometry import Built, Contour, read_svg, stl_triangles

TOL = 0.03
#: The Raspberry Pi's mounting holes (its mechanical drawing: the same on a Pi 3B+, 4 and 5), M2.5.
PI_HOLES = (58.0, 49.0)


def kerf(b: Built) -> float:
    return float(b.layout.box["kerf"])


# ------------------------------------------------------------------ holes of the bottom and side panels

def grille_points(b: Built) -> list[tuple[float, float]]:
    """The speaker grille's hole centres, worked out here from the [parts.speaker_40] sizes."""
    sp = b.layout.part("speaker")
    pitch, d, hole = sp["grille_pitch"], sp["grille_d"], sp["grille_hole_d"]
    cy, cz = b.layout.data["place"]["shared"]["speaker"]
    rows = math.ceil(d / pitch)
    out = []
    for j in range(-rows, rows + 1):
        for i in range(-rows, rows + 1):
            x, y = (i + (abs(j) % 2) / 2) * pitch, j * pitch * math.sqrt(3) / 2
            if math.hypot(x, y) + hole / 2 <= d / 2 + 1e-9:
                out.append((cy + x, cz + y))
    return out


def expected_holes(b: Built, panel: str) -> list[tuple[str, tuple[float, float], tuple[float, float]]]:
    """(name, centre, nominal bbox size) of every hole a BOM part needs in ``panel``."""
    lay = b.layout
    T, D = lay.box["material"], lay.box["depth"]
    W = lay.box["width"]
    out: list[tuple[str, tuple[float, float], tuple[float, float]]] = []
    if panel == "bottom":
        board = lay.part("board")
        px, py = lay.data["place"]["shared"]["pi"]
        hx, hy = board["holes"]
        for sx in (-1, 1):
            for sy in (-1, 1):
                out.append(("Pi mounting hole", (px + sx * hx / 2, py + sy * hy / 2), (board["hole_d"],) * 2))
        cb = lay.data["design"]["corner_block"] / 2
        for x in (T + cb, W - T - cb):
            for y in (T + cb, D - T - cb):
                out.append(("corner block screw", (x, y), (lay.data["design"]["bottom_screw_d"],) * 2))
    elif panel == "right":
        inlet = lay.part("power_inlet")
        y, z = lay.data["place"]["shared"]["power_inlet"]
        out.append(("USB-C inlet cutout", (y, z), tuple(inlet["cutout"])))
        for sx in (-1, 1):
            out.append(("USB-C inlet screw", (y + sx * inlet["screws"] / 2, z), (inlet["screw_d"],) * 2))
    elif panel == "left":
        d = lay.part("speaker")["grille_hole_d"]
        out += [("speaker grille hole", p, (d, d)) for p in grille_points(b)]
    return out


def design_hole(b: Built, h: Contour) -> bool:
    """A hole of the box's own design (a vent, a cable-tie slot), not of a part: known by its size."""
    k = kerf(b)
    design = b.layout.data["design"]
    sizes = [tuple(design["bottom_vent_slot"]), tuple(design["tie_slot"]), tuple(design["vent_slot"][::-1])]
    return any(abs(h.size[0] - (w - k)) < TOL and abs(h.size[1] - (hh - k)) < TOL for w, hh in sizes)


@pytest.mark.parametrize("panel", ["bottom", "right", "left", "front", "back"])
def test_every_hole_of_the_panel_is_at_its_bom_place_and_size(build, panel):
    holes = read_svg(build.laser(panel))[1:]
    k = kerf(build)
    used: set[int] = set()
    for name, (x, y), (w, h) in expected_holes(build, panel):
        found = [i for i, c in enumerate(holes) if math.dist(c.centre, (x, y)) < TOL]
        assert len(found) == 1, f"{build.name} {panel}: {name} at ({x:.1f}, {y:.1f}): {len(found)} holes there"
        c = holes[found[0]]
        assert abs(c.size[0] - (w - k)) < TOL and abs(c.size[1] - (h - k)) < TOL, (
            f"{build.name} {panel}: {name} is {c.size[0]:.2f} x {c.size[1]:.2f}, the BOM says {w} x {h} less the kerf")
        used |= set(found)
    extra = [holes[i].centre for i in range(len(holes)) if i not in used and not design_hole(build, holes[i])]
    assert not extra, f"{build.name} {panel}: holes that belong to no part: {extra}"


def test_box_toml_has_the_pis_own_hole_pattern():
    """The BOM's sizes are the truth the panels are checked against: the Pi's holes must be the board's."""
    from hardware.layout import load_layout

    lay = load_layout()
    for board in ("pi4", "pi5"):
        assert tuple(lay.data["parts"][board]["holes"]) == PI_HOLES


def test_the_bottom_holds_the_pi_on_its_own_pattern(default_build):
    k = kerf(default_build)
    d = default_build.layout.part("board")["hole_d"] - k
    holes = [h for h in read_svg(default_build.laser("bottom"))[1:] if abs(h.size[0] - d) < TOL]
    xs = sorted({round(h.centre[0], 1) for h in holes})
    ys = sorted({round(h.centre[1], 1) for h in holes})
    assert len(holes) == 4 and len(xs) == 2 and len(ys) == 2, [h.centre for h in holes]
    assert abs((xs[1] - xs[0]) - PI_HOLES[0]) < TOL and abs((ys[1] - ys[0]) - PI_HOLES[1]) < TOL


def test_the_right_wall_has_the_usb_c_inlet(default_build):
    inlet = default_build.layout.part("power_inlet")
    k = kerf(default_build)
    slots = [h for h in read_svg(default_build.laser("right"))[1:]
             if abs(h.size[0] - (inlet["cutout"][0] - k)) < TOL and abs(h.size[1] - (inlet["cutout"][1] - k)) < TOL]
    assert len(slots) == 1, "the right wall has no USB-C inlet cutout"


# ------------------------------------------------------------------ the OLED bezel, as cut

def cheek_triangle(b: Built) -> tuple[float, float, float]:
    """(base length, upright height, slope angle in degrees) of the cheek, measured on its cut outline (the
    upright edge and the ridge are offset by kerf/2; the slope is the outline's longest edge)."""
    k = kerf(b)
    pts = read_svg(b.laser("bezel_cheek"))[0].points
    above = pts[pts[:, 1] > 0.5]
    top = above[np.argmax(above[:, 1])]                # the ridge: the upright edge's top corner
    base = float(top[0]) - k / 2                       # the sharp corner is the drawing's origin
    height = float(top[1]) - k / 2                    # (plus the ridge's mitre, under 0.11 mm)
    # the slope: the longest edge of the outline
    segs = np.stack([pts, np.roll(pts, -1, axis=0)], axis=1)
    lengths = np.linalg.norm(segs[:, 1] - segs[:, 0], axis=1)
    a, c = segs[int(np.argmax(lengths))]
    angle = math.degrees(math.atan2(abs(c[1] - a[1]), abs(c[0] - a[0])))
    return base, height, angle


def test_the_bezel_is_cut_at_its_tilt_and_its_parts_fit_together(build):
    lay = build.layout
    k = kerf(build)
    base, height, angle = cheek_triangle(build)
    assert abs(angle - lay.box["oled_tilt"]) < 0.5, f"{build.name}: the cheek is cut at {angle:.1f} degrees"
    face = read_svg(build.laser("bezel_face"))[0]
    back = read_svg(build.laser("bezel_back"))[0]
    slope = math.hypot(base, height)
    assert abs(face.size[1] - k - slope) < k, "the face is not as long as the cheeks' slope"
    assert abs(back.size[1] - k - height) < k, "the back is not as high as the cheeks' upright edge"


def test_the_far_seat_cannot_see_the_real_window_and_the_near_seat_reads_it(build):
    """The window's four corners, placed on the face as cut (its hole in bezel_face.svg) and tilted by the
    angle measured on the cheek; every seated eye position of box.toml."""
    lay = build.layout
    k = kerf(build)
    D, H, W = lay.box["depth"], lay.box["height"], lay.box["width"]
    T = lay.box["material"]
    base, height, angle = cheek_triangle(build)
    t = math.radians(angle)
    face_contours = read_svg(build.laser("bezel_face"))
    face, holes = face_contours[0], face_contours[1:]
    window = max(holes, key=lambda h: h.area)
    fx0, fy0, _, _ = face.bbox
    wx0, wy0, wx1, wy1 = window.bbox
    # along the slope (b from the face's lower edge) and across it (a from the face's centre), outer surface
    bs = [wy0 - fy0 - k / 2, wy1 - fy0 - k / 2]
    half = (wx1 - wx0) / 2
    normal = np.array([0.0, -math.sin(t), math.cos(t)])   # seat A's bezel: the face leans towards -y
    for c in lay.controls():
        if c.kind != "oled":
            continue
        sign = 1 if c.seat == "A" else -1                  # seat B's bezel is seat A's turned a half turn
        n = normal * np.array([1, sign, 1])
        front = c.y - sign * base / 2                      # the face's lower edge, on the top surface
        corners = [np.array([c.x + a, front + sign * b * math.cos(t), H + b * math.sin(t)]) + T * n
                   for a in (-half, half) for b in bs]
        for eye_h in np.linspace(*lay.box["eye_height"], 5):
            for dist in np.linspace(*lay.box["eye_distance"], 5):
                near_y, far_y = (-dist, D + dist) if c.seat == "A" else (D + dist, -dist)
                for x in (0.0, W / 2, W):
                    far = np.array([x, far_y, eye_h])
                    for p in corners:
                        assert np.dot(far - p, n) < 0, (
                            f"{build.name}: seat {c.seat}'s window is in sight of the other seat "
                            f"(eye {eye_h:.0f} mm high, {dist:.0f} mm away; cheek cut at {angle:.1f} degrees)")
                near = np.array([W / 2, near_y, eye_h])
                centre = sum(corners) / 4
                to_eye = (near - centre) / np.linalg.norm(near - centre)
                off = math.degrees(math.acos(float(np.dot(to_eye, n))))
                assert off < 40, f"{build.name}: seat {c.seat} sees its OLED {off:.0f} degrees off square"


def test_the_oled_module_fits_behind_the_face_without_a_pin_header(build):
    """The module's board, wires soldered into its holes, must clear the back and the top panel: the room
    behind the face at the solder pads, measured on the cut cheek, is more than the module's stack."""
    oled = build.layout.part("oled")
    base, height, angle = cheek_triangle(build)
    t = math.radians(angle)
    slope = math.hypot(base, height)
    b = slope / 2 + oled["board"][1] / 2 - oled["pads"]       # the pads' distance up the slope (towards the ridge)
    # from that point of the face, straight into the wedge: it meets the top panel or the upright edge (the
    # back stands outside it)
    room = min(b * math.tan(t), (base - b * math.cos(t)) / math.sin(t))
    assert oled["stack"] < room, (
        f"{build.name}: {oled['stack']} mm of module behind the face, {room:.1f} mm of room at its pads")
    assert oled["header"] > room, "with its pin header the module would not fit: the docs say to leave it off"


# ------------------------------------------------------------------ printed dovetails

def slice_segments(tris: np.ndarray, z: float) -> np.ndarray:
    """The (n, 2, 2) segments where the plane at height z cuts the triangles."""
    out = []
    for tri in tris:
        d = tri[:, 2] - z
        pts = []
        for i in range(3):
            a, c = tri[i], tri[(i + 1) % 3]
            if (d[i] < 0) != (d[(i + 1) % 3] < 0):
                s = d[i] / (d[i] - d[(i + 1) % 3])
                pts.append(a[:2] + s * (c[:2] - a[:2]))
        if len(pts) == 2:
            out.append(pts)
    return np.array(out)


def material_along(segs: np.ndarray, x: float) -> list[tuple[float, float]]:
    """Where a tile has material along the line x = const (even-odd over the slice's segments)."""
    a, c = segs[:, 0], segs[:, 1]
    crossing = (a[:, 0] - x) * (c[:, 0] - x) < 0
    t = (x - a[crossing, 0]) / (c[crossing, 0] - a[crossing, 0])
    ys = np.sort(a[crossing, 1] + t * (c[crossing, 1] - a[crossing, 1]))
    return [(float(ys[i]), float(ys[i + 1])) for i in range(0, len(ys) - 1, 2)]


def manifest(b: Built) -> list[dict]:
    return json.loads((b.out / "print" / "tiles.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("angle", [0.0, 90.0], ids=["x-seam", "y-seam"])
def test_printed_dovetails_mate_with_their_clearance(default_build, angle):
    """At a dovetail of the top panel (one across a seam along y, one across a seam along x): the tail of one tile
    and the socket of the other, sliced at half the sheet's height; the socket is the tail grown by
    print_clearance on each flank."""
    b = default_build
    T, c = b.layout.box["material"], b.layout.box["print_clearance"]
    depth = b.layout.data["design"]["dovetail"][1]
    tiles = [t for t in manifest(b) if t["panel"] == "top"]
    owner = next(t for t in tiles if any(d[2] == angle for d in t["tails"]))
    x, y, _ = next(d for d in owner["tails"] if d[2] == angle)
    other = next(t for t in tiles if [x, y, angle] in t["sockets"])
    tail_tris = stl_triangles(b.out / "print" / f"{owner['name']}.stl")
    socket_tris = stl_triangles(b.out / "print" / f"{other['name']}.stl")
    if angle == 90.0:  # look at it as an x seam: swap the axes
        tail_tris, socket_tris = tail_tris[:, :, [1, 0, 2]], socket_tris[:, :, [1, 0, 2]]
        x, y = y, x
    tail_segs, socket_segs = slice_segments(tail_tris, T / 2), slice_segments(socket_tris, T / 2)
    checked = 0
    for at in np.linspace(x + 0.5, x + depth - 0.8, 5):
        tails = [iv for iv in material_along(tail_segs, at) if abs((iv[0] + iv[1]) / 2 - y) < 10]
        material = material_along(socket_segs, at)
        assert len(tails) == 1, f"no single dovetail tail at {at:.2f}: {tails}"
        t0, t1 = tails[0]
        gaps = [(e1, s2) for (_, e1), (s2, _) in zip(material, material[1:], strict=False) if e1 <= t1 and s2 >= t0]
        assert gaps, f"the socket does not hold the tail at {at:.2f}: the tiles overlap ({t0:.2f}..{t1:.2f})"
        g0, g1 = gaps[0]
        assert abs((t0 - g0) - c) < 0.05 and abs((g1 - t1) - c) < 0.05, (
            f"at {at:.2f} the tail {t0:.2f}..{t1:.2f} sits in a socket {g0:.2f}..{g1:.2f}: "
            f"a clearance of {t0 - g0:.2f} / {g1 - t1:.2f} mm, not {c}")
        checked += 1
    assert checked == 5


@pytest.mark.parametrize("panel", ["top", "bottom", "left", "right", "front", "back"])
def test_print_seams_run_clear_of_every_hole(default_build, panel):
    """Each hole of the panel (its laser SVG) lies whole in one printed tile (their STL slices), with material
    between it and every seam: the MENU hole, the ring window and the display window are not cut in two."""
    b = default_build
    T, k = b.layout.box["material"], kerf(b)
    holes = read_svg(b.laser(panel))[1:]
    tiles = [t for t in manifest(b) if t["panel"] == panel]
    slices = {t["name"]: slice_segments(stl_triangles(b.out / "print" / f"{t['name']}.stl"), T / 2) for t in tiles}
    for h in holes:
        x0, y0, x1, y1 = h.bbox
        owners = []
        for name, segs in slices.items():
            mids = (segs[:, 0] + segs[:, 1]) / 2
            # the tiles are the panel itself, not grown by the kerf: their holes are kerf/2 wider than the SVG's
            g = k / 2 + 0.05
            near = (mids[:, 0] > x0 - g) & (mids[:, 0] < x1 + g) & (mids[:, 1] > y0 - g) & (mids[:, 1] < y1 + g)
            if near.any():
                owners.append(name)
        assert len(owners) == 1, f"{panel}: the hole at ({h.centre[0]:.1f}, {h.centre[1]:.1f}) is split over {owners}"
    # and the seams keep their web: no tile edge inside the panel runs closer than 2 mm to a hole
    for t in tiles:
        rx0, ry0, rx1, ry1 = t["rect"]
        for h in holes:
            x0, y0, x1, y1 = h.bbox
            for edge in (rx0, rx1):
                if y1 > ry0 and y0 < ry1 and 0 < edge:
                    assert edge <= x0 - 2 + k or edge >= x1 + 2 - k, f"{t['name']}: seam x = {edge} at {h.centre}"
            for edge in (ry0, ry1):
                if x1 > rx0 and x0 < rx1 and 0 < edge:
                    assert edge <= y0 - 2 + k or edge >= y1 + 2 - k, f"{t['name']}: seam y = {edge} at {h.centre}"
