"""Clip notes: keep short notes for the assistant."""
