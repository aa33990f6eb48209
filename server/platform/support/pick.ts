/**
 * The named calls of an object, bound to it: a module's face uses it to give other modules
 * these calls of its repository and no others.
 */
export function pick<T extends object, K extends keyof T>(source: T, keys: readonly K[]): Pick<T, K> {
  const picked = {} as Pick<T, K>;
  for (const key of keys) {
    const value = source[key];
    picked[key] = (typeof value === 'function' ? value.bind(source) : value) as T[K];
  }
  return picked;
}
