"""domain.saved_cars."""
