import type { MarkStyle, Rgb } from './plans.js';
import { Blade, Svg, between, circle, ellipse, fmt, intBetween, mix, rgb, type Random } from './drawing.js';

/** The scene's natural colours, each moved a little per photo. */
export function naturalPalette(random: Random) {
  const vary = (c: Rgb, spread: number): Rgb => [
    c[0] + (random() - 0.5) * 2 * spread,
    c[1] + (random() - 0.5) * 2 * spread,
    c[2] + (random() - 0.5) * 2 * spread,
  ];
  return {
    sky: vary([150, 185, 230], 20),
    skyLow: vary([220, 228, 232], 12),
    cloud: vary([246, 246, 242], 6),
    tree: vary([40, 70, 38], 12),
    paddyFar: vary([150, 170, 110], 15),
    paddy: vary([88, 122, 55], 18),
    water: vary([105, 130, 140], 20),
    soil: vary([118, 92, 66], 18),
    soilDark: vary([72, 56, 42], 12),
    soilLight: vary([170, 145, 110], 15),
    leafDark: vary([38, 82, 30], 10),
    leaf: vary([72, 138, 46], 18),
    leafLight: vary([150, 192, 84], 18),
    rib: vary([200, 222, 150], 12),
    bokeh: vary([205, 228, 165], 20),
    bgDark: vary([30, 58, 28], 10),
    brown: vary([120, 78, 40], 12),
    darkBrown: vary([70, 45, 28], 8),
    lesion: vary([190, 186, 156], 12),
    straw: vary([220, 200, 126], 12),
    yellow: vary([224, 206, 80], 12),
    orange: vary([222, 152, 50], 12),
    rust: vary([150, 72, 45], 12),
    smut: vary([200, 160, 40], 12),
    smutDark: vary([46, 60, 30], 8),
    insect: vary([48, 40, 30], 10),
    insectLight: vary([132, 100, 56], 14),
    grub: vary([150, 170, 80], 14),
    shell: vary([150, 105, 62], 14),
  };
}
export type Palette = ReturnType<typeof naturalPalette>;

/** A blade in leaf colours (`light` from 0, darkest, to 1, palest), its midrib and veins, and the marks of `style`. */
export function drawBlade(
  svg: Svg,
  random: Random,
  blade: Blade,
  p: Palette,
  options: { opacity?: number; light?: number; style?: MarkStyle },
): void {
  const light = options.light ?? random();
  const baseColour = light < 0.5 ? mix(p.leafDark, p.leaf, light * 2) : mix(p.leaf, p.leafLight, light * 2 - 1);
  const tipColour = light < 0.5 ? mix(p.leaf, p.leafLight, light) : mix(p.leafLight, p.rib, light - 0.5);
  const fill = svg.gradient(blade.base, blade.tip, [
    [0, baseColour],
    [0.6, mix(baseColour, tipColour, 0.7)],
    [1, tipColour],
  ]);
  const opacity = options.opacity === undefined ? '' : ` opacity="${fmt(options.opacity)}"`;
  const outline = blade.outline();
  const parts = [`<path d="${outline}" fill="${fill}" stroke="${rgb(p.leafDark)}" stroke-width="1" stroke-opacity="0.6"/>`];
  if (blade.width >= 12) {
    parts.push(
      `<path d="${blade.line(0, 0.02, 0.93)}" fill="none" stroke="${rgb(p.rib)}" stroke-width="${fmt(Math.max(1, blade.width * 0.06))}" stroke-opacity="0.8"/>`,
    );
    for (const u of [-0.55, 0.5])
      parts.push(`<path d="${blade.line(u, 0.03, 0.85)}" fill="none" stroke="${rgb(p.leafDark)}" stroke-width="1" stroke-opacity="0.35"/>`);
  }
  if (options.style) {
    const clip = svg.clip(outline);
    const [inside, outside] = marks(random, blade, p, options.style);
    if (inside) parts.push(`<g clip-path="${clip}">${inside}</g>`);
    if (outside) parts.push(outside);
  }
  svg.add(`<g${opacity}>${parts.join('')}</g>`);
}

/** Pieces eaten out of a blade's edges. */
function bites(random: Random, blade: Blade, p: Palette, count: number): string {
  const out: string[] = [];
  for (let k = 0; k < count; k += 1) {
    const t = between(random, 0.2, 0.8);
    out.push(circle(blade.side(t, random() < 0.5 ? -1 : 1), blade.half(t) * between(random, 0.5, 0.9), `fill="${rgb(p.soil)}"`));
  }
  return out.join('');
}

/** The marks of a disease or the pests on one blade: [clipped to the blade, drawn over it]. */
function marks(random: Random, blade: Blade, p: Palette, style: MarkStyle): [string, string] {
  const w = blade.width;
  const along = () => between(random, 0.12, 0.82);
  const inside: string[] = [];
  const outside: string[] = [];
  switch (style) {
    case 'spindles':
      for (let i = intBetween(random, 2, 6); i > 0; i -= 1) {
        const t = along();
        const c = blade.side(t, between(random, -0.45, 0.45));
        const rx = w * between(random, 0.6, 1.5);
        const ry = blade.half(t) * between(random, 0.35, 0.6);
        inside.push(
          ellipse(
            c,
            rx,
            ry,
            blade.angle(t),
            `fill="${rgb(p.lesion)}" stroke="${rgb(p.brown)}" stroke-width="${fmt(Math.max(1.5, ry * 0.35))}"`,
          ),
        );
        inside.push(ellipse(c, rx * 0.35, ry * 0.3, blade.angle(t), `fill="${rgb(p.darkBrown)}" opacity="0.7"`));
      }
      break;
    case 'spots':
      for (let i = intBetween(random, 5, 16); i > 0; i -= 1) {
        const t = along();
        const c = blade.side(t, between(random, -0.7, 0.7));
        const r = Math.max(1.5, w * between(random, 0.07, 0.17));
        inside.push(circle(c, r * 1.9, `fill="${rgb(p.yellow)}" opacity="0.55"`));
        inside.push(ellipse(c, r * 1.2, r, blade.angle(t), `fill="${rgb(p.brown)}" stroke="${rgb(p.darkBrown)}" stroke-width="1"`));
      }
      break;
    case 'streaks':
      for (let i = intBetween(random, 3, 8); i > 0; i -= 1) {
        const t = along();
        const c = blade.side(t, between(random, -0.6, 0.6));
        const colour = random() < 0.5 ? p.straw : p.brown;
        inside.push(
          ellipse(
            c,
            w * between(random, 1.2, 3.5),
            Math.max(1.2, w * between(random, 0.05, 0.1)),
            blade.angle(t),
            `fill="${rgb(colour)}" opacity="0.85"`,
          ),
        );
      }
      break;
    case 'edges':
      for (let i = intBetween(random, 1, 3); i > 0; i -= 1) {
        const t = between(random, 0.25, 0.8);
        const c = blade.side(t, random() < 0.5 ? -1 : 1);
        inside.push(
          ellipse(
            c,
            blade.length * between(random, 0.08, 0.2),
            blade.half(t) * between(random, 0.8, 1.4),
            blade.angle(t),
            `fill="${rgb(p.straw)}" stroke="${rgb(p.brown)}" stroke-width="2"`,
          ),
        );
      }
      break;
    case 'tips': {
      const from = between(random, 0.45, 0.75);
      inside.push(`<path d="${blade.outline(from, 1)}" fill="${rgb(random() < 0.5 ? p.orange : p.yellow)}" opacity="0.85"/>`);
      for (let i = intBetween(random, 0, 4); i > 0; i -= 1) {
        const t = between(random, 0.2, from);
        inside.push(circle(blade.side(t, between(random, -0.6, 0.6)), Math.max(1.5, w * 0.1), `fill="${rgb(p.rust)}" opacity="0.8"`));
      }
      break;
    }
    case 'blotches':
      for (let i = intBetween(random, 1, 3); i > 0; i -= 1) {
        const t = between(random, 0.1, 0.7);
        const c = blade.side(t, between(random, -0.3, 0.3));
        inside.push(
          ellipse(
            c,
            w * between(random, 1.3, 2.8),
            blade.half(t) * between(random, 0.8, 1.2),
            blade.angle(t),
            `fill="${rgb(random() < 0.5 ? p.lesion : p.rust)}" stroke="${rgb(p.darkBrown)}" stroke-width="3" opacity="0.9"`,
          ),
        );
      }
      break;
    case 'balls':
      for (let i = intBetween(random, 2, 5); i > 0; i -= 1) {
        const c = blade.side(along(), between(random, -1.3, 1.3));
        const r = between(random, 7, 16);
        outside.push(circle(c, r, `fill="${rgb(p.smut)}" stroke="${rgb(p.smutDark)}" stroke-width="${fmt(r * 0.35)}"`));
        outside.push(circle({ x: c.x - r * 0.3, y: c.y - r * 0.3 }, r * 0.3, `fill="${rgb(p.straw)}" opacity="0.7"`));
      }
      break;
    case 'bugs':
      for (let i = intBetween(random, 1, 3); i > 0; i -= 1) {
        const t = along();
        const c = blade.side(t, between(random, -0.5, 0.5));
        const size = between(random, 10, 18);
        const a = blade.angle(t) + (random() < 0.5 ? 0 : 180) + between(random, -25, 25);
        const rad = (a * Math.PI) / 180;
        const legs: string[] = [];
        for (const k of [-0.5, 0, 0.5]) {
          for (const s of [-1, 1]) {
            const o = { x: c.x + Math.cos(rad) * size * k, y: c.y + Math.sin(rad) * size * k };
            const la = rad + s * (Math.PI / 2 + k * 0.8);
            legs.push(`M${fmt(o.x)},${fmt(o.y)}L${fmt(o.x + Math.cos(la) * size * 0.9)},${fmt(o.y + Math.sin(la) * size * 0.9)}`);
          }
        }
        outside.push(`<path d="${legs.join('')}" stroke="${rgb(p.insect)}" stroke-width="1.5" fill="none"/>`);
        outside.push(
          ellipse(
            c,
            size,
            size * 0.45,
            a,
            `fill="${rgb(random() < 0.5 ? p.insect : p.insectLight)}" stroke="${rgb(p.insect)}" stroke-width="1"`,
          ),
        );
        outside.push(
          circle({ x: c.x + Math.cos(rad) * size * 1.05, y: c.y + Math.sin(rad) * size * 1.05 }, size * 0.3, `fill="${rgb(p.insect)}"`),
        );
      }
      break;
    case 'caterpillars':
      for (let i = intBetween(random, 1, 2); i > 0; i -= 1) {
        const t = between(random, 0.2, 0.6);
        const r = between(random, 4, 7);
        const colour = random() < 0.5 ? p.grub : p.insectLight;
        for (let k = intBetween(random, 6, 10); k > 0; k -= 1) {
          const c = blade.at(t + (k * r * 1.5) / blade.length);
          outside.push(circle(c, r, `fill="${rgb(colour)}" stroke="${rgb(p.insect)}" stroke-width="1"`));
        }
        inside.push(bites(random, blade, p, intBetween(random, 1, 3)));
      }
      break;
    case 'bites':
      inside.push(bites(random, blade, p, intBetween(random, 2, 6)));
      break;
    case 'snails':
      for (let i = intBetween(random, 1, 2); i > 0; i -= 1) {
        const c = blade.side(along(), between(random, -0.8, 0.8));
        const r = between(random, 10, 18);
        outside.push(
          ellipse({ x: c.x + r * 0.6, y: c.y + r * 0.5 }, r * 1.1, r * 0.4, between(random, -20, 20), `fill="${rgb(p.lesion)}"`),
        );
        outside.push(circle(c, r, `fill="${rgb(p.shell)}" stroke="${rgb(p.darkBrown)}" stroke-width="1.5"`));
        outside.push(
          `<path d="M${fmt(c.x)},${fmt(c.y)} m${fmt(r * 0.15)},0 a${fmt(r * 0.3)},${fmt(r * 0.3)} 0 1,0 ` +
            `${fmt(-r * 0.5)},${fmt(r * 0.1)} a${fmt(r * 0.6)},${fmt(r * 0.6)} 0 1,0 ` +
            `${fmt(r * 1.1)},${fmt(-r * 0.2)}" fill="none" stroke="${rgb(p.darkBrown)}" stroke-width="1.5"/>`,
        );
      }
      break;
  }
  return [inside.join(''), outside.join('')];
}
