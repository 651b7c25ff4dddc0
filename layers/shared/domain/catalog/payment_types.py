"""Enumerations of the contract (docs/INTERFACE.md) that more than one function group uses."""

from __future__ import annotations

from enum import StrEnum


class PaymentType(StrEnum):
    """EPaymentType: how a car is bought."""

    CASH = "CASH"
    CREDIT = "CREDIT"
    LEASING = "LEASING"
    INSTALLMENT = "INSTALLMENT"


PAYMENT_TYPE_NAMES: dict[PaymentType, dict[str, str]] = {
    PaymentType.CASH: {"ru": "Наличные", "uz": "Naqd pul", "en": "Cash"},
    PaymentType.CREDIT: {"ru": "Автокредит", "uz": "Avtokredit", "en": "Bank credit"},
    PaymentType.LEASING: {"ru": "Лизинг", "uz": "Lizing", "en": "Leasing"},
    PaymentType.INSTALLMENT: {"ru": "Рассрочка", "uz": "Muddatli to'lov", "en": "Installment"},
}
