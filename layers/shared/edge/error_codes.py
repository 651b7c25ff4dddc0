"""The catalogue of error codes: each stable code with its kind (hence its HTTP status), what a client app
should do about it, and its message in English, Russian (Cyrillic) and Uzbek (Latin script).

Code anywhere raises a kind of `core.errors` with one of these codes (`raise Conflict("PROMO_CODE_USED_UP")`);
the edge answers it with the kind's status and the message in the request's language, its `{params}`
filled in. docs/INTERFACE.md's table of codes is generated from here (`python -m ops openapi`).
Codes never change meaning and are never reused; messages may be reworded.
"""

from collections.abc import Mapping
from string import Formatter
from typing import Any, NamedTuple

from core.errors import (
    AppError,
    Conflict,
    FieldProblem,
    InvalidInput,
    NotAuthenticated,
    NotFound,
    NotPermitted,
    TooManyAttempts,
    Unavailable,
)
from core.locale import Locale, localize
from edge.errors import BodyTooLarge, UnsupportedMediaType, status_of_kind


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


E = ErrorCode
FIX_INPUT = "Show the message next to the field and let the user correct it"
CLIENT_BUG = "A bug in the app; fix the request it sends"
RETRY_LATER = "Tell the user to try again in a moment; retry after `Retry-After` when present"

CODES: dict[str, ErrorCode] = {
    # --- anything, anywhere ---------------------------------------------------------------------
    "INTERNAL_ERROR": E(
        AppError,
        "Tell the user something went wrong; report it with the time of the request",
        "Internal server error",
        "Внутренняя ошибка сервера",
        "Serverning ichki xatosi",
    ),
    "SERVICE_UNAVAILABLE": E(
        Unavailable,
        RETRY_LATER,
        "Service temporarily unavailable, try again later",
        "Сервис временно недоступен, повторите попытку позже",
        "Xizmat vaqtincha ishlamayapti, keyinroq urinib koʻring",
    ),
    "SERVICE_NOT_CONFIGURED": E(
        Unavailable,
        "Tell the user the feature is unavailable for now; the operator must finish the setup",
        "This feature is not available right now, try again later",
        "Эта функция сейчас недоступна, повторите попытку позже",
        "Bu imkoniyat hozircha mavjud emas, keyinroq urinib koʻring",
    ),
    "DATA_BUSY": E(
        Unavailable,
        "Retry after `Retry-After` seconds",
        "The data is being changed by another request, try again",
        "Данные изменяются другим запросом, повторите попытку",
        "Maʼlumotlar boshqa soʻrov tomonidan oʻzgartirilmoqda, qayta urinib koʻring",
    ),
    # --- the gateway and the request gate ------------------------------------------------------
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
    # --- tokens and sign-in ----------------------------------------------------------------------
    "TOKEN_MISSING": E(
        NotAuthenticated,
        "Send `Authorization: Bearer <accessToken>`; sign the user in if there is none",
        "Authorization header with a Bearer access token is required",
        "Требуется заголовок Authorization с токеном доступа Bearer",
        "Bearer kirish tokeni bilan Authorization sarlavhasi talab qilinadi",
    ),
    "AUTHORIZATION_MALFORMED": E(
        NotAuthenticated,
        CLIENT_BUG + ": the header is `Bearer <accessToken>`",
        "Authorization header must be 'Bearer <access token>'",
        "Заголовок Authorization должен иметь вид 'Bearer <токен доступа>'",
        "Authorization sarlavhasi 'Bearer <kirish tokeni>' koʻrinishida boʻlishi kerak",
    ),
    "TOKEN_INVALID": E(
        NotAuthenticated,
        "Refresh the tokens; if that fails too, sign the user in again",
        "Invalid token",
        "Недействительный токен",
        "Token yaroqsiz",
    ),
    "TOKEN_WRONG_TYPE": E(
        NotAuthenticated,
        CLIENT_BUG + ": send the access token to routes, the refresh token to refresh-token",
        "Invalid token: an {expected} token is required",
        "Недействительный токен: нужен токен типа {expected}",
        "Token yaroqsiz: {expected} turidagi token kerak",
    ),
    "TOKEN_EXPIRED": E(
        NotAuthenticated,
        "Refresh the tokens with the refresh token, then repeat the request",
        "Token has expired",
        "Срок действия токена истёк",
        "Token muddati tugagan",
    ),
    "REFRESH_TOKEN_REUSED": E(
        NotAuthenticated,
        "Sign the user in again",
        "Refresh token has already been used or was revoked",
        "Токен обновления уже использован или отозван",
        "Yangilash tokeni allaqachon ishlatilgan yoki bekor qilingan",
    ),
    "USER_NOT_FOUND": E(
        NotAuthenticated,
        "Forget the tokens and sign the user in again",
        "User not found",
        "Пользователь не найден",
        "Foydalanuvchi topilmadi",
    ),
    "PHONE_AND_PIN_OF_DIFFERENT_USERS": E(
        Conflict,
        "Ask the user to sign in with the phone or the PINFL alone",
        "This phone number and this PINFL belong to different users",
        "Этот номер телефона и этот ПИНФЛ принадлежат разным пользователям",
        "Bu telefon raqami va bu JShShIR turli foydalanuvchilarga tegishli",
    ),
    "ACCOUNT_IDENTIFIER_FIXED": E(
        Conflict,
        "Sign in with the account's own phone or PINFL",
        "This account already has another phone number or PINFL; a login cannot replace it",
        "У этой учётной записи уже другой номер телефона или ПИНФЛ; вход не может их заменить",
        "Bu hisobda boshqa telefon raqami yoki JShShIR bor; kirish ularni almashtira olmaydi",
    ),
    "PHONE_OR_PIN_TAKEN": E(
        Conflict,
        "Ask the user to sign in with the phone or PINFL of their own account",
        "This phone number or PINFL is already registered to another user",
        "Этот номер телефона или ПИНФЛ уже зарегистрирован у другого пользователя",
        "Bu telefon raqami yoki JShShIR boshqa foydalanuvchiga roʻyxatdan oʻtkazilgan",
    ),
    "TOO_MANY_LOGINS_FOR_PERSON": E(
        TooManyAttempts,
        "Wait `Retry-After` seconds before the next login of this person",
        "Too many login attempts for this person, try again later",
        "Слишком много попыток входа для этого человека, повторите позже",
        "Bu shaxs uchun kirish urinishlari juda koʻp, keyinroq urinib koʻring",
    ),
    "TOO_MANY_LOGINS_FROM_ADDRESS": E(
        TooManyAttempts,
        "Wait `Retry-After` seconds before the next login from this network",
        "Too many login attempts from this network address, try again later",
        "Слишком много попыток входа с этого сетевого адреса, повторите позже",
        "Bu tarmoq manzilidan kirish urinishlari juda koʻp, keyinroq urinib koʻring",
    ),
    "TOO_MANY_LOGINS_FOR_PARTNER": E(
        TooManyAttempts,
        "Wait `Retry-After` seconds; the partner's logins are throttled",
        "Too many login attempts through this partner, try again later",
        "Слишком много попыток входа через этого партнёра, повторите позже",
        "Bu hamkor orqali kirish urinishlari juda koʻp, keyinroq urinib koʻring",
    ),
    # --- identity verification -------------------------------------------------------------------
    "IDENTITY_CODE_REJECTED": E(
        InvalidInput,
        "Start the identity provider's sign-in again to get a new code",
        "The identity provider rejected the authorization code: it is invalid or expired",
        "Провайдер идентификации отклонил код авторизации: он недействителен или истёк",
        "Identifikatsiya provayderi avtorizatsiya kodini rad etdi: u yaroqsiz yoki muddati tugagan",
    ),
    "IDENTITY_PROFILE_REFUSED": E(
        InvalidInput,
        "Ask the user to allow sharing their profile with the identity provider, then start again",
        "The identity provider refused to release the person's profile",
        "Провайдер идентификации не предоставил профиль человека",
        "Identifikatsiya provayderi shaxs profilini bermadi",
    ),
    "IDENTITY_NOT_CONFIRMED": E(
        InvalidInput,
        "Tell the user their identity could not be confirmed",
        "The identity provider did not confirm this person's identity",
        "Провайдер идентификации не подтвердил личность этого человека",
        "Identifikatsiya provayderi bu shaxsning shaxsini tasdiqlamadi",
    ),
    "IDENTITY_PROVIDER_UNAVAILABLE": E(
        Unavailable,
        RETRY_LATER + " (the same code may be sent again)",
        "The identity provider is unavailable, try again later",
        "Провайдер идентификации недоступен, повторите попытку позже",
        "Identifikatsiya provayderi ishlamayapti, keyinroq urinib koʻring",
    ),
    "AUTHORIZATION_CODE_USED": E(
        Conflict,
        "Start the identity provider's sign-in again to get a new code",
        "This authorization code has already been used",
        "Этот код авторизации уже использован",
        "Bu avtorizatsiya kodi allaqachon ishlatilgan",
    ),
    "PINFL_TAKEN": E(
        Conflict,
        "Tell the user this person is registered under another account; contact support",
        "This person's PINFL is already registered to another user",
        "ПИНФЛ этого человека уже зарегистрирован у другого пользователя",
        "Bu shaxsning JShShIR boshqa foydalanuvchiga roʻyxatdan oʻtkazilgan",
    ),
    "VERIFIED_PINFL_DIFFERS": E(
        Conflict,
        "Tell the user the verified person is not the account's owner",
        "The verified person's PINFL differs from the PINFL of this account",
        "ПИНФЛ подтверждённого человека отличается от ПИНФЛ этой учётной записи",
        "Tasdiqlangan shaxsning JShShIR bu hisobdagi JShShIR dan farq qiladi",
    ),
    # --- catalog and dictionaries ----------------------------------------------------------------
    "TOO_MANY_IDS": E(
        InvalidInput,
        CLIENT_BUG,
        "At most {max} ids",
        "Не более {max} идентификаторов",
        "Koʻpi bilan {max} ta identifikator",
    ),
    "BRAND_NOT_FOUND": E(
        NotFound,
        "Reload the brands",
        "Brand not found",
        "Бренд не найден",
        "Brend topilmadi",
    ),
    "CAR_NOT_FOUND": E(
        NotFound,
        "Reload the list of cars; this one is no longer sold",
        "Car not found",
        "Автомобиль не найден",
        "Avtomobil topilmadi",
    ),
    "CAR_NOT_OF_BRAND": E(
        NotFound,
        CLIENT_BUG + ": take the car from this brand's list",
        "This car is not a model of this brand",
        "Этот автомобиль не является моделью этого бренда",
        "Bu avtomobil ushbu brendning modeli emas",
    ),
    "MODIFICATION_NOT_FOUND": E(
        NotFound,
        "Reload the car; this modification is no longer sold",
        "Modification not found",
        "Модификация не найдена",
        "Modifikatsiya topilmadi",
    ),
    "COLOR_NOT_FOUND": E(
        NotFound,
        "Reload the car; this color is no longer offered",
        "Color not found for this car",
        "Цвет для этого автомобиля не найден",
        "Bu avtomobil uchun rang topilmadi",
    ),
    "REGION_NOT_FOUND": E(
        NotFound,
        "Reload the regions",
        "Region not found",
        "Регион не найден",
        "Hudud topilmadi",
    ),
    "BRANCH_NOT_FOUND": E(
        NotFound,
        "Reload the branches; this one is closed",
        "Branch not found or not active",
        "Филиал не найден или не работает",
        "Filial topilmadi yoki faol emas",
    ),
    "BRANCH_NOT_IN_REGION": E(
        NotFound,
        "Reload the branches of the chosen region",
        "Branch not found in this region",
        "В этом регионе нет такого филиала",
        "Bu hududda bunday filial yoʻq",
    ),
    "BRANCH_DOES_NOT_SELL_BRAND": E(
        NotFound,
        "Let the user choose a branch that sells this brand",
        "This branch does not sell this car's brand",
        "Этот филиал не продаёт автомобили этого бренда",
        "Bu filial ushbu brend avtomobillarini sotmaydi",
    ),
    "CONTACTS_NOT_CONFIGURED": E(
        NotFound,
        "Hide the contacts screen",
        "Contacts are not configured",
        "Контакты не настроены",
        "Kontaktlar sozlanmagan",
    ),
    "DOCUMENT_NOT_FOUND": E(
        NotFound,
        "Hide the link to the document",
        "Document not found",
        "Документ не найден",
        "Hujjat topilmadi",
    ),
    # --- financing -------------------------------------------------------------------------------
    "IDS_DO_NOT_MATCH": E(
        NotFound,
        CLIENT_BUG + ": take each id from the list its parent answers",
        "{field} does not belong to the chosen {parent}",
        "{field} не относится к выбранному {parent}",
        "{field} tanlangan {parent} ga tegishli emas",
    ),
    "ORGANIZATION_NOT_FOUND": E(
        NotFound,
        "Reload the list of banks and companies",
        "Organization not found",
        "Организация не найдена",
        "Tashkilot topilmadi",
    ),
    "BANK_OFFER_NOT_FOUND": E(
        NotFound,
        "Reload the bank offers (GET /api/v2/payments/banks) and let the user choose again",
        "Bank offer not found: choose one from the current offers",
        "Предложение банка не найдено: выберите из текущих предложений",
        "Bank taklifi topilmadi: amaldagi takliflardan birini tanlang",
    ),
    "BANK_OFFER_NOT_FOR_CAR": E(
        NotFound,
        "Reload the bank offers for this car and modification",
        "This bank offer is for another car or modification",
        "Это предложение банка для другого автомобиля или модификации",
        "Bu bank taklifi boshqa avtomobil yoki modifikatsiya uchun",
    ),
    "BANK_OFFER_CAR_NOT_SOLD": E(
        NotFound,
        "Reload the bank offers",
        "The car modification of this bank offer is no longer sold",
        "Модификация автомобиля из этого предложения банка больше не продаётся",
        "Bu bank taklifidagi avtomobil modifikatsiyasi endi sotilmaydi",
    ),
    "FINANCING_STEP_NOT_FOUND": E(
        NotFound,
        "Restart the bank credit chain from the bank offers",
        "{step} not found",
        "Шаг «{step}» не найден",
        "«{step}» bosqichi topilmadi",
    ),
    "LEASING_PROGRAM_NOT_FOUND": E(
        NotFound,
        "Reload the leasing programs",
        "Leasing program not found",
        "Лизинговая программа не найдена",
        "Lizing dasturi topilmadi",
    ),
    "INSTALLMENT_PLAN_NOT_FOUND": E(
        NotFound,
        "Reload the installment plans",
        "Installment plan not found",
        "План рассрочки не найден",
        "Muddatli toʻlov rejasi topilmadi",
    ),
    "PRODUCT_NOT_FOR_BRAND": E(
        NotFound,
        "Reload the financing options of this car",
        "{field} does not serve the brand of this car",
        "{field} не обслуживает бренд этого автомобиля",
        "{field} bu avtomobil brendiga xizmat koʻrsatmaydi",
    ),
    "INSTALLMENT_ROW_NOT_FOUND": E(
        NotFound,
        "Offer the plan's rows (`details.initialPercents`)",
        "This initial payment percent is not a row of the plan",
        "Такого процента первоначального взноса нет в плане",
        "Rejada bunday boshlangʻich toʻlov foizi yoʻq",
    ),
    "INSTALLMENT_TERM_NOT_FOUND": E(
        NotFound,
        "Offer the plan's terms (`details.terms`)",
        "This number of months is not a term of the plan",
        "Такого срока в месяцах нет в плане",
        "Rejada bunday oylar muddati yoʻq",
    ),
    "SPECIAL_OFFER_NOT_FOUND": E(
        NotFound,
        "Reload the special offers",
        "Special offer not found",
        "Специальное предложение не найдено",
        "Maxsus taklif topilmadi",
    ),
    "PAYMENT_TYPE_NOT_SOLD": E(
        NotFound,
        "Offer only the car's payment types (`details.offered`)",
        "The car is not sold by {paymentType}",
        "Этот автомобиль не продаётся с оплатой {paymentType}",
        "Bu avtomobil {paymentType} toʻlov turi bilan sotilmaydi",
    ),
    "PRICE_CHANGED": E(
        Conflict,
        "Show the new price (`details.currentPrice`) and ask the user to confirm again",
        "The price has changed",
        "Цена изменилась",
        "Narx oʻzgardi",
    ),
    # --- orders ----------------------------------------------------------------------------------
    "PAYMENT_TYPE_NOT_OFFERED": E(
        Conflict,
        "Offer only the car's payment types (`details.paymentTypes`)",
        "Payment type {paymentType} is not offered for this car",
        "Способ оплаты {paymentType} недоступен для этого автомобиля",
        "Bu avtomobil uchun {paymentType} toʻlov turi mavjud emas",
    ),
    "OUT_OF_STOCK": E(
        Conflict,
        "Let the user choose another branch, modification or color",
        "This branch has no car of this modification and color in stock",
        "В этом филиале нет в наличии автомобиля этой модификации и цвета",
        "Bu filialda ushbu modifikatsiya va rangdagi avtomobil mavjud emas",
    ),
    "ORGANIZATION_NOT_OF_OFFER": E(
        InvalidInput,
        CLIENT_BUG + ": send the organization of the chosen offer, or none",
        "This is not the organization of the chosen offer",
        "Это не организация выбранного предложения",
        "Bu tanlangan taklifning tashkiloti emas",
    ),
    "OFFER_NOT_CHOSEN": E(
        InvalidInput,
        CLIENT_BUG + ": send the chosen offer, or none",
        "This is not the chosen offer",
        "Это не выбранное предложение",
        "Bu tanlangan taklif emas",
    ),
    "PROMO_CODE_NEEDS_INITIAL_PAYMENT": E(
        Conflict,
        "Place the order without the promo code",
        "A promo code lowers the initial payment, and this financing has none: order without it",
        "Промокод уменьшает первоначальный взнос, а у этого финансирования его нет: оформите заказ без промокода",
        "Promokod boshlangʻich toʻlovni kamaytiradi, bu moliyalashtirishda esa u yoʻq: buyurtmani promokodsiz bering",
    ),
    "ORDER_NOT_FOUND": E(
        NotFound,
        "Reload the user's orders",
        "Order not found",
        "Заказ не найден",
        "Buyurtma topilmadi",
    ),
    "ORDER_NOT_PAYABLE": E(
        Conflict,
        "Reload the order and show its status; it takes no more payments",
        "The order is {status} and cannot take payments",
        "Заказ в статусе {status} и не принимает оплату",
        "Buyurtma {status} holatida va toʻlov qabul qilmaydi",
    ),
    "PAYMENT_ABOVE_DUE": E(
        Conflict,
        "Offer to pay at most what is still due (`details.remaining`)",
        "The payment is larger than the amount still due",
        "Платёж больше оставшейся к оплате суммы",
        "Toʻlov qolgan toʻlanadigan summadan katta",
    ),
    "PAYMENT_NOT_POSITIVE": E(
        Conflict,
        CLIENT_BUG,
        "A payment must be a positive amount",
        "Сумма платежа должна быть положительной",
        "Toʻlov summasi musbat boʻlishi kerak",
    ),
    "ORDER_STATUS_NEEDS_PAYMENT": E(
        Conflict,
        "Only a confirmed payment reaches this status",
        "Only a confirmed payment moves an order to {target}",
        "Только подтверждённый платёж переводит заказ в статус {target}",
        "Buyurtmani faqat tasdiqlangan toʻlov {target} holatiga oʻtkazadi",
    ),
    "ORDER_TRANSITION_NOT_ALLOWED": E(
        Conflict,
        "Reload the order; choose one of `details.allowed`",
        "The order cannot go from {current} to {target}",
        "Заказ нельзя перевести из {current} в {target}",
        "Buyurtmani {current} holatidan {target} holatiga oʻtkazib boʻlmaydi",
    ),
    "ORDER_CHANGED_CONCURRENTLY": E(
        Conflict,
        "Reload the order and try again",
        "The order is being changed by another request, try again",
        "Заказ изменяется другим запросом, повторите попытку",
        "Buyurtma boshqa soʻrov tomonidan oʻzgartirilmoqda, qayta urinib koʻring",
    ),
    "ORDER_BUSY": E(
        Unavailable,
        "Retry the same request after `Retry-After` seconds",
        "The order is being changed by another request; try again in a minute",
        "Заказ изменяется другим запросом; повторите через минуту",
        "Buyurtma boshqa soʻrov tomonidan oʻzgartirilmoqda; bir daqiqadan soʻng qayta urinib koʻring",
    ),
    "PROMO_CODE_NOT_FOUND": E(
        NotFound,
        "Tell the user the promo code does not exist",
        "Promo code not found",
        "Промокод не найден",
        "Promokod topilmadi",
    ),
    "PROMO_CODE_NOT_ACTIVE_YET": E(
        Conflict,
        "Tell the user from when the promo code works (`details.validFrom`)",
        "Promo code is not active yet",
        "Промокод ещё не действует",
        "Promokod hali amal qilmaydi",
    ),
    "PROMO_CODE_EXPIRED": E(
        Conflict,
        "Tell the user the promo code has expired",
        "Promo code has expired",
        "Срок действия промокода истёк",
        "Promokod muddati tugagan",
    ),
    "PROMO_CODE_ALREADY_USED": E(
        Conflict,
        "Tell the user they have used this promo code already",
        "You have already used this promo code",
        "Вы уже использовали этот промокод",
        "Siz bu promokoddan allaqachon foydalangansiz",
    ),
    "PROMO_CODE_USED_UP": E(
        Conflict,
        "Tell the user the promo code has run out",
        "Promo code has been used up",
        "Лимит использования промокода исчерпан",
        "Promokoddan foydalanish limiti tugagan",
    ),
    # --- card payments ---------------------------------------------------------------------------
    "CARD_NUMBER_LENGTH": E(
        InvalidInput,
        FIX_INPUT,
        "The card number must be 16 digits",
        "Номер карты должен состоять из 16 цифр",
        "Karta raqami 16 ta raqamdan iborat boʻlishi kerak",
    ),
    "CARD_NUMBER_CHECKSUM": E(
        InvalidInput,
        FIX_INPUT,
        "This is not a valid card number",
        "Неверный номер карты",
        "Karta raqami notoʻgʻri",
    ),
    "CARD_NETWORK_UNKNOWN": E(
        InvalidInput,
        FIX_INPUT,
        "The card belongs to no supported card network",
        "Карта не относится ни к одной поддерживаемой платёжной системе",
        "Karta qoʻllab-quvvatlanadigan toʻlov tizimlarining hech biriga tegishli emas",
    ),
    "CARD_TYPE_MISMATCH": E(
        InvalidInput,
        CLIENT_BUG + ": send the `cardType` check-card answered",
        "The card type does not match the card number",
        "Тип карты не соответствует номеру карты",
        "Karta turi karta raqamiga mos emas",
    ),
    "CARD_TYPE_NOT_ACCEPTED": E(
        InvalidInput,
        "Ask for a UZCARD or HUMO card",
        "Card payments accept UZCARD and HUMO only",
        "Оплата принимается только картами UZCARD и HUMO",
        "Toʻlov faqat UZCARD va HUMO kartalari bilan qabul qilinadi",
    ),
    "CARD_EXPIRY_FORMAT": E(
        InvalidInput,
        FIX_INPUT,
        "The expiry date must be MM/YY",
        "Срок действия должен быть в формате ММ/ГГ",
        "Amal qilish muddati OO/YY koʻrinishida boʻlishi kerak",
    ),
    "CARD_EXPIRY_MONTH": E(
        InvalidInput,
        FIX_INPUT,
        "The month must be 01 to 12",
        "Месяц должен быть от 01 до 12",
        "Oy 01 dan 12 gacha boʻlishi kerak",
    ),
    "CARD_EXPIRED": E(
        InvalidInput,
        "Ask for another card",
        "The card has expired",
        "Срок действия карты истёк",
        "Karta muddati tugagan",
    ),
    "BRAND_NOT_OF_ORDER": E(
        InvalidInput,
        CLIENT_BUG + ": send the order's brand",
        "The brand does not match the order's brand",
        "Бренд не совпадает с брендом заказа",
        "Brend buyurtma brendiga mos emas",
    ),
    "AMOUNT_ABOVE_DUE_WITH_PENDING": E(
        Conflict,
        "Offer to pay at most `details.remaining` minus `details.inProgress`",
        "The amount is larger than what is due after the payments in progress",
        "Сумма больше остатка к оплате с учётом платежей в процессе",
        "Summa jarayondagi toʻlovlardan keyin qolgan toʻlovdan katta",
    ),
    "TOO_MANY_CARD_PAYMENTS": E(
        TooManyAttempts,
        "Wait `Retry-After` seconds before starting another card payment",
        "Too many card payments started, try again later",
        "Начато слишком много оплат картой, повторите позже",
        "Karta bilan juda koʻp toʻlov boshlandi, keyinroq urinib koʻring",
    ),
    "NO_PENDING_TRANSACTION": E(
        NotFound,
        "Start a new card payment",
        "No pending transaction for this card and amount",
        "Нет ожидающей транзакции для этой карты и суммы",
        "Bu karta va summa uchun kutilayotgan tranzaksiya yoʻq",
    ),
    "ORDER_GONE": E(
        Conflict,
        "Reload the user's orders",
        "The order no longer exists",
        "Заказ больше не существует",
        "Buyurtma endi mavjud emas",
    ),
    "OTP_RESEND_TOO_EARLY": E(
        TooManyAttempts,
        "Enable the resend button after `details.retryAfter` seconds",
        "A new code can be requested in {seconds} s",
        "Новый код можно запросить через {seconds} с",
        "Yangi kodni {seconds} soniyadan soʻng soʻrash mumkin",
    ),
    "OTP_RESENDS_EXHAUSTED": E(
        Conflict,
        "Start a new card payment",
        "The code was already resent {max} times; start a new payment",
        "Код уже отправлялся повторно {max} раза; начните новую оплату",
        "Kod allaqachon {max} marta qayta yuborilgan; yangi toʻlovni boshlang",
    ),
    "TRANSACTION_NOT_FOUND": E(
        NotFound,
        "Start a new card payment",
        "Transaction not found",
        "Транзакция не найдена",
        "Tranzaksiya topilmadi",
    ),
    "TRANSACTION_MISMATCH": E(
        InvalidInput,
        CLIENT_BUG + ": send the amount, brand and order the transaction was created for",
        "The transaction was created for another amount, brand or order",
        "Транзакция создана для другой суммы, бренда или заказа",
        "Tranzaksiya boshqa summa, brend yoki buyurtma uchun yaratilgan",
    ),
    "TRANSACTION_BEING_CONFIRMED": E(
        Conflict,
        "Wait, then ask the order's transactions for the outcome",
        "The transaction is being confirmed by another request",
        "Транзакция подтверждается другим запросом",
        "Tranzaksiya boshqa soʻrov tomonidan tasdiqlanmoqda",
    ),
    "TRANSACTION_CHANGED": E(
        Conflict,
        "Try again",
        "The transaction changed while applying, try again",
        "Транзакция изменилась во время подтверждения, повторите попытку",
        "Tranzaksiya tasdiqlash vaqtida oʻzgardi, qayta urinib koʻring",
    ),
    "TRANSACTION_NOT_PENDING": E(
        Conflict,
        "Reload the order's transactions; start a new payment if needed",
        "The transaction is {status}, not pending",
        "Транзакция в статусе {status}, а не в ожидании",
        "Tranzaksiya {status} holatida, kutish holatida emas",
    ),
    "TRANSACTION_PROCESSOR_CHANGED": E(
        Conflict,
        "Start a new card payment",
        "The transaction was started with another card processor; start a new payment",
        "Транзакция начата через другой процессинг; начните новую оплату",
        "Tranzaksiya boshqa protsessing orqali boshlangan; yangi toʻlovni boshlang",
    ),
    "CHARGE_IN_PROGRESS": E(
        Conflict,
        "Retry after `Retry-After` seconds",
        "Another payment of this order is being confirmed, try again",
        "Другой платёж по этому заказу подтверждается, повторите попытку",
        "Bu buyurtma boʻyicha boshqa toʻlov tasdiqlanmoqda, qayta urinib koʻring",
    ),
    "OTP_WRONG": E(
        InvalidInput,
        "Ask for the code again (`details.attemptsLeft` tries left)",
        "Wrong code",
        "Неверный код",
        "Kod notoʻgʻri",
    ),
    "OTP_ATTEMPTS_EXHAUSTED": E(
        InvalidInput,
        "Start a new card payment",
        "Wrong code; no attempts left, the transaction has failed",
        "Неверный код; попыток не осталось, транзакция не прошла",
        "Kod notoʻgʻri; urinishlar qolmadi, tranzaksiya bajarilmadi",
    ),
    "OTP_EXPIRED": E(
        InvalidInput,
        "Offer to resend the code",
        "The code has expired; request a new one",
        "Срок действия кода истёк; запросите новый",
        "Kod muddati tugadi; yangisini soʻrang",
    ),
    "OTP_EXPIRED_NO_RESENDS": E(
        InvalidInput,
        "Start a new card payment",
        "The code has expired and no new code can be sent; start a new payment",
        "Срок действия кода истёк, новый отправить нельзя; начните новую оплату",
        "Kod muddati tugadi va yangisini yuborib boʻlmaydi; yangi toʻlovni boshlang",
    ),
    "PAYMENT_DECLINED": E(
        InvalidInput,
        "Ask for another card",
        "Payment declined by the card's bank",
        "Платёж отклонён банком карты",
        "Toʻlov karta banki tomonidan rad etildi",
    ),
    "PAYMENT_DECLINED_INSUFFICIENT_FUNDS": E(
        InvalidInput,
        "Ask for another card or a smaller amount",
        "Payment declined: insufficient funds on the card",
        "Платёж отклонён: недостаточно средств на карте",
        "Toʻlov rad etildi: kartada mablagʻ yetarli emas",
    ),
    "PAYMENT_DECLINED_CARD_BLOCKED": E(
        InvalidInput,
        "Ask for another card",
        "Payment declined: the card is blocked",
        "Платёж отклонён: карта заблокирована",
        "Toʻlov rad etildi: karta bloklangan",
    ),
    "PROCESSOR_UNAVAILABLE": E(
        Unavailable,
        RETRY_LATER,
        "The card processor is not available, try again later",
        "Процессинг карт недоступен, повторите попытку позже",
        "Karta protsessingi ishlamayapti, keyinroq urinib koʻring",
    ),
    "PROCESSOR_NO_ANSWER": E(
        Unavailable,
        "Retry the same apply after `Retry-After` seconds; the outcome is not known yet",
        "The card processor did not answer; try again in a minute",
        "Процессинг карт не ответил; повторите через минуту",
        "Karta protsessingi javob bermadi; bir daqiqadan soʻng qayta urinib koʻring",
    ),
    "ORDER_REFUSED_PAYMENT": E(
        Conflict,
        "Reload the order; the card was not charged",
        "The order cannot take this payment; the card was not charged",
        "Заказ не может принять этот платёж; деньги с карты не списаны",
        "Buyurtma bu toʻlovni qabul qila olmaydi; kartadan pul yechilmadi",
    ),
    "ORDER_REFUSED_PAYMENT_REVERSED": E(
        Conflict,
        "Reload the order; tell the user the charge was reversed",
        "The order cannot take this payment; the card payment was reversed",
        "Заказ не может принять этот платёж; платёж по карте отменён",
        "Buyurtma bu toʻlovni qabul qila olmaydi; karta orqali toʻlov bekor qilindi",
    ),
    "ORDER_REFUSED_PAYMENT_REFUND_PENDING": E(
        Conflict,
        "Reload the order; tell the user any money taken will come back to the card",
        "The order cannot take this payment; any money taken will be returned to the card",
        "Заказ не может принять этот платёж; списанные деньги вернутся на карту",
        "Buyurtma bu toʻlovni qabul qila olmaydi; yechilgan pul kartaga qaytariladi",
    ),
    # --- operators' commands (ops webhooks) -----------------------------------------------------------
    "WEBHOOK_URL_NOT_ABSOLUTE": E(
        InvalidInput,
        "Give the endpoint as an absolute https URL",
        "The webhook URL must be an absolute https URL",
        "URL вебхука должен быть абсолютным https-адресом",
        "Vebhuk URL manzili toʻliq https manzil boʻlishi kerak",
    ),
    "WEBHOOK_URL_CREDENTIALS_OR_FRAGMENT": E(
        InvalidInput,
        "Give the endpoint without user:password and without #fragment",
        "The webhook URL must not carry credentials or a fragment",
        "URL вебхука не должен содержать учётные данные или фрагмент",
        "Vebhuk URL manzilida hisob maʼlumotlari yoki fragment boʻlmasligi kerak",
    ),
    "WEBHOOK_URL_NOT_HTTPS": E(
        InvalidInput,
        "Give an https endpoint (http only to localhost, on a local runtime)",
        "The webhook URL must be https (http only to localhost, on a local runtime)",
        "URL вебхука должен быть https (http только для localhost при локальном запуске)",
        "Vebhuk URL manzili https boʻlishi kerak (http faqat mahalliy ishga tushirishda localhost uchun)",
    ),
    "PARTNER_NAME_TAKEN": E(
        Conflict,
        "Choose another name for the partner (ops partners list)",
        "A partner named {partner} exists",
        "Партнёр с именем {partner} уже есть",
        "{partner} nomli hamkor allaqachon mavjud",
    ),
    "PROMO_CODE_EXISTS": E(
        Conflict,
        "Choose another code (ops promo list)",
        "A promo code with this code exists",
        "Промокод с таким кодом уже есть",
        "Bunday kodli promokod allaqachon mavjud",
    ),
    "STOCK_QUANTITY_NEGATIVE": E(
        InvalidInput,
        "Give the number of units the branch can still sell, 0 or more",
        "The quantity cannot be negative",
        "Количество не может быть отрицательным",
        "Miqdor manfiy boʻlishi mumkin emas",
    ),
    "DATA_SET_REFUSED": E(
        InvalidInput,
        "Fix the records the command named, then import again",
        "The data set has problems (each named above); nothing was imported",
        "В наборе данных есть проблемы (каждая названа выше); ничего не импортировано",
        "Maʼlumotlar toʻplamida muammolar bor (har biri yuqorida koʻrsatilgan); hech narsa import qilinmadi",
    ),
    "PARTNER_NOT_FOUND": E(
        NotFound,
        "Check the partner's name (ops partners)",
        "No partner named {partner}",
        "Партнёр {partner} не найден",
        "{partner} nomli hamkor topilmadi",
    ),
    "WEBHOOK_NOT_FOUND": E(
        NotFound,
        "Register the endpoint first (ops webhooks set), or try again",
        "Partner {partner} has no webhook endpoint",
        "У партнёра {partner} нет адреса вебхука",
        "{partner} hamkorida vebhuk manzili yoʻq",
    ),
    # --- field errors: only in errors[] under VALIDATION_FAILED ----------------------------------
    "FIELD_REQUIRED": E(InvalidInput, FIX_INPUT, "Required", "Обязательное поле", "Majburiy maydon"),
    "FIELD_INVALID": E(InvalidInput, FIX_INPUT, "Invalid value", "Недопустимое значение", "Yaroqsiz qiymat"),
    "NOT_TEXT": E(InvalidInput, FIX_INPUT, "Must be text", "Должно быть строкой", "Matn boʻlishi kerak"),
    "NOT_A_NUMBER": E(InvalidInput, FIX_INPUT, "Must be a number", "Должно быть числом", "Son boʻlishi kerak"),
    "NOT_A_WHOLE_NUMBER": E(
        InvalidInput,
        FIX_INPUT,
        "Must be a whole number",
        "Должно быть целым числом",
        "Butun son boʻlishi kerak",
    ),
    "NOT_A_BOOLEAN": E(
        InvalidInput,
        CLIENT_BUG,
        "Must be true or false",
        "Должно быть true или false",
        "true yoki false boʻlishi kerak",
    ),
    "NOT_A_LIST": E(InvalidInput, CLIENT_BUG, "Must be a list", "Должно быть списком", "Roʻyxat boʻlishi kerak"),
    "NOT_AN_OBJECT": E(InvalidInput, CLIENT_BUG, "Must be an object", "Должно быть объектом", "Obyekt boʻlishi kerak"),
    "NOT_A_DATE": E(
        InvalidInput,
        FIX_INPUT,
        "Must be a date, YYYY-MM-DD",
        "Должно быть датой в формате ГГГГ-ММ-ДД",
        "YYYY-OO-KK koʻrinishidagi sana boʻlishi kerak",
    ),
    "NOT_A_UUID": E(InvalidInput, CLIENT_BUG, "Must be a UUID", "Должно быть UUID", "UUID boʻlishi kerak"),
    "BODY_NOT_JSON": E(InvalidInput, CLIENT_BUG, "Is not valid JSON", "Некорректный JSON", "Yaroqli JSON emas"),
    "WRONG_FORMAT": E(InvalidInput, FIX_INPUT, "Has the wrong format", "Неверный формат", "Formati notoʻgʻri"),
    "TOO_SHORT": E(
        InvalidInput,
        FIX_INPUT,
        "Must be at least {min} characters",
        "Должно быть не короче {min} символов",
        "Kamida {min} ta belgidan iborat boʻlishi kerak",
    ),
    "TOO_LONG": E(
        InvalidInput,
        FIX_INPUT,
        "Must be at most {max} characters",
        "Должно быть не длиннее {max} символов",
        "Koʻpi bilan {max} ta belgidan iborat boʻlishi kerak",
    ),
    "TOO_FEW_ITEMS": E(
        InvalidInput,
        FIX_INPUT,
        "Must have at least {min} items",
        "Должно содержать не менее {min} элементов",
        "Kamida {min} ta element boʻlishi kerak",
    ),
    "TOO_MANY_ITEMS": E(
        InvalidInput,
        FIX_INPUT,
        "Must have at most {max} items",
        "Должно содержать не более {max} элементов",
        "Koʻpi bilan {max} ta element boʻlishi kerak",
    ),
    "MUST_BE_GREATER_THAN": E(
        InvalidInput,
        FIX_INPUT,
        "Must be greater than {limit}",
        "Должно быть больше {limit}",
        "{limit} dan katta boʻlishi kerak",
    ),
    "MUST_BE_AT_LEAST": E(
        InvalidInput,
        FIX_INPUT,
        "Must be at least {limit}",
        "Должно быть не меньше {limit}",
        "Kamida {limit} boʻlishi kerak",
    ),
    "MUST_BE_LESS_THAN": E(
        InvalidInput,
        FIX_INPUT,
        "Must be less than {limit}",
        "Должно быть меньше {limit}",
        "{limit} dan kichik boʻlishi kerak",
    ),
    "MUST_BE_AT_MOST": E(
        InvalidInput,
        FIX_INPUT,
        "Must be at most {limit}",
        "Должно быть не больше {limit}",
        "Koʻpi bilan {limit} boʻlishi kerak",
    ),
    "NOT_ONE_OF": E(
        InvalidInput,
        FIX_INPUT,
        "Must be one of: {expected}",
        "Должно быть одним из: {expected}",
        "Quyidagilardan biri boʻlishi kerak: {expected}",
    ),
    "INVALID_ID": E(
        InvalidInput,
        CLIENT_BUG + ": send an id the API answered",
        "Must be a 24-character hexadecimal id",
        "Должно быть 24-символьным шестнадцатеричным идентификатором",
        "24 belgili oʻn oltilik identifikator boʻlishi kerak",
    ),
    "INVALID_PHONE": E(
        InvalidInput,
        FIX_INPUT,
        "Must be an international number with country prefix, e.g. +998901234567",
        "Должен быть международный номер с кодом страны, например +998901234567",
        "Mamlakat kodi bilan xalqaro raqam boʻlishi kerak, masalan +998901234567",
    ),
    "INVALID_PINFL": E(
        InvalidInput,
        FIX_INPUT,
        "Must be a 14-digit PINFL with a valid check digit",
        "Должен быть 14-значный ПИНФЛ с верной контрольной цифрой",
        "Toʻgʻri nazorat raqamli 14 xonali JShShIR boʻlishi kerak",
    ),
    "PHONE_OR_PIN_REQUIRED": E(
        InvalidInput,
        FIX_INPUT,
        "Phone or PINFL is required",
        "Нужен номер телефона или ПИНФЛ",
        "Telefon raqami yoki JShShIR kerak",
    ),
    "NUMBER_NOT_BOOLEAN": E(
        InvalidInput,
        CLIENT_BUG,
        "Must be a number, not true or false",
        "Должно быть числом, а не true или false",
        "true yoki false emas, son boʻlishi kerak",
    ),
    "OTP_FORMAT": E(
        InvalidInput,
        FIX_INPUT,
        "Must be the 6-digit code",
        "Должен быть 6-значный код",
        "6 xonali kod boʻlishi kerak",
    ),
    "ONLY_FOR_FINANCED_ORDERS": E(
        InvalidInput,
        CLIENT_BUG,
        "Is only accepted for CREDIT, LEASING or INSTALLMENT orders",
        "Принимается только для заказов CREDIT, LEASING или INSTALLMENT",
        "Faqat CREDIT, LEASING yoki INSTALLMENT buyurtmalari uchun qabul qilinadi",
    ),
    "CHOICES_REQUIRED": E(
        InvalidInput,
        CLIENT_BUG + ": send the choices made on the financing routes",
        "Is required for {paymentType} orders: the choices made on the financing routes",
        "Обязательно для заказов {paymentType}: выбор, сделанный на маршрутах финансирования",
        "{paymentType} buyurtmalari uchun majburiy: moliyalashtirish yoʻnalishlarida qilingan tanlov",
    ),
    "CHOICES_NOT_ACCEPTED": E(
        InvalidInput,
        CLIENT_BUG,
        "Is only accepted for {paymentType} orders",
        "Принимается только для заказов {paymentType}",
        "Faqat {paymentType} buyurtmalari uchun qabul qilinadi",
    ),
}

# pydantic's error types (https://docs.pydantic.dev/latest/errors/validation_errors/) -> our field codes,
# and which of the error's context values fills which of the code's params.
PYDANTIC_TYPES: dict[str, tuple[str, Mapping[str, str]]] = {
    "missing": ("FIELD_REQUIRED", {}),
    "string_type": ("NOT_TEXT", {}),
    "string_pattern_mismatch": ("WRONG_FORMAT", {}),
    "string_too_short": ("TOO_SHORT", {"min": "min_length"}),
    "string_too_long": ("TOO_LONG", {"max": "max_length"}),
    "too_short": ("TOO_FEW_ITEMS", {"min": "min_length"}),
    "too_long": ("TOO_MANY_ITEMS", {"max": "max_length"}),
    "int_type": ("NOT_A_WHOLE_NUMBER", {}),
    "int_parsing": ("NOT_A_WHOLE_NUMBER", {}),
    "int_parsing_size": ("NOT_A_WHOLE_NUMBER", {}),
    "int_from_float": ("NOT_A_WHOLE_NUMBER", {}),
    "float_type": ("NOT_A_NUMBER", {}),
    "float_parsing": ("NOT_A_NUMBER", {}),
    "finite_number": ("NOT_A_NUMBER", {}),
    "decimal_type": ("NOT_A_NUMBER", {}),
    "decimal_parsing": ("NOT_A_NUMBER", {}),
    "bool_type": ("NOT_A_BOOLEAN", {}),
    "bool_parsing": ("NOT_A_BOOLEAN", {}),
    "list_type": ("NOT_A_LIST", {}),
    "tuple_type": ("NOT_A_LIST", {}),
    "set_type": ("NOT_A_LIST", {}),
    "dict_type": ("NOT_AN_OBJECT", {}),
    "model_type": ("NOT_AN_OBJECT", {}),
    "model_attributes_type": ("NOT_AN_OBJECT", {}),
    "date_type": ("NOT_A_DATE", {}),
    "date_parsing": ("NOT_A_DATE", {}),
    "date_from_datetime_parsing": ("NOT_A_DATE", {}),
    "date_from_datetime_inexact": ("NOT_A_DATE", {}),
    "uuid_type": ("NOT_A_UUID", {}),
    "uuid_parsing": ("NOT_A_UUID", {}),
    "json_invalid": ("BODY_NOT_JSON", {}),
    "greater_than": ("MUST_BE_GREATER_THAN", {"limit": "gt"}),
    "greater_than_equal": ("MUST_BE_AT_LEAST", {"limit": "ge"}),
    "less_than": ("MUST_BE_LESS_THAN", {"limit": "lt"}),
    "less_than_equal": ("MUST_BE_AT_MOST", {"limit": "le"}),
    "literal_error": ("NOT_ONE_OF", {"expected": "expected"}),
    "enum": ("NOT_ONE_OF", {"expected": "expected"}),
}


def message(code: str, locale: Locale, params: Mapping[str, Any] | None = None) -> str:
    """The code's message in `locale`, its params filled in; a code missing from the catalogue (a bug
    the catalogue's test catches) answers the generic message rather than fail the answer."""
    entry = CODES.get(code) or CODES["INTERNAL_ERROR"]
    template = entry.text(locale)
    # A param may itself be a text in each language (`{"ru": ..., "uz": ..., "en": ...}`).
    values = {name: localize(value, locale) for name, value in (params or {}).items()}
    try:
        return template.format_map(values)
    except (KeyError, IndexError, ValueError):
        return entry.text(locale).split("{", 1)[0].rstrip(" :")


def field_code(pydantic_error: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    """The code and params of one pydantic validation error: our own validators' codes as they are
    (`core.errors.invalid_value`), pydantic's types through PYDANTIC_TYPES, anything else FIELD_INVALID."""
    kind = str(pydantic_error.get("type", ""))
    context: Mapping[str, Any] = pydantic_error.get("ctx") or {}
    if kind in CODES:
        return kind, dict(context)
    code, params = PYDANTIC_TYPES.get(kind, ("FIELD_INVALID", {}))
    return code, {name: context.get(source, "") for name, source in params.items()}


def rendered_errors(problems: list[FieldProblem] | None, locale: Locale) -> list[dict[str, str]] | None:
    """`errors[]` of the envelope: each field with its code and its message in `locale`."""
    if problems is None:
        return None
    return [
        {
            "field": problem["field"],
            "code": problem["code"],
            "message": message(problem["code"], locale, problem["params"]),
        }
        for problem in problems
    ]
