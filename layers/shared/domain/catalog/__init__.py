"""domain.catalog."""
