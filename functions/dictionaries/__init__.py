"""dictionaries function group."""
