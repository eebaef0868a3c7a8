"""sitegen: a static site generator for LLM-inference benchmark leaderboards."""

from __future__ import annotations

__version__ = "0.1.0"

__all__ = ["__version__"]
