"""The scheduled outbox publisher (no API routes)."""
