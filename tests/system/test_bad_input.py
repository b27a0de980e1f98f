"""Bad input: random action sequences never crash an engine or break its invariants (every mode and variant);
every broken record, configuration, word pack and script in tests/data/broken ends in one clear line."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from helpers_reliability import BROKEN, SOAK, duetbox, one_line_error, read_db
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from device.cli import main as cli
from engine import classic as cl
from engine import duet
from engine.actions import Clue, Guess, Penalty, Stop
from engine.errors import IllegalAction
from engine.keycard import random_key
from engine.record import classic_record_of, record_of, replay

EXAMPLES = 3000 if SOAK else 150
FUZZ = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])

WORDS = tuple(f"mot{i}" for i in range(25))
DUET_RULES = {
    "standard": duet.DuetRules(),
    "several_clues": duet.DuetRules(several_clues=True),
    "flexible": duet.DuetRules(clues="flexible"),
    "mission_11_3": duet.DuetRules(tokens=11, mistakes=3),
    "mission_7_0": duet.DuetRules(tokens=7, mistakes=0),
    "one_token": duet.DuetRules(tokens=1, mistakes=1),
    "pictures": duet.DuetRules(pictures=True),
}
CLASSIC_RULES = {
    f"{kind}-{variant}-{key}": cl.ClassicRules(kind=kind, variant=variant, pictures_key=key)  # type: ignore[arg-type]
    for kind in ("classic", "pictures") for variant in ("standard", "duo", "trio")
    for key in (("source",) if kind == "classic" else ("source", "printed"))
}


# --- Duet ----------------------------------------------------------------------------------------------------

def random_duet_action(rng: random.Random, state: duet.DuetState) -> object:
    """Mostly a legal move (so that games get somewhere), else anything at all, in or out of range."""
    legal = duet.legal_actions(state)
    if legal and rng.random() < 0.7:
        return rng.choice(legal)
    seat = rng.choice(("A", "B", "C"))
    word = rng.choice((None, rng.choice(state.words), "".join(rng.choice("abcé -'") for _ in range(rng.randrange(9)))))
    return rng.choice((Clue(seat, word, rng.randint(-2, 17)),  # type: ignore[arg-type]
                       Guess(seat, rng.randint(-3, 28)), Stop(seat), Penalty()))  # type: ignore[arg-type]


def check_duet(state: duet.DuetState) -> None:
    rules = state.rules
    assert 0 <= state.bank_innocent <= rules.innocent
    assert 0 <= state.bank_closed <= rules.tokens - rules.innocent
    assert 0 <= state.taken and state.bank + state.taken <= rules.tokens
    assert state.found <= state.key.greens()
    assert state.version == len(state.history)
    legal = duet.legal_actions(state)
    assert bool(legal) != state.over, "a game in progress always has a move; a finished one none"
    if state.phase == "lost":
        assert state.reason is not None
    if state.phase == "won":
        assert state.found == state.key.greens()


@pytest.mark.parametrize("variant", sorted(DUET_RULES))
@FUZZ
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(1, 80))
def test_bad_input_duet_random_actions_keep_invariants(variant: str, seed: int, steps: int) -> None:
    rng = random.Random(seed)
    state = duet.new_game(WORDS, random_key(rng), DUET_RULES[variant])
    for _ in range(steps):
        action = random_duet_action(rng, state)
        legal = duet.legal_actions(state)
        try:
            new, _events = duet.apply(state, action)  # type: ignore[arg-type]
        except IllegalAction:
            plain = isinstance(action, Clue) and action.word is None
            assert not ((plain or not isinstance(action, Clue)) and action in legal), f"{action} was legal"
            continue
        if isinstance(action, Clue):
            assert Clue(action.seat, None, action.number) in legal, f"{action} was accepted out of turn"
        else:
            assert action in legal, f"{action} was accepted though not legal"
        assert new.version == state.version + 1
        state = new
        check_duet(state)
    again = replay(record_of(state))
    assert again.ok and again.state == state


# --- classic and Pictures ------------------------------------------------------------------------------------

def new_classic(rules: cl.ClassicRules, seed: int) -> cl.ClassicState:
    rng = random.Random(seed)
    key = cl.random_classic_key(rng, rules.kind, rules.pictures_key)
    cards = tuple(f"c{i}" for i in range(rules.size))
    return cl.new_classic_game(cards, key, rules, seed)


def random_classic_action(rng: random.Random, state: cl.ClassicState) -> object:
    size = len(state.cards)
    legal = cl.legal_classic_actions(state)
    if legal and rng.random() < 0.7:
        return rng.choice(legal)
    team = rng.choice(("R", "B"))
    card = rng.randint(-2, size + 2)
    word = rng.choice((None, rng.choice(state.cards), "x" * rng.randrange(5)))
    return rng.choice((cl.TeamClue(team, word, rng.choice((None, rng.randint(-1, 12)))),  # type: ignore[arg-type]
                       cl.TeamGuess(team, card), cl.TeamStop(team), cl.TeamPenalty(team, card),  # type: ignore[arg-type]
                       cl.Cover(team, card)))  # type: ignore[arg-type]


def check_classic(state: cl.ClassicState, before: cl.ClassicState) -> None:
    assert before.covered <= state.covered
    for team in cl.TEAMS:
        assert cl.left(state, team) >= 0
    assert (state.winner is not None) == (state.phase == "won")
    legal = cl.legal_classic_actions(state)
    assert bool(legal) != state.over


@pytest.mark.parametrize("variant", sorted(CLASSIC_RULES))
@FUZZ
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(1, 80))
def test_bad_input_classic_random_actions_keep_invariants(variant: str, seed: int, steps: int) -> None:
    rng = random.Random(seed)
    state = new_classic(CLASSIC_RULES[variant], seed)
    for _ in range(steps):
        action = random_classic_action(rng, state)
        legal = cl.legal_classic_actions(state)
        try:
            new = cl.apply_classic(state, action)  # type: ignore[arg-type]
        except IllegalAction:
            plain = not isinstance(action, cl.TeamClue) or action.word is None
            assert not (plain and action in legal), f"{action} was legal"
            continue
        if isinstance(action, cl.TeamClue):
            assert cl.TeamClue(action.team, None, action.number) in legal
        else:
            assert action in legal, f"{action} was accepted though not legal"
        check_classic(new, state)
        state = new
    again = replay(classic_record_of(state))
    assert again.ok and again.state == state


# --- the broken-file corpus ----------------------------------------------------------------------------------

def corpus(kind: str) -> list[Path]:
    return sorted((BROKEN / kind).iterdir())


@pytest.fixture
def ok_script(tmp_path: Path) -> Path:
    script = tmp_path / "ok.txt"
    script.write_text("press A.ok\n")
    return script


@pytest.mark.parametrize("path", corpus("records"), ids=lambda p: p.name)
def test_bad_input_broken_record_replay_says_one_line_and_exits_2(path: Path, capsys: pytest.CaptureFixture[str]):
    assert cli(["replay", str(path)]) == 2
    line = one_line_error(capsys.readouterr().err)
    assert line.startswith("duetbox replay: ") and path.name in line


@pytest.mark.parametrize("path", corpus("records"), ids=lambda p: p.name)
def test_bad_input_broken_record_start_says_one_line_and_exits_2(path: Path, ok_script: Path, tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]):
    data = tmp_path / "data"
    code = cli(["run", "--hardware", "mock", "--script", str(ok_script), "--data-dir", str(data),
                "--start", str(path)])
    assert code == 2
    assert one_line_error(capsys.readouterr().err).startswith("duetbox run: ")
    assert all(g["status"] != "playing" or not g["actions"] for g in read_db(data)["games"])


@pytest.mark.parametrize("path", corpus("configs"), ids=lambda p: p.name)
def test_bad_input_broken_config_run_says_one_line_and_exits_2(path: Path, ok_script: Path, tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]):
    code = cli(["run", "--hardware", "mock", "--script", str(ok_script), "--data-dir", str(tmp_path),
                "--config", str(path)])
    assert code == 2
    assert path.name in one_line_error(capsys.readouterr().err)


@pytest.mark.parametrize("path", corpus("configs"), ids=lambda p: p.name)
def test_bad_input_broken_config_check_lists_problems_and_exits_1(path: Path, capsys: pytest.CaptureFixture[str]):
    # `duetbox config check` has its own contract: one line per problem on stdout, exit 1 (also when unreadable).
    assert cli(["config", "check", str(path)]) == 1
    out = capsys.readouterr()
    lines = out.out.splitlines()
    assert lines and all(line.startswith(f"{path}: ") for line in lines)
    assert "Traceback" not in out.err


@pytest.mark.parametrize("path", corpus("scripts"), ids=lambda p: p.name)
def test_bad_input_broken_script_says_one_line_and_exits_2(path: Path, tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]):
    code = cli(["run", "--hardware", "mock", "--script", str(path), "--data-dir", str(tmp_path)])
    assert code == 2
    assert path.name in one_line_error(capsys.readouterr().err)


UNREADABLE_PACKS = {"binary.txt", "latin1.txt"}
@pytest.mark.parametrize("path", corpus("packs"), ids=lambda p: p.name)
def test_bad_input_broken_word_pack_check_follows_its_contract(path: Path, capsys: pytest.CaptureFixture[str]):
    # `duetbox words check`: exit 1 and one line per problem on stdout; exit 2 and one stderr line if unreadable.
    code = cli(["words", "check", str(path)])
    out = capsys.readouterr()
    if path.name in UNREADABLE_PACKS:
        assert code == 2
        one_line_error(out.err)
    else:
        assert code == 1
        assert out.out.strip() and all(line.startswith(f"{path}: ") for line in out.out.splitlines())
        assert "Traceback" not in out.err


def test_bad_input_missing_and_directory_paths_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    for argv in (["replay", str(tmp_path / "none.json")], ["replay", str(tmp_path)],
                 ["words", "check", str(tmp_path / "none.txt")], ["words", "check", str(tmp_path)],
                 ["run", "--hardware", "mock", "--script", str(tmp_path / "none.txt")],
                 ["run", "--hardware", "mock", "--script", str(tmp_path)]):
        assert cli(argv) == 2, argv
        one_line_error(capsys.readouterr().err)


def test_bad_input_corrupt_database_is_moved_aside_and_the_box_starts(tmp_path: Path, ok_script: Path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "duetbox.db").write_bytes(b"SQLite format 3\x00" + bytes(random.Random(1).randrange(256)
                                                                      for _ in range(8000)))
    got = duetbox("run", "--hardware", "mock", "--script", str(ok_script), "--data-dir", str(data))
    assert got.returncode == 0, got.stderr
    assert "Traceback" not in got.stderr
    assert [p.name for p in data.iterdir() if ".corrupt-" in p.name and not p.name.endswith(("-wal", "-shm"))]
    assert read_db(data)["games"] == []


def test_bad_input_broken_record_through_the_real_command_line(tmp_path: Path):
    got = duetbox("replay", str(BROKEN / "records" / "key_wrong_template.json"))
    assert got.returncode == 2
    assert "key" in one_line_error(got.stderr)
