"""Writes the renderer sample images in build/render-samples/ to look at (run from the repository root):

    SDL_VIDEODRIVER=dummy .venv/bin/python tests/device/render/make_samples.py
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

import pygame  # noqa: E402
import render_samples as samples  # noqa: E402
import render_scenes as scenes  # noqa: E402
from PIL import Image  # noqa: E402

from device.render.models import ClueEntryUi, SeatKeyUi  # noqa: E402
from device.render.oled import render_oled  # noqa: E402
from device.render.shared import SharedRenderer  # noqa: E402
from engine.views import seat_view  # noqa: E402

OUT = Path(__file__).resolve().parents[3] / "build" / "render-samples"  # not docs/img: docs/usage.md uses make docs
SHARED = {"play_mid": (1280, 720), "over_lost_keys": (1280, 720), "mission_map": (1280, 720),
          "classic": (1280, 720), "pictures": (1280, 720)}


def main() -> int:
    pygame.init()
    OUT.mkdir(parents=True, exist_ok=True)
    for name, size in SHARED.items():
        view, ui = samples.ALL[name]()
        surface = pygame.Surface(size)
        SharedRenderer().render(surface, view, ui)
        pygame.image.save(surface, str(OUT / f"render-{name.replace('_', '-')}.png"))
    state = scenes.mid_game()
    oleds = [
        render_oled(seat_view(state, "A"), SeatKeyUi(role="attends que B devine", cursor=7)),
        render_oled(seat_view(state, "B"), SeatKeyUi(role="à toi de deviner", cursor=12)),
        render_oled(seat_view(state, "A"), ClueEntryUi(stage="number", number=3, title="Combien ?",
                                                       hint="OK : valider")),
        render_oled(seat_view(state, "A"), ClueEntryUi(stage="word", number=3, word="rivi",
                                                       letters=tuple("AÂBCDEÉÈFGHIÎJ"), letter=6,
                                                       title="Mot (facultatif)", hint="OK lettre · STOP fin")),
    ]
    scale, gap = 3, 12
    sheet = Image.new("RGB", (2 * 128 * scale + 3 * gap, 2 * 64 * scale + 3 * gap), (40, 40, 40))
    for k, image in enumerate(oleds):
        big = image.convert("RGB").resize((128 * scale, 64 * scale), Image.NEAREST)
        sheet.paste(big, (gap + (k % 2) * (128 * scale + gap), gap + (k // 2) * (64 * scale + gap)))
    sheet.save(OUT / "render-oleds.png")
    print(f"samples written to {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
