"""domain.financing."""
