"""Development-only runtime: the API Gateway emulator and its worker processes, the local MongoDB
(a real mongod, or the mongoeco fallback) and the demo seed."""
