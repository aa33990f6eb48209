import { seededRandom } from '../server/platform/support/seeded-random.js';

/** Realistic rice varieties and what people search for: shared by the variety benchmarks. */
const RELEASE = ['Tubigan', 'Mestiso', 'Sahod Ulan', 'Mabango', 'Malagkit', 'Submarino', 'Salinas', 'Katihan', 'Japonica', 'Hybrid'];
const ORIGINS = ['IRRI', 'PhilRice', 'PhilRice/UPLB', 'PhilRice-JICA', 'SL Agritech', 'Bayer CropScience', 'UPLB', 'Syngenta'];
const PLACES = [
  'Province-wide',
  'Anao',
  'Bamban',
  'Camiling',
  'Capas',
  'Concepcion',
  'Gerona',
  'La Paz',
  'Mayantoc',
  'Moncada',
  'Paniqui',
  'Pura',
  'Ramos',
  'San Clemente',
  'San Jose',
  'San Manuel',
  'Santa Ignacia',
  'Tarlac City',
  'Victoria',
];
/** A Filipino form of each place (the bench's translated locations), and what staff type of them. */
export const filipinoPlace = (place: string) =>
  place === 'Province-wide' ? 'Buong lalawigan' : place === 'Tarlac City' ? 'Lungsod ng Tarlac' : `Bayan ng ${place}`;
export const FILIPINO_SEARCHES = ['lungsod ng tarlac', 'bayan ng capas', 'buong lalawigan', 'bayan ng pan', 'lungsod', 'bayan ng san'];
const SEASONS = [['Dry'], ['Wet'], ['Dry', 'Wet']];
const ENVS = [['Low Irrigated Land'], ['Rainfed Lowland'], ['Upperland'], ['Low Irrigated Land', 'Rainfed Lowland']];

export function realisticVariety(i: number, createdAt: string) {
  const hybrid = i % 7 === 0;
  const num = 100 + i;
  return {
    id: `bench-${String(i).padStart(6, '0')}`,
    varietyName: `${i % 5 === 0 ? 'PSB' : 'NSIC'} Rc ${num}${hybrid ? 'H' : ''}`,
    releaseName: `${RELEASE[i % RELEASE.length]} ${1 + (i % 97)}`,
    yearRelease: String(2012 + (i % 14)),
    breedingCode: `PR${30000 + ((i * 37) % 9000)}-B-${1 + (i % 9)}-${1 + (i % 3)}`,
    breederOrigin: ORIGINS[i % ORIGINS.length]!,
    maturityDays: 100 + (i % 30),
    averageYield: Math.round((4 + (i % 30) / 10) * 10) / 10,
    maxYield: Math.round((7 + (i % 50) / 10) * 10) / 10,
    plantHeight: 90 + (i % 35),
    // A sixth lack the number of tillers, as records from old data do (Needs completing).
    tillers: i % 6 === 5 ? null : 12 + (i % 12),
    location: PLACES[i % PLACES.length]!,
    season: JSON.stringify(SEASONS[i % SEASONS.length]),
    plantingMethod: i % 3 === 0 ? 'Direct Seed' : 'Transplanting',
    environment: JSON.stringify(ENVS[i % ENVS.length]),
    recommendedInTarlac: i % 4 === 0 ? 1 : 0,
    isDeleted: i % 50 === 49 ? 1 : 0,
    createdAt,
    updatedAt: null,
    deletedAt: null,
    deletedBy: null,
  };
}

/** What people type: names, local names, towns, years, institutions, codes; first and later pages. */
export const SEARCHES = [
  '',
  '',
  'tubigan',
  'Camiling',
  '2019',
  'irri',
  'PR3',
  'nsic rc 45',
  'mestiso',
  'SAHOD',
  'philrice/uplb',
  'victoria',
  'rc 1234',
  'no such variety',
];
const PAGES = [1, 1, 1, 2, 3, 5, 10, 50];
/**
 * The list sorted and filtered, each request a new combination: a sort column and direction,
 * up to three filters (Recommended in Tarlac, a season, an environment, a year, needs
 * completing), a search term in one request of four, mostly the first pages, now and then one
 * deep in the list.
 */
export function browsePaths(seed = 1): (n: number) => string {
  const random = seededRandom(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;
  const filters: Array<() => [string, string]> = [
    () => ['tarlac', pick(['yes', 'no'])],
    () => ['season', pick(SEASONS.flat())],
    () => ['environment', pick(ENVS.flat())],
    () => ['year', String(2010 + Math.floor(random() * 18))],
    () => ['missing', 'yes'],
  ];
  return () => {
    const query = new URLSearchParams({ sort: pick(['name', 'year', 'maturity', 'yield', 'added']), dir: pick(['asc', 'desc']) });
    for (let k = Math.floor(random() * 4); k > 0; k -= 1) query.set(...pick(filters)());
    if (random() < 0.25) query.set('search', pick(SEARCHES.filter((s) => s !== '')));
    query.set('page', String(random() < 0.1 ? 1 + Math.floor(random() * 500) : pick(PAGES)));
    return `/api/varieties?${query}`;
  };
}

export function pathFor(n: number): string {
  const term = SEARCHES[n % SEARCHES.length]!;
  const page = PAGES[Math.floor(n / SEARCHES.length) % PAGES.length]!;
  return `/api/varieties?search=${encodeURIComponent(term)}&page=${page}`;
}

/** Words of the stored texts, whose first 1–3 characters people type before the rest. */
const PREFIX_SOURCES = [...RELEASE, ...ORIGINS, ...PLACES, 'NSIC', 'PSB', 'Rc', '2019', '2023', 'PR3'];

/**
 * What staff type, each request a new text: variety names and numbers (NSIC/PSB Rc and a number
 * from the stored range or just past it), local names with their number, towns, years, breeding
 * codes, institutions, and prefixes of 1–3 characters of all of those. Mostly the first page.
 */
export function distinctSearches(rows: number, seed = 1): (n: number) => string {
  // Seeded: runs and engines meet the same searches in the same order.
  const random = seededRandom(seed);
  const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
  const pick = <T>(xs: readonly T[]) => xs[int(0, xs.length - 1)]!;
  const number = () => 100 + int(0, Math.round(rows * 1.05));
  const kinds: Array<[number, () => string]> = [
    [14, () => `${pick(['NSIC Rc', 'nsic rc', 'PSB Rc', 'Rc', 'rc'])} ${number()}`],
    [8, () => String(number())],
    [6, () => `${pick(['NSIC', 'nsic rc', 'Rc'])} ${String(number()).slice(0, int(1, 3))}`],
    [8, () => `${pick(RELEASE)} ${int(1, 97)}`],
    [8, () => pick(PLACES).toLowerCase().slice(0, int(4, 12))],
    [6, () => String(int(2010, 2026))],
    [6, () => `PR${int(300, 389)}${random() < 0.5 ? String(int(0, 99)) : ''}`],
    [4, () => pick(ORIGINS)],
    [20, () => pick(PREFIX_SOURCES).toLowerCase().slice(0, int(1, 3))],
  ];
  const weight = kinds.reduce((s, [w]) => s + w, 0);
  return (n: number) => {
    let r = random() * weight;
    const make = kinds.find(([w]) => (r -= w) < 0)?.[1] ?? kinds[0]![1];
    const page = n % 20 === 19 ? 3 : n % 10 === 9 ? 2 : 1;
    return `/api/varieties?search=${encodeURIComponent(make())}&page=${page}`;
  };
}
