"""The public entry point: find a game in the installed packs, merge a variant, build it.

    game = load_game("my-card-game", variant="advanced", settings={"hand_size": 3})
    state = game.new_state(2, seed=7)
    while not state.is_terminal():
        seat = state.current_seats[0]
        state.apply(seat, state.legal_actions(seat)[0])
"""

from __future__ import annotations

import copy
import hashlib
import importlib
import json
import os
import re
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from davinci.engine.actions import Action, parse_action
from davinci.engine.build import GameDef, build_game
from davinci.engine.definition import Locator, plain_settings, seat_range
from davinci.engine.errors import (
    DavinciError,
    DefinitionError,
    RefError,
    SaveError,
    SourceLocation,
    UsageError,
    did_you_mean,
    quoted,
    seat_names_problem,
)
from davinci.engine.rng import MAX_SEED
from davinci.engine.state import State

MAX_EXTENDS = 16


@dataclass(frozen=True)
class GameSource:
    """Where a game and its variants come from."""

    id: str
    doc: Any
    variants: Mapping[str, Any]  # variant id -> Doc
    pack_ids: tuple[str, ...]


class Game:
    """A built game (definition + variant + settings): makes states, parses actions."""

    def __init__(self, definition: GameDef) -> None:
        self.definition = definition

    @property
    def id(self) -> str:
        return self.definition.id

    @property
    def name(self) -> str:
        return self.definition.name

    @property
    def variant(self) -> str | None:
        return self.definition.variant

    @property
    def settings(self) -> dict[str, Any]:
        """The settings in effect, as JSON would read them back (a list setting as a new list, a
        mapping a copy): the caller's own, so that changing it changes no game."""
        return plain_settings(self.definition.settings)

    def seat_names(self, players: int | Sequence[str]) -> list[str]:
        d = self.definition
        if isinstance(players, bool) or not isinstance(players, (int, list, tuple)):
            raise UsageError(f"players must be a number of seats or a list of seat names, got {type(players).__name__}")
        count = players if isinstance(players, int) else len(players)
        if not d.min_players <= count <= d.max_players:  # checked first: 10**100 seats would fill the memory
            raise UsageError(
                f"{d.name} takes {seat_range(d.min_players, d.max_players, d.seat_label.lower())}, got {count}"
            )
        if isinstance(players, int):
            names = [f"{d.seat_label} {i + 1}" for i in range(players)]
        else:
            if not all(isinstance(p, str) for p in players):
                raise UsageError("seat names must be text")
            names = list(players)
            problem = seat_names_problem(names)
            if problem is not None:
                raise UsageError(problem)
        return names

    def new_state(self, players: int | Sequence[str], seed: int = 0) -> State:
        """A fresh game for a number of seats (or a list of seat names), with a seed."""
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise UsageError(f"the seed must be a whole number, got {type(seed).__name__}")
        if not 0 <= seed <= MAX_SEED:
            shown = seed if seed.bit_length() <= 128 else f"a number of {seed.bit_length()} bits"
            raise UsageError(f"the seed must be from 0 to 2**64 - 1, got {shown}")
        return State.new(self.definition, self.seat_names(players), seed)

    def parse_action(self, text: str) -> Action:
        """An action from its text form (`guess row.2.1 7`)."""
        return parse_action(text, self.definition.rest_verbs)

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        """Rebuild a state saved with `State.to_json()` (refuses another game or content version)."""
        from davinci.engine.serial import state_from_json

        return state_from_json(self, data)

    @property
    def content_hash(self) -> str:
        return self.definition.content_hash


# ---------------------------------------------------------------------- discovery


def _packs(extra: Sequence[str]) -> list[Any]:
    from davinci.engine.packs import all_packs

    return all_packs(extra)


_ID = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")  # the schemas' id pattern (common.schema.json)


def game_sources(packs: Sequence[str] = ()) -> dict[str, GameSource]:
    """Every installed game with its variants, by id."""
    from davinci.engine.packs import read_doc

    games: dict[str, Any] = {}
    owners: dict[str, list[str]] = {}
    variant_docs: list[Any] = []
    for pack in _packs(packs):
        for rel in pack.games:
            doc = read_doc(pack, rel)
            gid = str(doc.data.get("id")) if isinstance(doc.data, dict) else ""
            if not _ID.fullmatch(gid):
                continue  # not a usable id (lint says DV015): never offered by name, nor as a suggestion
            if gid in games:
                # Never a silent choice between two games of one name (lint reports it the same way).
                raise DavinciError(
                    f"game id '{gid}' is already defined at {games[gid].loc(['id'])}: give this game another id",
                    doc.loc(["id"]),
                    code="DV021",
                )
            if gid:
                games[gid] = doc
                owners.setdefault(gid, []).append(pack.id)
        for rel in pack.variants:
            variant_docs.append((pack, read_doc(pack, rel)))
    variants: dict[str, dict[str, Any]] = {g: {} for g in games}
    for pack, doc in variant_docs:
        data = doc.data if isinstance(doc.data, dict) else {}
        base = str(data.get("extends", "")).split("/")[0]
        if base in variants:
            vid = str(data.get("id"))
            if vid in variants[base]:
                # As for games: never a silent choice between two variants of one name.
                raise DavinciError(
                    f"variant id '{vid}' of '{base}' is already defined at {variants[base][vid].loc(['id'])}: give this "
                    "variant another id",
                    doc.loc(["id"]),
                    code="DV021",
                )
            variants[base][vid] = doc
            owners[base].append(pack.id)
    return {g: GameSource(g, games[g], variants[g], tuple(owners[g])) for g in games}


def game_variants(packs: Sequence[str] = ()) -> list[tuple[str, str | None]]:
    """Every installed game and each of its variants as (game id, variant id or None), the game
    itself first, in id order: what conformance tests, fuzzing and long runs iterate over."""
    out: list[tuple[str, str | None]] = []
    for gid, src in sorted(game_sources(packs).items()):
        out.append((gid, None))
        out.extend((gid, v) for v in sorted(src.variants))
    return out


def merge(base: Any, over: Any) -> Any:
    """Overlay merge: mappings merge key by key, everything else is replaced."""
    if isinstance(base, dict) and isinstance(over, dict):
        out = dict(base)
        for k, v in over.items():
            out[k] = merge(base[k], v) if k in base else copy.deepcopy(v)
        return out
    return copy.deepcopy(over)


def resolve_variant(src: GameSource, variant: str) -> tuple[dict[str, Any], list[Any]]:
    """The merged data of a variant (following `extends` chains) and its docs, nearest first."""
    chain: list[Any] = []
    names: list[str] = []
    cur = variant
    while True:
        if cur in names:
            cycle = " -> ".join([*names[names.index(cur):], cur])
            raise DefinitionError(f"variant '{cur}' extends itself in a cycle ({cycle})",
                                  chain[-1].loc(["extends"]), code="DV054")
        if len(chain) > MAX_EXTENDS:
            raise DefinitionError(f"variant '{variant}' extends a chain of more than {MAX_EXTENDS} variants",
                                  chain[-1].loc(["extends"]), code="DV054")
        doc = src.variants.get(cur)
        if doc is None:
            hint = did_you_mean(cur, src.variants)
            if chain:  # named by an `extends:` line, not by the user
                raise RefError(f"variant '{names[-1]}' extends '{src.id}/{cur}', which does not exist{hint}",
                               chain[-1].loc(["extends"]))
            known = ", ".join(sorted(src.variants)) or "none"
            folder = str(Path(src.doc.path).parent) if getattr(src.doc, "path", None) else ""
            found = unlisted_file(folder, "variant", cur) if folder else None
            unlisted = f" ({found} defines it, but {folder}/pack.yaml does not list it under variants:)" if found else ""
            pack = "" if hint or unlisted else "; a variant from a content pack needs --pack DIR"
            raise UsageError(f"game '{src.id}' has no variant '{quoted(cur)}'{hint}; variants: {known}{unlisted}{pack}")
        names.append(cur)
        chain.append(doc)
        ext = str(doc.data.get("extends", ""))
        if "/" in ext:
            cur = ext.split("/", 1)[1]
            continue
        break
    data: dict[str, Any] = dict(src.doc.data)
    for doc in reversed(chain):
        over = {k: v for k, v in doc.data.items() if k not in ("kind", "id", "extends", "name", "description")}
        _check_settings(src.id, doc, data.get("settings") or {}, over.get("settings"))
        data = merge(data, over)
    data["kind"] = "game"
    # A variant's sections need not repeat what they keep (`end: {when: ...}`), so the merged
    # game is checked as a whole: a zone the variant adds still needs its `kind`.
    from davinci.engine.schema import validate

    problems = validate(MergedDoc(data, Locator([*chain, src.doc])), "game")
    if problems:
        raise problems[0]
    return data, chain


def _check_settings(game_id: str, doc: Any, known: Mapping[str, Any], changes: Any) -> None:
    """A variant changes settings its game has; a new one declares its `type` (so a misspelt name
    is not quietly a new setting nobody reads)."""
    if not isinstance(changes, dict) or not isinstance(known, dict):
        return
    for name, spec in changes.items():
        if name not in known and not (isinstance(spec, dict) and "type" in spec):
            hint = did_you_mean(name, known, aside=False)
            raise DefinitionError(
                f"'{game_id}' has no setting '{name}'{hint} (a variant's new setting declares its type)",
                doc.loc(["settings", name], key=True),
                code="DV056",
            )


# The games built so far, the most recently used last; at most CACHED_GAMES are kept.
_CACHE: OrderedDict[Any, Game] = OrderedDict()
CACHED_GAMES = 64


def load_game(
    game_id: str,
    variant: str | None = None,
    settings: Mapping[str, Any] | None = None,
    packs: Sequence[str] = (),
) -> Game:
    """Build a game from the installed packs (plus `packs` paths), with a variant and settings."""
    if not isinstance(game_id, str):
        raise UsageError(f"a game is named by its id, a text such as 'my-game', got {type(game_id).__name__}")
    if variant is not None and not isinstance(variant, str):
        raise UsageError(f"variant must be a variant's id (text) or None for the base game, got {type(variant).__name__}")
    packs = _pack_list(packs)
    if variant is not None and not str(variant).strip():  # `--variant ''` played the base game
        raise UsageError("the variant name is empty: name a variant, or give none for the base game")
    if settings is not None and not isinstance(settings, Mapping):
        raise UsageError(f"settings must be a mapping of setting names to values (a dict), got "
                         f"{type(settings).__name__}")
    key = (game_id, variant, json.dumps(dict(settings or {}), sort_keys=True, default=str), _packs_stamp(packs))
    hit = _CACHE.get(key)
    if hit is not None:
        _CACHE.move_to_end(key)
        return hit
    sources = game_sources(packs)
    src = sources.get(game_id)
    if src is None:
        hint = did_you_mean(game_id, sources)
        pack = "" if packs else " (a game of a content pack is loaded with --pack FOLDER, or packs=[FOLDER] in Python)"
        for folder in packs:
            found = unlisted_file(folder, "game", game_id)
            if found:
                pack = f" ({found} defines it, but {folder}/pack.yaml does not list it under games:)"
        raise UsageError(f"unknown game '{quoted(game_id)}'{hint}; installed: {', '.join(sorted(sources)) or 'none'}{pack}")
    game = Game(build_from_source(src, variant, settings or {}, packs))
    _CACHE[key] = game
    while len(_CACHE) > CACHED_GAMES:
        _CACHE.popitem(last=False)
    return game


def clear_cache() -> None:
    """Forget every game `load_game` has built (the next call builds it again)."""
    _CACHE.clear()


def _packs_stamp(packs: Sequence[str]) -> tuple[Any, ...]:
    """What identifies the files of the pack folders given: each folder's real path, and the
    path, modification time and size of each YAML file in it (the first STAMPED_FILES met). An
    edited file, or the same folder named another way (`pk`, `./pk`), is told apart without
    reading any file. The installed packs are not stamped: they do not change while a program runs."""
    stamp: list[Any] = []
    for folder in packs:
        root = os.path.realpath(folder)
        stamp.append(root)
        seen = 0
        for here, dirs, files in os.walk(root):
            dirs.sort()
            for name in sorted(files):
                if not name.endswith((".yaml", ".yml")):
                    continue
                path = os.path.join(here, name)
                try:
                    st = os.stat(path)
                    stamp.append((path, st.st_mtime_ns, st.st_size))
                except OSError:
                    stamp.append((path, None))
                seen += 1
            if seen >= STAMPED_FILES:
                break
    return tuple(stamp)


STAMPED_FILES = 2000


def loaded_definition(game_id: str, variant: str | None) -> GameDef:
    """The definition of a game already loaded in this process (the latest with this id and
    variant, whatever its packs and settings), else the installed one: for code that gets only a
    view (a bot, a screen) and needs what views leave out, such as a board's geometry."""
    for key in reversed(list(_CACHE)):
        if key[0] == game_id and key[1] == variant:
            return _CACHE[key].definition
    return load_game(game_id, variant).definition


def deck_cards(packs: Sequence[str], replacing: bool = False) -> dict[str, list[dict[str, Any]]]:
    """Every installed deck's cards as plain records for components (`from_deck`); `replacing`
    as for `packs.all_packs`."""
    from davinci.engine.decks import load_decks
    from davinci.engine.packs import all_packs

    out: dict[str, list[dict[str, Any]]] = {}
    for did, deck in load_decks(all_packs(packs, replacing)).items():
        cards = []
        for c in deck.cards:
            cards.append(
                {
                    "id": c.id,
                    "deck": did,
                    "category": deck.category,
                    "difficulty": c.difficulty,
                    "answer": str(c.answer),
                    "alternates": [str(a) for a in c.alternates],
                    "clue": c.clue or "",
                    "letters": c.letters or 0,
                    "anagram": c.anagram or "",
                    "hint": c.hint or "",
                    "lengths": c.lengths or "",
                }
            )
        out[did] = cards
    return out


@dataclass
class MergedDoc:
    """A variant merged onto its game, as `schema.validate` reads a document: each position is
    the nearest file's that holds the path (the variant's, else the game's)."""

    data: Any
    locator: Locator

    def loc(self, path: Sequence[str | int], key: bool = False) -> SourceLocation:
        return self.locator.loc(tuple(path), key=key)


_DOCUMENTED = ("settings", "zones", "components")  # where `doc` is the schema's (a variable's value is data)


# A file's top-level keys the rules never read: its display name, its description and the hints
# for screens (`display`).
_PRESENTATION = frozenset({"name", "description", "display"})


def _rules_of(data: Any) -> Any:
    """A game or variant file's data as its content hash covers it: what the rules read, without
    comments (gone once parsed), the name, `description` and `display` hints, and the `doc` texts
    of settings, zones and components, so that rewording them keeps saves and logs usable."""
    if not isinstance(data, dict):
        return data
    out = {k: v for k, v in data.items() if k not in _PRESENTATION}
    for section in _DOCUMENTED:
        entries = out.get(section)
        if isinstance(entries, dict):
            out[section] = {name: {k: v for k, v in spec.items() if k != "doc"} if isinstance(spec, dict) else spec
                            for name, spec in entries.items()}
    return out


def build_from_source(
    src: GameSource, variant: str | None, settings: Mapping[str, Any], packs: Sequence[str] = ()
) -> GameDef:
    """Validate and build one game (and variant) from its documents."""
    from davinci.engine.schema import validate

    errors = validate(src.doc, "game")
    if errors:
        raise errors[0]
    docs = [src.doc]
    data: dict[str, Any] = src.doc.data
    if variant:
        data, chain = resolve_variant(src, variant)
        for doc in chain:
            verrs = validate(doc, "variant")
            if verrs:
                raise verrs[0]
        docs = [*chain, src.doc]
    needs_decks = any(isinstance(c, dict) and c.get("from_deck") for c in (data.get("components") or {}).values())
    decks = deck_cards(packs) if needs_decks else {}
    try:
        gdef = build_game(
            data, Locator(docs), decks=decks, settings=settings, variant=variant, variants=tuple(sorted(src.variants))
        )
    except DavinciError as e:
        name = re.match(r"unknown setting '([^']+)'", e.message) if e.code == "DV081" else None
        owners = [vid for vid, vdoc in sorted(src.variants.items())
                  if name and isinstance(vdoc.data, dict) and isinstance(vdoc.data.get("settings"), dict)
                  and name.group(1) in vdoc.data["settings"]] if name else []
        if owners:  # a variant's own setting given without the variant
            e.message += f" (variant {', '.join(owners)} declares it: add --variant {owners[0]})"
        raise
    if variant:
        own = chain[0].data
        gdef.variant_name = str(own.get("name") or variant)
        about = own.get("description")  # (the YAML loader refuses control and direction characters)
        gdef.variant_description = about if isinstance(about, str) else ""
    h = hashlib.sha256()
    for doc in docs:
        h.update(json.dumps(_rules_of(doc.data), sort_keys=True, default=str).encode("utf-8"))
    for did in sorted(decks):
        h.update(json.dumps(decks[did], sort_keys=True).encode("utf-8"))
    h.update(json.dumps(gdef.settings, sort_keys=True, default=str).encode("utf-8"))
    gdef.content_hash = h.hexdigest()[:16]
    return gdef


def _variant_entry(vid: str, doc: Any) -> dict[str, Any]:
    """A variant as `davinci list` shows it: id, name, description and the settings its file
    declares or changes (`settings`: name -> what the file says of it, such as a new default), or,
    when its schema refuses it, its id and first problem (`invalid`)."""
    from davinci.engine.schema import validate

    problems = validate(doc, "variant")
    if problems:
        return {"id": vid, "invalid": str(problems[0]).split("\n")[0]}
    data = doc.data if isinstance(doc.data, dict) else {}
    own: dict[str, Any] = data["settings"] if isinstance(data.get("settings"), dict) else {}
    settings = {name: {k: v for k, v in spec.items() if k != "doc"} if isinstance(spec, dict) else spec
                for name, spec in own.items()}
    return {"id": vid, "name": str(data.get("name") or vid), "description": str(data.get("description") or ""),
            "settings": settings}


def screen_module(game_id: str) -> Any:
    """A game's own terminal screen (`davinci.games.<id>.screen`), or None: `play` draws with it,
    and lint asks it to judge the game's `display` hints."""
    try:
        return importlib.import_module(f"davinci.games.{game_id.replace('-', '_')}.screen")
    except ImportError:
        return None


def catalogue(packs: Sequence[str] = ()) -> list[dict[str, Any]]:
    """A summary of every installed game for `davinci list`."""
    from davinci.engine.schema import validate

    out: list[dict[str, Any]] = []
    for gid, src in sorted(game_sources(packs).items()):
        data = src.doc.data
        # What a list shows comes from files that may be anything: a game or variant its schema
        # refuses is listed by its id with its first problem (`invalid`), nothing of its content.
        problems = validate(src.doc, "game")
        if problems:
            out.append({"id": gid, "invalid": str(problems[0]).split("\n")[0], "packs": list(dict.fromkeys(src.pack_ids))})
            continue
        settings = {
            name: {"type": spec.get("type", "int"), "default": spec.get("default"), "doc": spec.get("doc", ""),
                   **{k: spec[k] for k in ("min", "max", "choices") if spec.get(k) is not None}}
            for name, spec in (data.get("settings") or {}).items()
        }
        out.append(
            {
                "id": gid,
                "name": data.get("name", gid),
                "description": data.get("description", ""),
                "players": {"min": (data.get("players") or {}).get("min"), "max": (data.get("players") or {}).get("max")},
                "variants": sorted(src.variants),
                "variant_details": [_variant_entry(vid, src.variants[vid]) for vid in sorted(src.variants)],
                "bots": list(data.get("bots") or ["random"]),
                "settings": settings,
                "packs": list(dict.fromkeys(src.pack_ids)),  # (one entry per file: a pack once)
            }
        )
    return out


_unused = (DavinciError, SaveError)


def unlisted_file(folder: str, kind: str, ident: str) -> str | None:
    """The name of the YAML file directly in `folder` that says `kind: KIND` and `id: IDENT`, for a
    message about a game or variant its pack.yaml forgot to list."""
    from davinci.engine.files import davinci_files

    return next((f.name for f, k in davinci_files(Path(folder), 200, ident) if k == kind), None)


def _pack_list(packs: Any) -> tuple[str, ...]:
    """`packs` as a tuple of folder paths: None is none; one path given alone is refused (a text
    would be read as a list of one-letter folders)."""

    if packs is None:
        return ()
    if isinstance(packs, (str, bytes, os.PathLike)):
        raise UsageError(f"packs is a list of pack folders, got the single path {str(packs)!r}: write "
                         f"packs=[{str(packs)!r}]")
    return tuple(str(p) for p in packs)
