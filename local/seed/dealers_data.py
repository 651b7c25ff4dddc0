"""The demo dealer network: the 14 regions of Uzbekistan and the branches that sell each brand."""

from __future__ import annotations

from typing import NamedTuple

from local.seed.catalog_data import Text


class Region(NamedTuple):
    slug: str
    name: Text


class Branch(NamedTuple):
    slug: str
    region: str
    brands: tuple[str, ...]
    name: Text
    address: Text
    phone: str
    location: tuple[float, float]
    daily: bool = False  # open every day; otherwise Monday to Saturday with short Sundays


HOURS: dict[bool, Text] = {
    False: (
        "Пн–Сб 09:00–19:00, Вс 10:00–17:00",
        "Du–Sh 09:00–19:00, Ya 10:00–17:00",
        "Mon–Sat 09:00–19:00, Sun 10:00–17:00",
    ),
    True: ("Ежедневно 09:00–20:00", "Har kuni 09:00–20:00", "Daily 09:00–20:00"),
}

REGIONS: tuple[Region, ...] = (
    Region("tashkent-city", ("Ташкент", "Toshkent shahri", "Tashkent City")),
    Region("tashkent-region", ("Ташкентская область", "Toshkent viloyati", "Tashkent Region")),
    Region("andijan", ("Андижанская область", "Andijon viloyati", "Andijan Region")),
    Region("bukhara", ("Бухарская область", "Buxoro viloyati", "Bukhara Region")),
    Region("fergana", ("Ферганская область", "Farg'ona viloyati", "Fergana Region")),
    Region("jizzakh", ("Джизакская область", "Jizzax viloyati", "Jizzakh Region")),
    Region("kashkadarya", ("Кашкадарьинская область", "Qashqadaryo viloyati", "Kashkadarya Region")),
    Region("khorezm", ("Хорезмская область", "Xorazm viloyati", "Khorezm Region")),
    Region("namangan", ("Наманганская область", "Namangan viloyati", "Namangan Region")),
    Region("navoi", ("Навоийская область", "Navoiy viloyati", "Navoi Region")),
    Region("samarkand", ("Самаркандская область", "Samarqand viloyati", "Samarkand Region")),
    Region("surkhandarya", ("Сурхандарьинская область", "Surxondaryo viloyati", "Surkhandarya Region")),
    Region("syrdarya", ("Сырдарьинская область", "Sirdaryo viloyati", "Syrdarya Region")),
    Region(
        "karakalpakstan", ("Республика Каракалпакстан", "Qoraqalpog'iston Respublikasi", "Republic of Karakalpakstan")
    ),
)

BRANCHES: tuple[Branch, ...] = (
    Branch(
        "chevrolet-chilonzor",
        "tashkent-city",
        ("chevrolet",),
        ("Chevrolet Чиланзар", "Chevrolet Chilonzor", "Chevrolet Chilanzar"),
        (
            "ул. Бунёдкор, 12, Чиланзарский район",
            "Bunyodkor ko'chasi, 12, Chilonzor tumani",
            "12 Bunyodkor Street, Chilanzar District",
        ),
        "+998712001201",
        (41.2756, 69.2034),
        daily=True,
    ),
    Branch(
        "chevrolet-yunusobod",
        "tashkent-city",
        ("chevrolet",),
        ("Chevrolet Юнусабад", "Chevrolet Yunusobod", "Chevrolet Yunusabad"),
        (
            "ул. Амира Темура, 107, Юнусабадский район",
            "Amir Temur ko'chasi, 107, Yunusobod tumani",
            "107 Amir Temur Street, Yunusabad District",
        ),
        "+998712001202",
        (41.3420, 69.2860),
    ),
    Branch(
        "byd-tashkent-city",
        "tashkent-city",
        ("byd",),
        ("BYD Ташкент Сити", "BYD Tashkent City", "BYD Tashkent City"),
        (
            "ул. Фурката, 4, Шайхантахурский район",
            "Furqat ko'chasi, 4, Shayxontohur tumani",
            "4 Furqat Street, Shaykhantakhur District",
        ),
        "+998712001203",
        (41.3160, 69.2470),
        daily=True,
    ),
    Branch(
        "korea-motors",
        "tashkent-city",
        ("kia", "hyundai"),
        ("Korea Motors Мирзо-Улугбек", "Korea Motors Mirzo Ulug'bek", "Korea Motors Mirzo Ulugbek"),
        (
            "ул. Мирзо Улугбека, 56, Мирзо-Улугбекский район",
            "Mirzo Ulug'bek ko'chasi, 56, Mirzo Ulug'bek tumani",
            "56 Mirzo Ulugbek Street, Mirzo Ulugbek District",
        ),
        "+998712001204",
        (41.3250, 69.3350),
    ),
    Branch(
        "auto-park-sergeli",
        "tashkent-city",
        ("chery", "haval", "changan", "geely", "jetour"),
        ("Auto Park Сергели", "Auto Park Sergeli", "Auto Park Sergeli"),
        (
            "ул. Янги Сергели, 1, Сергелийский район",
            "Yangi Sergeli ko'chasi, 1, Sergeli tumani",
            "1 Yangi Sergeli Street, Sergeli District",
        ),
        "+998712001205",
        (41.2220, 69.2220),
        daily=True,
    ),
    Branch(
        "china-motors-yashnobod",
        "tashkent-city",
        ("chery", "haval", "geely"),
        ("China Motors Яшнабад", "China Motors Yashnobod", "China Motors Yashnabad"),
        (
            "ул. Махтумкули, 88, Яшнабадский район",
            "Maxtumquli ko'chasi, 88, Yashnobod tumani",
            "88 Makhtumkuli Street, Yashnabad District",
        ),
        "+998712001206",
        (41.2930, 69.3340),
    ),
    Branch(
        "chevrolet-chirchiq",
        "tashkent-region",
        ("chevrolet",),
        ("Chevrolet Чирчик", "Chevrolet Chirchiq", "Chevrolet Chirchiq"),
        ("ул. Амира Темура, 25, Чирчик", "Amir Temur ko'chasi, 25, Chirchiq", "25 Amir Temur Street, Chirchiq"),
        "+998702001207",
        (41.4690, 69.5820),
    ),
    Branch(
        "nurafshon-auto",
        "tashkent-region",
        ("byd", "chery", "kia"),
        ("Автоцентр Нурафшон", "Nurafshon avtomarkazi", "Nurafshon Auto Centre"),
        ("ул. Ташкентская, 3, Нурафшон", "Toshkent yo'li ko'chasi, 3, Nurafshon", "3 Toshkent Yuli Street, Nurafshon"),
        "+998702001208",
        (41.0440, 69.3580),
    ),
    Branch(
        "chevrolet-samarkand",
        "samarkand",
        ("chevrolet",),
        ("Chevrolet Самарканд", "Chevrolet Samarqand", "Chevrolet Samarkand"),
        ("ул. Рудаки, 160, Самарканд", "Rudakiy ko'chasi, 160, Samarqand", "160 Rudaki Street, Samarkand"),
        "+998662001209",
        (39.6540, 66.9760),
    ),
    Branch(
        "samarkand-auto-mall",
        "samarkand",
        ("byd", "kia", "hyundai", "haval", "chery"),
        ("Samarkand Auto Mall", "Samarkand Auto Mall", "Samarkand Auto Mall"),
        ("ул. Спитамена, 290, Самарканд", "Spitamen ko'chasi, 290, Samarqand", "290 Spitamen Street, Samarkand"),
        "+998662001210",
        (39.6700, 66.9300),
        daily=True,
    ),
    Branch(
        "bukhara-auto",
        "bukhara",
        ("chevrolet", "byd", "chery"),
        ("Бухара Авто", "Buxoro Avto", "Bukhara Auto"),
        ("ул. Пиридастгир, 10, Бухара", "Piridastgir ko'chasi, 10, Buxoro", "10 Piridastgir Street, Bukhara"),
        "+998652001211",
        (39.7680, 64.4220),
    ),
    Branch(
        "andijan-auto",
        "andijan",
        ("chevrolet", "kia"),
        ("Андижан Авто", "Andijon Avto", "Andijan Auto"),
        ("ул. Бабура, 55, Андижан", "Bobur ko'chasi, 55, Andijon", "55 Babur Street, Andijan"),
        "+998742001212",
        (40.7820, 72.3440),
    ),
    Branch(
        "chevrolet-fergana",
        "fergana",
        ("chevrolet",),
        ("Chevrolet Фергана", "Chevrolet Farg'ona", "Chevrolet Fergana"),
        ("ул. Аль-Фаргани, 30, Фергана", "Al-Farg'oniy ko'chasi, 30, Farg'ona", "30 Al-Fargani Street, Fergana"),
        "+998732001213",
        (40.3860, 71.7860),
    ),
    Branch(
        "fergana-auto-city",
        "fergana",
        ("byd", "haval", "geely", "jetour"),
        ("Fergana Auto City", "Fergana Auto City", "Fergana Auto City"),
        ("ул. Маргиланская, 112, Фергана", "Marg'ilon ko'chasi, 112, Farg'ona", "112 Margilan Street, Fergana"),
        "+998732001214",
        (40.3950, 71.7600),
    ),
    Branch(
        "namangan-auto",
        "namangan",
        ("chevrolet", "chery"),
        ("Наманган Авто", "Namangan Avto", "Namangan Auto"),
        ("ул. Уйчи, 8, Наманган", "Uychi ko'chasi, 8, Namangan", "8 Uychi Street, Namangan"),
        "+998692001215",
        (41.0000, 71.6720),
    ),
    Branch(
        "karshi-auto",
        "kashkadarya",
        ("chevrolet", "byd"),
        ("Карши Авто", "Qarshi Avto", "Karshi Auto"),
        ("ул. Насаф, 21, Карши", "Nasaf ko'chasi, 21, Qarshi", "21 Nasaf Street, Karshi"),
        "+998752001216",
        (38.8610, 65.7890),
    ),
    Branch(
        "termez-auto",
        "surkhandarya",
        ("chevrolet", "haval"),
        ("Термез Авто", "Termiz Avto", "Termez Auto"),
        ("ул. Ат-Термизи, 14, Термез", "At-Termiziy ko'chasi, 14, Termiz", "14 At-Termizi Street, Termez"),
        "+998762001217",
        (37.2240, 67.2780),
    ),
    Branch(
        "urgench-auto",
        "khorezm",
        ("chevrolet", "byd", "kia"),
        ("Ургенч Авто", "Urganch Avto", "Urgench Auto"),
        ("ул. Аль-Хорезми, 45, Ургенч", "Al-Xorazmiy ko'chasi, 45, Urganch", "45 Al-Khorezmi Street, Urgench"),
        "+998622001218",
        (41.5500, 60.6310),
    ),
    Branch(
        "navoi-auto",
        "navoi",
        ("chevrolet", "chery"),
        ("Навои Авто", "Navoiy Avto", "Navoi Auto"),
        ("ул. Галаба, 9, Навои", "G'alaba ko'chasi, 9, Navoiy", "9 Galaba Street, Navoi"),
        "+998792001219",
        (40.1030, 65.3740),
    ),
    Branch(
        "jizzakh-auto",
        "jizzakh",
        ("byd", "kia", "chevrolet"),
        ("Джизак Авто", "Jizzax Avto", "Jizzakh Auto"),
        (
            "ул. Шарафа Рашидова, 70, Джизак",
            "Sharof Rashidov ko'chasi, 70, Jizzax",
            "70 Sharof Rashidov Street, Jizzakh",
        ),
        "+998722001220",
        (40.1160, 67.8420),
    ),
    Branch(
        "gulistan-auto",
        "syrdarya",
        ("chevrolet",),
        ("Гулистан Авто", "Guliston Avto", "Gulistan Auto"),
        ("ул. Узбекистанская, 5, Гулистан", "O'zbekiston ko'chasi, 5, Guliston", "5 Uzbekistan Street, Gulistan"),
        "+998672001221",
        (40.4890, 68.7840),
    ),
    Branch(
        "nukus-auto",
        "karakalpakstan",
        ("chevrolet", "byd", "haval"),
        ("Нукус Авто", "Nukus Avto", "Nukus Auto"),
        ("ул. Досназарова, 30, Нукус", "Dosnazarov ko'chasi, 30, Nukus", "30 Dosnazarov Street, Nukus"),
        "+998612001222",
        (42.4610, 59.6100),
    ),
)
