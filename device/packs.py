"""Custom word packs on the box: the data directory's ``packs`` folder, imports from a USB stick, the pack list.

A custom pack is a word-pack file (``engine.words``: one word a line, a ``# language: xx`` header) kept as
``<data dir>/packs/<name>.txt``. It gets there three ways, each checked first with the checker of
``duetbox words check`` (a bad pack is refused with its one-line reason and nothing is copied):

- ``duetbox words add FILE`` from a shell;
- the admin menu's "import packs" row, which reads every ``*.txt`` at the top of each USB folder
  (``usb_folders``: the folders named in ``$DUETBOX_USB``, separated by ``:``, else the mount points under
  /media and /run/media) - a folder standing in for a USB stick works the same;
- by hand: a file dropped in the folder is listed if it is a good pack (a bad one is left out and logged).

``pack_names`` lists the bundled packs then the custom ones for the set-up's pack row (``pack_label`` shows a
custom pack with its word count); ``load`` loads either kind; ``following_language`` keeps the pack in the
interface language unless the players chose another one.
"""

from __future__ import annotations

import logging
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from device.i18n import Translator
from engine.words import (
    LANGUAGE_PACKS,
    WordPack,
    WordPackError,
    bundled_packs,
    load_pack,
    parse_pack,
    read_pack_text,
)

log = logging.getLogger("duetbox.packs")

PACKS_FOLDER = "packs"
_NAME = re.compile(r"[^0-9A-Za-z_-]+")
USB_ROOTS = ("/media", "/run/media")


@dataclass(frozen=True)
class CustomPack:
    name: str
    language: str
    words: int
    path: Path


def pack_dir(data_dir: str | Path) -> Path:
    return Path(data_dir) / PACKS_FOLDER


def _safe_name(stem: str) -> str:
    name = _NAME.sub("-", stem).strip("-").lower()[:32] or "pack"
    return f"my-{name}" if name in bundled_packs() else name


def pack_target(data_dir: str | Path, name: str) -> Path:
    """Where a pack named ``name`` is stored (a name like a bundled pack's becomes my-<name>)."""
    return pack_dir(data_dir) / f"{_safe_name(name)}.txt"


def add_pack(data_dir: str | Path, source: str | Path) -> CustomPack:
    """Check the pack file ``source`` and copy it into the packs folder. Raises WordPackError (one line)."""
    text = read_pack_text(str(source))
    pack = parse_pack(text, Path(source).stem)
    name = _safe_name(pack.name)
    folder = pack_dir(data_dir)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / f"{name}.txt"
        temporary = folder / f".{name}.txt.part"
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, target)
    except OSError as exc:
        raise WordPackError(f"cannot copy into {folder}: {exc.strerror or exc}") from None
    return CustomPack(name, pack.language, len(pack.words), target)


def usb_folders() -> list[Path]:
    """Folders to import packs from: ``$DUETBOX_USB`` (``:``-separated) or the mounted USB sticks."""
    named = os.environ.get("DUETBOX_USB", "")
    if named:
        return [Path(p) for p in named.split(":") if p]
    found: list[Path] = []
    for root in USB_ROOTS:
        base = Path(root)
        try:
            for child in sorted(base.iterdir()):
                found.append(child)
                if root == "/run/media" and child.is_dir():  # /run/media/<user>/<stick>
                    found.extend(sorted(c for c in child.iterdir() if c.is_dir()))
        except OSError:
            continue
    return found


def import_folders(data_dir: str | Path, folders: list[Path] | None = None) -> tuple[list[CustomPack], list[str]]:
    """Import every ``*.txt`` pack at the top of ``folders`` (``usb_folders()`` by default).

    Returns the packs imported and one line per refused file ("name.txt: reason")."""
    imported: list[CustomPack] = []
    refused: list[str] = []
    for folder in folders if folders is not None else usb_folders():
        try:
            files = sorted(p for p in folder.iterdir() if p.suffix.lower() == ".txt" and p.is_file())
        except OSError:
            continue
        for path in files:
            try:
                imported.append(add_pack(data_dir, path))
            except WordPackError as exc:
                reason = str(exc).removeprefix(f"{path}: ")
                refused.append(f"{path.name}: {reason}")
    return imported, refused


def custom_packs(data_dir: str | Path) -> list[CustomPack]:
    """The good packs in the packs folder, by name (bad files are logged and left out)."""
    folder = pack_dir(data_dir)
    try:
        files = sorted(p for p in folder.iterdir() if p.suffix == ".txt" and not p.name.startswith("."))
    except OSError:
        return []
    found: list[CustomPack] = []
    for path in files:
        try:
            pack = parse_pack(read_pack_text(str(path)), path.stem)
        except WordPackError as exc:
            log.warning("custom pack %s left out: %s", path.name, exc)
            continue
        if path.stem not in bundled_packs():
            found.append(CustomPack(path.stem, pack.language, len(pack.words), path))
    return found


def pack_names(data_dir: str | Path) -> tuple[str, ...]:
    """The set-up's pack row: bundled packs, then custom ones."""
    return tuple(bundled_packs()) + tuple(p.name for p in custom_packs(data_dir))


def pack_label(name: str, data_dir: str | Path) -> str | None:
    """A pack's label with its word count: a custom pack's file name ("kids (120)"), a bundled themed pack's
    ``# name:`` ("Cuisine (227)"); None for a bundled language pack (the screens name it by its language)."""
    if name in bundled_packs():
        if name in LANGUAGE_PACKS:
            return None
        try:
            pack = load_pack(name)
        except WordPackError:
            return None
        return f"{pack.name} ({len(pack.words)})"
    for custom in custom_packs(data_dir):
        if custom.name == name:
            return f"{custom.name} ({custom.words})"
    return None


def load(data_dir: str | Path, name: str) -> WordPack:
    """A bundled pack by name, else the custom pack of that name. Raises WordPackError."""
    if name in bundled_packs():
        return load_pack(name)
    path = pack_dir(data_dir) / f"{name}.txt"
    if "/" in name or "\\" in name or not path.is_file():
        raise WordPackError(f"no word pack named {name!r}")
    try:
        info = path.stat()
    except OSError:
        raise WordPackError(f"no word pack named {name!r}") from None
    stamp = (str(path), info.st_mtime_ns, info.st_size)
    cached = _LOADED.get(name)
    if cached is not None and cached[0] == stamp:
        return cached[1]
    found = load_pack(str(path))
    pack = WordPack(name, found.language, found.words)
    _LOADED[name] = (stamp, pack)
    return pack


#: custom packs parsed in this process, by name: (file, its mtime and size, the pack); a changed file is read again
_LOADED: dict[str, tuple[tuple[str, int, int], WordPack]] = {}


def following_language(pack: str, old_language: str, new_language: str) -> str:
    """The pack after the interface language changes: the new language's pack when the pack was the old
    language's (the players had not chosen another) and such a pack is bundled; else unchanged."""
    if pack == old_language and new_language in bundled_packs():
        return new_language
    return pack


class _Importer(Protocol):
    """What ``import_status`` needs of the host: its translator and its storage."""

    @property
    def tr(self) -> Translator: ...
    @property
    def storage(self) -> _Folder: ...


class _Folder(Protocol):
    @property
    def directory(self) -> Path: ...


def import_status(app: _Importer) -> str:
    """The admin row "import packs": import from the USB folders; the status line (translated, or the checker's
    one-line reason for the first refused file)."""
    tr = app.tr
    storage = app.storage
    imported, refused = import_folders(storage.directory)
    if refused:
        return refused[0] if not imported else f"{tr('settings.imported', n=len(imported))} · {refused[0]}"
    if not imported:
        return str(tr("settings.import_none"))
    return str(tr("settings.imported", n=len(imported)))
