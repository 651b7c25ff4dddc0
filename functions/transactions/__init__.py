"""transactions function group."""
