"""`duetbox partner build|eval|play`: export the solo partner's word vectors; measure it; play it in a terminal."""

from __future__ import annotations

import argparse
import sys
import time
from typing import TYPE_CHECKING, NoReturn

from engine.seats import SEATS

if TYPE_CHECKING:  # pragma: no cover - typing only (the partner needs numpy, the `ai` extra)
    from partner.assoc import AssocTable
    from partner.evaluate import Summary

USAGE = ("duetbox partner build [--lang fr|en] [--space S] [--data-dir D] | play [--lang fr|en] [--log F] | "
         "eval --setup solo|clues [--reader S --noise 1.5] [--json] | eval --giver S --guesser S ...")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, exit code 2 (architecture: CLI contract)
        raise _UsageError(message)


class _UsageError(Exception):
    pass


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="duetbox partner", description="the solo partner's word vectors and benchmark")
    sub = p.add_subparsers(dest="cmd")
    b = sub.add_parser("build", help="export word vectors from the installed `ai` extra into the data directory")
    b.add_argument("--lang", default="fr", help="language of the word vectors (default: fr)")
    b.add_argument("--space", action="append", help="only this space (repeatable); default: all of the language")
    b.add_argument("--data-dir", help="the box's data directory (default: as `duetbox run`)")
    b.add_argument("--if-missing", action="store_true",
                   help="do nothing when the language's default spaces are already built (make run uses it)")
    e = sub.add_parser("eval", help="play the partner through the engine and print the figures")
    e.add_argument("--lang", default="fr", help="language of the games (default: fr)")
    e.add_argument("--setup", choices=("solo", "clues", "cross"), default=None,
                   help="solo: box = seat B, stand-in = seat A; clues: the box gives every clue, the stand-in "
                        "guesses; cross (default with --giver/--guesser): any spaces against any")
    e.add_argument("--reader", default=None,
                   help="the stand-in's space (default: the language's first), or 'person': the person model "
                        "(partner.person: the second association set, boards from the words it covers)")
    e.add_argument("--noise", type=float, default=None,
                   help="Gaussian noise on the stand-in's space (default: the calibrated level, fr 1.5, en 1.1)")
    e.add_argument("--assoc", help="association table file for the box (default: the bundled one)")
    e.add_argument("--no-assoc", action="store_true", help="the box without an association table")
    e.add_argument("--box", choices=("new", "noisy", "legacy"), default="new",
                   help="noisy: the box before issue 28 (noise-aware giver, cautious guesser); legacy: the box "
                        "before issue 18 (no table, no noise model)")
    e.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                   help="tuning: override a box setting (sigma, assassin, bystander, max_n, readings, adapt, "
                        "tau, assassin_cost, min_green, w_assoc_give, w_assoc_read)")
    e.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    e.add_argument("--words", type=int, default=0, help="also list the box's N most used clue words")
    e.add_argument("--giver", help="cross setup: space(s) for every clue, e.g. spacy, use, spacy+use")
    e.add_argument("--guesser", help="cross setup: space(s) for every guess")
    e.add_argument("--games", type=int, default=100, help="how many games to play (default: 100)")
    e.add_argument("--tokens", type=int, default=9, help="timer tokens per game (default: 9)")
    e.add_argument("--seed", type=int, default=1, help="seed of the first deal (default: 1)")
    e.add_argument("--difficulty", choices=("easy", "normal"), default="normal", help="the partner's level")
    e.add_argument("--data-dir", help="the box's data directory (default: as `duetbox run`)")
    e.add_argument("--show", type=int, default=0, help="print the clues of the first N games")
    g = sub.add_parser("play", help="solo Duet in this terminal: you are seat A, the box is seat B")
    g.add_argument("--lang", default="fr", help="language of the words and of the box (fr or en; default: fr)")
    g.add_argument("--tokens", type=int, default=None,
                   help="timer tokens (1 to 11; default: 11, the proposed solo default, see docs/partner.md)")
    g.add_argument("--difficulty", choices=("easy", "normal"), default="normal", help="the box's level")
    g.add_argument("--log", help="JSON-lines file every game is appended to (default: <data dir>/partner/"
                                 "playtests/<lang>.jsonl)")
    g.add_argument("--player", default="", help="a name for the log (who played)")
    g.add_argument("--games", type=int, default=0, help="stop after N games (default: ask after each)")
    g.add_argument("--seed", type=int, default=None, help="deal of the first game (default: random)")
    g.add_argument("--data-dir", help="the box's data directory (default: as `duetbox run`)")
    return p


def _spaces(spec: str, lang: str, data_dir: str | None, cache: dict[str, object]) -> list[object]:
    from partner.paths import SPACES, space_path
    from partner.space import VectorSpace

    out = []
    for part in spec.split("+"):
        name, _, noise = part.partition("~")  # "spacy~0.5": spaCy with noise, a partner that mostly agrees
        if name not in SPACES.get(lang, ()):
            raise _UsageError(f"unknown space {name!r} for {lang} (known: {', '.join(SPACES.get(lang, ()))})")
        if name not in cache:
            cache[name] = VectorSpace.load(space_path(lang, name, data_dir))
        space = cache[name]
        if noise:
            try:
                level = float(noise)
            except ValueError:
                raise _UsageError(f"bad noise level in {part!r} (e.g. spacy~0.5)") from None
            if part not in cache:
                cache[part] = space.perturbed(level, seed=len(part))  # type: ignore[attr-defined]
            space = cache[part]
        out.append(space)
    return out


def _build(args: argparse.Namespace) -> int:
    from partner.build import build

    if args.if_missing:
        from partner.paths import DEFAULT_BUILD, built_spaces

        wanted = args.space or list(DEFAULT_BUILD.get(args.lang, ()))
        if wanted and set(wanted) <= set(built_spaces(args.lang, args.data_dir)):
            print(f"duetbox partner build: {args.lang} already built ({', '.join(wanted)})")
            return 0
    build(args.lang, args.data_dir, args.space, log=lambda line: print(line, flush=True))
    return 0


def _eval(args: argparse.Namespace) -> int:
    if args.games < 1 or not 1 <= args.tokens <= 11:
        raise _UsageError("--games must be at least 1 and --tokens from 1 to 11")
    setup = args.setup or ("cross" if args.giver or args.guesser else None)
    if setup is None:
        raise _UsageError("eval needs --setup solo|clues, or --giver and --guesser")
    if setup == "cross":
        if not (args.giver and args.guesser):
            raise _UsageError("the cross setup needs --giver and --guesser")
        return _eval_cross(args)
    return _eval_setup(args, setup)


_FLOAT_SETS = {"sigma", "assassin", "bystander", "adapt", "w_freq", "leftover_bonus"}
_INT_SETS = {"max_n", "readings", "candidates", "per_target"}
_GUESS_SETS = {"tau", "assassin_cost", "min_green", "bystander_cost", "memory_weight", "cap"}
_OTHER_SETS = {"w_assoc_give", "w_assoc_read", "guess_spaces", "hub"}
#: the win-probability giver (partner.winprob.WinParams): win_sigma sets its reader's noise
_WIN_SETS = {"w_link", "p_known", "min_last", "margin_a", "win_sigma", "bystander_link", "sudden_card"}


def _win_overrides(win: dict[str, object], difficulty: str, lang: str) -> object:
    """The win-probability giver's settings with the --set values of _WIN_SETS."""
    import dataclasses

    from partner import box_win

    base = box_win(lang, difficulty)
    if "sudden_card" in win:
        sudden = float(win.pop("sudden_card"))  # type: ignore[arg-type]
        base = dataclasses.replace(base, clock=dataclasses.replace(base.clock, sudden_card=sudden))
    if "win_sigma" in win:
        win["sigma"] = win.pop("win_sigma")
    if "bystander_link" in win:
        win["bystander_link"] = int(win["bystander_link"])  # type: ignore[call-overload]
    return dataclasses.replace(base, **win)  # type: ignore[arg-type]


def _overrides(pairs: list[str], difficulty: str, lang: str = "fr") -> dict[str, object]:
    import dataclasses

    from partner import BOX_GUESSER, BOX_NOISE

    noise: dict[str, object] = {}
    guess: dict[str, object] = {}
    other: dict[str, object] = {}
    win: dict[str, object] = {}
    for pair in pairs:
        name, _, value = pair.partition("=")
        try:
            if name in _WIN_SETS:
                win[name] = float(value)
            elif name in _INT_SETS:
                noise[name] = int(value)
            elif name in _FLOAT_SETS:
                noise[name] = float(value)
            elif name in _GUESS_SETS:
                guess[name] = float(value)
            elif name in _OTHER_SETS:
                other[name] = float(value)
            else:
                raise _UsageError(f"unknown setting {name!r} in --set")
        except ValueError:
            raise _UsageError(f"bad value in --set {pair!r}") from None
    out = dict(other)
    if win:
        out["winprob"] = _win_overrides(win, difficulty, lang)
    if noise:
        out["noise"] = dataclasses.replace(BOX_NOISE[difficulty], **noise)  # type: ignore[arg-type]
    if guess:
        out["guesser_params"] = dataclasses.replace(BOX_GUESSER[difficulty], **guess)  # type: ignore[arg-type]
    return out


def _eval_setup(args: argparse.Namespace, setup: str) -> int:
    from engine.words import load_pack
    from partner import Partner, PartnerUnavailable
    from partner.evaluate import CALIBRATED_NOISE, evaluate, seats_for, standin
    from partner.paths import PLAY_SPACES, SPACES, built_spaces

    if args.lang not in SPACES:
        raise _UsageError(f"no solo partner for language {args.lang!r}")
    reader = args.reader or SPACES[args.lang][0]
    if reader == "person":
        return _eval_person(args, setup)
    if args.noise is None:  # the level that reads the box's clues like a person (docs/partner.md, calibration)
        args.noise = CALIBRATED_NOISE.get(args.lang, 1.5)
    if not 0 <= args.noise <= 10:
        raise _UsageError("--noise must be from 0 to 10")
    cache: dict[str, object] = {}
    t0 = time.perf_counter()
    # the legacy box (before issue 18) guessed with two spaces averaged
    names = built_spaces(args.lang, args.data_dir)[: 2 if args.box == "legacy" else PLAY_SPACES]
    if not names:
        raise PartnerUnavailable(
            f"solo partner for {args.lang!r} not built: run `duetbox partner build --lang {args.lang}`"
        )
    box_spaces = _spaces("+".join(names), args.lang, args.data_dir, cache)
    # the same noisy space as `--guesser spacy~1.5` (seeded by its spelling): the calibrated stand-in
    spec = f"{reader}~{args.noise:g}" if args.noise else reader
    person_space = _spaces(spec, args.lang, args.data_dir, cache)[0]
    load_s = time.perf_counter() - t0
    assoc = _box_assoc(args)
    overrides = _overrides(args.set, args.difficulty, args.lang)

    def box() -> Partner:
        return _make_box(args, box_spaces, assoc, overrides)  # type: ignore[return-value]

    givers, guessers, box_seats = seats_for(setup, box, lambda: standin(args.lang, person_space))  # type: ignore[arg-type]
    if args.box == "legacy":
        from partner.legal import engine_checker

        for seat in box_seats:
            givers[seat].checker = engine_checker(args.lang)
    pack = load_pack(args.lang)
    summary = evaluate(pack, givers, guessers, args.games, args.tokens, args.seed, args.lang,
                       box_seats=box_seats)
    head = {
        "setup": setup, "lang": args.lang, "reader": reader, "noise": args.noise, "tokens": args.tokens,
        "seed": args.seed, "difficulty": args.difficulty, "box": args.box, "box_spaces": names,
        "assoc_pairs": len(assoc) if assoc else 0, "settings": args.set, "load_s": round(load_s, 2),
    }
    _report(args, setup, spec, names, head, summary)
    return 0


def _eval_person(args: argparse.Namespace, setup: str) -> int:
    """--reader person: the person model at the stand-in's seats, boards from the second set's words."""
    from engine.keycard import CARDS
    from engine.words import WordPack, load_pack
    from partner import Partner, PartnerUnavailable
    from partner.evaluate import evaluate, seats_for
    from partner.paths import PLAY_SPACES, built_spaces
    from partner.person import PersonModel, person_pack_words, second_set

    table = second_set(args.lang)
    if table is None:
        raise PartnerUnavailable(f"no second association set for {args.lang!r} (partner/data/assoc2)")
    names = built_spaces(args.lang, args.data_dir)[: 2 if args.box == "legacy" else PLAY_SPACES]
    if not names:
        raise PartnerUnavailable(
            f"solo partner for {args.lang!r} not built: run `duetbox partner build --lang {args.lang}`"
        )
    cache: dict[str, object] = {}
    box_spaces = _spaces("+".join(names), args.lang, args.data_dir, cache)
    assoc = _box_assoc(args)
    overrides = _overrides(args.set, args.difficulty, args.lang)
    full = load_pack(args.lang)
    pack = WordPack(f"{full.name}-second-set", full.language, tuple(person_pack_words(table, full.words)))
    if len(pack.words) < CARDS:
        raise PartnerUnavailable(f"the second set covers only {len(pack.words)} pack words of {args.lang!r}")
    seeds = iter(range(1, 10))

    def box() -> Partner:
        return _make_box(args, box_spaces, assoc, overrides)  # type: ignore[return-value]

    def person() -> Partner:
        return PersonModel(args.lang, box_spaces[0], table, seed=next(seeds))  # type: ignore[arg-type]

    givers, guessers, box_seats = seats_for(setup, box, person)
    if args.box == "legacy":
        from partner.legal import engine_checker

        for seat in box_seats:
            givers[seat].checker = engine_checker(args.lang)
    summary = evaluate(pack, givers, guessers, args.games, args.tokens, args.seed, args.lang, box_seats=box_seats)
    head = {
        "setup": setup, "lang": args.lang, "reader": "person", "noise": None, "tokens": args.tokens,
        "seed": args.seed, "difficulty": args.difficulty, "box": args.box, "box_spaces": names,
        "assoc_pairs": len(assoc) if assoc else 0, "second_set_pairs": len(table), "pack_words": len(pack.words),
        "settings": args.set,
    }
    _report(args, setup, "person", names, head, summary)
    return 0


def _make_box(args: argparse.Namespace, box_spaces: list[object], assoc: AssocTable | None,
              overrides: dict[str, object]) -> object:
    """The box of the run: new (as it ships), noisy (main before issue 28) or legacy (before issue 18)."""
    from partner import BOX_GUESSER_NOISY, W_ASSOC_GIVE, W_ASSOC_READ, Partner

    if args.box == "legacy":
        return Partner(args.lang, box_spaces[:1], args.difficulty, guesser_spaces=box_spaces,  # type: ignore[arg-type]
                       checker=None)
    extra = dict(overrides)
    if args.box == "noisy":
        extra = {"winprob": None, "hub": False, "w_assoc_give": W_ASSOC_GIVE, "w_assoc_read": W_ASSOC_READ,
                 "guesser_params": BOX_GUESSER_NOISY[args.difficulty], **extra}
    if "guess_spaces" in extra:  # tuning: guess with the first N spaces only
        extra["guesser_spaces"] = box_spaces[: int(extra.pop("guess_spaces"))]  # type: ignore[call-overload]
    return Partner.box(args.lang, box_spaces, args.difficulty, assoc, **extra)  # type: ignore[arg-type]


def _box_assoc(args: argparse.Namespace) -> AssocTable | None:
    """The association table the new box reads (none for the legacy box or with --no-assoc)."""
    from partner import PartnerUnavailable
    from partner.assoc import AssocError, AssocTable

    if args.no_assoc or args.box == "legacy":
        return None
    try:
        return AssocTable.load(args.assoc, args.lang) if args.assoc else AssocTable.bundled(args.lang)
    except (OSError, AssocError) as exc:
        raise PartnerUnavailable(str(exc).splitlines()[0]) from exc


def _report(args: argparse.Namespace, setup: str, spec: str, names: list[str], head: dict[str, object],
            summary: Summary) -> None:
    """The evaluation's figures: one JSON line (--json) or the text report."""
    import json

    if args.json:
        figures = summary.figures()
        if args.words:
            figures["top_words"] = sorted(summary.clue_words.items(), key=lambda kv: -kv[1])[: args.words]
        if args.show:
            figures["samples"] = [
                {"won": g.won, "reason": g.reason,
                 "clues": [[seat, w, n, list(meant), list(hit)]
                           for (w, n, meant, hit), seat in zip(g.clues, g.giver_of, strict=False)]}
                for g in summary.samples[: args.show]
            ]
        print(json.dumps({**head, **figures}, ensure_ascii=False))
        return
    print(f"partner eval {args.lang}, setup {setup}: box ({args.box}, {'+'.join(names)}, "
          f"{head['assoc_pairs']} associations) with a stand-in reading {spec}; {args.tokens} tokens, "
          f"seed {args.seed}, difficulty {args.difficulty}")
    for line in summary.lines():
        print("  " + line)
    _show(summary, args.show)
    if args.words:
        for word, count in sorted(summary.clue_words.items(), key=lambda kv: -kv[1])[: args.words]:
            print(f"{count}\t{word}")


def _show(summary: object, count: int) -> None:
    for i, game in enumerate(summary.samples[:count]):  # type: ignore[attr-defined]
        print(f"game {i + 1}: {'won' if game.won else 'lost (' + str(game.reason) + ')'}")
        for (word, n, meant, hit), seat in zip(game.clues, game.giver_of, strict=False):
            print(f"  {seat}: {word} {n}: meant {', '.join(meant) or '?'}; found {', '.join(hit) or '-'}")


def _eval_cross(args: argparse.Namespace) -> int:
    from engine.words import load_pack
    from partner import Partner
    from partner.evaluate import evaluate

    cache: dict[str, object] = {}
    t0 = time.perf_counter()
    giver_spaces = _spaces(args.giver, args.lang, args.data_dir, cache)
    guesser_spaces = _spaces(args.guesser, args.lang, args.data_dir, cache)
    load_s = time.perf_counter() - t0
    givers = {s: Partner(args.lang, giver_spaces, args.difficulty) for s in SEATS}  # type: ignore[arg-type]
    guessers = {s: Partner(args.lang, guesser_spaces, args.difficulty) for s in SEATS}  # type: ignore[arg-type]
    from partner.legal import engine_checker

    for p in givers.values():
        p.checker = engine_checker(args.lang)
    pack = load_pack(args.lang)
    summary = evaluate(pack, givers, guessers, args.games, args.tokens, args.seed, args.lang)
    print(
        f"partner eval {args.lang}: giver {args.giver}, guesser {args.guesser}, {args.tokens} tokens, "
        f"seed {args.seed}, difficulty {args.difficulty} (spaces loaded in {load_s:.1f} s)"
    )
    for line in summary.lines():
        print("  " + line)
    _show(summary, args.show)
    return 0


def _play(args: argparse.Namespace) -> int:
    from pathlib import Path

    from engine.words import load_pack
    from partner import Partner
    from partner.console import Console, run
    from partner.paths import SPACES, data_dir
    from partner.play import solo_tokens

    if args.lang not in SPACES:
        raise _UsageError(f"no solo partner for language {args.lang!r} ({' or '.join(SPACES)})")
    tokens = args.tokens if args.tokens is not None else solo_tokens()
    if not 1 <= tokens <= 11 or args.games < 0:
        raise _UsageError("--tokens must be from 1 to 11 and --games at least 0")
    log = Path(args.log) if args.log else data_dir(args.data_dir) / "partner" / "playtests" / f"{args.lang}.jsonl"
    print("Loading the box's partner...", flush=True)
    partner = Partner.load(args.lang, args.data_dir, args.difficulty)
    console = Console(partner, load_pack(args.lang), args.lang, tokens=tokens, seed=args.seed, log_path=log,
                      player=args.player, difficulty=args.difficulty)
    print(f"Games are logged to {log}")
    return run(console, args.games)


def main(argv: list[str]) -> int:
    try:
        args = _parser().parse_args(argv)
        if args.cmd == "build":
            return _build(args)
        if args.cmd == "eval":
            return _eval(args)
        if args.cmd == "play":
            return _play(args)
        print(f"usage: {USAGE}", file=sys.stderr)
        return 2
    except _UsageError as exc:
        print(f"duetbox partner: {exc}", file=sys.stderr)
        return 2
    except RuntimeError as exc:  # BuildError, SpaceError, PartnerUnavailable: one line each
        print(f"duetbox partner: {str(exc).splitlines()[0]}", file=sys.stderr)
        return 1
