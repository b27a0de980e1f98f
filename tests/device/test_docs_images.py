"""docs/img holds no orphan: every picture is shown by a page of docs/ or the README, and every snapshot of
``make docs`` (a name's shared display and OLED pictures) by docs/usage.md; both display sizes are made."""

from __future__ import annotations

import re
from pathlib import Path

from device import docs

ROOT = Path(__file__).resolve().parents[2]
IMG = ROOT / "docs" / "img"


def _pages() -> str:
    return "\n".join(p.read_text("utf-8") for p in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))])


def test_every_top_level_picture_is_shown_somewhere() -> None:
    pages = _pages()
    orphans = [p.name for p in sorted(IMG.glob("*.png")) if f"img/{p.name}" not in pages]
    assert orphans == []


def test_every_make_docs_snapshot_is_in_the_tour() -> None:
    usage = (ROOT / "docs" / "usage.md").read_text("utf-8")
    shown = set(re.findall(r"img/usage/(?:800x480/)?([\w.-]+?)-(?:shared|oled-[AB])\.png", usage))
    names = {re.sub(r"-(shared|oled-[AB])$", "", p.stem) for p in (IMG / "usage").glob("*.png")}
    assert names, "no snapshots: run make docs"
    assert sorted(names - shown) == []


def test_make_docs_renders_both_sizes() -> None:
    assert [size for size, _ in docs.SIZES] == ["1280x720", "800x480"]
    big = {p.name for p in (IMG / "usage").glob("*.png")}
    small = {p.name for p in (IMG / "usage" / "800x480").glob("*.png")}
    assert small and small <= big
    # Solo's script runs only where DUETBOX_DATA_DIR names a built model (`#? solo` in docs/scripts/11-solo.txt): its
    # 800x480 pictures come with the first `make docs` on such a machine
    assert sorted(n for n in big - small if not n.startswith("solo-")) == []
