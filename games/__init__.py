"""Built-in games, one folder each."""
