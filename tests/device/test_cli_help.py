"""Every command and option of ``duetbox`` says in one line what it does; ``duetbox --version`` prints the
version."""

from __future__ import annotations

import argparse
import importlib
from importlib.metadata import version

import pytest

from device import cli


class _Captured(Exception):
    pass


def _parsers(name: str, monkeypatch: pytest.MonkeyPatch) -> list[argparse.ArgumentParser]:
    """The argparse parser(s) a command builds when it parses ``--help`` (captured before it prints)."""
    seen: list[argparse.ArgumentParser] = []

    def capture(self: argparse.ArgumentParser, *args: object, **kwargs: object) -> object:
        seen.append(self)
        raise _Captured

    monkeypatch.setattr(argparse.ArgumentParser, "parse_args", capture)
    monkeypatch.setattr(argparse.ArgumentParser, "parse_known_args", capture)
    module = importlib.import_module(cli.MODULES.get(name, "device.commands." + name.replace("-", "_")))
    try:
        module.main(["--help"])
    except _Captured:
        pass
    out: list[argparse.ArgumentParser] = []
    todo = list(seen)
    while todo:
        parser = todo.pop()
        out.append(parser)
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                todo.extend(action.choices.values())
    return out


ARGPARSE_COMMANDS = ("run", "replay", "config", "hw-test", "export", "bench", "partner", "pin")


@pytest.mark.parametrize("name", ARGPARSE_COMMANDS)
def test_every_option_has_one_line_of_help(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    parsers = _parsers(name, monkeypatch)
    assert parsers, f"duetbox {name} builds no argparse parser"
    missing = []
    for parser in parsers:
        for action in parser._actions:
            if isinstance(action, (argparse._HelpAction, argparse._SubParsersAction)):
                continue
            text = action.help or ""
            if not text.strip() or "\n" in text or len(text) > 200:
                missing.append(f"{parser.prog} {'/'.join(action.option_strings) or action.dest}")
    assert not missing, f"options without a one-line help: {missing}"


def test_every_command_is_described_and_has_its_own_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--help"]) == 0
    listing = capsys.readouterr().out
    for name, text in cli.COMMANDS.items():
        assert text.strip() and "\n" not in text
        assert f"  {name} " in listing
    for name in ("words", "pictures"):  # hand-parsed commands: their --help prints a usage, exit 0
        assert cli.main([name, "--help"]) == 0
        assert "usage: duetbox " + name in capsys.readouterr().out


def test_version_prints_the_installed_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["--version"]) == 0
    out = capsys.readouterr().out.strip()
    from device.version import version as box_version

    assert out == f"duetbox {box_version()}"
    assert out.split()[1][0].isdigit() and version("duetbox") in out
