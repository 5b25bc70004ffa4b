"""The stable public API: `load_game`, `Game`, `State`, `Action`."""

from __future__ import annotations

from davinci.engine.actions import Action
from davinci.engine.game import Game, load_game
from davinci.engine.state import State

__all__ = ["Action", "Game", "State", "load_game"]
