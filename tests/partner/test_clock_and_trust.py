"""Issue 28 on tiny spaces and tables: the giver plays against the clock, refuses clues next to its assassins,
and the guesser trusts a person's number and leftovers."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np
from tiny_space import BOARD

from partner import BOX_GUESSER, BOX_GUESSER_NOISY, PARTNER, W_ASSOC_READ, Partner, Turn
from partner.assoc import AssocTable
from partner.space import VectorSpace
from partner.winprob import ClockParams, WinParams, choose_winprob, value_table


def side(greens: Sequence[int], assassins: Sequence[int] = ()) -> str:
    return "".join("G" if i in greens else "X" if i in assassins else "N" for i in range(25))


class _Vocab:
    def __init__(self, words: list[str]) -> None:
        self.words = words
        self.zipf = np.full(len(words), 4.0, dtype=np.float32)
        self.from_table = np.zeros(len(words), dtype=bool)
        self.position = {w: i for i, w in enumerate(words)}


class _Scores:
    """Hand-made z of three clues against four cards: 0, 1 the box's agents, 2 a bystander, 3 an assassin."""

    def __init__(self, z: list[list[float]]) -> None:
        self.low = np.array(z, dtype=np.float32)
        self.high = self.low.copy()
        self.strength = np.zeros_like(self.low)

    def legal(self, visible: Sequence[str]) -> np.ndarray:
        return np.ones(len(self.low), dtype=bool)


def _choose(tokens: int, partner_left: int = 0) -> tuple[str, int]:
    vocab = _Vocab(["duo", "solo"])
    #                 agent  agent  bystander  assassin
    scores = _Scores([[3.2, 3.2, 2.4, 1.2],  # duo: both agents, some risk
                      [6.0, -1.0, -1.0, -1.0]])  # solo: one agent, certain
    params = WinParams(readings=2000, candidates=5, per_target=2)
    choice = choose_winprob(scores, vocab, [0, 1], [2], [3], ["a", "b", "c", "d"], params,  # type: ignore[arg-type]
                            tokens=tokens, partner_left=partner_left, lang="xx")
    assert choice is not None
    return choice.word, choice.number


def test_a_two_clue_beats_two_one_clues_when_the_clock_demands_it() -> None:
    # the last token: two 1-clues cannot both be given, so the risky 2 is worth more than the sure 1
    assert _choose(tokens=1) == ("duo", 2)
    # plenty of time and nothing else to find: the sure 1 now, the other agent next turn
    assert _choose(tokens=11) == ("solo", 1)


def test_the_value_table_prices_time() -> None:
    v = value_table(ClockParams())
    assert v[0, 0, 0, 0] == 1.0
    assert v[3, 3, 9, 0] > v[3, 3, 4, 0] > v[3, 3, 1, 0]  # more tokens, better chances
    assert v[2, 2, 5, 0] > v[4, 4, 5, 0]  # fewer agents left, better chances


TABLE = """\
pomme\tverger\t5
poire\tverger\t4
lion\tverger\t1
"""


def _verger_space(tiny: VectorSpace) -> VectorSpace:
    from tiny_space import OTHER_CLUES, THEMES, make_vectors

    vectors = make_vectors()
    axis = np.zeros(24)
    axis[0] = 1.0
    vectors["verger"] = axis + 0.3 * np.random.default_rng(5).normal(size=24)
    clues = [c for c, _ in THEMES.values() if c != "fruit"] + OTHER_CLUES
    return VectorSpace.from_vectors("fr", "tiny", vectors, clues)


def test_a_clue_the_table_links_to_the_box_assassin_is_refused(tiny: VectorSpace) -> None:
    table = AssocTable.parse("fr", TABLE.splitlines())
    space = _verger_space(tiny)
    box = Partner.box("fr", [space], assoc=table)
    choice = box.give_clue(BOARD, side([0, 1]), covered=set(), tokens=9)
    assert choice is not None and choice.word == "verger"  # the orchard: apple and pear
    box.new_game()
    # the same cards with the lion, which people link to "verger" (strength 1), as the box's assassin
    choice = box.give_clue(BOARD, side([0, 1], assassins=[20]), covered=set(), tokens=9)
    assert choice is None or choice.word != "verger"


POTAGER = """\
pomme\tpotager\t4
poire\tpotager\t2
"""


def _potager(box: Partner, number: int = 2) -> list[int]:
    """The cards the box touches on the person's "potager <number>" (no vector: the table alone reads it; pomme
    is linked at 4, poire at 2, nothing else), every touch a green."""
    my_side = side([20, 21, 22], assassins=[24])  # pomme and poire are bystanders on the box's side
    touched: list[tuple[int, str]] = []
    for _ in range(number):
        g = box.next_guess(BOARD, my_side, "potager", number, covered={c for c, _ in touched}, marks_for_me=set(),
                           turn_guesses=touched)
        if g is None:
            break
        touched.append((g.card, "G"))
    return [c for c, _ in touched]


def test_a_persons_second_card_is_taken_when_the_table_links_it(tiny: VectorSpace) -> None:
    table = AssocTable.parse("fr", POTAGER.splitlines())
    # the box as it ships: pomme, then poire (a loose link, P(green) about 0.6: under the 0.65 a card past the
    # number needs), and nothing more on "potager 3": no third card is linked
    assert _potager(Partner.box("fr", [tiny], assoc=table)) == [0, 1]
    assert _potager(Partner.box("fr", [tiny], assoc=table), 3) == [0, 1]
    # the guesser of main before issue 28 (weaker table reading, no promise) stopped after pomme
    old = Partner.box("fr", [tiny], assoc=table, guesser_params=BOX_GUESSER_NOISY["normal"], w_assoc_read=W_ASSOC_READ)
    assert _potager(old) == [0]


def test_each_trust_rule_alone_takes_the_linked_second_card(tiny: VectorSpace) -> None:
    """The two rules that keep a person's promise, each with the other off (either alone fails if broken):
    the table link (partner.guesser.trusted_card) and the lower bar within the number (promise_green)."""
    table = AssocTable.parse("fr", POTAGER.splitlines())
    base = BOX_GUESSER["normal"]
    link_only = replace(base, promise_green=0.0, promise_pointed=0.0)
    promise_only = replace(base, trust_strength=6, trust_z=99.0)
    neither = replace(base, promise_green=0.0, promise_pointed=0.0, trust_strength=6, trust_z=99.0)
    for params, second in ((link_only, True), (promise_only, True), (neither, False)):
        cards = _potager(Partner.box("fr", [tiny], assoc=table, guesser_params=params))
        assert cards == ([0, 1] if second else [0]), params


def _sudden_death(box: Partner, my_side: str, covered: set[int], history: list[Turn], agents_left: int) -> int:
    g = box.next_guess(BOARD, my_side, None, None, covered=covered, marks_for_me=set(), history=history,
                       sudden_death=True, agents_left=agents_left)
    assert g is not None
    return g.card


def test_sudden_death_touches_the_likeliest_leftover(tiny: VectorSpace) -> None:
    box = Partner.box("fr", [tiny], assoc=AssocTable("fr"))
    # the person's "zoo 3" found the lion only (two of its cards are left); "orchestre 1" found the piano
    history = [Turn(PARTNER, "zoo", 3, ((20, "G"),)), Turn(PARTNER, "orchestre", 1, ((8, "G"),))]
    # the box's own agents are found (covered), so the key says nothing of where the person's agents are
    covered = {20, 8, 0, 1, 2, 3, 4}
    my_side = side([0, 1, 2, 3, 4])
    assert _sudden_death(box, my_side, covered, history, agents_left=4) in (21, 22, 23)  # tigre, girafe, singe


def test_sudden_death_counts_the_agents_left(tiny: VectorSpace) -> None:
    """Playtest fr3 (SALADE): when the agents left on the table are all the box's own, the person's last agent is
    one of them, however strongly an older clue points elsewhere."""
    box = Partner.box("fr", [tiny], assoc=AssocTable("fr"))
    history = [Turn(PARTNER, "zoo", 3, ((20, "G"),))]
    my_side = side([0, 1, 2, 3, 4])
    covered = {20, 2, 3, 4}
    # two agents left on the table: pomme and poire, the box's own; tigre, girafe and singe cannot be the person's
    assert _sudden_death(box, my_side, covered, history, agents_left=2) in (0, 1)
    # four left: two of the person's agents are among the cards that are not the box's: the zoo's leftovers
    assert _sudden_death(box, my_side, covered, history, agents_left=4) in (21, 22, 23)


def test_sudden_death_never_reads_more_leftovers_than_agents(tiny: VectorSpace) -> None:
    """An unfinished "zoo 3" still counts two cards, and a second "zoo 3" three more; with one agent of the
    person's left, the three animals share that one agent: none of them reads likely, let alone certain (fr3:
    SALADE "100 % green" from a PAPIER 2 whose cards a later clue had found)."""
    box = Partner.box("fr", [tiny], assoc=AssocTable("fr"))
    my_side = side([0, 1, 2, 3, 4])
    for history in ([Turn(PARTNER, "zoo", 3, ((20, "G"),))],
                    [Turn(PARTNER, "zoo", 3, ((20, "G"),)), Turn(PARTNER, "zoo", 3, ())]):
        g = box.next_guess(BOARD, my_side, None, None, covered={20, 0, 1, 2, 3, 4}, marks_for_me=set(),
                           history=history, sudden_death=True, agents_left=1)
        assert g is not None and g.card in (21, 22, 23) and g.green < 0.5


def test_win_params_reach_the_box_through_set() -> None:
    p = replace(WinParams(), w_link=0.5)
    assert p.w_link == 0.5
