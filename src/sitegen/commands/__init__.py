"""One module per subcommand of `sitegen`, each a click command that cli.py registers."""
