"""What a `choose` step offers: `if` decides whether an option is offered at all, `when` filters
each combination of its arguments; on an option without arguments `when` works like `if`."""

from __future__ import annotations

from pathlib import Path

from davinci.engine.game import load_game

GAME = """kind: game
id: options
name: Options
description: Options with and without arguments, filtered.
players: {min: 2, max: 2}
bots: [random]
flow:
  turn:
    - choose:
        prompt: Pick
        options:
          - action: go
            do: []
          - action: never
            when: "false"
            do: []
          - action: later
            when: "turn > 1"
            do: []
          - action: odd
            args: {n: "range(1, 6)"}
            when: "n % 2 == 1"
            do: []
end:
  when: "turn > 3"
  winners: seats
"""


def legal_texts(tmp_path: Path, turns: int) -> list[str]:
    (tmp_path / "pack.yaml").write_text('kind: pack\nid: opts\nname: Opts\nversion: "1.0.0"\ngames: [g.yaml]\n',
                                        encoding="utf-8")
    (tmp_path / "g.yaml").write_text(GAME, encoding="utf-8")
    st = load_game("options", packs=[str(tmp_path)]).new_state(2, seed=1)
    for _ in range(turns):
        st.apply(st.current_seats[0], "go")
    return [str(a) for a in st.legal_actions(st.current_seats[0])]


def test_when_filters_arguments_and_options_without_them(tmp_path: Path) -> None:
    # `never` used to be offered: `when` was not checked on an option without arguments.
    assert legal_texts(tmp_path, 0) == ["go", "odd 1", "odd 3", "odd 5"]
    assert legal_texts(tmp_path, 1) == ["go", "later", "odd 1", "odd 3", "odd 5"]
