"""``python -m device.docs`` (``make docs``): regenerate the screenshots of docs/usage.md with the app itself.

Every ``docs/scripts/*.txt`` is a scripted run (the ``duetbox run --script`` language). A first line ``#! ARGS``
adds arguments to that run (``--seed 4``, ``--start docs/scripts/records/duet.json``); a second line ``#? solo fr``
marks a script that needs the French solo model: it runs only when ``DUETBOX_DATA_DIR`` names a directory where
one was built (``DUETBOX_DATA_DIR=~/.local/share/duetbox make docs`` after ``make partner``), and is skipped,
keeping its pictures, otherwise. Nothing else of this machine's user is read: every other script runs as on a box
where no solo model was ever built (the partner is looked for in the run's own, empty, data directory only; a
``#? no-solo`` line says so where the menu shows it). Each run starts on a fresh data directory, once per display
size: at 1280x720 its snapshots go to ``docs/img/usage/``, at 800x480 (the official 7" screen) to
``docs/img/usage/800x480/`` (shared display and both OLEDs; ring frames are left out).
"""
from __future__ import annotations

import importlib.util
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
    partner = os.environ.get("DUETBOX_DATA_DIR") or None  # the one place a built solo model is taken from
    OUT.mkdir(parents=True, exist_ok=True)
    failed = 0
    for script in sorted(SCRIPTS.glob("*.txt")):
        if only and script.stem not in only:
            continue
        head = script.read_text("utf-8").splitlines()[:2]
        first = head[:1]
        language = solo_language(head)
        if language is not None and not solo_ready(language, partner):
            print(f"docs: {script.name} skipped (no {language} solo model in DUETBOX_DATA_DIR: run "
                  "`make partner`, then DUETBOX_DATA_DIR=~/.local/share/duetbox make docs; its pictures are kept)")
            continue
        extra = shlex.split(first[0][2:]) if first and first[0].startswith("#!") else []
        extra = [str(ROOT / a) if a.startswith("docs/") else a for a in extra]
        for size, out in SIZES:
            out.mkdir(parents=True, exist_ok=True)
            with tempfile.TemporaryDirectory(prefix="duetbox-docs-") as data, partner_home(head, data, partner):
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


def solo_language(head: list[str]) -> str | None:
    """The language of the solo model a script needs (its second line ``#? solo [LANG]``), or None."""
    if len(head) > 1 and head[1].startswith("#? solo"):
        words = head[1].split()[2:]
        return words[0] if words else "fr"
    return None


@contextmanager
def partner_home(head: list[str], data: str, partner: str | None = None) -> Iterator[None]:
    """``DUETBOX_DATA_DIR`` for one scripted run: ``partner`` (where a solo model was built) for a script headed
    ``#? solo``, the run's own empty data directory for every other one, so that no picture depends on what this
    machine's user has built or played."""
    before = os.environ.get("DUETBOX_DATA_DIR")
    os.environ["DUETBOX_DATA_DIR"] = partner if partner and solo_language(head) is not None else data
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("DUETBOX_DATA_DIR", None)
        else:
            os.environ["DUETBOX_DATA_DIR"] = before


def solo_ready(language: str, partner: str | None) -> bool:
    """A solo model of ``language`` is built in the directory ``partner`` (None: none was named)."""
    if partner is None or importlib.util.find_spec("numpy") is None:
        return False
    from partner.paths import built_spaces

    return bool(built_spaces(language, partner))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
