"""saved_cars function group."""
