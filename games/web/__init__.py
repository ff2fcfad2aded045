"""The web layer: views by page family (pages, play, assist, history, records, winnability,
daily, share) and what they share: the edge of a game's actions (edge.py), who the player is
(player.py) and the renderers (draw.py, motion.py). Thin: read the request, call a service or
a selector, render."""
