"""Headers put on an answer: the cached reads' and the edge's own, in one pass."""

from __future__ import annotations

from edge.caching import revalidate
from edge.headers import combined, set_headers


def test_combined_headers_are_what_setting_one_set_then_the_other_puts_on() -> None:
    # Given a cached read's headers and the edge's own, both with a Vary
    cache = {"ETag": 'W/"1"', "Cache-Control": "private, max-age=60", "Vary": "Accept-Language, fingerprint"}
    edge = {
        "Content-Language": "ru",
        "Access-Control-Allow-Origin": "https://app.example",
        "Vary": "Origin, fingerprint",
    }
    # When they are combined and put on once, or put on one after the other
    once = set_headers({"multiValueHeaders": {"Content-Type": ["application/json"]}}, combined(cache, edge))
    twice = set_headers(set_headers({"multiValueHeaders": {"Content-Type": ["application/json"]}}, cache), edge)
    # Then the answer has the same headers in the same order, Vary naming each value once
    assert list(once["multiValueHeaders"].items()) == list(twice["multiValueHeaders"].items())
    assert once["multiValueHeaders"]["Vary"] == ["Accept-Language, fingerprint, Origin"]


def test_a_read_the_client_has_is_answered_304_with_its_cache_headers() -> None:
    # Given a 200 answer and its ETag
    answer = {"statusCode": 200, "multiValueHeaders": {"Content-Type": ["application/json"]}, "body": "{}"}
    _, headers = revalidate({}, dict(answer), b"{}", "private, max-age=60")
    # When the client asks again naming that ETag
    revalidated, again = revalidate({"if-none-match": headers["ETag"]}, dict(answer), b"{}", "private, max-age=60")
    # Then the answer is a 304 without a body, with the same ETag, Cache-Control and Vary
    assert (revalidated["statusCode"], revalidated["body"], revalidated["multiValueHeaders"]) == (304, "", {})
    assert (
        again
        == headers
        == {
            "ETag": headers["ETag"],
            "Cache-Control": "private, max-age=60",
            "Vary": "Accept-Language, fingerprint",
        }
    )


def test_an_answer_is_hashed_from_the_utf8_it_was_written_in() -> None:
    from edge.app import BodyWriter

    # Given a writer that wrote a Russian answer, then another answer
    writer = BodyWriter()
    first = writer({"name": "Ташкент", "items": [1, 2]})
    second = writer({"name": "Самарканд"})
    # When each text is asked for as UTF-8
    # Then both are their UTF-8; the last one's the very bytes written (the same object each time), an
    # earlier one's encoded again
    assert writer.utf8(second) == second.encode()
    assert writer.utf8(second) is writer.utf8(second)
    assert writer.utf8(first) == first.encode()
    assert first == '{"name":"Ташкент","items":[1,2]}'
