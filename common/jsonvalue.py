"""The one type of a value read from or written to JSON (records, screen state, remote messages).

A value that came from disk or from the network is a ``Json``; code that needs a field narrows it (``isinstance``)
or parses the whole value into a typed dataclass at the boundary (``from_dict``). ``Any`` is not used for these.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypeAlias

Json: TypeAlias = "str | int | float | bool | None | list[Json] | dict[str, Json]"
JsonObject: TypeAlias = "dict[str, Json]"
# read-only views, for parameters that only read (accept a dict of a narrower value type)
JsonLike: TypeAlias = "str | int | float | bool | None | Sequence[JsonLike] | Mapping[str, JsonLike]"
JsonMap: TypeAlias = "Mapping[str, JsonLike]"

__all__ = ["Json", "JsonLike", "JsonMap", "JsonObject"]
