"""Remote play: two boxes, one Duet, over an MQTT broker (docs/remote.md).

- ``pairing``: the 6-letter code, the game topic and secret derived from it (scrypt), sealed messages (AES-GCM).
- ``transport``: paho-mqtt in its own network thread; messages reach the app thread through a queue.
- ``link``: the protocol (``RemoteLink``): the host sequences every move, both boxes commit each move before
  showing it, a retained snapshot lets a box that was away catch up.
- ``game``: ``RemoteGame``, the game controller (``device.game``) with the link: every move commits before it shows.
- ``inputs``: ``RemoteInputs``, the input interpreter that polls the link and pauses a game whose partner is away.
- ``app``: ``RemoteApp``, the box app composed of those parts, with one local seat and one remote seat.
"""
