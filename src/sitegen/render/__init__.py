"""Rendering: the Jinja environment and its filters, editors' copy in its sandbox."""
