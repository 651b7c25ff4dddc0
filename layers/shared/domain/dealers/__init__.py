"""domain.dealers."""
