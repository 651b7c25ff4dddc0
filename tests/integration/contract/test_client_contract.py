"""What a partner's client needs beyond the bodies, through the local API Gateway: headers a browser may
read, rate-limit budgets, cached reads revalidated by ETag, misspelt query parameters and malformed path
ids named in a 400, and a schedule file that opens as a plain link."""

from __future__ import annotations

import requests

from domain.identity.settings import get_identity_settings
from edge.links import SIGNATURE
from tests.factories import ApiClient, common_headers

WEB_APP = "http://localhost:5173"
LOGIN = "/api/v1/auth/login"
BRANDS = "/api/v1/brands"
BODY_TYPES = "/api/v1/filters/bodies"
DOCUMENTS = "/api/v1/documents"
RATE_LIMIT_HEADERS = ("RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset")


def error_fields(response: requests.Response) -> list[str]:
    return [error["field"] for error in response.json().get("errors") or []]


def test_a_browser_may_read_the_headers_a_client_acts_on(api: ApiClient) -> None:
    # When a web app on an allowed origin signs in
    login = api.post(LOGIN, json={"phone": "+998901112233"}, headers={"Origin": WEB_APP}, auth=False)
    # Then it may read the replay flag, the rate-limit budget, the language and the ETag
    exposed = {name.strip() for name in login.headers["Access-Control-Expose-Headers"].split(",")}
    assert {"Idempotent-Replayed", "Retry-After", *RATE_LIMIT_HEADERS, "Content-Language", "ETag"} <= exposed


def test_a_login_says_how_much_of_its_rate_limit_is_left(api: ApiClient) -> None:
    # Given the per-person login limit of the deployment
    limit = get_identity_settings().login_rate_limit
    # When the same person signs in twice
    first = api.post(LOGIN, json={"phone": "+998901112244"}, auth=False)
    second = api.post(LOGIN, json={"phone": "+998901112244"}, auth=False)
    # Then each answer names the tightest limit it counted against, the second with one less left
    assert first.status_code == second.status_code == 201
    assert int(first.headers["RateLimit-Limit"]) == limit
    assert int(second.headers["RateLimit-Remaining"]) == int(first.headers["RateLimit-Remaining"]) - 1
    assert 0 < int(second.headers["RateLimit-Reset"]) <= get_identity_settings().login_rate_window_seconds
    # And a route without a rate limit says nothing of one
    assert not set(RATE_LIMIT_HEADERS) & set(api.get(BRANDS).headers)


def test_catalog_and_dictionary_reads_are_revalidated_with_their_etag(seeded_api: ApiClient) -> None:
    for path in (BODY_TYPES, DOCUMENTS):
        # Given an answer the app keeps
        kept = seeded_api.get(path)
        assert kept.status_code == 200
        etag = kept.headers["ETag"]
        assert kept.headers["Cache-Control"] == "private, max-age=60"
        # When the app asks again with its ETag
        again = seeded_api.get(path, headers={"If-None-Match": etag})
        # Then the answer is 304 without a body, naming the same ETag
        assert again.status_code == 304, again.text
        assert again.content == b""
        assert again.headers["ETag"] == etag
        # And another language is another answer (localized names), with another ETag
        russian = seeded_api.get(path, headers={"accept-language": "ru", "If-None-Match": etag})
        assert russian.status_code == 200
        assert russian.headers["ETag"] != etag
        assert "Accept-Language" in russian.headers["Vary"]


def test_a_misspelt_query_parameter_is_400_naming_it(seeded_api: ApiClient) -> None:
    # When a client filters cars by `brand` (the parameter is `brands`)
    response = seeded_api.get("/api/v1/cars", params={"brand": "5f0c6a3e8d1b4c479a572f3e"})
    # Then it is told, rather than answered every car
    assert response.status_code == 400, response.text
    assert error_fields(response) == ["query.brand"]


def test_a_path_id_the_router_cannot_read_is_400_naming_it(seeded_api: ApiClient) -> None:
    # When a car is asked for by an id holding a quote
    response = seeded_api.get("/api/v1/cars/%22")
    # Then the id is malformed (400 naming path.id), not the route unknown
    assert response.status_code == 400, response.text
    assert error_fields(response) == ["path.id"]


def test_the_schedule_file_opens_as_a_plain_link_until_it_expires(seeded_api: ApiClient) -> None:
    # Given a special offer's graph, asked for by a signed-in app
    seeded_api.login()
    offers = seeded_api.get("/api/v1/cars").json()["data"]["items"]
    graph = None
    for car in offers:
        detail = seeded_api.get(f"/api/v1/cars/{car['_id']}").json()["data"]
        for modification in detail["modifications"]:
            query = {"carId": car["_id"], "modificationId": modification["_id"]}
            special = seeded_api.get("/api/v1/payments/special-offers", params=query).json()["data"]
            if special["items"]:
                graph = seeded_api.get(
                    "/api/v1/payments/special-offers/graph", params={**query, "offerId": special["items"][0]["_id"]}
                ).json()["data"]
                break
        if graph is not None:
            break
    assert graph is not None, "the demo data has a special offer"
    # When its file link is opened as it is: no common headers, no token (a browser, a WebView)
    download = requests.get(graph["file"], timeout=30)
    # Then it is the schedule as CSV
    assert download.status_code == 200, download.text
    assert download.headers["Content-Type"].startswith("text/csv")
    assert len(download.text.strip().splitlines()) == len(graph["schedule"]) + 1
    # And a link whose signature was changed (or that expired) is refused
    tampered = graph["file"].replace(f"{SIGNATURE}=", f"{SIGNATURE}=0")
    refused = requests.get(tampered, timeout=30)
    assert refused.status_code == 403, refused.text
    # And without a signature the route still needs the common headers
    unsigned = graph["file"].split(f"&{SIGNATURE}=")[0]
    assert requests.get(unsigned, timeout=30).status_code == 400
    assert requests.get(unsigned, headers=common_headers(), timeout=30).status_code == 401
