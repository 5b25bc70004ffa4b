"""The generic turn-and-phase interpreter. It knows no game by name."""
