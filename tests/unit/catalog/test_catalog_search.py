"""Name search by folded word prefixes: the spellings a buyer in Uzbekistan types find the model."""

from __future__ import annotations

import pytest

from domain.catalog.search import MAX_PREFIX, matching, search_prefixes, words


@pytest.mark.parametrize(
    ("name", "typed"),
    [
        ("Cobalt", "Кобальт"),  # Russian
        ("Cobalt", "Kobalt"),  # Uzbek Latin
        ("Cobalt", "Кобалт"),  # Uzbek Cyrillic
        ("Cobalt", "cob"),
        ("Chevrolet", "Шевр"),
        ("Nexia", "Нексия"),
        ("Lacetti", "Ласетти"),
        ("Chery", "Чери"),
        ("Onix", "Оникс"),
        ("Gentra", "Джентра"),
        ("BYD", "бид"),
        ("Oʻzbekiston", "Ўзбекистон"),
        ("Oʻzbekiston", "o'zbek"),
    ],
)
def test_a_spelling_in_either_alphabet_starts_the_name(name: str, typed: str) -> None:
    # Given the prefixes a document named `name` stores
    stored = set(search_prefixes([name]))
    # When a buyer types `typed`
    wanted = matching(typed)["searchPrefixes"]["$all"]
    # Then every word typed is one of them
    assert wanted
    assert set(wanted) <= stored


def test_every_word_of_every_name_is_found_by_its_start_only() -> None:
    # Given a car named in two locales and its brand
    stored = set(search_prefixes(["Tiggo 7 Pro", "Тигго 7 Про", "Chery"]))
    # When its words' starts and an inner part are looked up
    # Then the starts are stored (case and alphabet aside), the inner part is not
    assert {"t", "tig", "7", "pro", "sheri"} <= stored
    assert "igo" not in stored


def test_a_term_without_letters_or_digits_matches_nothing() -> None:
    # Given terms of punctuation only; when they become conditions; then `$all` of nothing matches no document
    assert matching("!!! ...") == {"searchPrefixes": {"$all": []}}
    assert matching(".*") == {"searchPrefixes": {"$all": []}}


def test_long_words_are_cut_to_the_longest_prefix_stored() -> None:
    # Given a very long word; when it is folded; then it is cut to the prefix length stored
    assert len(words("abcdefghij" * 5)[0]) == MAX_PREFIX
