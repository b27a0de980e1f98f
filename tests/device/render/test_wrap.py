"""Line breaking (device.render.text.wrap) as French typography wants it: a figure stays with its "%" (the
narrow no-break space the partner's explanations use), a lone ":" ";" "!" "?" "»" never starts a line and a
lone "«" never ends one; breakable spaces still break."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from device.render.text import wrap


def test_no_break_spaces_hold_a_figure_and_its_percent() -> None:
    lines = wrap("golfe (41\u202f% vert, 6\u202f% assassin) ; chameau (38\u202f% vert", 20, len)
    assert all(not line.startswith("%") for line in lines)
    assert any("38\u202f%" in line for line in lines)
    assert wrap("10\u00a0000 jetons", 6, len)[0] == "10\u00a0000"


def test_french_punctuation_stays_with_its_word() -> None:
    lines = wrap("« musique » 2 : je pensais ; à banane ! oui", 12, len)
    assert lines == ["« musique »", "2 : je", "pensais ; à", "banane ! oui"]
    for line in lines:
        assert line.split()[0] not in (":", ";", "!", "?", "»") and line.split()[-1] != "«"


@given(st.lists(st.sampled_from(["mot", "a", ":", ";", "«", "»", "longuissime", "38\u202f%"]), max_size=30),
       st.integers(min_value=4, max_value=30))
def test_wrapping_keeps_every_word_in_order(words: list[str], width: int) -> None:
    text = " ".join(words)
    lines = wrap(text, width, len)
    kept = " ".join(" ".join(lines).split(" "))
    if all(len(w) <= width for w in words):  # nothing cut with "…"
        assert kept.split() == text.split()
