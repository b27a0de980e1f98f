"""Help pages (issue 15): the illustrations stay big enough to read on the official 7" screen. On half of an
800x480 screen (each seat's copy of the page) a column of three cards would leave them about 36 px high with
the card's label over its icon; the figures then go in a row under the text, each at least 60 px high."""

from __future__ import annotations

from typing import Any

import pygame
import pytest

from device.i18n import Translator
from device.render import help as help_render
from device.render.shared import SharedRenderer
from device.screens.help import MODES


def _figure_boxes(size: tuple[int, int], mode: str, monkeypatch: pytest.MonkeyPatch) -> list[pygame.Rect]:
    from device.screens.help import HelpScreen

    boxes: list[pygame.Rect] = []
    real = help_render.figure

    def recording(surface: Any, box: pygame.Rect, fig: Any, text: Any, caption: int) -> None:
        boxes.append(pygame.Rect(box))
        real(surface, box, fig, text, caption)

    monkeypatch.setattr(help_render, "figure", recording)

    class Host:  # what HelpScreen reads of the app
        settings = {"orientation": "table", "language": "fr"}
        tr = Translator("fr")

    screen = HelpScreen(Host(), mode, None)  # type: ignore[arg-type]
    renderer = SharedRenderer()
    surface = pygame.Surface(size)
    renderer.full(surface, None, screen.frame().shared)  # type: ignore[arg-type]
    return boxes


@pytest.mark.parametrize("size", [(1280, 720), (800, 480)], ids=["1280x720", "800x480"])
@pytest.mark.parametrize("mode", MODES)
def test_help_figures_are_big_enough(pg: Any, size: tuple[int, int], mode: str,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    boxes = _figure_boxes(size, mode, monkeypatch)
    for box in boxes:
        assert box.height >= 60 and box.width >= 60, (mode, size, box)
