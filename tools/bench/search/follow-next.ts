// Deep pages as a client reaches them in the search benchmarks.

/** The URL of a deep page as a client reaches it: following `next` links from the first page. */
export async function followNext(base: string, start: string, token: string | null, times: number): Promise<string> {
  let url = `${base}${start}`;
  for (let i = 0; i < times; i++) {
    const response = await fetch(url, { headers: token ? { authorization: `JWT ${token}` } : {} });
    const body = (await response.json()) as { next: string | null };
    if (!body.next) throw new Error(`${url}: no next page after ${i} links`);
    url = body.next.startsWith('http') ? body.next.replace(/^https?:\/\/[^/]+/, base) : `${base}${body.next}`;
  }
  return url;
}
