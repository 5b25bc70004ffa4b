"""Clue-card decks and other card lists (YAML)."""
