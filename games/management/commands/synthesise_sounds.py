"""``manage.py synthesise_sounds``: makes the game page's four short sounds (solitaire/app.py
SOUNDS) from sine waves and a seeded noise, with nothing but the standard library, into
static/sounds/, where they are committed: no recording of anyone's. Small on purpose (mono,
16 bits, 11,025 samples a second: the four together are under 30 KB), fetched only when a
player turns the sound on. ``--check`` writes nothing and fails when a committed sound is not
what the synthesis gives."""

import io
import math
import random
import wave
from collections.abc import Callable

from django.core.management.base import BaseCommand

from games.management.made import add_check, write_or_check
from solitaire.app import SOUNDS, sound_file

RATE = 11025
#: A sound's samples: the time in seconds in, the sample (-1 to 1) out.
Voice = Callable[[float], float]


def _render(seconds: float, voice: Voice) -> bytes:
    samples = bytearray()
    fade = int(RATE * 0.004)  # no click at the end
    total = int(RATE * seconds)
    for n in range(total):
        value = voice(n / RATE) * min(1.0, (total - n) / fade)
        samples += int(max(-1.0, min(1.0, value)) * 32000).to_bytes(2, "little", signed=True)
    out = io.BytesIO()
    with wave.open(out, "wb") as file:
        file.setnchannels(1)
        file.setsampwidth(2)
        file.setframerate(RATE)
        file.writeframes(bytes(samples))
    return out.getvalue()


def _noise(seed: int) -> Callable[[], float]:
    rng = random.Random(seed)
    return lambda: rng.uniform(-1.0, 1.0)


def placed() -> bytes:
    """A card laid on the cloth: a soft low knock and a breath of noise, 60 ms."""
    noise = _noise(1)
    state = [0.0]

    def voice(t: float) -> float:
        state[0] += 0.25 * (noise() - state[0])  # a dull noise: the cloth
        knock = math.sin(2 * math.pi * 190 * t) * math.exp(-t * 70)
        return 0.7 * knock + 0.5 * state[0] * math.exp(-t * 90)

    return _render(0.06, voice)


def deal() -> bytes:
    """A card drawn off the stock: a short swish that rises, 110 ms."""
    noise = _noise(2)
    state = [0.0]

    def voice(t: float) -> float:
        brightness = 0.15 + 0.6 * t / 0.11
        state[0] += brightness * (noise() - state[0])
        return 0.8 * state[0] * math.sin(math.pi * t / 0.11)

    return _render(0.11, voice)


def refused() -> bytes:
    """A move refused: two low notes, the second lower, 170 ms."""

    def voice(t: float) -> float:
        pitch, start = (330.0, 0.0) if t < 0.08 else (247.0, 0.08)
        s = t - start
        tone = math.sin(2 * math.pi * pitch * s) + 0.3 * math.sin(2 * math.pi * 2 * pitch * s)
        return 0.45 * tone * math.exp(-s * 18)

    return _render(0.17, voice)


def win() -> bytes:
    """The win: a rising major arpeggio, each note ringing on, 0.7 s."""
    notes = [(0.0, 1046.5), (0.09, 1318.5), (0.18, 1568.0), (0.27, 2093.0)]

    def voice(t: float) -> float:
        value = 0.0
        for start, pitch in notes:
            if t >= start:
                s = t - start
                value += math.sin(2 * math.pi * pitch * s) * math.exp(-s * 5.5)
        return 0.28 * value

    return _render(0.7, voice)


VOICES = {"placed": placed, "deal": deal, "refused": refused, "win": win}


def sounds() -> dict[str, bytes]:
    """Every sound's file, by its name under static/."""
    return {sound_file(name): VOICES[name]() for name in SOUNDS}


class Command(BaseCommand):
    help = "Synthesise the game page's sounds into static/sounds/."

    def add_arguments(self, parser):
        add_check(parser)

    def handle(self, *args, check=False, **options):
        write_or_check(sounds(), self, check=check)
