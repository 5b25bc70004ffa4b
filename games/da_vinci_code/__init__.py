"""Strategy code for this game's bots (rules live in the YAML)."""
