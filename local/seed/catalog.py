"""Demo catalog and dealer network (docs/DEMO_DATA.md): brands, body types, powertrains, car models
with modifications, colors and info blocks, the 14 regions, branches, stock, contacts and documents.

Ids are stable (`stable_id("car:chevrolet-cobalt")`), so the docs and sample events can name them.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from bson import ObjectId

from core.locale import LOCALES
from data.mongo import Document
from local.seed.catalog_data import (
    BODY_TYPES,
    BRANDS,
    COLORS,
    DRIVES,
    GEARBOXES,
    MODELS,
    POWERTRAINS,
    BrandRow,
    Mod,
    ModelRow,
    Text,
)
from local.seed.dealers_data import BRANCHES, HOURS, REGIONS, BranchRow
from local.seed.support import stable_id

DOCUMENTS_DIR = Path(__file__).parent / "documents"
CATALOG_SINCE = datetime(2025, 1, 1, tzinfo=UTC)
STOCK_BRANCHES_PER_CAR = 3
CONTACTS = {"_id": "contacts", "phone": "+998712023030", "tg": "https://t.me/car_retail_uz"}


def text(value: Text) -> dict[str, str]:
    ru, uz, en = value
    return {"ru": ru, "uz": uz, "en": en}


def same(value: str) -> dict[str, str]:
    return dict.fromkeys(LOCALES, value)


def units(value: str, ru: str, uz: str, en: str) -> dict[str, str]:
    return text((f"{value} {ru}", f"{value} {uz}", f"{value} {en}"))


# Ids of every seeded record, by slug: the docs, the events and other seeders use them.
def brand_id(slug: str) -> ObjectId:
    return stable_id(f"brand:{slug}")


def car_id(slug: str) -> ObjectId:
    return stable_id(f"car:{slug}")


def modification_id(car_slug: str, index: int) -> ObjectId:
    return stable_id(f"modification:{car_slug}:{index}")


def color_id(car_slug: str, color: str) -> ObjectId:
    return stable_id(f"color:{car_slug}:{color}")


def region_id(slug: str) -> ObjectId:
    return stable_id(f"region:{slug}")


def branch_id(slug: str) -> ObjectId:
    return stable_id(f"branch:{slug}")


def car_slug(model: ModelRow) -> str:
    return f"{model.brand}-{model.slug}"


def color_image(body: str, hex_code: str) -> str:
    return f"colors/{body}-{hex_code.lstrip('#').lower()}.svg"


def brand_docs() -> list[Document]:
    return [
        {
            "_id": brand_id(brand.slug),
            "slug": brand.slug,
            "name": brand.name,
            "logo": f"brands/{brand.slug}.svg",
            "country": text(brand.country),
            "description": text(brand.description),
            "order": order,
            "createdAt": CATALOG_SINCE,
        }
        for order, brand in enumerate(BRANDS, start=1)
    ]


def body_type_docs() -> list[Document]:
    return [
        {"_id": stable_id(f"body:{slug}"), "slug": slug, "name": text(name), "image": f"bodies/{slug}.svg", "order": n}
        for n, (slug, name) in enumerate(BODY_TYPES.items(), start=1)
    ]


def powertrain_docs() -> list[Document]:
    return [
        {"_id": stable_id(f"powertrain:{slug}"), "slug": slug, "name": text(name), "order": n}
        for n, (slug, name) in enumerate(POWERTRAINS.items(), start=1)
    ]


def engine_section(model: ModelRow, mod: Mod) -> Document:
    electric = model.powertrain == "EV"
    items = [{"name": text(("Тип", "Turi", "Type")), "value": text(POWERTRAINS[model.powertrain])}]
    if electric:
        battery = mod.engine.removesuffix(" kWh")
        items.append(
            {"name": text(("Батарея", "Batareya", "Battery")), "value": units(battery, "кВт·ч", "kVt·soat", "kWh")}
        )
    else:
        litres, turbo = mod.engine.removesuffix("T"), mod.engine.endswith("T")
        ru, uz, en = (", турбо", ", turbo", " turbo") if turbo else ("", "", "")
        volume = text((f"{litres} л{ru}", f"{litres} l{uz}", f"{litres} l{en}"))
        items.append({"name": text(("Объём", "Hajmi", "Displacement")), "value": volume})
    items.append({"name": text(("Мощность", "Quvvati", "Power")), "value": units(str(mod.hp), "л.с.", "o.k.", "hp")})
    if mod.range_km:
        items.append(
            {
                "name": text(("Запас хода на электричестве", "Elektrda yurish zaxirasi", "Electric range")),
                "value": units(str(mod.range_km), "км", "km", "km"),
            }
        )
    title = (
        ("Электродвигатель", "Elektr dvigatel", "Electric motor") if electric else ("Двигатель", "Dvigatel", "Engine")
    )
    return {"title": text(title), "items": items}


def specs(model: ModelRow, mod: Mod) -> list[Document]:
    length, width, height, wheelbase, clearance, seats = model.dims
    return [
        engine_section(model, mod),
        {
            "title": text(("Трансмиссия", "Transmissiya", "Transmission")),
            "items": [
                {
                    "name": text(("Коробка передач", "Uzatmalar qutisi", "Gearbox")),
                    "value": text(GEARBOXES[mod.gearbox]),
                },
                {"name": text(("Привод", "Yuritma", "Drive")), "value": text(DRIVES[mod.drive])},
            ],
        },
        {
            "title": text(("Габариты", "O'lchamlar", "Dimensions")),
            "items": [
                {
                    "name": text(("Д×Ш×В", "U×E×B", "L×W×H")),
                    "value": units(f"{length}×{width}×{height}", "мм", "mm", "mm"),
                },
                {
                    "name": text(("Колёсная база", "G'ildirak bazasi", "Wheelbase")),
                    "value": units(str(wheelbase), "мм", "mm", "mm"),
                },
                {
                    "name": text(("Клиренс", "Klirens", "Ground clearance")),
                    "value": units(str(clearance), "мм", "mm", "mm"),
                },
                {"name": text(("Мест", "O'rindiqlar", "Seats")), "value": same(str(seats))},
            ],
        },
    ]


def powertrain_block(model: ModelRow) -> tuple[Text, Text]:
    top_hp = max(mod.hp for mod in model.mods)
    top_range = max(mod.range_km or 0 for mod in model.mods)
    if model.powertrain == "EV":
        return ("Запас хода", "Yurish zaxirasi", "Range"), (
            f"До {top_range} км на одной зарядке, быстрая зарядка до 80% за 30 минут.",
            f"Bir quvvatlashda {top_range} km gacha, 30 daqiqada 80% gacha tez quvvatlash.",
            f"Up to {top_range} km per charge; fast charging to 80% in 30 minutes.",
        )
    if model.powertrain == "PHEV":
        return ("Электричество и бензин", "Elektr va benzin", "Electric and petrol"), (
            f"До {top_range} км только на электричестве, дальше работает бензиновый мотор.",
            f"Faqat elektrda {top_range} km gacha, keyin benzin dvigatel ishlaydi.",
            f"Up to {top_range} km on electricity alone, then the petrol engine takes over.",
        )
    if model.powertrain == "HYBRID":
        return ("Гибрид", "Gibrid", "Hybrid"), (
            "Электромотор помогает при разгоне и снижает расход топлива в городе.",
            "Elektr motor tezlanishda yordam beradi va shaharda yoqilg'i sarfini kamaytiradi.",
            "An electric motor helps on acceleration and cuts fuel use in town.",
        )
    return ("Двигатель", "Dvigatel", "Engine"), (
        f"Мощность до {top_hp} л.с. и экономичный расход на каждый день.",
        f"{top_hp} o.k. gacha quvvat va har kunlik tejamkor sarf.",
        f"Up to {top_hp} hp with economical everyday consumption.",
    )


def info_blocks(model: ModelRow, brand: BrandRow) -> list[Document]:
    slug, name = car_slug(model), model.name
    ru_w, uz_w, en_w = brand.warranty
    blocks: list[tuple[str, Text, Text]] = [
        (
            "design",
            ("Дизайн", "Dizayn", "Design"),
            (
                f"{name}: узнаваемый силуэт, светодиодная оптика и легкосплавные диски.",
                f"{name}: taniqli siluet, LED chiroqlar va yengil qotishmali disklar.",
                f"{name}: a recognisable silhouette, LED lights and alloy wheels.",
            ),
        ),
        (
            "safety",
            ("Безопасность", "Xavfsizlik", "Safety"),
            (
                "Фронтальные и боковые подушки, ABS, ESC и крепления ISOFIX в каждой комплектации.",
                "Har bir komplektatsiyada old va yon yostiqchalar, ABS, ESC va ISOFIX mahkamlagichlari.",
                "Front and side airbags, ABS, ESC and ISOFIX mounts in every trim.",
            ),
        ),
        (model.powertrain.lower(), *powertrain_block(model)),
        (
            "warranty",
            ("Гарантия", "Kafolat", "Warranty"),
            (
                f"Официальная гарантия: {ru_w}, сервис у дилеров {brand.name}.",
                f"Rasmiy kafolat: {uz_w}, {brand.name} dilerlarida servis.",
                f"Official warranty of {en_w}, with service at {brand.name} dealers.",
            ),
        ),
    ]
    return [
        {
            "_id": stable_id(f"info:{slug}:{key}"),
            "title": text(title),
            "description": text(description),
            "image": f"info/{key}.svg",
        }
        for key, title, description in blocks
    ]


def car_docs() -> list[Document]:
    brands = {brand.slug: brand for brand in BRANDS}
    docs = []
    for model in MODELS:
        slug = car_slug(model)
        colors = [
            {
                "_id": color_id(slug, color),
                "name": text(COLORS[color][0]),
                "hex": COLORS[color][1],
                "image": color_image(model.body, COLORS[color][1]),
            }
            for color in model.colors
        ]
        modifications = [
            {"_id": modification_id(slug, index), "name": mod.trim, "price": mod.price, "specs": specs(model, mod)}
            | ({"sale": mod.sale} if mod.sale else {})
            for index, mod in enumerate(model.mods)
        ]
        docs.append(
            {
                "_id": car_id(slug),
                "slug": slug,
                "brandId": brand_id(model.brand),
                "bodyTypeId": stable_id(f"body:{model.body}"),
                "powertrainId": stable_id(f"powertrain:{model.powertrain}"),
                "name": same(model.name),
                "description": text(model.description),
                "year": model.year,
                "image": f"cars/{slug}.svg",
                "gallery": [color["image"] for color in colors],
                "priceFrom": min(mod.price for mod in model.mods),
                "paymentTypes": list(model.payment_types),
                "isNew": model.is_new,
                "createdAt": datetime.fromisoformat(model.launched).replace(tzinfo=UTC),
                "info": info_blocks(model, brands[model.brand]),
                "colors": colors,
                "modifications": modifications,
            }
            | ({"sale": model.sale} if model.sale else {})
        )
    return docs


def region_docs() -> list[Document]:
    return [
        {"_id": region_id(region.slug), "slug": region.slug, "name": text(region.name), "order": order}
        for order, region in enumerate(REGIONS, start=1)
    ]


def branch_doc(branch: BranchRow) -> Document:
    lat, lng = branch.location
    return {
        "_id": branch_id(branch.slug),
        "slug": branch.slug,
        "regionId": region_id(branch.region),
        "brandIds": [brand_id(brand) for brand in branch.brands],
        "name": text(branch.name),
        "address": text(branch.address),
        "phone": branch.phone,
        "hours": text(HOURS[branch.daily]),
        "location": {"lat": lat, "lng": lng},
        "active": True,
    }


def stock_docs() -> list[Document]:
    """Each model is stocked in up to three branches of its brand, one modification and color in each
    (the first branch has the first modification in the first color); some rows are sold out
    (quantity 0), as real stock is. Kept small: the embedded database checks unique keys slowly."""
    docs = []
    per_brand: dict[str, int] = {}
    for number, model in enumerate(MODELS):
        slug = car_slug(model)
        rank = per_brand[model.brand] = per_brand.get(model.brand, -1) + 1
        sellers = [branch for branch in BRANCHES if model.brand in branch.brands]
        for j in range(min(STOCK_BRANCHES_PER_CAR, len(sellers))):
            branch = sellers[(rank * 2 + j) % len(sellers)]
            k, color = j % len(model.mods), model.colors[j % len(model.colors)]
            docs.append(
                {
                    "_id": stable_id(f"stock:{branch.slug}:{slug}:{k}:{color}"),
                    "branchId": branch_id(branch.slug),
                    "carId": car_id(slug),
                    "modificationId": modification_id(slug, k),
                    "colorId": color_id(slug, color),
                    "quantity": 0 if j and (number + j) % 5 == 0 else 1 + (number + j) % 4,
                }
            )
    return docs


def markdown(slug: str) -> dict[str, str]:
    return {locale: (DOCUMENTS_DIR / f"{slug}.{locale}.md").read_text(encoding="utf-8") for locale in LOCALES}


def per_locale_file(slug: str) -> dict[str, str]:
    return {locale: f"documents/{slug}-{locale}.pdf" for locale in LOCALES}


def document_docs() -> list[Document]:
    return [
        {
            "_id": stable_id("document:offer"),
            "slug": "offer",
            "title": text(("Публичная оферта", "Ommaviy oferta", "Public offer")),
            "file": per_locale_file("offer"),
            "markdown": None,
            "order": 1,
            "public": True,
        },
        {
            "_id": stable_id("document:privacy-policy"),
            "slug": "privacy-policy",
            "title": text(("Политика конфиденциальности", "Maxfiylik siyosati", "Privacy policy")),
            "file": None,
            "markdown": markdown("privacy-policy"),
            "order": 2,
            "public": True,
        },
        {
            "_id": stable_id("document:checkout"),
            "slug": "checkout",
            "title": text(
                ("Договор купли-продажи автомобиля", "Avtomobil oldi-sotdi shartnomasi", "Car sales contract")
            ),
            "file": per_locale_file("checkout"),
            "markdown": None,
            "order": 3,
            "public": False,
        },
    ]


def documents() -> dict[str, list[Document]]:
    """The catalog and dealer collections of the demo data."""
    return {
        "brands": brand_docs(),
        "body_types": body_type_docs(),
        "powertrains": powertrain_docs(),
        "cars": car_docs(),
        "regions": region_docs(),
        "branches": [branch_doc(branch) for branch in BRANCHES],
        "stock": stock_docs(),
        "documents": document_docs(),
        "settings": [CONTACTS],
    }
