"""Signed links (edge.links): the link's query is written as `urlencode` writes it, whatever it holds, and
a link opens with its own signature only."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode, urlsplit

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.errors import NotPermitted
from edge import links

PATH = "/api/v1/payments/special-offers/graph"
IDS = {"carId": "740e54e99729b162b1e0456a", "offerId": "2c7947ead1802a52b14f5d57", "format": "csv"}

texts = st.text(st.characters(codec="utf-8"), max_size=12)


@given(pairs=st.lists(st.tuples(texts, texts), max_size=6))
def test_a_query_is_written_as_urlencode_writes_it(pairs: list[tuple[str, str]]) -> None:
    # Given any names and values (ids and digits, or characters a URL must quote)
    # When the link's query is written
    # Then it is urlencode's very text
    assert links._query_string(pairs) == urlencode(pairs)


def test_a_signed_link_opens_with_its_signature_and_not_with_another() -> None:
    # Given a signed link to the schedule file
    link = links.signed_link("https://api.example.com/prod", PATH, IDS)
    query = dict(parse_qsl(urlsplit(link).query))
    assert link.startswith(f"https://api.example.com/prod{PATH}?carId=740e54e99729b162b1e0456a&offerId=")
    # When it is opened as it is, then it is let in
    links.check_signed_link(PATH, query)
    # And when its query was changed, it is refused
    with pytest.raises(NotPermitted):
        links.check_signed_link(PATH, {**query, "offerId": "0" * 24})
