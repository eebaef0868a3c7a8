"""What a build keeps between runs: signed cache files, input digests, the output manifest."""
