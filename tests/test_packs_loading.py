"""Content packs: manifests, the built-in pack, entry points, path safety and the file cache."""

from __future__ import annotations

import importlib.metadata
import shutil
import sys
from pathlib import Path

import pytest

from davinci.engine import packs
from davinci.engine.errors import DavinciError, PackError, RefError, SchemaError
from davinci.engine.packs import (
    all_packs,
    builtin_pack,
    clear_cache,
    entry_point_packs,
    load_cached,
    load_pack,
    read_doc,
)

DECK = """\
kind: deck
id: riddles
name: Riddles
category: riddle
cards:
  - {id: riddles-001, difficulty: 1, clue: What has keys but opens no locks?, answer: piano}
"""


def make_pack(root: Path, manifest: str, files: dict[str, str] | None = None) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "pack.yaml").write_text(manifest)
    for rel, text in (files or {}).items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


MANIFEST = "kind: pack\nid: riddles\nname: Riddles\nversion: '1.0'\ndecks:\n  - decks/riddles.yaml\n"


def test_load_pack_reads_manifest(tmp_path: Path) -> None:
    root = make_pack(tmp_path / "p", MANIFEST, {"decks/riddles.yaml": DECK})
    pack = load_pack(root)
    assert (pack.id, pack.name, pack.version) == ("riddles", "Riddles", "1.0")
    assert pack.decks == (Path("decks/riddles.yaml"),)
    assert pack.root == root.resolve()
    assert read_doc(pack, "decks/riddles.yaml").data["id"] == "riddles"
    assert load_pack(root / "pack.yaml").id == "riddles"  # the manifest file works too


def test_builtin_pack_lists_the_shipped_decks() -> None:
    pack = builtin_pack()
    assert pack.source == "builtin"
    assert Path("content/codex.yaml") in pack.decks
    assert (pack.root / "pack.yaml").is_file()
    assert all_packs()[0].id == pack.id


def test_manifest_schema_errors_raise(tmp_path: Path) -> None:
    root = make_pack(tmp_path / "p", "kind: pack\nid: Bad Id\nname: x\nversion: '1'\n")
    with pytest.raises(SchemaError):
        load_pack(root)


def test_folder_without_manifest(tmp_path: Path) -> None:
    with pytest.raises(PackError) as info:
        load_pack(tmp_path)
    assert info.value.code == "DV031"


def test_listed_path_escaping_is_refused_at_the_manifest_line(tmp_path: Path) -> None:
    (tmp_path / "outside.yaml").write_text(DECK)
    root = make_pack(tmp_path / "p", MANIFEST, {"decks/riddles.yaml": DECK})
    (root / "decks" / "link.yaml").symlink_to(tmp_path / "outside.yaml")
    (root / "pack.yaml").write_text(MANIFEST + "  - decks/link.yaml\n")
    with pytest.raises(PackError) as info:
        load_pack(root)
    assert info.value.code == "DV030"
    assert info.value.location is not None and (info.value.location.line, info.value.location.col) == (7, 5)


def test_symlinked_manifest_out_of_the_folder_is_refused(tmp_path: Path) -> None:
    elsewhere = make_pack(tmp_path / "elsewhere", MANIFEST)
    root = tmp_path / "p"
    root.mkdir()
    (root / "pack.yaml").symlink_to(elsewhere / "pack.yaml")
    with pytest.raises(PackError):
        load_pack(root)


def test_missing_listed_file_is_a_reference_error_at_the_manifest(tmp_path: Path) -> None:
    pack = load_pack(make_pack(tmp_path / "p", MANIFEST))
    with pytest.raises(RefError) as info:
        read_doc(pack, "decks/riddles.yaml")
    assert info.value.code == "DV022"
    assert info.value.location is not None and info.value.location.line == 6


def test_read_doc_refuses_unlisted_escape(tmp_path: Path) -> None:
    (tmp_path / "secret.yaml").write_text("a: 1\n")
    pack = load_pack(make_pack(tmp_path / "p", MANIFEST, {"decks/riddles.yaml": DECK}))
    with pytest.raises(PackError):
        read_doc(pack, "../secret.yaml")


def test_cache_parses_each_file_once_and_notices_changes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    clear_cache()
    f = tmp_path / "d.yaml"
    f.write_text("a: 1\n")
    calls = []
    real = packs.load_yaml_file

    def counting(*args: object, **kw: object) -> object:
        calls.append(args)
        return real(*args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(packs, "load_yaml_file", counting)
    first = load_cached(f)
    assert load_cached(f) is first
    assert len(calls) == 1
    f.write_text("a: 22\n")  # different size, so a different cache key even within one tick
    assert load_cached(f).data == {"a": 22}
    assert len(calls) == 2


def _fake_entry_points(value: str) -> object:
    ep = importlib.metadata.EntryPoint(name="extra", value=value, group=packs.ENTRY_POINT_GROUP)

    def entry_points(group: str) -> list[importlib.metadata.EntryPoint]:
        return [ep] if group == packs.ENTRY_POINT_GROUP else []

    return entry_points


def test_entry_point_pack_is_found_without_importing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pkg = tmp_path / "site" / "fakepkg"
    make_pack(pkg / "content", MANIFEST.replace("id: riddles", "id: extra"), {"decks/riddles.yaml": DECK})
    (pkg / "__init__.py").write_text("raise RuntimeError('a pack must never be imported')\n")
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    monkeypatch.setattr(importlib.metadata, "entry_points", _fake_entry_points("fakepkg.content"))
    [pack] = entry_point_packs()
    assert pack.id == "extra"
    assert pack.source == "entry-point:extra"
    assert "fakepkg" not in sys.modules
    assert [p.id for p in all_packs()][1:] == ["extra"]


def test_broken_entry_point_is_a_pack_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(importlib.metadata, "entry_points", _fake_entry_points("no_such_module_xyz"))
    with pytest.raises(PackError):
        entry_point_packs()


def test_same_folder_twice_is_one_pack_but_two_ids_clash(tmp_path: Path) -> None:
    a = make_pack(tmp_path / "a", MANIFEST, {"decks/riddles.yaml": DECK})
    b = make_pack(tmp_path / "b", MANIFEST, {"decks/riddles.yaml": DECK})
    assert [p.root for p in all_packs([a, a])][1:] == [a.resolve()]
    with pytest.raises(PackError) as info:
        all_packs([a, b])
    assert info.value.code == "DV032"


TUTORIAL_PIG = (Path(__file__).parent / "packs" / "tutorial" / "pig.yaml").read_text(encoding="utf-8")


def _one_file_pack(folder: Path, section: str, name: str, text: str) -> str:
    """`folder` as a pack listing one file, `name` with `text`, under `section`."""
    (folder / name).write_text(text, encoding="utf-8")
    (folder / "pack.yaml").write_text(f'kind: pack\nid: one\nname: One\nversion: "1.0.0"\n{section}: [{name}]\n',
                                      encoding="utf-8")
    return str(folder)


def _clash(pack: str, game: str, variant: str | None = None) -> DavinciError:
    """The DV021 that loading `game` with `pack` raises, located in the pack."""
    from davinci.engine.game import load_game

    with pytest.raises(DavinciError) as e:
        load_game(game, variant, packs=[pack])
    assert e.value.code == "DV021" and e.value.location is not None
    return e.value


def test_a_pack_game_with_an_installed_games_id_is_refused_not_ignored(tmp_path: Path) -> None:
    # It used to be skipped silently: `play`/`simulate` ran the installed game instead.
    pack = _one_file_pack(tmp_path, "games", "pig.yaml", TUTORIAL_PIG.replace("\nid: pig\n", "\nid: da-vinci-code\n"))
    e = _clash(pack, "da-vinci-code")
    assert (Path(e.location.path).name, e.location.line) == ("pig.yaml", 3)  # type: ignore[union-attr]
    assert "game id 'da-vinci-code' is already defined at games/da_vinci_code/game.yaml:4:5" in e.message


def test_a_pack_variant_may_not_replace_an_installed_variant(tmp_path: Path) -> None:
    # It silently replaced da-vinci-code/advanced (lint reported DV021; play used the pack's).
    pack = _one_file_pack(tmp_path, "variants", "adv.yaml", "kind: variant\nid: advanced\nextends: da-vinci-code\n"
                          "name: Evil\nsettings: {hand_small: {default: 1}}\n")
    e = _clash(pack, "da-vinci-code", "advanced")
    assert (Path(e.location.path).name, e.location.line) == ("adv.yaml", 2)  # type: ignore[union-attr]
    assert "variant id 'advanced' of 'da-vinci-code' is already defined at " in e.message


def test_a_game_whose_id_is_not_an_id_is_never_offered(tmp_path: Path) -> None:
    # `pi\u200bg` (a zero-width space) was suggested for `pig`: "did you mean 'pi​g'?".
    from davinci.engine.game import game_sources

    pack = _one_file_pack(tmp_path, "games", "pig.yaml", TUTORIAL_PIG.replace("\nid: pig\n", '\nid: "pi\\u200bg"\n'))
    assert sorted(game_sources([pack])) == ["da-vinci-code", "da-vinci-game", "leonardos-riddle"]


@pytest.mark.parametrize(("lists", "line", "words"), [
    ("games: [pack.yaml]\n", 5, "pack.yaml is listed under `games` but is already the manifest"),
    ("games: [pig.yaml]\ndecks: [pack.yaml]\n", 6, "pack.yaml is listed under `decks` but is already the manifest"),
    ("games: [pig.yaml]\nvariants: [pig.yaml]\n", 6, "pig.yaml is listed under both `games` and `variants`"),
    # Listed twice in one section: lint passed it, then play refused a duplicate game id.
    ("games:\n  - pig.yaml\n  - ./pig.yaml\n", 7, "pig.yaml is listed twice under `games` (first at "),
])
def test_a_file_is_listed_as_one_kind_of_thing(tmp_path: Path, lists: str, line: int, words: str) -> None:
    # Lint used to read such a file once and pass the pack, which then failed to load.
    from davinci.engine.lint.runner import lint_paths

    tutorial = Path(__file__).parent / "packs" / "tutorial"
    (tmp_path / "pig.yaml").write_text((tutorial / "pig.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "pack.yaml").write_text('kind: pack\nid: once\nname: Once\nversion: "1.0.0"\n' + lists,
                                        encoding="utf-8")
    with pytest.raises(PackError) as e:
        load_pack(tmp_path)
    assert e.value.code == "DV017" and words in e.value.message
    problems = lint_paths([str(tmp_path)])
    assert [(p.code, p.location.line) for p in problems] == [("DV017", line)]
    assert words in problems[0].message


def test_a_game_or_variant_the_manifest_forgot_is_named_when_asked_for(tmp_path: Path) -> None:
    # "unknown game 'pig'; installed: ..." and "variants: none" did not say the file was there, unlisted.
    from davinci.engine.errors import UsageError
    from davinci.engine.game import load_game

    tutorial = Path(__file__).parent / "packs" / "tutorial"
    for name in ("pig.yaml", "pig-short.yaml"):
        (tmp_path / name).write_text((tutorial / name).read_text(encoding="utf-8"), encoding="utf-8")
    manifest = tmp_path / "pack.yaml"
    manifest.write_text('kind: pack\nid: forgot\nname: Forgot\nversion: "1.0"\ndecks: []\n', encoding="utf-8")
    with pytest.raises(UsageError) as e:
        load_game("pig", packs=[str(tmp_path)])
    assert e.value.message.endswith(f"(pig.yaml defines it, but {tmp_path}/pack.yaml does not list it under games:)")
    manifest.write_text('kind: pack\nid: forgot2\nname: Forgot\nversion: "1.0"\ngames: [pig.yaml]\n', encoding="utf-8")
    with pytest.raises(UsageError) as e:
        load_game("pig", "short", packs=[str(tmp_path)])
    assert e.value.message == (f"game 'pig' has no variant 'short'; variants: none (pig-short.yaml defines it, but "
                               f"{tmp_path}/pack.yaml does not list it under variants:)")
    # Listed in the wrong section: lint says which one.
    from davinci.engine.lint.runner import lint_paths

    manifest.write_text('kind: pack\nid: forgot3\nname: Forgot\nversion: "1.0"\ngames: [pig.yaml, pig-short.yaml]\n',
                        encoding="utf-8")
    said = [p.message for p in lint_paths([str(tmp_path)]) if p.code == "DV017"]
    assert said == [f"{tmp_path}/pig-short.yaml has kind 'variant' but is listed where game files belong: list it "
                    "under variants:"]


def test_a_yaml_file_the_manifest_does_not_list_is_a_lint_warning(tmp_path: Path) -> None:
    # A deck overlay written into a pack but not listed was never read, and lint said nothing.
    from davinci.engine.lint.runner import lint_paths

    pack = tmp_path / "extra"
    (pack / "decks").mkdir(parents=True)
    (pack / "pack.yaml").write_text('kind: pack\nid: extra\nname: Extra\nversion: "1.0"\n'
                                    "decks: [decks/listed.yaml]\n", encoding="utf-8")
    overlay = "kind: deck-overlay\nid: {id}\nextends: rose\ncards: []\n"
    (pack / "decks" / "listed.yaml").write_text(overlay.format(id="rose-listed"), encoding="utf-8")
    (pack / "decks" / "forgotten.yaml").write_text(overlay.format(id="rose-forgotten"), encoding="utf-8")
    (pack / "notes.yml").write_text("just: notes\n", encoding="utf-8")  # no davinci file: not reported
    (pack / "extra.yml").write_text(overlay.format(id="rose-extra"), encoding="utf-8")
    (pack / "decks" / "readme.txt").write_text("not yaml\n", encoding="utf-8")
    # A link to a davinci file outside the pack: listing it would be refused (DV030), so it is not suggested.
    (tmp_path / "outside.yaml").write_text(overlay.format(id="rose-outside"), encoding="utf-8")
    (pack / "out.yaml").symlink_to(tmp_path / "outside.yaml")
    found = [(p.code, p.severity, p.message.split(" is beside")[0]) for p in lint_paths([str(pack)])
             if p.code == "DV033"]
    # Each at the unlisted file itself (it was at pack.yaml's first line).
    assert sorted(Path(p.location.path).name for p in lint_paths([str(pack)]) if p.code == "DV033") \
        == ["extra.yml", "forgotten.yaml"]
    assert found == [("DV033", "warning", "decks/forgotten.yaml"), ("DV033", "warning", "extra.yml")]


def _deck(deck_id: str, category: str, card_id: str, kind: str = "deck") -> str:
    head = f"kind: deck-overlay\nid: {deck_id}\nextends: rose\n" if kind == "deck-overlay" else \
        f"kind: deck\nid: {deck_id}\nname: {deck_id}\ncategory: {category}\ndescription: A deck.\n"
    return head + f"cards:\n  - {{id: {card_id}, difficulty: 1, clue: What burns down as it lights a room?, answer: candle}}\n"


@pytest.mark.parametrize(("files", "said"), [
    ({"o.yaml": _deck("more", "", "rose-001", "deck-overlay")}, "DV213 card id 'rose-001' is already used"),
    ({"d.yaml": _deck("rose", "places", "mine-001")}, "DV021 deck id 'rose' is already defined"),
    # Another deck's card id: `--card rose-001` showed the pack's card instead of the shipped one.
    ({"d.yaml": _deck("places", "places", "rose-001")}, "DV216 card id 'rose-001' is already used in deck 'rose'"),
    ({"a.yaml": _deck("places-a", "sights", "a-001"), "b.yaml": _deck("places-b", "sights", "b-001")},
     "clue category 'sights' is that of several decks: name one of them (places-a, places-b)"),
])
def test_clue_deck_clashes_are_reported_under_lints_codes(tmp_path: Path, files: dict[str, str], said: str) -> None:
    # The loader called both clashes DV020 (an unknown reference), and a category two decks share
    # "unknown".
    from click.testing import CliRunner

    from davinci.cli import main

    make_pack(tmp_path, f"kind: pack\nid: extra\nname: Extra\nversion: '1.0'\ndecks: [{', '.join(files)}]\n", files)
    category = "sights" if "sights" in said else "rose"
    result = CliRunner().invoke(main, ["clue", category, "--pack", str(tmp_path), "--no-timer"], input="x\n")
    assert result.exit_code != 0 and said in " ".join(result.output.split())


def test_clue_from_a_pipe_echoes_each_answer_and_refuses_a_time_limit_without_the_timer() -> None:
    # Read from a pipe, the typed line is not shown: the next panel began on the prompt's line.
    from click.testing import CliRunner

    from davinci.cli import main

    result = CliRunner().invoke(main, ["clue", "--card", "vitruvian-man-013", "--no-timer"], input="keats\n")
    assert result.exit_code == 0
    assert "(or answer now) keats\n" in result.output and "Right!" in result.output
    result = CliRunner().invoke(main, ["clue", "--no-timer", "--time-limit", "30"])
    assert result.exit_code == 2 and "--no-timer and --time-limit contradict each other" in result.output


def test_a_link_loop_beside_the_manifest_and_a_listed_folder_are_told_not_crashed(tmp_path: Path) -> None:
    # A link loop beside pack.yaml made DV033 an internal error (DV999); `games: ["."]` passed lint,
    # then every other command refused the pack.
    import os

    from davinci.engine.lint.runner import lint_paths

    tutorial = Path(__file__).parent / "packs" / "tutorial"
    (tmp_path / "pig.yaml").write_text((tutorial / "pig.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "pack.yaml").write_text('kind: pack\nid: loops\nname: Loops\nversion: "1.0"\ngames: [pig.yaml]\n',
                                        encoding="utf-8")
    os.symlink("b.yaml", tmp_path / "a.yaml")
    os.symlink("a.yaml", tmp_path / "b.yaml")
    assert lint_paths([str(tmp_path)]) == []
    (tmp_path / "pack.yaml").write_text('kind: pack\nid: loops\nname: Loops\nversion: "1.0"\ngames: [pig.yaml, "."]\n',
                                        encoding="utf-8")
    found = [(p.code, p.message) for p in lint_paths([str(tmp_path)])]
    assert found == [("DV022", "pack 'loops' lists ., which is a folder, not a regular file")]


def test_rewording_comments_and_docs_keeps_the_content_hash(tmp_path: Path) -> None:
    # Adding a comment stranded every save and log of the pack (the hash covered the bytes).
    from davinci.engine.game import load_game

    tutorial = Path(__file__).parent / "packs" / "tutorial"
    text = (tutorial / "pig.yaml").read_text(encoding="utf-8")

    def hash_of(pig: str, folder: str) -> str:
        pack = tmp_path / folder
        pack.mkdir()
        (pack / "pig.yaml").write_text(pig, encoding="utf-8")
        (pack / "pack.yaml").write_text('kind: pack\nid: h\nname: H\nversion: "1.0"\ngames: [pig.yaml]\n',
                                        encoding="utf-8")
        return load_game("pig", packs=[str(pack)]).definition.content_hash

    first = hash_of(text, "a")
    assert hash_of(text + "# a comment\n", "b") == first
    assert hash_of(text.replace("doc: Points needed to win.", "doc: The points that win."), "c") == first
    assert hash_of(text.replace("default: 50", "default: 60"), "d") != first  # a rule changed
    # The name and the screen's display hints are no rules either (an author adding `display.hide`
    # stranded every save).
    assert hash_of(text.replace("name: Pig", "name: Pig Dice"), "e") == first
    assert hash_of(text + "display:\n  hide: [pot]\n", "f") == first


def test_a_doc_key_inside_a_variables_value_is_a_rule_the_hash_covers(tmp_path: Path) -> None:
    # `doc` was stripped from every entry of vars: a start value's `doc` key changed no hash.
    from davinci.engine.game import _rules_of

    data = {"vars": {"m": [1, 2]}, "settings": {"n": {"type": "int", "default": 1, "doc": "words"}}}
    assert _rules_of(data)["settings"]["n"] == {"type": "int", "default": 1}
    assert _rules_of({"vars": {"m": {"doc": 1}}})["vars"] == {"m": {"doc": 1}}


def test_a_variants_own_settings_are_listed_and_named_without_it(tmp_path: Path) -> None:
    # A variant declaring `keys_to_win` (and one changing a default): neither `davinci list` nor its
    # JSON showed them, and `--setting keys_to_win=3` without the variant said only "unknown setting".
    import json

    from click.testing import CliRunner

    from davinci.cli import main
    from davinci.engine.errors import DavinciError
    from davinci.engine.game import load_game

    (tmp_path / "goal.yaml").write_text(
        "kind: variant\nid: goal\nextends: pig\nname: Goal\nsettings:\n"
        "  bonus: {type: int, default: 2, min: 0, max: 9, doc: A new setting.}\n  target: {default: 30}\n",
        encoding="utf-8")
    shutil.copy(Path(__file__).parent / "packs" / "tutorial" / "pig.yaml", tmp_path / "pig.yaml")
    (tmp_path / "pack.yaml").write_text('kind: pack\nid: g\nname: G\nversion: "1.0"\ngames: [pig.yaml]\n'
                                        "variants: [goal.yaml]\n", encoding="utf-8")
    listed = CliRunner().invoke(main, ["list", "--pack", str(tmp_path), "--json"])
    pig = next(g for g in json.loads(listed.output)["games"] if g["id"] == "pig")
    assert pig["variant_details"][0]["settings"] == {"bonus": {"type": "int", "default": 2, "min": 0, "max": 9},
                                                     "target": {"default": 30}}
    text = " ".join(CliRunner().invoke(main, ["list", "--pack", str(tmp_path)]).output.split())
    assert "settings: bonus (new, type \"int\", default 2, min 0, max 9); target (default 30)" in text
    with pytest.raises(DavinciError, match=r"unknown setting 'bonus'.*\(variant goal declares it: add --variant goal\)"):
        load_game("pig", settings={"bonus": 3}, packs=[str(tmp_path)])
    assert load_game("pig", "goal", settings={"bonus": 3}, packs=[str(tmp_path)]).settings["bonus"] == 3


def test_a_deck_the_game_names_is_not_called_unknown_when_another_deck_file_is_broken(tmp_path: Path) -> None:
    # A duplicate card id in an overlay made lint say "unknown deck 'myths'" of a valid deck, and
    # linting the game file alone showed nothing else.
    from davinci.engine.lint.runner import lint_paths

    card = "  - {{id: {id}, difficulty: 1, clue: What burns down as it lights a room?, answer: candle}}\n"
    (tmp_path / "myths.yaml").write_text("kind: deck\nid: myths\nname: Myths\ncategory: myths\ndescription: Myths.\n"
                                         "cards:\n" + card.format(id="myths-001"), encoding="utf-8")
    (tmp_path / "extra.yaml").write_text("kind: deck-overlay\nid: rose-extra\nextends: rose\ncards:\n"
                                         + card.format(id="rose-x-001") + card.format(id="rose-x-001"), encoding="utf-8")
    (tmp_path / "quiz.yaml").write_text(
        "kind: game\nid: quiz\nname: Quiz\nplayers: {min: 2, max: 2}\ncomponents:\n  card:\n"
        "    fields: {id: str, answer: str}\n    from_deck: myths\nzones:\n"
        "  pile: {kind: deck, visibility: hidden, contents: [card]}\nflow:\n  turn:\n    - choose:\n"
        "        options:\n          - action: stop\n            do: [{end_game: true}]\n"
        "end:\n  when: \"false\"\n  winners: \"seats\"\n", encoding="utf-8")
    (tmp_path / "pack.yaml").write_text('kind: pack\nid: q\nname: Q\nversion: "1.0"\ndecks: [myths.yaml, extra.yaml]\n'
                                        "games: [quiz.yaml]\n", encoding="utf-8")
    found = [p.message for p in lint_paths([str(tmp_path / "quiz.yaml")]) if p.code == "DV020"]
    assert len(found) == 1 and found[0].startswith("the deck 'myths' cannot be looked up: the decks did not load (")
    assert "extra.yaml:" in found[0] and "card id 'rose-x-001' is already used" in found[0]


def test_davinci_list_names_the_packs_each_deck_comes_from(tmp_path: Path) -> None:
    # `list --json` gave a deck's cards but not which pack added them (an overlay's cards were
    # counted in the built-in deck with no word of the pack).
    import json

    from click.testing import CliRunner

    from davinci.cli import main

    files = {"o.yaml": _deck("more-rose", "", "more-rose-001", "deck-overlay"),
             "d.yaml": _deck("places", "places", "places-001")}
    make_pack(tmp_path, "kind: pack\nid: extra\nname: Extra\nversion: '1.0'\ndecks: [o.yaml, d.yaml]\n", files)
    result = CliRunner().invoke(main, ["list", "--json", "--pack", str(tmp_path)])
    decks = {d["id"]: d for d in json.loads(result.output)["decks"]}
    assert decks["rose"]["packs"] == ["builtin", "extra"] and decks["rose"]["cards"] == 121
    assert decks["places"]["packs"] == ["extra"] and decks["codex"]["packs"] == ["builtin"]
    table = CliRunner().invoke(main, ["list", "--pack", str(tmp_path)]).output
    assert any(line.split("│")[1:5] and "builtin, extra" in line for line in table.splitlines() if "rose" in line)


def test_a_pack_named_by_a_pipe_is_said_to_be_no_file_or_folder(tmp_path: Path) -> None:
    # A pack.yaml that is a named pipe was "not a pack folder (no pack.yaml)".
    import os

    from davinci.engine.packs import not_a_pack

    pipe = tmp_path / "pack.yaml"
    os.mkfifo(pipe)
    assert "pack.yaml is not a regular file or a folder: name the folder that holds the pack's pack.yaml" \
        in not_a_pack(pipe)
