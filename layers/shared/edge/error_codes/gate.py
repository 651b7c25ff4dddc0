"""The codes of the gateway and the request gate: the route, the body and its size, the headers, the
client key, the rate limits and the request's validation as a whole."""

from core.errors import Conflict, InvalidInput, NotFound, NotPermitted, TooManyAttempts
from edge.error_codes.entry import CLIENT_BUG, FIX_INPUT, E, ErrorCode
from edge.errors import BodyTooLarge, UnsupportedMediaType

CODES: dict[str, ErrorCode] = {
    "ROUTE_NOT_FOUND": E(
        NotFound,
        CLIENT_BUG + " (unknown path or method)",
        "Route not found",
        "Маршрут не найден",
        "Marshrut topilmadi",
    ),
    "PAYLOAD_TOO_LARGE": E(
        BodyTooLarge,
        CLIENT_BUG + ": send a smaller body",
        "Request body is larger than 10 MB",
        "Тело запроса больше 10 МБ",
        "Soʻrov tanasi 10 MB dan katta",
    ),
    "REQUEST_TIMEOUT": E(
        InvalidInput,
        CLIENT_BUG + ": send the whole body without pausing",
        "The request body did not arrive in time",
        "Тело запроса не пришло вовремя",
        "Soʻrov tanasi oʻz vaqtida kelmadi",
        status=408,
    ),
    "URI_TOO_LONG": E(
        InvalidInput,
        CLIENT_BUG + ": shorten the URL",
        "Request URI is too long",
        "Адрес запроса слишком длинный",
        "Soʻrov manzili juda uzun",
        status=414,
    ),
    "HEADERS_TOO_LARGE": E(
        InvalidInput,
        CLIENT_BUG + ": send smaller headers",
        "Request headers are too large",
        "Заголовки запроса слишком велики",
        "Soʻrov sarlavhalari juda katta",
        status=431,
    ),
    "MALFORMED_REQUEST": E(
        InvalidInput,
        CLIENT_BUG + ": the HTTP request itself is malformed",
        "Malformed HTTP request",
        "Некорректный HTTP-запрос",
        "HTTP soʻrovi notoʻgʻri tuzilgan",
    ),
    "TOO_MANY_REQUESTS": E(
        TooManyAttempts,
        "Slow down: retry with exponential backoff",
        "Too many requests",
        "Слишком много запросов",
        "Soʻrovlar juda koʻp",
    ),
    "ORIGIN_NOT_ALLOWED": E(
        NotPermitted,
        "Ask the operator to allow the web app's origin",
        "Origin not allowed",
        "Источник запроса не разрешён",
        "Soʻrov manbasiga ruxsat berilmagan",
    ),
    "MISSING_HEADER": E(
        InvalidInput,
        CLIENT_BUG + ": send `User-Agent`, `fingerprint` and `client` on every request",
        "Missing required header: {header}",
        "Не передан обязательный заголовок: {header}",
        "Majburiy sarlavha yuborilmagan: {header}",
    ),
    "HEADER_TOO_LONG": E(
        InvalidInput,
        CLIENT_BUG,
        "Header {header} is longer than {max} characters",
        "Заголовок {header} длиннее {max} символов",
        "{header} sarlavhasi {max} belgidan uzun",
    ),
    "LINK_INVALID_OR_EXPIRED": E(
        NotPermitted,
        "Ask the API for the link again (the resource that gave it answers a fresh one)",
        "The link is invalid or has expired: ask for it again",
        "Ссылка недействительна или устарела: запросите её снова",
        "Havola yaroqsiz yoki muddati oʻtgan: uni qaytadan soʻrang",
    ),
    "CLIENT_KEY_UNKNOWN": E(
        NotPermitted,
        "Check the `client` partner key the operator issued; do not retry",
        "Unknown or inactive client key",
        "Неизвестный или неактивный ключ клиента",
        "Mijoz kaliti nomaʼlum yoki faol emas",
    ),
    "BODY_TOO_LARGE": E(
        BodyTooLarge,
        CLIENT_BUG + ": send the fields the route declares, without many or deeply nested undeclared ones",
        "Request body holds more than this route takes: at most {depth} levels of nesting and {tokens} "
        "JSON tokens (strings, brackets, commas, colons)",
        "Тело запроса содержит больше, чем принимает этот маршрут: не более {depth} уровней вложенности "
        "и {tokens} элементов JSON (строк, скобок, запятых, двоеточий)",
        "Soʻrov tanasida bu marshrut qabul qiladiganidan koʻproq narsa bor: koʻpi bilan {depth} daraja "
        "ichma-ichlik va {tokens} ta JSON elementi (satrlar, qavslar, vergullar, ikki nuqtalar)",
    ),
    "UNSUPPORTED_MEDIA_TYPE": E(
        UnsupportedMediaType,
        CLIENT_BUG + ": send the body as `application/json`",
        "Unsupported Content-Type: send the body as application/json",
        "Неподдерживаемый Content-Type: отправьте тело как application/json",
        "Content-Type qoʻllab-quvvatlanmaydi: soʻrov tanasini application/json sifatida yuboring",
    ),
    "BODY_NOT_UTF8": E(
        InvalidInput,
        CLIENT_BUG,
        "The body must be UTF-8 encoded JSON",
        "Тело запроса должно быть JSON в кодировке UTF-8",
        "Soʻrov tanasi UTF-8 kodlashdagi JSON boʻlishi kerak",
    ),
    "BODY_TOO_DEEP": E(
        InvalidInput,
        CLIENT_BUG,
        "The body is nested too deeply",
        "Тело запроса слишком глубоко вложено",
        "Soʻrov tanasining ichma-ichligi juda chuqur",
    ),
    "NUMBER_TOO_LONG": E(
        InvalidInput,
        CLIENT_BUG,
        "The body holds a number with too many digits",
        "В теле запроса число со слишком большим количеством цифр",
        "Soʻrov tanasida raqamlari juda koʻp boʻlgan son bor",
    ),
    "IDEMPOTENCY_KEY_INVALID": E(
        InvalidInput,
        CLIENT_BUG + ": send a new UUID per user action",
        "Idempotency-Key must be a UUID",
        "Idempotency-Key должен быть UUID",
        "Idempotency-Key UUID boʻlishi kerak",
    ),
    "IDEMPOTENCY_KEY_REUSED": E(
        Conflict,
        "Send a new `Idempotency-Key` for a new request; reuse a key only to retry the same body",
        "This Idempotency-Key was already used with another request body; send a new key for a new request",
        "Этот Idempotency-Key уже использован с другим телом запроса; для нового запроса отправьте новый ключ",
        "Bu Idempotency-Key boshqa soʻrov tanasi bilan ishlatilgan; yangi soʻrov uchun yangi kalit yuboring",
    ),
    "IDEMPOTENCY_KEY_IN_PROGRESS": E(
        Conflict,
        "Retry with the same key after `Retry-After` seconds",
        "A request with this Idempotency-Key is still being processed; retry shortly",
        "Запрос с этим Idempotency-Key ещё обрабатывается; повторите чуть позже",
        "Bu Idempotency-Key bilan soʻrov hali bajarilmoqda; birozdan soʻng qayta urinib koʻring",
    ),
    "QUERY_PARAMETER_UNKNOWN": E(
        InvalidInput,
        CLIENT_BUG + ": send only the query parameters the route declares (a misspelt filter is refused)",
        "Unknown query parameter: {names}",
        "Неизвестный параметр запроса: {names}",
        "Nomaʼlum soʻrov parametri: {names}",
    ),
    "VALIDATION_FAILED": E(
        InvalidInput,
        FIX_INPUT + " (`errors[]` names each field, with its own code)",
        "Invalid input: {fields}",
        "Неверные данные: {fields}",
        "Notoʻgʻri maʼlumotlar: {fields}",
    ),
}
