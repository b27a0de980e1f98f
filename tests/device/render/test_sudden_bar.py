"""Sudden death (issue 15, item 42): each bar says "Mort subite" once (the red banner), not again in the
prompt beside it; in every interface language, on the real frame of ``make docs`` (docs/scripts/04-sudden.txt)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from test_layout import _frames

from device.render.shared import SharedRenderer
from device.render.text import record_texts

ROOT = Path(__file__).resolve().parents[3]


def test_the_sudden_death_bars_say_it_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    frame = dict(_frames(ROOT / "docs" / "scripts" / "04-sudden.txt", tmp_path, monkeypatch))["sudden-death"]
    assert frame.shared.banner == "Mort subite"
    for size in ((1280, 720), (800, 480)):
        renderer = SharedRenderer()
        surface = record_texts(renderer.text, size)
        renderer.full(surface, frame.view, frame.shared)
        for turned in (False, True):  # the bar facing A, the one facing B
            said = [t.text for t in surface.texts if t.turned == turned  # type: ignore[attr-defined]
                    and "mort subite" in t.text.lower()]
            assert said == ["Mort subite"], (size, turned, said)
        assert any("A + B" in t.text for t in surface.texts)  # the prompt still names the seats  # type: ignore[attr-defined]


@pytest.mark.parametrize("language", ["fr", "en", "ro", "de", "it"])
def test_the_sudden_death_prompt_does_not_repeat_the_banner(language: str) -> None:
    play = tomllib.loads((ROOT / "device" / "locales" / f"{language}.toml").read_text("utf-8"))["play"]
    banner, prompt = play["sudden_death"], play["msg_sudden"]
    assert banner.lower() not in prompt.lower(), language
    assert "{seats}" in prompt


@pytest.mark.parametrize("language", ["fr", "en", "ro", "de", "it"])
def test_solos_sudden_death_prompt_does_not_repeat_the_banner(language: str) -> None:
    catalog = tomllib.loads((ROOT / "device" / "locales" / f"{language}.toml").read_text("utf-8"))
    banner, prompt = catalog["play"]["sudden_death"], catalog["solo"]["msg_sudden"]
    assert banner.lower() not in prompt.lower(), language
    assert "OK" in prompt and "STOP" in prompt  # which buttons, as everywhere
