"""The codes of the catalog and the dictionaries: brands, cars, modifications, colors, regions, branches."""

from core.errors import InvalidInput, NotFound
from edge.error_codes.entry import CLIENT_BUG, ErrorCode

CODES: dict[str, ErrorCode] = {
    "TOO_MANY_IDS": ErrorCode(
        kind=InvalidInput,
        action=CLIENT_BUG,
        en="At most {max} ids",
        ru="Не более {max} идентификаторов",
        uz="Koʻpi bilan {max} ta identifikator",
    ),
    "BRAND_NOT_FOUND": ErrorCode(
        kind=NotFound,
        action="Reload the brands",
        en="Brand not found",
        ru="Бренд не найден",
        uz="Brend topilmadi",
    ),
    "CAR_NOT_FOUND": ErrorCode(
        kind=NotFound,
        action="Reload the list of cars; this one is no longer sold",
        en="Car not found",
        ru="Автомобиль не найден",
        uz="Avtomobil topilmadi",
    ),
    "CAR_NOT_OF_BRAND": ErrorCode(
        kind=NotFound,
        action=CLIENT_BUG + ": take the car from this brand's list",
        en="This car is not a model of this brand",
        ru="Этот автомобиль не является моделью этого бренда",
        uz="Bu avtomobil ushbu brendning modeli emas",
    ),
    "MODIFICATION_NOT_FOUND": ErrorCode(
        kind=NotFound,
        action="Reload the car; this modification is no longer sold",
        en="Modification not found",
        ru="Модификация не найдена",
        uz="Modifikatsiya topilmadi",
    ),
    "COLOR_NOT_FOUND": ErrorCode(
        kind=NotFound,
        action="Reload the car; this color is no longer offered",
        en="Color not found for this car",
        ru="Цвет для этого автомобиля не найден",
        uz="Bu avtomobil uchun rang topilmadi",
    ),
    "REGION_NOT_FOUND": ErrorCode(
        kind=NotFound,
        action="Reload the regions",
        en="Region not found",
        ru="Регион не найден",
        uz="Hudud topilmadi",
    ),
    "BRANCH_NOT_FOUND": ErrorCode(
        kind=NotFound,
        action="Reload the branches; this one is closed",
        en="Branch not found or not active",
        ru="Филиал не найден или не работает",
        uz="Filial topilmadi yoki faol emas",
    ),
    "BRANCH_NOT_IN_REGION": ErrorCode(
        kind=NotFound,
        action="Reload the branches of the chosen region",
        en="Branch not found in this region",
        ru="В этом регионе нет такого филиала",
        uz="Bu hududda bunday filial yoʻq",
    ),
    "BRANCH_DOES_NOT_SELL_BRAND": ErrorCode(
        kind=NotFound,
        action="Let the user choose a branch that sells this brand",
        en="This branch does not sell this car's brand",
        ru="Этот филиал не продаёт автомобили этого бренда",
        uz="Bu filial ushbu brend avtomobillarini sotmaydi",
    ),
    "CONTACTS_NOT_CONFIGURED": ErrorCode(
        kind=NotFound,
        action="Hide the contacts screen",
        en="Contacts are not configured",
        ru="Контакты не настроены",
        uz="Kontaktlar sozlanmagan",
    ),
    "DOCUMENT_NOT_FOUND": ErrorCode(
        kind=NotFound,
        action="Hide the link to the document",
        en="Document not found",
        ru="Документ не найден",
        uz="Hujjat topilmadi",
    ),
}
