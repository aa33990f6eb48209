import { DEMO_PHOTO, type Rgb } from './plans.js';

export const W = DEMO_PHOTO.width;
export const H = DEMO_PHOTO.height;
export type Random = () => number;
export interface Pt {
  x: number;
  y: number;
}

export const clamp255 = (v: number) => (v < 0 ? 0 : v > 255 ? 255 : v);
export const fmt = (v: number) => (Math.round(v * 10) / 10).toString();
export const rgb = (c: Rgb) => `rgb(${Math.round(clamp255(c[0]))},${Math.round(clamp255(c[1]))},${Math.round(clamp255(c[2]))})`;
export const mix = (a: Rgb, b: Rgb, t: number): Rgb => [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];
export const between = (random: Random, lo: number, hi: number) => lo + (hi - lo) * random();
export const intBetween = (random: Random, lo: number, hi: number) => Math.floor(between(random, lo, hi + 1));

/** A rice leaf: a long blade along a curved spine, parallel-sided then tapering to a point. */
export class Blade {
  private readonly ctrl: Pt;
  readonly length: number;

  constructor(
    readonly base: Pt,
    readonly tip: Pt,
    bend: number,
    readonly width: number,
  ) {
    const dx = tip.x - base.x;
    const dy = tip.y - base.y;
    this.length = Math.hypot(dx, dy);
    this.ctrl = { x: (base.x + tip.x) / 2 - dy * bend, y: (base.y + tip.y) / 2 + dx * bend };
  }

  at(t: number): Pt {
    const u = 1 - t;
    return {
      x: u * u * this.base.x + 2 * u * t * this.ctrl.x + t * t * this.tip.x,
      y: u * u * this.base.y + 2 * u * t * this.ctrl.y + t * t * this.tip.y,
    };
  }

  /** Unit tangent. */
  dir(t: number): Pt {
    const x = 2 * (1 - t) * (this.ctrl.x - this.base.x) + 2 * t * (this.tip.x - this.ctrl.x);
    const y = 2 * (1 - t) * (this.ctrl.y - this.base.y) + 2 * t * (this.tip.y - this.ctrl.y);
    const n = Math.hypot(x, y) || 1;
    return { x: x / n, y: y / n };
  }

  angle(t: number): number {
    const d = this.dir(t);
    return (Math.atan2(d.y, d.x) * 180) / Math.PI;
  }

  half(t: number): number {
    const base = t < 0.06 ? 0.75 + (0.25 * t) / 0.06 : 1;
    const taper = t > 0.55 ? ((1 - t) / 0.45) ** 0.85 : 1;
    return (this.width / 2) * base * taper;
  }

  /** The point `u` half-widths to the side of the spine (-1 and 1 are the edges). */
  side(t: number, u: number): Pt {
    const p = this.at(t);
    const d = this.dir(t);
    const h = this.half(t) * u;
    return { x: p.x - d.y * h, y: p.y + d.x * h };
  }

  outline(t0 = 0, t1 = 1): string {
    const steps = 28;
    const left: string[] = [];
    const right: string[] = [];
    for (let i = 0; i <= steps; i += 1) {
      const t = t0 + ((t1 - t0) * i) / steps;
      const l = this.side(t, 1);
      const r = this.side(t, -1);
      left.push(`${fmt(l.x)},${fmt(l.y)}`);
      right.push(`${fmt(r.x)},${fmt(r.y)}`);
    }
    return `M${left.join('L')}L${right.reverse().join('L')}Z`;
  }

  line(u: number, t0: number, t1: number): string {
    const points: string[] = [];
    for (let i = 0; i <= 12; i += 1) {
      const p = this.side(t0 + ((t1 - t0) * i) / 12, u);
      points.push(`${fmt(p.x)},${fmt(p.y)}`);
    }
    return `M${points.join('L')}`;
  }
}

/** An SVG document being drawn: its definitions (gradients, clip paths) and its shapes in painting order. */
export class Svg {
  private readonly defs: string[] = [];
  private readonly body: string[] = [];
  private ids = 0;

  add(element: string): void {
    this.body.push(element);
  }

  private id(prefix: string): string {
    this.ids += 1;
    return `${prefix}${this.ids}`;
  }

  gradient(from: Pt, to: Pt, stops: Array<[number, Rgb]>): string {
    const id = this.id('g');
    const s = stops.map(([offset, c]) => `<stop offset="${fmt(offset)}" stop-color="${rgb(c)}"/>`).join('');
    this.defs.push(
      `<linearGradient id="${id}" gradientUnits="userSpaceOnUse" x1="${fmt(from.x)}" y1="${fmt(from.y)}" ` +
        `x2="${fmt(to.x)}" y2="${fmt(to.y)}">${s}</linearGradient>`,
    );
    return `url(#${id})`;
  }

  radial(centre: Pt, radius: number, colour: Rgb, opacity: number): string {
    const id = this.id('r');
    this.defs.push(
      `<radialGradient id="${id}" gradientUnits="userSpaceOnUse" cx="${fmt(centre.x)}" ` +
        `cy="${fmt(centre.y)}" r="${fmt(radius)}"><stop offset="0" stop-color="${rgb(colour)}" ` +
        `stop-opacity="${fmt(opacity)}"/><stop offset="1" stop-color="${rgb(colour)}" ` +
        `stop-opacity="0"/></radialGradient>`,
    );
    return `url(#${id})`;
  }

  clip(d: string): string {
    const id = this.id('c');
    this.defs.push(`<clipPath id="${id}"><path d="${d}"/></clipPath>`);
    return `url(#${id})`;
  }

  toString(): string {
    return (
      `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ` +
      `${H}"><defs>${this.defs.join('')}</defs>${this.body.join('')}</svg>`
    );
  }
}

export const ellipse = (c: Pt, rx: number, ry: number, angle: number, attrs: string) =>
  `<ellipse cx="${fmt(c.x)}" cy="${fmt(c.y)}" rx="${fmt(rx)}" ry="${fmt(ry)}" transform="rotate(${fmt(angle)} ${fmt(c.x)} ${fmt(c.y)})" ${attrs}/>`;
export const circle = (c: Pt, r: number, attrs: string) => `<circle cx="${fmt(c.x)}" cy="${fmt(c.y)}" r="${fmt(r)}" ${attrs}/>`;
