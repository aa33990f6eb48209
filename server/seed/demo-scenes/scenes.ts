import type { MarkStyle } from './plans.js';
import { Blade, H, Svg, W, between, circle, ellipse, fmt, intBetween, mix, rgb, type Pt, type Random } from './drawing.js';
import { drawBlade, naturalPalette, type Palette } from './leaves.js';

/** The demo photos' scenes: a paddy's edge, leaves close up, leaves on the ground, and seedlings against the sky (for a pale aim). */
export type Layout = 'field' | 'closeup' | 'ground' | 'canopy';

interface Scene {
  svg: Svg;
  random: Random;
  p: Palette;
  style: MarkStyle;
}

function edgePoint(random: Random): Pt {
  const side = intBetween(random, 0, 3);
  const s = random();
  return side === 0
    ? { x: s * W, y: -20 }
    : side === 1
      ? { x: W + 20, y: s * H }
      : side === 2
        ? { x: s * W, y: H + 20 }
        : { x: -20, y: s * H };
}

/** A paddy seen from its edge: sky, a tree line, rows of rice, leaves in front; the camera held a little askew. */
function fieldScene({ svg, random, p, style }: Scene): void {
  const horizon = H * between(random, 0.15, 0.55);
  const x0 = -250;
  const x1 = W + 250;
  const parts: string[] = [];
  parts.push(
    `<rect x="${x0}" y="-250" width="${x1 - x0}" height="${fmt(horizon + 252)}" fill="${svg.gradient({ x: 0, y: 0 }, { x: 0, y: horizon }, [
      [0, p.sky],
      [1, p.skyLow],
    ])}"/>`,
  );
  for (let i = intBetween(random, 0, 4); i > 0; i -= 1) {
    const c = { x: between(random, 0, W), y: between(random, 0.15, 0.7) * horizon };
    for (let k = 0; k < 4; k += 1)
      parts.push(
        ellipse(
          { x: c.x + between(random, -60, 60), y: c.y + between(random, -12, 12) },
          between(random, 30, 90),
          between(random, 10, 24),
          0,
          `fill="${rgb(p.cloud)}" opacity="0.55"`,
        ),
      );
  }
  // Tree crowns along the horizon.
  const treeHeight = 40;
  const trees: string[] = [`M${x0},${fmt(horizon + 2)}`];
  let top = horizon - between(random, 3, treeHeight * 0.7);
  trees.push(`L${x0},${fmt(top)}`);
  for (let x = x0; x < x1;) {
    const step = between(random, 20, 70);
    const next = horizon - between(random, 3, treeHeight);
    trees.push(`Q${fmt(x + step / 2)},${fmt(Math.min(top, next) - between(random, 3, treeHeight * 0.6))} ${fmt(x + step)},${fmt(next)}`);
    x += step;
    top = next;
  }
  trees.push(`L${x1},${fmt(horizon + 2)}Z`);
  parts.push(`<path d="${trees.join('')}" fill="${rgb(p.tree)}"/>`);
  const water = random() < 0.3;
  parts.push(
    `<rect x="${x0}" y="${fmt(horizon)}" width="${x1 - x0}" height="${fmt(H - horizon + 250)}" fill="${svg.gradient(
      { x: 0, y: horizon },
      { x: 0, y: H },
      [
        [0, p.paddyFar],
        [1, water ? p.water : p.paddy],
      ],
    )}"/>`,
  );
  const vx = between(random, 0.1, 0.9) * W;
  const rows = intBetween(random, 10, 22);
  const lines: string[] = [];
  const tufts: string[] = [];
  for (let i = 0; i < rows; i += 1) {
    const bx = -W * 0.8 + ((i + between(random, 0.2, 0.8)) * W * 2.6) / rows;
    lines.push(`M${fmt(vx + (bx - vx) * 0.03)},${fmt(horizon + 2)}L${fmt(vx + (bx - vx) * 1.5)},${fmt(horizon + (H - horizon) * 1.5)}`);
    for (let k = intBetween(random, 5, 12); k > 0; k -= 1) {
      const t = random() ** 1.5;
      const x = vx + (bx - vx) * t;
      const y = horizon + (H - horizon) * t;
      const size = 4 + 46 * t;
      for (const s of [-1, -0.3, 0.4, 1])
        tufts.push(
          `M${fmt(x)},${fmt(y)}q${fmt(s * size * 0.2)},${fmt(-size * 0.6)} ${fmt(s * size * between(random, 0.3, 0.6))},${fmt(-size)}`,
        );
    }
  }
  parts.push(
    `<path d="${lines.join('')}" stroke="${rgb(p.leafDark)}" stroke-width="${fmt(between(random, 1.5, 3.5))}" opacity="0.45" fill="none"/>`,
  );
  parts.push(
    `<path d="${tufts.join('')}" stroke="${rgb(random() < 0.5 ? p.leaf : p.leafDark)}" stroke-width="2" fill="none" opacity="0.8"/>`,
  );
  svg.add(`<g transform="rotate(${fmt(between(random, -9, 9))} ${W / 2} ${H / 2})">${parts.join('')}</g>`);
  for (let i = intBetween(random, 3, 8); i > 0; i -= 1) {
    const base = { x: between(random, -80, W + 80), y: H + 10 };
    const tip = { x: base.x + between(random, -420, 420), y: between(random, horizon - 180, H * 0.65) };
    drawBlade(svg, random, new Blade(base, tip, between(random, -0.25, 0.25), between(random, 14, 44)), p, { style });
  }
}

/** Leaves close up against a soft background. */
function closeupScene({ svg, random, p, style }: Scene): void {
  const a = random() * Math.PI * 2;
  const from = { x: W / 2 - Math.cos(a) * W * 0.6, y: H / 2 - Math.sin(a) * H * 0.6 };
  const to = { x: W / 2 + Math.cos(a) * W * 0.6, y: H / 2 + Math.sin(a) * H * 0.6 };
  const far = random() < 0.5 ? p.soil : p.paddyFar;
  svg.add(
    `<rect width="${W}" height="${H}" fill="${svg.gradient(from, to, [
      [0, p.bgDark],
      [between(random, 0.3, 0.7), p.paddy],
      [1, far],
    ])}"/>`,
  );
  for (let i = intBetween(random, 6, 16); i > 0; i -= 1) {
    svg.add(
      circle(
        { x: between(random, 0, W), y: between(random, 0, H) },
        between(random, 15, 110),
        `fill="${rgb(random() < 0.6 ? p.bokeh : p.leafDark)}" opacity="${fmt(between(random, 0.12, 0.4))}"`,
      ),
    );
  }
  for (let i = intBetween(random, 4, 9); i > 0; i -= 1) {
    const tip = { x: between(random, 0, W), y: between(random, 0, H) };
    drawBlade(svg, random, new Blade(edgePoint(random), tip, between(random, -0.3, 0.3), between(random, 8, 22)), p, {
      opacity: between(random, 0.35, 0.7),
      light: 0.9,
    });
  }
  for (let i = intBetween(random, 2, 4); i > 0; i -= 1) {
    const base = edgePoint(random);
    const angle = Math.atan2(H / 2 - base.y, W / 2 - base.x) + between(random, -0.6, 0.6);
    const length = between(random, 520, 900);
    const tip = { x: base.x + Math.cos(angle) * length, y: base.y + Math.sin(angle) * length };
    drawBlade(svg, random, new Blade(base, tip, between(random, -0.15, 0.15), between(random, 36, 78)), p, {
      style,
      light: between(random, 0.55, 1),
    });
  }
}

/** Leaves fallen across wet soil or water, seen from above. */
function groundScene({ svg, random, p, style }: Scene): void {
  // Water, wet dark soil under pale leaves, or dry pale soil under dark ones.
  const kind = random();
  const water = kind < 0.3;
  const ground = water ? p.water : kind < 0.65 ? mix(p.soil, p.soilDark, 0.6) : mix(p.soil, p.soilLight, 0.7);
  const leafLight = () => (kind < 0.65 ? between(random, 0.65, 1) : between(random, 0, 0.3));
  svg.add(
    `<rect width="${W}" height="${H}" fill="${svg.gradient({ x: between(random, 0, W), y: 0 }, { x: between(random, 0, W), y: H }, [
      [0, mix(ground, p.soilLight, 0.3)],
      [1, mix(ground, p.soilDark, 0.4)],
    ])}"/>`,
  );
  for (let i = intBetween(random, 2, 6); i > 0; i -= 1) {
    svg.add(
      ellipse(
        { x: between(random, 0, W), y: between(random, 0, H) },
        between(random, 80, 260),
        between(random, 50, 160),
        between(random, 0, 180),
        `fill="${rgb(random() < 0.5 ? p.soilLight : p.soilDark)}" opacity="${fmt(between(random, 0.3, 0.6))}"`,
      ),
    );
  }
  const texture: string[] = [];
  if (water) {
    for (let i = intBetween(random, 40, 80); i > 0; i -= 1) {
      texture.push(
        ellipse(
          { x: between(random, 0, W), y: between(random, 0, H) },
          between(random, 20, 90),
          between(random, 1.5, 3.5),
          between(random, -4, 4),
          `fill="${rgb(random() < 0.5 ? p.skyLow : p.soilDark)}" opacity="${fmt(between(random, 0.25, 0.6))}"`,
        ),
      );
    }
  } else {
    for (let i = intBetween(random, 150, 260); i > 0; i -= 1) {
      texture.push(
        ellipse(
          { x: between(random, 0, W), y: between(random, 0, H) },
          between(random, 2, 9),
          between(random, 1.5, 6),
          between(random, 0, 180),
          `fill="${rgb(random() < 0.5 ? p.soilDark : p.soilLight)}" opacity="${fmt(between(random, 0.3, 0.7))}"`,
        ),
      );
    }
  }
  svg.add(texture.join(''));
  const shadow = { x: between(random, -14, 14), y: between(random, 6, 16) };
  for (let i = intBetween(random, 3, 7); i > 0; i -= 1) {
    const base = { x: between(random, -100, W + 100), y: between(random, -100, H + 100) };
    const angle = Math.atan2(H / 2 - base.y, W / 2 - base.x) + between(random, -0.9, 0.9);
    const length = between(random, 350, 750);
    const tip = { x: base.x + Math.cos(angle) * length, y: base.y + Math.sin(angle) * length };
    const blade = new Blade(base, tip, between(random, -0.2, 0.2), between(random, 24, 60));
    svg.add(
      `<path d="${blade.outline()}" transform="translate(${fmt(shadow.x)} ${fmt(shadow.y)})" fill="${rgb(p.soilDark)}" opacity="0.45"/>`,
    );
    drawBlade(svg, random, blade, p, { style, light: leafLight() });
  }
}

/**
 * Seedlings against a white sky, for a pale aim. Its mean grey is past the "too bright" limit
 * (a median), so its photos cannot be light all over: the sky, a little under half the picture,
 * is white and the leaves over the rest stay under the limit. Blades are added until they cover
 * a set share of the picture (counted on a 10-pixel grid).
 */
function canopyScene({ svg, random, p, style }: Scene): void {
  svg.add(
    `<rect width="${W}" height="${H}" fill="${svg.gradient({ x: between(random, 0, W), y: 0 }, { x: between(random, 0, W), y: H }, [
      [0, [255, 255, 255]],
      [1, [246, 248, 250]],
    ])}"/>`,
  );
  const cell = 10;
  const cols = W / cell;
  const covered = new Uint8Array(cols * (H / cell));
  let count = 0;
  const cover = (blade: Blade) => {
    for (let t = 0; t <= 1; t += 4 / blade.length) {
      const c = blade.at(t);
      const r = blade.half(t);
      for (let gy = Math.max(0, Math.floor((c.y - r) / cell)); gy <= Math.min(H / cell - 1, Math.floor((c.y + r) / cell)); gy += 1) {
        for (let gx = Math.max(0, Math.floor((c.x - r) / cell)); gx <= Math.min(cols - 1, Math.floor((c.x + r) / cell)); gx += 1) {
          if (covered[gy * cols + gx] || Math.hypot((gx + 0.5) * cell - c.x, (gy + 0.5) * cell - c.y) > r) continue;
          covered[gy * cols + gx] = 1;
          count += 1;
        }
      }
    }
  };
  // Where the seedlings grow from: the bottom edge, a clump, or every side (seen from among them).
  const growth = random();
  const clump = { x: between(random, 0.2, 0.8) * W, y: between(random, 0.5, 1.1) * H };
  const target = between(random, 0.59, 0.64) * covered.length;
  for (let i = 0; i < 80 && count < target; i += 1) {
    let base: Pt;
    let tip: Pt;
    if (growth < 0.4) {
      base = { x: between(random, -60, W + 60), y: H + 10 };
      tip = { x: base.x + between(random, -260, 260), y: between(random, -40, H * 0.6) };
    } else if (growth < 0.7) {
      base = { x: clump.x + between(random, -60, 60), y: clump.y + between(random, -20, 20) };
      const a = -Math.PI / 2 + between(random, -1.2, 1.2);
      const length = between(random, 300, 750);
      tip = { x: base.x + Math.cos(a) * length, y: base.y + Math.sin(a) * length };
    } else {
      base = edgePoint(random);
      tip = { x: between(random, 0, W), y: between(random, 0, H) };
    }
    const blade = new Blade(base, tip, between(random, -0.2, 0.2), between(random, 16, 34));
    cover(blade);
    drawBlade(svg, random, blade, p, { style, light: between(random, 0.2, 0.4) });
  }
}

export function sceneSvg(random: Random, style: MarkStyle, layout: Layout): string {
  const svg = new Svg();
  const p = naturalPalette(random);
  const scene: Scene = { svg, random, p, style };
  if (layout === 'canopy') canopyScene(scene);
  else if (layout === 'field') fieldScene(scene);
  else if (layout === 'closeup') closeupScene(scene);
  else groundScene(scene);
  // Sunlight from one side, shade on another: it also sets each photo's broad light and dark
  // areas apart from every other's (what a perceptual hash compares).
  if (layout !== 'canopy') {
    for (const [colour, strength] of [
      [p.cloud, 0.5],
      [p.bgDark, 0.4],
    ] as const) {
      const id = svg.radial(
        { x: between(random, -100, W + 100), y: between(random, -100, H + 100) },
        between(random, 250, 650),
        colour,
        between(random, 0.15, strength),
      );
      svg.add(`<rect width="${W}" height="${H}" fill="${id}"/>`);
    }
  }
  return svg.toString();
}
