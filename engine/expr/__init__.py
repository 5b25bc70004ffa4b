"""The rule expression language."""
