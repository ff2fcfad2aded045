/* The game's short sounds: a card placed, a deal, a refused move, the win. Off unless the
   player turned them on in Looks (<html data-sound="on">, data-volume): until then no audio
   context is made and no sound is fetched. The sounds are small files the project synthesises
   itself (manage.py synthesise_sounds), fetched once sound is on and played through Web Audio
   (the site's Content Security Policy allows no <audio>). Only the page's own actions sound
   (queue.js asks): never a move made on another device, never what the catch-up brings.
   This module owns the audio context and the decoded sounds. */

const NAMES = ["placed", "deal", "refused", "win"];
/** The gain of each volume. */
const GAIN = { quiet: 0.25, medium: 0.55, loud: 1 };

let context = null;
/** The sounds' bytes, fetched (a promise of an ArrayBuffer or null per name). */
let bytes = null;
/** The sounds decoded (a promise of an AudioBuffer or null per name). */
let buffers = null;

function on() {
  return document.documentElement.dataset.sound === "on";
}

/** The sounds' addresses, written by the server (#sounds' data-placed, data-deal, ...). */
function files() {
  const el = document.getElementById("sounds");
  return el ? el.dataset : null;
}

function fetched() {
  if (!bytes) {
    const urls = files();
    bytes = Promise.all(NAMES.map((name) => fetch(urls[name])
      .then((response) => (response.ok ? response.arrayBuffer() : null))
      .catch(() => null)));
  }
  return bytes;
}

function decoded() {
  if (!buffers) {
    buffers = fetched().then((list) => Promise.all(list.map((data) => (data
      ? context.decodeAudioData(data).catch(() => null)
      : null))));
  }
  return buffers;
}

/** The page is loaded: with sound on, its files are fetched now (a first sound comes on time). */
export function start() {
  if (on() && files()) fetched();
}

/** Play the sound ``name`` ``after`` ms from now (a card placed when its flight lands). */
export function cue(name, after = 0) {
  if (!on() || !files() || !NAMES.includes(name)) return;
  if (!context) {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    context = new Context();
  }
  if (context.state === "suspended") context.resume();
  const at = context.currentTime + after / 1000;
  decoded().then((list) => {
    const buffer = list[NAMES.indexOf(name)];
    if (!buffer) return;
    const source = context.createBufferSource();
    source.buffer = buffer;
    const gain = context.createGain();
    gain.gain.value = GAIN[document.documentElement.dataset.volume] || GAIN.medium;
    source.connect(gain).connect(context.destination);
    source.start(Math.max(context.currentTime, at));
  });
}
