"""One Snowball stemmer without the other twenty-nine: ``snowballstemmer``'s package imports every language's
module when it is imported (about 3 MB and 50 ms here), while the clue checker needs one or two. ``stemmer``
imports the one algorithm's module alone, through a private alias of the package's folder (its modules import
only their neighbours ``basestemmer`` and ``among``); it is the same code, so the stems are the same.

Where that is not possible (PyStemmer installed, which the package would prefer; another layout of the
package; the package already imported by someone else) it is the package's own ``stemmer``."""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import sys
import threading
from typing import Protocol

_ALIAS = "engine._snowball_one"  # the package's folder under a name of ours: its __init__ never runs
_lock = threading.Lock()


class Stemmer(Protocol):
    def stemWord(self, word: str) -> str: ...  # noqa: N802 - the library's name


def _package_stemmer(algorithm: str) -> Stemmer:
    import snowballstemmer  # type: ignore[import-untyped,unused-ignore]

    return snowballstemmer.stemmer(algorithm)  # type: ignore[no-any-return]


def _alone(algorithm: str) -> Stemmer | None:
    """``algorithm``'s stemmer from its own module only; None when the package is not laid out as expected."""
    if "snowballstemmer" in sys.modules or importlib.util.find_spec("Stemmer") is not None:
        return None
    spec = importlib.util.find_spec("snowballstemmer")
    if spec is None or not spec.submodule_search_locations:
        return None
    with _lock:
        if _ALIAS not in sys.modules:
            alias = importlib.util.module_from_spec(importlib.machinery.ModuleSpec(_ALIAS, None, is_package=True))
            alias.__path__ = list(spec.submodule_search_locations)
            sys.modules[_ALIAS] = alias
        module = importlib.import_module(f"{_ALIAS}.{algorithm}_stemmer")
    name = "".join(part.capitalize() for part in algorithm.split("_")) + "Stemmer"
    found = getattr(module, name, None)
    return found() if callable(found) else None


def stemmer(algorithm: str) -> Stemmer:
    """A new stemmer for a Snowball ``algorithm`` ("french", "english", ...), as ``snowballstemmer.stemmer``."""
    try:
        found = _alone(algorithm)
    except ImportError:
        found = None
    return found if found is not None else _package_stemmer(algorithm)
