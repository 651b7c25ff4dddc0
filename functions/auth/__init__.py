"""Auth function: /api/v1/auth/* and /api/v1/users/*."""
