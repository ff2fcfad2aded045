"""Read-only queries, by domain: ``games`` (one game of a player, its log, a game at any
ply), ``history``, ``stats`` (statistics, the best on a deal, a win's panel), ``deals``
(winnability and grades), ``daily`` (the reader's daily deals and streak), ``leaderboards``
and ``sharing``. They read; only games/services writes."""
