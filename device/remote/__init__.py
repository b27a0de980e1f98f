"""Remote play: two boxes, one Duet, over an MQTT broker (docs/remote.md).

- ``pairing``: the 6-letter code, the SPAKE2 exchange on its rendezvous topic, the session derived from it, sealed
  and padded messages (AES-GCM).
- ``rendezvous``: the pairing under a code (``Rendezvous``: the SPAKE2 exchange, its confirmations, a wrong code).
- ``transport``: paho-mqtt (MQTT 5) in its own network thread; messages reach the app thread through a bounded
  queue, acknowledged once handled.
- ``link``: the protocol (``RemoteLink``): the pinned session, heartbeats, the host sequences every move, both
  boxes commit each move before showing it, a retained snapshot lets a box that was away catch up.
- ``messages``: each kind of message of the link, parsed into a typed dataclass where it arrives (``Malformed``).
- ``secret``: one side of the key card per box (``RemoteSession``: the key holder of the engine's ``DuetSession``,
  the stand-in for the other side).
- ``play``: ``RemotePlay``, remote play composed into the one app (move router, input and frame filters, menu).
- ``app``: ``remote_app``, the entry point.
"""
