"""The Raspberry Pi's 40-pin header: which BCM GPIO sits on which physical pin."""

from __future__ import annotations

#: BCM GPIO -> physical pin of the 40-pin header.
PHYSICAL: dict[int, int] = {
    2: 3, 3: 5, 4: 7, 17: 11, 27: 13, 22: 15, 10: 19, 9: 21, 11: 23, 0: 27, 5: 29, 6: 31, 13: 33, 19: 35,
    26: 37, 14: 8, 15: 10, 18: 12, 23: 16, 24: 18, 25: 22, 8: 24, 7: 26, 1: 28, 12: 32, 16: 36, 20: 38,
    21: 40,
}
POWER: dict[int, str] = {1: "3V3", 17: "3V3", 2: "5V", 4: "5V"}
GROUND: tuple[int, ...] = (6, 9, 14, 20, 25, 30, 34, 39)
