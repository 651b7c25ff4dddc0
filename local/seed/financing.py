"""Financing demo data: 4 banks, 3 leasing companies and an installment provider, attached to the demo
catalog's brands and cars (local.seed.catalog).

Per brand: a credit product per bank (income types x initial payments x terms x refund types, a rate
per income type, initial payment and term), a leasing program per leasing company, an installment
plan. Per car: a special bank offer and a special leasing offer. Ids are stable (`stable_id` of the
names below, keyed by organization, brand and car slugs), so docs/DATA_MODEL.md can list them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from bson import ObjectId

from data.mongo import Document
from local.seed.support import stable_id

INCOME_TYPES: dict[str, tuple[dict[str, str], int]] = {
    # slug: (name, rate surcharge in basis points)
    "SALARIED": (
        {"ru": "Официальный доход по месту работы", "uz": "Ish joyidan rasmiy daromad", "en": "Salaried"},
        0,
    ),
    "SELF_EMPLOYED": (
        {"ru": "Самозанятый или ИП", "uz": "O'zini o'zi band qilgan yoki YaTT", "en": "Self-employed"},
        200,
    ),
    "PENSIONER": ({"ru": "Пенсионер", "uz": "Nafaqaxo'r", "en": "Pensioner"}, 100),
}


@dataclass(frozen=True)
class Bank:
    slug: str
    name: str
    base_rate_bp: int
    income_types: tuple[str, ...]
    initial_percents: tuple[int, ...]
    terms: tuple[int, ...]
    refund_types: tuple[str, ...] = ("ANNUITY", "DIFFERENTIAL")

    def rate_bp(self, income_type: str, initial_percent: int, months: int) -> int:
        """Base rate, plus the income type's surcharge, less 0.1 point per percent down above 25 %,
        plus half a point per year of term beyond the first."""
        return self.base_rate_bp + INCOME_TYPES[income_type][1] - (initial_percent - 25) * 10 + (months - 12) // 12 * 50


BANKS = (
    Bank(
        slug="kapitalbank",
        name="Kapitalbank",
        base_rate_bp=2300,
        income_types=("SALARIED", "SELF_EMPLOYED"),
        initial_percents=(25, 30, 40, 50),
        terms=(12, 24, 36, 48, 60),
    ),
    Bank(
        slug="hamkorbank",
        name="Hamkorbank",
        base_rate_bp=2200,
        income_types=("SALARIED", "SELF_EMPLOYED", "PENSIONER"),
        initial_percents=(30, 40, 50),
        terms=(12, 24, 36, 48),
    ),
    Bank(
        slug="ipoteka-bank",
        name="Ipoteka Bank",
        base_rate_bp=2400,
        income_types=("SALARIED", "SELF_EMPLOYED"),
        initial_percents=(25, 30, 50),
        terms=(12, 24, 36, 60),
        refund_types=("ANNUITY",),
    ),
    Bank(
        slug="asakabank",
        name="Asakabank",
        base_rate_bp=2100,
        income_types=("SALARIED",),
        initial_percents=(30, 40, 50),
        terms=(12, 24, 36),
    ),
)


@dataclass(frozen=True)
class LeasingCompany:
    slug: str
    name: str
    rate_bp: int
    markup_bp: int
    contract_fee_bp: int
    monthly_fee: int
    buyout_bp: int
    initial_percents: tuple[int, ...]
    terms: tuple[int, ...]


LEASING_COMPANIES = (
    LeasingCompany(
        slug="uzbek-leasing",
        name="Uzbek Leasing International",
        rate_bp=2000,
        markup_bp=300,
        contract_fee_bp=100,
        monthly_fee=0,
        buyout_bp=1000,
        initial_percents=(20, 30, 40),
        terms=(12, 24, 36),
    ),
    LeasingCompany(
        slug="silk-road-leasing",
        name="Silk Road Leasing",
        rate_bp=1800,
        markup_bp=500,
        contract_fee_bp=150,
        monthly_fee=100_000,
        buyout_bp=500,
        initial_percents=(25, 35, 50),
        terms=(24, 36, 48),
    ),
    LeasingCompany(
        slug="orient-leasing",
        name="Orient Finans Leasing",
        rate_bp=2200,
        markup_bp=0,
        contract_fee_bp=200,
        monthly_fee=150_000,
        buyout_bp=0,
        initial_percents=(30, 40),
        terms=(12, 24, 36, 48, 60),
    ),
)

INSTALLMENT_PROVIDER = ("car-retail-nasiya", "Car Retail Nasiya")
INSTALLMENT_TERMS = [3, 6, 9, 12]
INSTALLMENT_ROWS = [  # initial payment %, mark-up in basis points per term: 0 is interest-free
    (30, [0, 300, 600, 900]),
    (40, [0, 0, 400, 700]),
    (50, [0, 0, 0, 500]),
]


@dataclass(frozen=True)
class SpecialOfferRow:
    kind: str
    payment_type: str  # the car must be sold this way
    organizations: tuple[tuple[str, str], ...]  # (slug, name), one per car in turn
    terms: Document
    title: dict[str, str]  # with {name}
    description: dict[str, str]


SPECIAL_OFFERS = (
    SpecialOfferRow(
        kind="BANK",
        payment_type="CREDIT",
        organizations=tuple((bank.slug, bank.name) for bank in BANKS),
        terms={"initialPercent": 30, "months": 36, "rateBp": 1900, "refundType": "ANNUITY"},
        title={"ru": "{name}: 19 % на 36 месяцев", "uz": "{name}: 36 oyga 19 %", "en": "{name}: 19 % for 36 months"},
        description={
            "ru": "Первый взнос 30 %, аннуитетные платежи",
            "uz": "Boshlang'ich to'lov 30 %, annuitet to'lovlar",
            "en": "30 % down, annuity payments",
        },
    ),
    SpecialOfferRow(
        kind="LEASING",
        payment_type="LEASING",
        organizations=tuple((company.slug, company.name) for company in LEASING_COMPANIES),
        terms={"initialPercent": 20, "months": 24, "rateBp": 1500, "buyoutBp": 1000},
        title={
            "ru": "{name}: лизинг под 15 % на 24 месяца",
            "uz": "{name}: 24 oyga 15 % lizing",
            "en": "{name}: 15 % leasing for 24 months",
        },
        description={
            "ru": "Первый взнос 20 %, выкуп 10 % в конце срока",
            "uz": "Boshlang'ich to'lov 20 %, muddat oxirida 10 % qaytarib sotib olish",
            "en": "20 % down, 10 % buyout at the end",
        },
    ),
)


def organization_id(slug: str) -> ObjectId:
    return stable_id(f"organization:{slug}")


def credit_product_id(bank_slug: str, brand_slug: str) -> ObjectId:
    return stable_id(f"credit-product:{bank_slug}:{brand_slug}")


def credit_node_id(bank_slug: str, brand_slug: str, *path: object) -> ObjectId:
    """A node of a credit product's tree by its path: income type, initial %, months, refund type."""
    return stable_id(":".join(["credit", bank_slug, brand_slug, *map(str, path)]))


def leasing_program_id(company_slug: str, brand_slug: str, *path: object) -> ObjectId:
    """A leasing program, or with ("term", months) / ("initial", percent) one of its options."""
    return stable_id(":".join(["leasing-program", company_slug, brand_slug, *map(str, path)]))


def installment_plan_id(brand_slug: str) -> ObjectId:
    return stable_id(f"installment-plan:{INSTALLMENT_PROVIDER[0]}:{brand_slug}")


def special_offer_id(kind: str, car_slug: str) -> ObjectId:
    return stable_id(f"special-offer:{kind.lower()}:{car_slug}")


def _organizations() -> list[Document]:
    kinds = [
        *(("BANK", bank.slug, bank.name) for bank in BANKS),
        *(("LEASING_COMPANY", company.slug, company.name) for company in LEASING_COMPANIES),
        ("INSTALLMENT_PROVIDER", *INSTALLMENT_PROVIDER),
    ]
    return [
        {
            "_id": organization_id(slug),
            "slug": slug,
            "kind": kind,
            "name": name,
            "logo": f"organizations/{slug}.svg",
            "order": order,
            "active": True,
        }
        for order, (kind, slug, name) in enumerate(kinds, start=1)
    ]


def _credit_product(bank: Bank, brand: Document) -> Document:
    slug, node = brand["slug"], credit_node_id
    return {
        "_id": credit_product_id(bank.slug, slug),
        "organizationId": organization_id(bank.slug),
        "brandId": brand["_id"],
        "name": {
            "ru": f"Автокредит на {brand['name']}",
            "uz": f"{brand['name']} avtokrediti",
            "en": f"{brand['name']} car loan",
        },
        "active": True,
        "incomeTypes": [
            {
                "_id": node(bank.slug, slug, income),
                "slug": income,
                "name": INCOME_TYPES[income][0],
                "initialPayments": [
                    {
                        "_id": node(bank.slug, slug, income, percent),
                        "percent": percent,
                        "loanTerms": [
                            {
                                "_id": node(bank.slug, slug, income, percent, months),
                                "months": months,
                                "rateBp": bank.rate_bp(income, percent, months),
                                "refundTypes": [
                                    {"_id": node(bank.slug, slug, income, percent, months, refund), "slug": refund}
                                    for refund in bank.refund_types
                                ],
                            }
                            for months in bank.terms
                        ],
                    }
                    for percent in bank.initial_percents
                ],
            }
            for income in bank.income_types
        ],
    }


def _leasing_program(company: LeasingCompany, brand: Document, order: int) -> Document:
    slug = brand["slug"]
    return {
        "_id": leasing_program_id(company.slug, slug),
        "organizationId": organization_id(company.slug),
        "brandId": brand["_id"],
        "name": {"ru": f"Лизинг {brand['name']}", "uz": f"{brand['name']} lizingi", "en": f"{brand['name']} leasing"},
        "rateBp": company.rate_bp,
        "markupBp": company.markup_bp,
        "contractFeeBp": company.contract_fee_bp,
        "monthlyFee": company.monthly_fee,
        "buyoutBp": company.buyout_bp,
        "loanTerms": [
            {"_id": leasing_program_id(company.slug, slug, "term", months), "months": months}
            for months in company.terms
        ],
        "initialPayments": [
            {"_id": leasing_program_id(company.slug, slug, "initial", percent), "percent": percent}
            for percent in company.initial_percents
        ],
        "active": True,
        "order": order,
    }


def _installment_plan(brand: Document) -> Document:
    return {
        "_id": installment_plan_id(brand["slug"]),
        "organizationId": organization_id(INSTALLMENT_PROVIDER[0]),
        "brandId": brand["_id"],
        "name": {"ru": "Рассрочка от дилера", "uz": "Dilerdan muddatli to'lov", "en": "Dealer installment"},
        "terms": INSTALLMENT_TERMS,
        "rows": [{"initialPercent": percent, "markupBp": markups} for percent, markups in INSTALLMENT_ROWS],
        "active": True,
        "order": 1,
    }


def _special_offers(cars: Iterable[Document]) -> list[Document]:
    """A special bank offer and a special leasing offer per car, the organizations taken in turn."""
    return [
        {
            "_id": special_offer_id(offer.kind, car["slug"]),
            "kind": offer.kind,
            "organizationId": organization_id(slug),
            "carId": car["_id"],
            "modificationIds": [],
            "title": {language: title.format(name=name) for language, title in offer.title.items()},
            "description": offer.description,
            "terms": offer.terms,
            "validUntil": None,
            "active": True,
            "order": 1,
        }
        for index, car in enumerate(cars)
        for offer in SPECIAL_OFFERS
        if offer.payment_type in car.get("paymentTypes", [])
        for slug, name in [offer.organizations[index % len(offer.organizations)]]
    ]


def documents(brand_docs: list[Document], car_docs: list[Document]) -> dict[str, list[Document]]:
    """The financing collections for these catalog brands and cars (local.seed.catalog builds them)."""
    brands = sorted(brand_docs, key=lambda brand: brand["_id"])
    cars = sorted(car_docs, key=lambda car: car["slug"])  # which car is a brand's demo car, which bank an offer gets
    return {
        "organizations": _organizations(),
        "credit_products": [_credit_product(bank, brand) for brand in brands for bank in BANKS],
        "leasing_programs": [
            _leasing_program(company, brand, order)
            for brand in brands
            for order, company in enumerate(LEASING_COMPANIES, start=1)
        ],
        "installment_plans": [_installment_plan(brand) for brand in brands],
        "special_offers": _special_offers(cars),
    }
