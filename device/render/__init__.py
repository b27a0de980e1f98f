"""Renderers: pure functions from an engine view plus a small UI model (models.py) to a picture.

shared.py draws the pygame shared display, oled.py the 128x64 seat OLEDs, ring.py the LED ring frames.
"""
