"""A row of a list screen (the menu, the pause menu, remote play's rows): what it says and what OK on it does."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass
class Item:
    key: str  # message key of the label
    action: Callable[[], None] | None
    enabled: bool = True
    value: str | None = None
    reason: str | None = None  # why a disabled item is disabled: the hint line while it is selected
    info: Callable[[], None] | None = None  # OK on a disabled item: what to do about it (a page that says)


__all__ = ["Item"]
