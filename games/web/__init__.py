"""The web layer: views by page family (pages, play, assist, history, records) and the htmx
helpers they share (htmx.py). Thin: read the request, call a service or a selector, render."""
