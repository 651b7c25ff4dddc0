"""payments function group."""
