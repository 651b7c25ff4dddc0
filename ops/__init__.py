"""Operator commands that run against a deployed database too: `python -m ops --help`."""
