"""Indexes of the catalog collections, one per query the Catalog function makes."""

from core.locale import LOCALES
from data.mongo import Index
from domain.catalog.query import NAME_COLLATION

INDEXES = [
    Index("brands", [("slug", 1)], "brands_slug_unique", {"unique": True}),
    Index("brands", [("order", 1), ("_id", 1)], "brands_order"),  # default brand order
    # sort=name, case-insensitive (a dozen brands: the name search reads them all)
    Index("brands", [("name", 1), ("_id", 1)], "brands_name_ci", {"collation": NAME_COLLATION}),
    Index("body_types", [("slug", 1)], "body_types_slug_unique", {"unique": True}),
    Index("body_types", [("order", 1), ("_id", 1)], "body_types_order"),
    Index("powertrains", [("slug", 1)], "powertrains_slug_unique", {"unique": True}),
    Index("powertrains", [("order", 1), ("_id", 1)], "powertrains_order"),
    Index("cars", [("slug", 1)], "cars_slug_unique", {"unique": True}),
    # Filters by brand or body type, bounded and sorted by price within them; brand detail counts.
    Index("cars", [("brandId", 1), ("priceFrom", 1), ("_id", 1)], "cars_brand_price"),
    Index("cars", [("bodyTypeId", 1), ("priceFrom", 1), ("_id", 1)], "cars_body_type_price"),
    # The sort orders: price (min/max bounds, price range of filters/all), new, name per locale.
    Index("cars", [("priceFrom", 1), ("_id", 1)], "cars_price"),
    Index("cars", [("createdAt", -1), ("_id", -1)], "cars_newest"),
    *[
        Index("cars", [(f"name.{locale}", 1), ("_id", 1)], f"cars_name_{locale}_ci", {"collation": NAME_COLLATION})
        for locale in LOCALES
    ],
    # A modification or color is found with its car (orders, financing, availability).
    Index("cars", [("modifications._id", 1)], "cars_modification"),
    Index("cars", [("colors._id", 1)], "cars_color"),
]
