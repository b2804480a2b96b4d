"""Retrieval metrics and the statistics that say which differences are real."""
