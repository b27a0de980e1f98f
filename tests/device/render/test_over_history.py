"""The game-over panel keeps room for the clue history at both sizes (issue 15, item 26), on the real game-over
frames of ``make docs`` (docs/scripts/03-gameover.txt: title, score, reason, verdict and the summary lines)."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_layout import _frames

from device.render.models import GameOverUi
from device.render.shared import SharedRenderer
from device.render.text import record_texts

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize("size", [(1280, 720), (800, 480)], ids=["1280x720", "800x480"])
def test_game_over_with_its_summary_still_shows_the_clue_history(
    size: tuple[int, int], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    frames = dict(_frames(ROOT / "docs" / "scripts" / "03-gameover.txt", tmp_path, monkeypatch))
    for name in ("over", "over-keys"):
        frame = frames[name]
        ui = frame.shared
        assert isinstance(ui, GameOverUi) and len(ui.summary) >= 3 and ui.score_line and ui.verdict
        clues = frame.view.clues
        assert clues
        renderer = SharedRenderer()
        surface = record_texts(renderer.text, size)
        renderer.full(surface, frame.view, ui)
        texts = [t.text for t in surface.texts]  # type: ignore[attr-defined]
        newest = clues[-1]
        word = newest.word or "—"
        rows = [t for t in texts if t.startswith(f"{newest.seat} · {word}")]
        assert len(rows) == 2, (name, size, texts)  # once for each seat
        for line in ui.summary:  # and nothing of the summary was dropped for it
            assert texts.count(line) == 2, (name, size, line)
