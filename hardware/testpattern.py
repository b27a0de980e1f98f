"""Test patterns for ``duetbox hw-test``: what a builder looks at to check the wiring."""

from __future__ import annotations

import math
from typing import Any

from PIL import Image, ImageDraw

from hardware.base import RGB, Seat


def oled_pattern(seat: Seat, size: tuple[int, int] = (128, 64)) -> Image.Image:
    """A frame, the seat's name, an arrow to the top edge and a lit pixel in each corner.

    A wrong rotation shows as an arrow that does not point away from the player; a wrong driver (SSD1306 code
    on an SH1106 panel) as a frame shifted by two columns with noise on one edge.
    """
    w, h = size
    img = Image.new("1", size)
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, 0, w - 1, h - 1), outline=1)
    draw.rectangle((3, 3, w - 4, h - 4), outline=1)
    for x, y in ((0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1)):
        draw.point((x, y), fill=1)
    draw.text((10, h // 2 - 4), f"seat {seat}", fill=1)
    cx = w - 22
    draw.polygon([(cx, 8), (cx - 7, 18), (cx + 7, 18)], fill=1)
    draw.line((cx, 18, cx, h - 10), fill=1, width=3)
    for i in range(0, 24, 4):  # a checker strip: dead pixels show up here
        for j in range(0, 8, 4):
            if (i // 4 + j // 4) % 2 == 0:
                draw.rectangle((10 + i, h - 14 + j, 13 + i, h - 11 + j), fill=1)
    return img


def ring_chase(count: int, step: int) -> list[RGB]:
    """One bright LED going round, with a fading tail; a full turn per ``count`` steps, colour per turn."""
    colours: tuple[RGB, ...] = ((255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255))
    r, g, b = colours[(step // count) % len(colours)]
    head = step % count
    out: list[RGB] = [(0, 0, 0)] * count
    for tail in range(4):
        k = 1.0 / (1 + 2 * tail)
        out[(head - tail) % count] = (round(r * k), round(g * k), round(b * k))
    return out


def draw_test_card(surface: Any, lines: list[str]) -> None:
    """Colour bars, a circle that must look round, corner marks and a few lines of text on the display."""
    import pygame

    w, h = surface.get_size()
    surface.fill((20, 20, 24))
    bars = [(255, 255, 255), (255, 255, 0), (0, 255, 255), (0, 255, 0), (255, 0, 255), (255, 0, 0),
            (0, 0, 255)]
    bw = w / len(bars)
    for i, colour in enumerate(bars):
        pygame.draw.rect(surface, colour, pygame.Rect(round(i * bw), 0, math.ceil(bw), h // 3))
    for i in range(16):  # grey ramp
        grey = round(255 * i / 15)
        cell = pygame.Rect(round(i * w / 16), h // 3, math.ceil(w / 16), h // 12)
        pygame.draw.rect(surface, (grey, grey, grey), cell)
    radius = min(w, h) // 5
    pygame.draw.circle(surface, (230, 230, 230), (w // 2, h * 2 // 3), radius, 3)
    pygame.draw.line(surface, (230, 230, 230), (w // 2 - radius, h * 2 // 3), (w // 2 + radius, h * 2 // 3))
    pygame.draw.line(surface, (230, 230, 230), (w // 2, h * 2 // 3 - radius), (w // 2, h * 2 // 3 + radius))
    mark = max(12, min(w, h) // 20)
    for x, y, dx, dy in ((0, 0, 1, 1), (w - 1, 0, -1, 1), (0, h - 1, 1, -1), (w - 1, h - 1, -1, -1)):
        pygame.draw.line(surface, (255, 80, 80), (x, y), (x + dx * mark, y), 3)
        pygame.draw.line(surface, (255, 80, 80), (x, y), (x, y + dy * mark), 3)
    pygame.font.init()
    font = pygame.font.Font(None, max(20, h // 22))
    y = h // 3 + h // 12 + 10
    for line in lines:
        text = font.render(line, True, (240, 240, 240))
        surface.blit(text, (20, y))
        y += text.get_height() + 4
