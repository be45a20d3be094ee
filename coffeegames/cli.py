"""Command line (placeholder replaced below)."""
