"""What the financing routes list: the organizations serving a brand, its credit products with their banks
and installment plans with their providers (active organizations alone, in their order), the bank offers
stored for a modification, and a node of a credit product's tree found or 404.

A brand's financing is reference data: a listing renders it once per reading of it and of the active
organizations (`rendered`, `BrandFinancing`). A function whose routes read it preloads `REFERENCE_DATA`
for a SnapStart restore."""

from __future__ import annotations

from typing import Any

from bson import ObjectId

from core.errors import NotFound
from core.observability import logger
from domain.catalog.brands import BRAND_NAMES
from domain.catalog.payment_types import PaymentType
from domain.financing import store
from domain.financing.records import CreditProductRecord, InstallmentPlanRecord, OrganizationRecord
from domain.financing.store import BrandFinancing, rendered

__all__ = [
    "REFERENCE_DATA",
    "BrandFinancing",
    "chain_node",
    "credit_products",
    "installment_plans",
    "organizations",
    "rendered",
    "stored_offers",
]

# The brands (a route's brand found or 404) and the active organizations.
REFERENCE_DATA = (*BRAND_NAMES, store.all_active_organizations)

# The levels of a credit product's tree, in the order of the bank chain (`store.CREDIT_PATH`).
LEVELS = tuple(level for level, _ in store.CREDIT_PATH)
# What a step of the chain is called in FINANCING_STEP_NOT_FOUND, by the level of its node.
STEP_NAMES: tuple[dict[str, str], ...] = (
    {"ru": "Тип дохода", "uz": "Daromad turi", "en": "Income type"},
    {"ru": "Первоначальный взнос", "uz": "Boshlangʻich toʻlov", "en": "Initial payment"},
    {"ru": "Срок кредита", "uz": "Kredit muddati", "en": "Loan term"},
)


def organizations(financing: BrandFinancing, payment_type: PaymentType) -> list[OrganizationRecord]:
    """The active organizations of the brand's products, programs or plans of this payment type, in their
    order (none for CASH)."""
    return list(store.active_organizations(financing.organization_ids(payment_type)).values())


def credit_products(financing: BrandFinancing) -> list[tuple[OrganizationRecord, CreditProductRecord]]:
    """The brand's credit products of active banks, each with its bank, in the banks' order."""
    products = financing.credit_products()
    banks = store.active_organizations([product["organizationId"] for product in products])
    return [
        (bank, product)
        for bank_id, bank in banks.items()
        for product in products
        if product["organizationId"] == bank_id
    ]


def installment_plans(brand_id: ObjectId) -> list[tuple[InstallmentPlanRecord, OrganizationRecord]]:
    """The brand's installment plans of active providers, each with its provider, in the plans' order: when
    there is one, the brand is financed by installments (`offered.is_offered`'s proof)."""
    plans = store.brand_financing(brand_id).installment_plans()
    providers = store.active_organizations([plan["organizationId"] for plan in plans])
    return [(plan, providers[plan["organizationId"]]) for plan in plans if plan["organizationId"] in providers]


def stored_offers(modification_id: ObjectId, product_ids: list[ObjectId]) -> dict[ObjectId, str]:
    """The ids of the bank offers stored for the modification (`store.offer_id_text`), by product, in the
    products' order: only those can be calculated. A product without a stored offer is not listed (and
    logged: the offers are created with the financing data, never by a GET)."""
    if not product_ids:
        return {}
    stored = store.products_offered(modification_id, product_ids)
    if missing := [str(product_id) for product_id in product_ids if product_id not in stored]:
        logger.warning(
            "credit products without a stored bank offer are not listed: run python -m ops bank-offers",
            extra={"modificationId": str(modification_id), "productIds": missing},
        )
    return {
        product_id: store.offer_id_text(product_id, modification_id)
        for product_id in product_ids
        if product_id in stored
    }


def chain_node(depth: int, node_id: str, *fields: str) -> Any:
    """The node at `depth` of some active credit product's tree (0: an income type), found by its id alone
    (each step of the bank chain gets only that id), with the `fields` the step answers of it; 404 naming
    the step when there is none."""
    found = store.credit_tree_node(LEVELS[: depth + 1], ObjectId(node_id), fields)
    if found is None:
        raise NotFound("FINANCING_STEP_NOT_FOUND", step=STEP_NAMES[depth])
    return found
