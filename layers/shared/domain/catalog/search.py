"""Name search that an index serves: names and search terms folded to one spelling, matched by word prefix.

A car is found by the start of any word of its name (in any locale) or of its brand's name, typed in
Latin or Cyrillic: "Кобальт" (Russian), "Kobalt" (Uzbek Latin), "Кобалт" (Uzbek Cyrillic) and "cob"
all find the Cobalt; "шевр" finds the Chevrolets. Both sides are folded alike: lowercased, Cyrillic
transliterated, accents and apostrophes dropped, and the letters the two alphabets spell differently
brought to one ("c" as "k" or "s", "g" before "e" as "j", "x" as "ks", "y" as "i", doubled letters
once). Every prefix of every folded word is stored with the car (`searchPrefixes`, a multikey index),
so a search is an index lookup of its words, never a scan. `domain.catalog.store` derives the field
(`car_search_prefixes`, `refresh_search_prefixes`) for whoever writes cars and brands: the seed, the
catalog import, and `python -m ops indexes` for documents written before it.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable

# A word longer than this is matched by its first MAX_PREFIX letters.
MAX_PREFIX = 20

CYRILLIC = {
    "а": "a", "б": "b", "в": "v", "г": "g", "д": "d", "е": "e", "ё": "io", "ж": "j", "з": "z", "и": "i",
    "й": "i", "к": "k", "л": "l", "м": "m", "н": "n", "о": "o", "п": "p", "р": "r", "с": "s", "т": "t",
    "у": "u", "ф": "f", "х": "h", "ц": "ts", "ч": "ch", "ш": "sh", "щ": "sh", "ъ": "", "ы": "i", "ь": "",
    "э": "e", "ю": "iu", "я": "ia",
    # Uzbek Cyrillic
    "ў": "o", "қ": "k", "ғ": "g", "ҳ": "h",
}  # fmt: skip
# Latin spellings brought to one, in this order (after transliteration, so they fold Cyrillic too).
LATIN_FOLDS = (
    ("dj", "j"),
    ("ph", "f"),
    ("ch", "sh"),
    ("ck", "k"),
    ("c(?=[eiy])", "s"),
    ("g(?=[ei])", "j"),
    ("c", "k"),
    ("x", "ks"),
    ("q", "k"),
    ("w", "v"),
    ("y", "i"),
    ("kh", "h"),
    ("ts", "s"),
    (r"(.)\1+", r"\1"),
)
# Uzbek Latin's oʻ and gʻ, and the apostrophes typed for them, are letters' marks, not word breaks.
APOSTROPHES = r"['`ʻʼ‘’]"
WORD = r"[a-z0-9]+"
_TRANSLITERATION = str.maketrans(CYRILLIC)


@functools.cache
def _patterns() -> tuple[re.Pattern[str], re.Pattern[str], list[tuple[re.Pattern[str], str]]]:
    """The compiled apostrophes, word and folds, on first use: most functions that import the catalog's
    store never search."""
    folds = [(re.compile(pattern), replacement) for pattern, replacement in LATIN_FOLDS]
    return re.compile(APOSTROPHES), re.compile(WORD), folds


def fold(text: str) -> str:
    """The text in the one spelling names and terms are compared in."""
    apostrophes, _, folds = _patterns()
    lowered = apostrophes.sub("", unicodedata.normalize("NFKC", text).casefold())
    latin = "".join(char for char in unicodedata.normalize("NFKD", lowered.translate(_TRANSLITERATION))
                    if not unicodedata.combining(char))  # fmt: skip
    for pattern, replacement in folds:
        latin = pattern.sub(replacement, latin)
    return latin


def words(text: str) -> list[str]:
    """The folded words of a name or a search term, each cut to MAX_PREFIX letters."""
    return [word[:MAX_PREFIX] for word in _patterns()[1].findall(fold(text))]


def search_prefixes(names: Iterable[str]) -> list[str]:
    """What a document stores to be found by these names: every prefix of every folded word, sorted."""
    return sorted({word[:end] for name in names for word in words(name) for end in range(1, len(word) + 1)})


def matching(term: str) -> dict[str, dict[str, list[str]]]:
    """The condition a document's `searchPrefixes` meets when every word of `term` starts a word of its
    names (a term without a letter or digit matches nothing: `$all` of nothing)."""
    return {"searchPrefixes": {"$all": list(dict.fromkeys(words(term)))}}
