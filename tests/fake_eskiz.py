"""A fake Eskiz SMS gateway (notify.eskiz.uz), written from Eskiz's published API and from public
integrations tested against it, not from our adapter:

- Eskiz's Postman documentation (https://documenter.getpostman.com/view/663428/RzfmES4z, "SMS Gateway by
  Eskiz.uz"): `POST /api/auth/login` with form fields `email` and `password` answers
  `{"message": "token_generated", "data": {"token": ...}, "token_type": "bearer"}`; `PATCH
  /api/auth/refresh` with `Authorization: Bearer <token>` answers the same shape with a new token;
  `POST /api/message/sms/send` with form fields `mobile_phone` (998XXXXXXXXX, no `+`), `message`, `from`
  and the Bearer token answers `{"id": <uuid>, "message": "Waiting for SMS provider", "status": "waiting"}`.
  Forms are `multipart/form-data` in the documentation's examples.
- old-juniors/eskiz-sms (eskiz/utils/methods.py, eskiz/api.py): the same paths and methods (login POST,
  refresh PATCH, send POST), the send's `{"id", "status": "waiting", "message": "Waiting for SMS
  provider"}`, and a failure answered with `"status": "error"` or `"fail"`.
- Muhammadali-Akbarov/eskiz-pkg (lib/eskiz/client/http.py, client/sync.py, tests/mock_server.py): an
  expired or unknown token is HTTP 401 on any call; the client then refreshes (PATCH, which Eskiz
  honours with the expired token), or logs in again when refreshing fails, and repeats the call; login
  is sent as a urlencoded form, send as multipart.

- Approved texts: Eskiz sends only a text its moderators approved (a template registered in the cabinet,
  its variable part filled in; eskiz-pkg's `lib/eskiz/response/templates.py` reads them back as `template`,
  `original_text`, `status`), and a test account only one of three fixed phrases: "This is test from Eskiz",
  "Bu Eskiz dan test", "Это тест от Eskiz" (integrations agreeing: a Laravel service's README "Test
  rejimida faqat shu tekstlar ishlaydi" listing the three, a TypeScript OTP service's ESKIZ_TEST_MESSAGE
  "rejects any message body other than this exact string", several senders hard-coding one of them for
  the test sender 4546). The exact body of Eskiz's refusal of a text is in no source found; the fake
  answers it 400 `{"status": "error", "message": <text>}`, a message that does not name `mobile_phone`
  (a refused number's validation error does).
- `callback_url`: an optional send field (php-eskiz-uz's `requestSmsSend(..., callback_url)`, eskiz_sms's
  `send_sms(..., callback_url=...)`, TypeScript clients' `SMSPayload {mobile_phone, message, from,
  callback_url}`); the report Eskiz posts to it is in no published source (receivers read `request_id`
  and `status` "DELIVERED", or `id` and `status`), so the adapter sends none and the fake posts none.

Tokens expire after `token_lifetime` of the test's clock (`core.clock`); wrong credentials are 401; a
number the fake is told to refuse answers 400 `{"status": "error", "message": {"mobile_phone": [...]}}`.
The fake is a live account with the templates a test approves (`approve`, `{code}` standing for the
digits), or a test account (`test_account`).
"""

from __future__ import annotations

import re
import secrets
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from email.parser import BytesParser
from email.policy import HTTP
from typing import Any
from urllib.parse import parse_qs

from core import clock
from tests.fake_http import Answer, FakeServer, serving

EMAIL = "car-retail@example.uz"
PASSWORD = "fake-eskiz-api-password"
CREDENTIALS = f'{{"email": "{EMAIL}", "password": "{PASSWORD}"}}'
TEST_PHRASES = ("This is test from Eskiz", "Bu Eskiz dan test", "Это тест от Eskiz")


def form_fields(headers: dict[str, str], body: bytes) -> dict[str, str]:
    """The fields of a multipart/form-data or urlencoded form."""
    content_type = headers.get("content-type", "")
    if content_type.startswith("multipart/form-data"):
        message = BytesParser(policy=HTTP).parsebytes(f"Content-Type: {content_type}\r\n\r\n".encode() + body)
        fields = {}
        for part in message.iter_parts():
            name = part.get_param("name", header="content-disposition")
            payload = part.get_payload(decode=True)
            if isinstance(name, str) and isinstance(payload, bytes):
                fields[name] = payload.decode()
        return fields
    return {name: values[0] for name, values in parse_qs(body.decode()).items()}


class FakeEskiz(FakeServer):
    def __init__(self) -> None:
        super().__init__("login", "refresh", "send")
        self.token_lifetime = timedelta(days=30)
        self.tokens: dict[str, datetime] = {}  # token -> expiry
        self.sent: list[dict[str, str]] = []
        self.refused_numbers: set[str] = set()
        self.senders = {"4546"}
        self.test_account = False
        self.approved: list[re.Pattern[str]] = []
        self.refused_texts: list[str] = []

    def approve(self, *templates: str) -> None:
        """Templates Eskiz's moderators approved for this account; `{code}` stands for 4 to 8 digits."""
        for template in templates:
            pattern = re.escape(template).replace(re.escape("{code}"), r"\d{4,8}")
            self.approved.append(re.compile(pattern))

    def _text_allowed(self, text: str) -> bool:
        if self.test_account:
            return text in TEST_PHRASES
        return any(pattern.fullmatch(text) for pattern in self.approved)

    def expire_tokens(self) -> None:
        self.tokens = dict.fromkeys(self.tokens, clock.now() - timedelta(seconds=1))

    def revoke_tokens(self) -> None:
        self.tokens.clear()

    def route(
        self, method: str, path: str, query: str, headers: dict[str, str], body: bytes
    ) -> tuple[str, Callable[[], Answer]] | None:
        if (method, path) == ("POST", "/api/auth/login"):
            return "login", lambda: self._login(form_fields(headers, body))
        if (method, path) == ("PATCH", "/api/auth/refresh"):
            return "refresh", lambda: self._refresh(headers)
        if (method, path) == ("POST", "/api/message/sms/send"):
            return "send", lambda: self._send(headers, form_fields(headers, body))
        return None

    def _new_token(self) -> str:
        token = secrets.token_urlsafe(24)
        self.tokens[token] = clock.now() + self.token_lifetime
        return token

    def _login(self, fields: dict[str, str]) -> Answer:
        if (fields.get("email"), fields.get("password")) != (EMAIL, PASSWORD):
            return 401, {"message": "Invalid credentials"}
        return 200, {"message": "token_generated", "data": {"token": self._new_token()}, "token_type": "bearer"}

    def _bearer(self, headers: dict[str, str]) -> str:
        return headers.get("authorization", "").removeprefix("Bearer ")

    def _refresh(self, headers: dict[str, str]) -> Answer:
        if self._bearer(headers) not in self.tokens:  # an expired token may be refreshed, an unknown one not
            return 401, {"message": "Unauthenticated."}
        del self.tokens[self._bearer(headers)]
        return 200, {"message": "token_generated", "data": {"token": self._new_token()}, "token_type": "bearer"}

    def _send(self, headers: dict[str, str], fields: dict[str, str]) -> Answer:
        expiry = self.tokens.get(self._bearer(headers))
        if expiry is None or expiry <= clock.now():
            return 401, {"message": "Expired"}
        phone = fields.get("mobile_phone", "")
        if not phone.isdigit() or len(phone) != 12 or phone in self.refused_numbers:
            return 400, {"status": "error", "message": {"mobile_phone": ["The mobile phone is invalid."]}}
        if not fields.get("message") or fields.get("from") not in self.senders:
            return 400, {"status": "error", "message": "from or message is invalid"}
        if not self._text_allowed(fields["message"]):
            self.refused_texts.append(fields["message"])
            return 400, {"status": "error", "message": "This text is not approved for sending"}
        self.sent.append(fields)
        return 200, {"id": str(uuid.uuid4()), "message": "Waiting for SMS provider", "status": "waiting"}

    def last_code(self) -> str:
        """The code of the last message sent (its digits)."""
        return code_in(self.sent[-1]["message"])


def code_in(text: str) -> str:
    """The code a text carries (its first 6 digits)."""
    return "".join(char for char in text if char.isdigit())[:6]


@contextmanager
def running_fake_eskiz() -> Iterator[FakeEskiz]:
    with serving(FakeEskiz()) as fake:
        yield fake


def settings_env(fake: FakeEskiz) -> dict[str, Any]:
    return {"SMS_PROVIDER": "eskiz", "ESKIZ_URL": fake.base_url, "ESKIZ_CREDENTIALS": CREDENTIALS}
