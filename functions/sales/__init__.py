"""sales function group."""
