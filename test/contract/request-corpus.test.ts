/**
 * The documents and the server judge requests alike. A corpus generated with fast-check (valid
 * requests to createPet, listPets — following the cursors the API issues — getPet and submitMessage,
 * and their mutations: test/contract/request-corpus.ts) goes to the local API, and the oracle read
 * from the OpenAPI documents (openapi/request-check.ts) must predict every verdict: a 2xx when the
 * document allows the request, a 4xx with the spec's Error body when it does not. A disagreement is
 * a rule the document does not show (a schema-validating proxy would pass the request and the server
 * refuse it), or one it shows that the server does not keep.
 */
import fc from 'fast-check';
import { buildDocument } from '#openapi/document';
import { DOCUMENTS } from '#openapi/documents';
import { requestCheck, STATED_RULES, type RequestCheck, type StatedRuleName } from '#openapi/request-check';
import type { OpenApiDocument, Operation } from '#openapi/types';
import type { PublicOperationId } from '#shared/routes';
import { useTestApi, type ApiAnswer, type CallOptions } from '../support/test-api';
import {
  createPetRequests,
  getPetRequests,
  listPetsRequests,
  submitMessageRequests,
  unknownRouteRequests,
  type CorpusRequest,
  type IssuedLink,
} from './request-corpus';

const api = useTestApi();

/** Requests per part of the corpus: about 2,400 in all, with the listings walked for cursors. */
const SIZES = { createPet: 800, submitMessage: 550, listPets: 600, getPet: 350, unknownRoutes: 20 } as const;
/** Requests in flight at once: enough to keep the server busy, few enough for a busy 2-core machine. */
const CONCURRENCY = 8;
/** Attempts per request on a busy machine (see callAgainIfBusy). */
const MAX_ATTEMPTS = 3;
/** Each operation must see both verdicts at least this often, or the test proves little. */
const AT_LEAST_PER_VERDICT = 60;
const SEED = Number(process.env.PETSTORE_CORPUS_SEED ?? Math.floor(Math.random() * 2 ** 31));

/** Each operation's document (split per API, or one document whose operation names its own servers) and base path. */
interface Located {
  readonly check: RequestCheck;
  readonly document: OpenApiDocument;
  readonly operation: Operation;
}
const documents = DOCUMENTS.map((definition) => buildDocument(definition));
const checks = new Map(documents.map((document) => [document, requestCheck(document)]));
function locate(operationId: PublicOperationId): Located {
  for (const [document, check] of checks) {
    for (const item of Object.values(document.paths)) {
      const operation = Object.values(item).find((candidate) => candidate.operationId === operationId);
      if (operation) return { check, document, operation };
    }
  }
  throw new Error(`no document has ${operationId}`);
}

/** The base URL of an operation on the local server: its (or its document's) `Local` server, on the test server's port. */
function baseUrl({ document, operation }: Located): URL {
  const local = (operation.servers ?? document.servers).find((server) => server.url.startsWith('http://127.0.0.1:'));
  if (!local) throw new Error(`${operation.operationId} has no local server`);
  return new URL(local.url.replace(/\{[^}]+\}/, new URL(api.origin).port));
}

type ServerVerdict = 'accepted' | 'refused' | 'server error' | 'not the Error body' | 'contract violation';

function serverVerdict(answer: ApiAnswer): ServerVerdict {
  if (answer.status >= 200 && answer.status < 300) return 'accepted';
  if (answer.status >= 500) return 'server error';
  const body = answer.json as Record<string, unknown> | undefined;
  const isError =
    answer.status >= 400 &&
    typeof body?.code === 'string' &&
    typeof body.message === 'string' &&
    body.status === answer.status &&
    Object.keys(body).length === 3;
  return isError ? 'refused' : 'not the Error body';
}

interface Outcome {
  readonly request: CorpusRequest;
  /** The documented operation the request reached, as the oracle located it. */
  readonly operationId: string;
  readonly url: string;
  readonly allowed: boolean;
  readonly reasons: readonly string[];
  readonly server: ServerVerdict;
  readonly status: number;
  readonly answer: string;
}

const outcomes: Outcome[] = [];
const nextLinks: URL[] = [];

/** Sends one request, as the corpus describes it, and records both verdicts. */
async function run(request: CorpusRequest): Promise<ApiAnswer | undefined> {
  const located = locate(request.operationId);
  const base = baseUrl(located);
  // What fetch sends (the URL normalised) is what the oracle judges.
  const basePath = base.pathname.replace(/\/$/, '');
  const url = new URL(`${base.origin}${basePath}${request.path}${request.query === '' ? '' : `?${request.query}`}`);
  const path = url.pathname.slice(basePath.length);
  const headers: Record<string, string> = { ...request.headers };
  if (request.authorization !== 'none') {
    const scheme = request.authorization === 'key' ? 'Bearer' : request.authorization.scheme;
    headers.authorization = `${scheme} ${api.key}`;
  }
  // Bytes, so that fetch adds no Content-Type of its own.
  const body = typeof request.body === 'string' ? new TextEncoder().encode(request.body) : request.body;
  const verdict = await located.check.check(
    { method: request.method, path, query: url.search.slice(1), headers, ...(body === undefined ? {} : { body }) },
    { nextLinks },
  );
  let answer: ApiAnswer | undefined;
  let server: ServerVerdict;
  let answerText: string;
  try {
    answer = await callAgainIfBusy(request.method, url.href, { key: null, headers, ...(body === undefined ? {} : { body }) });
    server = serverVerdict(answer);
    answerText = answer.text;
  } catch (error) {
    // The contract check refused the answer (or the call failed): a disagreement of its own.
    server = 'contract violation';
    answerText = error instanceof Error ? error.message : String(error);
  }
  outcomes.push({
    request,
    operationId: verdict.operationId ?? '(no documented operation)',
    url: url.href,
    allowed: verdict.allowed,
    reasons: verdict.allowed ? [] : verdict.reasons,
    server,
    status: answer?.status ?? 0,
    answer: answerText,
  });
  return answer;
}

/** Requests sent again: after a 503, and after a connection closed before any answer. */
let sentAgain = 0;

/**
 * The API's answer, asking again what a busy machine can make fail: a 503 `service_unavailable` (the local
 * DynamoDB timed out), after its `Retry-After` as the documents tell clients; and a request whose kept-alive
 * connection the server closed as it was sent (RFC 9112 §9.3.1 lets a client retry it). Any other 5xx,
 * and a contract violation, is the answer.
 */
async function callAgainIfBusy(method: string, url: string, options: CallOptions): Promise<ApiAnswer> {
  for (let attempt = 1; ; attempt++) {
    let answer: ApiAnswer;
    try {
      answer = await api.call(method, url, options);
    } catch (error) {
      if (!(error instanceof TypeError && error.message === 'fetch failed') || attempt === MAX_ATTEMPTS) throw error;
      sentAgain++;
      continue;
    }
    if (answer.status !== 503 || attempt === MAX_ATTEMPTS) return answer;
    sentAgain++;
    await new Promise((wake) => setTimeout(wake, Number(answer.headers.get('retry-after')) * 1000));
  }
}

/** Runs requests with at most CONCURRENCY in flight. */
async function runAll(requests: readonly CorpusRequest[]): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < requests.length) {
      const request = requests[next++] as CorpusRequest;
      await run(request);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

const nextLinkOf = (answer: ApiAnswer | undefined): URL | undefined => {
  const match = /^<([^>]+)>; rel="next"$/.exec(answer?.headers.get('link') ?? '');
  return match?.[1] ? new URL(match[1]) : undefined;
};

/** Valid listings of every filter, followed page by page: the cursors the rest of the corpus uses. */
async function walkListings(): Promise<IssuedLink[]> {
  const filters = [null, 'available', 'pending', 'sold'] as const;
  await Promise.all(
    filters.flatMap((status) =>
      [1, 3, 7].map(async (limit) => {
        const first: CorpusRequest = {
          operationId: 'listPets',
          kind: 'valid: first page',
          method: 'GET',
          path: '/pets',
          query: `limit=${limit}${status ? `&status=${status}` : ''}`,
          headers: {},
          authorization: 'key',
        };
        let link = nextLinkOf(await run(first));
        for (let page = 0; link && page < 4; page++) {
          nextLinks.push(link);
          const request: CorpusRequest = { ...first, kind: 'valid: next link followed', query: link.search.slice(1) };
          link = nextLinkOf(await run(request));
        }
      }),
    ),
  );
  return nextLinks.map((link) => ({ cursor: link.searchParams.get('cursor') ?? '', status: link.searchParams.get('status') }));
}

const sample = <T>(arbitrary: fc.Arbitrary<T>, numRuns: number, part: number): T[] => fc.sample(arbitrary, { numRuns, seed: SEED + part });

function describeOutcome(outcome: Outcome): string {
  const { request } = outcome;
  const body =
    request.body === undefined
      ? ''
      : typeof request.body === 'string'
        ? request.body
        : `bytes ${Buffer.from(request.body).toString('hex')}`;
  return [
    `${request.kind}: ${request.method} ${outcome.url}`,
    `  headers ${JSON.stringify(request.headers)}, authorization ${JSON.stringify(request.authorization)}`,
    ...(body === '' ? [] : [`  body ${JSON.stringify(body.slice(0, 200))}${body.length > 200 ? ` … (${body.length} characters)` : ''}`]),
    `  document: ${outcome.allowed ? 'allowed' : `refused (${outcome.reasons.join('; ')})`}`,
    `  server: ${outcome.server} ${outcome.status} ${outcome.answer.slice(0, 300)}`,
  ].join('\n');
}

test(
  'the OpenAPI documents predict the verdict on every request of a generated corpus',
  async () => {
    const started = Date.now();
    await runAll([...sample(createPetRequests, SIZES.createPet, 1), ...sample(submitMessageRequests, SIZES.submitMessage, 2)]);
    const issued = await walkListings();
    expect(issued.length).toBeGreaterThan(20);
    await runAll([
      ...sample(listPetsRequests(issued), SIZES.listPets, 3),
      ...sample(getPetRequests(createdPetIds()), SIZES.getPet, 4),
      ...sample(unknownRouteRequests, SIZES.unknownRoutes, 5),
    ]);

    const disagreements = outcomes.filter(({ allowed, server }) => server !== (allowed ? 'accepted' : 'refused'));
    const tally = new Map<string, { allowed: number; refused: number }>();
    for (const { operationId, allowed } of outcomes) {
      const counts = tally.get(operationId) ?? { allowed: 0, refused: 0 };
      counts[allowed ? 'allowed' : 'refused']++;
      tally.set(operationId, counts);
    }
    const kinds = new Map<string, number>();
    for (const kind of outcomes.flatMap(({ request }) => request.kind.split(' + '))) kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
    console.log(
      [
        `request corpus (seed ${SEED}; PETSTORE_CORPUS_SEED=${SEED} repeats it): ${outcomes.length} requests in ${Date.now() - started} ms, ` +
          `${disagreements.length} disagreements, ${sentAgain} sent again`,
        ...[...tally].map(([operationId, counts]) => `  ${operationId}: ${counts.allowed} allowed, ${counts.refused} refused`),
        `  changes: ${[...kinds]
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([kind, count]) => `${kind} ${count}`)
          .join(' · ')}`,
      ].join('\n'),
    );

    expect(outcomes.filter(({ status }) => status >= 500).map(describeOutcome)).toEqual([]);
    expect(disagreements.slice(0, 25).map(describeOutcome)).toEqual([]);
    const thin = (['createPet', 'listPets', 'getPet', 'submitMessage'] as const)
      .map((operationId) => ({ operationId, allowed: 0, refused: 0, ...tally.get(operationId) }))
      .filter(({ allowed, refused }) => Math.min(allowed, refused) < AT_LEAST_PER_VERDICT);
    expect(thin).toEqual([]);
  },
  // A ceiling for a hang, not a claim: the corpus takes about half a minute quiet, several on a busy machine.
  600_000,
);

/** The ids of the pets the corpus created. */
function createdPetIds(): number[] {
  return outcomes.flatMap(({ request, status, answer }) => {
    if (request.operationId !== 'createPet' || status !== 201) return [];
    const id = (JSON.parse(answer) as { id?: unknown }).id;
    return typeof id === 'number' ? [id] : [];
  });
}

test('every rule the oracle reads from descriptions is stated in the documents it reads', () => {
  const stated = new Set([...checks.values()].flatMap((check) => check.statedRules));
  expect([...stated].sort()).toEqual((Object.keys(STATED_RULES) as StatedRuleName[]).sort());
});
