"""Statistics: per mode, games, wins, the best score and the winning streaks (finished games)."""

from __future__ import annotations

from collections.abc import Mapping

from device.render import models as m
from device.screens.base import Frame, Host, Screen, back_or_menu
from hardware.base import InputEvent


class StatsScreen(Screen):
    name = "stats"

    def __init__(self, host: Host, back: Screen | None = None) -> None:
        super().__init__(host)
        self.back = back
        self._stats: Mapping[str, Mapping[str, int | None]] | None = None

    def enter(self) -> None:
        self._stats = self.host.storage.statistics()  # a query: once per visit, never per frame

    def handle(self, event: InputEvent) -> None:
        if event.kind == "press" and event.button in ("ok", "stop", "menu"):
            back_or_menu(self.host, self.back)

    def frame(self) -> Frame:
        if self._stats is None:
            self.enter()
        stats = self._stats or {}
        rows = []
        for kind, s in sorted(stats.items()):
            rows.append(m.StatsRow(self.tr(f"kind.{kind}"), (
                str(s["games"]), str(s["wins"]), "—" if s["best"] is None else str(s["best"]),
                f'{s["streak"]} / {s["best_streak"]}')))
        lines = () if rows else (self.tr("stats.none"),)
        ui = m.StatsUi(self.tr("stats.title"), (self.tr("stats.games"), self.tr("stats.wins"),
                                               self.tr("stats.best"), self.tr("stats.streak")),
                       tuple(rows), lines, self.tr("hint.back"))
        total = sum(s["games"] or 0 for s in stats.values())
        wins = sum(s["wins"] or 0 for s in stats.values())
        oled = m.OledTextUi(self.tr("stats.title"), (self.tr("stats.oled", games=total, wins=wins),))
        return Frame(shared=ui, oleds={"A": oled, "B": oled})


__all__ = ["StatsScreen"]
