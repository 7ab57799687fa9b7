"""Post a daily digest to Slack."""
__version__ = "0.3.1"
