"""Scripted mock games for ``make pi-check``: the same snapshots on the build machine and on an emulated Pi.

``python tools/pi_check_snapshots.py run SCRIPTS_DIR OUT_DIR`` plays every docs/scripts/*.txt that needs no solo
model with the mock hardware (as ``make docs`` does) and writes its PNG snapshots to OUT_DIR; ``compare A B``
compares two such folders pixel by pixel and prints one line per difference (exit 1 when any). Only the app's
own code and its pinned dependencies draw: this runs with the box's virtualenv inside the emulated system.
"""

from __future__ import annotations

import os
import shlex
import sys
import tempfile
from pathlib import Path

SIZE = "960x540"


def run(scripts: Path, out: Path) -> int:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    from device import docs
    from device.commands import run as run_command

    out.mkdir(parents=True, exist_ok=True)
    failed = 0
    for script in sorted(scripts.glob("*.txt")):
        head = script.read_text("utf-8").splitlines()[:2]
        if len(head) > 1 and head[1].startswith("#? solo"):
            continue  # needs the solo partner's vectors
        extra = shlex.split(head[0][2:]) if head and head[0].startswith("#!") else []
        extra = [str(scripts.parent.parent / a) if a.startswith("docs/") else a for a in extra]
        # as on a box where no solo model was built (docs.partner_home), whatever the machine holds
        with tempfile.TemporaryDirectory(prefix="pi-check-") as data, docs.partner_home(head, data):
            code = run_command.main(["--hardware", "mock", "--script", str(script), "--snapshots", str(out),
                                     "--data-dir", data, "--size", SIZE, *extra])
        print(f"pi-check: {script.name} exit {code}")
        failed += code != 0
    return 1 if failed else 0


def compare(a: Path, b: Path) -> int:
    from PIL import Image, ImageChops

    names_a = {p.name for p in a.glob("*.png")}
    names_b = {p.name for p in b.glob("*.png")}
    problems = [f"only in {a}: {n}" for n in sorted(names_a - names_b)]
    problems += [f"only in {b}: {n}" for n in sorted(names_b - names_a)]
    same = 0
    for name in sorted(names_a & names_b):
        with Image.open(a / name) as x, Image.open(b / name) as y:
            if x.size != y.size or x.mode != y.mode:
                problems.append(f"{name}: {x.size} {x.mode} against {y.size} {y.mode}")
                continue
            box = ImageChops.difference(x.convert("RGB"), y.convert("RGB")).getbbox()
            if box is not None:
                problems.append(f"{name}: pixels differ in {box}")
            else:
                same += 1
    for line in problems:
        print(line)
    print(f"pi-check: {same} of {len(names_a | names_b)} snapshots pixel-identical")
    return 1 if problems or not same else 0


def main(argv: list[str]) -> int:
    if len(argv) == 3 and argv[0] == "run":
        return run(Path(argv[1]), Path(argv[2]))
    if len(argv) == 3 and argv[0] == "compare":
        return compare(Path(argv[1]), Path(argv[2]))
    print("usage: pi_check_snapshots.py run SCRIPTS_DIR OUT_DIR | compare DIR_A DIR_B", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
