/**
 * One page of a paginated endpoint (docs/client.md, "Pagination"). Iterating a page yields its
 * items and then those of every later page, following `X-Vigil-Next-Page` only: a short page is
 * not the end (a filtered page can be short and still have successors).
 */
export class Page<T> implements AsyncIterable<T> {
  readonly items: T[];
  /** The `X-Vigil-Next-Page` of this answer (pass it as `page` to fetch the next), or null on the last page. */
  readonly nextPage: string | null;
  readonly #fetchPage: (page: string) => Promise<Page<T>>;

  constructor(items: T[], nextPage: string | null, fetchPage: (page: string) => Promise<Page<T>>) {
    this.items = items;
    this.nextPage = nextPage;
    this.#fetchPage = fetchPage;
  }

  hasNextPage(): boolean {
    return this.nextPage !== null;
  }

  /** The next page, or null when this is the last. */
  getNextPage(): Promise<Page<T> | null> {
    return this.nextPage === null ? Promise.resolve(null) : this.#fetchPage(this.nextPage);
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    yield* this.items;
    for (let page = await this.getNextPage(); page !== null; page = await page.getNextPage()) yield* page.items;
  }
}

/**
 * What a list method returns: await it for the first page (`Page`), or iterate it with
 * `for await` for every item of every page. The request is sent once, on first use.
 */
export class PagePromise<T, P extends Page<T> = Page<T>> implements PromiseLike<P>, AsyncIterable<T> {
  readonly #load: () => Promise<P>;
  #pending: Promise<P> | undefined;

  constructor(load: () => Promise<P>) {
    this.#load = load;
  }

  #first(): Promise<P> {
    this.#pending ??= this.#load();
    return this.#pending;
  }

  then<A = P, B = never>(
    onfulfilled?: ((value: P) => A | PromiseLike<A>) | null,
    onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.#first().then(onfulfilled, onrejected);
  }

  catch<B = never>(onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<P | B> {
    return this.#first().catch(onrejected);
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    yield* await this.#first();
  }
}
