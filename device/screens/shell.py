"""The old home of the screens around a game, kept so that old imports still work: each screen family now has a
module of its own (lists, menu, pause, setup, attract, stats, settings); import from those."""

from __future__ import annotations

from device.screens.attract import ATTRACT_SECONDS, AttractScreen
from device.screens.base import Frame
from device.screens.item import Item
from device.screens.lists import ListScreen
from device.screens.menu import NEW_GAME, MenuScreen, SavedGame, asking_before_replacing, saved_name
from device.screens.parts import classic_labels
from device.screens.pause import AbandonedScreen, PauseScreen, revealed_frame
from device.screens.settings import (
    ABANDON,
    ADMIN_IDLE,
    BRIGHTNESS,
    CAFE_PUBLIC,
    IDLE,
    SPEECH_OUTPUTS,
    VOLUME,
    AdminScreen,
    PinScreen,
    SettingsScreen,
)
from device.screens.setup import TOKENS, OptionsScreen, OptionValue, SetupScreen
from device.screens.stats import StatsScreen

__all__ = ["ABANDON", "ADMIN_IDLE", "ATTRACT_SECONDS", "BRIGHTNESS", "CAFE_PUBLIC", "IDLE", "NEW_GAME",
           "SPEECH_OUTPUTS", "TOKENS", "VOLUME", "AbandonedScreen", "AdminScreen", "AttractScreen", "Frame", "Item",
           "ListScreen", "MenuScreen", "OptionValue", "OptionsScreen", "PauseScreen", "PinScreen", "SavedGame",
           "SettingsScreen", "SetupScreen", "StatsScreen", "asking_before_replacing", "classic_labels",
           "revealed_frame", "saved_name"]
