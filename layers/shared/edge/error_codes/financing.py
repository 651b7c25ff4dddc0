"""The codes of financing: banks, credit products, offers, leasing, installments, special offers."""

from core.errors import Conflict, NotFound
from edge.error_codes.entry import CLIENT_BUG, E, ErrorCode

CODES: dict[str, ErrorCode] = {
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
}
