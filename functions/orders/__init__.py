"""orders function group."""
