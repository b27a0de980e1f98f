"""Seats of the Duet table: A and B sit face to face."""

from __future__ import annotations

from typing import Literal

Seat = Literal["A", "B"]
SEATS: tuple[Seat, Seat] = ("A", "B")


def other(seat: Seat) -> Seat:
    """The seat across the table."""
    return "B" if seat == "A" else "A"


def parse_seat(value: object) -> Seat:
    """A seat from untrusted data; ValueError otherwise."""
    if value == "A":
        return "A"
    if value == "B":
        return "B"
    raise ValueError(f"seat must be 'A' or 'B', not {value!r}")
