"""The `davinci lint` framework: registry, context, runner and output formats."""

from __future__ import annotations

import importlib

# Modules that define rules; each registers its rules on import. A module missing here
# is a bug caught by the tests (every documented code must be registered), never silent.
RULE_MODULES: tuple[str, ...] = (
    "davinci.engine.lint.core_rules",
    "davinci.engine.lint.deck_rules",
    "davinci.engine.lint.game_rules",
    "davinci.engine.lint.board_rules",
)

_loaded = False


def load_rule_modules() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    for name in RULE_MODULES:
        importlib.import_module(name)
