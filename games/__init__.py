"""The games app: the rules engine, games as they are played, and their pages."""
