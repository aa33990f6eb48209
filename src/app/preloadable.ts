import { lazy, type ComponentType } from 'react';

/**
 * React.lazy for a screen that is usually fetched before it is shown (src/app/router.tsx starts
 * the shell and the dashboard early). Once the code is here, the component renders at once: a
 * plain lazy component suspends for a tick even then, and React holds back the content that
 * replaces a fallback for up to 300 ms, which the first paint of a signed-in visit would wait.
 */
export function preloadable<P extends object>(load: () => Promise<ComponentType<P>>) {
  let loaded: ComponentType<P> | undefined;
  let pending: Promise<ComponentType<P>> | undefined;
  const preload = () => {
    pending ??= load().then(
      (component) => (loaded = component),
      (err: unknown) => {
        pending = undefined;
        throw err;
      },
    );
    return pending;
  };
  // A thenable that answers synchronously when the code is here: React.lazy then resolves without
  // suspending (it reads the result its callback left).
  const Component = lazy<ComponentType<P>>(() =>
    loaded
      ? ({ then: (resolve: (m: { default: ComponentType<P> }) => void) => resolve({ default: loaded! }) } as unknown as Promise<{
          default: ComponentType<P>;
        }>)
      : preload().then((component) => ({ default: component })),
  );
  return { Component, preload };
}
