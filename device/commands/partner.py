"""`duetbox partner build|eval`: export the solo partner's word vectors; measure it box against box."""

from __future__ import annotations

import argparse
import sys
import time

USAGE = "duetbox partner build [--lang fr|en] [--space S] [--data-dir D] | eval --giver S --guesser S ..."


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, exit code 2 (architecture: CLI contract)
        raise _UsageError(message)


class _UsageError(Exception):
    pass


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="duetbox partner", description="the solo partner's word vectors and benchmark")
    sub = p.add_subparsers(dest="cmd")
    b = sub.add_parser("build", help="export word vectors from the installed `ai` extra into the data directory")
    b.add_argument("--lang", default="fr")
    b.add_argument("--space", action="append", help="only this space (repeatable); default: all of the language")
    b.add_argument("--data-dir")
    b.add_argument("--if-missing", action="store_true",
                   help="do nothing when the language's default spaces are already built (make run uses it)")
    e = sub.add_parser("eval", help="play box against box through the engine and print the figures")
    e.add_argument("--lang", default="fr")
    e.add_argument("--giver", required=True, help="space(s) for every clue, e.g. spacy, use, spacy+use")
    e.add_argument("--guesser", required=True, help="space(s) for every guess")
    e.add_argument("--games", type=int, default=100)
    e.add_argument("--tokens", type=int, default=9)
    e.add_argument("--seed", type=int, default=1)
    e.add_argument("--difficulty", choices=("easy", "normal"), default="normal")
    e.add_argument("--data-dir")
    e.add_argument("--show", type=int, default=0, help="print the clues of the first N games")
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
    from engine.words import load_pack
    from partner import Partner
    from partner.evaluate import evaluate

    if args.games < 1 or not 1 <= args.tokens <= 11:
        raise _UsageError("--games must be at least 1 and --tokens from 1 to 11")
    cache: dict[str, object] = {}
    t0 = time.perf_counter()
    giver_spaces = _spaces(args.giver, args.lang, args.data_dir, cache)
    guesser_spaces = _spaces(args.guesser, args.lang, args.data_dir, cache)
    load_s = time.perf_counter() - t0
    givers = {s: Partner(args.lang, giver_spaces, args.difficulty) for s in ("A", "B")}  # type: ignore[arg-type]
    guessers = {s: Partner(args.lang, guesser_spaces, args.difficulty) for s in ("A", "B")}  # type: ignore[arg-type]
    from partner.legal import engine_checker

    for p in givers.values():
        p.checker = engine_checker(args.lang)
    pack = load_pack(args.lang)
    summary = evaluate(pack, givers, guessers, args.games, args.tokens, args.seed, args.lang)  # type: ignore[arg-type]
    print(
        f"partner eval {args.lang}: giver {args.giver}, guesser {args.guesser}, {args.tokens} tokens, "
        f"seed {args.seed}, difficulty {args.difficulty} (spaces loaded in {load_s:.1f} s)"
    )
    for line in summary.lines():
        print("  " + line)
    for i, game in enumerate(summary.samples[: args.show]):
        print(f"game {i + 1}: {'won' if game.won else 'lost (' + str(game.reason) + ')'}")
        for word, n, meant, hit in game.clues:
            print(f"  {word} {n}: meant {', '.join(meant) or '?'}; found {', '.join(hit) or '-'}")
    return 0


def main(argv: list[str]) -> int:
    try:
        args = _parser().parse_args(argv)
        if args.cmd == "build":
            return _build(args)
        if args.cmd == "eval":
            return _eval(args)
        print(f"usage: {USAGE}", file=sys.stderr)
        return 2
    except _UsageError as exc:
        print(f"duetbox partner: {exc}", file=sys.stderr)
        return 2
    except RuntimeError as exc:  # BuildError, SpaceError, PartnerUnavailable: one line each
        print(f"duetbox partner: {str(exc).splitlines()[0]}", file=sys.stderr)
        return 1
