"""A board's geometry: ``Board(columns, rows)``, the one place a grid's size is written.

Duet's 5×5 (``DUET``) is the key card's and the records' (card order row-major from seat A's side); classic and
Pictures deal their own sizes (``engine.classic``). Screens, renderers, the script runner and the remote link read
a game's board from its mode (``device.modes``) instead of a literal 25 or 5.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Board:
    """``columns`` × ``rows`` cards, numbered row-major from seat A's side (0 is A's top left)."""

    columns: int
    rows: int

    def __post_init__(self) -> None:
        if self.columns < 1 or self.rows < 1:
            raise ValueError(f"a board needs at least one row and one column, not {self.columns}x{self.rows}")

    @property
    def cards(self) -> int:
        return self.columns * self.rows

    def has(self, card: object) -> bool:
        """``card`` is a card number of this board."""
        return isinstance(card, int) and not isinstance(card, bool) and 0 <= card < self.cards

    def place(self, card: int) -> tuple[int, int]:
        """(row, column) of ``card``."""
        return divmod(card, self.columns)

    def card(self, row: int, column: int) -> int:
        """The card at (row, column), clamped to the board."""
        row = min(self.rows - 1, max(0, row))
        column = min(self.columns - 1, max(0, column))
        return row * self.columns + column

    def corner(self, bottom: bool, right: bool) -> int:
        """A corner card: where a seat's cursor starts (seat A bottom left, seat B across the table)."""
        return self.card(self.rows - 1 if bottom else 0, self.columns - 1 if right else 0)


#: The Duet board (and its key card): 5 × 5.
DUET = Board(5, 5)
