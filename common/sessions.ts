/**
 * A readable companion of the httpOnly session cookie, set and cleared with it. It holds no
 * secret ("1"): it only tells the browser app that a session may exist, so a fresh visit to the
 * login page asks the server nothing (and logs no 401), and a signed-in visit fetches the shell's
 * code while its session is checked.
 */
export const SIGNED_IN_HINT_COOKIE = 'palayan_signed_in';

/**
 * Sessions you can see and end: Account Settings lists one's own open sessions,
 * the Accounts screen any account's. The device is read from the browser's user agent.
 */
export const SESSIONS = {
  heading: 'Where you are signed in',
  adminHeading: (name: string) => `Sessions of ${name}`,
  intro: 'Sessions stay open until they log out, end after inactivity, or are signed out here.',
  thisSession: 'This session',
  signedIn: 'Signed in',
  lastActive: 'Last active',
  ip: 'IP address',
  unknownIp: 'Unknown',
  signOut: 'Sign out',
  signOutLabel: (device: string) => `Sign out ${device}`,
  signOutEverywhereElse: 'Sign out everywhere else',
  signOutAll: 'Sign out all sessions',
  signedOutOne: 'Session signed out',
  signedOutOthers: (n: number) => (n === 0 ? 'No other sessions were open' : `Signed out ${n} other ${n === 1 ? 'session' : 'sessions'}`),
  signedOutAll: (n: number) => (n === 0 ? 'No sessions were open' : `Signed out ${n} ${n === 1 ? 'session' : 'sessions'}`),
  none: 'No open sessions.',
  viewSessions: 'Sessions',
  viewSessionsLabel: (name: string) => `Sessions of ${name}`,
  notFound: 'That session is not open (it may have ended already).',
  useLogout: 'To end this session, use Logout.',
  /** Audit descriptions. */
  audit: {
    own: (device: string) => `Signed out a session (${device})`,
    others: (n: number) => `Signed out ${n} other ${n === 1 ? 'session' : 'sessions'}`,
    ofAccount: (username: string, device: string) => `Signed out a session of ${username} (${device})`,
    allOfAccount: (username: string, n: number) => `Signed out all ${n} ${n === 1 ? 'session' : 'sessions'} of ${username}`,
  },
} as const;

const BROWSERS: Array<[RegExp, string]> = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\bOPR\/|\bOpera\b/, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/\bCriOS\/|\bChrome\/|\bChromium\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*Safari\//, 'Safari'],
  [/\bokhttp\/|\bDalvik\//, 'Android app'],
  [/\bcurl\//, 'curl'],
];

const SYSTEMS: Array<[RegExp, string]> = [
  [/\bWindows\b/, 'Windows'],
  [/\bAndroid\b/, 'Android'],
  [/\biPhone\b|\biPad\b|\biOS\b/, 'iOS'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

/** "Chrome on Windows" from a user agent; 'Unknown device' when it says nothing we know. */
export function describeUserAgent(userAgent: string | null | undefined): string {
  const ua = userAgent ?? '';
  const browser = BROWSERS.find(([re]) => re.test(ua))?.[1];
  const system = SYSTEMS.find(([re]) => re.test(ua))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? 'Unknown device';
}
