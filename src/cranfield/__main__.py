from cranfield.cli import entry

entry()
