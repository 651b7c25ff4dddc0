"""catalog function group."""
