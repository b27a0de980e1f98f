"""Where the exported vector spaces live."""

from __future__ import annotations

import os
from pathlib import Path

#: Spaces known per language, best first. The first is the box's main space; a second enables consensus clues.
SPACES: dict[str, tuple[str, ...]] = {
    "fr": ("spacy", "gloss", "use"),
    "en": ("glove", "gloss", "use"),
}
#: What `duetbox partner build` exports by default: the spaces the box plays with. "use" (single words through a
#: sentence encoder) is kept for evaluation, as a distant partner.
DEFAULT_BUILD: dict[str, tuple[str, ...]] = {"fr": ("spacy", "gloss"), "en": ("glove", "gloss")}
#: How many built spaces the box plays with. Measured (docs/partner.md, "Tuning"): reading its partner's clues
#: with spaCy alone is more precise (70.8 % of guesses green against 58.6 % with spaCy and gloss averaged), and
#: clues come from the first space anyway; a second space is only used by the eval's consensus setups.
PLAY_SPACES = 1


def data_dir(explicit: str | os.PathLike[str] | None = None) -> Path:
    """The data directory: explicit, else $DUETBOX_DATA_DIR, else $STATE_DIRECTORY, else $XDG_DATA_HOME/duetbox,
    else ~/.local/share/duetbox (the same order as device.storage.data_dir)."""
    if explicit:
        return Path(explicit)
    for name in ("DUETBOX_DATA_DIR", "STATE_DIRECTORY"):
        value = os.environ.get(name)
        if value:
            # systemd may pass several directories separated by ':'; the first is ours.
            return Path(value.split(":")[0])
    xdg = os.environ.get("XDG_DATA_HOME")
    return Path(xdg) / "duetbox" if xdg else Path.home() / ".local" / "share" / "duetbox"


def space_path(lang: str, space: str, directory: str | os.PathLike[str] | None = None) -> Path:
    return data_dir(directory) / "partner" / f"{lang}-{space}.npz"


def built_spaces(lang: str, directory: str | os.PathLike[str] | None = None) -> list[str]:
    """The spaces of `lang` whose export exists, in preference order."""
    return [s for s in SPACES.get(lang, ()) if space_path(lang, s, directory).is_file()]
