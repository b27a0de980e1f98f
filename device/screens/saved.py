"""Reading a game screen's saved state back: the ``ui`` a screen is rebuilt from after a power cut.

A saved state comes from disk: written by this box, by an older one, or damaged. Each screen's state is a
frozen dataclass with ``to_dict`` (the JSON the box has always saved) and ``from_dict``, which reads each field
alone through the readers below: a field that is missing or of the wrong type gives the fresh screen's value, and
a state saved by another screen (its ``"screen"`` field) gives the fresh screen, so a game always resumes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from common.jsonvalue import JsonLike, JsonMap
from engine.seats import Seat

_EMPTY: JsonMap = {}


def saved_for(data: JsonMap | None, screen: str) -> JsonMap:
    """``data`` when it is the saved state of the screen named ``screen``, else an empty one (a fresh screen)."""
    if isinstance(data, Mapping) and data.get("screen") == screen:
        return data
    return _EMPTY


def read_int(value: JsonLike, default: int, low: int = 0) -> int:
    """A whole number of at least ``low`` (``default`` for anything else, a bool included)."""
    if isinstance(value, int) and not isinstance(value, bool) and value >= low:
        return value
    return default


def read_str(value: JsonLike, default: str) -> str:
    return value if isinstance(value, str) else default


def read_optional_str(value: JsonLike) -> str | None:
    return value if isinstance(value, str) else None


def read_seat(value: JsonLike) -> Seat | None:
    """A seat ("A" or "B"), else None."""
    if value == "A":
        return "A"
    if value == "B":
        return "B"
    return None


def read_map(value: JsonLike) -> JsonMap:
    """A JSON object (an empty one for anything else)."""
    return value if isinstance(value, Mapping) else _EMPTY


def read_list(value: JsonLike) -> Sequence[JsonLike]:
    """A JSON array (an empty one for anything else; a text is not a list of letters)."""
    return value if isinstance(value, (list, tuple)) else ()


def read_ints(value: JsonLike) -> tuple[int, ...]:
    """The whole numbers of an array (anything else in it is dropped)."""
    return tuple(v for v in (read_int(x, -1) for x in read_list(value)) if v >= 0)


def read_strs(value: JsonLike) -> tuple[str, ...]:
    """The texts of an array (anything else in it is dropped)."""
    return tuple(x for x in read_list(value) if isinstance(x, str))


__all__ = ["read_int", "read_ints", "read_list", "read_map", "read_optional_str", "read_seat", "read_str",
           "read_strs", "saved_for"]
