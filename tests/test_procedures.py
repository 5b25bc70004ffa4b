"""Procedures (`call`): the names a procedure binds are its own, so a caller's loop goes on
with its own values after the call, and a procedure may call itself from inside a loop."""

from __future__ import annotations

from pathlib import Path

from helpers import write_game_pack

from davinci.engine.game import load_game

GAME = """\
kind: game
id: calls
name: Calls
players: {min: 2, max: 2}
turn_vars:
  depth: 0
flow:
  turn:
    - for_each:
        in: "['a', 'b']"
        as: x
        do:
          - call: inner
          - log: "caller {x}"
    - call: walk
    - choose:
        options:
          - action: stop
            do: [{end_game: true}]
  procedures:
    inner:
      - for_each: {in: "['z']", as: x, do: [{log: "inner {x}"}]}
      - choose: {options: [{action: ok, do: []}]}
    walk:
      - set: {depth: depth + 1}
      - for_each:
          in: "[1, 2]"
          as: item
          do:
            - log: "depth {depth} item {item}"
            - if: "depth < 2"
              then: [{call: walk}]
      - set: {depth: depth - 1}
end:
  when: "false"
  winners: "seats"
"""


def _lines(tmp_path: Path, saved: bool = False) -> list[str]:
    """The log lines up to the last decision; `saved`: through a save at each decision inside
    `inner` (taken while the call's frame holds the caller's x)."""
    game = load_game("calls", packs=[write_game_pack(tmp_path, "calls", GAME)])
    st = game.new_state(2, seed=1)
    while [str(a) for a in st.legal_actions(st.current_seats[0])] == ["ok"]:
        if saved:
            st = game.state_from_json(st.to_json())
        st.apply(st.current_seats[0], "ok")
    return [text for _, text in st.events if not text.endswith(": ok")]


def test_a_callers_loop_keeps_its_own_variable_when_the_procedure_binds_the_same_name(tmp_path: Path) -> None:
    # `inner`'s loop variable x overwrote the caller's x: the caller logged "caller z" twice.
    lines = _lines(tmp_path)
    assert lines[:4] == ["inner z", "caller a", "inner z", "caller b"]


def test_a_procedure_calling_itself_inside_a_loop_finishes_every_loop(tmp_path: Path) -> None:
    # The inner call used the same loop place: the outer loop stopped after its first item.
    lines = _lines(tmp_path)
    assert lines[4:] == ["depth 1 item 1", "depth 2 item 1", "depth 2 item 2",
                         "depth 1 item 2", "depth 2 item 1", "depth 2 item 2"]


def test_a_save_taken_inside_a_call_keeps_the_callers_names(tmp_path: Path) -> None:
    assert _lines(tmp_path / "saved", saved=True) == _lines(tmp_path / "live")


OWN_SET = """\
kind: game
id: owns
name: Owns
players: {min: 2, max: 2}
TURN_VARS
flow:
  turn:
    - set: {moved: false}
    - call: move
    - if: moved
      then: [{log: "moved"}]
    - choose:
        options:
          - action: stop
            do: [{end_game: true}]
  procedures:
    move:
      - set: {moved: true}
end:
  when: "false"
  winners: "seats"
"""


def test_lint_warns_when_a_caller_expects_to_see_a_local_its_procedure_set(tmp_path: Path) -> None:
    # The caller's `moved` stays false through the call: a game written as if it changed is told
    # to pass the value back through turn_vars.
    from davinci.engine.lint.runner import lint_paths

    own = lint_paths([write_game_pack(tmp_path / "own", "owns", OWN_SET.replace("TURN_VARS\n", ""))])
    assert [(p.code, p.location.line if p.location else 0) for p in own if p.code == "DV064"] == [("DV064", 17)]  # the procedure's set
    assert "declare 'moved' under turn_vars" in next(p.message for p in own if p.code == "DV064")
    shared = lint_paths([write_game_pack(tmp_path / "shared", "owns", OWN_SET.replace("TURN_VARS", "turn_vars: {moved: false}"))])
    assert "DV064" not in [p.code for p in shared]
    game = load_game("owns", packs=[str(tmp_path / "shared")])
    assert "moved" in [text for _, text in game.new_state(2, seed=0).events]


def test_lint_follows_a_procedure_into_the_procedures_it_calls(tmp_path: Path) -> None:
    # The turn calls `outer`, which calls `move`, which sets `moved`: no warning, and the turn's
    # `moved` silently stayed false.
    from davinci.engine.lint.runner import lint_paths

    nested = OWN_SET.replace("TURN_VARS\n", "").replace("    - call: move\n", "    - call: outer\n", 1).replace(
        "  procedures:\n", "  procedures:\n    outer:\n      - call: move\n")
    problems = [p for p in lint_paths([write_game_pack(tmp_path, "owns", nested)]) if p.code == "DV064"]
    assert len(problems) == 1 and "'moved' set in procedure 'move' is the procedure's own" in problems[0].message
