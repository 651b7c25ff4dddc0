"""One entry of the catalogue of error codes: its kind (hence its HTTP status), what a client app should do
about it, and its message in English, Russian (Cyrillic) and Uzbek (Latin script); and the actions many
entries share."""

from string import Formatter
from typing import NamedTuple

from core.errors import AppError
from core.locale import Locale
from edge.errors import status_of_kind


class ErrorCode(NamedTuple):
    kind: type[AppError]
    action: str  # what the client app should do
    en: str
    ru: str
    uz: str
    status: int | None = None  # the gateway's own answers only (408, 414, 431), which no kind of ours has

    def http_status(self) -> int:
        return self.status or status_of_kind(self.kind)

    def text(self, locale: Locale) -> str:
        template: str = getattr(self, locale)
        return template

    def params(self) -> set[str]:
        return {name for _, name, _, _ in Formatter().parse(self.en) if name}


FIX_INPUT = "Show the message next to the field and let the user correct it"
CLIENT_BUG = "A bug in the app; fix the request it sends"
RETRY_LATER = "Tell the user to try again in a moment; retry after `Retry-After` when present"
