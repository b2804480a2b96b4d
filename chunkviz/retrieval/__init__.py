"""Scoring and ranking chunks for queries."""
