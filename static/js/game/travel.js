/* The answer's motion: the cards of a board's moves travelling from where they were to where
   the answer draws them, one move after another (the player's move, then each automatic
   move), turning over the cards that turned. Three steps, each a function of the one before:
   steps() follows the cards through the answer's moves (which card goes where, when), places()
   finds where each is drawn now, keyframes() draws each card's path as Web Animations frames.

   Cards are found by pile and position, never by name (the same card may be there twice, two
   decks); a name only gives the face of a card the board does not show. Only transforms and
   opacity are animated, so the browser moves the cards without laying out the page. This
   module keeps no state: motion.js measures the board before the swap, calls travel() after
   it, and owns what is then moving. */

import { backOf, box, faceOf, faceTemplate, layer, moveTime, pace, startNow } from "./standins.js";

/** How long (ms) the first automatic move travels, at the normal pace. */
const AUTO = 170;
/** The time (ms) from one automatic move's start to the next one's, at first. */
const AUTO_GAP = 130;
/** Along a run of automatic moves each card goes RUN_SPEEDUP times faster than the one
    before (its flight and the gap before the next one shrink), never under RUN_FLOOR ms of
    flight at the normal pace: a run of cards going home gathers speed. */
const RUN_SPEEDUP = 1.1;
const RUN_FLOOR = 80;
/** How long (ms) a card takes to turn over. */
const TURN = 160;
/** A Finish's every flight and turn has ended within FINISH_TOTAL ms, however many moves it
    has: each move sets off at most FINISH_GAP ms after the one before (less, and flights
    overlap, when there are many), and flies for FINISH_FLIGHT ms, less as the moves grow
    many, never below its first figure (still seen as a card moving). */
const FINISH_TOTAL = 5500;
const FINISH_GAP = 140;
const FINISH_FLIGHT = [120, 200];

/** Every card's box on the board ``b`` before the swap, and the card itself (the swap takes
    it out of the page, not away; only the cards that travel are copied, after). ``predicted``:
    where the cards of a flight this answer confirms are now (ahead.js). */
export function measure(b, predicted) {
  const piles = {};
  b.querySelectorAll("[data-pile]").forEach((pile) => {
    const cards = Array.from(pile.querySelectorAll(":scope > .card"));
    const slot = pile.querySelector(":scope > .slot");
    piles[pile.dataset.pile] = {
      box: box(slot || cards[cards.length - 1] || pile),
      cards: cards.map((el) => ({
        box: box(el),
        el,
        up: !el.classList.contains("back"),
      })),
    };
  });
  // Cards let go of by a drag travel from where they were dropped.
  const ghost = document.querySelector(".drag-ghost[data-from]");
  const dropped = ghost
    ? {
        from: ghost.dataset.from.split(":")[0],
        boxes: Array.from(ghost.querySelectorAll(":scope > .card"), box),
      }
    : null;
  return { piles, dropped, predicted };
}

function ease(p) {
  return 1 - Math.pow(1 - p, 3);
}

function between(a, b, p) {
  return {
    x: a.x + (b.x - a.x) * p,
    y: a.y + (b.y - a.y) * p,
    w: a.w + (b.w - a.w) * p,
    h: a.h + (b.h - a.h) * p,
  };
}

/** The timing of each move: [start, duration] (ms), at the player's pace. Each automatic move
    after the first goes faster than the one before, down to a floor. A Finish (``finish``) has
    its last move set off early enough for its flight and a turn after it to end within
    FINISH_TOTAL, whatever the pace. */
function timing(steps, first, finish) {
  const out = [];
  const k = pace();
  let gap = AUTO_GAP * k;
  let flight = AUTO * k;
  if (finish) {
    const even = FINISH_TOTAL / steps.length;
    flight = Math.max(FINISH_FLIGHT[0], Math.min(FINISH_FLIGHT[1], even * 4));
    gap = Math.min(FINISH_GAP, (FINISH_TOTAL - flight - TURN) / (steps.length - 1));
  }
  let t = 0;
  steps.forEach((step, i) => {
    if (finish) {
      if (i > 0) t += gap;
      out.push([t, flight]);
      return;
    }
    // The n-th automatic move of the run (0 for the first).
    const faster = Math.pow(RUN_SPEEDUP, Math.max(0, i - 1));
    const auto = Math.max(RUN_FLOOR * k, (AUTO * k) / faster);
    if (i === 1) t += first * 0.8;
    else if (i > 1) t += Math.max((RUN_FLOOR * k * AUTO_GAP) / AUTO, gap / Math.pow(RUN_SPEEDUP, i - 2));
    out.push([t, i === 0 ? first : auto]);
  });
  return out;
}

/** Follow the cards through the moves ``moves`` from the board ``old`` (measured), the board
    ``b`` now drawn: each pile as a list of tokens (a card: where it starts, its path of
    segments {t0, t1, pile, index, step}, its turns {t, up}); returns {model, moved}. */
function steps(b, old, moves, finish) {
  const model = {};
  const tokens = [];

  function pileOf(name) {
    if (!model[name]) {
      const was = old.piles[name];
      model[name] =
        name === "s" || !was
          ? []
          : was.cards.map((c, i) => ({
              start: c.box,
              el: c.el,
              up: c.up,
              code: c.el.dataset.card || "",
              z: 100 + i,
              path: [],
              flips: [],
            }));
    }
    return model[name];
  }

  function take(name, n) {
    const list = pileOf(name);
    const was = old.piles[name];
    const base = was ? was.box : { x: 0, y: 0, w: 0, h: 0 };
    while (list.length < n) {
      // A card the board did not show: under a foundation's top card, in the stock.
      const up = name !== "s";
      list.unshift({ start: base, el: null, up, code: "", z: 99, path: [], flips: [] });
    }
    return list.splice(list.length - n, n);
  }

  const predicted = old.predicted && moves.length && old.predicted.from === moves[0].from;
  const times = timing(moves, predicted ? old.predicted.left : moveTime(), finish);
  moves.forEach((step, i) => {
    const [t0, d] = times[i];
    let n = step.n;
    if (!n) {
      // A redeal takes the whole waste; its undo brings back what the waste now shows.
      const shown = b.querySelectorAll('[data-pile="w"] > .card').length;
      n = step.from === "w" ? pileOf("w").length : shown;
    }
    if (!n) return;
    const moving = take(step.from, n);
    const deal = step.from === "s" || step.to === "s";
    if (step.card) {
      const lowest = step.from === "s" ? moving[moving.length - 1] : moving[0];
      if (!lowest.code) lowest.code = step.card;
    }
    const already = predicted ? old.predicted : old.dropped;
    if (i === 0 && already && already.from === step.from) {
      already.boxes.slice(-moving.length).forEach((there, k) => {
        if (!moving[k].path.length) moving[k].start = there;
      });
    }
    const target = pileOf(step.to);
    if (step.turn && step.face === "down" && target.length) {
      const top = target[target.length - 1];
      top.flips.push({ t: t0, up: false });
      tokens.push(top);
    }
    moving.forEach((token) => {
      // A card still flying when it moves again turns towards its new place there.
      const last = token.path[token.path.length - 1];
      if (last && last.t1 > t0) last.t1 = Math.max(t0, last.t0 + 1);
      token.path.push({ t0, t1: t0 + d, pile: step.to, index: target.length, step: i });
      target.push(token);
      if (deal) token.flips.push({ t: step.to === "s" ? t0 : t0 + d, up: step.to !== "s" });
      tokens.push(token);
    });
    if (step.turn && step.face !== "down") {
      const rest = pileOf(step.from);
      if (rest.length) {
        const top = rest[rest.length - 1];
        if (!top.code) top.code = step.turn;
        top.flips.push({ t: t0 + d * 0.5, up: true });
        tokens.push(top);
      }
    }
  });
  return { model, moved: Array.from(new Set(tokens)) };
}

/** Where each moved card goes on the board ``b`` (each segment's box), when it stops needing
    its stand-in (``done``: its real card shows; ``gone``: it is covered or leaves sight), and
    the cards that stay but must show until one lands on them (added to ``moved``). Returns
    the time (ms) when all is over, or 0 when the board does not match the moves (nothing
    travels then: the board shows as it is). */
function places(b, model, moved) {
  const where = {};
  for (const [name, list] of Object.entries(model)) {
    const pile = b.querySelector(`[data-pile="${CSS.escape(name)}"]`);
    if (!pile) return 0;
    const drawn = name === "s" ? [] : Array.from(pile.querySelectorAll(":scope > .card"));
    if (pile.classList.contains("column") && drawn.length !== list.length) return 0;
    const slot = pile.querySelector(":scope > .slot, :scope > .card");
    where[name] = {
      column: pile.classList.contains("column"),
      drawn: drawn.map(box),
      base: box(slot || pile),
      hidden: list.length - drawn.length,
    };
    drawn.forEach((el, j) => {
      const token = list[j + list.length - drawn.length];
      if (token && moved.includes(token)) token.real = el;
    });
  }

  function placeOf(name, index) {
    const place = where[name];
    const drawn = place.drawn;
    const j = index - place.hidden;
    if (!drawn.length) return place.base;
    if (j >= 0 && j < drawn.length) return drawn[j];
    const last = drawn[drawn.length - 1];
    if (!place.column) return j < 0 ? drawn[0] : last;
    const step = drawn.length > 1 ? last.y - drawn[drawn.length - 2].y : last.h * 0.2;
    return { ...last, y: last.y + step * (j - drawn.length + 1) };
  }

  // When each card stops needing its stand-in: its last move or turn, or when a card
  // arriving on top of it covers it.
  let end = 0;
  for (const token of moved) {
    token.path.forEach((seg) => {
      seg.box = placeOf(seg.pile, seg.index);
    });
    const last = Math.max(
      ...token.path.map((seg) => seg.t1),
      ...token.flips.map((flip) => flip.t + TURN),
    );
    token.done = last;
    end = Math.max(end, last);
  }
  for (const token of moved) {
    if (token.real || !token.path.length) continue;
    const seg = token.path[token.path.length - 1];
    const covers = (s) => s.pile === seg.pile && s.index === seg.index && s.t0 > seg.t0;
    const cover = moved.find((other) => other.path.some(covers));
    token.gone = cover ? cover.path.find(covers).t1 : end;
  }
  // A card that stays where it was, on a pile that now shows only its top card (a
  // foundation, the waste), shows until a card lands on it.
  for (const [name, list] of Object.entries(model)) {
    const hidden = where[name].hidden;
    list.forEach((token, index) => {
      if (index >= hidden || !token.el || moved.includes(token)) return;
      const landings = moved.flatMap((other) =>
        other.path.filter((s) => s.pile === name && s.index > index).map((s) => s.t1),
      );
      if (!landings.length) return;
      token.gone = Math.min(...landings);
      moved.push(token);
    });
  }
  return end;
}

/** How a card's side ``side`` ("face", "back") looks at time ``t``: its place, its width's
    scale while it turns, whether it shows. */
function look(token, side, t) {
  let place = token.start;
  for (const seg of token.path) {
    if (t < seg.t0) break;
    if (t < seg.t1) {
      place = between(place, seg.box, ease((t - seg.t0) / (seg.t1 - seg.t0)));
      break;
    }
    place = seg.box;
  }
  let up = token.up;
  let scale = 1;
  let shown = true;
  const half = TURN / 2;
  for (const flip of token.flips) {
    if (t < flip.t) break;
    const p = t - flip.t;
    const was = up;
    up = flip.up;
    if (p < half) {
      // The side it turns from narrows, the other waits.
      shown = (side === "face") === was;
      scale = shown ? 1 - p / half : 0;
    } else if (p < TURN) {
      shown = (side === "face") === up;
      scale = shown ? (p - half) / half : 0;
    } else {
      shown = (side === "face") === up;
      scale = 1;
    }
    if (p < TURN) break;
  }
  if (!token.flips.length || t < token.flips[0].t) shown = (side === "face") === token.up;
  return { place, scale, shown };
}

/** The keyframes of a card's side over the whole animation (``end`` ms), the layer's
    corner at ``origin``; it shows until ``until``. */
function keyframes(token, side, size, until, end, origin) {
  const times = new Set([0, Math.max(until - 0.5, 0), until, end]);
  for (const seg of token.path) {
    for (let k = 0; k <= 8; k++) times.add(seg.t0 + ((seg.t1 - seg.t0) * k) / 8);
  }
  for (const flip of token.flips) {
    [0, TURN / 2 - 0.5, TURN / 2, TURN].forEach((dt) => times.add(flip.t + dt));
  }
  const sorted = Array.from(times)
    .filter((t) => t <= end)
    .sort((a, b) => a - b);
  return sorted.map((t) => {
    const { place, scale, shown } = look(token, side, Math.min(t, until));
    const sx = size.w ? place.w / size.w : 1;
    const sy = size.h ? place.h / size.h : 1;
    const x = place.x - origin.left + (place.w * (1 - scale)) / 2;
    const y = place.y - origin.top;
    return {
      offset: end ? t / end : 1,
      transform: `translate(${x}px, ${y}px) scale(${sx * scale}, ${sy})`,
      opacity: shown && t < until ? 1 : 0,
    };
  });
}

/** Play the moves ``moves`` from the board ``old`` (measured) to the board ``b``, a Finish's
    pace when ``finish``. What it starts goes into ``running`` (motion.js: its animations,
    timers and layer), so that it can be stopped. Returns the time (ms) it takes, 0 when
    nothing travels. */
export function travel(b, old, moves, finish, running) {
  const { model, moved } = steps(b, old, moves, finish);
  if (!moved.length) return 0;
  const end = places(b, model, moved);
  if (!end) return 0;

  const faces = faceTemplate();
  const own = layer(b);
  running.layer = own;
  const origin = own.getBoundingClientRect();
  const animations = [];
  for (const token of moved) {
    const until = token.real ? token.done : token.gone;
    const sides = { face: faceOf(token, faces), back: backOf(token) };
    const size = token.start.w || !token.path.length ? token.start : token.path[0].box;
    const shown = [];
    for (const [side, el] of Object.entries(sides)) {
      if (!el) continue;
      el.style.width = `${size.w}px`;
      el.style.height = `${size.h}px`;
      el.style.zIndex = token.z;
      own.appendChild(el);
      shown.push(el);
      const frames = keyframes(token, side, size, until, end, origin);
      animations.push(el.animate(frames, { duration: end, fill: "forwards" }));
    }
    // A card that sets off rises above the cards waiting, and lands above those landed
    // before it. Not animated: only transforms and opacity are, which the browser runs
    // apart from the page's own work.
    for (const seg of token.path) {
      const rise = () => shown.forEach((el) => (el.style.zIndex = 1000 + seg.step));
      running.timers.push(setTimeout(rise, seg.t0));
    }
    if (token.real) {
      animations.push(
        token.real.animate([{ opacity: 0 }, { opacity: 0 }], {
          duration: token.done,
        }),
      );
    }
  }
  startNow(animations);
  running.animations.push(...animations);
  return end;
}
