"""The codes of financing: banks, credit products, offers, leasing, installments, special offers."""

from core.errors import Conflict, NotFound
from edge.error_codes.entry import CLIENT_BUG, ErrorCode

CODES: dict[str, ErrorCode] = {
    "IDS_DO_NOT_MATCH": ErrorCode(
        kind=NotFound,
        action=CLIENT_BUG + ": take each id from the list its parent answers",
        en="{field} does not belong to the chosen {parent}",
        ru="{field} не относится к выбранному {parent}",
        uz="{field} tanlangan {parent} ga tegishli emas",
    ),
    "ORGANIZATION_NOT_FOUND": ErrorCode(
        kind=NotFound,
        action="Reload the list of banks and companies",
        en="Organization not found",
        ru="Организация не найдена",
        uz="Tashkilot topilmadi",
    ),
    "BANK_OFFER_NOT_FOUND": ErrorCode(
        kind=NotFound,
        action="Reload the bank offers (GET /api/v2/payments/banks) and let the user choose again",
        en="Bank offer not found: choose one from the current offers",
        ru="Предложение банка не найдено: выберите из текущих предложений",
        uz="Bank taklifi topilmadi: amaldagi takliflardan birini tanlang",
    ),
    "BANK_OFFER_NOT_FOR_CAR": ErrorCode(
        kind=NotFound,
        action="Reload the bank offers for this car and modification",
        en="This bank offer is for another car or modification",
        ru="Это предложение банка для другого автомобиля или модификации",
        uz="Bu bank taklifi boshqa avtomobil yoki modifikatsiya uchun",
    ),
    "BANK_OFFER_CAR_NOT_SOLD": ErrorCode(
        kind=NotFound,
        action="Reload the bank offers",
        en="The car modification of this bank offer is no longer sold",
        ru="Модификация автомобиля из этого предложения банка больше не продаётся",
        uz="Bu bank taklifidagi avtomobil modifikatsiyasi endi sotilmaydi",
    ),
    "FINANCING_STEP_NOT_FOUND": ErrorCode(
        kind=NotFound,
        action="Restart the bank credit chain from the bank offers",
        en="{step} not found",
        ru="Шаг «{step}» не найден",
        uz="«{step}» bosqichi topilmadi",
    ),
    "LEASING_PROGRAM_NOT_FOUND": ErrorCode(
        kind=NotFound,
        action="Reload the leasing programs",
        en="Leasing program not found",
        ru="Лизинговая программа не найдена",
        uz="Lizing dasturi topilmadi",
    ),
    "INSTALLMENT_PLAN_NOT_FOUND": ErrorCode(
        kind=NotFound,
        action="Reload the installment plans",
        en="Installment plan not found",
        ru="План рассрочки не найден",
        uz="Muddatli toʻlov rejasi topilmadi",
    ),
    "PRODUCT_NOT_FOR_BRAND": ErrorCode(
        kind=NotFound,
        action="Reload the financing options of this car",
        en="{field} does not serve the brand of this car",
        ru="{field} не обслуживает бренд этого автомобиля",
        uz="{field} bu avtomobil brendiga xizmat koʻrsatmaydi",
    ),
    "INSTALLMENT_ROW_NOT_FOUND": ErrorCode(
        kind=NotFound,
        action="Offer the plan's rows (`details.initialPercents`)",
        en="This initial payment percent is not a row of the plan",
        ru="Такого процента первоначального взноса нет в плане",
        uz="Rejada bunday boshlangʻich toʻlov foizi yoʻq",
    ),
    "INSTALLMENT_TERM_NOT_FOUND": ErrorCode(
        kind=NotFound,
        action="Offer the plan's terms (`details.terms`)",
        en="This number of months is not a term of the plan",
        ru="Такого срока в месяцах нет в плане",
        uz="Rejada bunday oylar muddati yoʻq",
    ),
    "SPECIAL_OFFER_NOT_FOUND": ErrorCode(
        kind=NotFound,
        action="Reload the special offers",
        en="Special offer not found",
        ru="Специальное предложение не найдено",
        uz="Maxsus taklif topilmadi",
    ),
    "PAYMENT_TYPE_NOT_SOLD": ErrorCode(
        kind=NotFound,
        action="Offer only the car's payment types (`details.offered`)",
        en="The car is not sold by {paymentType}",
        ru="Этот автомобиль не продаётся с оплатой {paymentType}",
        uz="Bu avtomobil {paymentType} toʻlov turi bilan sotilmaydi",
    ),
    "PRICE_CHANGED": ErrorCode(
        kind=Conflict,
        action="Show the new price (`details.currentPrice`) and ask the user to confirm again",
        en="The price has changed",
        ru="Цена изменилась",
        uz="Narx oʻzgardi",
    ),
}
