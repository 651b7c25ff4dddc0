"""The codes of the catalog and the dictionaries: brands, cars, modifications, colors, regions, branches."""

from core.errors import InvalidInput, NotFound
from edge.error_codes.entry import CLIENT_BUG, E, ErrorCode

CODES: dict[str, ErrorCode] = {
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
}
