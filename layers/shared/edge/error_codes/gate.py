"""The codes of the gateway and the request gate: the route, the body and its size, the headers, the
client key, the rate limits and the request's validation as a whole."""

from core.errors import Conflict, InvalidInput, NotFound, NotPermitted, TooManyAttempts
from edge.error_codes.entry import CLIENT_BUG, FIX_INPUT, ErrorCode
from edge.errors import BodyTooLarge, UnsupportedMediaType

CODES: dict[str, ErrorCode] = {
    "ROUTE_NOT_FOUND": ErrorCode(
        kind=NotFound,
        action=CLIENT_BUG + " (unknown path or method)",
        en="Route not found",
        ru="Маршрут не найден",
        uz="Marshrut topilmadi",
    ),
    "METHOD_NOT_ALLOWED": ErrorCode(
        kind=InvalidInput,
        action=CLIENT_BUG + ": send one of the methods of `Allow`",
        en="Method {method} is not allowed on this path; it allows {allowed}",
        ru="Метод {method} не поддерживается по этому адресу; допустимы: {allowed}",
        uz="Bu manzilda {method} usuli qoʻllab-quvvatlanmaydi; ruxsat etilganlari: {allowed}",
        status=405,
    ),
    "PAYLOAD_TOO_LARGE": ErrorCode(
        kind=BodyTooLarge,
        action=CLIENT_BUG + ": send a smaller body",
        en="Request body is larger than 10 MB",
        ru="Тело запроса больше 10 МБ",
        uz="Soʻrov tanasi 10 MB dan katta",
    ),
    "REQUEST_TIMEOUT": ErrorCode(
        kind=InvalidInput,
        action=CLIENT_BUG + ": send the whole body without pausing",
        en="The request body did not arrive in time",
        ru="Тело запроса не пришло вовремя",
        uz="Soʻrov tanasi oʻz vaqtida kelmadi",
        status=408,
    ),
    "URI_TOO_LONG": ErrorCode(
        kind=InvalidInput,
        action=CLIENT_BUG + ": shorten the URL",
        en="Request URI is too long",
        ru="Адрес запроса слишком длинный",
        uz="Soʻrov manzili juda uzun",
        status=414,
    ),
    "HEADERS_TOO_LARGE": ErrorCode(
        kind=InvalidInput,
        action=CLIENT_BUG + ": send smaller headers",
        en="Request headers are too large",
        ru="Заголовки запроса слишком велики",
        uz="Soʻrov sarlavhalari juda katta",
        status=431,
    ),
    "MALFORMED_REQUEST": ErrorCode(
        kind=InvalidInput,
        action=CLIENT_BUG + ": the HTTP request itself is malformed",
        en="Malformed HTTP request",
        ru="Некорректный HTTP-запрос",
        uz="HTTP soʻrovi notoʻgʻri tuzilgan",
    ),
    "TOO_MANY_REQUESTS": ErrorCode(
        kind=TooManyAttempts,
        action="Slow down: retry with exponential backoff",
        en="Too many requests",
        ru="Слишком много запросов",
        uz="Soʻrovlar juda koʻp",
    ),
    "ORIGIN_NOT_ALLOWED": ErrorCode(
        kind=NotPermitted,
        action="Ask the operator to allow the web app's origin",
        en="Origin not allowed",
        ru="Источник запроса не разрешён",
        uz="Soʻrov manbasiga ruxsat berilmagan",
    ),
    "MISSING_HEADER": ErrorCode(
        kind=InvalidInput,
        action=CLIENT_BUG + ": send `User-Agent`, `fingerprint` and `client` on every request",
        en="Missing required header: {header}",
        ru="Не передан обязательный заголовок: {header}",
        uz="Majburiy sarlavha yuborilmagan: {header}",
    ),
    "HEADER_TOO_LONG": ErrorCode(
        kind=InvalidInput,
        action=CLIENT_BUG,
        en="Header {header} is longer than {max} characters",
        ru="Заголовок {header} длиннее {max} символов",
        uz="{header} sarlavhasi {max} belgidan uzun",
    ),
    "LINK_INVALID_OR_EXPIRED": ErrorCode(
        kind=NotPermitted,
        action="Ask the API for the link again (the resource that gave it answers a fresh one)",
        en="The link is invalid or has expired: ask for it again",
        ru="Ссылка недействительна или устарела: запросите её снова",
        uz="Havola yaroqsiz yoki muddati oʻtgan: uni qaytadan soʻrang",
    ),
    "CLIENT_KEY_UNKNOWN": ErrorCode(
        kind=NotPermitted,
        action="Check the `client` partner key the operator issued; do not retry",
        en="Unknown or inactive client key",
        ru="Неизвестный или неактивный ключ клиента",
        uz="Mijoz kaliti nomaʼlum yoki faol emas",
    ),
    "BODY_TOO_LARGE": ErrorCode(
        kind=BodyTooLarge,
        action=CLIENT_BUG + ": send the fields the route declares, without many or deeply nested undeclared ones",
        en="Request body holds more than this route takes: at most {depth} levels of nesting and {tokens} "
        "JSON tokens (strings, brackets, commas, colons)",
        ru="Тело запроса содержит больше, чем принимает этот маршрут: не более {depth} уровней вложенности "
        "и {tokens} элементов JSON (строк, скобок, запятых, двоеточий)",
        uz="Soʻrov tanasida bu marshrut qabul qiladiganidan koʻproq narsa bor: koʻpi bilan {depth} daraja "
        "ichma-ichlik va {tokens} ta JSON elementi (satrlar, qavslar, vergullar, ikki nuqtalar)",
    ),
    "UNSUPPORTED_MEDIA_TYPE": ErrorCode(
        kind=UnsupportedMediaType,
        action=CLIENT_BUG + ": send the body as `application/json`",
        en="Unsupported Content-Type: send the body as application/json",
        ru="Неподдерживаемый Content-Type: отправьте тело как application/json",
        uz="Content-Type qoʻllab-quvvatlanmaydi: soʻrov tanasini application/json sifatida yuboring",
    ),
    "BODY_NOT_UTF8": ErrorCode(
        kind=InvalidInput,
        action=CLIENT_BUG,
        en="The body must be UTF-8 encoded JSON",
        ru="Тело запроса должно быть JSON в кодировке UTF-8",
        uz="Soʻrov tanasi UTF-8 kodlashdagi JSON boʻlishi kerak",
    ),
    "BODY_TOO_DEEP": ErrorCode(
        kind=InvalidInput,
        action=CLIENT_BUG,
        en="The body is nested too deeply",
        ru="Тело запроса слишком глубоко вложено",
        uz="Soʻrov tanasining ichma-ichligi juda chuqur",
    ),
    "NUMBER_TOO_LONG": ErrorCode(
        kind=InvalidInput,
        action=CLIENT_BUG,
        en="The body holds a number with too many digits",
        ru="В теле запроса число со слишком большим количеством цифр",
        uz="Soʻrov tanasida raqamlari juda koʻp boʻlgan son bor",
    ),
    "IDEMPOTENCY_KEY_INVALID": ErrorCode(
        kind=InvalidInput,
        action=CLIENT_BUG + ": send a new UUID per user action",
        en="Idempotency-Key must be a UUID",
        ru="Idempotency-Key должен быть UUID",
        uz="Idempotency-Key UUID boʻlishi kerak",
    ),
    "IDEMPOTENCY_KEY_REUSED": ErrorCode(
        kind=Conflict,
        action="Send a new `Idempotency-Key` for a new request; reuse a key only to retry the same body",
        en="This Idempotency-Key was already used with another request body; send a new key for a new request",
        ru="Этот Idempotency-Key уже использован с другим телом запроса; для нового запроса отправьте новый ключ",
        uz="Bu Idempotency-Key boshqa soʻrov tanasi bilan ishlatilgan; yangi soʻrov uchun yangi kalit yuboring",
    ),
    "IDEMPOTENCY_KEY_IN_PROGRESS": ErrorCode(
        kind=Conflict,
        action="Retry with the same key after `Retry-After` seconds",
        en="A request with this Idempotency-Key is still being processed; retry shortly",
        ru="Запрос с этим Idempotency-Key ещё обрабатывается; повторите чуть позже",
        uz="Bu Idempotency-Key bilan soʻrov hali bajarilmoqda; birozdan soʻng qayta urinib koʻring",
    ),
    "QUERY_PARAMETER_UNKNOWN": ErrorCode(
        kind=InvalidInput,
        action=CLIENT_BUG + ": send only the query parameters the route declares (a misspelt filter is refused)",
        en="Unknown query parameter: {names}",
        ru="Неизвестный параметр запроса: {names}",
        uz="Nomaʼlum soʻrov parametri: {names}",
    ),
    "VALIDATION_FAILED": ErrorCode(
        kind=InvalidInput,
        action=FIX_INPUT + " (`errors[]` names each field, with its own code)",
        en="Invalid input: {fields}",
        ru="Неверные данные: {fields}",
        uz="Notoʻgʻri maʼlumotlar: {fields}",
    ),
}
