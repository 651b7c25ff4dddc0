"""domain.partners."""
