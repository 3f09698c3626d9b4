/** The lists' query from the address: `?keyword=` and `?filter=` when given. */
export function listQuery(request: Request): { keyword?: string; filter?: string } {
  const params = new URL(request.url).searchParams;
  const keyword = params.get('keyword') || undefined;
  const filter = params.get('filter') || undefined;
  return { ...(keyword ? { keyword } : {}), ...(filter ? { filter } : {}) };
}
