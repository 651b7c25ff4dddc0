"""The codes only the operators' commands answer (`python -m ops ...`): partners, webhooks, promo codes,
stock, the data set."""

from core.errors import Conflict, InvalidInput, NotFound
from edge.error_codes.entry import ErrorCode

CODES: dict[str, ErrorCode] = {
    "WEBHOOK_URL_NOT_ABSOLUTE": ErrorCode(
        kind=InvalidInput,
        action="Give the endpoint as an absolute https URL",
        en="The webhook URL must be an absolute https URL",
        ru="URL вебхука должен быть абсолютным https-адресом",
        uz="Vebhuk URL manzili toʻliq https manzil boʻlishi kerak",
    ),
    "WEBHOOK_URL_CREDENTIALS_OR_FRAGMENT": ErrorCode(
        kind=InvalidInput,
        action="Give the endpoint without user:password and without #fragment",
        en="The webhook URL must not carry credentials or a fragment",
        ru="URL вебхука не должен содержать учётные данные или фрагмент",
        uz="Vebhuk URL manzilida hisob maʼlumotlari yoki fragment boʻlmasligi kerak",
    ),
    "WEBHOOK_URL_NOT_HTTPS": ErrorCode(
        kind=InvalidInput,
        action="Give an https endpoint (http only to localhost, on a local runtime)",
        en="The webhook URL must be https (http only to localhost, on a local runtime)",
        ru="URL вебхука должен быть https (http только для localhost при локальном запуске)",
        uz="Vebhuk URL manzili https boʻlishi kerak (http faqat mahalliy ishga tushirishda localhost uchun)",
    ),
    "WEBHOOK_URL_CONTROL_CHARACTERS": ErrorCode(
        kind=InvalidInput,
        action="Give the endpoint without spaces or control characters",
        en="The webhook URL must not contain spaces or control characters",
        ru="URL вебхука не должен содержать пробелы или управляющие символы",
        uz="Vebhuk URL manzilida boʻsh joy yoki boshqaruv belgilari boʻlmasligi kerak",
    ),
    "WEBHOOK_URL_UNRESOLVABLE": ErrorCode(
        kind=InvalidInput,
        action="Register the endpoint once its host name resolves in DNS",
        en="The webhook host {host} does not resolve to an address",
        ru="Имя хоста вебхука {host} не разрешается в адрес",
        uz="Vebhuk xosti {host} manzilga aylanmaydi",
    ),
    "WEBHOOK_URL_INTERNAL_ADDRESS": ErrorCode(
        kind=InvalidInput,
        action="Give an endpoint on a public address (not loopback, private, link-local or internal)",
        en="The webhook host {host} is or resolves to an internal address",
        ru="Хост вебхука {host} является внутренним адресом или разрешается в него",
        uz="Vebhuk xosti {host} ichki manzil yoki ichki manzilga aylanadi",
    ),
    "PARTNER_NAME_TAKEN": ErrorCode(
        kind=Conflict,
        action="Choose another name for the partner (ops partners list)",
        en="A partner named {partner} exists",
        ru="Партнёр с именем {partner} уже есть",
        uz="{partner} nomli hamkor allaqachon mavjud",
    ),
    "PROMO_CODE_EXISTS": ErrorCode(
        kind=Conflict,
        action="Choose another code (ops promo list)",
        en="A promo code with this code exists",
        ru="Промокод с таким кодом уже есть",
        uz="Bunday kodli promokod allaqachon mavjud",
    ),
    "STOCK_QUANTITY_NEGATIVE": ErrorCode(
        kind=InvalidInput,
        action="Give the number of units the branch can still sell, 0 or more",
        en="The quantity cannot be negative",
        ru="Количество не может быть отрицательным",
        uz="Miqdor manfiy boʻlishi mumkin emas",
    ),
    "DATA_SET_REFUSED": ErrorCode(
        kind=InvalidInput,
        action="Fix the records the command named, then import again",
        en="The data set has problems (each named above); nothing was imported",
        ru="В наборе данных есть проблемы (каждая названа выше); ничего не импортировано",
        uz="Maʼlumotlar toʻplamida muammolar bor (har biri yuqorida koʻrsatilgan); hech narsa import qilinmadi",
    ),
    "ASSERTION_KEY_ONE_OF": ErrorCode(
        kind=InvalidInput,
        action="Give either --public-key FILE or --hs256",
        en="Give one assertion key: a public key or a generated HS256 secret, not both",
        ru="Укажите один ключ подтверждения: открытый ключ или сгенерированный секрет HS256, не оба",
        uz="Bitta tasdiqlash kalitini bering: ochiq kalit yoki yaratilgan HS256 siri, ikkalasini emas",
    ),
    "ASSERTION_KEY_ONLY_FOR_ASSERTION": ErrorCode(
        kind=InvalidInput,
        action="Give a key only with the assertion policy",
        en="An assertion key is only registered with the assertion login policy",
        ru="Ключ подтверждения регистрируется только с политикой входа assertion",
        uz="Tasdiqlash kaliti faqat assertion kirish siyosati bilan roʻyxatdan oʻtkaziladi",
    ),
    "ASSERTION_KEY_REQUIRED": ErrorCode(
        kind=InvalidInput,
        action="Register the partner's key: --public-key FILE or --hs256",
        en="The assertion login policy needs the partner's key: --public-key FILE or --hs256",
        ru="Политике входа assertion нужен ключ партнёра: --public-key FILE или --hs256",
        uz="assertion kirish siyosatiga hamkor kaliti kerak: --public-key FILE yoki --hs256",
    ),
    "ASSERTION_KEY_UNSUPPORTED": ErrorCode(
        kind=InvalidInput,
        action="Give a PEM public key: Ed25519, EC P-256, or RSA of 2048 bits or more",
        en="The key must be a PEM public key: Ed25519, EC P-256, or RSA of 2048 bits or more",
        ru="Ключ должен быть открытым ключом PEM: Ed25519, EC P-256 или RSA от 2048 бит",
        uz="Kalit PEM ochiq kaliti boʻlishi kerak: Ed25519, EC P-256 yoki kamida 2048 bitli RSA",
    ),
    "DATA_SET_OUTDATED": ErrorCode(
        kind=Conflict,
        action="Export again and make the edits on that file, or keep in this one only the lists you edited "
        "(or import it with --force to overwrite the changes named above)",
        en="The file is older than live changes made since it was exported (each named above); nothing was imported",
        ru="Файл старее изменений, сделанных после его выгрузки (каждое названо выше); ничего не импортировано",
        uz="Fayl u yuklab olingandan keyin kiritilgan oʻzgarishlardan eskiroq (har biri yuqorida "
        "koʻrsatilgan); hech narsa import qilinmadi",
    ),
    "PARTNER_NOT_FOUND": ErrorCode(
        kind=NotFound,
        action="Check the partner's name (ops partners)",
        en="No partner named {partner}",
        ru="Партнёр {partner} не найден",
        uz="{partner} nomli hamkor topilmadi",
    ),
    "WEBHOOK_NOT_FOUND": ErrorCode(
        kind=NotFound,
        action="Register the endpoint first (ops webhooks set), or try again",
        en="Partner {partner} has no webhook endpoint",
        ru="У партнёра {partner} нет адреса вебхука",
        uz="{partner} hamkorida vebhuk manzili yoʻq",
    ),
}
