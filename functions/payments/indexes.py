"""Indexes of the financing collections (docs/DATA_MODEL.md, "Financing")."""

from data.mongo import Index

INDEXES = [
    Index("organizations", [("slug", 1)], "organizations_slug_unique", {"unique": True}),
    Index("credit_products", [("brandId", 1), ("active", 1)], "credit_products_by_brand"),
    # Each chain step finds the product by the id of the node it was given.
    Index("credit_products", [("incomeTypes._id", 1)], "credit_products_by_income_type"),
    Index("credit_products", [("incomeTypes.initialPayments._id", 1)], "credit_products_by_initial_payment"),
    Index("credit_products", [("incomeTypes.initialPayments.loanTerms._id", 1)], "credit_products_by_loan_term"),
    # /banks reads a modification's offers. The pair is unique already: an offer's _id is derived from it.
    Index("bank_offers", [("modificationId", 1), ("productId", 1)], "bank_offers_by_modification"),
    Index("leasing_programs", [("brandId", 1), ("organizationId", 1)], "leasing_programs_by_brand"),
    Index("installment_plans", [("brandId", 1), ("active", 1)], "installment_plans_by_brand"),
    Index("special_offers", [("carId", 1), ("kind", 1)], "special_offers_by_car"),
]
