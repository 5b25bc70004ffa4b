"""Schema validation: every error found, located at the right key or value, in plain words."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import referencing.exceptions

from davinci.engine import schema as schema_mod
from davinci.engine.errors import SchemaError
from davinci.engine.schema import schema_names, schema_text, validate, validator_for, write_schemas
from davinci.engine.yamlload import load_yaml_text

DECK_HEAD = "kind: deck\nid: tiny\nname: Tiny\ncategory: codex\ncards:\n"


def problems(text: str, kind: str = "deck") -> list[tuple[str, int, int, str]]:
    doc = load_yaml_text(text, "f.yaml")
    return [(e.code, e.location.line, e.location.col, e.message)  # type: ignore[union-attr]
            for e in validate(doc, kind)]


def test_valid_deck_has_no_errors() -> None:
    text = DECK_HEAD + "  - {id: tiny-001, difficulty: 1, clue: Wax and wick., answer: candle, letters: 6}\n"
    assert problems(text) == []


def test_unknown_key_points_at_the_key_and_suggests() -> None:
    text = DECK_HEAD + "  - id: tiny-001\n    dificulty: 2\n    clue: x\n    answer: y\n"
    missing, unknown = problems(text)
    assert missing == ("DV013", 6, 5, "missing required key 'difficulty' in item 1 of 'cards'")
    assert unknown == ("DV011", 7, 5, "unknown key 'dificulty' (did you mean 'difficulty'?)")


def test_bad_enum_message() -> None:
    text = DECK_HEAD + "  - {id: tiny-001, difficulty: 7, clue: x, answer: y}\n"
    [(code, _, _, msg)] = problems(text)
    assert code == "DV014"
    assert msg == "'difficulty' must be one of 1, 2, 3, got 7"


def test_wrong_type_is_reported_once() -> None:
    text = DECK_HEAD + "  - {id: tiny-001, difficulty: two, clue: x, answer: y}\n"
    assert [p[0] for p in problems(text)] == ["DV012"]  # not also "not one of 1, 2, 3"


def test_missing_required_points_at_the_object() -> None:
    text = DECK_HEAD + "  - id: tiny-001\n    difficulty: 1\n    clue: x\n"
    [(code, line, col, msg)] = problems(text)
    assert (code, line, col) == ("DV013", 6, 5)
    assert "'answer'" in msg


def test_clue_or_anagram_alternative_is_named_plainly() -> None:
    text = DECK_HEAD + "  - {id: tiny-001, difficulty: 1, answer: y}\n"
    [(code, _, _, msg)] = problems(text)
    assert code == "DV013"
    assert msg == "item 1 of 'cards' needs 'clue', or 'anagram' with 'hint' and 'lengths'"


def test_every_error_is_reported_and_sorted() -> None:
    text = (
        "kind: deck\nid: Bad Id\nname: Tiny\ncategory: codex\nextra: 1\ncards:\n"
        "  - {id: a, difficulty: 9, clue: x, answer: y, lengths: '4,5'}\n"
        "  - {id: b, difficulty: 1, clue: x, answer: y, alternates: [z, z]}\n"
    )
    found = problems(text)
    assert [p[0] for p in found] == ["DV015", "DV011", "DV014", "DV015", "DV016"]
    assert [p[1] for p in found] == sorted(p[1] for p in found)


def test_numeric_answers_are_allowed() -> None:
    text = DECK_HEAD + "  - {id: tiny-001, difficulty: 1, clue: Legs on a spider?, answer: 8, alternates: [eight]}\n"
    assert problems(text) == []


def test_root_must_be_a_mapping() -> None:
    assert problems("- 1\n") == [("DV012", 1, 1, "the document must be a mapping, got a list")]
    assert problems("") == [("DV012", 1, 1, "the document must be a mapping, got empty")]


def test_overlay_refers_to_deck_card_schema() -> None:
    text = ("kind: deck-overlay\nid: more\nextends: codex\ncards:\n"
            "  - {id: more-001, difficulty: 1, clue: x, answer: y, colour: red}\n")
    [(code, _, _, msg)] = problems(text, "deck-overlay")
    assert code == "DV011" and "'colour'" in msg


def test_pack_paths_must_stay_relative() -> None:
    text = "kind: pack\nid: p\nname: P\nversion: '1.0'\ndecks: [ok.yaml, ../up.yaml, /abs.yaml, a/../../b.yaml]\n"
    assert [p[0] for p in problems(text, "pack")] == ["DV015", "DV015", "DV015"]


def test_unknown_schema_name_is_a_clean_error() -> None:
    with pytest.raises(SchemaError):
        validate(load_yaml_text("a: 1\n"), "no-such-kind")


# ---- the schema files themselves ------------------------------------------------------------

MINE = ["common", "pack", "deck", "deck-overlay"]


@pytest.mark.parametrize("name", schema_names())
def test_schema_is_valid_draft_2020_12_with_id(name: str) -> None:
    schema = json.loads(schema_text(name))
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    # No `$id` in the file: its relative `$ref`s lead to the files beside it, wherever they are
    # (with https://davinci.dev/... ids, check-jsonschema went to the network and failed offline).
    assert "$id" not in schema
    assert schema_mod._contents()[f"https://davinci.dev/schemas/{name}.schema.json"]["$id"].endswith(f"/{name}.schema.json")
    validator_for(name)  # every $ref resolves locally


def _properties(node: Any, where: str = "") -> list[tuple[str, Any]]:
    found = []
    if isinstance(node, dict):
        for key, sub in (node.get("properties") or {}).items():
            found.append((f"{where}/{key}", sub))
        for key, value in node.items():
            if key != "properties":
                found.extend(_properties(value, f"{where}/{key}"))
        for key, value in (node.get("properties") or {}).items():
            found.extend(_properties(value, f"{where}/{key}"))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            found.extend(_properties(value, f"{where}/{i}"))
    return found


@pytest.mark.parametrize("name", MINE)
def test_every_property_has_a_description(name: str) -> None:
    schema = json.loads(schema_text(name))
    missing = [path for path, sub in _properties(schema) if "description" not in sub]
    assert missing == []
    for key, sub in schema.get("$defs", {}).items():
        assert "description" in sub, key


@pytest.mark.parametrize("name", ["pack", "deck", "deck-overlay"])
def test_objects_reject_unknown_keys(name: str) -> None:
    schema = json.loads(schema_text(name))
    assert schema["additionalProperties"] is False


def test_remote_refs_are_never_fetched() -> None:
    remote = {"$schema": "https://json-schema.org/draft/2020-12/schema",
              "$ref": "https://example.com/evil.schema.json"}
    validator = jsonschema.Draft202012Validator(remote, registry=schema_mod._registry())
    with pytest.raises(referencing.exceptions.Unresolvable):
        list(validator.iter_errors({}))


def test_write_schemas(tmp_path: Path) -> None:
    written = write_schemas(tmp_path / "out")
    assert sorted(p.name for p in written) == sorted(f"{n}.schema.json" for n in schema_names())
    assert (tmp_path / "out" / "deck.schema.json").read_text() == schema_text("deck")


def test_schema_out_must_be_a_folder_it_can_write(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from davinci.cli import main

    (tmp_path / "file.txt").write_text("mine", encoding="utf-8")
    os.symlink("loop", tmp_path / "loop")
    os.mkfifo(tmp_path / "pipe")
    (tmp_path / "taken").mkdir()
    os.mkfifo(tmp_path / "taken" / "deck.schema.json")
    cases = {
        "pipe": "pipe: not a folder",
        "loop": "loop: Too many levels of symbolic links",
        "taken": "cannot write deck.schema.json: not a regular file",
        "file.txt": "is a file",  # click's own check
    }
    for name, words in cases.items():
        result = CliRunner().invoke(main, ["schema", "--out", str(tmp_path / name)])
        assert result.exit_code == 2, result.output
        assert words in result.output and "internal error" not in result.output
    assert (tmp_path / "file.txt").read_text(encoding="utf-8") == "mine"


# ---- the fast path for long lists agrees with jsonschema --------------------------------------

@pytest.mark.parametrize(
    "card",
    [
        {"id": "a-1", "difficulty": 1, "clue": "x", "answer": "y"},
        {"id": "a-1", "difficulty": True, "clue": "x", "answer": "y"},
        {"id": "a-1", "difficulty": 1.0, "clue": "x", "answer": "y"},
        {"id": "a-1", "difficulty": 1, "clue": "", "answer": "y"},
        {"id": "a-1", "difficulty": 1, "anagram": "x", "hint": "h", "lengths": "(1)", "answer": "y"},
        {"id": "a-1", "difficulty": 1, "anagram": "x", "answer": "y"},
        {"id": "a-1", "difficulty": 1, "clue": "x", "answer": -1},
        {"id": "a-1", "difficulty": 1, "clue": "x", "answer": "y", "alternates": [1, True]},
        {"id": "a-1", "difficulty": 1, "clue": "x", "answer": "y", "alternates": ["z", "z"]},
        {"id": "A 1", "difficulty": 1, "clue": "x", "answer": "y"},
        {"id": "a-1", "difficulty": 1, "clue": "x", "answer": "y", "letters": 0},
        {"id": "a-1", "difficulty": 1, "clue": "x", "answer": None},
        ["not", "a", "card"],
    ],
)
def test_fast_check_never_accepts_what_jsonschema_rejects(card: Any) -> None:
    card_schema = schema_mod._contents()["https://davinci.dev/schemas/deck.schema.json"]["$defs"]["card"]
    check = schema_mod._fast_checker(card_schema)
    assert check is not None
    plain = jsonschema.Draft202012Validator(card_schema, registry=schema_mod._registry())
    truth = plain.evolve(schema={"$ref": "https://davinci.dev/schemas/deck.schema.json#/$defs/card"})
    assert check(card) == truth.is_valid(card)


def test_schema_out_never_writes_through_a_symbolic_link(tmp_path: Path) -> None:
    # Found by a hostile tester (running as root it replaced /etc/passwd through such a link).
    from click.testing import CliRunner

    from davinci.cli import main

    out = tmp_path / "out"
    out.mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_text("precious", encoding="utf-8")
    (out / "game.schema.json").symlink_to(victim)
    result = CliRunner().invoke(main, ["schema", "--out", str(out)])
    assert result.exit_code == 2
    assert "cannot write game.schema.json: a symbolic link (not followed" in result.output
    assert victim.read_text(encoding="utf-8") == "precious"
    # Checked before anything is written: no schema of the set was written beside the link.
    assert sorted(p.name for p in out.iterdir()) == ["game.schema.json"] and "nothing was written" in result.output


def test_schema_out_that_the_system_refuses_is_exit_1_and_keeps_the_old_set(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    # A full disk cut game.schema.json short and left the set half old, half new.
    from click.testing import CliRunner

    import davinci.engine.schema as schema_module
    from davinci.cli import main

    out = tmp_path / "out"
    out.mkdir()
    names = schema_module.schema_names()
    for name in names:
        (out / f"{name}.schema.json").write_text("old", encoding="utf-8")
    real = schema_module.schema_text

    def filling(name: str) -> str:
        if name == names[3]:
            raise OSError(28, "No space left on device")
        return real(name)

    monkeypatch.setattr(schema_module, "schema_text", filling)
    result = CliRunner().invoke(main, ["schema", "--out", str(out)])
    assert result.exit_code == 1 and "No space left on device" in result.output and "no schema was changed" in result.output
    assert sorted(p.name for p in out.iterdir()) == sorted(f"{n}.schema.json" for n in names)  # no leftovers
    assert all(p.read_text(encoding="utf-8") == "old" for p in out.iterdir())


def test_a_misspelt_value_of_a_fixed_list_gets_a_suggestion() -> None:
    # `kind: bord` listed the kinds but, unlike a misspelt key, suggested none.
    from davinci.engine.schema import validate
    from davinci.engine.yamlload import load_yaml_text

    game = load_yaml_text("kind: game\nid: g\nname: G\nplayers: {min: 2, max: 2}\n"
                          "zones: {b: {kind: bord}}\nflow: {turn: []}\nend: {when: 'true', winners: seats}\n", "g.yaml")
    [problem] = [p for p in validate(game, "game") if p.code == "DV014"]
    assert problem.message.endswith("got 'bord'; did you mean 'board'?")


def test_the_published_game_schema_spells_out_flow_steps(tmp_path: Path) -> None:
    # An editor validating a game with schemas/game.schema.json flagged nothing in the flow: a step
    # was "any mapping", so `lgo:` and an option's `privat:` passed as typed.
    import glob

    import yaml
    from referencing import Registry, Resource

    from davinci.engine.schema import step_schema

    written = write_schemas(tmp_path / "out")
    registry = Registry().with_resources([(p.name, Resource.from_contents(json.loads(p.read_text(encoding="utf-8"))))
                                          for p in written])  # each known by its file name, as an editor finds it
    game = json.loads(schema_text("game"))
    # The file holds the step registry's schema (`python -m davinci.engine.schema` writes it again).
    assert game["$defs"]["step"] == step_schema()
    jsonschema.Draft202012Validator.check_schema(game)
    validator = jsonschema.Draft202012Validator(game, registry=registry)
    root = Path(__file__).parent.parent
    games = [yaml.safe_load(Path(f).read_text(encoding="utf-8"))
             for f in sorted(glob.glob(str(root / "games/*/game.yaml")) + glob.glob(str(root / "tests/packs/*/*.yaml")))]
    games = [g for g in games if isinstance(g, dict) and g.get("kind") == "game"]
    assert len(games) >= 10
    for data in games:  # every game the project ships or documents is valid under it
        assert [e.message for e in validator.iter_errors(data)] == [], data["id"]
    pig = next(g for g in games if g["id"] == "pig")
    for bad in ({"lgo": "x"},  # no such step
                {"log": {"txt": "x"}},  # no such key of the step
                {"if": "true", "than": []},  # no such key beside it
                {"choose": {"options": [{"action": "x", "privat": True}]}},  # no such key of an option
                {"for_each": {"in": "seats", "as": "s", "do": [{"lgo": 1}]}}):  # nested steps are steps
        data = json.loads(json.dumps(pig))
        data["flow"]["turn"].append(bad)
        assert list(validator.iter_errors(data)), bad
    # The loader checks steps itself, with better messages than "not valid under any of the schemas".
    assert validate(load_yaml_text(json.dumps(data)), "game") == []


@pytest.mark.parametrize("name", ["   ", "\u3164", "Co\u200bin", "Co\ufeffin", "\u2062", "\u0300", "\U000e0041",
                                  "A\u200eB"])
def test_a_display_name_must_show_something(name: str) -> None:
    # A game named with spaces, a Hangul filler or a zero-width space linted clean; `davinci list`
    # then showed a blank name.
    doc = load_yaml_text(f'kind: pack\nid: p\nname: "{name}"\nversion: "1.0"\n')
    errors = validate(doc, "pack")
    assert [e.code for e in errors] == ["DV015"] and "shows something" in errors[0].message


@pytest.mark.parametrize("name", ["Café ☕", "\u05e9\u05dc\u05d5\u05dd", "Zoe\u0301", "a"])
def test_display_names_in_any_script_are_fine(name: str) -> None:
    assert validate(load_yaml_text(f'kind: pack\nid: p\nname: "{name}"\nversion: "1.0"\n'), "pack") == []


@pytest.mark.parametrize("path", ["game.yaml/", "game.yaml/.", "C:\\\\x.yaml", "sub\\\\g.yaml"])
def test_a_pack_lists_files_by_forward_slash_paths(path: str) -> None:
    # `game.yaml/` quietly loaded game.yaml; `C:\x.yaml` was refused with a hint about '/' and '..' alone.
    errors = validate(load_yaml_text(f'kind: pack\nid: p\nname: P\nversion: "1.0"\ngames: ["{path}"]\n'), "pack")
    assert [e.code for e in errors] == ["DV015"] and "with forward slashes" in errors[0].message


def test_a_number_of_thousands_of_digits_is_said_to_be_too_large_not_text() -> None:
    # `max_turns: 999...9` (5,000 digits) was "must be a whole number, got text '9999...'".
    from davinci.engine.schema import validate
    from davinci.engine.yamlload import load_yaml_text

    text = ("kind: game\nid: g\nname: G\nplayers: {min: 2, max: 2}\nflow: {turn: []}\n"
            "end: {when: 'true', winners: seats, max_turns: " + "9" * 5000 + "}\n")
    problems = validate(load_yaml_text(text, "g.yaml"), "game")
    said = [p.message for p in problems if "max_turns" in p.message]
    assert said == ["'max_turns' must be a whole number, got a number of 5,000 digits, far too large"], problems
