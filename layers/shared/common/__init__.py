"""Shared layer: what every Lambda function of the Car Retail API needs."""
