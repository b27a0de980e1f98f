"""Reading the exported panels back: contours from SVG (svgelements), segments from DXF (ezdxf), STL volumes.

OpenSCAD writes a 2D panel as one SVG path of closed polygons with y pointing down; the readers here give the
polygons in the model's coordinates (y up, millimetres).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from hardware.layout import Layout


@dataclass(frozen=True)
class Built:
    """One export of the enclosure: its name, output directory and the layout it was made from."""

    name: str
    out: Path
    layout: Layout

    def laser(self, part: str) -> Path:
        return self.out / "laser" / f"{part}.svg"


@dataclass(frozen=True)
class Contour:
    points: np.ndarray  # (n, 2)

    @property
    def area(self) -> float:
        x, y = self.points[:, 0], self.points[:, 1]
        return float(abs(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))) / 2)

    @property
    def perimeter(self) -> float:
        return float(np.linalg.norm(self.points - np.roll(self.points, -1, axis=0), axis=1).sum())

    @property
    def bbox(self) -> tuple[float, float, float, float]:
        (x0, y0), (x1, y1) = self.points.min(axis=0), self.points.max(axis=0)
        return float(x0), float(y0), float(x1), float(y1)

    @property
    def size(self) -> tuple[float, float]:
        x0, y0, x1, y1 = self.bbox
        return x1 - x0, y1 - y0

    @property
    def centre(self) -> tuple[float, float]:
        x0, y0, x1, y1 = self.bbox
        return (x0 + x1) / 2, (y0 + y1) / 2

    def segments(self) -> np.ndarray:
        """(n, 2, 2): every edge as a pair of points."""
        return np.stack([self.points, np.roll(self.points, -1, axis=0)], axis=1)


def read_svg(path: Path) -> list[Contour]:
    """Every closed polygon of the panel, the largest (the outline) first."""
    from svgelements import Close, Line, Move
    from svgelements import Path as SvgPath

    tree = ET.parse(path)
    contours: list[Contour] = []
    for el in tree.iter():
        if not el.tag.endswith("path"):
            continue
        current: list[tuple[float, float]] = []
        for seg in SvgPath(el.attrib["d"]):
            if isinstance(seg, Move):
                if current:
                    contours.append(_contour(current))
                current = [(seg.end.x, -seg.end.y)]
            elif isinstance(seg, Line):
                current.append((seg.end.x, -seg.end.y))
            elif isinstance(seg, Close):
                if current:
                    contours.append(_contour(current))
                current = []
            else:  # pragma: no cover - OpenSCAD writes straight lines only
                raise AssertionError(f"unexpected SVG segment {seg!r} in {path}")
        if current:
            contours.append(_contour(current))
    contours.sort(key=lambda c: -c.area)
    return contours


def _contour(points: list[tuple[float, float]]) -> Contour:
    arr = np.array(points, dtype=float)
    if len(arr) > 1 and np.allclose(arr[0], arr[-1]):
        arr = arr[:-1]
    return Contour(arr)


def read_dxf_segments(path: Path) -> np.ndarray:
    """(n, 2, 2): the LINE and LWPOLYLINE segments of a DXF file."""
    import ezdxf

    doc = ezdxf.readfile(str(path))
    segs: list[tuple[tuple[float, float], tuple[float, float]]] = []
    for e in doc.modelspace():
        if e.dxftype() == "LINE":
            segs.append(((e.dxf.start.x, e.dxf.start.y), (e.dxf.end.x, e.dxf.end.y)))
        elif e.dxftype() == "LWPOLYLINE":
            pts = [(p[0], p[1]) for p in e.get_points()]
            if e.closed:
                pts.append(pts[0])
            segs.extend(zip(pts, pts[1:], strict=False))
    return np.array(segs, dtype=float)


def stl_triangles(path: Path) -> np.ndarray:
    """(n, 3, 3) triangles of an ASCII STL file."""
    text = path.read_text(encoding="utf-8")
    nums = re.findall(r"vertex\s+(\S+)\s+(\S+)\s+(\S+)", text)
    return np.array(nums, dtype=float).reshape(-1, 3, 3)


def stl_volume(tris: np.ndarray) -> float:
    a, b, c = tris[:, 0], tris[:, 1], tris[:, 2]
    return float(abs(np.einsum("ij,ij->i", a, np.cross(b, c)).sum()) / 6)


def intervals_on_line(contour: Contour, axis: int, at: float) -> list[tuple[float, float]]:
    """Where the line (x = at if axis == 0, y = at if axis == 1) runs inside the polygon, as (start, end)
    along the other axis (even-odd rule)."""
    other = 1 - axis
    segs = contour.segments()
    a, b = segs[:, 0], segs[:, 1]
    crossing = (a[:, axis] - at) * (b[:, axis] - at) < 0
    t = (at - a[crossing, axis]) / (b[crossing, axis] - a[crossing, axis])
    hits = np.sort(a[crossing, other] + t * (b[crossing, other] - a[crossing, other]))
    assert len(hits) % 2 == 0, "a scan line crossed the outline an odd number of times"
    return [(float(hits[i]), float(hits[i + 1])) for i in range(0, len(hits), 2)]


def min_distance(p: Contour, q: Contour) -> float:
    """The smallest distance between two polygons' boundaries (vertices to edges, both ways)."""

    def one_way(pts: np.ndarray, segs: np.ndarray) -> float:
        a, b = segs[:, 0][None], segs[:, 1][None]
        ab = b - a
        ap = pts[:, None] - a
        t = np.clip((ap * ab).sum(-1) / np.maximum((ab * ab).sum(-1), 1e-12), 0, 1)
        d = np.linalg.norm(ap - t[..., None] * ab, axis=-1)
        return float(d.min())

    return min(one_way(p.points, q.segments()), one_way(q.points, p.segments()))


def inside(point: tuple[float, float], contour: Contour) -> bool:
    x, y = point
    return any(a <= x <= b for a, b in intervals_on_line(contour, 1, y))
