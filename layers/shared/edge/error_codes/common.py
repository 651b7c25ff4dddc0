"""The codes any route may answer: an unexpected failure, a dependency or the data being busy."""

from core.errors import AppError, Unavailable
from edge.error_codes.entry import RETRY_LATER, ErrorCode

CODES: dict[str, ErrorCode] = {
    "INTERNAL_ERROR": ErrorCode(
        kind=AppError,
        action="Tell the user something went wrong; report it to support with the request id "
        "(`X-Request-Id`, also `details.requestId`)",
        en="Internal server error; quote request {requestId} to support",
        ru="Внутренняя ошибка сервера; сообщите в поддержку номер запроса {requestId}",
        uz="Serverning ichki xatosi; qoʻllab-quvvatlash xizmatiga soʻrov raqamini ayting: {requestId}",
    ),
    "SERVICE_UNAVAILABLE": ErrorCode(
        kind=Unavailable,
        action=RETRY_LATER,
        en="Service temporarily unavailable, try again later",
        ru="Сервис временно недоступен, повторите попытку позже",
        uz="Xizmat vaqtincha ishlamayapti, keyinroq urinib koʻring",
    ),
    "SERVICE_NOT_CONFIGURED": ErrorCode(
        kind=Unavailable,
        action="Tell the user the feature is unavailable for now; the operator must finish the setup",
        en="This feature is not available right now, try again later",
        ru="Эта функция сейчас недоступна, повторите попытку позже",
        uz="Bu imkoniyat hozircha mavjud emas, keyinroq urinib koʻring",
    ),
    "DATA_BUSY": ErrorCode(
        kind=Unavailable,
        action="Retry after `Retry-After` seconds",
        en="The data is being changed by another request, try again",
        ru="Данные изменяются другим запросом, повторите попытку",
        uz="Maʼlumotlar boshqa soʻrov tomonidan oʻzgartirilmoqda, qayta urinib koʻring",
    ),
}
