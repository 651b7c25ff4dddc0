"""A typed client generated from `openapi.json` walks a buyer's journey against the local API.

openapi-python-client (a maintained generator from PyPI) builds the client into a temporary directory
at test time; nothing generated is committed. The journey uses only what the generated code offers:
its operations, its request models and the attributes of its typed response models
(`order.contract_number`, `calculation.schedule[0].principal`...). A field the document did not declare
would not be an attribute, so the walk passing proves the contract is enough to build an app from.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from pymongo.database import Database

from domain.payments.sandbox import PAYS_UZCARD, SANDBOX_OTP
from local.template import ROOT
from tests.databases import seeded_database

PACKAGE = "car_retail_client"
# The generator's defaults run ruff over its output: formatting a throwaway client buys nothing here.
GENERATOR_CONFIG: dict[str, Any] = {"post_hooks": []}
GENERATION_TIMEOUT_SECONDS = 120
BUYER_PHONE = "+998907770011"
HEADERS = {
    "user_agent": "generated-client-test",
    "fingerprint": "generated-client-device",
    "client_header": "demo-partner-key",
    "accept_language": "en",
}

# The generated modules of the operations the journey calls (named after the operation ids).
OPERATIONS = {
    "login": "auth.login_api_v1_auth_login_post",
    "me": "auth.me_api_v1_auth_me_get",
    "brands": "catalog.get_brands_api_v1_brands_get",
    "cars": "catalog.get_cars_api_v1_cars_get",
    "car": "catalog.get_cars_by_id_api_v1_cars_id_get",
    "regions": "dictionaries.get_dictionaries_branch_regions_api_v1_dictionaries_branch_regions_get",
    "payment_types": "payments.get_payments_types_api_v2_payments_types_get",
    "banks": "payments.get_payments_banks_api_v2_payments_banks_get",
    "income_types": "payments.get_payments_banks_income_types_api_v2_payments_banks_income_types_get",
    "initial_payments": "payments.get_payments_banks_initial_payment_api_v2_payments_banks_initial_payment_get",
    "loan_terms": "payments.get_payments_banks_loan_terms_api_v2_payments_banks_loan_terms_get",
    "refund_types": "payments.get_payments_banks_refund_types_api_v2_payments_banks_refund_types_get",
    "calculate": "payments.get_payments_banks_calculate_api_v2_payments_banks_calculate_get",
    "create_order": "orders.create_order_api_v1_orders_post",
    "order": "orders.get_order_api_v1_orders_id_get",
    "orders": "orders.list_orders_api_v1_orders_get",
    "steps": "orders.order_steps_api_v1_order_logs_steps_get",
    "check_card": "transactions.check_card_api_v1_transactions_check_card_get",
    "create_payment": "transactions.create_api_v1_transactions_create_post",
    "apply_payment": "transactions.apply_api_v1_transactions_apply_post",
    "history": "transactions.history_api_v1_transactions_history_get",
}


@pytest.fixture(scope="module")
def demo_database(mongo_uri: str) -> Iterator[str]:
    """The journey places an order and pays it: this module seeds a database of its own."""
    with seeded_database(mongo_uri) as name:
        yield name


class GeneratedClient:
    """The generated package, imported from where it was generated, and its operations by short name."""

    def __init__(self, package: ModuleType) -> None:
        self.package = package
        self.models: Any = importlib.import_module(f"{PACKAGE}.models")

    def operation(self, name: str) -> Any:
        return importlib.import_module(f"{PACKAGE}.api.{OPERATIONS[name]}")


def generate_client(output: Path) -> None:
    config = output.parent / "generator-config.json"
    config.write_text(json.dumps(GENERATOR_CONFIG), encoding="utf-8")
    command = [
        *(sys.executable, "-m", "openapi_python_client", "generate"),
        *("--path", str(ROOT / "openapi.json"), "--meta", "none", "--config", str(config)),
        *("--output-path", str(output), "--fail-on-warning"),
    ]
    # A fixed command on files this test wrote: nothing untrusted reaches the process.
    result = subprocess.run(  # noqa: S603
        command, capture_output=True, text=True, timeout=GENERATION_TIMEOUT_SECONDS, check=False
    )
    assert result.returncode == 0, f"the generator refused openapi.json:\n{result.stdout}\n{result.stderr}"


def import_package(location: Path) -> ModuleType:
    """Import the generated package from its directory (its modules import each other relatively)."""
    spec = importlib.util.spec_from_file_location(
        PACKAGE, location / "__init__.py", submodule_search_locations=[str(location)]
    )
    assert spec is not None
    assert spec.loader is not None
    package = importlib.util.module_from_spec(spec)
    sys.modules[PACKAGE] = package
    spec.loader.exec_module(package)
    return package


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[GeneratedClient]:
    output = tmp_path_factory.mktemp("generated") / PACKAGE
    generate_client(output)
    yield GeneratedClient(import_package(output))
    for name in [name for name in sys.modules if name == PACKAGE or name.startswith(f"{PACKAGE}.")]:
        del sys.modules[name]


def call(generated: GeneratedClient, client: Any, operation: str, *, status: int = 200, **arguments: Any) -> Any:
    """One operation through the generated client; its typed envelope's `data`."""
    response = generated.operation(operation).sync_detailed(client=client, **HEADERS, **arguments)
    assert response.status_code == status, f"{operation}: {response.status_code} {response.content!r}"
    envelope = response.parsed
    assert envelope is not None, f"{operation}: the generated client could not parse {response.content!r}"
    assert envelope.success is True
    assert envelope.status_code == status
    return envelope.data


def stocked_branch(generated: GeneratedClient, buyer: Any, brand_id: str, car: Any, modification: Any) -> Any:
    """The first color of the car that a branch has in stock: (color, region, branch)."""
    for color in car.colors:
        regions = call(
            generated,
            buyer,
            "regions",
            brand_id=brand_id,
            car_id=car.field_id,
            modification_id=modification.field_id,
            color_id=color.field_id,
        )
        for region in regions.items:
            for branch in region.branches:
                if branch.available:
                    assert region.available
                    return color, region, branch
    raise AssertionError(f"no branch has {car.name} {modification.name} in stock")


def test_a_generated_client_walks_a_buyers_journey(
    generated: GeneratedClient, api_server: str, seeded: Database[dict[str, Any]]
) -> None:
    models = generated.models
    # Given a client generated from openapi.json, pointed at the local API
    with generated.package.Client(base_url=api_server, raise_on_unexpected_status=True) as anonymous:
        # When a buyer signs in with their phone
        tokens = call(generated, anonymous, "login", status=201, body=models.LoginBody(phone=BUYER_PHONE))
    with generated.package.AuthenticatedClient(
        base_url=api_server, token=tokens.access_token, raise_on_unexpected_status=True
    ) as buyer:
        # Then the token opens their profile
        profile = call(generated, buyer, "me")
        assert profile.phone == BUYER_PHONE
        assert profile.verified is False

        # When they browse: a brand, its cars found by name, one car
        brands = call(generated, buyer, "brands")
        chevrolet = next(brand for brand in brands.items if brand.name == "Chevrolet")
        assert brands.total == len(brands.items)
        cars = call(generated, buyer, "cars", brands=chevrolet.field_id, search="Cobalt")
        assert [car.name for car in cars.items] == ["Cobalt"]
        assert cars.items[0].brand.field_id == chevrolet.field_id
        car = call(generated, buyer, "car", id=cars.items[0].field_id)
        # Then the car names its prices, colors and how it can be bought
        modification = min(car.modifications, key=lambda item: item.price)
        assert modification.price == car.price_from
        assert {"CASH", "CREDIT"} <= {str(payment_type) for payment_type in car.payment_types}
        assert car.colors
        assert all(color.hex_.startswith("#") for color in car.colors)

        # When they look for a branch that has the car in stock, color by color
        color, region, branch = stocked_branch(generated, buyer, chevrolet.field_id, car, modification)
        # Then one has it (else the walk stops there), and says where it is
        assert branch.address

        # When they walk the bank credit chain to a calculation
        payment_types = call(
            generated, buyer, "payment_types", modification_id=modification.field_id, brand_id=chevrolet.field_id
        )
        assert "CREDIT" in {str(item.slug) for item in payment_types.items}
        banks = call(
            generated,
            buyer,
            "banks",
            brand_id=chevrolet.field_id,
            car_id=car.field_id,
            modification_id=modification.field_id,
        )
        bank = banks.items[0]
        income_type = call(generated, buyer, "income_types", bank_id=bank.field_id).items[0]
        initial_payment = call(generated, buyer, "initial_payments", income_type_id=income_type.field_id).items[0]
        loan_term = call(generated, buyer, "loan_terms", initial_payment_id=initial_payment.field_id).items[0]
        refund_type = call(generated, buyer, "refund_types", loan_term_id=loan_term.field_id).items[0]
        calculation = call(
            generated,
            buyer,
            "calculate",
            bank_id=bank.field_id,
            income_type_id=income_type.field_id,
            initial_payment_id=initial_payment.field_id,
            loan_term_id=loan_term.field_id,
            refund_type_id=refund_type.field_id,
        )
        # Then the credit is priced on the car's price and its schedule repays the loan
        assert calculation.car_price == modification.price
        assert calculation.initial_payment + calculation.loan_amount == calculation.car_price
        assert calculation.term_months == loan_term.months == len(calculation.schedule)
        assert sum(row.principal for row in calculation.schedule) == calculation.loan_amount
        assert calculation.schedule[-1].balance == 0

        # When they order the car on that credit, at its current price
        order = call(
            generated,
            buyer,
            "create_order",
            status=201,
            body=models.CreateOrderBody(
                car_id=car.field_id,
                modification_id=modification.field_id,
                color_id=color.field_id,
                region_id=region.field_id,
                branch_id=branch.field_id,
                payment_type_id=models.PaymentType.CREDIT,
                price=int(modification.price),
                credit=models.CreditChoice(
                    bank_id=bank.field_id,
                    income_type_id=income_type.field_id,
                    initial_payment_id=initial_payment.field_id,
                    loan_term_id=loan_term.field_id,
                    refund_type_id=refund_type.field_id,
                ),
            ),
        )
        # Then it has a contract number, carries the credit as calculated, and waits for the initial payment
        assert order.contract_number.startswith("CR-")
        assert str(order.status_slug) == "NEW"
        assert order.amount_due == order.price == modification.price
        assert order.amount_due_now == calculation.initial_payment
        assert order.financing.monthly_payment == calculation.monthly_payment
        assert order.paid_amount == 0

        # When they pay the initial payment by card, with the code the sandbox sends
        card = call(generated, buyer, "check_card", card_number=PAYS_UZCARD)
        assert str(card.type_) == "UZCARD"
        started = call(
            generated,
            buyer,
            "create_payment",
            body=models.CreateBody(
                amount=order.amount_due_now,
                card_number=PAYS_UZCARD,
                expiry="12/30",
                card_type=models.ECardType.UZCARD,
                brand_id=order.brand_id,
                order_id=order.field_id,
            ),
        )
        applied = call(
            generated,
            buyer,
            "apply_payment",
            body=models.ApplyBody(
                transaction_id=started.transaction_id,
                otp=SANDBOX_OTP,
                amount=order.amount_due_now,
                brand_id=order.brand_id,
                order_id=order.field_id,
            ),
        )
        # Then the payment is confirmed and the order paid
        assert str(applied.status) == "CONFIRMED"
        assert str(applied.order_status) == "PAID"

        # And the order's timeline, its payment history and the order itself say so
        steps = call(generated, buyer, "steps", order_id=order.field_id)
        assert [str(step.slug) for step in steps.items if step.is_current] == ["PAID"]
        assert [str(step.slug) for step in steps.items if step.done] == ["NEW"]
        history = call(generated, buyer, "history", order_id=order.field_id)
        assert [(item.transaction_id, str(item.status)) for item in history.items] == [
            (started.transaction_id, "CONFIRMED")
        ]
        assert history.items[0].card_mask == "860049******6478"
        paid = call(generated, buyer, "order", id=order.field_id)
        assert str(paid.status_slug) == "PAID"
        assert paid.paid_amount == order.amount_due_now
        orders = call(generated, buyer, "orders")
        assert [item.contract_number for item in orders.items] == [order.contract_number]
