"""Renderers: pure functions from an engine view plus a small UI model (``models.py``) to a picture.

- ``shared.SharedRenderer().render(surface, public_view_or_None, ui) -> list[Rect]`` draws any shared-display
  screen (``models.SharedUi``) and returns the dirty rects; it redraws only regions whose content changed.
  ``render_shared(surface, view, ui, renderer=None)`` is the one-call form (full redraw without a renderer).
- ``oled.render_oled(seat_view_or_None, ui) -> PIL.Image`` (128x64, mode "1") for ``models.OledUi``, drawn every
  time (the app does not ask again for an unchanged frame: device/outputs.py skips it).
- ``ring.ring_frame(public_view_or_None, effects, t, count, brightness) -> list[RGB]`` and
  ``ring.next_deadline(view, effects, t) -> float | None`` for the LED ring; effects in ``models``.

Strings are shown as given (the app translates); the shared display and the ring only ever see public views.
"""
