"""After a game: "same settings again" (issue 15). The game-over screens, when the players leave, ask
``host.nav.after_game()``; the navigator reads the finished game's recipe here (mode and options, from the
game's own set-up record and options, before the game is closed) and shows ``AfterGameScreen``: one OK on its
first, preselected row deals a new game of the same kind with the same options. A mission won preselects the
mission map instead (the next city), a mission lost preselects trying the same city again.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TypeAlias

from common.jsonvalue import JsonMap
from device import modes
from device.modes import Family
from device.render import models as m
from device.screens.base import Host, Screen
from device.screens.shell import Item, ListScreen, MenuScreen
from device.seams import GameApi

#: A keyword argument of a mode family's starter (``navigation.STARTERS``): a word, a number, a switch or unset.
StarterArg: TypeAlias = str | int | bool | None


@dataclass(frozen=True)
class Recipe:
    """How to deal the same game again: ``flow`` the mode's family (``Family.value``: its starter, see
    ``navigation.STARTERS``); ``options`` the starter's keyword arguments; ``kind`` the game's kind."""

    flow: str
    kind: str
    options: Mapping[str, StarterArg] = field(default_factory=dict)
    won: bool = False


def recipe(game: GameApi) -> Recipe | None:
    """The recipe of the game open in ``game`` (None for a game that cannot simply be dealt again: remote)."""
    session = game.session
    if session is None:
        return None
    setup: JsonMap = session.setup
    found = setup.get("rules")
    rules: JsonMap = found if isinstance(found, Mapping) else {}
    options = game.options
    language = str(setup.get("language") or options.language or "fr")
    pack = options.pack or language
    outcome = session.outcome()
    won = outcome is not None and outcome.result == "won"
    mode = modes.by_kind(game.kind or session.mode)
    if not modes.known(game.kind or session.mode) or mode.remote:
        return None
    clues = str(rules.get("clues", "strict"))
    if mode.family is Family.DUET:
        if mode.mission or setup.get("mission"):
            mode = modes.MISSION
        opts: dict[str, StarterArg] = {"kind": mode.kind, "pack": pack, "clues": clues,
                                       "several": bool(rules.get("several_clues", False))}
        tokens = rules.get("tokens")
        if isinstance(tokens, (int, float, str)):
            opts["tokens"] = int(tokens)
        if mode.mission:
            mission = setup.get("mission")
            opts.update(mission=None if mission is None else str(mission), sheet=options.sheet)
        return Recipe(mode.family.value, mode.kind, opts, won)
    if mode.family is Family.CLASSIC:
        return Recipe(mode.family.value, mode.kind, {"kind": mode.kind,
                                                     "variant": str(setup.get("variant", "standard")),
                                                     "pack": pack, "clues": clues,
                                                     "pictures_key": str(setup.get("pictures_key", "source"))}, won)
    return Recipe(mode.family.value, mode.kind, {"difficulty": options.difficulty or "normal",
                                                 "clues": clues}, won)


class AfterGameScreen(ListScreen):
    """The players left the game over: same settings again (preselected), the mission map (a mission), the
    menu."""

    name = "after_game"
    title_key = "again.title"

    def __init__(self, host: Host, made: Recipe, start: Callable[[], None], *,
                 open_map: Callable[[], None] | None = None) -> None:
        super().__init__(host, back=MenuScreen(host))
        self.recipe = made
        self.start = start
        self.open_map = open_map
        # the natural next step: the next city after a mission won, else the same game again
        self.selected = 1 if open_map is not None and made.won else 0

    def items(self) -> list[Item]:
        rows = [Item("again.same", self.start)]
        if self.open_map is not None:
            rows.append(Item("again.map", self.open_map))
        rows.append(Item("again.menu", lambda: self.host.switch(MenuScreen(self.host))))
        return rows

    def model(self) -> m.MenuUi:
        ui = super().model()
        return m.MenuUi(ui.title, ui.items, ui.selected, self.tr("again.hint"))

    def go_back(self) -> None:
        self.host.switch(MenuScreen(self.host))


def after_game(host: Host, starters: Mapping[str, Callable[..., None]], open_map: Callable[[int], None]) -> None:
    """Close the finished game and show what comes next (the navigator's ``after_game``)."""
    made = recipe(host.game)
    sheet = host.game.options.sheet
    host.game.end()
    if made is None or made.flow not in starters:
        if sheet is not None:
            open_map(sheet)
        else:
            host.switch(MenuScreen(host))
        return
    starter = starters[made.flow]

    def start() -> None:
        starter(host, **made.options)

    show_map = (lambda: open_map(sheet)) if sheet is not None else None
    screen: Screen = AfterGameScreen(host, made, start, open_map=show_map)
    host.switch(screen)


__all__ = ["AfterGameScreen", "Recipe", "after_game", "recipe"]
