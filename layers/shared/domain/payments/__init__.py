"""domain.payments: card payments by OTP, the card-processor port and its adapters, the reconciliation."""
