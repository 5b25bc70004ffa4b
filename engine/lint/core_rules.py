"""Core lint rules: file kinds, references between files, and the codes of the lower layers.

Importing this module also imports the loader, schema and pack modules, whose hazard codes
(DV001-DV009, DV010-DV016, DV030-DV032) are registered there, next to the code raising them.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Iterator
from pathlib import Path

import davinci.engine.packs  # noqa: F401  (registers DV030-DV032)
import davinci.engine.schema  # noqa: F401  (registers DV010-DV016)
import davinci.engine.yamlload  # noqa: F401  (registers DV001-DV009)
from davinci.engine.errors import SourceLocation
from davinci.engine.files import davinci_files
from davinci.engine.lint.context import LintContext
from davinci.engine.lint.registry import Problem, Rule, register, rule
from davinci.engine.packs import display_path

register(Rule("DV017", "file-kind", "error", (), None, """
Every davinci YAML file says what it is with a top-level `kind:` (`pack`, `game`, `variant`,
`deck` or `deck-overlay`), and a pack lists it in the matching section of its manifest
(`games`, `variants` or `decks`),
once.

Why: the kind selects the schema and the rules that check the file; a file listed in the wrong
section would be loaded as the wrong thing, and a file listed twice would be loaded twice.

Failing:

```yaml
# content/riddles.yaml, listed under `games:` in pack.yaml
id: riddles
cards: []
```

Passing:

```yaml
# content/riddles.yaml, listed under `decks:` in pack.yaml
kind: deck
id: riddles
```
""".strip(), "reference"))

register(Rule("DV022", "missing-file", "error", ("pack",), None, """
Every file a pack manifest lists must exist (and be a file); the problem points at the
manifest line that lists it.

Why: a missing deck or game would only be noticed when a player tried to use it.

Failing:

```yaml
# pack.yaml, in a folder without content/extra.yaml
decks:
  - content/extra.yaml
```

Passing: create `content/extra.yaml`, or remove the line.
""".strip(), "reference"))

register(Rule("DV999", "internal-error", "error", (), None, """
A lint rule crashed on this file. This is a bug in davinci (or in a plug-in rule), not in your
content; the message names the rule and the Python error so it can be reported.

Why: one faulty rule must never hide the problems every other rule finds, so lint reports the
crash as a problem and carries on.

Failing: any file that makes a rule raise an unexpected exception.

Passing: every file, once the rule is fixed.
""".strip(), "internal"))


def _did_you_mean(name: str, choices: list[str]) -> str:
    close = difflib.get_close_matches(name, choices, n=1, cutoff=0.6)
    if close:
        return f" (did you mean '{close[0]}'?)"
    if choices:
        shown = ", ".join(sorted(choices)[:8])
        return f" (known: {shown}{', ...' if len(choices) > 8 else ''})"
    return " (no decks are installed)"


@rule("DV020", "unknown-reference", kinds=("deck-overlay",), layer="reference", also=("game", "variant"))
def overlay_extends_known_deck(ctx: LintContext) -> Iterator[Problem]:
    """A name that must refer to something defined elsewhere refers to nothing. One code covers
    every such reference, usually with a did-you-mean suggestion:

    - a deck overlay's `extends:` names no deck of a linted file or an installed pack;
    - a variant's `extends:` names an unknown game, or `GAME/VARIANT` a variant the game lacks;
    - in a game: a step names an unknown zone (`from:`, `to:`, `zone:`...), a zone's `contents:`
      an unknown component, a zone's `overflow_to:` an unknown zone, a component's `from_deck:`
      an unknown deck, a board track an unknown space, or `board.start` no space;

    A card id or deck id used twice has codes of its own (DV021, DV201, DV213, DV216), in lint and
    when the decks load to play.

    Lint checks overlays with this rule itself; games and variants report the code while they are
    built (see DV055).

    Why: a misspelt name would otherwise leave cards, pieces or rules silently missing, or stop a
    game only when the step that uses it runs.

    Failing:

    ```yaml
    kind: deck-overlay
    id: riddles-extra
    extends: ridles
    cards: [...]
    ```

    ```yaml
    zones:
      deck: {kind: deck, visibility: hidden, contents: [card]}
    flow:
      setup:
        - shuffle: dek
    ```

    Passing:

    ```yaml
    kind: deck-overlay
    id: riddles-extra
    extends: riddles
    cards: [...]
    ```

    ```yaml
    flow:
      setup:
        - shuffle: deck
    ```
    """
    target = ctx.data.get("extends")
    if not isinstance(target, str):
        return
    decks = ctx.project.decks()
    if target not in decks:
        yield Problem(
            ctx.at(["extends"]), "DV020",
            f"overlay extends unknown deck '{target}'{_did_you_mean(target, list(decks))}",
            "unknown-reference",
        )


_KIND_NOUNS = {"game": "game", "variant": "variant", "deck": "deck", "deck-overlay": "deck overlay"}


@rule("DV021", "duplicate-id", kinds=("game", "variant", "deck", "deck-overlay"), layer="reference")
def unique_file_ids(ctx: LintContext) -> Iterator[Problem]:
    """Two files of the same kind may not share an `id`, within a pack or across installed packs.

    The first file (installed packs first, in manifest order, then the files being linted) keeps
    the id; every later one is reported, with the position of the first.

    Why: games and decks are chosen by id on the command line and in saves; two decks called
    `riddles` would make one of them unreachable (to add cards to a deck, use a `deck-overlay`).

    Failing (two files in one pack):

    ```yaml
    # content/riddles.yaml
    kind: deck
    id: riddles
    # content/more-riddles.yaml
    kind: deck
    id: riddles
    ```

    Passing:

    ```yaml
    # content/more-riddles.yaml
    kind: deck-overlay
    id: more-riddles
    extends: riddles
    ```
    """
    ident = ctx.data.get("id")
    if not isinstance(ident, str):
        return
    entries = ctx.project.by_id(ctx.kind).get(ident, [])
    if len(entries) < 2 or entries[0].doc is ctx.doc:
        return
    first = entries[0].doc.loc(["id"])
    yield Problem(
        ctx.at(["id"]), "DV021",
        f"{_KIND_NOUNS.get(ctx.kind, ctx.kind)} id '{ident}' is already defined at {first}",
        "duplicate-id",
    )


# Files looked at for DV033 at most, per folder: a pack folder is small; a huge one is not read whole.
_MAX_FOLDER_ENTRIES = 1000


@rule("DV033", "unlisted-file", severity="warning", kinds=("pack",))
def unlisted_file(ctx: LintContext) -> Iterator[Problem]:
    """A davinci file (a YAML file whose top says `kind: game`, `variant`, `deck` or
    `deck-overlay`) beside `pack.yaml`, or beside a file it lists, that `pack.yaml` does not list:
    nothing reads it, so what is written there never takes effect (lint, `list` and play skip it).
    Other YAML files (`mkdocs.yml`) are not the pack's business.

    Failing: a folder holding `pack.yaml` (with `decks: [riddles.yaml]`) and `more-riddles.yaml`.

    Passing:

    ```yaml
    decks: [riddles.yaml, more-riddles.yaml]
    ```
    """
    pack = ctx.pack
    if pack is None:
        return
    root = Path(os.path.realpath(pack.root))  # (Path.resolve raises on a link loop; realpath does not)
    listed = {Path(os.path.realpath(pack.root / p)) for _, _, p in pack.files()}
    folders = sorted({root, *(p.parent for p in listed if p.is_file())})  # (a listed folder is DV022's)
    for folder in folders:
        for path, kind in davinci_files(folder, _MAX_FOLDER_ENTRIES):
            real = Path(os.path.realpath(path))
            if kind == "pack" or real in listed:
                continue
            if not real.is_relative_to(root):  # a link out of the pack: listing it would be refused (DV030)
                continue
            section = {"game": "games", "variant": "variants"}.get(kind, "decks")
            rel = path.relative_to(root) if path.is_relative_to(root) else path
            # At the unlisted file itself: a review or CI annotation shows it on the file that was added.
            yield Problem(SourceLocation(display_path(path), 1, 1), "DV033",
                          f"{rel.as_posix()} is beside the pack's files but pack.yaml does not "
                          f"list it, so it is never read: add it under {section}: (its kind is {kind})",
                          "unlisted-file", "warning")
