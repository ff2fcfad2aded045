"""The only code that writes games: ``play`` (start, move, undo, redo, restart, give up),
``assist`` (hints, analysis, finish, winnable deals) and ``players`` (adopt a guest's games,
delete a player). Each action reads the game by owner and id, and writes it only if it is
still at the version it read."""
