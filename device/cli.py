"""The ``duetbox`` command: dispatches to ``device.commands.<name>.main(argv)`` (``bench.command`` for
``duetbox bench``: the benchmarks live outside the app package)."""

from __future__ import annotations

import importlib
import os
import sys

COMMANDS: dict[str, str] = {
    "run": "start the box (--hardware emulator|mock|pi)",
    "replay": "replay a game record and print its final state as JSON",
    "words": "word packs: `duetbox words check FILE`, `duetbox words add FILE`, `duetbox words import FOLDER`",
    "pictures": "picture deck: `duetbox pictures check [DIR]`",
    "config": "hardware configuration: `duetbox config check FILE`",
    "hw-test": "check the wiring of a real box",
    "export": "print a saved game as a record",
    "bench": "measure speed and frugality",
    "partner": "the solo partner: build, eval, play (solo Duet in a terminal)",
    "pin": "set the admin PIN from a shell: `duetbox pin set` (the PIN on stdin)",
}

#: Subcommands whose module is not ``device.commands.<name>``.
MODULES: dict[str, str] = {"bench": "bench.command"}


def usage() -> str:
    lines = ["usage: duetbox COMMAND [ARGS...]   (duetbox COMMAND --help: its options)", "", "commands:"]
    lines += [f"  {name:<9} {text}" for name, text in COMMANDS.items()]
    lines += ["", "options:", "  --help    this list", "  --version print the version of duetbox"]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help", "help"):
        print(usage())
        return 0 if args else 2
    if args[0] in ("--version", "-V", "version"):
        from device.version import version

        print(f"duetbox {version()}")
        return 0
    name, rest = args[0], args[1:]
    # pygame prints a banner on stdout when it is first imported; no command wants it (`bench --json`, `replay`
    # and `export` print JSON there)
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    if name not in COMMANDS:
        print(f"duetbox: unknown command {name!r} (try: duetbox --help)", file=sys.stderr)
        return 2
    module_name = MODULES.get(name, "device.commands." + name.replace("-", "_"))
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name == module_name:
            print(f"duetbox: the command {name!r} is not available in this build", file=sys.stderr)
            return 2
        raise
    try:
        return int(module.main(rest))
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
