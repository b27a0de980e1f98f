"""Export the enclosure: laser panels (SVG + DXF), printable tiles (STL) and the renders of docs/build.md (PNG).

    python enclosure/export.py [--out DIR] [--layout box.toml] [--only laser,print,renders,echo] [--renders DIR]
                               [--sheet WxH]

``make enclosure`` runs it with the defaults: it regenerates enclosure/params.scad from hardware/data/box.toml,
writes enclosure/out/{laser,print}/ and the PNGs under docs/img/. With ``--layout`` (a different box.toml) the
model is copied into ``DIR/src`` first, so the files in the repository stay as they are.
With the laser parts it writes the cutting plan, ``laser/plan-WxH-N.svg``: every part nested on sheets of
``--sheet`` (default: box.toml's [box] sheet), one file per sheet (hardware/cutplan.py).
Exits 2 with one line for a sheet that cannot hold the parts, 1 when openscad is missing or fails.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

from hardware.cutplan import OUTSIDE, Placed, PlanError, Tile, parse_sheet, plan, tiles  # noqa: E402
from hardware.layout import Layout, LayoutError, load_layout, scad_params  # noqa: E402

#: The parts a laser cuts, and how many of each one box needs.
LASER_PARTS: dict[str, int] = {
    "top": 1, "bottom": 1, "front": 1, "back": 1, "left": 1, "right": 1,
    "bezel_face": 2, "bezel_cheek": 4, "bezel_back": 2, "diffuser": 1, "clamp": 4,
}
#: The renders of docs/build.md: name -> (-D definitions, camera or None for --viewall).
RENDERS: dict[str, tuple[list[str], str | None]] = {
    "cut": (['view="flat"'], "440,275,0,0,0,0,2100"),
    "walls": (['view="exploded"'], "200,150,45,58,0,28,1250"),
    "controls": (['view="top_under"'], "200,150,0,50,0,20,820"),
    "bezel": (['view="bezel"'], "0,0,22,62,0,35,280"),
    "ring": (['view="ring"'], "0,0,-18,70,0,30,330"),
    "display": (['view="top_under"'], "200,150,20,35,0,10,520"),
    "harness": (['view="inside"'], "200,150,20,50,0,20,820"),
    "privacy": (['view="privacy"'], "-2000,150,220,200,150,220"),
    "closed": (['view="closed"'], "200,150,40,55,0,25,900"),
}
IMG_SIZE = "800,600"


class ExportError(RuntimeError):
    pass


def openscad_binary() -> str:
    exe = shutil.which("openscad")
    if exe is None:
        raise ExportError("openscad is not installed (Debian: apt-get install openscad)")
    return exe


def run_openscad(src: Path, outputs: list[Path], defines: list[str], png: bool = False,
                 extra: list[str] | None = None) -> str:
    """Run openscad once; return its log (stderr). Raises ExportError with the last line on failure."""
    cmd = [openscad_binary()]
    for out in outputs:
        cmd += ["-o", str(out)]
    for d in defines:
        cmd += ["-D", d]
    cmd += extra or []
    cmd.append(str(src))
    if png and not os.environ.get("DISPLAY"):
        if shutil.which("xvfb-run") is None:
            raise ExportError("the renders need a display, or xvfb-run without one (Debian: apt-get install xvfb)")
        cmd = ["xvfb-run", "-a", *cmd]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    log = proc.stderr + proc.stdout
    if proc.returncode != 0 or "ERROR:" in log or not all(o.exists() for o in outputs):
        last = [line for line in log.splitlines() if line.strip()][-1:] or ["no output"]
        raise ExportError(f"openscad failed for {', '.join(o.name for o in outputs)}: {last[0]}")
    return log


def prepare(out: Path, layout_path: str | None) -> Path:
    """The .scad to run: enclosure/duetbox.scad itself, or a copy next to params made from another layout."""
    layout = load_layout(layout_path)
    params = scad_params(layout)
    if layout_path is None:
        (HERE / "params.scad").write_text(params, encoding="utf-8")
        return HERE / "duetbox.scad"
    src = out / "src"
    src.mkdir(parents=True, exist_ok=True)
    shutil.copy(HERE / "duetbox.scad", src / "duetbox.scad")
    (src / "params.scad").write_text(params, encoding="utf-8")
    return src / "duetbox.scad"


def print_tiles(laser: Path, layout: Layout) -> list[Tile]:
    """Every printed tile, with its seams and dovetails placed clear of the holes the laser export cut."""
    box = layout.box
    bed = (float(box["print_bed"][0]), float(box["print_bed"][1]))
    dovetail = (float(layout.data["design"]["dovetail"][0]), float(layout.data["design"]["dovetail"][1]))
    out: list[Tile] = []
    for name in LASER_PARTS:
        from svgelements import Path as SvgPath

        text = (laser / f"{name}.svg").read_text(encoding="utf-8")
        shapes = [SvgPath(d) for d in re.findall(r'<path d="([^"]*)"', text)]
        # the SVG's y points down: flip the boxes back to the model's coordinates
        boxes = []
        for shape in shapes:
            for sub in shape.as_subpaths():
                x0, y0, x1, y1 = SvgPath(sub).bbox()
                boxes.append((x0, -y1, x1, -y0))
        boxes.sort(key=lambda b: (b[2] - b[0]) * (b[3] - b[1]), reverse=True)
        outline, holes = boxes[0], boxes[1:]
        if outline[2] - outline[0] <= bed[0] and outline[3] - outline[1] <= bed[1]:
            rect = (outline[0] - OUTSIDE, outline[1] - OUTSIDE, outline[2] + OUTSIDE, outline[3] + OUTSIDE)
            out.append(Tile(name, f"{name}-0-0", rect, (), ()))
        else:
            out += tiles(name, (outline[2] - box["kerf"] / 2, outline[3] - box["kerf"] / 2), holes, bed, dovetail,
                         float(box["material"]))
    return out


def _scad_list(rows: tuple[tuple[float, ...], ...] | tuple[float, ...]) -> str:
    return "[" + ", ".join(_scad_list(r) if isinstance(r, tuple) else f"{r:g}" for r in rows) + "]"


def write_plan(laser: Path, sheets: list[list[Placed]], size: tuple[float, float]) -> list[Path]:
    """One SVG per sheet: each part's exported outline turned and moved to its place (red hairlines to cut)."""
    from svgelements import Matrix
    from svgelements import Path as SvgPath

    for old in laser.glob(f"plan-{size[0]:g}x{size[1]:g}-*.svg"):
        old.unlink()
    shapes: dict[str, str] = {}
    files = []
    for n, sheet in enumerate(sheets, 1):
        body = []
        for p in sheet:
            if p.part not in shapes:
                text = (laser / f"{p.part}.svg").read_text(encoding="utf-8")
                shapes[p.part] = " ".join(re.findall(r'<path d="([^"]*)"', text))
            path = SvgPath(shapes[p.part])
            if p.turned:
                path *= Matrix("rotate(90)")
                path = path.reify()
            x0, y0, _, _ = path.bbox()
            path *= Matrix(f"translate({p.x - x0:.4f}, {p.y - y0:.4f})")
            path = path.reify()
            body.append(f'<path d="{path.d()}"><title>{p.part} {p.copy + 1}</title></path>')
        w, h = size
        target = laser / f"plan-{w:g}x{h:g}-{n}.svg"
        target.write_text(
            '<?xml version="1.0" standalone="no"?>\n'
            f'<svg width="{w:g}mm" height="{h:g}mm" viewBox="0 0 {w:g} {h:g}" xmlns="http://www.w3.org/2000/svg" '
            'version="1.1">\n'
            f"<title>duetbox cutting plan: sheet {n} of {len(sheets)}, {w:g} x {h:g} mm</title>\n"
            '<g fill="none" stroke="#ff0000" stroke-width="0.1">\n' + "\n".join(body) + "\n</g>\n</svg>\n",
            encoding="utf-8")
        files.append(target)
    return files


def export(out: Path, layout_path: str | None, only: set[str], renders_dir: Path | None, jobs: int = 2,
           sheet: tuple[float, float] | None = None) -> list[Path]:
    layout = load_layout(layout_path)
    size = sheet or (float(layout.box["sheet"][0]), float(layout.box["sheet"][1]))
    sheets = plan(layout, size) if "laser" in only else []  # refuses a sheet too small before any work
    src = prepare(out, layout_path)
    tasks: list[tuple[list[Path], list[str], bool, list[str]]] = []
    laser_tasks: list[tuple[list[Path], list[str], bool, list[str]]] = []
    if "laser" in only or "print" in only:  # the tiles' seams are placed from the laser parts' holes
        (out / "laser").mkdir(parents=True, exist_ok=True)
        for name in LASER_PARTS:
            laser_tasks.append(([out / "laser" / f"{name}.svg", out / "laser" / f"{name}.dxf"], [f'part="{name}"'],
                                False, []))
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        list(pool.map(lambda t: run_openscad(src, t[0], t[1], png=t[2], extra=t[3]), laser_tasks))
    tasks += laser_tasks
    if "print" in only:
        (out / "print").mkdir(parents=True, exist_ok=True)
        for old in (out / "print").glob("*.stl"):
            old.unlink()
        manifest = []
        for tile in print_tiles(out / "laser", layout):
            tasks.append(([out / "print" / f"{tile.name}.stl"],
                          ['part="tile"', f'tile_of="{tile.panel}"', f"tile_rect={_scad_list(tile.rect)}",
                           f"tile_tails={_scad_list(tile.tails)}", f"tile_sockets={_scad_list(tile.sockets)}"],
                          False, []))
            manifest.append({"panel": tile.panel, "name": tile.name, "rect": tile.rect, "tails": tile.tails,
                             "sockets": tile.sockets})
        (out / "print" / "tiles.json").write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    if "echo" in only:
        tasks.append(([out / "assembly.echo"], ['part="assembly"', 'view="closed"'], False, []))
    if "renders" in only:
        target = renders_dir or out / "renders"
        target.mkdir(parents=True, exist_ok=True)
        for name, (defines, camera) in RENDERS.items():
            extra = ["--imgsize", IMG_SIZE, "--colorscheme", "Tomorrow", "--projection",
                     "o" if name in ("cut", "privacy") else "p"]
            extra += ["--camera", camera] if camera else ["--viewall", "--autocenter"]
            tasks.append(([target / f"build-{name}.png"], defines, True, extra))
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        list(pool.map(lambda t: run_openscad(src, t[0], t[1], png=t[2], extra=t[3]), tasks[len(laser_tasks):]))
    files = [o for t in tasks for o in t[0]]
    if sheets:
        files += write_plan(out / "laser", sheets, size)
    if "renders" in only:
        # the hole map for the wiring step: drawn from the same box.toml, with the bundled configuration's pins
        from hardware.config import load_config
        from hardware.wiring import draw_panel_map

        panel_map = (renders_dir or out / "renders") / "build-panel-map.png"
        draw_panel_map(load_config(None), str(panel_map), load_layout(layout_path))
        files.append(panel_map)
    return files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="enclosure/export.py", description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(HERE / "out"), help="output directory (default enclosure/out)")
    parser.add_argument("--layout", help="a box.toml other than the bundled one")
    parser.add_argument("--only", default="laser,print,renders", help="laser,print,renders,echo")
    parser.add_argument("--renders", help="where the PNGs go (default: docs/img for the bundled layout)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--sheet", help="the sheet to nest the laser parts on, WIDTHxHEIGHT in mm (default: "
                        "box.toml's [box] sheet, 600x400)")
    args = parser.parse_args(argv)
    only = set(args.only.split(","))
    unknown = only - {"laser", "print", "renders", "echo"}
    if unknown:
        print(f"export: unknown --only {', '.join(sorted(unknown))}", file=sys.stderr)
        return 2
    renders = Path(args.renders) if args.renders else (ROOT / "docs" / "img" if args.layout is None else None)
    try:
        sheet = parse_sheet(args.sheet) if args.sheet else None
        files = export(Path(args.out), args.layout, only, renders, args.jobs, sheet)
    except PlanError as exc:
        print(f"export: {exc}", file=sys.stderr)
        return 2
    except (ExportError, LayoutError) as exc:
        print(f"export: {exc}", file=sys.stderr)
        return 1
    print(f"export: {len(files)} files under {args.out}" + (f" and {renders}" if "renders" in only else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
