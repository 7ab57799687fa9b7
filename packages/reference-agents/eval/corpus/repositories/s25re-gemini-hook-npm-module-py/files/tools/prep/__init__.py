"""Workspace preparation for the assistant."""
