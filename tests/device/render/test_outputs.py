"""device/outputs.py is the one layer that skips unchanged frames: an unchanged frame is neither drawn nor sent
to any device, a changed part is sent alone, ``force`` sends everything; below it nothing skips (the OLED screens
send what differs from their glass, the ring writes every frame it is shown)."""

from __future__ import annotations

import os
from dataclasses import replace

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pytest  # noqa: E402
from render_scenes import mid_game  # noqa: E402

from device.outputs import Outputs  # noqa: E402
from device.render import models as m  # noqa: E402
from device.screens.base import Frame  # noqa: E402
from engine.views import public_view, seat_view  # noqa: E402
from hardware.factory import open_box  # noqa: E402


@pytest.fixture
def box():  # type: ignore[no-untyped-def]
    box = open_box("mock")
    yield box
    box.close()


def _frame(cursor: int = 3, message: str = "B devine") -> Frame:
    state = mid_game()
    view = public_view(state)
    return Frame(shared=m.PlayUi(cursors=(m.Cursor("A", cursor),), message=message), view=view,
                 oleds={"A": m.SeatKeyUi(role="attends", cursor=cursor), "B": m.SeatKeyUi(role="devine")},
                 seat_views={"A": seat_view(state, "A"), "B": seat_view(state, "B")}, ring_view=view)


def _sent(box) -> tuple[int, int, int, int, int]:  # type: ignore[no-untyped-def]
    """What reached the devices: presents, OLED frames A and B handed to the screens, ring frames written."""
    a, b = box.oleds["A"], box.oleds["B"]
    return (box.display.presents, a.panel.faults.writes, b.panel.faults.writes, len(box.ring.driver.written),
            len(box.ring.frames))


def test_outputs_an_unchanged_frame_is_not_drawn_nor_sent_again(box) -> None:  # type: ignore[no-untyped-def]
    outputs = Outputs(box)
    drawn: list[object] = []
    renderer = outputs._renderer
    assert renderer is not None
    real = renderer.render
    renderer.render = lambda *a: drawn.append(a) or real(*a)  # type: ignore[method-assign]
    outputs.show(_frame(), 0.0)
    first = _sent(box)
    assert first[0] == 1 and first[1] >= 1 and first[2] >= 1 and first[3] == first[4] == 1 and len(drawn) == 1
    bytes_before = (box.oleds["A"].bytes_sent, box.oleds["B"].bytes_sent)
    outputs.show(_frame(), 0.0)  # equal models and views (new objects): nothing drawn, nothing sent
    assert _sent(box) == first and len(drawn) == 1
    assert (box.oleds["A"].bytes_sent, box.oleds["B"].bytes_sent) == bytes_before


def test_outputs_a_changed_part_alone_is_sent(box) -> None:  # type: ignore[no-untyped-def]
    outputs = Outputs(box)
    outputs.show(_frame(), 0.0)
    presents, a, b, ring, _ = _sent(box)
    frame = _frame()
    frame.oleds["A"] = replace(frame.oleds["A"], cursor=4)  # only seat A's OLED changes
    outputs.show(frame, 0.0)
    assert _sent(box)[:4] == (presents, a + 1, b, ring)
    outputs.show(replace(frame, shared=replace(frame.shared, message="A devine")), 0.0)
    assert _sent(box)[:4] == (presents + 1, a + 1, b, ring)


def test_outputs_force_sends_everything_again(box) -> None:  # type: ignore[no-untyped-def]
    outputs = Outputs(box)
    outputs.show(_frame(), 0.0)
    presents, _, _, ring, _ = _sent(box)
    outputs.show(_frame(), 0.0, force=True)
    assert _sent(box)[0] == presents + 1 and _sent(box)[3] == ring + 1
    assert box.oleds["A"].image is not None  # the screens were handed their frames again (same glass: no bytes)


def test_outputs_ring_frame_changes_are_sent_and_blank_darkens(box) -> None:  # type: ignore[no-untyped-def]
    outputs = Outputs(box)
    frame = _frame()
    outputs.show(frame, 0.0)
    written = len(box.ring.driver.written)
    outputs.show(replace(frame, ring_pixels=[(200, 0, 0)] * box.ring.count), 0.0)  # the hourglass replaces it
    assert len(box.ring.driver.written) == written + 1 and outputs.last_ring[0] == (200, 0, 0)
    outputs.blank(m.MessageUi("pause", ()), m.OledTextUi("pause", ()))
    assert box.ring.driver.written[-1] == ((0, 0, 0),) * box.ring.count
    assert outputs.last_ring == [(0, 0, 0)] * box.ring.count


def test_outputs_ring_deadline_comes_from_what_the_ring_shows(box) -> None:  # type: ignore[no-untyped-def]
    """No frame is needed to know when the ring next changes by itself: the outputs keep what it shows."""
    from device.render.ring import FRAME

    outputs = Outputs(box)
    assert outputs.ring_deadline(0.0) is None  # nothing shown yet
    frame = _frame()
    outputs.show(replace(frame, ring=(m.AttractEffect(0.0),)), 1.0)
    assert outputs.ring_deadline(1.0) == pytest.approx(1.0 + FRAME)  # animated: the next frame
    assert outputs.ring_deadline(2.5) == pytest.approx(2.5 + FRAME)
    outputs.show(frame, 3.0)  # a still ring (a game between moves)
    assert outputs.ring_deadline(3.0) is None
