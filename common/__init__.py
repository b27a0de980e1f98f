"""What every package may import (engine, hardware, device, partner): no rules, no devices, no app.

- ``userfiles``: reading a file a person hands to the box (records, scripts, configurations, packs, decks), bounded
  and safe, with one line for any bad file.
"""
