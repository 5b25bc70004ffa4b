"""`davinci clue` practice mode, driven by scripted answers and a fake clock."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from davinci.engine.decks import Card, Deck, draw_practice_card
from davinci.engine.errors import DavinciError, UsageError
from davinci.engine.practice import EXIT_INTERRUPTED, run_practice
from davinci.engine.rng import Rng
from rich.console import Console

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
    assert "I weep wax tears" in out and "(6)" in out
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
