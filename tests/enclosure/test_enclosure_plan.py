"""The cutting plan written by the export: every part on a sheet, inside its margin, apart from the others, as
many sheets as the BOM buys; a sheet too small is refused in one line."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from enclosure_geometry import Built, read_svg

from hardware.cutplan import SHEET_PARTS, PlanError, nominal_sizes, parse_sheet, plan
from hardware.layout import load_layout

ROOT = Path(__file__).resolve().parents[2]


def plan_parts(path: Path) -> list[tuple[str, tuple[float, float, float, float]]]:
    """(part name, bbox in sheet mm, y down) of every part drawn in a plan SVG."""
    from svgelements import Path as SvgPath

    text = path.read_text(encoding="utf-8")
    out = []
    for d, title in re.findall(r'<path d="([^"]*)"><title>([^<]*)</title>', text):
        out.append((title.rsplit(" ", 1)[0], tuple(float(v) for v in SvgPath(d).bbox())))
    return out


def test_the_plan_holds_every_part_once_inside_the_sheet_and_apart(default_build: Built) -> None:
    lay = default_build.layout
    w, h = lay.box["sheet"]
    margin, gap = lay.box["sheet_margin"], lay.box["part_gap"]
    files = sorted((default_build.out / "laser").glob(f"plan-{w:g}x{h:g}-*.svg"))
    bom = {name: qty for name, _, qty, _ in lay.bom()}
    sheets = next(qty for name, qty in bom.items() if "sheet" in name and "plywood" in name)
    assert len(files) == sheets == len(plan(lay)) == 3, "the BOM must buy the sheets the plan uses"
    seen: dict[str, int] = {}
    for f in files:
        parts = plan_parts(f)
        for i, (name, (x0, y0, x1, y1)) in enumerate(parts):
            seen[name] = seen.get(name, 0) + 1
            inside = margin - 0.01 <= min(x0, y0) and x1 <= w - margin + 0.01 and y1 <= h - margin + 0.01
            assert inside, f"{f.name}: {name} reaches into the sheet's margin"
            # the part drawn is the exported part, turned or not
            real = read_svg(default_build.laser(name))[0].size
            size = (x1 - x0, y1 - y0)
            assert min(abs(size[0] - real[0]) + abs(size[1] - real[1]),
                       abs(size[0] - real[1]) + abs(size[1] - real[0])) < 0.02, f"{f.name}: {name} is {size}"
            for other, (a0, b0, a1, b1) in parts[i + 1:]:
                apart = x1 + gap - 0.01 <= a0 or a1 + gap - 0.01 <= x0 or y1 + gap - 0.01 <= b0 or b1 + gap - 0.01 <= y0
                assert apart, f"{f.name}: {name} and {other} are closer than {gap} mm"
    assert seen == SHEET_PARTS


def test_the_plan_sizes_cover_every_exported_outline(default_build: Built) -> None:
    """hardware/cutplan.py works the sizes out from box.toml: they must hold what openscad really cut."""
    k = default_build.layout.box["kerf"]
    for name, (w, h) in nominal_sizes(default_build.layout).items():
        rw, rh = read_svg(default_build.laser(name))[0].size
        assert rw <= w + k + 0.3 and rh <= h + k + 0.3, f"{name}: cut {rw:.2f} x {rh:.2f}, planned {w} x {h}"
        assert rw >= w and rh >= h - 0.01, f"{name}: cut {rw:.2f} x {rh:.2f}, planned {w} x {h}"


def test_a_bigger_sheet_needs_fewer_and_the_docs_name_a_bed_that_fits() -> None:
    lay = load_layout()
    assert len(plan(lay, (1000, 600))) == 1 and len(plan(lay, (800, 600))) == 2
    with pytest.raises(PlanError, match=r"400\.15 x 300\.15 mm as cut\) does not fit a 400 x 300 mm sheet"):
        plan(lay, (400, 300))
    with pytest.raises(PlanError, match="does not fit"):
        plan(lay, (495, 279))  # a Glowforge's bed
    doc = (ROOT / "docs" / "build.md").read_text(encoding="utf-8")
    bed = re.search(r"a bed of at least (\d+) × (\d+) mm", doc)
    assert bed, "build.md must name the smallest laser bed"
    assert len(plan(lay, (float(bed.group(1)), float(bed.group(2))))) >= 1


def test_a_sheet_too_small_is_refused_in_one_line(tmp_path: Path) -> None:
    proc = subprocess.run([sys.executable, str(ROOT / "enclosure" / "export.py"), "--out", str(tmp_path),
                           "--layout", str(ROOT / "hardware" / "data" / "box.toml"), "--only", "laser",
                           "--sheet", "400x300"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1, proc.stderr
    assert "use a sheet of at least 410.4 x 310.4 mm" in proc.stderr
    assert not (tmp_path / "laser").exists(), "nothing is exported for a sheet that cannot hold the parts"
    with pytest.raises(PlanError, match="WIDTHxHEIGHT"):
        parse_sheet("A4")
