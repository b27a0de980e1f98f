"""`duetbox partner play`: solo Duet in a terminal, the person at seat A, the box at seat B.

The screen shows only what seat A sees at the table: the 25 words, seat A's own side of the key, the covered
cards, the bystander marks, the timer tokens and the clue history with what was touched. Every game (board,
both keys, each clue with its number, the cards the box meant and every touch) is appended to a JSON-lines log
when it ends or when the player quits, so that playtests can be replayed (tests/partner/test_playtests.py).

Input is read line by line (`input_fn`) and the screen is written with `print_fn`, so that a test can play a
whole game with a script. Bad input is answered with one line and the same question again; end of input quits.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine import duet
from engine.actions import Clue, Guess, Stop
from engine.errors import IllegalAction
from engine.folding import normalize
from engine.keycard import DuetKey, random_key
from engine.seats import Seat
from engine.words import WordPack, draw_words
from partner import Partner
from partner.play import box_action, turns_for

HUMAN: Seat = "A"
BOX: Seat = "B"
LOG_VERSION = 1

HELP = """How to play (you are seat A, the box is seat B):
  Your key shows, next to each word: A = one of YOUR agents (the box must find it from your clues),
  X = an assassin on your side (if the box touches it, you both lose), . = a bystander on your side.
  #WORD# = an agent already found (covered). (b) = the box touched it and it is a bystander on your side.
  (y) = you touched it on a box clue and it is a bystander on the box's side: you may not touch it again.
  Giving a clue:  type one word and a number, e.g.  ocean 2   (the number = how many words it points to).
                  The word may not be on the table, nor a form or part of a word on the table.
  Guessing:       type the word (or its number on the board) to touch it; type  stop  to end your turn
                  (only after at least one right guess this turn).
  Any time:       help = this text, board = show the table again, quit = leave (the game is logged).
Turns alternate: you give a clue, the box guesses; the box gives a clue, you guess. Each turn uses one timer
token; when they run out, sudden death: no more clues, and any touch that is not an agent loses.
You win together when all 15 agents are found."""


class Quit(Exception):
    """The player typed quit, or the input ended."""


@dataclass
class Console:
    partner: Partner
    pack: WordPack
    lang: str
    tokens: int = 9
    seed: int | None = None
    log_path: Path | None = None
    player: str = ""
    difficulty: str = "normal"
    input_fn: Callable[[str], str] = input
    print_fn: Callable[[str], None] = print
    first: Seat = HUMAN  # who gives the first clue
    _sd_last: str = ""  # who touched last in sudden death
    _sd_announced: bool = False
    games_played: int = 0
    records: list[dict[str, Any]] = field(default_factory=list)

    # ------------------------------------------------------------------ input helpers

    def ask(self, prompt: str) -> str:
        try:
            line = self.input_fn(prompt)
        except EOFError:
            raise Quit from None
        line = " ".join(line.strip().split())
        if line.lower() in ("quit", "exit"):
            raise Quit
        return line

    # ------------------------------------------------------------------ one game

    def deal(self, rng: random.Random) -> tuple[tuple[str, ...], DuetKey]:
        return draw_words(self.pack, rng, 25), random_key(rng)

    def play(self, words: tuple[str, ...] | None = None, key: DuetKey | None = None) -> dict[str, Any]:
        seed = self.seed if self.seed is not None else random.SystemRandom().randrange(1 << 31)
        rng = random.Random(seed)
        dealt_words, dealt_key = self.deal(rng)
        words = words or dealt_words
        key = key or dealt_key
        state = duet.new_game(words, key, duet.DuetRules(tokens=self.tokens, language=self.lang))
        self.partner.new_game()
        self.partner.prepare_board(words)
        record: dict[str, Any] = {
            "version": LOG_VERSION, "lang": self.lang, "player": self.player, "seed": seed,
            "tokens": self.tokens, "difficulty": self.difficulty, "started": _now(), "words": list(words),
            "key_a": key.a, "key_b": key.b, "human": HUMAN, "box": BOX, "clues": [], "sudden_death": [],
            "box_version": box_version(),
        }
        self.records.append(record)
        self._sd_last, self._sd_announced = "", False
        self.print_fn(f"\n=== New game ({self.lang}, {self.tokens} timer tokens). Type help for the rules. ===")
        try:
            state = self._loop(state, record)
        except Quit:
            record["finished"] = False
            record["result"] = "quit"
            self._finish(state, record)
            raise
        record["finished"] = True
        record["result"] = "won" if state.phase == "won" else "lost"
        self._finish(state, record)
        self._show_end(state)
        return record

    def _finish(self, state: duet.DuetState, record: dict[str, Any]) -> None:
        record["reason"] = state.reason
        record["found"] = len(state.found)
        record["bank_left"] = state.bank
        record["ended"] = _now()
        record["explain"] = self.partner.explain(turns_for(state, BOX)[0])
        if self.log_path is not None:
            self.log_path.parent.mkdir(parents=True, exist_ok=True)
            with self.log_path.open("a", encoding="utf-8") as fh:
                fh.write(json.dumps(record, ensure_ascii=False) + "\n")

    def _loop(self, state: duet.DuetState, record: dict[str, Any]) -> duet.DuetState:
        for _ in range(500):
            if state.over:
                return state
            if state.phase == "clue":
                able = duet.clue_givers(state)
                seat = self.first if (not state.clues and self.first in able) else able[0]
                if seat == HUMAN:
                    state = self._human_clue(state, record)
                else:
                    state = self._box_clue(state, record)
            elif state.phase == "guess":
                if state.guesser == HUMAN:
                    state = self._human_guess(state, record)
                else:
                    state = self._box_guess(state, record)
            elif state.phase == "sudden_death":
                state = self._sudden_death(state, record)
        return state  # pragma: no cover - a game never takes 500 steps

    # ------------------------------------------------------------------ clues

    def _human_clue(self, state: duet.DuetState, record: dict[str, Any]) -> duet.DuetState:
        self.show(state)
        while True:
            line = self.ask("Your clue (a word and a number, e.g. 'ocean 2'; help; quit): ")
            if self._common(line, state):
                continue
            parts = line.split(" ")
            if len(parts) != 2 or not parts[1].isdigit():
                self.print_fn("  Please type one word, a space and a number, e.g.  ocean 2")
                continue
            word, number = parts[0].lower(), int(parts[1])
            left = duet.greens_left(state, HUMAN)
            if not 1 <= number <= 9:
                self.print_fn("  The number must be from 1 to 9.")
                continue
            if number > left:
                self.print_fn(f"  You have only {left} agent(s) left for the box to find; use a number up to {left}.")
                continue
            try:
                new, _ = duet.apply(state, Clue(HUMAN, word, number))
            except IllegalAction as exc:
                self.print_fn(f"  That clue is not allowed: {exc}. Try another word.")
                continue
            record["clues"].append({"seat": HUMAN, "word": word, "number": number, "guesses": [], "meant": []})
            self.print_fn(f"You say: {word.upper()} {number}. The box thinks...")
            return new

    def _box_clue(self, state: duet.DuetState, record: dict[str, Any]) -> duet.DuetState:
        t0 = time.perf_counter()
        action = box_action(self.partner, state, BOX)
        ms = 1000 * (time.perf_counter() - t0)
        assert isinstance(action, Clue)
        given = self.partner._log[-1][1] if self.partner._log and self.partner._log[-1][0] == "gave" else None
        meant = list(getattr(given, "targets", ()))
        try:
            new, _ = duet.apply(state, action)
        except IllegalAction:  # the box runs the engine's checker; accept it as a spoken clue if ever refused
            new, _ = duet.apply(state, Clue(BOX, action.word, action.number, override=True))
        record["clues"].append({"seat": BOX, "word": action.word, "number": action.number, "guesses": [],
                                "meant": meant, "meant_words": [state.words[i] for i in meant],
                                "ms": round(ms, 1)})
        self.show(new)
        self.print_fn(f"The box says: {(action.word or '-').upper()} {action.number}")
        return new

    # ------------------------------------------------------------------ guesses

    def _human_guess(self, state: duet.DuetState, record: dict[str, Any]) -> duet.DuetState:
        clue = state.clues[-1]
        while True:
            hint = "; stop" if state.correct_this_turn else ""
            line = self.ask(f"Touch a word for {(clue.word or '-').upper()} {clue.number} (word or number{hint}; "
                            "help): ")
            if self._common(line, state):
                continue
            on_table = any(normalize(w) == normalize(line) for w in state.words)
            if line.lower() in ("stop", "pass", "end") and not on_table:
                if not state.correct_this_turn:
                    self.print_fn("  You must touch at least one word before you stop.")
                    continue
                new, _ = duet.apply(state, Stop(HUMAN))
                record["clues"][-1]["stopped"] = True
                self.print_fn("You stop. Your turn ends (one timer token).")
                return new
            card = self._card(line, state)
            if card is None:
                continue
            if card in state.marks(HUMAN):
                self.print_fn(f"  You already touched {state.words[card].upper()}: a bystander for the box. "
                              "Pick another.")
                continue
            return self._touch(state, record, HUMAN, card)

    def _box_guess(self, state: duet.DuetState, record: dict[str, Any]) -> duet.DuetState:
        action = box_action(self.partner, state, BOX)
        if action is None or isinstance(action, Stop):
            if state.correct_this_turn:
                new, _ = duet.apply(state, Stop(BOX))
                record["clues"][-1]["stopped"] = True
                self.print_fn("The box stops guessing. Its turn ends (one timer token).")
                return new
            raise AssertionError("the box must guess at least once")  # pragma: no cover
        assert isinstance(action, Guess)
        return self._touch(state, record, BOX, action.card)

    def _touch(self, state: duet.DuetState, record: dict[str, Any], seat: Seat, card: int) -> duet.DuetState:
        sudden = state.phase == "sudden_death"
        giver = BOX if seat == HUMAN else HUMAN
        label = state.key.side(giver)[card]
        new, _ = duet.apply(state, Guess(seat, card))
        entry = {"seat": seat, "card": card, "word": state.words[card], "label": label}
        if sudden:
            record["sudden_death"].append(entry)
        else:
            record["clues"][-1]["guesses"].append(entry)
        who = "You touch" if seat == HUMAN else "The box touches"
        word = state.words[card].upper()
        if label == "G":
            self.print_fn(f"{who} {word}: an agent!")
        elif label == "X":
            self.print_fn(f"{who} {word}: an ASSASSIN. The game is lost.")
        elif sudden:
            self.print_fn(f"{who} {word}: a bystander. In sudden death that loses the game.")
        else:
            self.print_fn(f"{who} {word}: a bystander. The turn ends (one timer token).")
        return new

    def _sudden_death(self, state: duet.DuetState, record: dict[str, Any]) -> duet.DuetState:
        guessers = duet.sudden_death_guessers(state)
        # turns alternate, you first: you look for the box's agents, the box for yours, one card each
        box_next = BOX in guessers and (HUMAN not in guessers or self._sd_last == HUMAN)
        if not record["sudden_death"] and not self._sd_announced:
            self._sd_announced = True
            who = ("you and the box take turns, one card each, you first" if len(guessers) == 2 else
                   "only the box guesses (all the box's agents are found)" if guessers == (BOX,) else
                   "only you guess (all your agents are found)")
            self.print_fn(f"SUDDEN DEATH: no more clues; {who}. Any card that is not an agent loses.")
        if box_next:
            self._sd_last = BOX
            self.print_fn("The box touches a word it thinks is one of your agents...")
            action = box_action(self.partner, state, BOX)
            assert isinstance(action, Guess)
            return self._touch(state, record, BOX, action.card)
        self._sd_last = HUMAN
        self.show(state)
        while True:
            line = self.ask("Sudden death: touch a word you think is the box's agent (word or number; help): ")
            if self._common(line, state):
                continue
            card = self._card(line, state)
            if card is None:
                continue
            if card in state.marks(HUMAN):
                self.print_fn(f"  You already touched {state.words[card].upper()}. Pick another.")
                continue
            return self._touch(state, record, HUMAN, card)

    def _card(self, line: str, state: duet.DuetState) -> int | None:
        """The card the player means by a number (1..25) or a word; None (and one line said) otherwise."""
        if line.isdigit():
            n = int(line)
            if not 1 <= n <= 25:
                self.print_fn("  Cards are numbered 1 to 25.")
                return None
            card = n - 1
        else:
            wanted = normalize(line)
            matches = [i for i, w in enumerate(state.words) if normalize(w) == wanted]
            if not matches:
                self.print_fn(f"  {line!r} is not a word on the table (type board to see it again).")
                return None
            card = matches[0]
        if card in state.found:
            self.print_fn(f"  {state.words[card].upper()} is already covered by an agent. Pick another.")
            return None
        return card

    def _common(self, line: str, state: duet.DuetState) -> bool:
        """help / board / empty lines: answered here (True); anything else is for the caller."""
        low = line.lower()
        if not low:
            return True
        if any(normalize(w) == normalize(low) for w in state.words):
            return False  # a word of the table is a touch, even when it reads like a command
        if low in ("help", "?"):
            self.print_fn(HELP)
            return True
        if low in ("board", "show"):
            self.show(state)
            return True
        return False

    # ------------------------------------------------------------------ the screen

    def show(self, state: duet.DuetState) -> None:
        side = state.key.side(HUMAN)
        cells = []
        for i, w in enumerate(state.words):
            if i in state.found:
                text = f"#{w.upper()}#"
                mark = " "
            else:
                text = w.upper()
                mark = {"G": "A", "X": "X", "N": "."}[side[i]]
                flags = ("b" if i in state.marks_b else "") + ("y" if i in state.marks_a else "")
                if flags:
                    text += f"({flags})"
            cells.append(f"{i + 1:>2} {text:<15}{mark}")
        lines = ["", "-" * 99]
        for r in range(5):
            lines.append(" | ".join(cells[5 * r: 5 * r + 5]))
        lines.append("-" * 99)
        mine_left = duet.greens_left(state, HUMAN)
        box_left = duet.greens_left(state, BOX)
        lines.append(
            f"Agents found {len(state.found)}/15 | yours left for the box to find: {mine_left} | the box's left for "
            f"you to find: {box_left} | timer tokens left: {state.bank} of {self.tokens}"
            + (" | SUDDEN DEATH" if state.phase == "sudden_death" else "")
        )
        if state.clues:
            lines.append("Clues so far:")
            for entry in state.clues:
                who = "you" if entry.seat == HUMAN else "box"
                giver_side = state.key.side(entry.seat)
                touched = ", ".join(
                    f"{state.words[c].upper()} ({_label(giver_side[c])})" for c in entry.guesses
                ) or "-"
                lines.append(f"  {who}: {(entry.word or '-').upper()} {entry.number} -> {touched}")
        self.print_fn("\n".join(lines))

    def _show_end(self, state: duet.DuetState) -> None:
        if state.phase == "won":
            self.print_fn(f"\n*** You won together! All 15 agents found, {state.bank} timer token(s) left. ***")
        else:
            why = {"assassin": "an assassin was touched", "sudden_death_miss": "a bystander in sudden death",
                   "out_of_time": "the timer ran out"}.get(state.reason or "", state.reason or "")
            self.print_fn(f"\n*** Lost: {why}. Agents found: {len(state.found)}/15. ***")
        side_b = state.key.side(BOX)
        box_agents = [w.upper() for i, w in enumerate(state.words) if side_b[i] == "G" and i not in state.found]
        box_assassins = [w.upper() for i, w in enumerate(state.words) if side_b[i] == "X"]
        if box_agents:
            self.print_fn("The box's agents you did not find: " + ", ".join(box_agents))
        self.print_fn("The box's assassins: " + ", ".join(box_assassins))
        self.print_fn("What the box meant:")
        for line in self.partner.explain(turns_for(state, BOX)[0], language=self.lang):
            self.print_fn("  " + line)


def box_version() -> str:
    """The commit of the box being played, when the code runs from a snapshot that names it (PLAYBOX_COMMIT
    next to the `partner` package), else ""."""
    marker = Path(__file__).resolve().parent.parent / "PLAYBOX_COMMIT"
    try:
        return marker.read_text(encoding="utf-8").strip()
    except OSError:
        return ""


def _label(c: str) -> str:
    return {"G": "agent", "N": "bystander", "X": "assassin"}[c]


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def run(console: Console, games: int = 0) -> int:
    """Play games until `games` are played (0 = ask after each), or the player quits. Exit code 0."""
    played = 0
    try:
        while True:
            console.play()
            played += 1
            if console.seed is not None:
                console.seed += 1
            if games and played >= games:
                break
            again = console.ask("Another game? (y/n): ").lower()
            if again not in ("y", "yes", "o", "oui"):
                break
    except Quit:
        console.print_fn("Bye. (This game was saved in the log.)" if console.log_path else "Bye.")
    return 0
