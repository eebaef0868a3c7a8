"""Pure numbers: frontiers, envelopes, ladders, costs, energy and the per-pair summaries."""
