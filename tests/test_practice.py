"""`davinci clue` practice mode, driven by scripted answers and a fake clock."""

from __future__ import annotations

import tempfile
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from rich.console import Console

from davinci.engine.decks import Card, Deck, draw_practice_card, load_decks
from davinci.engine.errors import DavinciError, RefError, SchemaError, UsageError
from davinci.engine.packs import load_pack
from davinci.engine.practice import EXIT_INTERRUPTED, run_practice
from davinci.engine.rng import Rng

RIDDLE = Card(id="num-1", deck="numbers", difficulty=1, answer=8, clue="Legs on a spider?")
COUPLET = Card(
    id="obj-1",
    deck="objects",
    difficulty=2,
    answer="candle",
    alternates=("taper",),
    clue="I weep wax tears and lose my height,\nbut while I shrink I give you light.",
    letters=6,
)
ANAGRAM = Card(
    id="ana-1",
    deck="anagrams",
    difficulty=3,
    answer="Mona Lisa",
    anagram="Salon Mia",
    hint="She smiles in the Louvre",
    lengths="(4,4)",
)

DECKS = {
    "numbers": Deck("numbers", "Numbers", "numbers", "Riddles with numeric answers.", (RIDDLE,)),
    "objects": Deck("objects", "Objects", "objects", "Couplets about things.", (COUPLET,)),
    "anagrams": Deck("anagrams", "Anagrams", "anagrams", "Anagrams of famous works.", (ANAGRAM,)),
}


def scripted(*answers: str | type[BaseException]) -> Callable[[str], str]:
    """An input function that replays answers, raising an exception class where one is given."""
    it: Iterator[str | type[BaseException]] = iter(answers)

    def read(_prompt: str) -> str:
        item = next(it, EOFError)
        if isinstance(item, str):
            return item
        raise item()

    return read


class FakeClock:
    """A clock that advances by a fixed step each time it is read."""

    def __init__(self, step: float) -> None:
        self.now = 1000.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def play(
    category: str | None,
    *answers: str | type[BaseException],
    timer: bool = True,
    step: float = 5.0,
    difficulty: int | None = None,
) -> tuple[int, str]:
    console = Console(record=True, width=80, color_system=None)
    code = run_practice(
        category,
        difficulty,
        timer,
        7,
        console,
        scripted(*answers),
        decks=DECKS,
        clock=FakeClock(step),
    )
    return code, console.export_text()


def test_a_right_answer_is_praised_and_the_solution_shown() -> None:
    code, out = play("objects", "Candle")
    assert code == 0
    assert "I weep wax tears" in out and "(6 letters)" in out
    assert "Right" in out
    assert "Solution: candle" in out
    assert "Also accepted: taper" in out


def test_alternates_and_number_words_count_as_right() -> None:
    assert "Right" in play("objects", "a taper")[1]
    assert "Right" in play("numbers", "eight")[1]


def test_a_wrong_answer_is_called_wrong() -> None:
    code, out = play("numbers", "six")
    assert code == 0
    assert "Wrong." in out and "Solution: 8" in out


def test_an_answer_after_the_time_limit_is_too_late_even_if_right() -> None:
    code, out = play("numbers", "8", step=61.0)
    assert code == 0
    assert "Too late" in out and "Right" not in out
    assert "Solution: 8" in out


def test_without_the_timer_there_is_no_limit() -> None:
    code, out = play("numbers", "8", timer=False, step=500.0)
    assert "Right!" in out and "Too late" not in out


class Keys:
    """Keys typed at given seconds of a fake clock (the stand-in for race.RawTerminal)."""

    def __init__(self, events: list[tuple[float, str]]) -> None:
        self.now = 0.0
        self.events = events

    def __enter__(self) -> Keys:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def clock(self) -> float:
        return self.now

    def key(self, timeout: float) -> str | None:
        if self.events and self.events[0][0] <= self.now + timeout:
            self.now, k = max(self.now, self.events[0][0]), self.events.pop(0)[1]
            return k
        self.now += timeout
        return None


def live(category: str, events: list[tuple[float, str]]) -> str:
    import io

    console = Console(file=io.StringIO(), width=80, color_system=None)
    keys = Keys(events)
    assert run_practice(category, None, True, 7, console, scripted(), decks=DECKS, clock=keys.clock, terminal=keys) == 0
    return console.file.getvalue()


def test_at_a_terminal_the_answer_is_typed_under_a_live_countdown() -> None:
    out = live("numbers", [(2.0, "9"), (2.5, "\x7f"), (3.0, "8"), (4.0, "\n")])
    assert "\r 60.0 s left > " in out and "\r 57.0 s left > 8" in out  # redrawn as it ticks, backspace works
    assert "Right in 4.0 s!" in out and "Solution: 8" in out


def test_the_countdown_ends_the_answer_when_the_time_is_up() -> None:
    out = live("numbers", [(59.0, "8"), (75.0, "\n")])
    assert "\r  0.0 s left > 8" in out
    assert "Too late: 60.0 s, the limit is 60 s." in out and "Right" not in out


def test_an_anagram_is_shown_alone_until_enter_starts_the_clock() -> None:
    shown: list[str] = []
    console = Console(record=True, width=80, color_system=None)

    def read(_prompt: str) -> str:
        shown.append(console.export_text(clear=False))
        return "" if len(shown) == 1 else "mona lisa"

    code = run_practice("anagrams", None, True, 1, console, read, decks=DECKS, clock=FakeClock(1.0))
    assert code == 0
    before_clock, after_clock = shown
    assert "Salon Mia" in before_clock
    assert "Louvre" not in before_clock and "(4,4)" not in before_clock
    assert "Louvre" in after_clock and "(4,4)" in after_clock
    assert "Right" in console.export_text()


def test_end_of_input_ends_cleanly_with_the_solution() -> None:
    code, out = play("numbers", EOFError)
    assert code == 0
    assert "No answer given" in out and "Solution: 8" in out


def test_ctrl_c_exits_130() -> None:
    code, out = play("anagrams", KeyboardInterrupt)
    assert code == EXIT_INTERRUPTED
    assert "Interrupted" in out


def test_an_empty_answer_is_no_answer() -> None:
    assert "No answer." in play("numbers", "  ")[1]


def test_unknown_category_lists_the_categories() -> None:
    with pytest.raises(DavinciError) as info:
        play("riddles", "8")
    assert "anagrams, numbers, objects" in info.value.message


def test_category_is_matched_case_insensitively() -> None:
    assert "Right" in play("NUMBERS", "8")[1]


def test_no_category_picks_a_deck_at_random_reproducibly() -> None:
    assert play(None, "x")[1] == play(None, "x")[1]


def test_difficulty_filters_cards_and_decks() -> None:
    out = play(None, "Mona Lisa", EOFError, difficulty=3)[1]
    assert "Anagrams" in out
    with pytest.raises(UsageError):
        play("numbers", "8", difficulty=3)


def test_draw_practice_card_is_seeded() -> None:
    deck = Deck("d", "D", "d", "", tuple(Card(f"c{i}", "d", 1 + i % 3, str(i), clue="?") for i in range(30)))
    first = [draw_practice_card(deck, Rng(5), None).id for _ in range(3)]
    assert len(set(first)) == 1
    assert all(draw_practice_card(deck, Rng(s), 2).difficulty == 2 for s in range(20))


# --- Loading decks from packs (engine/decks.py) ------------------------------------------------


def write_pack(root: Path, files: dict[str, str]) -> Path:
    """A pack folder listing `files` as decks."""
    root.mkdir(parents=True, exist_ok=True)
    listing = "".join(f"  - {name}\n" for name in files)
    (root / "pack.yaml").write_text(
        f"kind: pack\nid: {root.name}\nname: Test pack\nversion: '1.0'\ndecks:\n{listing}", encoding="utf-8"
    )
    for name, text in files.items():
        (root / name).write_text(textwrap.dedent(text), encoding="utf-8")
    return root


BASE_DECK = """\
    kind: deck
    id: riddles
    name: Riddles
    category: riddles
    description: Riddles.
    cards:
      - {id: riddles-001, difficulty: 1, clue: "Legs on a spider?", answer: 8}
      - id: riddles-002
        difficulty: 3
        anagram: Salon Mia
        hint: Smiling in Paris
        lengths: "(4,4)"
        answer: Mona Lisa
        alternates: [La Gioconda]
"""


def test_load_decks_builds_frozen_cards() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        pack = load_pack(write_pack(Path(tmp) / "base", {"riddles.yaml": BASE_DECK}))
        decks = load_decks([pack])
    deck = decks["riddles"]
    assert [c.id for c in deck.cards] == ["riddles-001", "riddles-002"]
    spider, mona = deck.cards
    assert spider.answer == 8 and spider.timed_reveal() == ["Legs on a spider?"] and not spider.two_step
    assert mona.two_step and mona.first_reveal() == ["Salon Mia"]
    assert mona.timed_reveal() == ["Smiling in Paris", "(4,4)"]
    assert mona.accepted == ("Mona Lisa", "La Gioconda")
    assert mona.location.line == 8
    with pytest.raises(AttributeError):
        mona.answer = "x"  # type: ignore[misc]


def test_an_overlay_pack_adds_cards_to_a_base_deck() -> None:
    overlay = """\
        kind: deck-overlay
        id: more-riddles
        extends: riddles
        cards:
          - {id: extra-001, difficulty: 2, clue: "Sides of a hexagon?", answer: 6}
    """
    with tempfile.TemporaryDirectory() as tmp:
        base = load_pack(write_pack(Path(tmp) / "base", {"riddles.yaml": BASE_DECK}))
        extra = load_pack(write_pack(Path(tmp) / "extra", {"more.yaml": overlay}))
        deck = load_decks([base, extra])["riddles"]
    assert [c.id for c in deck.cards] == ["riddles-001", "riddles-002", "extra-001"]
    assert deck.card("extra-001").deck == "riddles"
    assert len(deck.overlays) == 1


def test_an_overlay_reusing_a_card_id_does_not_load() -> None:
    overlay = """\
        kind: deck-overlay
        id: more-riddles
        extends: riddles
        cards:
          - {id: riddles-001, difficulty: 2, clue: "Sides of a hexagon?", answer: 6}
    """
    with tempfile.TemporaryDirectory() as tmp:
        base = load_pack(write_pack(Path(tmp) / "base", {"riddles.yaml": BASE_DECK}))
        extra = load_pack(write_pack(Path(tmp) / "extra", {"more.yaml": overlay}))
        with pytest.raises(RefError) as info:
            load_decks([base, extra])
    assert info.value.location is not None and info.value.location.line == 5
    assert "riddles-001" in info.value.message


def test_an_overlay_of_an_unknown_deck_does_not_load() -> None:
    overlay = """\
        kind: deck-overlay
        id: more
        extends: ridles
        cards:
          - {id: extra-001, difficulty: 2, clue: "Sides of a hexagon?", answer: 6}
    """
    with tempfile.TemporaryDirectory() as tmp:
        base = load_pack(write_pack(Path(tmp) / "base", {"riddles.yaml": BASE_DECK}))
        extra = load_pack(write_pack(Path(tmp) / "extra", {"more.yaml": overlay}))
        with pytest.raises(RefError, match="unknown deck 'ridles'"):
            load_decks([base, extra])


def test_an_invalid_deck_is_a_schema_error_with_its_position() -> None:
    broken = BASE_DECK.replace("difficulty: 1,", "difficulty: 7,")
    with tempfile.TemporaryDirectory() as tmp:
        pack = load_pack(write_pack(Path(tmp) / "base", {"riddles.yaml": broken}))
        with pytest.raises(SchemaError) as info:
            load_decks([pack])
    assert info.value.location is not None and info.value.location.line == 7


def test_practice_reads_installed_decks_from_extra_packs() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = write_pack(Path(tmp) / "base", {"riddles.yaml": BASE_DECK})
        decks = load_decks([load_pack(folder)])
    console = Console(record=True, width=80, color_system=None)
    code = run_practice("riddles", 1, False, 3, console, scripted("eight"), decks=decks)
    assert code == 0 and "Right" in console.export_text()


def test_the_countdown_line_never_wraps_even_with_wide_letters() -> None:
    from rich.cells import cell_len

    from davinci.engine.race import countdown_line

    keys = Keys([(1.0 + i / 10, "漢") for i in range(30)] + [(5.0, "\n")])
    out: list[str] = []
    text, _, late = countdown_line(keys, 60, out.append, keys.clock, width=40)
    assert text == "漢" * 30 and not late
    assert max(cell_len(part.split("\r")[-1].replace("\x1b[K", "")) for part in out) <= 40


def test_a_card_is_practised_by_its_id_to_try_a_new_one() -> None:
    # A new card came up once in 121 draws: an author looped over seeds to see it.
    console = Console(record=True, width=80, color_system=None)
    code = run_practice(None, None, False, 7, console, scripted("candle"), decks=DECKS, card_id="OBJ-1")
    out = console.export_text()
    assert code == 0 and "I weep wax tears" in out and "Right" in out
    with pytest.raises(UsageError, match="no clue card 'obj-2' \\(did you mean 'obj-1'\\?\\)"):
        run_practice(None, None, False, 7, console, scripted("x"), decks=DECKS, card_id="obj-2")
    # A category or difficulty that disagrees with the card is refused; one that agrees is fine.
    with pytest.raises(UsageError, match="card obj-1 is in the deck .*, not in 'numbers'"):
        run_practice("numbers", None, False, 7, console, scripted("x"), decks=DECKS, card_id="obj-1")
    with pytest.raises(UsageError, match="card obj-1 has difficulty 2, not 3"):
        run_practice(None, 3, False, 7, console, scripted("x"), decks=DECKS, card_id="obj-1")


def test_the_real_decks_take_a_card_number_without_its_zeros_and_agree_on_the_category() -> None:
    # `--card codex-3` suggested codex-113; `davinci clue codex --card codex-003` was refused.
    console = Console(record=True, width=80, color_system=None)
    with pytest.raises(UsageError, match="no clue card 'codex-3' \\(did you mean 'codex-003'\\?\\)"):
        run_practice(None, None, False, 7, console, scripted("x"), card_id="codex-3")
    assert run_practice("codex", None, False, 7, console, scripted("?"), card_id="codex-003") == 0
    assert "No answer." in console.export_text()  # punctuation alone is no answer


def test_an_answer_typed_while_the_anagram_is_shown_alone_counts_from_the_card() -> None:
    # As in `davinci play`: the wait was spent solving it, so it is timed from the card, not lost.
    code, out = play("anagrams", "mona lisa", step=4.0)
    assert code == 0
    assert "Right in 4.0 s!" in out and "Your answer" not in out
    assert "Louvre" in out  # the rest of the card is still shown
    # An answer there is judged like any other, and too late is too late.
    assert "Wrong." in play("anagrams", "salon mia")[1]
    assert "Too late: 61.0 s" in play("anagrams", "mona lisa", step=61.0)[1]


def test_a_category_may_be_the_decks_name_and_a_near_miss_is_suggested() -> None:
    decks = {**DECKS, "logic-key": Deck("logic-key", "Logic Key", "logic-key", "Puzzles.", (RIDDLE,))}
    console = Console(record=True, width=80, color_system=None)
    for name in ("Logic Key", "logic key", "LOGIC_KEY"):
        assert run_practice(name, None, False, 7, console, scripted("8"), decks=decks) == 0
    assert "Right" in console.export_text()
    with pytest.raises(UsageError, match="unknown clue category 'logic'; did you mean 'logic-key'\\?"):
        run_practice("logic", None, False, 7, console, scripted("8"), decks=decks)


def test_a_named_card_shows_no_seed_and_a_missing_one_says_what_to_check() -> None:
    console = Console(record=True, width=80, color_system=None)
    run_practice(None, None, False, 7, console, scripted("candle"), decks=DECKS, card_id="obj-1")
    assert "card obj-1\n" in console.export_text() and "seed" not in console.export_text()
    # A well-formed id nobody has: most often a card of a pack not loaded.
    with pytest.raises(UsageError, match="no clue card 'obj-more-001'.*; a card of your own pack needs --pack FOLDER"):
        run_practice(None, None, False, 7, console, scripted("x"), decks=DECKS, card_id="obj-more-001")
    with pytest.raises(UsageError, match="no clue card 'what'; card ids look like num-1$"):
        run_practice(None, None, False, 7, console, scripted("x"), decks=DECKS, card_id="what")


def test_clue_input_cut_at_a_line_too_long_exits_1() -> None:
    # `davinci play` exits 1 for the same input; `clue` said "No answer given." and exited 0.
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", "from davinci.cli import main; main()", "clue", "--seed", "1"],
                          input="x" * 70000 + "\n", capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and "an input line longer than 65,536 characters" in " ".join(done.stdout.split())


def test_a_deck_named_with_accents_is_found_without_them_and_listed_by_name() -> None:
    # `davinci clue francais` did not find the deck named Français (answers fold accents; deck
    # names did not), and the choices listed ids alone (`fr`), not the names players know.
    decks = {**DECKS, "fr": Deck("fr", "Français", "fr", "Devinettes.", (RIDDLE,))}
    console = Console(record=True, width=80, color_system=None)
    for name in ("francais", "Français", "FRANCAIS"):
        assert run_practice(name, None, False, 7, console, scripted("8"), decks=decks) == 0
    with pytest.raises(UsageError, match=r"choose one of: .*fr \(Français\)"):
        run_practice("nothing", None, False, 7, console, scripted("8"), decks=decks)


def test_quit_typed_as_a_practice_answer_is_no_answer() -> None:
    # `quit` was judged ("Wrong."), and `exit` was right for a card whose answer is Exit.
    console = Console(record=True, width=80, color_system=None)
    assert run_practice(None, None, False, 7, console, scripted("quit"), decks=DECKS, card_id="obj-1") == 0
    text = console.export_text()
    assert "No answer ('quit' stops)." in text and "Wrong" not in text and "Solution:" in text
