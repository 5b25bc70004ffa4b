"""`davinci lint` as a whole: layers, cross-file references, ordering, exit codes and formats."""

from __future__ import annotations

import io
import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from davinci.engine.errors import RefError
from davinci.engine.lint import registry
from davinci.engine.lint.context import LintContext
from davinci.engine.lint.registry import Problem, Rule
from davinci.engine.lint.runner import lint_paths, run_lint

CORPUS = Path(__file__).parent / "corpus" / "yaml"

GOOD_DECK = """\
kind: deck
id: riddles
name: Riddles
category: riddle
cards:
  - id: riddles-001
    difficulty: 1
    clue: What has keys but opens no locks?
    answer: piano
"""

OVERLAY = """\
kind: deck-overlay
id: riddles-more
extends: {target}
cards:
  - id: riddles-more-001
    difficulty: 2
    clue: What has a neck but no head?
    answer: bottle
"""


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def make_pack(root: Path, decks: dict[str, str], extra: str = "") -> Path:
    listing = "".join(f"  - {rel}\n" for rel in decks)
    write(root / "pack.yaml", f"kind: pack\nid: {root.name}\nname: Test\nversion: '1.0'\ndecks:\n{listing}{extra}")
    for rel, text in decks.items():
        if text:
            write(root / rel, text)
    return root


def codes(problems: list[Problem]) -> list[str]:
    return [p.code for p in problems]


def run(args: list[str], fmt: str = "text", strict: bool = False, packs: tuple[str, ...] = ()) -> tuple[int, str]:
    out = io.StringIO()
    status = run_lint(args, fmt=fmt, strict=strict, packs=packs, color=False, out=out)
    return status, out.getvalue()


# ---- layers and references -------------------------------------------------------------------

def test_clean_pack_exits_zero(tmp_path: Path) -> None:
    root = make_pack(tmp_path / "p", {"riddles.yaml": GOOD_DECK})
    status, text = run([str(root)])
    assert status == 0
    assert text.strip().endswith("no problems in 2 files")


def test_overlay_may_extend_a_deck_of_another_pack(tmp_path: Path) -> None:
    base = make_pack(tmp_path / "base", {"riddles.yaml": GOOD_DECK})
    more = make_pack(tmp_path / "more", {"more.yaml": OVERLAY.format(target="riddles")})
    assert lint_paths([str(more)]) != []  # base pack unknown: extends an unknown deck
    assert lint_paths([str(more)], packs=[str(base)]) == []
    assert lint_paths([str(base), str(more)]) == []


def test_overlay_of_unknown_deck_suggests_the_closest(tmp_path: Path) -> None:
    more = make_pack(tmp_path / "more", {"more.yaml": OVERLAY.format(target="codx")})
    [problem] = lint_paths([str(more)])
    assert (problem.code, problem.location.line, problem.location.col) == ("DV020", 3, 10)
    assert "did you mean 'codex'?" in problem.message


def test_missing_escaping_and_misfiled_entries_point_at_the_manifest(tmp_path: Path) -> None:
    write(tmp_path / "outside.yaml", GOOD_DECK)
    root = make_pack(
        tmp_path / "p",
        {"riddles.yaml": GOOD_DECK, "gone.yaml": ""},
        extra="games:\n  - riddles.yaml\nvariants:\n  - ../outside.yaml\n",
    )
    (root / "link.yaml").symlink_to(tmp_path / "outside.yaml")
    with (root / "pack.yaml").open("a") as fh:
        fh.write("  - link.yaml\n")
    found = [(p.code, p.location.path.split("/")[-1], p.location.line) for p in lint_paths([str(root)])]
    assert found == [
        ("DV022", "pack.yaml", 7),   # gone.yaml does not exist
        ("DV017", "pack.yaml", 9),   # a deck listed under games
        ("DV015", "pack.yaml", 11),  # '../' rejected by the schema already
        ("DV030", "pack.yaml", 12),  # symlink out of the pack
    ]


def test_duplicate_ids_across_files(tmp_path: Path) -> None:
    root = make_pack(tmp_path / "p", {"a.yaml": GOOD_DECK, "b.yaml": GOOD_DECK.replace("riddles-001", "b-001")})
    [problem] = lint_paths([str(root)])
    assert problem.code == "DV021"
    assert problem.location.path.endswith("b.yaml")
    assert "a.yaml:2:5" in problem.message


def test_schema_failure_skips_semantic_rules(tmp_path: Path) -> None:
    bad = write(tmp_path / "d.yaml", GOOD_DECK.replace("difficulty: 1", "difficulty: 9") + "    colour: red\n")
    assert codes(lint_paths([str(bad)])) == ["DV014", "DV011"] or codes(lint_paths([str(bad)])) == ["DV011", "DV014"]


def test_a_file_checked_only_up_to_its_errors_is_named_in_a_note(tmp_path: Path) -> None:
    # Fixing schema errors revealed new ones in the next run, and nothing had said lint stops early.
    bad = write(tmp_path / "d.yaml", GOOD_DECK.replace("difficulty: 1", "difficulty: 9"))
    status, out = run([str(bad)])
    assert status == 1
    assert f"note: {bad}: checked only up to these errors; lint checks the rest" in out
    good = write(tmp_path / "e.yaml", GOOD_DECK)
    assert "note:" not in run([str(good)])[1]


def test_problems_are_sorted_by_file_line_col_code(tmp_path: Path) -> None:
    b = write(tmp_path / "b.yaml", "a: 1\na: 2\n")
    a = write(tmp_path / "a.yaml", GOOD_DECK.replace("id: riddles\n", "id: Riddles\n") + "    oops: 1\n")
    found = lint_paths([str(b), str(a)])
    keys = [(p.location.path, p.location.line, p.location.col, p.code) for p in found]
    assert keys == sorted(keys)
    assert [k[0].split("/")[-1] for k in keys] == ["a.yaml", "a.yaml", "b.yaml"]


def test_pack_manifest_given_as_a_file_lints_the_pack(tmp_path: Path) -> None:
    root = make_pack(tmp_path / "p", {"gone.yaml": ""})
    assert codes(lint_paths([str(root / "pack.yaml")])) == ["DV022"]


def test_a_lone_file_of_a_pack_is_linted_with_its_pack(tmp_path: Path) -> None:
    # `davinci lint pack/variant.yaml`: the game it extends lives in a sibling file of the pack.
    import shutil

    pack = tmp_path / "tutorial"
    shutil.copytree(Path(__file__).parent / "packs" / "tutorial", pack)
    variant = pack / "pig-short.yaml"
    assert lint_paths([str(variant)]) == []
    # Only the named file is reported: a problem in the game beside it is not.
    game = pack / "pig.yaml"
    game.write_text(game.read_text().replace("default: 50", "default: fifty"))
    assert lint_paths([str(variant)]) == []
    assert "DV053" in codes(lint_paths([str(pack)]))
    # Rules that need the game still run on the variant.
    variant.write_text(variant.read_text().replace("  target:", "  targt:"))
    [problem] = lint_paths([str(variant)])
    assert problem.code == "DV056" and problem.location.path.endswith("pig-short.yaml")
    # Outside any pack folder, the variant's game is unknown, as before.
    alone = tmp_path / "alone" / "pig-short.yaml"
    alone.parent.mkdir()
    shutil.copy(Path(__file__).parent / "packs" / "tutorial" / "pig-short.yaml", alone)
    assert [(p.code, "unknown game 'pig'" in p.message) for p in lint_paths([str(alone)])] == [("DV020", True)]


def test_folder_without_manifest_is_a_problem(tmp_path: Path) -> None:
    assert codes(lint_paths([str(tmp_path)])) == ["DV031"]


@pytest.mark.parametrize("kind", ["pipe", "folder", "broken link"])
def test_a_pack_yaml_that_is_not_a_file_is_named_as_such_and_never_read(tmp_path: Path, kind: str) -> None:
    import os

    manifest = tmp_path / "pack.yaml"
    {"pipe": os.mkfifo, "folder": os.mkdir, "broken link": lambda p: os.symlink(tmp_path / "gone", p)}[kind](manifest)
    [problem] = lint_paths([str(tmp_path)])  # a pipe would block a reader forever
    assert problem.code == "DV031" and problem.message.endswith(f"pack.yaml is {'a broken link' if kind == 'broken link' else 'not a regular file'}: a pack's pack.yaml must be a file")
    [problem] = lint_paths([], packs=(str(tmp_path),))
    assert problem.code == "DV031" and "must be a file" in problem.message


def test_a_pack_given_with_pack_as_its_manifest_or_as_a_file(tmp_path: Path) -> None:
    # `--pack p/pack.yaml` names the pack as `play` reads it (lint called it a folder without a
    # pack.yaml); `--pack p/riddles.yaml` is a file, not a folder.
    root = make_pack(tmp_path / "p", {"riddles.yaml": GOOD_DECK})
    assert run([], packs=(str(root / "pack.yaml"),))[0] == 0
    [problem] = lint_paths([], packs=(str(root / "riddles.yaml"),))
    assert problem.code == "DV031"
    assert problem.message.endswith("riddles.yaml is a file, not a pack folder: name the folder that holds the "
                                    "pack's pack.yaml")


def test_no_paths_lints_installed_packs(tmp_path: Path) -> None:
    extra = make_pack(tmp_path / "extra", {"gone.yaml": ""})
    status, text = run([], packs=(str(extra),))
    assert "DV022" in text and "gone.yaml" in text
    assert status == 1


# ---- rules that misbehave ---------------------------------------------------------------------

def _crashing(ctx: LintContext) -> Iterator[Problem]:
    yield from ()
    raise ZeroDivisionError("boom")


def _raising(ctx: LintContext) -> Iterator[Problem]:
    yield from ()
    raise RefError("no such thing", ctx.at(["cards", 0, "answer"]), "DV020")


def test_rule_crash_becomes_internal_error_problem(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry._RULES, "DV998", Rule("DV998", "test-crash", "error", ("deck",), _crashing, "x"))
    f = write(tmp_path / "d.yaml", GOOD_DECK)
    [problem] = lint_paths([str(f)])
    assert problem.code == "DV999"
    assert "DV998" in problem.message and "test-crash" in problem.message and "ZeroDivisionError" in problem.message


def test_rule_raising_davinci_error_is_reported_at_its_location(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry._RULES, "DV997", Rule("DV997", "test-raise", "error", ("deck",), _raising, "x"))
    f = write(tmp_path / "d.yaml", GOOD_DECK)
    [problem] = lint_paths([str(f)])
    assert (problem.code, problem.name, problem.location.line) == ("DV020", "unknown-reference", 9)


# ---- exit codes and formats ------------------------------------------------------------------

def _warning_rule(ctx: LintContext) -> Iterator[Problem]:
    yield Problem(ctx.at(["id"]), "DV996", "just a warning", "test-warning", "warning")


def test_exit_codes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    good = write(tmp_path / "good.yaml", GOOD_DECK)
    assert run([str(good)])[0] == 0
    assert run([str(CORPUS / "duplicate-key.yaml")])[0] == 1
    assert run([str(tmp_path / "missing.yaml")]) == (2, "davinci lint: no such file or folder: " +
                                                     str(tmp_path / "missing.yaml") + "\n")
    assert run([str(good)], fmt="xml")[0] == 2
    monkeypatch.setitem(registry._RULES, "DV996",
                        Rule("DV996", "test-warning", "warning", ("deck",), _warning_rule, "x"))
    status, text = run([str(good)])
    assert status == 0 and "0 errors, 1 warning in 1 file" in text
    status, text = run([str(good)], strict=True)
    assert status == 1 and text.endswith("davinci lint: --strict: the warning fails the check\n")  # it said nothing


def test_text_format_plain_and_coloured() -> None:
    status, text = run([str(CORPUS / "duplicate-key.yaml")])
    first, summary = text.splitlines()
    assert first.endswith("duplicate-key.yaml:5:1: DV002 duplicate key 'id' (first defined at line 2, column 1) "
                          "[duplicate-key]")
    assert summary == "1 error, 0 warnings in 1 file"
    out = io.StringIO()
    run_lint([str(CORPUS / "duplicate-key.yaml")], color=True, out=out)
    assert "\x1b[31mDV002" in out.getvalue()


def test_no_color_env_and_pipes_are_plain(monkeypatch: pytest.MonkeyPatch) -> None:
    from davinci.engine.lint.formats import use_color

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    assert use_color(Tty(), None) is True
    assert use_color(io.StringIO(), None) is False
    monkeypatch.setenv("NO_COLOR", "1")
    assert use_color(Tty(), None) is False


def test_json_format() -> None:
    status, text = run([str(CORPUS / "schema-bad-enum.yaml")], fmt="json")
    payload = json.loads(text)
    [problem] = payload["problems"]
    assert problem["code"] == "DV014" and (problem["line"], problem["col"]) == (7, 17)
    assert problem["severity"] == "error" and problem["name"] == "bad-value"
    assert payload["summary"] == {"errors": 1, "warnings": 0, "files": 1, "text": "1 error, 0 warnings in 1 file",
                                  "stopped_early": ["tests/corpus/yaml/schema-bad-enum.yaml"]}


def test_github_format_escapes() -> None:
    status, text = run([str(CORPUS / "schema-bad-pattern.yaml")], fmt="github")
    line = text.splitlines()[0]
    assert line.startswith("::error file=")
    assert ",line=10,col=14,title=DV015 bad-format::" in line
    assert "%2C" not in line.split("::")[-1]  # commas are only escaped in properties


def test_sarif_format() -> None:
    status, text = run([str(CORPUS / "schema-unknown-key.yaml")], fmt="sarif")
    log = json.loads(text)
    assert log["version"] == "2.1.0"
    run_ = log["runs"][0]
    rules = run_["tool"]["driver"]["rules"]
    [result] = run_["results"]
    assert rules[result["ruleIndex"]]["id"] == result["ruleId"] == "DV011"
    region = result["locations"][0]["physicalLocation"]["region"]
    assert (region["startLine"], region["startColumn"]) == (7, 5)
    assert all(r["shortDescription"]["text"] for r in rules)
    # Help is Markdown: a docstring's indent (kept for 33 rules) made its paragraphs code blocks.
    prose = [re.sub(r"```.*?```", "", r["help"]["markdown"], flags=re.S) for r in rules]
    assert not [r["id"] for r, text in zip(rules, prose) if "\n    " in text]


@pytest.mark.skipif(sys.platform != "linux", reason="file names of raw bytes are a POSIX matter")
def test_odd_file_names_give_valid_json_sarif_and_a_safe_terminal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Found by a hostile tester: a name that is not UTF-8 wrote a raw byte into the JSON, SARIF
    # uris were not percent-encoded, and a name with escape sequences reached the terminal.
    import os

    monkeypatch.chdir(tmp_path)
    names = [os.fsdecode(b"bad\xffname.yaml"), "x\x1b]2;pwned\x07.yaml", "sub #1?.yaml"]
    for name in names:
        (tmp_path / name).write_text("kind: game\nid: x\n", encoding="utf-8")
    _, text = run(names, fmt="json")
    assert sorted({p["path"] for p in json.loads(text)["problems"]}) == [
        "bad\\xffname.yaml", "sub #1?.yaml", "x\x1b]2;pwned\x07.yaml"]
    _, text = run(names, fmt="sarif")
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in json.loads(text)["runs"][0]["results"]}
    assert uris == {"bad%FFname.yaml", "x%1B%5D2%3Bpwned%07.yaml", "sub%20%231%3F.yaml"}
    for fmt in ("text", "github"):
        _, text = run(names, fmt=fmt)
        assert "\x1b" not in text and "\x07" not in text and "x\\x1b]2;pwned\\x07.yaml" in text
        assert "bad\\xffname.yaml" in text  # the byte as JSON writes it (it read "bad\\udcffname.yaml")


def _twins(tmp_path: Path) -> tuple[Path, Path]:
    """Two pack folders whose manifests give the same id, each with its own (valid) deck."""
    a = make_pack(tmp_path / "a", {"riddles.yaml": GOOD_DECK})
    b = make_pack(tmp_path / "b", {"riddles2.yaml": GOOD_DECK.replace("id: riddles\n", "id: riddles2\n")
                                   .replace("riddles-001", "riddles2-001")})
    (b / "pack.yaml").write_text((b / "pack.yaml").read_text().replace("id: b\n", "id: a\n"))
    return a, b


def test_two_linted_packs_with_one_id_are_a_problem(tmp_path: Path) -> None:
    a, b = _twins(tmp_path)
    [problem] = lint_paths([str(a), str(b)])
    assert problem.code == "DV032" and "pack id 'a' is used by both" in problem.message
    assert problem.location.path.endswith("pack.yaml") and problem.location.line == 2


def test_a_context_pack_sharing_the_linted_packs_id_is_a_problem(tmp_path: Path) -> None:
    a, b = _twins(tmp_path)
    assert codes(lint_paths([str(a)], packs=(str(a), str(b)))) == ["DV032"]
    assert codes(lint_paths([str(a)], packs=(str(b),))) == ["DV032"]
    assert lint_paths([str(a)], packs=(str(a),)) == []  # the linted pack named again is no clash


def test_a_pack_option_naming_a_folder_without_a_manifest_is_reported_beside_the_linted_files(tmp_path: Path) -> None:
    a = make_pack(tmp_path / "a", {"riddles.yaml": GOOD_DECK})
    (tmp_path / "loose").mkdir()
    assert codes(lint_paths([str(a)], packs=(str(tmp_path / "loose"),))) == ["DV031"]


def test_a_line_feed_in_a_name_a_pack_gave_cannot_start_a_line_of_lint_output(tmp_path: Path) -> None:
    # A listed path "game\n::warning file=x.py,line=3::..." printed a line a CI runner obeys.
    root = tmp_path / "nl"
    write(root / "pack.yaml", 'kind: pack\nid: nl\nname: nl\nversion: "1.0"\n'
                              'games:\n  - "game\\n::warning file=x.py,line=3::Injected.yaml"\n')
    status, out = run([str(root)])
    assert status == 1
    assert not any(line.startswith("::") for line in out.splitlines())
    assert "lists game\\n::warning file=x.py,line=3::Injected.yaml, which does not exist" in out


def test_a_pack_taking_an_installed_packs_id_is_reported(tmp_path: Path) -> None:
    # Lint passed it (as if it were a checkout of the built-in pack); play and list refused it.
    root = make_pack(tmp_path / "bi", {"d.yaml": GOOD_DECK})
    manifest = root / "pack.yaml"
    manifest.write_text(manifest.read_text().replace("id: bi", "id: builtin"))
    assert codes(lint_paths([str(root)])) == ["DV032"]


def test_lint_without_a_path_says_it_checked_the_installed_content(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Run in an author's broken pack folder, plain `davinci lint` said "no problems" about other files.
    root = make_pack(tmp_path / "mine", {"d.yaml": GOOD_DECK.replace("difficulty: 1", "difficulty: 9")})
    monkeypatch.chdir(root)
    status, out = run([])
    assert status == 0
    assert out.rstrip().endswith("the installed content; name a pack folder or files to lint your own (this folder "
                                 "holds a pack: `davinci lint .` checks it)")
    assert run(["."])[0] == 1


def test_a_listed_file_that_is_not_there_suggests_the_file_beside_it(tmp_path: Path) -> None:
    root = make_pack(tmp_path / "p", {"dropfor.yaml": ""})
    write(root / "dropfour.yaml", GOOD_DECK)
    [missing] = [p for p in lint_paths([str(root)]) if p.code == "DV022"]
    assert missing.message == "pack 'p' lists dropfor.yaml, which does not exist (did you mean 'dropfour.yaml'?)"


def test_a_listed_file_that_is_not_there_is_not_taken_for_one_listed_already(tmp_path: Path) -> None:
    # `liars.yaml` missing got "(did you mean 'letter.yaml'?)", a file the pack already listed.
    root = make_pack(tmp_path / "p", {"letter.yaml": GOOD_DECK, "lettre.yaml": ""})
    [missing] = [p for p in lint_paths([str(root)]) if p.code == "DV022"]
    assert missing.message == "pack 'p' lists lettre.yaml, which does not exist"


def test_a_listed_pipe_or_folder_is_named_for_what_it_is(tmp_path: Path) -> None:
    # Both read "which is not a file (did you mean 'pack.yaml'?)".
    import os

    root = make_pack(tmp_path / "p", {"pipe.yaml": ""})
    os.mkfifo(root / "pipe.yaml")
    assert [p.message for p in lint_paths([str(root)]) if p.code == "DV022"] == [
        "pack 'p' lists pipe.yaml, which is a named pipe, not a regular file"]


def test_no_line_of_lint_output_is_a_ci_workflow_command(tmp_path: Path) -> None:
    # A key "zz\n ::error file=...::..." kept its line feed (the next line began with a space), and
    # GitHub's runner trims the indentation before it looks for "::".
    root = make_pack(tmp_path / "p", {"d.yaml": GOOD_DECK + '"zz\\n ::error file=a.py,line=1::pwned\\n    ::add-mask::x": 1\n'})
    status, out = run([str(root)])
    assert status == 1 and "DV011" in out
    assert not any(line.lstrip().startswith("::") for line in out.splitlines()), out


def test_a_file_whose_name_is_a_ci_workflow_command_is_not_one_in_the_output(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # `::warning::b.yaml:6:16: DV012 ...` began the line (`davinci lint .` in the pack): a runner acts on it.
    root = tmp_path / "p"
    write(root / "pack.yaml", "kind: pack\nid: p\nname: Test\nversion: '1.0'\ndecks: ['::warning::d.yaml', 'x##[error]e.yaml']\n")
    write(root / "::warning::d.yaml", GOOD_DECK.replace("difficulty: 1", "difficulty: 9"))
    write(root / "x##[error]e.yaml", GOOD_DECK.replace("difficulty: 1", "difficulty: 9"))  # (the older form, anywhere)
    monkeypatch.chdir(root)
    status, out = run(["."])
    assert status == 1 and "DV0" in out and "x#\\x23[error]e.yaml" in out
    assert not any(line.lstrip().startswith("::") or "##[" in line for line in out.splitlines()), out


def test_github_format_encodes_a_line_feed_in_a_file_name(tmp_path: Path) -> None:
    # It wrote "\n" (two characters), so the annotation named a file that does not exist.
    bad = write(tmp_path / "a\nb.yaml", GOOD_DECK.replace("difficulty: 1", "difficulty: 9"))
    status, out = run([str(bad)], fmt="github")
    assert status == 1 and "a%0Ab.yaml" in out and "\\n" not in out.split("::")[1]


def test_an_empty_path_is_a_usage_error_not_the_working_folder() -> None:
    out = io.StringIO()
    assert run_lint([""], out=out) == 2 and "a path is empty" in out.getvalue()


def test_a_folder_of_a_packs_files_is_linted_file_by_file() -> None:
    # `davinci lint content/` was "DV031 content is a folder without a pack.yaml".
    content = Path(__file__).parent.parent / "content"
    out = io.StringIO()
    assert run_lint([str(content)], out=out) == 0 and "no problems in 4 files" in out.getvalue()


def test_a_folder_without_a_manifest_lints_every_yaml_file_in_it(tmp_path: Path) -> None:
    # A file starting `"kind": game` (or with a BOM) was skipped without a word, and lint passed.
    pig = (Path(__file__).parent / "packs" / "tutorial" / "pig.yaml").read_text(encoding="utf-8")
    (tmp_path / "a.yaml").write_text(pig, encoding="utf-8")
    broken = pig.replace("kind: game", '"kind": game').replace("id: pig", "id: pig-b").replace(
        'settings.target"', 'settings.targt"')
    (tmp_path / "b.yaml").write_text(broken, encoding="utf-8")
    out = io.StringIO()
    assert run_lint([str(tmp_path)], out=out) == 1 and "settings has no field 'targt'" in out.getvalue()
    empty = tmp_path / "empty"
    (empty / "sub").mkdir(parents=True)
    out = io.StringIO()
    assert run_lint([str(empty)], out=out) == 1 and "sub-folders are not searched" in out.getvalue()


def test_a_huge_unknown_key_is_shown_cut(tmp_path: Path) -> None:
    # A 4.8 MB key was repeated whole in a one-line message (and compared with every known key).
    key = "namf" * 50_000
    root = tmp_path / "p"
    write(root / "pack.yaml", f"kind: pack\nid: p\nname: Test\nversion: '1.0'\n? {key}\n: 1\n")  # (a long key: `? `)
    [problem] = lint_paths([str(root)])
    assert problem.code == "DV011" and problem.message.startswith("unknown key 'namfnamf") and len(problem.message) < 300


def test_a_lint_usage_error_goes_to_standard_error() -> None:
    # `davinci lint --format sarif nope > results.sarif` wrote the message into the SARIF file.
    from click.testing import CliRunner

    from davinci.cli import main

    result = CliRunner().invoke(main, ["lint", "--format", "sarif", "/nonexistent/pack"])
    assert result.exit_code == 2 and result.stdout == ""
    assert "no such file or folder: /nonexistent/pack" in result.stderr


def test_github_annotations_name_files_from_the_repository_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Run from a sub-folder (a job's working-directory), files beneath it were named relative to it
    # (`file=myths.yaml`) and others absolutely: GitHub resolves `file=` from the repository root.
    import io

    repo = tmp_path / "repo"
    (repo / "decks").mkdir(parents=True)
    (repo / "pack.yaml").write_text('kind: pack\nid: p\nname: P\nversion: "1.0"\ndecks: [decks/d.yaml]\n'
                                    "variants: [v.yaml]\n", encoding="utf-8")
    (repo / "decks" / "d.yaml").write_text("kind: deck-overlay\nid: rose-x\nextends: roses\ncards: []\n", encoding="utf-8")
    (repo / "v.yaml").write_text("kind: variant\nid: v\nextends: da-vinci-cod\nname: V\n", encoding="utf-8")
    monkeypatch.chdir(repo / "decks")
    monkeypatch.setenv("GITHUB_WORKSPACE", str(repo))
    out = io.StringIO()
    assert run_lint([".."], fmt="github", out=out) == 1
    files = sorted(line.split("file=")[1].split(",")[0] for line in out.getvalue().splitlines()
                   if line.startswith("::error"))
    assert files == ["decks/d.yaml", "v.yaml"], out.getvalue()
    assert "::notice file=v.yaml,title=checked in part::checked only up to these errors" in out.getvalue()


def test_running_out_of_memory_stops_lint_instead_of_blaming_a_file(monkeypatch: pytest.MonkeyPatch) -> None:
    # Under a memory limit lint reported "DV999 internal error in rule DV210: MemoryError" in the
    # shipped decks, as if they were wrong.
    from davinci.engine.lint import runner
    from davinci.engine.lint.registry import Rule

    def starved(ctx: object) -> None:
        raise MemoryError

    with pytest.raises(MemoryError):
        runner._run_rule(Rule("DV210", "couplet-rhyme", "warning", (), starved, ""), None)  # type: ignore[arg-type]
