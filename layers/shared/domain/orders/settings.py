"""Orders' settings: how long an order holds its car, what keeps it, and how many cars one person (and the
unverified accounts of one partner) may hold unpaid (docs/OPERATIONS.md, "Configuration"). Read from the
environment once per process by the code that places, pays or expires orders."""

# No `from __future__ import annotations`, as in every settings module (docs/DECISIONS.md, "Import-time work").
from pydantic import BaseModel, ConfigDict, Field

from core.settings import cached_settings, from_env, get_settings


class OrderSettings(BaseModel):
    model_config = ConfigDict(frozen=True)

    # An order's deposit is due this soon after it is placed (a sale's `holdMinutes` instead, where set):
    # a hold nobody pays for ends in minutes, not days.
    order_deposit_minutes: int = Field(default=30, ge=1, le=7 * 24 * 60)
    # What is due now (`amountDueNow`) is due this long after the order was placed (`payBy`); a financed
    # order with nothing to pay by card waits this long for the back office to confirm its financing.
    order_hold_hours: int = Field(default=72, ge=1)
    # The deposit when the car's sale sets none, in percent of `amountDueNow` (rounded up to a sum; at least
    # 1 sum): a token payment never keeps a car.
    order_deposit_percent: int = Field(default=10, ge=0, le=100)
    # The cars one person (the verified PINFL, else the account) may hold not paid in full, for any car:
    # unpaid, deposit-paid and financed ones waiting for their bank together.
    order_unpaid_cars_per_person: int = Field(default=2, ge=1)
    # Every order needs a verified buyer (identity verification). Unset: on everywhere but `local`.
    order_verified_buyers_only: bool | None = None
    # With verified buyers not required: what an unverified account may hold unpaid, and what all the
    # unverified accounts of one partner may hold together (one leaked key cannot hold a branch).
    order_unverified_unpaid_cars: int = Field(default=1, ge=0)
    order_unverified_cars_per_partner: int = Field(default=20, ge=0)

    @property
    def verified_buyers_only(self) -> bool:
        if self.order_verified_buyers_only is None:
            return not get_settings().is_local
        return self.order_verified_buyers_only


@cached_settings
def get_order_settings() -> OrderSettings:
    return from_env(OrderSettings)
