import pytest

from hardware.debounce import Debouncer

MS = 0.001


def run(deb: Debouncer, edges: list[tuple[float, bool]], until: float) -> list[tuple[float, bool]]:
    """Feed raw edges (time in ms), polling every millisecond like a main loop; return reported changes."""
    out = []
    pending = sorted(edges)
    t = 0.0
    while t <= until:
        while pending and pending[0][0] <= t:
            at, level = pending.pop(0)
            got = deb.feed(level, at * MS)
            if got is not None:
                out.append((at, got))
        got = deb.poll(t * MS)
        if got is not None:
            out.append((t, got))
        t += 1
    return out


def test_debounce_press_with_chatter_reports_one_press_at_first_edge():
    deb = Debouncer(0.020)
    chatter = [(0, True), (1, False), (2, True), (3, False), (5, True)]
    assert run(deb, chatter, 100) == [(0, True)]
    assert deb.pressed


def test_debounce_press_and_release_each_with_chatter():
    deb = Debouncer(0.020)
    edges = [(0, True), (1, False), (3, True), (200, False), (201, True), (202, False)]
    assert run(deb, edges, 400) == [(0, True), (200, False)]


def test_debounce_quick_tap_inside_window_is_not_lost():
    deb = Debouncer(0.020)
    # released 5 ms after the press: inside the window, so poll reports it once the line rested 20 ms
    assert run(deb, [(0, True), (5, False)], 100) == [(0, True), (25, False)]
    assert not deb.pressed


def test_debounce_noise_spike_on_idle_line_is_reported_then_settles():
    deb = Debouncer(0.020)
    reports = run(deb, [(10, True), (10.5, False)], 100)
    # a spike counts as a press (no added latency on real presses) but must never stay stuck pressed
    assert reports[-1][1] is False and not deb.pressed


def test_debounce_deadline_only_when_unsettled():
    deb = Debouncer(0.020)
    assert deb.deadline() is None
    deb.feed(True, 1.0)
    assert deb.deadline() is None  # raw and believed agree
    deb.feed(False, 1.005)
    assert deb.deadline() == pytest.approx(1.025)  # the line must rest a whole window after its last edge
    assert deb.poll(1.024) is None
    assert deb.poll(1.025) is False


def test_debounce_zero_window_reports_every_edge():
    deb = Debouncer(0.0)
    assert [deb.feed(v, t) for t, v in [(0, True), (0.001, False), (0.002, True)]] == [True, False, True]


def test_debounce_rejects_negative_window():
    with pytest.raises(ValueError):
        Debouncer(-1)
