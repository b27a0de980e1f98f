"""The app's services: what the loop and the game controller call beside the screens, each behind a small API
that never raises into the game and talks to hardware only through ``hardware.base``'s protocols.

- ``audio``: sound cues and speech routed by the settings; ``sound``: the WAV cues; ``speech``: espeak-ng;
- ``hourglass``: the sand timer on the ring; ``ringfx``: engine events → ring effects and cues;
- ``notify``: systemd's readiness, status and watchdog; ``cluewarm``: the clue checker made ready off the loop.
"""
