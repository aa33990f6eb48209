/** Realistic rice varieties and what people search for: shared by the variety benchmarks. */
const RELEASE = ['Tubigan', 'Mestiso', 'Sahod Ulan', 'Mabango', 'Malagkit', 'Submarino', 'Salinas', 'Katihan', 'Japonica', 'Hybrid'];
const ORIGINS = ['IRRI', 'PhilRice', 'PhilRice/UPLB', 'PhilRice-JICA', 'SL Agritech', 'Bayer CropScience', 'UPLB', 'Syngenta'];
const PLACES = ['Province-wide', 'Anao', 'Bamban', 'Camiling', 'Capas', 'Concepcion', 'Gerona', 'La Paz', 'Mayantoc', 'Moncada', 'Paniqui', 'Pura', 'Ramos', 'San Clemente', 'San Jose', 'San Manuel', 'Santa Ignacia', 'Tarlac City', 'Victoria'];
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
    tillers: 12 + (i % 12),
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
  '', '', 'tubigan', 'Camiling', '2019', 'irri', 'PR3', 'nsic rc 45', 'mestiso', 'SAHOD', 'philrice/uplb', 'victoria', 'rc 1234', 'no such variety',
];
const PAGES = [1, 1, 1, 2, 3, 5, 10, 50];
export function pathFor(n: number): string {
  const term = SEARCHES[n % SEARCHES.length]!;
  const page = PAGES[Math.floor(n / SEARCHES.length) % PAGES.length]!;
  return `/api/varieties?search=${encodeURIComponent(term)}&page=${page}`;
}

