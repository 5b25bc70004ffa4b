"""Deck content lint rules (DV201-DV214): each with a failing and a passing example.

Each test lints a small deck written inline and asserts the code, line and column of every
problem the deck rules report (only the deck rules run here; the examples are schema-valid).
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping

import pytest

from davinci.engine.lint import deck_rules
from davinci.engine.lint.context import LintContext, Project
from davinci.engine.lint.registry import Problem, get_rule
from davinci.engine.schema import validate
from davinci.engine.yamlload import Doc, load_yaml_text

HEADER = "kind: deck\nid: test\nname: Test\ncategory: test\ncards:\n"


def deck(cards: str, path: str = "deck.yaml") -> Doc:
    return load_yaml_text(HEADER + textwrap.dedent(cards), path)


def lint(doc: Doc, kind: str = "deck", base: Mapping[str, Doc] | None = None) -> list[tuple[str, int, int]]:
    """(code, line, col) of every deck-rule problem, sorted."""
    return sorted((p.code, p.location.line, p.location.col) for p in run(doc, kind, base))


def run(doc: Doc, kind: str = "deck", base: Mapping[str, Doc] | None = None) -> list[Problem]:
    assert validate(doc, kind) == [], "test decks must be schema-valid"
    project = Project()
    for base_doc in (base or {}).values():
        project.add(base_doc, "deck", None)
    project.add(doc, kind, None)
    ctx = LintContext(doc, kind, None, project)
    problems: list[Problem] = []
    for kinds, check in deck_rules.DECK_RULES.values():
        if kind in kinds:
            problems.extend(check(ctx))
    return problems


def messages(doc: Doc, kind: str = "deck", base: Mapping[str, Doc] | None = None) -> list[str]:
    return [p.message for p in sorted(run(doc, kind, base))]


# Line numbers below count from the top of the file: the header takes lines 1-5, so the
# first card starts on line 6.


def test_rules_are_registered_with_docs_and_examples() -> None:
    codes = [f"DV2{n:02d}" for n in range(1, 17)]
    for code in codes:
        r = get_rule(code)
        assert r is not None, code
        assert r.check is not None
        assert "Failing" in r.doc and "Passing" in r.doc and "```yaml" in r.doc, code
        assert set(r.kinds) <= {"deck", "deck-overlay"}
    assert get_rule("DV201").severity == "error"  # type: ignore[union-attr]
    assert get_rule("DV202").severity == "warning"  # type: ignore[union-attr]


def test_a_clean_deck_has_no_problems() -> None:
    doc = deck("""\
        - id: test-001
          difficulty: 1
          clue: |
            I weep wax tears and lose my height,
            but while I shrink I give you light.
          answer: candle
          letters: 6
        - id: test-002
          difficulty: 2
          clue: |
            My face has hands but cannot wave;
            I count the hours from crib to grave.
          answer: clock
          alternates: [wristwatch]
    """)
    assert lint(doc) == []


# --- DV201 duplicate-card-id -----------------------------------------------------------------


def test_dv201_duplicate_card_id_points_at_the_second_id() -> None:
    failing = deck("""\
        - {id: test-001, difficulty: 1, clue: "Legs on a spider?", answer: 8}
        - {id: test-001, difficulty: 1, clue: "Sides of a hexagon?", answer: 6}
    """)
    assert lint(failing) == [("DV201", 7, 8)]
    assert "already used on line 6" in messages(failing)[0]
    passing = deck("""\
        - {id: test-001, difficulty: 1, clue: "Legs on a spider?", answer: 8}
        - {id: test-002, difficulty: 1, clue: "Sides of a hexagon?", answer: 6}
    """)
    assert lint(passing) == []


# --- DV202 duplicate-answer ------------------------------------------------------------------


def test_dv202_duplicate_answers_compare_like_answer_checking() -> None:
    failing = deck("""\
        - {id: test-001, difficulty: 1, clue: "Paris museum of glass pyramids", answer: The Louvre}
        - {id: test-002, difficulty: 1, clue: "Home of the Winged Victory", answer: louvre}
        - {id: test-003, difficulty: 1, clue: "Highest of peaks", answer: Mount Everest, alternates: [Everest]}
        - {id: test-004, difficulty: 1, clue: "Top of the world", answer: Everest}
    """)
    assert lint(failing) == [("DV202", 7, 77), ("DV202", 9, 67)]
    assert "card 'test-001' (line 6)" in messages(failing)[0]
    passing = deck("""\
        - {id: test-001, difficulty: 1, clue: "Paris museum of glass pyramids", answer: The Louvre}
        - {id: test-002, difficulty: 1, clue: "Madrid's great gallery", answer: The Prado}
    """)
    assert lint(passing) == []


def test_dv202_an_alternate_repeating_its_own_answer() -> None:
    failing = deck("""\
        - {id: test-001, difficulty: 1, clue: "Highest of peaks", answer: Mount Everest, alternates: [mount everest!]}
    """)
    assert lint(failing) == [("DV202", 6, 95)]


def test_dv202_numbers_are_duplicates_by_value() -> None:
    failing = deck("""\
        - {id: test-001, difficulty: 1, clue: "Legs on a spider?", answer: 8}
        - {id: test-002, difficulty: 1, clue: "Arms on an octopus?", answer: 8}
    """)
    assert lint(failing) == [("DV202", 7, 70)]


def test_dv202_spaces_hyphens_and_plurals_make_no_new_answer_but_a_number_is_not_its_digits_as_text() -> None:
    # Answer checking took "Stone henge" for Stonehenge and "bells" for bell, and lint did not.
    failing = deck("""\
        - {id: test-001, difficulty: 1, clue: "Ring of stones", answer: Stonehenge}
        - {id: test-002, difficulty: 1, clue: "Old stones", answer: Stone henge}
        - {id: test-003, difficulty: 1, clue: "Sand timer", answer: hourglass}
        - {id: test-004, difficulty: 1, clue: "Egg timer", answer: hour-glass}
        - {id: test-005, difficulty: 1, clue: "It rings", answer: bells}
        - {id: test-006, difficulty: 1, clue: "It chimes", answer: bell}
        - {id: test-007, difficulty: 1, clue: "Dial it", answer: 911, alternates: ["9-1-1"]}
        - {id: test-008, difficulty: 1, clue: "Port", answer: Tangier, alternates: [Tangiers]}
    """)
    assert [code_line[:2] for code_line in lint(failing)] == [("DV202", 7), ("DV202", 9), ("DV202", 11), ("DV202", 13)]
    assert messages(failing)[-1].endswith("(a plural and its singular: a reply of either matches both)")


# --- DV203 card-text -------------------------------------------------------------------------


def test_dv203_blank_clue_hint_or_anagram() -> None:
    failing = deck("""\
        - {id: test-001, difficulty: 1, clue: "   ", answer: 8}
        - {id: test-002, difficulty: 1, anagram: Salon Mia, hint: " ... ", lengths: "(4,4)", answer: Mona Lisa}
    """)
    assert lint(failing) == [("DV203", 6, 39), ("DV203", 7, 59)]
    passing = deck("""\
        - {id: test-001, difficulty: 1, clue: "Legs on a spider?", answer: 8}
        - {id: test-002, difficulty: 1, anagram: Salon Mia, hint: Smiling in Paris, lengths: "(4,4)", answer: Mona Lisa}
    """)
    assert lint(passing) == []


def test_dv203_an_answer_or_alternate_with_no_letter_or_digit() -> None:
    # "  ", "?!" or "-" passed lint, and every answer typed was judged wrong.
    failing = deck("""\
        - {id: test-001, difficulty: 1, clue: "Legs on a spider?", answer: "?!"}
        - {id: test-002, difficulty: 1, clue: "Legs on an ant?", answer: 6, alternates: [hexapod, "-"]}
    """)
    assert lint(failing) == [("DV203", 6, 68), ("DV203", 7, 91)]


# --- DV204-DV206 anagrams --------------------------------------------------------------------


def vm(anagram: str, lengths: str, answer: str) -> Doc:
    return deck(f"""\
        - id: test-001
          difficulty: 2
          anagram: {anagram}
          hint: Oil on poplar, much smiled about
          lengths: "{lengths}"
          answer: {answer}
    """)


def test_dv204_anagram_letters_must_be_the_answers() -> None:
    failing = vm("Salon Mea", "(4,4)", "Mona Lisa")
    assert lint(failing) == [("DV204", 8, 12)]
    assert "extra 'e', missing 'i'" in messages(failing)[0]
    assert lint(vm("Salon Mia", "(4,4)", "Mona Lisa")) == []


def test_dv204_ignores_case_spaces_punctuation_and_accents() -> None:
    assert lint(vm('"EMILY, BRONTË!"', "(5,6)", "Emily Brontë")) == [("DV206", 8, 12)]
    assert lint(vm('"Nimbly to ere"', "(5,6)", "Emily Bronte")) == []


def test_dv205_word_lengths_must_match_the_answer() -> None:
    failing = vm("Salon Mia", "(3,5)", "Mona Lisa")
    assert lint(failing) == [("DV205", 10, 12)]
    assert "which is (4,4)" in messages(failing)[0]


def test_dv205_hyphens_and_apostrophes_do_not_break_words() -> None:
    assert lint(vm("Named Rips", "(9)", "Spider-Man")) == []
    assert lint(vm("Named Rips", "(6,3)", "Spider-Man")) == [("DV205", 10, 12)]
    assert lint(vm("Eleven Canoes", "(6,6)", "Ocean's Eleven")) == []


def test_dv206_anagram_must_not_be_the_answer() -> None:
    assert lint(vm("Mon-A-Lisa", "(4,4)", "Mona Lisa")) == [("DV206", 8, 12)]
    assert lint(vm("Salon Mia", "(4,4)", "Mona Lisa")) == []


# --- DV207 numeric-answer --------------------------------------------------------------------


def test_dv207_numeric_decks_need_integer_answers() -> None:
    failing = deck("""\
        - {id: test-001, difficulty: 1, clue: "Sides of a hexagon?", answer: 6}
        - {id: test-002, difficulty: 1, clue: "Legs on a spider?", answer: "eight"}
        - {id: test-003, difficulty: 1, clue: "Keys on a piano?", answer: 88}
    """)
    assert lint(failing) == [("DV207", 7, 68)]
    assert "write 8 without quotes" in messages(failing)[0]
    passing = deck("""\
        - {id: test-001, difficulty: 1, clue: "Sides of a hexagon?", answer: 6}
        - {id: test-002, difficulty: 1, clue: "Legs on a spider?", answer: 8}
    """)
    assert lint(passing) == []


def test_dv207_an_alternate_of_a_number_answer_must_say_the_same_number() -> None:
    # In any deck: the alternate is accepted as it stands, so "25 legs" would win a card whose answer is 24.
    failing = deck("""\
        - {id: test-001, difficulty: 1, clue: "Legs on three spiders?", answer: 24, alternates: [24 legs, 25 legs, 9999]}
        - {id: test-002, difficulty: 1, clue: "Painted the Sistine ceiling", answer: Michelangelo}
    """)
    assert lint(failing) == [("DV207", 6, 99), ("DV207", 6, 108)]
    assert "alternate '25 legs' says 25, but the answer is 24" in messages(failing)[0]
    passing = deck("""\
        - {id: test-001, difficulty: 1, clue: "Legs on three spiders?", answer: 24,
           alternates: [24 legs, two dozen, 9-1-1, twenty-fourth, two hundred twentieth]}
    """)
    assert lint(passing) == []


def test_dv207_a_deck_of_text_answers_is_not_numeric() -> None:
    doc = deck("""\
        - {id: test-001, difficulty: 1, clue: "A famous novel by Orwell", answer: "1984"}
        - {id: test-002, difficulty: 1, clue: "Painted the Sistine ceiling", answer: Michelangelo}
    """)
    assert lint(doc) == []


# --- DV208 letter-count ----------------------------------------------------------------------


def test_dv208_letters_must_count_the_answer() -> None:
    failing = deck("""\
        - {id: test-001, difficulty: 1, clue: "Wax that weeps", answer: candle, letters: 7}
    """)
    assert lint(failing) == [("DV208", 6, 82)]
    passing = deck("""\
        - {id: test-001, difficulty: 1, clue: "Wax that weeps", answer: candle, letters: 6}
        - {id: test-002, difficulty: 1, clue: "Cover for rain", answer: "rain-coat", letters: 8}
        - {id: test-003, difficulty: 1, clue: "Auf mir fahren Autos", answer: "Straße", letters: 6}
        - {id: test-004, difficulty: 1, clue: "Il bat pour toi", answer: "cœur", letters: 4}
    """)
    assert lint(passing) == []  # ß and œ are one letter each, as the author and the player see them


# --- DV209-DV210 couplets --------------------------------------------------------------------


def test_dv209_couplet_decks_need_two_lines() -> None:
    failing = deck("""\
        - id: test-001
          difficulty: 1
          clue: |
            I weep wax tears and lose my height,
            but while I shrink I give you light.
          answer: candle
        - id: test-002
          difficulty: 1
          clue: I have a face and hands but never wave.
          answer: clock
    """)
    assert lint(failing) == [("DV209", 14, 9)]


def test_dv209_a_number_card_in_a_couplet_deck_is_no_couplet() -> None:
    doc = deck("""\
        - id: test-001
          difficulty: 1
          clue: |
            I weep wax tears and lose my height,
            but while I shrink I give you light.
          answer: candle
        - {id: test-002, difficulty: 1, clue: "Combien de jours dans une semaine ?", answer: 7}
    """)
    assert lint(doc) == []


def test_dv218_an_answer_word_in_two_scripts_is_an_error() -> None:
    failing = deck("""\
        - {id: test-001, difficulty: 1, clue: "Столица России", answer: "Москв\\u0061"}
        - {id: test-002, difficulty: 1, clue: "Самовар", answer: чай, alternates: ["чaй"]}
        - {id: test-005, difficulty: 1, clue: "Кот", answer: "саt"}
        - {id: test-006, difficulty: 1, clue: "Судно", answer: "пapoxoд"}
        - {id: test-007, difficulty: 1, clue: "Страна", answer: "Украïна"}
    """)
    problems = run(failing)
    assert [(p.code, p.location.line) for p in problems] == [("DV218", n) for n in (6, 7, 8, 9, 10)]
    assert "the word 'Москвa' mixes Cyrillic and Latin letters ('a' is Latin)" in problems[0].message
    passing = deck("""\
        - {id: test-001, difficulty: 1, clue: "Столица России", answer: Москва, alternates: [Moskva, "Москва 2024"]}
        - {id: test-002, difficulty: 1, clue: "Greek letter", answer: "α and ω"}
        - {id: test-003, difficulty: 1, clue: "Noodles", answer: ラーメン, alternates: [食べる]}
        - {id: test-004, difficulty: 1, clue: "A hard ray", answer: γ-ray, alternates: [πr², λmax, ΔT]}
    """)
    assert lint(passing) == []  # (no look-alike letter: kana with kanji, a Greek letter beside a word)


def test_dv209_one_line_riddles_are_not_a_couplet_deck() -> None:
    doc = deck("""\
        - {id: test-001, difficulty: 1, clue: "I have keys but open no locks", answer: piano}
        - {id: test-002, difficulty: 1, clue: "I have a face and hands but never wave", answer: clock}
    """)
    assert lint(doc) == []


def couplet(first: str, second: str) -> Doc:
    return deck(f"""\
        - id: test-001
          difficulty: 1
          clue: |
            {first}
            {second}
          answer: candle
    """)


def test_dv210_couplet_lines_must_rhyme() -> None:
    failing = couplet("I weep wax tears and lose my height,", "but while I shrink I warm the room.")
    assert lint(failing) == [("DV210", 10, 35)]
    assert "'height' and 'room' do not rhyme" in messages(failing)[0]
    assert lint(couplet("I weep wax tears and lose my height,", "but while I shrink I give you light.")) == []


def test_dv210_eye_rhymes_and_repeated_words_are_not_rhymes() -> None:
    assert lint(couplet("What I bring is warmth and love;", "a flame is what I always move.")) == [
        ("DV210", 10, 30)
    ]
    assert lint(couplet("I burn at night,", "and give you night.")) == [("DV210", 10, 18)]


def test_dv210_unknown_words_fall_back_to_spelling() -> None:
    assert deck_rules.words_rhyme("zorbulate", "gate")
    assert not deck_rules.words_rhyme("zorbulate", "moon")
    assert deck_rules.words_rhyme("night", "knight")


def test_dv210_a_deck_in_another_language_rhymes_by_spelling_in_any_alphabet() -> None:
    # The English dictionary read 'maison' and 'raison' as English names that do not rhyme, and
    # Cyrillic vowels were no vowels at all ('кот' and 'рот' did not rhyme).
    french = load_yaml_text(HEADER.replace("cards:", "language: fr\ncards:") + textwrap.dedent("""\
        - id: test-001
          difficulty: 1
          clue: |
            On m'habite toute l'année dans la maison,
            et l'on me quitte sans avoir raison.
          answer: toit
    """), "fr.yaml")
    assert lint(french) == []
    assert lint(load_yaml_text(french.text.replace("language: fr\n", ""), "en.yaml")) == [("DV210", 10, 34)]
    russian = deck("""\
        - id: test-001
          difficulty: 1
          clue: |
            Усатый, полосатый, ловит мышь мой кот,
            и молоко лакает, открывая рот.
          answer: кот
    """)
    assert [c for c, _, _ in lint(russian)] == ["DV211"]  # (rhymes; only the answer in the clue is wrong)


# --- DV211 answer-in-clue --------------------------------------------------------------------


def test_dv211_the_answer_must_not_appear_in_its_clue() -> None:
    failing = deck("""\
        - id: test-001
          difficulty: 1
          clue: |
            Light a candle's wick tonight;
            I will give you all my light.
          answer: candle
    """)
    assert lint(failing) == [("DV211", 9, 13)]
    passing = deck("""\
        - id: test-001
          difficulty: 1
          clue: |
            Light the wick on me tonight;
            I will give you all my light.
          answer: candle
    """)
    assert lint(passing) == []


def test_dv211_multi_word_answers_alternates_and_hints() -> None:
    failing = deck("""\
        - {id: test-001, difficulty: 1, clue: "The peak of Mount Everest", answer: Mount Everest}
        - {id: test-002, difficulty: 1, clue: "Roof of the world, or Sagarmatha", answer: K2, alternates: [Sagarmatha]}
        - id: test-003
          difficulty: 1
          anagram: Salon Mia
          hint: Not Mona Lisa at all
          lengths: "(4,4)"
          answer: Mona Lisa
    """)
    assert lint(failing) == [("DV211", 6, 52), ("DV211", 7, 62), ("DV211", 11, 13)]
    passing = deck("""\
        - {id: test-001, difficulty: 1, clue: "A mountainous ever-rest", answer: Mount Everest}
    """)
    assert lint(passing) == []


def test_dv211_numbers_are_found_as_digits_or_words() -> None:
    failing = deck("""\
        - {id: test-001, difficulty: 1, clue: "Eight legs has the spider", answer: 8}
        - {id: test-002, difficulty: 1, clue: "Half of 12 is what?", answer: 6}
        - {id: test-003, difficulty: 1, clue: "Twenty-one minus one?", answer: 20}
    """)
    assert lint(failing) == [("DV211", 6, 40)]
    passing = deck("""\
        - {id: test-001, difficulty: 1, clue: "Often, a spider has how many legs?", answer: 10}
    """)
    assert lint(passing) == []


def test_dv211_a_plural_or_a_word_split_by_an_invisible_character_still_gives_the_answer_away() -> None:
    # "candles" for candle passed, and so did "cl<zero-width space>ock", which reads "clock".
    failing = deck("""\
        - {id: test-001, difficulty: 1, clue: "Birthday cakes hold these", answer: candle, alternates: [cake]}
        - {id: test-002, difficulty: 1, clue: "A cl\u200bock without hands", answer: clock}
    """)
    assert [p[0] for p in lint(failing)] == ["DV211", "DV211"]
    # located where the word starts in the text as written, invisible characters counted
    before = deck("""\
        - {id: test-001, difficulty: 1, clue: "A \u200b\u200bsoft \u00adcandle", answer: candle}
    """)
    plain = deck("""\
        - {id: test-001, difficulty: 1, clue: "A xxsoft xcandle", answer: candle}
    """)
    assert lint(before) == [("DV211", 6, 50)] and lint(plain) == []  # column 50: "candle", past 3 invisible
    assert lint(deck("""\
        - {id: test-001, difficulty: 1, clue: "Candlelight at dinner", answer: candle}
    """)) == []  # a longer word is no give-away


# --- DV212 card-line-length ------------------------------------------------------------------


def test_dv212_lines_must_fit_an_80_column_terminal() -> None:
    long_line = "word " * 15 + "toolong"  # 82 characters
    failing = deck(f"""\
        - id: test-001
          difficulty: 1
          clue: |
            short line
            {long_line}
            third line
          answer: abacus
    """)
    assert lint(failing) == [("DV212", 10, 81)]
    ok_line = "word " * 15 + "ok"  # 77 with the trailing space trimmed -> 77? keep it at 76
    passing = deck(f"""\
        - id: test-001
          difficulty: 1
          clue: |
            {ok_line[:76]}
          answer: abacus
    """)
    assert lint(passing) == []


def test_dv212_counts_screen_columns_not_characters() -> None:
    # 45 wide letters take 90 columns: the line wrapped in the card's panel though lint passed it.
    failing = deck("""\
        - id: test-001
          difficulty: 1
          clue: |
            """ + "\u77f3" * 45 + """ stone
          answer: abacus
    """)
    assert [p[0] for p in lint(failing)] == ["DV212"]


def test_dv212_a_tab_in_card_text_is_refused_and_counted_as_the_screen_draws_it() -> None:
    # 70 characters with a tab passed, and the card panel wrapped the line.
    doc = deck("""\
        - {id: test-001, difficulty: 1, clue: "Je suis jaune et courbe,\\tle singe me pele", answer: banane}
    """)
    problems = run(doc)
    assert [(p.code, p.location.line, p.location.col) for p in problems] == [("DV212", 6, 64)]  # at the \\t
    assert "a tab in the clue: write spaces" in problems[0].message
    wide = deck("""\
        - {id: test-001, difficulty: 1, clue: "%s\\tend", answer: banane}
    """ % ("x" * 74))
    said = sorted(p.message.split(";")[0] for p in run(wide))
    assert said == ["a tab in the clue: write spaces (the screen draws a tab as up to 8 columns, and the line wraps)",
                    "clue line is 83 columns wide"]  # the line as wide as it is drawn (74 + 6 + 3 columns)


def test_dv212_a_line_separator_breaks_a_line_as_the_card_panel_does() -> None:
    # Two 50-column lines joined by U+2028 were measured as one line of 101 columns.
    clue = "a" * 50 + "\\u2028" + "b" * 50
    doc = deck(f"""\
        - {{id: test-001, difficulty: 1, clue: "{clue}", answer: banane}}
    """)
    assert [code for code, _, _ in lint(doc) if code == "DV212"] == []


def test_dv212_too_many_lines() -> None:
    body = "\n".join(f"            line {n}" for n in range(13))
    doc = deck(f"""\
        - id: test-001
          difficulty: 1
          clue: |
{body}
          answer: abacus
    """)
    assert lint(doc) == [("DV212", 8, 9)]


# --- DV213-DV214 overlays --------------------------------------------------------------------


BASE = load_yaml_text(
    HEADER
    + "  - {id: test-001, difficulty: 1, clue: 'Weeps wax', answer: candle}\n"
    + "  - {id: test-002, difficulty: 1, clue: 'Tells the hours', answer: clock, alternates: [timepiece]}\n",
    "base.yaml",
)

OVERLAY_HEADER = "kind: deck-overlay\nid: extra\nextends: test\ncards:\n"


def overlay(cards: str) -> Doc:
    return load_yaml_text(OVERLAY_HEADER + textwrap.dedent(cards), "overlay.yaml")


def test_dv213_overlay_card_ids_must_not_clash_with_the_base_deck() -> None:
    failing = overlay("""\
        - {id: test-001, difficulty: 1, clue: "Hangs in the hall to light the way", answer: lantern}
    """)
    assert lint(failing, "deck-overlay", {"test": BASE}) == [("DV213", 5, 8)]
    assert "base.yaml:6:5" in messages(failing, "deck-overlay", {"test": BASE})[0]
    passing = overlay("""\
        - {id: extra-001, difficulty: 1, clue: "Hangs in the hall to light the way", answer: lantern}
    """)
    assert lint(passing, "deck-overlay", {"test": BASE}) == []


def test_dv214_overlay_answers_should_not_clash_with_the_base_deck() -> None:
    failing = overlay("""\
        - {id: extra-001, difficulty: 1, clue: "Tick and tock", answer: Timepiece}
    """)
    assert lint(failing, "deck-overlay", {"test": BASE}) == [("DV214", 5, 65)]


def test_dv213_dv214_an_overlay_also_clashes_with_earlier_overlays_of_the_deck() -> None:
    first = load_yaml_text(
        OVERLAY_HEADER.replace("id: extra", "id: first")
        + "  - {id: first-001, difficulty: 1, clue: 'Hangs in the hall', answer: lantern}\n",
        "first.yaml",
    )
    second = overlay("""\
        - {id: first-001, difficulty: 1, clue: "A lamp in a case", answer: Lantern}
    """)
    project = Project()
    for doc, kind in ((BASE, "deck"), (first, "deck-overlay"), (second, "deck-overlay")):
        project.add(doc, kind, None)
    found = []
    for kinds, check in deck_rules.DECK_RULES.values():
        if "deck-overlay" in kinds:
            found += [(p.code, p.message) for p in check(LintContext(second, "deck-overlay", None, project))]
            assert list(check(LintContext(first, "deck-overlay", None, project))) == []
    assert sorted(code for code, _ in found) == ["DV213", "DV214"]
    assert all("first.yaml:5:5" in message for _, message in found)


def test_dv216_a_card_id_of_another_deck_is_refused_in_decks_and_overlays() -> None:
    other = load_yaml_text(HEADER.replace("id: test", "id: other").replace("category: test", "category: other")
                           + "  - {id: extra-001, difficulty: 1, clue: 'Hangs in the hall', answer: lantern}\n",
                           "other.yaml")
    clash = overlay("""\
        - {id: test-003, difficulty: 1, clue: "Rings at dawn", answer: alarm}
        - {id: extra-001, difficulty: 1, clue: "Flies a kite in a storm", answer: Franklin}
    """)
    project = Project()
    for doc, kind in ((BASE, "deck"), (other, "deck"), (clash, "deck-overlay")):
        project.add(doc, kind, None)
    rule = deck_rules.DECK_RULES["DV216"][1]
    found = list(rule(LintContext(clash, "deck-overlay", None, project)))
    assert [(p.location.line, p.location.col) for p in found] == [(6, 8)]
    assert "card id 'extra-001' is already used in deck 'other' (card 'extra-001' at other.yaml:6:5)" in found[0].message
    # The deck loaded first is not reported; a deck's own ids are DV201's business.
    assert list(rule(LintContext(BASE, "deck", None, project))) == []
    assert list(rule(LintContext(other, "deck", None, project))) == []


def test_overlay_rules_skip_an_unknown_base_deck() -> None:
    doc = overlay("""\
        - {id: test-001, difficulty: 1, clue: "Tick and tock", answer: clock}
    """)
    assert lint(doc, "deck-overlay", {}) == []


def test_overlay_style_is_inferred_with_the_base_deck() -> None:
    numeric_base = load_yaml_text(
        HEADER + "  - {id: test-001, difficulty: 1, clue: 'Legs on a spider?', answer: 8}\n"
    )
    doc = overlay("""\
        - {id: extra-001, difficulty: 1, clue: "Sides of a hexagon?", answer: "six"}
        - {id: extra-002, difficulty: 1, clue: "Wheels on a tricycle?", answer: 3}
    """)
    assert lint(doc, "deck-overlay", {"test": numeric_base}) == [("DV207", 5, 71)]


@pytest.mark.parametrize("code", [f"DV2{n:02d}" for n in range(1, 15)])
def test_rule_docs_name_the_rule(code: str) -> None:
    r = get_rule(code)
    assert r is not None and r.name and r.doc.splitlines()[0].endswith(".")


def test_dv215_an_answer_the_prompt_reads_as_a_command() -> None:
    failing = deck("""\
        - {id: test-001, difficulty: 1, clue: "What the green sign over the door says", answer: Exit}
        - {id: test-002, difficulty: 1, clue: "What a tired player types", answer: quit}
    """)
    assert lint(failing) == [("DV215", 6, 89), ("DV215", 7, 76)]
    # `pass` passes at the prompt, and a blank alternate cannot be typed (an empty answer passes).
    more = deck("""\
        - {id: test-001, difficulty: 1, clue: "What a ball does between friends", answer: Pass}
        - {id: test-002, difficulty: 1, clue: "What a tired player types", answer: quit, alternates: ["  "]}
    """)
    assert [code for code, *_ in lint(more) if code == "DV215"] == ["DV215", "DV215"]
    passing = deck("""\
        - {id: test-001, difficulty: 1, clue: "What the green sign over the door says", answer: Exit,
           alternates: [way out]}
    """)
    assert lint(passing) == []


@pytest.mark.parametrize(("a", "b"), [("here", "near"), ("here", "clear"), ("year", "here"), ("appear", "here"),
                                      ("there", "where"), ("tour", "poor"), ("years", "fears")])
def test_vowels_the_dictionary_splits_before_r_still_rhyme(a: str, b: str) -> None:
    # DV210 said "'here' and 'near' do not rhyme" (the dictionary writes IY R and IH R), failing CI
    # under --strict on good couplets.
    assert deck_rules.words_rhyme(a, b)
    assert not deck_rules.words_rhyme("here", "hair")


def test_dv217_a_card_with_both_a_clue_and_an_anagram() -> None:
    # The anagram was shown and the clue never: a jumble of letters over an empty panel.
    failing = deck("""\
        - {id: test-001, difficulty: 2, clue: "I keep the days in rows", letters: 8, anagram: Ran cedal, answer: calendar}
    """)
    assert [code for code, _, _ in lint(failing)] == ["DV217"]
