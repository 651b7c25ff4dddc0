"""Development-only runtime: the API Gateway emulator, the embedded MongoDB and the demo seed."""
