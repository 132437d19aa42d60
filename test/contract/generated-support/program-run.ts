/**
 * What the client programs (program.ts of each generated-* folder) share, free of jest so they compile alone: what a run
 * answers, and reading `Link: <…>; rel="next"`, which every generator leaves to the user (they type bodies only).
 */
export interface ProgramRun<Pet, Message> {
  readonly created: Pet;
  readonly listed: Pet[];
  readonly pages: number;
  readonly fetched: Pet;
  readonly message: Message;
}

/** The `cursor` of the next page, from the answer's Link header. */
export function nextCursor(link: string | null): string | undefined {
  const url = link === null ? undefined : /^<([^>]+)>; rel="next"$/.exec(link)?.[1];
  return url === undefined ? undefined : (new URL(url).searchParams.get('cursor') ?? undefined);
}
