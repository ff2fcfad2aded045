/* Cards that travel. After a move, an undo, a redo or a Finish the server's answer draws the
   board as it now is, with the moves that led there (#motion: each move's pile of departure,
   pile of arrival, how many cards, the card turned over; games/web/motion.py). Before the
   answer is swapped in, this script measures where every card of the board was; after, it
   shows the cards travelling from there to where they now are, one move after another (the
   player's move, then each automatic move), and turns over the cards that turned.

   The travelling cards are stand-ins, drawn in a layer over the board (.motion-layer), while the
   cards they stand for wait hidden in their new places: a card may travel through a pile that
   no longer shows it (a foundation shows its top card only, the stock none), the same card
   may be there twice (two decks), and a stand-in flies above every pile. Cards are found by
   pile and position, never by name; a name only gives the face of a card the board does not
   show. Only transforms and opacity are animated (the Web Animations API), so the browser
   moves the cards without laying out the page.

   Motion never blocks: a press, a key or a new request finishes what is moving at once, and
   the move goes through. A Finish plays the moves out within 5.5 s however many, a won
   game's cards then cascade off the foundations before the won panel shows; "Skip" (or a
   click, or a key) ends either at once. Nothing moves under prefers-reduced-motion, nor when
   <html data-motion="off"> (the player's setting). Without this script the answers are the
   same; cards simply appear where they go. The time this script takes on each answer is
   marked for the browser's tools ("motion: measure", "motion: travel"; tests/bench/motion.py). */
(function () {
  "use strict";

  /** How long (ms) the player's move travels, and each automatic move. */
  const MOVE = 200;
  const AUTO = 170;
  /** The time (ms) from one automatic move's start to the next one's. */
  const AUTO_GAP = 130;
  /** How long (ms) a card takes to turn over. */
  const TURN = 160;
  /** A Finish's every flight and turn has ended within FINISH_TOTAL ms, however many moves it
      has: each move sets off at most FINISH_GAP ms after the one before (less, and flights
      overlap, when there are many), and flies for FINISH_FLIGHT ms, less as the moves grow
      many, never below its first figure (still seen as a card moving). */
  const FINISH_TOTAL = 5500;
  const FINISH_GAP = 140;
  const FINISH_FLIGHT = [120, 200];
  /** More moves than this in one answer offer Skip (a Finish is told by #motion's data-event). */
  const FINISH_FROM = 12;
  /** The cascade: every card has left within about CASCADE_TOTAL ms, each at least
      CASCADE_GAP[0] and at most CASCADE_GAP[1] ms after the one before; the longest flight. */
  const CASCADE_TOTAL = 1000;
  const CASCADE_GAP = [8, 100];
  const CASCADE_FLIGHT = 1400;
  /** Classes of a card that say what is happening to it on the board, not what it is. */
  const STATES = ["picked", "drag-source", "hint-source", "target", "over", "ahead-away"];

  /** What the board looked like just before an answer was swapped in. */
  let before = null;
  /** What is moving now: {animations, timers, layer, timer, board}; null when nothing is. */
  let running = null;

  function off() {
    return (
      window.matchMedia("(prefers-reduced-motion: reduce)").matches ||
      document.documentElement.dataset.motion === "off"
    );
  }

  function board() {
    return document.getElementById("board");
  }

  function box(el) {
    const r = el.getBoundingClientRect();
    return { x: r.left, y: r.top, w: r.width, h: r.height };
  }

  /** What a copy of a card loses: it is no link, no button, nothing to focus or to name. */
  const UNCOPIED = [
    "id", "href", "data-pick", "aria-label", "tabindex", "role", "name", "value", "type",
  ];

  /** What a copy of a card loses of the pile it lay on: the stock's count, a badge. */
  const PILE_MARKS = ".count, .badge";
  /** Classes of a card that belong to its pile's control, not to the card. */
  const PILE_CLASSES = ["stock-button"];

  /** A copy of a card to fly in its place: the card alone, a plain span (never the stock's
      button, its count, or a control's look). */
  function copy(el) {
    const card = document.createElement("span");
    card.className = el.className;
    for (const attr of el.attributes) {
      if (attr.name !== "class" && !UNCOPIED.includes(attr.name)) {
        card.setAttribute(attr.name, attr.value);
      }
    }
    card.append(...Array.from(el.childNodes, (node) => node.cloneNode(true)));
    card.querySelectorAll(PILE_MARKS).forEach((mark) => mark.remove());
    card.classList.remove(...STATES, ...PILE_CLASSES);
    card.classList.add("motion-card");
    card.setAttribute("aria-hidden", "true");
    return card;
  }

  // -- before: where every card was ----------------------------------------------------------

  /** Every card's box, and the card itself: the swap takes it out of the page, not away, and
      only the cards that travel are copied, after. */
  function measure(b) {
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
    // Cards that set off before this answer (a prediction it confirms) go on from where they
    // are now, for what is left of their flight.
    const flight = confirming && !confirming.refused ? confirming.flight : null;
    const predicted = flight
      ? {
          from: flight.from,
          boxes: flight.tokens.map((token) => box(token.el)),
          left: Math.max(1, ...flight.tokens.flatMap((token) => token.el.getAnimations())
            .map((a) => a.effect.getComputedTiming().endTime - (a.currentTime || 0))),
        }
      : null;
    return { piles, dropped, predicted };
  }

  // -- after: the moves, one after another -------------------------------------------------

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

  /** The timing of each move: [start, duration] (ms). A Finish's last move sets off early
      enough for its flight and a turn after it to end within FINISH_TOTAL. */
  function timing(steps, first = MOVE) {
    const out = [];
    const finish = document.getElementById("motion")?.dataset.event === "finished";
    let gap = AUTO_GAP;
    let flight = AUTO;
    if (finish) {
      const even = FINISH_TOTAL / steps.length;
      flight = Math.max(FINISH_FLIGHT[0], Math.min(FINISH_FLIGHT[1], even * 4));
      gap = Math.min(FINISH_GAP, (FINISH_TOTAL - flight - TURN) / (steps.length - 1));
    }
    let t = 0;
    steps.forEach((step, i) => {
      if (i > 0) t += i === 1 && !finish ? first * 0.8 : gap;
      out.push([t, finish ? flight : i === 0 ? first : AUTO]);
    });
    return out;
  }

  /** Play the cards' moves ``steps`` from the board ``old`` (measured) to the board ``b``. */
  function travel(b, old, steps) {
    const faces = faceTemplate();
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

    const predicted = old.predicted && steps.length && old.predicted.from === steps[0].from;
    const times = timing(steps, predicted ? old.predicted.left : MOVE);
    steps.forEach((step, i) => {
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
    const moved = Array.from(new Set(tokens));
    if (!moved.length) return 0;

    // Where each pile's cards are drawn now, by position from the top.
    const places = {};
    for (const [name, list] of Object.entries(model)) {
      const pile = b.querySelector(`[data-pile="${CSS.escape(name)}"]`);
      if (!pile) return 0;
      const drawn = name === "s" ? [] : Array.from(pile.querySelectorAll(":scope > .card"));
      if (pile.classList.contains("column") && drawn.length !== list.length) return 0;
      const slot = pile.querySelector(":scope > .slot, :scope > .card");
      places[name] = {
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
      const place = places[name];
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
      const hidden = places[name].hidden;
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

    const layer = document.createElement("div");
    layer.className = "motion-layer";
    layer.setAttribute("aria-hidden", "true");
    b.appendChild(layer);
    const origin = layer.getBoundingClientRect();
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
        layer.appendChild(el);
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
    running.layer = layer;
    return end;
  }

  /** Start ``animations`` at this frame's time rather than at the next frame's (as a new
      animation would, pending until then): the cards are seen moving in the next frame drawn. */
  function startNow(animations) {
    const now = document.timeline.currentTime;
    if (now !== null) animations.forEach((animation) => (animation.startTime = now));
  }

  function faceTemplate() {
    const template = document.querySelector("#motion > template");
    const faces = {};
    if (template) {
      template.content.querySelectorAll("[data-card]").forEach((el) => {
        faces[el.dataset.card] = el;
      });
    }
    return faces;
  }

  /** The face-up side of a card's stand-in, if it is ever face up. */
  function faceOf(token, faces) {
    const up = token.up || token.flips.some((f) => f.up);
    if (!up) return null;
    if (token.el && token.up) return copy(token.el);
    if (token.real && !token.real.classList.contains("back")) return copy(token.real);
    if (token.code && faces[token.code]) return copy(faces[token.code]);
    return null;
  }

  /** The face-down side, if it is ever face down. */
  function backOf(token) {
    const down = !token.up || token.flips.some((f) => !f.up);
    if (!down) return null;
    if (token.el && !token.up) return copy(token.el);
    if (token.real && token.real.classList.contains("back")) return copy(token.real);
    // A card of the stock: a plain back, not the stock's button with its count.
    const back = document.createElement("span");
    back.className = "card back motion-card";
    back.dataset.card = "down";
    back.setAttribute("aria-hidden", "true");
    return back;
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

  // -- the win: the cards leave the foundations ------------------------------------------

  /** The time (ms) between two computed places of a falling card. */
  const FRAME = 40;

  /** The cards of the foundations (``cascade``: each one's cards, bottom to top) leave one
      after another, the top cards first, falling and bouncing off the bottom of the window. */
  function cascadeOff(b, cascade) {
    const faces = faceTemplate();
    const layer = document.createElement("div");
    layer.className = "motion-layer";
    layer.setAttribute("aria-hidden", "true");
    b.appendChild(layer);
    const origin = layer.getBoundingClientRect();
    const piles = Object.entries(cascade);
    const deepest = Math.max(0, ...piles.map(([, codes]) => codes.length));
    const cards = [];
    for (let depth = 0; depth < deepest; depth++) {
      for (const [name, codes] of piles) {
        const k = codes.length - 1 - depth;
        if (k >= 0) cards.push({ name, code: codes[k], k });
      }
    }
    const even = CASCADE_TOTAL / (cards.length || 1);
    const gap = Math.max(CASCADE_GAP[0], Math.min(CASCADE_GAP[1], even));
    let end = 0;
    cards.forEach((card, i) => {
      const face = faces[card.code];
      const pile = b.querySelector(`[data-pile="${CSS.escape(card.name)}"]`);
      if (!face || !pile) return;
      const from = box(pile.querySelector(":scope > .card, :scope > .slot") || pile);
      const el = copy(face);
      el.style.width = `${from.w}px`;
      el.style.height = `${from.h}px`;
      layer.appendChild(el);
      // The first to leave lies on top while waiting, and flies over those that leave later.
      el.style.zIndex = 10000 - i;
      const frames = fall(from, origin);
      const flight = (frames.length - 1) * FRAME;
      const timing = { delay: i * gap, duration: flight, fill: "both" };
      running.animations.push(el.animate(frames, timing));
      end = Math.max(end, i * gap + flight);
    });
    running.layer = layer;
    b.classList.add("cascading");
    return end;
  }

  /** A card thrown sideways off ``from``: its places every FRAME ms until it leaves the window
      or CASCADE_FLIGHT is over. */
  function fall(from, origin) {
    const side = Math.random() < 0.5 ? -1 : 1;
    const bottom = window.innerHeight - from.h;
    const gravity = 0.0022;
    let vx = side * (0.12 + Math.random() * 0.3);
    let vy = -Math.random() * 0.45;
    let x = from.x;
    let y = from.y;
    const frames = [];
    for (let t = 0; t <= CASCADE_FLIGHT; t += FRAME) {
      frames.push({ transform: `translate(${x - origin.left}px, ${y - origin.top}px)` });
      if (x < -from.w || x > window.innerWidth) break;
      vy += gravity * FRAME;
      x += vx * FRAME;
      y += vy * FRAME;
      if (y > bottom) {
        y = bottom;
        vy = -vy * 0.7;
      }
    }
    if (frames.length < 2) frames.push(frames[0]);
    return frames;
  }

  // -- playing ahead of the answer ---------------------------------------------------------

  /** Cards set off before the server's answer (predict), in the order the actions were made,
      each flight waiting for its answer: {from, to, n, codes, tokens: [{el, origin, real}]}.
      Their stand-ins fly in a layer of their own, outside the board (an answer replaces
      the board, not them), above the answers' stand-ins: cards dealt ahead lie on top. */
  const flights = [];
  /** The flight whose answer is being swapped in: {flight, refused}. */
  let confirming = null;
  let ahead = null;

  function aheadLayer() {
    if (!ahead || !ahead.isConnected) {
      ahead = document.createElement("div");
      ahead.className = "motion-layer ahead";
      ahead.setAttribute("aria-hidden", "true");
      document.body.appendChild(ahead);
    }
    return ahead;
  }

  /** The transform that draws a card of ``size`` at ``place`` in the layer at ``origin``. */
  function placed(place, size, origin) {
    const sx = size.w ? place.w / size.w : 1;
    const sy = size.h ? place.h / size.h : 1;
    return { transform: `translate(${place.x - origin.left}px, ${place.y - origin.top}px) scale(${sx}, ${sy})` };
  }

  /** The top ``n`` cards drawn on the pile ``name`` of the board ``b``. */
  function topCards(b, name, n) {
    const pile = b.querySelector(`[data-pile="${CSS.escape(name)}"]`);
    if (!pile || name === "s") return [];
    return Array.from(pile.querySelectorAll(":scope > .card")).slice(-n);
  }

  /** Where ``n`` cards put on the pile ``name`` now would lie: a column fans them below its top
      card, any other pile lays them on its top card (or its empty place). */
  function landing(b, name, n) {
    const pile = b.querySelector(`[data-pile="${CSS.escape(name)}"]`);
    const drawn = Array.from(pile.querySelectorAll(":scope > .card:not(.ahead-away)"), box);
    const slot = pile.querySelector(":scope > .slot");
    const base = drawn.length ? drawn[drawn.length - 1] : box(slot || pile);
    if (!pile.classList.contains("column")) return Array(n).fill(base);
    const last = drawn[drawn.length - 1];
    const fan = drawn.length > 1 ? last.y - drawn[drawn.length - 2].y : base.h * 0.22;
    const first = drawn.length ? 1 : 0;
    return Array.from({ length: n }, (_, k) => ({ ...base, y: base.y + fan * (k + first) }));
  }

  /** Set off at once, before the answer, the ``n`` cards of the pile ``from`` that the player
      moved to the pile ``to`` (``from`` "s": a card dealt, face down until the answer names
      it). The move is one the server listed as legal on the board shown (play.js asks only
      for those); the answer confirms it (confirm) or sends it back (back). Under reduced
      motion the cards are simply there at once. Returns the flight, or null. */
  function predict(from, to, n) {
    const b = board();
    if (!b) return null;
    const deal = from === "s";
    const reals = deal ? [] : topCards(b, from, n);
    if (!deal && reals.length !== n) return null;
    const stock = deal && b.querySelector('[data-pile="s"] > .card');
    if (deal && !stock) return null;
    const origins = deal ? [box(stock)] : reals.map(box);
    let starts = origins;
    // Cards let go of by a drag set off from where they were dropped.
    const ghost = document.querySelector(".drag-ghost[data-from]");
    if (ghost && ghost.dataset.from.split(":")[0] === from) {
      const dropped = Array.from(ghost.querySelectorAll(":scope > .card"), box).slice(-n);
      if (dropped.length === n) {
        starts = dropped;
        ghost.style.visibility = "hidden";
      }
    }
    const ends = landing(b, to, n);
    const layer = aheadLayer();
    const origin = layer.getBoundingClientRect();
    const still = off();
    const flight = { from, to, n, codes: codesOf(reals), tokens: [] };
    const els = deal ? [backOf({ up: false, flips: [] })] : reals.map(copy);
    els.forEach((el, k) => {
      const size = origins[k];
      el.style.width = `${size.w}px`;
      el.style.height = `${size.h}px`;
      el.style.zIndex = 1000 + layer.childElementCount;
      layer.appendChild(el);
      const frames = [placed(starts[k], size, origin), placed(ends[k], size, origin)];
      const timing = { duration: still ? 0 : MOVE, easing: "cubic-bezier(.33, 1, .68, 1)", fill: "forwards" };
      startNow([el.animate(still ? [frames[1], frames[1]] : frames, timing)]);
      flight.tokens.push({ el, origin: size, real: reals[k] || null });
    });
    reals.forEach((el) => el.classList.add("ahead-away"));
    flights.push(flight);
    return flight;
  }

  function codesOf(cards) {
    return cards.map((el) => el.dataset.card || "").join(" ");
  }

  function forget(flight) {
    const i = flights.indexOf(flight);
    if (i >= 0) flights.splice(i, 1);
    if (!flights.length && ahead) {
      ahead.remove();
      ahead = null;
    }
  }

  /** The answer to ``flight``'s action is about to be swapped in: it confirms the flight, or
      (``refused``) sends it back. */
  function answer(flight, refused) {
    confirming = flight ? { flight, refused } : null;
  }

  /** Send the cards of ``flight`` back to where they were, and the board shows them there. */
  function back(flight) {
    if (!flight || flight.returning || !flights.includes(flight)) return;
    flight.returning = true;
    const b = board();
    const layer = aheadLayer();
    const origin = layer.getBoundingClientRect();
    const waiting = b ? topCards(b, flight.from, flight.n) : [];
    const there = codesOf(waiting) === flight.codes && !flight.tokens.some((t) => !t.real);
    const still = off();
    let last = null;
    flight.tokens.forEach((token, k) => {
      if (token.real) token.real.classList.remove("ahead-away");
      token.el.getAnimations().forEach((a) => a.cancel());
      const frames = [placed(box(token.el), token.origin, origin), placed(token.origin, token.origin, origin)];
      if (!token.real) frames[1].opacity = 0; // a card dealt ahead: back into the stock
      last = token.el.animate(frames, { duration: still ? 0 : MOVE, fill: "forwards" });
      if (there && !still) waiting[k].animate([{ opacity: 0 }, { opacity: 0 }], { duration: MOVE });
    });
    const done = () => {
      flight.tokens.forEach((token) => token.el.remove());
      forget(flight);
    };
    if (last && !still) last.finished.then(done, done);
    else done();
  }

  /** After an answer: the confirmed flight's stand-ins give way to the answer's (or go back),
      and the cards still waiting for their answers stay out of sight on the new board. */
  function confirmed() {
    const was = confirming;
    confirming = null;
    // The answer agrees when its first move starts where the flight did: a stale board or a
    // refusal answers with the board as it is, and no move.
    const holder = document.getElementById("motion");
    const steps = (holder && read(holder, "steps")) || [];
    if (was && (was.refused || !steps.length || steps[0].from !== was.flight.from)) {
      back(was.flight);
    } else if (was) {
      was.flight.tokens.forEach((token) => token.el.remove());
      forget(was.flight);
    }
    const b = board();
    if (!b) return;
    for (const flight of flights) {
      if (flight.from === "s" || flight.returning) continue;
      const waiting = topCards(b, flight.from, flight.n);
      if (codesOf(waiting) === flight.codes) waiting.forEach((el) => el.classList.add("ahead-away"));
    }
  }

  // -- running and stopping ----------------------------------------------------------------

  /** Whether two boxes overlap. */
  function overlap(a, b) {
    return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
  }

  /** Show or hide "Skip": in the window's lower right corner, over the table, or just above
      the message there when it would cover the message's text. */
  function skipButton(shown) {
    const skip = document.getElementById("motion-skip");
    if (!skip) return;
    skip.hidden = !shown;
    skip.style.bottom = "";
    if (shown) placeSkip();
  }

  /** Move "Skip" above the message it would cover (the answer's message may come in after
      the board, or later). */
  function placeSkip() {
    const skip = document.getElementById("motion-skip");
    if (!skip || skip.hidden) return;
    skip.style.bottom = "";
    const own = box(skip);
    const said = document.querySelectorAll(".notices .message, .notices .assist-answer");
    const texts = Array.from(said, box)
      .filter((text) => text.w && text.h && overlap(own, text));
    if (!texts.length) return;
    const top = Math.min(...texts.map((text) => text.y));
    skip.style.bottom = `${Math.max(window.innerHeight - top + 8, 0)}px`;
  }

  /** End what is moving at once: every card where it is going, the won panel shown. */
  function stop() {
    if (!running) return;
    const done = running;
    running = null;
    clearTimeout(done.timer);
    done.timers.forEach(clearTimeout);
    done.animations.forEach((animation) => animation.cancel());
    if (done.layer) done.layer.remove();
    done.board.classList.remove("cascading");
    done.board.querySelectorAll(".motion-holding").forEach((el) => {
      el.classList.remove("motion-holding");
    });
    skipButton(false);
  }

  function read(holder, name) {
    try {
      return JSON.parse(holder.dataset[name] || "null");
    } catch {
      return null;
    }
  }

  /** Show the moves of the answer just swapped in, travelling from the board ``old``; after
      a win, the cascade. */
  function play(b, old) {
    const holder = document.getElementById("motion");
    if (!holder) return;
    const moves = read(holder, "steps") || [];
    const cascade = read(holder, "cascade") || {};
    // Only the answer that won the game has the foundations' cards.
    const won = Object.keys(cascade).length > 0;
    const panel = b.querySelector(".outcome");
    if (!moves.length && !won) return;
    running = { animations: [], timers: [], layer: null, timer: 0, board: b };
    let end = 0;
    try {
      end = travel(b, old, moves);
    } catch (error) {
      stop(); // the board as it is, never half moved
      throw error;
    }
    if (won && panel) panel.classList.add("motion-holding");
    if (won || moves.length > FINISH_FROM) skipButton(true);
    running.timer = setTimeout(() => {
      if (!won || !running) {
        stop();
        return;
      }
      running.animations.forEach((animation) => animation.cancel());
      running.animations = [];
      if (running.layer) running.layer.remove();
      running.timer = setTimeout(stop, cascadeOff(b, cascade));
    }, end);
  }

  // Measure the board before an answer replaces any of it (the piles come out of band), and
  // play its moves as soon as it is in, before the browser draws it: the cards set off in the
  // frame the answer shows. (htmx gives a replaced board its own attributes a moment later,
  // when it "settles": nothing here reads or marks the board's attributes until then.)
  document.addEventListener("htmx:beforeSwap", (event) => {
    const b = board();
    // A catch-up poll's "nothing new" (204) swaps nothing: what moves goes on.
    if (!b || event.detail.target !== b || !event.detail.shouldSwap) return;
    stop();
    const start = performance.now();
    before = off() ? null : measure(b);
    performance.measure("motion: measure", { start });
  });
  document.addEventListener("htmx:afterSettle", placeSkip);
  document.addEventListener("htmx:afterSwap", () => {
    placeSkip();
    const old = before;
    before = null;
    const b = board();
    const start = performance.now();
    try {
      if (b && old) play(b, old);
    } finally {
      confirmed();
    }
    performance.measure("motion: travel", { start });
  });

  // Motion never blocks: a press, a key or a request (not the catch-up poll) ends it at once.
  document.addEventListener("pointerdown", stop, true);
  document.addEventListener("keydown", stop, true);
  document.addEventListener("htmx:beforeRequest", (event) => {
    const source = event.detail.elt;
    if (!(source && source.hasAttribute && source.hasAttribute("data-poll"))) stop();
  });
  document.addEventListener("click", (event) => {
    if (event.target.closest && event.target.closest("#motion-skip")) stop();
  });

  window.solitaireMotion = { predict, answer, back };
})();
