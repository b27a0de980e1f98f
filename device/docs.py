"""``python -m device.docs`` (``make docs``): regenerate the screenshots of docs/usage.md with the app itself.

Every ``docs/scripts/*.txt`` is a scripted run (the ``duetbox run --script`` language). A first line ``#! ARGS``
adds arguments to that run (``--seed 4``, ``--start docs/scripts/records/duet.json``); a second line ``#? solo fr``
skips the script, keeping its pictures, where no French solo model is built (``duetbox partner build``; one built
elsewhere is found through ``DUETBOX_DATA_DIR=/path/to/data make docs``), and ``#? no-solo`` runs it as on a box
where none was ever built (the partner is looked for in the run's own, empty, data directory only). Each run
starts on a fresh data directory, once per display size: at 1280x720 its snapshots go to ``docs/img/usage/``, at
800x480 (the official 7" screen) to ``docs/img/usage/800x480/`` (shared display and both OLEDs; ring frames are
left out).
"""

from __future__ import annotations

import os
import shlex
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = ROOT / "docs" / "scripts"
OUT = ROOT / "docs" / "img" / "usage"
#: (size, output directory) of each pass: a 1280x720 HDMI screen and the official 7" touch screen.
SIZES: tuple[tuple[str, Path], ...] = (("1280x720", OUT), ("800x480", OUT / "800x480"))


def main(argv: list[str] | None = None) -> int:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    from device.commands import run

    only = set(argv if argv is not None else sys.argv[1:])
    OUT.mkdir(parents=True, exist_ok=True)
    failed = 0
    for script in sorted(SCRIPTS.glob("*.txt")):
        if only and script.stem not in only:
            continue
        head = script.read_text("utf-8").splitlines()[:2]
        first = head[:1]
        needs = head[1].split()[1:] if len(head) > 1 and head[1].startswith("#? solo") else []
        if needs and not _solo_ready(needs[1] if len(needs) > 1 else "fr"):
            print(f"docs: {script.name} skipped (no solo model built here: run `duetbox partner build`; its "
                  "pictures are kept)")
            continue
        extra = shlex.split(first[0][2:]) if first and first[0].startswith("#!") else []
        extra = [str(ROOT / a) if a.startswith("docs/") else a for a in extra]
        for size, out in SIZES:
            out.mkdir(parents=True, exist_ok=True)
            with tempfile.TemporaryDirectory(prefix="duetbox-docs-") as data, solo_hidden(head, data):
                code = run.main(["--hardware", "mock", "--script", str(script), "--snapshots", str(out),
                                 "--data-dir", data, "--size", size, *extra])
            if code != 0:
                print(f"docs: {script.name} at {size} failed (exit {code})", file=sys.stderr)
                failed += 1
            else:
                print(f"docs: {script.name} at {size}")
    for _, out in SIZES:
        for ring in out.glob("*-ring.json"):
            ring.unlink()
    return 1 if failed else 0


@contextmanager
def solo_hidden(head: list[str], data: str) -> Iterator[None]:
    """For a script headed ``#? no-solo``: the partner's default directory is the run's data directory (empty), as
    on a box where no solo model was built, whatever this machine has."""
    if not (len(head) > 1 and head[1].strip() == "#? no-solo"):
        yield
        return
    before = os.environ.get("DUETBOX_DATA_DIR")
    os.environ["DUETBOX_DATA_DIR"] = data
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("DUETBOX_DATA_DIR", None)
        else:
            os.environ["DUETBOX_DATA_DIR"] = before


def _solo_ready(language: str) -> bool:
    """A script headed ``#? solo LANG`` needs the solo partner's model (found where the app looks for it)."""
    from device.solo import availability

    return availability(language, None).ok


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
