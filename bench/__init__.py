"""The benchmarks (``duetbox bench``), kept out of the app package: they drive the app from outside.

- ``box``: speed and frugality of this machine's box (``duetbox bench``);
- ``pi``: the same app with the Pi's buses and SD card simulated (``--profile pi4|zero2w``);
- ``remote``: a move on one box shown on another over a local Mosquitto (``--remote``);
- ``command``: the ``duetbox bench`` subcommand (``device/cli.py`` dispatches to it by name).
"""
