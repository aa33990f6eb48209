/**
 * A long loop over a file's rows on the server's thread (an import's checks after its file was
 * read) lets other requests in between: `await turn()` in the loop gives the event loop a turn
 * every `every` calls, so a health check or a search waits for one slice, never the whole file.
 */
export function turns(every = 1000): () => Promise<void> | undefined {
  let n = 0;
  return () => {
    n += 1;
    if (n % every !== 0) return undefined;
    return new Promise((resolve) => setImmediate(resolve));
  };
}
