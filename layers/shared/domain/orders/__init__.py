"""domain.orders."""
