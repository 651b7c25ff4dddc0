"""The demo dealer network: the 14 regions of Uzbekistan and the branches that sell each brand."""

from __future__ import annotations

from typing import NamedTuple

from local.seed.catalog_data import Text


class RegionRow(NamedTuple):
    slug: str
    name: Text


class BranchRow(NamedTuple):
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

REGIONS: tuple[RegionRow, ...] = (
    RegionRow("tashkent-city", ("Ташкент", "Toshkent shahri", "Tashkent City")),
    RegionRow("tashkent-region", ("Ташкентская область", "Toshkent viloyati", "Tashkent Region")),
    RegionRow("andijan", ("Андижанская область", "Andijon viloyati", "Andijan Region")),
    RegionRow("bukhara", ("Бухарская область", "Buxoro viloyati", "Bukhara Region")),
    RegionRow("fergana", ("Ферганская область", "Farg'ona viloyati", "Fergana Region")),
    RegionRow("jizzakh", ("Джизакская область", "Jizzax viloyati", "Jizzakh Region")),
    RegionRow("kashkadarya", ("Кашкадарьинская область", "Qashqadaryo viloyati", "Kashkadarya Region")),
    RegionRow("khorezm", ("Хорезмская область", "Xorazm viloyati", "Khorezm Region")),
    RegionRow("namangan", ("Наманганская область", "Namangan viloyati", "Namangan Region")),
    RegionRow("navoi", ("Навоийская область", "Navoiy viloyati", "Navoi Region")),
    RegionRow("samarkand", ("Самаркандская область", "Samarqand viloyati", "Samarkand Region")),
    RegionRow("surkhandarya", ("Сурхандарьинская область", "Surxondaryo viloyati", "Surkhandarya Region")),
    RegionRow("syrdarya", ("Сырдарьинская область", "Sirdaryo viloyati", "Syrdarya Region")),
    RegionRow(
        "karakalpakstan", ("Республика Каракалпакстан", "Qoraqalpog'iston Respublikasi", "Republic of Karakalpakstan")
    ),
)

BRANCHES: tuple[BranchRow, ...] = (
    BranchRow(
        slug="chevrolet-chilonzor",
        region="tashkent-city",
        brands=("chevrolet",),
        name=("Chevrolet Чиланзар", "Chevrolet Chilonzor", "Chevrolet Chilanzar"),
        address=(
            "ул. Бунёдкор, 12, Чиланзарский район",
            "Bunyodkor ko'chasi, 12, Chilonzor tumani",
            "12 Bunyodkor Street, Chilanzar District",
        ),
        phone="+998712001201",
        location=(41.2756, 69.2034),
        daily=True,
    ),
    BranchRow(
        slug="chevrolet-yunusobod",
        region="tashkent-city",
        brands=("chevrolet",),
        name=("Chevrolet Юнусабад", "Chevrolet Yunusobod", "Chevrolet Yunusabad"),
        address=(
            "ул. Амира Темура, 107, Юнусабадский район",
            "Amir Temur ko'chasi, 107, Yunusobod tumani",
            "107 Amir Temur Street, Yunusabad District",
        ),
        phone="+998712001202",
        location=(41.3420, 69.2860),
    ),
    BranchRow(
        slug="byd-tashkent-city",
        region="tashkent-city",
        brands=("byd",),
        name=("BYD Ташкент Сити", "BYD Tashkent City", "BYD Tashkent City"),
        address=(
            "ул. Фурката, 4, Шайхантахурский район",
            "Furqat ko'chasi, 4, Shayxontohur tumani",
            "4 Furqat Street, Shaykhantakhur District",
        ),
        phone="+998712001203",
        location=(41.3160, 69.2470),
        daily=True,
    ),
    BranchRow(
        slug="korea-motors",
        region="tashkent-city",
        brands=("kia", "hyundai"),
        name=("Korea Motors Мирзо-Улугбек", "Korea Motors Mirzo Ulug'bek", "Korea Motors Mirzo Ulugbek"),
        address=(
            "ул. Мирзо Улугбека, 56, Мирзо-Улугбекский район",
            "Mirzo Ulug'bek ko'chasi, 56, Mirzo Ulug'bek tumani",
            "56 Mirzo Ulugbek Street, Mirzo Ulugbek District",
        ),
        phone="+998712001204",
        location=(41.3250, 69.3350),
    ),
    BranchRow(
        slug="auto-park-sergeli",
        region="tashkent-city",
        brands=("chery", "haval", "changan", "geely", "jetour"),
        name=("Auto Park Сергели", "Auto Park Sergeli", "Auto Park Sergeli"),
        address=(
            "ул. Янги Сергели, 1, Сергелийский район",
            "Yangi Sergeli ko'chasi, 1, Sergeli tumani",
            "1 Yangi Sergeli Street, Sergeli District",
        ),
        phone="+998712001205",
        location=(41.2220, 69.2220),
        daily=True,
    ),
    BranchRow(
        slug="china-motors-yashnobod",
        region="tashkent-city",
        brands=("chery", "haval", "geely"),
        name=("China Motors Яшнабад", "China Motors Yashnobod", "China Motors Yashnabad"),
        address=(
            "ул. Махтумкули, 88, Яшнабадский район",
            "Maxtumquli ko'chasi, 88, Yashnobod tumani",
            "88 Makhtumkuli Street, Yashnabad District",
        ),
        phone="+998712001206",
        location=(41.2930, 69.3340),
    ),
    BranchRow(
        slug="chevrolet-chirchiq",
        region="tashkent-region",
        brands=("chevrolet",),
        name=("Chevrolet Чирчик", "Chevrolet Chirchiq", "Chevrolet Chirchiq"),
        address=("ул. Амира Темура, 25, Чирчик", "Amir Temur ko'chasi, 25, Chirchiq", "25 Amir Temur Street, Chirchiq"),
        phone="+998702001207",
        location=(41.4690, 69.5820),
    ),
    BranchRow(
        slug="nurafshon-auto",
        region="tashkent-region",
        brands=("byd", "chery", "kia"),
        name=("Автоцентр Нурафшон", "Nurafshon avtomarkazi", "Nurafshon Auto Centre"),
        address=(
            "ул. Ташкентская, 3, Нурафшон",
            "Toshkent yo'li ko'chasi, 3, Nurafshon",
            "3 Toshkent Yuli Street, Nurafshon",
        ),
        phone="+998702001208",
        location=(41.0440, 69.3580),
    ),
    BranchRow(
        slug="chevrolet-samarkand",
        region="samarkand",
        brands=("chevrolet",),
        name=("Chevrolet Самарканд", "Chevrolet Samarqand", "Chevrolet Samarkand"),
        address=("ул. Рудаки, 160, Самарканд", "Rudakiy ko'chasi, 160, Samarqand", "160 Rudaki Street, Samarkand"),
        phone="+998662001209",
        location=(39.6540, 66.9760),
    ),
    BranchRow(
        slug="samarkand-auto-mall",
        region="samarkand",
        brands=("byd", "kia", "hyundai", "haval", "chery"),
        name=("Samarkand Auto Mall", "Samarkand Auto Mall", "Samarkand Auto Mall"),
        address=(
            "ул. Спитамена, 290, Самарканд",
            "Spitamen ko'chasi, 290, Samarqand",
            "290 Spitamen Street, Samarkand",
        ),
        phone="+998662001210",
        location=(39.6700, 66.9300),
        daily=True,
    ),
    BranchRow(
        slug="bukhara-auto",
        region="bukhara",
        brands=("chevrolet", "byd", "chery"),
        name=("Бухара Авто", "Buxoro Avto", "Bukhara Auto"),
        address=("ул. Пиридастгир, 10, Бухара", "Piridastgir ko'chasi, 10, Buxoro", "10 Piridastgir Street, Bukhara"),
        phone="+998652001211",
        location=(39.7680, 64.4220),
    ),
    BranchRow(
        slug="andijan-auto",
        region="andijan",
        brands=("chevrolet", "kia"),
        name=("Андижан Авто", "Andijon Avto", "Andijan Auto"),
        address=("ул. Бабура, 55, Андижан", "Bobur ko'chasi, 55, Andijon", "55 Babur Street, Andijan"),
        phone="+998742001212",
        location=(40.7820, 72.3440),
    ),
    BranchRow(
        slug="chevrolet-fergana",
        region="fergana",
        brands=("chevrolet",),
        name=("Chevrolet Фергана", "Chevrolet Farg'ona", "Chevrolet Fergana"),
        address=(
            "ул. Аль-Фаргани, 30, Фергана",
            "Al-Farg'oniy ko'chasi, 30, Farg'ona",
            "30 Al-Fargani Street, Fergana",
        ),
        phone="+998732001213",
        location=(40.3860, 71.7860),
    ),
    BranchRow(
        slug="fergana-auto-city",
        region="fergana",
        brands=("byd", "haval", "geely", "jetour"),
        name=("Fergana Auto City", "Fergana Auto City", "Fergana Auto City"),
        address=("ул. Маргиланская, 112, Фергана", "Marg'ilon ko'chasi, 112, Farg'ona", "112 Margilan Street, Fergana"),
        phone="+998732001214",
        location=(40.3950, 71.7600),
    ),
    BranchRow(
        slug="namangan-auto",
        region="namangan",
        brands=("chevrolet", "chery"),
        name=("Наманган Авто", "Namangan Avto", "Namangan Auto"),
        address=("ул. Уйчи, 8, Наманган", "Uychi ko'chasi, 8, Namangan", "8 Uychi Street, Namangan"),
        phone="+998692001215",
        location=(41.0000, 71.6720),
    ),
    BranchRow(
        slug="karshi-auto",
        region="kashkadarya",
        brands=("chevrolet", "byd"),
        name=("Карши Авто", "Qarshi Avto", "Karshi Auto"),
        address=("ул. Насаф, 21, Карши", "Nasaf ko'chasi, 21, Qarshi", "21 Nasaf Street, Karshi"),
        phone="+998752001216",
        location=(38.8610, 65.7890),
    ),
    BranchRow(
        slug="termez-auto",
        region="surkhandarya",
        brands=("chevrolet", "haval"),
        name=("Термез Авто", "Termiz Avto", "Termez Auto"),
        address=("ул. Ат-Термизи, 14, Термез", "At-Termiziy ko'chasi, 14, Termiz", "14 At-Termizi Street, Termez"),
        phone="+998762001217",
        location=(37.2240, 67.2780),
    ),
    BranchRow(
        slug="urgench-auto",
        region="khorezm",
        brands=("chevrolet", "byd", "kia"),
        name=("Ургенч Авто", "Urganch Avto", "Urgench Auto"),
        address=("ул. Аль-Хорезми, 45, Ургенч", "Al-Xorazmiy ko'chasi, 45, Urganch", "45 Al-Khorezmi Street, Urgench"),
        phone="+998622001218",
        location=(41.5500, 60.6310),
    ),
    BranchRow(
        slug="navoi-auto",
        region="navoi",
        brands=("chevrolet", "chery"),
        name=("Навои Авто", "Navoiy Avto", "Navoi Auto"),
        address=("ул. Галаба, 9, Навои", "G'alaba ko'chasi, 9, Navoiy", "9 Galaba Street, Navoi"),
        phone="+998792001219",
        location=(40.1030, 65.3740),
    ),
    BranchRow(
        slug="jizzakh-auto",
        region="jizzakh",
        brands=("byd", "kia", "chevrolet"),
        name=("Джизак Авто", "Jizzax Avto", "Jizzakh Auto"),
        address=(
            "ул. Шарафа Рашидова, 70, Джизак",
            "Sharof Rashidov ko'chasi, 70, Jizzax",
            "70 Sharof Rashidov Street, Jizzakh",
        ),
        phone="+998722001220",
        location=(40.1160, 67.8420),
    ),
    BranchRow(
        slug="gulistan-auto",
        region="syrdarya",
        brands=("chevrolet",),
        name=("Гулистан Авто", "Guliston Avto", "Gulistan Auto"),
        address=(
            "ул. Узбекистанская, 5, Гулистан",
            "O'zbekiston ko'chasi, 5, Guliston",
            "5 Uzbekistan Street, Gulistan",
        ),
        phone="+998672001221",
        location=(40.4890, 68.7840),
    ),
    BranchRow(
        slug="nukus-auto",
        region="karakalpakstan",
        brands=("chevrolet", "byd", "haval"),
        name=("Нукус Авто", "Nukus Avto", "Nukus Auto"),
        address=("ул. Досназарова, 30, Нукус", "Dosnazarov ko'chasi, 30, Nukus", "30 Dosnazarov Street, Nukus"),
        phone="+998612001222",
        location=(42.4610, 59.6100),
    ),
)
