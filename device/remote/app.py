"""The one entry point of remote play: a box app with remote play composed in (docs/remote.md).

``remote_app(box, storage, broker=...)`` is ``device.app.App(box, storage)``, the same app, with a ``RemotePlay``
(``device/remote/play.py``) injected as its game controller's move router, an input filter, a frame filter and a
menu row (``app.remote``). There is no remote subclass of the app, the controller, the inputs or the
navigator; a box without a broker (``App(...)`` alone) plays locally only, and never resumes a remote game as a
local one.
"""

from __future__ import annotations

from collections.abc import Callable

from device.app import App
from device.remote.play import KIND, PartnerAway, RemotePlay
from device.remote.transport import BrokerConfig
from device.services.audio import SoundPlayer, Speaker
from device.services.notify import Notifier
from device.storage import Storage
from hardware.box import Box

__all__ = ["KIND", "PartnerAway", "RemotePlay", "remote_app"]


def remote_app(box: Box, storage: Storage, *, broker: BrokerConfig | None = None, seed: int | None = None,
               notifier: Notifier | None = None, sound: SoundPlayer | None = None, speech: Speaker | None = None,
               power: Callable[[str], None] | None = None, strict: bool = True) -> App:
    """A box app that can host or join a remote Duet through ``broker`` (the other keywords are ``App``'s)."""
    app = App(box, storage, seed=seed, notifier=notifier, sound=sound, speech=speech, power=power, strict=strict)
    app.remote = RemotePlay(app, broker or BrokerConfig())
    return app
