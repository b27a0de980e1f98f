"""Issue 15 on the seat OLEDs (128x64, one bit): no text a player must read is cut, on any screen the box shows,
in any interface language.

Every docs/scripts/*.txt is played on the mock box (as ``make docs`` plays it); at each snapshot the frame is
asked for again with each interface catalog (fr, en, ro, de, it), and each seat's OLED model is drawn directly
(no cached tiles), recording every text PIL draws. A menu is also drawn with each of its rows selected, so every
row comes into view. Each drawing is then checked on its own, not on the renderer's word:

- every text the player must read (a title, a line, the selected row's label and value, the role, the hint, the
  refusal, the status) is drawn whole: its letters, in order, are among the drawn texts;
- no drawn text carries an ellipsis ("…") its model text did not have;
- no text's ink runs past the panel's edges, no two texts' ink overlap, and no line is a lone mark ("…", "?");
- ``render.oled.overflows`` (the renderer's own record of a cut or a dropped line) is empty.

Exempt, because it is the players' own free input and may be arbitrarily long: the word being typed on the letter
picker and the clue word on the confirmation (the picker scrolls to the word's end; the confirmation cuts the word,
never its number), and the clue word on the seat's key map (cut at its end; the number is always whole). Team names
are free input too, but short enough by the picker's limit that they are checked like any other row.

Screens no docs script shows (the solo set-up where no solo model is built, game over lost, the PIN screens' errors,
storage and display problems, the remote screens, the pause notice) are built from their catalog keys in each
language and checked the same way.
"""

from __future__ import annotations

import dataclasses
import os
import shlex
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from docs_partner import solo_partner
from PIL import ImageDraw

from device.i18n import LANGUAGES, Translator
from device.render import models as m
from device.render import oled

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

ROOT = Path(__file__).resolve().parents[3]
SCRIPTS = sorted((ROOT / "docs" / "scripts").glob("*.txt"))

#: (text, ink box, ink): ink 0 is a text drawn dark on a lit box (the selected menu row, an inverted page)
Drawn = list[tuple[str, tuple[int, int, int, int], int]]


def _frames(script: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str, Any]]:
    """(snapshot name, language, frame) at each snapshot of ``script``, the frame asked for in each language."""
    from device import docs
    from device.commands import run

    head = script.read_text("utf-8").splitlines()[:2]
    partner = solo_partner(head, tmp_path)
    extra = shlex.split(head[0][2:]) if head and head[0].startswith("#!") else []
    extra = [str(ROOT / a) if a.startswith("docs/") else a for a in extra]
    frames: list[tuple[str, str, Any]] = []

    def capture(app: Any, directory: Path, name: str) -> None:
        saved = app.tr
        try:
            for language in LANGUAGES:
                app.tr = Translator(language)
                frames.append((name, language, app.frame()))
        finally:
            app.tr = saved

    monkeypatch.setattr(run, "snapshot", capture)
    with docs.partner_home(head, str(tmp_path), partner):
        code = run.main(["--hardware", "mock", "--script", str(script), "--data-dir", str(tmp_path),
                         "--size", "800x480", *extra])
    assert code == 0
    return frames


def _drawn(view: Any, ui: Any, monkeypatch: pytest.MonkeyPatch) -> Drawn:
    """(text, ink box) of every text drawn on the OLED frame, in drawing order (PIL primitives only)."""
    drawn: Drawn = []
    real = ImageDraw.ImageDraw.text

    def text(self: ImageDraw.ImageDraw, xy: Any, string: Any, *args: Any, **kwargs: Any) -> None:
        if getattr(self, "_image", None) is not None and self._image.size == (oled.WIDTH, oled.HEIGHT):
            box = self.textbbox(xy, string, font=kwargs.get("font"), anchor=kwargs.get("anchor"))
            drawn.append((str(string), tuple(int(v) for v in box), int(kwargs.get("fill", 1))))  # type: ignore[arg-type]
        real(self, xy, string, *args, **kwargs)

    with monkeypatch.context() as patch:
        patch.setattr(ImageDraw.ImageDraw, "text", text)
        oled.render_oled(view, ui, fast=False)
    return drawn


def _required(view: Any, ui: Any) -> list[str]:
    """The texts of this model a player must read whole."""
    if isinstance(ui, m.MenuUi):
        if not ui.items:
            return [ui.title]
        item = ui.items[min(max(ui.selected, 0), len(ui.items) - 1)]
        return [ui.title, item.label, item.value or ""]
    if isinstance(ui, m.OledTextUi):
        return [ui.title, *ui.lines]
    if isinstance(ui, m.ClueEntryUi):
        texts = [ui.title, ui.hint]
        if ui.stage == "refusal":
            texts += [ui.refusal or "", *ui.choices]
        if ui.number is not None and ui.stage in ("word", "confirm"):
            texts.append(str(ui.number))
        return texts
    if isinstance(ui, m.SeatKeyUi):
        texts = [ui.role]
        clue = view.public.current_clue if view is not None else None
        if clue is not None:
            texts.append(str(clue.number))
        return texts
    if isinstance(ui, m.SpymasterUi):
        return [ui.status]
    return []


def _free(view: Any, ui: Any) -> list[str]:
    """The players' own free input on this model (see the module's docstring)."""
    if isinstance(ui, m.ClueEntryUi) and ui.stage in ("word", "confirm"):
        return [ui.word + "_" if ui.stage == "word" else ui.word]  # the picker's cursor follows the word
    if isinstance(ui, m.SeatKeyUi) and view is not None and view.public.current_clue is not None:
        return [view.public.current_clue.word or ""]
    return []


def _squash(text: str) -> str:
    return "".join(text.split())


def _inside(box: tuple[int, int, int, int]) -> bool:
    return box[0] >= 0 and box[1] >= 0 and box[2] <= oled.WIDTH and box[3] <= oled.HEIGHT


def _overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int], slack: int = 1) -> bool:
    """The ink boxes overlap by more than ``slack`` px each way (a descender may touch the next line's accent)."""
    return (min(a[2], b[2]) - max(a[0], b[0]) > slack) and (min(a[3], b[3]) - max(a[1], b[1]) > slack)


def _missing(view: Any, ui: Any, drawn: Drawn) -> list[str]:
    """The texts a player must read that are not drawn whole."""
    out = []
    names = [t for t, _, _ in drawn]
    if isinstance(ui, m.MenuUi) and ui.items:  # the selected row's label and value: in the lit row itself
        lit = "".join(_squash(t) for t, _, ink in drawn if ink == 0)
        item = ui.items[min(max(ui.selected, 0), len(ui.items) - 1)]
        for text in (item.label, item.value or ""):
            if text.strip() and _squash(text) not in lit:
                out.append(f"not whole in the selected row: {text!r} (drawn: {names})")
    joined = "".join(_squash(t) for t in names)
    for text in _required(view, ui):
        if text.strip() and _squash(text) not in joined:
            out.append(f"not drawn whole: {text!r} (drawn: {names})")
    return out


def _cut(view: Any, ui: Any, text: str) -> bool:
    """``text`` (drawn) carries an ellipsis that is not its model's own, nor on the players' free input (each piece
    around the "…" a piece of the free input, or its number)."""
    wanted = [_squash(t) for t in _required(view, ui) if t]
    if "…" not in text or any("…" in t for t in wanted):
        return False
    free = [_squash(t) for t in _free(view, ui) if t]
    pieces = [_squash(piece) for piece in text.split("…") if piece.strip()]
    return not free or not all(any(p in f for f in free) or (p.isdigit() and p in wanted) for p in pieces)


def problems(view: Any, ui: Any, drawn: Drawn) -> list[str]:
    """What a player would find cut on this drawing of ``ui``."""
    out = _missing(view, ui, drawn)
    for text, box, _ in drawn:
        if _cut(view, ui, text):
            out.append(f"ellipsized: {text!r}")
        if text.strip() and set(text.replace(" ", "")) <= set("…?!:;»"):
            out.append(f"a mark alone on its line: {text!r}")
        if text.strip() and not _inside(box):
            out.append(f"ink past the panel's edge: {text!r} {box}")
    shown = [(t, b) for t, b, _ in drawn if t.strip()]
    for i, (ta, ba) in enumerate(shown):
        out += [f"overlap: {ta!r} {ba} and {tb!r} {bb}" for tb, bb in shown[i + 1:] if _overlap(ba, bb)]
    free = [_squash(t) for t in _free(view, ui) if t]
    out += [f"overflows: {text!r}" for text in oled.overflows(view, ui)
            if not any(_squash(text) in f or f in _squash(text) for f in free)]
    return out


def _variants(ui: Any) -> Iterator[Any]:
    """The model as shown, and a menu with each of its rows selected (every row comes into view)."""
    yield ui
    if isinstance(ui, m.MenuUi):
        for i in range(len(ui.items)):
            if i != ui.selected:
                yield dataclasses.replace(ui, selected=i)


def _check(view: Any, ui: Any, where: str, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    out = []
    for variant in _variants(ui):
        drawn = _drawn(view, variant, monkeypatch)
        selected = f" row {variant.selected}" if isinstance(variant, m.MenuUi) else ""
        out += [f"{where}{selected}: {p}" for p in problems(view, variant, drawn)]
    return out


# -- the checks can fail -------------------------------------------------------------------------------------

def test_the_checks_see_an_ellipsis_a_missing_line_an_edge_and_an_overlap(monkeypatch: pytest.MonkeyPatch) -> None:
    pause = m.MenuUi("Pause", (m.MenuItem("Continuer"), m.MenuItem("Indice non valable : pénalité", False)), 1)
    cut: Drawn = [("Pause", (2, 0, 30, 11), 1), ("Continuer", (4, 13, 50, 24), 1),
                  ("(Indice non valable : …", (4, 25, 120, 36), 0)]
    found = problems(None, pause, cut)
    assert any("ellipsized" in p for p in found) and any("not drawn whole" in p for p in found), found
    assert any("ink past" in p for p in problems(None, m.OledTextUi("Titre"), [("Titre", (-1, 0, 30, 12), 1)]))
    assert any("overlap" in p for p in problems(None, m.OledTextUi("A", ("B",)),
                                                [("A", (0, 0, 20, 12), 1), ("B", (10, 5, 30, 15), 1)]))
    # a real drawing: the old one-line menu row (the label cut with "…" to leave room for the value)
    setup = m.MenuUi("Solo (Français)", (m.MenuItem("Difficulté", True, "normal (9 jetons)"),), 0)

    def one_line(item: m.MenuItem, inner: int, measure: Any) -> list[tuple[str, str]]:
        value = item.value or ""
        return [(oled.ellipsize(item.label, inner - measure(value) - 6, measure), value)]

    assert problems(None, setup, _drawn(None, setup, monkeypatch)) == []
    monkeypatch.setattr(oled, "_menu_lines", one_line)
    assert any("Difficulté" in p for p in problems(None, setup, _drawn(None, setup, monkeypatch)))


def test_free_input_may_scroll_but_its_number_stays_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    long_word = "ANTICONSTITUTIONNELLEMENT"
    for stage in ("word", "confirm"):
        ui = m.ClueEntryUi(stage, 3, word=long_word, letters=tuple("ABC"), title="Mot ?", hint="OK : donner")
        drawn = _drawn(None, ui, monkeypatch)
        assert any("…" in t for t, _, _ in drawn), stage  # the word really was cut: it is the exempt one
        assert problems(None, ui, drawn) == [], stage


# -- every docs screen, in every language ---------------------------------------------------------------------

@pytest.mark.parametrize("script", SCRIPTS, ids=[s.stem for s in SCRIPTS])
def test_docs_oleds_cut_no_text_in_any_language(script: Path, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    frames = _frames(script, tmp_path, monkeypatch)
    assert frames, f"{script.name} takes no snapshot"
    found, seen = [], 0
    for name, language, frame in frames:
        for seat, ui in frame.oleds.items():
            if ui is None:
                continue
            seen += 1
            found += _check(frame.seat_views.get(seat), ui, f"{name} [{language}] OLED {seat}", monkeypatch)
    assert seen >= len(LANGUAGES), script.name
    assert found == [], "\n".join(found[:60]) + f"\n({len(found)} problems)"


# -- screens no docs script shows -----------------------------------------------------------------------------

def _catalog_models(tr: Translator) -> Iterator[tuple[str, m.OledUi]]:
    """The OLED models of the screens the docs scripts do not reach, as those screens build them."""
    from device.storage_screen import PROBLEMS, notice_frame, storage_frame

    for problem in PROBLEMS:
        yield f"storage {problem}", storage_frame(tr, problem).oleds["A"]  # type: ignore[misc]
    for notice in ("empty", "moved_aside", "replaced"):
        if tr.has(f"storage.fresh_{notice}"):
            yield f"storage notice {notice}", notice_frame(tr, notice).oleds["A"]  # type: ignore[misc]
    yield "paused", m.OledTextUi(tr("paused.title"), (tr("paused.line"),))
    yield "display wait", m.OledTextUi(tr("degraded.display_title"), (
        tr("degraded.display_line1"), tr("degraded.display_line2"), tr("degraded.display_line3")))
    # game over, Duet: each reason, won or lost, before and after the keys are shown
    for reason in ("won", "assassin", "sudden_death_miss", "out_of_time"):
        won = reason == "won"
        for last in ("over.oled_press", "over.oled_done", "guide.over_next"):
            lines = (tr(f"over.reason_{reason}"), tr("over.score", score=23)) if won else (
                tr(f"over.reason_{reason}"),)
            yield f"over {reason} {last}", m.OledTextUi(tr("over.won" if won else "over.lost"),
                                                        (*lines, tr(last)), invert=won)
    yield from _catalog_models_more(tr)


def _catalog_models_more(tr: Translator) -> Iterator[tuple[str, m.OledUi]]:
    """... and the rest of them: the mission map, classic's game over, a refused clue, the PIN screens."""
    # the mission map: every city, in this language, with its rules, record and state
    from device.render.screens import city_label
    from engine.missions import default_map

    for city in default_map().cities:
        for state in ("ticked", "playable", "locked"):
            yield f"city {city.name} {state}", m.OledTextUi(city_label(city.name, tr.language), (
                tr("missions.detail_rules", turns=city.turns, mistakes=city.mistakes),
                tr("missions.detail_record", wins=12, losses=10), tr(f"missions.{state}")))
    # classic and Pictures game over: each winner, each reason
    for team in ("R", "B"):
        for reason in ("all_found", "assassin", "opponent_done"):
            yield f"classic over {team} {reason}", m.OledTextUi(
                tr("classic.winner", team=tr(f"team.{team}")),
                (tr(f"classic.reason_{reason}"), tr("over.prompt_leave")), invert=True)
    # a clue refused: each reason, about a long card word
    for problem in ("empty", "several_words", "digits", "not_a_word", "visible", "contains", "contained_in",
                    "same_stem"):
        yield f"refusal {problem}", m.ClueEntryUi(
            "refusal", 2, word="PAMPLEMOUSSES", refusal=tr(f"clue.problem.{problem}", word="PAMPLEMOUSSE"),
            choices=(tr("clue.accept"), tr("clue.change")), title=tr("clue.refused_title"))
    # the PIN screens: each title, with each error
    for title in ("pin.title", "pin.first", "pin.new", "pin.confirm"):
        for error in ("", tr("pin.mismatch"), tr("pin.wrong"), tr("pin.wait", n=30), tr("pin.not_saved"),
                      tr("pin.changed")):
            yield f"{title} {error!r}", m.OledTextUi(tr(title), ("***4", error))
    # remote play: the waiting and lost-link titles, the code picker, the partner's seat
    back = tr("remote.back")
    for title in (tr("remote.offline"), tr("remote.waiting_partner"), tr("remote.partner_offline"),
                  tr("remote.waiting_host", code="K7QX")):
        yield f"remote {title}", m.OledTextUi(title, (back,))
        yield f"remote {title} code", m.OledTextUi(title, ("K7QX", back))
    yield "remote code", m.OledTextUi(tr("remote.enter_title"), ("[K] 7  Q  X ",))
    for extra in ((), (tr("remote.sending"),), (tr("remote.refused"),)):
        yield f"remote partner {extra}", m.OledTextUi(tr("remote.partner"),
                                                      (tr("remote.partner_at", card=25), *extra))


@pytest.mark.parametrize("language", LANGUAGES)
def test_screens_beyond_the_docs_cut_no_text(language: str, monkeypatch: pytest.MonkeyPatch) -> None:
    tr = Translator(language)
    found, seen = [], 0
    for name, ui in _catalog_models(tr):
        seen += 1
        found += _check(None, ui, f"{name} [{language}]", monkeypatch)
    assert seen > 30
    assert found == [], "\n".join(found)


@pytest.mark.parametrize("name", ["LES AS DU QUARTI", "MMMMMMMMMMMMMMMM", "ȘTEFĂNEȘTI 2026"])
def test_team_names_the_longest_the_picker_takes_show_every_letter(name: str,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A team name is free input, but at most 16 letters (device/screens/missions.py): in the list of sheets and
    on seat B's OLED while A types it, every letter shows (a name wider than a line is broken across two)."""
    assert len(name) <= 16
    sheets = m.MenuUi("Feuille d'équipe", (m.MenuItem(name), m.MenuItem("Nouvelle équipe")), 0)
    typing = m.OledTextUi("Nom de l'équipe", (name,))
    for ui in (sheets, typing):
        drawn = _drawn(None, ui, monkeypatch)
        found = [p for p in problems(None, ui, drawn) if not p.startswith("overflows")]  # broken, not cut
        assert found == [], found
        assert not any("…" in t for t, _, _ in drawn)


@pytest.mark.parametrize("language", LANGUAGES)
def test_solo_setup_rows_are_whole_in_every_language(language: str, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The solo set-up (docs/scripts/11-solo.txt needs a built model): every difficulty and clue rule."""
    from device.app import App
    from device.screens.solo import SoloSetupScreen
    from device.solo import DIFFICULTIES
    from device.storage import Storage
    from hardware.factory import open_box

    app = App(open_box("mock"), Storage(tmp_path / "data"), seed=5)
    try:
        app.tr = Translator(language)
        screen = SoloSetupScreen(app)
        found = []
        for difficulty in DIFFICULTIES:
            for clues in ("strict", "flexible"):
                screen.values.update(difficulty=difficulty, clues=clues)
                ui = screen.frame().oleds["A"]
                assert isinstance(ui, m.MenuUi) and ui.items[0].value
                found += _check(None, ui, f"solo {difficulty} {clues} [{language}]", monkeypatch)
        assert found == [], "\n".join(found)
    finally:
        app.shutdown()


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_setting_and_its_every_value_is_whole_in_every_language(language: str, tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """The admin screen (a superset of the players' settings), with the spoken-announcement rows a box with a
    speaker adds: each row selected with each of its values (the docs show one value of each)."""
    from device.app import App
    from device.screens.shell import AdminScreen
    from device.storage import Storage
    from hardware.factory import open_box

    app = App(open_box("mock"), Storage(tmp_path / "data"), seed=5)
    try:
        monkeypatch.setattr(app.audio, "speaker", object())
        screen = AdminScreen(app)
        rows = screen.rows()
        assert "speech_output_A" in rows and "hourglass_enforced" in rows
        found, seen = [], 0
        for index, row in enumerate(rows):
            for option in screen._options(row) or (None,):
                if option is not None and row != "language":  # (the box's language is the catalog's, below)
                    app.settings.set(row, option)
                app.tr = Translator(language)
                screen.selected = index
                ui = screen.frame().oleds["A"]
                assert isinstance(ui, m.MenuUi)
                seen += 1
                found += [f"admin {row}={option!r} [{language}]: {p}"
                          for p in problems(None, ui, _drawn(None, ui, monkeypatch))]
        assert seen > 40
        assert found == [], "\n".join(found[:40])
    finally:
        app.shutdown()
