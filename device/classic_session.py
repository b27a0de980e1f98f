"""Classic Codenames and Pictures as a box session: the same small adapter as ``device.session.DuetSession``.

The classic engine returns states, not events; the session derives the public events the ring and sounds need
(a guess's colour, a win) from the card the guess uncovered, which is public once covered.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from engine import classic as cl
from engine import events as ev
from engine.classic_record import classic_record_of, load_classic
from engine.errors import BadRecord

RECORD_FORMAT = "duetbox-record/1"


class ClassicSetupError(ValueError):
    """A classic/Pictures set-up that cannot start a game."""


@dataclass
class ClassicSession:
    setup: dict[str, Any]
    state: cl.ClassicState = field(init=False)
    language: str = "fr"

    def __post_init__(self) -> None:
        record = dict(self.setup, actions=[])
        record.setdefault("language", self.language)
        try:
            self.state, _ = load_classic(record)
        except (BadRecord, ValueError, TypeError, KeyError) as exc:
            raise ClassicSetupError(f"not a usable {self.setup.get('mode')} set-up: {exc}") from None

    @property
    def mode(self) -> str:
        return self.state.rules.kind

    @classmethod
    def create(cls, kind: str, cards: tuple[str, ...], rng: random.Random, *, variant: str = "standard",
               clues: str = "strict", pictures_key: str = "source", language: str = "fr") -> ClassicSession:
        key = cl.random_classic_key(rng, kind, pictures_key)  # type: ignore[arg-type]
        rules = cl.ClassicRules(kind=kind, variant=variant, clues=clues,  # type: ignore[arg-type]
                                pictures_key=pictures_key, language=language)  # type: ignore[arg-type]
        state = cl.new_classic_game(cards, key, rules, seed=rng.randrange(2**31))
        setup = classic_record_of(state)
        del setup["actions"]
        return cls(setup, language=language)

    @property
    def version(self) -> int:
        return self.state.version

    def apply(self, action: Any, version: int | None) -> list[Any]:
        before = self.state
        new = cl.apply_classic(before, action, version=version)
        self.state = new
        return _events(before, new, action)

    def replay(self, actions: list[dict[str, Any]]) -> None:
        for item in actions:
            self.apply(self.action_from_dict(item), None)

    def action_from_dict(self, item: dict[str, Any]) -> Any:
        return cl.classic_action_from_dict(item, self.state.rules.size)

    def public_view(self) -> cl.ClassicPublicView:
        return cl.classic_public_view(self.state)

    def spymaster_view(self) -> cl.SpymasterView:
        return cl.spymaster_view(self.state)

    def seat_view(self, seat: str) -> Any:
        return self.spymaster_view() if seat == "A" else self.public_view()

    def revealed_keys(self) -> dict[str, str] | None:
        return {"key": self.state.key.cards} if self.state.over else None

    @property
    def over(self) -> bool:
        return self.state.over

    @property
    def result(self) -> str | None:
        """For the statistics: duo is won or lost by the players; a competitive game is won by a team."""
        if not self.state.over:
            return None
        if self.state.rules.variant == "duo":
            return "won" if self.state.winner == self.state.players else "lost"
        return f"won_{self.state.winner}"

    @property
    def score(self) -> int | None:
        return None

    def record(self) -> dict[str, Any]:
        return classic_record_of(self.state)


def _events(before: cl.ClassicState, after: cl.ClassicState, action: Any) -> list[Any]:
    out: list[Any] = []
    if isinstance(action, cl.TeamGuess):
        colour = after.key.cards[action.card]
        if colour == "X":
            out.append(ev.AssassinRevealed(action.card, "B"))
        elif colour == action.team:
            out.append(ev.AgentFound(action.card, "B"))
        else:
            out.append(ev.BystanderMarked(action.card, "B", 0))
    if after.over and not before.over:
        players_lost = after.rules.variant == "duo" and after.winner != after.players
        out.append(ev.GameLost(after.reason or "") if players_lost else ev.GameWon(None))
    return out
