"""Writing the output folder: path checks, staging and the atomic swap, the sitemap."""
