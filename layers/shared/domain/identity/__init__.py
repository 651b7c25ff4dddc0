"""domain.identity."""
