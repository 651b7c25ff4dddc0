"""The demo catalog as plain tables: brands sold in Uzbekistan, their models with modifications,
colors and dimensions. `local.seed.catalog` turns these rows into documents (docs/DATA_MODEL.md).

Prices are integer sums at 2025 dealer levels, rounded to 100,000 sums.
"""

from __future__ import annotations

from typing import NamedTuple

Text = tuple[str, str, str]  # (ru, uz, en)


class BrandRow(NamedTuple):
    slug: str
    name: str
    country: Text
    description: Text
    warranty: Text


class Mod(NamedTuple):
    trim: str
    price: int
    engine: str  # litres ("1.5", "1.5T") or battery for EVs ("30.1 kWh")
    hp: int
    gearbox: str  # key of GEARBOXES
    drive: str  # key of DRIVES
    range_km: int | None = None  # EVs and plug-in hybrids: electric range
    sale: dict[str, object] | None = None  # the car's sale rules this modification overrides


class ModelRow(NamedTuple):
    brand: str
    slug: str
    name: str
    body: str
    powertrain: str
    year: int
    launched: str  # ISO date the model entered the catalog: `sort=new` orders by it
    description: Text
    colors: tuple[str, ...]
    dims: tuple[int, int, int, int, int, int]  # length, width, height, wheelbase, clearance (mm), seats
    mods: tuple[Mod, ...]
    payment_types: tuple[str, ...] = ("CASH", "CREDIT", "LEASING", "INSTALLMENT")
    is_new: bool = False
    # The sale rules of the data set's `sale` (domain.catalog.sale), as they are in the file.
    sale: dict[str, object] | None = None


BODY_TYPES: dict[str, Text] = {
    "sedan": ("Седан", "Sedan", "Sedan"),
    "hatchback": ("Хэтчбек", "Xetchbek", "Hatchback"),
    "crossover": ("Кроссовер", "Krossover", "Crossover"),
    "suv": ("Внедорожник", "Yo'ltanlamas", "SUV"),
    "minivan": ("Минивэн", "Miniven", "Minivan"),
    "van": ("Фургон", "Furgon", "Van"),
}

POWERTRAINS: dict[str, Text] = {
    "ICE": ("Бензин", "Benzin", "Petrol"),
    "HYBRID": ("Гибрид", "Gibrid", "Hybrid"),
    "PHEV": ("Подключаемый гибрид", "Plug-in gibrid", "Plug-in hybrid"),
    "EV": ("Электромобиль", "Elektromobil", "Electric"),
}

COLORS: dict[str, tuple[Text, str]] = {
    "white": (("Белый", "Oq", "White"), "#F4F4F2"),
    "black": (("Чёрный", "Qora", "Black"), "#1C1C1E"),
    "silver": (("Серебристый", "Kumushrang", "Silver"), "#C0C4C8"),
    "grey": (("Серый", "Kulrang", "Grey"), "#6B6E70"),
    "red": (("Красный", "Qizil", "Red"), "#B3202A"),
    "blue": (("Синий", "Ko'k", "Blue"), "#1F4E9C"),
    "green": (("Зелёный", "Yashil", "Green"), "#2F5D4A"),
    "beige": (("Бежевый", "Bej", "Beige"), "#CDBA96"),
    "orange": (("Оранжевый", "To'q sariq", "Orange"), "#E07A1F"),
}

GEARBOXES: dict[str, Text] = {
    "MT": ("Механическая", "Mexanik", "Manual"),
    "AT": ("Автоматическая", "Avtomat", "Automatic"),
    "CVT": ("Вариатор (CVT)", "Variator (CVT)", "CVT"),
    "DCT": ("Робот (DCT)", "Robot (DCT)", "Dual-clutch (DCT)"),
    "DHT": ("Гибридная (DHT)", "Gibrid (DHT)", "Hybrid (DHT)"),
    "EV1": ("Одноступенчатый редуктор", "Bir pog'onali reduktor", "Single-speed"),
}

DRIVES: dict[str, Text] = {
    "FWD": ("Передний", "Old", "Front-wheel"),
    "RWD": ("Задний", "Orqa", "Rear-wheel"),
    "AWD": ("Полный", "To'liq", "All-wheel"),
}

BRANDS: tuple[BrandRow, ...] = (
    BrandRow(
        slug="chevrolet",
        name="Chevrolet",
        country=("Узбекистан", "O'zbekiston", "Uzbekistan"),
        description=(
            "Автомобили UzAuto Motors: собираются в Асаке и Карши, самая большая сервисная сеть страны.",
            "UzAuto Motors avtomobillari: Asaka va Qarshida yig'iladi, mamlakatdagi eng katta servis tarmog'i.",
            "UzAuto Motors cars, assembled in Asaka and Karshi, with the country's largest service network.",
        ),
        warranty=("3 года или 100 000 км", "3 yil yoki 100 000 km", "3 years or 100,000 km"),
    ),
    BrandRow(
        slug="byd",
        name="BYD",
        country=("Китай", "Xitoy", "China"),
        description=(
            "Электромобили и подключаемые гибриды; модели Chazor и Song Plus собираются в Джизаке.",
            "Elektromobillar va plug-in gibridlar; Chazor va Song Plus Jizzaxda yig'iladi.",
            "Electric cars and plug-in hybrids; Chazor and Song Plus are assembled in Jizzakh.",
        ),
        warranty=("6 лет или 150 000 км", "6 yil yoki 150 000 km", "6 years or 150,000 km"),
    ),
    BrandRow(
        slug="kia",
        name="Kia",
        country=("Южная Корея", "Janubiy Koreya", "South Korea"),
        description=(
            "Корейские седаны, кроссоверы и минивэны; часть моделей собирается в Джизаке.",
            "Koreys sedanlari, krossoverlari va minivenlari; ayrim modellar Jizzaxda yig'iladi.",
            "Korean sedans, crossovers and minivans; some models are assembled in Jizzakh.",
        ),
        warranty=("5 лет или 150 000 км", "5 yil yoki 150 000 km", "5 years or 150,000 km"),
    ),
    BrandRow(
        slug="hyundai",
        name="Hyundai",
        country=("Южная Корея", "Janubiy Koreya", "South Korea"),
        description=(
            "Седаны и кроссоверы Hyundai у официальных дилеров.",
            "Rasmiy dilerlardan Hyundai sedanlari va krossoverlari.",
            "Hyundai sedans and crossovers from official dealers.",
        ),
        warranty=("5 лет или 150 000 км", "5 yil yoki 150 000 km", "5 years or 150,000 km"),
    ),
    BrandRow(
        slug="chery",
        name="Chery",
        country=("Китай", "Xitoy", "China"),
        description=(
            "Кроссоверы Tiggo и седаны Arrizo с турбомоторами.",
            "Turbo dvigatelli Tiggo krossoverlari va Arrizo sedanlari.",
            "Tiggo crossovers and Arrizo sedans with turbocharged engines.",
        ),
        warranty=("5 лет или 150 000 км", "5 yil yoki 150 000 km", "5 years or 150,000 km"),
    ),
    BrandRow(
        slug="haval",
        name="Haval",
        country=("Китай", "Xitoy", "China"),
        description=(
            "Кроссоверы и внедорожники Great Wall Motor.",
            "Great Wall Motor krossoverlari va yo'ltanlamaslari.",
            "Crossovers and SUVs by Great Wall Motor.",
        ),
        warranty=("5 лет или 150 000 км", "5 yil yoki 150 000 km", "5 years or 150,000 km"),
    ),
    BrandRow(
        slug="changan",
        name="Changan",
        country=("Китай", "Xitoy", "China"),
        description=(
            "Спортивные лифтбеки и семейные кроссоверы Changan.",
            "Changan sport liftbeklari va oilaviy krossoverlari.",
            "Sporty liftbacks and family crossovers by Changan.",
        ),
        warranty=("5 лет или 150 000 км", "5 yil yoki 150 000 km", "5 years or 150,000 km"),
    ),
    BrandRow(
        slug="geely",
        name="Geely",
        country=("Китай", "Xitoy", "China"),
        description=(
            "Кроссоверы Geely на платформе CMA с полным приводом.",
            "CMA platformasidagi to'liq yuritmali Geely krossoverlari.",
            "Geely crossovers on the CMA platform, with all-wheel drive.",
        ),
        warranty=("5 лет или 150 000 км", "5 yil yoki 150 000 km", "5 years or 150,000 km"),
    ),
    BrandRow(
        slug="jetour",
        name="Jetour",
        country=("Китай", "Xitoy", "China"),
        description=(
            "Просторные кроссоверы для путешествий всей семьёй.",
            "Butun oila bilan sayohat uchun keng krossoverlar.",
            "Roomy crossovers for travelling with the whole family.",
        ),
        warranty=("5 лет или 150 000 км", "5 yil yoki 150 000 km", "5 years or 150,000 km"),
    ),
)

MODELS: tuple[ModelRow, ...] = (
    ModelRow(
        brand="chevrolet",
        slug="cobalt",
        name="Cobalt",
        body="sedan",
        powertrain="ICE",
        year=2025,
        launched="2025-01-10",
        description=(
            "Практичный седан с вместительным багажником, собирается в Узбекистане.",
            "O'zbekistonda ishlab chiqariladigan keng yukxonali amaliy sedan.",
            "A practical sedan with a roomy boot, built in Uzbekistan.",
        ),
        colors=("white", "silver", "black", "red"),
        dims=(4479, 1735, 1514, 2620, 160, 5),
        mods=(
            Mod(trim="1.5 MT Optimum", price=151_900_000, engine="1.5", hp=106, gearbox="MT", drive="FWD"),
            Mod(trim="1.5 AT Elegant", price=175_900_000, engine="1.5", hp=106, gearbox="AT", drive="FWD"),
        ),
    ),
    ModelRow(
        brand="chevrolet",
        slug="onix",
        name="Onix",
        body="sedan",
        powertrain="ICE",
        year=2025,
        launched="2025-02-03",
        description=(
            "Городской седан с турбомотором 1.2 и шестью подушками безопасности.",
            "1.2 turbo dvigatelli va oltita xavfsizlik yostiqchali shahar sedani.",
            "A city sedan with a 1.2 turbo engine and six airbags.",
        ),
        colors=("white", "silver", "red", "blue"),
        dims=(4474, 1730, 1471, 2600, 150, 5),
        mods=(
            Mod(trim="1.2T MT LT", price=186_000_000, engine="1.2T", hp=115, gearbox="MT", drive="FWD"),
            Mod(trim="1.2T AT LTZ", price=212_500_000, engine="1.2T", hp=115, gearbox="AT", drive="FWD"),
            Mod(
                trim="1.2T AT Premier",
                price=236_000_000,
                engine="1.2T",
                hp=115,
                gearbox="AT",
                drive="FWD",
                sale={"startsAt": "2030-01-07T10:00:00+05:00"},  # not on sale yet: SALE_NOT_STARTED
            ),
        ),
        # A sale opening's rules to try (docs/DEMO_DATA.md): verified buyers only, two per person a year,
        # held an hour unless 5,000,000 sums are paid; a fair opening's queue (registration, a draw, paced
        # admission).
        sale={
            "startsAt": "2025-11-03T10:00:00+05:00",
            "holdMinutes": 60,
            "depositAmount": 5_000_000,
            "perPersonLimit": {"count": 2, "days": 365},
            "verifiedBuyersOnly": True,
            "queue": {
                "registrationOpensAt": "2025-10-27T10:00:00+05:00",
                "admissionPerSecond": 50,
                "admissionMinutes": 15,
            },
        },
    ),
    ModelRow(
        brand="chevrolet",
        slug="tracker",
        name="Tracker",
        body="crossover",
        powertrain="ICE",
        year=2025,
        launched="2025-02-20",
        description=(
            "Компактный кроссовер с высоким клиренсом для города и трассы.",
            "Shahar va trassa uchun yuqori klirensli ixcham krossover.",
            "A compact crossover with high ground clearance for city and highway.",
        ),
        colors=("white", "black", "red", "grey"),
        dims=(4270, 1791, 1627, 2570, 180, 5),
        mods=(
            Mod(trim="1.0T AT LT", price=241_000_000, engine="1.0T", hp=116, gearbox="AT", drive="FWD"),
            Mod(trim="1.2T AT Premier", price=289_000_000, engine="1.2T", hp=132, gearbox="AT", drive="FWD"),
        ),
    ),
    ModelRow(
        brand="chevrolet",
        slug="malibu",
        name="Malibu",
        body="sedan",
        powertrain="ICE",
        year=2025,
        launched="2025-03-05",
        description=(
            "Просторный бизнес-седан с комфортной подвеской.",
            "Qulay osmali keng biznes-sedan.",
            "A spacious business sedan with a comfortable ride.",
        ),
        colors=("white", "black", "silver", "blue"),
        dims=(4933, 1854, 1464, 2829, 150, 5),
        mods=(
            Mod(trim="1.5T CVT LT", price=392_000_000, engine="1.5T", hp=163, gearbox="CVT", drive="FWD"),
            Mod(trim="2.0T AT Premier", price=468_000_000, engine="2.0T", hp=253, gearbox="AT", drive="FWD"),
        ),
    ),
    ModelRow(
        brand="chevrolet",
        slug="equinox",
        name="Equinox",
        body="suv",
        powertrain="ICE",
        year=2026,
        launched="2025-11-12",
        description=(
            "Новое поколение семейного внедорожника с полным приводом.",
            "To'liq yuritmali oilaviy yo'ltanlamasning yangi avlodi.",
            "The new generation of the family SUV, with all-wheel drive.",
        ),
        colors=("white", "grey", "black"),
        dims=(4652, 1843, 1661, 2725, 190, 5),
        mods=(
            Mod(trim="1.5T AT LT", price=435_000_000, engine="1.5T", hp=170, gearbox="AT", drive="FWD"),
            Mod(trim="1.5T AT RS AWD", price=498_000_000, engine="1.5T", hp=170, gearbox="AT", drive="AWD"),
        ),
        is_new=True,
    ),
    ModelRow(
        brand="chevrolet",
        slug="captiva",
        name="Captiva",
        body="suv",
        powertrain="ICE",
        year=2025,
        launched="2025-03-28",
        description=(
            "Семиместный внедорожник для большой семьи.",
            "Katta oila uchun yetti o'rinli yo'ltanlamas.",
            "A seven-seat SUV for a big family.",
        ),
        colors=("white", "silver", "black"),
        dims=(4655, 1835, 1760, 2750, 195, 7),
        mods=(
            Mod(trim="1.5T CVT Premier", price=379_000_000, engine="1.5T", hp=147, gearbox="CVT", drive="FWD"),
            Mod(trim="1.5T CVT Redline", price=402_000_000, engine="1.5T", hp=147, gearbox="CVT", drive="FWD"),
        ),
    ),
    ModelRow(
        brand="chevrolet",
        slug="damas",
        name="Damas",
        body="van",
        powertrain="ICE",
        year=2025,
        launched="2025-01-15",
        description=(
            "Компактный фургон для малого бизнеса: грузовой и пассажирский.",
            "Kichik biznes uchun ixcham furgon: yuk va yo'lovchi.",
            "A compact van for small business, in cargo and passenger versions.",
        ),
        colors=("white", "silver"),
        dims=(3495, 1400, 1890, 2340, 150, 7),
        mods=(
            Mod(trim="0.8 MT Cargo", price=92_500_000, engine="0.8", hp=38, gearbox="MT", drive="RWD"),
            Mod(trim="0.8 MT Passenger", price=98_900_000, engine="0.8", hp=38, gearbox="MT", drive="RWD"),
        ),
        payment_types=("CASH", "CREDIT", "INSTALLMENT"),
    ),
    ModelRow(
        brand="chevrolet",
        slug="tahoe",
        name="Tahoe",
        body="suv",
        powertrain="ICE",
        year=2025,
        launched="2025-04-22",
        description=(
            "Полноразмерный рамный внедорожник с мотором V8.",
            "V8 dvigatelli to'liq o'lchamli ramali yo'ltanlamas.",
            "A full-size body-on-frame SUV with a V8 engine.",
        ),
        colors=("black", "white", "grey"),
        dims=(5352, 2058, 1927, 3071, 203, 8),
        mods=(
            Mod(trim="5.3 AT LT", price=1_290_000_000, engine="5.3", hp=355, gearbox="AT", drive="AWD"),
            Mod(trim="6.2 AT High Country", price=1_540_000_000, engine="6.2", hp=426, gearbox="AT", drive="AWD"),
        ),
        payment_types=("CASH", "CREDIT"),
    ),
    ModelRow(
        brand="byd",
        slug="song-plus",
        name="Song Plus",
        body="crossover",
        powertrain="PHEV",
        year=2025,
        launched="2025-05-14",
        description=(
            "Подключаемый гибрид: до 150 км на электротяге и больше 1000 км с полным баком.",
            "Plug-in gibrid: elektrda 150 km gacha, to'liq bak bilan 1000 km dan ortiq.",
            "A plug-in hybrid: up to 150 km on electricity and over 1,000 km on a full tank.",
        ),
        colors=("white", "black", "grey", "blue"),
        dims=(4775, 1890, 1670, 2765, 180, 5),
        mods=(
            Mod(
                trim="DM-i 110 km Flagship",
                price=409_000_000,
                engine="1.5",
                hp=218,
                gearbox="DHT",
                drive="FWD",
                range_km=110,
            ),
            Mod(
                trim="DM-i 150 km Champion",
                price=449_000_000,
                engine="1.5",
                hp=218,
                gearbox="DHT",
                drive="FWD",
                range_km=150,
            ),
        ),
    ),
    ModelRow(
        brand="byd",
        slug="chazor",
        name="Chazor",
        body="sedan",
        powertrain="PHEV",
        year=2025,
        launched="2025-06-02",
        description=(
            "Седан-гибрид, собранный в Джизаке: расход от 3.8 л на 100 км.",
            "Jizzaxda yig'ilgan gibrid sedan: 100 km ga 3.8 l dan.",
            "A hybrid sedan assembled in Jizzakh, from 3.8 l per 100 km.",
        ),
        colors=("white", "black", "grey"),
        dims=(4780, 1837, 1515, 2718, 140, 5),
        mods=(
            Mod(
                trim="DM-i 55 km Honor",
                price=298_000_000,
                engine="1.5",
                hp=197,
                gearbox="DHT",
                drive="FWD",
                range_km=55,
            ),
            Mod(
                trim="DM-i 120 km Flagship",
                price=334_000_000,
                engine="1.5",
                hp=197,
                gearbox="DHT",
                drive="FWD",
                range_km=120,
            ),
        ),
    ),
    ModelRow(
        brand="byd",
        slug="han",
        name="Han",
        body="sedan",
        powertrain="EV",
        year=2025,
        launched="2025-06-25",
        description=(
            "Флагманский электроседан с запасом хода до 610 км.",
            "610 km gacha yuradigan flagman elektr sedan.",
            "The flagship electric sedan, with up to 610 km of range.",
        ),
        colors=("black", "white", "red"),
        dims=(4995, 1910, 1495, 2920, 140, 5),
        mods=(
            Mod(
                trim="EV 610 km", price=548_000_000, engine="85.4 kWh", hp=245, gearbox="EV1", drive="FWD", range_km=610
            ),
            Mod(
                trim="EV AWD Performance",
                price=612_000_000,
                engine="85.4 kWh",
                hp=517,
                gearbox="EV1",
                drive="AWD",
                range_km=521,
            ),
        ),
        payment_types=("CASH", "CREDIT", "LEASING"),
    ),
    ModelRow(
        brand="byd",
        slug="seagull",
        name="Seagull",
        body="hatchback",
        powertrain="EV",
        year=2026,
        launched="2025-12-01",
        description=(
            "Доступный городской электромобиль: зарядка от бытовой розетки.",
            "Arzon shahar elektromobili: maishiy rozetkadan quvvatlanadi.",
            "An affordable city electric car that charges from a household socket.",
        ),
        colors=("green", "white", "blue", "beige"),
        dims=(3780, 1715, 1540, 2500, 130, 4),
        mods=(
            Mod(
                trim="EV 305 km", price=189_000_000, engine="30.1 kWh", hp=75, gearbox="EV1", drive="FWD", range_km=305
            ),
            Mod(
                trim="EV 405 km Flying",
                price=214_000_000,
                engine="38.9 kWh",
                hp=75,
                gearbox="EV1",
                drive="FWD",
                range_km=405,
            ),
        ),
        payment_types=("CASH", "CREDIT", "LEASING"),
        is_new=True,
    ),
    ModelRow(
        brand="kia",
        slug="k5",
        name="K5",
        body="sedan",
        powertrain="ICE",
        year=2025,
        launched="2025-04-02",
        description=(
            "Спортивный седан бизнес-класса с панорамным экраном.",
            "Panoramik ekranli biznes-klass sport sedani.",
            "A sporty business sedan with a panoramic display.",
        ),
        colors=("white", "black", "grey", "red"),
        dims=(4905, 1860, 1445, 2850, 155, 5),
        mods=(
            Mod(trim="2.0 AT Luxe", price=389_000_000, engine="2.0", hp=150, gearbox="AT", drive="FWD"),
            Mod(trim="2.5 AT Prestige", price=431_000_000, engine="2.5", hp=194, gearbox="AT", drive="FWD"),
            Mod(trim="2.5 AT GT-Line", price=459_000_000, engine="2.5", hp=194, gearbox="AT", drive="FWD"),
        ),
    ),
    ModelRow(
        brand="kia",
        slug="sportage",
        name="Sportage",
        body="crossover",
        powertrain="ICE",
        year=2025,
        launched="2025-05-06",
        description=(
            "Самый популярный кроссовер Kia, с полным приводом в старших версиях.",
            "Kia'ning eng mashhur krossoveri, yuqori versiyalarda to'liq yuritma.",
            "Kia's best-selling crossover, with all-wheel drive in the upper trims.",
        ),
        colors=("white", "grey", "green", "black"),
        dims=(4660, 1865, 1665, 2755, 181, 5),
        mods=(
            Mod(trim="2.0 AT Comfort", price=395_000_000, engine="2.0", hp=150, gearbox="AT", drive="FWD"),
            Mod(trim="2.0 AT Prestige AWD", price=445_000_000, engine="2.0", hp=150, gearbox="AT", drive="AWD"),
            Mod(trim="1.6T DCT GT-Line AWD", price=489_000_000, engine="1.6T", hp=180, gearbox="DCT", drive="AWD"),
        ),
    ),
    ModelRow(
        brand="kia",
        slug="sonet",
        name="Sonet",
        body="crossover",
        powertrain="ICE",
        year=2025,
        launched="2025-07-09",
        description=(
            "Компактный кроссовер с клиренсом 211 мм.",
            "211 mm klirensli ixcham krossover.",
            "A compact crossover with 211 mm of ground clearance.",
        ),
        colors=("white", "orange", "grey"),
        dims=(4120, 1790, 1642, 2500, 211, 5),
        mods=(
            Mod(trim="1.5 CVT Comfort", price=255_000_000, engine="1.5", hp=115, gearbox="CVT", drive="FWD"),
            Mod(trim="1.5 CVT Luxe", price=279_000_000, engine="1.5", hp=115, gearbox="CVT", drive="FWD"),
        ),
    ),
    ModelRow(
        brand="kia",
        slug="carnival",
        name="Carnival",
        body="minivan",
        powertrain="ICE",
        year=2025,
        launched="2025-07-30",
        description=(
            "Восьмиместный минивэн с раздвижными дверями.",
            "Surma eshikli sakkiz o'rinli miniven.",
            "An eight-seat minivan with sliding doors.",
        ),
        colors=("black", "white", "silver"),
        dims=(5155, 1995, 1775, 3090, 172, 8),
        mods=(
            Mod(trim="3.5 AT Luxe", price=735_000_000, engine="3.5", hp=294, gearbox="AT", drive="FWD"),
            Mod(trim="3.5 AT Signature", price=829_000_000, engine="3.5", hp=294, gearbox="AT", drive="FWD"),
        ),
    ),
    ModelRow(
        brand="hyundai",
        slug="elantra",
        name="Elantra",
        body="sedan",
        powertrain="ICE",
        year=2025,
        launched="2025-03-18",
        description=(
            "Седан C-класса с выразительным дизайном.",
            "Ifodali dizaynga ega C-klass sedan.",
            "A C-segment sedan with a bold design.",
        ),
        colors=("white", "silver", "blue", "black"),
        dims=(4675, 1825, 1430, 2720, 150, 5),
        mods=(
            Mod(trim="1.6 AT Comfort", price=329_000_000, engine="1.6", hp=128, gearbox="AT", drive="FWD"),
            Mod(trim="2.0 AT Elegance", price=365_000_000, engine="2.0", hp=150, gearbox="AT", drive="FWD"),
        ),
    ),
    ModelRow(
        brand="hyundai",
        slug="tucson",
        name="Tucson",
        body="crossover",
        powertrain="ICE",
        year=2025,
        launched="2025-08-11",
        description=(
            "Кроссовер с параметрической решёткой и цифровой панелью.",
            "Parametrik panjara va raqamli panelli krossover.",
            "A crossover with a parametric grille and a digital cockpit.",
        ),
        colors=("white", "grey", "blue"),
        dims=(4640, 1865, 1665, 2755, 181, 5),
        mods=(
            Mod(trim="2.0 AT Lifestyle", price=425_000_000, engine="2.0", hp=150, gearbox="AT", drive="FWD"),
            Mod(trim="2.0 AT Prestige AWD", price=469_000_000, engine="2.0", hp=150, gearbox="AT", drive="AWD"),
        ),
    ),
    ModelRow(
        brand="hyundai",
        slug="santa-fe",
        name="Santa Fe",
        body="suv",
        powertrain="HYBRID",
        year=2026,
        launched="2025-10-20",
        description=(
            "Новый Santa Fe: гибридная установка и семь мест.",
            "Yangi Santa Fe: gibrid qurilma va yetti o'rin.",
            "The new Santa Fe: a hybrid powertrain and seven seats.",
        ),
        colors=("black", "white", "green"),
        dims=(4830, 1900, 1720, 2815, 176, 7),
        mods=(
            Mod(trim="1.6T HEV Prestige", price=648_000_000, engine="1.6T", hp=235, gearbox="AT", drive="AWD"),
            Mod(trim="1.6T HEV Calligraphy", price=712_000_000, engine="1.6T", hp=235, gearbox="AT", drive="AWD"),
        ),
        is_new=True,
    ),
    ModelRow(
        brand="chery",
        slug="tiggo-7-pro",
        name="Tiggo 7 Pro",
        body="crossover",
        powertrain="ICE",
        year=2025,
        launched="2025-05-27",
        description=(
            "Кроссовер с двумя экранами по 10.25 дюйма и камерой 360°.",
            "Ikkita 10.25 dyuymli ekran va 360° kamerali krossover.",
            "A crossover with twin 10.25-inch screens and a 360° camera.",
        ),
        colors=("white", "grey", "red", "black"),
        dims=(4500, 1842, 1746, 2670, 190, 5),
        mods=(
            Mod(trim="1.5T CVT Comfort", price=309_000_000, engine="1.5T", hp=147, gearbox="CVT", drive="FWD"),
            Mod(trim="1.5T CVT Luxury", price=339_000_000, engine="1.5T", hp=147, gearbox="CVT", drive="FWD"),
        ),
    ),
    ModelRow(
        brand="chery",
        slug="tiggo-8-pro",
        name="Tiggo 8 Pro",
        body="suv",
        powertrain="ICE",
        year=2025,
        launched="2025-06-16",
        description=(
            "Семиместный флагман Chery с турбомотором 2.0.",
            "2.0 turbo dvigatelli yetti o'rinli Chery flagmani.",
            "Chery's seven-seat flagship with a 2.0 turbo engine.",
        ),
        colors=("black", "white", "silver"),
        dims=(4722, 1860, 1746, 2710, 190, 7),
        mods=(
            Mod(trim="1.6T DCT Luxury", price=405_000_000, engine="1.6T", hp=186, gearbox="DCT", drive="FWD"),
            Mod(trim="2.0T DCT Prestige", price=449_000_000, engine="2.0T", hp=254, gearbox="DCT", drive="FWD"),
            Mod(trim="2.0T DCT Ultimate AWD", price=479_000_000, engine="2.0T", hp=254, gearbox="DCT", drive="AWD"),
        ),
    ),
    ModelRow(
        brand="chery",
        slug="arrizo-8",
        name="Arrizo 8",
        body="sedan",
        powertrain="ICE",
        year=2025,
        launched="2025-08-28",
        description=(
            "Динамичный седан: разгон до 100 км/ч за 7.4 секунды.",
            "Dinamik sedan: 100 km/soat gacha 7.4 soniyada.",
            "A quick sedan: 0 to 100 km/h in 7.4 seconds.",
        ),
        colors=("white", "black", "blue"),
        dims=(4780, 1843, 1469, 2790, 140, 5),
        mods=(
            Mod(trim="1.6T DCT Luxury", price=289_000_000, engine="1.6T", hp=186, gearbox="DCT", drive="FWD"),
            Mod(trim="2.0T DCT Prestige", price=319_000_000, engine="2.0T", hp=254, gearbox="DCT", drive="FWD"),
        ),
    ),
    ModelRow(
        brand="haval",
        slug="jolion",
        name="Jolion",
        body="crossover",
        powertrain="ICE",
        year=2025,
        launched="2025-04-10",
        description=(
            "Городской кроссовер с богатым оснащением уже в базе.",
            "Bazaviy versiyadayoq boy jihozlangan shahar krossoveri.",
            "A city crossover that is well equipped from the base trim.",
        ),
        colors=("white", "grey", "blue", "red"),
        dims=(4472, 1841, 1619, 2700, 180, 5),
        mods=(
            Mod(trim="1.5T DCT Comfort", price=279_000_000, engine="1.5T", hp=143, gearbox="DCT", drive="FWD"),
            Mod(trim="1.5T DCT Elite", price=309_000_000, engine="1.5T", hp=143, gearbox="DCT", drive="FWD"),
            Mod(trim="1.5T DCT Tech Plus AWD", price=334_000_000, engine="1.5T", hp=150, gearbox="DCT", drive="AWD"),
        ),
    ),
    ModelRow(
        brand="haval",
        slug="h6",
        name="H6",
        body="crossover",
        powertrain="ICE",
        year=2025,
        launched="2025-09-08",
        description=(
            "Среднеразмерный кроссовер с полным приводом и ассистентами водителя.",
            "To'liq yuritma va haydovchi yordamchilari bilan o'rta o'lchamli krossover.",
            "A mid-size crossover with all-wheel drive and driver assistance.",
        ),
        colors=("white", "black", "grey"),
        dims=(4653, 1886, 1730, 2738, 200, 5),
        mods=(
            Mod(trim="1.5T DCT Premium", price=355_000_000, engine="1.5T", hp=169, gearbox="DCT", drive="FWD"),
            Mod(trim="2.0T DCT Tech Plus AWD", price=412_000_000, engine="2.0T", hp=211, gearbox="DCT", drive="AWD"),
        ),
    ),
    ModelRow(
        brand="haval",
        slug="dargo",
        name="Dargo",
        body="suv",
        powertrain="ICE",
        year=2025,
        launched="2025-09-29",
        description=(
            "Угловатый внедорожник для города и бездорожья.",
            "Shahar va yo'lsizlik uchun burchakli yo'ltanlamas.",
            "A boxy SUV for the city and off the road.",
        ),
        colors=("green", "white", "black", "beige"),
        dims=(4620, 1890, 1780, 2738, 200, 5),
        mods=(
            Mod(trim="2.0T DCT Premium", price=419_000_000, engine="2.0T", hp=192, gearbox="DCT", drive="FWD"),
            Mod(trim="2.0T DCT Tech Plus AWD", price=459_000_000, engine="2.0T", hp=192, gearbox="DCT", drive="AWD"),
        ),
    ),
    ModelRow(
        brand="changan",
        slug="cs55-plus",
        name="CS55 Plus",
        body="crossover",
        powertrain="ICE",
        year=2025,
        launched="2025-07-17",
        description=(
            "Кроссовер с турбомотором 1.5 и семиступенчатым роботом.",
            "1.5 turbo dvigatel va yetti pog'onali robotli krossover.",
            "A crossover with a 1.5 turbo and a seven-speed dual-clutch gearbox.",
        ),
        colors=("white", "grey", "blue"),
        dims=(4515, 1865, 1680, 2656, 185, 5),
        mods=(
            Mod(trim="1.5T DCT Luxe", price=309_000_000, engine="1.5T", hp=181, gearbox="DCT", drive="FWD"),
            Mod(trim="1.5T DCT Tech", price=335_000_000, engine="1.5T", hp=181, gearbox="DCT", drive="FWD"),
        ),
    ),
    ModelRow(
        brand="changan",
        slug="uni-v",
        name="UNI-V",
        body="sedan",
        powertrain="ICE",
        year=2026,
        launched="2025-11-25",
        description=(
            "Спортивный лифтбек с выдвижным спойлером.",
            "Chiqadigan spoylerli sport liftbegi.",
            "A sporty liftback with an active rear spoiler.",
        ),
        colors=("white", "black", "red", "blue"),
        dims=(4680, 1838, 1430, 2750, 145, 5),
        mods=(
            Mod(trim="1.5T DCT Sport", price=349_000_000, engine="1.5T", hp=181, gearbox="DCT", drive="FWD"),
            Mod(trim="2.0T AT Sport Plus", price=389_000_000, engine="2.0T", hp=233, gearbox="AT", drive="FWD"),
        ),
        is_new=True,
    ),
    ModelRow(
        brand="geely",
        slug="monjaro",
        name="Monjaro",
        body="suv",
        powertrain="ICE",
        year=2025,
        launched="2025-08-19",
        description=(
            "Флагманский кроссовер Geely с полным приводом и мотором 238 л.с.",
            "238 o.k. dvigatelli to'liq yuritmali Geely flagman krossoveri.",
            "Geely's flagship crossover, with all-wheel drive and 238 hp.",
        ),
        colors=("white", "grey", "black"),
        dims=(4770, 1895, 1689, 2845, 195, 5),
        mods=(
            Mod(trim="2.0T AT Exclusive", price=499_000_000, engine="2.0T", hp=238, gearbox="AT", drive="AWD"),
            Mod(trim="2.0T AT Flagship", price=549_000_000, engine="2.0T", hp=238, gearbox="AT", drive="AWD"),
        ),
    ),
    ModelRow(
        brand="geely",
        slug="coolray",
        name="Coolray",
        body="crossover",
        powertrain="ICE",
        year=2025,
        launched="2025-02-26",
        description=(
            "Яркий компактный кроссовер для города.",
            "Shahar uchun yorqin ixcham krossover.",
            "A bright compact crossover for the city.",
        ),
        colors=("white", "red", "grey", "orange"),
        dims=(4380, 1810, 1615, 2600, 196, 5),
        mods=(
            Mod(trim="1.5T DCT Comfort", price=269_000_000, engine="1.5T", hp=147, gearbox="DCT", drive="FWD"),
            Mod(trim="1.5T DCT Flagship", price=299_000_000, engine="1.5T", hp=177, gearbox="DCT", drive="FWD"),
        ),
    ),
    ModelRow(
        brand="jetour",
        slug="dashing",
        name="Dashing",
        body="crossover",
        powertrain="ICE",
        year=2025,
        launched="2025-10-06",
        description=(
            "Кроссовер с футуристичным дизайном и большим экраном.",
            "Futuristik dizayn va katta ekranli krossover.",
            "A crossover with a futuristic design and a large screen.",
        ),
        colors=("white", "grey", "blue", "orange"),
        dims=(4590, 1900, 1685, 2720, 190, 5),
        mods=(
            Mod(trim="1.5T DCT Luxury", price=339_000_000, engine="1.5T", hp=156, gearbox="DCT", drive="FWD"),
            Mod(trim="1.6T DCT Flagship", price=379_000_000, engine="1.6T", hp=197, gearbox="DCT", drive="FWD"),
        ),
    ),
    ModelRow(
        brand="jetour",
        slug="x70-plus",
        name="X70 Plus",
        body="suv",
        powertrain="ICE",
        year=2025,
        launched="2025-09-15",
        description=(
            "Семиместный кроссовер с большим багажником.",
            "Katta yukxonali yetti o'rinli krossover.",
            "A seven-seat crossover with a big boot.",
        ),
        colors=("white", "black", "silver"),
        dims=(4749, 1900, 1720, 2850, 194, 7),
        mods=(
            Mod(trim="1.5T DCT Comfort", price=309_000_000, engine="1.5T", hp=156, gearbox="DCT", drive="FWD"),
            Mod(trim="1.6T DCT Luxury", price=345_000_000, engine="1.6T", hp=197, gearbox="DCT", drive="FWD"),
            Mod(trim="1.6T DCT Flagship", price=369_000_000, engine="1.6T", hp=197, gearbox="DCT", drive="FWD"),
        ),
    ),
)
