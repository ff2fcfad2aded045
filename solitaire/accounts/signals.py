"""What the accounts tell the apps that keep a player's things (the games, in ``games``).

The accounts stand below the games: they know nothing of them and import nothing from them.
An app that keeps things of a guest's or a player's connects a receiver here in its
``AppConfig.ready``.
"""

from django.dispatch import Signal

#: Sent as a guest becomes a player, by signing up or logging in, with ``user`` and
#: ``guest_key``: the session key the browser had as a guest (logging in gives the session a
#: new one), empty if it had none. Each receiver answers how many of the guest's things it
#: made the player's; the account page says so.
guest_became_player = Signal()

#: Sent inside the transaction that deletes ``user``'s account, before the account goes: a
#: receiver deletes what it keeps of the player's, or the deletion does not happen.
player_leaving = Signal()
