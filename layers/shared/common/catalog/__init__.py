"""The catalog several functions read: cars, brands, their query rules and their API views."""
