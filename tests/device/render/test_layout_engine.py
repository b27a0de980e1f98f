"""The same OLED pixels on the box, in CI and in the docs: every PIL font uses Pillow's BASIC layout engine.

With libraqm (and libfribidi) installed Pillow picks its RAQM engine by default, which places glyphs
differently; the box's Pillow may find libraqm where a CI wheel does not (or the other way round)."""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from device.render.text import BOLD, REGULAR, pil_font

DEVICE = Path(__file__).resolve().parents[3] / "device"


def test_pil_fonts_use_the_basic_layout_engine() -> None:
    for bold in (False, True):
        for size in (9, 12, 16, 22):
            assert pil_font(size, bold=bold).layout_engine == ImageFont.Layout.BASIC


def test_the_renderers_text_matches_an_explicit_basic_font() -> None:
    text = "Siège B : « Écran partagé » — ĂÂÎȘȚ ăâîșț"
    for face, bold in ((REGULAR, False), (BOLD, True)):
        ours = Image.new("1", (240, 20))
        ImageDraw.Draw(ours).text((0, 0), text, font=pil_font(12, bold=bold), fill=1)
        basic = Image.new("1", (240, 20))
        font = ImageFont.truetype(str(face), 12, layout_engine=ImageFont.Layout.BASIC)
        ImageDraw.Draw(basic).text((0, 0), text, font=font, fill=1)
        assert ours.tobytes() == basic.tobytes()
        assert ours.getbbox() is not None


def test_no_renderer_loads_a_font_without_choosing_the_engine() -> None:
    for path in DEVICE.rglob("*.py"):
        for line in path.read_text("utf-8").splitlines():
            if "ImageFont.truetype(" in line:
                assert "layout_engine=ImageFont.Layout.BASIC" in line, (path, line)
