"""Fuzzing the whole content pipeline with mutated copies of the shipped YAML files.

Each example takes one shipped game, variant or deck, changes its data in a few random places
(keys dropped, values swapped for values of another type, expressions with a token replaced,
subtrees moved), writes it into a fresh temporary pack and runs `lint_paths` on that pack:
load, schema, semantic rules and the seeded playouts of the game-builds rule. Whatever the
mutation, lint must report problems (with a location) and never an internal error (DV999).
When the mutated game lints clean, a few more seeded games are played through `load_game`
with the engine's invariants checked after every action.

The mutation helpers here are shared with the long campaign in benchmarks/fuzz_campaign.py.
"""

from __future__ import annotations

import copy
import itertools
import random
import re
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from davinci.engine.bots import RandomBot
from davinci.engine.errors import DavinciError
from davinci.engine.game import load_game
from davinci.engine.lint.registry import Problem
from davinci.engine.lint.runner import lint_paths
from davinci.engine.packs import builtin_root

REPO = Path(__file__).resolve().parent.parent
TUTORIAL = REPO / "tests" / "packs" / "tutorial"
PREFIX = "fz-"


@dataclass(frozen=True)
class Seed:
    """One shipped file to mutate: its section in a pack manifest and its parsed data."""

    name: str
    section: str
    path: Path
    game: str | None  # the game a variant extends (that game is copied beside it)


def seeds() -> list[Seed]:
    """Every shipped game and variant, the tutorial game, and the smallest shipped deck."""
    root = builtin_root()
    manifest = yaml.safe_load((root / "pack.yaml").read_text(encoding="utf-8"))
    out: list[Seed] = []
    games: dict[str, Path] = {}
    for rel in manifest.get("games") or []:
        data = yaml.safe_load((root / rel).read_text(encoding="utf-8"))
        games[data["id"]] = root / rel
        out.append(Seed(data["id"], "games", root / rel, None))
    for rel in manifest.get("variants") or []:
        data = yaml.safe_load((root / rel).read_text(encoding="utf-8"))
        base = str(data["extends"]).split("/")[0]
        out.append(Seed(f"{base}/{data['id']}", "variants", root / rel, base))
    decks = sorted((root / rel for rel in manifest.get("decks") or []), key=lambda p: p.stat().st_size)
    if decks:
        out.append(Seed(decks[0].stem, "decks", decks[0], None))
    out.append(Seed("pig", "games", TUTORIAL / "pig.yaml", None))
    out.append(Seed("pig/short", "variants", TUTORIAL / "pig-short.yaml", "pig"))
    return out


# ------------------------------------------------------------------------------- mutations

SCALARS: list[Any] = [
    0, 1, -1, 2, 7, 100, 10**6, 2**63, 2**70, -(2**40), 1.5, float("inf"), True, False, None, "", "x",
    "true", "0", "-1", "seats", "current", "none", "1 +", "((", "count(", "__class__", "a.b.c",
    "{", "row.1.1", "GAME/OTHER", "../escape", [], {}, [1, 2], ["x"], {"x": 1},
]
EXPR_TOKENS = [
    "+", "-", "*", "//", "%", "**", "==", "!=", "<", ">=", "and", "or", "not", "in", "where", "select",
    "if", "else", "(", ")", "[", "]", ",", ".", "0", "1", "-1", "99999999999", "true", "false", "none",
    '"x"', "count", "sum", "max", "min", "range", "len", "seats", "current", "turn", "settings",
]
_TOKEN_RE = re.compile(r'"[^"]*"|\w+|\*\*|//|[=!<>]=|\S')


def _nodes(data: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """Every (path, value) in a data tree, the root included."""
    stack = [(path, data)]
    while stack:
        p, node = stack.pop()
        yield p, node
        if isinstance(node, dict):
            stack.extend(((*p, k), v) for k, v in node.items())
        elif isinstance(node, list):
            stack.extend(((*p, i), v) for i, v in enumerate(node))


def _get(data: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        data = data[part]
    return data


def _set(data: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    _get(data, path[:-1])[path[-1]] = value
    return data


def _looks_like_expr(s: str) -> bool:
    return any(c in s for c in " ()<>=+-*.") and len(s) < 400


def mutate_expr(text: str, rnd: random.Random, identifiers: list[str]) -> str:
    """Change one token of a rule expression: replace, delete, duplicate or insert one."""
    tokens = _TOKEN_RE.findall(text) or [text]
    i = rnd.randrange(len(tokens))
    op = rnd.randrange(4)
    pool = EXPR_TOKENS + identifiers
    if op == 0:
        tokens[i] = rnd.choice(pool)
    elif op == 1:
        del tokens[i]
    elif op == 2:
        tokens.insert(i, tokens[i])
    else:
        tokens.insert(i, rnd.choice(pool))
    return " ".join(tokens)


def mutate(data: Any, rnd: random.Random, rounds: int) -> Any:
    """Apply `rounds` random structural mutations to a copy of `data`."""
    data = copy.deepcopy(data)
    for _ in range(rounds):
        nodes = list(_nodes(data))
        scalars = [v for _, v in nodes if not isinstance(v, (dict, list))]
        identifiers = sorted({w for v in scalars if isinstance(v, str) for w in re.findall(r"[a-z_]+", v)})[:200]
        path, node = rnd.choice(nodes)
        op = rnd.randrange(8)
        if op == 0 and path:  # drop a key or a list item
            parent = _get(data, path[:-1])
            del parent[path[-1]]
        elif op == 1 and isinstance(node, str) and _looks_like_expr(node):
            data = _set(data, path, mutate_expr(node, rnd, identifiers))
        elif op == 2:  # a value of another type, or another value of the same file
            value = rnd.choice(SCALARS) if rnd.random() < 0.6 or not scalars else rnd.choice(scalars)
            data = _set(data, path, copy.deepcopy(value))
        elif op == 3 and path:  # copy another subtree here
            _, other = rnd.choice(nodes)
            if other is not data:
                data = _set(data, path, copy.deepcopy(other))
        elif op == 4 and isinstance(node, list) and node:  # duplicate or reorder list items
            j = rnd.randrange(len(node))
            if rnd.random() < 0.5:
                node.insert(rnd.randrange(len(node) + 1), copy.deepcopy(node[j]))
            else:
                rnd.shuffle(node)
        elif op == 5 and isinstance(node, dict):  # a new key, sometimes a known one in the wrong place
            key = rnd.choice(["extends", "when", "do", "if", "kind", "id", "zones", "x", "$ref", "from_deck"])
            node[key] = copy.deepcopy(rnd.choice(SCALARS + scalars[:50]))
        elif op == 6 and isinstance(node, int) and not isinstance(node, bool):
            data = _set(data, path, rnd.choice([node + 1, node - 1, -node, node * 1000, 0]))
        elif op == 7 and isinstance(node, str):
            data = _set(data, path, rnd.choice([node * 2, node[: len(node) // 2], node.upper(), node + "\n", ""]))
    return data


# ------------------------------------------------------------------------------- one example

_DUMPER = yaml.SafeDumper


def _dump(data: Any) -> str:
    return yaml.dump(data, Dumper=_DUMPER, sort_keys=False, allow_unicode=True, width=4096)


def _renamed(data: Any, seed: Seed) -> Any:
    """Give a copied file its own id (and its variant its own base) so it does not clash with the original."""
    if not isinstance(data, dict):
        return data
    data = dict(data)
    if seed.section == "games" and isinstance(data.get("id"), str):
        data["id"] = PREFIX + data["id"]
        if isinstance(data.get("bots"), list):
            data["bots"] = ["random"]  # the game's own bots play the original, not this renamed copy
    if seed.section == "variants":
        if isinstance(data.get("id"), str):
            data["id"] = PREFIX + data["id"]
        if isinstance(data.get("extends"), str):
            data["extends"] = PREFIX + data["extends"]
    if seed.section == "decks" and isinstance(data.get("id"), str):
        data["id"] = PREFIX + data["id"]
        if isinstance(data.get("cards"), list):  # card ids are unique across decks too (DV216)
            data["cards"] = [{**c, "id": PREFIX + c["id"]} if isinstance(c, dict) and isinstance(c.get("id"), str) else c
                             for c in data["cards"]]
    return data


_counter = itertools.count()


def write_pack(seed: Seed, text: str | bytes, parent: Path) -> Path:
    """A fresh pack folder holding the mutated file (and, for a variant, its renamed base game)."""
    folder = parent / f"p{next(_counter)}"
    folder.mkdir()
    name = "mutated.yaml"
    if isinstance(text, bytes):
        (folder / name).write_bytes(text)
    else:
        (folder / name).write_text(text, encoding="utf-8")
    lines = ["kind: pack", f"id: fz-pack-{folder.name}", "name: Fuzz", "version: '1.0'", f"{seed.section}:", f"  - {name}"]
    if seed.game is not None:
        base = next(s for s in seeds() if s.name == seed.game)
        base_data = _renamed(yaml.safe_load(base.path.read_text(encoding="utf-8")), base)
        (folder / "base.yaml").write_text(_dump(base_data), encoding="utf-8")
        lines += ["games:", "  - base.yaml"]
    (folder / "pack.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


def lint_mutated(seed: Seed, text: str | bytes, parent: Path) -> tuple[Path, list[Problem]]:
    """Lint a pack holding one mutated file; return the folder and the problems found."""
    # A fresh folder per example keeps the document cache (keyed by path) from ever matching,
    # while the installed packs stay cached.
    folder = write_pack(seed, text, parent)
    return folder, lint_paths([str(folder)])


def internal_errors(problems: list[Problem]) -> list[Problem]:
    """Problems that reveal a davinci bug rather than a content mistake."""
    return [p for p in problems if p.code == "DV999" or p.location is None or not p.code.startswith("DV")]


def play_checked(game_id: str, variant: str | None, folder: Path, games: int, max_actions: int) -> int:
    """Play seeded random games of a clean mutated game with invariants after every action."""
    from test_conformance import check_invariants

    game = load_game(game_id, variant, {}, [str(folder)])
    d = game.definition
    actions = 0
    for seed in range(games):
        n = d.min_players + seed % (d.max_players - d.min_players + 1)
        st = game.new_state(n, seed=seed)
        bot = RandomBot(seed)
        for _ in range(max_actions):
            if st.is_terminal():
                break
            check_invariants(st)
            seat = st.current_seats[0]
            st.apply(seat, bot.choose({}, st.legal_actions(seat)))
            actions += 1
    return actions


def run_example(seed: Seed, rnd: random.Random, rounds: int, parent: Path, play: bool = True) -> str:
    """One fuzz example end to end; returns 'clean', 'problems' or raises on a davinci bug."""
    original = yaml.safe_load(seed.path.read_text(encoding="utf-8"))
    data = mutate(_renamed(original, seed), rnd, rounds)
    folder, problems = lint_mutated(seed, _dump(data), parent)
    bad = internal_errors(problems)
    assert not bad, "\n".join(str(p) for p in bad)
    if problems:
        shutil.rmtree(folder, ignore_errors=True)
        return "problems"
    if play and seed.section != "decks" and isinstance(data, dict):
        if seed.section == "games":
            game_id, variant = str(data.get("id")), None
        else:
            game_id, variant = str(data.get("extends")).split("/")[0], str(data.get("id"))
        try:
            play_checked(game_id, variant, folder, games=2, max_actions=300)
        except DavinciError as e:
            # Lint plays only a couple of games; another seed may still hit a content mistake,
            # which must be reported with a location like any other.
            assert e.location is not None or e.code in ("DV043", "DV080"), str(e)
    shutil.rmtree(folder, ignore_errors=True)
    return "clean"


# ------------------------------------------------------------------------------- tests

SEEDS = {s.name: s for s in seeds()}
_tmp = Path(tempfile.mkdtemp(prefix="davinci-fuzz-"))


# The cheap seeds (small games, decks, variants of small games) get most of the CI budget.
FAST = [n for n in sorted(SEEDS) if n.startswith(("pig", "da-vinci-code"))] + [
    n for n in sorted(SEEDS) if SEEDS[n].section == "decks"
]


@pytest.mark.parametrize("name", FAST)
def test_unmutated_copies_lint_clean(name: str) -> None:
    seed = SEEDS[name]
    original = _renamed(yaml.safe_load(seed.path.read_text(encoding="utf-8")), seed)
    folder, problems = lint_mutated(seed, _dump(original), _tmp)
    assert [p for p in problems if p.severity == "error"] == []
    shutil.rmtree(folder, ignore_errors=True)


@settings(max_examples=15, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(name=st.sampled_from(FAST), seed=st.integers(0, 2**32 - 1), rounds=st.integers(1, 3))
def test_mutated_shipped_yaml_gives_only_located_problems(name: str, seed: int, rounds: int) -> None:
    run_example(SEEDS[name], random.Random(seed), rounds, _tmp)


@settings(max_examples=3, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(name=st.sampled_from(sorted(set(SEEDS) - set(FAST))), seed=st.integers(0, 2**32 - 1))
def test_mutated_big_games_give_only_located_problems(name: str, seed: int) -> None:
    run_example(SEEDS[name], random.Random(seed), 1, _tmp, play=False)


@settings(max_examples=15, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(name=st.sampled_from(FAST), data=st.data())
def test_byte_level_damage_gives_only_located_problems(name: str, data: st.DataObject) -> None:
    seed = SEEDS[name]
    raw = bytearray(_dump(_renamed(yaml.safe_load(seed.path.read_text(encoding="utf-8")), seed)).encode())
    for _ in range(data.draw(st.integers(1, 4))):
        pos = data.draw(st.integers(0, len(raw) - 1))
        op = data.draw(st.sampled_from(["cut", "byte", "dup"]))
        if op == "cut":
            del raw[pos : pos + data.draw(st.integers(1, 40))]
        elif op == "byte":
            raw[pos] = data.draw(st.integers(0, 255))
        else:
            raw[pos:pos] = raw[pos : pos + data.draw(st.integers(1, 40))]
    folder, problems = lint_mutated(seed, bytes(raw), _tmp)
    assert not internal_errors(problems), "\n".join(str(p) for p in problems)
    shutil.rmtree(folder, ignore_errors=True)
