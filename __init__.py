"""davinci: a content-driven tabletop game engine.

Games and clue decks are YAML data; one generic interpreter plays them.
Importing this package has no side effects; the public API is re-exported lazily.
"""

from __future__ import annotations

__version__ = "0.1.0"
__all__ = ["load_game", "DavinciError", "__version__"]


def __getattr__(name: str) -> object:
    # Lazy re-exports keep `import davinci` (and `davinci --help`) fast: not even `typing`.
    if name == "load_game":
        from davinci.engine.api import load_game

        return load_game
    if name == "DavinciError":
        from davinci.engine.errors import DavinciError

        return DavinciError
    raise AttributeError(name)
