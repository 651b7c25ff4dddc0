"""The codes only the operators' commands answer (`python -m ops ...`): partners, webhooks, promo codes,
stock, the data set."""

from core.errors import Conflict, InvalidInput, NotFound
from edge.error_codes.entry import E, ErrorCode

CODES: dict[str, ErrorCode] = {
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
}
