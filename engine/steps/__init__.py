"""Step kinds, one module per family; importing this package registers them."""

from davinci.engine.steps import core, decide  # noqa: F401
