"""Settings from the chairs: what a café guest can change with the box's buttons (only the documented public
list, docs/kiosk.md), and that every value of every setting can be reached with the buttons alone (every
language, every word pack, every token count), through the MENU + both STOPs chord and the PIN."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from seatseye import Table

ROOT = Path(__file__).resolve().parents[2]


def _settings_rows(t: Table) -> list[str]:
    return [r.label for r in t.frame().shared.rows]


def _cycle_every_row(t: Table, seat: str = "A") -> dict[str, set[str]]:
    """Walk down every row of the settings screen in view; on each, press right until the value comes back
    round (at most 64 presses: a row that never comes back shows what it reached); the values seen per row."""
    seen: dict[str, set[str]] = {}
    rows = _settings_rows(t)
    for index, label in enumerate(rows):
        while t.frame().shared.selected != index:
            t.press(f"{seat}.down")
        start = str(t.frame().shared.rows[index].value)
        values = {start}
        for _ in range(64):  # round to the first value again (the language row: back to the test's language)
            t.press(f"{seat}.right")
            value = str(t.frame().shared.rows[index].value)
            values.add(value)
            if value == start:
                break
        seen[label] = values
    return seen


def test_seats_cafe_guest_changes_only_the_public_settings(table: Callable[..., Table]) -> None:
    from device.screens.shell import CAFE_PUBLIC

    t = table(settings={"cafe_mode": True})
    before = dict(t.app.storage.settings())
    t.choose(t.tr("menu.settings"))
    public = {t.tr(f"settings.{row}") for row in CAFE_PUBLIC}
    rows = _settings_rows(t)
    assert set(rows) == public | {t.tr("settings.back")}, rows
    _cycle_every_row(t)
    after = dict(t.app.storage.settings())
    changed = {k for k in set(before) | set(after) if before.get(k) != after.get(k)}
    assert changed <= set(CAFE_PUBLIC) | {"pack"}, changed  # the word pack follows the language (packs.py)
    assert t.frame().shared.status  # the screen says where the other settings went
    t.ok()


def test_seats_cafe_public_list_is_the_documented_one() -> None:
    """docs/kiosk.md names exactly the rows a café guest keeps (and says everything else needs the PIN)."""
    from device.i18n import Translator
    from device.screens.shell import CAFE_PUBLIC

    text = (ROOT / "docs" / "kiosk.md").read_text("utf-8")
    found = re.search(r"A café guest can\s+change\s+\*\*(.+?)\*\*", text)
    assert found, "docs/kiosk.md: the sentence 'A café guest can change **...**' is missing"
    tr = Translator("en")
    documented = {w.strip().lower() for w in re.split(r",| and ", found.group(1)) if w.strip()}
    assert documented == {tr(f"settings.{row}").lower() for row in CAFE_PUBLIC}, documented


def _admin(t: Table, pin: str = "4711") -> None:
    """The admin menu from the buttons: MENU and both STOPs held 5 s, then a new PIN chosen twice."""
    t.down_("menu").down_("A.stop").down_("B.stop").wait(5.3)
    t.up("menu").up("A.stop").up("B.stop")
    for _ in range(2):
        for digit in pin:
            for _ in range(int(digit)):
                t.press("A.up")
            t.press("A.right")
    assert type(t.screen).__name__ == "AdminScreen", type(t.screen).__name__


def test_seats_every_setting_value_reached_from_the_buttons(table: Callable[..., Table]) -> None:
    from device import packs
    from device.i18n import LANGUAGES
    from device.screens.shell import TOKENS

    t = table(render=False)
    _admin(t)
    seen = _cycle_every_row(t)
    names = packs.pack_names(t.app.storage.directory)
    assert len(seen[t.tr("settings.pack")]) >= len(names), seen[t.tr("settings.pack")]
    assert {str(n) for n in TOKENS} <= seen[t.tr("settings.tokens")]
    t.ok()
    languages = {t.tr(f"lang.{code}") for code in LANGUAGES}
    assert languages <= seen[t.tr("settings.language")], seen[t.tr("settings.language")]
