"""What a lint rule sees: one file (`LintContext`) and, through `Project`, every other file.

The runner loads every linted file first and registers it with the `Project`; only then does
it run the semantic rules, so a rule can look up any deck or game by id no matter in which
order files were listed. Installed packs (built-in, entry points, `--pack`) are indexed
lazily, the first time a rule asks, through the same per-command document cache.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from davinci.engine.errors import DavinciError, SourceLocation
from davinci.engine.packs import Pack, read_doc
from davinci.engine.yamlload import Doc

# Which manifest section lists which kinds of file.
SECTION_KINDS: dict[str, tuple[str, ...]] = {
    "games": ("game",),
    "variants": ("variant",),
    "decks": ("deck", "deck-overlay"),
}


@dataclass(frozen=True)
class Entry:
    """One YAML file known to the project: its document, kind and the pack listing it (if any)."""

    doc: Doc
    kind: str
    pack: Pack | None


class Project:
    """Cross-file view for rules: installed packs first, then the files being linted."""

    def __init__(self, installed: Callable[[], Sequence[Pack]] | Sequence[Pack] = ()) -> None:
        self._installed = installed
        self._linted: list[Entry] = []
        self._entries: list[Entry] | None = None
        self._by_kind: dict[str, dict[str, list[Entry]]] = {}
        self.failed_schema: set[int] = set()  # id() of the linted documents that failed their schema
        self.stopped_early: set[str] = set()  # paths of files whose later checks wait for their errors to go

    def add(self, doc: Doc, kind: str, pack: Pack | None, valid: bool = True) -> None:
        """Register a linted file (called by the runner before any semantic rule runs)."""
        self._linted.append(Entry(doc, kind, pack))
        if not valid:
            self.failed_schema.add(id(doc))
            self.stopped_early.add(doc.path)
        self._entries = None
        self._by_kind = {}

    def _installed_packs(self) -> Sequence[Pack]:
        if callable(self._installed):
            try:
                self._installed = tuple(self._installed())
            except DavinciError:
                # Broken installed packs are reported when they themselves are linted; here they
                # only provide context, so a failure leaves the context smaller, not the lint dead.
                self._installed = ()
        return self._installed

    def entries(self) -> list[Entry]:
        """Every known file, installed packs first (manifest order), each document once."""
        if self._entries is not None:
            return self._entries
        seen: set[int] = set()
        result: list[Entry] = []
        for pack in self._installed_packs():
            for section, _, rel in pack.files():
                try:
                    doc = read_doc(pack, rel)
                except DavinciError:
                    continue
                kind = doc.kind
                if kind is None or kind not in SECTION_KINDS[section] or id(doc) in seen:
                    continue
                seen.add(id(doc))
                result.append(Entry(doc, kind, pack))
        for entry in self._linted:
            if id(entry.doc) not in seen:
                seen.add(id(entry.doc))
                result.append(entry)
        self._entries = result
        return result

    def by_id(self, kind: str) -> dict[str, list[Entry]]:
        """Files of `kind` grouped by their top-level `id`, in project order."""
        index = self._by_kind.get(kind)
        if index is None:
            index = {}
            for entry in self.entries():
                if entry.kind != kind or not isinstance(entry.doc.data, dict):
                    continue
                ident = entry.doc.data.get("id")
                if isinstance(ident, str):
                    index.setdefault(ident, []).append(entry)
            self._by_kind[kind] = index
        return index

    def first_by_id(self, kind: str) -> dict[str, Doc]:
        """The first document of `kind` for each id."""
        return {ident: entries[0].doc for ident, entries in self.by_id(kind).items()}

    def decks(self) -> dict[str, Doc]:
        """Base decks (`kind: deck`) by id, across linted files and installed packs."""
        return self.first_by_id("deck")

    def overlays(self) -> list[Doc]:
        """Every deck overlay document, in project order."""
        return [e.doc for e in self.entries() if e.kind == "deck-overlay"]

    def games(self) -> dict[str, Doc]:
        """Game definitions (`kind: game`) by id."""
        return self.first_by_id("game")

    def variants(self) -> dict[str, Doc]:
        """Variant files (`kind: variant`) by id."""
        return self.first_by_id("variant")


@dataclass
class LintContext:
    """One file under lint: its document, kind, pack (None for a lone file) and the project."""

    doc: Doc
    kind: str
    pack: Pack | None
    project: Project
    cache: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)  # shared by this file's rules

    @property
    def data(self) -> Any:
        """The document's data (a dict once the schema layer has passed)."""
        return self.doc.data

    def at(self, path: Sequence[str | int] = (), key: bool = False) -> SourceLocation:
        """Source position of the value (or key) at JSON path `path` in this file."""
        return self.doc.loc(path, key)
