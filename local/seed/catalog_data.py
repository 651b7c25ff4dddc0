"""The demo catalog as plain tables: brands sold in Uzbekistan, their models with modifications,
colors and dimensions. `local.seed.catalog` turns these rows into documents (docs/DATA_MODEL.md).

Prices are integer sums at 2025 dealer levels, rounded to 100,000 sums.
"""

from __future__ import annotations

from typing import NamedTuple

Text = tuple[str, str, str]  # (ru, uz, en)


class Brand(NamedTuple):
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


class Model(NamedTuple):
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

BRANDS: tuple[Brand, ...] = (
    Brand(
        "chevrolet",
        "Chevrolet",
        ("Узбекистан", "O'zbekiston", "Uzbekistan"),
        (
            "Автомобили UzAuto Motors: собираются в Асаке и Карши, самая большая сервисная сеть страны.",
            "UzAuto Motors avtomobillari: Asaka va Qarshida yig'iladi, mamlakatdagi eng katta servis tarmog'i.",
            "UzAuto Motors cars, assembled in Asaka and Karshi, with the country's largest service network.",
        ),
        ("3 года или 100 000 км", "3 yil yoki 100 000 km", "3 years or 100,000 km"),
    ),
    Brand(
        "byd",
        "BYD",
        ("Китай", "Xitoy", "China"),
        (
            "Электромобили и подключаемые гибриды; модели Chazor и Song Plus собираются в Джизаке.",
            "Elektromobillar va plug-in gibridlar; Chazor va Song Plus Jizzaxda yig'iladi.",
            "Electric cars and plug-in hybrids; Chazor and Song Plus are assembled in Jizzakh.",
        ),
        ("6 лет или 150 000 км", "6 yil yoki 150 000 km", "6 years or 150,000 km"),
    ),
    Brand(
        "kia",
        "Kia",
        ("Южная Корея", "Janubiy Koreya", "South Korea"),
        (
            "Корейские седаны, кроссоверы и минивэны; часть моделей собирается в Джизаке.",
            "Koreys sedanlari, krossoverlari va minivenlari; ayrim modellar Jizzaxda yig'iladi.",
            "Korean sedans, crossovers and minivans; some models are assembled in Jizzakh.",
        ),
        ("5 лет или 150 000 км", "5 yil yoki 150 000 km", "5 years or 150,000 km"),
    ),
    Brand(
        "hyundai",
        "Hyundai",
        ("Южная Корея", "Janubiy Koreya", "South Korea"),
        (
            "Седаны и кроссоверы Hyundai у официальных дилеров.",
            "Rasmiy dilerlardan Hyundai sedanlari va krossoverlari.",
            "Hyundai sedans and crossovers from official dealers.",
        ),
        ("5 лет или 150 000 км", "5 yil yoki 150 000 km", "5 years or 150,000 km"),
    ),
    Brand(
        "chery",
        "Chery",
        ("Китай", "Xitoy", "China"),
        (
            "Кроссоверы Tiggo и седаны Arrizo с турбомоторами.",
            "Turbo dvigatelli Tiggo krossoverlari va Arrizo sedanlari.",
            "Tiggo crossovers and Arrizo sedans with turbocharged engines.",
        ),
        ("5 лет или 150 000 км", "5 yil yoki 150 000 km", "5 years or 150,000 km"),
    ),
    Brand(
        "haval",
        "Haval",
        ("Китай", "Xitoy", "China"),
        (
            "Кроссоверы и внедорожники Great Wall Motor.",
            "Great Wall Motor krossoverlari va yo'ltanlamaslari.",
            "Crossovers and SUVs by Great Wall Motor.",
        ),
        ("5 лет или 150 000 км", "5 yil yoki 150 000 km", "5 years or 150,000 km"),
    ),
    Brand(
        "changan",
        "Changan",
        ("Китай", "Xitoy", "China"),
        (
            "Спортивные лифтбеки и семейные кроссоверы Changan.",
            "Changan sport liftbeklari va oilaviy krossoverlari.",
            "Sporty liftbacks and family crossovers by Changan.",
        ),
        ("5 лет или 150 000 км", "5 yil yoki 150 000 km", "5 years or 150,000 km"),
    ),
    Brand(
        "geely",
        "Geely",
        ("Китай", "Xitoy", "China"),
        (
            "Кроссоверы Geely на платформе CMA с полным приводом.",
            "CMA platformasidagi to'liq yuritmali Geely krossoverlari.",
            "Geely crossovers on the CMA platform, with all-wheel drive.",
        ),
        ("5 лет или 150 000 км", "5 yil yoki 150 000 km", "5 years or 150,000 km"),
    ),
    Brand(
        "jetour",
        "Jetour",
        ("Китай", "Xitoy", "China"),
        (
            "Просторные кроссоверы для путешествий всей семьёй.",
            "Butun oila bilan sayohat uchun keng krossoverlar.",
            "Roomy crossovers for travelling with the whole family.",
        ),
        ("5 лет или 150 000 км", "5 yil yoki 150 000 km", "5 years or 150,000 km"),
    ),
)

MODELS: tuple[Model, ...] = (
    Model(
        "chevrolet",
        "cobalt",
        "Cobalt",
        "sedan",
        "ICE",
        2025,
        "2025-01-10",
        (
            "Практичный седан с вместительным багажником, собирается в Узбекистане.",
            "O'zbekistonda ishlab chiqariladigan keng yukxonali amaliy sedan.",
            "A practical sedan with a roomy boot, built in Uzbekistan.",
        ),
        ("white", "silver", "black", "red"),
        (4479, 1735, 1514, 2620, 160, 5),
        (
            Mod("1.5 MT Optimum", 151_900_000, "1.5", 106, "MT", "FWD"),
            Mod("1.5 AT Elegant", 175_900_000, "1.5", 106, "AT", "FWD"),
        ),
    ),
    Model(
        "chevrolet",
        "onix",
        "Onix",
        "sedan",
        "ICE",
        2025,
        "2025-02-03",
        (
            "Городской седан с турбомотором 1.2 и шестью подушками безопасности.",
            "1.2 turbo dvigatelli va oltita xavfsizlik yostiqchali shahar sedani.",
            "A city sedan with a 1.2 turbo engine and six airbags.",
        ),
        ("white", "silver", "red", "blue"),
        (4474, 1730, 1471, 2600, 150, 5),
        (
            Mod("1.2T MT LT", 186_000_000, "1.2T", 115, "MT", "FWD"),
            Mod("1.2T AT LTZ", 212_500_000, "1.2T", 115, "AT", "FWD"),
            Mod("1.2T AT Premier", 236_000_000, "1.2T", 115, "AT", "FWD"),
        ),
    ),
    Model(
        "chevrolet",
        "tracker",
        "Tracker",
        "crossover",
        "ICE",
        2025,
        "2025-02-20",
        (
            "Компактный кроссовер с высоким клиренсом для города и трассы.",
            "Shahar va trassa uchun yuqori klirensli ixcham krossover.",
            "A compact crossover with high ground clearance for city and highway.",
        ),
        ("white", "black", "red", "grey"),
        (4270, 1791, 1627, 2570, 180, 5),
        (
            Mod("1.0T AT LT", 241_000_000, "1.0T", 116, "AT", "FWD"),
            Mod("1.2T AT Premier", 289_000_000, "1.2T", 132, "AT", "FWD"),
        ),
    ),
    Model(
        "chevrolet",
        "malibu",
        "Malibu",
        "sedan",
        "ICE",
        2025,
        "2025-03-05",
        (
            "Просторный бизнес-седан с комфортной подвеской.",
            "Qulay osmali keng biznes-sedan.",
            "A spacious business sedan with a comfortable ride.",
        ),
        ("white", "black", "silver", "blue"),
        (4933, 1854, 1464, 2829, 150, 5),
        (
            Mod("1.5T CVT LT", 392_000_000, "1.5T", 163, "CVT", "FWD"),
            Mod("2.0T AT Premier", 468_000_000, "2.0T", 253, "AT", "FWD"),
        ),
    ),
    Model(
        "chevrolet",
        "equinox",
        "Equinox",
        "suv",
        "ICE",
        2026,
        "2025-11-12",
        (
            "Новое поколение семейного внедорожника с полным приводом.",
            "To'liq yuritmali oilaviy yo'ltanlamasning yangi avlodi.",
            "The new generation of the family SUV, with all-wheel drive.",
        ),
        ("white", "grey", "black"),
        (4652, 1843, 1661, 2725, 190, 5),
        (
            Mod("1.5T AT LT", 435_000_000, "1.5T", 170, "AT", "FWD"),
            Mod("1.5T AT RS AWD", 498_000_000, "1.5T", 170, "AT", "AWD"),
        ),
        is_new=True,
    ),
    Model(
        "chevrolet",
        "captiva",
        "Captiva",
        "suv",
        "ICE",
        2025,
        "2025-03-28",
        (
            "Семиместный внедорожник для большой семьи.",
            "Katta oila uchun yetti o'rinli yo'ltanlamas.",
            "A seven-seat SUV for a big family.",
        ),
        ("white", "silver", "black"),
        (4655, 1835, 1760, 2750, 195, 7),
        (
            Mod("1.5T CVT Premier", 379_000_000, "1.5T", 147, "CVT", "FWD"),
            Mod("1.5T CVT Redline", 402_000_000, "1.5T", 147, "CVT", "FWD"),
        ),
    ),
    Model(
        "chevrolet",
        "damas",
        "Damas",
        "van",
        "ICE",
        2025,
        "2025-01-15",
        (
            "Компактный фургон для малого бизнеса: грузовой и пассажирский.",
            "Kichik biznes uchun ixcham furgon: yuk va yo'lovchi.",
            "A compact van for small business, in cargo and passenger versions.",
        ),
        ("white", "silver"),
        (3495, 1400, 1890, 2340, 150, 7),
        (
            Mod("0.8 MT Cargo", 92_500_000, "0.8", 38, "MT", "RWD"),
            Mod("0.8 MT Passenger", 98_900_000, "0.8", 38, "MT", "RWD"),
        ),
        payment_types=("CASH", "CREDIT", "INSTALLMENT"),
    ),
    Model(
        "chevrolet",
        "tahoe",
        "Tahoe",
        "suv",
        "ICE",
        2025,
        "2025-04-22",
        (
            "Полноразмерный рамный внедорожник с мотором V8.",
            "V8 dvigatelli to'liq o'lchamli ramali yo'ltanlamas.",
            "A full-size body-on-frame SUV with a V8 engine.",
        ),
        ("black", "white", "grey"),
        (5352, 2058, 1927, 3071, 203, 8),
        (
            Mod("5.3 AT LT", 1_290_000_000, "5.3", 355, "AT", "AWD"),
            Mod("6.2 AT High Country", 1_540_000_000, "6.2", 426, "AT", "AWD"),
        ),
        payment_types=("CASH", "CREDIT"),
    ),
    Model(
        "byd",
        "song-plus",
        "Song Plus",
        "crossover",
        "PHEV",
        2025,
        "2025-05-14",
        (
            "Подключаемый гибрид: до 150 км на электротяге и больше 1000 км с полным баком.",
            "Plug-in gibrid: elektrda 150 km gacha, to'liq bak bilan 1000 km dan ortiq.",
            "A plug-in hybrid: up to 150 km on electricity and over 1,000 km on a full tank.",
        ),
        ("white", "black", "grey", "blue"),
        (4775, 1890, 1670, 2765, 180, 5),
        (
            Mod("DM-i 110 km Flagship", 409_000_000, "1.5", 218, "DHT", "FWD", 110),
            Mod("DM-i 150 km Champion", 449_000_000, "1.5", 218, "DHT", "FWD", 150),
        ),
    ),
    Model(
        "byd",
        "chazor",
        "Chazor",
        "sedan",
        "PHEV",
        2025,
        "2025-06-02",
        (
            "Седан-гибрид, собранный в Джизаке: расход от 3.8 л на 100 км.",
            "Jizzaxda yig'ilgan gibrid sedan: 100 km ga 3.8 l dan.",
            "A hybrid sedan assembled in Jizzakh, from 3.8 l per 100 km.",
        ),
        ("white", "black", "grey"),
        (4780, 1837, 1515, 2718, 140, 5),
        (
            Mod("DM-i 55 km Honor", 298_000_000, "1.5", 197, "DHT", "FWD", 55),
            Mod("DM-i 120 km Flagship", 334_000_000, "1.5", 197, "DHT", "FWD", 120),
        ),
    ),
    Model(
        "byd",
        "han",
        "Han",
        "sedan",
        "EV",
        2025,
        "2025-06-25",
        (
            "Флагманский электроседан с запасом хода до 610 км.",
            "610 km gacha yuradigan flagman elektr sedan.",
            "The flagship electric sedan, with up to 610 km of range.",
        ),
        ("black", "white", "red"),
        (4995, 1910, 1495, 2920, 140, 5),
        (
            Mod("EV 610 km", 548_000_000, "85.4 kWh", 245, "EV1", "FWD", 610),
            Mod("EV AWD Performance", 612_000_000, "85.4 kWh", 517, "EV1", "AWD", 521),
        ),
        payment_types=("CASH", "CREDIT", "LEASING"),
    ),
    Model(
        "byd",
        "seagull",
        "Seagull",
        "hatchback",
        "EV",
        2026,
        "2025-12-01",
        (
            "Доступный городской электромобиль: зарядка от бытовой розетки.",
            "Arzon shahar elektromobili: maishiy rozetkadan quvvatlanadi.",
            "An affordable city electric car that charges from a household socket.",
        ),
        ("green", "white", "blue", "beige"),
        (3780, 1715, 1540, 2500, 130, 4),
        (
            Mod("EV 305 km", 189_000_000, "30.1 kWh", 75, "EV1", "FWD", 305),
            Mod("EV 405 km Flying", 214_000_000, "38.9 kWh", 75, "EV1", "FWD", 405),
        ),
        payment_types=("CASH", "CREDIT", "LEASING"),
        is_new=True,
    ),
    Model(
        "kia",
        "k5",
        "K5",
        "sedan",
        "ICE",
        2025,
        "2025-04-02",
        (
            "Спортивный седан бизнес-класса с панорамным экраном.",
            "Panoramik ekranli biznes-klass sport sedani.",
            "A sporty business sedan with a panoramic display.",
        ),
        ("white", "black", "grey", "red"),
        (4905, 1860, 1445, 2850, 155, 5),
        (
            Mod("2.0 AT Luxe", 389_000_000, "2.0", 150, "AT", "FWD"),
            Mod("2.5 AT Prestige", 431_000_000, "2.5", 194, "AT", "FWD"),
            Mod("2.5 AT GT-Line", 459_000_000, "2.5", 194, "AT", "FWD"),
        ),
    ),
    Model(
        "kia",
        "sportage",
        "Sportage",
        "crossover",
        "ICE",
        2025,
        "2025-05-06",
        (
            "Самый популярный кроссовер Kia, с полным приводом в старших версиях.",
            "Kia'ning eng mashhur krossoveri, yuqori versiyalarda to'liq yuritma.",
            "Kia's best-selling crossover, with all-wheel drive in the upper trims.",
        ),
        ("white", "grey", "green", "black"),
        (4660, 1865, 1665, 2755, 181, 5),
        (
            Mod("2.0 AT Comfort", 395_000_000, "2.0", 150, "AT", "FWD"),
            Mod("2.0 AT Prestige AWD", 445_000_000, "2.0", 150, "AT", "AWD"),
            Mod("1.6T DCT GT-Line AWD", 489_000_000, "1.6T", 180, "DCT", "AWD"),
        ),
    ),
    Model(
        "kia",
        "sonet",
        "Sonet",
        "crossover",
        "ICE",
        2025,
        "2025-07-09",
        (
            "Компактный кроссовер с клиренсом 211 мм.",
            "211 mm klirensli ixcham krossover.",
            "A compact crossover with 211 mm of ground clearance.",
        ),
        ("white", "orange", "grey"),
        (4120, 1790, 1642, 2500, 211, 5),
        (
            Mod("1.5 CVT Comfort", 255_000_000, "1.5", 115, "CVT", "FWD"),
            Mod("1.5 CVT Luxe", 279_000_000, "1.5", 115, "CVT", "FWD"),
        ),
    ),
    Model(
        "kia",
        "carnival",
        "Carnival",
        "minivan",
        "ICE",
        2025,
        "2025-07-30",
        (
            "Восьмиместный минивэн с раздвижными дверями.",
            "Surma eshikli sakkiz o'rinli miniven.",
            "An eight-seat minivan with sliding doors.",
        ),
        ("black", "white", "silver"),
        (5155, 1995, 1775, 3090, 172, 8),
        (
            Mod("3.5 AT Luxe", 735_000_000, "3.5", 294, "AT", "FWD"),
            Mod("3.5 AT Signature", 829_000_000, "3.5", 294, "AT", "FWD"),
        ),
    ),
    Model(
        "hyundai",
        "elantra",
        "Elantra",
        "sedan",
        "ICE",
        2025,
        "2025-03-18",
        (
            "Седан C-класса с выразительным дизайном.",
            "Ifodali dizaynga ega C-klass sedan.",
            "A C-segment sedan with a bold design.",
        ),
        ("white", "silver", "blue", "black"),
        (4675, 1825, 1430, 2720, 150, 5),
        (
            Mod("1.6 AT Comfort", 329_000_000, "1.6", 128, "AT", "FWD"),
            Mod("2.0 AT Elegance", 365_000_000, "2.0", 150, "AT", "FWD"),
        ),
    ),
    Model(
        "hyundai",
        "tucson",
        "Tucson",
        "crossover",
        "ICE",
        2025,
        "2025-08-11",
        (
            "Кроссовер с параметрической решёткой и цифровой панелью.",
            "Parametrik panjara va raqamli panelli krossover.",
            "A crossover with a parametric grille and a digital cockpit.",
        ),
        ("white", "grey", "blue"),
        (4640, 1865, 1665, 2755, 181, 5),
        (
            Mod("2.0 AT Lifestyle", 425_000_000, "2.0", 150, "AT", "FWD"),
            Mod("2.0 AT Prestige AWD", 469_000_000, "2.0", 150, "AT", "AWD"),
        ),
    ),
    Model(
        "hyundai",
        "santa-fe",
        "Santa Fe",
        "suv",
        "HYBRID",
        2026,
        "2025-10-20",
        (
            "Новый Santa Fe: гибридная установка и семь мест.",
            "Yangi Santa Fe: gibrid qurilma va yetti o'rin.",
            "The new Santa Fe: a hybrid powertrain and seven seats.",
        ),
        ("black", "white", "green"),
        (4830, 1900, 1720, 2815, 176, 7),
        (
            Mod("1.6T HEV Prestige", 648_000_000, "1.6T", 235, "AT", "AWD"),
            Mod("1.6T HEV Calligraphy", 712_000_000, "1.6T", 235, "AT", "AWD"),
        ),
        is_new=True,
    ),
    Model(
        "chery",
        "tiggo-7-pro",
        "Tiggo 7 Pro",
        "crossover",
        "ICE",
        2025,
        "2025-05-27",
        (
            "Кроссовер с двумя экранами по 10.25 дюйма и камерой 360°.",
            "Ikkita 10.25 dyuymli ekran va 360° kamerali krossover.",
            "A crossover with twin 10.25-inch screens and a 360° camera.",
        ),
        ("white", "grey", "red", "black"),
        (4500, 1842, 1746, 2670, 190, 5),
        (
            Mod("1.5T CVT Comfort", 309_000_000, "1.5T", 147, "CVT", "FWD"),
            Mod("1.5T CVT Luxury", 339_000_000, "1.5T", 147, "CVT", "FWD"),
        ),
    ),
    Model(
        "chery",
        "tiggo-8-pro",
        "Tiggo 8 Pro",
        "suv",
        "ICE",
        2025,
        "2025-06-16",
        (
            "Семиместный флагман Chery с турбомотором 2.0.",
            "2.0 turbo dvigatelli yetti o'rinli Chery flagmani.",
            "Chery's seven-seat flagship with a 2.0 turbo engine.",
        ),
        ("black", "white", "silver"),
        (4722, 1860, 1746, 2710, 190, 7),
        (
            Mod("1.6T DCT Luxury", 405_000_000, "1.6T", 186, "DCT", "FWD"),
            Mod("2.0T DCT Prestige", 449_000_000, "2.0T", 254, "DCT", "FWD"),
            Mod("2.0T DCT Ultimate AWD", 479_000_000, "2.0T", 254, "DCT", "AWD"),
        ),
    ),
    Model(
        "chery",
        "arrizo-8",
        "Arrizo 8",
        "sedan",
        "ICE",
        2025,
        "2025-08-28",
        (
            "Динамичный седан: разгон до 100 км/ч за 7.4 секунды.",
            "Dinamik sedan: 100 km/soat gacha 7.4 soniyada.",
            "A quick sedan: 0 to 100 km/h in 7.4 seconds.",
        ),
        ("white", "black", "blue"),
        (4780, 1843, 1469, 2790, 140, 5),
        (
            Mod("1.6T DCT Luxury", 289_000_000, "1.6T", 186, "DCT", "FWD"),
            Mod("2.0T DCT Prestige", 319_000_000, "2.0T", 254, "DCT", "FWD"),
        ),
    ),
    Model(
        "haval",
        "jolion",
        "Jolion",
        "crossover",
        "ICE",
        2025,
        "2025-04-10",
        (
            "Городской кроссовер с богатым оснащением уже в базе.",
            "Bazaviy versiyadayoq boy jihozlangan shahar krossoveri.",
            "A city crossover that is well equipped from the base trim.",
        ),
        ("white", "grey", "blue", "red"),
        (4472, 1841, 1619, 2700, 180, 5),
        (
            Mod("1.5T DCT Comfort", 279_000_000, "1.5T", 143, "DCT", "FWD"),
            Mod("1.5T DCT Elite", 309_000_000, "1.5T", 143, "DCT", "FWD"),
            Mod("1.5T DCT Tech Plus AWD", 334_000_000, "1.5T", 150, "DCT", "AWD"),
        ),
    ),
    Model(
        "haval",
        "h6",
        "H6",
        "crossover",
        "ICE",
        2025,
        "2025-09-08",
        (
            "Среднеразмерный кроссовер с полным приводом и ассистентами водителя.",
            "To'liq yuritma va haydovchi yordamchilari bilan o'rta o'lchamli krossover.",
            "A mid-size crossover with all-wheel drive and driver assistance.",
        ),
        ("white", "black", "grey"),
        (4653, 1886, 1730, 2738, 200, 5),
        (
            Mod("1.5T DCT Premium", 355_000_000, "1.5T", 169, "DCT", "FWD"),
            Mod("2.0T DCT Tech Plus AWD", 412_000_000, "2.0T", 211, "DCT", "AWD"),
        ),
    ),
    Model(
        "haval",
        "dargo",
        "Dargo",
        "suv",
        "ICE",
        2025,
        "2025-09-29",
        (
            "Угловатый внедорожник для города и бездорожья.",
            "Shahar va yo'lsizlik uchun burchakli yo'ltanlamas.",
            "A boxy SUV for the city and off the road.",
        ),
        ("green", "white", "black", "beige"),
        (4620, 1890, 1780, 2738, 200, 5),
        (
            Mod("2.0T DCT Premium", 419_000_000, "2.0T", 192, "DCT", "FWD"),
            Mod("2.0T DCT Tech Plus AWD", 459_000_000, "2.0T", 192, "DCT", "AWD"),
        ),
    ),
    Model(
        "changan",
        "cs55-plus",
        "CS55 Plus",
        "crossover",
        "ICE",
        2025,
        "2025-07-17",
        (
            "Кроссовер с турбомотором 1.5 и семиступенчатым роботом.",
            "1.5 turbo dvigatel va yetti pog'onali robotli krossover.",
            "A crossover with a 1.5 turbo and a seven-speed dual-clutch gearbox.",
        ),
        ("white", "grey", "blue"),
        (4515, 1865, 1680, 2656, 185, 5),
        (
            Mod("1.5T DCT Luxe", 309_000_000, "1.5T", 181, "DCT", "FWD"),
            Mod("1.5T DCT Tech", 335_000_000, "1.5T", 181, "DCT", "FWD"),
        ),
    ),
    Model(
        "changan",
        "uni-v",
        "UNI-V",
        "sedan",
        "ICE",
        2026,
        "2025-11-25",
        (
            "Спортивный лифтбек с выдвижным спойлером.",
            "Chiqadigan spoylerli sport liftbegi.",
            "A sporty liftback with an active rear spoiler.",
        ),
        ("white", "black", "red", "blue"),
        (4680, 1838, 1430, 2750, 145, 5),
        (
            Mod("1.5T DCT Sport", 349_000_000, "1.5T", 181, "DCT", "FWD"),
            Mod("2.0T AT Sport Plus", 389_000_000, "2.0T", 233, "AT", "FWD"),
        ),
        is_new=True,
    ),
    Model(
        "geely",
        "monjaro",
        "Monjaro",
        "suv",
        "ICE",
        2025,
        "2025-08-19",
        (
            "Флагманский кроссовер Geely с полным приводом и мотором 238 л.с.",
            "238 o.k. dvigatelli to'liq yuritmali Geely flagman krossoveri.",
            "Geely's flagship crossover, with all-wheel drive and 238 hp.",
        ),
        ("white", "grey", "black"),
        (4770, 1895, 1689, 2845, 195, 5),
        (
            Mod("2.0T AT Exclusive", 499_000_000, "2.0T", 238, "AT", "AWD"),
            Mod("2.0T AT Flagship", 549_000_000, "2.0T", 238, "AT", "AWD"),
        ),
    ),
    Model(
        "geely",
        "coolray",
        "Coolray",
        "crossover",
        "ICE",
        2025,
        "2025-02-26",
        (
            "Яркий компактный кроссовер для города.",
            "Shahar uchun yorqin ixcham krossover.",
            "A bright compact crossover for the city.",
        ),
        ("white", "red", "grey", "orange"),
        (4380, 1810, 1615, 2600, 196, 5),
        (
            Mod("1.5T DCT Comfort", 269_000_000, "1.5T", 147, "DCT", "FWD"),
            Mod("1.5T DCT Flagship", 299_000_000, "1.5T", 177, "DCT", "FWD"),
        ),
    ),
    Model(
        "jetour",
        "dashing",
        "Dashing",
        "crossover",
        "ICE",
        2025,
        "2025-10-06",
        (
            "Кроссовер с футуристичным дизайном и большим экраном.",
            "Futuristik dizayn va katta ekranli krossover.",
            "A crossover with a futuristic design and a large screen.",
        ),
        ("white", "grey", "blue", "orange"),
        (4590, 1900, 1685, 2720, 190, 5),
        (
            Mod("1.5T DCT Luxury", 339_000_000, "1.5T", 156, "DCT", "FWD"),
            Mod("1.6T DCT Flagship", 379_000_000, "1.6T", 197, "DCT", "FWD"),
        ),
    ),
    Model(
        "jetour",
        "x70-plus",
        "X70 Plus",
        "suv",
        "ICE",
        2025,
        "2025-09-15",
        (
            "Семиместный кроссовер с большим багажником.",
            "Katta yukxonali yetti o'rinli krossover.",
            "A seven-seat crossover with a big boot.",
        ),
        ("white", "black", "silver"),
        (4749, 1900, 1720, 2850, 194, 7),
        (
            Mod("1.5T DCT Comfort", 309_000_000, "1.5T", 156, "DCT", "FWD"),
            Mod("1.6T DCT Luxury", 345_000_000, "1.6T", 197, "DCT", "FWD"),
            Mod("1.6T DCT Flagship", 369_000_000, "1.6T", 197, "DCT", "FWD"),
        ),
    ),
)
