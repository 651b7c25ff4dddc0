"""The codes any route may answer: an unexpected failure, a dependency or the data being busy."""

from core.errors import AppError, Unavailable
from edge.error_codes.entry import RETRY_LATER, E, ErrorCode

CODES: dict[str, ErrorCode] = {
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
}
