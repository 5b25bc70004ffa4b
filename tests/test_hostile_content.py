"""Hostile content packs: every attack is refused quickly, with little memory, at file:line:col.

A content pack is data written by strangers. Each test below puts one hostile file into a copy
of a small, well-behaved pack (tests/corpus/hostile/: the game `coin`) and checks three things:

- `lint_paths` reports exactly the expected problems (code, file, line, column), and no
  internal error;
- `load_game` (what `davinci play --pack` does) raises a DavinciError with the expected code and
  location, or loads the game when the file is only suspicious-looking data;
- both together cost less than 2 s of CPU time and 200 MB of memory above what the test process
  already used.

Memory is the growth of the peak resident set (VmHWM, reset through /proc/self/clear_refs), so it
counts the C YAML parser's allocations too; where /proc is unavailable tracemalloc stands in.
"""

from __future__ import annotations

import os
import shutil
import socket
import time
import tracemalloc
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from helpers import STOP_AT_ONCE, write_game_pack

from davinci.engine.errors import DavinciError, EvalError
from davinci.engine.game import load_game
from davinci.engine.lint.runner import lint_paths

CORPUS = Path(__file__).parent / "corpus" / "hostile"
BASE_GAME = (CORPUS / "game.yaml").read_text(encoding="utf-8")
BASE_MANIFEST = (CORPUS / "pack.yaml").read_text(encoding="utf-8")
SECONDS = 2.0
MEGABYTES = 200

# ------------------------------------------------------------------------------- budgets


def _status_kib(field: str) -> int:
    with open("/proc/self/status", encoding="ascii") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise OSError(field)


def _reset_peak() -> bool:
    try:
        with open("/proc/self/clear_refs", "w", encoding="ascii") as f:
            f.write("5")  # resets VmHWM, the peak resident set size, to the current size
        _status_kib("VmHWM")
        return True
    except OSError:
        return False


@dataclass
class Cost:
    """What a block used: CPU seconds, wall seconds and extra peak memory in MB."""

    cpu: float = 0.0
    wall: float = 0.0
    megabytes: float = 0.0


@contextmanager
def bounded(seconds: float = SECONDS, megabytes: float = MEGABYTES) -> Iterator[Cost]:
    """Run a block and assert it stayed within the CPU time and memory budget."""
    cost = Cost()
    use_proc = _reset_peak()
    if use_proc:
        before = _status_kib("VmRSS")
    else:  # pragma: no cover - platforms without /proc
        tracemalloc.start()
    cpu, wall = time.process_time(), time.perf_counter()
    try:
        yield cost
    finally:
        cost.cpu = time.process_time() - cpu
        cost.wall = time.perf_counter() - wall
        if use_proc:
            cost.megabytes = (_status_kib("VmHWM") - before) / 1024
        else:  # pragma: no cover
            cost.megabytes = tracemalloc.get_traced_memory()[1] / 2**20
            tracemalloc.stop()
    assert cost.cpu < seconds, f"took {cost.cpu:.2f} s of CPU (budget {seconds} s)"
    assert cost.wall < 10 * seconds, f"took {cost.wall:.2f} s of wall time: a hang?"
    assert cost.megabytes < megabytes, f"used {cost.megabytes:.0f} MB (budget {megabytes} MB)"


@pytest.fixture(autouse=True)
def no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any attempt to open a network connection fails the test (nothing may be fetched)."""

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError(f"network access attempted: {args!r}")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)


@pytest.fixture(scope="module", autouse=True)
def warm() -> None:
    """Build the parser, schemas and installed packs once, so budgets measure the attack only."""
    assert lint_paths([str(CORPUS)]) == []
    load_game("coin", None, {}, [str(CORPUS)])


# ------------------------------------------------------------------------------- packs


def make_pack(tmp_path: Path, files: dict[str, str | bytes], manifest: str = BASE_MANIFEST) -> Path:
    """A copy of the corpus pack with some files replaced or added."""
    folder = tmp_path / "pack"
    folder.mkdir(parents=True)
    (folder / "pack.yaml").write_text(manifest, encoding="utf-8")
    everything: dict[str, str | bytes] = {"game.yaml": BASE_GAME, **files}
    for rel, content in everything.items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return folder


def problems_of(folder: Path) -> list[tuple[str, str, int, int]]:
    """(file relative to the pack, code, line, col) of every lint problem."""
    out = []
    for p in lint_paths([str(folder)]):
        assert p.code != "DV999", str(p)
        out.append((Path(p.location.path).name, p.code, p.location.line, p.location.col))
    return out


def load_error(folder: Path, variant: str | None = None, game: str = "coin") -> tuple[str, str, int, int] | None:
    """What `load_game` (and a first state) raises for the pack, or None when it loads."""
    try:
        load_game(game, variant, {}, [str(folder)]).new_state(2, seed=1)
    except DavinciError as e:
        assert e.location is not None, str(e)
        return (Path(e.location.path).name, e.code, e.location.line, e.location.col)
    return None


def check(folder: Path, lint: list[tuple[str, str, int, int]], load: tuple[str, str, int, int] | None,
          variant: str | None = None) -> None:
    """Lint and load the pack within budget and compare with the expected results."""
    with bounded():
        found = problems_of(folder)
        failure = load_error(folder, variant)
    assert found == lint
    assert failure == load


# ------------------------------------------------------------------------------- corpus files

# games/<name>.yaml replaces game.yaml -> (lint problems, load error)
GAME_FILES: dict[str, tuple[list[tuple[str, str, int, int]], tuple[str, str, int, int] | None]] = {
    # YAML-level attacks: refused by the loader before anything is built.
    "alias-bomb": ([("game.yaml", "DV003", 25, 5)], ("game.yaml", "DV003", 25, 5)),
    "duplicate-key": ([("game.yaml", "DV002", 7, 1)], ("game.yaml", "DV002", 7, 1)),
    "python-object": ([("game.yaml", "DV009", 5, 14)], ("game.yaml", "DV009", 5, 14)),
    "python-name": ([("game.yaml", "DV009", 9, 5)], ("game.yaml", "DV009", 9, 5)),
    # A reference to a remote schema is an unknown key, never a download.
    "remote-ref": ([("game.yaml", "DV013", 7, 10), ("game.yaml", "DV013", 7, 10), ("game.yaml", "DV011", 7, 11)],
                   ("game.yaml", "DV013", 7, 10)),
    # Expressions: bounded depth, bounded integers, bounded work.
    "deep-expression": ([("game.yaml", "DV040", 22, 74)], ("game.yaml", "DV040", 22, 74)),
    "huge-numbers": ([("game.yaml", "DV042", 22, 12)], ("game.yaml", "DV042", 22, 12)),
    "nested-ranges": ([("game.yaml", "DV042", 22, 65)], ("game.yaml", "DV042", 22, 65)),
    "growing-text": ([("game.yaml", "DV042", 17, 20)], ("game.yaml", "DV042", 17, 20)),
    # Engine helpers: board walks and grid lines are costed too.
    "dense-board": ([("game.yaml", "DV042", 134, 24)], ("game.yaml", "DV042", 134, 24)),
    "long-line": ([("game.yaml", "DV042", 23, 18)], ("game.yaml", "DV042", 23, 18)),
    # Flows and definitions: bounded steps per decision, per random game, and pieces per game.
    # (The step after the loop never runs: DV065 says so too.)
    "runaway-loop": ([("game.yaml", "DV043", 14, 7), ("game.yaml", "DV065", 17, 7)], ("game.yaml", "DV043", 14, 7)),
    "costly-loop": ([("game.yaml", "DV043", 15, 7)], ("game.yaml", "DV043", 15, 7)),
    "busy-turns": ([("game.yaml", "DV055", 13, 3)], None),
    "busy-queries": ([("game.yaml", "DV055", 14, 3)], None),
    "endless-turn": ([("game.yaml", "DV043", 12, 7)], None),
    # Work inside one step, each evaluation within its own allowance: a decision's filter over a
    # product of lists, a draw testing a long deck for each piece, thousands of costly sort keys,
    # and a decision offering more actions than anyone could read (each used to run for minutes
    # or fill the memory, beyond the reach of Ctrl-C once a human had moved).
    "filter-bomb": ([("game.yaml", "DV043", 9, 7)], ("game.yaml", "DV043", 9, 7)),
    "action-flood": ([("game.yaml", "DV043", 9, 7)], ("game.yaml", "DV043", 9, 7)),
    "draw-scan": ([("game.yaml", "DV043", 16, 7)], ("game.yaml", "DV043", 16, 7)),
    "costly-sort": ([("game.yaml", "DV043", 20, 7)], ("game.yaml", "DV043", 20, 7)),
    "piece-explosion": ([("game.yaml", "DV050", 11, 14)], ("game.yaml", "DV050", 11, 14)),
    # Found by the fuzz campaign: a key the schema does not require but the step needs (was DV999).
    "step-missing-key": ([("game.yaml", "DV050", 25, 23)], ("game.yaml", "DV050", 25, 23)),
    "malformed-step": ([("game.yaml", "DV050", 15, 13)], ("game.yaml", "DV050", 15, 13)),  # at the option itself
    # Names that look like Python entry points are plain data: unknown bots to lint (DV057), and
    # never imported (see the play test below).
    "bot-entry-point": ([("game.yaml", "DV057", 7, 8), ("game.yaml", "DV057", 7, 21)], None),
    # Terminal escapes written as YAML escapes ("\e[2J") never reach a terminal.
    "terminal-escapes": ([("game.yaml", "DV005", 5, 11)], ("game.yaml", "DV005", 5, 11)),
    # Terminal markup in names and prompts is plain text on screen (see the play test below).
    "terminal-markup": ([], None),
}


def test_every_hostile_game_file_has_an_expectation() -> None:
    assert sorted(p.stem for p in (CORPUS / "games").glob("*.yaml")) == sorted(GAME_FILES)


@pytest.mark.parametrize("name", sorted(GAME_FILES))
def test_hostile_game_file(tmp_path: Path, name: str) -> None:
    text = (CORPUS / "games" / f"{name}.yaml").read_text(encoding="utf-8")
    lint, load = GAME_FILES[name]
    check(make_pack(tmp_path, {"game.yaml": text}), lint, load)


def test_python_tags_never_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for name in ("python-object", "python-name"):
        folder = make_pack(tmp_path / name, {"game.yaml": (CORPUS / "games" / f"{name}.yaml").read_text()})
        problems_of(folder)
        load_error(folder)
    assert not (tmp_path / "pwned.txt").exists()


def test_entry_point_strings_are_only_names(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from davinci.cli import main

    folder = make_pack(tmp_path, {"game.yaml": (CORPUS / "games" / "bot-entry-point.yaml").read_text()})
    # The default seats come from the game's `bots` list: a name no bot is registered under.
    result = CliRunner().invoke(main, ["play", "coin", "--pack", str(folder), "--seed", "1"], input="")
    assert result.exit_code == 2
    assert "unknown player" in result.output
    assert "Traceback" not in result.output


def test_terminal_markup_in_content_is_shown_as_written(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from davinci.cli import main

    folder = make_pack(tmp_path, {"game.yaml": (CORPUS / "games" / "terminal-markup.yaml").read_text()})
    result = CliRunner().invoke(main, ["play", "coin", "--pack", str(folder), "--seed", "1", "--no-clear",
                                       "--players", "human,random"], input="[/red]\n")
    assert result.exit_code == 0, result.output
    assert "[/red] Flip [link=file:///etc/passwd]the coin[/link]" in result.output
    assert "'[/red]' is no action" in result.output
    result = CliRunner().invoke(main, ["list", "--pack", str(folder)])
    assert result.exit_code == 0 and "[/bold]" in result.output


def test_long_texts_are_printed_without_the_highlighter(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # rich's automatic highlighter (numbers, URLs, paths...) is quadratic on a long run of
    # characters: a 100,000-character setting doc kept `davinci list` busy for minutes and a
    # 100,000-character prompt hung `davinci play`. davinci's consoles never highlight.
    from click.testing import CliRunner
    from rich.highlighter import ReprHighlighter

    from davinci.cli import main

    calls: list[str] = []
    monkeypatch.setattr(ReprHighlighter, "highlight", lambda self, text: calls.append(text.plain[:20]))
    doc, prompt = "d" * 100_000, "p" * 100_000
    game = _replace('prompt: "Flip the coin"', f'prompt: "{prompt}"')
    game += f"settings:\n  target:\n    type: int\n    default: 3\n    doc: {doc}\n"
    folder = make_pack(tmp_path, {"game.yaml": game})
    result = CliRunner().invoke(main, ["list", "--pack", str(folder)])
    assert result.exit_code == 0, result.output
    assert "target (int, default 3):" in result.output
    assert result.output.count("d") >= 100_000  # wrapped over many lines, but all there
    result = CliRunner().invoke(main, ["play", "coin", "--pack", str(folder), "--seed", "1", "--no-clear",
                                       "--players", "human,random"], input="flip\n")
    assert result.exit_code == 0, result.output
    assert result.output.count("p") >= 100_000
    assert calls == []


def test_a_pack_listing_python_source_reads_it_as_yaml(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    evil = "import pathlib\npathlib.Path('imported.txt').write_text('ran')\n"
    manifest = BASE_MANIFEST + "decks:\n  - evil.py\n"
    folder = make_pack(tmp_path, {"evil.py": evil}, manifest)
    # Python source happens to be one long YAML string: a file of no known kind.
    assert problems_of(folder) == [("evil.py", "DV017", 1, 1)]
    assert load_error(folder) is None  # coin needs no deck; the file is never imported either way
    assert not (tmp_path / "imported.txt").exists()


# ------------------------------------------------------------------------------- generated attacks


def _replace(old: str, new: str) -> str:
    assert old in BASE_GAME
    return BASE_GAME.replace(old, new, 1)


def test_file_over_the_size_cap(tmp_path: Path) -> None:
    big = BASE_GAME + "# " + "x" * (6 * 2**20) + "\n"
    folder = make_pack(tmp_path, {"game.yaml": big})
    check(folder, [("game.yaml", "DV006", 1, 1)], ("game.yaml", "DV006", 1, 1))


def test_huge_scalar_under_the_cap_is_only_data(tmp_path: Path) -> None:
    huge = "x" * (5 * 2**20 - 4096)
    folder = make_pack(tmp_path, {"game.yaml": _replace("description: Flip", f"description: {huge} Flip")})
    check(folder, [], None)


def test_names_are_one_short_line(tmp_path: Path) -> None:
    # A game's name heads tables and screens, and seats are named after the seat label (`Team 2`,
    # at most 40 characters): the schemas bound both.
    game = _replace("name: Coin", "name: " + "N" * 100_000 + "\nseats: {label: " + "T" * 31 + "}")
    folder = make_pack(tmp_path, {"game.yaml": game})
    check(folder, [("game.yaml", "DV016", 3, 7), ("game.yaml", "DV016", 4, 16)], ("game.yaml", "DV016", 3, 7))


def test_deep_flow_nesting(tmp_path: Path) -> None:
    deep = _replace("bots: [random]", "bots: " + "[" * 100_000 + "]" * 100_000)
    check(make_pack(tmp_path, {"game.yaml": deep}), [("game.yaml", "DV007", 6, 1006)], ("game.yaml", "DV007", 6, 1006))


def test_deep_block_nesting(tmp_path: Path) -> None:
    block = "".join("  " * (i + 1) + f"k{i}:\n" for i in range(2000))
    folder = make_pack(tmp_path, {"game.yaml": BASE_GAME + "extra:\n" + block})
    check(folder, [("game.yaml", "DV007", 88, 129)], ("game.yaml", "DV007", 88, 129))


def test_wide_document_of_many_small_keys(tmp_path: Path) -> None:
    wide = "".join(f"  k{i}: {i}\n" for i in range(60_000))  # ~700 kB of keys, all reported as one
    folder = make_pack(tmp_path, {"game.yaml": BASE_GAME + "extra:\n" + wide})
    check(folder, [("game.yaml", "DV011", 24, 1)], ("game.yaml", "DV011", 24, 1))


@pytest.mark.parametrize(
    ("raw", "where"),
    [
        (_replace("Flip a coin", "Flip a caf\u00e9 coin").encode("latin-1"), (4, 24)),
        (_replace("Flip a coin", "Flip a\x00coin").encode(), (4, 20)),
        (_replace("Flip a coin", "Flip a\x1bcoin").encode(), (4, 20)),
        (BASE_GAME.encode("utf-16"), (1, 1)),
    ],
    ids=["latin-1", "nul", "escape", "utf-16"],
)
def test_bytes_that_are_not_utf8_text(tmp_path: Path, raw: bytes, where: tuple[int, int]) -> None:
    folder = make_pack(tmp_path, {"game.yaml": raw})
    check(folder, [("game.yaml", "DV005", *where)], ("game.yaml", "DV005", *where))


# ------------------------------------------------------------------------------- paths out of the pack

ESCAPES = BASE_MANIFEST + "decks:\n  - {path}\n"


@pytest.mark.parametrize("path", ["../outside.yaml", "sub/../../outside.yaml", "/etc/passwd"])
def test_manifest_paths_leaving_the_pack(tmp_path: Path, path: str) -> None:
    (tmp_path / "outside.yaml").write_text("kind: deck\n", encoding="utf-8")
    folder = make_pack(tmp_path, {}, ESCAPES.format(path=path))
    check(folder, [("pack.yaml", "DV015", 9, 5)], ("pack.yaml", "DV015", 9, 5))


@pytest.mark.parametrize("target", ["/etc/passwd", "../outside.yaml"])
def test_symlinked_file_leaving_the_pack(tmp_path: Path, target: str) -> None:
    (tmp_path / "outside.yaml").write_text("kind: deck\nid: secret\n", encoding="utf-8")
    folder = make_pack(tmp_path, {}, ESCAPES.format(path="deck.yaml"))
    os.symlink(target, folder / "deck.yaml")
    check(folder, [("pack.yaml", "DV030", 9, 5)], ("pack.yaml", "DV030", 9, 5))


def test_symlinked_game_leaving_the_pack(tmp_path: Path) -> None:
    outside = tmp_path / "game.yaml"
    outside.write_text(BASE_GAME, encoding="utf-8")
    folder = make_pack(tmp_path, {})
    (folder / "game.yaml").unlink()
    os.symlink(outside, folder / "game.yaml")
    check(folder, [("pack.yaml", "DV030", 7, 5)], ("pack.yaml", "DV030", 7, 5))


def test_symlinked_folder_leaving_the_pack(tmp_path: Path) -> None:
    folder = make_pack(tmp_path, {}, ESCAPES.format(path="etc/passwd"))
    os.symlink("/etc", folder / "etc")
    check(folder, [("pack.yaml", "DV030", 9, 5)], ("pack.yaml", "DV030", 9, 5))


def test_symlink_loop_inside_the_pack(tmp_path: Path) -> None:
    folder = make_pack(tmp_path, {}, ESCAPES.format(path="loop.yaml"))
    os.symlink("loop.yaml", folder / "loop.yaml")
    with bounded():
        found = problems_of(folder)
    assert found == [("pack.yaml", "DV030", 9, 5)]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_named_pipe_is_not_read(tmp_path: Path) -> None:
    # Opening a FIFO for reading blocks until a writer appears: it must be refused unopened.
    folder = make_pack(tmp_path, {}, ESCAPES.format(path="pipe.yaml"))
    os.mkfifo(folder / "pipe.yaml")
    check(folder, [("pack.yaml", "DV022", 9, 5)], None)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_named_pipe_or_device_given_to_lint_is_not_read(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.yaml")
    with bounded():
        found = lint_paths([str(tmp_path / "pipe.yaml"), "/dev/zero"])
    assert [(p.code, p.message) for p in found] == [
        ("DV022", "cannot read /dev/zero: not a regular file"),
        ("DV022", f"cannot read {tmp_path / 'pipe.yaml'}: not a regular file"),
    ]


# ------------------------------------------------------------------------------- variants


def _variant_pack(tmp_path: Path, names: list[str]) -> Path:
    files = {n: (CORPUS / "variants" / n).read_text(encoding="utf-8") for n in names}
    manifest = BASE_MANIFEST + "variants:\n" + "".join(f"  - {n}\n" for n in names)
    return make_pack(tmp_path, files, manifest)


def test_variants_extending_each_other(tmp_path: Path) -> None:
    folder = _variant_pack(tmp_path, ["cycle-a.yaml", "cycle-b.yaml"])
    check(folder, [("cycle-a.yaml", "DV054", 4, 10), ("cycle-b.yaml", "DV054", 3, 10)],
          ("cycle-b.yaml", "DV054", 3, 10), variant="cycle-a")
    with pytest.raises(DavinciError, match=r"cycle \(cycle-a -> cycle-b -> cycle-a\)"):
        load_game("coin", "cycle-a", {}, [str(folder)])


def test_variant_extending_itself(tmp_path: Path) -> None:
    folder = _variant_pack(tmp_path, ["self.yaml"])
    check(folder, [("self.yaml", "DV054", 4, 10)], ("self.yaml", "DV054", 4, 10), variant="self")


def test_variant_extending_a_missing_variant(tmp_path: Path) -> None:
    folder = _variant_pack(tmp_path, ["missing-base.yaml"])
    check(folder, [("missing-base.yaml", "DV020", 4, 10)], ("missing-base.yaml", "DV020", 4, 10), variant="orphan")


def test_variant_extending_another_games_variant(tmp_path: Path) -> None:
    # Lint once resolved `coin/advanced` against da-vinci-code's variant and merged it into coin.
    folder = _variant_pack(tmp_path, ["other-games-variant.yaml"])
    check(folder, [("other-games-variant.yaml", "DV020", 4, 10)], ("other-games-variant.yaml", "DV020", 4, 10),
          variant="borrowed")


def test_very_long_extends_chain_is_not_called_a_cycle(tmp_path: Path) -> None:
    files: dict[str, str | bytes] = {
        f"v{i}.yaml": f"kind: variant\nid: v{i}\nextends: coin/v{i + 1}\nname: V{i}\n" for i in range(40)
    }
    files["v40.yaml"] = "kind: variant\nid: v40\nextends: coin\nname: V40\n"
    manifest = BASE_MANIFEST + "variants:\n" + "".join(f"  - v{i}.yaml\n" for i in range(41))
    folder = make_pack(tmp_path, files, manifest)
    with bounded():
        found = problems_of(folder)
        with pytest.raises(DavinciError, match="chain of more than 16 variants") as info:
            load_game("coin", "v0", {}, [str(folder)])
    assert info.value.code == "DV054"
    assert {code for _, code, _, _ in found} == {"DV054"}
    assert load_error(folder, "v30") is None  # a chain of 11 is fine


# ------------------------------------------------------------------------------- no surprises


def test_hostile_files_do_not_break_the_installed_games(tmp_path: Path) -> None:
    # After all the above, the built-in games still load and lint as before (no state leaked).
    folder = make_pack(tmp_path, {"game.yaml": (CORPUS / "games" / "alias-bomb.yaml").read_text()})
    problems_of(folder)
    shutil.rmtree(folder)
    assert load_game("da-vinci-code").new_state(2, seed=1).legal_actions(0)


GROWING_VARIABLE = """\
kind: game
id: growing
name: Growing variable
players: {min: 2, max: 2}
vars:
  a: [[0]]
  i: 0
flow:
  setup:
    - while: "i < 200"
      do:
        - set: {a: "a + [range(10000)]"}
        - set: {i: "i + 1"}
""" + STOP_AT_ONCE


def test_a_variable_grown_without_bound_is_stopped(tmp_path: Path) -> None:
    # Every read of a stored list rebuilds it and every write stores it again: both are work. Before
    # they were counted, this setup ran for minutes (two such variables: over ten in lint). Now the
    # value a variable may hold is limited first.
    game = load_game("growing", packs=[write_game_pack(tmp_path, "growing", GROWING_VARIABLE)])
    with pytest.raises(EvalError) as info:
        game.new_state(2, seed=1)
    assert info.value.code == "DV042" and "'a' would hold more than 200,000" in info.value.message


@pytest.mark.parametrize(("text", "said"), [
    ("\x1b]52;c;cHduZWQ=\x07", "holds a control character"),  # a clipboard write: raw on a terminal
    ("\x1b[2J", "holds a control character"),
    ("Left\u202eright", "holds an invisible or direction-changing character (U+202E)"),
])
def test_a_text_setting_is_plain_text_on_one_line(tmp_path: Path, text: str, said: str) -> None:
    # A `str` setting reached log lines and screens raw: from --setting, and from any save or log
    # someone sent (they carry their settings).
    game = STOP_AT_ONCE.join(["kind: game\nid: titled\nname: Titled\nplayers: {min: 2, max: 2}\n"
                              "settings:\n  title: {type: str, default: Chess}\nflow:\n  setup: []\n", ""])
    pack = write_game_pack(tmp_path, "titled", game)
    assert load_game("titled", packs=[pack], settings={"title": "Ana's game"}).settings["title"] == "Ana's game"
    with pytest.raises(DavinciError) as e:
        load_game("titled", packs=[pack], settings={"title": text})
    assert e.value.code == "DV081" and said in e.value.message
    assert "\x1b" not in e.value.message and "\u202e" not in e.value.message  # the message itself is safe


def _piece_game(setup_steps: str, extra: str = "") -> str:
    """A game with 20,000 cards in one pile whose setup runs `setup_steps` (indented under setup)."""
    items = ", ".join(f"{{n: {n}, copies: 1000}}" for n in range(20))
    return f"""kind: game
id: heap
name: Heap
players: {{min: 2, max: 2}}
components:
  card:
    fields: {{n: int}}
    items: [{items}]
zones:
  box: {{kind: pile, contents: [card], visibility: hidden}}
  other: {{kind: pile, visibility: hidden}}
{extra}flow:
  setup:
{setup_steps}""" + STOP_AT_ONCE


@pytest.mark.parametrize("steps", [
    "    - while: \"true\"\n      do:\n        - shuffle: box\n",
    "    - while: \"true\"\n      do:\n        - move: {piece: box, to: other}\n        - move: {piece: other, to: box}\n",
    "    - while: \"true\"\n      do:\n        - draw: {from: box, to: other, count: 20000}\n"
    "        - draw: {from: other, to: box, count: 20000}\n",
    "    - while: \"true\"\n      do:\n        - reveal: box\n        - hide: box\n",
])
def test_a_loop_of_steps_over_a_whole_zone_is_stopped_quickly(tmp_path: Path, steps: str) -> None:
    # Each of these counted as one step of the 200,000 between decisions whatever the pieces it
    # moved: a 918-byte pack shuffling 20,000 cards in a loop kept lint busy for over an hour.
    game = load_game("heap", packs=[write_game_pack(tmp_path, "heap", _piece_game(steps))])
    with bounded(seconds=10):
        with pytest.raises(EvalError) as info:
            game.new_state(2, seed=1)
    assert info.value.code == "DV043" and "units of work" in info.value.message
    assert info.value.location is not None and info.value.location.line == 14  # the loop
    assert "the 'while' loop at line 14 kept going" in info.value.message


def _loop_board(spaces: int) -> str:
    ids = ", ".join(f"s{i}" for i in range(spaces))
    space_list = "\n".join(f"    - {{id: s{i}, type: plain}}" for i in range(spaces))
    return f"""board:
  space_types: [plain]
  spaces:
{space_list}
  tracks:
    - {{id: loop, spaces: [{ids}], loop: true}}
"""


def test_a_long_jump_records_the_spaces_between_however_far(tmp_path: Path) -> None:
    # A pawn sent 20 spaces back (a chute) recorded only its end beyond 12 spaces, so `reachable`
    # could walk back over the spaces it had just passed.
    game_text = f"""kind: game
id: chute
name: Chute
players: {{min: 2, max: 2}}
components:
  pawn: {{fields: {{n: int}}, items: [{{n: 1}}]}}
zones:
  board: {{kind: board, visibility: public}}
  box: {{kind: bag, contents: [pawn], visibility: public}}
{_loop_board(40)}vars: {{seen: []}}
flow:
  setup:
    - move: {{piece: "first(box)", to: board, space: "space(board, 's20')"}}
  turn:
    - choose:
        options:
          - action: go
            do:
              - move: {{piece: "first(board.pieces)", to: board, space: "space(board, 's0')"}}
              - set: {{seen: "reachable(first(board.pieces), 2) select id"}}
              - end_game: true
end:
  when: "false"
  winners: "seats"
"""
    game = load_game("chute", packs=[write_game_pack(tmp_path, "chute", game_text)])
    st = game.new_state(2, seed=1)
    st.apply(st.current_seats[0], "go")
    assert st.view(None)["vars"]["seen"] in (["s2"], ["s38"])  # one way only: the other was just walked


@pytest.mark.parametrize(("move", "said"), [
    ('{piece: "last(box)", to: box, index: 0}', "'index' is 0, outside the zone's places 1 to 20000"),
    ('{piece: "last(box)", to: box, index: 99999}', "'index' is 99999, outside the zone's places 1 to 20000"),
])
def test_a_move_index_outside_the_zone_is_an_error(tmp_path: Path, move: str, said: str) -> None:
    # Index 0 or less went on top, and one past the end at the bottom, without a word.
    game = load_game("heap", packs=[write_game_pack(tmp_path, "heap", _piece_game(f"    - move: {move}\n"))])
    with pytest.raises(EvalError) as info:
        game.new_state(2, seed=1)
    assert info.value.code == "DV042" and said in info.value.message
